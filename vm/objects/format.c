/* Formatting: the format-spec mini-language (format_int / format_float /
 * format_str), str.format / str.format_map, and printf-style `%` for str
 * and bytes. Digits come from snprintf (floats) and int_to_string (big
 * ints); grouping, signs, prefixes and padding are done here. */
#define _GNU_SOURCE
#include "objects.h"
#include "strobj.h"
#include "numbers.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Spec parsing                                                        */
/* ------------------------------------------------------------------ */

typedef struct Spec {
    uint32_t fill;
    char align;        /* 0 (default), '<', '>', '^', '=' */
    char sign;         /* 0, '+', '-', ' ' */
    bool z, alt;
    char group;        /* 0, ',', '_' */
    int64_t width;     /* -1: none */
    int64_t prec;      /* -1: none */
    uint32_t type;     /* 0: none */
} Spec;

static bool is_align(unsigned char c) { return c == '<' || c == '>' || c == '=' || c == '^'; }

/* A type char in messages: 'x' or '\xe9' (CPython's style). */
static void type_char_text(uint32_t c, char *buf, size_t n)
{
    if (c > 32 && c < 128)
        snprintf(buf, n, "%c", (char)c);
    else
        snprintf(buf, n, "\\x%x", c);
}

static int parse_digits(const char *s, size_t n, size_t *pos, int64_t *out)
{
    int64_t v = 0;
    size_t start = *pos;
    while (*pos < n && s[*pos] >= '0' && s[*pos] <= '9') {
        if (v > (INT64_MAX - 9) / 10) {
            err_set(E_ValueError, "Too many decimal digits in format string");
            return -1;
        }
        v = v * 10 + (s[*pos] - '0');
        (*pos)++;
    }
    *out = *pos > start ? v : -1;
    return 0;
}

/* Parse spec s[0..n) (UTF-8). default_align: '<' for str, '>' for numbers;
 * default_type names the type in grouping errors ('s' for str, 0 otherwise). */
static int parse_spec(const char *s, size_t n, Spec *sp, char default_align, char default_type, const char *tname)
{
    sp->fill = ' ';
    sp->align = 0;
    sp->sign = 0;
    sp->z = sp->alt = false;
    sp->group = 0;
    sp->width = sp->prec = -1;
    sp->type = 0;
    size_t pos = 0;
    bool fill_given = false;
    if (n > 0) {
        int len;
        uint32_t c0 = utf8_decode((const unsigned char *)s, &len);
        if ((size_t)len < n && is_align((unsigned char)s[len])) {
            sp->fill = c0;
            sp->align = s[len];
            fill_given = true;
            pos = (size_t)len + 1;
        } else if (is_align((unsigned char)s[0])) {
            sp->align = s[0];
            pos = 1;
        }
    }
    if (pos < n && (s[pos] == '+' || s[pos] == '-' || s[pos] == ' '))
        sp->sign = s[pos++];
    if (pos < n && s[pos] == 'z') {
        sp->z = true;
        pos++;
    }
    if (pos < n && s[pos] == '#') {
        sp->alt = true;
        pos++;
    }
    if (!fill_given && pos < n && s[pos] == '0') {
        sp->fill = '0';
        if (!sp->align && default_align == '>')
            sp->align = '=';
        pos++;
    }
    if (parse_digits(s, n, &pos, &sp->width) < 0)
        return -1;
    if (pos < n && s[pos] == ',') {
        sp->group = ',';
        pos++;
    }
    if (pos < n && s[pos] == '_') {
        if (sp->group) {
            err_set(E_ValueError, "Cannot specify both ',' and '_'.");
            return -1;
        }
        sp->group = '_';
        pos++;
    }
    if (pos < n && s[pos] == ',') {
        err_set(E_ValueError, "Cannot specify both ',' and '_'.");
        return -1;
    }
    if (pos < n && s[pos] == '.') {
        pos++;
        if (parse_digits(s, n, &pos, &sp->prec) < 0)
            return -1;
        if (sp->prec < 0) {
            err_set(E_ValueError, "Format specifier missing precision");
            return -1;
        }
    }
    if (pos < n) {
        int len;
        uint32_t t = utf8_decode((const unsigned char *)s + pos, &len);
        if (pos + (size_t)len < n) {
            err_format(E_ValueError, "Invalid format specifier '%.*s' for object of type '%s'", (int)n, s, tname);
            return -1;
        }
        sp->type = t;
    }
    if (sp->group) {
        uint32_t t = sp->type ? sp->type : (uint32_t)default_type;
        bool ok = t == 0 || t == 'd' || t == 'e' || t == 'E' || t == 'f' || t == 'F' || t == 'g' || t == 'G' ||
                  t == '%' || (sp->group == '_' && (t == 'b' || t == 'o' || t == 'x' || t == 'X'));
        if (!ok) {
            char tc[16];
            type_char_text(t, tc, sizeof tc);
            err_format(E_ValueError, "Cannot specify '%c' with '%s'.", sp->group, tc);
            return -1;
        }
    }
    return 0;
}

static void unknown_code(uint32_t type, const char *tname)
{
    char tc[16];
    type_char_text(type, tc, sizeof tc);
    err_format(E_ValueError, "Unknown format code '%s' for object of type '%s'", tc, tname);
}

/* ------------------------------------------------------------------ */
/* Assembling numbers                                                  */
/* ------------------------------------------------------------------ */

/* n copies of the fill char (a width too big for memory poisons b at once). */
static void add_fill(StrBuf *b, uint32_t fill, int64_t n)
{
    char u[4];
    sb_add_repeat(b, u, (size_t)utf8_encode(fill, u), n);
}

/* digits grouped with sep every gsize (sep 0: none), left-padded with '0'
 * to at least min_len chars (a pad never starts with a separator). */
static void add_grouped(StrBuf *b, const char *digits, size_t nd, char sep, int gsize, int64_t min_len)
{
    if (!sep && (int64_t)nd >= min_len) {
        sb_add(b, digits, nd);
        return;
    }
    if (min_len > 0 && (uint64_t)min_len > vm_max_object_size()) {
        sb_nomemory(b);
        return;
    }
    size_t cap = nd + nd / (gsize ? gsize : 1) + (min_len > 0 ? (size_t)min_len : 0) + 4;
    char *tmp = malloc(cap);
    if (!tmp) {
        sb_nomemory(b);
        return;
    }
    size_t len = 0, i = nd;
    int cnt = 0;
    for (;;) {
        char d;
        if (i > 0)
            d = digits[--i];
        else if ((int64_t)len < min_len)
            d = '0';
        else
            break;
        if (sep && cnt == gsize) {
            tmp[len++] = sep;
            cnt = 0;
        }
        tmp[len++] = d;
        cnt++;
    }
    for (size_t k = 0; k < len / 2; k++) {
        char c = tmp[k];
        tmp[k] = tmp[len - 1 - k];
        tmp[len - 1 - k] = c;
    }
    sb_add(b, tmp, len);
    free(tmp);
}

/* sign + prefix + digits (grouped) + rest, padded per the spec. */
static void emit_number(StrBuf *b, const Spec *sp, bool negative, const char *prefix, const char *digits,
                        size_t nd, const char *rest, size_t nrest, char sep, int gsize)
{
    char signc = negative ? '-' : sp->sign == '+' ? '+' : sp->sign == ' ' ? ' ' : 0;
    int64_t fixed = (signc ? 1 : 0) + (int64_t)strlen(prefix) + (int64_t)nrest;
    char align = sp->align ? sp->align : '>';
    int64_t width = sp->width < 0 ? 0 : sp->width;
    if (align == '=' && sp->fill == '0') {
        /* zero padding belongs to the number: grouped too */
        if (signc)
            sb_addc(b, signc);
        sb_adds(b, prefix);
        add_grouped(b, digits, nd, sep, gsize, width - fixed);
        sb_add(b, rest, nrest);
        return;
    }
    /* length of the grouped digits */
    int64_t glen = (int64_t)nd;
    if (sep && nd > 0)
        glen += ((int64_t)nd - 1) / gsize;
    int64_t pad = width - fixed - glen;
    if (pad < 0)
        pad = 0;
    int64_t left = 0, right = 0, mid = 0;
    if (align == '<')
        right = pad;
    else if (align == '^')
        left = pad / 2, right = pad - pad / 2;
    else if (align == '=')
        mid = pad;
    else
        left = pad;
    add_fill(b, sp->fill, left);
    if (signc)
        sb_addc(b, signc);
    sb_adds(b, prefix);
    add_fill(b, sp->fill, mid);
    add_grouped(b, digits, nd, sep, gsize, 0);
    sb_add(b, rest, nrest);
    add_fill(b, sp->fill, right);
}

/* ------------------------------------------------------------------ */
/* Floats                                                              */
/* ------------------------------------------------------------------ */

/* snprintf into a malloc'd buffer. */
static char *fmt_double(const char *fmt, int prec, double d)
{
    int n = snprintf(NULL, 0, fmt, prec, d);
    if (n < 0)
        return NULL;
    char *p = malloc((size_t)n + 1);
    if (p)
        snprintf(p, (size_t)n + 1, fmt, prec, d);
    return p;
}

static bool mantissa_is_zero(const char *s)
{
    for (; *s && *s != 'e' && *s != 'E'; s++)
        if (*s >= '1' && *s <= '9')
            return false;
    return true;
}

/* The text of |d| for a float spec (sp->type already validated), without
 * the sign. Returns a malloc'd string. */
static char *float_body(double a, const Spec *sp)
{
    uint32_t t = sp->type;
    bool upper = t == 'F' || t == 'E' || t == 'G';
    char *body;
    if (!isfinite(a)) {
        const char *s = isnan(a) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
        body = malloc(8);
        if (body)
            snprintf(body, 8, "%s%s", s, t == '%' ? "%" : "");
        return body;
    }
    int prec = sp->prec < 0 ? 6 : (int)sp->prec;   /* <= INT_MAX: format_float_spec checked */
    switch (t) {
    case 0: {
        if (sp->prec < 0) {
            /* repr; '#' only makes sure there is a decimal point */
            body = malloc(48);
            if (body) {
                float_repr_buf(a, body);
                if (sp->alt && !strchr(body, '.')) {
                    char *e = strchr(body, 'e');
                    size_t at = e ? (size_t)(e - body) : strlen(body);
                    memmove(body + at + 1, body + at, strlen(body + at) + 1);
                    body[at] = '.';
                }
            }
            return body;
        }
        /* like 'g' with P significant digits, but fixed notation keeps
         * room for the ".0" it always shows: exponent when X >= P - 1 */
        int P = prec > 0 ? prec : 1;
        char tmp[48];
        snprintf(tmp, sizeof tmp, "%.*e", P - 1 > 30 ? 30 : P - 1, a);
        int x = atoi(strchr(tmp, 'e') + 1);
        bool expo = x < -4 || x >= P - 1;
        if (!expo && (int64_t)P - 1 - x > INT_MAX)
            return NULL;   /* more digits than printf makes: MemoryError */
        body = expo ? fmt_double(sp->alt ? "%#.*e" : "%.*e", P - 1, a)
                    : fmt_double(sp->alt ? "%#.*f" : "%.*f", P - 1 - x, a);
        if (!body)
            return NULL;
        if (!sp->alt) {
            /* drop trailing zeros of the mantissa (and a bare point) */
            char *e = strchr(body, 'e');
            size_t m = e ? (size_t)(e - body) : strlen(body);
            if (memchr(body, '.', m)) {
                size_t k = m;
                while (k > 0 && body[k - 1] == '0')
                    k--;
                if (k > 0 && body[k - 1] == '.')
                    k--;
                memmove(body + k, body + m, strlen(body + m) + 1);
            }
        }
        if (!expo && !strchr(body, '.')) {
            size_t l = strlen(body);
            char *nb = realloc(body, l + 3);
            if (nb) {
                memcpy(nb + l, ".0", 3);
                body = nb;
            }
        }
        return body;
    }
    case 'f':
    case 'F':
        return fmt_double(sp->alt ? "%#.*f" : "%.*f", prec, a);
    case 'e':
    case 'E':
        body = fmt_double(sp->alt ? "%#.*e" : "%.*e", prec, a);
        break;
    case 'g':
    case 'G':
    case 'n':
        body = fmt_double(sp->alt ? "%#.*g" : "%.*g", prec, a);
        break;
    case '%': {
        body = fmt_double(sp->alt ? "%#.*f" : "%.*f", prec, a * 100.0);
        if (body) {
            size_t l = strlen(body);
            char *nb = realloc(body, l + 2);
            if (nb) {
                memcpy(nb + l, "%", 2);
                body = nb;
            }
        }
        return body;
    }
    default:
        return NULL;
    }
    if (body && upper)
        for (char *q = body; *q; q++)
            if (*q >= 'a' && *q <= 'z')
                *q = (char)(*q - 32);
    return body;
}

static int format_float_spec(StrBuf *b, double d, const Spec *sp)
{
    uint32_t t = sp->type;
    if (!(t == 0 || t == 'e' || t == 'E' || t == 'f' || t == 'F' || t == 'g' || t == 'G' || t == 'n' || t == '%')) {
        unknown_code(t, "float");
        return -1;
    }
    if (t == 'n' && sp->group) {
        err_format(E_ValueError, "Cannot specify '%c' with 'n'.", sp->group);
        return -1;
    }
    if (sp->prec > INT_MAX) {
        err_set(E_ValueError, "precision too big");
        return -1;
    }
    bool negative = signbit(d) && !isnan(d);
    char *body = float_body(fabs(d), sp);
    if (!body) {
        err_nomemory();
        return -1;
    }
    if (negative && sp->z && isfinite(d) && mantissa_is_zero(body))
        negative = false;
    size_t nd = 0;
    while (body[nd] >= '0' && body[nd] <= '9')
        nd++;
    char sep = isfinite(d) ? sp->group : 0;
    emit_number(b, sp, negative, "", body, nd, body + nd, strlen(body + nd), sep, 3);
    free(body);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Complex                                                             */
/* ------------------------------------------------------------------ */

/* One part of a complex into b: the sign (per `signmode`: '+' always
 * shown, ' ' a space for non-negatives, 0 only '-'), then the digits of |d|
 * (type 0: the repr without ".0"; '#' adds a point), grouped. */
static int complex_part(StrBuf *b, double d, const Spec *sp, char signmode)
{
    bool negative = signbit(d) && !isnan(d);
    char *body;
    if (sp->type == 0) {
        body = malloc(48);
        if (body) {
            complex_part_repr(fabs(d), body);
            if (sp->alt && isfinite(d) && !strchr(body, '.')) {
                char *e = strchr(body, 'e');
                size_t at = e ? (size_t)(e - body) : strlen(body);
                memmove(body + at + 1, body + at, strlen(body + at) + 1);
                body[at] = '.';
            }
        }
    } else {
        body = float_body(fabs(d), sp);
    }
    if (!body) {
        err_nomemory();
        return -1;
    }
    if (negative && sp->z && isfinite(d) && mantissa_is_zero(body))
        negative = false;
    char signc = negative ? '-' : signmode;
    if (signc)
        sb_addc(b, signc);
    size_t nd = 0;
    while (body[nd] >= '0' && body[nd] <= '9')
        nd++;
    add_grouped(b, body, nd, isfinite(d) ? sp->group : 0, 3, 0);
    sb_adds(b, body + nd);
    free(body);
    return 0;
}

static int format_complex_spec(StrBuf *out, double re, double im, const Spec *spec)
{
    Spec sp = *spec;
    uint32_t t = sp.type;
    if (sp.fill == '0') {
        err_set(E_ValueError, "Zero padding is not allowed in complex format specifier");
        return -1;
    }
    if (sp.align == '=') {
        err_set(E_ValueError, "'=' alignment flag is not allowed in complex format specifier");
        return -1;
    }
    if (!(t == 0 || t == 'e' || t == 'E' || t == 'f' || t == 'F' || t == 'g' || t == 'G' || t == 'n')) {
        unknown_code(t, "complex");
        return -1;
    }
    /* No type: like str() (the repr of each part, parentheses unless the
     * real part is +0 and left out); with a precision, 'g' digits. */
    bool parens = false, skip_re = false;
    if (t == 0) {
        if (re == 0.0 && !signbit(re))
            skip_re = true;
        else
            parens = true;
        if (sp.prec >= 0)
            sp.type = 'g';
    } else if (t == 'n') {
        sp.type = 'g';
    }
    char resign = sp.sign == '+' ? '+' : sp.sign == ' ' ? ' ' : 0;
    StrBuf b;
    sb_init(&b);
    if (parens)
        sb_addc(&b, '(');
    if (!skip_re && complex_part(&b, re, &sp, resign) < 0) {
        sb_free(&b);
        return -1;
    }
    if (complex_part(&b, im, &sp, skip_re ? resign : '+') < 0) {
        sb_free(&b);
        return -1;
    }
    sb_addc(&b, 'j');
    if (parens)
        sb_addc(&b, ')');
    int64_t pad = sp.width > (int64_t)b.len ? sp.width - (int64_t)b.len : 0;   /* all ASCII */
    char align = sp.align ? sp.align : '>';
    int64_t left = align == '<' ? 0 : align == '^' ? pad / 2 : pad;
    add_fill(out, sp.fill, left);
    sb_add(out, b.p, b.len);
    add_fill(out, sp.fill, pad - left);
    sb_free(&b);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Ints                                                                */
/* ------------------------------------------------------------------ */

/* Digits of |v| in base (no sign, no prefix) into a malloc'd string. */
static char *int_digits(Obj v, int base, bool upper, bool *negative)
{
    static const char lo[] = "0123456789abcdef", up[] = "0123456789ABCDEF";
    const char *dig = upper ? up : lo;
    if (IS_SMALLINT(v) || TID(v) == TID_BOOL) {
        int64_t x = IS_SMALLINT(v) ? SMALLINT_VAL(v) : ((BoolObj *)v)->value;
        *negative = x < 0;
        uint64_t u = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
        char tmp[72];
        int k = 0;
        do {
            tmp[k++] = dig[u % (unsigned)base];
            u /= (unsigned)base;
        } while (u);
        char *p = malloc((size_t)k + 1);
        if (!p)
            return NULL;
        for (int i = 0; i < k; i++)
            p[i] = tmp[k - 1 - i];
        p[k] = 0;
        return p;
    }
    Obj s = int_to_string(v, base);
    if (!s)
        return NULL;
    const char *t = str_cstr(s);
    *negative = *t == '-';
    if (*negative)
        t++;
    if (base != 10 && t[0] == '0' && (t[1] == 'x' || t[1] == 'o' || t[1] == 'b' || t[1] == 'X'))
        t += 2;
    char *p = strdup(t);
    if (p && upper)
        for (char *q = p; *q; q++)
            if (*q >= 'a' && *q <= 'f')
                *q = (char)(*q - 32);
    return p;
}

static int format_int_spec(StrBuf *b, Obj v, const Spec *sp, const char *tname)
{
    uint32_t t = sp->type;
    if (t == 'e' || t == 'E' || t == 'f' || t == 'F' || t == 'g' || t == 'G' || t == '%') {
        double d;
        if (int_as_double(v, &d) < 0)
            return -1;
        return format_float_spec(b, d, sp);
    }
    int base;
    switch (t) {
    case 0: case 'd': case 'n': case 'c': base = 10; break;
    case 'b': base = 2; break;
    case 'o': base = 8; break;
    case 'x': case 'X': base = 16; break;
    default:
        unknown_code(t, tname);
        return -1;
    }
    if (sp->prec >= 0) {
        err_set(E_ValueError, "Precision not allowed in integer format specifier");
        return -1;
    }
    if (sp->z) {
        err_set(E_ValueError, "Negative zero coercion (z) not allowed in integer format specifier");
        return -1;
    }
    if (t == 'n' && sp->group) {
        err_format(E_ValueError, "Cannot specify '%c' with 'n'.", sp->group);
        return -1;
    }
    if (t == 'c') {
        if (sp->sign) {
            err_set(E_ValueError, "Sign not allowed with integer format specifier 'c'");
            return -1;
        }
        if (sp->alt) {
            err_set(E_ValueError, "Alternate form (#) not allowed with integer format specifier 'c'");
            return -1;
        }
        int64_t x;
        if (int_as_i64(v, &x) < 0) {
            err_clear();
            err_set(E_OverflowError, "Python int too large to convert to C long");
            return -1;
        }
        if (x < 0 || x > 0x10ffff) {
            err_set(E_OverflowError, "%c arg not in range(0x110000)");
            return -1;
        }
        char ch[4];
        int len = utf8_encode((uint32_t)x, ch);
        /* the char pads like a one-digit number ('=' and zero padding: on the left) */
        int64_t pad = sp->width > 1 ? sp->width - 1 : 0;
        char align = sp->align ? sp->align : '>';
        int64_t left = align == '<' ? 0 : align == '^' ? pad / 2 : pad;
        add_fill(b, sp->fill, left);
        sb_add(b, ch, (size_t)len);
        add_fill(b, sp->fill, pad - left);
        return 0;
    }
    bool negative;
    char *digits = int_digits(v, base, t == 'X', &negative);
    if (!digits) {
        if (!err_occurred())
            err_nomemory();
        return -1;
    }
    const char *prefix = "";
    if (sp->alt)
        prefix = base == 2 ? "0b" : base == 8 ? "0o" : base == 16 ? (t == 'X' ? "0X" : "0x") : "";
    int gsize = base == 10 ? 3 : 4;
    emit_number(b, sp, negative, prefix, digits, strlen(digits), "", 0, sp->group, gsize);
    free(digits);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Strings                                                             */
/* ------------------------------------------------------------------ */

static int format_str_spec(StrBuf *b, Obj s, const Spec *sp)
{
    if (sp->type && sp->type != 's') {
        unknown_code(sp->type, "str");
        return -1;
    }
    if (sp->sign) {
        err_set(E_ValueError, sp->sign == ' ' ? "Space not allowed in string format specifier"
                                              : "Sign not allowed in string format specifier");
        return -1;
    }
    if (sp->alt) {
        err_set(E_ValueError, "Alternate form (#) not allowed in string format specifier");
        return -1;
    }
    if (sp->z) {
        err_set(E_ValueError, "Negative zero coercion (z) not allowed in string format specifier");
        return -1;
    }
    if (sp->align == '=') {
        err_set(E_ValueError, "'=' alignment not allowed in string format specifier");
        return -1;
    }
    int64_t len = STR(s)->length;
    int64_t nb = STR(s)->nbytes;
    if (sp->prec >= 0 && sp->prec < len) {
        len = sp->prec;
        nb = str_byte_offset(s, len);
    }
    int64_t pad = sp->width > len ? sp->width - len : 0;
    char align = sp->align ? sp->align : '<';
    int64_t left = align == '>' ? pad : align == '^' ? pad / 2 : 0;
    add_fill(b, sp->fill, left);
    sb_add(b, str_cstr(s), (size_t)nb);
    add_fill(b, sp->fill, pad - left);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */
/* ------------------------------------------------------------------ */

static Obj finish(StrBuf *b, int rc)
{
    if (rc < 0) {
        sb_free(b);
        return NULL;
    }
    return sb_finish(b);
}

/* spec as C bytes: the spec str's data copied (it may move). */
static bool spec_bytes(Obj spec, char *small, size_t smalln, char **heap, const char **p, size_t *n)
{
    spec = vm_unwrap(spec);
    *n = (size_t)STR(spec)->nbytes;
    *heap = NULL;
    if (*n <= smalln) {
        memcpy(small, str_cstr(spec), *n);
        *p = small;
        return true;
    }
    *heap = malloc(*n);
    if (!*heap) {
        err_nomemory();
        return false;
    }
    memcpy(*heap, str_cstr(spec), *n);
    *p = *heap;
    return true;
}

static Obj format_int_c(Obj v, const char *spec, size_t n)
{
    Spec sp;
    char tname[64];
    snprintf(tname, sizeof tname, "%s", type_name(v));
    if (parse_spec(spec, n, &sp, '>', 0, tname) < 0)
        return NULL;
    StrBuf b;
    sb_init(&b);
    return finish(&b, format_int_spec(&b, vm_unwrap(v), &sp, tname));
}

static Obj format_float_c(double d, const char *spec, size_t n)
{
    if (n == 0)
        return float_repr_obj(d);
    Spec sp;
    if (parse_spec(spec, n, &sp, '>', 0, "float") < 0)
        return NULL;
    StrBuf b;
    sb_init(&b);
    return finish(&b, format_float_spec(&b, d, &sp));
}

static Obj format_complex_c(double re, double im, const char *spec, size_t n)
{
    Spec sp;
    if (parse_spec(spec, n, &sp, '>', 0, "complex") < 0)
        return NULL;
    StrBuf b;
    sb_init(&b);
    return finish(&b, format_complex_spec(&b, re, im, &sp));
}

static Obj format_str_cspec(Obj s, const char *spec, size_t n)
{
    s = vm_unwrap(s);
    if (n == 0)
        return s;
    Spec sp;
    if (parse_spec(spec, n, &sp, '<', 's', "str") < 0)
        return NULL;
    StrBuf b;
    sb_init(&b);
    return finish(&b, format_str_spec(&b, s, &sp));
}

Obj format_int(Obj v, Obj spec)
{
    if (STR(vm_unwrap(spec))->nbytes == 0)
        return vm_str(v);
    Obj *r = vm_roots(1);
    r[0] = v;
    char small[64], *heap;
    const char *p;
    size_t n;
    Obj res = NULL;
    if (spec_bytes(spec, small, sizeof small, &heap, &p, &n)) {
        res = format_int_c(r[0], p, n);
        free(heap);
    }
    vm_unroots(r);
    return res;
}

Obj format_float(double d, Obj spec)
{
    char small[64], *heap;
    const char *p;
    size_t n;
    if (!spec_bytes(spec, small, sizeof small, &heap, &p, &n))
        return NULL;
    Obj res = format_float_c(d, p, n);
    free(heap);
    return res;
}

Obj format_complex(double re, double im, Obj spec)
{
    char small[64], *heap;
    const char *p;
    size_t n;
    if (!spec_bytes(spec, small, sizeof small, &heap, &p, &n))
        return NULL;
    Obj res = format_complex_c(re, im, p, n);
    free(heap);
    return res;
}

Obj format_str(Obj s, Obj spec)
{
    Obj *r = vm_roots(1);
    r[0] = s;
    char small[64], *heap;
    const char *p;
    size_t n;
    Obj res = NULL;
    if (spec_bytes(spec, small, sizeof small, &heap, &p, &n)) {
        res = format_str_cspec(r[0], p, n);
        free(heap);
    }
    vm_unroots(r);
    return res;
}

/* format(v, spec) with spec as C bytes: our types directly, others via __format__. */
static Obj format_value(Obj v, const char *spec, size_t n)
{
    if (IS_STR(v))
        return format_str_cspec(v, spec, n);
    if (IS_INT_EXACT(v)) {
        if (n == 0)
            return vm_str(v);
        return format_int_c(v, spec, n);
    }
    if (IS_FLOAT(v))
        return format_float_c(FLOAT_VAL(v), spec, n);
    Obj *r = vm_roots(1);
    r[0] = v;
    Obj s = str_new(spec, n);
    Obj res = s ? vm_format(r[0], s) : NULL;
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* str.format / str.format_map                                         */
/* ------------------------------------------------------------------ */

typedef struct FmtArgs {
    Obj *args;          /* positional (root slots) */
    size_t nargs;
    Obj *kwvalues;      /* keyword values (root slots), names in *kwnamesp */
    Obj *kwnamesp;      /* root slot holding the kwnames tuple (or NULL) */
    Obj *mappingp;      /* format_map: root slot holding the mapping, else NULL */
    int64_t auto_idx;
    int mode;           /* 0 unknown, 1 automatic numbering, 2 manual */
} FmtArgs;

static bool all_digits(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

static int parse_index(const char *s, size_t n, int64_t *out)
{
    size_t pos = 0;
    int64_t v;
    if (parse_digits(s, n, &pos, &v) < 0)
        return -1;
    *out = v;
    return 0;
}

/* The object a field name designates (arg_name, then .attr / [key] parts). */
static Obj resolve_field(const char *f, size_t n, FmtArgs *fa)
{
    size_t i = 0;
    while (i < n && f[i] != '.' && f[i] != '[')
        i++;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    if (i == 0 || all_digits(f, i)) {
        if (fa->mappingp) {
            err_set(E_ValueError, "Format string contains positional fields");
            goto out;
        }
        int64_t idx;
        if (i == 0) {
            if (fa->mode == 2) {
                err_set(E_ValueError, "cannot switch from manual field specification to automatic field numbering");
                goto out;
            }
            fa->mode = 1;
            idx = fa->auto_idx++;
        } else {
            if (fa->mode == 1) {
                err_set(E_ValueError, "cannot switch from automatic field numbering to manual field specification");
                goto out;
            }
            fa->mode = 2;
            if (parse_index(f, i, &idx) < 0)
                goto out;
        }
        if (idx < 0 || (size_t)idx >= fa->nargs) {
            err_format(E_IndexError, "Replacement index %ld out of range for positional args tuple", (long)idx);
            goto out;
        }
        r[0] = fa->args[idx];
    } else {
        r[1] = str_new(f, i);
        if (!r[1])
            goto out;
        if (fa->mappingp) {
            r[0] = vm_getitem(*fa->mappingp, r[1]);
            if (!r[0])
                goto out;
        } else {
            Obj names = fa->kwnamesp ? *fa->kwnamesp : NULL;
            int64_t nk = names ? TUPLE_LEN(names) : 0;
            for (int64_t k = 0; k < nk; k++) {
                if (str_eq(TUPLE_ITEMS(names)[k], r[1])) {
                    r[0] = fa->kwvalues[k];
                    break;
                }
            }
            if (!r[0]) {
                err_set_value(E_KeyError, r[1]);
                goto out;
            }
        }
    }
    while (i < n) {
        if (f[i] == '.') {
            size_t j = ++i;
            while (j < n && f[j] != '.' && f[j] != '[')
                j++;
            if (j == i) {
                err_set(E_ValueError, "Empty attribute in format string");
                goto out;
            }
            r[1] = str_new(f + i, j - i);
            if (!r[1])
                goto out;
            Obj name = str_intern(r[1]);
            if (!name || !(r[0] = vm_getattr(r[0], name)))
                goto out;
            i = j;
        } else if (f[i] == '[') {
            size_t j = ++i;
            while (j < n && f[j] != ']')
                j++;
            if (j >= n) {
                err_set(E_ValueError, "Missing ']' in format string");
                goto out;
            }
            if (j == i) {
                err_set(E_ValueError, "Empty attribute in format string");
                goto out;
            }
            if (all_digits(f + i, j - i)) {
                int64_t idx;
                if (parse_index(f + i, j - i, &idx) < 0)
                    goto out;
                r[1] = int_from_i64(idx);
            } else {
                r[1] = str_new(f + i, j - i);
            }
            if (!r[1] || !(r[0] = vm_getitem(r[0], r[1])))
                goto out;
            i = j + 1;
            if (i < n && f[i] != '.' && f[i] != '[') {
                err_set(E_ValueError, "Only '.' or '[' may follow ']' in format field specifier");
                goto out;
            }
        } else {
            break;
        }
    }
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

static int render(StrBuf *out, const char *s, size_t n, FmtArgs *fa, int depth);

/* One replacement field: name f[0..fn), conversion conv (0: none), spec. */
static int render_field(StrBuf *out, const char *f, size_t fn, uint32_t conv, const char *spec, size_t sn,
                        FmtArgs *fa, int depth)
{
    Obj *r = vm_roots(2);
    int rc = -1;
    r[0] = resolve_field(f, fn, fa);
    if (!r[0])
        goto out;
    if (conv) {
        if (conv == 'r')
            r[0] = vm_repr(r[0]);
        else if (conv == 's')
            r[0] = vm_str(r[0]);
        else if (conv == 'a')
            r[0] = vm_ascii(r[0]);
        else {
            char tc[16];
            type_char_text(conv, tc, sizeof tc);
            err_format(E_ValueError, "Unknown conversion specifier %s", tc);
            goto out;
        }
        if (!r[0])
            goto out;
    }
    StrBuf specbuf;
    sb_init(&specbuf);
    if (memchr(spec, '{', sn)) {
        if (depth <= 1) {
            err_set(E_ValueError, "Max string recursion exceeded");
            goto out;
        }
        if (render(&specbuf, spec, sn, fa, depth - 1) < 0) {
            sb_free(&specbuf);
            goto out;
        }
        if (specbuf.cap == SIZE_MAX) {
            err_nomemory();
            goto out;
        }
        spec = specbuf.p ? specbuf.p : "";
        sn = specbuf.len;
    }
    r[1] = format_value(r[0], spec, sn);
    sb_free(&specbuf);
    if (!r[1])
        goto out;
    if (!IS_STR(r[1])) {
        Obj sv = str_value(r[1]);
        if (!sv) {
            err_format(E_TypeError, "__format__ must return a str, not %s", type_name(r[1]));
            goto out;
        }
        r[1] = sv;
    }
    sb_add_str(out, r[1]);
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* Expand the format string s[0..n) (C memory) into out. */
static int render(StrBuf *out, const char *s, size_t n, FmtArgs *fa, int depth)
{
    size_t i = 0;
    while (i < n) {
        char c = s[i];
        if (c != '{' && c != '}') {
            size_t j = i;
            while (j < n && s[j] != '{' && s[j] != '}')
                j++;
            sb_add(out, s + i, j - i);
            i = j;
            continue;
        }
        if (c == '}') {
            if (i + 1 < n && s[i + 1] == '}') {
                sb_addc(out, '}');
                i += 2;
                continue;
            }
            err_set(E_ValueError, "Single '}' encountered in format string");
            return -1;
        }
        if (i + 1 < n && s[i + 1] == '{') {
            sb_addc(out, '{');
            i += 2;
            continue;
        }
        if (i + 1 >= n) {
            err_set(E_ValueError, "Single '{' encountered in format string");
            return -1;
        }
        i++;
        size_t fstart = i;
        while (i < n && s[i] != ':' && s[i] != '!' && s[i] != '}') {
            if (s[i] == '{') {
                err_set(E_ValueError, "unexpected '{' in field name");
                return -1;
            }
            if (s[i] == '[') {
                while (i < n && s[i] != ']')
                    i++;
                if (i >= n)
                    break;
            }
            i++;
        }
        if (i >= n) {
            err_set(E_ValueError, "expected '}' before end of string");
            return -1;
        }
        size_t fend = i;
        uint32_t conv = 0;
        if (s[i] == '!') {
            i++;
            if (i >= n) {
                err_set(E_ValueError, "end of string while looking for conversion specifier");
                return -1;
            }
            int len;
            conv = utf8_decode((const unsigned char *)s + i, &len);
            i += (size_t)len;
            if (i >= n) {
                err_set(E_ValueError, "unmatched '{' in format spec");
                return -1;
            }
            if (s[i] != ':' && s[i] != '}') {
                err_set(E_ValueError, "expected ':' after conversion specifier");
                return -1;
            }
        }
        size_t sstart = i, send = i;
        if (s[i] == ':') {
            i++;
            sstart = i;
            int level = 1;
            while (i < n) {
                if (s[i] == '{')
                    level++;
                else if (s[i] == '}' && --level == 0)
                    break;
                i++;
            }
            if (i >= n) {
                err_set(E_ValueError, "unmatched '{' in format spec");
                return -1;
            }
            send = i;
        }
        i++;   /* the closing '}' */
        if (render_field(out, s + fstart, fend - fstart, conv, s + sstart, send - sstart, fa, depth) < 0)
            return -1;
    }
    return 0;
}

static Obj format_common(Obj fmt, FmtArgs *fa)
{
    fmt = vm_unwrap(fmt);
    size_t n = (size_t)STR(fmt)->nbytes;
    /* fast path: no braces at all */
    const char *p = str_cstr(fmt);
    if (!memchr(p, '{', n) && !memchr(p, '}', n))
        return fmt;
    char *copy = malloc(n + 1);
    if (!copy)
        return err_nomemory();
    memcpy(copy, p, n);
    StrBuf out;
    sb_init(&out);
    int rc = render(&out, copy, n, fa, 2);
    free(copy);
    return finish(&out, rc);
}

Obj str_format_method(Obj *args, size_t nargs, Obj kwnames)
{
    Obj self = str_value(args[0]);
    if (!self) {
        err_format(E_TypeError, "descriptor 'format' for 'str' objects doesn't apply to a '%s' object",
                   type_name(args[0]));
        return NULL;
    }
    Obj *r = vm_roots(1);
    r[0] = kwnames;
    FmtArgs fa = {args + 1, nargs - 1, args + nargs, kwnames ? &r[0] : NULL, NULL, 0, 0};
    Obj res = format_common(self, &fa);
    vm_unroots(r);
    return res;
}

Obj str_format_map(Obj fmt, Obj mapping)
{
    Obj *r = vm_roots(2);
    r[0] = mapping;
    r[1] = fmt;
    FmtArgs fa = {NULL, 0, NULL, NULL, &r[0], 0, 0};
    Obj res = format_common(r[1], &fa);
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* printf-style formatting: str % values, bytes % values               */
/* ------------------------------------------------------------------ */

typedef struct Pct {
    Obj *valuesp;       /* root slot: the right operand */
    Obj *dictp;         /* root slot: the mapping (NULL value: none) */
    int64_t argidx, nargs;
    bool tuple;
    bool bytes;         /* formatting bytes */
} Pct;

static Obj pct_next(Pct *st)
{
    if (st->argidx < st->nargs) {
        Obj v = st->tuple ? TUPLE_ITEMS(*st->valuesp)[st->argidx] : *st->valuesp;
        st->argidx++;
        return v;
    }
    err_set(E_TypeError, "not enough arguments for format string");
    return NULL;
}

static void pad_spaces(StrBuf *b, int64_t n)
{
    sb_add_repeat(b, " ", 1, n);
}

/* Text piece p[0..nb) of `len` chars with width/left-justify; precision already applied. */
static void pct_add_text(StrBuf *b, const char *p, size_t nb, int64_t len, int64_t width, bool left)
{
    int64_t pad = width > len ? width - len : 0;
    if (!left)
        pad_spaces(b, pad);
    sb_add(b, p, nb);
    if (left)
        pad_spaces(b, pad);
}

enum { PF_LEFT = 1, PF_PLUS = 2, PF_SPACE = 4, PF_ALT = 8, PF_ZERO = 16 };

static void pct_add_number(StrBuf *b, bool negative, const char *prefix, const char *digits, size_t nd,
                           int64_t prec, int64_t width, int flags)
{
    char signc = negative ? '-' : (flags & PF_PLUS) ? '+' : (flags & PF_SPACE) ? ' ' : 0;
    int64_t zeros = prec > (int64_t)nd ? prec - (int64_t)nd : 0;
    int64_t len = (signc ? 1 : 0) + (int64_t)strlen(prefix) + zeros + (int64_t)nd;
    int64_t pad = width > len ? width - len : 0;
    if (!(flags & PF_LEFT) && !(flags & PF_ZERO))
        pad_spaces(b, pad);
    if (signc)
        sb_addc(b, signc);
    sb_adds(b, prefix);
    if (!(flags & PF_LEFT) && (flags & PF_ZERO))
        zeros += pad;
    sb_add_repeat(b, "0", 1, zeros);
    sb_add(b, digits, nd);
    if (flags & PF_LEFT)
        pad_spaces(b, pad);
}

/* %d %i %u %x %X %o */
static int pct_int(StrBuf *b, Obj v, uint32_t type, int64_t width, int64_t prec, int flags)
{
    Obj *r = vm_roots(1);
    int rc = -1;
    Obj u = vm_unwrap(v);
    bool decimal = type == 'd' || type == 'i' || type == 'u';
    if (IS_INT(u)) {
        r[0] = u;
    } else if (decimal && IS_FLOAT(u)) {
        r[0] = int_from_double(FLOAT_VAL(u));
    } else if (TYPE(v)->nb_index) {
        r[0] = vm_index(v);
    } else if (decimal && (TYPE(v)->nb_int || TYPE(v)->nb_float)) {
        r[0] = vm_number_int(v);
    } else {
        if (decimal)
            err_format(E_TypeError, "%%%c format: a real number is required, not %s", (char)type, type_name(v));
        else
            err_format(E_TypeError, "%%%c format: an integer is required, not %s", (char)type, type_name(v));
        goto out;
    }
    if (!r[0])
        goto out;
    int base = decimal ? 10 : type == 'o' ? 8 : 16;
    bool negative;
    char *digits = int_digits(r[0], base, type == 'X', &negative);
    if (!digits) {
        if (!err_occurred())
            err_nomemory();
        goto out;
    }
    const char *prefix = "";
    if (flags & PF_ALT)
        prefix = type == 'o' ? "0o" : type == 'x' ? "0x" : type == 'X' ? "0X" : "";
    pct_add_number(b, negative, prefix, digits, strlen(digits), prec, width, flags);
    free(digits);
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* %e %E %f %F %g %G */
static int pct_float(StrBuf *b, Obj v, uint32_t type, int64_t width, int64_t prec, int flags)
{
    Obj u = vm_unwrap(v);
    if (!IS_INT(u) && !IS_FLOAT(u) && !TYPE(v)->nb_float && !TYPE(v)->nb_index) {
        err_format(E_TypeError, "must be real number, not %s", type_name(v));
        return -1;
    }
    double d;
    if (vm_as_double(v, &d) < 0)
        return -1;
    if (prec < 0)
        prec = 6;
    if (!isfinite(d)) {
        bool upper = type == 'F' || type == 'E' || type == 'G';
        const char *s = isnan(d) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
        pct_add_number(b, !isnan(d) && d < 0, "", s, 3, -1, width, flags);
        return 0;
    }
    /* |d| by printf (precision <= INT_MAX: parsed so), then sign and
     * padding as for the other numbers (no width limit of printf's) */
    char fmt[8];
    snprintf(fmt, sizeof fmt, "%%%s.*%c", (flags & PF_ALT) ? "#" : "", (char)type);
    int n = snprintf(NULL, 0, fmt, (int)prec, fabs(d));
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!buf) {
        err_nomemory();
        return -1;
    }
    snprintf(buf, (size_t)n + 1, fmt, (int)prec, fabs(d));
    pct_add_number(b, signbit(d), "", buf, (size_t)n, -1, width, flags);
    free(buf);
    return 0;
}

/* %s %r %a (and %b for bytes) */
static int pct_text(StrBuf *b, Obj v, uint32_t type, int64_t width, int64_t prec, bool left, bool bytes)
{
    Obj *r = vm_roots(1);
    int rc = -1;
    if (bytes && (type == 's' || type == 'b')) {
        const char *p;
        int64_t n;
        if (!bytes_like(v, &p, &n)) {
            if (vm_lookup_special(v, "__bytes__")) {
                r[0] = vm_call_method(v, "__bytes__", NULL, 0);
                if (!r[0])
                    goto out;
                if (!bytes_like(r[0], &p, &n)) {
                    err_format(E_TypeError, "__bytes__ returned non-bytes (type %s)", type_name(r[0]));
                    goto out;
                }
            } else {
                err_format(E_TypeError,
                           "%%b requires a bytes-like object, or an object that implements __bytes__, not '%s'",
                           type_name(v));
                goto out;
            }
        }
        if (prec >= 0 && prec < n)
            n = prec;
        pct_add_text(b, p, (size_t)n, n, width, left);
        rc = 0;
        goto out;
    }
    if (type == 's')
        r[0] = IS_STR(v) ? v : vm_str(v);
    else if (type == 'r')
        r[0] = vm_repr(v);
    else
        r[0] = vm_ascii(v);
    if (!r[0])
        goto out;
    Obj s = vm_unwrap(r[0]);
    int64_t len = STR(s)->length, nb = STR(s)->nbytes;
    if (prec >= 0 && prec < len) {
        len = prec;
        nb = str_byte_offset(s, prec);
    }
    pct_add_text(b, str_cstr(s), (size_t)nb, len, width, left);
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

static int pct_char(StrBuf *b, Obj v, int64_t width, bool left, bool bytes)
{
    char buf[4];
    int n;
    const char *p;
    int64_t bn;
    Obj s;
    if (bytes && bytes_like(v, &p, &bn) && bn == 1) {
        buf[0] = p[0];
        n = 1;
    } else if (!bytes && (s = str_value(v)) && STR(s)->length == 1) {
        n = (int)STR(s)->nbytes;
        memcpy(buf, str_cstr(s), (size_t)n);
    } else if (IS_INT(vm_unwrap(v)) || TYPE(v)->nb_index) {
        int64_t x;
        uint32_t lim = bytes ? 256 : 0x110000;
        if (arg_i64(v, &x) < 0) {
            if (!err_matches(E_OverflowError))
                return -1;
            err_clear();
            x = -1;
        }
        if (x < 0 || x >= lim) {
            err_set(E_OverflowError, bytes ? "%c arg not in range(256)" : "%c arg not in range(0x110000)");
            return -1;
        }
        if (bytes) {
            buf[0] = (char)x;
            n = 1;
        } else {
            n = utf8_encode((uint32_t)x, buf);
        }
    } else {
        err_set(E_TypeError, bytes ? "%c requires an integer in range(256) or a single byte"
                                   : "%c requires int or char");
        return -1;
    }
    pct_add_text(b, buf, (size_t)n, 1, width, left);
    return 0;
}

/* A '*' width (a C ssize_t in CPython) or precision (a C int). */
static int pct_star(Pct *st, int64_t *out, bool prec)
{
    Obj v = pct_next(st);
    if (!v)
        return -1;
    if (!IS_INT(vm_unwrap(v))) {
        err_set(E_TypeError, "* wants int");
        return -1;
    }
    if (int_as_i64(vm_unwrap(v), out) < 0 || (prec && (*out > INT_MAX || *out < INT_MIN))) {
        err_clear();
        err_set(E_OverflowError, prec ? "Python int too large to convert to C int"
                                      : "Python int too large to convert to C ssize_t");
        return -1;
    }
    return 0;
}

/* The digits of a %-width (at most a C ssize_t) or precision (a C int). */
static int pct_digits(const char *s, size_t n, size_t *pos, int64_t *out, bool prec, bool bytes)
{
    int64_t v = 0, limit = prec ? INT_MAX : INT64_MAX;
    size_t start = *pos;
    for (; *pos < n && s[*pos] >= '0' && s[*pos] <= '9'; (*pos)++) {
        int d = s[*pos] - '0';
        if (v > (limit - d) / 10) {
            err_set(E_ValueError, !prec ? "width too big" : bytes ? "prec too big" : "precision too big");
            return -1;
        }
        v = v * 10 + d;
    }
    *out = *pos > start ? v : -1;
    return 0;
}

static int pct_render(StrBuf *out, const char *s, size_t n, Pct *st)
{
    size_t i = 0;
    while (i < n) {
        if (s[i] != '%') {
            const char *q = memchr(s + i, '%', n - i);
            size_t j = q ? (size_t)(q - s) : n;
            sb_add(out, s + i, j - i);
            i = j;
            continue;
        }
        size_t start = i;
        i++;
        if (i >= n) {
            err_set(E_ValueError, "incomplete format");
            return -1;
        }
        if (s[i] == '%') {
            sb_addc(out, '%');
            i++;
            continue;
        }
        Obj keyval = NULL;
        Obj *r = vm_roots(1);
        if (s[i] == '(') {
            if (!*st->dictp) {
                vm_unroots(r);
                err_set(E_TypeError, "format requires a mapping");
                return -1;
            }
            size_t k = ++i;
            int level = 1;
            while (i < n) {
                if (s[i] == '(')
                    level++;
                else if (s[i] == ')' && --level == 0)
                    break;
                i++;
            }
            if (i >= n) {
                vm_unroots(r);
                err_set(E_ValueError, "incomplete format key");
                return -1;
            }
            Obj key = st->bytes ? bytes_new(s + k, i - k) : str_new(s + k, i - k);
            i++;
            if (!key || !(r[0] = vm_getitem(*st->dictp, key))) {
                vm_unroots(r);
                return -1;
            }
            keyval = r[0];
            st->nargs = 0;   /* after a key, positional arguments are gone (as CPython) */
            st->argidx = 0;
        }
        int flags = 0;
        for (; i < n; i++) {
            char c = s[i];
            if (c == '-')
                flags |= PF_LEFT;
            else if (c == '+')
                flags |= PF_PLUS;
            else if (c == ' ')
                flags |= PF_SPACE;
            else if (c == '#')
                flags |= PF_ALT;
            else if (c == '0')
                flags |= PF_ZERO;
            else
                break;
        }
        int64_t width = -1, prec = -1;
        if (i < n && s[i] == '*') {
            i++;
            if (pct_star(st, &width, false) < 0) {
                vm_unroots(r);
                return -1;
            }
            if (width < 0) {
                flags |= PF_LEFT;
                width = width == INT64_MIN ? INT64_MAX : -width;
            }
        } else if (pct_digits(s, n, &i, &width, false, st->bytes) < 0) {
            vm_unroots(r);
            return -1;
        }
        if (i < n && s[i] == '.') {
            i++;
            if (i < n && s[i] == '*') {
                i++;
                if (pct_star(st, &prec, true) < 0) {
                    vm_unroots(r);
                    return -1;
                }
                if (prec < 0)
                    prec = 0;
            } else {
                if (pct_digits(s, n, &i, &prec, true, st->bytes) < 0) {
                    vm_unroots(r);
                    return -1;
                }
                if (prec < 0)
                    prec = 0;
            }
        }
        while (i < n && (s[i] == 'h' || s[i] == 'l' || s[i] == 'L'))
            i++;
        if (i >= n) {
            vm_unroots(r);
            err_set(E_ValueError, "incomplete format");
            return -1;
        }
        int clen = 1;
        uint32_t type = st->bytes ? (unsigned char)s[i] : utf8_decode((const unsigned char *)s + i, &clen);
        i += (size_t)clen;
        if (!keyval) {
            keyval = pct_next(st);
            if (!keyval) {
                vm_unroots(r);
                return -1;
            }
            r[0] = keyval;
        }
        if (flags & PF_LEFT)
            flags &= ~PF_ZERO;
        int rc;
        switch (type) {
        case 's': case 'r': case 'a':
            rc = pct_text(out, r[0], type, width, prec, flags & PF_LEFT, st->bytes);
            break;
        case 'b':
            if (!st->bytes)
                goto unsupported;
            rc = pct_text(out, r[0], type, width, prec, flags & PF_LEFT, true);
            break;
        case 'c':
            rc = pct_char(out, r[0], width, flags & PF_LEFT, st->bytes);
            break;
        case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
            rc = pct_int(out, r[0], type, width, prec, flags);
            break;
        case 'e': case 'E': case 'f': case 'F': case 'g': case 'G':
            rc = pct_float(out, r[0], type, width, prec, flags);
            break;
        case '%':
            sb_addc(out, '%');
            rc = 0;
            break;
        default:
        unsupported: {
            int64_t idx = st->bytes ? (int64_t)(i - (size_t)clen) : utf8_count(s, i - (size_t)clen);
            (void)start;
            err_format(E_ValueError, "unsupported format character '%c' (0x%x) at index %ld",
                       type < 128 ? (char)type : '?', type, (long)idx);
            rc = -1;
        }
        }
        vm_unroots(r);
        if (rc < 0)
            return -1;
    }
    return 0;
}

static Obj percent_common(Obj fmt, Obj values, bool bytes)
{
    Obj *r = vm_roots(2);
    r[0] = values;
    Obj u = vm_unwrap(values);
    Pct st = {&r[0], &r[1], 0, 1, false, bytes};
    if (IS_TUPLE(u)) {
        r[0] = u;
        st.tuple = true;
        st.nargs = TUPLE_LEN(u);
    } else if (TYPE(values)->tp_getitem && !IS_STR(u) && !(bytes && IS_BYTES(u))) {
        r[1] = values;
    }
    const char *p;
    int64_t n;
    if (bytes) {
        bytes_like(fmt, &p, &n);
    } else {
        fmt = vm_unwrap(fmt);
        p = str_cstr(fmt);
        n = STR(fmt)->nbytes;
    }
    Obj res = NULL;
    char *copy = malloc((size_t)n + 1);
    if (!copy) {
        err_nomemory();
        goto out;
    }
    memcpy(copy, p, (size_t)n);
    StrBuf b;
    sb_init(&b);
    int rc = pct_render(&b, copy, (size_t)n, &st);
    free(copy);
    if (rc == 0 && st.argidx < st.nargs && !r[1]) {
        err_set(E_TypeError, bytes ? "not all arguments converted during bytes formatting"
                                   : "not all arguments converted during string formatting");
        rc = -1;
    }
    if (rc < 0) {
        sb_free(&b);
        goto out;
    }
    if (b.cap == SIZE_MAX) {
        err_nomemory();
        goto out;
    }
    if (bytes) {
        res = bytes_new(b.p ? b.p : "", b.len);
        sb_free(&b);
    } else {
        res = sb_finish(&b);
    }
out:
    vm_unroots(r);
    return res;
}

Obj str_percent_format(Obj fmt, Obj values) { return percent_common(fmt, values, false); }

Obj bytes_percent_format(Obj fmt, Obj values) { return percent_common(fmt, values, true); }
