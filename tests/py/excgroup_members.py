# BaseExceptionGroup.message/.exceptions are read-only member descriptors, as
# in CPython (repr, doc, errors); function.__globals__/__closure__/__builtins__ too.
for cls in (BaseExceptionGroup, ExceptionGroup):
    for n in ('message', 'exceptions'):
        d = cls.__dict__.get(n)
        print(cls.__name__, n, type(d).__name__, repr(d) if d is not None else None)
d = BaseExceptionGroup.__dict__['message']
print(d.__name__, d.__objclass__, d.__doc__)
print(type(BaseExceptionGroup.__dict__['exceptions']).__doc__ is not None)
eg = ExceptionGroup("m", [ValueError(1)])
print(d.__get__(eg), d.__get__(None, ExceptionGroup) is d)
for n in ('message', 'exceptions'):
    try: setattr(eg, n, 1)
    except AttributeError as e: print(type(e).__name__, e)
    try: delattr(eg, n)
    except AttributeError as e: print(type(e).__name__, e)
try: d.__set__(eg, 2)
except AttributeError as e: print(type(e).__name__, e)
try: d.__get__(ValueError())
except TypeError as e: print(type(e).__name__, e)
try: d.__get__(1)
except TypeError as e: print(type(e).__name__, e)
print(ExceptionGroup.message is BaseExceptionGroup.__dict__['message'])
print(sorted(k for k in BaseExceptionGroup.__dict__))
print(hasattr(d, '__set__'), hasattr(d, '__delete__'))
class E(ExceptionGroup): pass
e = E("x", [TypeError()])
print(e.message, e.exceptions)
import types
print(isinstance(d, types.MemberDescriptorType))
def g():
    return e
for n in ('__globals__', '__closure__', '__builtins__'):
    d = types.FunctionType.__dict__[n]
    print(n, type(d).__name__, repr(d), d.__doc__)
    try:
        setattr(g, n, {})
    except AttributeError as exc:
        print(type(exc).__name__, exc)
print(types.MemberDescriptorType.__name__, types.GetSetDescriptorType.__name__)
class S:
    __slots__ = ('a',)
print(S.__dict__['a'].__doc__, type(S.__dict__['a']) is types.MemberDescriptorType)
