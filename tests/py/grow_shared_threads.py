# Threads that grow one shared list, dict and set at once, past the sizes
# where a resize copies thousands of items: under STM the grower takes the
# container's write lock before it copies (VM_WRITE_TO_GROW) and keeps it
# from older transactions, and a second grower waits. Every item must be
# there once, in each thread's order, whatever thread won each resize.
import threading

THREADS = 4
ROUNDS = 3
PER = 3000

shared_list = []
shared_dict = {}
shared_set = set()
start = threading.Barrier(THREADS)


def work(k):
    start.wait()
    for r in range(ROUNDS):
        base = (r * THREADS + k) * PER
        for i in range(base, base + PER):
            shared_list.append(i)
            shared_dict[i] = -i
            shared_set.add(i)
        # a batch that grows the list by thousands at once
        shared_list.extend(range(10_000_000 + base, 10_000_000 + base + PER))
        # discards leave dummies: later adds resize to clean them up
        for i in range(base, base + PER, 2):
            shared_set.discard(i)
            del shared_dict[i]


threads = [threading.Thread(target=work, args=(k,)) for k in range(THREADS)]
for t in threads:
    t.start()
for t in threads:
    t.join()

total = THREADS * ROUNDS * PER
print("list", len(shared_list), len(shared_list) == 2 * total, sum(shared_list))
# each thread's items keep their order in the list
for k in range(THREADS):
    mine = [x for x in shared_list if x < 10_000_000 and (x // PER) % THREADS == k]
    assert mine == sorted(mine), k
print("list order kept")
print("dict", len(shared_dict), all(shared_dict[i] == -i for i in shared_dict), sum(shared_dict))
print("set", len(shared_set), shared_set == set(shared_dict), sum(shared_set))
print("keys odd only", all(i % 2 == 1 for i in shared_set))
