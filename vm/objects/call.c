/* The calling protocol: vm_call and friends, calls of built-in functions and
 * bound methods, f(*args, **kwargs) argument vectors, with CPython's error
 * messages. A Python function is called through its type's tp_call, which
 * the eval layer installs (function.c): this file never enters eval.
 *
 * Vector convention (as CPython's vectorcall): args[0..nargs) are the
 * positional arguments; with kwnames (a tuple of str) the keyword values
 * follow at args[nargs .. nargs + len(kwnames)). args are root slots. */
#include "objects.h"

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

static void raise_buf(TypeObj *type, StrBuf *b)
{
    Obj msg = sb_finish(b);
    if (msg)
        err_set_value(type, msg);
}

/* ------------------------------------------------------------------ */
/* vm_call and friends                                                 */
/* ------------------------------------------------------------------ */
Obj vm_call(Obj c, Obj *args, size_t nargs, Obj kwnames)
{
    switch (TID(c)) {
    case TID_FUNCTION:
        return T_function->tp_call(c, args, nargs, kwnames);   /* eval_call_function */
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
