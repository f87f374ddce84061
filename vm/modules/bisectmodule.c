/* _bisect: the C half of CPython's Lib/bisect.py (which runs unchanged
 * over it, `from _bisect import *`): bisect_left, bisect_right,
 * insort_left and insort_right with lo, hi and key= as in 3.11.
 *
 * What CPython 3.11's C functions do, which the pure-Python ones do not
 * quite: hi=None is passed as -1, so hi=-1 also means len(a); lo is a
 * C ssize_t and hi an optional one, each with its own messages; the
 * sequence is measured and indexed through the sequence protocol (a dict is
 * "dict is not a sequence"); mid is (lo + hi) / 2 unsigned, and an index
 * past the end is the sequence's IndexError. insort on an exact list
 * inserts through the list's own insert (list_insert: its normal write
 * path, so under STM the store is an ordinary transactional write), on
 * anything else it calls a.insert(i, x).
 *
 * Comparisons and key= run Python, which may change the sequence: the
 * length is never cached, and each probe reads the list again. */
#include "modules.h"
#include "objects/containers.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

static const char *const bisect_names[] = {"a", "x", "lo", "hi", "key", NULL};

/* lo: CPython's Py_ssize_t converter (__index__, its overflow message). */
static int lo_arg(Obj v, int64_t *out)
{
    if (!v) {
        *out = 0;
        return 0;
    }
    return arg_ssize(v, out);
}

/* hi: None (or absent) is -1; else an int or an object with __index__. */
static int hi_arg(Obj v, int64_t *out)
{
    *out = -1;
    if (!v || IS_NONE(v))
        return 0;
    if (IS_SMALLINT(v)) {
        *out = SMALLINT_VAL(v);
        return 0;
    }
    if (!IS_INT(vm_unwrap(v)) && !TYPE(v)->nb_index) {
        err_format(E_TypeError, "argument should be integer or None, not '%s'", type_name(v));
        return -1;
    }
    if (vm_index_i64(v, out) == 0)
        return 0;
    if (err_matches(E_OverflowError)) {
        err_clear();
        err_set(E_OverflowError, "cannot fit 'int' into an index-sized integer");   /* __index__'s int */
    }
    return -1;
}

/* An exact dict is a mapping, not a sequence, to CPython's sequence
 * protocol (a subclass is a class, which CPython gives the sequence slots
 * too: its __len__ and __getitem__ are called). A subclass's slots here
 * are the adapters to the base's, never dict's own. */
static bool mapping_only_len(TypeObj *t) { return t->tp_len && t->tp_len == T_dict->tp_len; }
static bool mapping_only_item(TypeObj *t) { return t->tp_getitem && t->tp_getitem == T_dict->tp_getitem; }

/* len(a) as the sequence protocol measures it; -1 with an error. An exact
 * list is read in place (a subclass's slots are adapters: through vm_len). */
static int64_t sequence_len(Obj a)
{
    TypeObj *t = TYPE(a);
    if (t->tp_len == T_list->tp_len)
        return LIST_LEN(vm_unwrap(a));
    if (mapping_only_len(t)) {
        err_format(E_TypeError, "%s is not a sequence", type_name(a));
        return -1;
    }
    return vm_len(a);
}

/* a[i] (0 <= i) through the sequence protocol. *ap is a root slot. */
static Obj sequence_item(Obj *ap, int64_t i)
{
    TypeObj *t = TYPE(*ap);
    if (t->tp_getitem == T_list->tp_getitem) {
        Obj l = vm_unwrap(*ap);
        if (i >= LIST_LEN(l)) {
            err_set(E_IndexError, "list index out of range");
            return NULL;
        }
        return LIST_ITEMS(l)[i];
    }
    if (!t->tp_getitem) {
        err_format(E_TypeError, "'%s' object does not support indexing", type_name(*ap));
        return NULL;
    }
    if (mapping_only_item(t)) {
        err_format(E_TypeError, "%s is not a sequence", type_name(*ap));
        return NULL;
    }
    Obj key = int_from_i64(i);   /* may allocate (past the small ints) */
    if (!key)
        return NULL;
    return vm_getitem(*ap, key);
}

/* The bisection itself. r[0] = a, r[1] = x (already key(x) for insort),
 * r[2] = key or NULL/None; r[3] scratch. All root slots. Returns the index
 * or -1 with an error. */
static int64_t bisect(Obj *r, int64_t lo, int64_t hi, bool right)
{
    if (lo < 0) {
        err_set(E_ValueError, "lo must be non-negative");
        return -1;
    }
    if (hi == -1) {
        hi = sequence_len(r[0]);
        if (hi < 0)
            return -1;
    }
    bool keyed = r[2] && !IS_NONE(r[2]);
    while (lo < hi) {
        int64_t mid = (int64_t)(((uint64_t)lo + (uint64_t)hi) / 2);
        Obj item = sequence_item(&r[0], mid);
        if (!item)
            return -1;
        if (keyed) {
            r[3] = item;
            item = vm_call1(r[2], r[3]);
            if (!item)
                return -1;
        }
        /* right: x < a[mid] goes left; left: a[mid] < x goes right */
        int lt = right ? vm_richcompare_bool(r[1], item, CMP_LT) : vm_richcompare_bool(item, r[1], CMP_LT);
        if (lt < 0)
            return -1;
        if (right == (lt != 0))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Parses the arguments into r[0..4] (a, x, lo, hi, key) and lo/hi. */
static int parse(const char *fname, Obj *args, size_t nargs, Obj kwnames, Obj *r, int64_t *lo, int64_t *hi)
{
    if (vm_parse_args(fname, args, nargs, kwnames, bisect_names, 2, 4, r) < 0)
        return -1;
    if (lo_arg(r[2], lo) < 0 || hi_arg(r[3], hi) < 0)
        return -1;
    return 0;
}

static Obj bisect_common(const char *fname, Obj *args, size_t nargs, Obj kwnames, bool right)
{
    Obj *p = vm_roots(5);
    Obj res = NULL;
    int64_t lo, hi;
    if (parse(fname, args, nargs, kwnames, p, &lo, &hi) < 0)
        goto out;
    Obj *r = vm_roots(4);
    r[0] = p[0];
    r[1] = p[1];
    r[2] = p[4];
    int64_t i = bisect(r, lo, hi, right);
    vm_unroots(r);
    if (i >= 0)
        res = int_from_i64(i);
out:
    vm_unroots(p);
    return res;
}

static Obj insort_common(const char *fname, Obj *args, size_t nargs, Obj kwnames, bool right)
{
    Obj *p = vm_roots(5);
    Obj *r = vm_roots(4);
    Obj res = NULL;
    int64_t lo, hi;
    if (parse(fname, args, nargs, kwnames, p, &lo, &hi) < 0)
        goto out;
    r[0] = p[0];
    r[2] = p[4];
    if (r[2] && !IS_NONE(r[2])) {
        r[1] = vm_call1(r[2], p[1]);   /* key(x), once, before bisecting */
        if (!r[1])
            goto out;
    } else {
        r[1] = p[1];
    }
    int64_t i = bisect(r, lo, hi, right);
    if (i < 0)
        goto out;
    if (TYPE(r[0]) == T_list) {
        if (list_insert(r[0], i, p[1]) < 0)
            goto out;
    } else {
        Obj *ca = vm_roots(2);   /* a.insert(i, x) */
        ca[1] = p[1];
        ca[0] = int_from_i64(i);
        Obj rv = ca[0] ? vm_call_method(r[0], "insert", ca, 2) : NULL;
        vm_unroots(ca);
        if (!rv)
            goto out;
    }
    res = g_None;
out:
    vm_unroots(r);
    vm_unroots(p);
    return res;
}

static Obj bisect_right_f(Obj *args, size_t nargs, Obj kwnames)
{
    return bisect_common("bisect_right", args, nargs, kwnames, true);
}
static Obj bisect_left_f(Obj *args, size_t nargs, Obj kwnames)
{
    return bisect_common("bisect_left", args, nargs, kwnames, false);
}
static Obj insort_right_f(Obj *args, size_t nargs, Obj kwnames)
{
    return insort_common("insort_right", args, nargs, kwnames, true);
}
static Obj insort_left_f(Obj *args, size_t nargs, Obj kwnames)
{
    return insort_common("insort_left", args, nargs, kwnames, false);
}

static const MethodDef bisect_functions[] = {
    {"bisect_right", bisect_right_f, METH_KW,
     "bisect_right($module, /, a, x, lo=0, hi=None, *, key=None)\n--\n\n"
     "Return the index where to insert item x in list a, assuming a is sorted.\n\n"
     "The return value i is such that all e in a[:i] have e <= x, and all e in\n"
     "a[i:] have e > x.  So if x already appears in the list, a.insert(i, x) will\n"
     "insert just after the rightmost x already there.\n\n"
     "Optional args lo (default 0) and hi (default len(a)) bound the\n"
     "slice of a to be searched."},
    {"insort_right", insort_right_f, METH_KW,
     "insort_right($module, /, a, x, lo=0, hi=None, *, key=None)\n--\n\n"
     "Insert item x in list a, and keep it sorted assuming a is sorted.\n\n"
     "If x is already in a, insert it to the right of the rightmost x.\n\n"
     "Optional args lo (default 0) and hi (default len(a)) bound the\n"
     "slice of a to be searched."},
    {"bisect_left", bisect_left_f, METH_KW,
     "bisect_left($module, /, a, x, lo=0, hi=None, *, key=None)\n--\n\n"
     "Return the index where to insert item x in list a, assuming a is sorted.\n\n"
     "The return value i is such that all e in a[:i] have e < x, and all e in\n"
     "a[i:] have e >= x.  So if x already appears in the list, a.insert(i, x) will\n"
     "insert just before the leftmost x already there.\n\n"
     "Optional args lo (default 0) and hi (default len(a)) bound the\n"
     "slice of a to be searched."},
    {"insort_left", insort_left_f, METH_KW,
     "insort_left($module, /, a, x, lo=0, hi=None, *, key=None)\n--\n\n"
     "Insert item x in list a, and keep it sorted assuming a is sorted.\n\n"
     "If x is already in a, insert it to the left of the leftmost x.\n\n"
     "Optional args lo (default 0) and hi (default len(a)) bound the\n"
     "slice of a to be searched."},
    {NULL, NULL, 0, NULL},
};

Obj bisect_module_init(void)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = module_new("_bisect");
    if (!r[0])
        goto out;
    module_add_functions(r[0], bisect_functions);
    r[1] = str_from_cstr("Bisection algorithms.\n\n"
                         "This module provides support for maintaining a list in sorted order without\n"
                         "having to sort the list after each insertion. For long lists of items with\n"
                         "expensive comparison operations, this can be an improvement over the more\n"
                         "common approach.\n");
    if (!r[1] || module_add(r[0], "__doc__", r[1]) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
