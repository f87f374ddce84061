# CPython's contextlib on tmpy.
import contextlib
import sys
from contextlib import (contextmanager, suppress, ExitStack, closing, redirect_stdout, redirect_stderr,
                        asynccontextmanager, nullcontext, AsyncExitStack, ContextDecorator, chdir)


@contextmanager
def tag(name, log):
    log.append("<" + name)
    try:
        yield name.upper()
    except KeyError as e:
        log.append("caught " + repr(e))
    finally:
        log.append(name + ">")


log = []
with tag("a", log) as v:
    log.append(v)
with tag("b", log):
    raise KeyError("k")
try:
    with tag("c", log):
        raise ValueError("v")
except ValueError as e:
    log.append("outer " + str(e))
print(log)


@tag("deco", log)
def decorated():
    return "called"


log.clear()
print(decorated(), log)

with suppress(ZeroDivisionError, KeyError):
    1 / 0
print("suppressed")
try:
    with suppress(KeyError):
        [][1]
except IndexError:
    print("not suppressed")


class Resource:
    def __init__(self, name, log):
        self.name, self.log = name, log

    def close(self):
        self.log.append("close " + self.name)

    def __enter__(self):
        self.log.append("enter " + self.name)
        return self

    def __exit__(self, *exc):
        self.log.append("exit " + self.name)
        return False


log = []
with closing(Resource("r", log)) as r:
    log.append("using " + r.name)
print(log)

log = []
with ExitStack() as stack:
    for n in "xyz":
        stack.enter_context(Resource(n, log))
    stack.callback(log.append, "callback")
    stack.push(lambda *exc: log.append("push " + str(exc[0])))
print(log)

log = []
with ExitStack() as stack:
    stack.enter_context(Resource("p", log))
    later = stack.pop_all()
log.append("after with")
later.close()
print(log)

try:
    with ExitStack() as stack:
        stack.callback(lambda: 1 / 0)
        raise KeyError("first")
except ZeroDivisionError as e:
    print("ZeroDivisionError context", repr(e.__context__))

class Buffer:
    def __init__(self):
        self.parts = []

    def write(self, s):
        self.parts.append(s)

    def getvalue(self):
        return "".join(self.parts)


buf = Buffer()
with redirect_stdout(buf):
    print("into the buffer")
    print(42)
print(repr(buf.getvalue()))
err = Buffer()
with redirect_stderr(err):
    sys.stderr.write("err text\n")
print(repr(err.getvalue()))

with nullcontext(5) as n:
    print("null", n)


class mycontext(ContextDecorator):
    def __enter__(self):
        print("enter")
        return self

    def __exit__(self, *exc):
        print("exit", exc[0])
        return False


@mycontext()
def f(x):
    print("f", x)


f(1)


@asynccontextmanager
async def agen(log):
    log.append("aenter")
    yield "value"
    log.append("aexit")


class AsyncRes:
    async def __aenter__(self):
        log.append("AsyncRes enter")
        return self

    async def __aexit__(self, *exc):
        log.append("AsyncRes exit")


async def main(log):
    async with agen(log) as v:
        log.append(v)
    async with AsyncExitStack() as stack:
        await stack.enter_async_context(AsyncRes())
        stack.push_async_callback(afn, log)
        stack.callback(log.append, "sync cb")
    return "done"


async def afn(log):
    log.append("async cb")


def run(coro):
    try:
        coro.send(None)
    except StopIteration as e:
        return e.value
    raise RuntimeError("coroutine suspended")


log = []
print(run(main(log)), log)
print(contextlib.AbstractContextManager.__subclasshook__(Resource), isinstance(Resource("q", []), contextlib.AbstractContextManager))
