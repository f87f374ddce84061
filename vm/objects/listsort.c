/* list.sort: a stable natural merge sort. Ascending runs (and strictly
 * descending ones, reversed in place) are found, short runs are extended
 * to MINRUN items by binary insertion, then runs are merged pairwise.
 * Only `<` is used (vm_richcompare_bool(a, b, CMP_LT)); when every key is
 * a small int, an int, a float or a str, comparisons are done in C; when
 * all keys share one type, its tp_richcompare is called directly; tuples
 * whose first items are all small ints (or all strs) compare those first
 * (CPython's unsafe_tuple_compare idea).
 *
 * As in CPython the list is detached (empty) while it is sorted, so the
 * key function or a comparison that mutates it is detected ("list modified
 * during sort"), and a failing comparison leaves the list holding all its
 * items (in some order): every merge finishes copying before it returns. */
#include "objects.h"
#include "containers.h"

#include <stdlib.h>
#include <string.h>

#define MINRUN 32

enum { K_GENERIC, K_SMALLINT, K_INT, K_FLOAT, K_STR, K_SAMETYPE, K_TUPLE_SMALLINT, K_TUPLE_STR };

/* Root slots of one sort. Arrays are always re-read from them: any generic
 * comparison may run Python code and move everything. */
enum { R_LIST, R_VALS, R_KEYS, R_BVALS, R_BKEYS, R_KEYFN, R_MARK, R_COUNT };

typedef struct Sorter {
    Obj *r;
    bool haskeys;      /* keys and values are different arrays */
    TypeObj *type;     /* K_SAMETYPE: the keys' type (types never move) */
} Sorter;

#define KEYS(s) (ARRAY((s)->r[R_KEYS])->items)
#define VALS(s) (ARRAY((s)->r[R_VALS])->items)
#define BKEYS(s) (ARRAY((s)->r[R_BKEYS])->items)
#define BVALS(s) (ARRAY((s)->r[R_BVALS])->items)

static inline int str_lt(Obj a, Obj b)
{
    int64_t na = STR(a)->nbytes, nb = STR(b)->nbytes;
    int c = memcmp(VM_LINEAR(STR(a)->data), VM_LINEAR(STR(b)->data), (size_t)(na < nb ? na : nb));
    return c < 0 || (c == 0 && na < nb);
}

/* a and b are rooted: a user __lt__ may allocate and then return
 * NotImplemented, and the reflected try needs them again. */
static int sametype_lt(TypeObj *t, Obj a, Obj b)
{
    Obj *r = vm_roots(2);
    r[0] = a;
    r[1] = b;
    Obj res = t->tp_richcompare(a, b, CMP_LT);
    int rc;
    if (res == g_True)
        rc = 1;
    else if (res == g_False)
        rc = 0;
    else if (!res)
        rc = -1;
    else if (res == g_NotImplemented)
        rc = vm_richcompare_bool(r[0], r[1], CMP_LT);
    else
        rc = vm_is_true(res);
    vm_unroots(r);
    return rc;
}

/* a < b: 1, 0, or -1 on error. `kind` is a constant in every instance. */
static inline __attribute__((always_inline)) int lt(Sorter *s, int kind, Obj a, Obj b)
{
    switch (kind) {
    case K_TUPLE_SMALLINT: {
        Obj x = TUPLE_ITEMS(a)[0], y = TUPLE_ITEMS(b)[0];
        if (x != y)
            return (intptr_t)x < (intptr_t)y;
        return vm_richcompare_bool(a, b, CMP_LT);
    }
    case K_TUPLE_STR: {
        Obj x = TUPLE_ITEMS(a)[0], y = TUPLE_ITEMS(b)[0];
        if (x != y && !(STR(x)->nbytes == STR(y)->nbytes && str_eq(x, y)))
            return str_lt(x, y);
        return vm_richcompare_bool(a, b, CMP_LT);
    }
    case K_SAMETYPE:
        return sametype_lt(s->type, a, b);
    case K_SMALLINT:
        return (intptr_t)a < (intptr_t)b;   /* tagging preserves order */
    case K_INT:
        return int_compare(a, b) < 0;
    case K_FLOAT:
        return FLOAT_VAL(a) < FLOAT_VAL(b);
    case K_STR:
        return str_lt(a, b);
    default:
        return vm_richcompare_bool(a, b, CMP_LT);
    }
}

/* Write barriers before every store: a generic comparison may have run a
 * collection since the last one (cheap flag tests in the GIL build). */
static inline void write_arrays(Sorter *s)
{
    VM_WRITE(s->r[R_KEYS]);
    if (s->haskeys)
        VM_WRITE(s->r[R_VALS]);
}

static inline void put(Sorter *s, int64_t dst, Obj k, Obj v)
{
    write_arrays(s);
    KEYS(s)[dst] = k;
    if (s->haskeys)
        VALS(s)[dst] = v;
}

static void reverse_range(Sorter *s, int64_t lo, int64_t hi)
{
    write_arrays(s);
    for (hi--; lo < hi; lo++, hi--) {
        Obj k = KEYS(s)[lo];
        KEYS(s)[lo] = KEYS(s)[hi];
        KEYS(s)[hi] = k;
        if (s->haskeys) {
            Obj v = VALS(s)[lo];
            VALS(s)[lo] = VALS(s)[hi];
            VALS(s)[hi] = v;
        }
    }
}

/* [lo, start) is sorted; insert the items [start, hi) one by one. */
static inline __attribute__((always_inline)) int binary_insertion(Sorter *s, int kind, int64_t lo,
                                                                 int64_t start, int64_t hi)
{
    for (int64_t i = start; i < hi; i++) {
        int64_t l = lo, h = i;
        while (l < h) {
            int64_t m = l + ((h - l) >> 1);
            int c = lt(s, kind, KEYS(s)[i], KEYS(s)[m]);
            if (c < 0)
                return -1;
            if (c)
                h = m;
            else
                l = m + 1;
        }
        if (l < i) {
            Obj k = KEYS(s)[i], v = s->haskeys ? VALS(s)[i] : NULL;
            write_arrays(s);
            memmove(VM_LINEAR(KEYS(s) + l + 1), VM_LINEAR(KEYS(s) + l), (size_t)(i - l) * sizeof(Obj));
            if (s->haskeys)
                memmove(VM_LINEAR(VALS(s) + l + 1), VM_LINEAR(VALS(s) + l), (size_t)(i - l) * sizeof(Obj));
            put(s, l, k, v);
        }
    }
    return 0;
}

/* Length of the run starting at lo (reversed in place if descending). */
static inline __attribute__((always_inline)) int64_t count_run(Sorter *s, int kind, int64_t lo, int64_t hi)
{
    if (hi - lo < 2)
        return hi - lo;
    int64_t i = lo + 1;
    int c = lt(s, kind, KEYS(s)[i], KEYS(s)[lo]);
    if (c < 0)
        return -1;
    if (c) {
        for (i++; i < hi; i++) {
            c = lt(s, kind, KEYS(s)[i], KEYS(s)[i - 1]);
            if (c < 0)
                return -1;
            if (!c)
                break;
        }
        reverse_range(s, lo, i);
    } else {
        for (i++; i < hi; i++) {
            c = lt(s, kind, KEYS(s)[i], KEYS(s)[i - 1]);
            if (c < 0)
                return -1;
            if (c)
                break;
        }
    }
    return i - lo;
}

/* Merge the sorted [lo, mid) and [mid, hi). The left part goes to the
 * buffer; on an error the rest of the buffer is copied back so that no
 * item is lost. */
static inline __attribute__((always_inline)) int merge(Sorter *s, int kind, int64_t lo, int64_t mid, int64_t hi)
{
    int c = lt(s, kind, KEYS(s)[mid], KEYS(s)[mid - 1]);
    if (c <= 0)
        return c;   /* already in order (or error) */
    int64_t nl = mid - lo;
    VM_WRITE(s->r[R_BKEYS]);
    if (s->haskeys)
        VM_WRITE(s->r[R_BVALS]);
    memcpy(VM_LINEAR(BKEYS(s)), VM_LINEAR(KEYS(s) + lo), (size_t)nl * sizeof(Obj));
    if (s->haskeys)
        memcpy(VM_LINEAR(BVALS(s)), VM_LINEAR(VALS(s) + lo), (size_t)nl * sizeof(Obj));
    int64_t i = 0, j = mid, k = lo;
    int rc = 0;
    while (i < nl && j < hi) {
        c = lt(s, kind, KEYS(s)[j], BKEYS(s)[i]);
        if (c < 0) {
            rc = -1;
            break;
        }
        if (c) {
            put(s, k++, KEYS(s)[j], s->haskeys ? VALS(s)[j] : NULL);
            j++;
        } else {
            put(s, k++, BKEYS(s)[i], s->haskeys ? BVALS(s)[i] : NULL);
            i++;
        }
    }
    /* what is left of the right part is already in place */
    if (i < nl) {
        write_arrays(s);
        memcpy(VM_LINEAR(KEYS(s) + k), VM_LINEAR(BKEYS(s) + i), (size_t)(nl - i) * sizeof(Obj));
        if (s->haskeys)
            memcpy(VM_LINEAR(VALS(s) + k), VM_LINEAR(BVALS(s) + i), (size_t)(nl - i) * sizeof(Obj));
    }
    return rc;
}

/* Sort KEYS (and VALS) [0, n). runs: scratch for n/1 run boundaries. */
static inline __attribute__((always_inline)) int do_sort(Sorter *s, int kind, int64_t n, int64_t *runs)
{
    int64_t nruns = 0;
    for (int64_t lo = 0; lo < n;) {
        int64_t len = count_run(s, kind, lo, n);
        if (len < 0)
            return -1;
        if (len < MINRUN && lo + len < n) {
            int64_t force = n - lo < MINRUN ? n - lo : MINRUN;
            if (binary_insertion(s, kind, lo, lo + len, lo + force) < 0)
                return -1;
            len = force;
        }
        runs[nruns++] = lo;
        lo += len;
    }
    runs[nruns] = n;
    /* runs[i] .. runs[i+1] is run i; merge neighbours until one is left */
    while (nruns > 1) {
        int64_t w = 0;
        for (int64_t i = 0; i < nruns; i += 2) {
            if (i + 1 < nruns && merge(s, kind, runs[i], runs[i + 1], runs[i + 2]) < 0)
                return -1;
            runs[w++] = runs[i];
        }
        runs[w] = n;
        nruns = w;
    }
    return 0;
}

static __attribute__((noinline)) int sort_generic(Sorter *s, int64_t n, int64_t *runs)
{
    return do_sort(s, K_GENERIC, n, runs);
}
static __attribute__((noinline)) int sort_smallint(Sorter *s, int64_t n, int64_t *runs)
{
    return do_sort(s, K_SMALLINT, n, runs);
}
static __attribute__((noinline)) int sort_int(Sorter *s, int64_t n, int64_t *runs)
{
    return do_sort(s, K_INT, n, runs);
}
static __attribute__((noinline)) int sort_float(Sorter *s, int64_t n, int64_t *runs)
{
    return do_sort(s, K_FLOAT, n, runs);
}
static __attribute__((noinline)) int sort_str(Sorter *s, int64_t n, int64_t *runs)
{
    return do_sort(s, K_STR, n, runs);
}
static __attribute__((noinline)) int sort_sametype(Sorter *s, int64_t n, int64_t *runs)
{
    return do_sort(s, K_SAMETYPE, n, runs);
}
static __attribute__((noinline)) int sort_tuple_smallint(Sorter *s, int64_t n, int64_t *runs)
{
    return do_sort(s, K_TUPLE_SMALLINT, n, runs);
}
static __attribute__((noinline)) int sort_tuple_str(Sorter *s, int64_t n, int64_t *runs)
{
    return do_sort(s, K_TUPLE_STR, n, runs);
}

static int key_kind(Obj __seg_gs *keys, int64_t n, TypeObj **typep)
{
    bool smallint = true, anyint = true, flt = true, str = true;
    bool tsmall = true, tstr = true;
    TypeObj *t0 = TYPE(keys[0]);
    bool same = t0->tp_richcompare != NULL;
    for (int64_t i = 0; i < n; i++) {
        Obj k = keys[i];
        if (IS_SMALLINT(k)) {
            flt = str = tsmall = tstr = false;
            same = same && t0 == T_int;
            continue;
        }
        smallint = false;
        unsigned tid = k->h.tid;
        if (tid != TID_BIGINT)
            anyint = false;
        if (tid != TID_FLOAT)
            flt = false;
        if (tid != TID_STR)
            str = false;
        if (tid == TID_TUPLE && TUPLE_LEN(k) > 0) {
            Obj f = TUPLE_ITEMS(k)[0];
            if (!IS_SMALLINT(f))
                tsmall = false;
            if (IS_SMALLINT(f) || f->h.tid != TID_STR)
                tstr = false;
        } else {
            tsmall = tstr = false;
        }
        same = same && TYPE(k) == t0;
        if (!anyint && !flt && !str && !tsmall && !tstr && !same)
            return K_GENERIC;
    }
    if (smallint)
        return K_SMALLINT;
    if (anyint)
        return K_INT;
    if (flt)
        return K_FLOAT;
    if (str)
        return K_STR;
    if (tsmall)
        return K_TUPLE_SMALLINT;
    if (tstr)
        return K_TUPLE_STR;
    if (same) {
        *typep = t0;
        return K_SAMETYPE;
    }
    return K_GENERIC;
}

int list_sort(Obj list, Obj key, bool reverse)
{
    list = vm_unwrap(list);
    if (key == g_None)
        key = NULL;
    int64_t n = LIST_LEN(list);
    Obj *r = vm_roots(R_COUNT);
    r[R_LIST] = list;
    r[R_KEYFN] = key;
    r[R_MARK] = array_new(0);
    if (!r[R_MARK]) {
        vm_unroots(r);
        return -1;
    }
    /* detach the items: the list is empty while it is sorted */
    list = r[R_LIST];
    VM_READ(list);
    r[R_VALS] = LIST(list)->array;
    VM_WRITE(list);
    LIST(list)->array = r[R_MARK];
    LIST(list)->length = 0;

    int rc = 0;
    int64_t *runs = NULL;
    Sorter s = {.r = r, .haskeys = key != NULL};
    if (key) {
        r[R_KEYS] = array_new(n);
        for (int64_t i = 0; r[R_KEYS] && i < n; i++) {
            Obj k = vm_call1(r[R_KEYFN], VALS(&s)[i]);
            if (!k) {
                rc = -1;
                break;
            }
            VM_WRITE(r[R_KEYS]);
            KEYS(&s)[i] = k;
        }
        if (!r[R_KEYS] || rc < 0) {
            rc = -1;
            goto restore_unreversed;
        }
    } else {
        r[R_KEYS] = r[R_VALS];
    }
    if (n > 1) {
        /* the buffers: only the left part of a merge is copied out */
        r[R_BKEYS] = array_new(n);
        if (r[R_BKEYS] && key)
            r[R_BVALS] = array_new(n);
        runs = malloc((size_t)(n / MINRUN + 2) * 2 * sizeof(int64_t) + 64);
        if (!r[R_BKEYS] || (key && !r[R_BVALS]) || !runs) {
            if (!runs)
                err_nomemory();
            rc = -1;
            goto restore_unreversed;
        }
        if (reverse)
            reverse_range(&s, 0, n);
        switch (key_kind(KEYS(&s), n, &s.type)) {
        case K_SMALLINT: rc = sort_smallint(&s, n, runs); break;
        case K_INT: rc = sort_int(&s, n, runs); break;
        case K_FLOAT: rc = sort_float(&s, n, runs); break;
        case K_STR: rc = sort_str(&s, n, runs); break;
        case K_SAMETYPE: rc = sort_sametype(&s, n, runs); break;
        case K_TUPLE_SMALLINT: rc = sort_tuple_smallint(&s, n, runs); break;
        case K_TUPLE_STR: rc = sort_tuple_str(&s, n, runs); break;
        default: rc = sort_generic(&s, n, runs); break;
        }
        if (reverse)
            reverse_range(&s, 0, n);
    }
restore_unreversed:
    free(runs);
    list = r[R_LIST];
    VM_READ(list);
    if (rc == 0 && (LIST(list)->array != r[R_MARK] || LIST(list)->length != 0)) {
        err_set(E_ValueError, "list modified during sort");
        rc = -1;
    }
    VM_WRITE(list);
    LIST(list)->array = r[R_VALS];
    LIST(list)->length = n;
    vm_unroots(r);
    return rc;
}
