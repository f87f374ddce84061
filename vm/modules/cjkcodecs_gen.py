"""Writes cjkcodecs_fixes.h: where glibc's iconv converters and CPython 3.11's CJK codecs differ.

Run with CPython 3.11 on a glibc system (its gconv modules), from the repository's top:
    python3 vm/modules/cjkcodecs_gen.py > vm/modules/cjkcodecs_fixes.h

For each stateless codec it compares glibc's converter (through a small C program it compiles) with CPython's codec on
every single byte, every two-byte sequence, every three-byte sequence of EUC's 0x8F plane, every
four-byte GB18030 sequence, and every code point, and writes what tmpy's cjkcodecs.c must do
differently from iconv: the kind of each first byte (a character alone, the lead of a longer one,
illegal), sequences CPython decodes otherwise (another character, illegal, a two-byte error
span), code points CPython encodes otherwise (other bytes, unencodable), and the character pairs
that make one JIS X 0213 code. Only the differences are written: the mappings themselves are
glibc's. Hangul syllables outside KS X 1001 in euc_kr (an 8-byte make-up sequence) are computed
in cjkcodecs.c and left out here.
"""
import codecs, os, subprocess, sys, tempfile

# glibc's side, one character at a time, by a small C program (ctypes was too slow for the
# 1.1 million code points): "enc CONV" writes, for each code point 0..0x10FFFF, a length byte
# (0xFF: not converted) and the bytes; "dec CONV N" reads sequences of N bytes from stdin and
# writes, for each, a count byte (0xFF: not converted) and that many UTF-32LE characters.
HELPER = r"""
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int conv(iconv_t cd, char *in, size_t n, char *out, size_t cap) {
    iconv(cd, NULL, NULL, NULL, NULL);
    char *ip = in, *op = out; size_t il = n, ol = cap;
    if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1 || il) return -1;
    if (iconv(cd, NULL, NULL, &op, &ol) == (size_t)-1) return -1;
    return (int)(cap - ol);
}
int main(int argc, char **argv) {
    char out[64];
    if (!strcmp(argv[1], "enc")) {
        iconv_t cd = iconv_open(argv[2], "UTF-32LE");
        for (unsigned cp = 0; cp < 0x110000; cp++) {
            int k = (cp >= 0xD800 && cp < 0xE000) ? -1 : conv(cd, (char *)&cp, 4, out, sizeof out);
            putchar(k <= 0 ? 0xFF : k);
            if (k > 0) fwrite(out, 1, (size_t)k, stdout);
        }
    } else {
        iconv_t cd = iconv_open("UTF-32LE", argv[2]);
        int n = atoi(argv[3]);
        char in[8];
        while (fread(in, 1, (size_t)n, stdin) == (size_t)n) {
            int k = conv(cd, in, (size_t)n, out, sizeof out);
            putchar(k <= 0 ? 0xFF : k / 4);
            if (k > 0) fwrite(out, 1, (size_t)k, stdout);
        }
    }
    return 0;
}
"""
_tmp = tempfile.mkdtemp()
_exe = os.path.join(_tmp, "iconvdump")
with open(_exe + ".c", "w") as f:
    f.write(HELPER)
subprocess.run(["cc", "-O2", "-o", _exe, _exe + ".c"], check=True)


def glibc_encode_all(conv_name):
    data = subprocess.run([_exe, "enc", conv_name], check=True, stdout=subprocess.PIPE).stdout
    res, i = [], 0
    for cp in range(0x110000):
        k = data[i]
        if k == 0xFF:
            res.append(None)
            i += 1
        else:
            res.append(data[i + 1:i + 1 + k])
            i += 1 + k
    return res


def glibc_decode_all(conv_name, seqs):
    res = {}
    by_len = {}
    for s in seqs:
        by_len.setdefault(len(s), []).append(s)
    for n, group in by_len.items():
        data = subprocess.run([_exe, "dec", conv_name, str(n)], input=b"".join(group), check=True,
                              stdout=subprocess.PIPE).stdout
        i = 0
        for s in group:
            k = data[i]
            if k == 0xFF or k == 0:
                res[s] = ILLEGAL
                i += 1
            else:
                res[s] = data[i + 1:i + 1 + 4 * k].decode("utf-32-le")
                i += 1 + 4 * k
    return res


# (CPython's name, glibc's converter, the C rule for sequences longer than two bytes)
CODECS = [
    ("shift_jis", "SJIS", ""), ("cp932", "CP932", ""), ("euc_jp", "EUC-JP", "8f3"),
    ("euc_jis_2004", "EUC-JISX0213", "8f3"), ("euc_jisx0213", "EUC-JISX0213", "8f3"),
    ("shift_jis_2004", "SHIFT_JISX0213", ""), ("shift_jisx0213", "SHIFT_JISX0213", ""),
    ("euc_kr", "EUC-KR", ""), ("cp949", "UHC", ""), ("johab", "JOHAB", ""),
    ("gb2312", "EUC-CN", ""), ("gbk", "GBK", ""), ("gb18030", "GB18030", "gb4"),
    ("big5", "BIG5", ""), ("cp950", "CP950", ""), ("big5hkscs", "BIG5-HKSCS", ""),
]

ILLEGAL, ILLEGAL2, NEEDMORE = "ILLEGAL", "ILLEGAL2", "NEEDMORE"
spans = []


def record(exc):
    spans.append((exc.start, exc.end, exc.reason[:3]))
    return ("", exc.end)


codecs.register_error("cjkgen.record", record)


def py_decode_char(name, seq):
    """What CPython makes of seq as one character: its text, ILLEGAL (an error over the first
    byte), ILLEGAL2 (over the first two), NEEDMORE (an incomplete sequence), or None (seq is not
    one character: a shorter character then more)."""
    spans.clear()
    text = seq.decode(name, "cjkgen.record")
    if not spans:
        if len(seq) == 1:
            return text
        try:
            seq[:-1].decode(name)
            return None   # a prefix is already whole characters
        except UnicodeDecodeError:
            return text
    s, e, r = spans[0]
    if s != 0:
        return None
    if r == "inc" and e == len(seq):
        return NEEDMORE
    if r == "ill" and e == 1:
        return ILLEGAL
    if r == "ill" and e == 2:
        return ILLEGAL2
    raise SystemExit("unexpected span %r for %s %s" % (spans, name, seq.hex()))


def main():
    w = sys.stdout.write
    w("/* Generated by cjkcodecs_gen.py (CPython 3.11 against glibc's iconv): do not edit. */\n\n")
    pairs = {}
    for name, conv_name, rule in CODECS:
        kinds = []
        dfix = {}
        singles = [bytes([b]) for b in range(256)]
        ic1 = glibc_decode_all(conv_name, singles)
        for b in range(256):
            r = py_decode_char(name, bytes([b]))
            if r == NEEDMORE:
                kinds.append("M")
                continue
            if r in (ILLEGAL, ILLEGAL2):
                kinds.append("I")
                continue
            kinds.append("S")
            model = chr(b) if b < 0x80 else ic1[bytes([b])]   # cjkcodecs.c takes ASCII as itself
            if model != r:
                dfix[bytes([b])] = r
        seqs = [bytes([a, b]) for a in range(256) if kinds[a] == "M" for b in range(256)]
        if rule == "8f3":
            seqs += [bytes([0x8F, a, b]) for a in range(0xA1, 0xFF) for b in range(0xA1, 0xFF)]
        if rule == "gb4":
            seqs += [bytes([a, b, c, d]) for a in range(0x81, 0xFF) for b in range(0x30, 0x3A)
                     for c in range(0x81, 0xFF) for d in range(0x30, 0x3A)]
        icd = glibc_decode_all(conv_name, seqs)
        results = {}
        for seq in seqs:
            r = py_decode_char(name, seq)
            if r is None or r == NEEDMORE:
                continue
            results[seq] = r
            if isinstance(r, str) and len(r) == 2:
                pairs.setdefault(name, {})[r] = seq
        for seq, r in results.items():
            model = icd[seq]
            if isinstance(model, str) and len(model) == 2 and model not in pairs.get(name, {}):
                model = ILLEGAL   # cjkcodecs.c takes two characters only for a JIS X 0213 pair
            if isinstance(model, str) and len(model) > 2:
                model = ILLEGAL
            if model != r:
                dfix[seq] = r
        efix = {}
        ice = glibc_encode_all(conv_name)
        for cp in range(0x110000):
            if 0xD800 <= cp < 0xE000:
                continue
            ch = chr(cp)
            try:
                p = ch.encode(name)
            except UnicodeEncodeError:
                p = None
            g = bytes([cp]) if cp < 0x80 else ice[cp]   # cjkcodecs.c writes ASCII as itself
            if p is not None and name == "euc_kr" and len(p) == 8:
                continue   # the make-up sequence: computed in C
            if p != g:
                efix[cp] = p
        cid = name.upper()
        w("static const char %s_KINDS[257] =\n" % cid)
        kinds = "".join(kinds)
        for k in range(0, 256, 64):
            w('    "%s"\n' % kinds[k:k + 64])
        w(";\n")
        w("static const CjkDecodeFix %s_DFIX[] = {\n" % cid)
        for seq in sorted(dfix, key=lambda s: (len(s), s)):
            r = dfix[seq]
            key = "0x%xu, %d" % (int.from_bytes(seq, "big"), len(seq))
            if r == ILLEGAL:
                w("    {%s, CJK_ILLEGAL, 0},\n" % key)
            elif r == ILLEGAL2:
                w("    {%s, CJK_ILLEGAL2, 0},\n" % key)
            else:
                w("    {%s, 0x%x, 0x%x},\n" % (key, ord(r[0]), ord(r[1]) if len(r) > 1 else 0))
        w("    {0, 0, 0, 0},\n};\n")
        w("static const CjkEncodeFix %s_EFIX[] = {\n" % cid)
        for cp in sorted(efix):
            p = efix[cp]
            if p is None:
                w("    {0x%x, 0, 0},\n" % cp)
            else:
                w("    {0x%x, 0x%xu, %d},\n" % (cp, int.from_bytes(p, "big"), len(p)))
        w("    {0, 0, 0},\n};\n")
        w("static const CjkPair %s_PAIRS[] = {\n" % cid)
        for text, seq in sorted(pairs.get(name, {}).items()):
            w("    {0x%x, 0x%x, 0x%xu, %d},\n" % (ord(text[0]), ord(text[1]), int.from_bytes(seq, "big"), len(seq)))
        w("    {0, 0, 0, 0},\n};\n\n")
        sys.stderr.write("%s: %d decode fixes, %d encode fixes, %d pairs\n"
                         % (name, len(dfix), len(efix), len(pairs.get(name, {}))))


main()
