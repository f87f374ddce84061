# The CJK codecs and UTF-7 from several threads at once (build/tmpy runs them in parallel: each
# conversion opens its own iconv descriptor, each incremental decoder keeps its state in the heap):
# every thread's results must equal those computed first in the main thread.
import codecs, threading

NAMES = ["shift_jis", "euc_jp", "euc_kr", "gb18030", "big5", "hz", "iso2022_jp", "iso2022_kr", "utf-7"]
TEXT = "日本語 한국어 中文 abc ~+ ¥\n" * 20
expected = {}
for n in NAMES:
    data = TEXT.encode(n, "replace")
    expected[n] = (data, data.decode(n, "replace"))

results = []
lock = threading.Lock()

def work(k):
    ok = 0
    for rnd in range(15):
        n = NAMES[(k + rnd) % len(NAMES)]
        data, text = expected[n]
        enc = TEXT.encode(n, "replace")
        d = codecs.getincrementaldecoder(n)("replace")
        step = 1 + (k + rnd) % 7
        parts = [d.decode(data[i:i + step]) for i in range(0, len(data), step)] + [d.decode(b"", True)]
        if enc == data and "".join(parts) == text:
            ok += 1
    with lock:
        results.append((k, ok))

threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sorted(results))
print({n: len(v[0]) for n, v in expected.items()})
