# Threads sharing one map through memoryviews: each increments its own
# counters through a view (bytes, a cast to 'Q', a slice assignment) and
# reads the others' through bytes-like consumers; the totals must be exact.
# Under STM a store through a view into mapped memory cannot be undone by an
# abort, so it runs inevitable: a retried transaction that had already
# stored would count twice. The views are exports until released: the main
# thread's resize() while the workers store must take the census of live
# views (a major collection) and refuse; views dropped unreleased are not
# counted by the final close().
import mmap
import struct
import threading

N, K, SLOT = 4, 200, 64

m = mmap.mmap(-1, N * SLOT)
views = []
started = threading.Barrier(N + 1)


def work(t):
    base = t * SLOT
    mv = memoryview(m)
    q = mv[base + 8:base + 16].cast("Q")
    started.wait()
    for k in range(K):
        mv[base] = (mv[base] + 1) % 256
        q[0] += 1
        n = struct.unpack_from("<I", m, base + 16)[0] + 1
        mv[base + 16:base + 20] = n.to_bytes(4, "little")
        if k % 50 == 0:
            bytes(m)   # a read of every slot while others store
            memoryview(m)[base + 32:base + 40].cast("B")[0] = k % 256   # dropped, not released
    views.append((mv, q))


threads = [threading.Thread(target=work, args=(t,)) for t in range(N)]
for th in threads:
    th.start()
started.wait()
try:
    m.resize(2 * N * SLOT)
except BufferError as e:
    print("BufferError", e)
for th in threads:
    th.join()
for t in range(N):
    base = t * SLOT
    print(t, m[base], struct.unpack_from("<QI", m, base + 8), m[base + 32])
try:
    m.close()
except BufferError as e:
    print("BufferError", e)
for mv, q in views:
    q.release()
    mv.release()
m.close()
print(m.closed)
