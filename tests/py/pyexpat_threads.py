# Threads parsing XML at once, each with its own expat parsers (handlers run
# Python code in the middle of libexpat's parse; under STM the parser is C
# memory, used inevitably): ElementTree documents and raw handler counts.
import threading
import xml.etree.ElementTree as ET
from xml.parsers import expat

N = 4
results = [None] * N


def doc(t, n):
    items = "".join(f"<item id='{t}-{k}' n='{k}'>text {k} &amp; more</item>" for k in range(n))
    return f"<?xml version='1.0'?><root owner='{t}'>{items}</root>"


def work(t):
    total = 0
    for rep in range(10):
        root = ET.fromstring(doc(t, 30 + rep))
        total += sum(int(e.get("n")) for e in root) + len(root)
        counts = {"start": 0, "end": 0, "chars": 0}
        p = expat.ParserCreate()
        p.buffer_text = True
        p.StartElementHandler = lambda name, attrs: counts.__setitem__("start", counts["start"] + 1)
        p.EndElementHandler = lambda name: counts.__setitem__("end", counts["end"] + 1)
        p.CharacterDataHandler = lambda data: counts.__setitem__("chars", counts["chars"] + len(data))
        text = doc(t, 20).encode()
        for k in range(0, len(text), 37):
            p.Parse(text[k:k + 37], False)
        p.Parse(b"", True)
        total += counts["start"] + counts["end"] + counts["chars"]
    results[t] = total


threads = [threading.Thread(target=work, args=(t,)) for t in range(N)]
for th in threads:
    th.start()
for th in threads:
    th.join()
print(results)
