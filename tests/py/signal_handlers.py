# The signal module's handler semantics: handlers run in the main thread,
# at once for a signal the process sends itself; SIG_IGN, SIG_DFL, errors.
import os
import signal
import time

got = []


def handler(signum, frame):
    got.append(signum)
    print("handler", signum, frame is not None and hasattr(frame, "f_lineno"))


print(signal.getsignal(signal.SIGUSR1) == signal.SIG_DFL)
print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)
print(signal.getsignal(signal.SIGPIPE) == signal.SIG_IGN)
old = signal.signal(signal.SIGUSR1, handler)
print(old == signal.SIG_DFL, signal.getsignal(signal.SIGUSR1) is handler)

os.kill(os.getpid(), signal.SIGUSR1)
print("after kill", got)
signal.raise_signal(signal.SIGUSR1)
print("after raise_signal", got)

# Ignored: nothing happens.
print(signal.signal(signal.SIGUSR1, signal.SIG_IGN) is handler)
os.kill(os.getpid(), signal.SIGUSR1)
print("ignored", got, signal.getsignal(signal.SIGUSR1) == signal.SIG_IGN)


# A handler that raises: the exception comes out of the call that let the
# signal in.
class Boom(Exception):
    pass


def raising(signum, frame):
    raise Boom(signum)


signal.signal(signal.SIGUSR2, raising)
try:
    signal.raise_signal(signal.SIGUSR2)
    print("not reached")
except Boom as e:
    print("Boom", e.args)
try:
    os.kill(os.getpid(), signal.SIGUSR2)
    print("not reached")
except Boom as e:
    print("Boom from kill", e.args)

# A handler installed on a signal lets a loop see it between bytecodes.
count = 0
try:
    while True:
        count += 1
        if count == 500:
            signal.raise_signal(signal.SIGUSR2)
except Boom:
    print("loop stopped at", count)

# SIGINT's default handler raises KeyboardInterrupt.
try:
    signal.raise_signal(signal.SIGINT)
except KeyboardInterrupt as e:
    print("KeyboardInterrupt", e.args)
try:
    signal.default_int_handler(signal.SIGINT, None)
except KeyboardInterrupt:
    print("default_int_handler raises")
for args in ((), (1, 2, 3)):
    try:
        signal.default_int_handler(*args)
    except TypeError as e:
        print("TypeError", e)

# An interval timer interrupts a sleep; the handler returns, the sleep
# goes on (PEP 475); then one whose handler raises ends it.
ticks = []
signal.signal(signal.SIGALRM, lambda s, f: ticks.append(s))
signal.setitimer(signal.ITIMER_REAL, 0.05)
time.sleep(0.3)
print("slept through", ticks)
signal.signal(signal.SIGALRM, raising)
signal.setitimer(signal.ITIMER_REAL, 0.05)
try:
    time.sleep(30)
except Boom as e:
    print("sleep interrupted", e.args)
print(signal.getitimer(signal.ITIMER_REAL))
print(signal.alarm(0))
signal.alarm(1)
try:
    time.sleep(30)
except Boom as e:
    print("alarm interrupted the sleep", e.args)

# Errors, as CPython words them.
for bad in (0, signal.NSIG, -1):
    for f in (lambda: signal.signal(bad, handler), lambda: signal.getsignal(bad),
              lambda: signal.strsignal(bad)):
        try:
            f()
        except ValueError as e:
            print("ValueError", e)
    try:
        signal.raise_signal(bad)
    except OSError as e:
        print("raise_signal OSError", e.errno)
for h in (5, "x", None):
    try:
        signal.signal(signal.SIGUSR1, h)
    except TypeError as e:
        print("TypeError", e)
try:
    signal.signal(signal.SIGKILL, handler)
except OSError as e:
    print("OSError", e.errno)
try:
    signal.setitimer(signal.ITIMER_REAL, -1)
except signal.ItimerError as e:
    print("ItimerError", isinstance(e, OSError), e.errno)
try:
    signal.alarm(1.5)
except TypeError as e:
    print("TypeError", e)

print(signal.strsignal(signal.SIGINT), signal.strsignal(signal.SIGTERM), signal.strsignal(32))
valid = signal.valid_signals()
print(type(valid).__name__, len(valid), signal.SIGINT in valid, 32 in valid, signal.SIGRTMAX in valid)
print(signal.SIG_DFL, signal.SIG_IGN, signal.NSIG, signal.SIGRTMIN, signal.SIGRTMAX)
print(signal.SIGINT, signal.SIGTERM, signal.SIGKILL, signal.SIGUSR1, signal.SIGALRM, signal.SIGCHLD)
print(signal.signal(signal.SIGUSR1, signal.SIG_DFL) == signal.SIG_IGN)
