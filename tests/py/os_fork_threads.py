# os.fork() in a process with other threads, waiting (as an idle pool's
# workers do): the child has only the forking thread and its own copy of
# the objects (what it writes, the parent never sees); it allocates,
# collects and commits without the threads it does not have. (Threads
# running Python at the fork: tests/py/fork_threads_stress.py.)
import gc
import os
import threading
import time

go = threading.Event()
ready = threading.Semaphore(0)
counts = [[0] for i in range(3)]
mine = {'value': 'parent'}


def worker(i):
    ready.release()
    go.wait()
    for k in range(1000):
        counts[i][0] += 1


threads = [threading.Thread(target=worker, args=(i,)) for i in range(3)]
for t in threads:
    t.start()
# the fork finds them waiting (this program's case): each has said so,
# then had time to reach go.wait()
for t in threads:
    ready.acquire()
time.sleep(0.5)

results = []
for round in range(2):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        mine['value'] = 'child'
        counts[0][0] = -1
        x = [[i] * 10 for i in range(20000)]   # minor collections in the child
        gc.collect()                            # and a major one
        os.write(w, b'%d %d %s' % (len(x), counts[0][0], mine['value'].encode()))
        os._exit(round + 3)
    os.close(w)
    data = b''
    while True:
        b = os.read(r, 100)
        if not b:
            break
        data += b
    os.close(r)
    _, status = os.waitpid(pid, 0)
    results.append((data.decode(), os.waitstatus_to_exitcode(status), mine['value'], counts[0][0]))
go.set()
for t in threads:
    t.join()
for res in results:
    print(res)
print('threads ran after', [c[0] for c in counts])
