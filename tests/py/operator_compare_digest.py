# operator._compare_digest (hmac imports it from _operator) and its TypeErrors, CPython's.
import _operator
import hmac

print(_operator._compare_digest('abc', 'abc'), _operator._compare_digest(b'a', bytearray(b'b')),
      hmac.compare_digest(b'x', b'x'), _operator._compare_digest(b'ab', memoryview(b'ab')))
for a, b in (('a', b'a'), ('é', 'é'), (1, 2), (1, b'a'), (b'a', 'a')):
    try:
        print(_operator._compare_digest(a, b))
    except TypeError as e:
        print(e)
