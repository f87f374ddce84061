/* numbers.h: what int.c, float.c, complex.c and mathmodule.c offer beyond tmpy.h.
 * (The core int_* / float_* API is declared in tmpy.h.) */
#ifndef TMPY_NUMBERS_H
#define TMPY_NUMBERS_H

#include "tmpy.h"

/* ---- The core int / float / complex API ---- */
Obj int_from_i64(int64_t v);
Obj int_from_u64(uint64_t v);
Obj int_from_double(double d);            /* truncates; OverflowError for inf, ValueError for nan */
int int_as_i64(Obj v, int64_t *out);      /* int/bool; -1 with OverflowError if too big */
int int_as_double(Obj v, double *out);    /* -1 with OverflowError */
Obj int_from_string(const char *s, size_t len, int base);  /* int('...', base) semantics (underscores, sign, spaces); ValueError */
Obj int_to_string(Obj v, int base);       /* str: decimal or '0x..' style for 16/8/2 (hex/oct/bin) */
int int_sign(Obj v);                      /* -1, 0, 1 */
int int_compare(Obj a, Obj b);            /* -1, 0, 1 for ints/bools */
Obj int_add(Obj a, Obj b);  Obj int_sub(Obj a, Obj b);  Obj int_mul(Obj a, Obj b);
Obj int_floordiv(Obj a, Obj b);  Obj int_mod(Obj a, Obj b);  Obj int_pow(Obj a, Obj b, Obj mod /* or NULL */);
int64_t int_hash(Obj v);
Obj float_new(double d);
int64_t float_hash(double d);             /* equal to int_hash for integral values */
/* Shortest repr that round-trips ('1.0', '0.1', '1e+16', 'inf', 'nan'). buf >= 32 bytes. */
void float_repr_buf(double d, char *buf);
Obj float_repr_obj(double d);
/* complex.c (more in objects/numbers.h) */
Obj complex_new(double real, double imag);

/* ---- int.c ---- */

/* CPython 3.11's limit on decimal str<->int conversions (0: no limit).
 * sys.set_int_max_str_digits / sys.get_int_max_str_digits use these. */
extern int64_t int_max_str_digits;
#define INT_MAX_STR_DIGITS_DEFAULT 4300
#define INT_MAX_STR_DIGITS_THRESHOLD 640
int int_set_max_str_digits(int64_t n);     /* -1 + ValueError "maxdigits must be 0 or larger than 640" */
int64_t int_get_max_str_digits(void);

/* Arithmetic on ints/bools (unwrapped: no user-subclass instances). They
 * return a new int or NULL with an exception, never NotImplemented. */
Obj int_neg(Obj v);
Obj int_abs(Obj v);
Obj int_divmod(Obj a, Obj b);             /* (q, r) tuple */
Obj int_lshift(Obj a, Obj b);
Obj int_rshift(Obj a, Obj b);
Obj int_gcd(Obj a, Obj b);                /* non-negative */
Obj int_lcm(Obj a, Obj b);                /* non-negative */
Obj int_isqrt(Obj v);                     /* ValueError for negatives */
Obj int_factorial(Obj n);                 /* math.factorial's errors */
Obj int_comb(Obj n, Obj k);               /* n, k >= 0 */
Obj int_perm(Obj n, Obj k);               /* n, k >= 0 */
/* v > 0: v = m * 2**e with m in [0.5, 1) correctly rounded; returns m. */
double int_frexp(Obj v, int64_t *e);
uint64_t int_bit_length(Obj v);
bool int_is_zero(Obj v);
/* The int as an int64; false (and INT64_MAX/MIN by sign) if it does not fit. Never raises. */
bool int_as_i64_saturated(Obj v, int64_t *out);
bool int_is_odd(Obj v);
/* int(v) for an int, bool or int-subclass instance: the exact int value. */
Obj int_exact(Obj v);
/* Exact comparison of an int with a double: -1, 0, 1, or 2 if d is nan. */
int int_float_compare(Obj i, double d);
/* int(obj, base) for a str, bytes or bytearray (user subclasses unwrapped);
 * CPython's error messages (the literal's repr). base 0 or 2..36. */
Obj int_parse_object(Obj obj, int base);

/* Strip int()/float() whitespace (ASCII and Unicode spaces) from both ends
 * of UTF-8 text: advances *s, returns the new length. */
size_t num_strip(const char **s, size_t len);
/* CPython's first step for int()/float() of a str with non-ASCII text:
 * Unicode decimal digits become ASCII digits, Unicode spaces ' ', anything
 * else an invalid character. A malloc'd copy (free it), or NULL when s is
 * all ASCII (use s as it is) or on memory failure (the parse then fails). */
char *num_ascii_copy(const char *s, size_t len, size_t *outlen);

/* ---- float.c ---- */

/* float(obj) for a str, bytes or bytearray: ValueError "could not convert
 * string to float: ..." like CPython. */
Obj float_parse_object(Obj obj);
/* a ** b for doubles with Python's errors (ZeroDivisionError, OverflowError);
 * a negative a to a non-integral b gives a complex. */
Obj float_pow_double(double a, double b);

/* ---- complex.c ---- */

/* A complex value in C memory. */
typedef struct cplx { double re, im; } cplx;
/* The arithmetic of Python's complex (3.11: a real operand is first made
 * complex with a +0.0 imaginary part). Division is Smith's algorithm; a zero
 * divisor sets *err to CPLX_EDOM and gives 0. Powers: integral exponents up
 * to 100 in magnitude by repeated squaring, others through the polar form;
 * *err is CPLX_EDOM for 0 to a negative or complex power, CPLX_ERANGE when
 * the result has an infinite part. *err is left alone otherwise. */
enum { CPLX_OK, CPLX_EDOM, CPLX_ERANGE };
static inline cplx cplx_quot(cplx a, cplx b, int *err)
{
    /* Smith (1962): divide through by the larger part of b, so that the
     * intermediate quantities cannot overflow needlessly. (Inline: the
     * compiler folds constant quotients with it.) */
    double abr = b.re < 0 ? -b.re : b.re, abi = b.im < 0 ? -b.im : b.im;
    cplx r;
    if (abr >= abi) {
        if (abr == 0.0) {
            *err = CPLX_EDOM;
            r.re = r.im = 0.0;
            return r;
        }
        double t = b.im / b.re, den = b.re + b.im * t;
        r.re = (a.re + a.im * t) / den;
        r.im = (a.im - a.re * t) / den;
    } else if (abi > abr) {
        double t = b.re / b.im, den = b.re * t + b.im;
        r.re = (a.re * t + a.im) / den;
        r.im = (a.im * t - a.re) / den;
    } else {
        r.re = r.im = __builtin_nan("");   /* a nan in b */
    }
    return r;
}
/* |z|: inf if a part is infinite (even with a nan), else nan if a part is
 * nan, else hypot; *overflow set when finite parts give an infinite result. */
double cplx_abs(cplx z, bool *overflow);
Obj complex_from_cplx(cplx z);
/* The value of a complex argument of cmath (and complex()'s __complex__):
 * a complex (subclasses too), __complex__ (must return a complex), else a
 * real number (float, int, __float__, __index__: "must be real number, not
 * X"). 0, or -1 with an exception. */
int complex_arg(Obj v, cplx *out);
/* x ** y for doubles as complex (float's pow of a negative base to a
 * non-integral power): a complex, or NULL with OverflowError. */
Obj complex_pow_doubles(double x, double y);
/* The repr text of one part of a complex: float repr without a trailing
 * ".0" ('1', '-0', '1.5', '1e+16', 'inf', 'nan'). buf >= 32 bytes. */
void complex_part_repr(double d, char *buf);

/* ---- mathmodule.c ---- */
Obj math_module_init(void);

#endif
