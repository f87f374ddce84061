"""tmpy has no complex numbers, so a complex literal in a pattern (which
CPython accepts: `case 1+2j:`) cannot mean what it means there: it is a
SyntaxError, never a pattern that silently matches something else. The
differential programs (tests/py/match_*.py) cannot show this, as CPython
compiles these; this test pins tmpy's behaviour."""
import subprocess

import pytest

from conftest import BUILD

TMPY = BUILD / "tmpy-gil"


@pytest.mark.parametrize("pattern", ["1j", "-1j", "1 + 2j", "-1.5 - 0j", "[1, 2j]", "{1j: _}", "0 | 3j"])
def test_imaginary_literal_in_pattern_is_a_syntax_error(pattern):
    src = f"match x:\n    case {pattern}:\n        pass\n"
    code = (f"try:\n    compile({src!r}, '<m>', 'exec')\n    print('compiled')\n"
            "except SyntaxError as e:\n    print(type(e).__name__, e.msg, e.lineno)\n")
    p = subprocess.run([str(TMPY), "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "SyntaxError complex numbers are not supported yet 2"
