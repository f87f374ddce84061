# Regular expressions from several threads at once (the STM build runs them
# in parallel): shared compiled patterns, finditer scanners advanced by
# threads in turn, sub with callables that switch threads, and bytearray
# subjects another thread keeps changing (a match sees one whole version:
# every bytearray holds one repeated letter). Longer: TMPY_THREAD_SCALE=N.
import os
import re
import threading

from support.threads import run_threads, switch_point

SCALE = int(os.environ.get("TMPY_THREAD_SCALE", "1"))
ROUNDS = 60 * SCALE
WORDS = re.compile(r'(?P<w>[a-z]+)(?P<n>\d*)')
TEXT = ' '.join('w%d' % i if i % 3 else 'word%dx' % i for i in range(300))
EXPECTED = WORDS.findall(TEXT)
errors = []


def worker(k):
    for r in range(ROUNDS):
        got = WORDS.findall(TEXT)
        if got != EXPECTED:
            errors.append(('findall', k, r))
        out = WORDS.sub(lambda m: (switch_point(), m.group('n') + m.group('w'))[1], TEXT[:200])
        if out != re.sub(r'([a-z]+)(\d*)', r'\2\1', TEXT[:200]):
            errors.append(('sub', k, r))
        if re.fullmatch(r'(?:(?:w\d+|word\d+x) ?)+', TEXT) is None:
            errors.append(('fullmatch', k, r))


run_threads(worker, [(k,) for k in range(4)])
print('shared patterns', sorted(set(e[0] for e in errors)))

# one scanner, many threads: every match is handed out once, in order
scanner = re.compile(r'\d+').finditer(' '.join(str(i) for i in range(2000)))
lock = threading.Lock()
taken = []


def take():
    while True:
        with lock:
            m = next(scanner, None)
            if m is None:
                return
            taken.append(int(m.group()))
        switch_point()


run_threads(take, [() for _ in range(4)])
print('scanner', taken == list(range(2000)))

# bytearray subjects changed while others match
data = bytearray(b'a' * 64)
stop = []
seen_bad = []


def writer():
    for i in range(ROUNDS * 20):
        data[:] = bytes([97 + i % 26]) * 64
        switch_point()
    stop.append(1)


def reader():
    pat = re.compile(rb'(.)\1*')
    while not stop:
        m = pat.fullmatch(data)
        if m is None or len(m.group()) != 64:
            seen_bad.append(bytes(data))
        switch_point()


run_threads(lambda k: writer() if k == 0 else reader(), [(k,) for k in range(3)])
print('bytearray snapshots', seen_bad[:3])
