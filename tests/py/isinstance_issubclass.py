class A: pass
class B(A): pass
class C: pass
b = B()
print(isinstance(b, A), isinstance(b, (C, A)), isinstance(b, C), isinstance(b, ((C,), (B,))))
print(issubclass(B, A), issubclass(B, (C, A)), issubclass(A, B), issubclass(bool, (str, int)), issubclass(B, B))
print(isinstance(1, int), isinstance(True, int), isinstance(1.0, int), isinstance("s", str), isinstance([], (list, tuple)))
print(isinstance(None, type(None)), isinstance(int, type), isinstance(A, type), isinstance(len, object))
try:
    isinstance(1, 1)
except TypeError as e:
    print(e)
