/* Weak references: weakref.ref (ReferenceType), ProxyType and
 * CallableProxyType. The referent lives in the runtime's weak slot
 * (runtime/gc.h, "Weak references and finalizers"): collections clear it
 * when the referent dies and queue the weak reference; vm/rt/gcwork.c runs its
 * callback afterwards, at a safe point.
 *
 * Differences from CPython, by design of a tracing GC: a weak reference is
 * cleared when a collection finds its referent dead, not at the moment the
 * last strong reference goes (gc.collect() makes it deterministic). As in
 * CPython, ref(o) and proxy(o) without a callback hand back the existing
 * plain one of that kind; finding it is a walk over the weak references the
 * runtime knows (there is no per-object list), so it costs O(weak refs). */
#include "objects.h"
#include "containers.h"
#include "strobj.h"

#include <stdlib.h>

TypeObj *T_weakref, *T_weakproxy, *T_weakcallableproxy;

static bool is_weak(Obj v)
{
    if (IS_SMALLINT(v))
        return false;
    unsigned t = TID(v);
    return t == TID_WEAKREF || t == TID_WEAKPROXY || t == TID_WEAKCALLABLEPROXY;
}

/* CPython's rule: the types whose C layout has a weak-reference list, and
 * classes made by a class statement unless their __slots__ leave
 * __weakref__ out. */
static bool weakref_supported(Obj v)
{
    if (IS_SMALLINT(v))
        return false;
    switch (TID(v)) {
    case TID_TYPE: case TID_FUNCTION: case TID_SET: case TID_METHOD: case TID_BUILTIN:
    case TID_GENERATOR: case TID_COROUTINE: case TID_ASYNC_GENERATOR: case TID_CODE:
    case TID_MODULE: case TID_FILE: case TID_DEQUE: case TID_MEMORYVIEW: case TID_SRE_PATTERN:
        return true;
    case TID_INSTANCE: case TID_EXCEPTION: case TID_ITER:   /* TID_ITER: array.array, io.BytesIO, itertools._tee */
        return (TYPE(v)->flags & TPF_WEAKREFABLE) != 0;
    default:
        return false;
    }
}

/* A new weak reference of layout tid. CPython hands out one shared plain
 * ref (and proxy) per object; tmpy makes a new one each time: finding the
 * existing one meant walking every weak reference of the process under the
 * runtime's weak lock, which made WeakSet/WeakKeyDictionary lookups and
 * isinstance against an ABC (_py_abc keeps WeakSets) O(all weak refs). */
static Obj weakref_alloc(unsigned tid, Obj ob, Obj callback)
{
    Obj *r = vm_roots(2);
    r[0] = ob;
    r[1] = callback;
    Obj w = (Obj)tm_allocate(tid, sizeof(struct WeakrefObj_));
    if (w) {
        /* Young (just allocated): the weak slot is written only now. */
        WeakrefObj *wr = WREF(w);
        wr->referent = r[0];
        wr->callback = r[1];
        tm_weak_note_young((object_t *)w);
    } else
        err_nomemory();
    vm_unroots(r);
    return w;
}

static Obj weakref_make(TypeObj *type, Obj ob, Obj callback)
{
    if (!weakref_supported(ob)) {
        err_format(E_TypeError, "cannot create weak reference to '%s' object", type_name(ob));
        return NULL;
    }
    unsigned tid = TID_WEAKREF;
    if (type == T_weakproxy || type == T_weakcallableproxy)
        tid = vm_callable(ob) ? TID_WEAKCALLABLEPROXY : TID_WEAKPROXY;
    if (callback && IS_NONE(callback))
        callback = NULL;
    return weakref_alloc(tid, ob, callback);
}

Obj weakref_new(TypeObj *type, Obj ob, Obj callback)
{
    return weakref_make(type, ob, callback);
}

Obj weakref_referent(Obj w)
{
    return WREF(w)->referent;
}

/* ---- ref ---- */

/* The weak reference of self (a ref, or an instance of a subclass). */
static Obj as_ref(Obj self)
{
    Obj w = vm_unwrap(self);
    return TID(w) == TID_WEAKREF ? w : NULL;
}

static Obj ref_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("ref", nargs, kwnames, 0, -1) < 0)
        return NULL;
    if (nargs < 1 || nargs > 2) {
        err_format(E_TypeError, "__new__ expected at most 2 arguments, got %zu", nargs);
        if (nargs < 1)
            err_format(E_TypeError, "__new__ expected at least 1 argument, got 0");
        return NULL;
    }
    Obj *r = vm_roots(2);
    r[0] = weakref_make(T_weakref, args[0], nargs > 1 ? args[1] : NULL);
    Obj res = NULL;
    if (r[0]) {
        r[1] = container_wrap_for_type(T_weakref, type, r[0]);
        if (r[1] && r[1] != r[0]) {
            VM_WRITE(r[0]);
            WREF(r[0])->wrapper = r[1];   /* callbacks receive the subclass instance */
        }
        res = r[1];
    }
    vm_unroots(r);
    return res;
}

/* ref.__init__ accepts what __new__ took (subclasses call it with theirs). */
static int ref_tp_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    (void)self;
    if (nargs < 1 || nargs > 2) {
        err_format(E_TypeError, "__init__ expected at most 2 arguments, got %zu", nargs);
        return -1;
    }
    return 0;
}

static Obj ref_call(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs || (kwnames && TUPLE_LEN(kwnames))) {
        err_format(E_TypeError, "weakref() takes exactly 0 arguments (%zu given)", nargs);
        return NULL;
    }
    Obj w = as_ref(self);
    Obj o = w ? WREF(w)->referent : NULL;
    return o ? o : g_None;
}

static int64_t ref_hash(Obj self)
{
    Obj w = as_ref(self);
    if (!w)
        return vm_identity_hash(self);
    if (WREF(w)->has_hash)
        return WREF(w)->hash;
    Obj o = WREF(w)->referent;
    if (!o) {
        err_set(E_TypeError, "weak object has gone away");
        return -1;
    }
    Obj *r = vm_roots(1);
    r[0] = w;
    int64_t h = vm_hash(o);
    w = r[0];
    vm_unroots(r);
    if (h == -1)
        return -1;
    VM_WRITE(w);
    WREF(w)->hash = h;
    WREF(w)->has_hash = 1;
    return h;
}

/* Two live refs compare their referents; otherwise refs are equal only to
 * themselves. */
static Obj ref_richcompare(Obj a, Obj b, int op)
{
    Obj wa = as_ref(a), wb = as_ref(b);
    if ((op != CMP_EQ && op != CMP_NE) || !wa || !wb)
        return g_NotImplemented;
    Obj oa = WREF(wa)->referent, ob = WREF(wb)->referent;
    if (!oa || !ob) {
        bool same = a == b;
        return vm_bool(op == CMP_EQ ? same : !same);
    }
    return vm_richcompare(oa, ob, op);
}

/* "<weakref at 0x...; to 'A' at 0x...>" / "<weakref at 0x...; dead>" */
static Obj weak_repr(Obj self, const char *kind)
{
    Obj *r = vm_roots(2);
    r[0] = self;
    Obj w = vm_unwrap(self);
    r[1] = WREF(w)->referent;
    uint64_t id = vm_object_id_slot(&r[0]);
    char buf[200];
    if (!r[1])
        snprintf(buf, sizeof buf, "<%s at %#lx; dead>", kind, (unsigned long)id);
    else {
        uint64_t rid = vm_object_id_slot(&r[1]);
        snprintf(buf, sizeof buf, "<%s at %#lx; to '%s' at %#lx>", kind, (unsigned long)id,
                 type_name(r[1]), (unsigned long)rid);
    }
    vm_unroots(r);
    return str_from_cstr(buf);
}

static Obj ref_repr(Obj self) { return weak_repr(self, "weakref"); }

static Obj ref_callback_get(Obj *args, size_t nargs, Obj kwnames)
{
    Obj w = vm_unwrap(args[0]);
    if (!is_weak(w)) {
        err_set(E_TypeError, "descriptor '__callback__' needs a weak reference");
        return NULL;
    }
    Obj cb = WREF(w)->callback;
    return cb ? cb : g_None;
}

static Obj ref_class_getitem(Obj *args, size_t nargs, Obj kwnames)
{
    return args[0];   /* weakref.ref[int] is ref, as the typing machinery needs no more here */
}

static const MethodDef ref_methods[] = {
    {"__class_getitem__", ref_class_getitem, METH_CLASS | METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

/* ---- proxies ---- */

/* The referent of a proxy, or NULL with ReferenceError. */
static Obj target(Obj p)
{
    Obj o = WREF(p)->referent;
    if (!o)
        err_set(E_ReferenceError, "weakly-referenced object no longer exists");
    return o;
}

/* Either operand may be a proxy: both are replaced by their referents. */
static int unwrap2(Obj *a, Obj *b)
{
    if (is_weak(*a) && TID(*a) != TID_WEAKREF && !(*a = target(*a)))
        return -1;
    if (is_weak(*b) && TID(*b) != TID_WEAKREF && !(*b = target(*b)))
        return -1;
    return 0;
}

static Obj proxy_repr(Obj self) { return weak_repr(self, "weakproxy"); }

static Obj proxy_str(Obj self)
{
    Obj o = target(self);
    return o ? vm_str(o) : NULL;
}

static Obj proxy_getattro(Obj self, Obj name)
{
    Obj o = target(self);
    return o ? vm_getattr(o, name) : NULL;
}

static int proxy_setattro(Obj self, Obj name, Obj v)
{
    Obj o = target(self);
    return o ? vm_setattr(o, name, v) : -1;
}

static int64_t proxy_hash(Obj self)
{
    err_format(E_TypeError, "unhashable type: '%s'", type_name(self));
    return -1;
}

static Obj proxy_richcompare(Obj a, Obj b, int op)
{
    if (unwrap2(&a, &b) < 0)
        return NULL;
    return vm_richcompare(a, b, op);
}

static Obj proxy_call(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    Obj o = target(self);
    return o ? vm_call(o, args, nargs, kwnames) : NULL;
}

static int64_t proxy_len(Obj self)
{
    Obj o = target(self);
    return o ? vm_len(o) : -1;
}

static Obj proxy_getitem(Obj self, Obj key)
{
    Obj o = target(self);
    return o ? vm_getitem(o, key) : NULL;
}

static int proxy_setitem(Obj self, Obj key, Obj v)
{
    Obj o = target(self);
    if (!o)
        return -1;
    return v ? vm_setitem(o, key, v) : vm_delitem(o, key);
}

static int proxy_contains(Obj self, Obj item)
{
    Obj o = target(self);
    return o ? vm_contains(o, item) : -1;
}

static Obj proxy_iter(Obj self)
{
    Obj o = target(self);
    return o ? vm_iter(o) : NULL;
}

static Obj proxy_iternext(Obj self)
{
    Obj o = target(self);
    return o ? vm_next(o) : NULL;
}

static int proxy_bool(Obj self)
{
    Obj o = target(self);
    return o ? vm_is_true(o) : -1;
}

#define PROXY_BINOP(OP)                                          \
    static Obj proxy_##OP(Obj a, Obj b)                          \
    {                                                            \
        if (unwrap2(&a, &b) < 0)                                 \
            return NULL;                                         \
        return vm_binop(a, b, OP);                               \
    }
PROXY_BINOP(NB_ADD) PROXY_BINOP(NB_SUB) PROXY_BINOP(NB_MUL) PROXY_BINOP(NB_TRUEDIV)
PROXY_BINOP(NB_FLOORDIV) PROXY_BINOP(NB_MOD) PROXY_BINOP(NB_POW) PROXY_BINOP(NB_LSHIFT)
PROXY_BINOP(NB_RSHIFT) PROXY_BINOP(NB_AND) PROXY_BINOP(NB_OR) PROXY_BINOP(NB_XOR)
PROXY_BINOP(NB_MATMUL) PROXY_BINOP(NB_DIVMOD)

#define PROXY_UNARY(NAME, EXPR)                                  \
    static Obj proxy_##NAME(Obj self)                            \
    {                                                            \
        Obj o = target(self);                                    \
        return o ? (EXPR) : NULL;                                \
    }
PROXY_UNARY(neg, vm_unaryop(o, UN_NEG))
PROXY_UNARY(pos, vm_unaryop(o, UN_POS))
PROXY_UNARY(invert, vm_unaryop(o, UN_INVERT))
PROXY_UNARY(int, vm_number_int(o))
PROXY_UNARY(float, vm_number_float(o))
PROXY_UNARY(index, vm_index(o))

static TypeObj *proxy_type(const char *name, bool callable)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object,
                                             callable ? TID_WEAKCALLABLEPROXY : TID_WEAKPROXY,
                                             TPF_DOTTED_NAME | TPF_ABSTRACT_NEW);
    t->tp_repr = proxy_repr;
    t->tp_str = proxy_str;
    t->tp_getattro = proxy_getattro;
    t->tp_setattro = proxy_setattro;
    t->tp_hash = proxy_hash;
    t->tp_richcompare = proxy_richcompare;
    t->tp_len = proxy_len;
    t->tp_getitem = proxy_getitem;
    t->tp_setitem = proxy_setitem;
    t->tp_contains = proxy_contains;
    t->tp_iter = proxy_iter;
    t->tp_iternext = proxy_iternext;
    t->tp_bool = proxy_bool;
    if (callable)
        t->tp_call = proxy_call;
    binaryfunc ops[NB_COUNT] = {
        [NB_ADD] = proxy_NB_ADD, [NB_SUB] = proxy_NB_SUB, [NB_MUL] = proxy_NB_MUL,
        [NB_TRUEDIV] = proxy_NB_TRUEDIV, [NB_FLOORDIV] = proxy_NB_FLOORDIV, [NB_MOD] = proxy_NB_MOD,
        [NB_POW] = proxy_NB_POW, [NB_LSHIFT] = proxy_NB_LSHIFT, [NB_RSHIFT] = proxy_NB_RSHIFT,
        [NB_AND] = proxy_NB_AND, [NB_OR] = proxy_NB_OR, [NB_XOR] = proxy_NB_XOR,
        [NB_MATMUL] = proxy_NB_MATMUL, [NB_DIVMOD] = proxy_NB_DIVMOD,
    };
    for (int i = 0; i < NB_COUNT; i++)
        t->nb[i] = ops[i];
    t->nb_neg = proxy_neg;
    t->nb_pos = proxy_pos;
    t->nb_invert = proxy_invert;
    t->nb_int = proxy_int;
    t->nb_float = proxy_float;
    t->nb_index = proxy_index;
    type_add_getset(t, "__callback__", ref_callback_get, NULL);
    type_ready(t);
    return t;
}

void weakref_init_types(void)
{
    T_weakref = (TypeObj *)type_new_builtin("weakref.ReferenceType", T_object, TID_WEAKREF,
                                            TPF_BASETYPE | TPF_DOTTED_NAME);
    TypeObj *t = T_weakref;
    t->tp_new = ref_tp_new;
    t->tp_init = ref_tp_init;
    t->tp_call = ref_call;
    t->tp_hash = ref_hash;
    t->tp_richcompare = ref_richcompare;
    t->tp_repr = ref_repr;
    type_add_methods(t, ref_methods);
    type_add_getset(t, "__callback__", ref_callback_get, NULL);
    type_ready(t);
    T_weakproxy = proxy_type("weakref.ProxyType", false);
    T_weakcallableproxy = proxy_type("weakref.CallableProxyType", true);
}
