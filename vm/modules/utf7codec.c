/* UTF-7 (RFC 2152) for _codecs, as CPython 3.11 writes and reads it.
 *
 * Encoding: the characters of RFC 2152's sets D and O and the white space
 * stand for themselves ('+' as "+-"); every other character, NUL, '\\'
 * and '~' included, goes into a base64 shift sequence "+...", 16 bits a
 * UTF-16 code unit (a character past U+FFFF as its surrogate pair, a lone
 * surrogate as itself), ended by '-' only where the next character is a
 * base64 letter or '-' (any other direct character ends it by itself).
 * Encoding never fails.
 *
 * Decoding: the reverse, with CPython's errors: "unexpected special
 * character" (a byte past 127), "ill-formed sequence" ('+' followed by a
 * character that is neither base64 nor '-'), "partial character in shift
 * sequence" (a shift ended with 6 or more bits left over), "non-zero
 * padding bits in shift sequence", and at the end of final input
 * "unterminated shift sequence"; a shift error spans from its '+' to the
 * character that ended it. A surrogate pair in a shift sequence makes one
 * character. Not final (an incremental decoder), an unended shift sequence
 * is not consumed: the result stops before its '+' and the consumed count
 * says so, so that the next call starts there again. */
#include "codecs.h"
#include "objects/objects.h"

#include <stdlib.h>
#include <string.h>

static const char b64_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static bool is_b64(unsigned c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
}

static unsigned from_b64(unsigned c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26 : c >= '0' && c <= '9' ? c - '0' + 52
           : c == '+' ? 62 : 63;
}

/* Written as itself by the encoder: RFC 2152's set D, set O and white space
 * (space, tab, CR, LF); not NUL, '+', '\\', '~' nor the other controls. */
static bool encode_direct(uint32_t c)
{
    if (c == 0 || c >= 128)
        return false;
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
        return true;
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || strchr("'(),-./:?!\"#$%&*;<=>@[]^_`{|}", (int)c);
}

Obj codecs_utf_7_encode(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"str", "errors", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    char errbuf[256];
    const char *errors;
    if (vm_parse_args("utf_7_encode", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    if (!IS_STR(vm_unwrap(a[0]))) {
        err_format(E_TypeError, "utf_7_encode() argument 1 must be str, not %s", type_name(a[0]));
        goto out;
    }
    if (codecs_errors_arg("utf_7_encode", 2, a[1], errbuf, sizeof errbuf, &errors) < 0)
        goto out;
    a[0] = vm_unwrap(a[0]);
    StrBuf b;
    sb_init(&b);
    const unsigned char *p = (const unsigned char *)str_cstr(a[0]);
    int64_t n = STR(a[0])->nbytes, count = 0;
    bool in_shift = false;
    unsigned bits = 0;
    uint32_t buf = 0;
    for (int64_t i = 0; i < n; count++) {
        int len;
        uint32_t c = utf8_decode(p + i, &len);
        i += len;
        if (in_shift && encode_direct(c)) {
            if (bits)
                sb_addc(&b, b64_chars[(buf << (6 - bits)) & 0x3F]);
            bits = 0;
            buf = 0;
            in_shift = false;
            if (is_b64(c) || c == '-')
                sb_addc(&b, '-');
            sb_addc(&b, (char)c);
            continue;
        }
        if (!in_shift) {
            if (c == '+') {
                sb_add(&b, "+-", 2);
                continue;
            }
            if (encode_direct(c)) {
                sb_addc(&b, (char)c);
                continue;
            }
            sb_addc(&b, '+');
            in_shift = true;
        }
        uint32_t units[2] = {c, 0};
        int nunits = 1;
        if (c >= 0x10000) {
            units[0] = 0xD800 | ((c - 0x10000) >> 10);
            units[1] = 0xDC00 | ((c - 0x10000) & 0x3FF);
            nunits = 2;
        }
        for (int k = 0; k < nunits; k++) {
            buf = (buf << 16) | units[k];
            bits += 16;
            while (bits >= 6) {
                sb_addc(&b, b64_chars[(buf >> (bits - 6)) & 0x3F]);
                bits -= 6;
            }
            buf &= (1u << bits) - 1;
        }
    }
    if (bits)
        sb_addc(&b, b64_chars[(buf << (6 - bits)) & 0x3F]);
    if (in_shift)
        sb_addc(&b, '-');
    if (sb_failed(&b)) {
        sb_free(&b);
        err_nomemory();
        goto out;
    }
    a[2] = bytes_new(b.p, b.len);
    sb_free(&b);
    if (a[2])
        res = tuple_pack(2, a[2], int_from_i64(count));
out:
    vm_unroots(a);
    return res;
}

Obj codecs_utf_7_decode(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"data", "errors", "final", NULL};
    Obj *a = vm_roots(5);
    Obj res = NULL;
    char errbuf[256];
    const char *errors;
    StrBuf b;
    sb_init(&b);
    if (vm_parse_args("utf_7_decode", args, nargs, kwnames, names, 1, 3, a) < 0)
        goto out;
    const char *p0;
    int64_t n;
    if (!bytes_like_arg(a[0], &p0, &n))
        goto out;
    if (codecs_errors_arg("utf_7_decode", 2, a[1], errbuf, sizeof errbuf, &errors) < 0)
        goto out;
    int final = 0;
    if (a[2] && (final = vm_is_true(a[2])) < 0)
        goto out;
    const unsigned char *p = (const unsigned char *)p0;
    bool in_shift = false;
    unsigned bits = 0;
    uint32_t buf = 0, surrogate = 0;
    int64_t start = 0;          /* the '+' of the shift sequence being read */
    size_t shift_out = 0;       /* the output's length at that '+' */
    int64_t i = 0;
    for (;;) {
        const char *reason = NULL;
        int64_t end = 0;
        while (i < n) {
            unsigned c = p[i];
            if (in_shift) {
                if (is_b64(c)) {
                    buf = (buf << 6) | from_b64(c);
                    bits += 6;
                    i++;
                    if (bits >= 16) {
                        uint32_t u = (buf >> (bits - 16)) & 0xFFFF;
                        bits -= 16;
                        buf &= (1u << bits) - 1;
                        if (surrogate) {
                            if (u >= 0xDC00 && u <= 0xDFFF) {
                                sb_add_codepoint(&b, 0x10000 + ((surrogate - 0xD800) << 10) + (u - 0xDC00));
                                surrogate = 0;
                                continue;
                            }
                            sb_add_codepoint(&b, surrogate);
                            surrogate = 0;
                        }
                        if (u >= 0xD800 && u <= 0xDBFF)
                            surrogate = u;
                        else
                            sb_add_codepoint(&b, u);
                    }
                    continue;
                }
                /* the end of the shift sequence */
                in_shift = false;
                if (bits >= 6) {
                    i++;
                    reason = "partial character in shift sequence";
                    break;
                }
                if (bits > 0 && buf != 0) {
                    i++;
                    reason = "non-zero padding bits in shift sequence";
                    break;
                }
                if (surrogate && c <= 127 && c != '+')
                    sb_add_codepoint(&b, surrogate);
                surrogate = 0;
                if (c == '-')
                    i++;   /* '-' ends the sequence and is dropped; any other character stays */
                continue;
            }
            if (c == '+') {
                start = i++;
                if (i < n && p[i] == '-') {
                    i++;
                    sb_addc(&b, '+');
                } else if (i < n && !is_b64(p[i])) {
                    i++;
                    reason = "ill-formed sequence";
                    break;
                } else {
                    in_shift = true;
                    surrogate = 0;
                    shift_out = b.len;
                    bits = 0;
                    buf = 0;
                }
                continue;
            }
            if (c <= 127) {
                sb_addc(&b, (char)c);
                i++;
                continue;
            }
            start = i++;
            reason = "unexpected special character";
            break;
        }
        if (!reason && in_shift && final) {
            /* the input ends inside a shift sequence */
            in_shift = false;
            if (surrogate || bits >= 6 || (bits > 0 && buf != 0)) {
                reason = "unterminated shift sequence";
                i = n;
            }
        }
        if (!reason)
            break;
        end = i;
        int64_t pos = codecs_decode_error(errors, "utf7", reason, &a[0], start, end, &b, CODEC_ERR_REREAD, &a[4]);
        if (pos < 0)
            goto out;
        bytes_like(a[0], &p0, &n);   /* the handler ran Python code */
        p = (const unsigned char *)p0;
        i = pos;
    }
    int64_t consumed = i;
    if (in_shift && !final) {
        consumed = start;
        b.len = shift_out;   /* the unended shift sequence is decoded again by the next call */
    }
    if (sb_failed(&b)) {
        err_nomemory();
        goto out;
    }
    a[3] = sb_finish(&b);
    sb_init(&b);
    if (a[3])
        res = tuple_pack(2, a[3], int_from_i64(consumed));
out:
    sb_free(&b);
    vm_unroots(a);
    return res;
}
