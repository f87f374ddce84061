/* containers area: tuple, list, range, slice and the iterators and views
 * of the containers (tuple.c, list.c, listsort.c, range.c, containeriter.c).
 * dict and set/frozenset: dictset.h. */
#ifndef TMPY_CONTAINERS_H
#define TMPY_CONTAINERS_H

#include "tmpy.h"
#include "abstract.h"
#include "strobj.h"

/* ---- The core tuple / list / range / slice API ---- */
Obj tuple_new(int64_t n);                 /* items NULL: fill with TUPLE_ITEMS(t)[i] = v before use */
Obj tuple_pack(int n, ...);               /* tuple of n Obj values (copied to root slots before allocating) */
Obj tuple_from_array(Obj *items, int64_t n);   /* items in root slots */
Obj list_new(int64_t n);                  /* length n, items None */
Obj list_new_capacity(int64_t cap);       /* length 0 */
int list_append(Obj list, Obj v);
int list_insert(Obj list, int64_t i, Obj v);   /* list.insert(i, v): i clamped as there */
extern uint64_t vm_set_ops_blind;          /* set adds and discards committed blind (setlog.c) */
#if TM_STM
/* Appends to a shared list that commit at the tail (listappends.c). */
int list_append_shared(Obj list, Obj v);   /* l.append(v) */
void list_flush_pending(void);             /* the log into plain appends (may allocate) */
void list_appends_before_commit(void);
bool list_appends_merge_check(void);   /* commit, world stopped: may fail, writes nothing */
void list_appends_merge_apply(void);   /* then: cannot fail */
void list_appends_init(void);
/* Blind adds and discards of a big shared set (setlog.c). */
void set_flush_pending(void);              /* the log into plain stores (never allocates) */
void set_log_thread_end(void);             /* the same, and the log's C memory freed */
void set_log_before_commit(void);
bool set_log_merge_check(void);
void set_log_merge_apply(void);
void set_log_init(void);
#endif
Obj list_from_array(Obj *items, int64_t n);    /* items in root slots */
int list_sort(Obj list, Obj key, bool reverse);
Obj array_new(int64_t n);                 /* ArrayObj */
Obj raw_new(int64_t n);                   /* RawObj, zeroed */
Obj slice_new(Obj start, Obj stop, Obj step);
/* Resolve a slice against a length: CPython's PySlice_GetIndicesEx. Returns slice length or -1.
 * Only for sequences whose length cannot change: the slice's __index__ methods
 * run user code, so a mutable one (list, bytearray) calls slice_unpack, then
 * reads its length, then slice_adjust (PySlice_Unpack + PySlice_AdjustIndices). */
int64_t slice_indices(Obj slice, int64_t length, int64_t *start, int64_t *stop, int64_t *step);
int slice_unpack(Obj slice, int64_t *start, int64_t *stop, int64_t *step);   /* 0 or -1 */
int64_t slice_adjust(int64_t length, int64_t *start, int64_t *stop, int64_t step);   /* the slice length */
Obj seqiter_new(Obj seq);                 /* iterator over __getitem__ 0, 1, ... */

#define RANGE(v) ((RangeObj *)(v))
#define SLICE(v) ((SliceObj *)(v))

/* ------------------------------------------------------------------ */
/* Iterators (containeriter.c): IterObj with cls set; `kind` says which. */
/* ------------------------------------------------------------------ */
enum {
    ITK_LIST = 1,        /* a = list, i = next index */
    ITK_LIST_REV,        /* a = list, i = next index (counting down) */
    ITK_TUPLE,           /* a = tuple, i = next index */
    ITK_SEQ,             /* a = sequence (NULL when exhausted), i = next index */
    ITK_RANGE,           /* i = next value, n = items left, a = step (small int) */
    ITK_LONGRANGE,       /* a = next value, b = step, c = items left (ints) */
    ITK_DICT_KEYS,       /* a = dict, i = entry position, n = dict size when made, c = items left (small int) */
    ITK_DICT_VALUES,
    ITK_DICT_ITEMS,
    ITK_DICT_REV_KEYS,   /* same fields, i counts down */
    ITK_DICT_REV_VALUES,
    ITK_DICT_REV_ITEMS,
    ITK_SET,             /* a = set, i = table position, n = set size when made, c = items left (small int) */
    ITK_VIEW_KEYS,       /* dict views: a = dict */
    ITK_VIEW_VALUES,
    ITK_VIEW_ITEMS,
};

/* Extra iterator types (not in tmpy.h). */
extern TypeObj *T_longrange_iterator, *T_dict_reversekeyiterator, *T_dict_reversevalueiterator,
    *T_dict_reverseitemiterator;

/* A new IterObj of type cls with a = `a` (may move `a`'s referents: `a` is
 * rooted inside). NULL + MemoryError. */
Obj iter_alloc(TypeObj *cls, Obj a, int64_t kind);
/* A built-in iterator type (TID_ITER) whose __iter__ returns self; with
 * __length_hint__ if asked (list, tuple, range, dict and set kinds). */
TypeObj *iter_make_type(const char *name, unaryfunc next, bool length_hint);
void seqiter_add_pickling(TypeObj *t);     /* __reduce__/__setstate__ of the list, tuple and sequence iterators */
void copyiter_add_pickling(TypeObj *t);    /* __reduce__ of the dict and set iterators */
Obj iter_self(Obj it);                     /* tp_iter of every iterator */

/* tp_iternext of the container iterators (NULL without error: exhausted). */
Obj list_iter_next(Obj it);
Obj list_reviter_next(Obj it);
Obj tuple_iter_next(Obj it);
Obj seq_iter_next(Obj it);
Obj range_iter_next(Obj it);

/* FOR_ITER fast paths (the eval loop tests TYPE(it) == T_list_iterator etc.). */
/* Each object is marked read once (the cast macros would mark at every
 * field access, and every marker store makes the compiler reload fields). */
static inline Obj list_iter_next_inline(Obj it)
{
    IterObj *p = ITER(it);
    Obj l = p->a;
    if (l) {
        ListObj *lo = LIST(l);
        int64_t i = p->i;
        if (i < lo->length) {
            ArrayObj *arr = ARRAY(lo->array);
            VM_WRITE(it);
            p->i = i + 1;
            return arr->items[i];
        }
        VM_WRITE(it);
        p->a = NULL;   /* exhausted stays exhausted */
    }
    return NULL;
}
/* Range iterator over small ints (ITK_RANGE). */
static inline Obj range_iter_next_inline(Obj it)
{
    IterObj *p = ITER(it);
    if (p->kind == ITK_RANGE) {
        int64_t n = p->n;
        if (n <= 0)
            return NULL;
        int64_t v = p->i;
        Obj step = p->a;
        VM_WRITE(it);
        p->n = n - 1;
        p->i = v + SMALLINT_VAL(step);
        return MAKE_SMALLINT(v);
    }
    return range_iter_next(it);
}

/* repr of recursive containers: CPython's Py_ReprEnter. `slot` is a root
 * slot holding the container (so it follows moves). Returns 1 if the object
 * is already being repr'd on this thread ("[...]"), 0 if entered, -1 on
 * error (RecursionError). Every 0 return is paired with repr_leave(). */
int repr_enter(Obj *slot);
int repr_depth_get(void);
void repr_depth_set(int depth);
void repr_leave(void);

/* Cheap equality for container lookups: 1 equal, 0 not equal, -2 unknown
 * (call vm_equal). Never runs Python code. */
static inline int container_fast_eq(Obj a, Obj b)
{
    if (a == b)
        return 1;
    if (IS_SMALLINT(a)) {
        if (IS_SMALLINT(b) || b->h.tid == TID_STR || b->h.tid == TID_BIGINT)
            return 0;
        return -2;
    }
    unsigned ta = a->h.tid;
    if (ta == TID_STR) {
        if (IS_SMALLINT(b))
            return 0;
        if (b->h.tid == TID_STR) {
            if (STR(a)->nbytes != STR(b)->nbytes)
                return 0;
            return str_eq(a, b);
        }
    }
    return -2;
}

/* Hash of a small int, as CPython (and int_hash) compute it. */
static inline int64_t smallint_hash(Obj v)
{
    int64_t n = SMALLINT_VAL(v);
    const int64_t P = (int64_t)((1ULL << 61) - 1);
    /* |n| < P except at the two ends of the small range: no division */
    if (unlikely(n <= -P || n >= P))
        n = n >= P ? n - P : (n == -P ? 0 : -1);   /* 2**61-1 -> 0; -(2**61-1) -> 0; -2**61 -> -1 */
    return n == -1 ? -2 : n;
}
/* vm_hash with inline fast paths for small ints and exact strs. */
static inline int64_t container_hash(Obj v)
{
    if (IS_SMALLINT(v))
        return smallint_hash(v);
    if (v->h.tid == TID_STR) {
        int64_t h = STR(v)->hash;
        return h != -1 ? h : str_hash(v);
    }
    return vm_hash(v);
}

/* Index argument of a sequence subscript: 1 with *out set, 0 if `key` is not
 * an integer (no error set), -1 on error (IndexError "cannot fit 'int' into
 * an index-sized integer" for huge ints). */
int seq_index_arg(Obj key, int64_t *out);
/* A start/stop argument (list.index, slice bounds): ints clamped to the
 * int64 range, __index__ honoured; None (when allow_none) leaves *out as is.
 * TypeError "slice indices must be integers or [None or ]have an __index__
 * method" otherwise. 0 / -1. */
int seq_slice_index(Obj v, int64_t *out, bool allow_none);

/* `seq * n` / `n * seq` helpers: the other operand's type is a user class
 * with the reflected method (return NotImplemented and let vm_binop try);
 * the repeat count: 1 ok, 0 NotImplemented, -1 error ("can't multiply
 * sequence by non-int of type 'float'"). */
bool seq_reflected_may_handle(Obj other, const char *rdunder);
int seq_repeat_count(Obj a, Obj b, bool seq_is_a, int64_t *n);

/* list and tuple share one implementation of their item algorithms
 * (containeriter.c). `s` is an exact list or tuple; the slot arguments are
 * root slots, re-read after every comparison (user __eq__ may mutate a
 * list or move anything). */
static inline int64_t seq_len(Obj s)
{
    return IS_LIST(s) ? LIST_LEN(s) : TUPLE_LEN(s);
}
static inline Obj __seg_gs *seq_items(Obj s)
{
    return IS_LIST(s) ? LIST_ITEMS(s) : TUPLE_ITEMS(s);
}
/* First index i in [start, stop) with *sslot[i] == *vslot: i, -1 if none, -2 on error. */
int64_t seq_find(Obj *sslot, Obj *vslot, int64_t start, int64_t stop);
/* '[a, b]' / '(a, b)' / '(a,)' (also tp_repr of both); recursion shows as '[...]'. */
Obj seq_repr(Obj s);
/* The slots list and tuple share: tp_richcompare, tp_contains, tp_len, tp_bool. */
Obj seq_compare(Obj a, Obj b, int op);
int seq_contains_slot(Obj self, Obj v);
int64_t seq_len_slot(Obj self);
int seq_bool_slot(Obj self);
/* Clamp list.index / tuple.index start and stop (CPython's slice rules). */
void seq_clamp_range(int64_t n, int64_t *start, int64_t *stop);
/* list.index / tuple.index (METH_ARGS(1, 3)) and list.count / tuple.count (METH_O). */
Obj seq_index_method(Obj *args, size_t nargs, Obj kwnames);
Obj seq_count_method(Obj *args, size_t nargs, Obj kwnames);

/* Make the result of tp_new for `type`: the built-in value itself when type
 * is the built-in type, else an instance of the user subclass wrapping it
 * (InstanceObj.base_value). */
Obj container_wrap_for_type(TypeObj *builtin, Obj type, Obj value);

/* ------------------------------------------------------------------ */
/* tuple.c                                                             */
/* ------------------------------------------------------------------ */
Obj tuple_iter_new(Obj t);

/* ------------------------------------------------------------------ */
/* list.c / listsort.c                                                 */
/* ------------------------------------------------------------------ */
int list_extend(Obj list, Obj iterable);             /* list.extend: 0 / -1 */
Obj list_pop(Obj list, int64_t i);                   /* IndexError "pop index out of range" */
Obj list_as_tuple(Obj list);                         /* LIST_TO_TUPLE */
Obj list_copy(Obj list);
void list_clear(Obj list);
int list_setitem(Obj list, Obj key, Obj v);          /* the tp_setitem slot (v NULL: del) */
Obj list_iter_new(Obj list);
/* list(iterable) as a new exact list (vm_list_from_iter may use it). */
Obj list_from_iterable(Obj iterable);

#endif
