# os.fork() while other threads allocate and commit: the child (forked from the main thread and from
# another thread) starts threads of its own, collects, and exits with a value the parent checks;
# the parent's threads go on. Rounds: FORK_STRESS_ROUNDS (default 12).
import gc
import os
import threading

ROUNDS = int(os.environ.get("FORK_STRESS_ROUNDS", "12"))
stop = threading.Event()
counts = [0, 0, 0]


def churn(k):
    table = {}
    n = 0
    while not stop.is_set():
        table[n % 64] = [n, str(n), (n, k)]
        if n % 50 == 0:
            table = dict(table)
        n += 1
    counts[k] = n


def child_work(i):
    results = []
    lock = threading.Lock()

    def work(j):
        v = sum(x * x for x in range(j * 100 + i))
        with lock:
            results.append(v % 97)

    threads = [threading.Thread(target=work, args=(j,)) for j in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    gc.collect()
    assert threading.active_count() == 1, threading.enumerate()
    return (sum(results) + i) % 256


def expected(i):
    return sum(sum(x * x for x in range(j * 100 + i)) % 97 for j in range(3)) + i


def fork_once(i, failures):
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            code = child_work(i)
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    got = os.waitstatus_to_exitcode(status)
    if got != expected(i) % 256:
        failures.append((i, got, expected(i) % 256))


workers = [threading.Thread(target=churn, args=(k,)) for k in range(3)]
for t in workers:
    t.start()
failures = []
for i in range(ROUNDS):
    if i % 3 == 2:   # from a thread other than the main one
        t = threading.Thread(target=fork_once, args=(i, failures))
        t.start()
        t.join()
    else:
        fork_once(i, failures)
stop.set()
for t in workers:
    t.join()
print("rounds", ROUNDS, "failures", failures)
print("threads went on:", all(c > 0 for c in counts))
print("alive after:", threading.active_count())
