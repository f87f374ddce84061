# Small native modules CPython programs import: resource, termios, faulthandler, _opcode (through
# dis.stack_effect), _queue.SimpleQueue (with threads), _locale (through locale), _posixshmem
import dis
import faulthandler
import locale
import os
import resource
import subprocess
import sys
import termios
import threading
import _queue

# resource
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
print("nofile", soft > 0, hard >= soft, resource.RLIM_INFINITY)
resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
print("same", resource.getrlimit(resource.RLIMIT_NOFILE) == (soft, hard))
for bad in ((hard + 1, hard) if hard != resource.RLIM_INFINITY else (1, 0), (1, 2, 3)):
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, bad)
    except ValueError as e:
        print("ValueError", e)
try:
    resource.getrlimit(10 ** 6)
except ValueError as e:
    print("ValueError", e)
ru = resource.getrusage(resource.RUSAGE_SELF)
print(type(ru).__name__, len(ru), isinstance(ru.ru_utime, float), ru.ru_maxrss > 0, ru[2] == ru.ru_maxrss)
try:
    resource.getrusage(12345)
except ValueError as e:
    print("ValueError", e)
print("pagesize", resource.getpagesize() == os.sysconf("SC_PAGE_SIZE"))

# termios: on a pipe, CPython's error
r, w = os.pipe()
try:
    termios.tcgetattr(r)
except termios.error as e:
    print("termios.error", e.args)
os.close(r)
os.close(w)
print("constants", termios.TCSANOW, termios.ECHO, termios.B9600, termios.VMIN, termios.NCCS)

# faulthandler
def inner():
    faulthandler.dump_traceback(sys.stdout, all_threads=False)

inner()
print(faulthandler.is_enabled())
faulthandler.enable()
print(faulthandler.is_enabled(), faulthandler.disable(), faulthandler.disable())
code = "import faulthandler\nfaulthandler.enable()\ndef f():\n    faulthandler._sigsegv()\nf()\n"
p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
err = [line if "thread 0x" not in line else line[:line.index("0x")] + "0x..." for line in p.stderr.splitlines()]
print(p.returncode, err)

# faulthandler's watchdog and a user signal, in a child (thread ids masked): the armed thread's
# frames are the same whenever the watchdog fires (both calls on one line)
code = """import faulthandler, os, signal, sys, time
def g():
    os.kill(os.getpid(), signal.SIGUSR1)
faulthandler.register(signal.SIGUSR1, file=sys.stdout, all_threads=False)
g()
print(faulthandler.unregister(signal.SIGUSR1), faulthandler.unregister(signal.SIGUSR1))
sys.stdout.flush()
def wait():
    faulthandler.dump_traceback_later(0.05, exit=True, file=sys.stdout); time.sleep(60)
wait()
"""
p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
out = [line if "0x" not in line else line[:line.index("0x")] + "0x..." for line in p.stdout.splitlines()]
print(p.returncode, out)

# _opcode through dis.stack_effect
ops = dis.opmap
print([dis.stack_effect(ops[n], a) for n, a in
       (("BUILD_LIST", 3), ("UNPACK_EX", 0x102), ("MAKE_FUNCTION", 9), ("CALL_FUNCTION_EX", 1))],
      dis.stack_effect(ops["POP_TOP"]), dis.stack_effect(ops["FOR_ITER"], 4, jump=True),
      dis.stack_effect(ops["FOR_ITER"], 4, jump=False), dis.stack_effect(ops["FOR_ITER"], 4))
for args in ((ops["POP_TOP"], 1), (ops["LOAD_CONST"],), (255, 0)):
    try:
        dis.stack_effect(*args)
    except ValueError as e:
        print("ValueError", e)

# _queue.SimpleQueue between threads
q = _queue.SimpleQueue()
out = []

def consume():
    while True:
        item = q.get(timeout=30)
        if item is None:
            break
        out.append(item)

ts = [threading.Thread(target=consume) for _ in range(3)]
for t in ts:
    t.start()
for i in range(300):
    q.put(i)
for t in ts:
    q.put(None)
for t in ts:
    t.join()
print("simplequeue", len(out), sorted(out) == list(range(300)), q.empty(), q.qsize())
try:
    q.get(timeout=0.01)
except _queue.Empty:
    print("Empty")
try:
    q.get(block=False)
except _queue.Empty:
    print("Empty nowait")
q.put_nowait("x")
print(q.get_nowait(), _queue.SimpleQueue[int])

# _locale through locale
print(locale.setlocale(locale.LC_NUMERIC), locale.localeconv()["decimal_point"], locale.localeconv()["grouping"])
print(locale.strcoll("a", "b") < 0, locale.strxfrm("abc") == "abc", locale.getencoding())
print(locale.nl_langinfo(locale.CODESET))
try:
    locale.setlocale(locale.LC_ALL, "no_such_locale")
except locale.Error as e:
    print("locale.Error", e)

# _posixshmem (multiprocessing.shared_memory's calls; shared_memory itself: tests/py/mmap_buffer.py)
import _posixshmem
name = "/tmpy_shm_%d" % os.getpid()
fd = _posixshmem.shm_open(name, os.O_CREAT | os.O_EXCL | os.O_RDWR, mode=0o600)
os.write(fd, b"hello")
fd2 = _posixshmem.shm_open(name, os.O_RDWR)
print(os.read(fd2, 5), os.fstat(fd2).st_size)
os.close(fd)
os.close(fd2)
_posixshmem.shm_unlink(name)
try:
    _posixshmem.shm_unlink(name)
except FileNotFoundError as e:
    print("FileNotFoundError", e.errno, e.filename == name)
