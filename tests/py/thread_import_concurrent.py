# Importing a module that another thread is still executing waits for it
# to finish: nobody sees a half-initialized module, and the body runs
# exactly once. The modules are written to a private directory under /tmp.
import os
import sys
import threading

sys.dont_write_bytecode = True  # nothing left behind in the directory

d = "/tmp/tmpy_thread_import_%d" % os.getpid()
os.mkdir(d)
try:
    with open(d + "/blockmod.py", "w") as f:
        f.write("import sys, threading\n"
                "sys.blockmod_runs = getattr(sys, 'blockmod_runs', 0) + 1\n"
                "threading.blockmod_started.set()\n"
                "threading.blockmod_go.wait()\n"
                "DONE = True\n")
    with open(d + "/slowmod.py", "w") as f:
        f.write("import sys\n"
                "sys.slowmod_runs = getattr(sys, 'slowmod_runs', 0) + 1\n"
                "total = 0\n"
                "for i in range(50000):\n"
                "    total += i\n"
                "DONE = True\n")
    sys.path.insert(0, d)

    # one thread is inside the module body (blocked on an event) when the
    # main thread imports the same module
    threading.blockmod_started = threading.Event()
    threading.blockmod_go = threading.Event()
    seen = []
    t = threading.Thread(target=lambda: seen.append(hasattr(__import__("blockmod"), "DONE")))
    t.start()
    threading.blockmod_started.wait()
    releaser = threading.Timer(0.05, threading.blockmod_go.set)
    releaser.start()
    import blockmod
    print("main sees a complete module", hasattr(blockmod, "DONE"))
    t.join()
    releaser.join()
    print("thread saw a complete module", seen, "body ran", sys.blockmod_runs)

    # 8 threads import a slow module at the same moment
    saved = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    bar = threading.Barrier(8)
    res = []
    lock = threading.Lock()

    def imp():
        bar.wait()
        try:
            import slowmod
            r = (slowmod.DONE, slowmod.total)
        except Exception as e:
            r = type(e).__name__
        with lock:
            res.append(r)

    ts = [threading.Thread(target=imp) for _ in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    sys.setswitchinterval(saved)
    print("concurrent imports", res, "body ran", sys.slowmod_runs)
finally:
    for name in ("blockmod.py", "slowmod.py"):
        if os.path.exists(d + "/" + name):
            os.remove(d + "/" + name)
    os.rmdir(d)
