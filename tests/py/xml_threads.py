# Threads parsing XML at once, each with its own parsers: handlers that
# allocate (so collections move the parser and its handlers during
# libexpat's callbacks), incremental Parse in chunks, buffer_text,
# ElementTree over pyexpat, a handler that raises, and one parser per thread
# whose settings change between chunks. Under STM with injected aborts a
# retried Parse that fed libexpat twice, or a handler list write lost, gives
# different counts.
import threading
import xml.etree.ElementTree as ET
from xml.parsers import expat

N = 4
ROUNDS = 12


def doc(k, i):
    items = ''.join('<item n="%d" k="%d">text %d &amp; %s</item>' % (j, k, j, 'x' * (j % 5)) for j in range(40))
    return '<?xml version="1.0"?><root round="%d">%s<!-- c --><?pi %d?></root>' % (i, items, k)


def work(k, out):
    totals = {'start': 0, 'end': 0, 'chars': 0, 'et': 0, 'errors': 0, 'raised': 0, 'pi': 0}
    for i in range(ROUNDS):
        p = expat.ParserCreate()
        p.buffer_text = i % 2 == 0
        seen = []

        def start(name, attrs):
            totals['start'] += 1
            seen.append([name, attrs if isinstance(attrs, list) else sorted(attrs.items()), list(range(20))])   # allocation inside the callback

        def end(name):
            totals['end'] += 1

        def chars(data):
            totals['chars'] += len(data)

        def pi(target, data):
            totals['pi'] += int(data) + 1

        p.StartElementHandler = start
        p.EndElementHandler = end
        p.CharacterDataHandler = chars
        p.ProcessingInstructionHandler = pi
        raw = doc(k, i).encode()
        step = 37 + i * 11
        for off in range(0, len(raw), step):
            if off and i % 3 == 0:
                p.ordered_attributes = not p.ordered_attributes
            p.Parse(raw[off:off + step])
        p.Parse(b'', True)
        root = ET.fromstring(doc(k, i))
        totals['et'] += len(root.findall('item')) + len(''.join(root.itertext()))
        bad = expat.ParserCreate()
        try:
            bad.Parse('<a><b>\n</a>', True)
        except expat.ExpatError as e:
            totals['errors'] += e.lineno * 10 + e.offset
        boom = expat.ParserCreate()

        def raiser(name, attrs):
            if name == 'item':
                raise KeyError(name)

        boom.StartElementHandler = raiser
        try:
            boom.Parse(doc(k, i), True)
        except KeyError:
            totals['raised'] += boom.StartElementHandler is None
    out[k] = totals


out = [None] * N
threads = [threading.Thread(target=work, args=(k, out)) for k in range(N)]
for t in threads:
    t.start()
for t in threads:
    t.join()
for k, totals in enumerate(out):
    print(k, sorted(totals.items()))
