"""iso2022_jp_2004 and iso2022_jp_3 (vm/modules/cjkcodecs.c) against python3,
exhaustively: every code point of planes 0-2 (JIS X 0213 has nothing above;
every 97th above) encoded alone with strict errors (the bytes, or the error's
span and reason), every pair of the characters that begin or end a JIS X 0213
combining pair (and a few others) encoded together, and every byte pair under
each escape sequence that designates a set (and some that do not) decoded,
with every escape sequence of three or four bytes. tests/py/codecs_cjk.py has
the fast sample of these codecs (handlers, incremental, streams); this is the
whole mapping, in one run of each interpreter (about 10 s)."""
import subprocess

import pytest

from conftest import BUILD, REF_PYTHON

DRIVER = r'''
import sys
NAMES = ["iso2022_jp_2004", "iso2022_jp_3"]
out = []
def enc(s, name):
    try:
        return s.encode(name).hex()
    except UnicodeEncodeError as e:
        return "E%d,%d,%s" % (e.start, e.end, e.reason)
def dec(b, name):
    try:
        return " ".join("%x" % ord(ch) for ch in b.decode(name))
    except UnicodeDecodeError as e:
        return "E%d,%d,%s" % (e.start, e.end, e.reason)
cps = [cp for cp in range(0x30000) if not 0xD800 <= cp < 0xE000] + list(range(0x30000, 0x110000, 97))
ends = set()
for a in range(0xA1, 0xFF):
    for b in range(0xA1, 0xFF):
        try:
            t = bytes([a, b]).decode("euc_jis_2004")
        except UnicodeDecodeError:
            continue
        if len(t) == 2:
            ends.update(t)
ends = sorted(ends) + ["a", "\n", "\u3042", "\u4ff1", "\U00020089", "\uff5e", "\uff3c", "\u00a5"]
escapes = [b"\x1b$B", b"\x1b$(O", b"\x1b$(P", b"\x1b$(Q", b"\x1b$)Q", b"\x1b$)O", b"\x1b$(B", b"\x1b(B"]
for name in NAMES:
    out.append("encode " + name)
    out.extend(enc(chr(cp), name) for cp in cps)
    out.append("pairs " + name)
    out.extend(enc(x + y, name) for x in ends for y in ends)
    for e in escapes:
        out.append("decode %s %r" % (name, e))
        out.extend(dec(e + bytes([a, b]), name) for a in range(256) for b in range(256)
                   if 0x21 <= a <= 0x7E or b == 0x21)
    out.append("escapes " + name)
    for p1 in b"()$.&N":
        for p2 in range(0x20, 0x80):
            out.append(dec(bytes([0x1b, p1, p2]) + b"!!", name) + " | " + dec(bytes([0x1b, p1, p2]), name))
            if p1 == 0x24 and p2 in b"()":
                out.extend(dec(bytes([0x1b, p1, p2, p3]) + b'!!!"', name) for p3 in range(0x20, 0x80))
sys.stdout.write("\n".join(out) + "\n")
'''


def test_iso2022_jp_2004_and_3_exhaustive(tmp_path):
    exe = BUILD / "tmpy-gil"
    assert exe.exists(), f"{exe} is not built: run `make`"
    driver = tmp_path / "iso2022_exhaustive.py"
    driver.write_text(DRIVER)
    procs = [subprocess.Popen([str(x), str(driver)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for x in (REF_PYTHON, exe)]
    (want, werr), (got, gerr) = [p.communicate(timeout=600) for p in procs]
    assert procs[0].returncode == 0, werr.decode(errors="replace")[-2000:]
    assert procs[1].returncode == 0, gerr.decode(errors="replace")[-2000:]
    want, got = want.decode().splitlines(), got.decode().splitlines()
    if want != got:
        section, index, diffs = "", 0, []
        for w, g in zip(want, got):
            if w.split(" ")[0] in ("encode", "pairs", "decode", "escapes"):
                section, index = w, -1
            elif w != g:
                diffs.append(f"{section} #{index}: python3 {w!r}, tmpy {g!r}")
            index += 1
        pytest.fail(f"{len(want)} vs {len(got)} lines; first differences:\n" + "\n".join(diffs[:20]))
