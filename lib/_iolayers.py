"""The buffered and text layers of tmpy's _io over Python objects (a
BufferedReader over tarfile's _FileInFile, a TextIOWrapper over a BytesIO or
in another encoding than UTF-8). The C classes (vm/objects/fileobject.c)
call these functions, with self their instance, for the objects that have no
file descriptor under them; the state lives in the instance's __dict__.
Imported when the first such object is made.
"""
import _io
import codecs as _codecs

from _iogeneric import DEFAULT_BUFFER_SIZE, IOBase, _closed_error, _readinto_via, _unsupported

# ---------------------------------------------------------------------------
# Buffered layers over Python objects
# ---------------------------------------------------------------------------

def _reads(self):
    return isinstance(self, (_io.BufferedReader, _io.BufferedRandom))


def _writes(self):
    return isinstance(self, (_io.BufferedWriter, _io.BufferedRandom))


class _Buffered:
    """The buffered layers over a raw object that is not an _io.FileIO.
    State: _raw, _rbuf (bytes read ahead), _rpos, _wbuf (bytearray)."""

    def __init__(self, raw, buffer_size=DEFAULT_BUFFER_SIZE):
        d = self.__dict__
        if _reads(self) and not raw.readable():
            raise _io.UnsupportedOperation("File or stream is not readable.")
        if _writes(self) and not raw.writable():
            raise _io.UnsupportedOperation("File or stream is not writable.")
        if _reads(self) and _writes(self) and not raw.seekable():
            raise _io.UnsupportedOperation("File or stream is not seekable.")
        buffer_size = buffer_size.__index__()
        if buffer_size <= 0:
            raise ValueError("buffer size must be strictly positive")
        d["_raw"] = raw
        d["_bufsize"] = buffer_size
        d["_rbuf"] = b""
        d["_rpos"] = 0
        d["_wbuf"] = bytearray()
        d.pop("_detached", None)

    def _r(self):
        raw = self.__dict__.get("_raw")
        if raw is None:
            if self.__dict__.get("_detached"):
                raise ValueError("raw stream has been detached")
            raise ValueError("I/O operation on uninitialized object")
        return raw

    def _unread(self):
        d = self.__dict__
        return len(d["_rbuf"]) - d["_rpos"]

    def _drop_read_ahead(self):
        """Give back what was read ahead (before writing or seeking)."""
        d = self.__dict__
        n = len(d["_rbuf"]) - d["_rpos"]
        d["_rbuf"] = b""
        d["_rpos"] = 0
        if n:
            d["_raw"].seek(-n, 1)

    def _take(self, n):
        d = self.__dict__
        pos = d["_rpos"]
        data = d["_rbuf"][pos:pos + n] if n >= 0 else d["_rbuf"][pos:]
        d["_rpos"] = pos + len(data)
        return data

    def _fill(self):
        """One raw read into the empty buffer: its length, or None."""
        d = self.__dict__
        data = d["_raw"].read(d["_bufsize"])
        if data is None:
            return None
        d["_rbuf"] = bytes(data)
        d["_rpos"] = 0
        return len(data)

    def _check_readable(self):
        raw = _Buffered._r(self)
        if not _reads(self):
            _unsupported("read")
        if raw.closed:
            raise ValueError("read of closed file")
        if _writes(self):
            _Buffered._flush_writes(self)
        return raw

    def read(self, size=-1):
        raw = _Buffered._check_readable(self)
        if size is None:
            size = -1
        size = size.__index__()
        if size < -1:
            raise ValueError("read length must be non-negative or -1")
        chunks = [_Buffered._take(self, size)]
        have = len(chunks[0])
        if size < 0:
            readall = getattr(raw, "readall", None)
            if readall is not None:
                data = readall()
                if data is None:
                    return chunks[0] or None
                chunks.append(data)
                return b"".join(chunks)
            while True:
                data = raw.read(self.__dict__["_bufsize"])
                if data is None:
                    if have == 0:
                        return None
                    break
                if not data:
                    break
                chunks.append(data)
                have += len(data)
            return b"".join(chunks)
        while have < size:
            n = _Buffered._fill(self)
            if n is None:
                if have == 0:
                    return None
                break
            if n == 0:
                break
            got = _Buffered._take(self, size - have)
            chunks.append(got)
            have += len(got)
        return b"".join(chunks)

    def read1(self, size=-1):
        _Buffered._check_readable(self)
        if size is None:
            size = -1
        size = size.__index__()
        if size == 0:
            return b""
        if _Buffered._unread(self) == 0:
            if _Buffered._fill(self) is None:
                return None
        return _Buffered._take(self, size)

    def peek(self, size=0):
        _Buffered._check_readable(self)
        if _Buffered._unread(self) == 0:
            _Buffered._fill(self)
        d = self.__dict__
        return d["_rbuf"][d["_rpos"]:]

    def readinto(self, b):
        return _readinto_via(self, b, self.read)

    def readinto1(self, b):
        return _readinto_via(self, b, self.read1)

    def readline(self, size=-1):
        _Buffered._check_readable(self)
        if size is None:
            size = -1
        size = size.__index__()
        d = self.__dict__
        chunks = []
        have = 0
        while size < 0 or have < size:
            if _Buffered._unread(self) == 0:
                n = _Buffered._fill(self)
                if not n:
                    break
            buf, pos = d["_rbuf"], d["_rpos"]
            end = buf.find(b"\n", pos)
            end = len(buf) if end < 0 else end + 1
            if size >= 0:
                end = min(end, pos + size - have)
            chunks.append(buf[pos:end])
            have += end - pos
            d["_rpos"] = end
            if buf[end - 1:end] == b"\n":
                break
        return b"".join(chunks)

    def readlines(self, hint=None):
        return IOBase.readlines(self, hint)

    def write(self, b):
        raw = _Buffered._r(self)
        if not _writes(self):
            _unsupported("write")
        if raw.closed:
            raise ValueError("write to closed file")
        if isinstance(b, str):
            raise TypeError("a bytes-like object is required, not 'str'")
        d = self.__dict__
        if _reads(self) and _Buffered._unread(self):
            _Buffered._drop_read_ahead(self)
        with memoryview(b) as view:
            n = view.nbytes
            d["_wbuf"] += view.cast("B") if view.ndim != 1 or view.format != "B" else view
        if len(d["_wbuf"]) > d["_bufsize"]:
            _Buffered._flush_writes(self)
        return n

    def writelines(self, lines):
        return IOBase.writelines(self, lines)

    def _flush_writes(self):
        d = self.__dict__
        buf = d["_wbuf"]
        while buf:
            n = d["_raw"].write(bytes(buf))
            if n is None:
                raise BlockingIOError(11, "write could not complete without blocking", 0)
            if n > len(buf) or n < 0:
                raise OSError("write() returned incorrect number of bytes")
            del buf[:n]

    def flush(self):
        raw = _Buffered._r(self)
        if raw.closed:
            raise ValueError("flush of closed file")
        if _writes(self):
            _Buffered._flush_writes(self)
            if hasattr(raw, "flush"):
                raw.flush()

    def close(self):
        raw = _Buffered._r(self)
        if raw.closed:
            return
        try:
            self.flush()
        finally:
            raw.close()

    def detach(self):
        raw = _Buffered._r(self)
        self.flush()
        d = self.__dict__
        d["_raw"] = None
        d["_detached"] = True
        return raw

    def seek(self, pos, whence=0):
        raw = _Buffered._r(self)
        pos = pos.__index__()
        if whence not in (0, 1, 2):
            raise ValueError("whence value %d unsupported" % whence)
        if raw.closed:
            raise ValueError("seek of closed file")
        if _writes(self):
            _Buffered._flush_writes(self)
        if whence == 1:
            pos -= _Buffered._unread(self)
        d = self.__dict__
        res = raw.seek(pos, whence)
        d["_rbuf"] = b""
        d["_rpos"] = 0
        if res < 0:
            raise OSError("Raw stream returned invalid position %d" % res)
        return res

    def tell(self):
        raw = _Buffered._r(self)
        pos = raw.tell()
        if pos < 0:
            raise OSError("Raw stream returned invalid position %d" % pos)
        pos = pos - _Buffered._unread(self) + len(self.__dict__["_wbuf"])
        return max(pos, 0)

    def truncate(self, pos=None):
        raw = _Buffered._r(self)
        if not _writes(self):
            _unsupported("truncate")
        self.flush()
        if pos is None:
            pos = self.tell()
        if _reads(self):
            _Buffered._drop_read_ahead(self)
        return raw.truncate(pos)

    def fileno(self):
        return _Buffered._r(self).fileno()

    def isatty(self):
        return _Buffered._r(self).isatty()

    def readable(self):
        return _Buffered._r(self).readable()

    def writable(self):
        return _Buffered._r(self).writable()

    def seekable(self):
        return _Buffered._r(self).seekable()

    def __enter__(self):
        if _Buffered._r(self).closed:
            _closed_error()
        return self

    def _get_raw(self):
        return _Buffered._r(self)

    def _get_closed(self):
        return _Buffered._r(self).closed

    def _get_name(self):
        return _Buffered._r(self).name

    def _get_mode(self):
        return _Buffered._r(self).mode


BufferedReader = BufferedWriter = BufferedRandom = _Buffered


# ---------------------------------------------------------------------------
# TextIOWrapper over a Python object or in another encoding
# ---------------------------------------------------------------------------

def _locale_encoding():
    try:
        import locale
        return locale.getpreferredencoding(False) or "utf-8"
    except Exception:
        return "utf-8"


class TextIOWrapper:
    """The text layer the C one does not do. State in the instance dict:
    _buffer, the codec objects, _decoded (str) and _dpos (characters of it
    used), _snapshot (decoder flags, bytes fed) for tell()."""

    def __init__(self, buffer, encoding=None, errors=None, newline=None, line_buffering=False,
                 write_through=False):
        d = self.__dict__
        d.pop("_detached", None)
        if newline is not None and not isinstance(newline, str):
            raise TypeError("TextIOWrapper() argument 'newline' must be str or None, not %s"
                            % type(newline).__name__)
        if newline not in (None, "", "\n", "\r", "\r\n"):
            raise ValueError("illegal newline value: %s" % newline)
        if encoding is None or encoding == "locale":
            encoding = _locale_encoding()
        elif not isinstance(encoding, str):
            raise TypeError("TextIOWrapper() argument 'encoding' must be str or None, not %s"
                            % type(encoding).__name__)
        if "\0" in encoding:
            raise ValueError("embedded null character")
        if errors is None:
            errors = "strict"
        elif not isinstance(errors, str):
            raise TypeError("TextIOWrapper() argument 'errors' must be str or None, not %s"
                            % type(errors).__name__)
        info = _codecs.lookup(encoding)
        if not getattr(info, "_is_text_encoding", True):
            raise LookupError("%r is not a text encoding; use codecs.open() to handle arbitrary codecs"
                              % encoding)
        d["_buffer"] = buffer
        d["_encoding"] = encoding
        d["_errors"] = errors
        d["_line_buffering"] = bool(line_buffering)
        d["_write_through"] = bool(write_through)
        d["_chunk_size"] = 8192
        TextIOWrapper._set_newline(self, newline)
        d["_decoded"] = ""
        d["_dpos"] = 0
        d["_snapshot"] = None
        d["_seekable"] = d["_telling"] = buffer.seekable()
        d["_has_read1"] = hasattr(buffer, "read1")
        d["_decoder"] = d["_encoder"] = None
        if buffer.readable():
            TextIOWrapper._make_decoder(self)
        if buffer.writable():
            d["_encoder"] = _codecs.getincrementalencoder(encoding)(errors)
            if d["_seekable"]:
                # appending to a file with a BOM: no second BOM
                pos = buffer.tell()
                if pos != 0:
                    try:
                        d["_encoder"].setstate(0)
                    except LookupError:
                        pass

    def _set_newline(self, newline):
        d = self.__dict__
        d["_readuniversal"] = not newline
        d["_readtranslate"] = newline is None
        d["_readnl"] = newline
        d["_writetranslate"] = newline != ""
        d["_writenl"] = newline or "\n"

    def _make_decoder(self):
        d = self.__dict__
        dec = _codecs.getincrementaldecoder(d["_encoding"])(d["_errors"])
        if d["_readuniversal"]:
            dec = _io.IncrementalNewlineDecoder(dec, d["_readtranslate"])
        d["_decoder"] = dec
        return dec

    def _b(self):
        d = self.__dict__
        buf = d.get("_buffer")
        if buf is None:
            if d.get("_detached"):
                raise ValueError("underlying buffer has been detached")
            raise ValueError("I/O operation on uninitialized object")
        return buf

    def _check_open(self):
        buf = TextIOWrapper._b(self)
        if buf.closed:
            _closed_error()
        return buf

    # -- attributes --
    def _get_buffer(self):
        return TextIOWrapper._b(self)

    def _get_closed(self):
        return TextIOWrapper._b(self).closed

    def _get_name(self):
        return TextIOWrapper._b(self).name

    def _get_encoding(self):
        TextIOWrapper._b(self)
        return self.__dict__["_encoding"]

    def _get_errors(self):
        TextIOWrapper._b(self)
        return self.__dict__["_errors"]

    def _get_line_buffering(self):
        TextIOWrapper._b(self)
        return self.__dict__["_line_buffering"]

    def _get_write_through(self):
        TextIOWrapper._b(self)
        return self.__dict__["_write_through"]

    def _get_newlines(self):
        dec = self.__dict__.get("_decoder")
        return getattr(dec, "newlines", None) if dec is not None else None

    # -- simple delegation --
    def fileno(self):
        return TextIOWrapper._b(self).fileno()

    def isatty(self):
        return TextIOWrapper._b(self).isatty()

    def readable(self):
        return TextIOWrapper._b(self).readable()

    def writable(self):
        return TextIOWrapper._b(self).writable()

    def seekable(self):
        TextIOWrapper._check_open(self)
        return self.__dict__["_seekable"]

    def __enter__(self):
        TextIOWrapper._check_open(self)
        return self

    def flush(self):
        buf = TextIOWrapper._check_open(self)
        self.__dict__["_telling"] = self.__dict__["_seekable"]
        buf.flush()

    def close(self):
        buf = TextIOWrapper._b(self)
        if buf.closed:
            return
        try:
            self.flush()
        finally:
            buf.close()

    def detach(self):
        buf = TextIOWrapper._b(self)
        self.flush()
        d = self.__dict__
        d["_buffer"] = None
        d["_detached"] = True
        return buf

    # -- writing --
    def write(self, s):
        buf = TextIOWrapper._check_open(self)
        if not isinstance(s, str):
            raise TypeError("write() argument must be str, not %s" % type(s).__name__)
        d = self.__dict__
        if d["_encoder"] is None:
            _unsupported("not writable")
        length = len(s)
        haslf = (d["_writetranslate"] or d["_line_buffering"]) and "\n" in s
        if haslf and d["_writetranslate"] and d["_writenl"] != "\n":
            s = s.replace("\n", d["_writenl"])
        data = d["_encoder"].encode(s)
        if d["_decoded"] or d["_snapshot"] is not None:
            TextIOWrapper._reset_read(self)   # the read-ahead is given back to the buffer's position
        buf.write(data)
        if d["_line_buffering"] and (haslf or "\r" in s):
            self.flush()
        if d["_write_through"]:
            buf.flush()
        return length

    def writelines(self, lines):
        return IOBase.writelines(self, lines)

    def _reset_read(self):
        """A write drops what was decoded ahead (CPython's: the position
        stays where the reading left the buffer)."""
        d = self.__dict__
        d["_decoded"] = ""
        d["_dpos"] = 0
        d["_snapshot"] = None
        if d["_decoder"] is not None:
            d["_decoder"].reset()

    # -- reading --
    def _read_chunk(self):
        """Decode one more chunk from the buffer; False at EOF."""
        d = self.__dict__
        dec = d["_decoder"]
        if dec is None:
            _unsupported("not readable")
        if d["_telling"]:
            dec_buffer, dec_flags = dec.getstate()
        buf = d["_buffer"]
        if d["_has_read1"]:
            chunk = buf.read1(d["_chunk_size"])
        else:
            chunk = buf.read(d["_chunk_size"])
        if chunk is None:
            chunk = b""
        if not isinstance(chunk, (bytes, bytearray, memoryview)):
            raise TypeError("underlying %s() should have returned a bytes-like object, not '%s'"
                            % ("read1" if d["_has_read1"] else "read", type(chunk).__name__))
        chunk = bytes(chunk)
        eof = not chunk
        text = dec.decode(chunk, eof)
        rest = d["_decoded"][d["_dpos"]:]
        d["_decoded"] = rest + text
        d["_dpos"] = 0
        if d["_telling"]:
            if d["_snapshot"] is not None and rest:
                # characters still unread from the previous chunk: keep its start
                flags0, fed0, used0 = d["_snapshot"]
                d["_snapshot"] = (flags0, fed0 + chunk, used0)
            else:
                d["_snapshot"] = (dec_flags, dec_buffer + chunk, 0)
        return not eof

    def _consume(self, n):
        d = self.__dict__
        pos = d["_dpos"]
        s = d["_decoded"][pos:pos + n]
        d["_dpos"] = pos + len(s)
        return s

    def read(self, size=None):
        TextIOWrapper._check_open(self)
        d = self.__dict__
        if d["_decoder"] is None:
            _unsupported("not readable")
        if size is None:
            size = -1
        else:
            try:
                size = size.__index__()
            except AttributeError:
                raise TypeError("argument should be integer or None, not '%s'" % type(size).__name__)
        if d["_encoder"] is not None:
            d["_buffer"].flush()
        if size < 0:
            data = d["_buffer"].read()
            rest = d["_decoded"][d["_dpos"]:]
            text = rest + d["_decoder"].decode(data or b"", final=True)
            d["_decoded"] = ""
            d["_dpos"] = 0
            d["_snapshot"] = None
            return text
        chunks = []
        have = 0
        while have < size:
            s = TextIOWrapper._consume(self, size - have)
            if s:
                chunks.append(s)
                have += len(s)
                continue
            if not TextIOWrapper._read_chunk(self):
                s = TextIOWrapper._consume(self, size - have)
                if s:
                    chunks.append(s)
                    have += len(s)
                break
        return "".join(chunks)

    def _find_line_end(self, line, start):
        """(end of the line ending found at or after start, or -1, and where
        to search next time)."""
        d = self.__dict__
        if d["_readtranslate"]:
            i = line.find("\n", start)
            return (i + 1 if i >= 0 else -1), len(line)
        if d["_readuniversal"]:
            # \r, \n or \r\n; a \r at the very end may still be a \r\n
            i = start
            n = len(line)
            while i < n:
                c = line[i]
                if c == "\n":
                    return i + 1, n
                if c == "\r":
                    if i + 1 < n:
                        return (i + 2 if line[i + 1] == "\n" else i + 1), n
                    return -1, i   # undecided
                i += 1
            return -1, n
        nl = d["_readnl"]
        i = line.find(nl, start)
        if i >= 0:
            return i + len(nl), len(line)
        return -1, max(start, len(line) - len(nl) + 1)

    def _take_rest(self):
        d = self.__dict__
        s = d["_decoded"][d["_dpos"]:]
        d["_dpos"] = len(d["_decoded"])
        return s

    def readline(self, size=-1):
        TextIOWrapper._check_open(self)
        d = self.__dict__
        if d["_decoder"] is None:
            _unsupported("not readable")
        if size is None:
            size = -1
        else:
            size = size.__index__()
        if d["_encoder"] is not None:
            d["_buffer"].flush()
        line = TextIOWrapper._take_rest(self)
        start = 0
        while True:
            end, start = TextIOWrapper._find_line_end(self, line, start)
            if end >= 0:
                break
            if size >= 0 and len(line) >= size:
                end = size
                break
            more = TextIOWrapper._read_chunk(self)
            line += TextIOWrapper._take_rest(self)
            if not more:
                end = len(line)
                break
        if size >= 0 and end > size:
            end = size
        # what follows the line stays decoded (the end of the last chunk)
        rest = len(line) - end
        d["_dpos"] = len(d["_decoded"]) - rest
        if d["_dpos"] < 0:
            d["_decoded"] = line[end:]
            d["_dpos"] = 0
            d["_snapshot"] = None
        return line[:end]

    def readlines(self, hint=None):
        return IOBase.readlines(self, hint)

    def __next__(self):
        d = self.__dict__
        d["_telling"] = False
        line = self.readline()
        if not line:
            d["_snapshot"] = None
            d["_telling"] = d["_seekable"]
            raise StopIteration
        return line

    # -- tell and seek: cookies as CPython's (a number: start position of the
    # decoder's input, its flags, bytes to feed, characters to skip) --
    @staticmethod
    def _pack(position, dec_flags=0, bytes_to_feed=0, need_eof=False, chars_to_skip=0):
        return (position | (dec_flags << 64) | (bytes_to_feed << 128) | (chars_to_skip << 192)
                | bool(need_eof) << 256)

    @staticmethod
    def _unpack(cookie):
        rest, position = divmod(cookie, 1 << 64)
        rest, dec_flags = divmod(rest, 1 << 64)
        rest, bytes_to_feed = divmod(rest, 1 << 64)
        need_eof, chars_to_skip = divmod(rest, 1 << 64)
        return position, dec_flags, bytes_to_feed, bool(need_eof), chars_to_skip

    def tell(self):
        buf = TextIOWrapper._check_open(self)
        d = self.__dict__
        if not d["_seekable"]:
            _unsupported("underlying stream is not seekable")
        if not d["_telling"]:
            raise OSError("telling position disabled by next() call")
        self.flush()
        position = buf.tell()
        dec = d["_decoder"]
        snap = d["_snapshot"]
        if dec is None or snap is None:
            return position
        dec_flags, fed, _ = snap
        position -= len(fed)
        used = d["_dpos"]
        if used == 0:
            return TextIOWrapper._pack(position, dec_flags)
        saved = dec.getstate()
        seennl = getattr(dec, "seennl", None)   # the re-decoding below is not reading
        try:
            dec.setstate((b"", dec_flags))
            chars = 0
            start_pos, start_flags, start_chars = position, dec_flags, 0
            for i in range(len(fed)):
                chars += len(dec.decode(fed[i:i + 1]))
                dbuf, dflags = dec.getstate()
                if not dbuf and chars <= used:
                    start_pos, start_flags, start_chars = position + i + 1, dflags, chars
                    if chars == used:
                        return TextIOWrapper._pack(start_pos, start_flags)
                if chars >= used:
                    skip = used - start_chars
                    fed_n = position + i + 1 - start_pos
                    return TextIOWrapper._pack(start_pos, start_flags, fed_n, False, skip)
            chars += len(dec.decode(b"", final=True))
            return TextIOWrapper._pack(start_pos, start_flags, len(fed) - (start_pos - position), True,
                              used - start_chars)
        finally:
            dec.setstate(saved)
            if seennl is not None:
                dec.seennl = seennl

    def seek(self, cookie, whence=0):
        buf = TextIOWrapper._check_open(self)
        d = self.__dict__
        if not d["_seekable"]:
            _unsupported("underlying stream is not seekable")
        if not isinstance(cookie, int):
            cookie = cookie.__index__()
        if whence == 1:
            if cookie != 0:
                _unsupported("can't do nonzero cur-relative seeks")
            whence = 0
            cookie = self.tell()
        elif whence == 2:
            if cookie != 0:
                _unsupported("can't do nonzero end-relative seeks")
            self.flush()
            position = buf.seek(0, 2)
            d["_decoded"] = ""
            d["_dpos"] = 0
            d["_snapshot"] = None
            if d["_decoder"] is not None:
                d["_decoder"].reset()
            TextIOWrapper._reset_encoder(self, position)
            return position
        if whence != 0:
            raise ValueError("invalid whence (%r, should be 0, 1 or 2)" % (whence,))
        if cookie < 0:
            raise ValueError("negative seek position %r" % (cookie,))
        self.flush()
        position, dec_flags, bytes_to_feed, need_eof, chars_to_skip = TextIOWrapper._unpack(cookie)
        buf.seek(position)
        d["_decoded"] = ""
        d["_dpos"] = 0
        d["_snapshot"] = None
        dec = d["_decoder"]
        if dec is not None:
            if cookie == 0:
                dec.reset()
            else:
                dec.setstate((b"", dec_flags))
            d["_snapshot"] = (dec_flags, b"", 0)
        if chars_to_skip:
            fed = buf.read(bytes_to_feed)
            d["_decoded"] = dec.decode(fed, need_eof)
            d["_snapshot"] = (dec_flags, fed, 0)
            if len(d["_decoded"]) < chars_to_skip:
                raise OSError("can't restore logical file position")
            d["_dpos"] = chars_to_skip
        TextIOWrapper._reset_encoder(self, cookie)
        return cookie

    def _reset_encoder(self, position):
        enc = self.__dict__["_encoder"]
        if enc is not None:
            if position != 0:
                enc.setstate(0)
            else:
                enc.reset()

    def truncate(self, pos=None):
        buf = TextIOWrapper._check_open(self)
        self.flush()
        if pos is None:
            pos = self.tell()
        return buf.truncate(pos)

    def reconfigure(self, *, encoding=None, errors=None, newline=Ellipsis, line_buffering=None,
                    write_through=None):
        TextIOWrapper._check_open(self)
        d = self.__dict__
        if d["_decoder"] is not None and (encoding is not None or errors is not None
                                          or newline is not Ellipsis):
            if d["_decoded"][d["_dpos"]:]:
                _unsupported("It is not possible to set the encoding or newline of stream after the first read")
        if encoding is None:
            if errors is None:
                errors = d["_errors"]
            encoding = d["_encoding"]
        else:
            if not isinstance(encoding, str):
                raise TypeError("reconfigure() argument 'encoding' must be str or None, not %s"
                                % type(encoding).__name__)
            if encoding == "locale":
                encoding = _locale_encoding()
            if errors is None:
                errors = "strict"
            _codecs.lookup(encoding)
        if newline is Ellipsis:
            newline = d["_readnl"]
        elif newline is not None and newline not in ("", "\n", "\r", "\r\n"):
            raise ValueError("illegal newline value: %s" % newline)
        self.flush()
        d["_encoding"] = encoding
        d["_errors"] = errors
        TextIOWrapper._set_newline(self, newline)
        if d["_decoder"] is not None:
            TextIOWrapper._make_decoder(self)
        if d["_encoder"] is not None:
            d["_encoder"] = _codecs.getincrementalencoder(encoding)(errors)
        if line_buffering is not None:
            d["_line_buffering"] = bool(line_buffering)
        if write_through is not None:
            d["_write_through"] = bool(write_through)
