# PEP 560: __mro_entries__ on class bases (__orig_bases__ kept), the
# GenericAlias type created and subclassed from Python, list[int] and
# queue.Queue[int] as bases and callables, and type()'s refusal of MRO
# entries.
import queue
import types


def t(label, f):
    try:
        print(label, repr(f()))
    except Exception as e:
        print(label, type(e).__name__, e)


class Base:
    def hello(self):
        return 'hello'


class Mixin:
    pass


class Entry:
    def __init__(self, *bases):
        self.bases = bases

    def __mro_entries__(self, bases):
        print('  __mro_entries__ of', len(bases), 'bases')
        return self.bases


class F(Entry(Base)):
    pass


t('F', lambda: (F.__bases__, F().hello(), type(F.__orig_bases__[0]).__name__))
t('F __orig_bases__ in dict', lambda: '__orig_bases__' in F.__dict__)


try:
    class G(Mixin, Entry(Base, Mixin)):
        pass
except TypeError as e:
    print('duplicate from entries', e)


class G2(Mixin, Entry(Base)):
    pass


t('G2', lambda: (G2.__bases__, G2.__mro__))


class H(Entry(), Base):
    pass


t('empty entries', lambda: H.__bases__)


class BadEntry:
    def __mro_entries__(self, bases):
        return [Base]


try:
    class K(BadEntry()):
        pass
except TypeError as e:
    print('not tuple', e)


class NoEntry:
    pass


try:
    class K2(NoEntry()):
        pass
except TypeError as e:
    print('plain object base', type(e).__name__)

t('type() refuses', lambda: type('T', (Entry(Base),), {}))
t('type() plain', lambda: type('T', (Base,), {}).__bases__)


class Plain(Base):
    pass


t('no __orig_bases__', lambda: '__orig_bases__' in Plain.__dict__)


class MyList(list[int]):
    def total(self):
        return sum(self)


t('list[int] base', lambda: (MyList.__bases__, MyList.__orig_bases__, MyList([1, 2]).total()))


class MyDict(dict[str, int], Mixin):
    pass


t('dict[str, int] base', lambda: (MyDict.__bases__, MyDict(a=1)))

GA = types.GenericAlias
t('GenericAlias', lambda: (GA, GA(list, (int,)), GA(list, int), GA(dict, (str, int)) == dict[str, int]))
t('GenericAlias attrs', lambda: (GA(list, int).__origin__, GA(list, int).__args__, GA(list, int).__parameters__))
t('GenericAlias call', lambda: GA(list, int)('ab'))
t('GenericAlias hash', lambda: hash(GA(list, int)) == hash(list[int]))
t('GenericAlias ne', lambda: (list[int] != list[str], list[int] == list[int], list[int] == list))
t('GenericAlias repr', lambda: (repr(GA(tuple, ())), repr(GA(Base, (int, ...))), repr(list[list[int]])))
t('GenericAlias forward', lambda: (list[int].append, list[int].__name__))
t('GenericAlias mro_entries', lambda: list[int].__mro_entries__((list[int],)))
t('GenericAlias reduce', lambda: list[int].__reduce__())
t('GenericAlias no args', lambda: GA(list))
t('GenericAlias kw', lambda: GA(list, int, x=1))
t('GenericAlias getitem', lambda: list[int][str])
t('GenericAlias isinstance', lambda: (isinstance(list[int], GA), type(list[int]) is GA))
t('GenericAlias union', lambda: list[int] | None)


class Param:
    def __typing_subst__(self, arg):
        return arg

    def __repr__(self):
        return '~T'


T = Param()
t('parameters', lambda: (list[T].__parameters__, dict[str, list[T]].__parameters__, dict[T, T].__parameters__))


class MyAlias(GA):
    __slots__ = ()

    def __repr__(self):
        return 'MyAlias:' + super().__repr__()


ma = MyAlias(list, (int,))
t('subclass', lambda: (ma, type(ma).__name__, ma.__origin__, ma == list[int], isinstance(ma, GA)))
t('subclass call', lambda: ma([1]))


class Custom:
    def __class_getitem__(cls, item):
        return GA(cls, item)


class UsesCustom(Custom[int]):
    pass


t('class_getitem alias base', lambda: (UsesCustom.__bases__, UsesCustom.__orig_bases__))
t('Queue[int]', lambda: (queue.Queue[int], queue.SimpleQueue[str], queue.Queue[int] == queue.Queue[int]))


class Q(queue.Queue[int]):
    def put_twice(self, x):
        self.put(x)
        self.put(x)


q = Q()
q.put_twice(3)
t('class Q(queue.Queue[int])', lambda: (Q.__bases__, Q.__orig_bases__, q.qsize(), q.get()))
t('orig_class', lambda: queue.Queue[int]().__orig_class__)
t('orig_class builtin', lambda: hasattr(list[int](), '__orig_class__'))
