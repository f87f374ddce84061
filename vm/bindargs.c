/* Binding a call's arguments to a Python function's frame: positional,
 * keyword, defaults, *args / **kwargs, cells and the closure, with
 * CPython's error messages. */
#include "eval.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* Argument binding                                                    */
/* ------------------------------------------------------------------ */
static int find_param(CodeObj *co, Obj name, int from, int to)
{
    Obj names = co->localsplus;
    for (int j = from; j < to; j++)
        if (TUPLE_ITEMS(names)[j] == name)
            return j;
    if (!IS_STR(name))
        return -1;
    for (int j = from; j < to; j++)
        if (str_eq(TUPLE_ITEMS(names)[j], name))
            return j;
    return -1;
}

/* 'a' | 'a' and 'b' | 'a', 'b', and 'c' */
static void add_name_list(StrBuf *b, CodeObj *co, const int *ix, int n)
{
    for (int i = 0; i < n; i++) {
        if (i > 0) {
            if (n == 2)
                sb_adds(b, " and ");
            else if (i == n - 1)
                sb_adds(b, ", and ");
            else
                sb_adds(b, ", ");
        }
        sb_addc(b, '\'');
        sb_add_str(b, code_localname(co, ix[i]));
        sb_addc(b, '\'');
    }
}

static void raise_buf(TypeObj *type, StrBuf *b)
{
    Obj msg = sb_finish(b);
    if (msg)
        err_set_value(type, msg);
}

static void missing_error(Obj func, CodeObj *co, const int *ix, int n, const char *kind)
{
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "%s() missing %d required %s argument%s: ", func_display_name(func), n, kind,
              n == 1 ? "" : "s");
    add_name_list(&b, co, ix, n);
    raise_buf(E_TypeError, &b);
}

static void too_many_positional(Obj func, CodeObj *co, size_t given, Obj *lp)
{
    int argcount = co->argcount;
    Obj defaults = ((FunctionObj *)func)->defaults;
    int64_t ndef = defaults && IS_TUPLE(defaults) ? TUPLE_LEN(defaults) : 0;
    int kwonly_given = 0;
    for (int i = argcount; i < argcount + co->kwonlyargcount; i++)
        if (lp[i])
            kwonly_given++;
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "%s() takes ", func_display_name(func));
    bool plural;
    if (ndef) {
        sb_printf(&b, "from %d to %d", argcount - (int)ndef, argcount);
        plural = true;
    } else {
        sb_printf(&b, "%d", argcount);
        plural = argcount != 1;
    }
    sb_printf(&b, " positional argument%s but %zu", plural ? "s" : "", given);
    if (kwonly_given)
        sb_printf(&b, " positional argument%s (and %d keyword-only argument%s)", given != 1 ? "s" : "",
                  kwonly_given, kwonly_given != 1 ? "s" : "");
    sb_printf(&b, " %s given", given == 1 && !kwonly_given ? "was" : "were");
    raise_buf(E_TypeError, &b);
}

static void posonly_as_keyword_error(Obj func, CodeObj *co, Obj kwnames)
{
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "%s() got some positional-only arguments passed as keyword arguments: '",
              func_display_name(func));
    bool first = true;
    for (int j = 0; j < co->posonlyargcount; j++) {
        Obj pname = code_localname(co, j);
        for (int64_t k = 0; k < TUPLE_LEN(kwnames); k++) {
            Obj kn = TUPLE_ITEMS(kwnames)[k];
            if (kn == pname || (IS_STR(kn) && str_eq(kn, pname))) {
                if (!first)
                    sb_adds(&b, ", ");
                sb_add_str(&b, pname);
                first = false;
                break;
            }
        }
    }
    sb_addc(&b, '\'');
    raise_buf(E_TypeError, &b);
}

int call_bind_args(Obj func, CodeObj *co, Obj *args, size_t nargs, Obj kwnames, Obj *lp)
{
    int argcount = co->argcount, kwonly = co->kwonlyargcount, posonly = co->posonlyargcount;
    int total = argcount + kwonly;
    int flags = co->flags;
    int vararg_ix = (flags & CO_VARARGS) ? total : -1;
    int kwarg_ix = (flags & CO_VARKEYWORDS) ? total + (vararg_ix >= 0) : -1;
    int nlp = code_nlocalsplus(co);
    Obj *hdr = lp + nlp;
    /* hdr[HDR_FUNC] holds func; keep kwnames in a root slot too. */
    hdr[HDR_FUNC] = func;
    hdr[HDR_LOCALS] = kwnames;
#define FUNC (hdr[HDR_FUNC])
#define KWNAMES (hdr[HDR_LOCALS])
    int ret = -1;

    if (kwarg_ix >= 0) {
        Obj d = dict_new();
        if (!d)
            goto done;
        lp[kwarg_ix] = d;
    }
    size_t n = nargs < (size_t)argcount ? nargs : (size_t)argcount;
    for (size_t i = 0; i < n; i++)
        lp[i] = args[i];
    if (vararg_ix >= 0) {
        Obj t;
        if (nargs > (size_t)argcount)
            t = tuple_from_array(args + argcount, (int64_t)(nargs - argcount));
        else
            t = g_empty_tuple;
        if (!t)
            goto done;
        lp[vararg_ix] = t;
    }
    if (KWNAMES) {
        int64_t nkw = TUPLE_LEN(KWNAMES);
        for (int64_t k = 0; k < nkw; k++) {
            Obj name = TUPLE_ITEMS(KWNAMES)[k];
            int j = find_param(co, name, posonly, total);
            if (j < 0) {
                if (kwarg_ix >= 0) {
                    if (!IS_STR(name)) {
                        err_set(E_TypeError, "keywords must be strings");
                        goto done;
                    }
                    if (dict_setitem(lp[kwarg_ix], name, args[nargs + k]) < 0)
                        goto done;
                    continue;
                }
                if (posonly > 0 && find_param(co, name, 0, posonly) >= 0) {
                    posonly_as_keyword_error(FUNC, co, KWNAMES);
                    goto done;
                }
                if (IS_STR(name))
                    err_format(E_TypeError, "%s() got an unexpected keyword argument '%s'",
                               func_display_name(FUNC), str_cstr(name));
                else
                    err_format(E_TypeError, "%s() keywords must be strings", func_display_name(FUNC));
                goto done;
            }
            if (lp[j]) {
                err_format(E_TypeError, "%s() got multiple values for argument '%s'",
                           func_display_name(FUNC), str_cstr(code_localname(co, j)));
                goto done;
            }
            lp[j] = args[nargs + k];
        }
    }
    if (nargs > (size_t)argcount && vararg_ix < 0) {
        too_many_positional(FUNC, co, nargs, lp);
        goto done;
    }
    if (nargs < (size_t)argcount) {
        Obj defaults = ((FunctionObj *)FUNC)->defaults;
        int64_t ndef = defaults && IS_TUPLE(defaults) ? TUPLE_LEN(defaults) : 0;
        int first_def = argcount - (int)ndef;
        int missing[256];
        int nmissing = 0;
        for (int i = (int)nargs; i < argcount; i++) {
            if (lp[i])
                continue;
            if (i >= first_def)
                lp[i] = TUPLE_ITEMS(defaults)[i - first_def];
            else if (nmissing < 256)
                missing[nmissing++] = i;
        }
        if (nmissing) {
            missing_error(FUNC, co, missing, nmissing, "positional");
            goto done;
        }
    }
    if (kwonly) {
        int missing[256];
        int nmissing = 0;
        for (int i = argcount; i < total; i++) {
            if (lp[i])
                continue;
            Obj kwd = ((FunctionObj *)FUNC)->kwdefaults;
            Obj v = NULL;
            if (kwd && IS_DICT(kwd)) {
                v = dict_getitem(kwd, code_localname(co, i));
                if (!v && err_occurred())
                    goto done;
            }
            if (v)
                lp[i] = v;
            else if (nmissing < 256)
                missing[nmissing++] = i;
        }
        if (nmissing) {
            missing_error(FUNC, co, missing, nmissing, "keyword-only");
            goto done;
        }
    }
    ret = 0;
done:
    hdr[HDR_LOCALS] = NULL;
    return ret;
#undef FUNC
#undef KWNAMES
}

int call_init_cells(Obj func, CodeObj *co, Obj *lp)
{
    int nl = co->nlocals, nc = co->ncellvars, nf = co->nfreevars;
    Obj *hdr = lp + nl + nc + nf;
    int nparams = co->argcount + co->kwonlyargcount + !!(co->flags & CO_VARARGS) +
                  !!(co->flags & CO_VARKEYWORDS);
    for (int i = 0; i < nc; i++) {
        Obj init = NULL;
        if (co->cell2arg_count > 0) {
            if (i < 16) {
                int a = co->cell2arg[i];
                if (a >= 0 && a < nl)
                    init = lp[a];
            } else {
                int a = find_param(co, code_localname(co, nl + i), 0, nparams < nl ? nparams : nl);
                if (a >= 0)
                    init = lp[a];
            }
        }
        Obj cell = cell_new(init);
        if (!cell)
            return -1;
        lp[nl + i] = cell;
    }
    if (nf) {
        func = hdr[HDR_FUNC];
        Obj closure = func ? ((FunctionObj *)func)->closure : NULL;
        if (!closure || !IS_TUPLE(closure) || TUPLE_LEN(closure) < nf) {
            err_set(E_SystemError, "function closure does not match its code's free variables");
            return -1;
        }
        for (int j = 0; j < nf; j++)
            lp[nl + nc + j] = TUPLE_ITEMS(closure)[j];
    }
    return 0;
}
