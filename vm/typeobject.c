/* Type objects: built-in type creation (type_new_builtin, type_ready), the
 * slot <-> dunder bridges in both directions (wrapper descriptors that expose
 * C slots as __add__ & co., and slot functions that call a class's Python
 * dunders), classes (class statements, type(name, bases, dict), C3 MRO,
 * __slots__, __init_subclass__, __set_name__), the method cache, and the
 * `object` and `type` types themselves.
 *
 * Identity hash (object.__hash__): objects move, so instances and
 * exceptions keep a counter-based hash in a hidden word (objects.c,
 * vm_identity_hash); other objects hash on their address once old.
 */
#include "objects.h"
#include "modules.h"

#include <stdlib.h>
#include <string.h>

TypeObj *T_object, *T_type, *T_NoneType, *T_NotImplementedType, *T_ellipsis, *T_capsule;
TypeObj *T_wrapper_descriptor, *T_method_wrapper, *T_getset_descriptor;
static TypeObj *T_union, *T_generic_alias;

/* ------------------------------------------------------------------ */
/* Slot ids and their accessors                                       */
/* ------------------------------------------------------------------ */
enum {
    S_REPR, S_STR, S_HASH, S_RICHCMP, S_ITER, S_NEXT, S_CALL, S_GETATTRO, S_SETATTRO,
    S_DGET, S_DSET, S_LEN, S_GETITEM, S_SETITEM, S_CONTAINS, S_BOOL, S_NEW, S_INIT,
    S_NEG, S_POS, S_INVERT, S_INT, S_FLOAT, S_INDEX, S_ABS,
    S_NB, S_NBI = S_NB + NB_COUNT, S_COUNT = S_NBI + NB_COUNT
};

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
    VM_WRITE(t);
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

/* Wrapper kinds: how a dunder's arguments map onto its slot. */
enum {
    WK_UNARY, WK_HASH, WK_CMP, WK_NEXT, WK_CALL, WK_GETATTR, WK_SETATTR, WK_DELATTR,
    WK_GET, WK_SET, WK_DELETE, WK_LEN, WK_GETITEM, WK_SETITEM, WK_DELITEM, WK_CONTAINS,
    WK_BOOL, WK_NEW, WK_INIT, WK_BIN, WK_RBIN, WK_IBIN
};

typedef struct SlotDef {
    const char *name;
    int slot;     /* S_* */
    int kind;     /* WK_* */
    int op;       /* CMP_* / NB_* */
    Obj iname;    /* interned name (set at start-up) */
} SlotDef;

static SlotDef slotdefs[160];
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
/* Versions and the method cache                                      */
/* ------------------------------------------------------------------ */
static uint64_t version_counter;

static uint64_t next_version(void)
{
    return __atomic_add_fetch(&version_counter, 1, __ATOMIC_RELAXED);
}

static void modified_rec(TypeObj *t, int depth)
{
    VM_WRITE(t);
    t->version = next_version();
    Obj subs = t->subclasses;
    if (!subs || depth > 200)
        return;
    for (int64_t i = 0; i < LIST_LEN(subs); i++)
        modified_rec((TypeObj *)LIST_ITEMS(subs)[i], depth + 1);
}

void type_modified(TypeObj *t) { modified_rec(t, 0); }

#define MCACHE_BITS 12
typedef struct MEntry {
    uint64_t tver;
    Obj name;          /* compared by address only (with the hash) */
    int64_t hash;
    TypeObj *owner;    /* NULL: absent */
    uint64_t dver;     /* owner->dict's version when cached */
    int64_t ix;
} MEntry;
static MEntry mcache[1u << MCACHE_BITS];

static inline unsigned mcache_index(uint64_t ver, int64_t h)
{
    return (unsigned)(((ver * 0x9E3779B97F4A7C15ull) ^ (uint64_t)h) * 0xff51afd7ed558ccdull >> (64 - MCACHE_BITS));
}

/* Walk the MRO (no cache). *where gets the defining type. */
static Obj lookup_where(TypeObj *t, Obj name, TypeObj **where)
{
    Obj mro = t->mro;
    if (mro) {
        int64_t n = TUPLE_LEN(mro);
        for (int64_t i = 0; i < n; i++) {
            TypeObj *b = (TypeObj *)TUPLE_ITEMS(mro)[i];
            Obj d = b->dict;
            if (!d)
                continue;
            Obj v = IS_STR(name) ? dict_getitem_str(d, name) : dict_getitem(d, name);
            if (v) {
                if (where)
                    *where = b;
                return v;
            }
        }
        return NULL;
    }
    /* Not readied yet (start-up): follow the base chain. */
    for (TypeObj *b = t; b; b = (TypeObj *)b->base) {
        Obj d = b->dict;
        if (!d)
            continue;
        Obj v = IS_STR(name) ? dict_getitem_str(d, name) : dict_getitem(d, name);
        if (v) {
            if (where)
                *where = b;
            return v;
        }
    }
    return NULL;
}

Obj vm_lookup_type(TypeObj *t, Obj name)
{
    if (unlikely(!IS_STR(name) || !t->mro))
        return lookup_where(t, name, NULL);
    int64_t h = STR(name)->hash;
    if (h == -1)
        h = str_hash(name);
    uint64_t ver = t->version;
    MEntry *e = &mcache[mcache_index(ver, h)];
    if (e->tver == ver && e->name == name && e->hash == h) {
        if (!e->owner)
            return NULL;
        Obj d = e->owner->dict;
        if (((DictObj *)d)->version == e->dver)
            return dict_value_at(d, e->ix);
    }
    Obj mro = t->mro;
    int64_t n = TUPLE_LEN(mro);
    for (int64_t i = 0; i < n; i++) {
        TypeObj *b = (TypeObj *)TUPLE_ITEMS(mro)[i];
        Obj d = b->dict;
        int64_t ix = dict_lookup_str_index(d, name);
        if (ix >= 0) {
            e->tver = ver;
            e->name = name;
            e->hash = h;
            e->owner = b;
            e->dver = ((DictObj *)d)->version;
            e->ix = ix;
            return dict_value_at(d, ix);
        }
    }
    e->tver = ver;
    e->name = name;
    e->hash = h;
    e->owner = NULL;
    return NULL;
}

Obj vm_lookup_special(Obj v, const char *dunder)
{
    Obj name = vm_intern_cached(dunder);
    if (!name) {
        err_clear();
        return NULL;
    }
    return vm_lookup_type(TYPE(v), name);
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
 * user subclasses wrap the value (InstanceObj.base_value). */
static inline bool layout_is_value(TypeObj *t)
{
    unsigned tid = t->inst_tid;
    return tid < TID_FIRST_WITH_CLS && tid != TID_ITER;
}

TypeObj *vm_builtin_base(TypeObj *t)
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
        ((ExceptionHObj *)o)->cls = (Obj)cls;
        ((ExceptionHObj *)o)->args = g_empty_tuple;
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
    ((InstanceHObj *)o)->cls = (Obj)cls;
    return o;
}

Obj __seg_gs *vm_dict_slot(Obj o)
{
    if (IS_SMALLINT(o))
        return NULL;
    unsigned tid = o->h.tid;
    if (tid >= TID_FIRST_WITH_CLS)
        return tid == TID_TYPE ? NULL : &((InstanceObj *)o)->dict;
    if (tid == TID_FUNCTION)
        return &((FunctionObj *)o)->dict;
    if (tid == TID_MODULE)
        return &((ModuleObj *)o)->dict;
    return NULL;
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
    VM_WRITE(o);
    *slot = d;
    return d;
}

/* ------------------------------------------------------------------ */
/* Calling dunders                                                    */
/* ------------------------------------------------------------------ */
static bool is_wrapper(Obj v)
{
    return !IS_SMALLINT(v) && v->h.tid == TID_ITER && ((IterObj *)v)->cls == (Obj)T_wrapper_descriptor;
}

static Obj wrapper_call_slot(TypeObj *owner, const SlotDef *sd, Obj *args, size_t nargs, Obj kwnames);

Obj vm_call_unbound(Obj f, Obj self, Obj *args, int nargs)
{
    Obj *r = vm_roots(nargs + 2);
    r[0] = self;
    for (int i = 0; i < nargs; i++)
        r[i + 1] = args[i];
    r[nargs + 1] = f;
    Obj res;
    if (IS_FUNCTION(f) || TID(f) == TID_BUILTIN) {
        res = vm_call(f, r, (size_t)nargs + 1, NULL);
    } else if (is_wrapper(f) && !((IterObj *)f)->c) {
        res = wrapper_call_slot((TypeObj *)((IterObj *)f)->a, &slotdefs[((IterObj *)f)->i], r, (size_t)nargs + 1, NULL);
    } else {
        descrgetfunc g = TYPE(f)->tp_descr_get;
        if (g) {
            Obj bound = g(f, self, (Obj)TYPE(self));
            if (!bound) {
                vm_unroots(r);
                return NULL;
            }
            r[nargs + 1] = bound;
            res = vm_call(bound, r + 1, (size_t)nargs, NULL);
        } else {
            res = vm_call(f, r + 1, (size_t)nargs, NULL);
        }
    }
    vm_unroots(r);
    return res;
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
    if (!nkw)
        return vm_call_unbound(f, self, args, (int)nargs);
    Obj *r = vm_roots((int)(nargs + nkw + 3));
    r[0] = self;
    for (size_t i = 0; i < nargs + nkw; i++)
        r[i + 1] = args[i];
    r[nargs + nkw + 1] = f;
    r[nargs + nkw + 2] = kwnames;
    Obj res;
    if (IS_FUNCTION(f) || TID(f) == TID_BUILTIN) {
        res = vm_call(f, r, nargs + 1, kwnames);
    } else if (is_wrapper(f) && !((IterObj *)f)->c) {
        res = wrapper_call_slot((TypeObj *)((IterObj *)f)->a, &slotdefs[((IterObj *)f)->i], r, nargs + 1, kwnames);
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
    if (is_wrapper(f) && !((IterObj *)f)->c) {
        TypeObj *owner = (TypeObj *)((IterObj *)f)->a;
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
    TypeObj *t = TYPE(self), *where = NULL;
    Obj ga = lookup_where(t, NAME(__getattribute__), &where);
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
            err_format(E_TypeError, "'%s' object doesn't support item deletion", type_name(self));
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

static Obj ad_repr(Obj s) { UNWRAP_OR(s, NULL) return vbase_of(s)->tp_repr(u_s); }
static Obj ad_str(Obj s) { UNWRAP_OR(s, NULL) return vbase_of(s)->tp_str(u_s); }
static int64_t ad_hash(Obj s) { UNWRAP_OR(s, -1) return vbase_of(s)->tp_hash(u_s); }
static Obj ad_richcmp(Obj s, Obj o, int op) { UNWRAP_OR(s, NULL) return vbase_of(s)->tp_richcompare(u_s, vm_unwrap(o), op); }
static Obj ad_iter(Obj s) { UNWRAP_OR(s, NULL) return vbase_of(s)->tp_iter(u_s); }
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
static Obj ad_neg(Obj s) { UNWRAP_OR(s, NULL) return vbase_of(s)->nb_neg(u_s); }
static Obj ad_pos(Obj s) { UNWRAP_OR(s, NULL) return vbase_of(s)->nb_pos(u_s); }
static Obj ad_invert(Obj s) { UNWRAP_OR(s, NULL) return vbase_of(s)->nb_invert(u_s); }
static Obj ad_int(Obj s) { UNWRAP_OR(s, NULL) return vbase_of(s)->nb_int(u_s); }
static Obj ad_float(Obj s) { UNWRAP_OR(s, NULL) return vbase_of(s)->nb_float(u_s); }
static Obj ad_index(Obj s) { UNWRAP_OR(s, NULL) return vbase_of(s)->nb_index(u_s); }
static Obj ad_abs(Obj s) { UNWRAP_OR(s, NULL) return vbase_of(s)->nb_abs(u_s); }

static Obj ad_nb_impl(int op, Obj a, Obj b, binaryfunc self_fn)
{
    TypeObj *ta = TYPE(a);
    TypeObj *base = (ta->nb[op] == self_fn) ? (TypeObj *)ta->solid : (TypeObj *)TYPE(b)->solid;
    binaryfunc f = base->nb[op];
    if (!f)
        return g_NotImplemented;
    return f(vm_unwrap(a), vm_unwrap(b));
}

static Obj ad_nbi_impl(int op, Obj a, Obj b)
{
    TypeObj *base = (TypeObj *)TYPE(a)->solid;
    binaryfunc f = base->nb_inplace[op];
    if (!f)
        return g_NotImplemented;
    Obj u = vm_unwrap(a);
    Obj *r = vm_roots(1);
    r[0] = a;
    Obj res = f(u, vm_unwrap(b));
    /* `l += x` on a list subclass keeps the instance. */
    if (res && res == vm_unwrap(r[0]))
        res = r[0];
    vm_unroots(r);
    return res;
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

Obj vm_new_for(TypeObj *owner, Obj cls, Obj *args, size_t nargs, Obj kwnames)
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
    if (res && !vm_isinstance_type(res, (TypeObj *)r[1])) {
        /* The built-in made a plain value: wrap it. */
        Obj inst = instance_new((TypeObj *)r[1]);
        if (inst) {
            VM_WRITE(inst);
            ((InstanceObj *)inst)->base_value = r[0];
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
    return NULL;   /* call, getattr, setattr, descriptors: the instance itself is what they need */
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
        Obj v = lookup_where(t, sd->iname, &where);
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
        if (lookup_where(t, NAME(__getattr__), &where) && (where->flags & TPF_HEAPTYPE))
            python = true;
    }
    if (!python && s == S_BOOL && !builtin_src) {
        TypeObj *where = NULL;
        if (lookup_where(t, NAME(__len__), &where) && (where->flags & TPF_HEAPTYPE))
            python = true;
    }
    anyfn f = NULL;
    if (python) {
        f = slot_fn_for(s);
        if (s == S_HASH) {
            TypeObj *where = NULL;
            Obj h = lookup_where(t, NAME(__hash__), &where);
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
    Obj subs = t->subclasses;
    if (subs)
        for (int64_t i = 0; i < LIST_LEN(subs); i++)
            update_slots_for_name((TypeObj *)LIST_ITEMS(subs)[i], name, depth + 1);
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
    IterObj *it = (IterObj *)w;
    it->cls = (Obj)(self ? T_method_wrapper : T_wrapper_descriptor);
    it->a = (Obj)owner;
    it->b = slotdefs[sdi].iname;
    it->c = self;
    it->i = sdi;
    return w;
}

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

static Obj wrapper_call_slot(TypeObj *owner, const SlotDef *sd, Obj *args, size_t nargs, Obj kwnames)
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
        if (r && r == s && s != args[0])
            r = args[0];
        return r;
    }
    }
    return slot_missing(owner, sd);
}

static Obj wrapperdescr_call(Obj w, Obj *args, size_t nargs, Obj kwnames)
{
    IterObj *it = (IterObj *)w;
    return wrapper_call_slot((TypeObj *)it->a, &slotdefs[it->i], args, nargs, kwnames);
}

static Obj wrapperdescr_get(Obj w, Obj obj, Obj type)
{
    (void)type;
    IterObj *it = (IterObj *)w;
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
    IterObj *it = (IterObj *)w;
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
    r[0] = ((IterObj *)w)->c;
    for (size_t i = 0; i < nargs + nkw; i++)
        r[i + 1] = args[i];
    w = r[nargs + nkw + 1];
    IterObj *it = (IterObj *)w;
    Obj res = wrapper_call_slot((TypeObj *)it->a, &slotdefs[it->i], r, nargs + 1, kwnames);
    vm_unroots(r);
    return res;
}

static Obj methwrapper_repr(Obj w)
{
    Obj *r = vm_roots(1);
    r[0] = w;
    uint64_t addr = vm_object_id(((IterObj *)w)->c);
    w = r[0];
    vm_unroots(r);
    IterObj *it = (IterObj *)w;
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
    IterObj *x = (IterObj *)a, *y = (IterObj *)b;
    bool eq = x->c == y->c && x->i == y->i && x->a == y->a;
    return vm_bool(op == CMP_EQ ? eq : !eq);
}

static int64_t methwrapper_hash(Obj w)
{
    Obj *r = vm_roots(1);
    r[0] = w;
    int64_t h = vm_identity_hash(((IterObj *)w)->c);
    w = r[0];
    vm_unroots(r);
    h ^= ((IterObj *)w)->i * 1000003;
    return h == -1 ? -2 : h;
}

static Obj wrapper_name_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return ((IterObj *)args[0])->b;
}

static Obj wrapper_qualname_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    IterObj *it = (IterObj *)args[0];
    return str_from_format("%s.%s", type_name_of_type((TypeObj *)it->a), slotdefs[it->i].name);
}

static Obj wrapper_objclass_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return ((IterObj *)args[0])->a;
}

static Obj wrapper_self_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return ((IterObj *)args[0])->c;
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
    IterObj *it = (IterObj *)d;
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
    IterObj *it = (IterObj *)d;
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
    IterObj *it = (IterObj *)d;
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "<attribute '%s' of '%s' objects>", str_cstr(it->b), type_name_of_type((TypeObj *)it->a));
    return sb_finish(&b);
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
    t->version = next_version();
    const char *dot = strrchr(name, '.');
    Obj nm = str_intern_cstr(dot ? dot + 1 : name);
    if (!nm)
        fatal_startup("out of memory");
    VM_WRITE(t);
    t->name = nm;
    t->qualname = nm;
    if (dot) {
        Obj mod = str_new(name, (size_t)(dot - name));
        if (!mod)
            fatal_startup("out of memory");
        mod = str_intern(mod);
        VM_WRITE(t);
        t->module = mod;
    }
    Obj d = dict_new();
    if (!d)
        fatal_startup("out of memory");
    VM_WRITE(t);
    t->dict = d;
    Obj bases = base ? tuple_pack(1, (Obj)base) : g_empty_tuple;
    if (!bases)
        fatal_startup("out of memory");
    VM_WRITE(t);
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
    IterObj *it = (IterObj *)g;
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

static void add_subclass(TypeObj *base, TypeObj *t)
{
    if (!base->subclasses) {
        Obj l = list_new(0);
        if (!l)
            return;
        VM_WRITE(base);
        base->subclasses = l;
    }
    list_append(base->subclasses, (Obj)t);
}

void type_ready(TypeObj *t)
{
    if (!t->cls) {
        VM_WRITE(t);
        t->cls = (Obj)T_type;
    }
    TypeObj *base = (TypeObj *)t->base;
    /* solid: the built-in whose layout instances have */
    if (!t->solid) {
        TypeObj *s = t;
        if (base && base->inst_tid == t->inst_tid && base != T_object && base->solid)
            s = (TypeObj *)base->solid;
        VM_WRITE(t);
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
        VM_WRITE(t);
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
            VM_WRITE(t);
            t->flags |= TPF_HAS_DICT;
        }
        add_subclass(base, t);
    }
    if (!t->tp_hash && !dict_getitem_str(t->dict, NAME(__hash__)))
        if (dict_setitem(t->dict, NAME(__hash__), g_None) < 0)
            fatal_startup("out of memory");
    type_modified(t);
}
