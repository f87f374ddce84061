/* Argument checking for C functions, with CPython 3.11's messages. */
#include "objects/objects.h"

#include <string.h>

/* "f" -> "f()" (a name that already ends in ')' is kept). */
static void call_name(const char *fname, char *buf, size_t n)
{
    size_t len = strlen(fname);
    if (len && fname[len - 1] == ')')
        snprintf(buf, n, "%s", fname);
    else
        snprintf(buf, n, "%s()", fname);
}

/* "f()" -> "f" */
static void bare_name(const char *fname, char *buf, size_t n)
{
    snprintf(buf, n, "%s", fname);
    size_t len = strlen(buf);
    if (len >= 2 && buf[len - 2] == '(' && buf[len - 1] == ')')
        buf[len - 2] = 0;
}

int vm_check_args(const char *fname, size_t nargs, Obj kwnames, int min, int max)
{
    char name[256];
    if (kwnames && TUPLE_LEN(kwnames) > 0) {
        call_name(fname, name, sizeof name);
        err_format(E_TypeError, "%s takes no keyword arguments", name);
        return -1;
    }
    if ((int64_t)nargs >= min && (max < 0 || (int64_t)nargs <= max))
        return 0;
    if (max == 0) {
        call_name(fname, name, sizeof name);
        err_format(E_TypeError, "%s takes no arguments (%zu given)", name, nargs);
        return -1;
    }
    if (min == 1 && max == 1) {
        call_name(fname, name, sizeof name);
        err_format(E_TypeError, "%s takes exactly one argument (%zu given)", name, nargs);
        return -1;
    }
    bare_name(fname, name, sizeof name);
    if ((int64_t)nargs < min)
        err_format(E_TypeError, "%s expected %s%d argument%s, got %zu", name, min == max ? "" : "at least ", min,
                   min == 1 ? "" : "s", nargs);
    else
        err_format(E_TypeError, "%s expected %s%d argument%s, got %zu", name, min == max ? "" : "at most ", max,
                   max == 1 ? "" : "s", nargs);
    return -1;
}

int vm_parse_args(const char *fname, Obj *args, size_t nargs, Obj kwnames, const char *const *names, int min,
                  int maxpos, Obj *out)
{
    int nnames = 0;
    while (names[nnames])
        nnames++;
    size_t nkw = kwnames ? (size_t)TUPLE_LEN(kwnames) : 0;
    char name[256];
    for (int i = 0; i < nnames; i++)
        out[i] = NULL;
    /* fast path: positional only, counts fine */
    if (!nkw && (int64_t)nargs >= min && (int64_t)nargs <= maxpos) {
        for (size_t i = 0; i < nargs; i++)
            out[i] = args[i];
        return 0;
    }
    call_name(fname, name, sizeof name);
    if ((int64_t)(nargs + nkw) > nnames) {
        err_format(E_TypeError, "%s takes at most %d %sargument%s (%zu given)", name, nnames,
                   nargs == 0 ? "keyword " : "", nnames == 1 ? "" : "s", nargs + nkw);
        return -1;
    }
    if ((int64_t)nargs > maxpos) {
        if (maxpos == 0)
            err_format(E_TypeError, "%s takes no positional arguments", name);
        else
            err_format(E_TypeError, "%s takes %s %d positional argument%s (%zu given)", name,
                       min < maxpos ? "at most" : "exactly", maxpos, maxpos == 1 ? "" : "s", nargs);
        return -1;
    }
    for (size_t i = 0; i < nargs; i++)
        out[i] = args[i];
    /* keywords */
    for (size_t k = 0; k < nkw; k++) {
        Obj kn = TUPLE_ITEMS(kwnames)[k];
        int which = -1;
        for (int i = 0; i < nnames && which < 0; i++)
            if (names[i][0] && IS_STR(kn) && str_eq_cstr(kn, names[i]))
                which = i;
        if (which < 0) {
            err_format(E_TypeError, "'%s' is an invalid keyword argument for %s", IS_STR(kn) ? str_cstr(kn) : "?",
                       name);
            return -1;
        }
        if (which < (int)nargs) {
            err_format(E_TypeError, "argument for %s given by name ('%s') and position (%d)", name, names[which],
                       which + 1);
            return -1;
        }
        out[which] = args[nargs + k];
    }
    for (int i = 0; i < min && i < nnames; i++) {
        if (out[i])
            continue;
        if (i < maxpos && names[i][0])
            err_format(E_TypeError, "%s missing required argument '%s' (pos %d)", name, names[i], i + 1);
        else if (names[i][0])
            err_format(E_TypeError, "%s missing required keyword-only argument '%s'", name, names[i]);
        else
            err_format(E_TypeError, "%s takes at least %d positional argument%s (%zu given)", name, min,
                       min == 1 ? "" : "s", nargs);
        return -1;
    }
    return 0;
}
