# multiprocessing with the spawn start method: each child is a new interpreter started as
# `sys.executable -c 'from multiprocessing.spawn import spawn_main; ...' --multiprocessing-fork`;
# a Pool, a Process with a Queue, a ProcessPoolExecutor with an exception; then the same Pool and
# executor with the forkserver start method (a server process, started like a spawned child, forks
# the workers: signal.set_wakeup_fd, fds passed over a unix socket)
import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor


def square(x):
    return x * x


def put_twice(q, x):
    q.put(x)
    q.put(x * 2)


def fail(x):
    raise ValueError("spawned %d" % x)


if __name__ == "__main__":
    ctx = mp.get_context("spawn")
    with ctx.Pool(2) as pool:
        print("map", pool.map(square, range(6)))
        print("apply_async", pool.apply_async(square, (9,)).get(timeout=60))
    q = ctx.Queue()
    p = ctx.Process(target=put_twice, args=(q, 21))
    p.start()
    print("queue", q.get(timeout=60), q.get(timeout=60))
    p.join()
    print("exitcode", p.exitcode)
    with ProcessPoolExecutor(max_workers=2, mp_context=ctx) as ex:
        print("executor", list(ex.map(square, range(4))))
        try:
            ex.submit(fail, 4).result(timeout=60)
        except ValueError as e:
            print("raised", e)
    fs = mp.get_context("forkserver")
    with fs.Pool(2) as pool:
        print("forkserver map", pool.map(square, range(6)))
    with ProcessPoolExecutor(max_workers=2, mp_context=fs) as ex:
        print("forkserver executor", list(ex.map(square, range(4))))
        try:
            ex.submit(fail, 5).result(timeout=60)
        except ValueError as e:
            print("raised", e)
