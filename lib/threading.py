"""Thread objects and synchronisation primitives, after CPython 3.11's threading.

Built on the C modules `_thread` (threads, Lock, RLock, thread-local data) and `tm` (object monitors:
tm.synchronized / tm.wait / tm.notify).  A Condition's waiter blocks on a plain lock of its own that
notify releases, so Condition, Semaphore, Event, Barrier and queue block on _thread.lock (transactional
under STM); Thread.join waits on a private monitor.

Differences from CPython, on purpose:
- No weak references: a dummy thread stays in the active table forever, as in CPython 3.11.
"""

import sys as _sys
import _thread
import tm as _tm

from time import monotonic as _time
from itertools import count as _count, islice as _islice
from _weakrefset import WeakSet

__all__ = ['get_ident', 'active_count', 'Condition', 'current_thread',
           'enumerate', 'main_thread', 'TIMEOUT_MAX',
           'Event', 'Lock', 'RLock', 'Semaphore', 'BoundedSemaphore', 'Thread',
           'Barrier', 'BrokenBarrierError', 'Timer', 'ThreadError',
           'setprofile', 'settrace', 'local', 'stack_size',
           'excepthook', 'ExceptHookArgs', 'gettrace', 'getprofile',
           'get_native_id']

_start_new_thread = _thread.start_new_thread
_allocate_lock = _thread.allocate_lock
_set_sentinel = _thread._set_sentinel
get_ident = _thread.get_ident
get_native_id = _thread.get_native_id
_HAVE_THREAD_NATIVE_ID = True
ThreadError = _thread.error
TIMEOUT_MAX = _thread.TIMEOUT_MAX
stack_size = _thread.stack_size
local = _thread._local
Lock = _thread.allocate_lock
RLock = _thread.RLock
_CRLock = _thread.RLock
del _thread


# ---------------------------------------------------------------------------------------------------
# Deprecation warnings of the old camelCase aliases


def _deprecated(message):
    """A DeprecationWarning for the deprecated alias's caller (warnings, imported when first needed
    as CPython's threading does)."""
    import warnings
    warnings.warn(message, DeprecationWarning, stacklevel=3)


# ---------------------------------------------------------------------------------------------------
# Trace and profile hooks

_hooks = {'settrace': None, 'setprofile': None}    # the sys function each is passed to -> hook


def settrace(func):
    """Record a trace function for threads started from now on (passed to sys.settrace if it exists)."""
    _hooks['settrace'] = func


def gettrace():
    """Return the trace function recorded by settrace()."""
    return _hooks['settrace']


def setprofile(func):
    """Record a profile function for threads started from now on (sys.setprofile if it exists)."""
    _hooks['setprofile'] = func


def getprofile():
    """Return the profile function recorded by setprofile()."""
    return _hooks['setprofile']


def _object_repr(obj, detail):
    """'<module.Class at 0xADDR: detail>', the repr of the synchronisation objects."""
    kind = obj.__class__
    return '<%s.%s at %#x: %s>' % (kind.__module__, kind.__qualname__, id(obj), detail)


# ---------------------------------------------------------------------------------------------------
# The reentrant lock in Python (CPython's _PyRLock; RLock is _thread's)

class _RLock:
    """A reentrant lock over a plain lock: the thread that holds it may take it again, and must release
    it as many times as it took it."""

    def __init__(self):
        self._block = _allocate_lock()
        self._owner = None
        self._count = 0

    def __repr__(self):
        owner = self._owner
        thread = _active.get(owner)
        if thread is not None:
            owner = thread.name
        return '<%s %s.%s object owner=%r count=%d at %s>' % (
            'locked' if self._block.locked() else 'unlocked', self.__class__.__module__,
            self.__class__.__qualname__, owner, self._count, hex(id(self)))

    def _at_fork_reinit(self):
        self._block._at_fork_reinit()
        self._owner = None
        self._count = 0

    def acquire(self, blocking=True, timeout=-1):
        me = get_ident()
        if self._owner == me:
            self._count += 1
            return 1
        taken = self._block.acquire(blocking, timeout)
        if taken:
            self._owner = me
            self._count = 1
        return taken

    __enter__ = acquire

    def release(self):
        if self._owner != get_ident():
            raise RuntimeError("cannot release un-acquired lock")
        self._count -= 1
        if not self._count:
            self._owner = None
            self._block.release()

    def __exit__(self, t, v, tb):
        self.release()

    # for Condition: give the lock up whatever its depth, and take it back to the same depth
    def _release_save(self):
        if self._count == 0:
            raise RuntimeError("cannot release un-acquired lock")
        state = self._count, self._owner
        self._count = 0
        self._owner = None
        self._block.release()
        return state

    def _acquire_restore(self, state):
        self._block.acquire()
        self._count, self._owner = state

    def _is_owned(self):
        return self._owner == get_ident()


_PyRLock = _RLock


# ---------------------------------------------------------------------------------------------------
# Condition variables, on a private monitor

class _Monitor:
    """A plain object whose monitor a Condition (or a Thread, or a queue.SimpleQueue) waits on."""
    __slots__ = ()


def _monitor_wait_for(monitor, predicate, timeout=None):
    """Wait on monitor (held by the caller) until predicate() is true or timeout seconds have passed
    (None: no limit); return the last predicate() value.  Whoever makes it true notifies monitor."""
    deadline = None if timeout is None else _time() + timeout
    remaining = None
    result = predicate()
    while not result:
        if deadline is not None:
            remaining = deadline - _time()
            if remaining <= 0:
                break
        _tm.wait(monitor, remaining)
        result = predicate()
    return result


class Condition:
    """A condition variable bound to a lock (an RLock by default).

    wait() releases the lock and blocks until notified or until the timeout expires; notify() and
    notify_all() wake waiters in the order they began waiting.  The caller must hold the lock.
    """

    def __init__(self, lock=None):
        if lock is None:
            lock = RLock()
        self._lock = lock
        self.acquire = lock.acquire
        self.release = lock.release
        # Locks that know their owner (RLock) save and restore their whole recursion state.
        for name in ('_release_save', '_acquire_restore', '_is_owned'):
            method = getattr(lock, name, None)
            if method is not None:
                setattr(self, name, method)
        # One plain lock per thread in wait(), in the order they began waiting: the waiter holds
        # it and blocks taking it again; notify releases it. Every step is a _thread.lock
        # operation, transactional under STM (a release that wakes a thread wakes it after its
        # commit), where waiting in a monitor made every notify and every wait an inevitable slow
        # path (queue_pipeline: 1,236 of 1,243 transactions inevitable).
        self._waiters = []

    def __enter__(self):
        return self._lock.__enter__()

    def __exit__(self, *exc_info):
        return self._lock.__exit__(*exc_info)

    def __repr__(self):
        return f"<Condition({self._lock}, {len(self._waiters)})>"

    def _at_fork_reinit(self):
        self._lock._at_fork_reinit()
        self._waiters.clear()

    # Fallbacks for locks without owner tracking (a plain Lock).
    def _release_save(self):
        self._lock.release()

    def _acquire_restore(self, state):
        self._lock.acquire()

    def _is_owned(self):
        # A plain lock cannot tell who holds it: held by anyone counts as held by us.
        lock = self._lock
        was_free = lock.acquire(False)
        if was_free:
            lock.release()
        return not was_free

    def wait(self, timeout=None):
        """Release the lock, wait until notified or timed out, re-acquire the lock.

        Returns False if the timeout expired, True otherwise.
        """
        if not self._is_owned():
            raise RuntimeError("cannot wait on un-acquired lock")
        waiter = _allocate_lock()
        waiter.acquire()
        # Queued before the lock goes: a notifier needs the lock, so it finds us queued.
        self._waiters.append(waiter)
        state = self._release_save()
        notified = False
        try:
            if timeout is None:
                notified = waiter.acquire()
            elif timeout > 0:
                notified = waiter.acquire(True, timeout)
            else:
                notified = waiter.acquire(False)
            if notified:
                waiter.release()   # taken by us: off this thread's count of locks held (STM)
            return notified
        finally:
            self._acquire_restore(state)
            if not notified:
                # Timed out (or a signal handler raised): leave the queue, unless a notify took us
                # off it meanwhile (then that notify was spent on us, as in CPython).
                try:
                    self._waiters.remove(waiter)
                except ValueError:
                    pass

    def wait_for(self, predicate, timeout=None):
        """Wait until predicate() is true or the timeout expires; return the last predicate() value."""
        deadline = None
        remaining = timeout
        result = predicate()
        while not result:
            if remaining is not None:
                if deadline is None:
                    deadline = _time() + remaining
                else:
                    remaining = deadline - _time()
                    if remaining <= 0:
                        break
            self.wait(remaining)
            result = predicate()
        return result

    def notify(self, n=1):
        """Wake up to n threads waiting on this condition."""
        if not self._is_owned():
            raise RuntimeError("cannot notify on un-acquired lock")
        waiters = self._waiters
        while n > 0 and waiters:
            waiters.pop(0).release()
            n -= 1

    def notify_all(self):
        """Wake up every thread waiting on this condition."""
        self.notify(len(self._waiters))

    def notifyAll(self):
        """Deprecated alias of notify_all()."""
        _deprecated('notifyAll() is deprecated, use notify_all() instead')
        self.notify_all()


# ---------------------------------------------------------------------------------------------------
# Semaphores

class Semaphore:
    """A counter that acquire() decrements, blocking at zero, and release() increments."""

    def __init__(self, value=1):
        if value < 0:
            raise ValueError("semaphore initial value must be >= 0")
        self._value = value
        self._cond = Condition(Lock())    # guards _value; waiters wait for it to be non-zero

    def __repr__(self):
        return _object_repr(self, 'value=%s' % (self._value,))

    def acquire(self, blocking=True, timeout=None):
        """Decrement the counter, waiting while it is zero.

        Returns True on success, False if non-blocking or the timeout expired first.
        """
        if not blocking and timeout is not None:
            raise ValueError("can't specify timeout for non-blocking acquire")
        cond = self._cond
        with cond:
            if self._value == 0:
                if not blocking:
                    return False
                if not cond.wait_for(lambda: self._value, timeout):
                    return False
            self._value -= 1
            return True

    __enter__ = acquire

    def release(self, n=1):
        """Increment the counter by n, waking up to n waiting threads."""
        if n < 1:
            raise ValueError('n must be one or more')
        with self._cond:
            self._value += n
            self._cond.notify(n)

    def __exit__(self, t, v, tb):
        self.release()


class BoundedSemaphore(Semaphore):
    """A Semaphore whose release() refuses to go past the initial value."""

    def __init__(self, value=1):
        super().__init__(value)
        self._initial_value = value

    def __repr__(self):
        return _object_repr(self, 'value=%s/%s' % (self._value, self._initial_value))

    def release(self, n=1):
        """Increment the counter by n; ValueError if that exceeds the initial value."""
        if n < 1:
            raise ValueError('n must be one or more')
        with self._cond:
            if self._value + n > self._initial_value:
                raise ValueError("Semaphore released too many times")
            self._value += n
            self._cond.notify(n)


# ---------------------------------------------------------------------------------------------------
# Events

class Event:
    """A flag that threads can wait for: set() wakes every waiter, clear() resets it."""

    def __init__(self):
        self._flag = False
        self._cond = Condition(Lock())    # set() notifies everyone waiting for the flag

    def __repr__(self):
        return _object_repr(self, ('unset', 'set')[bool(self._flag)])

    def _at_fork_reinit(self):
        # Private method called by Thread._after_fork(), as CPython's
        self._cond._at_fork_reinit()

    def is_set(self):
        """Return True if the flag is set."""
        return self._flag

    def isSet(self):
        """Deprecated alias of is_set()."""
        _deprecated('isSet() is deprecated, use is_set() instead')
        return self.is_set()

    def set(self):
        """Set the flag and wake every waiting thread."""
        with self._cond:
            self._flag = True
            self._cond.notify_all()

    def clear(self):
        """Reset the flag."""
        with self._cond:
            self._flag = False

    def wait(self, timeout=None):
        """Wait until the flag is set or the timeout expires; return True if woken by set()."""
        with self._cond:
            if self._flag:
                return True
            return self._cond.wait(timeout)


# ---------------------------------------------------------------------------------------------------
# Barriers

class BrokenBarrierError(RuntimeError):
    pass


# Barrier states
_FILLING = 0
_DRAINING = 1
_RESETTING = -1
_BROKEN = -2


class Barrier:
    """Let a fixed number of threads (parties) wait until all of them have called wait()."""

    def __init__(self, parties, action=None, timeout=None):
        self._cond = Condition(Lock())
        self._parties = parties
        self._action = action
        self._timeout = timeout
        self._state = _FILLING
        self._count = 0          # threads inside wait()

    def __repr__(self):
        if self.broken:
            return _object_repr(self, 'broken')
        return _object_repr(self, 'waiters=%d/%d' % (self.n_waiting, self.parties))

    def wait(self, timeout=None):
        """Wait until all parties have arrived; return this thread's arrival index (0..parties-1).

        Raises BrokenBarrierError if the barrier is broken, reset or aborted, or the wait times out
        (which breaks it).
        """
        if timeout is None:
            timeout = self._timeout
        cond = self._cond
        with cond:
            # A previous round still draining (or a reset in progress): wait for it to finish.
            while self._state == _DRAINING or self._state == _RESETTING:
                cond.wait()
            if self._state == _BROKEN:
                raise BrokenBarrierError
            index = self._count
            self._count += 1
            try:
                if index + 1 == self._parties:
                    # Last to arrive: run the action, then release the others.
                    try:
                        if self._action:
                            self._action()
                    except BaseException:
                        self._break()
                        raise
                    self._state = _DRAINING
                    cond.notify_all()
                else:
                    if not cond.wait_for(lambda: self._state != _FILLING, timeout):
                        self._break()
                        raise BrokenBarrierError
                    if self._state != _DRAINING:
                        raise BrokenBarrierError
                return index
            finally:
                self._count -= 1
                if self._count == 0 and (self._state == _DRAINING or self._state == _RESETTING):
                    # Last one out of a finished round or a reset: the barrier fills again.
                    self._state = _FILLING
                    cond.notify_all()

    def reset(self):
        """Return the barrier to its initial state; threads waiting in it get BrokenBarrierError."""
        with self._cond:
            if self._count > 0:
                if self._state == _FILLING or self._state == _BROKEN:
                    self._state = _RESETTING
            else:
                self._state = _FILLING
            self._cond.notify_all()

    def abort(self):
        """Break the barrier: current and future wait() calls raise BrokenBarrierError."""
        with self._cond:
            self._break()

    def _break(self):
        # (the caller holds the condition's lock)
        self._state = _BROKEN
        self._cond.notify_all()

    parties = property(lambda self: self._parties, doc="The number of threads needed to pass the barrier.")
    n_waiting = property(lambda self: self._count if self._state == _FILLING else 0,
                         doc="The number of threads waiting in the barrier now.")
    broken = property(lambda self: self._state == _BROKEN, doc="True if the barrier is broken.")


# ---------------------------------------------------------------------------------------------------
# Thread bookkeeping

_serial = _count(1)


def _newname(template="Thread-%d"):
    """A default thread name: the template with the next serial number (shared by all templates)."""
    return template % next(_serial)


_active_limbo_lock = _allocate_lock()
_active = {}     # ident -> Thread, for started threads (and dummy threads)
_limbo = {}      # Thread -> Thread, between start() and the thread running its bootstrap
_dangling = WeakSet()   # every Thread made and not yet collected (test.support's leak checks read it)


# ---------------------------------------------------------------------------------------------------
# Exception hook

class _ExceptHookArgs(tuple):
    """The argument of threading.excepthook: (exc_type, exc_value, exc_traceback, thread)."""

    __module__ = '_thread'
    n_fields = 4
    n_sequence_fields = 4
    n_unnamed_fields = 0

    def __new__(cls, sequence):
        self = tuple.__new__(cls, sequence)
        if len(self) != 4:
            raise TypeError("_thread._ExceptHookArgs() takes a 4-sequence (%d-sequence given)"
                            % len(self))
        return self

    @property
    def exc_type(self):
        """Exception type"""
        return self[0]

    @property
    def exc_value(self):
        """Exception value"""
        return self[1]

    @property
    def exc_traceback(self):
        """Exception traceback"""
        return self[2]

    @property
    def thread(self):
        """Thread"""
        return self[3]

    def __repr__(self):
        return ("_thread._ExceptHookArgs(exc_type=%r, exc_value=%r, exc_traceback=%r, thread=%r)"
                % (self[0], self[1], self[2], self[3]))

    def __reduce__(self):
        return (self.__class__, (tuple(self),))


ExceptHookArgs = _ExceptHookArgs


def excepthook(args, /):
    """Handle an exception raised by Thread.run(): print "Exception in thread NAME:" and the traceback.

    SystemExit is ignored silently.
    """
    if args.exc_type is SystemExit:
        return
    thread = args.thread
    stderr = _sys.stderr
    if stderr is None:
        stderr = getattr(thread, '_stderr', None)
        if stderr is None:
            return
    name = thread.name if thread is not None else get_ident()
    print("Exception in thread %s:" % (name,), file=stderr, flush=True)
    if stderr is _sys.stderr:
        _sys.__excepthook__(args.exc_type, args.exc_value, args.exc_traceback)
    else:
        # sys.stderr is gone: print on the stream the thread was created with.
        saved = _sys.stderr
        _sys.stderr = stderr
        try:
            _sys.__excepthook__(args.exc_type, args.exc_value, args.exc_traceback)
        finally:
            _sys.stderr = saved
    stderr.flush()


__excepthook__ = excepthook


def _invoke_excepthook(thread):
    """Called in the thread's except clause: hand the exception to threading.excepthook.

    If threading.excepthook (or sys.excepthook, for an error in the hook) has been set to None since
    the thread was created, the one in force at its creation is used.
    """
    try:
        hook = excepthook
        if hook is None:
            hook = thread._excepthook_at_init
        args = ExceptHookArgs(_sys.exc_info() + (thread,))
        hook(args)
    except Exception as exc:
        exc.__suppress_context__ = True
        del exc
        stderr = _sys.stderr
        if stderr is None:
            stderr = thread._stderr
        print("Exception in threading.excepthook:", file=stderr, flush=True)
        sys_hook = _sys.excepthook
        if sys_hook is None:
            sys_hook = thread._sys_excepthook_at_init
        sys_hook(*_sys.exc_info())
    finally:
        args = None


# ---------------------------------------------------------------------------------------------------
# Threads

class Thread:
    """A thread of control: pass a callable as target, or override run() in a subclass."""

    _initialized = False

    def __init__(self, group=None, target=None, name=None,
                 args=(), kwargs=None, *, daemon=None):
        assert group is None, "group argument must be None for now"
        self._name = str(name) if name else _default_name(target)
        self._target = target
        self._args = args
        self._kwargs = {} if kwargs is None else kwargs
        # a new thread inherits daemon status from the thread creating it
        self._daemonic = current_thread().daemon if daemon is None else daemon
        self._ident = None
        self._native_id = None
        # Start and stop are announced on this monitor (start() and join() wait on it).
        self._lifecycle = _Monitor()
        self._is_started = False
        self._is_stopped = False
        self._tstate_lock = None   # released by _thread once the thread has ended (join waits for it)
        self._stderr = _sys.stderr
        if excepthook is None:
            raise RuntimeError("threading.excepthook is None")
        if _sys.excepthook is None:
            raise RuntimeError("sys.excepthook is None")
        self._excepthook_at_init = excepthook
        self._sys_excepthook_at_init = _sys.excepthook
        self._initialized = True
        _dangling.add(self)

    def __repr__(self):
        assert self._initialized, "Thread.__init__() was not called"
        words = ['stopped' if self._is_stopped else 'started' if self._is_started else 'initial']
        if self._daemonic:
            words.append('daemon')
        if self._ident is not None:
            words.append(str(self._ident))
        return '<%s(%s, %s)>' % (self.__class__.__name__, self._name, ' '.join(words))

    def start(self):
        """Start the thread's activity: run() is called in a new thread.  At most once per thread."""
        if not self._initialized:
            raise RuntimeError("thread.__init__() not called")
        if self._is_started:
            raise RuntimeError("threads can only be started once")
        with _active_limbo_lock:
            _limbo[self] = self
        try:
            _start_new_thread(self._bootstrap_inner, ())
        except Exception:
            with _active_limbo_lock:
                del _limbo[self]
            raise
        lifecycle = self._lifecycle
        with _tm.synchronized(lifecycle):
            while not self._is_started:
                _tm.wait(lifecycle)

    def run(self):
        """The thread's activity: calls target(*args, **kwargs).  Subclasses may override it."""
        target = self._target
        try:
            if target is not None:
                target(*self._args, **self._kwargs)
        finally:
            # A finished thread keeps neither its target nor its arguments alive.
            del self._target, self._args, self._kwargs

    def _set_ident(self):
        self._ident = get_ident()

    def _set_native_id(self):
        self._native_id = get_native_id()

    def _bootstrap_inner(self):
        try:
            self._set_ident()
            self._set_native_id()
            self._tstate_lock = _set_sentinel()
            with _active_limbo_lock:
                _active[self._ident] = self
                del _limbo[self]
            lifecycle = self._lifecycle
            with _tm.synchronized(lifecycle):
                self._is_started = True
                _tm.notify_all(lifecycle)
            for setter, hook in _hooks.items():
                install = getattr(_sys, setter, None) if hook is not None else None
                if install is not None:
                    install(hook)
            try:
                self.run()
            except BaseException:
                _invoke_excepthook(self)
        finally:
            self._delete()
            # Out of _dangling once stopped: CPython's reference counts free a joined thread that
            # nothing holds at once, and test.support's threading_cleanup() looks before it collects.
            _dangling.discard(self)
            self._stop()

    def _stop(self):
        lifecycle = self._lifecycle
        with _tm.synchronized(lifecycle):
            self._is_stopped = True
            _tm.notify_all(lifecycle)

    def _delete(self):
        with _active_limbo_lock:
            _active.pop(get_ident(), None)

    def _wait_for_stop(self, timeout):
        deadline = None if timeout is None else _time() + timeout
        lifecycle = self._lifecycle
        with _tm.synchronized(lifecycle):
            if not _monitor_wait_for(lifecycle, lambda: self._is_stopped, timeout):
                return
        # then for the thread's end in _thread (out of _count(), as after CPython's join)
        lock = self._tstate_lock
        if lock is not None:
            left = -1 if deadline is None else max(deadline - _time(), 0)
            if lock.acquire(True, left):
                lock.release()

    def join(self, timeout=None):
        """Wait until the thread terminates, or until the timeout (seconds) expires.

        Returns None either way: call is_alive() to tell whether the timeout expired.
        """
        if not self._initialized:
            raise RuntimeError("Thread.__init__() not called")
        if not self._is_started:
            raise RuntimeError("cannot join thread before it is started")
        if self is current_thread():
            raise RuntimeError("cannot join current thread")
        if timeout is not None and timeout < 0:
            timeout = 0
        try:
            self._wait_for_stop(timeout)
        except BaseException:
            # A join cut short by an exception (a signal handler's, such as Ctrl-C's KeyboardInterrupt)
            # gives the thread up, as CPython 3.11 does: it counts as stopped from then on, so the
            # interpreter's exit does not wait for it.
            self._stop()
            raise

    def _checked(self):
        """None, once __init__ has run (an assertion, as CPython's accessors make it)."""
        assert self._initialized, "Thread.__init__() not called"

    def _rename(self, name):
        self._checked()
        self._name = str(name)

    def _set_daemon(self, daemonic):
        if not self._initialized:
            raise RuntimeError("Thread.__init__() not called")
        if self._is_started:
            raise RuntimeError("cannot set daemon status of active thread")
        self._daemonic = daemonic

    name = property(lambda self: self._checked() or self._name, _rename,
                    doc="The thread's name, for identification only.")
    ident = property(lambda self: self._checked() or self._ident,
                     doc="The thread identifier (get_ident() in the thread), or None before the thread started.")
    native_id = property(lambda self: self._checked() or self._native_id,
                         doc="The operating system's id of the thread, or None before the thread started.")
    daemon = property(lambda self: self._checked() or self._daemonic, _set_daemon,
                      doc="Whether this is a daemon thread (the process does not wait for daemon threads at exit).")

    def is_alive(self):
        """True from just before run() starts until just after it ends."""
        self._checked()
        return self._is_started and not self._is_stopped

    def isDaemon(self):
        """Deprecated: use the daemon attribute."""
        _deprecated('isDaemon() is deprecated, get the daemon attribute instead')
        return self.daemon

    def setDaemon(self, daemonic):
        """Deprecated: set the daemon attribute."""
        _deprecated('setDaemon() is deprecated, set the daemon attribute instead')
        self.daemon = daemonic

    def getName(self):
        """Deprecated: use the name attribute."""
        _deprecated('getName() is deprecated, get the name attribute instead')
        return self.name

    def setName(self, name):
        """Deprecated: set the name attribute."""
        _deprecated('setName() is deprecated, set the name attribute instead')
        self.name = name


def _default_name(target):
    """'Thread-N', with the target's name in parentheses when it has one."""
    name = _newname("Thread-%d")
    label = _unnamed if target is None else getattr(target, '__name__', _unnamed)
    return name if label is _unnamed else '%s (%s)' % (name, label)


_unnamed = object()


class Timer(Thread):
    """Call function(*args, **kwargs) after interval seconds unless cancel() is called first."""

    def __init__(self, interval, function, args=None, kwargs=None):
        super().__init__()
        # finished: set by cancel(), and once the timer has run
        vars(self).update(interval=interval, function=function, args=[] if args is None else args,
                          kwargs={} if kwargs is None else kwargs, finished=Event())

    def cancel(self):
        """Stop the timer if it has not fired yet."""
        self.finished.set()

    def run(self):
        done = self.finished
        done.wait(self.interval)
        due = not done.is_set()     # nobody cancelled while we waited
        if due:
            self.function(*self.args, **self.kwargs)
        done.set()


def _adopt_running(thread):
    """Make a Thread object stand for the thread calling this: started, with its ids, in _active."""
    thread._is_started = True
    thread._set_ident()
    thread._set_native_id()
    with _active_limbo_lock:
        _active[thread._ident] = thread


class _MainThread(Thread):
    """The thread that imported threading (normally the interpreter's main thread)."""

    def __init__(self):
        super().__init__(name="MainThread", daemon=False)
        _adopt_running(self)


class _DummyThread(Thread):
    """Stands for a thread not started by threading, when it asks for current_thread().

    It stays in the active table (there is no way to see the thread end) and cannot be joined.
    """

    def __init__(self):
        super().__init__(name=_newname("Dummy-%d"), daemon=True)
        _adopt_running(self)

    def join(self, timeout=None):
        assert False, "cannot join a dummy thread"


# ---------------------------------------------------------------------------------------------------
# Module functions

def current_thread():
    """The Thread object of the calling thread (a dummy one for threads not started by threading)."""
    try:
        return _active[get_ident()]
    except KeyError:
        return _DummyThread()


def currentThread():
    """Deprecated alias of current_thread()."""
    _deprecated('currentThread() is deprecated, use current_thread() instead')
    return current_thread()


def active_count():
    """The number of Thread objects alive now (the length of enumerate())."""
    return len(enumerate())


def activeCount():
    """Deprecated alias of active_count()."""
    _deprecated('activeCount() is deprecated, use active_count() instead')
    return active_count()


def _enumerate():
    # (the caller holds _active_limbo_lock)
    return [*_active.values(), *_limbo.values()]


def enumerate():
    """A list of the Thread objects alive now: started and not finished, dummy ones and the main one."""
    with _active_limbo_lock:
        return _enumerate()


def main_thread():
    """The main Thread object."""
    return _main_thread


_threading_atexits = []
_SHUTTING_DOWN = False


def _register_atexit(func, *args, **kwargs):
    """Have _shutdown() call func(*args, **kwargs) before it joins the threads (last registered first)."""
    if _SHUTTING_DOWN:
        raise RuntimeError("can't register atexit after shutdown")
    _threading_atexits.append((func, args, kwargs))


_main_thread = _MainThread()


def _shutdown():
    """Called by the interpreter at exit: wait for every non-daemon thread to finish."""
    global _SHUTTING_DOWN
    if _main_thread._is_stopped:
        return
    _SHUTTING_DOWN = True
    for func, args, kwargs in reversed(_threading_atexits):
        func(*args, **kwargs)
    me = get_ident()
    if _main_thread._ident == me:
        # Whoever waits to join the main thread may go on now.
        _main_thread._stop()
    # Threads may start more threads while we wait: loop until none is left.
    while True:
        with _active_limbo_lock:
            pending = [t for t in _enumerate() if not t._daemonic and not t._is_stopped
                       and t._ident != me and t is not _main_thread]
        if not pending:
            break
        for t in pending:
            t._wait_for_stop(None)


def _after_fork():
    """In a forked child (os.register_at_fork): the forking thread is the only one left.

    The others count as stopped; their monitors (and the table's lock) may have been held by one of them
    at the fork, so every thread object gets a fresh monitor and the table a fresh lock, as CPython
    reinitialises its locks.
    """
    global _active_limbo_lock, _main_thread
    _active_limbo_lock = _allocate_lock()
    try:
        current = _active[get_ident()]
    except KeyError:
        current = _MainThread()   # forked by a thread not started by threading
    _main_thread = current
    with _active_limbo_lock:
        for thread in _enumerate():
            thread._lifecycle = _Monitor()
            if thread is not current:
                thread._is_stopped = True
                thread._tstate_lock = None   # held by a thread the fork left behind
        _limbo.clear()
        _active.clear()
        current._set_ident()
        current._set_native_id()
        _active[current._ident] = current


import posix as _posix
_posix.register_at_fork(after_in_child=_after_fork)
del _posix
