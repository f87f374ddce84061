/* _datetime: the C half of CPython's Lib/datetime.py (which ends with
 * `from _datetime import *`), written from the documented behaviour of
 * CPython 3.11's module: its names, messages and pickles. This file: the
 * module, the proleptic Gregorian calendar, the tzinfo protocol, tzinfo and
 * timezone, local time, strftime and the ISO 8601 parsers. The value types
 * are in datetime_delta.c, datetime_date.c, datetime_time.c and
 * datetime_datetime.c (datetime.h says how values are laid out).
 * datetime_CAPI (the C API capsule) is not provided: no C extension uses it. */
#include "datetime.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

static int dt_days_in_month(int y, int m);
static int dt_local_seconds(int64_t u, int64_t *out);
static Obj dt_timezone_new(Obj offset, Obj name);   /* no checks; offset 0 without name: utc */

TypeObj *T_dt_delta, *T_dt_date, *T_dt_time, *T_dt_datetime, *T_dt_tzinfo, *T_dt_timezone;
Obj g_dt_utc;

/* ------------------------------------------------------------------ */
/* Calendar                                                            */
/* ------------------------------------------------------------------ */

static const int days_in_month_tab[13] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
static const int days_before_month_tab[13] = {0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};

bool dt_is_leap(int y) { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0); }

static int dt_days_in_month(int y, int m) { return m == 2 && dt_is_leap(y) ? 29 : days_in_month_tab[m]; }

static int64_t days_before_year(int64_t y)
{
    int64_t p = y - 1;
    return p * 365 + p / 4 - p / 100 + p / 400;
}

int64_t dt_ymd_to_ord(int y, int m, int d)
{
    return days_before_year(y) + days_before_month_tab[m] + (m > 2 && dt_is_leap(y)) + d;
}

void dt_ord_to_ymd(int64_t ord, int *y, int *m, int *d)
{
    int64_t n = ord - 1;
    int64_t n400 = n / 146097;
    n %= 146097;
    int64_t n100 = n / 36524;
    n %= 36524;
    int64_t n4 = n / 1461;
    n %= 1461;
    int64_t n1 = n / 365;
    n %= 365;
    int64_t year = n400 * 400 + n100 * 100 + n4 * 4 + n1 + 1;
    if (n1 == 4 || n100 == 4) {   /* the last day of a leap cycle */
        *y = (int)year - 1;
        *m = 12;
        *d = 31;
        return;
    }
    bool leap = n1 == 3 && (n4 != 24 || n100 == 3);
    int month = (int)((n + 50) >> 5);
    int before = days_before_month_tab[month] + (month > 2 && leap);
    if (before > n) {
        month--;
        before -= days_in_month_tab[month] + (month == 2 && leap);
    }
    *y = (int)year;
    *m = month;
    *d = (int)(n - before + 1);
}

int dt_weekday(int y, int m, int d) { return (int)((dt_ymd_to_ord(y, m, d) + 6) % 7); }

int64_t dt_iso_week1_monday(int y)
{
    int64_t first = dt_ymd_to_ord(y, 1, 1);
    int64_t wd = (first + 6) % 7;
    int64_t monday = first - wd;
    if (wd > 3)
        monday += 7;
    return monday;
}

int dt_check_date(int64_t y, int64_t m, int64_t d)
{
    if (y < DT_MINYEAR || y > DT_MAXYEAR) {
        err_format(E_ValueError, "year %lld is out of range", (long long)y);
        return -1;
    }
    if (m < 1 || m > 12) {
        err_set(E_ValueError, "month must be in 1..12");
        return -1;
    }
    if (d < 1 || d > dt_days_in_month((int)y, (int)m)) {
        err_set(E_ValueError, "day is out of range for month");
        return -1;
    }
    return 0;
}

int dt_check_time(int64_t h, int64_t mi, int64_t s, int64_t us, int64_t fold)
{
    const char *msg = NULL;
    if (h < 0 || h > 23)
        msg = "hour must be in 0..23";
    else if (mi < 0 || mi > 59)
        msg = "minute must be in 0..59";
    else if (s < 0 || s > 59)
        msg = "second must be in 0..59";
    else if (us < 0 || us > 999999)
        msg = "microsecond must be in 0..999999";
    else if (fold != 0 && fold != 1)
        msg = "fold must be either 0 or 1";
    if (msg) {
        err_set(E_ValueError, msg);
        return -1;
    }
    return 0;
}

int dt_check_tzinfo(Obj tz)
{
    if (tz == g_None || dt_is(tz, T_dt_tzinfo))
        return 0;
    err_format(E_TypeError, "tzinfo argument must be None or of a tzinfo subclass, not type '%s'", type_name(tz));
    return -1;
}

int dt_int_arg(Obj v, int64_t *out)
{
    if (IS_FLOAT(v) || dt_is(v, T_float)) {
        err_set(E_TypeError, "'float' object cannot be interpreted as an integer");
        return -1;
    }
    Obj i = vm_index(v);
    if (!i)
        return -1;
    if (int_as_i64(i, out) < 0) {
        err_clear();
        err_set(E_OverflowError, "Python int too large to convert to C long");
        return -1;
    }
    if (*out > INT32_MAX) {
        err_set(E_OverflowError, "signed integer is greater than maximum");
        return -1;
    }
    if (*out < INT32_MIN) {
        err_set(E_OverflowError, "signed integer is less than minimum");
        return -1;
    }
    return 0;
}

/* CPython's tp_name: "datetime.date" for the built-in types, the class name for subclasses. */
const char *dt_type_display(Obj v)
{
    TypeObj *t = TYPE(v);
    if (t == T_dt_delta)
        return "datetime.timedelta";
    if (t == T_dt_date)
        return "datetime.date";
    if (t == T_dt_time)
        return "datetime.time";
    if (t == T_dt_datetime)
        return "datetime.datetime";
    if (t == T_dt_timezone)
        return "datetime.timezone";
    if (t == T_dt_tzinfo)
        return "datetime.tzinfo";
    return str_cstr(t->name);
}

Obj dt_wrap(TypeObj *base, Obj type, Obj value)
{
    if (!value || (TypeObj *)type == base)
        return value;
    Obj *r = vm_roots(1);
    r[0] = value;
    Obj inst = instance_new((TypeObj *)type);
    value = r[0];
    vm_unroots(r);
    if (!inst)
        return NULL;
    VM_WRITE(inst);
    INST(inst)->base_value = value;
    return inst;
}

int64_t dt_hash_i128(__int128 v)
{
    uint64_t lo = (uint64_t)v, hi = (uint64_t)((unsigned __int128)v >> 64);
    uint64_t h = lo ^ (hi * 0x9E3779B97F4A7C15ULL);
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 29;
    int64_t r = (int64_t)(h >> 2);
    return r == -1 ? -2 : r;
}

/* ------------------------------------------------------------------ */
/* The tzinfo protocol                                                 */
/* ------------------------------------------------------------------ */

static bool delta_within_day(Obj d)
{
    __int128 us = delta_us(d);
    return us > -DT_US_PER_DAY && us < DT_US_PER_DAY;
}

static Obj call_offset_method(Obj tz, Obj arg, const char *name)
{
    if (tz == g_None)
        return g_None;
    if (TYPE(tz) == T_dt_timezone) {   /* not subclassable: its methods are these */
        if (name[0] == 'd')
            return g_None;
        return ITER(tz)->a;
    }
    Obj *r = vm_roots(1);
    r[0] = vm_call_method1(tz, name, arg);
    Obj res = r[0];
    if (res && res != g_None) {
        if (!dt_is(res, T_dt_delta)) {
            err_format(E_TypeError, "tzinfo.%s() must return None or timedelta, not '%s'", name, type_name(res));
            res = NULL;
        } else if (!delta_within_day(res)) {
            Obj rep = vm_repr(r[0]);
            if (rep)
                err_format(E_ValueError, "offset must be a timedelta strictly between -timedelta(hours=24) "
                           "and timedelta(hours=24), not %s.", str_cstr(rep));
            res = NULL;
        }
    }
    vm_unroots(r);
    return res;
}

Obj dt_call_utcoffset(Obj tz, Obj arg) { return call_offset_method(tz, arg, "utcoffset"); }
Obj dt_call_dst(Obj tz, Obj arg) { return call_offset_method(tz, arg, "dst"); }

static Obj timezone_name(Obj tz);

Obj dt_call_tzname(Obj tz, Obj arg)
{
    if (tz == g_None)
        return g_None;
    if (TYPE(tz) == T_dt_timezone)
        return timezone_name(tz);
    Obj res = vm_call_method1(tz, "tzname", arg);
    if (res && res != g_None && !dt_is(res, T_str)) {
        err_format(E_TypeError, "tzinfo.tzname() must return None or a string, not '%s'", type_name(res));
        return NULL;
    }
    return res;
}

void dt_format_offset(StrBuf *b, Obj offset, const char *sep)
{
    __int128 us = delta_us(offset);
    char sign = '+';
    if (us < 0) {
        sign = '-';
        us = -us;
    }
    int64_t u = (int64_t)us;
    int64_t micro = u % 1000000, secs = u / 1000000;
    sb_printf(b, "%c%02lld%s%02lld", sign, (long long)(secs / 3600), sep, (long long)(secs / 60 % 60));
    if (secs % 60 || micro)
        sb_printf(b, "%s%02lld", sep, (long long)(secs % 60));
    if (micro)
        sb_printf(b, ".%06lld", (long long)micro);
}

/* ------------------------------------------------------------------ */
/* Local time                                                          */
/* ------------------------------------------------------------------ */

#define EPOCH_SECONDS (719163LL * 86400)   /* 1970-01-01 in seconds since 0001-01-01 */
#define MAX_FOLD_SECONDS (24 * 3600)

static int64_t utc_seconds(int y, int m, int d, int64_t sec_of_day)
{
    return dt_ymd_to_ord(y, m, d) * 86400 + sec_of_day;
}

static int local_tm(int64_t t, struct tm *tm)
{
    time_t tt = (time_t)t;
    errno = 0;
    if (!localtime_r(&tt, tm)) {
        if (errno == 0 || errno == EOVERFLOW)
            err_set(E_OverflowError, "timestamp out of range for platform time_t");
        else
            err_format(E_OSError, "[Errno %d] %s", errno, strerror(errno));
        return -1;
    }
    return 0;
}

static int dt_local_seconds(int64_t u, int64_t *out)
{
    struct tm tm;
    if (local_tm(u - EPOCH_SECONDS, &tm) < 0)
        return -1;
    int y = tm.tm_year + 1900;
    if (y < DT_MINYEAR || y > DT_MAXYEAR) {
        err_format(E_ValueError, "year %d is out of range", y);
        return -1;
    }
    *out = utc_seconds(y, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec);
    return 0;
}

/* Solve local(u) == t for u, taking the earlier (fold 0) or later (fold 1)
 * of two solutions, and for a time in a gap the one the fold asks for. */
int dt_local_to_utc(int y, int m, int d, int64_t sec_of_day, int fold, int64_t *out)
{
    int64_t t = utc_seconds(y, m, d, sec_of_day), lt, a, b, u1, u2, t1, t2;
    if (dt_local_seconds(t, &lt) < 0)
        return -1;
    a = lt - t;
    u1 = t - a;
    if (dt_local_seconds(u1, &t1) < 0)
        return -1;
    if (t1 == t) {
        u2 = fold ? u1 + MAX_FOLD_SECONDS : u1 - MAX_FOLD_SECONDS;
        if (dt_local_seconds(u2, &lt) < 0)
            return -1;
        b = lt - u2;
        if (a == b) {
            *out = u1 - EPOCH_SECONDS;
            return 0;
        }
    } else {
        b = t1 - u1;
    }
    u2 = t - b;
    if (dt_local_seconds(u2, &t2) < 0)
        return -1;
    if (t2 == t)
        *out = u2;
    else if (t1 == t)
        *out = u1;
    else
        *out = fold ? (u1 < u2 ? u1 : u2) : (u1 > u2 ? u1 : u2);
    *out -= EPOCH_SECONDS;
    return 0;
}

Obj dt_local_timezone_at(int64_t ts)
{
    struct tm tm;
    if (local_tm(ts, &tm) < 0)
        return NULL;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = dt_delta_from_us((__int128)tm.tm_gmtoff * 1000000);
    if (r[0] && (r[1] = str_from_os_cstr(tm.tm_zone ? tm.tm_zone : "")))
        res = dt_timezone_new(r[0], r[1]);
    vm_unroots(r);
    return res;
}

int dt_timestamp_split(Obj ts, int64_t *sec, int64_t *us)
{
    if (IS_INT(vm_unwrap(ts))) {
        if (int_as_i64(vm_unwrap(ts), sec) < 0 || *sec > (int64_t)1 << 56 || *sec < -((int64_t)1 << 56)) {
            err_clear();
            err_set(E_OverflowError, "timestamp out of range for platform time_t");
            return -1;
        }
        *us = 0;
        return 0;
    }
    double d;
    if (vm_as_double(ts, &d) < 0)
        return -1;
    if (isnan(d)) {
        err_set(E_ValueError, "Invalid value NaN (not a number)");
        return -1;
    }
    double ip, fp = modf(d, &ip);
    fp *= 1e6;
    double rounded = round(fp);
    if (fabs(fp - rounded) == 0.5)   /* half to even */
        rounded = 2.0 * round(fp / 2.0);
    if (rounded >= 1e6) {
        rounded -= 1e6;
        ip += 1.0;
    } else if (rounded < 0) {
        rounded += 1e6;
        ip -= 1.0;
    }
    if (!(ip >= -72057594037927936.0 && ip < 72057594037927936.0)) {
        err_set(E_OverflowError, "timestamp out of range for platform time_t");
        return -1;
    }
    *sec = (int64_t)ip;
    *us = (int64_t)rounded;
    return 0;
}

int dt_fields_from_seconds(int64_t sec, bool utc, int out[6], int *fold)
{
    struct tm tm;
    time_t tt = (time_t)sec;
    *fold = 0;
    if (utc) {
        if (!gmtime_r(&tt, &tm)) {
            err_set(E_OverflowError, "timestamp out of range for platform time_t");
            return -1;
        }
    } else if (local_tm(sec, &tm) < 0) {
        return -1;
    }
    out[0] = tm.tm_year + 1900;
    out[1] = tm.tm_mon + 1;
    out[2] = tm.tm_mday;
    out[3] = tm.tm_hour;
    out[4] = tm.tm_min;
    out[5] = tm.tm_sec > 59 ? 59 : tm.tm_sec;   /* a leap second */
    if (out[0] < DT_MINYEAR || out[0] > DT_MAXYEAR) {
        err_format(E_ValueError, "year %d is out of range", out[0]);
        return -1;
    }
    if (!utc) {
        /* a fold: the same wall time a day's worth of seconds earlier maps back here too */
        int64_t result = utc_seconds(out[0], out[1], out[2], out[3] * 3600 + out[4] * 60 + out[5]), probe;
        if (dt_local_seconds(EPOCH_SECONDS + sec - MAX_FOLD_SECONDS, &probe) < 0) {
            err_clear();
            return 0;
        }
        int64_t transition = result - probe - MAX_FOLD_SECONDS;
        if (transition < 0) {
            if (dt_local_seconds(EPOCH_SECONDS + sec + transition, &probe) < 0) {
                err_clear();
                return 0;
            }
            if (probe == result)
                *fold = 1;
        }
    }
    return 0;
}

Obj dt_struct_time(int y, int m, int d, int64_t us_of_day, int dst)
{
    Obj *r = vm_roots(10);
    Obj res = NULL;
    int64_t secs = us_of_day / 1000000;
    int64_t vals[9] = {y, m, d, secs / 3600, secs / 60 % 60, secs % 60, dt_weekday(y, m, d),
                       dt_ymd_to_ord(y, m, d) - dt_ymd_to_ord(y, 1, 1) + 1, dst};
    for (int i = 0; i < 9; i++)
        r[i] = MAKE_SMALLINT(vals[i]);
    r[9] = tuple_from_array(r, 9);
    if (r[9] && (r[0] = vm_import_cstr("time")) && (r[0] = vm_getattr_cstr(r[0], "struct_time")))
        res = vm_call1(r[0], r[9]);
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* strftime                                                            */
/* ------------------------------------------------------------------ */

Obj dt_strftime(Obj fmt, Obj timetuple, int64_t us, Obj tz, Obj tzarg)
{
    if (!dt_is(fmt, T_str)) {
        err_format(E_TypeError, "strftime() argument 1 must be str, not %s", type_name(fmt));
        return NULL;
    }
    Obj *r = vm_roots(6);   /* fmt, timetuple, tz, tzarg, the %z / %Z text, new format */
    Obj res = NULL;
    r[0] = str_value(fmt);
    r[1] = timetuple;
    r[2] = tz;
    r[3] = tzarg;
    StrBuf b;
    sb_init(&b);
    int64_t n = STR(r[0])->nbytes;
    for (int64_t i = 0; i < n; i++) {
        char c = str_cstr(r[0])[i];
        if (c != '%' || i + 1 >= n) {
            sb_addc(&b, c);
            continue;
        }
        char k = str_cstr(r[0])[++i];
        if (k == 'f') {
            sb_printf(&b, "%06lld", (long long)us);
        } else if (k == 'z') {
            Obj off = dt_call_utcoffset(r[2], r[3]);
            if (!off)
                goto fail;
            if (off != g_None)
                dt_format_offset(&b, off, "");
        } else if (k == 'Z') {
            r[4] = dt_call_tzname(r[2], r[3]);
            if (!r[4])
                goto fail;
            if (r[4] != g_None) {
                /* '%' doubled, through the name's own replace() as CPython */
                Obj *pr = vm_roots(2);
                pr[0] = str_from_cstr("%");
                pr[1] = pr[0] ? str_from_cstr("%%") : NULL;
                r[4] = pr[1] ? vm_call_method(r[4], "replace", pr, 2) : NULL;
                vm_unroots(pr);
                if (!r[4])
                    goto fail;
                if (!dt_is(r[4], T_str)) {
                    err_set(E_TypeError, "tzname.replace() did not return a string");
                    goto fail;
                }
                r[4] = str_value(r[4]);
                if (utf8_has_surrogate(str_cstr(r[4]), (size_t)STR(r[4])->nbytes)) {
                    str_encode(r[4], "utf-8", "strict");
                    goto fail;
                }
                sb_add_str(&b, r[4]);
            }
        } else {
            sb_addc(&b, '%');
            sb_addc(&b, k);
        }
    }
    r[5] = sb_finish(&b);
    if (r[5] && (r[4] = vm_import_cstr("time")) && (r[4] = vm_getattr_cstr(r[4], "strftime")))
        res = vm_call2(r[4], r[5], r[1]);
    goto out;
fail:
    sb_free(&b);
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* isoformat pieces                                                    */
/* ------------------------------------------------------------------ */

enum { TS_HOURS, TS_MINUTES, TS_SECONDS, TS_MILLIS, TS_MICROS };

int dt_timespec(Obj spec, int64_t us, int *out)
{
    static const char *const names[] = {"hours", "minutes", "seconds", "milliseconds", "microseconds"};
    if (!spec || (IS_STR(spec) && str_eq_cstr(spec, "auto"))) {
        *out = us % 1000000 ? TS_MICROS : TS_SECONDS;
        return 0;
    }
    if (IS_STR(spec))
        for (int i = 0; i < 5; i++)
            if (str_eq_cstr(spec, names[i])) {
                *out = i;
                return 0;
            }
    if (!dt_is(spec, T_str)) {
        err_format(E_TypeError, "isoformat() argument 'timespec' must be str, not %s", type_name(spec));
        return -1;
    }
    err_set(E_ValueError, "Unknown timespec value");
    return -1;
}

void dt_format_time(StrBuf *b, int64_t u, int timespec)
{
    int64_t secs = u / 1000000, micro = u % 1000000;
    sb_printf(b, "%02lld", (long long)(secs / 3600));
    if (timespec >= TS_MINUTES)
        sb_printf(b, ":%02lld", (long long)(secs / 60 % 60));
    if (timespec >= TS_SECONDS)
        sb_printf(b, ":%02lld", (long long)(secs % 60));
    if (timespec == TS_MILLIS)
        sb_printf(b, ".%03lld", (long long)(micro / 1000));
    else if (timespec == TS_MICROS)
        sb_printf(b, ".%06lld", (long long)micro);
}

/* ------------------------------------------------------------------ */
/* ISO 8601 parsing (3.11's extended forms)                            */
/* ------------------------------------------------------------------ */

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static int digits(const char *s, size_t n, int *out)
{
    int v = 0;
    for (size_t i = 0; i < n; i++) {
        if (!is_digit(s[i]))
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 0;
}

size_t dt_iso_separator(const char *s, size_t n)
{
    if (n == 7)
        return 7;
    if (n < 7)
        return 0;
    if (s[4] == '-') {
        if (s[5] != 'W')
            return 10;
        if (n > 8 && s[8] == '-') {
            if (n == 9)
                return 0;
            if (n > 10 && is_digit(s[10]))
                return 8;
            return 10;
        }
        return 8;
    }
    if (s[4] == 'W') {
        size_t i = 7;
        while (i < n && is_digit(s[i]))
            i++;
        if (i < 9)
            return i;
        return i % 2 == 0 ? 7 : 8;
    }
    return 8;
}

int dt_parse_isodate(const char *s, size_t n, int *y, int *m, int *d)
{
    if (n != 7 && n != 8 && n != 10)
        return -1;
    if (digits(s, 4, y) < 0)
        return -1;
    bool sep = s[4] == '-';
    size_t pos = 4 + sep;
    if (pos < n && s[pos] == 'W') {
        int week, day = 1;
        pos++;
        if (pos + 2 > n || digits(s + pos, 2, &week) < 0)
            return -1;
        pos += 2;
        if (n > pos) {   /* (what follows the day is not looked at, as CPython's C parser) */
            if (sep && s[pos++] != '-')
                return -1;
            if (pos + 1 > n || digits(s + pos, 1, &day) < 0)
                return -1;
        }
        if (*y < DT_MINYEAR || *y > DT_MAXYEAR)
            return -1;
        if (week < 1 || week > 53)
            return -1;
        if (week == 53) {
            int64_t first = dt_ymd_to_ord(*y, 1, 1) % 7;
            if (!(first == 4 || (first == 3 && dt_is_leap(*y))))
                return -1;
        }
        if (day < 1 || day > 7)
            return -1;
        dt_ord_to_ymd(dt_iso_week1_monday(*y) + (week - 1) * 7 + day - 1, y, m, d);
        return 0;
    }
    if (pos + 2 > n || digits(s + pos, 2, m) < 0)
        return -1;
    pos += 2;
    if (sep && (pos >= n || s[pos++] != '-'))
        return -1;
    if (pos + 2 > n || digits(s + pos, 2, d) < 0)
        return -1;
    return 0;
}

/* HH[:?MM[:?SS[{.,}f+]]] in s[0, n) as CPython 3.11's C parser reads it (more leniently than
 * datetime.py): comps = hour, minute, second, microsecond. The string goes on to s[total] (what
 * follows the part: a time zone), past it reads as a NUL. 0: parsed to the end; 1: parsed with
 * something left before the end (accepted by the caller when a time zone follows); -1: malformed. */
static int parse_hh_mm_ss_ff(const char *s, size_t n, size_t total, int comps[4])
{
    size_t p = 0;
    bool sep = true;
    comps[0] = comps[1] = comps[2] = comps[3] = 0;
    for (int i = 0; i < 3; i++) {
        if (p + 2 > total || digits(s + p, 2, &comps[i]) < 0)
            return -1;
        p += 2;
        char c = p < total ? s[p] : '\0';
        p++;
        if (i == 0)
            sep = c == ':';
        if (p >= n)
            return c != '\0';
        if (sep && c == ':')
            continue;
        if (c == '.' || c == ',')
            break;
        if (sep)
            return -1;
        p--;   /* no separators: the next digits start here */
    }
    size_t rest = n - p, take = rest >= 6 ? 6 : rest;
    if (digits(s + p, take, &comps[3]) < 0)
        return -1;
    for (size_t k = take; k < 6; k++)
        comps[3] *= 10;
    p += take;
    while (p < total && is_digit(s[p]))   /* digits past microseconds are dropped */
        p++;
    return p < total;
}

int dt_parse_isotime(const char *s, size_t n, int comps[4], Obj *tz)
{
    if (n == 0)
        return -1;
    size_t tzpos = 0;   /* the first of Z, + and - */
    while (tzpos < n && s[tzpos] != 'Z' && s[tzpos] != '+' && s[tzpos] != '-')
        tzpos++;
    int rv = parse_hh_mm_ss_ff(s, tzpos, n, comps);
    if (rv < 0)
        return -1;
    *tz = g_None;
    if (tzpos == n)
        return rv == 1 ? -1 : 0;
    if (s[tzpos] == 'Z') {
        if (tzpos + 1 != n)
            return -1;
        *tz = g_dt_utc;
        return 0;
    }
    int tc[4];
    size_t tn = n - tzpos - 1;
    if (parse_hh_mm_ss_ff(s + tzpos + 1, tn, tn, tc) != 0)
        return -1;
    __int128 off = (((__int128)tc[0] * 60 + tc[1]) * 60 + tc[2]) * 1000000 + tc[3];
    if (off == 0) {
        *tz = g_dt_utc;
        return 0;
    }
    if (s[tzpos] == '-')
        off = -off;
    Obj d = dt_delta_from_us(off);
    if (!d)
        return -2;
    if (off <= -DT_US_PER_DAY || off >= DT_US_PER_DAY) {   /* timezone()'s error */
        Obj rep = vm_repr(d);
        if (rep)
            err_format(E_ValueError, "offset must be a timedelta strictly between -timedelta(hours=24) and "
                       "timedelta(hours=24), not %s.", str_cstr(rep));
        return -2;
    }
    Obj z = dt_timezone_new(d, NULL);
    if (!z)
        return -2;
    *tz = z;
    return 0;
}

/* ------------------------------------------------------------------ */
/* tzinfo                                                              */
/* ------------------------------------------------------------------ */

static Obj tzinfo_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    return dt_wrap(T_dt_tzinfo, type, iter_alloc(T_dt_tzinfo, NULL, 0));
}

static Obj tzinfo_not_implemented(const char *what)
{
    err_format(E_NotImplementedError, "a tzinfo subclass must implement %s()", what);
    return NULL;
}
static Obj tzinfo_tzname(Obj *args, size_t nargs, Obj kwnames) { return tzinfo_not_implemented("tzname"); }
static Obj tzinfo_utcoffset(Obj *args, size_t nargs, Obj kwnames) { return tzinfo_not_implemented("utcoffset"); }
static Obj tzinfo_dst(Obj *args, size_t nargs, Obj kwnames) { return tzinfo_not_implemented("dst"); }

/* The standard fromutc: dt (UTC wall time with tzinfo self) to self's local time. */
static Obj tzinfo_fromutc(Obj *args, size_t nargs, Obj kwnames)
{
    if (!dt_is(args[1], T_dt_datetime)) {
        err_set(E_TypeError, "fromutc: argument must be a datetime");
        return NULL;
    }
    if (dt_tz(args[1]) != args[0]) {
        err_set(E_ValueError, "fromutc: dt.tzinfo is not self");
        return NULL;
    }
    Obj *r = vm_roots(4);   /* self, dt, offset, dst */
    Obj res = NULL;
    r[0] = args[0];
    r[1] = args[1];
    if (!(r[2] = dt_call_utcoffset(r[0], r[1])))
        goto out;
    if (r[2] == g_None) {
        err_set(E_ValueError, "fromutc: non-None utcoffset() result required");
        goto out;
    }
    if (!(r[3] = dt_call_dst(r[0], r[1])))
        goto out;
    if (r[3] == g_None) {
        err_set(E_ValueError, "fromutc: non-None dst() result required");
        goto out;
    }
    __int128 delta = delta_us(r[2]) - delta_us(r[3]);
    if (delta) {
        if (!(r[1] = dt_datetime_add_us(r[1], delta, NULL)))
            goto out;
        if (!(r[3] = dt_call_dst(r[0], r[1])))
            goto out;
        if (r[3] == g_None) {
            err_set(E_ValueError, "fromutc: tz.dst() gave inconsistent results; cannot convert");
            goto out;
        }
    }
    res = dt_datetime_add_us(r[1], delta_us(r[3]), NULL);
out:
    vm_unroots(r);
    return res;
}

/* (type(self), self.__getinitargs__() or (), __getstate__() or the __dict__ or None) */
static Obj tzinfo_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = vm_getattr_opt(r[0], vm_intern_cached("__getinitargs__"));
    if (err_occurred())
        goto out;
    r[1] = r[1] ? vm_call0(r[1]) : g_empty_tuple;
    if (!r[1])
        goto out;
    r[2] = vm_getattr_opt(r[0], vm_intern_cached("__getstate__"));
    if (err_occurred())
        goto out;
    if (r[2]) {
        r[2] = vm_call0(r[2]);
    } else {
        Obj d = TID(r[0]) == TID_INSTANCE ? INST(r[0])->dict : NULL;
        r[2] = d && dict_len(d) ? d : g_None;
    }
    if (r[2])
        res = tuple_pack(3, (Obj)TYPE(r[0]), r[1], r[2]);
out:
    vm_unroots(r);
    return res;
}

static const MethodDef tzinfo_methods[] = {
    {"tzname", tzinfo_tzname, METH_O, "datetime -> string name of time zone."},
    {"utcoffset", tzinfo_utcoffset, METH_O, "datetime -> timedelta showing offset from UTC, negative values indicating West of UTC"},
    {"dst", tzinfo_dst, METH_O, "datetime -> DST offset as timedelta positive east of UTC."},
    {"fromutc", tzinfo_fromutc, METH_O, "datetime in UTC -> datetime in local time."},
    {"__reduce__", tzinfo_reduce, METH_NOARGS, "-> (cls, state)"},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* timezone                                                            */
/* ------------------------------------------------------------------ */

static Obj dt_timezone_new(Obj offset, Obj name)
{
    if (!name && g_dt_utc && delta_us(offset) == 0)
        return g_dt_utc;
    Obj *r = vm_roots(1);
    r[0] = name;
    Obj z = iter_alloc(T_dt_timezone, offset, 0);
    if (z)
        ITER(z)->b = r[0];
    vm_unroots(r);
    return z;
}

static Obj timezone_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"offset", "name", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("timezone", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    if (!dt_is(a[0], T_dt_delta)) {
        err_format(E_TypeError, "timezone() argument 1 must be datetime.timedelta, not %s", type_name(a[0]));
        goto out;
    }
    if (a[1] && !dt_is(a[1], T_str)) {
        err_format(E_TypeError, "timezone() argument 2 must be str, not %s", type_name(a[1]));
        goto out;
    }
    if (!delta_within_day(a[0])) {
        Obj rep = vm_repr(a[0]);
        if (rep)
            err_format(E_ValueError, "offset must be a timedelta strictly between -timedelta(hours=24) and "
                       "timedelta(hours=24), not %s.", str_cstr(rep));
        goto out;
    }
    if (TYPE(a[0]) != T_dt_delta && !(a[0] = dt_delta_new(dt_i(a[0]), dt_n(a[0]))))
        goto out;
    if (a[1] && !IS_STR(a[1]) && !(a[1] = str_value(a[1])))
        goto out;
    res = dt_timezone_new(a[0], a[1]);
out:
    vm_unroots(a);
    return res;
}

/* "UTC", or "UTC+HH:MM[:SS[.ffffff]]" */
static Obj timezone_name(Obj tz)
{
    tz = dt_v(tz);
    if (ITER(tz)->b)
        return ITER(tz)->b;
    Obj off = ITER(tz)->a;
    if (tz == g_dt_utc || delta_us(off) == 0)
        return str_from_cstr("UTC");
    StrBuf b;
    sb_init(&b);
    sb_adds(&b, "UTC");
    dt_format_offset(&b, off, ":");
    return sb_finish(&b);
}

static int timezone_check_arg(Obj dt, const char *meth)
{
    if (dt == g_None || dt_is(dt, T_dt_datetime))
        return 0;
    err_format(E_TypeError, "%s(dt) argument must be a datetime instance or None, not %s", meth, type_name(dt));
    return -1;
}

static Obj timezone_tzname(Obj *args, size_t nargs, Obj kwnames)
{
    return timezone_check_arg(args[1], "tzname") < 0 ? NULL : timezone_name(args[0]);
}

static Obj timezone_utcoffset(Obj *args, size_t nargs, Obj kwnames)
{
    return timezone_check_arg(args[1], "utcoffset") < 0 ? NULL : ITER(dt_v(args[0]))->a;
}

static Obj timezone_dst(Obj *args, size_t nargs, Obj kwnames)
{
    return timezone_check_arg(args[1], "dst") < 0 ? NULL : g_None;
}

static Obj timezone_fromutc(Obj *args, size_t nargs, Obj kwnames)
{
    if (!dt_is(args[1], T_dt_datetime)) {
        err_set(E_TypeError, "fromutc: argument must be a datetime");
        return NULL;
    }
    if (dt_tz(args[1]) != args[0]) {
        err_set(E_ValueError, "fromutc: dt.tzinfo is not self");
        return NULL;
    }
    return dt_datetime_add_us(args[1], delta_us(ITER(dt_v(args[0]))->a), NULL);
}

static Obj timezone_getinitargs(Obj *args, size_t nargs, Obj kwnames)
{
    Obj z = dt_v(args[0]);
    if (ITER(z)->b)
        return tuple_pack(2, ITER(z)->a, ITER(z)->b);
    return tuple_pack(1, ITER(z)->a);
}

static Obj timezone_repr(Obj self)
{
    if (self == g_dt_utc)
        return str_from_cstr("datetime.timezone.utc");
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = self;
    r[1] = vm_repr(ITER(self)->a);
    if (r[1]) {
        if (!ITER(r[0])->b) {
            res = str_from_format("%s(%s)", dt_type_display(r[0]), str_cstr(r[1]));
        } else if ((r[2] = vm_repr(ITER(r[0])->b))) {
            res = str_from_format("%s(%s, %s)", dt_type_display(r[0]), str_cstr(r[1]), str_cstr(r[2]));
        }
    }
    vm_unroots(r);
    return res;
}

static Obj timezone_str(Obj self) { return timezone_name(self); }

static Obj timezone_richcompare(Obj self, Obj other, int op)
{
    if ((op != CMP_EQ && op != CMP_NE) || !dt_is(other, T_dt_timezone))
        return g_NotImplemented;
    bool eq = delta_us(ITER(dt_v(self))->a) == delta_us(ITER(dt_v(other))->a);
    return vm_bool(op == CMP_EQ ? eq : !eq);
}

static int64_t timezone_hash(Obj self) { return vm_hash(ITER(dt_v(self))->a); }

static const MethodDef timezone_methods[] = {
    {"tzname", timezone_tzname, METH_O, "If name is specified when timezone is created, returns the name.  Otherwise returns offset as 'UTC(+|-)HH:MM'."},
    {"utcoffset", timezone_utcoffset, METH_O, "Return fixed offset."},
    {"dst", timezone_dst, METH_O, "Return None."},
    {"fromutc", timezone_fromutc, METH_O, "datetime in UTC -> datetime in local time."},
    {"__getinitargs__", timezone_getinitargs, METH_NOARGS, "pickle support"},
    {NULL, NULL, 0, NULL},
};

static void set_doc(TypeObj *t, const char *doc)
{
    Obj d = str_from_cstr(doc);
    if (d)
        type_set_attr_cstr(t, "__doc__", d);
}

static void dt_tz_init(void)
{
    TypeObj *t = T_dt_tzinfo = (TypeObj *)type_new_builtin("datetime.tzinfo", T_object, TID_ITER,
                                                            TPF_BASETYPE | TPF_ITER_VALUE);
    VM_WRITE(t);
    t->tp_new = tzinfo_new;
    type_add_methods(t, tzinfo_methods);
    type_ready(t);
    set_doc(t, "Abstract base class for time zone info objects.");

    t = T_dt_timezone = (TypeObj *)type_new_builtin("datetime.timezone", T_dt_tzinfo, TID_ITER, 0);
    VM_WRITE(t);
    t->tp_new = timezone_tp_new;
    t->tp_repr = timezone_repr;
    t->tp_str = timezone_str;
    t->tp_richcompare = timezone_richcompare;
    t->tp_hash = timezone_hash;
    type_add_methods(t, timezone_methods);
    t->solid = (Obj)t;   /* its own slots, not tzinfo's */
    type_ready(t);
    set_doc(t, "Fixed offset from UTC implementation of tzinfo.");

    VM_GLOBAL_ROOT(g_dt_utc);
    Obj zero = dt_delta_new(0, 0);
    g_dt_utc = dt_timezone_new(zero, NULL);
    type_set_attr_cstr(t, "utc", g_dt_utc);
    Obj *r = vm_roots(1);
    r[0] = dt_delta_from_us(-DT_US_PER_DAY + 60000000);
    type_set_attr_cstr(t, "min", dt_timezone_new(r[0], NULL));
    r[0] = dt_delta_from_us(DT_US_PER_DAY - 60000000);
    type_set_attr_cstr(t, "max", dt_timezone_new(r[0], NULL));
    vm_unroots(r);
}

/* ------------------------------------------------------------------ */
/* The module                                                          */
/* ------------------------------------------------------------------ */

Obj datetime_module_init(void)
{
    if (!T_dt_delta) {   /* module inits run inevitable: C globals may be written */
        dt_delta_init();
        dt_tz_init();
        dt_date_init();
        dt_time_init();
        dt_datetime_init();
    }
    Obj *r = vm_roots(2);
    r[0] = module_new("_datetime");
    Obj m = r[0];
    if (m) {
        if (module_add(r[0], "date", (Obj)T_dt_date) < 0 || module_add(r[0], "datetime", (Obj)T_dt_datetime) < 0 ||
            module_add(r[0], "time", (Obj)T_dt_time) < 0 || module_add(r[0], "timedelta", (Obj)T_dt_delta) < 0 ||
            module_add(r[0], "tzinfo", (Obj)T_dt_tzinfo) < 0 || module_add(r[0], "timezone", (Obj)T_dt_timezone) < 0 ||
            module_add(r[0], "UTC", g_dt_utc) < 0 || module_add(r[0], "MINYEAR", MAKE_SMALLINT(DT_MINYEAR)) < 0 ||
            module_add(r[0], "MAXYEAR", MAKE_SMALLINT(DT_MAXYEAR)) < 0)
            m = NULL;
        r[1] = str_from_cstr("Fast implementation of the datetime type.");
        m = m && r[1] && module_add(r[0], "__doc__", r[1]) == 0 ? r[0] : NULL;
    }
    vm_unroots(r);
    return m;
}
