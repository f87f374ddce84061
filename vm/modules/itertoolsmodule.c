/* _itertools: the C half of lib/itertools.py, itertools.count.
 *
 * itertools.count: a CountObj, the next value and the step.
 * next() reads the value and stores value + step in one C call with no
 * yield point inside, so threads sharing a counter never get a value twice
 * or skip one (atomic under the GIL, one transaction under the STM; a
 * user-defined __add__ runs Python, as in CPython). As CPython, an int
 * start with a step of int 1 is kept as an exact int (count(True) counts
 * 1, 2, ...); other starts are kept as given. */
#include "modules.h"
#include "objects/containers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <stdio.h>

TypeObj *T_count;

/* CPython's PyNumber_Check: __index__, __int__ or __float__, or a complex. */
static bool is_number(Obj v)
{
    Obj u = vm_unwrap(v);
    if (IS_INT(u) || IS_FLOAT(u) || IS_COMPLEX(u))
        return true;
    return vm_lookup_special(v, "__index__") || vm_lookup_special(v, "__int__") ||
           vm_lookup_special(v, "__float__");
}

/* An int (bool and subclasses included) equal to 1. */
static bool is_int_one(Obj v)
{
    Obj u = vm_unwrap(v);
    if (IS_SMALLINT(u))
        return SMALLINT_VAL(u) == 1;
    if (TID(u) == TID_BOOL)
        return ((BoolObj *)u)->value == 1;
    return false;   /* a big int is never 1 */
}

static Obj count_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"start", "step", NULL};
    size_t nkw = kwnames ? (size_t)TUPLE_LEN(kwnames) : 0;
    for (size_t i = 0; i < nkw; i++) {
        Obj k = TUPLE_ITEMS(kwnames)[i];
        if (!str_eq_cstr(k, "start") && !str_eq_cstr(k, "step")) {
            char name[128];
            snprintf(name, sizeof name, "%s", str_cstr(k));   /* a C copy: err_format allocates */
            err_format(E_TypeError, "'%s' is an invalid keyword argument for count()", name);
            return NULL;
        }
    }
    Obj *a = vm_roots(3);   /* start, step, the type (a subclass may move: __index__ runs Python) */
    Obj res = NULL;
    a[2] = type;
    if (vm_parse_args("count", args, nargs, kwnames, names, 0, 2, a) < 0)
        goto out;
    if (!a[0])
        a[0] = MAKE_SMALLINT(0);
    if (!a[1])
        a[1] = MAKE_SMALLINT(1);
    if (!is_number(a[0]) || !is_number(a[1])) {
        err_set(E_TypeError, "a number is required");
        goto out;
    }
    if (IS_INT(vm_unwrap(a[0])) && is_int_one(a[1])) {
        a[0] = vm_index(a[0]);   /* the exact int */
        if (!a[0])
            goto out;
        a[1] = MAKE_SMALLINT(1);
    }
    Obj c = tm_allocate(TID_COUNTER, sizeof(struct CountObj_));
    if (!c) {
        err_nomemory();
        goto out;
    }
    COUNTOBJ(c)->value = a[0];
    COUNTOBJ(c)->step = a[1];
    res = container_wrap_for_type(T_count, a[2], c);   /* a subclass: an instance around it */
out:
    vm_unroots(a);
    return res;
}

static Obj count_next(Obj self)
{
    Obj *r = vm_roots(2);
    r[0] = self = vm_unwrap(self);
    r[1] = COUNTOBJ(self)->value;
    Obj step = COUNTOBJ(self)->step;
    Obj next = IS_SMALLINT(r[1]) && IS_SMALLINT(step) ? int_add(r[1], step) : vm_binop(r[1], step, NB_ADD);
    Obj res = NULL;
    if (next) {
        VM_WRITE(r[0]);
        COUNTOBJ(r[0])->value = next;
        res = r[1];
    }
    vm_unroots(r);
    return res;
}

static Obj count_repr(Obj self)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = self;
    r[1] = vm_repr(COUNTOBJ(vm_unwrap(self))->value);
    if (!r[1])
        goto out;
    if (!is_int_one(COUNTOBJ(vm_unwrap(r[0]))->step)) {
        r[2] = vm_repr(COUNTOBJ(vm_unwrap(r[0]))->step);
        if (!r[2])
            goto out;
    }
    StrBuf b;
    sb_init(&b);
    sb_add_str(&b, TYPE(r[0])->name);
    sb_addc(&b, '(');
    sb_add_str(&b, r[1]);
    if (r[2]) {
        sb_adds(&b, ", ");
        sb_add_str(&b, r[2]);
    }
    sb_addc(&b, ')');
    res = sb_finish(&b);
out:
    vm_unroots(r);
    return res;
}

void count_init_type(void)
{
    T_count = (TypeObj *)type_new_builtin("itertools.count", T_object, TID_COUNTER, TPF_BASETYPE);
    TypeObj *t = T_count;
    VM_WRITE(t);
    t->tp_iter = iter_self;
    t->tp_iternext = count_next;
    t->tp_repr = count_repr;
    t->tp_new = count_new;
    type_ready(t);
}


Obj itertools_module_init(void)
{
    Obj *r = vm_roots(1);
    r[0] = module_new("_itertools");
    Obj m = r[0];
    if (m && module_add(r[0], "count", (Obj)T_count) < 0)
        m = NULL;
    else
        m = r[0];   /* it may have moved */
    vm_unroots(r);
    return m;
}
