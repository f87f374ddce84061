"""Random regular expressions for tests/test_re_random.py.

`python3 re_random.py gen SEED N FILE` writes N random cases (a pattern,
flags, subjects, a template) to FILE, one repr per line; `re_random.py run
FILE` (under python3 or tmpy) runs every case through re and prints one line
of results per case, exceptions as their type and message, so the two
interpreters' outputs can be compared line by line."""
import random
import re
import sys

ALPHA = 'ab'


def atom(r, depth, ngroups, qdepth):
    k = r.randrange(20 if depth < 3 else 9)
    if k < 3:
        return r.choice('aabbc')
    if k == 3:
        return r.choice(['.', r'\d', r'\w', r'\s', r'\W', 'A', '\n', 'é', 'É', '_'])
    if k == 4:
        neg = '^' if r.random() < 0.3 else ''
        items = ''.join(r.choice(['a', 'b', 'a-c', r'\d', r'\w', 'A', 'é', r'\s', 'k', 'K']) for _ in range(r.randint(1, 3)))
        return '[' + neg + items + ']'
    if k == 5:
        return r.choice(['^', '$', r'\b', r'\B', r'\A', r'\Z'])
    if k == 6 and ngroups[0]:
        return '\\%d' % r.randint(1, ngroups[0])
    if k in (7, 8):
        return r.choice('ab')
    inner = expr(r, depth + 1, ngroups, qdepth)
    kind = r.randrange(9)
    if kind < 3:
        ngroups[0] += 1
        return '(' + inner + ')'
    if kind == 3:
        ngroups[0] += 1
        return '(?P<g%d>' % ngroups[0] + inner + ')'
    if kind == 4:
        return '(?:' + inner + ')'
    if kind == 5:
        return '(?>' + inner + ')'
    if kind == 6:
        return r.choice(['(?=', '(?!']) + inner + ')'
    if kind == 7:
        return r.choice(['(?<=', '(?<!']) + r.choice(['a', 'b', 'ab', r'\w', '[ab]']) + ')'
    if ngroups[0]:
        return '(?(%d)%s|%s)' % (r.randint(1, ngroups[0]), inner, expr(r, depth + 1, ngroups, qdepth))
    return '(?:' + inner + ')'


def quantified(r, depth, ngroups, qdepth):
    # repeats nest at most two deep: deeper nesting makes both engines exponential
    q = r.randrange(14) if qdepth < 2 else 0
    base = ['', '', '', '', '*', '+', '?', '{2}', '{1,3}', '{,2}', '{2,}', '*', '+', '?'][q]
    a = atom(r, depth, ngroups, qdepth + (1 if base else 0))
    if a in ('^', '$', r'\b', r'\B', r'\A', r'\Z') or a.startswith(('(?=', '(?!', '(?<')):
        return a
    if base and r.random() < 0.4:
        base += r.choice('?+')
    return a + base


def expr(r, depth, ngroups, qdepth=0):
    alts = []
    for _ in range(1 if r.random() < 0.7 else r.randint(2, 3)):
        alts.append(''.join(quantified(r, depth, ngroups, qdepth) for _ in range(r.randint(1, 3))))
    return '|'.join(alts)


def gen(seed, n, path):
    r = random.Random(seed)
    with open(path, 'w', encoding='utf-8') as f:
        for _ in range(n):
            pat = expr(r, 0, [0])
            flags = 0
            for fl in (re.I, re.M, re.S, re.A):
                if r.random() < 0.25:
                    flags |= fl
            subjects = [''.join(r.choice('aabbcA\n é_1K') for _ in range(r.randint(0, 9))) for _ in range(4)]
            template = r.choice(['-', r'<\g<0>>', r'\1', '', r'[\g<0>]'])
            f.write(repr((pat, int(flags), subjects, template)) + '\n')


def show(m):
    if m is None:
        return 'N'
    return '%s%s%s' % (m.span(), m.groups(), m.lastindex)


def attempt(f, *a):
    try:
        return repr(f(*a))
    except Exception as e:
        return '%s:%s' % (type(e).__name__, e)


def run(path):
    with open(path, encoding='utf-8') as f:
        for i, line in enumerate(f):
            pat, flags, subjects, template = eval(line)
            try:
                p = re.compile(pat, flags)
            except Exception as e:
                print(i, 'compile', type(e).__name__, e)
                continue
            out = []
            for s in subjects:
                out.append(attempt(lambda s: show(p.match(s)) + '/' + show(p.search(s)) + '/' + show(p.fullmatch(s)), s))
                out.append(attempt(p.findall, s))
                out.append(attempt(lambda s: [show(m) for m in p.finditer(s)], s))
                out.append(attempt(p.split, s))
                out.append(attempt(p.subn, template, s))
                bs = s.encode('latin-1', 'replace')
                try:
                    bp = re.compile(pat.encode('latin-1', 'replace'), flags)
                    out.append(show(bp.search(bs)) + attempt(bp.findall, bs))
                except Exception as e:
                    out.append('%s:%s' % (type(e).__name__, e))
            print(i, ' '.join(out))


if __name__ == '__main__':
    if sys.argv[1] == 'gen':
        gen(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        run(sys.argv[2])
