/* Built-in functions and methods (BuiltinObj): a C function with its
 * MethodDef, bound to `self` (a module or an instance) or unbound in a type;
 * and making bound methods (MethodObj). */
#include "objects.h"

#include <stdlib.h>
#include <string.h>

TypeObj *T_builtin;

#define BUILTIN(v) ((BuiltinObj *)(v))

Obj builtin_new(const MethodDef *def, Obj self, Obj owner)
{
    Obj *r = vm_roots(3);
    r[0] = self;
    r[1] = owner;
    r[2] = vm_intern_cached(def->name);
    Obj b = r[2] ? (Obj)tm_allocate(TID_BUILTIN, sizeof(struct BuiltinObj_)) : NULL;
    if (b) {
        BUILTIN(b)->self = r[0];
        BUILTIN(b)->owner = r[1];
        BUILTIN(b)->name = r[2];
        BUILTIN(b)->def = def;
    }
    vm_unroots(r);
    return b ? b : err_nomemory();
}

/* A bound method (MethodObj: func with self). Its type, T_method, is the
 * eval layer's (function.c). */
Obj method_new(Obj func, Obj self)
{
    Obj *r = vm_roots(2);
    r[0] = func;
    r[1] = self;
    Obj m = (Obj)tm_allocate(TID_METHOD, sizeof(struct MethodObj_));
    if (m) {
        ((MethodObj *)m)->func = r[0];
        ((MethodObj *)m)->self = r[1];
    }
    vm_unroots(r);
    return m ? m : err_nomemory();
}

bool vm_is_method_descr(Obj v)
{
    if (TID(v) != TID_BUILTIN)
        return false;
    BuiltinObj *b = (BuiltinObj *)v;
    return !b->self && b->owner && IS_TYPE(b->owner) && b->def &&
           !(b->def->flags & (METH_STATIC | METH_CLASS));
}

/* A bound copy of an unbound method descriptor. */
static Obj builtin_bind(Obj descr, Obj self)
{
    Obj *r = vm_roots(2);
    r[0] = descr;
    r[1] = self;
    Obj b = (Obj)tm_allocate(TID_BUILTIN, sizeof(struct BuiltinObj_));
    if (b) {
        BUILTIN(b)->self = r[1];
        BUILTIN(b)->owner = BUILTIN(r[0])->owner;
        BUILTIN(b)->name = BUILTIN(r[0])->name;
        BUILTIN(b)->def = BUILTIN(r[0])->def;
    }
    vm_unroots(r);
    return b ? b : err_nomemory();
}

/* "len", "math.sqrt" or "list.append" for messages, as CPython's
 * _PyObject_FunctionStr: the module is named unless it is builtins; a bound
 * method is named by its receiver's type (or class), an unbound one by the
 * defining type; "deque", not "collections.deque". A function that is
 * METH_VARARGS in CPython (METH_BARENAME; METH_OLDMSG in a module) goes by
 * its bare name once bound to a module or an object. */
void builtin_qualname(Obj b, char *buf, size_t n)
{
    Obj owner = BUILTIN(b)->owner, self = BUILTIN(b)->self;
    const char *name = BUILTIN(b)->def->name;
    int flags = BUILTIN(b)->def->flags;
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
static Obj builtin_args_error(Obj callable, size_t n, Obj kwnames)
{
    const MethodDef *def = BUILTIN(callable)->def;
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

/* The call of every C function and method (vm_call's and tp_call's). */
Obj builtin_call(Obj callable, Obj *args, size_t nargs, Obj kwnames)
{
    BuiltinObj *b = BUILTIN(callable);
    const MethodDef *def = b->def;
    int flags = def->flags;
    if (kwnames && TUPLE_LEN(kwnames) == 0)
        kwnames = NULL;
    if (unlikely(kwnames && !(flags & METH_KW)))
        return builtin_args_error(callable, nargs, kwnames);
    Obj self = b->self, owner = b->owner;
    if (self && owner && !(flags & METH_STATIC)) {
        /* Bound method of a type: self goes first. */
        if (unlikely(!builtin_count_ok(flags, nargs)))
            return builtin_args_error(callable, nargs, NULL);
        size_t total = nargs + (kwnames ? (size_t)TUPLE_LEN(kwnames) : 0);
        Obj *r = vm_roots((int)total + 2);
        r[0] = kwnames;
        r[1] = self;
        memcpy(r + 2, args, total * sizeof(Obj));
        Obj res = def->fn(r + 1, nargs + 1, r[0]);
        vm_unroots(r);
        return res;
    }
    size_t nself = 0;
    if (owner && !(flags & METH_STATIC)) {
        /* Unbound method descriptor: args[0] must be an instance (the class for METH_CLASS). */
        if (nargs == 0) {
            char q[200];
            builtin_qualname(callable, q, sizeof q);
            err_format(E_TypeError, "unbound method %s() needs an argument", q);
            return NULL;
        }
        if (flags & METH_CLASS) {
            if (!IS_TYPE(args[0]) || !type_is_subtype((TypeObj *)args[0], (TypeObj *)owner)) {
                err_format(E_TypeError, "descriptor '%s' for type '%s' needs a subtype of '%s', not '%s'",
                           def->name, type_name_of_type((TypeObj *)owner), type_name_of_type((TypeObj *)owner),
                           type_name(args[0]));
                return NULL;
            }
        } else if (TYPE(args[0]) != (TypeObj *)owner && !vm_isinstance_type(args[0], (TypeObj *)owner)) {
            err_format(E_TypeError, "descriptor '%s' for '%s' objects doesn't apply to a '%s' object", def->name,
                       type_name_of_type((TypeObj *)owner), type_name(args[0]));
            return NULL;
        }
        nself = 1;
    }
    if (unlikely(!builtin_count_ok(flags, nargs - nself)))
        return builtin_args_error(callable, nargs - nself, NULL);
    return def->fn(args, nargs, kwnames);
}

static Obj builtin_descr_get(Obj descr, Obj obj, Obj type)
{
    BuiltinObj *b = BUILTIN(descr);
    if (b->self || !b->owner)
        return descr;
    int flags = b->def->flags;
    if (flags & METH_STATIC)
        return descr;
    if (flags & METH_CLASS) {
        Obj cls = type ? type : (obj ? (Obj)TYPE(obj) : NULL);
        return cls ? builtin_bind(descr, cls) : descr;
    }
    if (!obj)
        return descr;
    TypeObj *owner = (TypeObj *)b->owner;
    if (!vm_isinstance_type(obj, owner)) {
        err_format(E_TypeError, "descriptor '%s' for '%s' objects doesn't apply to a '%s' object", b->def->name,
                   type_name_of_type(owner), type_name(obj));
        return NULL;
    }
    return builtin_bind(descr, obj);
}

static Obj builtin_repr(Obj v)
{
    BuiltinObj *b = BUILTIN(v);
    if (!b->owner)
        return str_from_format("<built-in function %s>", b->def->name);
    if (!b->self) {
        if (b->def->flags & METH_STATIC) {
            Obj *r = vm_roots(1);
            r[0] = v;
            uint64_t addr = vm_object_id(b->owner);
            v = r[0];
            vm_unroots(r);
            return str_from_format("<built-in method %s of type object at %#lx>", BUILTIN(v)->def->name,
                                   (unsigned long)addr);
        }
        StrBuf sb;
        sb_init(&sb);
        sb_printf(&sb, "<method '%s' of '%s' objects>", b->def->name, type_name_of_type((TypeObj *)b->owner));
        return sb_finish(&sb);
    }
    Obj *r = vm_roots(1);
    r[0] = v;
    uint64_t addr = vm_object_id(b->self);
    v = r[0];
    vm_unroots(r);
    StrBuf sb;
    sb_init(&sb);
    sb_printf(&sb, "<built-in method %s of %s object at %#lx>", BUILTIN(v)->def->name, type_name(BUILTIN(v)->self),
              (unsigned long)addr);
    return sb_finish(&sb);
}

static Obj builtin_richcompare(Obj a, Obj b, int op)
{
    if ((op != CMP_EQ && op != CMP_NE) || TID(b) != TID_BUILTIN)
        return g_NotImplemented;
    bool eq = BUILTIN(a)->def == BUILTIN(b)->def && BUILTIN(a)->self == BUILTIN(b)->self &&
              BUILTIN(a)->owner == BUILTIN(b)->owner;
    return vm_bool(op == CMP_EQ ? eq : !eq);
}

static int64_t builtin_hash(Obj v)
{
    int64_t h = (int64_t)(((uintptr_t)BUILTIN(v)->def >> 3) & INT64_MAX);
    if (BUILTIN(v)->self) {
        int64_t hs = vm_identity_hash(BUILTIN(v)->self);
        h ^= hs * 1000003;
    }
    h &= INT64_MAX;
    return h == -1 ? -2 : h;
}

static Obj builtin_name_get(Obj *args, size_t nargs, Obj kw)
{
    return BUILTIN(args[0])->name;
}

static Obj builtin_qualname_get(Obj *args, size_t nargs, Obj kw)
{
    Obj b = args[0];
    if (BUILTIN(b)->owner && IS_TYPE(BUILTIN(b)->owner))
        return str_from_format("%s.%s", type_name_of_type((TypeObj *)BUILTIN(b)->owner), BUILTIN(b)->def->name);
    return BUILTIN(b)->name;
}

static Obj builtin_self_get(Obj *args, size_t nargs, Obj kw)
{
    Obj s = BUILTIN(args[0])->self;
    if (!s && !BUILTIN(args[0])->owner && g_builtins_module)
        return g_builtins_module;
    return s ? s : g_None;
}

static Obj builtin_doc_get(Obj *args, size_t nargs, Obj kw)
{
    const char *d = BUILTIN(args[0])->def->doc;
    return d ? str_from_cstr(d) : g_None;
}

static Obj builtin_module_get(Obj *args, size_t nargs, Obj kw)
{
    Obj b = args[0];
    if (BUILTIN(b)->owner)
        return g_None;
    Obj s = BUILTIN(b)->self;
    if (s && TID(s) == TID_MODULE)
        return ((ModuleObj *)s)->name;
    return NAME(builtins);
}

static Obj builtin_objclass_get(Obj *args, size_t nargs, Obj kw)
{
    Obj o = BUILTIN(args[0])->owner;
    if (!o)
        return err_no_attr(args[0], NAME(__objclass__));
    return o;
}

/* Method descriptors of defs (bound on access, checked against `owner`)
 * into a class namespace dict, for classes made by calling type(). */
int builtin_add_to_dict(Obj ns, const MethodDef *defs, TypeObj *owner)
{
    Obj *r = vm_roots(2);
    int rc = 0;
    r[0] = ns;
    for (const MethodDef *d = defs; d->name && rc == 0; d++) {
        r[1] = builtin_new(d, NULL, (Obj)owner);
        rc = r[1] ? dict_setitem_cstr(r[0], d->name, r[1]) : -1;
    }
    vm_unroots(r);
    return rc;
}


void builtin_init_type(void)
{
    TypeObj *t;

    t = T_builtin = (TypeObj *)type_new_builtin("builtin_function_or_method", T_object, TID_BUILTIN, 0);
    t->tp_call = builtin_call;
    t->tp_descr_get = builtin_descr_get;
    t->tp_repr = builtin_repr;
    t->tp_richcompare = builtin_richcompare;
    t->tp_hash = builtin_hash;
    type_add_getset(t, "__name__", builtin_name_get, NULL);
    type_add_getset(t, "__qualname__", builtin_qualname_get, NULL);
    type_add_getset(t, "__self__", builtin_self_get, NULL);
    type_add_getset(t, "__doc__", builtin_doc_get, NULL);
    type_add_getset(t, "__module__", builtin_module_get, NULL);
    type_add_getset(t, "__objclass__", builtin_objclass_get, NULL);
    type_ready(t);
}
