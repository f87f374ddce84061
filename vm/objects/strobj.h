/* strings area: str, bytes, bytearray, StrBuf, formatting (str.c, strbuf.c,
 * bytes.c, format.c, unicodedb.c). What tmpy.h declares is not repeated. */
#ifndef TMPY_STROBJ_H
#define TMPY_STROBJ_H

#include "tmpy.h"

#include <string.h>

/* A growable byte buffer in C memory (no GC concerns) for building strings.
 * It never grows past vm_max_object_size(): like running out of memory, that
 * poisons it (later adds do nothing; sb_finish raises MemoryError). */
typedef struct StrBuf { char *p; size_t len, cap; } StrBuf;
void sb_init(StrBuf *b);
void sb_add(StrBuf *b, const char *s, size_t n);
bool sb_reserve(StrBuf *b, size_t n);      /* room for n more bytes and a NUL; false: out of memory (poisoned) */
void sb_add_repeat(StrBuf *b, const char *unit, size_t n, int64_t count);   /* count copies (count <= 0: none) */
void sb_nomemory(StrBuf *b);              /* poison it (a size known to be too big) */
static inline bool sb_failed(const StrBuf *b) { return b->cap == SIZE_MAX; }
void sb_adds(StrBuf *b, const char *s);
void sb_addc(StrBuf *b, char c);
void sb_add_str(StrBuf *b, Obj s);        /* append a str's UTF-8 */
void sb_add_codepoint(StrBuf *b, uint32_t cp);
void sb_printf(StrBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
Obj sb_finish(StrBuf *b);                 /* a str; frees the buffer; NULL (MemoryError) on failure */
void sb_free(StrBuf *b);

/* ---- The core str / bytes API ---- */
/* str_new: UTF-8 as str stores it (lone surrogates as their 3-byte form).
 * It checks: a byte that is not part of that becomes U+DC00+byte, so no str
 * ever holds invalid UTF-8 (but text from the OS goes through str_from_os). */
Obj str_new(const char *utf8, size_t nbytes);
Obj str_from_cstr(const char *s);
/* Text the OS hands in (argv, file names, environment, getcwd, readlink):
 * strict UTF-8 decoded with surrogateescape as CPython does (an undecodable
 * byte b becomes U+DC00+b; encoded surrogates are undecodable too). */
Obj str_from_os(const char *p, size_t n);
Obj str_from_os_cstr(const char *p);
/* A str's bytes for the OS (surrogateescape: U+DC80..U+DCFF become the bytes
 * 0x80..0xFF again): malloc'd, NUL-terminated, length in *n (n may be NULL).
 * NULL with UnicodeEncodeError (another lone surrogate) or MemoryError. */
char *str_to_os(Obj s, size_t *n);
Obj str_from_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
Obj str_intern_cstr(const char *s);                  /* the interned (pinned, never freed) str */
Obj str_intern(Obj s);                               /* interned equivalent of s */
bool str_eq(Obj a, Obj b);                           /* both str */
bool str_eq_cstr(Obj s, const char *c);
int64_t str_hash(Obj s);
Obj str_concat(Obj a, Obj b);
Obj str_from_codepoint(uint32_t cp);
Obj str_join(Obj sep, Obj iterable);
Obj bytes_new(const char *data, size_t n);
Obj bytearray_new(const char *data, size_t n);
/* format.c */
Obj format_int(Obj v, Obj spec);          /* int.__format__ */
Obj format_float(double d, Obj spec);     /* float.__format__ */
Obj format_complex(double re, double im, Obj spec);   /* complex.__format__ (spec not empty) */
Obj format_str(Obj s, Obj spec);          /* str.__format__ */
Obj str_format_method(Obj *args, size_t nargs, Obj kwnames);   /* str.format */
Obj str_percent_format(Obj fmt, Obj values);                   /* fmt % values */
Obj bytes_percent_format(Obj fmt, Obj values);

/* ---- str internals ---- */
bool str_isidentifier(Obj s);   /* str.isidentifier() */
static inline bool str_is_ascii(Obj s) { return STR(s)->length == STR(s)->nbytes; }
/* A str of nbytes bytes and `length` code points whose data the caller fills
 * right away (through VM_LINEAR(STR(s)->data)); NUL already in place. */
Obj str_alloc(int64_t nbytes, int64_t length);
/* Byte offset of code point index i (0 <= i <= length). O(1) for ASCII; for
 * other strings a per-thread cursor makes sequential access O(1) amortised. */
int64_t str_byte_offset(Obj s, int64_t i);
/* Invalidate that cursor (STM: after an abort, which reuses nursery
 * addresses without a collection). */
void str_cursor_reset(void);
/* s[start:stop] in code points (0 <= start <= stop <= length). */
Obj str_substr(Obj s, int64_t start, int64_t stop);
/* isinstance(v, str): the str value (unwrapped from a subclass instance) or NULL. */
static inline Obj str_value(Obj v)
{
    if (IS_STR(v))
        return v;
    v = vm_unwrap(v);
    return IS_STR(v) ? v : NULL;
}
/* cp as \xhh, \uhhhh or \Uhhhhhhhh (repr, ascii(), backslashreplace). */
void sb_add_escape(StrBuf *b, uint32_t cp);
/* The hash of a byte string (str hashes its UTF-8 this way; bytes too, so
 * hash(b'ab') == hash('ab') as in CPython). Never -1. */
int64_t hash_data(const void *p, size_t n);
Obj str_ascii_escape(Obj repr);           /* ascii(): non-ASCII of a repr as \x.. \u.... \U........ */

/* ---- argument helpers shared by str.c, bytes.c, format.c ---- */
/* An integer argument through __index__ (small-int fast path); 0 or -1. */
int arg_i64(Obj v, int64_t *out);
/* An argument CPython takes as a Py_ssize_t: arg_i64 with the converter's
 * OverflowError "Python int too large to convert to C ssize_t". 0 or -1. */
int arg_ssize(Obj v, int64_t *out);
/* An argument CPython takes as a C int: OverflowError "Python int too large
 * to convert to C int" outside its range. 0 or -1. */
int arg_c_int(Obj v, int64_t *out);
/* start/end arguments of find() & co.: NULL/None keep *out; big ints clamp. 0 or -1. */
int slice_arg(Obj v, int64_t *out);
/* end clamped to [0, len], start made >= 0 (start may stay > len). */
void adjust_range(int64_t *start, int64_t *end, int64_t len);
#ifdef _GNU_SOURCE   /* memmem: str.c and bytes.c define it before any include */
#include <string.h>
/* First occurrence of needle (nn > 0) in hay, or NULL (memchr for one byte:
 * much cheaper than memmem's set-up). */
static inline const char *mem_find(const char *hay, size_t hn, const char *needle, size_t nn)
{
    if (nn == 1)
        return memchr(hay, (unsigned char)needle[0], hn);
    return memmem(hay, hn, needle, nn);
}
#endif
/* Last occurrence of needle in hay, or NULL. */
const char *mem_rfind(const char *hay, size_t hn, const char *needle, size_t nn);
/* Count operand of seq * n: 1 ok, 0 NotImplemented (a user class with __rmul__), -1 error. */
int repeat_count(Obj count, int64_t *out);

/* ---- byte-level algorithms shared by str and bytes/bytearray (str.c) ----
 * `utf8` says what one character is: a UTF-8 sequence (str) or a byte. */
/* data/length of a str, bytes or bytearray (linear: valid until the next allocation). */
typedef const char *(*seq_data_fn)(Obj v, int64_t *n);
/* A new object of the same kind holding bytes [b0, b1) of the one in *vp (a root slot). */
typedef Obj (*seq_piece_fn)(Obj *vp, int64_t b0, int64_t b1);
/* Is p inside this thread's GC segment (a linear pointer into an object that
 * an allocation may move)? */
static inline bool in_gc_heap(const void *p)
{
    return (uintptr_t)((const char *)p - tm_gs_base) < tm_seg.segment_size;
}
/* data itself, or (when it points into the GC heap) a copy of it in small
 * (n <= smalln) or in *heap (malloc'd, caller frees; NULL return: no memory). */
const char *stable_copy(const char *data, size_t n, char *small, size_t smalln, char **heap);
/* d[0..n) holds one copy: repeat it up to d[total). */
void mem_repeat(void *d, int64_t n, int64_t total);
/* Non-overlapping occurrences of needle (nn > 0) in hay. */
int64_t mem_count(const char *hay, size_t hn, const char *needle, size_t nn);
/* p.replace(q, w, count) appended to b (count >= 0). */
void sb_replace(StrBuf *b, const char *p, int64_t n, const char *q, int64_t qn, const char *w, int64_t wn,
                int64_t count, bool utf8);
/* p.expandtabs(tabsize) appended to b. */
void sb_expandtabs(StrBuf *b, const char *p, int64_t n, int64_t tabsize, bool utf8);
/* split()/rsplit() of *sp into the list *lp (all root slots): *sepp NULL splits
 * on whitespace (str's Unicode whitespace when utf8, else ASCII whitespace
 * bytes). maxsplit < 0: no limit. 0 or -1. */
int split_into(Obj *sp, Obj *sepp, Obj *lp, int64_t maxsplit, bool rev, bool utf8, seq_data_fn data,
               seq_piece_fn piece);
/* splitlines() of *sp into *lp: str's line boundaries when utf8, else \n, \r, \r\n. */
int splitlines_into(Obj *sp, Obj *lp, bool keepends, bool utf8, seq_data_fn data, seq_piece_fn piece);
/* seq * count and count * seq: value(v) is the sequence value of v or NULL,
 * repeat(seq, n) does the work. */
Obj seq_mul_slot(Obj a, Obj b, Obj (*value)(Obj), Obj (*repeat)(Obj, int64_t));

/* ---- UTF-8 ---- */
/* Decode one code point of valid (internal) UTF-8 at p; *len gets its byte length. */
static inline uint32_t utf8_decode(const unsigned char *p, int *len)
{
    unsigned c = p[0];
    if (c < 0x80) { *len = 1; return c; }
    if (c < 0xe0) { *len = 2; return ((c & 0x1f) << 6) | (p[1] & 0x3f); }
    if (c < 0xf0) { *len = 3; return ((c & 0x0f) << 12) | ((p[1] & 0x3f) << 6) | (p[2] & 0x3f); }
    *len = 4;
    return ((c & 0x07) << 18) | ((p[1] & 0x3f) << 12) | ((p[2] & 0x3f) << 6) | (p[3] & 0x3f);
}
/* Encode cp (surrogates allowed: str may hold them) into out; returns 1..4. */
static inline int utf8_encode(uint32_t cp, char *out)
{
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
    if (cp < 0x800) { out[0] = (char)(0xc0 | (cp >> 6)); out[1] = (char)(0x80 | (cp & 0x3f)); return 2; }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | (cp >> 12)); out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f)); return 3;
    }
    out[0] = (char)(0xf0 | (cp >> 18)); out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3f)); out[3] = (char)(0x80 | (cp & 0x3f)); return 4;
}
static inline int utf8_lead_len(unsigned char c)
{
    return c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
}
/* Code points in n bytes of valid UTF-8. */
int64_t utf8_count(const char *p, size_t n);
/* Length of the longest valid strict UTF-8 prefix of p[0..n) (no surrogates);
 * == n when all of it is valid. */
size_t utf8_valid_prefix(const char *p, size_t n);
/* Does str's UTF-8 p[0..n) hold a lone surrogate (ED A0..BF xx)? */
static inline bool utf8_has_surrogate(const char *p, size_t n)
{
    const char *end = p + n;
    for (const char *q = p; (q = memchr(q, 0xed, (size_t)(end - q))) != NULL; q++)
        if (q + 1 < end && (unsigned char)q[1] >= 0xa0)
            return true;
    return false;
}
/* str's UTF-8 p[0..n) to the OS's bytes in place: each U+DC80..U+DCFF (a
 * byte surrogateescape kept) becomes that byte again. The new length (a NUL
 * is written there). For a C string that came from a str (a file name). */
size_t utf8_unescape_os(char *p, size_t n);

/* ---- Unicode database (unicodedb.c, generated) ---- */
bool uni_isalpha(uint32_t cp);
bool uni_isdecimal(uint32_t cp);
bool uni_isdigit(uint32_t cp);
bool uni_isnumeric(uint32_t cp);
bool uni_isspace(uint32_t cp);
bool uni_isprintable(uint32_t cp);
bool uni_isupper(uint32_t cp);
bool uni_islower(uint32_t cp);
bool uni_istitle(uint32_t cp);
bool uni_iscased(uint32_t cp);
bool uni_iscaseignorable(uint32_t cp);
bool uni_isxidstart(uint32_t cp);
bool uni_isxidcontinue(uint32_t cp);
/* unicodenorm.c: the NFKC form of n bytes of UTF-8, malloc'd and NUL-terminated
 * (its length in *outlen); NULL if out of memory. */
char *uni_nfkc_utf8(const char *s, size_t n, size_t *outlen);
/* unicodenorm.c: normalisation over a database's one-level decompositions
 * (UnicodeData.txt's, with their <tag>) and primary composites: the
 * interpreter's Unicode 14.0.0 ones (uni_norm_db, also the unicodedata
 * module's) or unicodedata.ucd_3_2_0's. Canonical order uses today's
 * combining classes, as CPython's ucd_3_2_0 does. */
typedef struct UniPair { uint32_t first, second, composite; } UniPair;
typedef struct UniNormDb {
    int ndecomp;
    const uint32_t *decomp_cp;      /* sorted */
    const uint8_t *decomp_tag;      /* index into tag_names; 0: canonical */
    const uint16_t *decomp_off;     /* decomposition i: decomp_data[off[i] .. off[i+1]) */
    const uint32_t *decomp_data;
    const char *const *tag_names;   /* "", "<compat>", ... */
    int npairs;
    const UniPair *pairs;           /* sorted by (first, second) */
    const uint32_t (*corrections)[2];   /* code points that decompose to another one instead */
    int ncorrections;
} UniNormDb;
extern const UniNormDb uni_norm_db;
int uni_decomp_index(const UniNormDb *db, uint32_t cp);   /* -1: no decomposition */
/* The NFC/NFD/NFKC/NFKD form of n code points, malloc'd (*outn of them);
 * NULL if out of memory. */
uint32_t *uni_normalize(const UniNormDb *db, const uint32_t *in, size_t n, bool compose, bool compat, size_t *outn);
/* unicodenames.c: the code point of a character name (\N{...}); false if none. */
bool uni_lookup_name(const char *name, size_t n, uint32_t *cp);
/* unicodenames.c: the name of a code point (unicodedata.name); false if none. */
#define UNI_NAME_MAX 256
bool uni_name_of(uint32_t cp, char *out, size_t cap);
int uni_decimal_value(uint32_t cp);       /* 0..9 for category Nd, else -1 (int('٣') etc.) */
/* Full case mappings: write 1..3 code points to out, return how many. */
int uni_tolower(uint32_t cp, uint32_t out[3]);
int uni_toupper(uint32_t cp, uint32_t out[3]);
int uni_totitle(uint32_t cp, uint32_t out[3]);
int uni_tocasefold(uint32_t cp, uint32_t out[3]);
/* Python's whitespace (str.split() / strip()), fast for ASCII. */
static inline bool str_isspace_cp(uint32_t cp)
{
    if (cp < 128)
        return cp == ' ' || (cp >= 9 && cp <= 13) || (cp >= 28 && cp <= 31);
    return uni_isspace(cp);
}

/* ---- bytes / bytearray (bytes.c) ---- */
#define BYTES(v) ((BytesObj *)(v))
#define BYTEARRAY(v) ((ByteArrayObj *)vm_rd(v))
/* Data pointer of a bytearray (segment pointer; the RawObj may be NULL when empty). */
static inline unsigned char __seg_gs *bytearray_data(Obj ba)
{
    Obj raw = BYTEARRAY(ba)->raw;
    return raw ? (RAW(raw))->data + BYTEARRAY(ba)->start : (unsigned char __seg_gs *)0;
}
/* The storage of a bytes or bytearray (not unwrapped, not a memoryview):
 * its data, segment-relative (NULL for an empty bytearray), and length. The
 * one accessor under bytes_like and memoryviews' bases. */
static inline unsigned char __seg_gs *bytes_storage(Obj v, int64_t *n)
{
    if (TID(v) == TID_BYTES) {
        *n = BYTES(v)->length;
        return (unsigned char __seg_gs *)BYTES(v)->data;
    }
    *n = BYTEARRAY(v)->length;
    return bytearray_data(v);
}
Obj bytes_alloc(int64_t n);               /* zeroed bytes of length n */
/* bytes-like (bytes, bytearray, subclasses unwrapped, or a C-contiguous memoryview): data and length in
 * *p and *n (linear, valid until the next allocation); false if v is not one. */
bool bytes_like(Obj v, const char **p, int64_t *n);
/* bytes_like for an argument: false with TypeError "a bytes-like object is
 * required" if v is not one. */
bool bytes_like_arg(Obj v, const char **p, int64_t *n);
/* bytes_like, or the UTF-8 of a str (subclasses unwrapped): the text that
 * int() and float() parse. */
bool str_or_bytes_like(Obj v, const char **p, int64_t *n);
/* memoryview.c: the data of a C-contiguous memoryview that is not released
 * (as bytes_like); false otherwise. */
bool memview_contiguous_data(Obj mv, const char **p, int64_t *n);
/* memoryview.c: v is a memoryview that memview_contiguous_data refuses: sets
 * CPython's error for a C-contiguous buffer request (ValueError "operation
 * forbidden on released memoryview object", BufferError "memoryview:
 * underlying buffer is not C-contiguous") and returns true; else false. */
bool memview_buffer_error(Obj v);
/* memoryview.c: how many memoryviews not released over the bytearray in *bap
 * are still alive (a major collection finds them; *bap is re-read after). */
int64_t memview_live_exports(Obj *bap);
/* memoryview.c: the writable buffer of v (a bytearray, an array.array's storage, a writable mmap, a
 * writable C-contiguous memoryview): its length, or -1 if v is none; and a store of n bytes at offset
 * into it (through its barrier; inevitable for a map): 0, or -1 with BufferError if it shrank. */
int64_t writable_buffer_len(Obj v);
int writable_buffer_store(Obj v, int64_t offset, const void *src, int64_t n);
/* The census alone: how many views of *basep (any base, in a root slot) are alive and not released. */
int64_t memview_live_views(Obj *basep);
/* str.encode / bytes.decode (encoding, errors: C strings, NULL = defaults). */
Obj str_encode(Obj s, const char *encoding, const char *errors);
Obj bytes_decode(Obj b, const char *encoding, const char *errors);   /* b: bytes or bytearray */
/* str_encode as str.encode does it: a plain exception of a codec CPython
 * reaches through its registry wrapped as there. */
Obj str_encode_method(Obj s, const char *encoding, const char *errors);
/* Raise UnicodeDecodeError / UnicodeEncodeError(encoding, *objp, start, end,
 * reason); *objp is in a root slot. */
/* What item 0 (encode) or 1 (decode) of a codecs.CodecInfo makes of obj. */
Obj codec_info_call(Obj info, bool encode, Obj obj, Obj errors, const char *encoding);   /* encoding: for messages */
void raise_codec_error(TypeObj *type, const char *enc, Obj *objp, int64_t start, int64_t end, const char *reason);
Obj str_from_bytes_args(Obj b, Obj encoding, Obj errors);            /* str(b, encoding, errors) */
/* codecerror.c: the codec error handlers' registry (codec_errors_init at
 * start-up; _codecs registers the built-in handlers in it) and calling one
 * from a C codec. */
void codec_errors_init(void);
Obj codec_errors_registry(void);   /* the dict name -> handler */

/* The errors argument of a codec function: NULL (strict) for None or
 * absent, else its text copied into buf; -1 with TypeError "fname()
 * argument argno must be str or None, not T" (argno 0: argument 'errors'). */
int codecs_errors_arg(const char *fname, int argno, Obj e, char *buf, size_t cap, const char **out);

/* The flags of the two below: CODEC_ERR_REREAD (decoders: *inputp becomes
 * the exception's object after the call, bytes, which a handler may have
 * replaced, as CPython's UTF and escape decoders go on in it; the position
 * counts in it), CODEC_ERR_BYTES_OK (encoders: a bytes replacement too),
 * CODEC_ERR_MULTIBYTE (CPython's multibyte codecs: a position too big for
 * C is out of bounds, IndexError, not OverflowError; it must be an int).
 * excp: a root slot (NULL at the start of the codec's call) that keeps the
 * exception for the next error of the same call, as CPython reuses it; or
 * NULL. */
enum { CODEC_ERR_REREAD = 1, CODEC_ERR_BYTES_OK = 2, CODEC_ERR_MULTIBYTE = 4 };
/* A decode error over [start, end) of the bytes-like *inputp (a root slot)
 * handed to the handler named errors (NULL: strict) as CPython's codecs do
 * (PEP 293): its replacement is appended to out and the position to go on
 * at is returned; -1 with the exception set (strict, a handler that raised,
 * or one that returned something other than (str, int) with a position in
 * range: TypeError "decoding error handler must return (str, int) tuple",
 * IndexError, OverflowError). */
int64_t codecs_decode_error(const char *errors, const char *encoding, const char *reason, Obj *inputp,
                            int64_t start, int64_t end, StrBuf *out, int flags, Obj *excp);

/* An encode error over characters [start, end) of the str *inputp (a root
 * slot): *replp (a root slot) gets the handler's replacement, a str or
 * (CODEC_ERR_BYTES_OK) bytes; the position to go on at is returned, or -1
 * as above (TypeError type_msg). */
int64_t codecs_encode_error(const char *errors, const char *encoding, const char *reason, Obj *inputp,
                            int64_t start, int64_t end, Obj *replp, int flags, const char *type_msg, Obj *excp);

/* ---- formatting (format.c) ---- */
/* str.format_map(mapping). */
Obj str_format_map(Obj fmt, Obj mapping);

#endif
