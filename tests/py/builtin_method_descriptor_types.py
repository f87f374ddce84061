# The types of C methods: unbound in a type's dict they are method_descriptor / classmethod_descriptor
# (so copyreg-style reducers keyed on type(list.append), as multiprocessing's ForkingPickler has, leave
# module functions such as time.sleep alone), bound ones and module functions builtin_function_or_method.
import copyreg
import io
import pickle
import time
import types

for f in (list.append, str.join, [].append, len, time.sleep, dict.__dict__["fromkeys"], dict.fromkeys,
          int.__dict__["from_bytes"]):
    print(type(f).__name__, hasattr(f, "__objclass__"), hasattr(f, "__self__"))
print(types.MethodDescriptorType is type(list.append), types.BuiltinFunctionType is type(len),
      types.ClassMethodDescriptorType is type(dict.__dict__["fromkeys"]))
print(list.append.__objclass__, list.append.__qualname__, repr(list.append), repr(str.__dict__["join"]))
print(list.append.__get__([1])(2), type(list.append).__get__, callable(list.append))
print(pickle.loads(pickle.dumps(list.append)), pickle.loads(pickle.dumps(time.sleep)))


class ForkingLikePickler(pickle.Pickler):
    dispatch_table = copyreg.dispatch_table.copy()
    dispatch_table[type(list.append)] = lambda m: (getattr, (m.__objclass__, m.__name__))


buf = io.BytesIO()
ForkingLikePickler(buf).dump((list.append, time.sleep, abs))
print(pickle.loads(buf.getvalue()))
