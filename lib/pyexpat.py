"""pyexpat: CPython's interface to the Expat XML parser, over tmpy's _expat
(vm/modules/expatmodule.c, on libexpat). The xmlparser type lives here: its
handler attributes switch libexpat's callbacks on and off (_expat's
set_events), and _dispatch turns each callback into the handler call, with
buffer_text, ordered_attributes, specified_attributes and intern applied as
CPython's pyexpat does."""

import sys as _sys
import _expat

EXPAT_VERSION, version_info = _expat.version()
native_encoding = "UTF-8"
features = _expat.features()

XML_PARAM_ENTITY_PARSING_NEVER = 0
XML_PARAM_ENTITY_PARSING_UNLESS_STANDALONE = 1
XML_PARAM_ENTITY_PARSING_ALWAYS = 2


class ExpatError(Exception):
    pass


ExpatError.__module__ = "xml.parsers.expat"
error = ExpatError


def ErrorString(code):
    """Returns string error for given number."""
    return _expat.error_string(code)


# The handler attributes, in the order of expatmodule.c's EV_* kinds.
_EVENTS = (
    "StartElementHandler", "EndElementHandler", "CharacterDataHandler", "ProcessingInstructionHandler",
    "CommentHandler", "StartNamespaceDeclHandler", "EndNamespaceDeclHandler", "StartCdataSectionHandler",
    "EndCdataSectionHandler", "DefaultHandler", "DefaultHandlerExpand", "XmlDeclHandler",
    "StartDoctypeDeclHandler", "EndDoctypeDeclHandler", "EntityDeclHandler", "NotationDeclHandler",
    "UnparsedEntityDeclHandler", "NotStandaloneHandler", "ExternalEntityRefHandler", "SkippedEntityHandler",
    "ElementDeclHandler", "AttlistDeclHandler",
)
_EV = {name: k for k, name in enumerate(_EVENTS)}
_CHARACTER_DATA = _EV["CharacterDataHandler"]
_START_ELEMENT = _EV["StartElementHandler"]
_END_ELEMENT = _EV["EndElementHandler"]
_NAMED = {_START_ELEMENT, _END_ELEMENT}

_CREATE = object()


class xmlparser:
    """XML parser"""

    __slots__ = ("_core", "_handlers", "_mask", "_buffer", "_buffered", "_buffer_text", "_buffer_size",
                 "_finished", "_parsing", "intern", "ordered_attributes", "specified_attributes",
                 "_namespace_prefixes")

    def __new__(cls, *args, **kwargs):
        if len(args) != 4 or args[0] is not _CREATE:
            raise TypeError("cannot create 'pyexpat.xmlparser' instances")
        return object.__new__(cls)

    def __init__(self, token, encoding, namespace_separator, intern):
        self._handlers = [None] * len(_EVENTS)
        self._mask = 0
        self._buffer = []
        self._buffered = 0
        self._buffer_text = False
        self._buffer_size = 8192
        self._finished = False
        self._parsing = False
        self.intern = intern
        self.ordered_attributes = False
        self.specified_attributes = False
        self._namespace_prefixes = False
        self._core = _expat.Parser(encoding, namespace_separator, self._dispatch)

    # ---- handlers ----

    def _set_handler(self, k, handler):
        if k == _CHARACTER_DATA:
            self._flush()
        self._handlers[k] = handler
        mask = self._mask | (1 << k) if handler is not None else self._mask & ~(1 << k)
        if mask != self._mask:
            self._mask = mask
            self._core.set_events(mask)

    def _flush(self):
        if self._buffer:
            data = "".join(self._buffer)
            self._buffer = []
            self._buffered = 0
            handler = self._handlers[_CHARACTER_DATA]
            if handler is not None:
                handler(data)

    def _name(self, name):
        if self.intern is None:
            return name
        return self.intern.setdefault(name, name)

    def _dispatch(self, kind, *args):
        if kind == _CHARACTER_DATA and self._buffer_text:
            data = args[0]
            if self._buffered + len(data) > self._buffer_size:
                self._flush()
                if len(data) > self._buffer_size:
                    return self._handlers[_CHARACTER_DATA](data)
            self._buffer.append(data)
            self._buffered += len(data)
            return None
        if self._buffer:
            self._flush()
        handler = self._handlers[kind]
        if handler is None:
            return None
        if kind == _START_ELEMENT:
            name, flat, nspecified = args
            if self.specified_attributes:
                flat = flat[:nspecified]   # libexpat counts names and values
            flat = [self._name(x) if k % 2 == 0 else x for k, x in enumerate(flat)]
            if self.ordered_attributes:
                attrs = flat
            else:
                attrs = {flat[k]: flat[k + 1] for k in range(0, len(flat), 2)}
            return handler(self._name(name), attrs)
        if kind == _END_ELEMENT:
            return handler(self._name(args[0]))
        return handler(*args)

    # ---- parsing ----

    def Parse(self, data, isfinal=False):
        """Parse XML data.

        `isfinal' should be true at end of input."""
        if isinstance(data, str):
            data = data.encode("utf-8")
            self._core.set_encoding("utf-8")   # over what the XML declaration says
        self._parsing = True
        ok = self._core.parse(data, isfinal)
        self._flush()
        if not ok:
            code, line, column, _ = self._core.error()
            e = ExpatError("%s: line %d, column %d" % (ErrorString(code), line, column))
            e.code = code
            e.lineno = line
            e.offset = column
            raise e
        if isfinal:
            self._finished = True
        return 1

    def ParseFile(self, file):
        """Parse XML data from file-like object."""
        read = getattr(file, "read", None)
        if read is None:
            raise TypeError("argument must have 'read' attribute")
        while True:
            data = read(2048)
            if not isinstance(data, (bytes, bytearray, str)):
                raise TypeError("read() did not return a bytes object (type=%s)" % type(data).__name__)
            if not data:
                return self.Parse(b"", True)
            self.Parse(data, False)

    def SetBase(self, base):
        """Set the base URL for the parser."""
        self._core.set_base(base)

    def GetBase(self):
        """Return base URL string for the parser."""
        return self._core.get_base()

    def GetInputContext(self):
        """Return the untranslated text of the input that caused the current event."""
        ctx = self._core.input_context() if self._parsing else None
        if ctx is None:
            return None
        data, offset = ctx
        return data[offset:]

    def SetParamEntityParsing(self, flag):
        """Controls parsing of parameter entities (including the external DTD subset)."""
        return self._core.set_param_entity_parsing(flag)

    def UseForeignDTD(self, flag=True):
        """Allows the application to provide an artificial external subset if one is not specified."""
        code = self._core.use_foreign_dtd(flag)
        if code:
            raise ExpatError(ErrorString(code))

    # ---- attributes ----

    @property
    def buffer_text(self):
        return self._buffer_text

    @buffer_text.setter
    def buffer_text(self, value):
        value = bool(value)
        if not value:
            self._flush()
        self._buffer_text = value

    @property
    def buffer_size(self):
        return self._buffer_size

    @buffer_size.setter
    def buffer_size(self, value):
        if not isinstance(value, int):
            raise TypeError("buffer_size must be an integer")
        if value <= 0:
            raise ValueError("buffer_size must be greater than zero")
        self._flush()
        self._buffer_size = value

    @property
    def buffer_used(self):
        return self._buffered

    @property
    def namespace_prefixes(self):
        return self._namespace_prefixes

    @namespace_prefixes.setter
    def namespace_prefixes(self, value):
        self._namespace_prefixes = bool(value)
        self._core.set_return_ns_triplet(self._namespace_prefixes)

    ErrorCode = property(lambda self: self._core.error()[0])
    ErrorLineNumber = property(lambda self: self._core.error()[1])
    ErrorColumnNumber = property(lambda self: self._core.error()[2])
    ErrorByteIndex = property(lambda self: self._core.error()[3])
    CurrentLineNumber = property(lambda self: self._core.position()[0])
    CurrentColumnNumber = property(lambda self: self._core.position()[1])
    CurrentByteIndex = property(lambda self: self._core.position()[2])


def _handler_property(k):
    return property(lambda self: self._handlers[k], lambda self, v: self._set_handler(k, v),
                    lambda self: self._set_handler(k, None))


for _k, _name in enumerate(_EVENTS):
    setattr(xmlparser, _name, _handler_property(_k))
del _k, _name
xmlparser.__module__ = "pyexpat"
XMLParserType = xmlparser


def ParserCreate(encoding=None, namespace_separator=None, intern=None):
    """Return a new XML parser object."""
    if encoding is not None and not isinstance(encoding, str):
        raise TypeError("ParserCreate() argument 'encoding' must be str or None, not %s" % type(encoding).__name__)
    if namespace_separator is not None:
        if not isinstance(namespace_separator, str):
            raise TypeError("ParserCreate() argument 'namespace_separator' must be str or None, not %s"
                            % type(namespace_separator).__name__)
        if len(namespace_separator) > 1:
            raise ValueError("namespace_separator must be at most one character, omitted, or None")
    if intern is None:
        intern = {}
    elif not isinstance(intern, dict):
        raise TypeError("intern must be a dictionary")
    return xmlparser(_CREATE, encoding, namespace_separator, intern)


def _submodule(name):
    return type(_sys)(name)


errors = _submodule("pyexpat.errors")
errors.__doc__ = "Constants used to describe error conditions."
errors.codes = {}
errors.messages = {}
_ERROR_NAMES = (
    "NO_MEMORY", "SYNTAX", "NO_ELEMENTS", "INVALID_TOKEN", "UNCLOSED_TOKEN", "PARTIAL_CHAR", "TAG_MISMATCH",
    "DUPLICATE_ATTRIBUTE", "JUNK_AFTER_DOC_ELEMENT", "PARAM_ENTITY_REF", "UNDEFINED_ENTITY",
    "RECURSIVE_ENTITY_REF", "ASYNC_ENTITY", "BAD_CHAR_REF", "BINARY_ENTITY_REF",
    "ATTRIBUTE_EXTERNAL_ENTITY_REF", "MISPLACED_XML_PI", "UNKNOWN_ENCODING", "INCORRECT_ENCODING",
    "UNCLOSED_CDATA_SECTION", "EXTERNAL_ENTITY_HANDLING", "NOT_STANDALONE", "UNEXPECTED_STATE",
    "ENTITY_DECLARED_IN_PE", "FEATURE_REQUIRES_XML_DTD", "CANT_CHANGE_FEATURE_ONCE_PARSING",
    "UNBOUND_PREFIX", "UNDECLARING_PREFIX", "INCOMPLETE_PE", "XML_DECL", "TEXT_DECL", "PUBLICID",
    "SUSPENDED", "NOT_SUSPENDED", "ABORTED", "FINISHED", "SUSPEND_PE", "RESERVED_PREFIX_XML",
    "RESERVED_PREFIX_XMLNS", "RESERVED_NAMESPACE_URI", "INVALID_ARGUMENT", "NO_BUFFER",
    "AMPLIFICATION_LIMIT_BREACH",
)
for _code, _name in enumerate(_ERROR_NAMES, 1):
    _message = ErrorString(_code)
    if _message is None:
        continue
    setattr(errors, "XML_ERROR_" + _name, _message)
    errors.codes[_message] = _code
    errors.messages[_code] = _message
del _code, _name, _message

model = _submodule("pyexpat.model")
model.__doc__ = "Constants used to interpret content model information."
for _k, _name in enumerate(("EMPTY", "ANY", "MIXED", "NAME", "CHOICE", "SEQ"), 1):
    setattr(model, "XML_CTYPE_" + _name, _k)
for _k, _name in enumerate(("NONE", "OPT", "REP", "PLUS")):
    setattr(model, "XML_CQUANT_" + _name, _k)
del _k, _name
_sys.modules.setdefault("pyexpat.errors", errors)
_sys.modules.setdefault("pyexpat.model", model)
