/* super(): attribute lookup that starts after a class in an object's MRO. */
#include "objects.h"

#include <stdlib.h>
#include <string.h>

TypeObj *T_super;

#define SUPER(v) ((SuperObj *)(v))

static TypeObj *supercheck(TypeObj *type, Obj obj)
{
    if (IS_TYPE(obj) && type_is_subtype((TypeObj *)obj, type))
        return (TypeObj *)obj;
    if (vm_isinstance_type(obj, type))
        return TYPE(obj);
    err_set(E_TypeError, "super(type, obj): obj must be an instance or subtype of type");
    return NULL;
}

static Obj super_new_obj(Obj type, Obj obj)
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
    if (vm_check_args("super", nargs, kwnames, 0, -1) < 0)
        return NULL;
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
    if (type != (Obj)T_super && !IS_TYPE(args[0])) {
        /* a subclass's call goes through CPython's argument parser, with its wording */
        err_format(E_TypeError, "super() argument 1 must be type, not %s", type_name(args[0]));
        return NULL;
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
    Obj u = vm_unwrap(self);   /* an instance of a subclass of super wraps one */
    if (TID(u) != TID_SUPER)   /* (one made by object.__new__ has none) */
        return vm_generic_getattr(self, name);
    SuperObj *s = SUPER(u);
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
    r[0] = self = vm_unwrap(self);
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

static Obj super_thisclass_get(Obj *a, size_t n, Obj k) { (void)n, (void)k; return SUPER(vm_unwrap(a[0]))->type; }
static Obj super_self_get(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    Obj o = SUPER(vm_unwrap(a[0]))->obj;
    return o ? o : g_None;
}
static Obj super_self_class_get(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    Obj o = SUPER(vm_unwrap(a[0]))->obj_type;
    return o ? o : g_None;
}

void super_init_type(void)
{
    TypeObj *t;

    t = T_super = (TypeObj *)type_new_builtin("super", T_object, TID_SUPER, TPF_BASETYPE);
    t->tp_new = super_tp_new;
    t->tp_init = super_tp_init;
    t->tp_getattro = super_getattro;
    t->tp_repr = super_repr;
    type_add_getset(t, "__thisclass__", super_thisclass_get, NULL);
    type_add_getset(t, "__self__", super_self_get, NULL);
    type_add_getset(t, "__self_class__", super_self_class_get, NULL);
    type_ready(t);
}
