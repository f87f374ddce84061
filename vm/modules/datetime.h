/* _datetime: what the files of the native datetime module share
 * (datetimemodule.c: the module, the calendar, tzinfo and timezone, the
 * ISO parsers and strftime; datetime_delta.c: timedelta; datetime_date.c:
 * date; datetime_time.c: time; datetime_datetime.c: datetime).
 *
 * Every value is an IterObj of its type (TPF_ITER_VALUE: an instance of a
 * Python subclass wraps one in base_value, so code reads fields through
 * dt_v(v) = vm_unwrap(v)). Values never change after they are made, so
 * their fields are written once, right after the allocation:
 *   timedelta: i = days, n = seconds * 10**6 + microseconds (0 <= n < 86400 * 10**6)
 *   date:      i = DT_YMD(year, month, day)
 *   time:      n = microseconds of the day, kind = fold, a = tzinfo (NULL: None)
 *   datetime:  i = DT_YMD(...), n, kind, a as time
 *   timezone:  a = offset (a timedelta), b = name (str) or NULL
 *   tzinfo:    nothing */
#ifndef TMPY_DATETIME_H
#define TMPY_DATETIME_H

#include "modules.h"
#include "objects/objects.h"
#include "objects/numbers.h"
#include "objects/strobj.h"
#include "objects/containers.h"

extern TypeObj *T_dt_delta, *T_dt_date, *T_dt_time, *T_dt_datetime, *T_dt_tzinfo, *T_dt_timezone;
extern Obj g_dt_utc;   /* timezone.utc */

#define DT_MINYEAR 1
#define DT_MAXYEAR 9999
#define DT_MAX_DAYS 999999999
#define DT_US_PER_DAY 86400000000LL
#define DT_MAX_ORDINAL 3652059   /* date(9999, 12, 31).toordinal() */
/* 8 bits for the day: a pickle state's day byte is taken as it is (CPython checks only the month) */
#define DT_YMD(y, m, d) (((int64_t)(y) << 16) | ((int64_t)(m) << 8) | (int64_t)(d))
#define DT_YEAR(p) ((int)((p) >> 16))
#define DT_MONTH(p) ((int)(((p) >> 8) & 255))
#define DT_DAY(p) ((int)((p) & 255))

static inline Obj dt_v(Obj v) { return vm_unwrap(v); }
static inline bool dt_is(Obj v, TypeObj *t) { return vm_isinstance_type(v, t); }
/* Fields of a value (any of the types above, unwrapped here). */
static inline int64_t dt_i(Obj v) { return ITER(dt_v(v))->i; }
static inline int64_t dt_n(Obj v) { return ITER(dt_v(v))->n; }
static inline int dt_fold(Obj v) { return (int)ITER(dt_v(v))->kind; }
static inline Obj dt_tz(Obj v) { Obj t = ITER(dt_v(v))->a; return t ? t : g_None; }
/* Total microseconds of a timedelta. */
static inline __int128 delta_us(Obj v) { return (__int128)dt_i(v) * DT_US_PER_DAY + dt_n(v); }

/* ---- calendar (datetimemodule.c) ---- */
bool dt_is_leap(int y);
int64_t dt_ymd_to_ord(int y, int m, int d);        /* 0001-01-01 is 1 */
void dt_ord_to_ymd(int64_t ord, int *y, int *m, int *d);
int dt_weekday(int y, int m, int d);                /* Monday 0 */
int64_t dt_iso_week1_monday(int y);
int dt_check_date(int64_t y, int64_t m, int64_t d); /* 0, or -1 with ValueError */
int dt_check_time(int64_t h, int64_t mi, int64_t s, int64_t us, int64_t fold);
int dt_check_tzinfo(Obj tz);                        /* None or a tzinfo: 0, else -1 with TypeError */
/* An int argument of a constructor (CPython's "i" format): 0 or -1. */
int dt_int_arg(Obj v, int64_t *out);
const char *dt_type_display(Obj v);                 /* type name as CPython's tp_name */

/* ---- making values: the exact types ---- */
Obj dt_delta_new(int64_t days, int64_t us_of_day);             /* normalised input; OverflowError past the range */
Obj dt_delta_from_us(__int128 us);                             /* OverflowError past the range */
Obj dt_date_new(int y, int m, int d);
Obj dt_time_new(int64_t us_of_day, Obj tz, int fold);          /* tz NULL or None: naive */
Obj dt_datetime_new(int y, int m, int d, int64_t us_of_day, Obj tz, int fold);
/* Wrap a new IterObj of `base` for `type` (a Python subclass of base). */
Obj dt_wrap(TypeObj *base, Obj type, Obj value);

/* ---- tzinfo calls (datetimemodule.c) ---- */
/* tz.utcoffset(arg) / tz.dst(arg): None or a timedelta strictly within a day; NULL with an error.
 * tz None: None. */
Obj dt_call_utcoffset(Obj tz, Obj arg);
Obj dt_call_dst(Obj tz, Obj arg);
Obj dt_call_tzname(Obj tz, Obj arg);    /* None or str */
/* "+HH:MM[:SS[.ffffff]]" of a timedelta offset (sep "" for %z). */
void dt_format_offset(StrBuf *b, Obj offset, const char *sep);
Obj dt_local_timezone_at(int64_t utc_seconds);   /* timezone(offset, tm_zone) of localtime then */
int dt_local_to_utc(int y, int m, int d, int64_t sec_of_day, int fold, int64_t *out);   /* timestamp of local wall time */
/* fromtimestamp: a timestamp (int or float) as whole seconds and microseconds (rounded half
 * to even); then the fields (y, m, d, H, M, S) of those seconds in UTC or local time, with
 * the fold of a local time that repeats. 0, or -1 with an error. */
int dt_timestamp_split(Obj ts, int64_t *sec, int64_t *us);
int dt_fields_from_seconds(int64_t sec, bool utc, int out[6], int *fold);

/* ---- formatting and parsing ---- */
/* strftime of date, time and datetime: %z, %Z (from tz.utcoffset(tzarg), tz.tzname(tzarg); tz
 * None: empty) and %f (us) replaced, then time.strftime(format, timetuple). All rooted by the caller. */
Obj dt_strftime(Obj fmt, Obj timetuple, int64_t us, Obj tz, Obj tzarg);
void dt_format_time(StrBuf *b, int64_t us_of_day, int timespec);
int dt_timespec(Obj spec, int64_t us, int *out);   /* -1 with ValueError "Unknown timespec value" */
int dt_parse_isodate(const char *s, size_t n, int *y, int *m, int *d);   /* -1 (no error set) */
/* 0 with hour, minute, second, microsecond (not range-checked: the constructor's checks say
 * what is wrong) and the tz (None, utc or a timezone); -1 (no error set) for a malformed string,
 * -2 with an error (an offset of a day or more). *tz must be a root. */
int dt_parse_isotime(const char *s, size_t n, int comps[4], Obj *tz);
size_t dt_iso_separator(const char *s, size_t n);   /* length of the date part, 0: invalid */
Obj dt_struct_time(int y, int m, int d, int64_t us_of_day, int dst);
int64_t dt_hash_i128(__int128 v);

/* ---- per type (the files that define them) ---- */
void dt_delta_init(void);
void dt_date_init(void);
void dt_time_init(void);
void dt_datetime_init(void);
/* naive-aware datetime arithmetic (datetime_datetime.c) for timezone.fromutc */
Obj dt_datetime_add_us(Obj dt, __int128 us, Obj type);   /* dt + us, of `type` (NULL: dt's type) */

#endif
