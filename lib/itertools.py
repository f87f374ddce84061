"""itertools (pure Python generators with CPython's results; count is built in)."""


from _itertools import count   # C: next() is one atomic step (vm/objects/countobject.c)
from _operator import index as _index


def cycle(iterable):
    saved = []
    for element in iterable:
        yield element
        saved.append(element)
    while saved:
        for element in saved:
            yield element


class repeat:
    def __init__(self, object, times=None):
        self._object = object
        self._times = times

    def __iter__(self):
        return self

    def __next__(self):
        if self._times is None:
            return self._object
        if self._times <= 0:
            raise StopIteration
        self._times -= 1
        return self._object

    def __length_hint__(self):
        return 0 if self._times is None else max(self._times, 0)

    def __repr__(self):
        if self._times is None:
            return 'repeat(%r)' % (self._object,)
        return 'repeat(%r, %d)' % (self._object, max(self._times, 0))


def accumulate(iterable, func=None, *, initial=None):
    it = iter(iterable)
    total = initial
    if initial is None:
        try:
            total = next(it)
        except StopIteration:
            return
    yield total
    if func is None:
        for element in it:
            total = total + element
            yield total
    else:
        for element in it:
            total = func(total, element)
            yield total


class chain:
    def __init__(self, *iterables):
        self._its = iter(iterables)
        self._cur = None

    @classmethod
    def from_iterable(cls, iterables):
        c = cls()
        c._its = iter(iterables)
        return c

    def __iter__(self):
        return self

    def __next__(self):
        while True:
            if self._cur is None:
                self._cur = iter(next(self._its))
            try:
                return next(self._cur)
            except StopIteration:
                self._cur = None


def compress(data, selectors):
    return (d for d, s in zip(data, selectors) if s)


def dropwhile(predicate, iterable):
    iterable = iter(iterable)
    for x in iterable:
        if not predicate(x):
            yield x
            break
    for x in iterable:
        yield x


def filterfalse(predicate, iterable):
    if predicate is None:
        predicate = bool
    for x in iterable:
        if not predicate(x):
            yield x


class groupby:
    def __init__(self, iterable, key=None):
        self.keyfunc = key if key is not None else (lambda x: x)
        self.it = iter(iterable)
        self.tgtkey = self.currkey = self.currvalue = object()
        self.id = object()

    def __iter__(self):
        return self

    def __next__(self):
        self.id = object()
        while self.currkey == self.tgtkey:
            self.currvalue = next(self.it)
            self.currkey = self.keyfunc(self.currvalue)
        self.tgtkey = self.currkey
        return (self.currkey, self._grouper(self.tgtkey, self.id))

    def _grouper(self, tgtkey, id):
        while self.id is id and self.currkey == tgtkey:
            yield self.currvalue
            try:
                self.currvalue = next(self.it)
            except StopIteration:
                return
            self.currkey = self.keyfunc(self.currvalue)


_MAXSIZE = 2**63 - 1


def _islice_index(v, message):
    """An islice argument: None, or an index in 0..sys.maxsize (checked when
    islice() is called, as CPython does)."""
    if v is None:
        return None
    if not hasattr(type(v), '__index__'):
        raise ValueError(message)
    v = type(v).__index__(v)
    if not 0 <= v <= _MAXSIZE:
        raise ValueError(message)
    return v


def islice(iterable, *args):
    if not 1 <= len(args) <= 3:
        raise TypeError('islice expected at %s %d arguments, got %d'
                        % ('least' if not args else 'most', 2 if not args else 4, len(args) + 1))
    start, stop, step = (None, args[0], None) if len(args) == 1 else (args + (None,))[:3]
    stop = _islice_index(stop, 'Stop argument for islice() must be None or an integer: 0 <= x <= sys.maxsize.')
    start = _islice_index(start, 'Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.') or 0
    step = _islice_index(step, 'Step for islice() must be a positive integer or None.')
    if step == 0:
        raise ValueError('Step for islice() must be a positive integer or None.')
    return _islice(iter(iterable), start, stop, step or 1)


def _islice(it, start, stop, step):
    i = 0
    nexti = start
    if stop is None:
        for element in it:
            if i == nexti:
                yield element
                nexti += step
            i += 1
        return
    if start >= stop:
        for i, element in zip(range(start), it):
            pass
        return
    for element in it:
        if i >= stop:
            return
        if i == nexti:
            yield element
            nexti += step
        i += 1
        if i >= stop:
            return


def starmap(function, iterable):
    for args in iterable:
        yield function(*args)


def takewhile(predicate, iterable):
    for x in iterable:
        if predicate(x):
            yield x
        else:
            break


class _tee_link:
    """A block of values read from the iterator tee objects share, and the
    next block: blocks every tee object has passed are collected."""
    __slots__ = ('values', 'next')

    def __init__(self):
        self.values = []
        self.next = None


class _tee_source:
    __slots__ = ('it', 'running')

    def __init__(self, it):
        self.it = it
        self.running = False


_TEE_LINK_SIZE = 57


class _tee:
    """Iterator wrapped to make it copyable."""
    __slots__ = ('_source', '_link', '_index', '__weakref__')

    def __init__(self, iterable):
        it = iter(iterable)
        if isinstance(it, _tee):
            self._source, self._link, self._index = it._source, it._link, it._index
        else:
            self._source, self._link, self._index = _tee_source(it), _tee_link(), 0

    def __iter__(self):
        return self

    def __next__(self):
        link, index = self._link, self._index
        if index == _TEE_LINK_SIZE:
            if link.next is None:
                link.next = _tee_link()
            link = self._link = link.next
            index = 0
        values = link.values
        if index == len(values):
            source = self._source
            if source.running:
                raise RuntimeError('cannot re-enter the tee iterator')
            source.running = True
            try:
                value = next(source.it)
            finally:
                source.running = False
            values.append(value)
        value = values[index]
        self._index = index + 1
        return value

    def __copy__(self):
        return _tee(self)


def tee(iterable, n=2, /):
    """Returns a tuple of n independent iterators."""
    n = _index(n)
    if n < 0:
        raise ValueError('n must be >= 0')
    if n == 0:
        return ()
    it = iter(iterable)
    copyable = it if hasattr(it, '__copy__') else _tee(it)
    result = [copyable]
    for _ in range(1, n):
        result.append(copyable.__copy__())
    return tuple(result)


def zip_longest(*args, fillvalue=None):
    iterators = [iter(it) for it in args]
    num_active = len(iterators)
    if not num_active:
        return
    while True:
        values = []
        for i, it in enumerate(iterators):
            try:
                value = next(it)
            except StopIteration:
                num_active -= 1
                if not num_active:
                    return
                iterators[i] = repeat(fillvalue)
                value = fillvalue
            values.append(value)
        yield tuple(values)


def product(*args, repeat=1):
    # the inputs are read now; the tuples come one at a time (an odometer over
    # the pools), never all at once
    if repeat < 0:
        raise ValueError('repeat argument cannot be negative')
    if repeat and len(args) > _MAXSIZE // 8 // repeat:   # CPython: an index array of that size
        raise OverflowError('repeat argument too large')
    return _product([tuple(pool) for pool in args] * repeat)


def _product(pools):
    for pool in pools:
        if not pool:
            return
    n = len(pools)
    digits = [0] * n
    current = [pool[0] for pool in pools]
    yield tuple(current)
    while True:
        i = n - 1
        while i >= 0:
            digits[i] += 1
            if digits[i] < len(pools[i]):
                current[i] = pools[i][digits[i]]
                break
            digits[i] = 0
            current[i] = pools[i][0]
            i -= 1
        if i < 0:
            return
        yield tuple(current)


def permutations(iterable, r=None):
    pool = tuple(iterable)
    n = len(pool)
    r = n if r is None else r
    if r > n:
        return
    indices = list(range(n))
    cycles = list(range(n, n - r, -1))
    yield tuple(pool[i] for i in indices[:r])
    while n:
        for i in reversed(range(r)):
            cycles[i] -= 1
            if cycles[i] == 0:
                indices[i:] = indices[i + 1:] + indices[i:i + 1]
                cycles[i] = n - i
            else:
                j = cycles[i]
                indices[i], indices[-j] = indices[-j], indices[i]
                yield tuple(pool[i] for i in indices[:r])
                break
        else:
            return


def combinations(iterable, r):
    pool = tuple(iterable)
    n = len(pool)
    if r > n:
        return
    indices = list(range(r))
    yield tuple(pool[i] for i in indices)
    while True:
        for i in reversed(range(r)):
            if indices[i] != i + n - r:
                break
        else:
            return
        indices[i] += 1
        for j in range(i + 1, r):
            indices[j] = indices[j - 1] + 1
        yield tuple(pool[i] for i in indices)


def combinations_with_replacement(iterable, r):
    pool = tuple(iterable)
    n = len(pool)
    if not n and r:
        return
    indices = [0] * r
    yield tuple(pool[i] for i in indices)
    while True:
        for i in reversed(range(r)):
            if indices[i] != n - 1:
                break
        else:
            return
        indices[i:] = [indices[i] + 1] * (r - i)
        yield tuple(pool[i] for i in indices)


def pairwise(iterable):
    it = iter(iterable)
    try:
        a = next(it)
    except StopIteration:
        return
    for b in it:
        yield a, b
        a = b
