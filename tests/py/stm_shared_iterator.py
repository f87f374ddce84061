# Four threads share one iterator (a range iterator, a list iterator and a
# generator behind a lock): every item is consumed exactly once.
import threading

from support.threads import start_join

N = 20000


def drain(it, out, lock=None):
    while True:
        try:
            if lock:
                with lock:
                    x = next(it)
            else:
                x = next(it)
        except StopIteration:
            return
        out.append(x)


def run(make, lock=None):
    it = make()
    outs = [[] for _ in range(4)]
    start_join([threading.Thread(target=drain, args=(it, o, lock)) for o in outs])
    got = sorted(x for o in outs for x in o)
    return got


print("range", run(lambda: iter(range(N))) == list(range(N)))
print("list", run(lambda: iter(list(range(N)))) == list(range(N)))


def gen():
    for i in range(N):
        yield i


print("generator", run(gen, threading.Lock()) == list(range(N)))
