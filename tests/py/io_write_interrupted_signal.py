# A write to a full pipe that a signal interrupts runs the signal handlers
# before it blocks again (CPython's buffered writer and os.write do): here
# the handler raises and ends the write. Before, the writer retried at once
# and blocked for ever (test_io's CSignalsTest.test_interrupted_write_*).
import os
import signal
import threading


def alarm_raises(sig, frame):
    1 / 0


signal.signal(signal.SIGALRM, alarm_raises)
pipe_size = 1 << 20
for mode, item, kwargs in [("wb", b"xy", {"buffering": 0}), ("wb", b"xy", {}),
                           ("w", "xy", {"encoding": "ascii"})]:
    r, w = os.pipe()
    got = []
    reader = threading.Thread(target=lambda: got.append(os.read(r, 1)))
    if hasattr(signal, "pthread_sigmask"):   # (tmpy has none: the main thread takes the signals)
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])
    reader.start()
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGALRM])
    wio = open(w, mode, closefd=False, **kwargs)
    signal.setitimer(signal.ITIMER_REAL, 0.3)   # (not alarm(1): the test suite waits for it)
    try:
        wio.write(item * (pipe_size // len(item) + 1))
        print(mode, kwargs, "no exception")
    except ZeroDivisionError:
        print(mode, kwargs, "ZeroDivisionError")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        reader.join()
    got.append(os.read(r, 1))
    print(got)
    os.close(w)
    os.close(r)
    try:
        wio.close()
    except OSError:
        pass

# os.write: one interrupted before it wrote anything runs the handler too.
r, w = os.pipe()
os.set_blocking(w, True)
while True:   # fill the pipe
    os.set_blocking(w, False)
    try:
        os.write(w, b"z" * 65536)
    except BlockingIOError:
        break
os.set_blocking(w, True)
signal.setitimer(signal.ITIMER_REAL, 0.3)
try:
    os.write(w, b"q")
    print("os.write: no exception")
except ZeroDivisionError:
    print("os.write: ZeroDivisionError")
finally:
    signal.setitimer(signal.ITIMER_REAL, 0)
os.close(r)
os.close(w)
