# signal.set_wakeup_fd: the C handler writes the signal's number to a non-blocking fd (what
# multiprocessing's forkserver and event loops wait on); the old fd is returned
import os
import signal

r, w = os.pipe()
try:
    signal.set_wakeup_fd(w)
except ValueError as e:
    print("blocking refused:", "non-blocking mode" in str(e))
os.set_blocking(w, False)
print(signal.set_wakeup_fd(w), signal.set_wakeup_fd(w) == w)
signal.signal(signal.SIGUSR1, lambda *a: print("handler"))
os.kill(os.getpid(), signal.SIGUSR1)
print(os.read(r, 10) == bytes([signal.SIGUSR1]))
print(signal.set_wakeup_fd(-1) == w, signal.set_wakeup_fd(-1))
os.kill(os.getpid(), signal.SIGUSR1)
os.set_blocking(r, False)
try:
    os.read(r, 10)
except BlockingIOError:
    print("nothing written once reset")
try:
    signal.set_wakeup_fd(12345)
except OSError as e:
    print(type(e).__name__, e.errno)
try:
    signal.set_wakeup_fd(w, warn_on_full_buffer=False, x=1)
except TypeError as e:
    print("TypeError")
