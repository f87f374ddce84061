/* The abstract object API: operations on any value through its type's
 * slots, with CPython's rules for reflected operands, attribute lookup,
 * iteration and conversions. (Calls are eval's: call.c.) */
#include "objects.h"
#include "strobj.h"
#include "numbers.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* repr / str / hash                                                  */
/* ------------------------------------------------------------------ */
static Obj check_str_result(Obj r, const char *what)
{
    if (!r || IS_STR(r))
        return r;
    Obj u = vm_unwrap(r);
    if (IS_STR(u))
        return u;
    err_format(E_TypeError, "%s returned non-string (type %s)", what, type_name(r));
    return NULL;
}

Obj vm_repr(Obj v)
{
    TypeObj *t = TYPE(v);
    if (!t->tp_repr)
        return object_repr(v);
    if (vm_enter_recursive(" while getting the repr of an object") < 0)
        return NULL;
    Obj r = t->tp_repr(v);
    vm_leave_recursive();
    return check_str_result(r, "__repr__");
}

Obj vm_str(Obj v)
{
    if (IS_STR(v))
        return v;
    TypeObj *t = TYPE(v);
    if (!t->tp_str)
        return vm_repr(v);
    if (vm_enter_recursive(" while getting the str of an object") < 0)
        return NULL;
    Obj r = t->tp_str(v);
    vm_leave_recursive();
    return check_str_result(r, "__str__");
}

Obj vm_ascii(Obj v)
{
    Obj r = vm_repr(v);
    if (!r || str_is_ascii(r))
        return r;
    return str_ascii_escape(r);
}

static inline int64_t small_hash(int64_t n)
{
    const int64_t P = (int64_t)((1ULL << 61) - 1);
    int64_t h = n >= 0 ? n % P : -((-n) % P);
    return h == -1 ? -2 : h;
}

int64_t vm_hash(Obj v)
{
    if (IS_SMALLINT(v))
        return small_hash(SMALLINT_VAL(v));
    if (v->h.tid == TID_STR) {
        int64_t h = STR(v)->hash;
        return h != -1 ? h : str_hash(v);
    }
    hashfunc f = TYPE(v)->tp_hash;
    if (!f) {
        err_format(E_TypeError, "unhashable type: '%s'", type_name(v));
        return -1;
    }
    return f(v);
}

/* ------------------------------------------------------------------ */
/* Comparisons                                                        */
/* ------------------------------------------------------------------ */
static const int swapped_op[6] = {CMP_GT, CMP_GE, CMP_EQ, CMP_NE, CMP_LT, CMP_LE};

static Obj do_richcompare(Obj a, Obj b, int op)
{
    Obj *r = vm_roots(2);
    r[0] = a;
    r[1] = b;
    TypeObj *ta = TYPE(a), *tb = TYPE(b);
    Obj res;
    bool checked_reverse = false;
    if (ta != tb && tb->tp_richcompare && type_is_subtype(tb, ta)) {
        checked_reverse = true;
        res = tb->tp_richcompare(b, a, swapped_op[op]);
        if (res != g_NotImplemented)
            goto out;
    }
    if (ta->tp_richcompare) {
        res = ta->tp_richcompare(r[0], r[1], op);
        if (res != g_NotImplemented)
            goto out;
    }
    if (!checked_reverse && TYPE(r[1])->tp_richcompare) {
        res = TYPE(r[1])->tp_richcompare(r[1], r[0], swapped_op[op]);
        if (res != g_NotImplemented)
            goto out;
    }
    switch (op) {
    case CMP_EQ:
        res = vm_bool(r[0] == r[1]);
        break;
    case CMP_NE:
        res = vm_bool(r[0] != r[1]);
        break;
    default:
        err_format(E_TypeError, "'%s' not supported between instances of '%s' and '%s'", vm_cmp_symbols[op],
                   type_name(r[0]), type_name(r[1]));
        res = NULL;
    }
out:
    vm_unroots(r);
    return res;
}

Obj vm_richcompare(Obj a, Obj b, int op)
{
    if (IS_SMALLINT(a) && IS_SMALLINT(b)) {
        int64_t x = SMALLINT_VAL(a), y = SMALLINT_VAL(b);
        bool t;
        switch (op) {
        case CMP_LT: t = x < y; break;
        case CMP_LE: t = x <= y; break;
        case CMP_EQ: t = x == y; break;
        case CMP_NE: t = x != y; break;
        case CMP_GT: t = x > y; break;
        default: t = x >= y; break;
        }
        return vm_bool(t);
    }
    if (vm_enter_recursive(" in comparison") < 0)
        return NULL;
    Obj r = do_richcompare(a, b, op);
    vm_leave_recursive();
    return r;
}

int vm_richcompare_bool(Obj a, Obj b, int op)
{
    if (a == b) {
        if (op == CMP_EQ)
            return 1;
        if (op == CMP_NE)
            return 0;
    }
    Obj r = vm_richcompare(a, b, op);
    if (!r)
        return -1;
    if (r == g_True)
        return 1;
    if (r == g_False)
        return 0;
    return vm_is_true(r);
}

int vm_equal(Obj a, Obj b)
{
    if (a == b)
        return 1;
    if (IS_SMALLINT(a) && IS_SMALLINT(b))
        return 0;
    return vm_richcompare_bool(a, b, CMP_EQ);
}

int vm_is_true(Obj v)
{
    if (v == g_True)
        return 1;
    if (v == g_False || v == g_None)
        return 0;
    if (IS_SMALLINT(v))
        return SMALLINT_VAL(v) != 0;
    if (v->h.tid == TID_STR)
        return STR(v)->nbytes != 0;
    TypeObj *t = TYPE(v);
    if (t->tp_bool)
        return t->tp_bool(v);
    if (t->tp_len) {
        int64_t n = t->tp_len(v);
        return n < 0 ? -1 : n != 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* Number operators                                                   */
/* ------------------------------------------------------------------ */
/* CPython's binary_op1: the left operand's slot, with a right operand of a
 * subclass type tried first; both get (a, b) in source order. The operands
 * are in the caller's root slots ab[0], ab[1] (a slot may run Python code). */
static Obj binary_op1(Obj *ab, int op)
{
    TypeObj *ta = TYPE(ab[0]), *tb = TYPE(ab[1]);
    binaryfunc slotv = ta->nb[op], slotw = NULL;
    if (tb != ta) {
        slotw = tb->nb[op];
        if (slotw == slotv)
            slotw = NULL;
    }
    if (slotv) {
        if (slotw && type_is_subtype(tb, ta)) {
            Obj x = slotw(ab[0], ab[1]);
            if (x != g_NotImplemented)
                return x;
            slotw = NULL;
        }
        Obj x = slotv(ab[0], ab[1]);
        if (x != g_NotImplemented)
            return x;
    }
    return slotw ? slotw(ab[0], ab[1]) : g_NotImplemented;
}

static Obj binop_error(Obj a, Obj b, const char *sym)
{
    err_format(E_TypeError, "unsupported operand type(s) for %s: '%s' and '%s'", sym, type_name(a), type_name(b));
    return NULL;
}

Obj vm_binop(Obj a, Obj b, int op)
{
    if (op >= NB_INPLACE_BASE)
        return vm_inplace_binop(a, b, op - NB_INPLACE_BASE);
    Obj *r = vm_roots(2);
    r[0] = a;
    r[1] = b;
    Obj x = binary_op1(r, op);
    if (x == g_NotImplemented)
        x = binop_error(r[0], r[1], vm_nb_symbols[op]);
    vm_unroots(r);
    return x;
}

static const char *const inplace_symbols[NB_COUNT] = {
    "+=", "-=", "*=", "/=", "//=", "%=", "**=", "<<=", ">>=", "&=", "|=", "^=", "@=", "divmod()",
};

Obj vm_inplace_binop(Obj a, Obj b, int op)
{
    if (op >= NB_INPLACE_BASE)
        op -= NB_INPLACE_BASE;
    Obj *r = vm_roots(2);
    r[0] = a;
    r[1] = b;
    Obj x = g_NotImplemented;
    binaryfunc f = TYPE(a)->nb_inplace[op];
    if (f)
        x = f(a, b);
    if (x == g_NotImplemented) {
        x = binary_op1(r, op);
        if (x == g_NotImplemented)
            x = binop_error(r[0], r[1], inplace_symbols[op]);
    }
    vm_unroots(r);
    return x;
}

Obj vm_unaryop(Obj v, int op)
{
    TypeObj *t = TYPE(v);
    unaryfunc f;
    const char *sym;
    switch (op) {
    case UN_NEG: f = t->nb_neg; sym = "unary -"; break;
    case UN_POS: f = t->nb_pos; sym = "unary +"; break;
    case UN_INVERT: f = t->nb_invert; sym = "unary ~"; break;
    case UN_NOT: {
        int b = vm_is_true(v);
        return b < 0 ? NULL : vm_bool(!b);
    }
    default:
        err_set(E_SystemError, "bad unary op");
        return NULL;
    }
    if (!f) {
        err_format(E_TypeError, "bad operand type for %s: '%s'", sym, type_name(v));
        return NULL;
    }
    return f(v);
}

/* ------------------------------------------------------------------ */
/* Containers                                                         */
/* ------------------------------------------------------------------ */
Obj vm_getitem(Obj o, Obj key)
{
    binaryfunc f = TYPE(o)->tp_getitem;
    if (likely(f != NULL))
        return f(o, key);
    if (IS_TYPE(o))
        return type_subscript(o, key);
    err_format(E_TypeError, "'%s' object is not subscriptable", type_name(o));
    return NULL;
}

int vm_setitem(Obj o, Obj key, Obj v)
{
    objobjargproc f = TYPE(o)->tp_setitem;
    if (likely(f != NULL))
        return f(o, key, v);
    if (v)
        err_format(E_TypeError, "'%s' object does not support item assignment", type_name(o));
    else
        vm_delitem_error(o, key);
    return -1;
}

/* CPython's two messages: "doesn't" from its sequence path (an index on a
 * type with sequence methods: a class, str, tuple), "does not" otherwise
 * (mappingproxy with a str key, int). */
void vm_delitem_error(Obj o, Obj key)
{
    TypeObj *t = TYPE(o);
    bool index = IS_INT(vm_unwrap(key)) || TYPE(key)->nb_index;
    bool seq = (t->flags & TPF_HEAPTYPE) || t->tp_len || t->tp_contains;
    err_format(E_TypeError, index && seq ? "'%s' object doesn't support item deletion"
                                         : "'%s' object does not support item deletion", type_name(o));
}

int vm_delitem(Obj o, Obj key) { return vm_setitem(o, key, NULL); }

int64_t vm_len(Obj o)
{
    lenfunc f = TYPE(o)->tp_len;
    if (likely(f != NULL))
        return f(o);
    err_format(E_TypeError, "object of type '%s' has no len()", type_name(o));
    return -1;
}

int vm_contains(Obj container, Obj item)
{
    objobjproc f = TYPE(container)->tp_contains;
    if (f)
        return f(container, item);
    TypeObj *t = TYPE(container);
    if (!t->tp_iter && !t->tp_getitem) {
        err_format(E_TypeError, "argument of type '%s' is not iterable", type_name(container));
        return -1;
    }
    Obj *r = vm_roots(2);
    r[1] = item;
    r[0] = vm_iter(container);
    int res = -1;
    if (!r[0])
        goto out;
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
out:
    vm_unroots(r);
    return res;
}

Obj vm_iter(Obj o)
{
    TypeObj *t = TYPE(o);
    if (likely(t->tp_iter != NULL)) {
        Obj it = t->tp_iter(o);
        if (it && !TYPE(it)->tp_iternext) {
            err_format(E_TypeError, "iter() returned non-iterator of type '%s'", type_name(it));
            return NULL;
        }
        return it;
    }
    if (t->tp_getitem && !IS_DICT(o))
        return seqiter_new(o);
    err_format(E_TypeError, "'%s' object is not iterable", type_name(o));
    return NULL;
}

Obj vm_next(Obj it)
{
    unaryfunc f = TYPE(it)->tp_iternext;
    if (likely(f != NULL)) {
        /* a StopIteration raised inside (map's function, say) ends the
         * iteration, as CPython's PyIter_Next has it */
        Obj v = f(it);
        if (unlikely(!v) && err_occurred() && err_matches(E_StopIteration))
            err_clear();
        return v;
    }
    err_format(E_TypeError, "'%s' object is not an iterator", type_name(it));
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Attributes                                                         */
/* ------------------------------------------------------------------ */
static Obj name_check(Obj name)
{
    if (likely(IS_STR(name)))
        return name;
    Obj u = vm_unwrap(name);
    if (IS_STR(u))
        return u;
    err_format(E_TypeError, "attribute name must be string, not '%s'", type_name(name));
    return NULL;
}

/* object.__getattribute__; with `suppress`, a missing attribute gives NULL
 * without an exception (getattr(o, n, default), hasattr: no AttributeError
 * object is built). An AttributeError raised by a descriptor's __get__ is
 * left to the caller (vm_getattr_opt clears it). */
static Obj generic_getattr_impl(Obj o, Obj name, bool suppress)
{
    if (!(name = name_check(name)))
        return NULL;
    TypeObj *t = TYPE(o);
    Obj descr = vm_lookup_type(t, name);
    descrgetfunc f = NULL;
    if (descr) {
        TypeObj *dt = TYPE(descr);
        f = dt->tp_descr_get;
        if (f && dt->tp_descr_set)
            return f(descr, o, (Obj)t);
    }
    Obj __seg_gs *slot = vm_dict_slot(o);
    if (slot) {
        VM_READ(o);
        Obj d = *slot;
        if (d) {
            Obj *r = vm_roots(3);
            r[0] = o;
            r[1] = name;
            r[2] = descr;
            Obj v = dict_getitem_str(d, name);
            o = r[0];
            name = r[1];
            descr = r[2];
            vm_unroots(r);
            if (v)   /* dict_getitem_str never raises */
                return v;
        }
    }
    if (f)
        return f(descr, o, (Obj)t);
    if (descr)
        return descr;
    return suppress ? NULL : err_no_attr(o, name);
}

Obj vm_generic_getattr(Obj o, Obj name) { return generic_getattr_impl(o, name, false); }

int vm_generic_setattr(Obj o, Obj name, Obj v)
{
    if (!(name = name_check(name)))
        return -1;
    TypeObj *t = TYPE(o);
    Obj descr = vm_lookup_type(t, name);
    if (descr) {
        descrsetfunc f = TYPE(descr)->tp_descr_set;
        if (f)
            return f(descr, o, v);
    }
    Obj __seg_gs *slot = vm_dict_slot(o);
    unsigned tid = TID(o);
    if (!slot || ((tid >= TID_FIRST_WITH_CLS || tid == TID_ITER) && !type_allows_attr(t, name))) {
        if (descr)
            err_format(E_AttributeError, "'%s' object attribute '%s' is read-only", type_name(o), str_cstr(name));
        else
            err_no_attr(o, name);
        return -1;
    }
    if (!v) {
        VM_READ(o);
        Obj d = *slot;
        if (!d) {
            err_no_attr(o, name);
            return -1;
        }
        Obj *r = vm_roots(2);
        r[0] = o;
        r[1] = name;
        int rc = dict_delitem(d, name);
        if (rc < 0 && err_matches(E_KeyError)) {
            err_clear();
            err_no_attr(r[0], r[1]);
        }
        vm_unroots(r);
        return rc;
    }
    VM_READ(o);
    Obj d = *slot;
    if (likely(d != NULL))
        return dict_setitem(d, name, v);
    Obj *r = vm_roots(3);
    r[0] = o;
    r[1] = name;
    r[2] = v;
    d = vm_instance_dict(o);
    int rc = d ? dict_setitem(d, r[1], r[2]) : -1;
    vm_unroots(r);
    return rc;
}

Obj vm_getattr(Obj o, Obj name)
{
    getattrofunc f = TYPE(o)->tp_getattro;
    if (likely(f != NULL)) {
        if (unlikely(!IS_STR(name)) && !(name = name_check(name)))
            return NULL;
        return f(o, name);
    }
    return vm_generic_getattr(o, name);
}

Obj vm_getattr_cstr(Obj o, const char *name)
{
    Obj *r = vm_roots(1);
    r[0] = o;
    Obj n = vm_intern_cached(name);
    o = r[0];
    vm_unroots(r);
    if (!n)
        return NULL;
    return vm_getattr(o, n);
}

Obj vm_getattr_opt(Obj o, Obj name)
{
    Obj r = TYPE(o)->tp_getattro == vm_generic_getattr ? generic_getattr_impl(o, name, true)
                                                       : vm_getattr(o, name);
    /* A descriptor's __get__ (an unset __slots__ member, a property) may
     * raise AttributeError itself. */
    if (!r && err_matches(E_AttributeError))
        err_clear();
    return r;
}

int vm_setattr(Obj o, Obj name, Obj v)
{
    setattrofunc f = TYPE(o)->tp_setattro;
    if (unlikely(!IS_STR(name)) && !(name = name_check(name)))
        return -1;
    if (likely(f != NULL))
        return f(o, name, v);
    return vm_generic_setattr(o, name, v);
}

int vm_hasattr(Obj o, Obj name)
{
    /* An exception already pending (callers probing while handling one)
     * is kept unless the lookup itself fails. */
    Obj *r = vm_roots(1);
    r[0] = err_fetch();
    Obj v = vm_getattr_opt(o, name);
    int res = v ? 1 : (err_occurred() ? -1 : 0);
    if (res >= 0 && r[0])
        vm_ts.roots[ROOT_CUR_EXC] = r[0];
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* isinstance / issubclass                                            */
/* ------------------------------------------------------------------ */
/* A metaclass's own __instancecheck__ / __subclasscheck__ (not type's). */
static Obj meta_hook(Obj cls, Obj name)
{
    TypeObj *meta = TYPE(cls);
    if (meta == T_type)
        return NULL;
    TypeObj *mt = meta;
    Obj f = vm_lookup_type(mt, name);
    if (!f || f == dict_getitem_str(T_type->dict, name))
        return NULL;
    return f;
}

static int call_check_hook(Obj f, Obj cls, Obj arg)
{
    Obj *r = vm_roots(1);
    r[0] = arg;
    Obj res = vm_call_unbound(f, cls, r, 1);
    vm_unroots(r);
    if (!res)
        return -1;
    return vm_is_true(res);
}

/* CPython's protocol for class-like objects that are not types (they have
 * a __bases__ tuple, their instances a __class__): cls.__bases__ if it is a
 * tuple; NULL otherwise (with an error only if the lookup raised one other
 * than AttributeError). */
static Obj abstract_bases(Obj cls)
{
    Obj bases = vm_getattr_opt(cls, NAME(__bases__));
    return bases && IS_TUPLE(bases) ? bases : NULL;
}

/* cls has __bases__, else TypeError msg (unless the lookup raised). */
static int abstract_check_class(Obj cls, const char *msg)
{
    if (abstract_bases(cls))
        return 0;
    if (!err_occurred())
        err_set(E_TypeError, msg);
    return -1;
}

/* Whether cls is derived or among its __bases__, transitively. */
static int abstract_issubclass(Obj derived, Obj cls)
{
    Obj *r = vm_roots(3);   /* 0 derived, 1 cls, 2 bases */
    r[0] = derived;
    r[1] = cls;
    int res = 0;
    int64_t n;
    for (;;) {   /* single inheritance without recursion */
        if (r[0] == r[1]) {
            res = 1;
            goto out;
        }
        if (!(r[2] = abstract_bases(r[0]))) {
            res = err_occurred() ? -1 : 0;
            goto out;
        }
        n = TUPLE_LEN(r[2]);
        if (n == 0)
            goto out;
        if (n > 1)
            break;
        r[0] = TUPLE_ITEMS(r[2])[0];
    }
    if (vm_enter_recursive(" in __issubclass__") < 0) {
        res = -1;
        goto out;
    }
    for (int64_t i = 0; i < n && res == 0; i++)
        res = abstract_issubclass(TUPLE_ITEMS(r[2])[i], r[1]);
    vm_leave_recursive();
out:
    vm_unroots(r);
    return res;
}

/* v.__class__ when a type overrides it (a proxy, a mock), else NULL (with
 * an error if the lookup raised one other than AttributeError). */
static Obj overridden_class(Obj v)
{
    Obj d = vm_lookup_type(TYPE(v), NAME(__class__));
    if (d && d == dict_getitem_str(T_object->dict, NAME(__class__)))
        return NULL;
    return vm_getattr_opt(v, NAME(__class__));
}

int vm_isinstance(Obj v, Obj cls)
{
    if (IS_TYPE(cls)) {
        TypeObj *c = (TypeObj *)cls;
        if (TYPE(v) == c)
            return 1;
        Obj hook = meta_hook(cls, NAME(__instancecheck__));
        if (hook)
            return call_check_hook(hook, cls, v);
        if (vm_isinstance_type(v, c))
            return 1;
        Obj *r = vm_roots(1);
        r[0] = cls;
        Obj icls = overridden_class(v);
        int res = !icls && err_occurred() ? -1
                  : icls && icls != (Obj)TYPE(v) && IS_TYPE(icls) && type_is_subtype((TypeObj *)icls, (TypeObj *)r[0]);
        vm_unroots(r);
        return res;
    }
    Obj items = IS_TUPLE(cls) ? cls : type_union_args(cls);
    if (items) {
        if (vm_enter_recursive(" in __instancecheck__") < 0)
            return -1;
        Obj *r = vm_roots(2);
        r[0] = v;
        r[1] = items;
        int res = 0;
        for (int64_t i = 0; i < TUPLE_LEN(r[1]); i++) {
            res = vm_isinstance(r[0], TUPLE_ITEMS(r[1])[i]);
            if (res != 0)
                break;
        }
        vm_unroots(r);
        vm_leave_recursive();
        return res;
    }
    Obj hook = vm_lookup_type(TYPE(cls), NAME(__instancecheck__));
    if (hook)
        return call_check_hook(hook, cls, v);
    Obj *r = vm_roots(2);
    r[0] = v;
    r[1] = cls;
    int res = -1;
    if (abstract_check_class(r[1], "isinstance() arg 2 must be a type, a tuple of types, or a union") == 0) {
        Obj icls = vm_getattr_opt(r[0], NAME(__class__));
        res = icls ? abstract_issubclass(icls, r[1]) : err_occurred() ? -1 : 0;
    }
    vm_unroots(r);
    return res;
}

/* issubclass for a derived or cls that is not a type: by __bases__. */
static int abstract_issubclass_checked(Obj derived, Obj cls)
{
    Obj *r = vm_roots(2);
    r[0] = derived;
    r[1] = cls;
    int res = -1;
    if (abstract_check_class(r[0], "issubclass() arg 1 must be a class") == 0 &&
        (type_union_args(r[1]) ||
         abstract_check_class(r[1], "issubclass() arg 2 must be a class, a tuple of classes, or a union") == 0))
        res = abstract_issubclass(r[0], r[1]);
    vm_unroots(r);
    return res;
}

int vm_issubclass(Obj cls, Obj cls2)
{
    if (IS_TYPE(cls2)) {
        Obj hook = meta_hook(cls2, NAME(__subclasscheck__));
        if (hook)
            return call_check_hook(hook, cls2, cls);
        if (!IS_TYPE(cls))
            return abstract_issubclass_checked(cls, cls2);
        return type_is_subtype((TypeObj *)cls, (TypeObj *)cls2);
    }
    Obj items = IS_TUPLE(cls2) ? cls2 : type_union_args(cls2);
    if (items) {
        if (vm_enter_recursive(" in __subclasscheck__") < 0)
            return -1;
        Obj *r = vm_roots(2);
        r[0] = cls;
        r[1] = items;
        int res = 0;
        for (int64_t i = 0; i < TUPLE_LEN(r[1]); i++) {
            res = vm_issubclass(r[0], TUPLE_ITEMS(r[1])[i]);
            if (res != 0)
                break;
        }
        vm_unroots(r);
        vm_leave_recursive();
        return res;
    }
    Obj hook = vm_lookup_type(TYPE(cls2), NAME(__subclasscheck__));
    if (hook)
        return call_check_hook(hook, cls2, cls);
    return abstract_issubclass_checked(cls, cls2);
}

/* ------------------------------------------------------------------ */
/* Number conversions                                                 */
/* ------------------------------------------------------------------ */
/* An exact int from an int, bool or int-subclass value (NULL: not one). */
static Obj exact_int(Obj v)
{
    if (IS_SMALLINT(v) || v->h.tid == TID_BIGINT)
        return v;
    if (v->h.tid == TID_BOOL)
        return MAKE_SMALLINT(((BoolObj *)v)->value);
    Obj u = vm_unwrap(v);
    if (u != v && IS_INT(u))
        return exact_int(u);
    return NULL;
}

Obj vm_index(Obj v)
{
    Obj i = exact_int(v);
    if (i)
        return i;
    unaryfunc f = TYPE(v)->nb_index;
    if (!f) {
        err_format(E_TypeError, "'%s' object cannot be interpreted as an integer", type_name(v));
        return NULL;
    }
    Obj r = f(v);
    if (!r)
        return NULL;
    i = exact_int(r);
    if (!i) {
        err_format(E_TypeError, "__index__ returned non-int (type %s)", type_name(r));
        return NULL;
    }
    return i;
}

int vm_index_i64(Obj v, int64_t *out)
{
    if (IS_SMALLINT(v)) {
        *out = SMALLINT_VAL(v);
        return 0;
    }
    Obj i = vm_index(v);
    if (!i)
        return -1;
    if (IS_SMALLINT(i)) {
        *out = SMALLINT_VAL(i);
        return 0;
    }
    return int_as_i64(i, out);
}

static Obj int_result(Obj r, const char *what)
{
    if (!r)
        return NULL;
    Obj i = exact_int(r);
    if (!i)
        err_format(E_TypeError, "%s returned non-int (type %s)", what, type_name(r));
    return i;
}

Obj vm_number_int(Obj v)
{
    Obj i = exact_int(v);
    if (i)
        return i;
    Obj u = vm_unwrap(v);
    if (IS_FLOAT(u))
        return int_from_double(FLOAT_VAL(u));
    TypeObj *t = TYPE(v);
    if (t->nb_int)
        return int_result(t->nb_int(v), "__int__");
    if (t->nb_index)
        return int_result(t->nb_index(v), "__index__");
    Obj *r = vm_roots(1);
    r[0] = v;
    int found;
    Obj tr = vm_call_dunder(v, NAME(__trunc__), NULL, 0, &found);
    if (found) {
        vm_unroots(r);
        if (!tr)
            return NULL;
        Obj ti = exact_int(tr);
        if (ti)
            return ti;
        if (!TYPE(tr)->nb_index) {
            err_format(E_TypeError, "__trunc__ returned non-Integral (type %s)", type_name(tr));
            return NULL;
        }
        return vm_index(tr);
    }
    v = r[0];
    vm_unroots(r);
    u = vm_unwrap(v);
    if (IS_STR(u) || TID(u) == TID_BYTES || TID(u) == TID_BYTEARRAY)
        return int_parse_object(v, 10);
    err_format(E_TypeError, "int() argument must be a string, a bytes-like object or a real number, not '%s'",
               type_name(v));
    return NULL;
}

Obj vm_number_float(Obj v)
{
    if (IS_FLOAT(v))
        return v;
    Obj u = vm_unwrap(v);
    if (IS_FLOAT(u))
        return float_new(FLOAT_VAL(u));
    if (IS_INT(u)) {
        double d;
        if (TID(u) == TID_BOOL)
            return float_new((double)((BoolObj *)u)->value);
        if (int_as_double(u, &d) < 0)
            return NULL;
        return float_new(d);
    }
    TypeObj *t = TYPE(v);
    if (t->nb_float) {
        Obj r = t->nb_float(v);
        if (!r)
            return NULL;
        if (IS_FLOAT(r))
            return r;
        Obj ru = vm_unwrap(r);
        if (IS_FLOAT(ru))
            return float_new(FLOAT_VAL(ru));
        err_format(E_TypeError, "%s.__float__ returned non-float (type %s)", type_name(v), type_name(r));
        return NULL;
    }
    if (t->nb_index) {
        Obj i = vm_index(v);
        if (!i)
            return NULL;
        double d;
        if (IS_SMALLINT(i))
            return float_new((double)SMALLINT_VAL(i));
        if (int_as_double(i, &d) < 0)
            return NULL;
        return float_new(d);
    }
    if (IS_STR(u) || TID(u) == TID_BYTES || TID(u) == TID_BYTEARRAY)
        return float_parse_object(v);
    err_format(E_TypeError, "float() argument must be a string or a real number, not '%s'", type_name(v));
    return NULL;
}

int vm_as_double(Obj v, double *out)
{
    if (IS_FLOAT(v)) {
        *out = FLOAT_VAL(v);
        return 0;
    }
    if (IS_SMALLINT(v)) {
        *out = (double)SMALLINT_VAL(v);
        return 0;
    }
    Obj u = vm_unwrap(v);
    if (IS_FLOAT(u)) {
        *out = FLOAT_VAL(u);
        return 0;
    }
    if (IS_INT(u)) {
        if (TID(u) == TID_BOOL) {
            *out = (double)((BoolObj *)u)->value;
            return 0;
        }
        if (IS_SMALLINT(u)) {
            *out = (double)SMALLINT_VAL(u);
            return 0;
        }
        return int_as_double(u, out);
    }
    TypeObj *t = TYPE(v);
    if (t->nb_float || t->nb_index) {
        Obj f = vm_number_float(v);
        if (!f)
            return -1;
        *out = FLOAT_VAL(f);
        return 0;
    }
    err_format(E_TypeError, "must be real number, not %s", type_name(v));
    return -1;
}

/* ------------------------------------------------------------------ */
/* format / dir                                                       */
/* ------------------------------------------------------------------ */
Obj vm_format(Obj v, Obj spec)
{
    if (!spec)
        spec = g_empty_str;
    if (IS_STR(v) && str_len(spec) == 0)
        return v;
    Obj *r = vm_roots(1);
    r[0] = spec;
    int found;
    Obj res = vm_call_dunder(v, NAME(__format__), r, 1, &found);
    vm_unroots(r);
    if (!found) {
        err_format(E_TypeError, "Type %s doesn't define __format__", type_name(v));
        return NULL;
    }
    if (!res || IS_STR(res))
        return res;
    Obj u = vm_unwrap(res);
    if (IS_STR(u))
        return u;
    err_format(E_TypeError, "__format__ must return a str, not %s", type_name(res));
    return NULL;
}

Obj vm_dir(Obj v)
{
    int found;
    Obj r = vm_call_dunder(v, NAME(__dir__), NULL, 0, &found);
    if (!found) {
        err_set(E_TypeError, "object does not provide __dir__");
        return NULL;
    }
    if (!r)
        return NULL;
    Obj *root = vm_roots(1);
    root[0] = vm_list_from_iter(r);
    Obj res = NULL;
    if (root[0] && list_sort(root[0], NULL, false) == 0)
        res = root[0];
    vm_unroots(root);
    return res;
}

/* ------------------------------------------------------------------ */
/* Iterables into lists, tuples, slots                                */
/* ------------------------------------------------------------------ */
Obj vm_list_from_iter(Obj iterable)
{
    Obj *r = vm_roots(3);
    r[0] = iterable;
    Obj res = NULL;
    if (IS_LIST(iterable) || IS_TUPLE(iterable)) {
        int64_t n = IS_LIST(iterable) ? LIST_LEN(iterable) : TUPLE_LEN(iterable);
        r[1] = list_new(n);
        if (!r[1])
            goto out;
        Obj src = r[0];
        int64_t m = IS_LIST(src) ? LIST_LEN(src) : TUPLE_LEN(src);
        if (m < n)
            n = m;
        VM_WRITE(LIST(r[1])->array);
        for (int64_t i = 0; i < n; i++)
            LIST_ITEMS(r[1])[i] = IS_LIST(src) ? LIST_ITEMS(src)[i] : TUPLE_ITEMS(src)[i];
        res = r[1];
        goto out;
    }
    r[1] = list_new_capacity(8);
    if (!r[1])
        goto out;
    r[2] = vm_iter(r[0]);
    if (!r[2])
        goto out;
    for (;;) {
        Obj x = vm_next(r[2]);
        if (!x) {
            if (err_occurred())
                goto out;
            break;
        }
        if (list_append(r[1], x) < 0)
            goto out;
    }
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

Obj vm_tuple_from_iter(Obj iterable)
{
    if (IS_TUPLE(iterable))
        return iterable;
    Obj *r = vm_roots(2);
    r[0] = IS_LIST(iterable) ? iterable : vm_list_from_iter(iterable);
    Obj res = NULL;
    if (!r[0])
        goto out;
    int64_t n = LIST_LEN(r[0]);
    if (n == 0) {
        res = g_empty_tuple;
        goto out;
    }
    r[1] = tuple_new(n);
    if (!r[1])
        goto out;
    for (int64_t i = 0; i < n; i++)
        TUPLE_ITEMS(r[1])[i] = LIST_ITEMS(r[0])[i];
    res = r[1];
out:
    vm_unroots(r);
    return res;
}
