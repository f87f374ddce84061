"""bisect: binary search over sorted sequences (pure Python)."""


def _boundary(a, lo, hi, key, goes_right):
    """The first index in a[lo:hi] whose (keyed) item does not go right of
    the searched value; the items that do go right form a prefix."""
    if lo < 0:
        raise ValueError('lo must be non-negative')
    if hi is None:
        hi = len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        probe = a[mid] if key is None else key(a[mid])
        if goes_right(probe):
            lo = mid + 1
        else:
            hi = mid
    return lo


def bisect_right(a, x, lo=0, hi=None, *, key=None):
    # after every item equal to x
    return _boundary(a, lo, hi, key, lambda item: not x < item)


def bisect_left(a, x, lo=0, hi=None, *, key=None):
    # before every item equal to x
    return _boundary(a, lo, hi, key, lambda item: item < x)


def insort_right(a, x, lo=0, hi=None, *, key=None):
    a.insert(bisect_right(a, x if key is None else key(x), lo, hi, key=key), x)


def insort_left(a, x, lo=0, hi=None, *, key=None):
    a.insert(bisect_left(a, x if key is None else key(x), lo, hi, key=key), x)


bisect = bisect_right
insort = insort_right
