/* Built-in functions and methods (BuiltinObj): a C function with its
 * MethodDef, bound to `self` (a module or an instance) or unbound in a type;
 * and making bound methods (MethodObj). */
#include "objects.h"

#include <stdlib.h>
#include <string.h>

TypeObj *T_builtin;
/* CPython's types of the unbound ones in a type's dict: list.append, dict.__dict__['fromkeys']
 * (one BuiltinObj layout; TYPE() asks vm_builtin_descr_type). */
static TypeObj *T_method_descriptor, *T_classmethod_descriptor;

TypeObj *vm_builtin_descr_type(BuiltinObj *b)
{
    int flags = b->def->flags;
    if (flags & METH_STATIC)
        return T_builtin;
    return flags & METH_CLASS ? T_classmethod_descriptor : T_method_descriptor;
}

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

/* A doc that starts "NAME(SIGNATURE)\n--\n\n" (CPython's convention, which
 * inspect.signature reads through __text_signature__): the end of its
 * signature line, or NULL when the doc has none. */
static const char *doc_signature_end(const char *name, const char *doc)
{
    size_t n = strlen(name);
    if (!doc || strncmp(doc, name, n) != 0 || doc[n] != '(')
        return NULL;
    const char *end = strstr(doc + n, ")\n--\n\n");
    return end && !memchr(doc, '\n', (size_t)(end - doc)) ? end + 1 : NULL;
}

static Obj builtin_doc_get(Obj *args, size_t nargs, Obj kw)
{
    const MethodDef *def = BUILTIN(args[0])->def;
    const char *d = def->doc;
    const char *sig_end = doc_signature_end(def->name, d);
    if (sig_end)
        d = sig_end + strlen("\n--\n\n");
    return d && *d ? str_from_cstr(d) : g_None;
}

static Obj builtin_text_signature_get(Obj *args, size_t nargs, Obj kw)
{
    const MethodDef *def = BUILTIN(args[0])->def;
    const char *sig_end = doc_signature_end(def->name, def->doc);
    if (!sig_end)
        return g_None;
    const char *sig = def->doc + strlen(def->name);
    return str_new(sig, (size_t)(sig_end - sig));
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

/* __reduce__ (pickle): a module's function or a builtin by its name, which
 * pickle saves as a global; a method as getattr(self or its class, name). */
static Obj builtin_reduce(Obj *args, size_t nargs, Obj kw)
{
    Obj b = args[0];
    Obj self = BUILTIN(b)->self, owner = BUILTIN(b)->owner;
    if ((!self || TID(self) == TID_MODULE) && !(owner && !self))
        return str_from_cstr(BUILTIN(b)->def->name);
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = self ? self : owner;
    r[1] = str_from_cstr(BUILTIN(args[0])->def->name);
    r[2] = r[1] ? dict_getitem_cstr(g_builtins, "getattr") : NULL;
    if (r[2] && (r[1] = tuple_pack(2, r[0], r[1])))
        res = tuple_pack(2, r[2], r[1]);
    vm_unroots(r);
    return res;
}

static const MethodDef builtin_methods[] = {
    {"__reduce__", builtin_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

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


static TypeObj *builtin_type(const char *name, bool descriptor)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_BUILTIN, 0);
    t->tp_call = builtin_call;
    t->tp_descr_get = builtin_descr_get;
    t->tp_repr = builtin_repr;
    t->tp_richcompare = builtin_richcompare;
    t->tp_hash = builtin_hash;
    type_add_getset(t, "__name__", builtin_name_get, NULL);
    type_add_getset(t, "__qualname__", builtin_qualname_get, NULL);
    type_add_getset(t, "__doc__", builtin_doc_get, NULL);
    type_add_getset(t, "__text_signature__", builtin_text_signature_get, NULL);
    if (descriptor) {
        type_add_getset(t, "__objclass__", builtin_objclass_get, NULL);
    } else {
        type_add_getset(t, "__self__", builtin_self_get, NULL);
        type_add_getset(t, "__module__", builtin_module_get, NULL);
    }
    type_add_methods(t, builtin_methods);
    type_ready(t);
    return t;
}

void builtin_init_type(void)
{
    T_builtin = builtin_type("builtin_function_or_method", false);   /* first: vm_tid_type's */
    T_method_descriptor = builtin_type("method_descriptor", true);
    T_classmethod_descriptor = builtin_type("classmethod_descriptor", true);
}
