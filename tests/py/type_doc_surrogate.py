# A class's str __doc__ with a lone surrogate is refused at creation (CPython keeps it as UTF-8), not on assignment.
for doc in 'x', '\xc4', '\U0001f40d', 'x\x00y', b'x', 42, None:
    A = type('A', (), {'__doc__': doc})
    print(ascii(A.__doc__))
try:
    type('A', (), {'__doc__': 'x\udcdcy'})
except UnicodeEncodeError as e:
    print('UnicodeEncodeError', e)
A = type('A', (), {})
A.__doc__ = 'x\udcdcy'
print(ascii(A.__doc__))
