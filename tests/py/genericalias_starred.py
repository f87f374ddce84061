# Iterating a types.GenericAlias gives its starred form (*tuple[int]), which
# typing's TypeVarTuple substitution relies on; without __iter__ iteration
# fell back to alias[0], alias[1], ... which for tuple[*Ts] never ends.
import copy
import pickle
from typing import Generic, Tuple, TypeVar, TypeVarTuple

T = TypeVar('T')
Ts = TypeVarTuple('Ts')

a = tuple[int, str]
s = next(iter(a))
print(list(iter(a)), repr(s), s.__unpacked__, a.__unpacked__)
print(s.__typing_unpacked_tuple_args__, a.__typing_unpacked_tuple_args__)
print(next(iter(list[int])).__typing_unpacked_tuple_args__)
print(s == a, s != a, s == next(iter(a)), s.__origin__, s.__args__)
print(len(list(iter(tuple[*Ts]))))

class C(Generic[*Ts]):
    pass

for expr in ['C[*tuple[int]]', 'tuple[*Ts][*tuple[int]]', 'tuple[*Ts][*Tuple[int]]',
             'Tuple[*Ts][*tuple[int]]', 'tuple[*Ts][int, *tuple[str, ...]]',
             'tuple[T, *Ts][*tuple[int, ...]]', 'C[*Ts][*tuple[int, ...], *tuple[str, ...]]',
             'list[T][*tuple[int]]', '[*tuple[T]][0][int]']:
    try:
        print(expr, '->', eval(expr))
    except TypeError as e:
        print(expr, 'TypeError', e)

u = pickle.loads(pickle.dumps(s))
print(repr(u), u == s, copy.copy(s) == s)
