# random.Random pickles as CPython's (class, (), getstate()): a copy goes on with the same numbers;
# a bound method of the module's instance too (cachetools' RRCache keeps random.choice)
import copy
import pickle
import random

r = random.Random(5)
r.random()
for proto in range(pickle.HIGHEST_PROTOCOL + 1):
    r2 = pickle.loads(pickle.dumps(r, proto))
    print(proto, type(r2).__name__, r2.random() == r.random(), r2.getstate() == r.getstate())
r3 = copy.deepcopy(r)
print(r3.randrange(1000) == r.randrange(1000))
red = r.__reduce__()
print(red[0] is random.Random, red[1], red[2] == r.getstate())
c = pickle.loads(pickle.dumps(random.choice))
print(c.__name__, type(c.__self__).__name__, c([7]))


class Counted(random.Random):
    calls = 0

    def getstate(self):
        Counted.calls += 1
        return super().getstate()


k = pickle.loads(pickle.dumps(Counted(3)))
print(type(k).__name__, Counted.calls, k.random() == Counted(3).random())
try:
    pickle.dumps(random.SystemRandom())
except NotImplementedError as e:
    print("NotImplementedError", e)
