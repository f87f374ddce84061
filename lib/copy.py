"""copy: shallow and deep copies (pure Python)."""


class Error(Exception):
    pass


error = Error

def copy(x):
    cls = type(x)
    if cls in (type(None), int, float, complex, bool, str, bytes, tuple, frozenset, type, range,
               type(len), type(lambda: 0)):
        return x
    if cls is list:
        return x[:]
    if cls is dict:
        return x.copy()
    if cls is set:
        return x.copy()
    if cls is bytearray:
        return bytearray(x)
    copier = getattr(cls, '__copy__', None)
    if copier is not None:
        return copier(x)
    return _reconstruct(x, False, None)


def deepcopy(x, memo=None):
    if memo is None:
        memo = {}
    d = id(x)
    y = memo.get(d, memo)
    if y is not memo:
        return y
    cls = type(x)
    if cls in (type(None), int, float, complex, bool, str, bytes, type, range, type(len),
               type(lambda: 0), type(Ellipsis), type(NotImplemented)):
        y = x
    elif cls is list:
        y = []
        memo[d] = y
        for a in x:
            y.append(deepcopy(a, memo))
    elif cls is tuple:
        items = [deepcopy(a, memo) for a in x]
        # A tuple that contained itself through a mutable object is in memo now.
        if d in memo:
            return memo[d]
        y = x if all(a is b for a, b in zip(items, x)) else tuple(items)
    elif cls is dict:
        y = {}
        memo[d] = y
        for key, value in x.items():
            y[deepcopy(key, memo)] = deepcopy(value, memo)
    elif cls is set:
        y = {deepcopy(a, memo) for a in x}
    elif cls is frozenset:
        y = frozenset(deepcopy(a, memo) for a in x)
    elif cls is bytearray:
        y = bytearray(x)
    else:
        copier = getattr(x, '__deepcopy__', None)
        if copier is not None:
            y = copier(memo)
        else:
            y = _reconstruct(x, True, memo)
    if y is not x:
        memo[d] = y
        _keep_alive(x, memo)
    return y


def _keep_alive(x, memo):
    try:
        memo[id(memo)].append(x)
    except KeyError:
        memo[id(memo)] = [x]


def _reconstruct(x, deep, memo):
    cls = type(x)
    base_new = None
    for base in cls.__mro__[1:]:
        if base in (list, dict, set, tuple, int, str, float, complex, bytes, frozenset):
            base_new = base
            break
    if base_new is None:
        y = object.__new__(cls)
    elif base_new in (list, dict, set):
        y = cls.__new__(cls)
    elif base_new is complex:
        y = cls.__new__(cls, *x.__getnewargs__())   # what __reduce_ex__(2) gives CPython's copy
    else:
        value = base_new(x)
        if deep and base_new in (tuple, frozenset):
            value = deepcopy(value, memo)
        y = base_new.__new__(cls, value)
    if deep and memo is not None:
        memo[id(x)] = y
    if base_new is list:
        y.extend([deepcopy(a, memo) for a in x] if deep else x)
    elif base_new is dict:
        for k, v in x.items():
            y[deepcopy(k, memo) if deep else k] = deepcopy(v, memo) if deep else v
    elif base_new is set:
        y.update([deepcopy(a, memo) for a in x] if deep else x)
    state = getattr(x, '__dict__', None)
    if state:
        if hasattr(x, '__setstate__'):
            x_state = deepcopy(state, memo) if deep else state
            y.__setstate__(x_state)
        else:
            for k, v in state.items():
                setattr(y, k, deepcopy(v, memo) if deep else v)
    slots = []
    for klass in cls.__mro__:
        s = klass.__dict__.get('__slots__', ())
        if isinstance(s, str):
            s = (s,)
        slots.extend(s)
    for name in slots:
        if name in ('__dict__', '__weakref__'):
            continue
        if hasattr(x, name):
            v = getattr(x, name)
            setattr(y, name, deepcopy(v, memo) if deep else v)
    return y
