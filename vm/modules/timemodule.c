/* The time module: clocks, sleep, struct_time conversions. */
#include "modules.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static Obj g_struct_time;   /* time.struct_time */

static const char *const st_fields[] = {"tm_year", "tm_mon", "tm_mday", "tm_hour", "tm_min",
                                        "tm_sec", "tm_wday", "tm_yday", "tm_isdst"};

/* The clocks Python reads. Wall and monotonic time include the skew that
 * injected aborts add under TMPY_STM_INJECT_DIVERGE=1 (tests: a retry sees
 * a later time; runtime/tx.h); CPU clocks do not. */
static int64_t clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    int64_t ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    if (id == CLOCK_REALTIME || id == CLOCK_MONOTONIC)
        ns += (int64_t)__atomic_load_n(&tm_clock_skew_ns, __ATOMIC_RELAXED);
    return ns;
}

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    double s = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    if (id == CLOCK_REALTIME || id == CLOCK_MONOTONIC)
        s += (double)__atomic_load_n(&tm_clock_skew_ns, __ATOMIC_RELAXED) * 1e-9;
    return s;
}

#define CLOCK_FN(pyname, id)                                                   \
    static Obj t_##pyname(Obj *args, size_t nargs, Obj kwnames)                \
    {                                                                          \
        return float_new(clock_s(id));                                         \
    }                                                                          \
    static Obj t_##pyname##_ns(Obj *args, size_t nargs, Obj kwnames)           \
    {                                                                          \
        return int_from_i64(clock_ns(id));                                     \
    }
CLOCK_FN(time, CLOCK_REALTIME)
CLOCK_FN(perf_counter, CLOCK_MONOTONIC)
CLOCK_FN(monotonic, CLOCK_MONOTONIC)
CLOCK_FN(process_time, CLOCK_PROCESS_CPUTIME_ID)
CLOCK_FN(thread_time, CLOCK_THREAD_CPUTIME_ID)

static Obj t_sleep(Obj *args, size_t nargs, Obj kwnames)
{
    double secs;
    if (IS_FLOAT(args[0])) {
        secs = FLOAT_VAL(args[0]);
    } else {
        if (!IS_INT(vm_unwrap(args[0])) && !vm_lookup_special(args[0], "__float__")) {
            err_format(E_TypeError, "'%s' object cannot be interpreted as an integer", type_name(args[0]));
            return NULL;
        }
        if (vm_as_double(args[0], &secs) < 0)
            return NULL;
    }
    if (isnan(secs)) {
        err_set(E_ValueError, "Invalid value NaN (not a number)");
        return NULL;
    }
    if (secs < 0) {
        err_set(E_ValueError, "sleep length must be non-negative");
        return NULL;
    }
    if (secs > 1e18) {
        err_set(E_OverflowError, "sleep length is too large");
        return NULL;
    }
    /* A futex wait nobody wakes, but a signal does in the main thread:
     * then the handlers run and, unless one raised, the sleep goes on to
     * the same deadline (PEP 475). */
    double ns = secs * 1e9;
    int64_t now = tm_now_ns();
    int64_t deadline = ns >= (double)(TM_PARK_FOREVER - now) ? TM_PARK_FOREVER : now + (int64_t)ns;
    for (;;) {
        uint32_t never = 0;
        vm_blocking_begin();
        int rc = tm_park(&never, deadline, true);
        vm_blocking_end();
        if (rc != TM_PARK_INTERRUPTED)
            return g_None;
        if (vm_signals_check() < 0)
            return NULL;
    }
}

/* ---- struct_time ---- */

static Obj tm_to_struct(const struct tm *t)
{
    Obj *it = vm_roots(11);
    Obj res = NULL;
    it[0] = int_from_i64(t->tm_year + 1900);
    it[1] = MAKE_SMALLINT(t->tm_mon + 1);
    it[2] = MAKE_SMALLINT(t->tm_mday);
    it[3] = MAKE_SMALLINT(t->tm_hour);
    it[4] = MAKE_SMALLINT(t->tm_min);
    it[5] = MAKE_SMALLINT(t->tm_sec);
    it[6] = MAKE_SMALLINT((t->tm_wday + 6) % 7);
    it[7] = MAKE_SMALLINT(t->tm_yday + 1);
    it[8] = MAKE_SMALLINT(t->tm_isdst);
    if (!it[0])
        goto out;
    it[9] = structseq_new(g_struct_time, it, 9);
    if (!it[9])
        goto out;
    it[10] = str_from_os_cstr(t->tm_zone ? t->tm_zone : "");
    Obj k_zone = it[10] ? str_intern_cstr("tm_zone") : NULL;   /* pinned */
    if (!k_zone || vm_setattr(it[9], k_zone, it[10]) < 0)
        goto out;
    it[10] = int_from_i64(t->tm_gmtoff);
    Obj k_off = it[10] ? str_intern_cstr("tm_gmtoff") : NULL;
    if (!k_off || vm_setattr(it[9], k_off, it[10]) < 0)
        goto out;
    res = it[9];
out:
    vm_unroots(it);
    return res;
}

/* The seconds argument of gmtime/localtime/ctime (None: now). */
static int secs_arg(Obj *args, size_t nargs, time_t *out)
{
    if (nargs == 0 || IS_NONE(args[0])) {
        *out = time(NULL);
        return 0;
    }
    Obj v = args[0];
    if (IS_FLOAT(v)) {
        double d = FLOAT_VAL(v);
        if (isnan(d)) {
            err_set(E_ValueError, "Invalid value NaN (not a number)");
            return -1;
        }
        if (d >= 9.2e18 || d <= -9.2e18) {
            err_set(E_OverflowError, "timestamp out of range for platform time_t");
            return -1;
        }
        *out = (time_t)d;   /* truncates toward zero, as CPython */
        return 0;
    }
    int64_t n;
    if (vm_index_i64(v, &n) < 0)
        return -1;
    *out = (time_t)n;
    return 0;
}

static Obj t_gmtime(Obj *args, size_t nargs, Obj kwnames)
{
    time_t t;
    if (secs_arg(args, nargs, &t) < 0)
        return NULL;
    struct tm tmv;
    if (!gmtime_r(&t, &tmv)) {
        err_set(E_OverflowError, "timestamp out of range for platform time_t");
        return NULL;
    }
    return tm_to_struct(&tmv);
}

static Obj t_localtime(Obj *args, size_t nargs, Obj kwnames)
{
    time_t t;
    if (secs_arg(args, nargs, &t) < 0)
        return NULL;
    struct tm tmv;
    if (!localtime_r(&t, &tmv)) {
        err_set(E_OverflowError, "timestamp out of range for platform time_t");
        return NULL;
    }
    return tm_to_struct(&tmv);
}

/* A struct_time or 9-tuple to struct tm. */
static int tuple_to_tm(Obj v, struct tm *out, const char *fname)
{
    Obj t = vm_unwrap(v);
    if (!IS_TUPLE(t) || TUPLE_LEN(t) != 9) {
        if (IS_TUPLE(t))
            err_format(E_TypeError, "%s(): illegal time tuple argument", fname);
        else
            err_format(E_TypeError, "Tuple or struct_time argument required");
        return -1;
    }
    int64_t f[9];
    for (int i = 0; i < 9; i++) {
        Obj x = TUPLE_ITEMS(t)[i];
        if (vm_index_i64(x, &f[i]) < 0)
            return -1;
        if (f[i] > INT_MAX || f[i] < INT_MIN) {   /* struct tm's fields are C ints */
            err_set(E_OverflowError, f[i] > 0 ? "signed integer is greater than maximum"
                                              : "signed integer is less than minimum");
            return -1;
        }
        t = vm_unwrap(v);
    }
    if (f[0] < (int64_t)INT_MIN + 1900) {
        err_set(E_OverflowError, "year out of range");
        return -1;
    }
    memset(out, 0, sizeof *out);
    out->tm_year = (int)(f[0] - 1900);
    out->tm_mon = (int)(f[1] - 1);
    out->tm_mday = (int)f[2];
    out->tm_hour = (int)f[3];
    out->tm_min = (int)f[4];
    out->tm_sec = (int)f[5];
    out->tm_wday = (int)((f[6] + 1) % 7);
    out->tm_yday = (int)(f[7] - 1);
    out->tm_isdst = (int)f[8];
    /* CPython's checks and defaults (0 fields become 1) */
    if (out->tm_mon == -1)
        out->tm_mon = 0;
    else if (out->tm_mon < 0 || out->tm_mon > 11) {
        err_set(E_ValueError, "month out of range");
        return -1;
    }
    if (out->tm_mday == 0)
        out->tm_mday = 1;
    else if (out->tm_mday < 0 || out->tm_mday > 31) {
        err_set(E_ValueError, "day of month out of range");
        return -1;
    }
    if (out->tm_hour < 0 || out->tm_hour > 23) {
        err_set(E_ValueError, "hour out of range");
        return -1;
    }
    if (out->tm_min < 0 || out->tm_min > 59) {
        err_set(E_ValueError, "minute out of range");
        return -1;
    }
    if (out->tm_sec < 0 || out->tm_sec > 61) {
        err_set(E_ValueError, "seconds out of range");
        return -1;
    }
    if (out->tm_wday < 0) {
        err_set(E_ValueError, "day of week out of range");
        return -1;
    }
    if (out->tm_yday == -1)
        out->tm_yday = 0;
    else if (out->tm_yday < 0 || out->tm_yday > 365) {
        err_set(E_ValueError, "day of year out of range");
        return -1;
    }
    return 0;
}

static int tm_arg(Obj *args, size_t nargs, size_t idx, struct tm *out, const char *fname)
{
    if (nargs <= idx || IS_NONE(args[idx])) {
        time_t now = time(NULL);
        localtime_r(&now, out);
        return 0;
    }
    return tuple_to_tm(args[idx], out, fname);
}

static Obj t_mktime(Obj *args, size_t nargs, Obj kwnames)
{
    struct tm tmv;
    if (tuple_to_tm(args[0], &tmv, "mktime") < 0)
        return NULL;
    tmv.tm_wday = -1;
    time_t t = mktime(&tmv);
    if (t == (time_t)-1 && tmv.tm_wday == -1) {
        err_set(E_OverflowError, "mktime argument out of range");
        return NULL;
    }
    return float_new((double)t);
}

/* strptime(string, format="%a %b %d %H:%M:%S %Y"): CPython's _strptime module does the parsing. */
static Obj t_strptime(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = nargs > 1 ? args[1] : str_from_cstr("%a %b %d %H:%M:%S %Y");
    Obj name = r[1] ? str_from_cstr("_strptime") : NULL;
    if (name && (r[2] = vm_import(name, NULL, g_None, 0)) && (r[2] = vm_getattr_cstr(r[2], "_strptime_time")))
        res = vm_call2(r[2], r[0], r[1]);
    vm_unroots(r);
    return res;
}

static Obj t_strftime(Obj *args, size_t nargs, Obj kwnames)
{
    Obj fmt = args[0];
    if (!IS_STR(fmt)) {
        err_format(E_TypeError, "strftime() argument 1 must be str, not %s", type_name(fmt));
        return NULL;
    }
    if (memchr(str_cstr(fmt), 0, (size_t)STR(fmt)->nbytes)) {
        err_set(E_ValueError, "embedded null character");
        return NULL;
    }
    struct tm tmv;
    if (tm_arg(args, nargs, 1, &tmv, "strftime") < 0)
        return NULL;
    char *cfmt = strdup(str_cstr(args[0]));
    if (!cfmt)
        return err_nomemory();
    size_t cap = 256 + strlen(cfmt) * 4;
    Obj res = NULL;
    for (int tries = 0; tries < 8; tries++, cap *= 4) {
        char *buf = malloc(cap);
        if (!buf) {
            res = err_nomemory();
            break;
        }
        size_t n = strftime(buf, cap, cfmt, &tmv);
        if (n > 0 || !*cfmt || tries == 7) {
            res = str_new(buf, n);
            free(buf);
            break;
        }
        free(buf);
    }
    free(cfmt);
    return res;
}

static Obj format_asctime(const struct tm *t)
{
    static const char wd[7][4] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static const char mo[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                   "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    return str_from_format("%s %s%3d %.2d:%.2d:%.2d %d", wd[(t->tm_wday % 7 + 7) % 7], mo[t->tm_mon % 12],
                           t->tm_mday, t->tm_hour, t->tm_min, t->tm_sec, 1900 + t->tm_year);
}

static Obj t_asctime(Obj *args, size_t nargs, Obj kwnames)
{
    struct tm tmv;
    if (tm_arg(args, nargs, 0, &tmv, "asctime") < 0)
        return NULL;
    return format_asctime(&tmv);
}

static Obj t_ctime(Obj *args, size_t nargs, Obj kwnames)
{
    time_t t;
    if (secs_arg(args, nargs, &t) < 0)
        return NULL;
    struct tm tmv;
    if (!localtime_r(&t, &tmv)) {
        err_set(E_OverflowError, "timestamp out of range for platform time_t");
        return NULL;
    }
    return format_asctime(&tmv);
}

/* time.get_clock_info(name): what each clock function reads, as CPython
 * reports it on Linux (tmpy's clocks are the same clock_gettime calls). */
static Obj t_get_clock_info(Obj *args, size_t nargs, Obj kwnames)
{
    static const struct { const char *name, *impl; clockid_t id; bool monotonic, adjustable; } clocks[] = {
        {"time", "clock_gettime(CLOCK_REALTIME)", CLOCK_REALTIME, false, true},
        {"monotonic", "clock_gettime(CLOCK_MONOTONIC)", CLOCK_MONOTONIC, true, false},
        {"perf_counter", "clock_gettime(CLOCK_MONOTONIC)", CLOCK_MONOTONIC, true, false},
        {"process_time", "clock_gettime(CLOCK_PROCESS_CPUTIME_ID)", CLOCK_PROCESS_CPUTIME_ID, true, false},
        {"thread_time", "clock_gettime(CLOCK_THREAD_CPUTIME_ID)", CLOCK_THREAD_CPUTIME_ID, true, false},
    };
    if (!IS_STR(args[0])) {
        err_format(E_TypeError, "get_clock_info() argument must be str, not %s", type_name(args[0]));
        return NULL;
    }
    for (size_t i = 0; i < sizeof clocks / sizeof clocks[0]; i++) {
        if (!str_eq_cstr(args[0], clocks[i].name))
            continue;
        struct timespec res;
        double resolution = clock_getres(clocks[i].id, &res) == 0 ? (double)res.tv_sec + (double)res.tv_nsec * 1e-9
                                                                  : 1e-9;
        Obj *r = vm_roots(4);
        Obj ns = NULL;
        r[0] = namespace_new();
        r[1] = r[0] ? str_from_cstr(clocks[i].impl) : NULL;
        r[2] = r[1] ? float_new(resolution) : NULL;
        static const char *const fields[] = {"implementation", "monotonic", "adjustable", "resolution"};
        bool ok = r[2] != NULL;
        for (int f = 0; ok && f < 4; f++) {
            r[3] = str_from_cstr(fields[f]);
            Obj v = f == 0 ? r[1] : f == 1 ? (clocks[i].monotonic ? g_True : g_False)
                  : f == 2 ? (clocks[i].adjustable ? g_True : g_False) : r[2];
            ok = r[3] && vm_setattr(r[0], r[3], v) == 0;
        }
        if (ok)
            ns = r[0];
        vm_unroots(r);
        return ns;
    }
    err_set(E_ValueError, "unknown clock");
    return NULL;
}

/* tzname, timezone, altzone and daylight of the module in *mp (a root), from libc's after tzset(). */
static int set_tz_attrs(Obj *mp)
{
    Obj *r = vm_roots(2);
    int rc = -1;
    r[0] = str_from_os_cstr(tzname[0]);
    r[1] = r[0] ? str_from_os_cstr(tzname[1]) : NULL;
    if (!r[1] || !(r[0] = tuple_pack(2, r[0], r[1])) || module_add(*mp, "tzname", r[0]) < 0)
        goto out;
    if ((r[0] = int_from_i64(timezone), !r[0]) || module_add(*mp, "timezone", r[0]) < 0 ||
        (r[0] = int_from_i64(daylight ? timezone - 3600 : timezone), !r[0]) ||
        module_add(*mp, "altzone", r[0]) < 0 || module_add(*mp, "daylight", MAKE_SMALLINT(daylight != 0)) < 0)
        goto out;
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* time.tzset(): libc re-reads TZ (os.environ's putenv set it); the module's zone attributes follow. */
static Obj t_tzset(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();   /* libc's zone state is C memory shared by the threads */
    tzset();
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = vm_import_cstr("time");
    if (r[0] && set_tz_attrs(&r[0]) == 0)
        res = g_None;
    vm_unroots(r);
    return res;
}

static const MethodDef time_functions[] = {
    {"time", t_time, METH_NOARGS, NULL},
    {"get_clock_info", t_get_clock_info, METH_O, NULL},
    {"time_ns", t_time_ns, METH_NOARGS, NULL},
    {"perf_counter", t_perf_counter, METH_NOARGS, NULL},
    {"perf_counter_ns", t_perf_counter_ns, METH_NOARGS, NULL},
    {"monotonic", t_monotonic, METH_NOARGS, NULL},
    {"monotonic_ns", t_monotonic_ns, METH_NOARGS, NULL},
    {"process_time", t_process_time, METH_NOARGS, NULL},
    {"process_time_ns", t_process_time_ns, METH_NOARGS, NULL},
    {"thread_time", t_thread_time, METH_NOARGS, NULL},
    {"thread_time_ns", t_thread_time_ns, METH_NOARGS, NULL},
    {"sleep", t_sleep, METH_O, NULL},
    {"gmtime", t_gmtime, METH_OLDMSG | METH_ARGS(0, 1), NULL},
    {"localtime", t_localtime, METH_OLDMSG | METH_ARGS(0, 1), NULL},
    {"mktime", t_mktime, METH_O, NULL},
    {"strftime", t_strftime, METH_OLDMSG | METH_ARGS(1, 2), NULL},
    {"strptime", t_strptime, METH_OLDMSG | METH_ARGS(1, 2), NULL},
    {"asctime", t_asctime, METH_BARENAME | METH_ARGS(0, 1), NULL},
    {"ctime", t_ctime, METH_OLDMSG | METH_ARGS(0, 1), NULL},
    {"tzset", t_tzset, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

Obj time_module_init(void)
{
    if (!g_struct_time) {
        VM_GLOBAL_ROOT(g_struct_time);
        static const char *const st_extra[] = {"tm_zone", "tm_gmtoff"};
        g_struct_time = structseq_new_type_extra("time", "struct_time", st_fields, 9, 9, st_extra, 2);
        if (!g_struct_time)
            return NULL;
    }
    tzset();
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = module_new("time");
    if (!r[0])
        goto out;
    module_add_functions(r[0], time_functions);
    if (module_add(r[0], "struct_time", g_struct_time) < 0 ||
        module_add(r[0], "_STRUCT_TM_ITEMS", MAKE_SMALLINT(11)) < 0)
        goto out;
    if (set_tz_attrs(&r[0]) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
