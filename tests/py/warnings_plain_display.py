# _warnings without the warnings module imported shows a warning as
# CPython's C fallback does: "file:line: Category: text", the stripped
# source line, and for a warning about an object (source) the tracemalloc
# hint; the default filters and the per-module registry apply (once per
# text, category and line). tests/test_finalizer_warnings.py compares the
# whole of stderr with python3's.
import _warnings


class Thing:
    pass


_warnings.warn("plain", UserWarning)
_warnings.warn("about an object", RuntimeWarning, 1, Thing())
for i in range(3):
    _warnings.warn("in a loop: once", UserWarning)


def deeper():
    _warnings.warn("at the caller's line", UserWarning, 2)


deeper()
_warnings.warn("shown in __main__", DeprecationWarning)
_warnings.warn("never shown", PendingDeprecationWarning)
_warnings.warn("never shown", ImportWarning)
print("end")
