# dict.__getitem__ called on a dict subclass's instance asks its __missing__, as the subscript does
# (urllib.parse.quote calls _Quoter(safe).__getitem__ for each byte)
import urllib.parse


class Quoter(dict):
    def __missing__(self, key):
        value = "<%s>" % key
        self[key] = value
        return value


q = Quoter()
get = q.__getitem__
print(get(1), dict.__getitem__(q, 2), q[3], sorted(q))
try:
    dict.__getitem__({}, "k")
except KeyError as e:
    print("KeyError", e)


class Plain(dict):
    pass


try:
    Plain().__getitem__("x")
except KeyError as e:
    print("KeyError", e)
print(urllib.parse.quote("Hello, world\u203d"), urllib.parse.urlencode({"a b/c": "a b/c"}))
