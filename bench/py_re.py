#!/usr/bin/env python3
"""Regex workloads: python3 (CPython 3.11's C _sre) against build/tmpy-gil and
build/tmpy (tmpy's _sre, vm/objects/sreengine.c, under CPython's re package).
Each workload is timed inside the interpreter (best of TMPY_BENCH_REPEAT,
default 3), so start-up and imports are not counted; results must agree.
Writes bench/results/re.txt with the machine and its load.

`py_re.py worker` is the part that runs in each interpreter."""
import os
import sys
import time

REPEAT = int(os.environ.get("TMPY_BENCH_REPEAT", "3"))


def workloads():
    import re
    words = ['alpha', 'beta', 'gamma', 'delta', 'x1', 'y22', 'mail@example.com', 'foo_bar', '2024-05-06']
    text = ' '.join(words[(i * 7) % len(words)] for i in range(120000))   # about 1 MB, ASCII
    utext = text.replace('a', 'ä').replace('o', 'ø')                     # the same, not ASCII
    lines = text.split('mail@')
    needle_text = 'x' * 1000000 + 'needle'

    def literal_search():
        return sum(re.search('needle', needle_text).start() for _ in range(20))

    def findall_words():
        return len(re.findall(r'\w+', text))

    def findall_words_unicode():
        return len(re.findall(r'\w+', utext))

    def sub_template():
        return len(re.sub(r'(\d+)-(\d+)', r'\2/\1', text))

    def sub_callable():
        return len(re.sub(r'\d+', lambda m: str(len(m.group())), text[:300000]))

    def emails():
        return len(re.findall(r'[\w.]+@[\w.]+\.\w+', text))

    def split_spaces():
        return len(re.split(r'\s+', text))

    def ignorecase():
        return len(re.findall(r'(?i)GAMMA|DELTA', text))

    def backtracking():
        p = re.compile(r'(x+x+)+y')
        return sum(p.match('x' * n) is None for n in range(12, 20))

    def alternation_groups():
        p = re.compile(r'(alpha|beta|gamma)\s+(\w+)')
        return sum(1 for _ in p.finditer(text))

    def match_many_lines():
        p = re.compile(r'^(\w+)\s*=\s*(.*)$')
        src = ['key%d = value %d' % (i, i) for i in range(100000)]
        return sum(1 for s in src if p.match(s))

    return [literal_search, findall_words, findall_words_unicode, sub_template, sub_callable, emails,
            split_spaces, ignorecase, backtracking, alternation_groups, match_many_lines]


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
    out.append('Regex workloads (bench/py_re.py), best of %d, seconds inside the interpreter' % REPEAT)
    out.append('machine: %s, %d CPUs, %s; load average %.2f %.2f %.2f (shared with other jobs)' % (
        platform.processor() or platform.machine(), os.cpu_count(), platform.platform(), *load))
    out.append('%-24s %10s %10s %10s %8s %8s' % ('workload', 'python3', 'tmpy-gil', 'tmpy-stm', 'gil/py', 'stm/py'))
    for row_py, row_gil, row_stm in zip(results['python3'], results['tmpy-gil'], results['tmpy (stm)']):
        if row_py[2:] != row_gil[2:] or row_py[2:] != row_stm[2:]:
            out.append('%s: RESULTS DIFFER %s %s %s' % (row_py[0], row_py[2:], row_gil[2:], row_stm[2:]))
        tp, tg, ts = float(row_py[1]), float(row_gil[1]), float(row_stm[1])
        out.append('%-24s %10.4f %10.4f %10.4f %8.2f %8.2f' % (row_py[0], tp, tg, ts, tg / tp, ts / tp))
    text = '\n'.join(out) + '\n'
    print(text, end='')
    (ROOT / 'bench' / 'results' / 're.txt').write_text(text)


if __name__ == '__main__':
    worker() if sys.argv[1:] == ['worker'] else main()
