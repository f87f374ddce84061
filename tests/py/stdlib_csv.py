# csv over the C _csv: dialect options, quoting modes, multi-line quoted
# fields, DictReader/DictWriter, Sniffer, field_size_limit, and errors with
# the reader's line number.
import csv
import io

def show(rows):
    for row in rows:
        print(row)


text = 'name,qty,note\r\napple,3,"red, round"\r\n"pear",5,"says ""hi"""\r\nfig,,"two\r\nlines"\r\n\r\nlast,1,x\r\n'
r = csv.reader(io.StringIO(text, newline=''))
for row in r:
    print(r.line_num, row)

# every quoting mode, written and read back
rows = [['a', 1, 2.5, None, 'x,y', 'q"q', '', True], ['line\nbreak', -0.0, 10 ** 20, 'sp ace']]
for q in (csv.QUOTE_MINIMAL, csv.QUOTE_ALL, csv.QUOTE_NONNUMERIC):
    out = io.StringIO()
    w = csv.writer(out, quoting=q)
    print(w.writerow(rows[0]))
    w.writerows(rows[1:])
    print(repr(out.getvalue()))
    if q != csv.QUOTE_NONNUMERIC:
        show(csv.reader(io.StringIO(out.getvalue(), newline=''), quoting=q))
out = io.StringIO()
csv.writer(out, quoting=csv.QUOTE_NONE, escapechar='\\').writerow(['a,b', 'c"d', 'e\\f', 'g\nh'])
print(repr(out.getvalue()))
show(csv.reader(io.StringIO(out.getvalue()), quoting=csv.QUOTE_NONE, escapechar='\\'))
show(csv.reader(['1,"2",3.5, 4'], quoting=csv.QUOTE_NONNUMERIC, skipinitialspace=True))

# dialect options
for kw in ({'delimiter': ';'}, {'delimiter': '\t', 'quotechar': "'"}, {'doublequote': False, 'escapechar': '\\'},
           {'skipinitialspace': True}, {'lineterminator': '\n'}, {'quotechar': None}, {'strict': True},
           {'delimiter': '|', 'quoting': csv.QUOTE_ALL, 'lineterminator': '!'}):
    out = io.StringIO()
    try:
        csv.writer(out, **kw).writerow(['a b', ' c', 'd;e', "f'g", 'h"i', 'j|k'])
        print(kw, repr(out.getvalue()))
    except csv.Error as e:
        print(kw, 'Error', e)
    src = 'a; "b;c" ;\'d\'\t"e""f"|g\\"h\n'
    print(kw, list(csv.reader([src], **{k: v for k, v in kw.items() if k != 'lineterminator'})))

# registered dialects, dialect classes, the Dialect type
csv.register_dialect('semi', delimiter=';', quoting=csv.QUOTE_ALL)
d = csv.get_dialect('semi')
print(sorted(csv.list_dialects()), d.delimiter, d.quoting, d.quotechar, repr(d.escapechar), d.doublequote,
      d.skipinitialspace, d.strict, repr(d.lineterminator))
out = io.StringIO()
csv.writer(out, 'semi').writerow([1, 'two'])
csv.writer(out, dialect='excel-tab').writerow([3, 'four'])
csv.writer(out, csv.unix_dialect).writerow([5, 'six'])
print(repr(out.getvalue()))
csv.unregister_dialect('semi')


class Pipes(csv.Dialect):
    delimiter = '|'
    quotechar = '"'
    lineterminator = '\n'
    quoting = csv.QUOTE_MINIMAL
    doublequote = True
    skipinitialspace = False


print(list(csv.reader(['a|"b|c"|d'], Pipes)))


class Bad(csv.Dialect):
    delimiter = 'ab'


try:
    Bad()
except csv.Error as e:
    print('Error', e)

# DictReader / DictWriter
src = io.StringIO('id,name\n1,ann\n2,bob,extra\n3\n', newline='')
for rec in csv.DictReader(src, restkey='more', restval='?'):
    print(rec)
out = io.StringIO()
dw = csv.DictWriter(out, fieldnames=['id', 'name'], extrasaction='ignore', lineterminator='\n')
dw.writeheader()
dw.writerows([{'id': 1, 'name': 'x', 'zzz': 0}, {'id': 2}])
print(repr(out.getvalue()))
try:
    csv.DictWriter(io.StringIO(), ['a']).writerow({'a': 1, 'b': 2})
except ValueError as e:
    print('ValueError', e)

# Sniffer
sample = 'a;b;c\n1;"x;y";3\n4;5;6\n'
sn = csv.Sniffer()
dia = sn.sniff(sample)
print(dia.delimiter, dia.quotechar, dia.doublequote, dia.skipinitialspace, sn.has_header('name,age\nann,3\nbob,4\n'))
print(list(csv.reader(io.StringIO(sample), dia)))

# field_size_limit
old = csv.field_size_limit(10)
try:
    list(csv.reader(['short,' + 'x' * 11]))
except csv.Error as e:
    print('Error', e)
print(csv.field_size_limit(old), csv.field_size_limit() == old)

# errors, with the line they were found on
for src, kw in ((['a,b\n', 'c"d,"e"f\n'], {'strict': True}), (['ok\n', '"open\n'], {'strict': True}),
                (['a\rb\n'], {}), ([b'bytes\n'], {}), (['x\n', 'y\n', 5], {})):
    r = csv.reader(src, **kw)
    try:
        for row in r:
            pass
    except csv.Error as e:
        print('Error at line', r.line_num, e)
for bad in (lambda: csv.writer(io.StringIO()).writerow(5),
            lambda: csv.writer(io.StringIO(), quoting=csv.QUOTE_NONE).writerow(['']),
            lambda: csv.writer(io.StringIO(), quoting=csv.QUOTE_NONE).writerow(['a,b']),
            lambda: csv.reader([], delimiter=''), lambda: csv.reader([], quoting=9),
            lambda: csv.reader([], quotechar=None, quoting=csv.QUOTE_ALL), lambda: csv.writer(1),
            lambda: csv.get_dialect('nope'), lambda: csv.reader([], bogus=1)):
    try:
        bad()
    except (csv.Error, TypeError) as e:
        print(type(e).__name__, e)
