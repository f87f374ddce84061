# Big objects made and dropped again and again (a socket's reads, asyncio's
# `data = data[n:]`): their pages are kept for the next big object instead of
# going back to the kernel. What a new object must read as zero (a bytearray,
# a list's empty slots, a dict's table) must still read as zero on pages a
# dead one filled with other bytes; and threads that reuse each other's
# pages must see only their own data.
import gc
import threading

SIZES = [70_000, 300_000, 1 << 20, 3 << 20, 12 << 20]


def churn(tag, rounds):
    bad = 0
    for r in range(rounds):
        for n in SIZES:
            junk = bytes([0xA5 ^ (r & 0xF)]) * n   # fills its pages
            del junk
            if r % 3 == 0:
                gc.collect()
            z = bytearray(n)
            if z.count(0) != n:
                bad += 1
            lst = [None] * (n // 8)
            if lst.count(None) != len(lst):
                bad += 1
            data = bytes(range(256)) * (n // 256)
            cut = data[n // 3:]                     # a big copy that dies at once
            if cut[:256] != bytes(range(256))[(n // 3) % 256:] + bytes(range(256))[:(n // 3) % 256]:
                bad += 1
            del data, cut, z, lst
    print(tag, "bad", bad)
    return bad


churn("main", 3)

results = []


def worker(k):
    mine = bytes([k]) * 200_000
    bad = churn_quiet(k)
    results.append((k, bad, mine.count(k) == len(mine)))


def churn_quiet(k):
    bad = 0
    for r in range(4):
        for n in SIZES[:4]:
            junk = bytes([k + 1]) * n
            del junk
            z = bytearray(n)
            if z.count(0) != n:
                bad += 1
            d = dict.fromkeys(range(n // 64))
            if list(d.values()).count(None) != len(d):
                bad += 1
            del z, d
    return bad


threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sorted(results))
