/* _operator: the C half of CPython's Lib/operator.py (which runs unchanged
 * over it): the operators as functions, each one C call into the same
 * abstract operations the eval loop uses (so map(operator.add, ...) or a
 * sort key runs no Python frame, and messages are the interpreter's own:
 * "'complex' object cannot be interpreted as an integer"). What this
 * module leaves out (abs, length_hint, attrgetter, itemgetter,
 * methodcaller, _abs) operator.py defines in Python. */
#include "modules.h"
#include "objects/objects.h"
#include "objects/numbers.h"
#include "objects/strobj.h"

/* Comparisons: the rich comparison's result object, as `a < b`. */
#define COMPARE_FN(name, op)                                        \
    static Obj op_##name(Obj *args, size_t nargs, Obj kwnames)      \
    {                                                               \
        (void)nargs;                                                \
        (void)kwnames;                                              \
        return vm_richcompare(args[0], args[1], op);                \
    }
COMPARE_FN(lt, CMP_LT)
COMPARE_FN(le, CMP_LE)
COMPARE_FN(eq, CMP_EQ)
COMPARE_FN(ne, CMP_NE)
COMPARE_FN(ge, CMP_GE)
COMPARE_FN(gt, CMP_GT)

/* Binary operators (a + b) and their in-place forms (a += b; the result). */
#define BINARY_FN(name, op)                                         \
    static Obj op_##name(Obj *args, size_t nargs, Obj kwnames)      \
    {                                                               \
        (void)nargs;                                                \
        (void)kwnames;                                              \
        return vm_binop(args[0], args[1], op);                      \
    }                                                               \
    static Obj op_i##name(Obj *args, size_t nargs, Obj kwnames)     \
    {                                                               \
        (void)nargs;                                                \
        (void)kwnames;                                              \
        return vm_inplace_binop(args[0], args[1], op);              \
    }
BINARY_FN(add, NB_ADD)
BINARY_FN(sub, NB_SUB)
BINARY_FN(mul, NB_MUL)
BINARY_FN(truediv, NB_TRUEDIV)
BINARY_FN(floordiv, NB_FLOORDIV)
BINARY_FN(mod, NB_MOD)
BINARY_FN(pow, NB_POW)
BINARY_FN(lshift, NB_LSHIFT)
BINARY_FN(rshift, NB_RSHIFT)
BINARY_FN(and, NB_AND)
BINARY_FN(or, NB_OR)
BINARY_FN(xor, NB_XOR)
BINARY_FN(matmul, NB_MATMUL)

#define UNARY_FN(name, op)                                          \
    static Obj op_##name(Obj *args, size_t nargs, Obj kwnames)      \
    {                                                               \
        (void)nargs;                                                \
        (void)kwnames;                                              \
        return vm_unaryop(args[0], op);                             \
    }
UNARY_FN(neg, UN_NEG)
UNARY_FN(pos, UN_POS)
UNARY_FN(inv, UN_INVERT)

static Obj op_not(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    int t = vm_is_true(args[0]);
    return t < 0 ? NULL : vm_bool(!t);
}

static Obj op_truth(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    int t = vm_is_true(args[0]);
    return t < 0 ? NULL : vm_bool(t);
}

static Obj op_is(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return vm_bool(args[0] == args[1]);
}

static Obj op_is_not(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return vm_bool(args[0] != args[1]);
}

static Obj op_index(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return vm_index(args[0]);
}

static Obj op_contains(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    int t = vm_contains(args[0], args[1]);
    return t < 0 ? NULL : vm_bool(t);
}

static Obj op_getitem(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return vm_getitem(args[0], args[1]);
}

static Obj op_setitem(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return vm_setitem(args[0], args[1], args[2]) < 0 ? NULL : g_None;
}

static Obj op_delitem(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return vm_delitem(args[0], args[1]) < 0 ? NULL : g_None;
}

/* CPython's sequence check: a __getitem__, and not a dict. */
static bool is_sequence(Obj v)
{
    return !IS_DICT(vm_unwrap(v)) && vm_lookup_special(v, "__getitem__");
}

/* The built-in sequences whose + is their concatenation. */
static bool has_concat(Obj v)
{
    Obj u = vm_unwrap(v);
    return IS_LIST(u) || IS_TUPLE(u) || IS_STR(u) || IS_BYTES(u) || TID(u) == TID_BYTEARRAY ||
           TID(u) == TID_DEQUE;
}

/* concat and iconcat: a + b (a += b) for sequences only. */
static Obj concat(Obj a, Obj b, bool inplace)
{
    if (has_concat(a) || (is_sequence(a) && is_sequence(b)))
        return inplace ? vm_inplace_binop(a, b, NB_ADD) : vm_binop(a, b, NB_ADD);
    err_format(E_TypeError, "'%s' object can't be concatenated", type_name(a));
    return NULL;
}

static Obj op_concat(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return concat(args[0], args[1], false);
}

static Obj op_iconcat(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return concat(args[0], args[1], true);
}

/* countOf and indexOf: walk seq for items that are b or equal b; with
 * `first`, stop at the first one and return its index. */
static Obj search(Obj seq, Obj b, bool first)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[1] = b;
    r[0] = vm_iter(seq);
    if (!r[0]) {
        if (err_matches(E_TypeError)) {
            err_clear();
            err_format(E_TypeError, "argument of type '%s' is not iterable", type_name(seq));
        }
        goto out;
    }
    int64_t n = 0, i = 0;
    for (;; i++) {
        r[2] = vm_next(r[0]);
        if (!r[2]) {
            if (err_occurred())
                goto out;
            break;
        }
        int eq = vm_equal(r[2], r[1]);
        if (eq < 0)
            goto out;
        if (eq && first) {
            res = int_from_i64(i);
            goto out;
        }
        n += eq;
    }
    if (first)
        err_set(E_ValueError, "sequence.index(x): x not in sequence");
    else
        res = int_from_i64(n);
out:
    vm_unroots(r);
    return res;
}

static Obj op_countOf(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return search(args[0], args[1], false);
}

static Obj op_indexOf(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return search(args[0], args[1], true);
}

#define F1(pyname, fn, doc) {pyname, fn, METH_ARGS(1, 1), doc}
#define F2(pyname, fn, doc) {pyname, fn, METH_ARGS(2, 2), doc}
#define FB(name, sym) F2(#name, op_##name, "Same as a " sym " b."), F2("i" #name, op_i##name, "Same as a " sym "= b.")
static const MethodDef operator_funcs[] = {
    F2("lt", op_lt, "Same as a < b."),
    F2("le", op_le, "Same as a <= b."),
    F2("eq", op_eq, "Same as a == b."),
    F2("ne", op_ne, "Same as a != b."),
    F2("ge", op_ge, "Same as a >= b."),
    F2("gt", op_gt, "Same as a > b."),
    FB(add, "+"),
    FB(sub, "-"),
    FB(mul, "*"),
    FB(truediv, "/"),
    FB(floordiv, "//"),
    FB(mod, "%"),
    FB(pow, "**"),
    FB(lshift, "<<"),
    FB(rshift, ">>"),
    F2("and_", op_and, "Same as a & b."),
    F2("iand", op_iand, "Same as a &= b."),
    F2("or_", op_or, "Same as a | b."),
    F2("ior", op_ior, "Same as a |= b."),
    FB(xor, "^"),
    FB(matmul, "@"),
    F1("neg", op_neg, "Same as -a."),
    F1("pos", op_pos, "Same as +a."),
    F1("inv", op_inv, "Same as ~a."),
    F1("invert", op_inv, "Same as ~a."),
    F1("not_", op_not, "Same as not a."),
    F1("truth", op_truth, "Return True if a is true, False otherwise."),
    F2("is_", op_is, "Same as a is b."),
    F2("is_not", op_is_not, "Same as a is not b."),
    F1("index", op_index, "Same as a.__index__()"),
    F2("contains", op_contains, "Same as b in a (note reversed operands)."),
    F2("getitem", op_getitem, "Same as a[b]."),
    {"setitem", op_setitem, METH_ARGS(3, 3), "Same as a[b] = c."},
    F2("delitem", op_delitem, "Same as del a[b]."),
    F2("concat", op_concat, "Same as a + b, for a and b sequences."),
    F2("iconcat", op_iconcat, "Same as a += b, for a and b sequences."),
    F2("countOf", op_countOf, "Return the number of items in a which are, or which equal, b."),
    F2("indexOf", op_indexOf, "Return the first index of b in a."),
    {NULL, NULL, 0, NULL},
};

Obj operator_module_init(void)
{
    Obj *r = vm_roots(2);
    r[0] = module_new("_operator");
    Obj m = r[0];
    if (m) {
        module_add_functions(r[0], operator_funcs);
        r[1] = str_from_cstr("Operator interface.\n\nThis module exports a set of functions implemented in C "
                             "corresponding\nto the intrinsic operators of Python.  For example, "
                             "operator.add(x, y)\nis equivalent to the expression x+y.  The function names "
                             "are those\nused for special methods; variants without leading and trailing\n"
                             "'__' are also provided for convenience.");
        m = r[1] && module_add(r[0], "__doc__", r[1]) == 0 ? r[0] : NULL;
    }
    vm_unroots(r);
    return m;
}
