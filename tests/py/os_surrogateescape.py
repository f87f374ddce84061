# args: ab\xf4 \xed\xa0\x80 ok\xc3\xa9 \xff\xfe
# env: TMPY_T_BADVAL=v\xe9
# env: TMPY_T_BAD\xe0KEY=1
# Bytes from the OS that are not UTF-8 decode with surrogateescape (U+DC80..
# U+DCFF) and encode back to the same bytes on the way to the OS.
import os
import sys

args = sys.argv[1:]
print(ascii(args))
# the str holds well-formed data: string methods work on it
print(ascii(args[0].replace('', '-')), len(args[0]), ascii(args[0][::-1]), ascii(args[1].upper()))
print(ascii(args[0] + args[1]), args[0].encode('utf-8', 'surrogateescape'))
print(args[1].encode('utf-8', 'surrogateescape'), args[3].encode('utf-8', 'surrogateescape'))
print(ascii(os.environ.get('TMPY_T_BADVAL')), ascii(os.getenv('TMPY_T_BADVAL')))
print(ascii(sorted(k for k in os.environ if k.startswith('TMPY_T_'))))

base = '/tmp/tmpy_surrogateescape_%d' % os.getpid()
d = base + '/dir\udcff'
os.makedirs(d)
try:
    names = ['f\udce9.txt', 'plain.txt', 'caf\u00e9', 'x\udcc3\udca9']   # the last is b'x\xc3\xa9' = 'xé'
    for n in names:
        with open(d + '/' + n, 'w') as f:
            f.write(n.encode('utf-8', 'surrogateescape').hex())
    print(ascii(sorted(os.listdir(d))))
    print(sorted(os.listdir(d.encode('utf-8', 'surrogateescape'))))
    for n in sorted(os.listdir(d)):
        with open(os.path.join(d, n)) as f:
            print(ascii(n), f.read(), os.stat(os.path.join(d, n)).st_size, os.path.exists(d + '/' + n))
    for top, dirs, files in os.walk(base):
        print(ascii(top[len(base):]), ascii(sorted(dirs)), ascii(sorted(files)))
    old = os.getcwd()
    os.chdir(d)
    print(ascii(os.getcwd()[len(base):]), ascii(os.path.abspath('z\udcfe')[len(base):]))
    print(ascii(os.path.realpath('.')[len(os.path.realpath(base)):]))
    os.chdir(old)
    os.rename(d + '/plain.txt', d + '/pl\udc80in')
    print(ascii(sorted(os.listdir(d))))
    for bad in ['\ud800', 'a\udc7f', 'x\udfff']:
        try:
            os.stat(bad)
        except UnicodeEncodeError as e:
            print('UnicodeEncodeError', e.start, e.end, e.reason)
        try:
            open(bad)
        except UnicodeEncodeError as e:
            print('UnicodeEncodeError', e.start, e.end, e.reason)
    try:
        os.listdir('a\x00b')
    except ValueError as e:
        print('ValueError', e)
finally:
    for top, dirs, files in os.walk(base, topdown=False):
        for n in files:
            os.remove(os.path.join(top, n))
        os.rmdir(top)
print(os.path.exists(base))
os.putenv('TMPY_T_PUT', 'v\udcff')
print(ascii(os.path.basename(args[0])), ascii(os.path.splitext('a\udcff.p\udce9')))
import sys
print(sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())
print(os.fsencode('a\udcff\xe9'), os.fsencode(b'x\xff'), ascii(os.fsdecode(b'a\xff\xc3\xa9')), ascii(os.fsdecode('s\udc80')))
for bad in [1, '\ud800']:
    try:
        os.fsencode(bad)
    except (TypeError, UnicodeEncodeError) as e:
        print(type(e).__name__, e)
print(all(os.fsdecode(os.fsencode(a)) == a for a in args))
