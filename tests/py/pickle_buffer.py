# pickle.PickleBuffer (protocol 5, PEP 574): in-band and out-of-band buffers,
# raw(), release(), memoryview() of one, with the C pickler and pickle.py's.
import io
import pickle


def count_op(op, data):
    import pickletools
    return sum(1 for o, _, _ in pickletools.genops(data) if o.code == op.decode('latin-1'))


class ZeroCopyBytearray(bytearray):
    def __reduce_ex__(self, protocol):
        if protocol >= 5:
            return type(self)._reconstruct, (pickle.PickleBuffer(self),), None
        return type(self)._reconstruct, (bytes(self),)

    @classmethod
    def _reconstruct(cls, obj):
        with memoryview(obj) as m:
            obj = m.obj
            return obj if type(obj) is cls else cls(obj)


pb = pickle.PickleBuffer(b"abcdef")
m = memoryview(pb)
print(m.obj, m.readonly, bytes(m), bytes(pb.raw()), pb.raw().format, pb.raw().readonly)
pb2 = pickle.PickleBuffer(bytearray(b"xyz"))
print(memoryview(pb2).readonly, bytes(pb2.raw()))
pb.release()
pb.release()
for f in (lambda: pb.raw(), lambda: memoryview(pb), lambda: pickle.PickleBuffer(5), lambda: pickle.PickleBuffer()):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)

for name, dumps, loads in (('C', pickle.dumps, pickle.loads), ('py', pickle._dumps, pickle._loads)):
    for obj in (b"abcdefgh", bytearray(b"abcdefgh")):
        for proto in range(6):
            p = pickle.PickleBuffer(obj)
            try:
                data = dumps(p, proto)
                new = loads(data)
                print(name, proto, type(new).__name__, new, count_op(pickle.NEXT_BUFFER, data),
                      count_op(pickle.BYTEARRAY8, data))
            except pickle.PickleError as e:
                print(name, proto, type(e).__name__, e)
        bufs = []
        data = dumps(pickle.PickleBuffer(obj), 5, buffer_callback=bufs.append)
        print(name, 'oob', len(bufs), count_op(pickle.NEXT_BUFFER, data), count_op(pickle.READONLY_BUFFER, data))
        new = loads(data, buffers=bufs)
        print(name, type(new).__name__, bytes(new), memoryview(new).readonly)
        try:
            loads(data)
        except pickle.UnpicklingError as e:
            print(name, 'UnpicklingError', e)
    z = ZeroCopyBytearray(b"zero copy")
    bufs = []
    data = dumps([z, z], 5, buffer_callback=bufs.append)
    new = loads(data, buffers=bufs)
    print(name, new[0] is z, new[1] is z, len(bufs))
    new = loads(dumps(z, 5))
    print(name, type(new).__name__, new == z, new is z)
    try:
        dumps(z, 4, buffer_callback=bufs.append)
    except ValueError as e:
        print(name, 'ValueError', e)
