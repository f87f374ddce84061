# A bound built-in method stored as a class's dunder is no descriptor: the
# special method call does not pass the instance (ElementTree.iterparse sets
# __next__ = generator.__next__).
def gen():
    yield 1
    yield 2

class It:
    __next__ = gen().__next__
    __len__ = [1, 2, 3].__len__
    __repr__ = 'fixed'.__str__

it = It()
print(next(it), next(it), len(it), repr(it))
try:
    next(it)
except StopIteration:
    print('stopped')

class Desc:
    __len__ = list.__len__   # an unbound method descriptor still binds

class L(list):
    __len__ = list.__len__
print(len(L([1, 2])))
