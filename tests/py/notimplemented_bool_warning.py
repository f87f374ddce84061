# bool(NotImplemented) warns DeprecationWarning (an error under the "error" filter); None and Ellipsis do not.
import warnings

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print(bool(NotImplemented), not NotImplemented, bool(...), bool(None))
    if NotImplemented:
        print("true")
print([(x.category.__name__, str(x.message)) for x in w])
with warnings.catch_warnings():
    warnings.simplefilter("error", DeprecationWarning)
    try:
        bool(NotImplemented)
    except DeprecationWarning as e:
        print("raised", e)
    try:
        if NotImplemented:
            pass
    except DeprecationWarning as e:
        print("raised in if", e)
