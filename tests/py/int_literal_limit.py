# A decimal int literal past sys.get_int_max_str_digits() is a SyntaxError
# naming the line (no columns), as CPython 3.11's parser makes it.
import sys


def try_compile(src, name='lit.py', show_text=True):
    try:
        code = compile(src, name, 'exec')
    except SyntaxError as e:
        print('SyntaxError', e.msg)
        print('  ', e.filename, e.lineno, e.offset, e.end_lineno, e.end_offset,
              repr(e.text[:12]) if show_text and e.text else None)
        return None
    return code


try_compile('x = 1\ny = ' + '1' * 100001 + '\n')
try_compile('x = (\n1 +\n' + '1' * 5000 + ')')
try_compile('x = ' + '1' * 5000 + ' +')           # the literal comes first
try_compile('def f():\n    return -' + '1_0' * 3000, '<string>')
try_compile('y = ' + '1' * 4300)                  # at the limit: fine
try_compile('y = ' + '0' * 5000)                  # zero is not converted
try_compile('y = 0x' + 'f' * 6000 + '; z = 0o' + '7' * 5000 + '; w = 0b' + '1' * 5000)
try_compile('y = ' + '1' * 5000 + '.5; z = ' + '2' * 5000 + 'e3')   # floats are fine
try:
    eval('1' * 4301)
except SyntaxError as e:
    print('eval', e.msg[:60], e.lineno, e.offset, e.end_offset)
try:
    exec('print(len(str(' + '7' * 5000 + ')))')
except SyntaxError as e:
    print('exec', e.msg[:60])
sys.set_int_max_str_digits(6000)
exec('v = ' + '7' * 5000)
print(v % 1000)
try_compile('v = ' + '7' * 6001)
sys.set_int_max_str_digits(0)
exec('v = ' + '3' * 20000)
print(v % 1000)
sys.set_int_max_str_digits(4300)
try:
    exec("f'{" + '1' * 5000 + "}'")
except SyntaxError as e:
    print('f-string', e.msg[:60])
# uncaught: the program's own output ends with CPython's message
exec('x = ' + '9' * 4301)
