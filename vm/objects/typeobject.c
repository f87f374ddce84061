/* Type objects: built-in type creation (type_new_builtin, type_ready), the
 * slot <-> dunder bridges in both directions (calling a C slot as __add__ &
 * co. for the slot wrappers, and slot functions that call a class's Python
 * dunders), classes (class statements, type(name, bases, dict), C3 MRO,
 * __slots__, __init_subclass__, __set_name__), and the `object` and `type`
 * types themselves. Attribute lookup and its cache: typelookup.c;
 * descriptors: descrobject.c; `int | None`, `list[int]`: genericalias.c.
 *
 * Identity hash (object.__hash__): objects move, so instances and
 * exceptions keep a counter-based hash in a hidden word (identity.c,
 * vm_identity_hash); other objects hash on their address once old.
 */
#include "objects.h"
#include "containers.h"
#include "slotdefs.h"
#include "strobj.h"

#include <stdlib.h>
#include <string.h>
static Obj vm_new_for(TypeObj *owner, Obj cls, Obj *args, size_t nargs, Obj kwnames);
static int object_init(Obj self, Obj *args, size_t nargs, Obj kwnames);

static int check_type_name(Obj name);

TypeObj *T_object, *T_type, *T_NoneType, *T_NotImplementedType, *T_ellipsis, *T_capsule;
/* The eval layer makes these types (func_init_types); vm_call and TYPE() read them. */
TypeObj *T_function, *T_code, *T_cell, *T_method;
TypeObj *vm_tid_type[TID_COUNT];   /* filled at start-up (vm_init_types, startup.c) */

/* ------------------------------------------------------------------ */
/* Slot ids and their accessors                                       */
/* ------------------------------------------------------------------ */
typedef void (*anyfn)(void);

static anyfn slot_get(TypeObj *t, int s)
{
    if (s >= S_NBI)
        return (anyfn)t->nb_inplace[s - S_NBI];
    if (s >= S_NB)
        return (anyfn)t->nb[s - S_NB];
    switch (s) {
    case S_REPR: return (anyfn)t->tp_repr;
    case S_STR: return (anyfn)t->tp_str;
    case S_HASH: return (anyfn)t->tp_hash;
    case S_RICHCMP: return (anyfn)t->tp_richcompare;
    case S_ITER: return (anyfn)t->tp_iter;
    case S_NEXT: return (anyfn)t->tp_iternext;
    case S_CALL: return (anyfn)t->tp_call;
    case S_GETATTRO: return (anyfn)t->tp_getattro;
    case S_SETATTRO: return (anyfn)t->tp_setattro;
    case S_DGET: return (anyfn)t->tp_descr_get;
    case S_DSET: return (anyfn)t->tp_descr_set;
    case S_LEN: return (anyfn)t->tp_len;
    case S_GETITEM: return (anyfn)t->tp_getitem;
    case S_SETITEM: return (anyfn)t->tp_setitem;
    case S_CONTAINS: return (anyfn)t->tp_contains;
    case S_BOOL: return (anyfn)t->tp_bool;
    case S_NEW: return (anyfn)t->tp_new;
    case S_INIT: return (anyfn)t->tp_init;
    case S_NEG: return (anyfn)t->nb_neg;
    case S_POS: return (anyfn)t->nb_pos;
    case S_INVERT: return (anyfn)t->nb_invert;
    case S_INT: return (anyfn)t->nb_int;
    case S_FLOAT: return (anyfn)t->nb_float;
    case S_INDEX: return (anyfn)t->nb_index;
    case S_ABS: return (anyfn)t->nb_abs;
    }
    return NULL;
}

static void slot_set(TypeObj *t, int s, anyfn f)
{
    VM_WRITE_RARE(t);
    if (s >= S_NBI) {
        t->nb_inplace[s - S_NBI] = (binaryfunc)f;
        return;
    }
    if (s >= S_NB) {
        t->nb[s - S_NB] = (binaryfunc)f;
        return;
    }
    switch (s) {
    case S_REPR: t->tp_repr = (unaryfunc)f; break;
    case S_STR: t->tp_str = (unaryfunc)f; break;
    case S_HASH: t->tp_hash = (hashfunc)f; break;
    case S_RICHCMP: t->tp_richcompare = (richcmpfunc)f; break;
    case S_ITER: t->tp_iter = (unaryfunc)f; break;
    case S_NEXT: t->tp_iternext = (unaryfunc)f; break;
    case S_CALL: t->tp_call = (vectorcallfunc)f; break;
    case S_GETATTRO: t->tp_getattro = (getattrofunc)f; break;
    case S_SETATTRO: t->tp_setattro = (setattrofunc)f; break;
    case S_DGET: t->tp_descr_get = (descrgetfunc)f; break;
    case S_DSET: t->tp_descr_set = (descrsetfunc)f; break;
    case S_LEN: t->tp_len = (lenfunc)f; break;
    case S_GETITEM: t->tp_getitem = (binaryfunc)f; break;
    case S_SETITEM: t->tp_setitem = (objobjargproc)f; break;
    case S_CONTAINS: t->tp_contains = (objobjproc)f; break;
    case S_BOOL: t->tp_bool = (inquiry)f; break;
    case S_NEW: t->tp_new = (newfunc)f; break;
    case S_INIT: t->tp_init = (initfunc)f; break;
    case S_NEG: t->nb_neg = (unaryfunc)f; break;
    case S_POS: t->nb_pos = (unaryfunc)f; break;
    case S_INVERT: t->nb_invert = (unaryfunc)f; break;
    case S_INT: t->nb_int = (unaryfunc)f; break;
    case S_FLOAT: t->nb_float = (unaryfunc)f; break;
    case S_INDEX: t->nb_index = (unaryfunc)f; break;
    case S_ABS: t->nb_abs = (unaryfunc)f; break;
    }
}

SlotDef slotdefs[SLOTDEFS_MAX];
static int nslotdefs;

static void add_slotdef(const char *name, int slot, int kind, int op)
{
    SlotDef *d = &slotdefs[nslotdefs++];
    d->name = name;
    d->slot = slot;
    d->kind = kind;
    d->op = op;
    d->iname = str_intern_cstr(name);
}

static void init_slotdefs(void)
{
    add_slotdef("__repr__", S_REPR, WK_UNARY, 0);
    add_slotdef("__str__", S_STR, WK_UNARY, 0);
    add_slotdef("__hash__", S_HASH, WK_HASH, 0);
    for (int op = 0; op < 6; op++)
        add_slotdef(vm_cmp_names[op], S_RICHCMP, WK_CMP, op);
    add_slotdef("__iter__", S_ITER, WK_UNARY, 0);
    add_slotdef("__next__", S_NEXT, WK_NEXT, 0);
    add_slotdef("__call__", S_CALL, WK_CALL, 0);
    add_slotdef("__getattribute__", S_GETATTRO, WK_GETATTR, 0);
    add_slotdef("__setattr__", S_SETATTRO, WK_SETATTR, 0);
    add_slotdef("__delattr__", S_SETATTRO, WK_DELATTR, 0);
    add_slotdef("__get__", S_DGET, WK_GET, 0);
    add_slotdef("__set__", S_DSET, WK_SET, 0);
    add_slotdef("__delete__", S_DSET, WK_DELETE, 0);
    add_slotdef("__len__", S_LEN, WK_LEN, 0);
    add_slotdef("__getitem__", S_GETITEM, WK_GETITEM, 0);
    add_slotdef("__setitem__", S_SETITEM, WK_SETITEM, 0);
    add_slotdef("__delitem__", S_SETITEM, WK_DELITEM, 0);
    add_slotdef("__contains__", S_CONTAINS, WK_CONTAINS, 0);
    add_slotdef("__bool__", S_BOOL, WK_BOOL, 0);
    add_slotdef("__new__", S_NEW, WK_NEW, 0);
    add_slotdef("__init__", S_INIT, WK_INIT, 0);
    add_slotdef("__neg__", S_NEG, WK_UNARY, 0);
    add_slotdef("__pos__", S_POS, WK_UNARY, 0);
    add_slotdef("__invert__", S_INVERT, WK_UNARY, 0);
    add_slotdef("__int__", S_INT, WK_UNARY, 0);
    add_slotdef("__float__", S_FLOAT, WK_UNARY, 0);
    add_slotdef("__index__", S_INDEX, WK_UNARY, 0);
    add_slotdef("__abs__", S_ABS, WK_UNARY, 0);
    for (int op = 0; op < NB_COUNT; op++) {
        add_slotdef(vm_nb_names[op][0], S_NB + op, WK_BIN, op);
        add_slotdef(vm_nb_names[op][1], S_NB + op, WK_RBIN, op);
        add_slotdef(vm_nb_names[op][2], S_NBI + op, WK_IBIN, op);
    }
}

/* ------------------------------------------------------------------ */
/* Subtype tests                                                      */
/* ------------------------------------------------------------------ */
bool type_is_subtype(TypeObj *a, TypeObj *b)
{
    if (a == b)
        return true;
    Obj mro = a->mro;
    if (mro) {
        int64_t n = TUPLE_LEN(mro);
        for (int64_t i = 0; i < n; i++)
            if ((TypeObj *)TUPLE_ITEMS(mro)[i] == b)
                return true;
        return false;
    }
    for (TypeObj *t = a; t; t = (TypeObj *)t->base)
        if (t == b)
            return true;
    return b == T_object;
}

bool vm_isinstance_type(Obj v, TypeObj *t)
{
    TypeObj *vt = TYPE(v);
    return vt == t || type_is_subtype(vt, t);
}

/* Built-in types whose instances are values without a cls field: their
 * user subclasses wrap the value (InstanceObj.base_value). A module keeps
 * the ModuleType subclass it belongs to in its own cls. */
static inline bool layout_is_value(TypeObj *t)
{
    unsigned tid = t->inst_tid;
    return tid < TID_FIRST_WITH_CLS && tid != TID_MODULE && (tid != TID_ITER || (t->flags & TPF_ITER_VALUE));
}

static TypeObj *vm_builtin_base(TypeObj *t)
{
    TypeObj *s = (TypeObj *)t->solid;
    if (s && layout_is_value(s) && t != s)
        return s;
    return NULL;
}

static inline Obj self_for(TypeObj *owner, Obj self)
{
    return layout_is_value(owner) ? vm_unwrap(self) : self;
}

/* ------------------------------------------------------------------ */
/* Instances and their dicts                                          */
/* ------------------------------------------------------------------ */
Obj instance_new(TypeObj *cls)
{
    unsigned tid = cls->inst_tid;
    Obj o;
    if (tid == TID_EXCEPTION) {
        o = (Obj)tm_allocate(TID_EXCEPTION, sizeof(struct ExceptionHObj_));
        if (!o)
            return err_nomemory();
        EXCH(o)->cls = (Obj)cls;
        EXCH(o)->args = g_empty_tuple;
        if (cls->flags & TPF_HAS_DEL)
            tm_register_finalizer((object_t *)o);   /* gcwork.c calls __del__ once it is unreachable */
        return o;
    }
    if (tid != TID_INSTANCE) {
        err_format(E_TypeError, "object.__new__(%s) is not safe, use %s.__new__()",
                   type_name_of_type(cls), type_name_of_type(cls));
        return NULL;
    }
    o = (Obj)tm_allocate(TID_INSTANCE, sizeof(struct InstanceHObj_));
    if (!o)
        return err_nomemory();
    INSTH(o)->cls = (Obj)cls;
    if (cls->flags & TPF_HAS_DEL)
        tm_register_finalizer((object_t *)o);
    return o;
}

Obj __seg_gs *vm_dict_slot(Obj o)
{
    if (IS_SMALLINT(o))
        return NULL;
    unsigned tid = o->h.tid;
    if (tid >= TID_FIRST_WITH_CLS)
        return tid == TID_TYPE ? NULL : &INST(o)->dict;
    if (tid == TID_FUNCTION)
        return &((FunctionObj *)o)->dict;
    if (tid == TID_ITER && (TYPE(o)->flags & TPF_HEAPTYPE) && is_generic_alias(o))
        return &ITER(o)->c;   /* an instance of a Python subclass of types.GenericAlias */
    if (tid == TID_MODULE)
        return &((ModuleObj *)o)->dict;
    return NULL;
}

/* The write barrier before storing into o's dict slot: functions and modules
 * are read without barriers (VM_WRITE_RARE), instances with them. */
static void vm_write_dict_slot(Obj o)
{
    if (o->h.tid >= TID_FIRST_WITH_CLS || o->h.tid == TID_ITER)
        VM_WRITE(o);
    else
        VM_WRITE_RARE(o);
}

Obj vm_instance_dict(Obj o)
{
    Obj __seg_gs *slot = vm_dict_slot(o);
    if (!slot)
        return NULL;
    VM_READ(o);
    Obj d = *slot;
    if (d)
        return d;
    Obj *r = vm_roots(1);
    r[0] = o;
    d = dict_new();
    o = r[0];
    vm_unroots(r);
    if (!d)
        return NULL;
    slot = vm_dict_slot(o);
    vm_write_dict_slot(o);
    *slot = d;
    return d;
}

/* ------------------------------------------------------------------ */
/* Calling dunders                                                    */
/* ------------------------------------------------------------------ */
static bool is_wrapper(Obj v)
{
    return !IS_SMALLINT(v) && v->h.tid == TID_ITER && (ITER(v))->cls == (Obj)T_wrapper_descriptor;
}


Obj vm_call_dunder(Obj self, Obj name, Obj *args, int nargs, int *found)
{
    Obj f = vm_lookup_type(TYPE(self), name);
    if (!f) {
        if (found)
            *found = 0;
        return NULL;
    }
    if (found)
        *found = 1;
    return vm_call_unbound(f, self, args, nargs);
}

/* Call a dunder with keyword arguments too: f(self, *args, **kw) where the
 * last len(kwnames) of args are keyword values. */
static Obj call_unbound_kw(Obj f, Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    size_t nkw = kwnames ? (size_t)TUPLE_LEN(kwnames) : 0;
    Obj *r = vm_roots((int)(nargs + nkw + 3));
    r[0] = self;
    for (size_t i = 0; i < nargs + nkw; i++)
        r[i + 1] = args[i];
    r[nargs + nkw + 1] = f;
    r[nargs + nkw + 2] = kwnames;
    Obj res;
    if (IS_FUNCTION(f) || (TID(f) == TID_BUILTIN && !((BuiltinObj *)f)->self)) {   /* a bound builtin (gen.__next__ in a class) is no descriptor */
        res = vm_call(f, r, nargs + 1, kwnames);
    } else if (is_wrapper(f) && !(ITER(f))->c) {
        res = wrapper_call_slot((TypeObj *)(ITER(f))->a, &slotdefs[(ITER(f))->i], r, nargs + 1, kwnames);
    } else {
        descrgetfunc g = TYPE(f)->tp_descr_get;
        Obj callee = f;
        if (g) {
            callee = g(f, self, (Obj)TYPE(self));
            if (!callee) {
                vm_unroots(r);
                return NULL;
            }
        }
        r[nargs + nkw + 1] = callee;
        res = vm_call(callee, r + 1, nargs, r[nargs + nkw + 2]);
    }
    vm_unroots(r);
    return res;
}

Obj vm_call_unbound(Obj f, Obj self, Obj *args, int nargs) { return call_unbound_kw(f, self, args, (size_t)nargs, NULL); }

static Obj call_dunder0(Obj self, Obj name, int *found) { return vm_call_dunder(self, name, NULL, 0, found); }

static Obj call_dunder1(Obj self, Obj name, Obj a, int *found)
{
    Obj *r = vm_roots(1);
    r[0] = a;
    Obj res = vm_call_dunder(self, name, r, 1, found);
    vm_unroots(r);
    return res;
}

static Obj call_dunder2(Obj self, Obj name, Obj a, Obj b, int *found)
{
    Obj *r = vm_roots(2);
    r[0] = a;
    r[1] = b;
    Obj res = vm_call_dunder(self, name, r, 2, found);
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* Slot functions of classes: call the Python dunders                 */
/* ------------------------------------------------------------------ */
static Obj no_dunder(Obj self, const char *name)
{
    err_format(E_TypeError, "'%s' object has no method %s", type_name(self), name);
    return NULL;
}

static Obj slot_tp_repr(Obj self)
{
    int found;
    Obj r = call_dunder0(self, NAME(__repr__), &found);
    return found ? r : object_repr(self);
}

static Obj slot_tp_str(Obj self)
{
    int found;
    Obj r = call_dunder0(self, NAME(__str__), &found);
    return found ? r : vm_repr(self);
}

static int64_t hash_from_result(Obj r)
{
    if (IS_SMALLINT(r)) {
        int64_t h = SMALLINT_VAL(r);
        return h == -1 ? -2 : h;
    }
    if (!IS_INT(r)) {
        Obj u = vm_unwrap(r);
        if (!IS_INT(u)) {
            err_set(E_TypeError, "__hash__ method should return an integer");
            return -1;
        }
        r = u;
    }
    if (TID(r) == TID_BOOL)
        return ((BoolObj *)r)->value;
    /* CPython keeps a result that fits a C hash as it is, and reduces only
     * a bigger one as hash(int) does */
    int64_t h;
    if (int_as_i64_saturated(r, &h))
        return h == -1 ? -2 : h;
    return int_hash(r);
}

static int64_t slot_tp_hash(Obj self)
{
    Obj f = vm_lookup_type(TYPE(self), NAME(__hash__));
    if (!f || f == g_None) {
        err_format(E_TypeError, "unhashable type: '%s'", type_name(self));
        return -1;
    }
    Obj r = vm_call_unbound(f, self, NULL, 0);
    if (!r)
        return -1;
    return hash_from_result(r);
}

static Obj slot_tp_richcompare(Obj self, Obj other, int op)
{
    static Obj *names[6] = {&vm_names[VMN___lt__], &vm_names[VMN___le__], &vm_names[VMN___eq__],
                            &vm_names[VMN___ne__], &vm_names[VMN___gt__], &vm_names[VMN___ge__]};
    Obj f = vm_lookup_type(TYPE(self), *names[op]);
    if (!f)
        return g_NotImplemented;
    if (is_wrapper(f) && !(ITER(f))->c) {
        TypeObj *owner = (TypeObj *)(ITER(f))->a;
        if (owner->tp_richcompare)
            return owner->tp_richcompare(self_for(owner, self), layout_is_value(owner) ? vm_unwrap(other) : other, op);
    }
    Obj *r = vm_roots(1);
    r[0] = other;
    Obj res = vm_call_unbound(f, self, r, 1);
    vm_unroots(r);
    return res;
}

static Obj slot_tp_iter(Obj self)
{
    Obj f = vm_lookup_type(TYPE(self), NAME(__iter__));
    if (!f || f == g_None) {
        err_format(E_TypeError, "'%s' object is not iterable", type_name(self));
        return NULL;
    }
    return vm_call_unbound(f, self, NULL, 0);
}

static Obj slot_tp_iternext(Obj self)
{
    int found;
    Obj r = call_dunder0(self, NAME(__next__), &found);
    if (!found)
        return no_dunder(self, "__next__");
    if (!r && err_matches(E_StopIteration))
        err_clear();
    return r;
}

static Obj slot_tp_call(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    Obj f = vm_lookup_type(TYPE(self), NAME(__call__));
    if (!f) {
        err_format(E_TypeError, "'%s' object is not callable", type_name(self));
        return NULL;
    }
    return call_unbound_kw(f, self, args, nargs, kwnames);
}

static Obj slot_tp_getattr_hook(Obj self, Obj name)
{
    Obj *r = vm_roots(2);
    r[0] = self;
    r[1] = name;
    const TypeAttr *at = type_lookup_where(TYPE(self), NAME(__getattribute__));
    TypeObj *where = at->owner;
    Obj ga = type_attr_value(at);
    Obj res;
    if (!ga || !(where->flags & TPF_HEAPTYPE))
        res = (where && where->tp_getattro) ? where->tp_getattro(self, name) : vm_generic_getattr(self, name);
    else
        res = vm_call_unbound(ga, self, &r[1], 1);
    if (!res && err_matches(E_AttributeError)) {
        Obj g = vm_lookup_type(TYPE(r[0]), NAME(__getattr__));
        if (g) {
            err_clear();
            res = vm_call_unbound(g, r[0], &r[1], 1);
        }
    }
    vm_unroots(r);
    return res;
}

static int slot_tp_setattro(Obj self, Obj name, Obj v)
{
    Obj res = v ? call_dunder2(self, NAME(__setattr__), name, v, NULL)
                : call_dunder1(self, NAME(__delattr__), name, NULL);
    return res ? 0 : -1;
}

static Obj slot_tp_descr_get(Obj self, Obj obj, Obj type)
{
    int found;
    Obj r = call_dunder2(self, NAME(__get__), obj ? obj : g_None, type ? type : g_None, &found);
    if (!found)
        return self;
    return r;
}

static int slot_tp_descr_set(Obj self, Obj obj, Obj v)
{
    int found;
    Obj res = v ? call_dunder2(self, NAME(__set__), obj, v, &found)
                : call_dunder1(self, NAME(__delete__), obj, &found);
    if (!found) {
        err_set(E_AttributeError, v ? "__set__" : "__delete__");
        return -1;
    }
    return res ? 0 : -1;
}

/* __len__ / __index__ style results. */
static int64_t len_from_result(Obj r)
{
    Obj *root = vm_roots(1);
    root[0] = r;
    Obj i = vm_index(r);
    vm_unroots(root);
    if (!i)
        return -1;
    if (int_sign(i) < 0) {
        err_set(E_ValueError, "__len__() should return >= 0");
        return -1;
    }
    int64_t n;
    if (IS_SMALLINT(i))
        return SMALLINT_VAL(i);
    if (int_as_i64(i, &n) < 0) {
        err_clear();
        err_set(E_OverflowError, "cannot fit 'int' into an index-sized integer");
        return -1;
    }
    return n;
}

static int64_t slot_tp_len(Obj self)
{
    int found;
    Obj r = call_dunder0(self, NAME(__len__), &found);
    if (!found) {
        err_format(E_TypeError, "object of type '%s' has no len()", type_name(self));
        return -1;
    }
    if (!r)
        return -1;
    return len_from_result(r);
}

static Obj slot_tp_getitem(Obj self, Obj key)
{
    int found;
    Obj r = call_dunder1(self, NAME(__getitem__), key, &found);
    if (!found) {
        err_format(E_TypeError, "'%s' object is not subscriptable", type_name(self));
        return NULL;
    }
    return r;
}

static int slot_tp_setitem(Obj self, Obj key, Obj v)
{
    int found;
    Obj res = v ? call_dunder2(self, NAME(__setitem__), key, v, &found)
                : call_dunder1(self, NAME(__delitem__), key, &found);
    if (!found) {
        if (v)
            err_format(E_TypeError, "'%s' object does not support item assignment", type_name(self));
        else
            vm_delitem_error(self, key);
        return -1;
    }
    return res ? 0 : -1;
}

static int slot_tp_contains(Obj self, Obj item)
{
    Obj f = vm_lookup_type(TYPE(self), NAME(__contains__));
    if (!f || f == g_None) {
        /* Fall back to iteration, like CPython. */
        Obj *r = vm_roots(2);
        r[1] = item;
        r[0] = vm_iter(self);
        int res = 0;
        if (!r[0]) {
            vm_unroots(r);
            return -1;
        }
        for (;;) {
            Obj x = vm_next(r[0]);
            if (!x) {
                res = err_occurred() ? -1 : 0;
                break;
            }
            int eq = vm_equal(x, r[1]);
            if (eq != 0) {
                res = eq;
                break;
            }
        }
        vm_unroots(r);
        return res;
    }
    Obj *r = vm_roots(1);
    r[0] = item;
    Obj res = vm_call_unbound(f, self, r, 1);
    vm_unroots(r);
    if (!res)
        return -1;
    return vm_is_true(res);
}

static int slot_tp_bool(Obj self)
{
    Obj f = vm_lookup_type(TYPE(self), NAME(__bool__));
    if (f) {
        Obj r = vm_call_unbound(f, self, NULL, 0);
        if (!r)
            return -1;
        if (r == g_True)
            return 1;
        if (r == g_False)
            return 0;
        err_format(E_TypeError, "__bool__ should return bool, returned %s", type_name(r));
        return -1;
    }
    f = vm_lookup_type(TYPE(self), NAME(__len__));
    if (f) {
        Obj r = vm_call_unbound(f, self, NULL, 0);
        if (!r)
            return -1;
        int64_t n = len_from_result(r);
        return n < 0 ? -1 : n != 0;
    }
    return 1;
}

static Obj slot_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    Obj f = vm_lookup_type((TypeObj *)type, NAME(__new__));
    if (!f) {
        err_format(E_TypeError, "cannot create '%s' instances", type_name_of_type((TypeObj *)type));
        return NULL;
    }
    if (TID(f) == TID_STATICMETHOD)
        f = ((StaticMethodObj *)f)->func;
    size_t nkw = kwnames ? (size_t)TUPLE_LEN(kwnames) : 0;
    Obj *r = vm_roots((int)(nargs + nkw + 2));
    r[0] = type;
    for (size_t i = 0; i < nargs + nkw; i++)
        r[i + 1] = args[i];
    r[nargs + nkw + 1] = f;
    Obj res = vm_call(f, r, nargs + 1, kwnames);
    vm_unroots(r);
    return res;
}

static int slot_tp_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    Obj f = vm_lookup_type(TYPE(self), NAME(__init__));
    if (!f)
        return 0;
    Obj res = call_unbound_kw(f, self, args, nargs, kwnames);
    if (!res)
        return -1;
    if (res != g_None) {
        err_format(E_TypeError, "__init__() should return None, not '%s'", type_name(res));
        return -1;
    }
    return 0;
}

static Obj slot_unary(Obj self, Obj name, const char *cname)
{
    int found;
    Obj r = call_dunder0(self, name, &found);
    if (!found)
        return no_dunder(self, cname);
    return r;
}
static Obj slot_un_neg(Obj v) { return slot_unary(v, NAME(__neg__), "__neg__"); }
static Obj slot_un_pos(Obj v) { return slot_unary(v, NAME(__pos__), "__pos__"); }
static Obj slot_un_invert(Obj v) { return slot_unary(v, NAME(__invert__), "__invert__"); }
static Obj slot_un_int(Obj v) { return slot_unary(v, NAME(__int__), "__int__"); }
static Obj slot_un_float(Obj v) { return slot_unary(v, NAME(__float__), "__float__"); }
static Obj slot_un_index(Obj v) { return slot_unary(v, NAME(__index__), "__index__"); }
static Obj slot_un_abs(Obj v) { return slot_unary(v, NAME(__abs__), "__abs__"); }

/* Binary operators: CPython's SLOT1BINFULL. The slot is called with the
 * operands in source order; it works out which side is "self". */
static Obj nb_name(int op, int which) { return vm_intern_cached(vm_nb_names[op][which]); }

static Obj slot_nb_impl(int op, Obj a, Obj b, binaryfunc self_fn)
{
    Obj *r = vm_roots(2);
    r[0] = a;
    r[1] = b;
    TypeObj *ta = TYPE(a), *tb = TYPE(b);
    bool do_other = ta != tb && tb->nb[op] == self_fn;
    Obj res;
    int found;
    if (ta->nb[op] == self_fn) {
        if (do_other && type_is_subtype(tb, ta)) {
            Obj rname = nb_name(op, 1);
            Obj fb = vm_lookup_type(tb, rname), fa = vm_lookup_type(ta, rname);
            if (fb && fb != fa) {
                res = call_dunder1(r[1], rname, r[0], &found);
                if (found && res != g_NotImplemented)
                    goto out;
                do_other = false;
            }
        }
        res = call_dunder1(r[0], nb_name(op, 0), r[1], &found);
        if (!found)
            res = g_NotImplemented;
        if (res != g_NotImplemented || TYPE(r[0]) == TYPE(r[1]))
            goto out;
    }
    if (do_other) {
        res = call_dunder1(r[1], nb_name(op, 1), r[0], &found);
        if (!found)
            res = g_NotImplemented;
        goto out;
    }
    res = g_NotImplemented;
out:
    vm_unroots(r);
    return res;
}

static Obj slot_nbi_impl(int op, Obj a, Obj b)
{
    int found;
    Obj res = call_dunder1(a, nb_name(op, 2), b, &found);
    return found ? res : g_NotImplemented;
}

#define NB_SLOTS(n) \
    static Obj slot_nb_##n(Obj a, Obj b) { return slot_nb_impl(n, a, b, slot_nb_##n); } \
    static Obj slot_nbi_##n(Obj a, Obj b) { return slot_nbi_impl(n, a, b); }
NB_SLOTS(0) NB_SLOTS(1) NB_SLOTS(2) NB_SLOTS(3) NB_SLOTS(4) NB_SLOTS(5) NB_SLOTS(6)
NB_SLOTS(7) NB_SLOTS(8) NB_SLOTS(9) NB_SLOTS(10) NB_SLOTS(11) NB_SLOTS(12) NB_SLOTS(13)
#define NB_LIST(p) {p##0, p##1, p##2, p##3, p##4, p##5, p##6, p##7, p##8, p##9, p##10, p##11, p##12, p##13}
static const binaryfunc slot_nb_fns[NB_COUNT] = NB_LIST(slot_nb_);
static const binaryfunc slot_nbi_fns[NB_COUNT] = NB_LIST(slot_nbi_);

/* ------------------------------------------------------------------ */
/* Adapters: inherited built-in slots of `class L(list)` instances     */
/* (the built-in slot receives the wrapped value).                    */
/* ------------------------------------------------------------------ */
static inline TypeObj *vbase_of(Obj self) { return (TypeObj *)TYPE(self)->solid; }

static Obj base_value_missing(Obj self)
{
    err_format(E_TypeError, "'%s' object is not initialized (no %s value)", type_name(self),
               type_name_of_type(vbase_of(self)));
    return NULL;
}
#define UNWRAP_OR(self, fail) \
    Obj u_##self = vm_unwrap(self); \
    if (unlikely(u_##self == self && TID(self) == TID_INSTANCE)) { base_value_missing(self); return fail; }

/* repr/str get the instance itself: the built-in unwraps it, and some show
 * the class name (S({1, 2}), B(b'x')) or go back through the class's __repr__. */
static Obj ad_repr(Obj s) { UNWRAP_OR(s, NULL) (void)u_s; return vbase_of(s)->tp_repr(s); }
static Obj ad_str(Obj s) { UNWRAP_OR(s, NULL) (void)u_s; return vbase_of(s)->tp_str(s); }
static int64_t ad_hash(Obj s) { UNWRAP_OR(s, -1) return vbase_of(s)->tp_hash(u_s); }
static Obj ad_richcmp(Obj s, Obj o, int op) { UNWRAP_OR(s, NULL) return vbase_of(s)->tp_richcompare(u_s, vm_unwrap(o), op); }
static Obj ad_iter(Obj s)
{
    UNWRAP_OR(s, NULL)
    unaryfunc f = vbase_of(s)->tp_iter;
    /* an iterator subclass (class E(enumerate)) is its own iterator: its __next__ runs */
    return f == iter_self ? s : f(u_s);
}
static Obj ad_next(Obj s) { UNWRAP_OR(s, NULL) return vbase_of(s)->tp_iternext(u_s); }
static int64_t ad_len(Obj s) { UNWRAP_OR(s, -1) return vbase_of(s)->tp_len(u_s); }
static Obj ad_getitem(Obj s, Obj k)
{
    UNWRAP_OR(s, NULL)
    TypeObj *b = vbase_of(s);
    if (b != T_dict)
        return b->tp_getitem(u_s, k);
    /* dict subclasses: __missing__ */
    Obj *r = vm_roots(2);
    r[0] = s;
    r[1] = k;
    Obj res = b->tp_getitem(u_s, k);
    if (!res && err_matches(E_KeyError)) {
        Obj m = vm_lookup_type(TYPE(r[0]), NAME(__missing__));
        if (m) {
            err_clear();
            res = vm_call_unbound(m, r[0], &r[1], 1);
        }
    }
    vm_unroots(r);
    return res;
}
static int ad_setitem(Obj s, Obj k, Obj v) { UNWRAP_OR(s, -1) return vbase_of(s)->tp_setitem(u_s, k, v); }
static int ad_contains(Obj s, Obj k) { UNWRAP_OR(s, -1) return vbase_of(s)->tp_contains(u_s, k); }
static int ad_bool(Obj s) { UNWRAP_OR(s, -1) return vbase_of(s)->tp_bool(u_s); }
static int ad_init(Obj s, Obj *args, size_t nargs, Obj kw) { UNWRAP_OR(s, -1) return vbase_of(s)->tp_init(u_s, args, nargs, kw); }
static Obj ad_dget(Obj s, Obj o, Obj t) { UNWRAP_OR(s, NULL) return vbase_of(s)->tp_descr_get(u_s, o, t); }
static int ad_dset(Obj s, Obj o, Obj v) { UNWRAP_OR(s, -1) return vbase_of(s)->tp_descr_set(u_s, o, v); }
static Obj ad_call(Obj s, Obj *args, size_t nargs, Obj kw) { UNWRAP_OR(s, NULL) return vbase_of(s)->tp_call(u_s, args, nargs, kw); }
static Obj ad_neg(Obj s) { UNWRAP_OR(s, NULL) return vbase_of(s)->nb_neg(u_s); }
static Obj ad_pos(Obj s) { UNWRAP_OR(s, NULL) return vbase_of(s)->nb_pos(u_s); }
static Obj ad_invert(Obj s) { UNWRAP_OR(s, NULL) return vbase_of(s)->nb_invert(u_s); }
static Obj ad_int(Obj s) { UNWRAP_OR(s, NULL) return vbase_of(s)->nb_int(u_s); }
static Obj ad_float(Obj s) { UNWRAP_OR(s, NULL) return vbase_of(s)->nb_float(u_s); }
static Obj ad_index(Obj s) { UNWRAP_OR(s, NULL) return vbase_of(s)->nb_index(u_s); }
static Obj ad_abs(Obj s) { UNWRAP_OR(s, NULL) return vbase_of(s)->nb_abs(u_s); }

/* Binary slots get both operands as they are: every built-in nb slot
 * unwraps its own operand, and the other one must keep its class (`'%s' %
 * MyStr('x')` formats through MyStr.__str__; `l += it` iterates through
 * it.__iter__). In-place slots return the (wrapped) left operand. */
static Obj ad_nb_impl(int op, Obj a, Obj b, binaryfunc self_fn)
{
    TypeObj *ta = TYPE(a);
    TypeObj *base = (ta->nb[op] == self_fn) ? (TypeObj *)ta->solid : (TypeObj *)TYPE(b)->solid;
    binaryfunc f = base->nb[op];
    return f ? f(a, b) : g_NotImplemented;
}

static Obj ad_nbi_impl(int op, Obj a, Obj b)
{
    binaryfunc f = ((TypeObj *)TYPE(a)->solid)->nb_inplace[op];
    return f ? f(a, b) : g_NotImplemented;
}

#define AD_SLOTS(n) \
    static Obj ad_nb_##n(Obj a, Obj b) { return ad_nb_impl(n, a, b, ad_nb_##n); } \
    static Obj ad_nbi_##n(Obj a, Obj b) { return ad_nbi_impl(n, a, b); }
AD_SLOTS(0) AD_SLOTS(1) AD_SLOTS(2) AD_SLOTS(3) AD_SLOTS(4) AD_SLOTS(5) AD_SLOTS(6)
AD_SLOTS(7) AD_SLOTS(8) AD_SLOTS(9) AD_SLOTS(10) AD_SLOTS(11) AD_SLOTS(12) AD_SLOTS(13)
static const binaryfunc ad_nb_fns[NB_COUNT] = NB_LIST(ad_nb_);
static const binaryfunc ad_nbi_fns[NB_COUNT] = NB_LIST(ad_nbi_);

static Obj heap_new_value(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    return vm_new_for((TypeObj *)((TypeObj *)type)->solid, type, args, nargs, kwnames);
}

static Obj vm_new_for(TypeObj *owner, Obj cls, Obj *args, size_t nargs, Obj kwnames)
{
    if (!owner->tp_new) {
        err_format(E_TypeError, "cannot create '%s' instances", type_name_of_type(owner));
        return NULL;
    }
    if ((TypeObj *)cls == owner || !layout_is_value(owner))
        return owner->tp_new(cls, args, nargs, kwnames);
    Obj *r = vm_roots(2);
    r[1] = cls;
    r[0] = owner->tp_new(cls, args, nargs, kwnames);
    Obj res = r[0];
    if (res && !vm_isinstance_type(res, (TypeObj *)r[1]) && vm_isinstance_type(res, owner)) {
        /* The built-in made a plain value: wrap it (not something else it
         * returned, as reversed(seq) gives seq.__reversed__()). */
        Obj inst = instance_new((TypeObj *)r[1]);
        if (inst) {
            VM_WRITE(inst);
            INST(inst)->base_value = r[0];
        }
        res = inst;
    }
    vm_unroots(r);
    return res;
}

/* Slot function tables by S_* id (NULL where there is none). */
static anyfn slot_fn_for(int s)
{
    if (s >= S_NBI)
        return (anyfn)slot_nbi_fns[s - S_NBI];
    if (s >= S_NB)
        return (anyfn)slot_nb_fns[s - S_NB];
    switch (s) {
    case S_REPR: return (anyfn)slot_tp_repr;
    case S_STR: return (anyfn)slot_tp_str;
    case S_HASH: return (anyfn)slot_tp_hash;
    case S_RICHCMP: return (anyfn)slot_tp_richcompare;
    case S_ITER: return (anyfn)slot_tp_iter;
    case S_NEXT: return (anyfn)slot_tp_iternext;
    case S_CALL: return (anyfn)slot_tp_call;
    case S_GETATTRO: return (anyfn)slot_tp_getattr_hook;
    case S_SETATTRO: return (anyfn)slot_tp_setattro;
    case S_DGET: return (anyfn)slot_tp_descr_get;
    case S_DSET: return (anyfn)slot_tp_descr_set;
    case S_LEN: return (anyfn)slot_tp_len;
    case S_GETITEM: return (anyfn)slot_tp_getitem;
    case S_SETITEM: return (anyfn)slot_tp_setitem;
    case S_CONTAINS: return (anyfn)slot_tp_contains;
    case S_BOOL: return (anyfn)slot_tp_bool;
    case S_NEW: return (anyfn)slot_tp_new;
    case S_INIT: return (anyfn)slot_tp_init;
    case S_NEG: return (anyfn)slot_un_neg;
    case S_POS: return (anyfn)slot_un_pos;
    case S_INVERT: return (anyfn)slot_un_invert;
    case S_INT: return (anyfn)slot_un_int;
    case S_FLOAT: return (anyfn)slot_un_float;
    case S_INDEX: return (anyfn)slot_un_index;
    case S_ABS: return (anyfn)slot_un_abs;
    }
    return NULL;
}

static anyfn adapter_for(int s)
{
    if (s >= S_NBI)
        return (anyfn)ad_nbi_fns[s - S_NBI];
    if (s >= S_NB)
        return (anyfn)ad_nb_fns[s - S_NB];
    switch (s) {
    case S_REPR: return (anyfn)ad_repr;
    case S_STR: return (anyfn)ad_str;
    case S_HASH: return (anyfn)ad_hash;
    case S_RICHCMP: return (anyfn)ad_richcmp;
    case S_ITER: return (anyfn)ad_iter;
    case S_NEXT: return (anyfn)ad_next;
    case S_DGET: return (anyfn)ad_dget;
    case S_DSET: return (anyfn)ad_dset;
    case S_CALL: return (anyfn)ad_call;
    case S_LEN: return (anyfn)ad_len;
    case S_GETITEM: return (anyfn)ad_getitem;
    case S_SETITEM: return (anyfn)ad_setitem;
    case S_CONTAINS: return (anyfn)ad_contains;
    case S_BOOL: return (anyfn)ad_bool;
    case S_NEW: return (anyfn)heap_new_value;
    case S_INIT: return (anyfn)ad_init;
    case S_NEG: return (anyfn)ad_neg;
    case S_POS: return (anyfn)ad_pos;
    case S_INVERT: return (anyfn)ad_invert;
    case S_INT: return (anyfn)ad_int;
    case S_FLOAT: return (anyfn)ad_float;
    case S_INDEX: return (anyfn)ad_index;
    case S_ABS: return (anyfn)ad_abs;
    }
    return NULL;   /* getattr, setattr: the instance itself is what they need */
}

/* Fill one slot of a class from what its MRO defines. */
static void update_one_slot(TypeObj *t, int s)
{
    bool python = false;
    TypeObj *builtin_src = NULL;
    for (int i = 0; i < nslotdefs; i++) {
        const SlotDef *sd = &slotdefs[i];
        if (sd->slot != s)
            continue;
        TypeObj *where = NULL;
        Obj v = type_lookup_uncached(t, sd->iname, &where);
        if (!v)
            continue;
        if (where->flags & TPF_HEAPTYPE) {
            python = true;
        } else if (!builtin_src) {
            builtin_src = where;
        }
    }
    /* Extra dunders that feed a slot without a wrapper of their own. */
    if (!python && s == S_GETATTRO) {
        TypeObj *where = NULL;
        if (type_lookup_uncached(t, NAME(__getattr__), &where) && (where->flags & TPF_HEAPTYPE))
            python = true;
    }
    if (!python && s == S_BOOL && !builtin_src) {
        TypeObj *where = NULL;
        if (type_lookup_uncached(t, NAME(__len__), &where) && (where->flags & TPF_HEAPTYPE))
            python = true;
    }
    anyfn f = NULL;
    if (python) {
        f = slot_fn_for(s);
        if (s == S_HASH) {
            TypeObj *where = NULL;
            Obj h = type_lookup_uncached(t, NAME(__hash__), &where);
            if (h == g_None)
                f = NULL;
        }
    } else if (builtin_src) {
        f = slot_get(builtin_src, s);
        if (f && layout_is_value(builtin_src) && vm_builtin_base(t)) {
            anyfn ad = adapter_for(s);
            if (ad)
                f = ad;
        }
        if (s == S_NEW && !f && vm_builtin_base(t))
            f = (anyfn)heap_new_value;
    }
    slot_set(t, s, f);
}

static void update_slots(TypeObj *t)
{
    for (int s = 0; s < S_COUNT; s++)
        update_one_slot(t, s);
}

/* A dunder was assigned on a class: refresh that slot here and below. */
static void update_slots_for_name(TypeObj *t, Obj name, int depth)
{
    if (depth > 200)
        return;
    for (int i = 0; i < nslotdefs; i++)
        if (str_eq(slotdefs[i].iname, name))
            update_one_slot(t, slotdefs[i].slot);
    if (str_eq(name, NAME(__getattr__)))
        update_one_slot(t, S_GETATTRO);
    if (str_eq(name, NAME(__len__)))
        update_one_slot(t, S_BOOL);
    if (str_eq(name, NAME(__del__)) && !(t->flags & TPF_HAS_DEL)) {
        /* instances made from now on are registered (gcwork.c); those made
         * before are not known to the collector as finalizable */
        VM_WRITE_RARE(t);
        t->flags |= TPF_HAS_DEL;
    }
    Obj subs = t->subclasses;
    if (subs)
        for (int64_t i = 0; i < LIST_LEN(subs); i++)
            update_slots_for_name((TypeObj *)LIST_ITEMS(subs)[i], name, depth + 1);
}

/* ------------------------------------------------------------------ */
/* Calling a C slot as its dunder (the slot wrappers' call)           */
/* ------------------------------------------------------------------ */
static Obj arity_error(size_t expected, size_t got)
{
    err_format(E_TypeError, "expected %zu argument%s, got %zu", expected, expected == 1 ? "" : "s", got);
    return NULL;
}

static Obj slot_missing(TypeObj *owner, const SlotDef *sd)
{
    err_format(E_TypeError, "'%s' has no slot for %s", type_name_of_type(owner), sd->name);
    return NULL;
}

Obj wrapper_call_slot(TypeObj *owner, const SlotDef *sd, Obj *args, size_t nargs, Obj kwnames)
{
    const char *oname = type_name_of_type(owner);
    if (sd->kind == WK_NEW) {
        if (nargs < 1) {
            err_format(E_TypeError, "%s.__new__(): not enough arguments", oname);
            return NULL;
        }
        Obj cls = args[0];
        if (!IS_TYPE(cls)) {
            err_format(E_TypeError, "%s.__new__(X): X is not a type object (%s)", oname, type_name(cls));
            return NULL;
        }
        if (!type_is_subtype((TypeObj *)cls, owner)) {
            const char *cn = type_name_of_type((TypeObj *)cls);
            err_format(E_TypeError, "%s.__new__(%s): %s is not a subtype of %s", oname, cn, cn, oname);
            return NULL;
        }
        return vm_new_for(owner, cls, args + 1, nargs - 1, kwnames);
    }
    if (nargs < 1) {
        err_format(E_TypeError, "descriptor '%s' of '%s' object needs an argument", sd->name, oname);
        return NULL;
    }
    Obj self = args[0];
    if (!vm_isinstance_type(self, owner)) {
        err_format(E_TypeError, "descriptor '%s' requires a '%s' object but received a '%s'", sd->name,
                   oname, type_name(self));
        return NULL;
    }
    size_t nkw = kwnames ? (size_t)TUPLE_LEN(kwnames) : 0;
    if (nkw && sd->kind != WK_CALL && sd->kind != WK_INIT) {
        err_format(E_TypeError, "wrapper %s() takes no keyword arguments", sd->name);
        return NULL;
    }
    size_t n = nargs - 1;
    Obj *a = args + 1;
    Obj s = self_for(owner, self);
    bool value = layout_is_value(owner);
    anyfn fn = slot_get(owner, sd->slot);
    if (!fn)
        return slot_missing(owner, sd);
    switch (sd->kind) {
    case WK_UNARY:
        if (n != 0)
            return arity_error(0, n);
        return ((unaryfunc)fn)(s);
    case WK_HASH: {
        if (n != 0)
            return arity_error(0, n);
        int64_t h = ((hashfunc)fn)(s);
        if (h == -1 && err_occurred())
            return NULL;
        return int_from_i64(h);
    }
    case WK_CMP:
        if (n != 1)
            return arity_error(1, n);
        return ((richcmpfunc)fn)(s, value ? vm_unwrap(a[0]) : a[0], sd->op);
    case WK_NEXT: {
        if (n != 0)
            return arity_error(0, n);
        Obj r = ((unaryfunc)fn)(s);
        if (!r && !err_occurred())
            err_set_obj((Obj)E_StopIteration);
        return r;
    }
    case WK_CALL:
        return ((vectorcallfunc)fn)(s, a, n, kwnames);
    case WK_GETATTR:
        if (n != 1)
            return arity_error(1, n);
        if (!IS_STR(a[0]) && !IS_STR(vm_unwrap(a[0]))) {
            err_format(E_TypeError, "attribute name must be string, not '%s'", type_name(a[0]));
            return NULL;
        }
        return ((getattrofunc)fn)(s, vm_unwrap(a[0]));
    case WK_SETATTR:
    case WK_DELATTR: {
        size_t want = sd->kind == WK_SETATTR ? 2 : 1;
        if (n != want)
            return arity_error(want, n);
        if (!IS_STR(a[0]) && !IS_STR(vm_unwrap(a[0]))) {
            err_format(E_TypeError, "attribute name must be string, not '%s'", type_name(a[0]));
            return NULL;
        }
        if (((setattrofunc)fn)(s, vm_unwrap(a[0]), want == 2 ? a[1] : NULL) < 0)
            return NULL;
        return g_None;
    }
    case WK_GET: {
        if (n < 1 || n > 2) {
            err_format(E_TypeError, "expected 1 or 2 arguments, got %zu", n);
            return NULL;
        }
        Obj obj = a[0] == g_None ? NULL : a[0];
        Obj type = (n == 2 && a[1] != g_None) ? a[1] : NULL;
        if (!obj && !type) {
            err_set(E_TypeError, "__get__(None, None) is invalid");
            return NULL;
        }
        return ((descrgetfunc)fn)(s, obj, type ? type : (Obj)TYPE(obj));
    }
    case WK_SET:
    case WK_DELETE: {
        size_t want = sd->kind == WK_SET ? 2 : 1;
        if (n != want)
            return arity_error(want, n);
        if (((descrsetfunc)fn)(s, a[0], want == 2 ? a[1] : NULL) < 0)
            return NULL;
        return g_None;
    }
    case WK_LEN: {
        if (n != 0)
            return arity_error(0, n);
        int64_t len = ((lenfunc)fn)(s);
        if (len < 0)
            return NULL;
        return int_from_i64(len);
    }
    case WK_GETITEM:
        if (n != 1)
            return arity_error(1, n);
        /* dict.__getitem__ of a subclass's instance asks its __missing__ (the
         * slot unwraps it itself): urllib.parse's _Quoter(...).__getitem__ */
        if (owner == T_dict)
            return ((binaryfunc)fn)(self, a[0]);
        return ((binaryfunc)fn)(s, a[0]);
    case WK_SETITEM:
    case WK_DELITEM: {
        size_t want = sd->kind == WK_SETITEM ? 2 : 1;
        if (n != want)
            return arity_error(want, n);
        if (((objobjargproc)fn)(s, a[0], want == 2 ? a[1] : NULL) < 0)
            return NULL;
        return g_None;
    }
    case WK_CONTAINS: {
        if (n != 1)
            return arity_error(1, n);
        int r = ((objobjproc)fn)(s, a[0]);
        return r < 0 ? NULL : vm_bool(r);
    }
    case WK_BOOL: {
        if (n != 0)
            return arity_error(0, n);
        int r = ((inquiry)fn)(s);
        return r < 0 ? NULL : vm_bool(r);
    }
    case WK_INIT:
        if (((initfunc)fn)(s, a, n, kwnames) < 0)
            return NULL;
        return g_None;
    case WK_BIN:
        if (sd->op == NB_POW && n == 2) {
            if (a[1] == g_None)
                return ((binaryfunc)fn)(s, value ? vm_unwrap(a[0]) : a[0]);
            Obj x = vm_unwrap(a[0]), m = vm_unwrap(a[1]);
            if (IS_INT(s) && IS_INT(x) && IS_INT(m))
                return int_pow(s, x, m);
            bool x_real = IS_INT(x) || IS_FLOAT(x);
            if (IS_FLOAT(s) && x_real) {
                err_set(E_TypeError, "pow() 3rd argument not allowed unless all arguments are integers");
                return NULL;
            }
            if (IS_COMPLEX(s) && (x_real || IS_COMPLEX(x))) {
                err_set(E_ValueError, "complex modulo");
                return NULL;
            }
            return g_NotImplemented;
        }
        if (n != 1)
            return arity_error(1, n);
        return ((binaryfunc)fn)(s, value ? vm_unwrap(a[0]) : a[0]);
    case WK_RBIN:
        if (sd->op == NB_POW && n == 2) {
            if (a[1] != g_None)
                return g_NotImplemented;
            n = 1;
        }
        if (n != 1)
            return arity_error(1, n);
        return ((binaryfunc)fn)(value ? vm_unwrap(a[0]) : a[0], s);
    case WK_IBIN: {
        if (sd->op == NB_POW && n == 2)
            n = 1;
        if (n != 1)
            return arity_error(1, n);
        Obj r = ((binaryfunc)fn)(s, a[0]);
        if (r && value && r == vm_unwrap(args[0]))
            r = args[0];   /* `l += x` on a list subclass keeps the instance */
        return r;
    }
    }
    return slot_missing(owner, sd);
}

/* ------------------------------------------------------------------ */
/* Built-in type creation                                             */
/* ------------------------------------------------------------------ */
#define MAX_BUILTIN_TYPES 1024
static Obj builtin_type_roots[MAX_BUILTIN_TYPES];
static int n_builtin_types;
static Obj all_types_list;   /* overflow: a list, itself a global root */

static void fatal_startup(const char *what)
{
    fprintf(stderr, "tmpy: fatal: %s at start-up\n", what);
    exit(1);
}

static void keep_type_alive(Obj t)
{
    if (n_builtin_types < MAX_BUILTIN_TYPES) {
        builtin_type_roots[n_builtin_types] = t;
        VM_GLOBAL_ROOT(builtin_type_roots[n_builtin_types]);
        n_builtin_types++;
        return;
    }
    if (!all_types_list) {
        all_types_list = list_new(0);
        if (!all_types_list)
            fatal_startup("out of memory");
        VM_GLOBAL_ROOT(all_types_list);
    }
    if (list_append(all_types_list, t) < 0)
        fatal_startup("out of memory");
}

Obj type_new_builtin(const char *name, TypeObj *base, unsigned inst_tid, unsigned flags)
{
    TypeObj *t = (TypeObj *)tm_allocate_old(TID_TYPE, sizeof(struct TypeObj_));
    if (!t)
        fatal_startup("out of memory");
    keep_type_alive((Obj)t);
    t->cls = (Obj)T_type;
    t->flags = flags;
    t->inst_tid = (uint16_t)inst_tid;
    t->base = (Obj)base;
    t->version = type_new_version();
    const char *dot = strrchr(name, '.');
    Obj nm = str_intern_cstr(dot ? dot + 1 : name);
    if (!nm)
        fatal_startup("out of memory");
    VM_WRITE_RARE(t);
    t->name = nm;
    t->qualname = nm;
    if (dot) {
        t->flags |= TPF_DOTTED_NAME;
        Obj mod = str_new(name, (size_t)(dot - name));
        if (!mod)
            fatal_startup("out of memory");
        mod = str_intern(mod);
        VM_WRITE_RARE(t);
        t->module = mod;
    }
    Obj d = dict_new();
    if (!d)
        fatal_startup("out of memory");
    VM_WRITE_RARE(t);
    t->dict = d;
    Obj bases = base ? tuple_pack(1, (Obj)base) : g_empty_tuple;
    if (!bases)
        fatal_startup("out of memory");
    VM_WRITE_RARE(t);
    t->bases = bases;
    if (inst_tid < TID_FIRST_WITH_CLS && inst_tid != TID_ITER && inst_tid != 0 && !vm_tid_type[inst_tid])
        vm_tid_type[inst_tid] = t;
    return (Obj)t;
}

void type_add_methods(TypeObj *t, const MethodDef *defs)
{
    for (const MethodDef *m = defs; m->name; m++) {
        Obj b = builtin_new(m, NULL, (Obj)t);
        if (!b)
            fatal_startup("out of memory");
        Obj *r = vm_roots(1);
        r[0] = b;
        Obj key = str_intern_cstr(m->name);
        if (!key || dict_setitem(t->dict, key, r[0]) < 0)
            fatal_startup("out of memory");
        vm_unroots(r);
    }
    type_modified(t);
}

void type_add_getset(TypeObj *t, const char *name, cfunc getter, cfunc setter)
{
    Obj key = str_intern_cstr(name);
    if (!key)
        fatal_startup("out of memory");
    Obj *r = vm_roots(1);
    r[0] = key;
    Obj g = (Obj)tm_allocate(TID_ITER, sizeof(struct IterObj_));
    if (!g)
        fatal_startup("out of memory");
    IterObj *it = ITER(g);
    it->cls = (Obj)T_getset_descriptor;
    it->a = (Obj)t;
    it->b = r[0];
    it->i = (int64_t)(uintptr_t)getter;
    it->n = (int64_t)(uintptr_t)setter;
    if (dict_setitem(t->dict, r[0], g) < 0)
        fatal_startup("out of memory");
    vm_unroots(r);
    type_modified(t);
}

void type_add_member(TypeObj *t, const char *name, cfunc getter, cfunc setter, const char *doc)
{
    Obj *r = vm_roots(2);
    r[0] = str_intern_cstr(name);
    r[1] = doc ? str_from_cstr(doc) : g_None;
    if (!r[0] || !r[1])
        fatal_startup("out of memory");
    Obj m = member_new(t, r[0], -1);
    if (!m)
        fatal_startup("out of memory");
    IterObj *it = ITER(m);   /* young: plain stores */
    it->kind = MEMBER_C;
    it->n = (int64_t)(uintptr_t)getter;
    it->i = (int64_t)(uintptr_t)setter;
    it->c = r[1];
    if (dict_setitem(t->dict, r[0], m) < 0)
        fatal_startup("out of memory");
    vm_unroots(r);
    type_modified(t);
}

void type_set_attr_cstr(TypeObj *t, const char *name, Obj v)
{
    Obj *r = vm_roots(1);
    r[0] = v;
    Obj key = str_intern_cstr(name);
    if (!key || dict_setitem(t->dict, key, r[0]) < 0)
        fatal_startup("out of memory");
    vm_unroots(r);
    if ((t->flags & TPF_HEAPTYPE) && name[0] == '_' && name[1] == '_')
        update_slots_for_name(t, key, 0);
    type_modified(t);
}

/* Subclass lists keep classes alive (no weak references): only heap bases,
 * whose changes must reach their subclasses, and built-in ones at start-up. */
static void add_subclass(TypeObj *base, TypeObj *t)
{
    if (!(base->flags & TPF_HEAPTYPE) && (t->flags & TPF_HEAPTYPE))
        return;
    if (!base->subclasses) {
        Obj l = list_new(0);
        if (!l)
            return;
        VM_WRITE_RARE(base);
        base->subclasses = l;
    }
    list_append(base->subclasses, (Obj)t);
}

void type_ready(TypeObj *t)
{
    if (!t->cls) {
        VM_WRITE_RARE(t);
        t->cls = (Obj)T_type;
    }
    TypeObj *base = (TypeObj *)t->base;
    /* solid: the built-in whose layout instances have */
    if (!t->solid) {
        TypeObj *s = t;
        if (base && base->inst_tid == t->inst_tid && base != T_object && base->solid)
            s = (TypeObj *)base->solid;
        VM_WRITE_RARE(t);
        t->solid = (Obj)s;
    }
    /* mro: (t,) + base's mro */
    if (!t->mro) {
        int64_t n = 1;
        for (TypeObj *b = base; b; b = (TypeObj *)b->base)
            n++;
        Obj mro = tuple_new(n);
        if (!mro)
            fatal_startup("out of memory");
        int64_t i = 0;
        for (TypeObj *b = t; b; b = (TypeObj *)b->base)
            TUPLE_ITEMS(mro)[i++] = (Obj)b;
        VM_WRITE_RARE(t);
        t->mro = mro;
    }
    /* dunders for the slots this type defines itself */
    bool had_hash = t->tp_hash != NULL, had_cmp = t->tp_richcompare != NULL;
    for (int i = 0; i < nslotdefs; i++) {
        const SlotDef *sd = &slotdefs[i];
        if (!slot_get(t, sd->slot))
            continue;
        if (dict_getitem_str(t->dict, sd->iname))
            continue;
        /* tp_str == tp_repr is only a shortcut (int, float): like CPython, no
         * __str__ of its own, so a subclass's __repr__ shows in str() too. */
        if (sd->slot == S_STR && t->tp_str == t->tp_repr)
            continue;
        /* a container's tp_bool is only a shortcut of its length: CPython's
         * have no __bool__, so a subclass's __len__ decides its truth (pytz's
         * LazyList); range has one of its own */
        if (sd->slot == S_BOOL && t->tp_len && t != T_range)
            continue;
        Obj w = wrapper_new(t, i, NULL);
        if (!w || dict_setitem(t->dict, sd->iname, w) < 0)
            fatal_startup("out of memory");
    }
    /* inherit the rest from the base */
    if (base) {
        for (int s = 0; s < S_COUNT; s++) {
            if (slot_get(t, s))
                continue;
            if (s == S_HASH || s == S_RICHCMP) {
                if (had_hash || had_cmp)
                    continue;
            }
            if (s == S_NEW && (base->inst_tid != t->inst_tid || base == T_object))
                continue;
            anyfn f = slot_get(base, s);
            if (f)
                slot_set(t, s, f);
        }
        if (base->flags & TPF_HAS_DICT) {
            VM_WRITE_RARE(t);
            t->flags |= TPF_HAS_DICT;
        }
        add_subclass(base, t);
    }
    if (!t->tp_hash && !dict_getitem_str(t->dict, NAME(__hash__)))
        if (dict_setitem(t->dict, NAME(__hash__), g_None) < 0)
            fatal_startup("out of memory");
    type_modified(t);
}

/* ------------------------------------------------------------------ */
/* Classes: MRO                                                       */
/* ------------------------------------------------------------------ */
static void mro_error(TypeObj ***lists, int *lens, int *pos, int nlists)
{
    StrBuf b;
    sb_init(&b);
    sb_adds(&b, "Cannot create a consistent method resolution\norder (MRO) for bases ");
    TypeObj *seen[64];
    int nseen = 0;
    for (int i = 0; i < nlists; i++) {
        if (pos[i] >= lens[i])
            continue;
        TypeObj *c = lists[i][pos[i]];
        bool dup = false;
        for (int k = 0; k < nseen; k++)
            dup = dup || seen[k] == c;
        if (dup || nseen >= 64)
            continue;
        if (nseen)
            sb_adds(&b, ", ");
        seen[nseen++] = c;
        sb_add_str(&b, c->name);
    }
    Obj msg = sb_finish(&b);
    if (msg)
        err_set_value(E_TypeError, msg);
}

/* C3 linearisation of t with these bases (a tuple of types). */
static Obj compute_mro(TypeObj *t, Obj bases)
{
    int nb = (int)TUPLE_LEN(bases);
    for (int i = 0; i < nb; i++)
        for (int j = i + 1; j < nb; j++)
            if (TUPLE_ITEMS(bases)[i] == TUPLE_ITEMS(bases)[j]) {
                err_format(E_TypeError, "duplicate base class %s",
                           type_name_of_type((TypeObj *)TUPLE_ITEMS(bases)[i]));
                return NULL;
            }
    int nlists = nb + 1;
    TypeObj ***lists = calloc((size_t)nlists, sizeof *lists);
    int *lens = calloc((size_t)nlists, sizeof *lens), *pos = calloc((size_t)nlists, sizeof *pos);
    int total = 1;
    Obj result = NULL;
    TypeObj **out = NULL;
    if (!lists || !lens || !pos)
        goto nomem;
    for (int i = 0; i < nb; i++) {
        TypeObj *b = (TypeObj *)TUPLE_ITEMS(bases)[i];
        Obj m = b->mro;
        int n = (int)TUPLE_LEN(m);
        lists[i] = malloc(sizeof(TypeObj *) * (size_t)(n ? n : 1));
        if (!lists[i])
            goto nomem;
        for (int k = 0; k < n; k++)
            lists[i][k] = (TypeObj *)TUPLE_ITEMS(m)[k];
        lens[i] = n;
        total += n;
    }
    lists[nb] = malloc(sizeof(TypeObj *) * (size_t)(nb ? nb : 1));
    if (!lists[nb])
        goto nomem;
    for (int i = 0; i < nb; i++)
        lists[nb][i] = (TypeObj *)TUPLE_ITEMS(bases)[i];
    lens[nb] = nb;
    out = malloc(sizeof(TypeObj *) * (size_t)total);
    if (!out)
        goto nomem;
    int nout = 0;
    out[nout++] = t;
    for (;;) {
        bool any = false;
        TypeObj *found = NULL;
        for (int i = 0; i < nlists && !found; i++) {
            if (pos[i] >= lens[i])
                continue;
            any = true;
            TypeObj *cand = lists[i][pos[i]];
            bool in_tail = false;
            for (int j = 0; j < nlists && !in_tail; j++)
                for (int k = pos[j] + 1; k < lens[j]; k++)
                    if (lists[j][k] == cand) {
                        in_tail = true;
                        break;
                    }
            if (!in_tail)
                found = cand;
        }
        if (!any)
            break;
        if (!found) {
            mro_error(lists, lens, pos, nlists);
            goto done;
        }
        out[nout++] = found;
        for (int i = 0; i < nlists; i++)
            if (pos[i] < lens[i] && lists[i][pos[i]] == found)
                pos[i]++;
    }
    result = tuple_new(nout);
    if (result)
        for (int i = 0; i < nout; i++)
            TUPLE_ITEMS(result)[i] = (Obj)out[i];
    goto done;
nomem:
    err_nomemory();
done:
    if (lists)
        for (int i = 0; i < nlists; i++)
            free(lists[i]);
    free(lists);
    free(lens);
    free(pos);
    free(out);
    return result;
}

/* ------------------------------------------------------------------ */
/* Classes: creation                                                  */
/* ------------------------------------------------------------------ */
static bool is_type_obj(Obj v) { return TID(v) == TID_TYPE; }

/* The most derived metaclass among meta and the bases' metaclasses. */
static TypeObj *calculate_metaclass(TypeObj *meta, Obj bases)
{
    TypeObj *winner = meta;
    for (int64_t i = 0; i < TUPLE_LEN(bases); i++) {
        TypeObj *bt = TYPE(TUPLE_ITEMS(bases)[i]);
        if (type_is_subtype(winner, bt))
            continue;
        if (type_is_subtype(bt, winner)) {
            winner = bt;
            continue;
        }
        err_set(E_TypeError, "metaclass conflict: the metaclass of a derived class must be a (non-strict) "
                             "subclass of the metaclasses of all its bases");
        return NULL;
    }
    return winner;
}

/* The base that decides the instance layout (CPython's best_base). */
static TypeObj *best_base(Obj bases, TypeObj **solid_out)
{
    TypeObj *winner = NULL, *base = NULL;
    for (int64_t i = 0; i < TUPLE_LEN(bases); i++) {
        Obj b = TUPLE_ITEMS(bases)[i];
        if (!is_type_obj(b)) {
            err_set(E_TypeError, "bases must be types");
            return NULL;
        }
        TypeObj *bt = (TypeObj *)b;
        if (!(bt->flags & TPF_BASETYPE)) {
            err_format(E_TypeError, "type '%s' is not an acceptable base type", type_name_of_type(bt));
            return NULL;
        }
        TypeObj *s = bt->solid ? (TypeObj *)bt->solid : bt;
        if (!winner) {
            winner = s;
            base = bt;
        } else if (type_is_subtype(winner, s)) {
            /* keep */
        } else if (type_is_subtype(s, winner)) {
            winner = s;
            base = bt;
        } else {
            err_set(E_TypeError, "multiple bases have instance lay-out conflict");
            return NULL;
        }
    }
    *solid_out = winner;
    return base;
}

/* A getset descriptor `name` in *tp's dict (*tp refreshed). */
static int add_getset_descriptor(Obj *tp, Obj name, cfunc getter, cfunc setter)
{
    Obj *r = vm_roots(1);
    r[0] = name;
    Obj g = (Obj)tm_allocate(TID_ITER, sizeof(struct IterObj_));
    name = r[0];
    vm_unroots(r);
    if (!g) {
        err_nomemory();
        return -1;
    }
    IterObj *it = ITER(g);
    it->cls = (Obj)T_getset_descriptor;
    it->a = *tp;
    it->b = name;
    it->i = (int64_t)(uintptr_t)getter;
    it->n = (int64_t)(uintptr_t)setter;
    return dict_setitem(((TypeObj *)*tp)->dict, name, g);
}

/* instance.__weakref__: a weak reference to it, or None (CPython gives the
 * head of its list; tmpy keeps no list, _weakref.getweakrefs finds them). */
static Obj weakref_attr_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    Obj *r = vm_roots(1);
    r[0] = args[0];
    Obj m = vm_import_cstr("_weakref");
    Obj refs = m ? vm_call_method1(m, "getweakrefs", r[0]) : NULL;
    vm_unroots(r);
    if (!refs)
        return NULL;
    return LIST_LEN(refs) ? LIST_ITEMS(refs)[0] : g_None;
}

/* The class whose __slots__ gave t's instances their slot values (CPython's
 * solid base, for slots): t itself, or, when t added none (an empty
 * __slots__, or only __dict__ / __weakref__, or no __slots__ at all), the
 * owner of the base t took them from. */
static TypeObj *slot_owner(TypeObj *t)
{
    for (;;) {
        TypeObj *from = NULL;
        for (int64_t i = 0; t->nslots && t->bases && i < TUPLE_LEN(t->bases); i++) {
            TypeObj *b = (TypeObj *)TUPLE_ITEMS(t->bases)[i];
            if (b->nslots == t->nslots) {
                from = b;
                break;
            }
        }
        if (!from)
            return t;
        t = from;
    }
}

static Obj current_module_name(void)
{
    Obj g = vm_current_globals();
    if (!g || !IS_DICT(g))
        return NULL;
    return dict_getitem_str(g, NAME(__name__));
}

/* A private name (__x, not __x__, no dot) of a class body as the compiler
 * mangles it: _Class__x (class name without its leading underscores; a
 * name of underscores only mangles nothing). */
static Obj mangle_private_name(Obj class_name, Obj s)
{
    const char *n = str_cstr(s);
    size_t len = strlen(n);
    if (len < 3 || n[0] != '_' || n[1] != '_' || (n[len - 1] == '_' && n[len - 2] == '_') ||
        strchr(n, '.'))
        return s;
    const char *c = str_cstr(class_name);
    while (*c == '_')
        c++;
    if (!*c)
        return s;
    return str_from_format("_%s%s", c, n);
}

/* __slots__ of a class body: a tuple of names (without __dict__ and
 * __weakref__), private ones mangled; *wants_dict if '__dict__' is listed. */
/* may_add_dict / may_add_weak: the best base has no instance dict / no weak
 * references and allows them; varsize_base: the best base when its CPython
 * layout has items (no slots at all). CPython's rules and messages. */
static Obj parse_slots(Obj class_name, Obj slots, bool *wants_dict, bool *wants_weakref, bool may_add_dict,
                       bool may_add_weak, TypeObj *varsize_base)
{
    Obj *r = vm_roots(2);
    if (IS_STR(slots))
        r[0] = tuple_pack(1, slots);
    else
        r[0] = vm_tuple_from_iter(slots);
    if (!r[0])
        goto fail;
    int64_t n = TUPLE_LEN(r[0]);
    if (n > 0 && varsize_base) {   /* items after the header (int, tuple, bytes) */
        err_format(E_TypeError, "nonempty __slots__ not supported for subtype of '%s'",
                   type_name_of_type(varsize_base));
        goto fail;
    }
    r[1] = list_new(0);
    if (!r[1])
        goto fail;
    for (int64_t i = 0; i < n; i++) {
        Obj s = TUPLE_ITEMS(r[0])[i];
        if (!vm_isinstance_type(s, T_str)) {
            err_format(E_TypeError, "__slots__ items must be strings, not '%s'", type_name(s));
            goto fail;
        }
        s = vm_unwrap(s);   /* a str subclass's value */
        if (!str_isidentifier(s)) {
            err_set(E_TypeError, "__slots__ must be identifiers");
            goto fail;
        }
        if (str_eq(s, NAME(__dict__))) {
            if (!may_add_dict || *wants_dict) {
                err_set(E_TypeError, "__dict__ slot disallowed: we already got one");
                goto fail;
            }
            *wants_dict = true;
            continue;
        }
        if (str_eq(s, NAME(__weakref__))) {
            if (!may_add_weak || *wants_weakref) {
                err_set(E_TypeError,
                        "__weakref__ slot disallowed: either we already got one, or __itemsize__ != 0");
                goto fail;
            }
            *wants_weakref = true;
            continue;
        }
        s = mangle_private_name(class_name, s);
        Obj is = s ? str_intern(s) : NULL;
        if (!is || list_append(r[1], is) < 0)
            goto fail;
    }
    Obj res = vm_tuple_from_iter(r[1]);
    vm_unroots(r);
    return res;
fail:
    vm_unroots(r);
    return NULL;
}

bool type_allows_attr(TypeObj *t, Obj name)
{
    (void)name;   /* __slots__ names are member descriptors: they never get here */
    return (t->flags & TPF_HAS_DICT) != 0;
}

/* CPython 3.11: an error in __set_name__ becomes a RuntimeError naming the
 * attribute, caused by the original one. item: the (name, value) pair. */
static void set_name_error(Obj item, Obj cls)
{
    Obj *r = vm_roots(4);
    r[0] = err_fetch();
    r[1] = item;
    r[2] = cls;
    r[3] = vm_repr(TUPLE_ITEMS(r[1])[0]);
    if (r[3])
        r[3] = str_from_format("Error calling __set_name__ on '%s' instance %s in '%s'",
                               type_name(TUPLE_ITEMS(r[1])[1]), str_cstr(r[3]), str_cstr(((TypeObj *)r[2])->name));
    if (r[3])
        r[3] = exc_new(E_RuntimeError, &r[3], 1);
    if (r[3]) {
        VM_WRITE(r[3]);
        EXC(r[3])->cause = r[0];
        EXC(r[3])->context = r[0];
        EXC(r[3])->suppress_context = 1;
        err_set_obj(r[3]);
    }
    vm_unroots(r);
}

static int call_set_name(Obj cls)
{
    Obj *r = vm_roots(4);
    r[0] = cls;
    r[1] = dict_items_list(((TypeObj *)cls)->dict);
    int rc = -1;
    if (!r[1])
        goto out;
    for (int64_t i = 0; i < LIST_LEN(r[1]); i++) {
        Obj item = LIST_ITEMS(r[1])[i];
        Obj v = TUPLE_ITEMS(item)[1];
        Obj f = vm_lookup_type(TYPE(v), NAME(__set_name__));
        if (!f)
            continue;
        r[2] = r[0];
        r[3] = TUPLE_ITEMS(item)[0];
        Obj res = vm_call_unbound(f, v, &r[2], 2);   /* v.__set_name__(cls, name) */
        if (!res) {
            set_name_error(LIST_ITEMS(r[1])[i], r[0]);
            goto out;
        }
    }
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

static int call_init_subclass(Obj cls, Obj *kwvals, Obj kwnames)
{
    TypeObj *t = (TypeObj *)cls;
    Obj mro = t->mro;
    Obj f = NULL;
    for (int64_t i = 1; i < TUPLE_LEN(mro) && !f; i++)
        f = dict_getitem_str(((TypeObj *)TUPLE_ITEMS(mro)[i])->dict, NAME(__init_subclass__));
    if (!f)
        return 0;
    size_t nkw = kwnames ? (size_t)TUPLE_LEN(kwnames) : 0;
    Obj *r = vm_roots((int)nkw + 3);
    for (size_t i = 0; i < nkw; i++)
        r[i] = kwvals[i];
    r[nkw] = cls;
    r[nkw + 1] = kwnames;
    r[nkw + 2] = f;
    descrgetfunc g = TYPE(f)->tp_descr_get;
    Obj bound = g ? g(f, NULL, cls) : f;
    Obj res = NULL;
    if (bound) {
        r[nkw + 2] = bound;
        res = vm_call(bound, r, 0, nkw ? r[nkw + 1] : NULL);
    }
    vm_unroots(r);
    return res ? 0 : -1;
}

/* type.__new__(meta, name, bases, ns, **kw) */
static Obj type_tp_new(Obj meta, Obj *args, size_t nargs, Obj kwnames)
{
    size_t nkw = kwnames ? (size_t)TUPLE_LEN(kwnames) : 0;
    if (nargs == 1 && !nkw && (TypeObj *)meta == T_type)
        return (Obj)TYPE(args[0]);
    if (nargs != 3) {
        if ((TypeObj *)meta == T_type)
            err_set(E_TypeError, "type() takes 1 or 3 arguments");
        else
            err_format(E_TypeError, "type.__new__() takes exactly 3 arguments (%zu given)", nargs);
        return NULL;
    }
    if (!IS_STR(args[0])) {
        err_format(E_TypeError, "type.__new__() argument 1 must be str, not %s", type_name(args[0]));
        return NULL;
    }
    if (!IS_TUPLE(args[1])) {
        err_format(E_TypeError, "type.__new__() argument 2 must be tuple, not %s", type_name(args[1]));
        return NULL;
    }
    if (!vm_isinstance_type(args[2], T_dict)) {   /* a dict subclass (from __prepare__) is copied too */
        err_format(E_TypeError, "type.__new__() argument 3 must be dict, not %s", type_name(args[2]));
        return NULL;
    }
    if (check_type_name(args[0]) < 0)
        return NULL;
    /* r: 0 name, 1 bases, 2 dict, 3 qualname, 4 slots, 5 cell, 6 mro, 7 cls, 8 meta, 9 tmp, 10 kwnames */
    Obj *r = vm_roots(11);
    r[10] = kwnames;
    r[0] = args[0];
    r[1] = args[1];
    r[8] = meta;
    for (int64_t i = 0; i < TUPLE_LEN(r[1]); i++) {
        Obj b = TUPLE_ITEMS(r[1])[i];
        if (IS_TYPE(b))
            continue;
        Obj me = vm_getattr_opt(b, NAME(__mro_entries__));
        if (me || err_occurred()) {
            if (me)
                err_set(E_TypeError, "type() doesn't support MRO entry resolution; use types.new_class()");
            goto fail;
        }
    }
    TypeObj *winner = calculate_metaclass((TypeObj *)r[8], r[1]);
    if (!winner)
        goto fail;
    if (winner != (TypeObj *)r[8] && winner->tp_new != type_tp_new) {
        /* a more derived metaclass with its own __new__ makes the class (CPython's rule) */
        kwnames = r[10];
        vm_unroots(r);
        return winner->tp_new((Obj)winner, args, nargs, kwnames);
    }
    r[8] = (Obj)winner;
    if (TUPLE_LEN(r[1]) == 0) {
        r[1] = tuple_pack(1, (Obj)T_object);
        if (!r[1])
            goto fail;
    }
    TypeObj *solid = NULL;
    TypeObj *base = best_base(r[1], &solid);
    if (!base)
        goto fail;
    r[2] = dict_copy(vm_unwrap(args[2]));
    if (!r[2])
        goto fail;
    /* __qualname__ */
    Obj q = dict_getitem_str(r[2], NAME(__qualname__));
    if (q) {
        if (!IS_STR(q)) {
            err_format(E_TypeError, "type __qualname__ must be a str, not %s", type_name(q));
            goto fail;
        }
        r[3] = q;
        if (dict_delitem(r[2], NAME(__qualname__)) < 0)
            goto fail;
    } else {
        r[3] = r[0];
    }
    /* __module__ */
    if (!dict_getitem_str(r[2], NAME(__module__))) {
        Obj m = current_module_name();
        if (m && dict_setitem(r[2], NAME(__module__), m) < 0)
            goto fail;
    }
    bool doc_given = dict_getitem_str(r[2], NAME(__doc__)) != NULL;   /* a docstring (or an assignment) */
    {   /* CPython keeps a str __doc__ as UTF-8 too: a lone surrogate is a UnicodeEncodeError */
        Obj doc = dict_getitem_str(r[2], NAME(__doc__));
        if (doc && vm_isinstance_type(doc, T_str) && !str_is_ascii(vm_unwrap(doc)) &&
            !str_encode(vm_unwrap(doc), "utf-8", "strict"))
            goto fail;
    }
    if (!doc_given && dict_setitem(r[2], NAME(__doc__), g_None) < 0)
        goto fail;
    /* __classcell__ */
    Obj cell = dict_getitem_str(r[2], NAME(__classcell__));
    if (cell) {
        if (TID(cell) != TID_CELL) {
            err_format(E_TypeError, "__classcell__ must be a nonlocal cell, not %s", type_name(cell));
            goto fail;
        }
        r[5] = cell;
        if (dict_delitem(r[2], NAME(__classcell__)) < 0)
            goto fail;
    }
    /* __slots__. The built-ins whose CPython layout has items after the
     * header (int, tuple, bytes: a nonzero tp_itemsize) take no weak
     * references in their subclasses and no nonempty __slots__. */
    bool varsize = type_is_subtype(solid, T_int) || type_is_subtype(solid, T_tuple) ||
                   type_is_subtype(solid, T_bytes);
    bool has_dict = true, wants_dict = false, has_weakref = !varsize;
    Obj slots = dict_getitem_str(r[2], NAME(__slots__));
    if (slots) {
        has_weakref = false;
        r[4] = parse_slots(r[0], slots, &wants_dict, &has_weakref, !(base->flags & TPF_HAS_DICT),
                           !(base->flags & TPF_WEAKREFABLE), varsize ? base : NULL);
        if (!r[4])
            goto fail;
        has_dict = wants_dict;
        for (int64_t i = 0; i < TUPLE_LEN(r[1]); i++)
            if (((TypeObj *)TUPLE_ITEMS(r[1])[i])->flags & TPF_HAS_DICT)
                has_dict = true;
        for (int64_t i = 0; i < TUPLE_LEN(r[4]); i++)
            if (dict_getitem_str(r[2], TUPLE_ITEMS(r[4])[i]) &&
                (doc_given || !str_eq(TUPLE_ITEMS(r[4])[i], NAME(__doc__)))) {
                err_format(E_ValueError, "'%s' in __slots__ conflicts with class variable",
                           str_cstr(TUPLE_ITEMS(r[4])[i]));
                goto fail;
            }
    }
    bool base_has_dict = false;
    for (int64_t i = 0; i < TUPLE_LEN(r[1]); i++)
        if (((TypeObj *)TUPLE_ITEMS(r[1])[i])->flags & TPF_HAS_DICT)
            base_has_dict = true;
    /* __slots__ values go after the bases' ones (one base chain may have
     * slots): the bases' slot owners must lie on one chain */
    int64_t base_nslots = 0;
    TypeObj *slot_base = NULL;
    for (int64_t i = 0; i < TUPLE_LEN(r[1]); i++) {
        TypeObj *b = slot_owner((TypeObj *)TUPLE_ITEMS(r[1])[i]);
        if (!b->nslots)
            continue;
        if (!slot_base || type_is_subtype(b, slot_base)) {
            slot_base = b;
            base_nslots = b->nslots;
        } else if (!type_is_subtype(slot_base, b)) {
            err_set(E_TypeError, "multiple bases have instance lay-out conflict");
            goto fail;
        }
    }
    if (slot_base && solid != T_object && !type_is_subtype(slot_base, solid)) {
        /* slots from a class beside a built-in with a layout of its own */
        err_set(E_TypeError, "multiple bases have instance lay-out conflict");
        goto fail;
    }
    int64_t nslots = base_nslots + (r[4] ? TUPLE_LEN(r[4]) : 0);
    if (nslots > 60000) {
        err_set(E_TypeError, "too many __slots__");
        goto fail;
    }
    /* (subclasses of types.GenericAlias keep its IterObj layout: their __dict__
     * and __slots__ values live in a dict in its c field, vm_dict_slot) */
    if (solid->inst_tid != TID_INSTANCE && solid->inst_tid != TID_EXCEPTION && !layout_is_value(solid) &&
        solid->inst_tid != TID_TYPE && solid != T_generic_alias && solid != T_module) {
        err_format(E_TypeError, "type '%s' is not an acceptable base type", type_name_of_type(solid));
        goto fail;
    }
    /* Pattern matching: the best base's flags; __abc_tpflags__ (CPython's
     * collections.abc spelling, applied by its ABCMeta) adds SEQUENCE / MAPPING. */
    uint32_t pattern_flags = base->flags & (TPF_SEQUENCE | TPF_MAPPING | TPF_MATCH_SELF);
    Obj abc_flags = dict_getitem_str(r[2], NAME(__abc_tpflags__));
    if (abc_flags) {
        if (IS_SMALLINT(abc_flags)) {
            int64_t v = SMALLINT_VAL(abc_flags);
            if ((v & (TPF_SEQUENCE | TPF_MAPPING)) == (TPF_SEQUENCE | TPF_MAPPING)) {
                err_set(E_TypeError, "__abc_tpflags__ cannot be both Py_TPFLAGS_SEQUENCE and Py_TPFLAGS_MAPPING");
                goto fail;
            }
            pattern_flags |= (uint32_t)(v & (TPF_SEQUENCE | TPF_MAPPING));
        }
        if (dict_delitem(r[2], NAME(__abc_tpflags__)) < 0)
            goto fail;
    }
    /* Special methods that are implicitly static / class methods. */
    Obj nw = dict_getitem_str(r[2], NAME(__new__));
    if (nw && IS_FUNCTION(nw)) {
        r[9] = staticmethod_new(nw);
        if (!r[9] || dict_setitem(r[2], NAME(__new__), r[9]) < 0)
            goto fail;
    }
    static const int cm_names[2] = {VMN___init_subclass__, VMN___class_getitem__};
    for (int k = 0; k < 2; k++) {
        Obj f = dict_getitem_str(r[2], vm_names[cm_names[k]]);
        if (f && IS_FUNCTION(f)) {
            r[9] = classmethod_new(f);
            if (!r[9] || dict_setitem(r[2], vm_names[cm_names[k]], r[9]) < 0)
                goto fail;
        }
    }
    /* A class that defines __eq__ but not __hash__ is unhashable. */
    if (dict_getitem_str(r[2], NAME(__eq__)) && !dict_getitem_str(r[2], NAME(__hash__)))
        if (dict_setitem(r[2], NAME(__hash__), g_None) < 0)
            goto fail;
    r[0] = str_intern(r[0]);
    if (!r[0])
        goto fail;

    TypeObj *t = (TypeObj *)tm_allocate_old(TID_TYPE, sizeof(struct TypeObj_));
    if (!t) {
        err_nomemory();
        goto fail;
    }
    r[7] = (Obj)t;
    t->cls = r[8];
    t->dict = r[2];
    t->name = r[0];
    t->qualname = r[3];
    Obj mod = dict_getitem_str(r[2], NAME(__module__));
    t->module = (mod && IS_STR(mod)) ? mod : NULL;
    t->bases = r[1];
    t->base = (Obj)base;
    t->solid = (Obj)solid;
    t->slot_names = r[4];
    /* Weak references and __del__ (weakrefobject.c, gcwork.c): from the
     * class body or any base. */
    bool has_del = dict_getitem_str(r[2], NAME(__del__)) != NULL;
    for (int64_t i = 0; i < TUPLE_LEN(r[1]); i++) {
        uint32_t bf = ((TypeObj *)TUPLE_ITEMS(r[1])[i])->flags;
        has_weakref |= (bf & TPF_WEAKREFABLE) != 0;
        has_del |= (bf & TPF_HAS_DEL) != 0;
    }
    t->flags = TPF_HEAPTYPE | TPF_BASETYPE | (has_dict ? TPF_HAS_DICT : 0) | pattern_flags |
               (has_weakref ? TPF_WEAKREFABLE : 0) | (has_del ? TPF_HAS_DEL : 0);
    t->inst_tid = (uint16_t)(layout_is_value(solid) ? TID_INSTANCE : solid->inst_tid);
    t->nslots = (uint16_t)nslots;
    t->version = type_new_version();
    r[6] = compute_mro(t, r[1]);
    if (!r[6])
        goto fail;
    t = (TypeObj *)r[7];
    VM_WRITE_RARE(t);
    t->mro = r[6];
    /* The class that introduces the instance dict or weak references gets a
     * __dict__ / __weakref__ descriptor (a metaclass's instances are
     * classes: type's own serve them). */
    if (has_dict && !base_has_dict && solid->inst_tid != TID_TYPE && !dict_getitem_str(t->dict, NAME(__dict__)) &&
        add_getset_descriptor(&r[7], NAME(__dict__), vm_getset_dict_get, vm_getset_dict_set) < 0)
        goto fail;
    t = (TypeObj *)r[7];
    if (has_weakref && !(base->flags & TPF_WEAKREFABLE) && solid->inst_tid != TID_TYPE &&
        !dict_getitem_cstr(t->dict, "__weakref__")) {
        r[9] = str_intern_cstr("__weakref__");
        if (!r[9] || add_getset_descriptor(&r[7], r[9], weakref_attr_get, NULL) < 0)
            goto fail;
    }
    for (int64_t k = 0; r[4] && k < TUPLE_LEN(r[4]); k++) {
        r[9] = member_new((TypeObj *)r[7], TUPLE_ITEMS(r[4])[k], base_nslots + k);
        if (!r[9] || dict_setitem(((TypeObj *)r[7])->dict, TUPLE_ITEMS(r[4])[k], r[9]) < 0)
            goto fail;
    }
    t = (TypeObj *)r[7];
    for (int64_t i = 0; i < TUPLE_LEN(r[1]); i++)
        add_subclass((TypeObj *)TUPLE_ITEMS(r[1])[i], t);
    update_slots(t);
    Obj am = dict_getitem_str(t->dict, NAME(__abstractmethods__));
    if (am) {
        int tr = vm_is_true(am);
        if (tr < 0)
            goto fail;
        if (tr) {
            t = (TypeObj *)r[7];
            VM_WRITE_RARE(t);
            t->flags |= TPF_ABSTRACT_NEW;
        }
    }
    if (r[5]) {
        VM_WRITE(r[5]);
        CELL(r[5])->ref = r[7];
    }
    if (call_set_name(r[7]) < 0)
        goto fail;
    if (call_init_subclass(r[7], args + nargs, r[10]) < 0)
        goto fail;
    Obj result = r[7];
    vm_unroots(r);
    return result;
fail:
    vm_unroots(r);
    return NULL;
}

static int type_tp_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    (void)self, (void)args;
    size_t nkw = kwnames ? (size_t)TUPLE_LEN(kwnames) : 0;
    if (nargs == 1 && nkw) {
        err_set(E_TypeError, "type.__init__() takes no keyword arguments");
        return -1;
    }
    if (nargs != 1 && nargs != 3) {
        err_set(E_TypeError, "type.__init__() takes 1 or 3 arguments");
        return -1;
    }
    return 0;
}

Obj type_call(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    TypeObj *t = (TypeObj *)type;
    if (unlikely(t == T_type) && nargs == 1 && (!kwnames || TUPLE_LEN(kwnames) == 0))
        return (Obj)TYPE(args[0]);
    if (!t->tp_new) {
        err_format(E_TypeError, "cannot create '%s' instances", type_name_of_type(t));
        return NULL;
    }
    if (likely(!kwnames)) {
        Obj obj = t->tp_new(type, args, nargs, NULL);
        if (!obj || !vm_isinstance_type(obj, t))
            return obj;
        initfunc init = TYPE(obj)->tp_init;
        if (init) {
            Obj *r = vm_roots(1);
            r[0] = obj;
            int rc = init(obj, args, nargs, NULL);
            obj = r[0];
            vm_unroots(r);
            if (rc < 0)
                return NULL;
        }
        return obj;
    }
    Obj *r = vm_roots(2);
    r[1] = kwnames;   /* may move while tp_new allocates */
    Obj obj = t->tp_new(type, args, nargs, kwnames);
    if (obj && vm_isinstance_type(obj, t)) {
        initfunc init = TYPE(obj)->tp_init;
        if (init) {
            r[0] = obj;
            int rc = init(obj, args, nargs, r[1]);
            obj = rc < 0 ? NULL : r[0];
        }
    }
    vm_unroots(r);
    return obj;
}

/* PEP 560: every base that is not a class but has __mro_entries__ is
 * replaced by the tuple that method returns for the original bases. The
 * same tuple if none has one, else a new one; NULL with the error. */
static Obj update_bases(Obj *basesp)
{
    Obj *r = vm_roots(3);   /* 0 new items (list), 1 method, 2 its result */
    Obj res = NULL;
    for (int64_t i = 0; i < TUPLE_LEN(*basesp); i++) {
        Obj b = TUPLE_ITEMS(*basesp)[i];
        if (IS_TYPE(b)) {
            if (r[0] && list_append(r[0], b) < 0)
                goto out;
            continue;
        }
        r[1] = vm_getattr_opt(b, NAME(__mro_entries__));
        if (!r[1]) {
            if (err_occurred() || (r[0] && list_append(r[0], TUPLE_ITEMS(*basesp)[i]) < 0))
                goto out;
            continue;
        }
        r[2] = vm_call1(r[1], *basesp);
        if (!r[2])
            goto out;
        if (!IS_TUPLE(r[2])) {
            err_set(E_TypeError, "__mro_entries__ must return a tuple");
            goto out;
        }
        if (!r[0]) {   /* the bases before this one, unchanged */
            if (!(r[0] = list_new_capacity(TUPLE_LEN(*basesp))))
                goto out;
            for (int64_t j = 0; j < i; j++)
                if (list_append(r[0], TUPLE_ITEMS(*basesp)[j]) < 0)
                    goto out;
        }
        for (int64_t j = 0; j < TUPLE_LEN(r[2]); j++)
            if (list_append(r[0], TUPLE_ITEMS(r[2])[j]) < 0)
                goto out;
    }
    res = r[0] ? vm_tuple_from_iter(r[0]) : *basesp;
out:
    vm_unroots(r);
    return res;
}

Obj vm_build_class(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs < 2) {
        err_set(E_TypeError, "__build_class__: not enough arguments");
        return NULL;
    }
    if (!IS_FUNCTION(args[0])) {
        err_set(E_TypeError, "__build_class__: func must be a function");
        return NULL;
    }
    if (!IS_STR(args[1])) {
        err_set(E_TypeError, "__build_class__: name is not a string");
        return NULL;
    }
    size_t nkw = kwnames ? (size_t)TUPLE_LEN(kwnames) : 0;
    size_t nbases = nargs - 2;
    /* r: 0 bases, 1 meta, 2 ns, 3 kwnames without metaclass, 4 cls, 5 cell,
     * 6 __prepare__; kwv: keyword values; vec: call vector */
    int nr = 9 + 2 * (int)nkw + 3;
    Obj *r = vm_roots(nr);
    Obj *kwv = r + 9, *vec = kwv + nkw;   /* r[8]: the bases as written (PEP 560) */
    r[7] = kwnames;
    r[8] = tuple_from_array(args + 2, (int64_t)nbases);
    kwnames = r[7];
    if (!r[8] || !(r[0] = update_bases(&r[8])))
        goto fail;
    nbases = (size_t)TUPLE_LEN(r[0]);
    /* keyword arguments: metaclass= is ours; the rest go to the metaclass */
    size_t nrest = 0;
    for (size_t i = 0; i < nkw; i++) {
        Obj k = TUPLE_ITEMS(kwnames)[i];
        if (str_eq(k, NAME(metaclass)))
            r[1] = args[nargs + i];
        else
            kwv[nrest++] = args[nargs + i];
    }
    if (nrest) {
        r[3] = tuple_new((int64_t)nrest);
        if (!r[3])
            goto fail;
        size_t j = 0;
        for (size_t i = 0; i < nkw; i++) {
            Obj k = TUPLE_ITEMS(kwnames)[i];
            if (!str_eq(k, NAME(metaclass)))
                TUPLE_ITEMS(r[3])[j++] = k;
        }
    }
    if (!r[1])
        r[1] = nbases ? (Obj)TYPE(TUPLE_ITEMS(r[0])[0]) : (Obj)T_type;
    if (is_type_obj(r[1]) && type_is_subtype((TypeObj *)r[1], T_type)) {
        TypeObj *w = calculate_metaclass((TypeObj *)r[1], r[0]);
        if (!w)
            goto fail;
        r[1] = (Obj)w;
    }
    /* the namespace: __prepare__ (type's own gives a plain dict) */
    if (r[1] != (Obj)T_type) {
        r[6] = vm_getattr_opt(r[1], NAME(__prepare__));
        if (!r[6] && err_occurred())
            goto fail;
        if (r[6] && TID(r[6]) == TID_BUILTIN && ((BuiltinObj *)r[6])->owner == (Obj)T_type)
            r[6] = NULL;
    }
    if (r[6]) {
        vec[0] = args[1];
        vec[1] = r[0];
        for (size_t i = 0; i < nrest; i++)
            vec[2 + i] = kwv[i];
        r[2] = vm_call(r[6], vec, 2, nrest ? r[3] : NULL);
        if (!r[2])
            goto fail;
    } else {
        r[2] = dict_new();
        if (!r[2])
            goto fail;
    }
    if (r[0] != r[8] && vm_setitem(r[2], vm_intern_cached("__orig_bases__"), r[8]) < 0)
        goto fail;
    Obj body = vm_run_class_body(args[0], r[2]);
    if (!body)
        goto fail;
    if (IS_DICT(r[2]))
        r[5] = dict_getitem_str(r[2], NAME(__classcell__));
    vec[0] = args[1];
    vec[1] = r[0];
    vec[2] = r[2];
    for (size_t i = 0; i < nrest; i++)
        vec[3 + i] = kwv[i];
    r[4] = vm_call(r[1], vec, 3, nrest ? r[3] : NULL);
    if (!r[4])
        goto fail;
    if (r[5] && TID(r[5]) == TID_CELL && !CELL(r[5])->ref) {
        VM_WRITE(r[5]);
        CELL(r[5])->ref = r[4];
    }
    Obj res = r[4];
    vm_unroots(r);
    return res;
fail:
    vm_unroots(r);
    return NULL;
}

/* ------------------------------------------------------------------ */
/* type: attributes                                                   */
/* ------------------------------------------------------------------ */
static Obj type_getattro(Obj type, Obj name)
{
    TypeObj *t = (TypeObj *)type, *meta = TYPE(type);
    Obj meta_attr = vm_lookup_type(meta, name);
    descrgetfunc meta_get = NULL;
    if (meta_attr) {
        TypeObj *mt = TYPE(meta_attr);
        meta_get = mt->tp_descr_get;
        if (meta_get && mt->tp_descr_set)
            return meta_get(meta_attr, type, (Obj)meta);
    }
    Obj attr = vm_lookup_type(t, name);
    if (attr) {
        descrgetfunc g = TYPE(attr)->tp_descr_get;
        return g ? g(attr, NULL, type) : attr;
    }
    if (meta_get)
        return meta_get(meta_attr, type, (Obj)meta);
    if (meta_attr)
        return meta_attr;
    return err_no_attr(type, name);
}

static int type_setattro(Obj type, Obj name, Obj v)
{
    TypeObj *t = (TypeObj *)type;
    if (!IS_STR(name)) {
        err_format(E_TypeError, "attribute name must be string, not '%s'", type_name(name));
        return -1;
    }
    if (!(t->flags & TPF_HEAPTYPE)) {
        err_format(E_TypeError, "cannot set '%s' attribute of immutable type '%s'", str_cstr(name),
                   type_name_of_type(t));
        return -1;
    }
    Obj *r = vm_roots(3);
    r[0] = type;
    r[1] = name;
    r[2] = v;
    int rc = -1;
    Obj ma = vm_lookup_type(TYPE(type), name);
    if (ma && TYPE(ma)->tp_descr_set) {
        rc = TYPE(ma)->tp_descr_set(ma, type, v);
        goto out;
    }
    r[1] = str_intern(r[1]);
    if (!r[1])
        goto out;
    t = (TypeObj *)r[0];
    if (r[2]) {
        if (dict_setitem(t->dict, r[1], r[2]) < 0)
            goto out;
    } else {
        if (dict_delitem(t->dict, r[1]) < 0) {
            if (err_matches(E_KeyError)) {
                err_clear();
                err_no_attr(r[0], r[1]);
            }
            goto out;
        }
    }
    t = (TypeObj *)r[0];
    type_modified(t);
    const char *cn = str_cstr(r[1]);
    if (cn[0] == '_' && cn[1] == '_') {
        update_slots_for_name(t, r[1], 0);
        if (str_eq(r[1], NAME(__abstractmethods__))) {
            int tr = r[2] ? vm_is_true(r[2]) : 0;
            if (tr < 0)
                goto out;
            t = (TypeObj *)r[0];
            VM_WRITE_RARE(t);
            if (tr)
                t->flags |= TPF_ABSTRACT_NEW;
            else
                t->flags &= ~(uint32_t)TPF_ABSTRACT_NEW;
        }
    }
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* __module__ of a type as a str (NULL: builtins). */
Obj type_module(TypeObj *t)
{
    if (t->flags & TPF_HEAPTYPE) {
        Obj m = dict_getitem_str(t->dict, NAME(__module__));
        return (m && IS_STR(m)) ? m : NULL;
    }
    return t->module;
}

Obj type_repr(Obj type)
{
    TypeObj *t = (TypeObj *)type;
    Obj mod = type_module(t);
    StrBuf b;
    sb_init(&b);
    sb_adds(&b, "<class '");
    if (mod && !str_eq(mod, NAME(builtins))) {
        sb_add_str(&b, mod);
        sb_addc(&b, '.');
    }
    sb_add_str(&b, t->qualname ? t->qualname : t->name);
    sb_adds(&b, "'>");
    return sb_finish(&b);
}

static Obj type_name_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return ((TypeObj *)args[0])->name;
}

static bool check_heap_set(TypeObj *t, const char *attr, Obj v)
{
    if (!(t->flags & TPF_HEAPTYPE)) {
        err_format(E_TypeError, "cannot set '%s' attribute of immutable type '%s'", attr, type_name_of_type(t));
        return false;
    }
    if (!v) {
        err_format(E_TypeError, "cannot delete '%s' attribute of immutable type '%s'", attr, type_name_of_type(t));
        return false;
    }
    return true;
}

/* A class name is C text in CPython: no NUL, no lone surrogate. 0 or -1. */
static int check_type_name(Obj name)
{
    const char *p = str_cstr(name);
    size_t n = (size_t)STR(name)->nbytes;
    if (memchr(p, 0, n)) {
        err_set(E_ValueError, "type name must not contain null characters");
        return -1;
    }
    if (utf8_has_surrogate(p, n)) {
        str_encode(name, "utf-8", "strict");   /* UnicodeEncodeError */
        return -1;
    }
    return 0;
}

static Obj type_name_set(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    TypeObj *t = (TypeObj *)args[0];
    if (!check_heap_set(t, "__name__", args[1]))
        return NULL;
    if (!IS_STR(args[1])) {
        err_format(E_TypeError, "can only assign string to %s.__name__, not '%s'", type_name_of_type(t),
                   type_name(args[1]));
        return NULL;
    }
    if (check_type_name(args[1]) < 0)
        return NULL;
    Obj s = str_intern(args[1]);
    if (!s)
        return NULL;
    t = (TypeObj *)args[0];
    VM_WRITE_RARE(t);
    t->name = s;
    return g_None;
}

static Obj type_qualname_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    TypeObj *t = (TypeObj *)args[0];
    return t->qualname ? t->qualname : t->name;
}

static Obj type_qualname_set(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    TypeObj *t = (TypeObj *)args[0];
    if (!check_heap_set(t, "__qualname__", args[1]))
        return NULL;
    if (!IS_STR(args[1])) {
        err_format(E_TypeError, "can only assign string to %s.__qualname__, not '%s'", type_name_of_type(t),
                   type_name(args[1]));
        return NULL;
    }
    VM_WRITE_RARE(t);
    t->qualname = args[1];
    return g_None;
}

static Obj type_module_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    TypeObj *t = (TypeObj *)args[0];
    if (t->flags & TPF_HEAPTYPE) {
        Obj m = dict_getitem_str(t->dict, NAME(__module__));
        if (!m) {
            err_set_value(E_AttributeError, NAME(__module__));
            return NULL;
        }
        return m;
    }
    return t->module ? t->module : NAME(builtins);
}

static Obj type_module_set(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    TypeObj *t = (TypeObj *)args[0];
    if (!check_heap_set(t, "__module__", args[1]))
        return NULL;
    if (dict_setitem(t->dict, NAME(__module__), args[1]) < 0)
        return NULL;
    t = (TypeObj *)args[0];
    if (IS_STR(args[1])) {
        VM_WRITE_RARE(t);
        t->module = args[1];
    }
    type_modified(t);
    return g_None;
}

static Obj type_bases_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return ((TypeObj *)args[0])->bases;
}

/* The MROs of t and every class below it, from their bases (after a
 * __bases__ assignment); 0, or -1 with the error (some MROs may then be new). */
static int recompute_mros(TypeObj *t, int depth)
{
    if (depth > 200) {
        err_set(E_RecursionError, "maximum recursion depth exceeded while updating MROs");
        return -1;
    }
    /* t and its subclass list are re-read from a root after every call
     * that allocates: a young one moves (move mode with injected aborts
     * found the list read stale: class_object_model, seed 3765). */
    Obj *r = vm_roots(1);
    r[0] = (Obj)t;
    Obj mro = compute_mro(t, t->bases);
    if (!mro) {
        vm_unroots(r);
        return -1;
    }
    t = (TypeObj *)r[0];
    VM_WRITE_RARE(t);
    t->mro = mro;
    for (int64_t i = 0;; i++) {
        Obj subs = ((TypeObj *)r[0])->subclasses;
        if (!subs || i >= LIST_LEN(subs))
            break;
        if (recompute_mros((TypeObj *)LIST_ITEMS(subs)[i], depth + 1) < 0) {
            vm_unroots(r);
            return -1;
        }
    }
    vm_unroots(r);
    return 0;
}

static void refresh_slots(TypeObj *t, int depth)
{
    if (depth > 200)
        return;
    Obj *r = vm_roots(1);   /* as in recompute_mros: t re-read after calls that may allocate */
    r[0] = (Obj)t;
    update_slots(t);
    for (int64_t i = 0;; i++) {
        Obj subs = ((TypeObj *)r[0])->subclasses;
        if (!subs || i >= LIST_LEN(subs))
            break;
        refresh_slots((TypeObj *)LIST_ITEMS(subs)[i], depth + 1);
    }
    vm_unroots(r);
}

static void remove_subclass(TypeObj *base, TypeObj *t)
{
    Obj subs = base->subclasses;
    for (int64_t i = 0; subs && i < LIST_LEN(subs); i++)
        if (LIST_ITEMS(subs)[i] == (Obj)t) {
            Obj r = vm_call_method1(subs, "pop", MAKE_SMALLINT(i));
            if (!r)
                err_clear();
            return;
        }
}

/* cls.__bases__ = (...): CPython's checks; the MROs of the class and its
 * subclasses are recomputed (restored if that fails), slots refreshed. Types
 * are read without barriers: every store is a rare write. */
static Obj type_bases_set(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    TypeObj *t = (TypeObj *)args[0];
    Obj v = args[1];
    const char *name = type_name_of_type(t);
    if (!(t->flags & TPF_HEAPTYPE) || !v) {
        err_format(E_TypeError, "cannot %s '__bases__' attribute of immutable type '%s'", v ? "set" : "delete", name);
        return NULL;
    }
    if (!IS_TUPLE(v)) {
        err_format(E_TypeError, "can only assign tuple to %s.__bases__, not %s", name, type_name(v));
        return NULL;
    }
    if (TUPLE_LEN(v) == 0) {
        err_format(E_TypeError, "can only assign non-empty tuple to %s.__bases__, not ()", name);
        return NULL;
    }
    for (int64_t i = 0; i < TUPLE_LEN(v); i++) {
        Obj b = TUPLE_ITEMS(v)[i];
        if (!IS_TYPE(b)) {
            err_format(E_TypeError, "%s.__bases__ must be tuple of classes, not '%s'", name, type_name(b));
            return NULL;
        }
        if (type_is_subtype((TypeObj *)b, t)) {
            err_set(E_TypeError, "a __bases__ item causes an inheritance cycle");
            return NULL;
        }
    }
    TypeObj *solid = NULL;
    TypeObj *nb = best_base(v, &solid);
    if (!nb)
        return NULL;
    TypeObj *ob = (TypeObj *)t->base;
    if (solid != (TypeObj *)t->solid || nb->nslots != ob->nslots ||
        ((nb->flags ^ ob->flags) & TPF_HAS_DICT)) {
        err_format(E_TypeError, "__bases__ assignment: '%s' object layout differs from '%s'", type_name_of_type(nb),
                   type_name_of_type(ob));
        return NULL;
    }
    Obj *r = vm_roots(2);
    r[0] = t->bases;
    r[1] = v;
    Obj res = NULL;
    VM_WRITE_RARE(t);
    t->bases = v;
    t->base = (Obj)nb;
    if (recompute_mros(t, 0) < 0) {
        Obj exc = err_fetch();
        VM_WRITE_RARE(t);
        t->bases = r[0];
        t->base = (Obj)ob;
        r[1] = exc;
        if (recompute_mros(t, 0) < 0)
            err_clear();
        err_set_obj(r[1]);
        goto out;
    }
    for (int64_t i = 0; i < TUPLE_LEN(r[0]); i++)
        remove_subclass((TypeObj *)TUPLE_ITEMS(r[0])[i], t);
    for (int64_t i = 0; i < TUPLE_LEN(t->bases); i++)
        add_subclass((TypeObj *)TUPLE_ITEMS(t->bases)[i], t);
    refresh_slots(t, 0);
    type_modified(t);
    res = g_None;
out:
    vm_unroots(r);
    return res;
}

static Obj type_base_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    Obj b = ((TypeObj *)args[0])->base;
    return b ? b : g_None;
}

/* __flags__ in CPython's bit values (Py_TPFLAGS_*), for the code that reads
 * them: copyreg's protocol 0/1 pickling stops at the first non-heap base. */
static Obj type_flags_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    TypeObj *t = (TypeObj *)args[0];
    uint64_t f = 1u << 12;   /* READY */
    f |= (t->flags & TPF_HEAPTYPE) ? (1u << 9) | (1u << 14) : (1u << 8);   /* HEAPTYPE|HAVE_GC, or IMMUTABLETYPE */
    if (t->flags & TPF_BASETYPE)
        f |= 1u << 10;
    if (t->flags & TPF_SEQUENCE)
        f |= 1u << 5;
    if (t->flags & TPF_MAPPING)
        f |= 1u << 6;
    if (t->flags & TPF_ABSTRACT_NEW)
        f |= 1u << 20;
    static TypeObj **const kinds[] = {&T_int, &T_list, &T_tuple, &T_bytes, &T_str, &T_dict, &E_BaseException, &T_type};
    for (int i = 0; i < 8; i++)
        if (type_is_subtype(t, *kinds[i]) || t == *kinds[i])
            f |= 1ull << (24 + i);   /* LONG_SUBCLASS .. TYPE_SUBCLASS */
    return int_from_u64(f);
}

static Obj type_mro_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    Obj m = ((TypeObj *)args[0])->mro;
    return m ? m : g_empty_tuple;
}

static Obj type_dict_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return dict_copy(((TypeObj *)args[0])->dict);
}

static Obj type_doc_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    TypeObj *t = (TypeObj *)args[0];
    Obj d = dict_getitem_str(t->dict, NAME(__doc__));
    if (!d)
        return g_None;
    descrgetfunc g = TYPE(d)->tp_descr_get;
    if (g)
        return g(d, NULL, args[0]);
    return d;
}

static Obj type_doc_set(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    TypeObj *t = (TypeObj *)args[0];
    if (!check_heap_set(t, "__doc__", args[1]))
        return NULL;
    if (dict_setitem(t->dict, NAME(__doc__), args[1]) < 0)
        return NULL;
    type_modified((TypeObj *)args[0]);
    return g_None;
}

static Obj type_abstract_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    TypeObj *t = (TypeObj *)args[0];
    Obj v = t != T_type ? dict_getitem_str(t->dict, NAME(__abstractmethods__)) : NULL;
    if (!v) {
        err_set_value(E_AttributeError, NAME(__abstractmethods__));
        return NULL;
    }
    return v;
}

static Obj type_abstract_set(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    TypeObj *t = (TypeObj *)args[0];
    int tr = 0;
    if (args[1]) {
        tr = vm_is_true(args[1]);
        if (tr < 0)
            return NULL;
        if (dict_setitem(((TypeObj *)args[0])->dict, NAME(__abstractmethods__), args[1]) < 0)
            return NULL;
    } else if (dict_delitem(t->dict, NAME(__abstractmethods__)) < 0) {
        if (err_matches(E_KeyError)) {
            err_clear();
            err_set_value(E_AttributeError, NAME(__abstractmethods__));
        }
        return NULL;
    }
    t = (TypeObj *)args[0];
    VM_WRITE_RARE(t);
    if (tr)
        t->flags |= TPF_ABSTRACT_NEW;
    else
        t->flags &= ~(uint32_t)TPF_ABSTRACT_NEW;
    type_modified(t);
    return g_None;
}

static Obj type_annotations_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    TypeObj *t = (TypeObj *)args[0];
    Obj v = dict_getitem_str(t->dict, NAME(__annotations__));
    if (v)
        return v;
    if (!(t->flags & TPF_HEAPTYPE)) {
        err_format(E_AttributeError, "type object '%s' has no attribute '__annotations__'", type_name_of_type(t));
        return NULL;
    }
    Obj *r = vm_roots(1);   /* the new dict moves when dict_setitem allocates */
    r[0] = dict_new();
    Obj d = NULL;
    if (r[0] && dict_setitem(((TypeObj *)args[0])->dict, NAME(__annotations__), r[0]) == 0) {
        type_modified((TypeObj *)args[0]);
        d = r[0];
    }
    vm_unroots(r);
    return d;
}

static Obj type_annotations_set(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    TypeObj *t = (TypeObj *)args[0];
    if (!check_heap_set(t, "__annotations__", args[1]))
        return NULL;
    if (dict_setitem(t->dict, NAME(__annotations__), args[1]) < 0)
        return NULL;
    type_modified((TypeObj *)args[0]);
    return g_None;
}

static Obj type_mro_m(Obj *args, size_t nargs, Obj kw)
{
    Obj m = ((TypeObj *)args[0])->mro;
    return vm_list_from_iter(m ? m : g_empty_tuple);
}

static Obj type_subclasses_m(Obj *args, size_t nargs, Obj kw)
{
    Obj s = ((TypeObj *)args[0])->subclasses;
    return s ? vm_list_from_iter(s) : list_new(0);
}

static Obj type_instancecheck_m(Obj *args, size_t nargs, Obj kw)
{
    return vm_bool(vm_isinstance_type(args[1], (TypeObj *)args[0]));
}

static Obj type_subclasscheck_m(Obj *args, size_t nargs, Obj kw)
{
    if (!IS_TYPE(args[1])) {
        err_set(E_TypeError, "issubclass() arg 1 must be a class");
        return NULL;
    }
    return vm_bool(type_is_subtype((TypeObj *)args[1], (TypeObj *)args[0]));
}

static Obj type_prepare_m(Obj *args, size_t nargs, Obj kw)
{
    (void)args, (void)nargs, (void)kw;
    return dict_new();
}

static Obj type_dir_m(Obj *args, size_t nargs, Obj kw)
{
    Obj *r = vm_roots(1);
    r[0] = dict_new();
    Obj res = NULL;
    if (!r[0])
        goto out;
    Obj mro = ((TypeObj *)args[0])->mro;
    for (int64_t i = 0; mro && i < TUPLE_LEN(mro); i++) {
        mro = ((TypeObj *)args[0])->mro;
        if (dict_update(r[0], ((TypeObj *)TUPLE_ITEMS(mro)[i])->dict) < 0)
            goto out;
    }
    res = dict_keys_list(r[0]);
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* object                                                             */
/* ------------------------------------------------------------------ */
Obj object_repr(Obj self)
{
    Obj *r = vm_roots(1);
    r[0] = self;
    uint64_t addr = vm_object_id(self);
    self = r[0];
    vm_unroots(r);
    TypeObj *t = TYPE(self);
    Obj mod = type_module(t);
    StrBuf b;
    sb_init(&b);
    sb_addc(&b, '<');
    if (mod && !str_eq(mod, NAME(builtins))) {
        sb_add_str(&b, mod);
        sb_addc(&b, '.');
    }
    sb_add_str(&b, t->qualname ? t->qualname : t->name);
    sb_printf(&b, " object at %#lx>", (unsigned long)addr);
    return sb_finish(&b);
}

static Obj object_str(Obj self) { return vm_repr(self); }

static int64_t object_hash(Obj self) { return vm_identity_hash(self); }

static Obj object_richcompare(Obj self, Obj other, int op)
{
    if (op == CMP_EQ)
        return self == other ? g_True : g_NotImplemented;
    if (op == CMP_NE) {
        richcmpfunc f = TYPE(self)->tp_richcompare;
        if (!f)
            return g_NotImplemented;
        Obj r = f(self, other, CMP_EQ);
        if (!r || r == g_NotImplemented)
            return r;
        int t = vm_is_true(r);
        if (t < 0)
            return NULL;
        return vm_bool(!t);
    }
    return g_NotImplemented;
}

static bool excess_args(size_t nargs, Obj kwnames)
{
    return nargs > 0 || (kwnames && TUPLE_LEN(kwnames) > 0);
}

static Obj abstract_error(TypeObj *t)
{
    Obj *r = vm_roots(2);
    r[0] = (Obj)t;
    Obj am = dict_getitem_str(t->dict, NAME(__abstractmethods__));
    Obj res = NULL;
    if (am)
        r[1] = vm_list_from_iter(am);
    if (r[1] && list_sort(r[1], NULL, false) == 0) {
        int64_t n = LIST_LEN(r[1]);
        Obj sep = str_from_cstr(", ");
        Obj joined = sep ? str_join(sep, r[1]) : NULL;
        if (joined)
            err_format(E_TypeError, "Can't instantiate abstract class %s with abstract method%s %s",
                       type_name_of_type((TypeObj *)r[0]), n == 1 ? "" : "s", str_cstr(joined));
    } else if (!err_occurred()) {
        err_format(E_TypeError, "Can't instantiate abstract class %s", type_name_of_type((TypeObj *)r[0]));
    }
    vm_unroots(r);
    return res;
}

static Obj object_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    (void)args;
    TypeObj *t = (TypeObj *)type;
    if (excess_args(nargs, kwnames)) {
        if (t->tp_new != object_new) {
            err_set(E_TypeError, "object.__new__() takes exactly one argument (the type to instantiate)");
            return NULL;
        }
        if (t->tp_init == object_init) {
            err_format(E_TypeError, "%s() takes no arguments", type_name_of_type(t));
            return NULL;
        }
    }
    if (unlikely(t->flags & TPF_ABSTRACT_NEW))
        return abstract_error(t);
    if (vm_builtin_base(t)) {
        TypeObj *b = vm_builtin_base(t);
        err_format(E_TypeError, "object.__new__(%s) is not safe, use %s.__new__()", type_name_of_type(t),
                   type_name_of_type(b));
        return NULL;
    }
    return instance_new(t);
}

static int object_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    (void)args;
    if (excess_args(nargs, kwnames)) {
        TypeObj *t = TYPE(self);
        if (t->tp_init != object_init) {
            err_set(E_TypeError, "object.__init__() takes exactly one argument (the instance to initialize)");
            return -1;
        }
        if (t->tp_new == object_new) {
            err_format(E_TypeError, "%s() takes no arguments", type_name_of_type(t));
            return -1;
        }
    }
    return 0;
}

static Obj object_class_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return (Obj)TYPE(args[0]);
}

static Obj object_class_set(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    Obj self = args[0], v = args[1];
    if (!v) {
        err_set(E_TypeError, "can't delete __class__ attribute");
        return NULL;
    }
    if (!IS_TYPE(v)) {
        err_format(E_TypeError, "__class__ must be set to a class, not '%s' object", type_name(v));
        return NULL;
    }
    TypeObj *old = TYPE(self), *nt = (TypeObj *)v;
    if (TID(self) == TID_MODULE && type_is_subtype(nt, T_module)) {
        if (nt->nslots != old->nslots) {
            err_format(E_TypeError, "__class__ assignment: '%s' object layout differs from '%s'",
                       type_name_of_type(nt), type_name_of_type(old));
            return NULL;
        }
        VM_WRITE_RARE(self);   /* modules are read without barriers */
        ((ModuleObj *)self)->cls = nt == T_module ? NULL : v;
        return g_None;
    }
    if (TID(self) < TID_FIRST_WITH_CLS || !(old->flags & TPF_HEAPTYPE) || !(nt->flags & TPF_HEAPTYPE)) {
        err_set(E_TypeError, "__class__ assignment only supported for mutable types or ModuleType subclasses");
        return NULL;
    }
    if (nt->inst_tid != old->inst_tid || nt->solid != old->solid || nt->nslots != old->nslots) {
        err_format(E_TypeError, "__class__ assignment: '%s' object layout differs from '%s'", type_name_of_type(nt),
                   type_name_of_type(old));
        return NULL;
    }
    VM_WRITE_RARE(self);   /* TYPE() reads cls without a barrier */
    INST(self)->cls = v;
    return g_None;
}

Obj vm_getset_dict_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    Obj d = vm_instance_dict(args[0]);
    if (!d && !err_occurred())
        err_no_attr(args[0], NAME(__dict__));
    return d;
}

Obj vm_getset_dict_set(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    Obj v = args[1];
    if (!v) {
        err_set(E_TypeError, "cannot delete __dict__");
        return NULL;
    }
    if (!IS_DICT(v)) {
        err_format(E_TypeError, "__dict__ must be set to a dictionary, not a '%s'", type_name(v));
        return NULL;
    }
    Obj __seg_gs *slot = vm_dict_slot(args[0]);
    if (!slot)
        return err_no_attr(args[0], NAME(__dict__));
    vm_write_dict_slot(args[0]);
    *slot = v;
    return g_None;
}

static Obj object_format_m(Obj *args, size_t nargs, Obj kw)
{
    Obj spec = args[1];
    if (!IS_STR(spec)) {
        err_format(E_TypeError, "__format__() argument must be str, not %s", type_name(spec));
        return NULL;
    }
    if (str_len(spec) > 0) {
        err_format(E_TypeError, "unsupported format string passed to %s.__format__", type_name(args[0]));
        return NULL;
    }
    return vm_str(args[0]);
}

static Obj object_dir_m(Obj *args, size_t nargs, Obj kw)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = dict_new();
    if (!r[0])
        goto out;
    Obj __seg_gs *slot = vm_dict_slot(args[0]);
    if (slot && *slot && IS_DICT(*slot) && dict_update(r[0], *slot) < 0)
        goto out;
    r[1] = (Obj)TYPE(args[0]);
    Obj mro = ((TypeObj *)r[1])->mro;
    for (int64_t i = 0; mro && i < TUPLE_LEN(mro); i++) {
        mro = ((TypeObj *)r[1])->mro;
        if (dict_update(r[0], ((TypeObj *)TUPLE_ITEMS(mro)[i])->dict) < 0)
            goto out;
    }
    res = dict_keys_list(r[0]);
out:
    vm_unroots(r);
    return res;
}

static Obj object_init_subclass_m(Obj *args, size_t nargs, Obj kw)
{
    if (nargs > 1 || (kw && TUPLE_LEN(kw) > 0)) {
        err_format(E_TypeError, "%s.__init_subclass__() takes no keyword arguments",
                   IS_TYPE(args[0]) ? type_name_of_type((TypeObj *)args[0]) : "object");
        return NULL;
    }
    return g_None;
}

static Obj object_subclasshook_m(Obj *args, size_t nargs, Obj kw)
{
    (void)args, (void)nargs, (void)kw;
    return g_NotImplemented;
}

/* ---- pickling protocol (PEP 307): __getstate__, __reduce__, __reduce_ex__ ---- */

/* The names of the __slots__ values of cls, as copyreg._slotnames lists
 * them (it caches them in cls.__slotnames__). */
static Obj slot_names_of(Obj cls)
{
    /* copyreg caches them in the class's own dict: read that from C first
     * (copy and pickle ask for every object they reduce). */
    Obj cached_name = vm_intern_cached("__slotnames__");
    if (!cached_name)
        return NULL;
    Obj own = ((TypeObj *)cls)->dict;
    Obj cached = own ? dict_getitem_str(own, cached_name) : NULL;
    if (cached && IS_LIST(cached))
        return cached;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = cls;
    r[1] = vm_import_cstr("copyreg");
    if (r[1] && (r[1] = vm_getattr_cstr(r[1], "_slotnames")))
        res = vm_call1(r[1], r[0]);
    if (res && !IS_LIST(res)) {
        err_set(E_TypeError, "copyreg._slotnames didn't return a list or None");
        res = NULL;
    }
    vm_unroots(r);
    return res;
}

/* object.__getstate__'s default: the instance dict (None if empty), paired
 * with a dict of the set __slots__ values when there are any. `required`
 * (nothing else would rebuild the object): an object with C-level state
 * beyond a plain instance cannot be pickled. */
static Obj object_getstate_default(Obj self, bool required)
{
    /* r: 0 self, 1 state, 2 slot names, 3 slots dict, 4 value */
    Obj *r = vm_roots(5);
    Obj res = NULL;
    r[0] = self;
    if (required && TYPE(r[0])->solid != (Obj)T_object) {
        err_format(E_TypeError, "cannot pickle '%s' object", type_name(r[0]));
        goto out;
    }
    r[1] = g_None;
    Obj d = vm_getattr_opt(r[0], NAME(__dict__));
    if (!d && err_occurred())
        goto out;
    if (d && IS_DICT(d) && dict_len(d) > 0)
        r[1] = d;
    r[2] = slot_names_of((Obj)TYPE(r[0]));
    if (!r[2])
        goto out;
    if (LIST_LEN(r[2]) > 0) {
        r[3] = dict_new();
        if (!r[3])
            goto out;
        for (int64_t i = 0; i < LIST_LEN(r[2]); i++) {
            Obj name = LIST_ITEMS(r[2])[i];
            r[4] = IS_STR(name) ? vm_getattr_opt(r[0], name) : NULL;
            if (!r[4]) {
                if (err_occurred())
                    goto out;
                continue;
            }
            if (dict_setitem(r[3], LIST_ITEMS(r[2])[i], r[4]) < 0)
                goto out;
        }
        if (dict_len(r[3]) > 0 && !(r[1] = tuple_pack(2, r[1], r[3])))
            goto out;
    }
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

static Obj object_getstate_m(Obj *args, size_t nargs, Obj kw)
{
    return object_getstate_default(args[0], false);
}

/* obj.__getstate__(), or the default directly when it is object's. */
static Obj object_state(Obj self, bool required)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    Obj getstate = vm_intern_cached("__getstate__");
    Obj mine = getstate ? dict_getitem_str(T_object->dict, getstate) : NULL;
    Obj found = vm_lookup_special(r[0], "__getstate__");
    if (!found || found == mine)
        res = object_getstate_default(r[0], required);
    else if ((r[1] = vm_getattr_cstr(r[0], "__getstate__")))
        res = vm_call0(r[1]);
    vm_unroots(r);
    return res;
}

Obj vm_object_state(Obj self) { return object_state(self, false); }

/* Protocol 2+: (copyreg.__newobj__, (cls, *args), state, listitems,
 * dictitems), or __newobj_ex__ with (cls, args, kwargs) when
 * __getnewargs_ex__ gives keyword arguments. */
static Obj reduce_newobj(Obj self)
{
    /* r: 0 self, 1 args, 2 kwargs, 3 copyreg, 4 newobj, 5 newargs, 6 state, 7 listitems, 8 dictitems, 9 tmp */
    Obj *r = vm_roots(10);
    Obj res = NULL;
    r[0] = self;
    if (!TYPE(r[0])->tp_new) {
        err_format(E_TypeError, "cannot pickle '%s' object", type_name(r[0]));
        goto out;
    }
    r[1] = g_empty_tuple;
    r[2] = NULL;
    if (vm_lookup_special(r[0], "__getnewargs_ex__")) {
        r[9] = vm_call_method(r[0], "__getnewargs_ex__", NULL, 0);
        if (!r[9])
            goto out;
        if (!IS_TUPLE(r[9])) {
            err_format(E_TypeError, "__getnewargs_ex__ should return a tuple, not '%s'", type_name(r[9]));
            goto out;
        }
        if (TUPLE_LEN(r[9]) != 2) {
            err_format(E_ValueError, "__getnewargs_ex__ should return a tuple of length 2, not %lld",
                       (long long)TUPLE_LEN(r[9]));
            goto out;
        }
        r[1] = TUPLE_ITEMS(r[9])[0];
        r[2] = TUPLE_ITEMS(r[9])[1];
        if (!IS_TUPLE(r[1])) {
            err_format(E_TypeError, "first item of the tuple returned by __getnewargs_ex__ must be a tuple, not '%s'",
                       type_name(r[1]));
            goto out;
        }
        if (!IS_DICT(r[2])) {
            err_format(E_TypeError, "second item of the tuple returned by __getnewargs_ex__ must be a dict, not '%s'",
                       type_name(r[2]));
            goto out;
        }
    } else if (vm_lookup_special(r[0], "__getnewargs__")) {
        r[1] = vm_call_method(r[0], "__getnewargs__", NULL, 0);
        if (!r[1])
            goto out;
        if (!IS_TUPLE(r[1])) {
            err_format(E_TypeError, "__getnewargs__ should return a tuple, not '%s'", type_name(r[1]));
            goto out;
        }
    }
    bool has_kwargs = r[2] && dict_len(r[2]) > 0;
    r[3] = vm_import_cstr("copyreg");
    if (!r[3])
        goto out;
    if (!has_kwargs) {
        r[4] = vm_getattr_cstr(r[3], "__newobj__");
        int64_t n = TUPLE_LEN(r[1]);
        r[5] = r[4] ? tuple_new(n + 1) : NULL;
        if (!r[5])
            goto out;
        TUPLE_ITEMS(r[5])[0] = (Obj)TYPE(r[0]);
        for (int64_t i = 0; i < n; i++)
            TUPLE_ITEMS(r[5])[i + 1] = TUPLE_ITEMS(r[1])[i];
    } else {
        r[4] = vm_getattr_cstr(r[3], "__newobj_ex__");
        r[5] = r[4] ? tuple_pack(3, (Obj)TYPE(r[0]), r[1], r[2]) : NULL;
        if (!r[5])
            goto out;
    }
    bool is_list = vm_isinstance_type(r[0], T_list), is_dict = vm_isinstance_type(r[0], T_dict);
    r[6] = object_state(r[0], !(TUPLE_LEN(r[1]) > 0 || has_kwargs || is_list || is_dict));
    if (!r[6])
        goto out;
    r[7] = g_None;
    r[8] = g_None;
    if (is_list && !(r[7] = vm_iter(r[0])))
        goto out;
    if (is_dict) {
        r[9] = vm_call_method(r[0], "items", NULL, 0);
        if (!r[9] || !(r[8] = vm_iter(r[9])))
            goto out;
    }
    res = tuple_pack(5, r[4], r[5], r[6], r[7], r[8]);
out:
    vm_unroots(r);
    return res;
}

/* Protocols 0 and 1: copyreg._reduce_ex(self, protocol). */
static Obj reduce_copyreg(Obj self, int64_t protocol)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    r[1] = vm_import_cstr("copyreg");
    if (r[1] && (r[1] = vm_getattr_cstr(r[1], "_reduce_ex")))
        res = vm_call2(r[1], r[0], MAKE_SMALLINT(protocol));
    vm_unroots(r);
    return res;
}

static Obj object_reduce_m(Obj *args, size_t nargs, Obj kw)
{
    return reduce_copyreg(args[0], 0);
}

/* __reduce_ex__(protocol): a class's own __reduce__ wins; else protocol 2+
 * rebuilds through copyreg.__newobj__, 0 and 1 through copyreg. */
static Obj object_reduce_ex_m(Obj *args, size_t nargs, Obj kw)
{
    int64_t protocol;
    if (vm_index_i64(args[1], &protocol) < 0)
        return NULL;
    Obj reduce = vm_intern_cached("__reduce__");
    Obj mine = reduce ? dict_getitem_str(T_object->dict, reduce) : NULL;
    Obj found = vm_lookup_special(args[0], "__reduce__");
    if (found && found != mine)
        return vm_call_method(args[0], "__reduce__", NULL, 0);
    return protocol >= 2 ? reduce_newobj(args[0]) : reduce_copyreg(args[0], protocol);
}

static Obj object_sizeof_m(Obj *args, size_t nargs, Obj kw)
{
    Obj o = args[0];
    if (IS_SMALLINT(o))
        return MAKE_SMALLINT(28);
    return int_from_i64((int64_t)tm_object_size(o));
}

static const MethodDef object_methods[] = {
    {"__format__", object_format_m, METH_O, NULL},
    {"__dir__", object_dir_m, METH_NOARGS, NULL},
    {"__init_subclass__", object_init_subclass_m, METH_CLASS | METH_KW, NULL},
    {"__subclasshook__", object_subclasshook_m, METH_CLASS | METH_KW, NULL},
    {"__reduce_ex__", object_reduce_ex_m, METH_O, NULL},
    {"__reduce__", object_reduce_m, METH_NOARGS, NULL},
    {"__getstate__", object_getstate_m, METH_NOARGS, NULL},
    {"__sizeof__", object_sizeof_m, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef type_methods[] = {
    {"mro", type_mro_m, METH_NOARGS, NULL},
    {"__subclasses__", type_subclasses_m, METH_NOARGS, NULL},
    {"__instancecheck__", type_instancecheck_m, METH_O, NULL},
    {"__subclasscheck__", type_subclasscheck_m, METH_O, NULL},
    {"__prepare__", type_prepare_m, METH_CLASS | METH_KW, NULL},
    {"__dir__", type_dir_m, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* None, NotImplemented, Ellipsis                                      */
/* ------------------------------------------------------------------ */
static Obj singleton_repr(Obj v)
{
    if (v == g_None)
        return str_from_cstr("None");
    if (v == g_NotImplemented)
        return str_from_cstr("NotImplemented");
    return str_from_cstr("Ellipsis");
}

static int none_bool(Obj v)
{
    if (v == g_NotImplemented) {   /* deprecated since 3.9, as CPython warns */
        Obj msg = str_from_cstr("NotImplemented should not be used in a boolean context");
        if (!msg || vm_warn(E_DeprecationWarning, msg, NULL) < 0)
            return -1;
    }
    return v != g_None;
}

static Obj none_new(Obj type, Obj *args, size_t nargs, Obj kw)
{
    (void)args;
    if (excess_args(nargs, kw)) {
        err_format(E_TypeError, "%s takes no arguments", type_name_of_type((TypeObj *)type));
        return NULL;
    }
    if ((TypeObj *)type == T_NoneType)
        return g_None;
    return (TypeObj *)type == T_ellipsis ? g_Ellipsis : g_NotImplemented;
}

/* Ellipsis and NotImplemented pickle by name (as globals of builtins). */
static Obj singleton_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    return str_from_cstr(args[0] == g_Ellipsis ? "Ellipsis" : "NotImplemented");
}

static const MethodDef singleton_methods[] = {
    {"__reduce__", singleton_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* Start-up                                                           */
/* ------------------------------------------------------------------ */
static TypeObj *new_type(const char *name, TypeObj *base, unsigned tid, unsigned flags)
{
    return (TypeObj *)type_new_builtin(name, base, tid, flags);
}

void object_init_types(void)
{
    init_slotdefs();
    T_object = new_type("object", NULL, TID_INSTANCE, TPF_BASETYPE);
    T_type = new_type("type", T_object, TID_TYPE, TPF_BASETYPE);
    VM_WRITE_RARE(T_object);
    T_object->cls = (Obj)T_type;
    VM_WRITE_RARE(T_type);
    T_type->cls = (Obj)T_type;
    T_wrapper_descriptor = new_type("wrapper_descriptor", T_object, TID_ITER, 0);
    T_method_wrapper = new_type("method-wrapper", T_object, TID_ITER, 0);
    T_getset_descriptor = new_type("getset_descriptor", T_object, TID_ITER, 0);
    T_member_descriptor = new_type("member_descriptor", T_object, TID_ITER, 0);

    /* object */
    TypeObj *t = T_object;
    t->tp_repr = object_repr;
    t->tp_str = object_str;
    t->tp_hash = object_hash;
    t->tp_richcompare = object_richcompare;
    t->tp_getattro = vm_generic_getattr;
    t->tp_setattro = vm_generic_setattr;
    t->tp_new = object_new;
    t->tp_init = object_init;
    type_add_methods(t, object_methods);
    type_add_getset(t, "__class__", object_class_get, object_class_set);
    type_set_attr_cstr(t, "__doc__", str_from_cstr("The base class of the class hierarchy."));
    type_ready(t);

    /* type */
    t = T_type;
    t->tp_repr = type_repr;
    t->tp_call = type_call;
    t->tp_getattro = type_getattro;
    t->tp_setattro = type_setattro;
    t->tp_new = type_tp_new;
    t->tp_init = type_tp_init;
    t->nb[NB_OR] = type_or;
    type_add_methods(t, type_methods);
    type_add_getset(t, "__name__", type_name_get, type_name_set);
    type_add_getset(t, "__qualname__", type_qualname_get, type_qualname_set);
    type_add_getset(t, "__module__", type_module_get, type_module_set);
    type_add_getset(t, "__bases__", type_bases_get, type_bases_set);
    type_add_getset(t, "__base__", type_base_get, NULL);
    type_add_getset(t, "__mro__", type_mro_get, NULL);
    type_add_getset(t, "__flags__", type_flags_get, NULL);
    type_add_getset(t, "__dict__", type_dict_get, NULL);
    type_add_getset(t, "__doc__", type_doc_get, type_doc_set);
    type_add_getset(t, "__abstractmethods__", type_abstract_get, type_abstract_set);
    type_add_getset(t, "__annotations__", type_annotations_get, type_annotations_set);
    type_ready(t);

    descr_init_attr_types();   /* slot wrappers, getset and member descriptors */
    builtin_init_type();
    module_init_type();
    descr_init_types();
    super_init_type();

    /* singletons' types */
    T_NoneType = new_type("NoneType", T_object, TID_NONETYPE, 0);
    T_NotImplementedType = new_type("NotImplementedType", T_object, TID_ITER, 0);
    T_ellipsis = new_type("ellipsis", T_object, TID_ITER, 0);
    TypeObj *st[3] = {T_NoneType, T_NotImplementedType, T_ellipsis};
    for (int i = 0; i < 3; i++) {
        st[i]->tp_repr = singleton_repr;
        st[i]->tp_bool = none_bool;
        st[i]->tp_new = none_new;
        if (i > 0)   /* None pickles by its own opcode */
            type_add_methods(st[i], singleton_methods);
        type_ready(st[i]);
    }
    VM_WRITE(g_NotImplemented);
    (ITER(g_NotImplemented))->cls = (Obj)T_NotImplementedType;
    VM_WRITE(g_Ellipsis);
    (ITER(g_Ellipsis))->cls = (Obj)T_ellipsis;

    T_capsule = new_type("PyCapsule", T_object, TID_CAPSULE, 0);
    type_ready(T_capsule);
    genericalias_init_types();
}
