/* float.c: Python's float (an IEEE double in a 16-byte FloatObj).
 * repr is the shortest string that reads back to the same double, laid out
 * like CPython's; arithmetic mixes with ints (converted exactly or with
 * OverflowError); comparisons with ints are exact; hash agrees with int's. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strobj.h"
#include "numbers.h"
#include "objects.h"

TypeObj *T_float;

#define HASH_MODULUS (((uint64_t)1 << 61) - 1)

Obj float_new(double d)
{
    Obj o = (Obj)tm_allocate(TID_FLOAT, sizeof(struct FloatObj_));
    if (!o)
        return err_nomemory();
    ((FloatObj *)o)->value = d;
    return o;
}

/* ------------------------------------------------------------------ */
/* repr                                                                */
/* ------------------------------------------------------------------ */

/* Does d printed with `prec` significant digits read back as d? */
static bool roundtrips(double d, int prec, char *buf, size_t size)
{
    snprintf(buf, size, "%.*e", prec - 1, d);
    return strtod(buf, NULL) == d;
}

/* Digits and decimal exponent of a "%.*e" string: returns the digit count. */
static int parse_e_format(const char *e, char *digits, int *x)
{
    int nd = 0;
    const char *p = e;
    if (*p == '-')
        p++;
    for (; *p != 'e'; p++)
        if (*p != '.')
            digits[nd++] = *p;
    *x = atoi(p + 1);
    return nd;
}

/* The double nearest to the digits d1.d2d3... * 10**x. */
static double digits_value(const char *dig, int nd, int x)
{
    char b[48];
    int k = 0;
    b[k++] = dig[0];
    b[k++] = '.';
    memcpy(b + k, dig + 1, (size_t)nd - 1);
    k += nd - 1;
    snprintf(b + k, sizeof b - (size_t)k, "e%d", x);
    return strtod(b, NULL);
}

/* Round 17 correctly rounded digits to p digits. false when the dropped tail
 * is exactly half (the exact value could lie on either side). */
static bool round_digits(const char *d17, int x, int p, char *out, int *xo)
{
    bool rest_zero = true;
    for (int i = p + 1; i < 17; i++)
        rest_zero &= d17[i] == '0';
    if (d17[p] == '5' && rest_zero)
        return false;
    memcpy(out, d17, (size_t)p);
    *xo = x;
    if (d17[p] >= '5') {
        int i = p - 1;
        while (i >= 0 && out[i] == '9')
            out[i--] = '0';
        if (i < 0) {
            out[0] = '1';
            (*xo)++;
        } else
            out[i]++;
    }
    return true;
}

/* Shortest round-tripping digits of a finite nonzero d (CPython's repr
 * digits: fewest digits, the closest to d among those). */
static int shortest_digits(double d, char *digits, int *x)
{
    char e[48];
    if (fabs(d) < DBL_MIN) {
        /* subnormal: wide rounding intervals; search the digit count */
        int lo = 1, hi = 17;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (roundtrips(d, mid, e, sizeof e))
                hi = mid;
            else
                lo = mid + 1;
        }
        snprintf(e, sizeof e, "%.*e", lo - 1, d);
        return parse_e_format(e, digits, x);
    }
    /* Normal doubles: 15-digit decimals are spaced wider than the rounding
     * interval, so if the nearest 15-digit decimal reads back, it is the
     * shortest one padded with zeros. Otherwise 16 or 17 digits. */
    char d17[24];
    int x17;
    snprintf(e, sizeof e, "%.16e", d);
    parse_e_format(e, d17, &x17);
    for (int p = 15; p <= 16; p++) {
        int xc;
        if (!round_digits(d17, x17, p, digits, &xc)) {
            snprintf(e, sizeof e, "%.*e", p - 1, d);
            parse_e_format(e, digits, &xc);
        }
        double v = digits_value(digits, p, xc);
        if (v == fabs(d)) {
            *x = xc;
            return p;
        }
        int ex;
        if (p == 16 && v < fabs(d) && frexp(fabs(d), &ex) == 0.5) {
            /* a power of two: the interval is wider above d; the next
             * 16-digit decimal up may read back when the nearest does not */
            char up[24];
            int xu = xc;
            memcpy(up, digits, 16);
            int i = 15;
            while (i >= 0 && up[i] == '9')
                up[i--] = '0';
            if (i < 0) {
                up[0] = '1';
                xu++;
            } else
                up[i]++;
            if (digits_value(up, 16, xu) == fabs(d)) {
                memcpy(digits, up, 16);
                *x = xu;
                return 16;
            }
        }
    }
    memcpy(digits, d17, 17);
    *x = x17;
    return 17;
}

void float_repr_buf(double d, char *buf)
{
    if (isnan(d)) {
        strcpy(buf, "nan");
        return;
    }
    if (isinf(d)) {
        strcpy(buf, d > 0 ? "inf" : "-inf");
        return;
    }
    if (d == 0) {
        strcpy(buf, signbit(d) ? "-0.0" : "0.0");
        return;
    }
    if (d == floor(d) && fabs(d) < 1e16) {        /* integral: digits + ".0" */
        int64_t v = (int64_t)d;
        uint64_t m = v < 0 ? -(uint64_t)v : (uint64_t)v;
        char tmp[24], *p = tmp + sizeof tmp;
        do {
            *--p = (char)('0' + m % 10);
            m /= 10;
        } while (m);
        char *o = buf;
        if (d < 0)
            *o++ = '-';
        size_t n = (size_t)(tmp + sizeof tmp - p);
        memcpy(o, p, n);
        memcpy(o + n, ".0", 3);
        return;
    }
    char digits[24];
    int x;                                        /* exponent of the first digit */
    int nd = shortest_digits(d, digits, &x);
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    char *o = buf;
    if (d < 0)
        *o++ = '-';
    if (x < -4 || x >= 16) {
        *o++ = digits[0];
        if (nd > 1) {
            *o++ = '.';
            memcpy(o, digits + 1, (size_t)nd - 1);
            o += nd - 1;
        }
        sprintf(o, "e%c%02d", x < 0 ? '-' : '+', x < 0 ? -x : x);
        return;
    }
    if (x >= 0) {
        for (int i = 0; i <= x; i++)
            *o++ = i < nd ? digits[i] : '0';
        *o++ = '.';
        if (nd > x + 1) {
            memcpy(o, digits + x + 1, (size_t)(nd - x - 1));
            o += nd - x - 1;
        } else
            *o++ = '0';
    } else {
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -x - 1; i++)
            *o++ = '0';
        memcpy(o, digits, (size_t)nd);
        o += nd;
    }
    *o = 0;
}

Obj float_repr_obj(double d)
{
    char buf[40];
    float_repr_buf(d, buf);
    return str_new(buf, strlen(buf));
}

/* ------------------------------------------------------------------ */
/* hash: the value mod 2**61 - 1, as for ints (so hash(2.0) == hash(2)) */
/* ------------------------------------------------------------------ */
int64_t float_hash(double d)
{
    if (isinf(d))
        return d > 0 ? 314159 : -314159;
    if (isnan(d))
        return 0;   /* float objects hash a NaN by identity (float_tp_hash) */
    int e;
    double m = frexp(fabs(d), &e);
    uint64_t h = (uint64_t)ldexp(m, 53);          /* |d| = h * 2**(e-53), h < 2**53 < modulus */
    e -= 53;
    /* multiply by 2**e mod (2**61 - 1): rotate the 61-bit value */
    int r = ((e % 61) + 61) % 61;
    if (r)
        h = ((h << r) | (h >> (61 - r))) & HASH_MODULUS;
    int64_t s = d < 0 ? -(int64_t)h : (int64_t)h;
    return s == -1 ? -2 : s;
}

/* ------------------------------------------------------------------ */
/* Parsing                                                             */
/* ------------------------------------------------------------------ */
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Case-insensitive equality of [p, p+n) with a lowercase word. */
static bool word_eq(const char *p, size_t n, const char *w)
{
    if (strlen(w) != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((p[i] | 0x20) != w[i])
            return false;
    return true;
}

/* Copy digits with single underscores between them into *o. Returns the
 * number of digits, or -1 on a misplaced underscore. */
static long copy_digits(const char **pp, const char *end, char **o)
{
    const char *p = *pp;
    long n = 0;
    while (p < end) {
        if (is_digit(*p)) {
            *(*o)++ = *p++;
            n++;
        } else if (*p == '_' && n > 0 && p + 1 < end && is_digit(p[1]))
            p++;
        else
            break;
    }
    *pp = p;
    return n;
}

static int float_parse(const char *s, size_t len, double *out)
{
    len = num_strip(&s, len);
    const char *p = s, *end = s + len;
    char local[128];
    char *buf = len < sizeof local ? local : malloc(len + 1);
    if (!buf)
        return -1;
    int rc = -1;
    char *o = buf;
    bool neg = false;
    if (p < end && (*p == '+' || *p == '-')) {
        neg = *p == '-';
        *o++ = *p++;
    }
    if (word_eq(p, (size_t)(end - p), "inf") || word_eq(p, (size_t)(end - p), "infinity")) {
        *out = neg ? -INFINITY : INFINITY;
        rc = 0;
        goto done;
    }
    if (word_eq(p, (size_t)(end - p), "nan")) {
        *out = neg ? -NAN : NAN;
        rc = 0;
        goto done;
    }
    long nint = copy_digits(&p, end, &o), nfrac = 0;
    if (p < end && *p == '.') {
        *o++ = *p++;
        nfrac = copy_digits(&p, end, &o);
    }
    if (nint + nfrac == 0)
        goto done;
    if (p < end && (*p == 'e' || *p == 'E')) {
        *o++ = *p++;
        if (p < end && (*p == '+' || *p == '-'))
            *o++ = *p++;
        if (copy_digits(&p, end, &o) <= 0)
            goto done;
    }
    if (p != end)
        goto done;
    *o = 0;
    *out = strtod(buf, NULL);
    rc = 0;
done:
    if (buf != local)
        free(buf);
    return rc;
}

Obj float_parse_object(Obj obj)
{
    const char *s;
    int64_t len;
    double d;
    if (!str_or_bytes_like(obj, &s, &len)) {
        err_format(E_TypeError, "float() argument must be a string or a real number, not '%s'", type_name(obj));
        return NULL;
    }
    size_t n = (size_t)len;
    size_t alen;
    char *ascii = IS_STR(vm_unwrap(obj)) ? num_ascii_copy(s, n, &alen) : NULL;
    int rc = ascii ? float_parse(ascii, alen, &d) : float_parse(s, n, &d);
    free(ascii);
    if (rc == 0)
        return float_new(d);
    Obj r = vm_repr(obj);
    if (r)
        err_format(E_ValueError, "could not convert string to float: %s", str_cstr(r));
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Arithmetic                                                          */
/* ------------------------------------------------------------------ */

/* Python's floor division and modulo for y != 0. */
static void float_divmod_parts(double x, double y, double *qout, double *rout)
{
    double mod = fmod(x, y);
    double div = (x - mod) / y;                   /* exact multiple, up to rounding */
    if (mod != 0) {
        if ((y < 0) != (mod < 0)) {               /* the remainder takes y's sign */
            mod += y;
            div -= 1.0;
        }
    } else
        mod = copysign(0.0, y);
    double q;
    if (div != 0) {
        q = floor(div);
        if (div - q > 0.5)
            q += 1.0;
    } else
        q = copysign(0.0, x / y);
    *qout = q;
    *rout = mod;
}

static Obj float_floordiv_double(double a, double b)
{
    if (b == 0) {
        err_set(E_ZeroDivisionError, "float floor division by zero");
        return NULL;
    }
    double q, r;
    float_divmod_parts(a, b, &q, &r);
    return float_new(q);
}

static Obj float_mod_double(double a, double b)
{
    if (b == 0) {
        err_set(E_ZeroDivisionError, "float modulo");
        return NULL;
    }
    double q, r;
    float_divmod_parts(a, b, &q, &r);
    return float_new(r);
}

static Obj err_float_range(void)
{
    Obj *r = vm_roots(2);
    r[0] = MAKE_SMALLINT(34);      /* ERANGE, as CPython reports it */
    r[1] = str_from_cstr("Numerical result out of range");
    if (r[1]) {
        Obj exc = exc_new(E_OverflowError, r, 2);
        if (exc)
            err_set_obj(exc);
    }
    vm_unroots(r);
    return NULL;
}

Obj float_pow_double(double x, double y)
{
    if (x == 0 && y < 0 && !isinf(y)) {
        err_set(E_ZeroDivisionError, "0.0 cannot be raised to a negative power");
        return NULL;
    }
    if (x < 0 && isfinite(x) && isfinite(y) && y != floor(y))
        return complex_pow_doubles(x, y);   /* a negative number to a fractional power is complex */
    double r = pow(x, y);                         /* C99 special cases match Python's */
    if (isinf(r) && isfinite(x) && isfinite(y))
        return err_float_range();
    return float_new(r);
}

/* Both operands as doubles: 1 done, 0 not ours (NotImplemented), -1 error. */
static inline int float_operands(Obj a, Obj b, double *x, double *y)
{
    a = vm_unwrap(a);
    b = vm_unwrap(b);
    if (IS_FLOAT(a))
        *x = FLOAT_VAL(a);
    else if (IS_INT(a)) {
        if (int_as_double(a, x) < 0)
            return -1;
    } else
        return 0;
    if (IS_FLOAT(b))
        *y = FLOAT_VAL(b);
    else if (IS_INT(b)) {
        if (int_as_double(b, y) < 0)
            return -1;
    } else
        return 0;
    return 1;
}

#define FLOAT_OPERANDS(a, b, x, y)                          \
    double x, y;                                            \
    do {                                                    \
        int k_ = float_operands(a, b, &x, &y);              \
        if (k_ <= 0)                                        \
            return k_ < 0 ? NULL : g_NotImplemented;        \
    } while (0)

static Obj float_nb_add(Obj a, Obj b)
{
    if (IS_FLOAT(a) && IS_FLOAT(b))
        return float_new(FLOAT_VAL(a) + FLOAT_VAL(b));
    FLOAT_OPERANDS(a, b, x, y);
    return float_new(x + y);
}
static Obj float_nb_sub(Obj a, Obj b)
{
    if (IS_FLOAT(a) && IS_FLOAT(b))
        return float_new(FLOAT_VAL(a) - FLOAT_VAL(b));
    FLOAT_OPERANDS(a, b, x, y);
    return float_new(x - y);
}
static Obj float_nb_mul(Obj a, Obj b)
{
    if (IS_FLOAT(a) && IS_FLOAT(b))
        return float_new(FLOAT_VAL(a) * FLOAT_VAL(b));
    FLOAT_OPERANDS(a, b, x, y);
    return float_new(x * y);
}
static Obj float_nb_truediv(Obj a, Obj b)
{
    FLOAT_OPERANDS(a, b, x, y);
    if (y == 0) {
        err_set(E_ZeroDivisionError, "float division by zero");
        return NULL;
    }
    return float_new(x / y);
}
static Obj float_nb_floordiv(Obj a, Obj b)
{
    FLOAT_OPERANDS(a, b, x, y);
    return float_floordiv_double(x, y);
}
static Obj float_nb_mod(Obj a, Obj b)
{
    FLOAT_OPERANDS(a, b, x, y);
    return float_mod_double(x, y);
}
static Obj float_nb_divmod(Obj a, Obj b)
{
    FLOAT_OPERANDS(a, b, x, y);
    if (y == 0) {
        err_set(E_ZeroDivisionError, "float divmod()");
        return NULL;
    }
    double q, r;
    float_divmod_parts(x, y, &q, &r);
    Obj *root = vm_roots(2);
    Obj res = NULL;
    if ((root[0] = float_new(q)) && (root[1] = float_new(r)))
        res = tuple_pack(2, root[0], root[1]);
    vm_unroots(root);
    return res;
}
static Obj float_nb_pow(Obj a, Obj b)
{
    FLOAT_OPERANDS(a, b, x, y);
    return float_pow_double(x, y);
}

static inline double fval(Obj v) { return FLOAT_VAL(vm_unwrap(v)); }

static Obj float_nb_neg(Obj v) { return float_new(-fval(v)); }
static Obj float_nb_abs(Obj v) { return float_new(fabs(fval(v))); }
static Obj float_exact(Obj v)
{
    v = vm_unwrap(v);
    return v;
}
static Obj float_nb_int(Obj v) { return int_from_double(fval(v)); }

static Obj float_tp_repr(Obj v) { return float_repr_obj(fval(v)); }
/* A NaN hashes by identity (CPython 3.10+): NaNs never compare equal, and
 * one hash for all of them made sets and dicts of NaNs quadratic. */
static int64_t float_tp_hash(Obj v)
{
    double d = fval(v);
    return isnan(d) ? vm_identity_hash(v) : float_hash(d);
}
static int float_tp_bool(Obj v) { return fval(v) != 0; }

static Obj float_richcompare(Obj a, Obj b, int op)
{
    a = vm_unwrap(a);
    b = vm_unwrap(b);
    if (!IS_FLOAT(a))
        return g_NotImplemented;
    double x = FLOAT_VAL(a);
    int c;
    if (IS_FLOAT(b)) {
        double y = FLOAT_VAL(b);
        switch (op) {
        case CMP_LT: return vm_bool(x < y);
        case CMP_LE: return vm_bool(x <= y);
        case CMP_EQ: return vm_bool(x == y);
        case CMP_NE: return vm_bool(x != y);
        case CMP_GT: return vm_bool(x > y);
        default: return vm_bool(x >= y);
        }
    }
    if (!IS_INT(b))
        return g_NotImplemented;
    c = int_float_compare(b, x);
    if (c == 2)
        return vm_bool(op == CMP_NE);
    c = -c;                                       /* x vs b */
    switch (op) {
    case CMP_LT: return vm_bool(c < 0);
    case CMP_LE: return vm_bool(c <= 0);
    case CMP_EQ: return vm_bool(c == 0);
    case CMP_NE: return vm_bool(c != 0);
    case CMP_GT: return vm_bool(c > 0);
    default: return vm_bool(c >= 0);
    }
}

static Obj float_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("float", nargs, kwnames, 0, 1) < 0)
        return NULL;
    Obj v;
    if (nargs == 0)
        v = float_new(0.0);
    else {
        Obj x = args[0];
        switch (TID(x)) {
        case TID_FLOAT:
            v = x;
            break;
        case 0:
        case TID_BIGINT:
        case TID_BOOL: {
            double d;
            v = int_as_double(x, &d) < 0 ? NULL : float_new(d);
            break;
        }
        case TID_STR:
        case TID_BYTES:
        case TID_BYTEARRAY:
        case TID_MEMORYVIEW:
            v = float_parse_object(x);
            break;
        default:
            v = vm_number_float(x);       /* __float__, __index__, str subclasses, ... */
        }
    }
    if (!v || (TypeObj *)type == T_float)
        return v;
    Obj *r = vm_roots(1);
    r[0] = v;
    Obj inst = instance_new((TypeObj *)type);
    if (inst) {
        VM_WRITE(inst);
        INST(inst)->base_value = r[0];
    }
    vm_unroots(r);
    return inst;
}

/* ------------------------------------------------------------------ */
/* Methods                                                             */
/* ------------------------------------------------------------------ */

static Obj float_m_is_integer(Obj *args, size_t nargs, Obj kwnames)
{
    double x = fval(args[0]);
    return vm_bool(isfinite(x) && floor(x) == x);
}

static Obj float_m_conjugate(Obj *args, size_t nargs, Obj kwnames)
{
    return float_exact(args[0]);
}

static Obj float_m_trunc(Obj *args, size_t nargs, Obj kwnames)
{
    return int_from_double(trunc(fval(args[0])));
}
static Obj float_m_floor(Obj *args, size_t nargs, Obj kwnames)
{
    return int_from_double(floor(fval(args[0])));
}
static Obj float_m_ceil(Obj *args, size_t nargs, Obj kwnames)
{
    return int_from_double(ceil(fval(args[0])));
}

static Obj float_m_getnewargs(Obj *args, size_t nargs, Obj kwnames)
{
    return tuple_pack(1, float_exact(args[0]));
}

static Obj float_m_as_integer_ratio(Obj *args, size_t nargs, Obj kwnames)
{
    double x = fval(args[0]);
    if (isinf(x)) {
        err_set(E_OverflowError, "cannot convert Infinity to integer ratio");
        return NULL;
    }
    if (isnan(x)) {
        err_set(E_ValueError, "cannot convert NaN to integer ratio");
        return NULL;
    }
    if (x == 0)
        return tuple_pack(2, MAKE_SMALLINT(0), MAKE_SMALLINT(1));
    int e;
    double m = frexp(x, &e);
    int64_t mant = (int64_t)ldexp(m, 53);         /* x = mant * 2**(e-53) exactly */
    e -= 53;
    int tz = __builtin_ctzll((uint64_t)(mant < 0 ? -mant : mant));
    mant >>= tz;
    e += tz;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    if (e >= 0) {
        r[0] = int_lshift(MAKE_SMALLINT(mant), MAKE_SMALLINT(e));
        r[1] = MAKE_SMALLINT(1);
    } else {
        r[0] = MAKE_SMALLINT(mant);
        r[1] = int_lshift(MAKE_SMALLINT(1), MAKE_SMALLINT(-e));
    }
    if (r[0] && r[1])
        res = tuple_pack(2, r[0], r[1]);
    vm_unroots(r);
    return res;
}

static Obj float_m_hex(Obj *args, size_t nargs, Obj kwnames)
{
    double x = fval(args[0]);
    char buf[48];
    if (isnan(x) || isinf(x)) {
        float_repr_buf(x, buf);
        return str_from_cstr(buf);
    }
    const char *sign = signbit(x) ? "-" : "";
    x = fabs(x);
    if (x == 0)
        snprintf(buf, sizeof buf, "%s0x0.0p+0", sign);
    else if (x < DBL_MIN)                         /* subnormal: 0x0.<52 bits>p-1022 */
        snprintf(buf, sizeof buf, "%s0x0.%013llxp-1022", sign, (unsigned long long)ldexp(x, 1074));
    else {
        int e;
        double m = frexp(x, &e);                  /* x = 1.f * 2**(e-1) */
        unsigned long long mant = (unsigned long long)ldexp(m, 53);
        snprintf(buf, sizeof buf, "%s0x1.%013llxp%+d", sign, mant & ((1ULL << 52) - 1), e - 1);
    }
    return str_from_cstr(buf);
}

static bool is_xdigit(char c)
{
    return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* float.fromhex(s): 0 ok, -1 invalid syntax. Uses strtod on a normalised copy. */
static int parse_hex_float(const char *s, size_t len, double *out, bool *is_inf_literal)
{
    *is_inf_literal = false;
    len = num_strip(&s, len);
    const char *p = s, *end = s + len;
    char *buf = malloc(len + 8), *o = buf;
    if (!buf)
        return -1;
    int rc = -1;
    bool neg = false;
    if (p < end && (*p == '+' || *p == '-'))
        neg = *p++ == '-';
    if (word_eq(p, (size_t)(end - p), "inf") || word_eq(p, (size_t)(end - p), "infinity")) {
        *out = neg ? -INFINITY : INFINITY;
        *is_inf_literal = true;
        rc = 0;
        goto done;
    }
    if (word_eq(p, (size_t)(end - p), "nan")) {
        *out = NAN;
        rc = 0;
        goto done;
    }
    if (neg)
        *o++ = '-';
    *o++ = '0';
    *o++ = 'x';
    if (end - p >= 2 && p[0] == '0' && (p[1] | 0x20) == 'x')
        p += 2;
    int ndig = 0;
    while (p < end && is_xdigit(*p)) {
        *o++ = *p++;
        ndig++;
    }
    if (p < end && *p == '.') {
        *o++ = *p++;
        while (p < end && is_xdigit(*p)) {
            *o++ = *p++;
            ndig++;
        }
    }
    if (ndig == 0)
        goto done;
    if (p < end && (*p | 0x20) == 'p') {
        *o++ = *p++;
        if (p < end && (*p == '+' || *p == '-'))
            *o++ = *p++;
        int ne = 0;
        while (p < end && is_digit(*p)) {
            *o++ = *p++;
            ne++;
        }
        if (ne == 0)
            goto done;
    }
    if (p != end)
        goto done;
    *o = 0;
    *out = strtod(buf, NULL);
    rc = 0;
done:
    free(buf);
    return rc;
}

static Obj float_m_fromhex(Obj *args, size_t nargs, Obj kwnames)
{
    if (!IS_STR(vm_unwrap(args[1]))) {
        err_format(E_TypeError, "fromhex() argument must be str, not %s", type_name(args[1]));
        return NULL;
    }
    Obj s = vm_unwrap(args[1]);
    double d;
    bool inf_lit;
    if (parse_hex_float(str_cstr(s), (size_t)STR(s)->nbytes, &d, &inf_lit) < 0) {
        err_set(E_ValueError, "invalid hexadecimal floating-point string");
        return NULL;
    }
    if (isinf(d) && !inf_lit) {
        err_set(E_OverflowError, "hexadecimal value too large to represent as a float");
        return NULL;
    }
    Obj f = float_new(d);
    if (f && (TypeObj *)args[0] != T_float)
        return vm_call1(args[0], f);
    return f;
}

/* round(x, nd) for nd < 0: the multiple of 10**-nd nearest to x, ties to
 * even, computed exactly with ints and then rounded to a double. */
static Obj round_to_tens(double x, int64_t nd)
{
    double fl = floor(x);
    bool frac = x != fl;
    Obj *r = vm_roots(4);
    Obj res = NULL;
    if (!(r[0] = int_from_double(fl)))
        goto done;
    if (!(r[1] = int_pow(MAKE_SMALLINT(10), MAKE_SMALLINT(-nd), NULL)))
        goto done;
    if (!(r[2] = int_divmod(r[0], r[1])))         /* (q, rem) */
        goto done;
    if (!(r[3] = int_add(TUPLE_ITEMS(r[2])[1], TUPLE_ITEMS(r[2])[1])))
        goto done;
    int c = int_compare(r[3], r[1]);              /* 2*rem vs 10**k */
    Obj q = TUPLE_ITEMS(r[2])[0];
    bool odd = int_is_odd(q);
    if (c > 0 || (c == 0 && (frac || odd))) {
        if (!(r[0] = int_add(q, MAKE_SMALLINT(1))))
            goto done;
    } else
        r[0] = q;
    if (!(r[0] = int_mul(r[0], r[1])))
        goto done;
    double d;
    if (int_as_double(r[0], &d) < 0) {
        err_clear();
        err_set(E_OverflowError, "rounded value too large to represent");
        goto done;
    }
    res = float_new(d == 0 ? copysign(0.0, x) : d);
done:
    vm_unroots(r);
    return res;
}

static Obj float_round(double x, Obj ndigits)
{
    if (!ndigits || IS_NONE(ndigits)) {
        double r = rint(x);                       /* half even in the default rounding mode */
        return int_from_double(r);
    }
    Obj nd_obj = vm_index(ndigits);
    if (!nd_obj)
        return NULL;
    int64_t nd;
    int_as_i64_saturated(nd_obj, &nd);
    if (nd > 323 || !isfinite(x) || x == 0)
        return float_new(x);
    if (nd < -308)
        return float_new(0.0 * x);
    if (nd < 0)
        return round_to_tens(x, nd);
    /* nd >= 0: printf rounds the exact decimal value half-even; strtod reads it back */
    char buf[720];
    snprintf(buf, sizeof buf, "%.*f", (int)nd, x);
    double r = strtod(buf, NULL);
    if (isinf(r)) {
        err_set(E_OverflowError, "rounded value too large to represent");
        return NULL;
    }
    return float_new(r);
}

static Obj float_m_round(Obj *args, size_t nargs, Obj kwnames)
{
    return float_round(fval(args[0]), nargs > 1 ? args[1] : NULL);
}

static Obj float_m_format(Obj *args, size_t nargs, Obj kwnames)
{
    if (!IS_STR(args[1])) {
        err_format(E_TypeError, "__format__() argument must be str, not %s", type_name(args[1]));
        return NULL;
    }
    if (str_len(args[1]) == 0)
        return vm_str(args[0]);
    return format_float(fval(args[0]), args[1]);
}

static Obj float_m_getformat(Obj *args, size_t nargs, Obj kwnames)
{
    Obj t = args[1];
    if (!IS_STR(t)) {
        err_format(E_TypeError, "__getformat__() argument must be str, not %s", type_name(t));
        return NULL;
    }
    if (!str_eq_cstr(t, "double") && !str_eq_cstr(t, "float")) {
        err_set(E_ValueError, "__getformat__() argument 1 must be 'double' or 'float'");
        return NULL;
    }
    return str_from_cstr("IEEE, little-endian");
}

static Obj float_get_real(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs; (void)kwnames;
    return float_exact(args[0]);
}
static Obj float_get_imag(Obj *args, size_t nargs, Obj kwnames)
{
    (void)args; (void)nargs; (void)kwnames;
    return float_new(0.0);
}

static const MethodDef float_methods[] = {
    {"is_integer", float_m_is_integer, METH_NOARGS, "Return True if the float is an integer."},
    {"as_integer_ratio", float_m_as_integer_ratio, METH_NOARGS, "Return integer ratio."},
    {"hex", float_m_hex, METH_NOARGS, "Return a hexadecimal representation of a floating-point number."},
    {"fromhex", float_m_fromhex, METH_CLASS | METH_O, "Create a floating-point number from a hexadecimal string."},
    {"conjugate", float_m_conjugate, METH_NOARGS, "Return self, the complex conjugate of any float."},
    {"__trunc__", float_m_trunc, METH_NOARGS, "Return the Integral closest to x between 0 and x."},
    {"__floor__", float_m_floor, METH_NOARGS, "Return the floor as an Integral."},
    {"__ceil__", float_m_ceil, METH_NOARGS, "Return the ceiling as an Integral."},
    {"__round__", float_m_round, METH_ARGS(0, 1), "Return the Integral closest to x, rounding half toward even."},
    {"__getnewargs__", float_m_getnewargs, METH_NOARGS, NULL},
    {"__format__", float_m_format, METH_O, "Formats the float according to format_spec."},
    {"__getformat__", float_m_getformat, METH_CLASS | METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

void float_init_type(void)
{
    TypeObj *t = T_float = (TypeObj *)type_new_builtin("float", T_object, TID_FLOAT, TPF_BASETYPE | TPF_MATCH_SELF);
    t->tp_repr = float_tp_repr;
    t->tp_str = float_tp_repr;
    t->tp_hash = float_tp_hash;
    t->tp_richcompare = float_richcompare;
    t->tp_bool = float_tp_bool;
    t->tp_new = float_tp_new;
    t->nb[NB_ADD] = float_nb_add;
    t->nb[NB_SUB] = float_nb_sub;
    t->nb[NB_MUL] = float_nb_mul;
    t->nb[NB_TRUEDIV] = float_nb_truediv;
    t->nb[NB_FLOORDIV] = float_nb_floordiv;
    t->nb[NB_MOD] = float_nb_mod;
    t->nb[NB_POW] = float_nb_pow;
    t->nb[NB_DIVMOD] = float_nb_divmod;
    t->nb_neg = float_nb_neg;
    t->nb_pos = float_exact;
    t->nb_abs = float_nb_abs;
    t->nb_int = float_nb_int;
    t->nb_float = float_exact;
    type_add_methods(t, float_methods);
    type_add_getset(t, "real", float_get_real, NULL);
    type_add_getset(t, "imag", float_get_imag, NULL);
    type_ready(t);
}
