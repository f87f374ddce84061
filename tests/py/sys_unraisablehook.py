# sys.unraisablehook / sys.__unraisablehook__: a user hook gets UnraisableHookArgs; the default prints; a failing hook is reported
import sys, gc
print(sys.unraisablehook is sys.__unraisablehook__)
class C:
    def __del__(self):
        raise ValueError("in del")
seen = []
def hook(u):
    seen.append((type(u).__name__, u.exc_type.__name__, str(u.exc_value), u.err_msg, type(u.object).__name__, u.exc_traceback is not None))
sys.unraisablehook = hook
c = C(); del c; gc.collect()
print(seen)
sys.unraisablehook = sys.__unraisablehook__
c = C(); del c; gc.collect()
def bad(u): raise KeyError("hook")
sys.unraisablehook = bad
c = C(); del c; gc.collect()
print("end")
