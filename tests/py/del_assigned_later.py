# __del__ assigned to a class after it was made (C.__del__ = f, also on a
# base class) is honoured for instances created afterwards.
import gc


class C:
    pass


class Base:
    pass


class Derived(Base):
    pass


class Grand(Derived):
    pass


def announce(self):
    print("__del__ of", type(self).__name__, getattr(self, "tag", None))


C.__del__ = announce
c = C()
c.tag = "c"
del c
gc.collect()
print("after C")

Base.__del__ = announce
for cls in (Base, Derived, Grand):
    o = cls()
    o.tag = cls.__name__.lower()
    del o
    gc.collect()
print("after the hierarchy")


# a class made after the base got __del__ inherits it
class Late(Base):
    pass


o = Late()
del o
gc.collect()


# replacing __del__: the one in the class when collected runs
def other(self):
    print("other __del__", type(self).__name__)


C.__del__ = other
c = C()
del c
gc.collect()

# deleting it again: nothing runs
del C.__del__
c = C()
del c
gc.collect()
print("deleted: nothing")


# resurrection from a __del__ assigned later still runs it once
saved = []


def resurrect(self):
    print("resurrect", self.tag)
    saved.append(self)


class R:
    pass


R.__del__ = resurrect
r = R()
r.tag = "r"
del r
gc.collect()
print(len(saved), saved[0].tag)
saved.clear()
gc.collect()
print("end")
