# Threads read an mmap while another resizes it (growing moves the mapping)
# and then closes it: a reader sees the old or the new bytes, or ValueError
# once it is closed, never unmapped memory (under STM the old range stays
# mapped read-only until the map is collected).
import mmap
import threading

PAGE = mmap.PAGESIZE
m = mmap.mmap(-1, 16 * PAGE)
m[:4] = b"head"
go = threading.Event()
results = []


def reader():
    seen = set()
    go.wait()
    while True:
        try:
            chunk = m[0:4]
            n = len(m)
            m.find(b"zz", 0, min(n, 64 * PAGE))
        except ValueError as e:
            results.append((sorted(seen), str(e)))
            return
        seen.add(chunk)


threads = [threading.Thread(target=reader) for _ in range(3)]
for t in threads:
    t.start()
go.set()
for k in range(30):
    m.resize((16 + (k % 5) * 16) * PAGE)
    m[(k % 4):(k % 4) + 1] = b"head"[(k % 4):(k % 4) + 1]
m.close()
for t in threads:
    t.join()
print(len(results), results[0][1], all(r[0] in ([], [b"head"]) for r in results))
