/* _datetime.time: a time of day, naive or with a tzinfo (whose methods it
 * calls with None), and a fold. */
#include "datetime.h"

#include <string.h>

Obj dt_time_new(int64_t us_of_day, Obj tz, int fold)
{
    Obj v = iter_alloc(T_dt_time, tz == g_None ? NULL : tz, fold);
    if (v)
        ITER(v)->n = us_of_day;
    return v;
}

static int64_t us_of(int64_t h, int64_t m, int64_t s, int64_t us) { return ((h * 60 + m) * 60 + s) * 1000000 + us; }

static bool time_state_ok(const unsigned char *s) { return (s[0] & 0x7f) < 24; }

/* A pickle's state (6 bytes: hour | fold << 7, minute, second, microsecond big-endian)
 * and an optional tzinfo; *done false when args are not one. */
static Obj time_from_state(Obj type, Obj *args, size_t nargs, Obj kwnames, bool *done);

static Obj time_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    bool done;
    Obj res = time_from_state(type, args, nargs, kwnames, &done);
    if (done)
        return res;
    static const char *const names[] = {"hour", "minute", "second", "microsecond", "tzinfo", "fold", NULL};
    Obj *a = vm_roots(7);
    res = NULL;
    a[6] = type;
    int64_t v[5] = {0, 0, 0, 0, 0};
    if (vm_parse_args("time", args, nargs, kwnames, names, 0, 5, a) < 0)
        goto out;
    for (int i = 0; i < 4; i++)
        if (a[i] && dt_int_arg(a[i], &v[i]) < 0)
            goto out;
    if (a[5] && dt_int_arg(a[5], &v[4]) < 0)
        goto out;
    if (!a[4])
        a[4] = g_None;
    if (dt_check_time(v[0], v[1], v[2], v[3], v[4]) < 0 || dt_check_tzinfo(a[4]) < 0)
        goto out;
    res = dt_wrap(T_dt_time, a[6], dt_time_new(us_of(v[0], v[1], v[2], v[3]), a[4], (int)v[4]));
out:
    vm_unroots(a);
    return res;
}

static bool state_bytes(Obj v, unsigned char *out, size_t len)
{
    const char *p;
    int64_t n;
    if (IS_BYTES(v) && bytes_like(v, &p, &n) && (size_t)n == len) {
        memcpy(out, p, len);
        return true;
    }
    if (IS_STR(v) && (size_t)str_len(v) == len) {
        const unsigned char *s = (const unsigned char *)str_cstr(v);
        for (size_t i = 0; i < len; i++) {
            int l;
            uint32_t cp = utf8_decode(s, &l);
            if (cp > 255)
                return false;
            out[i] = (unsigned char)cp;
            s += l;
        }
        return true;
    }
    return false;
}

static Obj time_from_state(Obj type, Obj *args, size_t nargs, Obj kwnames, bool *done)
{
    unsigned char st[6];
    *done = false;
    if (kwnames || nargs < 1 || nargs > 2 || !state_bytes(args[0], st, 6) || !time_state_ok(st))
        return NULL;
    *done = true;
    Obj tz = nargs > 1 ? args[1] : g_None;
    if (dt_check_tzinfo(tz) < 0) {
        err_clear();
        err_set(E_TypeError, "bad tzinfo state arg");
        return NULL;
    }
    int64_t us = ((int64_t)st[3] << 16) | (st[4] << 8) | st[5];   /* as it is: CPython checks only the hour */
    return dt_wrap(T_dt_time, type, dt_time_new(us_of(st[0] & 0x7f, st[1], st[2], us), tz, st[0] >> 7));
}

/* ---- tzinfo methods (called with None) ---- */

static Obj time_utcoffset(Obj *args, size_t nargs, Obj kwnames) { return dt_call_utcoffset(dt_tz(args[0]), g_None); }
static Obj time_dst(Obj *args, size_t nargs, Obj kwnames) { return dt_call_dst(dt_tz(args[0]), g_None); }
static Obj time_tzname(Obj *args, size_t nargs, Obj kwnames) { return dt_call_tzname(dt_tz(args[0]), g_None); }

/* ---- formatting ---- */

static Obj time_isoformat(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"timespec", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    a[1] = args[0];
    int spec;
    if (vm_parse_args("isoformat", args + 1, nargs - 1, kwnames, names, 0, 1, a) < 0 ||
        dt_timespec(a[0], dt_n(a[1]), &spec) < 0)
        goto out;
    if (!(a[2] = dt_call_utcoffset(dt_tz(a[1]), g_None)))
        goto out;
    StrBuf b;
    sb_init(&b);
    dt_format_time(&b, dt_n(a[1]), spec);
    if (a[2] != g_None)
        dt_format_offset(&b, a[2], ":");
    res = sb_finish(&b);
out:
    vm_unroots(a);
    return res;
}

static Obj time_str(Obj self)
{
    if (TYPE(self) == T_dt_time)
        return time_isoformat(&self, 1, NULL);
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj res = vm_call_method(r[0], "isoformat", NULL, 0);
    vm_unroots(r);
    return res;
}

static Obj time_repr(Obj self)
{
    int64_t u = dt_n(self), s = u / 1000000, us = u % 1000000;
    Obj *r = vm_roots(1);
    r[0] = self;
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "%s(%lld, %lld", dt_type_display(self), (long long)(s / 3600), (long long)(s / 60 % 60));
    if (s % 60 || us)
        sb_printf(&b, ", %lld", (long long)(s % 60));
    if (us)
        sb_printf(&b, ", %lld", (long long)us);
    if (ITER(dt_v(r[0]))->a) {
        Obj rep = vm_repr(ITER(dt_v(r[0]))->a);
        if (!rep) {
            sb_free(&b);
            vm_unroots(r);
            return NULL;
        }
        sb_adds(&b, ", tzinfo=");
        sb_add_str(&b, rep);
    }
    if (dt_fold(r[0]))   /* after tzinfo here, before it in datetime's repr: CPython's orders */
        sb_adds(&b, ", fold=1");
    sb_addc(&b, ')');
    vm_unroots(r);
    return sb_finish(&b);
}

static Obj time_strftime(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"format", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    a[1] = args[0];
    if (vm_parse_args("strftime", args + 1, nargs - 1, kwnames, names, 1, 1, a) < 0)
        goto out;
    int64_t s = dt_n(a[1]) / 1000000;
    a[2] = tuple_pack(9, MAKE_SMALLINT(1900), MAKE_SMALLINT(1), MAKE_SMALLINT(1), MAKE_SMALLINT(s / 3600),
                      MAKE_SMALLINT(s / 60 % 60), MAKE_SMALLINT(s % 60), MAKE_SMALLINT(0), MAKE_SMALLINT(1),
                      MAKE_SMALLINT(-1));
    if (a[2])
        res = dt_strftime(a[0], a[2], dt_n(a[1]) % 1000000, dt_tz(a[1]), g_None);
out:
    vm_unroots(a);
    return res;
}

static Obj time_fromisoformat(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = args[1];
    if (!dt_is(s, T_str)) {
        err_set(E_TypeError, "fromisoformat: argument must be str");
        return NULL;
    }
    s = str_value(s);
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = s;
    int c[4];
    const char *p = str_cstr(s);
    size_t n = (size_t)STR(s)->nbytes;
    if (n && p[0] == 'T') {
        p++;
        n--;
    }
    int rc = str_is_ascii(s) ? dt_parse_isotime(p, n, c, &r[2]) : -1;
    if (rc == -2)
        goto out;
    if (rc < 0) {
        Obj rep = vm_repr(r[1]);
        if (rep)
            err_format(E_ValueError, "Invalid isoformat string: %s", str_cstr(rep));
        goto out;
    }
    if (dt_check_time(c[0], c[1], c[2], c[3], 0) < 0)
        goto out;
    if ((TypeObj *)r[0] == T_dt_time) {
        res = dt_time_new(us_of(c[0], c[1], c[2], c[3]), r[2], 0);
    } else {
        Obj *v = vm_roots(5);
        for (int i = 0; i < 4; i++)
            v[i] = MAKE_SMALLINT(c[i]);
        v[4] = r[2];
        res = vm_call(r[0], v, 5, NULL);
        vm_unroots(v);
    }
out:
    vm_unroots(r);
    return res;
}

/* ---- replace, pickling ---- */

static Obj time_replace(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"hour", "minute", "second", "microsecond", "tzinfo", "fold", NULL};
    Obj *a = vm_roots(7);
    Obj res = NULL;
    a[6] = args[0];
    int64_t u = dt_n(args[0]), s = u / 1000000;
    int64_t v[5] = {s / 3600, s / 60 % 60, s % 60, u % 1000000, dt_fold(args[0])};
    if (vm_parse_args("replace", args + 1, nargs - 1, kwnames, names, 0, 5, a) < 0)
        goto out;
    for (int i = 0; i < 4; i++)
        if (a[i] && dt_int_arg(a[i], &v[i]) < 0)
            goto out;
    if (a[5] && dt_int_arg(a[5], &v[4]) < 0)
        goto out;
    if (!a[4])
        a[4] = dt_tz(a[6]);
    if (dt_check_time(v[0], v[1], v[2], v[3], v[4]) < 0 || dt_check_tzinfo(a[4]) < 0)
        goto out;
    res = dt_wrap(T_dt_time, (Obj)TYPE(a[6]), dt_time_new(us_of(v[0], v[1], v[2], v[3]), a[4], (int)v[4]));
out:
    vm_unroots(a);
    return res;
}

static Obj time_reduce_proto(Obj self, int64_t proto)
{
    int64_t u = dt_n(self), s = u / 1000000, us = u % 1000000;
    int h = (int)(s / 3600);
    if (proto > 3 && dt_fold(self))
        h |= 128;
    char st[6] = {(char)h, (char)(s / 60 % 60), (char)(s % 60), (char)(us >> 16), (char)((us >> 8) & 255),
                  (char)(us & 255)};
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[1] = self;
    r[0] = bytes_new(st, 6);
    if (r[0] && (r[0] = ITER(dt_v(r[1]))->a ? tuple_pack(2, r[0], ITER(dt_v(r[1]))->a) : tuple_pack(1, r[0])))
        res = tuple_pack(2, (Obj)TYPE(r[1]), r[0]);
    vm_unroots(r);
    return res;
}

static Obj time_reduce_ex(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t proto;
    if (dt_int_arg(args[1], &proto) < 0)
        return NULL;
    return time_reduce_proto(args[0], proto);
}

static Obj time_reduce(Obj *args, size_t nargs, Obj kwnames) { return time_reduce_proto(args[0], 2); }

/* ---- comparison, hash ---- */

static int cmp_i(int64_t a, int64_t b) { return a < b ? -1 : a > b; }

static Obj cmp_bool(int c, int op)
{
    switch (op) {
    case CMP_LT: return vm_bool(c < 0);
    case CMP_LE: return vm_bool(c <= 0);
    case CMP_EQ: return vm_bool(c == 0);
    case CMP_NE: return vm_bool(c != 0);
    case CMP_GT: return vm_bool(c > 0);
    default: return vm_bool(c >= 0);
    }
}

static Obj time_richcompare(Obj self, Obj other, int op)
{
    if (!dt_is(other, T_dt_time))
        return g_NotImplemented;
    if (dt_tz(self) == dt_tz(other))
        return cmp_bool(cmp_i(dt_n(self), dt_n(other)), op);
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = self;
    r[1] = other;
    if (!(r[2] = dt_call_utcoffset(dt_tz(r[0]), g_None)) || !(r[3] = dt_call_utcoffset(dt_tz(r[1]), g_None)))
        goto out;
    if (r[2] == r[3] || (r[2] != g_None && r[3] != g_None && delta_us(r[2]) == delta_us(r[3]))) {
        res = cmp_bool(cmp_i(dt_n(r[0]), dt_n(r[1])), op);
    } else if (r[2] != g_None && r[3] != g_None) {
        __int128 a = dt_n(r[0]) - delta_us(r[2]), b = dt_n(r[1]) - delta_us(r[3]);
        res = cmp_bool(a < b ? -1 : a > b, op);
    } else if (op == CMP_EQ || op == CMP_NE) {
        res = vm_bool(op == CMP_NE);
    } else {
        err_set(E_TypeError, "can't compare offset-naive and offset-aware times");
    }
out:
    vm_unroots(r);
    return res;
}

static int64_t time_hash(Obj self)
{
    __int128 u = dt_n(self);   /* (read first: the call may move self) */
    Obj off = dt_call_utcoffset(dt_tz(self), g_None);
    if (!off)
        return -1;
    if (off != g_None)
        u -= delta_us(off);
    return dt_hash_i128(u * 11 + 4);
}

/* ---- members ---- */

static Obj time_hour(Obj *args, size_t nargs, Obj kwnames) { return MAKE_SMALLINT(dt_n(args[0]) / 3600000000LL); }
static Obj time_minute(Obj *args, size_t nargs, Obj kwnames) { return MAKE_SMALLINT(dt_n(args[0]) / 60000000 % 60); }
static Obj time_second(Obj *args, size_t nargs, Obj kwnames) { return MAKE_SMALLINT(dt_n(args[0]) / 1000000 % 60); }
static Obj time_microsecond(Obj *args, size_t nargs, Obj kwnames) { return MAKE_SMALLINT(dt_n(args[0]) % 1000000); }
static Obj time_tzinfo(Obj *args, size_t nargs, Obj kwnames) { return dt_tz(args[0]); }
static Obj time_fold(Obj *args, size_t nargs, Obj kwnames) { return MAKE_SMALLINT(dt_fold(args[0])); }

/* The members time and datetime share (both keep the time of day in n). */
void dt_add_time_members(TypeObj *t);
void dt_add_time_members(TypeObj *t)
{
    type_add_member(t, "hour", time_hour, NULL, NULL);
    type_add_member(t, "minute", time_minute, NULL, NULL);
    type_add_member(t, "second", time_second, NULL, NULL);
    type_add_member(t, "microsecond", time_microsecond, NULL, NULL);
    type_add_member(t, "tzinfo", time_tzinfo, NULL, NULL);
    type_add_member(t, "fold", time_fold, NULL, NULL);
}

static Obj time_format(Obj *args, size_t nargs, Obj kwnames)
{
    if (!dt_is(args[1], T_str)) {
        err_format(E_TypeError, "must be str, not %s", type_name(args[1]));
        return NULL;
    }
    if (str_len(args[1]) == 0)
        return vm_str(args[0]);
    return vm_call_method(args[0], "strftime", &args[1], 1);
}

static const MethodDef time_methods[] = {
    {"isoformat", time_isoformat, METH_KW, "Return string in ISO 8601 format, [HH[:MM[:SS[.mmm[uuu]]]]][+HH:MM].\n\n"
                                          "The optional argument timespec specifies the number of additional terms\n"
                                          "of the time to include. Valid options are 'auto', 'hours', 'minutes',\n"
                                          "'seconds', 'milliseconds' and 'microseconds'.\n"},
    {"strftime", time_strftime, METH_KW, "format -> strftime() style string."},
    {"__format__", time_format, METH_O, "Formats self with strftime."},
    {"utcoffset", time_utcoffset, METH_NOARGS, "Return self.tzinfo.utcoffset(self)."},
    {"tzname", time_tzname, METH_NOARGS, "Return self.tzinfo.tzname(self)."},
    {"dst", time_dst, METH_NOARGS, "Return self.tzinfo.dst(self)."},
    {"replace", time_replace, METH_KW, "Return time with new specified fields."},
    {"fromisoformat", time_fromisoformat, METH_CLASS | METH_O, "string -> time from a string in ISO 8601 format"},
    {"__reduce_ex__", time_reduce_ex, METH_O, "__reduce_ex__(proto) -> (cls, state)"},
    {"__reduce__", time_reduce, METH_NOARGS, "__reduce__() -> (cls, state)"},
    {NULL, NULL, 0, NULL},
};

void dt_time_init(void)
{
    TypeObj *t = T_dt_time = (TypeObj *)type_new_builtin("datetime.time", T_object, TID_ITER,
                                                          TPF_BASETYPE | TPF_ITER_VALUE);
    VM_WRITE(t);
    t->tp_new = time_tp_new;
    t->tp_repr = time_repr;
    t->tp_str = time_str;
    t->tp_hash = time_hash;
    t->tp_richcompare = time_richcompare;
    type_add_methods(t, time_methods);
    dt_add_time_members(t);
    type_ready(t);
    Obj d = str_from_cstr("time([hour[, minute[, second[, microsecond[, tzinfo]]]]]) --> a time object\n\n"
                          "All arguments are optional. tzinfo may be None, or an instance of\n"
                          "a tzinfo subclass. The remaining arguments may be ints.\n");
    if (d)
        type_set_attr_cstr(t, "__doc__", d);
    type_set_attr_cstr(t, "min", dt_time_new(0, g_None, 0));
    type_set_attr_cstr(t, "max", dt_time_new(DT_US_PER_DAY - 1, g_None, 0));
    type_set_attr_cstr(t, "resolution", dt_delta_new(0, 1));
}
