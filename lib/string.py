"""string: constants, capwords, Template, Formatter (basic) (pure Python)."""

__all__ = ['ascii_letters', 'ascii_lowercase', 'ascii_uppercase', 'capwords', 'digits',
           'hexdigits', 'octdigits', 'printable', 'punctuation', 'whitespace', 'Formatter',
           'Template']

whitespace = ' \t\n\r\v\f'
ascii_lowercase = 'abcdefghijklmnopqrstuvwxyz'
ascii_uppercase = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
ascii_letters = ascii_lowercase + ascii_uppercase
digits = '0123456789'
hexdigits = digits + 'abcdef' + 'ABCDEF'
octdigits = '01234567'
punctuation = r"""!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"""
printable = digits + ascii_letters + punctuation + whitespace


def capwords(s, sep=None):
    return (sep or ' ').join(map(str.capitalize, s.split(sep)))


class Template:
    delimiter = '$'
    braceidpattern = None

    def __init__(self, template):
        self.template = template

    def _scan(self, mapping, safe):
        t = self.template
        out = []
        i = 0
        n = len(t)
        while i < n:
            c = t[i]
            if c != '$':
                out.append(c)
                i += 1
                continue
            if i + 1 < n and t[i + 1] == '$':
                out.append('$')
                i += 2
                continue
            j = i + 1
            braced = j < n and t[j] == '{'
            if braced:
                j += 1
            k = j
            while k < n and (t[k] == '_' or t[k].isalnum() and t[k].isascii()):
                k += 1
            name = t[j:k]
            ok = name and not name[0].isdigit()
            if braced:
                ok = ok and k < n and t[k] == '}'
            if not ok:
                if safe:
                    out.append('$')
                    i += 1
                    continue
                lineno = t.count('\n', 0, i) + 1
                col = i - (t.rfind('\n', 0, i) + 1) + 1
                raise ValueError('Invalid placeholder in string: line %d, col %d' % (lineno, col))
            end = k + 1 if braced else k
            if name in mapping:
                out.append(str(mapping[name]))
            elif safe:
                out.append(t[i:end])
            else:
                raise KeyError(name)
            i = end
        return ''.join(out)

    def substitute(self, mapping=None, /, **kws):
        if mapping is None:
            mapping = kws
        elif kws:
            mapping = {**mapping, **kws}
        return self._scan(mapping, False)

    def safe_substitute(self, mapping=None, /, **kws):
        if mapping is None:
            mapping = kws
        elif kws:
            mapping = {**mapping, **kws}
        return self._scan(mapping, True)


class Formatter:
    def format(self, format_string, /, *args, **kwargs):
        return self.vformat(format_string, args, kwargs)

    def vformat(self, format_string, args, kwargs):
        return format_string.format(*args, **kwargs)
