# CPython's pure-Python xml packages over pyexpat: ElementTree (its Python
# implementation: there is no _elementtree), minidom, sax, plistlib.
import io
import sys
import xml.etree.ElementTree as ET
import xml.dom.minidom
import xml.sax
import xml.sax.saxutils
import plistlib

print(ET.XMLParser.__module__, ET.XMLParser.__name__)

def tagname(el):
    t = getattr(el, 'tag', el)
    return t if isinstance(t, str) else t.__name__

# ElementTree: parse, tostring round trips, namespaces, iterparse, XMLPullParser
src = '''<?xml version="1.0"?>
<catalog xmlns="urn:books" xmlns:p="urn:price">
  <book id="b1" lang="en"><title>Dune</title><p:price currency="EUR">9.5</p:price></book>
  <book id="b2"><title>Snow &amp; Ice &#x263A;</title><!-- note --><p:price>12</p:price></book>
</catalog>'''
root = ET.fromstring(src)
print(root.tag, len(root), [b.get('id') for b in root])
ns = {'b': 'urn:books', 'p': 'urn:price'}
for book in root.findall('b:book', ns):
    print(book.find('b:title', ns).text, book.find('p:price', ns).text, book.find('p:price', ns).attrib)
out = ET.tostring(root, encoding='unicode')
print(out)
print(ET.tostring(ET.fromstring(out)) == ET.tostring(root))
tree = ET.parse(io.BytesIO(src.encode()))
buf = io.BytesIO()
tree.write(buf, encoding='utf-8', xml_declaration=True)
print(buf.getvalue()[:60])
events = [(ev, el.tag if hasattr(el, 'tag') else el) for ev, el in
          ET.iterparse(io.BytesIO(src.encode()), events=('start', 'end', 'start-ns', 'end-ns'))]
print(events)
pp = ET.XMLPullParser(events=('start', 'end', 'comment', 'pi'))
for i in range(0, len(src), 13):
    pp.feed(src[i:i + 13])
    for ev, el in pp.read_events():
        print(' ', ev, tagname(el))
pp.close()
e = ET.Element('r', a='1')
ET.SubElement(e, 'c').text = 'x < y'
ET.indent(e)
print(ET.tostring(e, encoding='unicode'))
print(ET.canonicalize('<a b="2"  a="1"><c/></a>'))
try:
    ET.fromstring('<a>\n<b></a>')
except ET.ParseError as err:
    print('ParseError', err, err.code, err.position)
tb = ET.TreeBuilder(insert_comments=True, insert_pis=True)
parser = ET.XMLParser(target=tb)
parser.feed('<a><?pi x?><!--c--><b>t</b></a>')
r = parser.close()
print([tagname(x) for x in r.iter()], r[0].text, r[1].text)

# minidom
doc = xml.dom.minidom.parseString(src)
print(doc.documentElement.tagName, doc.documentElement.namespaceURI)
for b in doc.getElementsByTagName('book'):
    print(b.getAttribute('id'), b.getElementsByTagName('title')[0].firstChild.data)
print(doc.toprettyxml(indent='  '))
print(xml.dom.minidom.parseString('<a x="1"><b/>text<![CDATA[raw <x>]]></a>').toxml())
try:
    xml.dom.minidom.parseString('<a><b></a>')
except Exception as err:
    print(type(err).__name__, err)

# sax with a ContentHandler
class Handler(xml.sax.ContentHandler):
    def __init__(self):
        super().__init__()
        self.log = []
    def startElement(self, name, attrs):
        self.log.append(('start', name, dict(attrs)))
    def endElement(self, name):
        self.log.append(('end', name))
    def characters(self, content):
        if content.strip():
            self.log.append(('chars', content))
    def processingInstruction(self, target, data):
        self.log.append(('pi', target, data))
h = Handler()
xml.sax.parseString(b'<doc a="1"><?pi data?><e>text &lt;here&gt;</e><e/></doc>', h)
print(h.log)
class NsHandler(xml.sax.ContentHandler):
    def startElementNS(self, name, qname, attrs):
        print('startNS', name, qname, sorted(attrs.items()))
p = xml.sax.make_parser()
p.setFeature(xml.sax.handler.feature_namespaces, True)
p.setContentHandler(NsHandler())
p.parse(io.BytesIO(b'<x:a xmlns:x="urn:x" x:k="v"><b/></x:a>'))
try:
    xml.sax.parseString(b'<a><b></a>', xml.sax.ContentHandler())
except xml.sax.SAXParseException as err:
    print('SAXParseException', err, err.getLineNumber(), err.getColumnNumber())
out = io.StringIO()
g = xml.sax.saxutils.XMLGenerator(out)
xml.sax.parseString(b'<r><i n="1">a&amp;b</i></r>', g)
print(out.getvalue())

# plistlib
data = {'name': 'x', 'n': 3, 'f': 1.5, 'ok': True, 'list': [1, 'two', {'k': b'\x00\x01'}], 'empty': {}}
raw = plistlib.dumps(data)
print(raw.decode())
print(plistlib.loads(raw) == data, plistlib.loads(plistlib.dumps(data, fmt=plistlib.FMT_BINARY)) == data)
try:
    plistlib.loads(b'<?xml version="1.0"?><plist><dict><key>a</key></plist>')
except Exception as err:
    print(type(err).__name__, err)

# xmlrpc's marshalling over pyexpat
import xmlrpc.client
body = xmlrpc.client.dumps(({'a': [1, 2.5, 'x', True, None]}, b'\x00bin'), 'do.it', allow_none=True)
print(body)
print(xmlrpc.client.loads(body, use_builtin_types=True))
fault = xmlrpc.client.dumps(xmlrpc.client.Fault(4, 'bad'), methodresponse=True)
try:
    xmlrpc.client.loads(fault)
except xmlrpc.client.Fault as f:
    print('Fault', f.faultCode, f.faultString)
