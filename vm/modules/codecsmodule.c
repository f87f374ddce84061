/* The _codecs module, which CPython's codecs.py and the encodings package
 * sit on: the codec registry (register, lookup, encode, decode), the error
 * handler registry (register_error, lookup_error, with the built-in
 * handlers as functions), and the codec functions of the encodings tmpy's
 * str.encode / bytes.decode implement (UTF-8, ASCII, Latin-1, UTF-16/32,
 * the escape codecs) plus the charmap codecs of the 8-bit encodings;
 * UTF-7 is utf7codec.c's. The error handlers' registry and calling a
 * handler from C are objects/codecerror.c's (str.encode and bytes.decode
 * call them too). */
#include "codecs.h"
#include "objects/containers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

/* The registries, made at start-up (global roots, never rebound, so
 * reading one allocates nothing): the search functions, the CodecInfo
 * cache, the error handlers. */
static Obj g_codec_search, g_codec_cache;

/* ---- the codec registry ---- */

static Obj c_register(Obj *args, size_t nargs, Obj kwnames)
{
    if (!vm_callable(args[0])) {
        err_set(E_TypeError, "argument must be callable");
        return NULL;
    }
    return list_append(g_codec_search, args[0]) < 0 ? NULL : g_None;
}

static Obj c_unregister(Obj *args, size_t nargs, Obj kwnames)
{
    Obj search = g_codec_search;
    for (int64_t i = 0; i < LIST_LEN(search); i++)
        if (LIST_ITEMS(search)[i] == args[0]) {
            if (!list_pop(search, i))
                return NULL;
            dict_clear(g_codec_cache);
            break;
        }
    return g_None;
}

/* The registry's key for an encoding name: lower case, spaces as underscores. */
static Obj normalize_encoding(Obj name)
{
    const char *s = str_cstr(name);
    size_t n = strlen(s);
    char *buf = malloc(n + 1);
    if (!buf)
        return err_nomemory();
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        buf[i] = c >= 'A' && c <= 'Z' ? (char)(c + 32) : c == ' ' ? '_' : c;
    }
    Obj res = str_new(buf, n);
    free(buf);
    return res;
}

/* lookup(encoding): the CodecInfo the first search function gives (cached);
 * the encodings package is imported the first time (it registers its
 * search function). */
static Obj codec_lookup(Obj encoding)
{
    if (!IS_STR(encoding)) {
        err_format(E_TypeError, "lookup() argument must be str, not %s", type_name(encoding));
        return NULL;
    }
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[3] = encoding;   /* for the message: the search functions may move it */
    r[0] = normalize_encoding(encoding);
    if (!r[0])
        goto out;
    res = dict_getitem(g_codec_cache, r[0]);
    if (res || err_occurred())
        goto out;
    if (LIST_LEN(g_codec_search) == 0 && !vm_import_cstr("encodings"))
        goto out;
    for (int64_t i = 0; i < LIST_LEN(g_codec_search); i++) {
        r[1] = LIST_ITEMS(g_codec_search)[i];
        r[2] = vm_call1(r[1], r[0]);
        if (!r[2])
            goto out;
        if (IS_NONE(r[2]))
            continue;
        Obj t = vm_unwrap(r[2]);   /* a CodecInfo: a tuple subclass */
        if (!IS_TUPLE(t) || TUPLE_LEN(t) != 4) {
            err_set(E_TypeError, "codec search functions must return 4-tuples");
            goto out;
        }
        if (dict_setitem(g_codec_cache, r[0], r[2]) < 0)
            goto out;
        res = r[2];
        goto out;
    }
    err_format(E_LookupError, "unknown encoding: %s", str_cstr(r[3]));
out:
    vm_unroots(r);
    return res;
}

static Obj c_lookup(Obj *args, size_t nargs, Obj kwnames)
{
    return codec_lookup(args[0]);
}

static Obj c_forget_codec(Obj *args, size_t nargs, Obj kwnames)
{
    if (!IS_STR(args[0])) {
        err_format(E_TypeError, "_forget_codec() argument must be str, not %s", type_name(args[0]));
        return NULL;
    }
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = normalize_encoding(args[0]);
    if (r[0] && (!dict_getitem(g_codec_cache, r[0]) || dict_delitem(g_codec_cache, r[0]) == 0))
        res = g_None;
    vm_unroots(r);
    return res;
}

/* encode/decode(obj, encoding='utf-8', errors='strict'): through the
 * CodecInfo's encoder or decoder. */
static Obj codec_call(const char *fname, bool encode, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"obj", "encoding", "errors", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    if (vm_parse_args(fname, args, nargs, kwnames, names, 1, 3, a) < 0)
        goto out;
    if (!a[1] && !(a[1] = str_from_cstr("utf-8")))
        goto out;
    if (!a[2] && !(a[2] = str_from_cstr("strict")))
        goto out;
    a[3] = codec_lookup(a[1]);
    if (a[3]) {
        char name[128];
        snprintf(name, sizeof name, "%s", str_cstr(a[1]));
        res = codec_info_call(a[3], encode, a[0], a[2], name);
    }
out:
    vm_unroots(a);
    return res;
}

static Obj c_encode(Obj *args, size_t nargs, Obj kwnames)
{
    return codec_call("encode", true, args, nargs, kwnames);
}

static Obj c_decode(Obj *args, size_t nargs, Obj kwnames)
{
    return codec_call("decode", false, args, nargs, kwnames);
}

/* ---- error handlers ---- */

static Obj c_register_error(Obj *args, size_t nargs, Obj kwnames)
{
    if (!IS_STR(args[0])) {
        err_format(E_TypeError, "register_error() argument 1 must be str, not %s", type_name(args[0]));
        return NULL;
    }
    if (!vm_callable(args[1])) {
        err_set(E_TypeError, "handler must be callable");
        return NULL;
    }
    return dict_setitem(codec_errors_registry(), args[0], args[1]) < 0 ? NULL : g_None;
}

static Obj c_lookup_error(Obj *args, size_t nargs, Obj kwnames)
{
    if (!IS_STR(args[0])) {
        err_format(E_TypeError, "lookup_error() argument must be str, not %s", type_name(args[0]));
        return NULL;
    }
    Obj h = dict_getitem(codec_errors_registry(), args[0]);
    if (!h && !err_occurred())
        err_format(E_LookupError, "unknown error handler name '%s'", str_cstr(args[0]));
    return h;
}

/* What an error handler reads of its one argument, a Unicode error.
 * object is not rooted: root it before allocating. */
typedef struct {
    Obj object;
    int64_t start, end;
    bool decode, translate;
} UnicodeErrorParts;

enum { K_ENC = 1, K_DEC = 2, K_TR = 4 };

/* The argument of an error handler (args[0]), in parts: start and end
 * clamped to the object as CPython's accessors do; -1 with TypeError when
 * its type (its real one, not its __class__) is none of kinds, or its
 * object is not a str (bytes for a decode error). */
static int handler_arg(Obj *args, int kinds, UnicodeErrorParts *u)
{
    Obj exc = args[0];
    TypeObj *t = TYPE(exc);
    int kind = type_is_subtype(t, E_UnicodeEncodeError) ? K_ENC : type_is_subtype(t, E_UnicodeDecodeError) ? K_DEC
               : type_is_subtype(t, E_UnicodeTranslateError) ? K_TR : 0;
    if (!(kind & kinds)) {
        err_format(E_TypeError, "don't know how to handle %s in error callback", type_name(exc));
        return -1;
    }
    Obj *r = vm_roots(2);
    int res = -1;
    r[0] = exc;
    r[1] = vm_getattr_cstr(r[0], "object");
    if (!r[1])
        goto out;
    int64_t size;
    if (kind == K_DEC) {
        if (!IS_BYTES(vm_unwrap(r[1]))) {
            err_set(E_TypeError, "object attribute must be bytes");
            goto out;
        }
        size = BYTES(vm_unwrap(r[1]))->length;
    } else {
        if (!IS_STR(vm_unwrap(r[1]))) {
            err_set(E_TypeError, "object attribute must be unicode");
            goto out;
        }
        size = str_len(vm_unwrap(r[1]));
    }
    r[1] = vm_getattr_cstr(r[0], "start");
    if (!r[1] || vm_index_i64(r[1], &u->start) < 0)
        goto out;
    r[1] = vm_getattr_cstr(r[0], "end");
    if (!r[1] || vm_index_i64(r[1], &u->end) < 0)
        goto out;
    if (u->start < 0)
        u->start = 0;
    if (u->start >= size)
        u->start = size ? size - 1 : 0;
    if (u->end < 1)
        u->end = 1;
    if (u->end > size)
        u->end = size;
    u->object = vm_getattr_cstr(r[0], "object");
    if (!u->object)
        goto out;
    u->object = vm_unwrap(u->object);
    if (kind == K_DEC ? !IS_BYTES(u->object) : !IS_STR(u->object)) {
        err_format(E_TypeError, "object attribute must be %s", kind == K_DEC ? "bytes" : "unicode");
        goto out;
    }
    u->decode = kind == K_DEC;
    u->translate = kind == K_TR;
    res = 0;
out:
    vm_unroots(r);
    return res;
}

/* (replacement, end) */
static Obj handler_result(Obj replacement, int64_t end)
{
    Obj *r = vm_roots(1);
    r[0] = replacement;
    Obj res = r[0] ? tuple_pack(2, r[0], MAKE_SMALLINT(end)) : NULL;
    vm_unroots(r);
    return res;
}

static Obj h_strict(Obj *args, size_t nargs, Obj kwnames)
{
    if (!vm_isinstance_type(args[0], E_BaseException)) {
        err_set(E_TypeError, "codec must pass exception instance");
        return NULL;
    }
    err_set_obj(args[0]);
    return NULL;
}

static Obj h_ignore(Obj *args, size_t nargs, Obj kwnames)
{
    UnicodeErrorParts u;
    if (handler_arg(args, K_ENC | K_DEC | K_TR, &u) < 0)
        return NULL;
    return handler_result(g_empty_str, u.end);
}

static Obj h_replace(Obj *args, size_t nargs, Obj kwnames)
{
    UnicodeErrorParts u;
    if (handler_arg(args, K_ENC | K_DEC | K_TR, &u) < 0)
        return NULL;
    if (u.decode)
        return handler_result(str_from_cstr("\xef\xbf\xbd"), u.end);
    int64_t n = u.end > u.start ? u.end - u.start : 0;
    if ((uint64_t)n > vm_max_object_size() / 3)
        return err_nomemory();
    StrBuf b;
    sb_init(&b);
    for (int64_t i = 0; i < n; i++) {
        if (u.translate)
            sb_add_codepoint(&b, 0xFFFD);
        else
            sb_addc(&b, '?');
    }
    return handler_result(sb_finish(&b), u.end);
}

/* The escapes of characters [start, end) of the error's str: &#N; (xml),
 * \N{NAME} where there is a name (names), else \xNN, \uNNNN, \UNNNNNNNN. */
static Obj str_escapes(Obj *args, int kinds, bool xml, bool names)
{
    UnicodeErrorParts u;
    if (handler_arg(args, kinds, &u) < 0)
        return NULL;
    Obj *r = vm_roots(1);
    r[0] = u.object;
    StrBuf b;
    sb_init(&b);
    if (u.decode) {
        /* backslashreplace of bytes: \xNN each */
        const char *p;
        int64_t n;
        bytes_like(r[0], &p, &n);
        for (int64_t i = u.start; i < u.end && i < n; i++)
            sb_printf(&b, "\\x%02x", (unsigned char)p[i]);
    } else {
        int64_t off = u.start < u.end ? str_byte_offset(r[0], u.start) : 0;
        const unsigned char *q = (const unsigned char *)str_cstr(r[0]);
        for (int64_t i = u.start; i < u.end; i++) {
            int len;
            uint32_t cp = utf8_decode(q + off, &len);
            off += len;
            char name[UNI_NAME_MAX];
            if (xml)
                sb_printf(&b, "&#%u;", (unsigned)cp);
            else if (names && uni_name_of(cp, name, sizeof name))
                sb_printf(&b, "\\N{%s}", name);
            else
                sb_add_escape(&b, cp);
        }
    }
    Obj res = handler_result(sb_finish(&b), u.end);
    vm_unroots(r);
    return res;
}

static Obj h_backslashreplace(Obj *args, size_t nargs, Obj kwnames)
{
    return str_escapes(args, K_ENC | K_DEC | K_TR, false, false);
}

static Obj h_xmlcharrefreplace(Obj *args, size_t nargs, Obj kwnames)
{
    return str_escapes(args, K_ENC, true, false);
}

static Obj h_namereplace(Obj *args, size_t nargs, Obj kwnames)
{
    return str_escapes(args, K_ENC, false, true);
}

/* s[start:end] of a str, 0 <= start (handler_arg): clamped again, since a
 * property may give another object than the one handler_arg measured. */
static Obj str_part(Obj s, int64_t start, int64_t end)
{
    int64_t n = str_len(s);
    if (end > n)
        end = n;
    return str_substr(s, start < end ? start : end, end);
}

/* surrogateescape: U+DC80..U+DCFF <-> the bytes 0x80..0xFF. */
static Obj h_surrogateescape(Obj *args, size_t nargs, Obj kwnames)
{
    UnicodeErrorParts u;
    if (handler_arg(args, K_ENC | K_DEC, &u) < 0)
        return NULL;
    int64_t start = u.start, end = u.end;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = u.object;
    r[1] = args[0];
    if (u.decode) {
        const char *p;
        int64_t n;
        if (!bytes_like(r[0], &p, &n))
            goto raise;
        StrBuf b;
        sb_init(&b);
        int64_t i = start < 0 ? 0 : start;
        for (; i < end && i < n && i < start + 4; i++) {
            unsigned char c = (unsigned char)p[i];
            if (c < 128)
                break;
            sb_add_codepoint(&b, 0xDC00 + c);
        }
        if (i == start) {
            sb_free(&b);
            goto raise;
        }
        res = handler_result(sb_finish(&b), i);
        goto out;
    }
    r[0] = str_part(r[0], start, end);
    if (!r[0])
        goto out;
    {
        int64_t n = str_len(r[0]);
        char *buf = malloc((size_t)n + 1);
        if (!buf) {
            err_nomemory();
            goto out;
        }
        const unsigned char *q = (const unsigned char *)str_cstr(r[0]);
        for (int64_t k = 0; k < n; k++) {
            uint32_t cp;
            int len;
            cp = utf8_decode(q, &len);
            q += len;
            if (cp < 0xDC80 || cp > 0xDCFF) {
                free(buf);
                goto raise;
            }
            buf[k] = (char)(cp - 0xDC00);
        }
        Obj bs = bytes_new(buf, (size_t)n);
        free(buf);
        res = handler_result(bs, end);
    }
    goto out;
raise:
    err_set_obj(r[1]);
out:
    vm_unroots(r);
    return res;
}

/* The standard UTF encodings surrogatepass knows, as CPython names them
 * ("utf-8", "utf_16", "UTF16-LE", ...): the bytes per code unit (3 for
 * UTF-8) and the byte order (big-endian or not; "utf-16"/"utf-32" are the
 * machine's, little-endian), or 0 for another encoding. */
static int standard_utf(const char *e, bool *big)
{
    *big = false;
    if (!strcmp(e, "cp65001"))
        return 3;
    if (tolower((unsigned char)e[0]) != 'u' || tolower((unsigned char)e[1]) != 't' ||
        tolower((unsigned char)e[2]) != 'f')
        return 0;
    e += 3;
    if (*e == '-' || *e == '_')
        e++;
    if (!strcmp(e, "8"))
        return 3;
    int unit = !strncmp(e, "16", 2) ? 2 : !strncmp(e, "32", 2) ? 4 : 0;
    if (!unit)
        return 0;
    e += 2;
    if (!*e)
        return unit;
    if (*e == '-' || *e == '_')
        e++;
    if (tolower((unsigned char)e[0]) == 'b' && tolower((unsigned char)e[1]) == 'e' && !e[2]) {
        *big = true;
        return unit;
    }
    if (tolower((unsigned char)e[0]) == 'l' && tolower((unsigned char)e[1]) == 'e' && !e[2])
        return unit;
    return 0;
}

/* surrogatepass: a lone surrogate as its UTF-8 (3 bytes), UTF-16 or UTF-32
 * code unit, both ways. */
static Obj h_surrogatepass(Obj *args, size_t nargs, Obj kwnames)
{
    UnicodeErrorParts u;
    if (handler_arg(args, K_ENC | K_DEC, &u) < 0)
        return NULL;
    int64_t start = u.start, end = u.end;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = u.object;
    r[1] = args[0];
    r[2] = vm_getattr_cstr(r[1], "encoding");
    if (!r[2])
        goto out;
    if (!IS_STR(r[2])) {
        err_set(E_TypeError, "encoding attribute must be unicode");
        goto out;
    }
    bool big;
    int unit = standard_utf(str_cstr(r[2]), &big);
    if (!unit) {
        err_set_obj(r[1]);
        goto out;
    }
    if (u.decode) {
        const char *p;
        int64_t n;
        const unsigned char *q;
        uint32_t cp = 0;
        if (!bytes_like(r[0], &p, &n) || start < 0 || start + unit > n) {
            err_set_obj(r[1]);
            goto out;
        }
        q = (const unsigned char *)p + start;
        if (unit == 3) {
            if (q[0] == 0xED && (q[1] & 0xE0) == 0xA0 && (q[2] & 0xC0) == 0x80)
                cp = 0xD000 | ((q[1] & 0x3Fu) << 6) | (q[2] & 0x3Fu);
        } else {
            for (int k = 0; k < unit; k++)
                cp = cp << 8 | q[big ? k : unit - 1 - k];
        }
        if (cp < 0xD800 || cp > 0xDFFF)
            err_set_obj(r[1]);
        else
            res = handler_result(str_from_codepoint(cp), start + unit);
        goto out;
    }
    r[0] = str_part(r[0], start, end);
    if (!r[0])
        goto out;
    /* every character of the range must be a surrogate; tmpy stores one as its 3-byte form */
    const unsigned char *q = (const unsigned char *)str_cstr(r[0]);
    int64_t count = STR(r[0])->length;
    char *buf = malloc((size_t)(count ? count : 1) * 4);
    if (!buf) {
        err_nomemory();
        goto out;
    }
    for (int64_t k = 0; k < count; k++) {
        int len;
        uint32_t cp = utf8_decode(q, &len);
        q += len;
        if (cp < 0xD800 || cp > 0xDFFF) {
            free(buf);
            err_set_obj(r[1]);
            goto out;
        }
        unsigned char *o = (unsigned char *)buf + k * unit;
        if (unit == 3) {
            o[0] = (unsigned char)(0xE0 | cp >> 12);
            o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
            o[2] = (unsigned char)(0x80 | (cp & 0x3F));
        } else {
            for (int b = 0; b < unit; b++)
                o[big ? unit - 1 - b : b] = (unsigned char)(cp >> (8 * b));
        }
    }
    Obj bs = bytes_new(buf, (size_t)(count * unit));
    free(buf);
    res = handler_result(bs, end);
out:
    vm_unroots(r);
    return res;
}

/* ---- codec functions ---- */

/* The errors argument copied into buf (a str moves when allocations
 * collect); NULL for None or absent: strict. */
static const char *errors_arg(Obj e, char *buf, size_t cap)
{
    if (!e || IS_NONE(e) || !IS_STR(e))
        return NULL;
    snprintf(buf, cap, "%s", str_cstr(e));
    return buf;
}

static Obj encode_with(const char *fname, const char *encoding, Obj *args, size_t nargs, Obj kwnames)
{
    char errbuf[64];
    static const char *const names[] = {"str", "errors", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args(fname, args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    if (!IS_STR(vm_unwrap(a[0]))) {
        err_format(E_TypeError, "%s() argument 1 must be str, not %s", fname, type_name(a[0]));
        goto out;
    }
    if (a[1] && !IS_NONE(a[1]) && !IS_STR(a[1])) {
        err_format(E_TypeError, "%s() argument 2 must be str or None, not %s", fname, type_name(a[1]));
        goto out;
    }
    a[2] = str_encode(a[0], encoding, errors_arg(a[1], errbuf, sizeof errbuf));
    if (a[2])
        res = tuple_pack(2, a[2], MAKE_SMALLINT(str_len(vm_unwrap(a[0]))));
out:
    vm_unroots(a);
    return res;
}

/* Bytes at the end of data[0..n) that begin a UTF-8 sequence it does not
 * complete (held back by a decoder that is not final). */
static int64_t utf8_incomplete_tail(const unsigned char *p, int64_t n)
{
    for (int64_t back = 1; back <= 3 && back <= n; back++) {
        unsigned char c = p[n - back];
        if ((c & 0xC0) == 0x80)
            continue;   /* a continuation byte: look further back */
        int need = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 1;
        if (need <= back)
            return 0;
        if (back >= 2) {
            /* held back only if it can still be valid: the second byte's range, as CPython
             * (which holds ED A0..BF too: a surrogate surrogatepass may take) */
            unsigned char d = p[n - back + 1];
            unsigned lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
            unsigned hi = c == 0xF4 ? 0x8F : 0xBF;
            if (d < lo || d > hi)
                return 0;
        }
        return back;
    }
    return 0;
}

static Obj decode_with(const char *fname, const char *encoding, int unit, Obj *args, size_t nargs, Obj kwnames)
{
    char errbuf[64];
    static const char *const names[] = {"data", "errors", "final", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    if (vm_parse_args(fname, args, nargs, kwnames, names, 1, 3, a) < 0)
        goto out;
    const char *p;
    int64_t n;
    if (strstr(encoding, "unicode-escape") && IS_STR(vm_unwrap(a[0]))) {
        /* the escape decoders take a str too, as its UTF-8 */
        p = str_cstr(vm_unwrap(a[0]));
        n = STR(vm_unwrap(a[0]))->nbytes;
    } else if (!bytes_like_arg(a[0], &p, &n)) {
        goto out;
    }
    /* final=False by default for the UTF codecs, as CPython: a
     * StreamReader calls them without it and must keep an incomplete tail */
    bool utf = unit > 1 || !strcmp(encoding, "utf-8");
    int final = !utf;
    if (a[2] && (final = vm_is_true(a[2])) < 0)
        goto out;
    int64_t keep = n;
    if (!final) {
        if (unit == 1 && !strcmp(encoding, "utf-8"))
            keep = n - utf8_incomplete_tail((const unsigned char *)p, n);
        else if (unit > 1)
            keep = n - n % unit;
        if (unit == 2 && keep >= 2) {
            /* a high surrogate waits for its low half */
            const unsigned char *u = (const unsigned char *)p + keep - 2;
            unsigned v = !strcmp(encoding, "utf-16-be") ? (unsigned)(u[0] << 8 | u[1]) : (unsigned)(u[1] << 8 | u[0]);
            if (v >= 0xD800 && v <= 0xDBFF)
                keep -= 2;
        }
    }
    a[3] = bytes_new(p, (size_t)keep);
    if (!a[3] || !(a[3] = bytes_decode(a[3], encoding, errors_arg(a[1], errbuf, sizeof errbuf))))
        goto out;
    res = tuple_pack(2, a[3], int_from_i64(keep));
out:
    vm_unroots(a);
    return res;
}

#define CODEC_PAIR(name, encoding, unit)                                          \
    static Obj c_##name##_encode(Obj *args, size_t nargs, Obj kwnames)            \
    {                                                                             \
        return encode_with(#name "_encode", encoding, args, nargs, kwnames);      \
    }                                                                             \
    static Obj c_##name##_decode(Obj *args, size_t nargs, Obj kwnames)            \
    {                                                                             \
        return decode_with(#name "_decode", encoding, unit, args, nargs, kwnames); \
    }

CODEC_PAIR(utf_8, "utf-8", 1)
CODEC_PAIR(ascii, "ascii", 1)
CODEC_PAIR(latin_1, "latin-1", 1)
CODEC_PAIR(unicode_escape, "unicode-escape", 1)
CODEC_PAIR(raw_unicode_escape, "raw-unicode-escape", 1)
CODEC_PAIR(utf_16, "utf-16", 2)
CODEC_PAIR(utf_16_le, "utf-16-le", 2)
CODEC_PAIR(utf_16_be, "utf-16-be", 2)
CODEC_PAIR(utf_32, "utf-32", 4)
CODEC_PAIR(utf_32_le, "utf-32-le", 4)
CODEC_PAIR(utf_32_be, "utf-32-be", 4)

/* utf_16_ex_decode / utf_32_ex_decode(data, errors=None, byteorder=0,
 * final=False): (text, consumed, byteorder). Byte order 0 reads a BOM if
 * there is one (-1 little-endian, 1 big-endian; consumed), else decodes
 * little-endian and reports 0. */
static Obj ex_decode(const char *fname, int unit, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"data", "errors", "byteorder", "final", NULL};
    Obj *a = vm_roots(5);
    Obj res = NULL;
    char errbuf[64];
    if (vm_parse_args(fname, args, nargs, kwnames, names, 1, 4, a) < 0)
        goto out;
    const char *p;
    int64_t n;
    if (!bytes_like_arg(a[0], &p, &n))
        goto out;
    int64_t order = 0;
    int final = 0;
    if ((a[2] && vm_index_i64(a[2], &order) < 0) || (a[3] && (final = vm_is_true(a[3])) < 0))
        goto out;
    const char *errors = errors_arg(a[1], errbuf, sizeof errbuf);
    int64_t skip = 0;
    if (order == 0 && n >= unit) {
        const unsigned char *q = (const unsigned char *)p;
        bool le = unit == 2 ? (q[0] == 0xFF && q[1] == 0xFE) : (q[0] == 0xFF && q[1] == 0xFE && !q[2] && !q[3]);
        bool be = unit == 2 ? (q[0] == 0xFE && q[1] == 0xFF) : (!q[0] && !q[1] && q[2] == 0xFE && q[3] == 0xFF);
        if (le || be) {
            order = le ? -1 : 1;
            skip = unit;
        }
    } else if (order == 0 && !final) {
        /* too short to tell: wait for more */
        a[4] = g_empty_str;
        res = tuple_pack(3, a[4], MAKE_SMALLINT(0), MAKE_SMALLINT(0));
        goto out;
    }
    int64_t keep = n - skip;
    if (!final) {
        keep -= keep % unit;
        if (unit == 2 && keep >= 2) {
            /* a high surrogate waits for its low half */
            const unsigned char *u = (const unsigned char *)p + skip + keep - 2;
            unsigned v = order > 0 ? (unsigned)(u[0] << 8 | u[1]) : (unsigned)(u[1] << 8 | u[0]);
            if (v >= 0xD800 && v <= 0xDBFF)
                keep -= 2;
        }
    }
    a[4] = bytes_new(p + skip, (size_t)keep);
    const char *enc = unit == 2 ? (order > 0 ? "utf-16-be" : "utf-16-le") : (order > 0 ? "utf-32-be" : "utf-32-le");
    if (!a[4] || !(a[4] = bytes_decode(a[4], enc, errors)))
        goto out;
    res = tuple_pack(3, a[4], int_from_i64(skip + keep), int_from_i64(order));
out:
    vm_unroots(a);
    return res;
}

static Obj c_utf_16_ex_decode(Obj *args, size_t nargs, Obj kwnames)
{
    return ex_decode("utf_16_ex_decode", 2, args, nargs, kwnames);
}

static Obj c_utf_32_ex_decode(Obj *args, size_t nargs, Obj kwnames)
{
    return ex_decode("utf_32_ex_decode", 4, args, nargs, kwnames);
}

/* The charmap codecs' reason for a character or byte the mapping lacks. */
static const char CHARMAP_UNDEFINED[] = "character maps to <undefined>";
static const char ENC_TYPE_MSG[] = "encoding error handler must return (str/bytes, int) tuple";

static bool is_fast_errors(const char *errors, const char *name)
{
    return errors && !strcmp(errors, name);
}

/* charmap_decode(data, errors=None, mapping=None): each byte through the
 * mapping (a str of up to 256 characters, or a mapping from byte to str,
 * int or None); None: Latin-1. An undefined byte (missing, None or
 * U+FFFE) is an error of one byte, handed to the error handler (strict,
 * ignore and replace done here; any other called, as CPython's codecs
 * do, and the handler may replace the input). */
static Obj c_charmap_decode(Obj *args, size_t nargs, Obj kwnames)
{
    char errbuf[64];
    static const char *const names[] = {"data", "errors", "mapping", NULL};
    Obj *a = vm_roots(6);   /* a[5]: the exception the errors share */
    Obj res = NULL;
    if (vm_parse_args("charmap_decode", args, nargs, kwnames, names, 1, 3, a) < 0)
        goto out;
    const char *p;
    int64_t n;
    if (!bytes_like_arg(a[0], &p, &n))
        goto out;
    int64_t n0 = n;
    if (!a[2] || IS_NONE(a[2])) {
        a[3] = bytes_decode(a[0], "latin-1", errors_arg(a[1], errbuf, sizeof errbuf));
        res = a[3] ? tuple_pack(2, a[3], int_from_i64(n)) : NULL;
        goto out;
    }
    const char *errors = errors_arg(a[1], errbuf, sizeof errbuf);
    a[4] = IS_BYTES(a[0]) ? a[0] : bytes_new(p, (size_t)n);   /* the input as the handlers see it */
    if (!a[4])
        goto out;
    StrBuf b;
    sb_init(&b);
    for (int64_t i = 0;;) {
        bytes_like(a[4], &p, &n);   /* the mapping and the handlers run Python code */
        if (i >= n)
            break;
        unsigned char c = (unsigned char)p[i];
        a[3] = vm_getitem(a[2], MAKE_SMALLINT(c));
        if (!a[3]) {
            if (!err_matches(E_LookupError))
                goto fail;
            err_clear();   /* a byte the mapping lacks is undefined */
            a[3] = g_None;
        }
        Obj v = vm_unwrap(a[3]);
        bool undefined = IS_NONE(v) || (IS_STR(v) && str_eq_cstr(v, "\xef\xbf\xbe")) ||
                         (IS_SMALLINT(v) && SMALLINT_VAL(v) == 0xFFFE);   /* U+FFFE: undefined */
        if (undefined) {
            if (is_fast_errors(errors, "ignore")) {
                i++;
            } else if (is_fast_errors(errors, "replace")) {
                sb_add_codepoint(&b, 0xFFFD);
                i++;
            } else {
                int64_t pos = codecs_decode_error(errors, "charmap", CHARMAP_UNDEFINED, &a[4], i, i + 1, &b,
                                                  CODEC_ERR_REREAD, &a[5]);
                if (pos < 0)
                    goto fail;
                i = pos;
            }
            continue;
        }
        if (IS_STR(v)) {
            sb_add_str(&b, v);
        } else if (IS_INT(v)) {
            int64_t cp;
            if (vm_index_i64(v, &cp) < 0) {
                if (!err_matches(E_OverflowError))
                    goto fail;
                err_clear();
                cp = -1;
            }
            if (cp < 0 || cp > 0x10FFFF) {
                err_set(E_TypeError, "character mapping must be in range(0x110000)");
                goto fail;
            }
            sb_add_codepoint(&b, (uint32_t)cp);
        } else {
            err_set(E_TypeError, "character mapping must return integer, None or str");
            goto fail;
        }
        i++;
    }
    a[3] = sb_finish(&b);
    res = a[3] ? tuple_pack(2, a[3], int_from_i64(n0)) : NULL;
    goto out;
fail:
    sb_free(&b);
out:
    vm_unroots(a);
    return res;
}

/* charmap_build(decoding_table): the dict from each character's code point
 * to its byte, which charmap_encode takes. */
static Obj c_charmap_build(Obj *args, size_t nargs, Obj kwnames)
{
    if (!IS_STR(args[0])) {
        err_format(E_TypeError, "charmap_build() argument must be str, not %s", type_name(args[0]));
        return NULL;
    }
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = dict_new();
    if (!r[1])
        goto out;
    int64_t n = str_len(r[0]);
    int64_t off = 0;
    for (int64_t i = 0; i < n; i++) {
        int len;
        uint32_t cp = utf8_decode((const unsigned char *)str_cstr(r[0]) + off, &len);
        off += len;
        if (cp == 0xFFFE)
            continue;
        Obj k = int_from_i64(cp);
        if (!k || dict_setitem(r[1], k, MAKE_SMALLINT(i)) < 0)
            goto out;
    }
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

/* The mapping's (*mapp, a root slot) value for code point cp (*vp, a root
 * slot; None when the mapping lacks it): 1, or 0 when cp is undefined, -1 with an error. */
static int charmap_lookup(Obj *mapp, uint32_t cp, Obj *vp)
{
    Obj k = int_from_i64(cp);
    *vp = k ? vm_getitem(*mapp, k) : NULL;
    if (!*vp) {
        if (!err_matches(E_LookupError))
            return -1;
        err_clear();
        *vp = g_None;
    }
    Obj v = vm_unwrap(*vp);
    if (IS_NONE(v))
        return 0;
    if (!IS_INT(v) && !IS_BYTES(v)) {
        err_format(E_TypeError, "character mapping must return integer, bytes or None, not %s", type_name(v));
        return -1;
    }
    return 1;
}

/* Append cp's bytes through the mapping: 1, 0 (undefined), -1. */
static int charmap_put(Obj *mapp, uint32_t cp, StrBuf *out)
{
    Obj *r = vm_roots(1);
    int rc = charmap_lookup(mapp, cp, &r[0]);
    if (rc > 0) {
        Obj v = vm_unwrap(r[0]);
        const char *bp;
        int64_t bn;
        if (IS_BYTES(v) && bytes_like(v, &bp, &bn)) {
            sb_add(out, bp, (size_t)bn);
        } else {
            int64_t x;
            if (vm_index_i64(v, &x) < 0) {
                if (!err_matches(E_OverflowError)) {
                    rc = -1;
                    goto out;
                }
                err_clear();
                x = -1;
            }
            if (x < 0 || x > 255) {
                err_set(E_TypeError, "character mapping must be in range(256)");
                rc = -1;
                goto out;
            }
            sb_addc(out, (char)x);
        }
    }
out:
    vm_unroots(r);
    return rc;
}

/* Append the str rep through the mapping: 1, 0 (a character undefined), -1. */
static int charmap_put_str(Obj *mapp, Obj *repp, StrBuf *out)
{
    int64_t off = 0;
    while (off < STR(*repp)->nbytes) {
        int len;
        uint32_t cp = utf8_decode((const unsigned char *)str_cstr(*repp) + off, &len);
        off += len;
        int rc = charmap_put(mapp, cp, out);
        if (rc <= 0)
            return rc;
    }
    return 1;
}

/* charmap_encode(str, errors=None, mapping=None): each character through
 * the mapping (code point -> int byte, bytes or None). A run of undefined
 * characters is one error: strict, ignore and replace ('?' through the
 * mapping) here; any other handler called, its str replacement encoded
 * through the mapping (bytes as they are), as CPython's codecs do. */
static Obj c_charmap_encode(Obj *args, size_t nargs, Obj kwnames)
{
    char errbuf[64];
    static const char *const names[] = {"str", "errors", "mapping", NULL};
    Obj *a = vm_roots(5);   /* a[4]: the exception the errors share */
    Obj res = NULL;
    if (vm_parse_args("charmap_encode", args, nargs, kwnames, names, 1, 3, a) < 0)
        goto out;
    if (!IS_STR(a[0])) {
        err_format(E_TypeError, "charmap_encode() argument 1 must be str, not %s", type_name(a[0]));
        goto out;
    }
    if (!a[2] || IS_NONE(a[2])) {
        a[3] = str_encode(a[0], "latin-1", errors_arg(a[1], errbuf, sizeof errbuf));
        res = a[3] ? tuple_pack(2, a[3], int_from_i64(str_len(a[0]))) : NULL;
        goto out;
    }
    const char *errors = errors_arg(a[1], errbuf, sizeof errbuf);
    int64_t n = str_len(a[0]);
    StrBuf b;
    sb_init(&b);
    for (int64_t i = 0, off = 0; i < n;) {
        int len;
        uint32_t cp = utf8_decode((const unsigned char *)str_cstr(a[0]) + off, &len);
        int rc = charmap_put(&a[2], cp, &b);
        if (rc < 0)
            goto fail;
        if (rc > 0) {
            i++;
            off += len;
            continue;
        }
        /* the run of undefined characters */
        int64_t j = i + 1, joff = off + len;
        while (j < n) {
            int l2;
            uint32_t d = utf8_decode((const unsigned char *)str_cstr(a[0]) + joff, &l2);
            rc = charmap_lookup(&a[2], d, &a[3]);
            if (rc < 0)
                goto fail;
            if (rc > 0)
                break;
            j++;
            joff += l2;
        }
        if (is_fast_errors(errors, "ignore")) {
            i = j;
            off = joff;
            continue;
        }
        if (is_fast_errors(errors, "replace")) {
            for (int64_t k = i; k < j; k++) {
                rc = charmap_put(&a[2], '?', &b);
                if (rc < 0)
                    goto fail;
                if (rc == 0) {
                    raise_codec_error(E_UnicodeEncodeError, "charmap", &a[0], i, j, CHARMAP_UNDEFINED);
                    goto fail;
                }
            }
            i = j;
            off = joff;
            continue;
        }
        int64_t pos = codecs_encode_error(errors, "charmap", CHARMAP_UNDEFINED, &a[0], i, j, &a[3], CODEC_ERR_BYTES_OK,
                                          ENC_TYPE_MSG, &a[4]);
        if (pos < 0)
            goto fail;
        if (IS_BYTES(a[3])) {
            const char *bp;
            int64_t bn;
            bytes_like(a[3], &bp, &bn);
            sb_add(&b, bp, (size_t)bn);
        } else {
            rc = charmap_put_str(&a[2], &a[3], &b);
            if (rc < 0)
                goto fail;
            if (rc == 0) {
                raise_codec_error(E_UnicodeEncodeError, "charmap", &a[0], i, j, CHARMAP_UNDEFINED);
                goto fail;
            }
        }
        i = pos;
        off = str_byte_offset(a[0], pos);
    }
    if (sb_failed(&b)) {
        err_nomemory();
        goto fail;
    }
    a[3] = bytes_new(b.p ? b.p : "", b.len);
    sb_free(&b);
    res = a[3] ? tuple_pack(2, a[3], int_from_i64(n)) : NULL;
    goto out;
fail:
    sb_free(&b);
out:
    vm_unroots(a);
    return res;
}

/* escape_decode(data, errors=None): bytes with Python's backslash escapes
 * resolved (bytes-to-bytes, as bytes literals). A malformed \x escape is
 * ValueError (strict), dropped (ignore) or '?' (replace), and any other
 * errors value is ValueError then, as CPython's; the first unknown escape
 * (or octal one above 0o377) is a DeprecationWarning. */
static Obj c_escape_decode(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"data", "errors", NULL};
    char errbuf[64];
    char invalid[4] = {0};   /* the first unknown escape, after its backslash */
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("escape_decode", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    const char *p;
    int64_t n;
    if (IS_STR(a[0])) {
        p = str_cstr(a[0]);
        n = STR(a[0])->nbytes;
    } else if (!bytes_like_arg(a[0], &p, &n)) {
        goto out;
    }
    unsigned char *buf = malloc((size_t)n + 1);
    if (!buf) {
        err_nomemory();
        goto out;
    }
    int64_t nb = 0;
    for (int64_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c != '\\') {
            buf[nb++] = c;
            continue;
        }
        if (++i >= n) {
            free(buf);
            err_set(E_ValueError, "Trailing \\ in string");
            goto out;
        }
        c = (unsigned char)p[i];
        switch (c) {
        case '\n': break;
        case '\\': buf[nb++] = '\\'; break;
        case '\'': buf[nb++] = '\''; break;
        case '"': buf[nb++] = '"'; break;
        case 'a': buf[nb++] = 7; break;
        case 'b': buf[nb++] = 8; break;
        case 'f': buf[nb++] = 12; break;
        case 'n': buf[nb++] = 10; break;
        case 'r': buf[nb++] = 13; break;
        case 't': buf[nb++] = 9; break;
        case 'v': buf[nb++] = 11; break;
        case 'x': {
            int v = 0, k = 0;
            for (; k < 2 && i + 1 < n; k++) {
                char h = p[i + 1];
                int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                      : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                if (d < 0)
                    break;
                v = v * 16 + d;
                i++;
            }
            if (k < 2) {
                const char *errors = errors_arg(a[1], errbuf, sizeof errbuf);
                if (errors && !strcmp(errors, "replace")) {
                    buf[nb++] = '?';
                } else if (!errors || strcmp(errors, "ignore")) {
                    free(buf);
                    if (!errors || !strcmp(errors, "strict"))
                        err_format(E_ValueError, "invalid \\x escape at position %lld", (long long)(i - 1 - k));
                    else
                        err_format(E_ValueError, "decoding error; unknown error handling code: %.400s", errors);
                    goto out;
                }
                break;
            }
            buf[nb++] = (unsigned char)v;
            break;
        }
        default:
            if (c >= '0' && c <= '7') {
                int v = c - '0';
                int64_t first = i;
                for (int k = 0; k < 2 && i + 1 < n && p[i + 1] >= '0' && p[i + 1] <= '7'; k++)
                    v = v * 8 + (p[++i] - '0');
                if (v > 0377 && !invalid[0])
                    memcpy(invalid, p + first, 3);
                buf[nb++] = (unsigned char)v;
            } else {
                if (!invalid[0])
                    invalid[0] = (char)c;
                buf[nb++] = '\\';
                buf[nb++] = c;
            }
        }
    }
    a[1] = bytes_new((const char *)buf, (size_t)nb);
    free(buf);
    if (a[1] && invalid[0]) {
        /* the warning may run Python code: the result is rooted */
        StrBuf m;
        sb_init(&m);
        if (invalid[0] >= '4' && invalid[0] <= '7') {
            sb_printf(&m, "invalid octal escape sequence '\\%.3s'", invalid);
        } else {
            sb_printf(&m, "invalid escape sequence '\\");
            sb_add_codepoint(&m, (unsigned char)invalid[0]);   /* the byte as a Latin-1 character */
            sb_addc(&m, '\'');
        }
        Obj msg = sb_finish(&m);
        if (!msg || vm_warn(E_DeprecationWarning, msg, NULL) < 0)
            goto out;
    }
    res = a[1] ? tuple_pack(2, a[1], int_from_i64(n)) : NULL;
out:
    vm_unroots(a);
    return res;
}

/* escape_encode(bytes, errors=None): repr-style escapes, without quotes. */
/* readbuffer_encode(data, errors=None): (the bytes of a buffer, or of a str in UTF-8, their count). */
static Obj c_readbuffer_encode(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"data", "errors", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("readbuffer_encode", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    const char *p;
    int64_t n;
    if (!str_or_bytes_like(a[0], &p, &n)) {
        err_format(E_TypeError, "readbuffer_encode() argument 1 must be str or a bytes-like object, not %s",
                   type_name(a[0]));
        goto out;
    }
    if ((a[2] = bytes_new(p, (size_t)n)))
        res = tuple_pack(2, a[2], int_from_i64(n));
out:
    vm_unroots(a);
    return res;
}

static Obj c_escape_encode(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"data", "errors", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("escape_encode", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    if (!IS_BYTES(a[0])) {
        err_format(E_TypeError, "escape_encode() argument 1 must be bytes, not %s", type_name(a[0]));
        goto out;
    }
    const char *p;
    int64_t n;
    bytes_like(a[0], &p, &n);
    StrBuf b;
    sb_init(&b);
    for (int64_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c == '\\' || c == '\'')
            sb_printf(&b, "\\%c", c);
        else if (c == '\t')
            sb_add(&b, "\\t", 2);
        else if (c == '\n')
            sb_add(&b, "\\n", 2);
        else if (c == '\r')
            sb_add(&b, "\\r", 2);
        else if (c < 0x20 || c >= 0x7f)
            sb_printf(&b, "\\x%02x", c);
        else
            sb_add(&b, (const char *)&c, 1);
    }
    a[1] = sb_finish(&b);
    if (!a[1] || !(a[2] = str_encode(a[1], "ascii", NULL)))
        goto out;
    res = tuple_pack(2, a[2], int_from_i64(n));
out:
    vm_unroots(a);
    return res;
}

static const MethodDef codecs_functions[] = {
    {"register", c_register, METH_O, NULL},
    {"unregister", c_unregister, METH_O, NULL},
    {"lookup", c_lookup, METH_O, NULL},
    {"_forget_codec", c_forget_codec, METH_O, NULL},
    {"encode", c_encode, METH_KW, NULL},
    {"decode", c_decode, METH_KW, NULL},
    {"register_error", c_register_error, METH_ARGS(2, 2), NULL},
    {"lookup_error", c_lookup_error, METH_O, NULL},
    {"utf_8_encode", c_utf_8_encode, METH_KW, NULL},
    {"utf_8_decode", c_utf_8_decode, METH_KW, NULL},
    {"ascii_encode", c_ascii_encode, METH_KW, NULL},
    {"ascii_decode", c_ascii_decode, METH_KW, NULL},
    {"latin_1_encode", c_latin_1_encode, METH_KW, NULL},
    {"latin_1_decode", c_latin_1_decode, METH_KW, NULL},
    {"unicode_escape_encode", c_unicode_escape_encode, METH_KW, NULL},
    {"unicode_escape_decode", c_unicode_escape_decode, METH_KW, NULL},
    {"raw_unicode_escape_encode", c_raw_unicode_escape_encode, METH_KW, NULL},
    {"raw_unicode_escape_decode", c_raw_unicode_escape_decode, METH_KW, NULL},
    {"utf_16_encode", c_utf_16_encode, METH_KW, NULL},
    {"utf_16_decode", c_utf_16_decode, METH_KW, NULL},
    {"utf_16_le_encode", c_utf_16_le_encode, METH_KW, NULL},
    {"utf_16_le_decode", c_utf_16_le_decode, METH_KW, NULL},
    {"utf_16_be_encode", c_utf_16_be_encode, METH_KW, NULL},
    {"utf_16_be_decode", c_utf_16_be_decode, METH_KW, NULL},
    {"utf_32_encode", c_utf_32_encode, METH_KW, NULL},
    {"utf_32_decode", c_utf_32_decode, METH_KW, NULL},
    {"utf_32_le_encode", c_utf_32_le_encode, METH_KW, NULL},
    {"utf_32_le_decode", c_utf_32_le_decode, METH_KW, NULL},
    {"utf_32_be_encode", c_utf_32_be_encode, METH_KW, NULL},
    {"utf_32_be_decode", c_utf_32_be_decode, METH_KW, NULL},
    {"utf_16_ex_decode", c_utf_16_ex_decode, METH_KW, NULL},
    {"utf_32_ex_decode", c_utf_32_ex_decode, METH_KW, NULL},
    {"charmap_decode", c_charmap_decode, METH_KW, NULL},
    {"charmap_encode", c_charmap_encode, METH_KW, NULL},
    {"charmap_build", c_charmap_build, METH_O, NULL},
    {"escape_decode", c_escape_decode, METH_KW, NULL},
    {"escape_encode", c_escape_encode, METH_KW, NULL},
    {"readbuffer_encode", c_readbuffer_encode, METH_KW, NULL},
    {"utf_7_encode", codecs_utf_7_encode, METH_KW, NULL},
    {"utf_7_decode", codecs_utf_7_decode, METH_KW, NULL},
    {NULL, NULL, 0, NULL},
};

/* The built-in error handlers, as lookup_error returns them. */
static const MethodDef handler_functions[] = {
    {"strict_errors", h_strict, METH_O | METH_BARENAME, NULL},
    {"ignore_errors", h_ignore, METH_O | METH_BARENAME, NULL},
    {"replace_errors", h_replace, METH_O | METH_BARENAME, NULL},
    {"backslashreplace_errors", h_backslashreplace, METH_O | METH_BARENAME, NULL},
    {"xmlcharrefreplace_errors", h_xmlcharrefreplace, METH_O | METH_BARENAME, NULL},
    {"namereplace_errors", h_namereplace, METH_O | METH_BARENAME, NULL},
    {"surrogateescape", h_surrogateescape, METH_O | METH_BARENAME, NULL},
    {"surrogatepass", h_surrogatepass, METH_O | METH_BARENAME, NULL},
    {NULL, NULL, 0, NULL},
};

Obj codecs_module_init(void)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = module_new("_codecs");
    if (!r[0])
        goto out;
    module_add_functions(r[0], codecs_functions);
    if (dict_len(codec_errors_registry()) == 0) {
        /* the handlers: module functions of a scratch module, moved into the registry */
        r[1] = module_new("_codecs");
        if (!r[1])
            goto out;
        module_add_functions(r[1], handler_functions);
        static const char *const names[] = {"strict", "ignore", "replace", "backslashreplace",
                                            "xmlcharrefreplace", "namereplace", "surrogateescape",
                                            "surrogatepass"};
        for (size_t i = 0; i < 8; i++) {
            r[2] = vm_getattr_cstr(r[1], handler_functions[i].name);
            if (!r[2] || dict_setitem_cstr(codec_errors_registry(), names[i], r[2]) < 0)
                goto out;
        }
    }
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

/* Start-up: the registries (global roots, written only now). */
void codecs_init(void)
{
    VM_GLOBAL_ROOT(g_codec_search);
    VM_GLOBAL_ROOT(g_codec_cache);
    codec_errors_init();
    g_codec_search = list_new_capacity(4);
    g_codec_cache = g_codec_search ? dict_new() : NULL;
    if (!g_codec_cache) {
        fputs("tmpy: fatal: out of memory at start-up\n", stderr);
        exit(1);
    }
}
