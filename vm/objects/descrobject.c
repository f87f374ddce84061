/* Descriptors written in C: property, staticmethod and classmethod; and the
 * descriptors through which types show their C parts: slot wrappers
 * (int.__add__, bound: method-wrapper), getset descriptors (type.__name__)
 * and member descriptors (__slots__ entries, read-only C fields). */
#include "objects.h"
#include "slotdefs.h"

#include <stdlib.h>
#include <string.h>

TypeObj *T_property, *T_staticmethod, *T_classmethod;
TypeObj *T_wrapper_descriptor, *T_method_wrapper, *T_getset_descriptor, *T_member_descriptor;

#define PROP(v) ((PropertyHObj *)(v))
#define SM(v) ((StaticMethodObj *)(v))

/* ------------------------------------------------------------------ */
/* property                                                           */
/* ------------------------------------------------------------------ */
static Obj property_new(Obj fget, Obj fset, Obj fdel, Obj doc)
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
    VM_WRITE_RARE(p);
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
            VM_WRITE_RARE(np);
            PROP(np)->name = PROP(prop_of(r[5]))->name;
        }
    }
    vm_unroots(r);
    return res;
}

static Obj property_getter_m(Obj *args, size_t nargs, Obj kw)
{
    return property_copy(args[0], 0, args[1]);
}

static Obj property_setter_m(Obj *args, size_t nargs, Obj kw)
{
    return property_copy(args[0], 1, args[1]);
}

static Obj property_deleter_m(Obj *args, size_t nargs, Obj kw)
{
    return property_copy(args[0], 2, args[1]);
}

static Obj property_set_name_m(Obj *args, size_t nargs, Obj kw)
{
    Obj p = prop_of(args[0]);
    VM_WRITE_RARE(p);
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
    VM_WRITE_RARE(p);
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
    {"getter", property_getter_m, METH_O, NULL},
    {"setter", property_setter_m, METH_O, NULL},
    {"deleter", property_deleter_m, METH_O, NULL},
    {"__set_name__", property_set_name_m, METH_ARGS(2, 2), NULL},
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
    bool is_static = (TypeObj *)type == T_staticmethod || type_is_subtype((TypeObj *)type, T_staticmethod);
    const char *name = is_static ? "staticmethod" : "classmethod";
    if (vm_check_args(name, nargs, kwnames, 0, -1) < 0)
        return NULL;
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
    Obj f = SM(vm_unwrap(self))->func;
    /* 3.11: a wrapped descriptor (a property) is bound to the class itself */
    descrgetfunc g = TYPE(f)->tp_descr_get;
    if (g && TID(f) != TID_FUNCTION && TID(f) != TID_BUILTIN)
        return g(f, type, type);
    return method_new(f, type);
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

void descr_init_types(void)
{
    TypeObj *t;

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
}

/* ------------------------------------------------------------------ */
/* Wrapper descriptors: C slots seen as dunders (int.__add__)          */
/* ------------------------------------------------------------------ */
Obj wrapper_new(TypeObj *owner, int sdi, Obj self)
{
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj w = (Obj)tm_allocate(TID_ITER, sizeof(struct IterObj_));
    self = r[0];
    vm_unroots(r);
    if (!w)
        return err_nomemory();
    IterObj *it = ITER(w);
    it->cls = (Obj)(self ? T_method_wrapper : T_wrapper_descriptor);
    it->a = (Obj)owner;
    it->b = slotdefs[sdi].iname;
    it->c = self;
    it->i = sdi;
    return w;
}

static Obj wrapperdescr_call(Obj w, Obj *args, size_t nargs, Obj kwnames)
{
    IterObj *it = ITER(w);
    return wrapper_call_slot((TypeObj *)it->a, &slotdefs[it->i], args, nargs, kwnames);
}

static Obj wrapperdescr_get(Obj w, Obj obj, Obj type)
{
    (void)type;
    IterObj *it = ITER(w);
    const SlotDef *sd = &slotdefs[it->i];
    if (!obj || sd->kind == WK_NEW)
        return w;
    TypeObj *owner = (TypeObj *)it->a;
    if (!vm_isinstance_type(obj, owner)) {
        err_format(E_TypeError, "descriptor '%s' for '%s' objects doesn't apply to a '%s' object", sd->name,
                   type_name_of_type(owner), type_name(obj));
        return NULL;
    }
    return wrapper_new(owner, (int)it->i, obj);
}

static Obj sb_finish_or_null(StrBuf *b) { return sb_finish(b); }

static Obj wrapperdescr_repr(Obj w)
{
    IterObj *it = ITER(w);
    const SlotDef *sd = &slotdefs[it->i];
    if (sd->kind == WK_NEW) {
        uint64_t addr = vm_object_id(it->a);
        return str_from_format("<built-in method __new__ of type object at %#lx>", (unsigned long)addr);
    }
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "<slot wrapper '%s' of '%s' objects>", sd->name, type_name_of_type((TypeObj *)it->a));
    return sb_finish_or_null(&b);
}

static Obj methwrapper_call(Obj w, Obj *args, size_t nargs, Obj kwnames)
{
    size_t nkw = kwnames ? (size_t)TUPLE_LEN(kwnames) : 0;
    Obj *r = vm_roots((int)(nargs + nkw + 2));
    r[nargs + nkw + 1] = w;
    r[0] = (ITER(w))->c;
    for (size_t i = 0; i < nargs + nkw; i++)
        r[i + 1] = args[i];
    w = r[nargs + nkw + 1];
    IterObj *it = ITER(w);
    Obj res = wrapper_call_slot((TypeObj *)it->a, &slotdefs[it->i], r, nargs + 1, kwnames);
    vm_unroots(r);
    return res;
}

static Obj methwrapper_repr(Obj w)
{
    Obj *r = vm_roots(1);
    r[0] = w;
    uint64_t addr = vm_object_id((ITER(w))->c);
    w = r[0];
    vm_unroots(r);
    IterObj *it = ITER(w);
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "<method-wrapper '%s' of %s object at %#lx>", slotdefs[it->i].name, type_name(it->c),
              (unsigned long)addr);
    return sb_finish(&b);
}

static Obj methwrapper_richcompare(Obj a, Obj b, int op)
{
    if ((op != CMP_EQ && op != CMP_NE) || TYPE(b) != T_method_wrapper)
        return g_NotImplemented;
    IterObj *x = ITER(a), *y = ITER(b);
    bool eq = x->c == y->c && x->i == y->i && x->a == y->a;
    return vm_bool(op == CMP_EQ ? eq : !eq);
}

static int64_t methwrapper_hash(Obj w)
{
    Obj *r = vm_roots(1);
    r[0] = w;
    int64_t h = vm_identity_hash((ITER(w))->c);
    w = r[0];
    vm_unroots(r);
    h ^= (ITER(w))->i * 1000003;
    return h == -1 ? -2 : h;
}

/* A slot wrapper's signature as CPython's slot table gives it (inspect.signature
 * of object.__init__ and the like: pluggy's varnames). */
static Obj wrapper_text_signature_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    const SlotDef *sd = &slotdefs[ITER(args[0])->i];
    const char *sig = "($self, /)";
    switch (sd->kind) {
    case WK_CMP: case WK_BIN: case WK_RBIN: case WK_IBIN:
        sig = strcmp(sd->name, "__pow__") == 0 || strcmp(sd->name, "__rpow__") == 0 ? "($self, value, mod=None, /)"
                                                                                     : "($self, value, /)";
        break;
    case WK_CALL: case WK_INIT: sig = "($self, /, *args, **kwargs)"; break;
    case WK_NEW: sig = "($type, *args, **kwargs)"; break;
    case WK_GETATTR: case WK_DELATTR: sig = "($self, name, /)"; break;
    case WK_SETATTR: sig = "($self, name, value, /)"; break;
    case WK_GET: sig = "($self, instance, owner=None, /)"; break;
    case WK_SET: sig = "($self, instance, value, /)"; break;
    case WK_DELETE: sig = "($self, instance, /)"; break;
    case WK_GETITEM: case WK_DELITEM: case WK_CONTAINS: sig = "($self, key, /)"; break;
    case WK_SETITEM: sig = "($self, key, value, /)"; break;
    default: break;   /* unary ones, __hash__, __next__, __len__, __bool__ */
    }
    return str_from_cstr(sig);
}

static Obj wrapper_name_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return (ITER(args[0]))->b;
}

static Obj wrapper_qualname_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    IterObj *it = ITER(args[0]);
    return str_from_format("%s.%s", type_name_of_type((TypeObj *)it->a), slotdefs[it->i].name);
}

static Obj wrapper_objclass_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return (ITER(args[0]))->a;
}

static Obj wrapper_self_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return (ITER(args[0]))->c;
}

/* T.__new__ is CPython's built-in method bound to T: its __self__ is the
 * type (copyreg's protocol 0/1 pickling reads it); other slot wrappers have
 * no __self__. */
static Obj wrapperdescr_self_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    IterObj *it = ITER(args[0]);
    if (slotdefs[it->i].slot == S_NEW)
        return it->a;
    err_format(E_AttributeError, "'wrapper_descriptor' object has no attribute '__self__'");
    return NULL;
}

static Obj none_get(Obj *args, size_t nargs, Obj kw)
{
    (void)args, (void)nargs, (void)kw;
    return g_None;
}

/* ------------------------------------------------------------------ */
/* getset descriptors (type_add_getset)                                */
/* ------------------------------------------------------------------ */
static Obj getset_get(Obj d, Obj obj, Obj type)
{
    (void)type;
    if (!obj)
        return d;
    IterObj *it = ITER(d);
    TypeObj *owner = (TypeObj *)it->a;
    if (!vm_isinstance_type(obj, owner)) {
        err_format(E_TypeError, "descriptor '%s' for '%s' objects doesn't apply to a '%s' object",
                   str_cstr(it->b), type_name_of_type(owner), type_name(obj));
        return NULL;
    }
    cfunc getter = (cfunc)(uintptr_t)it->i;
    if (!getter) {
        err_format(E_AttributeError, "attribute '%s' of '%s' objects is not readable", str_cstr(it->b),
                   type_name_of_type(owner));
        return NULL;
    }
    Obj *r = vm_roots(1);
    r[0] = obj;
    Obj res = getter(r, 1, NULL);
    vm_unroots(r);
    return res;
}

static int getset_set(Obj d, Obj obj, Obj v)
{
    IterObj *it = ITER(d);
    TypeObj *owner = (TypeObj *)it->a;
    cfunc setter = (cfunc)(uintptr_t)it->n;
    if (!setter) {
        err_format(E_AttributeError, "attribute '%s' of '%s' objects is not writable", str_cstr(it->b),
                   type_name_of_type(owner));
        return -1;
    }
    if (!vm_isinstance_type(obj, owner)) {
        err_format(E_TypeError, "descriptor '%s' for '%s' objects doesn't apply to a '%s' object",
                   str_cstr(it->b), type_name_of_type(owner), type_name(obj));
        return -1;
    }
    Obj *r = vm_roots(2);
    r[0] = obj;
    r[1] = v;
    Obj res = setter(r, 2, NULL);
    vm_unroots(r);
    return res ? 0 : -1;
}

static Obj getset_repr(Obj d)
{
    IterObj *it = ITER(d);
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "<attribute '%s' of '%s' objects>", str_cstr(it->b), type_name_of_type((TypeObj *)it->a));
    return sb_finish(&b);
}

/* ------------------------------------------------------------------ */
/* member descriptors: __slots__ entries (values in InstanceHObj.slots), */
/* and read-only fields of built-in types (type_add_member)             */
/* ------------------------------------------------------------------ */
Obj member_new(TypeObj *owner, Obj name, int64_t index)
{
    Obj *r = vm_roots(1);
    r[0] = name;
    Obj m = (Obj)tm_allocate(TID_ITER, sizeof(struct IterObj_));
    if (m) {
        IterObj *it = ITER(m);
        it->cls = (Obj)T_member_descriptor;
        it->a = (Obj)owner;
        it->b = r[0];
        it->i = index;
        it->kind = MEMBER_SLOT;
    }
    vm_unroots(r);
    return m ? m : err_nomemory();
}

static bool member_check(Obj d, Obj obj)
{
    IterObj *it = ITER(d);
    if (vm_isinstance_type(obj, (TypeObj *)it->a))
        return true;
    err_format(E_TypeError, "descriptor '%s' for '%s' objects doesn't apply to a '%s' object", str_cstr(it->b),
               type_name_of_type((TypeObj *)it->a), type_name(obj));
    return false;
}

static Obj member_get(Obj d, Obj obj, Obj type)
{
    (void)type;
    if (!obj)
        return d;
    if (!member_check(d, obj))
        return NULL;
    IterObj *it = ITER(d);
    if (it->kind == MEMBER_C)
        return ((cfunc)(uintptr_t)it->n)(&obj, 1, NULL);
    Obj v = NULL;
    if (TID(obj) == TID_INSTANCE) {
        Obj arr = INSTH(obj)->slots;
        if (arr && it->i < ARRAY(arr)->length)
            v = ARRAY(arr)->items[it->i];
    } else {
        Obj __seg_gs *slot = vm_dict_slot(obj);
        if (slot && *slot)
            v = dict_getitem_str(*slot, it->b);
    }
    if (!v)
        return err_no_attr(obj, it->b);
    return v;
}

static int member_set(Obj d, Obj obj, Obj v)
{
    if (!member_check(d, obj))
        return -1;
    IterObj *it = ITER(d);
    if (it->kind == MEMBER_C) {
        if (!it->i) {
            err_set(E_AttributeError, "readonly attribute");
            return -1;
        }
        Obj a[2] = {obj, v};
        return ((cfunc)(uintptr_t)it->i)(a, 2, NULL) ? 0 : -1;
    }
    if (TID(obj) != TID_INSTANCE) {
        /* exceptions: no slot storage of their own, the dict holds it */
        Obj *r = vm_roots(2);
        r[0] = d;
        r[1] = v;
        Obj dict = vm_instance_dict(obj);
        int rc = -1;
        if (dict)
            rc = r[1] ? dict_setitem(dict, (ITER(r[0]))->b, r[1]) : dict_delitem(dict, (ITER(r[0]))->b);
        vm_unroots(r);
        return rc;
    }
    Obj arr = INSTH(obj)->slots;
    int64_t need = TYPE(obj)->nslots;
    if (it->i >= need)
        need = it->i + 1;
    if (!arr || ARRAY(arr)->length < need) {
        if (!v) {
            err_set_value(E_AttributeError, it->b);
            return -1;
        }
        Obj *r = vm_roots(4);
        r[0] = d;
        r[1] = obj;
        r[2] = v;
        r[3] = arr;
        Obj na = array_new(need);
        if (!na) {
            vm_unroots(r);
            return -1;
        }
        if (r[3])
            for (int64_t k = 0; k < ARRAY(r[3])->length; k++)
                ARRAY(na)->items[k] = ARRAY(r[3])->items[k];
        obj = r[1];
        v = r[2];
        it = ITER(r[0]);
        vm_unroots(r);
        VM_WRITE(obj);
        INSTH(obj)->slots = na;
        arr = na;
    }
    if (!v && !ARRAY(arr)->items[it->i]) {
        err_set_value(E_AttributeError, it->b);
        return -1;
    }
    VM_WRITE(arr);
    ARRAY(arr)->items[it->i] = v;
    return 0;
}

static Obj member_repr(Obj d)
{
    IterObj *it = ITER(d);
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "<member '%s' of '%s' objects>", str_cstr(it->b), type_name_of_type((TypeObj *)it->a));
    return sb_finish(&b);
}

static Obj member_doc_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    IterObj *it = ITER(args[0]);
    return it->kind == MEMBER_C ? it->c : g_None;
}

/* The types of the descriptors above (created early by object_init_types:
 * type_add_getset needs getset_descriptor before any type is filled). */
void descr_init_attr_types(void)
{
    TypeObj *t;

    t = T_wrapper_descriptor;
    t->tp_call = wrapperdescr_call;
    t->tp_descr_get = wrapperdescr_get;
    t->tp_repr = wrapperdescr_repr;
    type_add_getset(t, "__name__", wrapper_name_get, NULL);
    type_add_getset(t, "__qualname__", wrapper_qualname_get, NULL);
    type_add_getset(t, "__objclass__", wrapper_objclass_get, NULL);
    type_add_getset(t, "__self__", wrapperdescr_self_get, NULL);
    type_add_getset(t, "__doc__", none_get, NULL);
    type_add_getset(t, "__text_signature__", wrapper_text_signature_get, NULL);
    type_ready(t);
    t = T_method_wrapper;
    t->tp_call = methwrapper_call;
    t->tp_repr = methwrapper_repr;
    t->tp_richcompare = methwrapper_richcompare;
    t->tp_hash = methwrapper_hash;
    type_add_getset(t, "__name__", wrapper_name_get, NULL);
    type_add_getset(t, "__qualname__", wrapper_qualname_get, NULL);
    type_add_getset(t, "__self__", wrapper_self_get, NULL);
    type_add_getset(t, "__objclass__", wrapper_objclass_get, NULL);
    type_add_getset(t, "__doc__", none_get, NULL);
    type_add_getset(t, "__text_signature__", wrapper_text_signature_get, NULL);
    type_ready(t);
    t = T_getset_descriptor;
    t->tp_descr_get = getset_get;
    t->tp_descr_set = getset_set;
    t->tp_repr = getset_repr;
    type_add_getset(t, "__name__", wrapper_name_get, NULL);
    type_add_getset(t, "__objclass__", wrapper_objclass_get, NULL);
    type_add_getset(t, "__doc__", none_get, NULL);
    type_ready(t);
    t = T_member_descriptor;
    t->tp_descr_get = member_get;
    t->tp_descr_set = member_set;
    t->tp_repr = member_repr;
    type_add_getset(t, "__name__", wrapper_name_get, NULL);
    type_add_getset(t, "__objclass__", wrapper_objclass_get, NULL);
    type_add_getset(t, "__doc__", member_doc_get, NULL);
    type_ready(t);
}
