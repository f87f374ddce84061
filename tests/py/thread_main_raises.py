# An uncaught exception in the main thread: the traceback is printed, the
# interpreter still waits for the non-daemon thread (whose output
# follows), and the exit code is 1.
import sys
import threading

go = threading.Event()


def worker():
    go.wait()
    print("worker ran to the end")
    sys.stdout.flush()


threading.Thread(target=worker).start()
print("main raising")
sys.stdout.flush()
go.set()
raise ValueError("main failed")
