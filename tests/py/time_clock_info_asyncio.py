# time.get_clock_info (what asyncio's event loop reads at start) and asyncio.run over it:
# sleep, gather, a queue between tasks, a timeout.
import time
for n in ('time', 'monotonic', 'perf_counter', 'process_time', 'thread_time'):
    print(n, time.get_clock_info(n))
try:
    time.get_clock_info('nope')
except ValueError as e:
    print('ValueError', e)
import asyncio
async def f():
    await asyncio.sleep(0.01)
    return 42
print(asyncio.run(f()))


async def producer(q, n):
    for i in range(n):
        await q.put(i)
        await asyncio.sleep(0)
    await q.put(None)


async def consumer(q):
    total = 0
    while (item := await q.get()) is not None:
        total += item
    return total


async def main():
    q = asyncio.Queue(maxsize=3)
    _, total = await asyncio.gather(producer(q, 50), consumer(q))
    try:
        await asyncio.wait_for(asyncio.sleep(10), timeout=0.01)
    except asyncio.TimeoutError:
        print('timed out')
    return total

print(asyncio.run(main()))
