"""Standard-library modules that import ast at module level: dataclasses
(fields, defaults, order, frozen), inspect.signature, pprint.pformat of
nested data, a unittest TestCase run through TextTestRunner into a
StringIO (passing, failing, skipped, expected-failure and sub tests), collections.UserDict/
UserList/UserString."""
import inspect, dataclasses, pprint, unittest, io
from dataclasses import dataclass, field
@dataclass(order=True, frozen=True)
class P:
    x: int
    y: int = 0
    tags: list = field(default_factory=list, compare=False)
p = P(1, 2)
print(p, p < P(2), dataclasses.asdict(p), hash(p) == hash(P(1, 2)))
try:
    p.x = 3
except dataclasses.FrozenInstanceError as e:
    print("frozen", e)
def f(a, b: int = 2, *args, c, d=4, **kw) -> str: pass
print(inspect.signature(f), inspect.signature(P))
print(pprint.pformat({'a': list(range(30)), 'b': {'c': ('x' * 30, 'y' * 30, {'z': [1, 2, {3: 4}]})}}))
class T(unittest.TestCase):
    def test_ok(self): self.assertEqual(1 + 1, 2)
    def test_fail(self): self.assertEqual([1, 2], [1, 3])
    @unittest.expectedFailure
    def test_xfail(self): self.assertTrue(0)
    def test_sub(self):
        for i in range(3):
            with self.subTest(i=i): self.assertIn(i, [0, 1, 2])
    @unittest.skip('because')
    def test_skip(self): pass
    def test_raises(self):
        with self.assertRaises(ZeroDivisionError): 1 / 0
s = io.StringIO()
r = unittest.TextTestRunner(stream=s, verbosity=2).run(unittest.defaultTestLoader.loadTestsFromTestCase(T))
print(r.testsRun, len(r.failures), len(r.errors))
print("\n".join(l for l in s.getvalue().splitlines() if not l.startswith(("Ran ", "  File"))))
from collections import UserDict, UserList, UserString
d = UserDict(a=1); d['b'] = 2; print(d, len(d), 'a' in d, sorted(d.items()), d | {'c': 3})
l = UserList([3, 1, 2]); l.sort(); l.append(4); print(l, l[1:], l + [5], 2 in l, l == [1, 2, 3, 4])
u = UserString('abc'); print(u.upper(), u[1], u + 'd', 'b' in u, len(u), u.center(7, '*'))
print(pprint.pformat(UserDict(x=list(range(3)))))
print(inspect.getmodulename('/a/b/mod.py'), inspect.isfunction(f), [p.kind.name for p in inspect.signature(f).parameters.values()])
