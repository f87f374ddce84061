# Threads hashing and compressing at once: incremental updates of hash
# objects whose state is in the heap (sha256) and in C memory (sha3, shake),
# streaming zlib objects, and one shared object updated under a lock. Under
# STM with injected aborts a retried update that fed its data twice, or a
# lost write of a hash state, gives a different digest.
import hashlib
import threading
import zlib

N = 4
ROUNDS = 150
results = [None] * N
shared = hashlib.sha256()
shared3 = hashlib.sha3_256()
lock = threading.Lock()


def work(k):
    h = hashlib.sha256()
    h3 = hashlib.sha3_224()
    x = hashlib.shake_128()
    for i in range(ROUNDS):   # hashing alone: nothing else makes these transactions inevitable
        piece = b'%d:%d;' % (k, i) * (i % 7 + 1)
        h.update(piece)
        h3.update(piece)
        x.update(piece)
    co = zlib.compressobj()
    parts = []
    for i in range(ROUNDS):
        piece = b'%d:%d;' % (k, i) * (i % 7 + 1)
        parts.append(co.compress(piece))
        with lock:
            shared.update(piece)
            shared3.update(piece)
    parts.append(co.flush())
    data = zlib.decompress(b''.join(parts))
    results[k] = (h.hexdigest(), h3.hexdigest(), x.hexdigest(8), hashlib.md5(data).hexdigest(),
                  zlib.crc32(data))


threads = [threading.Thread(target=work, args=(k,)) for k in range(N)]
for t in threads:
    t.start()
for t in threads:
    t.join()

for k in range(N):
    expect_data = b''.join(b'%d:%d;' % (k, i) * (i % 7 + 1) for i in range(ROUNDS))
    expect = (hashlib.sha256(expect_data).hexdigest(), hashlib.sha3_224(expect_data).hexdigest(),
              hashlib.shake_128(expect_data).hexdigest(8), hashlib.md5(expect_data).hexdigest(),
              zlib.crc32(expect_data))
    print(k, results[k] == expect, results[k][0][:16])
# the shared objects saw every piece once, in some order: check the length through a copy
total = sum(len(b'%d:%d;' % (k, i) * (i % 7 + 1)) for k in range(N) for i in range(ROUNDS))
print(total, shared.copy().digest_size, shared3.name)
