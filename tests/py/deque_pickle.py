# collections.deque pickles as CPython's (type, args with maxlen, __dict__ or None, an iterator of
# its items): Jinja2's LRUCache and Environment keep deques
import copy
import pickle
from collections import deque

d = deque([1, "two", (3,)])
b = deque(range(5), maxlen=3)
for proto in range(pickle.HIGHEST_PROTOCOL + 1):
    d2, b2 = pickle.loads(pickle.dumps((d, b), proto))
    print(proto, d2, b2, b2.maxlen)
print(d.__reduce__()[:3], list(d.__reduce__()[3]))
print(b.__reduce__()[:3])


class Tagged(deque):
    pass


t = Tagged([1, 2], 4)
t.tag = "x"
t2 = pickle.loads(pickle.dumps(t))
print(type(t2).__name__, t2, t2.maxlen, t2.tag, copy.deepcopy(t))
r = deque()
r.append(r)
r2 = pickle.loads(pickle.dumps(r))
print(r2[0] is r2)
