"""io: the stream classes over tmpy's _io.

CPython's io.py is not used: tmpy's _io has one file type for FileIO,
BufferedReader, BufferedWriter, BufferedRandom and TextIOWrapper, which
CPython's io.py would register as a RawIOBase, a BufferedIOBase and a
TextIOBase at once. Here a file counts as a TextIOBase when it was opened in
text mode and as a BufferedIOBase when opened in binary mode. StringIO and
BytesIO are C types (vm/objects/memoryio.c). The abstract classes give the
default methods the io documentation describes. Not built: BufferedRWPair,
IncrementalNewlineDecoder.
"""
import abc
import sys

from _io import (DEFAULT_BUFFER_SIZE, BlockingIOError, UnsupportedOperation, open, FileIO, BytesIO, StringIO,
                 BufferedReader, BufferedWriter, BufferedRandom, TextIOWrapper)

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


IOBase.register(_FileType)
BufferedIOBase.register(BytesIO)
TextIOBase.register(StringIO)
