/* Descriptor and callable objects of the object model: built-in functions
 * and methods (BuiltinObj), modules, property, staticmethod, classmethod
 * and super. */
#include "objects.h"
#include "modules.h"

#include <stdlib.h>
#include <string.h>

TypeObj *T_builtin, *T_module, *T_property, *T_staticmethod, *T_classmethod, *T_super;
/* The bound-method type and method_new belong to eval (function.c); these
 * weak fallbacks keep the objects area usable (and linkable) without it. */
__attribute__((weak)) TypeObj *T_method;

#define PROP(v) ((PropertyHObj *)(v))
#define SM(v) ((StaticMethodObj *)(v))
#define SUPER(v) ((SuperObj *)(v))
#define BUILTIN(v) ((BuiltinObj *)(v))

/* ------------------------------------------------------------------ */
/* Built-in functions and methods                                     */
/* ------------------------------------------------------------------ */
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

/* "len" or "list.append" for messages (linear, valid until the next allocation). */
static void builtin_qualname(Obj b, char *buf, size_t n)
{
    Obj owner = BUILTIN(b)->owner;
    if (owner && IS_TYPE(owner))
        snprintf(buf, n, "%s.%s", type_name_of_type((TypeObj *)owner), BUILTIN(b)->def->name);
    else
        snprintf(buf, n, "%s", BUILTIN(b)->def->name);
}

Obj builtin_call(Obj callable, Obj *args, size_t nargs, Obj kwnames)
{
    BuiltinObj *b = BUILTIN(callable);
    const MethodDef *def = b->def;
    size_t nkw = kwnames ? (size_t)TUPLE_LEN(kwnames) : 0;
    if (nkw && !(def->flags & METH_KW)) {
        char q[200];
        builtin_qualname(callable, q, sizeof q);
        err_format(E_TypeError, "%s() takes no keyword arguments", q);
        return NULL;
    }
    if (b->self && b->owner) {
        Obj *r = vm_roots((int)(nargs + nkw + 1));
        r[0] = b->self;
        for (size_t i = 0; i < nargs + nkw; i++)
            r[i + 1] = args[i];
        Obj res = def->fn(r, nargs + 1, kwnames);
        vm_unroots(r);
        return res;
    }
    if (b->owner && !(def->flags & METH_STATIC)) {
        TypeObj *owner = (TypeObj *)b->owner;
        if (nargs == 0) {
            char q[200];
            builtin_qualname(callable, q, sizeof q);
            err_format(E_TypeError, "unbound method %s() needs an argument", q);
            return NULL;
        }
        if (def->flags & METH_CLASS) {
            if (!IS_TYPE(args[0]) || !type_is_subtype((TypeObj *)args[0], owner)) {
                err_format(E_TypeError, "descriptor '%s' for type '%s' needs a subtype of '%s', not '%s'",
                           def->name, type_name_of_type(owner), type_name_of_type(owner), type_name(args[0]));
                return NULL;
            }
        } else if (!vm_isinstance_type(args[0], owner)) {
            err_format(E_TypeError, "descriptor '%s' for '%s' objects doesn't apply to a '%s' object", def->name,
                       type_name_of_type(owner), type_name(args[0]));
            return NULL;
        }
    }
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
    (void)nargs, (void)kw;
    return BUILTIN(args[0])->name;
}

static Obj builtin_qualname_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    Obj b = args[0];
    if (BUILTIN(b)->owner && IS_TYPE(BUILTIN(b)->owner))
        return str_from_format("%s.%s", type_name_of_type((TypeObj *)BUILTIN(b)->owner), BUILTIN(b)->def->name);
    return BUILTIN(b)->name;
}

static Obj builtin_self_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    Obj s = BUILTIN(args[0])->self;
    if (!s && !BUILTIN(args[0])->owner && g_builtins_module)
        return g_builtins_module;
    return s ? s : g_None;
}

static Obj builtin_doc_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    const char *d = BUILTIN(args[0])->def->doc;
    return d ? str_from_cstr(d) : g_None;
}

static Obj builtin_module_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
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
    (void)nargs, (void)kw;
    Obj o = BUILTIN(args[0])->owner;
    if (!o)
        return err_no_attr(args[0], NAME(__objclass__));
    return o;
}

/* ------------------------------------------------------------------ */
/* Modules                                                            */
/* ------------------------------------------------------------------ */
Obj module_new(const char *name)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = str_from_cstr(name);
    if (!r[0])
        goto out;
    r[1] = dict_new();
    if (!r[1])
        goto out;
    if (dict_setitem(r[1], NAME(__name__), r[0]) < 0 || dict_setitem(r[1], NAME(__doc__), g_None) < 0 ||
        dict_setitem(r[1], NAME(__package__), g_None) < 0 || dict_setitem(r[1], NAME(__loader__), g_None) < 0 ||
        dict_setitem(r[1], NAME(__spec__), g_None) < 0)
        goto out;
    r[2] = (Obj)tm_allocate(TID_MODULE, sizeof(struct ModuleObj_));
    if (!r[2]) {
        err_nomemory();
        goto out;
    }
    ((ModuleObj *)r[2])->dict = r[1];
    ((ModuleObj *)r[2])->name = r[0];
    res = r[2];
out:
    vm_unroots(r);
    return res;
}

int module_add(Obj module, const char *name, Obj v)
{
    Obj *r = vm_roots(2);
    r[0] = module;
    r[1] = v;
    Obj key = vm_intern_cached(name);
    int rc = key ? dict_setitem(((ModuleObj *)r[0])->dict, key, r[1]) : -1;
    vm_unroots(r);
    return rc;
}

void module_add_functions(Obj module, const MethodDef *defs)
{
    Obj *r = vm_roots(2);
    r[0] = module;
    for (const MethodDef *d = defs; d->name; d++) {
        r[1] = builtin_new(d, r[0], NULL);
        if (!r[1] || module_add(r[0], d->name, r[1]) < 0) {
            fprintf(stderr, "tmpy: fatal: out of memory adding module functions\n");
            exit(1);
        }
    }
    vm_unroots(r);
}

static Obj module_getattro(Obj m, Obj name)
{
    if (likely(IS_STR(name))) {
        const char *c = str_cstr(name);
        if (!(c[0] == '_' && c[1] == '_')) {
            VM_READ(m);
            Obj v = dict_getitem_str(((ModuleObj *)m)->dict, name);
            if (v)
                return v;
        }
    }
    Obj *r = vm_roots(2);
    r[0] = m;
    r[1] = name;
    Obj res = vm_generic_getattr(m, name);
    if (!res && err_matches(E_AttributeError)) {
        Obj ga = dict_getitem_str(((ModuleObj *)r[0])->dict, NAME(__getattr__));
        if (ga) {
            err_clear();
            res = vm_call1(ga, r[1]);
        } else {
            err_clear();
            err_no_attr(r[0], r[1]);
        }
    }
    vm_unroots(r);
    return res;
}

static Obj module_repr(Obj m)
{
    Obj d = ((ModuleObj *)m)->dict;
    Obj name = dict_getitem_str(d, NAME(__name__));
    if (!name || !IS_STR(name))
        name = ((ModuleObj *)m)->name;
    Obj file = dict_getitem_str(d, NAME(__file__));
    StrBuf b;
    sb_init(&b);
    sb_adds(&b, "<module '");
    if (name && IS_STR(name))
        sb_add_str(&b, name);
    else
        sb_adds(&b, "?");
    if (file && IS_STR(file)) {
        sb_adds(&b, "' from '");
        sb_add_str(&b, file);
        sb_adds(&b, "'>");
    } else {
        sb_adds(&b, "' (built-in)>");
    }
    return sb_finish(&b);
}

static Obj module_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    (void)type;
    static const char *const names[] = {"name", "doc", NULL};
    Obj *r = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("module", args, nargs, kwnames, names, 1, 2, r) < 0)
        goto out;
    if (!IS_STR(r[0])) {
        err_format(E_TypeError, "module.__init__() argument 'name' must be str, not %s", type_name(r[0]));
        goto out;
    }
    r[2] = module_new(str_cstr(r[0]));
    if (!r[2])
        goto out;
    if (dict_setitem(((ModuleObj *)r[2])->dict, NAME(__name__), r[0]) < 0)
        goto out;
    if (r[1] && dict_setitem(((ModuleObj *)r[2])->dict, NAME(__doc__), r[1]) < 0)
        goto out;
    VM_WRITE(r[2]);
    ((ModuleObj *)r[2])->name = r[0];
    res = r[2];
out:
    vm_unroots(r);
    return res;
}

static int module_tp_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    (void)self, (void)args, (void)nargs, (void)kwnames;
    return 0;
}

static Obj module_dir_m(Obj *args, size_t nargs, Obj kw)
{
    if (vm_check_args("__dir__", nargs - 1, kw, 0, 0) < 0)
        return NULL;
    Obj d = ((ModuleObj *)args[0])->dict;
    Obj f = dict_getitem_str(d, NAME(__dir__));
    if (f)
        return vm_call0(f);
    return dict_keys_list(d);
}

/* ------------------------------------------------------------------ */
/* property                                                           */
/* ------------------------------------------------------------------ */
Obj property_new(Obj fget, Obj fset, Obj fdel, Obj doc)
{
    Obj *r = vm_roots(4);
    r[0] = fget;
    r[1] = fset;
    r[2] = fdel;
    r[3] = doc;
    Obj p = (Obj)tm_allocate(TID_PROPERTY, sizeof(struct PropertyHObj_));
    if (p) {
        PROP(p)->fget = r[0] == g_None ? NULL : r[0];
        PROP(p)->fset = r[1] == g_None ? NULL : r[1];
        PROP(p)->fdel = r[2] == g_None ? NULL : r[2];
        PROP(p)->doc = r[3] == g_None ? NULL : r[3];
    }
    vm_unroots(r);
    return p ? p : err_nomemory();
}

static Obj prop_of(Obj self) { return vm_unwrap(self); }

static Obj property_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    (void)type, (void)args, (void)nargs, (void)kwnames;
    return property_new(NULL, NULL, NULL, NULL);
}

static int property_tp_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"fget", "fset", "fdel", "doc", NULL};
    Obj *r = vm_roots(5);
    r[4] = self;
    int rc = -1;
    if (vm_parse_args("property", args, nargs, kwnames, names, 0, 4, r) < 0)
        goto out;
    /* doc from fget.__doc__ when not given */
    if ((!r[3] || r[3] == g_None) && r[0] && r[0] != g_None) {
        Obj d = vm_getattr_opt(r[0], NAME(__doc__));
        if (!d && err_occurred())
            goto out;
        r[3] = d;
    }
    Obj p = prop_of(r[4]);
    VM_WRITE(p);
    for (int i = 0; i < 4; i++)
        if (r[i] == g_None)
            r[i] = NULL;
    PROP(p)->fget = r[0];
    PROP(p)->fset = r[1];
    PROP(p)->fdel = r[2];
    PROP(p)->doc = r[3];
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

static Obj property_error(Obj prop, Obj obj, const char *what)
{
    Obj name = PROP(prop)->name;
    if (name && IS_STR(name) && obj)
        err_format(E_AttributeError, "property '%s' of '%s' object has %s", str_cstr(name), type_name(obj), what);
    else if (obj)
        err_format(E_AttributeError, "property of '%s' object has %s", type_name(obj), what);
    else
        err_format(E_AttributeError, "property has %s", what);
    return NULL;
}

static Obj property_get(Obj self, Obj obj, Obj type)
{
    (void)type;
    if (!obj)
        return self;
    Obj p = prop_of(self);
    Obj f = PROP(p)->fget;
    if (!f)
        return property_error(p, obj, "no getter");
    return vm_call1(f, obj);
}

static int property_set(Obj self, Obj obj, Obj v)
{
    Obj p = prop_of(self);
    Obj f = v ? PROP(p)->fset : PROP(p)->fdel;
    if (!f) {
        property_error(p, obj, v ? "no setter" : "no deleter");
        return -1;
    }
    Obj res = v ? vm_call2(f, obj, v) : vm_call1(f, obj);
    return res ? 0 : -1;
}

/* getter/setter/deleter: a copy with one function replaced (type(self)(...)). */
static Obj property_copy(Obj self, int which, Obj f)
{
    Obj *r = vm_roots(6);
    r[5] = self;
    Obj p = prop_of(self);
    r[0] = PROP(p)->fget ? PROP(p)->fget : g_None;
    r[1] = PROP(p)->fset ? PROP(p)->fset : g_None;
    r[2] = PROP(p)->fdel ? PROP(p)->fdel : g_None;
    /* a doc that came from the old getter is recomputed from the new one */
    r[3] = PROP(p)->doc ? PROP(p)->doc : g_None;
    if (which == 0 && PROP(p)->fget && PROP(p)->doc) {
        Obj old = vm_getattr_opt(PROP(p)->fget, NAME(__doc__));
        if (!old && err_occurred()) {
            vm_unroots(r);
            return NULL;
        }
        p = prop_of(r[5]);
        if (old == PROP(p)->doc)
            r[3] = g_None;
    }
    r[which] = f;
    Obj res = vm_call(( Obj)TYPE(r[5]), r, 4, NULL);
    if (res) {
        Obj np = prop_of(res);
        if (TID(np) == TID_PROPERTY && !PROP(np)->name) {
            VM_WRITE(np);
            PROP(np)->name = PROP(prop_of(r[5]))->name;
        }
    }
    vm_unroots(r);
    return res;
}

static Obj property_getter_m(Obj *args, size_t nargs, Obj kw)
{
    if (vm_check_args("getter", nargs - 1, kw, 1, 1) < 0)
        return NULL;
    return property_copy(args[0], 0, args[1]);
}

static Obj property_setter_m(Obj *args, size_t nargs, Obj kw)
{
    if (vm_check_args("setter", nargs - 1, kw, 1, 1) < 0)
        return NULL;
    return property_copy(args[0], 1, args[1]);
}

static Obj property_deleter_m(Obj *args, size_t nargs, Obj kw)
{
    if (vm_check_args("deleter", nargs - 1, kw, 1, 1) < 0)
        return NULL;
    return property_copy(args[0], 2, args[1]);
}

static Obj property_set_name_m(Obj *args, size_t nargs, Obj kw)
{
    if (vm_check_args("__set_name__", nargs - 1, kw, 2, 2) < 0)
        return NULL;
    Obj p = prop_of(args[0]);
    VM_WRITE(p);
    PROP(p)->name = args[2];
    return g_None;
}

static Obj prop_field(Obj self, int i)
{
    Obj p = prop_of(self);
    Obj v = i == 0 ? PROP(p)->fget : i == 1 ? PROP(p)->fset : i == 2 ? PROP(p)->fdel : PROP(p)->doc;
    return v ? v : g_None;
}
static Obj property_fget_get(Obj *a, size_t n, Obj k) { (void)n, (void)k; return prop_field(a[0], 0); }
static Obj property_fset_get(Obj *a, size_t n, Obj k) { (void)n, (void)k; return prop_field(a[0], 1); }
static Obj property_fdel_get(Obj *a, size_t n, Obj k) { (void)n, (void)k; return prop_field(a[0], 2); }
static Obj property_doc_get(Obj *a, size_t n, Obj k) { (void)n, (void)k; return prop_field(a[0], 3); }

static Obj property_doc_set(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    Obj p = prop_of(a[0]);
    VM_WRITE(p);
    PROP(p)->doc = (a[1] && a[1] != g_None) ? a[1] : NULL;
    return g_None;
}

static Obj is_abstract(Obj f)
{
    if (!f)
        return g_False;
    Obj v = vm_getattr_opt(f, NAME(__isabstractmethod__));
    if (!v)
        return err_occurred() ? NULL : g_False;
    int t = vm_is_true(v);
    return t < 0 ? NULL : vm_bool(t);
}

static Obj property_isabstract_get(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    for (int i = 0; i < 3; i++) {
        Obj f = prop_field(a[0], i);
        Obj r = is_abstract(f == g_None ? NULL : f);
        if (r != g_False)
            return r;
    }
    return g_False;
}

static const MethodDef property_methods[] = {
    {"getter", property_getter_m, 0, NULL},
    {"setter", property_setter_m, 0, NULL},
    {"deleter", property_deleter_m, 0, NULL},
    {"__set_name__", property_set_name_m, 0, NULL},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* staticmethod / classmethod                                          */
/* ------------------------------------------------------------------ */
static Obj wrap_func(unsigned tid, Obj f)
{
    Obj *r = vm_roots(1);
    r[0] = f;
    Obj s = (Obj)tm_allocate(tid, sizeof(struct StaticMethodObj_));
    if (s)
        SM(s)->func = r[0];
    vm_unroots(r);
    return s ? s : err_nomemory();
}

Obj staticmethod_new(Obj f) { return wrap_func(TID_STATICMETHOD, f); }
Obj classmethod_new(Obj f) { return wrap_func(TID_CLASSMETHOD, f); }

static Obj sm_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    (void)args, (void)kwnames;
    bool is_static = (TypeObj *)type == T_staticmethod || type_is_subtype((TypeObj *)type, T_staticmethod);
    const char *name = is_static ? "staticmethod" : "classmethod";
    if (kwnames && TUPLE_LEN(kwnames)) {
        err_format(E_TypeError, "%s() takes no keyword arguments", name);
        return NULL;
    }
    if (nargs != 1) {
        err_format(E_TypeError, "%s expected 1 argument, got %zu", name, nargs);
        return NULL;
    }
    return wrap_func(is_static ? TID_STATICMETHOD : TID_CLASSMETHOD, args[0]);
}

static int sm_tp_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    (void)self, (void)args, (void)nargs, (void)kwnames;
    return 0;
}

static Obj staticmethod_get(Obj self, Obj obj, Obj type)
{
    (void)obj, (void)type;
    return SM(vm_unwrap(self))->func;
}

static Obj staticmethod_call(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    return vm_call(SM(vm_unwrap(self))->func, args, nargs, kwnames);
}

static Obj classmethod_get(Obj self, Obj obj, Obj type)
{
    if (!type) {
        if (!obj) {
            err_set(E_TypeError, "__get__(None, None) is invalid");
            return NULL;
        }
        type = (Obj)TYPE(obj);
    }
    return method_new(SM(vm_unwrap(self))->func, type);
}

static Obj sm_repr(Obj self)
{
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj fr = vm_repr(SM(vm_unwrap(self))->func);
    Obj res = NULL;
    if (fr) {
        StrBuf b;
        sb_init(&b);
        sb_printf(&b, "<%s(", TID(vm_unwrap(r[0])) == TID_STATICMETHOD ? "staticmethod" : "classmethod");
        sb_add_str(&b, fr);
        sb_adds(&b, ")>");
        res = sb_finish(&b);
    }
    vm_unroots(r);
    return res;
}

static Obj sm_func_get(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    return SM(vm_unwrap(a[0]))->func;
}

static Obj sm_isabstract_get(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    return is_abstract(SM(vm_unwrap(a[0]))->func);
}

/* __name__, __qualname__, __doc__, __module__ come from the function (3.10+). */
static Obj sm_getattro(Obj self, Obj name)
{
    Obj *r = vm_roots(2);
    r[0] = self;
    r[1] = name;
    Obj res = vm_generic_getattr(self, name);
    if (!res && err_matches(E_AttributeError) && IS_STR(r[1])) {
        if (str_eq(r[1], NAME(__name__)) || str_eq(r[1], NAME(__qualname__)) || str_eq(r[1], NAME(__doc__)) ||
            str_eq(r[1], NAME(__module__)) || str_eq(r[1], NAME(__annotations__))) {
            err_clear();
            res = vm_getattr(SM(vm_unwrap(r[0]))->func, r[1]);
        }
    }
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* super                                                              */
/* ------------------------------------------------------------------ */
static TypeObj *supercheck(TypeObj *type, Obj obj)
{
    if (IS_TYPE(obj) && type_is_subtype((TypeObj *)obj, type))
        return (TypeObj *)obj;
    if (vm_isinstance_type(obj, type))
        return TYPE(obj);
    err_set(E_TypeError, "super(type, obj): obj must be an instance or subtype of type");
    return NULL;
}

Obj super_new_obj(Obj type, Obj obj)
{
    if (!IS_TYPE(type)) {
        err_format(E_TypeError, "super() argument 1 must be a type, not %s", type_name(type));
        return NULL;
    }
    TypeObj *objtype = NULL;
    if (obj && obj != g_None) {
        objtype = supercheck((TypeObj *)type, obj);
        if (!objtype)
            return NULL;
    } else {
        obj = NULL;
    }
    Obj *r = vm_roots(2);
    r[0] = type;
    r[1] = obj;
    Obj s = (Obj)tm_allocate(TID_SUPER, sizeof(struct SuperObj_));
    if (s) {
        SUPER(s)->type = r[0];
        SUPER(s)->obj = r[1];
        SUPER(s)->obj_type = (Obj)objtype;
    }
    vm_unroots(r);
    return s ? s : err_nomemory();
}

static Obj super_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    (void)type;
    if (kwnames && TUPLE_LEN(kwnames)) {
        err_set(E_TypeError, "super() takes no keyword arguments");
        return NULL;
    }
    if (nargs > 2) {
        err_format(E_TypeError, "super() expected at most 2 arguments, got %zu", nargs);
        return NULL;
    }
    if (nargs == 0) {
        Obj *r = vm_roots(2);
        if (vm_current_super_args(&r[0], &r[1]) < 0) {
            vm_unroots(r);
            if (!err_occurred())
                err_set(E_RuntimeError, "super(): no arguments");
            return NULL;
        }
        Obj s = super_new_obj(r[0], r[1]);
        vm_unroots(r);
        return s;
    }
    return super_new_obj(args[0], nargs > 1 ? args[1] : NULL);
}

static int super_tp_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    (void)self, (void)args, (void)nargs, (void)kwnames;
    return 0;
}

static Obj super_getattro(Obj self, Obj name)
{
    SuperObj *s = SUPER(self);
    TypeObj *start = (TypeObj *)s->obj_type;
    if (start && !(IS_STR(name) && str_eq(name, NAME(__class__)))) {
        Obj mro = start->mro;
        int64_t n = mro ? TUPLE_LEN(mro) : 0, i = 0;
        while (i < n && TUPLE_ITEMS(mro)[i] != s->type)
            i++;
        for (i++; i < n; i++) {
            Obj d = ((TypeObj *)TUPLE_ITEMS(mro)[i])->dict;
            Obj v = IS_STR(name) ? dict_getitem_str(d, name) : dict_getitem(d, name);
            if (!v)
                continue;
            descrgetfunc g = TYPE(v)->tp_descr_get;
            if (g)
                return g(v, s->obj == (Obj)start ? NULL : s->obj, (Obj)start);
            return v;
        }
    }
    return vm_generic_getattr(self, name);
}

static Obj super_repr(Obj self)
{
    Obj *r = vm_roots(2);
    r[0] = self;
    Obj res = NULL;
    Obj tr = type_repr(SUPER(self)->type);
    if (!tr)
        goto out;
    r[1] = tr;
    StrBuf b;
    sb_init(&b);
    sb_adds(&b, "<super: ");
    sb_add_str(&b, r[1]);
    if (SUPER(r[0])->obj_type) {
        sb_adds(&b, ", <");
        sb_add_str(&b, ((TypeObj *)SUPER(r[0])->obj_type)->name);
        sb_adds(&b, " object>>");
    } else {
        sb_adds(&b, ", NULL>");
    }
    res = sb_finish(&b);
out:
    vm_unroots(r);
    return res;
}

static Obj super_thisclass_get(Obj *a, size_t n, Obj k) { (void)n, (void)k; return SUPER(a[0])->type; }
static Obj super_self_get(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    Obj o = SUPER(a[0])->obj;
    return o ? o : g_None;
}
static Obj super_self_class_get(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    Obj o = SUPER(a[0])->obj_type;
    return o ? o : g_None;
}

/* ------------------------------------------------------------------ */
/* Fallback bound methods (only if eval provides none)                 */
/* ------------------------------------------------------------------ */
__attribute__((weak)) Obj method_new(Obj func, Obj self)
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

static Obj fb_method_call(Obj m, Obj *args, size_t nargs, Obj kwnames)
{
    size_t nkw = kwnames ? (size_t)TUPLE_LEN(kwnames) : 0;
    Obj *r = vm_roots((int)(nargs + nkw + 2));
    r[0] = ((MethodObj *)m)->self;
    for (size_t i = 0; i < nargs + nkw; i++)
        r[i + 1] = args[i];
    r[nargs + nkw + 1] = ((MethodObj *)m)->func;
    Obj res = vm_call(r[nargs + nkw + 1], r, nargs + 1, kwnames);
    vm_unroots(r);
    return res;
}

static Obj fb_method_get(Obj m, Obj obj, Obj type)
{
    (void)obj, (void)type;
    return m;
}

void descr_fallback_types(void)
{
    if (T_method)
        return;
    T_method = (TypeObj *)type_new_builtin("method", T_object, TID_METHOD, 0);
    T_method->tp_call = fb_method_call;
    T_method->tp_descr_get = fb_method_get;
    type_ready(T_method);
}

/* ------------------------------------------------------------------ */
/* Start-up                                                           */
/* ------------------------------------------------------------------ */
void descr_init_types(void)
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

    static const MethodDef module_methods[] = {
        {"__dir__", module_dir_m, 0, NULL},
        {NULL, NULL, 0, NULL},
    };
    t = T_module = (TypeObj *)type_new_builtin("module", T_object, TID_MODULE, TPF_HAS_DICT);
    t->tp_getattro = module_getattro;
    t->tp_repr = module_repr;
    t->tp_new = module_tp_new;
    t->tp_init = module_tp_init;
    type_add_methods(t, module_methods);
    type_add_getset(t, "__dict__", vm_getset_dict_get, NULL);
    type_ready(t);

    t = T_property = (TypeObj *)type_new_builtin("property", T_object, TID_PROPERTY, TPF_BASETYPE);
    t->tp_new = property_tp_new;
    t->tp_init = property_tp_init;
    t->tp_descr_get = property_get;
    t->tp_descr_set = property_set;
    type_add_methods(t, property_methods);
    type_add_getset(t, "fget", property_fget_get, NULL);
    type_add_getset(t, "fset", property_fset_get, NULL);
    type_add_getset(t, "fdel", property_fdel_get, NULL);
    type_add_getset(t, "__doc__", property_doc_get, property_doc_set);
    type_add_getset(t, "__isabstractmethod__", property_isabstract_get, NULL);
    type_ready(t);

    t = T_staticmethod = (TypeObj *)type_new_builtin("staticmethod", T_object, TID_STATICMETHOD, TPF_BASETYPE);
    t->tp_new = sm_tp_new;
    t->tp_init = sm_tp_init;
    t->tp_descr_get = staticmethod_get;
    t->tp_call = staticmethod_call;
    t->tp_repr = sm_repr;
    t->tp_getattro = sm_getattro;
    type_add_getset(t, "__func__", sm_func_get, NULL);
    type_add_getset(t, "__wrapped__", sm_func_get, NULL);
    type_add_getset(t, "__isabstractmethod__", sm_isabstract_get, NULL);
    type_ready(t);

    t = T_classmethod = (TypeObj *)type_new_builtin("classmethod", T_object, TID_CLASSMETHOD, TPF_BASETYPE);
    t->tp_new = sm_tp_new;
    t->tp_init = sm_tp_init;
    t->tp_descr_get = classmethod_get;
    t->tp_repr = sm_repr;
    t->tp_getattro = sm_getattro;
    type_add_getset(t, "__func__", sm_func_get, NULL);
    type_add_getset(t, "__wrapped__", sm_func_get, NULL);
    type_add_getset(t, "__isabstractmethod__", sm_isabstract_get, NULL);
    type_ready(t);

    t = T_super = (TypeObj *)type_new_builtin("super", T_object, TID_SUPER, 0);
    t->tp_new = super_tp_new;
    t->tp_init = super_tp_init;
    t->tp_getattro = super_getattro;
    t->tp_repr = super_repr;
    type_add_getset(t, "__thisclass__", super_thisclass_get, NULL);
    type_add_getset(t, "__self__", super_self_get, NULL);
    type_add_getset(t, "__self_class__", super_self_class_get, NULL);
    type_ready(t);
}
