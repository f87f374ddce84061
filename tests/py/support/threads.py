"""Scaffolding shared by the thread_*.py programs."""
import threading
import time


def start_join(threads, timeout=30.0):
    """Starts every thread (as a daemon), then joins every one. A thread
    still running after `timeout` seconds (a deadlock, a lost wake-up) is
    reported on stdout, and the program can end instead of hanging until the
    test driver's timeout."""
    for t in threads:
        t.daemon = True
        t.start()
    deadline = time.monotonic() + timeout
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    hung = [t.name for t in threads if t.is_alive()]
    if hung:
        print("HUNG threads:", hung)


def run_threads(target, args_list):
    """One thread per tuple of arguments, all run by start_join; returns them."""
    ts = [threading.Thread(target=target, args=args) for args in args_list]
    start_join(ts)
    return ts


def switch_point():
    """A yield point (a call, a loop back-edge): the interpreter may hand the
    GIL to another thread here. Put between the read and the write of a
    critical section, so that the lock around it is really contended: without
    one, tmpy (which switches only at yield points) never switches inside the
    section, and a lock that does not exclude would still count exactly."""
    for _ in range(2):
        pass


def wait_until(pred, what, timeout=10.0):
    """Polls pred() until it is true. After `timeout` seconds prints what it
    waited for and returns False, so that a lost wake-up shows in the output
    instead of as a hang."""
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            print("TIMEOUT waiting for", what)
            return False
        time.sleep(0.001)
    return True
