# frame.f_trace_opcodes: 'opcode' events for the local trace function. Only
# what is portable is compared (tmpy's instructions are not CPython's):
# opcode events arrive, come after a line's 'line' event, stop when turned
# off; the attributes are bool members with CPython's errors.
import sys

events = []


def local(frame, event, arg):
    events.append((event, frame.f_lineno))
    if event == 'line' and frame.f_lineno == target_off:
        frame.f_trace_opcodes = False
    return local


def tracer(frame, event, arg):
    if frame.f_code.co_name == 'work':
        frame.f_trace_opcodes = True
        events.append((event, frame.f_lineno))
        return local
    return None


def work(n):
    total = 0
    for i in range(n):
        total += i * 2
    x = total + 1
    y = x * 3
    return y


target_off = work.__code__.co_firstlineno + 4   # the `x = ...` line
sys.settrace(tracer)
r = work(3)
sys.settrace(None)
print(r)
kinds = [e for e, _ in events]
print(kinds[0], kinds[-1])
print(kinds.count('opcode') > 0)
# Every line event is followed by at least one opcode event on that line.
ok = True
for k, (e, line) in enumerate(events):
    if e == 'line' and line < target_off:
        nxt = events[k + 1]
        ok = ok and nxt == ('opcode', line)
print(ok)
# The lines of the opcode events, runs of one line shown once.
seen = []
for e, line in events:
    rel = line - work.__code__.co_firstlineno
    if e == 'opcode' and (not seen or seen[-1] != rel):
        seen.append(rel)
print(seen)
# After the line that turned it off: no more opcode events.
off_at = events.index(('line', target_off))
print(all(e != 'opcode' for e, _ in events[off_at:]))
print([e for e in kinds if e != 'opcode'])

# Without f_trace_opcodes: no opcode events.
events.clear()


def tracer2(frame, event, arg):
    if frame.f_code.co_name == 'work':
        return local
    return None


sys.settrace(tracer2)
work(2)
sys.settrace(None)
print('opcode' in [e for e, _ in events], len(events) > 0)

# f_trace_lines=False with opcodes on: opcode events only.
events.clear()


def tracer3(frame, event, arg):
    if frame.f_code.co_name == 'work':
        frame.f_trace_lines = False
        frame.f_trace_opcodes = True
        return local
    return None


sys.settrace(tracer3)
work(1)
sys.settrace(None)
print(sorted(set(e for e, _ in events)))

f = sys._getframe()
print(type(type(f).__dict__['f_trace_opcodes']).__name__, f.f_trace_opcodes, f.f_trace_lines)
for v in (1, None, True):
    for n in ('f_trace_lines', 'f_trace_opcodes'):
        try:
            setattr(f, n, v)
            print('set', n, getattr(f, n))
        except TypeError as e:
            print(type(e).__name__, e)
for n in ('f_trace_lines', 'f_trace_opcodes'):
    try:
        delattr(f, n)
    except TypeError as e:
        print(type(e).__name__, e)
f.f_trace_opcodes = False
