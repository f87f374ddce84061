# pyexpat (vm/modules/pyexpatmodule.c on libexpat): handlers, attributes
# (dict, ordered, specified), buffer_text, namespaces, errors, ParseFile,
# and the stdlib users: ElementTree, xmlrpc.client, xml.dom.minidom.
import io
import pyexpat
from xml.parsers import expat

print(expat.ExpatError is pyexpat.ExpatError, expat.error is expat.ExpatError, expat.ExpatError.__module__)
print(type(pyexpat.version_info), len(pyexpat.version_info), pyexpat.EXPAT_VERSION.startswith("expat_"))
print(pyexpat.native_encoding, pyexpat.XML_PARAM_ENTITY_PARSING_ALWAYS, pyexpat.model.XML_CTYPE_SEQ,
      pyexpat.model.XML_CQUANT_PLUS)
print(pyexpat.errors.XML_ERROR_SYNTAX, pyexpat.errors.codes[pyexpat.errors.XML_ERROR_TAG_MISMATCH],
      pyexpat.errors.messages[4], len(pyexpat.errors.codes) > 40, pyexpat.ErrorString(2))

events = []
p = expat.ParserCreate()
p.StartElementHandler = lambda name, attrs: events.append(("start", name, attrs))
p.EndElementHandler = lambda name: events.append(("end", name))
p.CharacterDataHandler = lambda data: events.append(("chars", data))
p.CommentHandler = lambda data: events.append(("comment", data))
p.ProcessingInstructionHandler = lambda t, d: events.append(("pi", t, d))
p.XmlDeclHandler = lambda v, e, s: events.append(("xmldecl", v, e, s))
p.StartCdataSectionHandler = lambda: events.append(("cdata",))
p.EndCdataSectionHandler = lambda: events.append(("/cdata",))
print(p.Parse(b"<?xml version='1.0' encoding='utf-8'?>\n<root a='1' b=\"two\">text &amp; more<!-- c -->", False))
print(p.Parse("<?pi data?><child/><![CDATA[x<y]]>caf\u00e9</root>", True))
for e in events:
    print(e)
print(p.StartElementHandler is not None, p.DefaultHandler)
try:
    p.Parse(b"<more/>", True)
except expat.ExpatError as e:
    print("after end:", e.code, e.lineno, e.offset)

for ordered, specified in ((False, False), (True, False), (True, True)):
    q = expat.ParserCreate()
    q.ordered_attributes = ordered
    q.specified_attributes = specified
    got = []
    q.StartElementHandler = lambda name, attrs: got.append((name, attrs))
    q.Parse(b"<!DOCTYPE r [<!ATTLIST r d CDATA 'dflt'>]><r x='1' y='2'/>", True)
    print(ordered, specified, got)

d = expat.ParserCreate()
decls = []
d.StartDoctypeDeclHandler = lambda *a: decls.append(("doctype",) + a)
d.EndDoctypeDeclHandler = lambda: decls.append(("/doctype",))
d.ElementDeclHandler = lambda name, model: decls.append(("element", name, model))
d.AttlistDeclHandler = lambda *a: decls.append(("attlist",) + a)
d.EntityDeclHandler = lambda *a: decls.append(("entity",) + a)
d.Parse(b"<!DOCTYPE r [<!ELEMENT r (a, (b | c)*, d?)><!ELEMENT a (#PCDATA)><!ELEMENT b EMPTY>"
        b"<!ATTLIST r k CDATA #REQUIRED m (x|y) 'x'><!ENTITY e 'val'>]><r k='1'>&e;</r>", True)
for e in decls:
    print(e)

q = expat.ParserCreate()
q.buffer_text = True
chunks = []
q.CharacterDataHandler = chunks.append
q.Parse(b"<r>a&amp;b&#65;c\nd</r>", True)
print(q.buffer_text, q.buffer_size, chunks)

ns = expat.ParserCreate(namespace_separator=" ")
got = []
ns.StartNamespaceDeclHandler = lambda prefix, uri: got.append(("ns", prefix, uri))
ns.EndNamespaceDeclHandler = lambda prefix: got.append(("/ns", prefix))
ns.StartElementHandler = lambda name, attrs: got.append((name, attrs))
ns.Parse(b"<a:r xmlns:a='urn:a' xmlns='urn:d'><c a:k='v'/></a:r>", True)
print(got)

for bad in (b"<a><b></a>", b"<a>", b"<a x='1' x='2'/>", b"", b"<a>&undefined;</a>", b"<a/><b/>"):
    r = expat.ParserCreate()
    try:
        r.Parse(bad, True)
    except expat.ExpatError as e:
        print(repr(bad), str(e), e.code, e.lineno, e.offset, pyexpat.errors.messages[e.code] == str(e).split(":")[0])
        print(r.ErrorCode == e.code, r.ErrorLineNumber, r.ErrorColumnNumber)


class Stop(Exception):
    pass


def stop(name, attrs):
    if name == "b":
        raise Stop(name)


r = expat.ParserCreate()
r.StartElementHandler = stop
try:
    r.Parse(b"<a><b/></a>", True)
except Stop as e:
    print("handler raised", e)

lines = []
r = expat.ParserCreate()
r.StartElementHandler = lambda n, a: lines.append((n, r.CurrentLineNumber, r.CurrentColumnNumber))
r.ParseFile(io.BytesIO(b"<a>\n  <b/>\n    <c/></a>"))
print(lines)

for args in ((1,), (None, "ab"), (None, 1)):
    try:
        expat.ParserCreate(*args)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
try:
    pyexpat.XMLParserType()
except TypeError as e:
    print("TypeError", e)
try:
    p.buffer_size = 0
except ValueError as e:
    print("ValueError", e)
try:
    p.NoSuchHandler = 1
except AttributeError:
    print("AttributeError")

import xml.etree.ElementTree as ET
root = ET.fromstring("<doc><item k='1'>one</item><item k='2'>two<!--c--></item><x:y xmlns:x='urn:x'/></doc>")
print(root.tag, [(i.tag, i.attrib, i.text) for i in root], ET.tostring(root))

import xmlrpc.client
data = xmlrpc.client.dumps((1, "two", [3.5, True], {"k": None}), "method", allow_none=True)
print(xmlrpc.client.loads(data, use_builtin_types=True))

from xml.dom import minidom
doc = minidom.parseString("<a x='1'><b>text</b></a>")
print(doc.documentElement.tagName, doc.documentElement.getAttribute("x"), doc.toxml())
