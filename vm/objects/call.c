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
/* Built-in functions and methods: the declared counts checked once    */
/* ------------------------------------------------------------------ */
/* "len", "math.sqrt" or "list.append" for messages, as CPython's
 * _PyObject_FunctionStr: the module is named unless it is builtins; a bound
 * method is named by its receiver's type (or class), an unbound one by the
 * defining type; "deque", not "collections.deque". A function that is
 * METH_VARARGS in CPython (METH_BARENAME; METH_OLDMSG in a module) goes by
 * its bare name once bound to a module or an object. */
static void builtin_qualname(Obj b, char *buf, size_t n)
{
    Obj owner = ((BuiltinObj *)b)->owner, self = ((BuiltinObj *)b)->self;
    const char *name = ((BuiltinObj *)b)->def->name;
    int flags = ((BuiltinObj *)b)->def->flags;
    if (self && ((flags & METH_BARENAME) || (!owner && (flags & METH_OLDMSG)))) {
        snprintf(buf, n, "%s", name);   /* CPython's METH_VARARGS: the bare name once bound */
    } else if (owner && IS_TYPE(owner)) {
        TypeObj *t = !self ? (TypeObj *)owner : IS_TYPE(self) ? (TypeObj *)self : TYPE(self);
        snprintf(buf, n, "%s.%s", str_cstr(t->name), name);
    } else if (!owner && self && TID(self) == TID_MODULE && IS_STR(((ModuleObj *)self)->name) &&
             !str_eq_cstr(((ModuleObj *)self)->name, "builtins"))
        snprintf(buf, n, "%s.%s", str_cstr(((ModuleObj *)self)->name), name);
    else
        snprintf(buf, n, "%s", name);
}

/* A keyword to a function without METH_KW, or a count outside the declared
 * one (n: positional arguments, self not counted): CPython's message for the kind. */
__attribute__((cold, noinline)) static Obj builtin_args_error(Obj callable, size_t n, Obj kwnames)
{
    const MethodDef *def = ((BuiltinObj *)callable)->def;
    int flags = def->flags, min = METH_ARGS_MIN(flags), max = METH_ARGS_MAX(flags);
    char q[200];
    builtin_qualname(callable, q, sizeof q);
    if (kwnames) {
        err_format(E_TypeError, "%s%s() takes no keyword arguments", flags & METH_WRAPPER ? "wrapper " : "",
                   flags & METH_WRAPPER ? def->name : q);
        return NULL;
    }
    if (max == 0xff)
        max = -1;
    if (flags & METH_WRAPPER) {
        err_format(E_TypeError, "expected %d argument%s, got %zu", min, min == 1 ? "" : "s", n);
        return NULL;
    }
    if (flags & METH_OLDMSG) {
        bool few = (int)n < min;
        int k = few ? min : max;
        err_format(E_TypeError, "%s() takes %s %d argument%s (%zu given)", def->name,
                   min == max ? "exactly" : few ? "at least" : "at most", k, k == 1 ? "" : "s", n);
        return NULL;
    }
    if ((flags & METH_UNPACKED) && min == max) {
        err_format(E_TypeError, "%s expected %d argument%s, got %zu", def->name, min, min == 1 ? "" : "s", n);
        return NULL;
    }
    /* vm_check_args words it by the kind: "q() takes no arguments", "q() takes
     * exactly one argument", else "name expected at most 1 argument, got 2". */
    vm_check_args(max == 0 || (min == 1 && max == 1) ? q : def->name, n, NULL, min, max);
    return NULL;
}

static inline bool builtin_count_ok(int flags, size_t n)
{
    size_t max = METH_ARGS_MAX(flags);
    return !(flags & METH_COUNTED) || (n >= (size_t)METH_ARGS_MIN(flags) && (n <= max || max == 0xff));
}

/* A bound method of a type (self and owner set): self goes first. */
static Obj builtin_call_bound(Obj callable, Obj *args, size_t nargs, Obj kwnames)
{
    BuiltinObj *b = (BuiltinObj *)callable;
    const MethodDef *def = b->def;
    if (unlikely(!builtin_count_ok(def->flags, nargs)))
        return builtin_args_error(callable, nargs, NULL);
    size_t total = nargs + (kwnames ? (size_t)TUPLE_LEN(kwnames) : 0);
    Obj *r = vm_roots((int)total + 2);
    r[0] = kwnames;
    r[1] = b->self;
    memcpy(r + 2, args, total * sizeof(Obj));
    Obj res = def->fn(r + 1, nargs + 1, r[0]);
    vm_unroots(r);
    return res;
}

/* An unbound method descriptor called without its receiver or with one of
 * another type (the class for METH_CLASS). */
__attribute__((cold, noinline)) static Obj builtin_receiver_error(Obj callable, Obj *args, size_t nargs)
{
    const MethodDef *def = ((BuiltinObj *)callable)->def;
    TypeObj *owner = (TypeObj *)((BuiltinObj *)callable)->owner;
    if (nargs == 0) {
        char q[200];
        builtin_qualname(callable, q, sizeof q);
        err_format(E_TypeError, "unbound method %s() needs an argument", q);
    } else if (def->flags & METH_CLASS) {
        err_format(E_TypeError, "descriptor '%s' for type '%s' needs a subtype of '%s', not '%s'", def->name,
                   type_name_of_type(owner), type_name_of_type(owner), type_name(args[0]));
    } else {
        err_format(E_TypeError, "descriptor '%s' for '%s' objects doesn't apply to a '%s' object", def->name,
                   type_name_of_type(owner), type_name(args[0]));
    }
    return NULL;
}

/* The call of every C function and method; its errors are out of line, so
 * the common call stays short. Inlined in vm_call (the hot caller). */
static inline __attribute__((always_inline)) Obj call_builtin(Obj callable, Obj *args, size_t nargs, Obj kwnames)
{
    BuiltinObj *b = (BuiltinObj *)callable;
    const MethodDef *def = b->def;
    int flags = def->flags;
    if (kwnames && TUPLE_LEN(kwnames) == 0)
        kwnames = NULL;
    if (unlikely(kwnames && !(flags & METH_KW)))
        return builtin_args_error(callable, nargs, kwnames);
    Obj owner = b->owner;
    if (owner && !(flags & METH_STATIC)) {
        if (b->self)
            return builtin_call_bound(callable, args, nargs, kwnames);
        /* Unbound method descriptor: args[0] must be an instance (the class for METH_CLASS). */
        if (unlikely(nargs == 0))
            return builtin_receiver_error(callable, args, nargs);
        if (flags & METH_CLASS) {
            if (unlikely(!IS_TYPE(args[0]) || !type_is_subtype((TypeObj *)args[0], (TypeObj *)owner)))
                return builtin_receiver_error(callable, args, nargs);
        } else if (unlikely(TYPE(args[0]) != (TypeObj *)owner && !vm_isinstance_type(args[0], (TypeObj *)owner))) {
            return builtin_receiver_error(callable, args, nargs);
        }
        if (unlikely(!builtin_count_ok(flags, nargs - 1)))
            return builtin_args_error(callable, nargs - 1, NULL);
    } else if (unlikely(!builtin_count_ok(flags, nargs))) {
        return builtin_args_error(callable, nargs, NULL);
    }
    return def->fn(args, nargs, kwnames);
}

/* builtin_function_or_method's tp_call. */
Obj builtin_call(Obj callable, Obj *args, size_t nargs, Obj kwnames)
{
    return call_builtin(callable, args, nargs, kwnames);
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
        return call_builtin(c, args, nargs, kwnames);
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
