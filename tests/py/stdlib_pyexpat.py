# pyexpat directly: handlers, errors with line/column, a handler that raises,
# incremental Parse in chunks, buffer_text, ordered/specified attributes,
# namespaces, DTD handlers (model tuples), intern, ParseFile, the submodules.
import io
import pyexpat
from xml.parsers import expat
from xml.parsers.expat import errors, model

print(expat.ErrorString(errors.codes[errors.XML_ERROR_SYNTAX]), errors.XML_ERROR_INVALID_TOKEN)
print(errors.messages[errors.codes[errors.XML_ERROR_TAG_MISMATCH]], model.XML_CTYPE_MIXED, model.XML_CQUANT_REP)
print(pyexpat.native_encoding, type(pyexpat.version_info), len(pyexpat.version_info), pyexpat.EXPAT_VERSION.startswith('expat_'))
print(expat.error is expat.ExpatError, expat.ExpatError.__module__, type(expat.features), pyexpat.XMLParserType.__name__)

def trace(p, events):
    names = ['StartElement', 'EndElement', 'ProcessingInstruction', 'Comment', 'StartCdataSection',
             'EndCdataSection', 'XmlDecl', 'StartDoctypeDecl', 'EndDoctypeDecl', 'ElementDecl',
             'AttlistDecl', 'EntityDecl', 'NotationDecl', 'UnparsedEntityDecl', 'SkippedEntity',
             'StartNamespaceDecl', 'EndNamespaceDecl', 'CharacterData']
    for n in names:
        setattr(p, n + 'Handler', (lambda n: lambda *a: events.append((n,) + a))(n))

doc = b'''<?xml version="1.0" encoding="utf-8" standalone="no"?>
<!DOCTYPE root [
  <!ELEMENT root (item+, other?)>
  <!ELEMENT item (#PCDATA|b)*>
  <!ELEMENT other EMPTY>
  <!ATTLIST item id CDATA #REQUIRED kind (a|b) "a">
  <!ENTITY ent "entity text">
  <!NOTATION gif SYSTEM "image/gif">
  <!ENTITY pic SYSTEM "pic.gif" NDATA gif>
]>
<root><?pi some data?><!-- a comment --><item id="1">one &ent; &#233;</item><item id="2" kind="b"><![CDATA[<raw>]]></item><other/></root>'''
ev = []
p = expat.ParserCreate()
trace(p, ev)
p.Parse(doc, True)
for e in ev:
    print(e)
print(p.CurrentLineNumber, p.ErrorCode, p.StartElementHandler is not None)

# specified_attributes drops defaulted ones; ordered_attributes gives a list
for ordered, specified in ((0, 0), (1, 0), (1, 1)):
    ev = []
    p = expat.ParserCreate()
    p.ordered_attributes, p.specified_attributes = ordered, specified
    p.StartElementHandler = lambda n, a: ev.append((n, a))
    p.Parse(doc, True)
    print(ordered, specified, ev[1:3], p.ordered_attributes, p.specified_attributes)

# errors with line and column
for bad in ['<a><b></a>', '<a>\n  <b x="1" x="2"/></a>', '<a>&nope;</a>', '<a', '', '<a/><b/>', '<a>\n\n  <1/></a>']:
    p = expat.ParserCreate()
    try:
        p.Parse(bad, True)
        print('parsed', repr(bad))
    except expat.ExpatError as e:
        print(repr(bad), '->', e, e.code, e.lineno, e.offset, errors.messages[e.code] == str(e).split(':')[0])
        print('  ', p.ErrorCode, p.ErrorLineNumber, p.ErrorColumnNumber, p.ErrorByteIndex)

# a handler that raises: the exception leaves Parse, handlers are dropped
class Boom(Exception):
    pass
seen = []
def start(name, attrs):
    seen.append(name)
    if name == 'c':
        raise Boom('at ' + name)
p = expat.ParserCreate()
p.StartElementHandler = start
try:
    p.Parse('<a><b/><c/><d/></a>', True)
except Boom as e:
    print('raised', e, seen, p.StartElementHandler, p.ErrorCode == errors.codes[errors.XML_ERROR_ABORTED])
try:
    p.Parse('<more/>', True)
except expat.ExpatError as e:
    print('after raising:', e)

# incremental parsing in chunks, str and bytes, buffer_text
text = '<doc>' + ''.join('<p n="%d">line %d &amp; more \u00e9</p>' % (i, i) for i in range(200)) + '</doc>'
for buffer_text in (False, True):
    for chunk in (1, 7, 100, 100000):
        p = expat.ParserCreate()
        p.buffer_text = buffer_text
        data, count = [], [0]
        p.CharacterDataHandler = data.append
        def st(n, a):
            count[0] += 1
        p.StartElementHandler = st
        raw = text.encode('utf-8') if chunk % 2 else text
        for i in range(0, len(raw), chunk):
            p.Parse(raw[i:i + chunk])
        p.Parse(b'', True)
        print(buffer_text, chunk, count[0], len(data) if buffer_text or chunk > 50 else len(data) > 200, ''.join(data) == ''.join('line %d & more \u00e9' % i for i in range(200)))
p = expat.ParserCreate()
print(p.buffer_text, p.buffer_size, p.buffer_used)
p.buffer_text = True
p.buffer_size = 16
got = []
p.CharacterDataHandler = got.append
p.Parse('<a>' + 'x' * 40 + '<b/>' + 'y' * 10 + 'z' * 10 + '</a>', True)
print(got)
for bad in ('big', 0, -1):
    try:
        p.buffer_size = bad
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)

# namespaces
for prefixes in (False, True):
    ev = []
    p = expat.ParserCreate(namespace_separator=' ')
    p.namespace_prefixes = prefixes
    trace(p, ev)
    p.Parse('<x:root xmlns:x="urn:x" xmlns="urn:d"><child x:a="1" b="2"/></x:root>', True)
    for e in ev:
        print(e)
try:
    expat.ParserCreate(namespace_separator='ab')
except ValueError as e:
    print(e)
try:
    expat.ParserCreate(encoding=1)
except TypeError as e:
    print(e)

# intern: equal names are one object
names = []
p = expat.ParserCreate()
p.StartElementHandler = lambda n, a: names.append(n)
p.EndElementHandler = names.append
p.Parse('<e> <e/> <e></e> </e>', True)
print(len(names), all(n is names[0] for n in names), sorted(p.intern))
print(expat.ParserCreate(intern=None).intern)

# ParseFile, SetBase/GetBase, DefaultHandler, GetInputContext, encodings
p = expat.ParserCreate()
p.SetBase('http://example.com/')
print(p.GetBase())
out = []
p.DefaultHandler = out.append
p.StartElementHandler = lambda n, a: out.append(('ctx', p.GetInputContext()[:8]))
p.ParseFile(io.BytesIO(b'<?xml version="1.0"?><a>t&#65;</a>'))
print(out, p.GetInputContext())
try:
    p.ParseFile(io.StringIO('<a/>'))
except (TypeError, expat.ExpatError) as e:   # a finished parser says so first
    print(type(e).__name__, e)
for enc in ('iso-8859-1', 'iso-8859-15', 'cp1252', 'utf-16'):
    got = []
    p = expat.ParserCreate()
    p.CharacterDataHandler = got.append
    p.Parse(('<?xml version="1.0" encoding="%s"?><a>caf\u00e9 \u20ac</a>' % enc).encode(enc) if enc != 'iso-8859-1'
            else ('<?xml version="1.0" encoding="%s"?><a>caf\u00e9</a>' % enc).encode(enc), True)
    print(enc, got)

# external entities through ExternalEntityParserCreate
p = expat.ParserCreate()
p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_UNLESS_STANDALONE)
got = []
p.CharacterDataHandler = got.append
def ext(context, base, system_id, public_id):
    child = p.ExternalEntityParserCreate(context)
    child.Parse(b'external <b>text</b>', True)
    return 1
p.ExternalEntityRefHandler = ext
p.Parse(b'<!DOCTYPE a [<!ENTITY e SYSTEM "e.xml">]><a>&e;</a>', True)
print(got)

# intern given: a dict subclass too
class D(dict):
    pass
shared = D()
for doc_ in ('<a><b/></a>', '<b><a/></b>'):
    q = expat.ParserCreate(intern=shared)
    q.StartElementHandler = lambda n, a: None
    q.Parse(doc_, True)
print(type(q.intern).__name__, sorted(shared))
try:
    expat.ParserCreate(intern=[])
except TypeError as e:
    print(e)


# A handler that replaces handlers mid-parse, with buffered text pending (the
# setter flushes the buffer, which runs Python code, before it stores the new
# handler; move mode finds a stale self or handler there), and sets a flag
# whose __bool__ runs Python code.
def swap_mid_parse():
    import pyexpat
    p = pyexpat.ParserCreate()
    p.buffer_text = True
    seen = []

    class Truth:
        def __bool__(self):
            seen.append("bool")
            return True

    def start(name, attrs):
        seen.append(("start", name))
        if name == "b":
            p.CharacterDataHandler = lambda data: seen.append(("late", data))
            p.ordered_attributes = Truth()
    p.StartElementHandler = start
    p.CharacterDataHandler = lambda data: seen.append(("early", data))
    p.Parse("<a>one<b>two</b>three</a>", True)
    print(seen)


swap_mid_parse()
