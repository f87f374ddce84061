"""heapq: binary min-heaps on lists (pure Python; same algorithms and
therefore the same element order as CPython's heapq)."""

__all__ = ['heappush', 'heappop', 'heapify', 'heapreplace', 'merge', 'nlargest', 'nsmallest',
           'heappushpop']


def heappush(heap, item):
    heap.append(item)
    _siftdown(heap, 0, len(heap) - 1)


def heappop(heap):
    last = heap.pop()
    if heap:
        item = heap[0]
        heap[0] = last
        _siftup(heap, 0)
        return item
    return last


def heapreplace(heap, item):
    returnitem = heap[0]
    heap[0] = item
    _siftup(heap, 0)
    return returnitem


def heappushpop(heap, item):
    if heap and heap[0] < item:
        item, heap[0] = heap[0], item
        _siftup(heap, 0)
    return item


def heapify(x):
    n = len(x)
    for i in reversed(range(n // 2)):
        _siftup(x, i)


def _heappop_max(heap):
    last = heap.pop()
    if heap:
        item = heap[0]
        heap[0] = last
        _siftup_max(heap, 0)
        return item
    return last


def _heapreplace_max(heap, item):
    returnitem = heap[0]
    heap[0] = item
    _siftup_max(heap, 0)
    return returnitem


def _heapify_max(x):
    n = len(x)
    for i in reversed(range(n // 2)):
        _siftup_max(x, i)


# The parent of the hole moves down while the new item is smaller.
def _siftdown(heap, startpos, pos):
    newitem = heap[pos]
    while pos > startpos:
        parentpos = (pos - 1) >> 1
        parent = heap[parentpos]
        if newitem < parent:
            heap[pos] = parent
            pos = parentpos
            continue
        break
    heap[pos] = newitem


# Move the smaller child up until a leaf, then sift the item down from there.
def _siftup(heap, pos):
    endpos = len(heap)
    startpos = pos
    newitem = heap[pos]
    childpos = 2 * pos + 1
    while childpos < endpos:
        rightpos = childpos + 1
        if rightpos < endpos and not heap[childpos] < heap[rightpos]:
            childpos = rightpos
        heap[pos] = heap[childpos]
        pos = childpos
        childpos = 2 * pos + 1
    heap[pos] = newitem
    _siftdown(heap, startpos, pos)


def _siftdown_max(heap, startpos, pos):
    newitem = heap[pos]
    while pos > startpos:
        parentpos = (pos - 1) >> 1
        parent = heap[parentpos]
        if parent < newitem:
            heap[pos] = parent
            pos = parentpos
            continue
        break
    heap[pos] = newitem


def _siftup_max(heap, pos):
    endpos = len(heap)
    startpos = pos
    newitem = heap[pos]
    childpos = 2 * pos + 1
    while childpos < endpos:
        rightpos = childpos + 1
        if rightpos < endpos and not heap[rightpos] < heap[childpos]:
            childpos = rightpos
        heap[pos] = heap[childpos]
        pos = childpos
        childpos = 2 * pos + 1
    heap[pos] = newitem
    _siftdown_max(heap, startpos, pos)


def merge(*iterables, key=None, reverse=False):
    entries = []
    if reverse:
        _heapify_fn, _pop, _replace, direction = _heapify_max, _heappop_max, _heapreplace_max, -1
    else:
        _heapify_fn, _pop, _replace, direction = heapify, heappop, heapreplace, 1
    if key is None:
        for order, it in enumerate(map(iter, iterables)):
            try:
                nxt = it.__next__
                entries.append([nxt(), order * direction, nxt])
            except StopIteration:
                pass
        _heapify_fn(entries)
        while len(entries) > 1:
            try:
                while True:
                    value, order, nxt = s = entries[0]
                    yield value
                    s[0] = nxt()
                    _replace(entries, s)
            except StopIteration:
                _pop(entries)
        if entries:
            value, order, nxt = entries[0]
            yield value
            yield from _rest(nxt)
        return
    for order, it in enumerate(map(iter, iterables)):
        try:
            nxt = it.__next__
            value = nxt()
            entries.append([key(value), order * direction, value, nxt])
        except StopIteration:
            pass
    _heapify_fn(entries)
    while len(entries) > 1:
        try:
            while True:
                key_value, order, value, nxt = s = entries[0]
                yield value
                value = nxt()
                s[0] = key(value)
                s[2] = value
                _replace(entries, s)
        except StopIteration:
            _pop(entries)
    if entries:
        key_value, order, value, nxt = entries[0]
        yield value
        yield from _rest(nxt)


def _rest(nxt):
    while True:
        try:
            yield nxt()
        except StopIteration:
            return


def nsmallest(n, iterable, key=None):
    if n <= 0:
        return []
    if key is None:
        return sorted(iterable)[:n]
    return sorted(iterable, key=key)[:n]


def nlargest(n, iterable, key=None):
    if n <= 0:
        return []
    if key is None:
        return sorted(iterable, reverse=True)[:n]
    return sorted(iterable, key=key, reverse=True)[:n]
