/* range and slice.
 *
 * RangeObj keeps start/stop/step as int objects; when all three are small
 * ints the length is computed once (RangeObj.length) and iteration,
 * indexing and `in` run on C integers. Other ranges (length -1) use the
 * int_* functions throughout, like CPython's long ranges.
 * The range iterator (ITK_RANGE: i = next value, n = items left, a = step)
 * is what the eval loop's FOR_ITER special-cases (range_iter_next_inline). */
#include "objects.h"
#include "containers.h"
#include "numbers.h"

#include <stdlib.h>
#include <string.h>
static Obj range_iter_new(Obj r);

TypeObj *T_range, *T_slice, *T_range_iterator, *T_longrange_iterator;

/* ---- small helpers on int objects ---- */

static inline bool is_exact_int(Obj v)
{
    return IS_SMALLINT(v) || TID(v) == TID_BIGINT || TID(v) == TID_BOOL;
}

/* bool -> int, so results never show True/False. */
static Obj as_plain_int(Obj v)
{
    if (TID(v) == TID_BOOL)
        return MAKE_SMALLINT(((BoolObj *)v)->value);
    return v;
}

/* Number of items of range(start, stop, step) for int objects. */
static Obj long_length(Obj start, Obj stop, Obj step)
{
    Obj *r = vm_roots(3);
    Obj lo, hi, st = step;
    if (int_sign(step) > 0) {
        lo = start;
        hi = stop;
    } else {
        lo = stop;
        hi = start;
    }
    Obj res = MAKE_SMALLINT(0);
    if (int_compare(lo, hi) < 0) {
        r[0] = lo;
        r[1] = hi;
        r[2] = st;
        if (int_sign(st) < 0 && !(r[2] = int_neg(st)))
            goto fail;
        /* (hi - lo - 1) // step + 1 */
        Obj d = int_sub(r[1], r[0]);
        if (!d || !(d = int_sub(d, MAKE_SMALLINT(1))) || !(d = int_floordiv(d, r[2])))
            goto fail;
        res = int_add(d, MAKE_SMALLINT(1));
    }
    vm_unroots(r);
    return res;
fail:
    vm_unroots(r);
    return NULL;
}

/* Length of a small range (start, stop, step all small ints). */
static int64_t small_length(int64_t start, int64_t stop, int64_t step)
{
    if (step > 0)
        return start < stop ? (stop - start - 1) / step + 1 : 0;
    return start > stop ? (start - stop - 1) / (-step) + 1 : 0;
}

/* A range of int objects (step nonzero). */
static Obj range_make(Obj start, Obj stop, Obj step)
{
    Obj *r = vm_roots(3);
    r[0] = as_plain_int(start);
    r[1] = as_plain_int(stop);
    r[2] = as_plain_int(step);
    Obj o = tm_allocate(TID_RANGE, sizeof(struct RangeObj_));
    if (!o) {
        vm_unroots(r);
        return err_nomemory();
    }
    RANGE(o)->start = r[0];
    RANGE(o)->stop = r[1];
    RANGE(o)->step = r[2];
    if (IS_SMALLINT(r[0]) && IS_SMALLINT(r[1]) && IS_SMALLINT(r[2]))
        RANGE(o)->length = small_length(SMALLINT_VAL(r[0]), SMALLINT_VAL(r[1]), SMALLINT_VAL(r[2]));
    else
        RANGE(o)->length = -1;
    vm_unroots(r);
    return o;
}

static Obj range_new(Obj start, Obj stop, Obj step)
{
    Obj *r = vm_roots(3);
    r[0] = start;
    r[1] = stop;
    r[2] = step ? step : MAKE_SMALLINT(1);
    Obj res = NULL;
    for (int i = 0; i < 3; i++)
        if (!is_exact_int(r[i]) && !(r[i] = vm_index(r[i])))
            goto out;
    if (int_sign(r[2]) == 0) {
        err_set(E_ValueError, "range() arg 3 must not be zero");
        goto out;
    }
    res = range_make(r[0], r[1], r[2]);
out:
    vm_unroots(r);
    return res;
}

/* The length as an int object. */
static Obj range_length_obj(Obj rg)
{
    if (RANGE(rg)->length >= 0)
        return MAKE_SMALLINT(RANGE(rg)->length);
    return long_length(RANGE(rg)->start, RANGE(rg)->stop, RANGE(rg)->step);
}

static int64_t range_len(Obj rg)
{
    if (RANGE(rg)->length >= 0)
        return RANGE(rg)->length;
    Obj n = range_length_obj(rg);
    if (!n)
        return -1;
    int64_t v;
    if (int_as_i64(n, &v) < 0) {
        err_clear();
        err_set(E_OverflowError, "Python int too large to convert to C ssize_t");
        return -1;
    }
    return v;
}

/* start + i * step for an int i. */
static Obj range_item(Obj rg, Obj i)
{
    if (IS_SMALLINT(i) && RANGE(rg)->length >= 0)
        return MAKE_SMALLINT(SMALLINT_VAL(RANGE(rg)->start) + SMALLINT_VAL(i) * SMALLINT_VAL(RANGE(rg)->step));
    Obj *r = vm_roots(1);
    r[0] = rg;
    Obj p = int_mul(i, RANGE(rg)->step);
    Obj res = p ? int_add(RANGE(r[0])->start, p) : NULL;
    vm_unroots(r);
    return res;
}

/* ---- slices against arbitrary int lengths (CPython's _PySlice_GetLongIndices) ---- */

/* out[0..3): start, stop, step as ints; length an int >= 0. 0 / -1. */
static int slice_long_indices(Obj slice, Obj length, Obj *out)
{
    Obj *r = vm_roots(4);
    r[0] = slice;
    r[1] = length;
    int rc = -1;
    Obj step = SLICE(slice)->step;
    if (step == g_None || !step) {
        r[2] = MAKE_SMALLINT(1);
    } else {
        if (!is_exact_int(step) && !TYPE(step)->nb_index) {
            err_set(E_TypeError, "slice indices must be integers or None or have an __index__ method");
            goto out;
        }
        if (!(r[2] = vm_index(step)))
            goto out;
        r[2] = as_plain_int(r[2]);
        if (int_sign(r[2]) == 0) {
            err_set(E_ValueError, "slice step cannot be zero");
            goto out;
        }
    }
    bool neg = int_sign(r[2]) < 0;
    /* lower, upper */
    Obj lower = neg ? MAKE_SMALLINT(-1) : MAKE_SMALLINT(0);
    r[3] = neg ? int_add(r[1], MAKE_SMALLINT(-1)) : r[1];
    if (!r[3])
        goto out;
    out[2] = r[2];
    for (int which = 0; which < 2; which++) {
        Obj v = which == 0 ? SLICE(r[0])->start : SLICE(r[0])->stop;
        Obj res;
        if (!v || v == g_None) {
            res = (which == 0) == neg ? r[3] : lower;
        } else {
            if (!is_exact_int(v) && !TYPE(v)->nb_index) {
                err_set(E_TypeError, "slice indices must be integers or None or have an __index__ method");
                goto out;
            }
            res = vm_index(v);
            if (!res)
                goto out;
            res = as_plain_int(res);
            if (int_sign(res) < 0) {
                res = int_add(res, r[1]);
                if (!res)
                    goto out;
                if (int_compare(res, lower) < 0)
                    res = lower;
            } else if (int_compare(res, r[3]) > 0) {
                res = r[3];
            }
        }
        out[which] = res;
    }
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* ---- slice objects ---- */

Obj slice_new(Obj start, Obj stop, Obj step)
{
    Obj *r = vm_roots(3);
    r[0] = start ? start : g_None;
    r[1] = stop ? stop : g_None;
    r[2] = step ? step : g_None;
    Obj s = tm_allocate(TID_SLICE, sizeof(struct SliceObj_));
    if (s) {
        SLICE(s)->start = r[0];
        SLICE(s)->stop = r[1];
        SLICE(s)->step = r[2];
    }
    vm_unroots(r);
    return s ? s : err_nomemory();
}

int slice_unpack(Obj slice, int64_t *startp, int64_t *stopp, int64_t *stepp)
{
    Obj *r = vm_roots(1);
    r[0] = slice;
    int64_t start, stop, step = 1;
    if (SLICE(slice)->step != g_None) {
        if (seq_slice_index(SLICE(r[0])->step, &step, true) < 0)
            goto fail;
        if (step == 0) {
            err_set(E_ValueError, "slice step cannot be zero");
            goto fail;
        }
        if (step < -INT64_MAX)
            step = -INT64_MAX;   /* so that -step cannot overflow */
    }
    start = step < 0 ? INT64_MAX : 0;
    stop = step < 0 ? INT64_MIN : INT64_MAX;
    if (seq_slice_index(SLICE(r[0])->start, &start, true) < 0 ||
        seq_slice_index(SLICE(r[0])->stop, &stop, true) < 0)
        goto fail;
    vm_unroots(r);
    *startp = start;
    *stopp = stop;
    *stepp = step;
    return 0;
fail:
    vm_unroots(r);
    return -1;
}

int64_t slice_adjust(int64_t length, int64_t *startp, int64_t *stopp, int64_t step)
{
    int64_t start = *startp, stop = *stopp;
    if (start < 0) {
        start += length;
        if (start < 0)
            start = step < 0 ? -1 : 0;
    } else if (start >= length) {
        start = step < 0 ? length - 1 : length;
    }
    if (stop < 0) {
        stop += length;
        if (stop < 0)
            stop = step < 0 ? -1 : 0;
    } else if (stop >= length) {
        stop = step < 0 ? length - 1 : length;
    }
    *startp = start;
    *stopp = stop;
    if (step < 0)
        return stop < start ? (start - stop - 1) / (-step) + 1 : 0;
    return start < stop ? (stop - start - 1) / step + 1 : 0;
}

int64_t slice_indices(Obj slice, int64_t length, int64_t *startp, int64_t *stopp, int64_t *stepp)
{
    if (slice_unpack(slice, startp, stopp, stepp) < 0)
        return -1;
    return slice_adjust(length, startp, stopp, *stepp);
}

static Obj slice_repr(Obj s)
{
    Obj *r = vm_roots(4);
    r[0] = s;
    Obj res = NULL;
    if (!(r[1] = vm_repr(SLICE(r[0])->start)) || !(r[2] = vm_repr(SLICE(r[0])->stop)) ||
        !(r[3] = vm_repr(SLICE(r[0])->step)))
        goto out;
    StrBuf b;
    sb_init(&b);
    sb_adds(&b, "slice(");
    sb_add_str(&b, r[1]);
    sb_adds(&b, ", ");
    sb_add_str(&b, r[2]);
    sb_adds(&b, ", ");
    sb_add_str(&b, r[3]);
    sb_addc(&b, ')');
    res = sb_finish(&b);
out:
    vm_unroots(r);
    return res;
}

static Obj slice_richcompare(Obj a, Obj b, int op)
{
    if (TID(a) != TID_SLICE || TID(b) != TID_SLICE)
        return g_NotImplemented;
    if (a == b)
        return vm_bool(op == CMP_EQ || op == CMP_LE || op == CMP_GE);
    Obj *r = vm_roots(2);
    r[1] = b;
    r[0] = tuple_pack(3, SLICE(a)->start, SLICE(a)->stop, SLICE(a)->step);
    Obj res = NULL;
    if (r[0]) {
        Obj tb = tuple_pack(3, SLICE(r[1])->start, SLICE(r[1])->stop, SLICE(r[1])->step);
        if (tb)
            res = vm_richcompare(r[0], tb, op);
    }
    vm_unroots(r);
    return res;
}

static int64_t slice_unhashable(Obj self)
{
    err_format(E_TypeError, "unhashable type: '%s'", type_name(self));
    return -1;
}

static Obj slice_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    (void)type;
    if (vm_check_args("slice", nargs, kwnames, 1, 3) < 0)
        return NULL;
    if (nargs == 1)
        return slice_new(g_None, args[0], g_None);
    return slice_new(args[0], args[1], nargs > 2 ? args[2] : g_None);
}

static Obj slice_indices_m(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = args[1];
    if (!is_exact_int(r[0]) && !(r[0] = vm_index(r[0])))
        goto out;
    r[0] = as_plain_int(r[0]);
    if (int_sign(r[0]) < 0) {
        err_set(E_ValueError, "length should not be negative");
        goto out;
    }
    if (slice_long_indices(args[0], r[0], &r[1]) < 0)
        goto out;
    res = tuple_pack(3, r[1], r[2], r[3]);
out:
    vm_unroots(r);
    return res;
}

static Obj slice_start_get(Obj *args, size_t nargs, Obj kwnames)
{
    return SLICE(args[0])->start;
}
static Obj slice_stop_get(Obj *args, size_t nargs, Obj kwnames)
{
    return SLICE(args[0])->stop;
}
static Obj slice_step_get(Obj *args, size_t nargs, Obj kwnames)
{
    return SLICE(args[0])->step;
}

/* (slice, (start, stop, step)) */
static Obj slice_reduce_m(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = args[0];
    Obj t = tuple_pack(3, SLICE(s)->start, SLICE(s)->stop, SLICE(s)->step);
    return t ? tuple_pack(2, (Obj)T_slice, t) : NULL;
}

static const MethodDef slice_methods[] = {
    {"indices", slice_indices_m, METH_O, "S.indices(len) -> (start, stop, stride)"},
    {"__reduce__", slice_reduce_m, METH_NOARGS, "Return state information for pickling."},
    {NULL, NULL, 0, NULL},
};

/* ---- range slots ---- */

static Obj range_repr(Obj self)
{
    Obj *r = vm_roots(4);
    r[0] = self;
    Obj res = NULL;
    bool step1 = RANGE(self)->step == MAKE_SMALLINT(1);
    if (!(r[1] = vm_repr(RANGE(r[0])->start)) || !(r[2] = vm_repr(RANGE(r[0])->stop)))
        goto out;
    if (!step1 && !(r[3] = vm_repr(RANGE(r[0])->step)))
        goto out;
    StrBuf b;
    sb_init(&b);
    sb_adds(&b, "range(");
    sb_add_str(&b, r[1]);
    sb_adds(&b, ", ");
    sb_add_str(&b, r[2]);
    if (!step1) {
        sb_adds(&b, ", ");
        sb_add_str(&b, r[3]);
    }
    sb_addc(&b, ')');
    res = sb_finish(&b);
out:
    vm_unroots(r);
    return res;
}

static int64_t range_len_slot(Obj self)
{
    return range_len(self);
}

static int range_bool(Obj self)
{
    if (RANGE(self)->length >= 0)
        return RANGE(self)->length != 0;
    Obj n = range_length_obj(self);
    return n ? int_sign(n) != 0 : -1;
}

/* range == range: same sequence of values. */
static int range_equal(Obj a, Obj b)
{
    if (a == b)
        return 1;
    if (RANGE(a)->length >= 0 && RANGE(b)->length >= 0) {
        int64_t n = RANGE(a)->length;
        if (n != RANGE(b)->length)
            return 0;
        if (n == 0)
            return 1;
        if (RANGE(a)->start != RANGE(b)->start)
            return 0;
        return n == 1 || RANGE(a)->step == RANGE(b)->step;
    }
    Obj *r = vm_roots(3);
    r[0] = a;
    r[1] = b;
    int res = -1;
    r[2] = range_length_obj(a);
    Obj lb = r[2] ? range_length_obj(r[1]) : NULL;
    if (!lb)
        goto out;
    if (int_compare(r[2], lb) != 0) {
        res = 0;
        goto out;
    }
    if (int_sign(r[2]) == 0) {
        res = 1;
        goto out;
    }
    if (int_compare(RANGE(r[0])->start, RANGE(r[1])->start) != 0) {
        res = 0;
        goto out;
    }
    if (int_compare(r[2], MAKE_SMALLINT(1)) == 0) {
        res = 1;
        goto out;
    }
    res = int_compare(RANGE(r[0])->step, RANGE(r[1])->step) == 0;
out:
    vm_unroots(r);
    return res;
}

static Obj range_richcompare(Obj a, Obj b, int op)
{
    if (TID(a) != TID_RANGE || TID(b) != TID_RANGE || (op != CMP_EQ && op != CMP_NE))
        return g_NotImplemented;
    int eq = range_equal(a, b);
    if (eq < 0)
        return NULL;
    return vm_bool(op == CMP_EQ ? eq : !eq);
}

static int64_t range_hash(Obj self)
{
    Obj *r = vm_roots(2);
    r[0] = self;
    int64_t h = -1;
    r[1] = range_length_obj(self);
    if (!r[1])
        goto out;
    Obj t;
    if (int_sign(r[1]) == 0)
        t = tuple_pack(3, r[1], g_None, g_None);
    else if (int_compare(r[1], MAKE_SMALLINT(1)) == 0)
        t = tuple_pack(3, r[1], RANGE(r[0])->start, g_None);
    else
        t = tuple_pack(3, r[1], RANGE(r[0])->start, RANGE(r[0])->step);
    if (t)
        h = vm_hash(t);
out:
    vm_unroots(r);
    return h;
}

/* `v in range` for an int v: 1, 0, -1. */
static int range_contains_int(Obj rg, Obj v)
{
    v = as_plain_int(v);
    if (RANGE(rg)->length >= 0 && IS_SMALLINT(v)) {
        int64_t start = SMALLINT_VAL(RANGE(rg)->start), stop = SMALLINT_VAL(RANGE(rg)->stop);
        int64_t step = SMALLINT_VAL(RANGE(rg)->step), x = SMALLINT_VAL(v);
        if (step > 0 ? (x < start || x >= stop) : (x > start || x <= stop))
            return 0;
        return (x - start) % step == 0;
    }
    if (RANGE(rg)->length >= 0 && TID(v) == TID_BIGINT)
        return 0;   /* a small range holds only small ints */
    Obj *r = vm_roots(2);
    r[0] = rg;
    r[1] = v;
    int res = -1;
    Obj start = RANGE(rg)->start, stop = RANGE(rg)->stop;
    bool in;
    if (int_sign(RANGE(rg)->step) > 0)
        in = int_compare(start, v) <= 0 && int_compare(v, stop) < 0;
    else
        in = int_compare(stop, v) < 0 && int_compare(v, start) <= 0;
    if (!in) {
        res = 0;
        goto out;
    }
    Obj d = int_sub(r[1], RANGE(r[0])->start);
    if (!d || !(d = int_mod(d, RANGE(r[0])->step)))
        goto out;
    res = int_sign(d) == 0;
out:
    vm_unroots(r);
    return res;
}

/* Python-level equality search: the index of the first item == v, -1 if
 * none, -2 on error. */
static int64_t range_search(Obj rg, Obj v, bool count, int64_t *countp)
{
    Obj *r = vm_roots(3);
    r[0] = v;
    r[1] = range_iter_new(rg);
    int64_t res = -1, i = 0, c = 0;
    if (!r[1]) {
        res = -2;
        goto out;
    }
    for (;; i++) {
        r[2] = vm_next(r[1]);
        if (!r[2]) {
            if (err_occurred())
                res = -2;
            break;
        }
        int eq = vm_richcompare_bool(r[2], r[0], CMP_EQ);
        if (eq < 0) {
            res = -2;
            break;
        }
        if (eq) {
            if (!count) {
                res = i;
                break;
            }
            c++;
        }
    }
out:
    vm_unroots(r);
    if (countp)
        *countp = c;
    return res;
}

static int range_contains(Obj self, Obj v)
{
    if (is_exact_int(v))
        return range_contains_int(self, v);
    int64_t i = range_search(self, v, false, NULL);
    return i == -2 ? -1 : i >= 0;
}

static Obj range_getitem(Obj self, Obj key)
{
    if (IS_SMALLINT(key) && RANGE(self)->length >= 0) {
        int64_t i = SMALLINT_VAL(key), n = RANGE(self)->length;
        if (i < 0)
            i += n;
        if (i < 0 || i >= n) {
            err_set(E_IndexError, "range object index out of range");
            return NULL;
        }
        return MAKE_SMALLINT(SMALLINT_VAL(RANGE(self)->start) + i * SMALLINT_VAL(RANGE(self)->step));
    }
    Obj *r = vm_roots(6);
    r[0] = self;
    r[1] = key;
    Obj res = NULL;
    if (TID(key) == TID_SLICE) {
        r[2] = range_length_obj(self);
        if (!r[2] || slice_long_indices(r[1], r[2], &r[3]) < 0)
            goto out;
        /* range(start + i*step, start + j*step, step * k) */
        Obj substep = int_mul(RANGE(r[0])->step, r[5]);
        if (!substep)
            goto out;
        r[5] = substep;
        if (!(r[3] = range_item(r[0], r[3])) || !(r[4] = range_item(r[0], r[4])))
            goto out;
        res = range_make(r[3], r[4], r[5]);
        goto out;
    }
    if (!is_exact_int(key) && !TYPE(key)->nb_index) {
        err_format(E_TypeError, "range indices must be integers or slices, not %s", type_name(key));
        goto out;
    }
    r[2] = as_plain_int(is_exact_int(key) ? key : vm_index(key));
    if (!r[2] || !(r[3] = range_length_obj(r[0])))
        goto out;
    if (int_sign(r[2]) < 0 && !(r[2] = int_add(r[2], r[3])))
        goto out;
    if (int_sign(r[2]) < 0 || int_compare(r[2], r[3]) >= 0) {
        err_set(E_IndexError, "range object index out of range");
        goto out;
    }
    res = range_item(r[0], r[2]);
out:
    vm_unroots(r);
    return res;
}

/* ---- range iterator ---- */

Obj range_iter_next(Obj it)
{
    if (ITER(it)->kind == ITK_RANGE)
        return range_iter_next_inline(it);
    /* ITK_LONGRANGE: a = next value, b = step, c = items left */
    Obj left = ITER(it)->c;
    if (!left || left == MAKE_SMALLINT(0))
        return NULL;
    Obj *r = vm_roots(3);
    r[0] = it;
    r[1] = ITER(it)->a;
    r[2] = int_add(r[1], ITER(it)->b);
    Obj nleft = r[2] ? int_sub(ITER(r[0])->c, MAKE_SMALLINT(1)) : NULL;
    Obj res = NULL;
    if (nleft) {
        it = r[0];
        VM_WRITE(it);
        ITER(it)->c = nleft;
        ITER(it)->a = r[2];
        res = r[1];
    }
    vm_unroots(r);
    return res;
}

/* An iterator from `first` by `step` for `n` items (int objects). */
static Obj range_iter_make(Obj first, Obj step, Obj n)
{
    Obj *r = vm_roots(3);
    r[0] = first;
    r[1] = step;
    r[2] = n;
    Obj it;
    if (IS_SMALLINT(first) && IS_SMALLINT(step) && IS_SMALLINT(n)) {
        it = iter_alloc(T_range_iterator, step, ITK_RANGE);
        if (it) {
            ITER(it)->i = SMALLINT_VAL(r[0]);
            ITER(it)->n = SMALLINT_VAL(r[2]);
        }
    } else {
        it = iter_alloc(T_longrange_iterator, first, ITK_LONGRANGE);
        if (it) {
            ITER(it)->b = r[1];
            ITER(it)->c = r[2];
        }
    }
    vm_unroots(r);
    return it;
}

static Obj range_iter_new(Obj rg)
{
    if (RANGE(rg)->length >= 0)
        return range_iter_make(RANGE(rg)->start, RANGE(rg)->step, MAKE_SMALLINT(RANGE(rg)->length));
    Obj *r = vm_roots(2);
    r[0] = rg;
    r[1] = range_length_obj(rg);
    Obj res = r[1] ? range_iter_make(RANGE(r[0])->start, RANGE(r[0])->step, r[1]) : NULL;
    vm_unroots(r);
    return res;
}

/* ---- pickling a range iterator: iter(range(next, stop, step)) ---- */

/* The iterator's next value, step and items left, as int objects in r[0..2]. */
static void range_iter_state(Obj it, Obj *r)
{
    if (ITER(it)->kind == ITK_RANGE) {
        r[0] = MAKE_SMALLINT(ITER(it)->i);
        r[1] = ITER(it)->a;
        r[2] = MAKE_SMALLINT(ITER(it)->n > 0 ? ITER(it)->n : 0);
    } else {
        r[0] = ITER(it)->a;
        r[1] = ITER(it)->b;
        r[2] = ITER(it)->c ? ITER(it)->c : MAKE_SMALLINT(0);
    }
}

static Obj range_iter_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(5);
    Obj res = NULL;
    range_iter_state(args[0], r);
    /* stop = next + left * step */
    if (!(r[3] = int_mul(r[2], r[1])) || !(r[3] = int_add(r[0], r[3])))
        goto out;
    if (!(r[3] = range_make(r[0], r[3], r[1])) || !(r[3] = tuple_pack(1, r[3])))
        goto out;
    if (!(r[4] = vm_getattr_cstr(g_builtins_module, "iter")))
        goto out;
    res = tuple_pack(3, r[4], r[3], MAKE_SMALLINT(0));
out:
    vm_unroots(r);
    return res;
}

/* __setstate__(index): skip that many items (clamped to the ones left). */
static Obj range_iter_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(5);
    Obj res = NULL;
    r[4] = args[0];
    range_iter_state(args[0], r);
    r[3] = as_plain_int(is_exact_int(args[1]) ? args[1] : vm_index(args[1]));
    if (!r[3])
        goto out;
    if (int_sign(r[3]) < 0)
        r[3] = MAKE_SMALLINT(0);
    else if (int_compare(r[3], r[2]) > 0)
        r[3] = r[2];
    Obj adv = int_mul(r[3], r[1]);
    if (!adv || !(r[0] = int_add(r[0], adv)) || !(r[2] = int_sub(r[2], r[3])))
        goto out;
    Obj it = r[4];
    VM_WRITE(it);
    if (ITER(it)->kind == ITK_RANGE && IS_SMALLINT(r[0])) {
        ITER(it)->i = SMALLINT_VAL(r[0]);
        ITER(it)->n = SMALLINT_VAL(r[2]);
    } else if (ITER(it)->kind == ITK_RANGE) {
        err_set(E_OverflowError, "range iterator position out of range");
        goto out;
    } else {
        ITER(it)->a = r[0];
        ITER(it)->c = r[2];
    }
    res = g_None;
out:
    vm_unroots(r);
    return res;
}

static const MethodDef range_iter_methods[] = {
    {"__reduce__", range_iter_reduce, METH_NOARGS, "Return state information for pickling."},
    {"__setstate__", range_iter_setstate, METH_O, "Set state information for unpickling."},
    {NULL, NULL, 0, NULL},
};

static Obj range_reversed(Obj rg)
{
    Obj *r = vm_roots(4);
    r[0] = rg;
    Obj res = NULL;
    if (!(r[1] = range_length_obj(rg)))
        goto out;
    if (int_sign(r[1]) == 0) {
        res = range_iter_make(MAKE_SMALLINT(0), MAKE_SMALLINT(1), MAKE_SMALLINT(0));
        goto out;
    }
    /* last = start + (len - 1) * step, stepping by -step */
    Obj lm1 = int_sub(r[1], MAKE_SMALLINT(1));
    if (!lm1 || !(r[2] = range_item(r[0], lm1)) || !(r[3] = int_neg(RANGE(r[0])->step)))
        goto out;
    res = range_iter_make(r[2], r[3], r[1]);
out:
    vm_unroots(r);
    return res;
}

static Obj range_iter_slot(Obj self)
{
    return range_iter_new(self);
}

/* ---- range methods ---- */

static Obj range_count_m(Obj *args, size_t nargs, Obj kwnames)
{
    if (is_exact_int(args[1])) {
        int rc = range_contains_int(args[0], args[1]);
        return rc < 0 ? NULL : MAKE_SMALLINT(rc);
    }
    int64_t c;
    if (range_search(args[0], args[1], true, &c) == -2)
        return NULL;
    return MAKE_SMALLINT(c);
}

static Obj range_index_m(Obj *args, size_t nargs, Obj kwnames)
{
    if (is_exact_int(args[1])) {
        int rc = range_contains_int(args[0], args[1]);
        if (rc < 0)
            return NULL;
        if (rc) {
            Obj d = int_sub(as_plain_int(args[1]), RANGE(args[0])->start);
            return d ? int_floordiv(d, RANGE(args[0])->step) : NULL;
        }
        Obj s = vm_repr(args[1]);
        if (!s)
            return NULL;
        char *c = strdup(str_cstr(s));
        if (!c)
            return err_nomemory();
        err_format(E_ValueError, "%s is not in range", c);
        free(c);
        return NULL;
    }
    int64_t i = range_search(args[0], args[1], false, NULL);
    if (i == -2)
        return NULL;
    if (i < 0) {
        err_set(E_ValueError, "sequence.index(x): x not in sequence");
        return NULL;
    }
    return MAKE_SMALLINT(i);
}

static Obj range_reversed_m(Obj *args, size_t nargs, Obj kwnames)
{
    return range_reversed(args[0]);
}

static Obj range_start_get(Obj *args, size_t nargs, Obj kwnames)
{
    return RANGE(args[0])->start;
}
static Obj range_stop_get(Obj *args, size_t nargs, Obj kwnames)
{
    return RANGE(args[0])->stop;
}
static Obj range_step_get(Obj *args, size_t nargs, Obj kwnames)
{
    return RANGE(args[0])->step;
}

static Obj range_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    (void)type;
    if (vm_check_args("range", nargs, kwnames, 1, 3) < 0)
        return NULL;
    if (nargs == 1)
        return range_new(MAKE_SMALLINT(0), args[0], MAKE_SMALLINT(1));
    return range_new(args[0], args[1], nargs > 2 ? args[2] : MAKE_SMALLINT(1));
}

/* range(start, stop, step) again, for pickle and copy */
static Obj range_reduce_m(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    r[0] = args[0];
    Obj res = tuple_pack(3, RANGE(r[0])->start, RANGE(r[0])->stop, RANGE(r[0])->step);
    if (res)
        res = tuple_pack(2, (Obj)T_range, res);
    vm_unroots(r);
    return res;
}

static const MethodDef range_methods[] = {
    {"__reduce__", range_reduce_m, METH_NOARGS, NULL},
    {"count", range_count_m, METH_O, "rangeobject.count(value) -> integer -- return number of occurrences of value"},
    {"index", range_index_m, METH_O, "rangeobject.index(value) -> integer -- return index of value."},
    {"__reversed__", range_reversed_m, METH_NOARGS, "Return a reverse iterator."},
    {NULL, NULL, 0, NULL},
};

void range_init_type(void)
{
    T_range = (TypeObj *)type_new_builtin("range", T_object, TID_RANGE, TPF_SEQUENCE);
    TypeObj *t = T_range;
    t->tp_repr = range_repr;
    t->tp_hash = range_hash;
    t->tp_richcompare = range_richcompare;
    t->tp_len = range_len_slot;
    t->tp_bool = range_bool;
    t->tp_getitem = range_getitem;
    t->tp_contains = range_contains;
    t->tp_iter = range_iter_slot;
    t->tp_new = range_tp_new;
    type_add_methods(t, range_methods);
    type_add_getset(t, "start", range_start_get, NULL);
    type_add_getset(t, "stop", range_stop_get, NULL);
    type_add_getset(t, "step", range_step_get, NULL);
    type_ready(t);

    T_slice = (TypeObj *)type_new_builtin("slice", T_object, TID_SLICE, 0);
    t = T_slice;
    t->tp_repr = slice_repr;
    t->tp_hash = slice_unhashable;
    t->tp_richcompare = slice_richcompare;
    t->tp_new = slice_tp_new;
    type_add_methods(t, slice_methods);
    type_add_getset(t, "start", slice_start_get, NULL);
    type_add_getset(t, "stop", slice_stop_get, NULL);
    type_add_getset(t, "step", slice_step_get, NULL);
    type_ready(t);
    type_set_attr_cstr(t, "__hash__", g_None);

    T_range_iterator = iter_make_type("range_iterator", range_iter_next, true);
    T_longrange_iterator = iter_make_type("longrange_iterator", range_iter_next, true);
    type_add_methods(T_range_iterator, range_iter_methods);
    type_add_methods(T_longrange_iterator, range_iter_methods);
}
