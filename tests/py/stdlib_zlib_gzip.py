import zlib
data = b''.join(b'line %d of some text, repeated\n' % i for i in range(2000))
for level in (-1, 0, 1, 9):
    c = zlib.compress(data, level)
    print(level, len(c), zlib.decompress(c) == data)
for wbits in (9, 15, -15, 31, 25):
    c = zlib.compress(data, 6, wbits)
    print(wbits, len(c), c[:4], zlib.decompress(c, wbits if wbits > 0 else wbits) == data, zlib.decompress(c, 47) == data if wbits > 0 else '')
print(zlib.crc32(data), zlib.adler32(data), zlib.crc32(b'a', 5), zlib.adler32(b''), zlib.adler32(b'abc', 2**33))
co = zlib.compressobj(9, zlib.DEFLATED, -12, 9, zlib.Z_FILTERED)
parts = [co.compress(data[i:i+1000]) for i in range(0, len(data), 1000)]
parts.append(co.flush(zlib.Z_SYNC_FLUSH)); parts.append(co.compress(b'tail')); parts.append(co.flush())
comp = b''.join(parts)
print(len(comp), zlib.decompress(comp, -12) == data + b'tail')
try: co.compress(b'x')
except zlib.error as e: print('error', e)
d = zlib.decompressobj(-12)
out = d.decompress(comp[:500]) + d.decompress(comp[500:] + b'EXTRA')
print(out == data + b'tail', d.eof, d.unused_data, d.unconsumed_tail)
d = zlib.decompressobj()
c = zlib.compress(data)
chunks = []
buf = c
while buf:
    chunks.append(d.decompress(buf, 1000)); buf = d.unconsumed_tail
    if d.eof: break
chunks.append(d.flush())
print(len(chunks), b''.join(chunks) == data, d.eof)
d = zlib.decompressobj(); x = d.decompress(c[:100]); d2 = d.copy(); print(len(x + d.decompress(c[100:])), len(x + d2.decompress(c[100:])))
co = zlib.compressobj(); first = co.compress(b'abc'); co2 = co.copy(); print(first, zlib.decompress(first + co.flush()), zlib.decompress(first + co2.compress(b'def') + co2.flush()))
zd = b'common words dictionary text'
co = zlib.compressobj(zdict=zd); c = co.compress(b'common words text here') + co.flush()
d = zlib.decompressobj(zdict=zd); print(d.decompress(c))
try: zlib.decompress(c)
except zlib.error as e: print('error', e)
for bad in [lambda: zlib.decompress(b'garbage'), lambda: zlib.decompress(zlib.compress(data)[:-10]), lambda: zlib.compress('str'), lambda: zlib.compress(b'', 10), lambda: zlib.compressobj(wbits=99), lambda: zlib.decompressobj(wbits=99), lambda: zlib.decompressobj().decompress(b'', -1), lambda: zlib.decompressobj().flush(0), lambda: zlib.decompress(b'x', 99), lambda: zlib.compressobj(zdict='s')]:
    try: print(bad())
    except Exception as e: print(type(e).__name__, e)
print(zlib.MAX_WBITS, zlib.DEFLATED, zlib.Z_BEST_COMPRESSION, zlib.DEF_BUF_SIZE, zlib.Z_FINISH, type(zlib.ZLIB_VERSION), zlib.error.__module__)
print(type(zlib.compressobj()).__name__, type(zlib.decompressobj()))
import gzip, io
g = gzip.compress(data, mtime=0); print(len(g), gzip.decompress(g) == data)
bio = io.BytesIO()
with gzip.GzipFile(fileobj=bio, mode='wb', mtime=0) as f: f.write(data)
print(gzip.decompress(bio.getvalue()) == data)
bio.seek(0)
with gzip.GzipFile(fileobj=bio) as f: print(f.read() == data)
import tarfile
tb = io.BytesIO()
with tarfile.open(fileobj=tb, mode='w:gz') as t:
    for name, content in (('a.txt', data[:5000]), ('b.bin', bytes(range(256)) * 4)):
        ti = tarfile.TarInfo(name); ti.size = len(content); ti.mtime = 0; t.addfile(ti, io.BytesIO(content))
tb.seek(0)
with tarfile.open(fileobj=tb, mode='r:gz') as t:
    print(t.getnames(), t.extractfile('a.txt').read() == data[:5000], len(t.extractfile('b.bin').read()))
print(gzip.decompress(gzip.compress(b'a', mtime=0) + gzip.compress(b'b', mtime=0)))
try: gzip.decompress(b'\x1f\x8b\x08\x00' + b'\x00' * 6 + b'garbage')
except Exception as e: print(type(e).__name__, e)
