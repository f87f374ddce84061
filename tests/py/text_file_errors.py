# Text files encode lone surrogates with their errors handler (strict by
# default) and decode bytes that are not UTF-8 with it; stderr is
# backslashreplace, and stdin/stdout follow the locale as CPython's do.
import os
import sys

print(sys.stderr.errors, sys.stdout.errors == sys.stdin.errors)
path = '/tmp/tmpy_text_errors_%d.txt' % os.getpid()
try:
    with open(path, 'w') as f:
        print(f.errors)
        f.write('ok\n')
        for s in ['x\ud800y', '\udcff', 'a\udc80b\n']:
            try:
                f.write(s)
            except UnicodeEncodeError as e:
                print('UnicodeEncodeError', e.start, e.end, e.reason)
        try:
            print('p\udcfe', file=f)
        except UnicodeEncodeError as e:
            print('print: UnicodeEncodeError', e.start, e.end)
    print(open(path, 'rb').read())
    for errors in ['surrogateescape', 'backslashreplace', 'replace', 'ignore', 'surrogatepass', 'xmlcharrefreplace']:
        with open(path, 'w', errors=errors) as f:
            text = 'a\udcffb\n' if errors == 'surrogateescape' else 'a\udcffb\ud800c\n'
            print(errors, f.errors, f.write(text))
        print(' ', open(path, 'rb').read())
    with open(path, 'wb') as f:
        f.write(b'l1 \xff\nl2 \xc3\xa9 \xe2\x82\nend \xed\xa0\x80')
    for errors in [None, 'strict', 'surrogateescape', 'replace', 'ignore', 'backslashreplace']:
        try:
            with open(path, errors=errors) as f:
                print(errors, ascii(f.readline()), ascii(f.read()))
        except UnicodeDecodeError as e:
            print(errors, 'UnicodeDecodeError', e.start, e.end, e.reason)
    with open(path, errors='surrogateescape') as f:
        print(ascii(list(f)))
    try:
        open(path, 'wb', errors='strict')
    except ValueError as e:
        print('ValueError', e)
finally:
    os.remove(path)
sys.stderr.write('stderr: \udcff \ud800\n')
