# The old camelCase aliases of threading warn through the warnings module, as
# CPython 3.11 (catch_warnings sees them; the default filters show the one
# called from __main__); Event/Condition._at_fork_reinit exist.
import threading, warnings
t = threading.current_thread()
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    t.getName(); threading.currentThread(); threading.activeCount(); t.isDaemon()
    e = threading.Event(); e.isSet()
    c = threading.Condition(); 
    with c: c.notifyAll()
for x in w: print(x.category.__name__, x.message, x.filename.endswith("dep.py"), x.lineno)
t.getName()
e = threading.Event(); e._at_fork_reinit(); e.set(); print(e.is_set())
