# Object-model details of CPython 3.11: A.__dict__ under a metaclass derived
# from type, type(name, bases, ns, **kw) handing over to a derived
# metaclass's __new__, '__doc__' in __slots__, cls.__bases__ assignment and
# its checks, classmethod wrapping a property, and a class body's `global`
# declaration, which the methods inside it do not see.
def t(label, f):
    try:
        print(label, repr(f()))
    except Exception as e:
        print(label, type(e).__name__, e)


class Meta(type):
    def hello(cls):
        return 'hello from ' + cls.__name__


class A(metaclass=Meta):
    x = 1

    def method(self):
        return 2


t('A.__dict__', lambda: sorted(k for k in A.__dict__ if not k.startswith('__')))
t('A.__dict__[x]', lambda: A.__dict__['x'])
t('A.hello', lambda: A.hello())
t('Meta has no __dict__ entry', lambda: '__dict__' in Meta.__dict__)
t('instance dict', lambda: (lambda a: (setattr(a, 'y', 3), a.__dict__)[1])(A()))


class SubMeta(Meta):
    pass


class B(A, metaclass=SubMeta):
    pass


t('B.__dict__', lambda: sorted(k for k in B.__dict__ if not k.startswith('__')))
t('vars(B)', lambda: 'x' in vars(A) and 'x' not in vars(B))


class M3(type):
    def __new__(m, name, bases, ns, **kw):
        print('  M3.__new__', name, sorted(kw))
        return super().__new__(m, name, bases, ns)

    def __init__(cls, name, bases, ns, **kw):
        print('  M3.__init__', name, sorted(kw))


class A3(metaclass=M3):
    pass


C3 = type('C3', (A3,), {'z': 1})
t('type() derived meta', lambda: (type(C3).__name__, C3.z, C3.__mro__[1].__name__))
C4 = type('C4', (A3,), {}, flag=2)
t('type() derived meta kw', lambda: type(C4).__name__)
t('type() kw plain', lambda: type('C5', (), {}, flag=1))
t('type() meta conflict', lambda: type('C6', (A3, type('Other', (type,), {})('O', (), {})), {}))
t('type.__new__ direct', lambda: type(type.__new__(M3, 'C7', (A3,), {})).__name__)


class S:
    __slots__ = ('a', '__doc__')


s = S()
s.__doc__ = 'instance doc'
s.a = 1
t('slots __doc__', lambda: (type(S.__dict__['__doc__']).__name__, s.__doc__, s.a))
t('slots __doc__ with docstring', lambda: type('SD', (), {'__doc__': 'doc', '__slots__': ('__doc__',)}))
t('slots conflict', lambda: type('SC', (), {'a': 1, '__slots__': ('a',)}))


class SD2:
    """a docstring"""
    __slots__ = ('b',)


t('docstring kept', lambda: SD2.__doc__)


class P1:
    def who(self):
        return 'P1'

    def __repr__(self):
        return '<P1 based>'


class P2:
    def who(self):
        return 'P2'

    def __len__(self):
        return 7


class X(P1):
    pass


class Y(X):
    pass


y = Y()
print(y.who(), repr(y))
X.__bases__ = (P2,)
t('after', lambda: (X.__bases__, [c.__name__ for c in Y.__mro__], y.who(), len(y), repr(y)[:11]))
t('P1 subclasses', lambda: P1.__subclasses__())
t('P2 subclasses', lambda: P2.__subclasses__())
X.__bases__ = (P1, P2)
t('two bases', lambda: ([c.__name__ for c in Y.__mro__], y.who(), len(y)))
t('not tuple', lambda: setattr(X, '__bases__', [P1]))
t('empty', lambda: setattr(X, '__bases__', ()))
t('not class', lambda: setattr(X, '__bases__', (1,)))
t('cycle', lambda: setattr(X, '__bases__', (Y,)))
t('self', lambda: setattr(X, '__bases__', (X,)))
t('delete', lambda: delattr(X, '__bases__'))
t('builtin', lambda: setattr(int, '__bases__', (object,)))
t('layout', lambda: setattr(X, '__bases__', (list,)))
t('slots layout', lambda: setattr(X, '__bases__', (S,)))
t('duplicate', lambda: setattr(X, '__bases__', (P1, P1)))


class Q1(P1, P2):
    pass


t('mro conflict', lambda: setattr(X, '__bases__', (P2, Q1)))
t('unchanged after failure', lambda: ([c.__name__ for c in Y.__mro__], X.__bases__))


class L1(list):
    pass


class L2(list):
    def size(self):
        return len(self)


class LX(L1):
    pass


LX.__bases__ = (L2,)
t('list based', lambda: LX([1, 2]).size())


class CP:
    _n = 'CP'

    @classmethod
    @property
    def name(cls):
        return 'name of ' + cls._n


class CQ(CP):
    _n = 'CQ'


t('classmethod property', lambda: (CP.name, CP().name, CQ.name, CQ().name))
t('classmethod of classmethod', lambda: type(classmethod(classmethod(len)).__get__(None, CP)).__name__)


class Desc:
    def __get__(self, obj, typ=None):
        return ('desc', obj.__name__ if isinstance(obj, type) else obj, typ.__name__)


class CD:
    d = classmethod(Desc())


t('classmethod of descriptor', lambda: (CD.d, CD().d))

x = 'global'


def f():
    x = 'local'

    class C:
        global x
        y = x

        def m(self):
            return x
    return C.y, C().m()


def g():
    x = 'local g'

    class C:
        global x
        x = 'assigned in class'

        def m(self):
            return x

        def n(self):
            def inner():
                return x
            return inner()
    return C().m(), C().n(), x


t('global in class', f)
t('global assigned in class', g)
t('module x', lambda: x)


class Outer:
    global z
    z = 5

    def m(self):
        return z


t('global at module level', lambda: (Outer().m(), z))
