# Random error handlers against CPython: for each C codec family (UTF-8/16/32, ASCII, Latin-1, the
# escape codecs, charmap, UTF-7, CJK), texts and byte strings of characters that fail, through a
# handler that returns at random: positions anywhere (negative, out of range), bytes, unencodable
# replacements, wrong types, huge ints, a raised exception, and for decoders a new exc.object (bytes
# of any length, or not bytes). The exception object is reused within one call as CPython's codecs
# do (a handler sees what it left in it). Three seeds, 400 inputs each.
import codecs, random, sys, warnings
warnings.simplefilter("error", DeprecationWarning)   # unicode_escape's warning raised, so compared too
rnd = random.Random(1)
ENC = ["ascii", "latin-1", "utf-8", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be",
       "unicode-escape", "raw-unicode-escape", "cp1252", "iso-8859-15", "koi8-r", "utf-7", "shift_jis", "iso2022_jp_2", "euc_kr"]
calls = [0]
def handler(exc):
    calls[0] += 1
    if calls[0] > 40:
        raise RuntimeError("too many")
    k = rnd.randrange(12)
    n = len(exc.object) if not isinstance(exc.object, int) else 3
    if k == 0:
        return ("", exc.end)
    if k == 1:
        return ("<%d>" % exc.start, rnd.randrange(-n - 2, n + 3))
    if k == 2:
        return (b"\x00\x01\x02\x03"[: rnd.randrange(5)], exc.end)
    if k == 3 and isinstance(exc, UnicodeDecodeError):
        exc.object = bytes(rnd.randrange(256) for _ in range(rnd.randrange(8)))
        return ("M", rnd.randrange(0, len(exc.object) + 1))
    if k == 4:
        return rnd.choice([None, 1, ("x",), ("x", "y"), (1, 2), ["x", 1], ("x", 2**70)])
    if k == 5:
        return ("\udc80\xe9\u20ac"[rnd.randrange(3)], exc.end)
    if k == 6:
        raise ValueError("handler %d" % exc.start)
    if k == 7 and isinstance(exc, UnicodeDecodeError):
        exc.object = 12
        return ("x", 0)
    return ("?", exc.end)
codecs.register_error("fz", handler)
alpha = "ab\xe9\u20ac\udc80\ud800\U0001f600\x00\\\u3042\uac00\u4eec+-"
balpha = b"ab\x80\xff\\xuN{}0\x1b$(B.AN+-\x00\xd8\xdc\xed\xa0"
for seed, i in [(seed, i) for seed in (1, 4, 2026) for i in range(400)]:
    if i == 0:
        rnd.seed(seed)
    enc = rnd.choice(ENC)
    calls[0] = 0
    if rnd.random() < 0.5:
        s = "".join(rnd.choice(alpha) for _ in range(rnd.randrange(8)))
        try:
            r = s.encode(enc, "fz")
        except Exception as e:
            r = (type(e).__name__, str(e)[:120])
        print(i, enc, ascii(s), ascii(r))
    else:
        b = bytes(rnd.choice(balpha) for _ in range(rnd.randrange(10)))
        try:
            r = b.decode(enc, "fz")
        except Exception as e:
            r = (type(e).__name__, str(e)[:120])
        print(i, enc, b, ascii(r))
