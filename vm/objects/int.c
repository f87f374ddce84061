/* int.c: Python's int, and bool's slots.
 *
 * Values in [SMALLINT_MIN, SMALLINT_MAX] are tagged small ints; the rest are
 * BigIntObj (sign + magnitude in GMP limbs), always normalised. Big
 * arithmetic runs GMP (mpn, and mpz for the rarer operations) on linear views
 * of the operands' limbs taken after the last GC allocation; results go to
 * C memory first and are copied into one fresh BigIntObj at the end
 * (int_from_cbuf), so no GC object is ever held across an allocation. */
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "objects.h"
#include "numbers.h"
#include "strobj.h"

TypeObj *T_int;
TypeObj *T_bool;

int64_t int_max_str_digits = INT_MAX_STR_DIGITS_DEFAULT;

#define BIG(v) ((BigIntObj *)(v))
/* Refuse results bigger than this (GMP aborts the process when malloc fails). */
#define MAX_RESULT_BITS ((uint64_t)1 << 32)
#define HASH_MODULUS (((uint64_t)1 << 61) - 1)

static Obj err_int_too_big_float(void)
{
    err_set(E_OverflowError, "int too large to convert to float");
    return NULL;
}

/* ------------------------------------------------------------------ */
/* C scratch buffers for limbs                                         */
/* ------------------------------------------------------------------ */
enum { TMP_LIMBS = 128 };
typedef struct LimbTmp { mp_limb_t *p; mp_limb_t local[TMP_LIMBS]; } LimbTmp;

static mp_limb_t *tmp_alloc(LimbTmp *t, size_t n)
{
    t->p = n <= TMP_LIMBS ? t->local : malloc((n ? n : 1) * sizeof(mp_limb_t));
    return t->p;
}
static void tmp_free(LimbTmp *t)
{
    if (t->p && t->p != t->local)
        free(t->p);
    t->p = NULL;
}

/* ------------------------------------------------------------------ */
/* Making ints                                                         */
/* ------------------------------------------------------------------ */

/* An int from a magnitude in C memory (never GC memory: this allocates). */
static Obj int_from_cbuf(int sign, const mp_limb_t *d, mp_size_t n)
{
    while (n > 0 && d[n - 1] == 0)
        n--;
    if (n == 0)
        return MAKE_SMALLINT(0);
    if (n == 1) {
        if (sign > 0 && d[0] <= (uint64_t)SMALLINT_MAX)
            return MAKE_SMALLINT((int64_t)d[0]);
        if (sign < 0 && d[0] <= (uint64_t)SMALLINT_MAX + 1)
            return MAKE_SMALLINT(-(int64_t)d[0]);
    }
    Obj o = (Obj)tm_allocate_var(TID_BIGINT, (uintptr_t)n);
    if (!o)
        return err_nomemory();
    BIG(o)->sign = sign < 0 ? -1 : 1;
    memcpy(VM_LINEAR(BIG(o)->limbs), d, (size_t)n * sizeof(mp_limb_t));
    return o;
}

static Obj int_from_mpz(mpz_srcptr z)
{
    return int_from_cbuf(mpz_sgn(z), mpz_limbs_read(z), (mp_size_t)mpz_size(z));
}

/* int_from_mpz, then mpz_clear(z). */
static Obj int_from_mpz_clear(mpz_ptr z)
{
    Obj r = int_from_mpz(z);
    mpz_clear(z);
    return r;
}

Obj int_from_i64(int64_t v)
{
    if (SMALLINT_FITS(v))
        return MAKE_SMALLINT(v);
    mp_limb_t l = v < 0 ? -(uint64_t)v : (uint64_t)v;
    return int_from_cbuf(v < 0 ? -1 : 1, &l, 1);
}

Obj int_from_u64(uint64_t v)
{
    if (v <= (uint64_t)SMALLINT_MAX)
        return MAKE_SMALLINT((int64_t)v);
    mp_limb_t l = v;
    return int_from_cbuf(1, &l, 1);
}

/* ------------------------------------------------------------------ */
/* Views: an int's sign and magnitude as limbs in linear memory.       */
/* Valid until the next GC allocation. Not copyable (d may be &one).   */
/* ------------------------------------------------------------------ */
typedef struct IntView { int sign; mp_size_t n; const mp_limb_t *d; mp_limb_t one; } IntView;

static inline void int_view(Obj v, IntView *w)
{
    int64_t x;
    if (IS_SMALLINT(v))
        x = SMALLINT_VAL(v);
    else if (v->h.tid == TID_BOOL)
        x = ((BoolObj *)v)->value;
    else {
        w->sign = (int)BIG(v)->sign;
        w->n = (mp_size_t)BIG(v)->nlimbs;
        w->d = (const mp_limb_t *)VM_LINEAR(BIG(v)->limbs);
        return;
    }
    w->sign = x < 0 ? -1 : x > 0;
    w->one = x < 0 ? -(uint64_t)x : (uint64_t)x;
    w->n = x != 0;
    w->d = &w->one;
}

static inline mpz_srcptr view_mpz(mpz_ptr z, const IntView *w)
{
    return mpz_roinit_n(z, w->d, w->sign < 0 ? -w->n : w->n);
}

/* Small int value of an int/bool, if it has one. */
static inline bool int_small_value(Obj v, int64_t *out)
{
    if (IS_SMALLINT(v)) {
        *out = SMALLINT_VAL(v);
        return true;
    }
    if (v->h.tid == TID_BOOL) {
        *out = ((BoolObj *)v)->value;
        return true;
    }
    return false;
}

/* Copy a view's magnitude to C memory and make an int with `sign`. */
static Obj int_from_view(const IntView *w, int sign)
{
    LimbTmp t;
    mp_limb_t *p = tmp_alloc(&t, (size_t)w->n);
    if (!p)
        return err_nomemory();
    if (w->n)
        memcpy(p, w->d, (size_t)w->n * sizeof(mp_limb_t));
    Obj r = int_from_cbuf(sign, p, w->n);
    tmp_free(&t);
    return r;
}

Obj int_exact(Obj v)
{
    v = vm_unwrap(v);
    if (!IS_SMALLINT(v) && v->h.tid == TID_BOOL)
        return MAKE_SMALLINT(((BoolObj *)v)->value);
    return v;
}

int int_sign(Obj v)
{
    int64_t x;
    if (int_small_value(v, &x))
        return x < 0 ? -1 : x > 0;
    return (int)BIG(v)->sign;
}

bool int_is_zero(Obj v)
{
    int64_t x;
    return int_small_value(v, &x) && x == 0;
}

bool int_is_odd(Obj v)
{
    IntView w;
    int_view(v, &w);
    return w.n && (w.d[0] & 1);
}

uint64_t int_bit_length(Obj v)
{
    IntView w;
    int_view(v, &w);
    if (w.n == 0)
        return 0;
    return (uint64_t)(w.n - 1) * 64 + (64 - (uint64_t)__builtin_clzll(w.d[w.n - 1]));
}

bool int_as_i64_saturated(Obj v, int64_t *out)
{
    if (int_small_value(v, out))
        return true;
    uint64_t m = BIG(v)->limbs[0];
    if (BIG(v)->nlimbs == 1 && (BIG(v)->sign > 0 ? m <= (uint64_t)INT64_MAX : m <= (uint64_t)INT64_MAX + 1)) {
        *out = BIG(v)->sign > 0 ? (int64_t)m : (int64_t)(0 - m);
        return true;
    }
    *out = BIG(v)->sign > 0 ? INT64_MAX : INT64_MIN;
    return false;
}

int int_as_i64(Obj v, int64_t *out)
{
    if (int_small_value(v, out))
        return 0;
    if (BIG(v)->nlimbs == 1) {
        uint64_t m = BIG(v)->limbs[0];
        if (BIG(v)->sign > 0 && m <= (uint64_t)INT64_MAX) {
            *out = (int64_t)m;
            return 0;
        }
        if (BIG(v)->sign < 0 && m <= (uint64_t)INT64_MAX + 1) {
            *out = (int64_t)(0 - m);
            return 0;
        }
    }
    err_set(E_OverflowError, "Python int too large to convert to C long");
    return -1;
}

int int_compare(Obj a, Obj b)
{
    int64_t x, y;
    if (int_small_value(a, &x) && int_small_value(b, &y))
        return (x > y) - (x < y);
    IntView u, w;
    int_view(a, &u);
    int_view(b, &w);
    if (u.sign != w.sign)
        return u.sign < w.sign ? -1 : 1;
    int c;
    if (u.n != w.n)
        c = u.n < w.n ? -1 : 1;
    else if (u.n == 0)
        return 0;
    else {
        c = mpn_cmp(u.d, w.d, u.n);
        c = (c > 0) - (c < 0);
    }
    return u.sign < 0 ? -c : c;
}

/* ------------------------------------------------------------------ */
/* Conversion to double: correctly rounded (half even)                 */
/* ------------------------------------------------------------------ */

/* Bits [pos, pos+count) of the magnitude (count <= 64). */
static uint64_t limb_bits(const mp_limb_t *d, mp_size_t n, uint64_t pos, unsigned count)
{
    uint64_t li = pos / 64;
    unsigned sh = pos % 64;
    if (count == 0 || li >= (uint64_t)n)
        return 0;
    uint64_t v = d[li] >> sh;
    if (sh && li + 1 < (uint64_t)n)
        v |= d[li + 1] << (64 - sh);
    return count >= 64 ? v : v & ((1ULL << count) - 1);
}

/* Any bit below `pos` set? */
static bool limb_any_below(const mp_limb_t *d, mp_size_t n, uint64_t pos)
{
    uint64_t li = pos / 64;
    unsigned sh = pos % 64;
    for (uint64_t i = 0; i < li && i < (uint64_t)n; i++)
        if (d[i])
            return true;
    return sh && li < (uint64_t)n && (d[li] & ((1ULL << sh) - 1));
}

/* (magnitude + a nonzero fraction if sticky) * 2**exp2, rounded half-even to
 * a double (subnormals included). *overflow when it does not fit. The
 * magnitude must be normalised and nonzero. */
static double round_scaled(const mp_limb_t *d, mp_size_t n, bool sticky, int64_t exp2, bool *overflow)
{
    *overflow = false;
    uint64_t bits = (uint64_t)(n - 1) * 64 + (64 - (uint64_t)__builtin_clzll(d[n - 1]));
    int64_t top = (int64_t)bits + exp2;           /* value in [2**(top-1), 2**top) */
    if (top > 1024) {
        *overflow = true;
        return 0.0;
    }
    int64_t prec = 53;
    if (top - 53 < -1074)
        prec = top + 1074;                        /* subnormal: fewer mantissa bits */
    int64_t drop = (int64_t)bits - prec;
    if (drop <= 0)                                /* fits exactly */
        return ldexp((double)limb_bits(d, n, 0, 64), (int)exp2);
    uint64_t m = prec > 0 ? limb_bits(d, n, (uint64_t)drop, (unsigned)prec) : 0;
    bool half = limb_bits(d, n, (uint64_t)drop - 1, 1);
    bool rest = sticky || limb_any_below(d, n, (uint64_t)drop - 1);
    if (half && (rest || (m & 1)))
        m++;
    double r = ldexp((double)m, (int)(drop + exp2));
    if (isinf(r))
        *overflow = true;
    return r;
}

int int_as_double(Obj v, double *out)
{
    int64_t x;
    if (int_small_value(v, &x)) {
        *out = (double)x;
        return 0;
    }
    IntView w;
    int_view(v, &w);
    bool ovf;
    double r = round_scaled(w.d, w.n, false, 0, &ovf);
    if (ovf) {
        err_int_too_big_float();
        return -1;
    }
    *out = w.sign < 0 ? -r : r;
    return 0;
}

Obj int_from_double(double d)
{
    if (isnan(d)) {
        err_set(E_ValueError, "cannot convert float NaN to integer");
        return NULL;
    }
    if (isinf(d)) {
        err_set(E_OverflowError, "cannot convert float infinity to integer");
        return NULL;
    }
    if (d > -9223372036854775808.0 && d < 9223372036854775808.0)
        return int_from_i64((int64_t)d);          /* truncates toward zero */
    int e;
    double m = frexp(fabs(d), &e);                /* |d| = m * 2**e, m in [0.5, 1); e >= 64 */
    uint64_t mant = (uint64_t)ldexp(m, 64);       /* exact: 53 significant bits */
    int shift = e - 64;                           /* >= 0 */
    size_t nl = (size_t)shift / 64 + 2;
    LimbTmp t;
    mp_limb_t *p = tmp_alloc(&t, nl);
    if (!p)
        return err_nomemory();
    memset(p, 0, nl * sizeof(mp_limb_t));
    unsigned q = (unsigned)shift / 64, s = (unsigned)shift % 64;
    p[q] = mant << s;
    p[q + 1] = s ? mant >> (64 - s) : 0;
    Obj r = int_from_cbuf(d < 0 ? -1 : 1, p, (mp_size_t)nl);
    tmp_free(&t);
    return r;
}

/* Exact comparison with a double: -1, 0, 1, or 2 when d is nan. */
int int_float_compare(Obj i, double d)
{
    if (isnan(d))
        return 2;
    int64_t x;
    if (int_small_value(i, &x) && x > -(1LL << 53) && x < (1LL << 53)) {
        double a = (double)x;                     /* exact */
        return (a > d) - (a < d);
    }
    if (isinf(d))
        return d > 0 ? -1 : 1;
    IntView w;
    int_view(i, &w);
    mpz_t z;
    int c = mpz_cmp_d(view_mpz(z, &w), d);
    return (c > 0) - (c < 0);
}

/* ------------------------------------------------------------------ */
/* Arithmetic                                                          */
/* ------------------------------------------------------------------ */

/* x + ysign * |y| for nonzero views. */
static Obj add_views(const IntView *x, int ysign, const IntView *y)
{
    const mp_limb_t *bd = x->d, *sd = y->d;
    mp_size_t bn = x->n, sn = y->n;
    int bsign = x->sign, ssign = ysign;
    if (bn < sn || (bn == sn && bsign != ssign && mpn_cmp(bd, sd, bn) < 0)) {
        const mp_limb_t *td = bd; bd = sd; sd = td;
        mp_size_t tn = bn; bn = sn; sn = tn;
        int ts = bsign; bsign = ssign; ssign = ts;
    }
    LimbTmp t;
    mp_limb_t *r = tmp_alloc(&t, (size_t)bn + 1);
    if (!r)
        return err_nomemory();
    if (bsign == ssign)
        r[bn] = mpn_add(r, bd, bn, sd, sn);
    else {
        mpn_sub(r, bd, bn, sd, sn);
        r[bn] = 0;
    }
    Obj res = int_from_cbuf(bsign, r, bn + 1);
    tmp_free(&t);
    return res;
}

Obj int_add(Obj a, Obj b)
{
    int64_t x, y;
    if (int_small_value(a, &x) && int_small_value(b, &y))
        return int_from_i64(x + y);
    IntView u, w;
    int_view(a, &u);
    int_view(b, &w);
    if (w.n == 0)
        return int_exact(a);
    if (u.n == 0)
        return int_exact(b);
    return add_views(&u, w.sign, &w);
}

Obj int_sub(Obj a, Obj b)
{
    int64_t x, y;
    if (int_small_value(a, &x) && int_small_value(b, &y))
        return int_from_i64(x - y);
    IntView u, w;
    int_view(a, &u);
    int_view(b, &w);
    if (w.n == 0)
        return int_exact(a);
    if (u.n == 0)
        return int_from_view(&w, -w.sign);
    return add_views(&u, -w.sign, &w);
}

Obj int_mul(Obj a, Obj b)
{
    int64_t x, y, p;
    if (int_small_value(a, &x) && int_small_value(b, &y) && !__builtin_mul_overflow(x, y, &p))
        return int_from_i64(p);
    IntView u, w;
    int_view(a, &u);
    int_view(b, &w);
    if (u.n == 0 || w.n == 0)
        return MAKE_SMALLINT(0);
    LimbTmp t;
    mp_size_t rn = u.n + w.n;
    mp_limb_t *r = tmp_alloc(&t, (size_t)rn);
    if (!r)
        return err_nomemory();
    if (u.d == w.d && u.n == w.n)
        mpn_sqr(r, u.d, u.n);
    else if (u.n >= w.n)
        mpn_mul(r, u.d, u.n, w.d, w.n);
    else
        mpn_mul(r, w.d, w.n, u.d, u.n);
    Obj res = int_from_cbuf(u.sign * w.sign, r, rn);
    tmp_free(&t);
    return res;
}

Obj int_neg(Obj v)
{
    int64_t x;
    if (int_small_value(v, &x))
        return int_from_i64(-x);
    IntView w;
    int_view(v, &w);
    return int_from_view(&w, -w.sign);
}

Obj int_abs(Obj v)
{
    int64_t x;
    if (int_small_value(v, &x))
        return int_from_i64(x < 0 ? -x : x);
    if (BIG(v)->sign > 0)
        return v;
    return int_neg(v);
}

static Obj int_invert(Obj v)
{
    int64_t x;
    if (int_small_value(v, &x))
        return MAKE_SMALLINT(~x);                 /* the small range is closed under ~ */
    IntView w;
    int_view(v, &w);
    mpz_t z, r;
    mpz_init(r);
    mpz_com(r, view_mpz(z, &w));
    return int_from_mpz_clear(r);
}

/* Floor division and modulo. Either output may be NULL. `zmsg`: the
 * ZeroDivisionError message. */
static int floor_divmod(Obj a, Obj b, Obj *qout, Obj *rout, const char *zmsg)
{
    int64_t x, y;
    if (int_small_value(a, &x) && int_small_value(b, &y)) {
        if (y == 0) {
            err_set(E_ZeroDivisionError, zmsg);
            return -1;
        }
        int64_t q = x / y, r = x % y;
        if (r != 0 && ((r ^ y) < 0)) {
            r += y;
            q -= 1;
        }
        if (qout && !(*qout = int_from_i64(q)))
            return -1;
        if (rout)
            *rout = MAKE_SMALLINT(r);
        return 0;
    }
    IntView u, w;
    int_view(a, &u);
    int_view(b, &w);
    if (w.n == 0) {
        err_set(E_ZeroDivisionError, zmsg);
        return -1;
    }
    LimbTmp tq, tr;
    mp_size_t qn = u.n >= w.n ? u.n - w.n + 1 : 0;
    mp_limb_t *q = tmp_alloc(&tq, (size_t)qn + 1);
    mp_limb_t *r = tmp_alloc(&tr, (size_t)w.n);
    if (!q || !r) {
        tmp_free(&tq);
        tmp_free(&tr);
        err_nomemory();
        return -1;
    }
    if (qn)
        mpn_tdiv_qr(q, r, 0, u.d, u.n, w.d, w.n);
    else {
        memset(r, 0, (size_t)w.n * sizeof(mp_limb_t));
        if (u.n)
            memcpy(r, u.d, (size_t)u.n * sizeof(mp_limb_t));
    }
    q[qn] = 0;
    int qsign = u.sign * w.sign;
    if (qsign < 0 && !mpn_zero_p(r, w.n)) {
        /* truncation went toward zero: step down to the floor */
        mpn_add_1(q, q, qn + 1, 1);
        mpn_sub_n(r, w.d, r, w.n);
    }
    int rc = 0;
    Obj qo = NULL;
    if (qout) {
        qo = int_from_cbuf(qsign < 0 ? -1 : 1, q, qn + 1);
        if (!qo)
            rc = -1;
    }
    if (rc == 0 && rout) {
        Obj *root = vm_roots(1);
        root[0] = qo;
        *rout = int_from_cbuf(w.sign, r, w.n);
        qo = root[0];
        vm_unroots(root);
        if (!*rout)
            rc = -1;
    }
    if (qout)
        *qout = qo;
    tmp_free(&tq);
    tmp_free(&tr);
    return rc;
}

Obj int_floordiv(Obj a, Obj b)
{
    Obj q;
    if (floor_divmod(a, b, &q, NULL, "integer division or modulo by zero") < 0)
        return NULL;
    return q;
}

Obj int_mod(Obj a, Obj b)
{
    Obj r;
    if (floor_divmod(a, b, NULL, &r, "integer modulo by zero") < 0)
        return NULL;
    return r;
}

Obj int_divmod(Obj a, Obj b)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    if (floor_divmod(a, b, &r[0], &r[1], "integer division or modulo by zero") == 0)
        res = tuple_pack(2, r[0], r[1]);
    vm_unroots(r);
    return res;
}

/* dst = src << s (dst has n + s/64 + 1 limbs); returns that size. */
static mp_size_t shift_left_into(mp_limb_t *dst, const mp_limb_t *src, mp_size_t n, uint64_t s)
{
    mp_size_t q = (mp_size_t)(s / 64);
    unsigned rem = s % 64;
    memset(dst, 0, (size_t)q * sizeof(mp_limb_t));
    if (rem)
        dst[q + n] = mpn_lshift(dst + q, src, n, rem);
    else {
        memcpy(dst + q, src, (size_t)n * sizeof(mp_limb_t));
        dst[q + n] = 0;
    }
    return q + n + 1;
}

static mp_size_t normalize(const mp_limb_t *d, mp_size_t n)
{
    while (n > 0 && d[n - 1] == 0)
        n--;
    return n;
}

static Obj int_truediv(Obj a, Obj b)
{
    int64_t x, y;
    const int64_t exact = (int64_t)1 << 53;
    if (int_small_value(a, &x) && int_small_value(b, &y) && x >= -exact && x <= exact && y >= -exact && y <= exact) {
        if (y == 0) {
            err_set(E_ZeroDivisionError, "division by zero");
            return NULL;
        }
        return float_new((double)x / (double)y);
    }
    IntView u, w;
    int_view(a, &u);
    int_view(b, &w);
    if (w.n == 0) {
        err_set(E_ZeroDivisionError, "division by zero");
        return NULL;
    }
    if (u.n == 0)
        return float_new(w.sign < 0 ? -0.0 : 0.0);
    int64_t na = (int64_t)int_bit_length(a), nb = (int64_t)int_bit_length(b);
    int sign = u.sign * w.sign;
    if (na - nb > 1025) {
        err_set(E_OverflowError, "integer division result too large for a float");
        return NULL;
    }
    if (na - nb < -1080)
        return float_new(sign < 0 ? -0.0 : 0.0);
    /* Scale so the integer quotient has at least 55 bits, then round it
     * with the remainder as sticky bit. */
    int64_t s = 55 + nb - na;
    LimbTmp tn, td, tq, tr;
    const mp_limb_t *num = u.d, *den = w.d;
    mp_size_t numn = u.n, denn = w.n;
    mp_limb_t *p;
    tn.p = td.p = tq.p = tr.p = NULL;
    if (s >= 0) {
        if (!(p = tmp_alloc(&tn, (size_t)u.n + (size_t)s / 64 + 1)))
            return err_nomemory();
        numn = normalize(p, shift_left_into(p, u.d, u.n, (uint64_t)s));
        num = p;
    } else {
        if (!(p = tmp_alloc(&td, (size_t)w.n + (size_t)(-s) / 64 + 1)))
            return err_nomemory();
        denn = normalize(p, shift_left_into(p, w.d, w.n, (uint64_t)-s));
        den = p;
    }
    mp_size_t qn = numn - denn + 1;
    mp_limb_t *q = tmp_alloc(&tq, (size_t)qn);
    mp_limb_t *r = tmp_alloc(&tr, (size_t)denn);
    Obj res = NULL;
    if (q && r) {
        mpn_tdiv_qr(q, r, 0, num, numn, den, denn);
        bool ovf;
        double d = round_scaled(q, normalize(q, qn), !mpn_zero_p(r, denn), -s, &ovf);
        if (ovf)
            err_set(E_OverflowError, "integer division result too large for a float");
        else
            res = float_new(sign < 0 ? -d : d);
    } else
        err_nomemory();
    tmp_free(&tn);
    tmp_free(&td);
    tmp_free(&tq);
    tmp_free(&tr);
    return res;
}

Obj int_pow(Obj a, Obj b, Obj mod)
{
    if (mod && IS_NONE(mod))
        mod = NULL;
    int bs = int_sign(b);
    if (!mod) {
        if (bs < 0) {
            double x, y;
            if (int_as_double(a, &x) < 0 || int_as_double(b, &y) < 0)
                return NULL;
            return float_pow_double(x, y);
        }
        int64_t base, e;
        if (int_small_value(a, &base)) {
            if (base == 0)
                return MAKE_SMALLINT(bs == 0);
            if (base == 1)
                return MAKE_SMALLINT(1);
            if (base == -1) {
                IntView w;
                int_view(b, &w);
                return MAKE_SMALLINT(w.n && (w.d[0] & 1) ? -1 : 1);
            }
        }
        if (int_small_value(b, &e) == false) {
            err_nomemory();
            return NULL;
        }
        if (int_small_value(a, &base)) {
            /* small ** small: repeated squaring while it fits */
            int64_t r = 1, sq = base, k = e;
            bool ok = true;
            while (k) {
                if ((k & 1) && __builtin_mul_overflow(r, sq, &r)) {
                    ok = false;
                    break;
                }
                k >>= 1;
                if (k && __builtin_mul_overflow(sq, sq, &sq)) {
                    ok = false;
                    break;
                }
            }
            if (ok)
                return int_from_i64(r);
        }
        uint64_t bits = int_bit_length(a);
        if (e > 0 && (bits > MAX_RESULT_BITS / (uint64_t)e)) {
            err_nomemory();
            return NULL;
        }
        IntView u;
        int_view(a, &u);
        mpz_t z, r;
        mpz_init(r);
        mpz_pow_ui(r, view_mpz(z, &u), (unsigned long)e);
        return int_from_mpz_clear(r);
    }
    /* three-argument pow */
    if (int_is_zero(mod)) {
        err_set(E_ValueError, "pow() 3rd argument cannot be 0");
        return NULL;
    }
    IntView u, w, m;
    int_view(a, &u);
    int_view(b, &w);
    int_view(mod, &m);
    mpz_t zu, absm, base, r;
    mpz_init(r);
    mpz_init(base);
    mpz_srcptr mpos = mpz_roinit_n(absm, m.d, m.n);
    if (bs < 0) {
        if (!mpz_invert(base, view_mpz(zu, &u), mpos)) {
            mpz_clear(base);
            mpz_clear(r);
            err_set(E_ValueError, "base is not invertible for the given modulus");
            return NULL;
        }
    } else
        mpz_mod(base, view_mpz(zu, &u), mpos);
    mpz_t e;
    mpz_roinit_n(e, w.d, w.n);                    /* |b| */
    mpz_powm(r, base, e, mpos);
    if (m.sign < 0 && mpz_sgn(r) != 0)
        mpz_sub(r, r, mpos);                      /* the result takes the modulus' sign */
    mpz_clear(base);
    return int_from_mpz_clear(r);
}

Obj int_gcd(Obj a, Obj b)
{
    int64_t x, y;
    if (int_small_value(a, &x) && int_small_value(b, &y)) {
        uint64_t p = x < 0 ? -(uint64_t)x : (uint64_t)x, q = y < 0 ? -(uint64_t)y : (uint64_t)y;
        while (q) {
            uint64_t t = p % q;
            p = q;
            q = t;
        }
        return int_from_u64(p);
    }
    IntView u, w;
    int_view(a, &u);
    int_view(b, &w);
    mpz_t zu, zw, r;
    mpz_init(r);
    mpz_gcd(r, view_mpz(zu, &u), view_mpz(zw, &w));
    return int_from_mpz_clear(r);
}

Obj int_lcm(Obj a, Obj b)
{
    IntView u, w;
    int_view(a, &u);
    int_view(b, &w);
    mpz_t zu, zw, r;
    mpz_init(r);
    mpz_lcm(r, view_mpz(zu, &u), view_mpz(zw, &w));
    return int_from_mpz_clear(r);
}

Obj int_isqrt(Obj v)
{
    if (int_sign(v) < 0) {
        err_set(E_ValueError, "isqrt() argument must be nonnegative");
        return NULL;
    }
    IntView w;
    int_view(v, &w);
    if (w.n == 0)
        return MAKE_SMALLINT(0);
    LimbTmp t;
    mp_limb_t *r = tmp_alloc(&t, (size_t)(w.n + 1) / 2);
    if (!r)
        return err_nomemory();
    mpn_sqrtrem(r, NULL, w.d, w.n);
    Obj res = int_from_cbuf(1, r, (w.n + 1) / 2);
    tmp_free(&t);
    return res;
}

Obj int_factorial(Obj n)
{
    if (int_sign(n) < 0) {
        err_set(E_ValueError, "factorial() not defined for negative values");
        return NULL;
    }
    int64_t k;
    if (!int_as_i64_saturated(n, &k)) {
        err_format(E_OverflowError, "factorial() argument should not exceed %lld", (long long)INT64_MAX);
        return NULL;
    }
    if (k > 100000000) {        /* ~2.7e9 bits: more than we will allocate */
        err_nomemory();
        return NULL;
    }
    mpz_t r;
    mpz_init(r);
    mpz_fac_ui(r, (unsigned long)k);
    return int_from_mpz_clear(r);
}

/* n, k >= 0 (checked by the caller). comb: n! / (k! (n-k)!); perm: n! / (n-k)!. */
static Obj comb_perm(Obj n, Obj k, bool perm)
{
    if (int_compare(k, n) > 0)
        return MAKE_SMALLINT(0);
    Obj *r = vm_roots(2);
    r[0] = n;
    r[1] = k;
    if (!perm) {
        Obj nk = int_sub(n, k);               /* comb(n, k) == comb(n, n-k) */
        if (!nk) {
            vm_unroots(r);
            return NULL;
        }
        if (int_compare(nk, r[1]) < 0)
            r[1] = nk;
    }
    int64_t kk;
    Obj res = NULL;
    if (!int_as_i64_saturated(r[1], &kk)) {
        err_format(E_OverflowError, perm ? "k must not exceed %lld" : "min(n - k, k) must not exceed %lld",
                   (long long)INT64_MAX);
    } else if ((uint64_t)kk > MAX_RESULT_BITS / (int_bit_length(r[0]) + 1)) {
        err_nomemory();
    } else {
        IntView u;
        int_view(r[0], &u);
        mpz_t zn, z;
        mpz_init(z);
        mpz_bin_ui(z, view_mpz(zn, &u), (unsigned long)kk);
        if (perm) {
            mpz_t f;
            mpz_init(f);
            mpz_fac_ui(f, (unsigned long)kk);
            mpz_mul(z, z, f);
            mpz_clear(f);
        }
        res = int_from_mpz_clear(z);
    }
    vm_unroots(r);
    return res;
}
Obj int_comb(Obj n, Obj k) { return comb_perm(n, k, false); }
Obj int_perm(Obj n, Obj k) { return comb_perm(n, k, true); }

/* v = m * 2**e with m in [0.5, 1) correctly rounded (v > 0). */
double int_frexp(Obj v, int64_t *e)
{
    IntView w;
    int_view(v, &w);
    int64_t bits = (int64_t)int_bit_length(v);
    bool ovf;
    double m = round_scaled(w.d, w.n, false, -bits, &ovf);
    if (m == 1.0) {
        m = 0.5;
        bits++;
    }
    *e = bits;
    return m;
}

/* ------------------------------------------------------------------ */
/* Shifts and bitwise operations (two's complement semantics)          */
/* ------------------------------------------------------------------ */
Obj int_lshift(Obj a, Obj b)
{
    if (int_sign(b) < 0) {
        err_set(E_ValueError, "negative shift count");
        return NULL;
    }
    if (int_is_zero(a))
        return MAKE_SMALLINT(0);
    int64_t x, s;
    if (!int_small_value(b, &s)) {
        /* CPython: a result of more 30-bit digits than fit in a
         * ssize_t-sized object is an OverflowError; smaller ones fail to
         * allocate */
        IntView w;
        int_view(b, &w);
        unsigned __int128 n = w.n > 2 ? ~(unsigned __int128)0
                              : w.n == 2 ? ((unsigned __int128)w.d[1] << 64) | w.d[0] : w.d[0];
        if (n / 30 + (int_bit_length(a) + 29) / 30 + 1 > (unsigned __int128)((INT64_MAX - 24) / 4))
            err_set(E_OverflowError, "too many digits in integer");
        else
            err_nomemory();
        return NULL;
    }
    if (int_small_value(a, &x) && s < 62) {
        int64_t r = (int64_t)((uint64_t)x << s);
        if ((r >> s) == x && SMALLINT_FITS(r))
            return MAKE_SMALLINT(r);
    }
    if ((uint64_t)s + int_bit_length(a) > MAX_RESULT_BITS) {
        err_nomemory();
        return NULL;
    }
    IntView u;
    int_view(a, &u);
    LimbTmp t;
    mp_limb_t *r = tmp_alloc(&t, (size_t)u.n + (size_t)s / 64 + 1);
    if (!r)
        return err_nomemory();
    mp_size_t rn = shift_left_into(r, u.d, u.n, (uint64_t)s);
    Obj res = int_from_cbuf(u.sign, r, rn);
    tmp_free(&t);
    return res;
}

Obj int_rshift(Obj a, Obj b)
{
    if (int_sign(b) < 0) {
        err_set(E_ValueError, "negative shift count");
        return NULL;
    }
    int64_t x, s;
    if (!int_small_value(b, &s))
        return MAKE_SMALLINT(int_sign(a) < 0 ? -1 : 0);
    if (int_small_value(a, &x))
        return MAKE_SMALLINT(x >> (s > 63 ? 63 : s));   /* arithmetic shift = floor */
    IntView u;
    int_view(a, &u);
    mpz_t z, r;
    mpz_init(r);
    mpz_fdiv_q_2exp(r, view_mpz(z, &u), (mp_bitcnt_t)s);
    return int_from_mpz_clear(r);
}

enum { BIT_AND, BIT_OR, BIT_XOR };
static Obj int_bitop(Obj a, Obj b, int op)
{
    int64_t x, y;
    if (int_small_value(a, &x) && int_small_value(b, &y))
        return MAKE_SMALLINT(op == BIT_AND ? (x & y) : op == BIT_OR ? (x | y) : (x ^ y));
    IntView u, w;
    int_view(a, &u);
    int_view(b, &w);
    mpz_t zu, zw, r;
    mpz_init(r);
    if (op == BIT_AND)
        mpz_and(r, view_mpz(zu, &u), view_mpz(zw, &w));
    else if (op == BIT_OR)
        mpz_ior(r, view_mpz(zu, &u), view_mpz(zw, &w));
    else
        mpz_xor(r, view_mpz(zu, &u), view_mpz(zw, &w));
    return int_from_mpz_clear(r);
}
static Obj int_and(Obj a, Obj b) { return int_bitop(a, b, BIT_AND); }
static Obj int_or(Obj a, Obj b) { return int_bitop(a, b, BIT_OR); }
static Obj int_xor(Obj a, Obj b) { return int_bitop(a, b, BIT_XOR); }

/* ------------------------------------------------------------------ */
/* Hash: n mod (2**61 - 1) with n's sign; -1 becomes -2                */
/* ------------------------------------------------------------------ */
int64_t int_hash(Obj v)
{
    int64_t x, h;
    if (int_small_value(v, &x)) {
        uint64_t m = x < 0 ? -(uint64_t)x : (uint64_t)x;
        if (m >= HASH_MODULUS)
            m -= HASH_MODULUS;
        h = x < 0 ? -(int64_t)m : (int64_t)m;
    } else {
        IntView w;
        int_view(v, &w);
        uint64_t m = 0;
        for (mp_size_t i = w.n - 1; i >= 0; i--)
            m = (uint64_t)((((unsigned __int128)m << 64) | w.d[i]) % HASH_MODULUS);
        h = w.sign < 0 ? -(int64_t)m : (int64_t)m;
    }
    return h == -1 ? -2 : h;
}

/* ------------------------------------------------------------------ */
/* String conversion                                                   */
/* ------------------------------------------------------------------ */
int int_set_max_str_digits(int64_t n)
{
    if (n != 0 && n < INT_MAX_STR_DIGITS_THRESHOLD) {
        err_format(E_ValueError, "maxdigits must be 0 or larger than %d", INT_MAX_STR_DIGITS_THRESHOLD);
        return -1;
    }
    int_max_str_digits = n;
    return 0;
}

int64_t int_get_max_str_digits(void) { return int_max_str_digits; }

static char *int_digits_cstr(Obj v, int base, size_t *len)
{
    IntView w;
    int_view(v, &w);
    if (w.n == 0) {
        char *p = malloc(2);
        if (!p) {
            err_nomemory();
            return NULL;
        }
        p[0] = '0';
        p[1] = 0;
        *len = 1;
        return p;
    }
    mpz_t z;
    mpz_roinit_n(z, w.d, w.n);                    /* magnitude only */
    char *p = malloc(mpz_sizeinbase(z, base) + 2);
    if (!p) {
        err_nomemory();
        return NULL;
    }
    mpz_get_str(p, base, z);
    *len = strlen(p);
    return p;
}

static Obj err_str_digits_limit(void)
{
    err_format(E_ValueError, "Exceeds the limit (%lld digits) for integer string conversion; "
               "use sys.set_int_max_str_digits() to increase the limit", (long long)int_max_str_digits);
    return NULL;
}

Obj int_to_string(Obj v, int base)
{
    int64_t x;
    char buf[80];
    if (int_small_value(v, &x)) {
        uint64_t m = x < 0 ? -(uint64_t)x : (uint64_t)x;
        char *e = buf + sizeof buf, *p = e;
        if (base == 10) {
            do {
                *--p = (char)('0' + m % 10);
                m /= 10;
            } while (m);
        } else {
            unsigned sh = base == 16 ? 4 : base == 8 ? 3 : 1;
            do {
                *--p = "0123456789abcdef"[m & ((1u << sh) - 1)];
                m >>= sh;
            } while (m);
            *--p = base == 16 ? 'x' : base == 8 ? 'o' : 'b';
            *--p = '0';
        }
        if (x < 0)
            *--p = '-';
        return str_new(p, (size_t)(e - p));
    }
    IntView w;
    int_view(v, &w);
    if (base == 10 && int_max_str_digits > 0 &&
        mpn_sizeinbase(w.d, w.n, 10) > (size_t)int_max_str_digits + 1)
        return err_str_digits_limit();
    size_t n;
    int sign = w.sign;
    char *digits = int_digits_cstr(v, base, &n);
    if (!digits)
        return NULL;
    if (base == 10 && int_max_str_digits > 0 && n > (size_t)int_max_str_digits) {
        free(digits);
        return err_str_digits_limit();
    }
    char *s = malloc(n + 4);
    if (!s) {
        free(digits);
        return err_nomemory();
    }
    size_t k = 0;
    if (sign < 0)
        s[k++] = '-';
    if (base != 10) {
        s[k++] = '0';
        s[k++] = base == 16 ? 'x' : base == 8 ? 'o' : 'b';
    }
    memcpy(s + k, digits, n);
    free(digits);
    Obj r = str_new(s, k + n);
    free(s);
    return r;
}

/* Length of the Python whitespace character at p (int()/float() strip
 * these: ASCII spaces and the non-ASCII Unicode whitespace), or 0. */
static size_t space_len(const unsigned char *p, const unsigned char *end)
{
    unsigned c = p[0];
    if (c == ' ' || (c >= '\t' && c <= '\r'))
        return 1;
    if (c < 0x80)
        return 0;
    uint32_t cp;
    size_t n;
    if ((c & 0xE0) == 0xC0 && end - p >= 2) {
        cp = ((c & 0x1Fu) << 6) | (p[1] & 0x3Fu);
        n = 2;
    } else if ((c & 0xF0) == 0xE0 && end - p >= 3) {
        cp = ((c & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
        n = 3;
    } else
        return 0;
    if (cp == 0x85 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
        cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000)
        return n;
    return 0;
}

/* Strip leading and trailing whitespace: adjusts *s, returns the new length. */
size_t num_strip(const char **s, size_t len)
{
    const unsigned char *p = (const unsigned char *)*s, *end = p + len;
    size_t k;
    while (p < end && (k = space_len(p, end)))
        p += k;
    while (end > p) {
        const unsigned char *q = end - 1;
        while (q > p && (*q & 0xC0) == 0x80 && end - q < 3)
            q--;
        if (!(k = space_len(q, end)) || q + k != end)
            break;
        end = q;
    }
    *s = (const char *)p;
    return (size_t)(end - p);
}

char *num_ascii_copy(const char *s, size_t len, size_t *outlen)
{
    size_t i = 0;
    while (i < len && (unsigned char)s[i] < 0x80)
        i++;
    if (i == len)
        return NULL;
    char *o = malloc(len + 1);
    if (!o)
        return NULL;
    size_t k = 0;
    for (i = 0; i < len;) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            o[k++] = (char)c;
            i++;
            continue;
        }
        uint32_t cp;
        size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        cp = c & (0x7Fu >> n);
        for (size_t j = 1; j < n && i + j < len; j++)
            cp = (cp << 6) | ((unsigned char)s[i + j] & 0x3Fu);
        i += n;
        int dv = uni_decimal_value(cp);
        o[k++] = dv >= 0 ? (char)('0' + dv) : uni_isspace(cp) ? ' ' : '?';   /* '?' is never valid */
    }
    o[k] = 0;
    *outlen = k;
    return o;
}

static int digit_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 10;
    return 99;
}

/* Parse an int() literal. NULL with *bad: a syntax error, no exception set;
 * NULL without *bad: an exception is set. Reads s completely before it
 * allocates, so s may point into a GC object. */
static Obj parse_int_literal(const char *s, size_t len, int base, bool *bad)
{
    *bad = false;
    len = num_strip(&s, len);
    const char *p = s, *end = s + len;
    int sign = 1;
    if (p < end && (*p == '+' || *p == '-')) {
        sign = *p == '-' ? -1 : 1;
        p++;
    }
    bool prefixed = false;
    if (end - p >= 2 && p[0] == '0') {
        char c = (char)(p[1] | 0x20);
        int pb = c == 'x' ? 16 : c == 'o' ? 8 : c == 'b' ? 2 : 0;
        if (pb && (base == 0 || base == pb)) {
            base = pb;
            p += 2;
            prefixed = true;
        }
    }
    bool base0 = base == 0;
    if (base0)
        base = 10;
    /* validate: underscores only between digits (or right after a prefix) */
    size_t ndigits = 0;
    bool allow_us = prefixed, last_us = false, invalid = false, nonzero = false;
    for (const char *q = p; q < end; q++) {
        unsigned char c = (unsigned char)*q;
        if (c == '_') {
            if (!allow_us) {
                invalid = true;
                break;
            }
            allow_us = false;
            last_us = true;
            continue;
        }
        int dv = digit_value(c);
        if (dv >= base) {
            invalid = true;
            break;
        }
        nonzero |= dv != 0;
        ndigits++;
        allow_us = true;
        last_us = false;
    }
    bool pow2 = (base & (base - 1)) == 0;
    if (!pow2 && int_max_str_digits > 0 && ndigits > (size_t)int_max_str_digits) {
        err_format(E_ValueError, "Exceeds the limit (%lld digits) for integer string conversion: "
                   "value has %zu digits; use sys.set_int_max_str_digits() to increase the limit",
                   (long long)int_max_str_digits, ndigits);
        return NULL;
    }
    if (invalid || ndigits == 0 || last_us || (base0 && !prefixed && p[0] == '0' && nonzero)) {
        *bad = true;
        return NULL;
    }
    /* small values: accumulate directly */
    uint64_t acc = 0;
    bool fits = true;
    for (const char *q = p; q < end && fits; q++)
        if (*q != '_')
            fits = !__builtin_mul_overflow(acc, (uint64_t)base, &acc) &&
                   !__builtin_add_overflow(acc, (uint64_t)digit_value((unsigned char)*q), &acc);
    if (fits) {
        if (acc <= (uint64_t)SMALLINT_MAX)
            return MAKE_SMALLINT(sign < 0 ? -(int64_t)acc : (int64_t)acc);
        return int_from_cbuf(sign, &acc, 1);
    }
    unsigned char *dig = malloc(ndigits);
    if (!dig)
        return err_nomemory();
    size_t k = 0;
    for (const char *q = p; q < end; q++)
        if (*q != '_' && (k || *q != '0'))
            dig[k++] = (unsigned char)digit_value((unsigned char)*q);
    unsigned bits_per = 1;
    while ((1u << bits_per) < (unsigned)base)
        bits_per++;
    LimbTmp t;
    mp_limb_t *r = tmp_alloc(&t, k * bits_per / 64 + 2);
    if (!r) {
        free(dig);
        return err_nomemory();
    }
    mp_size_t rn = mpn_set_str(r, dig, k, base);
    free(dig);
    Obj res = int_from_cbuf(sign, r, rn);
    tmp_free(&t);
    return res;
}

/* Copy a repr's first 200 code points (CPython's %.200R) into a C string. */
static char *repr200(Obj v)
{
    Obj r = vm_repr(v);
    if (!r)
        return NULL;
    const char *s = str_cstr(r);
    size_t n = (size_t)STR(r)->nbytes, i = 0, cps = 0;
    while (i < n && cps < 200) {
        i++;
        while (i < n && ((unsigned char)s[i] & 0xC0) == 0x80)
            i++;
        cps++;
    }
    char *c = malloc(i + 1);
    if (!c) {
        err_nomemory();
        return NULL;
    }
    memcpy(c, s, i);
    c[i] = 0;
    return c;
}

static Obj err_invalid_literal(Obj literal, int base)
{
    char *r = repr200(literal);
    if (r) {
        err_format(E_ValueError, "invalid literal for int() with base %d: %s", base, r);
        free(r);
    }
    return NULL;
}

Obj int_from_string(const char *s, size_t len, int base)
{
    if (base != 0 && (base < 2 || base > 36)) {
        err_set(E_ValueError, "int() base must be >= 2 and <= 36, or 0");
        return NULL;
    }
    bool bad;
    size_t alen;
    char *ascii = num_ascii_copy(s, len, &alen);
    Obj r = ascii ? parse_int_literal(ascii, alen, base, &bad) : parse_int_literal(s, len, base, &bad);
    free(ascii);
    if (r || !bad)
        return r;
    char *copy = malloc(len + 1);       /* s may be GC memory: copy before allocating */
    if (!copy)
        return err_nomemory();
    memcpy(copy, s, len);
    Obj lit = str_new(copy, len);
    free(copy);
    if (!lit)
        return NULL;
    return err_invalid_literal(lit, base);
}

Obj int_parse_object(Obj obj, int base)
{
    if (base != 0 && (base < 2 || base > 36)) {
        err_set(E_ValueError, "int() base must be >= 2 and <= 36, or 0");
        return NULL;
    }
    const char *s;
    int64_t len;
    if (!str_or_bytes_like(obj, &s, &len)) {
        err_format(E_TypeError, "int() can't convert non-string with explicit base");
        return NULL;
    }
    size_t n = (size_t)len;
    Obj *root = vm_roots(1);
    root[0] = obj;
    bool bad;
    size_t alen;
    char *ascii = IS_STR(vm_unwrap(obj)) ? num_ascii_copy(s, n, &alen) : NULL;
    Obj r = ascii ? parse_int_literal(ascii, alen, base, &bad) : parse_int_literal(s, n, base, &bad);
    free(ascii);
    if (!r && bad)
        err_invalid_literal(root[0], base);
    vm_unroots(root);
    return r;
}

/* ------------------------------------------------------------------ */
/* Rounding                                                            */
/* ------------------------------------------------------------------ */
static Obj int_round(Obj v, Obj ndigits)
{
    v = int_exact(v);
    if (!ndigits || int_sign(ndigits) >= 0)
        return v;
    /* round half even to a multiple of 10**k */
    int64_t k;
    if (!int_small_value(ndigits, &k) || (uint64_t)(-k) > int_bit_length(v) + 1)
        return MAKE_SMALLINT(0);                  /* 10**k > 2|v| */
    Obj *r = vm_roots(5);
    Obj res = NULL;
    r[0] = v;
    if (!(r[1] = int_pow(MAKE_SMALLINT(10), MAKE_SMALLINT(-k), NULL)))
        goto done;
    if (floor_divmod(r[0], r[1], &r[2], &r[3], "integer division or modulo by zero") < 0)
        goto done;
    if (!(r[4] = int_add(r[3], r[3])))            /* twice the remainder */
        goto done;
    int c = int_compare(r[4], r[1]);
    if (c > 0 || (c == 0 && int_is_odd(r[2])))
        if (!(r[2] = int_add(r[2], MAKE_SMALLINT(1))))
            goto done;
    res = int_mul(r[2], r[1]);
done:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* Slots                                                               */
/* ------------------------------------------------------------------ */
/* Operands of a binary slot: both ints (user subclasses unwrapped)? */
#define INT_OPERANDS(a, b)                                  \
    do {                                                    \
        a = vm_unwrap(a);                                   \
        b = vm_unwrap(b);                                   \
        if (!IS_INT(a) || !IS_INT(b))                       \
            return g_NotImplemented;                        \
    } while (0)

static Obj int_nb_add(Obj a, Obj b)
{
    if (IS_SMALLINT(a) && IS_SMALLINT(b))
        return int_from_i64(SMALLINT_VAL(a) + SMALLINT_VAL(b));
    INT_OPERANDS(a, b);
    return int_add(a, b);
}
static Obj int_nb_sub(Obj a, Obj b)
{
    if (IS_SMALLINT(a) && IS_SMALLINT(b))
        return int_from_i64(SMALLINT_VAL(a) - SMALLINT_VAL(b));
    INT_OPERANDS(a, b);
    return int_sub(a, b);
}
static Obj int_nb_mul(Obj a, Obj b) { INT_OPERANDS(a, b); return int_mul(a, b); }
static Obj int_nb_truediv(Obj a, Obj b) { INT_OPERANDS(a, b); return int_truediv(a, b); }
static Obj int_nb_floordiv(Obj a, Obj b) { INT_OPERANDS(a, b); return int_floordiv(a, b); }
static Obj int_nb_mod(Obj a, Obj b) { INT_OPERANDS(a, b); return int_mod(a, b); }
static Obj int_nb_divmod(Obj a, Obj b) { INT_OPERANDS(a, b); return int_divmod(a, b); }
static Obj int_nb_pow(Obj a, Obj b) { INT_OPERANDS(a, b); return int_pow(a, b, NULL); }
static Obj int_nb_lshift(Obj a, Obj b) { INT_OPERANDS(a, b); return int_lshift(a, b); }
static Obj int_nb_rshift(Obj a, Obj b) { INT_OPERANDS(a, b); return int_rshift(a, b); }
static Obj int_nb_and(Obj a, Obj b) { INT_OPERANDS(a, b); return int_and(a, b); }
static Obj int_nb_or(Obj a, Obj b) { INT_OPERANDS(a, b); return int_or(a, b); }
static Obj int_nb_xor(Obj a, Obj b) { INT_OPERANDS(a, b); return int_xor(a, b); }

static Obj int_nb_neg(Obj v) { return int_neg(vm_unwrap(v)); }
static Obj int_nb_pos(Obj v) { return int_exact(v); }
static Obj int_nb_invert(Obj v) { return int_invert(vm_unwrap(v)); }
static Obj int_nb_abs(Obj v) { return int_abs(vm_unwrap(v)); }
static Obj int_nb_float(Obj v)
{
    double d;
    if (int_as_double(vm_unwrap(v), &d) < 0)
        return NULL;
    return float_new(d);
}

static Obj int_tp_repr(Obj v) { return int_to_string(vm_unwrap(v), 10); }
static int64_t int_tp_hash(Obj v) { return int_hash(vm_unwrap(v)); }
static int int_tp_bool(Obj v) { return !int_is_zero(vm_unwrap(v)); }

static bool cmp_result(int c, int op)
{
    switch (op) {
    case CMP_LT: return c < 0;
    case CMP_LE: return c <= 0;
    case CMP_EQ: return c == 0;
    case CMP_NE: return c != 0;
    case CMP_GT: return c > 0;
    default: return c >= 0;
    }
}

static Obj int_richcompare(Obj a, Obj b, int op)
{
    a = vm_unwrap(a);
    b = vm_unwrap(b);
    if (!IS_INT(a))
        return g_NotImplemented;
    if (IS_INT(b))
        return vm_bool(cmp_result(int_compare(a, b), op));
    return g_NotImplemented;       /* int vs float: float's reflected slot compares exactly */
}

/* A value of a user subclass of int/float: an instance holding it. */
static Obj wrap_in_subclass(Obj type, Obj value)
{
    Obj *r = vm_roots(1);
    r[0] = value;
    Obj inst = instance_new((TypeObj *)type);
    if (inst) {
        VM_WRITE(inst);
        INST(inst)->base_value = r[0];
    }
    vm_unroots(r);
    return inst;
}

/* int(x) for one argument. */
static Obj int_from_object(Obj x)
{
    switch (TID(x)) {
    case 0:
    case TID_BIGINT:
        return x;
    case TID_BOOL:
        return MAKE_SMALLINT(((BoolObj *)x)->value);
    case TID_FLOAT:
        return int_from_double(FLOAT_VAL(x));
    case TID_STR:
    case TID_BYTES:
    case TID_BYTEARRAY:
    case TID_MEMORYVIEW:
        return int_parse_object(x, 10);
    default:
        return vm_number_int(x);       /* __int__, __index__, __trunc__, str subclasses, ... */
    }
}

static Obj int_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    size_t nkw = kwnames ? (size_t)TUPLE_LEN(kwnames) : 0;
    int base_ix = -1;
    if (nargs + nkw > 2) {
        err_format(E_TypeError, "int() takes at most 2 arguments (%zu given)", nargs + nkw);
        return NULL;
    }
    for (size_t i = 0; i < nkw; i++) {
        Obj name = TUPLE_ITEMS(kwnames)[i];
        if (!str_eq_cstr(name, "base")) {
            err_format(E_TypeError, "'%s' is an invalid keyword argument for int()", str_cstr(name));
            return NULL;
        }
        if (nargs >= 2) {
            err_set(E_TypeError, "argument for int() given by name ('base') and position (2)");
            return NULL;
        }
        base_ix = (int)(nargs + i);
    }
    if (nargs == 2)
        base_ix = 1;
    Obj v;
    if (nargs == 0) {
        if (base_ix >= 0) {
            err_set(E_TypeError, "int() missing string argument");
            return NULL;
        }
        v = MAKE_SMALLINT(0);
    } else if (base_ix < 0) {
        v = int_from_object(args[0]);
    } else {
        int64_t b;
        if (vm_index_i64(args[base_ix], &b) < 0)
            return NULL;
        if (b != 0 && (b < 2 || b > 36)) {
            err_set(E_ValueError, "int() base must be >= 2 and <= 36, or 0");
            return NULL;
        }
        if (TID(vm_unwrap(args[0])) == TID_MEMORYVIEW) {   /* CPython: only str, bytes, bytearray here */
            err_set(E_TypeError, "int() can't convert non-string with explicit base");
            return NULL;
        }
        v = int_parse_object(args[0], (int)b);
    }
    if (!v || (TypeObj *)type == T_int)
        return v;
    return wrap_in_subclass(type, v);
}

/* ------------------------------------------------------------------ */
/* Methods                                                             */
/* ------------------------------------------------------------------ */

static Obj int_m_self(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs; (void)kwnames;
    return int_exact(args[0]);
}
static Obj int_m_conjugate(Obj *args, size_t nargs, Obj kwnames)
{
    return int_exact(args[0]);
}
static Obj int_m_trunc(Obj *args, size_t nargs, Obj kwnames) { return int_exact(args[0]); }
static Obj int_m_floor(Obj *args, size_t nargs, Obj kwnames) { return int_exact(args[0]); }
static Obj int_m_ceil(Obj *args, size_t nargs, Obj kwnames) { return int_exact(args[0]); }

static Obj int_m_bit_length(Obj *args, size_t nargs, Obj kwnames)
{
    return int_from_u64(int_bit_length(vm_unwrap(args[0])));
}

static Obj int_m_bit_count(Obj *args, size_t nargs, Obj kwnames)
{
    IntView w;
    int_view(vm_unwrap(args[0]), &w);
    return int_from_u64(w.n ? (uint64_t)mpn_popcount(w.d, w.n) : 0);
}

static Obj int_m_as_integer_ratio(Obj *args, size_t nargs, Obj kwnames)
{
    return tuple_pack(2, int_exact(args[0]), MAKE_SMALLINT(1));
}

static Obj int_m_getnewargs(Obj *args, size_t nargs, Obj kwnames)
{
    return tuple_pack(1, int_exact(args[0]));
}

static Obj int_m_round(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs < 2 || IS_NONE(args[1]))
        return int_exact(args[0]);
    Obj nd = vm_index(args[1]);
    if (!nd)
        return NULL;
    return int_round(args[0], nd);
}

static Obj int_m_format(Obj *args, size_t nargs, Obj kwnames)
{
    if (!IS_STR(args[1])) {
        err_format(E_TypeError, "__format__() argument must be str, not %s", type_name(args[1]));
        return NULL;
    }
    if (str_len(args[1]) == 0)
        return vm_str(args[0]);
    return format_int(int_exact(args[0]), args[1]);
}

static Obj int_m_sizeof(Obj *args, size_t nargs, Obj kwnames)
{
    /* CPython's figure: a 24-byte header and one 4-byte digit per 30 bits */
    uint64_t digits = (int_bit_length(vm_unwrap(args[0])) + 29) / 30;
    return int_from_u64(24 + 4 * (digits ? digits : 1));
}

/* byteorder argument: 1 little, 0 big, -1 error */
static int parse_byteorder(Obj v, const char *fname)
{
    if (!v)
        return 0;
    if (!IS_STR(v)) {
        err_format(E_TypeError, "%s() argument 'byteorder' must be str, not %s", fname, type_name(v));
        return -1;
    }
    if (str_eq_cstr(v, "little"))
        return 1;
    if (str_eq_cstr(v, "big"))
        return 0;
    err_set(E_ValueError, "byteorder must be either 'little' or 'big'");
    return -1;
}

static Obj int_m_to_bytes(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"length", "byteorder", "signed", NULL};
    Obj *r = vm_roots(4);
    Obj res = NULL;
    if (vm_parse_args("to_bytes", args + 1, nargs - 1, kwnames, names, 0, 2, r + 1) < 0)
        goto done;
    int64_t length = 1;
    if (r[1] && vm_index_i64(r[1], &length) < 0)
        goto done;
    if (length < 0) {
        err_set(E_ValueError, "length argument must be non-negative");
        goto done;
    }
    int little = parse_byteorder(r[2], "to_bytes");
    if (little < 0)
        goto done;
    int is_signed = 0;
    if (r[3] && (is_signed = vm_is_true(r[3])) < 0)
        goto done;
    r[0] = int_exact(args[0]);
    int sign = int_sign(r[0]);
    if (sign < 0 && !is_signed) {
        err_set(E_OverflowError, "can't convert negative int to unsigned");
        goto done;
    }
    /* bits needed: the magnitude (of |v|-1 for negatives, in two's
     * complement) plus a sign bit when signed (none for 0 and -1) */
    IntView w;
    int_view(r[0], &w);
    uint64_t bl = int_bit_length(r[0]);
    if (sign < 0 && mpn_popcount(w.d, w.n) == 1)
        bl--;
    if (bl && is_signed)
        bl++;
    if ((unsigned __int128)bl > (unsigned __int128)length * 8) {
        err_set(E_OverflowError, "int too big to convert");
        goto done;
    }
    /* The magnitude's own bytes (little-endian, at most `length` of them) in C
     * memory first: the bytes object is then written in one pass, and a huge
     * length costs one allocation of it, not a C copy and a byte loop too. */
    unsigned char *mag = malloc((size_t)w.n * sizeof(mp_limb_t) + 1);
    if (!mag) {
        err_nomemory();
        goto done;
    }
    size_t count = 0;
    if (w.n) {
        mpz_t z;
        mpz_export(mag, &count, -1, 1, 0, 0, mpz_roinit_n(z, w.d, w.n));   /* |v|, little-endian */
    }
    unsigned char fill = 0;
    if (sign < 0) {                               /* two's complement over `length` bytes */
        unsigned carry = 1;
        for (size_t i = 0; i < count; i++) {
            unsigned b = (unsigned)(unsigned char)~mag[i] + carry;
            mag[i] = (unsigned char)b;
            carry = b >> 8;
        }
        fill = 0xff;                              /* |v| > 0: the carry ended inside it */
    }
    if (count > (size_t)length)                   /* -1 in 0 bytes: its one 0xff byte is all sign */
        count = (size_t)length;
    res = bytes_alloc(length);                    /* zeroed */
    if (res) {
        unsigned char *d = VM_LINEAR(BYTES(res)->data);
        size_t n = (size_t)length;
        if (little) {
            memcpy(d, mag, count);
            if (fill)
                memset(d + count, fill, n - count);
        } else {
            for (size_t i = 0; i < count; i++)
                d[n - 1 - i] = mag[i];
            if (fill)
                memset(d, fill, n - count);
        }
    }
    free(mag);
done:
    vm_unroots(r);
    return res;
}

/* Copy the bytes of a bytes-like object or iterable of ints to malloc'd memory. */
static unsigned char *bytes_of(Obj v, size_t *n)
{
    const char *s;
    Obj u = vm_unwrap(v);
    int64_t nbytes;
    if ((TID(u) == TID_BYTES || TID(u) == TID_BYTEARRAY || TID(u) == TID_ITER) && bytes_like(u, &s, &nbytes)) {   /* ITER: an array or a map */
        *n = (size_t)nbytes;
        unsigned char *p = malloc(*n + 1);
        if (!p) {
            err_nomemory();
            return NULL;
        }
        memcpy(p, s, *n);
        return p;
    }
    if (IS_STR(u)) {
        err_format(E_TypeError, "cannot convert '%s' object to bytes", type_name(v));
        return NULL;
    }
    Obj *r = vm_roots(3);
    unsigned char *p = NULL;
    size_t len = 0, cap = 16;
    r[2] = v;
    r[0] = vm_iter(v);
    if (!r[0]) {
        if (err_matches(E_TypeError)) {
            err_clear();
            err_format(E_TypeError, "cannot convert '%s' object to bytes", type_name(r[2]));
        }
        goto fail;
    }
    if (!(p = malloc(cap))) {
        err_nomemory();
        goto fail;
    }
    while ((r[1] = vm_next(r[0]))) {
        int64_t b;
        if (vm_index_i64(r[1], &b) < 0)
            goto fail;
        if (b < 0 || b > 255) {
            err_set(E_ValueError, "bytes must be in range(0, 256)");
            goto fail;
        }
        if (len == cap) {
            unsigned char *q = realloc(p, cap *= 2);
            if (!q) {
                err_nomemory();
                goto fail;
            }
            p = q;
        }
        p[len++] = (unsigned char)b;
    }
    if (err_occurred())
        goto fail;
    vm_unroots(r);
    *n = len;
    return p;
fail:
    free(p);
    vm_unroots(r);
    return NULL;
}

static Obj int_m_from_bytes(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"bytes", "byteorder", "signed", NULL};
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = args[0];     /* the class */
    if (vm_parse_args("from_bytes", args + 1, nargs - 1, kwnames, names, 1, 2, r + 1) < 0)
        goto done;
    int little = parse_byteorder(r[2], "from_bytes");
    if (little < 0)
        goto done;
    int is_signed = 0;
    if (r[3] && (is_signed = vm_is_true(r[3])) < 0)
        goto done;
    size_t n;
    unsigned char *p = bytes_of(r[1], &n);
    if (!p)
        goto done;
    mpz_t z;
    mpz_init(z);
    if (n)
        mpz_import(z, n, little ? -1 : 1, 1, 0, 0, p);
    if (is_signed && n && (p[little ? n - 1 : 0] & 0x80)) {
        mpz_t t;
        mpz_init(t);
        mpz_setbit(t, (mp_bitcnt_t)n * 8);
        mpz_sub(z, z, t);
        mpz_clear(t);
    }
    free(p);
    res = int_from_mpz_clear(z);
    if (res && (TypeObj *)r[0] != T_int)
        res = vm_call1(r[0], res);
done:
    vm_unroots(r);
    return res;
}

static Obj int_get_self(Obj *args, size_t nargs, Obj kwnames) { return int_m_self(args, nargs, kwnames); }
static Obj int_get_zero(Obj *args, size_t nargs, Obj kwnames)
{
    (void)args; (void)nargs; (void)kwnames;
    return MAKE_SMALLINT(0);
}
static Obj int_get_one(Obj *args, size_t nargs, Obj kwnames)
{
    (void)args; (void)nargs; (void)kwnames;
    return MAKE_SMALLINT(1);
}

static const MethodDef int_methods[] = {
    {"conjugate", int_m_conjugate, METH_NOARGS, "Returns self, the complex conjugate of any int."},
    {"bit_length", int_m_bit_length, METH_NOARGS, "Number of bits necessary to represent self in binary."},
    {"bit_count", int_m_bit_count, METH_NOARGS, "Number of ones in the binary representation of the absolute value of self."},
    {"to_bytes", int_m_to_bytes, METH_KW, "Return an array of bytes representing an integer."},
    {"from_bytes", int_m_from_bytes, METH_KW | METH_CLASS, "Return the integer represented by the given array of bytes."},
    {"as_integer_ratio", int_m_as_integer_ratio, METH_NOARGS, "Return integer ratio."},
    {"__trunc__", int_m_trunc, METH_NOARGS, "Truncating an Integral returns itself."},
    {"__floor__", int_m_floor, METH_NOARGS, "Flooring an Integral returns itself."},
    {"__ceil__", int_m_ceil, METH_NOARGS, "Ceiling of an Integral returns itself."},
    {"__round__", int_m_round, METH_ARGS(0, 1), "Rounding an Integral returns itself."},
    {"__getnewargs__", int_m_getnewargs, METH_NOARGS, NULL},
    {"__format__", int_m_format, METH_O, NULL},
    {"__sizeof__", int_m_sizeof, METH_NOARGS, "Returns size in memory, in bytes."},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* bool                                                                */
/* ------------------------------------------------------------------ */
static Obj bool_tp_repr(Obj v)
{
    static Obj s_true, s_false;
    bool t = ((BoolObj *)v)->value != 0;
    Obj *cache = t ? &s_true : &s_false;
    if (!*cache)
        *cache = str_intern_cstr(t ? "True" : "False");    /* interned: pinned */
    return *cache;
}

static Obj bool_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    (void)type;
    if (vm_check_args("bool", nargs, kwnames, 0, 1) < 0)
        return NULL;
    if (nargs == 0)
        return g_False;
    int t = vm_is_true(args[0]);
    if (t < 0)
        return NULL;
    return vm_bool(t);
}

#define BOOL_BITOP(fname, intop, cop)                                       \
    static Obj fname(Obj a, Obj b)                                          \
    {                                                                       \
        if (TID(a) == TID_BOOL && TID(b) == TID_BOOL)                       \
            return vm_bool((((BoolObj *)a)->value cop((BoolObj *)b)->value) != 0); \
        return intop(a, b);                                                 \
    }
BOOL_BITOP(bool_nb_and, int_nb_and, &)
BOOL_BITOP(bool_nb_or, int_nb_or, |)
BOOL_BITOP(bool_nb_xor, int_nb_xor, ^)

/* ------------------------------------------------------------------ */
/* Type set-up                                                         */
/* ------------------------------------------------------------------ */
/* GMP's temporaries through vm/'s allocation calls: under STM those of a
 * transaction that aborts are freed (txmalloc.c). */
static void *gmp_alloc(size_t n) { return malloc(n); }
static void *gmp_realloc(void *p, size_t old, size_t n) { (void)old; return realloc(p, n); }
static void gmp_free(void *p, size_t n) { (void)n; free(p); }

void int_init_type(void)
{
    if (TM_STM)
        mp_set_memory_functions(gmp_alloc, gmp_realloc, gmp_free);
    TypeObj *t = T_int = (TypeObj *)type_new_builtin("int", T_object, TID_BIGINT, TPF_BASETYPE | TPF_MATCH_SELF);
    t->tp_repr = int_tp_repr;
    t->tp_str = int_tp_repr;
    t->tp_hash = int_tp_hash;
    t->tp_richcompare = int_richcompare;
    t->tp_bool = int_tp_bool;
    t->tp_new = int_tp_new;
    t->nb[NB_ADD] = int_nb_add;
    t->nb[NB_SUB] = int_nb_sub;
    t->nb[NB_MUL] = int_nb_mul;
    t->nb[NB_TRUEDIV] = int_nb_truediv;
    t->nb[NB_FLOORDIV] = int_nb_floordiv;
    t->nb[NB_MOD] = int_nb_mod;
    t->nb[NB_POW] = int_nb_pow;
    t->nb[NB_LSHIFT] = int_nb_lshift;
    t->nb[NB_RSHIFT] = int_nb_rshift;
    t->nb[NB_AND] = int_nb_and;
    t->nb[NB_OR] = int_nb_or;
    t->nb[NB_XOR] = int_nb_xor;
    t->nb[NB_DIVMOD] = int_nb_divmod;
    t->nb_neg = int_nb_neg;
    t->nb_pos = int_nb_pos;
    t->nb_invert = int_nb_invert;
    t->nb_abs = int_nb_abs;
    t->nb_int = int_nb_pos;
    t->nb_index = int_nb_pos;
    t->nb_float = int_nb_float;
    type_add_methods(t, int_methods);
    type_add_getset(t, "real", int_get_self, NULL);
    type_add_getset(t, "imag", int_get_zero, NULL);
    type_add_getset(t, "numerator", int_get_self, NULL);
    type_add_getset(t, "denominator", int_get_one, NULL);
    type_ready(t);

    TypeObj *b = T_bool = (TypeObj *)type_new_builtin("bool", T_int, TID_BOOL, TPF_MATCH_SELF);
    b->tp_repr = bool_tp_repr;
    b->tp_str = bool_tp_repr;
    b->tp_new = bool_tp_new;
    b->nb[NB_AND] = bool_nb_and;
    b->nb[NB_OR] = bool_nb_or;
    b->nb[NB_XOR] = bool_nb_xor;
    type_ready(b);
}
