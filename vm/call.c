/* Calls: vm_call and friends, argument binding for Python functions with
 * CPython's error messages, calls of built-in functions and bound methods.
 *
 * Vector convention (as CPython's vectorcall): args[0..nargs) are the
 * positional arguments; with kwnames (a tuple of str) the keyword values
 * follow at args[nargs .. nargs + len(kwnames)). args are root slots. */
#include "eval.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* Names for messages                                                  */
/* ------------------------------------------------------------------ */
const char *func_display_name(Obj func)
{
    if (IS_FUNCTION(func)) {
        Obj q = ((FunctionObj *)func)->qualname;
        if (!q || !IS_STR(q))
            q = ((FunctionObj *)func)->name;
        if (q && IS_STR(q))
            return str_cstr(q);
    }
    if (TID(func) == TID_BUILTIN) {
        BuiltinObj *b = (BuiltinObj *)func;
        if (b->def && b->def->name)
            return b->def->name;
    }
    return type_name(func);
}

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

/* ------------------------------------------------------------------ */
/* vm_call and friends                                                 */
/* ------------------------------------------------------------------ */
Obj vm_call(Obj c, Obj *args, size_t nargs, Obj kwnames)
{
    switch (TID(c)) {
    case TID_FUNCTION:
        return eval_call_function(c, args, nargs, kwnames);
    case TID_BUILTIN:
        return builtin_call(c, args, nargs, kwnames);
    case TID_METHOD: {
        size_t total = nargs + (kwnames ? (size_t)TUPLE_LEN(kwnames) : 0);
        Obj *v = vm_roots((int)total + 3);
        v[0] = kwnames;
        v[1] = ((MethodObj *)c)->func;
        v[2] = ((MethodObj *)c)->self;
        memcpy(v + 3, args, total * sizeof(Obj));
        Obj r = vm_call(v[1], v + 2, nargs + 1, v[0]);
        vm_unroots(v);
        return r;
    }
    default: {
        vectorcallfunc call = TYPE(c)->tp_call;
        if (!call) {
            err_format(E_TypeError, "'%s' object is not callable", type_name(c));
            return NULL;
        }
        /* a __call__ that is itself a callable instance loops here in C */
        if (vm_enter_recursive(" while calling a Python object") < 0)
            return NULL;
        Obj res = call(c, args, nargs, kwnames);
        vm_leave_recursive();
        return res;
    }
    }
}

Obj vm_call0(Obj callable)
{
    return vm_call(callable, NULL, 0, NULL);
}

Obj vm_call1(Obj callable, Obj a)
{
    Obj *r = vm_roots(2);
    r[0] = callable;
    r[1] = a;
    Obj res = vm_call(r[0], r + 1, 1, NULL);
    vm_unroots(r);
    return res;
}

Obj vm_call2(Obj callable, Obj a, Obj b)
{
    Obj *r = vm_roots(3);
    r[0] = callable;
    r[1] = a;
    r[2] = b;
    Obj res = vm_call(r[0], r + 1, 2, NULL);
    vm_unroots(r);
    return res;
}

Obj vm_call3(Obj callable, Obj a, Obj b, Obj c)
{
    Obj *r = vm_roots(4);
    r[0] = callable;
    r[1] = a;
    r[2] = b;
    r[3] = c;
    Obj res = vm_call(r[0], r + 1, 3, NULL);
    vm_unroots(r);
    return res;
}

static inline bool generic_getattr(TypeObj *t)
{
    return t->tp_getattro == T_object->tp_getattro;
}

Obj vm_call_method(Obj self, const char *name, Obj *args, size_t nargs)
{
    Obj *v = vm_roots((int)nargs + 2);
    v[0] = NULL;
    v[1] = self;
    if (nargs)
        memcpy(v + 2, args, nargs * sizeof(Obj));
    Obj nm = str_intern_cstr(name);
    Obj r = NULL;
    if (!nm)
        goto done;
    self = v[1];   /* interning may have allocated */
    TypeObj *t = TYPE(self);
    if (generic_getattr(t) && TID(self) != TID_TYPE && TID(self) != TID_MODULE) {
        Obj d = vm_lookup_type(t, nm);
        if (d && (IS_FUNCTION(d) || vm_is_method_descr(d))) {
            unsigned tid = TID(self);
            Obj idict = (tid == TID_INSTANCE || tid == TID_EXCEPTION) ? INST(self)->dict : NULL;
            if (!idict || !dict_getitem(idict, nm)) {
                if (err_occurred())
                    goto done;
                v[0] = d;
                r = vm_call(v[0], v + 1, nargs + 1, NULL);
                goto done;
            }
        }
    }
    v[0] = vm_getattr(v[1], nm);
    if (v[0])
        r = vm_call(v[0], v + 2, nargs, NULL);
done:
    vm_unroots(v);
    return r;
}

Obj vm_call_method1(Obj self, const char *name, Obj a)
{
    Obj *r = vm_roots(1);
    r[0] = a;
    Obj res = vm_call_method(self, name, r, 1);
    vm_unroots(r);
    return res;
}

/* "__main__.f()" style, for the f(*x) / f(**x) messages. */
static void function_str(StrBuf *b, Obj func)
{
    if (IS_FUNCTION(func)) {
        Obj mod = ((FunctionObj *)func)->module;
        if (mod && IS_STR(mod) && !str_eq_cstr(mod, "builtins")) {
            sb_add_str(b, mod);
            sb_addc(b, '.');
        }
        sb_adds(b, func_display_name(func));
        sb_adds(b, "()");
    } else if (TID(func) == TID_BUILTIN) {
        char q[200];
        builtin_qualname(func, q, sizeof q);
        sb_printf(b, "%s()", q);
    } else {
        sb_printf(b, "%s object", type_name(func));
    }
}

void call_star_arg_error(Obj func, Obj arg)
{
    /* The iterable's own __iter__ raising TypeError keeps its error. */
    if (vm_lookup_special(arg, "__iter__") || vm_lookup_special(arg, "__getitem__"))
        return;
    Obj *r = vm_roots(2);
    r[0] = func;
    r[1] = arg;
    err_clear();
    if (TID(r[0]) == TID_METHOD)
        r[0] = ((MethodObj *)r[0])->func;
    StrBuf b;
    sb_init(&b);
    function_str(&b, r[0]);
    sb_printf(&b, " argument after * must be an iterable, not %s", type_name(r[1]));
    raise_buf(E_TypeError, &b);
    vm_unroots(r);
}

/* TypeError "<f>() <what>" for f(**m) (func NULL: "function"). */
static void kwargs_error(Obj func, const char *fmt, const char *arg)
{
    StrBuf b;
    sb_init(&b);
    if (func)
        function_str(&b, func);
    else
        sb_adds(&b, "function");
    sb_printf(&b, fmt, arg);
    raise_buf(E_TypeError, &b);
}

int call_merge_kwargs(Obj d, Obj m, Obj func)
{
    Obj *r = vm_roots(5);
    r[0] = d;
    r[1] = m;
    r[2] = func;
    if (!IS_DICT(m)) {
        if (!vm_hasattr(r[1], str_intern_cstr("keys"))) {
            kwargs_error(r[2], " argument after ** must be a mapping, not %s", type_name(r[1]));
            goto fail;
        }
        r[3] = vm_call_method(r[1], "keys", NULL, 0);
        if (!r[3])
            goto fail;
        r[3] = vm_list_from_iter(r[3]);
        if (!r[3])
            goto fail;
        for (int64_t i = 0; i < LIST_LEN(r[3]); i++) {
            r[4] = LIST_ITEMS(r[3])[i];
            if (!IS_STR(r[4])) {
                err_set(E_TypeError, "keywords must be strings");
                goto fail;
            }
            if (dict_getitem(r[0], r[4])) {
                kwargs_error(r[2], " got multiple values for keyword argument '%s'", str_cstr(r[4]));
                goto fail;
            }
            Obj v = vm_getitem(r[1], r[4]);
            if (!v)
                goto fail;
            if (dict_setitem(r[0], r[4], v) < 0)
                goto fail;
        }
        vm_unroots(r);
        return 0;
    }
    int64_t pos = 0;
    Obj k, v;
    while (dict_next(r[1], &pos, &k, &v)) {
        if (!IS_STR(k)) {
            err_set(E_TypeError, "keywords must be strings");
            goto fail;
        }
        if (dict_getitem(r[0], k)) {
            kwargs_error(r[2], " got multiple values for keyword argument '%s'", str_cstr(k));
            goto fail;
        }
        r[3] = k;
        r[4] = v;
        if (dict_setitem(r[0], r[3], r[4]) < 0)
            goto fail;
    }
    vm_unroots(r);
    return 0;
fail:
    vm_unroots(r);
    return -1;
}

Obj *call_ex_args(Obj func, Obj self, Obj args, Obj kwargs, size_t *nargs_out)
{
    Obj *r = vm_roots(4);
    r[0] = func;
    r[1] = self;
    r[2] = args;
    r[3] = kwargs;
    if (!r[2]) {
        r[2] = g_empty_tuple;
    } else if (!IS_TUPLE(r[2])) {
        Obj t = vm_tuple_from_iter(r[2]);
        if (!t) {
            if (err_matches(E_TypeError) && !vm_hasattr(r[2], str_intern_cstr("__iter__"))) {
                err_clear();
                StrBuf b;
                sb_init(&b);
                function_str(&b, r[0]);
                sb_printf(&b, " argument after * must be an iterable, not %s", type_name(r[2]));
                raise_buf(E_TypeError, &b);
            }
            return NULL;
        }
        r[2] = t;
    }
    if (r[3] && !IS_DICT(r[3])) {
        Obj d = dict_new();
        if (!d)
            return NULL;
        Obj *q = vm_roots(1);
        q[0] = r[3];
        r[3] = d;
        if (call_merge_kwargs(r[3], q[0], r[0]) < 0)
            return NULL;
        vm_unroots(q);
    }
    int64_t npos = TUPLE_LEN(r[2]) + (r[1] ? 1 : 0);
    int64_t nkw = r[3] ? dict_len(r[3]) : 0;
    Obj *v = vm_roots((int)(1 + npos + nkw));
    int64_t k = 1;
    if (r[1])
        v[k++] = r[1];
    for (int64_t i = 0; i < TUPLE_LEN(r[2]); i++)
        v[k++] = TUPLE_ITEMS(r[2])[i];
    if (nkw) {
        Obj names = tuple_new(nkw);
        if (!names)
            return NULL;
        v[0] = names;
        int64_t pos = 0, j = 0;
        Obj key, val;
        while (j < nkw && dict_next(r[3], &pos, &key, &val)) {
            if (!IS_STR(key)) {
                err_set(E_TypeError, "keywords must be strings");
                return NULL;
            }
            TUPLE_ITEMS(v[0])[j] = key;
            v[k++] = val;
            j++;
        }
    }
    *nargs_out = (size_t)npos;
    return v;
}

Obj vm_call_tuple_dict(Obj callable, Obj args_tuple, Obj kwargs_dict)
{
    Obj *saved = (Obj *)tm_self.ss_top;
    Obj *r = vm_roots(1);
    r[0] = callable;
    size_t nargs;
    Obj *v = call_ex_args(callable, NULL, args_tuple, kwargs_dict, &nargs);
    Obj res = NULL;
    if (v)
        res = vm_call(r[0], v + 1, nargs, v[0]);
    tm_self.ss_top = (object_t **)saved;
    return res;
}

bool vm_callable(Obj v)
{
    switch (TID(v)) {
    case TID_FUNCTION:
    case TID_BUILTIN:
    case TID_METHOD:
    case TID_TYPE:
        return true;
    default:
        return TYPE(v)->tp_call != NULL;
    }
}
