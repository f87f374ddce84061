# json from several threads sharing one decoder (its C scanner) and one
# encoder (its C encoder): each call's memo, output and circular-reference
# stack are its own, so every thread gets exactly its own results, errors
# included. Under build/tmpy the threads run in parallel transactions.
import json, threading

decoder = json.JSONDecoder()
encoder = json.JSONEncoder(sort_keys=True, separators=(',', ':'))
# one C encoder object called by every thread (json.dumps makes a new one per call)
shared = json.encoder.c_make_encoder({}, encoder.default, json.encoder.encode_basestring_ascii, None, ':', ',',
                                     True, False, True)
ROUNDS = 60

def doc(t, i):
    return {'thread': t, 'i': i, 'name': 'n\u00e9%d\U0001f600' % i, 'vals': [i, i * 0.5, None, True, 'x' * (i % 7)],
            'nested': {'k%d' % j: [j, {'deep': str(j)}] for j in range(i % 5)}}

results = {}

def work(t):
    bad = 0
    errors = []
    for i in range(ROUNDS):
        d = doc(t, i)
        s = encoder.encode(d)
        if decoder.decode(s) != d or s != json.dumps(d, sort_keys=True, separators=(',', ':')) or shared(d, 0) != [s]:
            bad += 1
        try:
            decoder.decode(s[:-1 - (i % 5)])
        except json.JSONDecodeError as e:
            errors.append((e.msg, e.pos))
        cyc = [d]
        cyc.append(cyc)
        try:
            encoder.encode(cyc)
        except ValueError as e:
            errors.append(str(e))
    results[t] = (bad, len(errors), errors[:3], encoder.encode(doc(t, ROUNDS))[:60])

threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
for th in threads:
    th.start()
for th in threads:
    th.join()
for t in sorted(results):
    print(t, results[t])
