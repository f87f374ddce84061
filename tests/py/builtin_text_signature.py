# A built-in's doc in CPython's "NAME(SIGNATURE)\n--\n\nTEXT" form: __text_signature__ is the
# signature (what inspect.signature reads: toolz's test of builtins wants aiter's), __doc__ the text
import hashlib
import inspect

print(aiter.__text_signature__)
print(inspect.signature(aiter))
print(aiter.__doc__)
h = hashlib.sha256()
for m in (h.update, h.digest, h.hexdigest, h.copy):
    print(m.__name__, m.__text_signature__, inspect.signature(m), repr(m.__doc__))
print(type(h).update.__text_signature__, inspect.signature(type(h).update))
