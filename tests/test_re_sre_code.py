"""_sre.compile checks the code it is given (vm/modules/sre/sreengine.c,
sre_code_valid): code lists from re/_compiler with every word changed in
several ways are either refused with RuntimeError or run without crashing
(tests/re/sre_mutated_code.py, both builds)."""
import subprocess

import pytest

from conftest import BUILD, ROOT

PATTERNS = [r'(a)(?:b|c)*d', r'(?P<n>a)?(?(n)b|c)d', r'(?<=a)b(?!c)', r'(?>a+)[b-d]{2,3}?', r'(a)\1*+x',
            r'[\w\u0100-\u0300]++d', r'(?:ab)++|a*?d', r'(?i)ab|[^x]d']


@pytest.mark.parametrize("exe", ["tmpy-gil", "tmpy"])
def test_mutated_code(exe):
    p = subprocess.run([str(BUILD / exe), str(ROOT / "tests" / "re" / "sre_mutated_code.py"), *PATTERNS],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    ok, refused, accepted = p.stdout.split()
    assert ok == "ok" and int(refused) > 0 and int(accepted) > 0
