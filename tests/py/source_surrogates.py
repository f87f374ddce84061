# Source text is UTF-8: a str source holding lone surrogates cannot be
# encoded (UnicodeEncodeError, as CPython), and source bytes holding an
# encoded surrogate (ED A0 80) are not UTF-8 (SyntaxError on its line).


def show(label, f):
    try:
        r = f()
    except SyntaxError as e:
        print(label, '-> SyntaxError line', e.lineno, 'unicode error' in str(e))
    except Exception as e:
        print(label, '->', type(e).__name__, e)
    else:
        print(label, '->', ascii(r))


show('eval literal', lambda: eval("'a\ud800b'"))
show('eval fstring', lambda: eval("f'{1}\ud800'"))
show('exec name', lambda: exec("\ud800 = 1"))
show('exec comment', lambda: exec("x = 1  # \udcff"))
show('compile', lambda: compile("'\udc80'", 'f', 'eval'))
show('compile nul first', lambda: compile("'\ud800'\x00", 'f', 'eval'))
show('bytes surrogate', lambda: eval(b"'\xed\xa0\x80'"))
show('bytes surrogate line 3', lambda: exec(b"x = 1\ny = 2\nz = '\xed\xb2\x80'\n"))
show('bytes beyond U+10FFFF', lambda: compile(b"x = '\xf4\x90\x80\x80'", 'f', 'exec'))
show('bytes invalid line 2', lambda: exec(b"x = 1\ny = '\xff'\n"))
show('escape surrogate', lambda: eval("'\\ud800'"))
show('escaped ok', lambda: eval(b"'\xc3\xa9'"))
