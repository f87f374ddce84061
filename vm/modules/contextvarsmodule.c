/* The _contextvars module (PEP 567): Context, ContextVar, Token,
 * copy_context. A Context holds its variables in a dict that is never
 * changed once made: set() and reset() replace it with a changed copy, so
 * copy_context() shares it and stays a snapshot (CPython uses a HAMT for
 * the same effect). Each thread's current Context is in its root slot
 * ROOT_CONTEXT (saved and restored by an STM abort like the other root
 * slots); a thread starts with an empty one, made at first use.
 *
 * The objects are IterObj (TID_ITER, cls set): Context: a = the vars dict,
 * b = the context current before run() entered it, i = entered; ContextVar:
 * a = name, b = default (NULL: none); Token: a = context, b = var,
 * c = old value (NULL: Token.MISSING), i = used. */
#include "modules.h"
#include "objects/containers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <stdio.h>
#include <stdlib.h>

static TypeObj *T_context, *T_context_var, *T_token, *T_token_missing;
static Obj g_token_missing;

static Obj context_alloc(Obj vars)
{
    return iter_alloc(T_context, vars, 0);
}

/* The current context, made (empty) at first use. */
static Obj current_context(void)
{
    if (vm_ts.roots[ROOT_CONTEXT])
        return vm_ts.roots[ROOT_CONTEXT];
    Obj vars = dict_new();
    Obj ctx = vars ? context_alloc(vars) : NULL;
    if (ctx)
        vm_ts.roots[ROOT_CONTEXT] = ctx;
    return ctx;
}

static int check_type(Obj v, TypeObj *t, const char *what)
{
    if (vm_isinstance_type(v, t))
        return 0;
    err_format(E_TypeError, "%s must be a %s, not '%s'", what, type_name_of_type(t), type_name(v));
    return -1;
}

/* ---- Context ---- */

static Obj context_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    (void)type;
    if (nargs || (kwnames && TUPLE_LEN(kwnames))) {
        err_set(E_TypeError, "Context() does not accept any arguments");
        return NULL;
    }
    Obj vars = dict_new();
    return vars ? context_alloc(vars) : NULL;
}

static Obj ctx_self_check(Obj self)
{
    if (check_type(self, T_context, "self") < 0)
        return NULL;
    return self;
}

static Obj context_getitem(Obj self, Obj key)
{
    if (check_type(key, T_context_var, "a ContextVar key") < 0)
        return NULL;
    Obj v = dict_getitem(ITER(self)->a, key);
    if (!v && !err_occurred())
        err_set_value(E_KeyError, key);
    return v;
}

static int context_contains(Obj self, Obj key)
{
    if (check_type(key, T_context_var, "a ContextVar key") < 0)
        return -1;
    Obj v = dict_getitem(ITER(self)->a, key);
    if (!v && err_occurred())
        return -1;
    return v != NULL;
}

static int64_t context_len(Obj self)
{
    return dict_len(ITER(self)->a);
}

static Obj context_iter(Obj self)
{
    return vm_iter(ITER(self)->a);
}

static Obj ctx_get(Obj *args, size_t nargs, Obj kwnames)
{
    if (!ctx_self_check(args[0]))
        return NULL;
    if (check_type(args[1], T_context_var, "a ContextVar key") < 0)
        return NULL;
    Obj v = dict_getitem(ITER(args[0])->a, args[1]);
    if (v || err_occurred())
        return v;
    return nargs == 3 ? args[2] : g_None;
}

static Obj ctx_view(Obj *args, size_t nargs, Obj kwnames, const char *what)
{
    if (!ctx_self_check(args[0]))
        return NULL;
    return vm_call_method(ITER(args[0])->a, what, NULL, 0);
}

static Obj ctx_keys(Obj *args, size_t nargs, Obj kwnames)
{
    return ctx_view(args, nargs, kwnames, "keys");
}

static Obj ctx_values(Obj *args, size_t nargs, Obj kwnames)
{
    return ctx_view(args, nargs, kwnames, "values");
}

static Obj ctx_items(Obj *args, size_t nargs, Obj kwnames)
{
    return ctx_view(args, nargs, kwnames, "items");
}

static Obj ctx_copy(Obj *args, size_t nargs, Obj kwnames)
{
    if (!ctx_self_check(args[0]))
        return NULL;
    return context_alloc(ITER(args[0])->a);
}

/* run(callable, *args, **kwargs): the call with this context current. */
static Obj ctx_run(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs < 2) {
        err_set(E_TypeError, "run() missing 1 required positional argument");
        return NULL;
    }
    if (!ctx_self_check(args[0]))
        return NULL;
    Obj *r = vm_roots(1);
    r[0] = args[0];
    Obj res = NULL;
    if (ITER(r[0])->i) {
        Obj rep = vm_repr(r[0]);
        if (rep)
            err_format(E_RuntimeError, "cannot enter context: %s is already entered", str_cstr(rep));
        goto out;
    }
    Obj prev = current_context();
    if (!prev)
        goto out;
    VM_WRITE(r[0]);
    ITER(r[0])->b = prev;
    ITER(r[0])->i = 1;
    vm_ts.roots[ROOT_CONTEXT] = r[0];
    res = vm_call(args[1], args + 2, nargs - 2, kwnames);
    vm_ts.roots[ROOT_CONTEXT] = ITER(r[0])->b;
    VM_WRITE(r[0]);
    ITER(r[0])->b = NULL;
    ITER(r[0])->i = 0;
out:
    vm_unroots(r);
    return res;
}

static const MethodDef context_methods[] = {
    {"get", ctx_get, METH_ARGS(1, 2), NULL},
    {"keys", ctx_keys, METH_NOARGS, NULL},
    {"values", ctx_values, METH_NOARGS, NULL},
    {"items", ctx_items, METH_NOARGS, NULL},
    {"copy", ctx_copy, METH_NOARGS, NULL},
    {"run", ctx_run, METH_KW, NULL},
    {NULL, NULL, 0, NULL},
};

/* ---- ContextVar ---- */

static Obj context_var_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    (void)type;
    static const char *const names[] = {"name", "default", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("ContextVar", args, nargs, kwnames, names, 1, 1, a) < 0)
        goto out;
    if (!IS_STR(a[0])) {
        err_set(E_TypeError, "context variable name must be a str");
        goto out;
    }
    res = iter_alloc(T_context_var, a[0], 0);
    if (res)
        ITER(res)->b = a[1];
out:
    vm_unroots(a);
    return res;
}

static Obj var_self_check(Obj self)
{
    if (check_type(self, T_context_var, "self") < 0)
        return NULL;
    return self;
}

/* get([default]): the value in the current context, else the default
 * given, else the variable's default, else LookupError. */
static Obj var_get(Obj *args, size_t nargs, Obj kwnames)
{
    if (!var_self_check(args[0]))
        return NULL;
    Obj ctx = current_context();
    if (!ctx)
        return NULL;
    Obj v = dict_getitem(ITER(ctx)->a, args[0]);
    if (v || err_occurred())
        return v;
    if (nargs == 2)
        return args[1];
    if (ITER(args[0])->b)
        return ITER(args[0])->b;
    err_set_value(E_LookupError, args[0]);
    return NULL;
}

/* The current context's vars replaced by a copy with var set to value
 * (NULL: var removed). */
static int context_replace_var(Obj ctx, Obj var, Obj value)
{
    Obj *r = vm_roots(4);
    int res = -1;
    r[0] = ctx;
    r[1] = var;
    r[2] = value;
    r[3] = dict_copy(ITER(r[0])->a);
    if (!r[3])
        goto out;
    if (r[2] ? dict_setitem(r[3], r[1], r[2]) < 0 : dict_delitem(r[3], r[1]) < 0)
        goto out;
    VM_WRITE(r[0]);
    ITER(r[0])->a = r[3];
    res = 0;
out:
    vm_unroots(r);
    return res;
}

static Obj var_set(Obj *args, size_t nargs, Obj kwnames)
{
    if (!var_self_check(args[0]))
        return NULL;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = current_context();
    if (!r[0])
        goto out;
    r[1] = dict_getitem(ITER(r[0])->a, args[0]);
    if (!r[1] && err_occurred())
        goto out;
    r[2] = iter_alloc(T_token, r[0], 0);
    if (!r[2])
        goto out;
    ITER(r[2])->b = args[0];
    ITER(r[2])->c = r[1];
    if (context_replace_var(r[0], args[0], args[1]) < 0)
        goto out;
    res = r[2];
out:
    vm_unroots(r);
    return res;
}

static Obj var_reset(Obj *args, size_t nargs, Obj kwnames)
{
    if (!var_self_check(args[0]))
        return NULL;
    if (!vm_isinstance_type(args[1], T_token)) {
        err_format(E_TypeError, "expected an instance of Token, got '%s'", type_name(args[1]));
        return NULL;
    }
    Obj tok = args[1];
    Obj rep = NULL;
    if (ITER(tok)->i) {
        if ((rep = vm_repr(args[1])))
            err_format(E_RuntimeError, "%s has already been used once", str_cstr(rep));
        return NULL;
    }
    if (ITER(tok)->b != args[0]) {
        if ((rep = vm_repr(args[1])))
            err_format(E_ValueError, "%s was created by a different ContextVar", str_cstr(rep));
        return NULL;
    }
    Obj ctx = current_context();
    if (!ctx)
        return NULL;
    if (ITER(args[1])->a != ctx) {
        if ((rep = vm_repr(args[1])))
            err_format(E_ValueError, "%s was created in a different Context", str_cstr(rep));
        return NULL;
    }
    if (context_replace_var(ctx, args[0], ITER(args[1])->c) < 0)
        return NULL;
    VM_WRITE(args[1]);
    ITER(args[1])->i = 1;
    return g_None;
}

static Obj var_name(Obj *args, size_t nargs, Obj kwnames)
{
    return ITER(args[0])->a;
}

static Obj var_repr(Obj self)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = self;
    r[1] = vm_repr(ITER(r[0])->a);
    if (!r[1])
        goto out;
    r[2] = g_empty_str;
    if (ITER(r[0])->b) {
        Obj d = vm_repr(ITER(r[0])->b);
        if (!d || !(r[2] = str_from_format(" default=%s", str_cstr(d))))
            goto out;
    }
    uint64_t id = vm_object_id_slot(&r[0]);
    res = str_from_format("<ContextVar name=%s%s at 0x%lx>", str_cstr(r[1]), str_cstr(r[2]),
                          (unsigned long)id);
out:
    vm_unroots(r);
    return res;
}

static Obj generic_alias_of(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = vm_import_cstr("types");
    if (r[0] && (r[0] = vm_getattr_cstr(r[0], "GenericAlias")))
        res = vm_call2(r[0], args[0], args[1]);
    vm_unroots(r);
    return res;
}

static const MethodDef context_var_methods[] = {
    {"get", var_get, METH_ARGS(0, 1), NULL},
    {"set", var_set, METH_O, NULL},
    {"reset", var_reset, METH_O, NULL},
    {"__class_getitem__", generic_alias_of, METH_CLASS | METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

/* ---- Token ---- */

static Obj token_var(Obj *args, size_t nargs, Obj kwnames)
{
    return ITER(args[0])->b;
}

static Obj token_old_value(Obj *args, size_t nargs, Obj kwnames)
{
    return ITER(args[0])->c ? ITER(args[0])->c : g_token_missing;
}

static Obj token_repr(Obj self)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    r[1] = vm_repr(ITER(r[0])->b);
    if (r[1]) {
        uint64_t id = vm_object_id_slot(&r[0]);
        res = str_from_format("<Token%s var=%s at 0x%lx>", ITER(r[0])->i ? " used" : "", str_cstr(r[1]),
                              (unsigned long)id);
    }
    vm_unroots(r);
    return res;
}

static Obj token_missing_repr(Obj self)
{
    (void)self;
    return str_from_cstr("<Token.MISSING>");
}

static const MethodDef token_methods[] = {
    {"__class_getitem__", generic_alias_of, METH_CLASS | METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

/* ---- the module ---- */

static Obj cv_copy_context(Obj *args, size_t nargs, Obj kwnames)
{
    Obj ctx = current_context();
    return ctx ? context_alloc(ITER(ctx)->a) : NULL;
}

static const MethodDef contextvars_functions[] = {
    {"copy_context", cv_copy_context, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

Obj contextvars_module_init(void)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = module_new("_contextvars");
    if (!r[0])
        goto out;
    module_add_functions(r[0], contextvars_functions);
    if (module_add(r[0], "Context", (Obj)T_context) < 0 ||
        module_add(r[0], "ContextVar", (Obj)T_context_var) < 0 ||
        module_add(r[0], "Token", (Obj)T_token) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

static TypeObj *make_type(const char *name, unaryfunc repr, newfunc tp_new)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_ITER, 0);
    if (!t) {
        fputs("tmpy: fatal: out of memory at start-up\n", stderr);
        exit(1);
    }
    VM_WRITE_RARE(t);
    t->tp_new = tp_new;
    if (repr)
        t->tp_repr = repr;
    return t;
}

/* Start-up: the types (made before threads start) and Token.MISSING. */
void contextvars_init(void)
{
    T_context = make_type("_contextvars.Context", NULL, context_new);
    VM_WRITE_RARE(T_context);
    T_context->tp_getitem = context_getitem;
    T_context->tp_contains = context_contains;
    T_context->tp_len = context_len;
    T_context->tp_iter = context_iter;
    type_add_methods(T_context, context_methods);
    T_context_var = make_type("_contextvars.ContextVar", var_repr, context_var_new);
    type_add_methods(T_context_var, context_var_methods);
    type_add_getset(T_context_var, "name", var_name, NULL);
    T_token = make_type("_contextvars.Token", token_repr, NULL);
    type_add_methods(T_token, token_methods);
    type_add_getset(T_token, "var", token_var, NULL);
    type_add_getset(T_token, "old_value", token_old_value, NULL);
    T_token_missing = make_type("_contextvars.Token.MISSING", token_missing_repr, NULL);
    VM_GLOBAL_ROOT(g_token_missing);
    g_token_missing = iter_alloc(T_token_missing, NULL, 0);
    if (!g_token_missing || dict_setitem_cstr(T_token->dict, "MISSING", g_token_missing) < 0) {
        fputs("tmpy: fatal: out of memory at start-up\n", stderr);
        exit(1);
    }
    type_ready(T_context);
    type_ready(T_context_var);
    type_ready(T_token);
    type_ready(T_token_missing);
}
