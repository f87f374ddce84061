"""Synchronised queues for threads, after CPython 3.11's queue module.

Queue, LifoQueue and PriorityQueue share one lock among three threading.Condition objects; SimpleQueue
has one Condition over an RLock.
"""

import threading
from collections import deque
from heapq import heappush, heappop
from types import GenericAlias

__all__ = ['Empty', 'Full', 'Queue', 'PriorityQueue', 'LifoQueue', 'SimpleQueue']


class Empty(Exception):
    """get() found no item: the queue was empty, without blocking or until the timeout."""
    __module__ = '_queue'


class Full(Exception):
    """put() found no room: the queue was full, without blocking or until the timeout."""


class Queue:
    """A FIFO queue; maxsize <= 0 means unbounded.

    Subclasses change the order by overriding _init, _qsize, _put and _get, which are called with the
    queue's lock held.
    """

    def __init__(self, maxsize=0):
        self.maxsize = maxsize
        self._init(maxsize)
        # One lock guards the queue. Its three conditions are signalled when an item is added
        # (not_empty), when one is removed (not_full) and when unfinished_tasks reaches 0.
        lock = self.mutex = threading.Lock()
        self.not_empty, self.not_full, self.all_tasks_done = [threading.Condition(lock) for _ in 'abc']
        self.unfinished_tasks = 0

    def task_done(self):
        """Mark one item taken by get() as processed; join() returns once every item is.

        ValueError if called more times than items were put.
        """
        with self.all_tasks_done:
            left = self.unfinished_tasks - 1
            if left < 0:
                raise ValueError('task_done() called too many times')
            if left == 0:
                self.all_tasks_done.notify_all()
            self.unfinished_tasks = left

    def join(self):
        """Wait until every item put has been got and processed (task_done())."""
        with self.all_tasks_done:
            while self.unfinished_tasks:
                self.all_tasks_done.wait()

    def qsize(self):
        """The approximate size of the queue (not reliable once other threads run)."""
        with self.mutex:
            return self._qsize()

    def empty(self):
        """True if the queue is empty now (not reliable once other threads run)."""
        with self.mutex:
            return not self._qsize()

    def full(self):
        """True if the queue is full now (not reliable once other threads run)."""
        with self.mutex:
            return 0 < self.maxsize <= self._qsize()

    def put(self, item, block=True, timeout=None):
        """Put item into the queue.

        When full: block (default) until a slot is free, or at most timeout seconds and then raise
        Full; with block false, raise Full at once.
        """
        with self.not_full:
            if self.maxsize > 0:
                if block and timeout is not None and timeout < 0:
                    raise ValueError("'timeout' must be a non-negative number")
                if self._qsize() >= self.maxsize:
                    if not block:
                        raise Full
                    if not self.not_full.wait_for(lambda: self._qsize() < self.maxsize, timeout):
                        raise Full
            self._put(item)
            self.unfinished_tasks += 1
            self.not_empty.notify()

    def get(self, block=True, timeout=None):
        """Remove and return an item.

        When empty: block (default) until an item arrives, or at most timeout seconds and then raise
        Empty; with block false, raise Empty at once.
        """
        with self.not_empty:
            if block and timeout is not None and timeout < 0:
                raise ValueError("'timeout' must be a non-negative number")
            if not self._qsize():
                if not block:
                    raise Empty
                if not self.not_empty.wait_for(self._qsize, timeout):
                    raise Empty
            item = self._get()
            self.not_full.notify()
            return item

    def put_nowait(self, item):
        """put(item, block=False)"""
        return self.put(item, block=False)

    def get_nowait(self):
        """get(block=False)"""
        return self.get(block=False)

    # The storage, overridden by subclasses; called with the lock held.

    def _init(self, maxsize):
        self.queue = deque()

    def _qsize(self):
        return len(self.queue)

    def _put(self, item):
        self.queue.append(item)

    def _get(self):
        return self.queue.popleft()

    __class_getitem__ = classmethod(GenericAlias)


class _ListQueue(Queue):
    """Storage in a list (its len and append inherited from Queue's methods)."""

    def _init(self, maxsize):
        self.queue = []


class PriorityQueue(_ListQueue):
    """A queue that returns the smallest item first (entries are often (priority, data) tuples)."""

    def _put(self, item):
        heappush(self.queue, item)      # the list is kept a heap

    def _get(self):
        return heappop(self.queue)


class LifoQueue(_ListQueue):
    """A queue that returns the most recently added item first."""

    def _get(self):
        return self.queue.pop()         # the end the items are appended to


class SimpleQueue:
    """An unbounded FIFO queue without task tracking; put() never blocks."""

    def __init__(self):
        self._items = deque()
        # Reentrant, so that put() from a __del__ or a signal handler that interrupted a put() or a
        # get() of the same thread does not deadlock (CPython's SimpleQueue is reentrant). Its
        # waits and wake-ups are lock operations, transactional under STM (it waited in a monitor
        # before: every wake-up of a ThreadPoolExecutor worker was an inevitable slow path).
        self._cond = threading.Condition(threading.RLock())

    def put(self, item, block=True, timeout=None):
        """Put item into the queue; never blocks (block and timeout are accepted and ignored)."""
        cond = self._cond
        with cond:
            self._items.append(item)
            cond.notify()

    def get(self, block=True, timeout=None):
        """Remove and return an item.

        When empty: block (default) until an item arrives, or at most timeout seconds and then raise
        Empty; with block false, raise Empty at once.
        """
        if block and timeout is not None and timeout < 0:
            raise ValueError("'timeout' must be a non-negative number")
        cond = self._cond
        items = self._items
        with cond:
            if not items:
                if not block:
                    raise Empty
                if not cond.wait_for(lambda: items, timeout):
                    raise Empty
            return items.popleft()

    def put_nowait(self, item):
        """put(item, block=False)"""
        return self.put(item, block=False)

    def get_nowait(self):
        """get(block=False)"""
        return self.get(block=False)

    def empty(self):
        """True if the queue is empty now (not reliable once other threads run)."""
        return not self._items

    def qsize(self):
        """The approximate size of the queue (not reliable once other threads run)."""
        return len(self._items)

    __class_getitem__ = classmethod(GenericAlias)


SimpleQueue.__module__ = '_queue'
