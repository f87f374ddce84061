# A coroutine collected without ever being started gives CPython's
# "RuntimeWarning: coroutine '...' was never awaited" on stderr (the place
# is the running line; shown once per message and line, the default
# action); one started and left unfinished is closed instead (its finally
# blocks run, no warning). Each coroutine is dropped inside a reference
# cycle, so that CPython too finds it dead in gc.collect(), on that line:
# tests/test_finalizer_warnings.py compares the whole of stderr.
import gc


async def job():
    return 1


class C:
    async def method(self):
        return 2


class Suspend:
    def __await__(self):
        yield "suspended"


async def with_finally():
    try:
        await Suspend()
    finally:
        print("with_finally: finally ran")


def drop(coro):
    box = [coro]
    box.append(box)


drop(job())
gc.collect()
print("one warning")

drop(C().method())
drop(job())
gc.collect()
print("two messages, one line: both shown")

for i in range(3):
    drop(job())
    gc.collect()
print("same message, same line: shown once")

c = with_finally()
print(c.send(None))
drop(c)
del c
gc.collect()
print("started: closed, not warned about")

c = job()
c.close()
drop(c)
del c
gc.collect()
print("closed before collection: nothing")

c = job()
try:
    c.send(None)
except StopIteration as e:
    print("finished with", e.value)
drop(c)
del c
gc.collect()
print("finished: nothing")


def in_function():
    drop(job())
    gc.collect()


in_function()
print("end")
