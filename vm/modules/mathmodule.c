/* mathmodule.c: the math module. Float functions follow CPython's error
 * rules: a nan result from a non-nan argument is "math domain error"
 * (ValueError); an infinite result from a finite argument is "math range
 * error" (OverflowError) where the function can overflow, a domain error
 * where it cannot (log(0)). Integer functions (factorial, comb, gcd, isqrt)
 * are exact, in int.c. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "objects/objects.h"
#include "objects/numbers.h"

static Obj domain_error(void)
{
    err_set(E_ValueError, "math domain error");
    return NULL;
}

static Obj range_error(void)
{
    err_set(E_OverflowError, "math range error");
    return NULL;
}

static inline int to_double(Obj v, double *out)
{
    if (IS_FLOAT(v)) {
        *out = FLOAT_VAL(v);
        return 0;
    }
    return vm_as_double(v, out);
}

/* One float argument, f(x), CPython's error classification. */
static Obj math_1(Obj *args, size_t nargs, Obj kwnames, const char *name, double (*f)(double), bool can_overflow)
{
    double x;
    if (to_double(args[0], &x) < 0)
        return NULL;
    double r = f(x);
    if (isnan(r) && !isnan(x))
        return domain_error();
    if (isinf(r) && isfinite(x))
        return can_overflow ? range_error() : domain_error();
    return float_new(r);
}

#define MATH1(name, cfn, ovf)                                               \
    static Obj m_##name(Obj *args, size_t nargs, Obj kwnames)               \
    {                                                                       \
        return math_1(args, nargs, kwnames, #name, cfn, ovf);               \
    }

MATH1(sqrt, sqrt, false)
MATH1(exp, exp, true)
MATH1(exp2, exp2, true)
MATH1(expm1, expm1, true)
MATH1(log1p, log1p, false)
MATH1(fabs, fabs, false)
MATH1(sin, sin, false)
MATH1(cos, cos, false)
MATH1(tan, tan, false)
MATH1(asin, asin, false)
MATH1(acos, acos, false)
MATH1(atan, atan, false)
MATH1(sinh, sinh, true)
MATH1(cosh, cosh, true)
MATH1(tanh, tanh, false)
MATH1(asinh, asinh, false)
MATH1(acosh, acosh, false)
MATH1(atanh, atanh, false)
MATH1(erf, erf, false)
MATH1(erfc, erfc, false)
MATH1(cbrt, cbrt, false)

/* degrees/radians: plain products, no range checks (as CPython) */
static Obj scaled(Obj *args, size_t nargs, Obj kwnames, const char *name, double factor)
{
    double x;
    if (to_double(args[0], &x) < 0)
        return NULL;
    return float_new(x * factor);
}
static Obj m_degrees(Obj *args, size_t nargs, Obj kwnames) { return scaled(args, nargs, kwnames, "degrees", 180.0 / M_PI); }
static Obj m_radians(Obj *args, size_t nargs, Obj kwnames) { return scaled(args, nargs, kwnames, "radians", M_PI / 180.0); }

/* ------------------------------------------------------------------ */
/* gamma and lgamma: the Lanczos approximation (g = 6.0246800407767296, */
/* 13 terms, Boost's lanczos13m53 coefficients) as CPython computes it, */
/* so that results agree to the last bit.                               */
/* ------------------------------------------------------------------ */
#define LANCZOS_N 13
static const double lanczos_g = 6.024680040776729583740234375;
static const double lanczos_g_minus_half = 5.524680040776729583740234375;
static const double lanczos_num[LANCZOS_N] = {
    23531376880.410759688572007674451636754734846804940,
    42919803642.649098768957899047001988850926355848959,
    35711959237.355668049440185451547166705960488635843,
    17921034426.037209699919755754458931112671403265390,
    6039542586.3520280050642916443072979210699388420708,
    1439720407.3117216736632230727949123939715485786772,
    248874557.86205415651146038641322942321632125127801,
    31426415.585400194380614231628318205362874684987640,
    2876370.6289353724412254090516208496135991145378768,
    186056.26539522349504029498971604569928220784236328,
    8071.6720023658162106380029022722506138218516325024,
    210.82427775157934587250973392071336271166969580291,
    2.5066282746310002701649081771338373386264310793408,
};
/* x (x+1) ... (x+11) */
static const double lanczos_den[LANCZOS_N] = {
    0.0, 39916800.0, 120543840.0, 150917976.0, 105258076.0, 45995730.0,
    13339535.0, 2637558.0, 357423.0, 32670.0, 1925.0, 66.0, 1.0,
};

/* The rational function num(x)/den(x), in x for small x, in 1/x for large
 * x (no overflow). */
static double lanczos_sum(double x)
{
    double num = 0.0, den = 0.0;
    if (x < 5.0) {
        for (int i = LANCZOS_N - 1; i >= 0; i--) {
            num = num * x + lanczos_num[i];
            den = den * x + lanczos_den[i];
        }
    } else {
        for (int i = 0; i < LANCZOS_N; i++) {
            num = num / x + lanczos_num[i];
            den = den / x + lanczos_den[i];
        }
    }
    return num / den;
}

/* sin(pi * x) with the argument reduced first (exact zeros at integers). */
static double sinpi(double x)
{
    double y = fmod(fabs(x), 2.0);
    int n = (int)round(2.0 * y);
    double r;
    switch (n) {
    case 0: r = sin(M_PI * y); break;
    case 1: r = cos(M_PI * (y - 0.5)); break;
    case 2: r = sin(M_PI * (1.0 - y)); break;
    case 3: r = -cos(M_PI * (y - 1.5)); break;
    default: r = sin(M_PI * (y - 2.0)); break;
    }
    return copysign(1.0, x) * r;
}

/* gamma(k) for integral k in 1..23: exact factorials */
static const double gamma_integral[23] = {
    1.0, 1.0, 2.0, 6.0, 24.0, 120.0, 720.0, 5040.0, 40320.0, 362880.0, 3628800.0, 39916800.0,
    479001600.0, 6227020800.0, 87178291200.0, 1307674368000.0, 20922789888000.0,
    355687428096000.0, 6402373705728000.0, 121645100408832000.0, 2432902008176640000.0,
    51090942171709440000.0, 1124000727777607680000.0,
};

/* *err: 0, EDOM or ERANGE */
static double tgamma_py(double x, int *err)
{
    *err = 0;
    if (!isfinite(x)) {
        if (isnan(x) || x > 0)
            return x;
        *err = EDOM;
        return NAN;
    }
    if (x == 0) {
        *err = EDOM;
        return copysign(INFINITY, x);
    }
    if (x == floor(x)) {
        if (x < 0) {
            *err = EDOM;
            return NAN;
        }
        if (x <= 23)
            return gamma_integral[(int)x - 1];
    }
    double absx = fabs(x);
    if (absx < 1e-20) {
        double r = 1.0 / x;
        if (isinf(r))
            *err = ERANGE;
        return r;
    }
    if (absx > 200.0) {
        if (x < 0)
            return 0.0 / sinpi(x);
        *err = ERANGE;
        return INFINITY;
    }
    /* y = absx + g - 1/2, with z the rounding error of that sum */
    double y = absx + lanczos_g_minus_half, q, z, r;
    if (absx > lanczos_g_minus_half) {
        q = y - absx;
        z = q - lanczos_g_minus_half;
    } else {
        q = y - lanczos_g_minus_half;
        z = q - absx;
    }
    z = z * lanczos_g / y;
    if (x < 0) {
        r = -M_PI / sinpi(absx) / absx * exp(y) / lanczos_sum(absx);
        r -= z * r;
        if (absx < 140.0)
            r /= pow(y, absx - 0.5);
        else {
            double sq = pow(y, absx / 2.0 - 0.25);
            r /= sq;
            r /= sq;
        }
    } else {
        r = lanczos_sum(absx) / exp(y);
        r += z * r;
        if (absx < 140.0)
            r *= pow(y, absx - 0.5);
        else {
            double sq = pow(y, absx / 2.0 - 0.25);
            r *= sq;
            r *= sq;
        }
    }
    if (isinf(r))
        *err = ERANGE;
    return r;
}

static double lgamma_py(double x, int *err)
{
    *err = 0;
    if (!isfinite(x))
        return isnan(x) ? x : INFINITY;
    if (x == floor(x) && x <= 2.0) {
        if (x <= 0.0) {
            *err = EDOM;
            return INFINITY;
        }
        return 0.0;                               /* lgamma(1) == lgamma(2) == 0 */
    }
    double absx = fabs(x);
    if (absx < 1e-20)
        return -log(absx);
    double r = log(lanczos_sum(absx)) - lanczos_g;
    r += (absx - 0.5) * (log(absx + lanczos_g - 0.5) - 1);
    if (x < 0)
        r = 1.144729885849400174143427351353058711647 /* log(pi) */ - log(fabs(sinpi(absx))) - log(absx) - r;
    if (isinf(r))
        *err = ERANGE;
    return r;
}

static Obj math_gamma_like(Obj *args, size_t nargs, Obj kwnames, const char *name, double (*f)(double, int *))
{
    double x;
    if (to_double(args[0], &x) < 0)
        return NULL;
    int err;
    double r = f(x, &err);
    if (err == EDOM || (isnan(r) && !isnan(x)))
        return domain_error();
    if ((err == ERANGE && fabs(r) >= 1.5) || (isinf(r) && isfinite(x)))
        return range_error();
    return float_new(r);
}
static Obj m_gamma(Obj *args, size_t nargs, Obj kwnames) { return math_gamma_like(args, nargs, kwnames, "gamma", tgamma_py); }
static Obj m_lgamma(Obj *args, size_t nargs, Obj kwnames) { return math_gamma_like(args, nargs, kwnames, "lgamma", lgamma_py); }

/* ------------------------------------------------------------------ */
/* Two-argument float functions                                        */
/* ------------------------------------------------------------------ */
static int two_doubles(const char *name, Obj *args, size_t nargs, Obj kwnames, double *x, double *y)
{
    if (to_double(args[0], x) < 0 || to_double(args[1], y) < 0)
        return -1;
    return 0;
}

static Obj m_atan2(Obj *args, size_t nargs, Obj kwnames)
{
    double y, x;
    if (two_doubles("atan2", args, nargs, kwnames, &y, &x) < 0)
        return NULL;
    return float_new(atan2(y, x));
}

static Obj m_copysign(Obj *args, size_t nargs, Obj kwnames)
{
    double x, y;
    if (two_doubles("copysign", args, nargs, kwnames, &x, &y) < 0)
        return NULL;
    return float_new(copysign(x, y));
}

static Obj m_fmod(Obj *args, size_t nargs, Obj kwnames)
{
    double x, y;
    if (two_doubles("fmod", args, nargs, kwnames, &x, &y) < 0)
        return NULL;
    if (isinf(y) && isfinite(x))
        return float_new(x);
    double r = fmod(x, y);
    if (isnan(r) && !isnan(x) && !isnan(y))
        return domain_error();
    return float_new(r);
}

static Obj m_remainder(Obj *args, size_t nargs, Obj kwnames)
{
    double x, y;
    if (two_doubles("remainder", args, nargs, kwnames, &x, &y) < 0)
        return NULL;
    double r = remainder(x, y);
    if (isnan(r) && !isnan(x) && !isnan(y))
        return domain_error();
    return float_new(r);
}

static Obj m_pow(Obj *args, size_t nargs, Obj kwnames)
{
    double x, y;
    if (two_doubles("pow", args, nargs, kwnames, &x, &y) < 0)
        return NULL;
    double r = pow(x, y);                         /* C99's special values are Python's */
    if (isfinite(x) && isfinite(y)) {
        if (isnan(r) || (x == 0 && y < 0))
            return domain_error();
        if (isinf(r))
            return range_error();
    }
    return float_new(r);
}

static Obj m_nextafter(Obj *args, size_t nargs, Obj kwnames)
{
    double x, y;
    if (two_doubles("nextafter", args, nargs, kwnames, &x, &y) < 0)
        return NULL;
    return float_new(nextafter(x, y));
}

static Obj m_ulp(Obj *args, size_t nargs, Obj kwnames)
{
    double x;
    if (to_double(args[0], &x) < 0)
        return NULL;
    if (isnan(x) || isinf(x))
        return float_new(fabs(x));
    x = fabs(x);
    double up = nextafter(x, INFINITY);
    if (isinf(up))
        return float_new(x - nextafter(x, -INFINITY));
    return float_new(up - x);
}

static Obj m_isnan(Obj *args, size_t nargs, Obj kwnames)
{
    double x;
    if (to_double(args[0], &x) < 0)
        return NULL;
    return vm_bool(isnan(x));
}
static Obj m_isinf(Obj *args, size_t nargs, Obj kwnames)
{
    double x;
    if (to_double(args[0], &x) < 0)
        return NULL;
    return vm_bool(isinf(x));
}
static Obj m_isfinite(Obj *args, size_t nargs, Obj kwnames)
{
    double x;
    if (to_double(args[0], &x) < 0)
        return NULL;
    return vm_bool(isfinite(x));
}

static Obj m_isclose(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"a", "b", "rel_tol", "abs_tol", NULL};
    Obj *r = vm_roots(4);
    Obj res = NULL;
    double a, b, rel_tol = 1e-09, abs_tol = 0.0;
    if (vm_parse_args("isclose", args, nargs, kwnames, names, 2, 2, r) < 0 || to_double(r[0], &a) < 0 ||
        to_double(r[1], &b) < 0 || (r[2] && to_double(r[2], &rel_tol) < 0) ||
        (r[3] && to_double(r[3], &abs_tol) < 0))
        goto done;
    if (rel_tol < 0.0 || abs_tol < 0.0) {
        err_set(E_ValueError, "tolerances must be non-negative");
        goto done;
    }
    if (a == b)
        res = g_True;
    else if (isinf(a) || isinf(b))
        res = g_False;
    else {
        double diff = fabs(b - a);
        res = vm_bool(diff <= fabs(rel_tol * b) || diff <= fabs(rel_tol * a) || diff <= abs_tol);
    }
done:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* frexp, ldexp, modf                                                  */
/* ------------------------------------------------------------------ */
static Obj m_frexp(Obj *args, size_t nargs, Obj kwnames)
{
    double x;
    if (to_double(args[0], &x) < 0)
        return NULL;
    int e = 0;
    double m = x;
    if (isfinite(x) && x != 0)
        m = frexp(x, &e);
    Obj f = float_new(m);
    if (!f)
        return NULL;
    return tuple_pack(2, f, MAKE_SMALLINT(e));
}

static Obj m_ldexp(Obj *args, size_t nargs, Obj kwnames)
{
    double x;
    if (to_double(args[0], &x) < 0)
        return NULL;
    Obj i = vm_unwrap(args[1]);
    if (!IS_INT(i)) {
        err_set(E_TypeError, "Expected an int as second argument to ldexp.");
        return NULL;
    }
    int64_t e;
    int_as_i64_saturated(i, &e);
    if (x == 0 || !isfinite(x))
        return float_new(x);
    if (e > 100000)
        return range_error();
    if (e < -100000)
        return float_new(copysign(0.0, x));
    double r = ldexp(x, (int)e);
    if (isinf(r))
        return range_error();
    return float_new(r);
}

static Obj m_modf(Obj *args, size_t nargs, Obj kwnames)
{
    double x, ip, fp;
    if (to_double(args[0], &x) < 0)
        return NULL;
    if (isinf(x)) {
        ip = x;
        fp = copysign(0.0, x);
    } else
        fp = modf(x, &ip);
    Obj *r = vm_roots(2);
    Obj res = NULL;
    if ((r[0] = float_new(fp)) && (r[1] = float_new(ip)))
        res = tuple_pack(2, r[0], r[1]);
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* floor, ceil, trunc: ints; other types through __floor__ etc.        */
/* ------------------------------------------------------------------ */
static Obj round_to_int(Obj *args, size_t nargs, Obj kwnames, const char *name, const char *dunder,
                        double (*f)(double))
{
    Obj v = args[0];
    if (IS_FLOAT(v))
        return int_from_double(f(FLOAT_VAL(v)));
    if (IS_INT(v))
        return int_exact(v);
    Obj m = vm_lookup_special(v, dunder);
    if (m)
        return vm_call1(m, args[0]);
    if (err_occurred())
        return NULL;
    if (f == trunc) {
        err_format(E_TypeError, "type %s doesn't define __trunc__ method", type_name(v));
        return NULL;
    }
    double x;
    if (to_double(args[0], &x) < 0)
        return NULL;
    return int_from_double(f(x));
}
static Obj m_floor(Obj *args, size_t nargs, Obj kwnames) { return round_to_int(args, nargs, kwnames, "floor", "__floor__", floor); }
static Obj m_ceil(Obj *args, size_t nargs, Obj kwnames) { return round_to_int(args, nargs, kwnames, "ceil", "__ceil__", ceil); }
static Obj m_trunc(Obj *args, size_t nargs, Obj kwnames) { return round_to_int(args, nargs, kwnames, "trunc", "__trunc__", trunc); }

/* ------------------------------------------------------------------ */
/* Logarithms (ints of any size)                                       */
/* ------------------------------------------------------------------ */
/* f(x) for an int or float x > 0; huge ints through their frexp. */
static int log_helper(Obj v, double (*f)(double), double *out)
{
    Obj u = vm_unwrap(v);
    if (IS_INT(u)) {
        if (int_sign(u) <= 0) {
            domain_error();
            return -1;
        }
        double x;
        if (int_bit_length(u) <= 1024) {
            Obj *r = vm_roots(1);
            r[0] = u;
            int rc = int_as_double(u, &x);
            u = r[0];
            vm_unroots(r);
            if (rc == 0) {
                *out = f(x);
                return 0;
            }
            err_clear();                          /* rounds up to 2**1024: use frexp */
        }
        int64_t e;
        double m = int_frexp(u, &e);
        *out = f(m) + f(2.0) * (double)e;
        return 0;
    }
    double x;
    if (to_double(v, &x) < 0)
        return -1;
    if (isnan(x)) {
        *out = x;
        return 0;
    }
    if (x <= 0) {
        domain_error();
        return -1;
    }
    *out = f(x);
    return 0;
}

static Obj m_log(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs < 1 || nargs > 2) {   /* CPython's own wording for log */
        err_set(E_TypeError, "math.log requires 1 to 2 arguments");
        return NULL;
    }
    double num, den;
    if (log_helper(args[0], log, &num) < 0)
        return NULL;
    if (nargs == 1)
        return float_new(num);
    if (log_helper(args[1], log, &den) < 0)
        return NULL;
    if (den == 0) {
        err_set(E_ZeroDivisionError, "float division by zero");
        return NULL;
    }
    return float_new(num / den);
}

static Obj m_log2(Obj *args, size_t nargs, Obj kwnames)
{
    double r;
    if (log_helper(args[0], log2, &r) < 0)
        return NULL;
    return float_new(r);
}

static Obj m_log10(Obj *args, size_t nargs, Obj kwnames)
{
    double r;
    if (log_helper(args[0], log10, &r) < 0)
        return NULL;
    return float_new(r);
}

/* ------------------------------------------------------------------ */
/* hypot, dist: CPython's vector norm (scaled, compensated sum of      */
/* squares, one correction step): accurate to the last bit.            */
/* ------------------------------------------------------------------ */
static double vector_norm(size_t n, double *v, double max, bool found_nan)
{
    if (isinf(max))
        return max;
    if (found_nan)
        return NAN;
    if (max == 0.0 || n <= 1)
        return max;
    int max_e;
    frexp(max, &max_e);
    if (max_e < -1023) {
        /* tiny values: scale them into the normal range first */
        for (size_t i = 0; i < n; i++)
            v[i] /= DBL_MIN;
        return DBL_MIN * vector_norm(n, v, max / DBL_MIN, found_nan);
    }
    double scale = ldexp(1.0, -max_e);
    double csum = 1.0, frac1 = 0.0, frac2 = 0.0;
    for (size_t i = 0; i < n; i++) {
        double x = v[i] * scale;                  /* exact: |x| < 1 */
        double hi = x * x, lo = fma(x, x, -hi);   /* exact square */
        double s = csum + hi;                     /* exact sum: csum >= 1 > hi */
        frac2 += (csum - s) + hi;
        csum = s;
        frac1 += lo;
    }
    double h = sqrt(csum - 1.0 + (frac1 + frac2));
    double hi = -h * h, lo = fma(-h, h, -hi);
    double s = csum + hi;
    frac2 += (csum - s) + hi;
    csum = s;
    frac1 += lo;
    double x = csum - 1.0 + (frac1 + frac2);
    h += x / (2.0 * h);                           /* one Newton step on the residual */
    return h / scale;
}

enum { NORM_STACK = 16 };

static Obj m_hypot(Obj *args, size_t nargs, Obj kwnames)
{
    double local[NORM_STACK];
    double *v = nargs <= NORM_STACK ? local : malloc(nargs * sizeof(double));
    if (!v)
        return err_nomemory();
    double max = 0.0;
    bool found_nan = false;
    for (size_t i = 0; i < nargs; i++) {
        double x;
        if (to_double(args[i], &x) < 0) {
            if (v != local)
                free(v);
            return NULL;
        }
        x = fabs(x);
        v[i] = x;
        found_nan |= isnan(x);
        if (x > max)
            max = x;
    }
    double r = vector_norm(nargs, v, max, found_nan);
    if (v != local)
        free(v);
    return float_new(r);
}

static Obj m_dist(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    double *v = NULL;
    r[0] = IS_TUPLE(args[0]) ? args[0] : vm_tuple_from_iter(args[0]);
    if (!r[0])
        goto done;
    r[1] = IS_TUPLE(args[1]) ? args[1] : vm_tuple_from_iter(args[1]);
    if (!r[1])
        goto done;
    int64_t n = TUPLE_LEN(r[0]);
    if (n != TUPLE_LEN(r[1])) {
        err_set(E_ValueError, "both points must have the same number of dimensions");
        goto done;
    }
    v = malloc(((size_t)n + 1) * sizeof(double));
    if (!v) {
        err_nomemory();
        goto done;
    }
    double max = 0.0;
    bool found_nan = false;
    for (int64_t i = 0; i < n; i++) {
        double p, q;
        if (to_double(TUPLE_ITEMS(r[0])[i], &p) < 0 || to_double(TUPLE_ITEMS(r[1])[i], &q) < 0)
            goto done;
        double x = fabs(p - q);
        v[i] = x;
        found_nan |= isnan(x);
        if (x > max)
            max = x;
    }
    res = float_new(vector_norm((size_t)n, v, max, found_nan));
done:
    free(v);
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* fsum: exact sum of the partials (Shewchuk), rounded once             */
/* ------------------------------------------------------------------ */
static Obj m_fsum(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    size_t n = 0, cap = 32;
    double *p = malloc(cap * sizeof(double));
    double special_sum = 0.0, inf_sum = 0.0;
    if (!p) {
        err_nomemory();
        goto done;
    }
    if (!(r[0] = vm_iter(args[0])))
        goto done;
    while ((r[1] = vm_next(r[0]))) {
        double x;
        if (to_double(r[1], &x) < 0)
            goto done;
        double xsave = x;
        size_t k = 0;
        for (size_t j = 0; j < n; j++) {
            double y = p[j];
            if (fabs(x) < fabs(y)) {
                double t = x;
                x = y;
                y = t;
            }
            double hi = x + y, lo = y - (hi - x);
            if (lo != 0.0)
                p[k++] = lo;
            x = hi;
        }
        n = k;
        if (x != 0.0) {
            if (!isfinite(x)) {
                /* an inf or nan in the input, or an intermediate overflow */
                if (isfinite(xsave)) {
                    err_set(E_OverflowError, "intermediate overflow in fsum");
                    goto done;
                }
                if (isinf(xsave))
                    inf_sum += xsave;
                special_sum += xsave;
                n = 0;
            } else {
                if (n == cap) {
                    double *q = realloc(p, (cap *= 2) * sizeof(double));
                    if (!q) {
                        err_nomemory();
                        goto done;
                    }
                    p = q;
                }
                p[n++] = x;
            }
        }
    }
    if (err_occurred())
        goto done;
    if (special_sum != 0.0) {
        if (isnan(inf_sum)) {
            err_set(E_ValueError, "-inf + inf in fsum");
            goto done;
        }
        res = float_new(special_sum);
        goto done;
    }
    double hi = 0.0;
    if (n > 0) {
        double lo = 0.0;
        hi = p[--n];
        /* add from the top until the sum becomes inexact */
        while (n > 0) {
            double x = hi, y = p[--n];
            hi = x + y;
            lo = y - (hi - x);
            if (lo != 0.0)
                break;
        }
        /* half-way case: the rest decides the rounding direction */
        if (n > 0 && ((lo < 0.0 && p[n - 1] < 0.0) || (lo > 0.0 && p[n - 1] > 0.0))) {
            double y = lo * 2.0, x = hi + y;
            if (y == x - hi)
                hi = x;
        }
    }
    res = float_new(hi);
done:
    free(p);
    vm_unroots(r);
    return res;
}

/* prod(iterable, *, start=1) */
static Obj m_prod(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"iterable", "start", NULL};
    Obj *r = vm_roots(4);
    Obj res = NULL;
    if (vm_parse_args("prod", args, nargs, kwnames, names, 1, 1, r) < 0)
        goto done;
    r[2] = r[1] ? r[1] : MAKE_SMALLINT(1);
    if (!(r[0] = vm_iter(r[0])))
        goto done;
    while ((r[3] = vm_next(r[0]))) {
        Obj a = r[2], b = r[3];
        if (IS_SMALLINT(a) && IS_SMALLINT(b))
            r[2] = int_mul(a, b);
        else if (IS_FLOAT(a) && IS_FLOAT(b))
            r[2] = float_new(FLOAT_VAL(a) * FLOAT_VAL(b));
        else
            r[2] = vm_binop(a, b, NB_MUL);
        if (!r[2])
            goto done;
    }
    if (!err_occurred())
        res = r[2];
done:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* Integer functions                                                   */
/* ------------------------------------------------------------------ */
static Obj m_factorial(Obj *args, size_t nargs, Obj kwnames)
{
    Obj n = vm_index(args[0]);
    return n ? int_factorial(n) : NULL;
}

static Obj m_isqrt(Obj *args, size_t nargs, Obj kwnames)
{
    Obj n = vm_index(args[0]);
    return n ? int_isqrt(n) : NULL;
}

/* gcd / lcm of any number of ints */
static Obj gcd_lcm(Obj *args, size_t nargs, Obj kwnames, bool lcm)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = MAKE_SMALLINT(lcm ? 1 : 0);
    for (size_t i = 0; i < nargs; i++) {
        if (!(r[1] = vm_index(args[i])))
            goto done;
        if (lcm && int_is_zero(r[0]))
            continue;                             /* still check the rest are ints */
        if (!(r[0] = lcm ? int_lcm(r[0], r[1]) : int_gcd(r[0], r[1])))
            goto done;
    }
    res = nargs == 1 ? int_abs(r[0]) : r[0];
done:
    vm_unroots(r);
    return res;
}
static Obj m_gcd(Obj *args, size_t nargs, Obj kwnames) { return gcd_lcm(args, nargs, kwnames, false); }
static Obj m_lcm(Obj *args, size_t nargs, Obj kwnames) { return gcd_lcm(args, nargs, kwnames, true); }

static Obj comb_perm_args(Obj *args, size_t nargs, Obj kwnames, bool perm)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    if (!(r[0] = vm_index(args[0])))
        goto done;
    if (perm && (nargs == 1 || IS_NONE(args[1]))) {
        if (int_sign(r[0]) < 0)
            err_set(E_ValueError, "n must be a non-negative integer");
        else
            res = int_factorial(r[0]);
        goto done;
    }
    if (!(r[1] = vm_index(args[1])))
        goto done;
    if (int_sign(r[0]) < 0)
        err_set(E_ValueError, "n must be a non-negative integer");
    else if (int_sign(r[1]) < 0)
        err_set(E_ValueError, "k must be a non-negative integer");
    else
        res = perm ? int_perm(r[0], r[1]) : int_comb(r[0], r[1]);
done:
    vm_unroots(r);
    return res;
}
static Obj m_comb(Obj *args, size_t nargs, Obj kwnames) { return comb_perm_args(args, nargs, kwnames, false); }
static Obj m_perm(Obj *args, size_t nargs, Obj kwnames) { return comb_perm_args(args, nargs, kwnames, true); }

/* ------------------------------------------------------------------ */
static const MethodDef math_functions[] = {
    {"sqrt", m_sqrt, METH_O, "Return the square root of x."},
    {"exp", m_exp, METH_O, "Return e raised to the power of x."},
    {"exp2", m_exp2, METH_O, "Return 2 raised to the power of x."},
    {"expm1", m_expm1, METH_O, "Return exp(x)-1."},
    {"log", m_log, METH_BARENAME, "log(x, [base=math.e])"},
    {"log2", m_log2, METH_O, "Return the base 2 logarithm of x."},
    {"log10", m_log10, METH_O, "Return the base 10 logarithm of x."},
    {"log1p", m_log1p, METH_O, "Return the natural logarithm of 1+x (base e)."},
    {"pow", m_pow, METH_ARGS(2, 2), "Return x**y (x to the power of y)."},
    {"fabs", m_fabs, METH_O, "Return the absolute value of the float x."},
    {"floor", m_floor, METH_O, "Return the floor of x as an Integral."},
    {"ceil", m_ceil, METH_O, "Return the ceiling of x as an Integral."},
    {"trunc", m_trunc, METH_O, "Truncates the Real x to the nearest Integral toward 0."},
    {"sin", m_sin, METH_O, NULL},
    {"cos", m_cos, METH_O, NULL},
    {"tan", m_tan, METH_O, NULL},
    {"asin", m_asin, METH_O, NULL},
    {"acos", m_acos, METH_O, NULL},
    {"atan", m_atan, METH_O, NULL},
    {"atan2", m_atan2, METH_ARGS(2, 2), NULL},
    {"sinh", m_sinh, METH_O, NULL},
    {"cosh", m_cosh, METH_O, NULL},
    {"tanh", m_tanh, METH_O, NULL},
    {"asinh", m_asinh, METH_O, NULL},
    {"acosh", m_acosh, METH_O, NULL},
    {"atanh", m_atanh, METH_O, NULL},
    {"hypot", m_hypot, 0, "Multidimensional Euclidean distance from the origin to a point."},
    {"dist", m_dist, METH_ARGS(2, 2), "Return the Euclidean distance between two points p and q."},
    {"degrees", m_degrees, METH_O, "Convert angle x from radians to degrees."},
    {"radians", m_radians, METH_O, "Convert angle x from degrees to radians."},
    {"copysign", m_copysign, METH_ARGS(2, 2), NULL},
    {"fmod", m_fmod, METH_ARGS(2, 2), NULL},
    {"remainder", m_remainder, METH_ARGS(2, 2), NULL},
    {"modf", m_modf, METH_O, NULL},
    {"frexp", m_frexp, METH_O, NULL},
    {"ldexp", m_ldexp, METH_ARGS(2, 2), NULL},
    {"isnan", m_isnan, METH_O, NULL},
    {"isinf", m_isinf, METH_O, NULL},
    {"isfinite", m_isfinite, METH_O, NULL},
    {"isclose", m_isclose, METH_KW, NULL},
    {"gcd", m_gcd, 0, "Greatest Common Divisor."},
    {"lcm", m_lcm, 0, "Least Common Multiple."},
    {"factorial", m_factorial, METH_O, "Find n!."},
    {"comb", m_comb, METH_ARGS(2, 2), NULL},
    {"perm", m_perm, METH_ARGS(1, 2), NULL},
    {"isqrt", m_isqrt, METH_O, NULL},
    {"fsum", m_fsum, METH_O, NULL},
    {"prod", m_prod, METH_KW, NULL},
    {"erf", m_erf, METH_O, NULL},
    {"erfc", m_erfc, METH_O, NULL},
    {"gamma", m_gamma, METH_O, NULL},
    {"lgamma", m_lgamma, METH_O, NULL},
    {"cbrt", m_cbrt, METH_O, NULL},
    {"nextafter", m_nextafter, METH_ARGS(2, 2), NULL},
    {"ulp", m_ulp, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

Obj math_module_init(void)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    if (!(r[0] = module_new("math")))
        goto done;
    static const struct { const char *name; double v; } consts[] = {
        {"pi", M_PI}, {"e", M_E}, {"tau", 2 * M_PI}, {"inf", INFINITY}, {"nan", NAN},
    };
    for (size_t i = 0; i < ARRAY_LEN(consts); i++)
        if (!(r[1] = float_new(consts[i].v)) || module_add(r[0], consts[i].name, r[1]) < 0)
            goto done;
    module_add_functions(r[0], math_functions);
    res = r[0];
done:
    vm_unroots(r);
    return res;
}
