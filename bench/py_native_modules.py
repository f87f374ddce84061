#!/usr/bin/env python3
"""Native modules of issue 22 (vm/modules/: zlib, _hashlib, _blake2, binascii,
marshal, array, unicodedata): python3 (CPython 3.11's C modules) against
build/tmpy-gil and build/tmpy. Each workload is timed inside the
interpreter (best of TMPY_BENCH_REPEAT, default 3); results must agree.
Writes bench/results/native_modules.txt with the machine and its load.

`py_native_modules.py worker` is the part that runs in each interpreter."""
import os
import sys
import time

REPEAT = int(os.environ.get("TMPY_BENCH_REPEAT", "3"))


def workloads():
    import array, binascii, hashlib, marshal, unicodedata, zlib
    data = b''.join(b'line %d: the quick brown fox jumps over the lazy dog\n' % i for i in range(200000))  # ~11 MB
    packed = zlib.compress(data)
    text = 'Ünïcödé façade naïve café ' * 20000

    def zlib_compress():
        return len(zlib.compress(data))

    def zlib_decompress():
        return len(zlib.decompress(packed))

    def sha256_11mb():
        return hashlib.sha256(data).hexdigest()[:16]

    def sha3_256_11mb():
        return hashlib.sha3_256(data).hexdigest()[:16]

    def blake2b_11mb():
        return hashlib.blake2b(data).hexdigest()[:16]

    def md5_small_many():
        return hashlib.md5(b''.join(hashlib.md5(b'%d' % i).digest() for i in range(50000))).hexdigest()[:16]

    def base64_roundtrip():
        return len(binascii.a2b_base64(binascii.b2a_base64(data)))

    def marshal_roundtrip():
        obj = [(i, str(i), float(i), {'k': i}) for i in range(50000)]
        return len(marshal.loads(marshal.dumps(obj)))

    def array_item_loop():
        a = array.array('d', [0.0]) * 100000
        for k in range(5):
            for i in range(len(a)):
                a[i] = a[i] + i * 0.5
        return sum(a)

    def unicodedata_nfd_nfc():
        return len(unicodedata.normalize('NFC', unicodedata.normalize('NFD', text)))

    return [zlib_compress, zlib_decompress, sha256_11mb, sha3_256_11mb, blake2b_11mb, md5_small_many,
            base64_roundtrip, marshal_roundtrip, array_item_loop, unicodedata_nfd_nfc]


def worker():
    for f in workloads():
        best, res = None, None
        for _ in range(REPEAT):
            t0 = time.perf_counter()
            res = f()
            dt = time.perf_counter() - t0
            best = dt if best is None or dt < best else best
        print(f.__name__, '%.4f' % best, res, flush=True)


def main():
    import pathlib
    import platform
    import subprocess
    ROOT = pathlib.Path(__file__).resolve().parent.parent
    exes = {'python3': [sys.executable], 'tmpy-gil': [str(ROOT / 'build' / 'tmpy-gil')],
            'tmpy (stm)': [str(ROOT / 'build' / 'tmpy')]}
    results = {}
    for name, cmd in exes.items():
        p = subprocess.run(cmd + [__file__, 'worker'], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f'{name} failed: {p.stderr[-2000:]}')
        results[name] = [l.split() for l in p.stdout.splitlines()]
    out = []
    load = os.getloadavg()
    out.append('Native module workloads (bench/py_native_modules.py), best of %d, seconds inside the interpreter, %s'
               % (REPEAT, time.strftime('%Y-%m-%d')))
    out.append('machine: %s, %d CPUs, %s; load average %.2f %.2f %.2f (shared with other jobs)' % (
        platform.processor() or platform.machine(), os.cpu_count(), platform.platform(), *load))
    out.append('%-22s %10s %10s %10s %8s %8s' % ('workload', 'python3', 'tmpy-gil', 'tmpy-stm', 'gil/py', 'stm/py'))
    for row_py, row_gil, row_stm in zip(results['python3'], results['tmpy-gil'], results['tmpy (stm)']):
        if row_py[2:] != row_gil[2:] or row_py[2:] != row_stm[2:]:
            out.append('%s: RESULTS DIFFER %s %s %s' % (row_py[0], row_py[2:], row_gil[2:], row_stm[2:]))
        tp, tg, ts = float(row_py[1]), float(row_gil[1]), float(row_stm[1])
        out.append('%-22s %10.4f %10.4f %10.4f %8.2f %8.2f' % (row_py[0], tp, tg, ts, tg / tp, ts / tp))
    text = '\n'.join(out) + '\n'
    print(text, end='')
    (ROOT / 'bench' / 'results' / 'native_modules.txt').write_text(text)


if __name__ == '__main__':
    worker() if sys.argv[1:] == ['worker'] else main()
