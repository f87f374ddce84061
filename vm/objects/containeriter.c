/* Built-in iterators shared by the containers: the IterObj allocator, the
 * list / reversed-list / tuple / sequence-protocol iterators, and small
 * helpers every container uses (index arguments, repr recursion, subclass
 * wrapping). Dict, set and range iterators live next to their containers
 * because they read private table layouts. */
#include "objects.h"
#include "containers.h"

#include <stdlib.h>
#include <string.h>

TypeObj *T_list_iterator, *T_list_reverseiterator, *T_tuple_iterator, *T_seq_iterator;

Obj iter_alloc(TypeObj *cls, Obj a, int64_t kind)
{
    Obj *r = vm_roots(1);
    r[0] = a;
    Obj it = tm_allocate(TID_ITER, sizeof(struct IterObj_));
    a = r[0];
    vm_unroots(r);
    if (!it)
        return err_nomemory();
    ITER(it)->cls = (Obj)cls;
    ITER(it)->a = a;
    ITER(it)->kind = kind;
    return it;
}

Obj iter_self(Obj it)
{
    return it;
}

/* __length_hint__ of the simple iterators (operator.length_hint, list()). */
static Obj iter_length_hint(Obj *args, size_t nargs, Obj kwnames)
{
    Obj it = args[0];
    int64_t n = 0;
    Obj a = ITER(it)->a;
    switch (ITER(it)->kind) {
    case ITK_LIST:
        if (a && ITER(it)->i < LIST_LEN(a))
            n = LIST_LEN(a) - ITER(it)->i;
        break;
    case ITK_LIST_REV:
        if (a && ITER(it)->i >= 0 && ITER(it)->i < LIST_LEN(a))
            n = ITER(it)->i + 1;
        break;
    case ITK_TUPLE:
        if (a && ITER(it)->i < TUPLE_LEN(a))
            n = TUPLE_LEN(a) - ITER(it)->i;
        break;
    case ITK_RANGE:
        n = ITER(it)->n > 0 ? ITER(it)->n : 0;
        break;
    case ITK_LONGRANGE:
        return ITER(it)->c ? ITER(it)->c : MAKE_SMALLINT(0);
    case ITK_DICT_KEYS: case ITK_DICT_VALUES: case ITK_DICT_ITEMS:
    case ITK_DICT_REV_KEYS: case ITK_DICT_REV_VALUES: case ITK_DICT_REV_ITEMS:
        if (a && ITER(it)->n == dict_len(a) && ITER(it)->c)
            n = SMALLINT_VAL(ITER(it)->c);
        break;
    case ITK_SET:
        if (a && ITER(it)->n == set_len(a) && ITER(it)->c)
            n = SMALLINT_VAL(ITER(it)->c);
        break;
    default:
        return g_NotImplemented;
    }
    return MAKE_SMALLINT(n);
}

static const MethodDef iter_methods[] = {
    {"__length_hint__", iter_length_hint, METH_NOARGS, "Private method returning an estimate of len(list(it))."},
    {NULL, NULL, 0, NULL},
};

TypeObj *iter_make_type(const char *name, unaryfunc next, bool length_hint)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_ITER, 0);
    t->tp_iter = iter_self;
    t->tp_iternext = next;
    if (length_hint)
        type_add_methods(t, iter_methods);
    type_ready(t);
    return t;
}

/* ---- pickling: (iter, (seq,), next index) as CPython's ---- */

static Obj builtin_named(const char *name)
{
    return vm_getattr_cstr(g_builtins_module, name);
}

/* list / tuple / sequence iterators: iter(seq) advanced to index i; an
 * exhausted one is iter(()). The reverse list iterator is reversed(list). */
static Obj seqiter_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    Obj a = ITER(r[0])->a;
    int64_t kind = ITER(r[0])->kind;
    bool live = a && (kind != ITK_LIST_REV || ITER(r[0])->i >= 0);
    r[1] = builtin_named(live && kind == ITK_LIST_REV ? "reversed" : "iter");
    if (!r[1])
        goto out;
    if (!live) {
        r[2] = tuple_pack(1, g_empty_tuple);
        if (r[2])
            res = tuple_pack(2, r[1], r[2]);
        goto out;
    }
    r[2] = tuple_pack(1, ITER(r[0])->a);
    if (r[2])
        res = tuple_pack(3, r[1], r[2], MAKE_SMALLINT(ITER(r[0])->i));
out:
    vm_unroots(r);
    return res;
}

/* __setstate__(index): clamped to the sequence as CPython does. */
static Obj seqiter_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t i;
    if (arg_i64(args[1], &i) < 0)
        return NULL;
    Obj it = args[0];
    Obj a = ITER(it)->a;
    if (!a)
        return g_None;
    int64_t kind = ITER(it)->kind;
    if (kind == ITK_LIST_REV) {
        int64_t n = LIST_LEN(a);
        i = i < -1 ? -1 : i > n - 1 ? n - 1 : i;
    } else {
        if (i < 0)
            i = 0;
        if (kind == ITK_LIST && i > LIST_LEN(a))
            i = LIST_LEN(a);
        if (kind == ITK_TUPLE && i > TUPLE_LEN(a))
            i = TUPLE_LEN(a);
    }
    VM_WRITE(it);
    ITER(it)->i = i;
    return g_None;
}

static const MethodDef seqiter_methods[] = {
    {"__reduce__", seqiter_reduce, METH_NOARGS, "Return state information for pickling."},
    {"__setstate__", seqiter_setstate, METH_O, "Set state information for unpickling."},
    {NULL, NULL, 0, NULL},
};

void seqiter_add_pickling(TypeObj *t)
{
    type_add_methods(t, seqiter_methods);
}

/* dict and set iterators: (iter, (list of the items left,)), the list read
 * from a copy of the iterator so the original does not move, as CPython's
 * (a set's order is not kept: it unpickles as a list iterator). */
static Obj copyiter_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = iter_alloc((TypeObj *)ITER(r[0])->cls, ITER(r[0])->a, ITER(r[0])->kind);
    if (!r[1])
        goto out;
    /* a new object: no barrier */
    ITER(r[1])->b = ITER(r[0])->b;
    ITER(r[1])->c = ITER(r[0])->c;
    ITER(r[1])->i = ITER(r[0])->i;
    ITER(r[1])->n = ITER(r[0])->n;
    if (!(r[1] = vm_list_from_iter(r[1])) || !(r[1] = tuple_pack(1, r[1])) || !(r[2] = builtin_named("iter")))
        goto out;
    res = tuple_pack(2, r[2], r[1]);
out:
    vm_unroots(r);
    return res;
}

static const MethodDef copyiter_methods[] = {
    {"__reduce__", copyiter_reduce, METH_NOARGS, "Return state information for pickling."},
    {NULL, NULL, 0, NULL},
};

void copyiter_add_pickling(TypeObj *t)
{
    type_add_methods(t, copyiter_methods);
}

/* ---- list iterators ---- */

Obj list_iter_next(Obj it)
{
    return list_iter_next_inline(it);
}

Obj list_iter_new(Obj list)
{
    return iter_alloc(T_list_iterator, list, ITK_LIST);
}

Obj list_reviter_next(Obj it)
{
    Obj l = ITER(it)->a;
    if (!l)
        return NULL;
    VM_READ(l);
    int64_t i = ITER(it)->i;
    VM_WRITE(it);
    if (i >= 0 && i < LIST_LEN(l)) {
        ITER(it)->i = i - 1;
        return LIST_ITEMS(l)[i];
    }
    ITER(it)->a = NULL;
    return NULL;
}

/* ---- tuple iterator ---- */

Obj tuple_iter_next(Obj it)
{
    Obj t = ITER(it)->a;
    if (!t)
        return NULL;
    int64_t i = ITER(it)->i;
    VM_WRITE(it);
    if (i < TUPLE_LEN(t)) {
        ITER(it)->i = i + 1;
        return TUPLE_ITEMS(t)[i];
    }
    ITER(it)->a = NULL;
    return NULL;
}

Obj tuple_iter_new(Obj t)
{
    return iter_alloc(T_tuple_iterator, t, ITK_TUPLE);
}

/* ---- the sequence protocol: seq[0], seq[1], ... until IndexError ---- */

Obj seq_iter_next(Obj it)
{
    if (!ITER(it)->a)
        return NULL;
    Obj *r = vm_roots(1);
    r[0] = it;
    int64_t i = ITER(it)->i;
    Obj v = vm_getitem(ITER(it)->a, MAKE_SMALLINT(i));
    it = r[0];
    vm_unroots(r);
    if (!v) {
        if (err_matches(E_IndexError) || err_matches(E_StopIteration)) {
            err_clear();
            VM_WRITE(it);
            ITER(it)->a = NULL;
        }
        return NULL;
    }
    VM_WRITE(it);
    ITER(it)->i = i + 1;
    return v;
}

Obj seqiter_new(Obj seq)
{
    return iter_alloc(T_seq_iterator, seq, ITK_SEQ);
}

/* ---- helpers ---- */

int seq_index_arg(Obj key, int64_t *out)
{
    if (IS_SMALLINT(key)) {
        *out = SMALLINT_VAL(key);
        return 1;
    }
    unsigned tid = key->h.tid;
    if (tid == TID_BOOL) {
        *out = ((BoolObj *)key)->value;
        return 1;
    }
    if (tid != TID_BIGINT) {
        TypeObj *t = TYPE(key);
        if (!t->nb_index)
            return 0;
        key = vm_index(key);
        if (!key)
            return -1;
        if (IS_SMALLINT(key)) {
            *out = SMALLINT_VAL(key);
            return 1;
        }
        if (TID(key) == TID_BOOL) {
            *out = ((BoolObj *)key)->value;
            return 1;
        }
    }
    int64_t v;
    TypeObj *kt = TYPE(key);   /* raising allocates: key may move */
    if (int_as_i64(key, &v) == 0) {
        *out = v;
        return 1;
    }
    err_clear();
    err_format(E_IndexError, "cannot fit '%s' into an index-sized integer", type_name_of_type(kt));
    return -1;
}

Obj container_wrap_for_type(TypeObj *builtin, Obj type, Obj value)
{
    if (!value || (TypeObj *)type == builtin)
        return value;
    Obj *r = vm_roots(1);
    r[0] = value;
    Obj inst = instance_new((TypeObj *)type);
    value = r[0];
    vm_unroots(r);
    if (!inst)
        return NULL;
    VM_WRITE(inst);
    INST(inst)->base_value = value;
    return inst;
}

/* ---- repr recursion: the containers being repr'd on this thread ----
 * Each entry is the root slot that holds the container, so the entry
 * follows the object when the GC moves it. An STM abort cuts the shadow
 * stack back below some entries: those are stale and dropped. */
static __thread Obj **repr_stack;
static __thread int repr_depth, repr_cap;

/* An STM abort puts the depth back to where the transaction started
 * (txstate.c): entries pushed since may point at restored slots. */
int repr_depth_get(void) { return repr_depth; }
void repr_depth_set(int depth) { repr_depth = depth; }

static void repr_drop_stale(void)
{
    while (repr_depth > 0 && (object_t **)repr_stack[repr_depth - 1] >= tm_self.ss_top)
        repr_depth--;
}

int repr_enter(Obj *slot)
{
    repr_drop_stale();
    for (int i = 0; i < repr_depth; i++)
        if (*repr_stack[i] == *slot)
            return 1;
    if (vm_enter_recursive(" while getting the repr of an object") < 0)
        return -1;
    if (repr_depth == repr_cap) {
        int ncap = repr_cap ? repr_cap * 2 : 64;
        Obj **p = vm_realloc_kept(repr_stack, (size_t)ncap * sizeof *p);   /* per-thread: survives aborts */
        if (!p) {
            vm_leave_recursive();
            err_nomemory();
            return -1;
        }
        repr_stack = p;
        repr_cap = ncap;
    }
    repr_stack[repr_depth++] = slot;
    return 0;
}

void repr_leave(void)
{
    if (repr_depth > 0)
        repr_depth--;
    vm_leave_recursive();
}

int seq_slice_index(Obj v, int64_t *out, bool allow_none)
{
    if (IS_SMALLINT(v)) {
        *out = SMALLINT_VAL(v);
        return 0;
    }
    if (allow_none && v == g_None)
        return 0;
    if (TID(v) != TID_BIGINT && TID(v) != TID_BOOL) {
        if (!TYPE(v)->nb_index) {
            err_set(E_TypeError, allow_none
                                     ? "slice indices must be integers or None or have an __index__ method"
                                     : "slice indices must be integers or have an __index__ method");
            return -1;
        }
        v = vm_index(v);
        if (!v)
            return -1;
    }
    int sign = int_sign(v);   /* before int_as_i64 raises (and may move v) */
    if (int_as_i64(v, out) == 0)
        return 0;
    err_clear();
    *out = sign < 0 ? INT64_MIN : INT64_MAX;
    return 0;
}

/* The other operand of a sequence op is a user class that may still handle
 * it through its reflected method: let vm_binop try. */
bool seq_reflected_may_handle(Obj other, const char *rdunder)
{
    TypeObj *t = TYPE(other);
    return (t->flags & TPF_HEAPTYPE) && vm_lookup_special(other, rdunder) != NULL;
}

/* Repeat count of `seq * n`: 1 ok, 0 NotImplemented, -1 error. */
int seq_repeat_count(Obj a, Obj b, bool seq_is_a, int64_t *n)
{
    Obj other = seq_is_a ? b : a;
    TypeObj *ot = TYPE(other);   /* types never move */
    int rc = seq_index_arg(other, n);
    if (rc == 0) {
        if (seq_is_a && seq_reflected_may_handle(other, "__rmul__"))
            return 0;
        err_format(E_TypeError, "can't multiply sequence by non-int of type '%s'", type_name_of_type(ot));
        return -1;
    }
    if (rc < 0 && err_matches(E_IndexError)) {
        err_clear();
        err_format(E_OverflowError, "cannot fit '%s' into an index-sized integer", type_name_of_type(ot));
    }
    return rc;
}

/* ---- list and tuple: one implementation of their item algorithms ---- */

/* Lexicographic comparison of slots[0] and slots[1] (same kind). */
static Obj seq_richcompare(Obj *slots, int op)
{
    if ((op == CMP_EQ || op == CMP_NE) && seq_len(slots[0]) != seq_len(slots[1]))
        return vm_bool(op == CMP_NE);
    if (vm_enter_recursive(" in comparison") < 0)
        return NULL;
    int64_t i;
    for (i = 0; i < seq_len(slots[0]) && i < seq_len(slots[1]); i++) {
        Obj x = seq_items(slots[0])[i], y = seq_items(slots[1])[i];
        int eq = container_fast_eq(x, y);
        if (eq == -2)
            eq = vm_richcompare_bool(x, y, CMP_EQ);
        if (eq < 0) {
            vm_leave_recursive();
            return NULL;
        }
        if (!eq)
            break;
    }
    int64_t la = seq_len(slots[0]), lb = seq_len(slots[1]);
    Obj res;
    if (i >= la || i >= lb) {
        bool v;
        switch (op) {
        case CMP_LT: v = la < lb; break;
        case CMP_LE: v = la <= lb; break;
        case CMP_EQ: v = la == lb; break;
        case CMP_NE: v = la != lb; break;
        case CMP_GT: v = la > lb; break;
        default: v = la >= lb; break;
        }
        res = vm_bool(v);
    } else if (op == CMP_EQ) {
        res = g_False;
    } else if (op == CMP_NE) {
        res = g_True;
    } else {
        Obj x = seq_items(slots[0])[i], y = seq_items(slots[1])[i];
        if (IS_SMALLINT(x) && IS_SMALLINT(y)) {
            int64_t p = SMALLINT_VAL(x), q = SMALLINT_VAL(y);
            bool v = op == CMP_LT ? p < q : op == CMP_LE ? p <= q : op == CMP_GT ? p > q : p >= q;
            res = vm_bool(v);
        } else {
            res = vm_richcompare(x, y, op);
        }
    }
    vm_leave_recursive();
    return res;
}

int64_t seq_find(Obj *sslot, Obj *vslot, int64_t start, int64_t stop)
{
    for (int64_t i = start; i < stop && i < seq_len(*sslot); i++) {
        Obj item = seq_items(*sslot)[i];
        int eq = container_fast_eq(item, *vslot);
        if (eq == -2)
            eq = vm_richcompare_bool(item, *vslot, CMP_EQ);
        if (eq < 0)
            return -2;
        if (eq)
            return i;
    }
    return -1;
}

/* Number of items == *vslot, -1 on error. */
static int64_t seq_count(Obj *sslot, Obj *vslot)
{
    int64_t count = 0;
    for (int64_t i = 0; i < seq_len(*sslot); i++) {
        Obj item = seq_items(*sslot)[i];
        int eq = container_fast_eq(item, *vslot);
        if (eq == -2)
            eq = vm_richcompare_bool(item, *vslot, CMP_EQ);
        if (eq < 0)
            return -1;
        count += eq;
    }
    return count;
}

/* tp_richcompare of list and tuple: lexicographic, the first index whose
 * items differ decides (== tries identity first, so a sequence equals
 * itself); the operands are held in root slots across user __eq__. */
Obj seq_compare(Obj a, Obj b, int op)
{
    a = vm_unwrap(a);
    b = vm_unwrap(b);
    if (!(IS_LIST(a) && IS_LIST(b)) && !(IS_TUPLE(a) && IS_TUPLE(b)))
        return g_NotImplemented;
    if (a == b && (op == CMP_EQ || op == CMP_NE))
        return vm_bool(op == CMP_EQ);
    Obj *r = vm_roots(2);
    r[0] = a;
    r[1] = b;
    Obj res = seq_richcompare(r, op);
    vm_unroots(r);
    return res;
}

/* tp_contains of list and tuple: 1, 0, -1. */
int seq_contains_slot(Obj self, Obj v)
{
    Obj *r = vm_roots(2);
    r[0] = vm_unwrap(self);
    r[1] = v;
    int64_t i = seq_find(&r[0], &r[1], 0, INT64_MAX);
    vm_unroots(r);
    return i == -2 ? -1 : i >= 0;
}

/* tp_len and tp_bool of list and tuple. */
int64_t seq_len_slot(Obj self)
{
    return seq_len(vm_unwrap(self));
}

int seq_bool_slot(Obj self)
{
    return seq_len(vm_unwrap(self)) != 0;
}

/* list.index / tuple.index, declared METH_ARGS(1, 3): the first i in
 * [start, stop) with self[i] == value. */
Obj seq_index_method(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t start = 0, stop = INT64_MAX;
    if (nargs > 2 && seq_slice_index(args[2], &start, false) < 0)
        return NULL;
    if (nargs > 3 && seq_slice_index(args[3], &stop, false) < 0)
        return NULL;
    Obj *r = vm_roots(2);
    r[0] = vm_unwrap(args[0]);
    r[1] = args[1];
    seq_clamp_range(seq_len(r[0]), &start, &stop);
    int64_t i = seq_find(&r[0], &r[1], start, stop);
    bool list = IS_LIST(r[0]);
    vm_unroots(r);
    if (i >= 0)
        return MAKE_SMALLINT(i);
    if (i == -2)
        return NULL;
    if (!list) {
        err_set(E_ValueError, "tuple.index(x): x not in tuple");
        return NULL;
    }
    Obj s = vm_repr(args[1]);
    char *c = s ? strdup(str_cstr(s)) : NULL;
    if (!c)
        return s ? err_nomemory() : NULL;
    err_format(E_ValueError, "%s is not in list", c);
    free(c);
    return NULL;
}

/* list.count / tuple.count, declared METH_O. */
Obj seq_count_method(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    r[0] = vm_unwrap(args[0]);
    r[1] = args[1];
    int64_t count = seq_count(&r[0], &r[1]);
    vm_unroots(r);
    return count < 0 ? NULL : MAKE_SMALLINT(count);
}

Obj seq_repr(Obj s)
{
    s = vm_unwrap(s);
    bool list = IS_LIST(s);
    int64_t n = seq_len(s);
    if (n == 0)
        return str_from_cstr(list ? "[]" : "()");
    Obj *r = vm_roots(1);
    r[0] = s;
    int rc = repr_enter(&r[0]);
    if (rc != 0) {
        vm_unroots(r);
        return rc > 0 ? str_from_cstr(list ? "[...]" : "(...)") : NULL;
    }
    StrBuf b;
    sb_init(&b);
    sb_addc(&b, list ? '[' : '(');
    for (int64_t i = 0; i < seq_len(r[0]); i++) {
        if (i)
            sb_add(&b, ", ", 2);
        Obj item = vm_repr(seq_items(r[0])[i]);
        if (!item) {
            sb_free(&b);
            repr_leave();
            vm_unroots(r);
            return NULL;
        }
        sb_add_str(&b, item);
    }
    if (!list && n == 1)
        sb_addc(&b, ',');
    sb_addc(&b, list ? ']' : ')');
    repr_leave();
    vm_unroots(r);
    return sb_finish(&b);
}

void seq_clamp_range(int64_t n, int64_t *start, int64_t *stop)
{
    if (*start < 0) {
        *start += n;
        if (*start < 0)
            *start = 0;
    }
    if (*stop < 0) {
        *stop += n;
        if (*stop < 0)
            *stop = 0;
    }
}
