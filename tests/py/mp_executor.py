# concurrent.futures.ProcessPoolExecutor (fork; spawn: mp_spawn.py): map, submit, an exception propagated to the caller
from concurrent.futures import ProcessPoolExecutor, as_completed
import multiprocessing as mp


def cube(x):
    return x ** 3


def boom(x):
    raise KeyError("no key %r" % (x,))


if __name__ == "__main__":
    for method in ("fork",):
        with ProcessPoolExecutor(max_workers=2, mp_context=mp.get_context(method)) as ex:
            print(method, list(ex.map(cube, range(8))))
            futs = [ex.submit(cube, i) for i in (2, 3, 4)]
            print(method, sorted(f.result(timeout=30) for f in as_completed(futs)))
            f = ex.submit(boom, 5)
            try:
                f.result(timeout=30)
            except KeyError as e:
                print(method, "raised", type(e).__name__, e)
            print(method, "exception()", repr(f.exception()))
