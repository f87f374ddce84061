/* bytes (immutable, data inline after the header, NUL-terminated) and
 * bytearray (mutable: data in a RawObj with spare capacity), their shared
 * methods, their iterators, and the codecs (str.encode / bytes.decode):
 * utf-8, ascii, latin-1 with the common error handlers. */
#define _GNU_SOURCE
#include "strings.h"

#include <stdlib.h>
#include <string.h>

TypeObj *T_bytes, *T_bytearray, *T_bytes_iterator;
static TypeObj *T_bytearray_iterator;
static Obj empty_bytes;   /* pinned, a global root */

/* ------------------------------------------------------------------ */
/* Allocation and data access                                          */
/* ------------------------------------------------------------------ */

static inline bool in_gc_heap(const void *p)
{
    return (uintptr_t)((const char *)p - tm_gs_base) < tm_seg.segment_size;
}

static Obj get_empty_bytes(void)
{
    if (unlikely(!empty_bytes)) {
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
    Obj b = (Obj)tm_allocate_var(TID_BYTES, (uintptr_t)n);
    if (!b)
        return err_nomemory();
    BYTES(b)->hash = -1;
    return b;
}

static inline unsigned char *bytes_wdata(Obj b) { return VM_LINEAR(BYTES(b)->data); }

/* Copy data that may live in a movable object before allocating. */
static const char *stable_copy(const char *data, size_t n, char *small, size_t smalln, char **heap)
{
    *heap = NULL;
    if (!in_gc_heap(data))
        return data;
    if (n <= smalln) {
        memcpy(small, data, n);
        return small;
    }
    *heap = malloc(n);
    if (*heap)
        memcpy(*heap, data, n);
    return *heap;
}

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
    return raw ? VM_LINEAR(((RawObj *)raw)->data) : NULL;
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

/* Capacity for at least `need` bytes (geometric growth); 0 or -1. */
static int ba_reserve(Obj *bap, int64_t need)
{
    Obj raw = BYTEARRAY(*bap)->raw;
    int64_t cap = raw ? ((RawObj *)raw)->length : 0;
    if (need <= cap)
        return 0;
    int64_t ncap = cap + (cap >> 1) + 16;
    if (ncap < need)
        ncap = need;
    Obj nraw = raw_alloc(ncap);
    if (!nraw)
        return -1;
    int64_t len = BYTEARRAY(*bap)->length;
    if (len)
        memcpy(VM_LINEAR(((RawObj *)nraw)->data), ba_wdata(*bap), (size_t)len);
    VM_WRITE(*bap);
    BYTEARRAY(*bap)->raw = nraw;
    return 0;
}

/* Make the bytearray writable (barrier on its storage) and return its data. */
static unsigned char *ba_write_data(Obj ba)
{
    Obj raw = BYTEARRAY(ba)->raw;
    if (!raw)
        return NULL;
    VM_WRITE(raw);
    return VM_LINEAR(((RawObj *)raw)->data);
}

static inline bool is_ba(Obj v) { return TID(v) == TID_BYTEARRAY; }

/* Data of a bytes or bytearray (unwrapped); linear, valid until the next allocation. */
static inline const unsigned char *bdata(Obj v, int64_t *n)
{
    if (TID(v) == TID_BYTES) {
        *n = BYTES(v)->length;
        return (const unsigned char *)VM_LINEAR(BYTES(v)->data);
    }
    *n = BYTEARRAY(v)->length;
    const unsigned char *p = ba_wdata(v);
    return p ? p : (const unsigned char *)"";
}

bool bytes_like(Obj v, const char **p, int64_t *n)
{
    v = vm_unwrap(v);
    unsigned tid = TID(v);
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

static void repr_body(StrBuf *b, const unsigned char *p, int64_t n)
{
    static const char hex[] = "0123456789abcdef";
    bool has_sq = memchr(p, '\'', (size_t)n) != NULL;
    bool has_dq = memchr(p, '"', (size_t)n) != NULL;
    char quote = has_sq && !has_dq ? '"' : '\'';
    sb_addc(b, 'b');
    sb_addc(b, quote);
    for (int64_t i = 0; i < n; i++) {
        unsigned c = p[i];
        if (c == (unsigned)quote || c == '\\') {
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

Obj bytes_repr(Obj v)
{
    v = vm_unwrap(v);
    int64_t n;
    const unsigned char *p = bdata(v, &n);
    StrBuf b;
    sb_init(&b);
    repr_body(&b, p, n);
    return sb_finish(&b);
}

Obj bytearray_repr(Obj v)
{
    Obj orig = v;
    v = vm_unwrap(v);
    int64_t n;
    const unsigned char *p = bdata(v, &n);
    StrBuf b;
    sb_init(&b);
    sb_adds(&b, type_name(orig));
    sb_addc(&b, '(');
    repr_body(&b, p, n);
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
            snprintf(enc, sizeof enc, "%s", str_cstr(vm_unwrap(o[1])));
        if (o[2])
            snprintf(errs, sizeof errs, "%s", str_cstr(vm_unwrap(o[2])));
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

static Obj wrap_subclass(Obj type, TypeObj *base, Obj value)
{
    if (!value || type == (Obj)base)
        return value;
    Obj *r = vm_roots(1);
    r[0] = value;
    Obj inst = instance_new((TypeObj *)type);
    if (inst) {
        VM_WRITE(inst);
        ((InstanceObj *)inst)->base_value = r[0];
    }
    vm_unroots(r);
    return inst;
}

static Obj bytes_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    return wrap_subclass(type, T_bytes, new_from_args(false, args, nargs, kwnames));
}

static Obj bytearray_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    return wrap_subclass(type, T_bytearray, new_from_args(true, args, nargs, kwnames));
}

/* ------------------------------------------------------------------ */
/* Codecs                                                              */
/* ------------------------------------------------------------------ */

enum { ENC_UTF8, ENC_ASCII, ENC_LATIN1, ENC_UNKNOWN };
enum { ERR_STRICT, ERR_IGNORE, ERR_REPLACE, ERR_SURROGATEESCAPE, ERR_BACKSLASHREPLACE,
       ERR_XMLCHARREFREPLACE, ERR_SURROGATEPASS, ERR_UNKNOWN };

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
    return ENC_UNKNOWN;
}

static const char *encoding_name(int id)
{
    return id == ENC_UTF8 ? "utf-8" : id == ENC_ASCII ? "ascii" : "latin-1";
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
    return ERR_UNKNOWN;
}

/* Raise UnicodeDecodeError / UnicodeEncodeError(encoding, object, start, end, reason).
 * *objp is in a root slot. */
static void raise_codec_error(TypeObj *type, const char *enc, Obj *objp, int64_t start, int64_t end,
                              const char *reason)
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

/* Handle an error span [start, end) per `errors`; false: raise. */
static bool unknown_handler(const char *errors)
{
    err_format(E_LookupError, "unknown error handler name '%s'", errors);
    return false;
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
static Obj decode_impl(Obj *bp, int enc, const char *errors)
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
            for (int64_t k = 0; k < span; k++) {
                char e[8];
                snprintf(e, sizeof e, "\\x%02x", p[i + k]);
                sb_adds(&b, e);
            }
            break;
        case ERR_STRICT:
        case ERR_SURROGATEPASS:
        case ERR_XMLCHARREFREPLACE: {
            sb_free(&b);
            if (eh == ERR_XMLCHARREFREPLACE) {
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
        default:
            sb_free(&b);
            unknown_handler(errors);
            return NULL;
        }
        i += span;
    }
    return sb_finish(&b);
}

Obj bytes_decode(Obj b, const char *encoding, const char *errors)
{
    int enc = encoding_id(encoding ? encoding : "utf-8");
    if (enc == ENC_UNKNOWN) {
        err_format(E_LookupError, "unknown encoding: %s", encoding);
        return NULL;
    }
    Obj *r = vm_roots(1);
    r[0] = vm_unwrap(b);
    Obj res = decode_impl(&r[0], enc, errors);
    vm_unroots(r);
    return res;
}

Obj str_encode(Obj s, const char *encoding, const char *errors)
{
    int enc = encoding_id(encoding ? encoding : "utf-8");
    if (enc == ENC_UNKNOWN) {
        err_format(E_LookupError, "unknown encoding: %s", encoding);
        return NULL;
    }
    Obj *r = vm_roots(1);
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
            /* only handles what it knows; anything else is an error */
            for (int64_t k = i; k < j;) {
                int l2;
                uint32_t d = utf8_decode(p + k, &l2);
                if (eh == ERR_SURROGATEESCAPE && d >= 0xdc80 && d <= 0xdcff)
                    sb_addc(&b, (char)(d - 0xdc00));
                else if (eh == ERR_SURROGATEPASS && enc == ENC_UTF8 && d >= 0xd800 && d <= 0xdfff)
                    sb_add(&b, (const char *)p + k, (size_t)l2);
                else {
                    eh = ERR_STRICT;
                    break;
                }
                k += l2;
            }
            if (eh != ERR_STRICT) {
                i = j;
                cpi = cpj;
                continue;
            }
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
            for (int64_t k = i; k < j;) {
                int l2;
                uint32_t d = utf8_decode(p + k, &l2);
                k += l2;
                char e[16];
                if (eh == ERR_XMLCHARREFREPLACE)
                    snprintf(e, sizeof e, "&#%u;", d);
                else if (d < 0x100)
                    snprintf(e, sizeof e, "\\x%02x", d);
                else if (d < 0x10000)
                    snprintf(e, sizeof e, "\\u%04x", d);
                else
                    snprintf(e, sizeof e, "\\U%08x", d);
                sb_adds(&b, e);
            }
            break;
        case ERR_STRICT:
            sb_free(&b);
            raise_codec_error(E_UnicodeEncodeError, encoding_name(enc), &r[0], cpi, cpj, reason);
            goto out;
        default:
            sb_free(&b);
            unknown_handler(errors);
            goto out;
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

Obj str_from_bytes_args(Obj b, Obj encoding, Obj errors)
{
    if (str_value(b)) {
        err_set(E_TypeError, "decoding str is not supported");
        return NULL;
    }
    if (!bytes_value(b)) {
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
        snprintf(enc, sizeof enc, "%s", str_cstr(vm_unwrap(encoding)));
    }
    if (errors) {
        if (!str_value(errors)) {
            err_format(E_TypeError, "str() argument 'errors' must be str, not %s", type_name(errors));
            goto out;
        }
        snprintf(errs, sizeof errs, "%s", str_cstr(vm_unwrap(errors)));
    }
    res = bytes_decode(r[0], enc, errs);
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
        BYTES(v)->hash = h;
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
        int64_t start, stop, step;
        int64_t cnt = slice_indices(key, n, &start, &stop, &step);
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
    const unsigned char *p = bdata(self, &n);
    if (qn == 0)
        return 1;
    return memmem(p, (size_t)n, q, (size_t)qn) != NULL;
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
    Obj y = bytes_value(b);
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
    if (n && count > ((int64_t)1 << 40) / n)
        return err_nomemory();
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj res = new_kind(ba, n * count);
    if (res && n * count != 0) {
        unsigned char *d = kind_data(res);
        memcpy(d, bdata(r[0], &n), (size_t)n);
        int64_t done = n, total = n * count;
        while (done < total) {
            int64_t k = done < total - done ? done : total - done;
            memcpy(d + done, d, (size_t)k);
            done += k;
        }
    }
    vm_unroots(r);
    return res;
}

static Obj bytes_mul(Obj a, Obj b)
{
    Obj s = bytes_value(a), c = b;
    if (!s) {
        s = bytes_value(b);
        c = a;
        if (!s)
            return g_NotImplemented;
    }
    Obj *r = vm_roots(1);
    r[0] = s;
    int64_t n;
    int k = repeat_count(c, &n);
    Obj res = k < 0 ? NULL : k == 0 ? g_NotImplemented : repeat_kind(r[0], n);
    vm_unroots(r);
    return res;
}

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
Obj bytes_iter_new(Obj b)
{
    Obj *r = vm_roots(1);
    r[0] = vm_unwrap(b);
    IterObj *it = (IterObj *)tm_allocate(TID_ITER, sizeof(IterObj));
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
    IterObj *it = (IterObj *)self;
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

static Obj iter_self(Obj self) { return self; }

static Obj bytes_iter_length_hint(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    IterObj *it = (IterObj *)args[0];
    if (!it->a)
        return MAKE_SMALLINT(0);
    int64_t n;
    bdata(it->a, &n);
    return MAKE_SMALLINT(n > it->i ? n - it->i : 0);
}
