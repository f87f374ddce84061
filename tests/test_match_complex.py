"""Complex literals in match patterns (`case 1j:`, `case -1+2j:`) compile
and match as in CPython, and malformed ones are CPython's SyntaxErrors
("real number required in complex literal", "imaginary number required in
complex literal", duplicate mapping keys) at CPython's positions. Each
pattern is compiled and run by python3 and by build/tmpy-gil; the outputs
must be equal. (tests/py/complex_match.py covers more of the same as a
differential program.)"""
import subprocess

import pytest

from conftest import BUILD, REF_PYTHON

TMPY = BUILD / "tmpy-gil"

PATTERNS = ["1j", "-1j", "1 + 2j", "-1.5 - 0j", "[1, 2j]", "{1j: _}", "0 | 3j", "-1+2j", "1e3-1e-3J",
            "(1+2j) as z", "1j + 2j", "1 + 2", "-1j-2j", "1 + -2j", "{1: _, 1+0j: _}", "{-0j: _, 0j: _}",
            "1 + 0x2", "2j(x)"]
SUBJECTS = ["1j", "-1j", "complex(-0.0, -1)", "1+2j", "-1+2j", "-1.5", "[1, 2j]", "{1j: 0}", "3j", "0", "1000-0.001j"]


def run(exe, pattern):
    src = f"match x:\n    case {pattern}:\n        hit = True\n"
    code = (f"src = {src!r}\n"
            "try:\n"
            "    code = compile(src, '<m>', 'exec')\n"
            "except SyntaxError as e:\n"
            "    print('SyntaxError', e.msg, e.lineno, e.offset, e.end_lineno, e.end_offset)\n"
            "else:\n"
            f"    for x in [{', '.join(SUBJECTS)}]:\n"
            "        env = {'x': x, 'hit': False}\n"
            "        exec(code, env)\n"
            "        print(repr(x), env['hit'])\n")
    p = subprocess.run([str(exe), "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return p.stdout


@pytest.mark.parametrize("pattern", PATTERNS)
def test_complex_literal_pattern_as_cpython(pattern):
    assert run(TMPY, pattern) == run(REF_PYTHON, pattern)
