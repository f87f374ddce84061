# Threads sharing one mmap: each increments its own bytes and slices and
# writes through write()/seek() under a lock; the totals must be exact. Under
# STM a write to mapped memory cannot be undone by an abort, so each one runs
# inevitable: a retried transaction that had already written would count twice.
import mmap
import os
import tempfile
import threading

N, K, SLOT = 4, 200, 64

with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "shared")
    with open(path, "wb") as f:
        f.write(bytes(N * SLOT + 8))
    with open(path, "r+b") as f:
        m = mmap.mmap(f.fileno(), 0)
        lock = threading.Lock()

        def work(t):
            base = t * SLOT
            for k in range(K):
                m[base] = (m[base] + 1) % 256
                n = int.from_bytes(m[base + 8:base + 16], "little") + 1
                m[base + 8:base + 16] = n.to_bytes(8, "little")
                m.move(base + 32, base + 8, 8)
                with lock:
                    total = int.from_bytes(m[N * SLOT:N * SLOT + 8], "little")
                    m.seek(N * SLOT)
                    m.write((total + 1).to_bytes(8, "little"))
                if k % 50 == 0:
                    m.flush()

        threads = [threading.Thread(target=work, args=(t,)) for t in range(N)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        for t in range(N):
            base = t * SLOT
            print(t, m[base], int.from_bytes(m[base + 8:base + 16], "little"),
                  int.from_bytes(m[base + 32:base + 40], "little"))
        print("total", int.from_bytes(m[N * SLOT:], "little"))
        m.close()
    with open(path, "rb") as f:
        data = f.read()
    print(int.from_bytes(data[N * SLOT:], "little"), data[8:16] == (K).to_bytes(8, "little"))

a = mmap.mmap(-1, 4096)
b = bytearray(4096)


def fill(t):
    for k in range(100):
        a[t * 1024 + k] = k
        b[t * 1024 + k] = k


ts = [threading.Thread(target=fill, args=(t,)) for t in range(4)]
for th in ts:
    th.start()
for th in ts:
    th.join()
print(a[:] == bytes(b), sum(a[:]))
a.close()
