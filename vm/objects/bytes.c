/* bytes (immutable, data inline after the header, NUL-terminated) and
 * bytearray (mutable: data in a RawObj with spare capacity), their shared
 * methods, their iterators, and the codecs (str.encode / bytes.decode):
 * utf-8, ascii, latin-1 with the common error handlers. */
#define _GNU_SOURCE
#include "objects.h"
#include "strobj.h"
#include "containers.h"

#include <stdlib.h>
#include <string.h>

TypeObj *T_bytes, *T_bytearray, *T_bytes_iterator;
static TypeObj *T_bytearray_iterator;
static Obj empty_bytes;   /* pinned, a global root */

/* s into buf[size] (cut short if longer): snprintf's "%s" costs hundreds
 * of instructions, paid per bytes.decode call. */
static void copy_name(char *buf, size_t size, const char *s)
{
    size_t n = strnlen(s, size - 1);
    memcpy(buf, s, n);
    buf[n] = 0;
}

/* ------------------------------------------------------------------ */
/* Allocation and data access                                          */
/* ------------------------------------------------------------------ */

static Obj get_empty_bytes(void)
{
    if (unlikely(!empty_bytes)) {
        /* A C global: only an inevitable transaction sets it (an aborted
         * one's object would be discarded), and only once. */
        vm_tx_become_inevitable();
        if (empty_bytes)
            return empty_bytes;
        size_t size = tm_type_size(&tm_types[TID_BYTES], 0);
        Obj b = (Obj)tm_allocate_old(TID_BYTES, size);
        if (!b)
            return err_nomemory();
        BYTES(b)->length = 0;
        BYTES(b)->hash = -1;
        empty_bytes = b;
        VM_GLOBAL_ROOT(empty_bytes);
    }
    return empty_bytes;
}

Obj bytes_alloc(int64_t n)
{
    if (n == 0)
        return get_empty_bytes();
    if (n < 0 || (uint64_t)n > (1ull << 40))
        return err_nomemory();
    Obj b = (Obj)tm_allocate(TID_BYTES, tm_types[TID_BYTES].base_size + (size_t)n);
    if (!b)
        return err_nomemory();
    BYTES(b)->length = n;
    BYTES(b)->hash = -1;
    return b;
}

static inline unsigned char *bytes_wdata(Obj b) { return VM_LINEAR(BYTES(b)->data); }

Obj bytes_new(const char *data, size_t n)
{
    if (n == 0)
        return get_empty_bytes();
    char small[256], *heap;
    const char *src = stable_copy(data, n, small, sizeof small, &heap);
    if (!src)
        return err_nomemory();
    Obj b = bytes_alloc((int64_t)n);
    if (b)
        memcpy(bytes_wdata(b), src, n);
    free(heap);
    return b;
}

static Obj raw_alloc(int64_t cap)
{
    Obj r = (Obj)tm_allocate_var(TID_RAW, (uintptr_t)cap);
    if (!r)
        return err_nomemory();
    return r;
}

/* A bytearray of length n (zeroed) with room for at least n bytes. */
static Obj bytearray_alloc(int64_t n)
{
    if (n < 0 || (uint64_t)n > (1ull << 40))
        return err_nomemory();
    Obj *r = vm_roots(1);
    r[0] = (Obj)tm_allocate(TID_BYTEARRAY, sizeof(ByteArrayObj));
    Obj res = NULL;
    if (!r[0]) {
        err_nomemory();
        goto out;
    }
    if (n > 0) {
        Obj raw = raw_alloc(n);
        if (!raw)
            goto out;
        VM_WRITE(r[0]);
        BYTEARRAY(r[0])->raw = raw;
    }
    BYTEARRAY(r[0])->length = n;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

static inline unsigned char *ba_wdata(Obj ba)
{
    Obj raw = BYTEARRAY(ba)->raw;
    return raw ? VM_LINEAR((RAW(raw))->data + BYTEARRAY(ba)->start) : NULL;
}

Obj bytearray_new(const char *data, size_t n)
{
    char small[256], *heap;
    const char *src = n ? stable_copy(data, n, small, sizeof small, &heap) : (heap = NULL, "");
    if (!src)
        return err_nomemory();
    Obj b = bytearray_alloc((int64_t)n);
    if (b && n)
        memcpy(ba_wdata(b), src, n);
    free(heap);
    return b;
}

/* Move the data to a new storage of capacity cap (>= its length), start 0;
 * 0 or -1. */
static int ba_move_to_new(Obj *bap, int64_t cap)
{
    Obj nraw = raw_alloc(cap);
    if (!nraw)
        return -1;
    int64_t len = BYTEARRAY(*bap)->length;
    if (len)
        memcpy(VM_LINEAR((RAW(nraw))->data), ba_wdata(*bap), (size_t)len);
    VM_WRITE(*bap);
    BYTEARRAY(*bap)->raw = nraw;
    BYTEARRAY(*bap)->start = 0;
    return 0;
}

/* Room for at least `need` bytes from the data's start (geometric growth);
 * 0 or -1. A storage whose deleted prefix is at least as long as the data
 * is compacted in place instead when that makes the room: the bytes moved
 * were paid for by the deletions that made the prefix. */
static int ba_reserve(Obj *bap, int64_t need)
{
    Obj raw = BYTEARRAY(*bap)->raw;
    int64_t whole = raw ? (RAW(raw))->length : 0, start = BYTEARRAY(*bap)->start;
    if (need <= whole - start)
        return 0;
    int64_t len = BYTEARRAY(*bap)->length;
    if (start && start >= len && need <= whole) {
        VM_WRITE(raw);
        unsigned char *base = VM_LINEAR((RAW(raw))->data);
        memmove(base, base + start, (size_t)len);
        VM_WRITE(*bap);
        BYTEARRAY(*bap)->start = 0;
        return 0;
    }
    int64_t ncap = whole + (whole >> 1) + 16;
    if (ncap < need)
        ncap = need;
    return ba_move_to_new(bap, ncap);
}

/* Delete the first cnt bytes (the size check done): the data's start moves
 * on, and back to 0 when nothing is left. The storage keeps its size, as it
 * did when the bytes after were moved down: the next growth reuses it
 * (ba_reserve), and a fresh big storage would cost page faults. */
static void ba_delete_prefix(Obj ba, int64_t cnt)
{
    int64_t newlen = BYTEARRAY(ba)->length - cnt;
    VM_WRITE(ba);
    BYTEARRAY(ba)->start = newlen ? BYTEARRAY(ba)->start + cnt : 0;
    BYTEARRAY(ba)->length = newlen;
}

/* Make the bytearray writable (barrier on its storage) and return its data. */
static unsigned char *ba_write_data(Obj ba)
{
    Obj raw = BYTEARRAY(ba)->raw;
    if (!raw)
        return NULL;
    VM_WRITE(raw);
    return VM_LINEAR((RAW(raw))->data + BYTEARRAY(ba)->start);
}

static inline bool is_ba(Obj v) { return TID(v) == TID_BYTEARRAY; }

/* The bytes an open mmap.mmap (unwrapped) maps, linear; NULL if v is none. */
static const unsigned char *mapped_data(Obj v, int64_t *n)
{
    unsigned char *d;
    bool writable;
    if (TID(v) == TID_ITER && vm_hooks.mapped_buffer && vm_hooks.mapped_buffer(v, &d, n, &writable))
        return d;
    return NULL;
}

/* Data of a bytes or bytearray (unwrapped), or of what buffer_value
 * accepts; linear, valid until the next allocation. */
static inline const unsigned char *bdata(Obj v, int64_t *n)
{
    if (TID(v) == TID_ITER) {   /* an open map, checked by buffer_value */
        const unsigned char *d = mapped_data(v, n);
        if (!d)
            *n = 0;
        return d ? d : (const unsigned char *)"";
    }
    if (TID(v) == TID_MEMORYVIEW) {   /* checked C-contiguous by buffer_value */
        const char *p = "";
        if (!memview_contiguous_data(v, &p, n))
            *n = 0;
        return (const unsigned char *)p;
    }
    const unsigned char __seg_gs *d = bytes_storage(v, n);
    return d ? (const unsigned char *)VM_LINEAR(d) : (const unsigned char *)"";
}

bool bytes_like(Obj v, const char **p, int64_t *n)
{
    v = vm_unwrap(v);
    unsigned tid = TID(v);
    if (tid == TID_MEMORYVIEW)
        return memview_contiguous_data(v, p, n);
    if (tid == TID_ITER && ITER(v)->cls == (Obj)T_picklebuffer)   /* its view, unless released */
        return ITER(v)->a && memview_contiguous_data(ITER(v)->a, p, n);
    if (tid == TID_ITER && vm_hooks.buffer_export) {   /* an array.array: its storage bytearray */
        int code;
        int64_t itemsize;
        Obj base = vm_hooks.buffer_export(v, &code, &itemsize);
        if (base)
            v = base, tid = TID_BYTEARRAY;
    }
    if (tid == TID_ITER) {
        unsigned char *mapped;
        bool writable;
        if (vm_hooks.mapped_buffer && vm_hooks.mapped_buffer(v, &mapped, n, &writable)) {
            if (!mapped)   /* closed: bytes_like_arg says so */
                return false;
            *p = (const char *)mapped;   /* outside the heap: stays put across allocations */
            return true;
        }
    }
    if (tid != TID_BYTES && tid != TID_BYTEARRAY)
        return false;
    *p = (const char *)bdata(v, n);
    return true;
}

static Obj bytes_value(Obj v)
{
    v = vm_unwrap(v);
    unsigned tid = TID(v);
    return tid == TID_BYTES || tid == TID_BYTEARRAY ? v : NULL;
}

/* An operand that may be any bytes-like object (b'' + x, sep arguments):
 * bytes_value, or a C-contiguous memoryview (bdata reads it). */
static Obj buffer_value(Obj v)
{
    Obj b = bytes_value(v);
    const char *p;
    int64_t n;
    if (!b && TID(v) == TID_MEMORYVIEW && memview_contiguous_data(v, &p, &n))
        b = v;
    if (!b && mapped_data(vm_unwrap(v), &n))   /* an open mmap.mmap */
        b = vm_unwrap(v);
    return b;
}

/* A new bytes or bytearray (by `ba`) of n bytes, zeroed; fill with kind_data. */
static Obj new_kind(bool ba, int64_t n) { return ba ? bytearray_alloc(n) : bytes_alloc(n); }
static unsigned char *kind_data(Obj o) { return is_ba(o) ? ba_wdata(o) : bytes_wdata(o); }

/* A new bytes/bytearray of src[b0:b1) for src in a root slot. */
static Obj sub_kind(bool ba, Obj *srcp, int64_t b0, int64_t b1)
{
    int64_t n = b1 - b0;
    if (n <= 0)
        return new_kind(ba, 0);
    if (!ba && TID(*srcp) == TID_BYTES && b0 == 0 && n == BYTES(*srcp)->length)
        return *srcp;
    Obj r = new_kind(ba, n);
    if (!r)
        return NULL;
    int64_t len;
    memcpy(kind_data(r), bdata(*srcp, &len) + b0, (size_t)n);
    return r;
}

/* A new bytes/bytearray from C memory. */
static Obj from_c(bool ba, const char *p, size_t n) { return ba ? bytearray_new(p, n) : bytes_new(p, n); }

/* ------------------------------------------------------------------ */
/* repr                                                                */
/* ------------------------------------------------------------------ */

/* b'...' (bytearray: CPython escapes ' even inside "...": always_sq). */
static void repr_body(StrBuf *b, const unsigned char *p, int64_t n, bool always_sq)
{
    static const char hex[] = "0123456789abcdef";
    bool has_sq = memchr(p, '\'', (size_t)n) != NULL;
    bool has_dq = memchr(p, '"', (size_t)n) != NULL;
    char quote = has_sq && !has_dq ? '"' : '\'';
    sb_addc(b, 'b');
    sb_addc(b, quote);
    for (int64_t i = 0; i < n; i++) {
        unsigned c = p[i];
        if (c == (unsigned)quote || c == '\\' || (always_sq && c == '\'')) {
            sb_addc(b, '\\');
            sb_addc(b, (char)c);
        } else if (c == '\t') {
            sb_add(b, "\\t", 2);
        } else if (c == '\n') {
            sb_add(b, "\\n", 2);
        } else if (c == '\r') {
            sb_add(b, "\\r", 2);
        } else if (c < 0x20 || c >= 0x7f) {
            char e[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
            sb_add(b, e, 4);
        } else {
            sb_addc(b, (char)c);
        }
    }
    sb_addc(b, quote);
}

static Obj bytes_repr(Obj v)
{
    v = vm_unwrap(v);
    int64_t n;
    const unsigned char *p = bdata(v, &n);
    StrBuf b;
    sb_init(&b);
    repr_body(&b, p, n, false);
    return sb_finish(&b);
}

static Obj bytearray_repr(Obj v)
{
    Obj orig = v;
    v = vm_unwrap(v);
    int64_t n;
    const unsigned char *p = bdata(v, &n);
    StrBuf b;
    sb_init(&b);
    sb_adds(&b, type_name(orig));
    sb_addc(&b, '(');
    repr_body(&b, p, n, true);
    sb_addc(&b, ')');
    return sb_finish(&b);
}

/* ------------------------------------------------------------------ */
/* Building from objects: bytes(x), bytearray(x), extend, slice sets   */
/* ------------------------------------------------------------------ */

/* A byte value from an int-like object: 0..255, or -1 with an error. */
static int byte_value(Obj v, const char *range_msg)
{
    int64_t x;
    if (IS_SMALLINT(v)) {
        x = SMALLINT_VAL(v);
    } else if (vm_index_i64(v, &x) < 0) {
        if (err_matches(E_OverflowError)) {
            err_clear();
            err_set(E_ValueError, range_msg);
        }
        return -1;
    }
    if (x < 0 || x > 255) {
        err_set(E_ValueError, range_msg);
        return -1;
    }
    return (int)x;
}

/* Bytes of an iterable of ints into a StrBuf; 0 or -1. */
static int collect_ints(Obj iterable, StrBuf *b, const char *range_msg)
{
    Obj *r = vm_roots(2);
    int rc = -1;
    r[0] = iterable;
    if (IS_LIST(iterable) || IS_TUPLE(iterable)) {
        for (int64_t i = 0;; i++) {
            Obj seq = r[0];
            int64_t n = IS_LIST(seq) ? LIST_LEN(seq) : TUPLE_LEN(seq);
            if (i >= n)
                break;
            Obj item = IS_LIST(seq) ? LIST_ITEMS(seq)[i] : TUPLE_ITEMS(seq)[i];
            int c = byte_value(item, range_msg);
            if (c < 0)
                goto out;
            sb_addc(b, (char)c);
        }
        rc = 0;
        goto out;
    }
    r[1] = vm_iter(iterable);
    if (!r[1])
        goto out;
    for (;;) {
        Obj item = vm_next(r[1]);
        if (!item) {
            if (err_occurred())
                goto out;
            break;
        }
        int c = byte_value(item, range_msg);
        if (c < 0)
            goto out;
        sb_addc(b, (char)c);
    }
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* The bytes of bytes(x) / bytearray(x) for one argument x into b. */
static int bytes_of_object(Obj x, StrBuf *b, const char *range_msg, bool *is_count, int64_t *count)
{
    *is_count = false;
    const char *p;
    int64_t n;
    if (bytes_like(x, &p, &n)) {
        sb_add(b, p, (size_t)n);
        return 0;
    }
    if (str_value(x)) {
        err_set(E_TypeError, "string argument without an encoding");
        return -1;
    }
    if (IS_INT(x) || TYPE(x)->nb_index) {
        if (arg_i64(x, count) < 0)
            return -1;
        if (*count < 0) {
            err_set(E_ValueError, "negative count");
            return -1;
        }
        *is_count = true;
        return 0;
    }
    if (!TYPE(x)->tp_iter && !TYPE(x)->tp_getitem) {
        err_format(E_TypeError, "cannot convert '%s' object to bytes", type_name(x));
        return -1;
    }
    return collect_ints(x, b, range_msg);
}

/* bytes(source, encoding, errors) / bytearray(...) */
static Obj new_from_args(bool ba, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"source", "encoding", "errors", NULL};
    Obj *o = vm_roots(4);
    Obj res = NULL;
    if (vm_parse_args(ba ? "bytearray" : "bytes", args, nargs, kwnames, names, 0, 3, o) < 0)
        goto out;
    if (!o[0]) {
        if (o[1] || o[2]) {
            err_set(E_TypeError, o[1] ? "encoding without a string argument" : "errors without a string argument");
            goto out;
        }
        res = new_kind(ba, 0);
        goto out;
    }
    if (o[1] || o[2]) {
        if (!str_value(o[0])) {
            err_set(E_TypeError, o[1] ? "encoding without a string argument" : "errors without a string argument");
            goto out;
        }
        for (int k = 1; k <= 2; k++) {
            if (o[k] && !str_value(o[k])) {
                err_format(E_TypeError, "%s() argument '%s' must be str, not %s", ba ? "bytearray" : "bytes",
                           names[k], type_name(o[k]));
                goto out;
            }
        }
        char enc[64] = "utf-8", errs[64] = "strict";
        if (o[1])
            copy_name(enc, sizeof enc, str_cstr(vm_unwrap(o[1])));
        if (o[2])
            copy_name(errs, sizeof errs, str_cstr(vm_unwrap(o[2])));
        res = str_encode(vm_unwrap(o[0]), enc, errs);
        if (res && ba) {
            o[3] = res;
            res = bytearray_alloc(BYTES(o[3])->length);
            if (res && BYTES(o[3])->length)
                memcpy(ba_wdata(res), bytes_wdata(o[3]), (size_t)BYTES(o[3])->length);
        }
        goto out;
    }
    /* bytes(x) for x with __bytes__ */
    if (!ba && !bytes_value(o[0])) {
        Obj meth = vm_lookup_special(o[0], "__bytes__");
        if (meth) {
            o[3] = meth;
            Obj r = vm_call_method(o[0], "__bytes__", NULL, 0);
            if (!r)
                goto out;
            if (!IS_BYTES(r) && !IS_BYTES(vm_unwrap(r))) {
                err_format(E_TypeError, "__bytes__ returned non-bytes (type %s)", type_name(r));
                goto out;
            }
            res = vm_unwrap(r);
            goto out;
        }
    }
    if (!ba && IS_BYTES(o[0])) {
        res = o[0];
        goto out;
    }
    StrBuf b;
    sb_init(&b);
    bool is_count;
    int64_t count;
    if (bytes_of_object(o[0], &b, ba ? "byte must be in range(0, 256)" : "bytes must be in range(0, 256)",
                        &is_count, &count) < 0) {
        sb_free(&b);
        goto out;
    }
    if (is_count)
        res = new_kind(ba, count);
    else
        res = from_c(ba, b.p ? b.p : "", b.len);
    sb_free(&b);
out:
    vm_unroots(o);
    return res;
}

static Obj bytes_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    (void)type;   /* vm_new_for wraps the value for a subclass */
    return new_from_args(false, args, nargs, kwnames);
}

/* bytearray, as CPython's: __new__ makes it empty, __init__ fills it (so
 * ba.__init__(x) refills an existing one). */
static Obj bytearray_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    (void)type;
    return bytearray_alloc(0);
}

static int ba_check_resize(Obj *bap, int64_t newlen);

static int bytearray_tp_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    int rc = -1;
    r[0] = vm_unwrap(self);
    if (BYTEARRAY(r[0])->length && ba_check_resize(&r[0], 0) < 0)
        goto out;
    if (!(r[1] = new_from_args(true, args, nargs, kwnames)))
        goto out;
    VM_WRITE(r[0]);
    BYTEARRAY(r[0])->raw = BYTEARRAY(r[1])->raw;
    BYTEARRAY(r[0])->start = BYTEARRAY(r[1])->start;
    BYTEARRAY(r[0])->length = BYTEARRAY(r[1])->length;
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Codecs                                                              */
/* ------------------------------------------------------------------ */

enum { ENC_UTF8, ENC_ASCII, ENC_LATIN1, ENC_UNICODE_ESCAPE, ENC_RAW_UNICODE_ESCAPE,
       ENC_UTF16, ENC_UTF16LE, ENC_UTF16BE, ENC_UTF32, ENC_UTF32LE, ENC_UTF32BE, ENC_UNKNOWN };
enum { ERR_STRICT, ERR_IGNORE, ERR_REPLACE, ERR_SURROGATEESCAPE, ERR_BACKSLASHREPLACE,
       ERR_XMLCHARREFREPLACE, ERR_SURROGATEPASS, ERR_NAMEREPLACE, ERR_UNKNOWN };

static int encoding_id(const char *enc)
{
    char n[32];
    size_t k = 0;
    for (; enc[k] && k < sizeof n - 1; k++) {
        char c = enc[k];
        n[k] = c >= 'A' && c <= 'Z' ? (char)(c + 32) : c == '_' || c == ' ' ? '-' : c;
    }
    if (enc[k])
        return ENC_UNKNOWN;
    n[k] = 0;
    static const char *const utf8[] = {"utf-8", "utf8", "u8", "utf", "cp65001", NULL};
    static const char *const ascii[] = {"ascii", "us-ascii", "646", "us", "ansi-x3.4-1968", NULL};
    static const char *const latin1[] = {"latin-1", "latin1", "iso-8859-1", "iso8859-1", "8859", "cp819",
                                         "l1", "latin", "iso-ir-100", "iso-8859-1:1987", NULL};
    for (int i = 0; utf8[i]; i++)
        if (!strcmp(n, utf8[i]))
            return ENC_UTF8;
    for (int i = 0; ascii[i]; i++)
        if (!strcmp(n, ascii[i]))
            return ENC_ASCII;
    for (int i = 0; latin1[i]; i++)
        if (!strcmp(n, latin1[i]))
            return ENC_LATIN1;
    if (!strcmp(n, "unicode-escape"))
        return ENC_UNICODE_ESCAPE;
    if (!strcmp(n, "raw-unicode-escape"))
        return ENC_RAW_UNICODE_ESCAPE;
    static const struct { const char *name; int id; } wide[] = {
        {"utf-16", ENC_UTF16}, {"utf16", ENC_UTF16}, {"u16", ENC_UTF16},
        {"utf-16-le", ENC_UTF16LE}, {"utf-16le", ENC_UTF16LE}, {"utf16le", ENC_UTF16LE},
        {"utf-16-be", ENC_UTF16BE}, {"utf-16be", ENC_UTF16BE}, {"utf16be", ENC_UTF16BE},
        {"utf-32", ENC_UTF32}, {"utf32", ENC_UTF32}, {"u32", ENC_UTF32},
        {"utf-32-le", ENC_UTF32LE}, {"utf-32le", ENC_UTF32LE}, {"utf32le", ENC_UTF32LE},
        {"utf-32-be", ENC_UTF32BE}, {"utf-32be", ENC_UTF32BE}, {"utf32be", ENC_UTF32BE},
    };
    for (size_t i = 0; i < ARRAY_LEN(wide); i++)
        if (!strcmp(n, wide[i].name))
            return wide[i].id;
    /* any other: the codec registry's (registry_codec) */
    return ENC_UNKNOWN;
}

/* An exception a codec raised, when its type is a plain built-in one
 * (BaseException's __new__ and __init__, nothing in its __dict__), made
 * into a new one of that type, "encoding with 'NAME' codec failed
 * (TYPE: MESSAGE)", whose __cause__ is the first: as CPython's codecs
 * wrap it (TypeError, ValueError, LookupError, IndexError, ...). */
static void codec_wrap_error(bool encode, const char *encoding)
{
    Obj exc = err_occurred();
    if (!exc || !IS_EXCEPTION(exc))
        return;
    TypeObj *t = TYPE(exc);
    if ((t->flags & TPF_HEAPTYPE) || t->tp_init != E_BaseException->tp_init || t->tp_new != E_BaseException->tp_new)
        return;
    Obj d = EXCH(exc)->dict;
    if (d && dict_len(d) > 0)
        return;
    char name[128];
    snprintf(name, sizeof name, "%s", encoding);
    Obj *r = vm_roots(2);
    r[0] = err_fetch();
    r[1] = vm_str(r[0]);
    if (!r[1]) {
        err_clear();
        err_set_obj(r[0]);
        goto out;
    }
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "%s with '%s' codec failed (%s: ", encode ? "encoding" : "decoding", name,
              type_name_of_type(TYPE(r[0])));
    sb_add_str(&b, r[1]);
    sb_addc(&b, ')');
    r[1] = sb_finish(&b);
    Obj e = r[1] ? exc_new(TYPE(r[0]), &r[1], 1) : NULL;
    if (!e) {
        err_clear();
        err_set_obj(r[0]);
        goto out;
    }
    VM_WRITE(e);
    EXCH(e)->cause = r[0];
    EXCH(e)->suppress_context = 1;
    err_set_obj(e);
out:
    vm_unroots(r);
}

/* The object that item 0 (encode) or 1 (decode) of a CodecInfo makes of
 * obj: the first of the (object, length) pair it must return. */
Obj codec_info_call(Obj info, bool encode, Obj obj, Obj errors, const char *encoding)
{
    Obj t = vm_unwrap(info);   /* a CodecInfo: a tuple subclass */
    if (!IS_TUPLE(t) || TUPLE_LEN(t) < 2) {
        err_set(E_TypeError, "codec search functions must return 4-tuples");
        return NULL;
    }
    Obj res = vm_call2(TUPLE_ITEMS(t)[encode ? 0 : 1], obj, errors);
    if (!res) {
        codec_wrap_error(encode, encoding);
        return NULL;
    }
    t = vm_unwrap(res);
    if (!IS_TUPLE(t) || TUPLE_LEN(t) != 2) {
        err_format(E_TypeError, "%s must return a tuple (object, integer)", encode ? "encoder" : "decoder");
        return NULL;
    }
    return TUPLE_ITEMS(t)[0];
}

/* str.encode / bytes.decode in an encoding the built-in codecs lack: the
 * codec registry's (_codecs.lookup: CPython's encodings package), which
 * must be a text encoding and give bytes (encode) or str (decode). */
static Obj registry_codec(Obj obj, const char *encoding_arg, const char *errors_arg, bool encode)
{
    /* the names may point into str objects that the allocations below move */
    char encoding[128], errors_buf[64];
    snprintf(encoding, sizeof encoding, "%s", encoding_arg);
    snprintf(errors_buf, sizeof errors_buf, "%s", errors_arg ? errors_arg : "strict");
    const char *errors = errors_buf;
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = obj;
    r[2] = str_from_cstr(encoding_arg);   /* the full name, for lookup */
    r[1] = r[2] ? vm_import_cstr("_codecs") : NULL;
    if (!r[1] || !(r[1] = vm_getattr_cstr(r[1], "lookup")) || !(r[1] = vm_call1(r[1], r[2])))
        goto out;
    r[3] = str_from_cstr("_is_text_encoding");
    if (!r[3])
        goto out;
    r[3] = vm_getattr_opt(r[1], r[3]);
    if (!r[3] && err_occurred())
        goto out;
    if (r[3] && r[3] == g_False) {
        err_format(E_LookupError, "'%s' is not a text encoding; use codecs.%s() to handle arbitrary codecs",
                   encoding, encode ? "encode" : "decode");
        goto out;
    }
    r[2] = str_from_cstr(errors);
    Obj v = r[2] ? codec_info_call(r[1], encode, r[0], r[2], encoding) : NULL;
    if (!v)
        goto out;
    if (encode ? !IS_BYTES(v) : !IS_STR(v)) {
        err_format(E_TypeError, "'%s' %s returned '%s' instead of '%s'; use codecs.%s() to %s to arbitrary types",
                   encoding, encode ? "encoder" : "decoder", type_name(v), encode ? "bytes" : "str",
                   encode ? "encode" : "decode", encode ? "encode" : "decode");
        goto out;
    }
    res = v;
out:
    vm_unroots(r);
    return res;
}

static const char *encoding_name(int id)
{
    switch (id) {
    case ENC_UTF8: return "utf-8";
    case ENC_ASCII: return "ascii";
    case ENC_UNICODE_ESCAPE: return "unicodeescape";
    case ENC_RAW_UNICODE_ESCAPE: return "rawunicodeescape";
    case ENC_UTF16: return "utf-16";
    case ENC_UTF16LE: return "utf-16-le";
    case ENC_UTF16BE: return "utf-16-be";
    case ENC_UTF32: return "utf-32";
    case ENC_UTF32LE: return "utf-32-le";
    case ENC_UTF32BE: return "utf-32-be";
    default: return "latin-1";
    }
}


static int errors_id(const char *errors)
{
    if (!errors || !strcmp(errors, "strict"))
        return ERR_STRICT;
    if (!strcmp(errors, "ignore"))
        return ERR_IGNORE;
    if (!strcmp(errors, "replace"))
        return ERR_REPLACE;
    if (!strcmp(errors, "surrogateescape"))
        return ERR_SURROGATEESCAPE;
    if (!strcmp(errors, "backslashreplace"))
        return ERR_BACKSLASHREPLACE;
    if (!strcmp(errors, "xmlcharrefreplace"))
        return ERR_XMLCHARREFREPLACE;
    if (!strcmp(errors, "surrogatepass"))
        return ERR_SURROGATEPASS;
    if (!strcmp(errors, "namereplace"))
        return ERR_NAMEREPLACE;
    return ERR_UNKNOWN;
}

void raise_codec_error(TypeObj *type, const char *enc, Obj *objp, int64_t start, int64_t end, const char *reason)
{
    Obj *r = vm_roots(5);
    r[1] = *objp;
    if ((r[0] = str_from_cstr(enc)) && (r[2] = int_from_i64(start)) && (r[3] = int_from_i64(end)) &&
        (r[4] = str_from_cstr(reason))) {
        Obj e = exc_new(type, r, 5);
        if (e)
            err_set_obj(e);
    }
    vm_unroots(r);
}


/* ---- unicode_escape / raw_unicode_escape ---- */

static Obj escape_encode(Obj s, bool raw)
{
    const unsigned char *p = (const unsigned char *)str_cstr(s);
    int64_t n = STR(s)->nbytes;
    StrBuf b;
    sb_init(&b);
    for (int64_t i = 0; i < n;) {
        int len;
        uint32_t c = utf8_decode(p + i, &len);
        i += len;
        if (raw) {
            if (c < 0x100)
                sb_addc(&b, (char)c);
            else
                sb_add_escape(&b, c);
        } else if (c == '\\') {
            sb_add(&b, "\\\\", 2);
        } else if (c == '\t') {
            sb_add(&b, "\\t", 2);
        } else if (c == '\n') {
            sb_add(&b, "\\n", 2);
        } else if (c == '\r') {
            sb_add(&b, "\\r", 2);
        } else if (c >= 0x20 && c < 0x7f) {
            sb_addc(&b, (char)c);
        } else {
            sb_add_escape(&b, c);
        }
    }
    Obj res = b.cap == SIZE_MAX ? err_nomemory() : bytes_new(b.p ? b.p : "", b.len);
    sb_free(&b);
    return res;
}

static int hexdig(unsigned c)
{
    return c >= '0' && c <= '9' ? (int)(c - '0') : c >= 'a' && c <= 'f' ? (int)(c - 'a' + 10)
           : c >= 'A' && c <= 'F' ? (int)(c - 'A' + 10) : -1;
}

/* An error of the escape decoders over [start, end): the position to go
 * on at (the replacement added to b), or -1 with the exception set. */
static int64_t escape_error(int eh, const char *errors, bool raw, Obj *bp, StrBuf *b, int64_t start, int64_t end,
                            const char *reason, Obj *excp)
{
    if (eh == ERR_IGNORE)
        return end;
    if (eh == ERR_REPLACE) {
        sb_add_codepoint(b, 0xfffd);
        return end;
    }
    /* strict, or a handler called (which may replace the input) */
    return codecs_decode_error(errors, raw ? "rawunicodeescape" : "unicodeescape", reason, bp, start, end, b,
                               CODEC_ERR_REREAD, excp);
}

/* Decode *bp (root slot) with unicode_escape (raw: only \\u and \\U).
 * unicode_escape warns (DeprecationWarning) of the first escape Python
 * does not know, as CPython 3.11 does. */
static Obj escape_decode(Obj *bp, bool raw, const char *errors, Obj *excp)
{
    int64_t n;
    const unsigned char *p = bdata(*bp, &n);
    int eh = errors_id(errors);
    char invalid[4] = {0};   /* the first unknown escape, after its backslash */
    StrBuf b;
    sb_init(&b);
    int64_t i = 0;
    while (i < n) {
        unsigned c = p[i];
        const char *reason = NULL;
        int64_t start = i, end = i + 1;
        if (c != '\\' || i + 1 >= n) {
            if (c == '\\' && !raw) {
                reason = "\\ at end of string";
                goto error;
            }
            sb_add_codepoint(&b, c);
            i++;
            continue;
        }
        unsigned e = p[i + 1];
        int ndig = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
        if (raw && e != 'u' && e != 'U') {
            sb_addc(&b, '\\');
            i++;
            continue;
        }
        if (ndig) {
            uint32_t v = 0;
            int k = 0;
            while (k < ndig && i + 2 + k < n && hexdig(p[i + 2 + k]) >= 0) {
                v = v * 16 + (uint32_t)hexdig(p[i + 2 + k]);
                k++;
            }
            if (k < ndig)
                reason = e == 'x' ? "truncated \\xXX escape" : e == 'u' ? "truncated \\uXXXX escape"
                                                              : "truncated \\UXXXXXXXX escape";
            else if (v > 0x10ffff)
                reason = raw ? "\\Uxxxxxxxx out of range" : "illegal Unicode character";
            if (reason) {
                end = i + 2 + k;
                goto error;
            }
            sb_add_codepoint(&b, v);
            i += 2 + ndig;
            continue;
        }
        i += 2;
        switch (e) {
        case '\n': break;
        case '\\': sb_addc(&b, '\\'); break;
        case '\'': sb_addc(&b, '\''); break;
        case '"': sb_addc(&b, '"'); break;
        case 'a': sb_addc(&b, 7); break;
        case 'b': sb_addc(&b, 8); break;
        case 'f': sb_addc(&b, 12); break;
        case 'n': sb_addc(&b, 10); break;
        case 'r': sb_addc(&b, 13); break;
        case 't': sb_addc(&b, 9); break;
        case 'v': sb_addc(&b, 11); break;
        case 'N': {
            /* \N{name}; i is past it. A malformed one ends at the last byte looked at. */
            int64_t close = -1;
            if (i < n && p[i] == '{')
                for (int64_t j = i + 1; j < n; j++)
                    if (p[j] == '}') {
                        close = j;
                        break;
                    }
            uint32_t cp = 0;
            end = i;
            if (close < 0 || close == i + 1) {
                reason = "malformed \\N character escape";
                end = i < n && p[i] == '{' ? (close < 0 ? n : i + 1) : i;
            } else if (!uni_lookup_name((const char *)p + i + 1, (size_t)(close - i - 1), &cp)) {
                reason = "unknown Unicode character name";
                end = close + 1;
            }
            if (reason)
                goto error;
            sb_add_codepoint(&b, cp);
            i = close + 1;
            break;
        }
        default:
            if (e >= '0' && e <= '7') {
                uint32_t v = e - '0';
                int64_t first = i - 1;
                for (int k = 0; k < 2 && i < n && p[i] >= '0' && p[i] <= '7'; k++)
                    v = v * 8 + (p[i++] - '0');
                if (v > 0377 && !invalid[0])
                    memcpy(invalid, p + first, 3);
                sb_add_codepoint(&b, v);
            } else {
                /* an unknown escape stays as it is */
                if (!invalid[0])
                    invalid[0] = (char)e;
                sb_addc(&b, '\\');
                sb_add_codepoint(&b, e);
            }
        }
        continue;
    error: {
            int64_t pos = escape_error(eh, errors, raw, bp, &b, start, end, reason, excp);
            if (pos < 0) {
                sb_free(&b);
                return NULL;
            }
            p = bdata(*bp, &n);
            i = pos;
        }
    }
    if (invalid[0] && !raw) {
        bool octal = invalid[0] >= '4' && invalid[0] <= '7';
        Obj *r = vm_roots(2);
        int rc = -1;
        /* the text first: the warning may run Python code, and b is C memory */
        r[0] = sb_finish(&b);
        if (r[0]) {
            StrBuf m;
            sb_init(&m);
            if (octal)
                sb_printf(&m, "invalid octal escape sequence '\\%.3s'", invalid);
            else {
                sb_printf(&m, "invalid escape sequence '\\");
                sb_add_codepoint(&m, (unsigned char)invalid[0]);   /* the byte as a Latin-1 character */
                sb_addc(&m, '\'');
            }
            r[1] = sb_finish(&m);
            rc = r[1] ? vm_warn(E_DeprecationWarning, r[1], NULL) : -1;
        }
        Obj res = rc < 0 ? NULL : r[0];
        vm_unroots(r);
        return res;
    }
    return sb_finish(&b);
}

/* ---- UTF-16 / UTF-32 ---- */

static bool is_utf32(int enc) { return enc == ENC_UTF32 || enc == ENC_UTF32LE || enc == ENC_UTF32BE; }

static void put_unit(StrBuf *b, uint32_t u, int size, bool big)
{
    char t[4];
    for (int k = 0; k < size; k++)
        t[big ? size - 1 - k : k] = (char)(u >> (8 * k));
    sb_add(b, t, (size_t)size);
}

/* One code point in UTF-16 / UTF-32 units. */
static void put_wide(StrBuf *b, uint32_t c, bool u32, bool big)
{
    if (u32)
        put_unit(b, c, 4, big);
    else if (c >= 0x10000) {
        put_unit(b, 0xd800 + ((c - 0x10000) >> 10), 2, big);
        put_unit(b, 0xdc00 + ((c - 0x10000) & 0x3ff), 2, big);
    } else {
        put_unit(b, c, 2, big);
    }
}

static Obj wide_encode(Obj *sp, int enc, const char *errors, Obj *excp)
{
    bool u32 = is_utf32(enc), big = enc == ENC_UTF16BE || enc == ENC_UTF32BE;
    int eh = errors_id(errors);
    StrBuf b;
    sb_init(&b);
    if (enc == ENC_UTF16 || enc == ENC_UTF32)
        put_wide(&b, 0xfeff, u32, false);   /* BOM, little-endian */
    const unsigned char *p = (const unsigned char *)str_cstr(*sp);
    int64_t n = STR(*sp)->nbytes, cpi = 0;
    for (int64_t i = 0; i < n;) {
        int len;
        uint32_t c = utf8_decode(p + i, &len);
        if (c < 0xd800 || c > 0xdfff || eh == ERR_SURROGATEPASS) {
            put_wide(&b, c, u32, big);
        } else if (eh == ERR_REPLACE) {
            put_wide(&b, '?', u32, big);
        } else if (eh == ERR_BACKSLASHREPLACE || eh == ERR_XMLCHARREFREPLACE || eh == ERR_NAMEREPLACE) {
            char e[16];   /* a surrogate has no name: namereplace escapes it */
            snprintf(e, sizeof e, eh == ERR_XMLCHARREFREPLACE ? "&#%u;" : "\\u%04x", c);
            for (char *q = e; *q; q++)
                put_wide(&b, (unsigned char)*q, u32, big);
        } else if (eh == ERR_STRICT || eh == ERR_SURROGATEESCAPE) {
            /* CPython's UTF-16/32 encoders report one char at a time */
            sb_free(&b);
            raise_codec_error(E_UnicodeEncodeError, encoding_name(enc), sp, cpi, cpi + 1, "surrogates not allowed");
            return NULL;
        } else if (eh != ERR_IGNORE) {
            /* any other handler, called: bytes go out as they are (whole
             * code units), a str must be ASCII; else the character is an
             * error after all */
            Obj *h = vm_roots(1);
            int64_t pos = codecs_encode_error(errors, encoding_name(enc), "surrogates not allowed", sp, cpi, cpi + 1,
                                              &h[0], CODEC_ERR_BYTES_OK,
                                              "encoding error handler must return (str/bytes, int) tuple", excp);
            bool ok = pos >= 0;
            if (ok && IS_BYTES(h[0])) {
                int64_t bn;
                const unsigned char *bq = bdata(h[0], &bn);
                if (bn % (u32 ? 4 : 2))
                    ok = false;
                else
                    sb_add(&b, (const char *)bq, (size_t)bn);
            } else if (ok) {
                if (!str_is_ascii(h[0]))
                    ok = false;
                const unsigned char *q = (const unsigned char *)str_cstr(h[0]);
                for (int64_t k = 0; ok && k < STR(h[0])->nbytes; k++)
                    put_wide(&b, q[k], u32, big);
            }
            if (!ok && pos >= 0)
                raise_codec_error(E_UnicodeEncodeError, encoding_name(enc), sp, cpi, cpi + 1, "surrogates not allowed");
            vm_unroots(h);
            if (!ok) {
                sb_free(&b);
                return NULL;
            }
            p = (const unsigned char *)str_cstr(*sp);   /* the handler ran Python code */
            i = str_byte_offset(*sp, pos);
            cpi = pos;
            continue;
        }
        i += len;
        cpi++;
    }
    Obj res = b.cap == SIZE_MAX ? err_nomemory() : bytes_new(b.p ? b.p : "", b.len);
    sb_free(&b);
    return res;
}

static uint32_t get_unit(const unsigned char *p, int size, bool big)
{
    uint32_t u = 0;
    for (int k = 0; k < size; k++)
        u |= (uint32_t)p[big ? size - 1 - k : k] << (8 * k);
    return u;
}

/* *bp: bytes in a root slot. */
static Obj wide_decode(Obj *bp, int enc, const char *errors, Obj *excp)
{
    bool u32 = is_utf32(enc), big = enc == ENC_UTF16BE || enc == ENC_UTF32BE;
    int size = u32 ? 4 : 2;
    int eh = errors_id(errors);
    int64_t n;
    const unsigned char *p = bdata(*bp, &n);
    int64_t i = 0;
    if (enc == ENC_UTF16 && n >= 2) {
        if (p[0] == 0xff && p[1] == 0xfe)
            i = 2;
        else if (p[0] == 0xfe && p[1] == 0xff)
            i = 2, big = true;
    } else if (enc == ENC_UTF32 && n >= 4) {
        if (p[0] == 0xff && p[1] == 0xfe && p[2] == 0 && p[3] == 0)
            i = 4;
        else if (p[0] == 0 && p[1] == 0 && p[2] == 0xfe && p[3] == 0xff)
            i = 4, big = true;
    }
    /* CPython names the byte order it decodes in, BOM or not */
    const char *name = u32 ? (big ? "utf-32-be" : "utf-32-le") : (big ? "utf-16-be" : "utf-16-le");
    StrBuf b;
    sb_init(&b);
    while (i < n) {
        const char *reason = NULL;
        int64_t span = size;
        uint32_t c = 0;
        if (n - i < size) {
            reason = "truncated data";
            span = n - i;
        } else if (u32) {
            c = get_unit(p + i, 4, big);
            if (c > 0x10ffff)
                reason = "code point not in range(0x110000)";
            else if (c >= 0xd800 && c <= 0xdfff)
                reason = "code point in surrogate code point range(0xd800, 0xe000)";
        } else {
            c = get_unit(p + i, 2, big);
            if (c >= 0xdc00 && c <= 0xdfff) {
                reason = "illegal encoding";
            } else if (c >= 0xd800 && c <= 0xdbff) {
                if (n - i < 4) {
                    reason = "unexpected end of data";
                    span = n - i;
                } else {
                    uint32_t c2 = get_unit(p + i + 2, 2, big);
                    if (c2 < 0xdc00 || c2 > 0xdfff)
                        reason = "illegal UTF-16 surrogate";
                    else {
                        c = 0x10000 + ((c - 0xd800) << 10) + (c2 - 0xdc00);
                        span = 4;
                    }
                }
            }
        }
        if (!reason) {
            sb_add_codepoint(&b, c);
            i += span;
            continue;
        }
        switch (eh) {
        case ERR_IGNORE:
            break;
        case ERR_REPLACE:
            sb_add_codepoint(&b, 0xfffd);
            break;
        case ERR_BACKSLASHREPLACE:
            for (int64_t k = 0; k < span; k++)
                sb_add_escape(&b, p[i + k]);
            break;
        case ERR_SURROGATEESCAPE: {
            /* the leading bytes >= 0x80 become U+DC80..U+DCFF and decoding
             * resumes after them; an ASCII byte first is an error */
            int64_t k = 0;
            while (k < span && p[i + k] >= 0x80)
                k++;
            if (k > 0) {
                for (int64_t m = 0; m < k; m++)
                    sb_add_codepoint(&b, 0xdc00 + p[i + m]);
                i += k;
                continue;
            }
        }
            /* fall through */
        case ERR_SURROGATEPASS:
            /* a lone surrogate code unit decodes to itself */
            if (eh == ERR_SURROGATEPASS && n - i >= size && c >= 0xd800 && c <= 0xdfff) {
                sb_add_codepoint(&b, c);
                i += size;
                continue;
            }
            /* fall through */
        case ERR_STRICT:
            sb_free(&b);
            raise_codec_error(E_UnicodeDecodeError, name, bp, i, i + span, reason);
            return NULL;
        default: {
            /* any other handler, called; it may replace the input */
            int64_t pos = codecs_decode_error(errors, name, reason, bp, i, i + span, &b, CODEC_ERR_REREAD, excp);
            if (pos < 0) {
                sb_free(&b);
                return NULL;
            }
            p = bdata(*bp, &n);
            i = pos;
            continue;
        }
        }
        i += span;
    }
    return sb_finish(&b);
}

/* Length of the invalid UTF-8 sequence at p[i] (1..3) and its reason. */
static int64_t utf8_bad_span(const unsigned char *p, int64_t n, int64_t i, const char **reason)
{
    unsigned c = p[i];
    int need;
    unsigned lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf)
        need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
        need = 2;
        if (c == 0xe0)
            lo = 0xa0;
        else if (c == 0xed)
            hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        need = 3;
        if (c == 0xf0)
            lo = 0x90;
        else if (c == 0xf4)
            hi = 0x8f;
    } else {
        *reason = "invalid start byte";
        return 1;
    }
    for (int k = 1; k <= need; k++) {
        if (i + k >= n) {
            *reason = "unexpected end of data";
            return k;
        }
        unsigned d = p[i + k];
        if (d < (k == 1 ? lo : 0x80) || d > (k == 1 ? hi : 0xbf)) {
            *reason = "invalid continuation byte";
            return k;
        }
    }
    *reason = "invalid start byte";   /* not reached for a real error */
    return 1;
}

/* Decode bytes/bytearray *bp (a root slot) to a str. */
static Obj decode_impl(Obj *bp, int enc, const char *errors, Obj *excp)
{
    int64_t n;
    const unsigned char *p = bdata(*bp, &n);
    /* fast paths: all valid */
    size_t valid;
    if (enc == ENC_UTF8)
        valid = utf8_valid_prefix((const char *)p, (size_t)n);
    else if (enc == ENC_ASCII) {
        valid = 0;
        while ((int64_t)valid < n && p[valid] < 0x80)
            valid++;
    } else {
        valid = 0;
        while ((int64_t)valid < n && p[valid] < 0x80)
            valid++;
        if ((int64_t)valid < n) {
            /* latin-1 never fails: every byte is its code point */
            StrBuf b;
            sb_init(&b);
            for (int64_t i = 0; i < n; i++)
                sb_add_codepoint(&b, p[i]);
            return sb_finish(&b);
        }
    }
    if ((int64_t)valid == n) {
        int64_t len = enc == ENC_UTF8 ? utf8_count((const char *)p, (size_t)n) : n;
        Obj s = str_alloc(n, len);
        if (s && n)
            memcpy(VM_LINEAR(STR(s)->data), bdata(*bp, &n), (size_t)n);
        return s;
    }
    int eh = errors_id(errors);
    StrBuf b;
    sb_init(&b);
    sb_add(&b, (const char *)p, valid);
    int64_t i = (int64_t)valid;
    while (i < n) {
        p = bdata(*bp, &n);
        if (p[i] < 0x80) {
            sb_addc(&b, (char)p[i++]);
            continue;
        }
        const char *reason = "ordinal not in range(128)";
        int64_t span = 1;
        if (enc == ENC_UTF8) {
            size_t ok = utf8_valid_prefix((const char *)p + i, (size_t)(n - i));
            if (ok) {
                sb_add(&b, (const char *)p + i, ok);
                i += (int64_t)ok;
                continue;
            }
            /* surrogatepass: an encoded surrogate (ED A0..BF xx) decodes to it */
            if (eh == ERR_SURROGATEPASS && p[i] == 0xed && i + 2 < n &&
                p[i + 1] >= 0xa0 && p[i + 1] <= 0xbf && (p[i + 2] & 0xc0) == 0x80) {
                sb_add(&b, (const char *)p + i, 3);   /* tmpy's str holds a lone surrogate as these bytes */
                i += 3;
                continue;
            }
            span = utf8_bad_span(p, n, i, &reason);
        }
        switch (eh) {
        case ERR_IGNORE:
            break;
        case ERR_REPLACE:
            sb_add_codepoint(&b, 0xfffd);
            break;
        case ERR_SURROGATEESCAPE:
            for (int64_t k = 0; k < span; k++)
                sb_add_codepoint(&b, 0xdc00 + p[i + k]);
            break;
        case ERR_BACKSLASHREPLACE:
            for (int64_t k = 0; k < span; k++)
                sb_add_escape(&b, p[i + k]);
            break;
        case ERR_STRICT:
        case ERR_SURROGATEPASS:
        case ERR_XMLCHARREFREPLACE:
        case ERR_NAMEREPLACE: {
            sb_free(&b);
            if (eh == ERR_XMLCHARREFREPLACE || eh == ERR_NAMEREPLACE) {
                err_set(E_TypeError, "don't know how to handle UnicodeDecodeError in error callback");
                return NULL;
            }
            Obj *r = vm_roots(1);
            r[0] = *bp;
            if (is_ba(r[0])) {
                int64_t m;
                const unsigned char *q = bdata(r[0], &m);
                r[0] = bytes_new((const char *)q, (size_t)m);
            }
            if (r[0])
                raise_codec_error(E_UnicodeDecodeError, encoding_name(enc), &r[0], i, i + span, reason);
            vm_unroots(r);
            return NULL;
        }
        default: {
            /* any other handler, called; it may replace the input */
            int64_t pos = codecs_decode_error(errors, encoding_name(enc), reason, bp, i, i + span, &b,
                                              CODEC_ERR_REREAD, excp);
            if (pos < 0) {
                sb_free(&b);
                return NULL;
            }
            p = bdata(*bp, &n);
            i = pos;
            continue;
        }
        }
        i += span;
    }
    return sb_finish(&b);
}

Obj bytes_decode(Obj b, const char *encoding, const char *errors)
{
    int enc = encoding_id(encoding ? encoding : "utf-8");
    if (enc == ENC_UNKNOWN)
        return registry_codec(b, encoding, errors, false);
    Obj *r = vm_roots(2);   /* the input, the exception the errors share */
    r[0] = vm_unwrap(b);
    Obj res;
    if (enc == ENC_UNICODE_ESCAPE || enc == ENC_RAW_UNICODE_ESCAPE) {
        if (is_ba(r[0])) {
            int64_t m;
            const unsigned char *q = bdata(r[0], &m);
            r[0] = bytes_new((const char *)q, (size_t)m);
        }
        res = r[0] ? escape_decode(&r[0], enc == ENC_RAW_UNICODE_ESCAPE, errors, &r[1]) : NULL;
    } else if (enc >= ENC_UTF16 && enc <= ENC_UTF32BE) {
        if (is_ba(r[0])) {
            int64_t m;
            const unsigned char *q = bdata(r[0], &m);
            r[0] = bytes_new((const char *)q, (size_t)m);
        }
        res = r[0] ? wide_decode(&r[0], enc, errors, &r[1]) : NULL;
    } else {
        res = decode_impl(&r[0], enc, errors, &r[1]);
    }
    vm_unroots(r);
    return res;
}

Obj str_encode(Obj s, const char *encoding, const char *errors)
{
    int enc = encoding_id(encoding ? encoding : "utf-8");
    if (enc == ENC_UNKNOWN)
        return registry_codec(s, encoding, errors, true);
    if (enc == ENC_UNICODE_ESCAPE || enc == ENC_RAW_UNICODE_ESCAPE)
        return escape_encode(vm_unwrap(s), enc == ENC_RAW_UNICODE_ESCAPE);
    Obj *r = vm_roots(2);   /* the input, the exception the errors share */
    if (enc >= ENC_UTF16 && enc <= ENC_UTF32BE) {
        r[0] = vm_unwrap(s);
        Obj res = wide_encode(&r[0], enc, errors, &r[1]);
        vm_unroots(r);
        return res;
    }
    r[0] = vm_unwrap(s);
    Obj res = NULL;
    int64_t n = STR(r[0])->nbytes;
    const unsigned char *p = (const unsigned char *)str_cstr(r[0]);
    /* fast path: the UTF-8 bytes are the answer */
    bool direct = str_is_ascii(r[0]);
    if (!direct && enc == ENC_UTF8) {
        direct = true;
        for (const unsigned char *q = p; (q = memchr(q, 0xed, (size_t)(p + n - q))); q++)
            if (q[1] >= 0xa0) {   /* a surrogate */
                direct = false;
                break;
            }
    }
    if (direct) {
        res = bytes_alloc(n);
        if (res && n)
            memcpy(bytes_wdata(res), str_cstr(r[0]), (size_t)n);
        goto out;
    }
    uint32_t limit = enc == ENC_ASCII ? 0x80 : enc == ENC_LATIN1 ? 0x100 : 0x110000;
    const char *reason = enc == ENC_ASCII ? "ordinal not in range(128)"
                         : enc == ENC_LATIN1 ? "ordinal not in range(256)" : "surrogates not allowed";
    int eh = errors_id(errors);
    StrBuf b;
    sb_init(&b);
    int64_t i = 0, cpi = 0;
    while (i < n) {
        int len;
        uint32_t c = utf8_decode(p + i, &len);
        bool bad = c >= limit || (enc == ENC_UTF8 && c >= 0xd800 && c <= 0xdfff);
        if (!bad) {
            if (enc == ENC_UTF8)
                sb_add(&b, (const char *)p + i, (size_t)len);
            else
                sb_addc(&b, (char)c);
            i += len;
            cpi++;
            continue;
        }
        /* the run of unencodable chars */
        int64_t j = i, cpj = cpi;
        while (j < n) {
            int l2;
            uint32_t d = utf8_decode(p + j, &l2);
            if (!(d >= limit || (enc == ENC_UTF8 && d >= 0xd800 && d <= 0xdfff)))
                break;
            j += l2;
            cpj++;
        }
        if (eh == ERR_SURROGATEESCAPE || eh == ERR_SURROGATEPASS) {
            /* handles what it knows; the first char it cannot is an error
             * (reported with the rest of the run, as CPython) */
            bool failed = false;
            while (i < j) {
                int l2;
                uint32_t d = utf8_decode(p + i, &l2);
                if (eh == ERR_SURROGATEESCAPE && d >= 0xdc80 && d <= 0xdcff)
                    sb_addc(&b, (char)(d - 0xdc00));
                else if (eh == ERR_SURROGATEPASS && enc == ENC_UTF8 && d >= 0xd800 && d <= 0xdfff)
                    sb_add(&b, (const char *)p + i, (size_t)l2);
                else {
                    failed = true;
                    break;
                }
                i += l2;
                cpi++;
            }
            if (!failed)
                continue;
            sb_free(&b);
            raise_codec_error(E_UnicodeEncodeError, encoding_name(enc), &r[0], cpi, cpj, reason);
            goto out;
        }
        switch (eh) {
        case ERR_IGNORE:
            break;
        case ERR_REPLACE:
            for (int64_t k = cpi; k < cpj; k++)
                sb_addc(&b, '?');
            break;
        case ERR_BACKSLASHREPLACE:
        case ERR_XMLCHARREFREPLACE:
        case ERR_NAMEREPLACE:
            for (int64_t k = i; k < j;) {
                int l2;
                uint32_t d = utf8_decode(p + k, &l2);
                k += l2;
                char name[UNI_NAME_MAX];
                if (eh == ERR_XMLCHARREFREPLACE)
                    sb_printf(&b, "&#%u;", d);
                else if (eh == ERR_NAMEREPLACE && uni_name_of(d, name, sizeof name))
                    sb_printf(&b, "\\N{%s}", name);
                else
                    sb_add_escape(&b, d);
            }
            break;
        case ERR_STRICT:
            sb_free(&b);
            raise_codec_error(E_UnicodeEncodeError, encoding_name(enc), &r[0], cpi, cpj, reason);
            goto out;
        default: {
            /* any other handler, called: bytes go out as they are; a str
             * must be all ASCII (UTF-8) or all below the limit, else the
             * run is an error after all */
            Obj *h = vm_roots(1);
            int64_t pos = codecs_encode_error(errors, encoding_name(enc), reason, &r[0], cpi, cpj, &h[0],
                                              CODEC_ERR_BYTES_OK,
                                              "encoding error handler must return (str/bytes, int) tuple", &r[1]);
            bool ok = pos >= 0;
            if (ok && IS_BYTES(h[0])) {
                int64_t bn;
                const unsigned char *bq = bdata(h[0], &bn);
                sb_add(&b, (const char *)bq, (size_t)bn);
            } else if (ok) {
                const unsigned char *q = (const unsigned char *)str_cstr(h[0]);
                int64_t qn = STR(h[0])->nbytes;
                uint32_t lim = enc == ENC_UTF8 ? 0x80 : limit;
                for (int64_t k = 0; k < qn;) {
                    int l2;
                    uint32_t d = utf8_decode(q + k, &l2);
                    k += l2;
                    if (d >= lim) {
                        raise_codec_error(E_UnicodeEncodeError, encoding_name(enc), &r[0], cpi, cpj, reason);
                        ok = false;
                        break;
                    }
                    sb_addc(&b, (char)d);
                }
            }
            vm_unroots(h);
            if (!ok) {
                sb_free(&b);
                goto out;
            }
            p = (const unsigned char *)str_cstr(r[0]);   /* the handler ran Python code */
            i = str_byte_offset(r[0], pos);
            cpi = pos;
            continue;
        }
        }
        i = j;
        cpi = cpj;
    }
    res = bytes_new(b.p ? b.p : "", b.len);
    sb_free(&b);
out:
    vm_unroots(r);
    return res;
}

/* Whether CPython's str.encode / bytes.decode run the encoding's codec
 * directly (UTF-8, UTF-16, UTF-32, ASCII, Latin-1 by their main names),
 * not through the codec registry, which wraps a plain exception the codec
 * raises ("decoding with 'X' codec failed (TypeError: ...)"). */
static bool cpython_direct_codec(const char *enc)
{
    char n[16];
    size_t k = 0;
    for (; enc[k] && k < sizeof n - 1; k++) {
        char c = enc[k];
        bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.';
        n[k] = c >= 'A' && c <= 'Z' ? (char)(c + 32) : keep ? c : '_';
    }
    if (enc[k])
        return false;
    n[k] = 0;
    static const char *const direct[] = {"utf_8", "utf8", "utf_16", "utf16", "utf_32", "utf32", "ascii", "us_ascii",
                                         "latin1", "latin_1", "iso_8859_1", "iso8859_1"};
    for (size_t i = 0; i < ARRAY_LEN(direct); i++)
        if (!strcmp(n, direct[i]))
            return true;
    return false;
}

/* bytes.decode and str(b, ...): bytes_decode, a plain exception wrapped as by CPython's registry */
static Obj bytes_decode_method(Obj b, const char *encoding, const char *errors)
{
    Obj res = bytes_decode(b, encoding, errors);
    if (!res && encoding && !cpython_direct_codec(encoding) && encoding_id(encoding) != ENC_UNKNOWN)
        codec_wrap_error(false, encoding);
    return res;
}

Obj str_encode_method(Obj s, const char *encoding, const char *errors)
{
    Obj res = str_encode(s, encoding, errors);
    if (!res && encoding && !cpython_direct_codec(encoding) && encoding_id(encoding) != ENC_UNKNOWN)
        codec_wrap_error(true, encoding);
    return res;
}

Obj str_from_bytes_args(Obj b, Obj encoding, Obj errors)
{
    if (str_value(b)) {
        err_set(E_TypeError, "decoding str is not supported");
        return NULL;
    }
    if (!buffer_value(b)) {
        err_format(E_TypeError, "decoding to str: need a bytes-like object, %s found", type_name(b));
        return NULL;
    }
    Obj *r = vm_roots(1);
    r[0] = b;
    char enc[64] = "utf-8", errs[64] = "strict";
    Obj res = NULL;
    if (encoding) {
        if (!str_value(encoding)) {
            err_format(E_TypeError, "str() argument 'encoding' must be str, not %s", type_name(encoding));
            goto out;
        }
        copy_name(enc, sizeof enc, str_cstr(vm_unwrap(encoding)));
    }
    if (errors) {
        if (!str_value(errors)) {
            err_format(E_TypeError, "str() argument 'errors' must be str, not %s", type_name(errors));
            goto out;
        }
        copy_name(errs, sizeof errs, str_cstr(vm_unwrap(errors)));
    }
    res = bytes_decode_method(r[0], enc, errs);
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* Slots                                                               */
/* ------------------------------------------------------------------ */

static int64_t bytes_tp_hash(Obj v)
{
    v = vm_unwrap(v);
    int64_t h = BYTES(v)->hash;
    if (h == -1) {
        h = hash_data(VM_LINEAR(BYTES(v)->data), (size_t)BYTES(v)->length);
        vm_cache_store(&BYTES(v)->hash, h);
    }
    return h;
}

static int64_t bytearray_tp_hash(Obj v)
{
    err_format(E_TypeError, "unhashable type: '%s'", type_name(v));
    return -1;
}

static int64_t bytes_tp_len(Obj v)
{
    int64_t n;
    bdata(vm_unwrap(v), &n);
    return n;
}

static int bytes_tp_bool(Obj v) { return bytes_tp_len(v) != 0; }

static Obj bytes_richcompare(Obj a, Obj b, int op)
{
    Obj x = bytes_value(a), y = bytes_value(b);
    if (!x || !y)
        return g_NotImplemented;
    int64_t na, nb;
    const unsigned char *p = bdata(x, &na), *q = bdata(y, &nb);
    if ((op == CMP_EQ || op == CMP_NE) && na != nb)
        return vm_bool(op == CMP_NE);
    int c = memcmp(p, q, (size_t)(na < nb ? na : nb));
    if (!c)
        c = na < nb ? -1 : na > nb ? 1 : 0;
    switch (op) {
    case CMP_EQ: return vm_bool(c == 0);
    case CMP_NE: return vm_bool(c != 0);
    case CMP_LT: return vm_bool(c < 0);
    case CMP_LE: return vm_bool(c <= 0);
    case CMP_GT: return vm_bool(c > 0);
    default: return vm_bool(c >= 0);
    }
}

static Obj bytes_getitem(Obj self, Obj key)
{
    self = vm_unwrap(self);
    bool ba = is_ba(self);
    int64_t n;
    bdata(self, &n);
    if (TID(key) == TID_SLICE) {
        Obj *r = vm_roots(1);
        r[0] = self;
        int64_t start, stop, step, cnt = -1;
        if (slice_unpack(key, &start, &stop, &step) == 0) {
            bdata(r[0], &n);   /* a bytearray's length after __index__ ran */
            cnt = slice_adjust(n, &start, &stop, step);
        }
        Obj res = NULL;
        if (cnt >= 0) {
            if (step == 1) {
                res = sub_kind(ba, &r[0], start, start + cnt);
            } else if ((res = new_kind(ba, cnt)) && cnt) {
                unsigned char *d = kind_data(res);
                const unsigned char *p = bdata(r[0], &n);
                for (int64_t k = 0; k < cnt; k++)
                    d[k] = p[start + k * step];
            }
        }
        vm_unroots(r);
        return res;
    }
    int64_t i;
    int k;
    if (IS_SMALLINT(key)) {
        i = SMALLINT_VAL(key);
        k = 1;
    } else {
        Obj *r = vm_roots(1);
        r[0] = self;
        k = seq_index_arg(key, &i);
        self = r[0];
        vm_unroots(r);
    }
    if (k < 0)
        return NULL;
    if (k == 0) {
        err_format(E_TypeError, "%s indices must be integers or slices, not %s", ba ? "bytearray" : "byte",
                   type_name(key));
        return NULL;
    }
    const unsigned char *p = bdata(self, &n);
    if (i < 0)
        i += n;
    if (i < 0 || i >= n) {
        err_set(E_IndexError, ba ? "bytearray index out of range" : "index out of range");
        return NULL;
    }
    return MAKE_SMALLINT(p[i]);
}

static int bytes_contains(Obj self, Obj v)
{
    self = vm_unwrap(self);
    int64_t n;
    if (IS_INT(v) || (!bytes_value(v) && TYPE(v)->nb_index)) {
        Obj *r = vm_roots(1);
        r[0] = self;
        int c = byte_value(v, "byte must be in range(0, 256)");
        self = r[0];
        vm_unroots(r);
        if (c < 0)
            return -1;
        const unsigned char *p = bdata(self, &n);
        return memchr(p, c, (size_t)n) != NULL;
    }
    const char *q;
    int64_t qn;
    if (!bytes_like(v, &q, &qn)) {
        err_format(E_TypeError, "a bytes-like object is required, not '%s'", type_name(v));
        return -1;
    }
    const char *p = (const char *)bdata(self, &n);
    if (qn == 0)
        return 1;
    return mem_find(p, (size_t)n, q, (size_t)qn) != NULL;
}

static Obj concat_kind(bool ba, Obj a, Obj b)
{
    Obj *r = vm_roots(2);
    r[0] = a;
    r[1] = b;
    int64_t na, nb;
    bdata(a, &na);
    bdata(b, &nb);
    Obj res = new_kind(ba, na + nb);
    if (res && na + nb) {
        unsigned char *d = kind_data(res);
        memcpy(d, bdata(r[0], &na), (size_t)na);
        memcpy(d + na, bdata(r[1], &nb), (size_t)nb);
    }
    vm_unroots(r);
    return res;
}

static Obj bytes_add(Obj a, Obj b)
{
    Obj x = bytes_value(a);
    if (!x)
        return g_NotImplemented;
    Obj y = buffer_value(b);
    if (!y) {
        if ((TYPE(b)->flags & TPF_HEAPTYPE) && vm_lookup_special(b, "__radd__"))
            return g_NotImplemented;
        err_format(E_TypeError, "can't concat %s to %s", type_name(b), is_ba(x) ? "bytearray" : "bytes");
        return NULL;
    }
    if (!is_ba(x)) {
        int64_t na, nb;
        bdata(x, &na);
        bdata(y, &nb);
        if (nb == 0 && IS_BYTES(x))
            return x;
        if (na == 0 && IS_BYTES(y))
            return y;
    }
    return concat_kind(is_ba(x), x, y);
}

static Obj repeat_kind(Obj self, int64_t count)
{
    bool ba = is_ba(self);
    int64_t n;
    bdata(self, &n);
    if (count < 0)
        count = 0;
    if (!ba && (count == 1 || n == 0) && IS_BYTES(self) && count)
        return self;
    if (!ba && n && count > INT64_MAX / n) {
        err_set(E_OverflowError, "repeated bytes are too long");
        return NULL;
    }
    if (n && (uint64_t)count > vm_max_object_size() / (uint64_t)n)
        return err_nomemory();
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj res = new_kind(ba, n * count);
    if (res && n * count != 0) {
        unsigned char *d = kind_data(res);
        memcpy(d, bdata(r[0], &n), (size_t)n);
        mem_repeat(d, n, n * count);
    }
    vm_unroots(r);
    return res;
}

static Obj bytes_mul(Obj a, Obj b) { return seq_mul_slot(a, b, bytes_value, repeat_kind); }

static Obj bytes_mod(Obj a, Obj b)
{
    Obj s = bytes_value(a);
    if (!s)
        return g_NotImplemented;
    if (is_ba(s)) {
        Obj *r = vm_roots(1);
        r[0] = bytes_percent_format(s, b);
        Obj res = NULL;
        if (r[0])
            res = bytearray_new((const char *)VM_LINEAR(BYTES(r[0])->data), (size_t)BYTES(r[0])->length);
        vm_unroots(r);
        return res;
    }
    return bytes_percent_format(s, b);
}

/* Iterator: a = the bytes/bytearray, i = next index. */
static Obj bytes_iter_new(Obj b)
{
    Obj *r = vm_roots(1);
    r[0] = vm_unwrap(b);
    IterObj *it = (IterObj *)tm_allocate(TID_ITER, sizeof(IterObj));   /* no barrier: a new object */
    if (!it) {
        vm_unroots(r);
        return err_nomemory();
    }
    it->cls = (Obj)(is_ba(r[0]) ? T_bytearray_iterator : T_bytes_iterator);
    it->a = r[0];
    it->i = 0;
    vm_unroots(r);
    return (Obj)it;
}

static Obj bytes_iter_next(Obj self)
{
    IterObj *it = ITER(self);
    Obj b = it->a;
    if (!b)
        return NULL;
    int64_t n;
    const unsigned char *p = bdata(b, &n);
    if (it->i >= n) {
        VM_WRITE(self);
        it->a = NULL;
        return NULL;
    }
    Obj v = MAKE_SMALLINT(p[it->i]);
    VM_WRITE(self);
    it->i++;
    return v;
}

static Obj bytes_iter_length_hint(Obj *args, size_t nargs, Obj kwnames)
{
    IterObj *it = ITER(args[0]);
    if (!it->a)
        return MAKE_SMALLINT(0);
    int64_t n;
    bdata(it->a, &n);
    return MAKE_SMALLINT(n > it->i ? n - it->i : 0);
}

/* ------------------------------------------------------------------ */
/* Methods shared by bytes and bytearray                               */
/* ------------------------------------------------------------------ */

static Obj self_bytes(Obj v, const char *meth)
{
    Obj b = bytes_value(v);
    if (!b)
        err_format(E_TypeError, "descriptor '%s' requires a 'bytes' object but received a '%s'", meth,
                   type_name(v));
    return b;
}

#define SELF(name)                          \
    Obj self = self_bytes(args[0], name);   \
    if (!self)                              \
        return NULL

static inline bool b_space(unsigned c) { return c == ' ' || (c >= 9 && c <= 13); }
static inline bool b_lower(unsigned c) { return c >= 'a' && c <= 'z'; }
static inline bool b_upper(unsigned c) { return c >= 'A' && c <= 'Z'; }
static inline bool b_alpha(unsigned c) { return b_lower(c) || b_upper(c); }
static inline bool b_digit(unsigned c) { return c >= '0' && c <= '9'; }

/* sub argument of find() & co.: an int (byte) or bytes-like. Validates;
 * *byte = the byte or -1 for bytes-like. 0 or -1. */
static int sub_arg(Obj v, int *byte)
{
    const char *q;
    int64_t qn;
    if (bytes_like(v, &q, &qn)) {
        *byte = -1;
        return 0;
    }
    if (IS_INT(v) || TYPE(v)->nb_index) {
        *byte = byte_value(v, "byte must be in range(0, 256)");
        return *byte < 0 ? -1 : 0;
    }
    err_format(E_TypeError, "argument should be integer or bytes-like object, not '%s'", type_name(v));
    return -1;
}

/* Parse (sub[, start[, end]]): start/end adjusted; *q and *qn the needle (re-read
 * after any Python code ran); `one` holds an int needle. */
static bool bsearch_args(const char *name, Obj *args, size_t nargs, Obj kwnames, char *one, const char **q,
                         int64_t *qn, int64_t *start, int64_t *end)
{
    if (!self_bytes(args[0], name))
        return false;
    int byte;
    if (sub_arg(args[1], &byte) < 0)
        return false;
    *start = 0;
    *end = INT64_MAX / 4;
    if (nargs > 2 && slice_arg(args[2], start) < 0)
        return false;
    if (nargs > 3 && slice_arg(args[3], end) < 0)
        return false;
    if (byte >= 0) {
        one[0] = (char)byte;
        *q = one;
        *qn = 1;
    } else {
        bytes_like(args[1], q, qn);
    }
    return true;
}

static int64_t bfind(Obj self, const char *q, int64_t qn, int64_t start, int64_t end, bool reverse)
{
    int64_t n;
    const unsigned char *p = bdata(self, &n);
    adjust_range(&start, &end, n);
    if (start > n || end - start < qn)
        return -1;
    const char *h = (const char *)p + start;
    const char *hit = reverse ? mem_rfind(h, (size_t)(end - start), q, (size_t)qn)
                              : mem_find(h, (size_t)(end - start), q, (size_t)qn);
    return hit ? start + (hit - h) : -1;
}

static Obj bfind_method(const char *name, Obj *args, size_t nargs, Obj kwnames, bool reverse, bool raise)
{
    char one[1];
    const char *q;
    int64_t qn, start, end;
    if (!bsearch_args(name, args, nargs, kwnames, one, &q, &qn, &start, &end))
        return NULL;
    int64_t i = bfind(vm_unwrap(args[0]), q, qn, start, end, reverse);
    if (i < 0 && raise) {
        err_set(E_ValueError, "subsection not found");
        return NULL;
    }
    return MAKE_SMALLINT(i);
}

static Obj bm_find(Obj *a, size_t n, Obj k) { return bfind_method("find", a, n, k, false, false); }
static Obj bm_rfind(Obj *a, size_t n, Obj k) { return bfind_method("rfind", a, n, k, true, false); }
static Obj bm_index(Obj *a, size_t n, Obj k) { return bfind_method("index", a, n, k, false, true); }
static Obj bm_rindex(Obj *a, size_t n, Obj k) { return bfind_method("rindex", a, n, k, true, true); }

static Obj bm_count(Obj *args, size_t nargs, Obj kwnames)
{
    char one[1];
    const char *q;
    int64_t qn, start, end;
    if (!bsearch_args("count", args, nargs, kwnames, one, &q, &qn, &start, &end))
        return NULL;
    int64_t n;
    const unsigned char *p = bdata(vm_unwrap(args[0]), &n);
    adjust_range(&start, &end, n);
    if (start > n || end - start < qn)
        return MAKE_SMALLINT(0);
    if (qn == 0)
        return MAKE_SMALLINT(end - start + 1);
    return MAKE_SMALLINT(mem_count((const char *)p + start, (size_t)(end - start), q, (size_t)qn));
}

static bool btail(Obj self, const char *q, int64_t qn, int64_t start, int64_t end, bool at_end)
{
    int64_t n;
    const unsigned char *p = bdata(self, &n);
    adjust_range(&start, &end, n);
    if (start > n || end - start < qn)
        return false;
    return memcmp(p + (at_end ? end - qn : start), q, (size_t)qn) == 0;
}

static Obj bstartsend(const char *name, Obj *args, size_t nargs, Obj kwnames, bool at_end)
{
    if (!self_bytes(args[0], name))
        return NULL;
    int64_t start = 0, end = INT64_MAX / 4;
    if (nargs > 2 && slice_arg(args[2], &start) < 0)
        return NULL;
    if (nargs > 3 && slice_arg(args[3], &end) < 0)
        return NULL;
    Obj self = vm_unwrap(args[0]), pre = args[1];
    const char *q;
    int64_t qn;
    if (IS_TUPLE(pre)) {
        for (int64_t k = 0; k < TUPLE_LEN(pre); k++) {
            if (!bytes_like(TUPLE_ITEMS(pre)[k], &q, &qn)) {
                err_format(E_TypeError, "a bytes-like object is required, not '%s'", type_name(TUPLE_ITEMS(pre)[k]));
                return NULL;
            }
            if (btail(self, q, qn, start, end, at_end))
                return g_True;
        }
        return g_False;
    }
    if (!bytes_like(pre, &q, &qn)) {
        err_format(E_TypeError, "%s first arg must be bytes or a tuple of bytes, not %s", name, type_name(pre));
        return NULL;
    }
    return vm_bool(btail(self, q, qn, start, end, at_end));
}

static Obj bm_startswith(Obj *a, size_t n, Obj k) { return bstartsend("startswith", a, n, k, false); }
static Obj bm_endswith(Obj *a, size_t n, Obj k) { return bstartsend("endswith", a, n, k, true); }

bool str_or_bytes_like(Obj v, const char **p, int64_t *n)
{
    Obj u = vm_unwrap(v);
    if (IS_STR(u)) {
        *p = str_cstr(u);
        *n = STR(u)->nbytes;
        return true;
    }
    return bytes_like(u, p, n);
}

bool bytes_like_arg(Obj v, const char **q, int64_t *qn)
{
    if (bytes_like(v, q, qn))
        return true;
    unsigned char *mapped;
    bool writable;
    Obj u = vm_unwrap(v);
    if (TID(u) == TID_ITER && vm_hooks.mapped_buffer && vm_hooks.mapped_buffer(u, &mapped, qn, &writable)) {
        err_set(E_ValueError, "mmap closed or invalid");
        return false;
    }
    err_format(E_TypeError, "a bytes-like object is required, not '%s'", type_name(v));
    return false;
}

/* Pieces for split_into / splitlines_into. */
static const char *bdata_c(Obj v, int64_t *n) { return (const char *)bdata(v, n); }
static Obj bpiece(Obj *vp, int64_t b0, int64_t b1) { return sub_kind(is_ba(*vp), vp, b0, b1); }

static Obj bsplit_common(Obj *args, size_t nargs, Obj kwnames, bool rev)
{
    static const char *const names[] = {"sep", "maxsplit", NULL};
    const char *fname = rev ? "rsplit" : "split";
    if (!self_bytes(args[0], fname))
        return NULL;
    Obj *o = vm_roots(4);   /* sep, maxsplit, self, result */
    Obj res = NULL;
    const char *q = NULL;
    int64_t qn = 0;
    if (vm_parse_args(fname, args + 1, nargs - 1, kwnames, names, 0, 2, o) < 0)
        goto out;
    int64_t maxsplit = -1;
    if (o[1] && arg_i64(o[1], &maxsplit) < 0)
        goto out;
    if (o[0] && IS_NONE(o[0]))
        o[0] = NULL;
    if (o[0]) {
        if (!bytes_like_arg(o[0], &q, &qn))
            goto out;
        if (qn == 0) {
            err_set(E_ValueError, "empty separator");
            goto out;
        }
        o[0] = buffer_value(o[0]);
    }
    o[2] = vm_unwrap(args[0]);
    o[3] = list_new_capacity(8);
    if (o[3] && split_into(&o[2], &o[0], &o[3], maxsplit, rev, false, bdata_c, bpiece) == 0)
        res = o[3];
out:
    vm_unroots(o);
    return res;
}

static Obj bm_split(Obj *a, size_t n, Obj k) { return bsplit_common(a, n, k, false); }
static Obj bm_rsplit(Obj *a, size_t n, Obj k) { return bsplit_common(a, n, k, true); }

static Obj bm_splitlines(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"keepends", NULL};
    if (!self_bytes(args[0], "splitlines"))
        return NULL;
    Obj *o = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("splitlines", args + 1, nargs - 1, kwnames, names, 0, 1, o) < 0)
        goto out;
    int keep = 0;
    if (o[0] && (keep = vm_is_true(o[0])) < 0)
        goto out;
    o[2] = vm_unwrap(args[0]);
    o[1] = list_new_capacity(8);
    if (o[1] && splitlines_into(&o[2], &o[1], keep, false, bdata_c, bpiece) == 0)
        res = o[1];
out:
    vm_unroots(o);
    return res;
}

static Obj bpartition(Obj *args, size_t nargs, Obj kwnames, bool rev)
{
    const char *fname = rev ? "rpartition" : "partition";
    SELF(fname);
    const char *q;
    int64_t qn, n;
    if (!bytes_like_arg(args[1], &q, &qn))
        return NULL;
    if (qn == 0) {
        err_set(E_ValueError, "empty separator");
        return NULL;
    }
    Obj *o = vm_roots(5);
    o[0] = self;
    o[1] = buffer_value(args[1]);
    bool ba = is_ba(self);
    Obj res = NULL;
    const char *p = (const char *)bdata(self, &n);
    const char *hit = rev ? mem_rfind(p, (size_t)n, q, (size_t)qn) : mem_find(p, (size_t)n, q, (size_t)qn);
    int64_t i = hit ? hit - p : -1;
    if (!(o[4] = sub_kind(ba, &o[1], 0, qn)))
        goto out;
    if (i < 0) {
        if (!(o[2] = sub_kind(ba, &o[0], 0, n)) || !(o[3] = new_kind(ba, 0)) || !(o[4] = new_kind(ba, 0)))
            goto out;
        res = rev ? tuple_pack(3, o[3], o[4], o[2]) : tuple_pack(3, o[2], o[3], o[4]);
    } else {
        if (!(o[2] = sub_kind(ba, &o[0], 0, i)) || !(o[3] = sub_kind(ba, &o[0], i + qn, n)))
            goto out;
        res = tuple_pack(3, o[2], o[4], o[3]);
    }
out:
    vm_unroots(o);
    return res;
}

static Obj bm_partition(Obj *a, size_t n, Obj k) { return bpartition(a, n, k, false); }
static Obj bm_rpartition(Obj *a, size_t n, Obj k) { return bpartition(a, n, k, true); }

static Obj bm_join(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("join");
    Obj *r = vm_roots(2);
    r[0] = self;
    Obj res = NULL;
    if (IS_LIST(args[1]) || IS_TUPLE(args[1])) {
        r[1] = args[1];
    } else {
        r[1] = vm_list_from_iter(args[1]);
        if (!r[1])
            goto out;
    }
    int64_t cnt = IS_LIST(r[1]) ? LIST_LEN(r[1]) : TUPLE_LEN(r[1]);
#define ITEM(k) (IS_LIST(r[1]) ? LIST_ITEMS(r[1])[k] : TUPLE_ITEMS(r[1])[k])
    int64_t total = 0, sn;
    bdata(r[0], &sn);
    for (int64_t k = 0; k < cnt; k++) {
        const char *q;
        int64_t qn;
        if (!bytes_like(ITEM(k), &q, &qn)) {
            err_format(E_TypeError, "sequence item %ld: expected a bytes-like object, %s found", (long)k,
                       type_name(ITEM(k)));
            goto out;
        }
        total += qn + (k ? sn : 0);
    }
    bool ba = is_ba(r[0]);
    if (!ba && cnt == 1 && IS_BYTES(ITEM(0))) {
        res = ITEM(0);
        goto out;
    }
    res = new_kind(ba, total);
    if (!res || !total)
        goto out;
    unsigned char *d = kind_data(res);
    const unsigned char *sp = bdata(r[0], &sn);
    for (int64_t k = 0; k < cnt; k++) {
        if (k && sn) {
            memcpy(d, sp, (size_t)sn);
            d += sn;
        }
        const char *q;
        int64_t qn;
        bytes_like(ITEM(k), &q, &qn);
        memcpy(d, q, (size_t)qn);
        d += qn;
    }
#undef ITEM
out:
    vm_unroots(r);
    return res;
}

static Obj bstrip(Obj *args, size_t nargs, Obj kwnames, int which, const char *fname)
{
    SELF(fname);
    bool table[256];
    memset(table, 0, sizeof table);
    if (nargs > 1 && !IS_NONE(args[1])) {
        const char *q;
        int64_t qn;
        if (!bytes_like_arg(args[1], &q, &qn))
            return NULL;
        for (int64_t k = 0; k < qn; k++)
            table[(unsigned char)q[k]] = true;
    } else {
        for (unsigned c = 0; c < 256; c++)
            table[c] = b_space(c);
    }
    int64_t n;
    const unsigned char *p = bdata(self, &n);
    int64_t i = 0, j = n;
    if (which & 1)
        while (i < n && table[p[i]])
            i++;
    if (which & 2)
        while (j > i && table[p[j - 1]])
            j--;
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj res = sub_kind(is_ba(self), &r[0], i, j);
    vm_unroots(r);
    return res;
}

static Obj bm_strip(Obj *a, size_t n, Obj k) { return bstrip(a, n, k, 3, "strip"); }
static Obj bm_lstrip(Obj *a, size_t n, Obj k) { return bstrip(a, n, k, 1, "lstrip"); }
static Obj bm_rstrip(Obj *a, size_t n, Obj k) { return bstrip(a, n, k, 2, "rstrip"); }

static Obj bm_replace(Obj *args, size_t nargs, Obj kwnames)
{
    if (!self_bytes(args[0], "replace"))
        return NULL;
    const char *q, *w;
    int64_t qn, wn, n;
    if (!bytes_like_arg(args[1], &q, &qn) || !bytes_like_arg(args[2], &w, &wn))
        return NULL;
    int64_t count = -1;
    if (nargs > 3 && arg_i64(args[3], &count) < 0)
        return NULL;
    Obj self = vm_unwrap(args[0]);
    bool ba = is_ba(self);
    bytes_like(args[1], &q, &qn);
    bytes_like(args[2], &w, &wn);
    const char *p = (const char *)bdata(self, &n);
    if (count < 0)
        count = INT64_MAX;
    if (!ba && (count == 0 || (qn > 0 && !mem_find(p, (size_t)n, q, (size_t)qn))))
        return self;
    StrBuf b;
    sb_init(&b);
    sb_replace(&b, p, n, q, qn, w, wn, count, false);
    Obj res = b.cap == SIZE_MAX ? err_nomemory() : from_c(ba, b.p ? b.p : "", b.len);
    sb_free(&b);
    return res;
}

static Obj baffix(Obj *args, size_t nargs, Obj kwnames, bool suffix)
{
    const char *fname = suffix ? "removesuffix" : "removeprefix";
    SELF(fname);
    const char *q;
    int64_t qn, n;
    if (!bytes_like_arg(args[1], &q, &qn))
        return NULL;
    const unsigned char *p = bdata(self, &n);
    int64_t i = 0, j = n;
    if (qn <= n && memcmp(p + (suffix ? n - qn : 0), q, (size_t)qn) == 0) {
        if (suffix)
            j = n - qn;
        else
            i = qn;
    }
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj res = sub_kind(is_ba(self), &r[0], i, j);
    vm_unroots(r);
    return res;
}

static Obj bm_removeprefix(Obj *a, size_t n, Obj k) { return baffix(a, n, k, false); }
static Obj bm_removesuffix(Obj *a, size_t n, Obj k) { return baffix(a, n, k, true); }

enum { BC_LOWER, BC_UPPER, BC_SWAP, BC_TITLE, BC_CAPITALIZE };

static Obj bcase(Obj *args, size_t nargs, Obj kwnames, int mode, const char *fname)
{
    SELF(fname);
    int64_t n;
    bdata(self, &n);
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj res = new_kind(is_ba(self), n);
    if (res && n) {
        unsigned char *d = kind_data(res);
        const unsigned char *p = bdata(r[0], &n);
        bool prev = false;
        for (int64_t i = 0; i < n; i++) {
            unsigned c = p[i];
            switch (mode) {
            case BC_LOWER: if (b_upper(c)) c += 32; break;
            case BC_UPPER: if (b_lower(c)) c -= 32; break;
            case BC_SWAP: if (b_upper(c)) c += 32; else if (b_lower(c)) c -= 32; break;
            case BC_CAPITALIZE:
                if (i == 0 && b_lower(c)) c -= 32;
                else if (i > 0 && b_upper(c)) c += 32;
                break;
            case BC_TITLE: {
                bool cased = b_alpha(c);
                if (prev && b_upper(c)) c += 32;
                else if (!prev && b_lower(c)) c -= 32;
                prev = cased;
                break;
            }
            }
            d[i] = (unsigned char)c;
        }
    }
    vm_unroots(r);
    return res;
}

static Obj bm_lower(Obj *a, size_t n, Obj k) { return bcase(a, n, k, BC_LOWER, "lower"); }
static Obj bm_upper(Obj *a, size_t n, Obj k) { return bcase(a, n, k, BC_UPPER, "upper"); }
static Obj bm_swapcase(Obj *a, size_t n, Obj k) { return bcase(a, n, k, BC_SWAP, "swapcase"); }
static Obj bm_title(Obj *a, size_t n, Obj k) { return bcase(a, n, k, BC_TITLE, "title"); }
static Obj bm_capitalize(Obj *a, size_t n, Obj k) { return bcase(a, n, k, BC_CAPITALIZE, "capitalize"); }

enum { BI_DIGIT, BI_ALPHA, BI_ALNUM, BI_SPACE, BI_ASCII, BI_LOWER, BI_UPPER, BI_TITLE };

static Obj bis(Obj *args, size_t nargs, Obj kwnames, int what, const char *fname)
{
    SELF(fname);
    int64_t n;
    const unsigned char *p = bdata(self, &n);
    if (what == BI_ASCII) {
        for (int64_t i = 0; i < n; i++)
            if (p[i] >= 0x80)
                return g_False;
        return g_True;
    }
    if (what == BI_LOWER || what == BI_UPPER) {
        bool cased = false;
        for (int64_t i = 0; i < n; i++) {
            if (what == BI_LOWER ? b_upper(p[i]) : b_lower(p[i]))
                return g_False;
            if (b_alpha(p[i]))
                cased = true;
        }
        return vm_bool(cased);
    }
    if (what == BI_TITLE) {
        bool cased = false, prev = false;
        for (int64_t i = 0; i < n; i++) {
            unsigned c = p[i];
            if (b_upper(c)) {
                if (prev)
                    return g_False;
                prev = cased = true;
            } else if (b_lower(c)) {
                if (!prev)
                    return g_False;
                prev = cased = true;
            } else {
                prev = false;
            }
        }
        return vm_bool(cased);
    }
    if (n == 0)
        return g_False;
    for (int64_t i = 0; i < n; i++) {
        unsigned c = p[i];
        bool ok = what == BI_DIGIT ? b_digit(c) : what == BI_ALPHA ? b_alpha(c)
                  : what == BI_ALNUM ? b_alpha(c) || b_digit(c) : b_space(c);
        if (!ok)
            return g_False;
    }
    return g_True;
}

static Obj bm_isdigit(Obj *a, size_t n, Obj k) { return bis(a, n, k, BI_DIGIT, "isdigit"); }
static Obj bm_isalpha(Obj *a, size_t n, Obj k) { return bis(a, n, k, BI_ALPHA, "isalpha"); }
static Obj bm_isalnum(Obj *a, size_t n, Obj k) { return bis(a, n, k, BI_ALNUM, "isalnum"); }
static Obj bm_isspace(Obj *a, size_t n, Obj k) { return bis(a, n, k, BI_SPACE, "isspace"); }
static Obj bm_isascii(Obj *a, size_t n, Obj k) { return bis(a, n, k, BI_ASCII, "isascii"); }
static Obj bm_islower(Obj *a, size_t n, Obj k) { return bis(a, n, k, BI_LOWER, "islower"); }
static Obj bm_isupper(Obj *a, size_t n, Obj k) { return bis(a, n, k, BI_UPPER, "isupper"); }
static Obj bm_istitle(Obj *a, size_t n, Obj k) { return bis(a, n, k, BI_TITLE, "istitle"); }

static Obj bjust(Obj *args, size_t nargs, Obj kwnames, int how, const char *fname)
{
    if (!self_bytes(args[0], fname))
        return NULL;
    int64_t width;
    if (arg_i64(args[1], &width) < 0)
        return NULL;
    char fill = ' ';
    if (nargs > 2) {
        const char *q;
        int64_t qn;
        if (!bytes_like(args[2], &q, &qn) || qn != 1) {
            err_format(E_TypeError, "%s() argument 2 must be a byte string of length 1, not %s", fname,
                       type_name(args[2]));
            return NULL;
        }
        fill = q[0];
    }
    Obj self = vm_unwrap(args[0]);
    bool ba = is_ba(self);
    int64_t n;
    bdata(self, &n);
    if (width <= n && !ba)
        return self;
    int64_t total = width > n ? width - n : 0, left;
    if (how == 0)
        left = 0;
    else if (how == 1)
        left = total;
    else
        left = total / 2 + (total & width & 1);
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj res = new_kind(ba, n + total);
    if (res && n + total) {
        unsigned char *d = kind_data(res);
        memset(d, fill, (size_t)left);
        memcpy(d + left, bdata(r[0], &n), (size_t)n);
        memset(d + left + n, fill, (size_t)(total - left));
    }
    vm_unroots(r);
    return res;
}

static Obj bm_ljust(Obj *a, size_t n, Obj k) { return bjust(a, n, k, 0, "ljust"); }
static Obj bm_rjust(Obj *a, size_t n, Obj k) { return bjust(a, n, k, 1, "rjust"); }
static Obj bm_center(Obj *a, size_t n, Obj k) { return bjust(a, n, k, 2, "center"); }

static Obj bm_zfill(Obj *args, size_t nargs, Obj kwnames)
{
    if (!self_bytes(args[0], "zfill"))
        return NULL;
    int64_t width;
    if (arg_i64(args[1], &width) < 0)
        return NULL;
    Obj self = vm_unwrap(args[0]);
    bool ba = is_ba(self);
    int64_t n;
    bdata(self, &n);
    if (width <= n && !ba)
        return self;
    int64_t fill = width > n ? width - n : 0;
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj res = new_kind(ba, n + fill);
    if (res && n + fill) {
        unsigned char *d = kind_data(res);
        memset(d, '0', (size_t)fill);
        memcpy(d + fill, bdata(r[0], &n), (size_t)n);
        if (fill && n && (d[fill] == '+' || d[fill] == '-')) {
            d[0] = d[fill];
            d[fill] = '0';
        }
    }
    vm_unroots(r);
    return res;
}

static Obj bm_expandtabs(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"tabsize", NULL};
    if (!self_bytes(args[0], "expandtabs"))
        return NULL;
    Obj *o = vm_roots(1);
    int64_t tabsize = 8;
    if (vm_parse_args("expandtabs", args + 1, nargs - 1, kwnames, names, 0, 1, o) < 0 ||
        (o[0] && arg_c_int(o[0], &tabsize) < 0)) {
        vm_unroots(o);
        return NULL;
    }
    vm_unroots(o);
    Obj self = vm_unwrap(args[0]);
    int64_t n;
    const unsigned char *p = bdata(self, &n);
    StrBuf b;
    sb_init(&b);
    sb_expandtabs(&b, (const char *)p, n, tabsize, false);
    Obj res = b.cap == SIZE_MAX ? err_nomemory() : from_c(is_ba(self), b.p ? b.p : "", b.len);
    sb_free(&b);
    return res;
}

static Obj bm_decode(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"encoding", "errors", NULL};
    if (!self_bytes(args[0], "decode"))
        return NULL;
    Obj *o = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("decode", args + 1, nargs - 1, kwnames, names, 0, 2, o) < 0)
        goto out;
    char enc[64] = "utf-8", errs[64] = "strict";
    for (int k = 0; k < 2; k++) {
        if (!o[k])
            continue;
        if (!str_value(o[k])) {
            err_format(E_TypeError, "decode() argument '%s' must be str, not %s", names[k], type_name(o[k]));
            goto out;
        }
        snprintf(k ? errs : enc, 64, "%s", str_cstr(vm_unwrap(o[k])));
    }
    res = bytes_decode_method(vm_unwrap(args[0]), enc, errs);
out:
    vm_unroots(o);
    return res;
}

static Obj bm_hex(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"sep", "bytes_per_sep", NULL};
    static const char hex[] = "0123456789abcdef";
    if (!self_bytes(args[0], "hex"))
        return NULL;
    Obj *o = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("hex", args + 1, nargs - 1, kwnames, names, 0, 2, o) < 0)
        goto out;
    char sep[8] = "";
    size_t sepn = 0;
    int64_t per = 1;
    if (o[0] && !IS_NONE(o[0])) {
        const char *q;
        int64_t qn;
        Obj sv = str_value(o[0]);
        if (sv) {
            q = str_cstr(sv);
            qn = STR(sv)->nbytes;
            if (STR(sv)->length != 1 || qn != 1) {
                err_set(E_ValueError, qn == 1 ? "sep must be length 1." : "sep must be ASCII.");
                goto out;
            }
        } else if (TID(vm_unwrap(o[0])) == TID_MEMORYVIEW || !bytes_like(o[0], &q, &qn)) {
            err_set(E_TypeError, "sep must be str or bytes.");
            goto out;
        } else if (qn != 1) {
            err_set(E_ValueError, "sep must be length 1.");
            goto out;
        }
        sep[0] = q[0];
        sepn = 1;
    }
    if (o[1] && arg_i64(o[1], &per) < 0)
        goto out;
    int64_t n;
    const unsigned char *p = bdata(vm_unwrap(args[0]), &n);
    StrBuf b;
    sb_init(&b);
    int64_t group = per < 0 ? -per : per;
    for (int64_t i = 0; i < n; i++) {
        if (sepn && group && i > 0) {
            /* positive: groups counted from the right; negative: from the left */
            int64_t from = per > 0 ? n - i : i;
            if (from % group == 0)
                sb_addc(&b, sep[0]);
        }
        char h[2] = {hex[p[i] >> 4], hex[p[i] & 15]};
        sb_add(&b, h, 2);
    }
    res = sb_finish(&b);
out:
    vm_unroots(o);
    return res;
}

static int hexval(unsigned c)
{
    if (c >= '0' && c <= '9')
        return (int)(c - '0');
    if (c >= 'a' && c <= 'f')
        return (int)(c - 'a' + 10);
    if (c >= 'A' && c <= 'F')
        return (int)(c - 'A' + 10);
    return -1;
}

static Obj bm_fromhex(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = str_value(args[1]);
    if (!s) {
        err_format(E_TypeError, "fromhex() argument must be str, not %s", type_name(args[1]));
        return NULL;
    }
    const unsigned char *p = (const unsigned char *)str_cstr(s);
    int64_t n = STR(s)->nbytes;
    StrBuf b;
    sb_init(&b);
    int64_t cpi = 0;   /* error positions are in code points */
    for (int64_t i = 0; i < n;) {
        if (p[i] == ' ' || (p[i] >= 9 && p[i] <= 13)) {
            i++;
            cpi++;
            continue;
        }
        int hi = hexval(p[i]);
        if (hi < 0) {
            sb_free(&b);
            err_format(E_ValueError, "non-hexadecimal number found in fromhex() arg at position %ld", (long)cpi);
            return NULL;
        }
        int lo = i + 1 < n ? hexval(p[i + 1]) : -1;
        if (lo < 0) {
            sb_free(&b);
            err_format(E_ValueError, "non-hexadecimal number found in fromhex() arg at position %ld",
                       (long)cpi + 1);
            return NULL;
        }
        sb_addc(&b, (char)(hi * 16 + lo));
        i += 2;
        cpi += 2;
    }
    Obj cls = args[0];
    bool ba = type_is_subtype((TypeObj *)cls, T_bytearray);
    Obj res = b.cap == SIZE_MAX ? err_nomemory() : from_c(ba, b.p ? b.p : "", b.len);
    sb_free(&b);
    if (res && cls != (Obj)T_bytes && cls != (Obj)T_bytearray)
        res = vm_call1(cls, res);
    return res;
}

static Obj bm_maketrans(Obj *args, size_t nargs, Obj kwnames)
{
    const char *f, *t;
    int64_t fn, tn;
    if (!bytes_like_arg(args[0], &f, &fn) || !bytes_like_arg(args[1], &t, &tn))
        return NULL;
    if (fn != tn) {
        err_set(E_ValueError, "maketrans arguments must have same length");
        return NULL;
    }
    char table[256];
    for (int c = 0; c < 256; c++)
        table[c] = (char)c;
    for (int64_t k = 0; k < fn; k++)
        table[(unsigned char)f[k]] = t[k];
    return bytes_new(table, 256);
}

static Obj bm_translate(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"table", "delete", NULL};
    if (!self_bytes(args[0], "translate"))
        return NULL;
    if (nargs < 2) {
        err_set(E_TypeError, "translate() takes at least 1 positional argument (0 given)");
        return NULL;
    }
    Obj *o = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("translate", args + 1, nargs - 1, kwnames, names, 1, 2, o) < 0)
        goto out;
    const char *t = NULL, *d = "";
    int64_t tn = 0, dn = 0;
    if (!IS_NONE(o[0])) {
        if (!bytes_like_arg(o[0], &t, &tn))
            goto out;
        if (tn != 256) {
            err_set(E_ValueError, "translation table must be 256 characters long");
            goto out;
        }
    }
    if (o[1] && !bytes_like_arg(o[1], &d, &dn))
        goto out;
    bool del[256];
    memset(del, 0, sizeof del);
    for (int64_t k = 0; k < dn; k++)
        del[(unsigned char)d[k]] = true;
    if (!IS_NONE(o[0]))
        bytes_like(o[0], &t, &tn);
    Obj self = vm_unwrap(args[0]);
    int64_t n;
    const unsigned char *p = bdata(self, &n);
    StrBuf b;
    sb_init(&b);
    for (int64_t i = 0; i < n; i++)
        if (!del[p[i]])
            sb_addc(&b, t ? t[p[i]] : (char)p[i]);
    res = b.cap == SIZE_MAX ? err_nomemory() : from_c(is_ba(self), b.p ? b.p : "", b.len);
    sb_free(&b);
out:
    vm_unroots(o);
    return res;
}

static Obj bm___getnewargs__(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("__getnewargs__");
    Obj *r = vm_roots(1);
    r[0] = self;
    int64_t n;
    bdata(self, &n);
    Obj b = sub_kind(false, &r[0], 0, n);
    vm_unroots(r);
    return b ? tuple_pack(1, b) : NULL;
}

/* ------------------------------------------------------------------ */
/* bytearray mutation                                                  */
/* ------------------------------------------------------------------ */

/* A bytearray exported to a live memoryview cannot change size (CPython's
 * rule): 0, or -1 with BufferError. *bap is a root slot (the count of live
 * views may take a collection). */
static int ba_check_resize(Obj *bap, int64_t newlen)
{
    if (newlen == BYTEARRAY(*bap)->length || BYTEARRAY(*bap)->exports == 0 || memview_live_exports(bap) == 0)
        return 0;
    err_set(E_BufferError, "Existing exports of data: object cannot be re-sized");
    return -1;
}

/* Replace bytes [lo, hi) of the bytearray in *bap by data[0..dn) (C memory;
 * copied first if it may move: the resize check may collect). */
static int ba_set_range(Obj *bap, int64_t lo, int64_t hi, const char *data, int64_t dn)
{
    int64_t len = BYTEARRAY(*bap)->length;
    int64_t newlen = len - (hi - lo) + dn;
    if (newlen != len && BYTEARRAY(*bap)->exports) {
        char small[256], *heap;
        const char *src = dn ? stable_copy(data, (size_t)dn, small, sizeof small, &heap) : (heap = NULL, "");
        if (!src)
            return err_nomemory(), -1;
        int rc = ba_check_resize(bap, newlen);
        if (rc == 0)
            rc = ba_set_range(bap, lo, hi, src, dn);
        free(heap);
        return rc;
    }
    if (lo == 0 && dn == 0 && hi > 0) {
        ba_delete_prefix(*bap, hi);   /* del b[:n]: no bytes move */
        return 0;
    }
    if (newlen > len && ba_reserve(bap, newlen) < 0)
        return -1;
    unsigned char *p = ba_write_data(*bap);
    if (p) {
        if (hi < len && lo + dn != hi)
            memmove(p + lo + dn, p + hi, (size_t)(len - hi));
        if (dn)
            memcpy(p + lo, data, (size_t)dn);
    }
    VM_WRITE(*bap);
    BYTEARRAY(*bap)->length = newlen;
    return 0;
}

/* The bytes an assignment or extend gets from v, in a StrBuf. */
static int assign_source(Obj v, StrBuf *b, bool for_extend)
{
    const char *q;
    int64_t qn;
    if (bytes_like(v, &q, &qn)) {
        sb_add(b, q, (size_t)qn);
        return 0;
    }
    if (for_extend) {
        if (!TYPE(v)->tp_iter && !TYPE(v)->tp_getitem) {
            err_format(E_TypeError, "can't extend bytearray with %s", type_name(v));
            return -1;
        }
    } else if (IS_INT(v) || str_value(v) || (!TYPE(v)->tp_iter && !TYPE(v)->tp_getitem)) {
        err_set(E_TypeError, "can assign only bytes, buffers, or iterables of ints in range(0, 256)");
        return -1;
    }
    return collect_ints(v, b, "byte must be in range(0, 256)");
}

static int ba_delete_step(Obj *bap, int64_t start, int64_t step, int64_t cnt)
{
    if (cnt <= 0)
        return 0;
    if (ba_check_resize(bap, BYTEARRAY(*bap)->length - cnt) < 0)
        return -1;
    Obj ba = *bap;
    if (step < 0) {
        start = start + step * (cnt - 1);
        step = -step;
    }
    int64_t len = BYTEARRAY(ba)->length;
    unsigned char *p = ba_write_data(ba);
    int64_t w = start, k = 0;
    for (int64_t i = start; i < len; i++) {
        if (k < cnt && i == start + k * step) {
            k++;
            continue;
        }
        p[w++] = p[i];
    }
    VM_WRITE(ba);
    BYTEARRAY(ba)->length = len - cnt;
    return 0;
}

static int bytearray_setitem(Obj self, Obj key, Obj value)
{
    Obj *r = vm_roots(2);
    r[0] = vm_unwrap(self);
    r[1] = value;
    int rc = -1;
    if (TID(key) == TID_SLICE) {
        int64_t start, stop, step;
        if (slice_unpack(key, &start, &stop, &step) < 0)
            goto out;
        StrBuf b;
        sb_init(&b);
        if (value && assign_source(r[1], &b, false) < 0) {
            sb_free(&b);
            goto out;
        }
        if (b.cap == SIZE_MAX) {
            err_nomemory();
            goto out;
        }
        /* the length after the slice's and the value's __index__ ran */
        int64_t cnt = slice_adjust(BYTEARRAY(r[0])->length, &start, &stop, step);
        if (!value) {
            if (step == 1)
                rc = ba_set_range(&r[0], start, start + cnt, "", 0);
            else
                rc = ba_delete_step(&r[0], start, step, cnt);
            sb_free(&b);
            goto out;
        }
        int64_t dn = (int64_t)b.len;
        if (step == 1) {
            rc = ba_set_range(&r[0], start, start + cnt, b.p ? b.p : "", dn);
        } else if (dn == 0) {
            rc = ba_delete_step(&r[0], start, step, cnt);   /* CPython: empty value deletes */
        } else if (dn != cnt) {
            err_format(E_ValueError, "attempt to assign bytes of size %ld to extended slice of size %ld", (long)dn,
                       (long)cnt);
        } else {
            unsigned char *p = ba_write_data(r[0]);
            for (int64_t k = 0; k < cnt; k++)
                p[start + k * step] = (unsigned char)b.p[k];
            rc = 0;
        }
        sb_free(&b);
        goto out;
    }
    int64_t i;
    int k = seq_index_arg(key, &i);
    if (k == 0)
        err_format(E_TypeError, "bytearray indices must be integers or slices, not %s", type_name(key));
    if (k <= 0)
        goto out;
    int c = 0;
    if (r[1] && (c = byte_value(r[1], "byte must be in range(0, 256)")) < 0)
        goto out;
    int64_t len = BYTEARRAY(r[0])->length;
    if (i < 0)
        i += len;
    if (i < 0 || i >= len) {
        err_set(E_IndexError, "bytearray index out of range");
        goto out;
    }
    if (!r[1]) {
        rc = ba_set_range(&r[0], i, i + 1, "", 0);
    } else {
        ba_write_data(r[0])[i] = (unsigned char)c;
        rc = 0;
    }
out:
    vm_unroots(r);
    return rc;
}

#define BA_SELF(name)                                                      \
    Obj self = vm_unwrap(args[0]);                                         \
    if (!is_ba(self)) {                                                    \
        err_format(E_TypeError, "descriptor '%s' requires a 'bytearray' object but received a '%s'", name, \
                   type_name(args[0]));                                    \
        return NULL;                                                       \
    }

static Obj ba_append(Obj *args, size_t nargs, Obj kwnames)
{
    BA_SELF("append");
    (void)self;
    int c = byte_value(args[1], "byte must be in range(0, 256)");
    if (c < 0)
        return NULL;
    Obj *r = vm_roots(1);
    r[0] = vm_unwrap(args[0]);
    char ch = (char)c;
    int64_t len = BYTEARRAY(r[0])->length;
    int rc = ba_set_range(&r[0], len, len, &ch, 1);
    vm_unroots(r);
    return rc < 0 ? NULL : g_None;
}

static int ba_extend_obj(Obj *bap, Obj v)
{
    StrBuf b;
    sb_init(&b);
    if (assign_source(v, &b, true) < 0) {
        sb_free(&b);
        return -1;
    }
    if (b.cap == SIZE_MAX) {
        err_nomemory();
        return -1;
    }
    int64_t len = BYTEARRAY(*bap)->length;
    int rc = ba_set_range(bap, len, len, b.p ? b.p : "", (int64_t)b.len);
    sb_free(&b);
    return rc;
}

static Obj ba_extend(Obj *args, size_t nargs, Obj kwnames)
{
    BA_SELF("extend");
    Obj *r = vm_roots(1);
    r[0] = self;
    int rc = ba_extend_obj(&r[0], args[1]);
    vm_unroots(r);
    return rc < 0 ? NULL : g_None;
}

static Obj ba_pop(Obj *args, size_t nargs, Obj kwnames)
{
    BA_SELF("pop");
    int64_t i = -1;
    if (nargs > 1 && arg_i64(args[1], &i) < 0)
        return NULL;
    self = vm_unwrap(args[0]);
    int64_t len = BYTEARRAY(self)->length;
    if (len == 0) {
        err_set(E_IndexError, "pop from empty bytearray");
        return NULL;
    }
    if (i < 0)
        i += len;
    if (i < 0 || i >= len) {
        err_set(E_IndexError, "pop index out of range");
        return NULL;
    }
    int c = ba_wdata(self)[i];
    Obj *r = vm_roots(1);
    r[0] = self;
    int rc = ba_set_range(&r[0], i, i + 1, "", 0);
    vm_unroots(r);
    return rc < 0 ? NULL : MAKE_SMALLINT(c);
}

static Obj ba_insert(Obj *args, size_t nargs, Obj kwnames)
{
    BA_SELF("insert");
    (void)self;
    int64_t i;
    if (arg_i64(args[1], &i) < 0)
        return NULL;
    int c = byte_value(args[2], "byte must be in range(0, 256)");
    if (c < 0)
        return NULL;
    Obj *r = vm_roots(1);
    r[0] = vm_unwrap(args[0]);
    int64_t len = BYTEARRAY(r[0])->length;
    if (i < 0) {
        i += len;
        if (i < 0)
            i = 0;
    }
    if (i > len)
        i = len;
    char ch = (char)c;
    int rc = ba_set_range(&r[0], i, i, &ch, 1);
    vm_unroots(r);
    return rc < 0 ? NULL : g_None;
}

static Obj ba_remove(Obj *args, size_t nargs, Obj kwnames)
{
    BA_SELF("remove");
    (void)self;
    int c = byte_value(args[1], "byte must be in range(0, 256)");
    if (c < 0)
        return NULL;
    Obj *r = vm_roots(1);
    r[0] = vm_unwrap(args[0]);
    int64_t n;
    const unsigned char *p = bdata(r[0], &n);
    const unsigned char *hit = memchr(p, c, (size_t)n);
    Obj res = g_None;
    if (!hit) {
        err_set(E_ValueError, "value not found in bytearray");
        res = NULL;
    } else {
        int64_t i = hit - p;
        if (ba_set_range(&r[0], i, i + 1, "", 0) < 0)
            res = NULL;
    }
    vm_unroots(r);
    return res;
}

static Obj ba_reverse(Obj *args, size_t nargs, Obj kwnames)
{
    BA_SELF("reverse");
    int64_t n = BYTEARRAY(self)->length;
    if (n > 1) {
        unsigned char *p = ba_write_data(self);
        for (int64_t i = 0, j = n - 1; i < j; i++, j--) {
            unsigned char t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
    }
    return g_None;
}

static Obj ba_clear(Obj *args, size_t nargs, Obj kwnames)
{
    BA_SELF("clear");
    Obj *r = vm_roots(1);
    r[0] = self;
    int rc = ba_check_resize(&r[0], 0);
    self = r[0];
    vm_unroots(r);
    if (rc < 0)
        return NULL;
    VM_WRITE(self);
    BYTEARRAY(self)->length = 0;
    BYTEARRAY(self)->raw = NULL;
    BYTEARRAY(self)->start = 0;
    return g_None;
}

/* (type, args, state) as CPython's: args () when empty, (bytes,) for
 * protocol 3 and up, else the data as a latin-1 str (protocols 0-2 have no
 * bytes type); state is the instance's __getstate__(). */
static Obj ba_reduce_proto(Obj *args, int64_t proto)
{
    BA_SELF("__reduce_ex__");
    /* r: 0 the instance, 1 args, 2 data, 3 the bytearray (allocations move it) */
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = args[0];
    r[3] = self;
    if (BYTEARRAY(r[3])->length == 0)
        r[1] = tuple_pack(0);
    else if (proto >= 3)
        r[1] = (r[2] = sub_kind(false, &r[3], 0, BYTEARRAY(r[3])->length)) ? tuple_pack(1, r[2]) : NULL;
    else if ((r[2] = bytes_decode(r[3], "latin-1", "strict")) && (r[3] = str_from_cstr("latin-1")))
        r[1] = tuple_pack(2, r[2], r[3]);
    if (r[1] && (r[2] = vm_object_state(r[0])))
        res = tuple_pack(3, (Obj)TYPE(r[0]), r[1], r[2]);
    vm_unroots(r);
    return res;
}

static Obj ba_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs, (void)kwnames;
    return ba_reduce_proto(args, 2);
}

static Obj ba_reduce_ex(Obj *args, size_t nargs, Obj kwnames)
{
    (void)kwnames;
    int64_t proto = 0;
    if (nargs > 1 && vm_index_i64(args[1], &proto) < 0)
        return NULL;
    return ba_reduce_proto(args, proto);
}

static Obj ba_copy(Obj *args, size_t nargs, Obj kwnames)
{
    BA_SELF("copy");
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj res = sub_kind(true, &r[0], 0, BYTEARRAY(self)->length);
    vm_unroots(r);
    return res;
}

static Obj ba_inplace_add(Obj a, Obj b)
{
    Obj self = vm_unwrap(a);
    if (!is_ba(self))
        return g_NotImplemented;
    if (!buffer_value(b)) {
        err_format(E_TypeError, "can't concat %s to bytearray", type_name(b));
        return NULL;
    }
    Obj *r = vm_roots(2);
    r[0] = self;
    r[1] = a;
    int rc = ba_extend_obj(&r[0], b);
    Obj res = rc < 0 ? NULL : r[1];
    vm_unroots(r);
    return res;
}

static Obj ba_inplace_mul(Obj a, Obj b)
{
    Obj self = vm_unwrap(a);
    if (!is_ba(self))
        return g_NotImplemented;
    Obj *r = vm_roots(2);
    r[0] = self;
    r[1] = a;
    Obj res = NULL;
    int64_t count;
    int k = repeat_count(b, &count);
    if (k <= 0) {
        res = k == 0 ? g_NotImplemented : NULL;
        goto out;
    }
    int64_t n = BYTEARRAY(r[0])->length;
    if (ba_check_resize(&r[0], count <= 0 || n == 0 ? 0 : count > ((int64_t)1 << 40) / n ? -1 : n * count) < 0)
        goto out;
    if (count <= 0 || n == 0) {
        VM_WRITE(r[0]);
        BYTEARRAY(r[0])->length = 0;
        res = r[1];
        goto out;
    }
    if (count > ((int64_t)1 << 40) / n) {
        res = err_nomemory();
        goto out;
    }
    if (ba_reserve(&r[0], n * count) < 0)
        goto out;
    unsigned char *p = ba_write_data(r[0]);
    for (int64_t k2 = 1; k2 < count; k2++)
        memcpy(p + k2 * n, p, (size_t)n);
    VM_WRITE(r[0]);
    BYTEARRAY(r[0])->length = n * count;
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* Types                                                               */
/* ------------------------------------------------------------------ */

#define SHARED_METHODS                                              \
    {"decode", bm_decode, METH_KW, NULL},                           \
    {"hex", bm_hex, METH_KW, NULL},                                 \
    {"fromhex", bm_fromhex, METH_CLASS | METH_O, NULL},             \
    {"maketrans", bm_maketrans, METH_STATIC | METH_ARGS(2, 2), NULL}, \
    {"translate", bm_translate, METH_KW, NULL},                     \
    {"join", bm_join, METH_O, NULL},                                \
    {"split", bm_split, METH_KW, NULL},                             \
    {"rsplit", bm_rsplit, METH_KW, NULL},                           \
    {"splitlines", bm_splitlines, METH_KW, NULL},                   \
    {"strip", bm_strip, METH_ARGS(0, 1), NULL},                     \
    {"lstrip", bm_lstrip, METH_ARGS(0, 1), NULL},                   \
    {"rstrip", bm_rstrip, METH_ARGS(0, 1), NULL},                   \
    {"replace", bm_replace, METH_ARGS(2, 3), NULL},                 \
    {"find", bm_find, METH_ARGS(1, 3) | METH_OLDMSG | METH_BARENAME, NULL}, \
    {"rfind", bm_rfind, METH_ARGS(1, 3) | METH_OLDMSG | METH_BARENAME, NULL}, \
    {"index", bm_index, METH_ARGS(1, 3) | METH_OLDMSG | METH_BARENAME, NULL}, \
    {"rindex", bm_rindex, METH_ARGS(1, 3) | METH_OLDMSG | METH_BARENAME, NULL}, \
    {"count", bm_count, METH_ARGS(1, 3) | METH_OLDMSG | METH_BARENAME, NULL}, \
    {"startswith", bm_startswith, METH_ARGS(1, 3) | METH_OLDMSG | METH_BARENAME, NULL}, \
    {"endswith", bm_endswith, METH_ARGS(1, 3) | METH_OLDMSG | METH_BARENAME, NULL}, \
    {"partition", bm_partition, METH_O, NULL},                      \
    {"rpartition", bm_rpartition, METH_O, NULL},                    \
    {"removeprefix", bm_removeprefix, METH_O, NULL},                \
    {"removesuffix", bm_removesuffix, METH_O, NULL},                \
    {"lower", bm_lower, METH_NOARGS, NULL},                         \
    {"upper", bm_upper, METH_NOARGS, NULL},                         \
    {"swapcase", bm_swapcase, METH_NOARGS, NULL},                   \
    {"title", bm_title, METH_NOARGS, NULL},                         \
    {"capitalize", bm_capitalize, METH_NOARGS, NULL},               \
    {"isdigit", bm_isdigit, METH_NOARGS, NULL},                     \
    {"isalpha", bm_isalpha, METH_NOARGS, NULL},                     \
    {"isalnum", bm_isalnum, METH_NOARGS, NULL},                     \
    {"isspace", bm_isspace, METH_NOARGS, NULL},                     \
    {"isascii", bm_isascii, METH_NOARGS, NULL},                     \
    {"islower", bm_islower, METH_NOARGS, NULL},                     \
    {"isupper", bm_isupper, METH_NOARGS, NULL},                     \
    {"istitle", bm_istitle, METH_NOARGS, NULL},                     \
    {"ljust", bm_ljust, METH_ARGS(1, 2), NULL},                     \
    {"rjust", bm_rjust, METH_ARGS(1, 2), NULL},                     \
    {"center", bm_center, METH_ARGS(1, 2), NULL},                   \
    {"zfill", bm_zfill, METH_O, NULL},                              \
    {"expandtabs", bm_expandtabs, METH_KW, NULL}

static const MethodDef bytes_methods[] = {
    SHARED_METHODS,
    {"__getnewargs__", bm___getnewargs__, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef bytearray_methods[] = {
    SHARED_METHODS,
    {"append", ba_append, METH_O, NULL},
    {"extend", ba_extend, METH_O, NULL},
    {"pop", ba_pop, METH_ARGS(0, 1), NULL},
    {"insert", ba_insert, METH_ARGS(2, 2), NULL},
    {"remove", ba_remove, METH_O, NULL},
    {"reverse", ba_reverse, METH_NOARGS, NULL},
    {"clear", ba_clear, METH_NOARGS, NULL},
    {"copy", ba_copy, METH_NOARGS, NULL},
    {"__reduce__", ba_reduce, METH_NOARGS, NULL},
    {"__reduce_ex__", ba_reduce_ex, METH_ARGS(0, 1), NULL},
    {NULL, NULL, 0, NULL},
};

/* Pickling as CPython's: (iter, (the bytes,), next index), or iter(()) once
 * exhausted; __setstate__ clamps the index to the data. */
static Obj bytes_iter_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    if (!(r[1] = vm_getattr_cstr(g_builtins_module, "iter")))
        goto out;
    Obj b = ITER(r[0])->a;
    if (!(r[2] = tuple_pack(1, b ? b : g_empty_tuple)))
        goto out;
    res = b ? tuple_pack(3, r[1], r[2], MAKE_SMALLINT(ITER(r[0])->i)) : tuple_pack(2, r[1], r[2]);   /* an index: no allocation among the arguments */
out:
    vm_unroots(r);
    return res;
}

static Obj bytes_iter_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t i;
    if (arg_i64(args[1], &i) < 0)
        return NULL;
    Obj it = args[0];
    Obj b = ITER(it)->a;
    if (!b)
        return g_None;
    int64_t n;
    bdata(b, &n);
    VM_WRITE(it);
    ITER(it)->i = i < 0 ? 0 : i > n ? n : i;
    return g_None;
}

static const MethodDef bytes_iter_methods[] = {
    {"__length_hint__", bytes_iter_length_hint, METH_NOARGS, NULL},
    {"__reduce__", bytes_iter_reduce, METH_NOARGS, "Return state information for pickling."},
    {"__setstate__", bytes_iter_setstate, METH_O, "Set state information for unpickling."},
    {NULL, NULL, 0, NULL},
};

static TypeObj *make_iter_type(const char *name)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_ITER, 0);
    t->tp_iter = iter_self;
    t->tp_iternext = bytes_iter_next;
    type_add_methods(t, bytes_iter_methods);
    type_ready(t);
    return t;
}

static void set_common_slots(TypeObj *t)
{
    t->tp_richcompare = bytes_richcompare;
    t->tp_len = bytes_tp_len;
    t->tp_getitem = bytes_getitem;
    t->tp_contains = bytes_contains;
    t->tp_iter = bytes_iter_new;
    t->tp_bool = bytes_tp_bool;
    t->nb[NB_ADD] = bytes_add;
    t->nb[NB_MUL] = bytes_mul;
    t->nb[NB_MOD] = bytes_mod;
}

void bytes_init_type(void)
{
    get_empty_bytes();
    TypeObj *t = (TypeObj *)type_new_builtin("bytes", T_object, TID_BYTES, TPF_BASETYPE | TPF_MATCH_SELF);
    T_bytes = t;
    set_common_slots(t);
    t->tp_repr = bytes_repr;
    t->tp_str = bytes_repr;
    t->tp_hash = bytes_tp_hash;
    t->tp_new = bytes_tp_new;
    type_add_methods(t, bytes_methods);
    type_ready(t);

    t = (TypeObj *)type_new_builtin("bytearray", T_object, TID_BYTEARRAY, TPF_BASETYPE | TPF_MATCH_SELF);
    T_bytearray = t;
    set_common_slots(t);
    t->tp_repr = bytearray_repr;
    t->tp_str = bytearray_repr;
    t->tp_hash = bytearray_tp_hash;
    t->tp_new = bytearray_tp_new;
    t->tp_init = bytearray_tp_init;
    t->tp_setitem = bytearray_setitem;
    t->nb_inplace[NB_ADD] = ba_inplace_add;
    t->nb_inplace[NB_MUL] = ba_inplace_mul;
    type_add_methods(t, bytearray_methods);
    type_ready(t);

    T_bytes_iterator = make_iter_type("bytes_iterator");
    T_bytearray_iterator = make_iter_type("bytearray_iterator");
}
