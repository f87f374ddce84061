"""collections.abc: the abstract base classes of containers, which live in
CPython's _collections_abc (also imported by the interpreter-level code
that needs them without importing collections)."""
from _collections_abc import *
from _collections_abc import __all__, _CallableGenericAlias

from collections import deque as _deque

MutableSequence.register(_deque)
