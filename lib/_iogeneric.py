"""The Python half of tmpy's _io (vm/modules/iomodule.c imports it and calls
_setup): what CPython's C _io does by calling methods.

- The default methods of _IOBase, _RawIOBase, _BufferedIOBase and
  _TextIOBase (readline over read/peek, iteration, close over flush,
  context management, __del__ closing), installed into those C classes.
- IncrementalNewlineDecoder, BufferedRWPair, open_code, text_encoding.

The buffered and text layers over Python objects are in _iolayers, imported
when the first one is made.
"""
import sys as _sys

_io = None           # the _io module (set by _setup)
DEFAULT_BUFFER_SIZE = 8192


def _unsupported(name):
    raise _io.UnsupportedOperation(name)


def _closed_error():
    raise ValueError("I/O operation on closed file.")


# ---------------------------------------------------------------------------
# _IOBase and the abstract classes
# ---------------------------------------------------------------------------

class IOBase:
    """Methods installed into _io._IOBase."""

    def seek(self, pos, whence=0):
        _unsupported("seek")

    def tell(self):
        return self.seek(0, 1)

    def truncate(self, pos=None):
        _unsupported("truncate")

    def flush(self):
        if self.closed:
            _closed_error()

    def close(self):
        if not self.__dict__.get("__IOBase_closed", False):
            try:
                self.flush()
            finally:
                self.__dict__["__IOBase_closed"] = True

    def _get_closed(self):
        return self.__dict__.get("__IOBase_closed", False)

    def __del__(self):
        try:
            closed = self.closed
        except Exception:
            return
        if not closed:
            self.close()

    def seekable(self):
        return False

    def readable(self):
        return False

    def writable(self):
        return False

    def _checkClosed(self, msg=None):
        if self.closed:
            raise ValueError("I/O operation on closed file." if msg is None else msg)

    def _checkSeekable(self, msg=None):
        if not self.seekable():
            raise _io.UnsupportedOperation("File or stream is not seekable." if msg is None else msg)

    def _checkReadable(self, msg=None):
        if not self.readable():
            raise _io.UnsupportedOperation("File or stream is not readable." if msg is None else msg)

    def _checkWritable(self, msg=None):
        if not self.writable():
            raise _io.UnsupportedOperation("File or stream is not writable." if msg is None else msg)

    def __enter__(self):
        if self.closed:
            _closed_error()
        return self

    def __exit__(self, *args):
        self.close()

    def fileno(self):
        _unsupported("fileno")

    def isatty(self):
        if self.closed:
            _closed_error()
        return False

    def readline(self, size=-1):
        if size is None:
            size = -1
        elif not isinstance(size, int):
            size = size.__index__()
        peek = getattr(self, "peek", None)
        res = bytearray()
        while size < 0 or len(res) < size:
            nreadahead = 1
            if peek is not None:
                ahead = peek(1)
                if not isinstance(ahead, bytes):
                    raise OSError("peek() should have returned a bytes object, not '%s'" % type(ahead).__name__)
                if ahead:
                    n = ahead.find(b"\n") + 1 or len(ahead)
                    nreadahead = n if size < 0 else min(n, size - len(res))
            b = self.read(nreadahead)
            if b is None:
                break
            if not isinstance(b, bytes):
                raise OSError("read() should have returned a bytes object, not '%s'" % type(b).__name__)
            if not b:
                break
            res += b
            if res.endswith(b"\n"):
                break
        return bytes(res)

    def readlines(self, hint=None):
        if hint is None or hint <= 0:
            return list(self)
        lines = []
        total = 0
        for line in self:
            lines.append(line)
            total += len(line)
            if total >= hint:
                break
        return lines

    def writelines(self, lines):
        if self.closed:
            _closed_error()
        for line in lines:
            self.write(line)


class RawIOBase:
    """Methods installed into _io._RawIOBase."""

    def read(self, size=-1):
        if size is None:
            size = -1
        if size < 0:
            return self.readall()
        b = bytearray(size.__index__())
        n = self.readinto(b)
        if n is None:
            return None
        if n < 0 or n > len(b):
            raise ValueError("readinto returned %d outside buffer size %d" % (n, len(b)))
        del b[n:]
        return bytes(b)

    def readall(self):
        res = bytearray()
        while True:
            data = self.read(DEFAULT_BUFFER_SIZE)
            if data is None:
                if not res:
                    return None
                break
            if not data:
                break
            res += data
        return bytes(res)

    def readinto(self, b):
        raise NotImplementedError

    def write(self, b):
        raise NotImplementedError


def _readinto_via(self, b, meth):
    if not isinstance(b, memoryview):
        b = memoryview(b)
    b = b.cast("B")
    data = meth(len(b))
    if data is None:
        return None
    n = len(data)
    b[:n] = data
    return n


class BufferedIOBase:
    """Methods installed into _io._BufferedIOBase."""

    def read(self, size=-1):
        _unsupported("read")

    def read1(self, size=-1):
        _unsupported("read1")

    def readinto(self, b):
        return _readinto_via(self, b, self.read)

    def readinto1(self, b):
        return _readinto_via(self, b, self.read1)

    def write(self, b):
        _unsupported("write")

    def detach(self):
        _unsupported("detach")


class TextIOBase:
    """Methods installed into _io._TextIOBase."""

    def read(self, size=-1):
        _unsupported("read")

    def readline(self, size=-1):
        _unsupported("readline")

    def write(self, s):
        _unsupported("write")

    def detach(self):
        _unsupported("detach")

    def _get_encoding(self):
        return None

    def _get_newlines(self):
        return None

    def _get_errors(self):
        return None


def _install_all():
    def install(cls, impl, props=()):
        for name, value in list(vars(impl).items()):
            if name.startswith("_get_") or name in ("__dict__", "__weakref__", "__module__", "__qualname__"):
                continue
            if name == "__doc__":
                continue
            _io._install(cls, name, value)
        for name in props:
            _io._install(cls, name, property(getattr(impl, "_get_" + name)))
    install(_io._IOBase, IOBase, ("closed",))
    install(_io._RawIOBase, RawIOBase)
    install(_io._BufferedIOBase, BufferedIOBase)
    install(_io._TextIOBase, TextIOBase, ("encoding", "newlines", "errors"))
    _io._install(_io.TextIOWrapper, "_CHUNK_SIZE", property(_get_chunk_size, _set_chunk_size))


def _get_chunk_size(self):
    return self.__dict__.get("_chunk_size", 8192)


def _set_chunk_size(self, n):
    n = n.__index__()
    if n <= 0:
        raise ValueError("a strictly positive integer is required")
    self.__dict__["_chunk_size"] = n


# ---------------------------------------------------------------------------
# IncrementalNewlineDecoder
# ---------------------------------------------------------------------------

_LF, _CR, _CRLF = 1, 2, 4


class IncrementalNewlineDecoder:
    """Wraps a decoder (or None: str input): records the kinds of newline
    seen and translates them to \\n when asked; a \\r at the end of a chunk
    waits for the next one (it may be the start of \\r\\n)."""

    def __init__(self, decoder, translate, errors="strict"):
        self.decoder = decoder
        self.translate = translate
        self.errors = errors
        self.seennl = 0
        self.pendingcr = False

    def decode(self, input, final=False):
        if self.decoder is None:
            output = input
            if not isinstance(output, str):
                raise TypeError("decoder should return a string result, not '%s'" % type(output).__name__)
        else:
            output = self.decoder.decode(input, final=final)
            if not isinstance(output, str):
                raise TypeError("decoder should return a string result, not '%s'" % type(output).__name__)
        if self.pendingcr and (output or final):
            output = "\r" + output
            self.pendingcr = False
        if output.endswith("\r") and not final:
            output = output[:-1]
            self.pendingcr = True
        crlf = output.count("\r\n")
        cr = output.count("\r") - crlf
        lf = output.count("\n") - crlf
        self.seennl |= (lf and _LF) | (cr and _CR) | (crlf and _CRLF)
        if self.translate:
            if crlf:
                output = output.replace("\r\n", "\n")
            if cr:
                output = output.replace("\r", "\n")
        return output

    def getstate(self):
        if self.decoder is None:
            buf, flag = b"", 0
        else:
            buf, flag = self.decoder.getstate()
        flag <<= 1
        if self.pendingcr:
            flag |= 1
        return buf, flag

    def setstate(self, state):
        buf, flag = state
        self.pendingcr = bool(flag & 1)
        if self.decoder is not None:
            self.decoder.setstate((buf, flag >> 1))

    def reset(self):
        self.seennl = 0
        self.pendingcr = False
        if self.decoder is not None:
            self.decoder.reset()

    @property
    def newlines(self):
        return (None, "\n", "\r", ("\r", "\n"), "\r\n", ("\n", "\r\n"), ("\r", "\r\n"),
                ("\r", "\n", "\r\n"))[self.seennl]


# ---------------------------------------------------------------------------
# BufferedRWPair, open_code, text_encoding
# ---------------------------------------------------------------------------

def _make_rwpair(base):
    class BufferedRWPair(base):
        """A reader and a writer joined into one buffered stream."""

        def __init__(self, reader, writer, buffer_size=DEFAULT_BUFFER_SIZE):
            if not reader.readable():
                raise _io.UnsupportedOperation("File or stream is not readable.")
            if not writer.writable():
                raise _io.UnsupportedOperation("File or stream is not writable.")
            self.reader = _io.BufferedReader(reader, buffer_size)
            self.writer = _io.BufferedWriter(writer, buffer_size)

        def read(self, size=-1):
            if size is None:
                size = -1
            return self.reader.read(size)

        def readinto(self, b):
            return self.reader.readinto(b)

        def write(self, b):
            return self.writer.write(b)

        def peek(self, size=0):
            return self.reader.peek(size)

        def read1(self, size=-1):
            return self.reader.read1(size)

        def readinto1(self, b):
            return self.reader.readinto1(b)

        def readable(self):
            return self.reader.readable()

        def writable(self):
            return self.writer.writable()

        def flush(self):
            return self.writer.flush()

        def close(self):
            try:
                self.writer.close()
            finally:
                self.reader.close()

        def isatty(self):
            return self.reader.isatty() or self.writer.isatty()

        @property
        def closed(self):
            return self.writer.closed

    BufferedRWPair.__module__ = "_io"
    return BufferedRWPair


def open_code(path):
    """Open path for reading as bytes, as the import system does."""
    if not isinstance(path, str):
        raise TypeError("open_code() argument 'path' must be str, not %s" % type(path).__name__)
    return _io.open(path, "rb")


def text_encoding(encoding, stacklevel=2):
    """The encoding a text stream opened with `encoding` uses: "locale"
    for None ("utf-8" in UTF-8 mode)."""
    if encoding is None:
        if getattr(_sys.flags, "utf8_mode", 0):
            return "utf-8"
        if getattr(_sys.flags, "warn_default_encoding", 0):
            import warnings
            warnings.warn("'encoding' argument not specified.", EncodingWarning, stacklevel + 1)
        return "locale"
    return encoding


def _setup(mod):
    global _io
    _io = mod
    _install_all()
    IncrementalNewlineDecoder.__module__ = "_io"
    mod.IncrementalNewlineDecoder = IncrementalNewlineDecoder
    mod.BufferedRWPair = _make_rwpair(mod._BufferedIOBase)
    open_code.__module__ = text_encoding.__module__ = "_io"
    mod.open_code = open_code
    mod.text_encoding = text_encoding
