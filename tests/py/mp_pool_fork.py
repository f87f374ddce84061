# multiprocessing.Pool with the fork start method (spawn: mp_spawn.py): map, imap, starmap, apply_async,
# an exception from a worker
import multiprocessing as mp


def square(x):
    return x * x


def add(a, b):
    return a + b


def fail(x):
    if x == 3:
        raise ValueError("bad item %d" % x)
    return x


def run(method):
    ctx = mp.get_context(method)
    with ctx.Pool(2) as pool:
        print(method, "map", pool.map(square, range(10)))
        print(method, "imap", list(pool.imap(square, range(5))))
        print(method, "imap_unordered", sorted(pool.imap_unordered(square, range(5))))
        print(method, "starmap", pool.starmap(add, [(1, 2), (3, 4), (5, 6)]))
        r = pool.apply_async(add, (10, 20))
        print(method, "apply_async", r.get(timeout=30))
        print(method, "apply", pool.apply(square, (7,)))
        try:
            pool.map(fail, range(5))
        except ValueError as e:
            print(method, "error", type(e).__name__, e)


if __name__ == "__main__":
    run("fork")
    # a second pool, forked while the first one's threads may still be winding down
    with mp.get_context("fork").Pool(3, maxtasksperchild=2) as pool:
        print("maxtasksperchild", pool.map(square, range(12), chunksize=1))
