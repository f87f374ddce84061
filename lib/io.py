"""io: the stream classes over tmpy's _io.

CPython's io.py is not used: tmpy's _io has one file type for FileIO,
BufferedReader, BufferedWriter, BufferedRandom and TextIOWrapper, which
CPython's io.py would register as a RawIOBase, a BufferedIOBase and a
TextIOBase at once. Here a file counts as a TextIOBase when it was opened in
text mode and as a BufferedIOBase when opened in binary mode. StringIO and
BytesIO are C types (vm/objects/memoryio.c). The abstract classes give the
default methods the io documentation describes. TextIOWrapper is a class
here that puts text over any binary buffer (tokenize.open and linecache
use it); a file tmpy opened in text mode also counts as one. Not built:
BufferedRWPair, IncrementalNewlineDecoder.
"""
import abc
import sys

from _io import (DEFAULT_BUFFER_SIZE, BlockingIOError, UnsupportedOperation, open, FileIO, BytesIO, StringIO,
                 BufferedReader, BufferedWriter, BufferedRandom)

__all__ = ["BlockingIOError", "open", "open_code", "IOBase", "RawIOBase", "FileIO", "BytesIO", "StringIO",
           "BufferedIOBase", "BufferedReader", "BufferedWriter", "BufferedRandom", "TextIOBase",
           "TextIOWrapper", "UnsupportedOperation", "SEEK_SET", "SEEK_CUR", "SEEK_END", "DEFAULT_BUFFER_SIZE",
           "text_encoding"]

SEEK_SET = 0
SEEK_CUR = 1
SEEK_END = 2

_FileType = type(sys.stdout)


def open_code(path):
    """Open path for reading as bytes, as the import system would."""
    if not isinstance(path, str):
        raise TypeError(f"open_code() argument 'path' must be str, not {type(path).__name__}")
    return open(path, "rb")


def text_encoding(encoding, stacklevel=2):
    """The encoding a text file opened with `encoding` uses: 'locale' for
    None ('utf-8' in UTF-8 mode)."""
    if encoding is None:
        return "utf-8" if getattr(sys.flags, "utf8_mode", 0) else "locale"
    return encoding


class _StreamMeta(abc.ABCMeta):
    """ABCMeta that also sorts tmpy's single file type by its mode."""

    def __instancecheck__(cls, instance):
        kind = vars(cls).get("_file_kind")   # "text" or "binary": files this very class covers
        if type(instance) is _FileType and kind is not None:
            return ("b" in getattr(instance, "mode", "")) == (kind == "binary")
        return super().__instancecheck__(instance)


class IOBase(metaclass=_StreamMeta):
    """The base of all streams: closing, context management, iteration over
    lines; operations a stream lacks raise UnsupportedOperation."""

    def _unsupported(self, name):
        raise UnsupportedOperation(f"{type(self).__name__}.{name}() not supported")

    def seek(self, pos, whence=0):
        self._unsupported("seek")

    def tell(self):
        return self.seek(0, 1)

    def truncate(self, pos=None):
        self._unsupported("truncate")

    def flush(self):
        self._checkClosed()

    __closed = False

    def close(self):
        if not self.__closed:
            try:
                self.flush()
            finally:
                self.__closed = True

    @property
    def closed(self):
        return self.__closed

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
            raise UnsupportedOperation("File or stream is not seekable." if msg is None else msg)

    def _checkReadable(self, msg=None):
        if not self.readable():
            raise UnsupportedOperation("File or stream is not readable." if msg is None else msg)

    def _checkWritable(self, msg=None):
        if not self.writable():
            raise UnsupportedOperation("File or stream is not writable." if msg is None else msg)

    def __enter__(self):
        self._checkClosed()
        return self

    def __exit__(self, *args):
        self.close()

    def fileno(self):
        self._unsupported("fileno")

    def isatty(self):
        self._checkClosed()
        return False

    def readline(self, size=-1):
        """Bytes up to and including the next b'\\n' (at most size), read one
        at a time."""
        if size is None:
            size = -1
        line = bytearray()
        while size < 0 or len(line) < size:
            b = self.read(1)
            if not b:
                break
            line += b
            if line.endswith(b"\n"):
                break
        return bytes(line)

    def __iter__(self):
        self._checkClosed()
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def readlines(self, hint=None):
        if hint is None or hint <= 0:
            return list(self)
        lines, total = [], 0
        for line in self:
            lines.append(line)
            total += len(line)
            if total >= hint:
                break
        return lines

    def writelines(self, lines):
        self._checkClosed()
        for line in lines:
            self.write(line)


class RawIOBase(IOBase):
    """Unbuffered binary streams: read() over readinto()."""

    def read(self, size=-1):
        if size is None:
            size = -1
        if size < 0:
            return self.readall()
        b = bytearray(size)
        n = self.readinto(b)
        if n is None:
            return None
        del b[n:]
        return bytes(b)

    def readall(self):
        chunks = bytearray()
        while True:
            data = self.read(DEFAULT_BUFFER_SIZE)
            if not data:
                break
            chunks += data
        return bytes(chunks)

    def readinto(self, b):
        self._unsupported("readinto")

    def write(self, b):
        self._unsupported("write")


class BufferedIOBase(IOBase):
    """Buffered binary streams: readinto() over read()."""

    _file_kind = "binary"

    def read(self, size=-1):
        self._unsupported("read")

    def read1(self, size=-1):
        self._unsupported("read1")

    def write(self, b):
        self._unsupported("write")

    def detach(self):
        self._unsupported("detach")

    def readinto(self, b):
        return self._readinto(b, self.read)

    def readinto1(self, b):
        return self._readinto(b, self.read1)

    def _readinto(self, b, read):
        view = memoryview(b).cast("B")
        data = read(len(view))
        n = len(data)
        view[:n] = data
        return n


class TextIOBase(IOBase):
    """Text streams."""

    _file_kind = "text"

    def read(self, size=-1):
        self._unsupported("read")

    def write(self, s):
        self._unsupported("write")

    def truncate(self, pos=None):
        self._unsupported("truncate")

    def readline(self):
        self._unsupported("readline")

    def detach(self):
        self._unsupported("detach")

    @property
    def encoding(self):
        return None

    @property
    def newlines(self):
        return None

    @property
    def errors(self):
        return None


class TextIOWrapper(TextIOBase):
    """Text over a binary buffer: bytes decoded with an incremental decoder
    of the encoding, newlines translated as `newline` says (None:
    universal on input), text encoded on output."""

    _file_kind = "text"   # tmpy's text-mode files count as TextIOWrappers

    def __init__(self, buffer, encoding=None, errors=None, newline=None, line_buffering=False,
                 write_through=False):
        import codecs
        if encoding is not None and not isinstance(encoding, str):
            raise TypeError(f"TextIOWrapper() argument 'encoding' must be str or None, not {type(encoding).__name__}")
        if newline is not None and not isinstance(newline, str):
            raise TypeError(f"TextIOWrapper() argument 'newline' must be str or None, not {type(newline).__name__}")
        if newline not in (None, "", "\n", "\r", "\r\n"):
            raise ValueError(f"illegal newline value: {newline}")
        encoding = text_encoding(encoding)
        if encoding == "locale":
            encoding = "UTF-8"   # tmpy's locale encoding, as its open() reports it
        self._buffer = buffer
        codecs.lookup(encoding)   # LookupError for an unknown one
        self._encoding = encoding
        self._errors = "strict" if errors is None else errors
        self._newline = newline
        self._line_buffering = line_buffering
        self._write_through = write_through
        self._decoder = codecs.getincrementaldecoder(encoding)(self._errors)
        self._pending = ""        # decoded text not returned yet
        self._held_cr = False     # universal newlines: a \r at a chunk's end waits for a \n

    buffer = property(lambda self: self._buffer)
    encoding = property(lambda self: self._encoding)
    errors = property(lambda self: self._errors)
    line_buffering = property(lambda self: self._line_buffering)
    write_through = property(lambda self: self._write_through)

    @property
    def name(self):
        return self._buffer.name

    @property
    def closed(self):
        return self._buffer.closed

    def close(self):
        if not self.closed:
            try:
                self.flush()
            finally:
                self._buffer.close()

    def flush(self):
        self._buffer.flush()

    def fileno(self):
        return self._buffer.fileno()

    def isatty(self):
        return self._buffer.isatty()

    def readable(self):
        return self._buffer.readable()

    def writable(self):
        return self._buffer.writable()

    def seekable(self):
        return self._buffer.seekable()

    def detach(self):
        buffer, self._buffer = self._buffer, None
        return buffer

    def _more(self):
        """Decodes the next chunk into the pending text; False at the end."""
        data = self._buffer.read(DEFAULT_BUFFER_SIZE)
        text = self._decoder.decode(data, final=not data)
        if self._newline is None:
            if self._held_cr:
                text = "\r" + text
                self._held_cr = False
            if data and text.endswith("\r"):
                text = text[:-1]
                self._held_cr = True
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        self._pending += text
        return bool(data) or bool(text)

    def read(self, size=-1):
        self._checkClosed()
        if size is None:
            size = -1
        while (size < 0 or len(self._pending) < size) and self._more():
            pass
        if size < 0:
            size = len(self._pending)
        text, self._pending = self._pending[:size], self._pending[size:]
        return text

    def _line_end(self):
        p = self._pending
        if self._newline in (None, "\n"):
            i = p.find("\n")
            return -1 if i < 0 else i + 1
        if self._newline == "":
            ends = [i for i in (p.find("\r"), p.find("\n")) if i >= 0]
            if not ends:
                return -1
            i = min(ends)
            if p[i] == "\r":
                if i + 1 == len(p):
                    return -1 if self._buffer is not None and not self._at_end else i + 1
                return i + 2 if p[i + 1] == "\n" else i + 1
            return i + 1
        i = p.find(self._newline)
        return -1 if i < 0 else i + len(self._newline)

    _at_end = False

    def readline(self, size=-1):
        self._checkClosed()
        if size is None:
            size = -1
        while True:
            end = self._line_end()
            if end >= 0 or (0 <= size <= len(self._pending)):
                break
            if not self._more():
                self._at_end = True
                end = self._line_end()
                break
        if end < 0:
            end = len(self._pending)
        if 0 <= size < end:
            end = size
        line, self._pending = self._pending[:end], self._pending[end:]
        return line

    def write(self, s):
        self._checkClosed()
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        text = s
        if self._newline in ("\r", "\r\n"):
            text = text.replace("\n", self._newline)
        self._buffer.write(text.encode(self._encoding, self._errors))
        if self._line_buffering and ("\n" in s or "\r" in s):
            self.flush()
        return len(s)

    def tell(self):
        """The buffer's position less what was read ahead (exact for
        encodings without shift states)."""
        self._checkClosed()
        buffered = self._decoder.getstate()[0]
        ahead = len(self._pending.encode(self._encoding, self._errors)) + len(buffered) + self._held_cr
        return self._buffer.tell() - ahead

    def seek(self, cookie, whence=0):
        self._checkClosed()
        if whence == SEEK_CUR and cookie != 0:
            raise UnsupportedOperation("can't do nonzero cur-relative seeks")
        if whence == SEEK_END and cookie != 0:
            raise UnsupportedOperation("can't do nonzero end-relative seeks")
        self.flush()
        if whence == SEEK_CUR:   # where the reader is, not the buffer (it has read ahead)
            cookie, whence = self.tell(), SEEK_SET
        pos = self._buffer.seek(cookie, whence)
        self._decoder.reset()
        self._pending = ""
        self._held_cr = False
        self._at_end = False
        return pos

    def truncate(self, pos=None):
        self.flush()
        return self._buffer.truncate(self.tell() if pos is None else pos)

    def __repr__(self):
        try:
            name = self.name
        except Exception:
            return f"<_io.TextIOWrapper encoding={self._encoding!r}>"
        return f"<_io.TextIOWrapper name={name!r} encoding={self._encoding!r}>"


TextIOWrapper.__module__ = "_io"
IOBase.register(_FileType)
BufferedIOBase.register(BytesIO)
TextIOBase.register(StringIO)
