# A thread never starves: busy-wait loops (no blocking call) only finish
# if the GIL is handed over at back-edges; a thread hammering a lock or an
# RLock does not keep a blocked waiter out forever.
import threading

# main spins until a computing worker sets a flag
flag = [False]


def compute_then_set():
    s = 0
    for i in range(20000):
        s += i
    flag[0] = True


t = threading.Thread(target=compute_then_set)
t.start()
spins = 0
while not flag[0]:
    spins += 1
t.join()
print("main spun until the worker set the flag")

# a worker spins until main sets a flag
flag2 = [False]
seen = []


def spin():
    while not flag2[0]:
        pass
    seen.append("worker saw flag")


t = threading.Thread(target=spin)
t.start()
s = 0
for i in range(20000):
    s += i
flag2[0] = True
t.join()
print(seen, s)

# several spinners in a ring: each waits for its predecessor's turn
N = 3
turn = [0]
order = []


def ring(i):
    for r in range(3):
        while turn[0] != r * N + i:
            pass
        order.append(r * N + i)
        turn[0] += 1


ts = [threading.Thread(target=ring, args=(i,)) for i in range(N)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("ring", order == list(range(3 * N)))

# lock hogs: a thread re-acquires the lock in a tight loop while main
# also needs it
for label, factory in (("Lock", threading.Lock), ("RLock", threading.RLock)):
    lock = factory()
    stop = [False]
    hog_count = [0]

    def hog():
        while not stop[0]:
            with lock:
                hog_count[0] += 1

    t = threading.Thread(target=hog)
    t.start()
    while hog_count[0] == 0:  # the hog is in its loop
        pass
    got = 0
    for _ in range(30):
        with lock:
            got += 1
    stop[0] = True
    t.join()
    print(label, "main acquired", got, "hog ran", hog_count[0] > 0)

# two CPU-bound threads both make progress (each waits for the other to
# reach a milestone)
progress = [0, 0]


def racer(me):
    other = 1 - me
    for step in range(1, 6):
        for _ in range(2000):
            pass
        progress[me] = step
        while progress[other] < step:
            pass


ts = [threading.Thread(target=racer, args=(k,)) for k in (0, 1)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("racers", progress)
