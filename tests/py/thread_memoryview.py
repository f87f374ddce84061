# Threads writing a shared bytearray through memoryviews: each writer owns
# a strided view (every 4th byte) and stamps whole rounds of it with its
# round number; the writes of one slice assignment are one operation, so a
# reader that copies a writer's view (bytes(view)) always sees one round in
# it. Views made and dropped in every thread, and a resize refused while
# any view is alive, allowed once all are released.
import os
import sys

from support.threads import run_threads

SCALE = int(os.environ.get("TMPY_THREAD_SCALE", "1"))
ROUNDS = 200 * SCALE
N = 4
WIDTH = 64
ba = bytearray(N * WIDTH)
whole = memoryview(ba)
views = [whole[k::N] for k in range(N)]
torn = []


def writer(k):
    v = views[k]
    for r in range(ROUNDS):
        v[:] = bytes([r % 256]) * WIDTH
        memoryview(ba)[k] == ba[k]   # a view made and dropped
    v[:] = bytes([k + 1]) * WIDTH


def reader():
    for r in range(ROUNDS):
        for k in range(N):
            seen = bytes(views[k])
            if len(set(seen)) != 1:
                torn.append(seen)


sys.setswitchinterval(1e-5)
run_threads(lambda f, a: f(*a), [(writer, (k,)) for k in range(N)] + [(reader, ())])
print('torn', len(torn))
print(bytes(ba[:8]), all(ba[i] == i % N + 1 for i in range(len(ba))))
try:
    ba.append(0)
except BufferError as e:
    print('BufferError', e)
whole.release()
for v in views:
    v.release()
ba.append(0)
print(len(ba))
