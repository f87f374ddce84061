# A bounded buffer on threading.Condition: three producers, three consumers,
# capacity 5; nothing lost, nothing twice, the buffer never overflows.
import threading

from support.threads import start_join

CAP = 5
PER = 1500
buf = []
cond = threading.Condition()
taken = []
overflow = [False]


def producer(k):
    for i in range(PER):
        with cond:
            while len(buf) >= CAP:
                cond.wait()
            buf.append(k * PER + i)
            if len(buf) > CAP:
                overflow[0] = True
            cond.notify_all()


def consumer():
    while True:
        with cond:
            while not buf:
                cond.wait()
            x = buf.pop(0)
            cond.notify_all()
        if x < 0:
            return
        taken.append(x)


producers = [threading.Thread(target=producer, args=(k,)) for k in range(3)]
consumers = [threading.Thread(target=consumer) for _ in range(3)]
for c in consumers:
    c.daemon = True
    c.start()
start_join(producers)
for _ in consumers:
    with cond:
        while len(buf) >= CAP:
            cond.wait()
        buf.append(-1)
        cond.notify_all()
for c in consumers:
    c.join(30)
print("taken", len(taken), "expected", 3 * PER)
print("exact", sorted(taken) == list(range(3 * PER)))
print("overflow", overflow[0])
