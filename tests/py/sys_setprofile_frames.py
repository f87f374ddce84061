# sys.setprofile (call/return of Python frames, c_call/c_return/c_exception
# of built-in functions), frame objects (f_back chains, f_locals, f_lineno,
# f_globals, f_code, sys._getframe identity), local trace functions that
# change, stop (None) or turn line events off, a tracer that raises, and
# sys.settrace set inside a running function.
import sys

log = []


def profiler(frame, event, arg):
    if frame.f_code.co_filename != __file__:
        return
    name = getattr(arg, '__name__', None) if event.startswith('c_') else None
    log.append((event, frame.f_code.co_name, name))


def work(xs):
    total = len(xs)
    total += sum(xs)
    try:
        int('x')
    except ValueError:
        total += 1
    try:
        divmod(1, 0)
    except ZeroDivisionError:
        total += 1
    xs.append(4)
    return helper(total)


def helper(n):
    return abs(-n)


sys.setprofile(profiler)
work([1, 2, 3])
sys.setprofile(None)
for e in log:
    print(*e)
print(sys.getprofile())
log.clear()

# frames
def outer():
    a = 1
    return middle(a + 1)


def middle(b):
    c = b * 2
    return inner(c)


def inner(d):
    f = sys._getframe()
    chain = []
    g = f
    while g is not None and g.f_code.co_filename == __file__:
        chain.append((g.f_code.co_name, g.f_lineno, sorted(k for k in g.f_locals if k not in ('f', 'g', 'chain') and not k.startswith('__'))))
        g = g.f_back
    print(chain)
    print(f is sys._getframe(), f.f_back is sys._getframe(1), f.f_globals is globals())
    return d


outer()


def tracer_factory():
    def local_a(frame, event, arg):
        log.append(('A', event, frame.f_lineno))
        if frame.f_lineno == 94:
            return local_b
        return local_a

    def local_b(frame, event, arg):
        log.append(('B', event, frame.f_lineno))
        return local_b

    def global_tracer(frame, event, arg):
        if frame.f_code.co_name == 'switching':
            return local_a
        if frame.f_code.co_name == 'nolines':
            frame.f_trace_lines = False
            return local_b
        return None
    return global_tracer


def switching():
    x = 1
    y = 2
    z = 3
    return x + y + z


def nolines():
    a = 1
    b = 2
    return a + b


def untraced():
    return 5


sys.settrace(tracer_factory())
switching()
nolines()
untraced()
sys.settrace(None)
for e in log:
    print(*e)
log.clear()


def bad_tracer(frame, event, arg):
    if event == 'line':
        raise RuntimeError('tracer failed')
    return bad_tracer


def victim():
    x = 1
    return x


sys.settrace(bad_tracer)
try:
    victim()
except RuntimeError as e:
    print('RuntimeError', e, sys.gettrace())


def late():
    seen = []

    def t(frame, event, arg):
        seen.append((event, frame.f_code.co_name))
        return t

    def callee():
        return 1
    sys.settrace(t)
    callee()
    x = 2
    sys.settrace(None)
    return seen


print(late())


def f_trace_manual():
    seen = []

    def local(frame, event, arg):
        seen.append((event, frame.f_lineno))
        return local

    def glob(frame, event, arg):
        return None
    sys.settrace(glob)
    sys._getframe().f_trace = local
    a = 1
    b = 2
    sys.settrace(None)
    return seen


print(f_trace_manual())


# frame objects made for outer frames (f_back) inside transactions that
# abort (the STM variants inject aborts): the frames must not keep them
def deep(n):
    if n:
        return deep(n - 1)
    f = sys._getframe()
    names = []
    while f is not None:
        names.append(f.f_code.co_name)
        f = f.f_back
    return names


def many_walks():
    total = 0
    for i in range(300):
        total += len(deep(i % 4))
    return total


print(many_walks())


# gi_frame of a generator running on this thread is its live frame object
def running_gen():
    f = sys._getframe()
    yield running.gi_frame is f
    yield running.gi_frame is f, running.gi_frame.f_lineno


running = running_gen()
print(next(running), next(running))
