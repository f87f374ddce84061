# One thread stores fresh objects into items of big tables (a list, a dict's
# entries: carded objects, 8 KiB and up) across minor collections. Under the
# STM build its transaction runs solo and writes in place; the item barrier
# then skips stores into cards the GC marked already in this transaction
# (runtime/stm.c tm_write_items_slowpath): a collection clears those marks,
# so the next store into the card must mark it again, or the young object it
# stored is not traced and is lost (TMPY_GC_DEBUG=move moves every survivor).
N = 3000
big = [None] * N
d = {i: None for i in range(N)}
for r in range(12):
    for i in range(0, N, 5):
        big[i] = (r, i, "x" * (i % 7))
        d[i] = [r, i]
        if i % 600 == 0:
            junk = [str(k) * 3 for k in range(1500)]   # fill the nursery: collections in the loop
ok_list = all(big[i] == (11, i, "x" * (i % 7)) for i in range(0, N, 5))
ok_dict = all(d[i] == [11, i] for i in range(0, N, 5))
none_left = sum(1 for i in range(N) if i % 5 and (big[i] is not None or d[i] is not None))
print(ok_list, ok_dict, none_left, len(big), len(d))
print(sum(big[i][1] for i in range(0, N, 5)), sum(v[0] for v in d.values() if v))
