"""Built-in iterators nested far deeper than the recursion limit
(map(f, map(f, ...)), zip, filter, enumerate): next() of the outermost one
recurses through all of them in C. CPython 3.11 overflows its C stack there
(a segfault), so this is no differential tests/py program: tmpy must raise
RecursionError, and stay usable, in both builds."""
import pytest

from conftest import BUILD, run

PROGRAM = """
import itertools
wrappers = {
    'map': lambda x: map(abs, x), 'map2': lambda x: map(max, x, iter([5, 6])), 'zip': lambda x: zip(x),
    'zip2': lambda x: zip(x, iter([5, 6])), 'filter': lambda x: filter(None, x), 'enumerate': lambda x: enumerate(x),
}
for name, wrap in wrappers.items():
    x = iter([1])
    for _ in range(200000):
        x = wrap(x)
    try:
        print(name, len(list(x)))
    except RecursionError as e:
        print(name, 'RecursionError')
    # shallow nesting still works
    x = iter([1, 2])
    for _ in range(50):
        x = wrap(x)
    print(name, 'shallow', len(list(x)))
"""


@pytest.mark.parametrize("exe", ["tmpy-gil", "tmpy"])
def test_deep_builtin_iterators(exe):
    p = run([str(BUILD / exe), "-c", PROGRAM], timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    lines = p.stdout.splitlines()
    assert len(lines) == 12, p.stdout
    for line in lines:
        name, rest = line.split(' ', 1)
        assert rest in ('RecursionError', 'shallow 2', 'shallow 1'), line
    assert sum(line.endswith('RecursionError') for line in lines) == 6
