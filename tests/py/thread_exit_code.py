# sys.exit() in the main thread still waits for non-daemon threads, and
# the exit code is kept; a daemon thread is abandoned.
import sys
import threading


def worker():
    threading.main_thread().join()  # returns once the main thread has exited
    print("worker finished after sys.exit")


def stuck():
    threading.Event().wait()


threading.Thread(target=worker).start()
threading.Thread(target=stuck, daemon=True).start()
print("main calls sys.exit(3)")
sys.exit(3)
