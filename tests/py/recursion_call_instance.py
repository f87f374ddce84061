# A class whose __call__ is one of its own instances calls itself forever
# in C: RecursionError, as CPython, not a C stack overflow.
class A:
    pass


A.__call__ = A()
for attempt in range(3):
    try:
        A()()
    except RecursionError as e:
        print('RecursionError', e)


class B:
    pass


class C:
    pass


B.__call__ = C()
C.__call__ = B()
try:
    B()(1, x=2)
except RecursionError as e:
    print('RecursionError', e)


# the interpreter is fine afterwards
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)


print(depth(500))


class Ok:
    def __call__(self, x):
        return x * 2


print(Ok()(21))
