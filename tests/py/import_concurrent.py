# Several threads import one slow module at once: each sees it complete
# (the import lock makes the late importers wait for the first).
import threading

results = []
lock = threading.Lock()


def importer(k):
    if k % 2:
        import pkgdemo.slowinit as m
    else:
        from pkgdemo import slowinit as m
    with lock:
        results.append(m.FIRST + m.LAST)


threads = [threading.Thread(target=importer, args=(k,)) for k in range(6)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(results)
import pkgdemo.slowinit
print(pkgdemo.slowinit.LAST)
