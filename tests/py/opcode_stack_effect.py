# dis.stack_effect (the _opcode module) for every opcode of CPython 3.11's opmap, with several opargs
# and each jump value, and its errors
import dis

rows = []
for name, op in sorted(dis.opmap.items(), key=lambda kv: kv[1]):
    args = [None] if op < dis.HAVE_ARGUMENT else [0, 1, 2, 3, 7, 8, 15, 0x102, 0x301]
    rows.append((name, [[dis.stack_effect(op, a, jump=j) for j in (None, True, False)] for a in args]))
for name, effects in rows:
    print(name, effects)
for bad in ((dis.opmap["NOP"], 0), (dis.opmap["LOAD_FAST"],), (3, None), (300, 0), (-1, 0)):
    try:
        dis.stack_effect(*bad)
    except ValueError as e:
        print(bad, "ValueError", e)
try:
    dis.stack_effect(dis.opmap["LOAD_FAST"], 0, jump=1)
except ValueError as e:
    print("ValueError", e)
