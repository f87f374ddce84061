# Several threads run subprocesses at once: fork_exec from threads other
# than the main one, and the blocking reads and waits of each (the STM
# build commits before each wait; the GIL build hands the GIL on).
import subprocess
import threading

results = {}
lock = threading.Lock()


def worker(n):
    outs = []
    for k in range(3):
        r = subprocess.run(['sh', '-c', 'echo $0 $1; exit $1', str(n), str(k)], capture_output=True, text=True)
        outs.append((r.stdout.strip(), r.returncode))
    p = subprocess.Popen(['cat'], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    out, _ = p.communicate(b'x' * (1000 * (n + 1)))
    outs.append((len(out), p.returncode))
    with lock:
        results[n] = outs


threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
for n in sorted(results):
    print(n, results[n])
