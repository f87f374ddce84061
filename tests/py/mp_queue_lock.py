# multiprocessing (fork): a Queue between processes, a Lock that several processes take around
# appends to one file, a Pipe, an Event, a Semaphore, a Condition, a JoinableQueue
import multiprocessing as mp
import os
import tempfile


def producer(q, n):
    for i in range(n):
        q.put((i, i * i))
    q.put(None)


def append_lines(lock, path, k):
    for i in range(20):
        with lock:
            with open(path, "a") as f:
                f.write("%d-%d\n" % (k, i))
                f.flush()
                f.write("%d-%d end\n" % (k, i))


def echo(conn):
    while True:
        m = conn.recv()
        if m is None:
            break
        conn.send(m.upper())
    conn.close()


def waiter(ev, q):
    ev.wait(30)
    q.put("event seen")


def limited(sem, q, k):
    with sem:
        q.put(k)


def notified(cond, q):
    with cond:
        q.put("waiting")
        cond.wait(30)
        q.put("notified")


def consumer(jq, out):
    while True:
        item = jq.get()
        if item is None:
            jq.task_done()
            break
        out.put(item * 2)
        jq.task_done()


if __name__ == "__main__":
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=producer, args=(q, 5))
    p.start()
    got = []
    while True:
        item = q.get(timeout=30)
        if item is None:
            break
        got.append(item)
    p.join()
    print("queue", got, p.exitcode)

    lock = ctx.Lock()
    fd, path = tempfile.mkstemp()
    os.close(fd)
    procs = [ctx.Process(target=append_lines, args=(lock, path, k)) for k in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    with open(path) as f:
        lines = f.read().splitlines()
    os.unlink(path)
    pairs = all(lines[i] + " end" == lines[i + 1] for i in range(0, len(lines), 2))
    print("lock", len(lines), pairs, [p.exitcode for p in procs])

    a, b = ctx.Pipe()
    p = ctx.Process(target=echo, args=(b,))
    p.start()
    for w in ("one", "two"):
        a.send(w)
        print("pipe", a.recv())
    a.send(None)
    p.join()

    ev = ctx.Event()
    q2 = ctx.Queue()
    p = ctx.Process(target=waiter, args=(ev, q2))
    p.start()
    ev.set()
    print(q2.get(timeout=30))
    p.join()

    sem = ctx.Semaphore(2)
    procs = [ctx.Process(target=limited, args=(sem, q2, k)) for k in range(4)]
    for p in procs:
        p.start()
    print("semaphore", sorted(q2.get(timeout=30) for _ in procs))
    for p in procs:
        p.join()

    cond = ctx.Condition()
    p = ctx.Process(target=notified, args=(cond, q2))
    p.start()
    print(q2.get(timeout=30))
    with cond:
        cond.notify()
    print(q2.get(timeout=30))
    p.join()

    jq = ctx.JoinableQueue()
    out = ctx.Queue()
    p = ctx.Process(target=consumer, args=(jq, out))
    p.start()
    for i in range(4):
        jq.put(i)
    jq.put(None)
    jq.join()
    print("joinable", sorted(out.get(timeout=30) for _ in range(4)))
    p.join()
    print("exitcodes", p.exitcode)
