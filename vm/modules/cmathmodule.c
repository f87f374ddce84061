/* cmathmodule.c: the cmath module, mathematical functions of complex numbers.
 *
 * Special values (an infinite or nan part) follow C99 Annex G (G.6): the
 * results it specifies, with the signs it leaves open chosen as CPython
 * chooses them; where Annex G says a function "raises the invalid
 * floating-point exception" (or divide-by-zero: log(0), atanh(+-1)) cmath
 * raises ValueError("math domain error"), and a finite argument with an
 * infinite result (exp, cosh, sinh, and cos, sin through them) raises
 * OverflowError("math range error"). Finite arguments use the usual
 * formulas, and for the inverse functions Kahan's ("Branch cuts for complex
 * elementary functions", 1987), which are exact on the branch cuts: the sign
 * of a zero imaginary part says on which side of a cut the argument lies. */
#include <float.h>
#include <math.h>

#include "objects/objects.h"
#include "objects/numbers.h"

#define INF INFINITY
#define PI M_PI
#define PI_2 (M_PI / 2)
#define PI_4 (M_PI / 4)
#define PI_3_4 (0.75 * M_PI)
/* Beyond LARGE a part is squared or added to its kin only after scaling. */
#define LARGE (DBL_MAX / 4)
#define SQRT_LARGE 6.703903964971298e+153       /* sqrt(DBL_MAX / 4) */
#define SQRT_DBL_MIN 1.4916681462400413e-154    /* sqrt(DBL_MIN) */
#define LOG_LARGE 708.3964185322641             /* log(LARGE): exp(x) <= LARGE below it */

enum { OK = CPLX_OK, EDOM_ = CPLX_EDOM, ERANGE_ = CPLX_ERANGE };

static inline cplx mk(double re, double im)
{
    cplx z = {re, im};
    return z;
}

static inline bool fin(double d) { return isfinite(d); }

/* The result of a finite argument: ERANGE_ if a part overflowed. */
static inline cplx range_checked(cplx r, int *err)
{
    if (isinf(r.re) || isinf(r.im))
        *err = ERANGE_;
    return r;
}

/* ------------------------------------------------------------------ */
/* sqrt                                                                */
/* ------------------------------------------------------------------ */
static cplx c_sqrt(cplx z, int *err)
{
    (void)err;
    double x = z.re, y = z.im;
    if (!fin(x) || !fin(y)) {
        if (isinf(y))
            return mk(INF, y);
        if (isinf(x)) {
            if (isnan(y))
                return x < 0 ? mk(NAN, INF) : mk(INF, NAN);
            return x < 0 ? mk(0.0, copysign(INF, y)) : mk(INF, copysign(0.0, y));
        }
        return mk(NAN, NAN);
    }
    if (x == 0.0 && y == 0.0)
        return mk(0.0, y);
    /* s = sqrt((|x| + |z|) / 2), computed with exact power-of-two scalings so
     * that neither overflow nor subnormal precision loss can happen. */
    double ax = fabs(x), ay = fabs(y), s;
    if (ax < DBL_MIN && ay < DBL_MIN) {
        double sx = ldexp(ax, 54), sy = ldexp(ay, 54);
        s = ldexp(sqrt((sx + hypot(sx, sy)) / 2.0), -27);
    } else {
        double sx = ax / 8.0, sy = ay / 8.0;
        s = 2.0 * sqrt(sx + hypot(sx, sy));
    }
    double d = ay / (2.0 * s);
    if (x >= 0.0)
        return mk(s, copysign(d, y));
    return mk(d, copysign(s, y));
}

/* ------------------------------------------------------------------ */
/* exp, log                                                            */
/* ------------------------------------------------------------------ */
static cplx c_exp(cplx z, int *err)
{
    double x = z.re, y = z.im;
    if (!fin(x) || !fin(y)) {
        if (isnan(x))
            return y == 0.0 ? mk(NAN, y) : mk(NAN, NAN);
        if (isinf(x) && x > 0) {
            if (isnan(y))
                return mk(INF, NAN);
            if (isinf(y)) {
                *err = EDOM_;
                return mk(INF, NAN);
            }
            if (y == 0.0)
                return mk(INF, y);
            return mk(INF * cos(y), INF * sin(y));
        }
        if (isinf(x))   /* -inf: +0 cis(y) */
            return fin(y) ? mk(0.0 * cos(y), 0.0 * sin(y)) : mk(0.0, 0.0);
        /* finite x */
        if (isinf(y))
            *err = EDOM_;
        return mk(NAN, NAN);
    }
    cplx r;
    if (x > LOG_LARGE) {
        double l = exp(x - 1.0);
        r = mk(l * cos(y) * M_E, l * sin(y) * M_E);
    } else {
        double l = exp(x);
        r = mk(l * cos(y), l * sin(y));
    }
    return range_checked(r, err);
}

/* log|z| for a finite z (|z| may be 0: -inf with EDOM_). */
static double log_abs(double x, double y, int *err)
{
    double ax = fabs(x), ay = fabs(y);
    if (ax > LARGE || ay > LARGE)
        return log(hypot(ax / 2.0, ay / 2.0)) + M_LN2;
    if (ax < DBL_MIN && ay < DBL_MIN) {
        if (ax == 0.0 && ay == 0.0) {
            *err = EDOM_;
            return -INF;
        }
        return log(hypot(ldexp(ax, DBL_MANT_DIG), ldexp(ay, DBL_MANT_DIG))) - DBL_MANT_DIG * M_LN2;
    }
    double h = hypot(ax, ay);
    if (h >= 0.71 && h <= 1.73) {
        /* near the unit circle: log1p of |z|^2 - 1, formed without cancellation */
        double big = ax > ay ? ax : ay, small = ax > ay ? ay : ax;
        return log1p((big - 1.0) * (big + 1.0) + small * small) / 2.0;
    }
    return log(h);
}

/* log and acosh of an argument with an infinite or nan part: Annex G gives
 * both the same values. */
static cplx log_special(double x, double y)
{
    if (isinf(y)) {
        if (isnan(x))
            return mk(INF, NAN);
        return mk(INF, copysign(isinf(x) ? (x > 0 ? PI_4 : PI_3_4) : PI_2, y));
    }
    if (isinf(x)) {
        if (isnan(y))
            return mk(INF, NAN);
        return mk(INF, copysign(x > 0 ? 0.0 : PI, y));
    }
    return mk(NAN, NAN);
}

/* log(2|z|) for a z beyond LARGE, scaled so that 2z cannot overflow: the
 * real part of acosh, asinh and -i acos there. */
static double log_2abs_large(double x, double y)
{
    return log(hypot(x / 2.0, y / 2.0)) + 2.0 * M_LN2;
}

static cplx c_log(cplx z, int *err)
{
    double x = z.re, y = z.im;
    if (!fin(x) || !fin(y))
        return log_special(x, y);
    double re = log_abs(x, y, err);
    return mk(re, atan2(y, x));
}

static cplx c_log10(cplx z, int *err)
{
    cplx r = c_log(z, err);
    return mk(r.re / M_LN10, r.im / M_LN10);
}

/* ------------------------------------------------------------------ */
/* Inverse functions                                                   */
/* ------------------------------------------------------------------ */
static cplx c_acos(cplx z, int *err)
{
    double x = z.re, y = z.im;
    if (!fin(x) || !fin(y)) {
        if (isinf(y)) {
            double re = isnan(x) ? NAN : isinf(x) ? (x > 0 ? PI_4 : PI_3_4) : PI_2;
            return mk(re, -y);
        }
        if (isinf(x)) {
            if (isnan(y))
                return mk(NAN, INF);
            return mk(x > 0 ? 0.0 : PI, -copysign(INF, y));
        }
        if (isnan(y) && x == 0.0)
            return mk(PI_2, NAN);
        return mk(NAN, NAN);
    }
    if (fabs(x) > LARGE || fabs(y) > LARGE) {
        /* acos z ~ -i log(2z) */
        return mk(atan2(fabs(y), x), copysign(log_2abs_large(x, y), -y));
    }
    cplx s1 = c_sqrt(mk(1.0 - x, -y), err);
    cplx s2 = c_sqrt(mk(1.0 + x, y), err);
    return mk(2.0 * atan2(s1.re, s2.re), asinh(s2.re * s1.im - s2.im * s1.re));
}

static cplx c_acosh(cplx z, int *err)
{
    double x = z.re, y = z.im;
    if (!fin(x) || !fin(y))
        return log_special(x, y);
    if (fabs(x) > LARGE || fabs(y) > LARGE)
        return mk(log_2abs_large(x, y), atan2(y, x));
    cplx s1 = c_sqrt(mk(x - 1.0, y), err);
    cplx s2 = c_sqrt(mk(x + 1.0, y), err);
    return mk(asinh(s1.re * s2.re + s1.im * s2.im), 2.0 * atan2(s1.im, s2.re));
}

static cplx c_asinh(cplx z, int *err)
{
    double x = z.re, y = z.im;
    if (!fin(x) || !fin(y)) {
        if (isinf(y)) {
            if (isnan(x))
                return mk(INF, NAN);
            return mk(copysign(INF, x), copysign(isinf(x) ? PI_4 : PI_2, y));
        }
        if (isinf(x))
            return mk(x, isnan(y) ? NAN : copysign(0.0, y));
        if (isnan(x) && y == 0.0)
            return mk(NAN, y);
        return mk(NAN, NAN);
    }
    if (fabs(x) > LARGE || fabs(y) > LARGE) {
        return mk(copysign(log_2abs_large(x, y), x), atan2(y, fabs(x)));
    }
    cplx s1 = c_sqrt(mk(1.0 + y, -x), err);   /* sqrt(1 - iz) */
    cplx s2 = c_sqrt(mk(1.0 - y, x), err);    /* sqrt(1 + iz) */
    return mk(asinh(s1.re * s2.im - s1.im * s2.re), atan2(y, s1.re * s2.re - s1.im * s2.im));
}

/* asin z = -i asinh(iz) */
static cplx c_asin(cplx z, int *err)
{
    cplx r = c_asinh(mk(-z.im, z.re), err);
    return mk(r.im, -r.re);
}

static cplx c_atanh(cplx z, int *err)
{
    double x = z.re, y = z.im;
    if (!fin(x) || !fin(y)) {
        if (isnan(x))
            return isinf(y) ? mk(0.0, copysign(PI_2, y)) : mk(NAN, NAN);
        if (isinf(y) || isinf(x))
            return mk(copysign(0.0, x), isnan(y) ? NAN : copysign(PI_2, y));
        /* finite x, nan y */
        return x == 0.0 ? mk(x, NAN) : mk(NAN, NAN);
    }
    if (x < 0.0) {   /* odd: atanh(-z) = -atanh(z) */
        cplx r = c_atanh(mk(-x, -y), err);
        return mk(-r.re, -r.im);
    }
    double ay = fabs(y);
    if (x > SQRT_LARGE || ay > SQRT_LARGE) {
        /* Re atanh z ~ x / |z|^2, Im -> +-pi/2 */
        double h = hypot(x / 2.0, y / 2.0);
        return mk(x / 4.0 / h / h, copysign(PI_2, y));
    }
    if (x == 1.0 && ay < SQRT_DBL_MIN) {
        if (ay == 0.0) {
            *err = EDOM_;
            return mk(INF, y);
        }
        return mk(-log(sqrt(ay) / sqrt(hypot(ay, 2.0))), copysign(atan2(2.0, -ay) / 2.0, y));
    }
    double re = log1p(4.0 * x / ((1.0 - x) * (1.0 - x) + ay * ay)) / 4.0;
    double im = atan2(2.0 * y, (1.0 - x) * (1.0 + x) - ay * ay) / 2.0;
    return mk(re, im);
}

/* atan z = -i atanh(iz) */
static cplx c_atan(cplx z, int *err)
{
    cplx r = c_atanh(mk(-z.im, z.re), err);
    return mk(r.im, -r.re);
}

/* ------------------------------------------------------------------ */
/* Hyperbolic functions (and the circular ones through them)           */
/* ------------------------------------------------------------------ */
/* cosh x and sinh x for a finite x, as (*ch, *sh) times the returned scale:
 * beyond LOG_LARGE they are formed from x -+ 1 and the caller multiplies by e
 * last, so that a cos or sin factor below 1 can keep the product in range. */
static double cosh_sinh_scaled(double x, double *ch, double *sh)
{
    bool big = fabs(x) > LOG_LARGE;
    double x1 = big ? x - copysign(1.0, x) : x;
    *ch = cosh(x1);
    *sh = sinh(x1);
    return big ? M_E : 1.0;
}

static cplx c_cosh(cplx z, int *err)
{
    double x = z.re, y = z.im;
    if (!fin(x) || !fin(y)) {
        if (isinf(x)) {
            if (isnan(y))
                return mk(INF, NAN);
            if (isinf(y)) {
                *err = EDOM_;
                return mk(INF, NAN);
            }
            if (y == 0.0)
                return mk(INF, copysign(0.0, x) * y);
            return mk(INF * cos(y), copysign(INF, x) * sin(y));
        }
        if (isinf(y) && fin(x))
            *err = EDOM_;
        /* nan with a finite part: nan + i0 when the other part is zero */
        if ((isnan(x) && y == 0.0) || (x == 0.0 && isnan(y)))
            return mk(NAN, 0.0);
        return mk(NAN, NAN);
    }
    double ch, sh, e = cosh_sinh_scaled(x, &ch, &sh);
    return range_checked(mk(cos(y) * ch * e, sin(y) * sh * e), err);
}

static cplx c_sinh(cplx z, int *err)
{
    double x = z.re, y = z.im;
    if (!fin(x) || !fin(y)) {
        if (isinf(x)) {
            if (isnan(y))
                return mk(INF, NAN);
            if (isinf(y)) {
                *err = EDOM_;
                return mk(INF, NAN);
            }
            if (y == 0.0)
                return mk(x, y);
            return mk(copysign(INF, x) * cos(y), INF * sin(y));
        }
        if (isinf(y) && fin(x))
            *err = EDOM_;
        if (isnan(x) && y == 0.0)
            return mk(NAN, y);
        if (x == 0.0 && isnan(y))
            return mk(0.0, NAN);
        return mk(NAN, NAN);
    }
    double ch, sh, e = cosh_sinh_scaled(x, &ch, &sh);
    return range_checked(mk(cos(y) * sh * e, sin(y) * ch * e), err);
}

static cplx c_tanh(cplx z, int *err)
{
    double x = z.re, y = z.im;
    if (!fin(x) || !fin(y)) {
        if (isinf(x)) {
            double im = fin(y) ? copysign(0.0, sin(y) * cos(y)) : 0.0;
            return mk(copysign(1.0, x), im);
        }
        if (isinf(y) && !isnan(x))
            *err = EDOM_;
        if (isnan(x) && y == 0.0)
            return mk(NAN, y);
        return mk(NAN, NAN);
    }
    if (fabs(x) > SQRT_LARGE)
        return mk(copysign(1.0, x), 4.0 * sin(y) * cos(y) * exp(-2.0 * fabs(x)));
    /* Kahan: with t = tanh x, s = tan y, tanh z = (t (1 + s^2) + i s / cosh^2 x) / (1 + t^2 s^2) */
    double t = tanh(x), s = tan(y), c = 1.0 / cosh(x);
    double ts = t * s, den = 1.0 + ts * ts;
    return mk(t * (1.0 + s * s) / den, s / den * c * c);
}

/* cos z = cosh(iz), sin z = -i sinh(iz), tan z = -i tanh(iz) */
static cplx c_cos(cplx z, int *err) { return c_cosh(mk(-z.im, z.re), err); }

static cplx c_sin(cplx z, int *err)
{
    cplx r = c_sinh(mk(-z.im, z.re), err);
    return mk(r.im, -r.re);
}

static cplx c_tan(cplx z, int *err)
{
    cplx r = c_tanh(mk(-z.im, z.re), err);
    return mk(r.im, -r.re);
}

/* ------------------------------------------------------------------ */
/* Module functions                                                    */
/* ------------------------------------------------------------------ */
static Obj math_error(int err)
{
    if (err == EDOM_)
        err_set(E_ValueError, "math domain error");
    else
        err_set(E_OverflowError, "math range error");
    return NULL;
}

typedef cplx (*cfunc1)(cplx, int *);

static Obj cmath_1(Obj *args, cfunc1 f)
{
    cplx z;
    if (complex_arg(args[0], &z) < 0)
        return NULL;
    int err = OK;
    cplx r = f(z, &err);
    if (err != OK)
        return math_error(err);
    return complex_from_cplx(r);
}

#define CMATH1(name)                                                        \
    static Obj cm_##name(Obj *args, size_t nargs, Obj kwnames)              \
    {                                                                       \
        return cmath_1(args, c_##name);                                     \
    }

CMATH1(sqrt)
CMATH1(exp)
CMATH1(log10)
CMATH1(acos)
CMATH1(asin)
CMATH1(atan)
CMATH1(acosh)
CMATH1(asinh)
CMATH1(atanh)
CMATH1(cos)
CMATH1(sin)
CMATH1(tan)
CMATH1(cosh)
CMATH1(sinh)
CMATH1(tanh)

static Obj cm_log(Obj *args, size_t nargs, Obj kwnames)
{
    cplx z, b = {0.0, 0.0};
    if (complex_arg(args[0], &z) < 0 || (nargs > 1 && complex_arg(args[1], &b) < 0))
        return NULL;
    int err = OK;
    cplx r = c_log(z, &err);
    if (nargs > 1) {
        /* CPython: only the base's logarithm and the division report errors
         * (log(0, 2) is -inf + nan j) */
        err = OK;
        cplx lb = c_log(b, &err);
        r = cplx_quot(r, lb, &err);
    }
    if (err != OK)
        return math_error(err);
    return complex_from_cplx(r);
}

static Obj cm_phase(Obj *args, size_t nargs, Obj kwnames)
{
    cplx z;
    if (complex_arg(args[0], &z) < 0)
        return NULL;
    double phi = atan2(z.im, z.re);
    /* CPython reports the underflow of atan2 to zero that libm flags (ERANGE) */
    if (phi == 0.0 && z.im != 0.0 && isfinite(z.re) && isfinite(z.im))
        return math_error(ERANGE_);
    return float_new(phi);
}

static Obj cm_polar(Obj *args, size_t nargs, Obj kwnames)
{
    cplx z;
    if (complex_arg(args[0], &z) < 0)
        return NULL;
    bool ovf;
    double r = cplx_abs(z, &ovf), phi = atan2(z.im, z.re);
    if (ovf)
        return math_error(ERANGE_);
    Obj *rt = vm_roots(2);
    Obj res = NULL;
    if ((rt[0] = float_new(r)) && (rt[1] = float_new(phi)))
        res = tuple_pack(2, rt[0], rt[1]);
    vm_unroots(rt);
    return res;
}

/* r * e^(i phi), with Annex G's rules for cexp applied to the polar form. */
static cplx c_rect(double r, double phi, int *err)
{
    if (!fin(r) || !fin(phi)) {
        if (isinf(r)) {
            if (isnan(phi))
                return mk(INF, NAN);
            if (isinf(phi)) {
                *err = EDOM_;
                return mk(INF, NAN);
            }
            if (phi == 0.0)
                return mk(r, r > 0 ? phi : -phi);
            return mk(r * cos(phi), r * sin(phi));
        }
        if (isnan(r))
            return phi == 0.0 ? mk(NAN, 0.0) : mk(NAN, NAN);
        /* finite r, phi infinite or nan */
        if (r == 0.0)
            return mk(0.0, 0.0);
        if (isinf(phi))
            *err = EDOM_;
        return mk(NAN, NAN);
    }
    if (phi == 0.0)
        return mk(r, r * phi);
    return mk(r * cos(phi), r * sin(phi));
}

static Obj cm_rect(Obj *args, size_t nargs, Obj kwnames)
{
    double r, phi;
    if (vm_as_double(args[0], &r) < 0 || vm_as_double(args[1], &phi) < 0)
        return NULL;
    int err = OK;
    cplx z = c_rect(r, phi, &err);
    if (err != OK)
        return math_error(err);
    return complex_from_cplx(z);
}

static Obj cm_test(Obj *args, int which)
{
    cplx z;
    if (complex_arg(args[0], &z) < 0)
        return NULL;
    switch (which) {
    case 0: return vm_bool(isfinite(z.re) && isfinite(z.im));
    case 1: return vm_bool(isinf(z.re) || isinf(z.im));
    default: return vm_bool(isnan(z.re) || isnan(z.im));
    }
}

static Obj cm_isfinite(Obj *args, size_t nargs, Obj kwnames) { return cm_test(args, 0); }
static Obj cm_isinf(Obj *args, size_t nargs, Obj kwnames) { return cm_test(args, 1); }
static Obj cm_isnan(Obj *args, size_t nargs, Obj kwnames) { return cm_test(args, 2); }

static Obj cm_isclose(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"a", "b", "rel_tol", "abs_tol", NULL};
    Obj *r = vm_roots(4);
    Obj res = NULL;
    cplx a, b;
    double rel_tol = 1e-09, abs_tol = 0.0;
    if (vm_parse_args("isclose()", args, nargs, kwnames, names, 2, 2, r) < 0 || complex_arg(r[0], &a) < 0 ||
        complex_arg(r[1], &b) < 0 || (r[2] && vm_as_double(r[2], &rel_tol) < 0) ||
        (r[3] && vm_as_double(r[3], &abs_tol) < 0))
        goto done;
    if (rel_tol < 0.0 || abs_tol < 0.0) {
        err_set(E_ValueError, "tolerances must be non-negative");
        goto done;
    }
    if (a.re == b.re && a.im == b.im) {
        res = g_True;
        goto done;
    }
    if (isinf(a.re) || isinf(a.im) || isinf(b.re) || isinf(b.im)) {
        res = g_False;
        goto done;
    }
    bool ovf;
    double diff = cplx_abs(mk(b.re - a.re, b.im - a.im), &ovf);
    double ma = cplx_abs(a, &ovf), mb = cplx_abs(b, &ovf);
    res = vm_bool(diff <= rel_tol * mb || diff <= rel_tol * ma || diff <= abs_tol);
done:
    vm_unroots(r);
    return res;
}

static const MethodDef cmath_functions[] = {
    {"sqrt", cm_sqrt, METH_O, "Return the square root of z."},
    {"exp", cm_exp, METH_O, "Return the exponential value e**z."},
    {"log", cm_log, METH_ARGS(1, 2), "log(z[, base]) -> the logarithm of z to the given base."},
    {"log10", cm_log10, METH_O, "Return the base-10 logarithm of z."},
    {"acos", cm_acos, METH_O, "Return the arc cosine of z."},
    {"asin", cm_asin, METH_O, "Return the arc sine of z."},
    {"atan", cm_atan, METH_O, "Return the arc tangent of z."},
    {"acosh", cm_acosh, METH_O, "Return the inverse hyperbolic cosine of z."},
    {"asinh", cm_asinh, METH_O, "Return the inverse hyperbolic sine of z."},
    {"atanh", cm_atanh, METH_O, "Return the inverse hyperbolic tangent of z."},
    {"cos", cm_cos, METH_O, "Return the cosine of z."},
    {"sin", cm_sin, METH_O, "Return the sine of z."},
    {"tan", cm_tan, METH_O, "Return the tangent of z."},
    {"cosh", cm_cosh, METH_O, "Return the hyperbolic cosine of z."},
    {"sinh", cm_sinh, METH_O, "Return the hyperbolic sine of z."},
    {"tanh", cm_tanh, METH_O, "Return the hyperbolic tangent of z."},
    {"phase", cm_phase, METH_O, "Return argument, also known as the phase angle, of a complex."},
    {"polar", cm_polar, METH_O, "Convert a complex from rectangular coordinates to polar coordinates."},
    {"rect", cm_rect, METH_ARGS(2, 2), "Convert from polar coordinates to rectangular coordinates."},
    {"isfinite", cm_isfinite, METH_O, "Return True if both the real and imaginary parts of z are finite, else False."},
    {"isinf", cm_isinf, METH_O, "Checks if the real or imaginary part of z is infinite."},
    {"isnan", cm_isnan, METH_O, "Checks if the real or imaginary part of z not a number (NaN)."},
    {"isclose", cm_isclose, METH_KW, "Determine whether two complex numbers are close in value."},
    {NULL, NULL, 0, NULL},
};

Obj cmath_module_init(void)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    if (!(r[0] = module_new("cmath")))
        goto done;
    static const struct { const char *name; double re, im; bool is_complex; } consts[] = {
        {"pi", M_PI, 0, false}, {"e", M_E, 0, false}, {"tau", 2 * M_PI, 0, false},
        {"inf", INFINITY, 0, false}, {"infj", 0.0, INFINITY, true},
        {"nan", NAN, 0, false}, {"nanj", 0.0, NAN, true},
    };
    for (size_t i = 0; i < ARRAY_LEN(consts); i++) {
        r[1] = consts[i].is_complex ? complex_new(consts[i].re, consts[i].im) : float_new(consts[i].re);
        if (!r[1] || module_add(r[0], consts[i].name, r[1]) < 0)
            goto done;
    }
    if (!(r[1] = str_from_cstr("This module provides access to mathematical functions for complex\nnumbers.")) ||
        module_add(r[0], "__doc__", r[1]) < 0)
        goto done;
    module_add_functions(r[0], cmath_functions);
    res = r[0];
done:
    vm_unroots(r);
    return res;
}
