/* _datetime.datetime: a date and a time of day (a date subclass), naive or
 * with a tzinfo whose methods it calls with itself; fold (PEP 495) in
 * comparisons, hashes and local time. */
#include "datetime.h"

#include <string.h>
#include <time.h>

void dt_add_time_members(TypeObj *t);   /* datetime_time.c */
Obj dt_ctime(int y, int m, int d, int64_t us_of_day);   /* datetime_date.c */

Obj dt_datetime_new(int y, int m, int d, int64_t us_of_day, Obj tz, int fold)
{
    Obj v = iter_alloc(T_dt_datetime, tz == g_None ? NULL : tz, fold);
    if (v) {
        ITER(v)->i = DT_YMD(y, m, d);
        ITER(v)->n = us_of_day;
    }
    return v;
}

static Obj dt_datetime_of_type(Obj type, int y, int m, int d, int64_t u, Obj tz, int fold)
{
    if ((TypeObj *)type == T_dt_datetime)
        return dt_datetime_new(y, m, d, u, tz, fold);
    int64_t s = u / 1000000;
    Obj *r = vm_roots(11);
    r[0] = type;
    r[1] = MAKE_SMALLINT(y);
    r[2] = MAKE_SMALLINT(m);
    r[3] = MAKE_SMALLINT(d);
    r[4] = MAKE_SMALLINT(s / 3600);
    r[5] = MAKE_SMALLINT(s / 60 % 60);
    r[6] = MAKE_SMALLINT(s % 60);
    r[7] = MAKE_SMALLINT(u % 1000000);
    r[8] = tz ? tz : g_None;
    Obj res = NULL;
    if (fold) {
        r[9] = MAKE_SMALLINT(fold);
        r[10] = tuple_pack(1, vm_intern_cached("fold"));
        if (r[10])
            res = vm_call(r[0], &r[1], 8, r[10]);
    } else {
        res = vm_call(r[0], &r[1], 8, NULL);
    }
    vm_unroots(r);
    return res;
}

/* Microseconds since 0001-01-01 00:00 (of the wall clock). */
static int64_t total_us(Obj dt)
{
    int64_t p = dt_i(dt);
    return dt_ymd_to_ord(DT_YEAR(p), DT_MONTH(p), DT_DAY(p)) * DT_US_PER_DAY + dt_n(dt);
}

/* The datetime of `type` at `total` microseconds since 0001-01-01 (OverflowError out of range). */
static Obj from_total(Obj type, __int128 total, Obj tz, int fold)
{
    __int128 ord = total / DT_US_PER_DAY;
    int64_t u = (int64_t)(total % DT_US_PER_DAY);
    if (total < DT_US_PER_DAY || ord > DT_MAX_ORDINAL) {
        err_set(E_OverflowError, "date value out of range");
        return NULL;
    }
    int y, m, d;
    dt_ord_to_ymd((int64_t)ord, &y, &m, &d);
    return dt_datetime_of_type(type, y, m, d, u, tz, fold);
}

Obj dt_datetime_add_us(Obj dt, __int128 us, Obj type)
{
    return from_total(type ? type : (Obj)TYPE(dt), (__int128)total_us(dt) + us, dt_tz(dt), 0);
}

/* A copy of dt (its own type, made directly) with another tzinfo or fold. */
static Obj with_tz_fold(Obj dt, Obj tz, int fold)
{
    int64_t p = dt_i(dt), u = dt_n(dt);
    Obj type = (Obj)TYPE(dt);
    Obj *r = vm_roots(1);
    r[0] = type;
    Obj v = dt_datetime_new(DT_YEAR(p), DT_MONTH(p), DT_DAY(p), u, tz, fold);
    Obj res = dt_wrap(T_dt_datetime, r[0], v);
    vm_unroots(r);
    return res;
}

static Obj dt_utcoffset_of(Obj dt) { return dt_call_utcoffset(dt_tz(dt), dt); }

/* ---- constructor ---- */

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

static Obj datetime_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    unsigned char st[10];
    if (!kwnames && nargs >= 1 && nargs <= 2 && state_bytes(args[0], st, 10) && (st[2] & 0x7f) >= 1 &&
        (st[2] & 0x7f) <= 12) {
        Obj tz = nargs > 1 ? args[1] : g_None;
        if (dt_check_tzinfo(tz) < 0) {
            err_clear();
            err_set(E_TypeError, "bad tzinfo state arg");
            return NULL;
        }
        int y = st[0] * 256 + st[1], m = st[2] & 0x7f;
        int64_t us = ((int64_t)st[7] << 16) | (st[8] << 8) | st[9];
        /* the other fields as they are: CPython checks only the month */
        int64_t u = ((st[4] * 60 + st[5]) * 60 + st[6]) * 1000000LL + us;
        return dt_wrap(T_dt_datetime, type, dt_datetime_new(y, m, st[3], u, tz, st[2] >> 7));
    }
    static const char *const names[] = {"year", "month", "day", "hour", "minute", "second", "microsecond",
                                        "tzinfo", "fold", NULL};
    Obj *a = vm_roots(10);
    Obj res = NULL;
    a[9] = type;
    int64_t v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    if (vm_parse_args("datetime", args, nargs, kwnames, names, 3, 8, a) < 0)
        goto out;
    for (int i = 0; i < 7; i++)
        if (a[i] && dt_int_arg(a[i], &v[i]) < 0)
            goto out;
    if (a[8] && dt_int_arg(a[8], &v[7]) < 0)
        goto out;
    if (!a[7])
        a[7] = g_None;
    if (dt_check_date(v[0], v[1], v[2]) < 0 || dt_check_time(v[3], v[4], v[5], v[6], v[7]) < 0 ||
        dt_check_tzinfo(a[7]) < 0)
        goto out;
    res = dt_wrap(T_dt_datetime, a[9],
                  dt_datetime_new((int)v[0], (int)v[1], (int)v[2], ((v[3] * 60 + v[4]) * 60 + v[5]) * 1000000 + v[6],
                                  a[7], (int)v[7]));
out:
    vm_unroots(a);
    return res;
}

/* ---- class methods ---- */

/* cls at sec.us since the epoch: local time (tz None) or tz.fromutc(the UTC time with tz). */
static Obj from_seconds(Obj *clsp, int64_t sec, int64_t us, Obj *tzp, bool utc)
{
    int f[6], fold;
    bool local = *tzp == g_None && !utc;
    if (dt_fields_from_seconds(sec, !local, f, &fold) < 0)
        return NULL;
    int64_t u = ((f[3] * 60LL + f[4]) * 60 + f[5]) * 1000000 + us;
    Obj res = dt_datetime_of_type(*clsp, f[0], f[1], f[2], u, *tzp, fold);
    if (!res || *tzp == g_None)
        return res;
    Obj *r = vm_roots(1);
    r[0] = res;
    res = vm_call_method(*tzp, "fromutc", &r[0], 1);
    vm_unroots(r);
    return res;
}

static void clock_now(int64_t *sec, int64_t *us)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    *sec = ts.tv_sec;
    *us = ts.tv_nsec / 1000;
}

static Obj datetime_now(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"tz", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    a[1] = args[0];
    if (vm_parse_args("now", args + 1, nargs - 1, kwnames, names, 0, 1, a) < 0)
        goto out;
    if (!a[0])
        a[0] = g_None;
    if (dt_check_tzinfo(a[0]) < 0)
        goto out;
    int64_t sec, us;
    clock_now(&sec, &us);
    res = from_seconds(&a[1], sec, us, &a[0], false);
out:
    vm_unroots(a);
    return res;
}

static Obj datetime_utcnow(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t sec, us;
    clock_now(&sec, &us);
    Obj *r = vm_roots(2);
    r[0] = args[0];
    r[1] = g_None;
    Obj res = from_seconds(&r[0], sec, us, &r[1], true);
    vm_unroots(r);
    return res;
}

static Obj datetime_fromtimestamp(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"timestamp", "tz", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    a[2] = args[0];
    int64_t sec, us;
    if (vm_parse_args("fromtimestamp", args + 1, nargs - 1, kwnames, names, 1, 2, a) < 0)
        goto out;
    if (!a[1])
        a[1] = g_None;
    if (dt_check_tzinfo(a[1]) < 0 || dt_timestamp_split(a[0], &sec, &us) < 0)
        goto out;
    res = from_seconds(&a[2], sec, us, &a[1], false);
out:
    vm_unroots(a);
    return res;
}

static Obj datetime_utcfromtimestamp(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t sec, us;
    if (dt_timestamp_split(args[1], &sec, &us) < 0)
        return NULL;
    Obj *r = vm_roots(2);
    r[0] = args[0];
    r[1] = g_None;
    Obj res = from_seconds(&r[0], sec, us, &r[1], true);
    vm_unroots(r);
    return res;
}

static Obj datetime_combine(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"date", "time", "tzinfo", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    a[3] = args[0];
    if (vm_parse_args("combine", args + 1, nargs - 1, kwnames, names, 2, 3, a) < 0)
        goto out;
    if (!dt_is(a[0], T_dt_date)) {
        err_format(E_TypeError, "combine() argument 1 must be datetime.date, not %s", type_name(a[0]));
        goto out;
    }
    if (!dt_is(a[1], T_dt_time)) {
        err_format(E_TypeError, "combine() argument 2 must be datetime.time, not %s", type_name(a[1]));
        goto out;
    }
    if (!a[2])
        a[2] = dt_tz(a[1]);
    if (dt_check_tzinfo(a[2]) < 0)
        goto out;
    int64_t p = dt_i(a[0]);
    res = dt_datetime_of_type(a[3], DT_YEAR(p), DT_MONTH(p), DT_DAY(p), dt_n(a[1]), a[2], dt_fold(a[1]));
out:
    vm_unroots(a);
    return res;
}

static Obj datetime_fromisoformat(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = args[1];
    if (!dt_is(s, T_str)) {
        err_set(E_TypeError, "fromisoformat: argument must be str");
        return NULL;
    }
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = str_value(s);
    r[2] = g_None;
    const char *p = str_cstr(r[1]);
    size_t n = (size_t)STR(r[1])->nbytes;
    int y, m, d, rc = -1, c[4] = {0, 0, 0, 0};
    size_t ascii = 0;   /* the ASCII prefix: the date part must be in it */
    while (ascii < n && !((unsigned char)p[ascii] & 0x80))
        ascii++;
    size_t dlen = dt_iso_separator(p, ascii < n ? ascii + 1 : n);
    if (n >= 7 && dlen && dlen <= ascii && dt_parse_isodate(p, dlen, &y, &m, &d) == 0) {
        rc = 0;
        if (dlen < n) {
            int l = utf8_lead_len((unsigned char)p[dlen]);
            size_t t0 = dlen + (size_t)(l > 0 ? l : 1);
            bool tascii = true;
            for (size_t k = t0; k < n; k++)
                tascii &= !((unsigned char)p[k] & 0x80);
            rc = t0 < n && tascii ? dt_parse_isotime(p + t0, n - t0, c, &r[2]) : -1;
        }
    }
    if (rc == -2)
        goto out;
    if (rc < 0) {
        Obj rep = vm_repr(r[1]);
        if (rep)
            err_format(E_ValueError, "Invalid isoformat string: %s", str_cstr(rep));
        goto out;
    }
    if (dt_check_date(y, m, d) < 0 || dt_check_time(c[0], c[1], c[2], c[3], 0) < 0)
        goto out;
    res = dt_datetime_of_type(r[0], y, m, d, ((c[0] * 60LL + c[1]) * 60 + c[2]) * 1000000 + c[3], r[2], 0);
out:
    vm_unroots(r);
    return res;
}

static Obj datetime_strptime(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = args[1];
    r[2] = args[2];
    r[3] = vm_import_cstr("_strptime");
    if (r[3] && (r[3] = vm_getattr_cstr(r[3], "_strptime_datetime")))
        res = vm_call(r[3], r, 3, NULL);
    vm_unroots(r);
    return res;
}

/* ---- parts ---- */

static Obj datetime_date(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t p = dt_i(args[0]);
    return dt_date_new(DT_YEAR(p), DT_MONTH(p), DT_DAY(p));
}

static Obj datetime_time(Obj *args, size_t nargs, Obj kwnames)
{
    return dt_time_new(dt_n(args[0]), g_None, dt_fold(args[0]));
}

static Obj datetime_timetz(Obj *args, size_t nargs, Obj kwnames)
{
    return dt_time_new(dt_n(args[0]), dt_tz(args[0]), dt_fold(args[0]));
}

static Obj datetime_utcoffset(Obj *args, size_t nargs, Obj kwnames) { return dt_utcoffset_of(args[0]); }
static Obj datetime_dst(Obj *args, size_t nargs, Obj kwnames) { return dt_call_dst(dt_tz(args[0]), args[0]); }
static Obj datetime_tzname(Obj *args, size_t nargs, Obj kwnames) { return dt_call_tzname(dt_tz(args[0]), args[0]); }

/* ---- formatting ---- */

static Obj datetime_isoformat(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"sep", "timespec", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    a[2] = args[0];
    int spec;
    if (vm_parse_args("isoformat", args + 1, nargs - 1, kwnames, names, 0, 2, a) < 0)
        goto out;
    if (a[0] && (!dt_is(a[0], T_str) || str_len(a[0]) != 1)) {
        err_format(E_TypeError, "isoformat() argument 1 must be a unicode character, not %s", type_name(a[0]));
        goto out;
    }
    if (dt_timespec(a[1], dt_n(a[2]), &spec) < 0 || !(a[3] = dt_utcoffset_of(a[2])))
        goto out;
    int64_t p = dt_i(a[2]);
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "%04d-%02d-%02d", DT_YEAR(p), DT_MONTH(p), DT_DAY(p));
    if (a[0])
        sb_add_str(&b, str_value(a[0]));
    else
        sb_addc(&b, 'T');
    dt_format_time(&b, dt_n(a[2]), spec);
    if (a[3] != g_None)
        dt_format_offset(&b, a[3], ":");
    res = sb_finish(&b);
out:
    vm_unroots(a);
    return res;
}

static Obj datetime_str(Obj self)
{
    Obj *r = vm_roots(2);
    r[0] = self;
    r[1] = str_from_cstr(" ");
    Obj res = NULL;
    if (r[1])
        res = TYPE(self) == T_dt_datetime ? datetime_isoformat(r, 2, NULL) : vm_call_method(r[0], "isoformat", &r[1], 1);
    vm_unroots(r);
    return res;
}

static Obj datetime_repr(Obj self)
{
    int64_t p = dt_i(self), u = dt_n(self), s = u / 1000000, us = u % 1000000;
    Obj *r = vm_roots(1);
    r[0] = self;
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "%s(%d, %d, %d, %lld, %lld", dt_type_display(self), DT_YEAR(p), DT_MONTH(p), DT_DAY(p),
              (long long)(s / 3600), (long long)(s / 60 % 60));
    if (s % 60 || us)
        sb_printf(&b, ", %lld", (long long)(s % 60));
    if (us)
        sb_printf(&b, ", %lld", (long long)us);
    if (dt_fold(r[0]))
        sb_adds(&b, ", fold=1");
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
    sb_addc(&b, ')');
    vm_unroots(r);
    return sb_finish(&b);
}

static Obj datetime_ctime(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t p = dt_i(args[0]);
    return dt_ctime(DT_YEAR(p), DT_MONTH(p), DT_DAY(p), dt_n(args[0]));
}

static Obj datetime_timetuple(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    r[0] = args[0];
    Obj res = NULL;
    int dst = -1;
    Obj off = dt_call_dst(dt_tz(r[0]), r[0]);
    if (off) {
        if (off != g_None)
            dst = delta_us(off) != 0;
        int64_t p = dt_i(r[0]);
        res = dt_struct_time(DT_YEAR(p), DT_MONTH(p), DT_DAY(p), dt_n(r[0]), dst);
    }
    vm_unroots(r);
    return res;
}

static Obj datetime_utctimetuple(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = args[0];
    if (!(r[1] = dt_utcoffset_of(r[0])))
        goto out;
    __int128 t = total_us(r[0]);
    if (r[1] != g_None)
        t -= delta_us(r[1]);
    if (t < DT_US_PER_DAY || t / DT_US_PER_DAY > DT_MAX_ORDINAL) {
        err_set(E_OverflowError, "date value out of range");
        goto out;
    }
    int y, m, d;
    dt_ord_to_ymd((int64_t)(t / DT_US_PER_DAY), &y, &m, &d);
    res = dt_struct_time(y, m, d, (int64_t)(t % DT_US_PER_DAY), 0);
out:
    vm_unroots(r);
    return res;
}

static Obj datetime_strftime(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"format", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    a[1] = args[0];
    if (vm_parse_args("strftime", args + 1, nargs - 1, kwnames, names, 1, 1, a) < 0)
        goto out;
    a[2] = TYPE(a[1]) == T_dt_datetime ? datetime_timetuple(&a[1], 1, NULL) : vm_call_method(a[1], "timetuple", NULL, 0);
    if (a[2])
        res = dt_strftime(a[0], a[2], dt_n(a[1]) % 1000000, dt_tz(a[1]), a[1]);
out:
    vm_unroots(a);
    return res;
}

/* ---- time zones ---- */

static Obj datetime_timestamp(Obj *args, size_t nargs, Obj kwnames)
{
    if (ITER(dt_v(args[0]))->a) {   /* aware: (self - epoch).total_seconds() */
        Obj off = dt_utcoffset_of(args[0]);
        if (!off)
            return NULL;
        if (off == g_None) {
            err_set(E_TypeError, "can't subtract offset-naive and offset-aware datetimes");
            return NULL;
        }
        __int128 us = (__int128)total_us(args[0]) - delta_us(off) - (__int128)719163 * DT_US_PER_DAY;
        Obj n = int_from_i64((int64_t)us);
        return n ? vm_binop(n, MAKE_SMALLINT(1000000), NB_TRUEDIV) : NULL;
    }
    int64_t p = dt_i(args[0]), u = dt_n(args[0]), secs;
    if (dt_local_to_utc(DT_YEAR(p), DT_MONTH(p), DT_DAY(p), u / 1000000, dt_fold(args[0]), &secs) < 0)
        return NULL;
    return float_new((double)secs + (u % 1000000) / 1e6);
}

/* The local time zone (a fixed timezone) at the naive local time dt. */
static Obj local_timezone_from_local(Obj dt)
{
    int64_t p = dt_i(dt), secs;
    if (dt_local_to_utc(DT_YEAR(p), DT_MONTH(p), DT_DAY(p), dt_n(dt) / 1000000, dt_fold(dt), &secs) < 0)
        return NULL;
    return dt_local_timezone_at(secs);
}

static Obj datetime_astimezone(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"tz", NULL};
    Obj *a = vm_roots(5);   /* tz, self, self's tzinfo, offset, result */
    Obj res = NULL;
    a[1] = args[0];
    if (vm_parse_args("astimezone", args + 1, nargs - 1, kwnames, names, 0, 1, a) < 0)
        goto out;
    if (!a[0])
        a[0] = g_None;
    if (dt_check_tzinfo(a[0]) < 0)
        goto out;
    a[2] = dt_tz(a[1]);
    if (a[2] == g_None && !(a[2] = local_timezone_from_local(a[1])))
        goto out;
    if (a[2] == a[0]) {
        res = a[1];
        goto out;
    }
    if (!(a[3] = dt_call_utcoffset(a[2], a[1])))
        goto out;
    if (a[3] == g_None) {
        if (!(a[2] = local_timezone_from_local(a[1])) || !(a[3] = dt_call_utcoffset(a[2], a[1])))
            goto out;
    }
    __int128 utc = (__int128)total_us(a[1]) - delta_us(a[3]);
    if (a[0] == g_None) {
        __int128 secs = utc / 1000000 - (__int128)719163 * 86400;
        if (!(a[0] = dt_local_timezone_at((int64_t)secs)))
            goto out;
    }
    if (!(a[4] = from_total((Obj)TYPE(a[1]), utc, a[0], 0)))
        goto out;
    res = vm_call_method(a[0], "fromutc", &a[4], 1);
out:
    vm_unroots(a);
    return res;
}

/* ---- replace, pickling ---- */

static Obj datetime_replace(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"year", "month", "day", "hour", "minute", "second", "microsecond",
                                        "tzinfo", "fold", NULL};
    Obj *a = vm_roots(10);
    Obj res = NULL;
    a[9] = args[0];
    int64_t p = dt_i(args[0]), u = dt_n(args[0]), s = u / 1000000;
    int64_t v[8] = {DT_YEAR(p), DT_MONTH(p), DT_DAY(p), s / 3600, s / 60 % 60, s % 60, u % 1000000, dt_fold(args[0])};
    if (vm_parse_args("replace", args + 1, nargs - 1, kwnames, names, 0, 8, a) < 0)
        goto out;
    for (int i = 0; i < 7; i++)
        if (a[i] && dt_int_arg(a[i], &v[i]) < 0)
            goto out;
    if (a[8] && dt_int_arg(a[8], &v[7]) < 0)
        goto out;
    if (!a[7])
        a[7] = dt_tz(a[9]);
    if (dt_check_date(v[0], v[1], v[2]) < 0 || dt_check_time(v[3], v[4], v[5], v[6], v[7]) < 0 ||
        dt_check_tzinfo(a[7]) < 0)
        goto out;
    res = dt_wrap(T_dt_datetime, (Obj)TYPE(a[9]),
                  dt_datetime_new((int)v[0], (int)v[1], (int)v[2], ((v[3] * 60 + v[4]) * 60 + v[5]) * 1000000 + v[6],
                                  a[7], (int)v[7]));
out:
    vm_unroots(a);
    return res;
}

static Obj datetime_reduce_proto(Obj self, int64_t proto)
{
    int64_t p = dt_i(self), u = dt_n(self), s = u / 1000000, us = u % 1000000;
    int m = DT_MONTH(p);
    if (proto > 3 && dt_fold(self))
        m |= 128;
    char st[10] = {(char)(DT_YEAR(p) >> 8), (char)(DT_YEAR(p) & 255), (char)m, (char)DT_DAY(p), (char)(s / 3600),
                   (char)(s / 60 % 60), (char)(s % 60), (char)(us >> 16), (char)((us >> 8) & 255), (char)(us & 255)};
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[1] = self;
    r[0] = bytes_new(st, 10);
    if (r[0] && (r[0] = ITER(dt_v(r[1]))->a ? tuple_pack(2, r[0], ITER(dt_v(r[1]))->a) : tuple_pack(1, r[0])))
        res = tuple_pack(2, (Obj)TYPE(r[1]), r[0]);
    vm_unroots(r);
    return res;
}

static Obj datetime_reduce_ex(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t proto;
    if (dt_int_arg(args[1], &proto) < 0)
        return NULL;
    return datetime_reduce_proto(args[0], proto);
}

static Obj datetime_reduce(Obj *args, size_t nargs, Obj kwnames) { return datetime_reduce_proto(args[0], 2); }

/* ---- arithmetic ---- */

static Obj datetime_add(Obj a, Obj b)
{
    if (dt_is(a, T_dt_datetime) && dt_is(b, T_dt_delta))
        return dt_datetime_add_us(a, delta_us(b), NULL);
    if (dt_is(b, T_dt_datetime) && dt_is(a, T_dt_delta))
        return dt_datetime_add_us(b, delta_us(a), NULL);
    return g_NotImplemented;
}

static Obj datetime_sub(Obj a, Obj b)
{
    if (!dt_is(a, T_dt_datetime))
        return g_NotImplemented;
    if (dt_is(b, T_dt_delta))
        return dt_datetime_add_us(a, -delta_us(b), NULL);
    if (!dt_is(b, T_dt_datetime))
        return g_NotImplemented;
    __int128 diff = (__int128)total_us(a) - total_us(b);
    if (dt_tz(a) == dt_tz(b))
        return dt_delta_from_us(diff);
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = a;
    r[1] = b;
    if (!(r[2] = dt_utcoffset_of(r[0])) || !(r[3] = dt_utcoffset_of(r[1])))
        goto out;
    if ((r[2] == g_None) != (r[3] == g_None)) {
        err_set(E_TypeError, "can't subtract offset-naive and offset-aware datetimes");
        goto out;
    }
    if (r[2] != g_None)
        diff -= delta_us(r[2]) - delta_us(r[3]);
    res = dt_delta_from_us(diff);
out:
    vm_unroots(r);
    return res;
}

/* ---- comparison, hash ---- */

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

static bool same_offset(Obj x, Obj y)
{
    if (x == g_None || y == g_None)
        return x == y;
    return delta_us(x) == delta_us(y);
}

/* PEP 495: an aware datetime in a fold or gap (its utcoffset changes with
 * the fold) is never equal to one in another zone. 1, 0 or -1. */
static int pep495_exception(Obj *selfp, Obj *otherp, Obj *off1p, Obj *off2p)
{
    Obj *r = vm_roots(1);
    int rc = -1;
    for (int k = 0; k < 2; k++) {
        Obj *dp = k ? otherp : selfp;
        if (!(r[0] = with_tz_fold(*dp, dt_tz(*dp), !dt_fold(*dp))) || !(r[0] = dt_utcoffset_of(r[0])))
            goto out;
        if (!same_offset(r[0], k ? *off2p : *off1p)) {
            rc = 1;
            goto out;
        }
    }
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

static Obj datetime_richcompare(Obj self, Obj other, int op)
{
    if (!dt_is(other, T_dt_datetime)) {
        if (dt_is(other, T_dt_date)) {
            if (op == CMP_EQ || op == CMP_NE)
                return vm_bool(op == CMP_NE);
            err_format(E_TypeError, "can't compare %s to %s", dt_type_display(self), dt_type_display(other));
            return NULL;
        }
        return g_NotImplemented;
    }
    if (dt_tz(self) == dt_tz(other)) {
        int64_t a = total_us(self), b = total_us(other);
        return cmp_bool(a < b ? -1 : a > b, op);
    }
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = self;
    r[1] = other;
    if (!(r[2] = dt_utcoffset_of(r[0])) || !(r[3] = dt_utcoffset_of(r[1])))
        goto out;
    if (same_offset(r[2], r[3]) || (r[2] != g_None && r[3] != g_None)) {
        __int128 a = total_us(r[0]), b = total_us(r[1]);
        if (r[2] != g_None) {
            a -= delta_us(r[2]);
            b -= delta_us(r[3]);
        }
        int c = a < b ? -1 : a > b;
        if ((op == CMP_EQ || op == CMP_NE) && c == 0) {
            int ex = pep495_exception(&r[0], &r[1], &r[2], &r[3]);
            if (ex < 0)
                goto out;
            if (ex)
                c = 1;
        }
        res = cmp_bool(c, op);
    } else if (op == CMP_EQ || op == CMP_NE) {
        res = vm_bool(op == CMP_NE);
    } else {
        err_set(E_TypeError, "can't compare offset-naive and offset-aware datetimes");
    }
out:
    vm_unroots(r);
    return res;
}

static int64_t datetime_hash(Obj self)
{
    Obj *r = vm_roots(1);
    int64_t h = -1;
    r[0] = self;
    if (dt_fold(self) && !(r[0] = with_tz_fold(self, dt_tz(self), 0)))
        goto out;
    Obj off = dt_utcoffset_of(r[0]);
    if (!off)
        goto out;
    __int128 t = total_us(r[0]);
    if (off != g_None)
        t -= delta_us(off);
    h = dt_hash_i128(t * 13 + 6);
out:
    vm_unroots(r);
    return h;
}

static const MethodDef datetime_methods[] = {
    {"now", datetime_now, METH_CLASS | METH_KW, "Returns new datetime object representing current time local to tz.\n\n  tz\n    Timezone object.\n\nIf no tz is specified, uses local timezone."},
    {"utcnow", datetime_utcnow, METH_CLASS | METH_NOARGS, "Return a new datetime representing UTC day and time."},
    {"fromtimestamp", datetime_fromtimestamp, METH_CLASS | METH_KW, "timestamp[, tz] -> tz's local time from POSIX timestamp."},
    {"utcfromtimestamp", datetime_utcfromtimestamp, METH_CLASS | METH_O, "Construct a naive UTC datetime from a POSIX timestamp."},
    {"strptime", datetime_strptime, METH_CLASS | METH_ARGS(2, 2), "string, format -> new datetime parsed from a string (like time.strptime())."},
    {"combine", datetime_combine, METH_CLASS | METH_KW, "date, time -> datetime with same date and time fields"},
    {"fromisoformat", datetime_fromisoformat, METH_CLASS | METH_O, "string -> datetime from a string in most ISO 8601 formats"},
    {"date", datetime_date, METH_NOARGS, "Return date object with same year, month and day."},
    {"time", datetime_time, METH_NOARGS, "Return time object with same time but with tzinfo=None."},
    {"timetz", datetime_timetz, METH_NOARGS, "Return time object with same time and tzinfo."},
    {"ctime", datetime_ctime, METH_NOARGS, "Return ctime() style string."},
    {"timetuple", datetime_timetuple, METH_NOARGS, "Return time tuple, compatible with time.localtime()."},
    {"timestamp", datetime_timestamp, METH_NOARGS, "Return POSIX timestamp as float."},
    {"utctimetuple", datetime_utctimetuple, METH_NOARGS, "Return UTC time tuple, compatible with time.localtime()."},
    {"isoformat", datetime_isoformat, METH_KW, "[sep] -> string in ISO 8601 format, YYYY-MM-DDT[HH[:MM[:SS[.mmm[uuu]]]]][+HH:MM].\nsep is used to separate the year from the time, and defaults to 'T'.\nThe optional argument timespec specifies the number of additional terms\nof the time to include. Valid options are 'auto', 'hours', 'minutes',\n'seconds', 'milliseconds' and 'microseconds'.\n"},
    {"strftime", datetime_strftime, METH_KW, "format -> strftime() style string."},
    {"utcoffset", datetime_utcoffset, METH_NOARGS, "Return self.tzinfo.utcoffset(self)."},
    {"tzname", datetime_tzname, METH_NOARGS, "Return self.tzinfo.tzname(self)."},
    {"dst", datetime_dst, METH_NOARGS, "Return self.tzinfo.dst(self)."},
    {"replace", datetime_replace, METH_KW, "Return datetime with new specified fields."},
    {"astimezone", datetime_astimezone, METH_KW, "tz -> convert to local time in new timezone tz\n"},
    {"__reduce_ex__", datetime_reduce_ex, METH_O, "__reduce_ex__(proto) -> (cls, state)"},
    {"__reduce__", datetime_reduce, METH_NOARGS, "__reduce__() -> (cls, state)"},
    {NULL, NULL, 0, NULL},
};

void dt_datetime_init(void)
{
    TypeObj *t = T_dt_datetime = (TypeObj *)type_new_builtin("datetime.datetime", T_dt_date, TID_ITER,
                                                              TPF_BASETYPE | TPF_ITER_VALUE);
    VM_WRITE(t);
    t->tp_new = datetime_tp_new;
    t->tp_repr = datetime_repr;
    t->tp_str = datetime_str;
    t->tp_hash = datetime_hash;
    t->tp_richcompare = datetime_richcompare;
    t->nb[NB_ADD] = datetime_add;
    t->nb[NB_SUB] = datetime_sub;
    type_add_methods(t, datetime_methods);
    dt_add_time_members(t);
    t->solid = (Obj)t;   /* its own layout's slots, not date's, for its subclasses */
    type_ready(t);
    Obj d = str_from_cstr("datetime(year, month, day[, hour[, minute[, second[, microsecond[,tzinfo]]]]])\n\n"
                          "The year, month and day arguments are required. tzinfo may be None, or an\n"
                          "instance of a tzinfo subclass. The remaining arguments may be ints.\n");
    if (d)
        type_set_attr_cstr(t, "__doc__", d);
    type_set_attr_cstr(t, "min", dt_datetime_new(1, 1, 1, 0, g_None, 0));
    type_set_attr_cstr(t, "max", dt_datetime_new(9999, 12, 31, DT_US_PER_DAY - 1, g_None, 0));
    type_set_attr_cstr(t, "resolution", dt_delta_new(0, 1));
}
