/* collections.deque: a ring buffer over an ArrayObj (DequeObj in tmpy.h).
 * Every operation (append, appendleft, pop, popleft, extend, extendleft,
 * rotate, clear, the maxlen discard, ...) is one C call with no yield point
 * inside: atomic under the GIL, and one bytecode of one transaction under
 * the STM. `state` changes whenever items move, so iterators can tell. */
#include "objects/containers.h"
#include "objects/objects.h"

#include <stdlib.h>
#include <string.h>

TypeObj *T_deque;
static TypeObj *T_deque_iterator, *T_deque_reverse_iterator;

#define IS_DEQUE(v) (TID(v) == TID_DEQUE)

static inline int64_t dq_cap(Obj d) { return ARRAY(DEQUE(d)->buf)->length; }
static inline int64_t dq_pos(Obj d, int64_t k)
{
    DequeObj *p = DEQUE(d);
    return (p->head + k) % ARRAY(p->buf)->length;
}
static inline Obj dq_get(Obj d, int64_t k) { return ARRAY(DEQUE(d)->buf)->items[dq_pos(d, k)]; }
static inline void dq_set(Obj d, int64_t k, Obj v)
{
    Obj b = DEQUE(d)->buf;
    int64_t i = dq_pos(d, k);
    VM_WRITE(b);
    ARRAY(b)->items[i] = v;
}
static inline void dq_changed(Obj d)
{
    VM_WRITE(d);
    DEQUE(d)->state++;
}

static Obj deque_alloc(int64_t maxlen)
{
    Obj *r = vm_roots(1);
    r[0] = array_new(8);
    Obj d = r[0] ? tm_allocate(TID_DEQUE, sizeof(struct DequeObj_)) : NULL;
    Obj buf = r[0];
    vm_unroots(r);
    if (!buf)
        return NULL;
    if (!d)
        return err_nomemory();
    DequeObj *p = DEQUE(d);
    p->buf = buf;
    p->head = 0;
    p->len = 0;
    p->maxlen = maxlen;
    p->state = 0;
    return d;
}

/* The deque behind `self` (a deque or an instance of a subclass), or NULL + TypeError. */
static Obj as_deque(Obj self, const char *meth)
{
    Obj u = vm_unwrap(self);
    if (IS_DEQUE(u))
        return u;
    err_format(E_TypeError, "descriptor '%s' for 'collections.deque' objects doesn't apply to a '%s' object",
               meth, type_name(self));
    return NULL;
}

static int dq_grow(Obj *ds)
{
    int64_t cap = dq_cap(*ds);
    Obj nb = array_new(cap * 2);
    if (!nb)
        return -1;
    Obj d = *ds;
    int64_t n = DEQUE(d)->len;
    for (int64_t k = 0; k < n; k++)
        ARRAY(nb)->items[k] = dq_get(d, k);
    VM_WRITE(d);
    DEQUE(d)->buf = nb;
    DEQUE(d)->head = 0;
    return 0;
}

/* Remove and return the item at one end; NULL + IndexError if empty. Never allocates on success. */
static Obj dq_pop(Obj d, bool left)
{
    if (DEQUE(d)->len == 0) {
        err_set(E_IndexError, "pop from an empty deque");
        return NULL;
    }
    int64_t k = left ? 0 : DEQUE(d)->len - 1;
    Obj x = dq_get(d, k);
    dq_set(d, k, NULL);
    VM_WRITE(d);
    DequeObj *p = DEQUE(d);
    if (left)
        p->head = (p->head + 1) % ARRAY(p->buf)->length;
    p->len--;
    p->state++;
    return x;
}

/* Append *vs at one end, discarding from the other end past maxlen. */
static int dq_push(Obj *ds, Obj *vs, bool left)
{
    Obj d = *ds;
    int64_t ml = DEQUE(d)->maxlen;
    if (ml == 0)
        return 0;
    if (ml > 0 && DEQUE(d)->len >= ml)
        dq_pop(d, !left);
    if (DEQUE(d)->len == dq_cap(d)) {
        if (dq_grow(ds) < 0)
            return -1;
        d = *ds;
    }
    int64_t cap = dq_cap(d);
    VM_WRITE(d);
    DequeObj *p = DEQUE(d);
    if (left)
        p->head = (p->head - 1 + cap) % cap;
    p->len++;
    p->state++;
    dq_set(d, left ? 0 : DEQUE(d)->len - 1, *vs);
    return 0;
}

static Obj dq_to_list(Obj *ds)
{
    int64_t n = DEQUE(*ds)->len;
    Obj l = list_new(n);
    if (!l)
        return NULL;
    Obj d = *ds;
    for (int64_t k = 0; k < n; k++)
        LIST_ITEMS(l)[k] = dq_get(d, k);
    return l;
}

static int dq_extend(Obj *ds, Obj iterable, bool left)
{
    Obj *r = vm_roots(3);
    r[0] = iterable;
    if (vm_unwrap(iterable) == *ds) {
        r[0] = dq_to_list(ds);
        if (!r[0])
            goto fail;
    }
    r[1] = vm_iter(r[0]);
    if (!r[1])
        goto fail;
    for (;;) {
        r[2] = vm_next(r[1]);
        if (!r[2]) {
            if (err_occurred())
                goto fail;
            break;
        }
        if (dq_push(ds, &r[2], left) < 0)
            goto fail;
    }
    vm_unroots(r);
    return 0;
fail:
    vm_unroots(r);
    return -1;
}

static int dq_clear(Obj *ds)
{
    Obj nb = array_new(8);
    if (!nb)
        return -1;
    Obj d = *ds;
    VM_WRITE(d);
    DequeObj *p = DEQUE(d);
    p->buf = nb;
    p->head = 0;
    p->len = 0;
    p->state++;
    return 0;
}

/* Delete the item at index k (0 <= k < len). */
static void dq_del_at(Obj d, int64_t k)
{
    int64_t n = DEQUE(d)->len;
    for (int64_t j = k; j < n - 1; j++)
        dq_set(d, j, dq_get(d, j + 1));
    dq_set(d, n - 1, NULL);
    VM_WRITE(d);
    DEQUE(d)->len--;
    DEQUE(d)->state++;
}

/* Copy: a new deque of the same type and maxlen (a subclass: type(d)(d[, maxlen])). */
static Obj dq_copy(Obj self)
{
    Obj *r = vm_roots(3);
    r[0] = self;
    r[1] = vm_unwrap(self);
    Obj res = NULL;
    if (TYPE(r[0]) == T_deque) {
        r[2] = deque_alloc(DEQUE(r[1])->maxlen);
        if (r[2] && dq_extend(&r[2], r[1], false) == 0)
            res = r[2];
    } else {
        int64_t ml = DEQUE(r[1])->maxlen;
        if (ml < 0) {
            res = vm_call1((Obj)TYPE(r[0]), r[0]);
        } else {
            r[2] = int_from_i64(ml);
            if (r[2])
                res = vm_call2((Obj)TYPE(r[0]), r[0], r[2]);
        }
    }
    vm_unroots(r);
    return res;
}

/* ---- methods ---- */

static Obj m_push(Obj *args, size_t nargs, Obj kwnames, const char *name, bool left)
{
    Obj *r = vm_roots(2);
    r[0] = as_deque(args[0], name);
    r[1] = args[1];
    int rc = r[0] ? dq_push(&r[0], &r[1], left) : -1;
    vm_unroots(r);
    return rc < 0 ? NULL : g_None;
}
static Obj deque_append(Obj *args, size_t nargs, Obj kwnames) { return m_push(args, nargs, kwnames, "append", false); }
static Obj deque_appendleft(Obj *args, size_t nargs, Obj kwnames) { return m_push(args, nargs, kwnames, "appendleft", true); }

static Obj m_pop(Obj *args, size_t nargs, Obj kwnames, const char *name, bool left)
{
    Obj d = as_deque(args[0], name);
    return d ? dq_pop(d, left) : NULL;
}
static Obj deque_pop(Obj *args, size_t nargs, Obj kwnames) { return m_pop(args, nargs, kwnames, "pop", false); }
static Obj deque_popleft(Obj *args, size_t nargs, Obj kwnames) { return m_pop(args, nargs, kwnames, "popleft", true); }

static Obj m_extend(Obj *args, size_t nargs, Obj kwnames, const char *name, bool left)
{
    Obj *r = vm_roots(1);
    r[0] = as_deque(args[0], name);
    int rc = r[0] ? dq_extend(&r[0], args[1], left) : -1;
    vm_unroots(r);
    return rc < 0 ? NULL : g_None;
}
static Obj deque_extend(Obj *args, size_t nargs, Obj kwnames) { return m_extend(args, nargs, kwnames, "extend", false); }
static Obj deque_extendleft(Obj *args, size_t nargs, Obj kwnames) { return m_extend(args, nargs, kwnames, "extendleft", true); }

static Obj deque_clear_m(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    r[0] = as_deque(args[0], "clear");
    int rc = r[0] ? dq_clear(&r[0]) : -1;
    vm_unroots(r);
    return rc < 0 ? NULL : g_None;
}

static Obj deque_copy_m(Obj *args, size_t nargs, Obj kwnames)
{
    if (!as_deque(args[0], "copy"))
        return NULL;
    return dq_copy(args[0]);
}

/* Pickling as CPython's: (type, () or ((), maxlen), the instance's
 * __dict__ or None, an iterator of the items, which pickle appends). */
static Obj deque_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = args[0];
    Obj d = as_deque(r[0], "__reduce__");
    if (!d)
        goto out;
    int64_t ml = DEQUE(d)->maxlen;
    Obj dict = vm_getattr_opt(r[0], NAME(__dict__));
    if (!dict && err_occurred())
        goto out;
    r[1] = dict && !(IS_DICT(dict) && DICT(dict)->used == 0) ? dict : g_None;
    if (ml < 0) {
        r[2] = g_empty_tuple;
    } else if (!(r[2] = int_from_i64(ml)) || !(r[2] = tuple_pack(2, g_empty_tuple, r[2]))) {
        goto out;
    }
    if (!(r[3] = vm_iter(r[0])))
        goto out;
    res = tuple_pack(4, (Obj)TYPE(r[0]), r[2], r[1], r[3]);
out:
    vm_unroots(r);
    return res;
}

static Obj deque_rotate(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs > 2) {   /* CPython words this one apart: "deque.rotate expected ..." */
        err_format(E_TypeError, "deque.rotate expected at most 1 argument, got %zu", nargs - 1);
        return NULL;
    }
    int64_t n = 1;
    if (nargs > 1 && vm_index_i64(args[1], &n) < 0)
        return NULL;
    Obj d = as_deque(args[0], "rotate");
    if (!d)
        return NULL;
    int64_t len = DEQUE(d)->len;
    if (len <= 1)
        return g_None;
    n %= len;
    if (n < 0)
        n += len;
    if (n == 0)
        return g_None;
    int64_t cap = dq_cap(d);
    Obj b = DEQUE(d)->buf;
    VM_WRITE(d);
    VM_WRITE(b);
    DequeObj *p = DEQUE(d);
    ArrayObj *a = ARRAY(b);
    if (n <= len - n) {   /* move the last n items to the front */
        for (int64_t k = 0; k < n; k++) {
            int64_t last = (p->head + len - 1) % cap;
            Obj x = a->items[last];
            a->items[last] = NULL;
            p->head = (p->head - 1 + cap) % cap;
            a->items[p->head] = x;
        }
    } else {              /* move the first len - n items to the back */
        for (int64_t k = 0; k < len - n; k++) {
            Obj x = a->items[p->head];
            a->items[p->head] = NULL;
            a->items[(p->head + len) % cap] = x;
            p->head = (p->head + 1) % cap;
        }
    }
    p->state++;
    return g_None;
}

static Obj deque_reverse_m(Obj *args, size_t nargs, Obj kwnames)
{
    Obj d = as_deque(args[0], "reverse");
    if (!d)
        return NULL;
    int64_t n = DEQUE(d)->len;
    for (int64_t i = 0, j = n - 1; i < j; i++, j--) {
        Obj x = dq_get(d, i);
        dq_set(d, i, dq_get(d, j));
        dq_set(d, j, x);
    }
    return g_None;
}

static void mutated(void) { err_set(E_RuntimeError, "deque mutated during iteration"); }

/* First index in [start, stop) whose item == *vs: index, -1 none, -2 error
 * (a mutation by __eq__ is RuntimeError, but IndexError for remove, as CPython). */
static int64_t dq_find_or(Obj *ds, Obj *vs, int64_t start, int64_t stop, TypeObj *mutated_error)
{
    int64_t state = DEQUE(*ds)->state;
    for (int64_t k = start; k < stop && k < DEQUE(*ds)->len; k++) {
        Obj item = dq_get(*ds, k);
        int rc = container_fast_eq(item, *vs);
        if (rc == -2)
            rc = vm_equal(item, *vs);
        if (rc < 0)
            return -2;
        if (DEQUE(*ds)->state != state) {
            err_set(mutated_error, "deque mutated during iteration");
            return -2;
        }
        if (rc)
            return k;
    }
    return -1;
}

static int64_t dq_find(Obj *ds, Obj *vs, int64_t start, int64_t stop)
{
    return dq_find_or(ds, vs, start, stop, E_RuntimeError);
}

static Obj deque_count(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    r[0] = as_deque(args[0], "count");
    r[1] = args[1];
    Obj res = NULL;
    if (r[0]) {
        int64_t c = 0, k = 0;
        for (;;) {
            int64_t i = dq_find(&r[0], &r[1], k, INT64_MAX);
            if (i == -2)
                goto out;
            if (i == -1)
                break;
            c++;
            k = i + 1;
        }
        res = int_from_i64(c);
    }
out:
    vm_unroots(r);
    return res;
}

static Obj deque_index(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = as_deque(args[0], "index");
    r[1] = args[1];
    if (!r[0])
        goto out;
    int64_t n = DEQUE(r[0])->len, start = 0, stop = n;
    if (nargs > 2 && seq_slice_index(args[2], &start, false) < 0)
        goto out;
    if (nargs > 3 && seq_slice_index(args[3], &stop, false) < 0)
        goto out;
    seq_clamp_range(n, &start, &stop);
    int64_t i = dq_find(&r[0], &r[1], start, stop);
    if (i >= 0) {
        res = int_from_i64(i);
    } else if (i == -1) {
        Obj s = vm_repr(r[1]);
        if (s)
            err_format(E_ValueError, "%s is not in deque", str_cstr(s));
    }
out:
    vm_unroots(r);
    return res;
}

static Obj deque_insert(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t i;
    if (vm_index_i64(args[1], &i) < 0)
        return NULL;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = as_deque(args[0], "insert");
    r[1] = args[2];
    if (!r[0])
        goto out;
    int64_t n = DEQUE(r[0])->len;
    if (DEQUE(r[0])->maxlen >= 0 && n >= DEQUE(r[0])->maxlen) {
        err_set(E_IndexError, "deque already at its maximum size");
        goto out;
    }
    if (i < 0) {
        i += n;
        if (i < 0)
            i = 0;
    }
    if (i > n)
        i = n;
    if (n == dq_cap(r[0]) && dq_grow(&r[0]) < 0)
        goto out;
    Obj d = r[0];
    VM_WRITE(d);
    DEQUE(d)->len = n + 1;
    DEQUE(d)->state++;
    for (int64_t k = n; k > i; k--)
        dq_set(d, k, dq_get(d, k - 1));
    dq_set(d, i, r[1]);
    res = g_None;
out:
    vm_unroots(r);
    return res;
}

static Obj deque_remove(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = as_deque(args[0], "remove");
    r[1] = args[1];
    if (r[0]) {
        int64_t i = dq_find_or(&r[0], &r[1], 0, INT64_MAX, E_IndexError);
        if (i >= 0) {
            dq_del_at(r[0], i);
            res = g_None;
        } else if (i == -1) {
            Obj rs = vm_repr(r[1]);
            if (rs)
                err_format(E_ValueError, "%s is not in deque", str_cstr(rs));
        }
    }
    vm_unroots(r);
    return res;
}

static Obj deque_reversed_m(Obj *args, size_t nargs, Obj kwnames);

static Obj deque_maxlen_get(Obj *args, size_t nargs, Obj kwnames)
{
    Obj d = as_deque(args[0], "maxlen");
    if (!d)
        return NULL;
    int64_t ml = DEQUE(d)->maxlen;
    return ml < 0 ? g_None : int_from_i64(ml);
}

/* ---- slots ---- */

static Obj deque_repr(Obj self)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = self;
    r[1] = vm_unwrap(self);
    int rc = repr_enter(&r[1]);
    if (rc < 0)
        goto out;
    if (rc == 1) {
        res = str_from_cstr("[...]");
        goto out;
    }
    r[2] = dq_to_list(&r[1]);
    if (r[2])
        r[2] = vm_repr(r[2]);
    repr_leave();
    if (!r[2])
        goto out;
    StrBuf b;
    sb_init(&b);
    sb_add_str(&b, TYPE(r[0])->name);
    sb_addc(&b, '(');
    sb_add_str(&b, r[2]);
    int64_t ml = DEQUE(r[1])->maxlen;
    if (ml >= 0)
        sb_printf(&b, ", maxlen=%lld", (long long)ml);
    sb_addc(&b, ')');
    res = sb_finish(&b);
out:
    vm_unroots(r);
    return res;
}

static int64_t deque_unhashable(Obj self)
{
    err_format(E_TypeError, "unhashable type: '%s'", type_name(self));
    return -1;
}

/* Item by item, as two iterators would walk them: an __eq__ that mutates
 * either deque makes the next step raise "deque mutated during iteration". */
static Obj deque_richcompare(Obj a, Obj b, int op)
{
    a = vm_unwrap(a);
    b = vm_unwrap(b);
    if (!IS_DEQUE(a) || !IS_DEQUE(b))
        return g_NotImplemented;
    int64_t na = DEQUE(a)->len, nb = DEQUE(b)->len;
    if ((op == CMP_EQ || op == CMP_NE) && na != nb)
        return vm_bool(op == CMP_NE);
    Obj *r = vm_roots(4);
    r[0] = a;
    r[1] = b;
    Obj res = NULL;
    int64_t sa = DEQUE(a)->state, sb = DEQUE(b)->state, k = 0;
    for (;; k++) {
        if (DEQUE(r[0])->state != sa || DEQUE(r[1])->state != sb) {
            mutated();
            goto out;
        }
        if (k == na || k == nb)
            break;
        r[2] = dq_get(r[0], k);
        r[3] = dq_get(r[1], k);
        int eq = container_fast_eq(r[2], r[3]);
        if (eq == -2)
            eq = vm_equal(r[2], r[3]);
        if (eq < 0)
            goto out;
        if (!eq) {
            res = vm_richcompare(r[2], r[3], op);
            goto out;
        }
    }
    /* one ran out (or both): compare the lengths walked */
    int64_t la = k == na ? k : k + 1, lb = k == nb ? k : k + 1;
    switch (op) {
    case CMP_LT: res = vm_bool(la < lb); break;
    case CMP_LE: res = vm_bool(la <= lb); break;
    case CMP_EQ: res = vm_bool(la == lb); break;
    case CMP_NE: res = vm_bool(la != lb); break;
    case CMP_GT: res = vm_bool(la > lb); break;
    default: res = vm_bool(la >= lb); break;
    }
out:
    vm_unroots(r);
    return res;
}

static int64_t deque_len(Obj self) { return DEQUE(vm_unwrap(self))->len; }
static int deque_bool(Obj self) { return DEQUE(vm_unwrap(self))->len != 0; }

/* The index of d[key]: 0..len-1, or -1 with an error. */
static int64_t dq_index_of(Obj d, Obj key)
{
    int64_t i;
    int rc = seq_index_arg(key, &i);
    if (rc == 0) {
        err_format(E_TypeError, "sequence index must be integer, not '%s'", type_name(key));
        return -1;
    }
    if (rc < 0)
        return -1;
    int64_t n = DEQUE(d)->len;
    if (i < 0)
        i += n;
    if (i < 0 || i >= n) {
        err_set(E_IndexError, "deque index out of range");
        return -1;
    }
    return i;
}

static Obj deque_getitem(Obj self, Obj key)
{
    Obj d = vm_unwrap(self);
    int64_t i = dq_index_of(d, key);
    return i < 0 ? NULL : dq_get(d, i);
}

static int deque_setitem(Obj self, Obj key, Obj v)
{
    Obj *r = vm_roots(2);
    r[0] = vm_unwrap(self);
    r[1] = v;
    int64_t i = dq_index_of(r[0], key);
    int rc = -1;
    if (i >= 0) {
        if (r[1])
            dq_set(r[0], i, r[1]);
        else
            dq_del_at(r[0], i);
        rc = 0;
    }
    vm_unroots(r);
    return rc;
}

static int deque_contains(Obj self, Obj v)
{
    Obj *r = vm_roots(2);
    r[0] = vm_unwrap(self);
    r[1] = v;
    int64_t i = dq_find(&r[0], &r[1], 0, INT64_MAX);
    vm_unroots(r);
    return i == -2 ? -1 : i >= 0;
}

static Obj dq_iter_new(Obj self, bool rev)
{
    Obj d = vm_unwrap(self);
    Obj it = iter_alloc(rev ? T_deque_reverse_iterator : T_deque_iterator, d, 0);
    if (!it)
        return NULL;
    d = ITER(it)->a;
    ITER(it)->n = DEQUE(d)->state;
    ITER(it)->i = rev ? DEQUE(d)->len - 1 : 0;
    return it;
}
static Obj deque_iter(Obj self) { return dq_iter_new(self, false); }
static Obj deque_reversed_m(Obj *args, size_t nargs, Obj kwnames)
{
    if (!as_deque(args[0], "__reversed__"))
        return NULL;
    return dq_iter_new(args[0], true);
}

static Obj dq_iter_next(Obj it, bool rev)
{
    Obj d = ITER(it)->a;
    if (!d)
        return NULL;
    if (DEQUE(d)->state != ITER(it)->n) {
        mutated();
        return NULL;
    }
    int64_t i = ITER(it)->i;
    if (i < 0 || i >= DEQUE(d)->len) {
        VM_WRITE(it);
        ITER(it)->a = NULL;
        return NULL;
    }
    VM_WRITE(it);
    ITER(it)->i = rev ? i - 1 : i + 1;
    return dq_get(d, i);
}
static Obj deque_iter_next(Obj it) { return dq_iter_next(it, false); }
static Obj deque_reviter_next(Obj it) { return dq_iter_next(it, true); }

static Obj deque_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    return container_wrap_for_type(T_deque, type, deque_alloc(-1));
}

static int deque_tp_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"iterable", "maxlen", NULL};
    Obj *r = vm_roots(3);
    int rc = -1;
    r[2] = vm_unwrap(self);
    if (vm_parse_args("deque", args, nargs, kwnames, names, 0, 2, r) < 0)
        goto out;
    int64_t ml = -1;
    if (r[1] && !IS_NONE(r[1])) {
        if (!IS_INT(r[1])) {
            err_set(E_TypeError, "an integer is required");
            goto out;
        }
        if (int_as_i64(r[1], &ml) < 0)
            goto out;
        if (ml < 0) {
            err_set(E_ValueError, "maxlen must be non-negative");
            goto out;
        }
    }
    VM_WRITE(r[2]);
    DEQUE(r[2])->maxlen = ml;
    if (DEQUE(r[2])->len && dq_clear(&r[2]) < 0)
        goto out;
    if (r[0] && !IS_NONE(r[0]) && dq_extend(&r[2], r[0], false) < 0)
        goto out;
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* In place: the items repeated n times (maxlen keeps the last ones). */
static int dq_irepeat(Obj *ds, int64_t n)
{
    if (n <= 0)
        return dq_clear(ds);
    int64_t len = DEQUE(*ds)->len;
    if (n == 1 || len == 0)
        return 0;
    int64_t rounds = n - 1, ml = DEQUE(*ds)->maxlen;
    if (ml >= 0) {
        if (rounds > ml / len + 1)
            rounds = ml / len + 1;
    } else if (n > INT64_MAX / 8 / len || (uint64_t)(len * n * 8) > vm_max_object_size()) {
        err_nomemory();
        return -1;
    }
    Obj *r = vm_roots(2);
    r[0] = dq_to_list(ds);
    int rc = r[0] ? 0 : -1;
    for (int64_t k = 0; rc == 0 && k < rounds; k++)
        for (int64_t j = 0; rc == 0 && j < len; j++) {
            r[1] = LIST_ITEMS(r[0])[j];
            rc = dq_push(ds, &r[1], false);
        }
    vm_unroots(r);
    return rc;
}

static Obj deque_add(Obj a, Obj b)
{
    if (!IS_DEQUE(vm_unwrap(a)))
        return g_NotImplemented;
    if (!IS_DEQUE(vm_unwrap(b))) {
        err_format(E_TypeError, "can only concatenate deque (not \"%s\") to deque", type_name(b));
        return NULL;
    }
    Obj *r = vm_roots(3);
    r[0] = a;
    r[1] = b;
    Obj res = NULL;
    r[2] = dq_copy(a);
    if (r[2]) {
        Obj *s = vm_roots(1);
        s[0] = vm_unwrap(r[2]);
        if (IS_DEQUE(s[0]) && dq_extend(&s[0], r[1], false) == 0)
            res = r[2];
        else if (!IS_DEQUE(s[0]))
            res = r[2];
    }
    vm_unroots(r);
    return res;
}

static Obj deque_iadd(Obj a, Obj b)
{
    Obj *r = vm_roots(2);
    r[0] = a;
    r[1] = vm_unwrap(a);
    Obj res = NULL;
    if (!IS_DEQUE(r[1]))
        res = g_NotImplemented;
    else if (dq_extend(&r[1], b, false) == 0)
        res = r[0];
    vm_unroots(r);
    return res;
}

static Obj deque_mul(Obj a, Obj b)
{
    bool seq_is_a = IS_DEQUE(vm_unwrap(a));
    Obj *r = vm_roots(3);
    r[0] = seq_is_a ? a : b;
    Obj res = NULL;
    if (!IS_DEQUE(vm_unwrap(r[0]))) {
        res = g_NotImplemented;
        goto out;
    }
    int64_t n;
    int rc = seq_repeat_count(a, b, seq_is_a, &n);
    if (rc <= 0) {
        res = rc == 0 ? g_NotImplemented : NULL;
        goto out;
    }
    r[1] = dq_copy(r[0]);
    if (!r[1])
        goto out;
    r[2] = vm_unwrap(r[1]);
    if (!IS_DEQUE(r[2]) || dq_irepeat(&r[2], n) == 0)
        res = r[1];
out:
    vm_unroots(r);
    return res;
}

static Obj deque_imul(Obj a, Obj b)
{
    Obj *r = vm_roots(2);
    r[0] = a;
    r[1] = vm_unwrap(a);
    Obj res = NULL;
    if (!IS_DEQUE(r[1])) {
        res = g_NotImplemented;
        goto out;
    }
    int64_t n;
    int rc = seq_repeat_count(a, b, true, &n);
    if (rc <= 0) {
        res = rc == 0 ? g_NotImplemented : NULL;
        goto out;
    }
    if (dq_irepeat(&r[1], n) == 0)
        res = r[0];
out:
    vm_unroots(r);
    return res;
}

static const MethodDef deque_methods[] = {
    {"append", deque_append, METH_O, "Add an element to the right side of the deque."},
    {"appendleft", deque_appendleft, METH_O, "Add an element to the left side of the deque."},
    {"pop", deque_pop, METH_NOARGS, "Remove and return the rightmost element."},
    {"popleft", deque_popleft, METH_NOARGS, "Remove and return the leftmost element."},
    {"extend", deque_extend, METH_O, "Extend the right side of the deque with elements from the iterable"},
    {"extendleft", deque_extendleft, METH_O, "Extend the left side of the deque with elements from the iterable"},
    {"rotate", deque_rotate, 0, "Rotate the deque n steps to the right (default n=1).  If n is negative, rotates left."},
    {"clear", deque_clear_m, METH_NOARGS, "Remove all elements from the deque."},
    {"copy", deque_copy_m, METH_NOARGS, "Return a shallow copy of a deque."},
    {"__copy__", deque_copy_m, METH_NOARGS, "Return a shallow copy of a deque."},
    {"__reduce__", deque_reduce, METH_NOARGS, "Return state information for pickling."},
    {"count", deque_count, METH_O, "D.count(value) -> integer -- return number of occurrences of value"},
    {"index", deque_index, METH_ARGS(1, 3) | METH_OLDMSG, "D.index(value, [start, [stop]]) -> integer -- return first index of value."},
    {"insert", deque_insert, METH_ARGS(2, 2) | METH_OLDMSG, "D.insert(index, object) -- insert object before index"},
    {"remove", deque_remove, METH_O, "D.remove(value) -- remove first occurrence of value."},
    {"reverse", deque_reverse_m, METH_NOARGS, "D.reverse() -- reverse *IN PLACE*"},
    {"__reversed__", deque_reversed_m, METH_NOARGS, "D.__reversed__() -- return a reverse iterator over the deque"},
    {NULL, NULL, 0, NULL},
};

void deque_init_type(void)
{
    T_deque = (TypeObj *)type_new_builtin("collections.deque", T_object, TID_DEQUE, TPF_BASETYPE | TPF_SEQUENCE);
    TypeObj *t = T_deque;
    t->tp_repr = deque_repr;
    t->tp_hash = deque_unhashable;
    t->tp_richcompare = deque_richcompare;
    t->tp_len = deque_len;
    t->tp_getitem = deque_getitem;
    t->tp_setitem = deque_setitem;
    t->tp_contains = deque_contains;
    t->tp_iter = deque_iter;
    t->tp_bool = deque_bool;
    t->tp_new = deque_tp_new;
    t->tp_init = deque_tp_init;
    t->nb[NB_ADD] = deque_add;
    t->nb[NB_MUL] = deque_mul;
    t->nb_inplace[NB_ADD] = deque_iadd;
    t->nb_inplace[NB_MUL] = deque_imul;
    type_add_methods(t, deque_methods);
    type_add_getset(t, "maxlen", deque_maxlen_get, NULL);
    type_ready(t);
    type_set_attr_cstr(t, "__hash__", g_None);

    T_deque_iterator = iter_make_type("_collections._deque_iterator", deque_iter_next, false);
    T_deque_reverse_iterator = iter_make_type("_collections._deque_reverse_iterator", deque_reviter_next, false);
}
