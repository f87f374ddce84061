# Exceptions thrown into coroutines, close(), and errors crossing awaits.


class Step:
    """An awaitable that yields once; records throw/close reaching it."""
    def __init__(self, log):
        self.log = log

    def __await__(self):
        try:
            v = yield "step"
        except KeyError as e:
            self.log.append("step saw " + repr(e))
            return "handled in awaitable"
        finally:
            self.log.append("step finally")
        return v


class ThrowIt:
    """An awaitable whose iterator is a plain class with send/throw/close."""
    def __init__(self, log):
        self.log = log

    def __await__(self):
        return ThrowIter(self.log)


class ThrowIter:
    def __init__(self, log):
        self.log = log
        self.n = 0

    def __iter__(self):
        return self

    def __next__(self):
        return self.send(None)

    def send(self, v):
        self.n += 1
        if self.n > 2:
            raise StopIteration("iter done %r" % (v,))
        return "iter %d" % self.n

    def throw(self, *args):
        self.log.append("iter throw %s" % args[0].__name__ if isinstance(args[0], type) else
                        "iter throw %r" % (args[0],))
        raise StopIteration("recovered")

    def close(self):
        self.log.append("iter close")


async def body(log):
    try:
        r = await Step(log)
        log.append("first " + repr(r))
        r = await ThrowIt(log)
        log.append("second " + repr(r))
        r = await Step(log)
        log.append("third " + repr(r))
    except ValueError as e:
        log.append("body caught " + repr(e))
        r = await Step(log)
        log.append("after catch " + repr(r))
        return "returned after error"
    finally:
        log.append("body finally")
    return "normal"


def drive(actions):
    log = []
    c = body(log)
    out = []
    for act in actions:
        try:
            if act == "send":
                out.append(c.send(None))
            elif act == "close":
                out.append(c.close())
            else:
                out.append(c.throw(act))
        except StopIteration as e:
            out.append(("stop", e.value))
        except Exception as e:
            out.append(("raised", type(e).__name__, str(e)))
    return out, log


for actions in (["send"] * 6,
                ["send", KeyError("k"), "send", "send", "send"],
                ["send", ValueError("v"), "send", "send"],
                ["send", "send", ValueError("v2"), "send", "send"],
                ["send", "close", "send"],
                ["send", "send", "close"],
                [TypeError("early")],
                ["send", RuntimeError("rt")]):
    out, log = drive(actions)
    print(out)
    print("  ", log)


# close() a coroutine that keeps awaiting
class Forever:
    def __await__(self):
        while True:
            yield "again"


async def stubborn():
    try:
        await Forever()
    except GeneratorExit:
        await Forever()


c = stubborn()
c.send(None)
try:
    c.close()
except RuntimeError as e:
    print(e)


# an exception through several awaits keeps a traceback through every frame
async def level3():
    raise LookupError("deep")


async def level2():
    await level3()


async def level1():
    try:
        await level2()
    except LookupError as e:
        names = []
        tb = e.__traceback__
        while tb is not None:
            names.append((tb.tb_frame.f_code.co_name, tb.tb_lineno))
            tb = tb.tb_next
        print(names)
        raise


try:
    level1().send(None)
except LookupError as e:
    print("outside", e)


# sys.exc_info across a suspension inside an except block
import sys


async def in_handler():
    try:
        raise IndexError("kept")
    except IndexError:
        await Step([])
        return repr(sys.exc_info()[1])


c = in_handler()
c.send(None)
print(sys.exc_info())
try:
    c.send(None)
except StopIteration as e:
    print(e.value)

# throw() with a type and a value, and a traceback argument
async def catcher():
    try:
        await Step([])
    except ZeroDivisionError as e:
        return "caught " + repr(e)

c = catcher()
c.send(None)
try:
    c.throw(ZeroDivisionError, ZeroDivisionError("z"))
except StopIteration as e:
    print(e.value)
c = catcher()
c.send(None)
try:
    c.throw(5)
except TypeError as e:
    print(e)
c.close()

# close() of a running coroutine names the coroutine
async def closes_itself():
    me.close()
me = closes_itself()
try:
    me.send(None)
except ValueError as e:
    print(e)

# bad throw() arguments end an asend / athrow awaitable as CPython's do
async def agen_one():
    yield 1
for make in (lambda a: a.asend(None), lambda a: a.athrow(ValueError), lambda a: a.aclose()):
    for bad in ((1,), ()):
        a = agen_one()
        s = make(a)
        try:
            s.throw(*bad)
        except TypeError as e:
            print("TypeError", e)
        try:
            print("sent", s.send(None))
        except StopIteration as e:
            print("stop", e.value)
        except RuntimeError as e:
            print("RuntimeError", e)
        except ValueError as e:
            print("ValueError", e)
