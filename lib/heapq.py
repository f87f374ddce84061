"""heapq: binary min-heaps on lists (pure Python). The sifting strategy (a
hole travels to a leaf along the smaller children, then the displaced item
climbs back) decides where equal-ranking items land, so it is the one
CPython documents: heaps and merges come out in the same order."""

__all__ = ['heappush', 'heappop', 'heapify', 'heapreplace', 'merge', 'nlargest', 'nsmallest',
           'heappushpop']


def _changed():
    # a comparison (user __lt__) resized the heap: the hole no longer fits it
    raise RuntimeError('list changed size during iteration')


def _need_list(heap, name, one_arg=False):
    if not isinstance(heap, list):
        raise TypeError('%s() argument%s must be list, not %s'
                        % (name, '' if one_arg else ' 1', type(heap).__name__))


# ---- min-heaps: `a < b` puts a nearer the root ----

def _rise(heap, top, hole):
    """Let heap[hole] climb toward index `top` past every parent it is less than."""
    size = len(heap)
    item = heap[hole]
    while hole > top:
        up = (hole - 1) // 2
        above = heap[up]
        less = item < above
        if len(heap) != size:
            _changed()
        if not less:
            break
        heap[hole] = above
        hole = up
    heap[hole] = item


def _sink(heap, hole):
    """Re-seat heap[hole]: the lesser child of the hole moves up until the
    hole reaches a leaf, then the item climbs back from there."""
    size = len(heap)
    top = hole
    item = heap[hole]
    child = 2 * hole + 1
    while child < size:
        sibling = child + 1
        if sibling < size:
            less = heap[child] < heap[sibling]
            if len(heap) != size:
                _changed()
            if not less:
                child = sibling
        heap[hole] = heap[child]
        hole = child
        child = 2 * hole + 1
    heap[hole] = item
    _rise(heap, top, hole)


def heappush(heap, item):
    _need_list(heap, 'heappush')
    heap.append(item)
    _rise(heap, 0, len(heap) - 1)


def heappop(heap):
    _need_list(heap, 'heappop', True)
    if not heap:
        raise IndexError('index out of range')
    tail = heap.pop()
    if not heap:
        return tail
    smallest = heap[0]
    heap[0] = tail
    _sink(heap, 0)
    return smallest


def heapreplace(heap, item):
    _need_list(heap, 'heapreplace')
    if not heap:
        raise IndexError('index out of range')
    smallest = heap[0]
    heap[0] = item
    _sink(heap, 0)
    return smallest


def heappushpop(heap, item):
    _need_list(heap, 'heappushpop')
    if not heap or not heap[0] < item:
        return item            # item would be popped right away
    if not heap:
        raise IndexError('index out of range')   # emptied by the comparison
    smallest = heap[0]
    heap[0] = item
    _sink(heap, 0)
    return smallest


def heapify(x):
    _need_list(x, 'heapify', True)
    for i in range(len(x) // 2 - 1, -1, -1):
        _sink(x, i)


# ---- max-heaps (merge(reverse=True)): `b < a` puts a nearer the root ----

def _rise_max(heap, top, hole):
    size = len(heap)
    item = heap[hole]
    while hole > top:
        up = (hole - 1) // 2
        above = heap[up]
        less = above < item
        if len(heap) != size:
            _changed()
        if not less:
            break
        heap[hole] = above
        hole = up
    heap[hole] = item


def _sink_max(heap, hole):
    size = len(heap)
    top = hole
    item = heap[hole]
    child = 2 * hole + 1
    while child < size:
        sibling = child + 1
        if sibling < size:
            less = heap[sibling] < heap[child]
            if len(heap) != size:
                _changed()
            if not less:
                child = sibling
        heap[hole] = heap[child]
        hole = child
        child = 2 * hole + 1
    heap[hole] = item
    _rise_max(heap, top, hole)


def _heappop_max(heap):
    tail = heap.pop()
    if not heap:
        return tail
    largest = heap[0]
    heap[0] = tail
    _sink_max(heap, 0)
    return largest


def _heapreplace_max(heap, item):
    largest = heap[0]
    heap[0] = item
    _sink_max(heap, 0)
    return largest


def _heapify_max(x):
    for i in range(len(x) // 2 - 1, -1, -1):
        _sink_max(x, i)


def merge(*iterables, key=None, reverse=False):
    if reverse:
        make_heap, drop_top, swap_top, sign = _heapify_max, _heappop_max, _heapreplace_max, -1
    else:
        make_heap, drop_top, swap_top, sign = heapify, heappop, heapreplace, 1
    # one entry per live input: [rank, tie-breaker (input number: stable), value, next]
    entries = []
    for number, source in enumerate(iterables):
        advance = iter(source).__next__
        try:
            value = advance()
        except StopIteration:
            continue
        entries.append([value if key is None else key(value), number * sign, value, advance])
    make_heap(entries)
    while len(entries) > 1:
        entry = entries[0]
        yield entry[2]
        try:
            value = entry[3]()
        except StopIteration:
            drop_top(entries)
            continue
        entry[0] = value if key is None else key(value)
        entry[2] = value
        swap_top(entries, entry)
    if entries:
        # the last input left: no more comparisons
        entry = entries[0]
        yield entry[2]
        advance = entry[3]
        while True:
            try:
                value = advance()
            except StopIteration:
                return
            yield value


def nsmallest(n, iterable, key=None):
    # documented to equal sorted(iterable, key=key)[:n]
    return sorted(iterable, key=key)[:n] if n > 0 else []


def nlargest(n, iterable, key=None):
    # documented to equal sorted(iterable, key=key, reverse=True)[:n]
    return sorted(iterable, key=key, reverse=True)[:n] if n > 0 else []
