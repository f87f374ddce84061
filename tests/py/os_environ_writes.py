# os.environ changes reach the process environment (putenv/unsetenv, with
# surrogateescape), as CPython's os._Environ.
import os
import sys

e = os.environ
print(type(e).__name__, type(e).__module__, 'PATH' in e, repr(e)[:9])


def shell(cmd):
    sys.stdout.flush()
    return os.system(cmd) >> 8


e['TMPY_X'] = 'abc'
print(shell('test "$TMPY_X" = abc'), os.getenv('TMPY_X'), e['TMPY_X'])
del e['TMPY_X']
print(shell('test -z "$TMPY_X"'), 'TMPY_X' in e, os.getenv('TMPY_X'))
try:
    del e['TMPY_X']
except KeyError as x:
    print('KeyError', x)
try:
    e[1] = 'x'
except TypeError as x:
    print('TypeError', x)
try:
    e['TMPY_V'] = 2
except TypeError as x:
    print('TypeError', x)
try:
    e['A=B'] = 'x'
except ValueError as x:
    print('ValueError', x)
try:
    e['TMPY_N'] = 'a\0b'
except ValueError as x:
    print('ValueError', x)
e.update({'TMPY_A': '1'}, TMPY_B='2')
e.update([('TMPY_B', '3')])
print(shell('test "$TMPY_A$TMPY_B" = 13'))
print(e.pop('TMPY_A'), e.pop('nope', 'd'), e.setdefault('TMPY_C', 'c'), e.setdefault('TMPY_C', 'z'),
      type(e.copy()).__name__, shell('test -z "$TMPY_A"'))
try:
    e.pop('nope')
except KeyError as x:
    print('KeyError', x)
e |= {'TMPY_D': 'd'}
print(shell('test "$TMPY_D" = d'), type(e | {}).__name__, type({} | e).__name__, (e | {'TMPY_D': 'e'})['TMPY_D'])
e['TMPY_Y'] = 'v\udcff'
print(shell('test "$TMPY_Y" = "$(printf "v\\377")"'), ascii(e['TMPY_Y']))
try:
    e['TMPY_Z'] = '\ud800'
except UnicodeEncodeError as x:
    print('UnicodeEncodeError', x.reason)
print(sorted(k for k in e if k in ('TMPY_A', 'TMPY_B', 'TMPY_C', 'TMPY_D', 'TMPY_X', 'TMPY_Y', 'TMPY_Z')))
