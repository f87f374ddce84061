/* _json: the C half of CPython's json package (Lib/json runs unchanged over
 * it, taking these in place of its pure-Python scanner and encoder when
 * they import): scanstring, make_scanner (the Scanner type),
 * make_encoder (the Encoder type), encode_basestring_ascii and
 * encode_basestring, with CPython 3.11's results, messages and error
 * positions.
 *
 * A str is UTF-8 here (objects/strobj.h): the scanner walks bytes and
 * counts code points beside them (a Pos), since positions in errors and in
 * the (value, end) results are code point indices. Whatever is not inside
 * a JSON string is ASCII when valid, so bytes and code points advance
 * together there. The string being scanned may move at any allocation: its
 * bytes are fetched again from its root slot after each one.
 *
 * Per-call state only (the scanner's memo dict, the encoder's output buffer
 * and its stack of containers being encoded, which stands in for CPython's
 * markers dict of ids): threads may share a scanner or an encoder. */
#include "modules.h"
#include "objects/objects.h"

#include <math.h>
#include <stdlib.h>

static TypeObj *T_scanner, *T_encoder;

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

/* json.decoder.JSONDecodeError(msg, s, pos) (looked up each time: the
 * test suite re-imports json with a fresh _json and shares the class). */
static void raise_decode_error(const char *msg, Obj s, int64_t pos)
{
    Obj *r = vm_roots(4);
    r[0] = s;
    r[1] = vm_import_cstr("json.decoder");
    if (r[1])
        r[1] = vm_getattr_cstr(r[1], "JSONDecodeError");
    if (r[1])
        r[2] = str_from_cstr(msg);
    if (r[2])
        r[3] = int_from_i64(pos);
    if (r[3]) {
        Obj exc = vm_call3(r[1], r[2], r[0], r[3]);
        if (exc)
            err_set_obj(exc);
    }
    vm_unroots(r);
}

/* StopIteration(idx): no value starts at idx (the scanner's protocol). */
static void raise_stop(int64_t idx)
{
    Obj v = int_from_i64(idx);
    if (v)
        err_set_value(E_StopIteration, v);
}

/* ------------------------------------------------------------------ */
/* Scanner                                                             */
/* ------------------------------------------------------------------ */

/* The scanner's configuration tuple (the Scanner object's `a`). */
enum { K_OBJECT_HOOK, K_PAIRS_HOOK, K_PARSE_FLOAT, K_PARSE_INT, K_PARSE_CONSTANT, K_COUNT };
/* Root slots of one scan. */
enum { R_STR, R_MEMO, R_CONF, R_COUNT };

typedef struct Scan {
    Obj *r;            /* R_COUNT root slots */
    int64_t nbytes;    /* of the string */
    bool strict;
} Scan;

typedef struct Pos { int64_t b, c; } Pos;   /* byte offset and code point index */

static inline const unsigned char *scan_bytes(const Scan *sc)
{
    return (const unsigned char *)str_cstr(sc->r[R_STR]);
}

static inline Obj scan_conf(const Scan *sc, int k)
{
    return TUPLE_ITEMS(sc->r[R_CONF])[k];
}

static inline bool is_ws(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static inline void skip_ws(const Scan *sc, Pos *pos)
{
    const unsigned char *p = scan_bytes(sc);
    int64_t b = pos->b;
    while (b < sc->nbytes && is_ws(p[b]))
        b++;
    pos->c += b - pos->b;
    pos->b = b;
}

static int hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Four hex digits at p (n bytes available): the value, or -1. */
static int32_t hex4(const unsigned char *p, int64_t n)
{
    if (n < 4)
        return -1;
    int32_t v = 0;
    for (int i = 0; i < 4; i++) {
        int d = hex_value(p[i]);
        if (d < 0)
            return -1;
        v = v << 4 | d;
    }
    return v;
}

/* A str of nb bytes, nc code points, copied from the scanned string at
 * byte offset from (after the allocation: the string may have moved). */
static Obj scan_substr(const Scan *sc, int64_t from, int64_t nb, int64_t nc)
{
    Obj s = str_alloc(nb, nc);
    if (s && nb)
        memcpy(VM_LINEAR(STR(s)->data), scan_bytes(sc) + from, (size_t)nb);
    return s;
}

static Obj str_from_buf(const char *p, int64_t nb, int64_t nc)
{
    Obj s = str_alloc(nb, nc);
    if (s && nb)
        memcpy(VM_LINEAR(STR(s)->data), p, (size_t)nb);
    return s;
}

/* The JSON string whose opening quote is just before *pos; *pos ends past
 * its closing quote. CPython's scanstring: its messages and positions. */
static Obj scan_string(const Scan *sc, Pos *pos)
{
    int64_t begin = pos->c - 1, n = sc->nbytes;
    int64_t b = pos->b, c = pos->c;
    const unsigned char *p = scan_bytes(sc);
    /* the common case: no escape */
    int64_t start_b = b, start_c = c;
    while (b < n) {
        unsigned char ch = p[b];
        if (ch == '"' || ch == '\\')
            break;
        if (ch < 0x20 && sc->strict) {
            raise_decode_error("Invalid control character at", sc->r[R_STR], c);
            return NULL;
        }
        c += (ch & 0xc0) != 0x80;
        b++;
    }
    if (b == n) {
        raise_decode_error("Unterminated string starting at", sc->r[R_STR], begin);
        return NULL;
    }
    if (p[b] == '"') {
        pos->b = b + 1;
        pos->c = c + 1;
        return scan_substr(sc, start_b, b - start_b, c - start_c);
    }
    /* escapes: build the value in C memory (nothing below allocates a GC
     * object, so p stays valid) */
    StrBuf out;
    sb_init(&out);
    sb_add(&out, (const char *)p + start_b, (size_t)(b - start_b));
    int64_t nchars = c - start_c;
    const char *msg = NULL;
    int64_t at = 0;
    for (;;) {
        /* p[b] is a backslash at code point c */
        int64_t bs = c;
        b++;
        if (b == n) {
            msg = "Unterminated string starting at", at = begin;
            break;
        }
        unsigned char e = p[b];
        uint32_t cp;
        if (e != 'u') {
            switch (e) {
            case '"': case '\\': case '/': cp = e; break;
            case 'b': cp = '\b'; break;
            case 'f': cp = '\f'; break;
            case 'n': cp = '\n'; break;
            case 'r': cp = '\r'; break;
            case 't': cp = '\t'; break;
            default: cp = 0;
            }
            if (!cp) {
                msg = "Invalid \\escape", at = bs;
                break;
            }
            b++;
            c = bs + 2;
        } else {
            /* four hex digits and something after them */
            int32_t v = b + 5 < n ? hex4(p + b + 1, n - b - 1) : -1;
            if (v < 0) {
                msg = "Invalid \\uXXXX escape", at = bs + 1;
                break;
            }
            b += 5;
            c = bs + 6;
            cp = (uint32_t)v;
            if (cp >= 0xd800 && cp <= 0xdbff && b + 6 < n && p[b] == '\\' && p[b + 1] == 'u') {
                int32_t lo = hex4(p + b + 2, n - b - 2);
                if (lo < 0) {
                    msg = "Invalid \\uXXXX escape", at = c + 1;
                    break;
                }
                if (lo >= 0xdc00 && lo <= 0xdfff) {
                    cp = 0x10000 + ((cp - 0xd800) << 10) + ((uint32_t)lo - 0xdc00);
                    b += 6;
                    c += 6;
                }
            }
        }
        char enc[4];
        sb_add(&out, enc, (size_t)utf8_encode(cp, enc));
        nchars++;
        /* the next chunk */
        int64_t chunk_b = b, chunk_c = c;
        while (b < n) {
            unsigned char ch = p[b];
            if (ch == '"' || ch == '\\')
                break;
            if (ch < 0x20 && sc->strict) {
                msg = "Invalid control character at", at = c;
                break;
            }
            c += (ch & 0xc0) != 0x80;
            b++;
        }
        if (msg)
            break;
        if (b == n) {
            msg = "Unterminated string starting at", at = begin;
            break;
        }
        sb_add(&out, (const char *)p + chunk_b, (size_t)(b - chunk_b));
        nchars += c - chunk_c;
        if (p[b] == '"')
            break;
    }
    if (msg) {
        sb_free(&out);
        raise_decode_error(msg, sc->r[R_STR], at);
        return NULL;
    }
    pos->b = b + 1;
    pos->c = c + 1;
    if (sb_failed(&out)) {
        sb_free(&out);
        return err_nomemory();
    }
    Obj s = str_from_buf(out.p, (int64_t)out.len, nchars);
    sb_free(&out);
    return s;
}

static Obj scan_value(const Scan *sc, Pos *pos);

/* A number at *pos (CPython's _match_number: ASCII digits only). */
static Obj scan_number(const Scan *sc, Pos *pos)
{
    const unsigned char *p = scan_bytes(sc);
    int64_t n = sc->nbytes, start = pos->b, b = start;
    if (p[b] == '-') {
        b++;
        if (b >= n) {
            raise_stop(pos->c);
            return NULL;
        }
    }
    if (p[b] >= '1' && p[b] <= '9') {
        b++;
        while (b < n && p[b] >= '0' && p[b] <= '9')
            b++;
    } else if (p[b] == '0') {
        b++;
    } else {
        raise_stop(pos->c);
        return NULL;
    }
    bool is_float = false;
    if (b + 1 < n && p[b] == '.' && p[b + 1] >= '0' && p[b + 1] <= '9') {
        is_float = true;
        b += 2;
        while (b < n && p[b] >= '0' && p[b] <= '9')
            b++;
    }
    if (b + 1 < n && (p[b] == 'e' || p[b] == 'E')) {
        int64_t e_start = b;
        b++;
        if (b + 1 < n && (p[b] == '-' || p[b] == '+'))
            b++;
        while (b < n && p[b] >= '0' && p[b] <= '9')
            b++;
        if (p[b - 1] >= '0' && p[b - 1] <= '9')
            is_float = true;
        else
            b = e_start;
    }
    int64_t len = b - start;
    pos->b = b;
    pos->c += len;
    /* a C copy of the digits (the string may move at the next allocation) */
    char local[64], *buf = local;
    if (len >= (int64_t)sizeof local && !(buf = malloc((size_t)len + 1)))
        return err_nomemory();
    memcpy(buf, p + start, (size_t)len);
    buf[len] = 0;
    Obj res;
    Obj custom = is_float ? scan_conf(sc, K_PARSE_FLOAT) : scan_conf(sc, K_PARSE_INT);
    if (custom != (is_float ? (Obj)T_float : (Obj)T_int)) {
        Obj *r = vm_roots(2);
        r[0] = custom;
        r[1] = str_from_buf(buf, len, len);
        res = r[1] ? vm_call1(r[0], r[1]) : NULL;
        vm_unroots(r);
    } else if (is_float) {
        res = float_new(strtod(buf, NULL));
    } else if (len <= 18) {
        int64_t v = 0;
        const char *q = buf + (buf[0] == '-');
        for (; *q; q++)
            v = v * 10 + (*q - '0');
        res = int_from_i64(buf[0] == '-' ? -v : v);
    } else {
        res = int_from_string(buf, (size_t)len, 10);
    }
    if (buf != local)
        free(buf);
    return res;
}

/* After a member of an object or array: whitespace, then `close` (returns 1,
 * *pos left on it) or ',' and whitespace (returns 0); else raises, -1. */
static int scan_separator(const Scan *sc, Pos *pos, char close)
{
    skip_ws(sc, pos);
    if (pos->b < sc->nbytes && scan_bytes(sc)[pos->b] == close)
        return 1;
    if (pos->b >= sc->nbytes || scan_bytes(sc)[pos->b] != ',') {
        raise_decode_error("Expecting ',' delimiter", sc->r[R_STR], pos->c);
        return -1;
    }
    pos->b++, pos->c++;
    skip_ws(sc, pos);
    return 0;
}

/* An object; *pos is just past its '{'. */
static Obj scan_object(const Scan *sc, Pos *pos)
{
    bool pairs = scan_conf(sc, K_PAIRS_HOOK) != g_None;
    Obj *r = vm_roots(3);   /* the result (dict, or list of pairs), key, value */
    Obj res = NULL;
    r[0] = pairs ? list_new_capacity(0) : dict_new();
    if (!r[0])
        goto out;
    skip_ws(sc, pos);
    if (pos->b >= sc->nbytes || scan_bytes(sc)[pos->b] != '}') {
        for (;;) {
            if (pos->b >= sc->nbytes || scan_bytes(sc)[pos->b] != '"') {
                raise_decode_error("Expecting property name enclosed in double quotes", sc->r[R_STR], pos->c);
                goto out;
            }
            pos->b++, pos->c++;
            r[1] = scan_string(sc, pos);
            if (!r[1])
                goto out;
            /* one str object for each distinct key (the memo) */
            Obj known = dict_getitem_str(sc->r[R_MEMO], r[1]);
            if (known)
                r[1] = known;
            else if (dict_setitem(sc->r[R_MEMO], r[1], r[1]) < 0)
                goto out;
            skip_ws(sc, pos);
            if (pos->b >= sc->nbytes || scan_bytes(sc)[pos->b] != ':') {
                raise_decode_error("Expecting ':' delimiter", sc->r[R_STR], pos->c);
                goto out;
            }
            pos->b++, pos->c++;
            skip_ws(sc, pos);
            r[2] = scan_value(sc, pos);
            if (!r[2])
                goto out;
            if (pairs) {
                Obj item = tuple_pack(2, r[1], r[2]);
                if (!item || list_append(r[0], item) < 0)
                    goto out;
            } else if (dict_setitem(r[0], r[1], r[2]) < 0) {
                goto out;
            }
            int sep = scan_separator(sc, pos, '}');
            if (sep < 0)
                goto out;
            if (sep)
                break;
        }
    }
    pos->b++, pos->c++;   /* the '}' */
    if (pairs)
        res = vm_call1(scan_conf(sc, K_PAIRS_HOOK), r[0]);
    else if (scan_conf(sc, K_OBJECT_HOOK) != g_None)
        res = vm_call1(scan_conf(sc, K_OBJECT_HOOK), r[0]);
    else
        res = r[0];
out:
    vm_unroots(r);
    return res;
}

/* An array; *pos is just past its '['. */
static Obj scan_array(const Scan *sc, Pos *pos)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = list_new_capacity(0);
    if (!r[0])
        goto out;
    skip_ws(sc, pos);
    if (pos->b >= sc->nbytes || scan_bytes(sc)[pos->b] != ']') {
        for (;;) {
            Obj v = scan_value(sc, pos);
            if (!v || list_append(r[0], v) < 0)
                goto out;
            int sep = scan_separator(sc, pos, ']');
            if (sep < 0)
                goto out;
            if (sep)
                break;
        }
    }
    pos->b++, pos->c++;   /* the ']' */
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

/* parse_constant(name) for NaN, Infinity, -Infinity (len bytes at *pos). */
static Obj scan_constant(const Scan *sc, Pos *pos, const char *name, int64_t len)
{
    pos->b += len;
    pos->c += len;
    Obj *r = vm_roots(1);
    r[0] = str_from_cstr(name);
    Obj res = r[0] ? vm_call1(scan_conf(sc, K_PARSE_CONSTANT), r[0]) : NULL;
    vm_unroots(r);
    return res;
}

/* Any JSON value at *pos (no leading whitespace), CPython's scan_once. */
static Obj scan_value(const Scan *sc, Pos *pos)
{
    int64_t b = pos->b, n = sc->nbytes;
    if (b >= n) {
        raise_stop(pos->c);
        return NULL;
    }
    const unsigned char *p = scan_bytes(sc);
    Obj res;
    switch (p[b]) {
    case '"':
        pos->b++, pos->c++;
        return scan_string(sc, pos);
    case '{':
        if (vm_enter_recursive(" while decoding a JSON object from a unicode string") < 0)
            return NULL;
        pos->b++, pos->c++;
        res = scan_object(sc, pos);
        vm_leave_recursive();
        return res;
    case '[':
        if (vm_enter_recursive(" while decoding a JSON array from a unicode string") < 0)
            return NULL;
        pos->b++, pos->c++;
        res = scan_array(sc, pos);
        vm_leave_recursive();
        return res;
    case 'n':
        if (b + 3 < n && memcmp(p + b, "null", 4) == 0) {
            pos->b += 4, pos->c += 4;
            return g_None;
        }
        break;
    case 't':
        if (b + 3 < n && memcmp(p + b, "true", 4) == 0) {
            pos->b += 4, pos->c += 4;
            return g_True;
        }
        break;
    case 'f':
        if (b + 4 < n && memcmp(p + b, "false", 5) == 0) {
            pos->b += 5, pos->c += 5;
            return g_False;
        }
        break;
    case 'N':
        if (b + 2 < n && memcmp(p + b, "NaN", 3) == 0)
            return scan_constant(sc, pos, "NaN", 3);
        break;
    case 'I':
        if (b + 7 < n && memcmp(p + b, "Infinity", 8) == 0)
            return scan_constant(sc, pos, "Infinity", 8);
        break;
    case '-':
        if (b + 8 < n && memcmp(p + b, "-Infinity", 9) == 0)
            return scan_constant(sc, pos, "-Infinity", 9);
        break;
    }
    return scan_number(sc, pos);
}


/* The string argument of scan_once / scanstring (a str subclass: its value). */
static Obj string_arg(Obj v)
{
    Obj s = str_value(v);
    if (!s)
        err_format(E_TypeError, "first argument must be a string, not %.80s", type_name(v));
    return s;
}

/* scanner(string, idx) -> (value, end); StopIteration(idx) if no value starts there. */
static Obj scanner_call(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"string", "idx", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    a[2] = ITER(self)->a;   /* (self is not a root slot: read it before anything allocates) */
    bool strict = ITER(self)->i != 0;
    if (vm_parse_args("scan_once", args, nargs, kwnames, names, 2, 2, a) < 0)
        goto done;
    int64_t idx;
    if (arg_ssize(a[1], &idx) < 0 || !string_arg(a[0]))
        goto done;
    Obj s = str_value(a[0]);   /* (read again: __index__ may have moved it) */
    if (idx < 0) {
        err_set(E_ValueError, "idx cannot be negative");
        goto done;
    }
    if (idx >= str_len(s)) {
        raise_stop(idx);
        goto done;
    }
    Scan sc;
    sc.r = vm_roots(R_COUNT);
    sc.r[R_STR] = s;
    sc.r[R_CONF] = a[2];
    sc.strict = strict;
    sc.nbytes = STR(s)->nbytes;
    sc.r[R_MEMO] = dict_new();
    if (sc.r[R_MEMO]) {
        Pos pos = {str_byte_offset(sc.r[R_STR], idx), idx};   /* dict_new may have moved s */
        Obj v = scan_value(&sc, &pos);
        if (v) {
            Obj *t = vm_roots(2);
            t[0] = v;
            t[1] = int_from_i64(pos.c);
            if (t[1])
                res = tuple_pack(2, t[0], t[1]);
            vm_unroots(t);
        }
    }
    vm_unroots(sc.r);
done:
    vm_unroots(a);
    return res;
}

/* make_scanner(context): the context's settings read once, as CPython's. */
static Obj scanner_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"context", NULL};
    static const char *const attrs[K_COUNT] = {"object_hook", "object_pairs_hook", "parse_float", "parse_int",
                                               "parse_constant"};
    Obj *r = vm_roots(2 + K_COUNT);
    Obj res = NULL;
    if (vm_parse_args("make_scanner", args, nargs, kwnames, names, 1, 1, r) < 0)
        goto out;
    Obj strict = vm_getattr_cstr(r[0], "strict");
    if (!strict)
        goto out;
    int st = vm_is_true(strict);
    if (st < 0)
        goto out;
    for (int k = 0; k < K_COUNT; k++)
        if (!(r[2 + k] = vm_getattr_cstr(r[0], attrs[k])))
            goto out;
    r[1] = tuple_from_array(r + 2, K_COUNT);
    if (r[1])
        res = iter_alloc(T_scanner, r[1], 0);
    if (res)
        ITER(res)->i = st;
out:
    vm_unroots(r);
    return res;
}

/* scanstring(string, end, strict=True) -> (str, end) */
static Obj json_scanstring(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t end;
    if (arg_ssize(args[1], &end) < 0 || !string_arg(args[0]))
        return NULL;
    bool strict = true;
    if (nargs > 2) {
        int t = vm_is_true(args[2]);
        if (t < 0)
            return NULL;
        strict = t;
    }
    Obj s = str_value(args[0]);   /* (read again: the calls above may have moved it) */
    if (end < 0 || end > str_len(s)) {
        err_set(E_ValueError, "end is out of bounds");
        return NULL;
    }
    Scan sc;
    sc.r = vm_roots(R_COUNT);
    sc.r[R_STR] = s;
    sc.strict = strict;
    sc.nbytes = STR(s)->nbytes;
    Pos pos = {str_byte_offset(s, end), end};
    Obj res = NULL;
    Obj *t = vm_roots(2);
    t[0] = scan_string(&sc, &pos);
    if (t[0])
        t[1] = int_from_i64(pos.c);
    if (t[1])
        res = tuple_pack(2, t[0], t[1]);
    vm_unroots(sc.r);
    return res;
}

/* ------------------------------------------------------------------ */
/* Encoder                                                             */
/* ------------------------------------------------------------------ */

static Obj json_encode_basestring_ascii(Obj *args, size_t nargs, Obj kwnames);
static Obj json_encode_basestring(Obj *args, size_t nargs, Obj kwnames);

/* The encoder's configuration tuple (the Encoder object's `a`). */
enum { C_MARKERS, C_DEFAULT, C_ENCODER, C_INDENT, C_KEY_SEP, C_ITEM_SEP, C_COUNT };
/* Flags (the Encoder object's `i`) and its string encoder (its `n`). */
enum { F_SORT_KEYS = 1, F_SKIPKEYS = 2, F_ALLOW_NAN = 4, F_MARKERS = 8 };
enum { STR_CALL, STR_ASCII, STR_UNICODE };

typedef struct Enc {
    StrBuf out;
    Obj *conf;        /* root slot: the configuration tuple */
    int flags;
    int strenc;
    Obj **open;       /* root slots of the containers being encoded (circular check) */
    int nopen, capopen;
} Enc;

static inline Obj enc_conf(const Enc *e, int k)
{
    return TUPLE_ITEMS(*e->conf)[k];
}

static const char hexdigits[] = "0123456789abcdef";

static inline char *put_u4(char *o, uint32_t v)
{
    o[0] = '\\';
    o[1] = 'u';
    o[2] = hexdigits[v >> 12 & 15];
    o[3] = hexdigits[v >> 8 & 15];
    o[4] = hexdigits[v >> 4 & 15];
    o[5] = hexdigits[v & 15];
    return o + 6;
}

/* The JSON string literal of n bytes of str UTF-8 at p, appended to b:
 * non-ASCII as \uXXXX (surrogate pairs above the BMP) when `ascii`. p may
 * point into the GC heap: nothing here allocates a GC object. */
static void sb_add_json_string(StrBuf *b, const unsigned char *p, int64_t n, bool ascii)
{
    if (!sb_reserve(b, (size_t)n * 6 + 2))
        return;
    char *o = b->p + b->len;
    *o++ = '"';
    for (int64_t i = 0; i < n;) {
        unsigned char c = p[i];
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x7f) {
            *o++ = (char)c;
            i++;
            continue;
        }
        if (c >= 0x7f) {
            if (!ascii) {
                *o++ = (char)c;
                i++;
                continue;
            }
            int len;
            uint32_t cp = utf8_decode(p + i, &len);
            i += len;
            if (cp >= 0x10000) {
                cp -= 0x10000;
                o = put_u4(o, 0xd800 | (cp >> 10));
                o = put_u4(o, 0xdc00 | (cp & 0x3ff));
            } else {
                o = put_u4(o, cp);
            }
            continue;
        }
        i++;
        *o++ = '\\';
        switch (c) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '\b': *o++ = 'b'; break;
        case '\f': *o++ = 'f'; break;
        case '\n': *o++ = 'n'; break;
        case '\r': *o++ = 'r'; break;
        case '\t': *o++ = 't'; break;
        default: o = put_u4(o - 1, c);
        }
    }
    *o++ = '"';
    b->len = (size_t)(o - b->p);
}

/* The str StrBuf b holds, its code points counted (no re-validation). */
static Obj sb_finish_str(StrBuf *b)
{
    if (sb_failed(b)) {
        sb_free(b);
        return err_nomemory();
    }
    Obj s = str_from_buf(b->p, (int64_t)b->len, utf8_count(b->p, b->len));
    sb_free(b);
    return s;
}

static Obj encode_basestring(Obj *args, bool ascii)
{
    Obj s = string_arg(args[0]);
    if (!s)
        return NULL;
    StrBuf b;
    sb_init(&b);
    sb_add_json_string(&b, (const unsigned char *)str_cstr(s), STR(s)->nbytes, ascii);
    return sb_finish_str(&b);
}

static Obj json_encode_basestring_ascii(Obj *args, size_t nargs, Obj kwnames)
{
    return encode_basestring(args, true);
}

static Obj json_encode_basestring(Obj *args, size_t nargs, Obj kwnames)
{
    return encode_basestring(args, false);
}

/* A str (obj, a str or a str subclass instance) through the encoder. */
static int enc_string(Enc *e, Obj obj)
{
    if (e->strenc != STR_CALL) {
        Obj s = str_value(obj);
        sb_add_json_string(&e->out, (const unsigned char *)str_cstr(s), STR(s)->nbytes, e->strenc == STR_ASCII);
        return 0;
    }
    Obj v = vm_call1(enc_conf(e, C_ENCODER), obj);
    if (!v)
        return -1;
    Obj s = str_value(v);
    if (!s) {
        err_format(E_TypeError, "encoder() must return a string, not %.80s", type_name(v));
        return -1;
    }
    sb_add_str(&e->out, s);
    return 0;
}

/* float.__repr__, or Infinity, -Infinity, NaN when allowed (buf >= 32). */
static int float_text(const Enc *e, double d, char *buf)
{
    if (isfinite(d)) {
        float_repr_buf(d, buf);
        return 0;
    }
    if (!(e->flags & F_ALLOW_NAN)) {
        err_set(E_ValueError, "Out of range float values are not JSON compliant");
        return -1;
    }
    strcpy(buf, isnan(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
    return 0;
}

/* int.__repr__ of an int value (not a subclass instance) appended. */
static int enc_int(Enc *e, Obj v)
{
    if (IS_SMALLINT(v)) {
        char buf[24];
        int n = snprintf(buf, sizeof buf, "%lld", (long long)SMALLINT_VAL(v));
        sb_add(&e->out, buf, (size_t)n);
        return 0;
    }
    Obj s = int_to_string(v, 10);
    if (!s)
        return -1;
    sb_add_str(&e->out, s);
    return 0;
}

/* Circular reference check: is obj being encoded already? */
static int enc_push(Enc *e, Obj *slot)
{
    if (!(e->flags & F_MARKERS))
        return 0;
    for (int i = 0; i < e->nopen; i++)
        if (*e->open[i] == *slot) {
            err_set(E_ValueError, "Circular reference detected");
            return -1;
        }
    if (e->nopen == e->capopen) {
        int cap = e->capopen ? e->capopen * 2 : 16;
        Obj **p = realloc(e->open, (size_t)cap * sizeof *p);
        if (!p) {
            err_nomemory();
            return -1;
        }
        e->open = p;
        e->capopen = cap;
    }
    e->open[e->nopen++] = slot;
    return 0;
}

static void enc_pop(Enc *e)
{
    if (e->flags & F_MARKERS)
        e->nopen--;
}

static int enc_obj(Enc *e, Obj obj);

/* One value inside a container, under the recursion guard. */
static int enc_item(Enc *e, Obj v)
{
    if (vm_enter_recursive(" while encoding a JSON object") < 0)
        return -1;
    int rc = enc_obj(e, v);
    vm_leave_recursive();
    return rc;
}

static int enc_list(Enc *e, Obj obj)
{
    Obj *r = vm_roots(2);
    int rc = -1;
    r[0] = obj;
    /* a list or tuple as it is; a subclass instance through its __iter__ (PySequence_Fast) */
    r[1] = IS_LIST(obj) || IS_TUPLE(obj) ? obj : vm_list_from_iter(obj);
    if (!r[1])
        goto out;
    bool is_list = IS_LIST(r[1]);
    if ((is_list ? LIST_LEN(r[1]) : TUPLE_LEN(r[1])) == 0) {
        sb_add(&e->out, "[]", 2);
        rc = 0;
        goto out;
    }
    if (enc_push(e, &r[0]) < 0)
        goto out;
    sb_addc(&e->out, '[');
    for (int64_t i = 0; i < (is_list ? LIST_LEN(r[1]) : TUPLE_LEN(r[1])); i++) {
        if (i)
            sb_add_str(&e->out, enc_conf(e, C_ITEM_SEP));
        if (enc_item(e, is_list ? LIST_ITEMS(r[1])[i] : TUPLE_ITEMS(r[1])[i]) < 0)
            goto out;
    }
    sb_addc(&e->out, ']');
    enc_pop(e);
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* One key: value of a dict (*first: nothing written yet); the pair is in
 * root slots kv[0], kv[1]. */
static int enc_pair(Enc *e, Obj *kv, bool *first)
{
    Obj k = vm_unwrap(kv[0]);
    char buf[32];
    const char *text = NULL;   /* the key's text, when it is not a str */
    Obj ktext = NULL;
    if (IS_STR(k)) {
        /* the key itself */
    } else if (IS_FLOAT(k)) {
        if (float_text(e, FLOAT_VAL(k), buf) < 0)
            return -1;
        text = buf;
    } else if (k == g_True) {
        text = "true";
    } else if (k == g_False) {
        text = "false";
    } else if (k == g_None) {
        text = "null";
    } else if (IS_INT(k)) {
        if (IS_SMALLINT(k)) {
            snprintf(buf, sizeof buf, "%lld", (long long)SMALLINT_VAL(k));
            text = buf;
        } else if (!(ktext = int_to_string(k, 10))) {
            return -1;
        }
    } else if (e->flags & F_SKIPKEYS) {
        return 0;
    } else {
        err_format(E_TypeError, "keys must be str, int, float, bool or None, not %.100s", type_name(kv[0]));
        return -1;
    }
    if (!*first)
        sb_add_str(&e->out, enc_conf(e, C_ITEM_SEP));
    *first = false;
    if (!text && !ktext) {
        if (enc_string(e, kv[0]) < 0)
            return -1;
    } else if (e->strenc != STR_CALL) {
        sb_addc(&e->out, '"');
        if (text)
            sb_adds(&e->out, text);
        else
            sb_add_str(&e->out, ktext);
        sb_addc(&e->out, '"');
    } else {
        Obj s = ktext ? ktext : str_from_cstr(text);
        if (!s || enc_string(e, s) < 0)
            return -1;
    }
    sb_add_str(&e->out, enc_conf(e, C_KEY_SEP));
    return enc_item(e, kv[1]);
}

static int enc_dict(Enc *e, Obj obj)
{
    Obj *r = vm_roots(4);   /* the dict, its items, a key and its value */
    int rc = -1;
    r[0] = obj;
    Obj d = vm_unwrap(obj);
    if (dict_len(d) == 0) {
        sb_add(&e->out, "{}", 2);
        rc = 0;
        goto out;
    }
    if (enc_push(e, &r[0]) < 0)
        goto out;
    sb_addc(&e->out, '{');
    bool first = true;
    if (IS_DICT(r[0]) && !(e->flags & F_SORT_KEYS)) {
        /* a snapshot of keys and values (a default() may change the dict) */
        int64_t n = dict_len(r[0]);
        r[1] = tuple_new(2 * n);
        if (!r[1])
            goto out;
        int64_t pos = 0, i = 0;
        Obj k, v;
        while (i < n && dict_next(r[0], &pos, &k, &v)) {
            TUPLE_ITEMS(r[1])[i * 2] = k;
            TUPLE_ITEMS(r[1])[i * 2 + 1] = v;
            i++;
        }
        for (int64_t j = 2 * i; j < 2 * n; j++)
            TUPLE_ITEMS(r[1])[j] = g_None;
        for (int64_t j = 0; j < i; j++) {
            r[2] = TUPLE_ITEMS(r[1])[j * 2];
            r[3] = TUPLE_ITEMS(r[1])[j * 2 + 1];
            if (enc_pair(e, &r[2], &first) < 0)
                goto out;
        }
    } else {
        /* CPython's PyMapping_Items: dict.items() of a plain dict, the
         * items() method of a subclass; sorted as (key, value) pairs */
        r[1] = IS_DICT(r[0]) ? dict_items_list(r[0]) : vm_call_method(r[0], "items", NULL, 0);
        if (r[1] && !IS_LIST(r[1]))
            r[1] = vm_list_from_iter(r[1]);
        if (!r[1])
            goto out;
        if ((e->flags & F_SORT_KEYS) && list_sort(r[1], NULL, false) < 0)
            goto out;
        for (int64_t j = 0; j < LIST_LEN(r[1]); j++) {
            Obj item = LIST_ITEMS(r[1])[j];
            if (!IS_TUPLE(item) || TUPLE_LEN(item) != 2) {
                err_set(E_ValueError, "items must return tuples of 2 elements");
                goto out;
            }
            r[2] = TUPLE_ITEMS(item)[0];
            r[3] = TUPLE_ITEMS(item)[1];
            if (enc_pair(e, &r[2], &first) < 0)
                goto out;
        }
    }
    sb_addc(&e->out, '}');
    enc_pop(e);
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* An object of no JSON type: default(obj), encoded in its place. */
static int enc_default(Enc *e, Obj obj)
{
    Obj *r = vm_roots(2);
    int rc = -1;
    r[0] = obj;
    if (enc_push(e, &r[0]) < 0)
        goto out;
    r[1] = vm_call1(enc_conf(e, C_DEFAULT), r[0]);
    if (!r[1] || enc_item(e, r[1]) < 0)
        goto out;
    enc_pop(e);
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* CPython's encoder_listencode_obj: None, True, False, str, int, float,
 * list/tuple, dict (subclasses by their built-in value), else default. */
static int enc_obj(Enc *e, Obj obj)
{
    if (obj == g_None) {
        sb_add(&e->out, "null", 4);
        return 0;
    }
    if (obj == g_True) {
        sb_add(&e->out, "true", 4);
        return 0;
    }
    if (obj == g_False) {
        sb_add(&e->out, "false", 5);
        return 0;
    }
    Obj u = vm_unwrap(obj);
    if (IS_STR(u))
        return enc_string(e, obj);
    if (IS_INT(u))
        return enc_int(e, u);
    if (IS_FLOAT(u)) {
        char buf[32];
        if (float_text(e, FLOAT_VAL(u), buf) < 0)
            return -1;
        sb_adds(&e->out, buf);
        return 0;
    }
    if (IS_LIST(u) || IS_TUPLE(u))
        return enc_list(e, obj);
    if (IS_DICT(u))
        return enc_dict(e, obj);
    return enc_default(e, obj);
}

/* encoder(obj, _current_indent_level) -> [the JSON text] */
static Obj encoder_call(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"obj", "_current_indent_level", NULL};
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[2] = ITER(self)->a;   /* (self is not a root slot: read it before anything allocates) */
    Enc e = {.conf = &r[2], .flags = (int)ITER(self)->i, .strenc = (int)ITER(self)->n};
    if (vm_parse_args("_iterencode", args, nargs, kwnames, names, 2, 2, r) < 0)
        goto done;
    int64_t level;
    if (arg_ssize(r[1], &level) < 0)
        goto done;
    sb_init(&e.out);
    int rc = enc_obj(&e, r[0]);
    free(e.open);
    if (rc < 0) {
        sb_free(&e.out);
        goto done;
    }
    r[0] = sb_finish_str(&e.out);
    if (r[0])
        res = list_from_array(&r[0], 1);
done:
    vm_unroots(r);
    return res;
}

/* c_make_encoder(markers, default, encoder, indent, key_separator,
 * item_separator, sort_keys, skipkeys, allow_nan) */
static Obj encoder_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"markers", "default", "encoder", "indent", "key_separator",
                                        "item_separator", "sort_keys", "skipkeys", "allow_nan", NULL};
    Obj *r = vm_roots(10);
    Obj res = NULL;
    if (vm_parse_args("make_encoder", args, nargs, kwnames, names, 9, 9, r) < 0)
        goto out;
    if (r[0] != g_None && !IS_DICT(vm_unwrap(r[0]))) {
        err_format(E_TypeError, "make_encoder() argument 1 must be dict or None, not %.200s", type_name(r[0]));
        goto out;
    }
    for (int k = C_KEY_SEP; k <= C_ITEM_SEP; k++) {
        if (!str_value(r[k])) {
            err_format(E_TypeError, "make_encoder() argument %d must be str, not %.200s", k + 1, type_name(r[k]));
            goto out;
        }
        r[k] = str_value(r[k]);
    }
    int flags = r[0] != g_None ? F_MARKERS : 0;
    static const int bits[3] = {F_SORT_KEYS, F_SKIPKEYS, F_ALLOW_NAN};
    for (int k = 0; k < 3; k++) {
        int t = vm_is_true(r[6 + k]);
        if (t < 0)
            goto out;
        if (t)
            flags |= bits[k];
    }
    int strenc = STR_CALL;
    Obj enc = r[C_ENCODER];
    if (TID(enc) == TID_BUILTIN && ((BuiltinObj *)enc)->def) {
        cfunc fn = ((BuiltinObj *)enc)->def->fn;
        strenc = fn == json_encode_basestring_ascii ? STR_ASCII : fn == json_encode_basestring ? STR_UNICODE : STR_CALL;
    }
    r[9] = tuple_from_array(r, C_COUNT);
    if (r[9])
        res = iter_alloc(T_encoder, r[9], 0);
    if (res) {
        ITER(res)->i = flags;
        ITER(res)->n = strenc;
    }
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* The module                                                          */
/* ------------------------------------------------------------------ */

/* The settings as CPython's read-only members: Scanner.strict,
 * .object_hook, ...; Encoder.markers, .default, ..., .sort_keys, .skipkeys. */
#define CONF_GETTER(name, k)                                        \
    static Obj name(Obj *args, size_t nargs, Obj kwnames)           \
    {                                                               \
        return TUPLE_ITEMS(ITER(args[0])->a)[k];                    \
    }
CONF_GETTER(scanner_object_hook, K_OBJECT_HOOK)
CONF_GETTER(scanner_pairs_hook, K_PAIRS_HOOK)
CONF_GETTER(scanner_parse_float, K_PARSE_FLOAT)
CONF_GETTER(scanner_parse_int, K_PARSE_INT)
CONF_GETTER(scanner_parse_constant, K_PARSE_CONSTANT)
CONF_GETTER(encoder_markers, C_MARKERS)
CONF_GETTER(encoder_default, C_DEFAULT)
CONF_GETTER(encoder_encoder, C_ENCODER)
CONF_GETTER(encoder_indent, C_INDENT)
CONF_GETTER(encoder_key_sep, C_KEY_SEP)
CONF_GETTER(encoder_item_sep, C_ITEM_SEP)

static Obj scanner_strict(Obj *args, size_t nargs, Obj kwnames)
{
    return vm_bool(ITER(args[0])->i != 0);
}

static Obj encoder_sort_keys(Obj *args, size_t nargs, Obj kwnames)
{
    return vm_bool(ITER(args[0])->i & F_SORT_KEYS);
}

static Obj encoder_skipkeys(Obj *args, size_t nargs, Obj kwnames)
{
    return vm_bool(ITER(args[0])->i & F_SKIPKEYS);
}

/* A member's setter: CPython's READONLY members refuse with this message. */
static Obj readonly_set(Obj *args, size_t nargs, Obj kwnames)
{
    err_set(E_AttributeError, "readonly attribute");
    return NULL;
}

static void scanner_members(TypeObj *t)
{
    type_add_getset(t, "strict", scanner_strict, readonly_set);
    type_add_getset(t, "object_hook", scanner_object_hook, readonly_set);
    type_add_getset(t, "object_pairs_hook", scanner_pairs_hook, readonly_set);
    type_add_getset(t, "parse_float", scanner_parse_float, readonly_set);
    type_add_getset(t, "parse_int", scanner_parse_int, readonly_set);
    type_add_getset(t, "parse_constant", scanner_parse_constant, readonly_set);
}

static void encoder_members(TypeObj *t)
{
    type_add_getset(t, "markers", encoder_markers, readonly_set);
    type_add_getset(t, "default", encoder_default, readonly_set);
    type_add_getset(t, "encoder", encoder_encoder, readonly_set);
    type_add_getset(t, "indent", encoder_indent, readonly_set);
    type_add_getset(t, "key_separator", encoder_key_sep, readonly_set);
    type_add_getset(t, "item_separator", encoder_item_sep, readonly_set);
    type_add_getset(t, "sort_keys", encoder_sort_keys, readonly_set);
    type_add_getset(t, "skipkeys", encoder_skipkeys, readonly_set);
}

static TypeObj *make_type(const char *name, newfunc tp_new, vectorcallfunc call, void (*members)(TypeObj *),
                          const char *doc)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_ITER, 0);
    VM_WRITE(t);
    t->tp_new = tp_new;
    t->tp_call = call;
    members(t);
    type_ready(t);
    Obj d = str_from_cstr(doc);
    if (d)
        type_set_attr_cstr(t, "__doc__", d);
    return t;
}

static const MethodDef json_funcs[] = {
    {"scanstring", json_scanstring, METH_ARGS(2, 3),
     "scanstring(string, end, strict=True) -> (string, end)\n\nScan the string s for a JSON string. End is the "
     "index of the\ncharacter in s after the quote that started the JSON string.\nUnescapes all valid JSON "
     "string escape sequences and raises ValueError\non attempt to decode an invalid string. If strict is "
     "False then literal\ncontrol characters are allowed in the string.\n\nReturns a tuple of the decoded "
     "string and the index of the character in s\nafter the end quote."},
    {"encode_basestring_ascii", json_encode_basestring_ascii, METH_O,
     "encode_basestring_ascii(string) -> string\n\nReturn an ASCII-only JSON representation of a Python string"},
    {"encode_basestring", json_encode_basestring, METH_O,
     "encode_basestring(string) -> string\n\nReturn a JSON representation of a Python string"},
    {NULL, NULL, 0, NULL},
};

Obj json_module_init(void)
{
    if (!T_scanner) {   /* module inits run inevitable: C globals may be written */
        T_scanner = make_type("_json.Scanner", scanner_new, scanner_call, scanner_members, "JSON scanner object");
        T_encoder = make_type("_json.Encoder", encoder_new, encoder_call, encoder_members,
                              "Encoder(markers, default, encoder, "
                              "indent, key_separator, item_separator, sort_keys, skipkeys, allow_nan)");
    }
    Obj *r = vm_roots(2);
    r[0] = module_new("_json");
    Obj m = r[0];
    if (m) {
        module_add_functions(r[0], json_funcs);
        if (module_add(r[0], "make_scanner", (Obj)T_scanner) < 0 ||
            module_add(r[0], "make_encoder", (Obj)T_encoder) < 0)
            m = NULL;
        r[1] = str_from_cstr("json speedups\n");
        m = m && r[1] && module_add(r[0], "__doc__", r[1]) == 0 ? r[0] : NULL;
    }
    vm_unroots(r);
    return m;
}
