# threading.stack_size(): a thread started with a small stack runs (tmpy's
# static TLS, which glibc takes out of the stack, is bigger than 256 KiB
# under build/tmpy: pthread_create refused, "can't start new thread"), and
# deep recursion in C (repr of nested lists) on such a stack raises
# RecursionError instead of overflowing it. Sizes python3 survives too.
import threading


def nest(n):
    x = []
    for _ in range(n):
        x = [x]
    return x


def work(res):
    try:
        res.append(len(repr(nest(100))))
        repr(nest(100000))
        res.append("no error")
    except RecursionError:
        res.append("RecursionError")


print("default", threading.stack_size())
for kb in (256, 512, 1024):
    old = threading.stack_size(kb * 1024)
    res = []
    threads = [threading.Thread(target=work, args=(res,)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(kb, old, sorted(res, key=str))
print("back to", threading.stack_size(0), threading.stack_size())
for bad in (-1, 1000, 32767):
    try:
        threading.stack_size(bad)
    except ValueError as e:
        print(bad, "ValueError:", e)
