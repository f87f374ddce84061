# An uncaught KeyboardInterrupt: the traceback, then finally blocks and
# atexit callbacks run, and the process ends as killed by SIGINT (a parent
# sees -2; a shell, 130).
import atexit
import signal

atexit.register(print, "atexit ran")
try:
    print("raising")
    signal.raise_signal(signal.SIGINT)
finally:
    print("finally ran")
