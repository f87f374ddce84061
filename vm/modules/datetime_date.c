/* _datetime.date: a proleptic Gregorian date, and the IsoCalendarDate
 * struct sequence its isocalendar() returns. */
#include "datetime.h"

#include <string.h>
#include <time.h>

static Obj g_isocal_type;   /* datetime.IsoCalendarDate */

Obj dt_date_new(int y, int m, int d)
{
    Obj v = iter_alloc(T_dt_date, NULL, 0);
    if (v)
        ITER(v)->i = DT_YMD(y, m, d);
    return v;
}

static Obj dt_date_of_type(Obj type, int y, int m, int d)
{
    if ((TypeObj *)type == T_dt_date)
        return dt_date_new(y, m, d);
    if ((TypeObj *)type == T_dt_datetime)
        return dt_datetime_new(y, m, d, 0, g_None, 0);
    Obj *r = vm_roots(4);
    r[0] = type;
    r[1] = MAKE_SMALLINT(y);
    r[2] = MAKE_SMALLINT(m);
    r[3] = MAKE_SMALLINT(d);
    Obj res = vm_call(r[0], &r[1], 3, NULL);
    vm_unroots(r);
    return res;
}

/* A pickle's state: bytes (or a latin-1 str) of 4, month in 1..12. */
static bool date_state(Obj v, size_t len, unsigned char *out, bool (*ok)(const unsigned char *))
{
    const char *p;
    int64_t n;
    if (IS_BYTES(v)) {
        if (!bytes_like(v, &p, &n) || (size_t)n != len)
            return false;
        memcpy(out, p, len);
        return ok(out);
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
        return ok(out);
    }
    return false;
}

static bool date_state_ok(const unsigned char *s) { return s[2] >= 1 && s[2] <= 12; }

static Obj date_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    unsigned char st[4];
    if (nargs == 1 && !kwnames && date_state(args[0], 4, st, date_state_ok)) {
        int y = st[0] * 256 + st[1];
        return dt_wrap(T_dt_date, type, dt_date_new(y, st[2], st[3]));
    }
    static const char *const names[] = {"year", "month", "day", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    a[3] = type;
    int64_t y, m, d;
    if (vm_parse_args("date", args, nargs, kwnames, names, 3, 3, a) == 0 && dt_int_arg(a[0], &y) == 0 &&
        dt_int_arg(a[1], &m) == 0 && dt_int_arg(a[2], &d) == 0 && dt_check_date(y, m, d) == 0)
        res = dt_wrap(T_dt_date, a[3], dt_date_new((int)y, (int)m, (int)d));
    vm_unroots(a);
    return res;
}

/* ---- class methods ---- */

static Obj date_fromtimestamp(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t sec, us;
    int f[6], fold;
    if (dt_timestamp_split(args[1], &sec, &us) < 0 || dt_fields_from_seconds(sec, false, f, &fold) < 0)
        return NULL;
    return dt_date_of_type(args[0], f[0], f[1], f[2]);
}

static Obj date_today(Obj *args, size_t nargs, Obj kwnames)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = float_new((double)ts.tv_sec + ts.tv_nsec * 1e-9);
    if (r[1])
        res = vm_call_method(r[0], "fromtimestamp", &r[1], 1);
    vm_unroots(r);
    return res;
}

static Obj date_fromordinal(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t n;
    if (dt_int_arg(args[1], &n) < 0)
        return NULL;
    if (n < 1) {
        err_set(E_ValueError, "ordinal must be >= 1");
        return NULL;
    }
    if (n > DT_MAX_ORDINAL) {
        err_set(E_ValueError, "year 10000 is out of range");
        return NULL;
    }
    int y, m, d;
    dt_ord_to_ymd(n, &y, &m, &d);
    return dt_date_of_type(args[0], y, m, d);
}

static Obj date_fromisoformat(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = args[1];
    if (!dt_is(s, T_str)) {
        err_set(E_TypeError, "fromisoformat: argument must be str");
        return NULL;
    }
    s = str_value(s);
    int y, m, d;
    if (!str_is_ascii(s) || dt_parse_isodate(str_cstr(s), (size_t)STR(s)->nbytes, &y, &m, &d) < 0) {
        Obj rep = vm_repr(args[1]);
        if (rep)
            err_format(E_ValueError, "Invalid isoformat string: %s", str_cstr(rep));
        return NULL;
    }
    if (dt_check_date(y, m, d) < 0)
        return NULL;
    return dt_date_of_type(args[0], y, m, d);
}

static Obj date_fromisocalendar(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"year", "week", "day", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    a[3] = args[0];
    int64_t y, w, d;
    if (vm_parse_args("fromisocalendar", args + 1, nargs - 1, kwnames, names, 3, 3, a) < 0 ||
        dt_int_arg(a[0], &y) < 0 || dt_int_arg(a[1], &w) < 0 || dt_int_arg(a[2], &d) < 0) {
        if (err_matches(E_OverflowError)) {
            err_clear();
            err_set(E_ValueError, "ISO calendar component out of range");
        }
        goto out;
    }
    if (y < DT_MINYEAR || y > DT_MAXYEAR) {
        err_format(E_ValueError, "Year is out of range: %lld", (long long)y);
        goto out;
    }
    if (w <= 0 || w >= 53) {
        bool bad = true;
        if (w == 53) {
            int64_t first = dt_ymd_to_ord((int)y, 1, 1) % 7;
            bad = !(first == 4 || (first == 3 && dt_is_leap((int)y)));
        }
        if (bad) {
            err_format(E_ValueError, "Invalid week: %lld", (long long)w);
            goto out;
        }
    }
    if (d <= 0 || d >= 8) {
        err_format(E_ValueError, "Invalid day: %lld (range is [1, 7])", (long long)d);
        goto out;
    }
    int yy, mm, dd;
    dt_ord_to_ymd(dt_iso_week1_monday((int)y) + (w - 1) * 7 + d - 1, &yy, &mm, &dd);
    if (yy < DT_MINYEAR || yy > DT_MAXYEAR) {
        err_format(E_ValueError, "year %d is out of range", yy);
        goto out;
    }
    res = dt_date_of_type(a[3], yy, mm, dd);
out:
    vm_unroots(a);
    return res;
}

/* ---- formatting ---- */

static Obj date_repr(Obj self)
{
    int64_t p = dt_i(self);
    return str_from_format("%s(%d, %d, %d)", dt_type_display(self), DT_YEAR(p), DT_MONTH(p), DT_DAY(p));
}

static Obj date_isoformat(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t p = dt_i(args[0]);
    return str_from_format("%04d-%02d-%02d", DT_YEAR(p), DT_MONTH(p), DT_DAY(p));
}

static Obj date_str(Obj self)
{
    if (TYPE(self) == T_dt_date)
        return date_isoformat(&self, 1, NULL);
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj res = vm_call_method(r[0], "isoformat", NULL, 0);
    vm_unroots(r);
    return res;
}

static const char *const day_names[7] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
static const char *const month_names[13] = {"", "Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

Obj dt_ctime(int y, int m, int d, int64_t us_of_day);
Obj dt_ctime(int y, int m, int d, int64_t us_of_day)
{
    int64_t s = us_of_day / 1000000;
    return str_from_format("%s %s %2d %02lld:%02lld:%02lld %04d", day_names[dt_weekday(y, m, d)], month_names[m], d,
                           (long long)(s / 3600), (long long)(s / 60 % 60), (long long)(s % 60), y);
}

static Obj date_ctime(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t p = dt_i(args[0]);
    return dt_ctime(DT_YEAR(p), DT_MONTH(p), DT_DAY(p), 0);
}

static Obj date_timetuple(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t p = dt_i(args[0]);
    return dt_struct_time(DT_YEAR(p), DT_MONTH(p), DT_DAY(p), 0, -1);
}

static Obj date_strftime(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"format", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    a[1] = args[0];
    if (vm_parse_args("strftime", args + 1, nargs - 1, kwnames, names, 1, 1, a) < 0)
        goto out;
    a[2] = TYPE(a[1]) == T_dt_date ? date_timetuple(&a[1], 1, NULL) : vm_call_method(a[1], "timetuple", NULL, 0);
    if (a[2])
        res = dt_strftime(a[0], a[2], 0, g_None, g_None);
out:
    vm_unroots(a);
    return res;
}

static Obj date_format(Obj *args, size_t nargs, Obj kwnames)
{
    if (!dt_is(args[1], T_str)) {
        err_format(E_TypeError, "must be str, not %s", type_name(args[1]));
        return NULL;
    }
    if (str_len(args[1]) == 0)
        return vm_str(args[0]);
    return vm_call_method(args[0], "strftime", &args[1], 1);
}

/* ---- calendar methods ---- */

static Obj date_toordinal(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t p = dt_i(args[0]);
    return MAKE_SMALLINT(dt_ymd_to_ord(DT_YEAR(p), DT_MONTH(p), DT_DAY(p)));
}

static Obj date_weekday(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t p = dt_i(args[0]);
    return MAKE_SMALLINT(dt_weekday(DT_YEAR(p), DT_MONTH(p), DT_DAY(p)));
}

static Obj date_isoweekday(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t p = dt_i(args[0]);
    return MAKE_SMALLINT(dt_weekday(DT_YEAR(p), DT_MONTH(p), DT_DAY(p)) + 1);
}

static Obj date_isocalendar(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t p = dt_i(args[0]);
    int y = DT_YEAR(p);
    int64_t ord = dt_ymd_to_ord(y, DT_MONTH(p), DT_DAY(p));
    int64_t week1 = dt_iso_week1_monday(y);
    int64_t diff = ord - week1;
    int64_t week = diff >= 0 ? diff / 7 : -((-diff + 6) / 7), day = diff - week * 7;
    if (week < 0) {
        y--;
        diff = ord - dt_iso_week1_monday(y);
        week = diff / 7;
        day = diff % 7;
    } else if (week >= 52 && ord >= dt_iso_week1_monday(y + 1)) {
        y++;
        week = 0;
    }
    Obj *r = vm_roots(3);
    r[0] = MAKE_SMALLINT(y);
    r[1] = MAKE_SMALLINT(week + 1);
    r[2] = MAKE_SMALLINT(day + 1);
    Obj res = structseq_new(g_isocal_type, r, 3);
    vm_unroots(r);
    return res;
}

static Obj isocal_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = vm_tuple_from_iter(args[0]);
    if (r[0] && (r[0] = tuple_pack(1, r[0])))
        res = tuple_pack(2, (Obj)T_tuple, r[0]);
    vm_unroots(r);
    return res;
}

static Obj date_replace(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"year", "month", "day", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    a[3] = args[0];
    int64_t p = dt_i(args[0]);
    int64_t v[3] = {DT_YEAR(p), DT_MONTH(p), DT_DAY(p)};
    if (vm_parse_args("replace", args + 1, nargs - 1, kwnames, names, 0, 3, a) < 0)
        goto out;
    for (int i = 0; i < 3; i++)
        if (a[i] && dt_int_arg(a[i], &v[i]) < 0)
            goto out;
    if (dt_check_date(v[0], v[1], v[2]) < 0)
        goto out;
    res = dt_wrap(T_dt_date, (Obj)TYPE(a[3]), dt_date_new((int)v[0], (int)v[1], (int)v[2]));
out:
    vm_unroots(a);
    return res;
}

static Obj date_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t p = dt_i(args[0]);
    char st[4] = {(char)(DT_YEAR(p) >> 8), (char)(DT_YEAR(p) & 255), (char)DT_MONTH(p), (char)DT_DAY(p)};
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = bytes_new(st, 4);
    if (r[0] && (r[0] = tuple_pack(1, r[0])))
        res = tuple_pack(2, (Obj)TYPE(args[0]), r[0]);
    vm_unroots(r);
    return res;
}

/* ---- arithmetic, comparison, hash ---- */

static Obj date_plus_days(Obj date, int64_t days)
{
    int64_t p = dt_i(date);
    int64_t ord = dt_ymd_to_ord(DT_YEAR(p), DT_MONTH(p), DT_DAY(p)) + days;
    if (ord < 1 || ord > DT_MAX_ORDINAL) {
        err_set(E_OverflowError, "date value out of range");
        return NULL;
    }
    int y, m, d;
    dt_ord_to_ymd(ord, &y, &m, &d);
    return dt_date_of_type((Obj)TYPE(date), y, m, d);
}

static Obj date_add(Obj a, Obj b)
{
    if (dt_is(a, T_dt_datetime) || dt_is(b, T_dt_datetime))
        return g_NotImplemented;
    if (dt_is(a, T_dt_date) && dt_is(b, T_dt_delta))
        return date_plus_days(a, dt_i(b));
    if (dt_is(b, T_dt_date) && dt_is(a, T_dt_delta))
        return date_plus_days(b, dt_i(a));
    return g_NotImplemented;
}

static Obj date_sub(Obj a, Obj b)
{
    if (dt_is(a, T_dt_datetime) || dt_is(b, T_dt_datetime) || !dt_is(a, T_dt_date))
        return g_NotImplemented;
    if (dt_is(b, T_dt_date)) {
        int64_t p = dt_i(a), q = dt_i(b);
        return dt_delta_new(dt_ymd_to_ord(DT_YEAR(p), DT_MONTH(p), DT_DAY(p)) -
                            dt_ymd_to_ord(DT_YEAR(q), DT_MONTH(q), DT_DAY(q)), 0);
    }
    if (dt_is(b, T_dt_delta))
        return date_plus_days(a, -dt_i(b));
    return g_NotImplemented;
}

static Obj cmp_result(int c, int op)
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

static Obj date_richcompare(Obj self, Obj other, int op)
{
    if (!dt_is(other, T_dt_date))   /* (a datetime on the right was asked first: its subclass) */
        return g_NotImplemented;
    int64_t a = dt_i(self), b = dt_i(other);
    return cmp_result(a < b ? -1 : a > b, op);
}

static int64_t date_hash(Obj self) { return dt_hash_i128((__int128)dt_i(self) * 5 + 2); }

/* ---- members ---- */

static Obj date_year(Obj *args, size_t nargs, Obj kwnames) { return MAKE_SMALLINT(DT_YEAR(dt_i(args[0]))); }
static Obj date_month(Obj *args, size_t nargs, Obj kwnames) { return MAKE_SMALLINT(DT_MONTH(dt_i(args[0]))); }
static Obj date_day(Obj *args, size_t nargs, Obj kwnames) { return MAKE_SMALLINT(DT_DAY(dt_i(args[0]))); }

static const MethodDef date_methods[] = {
    {"fromtimestamp", date_fromtimestamp, METH_CLASS | METH_O, "Create a date from a POSIX timestamp."},
    {"fromordinal", date_fromordinal, METH_CLASS | METH_O, "int -> date corresponding to a proleptic Gregorian ordinal."},
    {"fromisoformat", date_fromisoformat, METH_CLASS | METH_O, "str -> Construct a date from a string in ISO 8601 format."},
    {"fromisocalendar", date_fromisocalendar, METH_CLASS | METH_KW, "int, int, int -> Construct a date from the ISO year, week number and weekday."},
    {"today", date_today, METH_CLASS | METH_NOARGS, "Current date or datetime:  same as self.__class__.fromtimestamp(time.time())."},
    {"ctime", date_ctime, METH_NOARGS, "Return ctime() style string."},
    {"strftime", date_strftime, METH_KW, "format -> strftime() style string."},
    {"__format__", date_format, METH_O, "Formats self with strftime."},
    {"timetuple", date_timetuple, METH_NOARGS, "Return time tuple, compatible with time.localtime()."},
    {"isocalendar", date_isocalendar, METH_NOARGS, "Return a named tuple containing ISO year, week number, and weekday."},
    {"isoformat", date_isoformat, METH_NOARGS, "Return string in ISO 8601 format, YYYY-MM-DD."},
    {"isoweekday", date_isoweekday, METH_NOARGS, "Return the day of the week represented by the date.\nMonday == 1 ... Sunday == 7"},
    {"toordinal", date_toordinal, METH_NOARGS, "Return proleptic Gregorian ordinal.  January 1 of year 1 is day 1."},
    {"weekday", date_weekday, METH_NOARGS, "Return the day of the week represented by the date.\nMonday == 0 ... Sunday == 6"},
    {"replace", date_replace, METH_KW, "Return date with new specified fields."},
    {"__reduce__", date_reduce, METH_NOARGS, "__reduce__() -> (cls, state)"},
    {NULL, NULL, 0, NULL},
};

static const MethodDef isocal_methods[] = {
    {"__reduce__", isocal_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

void dt_date_init(void)
{
    TypeObj *t = T_dt_date = (TypeObj *)type_new_builtin("datetime.date", T_object, TID_ITER,
                                                          TPF_BASETYPE | TPF_ITER_VALUE);
    VM_WRITE(t);
    t->tp_new = date_tp_new;
    t->tp_repr = date_repr;
    t->tp_str = date_str;
    t->tp_hash = date_hash;
    t->tp_richcompare = date_richcompare;
    t->nb[NB_ADD] = date_add;
    t->nb[NB_SUB] = date_sub;
    type_add_methods(t, date_methods);
    type_add_member(t, "year", date_year, NULL, NULL);
    type_add_member(t, "month", date_month, NULL, NULL);
    type_add_member(t, "day", date_day, NULL, NULL);
    type_ready(t);
    Obj d = str_from_cstr("date(year, month, day) --> date object");
    if (d)
        type_set_attr_cstr(t, "__doc__", d);
    type_set_attr_cstr(t, "min", dt_date_new(1, 1, 1));
    type_set_attr_cstr(t, "max", dt_date_new(9999, 12, 31));
    type_set_attr_cstr(t, "resolution", dt_delta_new(1, 0));

    static const char *const fields[] = {"year", "week", "weekday"};
    VM_GLOBAL_ROOT(g_isocal_type);
    g_isocal_type = structseq_new_type("datetime", "IsoCalendarDate", fields, 3, 3);
    type_add_methods((TypeObj *)g_isocal_type, isocal_methods);
    type_modified((TypeObj *)g_isocal_type);
}
