/* The _locale module: setlocale, localeconv, nl_langinfo, strcoll,
 * strxfrm, getencoding and the gettext functions, over the C library's
 * locale, as CPython's (locale.py is CPython's, on top).
 *
 * CPython sets LC_CTYPE from the environment at start-up (C and POSIX
 * coerced to C.UTF-8, PEP 538); tmpy's start-up keeps the C locale, so the
 * module does that when first imported: a program that asks for the
 * locale sees what python3 shows. The locale is the process's: every call
 * that sets it becomes inevitable first (STM). */
#define _GNU_SOURCE
#include "eval.h"
#include "modules.h"
#include "objects/containers.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <errno.h>
#include <langinfo.h>
#include <libintl.h>
#include <limits.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static TypeObj *E_locale_error;

static Obj locale_error(const char *msg)
{
    err_set(E_locale_error, msg);
    return NULL;
}

/* a str's code points as a malloc'd NUL-terminated wide string;
 * ValueError for an embedded NUL */
static wchar_t *wide_from_str(Obj v, const char *fname, int argi)
{
    Obj s = vm_unwrap(v);
    if (!IS_STR(s)) {
        err_format(E_TypeError, "%s() argument %d must be str, not %s", fname, argi, type_name(v));
        return NULL;
    }
    const unsigned char *p = (const unsigned char *)str_cstr(s);
    size_t nbytes = (size_t)STR(s)->nbytes;
    wchar_t *w = malloc((nbytes + 1) * sizeof *w);
    if (!w) {
        err_nomemory();
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < nbytes;) {
        uint32_t c = p[i];
        int len = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
        if (len > 1)
            c &= 0x3f >> (len - 1);
        for (int k = 1; k < len; k++)
            c = (c << 6) | (p[i + k] & 0x3f);
        i += (size_t)len;
        if (c == 0) {
            free(w);
            err_set(E_ValueError, "embedded null character");
            return NULL;
        }
        w[n++] = (wchar_t)c;
    }
    w[n] = 0;
    return w;
}

/* n wide characters as a str (UTF-8, surrogates in their 3-byte form) */
static Obj str_from_wide(const wchar_t *w, size_t n)
{
    char *buf = malloc(n * 4 + 1);
    if (!buf)
        return err_nomemory();
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = (uint32_t)w[i];
        if (c > 0x10ffff) {
            free(buf);
            err_format(E_ValueError, "character U+%x is not in range [U+0000; U+10ffff]", c);
            return NULL;
        }
        if (c < 0x80) {
            buf[k++] = (char)c;
        } else if (c < 0x800) {
            buf[k++] = (char)(0xc0 | c >> 6);
            buf[k++] = (char)(0x80 | (c & 0x3f));
        } else if (c < 0x10000) {
            buf[k++] = (char)(0xe0 | c >> 12);
            buf[k++] = (char)(0x80 | (c >> 6 & 0x3f));
            buf[k++] = (char)(0x80 | (c & 0x3f));
        } else {
            buf[k++] = (char)(0xf0 | c >> 18);
            buf[k++] = (char)(0x80 | (c >> 12 & 0x3f));
            buf[k++] = (char)(0x80 | (c >> 6 & 0x3f));
            buf[k++] = (char)(0x80 | (c & 0x3f));
        }
    }
    Obj r = str_new(buf, k);
    free(buf);
    return r;
}

/* text the locale gives (in its encoding: decoded through mbstowcs) */
static Obj str_from_locale(const char *s)
{
    size_t n = mbstowcs(NULL, s, 0);
    if (n == (size_t)-1)
        return str_from_os_cstr(s);
    wchar_t *w = malloc((n + 1) * sizeof *w);
    if (!w)
        return err_nomemory();
    mbstowcs(w, s, n + 1);
    Obj r = str_from_wide(w, n);
    free(w);
    return r;
}

/* setlocale(category, locale=None) */
static Obj locale_setlocale(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t category;
    if (vm_index_i64(args[0], &category) < 0)
        return NULL;
    if (category < INT_MIN || category > INT_MAX)
        return locale_error("invalid locale category");
    const char *r;
    if (nargs < 2 || IS_NONE(args[1])) {
        r = setlocale((int)category, NULL);
        if (!r)
            return locale_error("locale query failed");
        return str_from_os_cstr(r);
    }
    Obj loc = vm_unwrap(args[1]);
    if (!IS_STR(loc)) {
        err_format(E_TypeError, "setlocale() argument 2 must be str or None, not %s", type_name(args[1]));
        return NULL;
    }
    char *c = str_to_os(loc, NULL);
    if (!c)
        return NULL;
    if (strlen(c) != (size_t)STR(vm_unwrap(args[1]))->nbytes) {
        free(c);
        err_set(E_ValueError, "embedded null character");
        return NULL;
    }
    vm_tx_become_inevitable();   /* the process's locale: no abort may undo it */
    r = setlocale((int)category, c);
    free(c);
    if (!r) {
        /* an invalid category fails the same way: tell the two apart as CPython does */
        if (!setlocale((int)category, NULL))
            return locale_error("invalid locale category");
        return locale_error("unsupported locale setting");
    }
    return str_from_os_cstr(r);
}

/* the grouping string as a list: its bytes up to and including the 0 or
 * CHAR_MAX that ends it (empty: no grouping) */
static Obj grouping_list(const char *s)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    if (!(r[0] = list_new_capacity(4)))
        goto out;
    if (s[0] != '\0') {
        int i = -1;
        do {
            i++;
            if (list_append(r[0], MAKE_SMALLINT((int)s[i])) < 0)
                goto out;
        } while (s[i] != '\0' && s[i] != CHAR_MAX);
    }
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

static int dict_put_cstr(Obj d, const char *key, Obj v)
{
    Obj *r = vm_roots(2);
    r[0] = d;
    r[1] = v;
    Obj k = str_from_cstr(key);
    int rc = k ? dict_setitem(r[0], k, r[1]) : -1;
    vm_unroots(r);
    return rc;
}

static Obj locale_localeconv(Obj *args, size_t nargs, Obj kwnames)
{
    struct lconv *l = localeconv();
    Obj *r = vm_roots(2);
    Obj res = NULL;
    if (!(r[0] = dict_new()))
        goto out;
    const struct { const char *name; const char *v; } strs[] = {
        {"decimal_point", l->decimal_point}, {"thousands_sep", l->thousands_sep},
        {"int_curr_symbol", l->int_curr_symbol}, {"currency_symbol", l->currency_symbol},
        {"mon_decimal_point", l->mon_decimal_point}, {"mon_thousands_sep", l->mon_thousands_sep},
        {"positive_sign", l->positive_sign}, {"negative_sign", l->negative_sign},
    };
    for (size_t i = 0; i < ARRAY_LEN(strs); i++)
        if (!(r[1] = str_from_locale(strs[i].v)) || dict_put_cstr(r[0], strs[i].name, r[1]) < 0)
            goto out;
    if (!(r[1] = grouping_list(l->grouping)) || dict_put_cstr(r[0], "grouping", r[1]) < 0 ||
        !(r[1] = grouping_list(l->mon_grouping)) || dict_put_cstr(r[0], "mon_grouping", r[1]) < 0)
        goto out;
    const struct { const char *name; char v; } chars[] = {
        {"int_frac_digits", l->int_frac_digits}, {"frac_digits", l->frac_digits},
        {"p_cs_precedes", l->p_cs_precedes}, {"p_sep_by_space", l->p_sep_by_space},
        {"n_cs_precedes", l->n_cs_precedes}, {"n_sep_by_space", l->n_sep_by_space},
        {"p_sign_posn", l->p_sign_posn}, {"n_sign_posn", l->n_sign_posn},
    };
    for (size_t i = 0; i < ARRAY_LEN(chars); i++)
        if (dict_put_cstr(r[0], chars[i].name, MAKE_SMALLINT((int)chars[i].v)) < 0)
            goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

static Obj locale_strcoll(Obj *args, size_t nargs, Obj kwnames)
{
    wchar_t *a = wide_from_str(args[0], "strcoll", 1);
    if (!a)
        return NULL;
    wchar_t *b = wide_from_str(args[1], "strcoll", 2);
    if (!b) {
        free(a);
        return NULL;
    }
    int c = wcscoll(a, b);
    free(a);
    free(b);
    return int_from_i64(c);
}

static Obj locale_strxfrm(Obj *args, size_t nargs, Obj kwnames)
{
    wchar_t *s = wide_from_str(args[0], "strxfrm", 1);
    if (!s)
        return NULL;
    size_t n = wcsxfrm(NULL, s, 0);
    wchar_t *out = malloc((n + 1) * sizeof *out);
    Obj res = NULL;
    if (!out) {
        err_nomemory();
    } else {
        wcsxfrm(out, s, n + 1);
        res = str_from_wide(out, n);
    }
    free(out);
    free(s);
    return res;
}

static const struct { const char *name; int item; } langinfo_items[] = {
#ifdef ABDAY_1
    {"ABDAY_1", ABDAY_1},
#endif
#ifdef ABDAY_2
    {"ABDAY_2", ABDAY_2},
#endif
#ifdef ABDAY_3
    {"ABDAY_3", ABDAY_3},
#endif
#ifdef ABDAY_4
    {"ABDAY_4", ABDAY_4},
#endif
#ifdef ABDAY_5
    {"ABDAY_5", ABDAY_5},
#endif
#ifdef ABDAY_6
    {"ABDAY_6", ABDAY_6},
#endif
#ifdef ABDAY_7
    {"ABDAY_7", ABDAY_7},
#endif
#ifdef ABMON_1
    {"ABMON_1", ABMON_1},
#endif
#ifdef ABMON_10
    {"ABMON_10", ABMON_10},
#endif
#ifdef ABMON_11
    {"ABMON_11", ABMON_11},
#endif
#ifdef ABMON_12
    {"ABMON_12", ABMON_12},
#endif
#ifdef ABMON_2
    {"ABMON_2", ABMON_2},
#endif
#ifdef ABMON_3
    {"ABMON_3", ABMON_3},
#endif
#ifdef ABMON_4
    {"ABMON_4", ABMON_4},
#endif
#ifdef ABMON_5
    {"ABMON_5", ABMON_5},
#endif
#ifdef ABMON_6
    {"ABMON_6", ABMON_6},
#endif
#ifdef ABMON_7
    {"ABMON_7", ABMON_7},
#endif
#ifdef ABMON_8
    {"ABMON_8", ABMON_8},
#endif
#ifdef ABMON_9
    {"ABMON_9", ABMON_9},
#endif
#ifdef ALT_DIGITS
    {"ALT_DIGITS", ALT_DIGITS},
#endif
#ifdef AM_STR
    {"AM_STR", AM_STR},
#endif
#ifdef CODESET
    {"CODESET", CODESET},
#endif
#ifdef CRNCYSTR
    {"CRNCYSTR", CRNCYSTR},
#endif
#ifdef DAY_1
    {"DAY_1", DAY_1},
#endif
#ifdef DAY_2
    {"DAY_2", DAY_2},
#endif
#ifdef DAY_3
    {"DAY_3", DAY_3},
#endif
#ifdef DAY_4
    {"DAY_4", DAY_4},
#endif
#ifdef DAY_5
    {"DAY_5", DAY_5},
#endif
#ifdef DAY_6
    {"DAY_6", DAY_6},
#endif
#ifdef DAY_7
    {"DAY_7", DAY_7},
#endif
#ifdef D_FMT
    {"D_FMT", D_FMT},
#endif
#ifdef D_T_FMT
    {"D_T_FMT", D_T_FMT},
#endif
#ifdef ERA
    {"ERA", ERA},
#endif
#ifdef ERA_D_FMT
    {"ERA_D_FMT", ERA_D_FMT},
#endif
#ifdef ERA_D_T_FMT
    {"ERA_D_T_FMT", ERA_D_T_FMT},
#endif
#ifdef ERA_T_FMT
    {"ERA_T_FMT", ERA_T_FMT},
#endif
#ifdef MON_1
    {"MON_1", MON_1},
#endif
#ifdef MON_10
    {"MON_10", MON_10},
#endif
#ifdef MON_11
    {"MON_11", MON_11},
#endif
#ifdef MON_12
    {"MON_12", MON_12},
#endif
#ifdef MON_2
    {"MON_2", MON_2},
#endif
#ifdef MON_3
    {"MON_3", MON_3},
#endif
#ifdef MON_4
    {"MON_4", MON_4},
#endif
#ifdef MON_5
    {"MON_5", MON_5},
#endif
#ifdef MON_6
    {"MON_6", MON_6},
#endif
#ifdef MON_7
    {"MON_7", MON_7},
#endif
#ifdef MON_8
    {"MON_8", MON_8},
#endif
#ifdef MON_9
    {"MON_9", MON_9},
#endif
#ifdef NOEXPR
    {"NOEXPR", NOEXPR},
#endif
#ifdef PM_STR
    {"PM_STR", PM_STR},
#endif
#ifdef RADIXCHAR
    {"RADIXCHAR", RADIXCHAR},
#endif
#ifdef THOUSEP
    {"THOUSEP", THOUSEP},
#endif
#ifdef T_FMT
    {"T_FMT", T_FMT},
#endif
#ifdef T_FMT_AMPM
    {"T_FMT_AMPM", T_FMT_AMPM},
#endif
#ifdef YESEXPR
    {"YESEXPR", YESEXPR},
#endif
#ifdef _DATE_FMT
    {"_DATE_FMT", _DATE_FMT},
#endif
};

static Obj locale_nl_langinfo(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t item;
    if (vm_index_i64(args[0], &item) < 0)
        return NULL;
    for (size_t i = 0; i < ARRAY_LEN(langinfo_items); i++)
        if (langinfo_items[i].item == item)
            return str_from_locale(nl_langinfo((nl_item)item));
    err_set(E_ValueError, "unsupported langinfo constant");
    return NULL;
}

static Obj locale_getencoding(Obj *args, size_t nargs, Obj kwnames)
{
    const char *e = nl_langinfo(CODESET);
    return str_from_cstr(e && *e ? e : "utf-8");
}

/* the gettext family: str or None arguments as CPython's "z" */
static int opt_cstr(Obj v, char **out)
{
    *out = NULL;
    if (!v || IS_NONE(v))
        return 0;
    Obj s = vm_unwrap(v);
    if (!IS_STR(s)) {
        err_format(E_TypeError, "expected str or None, not %s", type_name(v));
        return -1;
    }
    *out = str_to_os(s, NULL);
    return *out ? 0 : -1;
}

static Obj gettext_result(const char *s) { return s ? str_from_os_cstr(s) : g_None; }

static Obj locale_gettext(Obj *args, size_t nargs, Obj kwnames)
{
    char *m;
    if (opt_cstr(args[0], &m) < 0)
        return NULL;
    if (!m) {
        err_set(E_TypeError, "gettext() argument must be str, not None");
        return NULL;
    }
    Obj r = str_from_os_cstr(gettext(m));
    free(m);
    return r;
}

static Obj locale_dgettext(Obj *args, size_t nargs, Obj kwnames)
{
    char *d, *m = NULL;
    if (opt_cstr(args[0], &d) < 0 || opt_cstr(args[1], &m) < 0 || !m) {
        free(d);
        if (!m && !err_occurred())
            err_set(E_TypeError, "dgettext() argument 2 must be str");
        return NULL;
    }
    Obj r = str_from_os_cstr(dgettext(d, m));
    free(d);
    free(m);
    return r;
}

static Obj locale_dcgettext(Obj *args, size_t nargs, Obj kwnames)
{
    char *d, *m = NULL;
    int64_t cat;
    if (opt_cstr(args[0], &d) < 0 || opt_cstr(args[1], &m) < 0 || !m || vm_index_i64(args[2], &cat) < 0) {
        free(d);
        free(m);
        if (!err_occurred())
            err_set(E_TypeError, "dcgettext() argument 2 must be str");
        return NULL;
    }
    Obj r = str_from_os_cstr(dcgettext(d, m, (int)cat));
    free(d);
    free(m);
    return r;
}

static Obj locale_textdomain(Obj *args, size_t nargs, Obj kwnames)
{
    char *d;
    if (opt_cstr(args[0], &d) < 0)
        return NULL;
    vm_tx_become_inevitable();
    const char *r = textdomain(d);
    free(d);
    return r ? str_from_os_cstr(r) : err_from_errno(errno, NULL);
}

static Obj locale_bindtextdomain(Obj *args, size_t nargs, Obj kwnames)
{
    char *d, *dir = NULL;
    if (opt_cstr(args[0], &d) < 0 || opt_cstr(args[1], &dir) < 0) {
        free(d);
        return NULL;
    }
    if (!d || !*d) {
        free(d);
        free(dir);
        err_set(E_ValueError, "domain must be a non-empty string");
        return NULL;
    }
    vm_tx_become_inevitable();
    const char *r = bindtextdomain(d, dir);
    free(d);
    free(dir);
    return r ? str_from_os_cstr(r) : err_from_errno(errno, NULL);
}

static Obj locale_bind_textdomain_codeset(Obj *args, size_t nargs, Obj kwnames)
{
    char *d, *cs = NULL;
    if (opt_cstr(args[0], &d) < 0 || opt_cstr(args[1], &cs) < 0) {
        free(d);
        return NULL;
    }
    vm_tx_become_inevitable();
    const char *r = bind_textdomain_codeset(d, cs);
    free(d);
    free(cs);
    return gettext_result(r);
}

static const MethodDef locale_functions[] = {
    {"setlocale", locale_setlocale, METH_ARGS(1, 2), NULL},
    {"localeconv", locale_localeconv, METH_NOARGS, NULL},
    {"strcoll", locale_strcoll, METH_ARGS(2, 2), NULL},
    {"strxfrm", locale_strxfrm, METH_O, NULL},
    {"nl_langinfo", locale_nl_langinfo, METH_O, NULL},
    {"getencoding", locale_getencoding, METH_NOARGS, NULL},
    {"gettext", locale_gettext, METH_O, NULL},
    {"dgettext", locale_dgettext, METH_ARGS(2, 2), NULL},
    {"dcgettext", locale_dcgettext, METH_ARGS(3, 3), NULL},
    {"textdomain", locale_textdomain, METH_O, NULL},
    {"bindtextdomain", locale_bindtextdomain, METH_ARGS(2, 2), NULL},
    {"bind_textdomain_codeset", locale_bind_textdomain_codeset, METH_ARGS(2, 2), NULL},
    {NULL, NULL, 0, NULL},
};

Obj locale_module_init(void)
{
    vm_tx_become_inevitable();   /* the locale and the exception type are the process's */
    if (!E_locale_error) {
        E_locale_error = (TypeObj *)type_new_builtin("locale.Error", E_Exception, TID_EXCEPTION, TPF_BASETYPE | TPF_HAS_DICT);
        type_ready(E_locale_error);
        /* what CPython's start-up does (PEP 538 coerces C and POSIX) */
        const char *loc = setlocale(LC_CTYPE, "");
        if (!loc || !strcmp(loc, "C") || !strcmp(loc, "POSIX"))
            if (!setlocale(LC_CTYPE, "C.UTF-8"))
                setlocale(LC_CTYPE, "C");
    }
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = module_new("_locale");
    if (!r[0])
        goto out;
    module_add_functions(r[0], locale_functions);
    if (module_add(r[0], "Error", (Obj)E_locale_error) < 0 || module_add(r[0], "CHAR_MAX", MAKE_SMALLINT(CHAR_MAX)) < 0)
        goto out;
    static const struct { const char *name; int v; } cats[] = {
        {"LC_CTYPE", LC_CTYPE}, {"LC_COLLATE", LC_COLLATE}, {"LC_TIME", LC_TIME}, {"LC_MONETARY", LC_MONETARY},
        {"LC_MESSAGES", LC_MESSAGES}, {"LC_NUMERIC", LC_NUMERIC}, {"LC_ALL", LC_ALL},
    };
    for (size_t i = 0; i < ARRAY_LEN(cats); i++)
        if (module_add(r[0], cats[i].name, MAKE_SMALLINT(cats[i].v)) < 0)
            goto out;
    for (size_t i = 0; i < ARRAY_LEN(langinfo_items); i++)
        if (module_add(r[0], langinfo_items[i].name, MAKE_SMALLINT(langinfo_items[i].item)) < 0)
            goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
