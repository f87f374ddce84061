# multiprocessing.Manager (fork): a server process holding a dict, a list and a Value that worker
# processes change through proxies, under a managed Lock
import multiprocessing as mp


def worker(d, l, v, lock, k):
    with lock:
        d[k] = k * k
        l.append(k)
        v.value += k


if __name__ == "__main__":
    ctx = mp.get_context("fork")
    with ctx.Manager() as m:
        d, l, v, lock = m.dict(), m.list(), m.Value('i', 0), m.Lock()
        ps = [ctx.Process(target=worker, args=(d, l, v, lock, k)) for k in range(4)]
        for p in ps:
            p.start()
        for p in ps:
            p.join()
        print(sorted(d.items()), sorted(l), v.value, [p.exitcode for p in ps])
        ns = m.Namespace(x=1)
        ns.x += 41
        print(ns.x)
