/* The binascii module (CPython's base64, uu, quopri and email use it),
 * written from its documentation: hexlify/unhexlify (b2a_hex/a2b_hex),
 * base64 (strict_mode, newline), uuencode, quoted-printable, crc32 (zlib's)
 * and crc_hqx, with binascii.Error (a ValueError) and binascii.Incomplete.
 * Every function reads its input once into C memory it builds the result
 * in, then allocates the result: the input's linear pointer is never used
 * after an allocation. The a2b_* functions take bytes-like objects or ASCII
 * str, the b2a_* ones bytes-like objects only, as CPython's. */
#include "modules.h"
#include "objects/containers.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static Obj g_binascii_error, g_binascii_incomplete;   /* made by the module's init (inevitable) */

static Obj make_exception_class(const char *name, TypeObj *base)
{
    Obj *r = vm_roots(4);
    Obj cls = NULL;
    r[0] = str_from_cstr(name);
    r[1] = r[0] ? tuple_pack(1, (Obj)base) : NULL;
    r[2] = r[1] ? dict_new() : NULL;
    if (r[2] && (r[3] = str_from_cstr("binascii")) && dict_setitem_cstr(r[2], "__module__", r[3]) == 0)
        cls = vm_call3((Obj)T_type, r[0], r[1], r[2]);
    vm_unroots(r);
    return cls;
}

static Obj binascii_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static Obj binascii_error(const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    Obj s = str_from_cstr(msg);
    if (s)
        err_set_value((TypeObj *)g_binascii_error, s);
    return NULL;
}

/* An a2b_* argument: a bytes-like object or an ASCII str (linear data,
 * valid until the next allocation). */
static bool ascii_data_arg(Obj v, const char **p, int64_t *n)
{
    Obj s = str_value(v);
    if (s) {
        if (!str_is_ascii(s)) {
            err_set(E_ValueError, "string argument should contain only ASCII characters");
            return false;
        }
        *p = str_cstr(s);
        *n = STR(s)->nbytes;
        return true;
    }
    if (bytes_like(v, p, n))
        return true;
    err_format(E_TypeError, "argument should be bytes, buffer or ASCII string, not '%s'", type_name(v));
    return false;
}

/* A C output buffer of known maximum size; NULL result: MemoryError set. */
static unsigned char *out_alloc(int64_t n)
{
    if (n < 0 || (uint64_t)n > vm_max_object_size()) {
        err_nomemory();
        return NULL;
    }
    unsigned char *b = malloc((size_t)n + 1);
    if (!b)
        err_nomemory();
    return b;
}

static Obj out_finish(unsigned char *b, int64_t n)
{
    Obj res = bytes_new((const char *)b, (size_t)n);
    free(b);
    return res;
}

/* An int argument CPython converts as an unsigned int with a bitwise mask
 * (crc values): any int, taken modulo 2**32. */
static int uint_mask_arg(Obj v, uint32_t *out)
{
    Obj *r = vm_roots(1);
    int rc = -1;
    r[0] = vm_index(v);
    if (r[0]) {
        Obj m = vm_binop(r[0], MAKE_SMALLINT(0xffffffffLL), NB_AND);
        int64_t x;
        if (m && int_as_i64(m, &x) == 0) {
            *out = (uint32_t)x;
            rc = 0;
        }
    }
    vm_unroots(r);
    return rc;
}

/* ---- hex ---- */

static int hex_digit(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static Obj ba_a2b_hex(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    const char *p;
    int64_t n;
    if (vm_parse_args("a2b_hex", args, nargs, kwnames, names, 1, 1, a) < 0 || !ascii_data_arg(a[0], &p, &n))
        goto out;
    if (n % 2) {
        binascii_error("Odd-length string");
        goto out;
    }
    unsigned char *b = out_alloc(n / 2);
    if (!b)
        goto out;
    for (int64_t i = 0; i < n; i += 2) {
        int hi = hex_digit((unsigned char)p[i]), lo = hex_digit((unsigned char)p[i + 1]);
        if (hi < 0 || lo < 0) {
            free(b);
            binascii_error("Non-hexadecimal digit found");
            goto out;
        }
        b[i / 2] = (unsigned char)(hi << 4 | lo);
    }
    res = out_finish(b, n / 2);
out:
    vm_unroots(a);
    return res;
}

/* b2a_hex(data, sep=None, bytes_per_sep=1): bytes.hex's text as bytes. */
static Obj ba_b2a_hex(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"data", "sep", "bytes_per_sep", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    const char *p;
    int64_t n;
    if (vm_parse_args("b2a_hex", args, nargs, kwnames, names, 1, 3, a) < 0 || !bytes_like_arg(a[0], &p, &n))
        goto out;
    a[3] = bytes_new(p, (size_t)n);
    if (!a[3])
        goto out;
    Obj *h = vm_roots(2);
    h[0] = a[1] ? a[1] : g_None;
    h[1] = a[2] ? a[2] : MAKE_SMALLINT(1);
    Obj s = vm_call_method(a[3], "hex", h, 2);
    vm_unroots(h);
    if (s)
        res = bytes_new(str_cstr(s), (size_t)STR(s)->nbytes);
out:
    vm_unroots(a);
    return res;
}

/* ---- base64 ---- */

static const char b64_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

static Obj ba_a2b_base64(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"", "strict_mode", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    const char *p;
    int64_t n;
    int strict = 0;
    if (vm_parse_args("a2b_base64", args, nargs, kwnames, names, 1, 1, a) < 0)
        goto out;
    if (a[1] && (strict = vm_is_true(a[1])) < 0)
        goto out;
    if (!ascii_data_arg(a[0], &p, &n))
        goto out;
    unsigned char *b = out_alloc(n / 4 * 3 + 3);
    if (!b)
        goto out;
    const char *err = NULL;
    int64_t outn = 0;
    int quad = 0, pads = 0;
    bool padding = false;
    unsigned left = 0;
    if (strict && n > 0 && p[0] == '=') {
        err = "Leading padding not allowed";
        goto fail;
    }
    for (int64_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c == '=') {
            padding = true;
            /* enough pads to end the quad: the rest of the input is ignored */
            if (quad >= 2 && quad + ++pads >= 4) {
                if (strict && i + 1 < n) {
                    err = "Excess data after padding";
                    goto fail;
                }
                quad = 0;
                break;
            }
            continue;
        }
        int v = b64_value(c);
        if (v < 0) {
            if (strict) {
                err = "Only base64 data is allowed";
                goto fail;
            }
            continue;
        }
        if (strict && padding) {
            err = "Discontinuous padding not allowed";
            goto fail;
        }
        pads = 0;
        switch (quad) {
        case 0: left = (unsigned)v; quad = 1; break;
        case 1: b[outn++] = (unsigned char)(left << 2 | v >> 4); left = v & 0xf; quad = 2; break;
        case 2: b[outn++] = (unsigned char)(left << 4 | v >> 2); left = v & 0x3; quad = 3; break;
        default: b[outn++] = (unsigned char)(left << 6 | v); quad = 0; break;
        }
    }
    if (quad == 1) {
        free(b);
        binascii_error("Invalid base64-encoded string: number of data characters (%lld) cannot be 1 more "
                       "than a multiple of 4", (long long)(outn / 3 * 4 + 1));
        goto out;
    }
    if (quad != 0) {
        err = "Incorrect padding";
        goto fail;
    }
    res = out_finish(b, outn);
    goto out;
fail:
    free(b);
    binascii_error("%s", err);
out:
    vm_unroots(a);
    return res;
}

static Obj ba_b2a_base64(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"", "newline", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    const char *p;
    int64_t n;
    int newline = 1;
    if (nargs != 1) {
        err_format(E_TypeError, "b2a_base64() takes exactly 1 positional argument (%zu given)", nargs);
        goto out;
    }
    if (vm_parse_args("b2a_base64", args, nargs, kwnames, names, 1, 1, a) < 0)
        goto out;
    if (a[1] && (newline = vm_is_true(a[1])) < 0)
        goto out;
    if (!bytes_like_arg(a[0], &p, &n))
        goto out;
    unsigned char *b = out_alloc((n + 2) / 3 * 4 + 1);
    if (!b)
        goto out;
    int64_t o = 0, i = 0;
    const unsigned char *u = (const unsigned char *)p;
    for (; i + 3 <= n; i += 3) {
        uint32_t w = (uint32_t)u[i] << 16 | (uint32_t)u[i + 1] << 8 | u[i + 2];
        b[o++] = (unsigned char)b64_alphabet[w >> 18];
        b[o++] = (unsigned char)b64_alphabet[w >> 12 & 63];
        b[o++] = (unsigned char)b64_alphabet[w >> 6 & 63];
        b[o++] = (unsigned char)b64_alphabet[w & 63];
    }
    if (n - i == 1) {
        b[o++] = (unsigned char)b64_alphabet[u[i] >> 2];
        b[o++] = (unsigned char)b64_alphabet[(u[i] & 3) << 4];
        b[o++] = '=';
        b[o++] = '=';
    } else if (n - i == 2) {
        b[o++] = (unsigned char)b64_alphabet[u[i] >> 2];
        b[o++] = (unsigned char)b64_alphabet[(u[i] & 3) << 4 | u[i + 1] >> 4];
        b[o++] = (unsigned char)b64_alphabet[(u[i + 1] & 15) << 2];
        b[o++] = '=';
    }
    if (newline)
        b[o++] = '\n';
    res = out_finish(b, o);
out:
    vm_unroots(a);
    return res;
}

/* ---- uuencode ---- */

static Obj ba_a2b_uu(Obj *args, size_t nargs, Obj kwnames)
{
    const char *p;
    int64_t n;
    if (!ascii_data_arg(args[0], &p, &n))
        return NULL;
    const unsigned char *u = (const unsigned char *)p;
    /* the first character is the line's byte count (a missing one reads as
     * the terminating NUL, as CPython's reads it) */
    int64_t count = (((n > 0 ? u[0] : 0) - ' ') & 077);
    unsigned char *b = out_alloc(count);
    if (!b)
        return NULL;
    memset(b, 0, (size_t)count);
    int64_t i = 1, o = 0;
    uint32_t left = 0;
    int bits = 0;
    while (o < count) {
        unsigned c = i < n ? u[i] : 0;
        if (i >= n || c == '\n' || c == '\r') {
            c = 0;   /* spaces eaten at the end of the line */
        } else {
            if (c < ' ' || c > ' ' + 64) {
                free(b);
                return binascii_error("Illegal char");
            }
            c = (c - ' ') & 077;
        }
        i++;
        left = left << 6 | c;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            b[o++] = (unsigned char)(left >> bits);
            left &= (1u << bits) - 1;
        }
    }
    for (; i < n; i++) {
        unsigned c = u[i];
        if (c != ' ' && c != ' ' + 64 && c != '\n' && c != '\r') {
            free(b);
            return binascii_error("Trailing garbage");
        }
    }
    return out_finish(b, count);
}

static Obj ba_b2a_uu(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"", "backtick", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    const char *p;
    int64_t n;
    int backtick = 0;
    if (nargs != 1) {
        err_format(E_TypeError, "b2a_uu() takes exactly 1 positional argument (%zu given)", nargs);
        goto out;
    }
    if (vm_parse_args("b2a_uu", args, nargs, kwnames, names, 1, 1, a) < 0)
        goto out;
    if (a[1] && (backtick = vm_is_true(a[1])) < 0)
        goto out;
    if (!bytes_like_arg(a[0], &p, &n))
        goto out;
    if (n > 45) {
        binascii_error("At most 45 bytes at once");
        goto out;
    }
    unsigned char buf[2 + 60 + 1];
    const unsigned char *u = (const unsigned char *)p;
    int o = 0;
#define UU_CHAR(v) ((unsigned char)(backtick && (v) == 0 ? '`' : ' ' + (v)))
    buf[o++] = UU_CHAR(n);
    for (int64_t i = 0; i < n; i += 3) {
        uint32_t w = (uint32_t)u[i] << 16 | (uint32_t)(i + 1 < n ? u[i + 1] : 0) << 8 | (i + 2 < n ? u[i + 2] : 0);
        for (int k = 18; k >= 0; k -= 6)
            buf[o++] = UU_CHAR(w >> k & 63);
    }
#undef UU_CHAR
    buf[o++] = '\n';
    res = bytes_new((const char *)buf, (size_t)o);
out:
    vm_unroots(a);
    return res;
}

/* ---- quoted-printable ---- */

static Obj ba_a2b_qp(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"data", "header", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    const char *p;
    int64_t n;
    int header = 0;
    if (vm_parse_args("a2b_qp", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    if (a[1] && (header = vm_is_true(a[1])) < 0)
        goto out;
    if (!ascii_data_arg(a[0], &p, &n))
        goto out;
    unsigned char *b = out_alloc(n);
    if (!b)
        goto out;
    const unsigned char *u = (const unsigned char *)p;
    int64_t i = 0, o = 0;
    while (i < n) {
        if (u[i] == '=') {
            i++;
            if (i >= n)
                break;
            if (u[i] == '\n' || u[i] == '\r') {   /* a soft line break */
                while (i < n && u[i] != '\n')
                    i++;
                if (i < n)
                    i++;
            } else if (u[i] == '=') {   /* "==": what broken encoders wrote for '=' */
                b[o++] = '=';
                i++;
            } else if (i + 1 < n && hex_digit(u[i]) >= 0 && hex_digit(u[i + 1]) >= 0) {
                b[o++] = (unsigned char)(hex_digit(u[i]) << 4 | hex_digit(u[i + 1]));
                i += 2;
            } else {
                b[o++] = '=';
            }
        } else if (header && u[i] == '_') {
            b[o++] = ' ';
            i++;
        } else {
            b[o++] = u[i++];
        }
    }
    res = out_finish(b, o);
out:
    vm_unroots(a);
    return res;
}

#define QP_MAXLINE 76

static Obj ba_b2a_qp(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"data", "quotetabs", "istext", "header", NULL};
    static const char hexu[] = "0123456789ABCDEF";
    Obj *a = vm_roots(4);
    Obj res = NULL;
    const char *p;
    int64_t n;
    int flags[3] = {0, 1, 0};   /* quotetabs, istext, header */
    if (vm_parse_args("b2a_qp", args, nargs, kwnames, names, 1, 4, a) < 0)
        goto out;
    for (int k = 0; k < 3; k++)
        if (a[k + 1] && (flags[k] = vm_is_true(a[k + 1])) < 0)
            goto out;
    int quotetabs = flags[0], istext = flags[1], header = flags[2];
    if (!bytes_like_arg(a[0], &p, &n))
        goto out;
    const unsigned char *u = (const unsigned char *)p;
    /* CRLF line ends when the first \n follows a \r */
    const unsigned char *nl = memchr(u, '\n', (size_t)n);
    bool crlf = nl && nl > u && nl[-1] == '\r';
    /* worst case: every byte "=XX" plus a soft break "=\r\n" every 24 bytes */
    unsigned char *b = out_alloc(n * 3 + (n / 24 + 2) * 3 + 3);
    if (!b)
        goto out;
    int64_t i = 0, o = 0, linelen = 0;
#define SOFT_BREAK() do { b[o++] = '='; if (crlf) b[o++] = '\r'; b[o++] = '\n'; linelen = 0; } while (0)
    while (i < n) {
        unsigned c = u[i];
        bool last = i + 1 == n;
        unsigned next = last ? 0 : u[i + 1];
        bool encode = c > 126 || c == '=' || (header && c == '_') ||
                      (c == '.' && linelen == 0 && (last || next == '\n' || next == '\r' || next == 0)) ||
                      (!istext && (c == '\r' || c == '\n')) ||
                      ((c == '\t' || c == ' ') && last) ||
                      (c < 33 && c != '\r' && c != '\n' && (quotetabs || (c != '\t' && c != ' ')));
        if (encode) {
            if (linelen + 3 >= QP_MAXLINE)
                SOFT_BREAK();
            b[o++] = '=';
            b[o++] = (unsigned char)hexu[c >> 4];
            b[o++] = (unsigned char)hexu[c & 15];
            i++;
            linelen += 3;
        } else if (istext && (c == '\n' || (!last && c == '\r' && next == '\n'))) {
            linelen = 0;
            /* whitespace at the end of a line is encoded */
            if (o && (b[o - 1] == ' ' || b[o - 1] == '\t')) {
                unsigned ws = b[o - 1];
                b[o - 1] = '=';
                b[o++] = (unsigned char)hexu[ws >> 4];
                b[o++] = (unsigned char)hexu[ws & 15];
            }
            if (crlf)
                b[o++] = '\r';
            b[o++] = '\n';
            i += c == '\r' ? 2 : 1;
        } else {
            if (!last && next != '\n' && linelen + 1 >= QP_MAXLINE)
                SOFT_BREAK();
            linelen++;
            b[o++] = (unsigned char)(header && c == ' ' ? '_' : c);
            i++;
        }
    }
#undef SOFT_BREAK
    res = out_finish(b, o);
out:
    vm_unroots(a);
    return res;
}

/* ---- checksums ---- */

/* zlib's crc32 over at most this many bytes between safe points. */
#define CRC_CHUNK (256 * 1024)

static uint32_t binascii_crc32(uint32_t crc, const unsigned char *p, int64_t n)
{
    while (n > 0) {
        uInt k = n > CRC_CHUNK ? CRC_CHUNK : (uInt)n;
        crc = (uint32_t)crc32(crc, p, k);
        p += k;
        n -= k;
        if (n > 0)
            tm_safepoint();   /* a committer may be waiting (the input is immutable or copied) */
    }
    return crc;
}

static Obj ba_crc32(Obj *args, size_t nargs, Obj kwnames)
{
    uint32_t crc = 0;
    if (nargs > 1 && uint_mask_arg(args[1], &crc) < 0)
        return NULL;
    const char *p;
    int64_t n;
    if (!bytes_like_arg(args[0], &p, &n))
        return NULL;
    return int_from_u64(binascii_crc32(crc, (const unsigned char *)p, n));
}

static Obj ba_crc_hqx(Obj *args, size_t nargs, Obj kwnames)
{
    uint32_t crc;
    if (uint_mask_arg(args[1], &crc) < 0)
        return NULL;
    const char *p;
    int64_t n;
    if (!bytes_like_arg(args[0], &p, &n))
        return NULL;
    /* CRC-CCITT, polynomial 0x1021, most significant bit first */
    uint32_t c = crc & 0xffff;
    for (int64_t i = 0; i < n; i++) {
        c ^= (uint32_t)(unsigned char)p[i] << 8;
        for (int k = 0; k < 8; k++)
            c = (c & 0x8000) ? (c << 1) ^ 0x1021 : c << 1;
        c &= 0xffff;
    }
    return int_from_i64(c);
}

static const MethodDef binascii_functions[] = {
    {"a2b_hex", ba_a2b_hex, METH_KW, "a2b_hex(hexstr, /)\n--\n\nBinary data of hexadecimal representation."},
    {"unhexlify", ba_a2b_hex, METH_KW, "unhexlify(hexstr, /)\n--\n\nBinary data of hexadecimal representation."},
    {"b2a_hex", ba_b2a_hex, METH_KW, "b2a_hex(data, sep=<unrepresentable>, bytes_per_sep=1)\n--\n\n"
                                      "Hexadecimal representation of binary data."},
    {"hexlify", ba_b2a_hex, METH_KW, "hexlify(data, sep=<unrepresentable>, bytes_per_sep=1)\n--\n\n"
                                      "Hexadecimal representation of binary data."},
    {"a2b_base64", ba_a2b_base64, METH_KW, "a2b_base64(data, /, *, strict_mode=False)\n--\n\n"
                                            "Decode a line of base64 data."},
    {"b2a_base64", ba_b2a_base64, METH_KW, "b2a_base64(data, /, *, newline=True)\n--\n\n"
                                            "Base64-code line of data."},
    {"a2b_uu", ba_a2b_uu, METH_O, "a2b_uu(data, /)\n--\n\nDecode a line of uuencoded data."},
    {"b2a_uu", ba_b2a_uu, METH_KW, "b2a_uu(data, /, *, backtick=False)\n--\n\nUuencode line of data."},
    {"a2b_qp", ba_a2b_qp, METH_KW, "a2b_qp(data, header=False)\n--\n\nDecode a string of qp-encoded data."},
    {"b2a_qp", ba_b2a_qp, METH_KW, "b2a_qp(data, quotetabs=False, istext=True, header=False)\n--\n\n"
                                    "Encode a string using quoted-printable encoding."},
    {"crc32", ba_crc32, METH_ARGS(1, 2), "crc32(data, crc=0, /)\n--\n\nCompute CRC-32 incrementally."},
    {"crc_hqx", ba_crc_hqx, METH_ARGS(2, 2), "crc_hqx(data, crc, /)\n--\n\nCompute CRC-CCITT incrementally."},
    {NULL, NULL, 0, NULL},
};

Obj binascii_module_init(void)
{
    static bool rooted;
    if (!rooted) {   /* module inits run inevitable: global roots may be written */
        VM_GLOBAL_ROOT(g_binascii_error);
        VM_GLOBAL_ROOT(g_binascii_incomplete);
        rooted = true;
    }
    if (!g_binascii_error && !(g_binascii_error = make_exception_class("Error", E_ValueError)))
        return NULL;
    if (!g_binascii_incomplete && !(g_binascii_incomplete = make_exception_class("Incomplete", E_Exception)))
        return NULL;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = module_new("binascii");
    if (!r[0])
        goto out;
    module_add_functions(r[0], binascii_functions);
    if (module_add(r[0], "Error", g_binascii_error) < 0 || module_add(r[0], "Incomplete", g_binascii_incomplete) < 0)
        goto out;
    r[1] = str_from_cstr("Conversion between binary data and ASCII");
    if (!r[1] || module_add(r[0], "__doc__", r[1]) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
