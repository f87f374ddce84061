# Many threads alive at the same time (200 parked on a Barrier, three
# rounds, so thread slots are reused), deep recursion inside threads
# (including a caught RecursionError), and foreign threads started with
# _thread.start_new_thread (threading sees them as Dummy threads).
import _thread
import threading

N = 200
lock = threading.Lock()

for rnd in range(3):
    barrier = threading.Barrier(N + 1)
    stop = threading.Event()
    idx = []

    def park(i):
        barrier.wait()
        stop.wait()
        with lock:
            idx.append(i)

    ts = [threading.Thread(target=park, args=(i,)) for i in range(N)]
    for t in ts:
        t.start()
    barrier.wait()
    alive = threading.active_count()
    stop.set()
    for t in ts:
        t.join()
    print("round", rnd, "alive together", alive, "finished", len(idx), sum(idx),
          "active now", threading.active_count())


# recursion inside threads
def depth(n):
    return depth(n + 1) if n < 700 else n


def unbounded(n):
    return unbounded(n + 1)


results = []


def recurse(k):
    d = depth(0)
    try:
        unbounded(0)
        msg = "no error"
    except RecursionError as e:
        msg = str(e)
    with lock:
        results.append((k, d, msg))


ts = [threading.Thread(target=recurse, args=(k,)) for k in range(6)]
for t in ts:
    t.start()
for t in ts:
    t.join()
for r in sorted(results):
    print(r)

# threads started with _thread appear as Dummy threads inside threading
done = threading.Semaphore(0)
dummies = []


def foreign(tag):
    cur = threading.current_thread()
    with lock:
        dummies.append((tag, cur.name.startswith("Dummy-"), cur.daemon, cur.is_alive(),
                        cur is threading.current_thread(), type(cur).__name__))
    done.release()


for tag in range(3):
    _thread.start_new_thread(foreign, (tag,))
for _ in range(3):
    done.acquire()
for d in sorted(dummies):
    print(d)
