/* _datetime.timedelta: days (|days| <= 999999999) and the microseconds of
 * a day, normalised as CPython's. Arithmetic with ints and floats goes
 * through Python ints (the results can pass 64 bits) with CPython's
 * rounding: half to even. */
#include "datetime.h"

#include <math.h>

static Obj dt_delta_from_int(Obj us);   /* a Python int of microseconds */

Obj dt_delta_new(int64_t days, int64_t us_of_day)
{
    if (days < -DT_MAX_DAYS || days > DT_MAX_DAYS) {
        err_format(E_OverflowError, "days=%lld; must have magnitude <= %d", (long long)days, DT_MAX_DAYS);
        return NULL;
    }
    Obj d = iter_alloc(T_dt_delta, NULL, 0);
    if (d) {
        ITER(d)->i = days;
        ITER(d)->n = us_of_day;
    }
    return d;
}

Obj dt_delta_from_us(__int128 us)
{
    __int128 days = us / DT_US_PER_DAY, rem = us % DT_US_PER_DAY;
    if (rem < 0) {
        rem += DT_US_PER_DAY;
        days--;
    }
    if (days < -DT_MAX_DAYS || days > DT_MAX_DAYS) {
        if (days > INT64_MAX / 2 || days < INT64_MIN / 2)
            err_set(E_OverflowError, "Python int too large to convert to C int");
        else
            err_format(E_OverflowError, "days=%lld; must have magnitude <= %d", (long long)days, DT_MAX_DAYS);
        return NULL;
    }
    return dt_delta_new((int64_t)days, (int64_t)rem);
}

static Obj dt_delta_from_int(Obj us)
{
    int64_t v;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = us;
    if (int_as_i64(r[0], &v) == 0) {
        vm_unroots(r);
        return dt_delta_from_us(v);
    }
    err_clear();   /* (the OverflowError it raised may have moved us: r[0] has it) */
    r[1] = int_from_i64(DT_US_PER_DAY);
    if (r[1] && (r[0] = int_divmod(r[0], r[1]))) {
        int64_t days, rem;
        if (int_as_i64(TUPLE_ITEMS(r[0])[0], &days) < 0) {
            err_clear();
            err_set(E_OverflowError, "Python int too large to convert to C int");
        } else if (int_as_i64(TUPLE_ITEMS(r[0])[1], &rem) == 0) {
            res = dt_delta_new(days, rem);
        }
    }
    vm_unroots(r);
    return res;
}

/* Total microseconds as a Python int. */
static Obj delta_to_int(Obj d)
{
    __int128 us = delta_us(d);
    if (us >= INT64_MIN && us <= INT64_MAX)
        return int_from_i64((int64_t)us);
    int64_t days = dt_i(d), rest = dt_n(d);
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = int_from_i64(days);
    if (r[0] && (r[1] = int_from_i64(DT_US_PER_DAY)) && (r[0] = int_mul(r[0], r[1])) &&
        (r[1] = int_from_i64(rest)))
        res = int_add(r[0], r[1]);
    vm_unroots(r);
    return res;
}

/* round(a / b) with ties to even, for Python ints. */
static Obj divide_nearest(Obj a, Obj b)
{
    if (int_is_zero(b)) {
        err_set(E_ZeroDivisionError, "integer division or modulo by zero");
        return NULL;
    }
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = a;
    r[1] = b;
    if (!(r[2] = int_divmod(r[0], r[1])))
        goto out;
    if (!(r[3] = int_add(TUPLE_ITEMS(r[2])[1], TUPLE_ITEMS(r[2])[1])))
        goto out;
    int c = int_compare(r[3], r[1]);
    int sb = int_sign(r[1]);
    bool up = sb > 0 ? (c > 0 || (c == 0 && int_is_odd(TUPLE_ITEMS(r[2])[0])))
                     : (c < 0 || (c == 0 && int_is_odd(TUPLE_ITEMS(r[2])[0])));
    res = TUPLE_ITEMS(r[2])[0];
    if (up)
        res = int_add(res, MAKE_SMALLINT(1));
out:
    vm_unroots(r);
    return res;
}

/* ---- constructor ---- */

/* sum += num * factor; a float's fraction below a microsecond goes to *leftover. */
static int accumulate(Obj *sum, Obj num, int64_t factor, double *leftover, const char *tag)
{
    Obj *r = vm_roots(2);
    int rc = -1;
    Obj u = vm_unwrap(num);
    if (IS_INT(u)) {
        if (TID(u) == TID_BOOL)
            u = MAKE_SMALLINT(((BoolObj *)u)->value);
        r[1] = u;
        r[0] = int_from_i64(factor);
        if (r[0] && (r[0] = int_mul(r[1], r[0])) && (*sum = int_add(*sum, r[0])))
            rc = 0;
    } else if (IS_FLOAT(u)) {
        double d = FLOAT_VAL(u), ip, fp = modf(d, &ip);
        if (!(r[0] = int_from_double(ip)) || !(r[1] = int_from_i64(factor)) || !(r[0] = int_mul(r[0], r[1])) ||
            !(*sum = int_add(*sum, r[0])))
            goto out;
        if (fp != 0.0) {
            double x = fp * (double)factor, ip2, fp2 = modf(x, &ip2);
            if (!(r[0] = int_from_double(ip2)) || !(*sum = int_add(*sum, r[0])))
                goto out;
            *leftover += fp2;
        }
        rc = 0;
    } else {
        err_format(E_TypeError, "unsupported type for timedelta %s component: %s", tag, type_name(num));
    }
out:
    vm_unroots(r);
    return rc;
}

static Obj delta_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"days", "seconds", "microseconds", "milliseconds", "minutes", "hours",
                                        "weeks", NULL};
    Obj *a = vm_roots(9);   /* the 7 arguments, type, the sum */
    Obj res = NULL;
    a[7] = type;
    if (vm_parse_args("timedelta", args, nargs, kwnames, names, 0, 7, a) < 0)
        goto out;
    static const int order[7] = {2, 3, 1, 4, 5, 0, 6};   /* CPython adds microseconds first, weeks last */
    static const int64_t factors[7] = {86400000000LL, 1000000, 1, 1000, 60000000LL, 3600000000LL, 604800000000LL};
    static const char *const tags[7] = {"days", "seconds", "microseconds", "milliseconds", "minutes", "hours", "weeks"};
    a[8] = MAKE_SMALLINT(0);
    double leftover = 0.0;
    for (int k = 0; k < 7; k++) {
        int i = order[k];
        if (a[i] && accumulate(&a[8], a[i], factors[i], &leftover, tags[i]) < 0)
            goto out;
    }
    if (leftover != 0.0) {
        double whole = round(leftover);
        if (fabs(whole - leftover) == 0.5) {
            int odd = int_is_odd(a[8]);
            whole = 2.0 * round((leftover + odd) * 0.5) - odd;
        }
        if (!(a[8] = int_add(a[8], MAKE_SMALLINT((int64_t)whole))))
            goto out;
    }
    res = dt_wrap(T_dt_delta, a[7], dt_delta_from_int(a[8]));
out:
    vm_unroots(a);
    return res;
}

/* ---- repr, str, hash, compare ---- */

static Obj delta_repr(Obj self)
{
    int64_t days = dt_i(self), secs = dt_n(self) / 1000000, us = dt_n(self) % 1000000;
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "%s(", dt_type_display(self));
    const char *sep = "";
    if (days) {
        sb_printf(&b, "days=%lld", (long long)days);
        sep = ", ";
    }
    if (secs) {
        sb_printf(&b, "%sseconds=%lld", sep, (long long)secs);
        sep = ", ";
    }
    if (us)
        sb_printf(&b, "%smicroseconds=%lld", sep, (long long)us);
    if (!days && !secs && !us)
        sb_addc(&b, '0');
    sb_addc(&b, ')');
    return sb_finish(&b);
}

static Obj delta_str(Obj self)
{
    int64_t days = dt_i(self), secs = dt_n(self) / 1000000, us = dt_n(self) % 1000000;
    StrBuf b;
    sb_init(&b);
    if (days)
        sb_printf(&b, "%lld day%s, ", (long long)days, days == 1 || days == -1 ? "" : "s");
    sb_printf(&b, "%lld:%02lld:%02lld", (long long)(secs / 3600), (long long)(secs / 60 % 60), (long long)(secs % 60));
    if (us)
        sb_printf(&b, ".%06lld", (long long)us);
    return sb_finish(&b);
}

static int64_t delta_hash(Obj self) { return dt_hash_i128(delta_us(self) * 3 + 1); }

static Obj delta_richcompare(Obj self, Obj other, int op)
{
    if (!dt_is(other, T_dt_delta))
        return g_NotImplemented;
    __int128 a = delta_us(self), b = delta_us(other);
    int c = a < b ? -1 : a > b;
    switch (op) {
    case CMP_LT: return vm_bool(c < 0);
    case CMP_LE: return vm_bool(c <= 0);
    case CMP_EQ: return vm_bool(c == 0);
    case CMP_NE: return vm_bool(c != 0);
    case CMP_GT: return vm_bool(c > 0);
    default: return vm_bool(c >= 0);
    }
}

static int delta_bool(Obj self) { return dt_i(self) != 0 || dt_n(self) != 0; }

/* ---- arithmetic ---- */

static Obj delta_neg(Obj self) { return dt_delta_from_us(-delta_us(self)); }
static Obj delta_pos(Obj self) { return dt_delta_new(dt_i(self), dt_n(self)); }
static Obj delta_abs(Obj self) { __int128 u = delta_us(self); return dt_delta_from_us(u < 0 ? -u : u); }

static Obj delta_add(Obj a, Obj b)
{
    if (!dt_is(a, T_dt_delta) || !dt_is(b, T_dt_delta))
        return g_NotImplemented;
    return dt_delta_from_us(delta_us(a) + delta_us(b));
}

static Obj delta_sub(Obj a, Obj b)
{
    if (!dt_is(a, T_dt_delta) || !dt_is(b, T_dt_delta))
        return g_NotImplemented;
    return dt_delta_from_us(delta_us(a) - delta_us(b));
}

/* (numerator, denominator) of a float: float.as_integer_ratio() */
static Obj float_ratio(Obj f)
{
    Obj *r = vm_roots(1);
    r[0] = f;
    Obj res = vm_call_method(r[0], "as_integer_ratio", NULL, 0);
    vm_unroots(r);
    if (res && !IS_TUPLE(res)) {
        err_format(E_TypeError, "unexpected return type from as_integer_ratio(): expected tuple, got '%s'",
                   type_name(res));
        return NULL;
    }
    if (res && (TUPLE_LEN(res) != 2 || !IS_INT(TUPLE_ITEMS(res)[0]) || !IS_INT(TUPLE_ITEMS(res)[1]))) {
        err_set(E_ValueError, "as_integer_ratio() must return a 2-tuple of ints");
        return NULL;
    }
    return res;
}

/* delta * n / d, rounded half to even. */
static Obj delta_scaled(Obj delta, Obj n, Obj d)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[1] = n;
    r[2] = d;
    if ((r[0] = delta_to_int(delta)) && (r[0] = int_mul(r[0], r[1])) && (r[0] = divide_nearest(r[0], r[2])))
        res = dt_delta_from_int(r[0]);
    vm_unroots(r);
    return res;
}

static Obj delta_mul(Obj a, Obj b)
{
    if (!dt_is(a, T_dt_delta)) {
        Obj t = a;
        a = b;
        b = t;
    }
    if (!dt_is(a, T_dt_delta))
        return g_NotImplemented;
    Obj u = vm_unwrap(b);
    if (IS_INT(u)) {
        if (TID(u) == TID_BOOL)
            u = MAKE_SMALLINT(((BoolObj *)u)->value);
        return delta_scaled(a, u, MAKE_SMALLINT(1));
    }
    if (IS_FLOAT(u)) {
        Obj *r = vm_roots(2);
        Obj res = NULL;
        r[0] = a;
        r[1] = float_ratio(b);
        if (r[1])
            res = delta_scaled(r[0], TUPLE_ITEMS(r[1])[0], TUPLE_ITEMS(r[1])[1]);
        vm_unroots(r);
        return res;
    }
    return g_NotImplemented;
}

static Obj delta_truediv(Obj a, Obj b)
{
    if (!dt_is(a, T_dt_delta))
        return g_NotImplemented;
    Obj *r = vm_roots(3);
    Obj res = g_NotImplemented;
    r[0] = a;
    r[1] = b;
    Obj u = vm_unwrap(b);
    if (dt_is(b, T_dt_delta)) {
        res = NULL;
        if ((r[2] = delta_to_int(r[1])) && (r[0] = delta_to_int(r[0])))
            res = vm_binop(r[0], r[2], NB_TRUEDIV);
    } else if (IS_INT(u)) {
        if (TID(u) == TID_BOOL)
            u = MAKE_SMALLINT(((BoolObj *)u)->value);
        r[1] = u;
        res = NULL;
        if ((r[2] = delta_to_int(r[0])) && (r[2] = divide_nearest(r[2], r[1])))
            res = dt_delta_from_int(r[2]);
    } else if (IS_FLOAT(u)) {
        res = NULL;
        if ((r[2] = float_ratio(r[1])))
            res = delta_scaled(r[0], TUPLE_ITEMS(r[2])[1], TUPLE_ITEMS(r[2])[0]);
    }
    vm_unroots(r);
    return res;
}

static Obj delta_floordiv(Obj a, Obj b)
{
    if (!dt_is(a, T_dt_delta))
        return g_NotImplemented;
    Obj *r = vm_roots(3);
    Obj res = g_NotImplemented;
    r[0] = a;
    r[1] = b;
    Obj u = vm_unwrap(b);
    if (dt_is(b, T_dt_delta)) {
        res = NULL;
        if ((r[2] = delta_to_int(r[1])) && (r[0] = delta_to_int(r[0])))
            res = vm_binop(r[0], r[2], NB_FLOORDIV);
    } else if (IS_INT(u)) {
        if (TID(u) == TID_BOOL)
            u = MAKE_SMALLINT(((BoolObj *)u)->value);
        r[1] = u;
        res = NULL;
        if ((r[2] = delta_to_int(r[0])) && (r[2] = vm_binop(r[2], r[1], NB_FLOORDIV)))
            res = dt_delta_from_int(r[2]);
    }
    vm_unroots(r);
    return res;
}

static Obj delta_mod(Obj a, Obj b)
{
    if (!dt_is(a, T_dt_delta) || !dt_is(b, T_dt_delta))
        return g_NotImplemented;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = a;
    r[1] = b;
    if ((r[1] = delta_to_int(r[1])) && (r[0] = delta_to_int(r[0])) && (r[0] = vm_binop(r[0], r[1], NB_MOD)))
        res = dt_delta_from_int(r[0]);
    vm_unroots(r);
    return res;
}

static Obj delta_divmod(Obj a, Obj b)
{
    if (!dt_is(a, T_dt_delta) || !dt_is(b, T_dt_delta))
        return g_NotImplemented;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = a;
    r[1] = b;
    if ((r[1] = delta_to_int(r[1])) && (r[0] = delta_to_int(r[0])) && (r[0] = vm_binop(r[0], r[1], NB_DIVMOD)) &&
        (r[2] = dt_delta_from_int(TUPLE_ITEMS(r[0])[1])))
        res = tuple_pack(2, TUPLE_ITEMS(r[0])[0], r[2]);
    vm_unroots(r);
    return res;
}

/* ---- methods and members ---- */

static Obj delta_total_seconds(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    if ((r[0] = delta_to_int(args[0])))
        res = vm_binop(r[0], MAKE_SMALLINT(1000000), NB_TRUEDIV);
    vm_unroots(r);
    return res;
}

static Obj delta_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    Obj self = args[0];
    r[0] = tuple_pack(3, MAKE_SMALLINT(dt_i(self)), MAKE_SMALLINT(dt_n(self) / 1000000),
                      MAKE_SMALLINT(dt_n(self) % 1000000));
    if (r[0])
        res = tuple_pack(2, (Obj)TYPE(args[0]), r[0]);
    vm_unroots(r);
    return res;
}

static Obj delta_days(Obj *args, size_t nargs, Obj kwnames) { return MAKE_SMALLINT(dt_i(args[0])); }
static Obj delta_seconds(Obj *args, size_t nargs, Obj kwnames) { return MAKE_SMALLINT(dt_n(args[0]) / 1000000); }
static Obj delta_microseconds(Obj *args, size_t nargs, Obj kwnames) { return MAKE_SMALLINT(dt_n(args[0]) % 1000000); }

static const MethodDef delta_methods[] = {
    {"total_seconds", delta_total_seconds, METH_NOARGS, "Total seconds in the duration."},
    {"__reduce__", delta_reduce, METH_NOARGS, "__reduce__() -> (cls, state)"},
    {NULL, NULL, 0, NULL},
};

void dt_delta_init(void)
{
    TypeObj *t = T_dt_delta = (TypeObj *)type_new_builtin("datetime.timedelta", T_object, TID_ITER,
                                                           TPF_BASETYPE | TPF_ITER_VALUE);
    VM_WRITE(t);
    t->tp_new = delta_tp_new;
    t->tp_repr = delta_repr;
    t->tp_str = delta_str;
    t->tp_hash = delta_hash;
    t->tp_richcompare = delta_richcompare;
    t->tp_bool = delta_bool;
    t->nb_neg = delta_neg;
    t->nb_pos = delta_pos;
    t->nb_abs = delta_abs;
    t->nb[NB_ADD] = delta_add;
    t->nb[NB_SUB] = delta_sub;
    t->nb[NB_MUL] = delta_mul;
    t->nb[NB_TRUEDIV] = delta_truediv;
    t->nb[NB_FLOORDIV] = delta_floordiv;
    t->nb[NB_MOD] = delta_mod;
    t->nb[NB_DIVMOD] = delta_divmod;
    type_add_methods(t, delta_methods);
    type_add_member(t, "days", delta_days, NULL, "Number of days.");
    type_add_member(t, "seconds", delta_seconds, NULL, "Number of seconds (>= 0 and less than 1 day).");
    type_add_member(t, "microseconds", delta_microseconds, NULL, "Number of microseconds (>= 0 and less than 1 second).");
    type_ready(t);
    Obj d = str_from_cstr("Difference between two datetime values.\n\n"
                          "timedelta(days=0, seconds=0, microseconds=0, milliseconds=0, minutes=0, hours=0, weeks=0)\n\n"
                          "All arguments are optional and default to 0.\n"
                          "Arguments may be integers or floats, and may be positive or negative.");
    if (d)
        type_set_attr_cstr(t, "__doc__", d);
    type_set_attr_cstr(t, "min", dt_delta_new(-DT_MAX_DAYS, 0));
    type_set_attr_cstr(t, "max", dt_delta_new(DT_MAX_DAYS, DT_US_PER_DAY - 1));
    type_set_attr_cstr(t, "resolution", dt_delta_new(0, 1));
}
