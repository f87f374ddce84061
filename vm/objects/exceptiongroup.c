/* BaseExceptionGroup and ExceptionGroup (PEP 654, as CPython 3.11): the
 * types (constructor rules, message/exceptions, split, subgroup, derive) and
 * the two steps of `except*` the eval loop calls: matching one clause
 * (exc_group_match) and combining what the clauses raised
 * (exc_group_prep_reraise). A group keeps (message, exceptions tuple) in its
 * `extra` field; `args` stays what the constructor was given. */
#include "objects.h"
#include "strobj.h"
#include "containers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TypeObj *E_BaseExceptionGroup, *E_ExceptionGroup;

bool exc_is_group(Obj v)
{
    return v && IS_EXCEPTION(v) && vm_isinstance_type(v, E_BaseExceptionGroup);
}

static Obj group_field(Obj self, int i)
{
    Obj x = EXCH(self)->extra;
    if (!x || !IS_TUPLE(x) || TUPLE_LEN(x) != 2)
        return NULL;
    return TUPLE_ITEMS(x)[i];
}

Obj exc_group_exceptions(Obj eg)
{
    return exc_is_group(eg) ? group_field(eg, 1) : NULL;
}

/* PySequence_Check: has __getitem__ and is not a mapping (dict). */
static bool is_sequence(Obj v)
{
    if (IS_LIST(v) || IS_TUPLE(v) || IS_STR(v))
        return true;
    if (vm_isinstance_type(v, T_dict))
        return false;
    return vm_lookup_special(v, "__getitem__") != NULL;
}

/* ------------------------------------------------------------------ */
/* Construction                                                       */
/* ------------------------------------------------------------------ */
static Obj eg_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    TypeObj *cls = (TypeObj *)type;
    if (kwnames && TUPLE_LEN(kwnames)) {
        err_format(E_TypeError, "%s() takes no keyword arguments", type_name_of_type(cls));
        return NULL;
    }
    if (nargs != 2) {
        err_format(E_TypeError, "BaseExceptionGroup.__new__() takes exactly 2 arguments (%zu given)", nargs);
        return NULL;
    }
    if (!IS_STR(args[0])) {
        err_format(E_TypeError, "BaseExceptionGroup.__new__() argument 1 must be str, not %s", type_name(args[0]));
        return NULL;
    }
    if (!is_sequence(args[1])) {
        err_set(E_TypeError, "second argument (exceptions) must be a sequence");
        return NULL;
    }
    /* r: 0 type, 1 exceptions tuple, 2 self, 3 tmp */
    Obj *r = vm_roots(4);
    r[0] = type;
    Obj res = NULL;
    r[1] = vm_tuple_from_iter(args[1]);
    if (!r[1])
        goto out;
    int64_t n = TUPLE_LEN(r[1]);
    if (n == 0) {
        err_set(E_ValueError, "second argument (exceptions) must be a non-empty sequence");
        goto out;
    }
    bool nested_base = false;
    for (int64_t i = 0; i < n; i++) {
        Obj e = TUPLE_ITEMS(r[1])[i];
        if (!IS_EXCEPTION(e) || !vm_isinstance_type(e, E_BaseException)) {
            err_format(E_ValueError, "Item %lld of second argument (exceptions) is not an exception", (long long)i);
            goto out;
        }
        if (!vm_isinstance_type(e, E_Exception))
            nested_base = true;
    }
    cls = (TypeObj *)r[0];
    if (cls == E_BaseExceptionGroup) {
        if (!nested_base)
            cls = E_ExceptionGroup;   /* every member is an Exception */
    } else if (cls == E_ExceptionGroup) {
        if (nested_base) {
            err_set(E_TypeError, "Cannot nest BaseExceptions in an ExceptionGroup");
            goto out;
        }
    } else if (nested_base && type_is_subtype(cls, E_Exception)) {
        err_format(E_TypeError, "Cannot nest BaseExceptions in '%s'", type_name_of_type(cls));
        goto out;
    }
    r[2] = instance_new(cls);
    if (!r[2])
        goto out;
    r[3] = tuple_pack(2, args[0], args[1]);
    if (!r[3])
        goto out;
    VM_WRITE(r[2]);
    EXCH(r[2])->args = r[3];
    r[3] = tuple_pack(2, args[0], r[1]);
    if (!r[3])
        goto out;
    VM_WRITE(r[2]);
    EXCH(r[2])->extra = r[3];
    res = r[2];
out:
    vm_unroots(r);
    return res;
}

/* __init__ keeps what it is given as args (BaseException's rule). */
static int eg_tp_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    if (kwnames && TUPLE_LEN(kwnames)) {
        err_format(E_TypeError, "%s() takes no keyword arguments", type_name(self));
        return -1;
    }
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj t = nargs ? tuple_from_array(args, (int64_t)nargs) : g_empty_tuple;
    if (t) {
        VM_WRITE(r[0]);
        EXCH(r[0])->args = t;
    }
    vm_unroots(r);
    return t ? 0 : -1;
}

/* BaseExceptionGroup(message, excs): an ExceptionGroup when all are Exceptions. */
static Obj make_group(Obj message, Obj excs)
{
    Obj *r = vm_roots(2);
    r[0] = message;
    r[1] = excs;
    Obj g = vm_call((Obj)E_BaseExceptionGroup, r, 2, NULL);
    vm_unroots(r);
    return g;
}

/* ------------------------------------------------------------------ */
/* Attributes, str, derive                                            */
/* ------------------------------------------------------------------ */
static Obj eg_message_get(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    Obj m = group_field(a[0], 0);
    return m ? m : g_None;
}

static Obj eg_exceptions_get(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    Obj m = group_field(a[0], 1);
    return m ? m : g_None;
}

static Obj eg_str(Obj self)
{
    Obj msg = group_field(self, 0), excs = group_field(self, 1);
    if (!msg || !IS_STR(msg) || !excs)
        return g_empty_str;
    int64_t n = TUPLE_LEN(excs);
    StrBuf b;
    sb_init(&b);
    sb_add_str(&b, msg);
    sb_printf(&b, " (%lld sub-exception%s)", (long long)n, n > 1 ? "s" : "");
    return sb_finish(&b);
}

static Obj eg_derive_m(Obj *args, size_t nargs, Obj kw)
{
    if (nargs != 2) {   /* CPython's PyArg_ParseTuple "O", unnamed */
        err_format(E_TypeError, "function takes exactly 1 argument (%zu given)", nargs - 1);
        return NULL;
    }
    Obj msg = group_field(args[0], 0);
    return make_group(msg ? msg : g_empty_str, args[1]);
}

/* ------------------------------------------------------------------ */
/* split / subgroup                                                   */
/* ------------------------------------------------------------------ */
enum { MATCH_BY_TYPE, MATCH_PREDICATE, MATCH_INSTANCES };

static bool is_exc_class(Obj v)
{
    return IS_TYPE(v) && type_is_subtype((TypeObj *)v, E_BaseException);
}

static int matcher_kind(Obj cond)
{
    if (vm_callable(cond) && !IS_TYPE(cond))
        return MATCH_PREDICATE;
    if (is_exc_class(cond))
        return MATCH_BY_TYPE;
    if (IS_TUPLE(cond)) {
        bool all = true;
        for (int64_t i = 0; i < TUPLE_LEN(cond); i++)
            if (!is_exc_class(TUPLE_ITEMS(cond)[i]))
                all = false;
        if (all)
            return MATCH_BY_TYPE;
    }
    err_set(E_TypeError, "expected a function, exception type or tuple of exception types");
    return -1;
}

/* 1, 0, -1 */
static int matches(Obj exc, int kind, Obj cond)
{
    switch (kind) {
    case MATCH_BY_TYPE:
        return err_given_matches(exc, cond) ? 1 : 0;
    case MATCH_PREDICATE: {
        Obj v = vm_call1(cond, exc);
        return v ? vm_is_true(v) : -1;
    }
    default:   /* a list of leaf exceptions, compared by identity */
        if (exc_is_group(exc))
            return 0;
        for (int64_t i = 0; i < LIST_LEN(cond); i++)
            if (LIST_ITEMS(cond)[i] == exc)
                return 1;
        return 0;
    }
}

/* orig.derive(excs) with orig's traceback, cause, context and a copy of its
 * notes (CPython's exceptiongroup_subset). */
static Obj derive_subset(Obj orig, Obj excs)
{
    Obj *r = vm_roots(3);
    r[0] = orig;
    Obj res = NULL;
    r[1] = vm_call_method1(orig, "derive", excs);
    if (!r[1])
        goto out;
    if (!exc_is_group(r[1])) {
        err_set(E_TypeError, "derive must return an instance of BaseExceptionGroup");
        goto out;
    }
    Obj tb = EXC(r[0])->traceback, cause = EXC(r[0])->cause, ctx = EXC(r[0])->context;
    VM_WRITE(r[1]);
    ExceptionObj *e = EXC(r[1]);
    e->traceback = tb;
    e->cause = cause;
    e->context = ctx;
    e->suppress_context = 1;   /* as PyException_SetCause, even with no cause */
    r[2] = vm_getattr_opt(r[0], NAME(__notes__));
    if (!r[2] && err_occurred())
        goto out;
    if (r[2] && is_sequence(r[2])) {
        r[2] = vm_list_from_iter(r[2]);   /* the parts get independent lists */
        if (!r[2] || vm_setattr(r[1], NAME(__notes__), r[2]) < 0)
            goto out;
    }
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

/* out[0] = the part of exc that matches, out[1] (if want_rest) the rest;
 * NULL where empty. out: two root slots. */
static int split_recursive(Obj exc, int kind, Obj cond, bool want_rest, Obj *out)
{
    out[0] = out[1] = NULL;
    if (vm_enter_recursive(" in exception group split") < 0)
        return -1;
    /* r: 0 exc, 1 cond, 2 match list, 3 rest list, 4-5 a member's parts */
    Obj *r = vm_roots(6);
    r[0] = exc;
    r[1] = cond;
    int rc = -1;
    int m = matches(r[0], kind, r[1]);   /* a predicate may run any code */
    if (m < 0)
        goto out;
    if (m || !exc_is_group(r[0])) {
        if (m)
            out[0] = r[0];
        else if (want_rest)
            out[1] = r[0];
        rc = 0;
        goto out;
    }
    r[2] = list_new(0);
    if (!r[2])
        goto out;
    r[3] = list_new(0);
    if (!r[3])
        goto out;
    for (int64_t i = 0;; i++) {
        Obj excs = group_field(r[0], 1);
        if (!excs || i >= TUPLE_LEN(excs))
            break;
        if (split_recursive(TUPLE_ITEMS(excs)[i], kind, r[1], want_rest, r + 4) < 0)
            goto out;
        if (r[4] && list_append(r[2], r[4]) < 0)
            goto out;
        if (r[5] && list_append(r[3], r[5]) < 0)
            goto out;
    }
    if (LIST_LEN(r[2])) {
        r[4] = derive_subset(r[0], r[2]);
        if (!r[4])
            goto out;
    } else {
        r[4] = NULL;
    }
    r[5] = NULL;
    if (want_rest && LIST_LEN(r[3])) {
        r[5] = derive_subset(r[0], r[3]);
        if (!r[5])
            goto out;
    }
    out[0] = r[4];
    out[1] = r[5];
    rc = 0;
out:
    vm_unroots(r);
    vm_leave_recursive();
    return rc;
}

static Obj eg_split_m(Obj *args, size_t nargs, Obj kw)
{
    int kind = matcher_kind(args[1]);
    if (kind < 0)
        return NULL;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    if (split_recursive(args[0], kind, args[1], true, r) == 0)
        res = tuple_pack(2, r[0] ? r[0] : g_None, r[1] ? r[1] : g_None);
    vm_unroots(r);
    return res;
}

static Obj eg_subgroup_m(Obj *args, size_t nargs, Obj kw)
{
    int kind = matcher_kind(args[1]);
    if (kind < 0)
        return NULL;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    if (split_recursive(args[0], kind, args[1], false, r) == 0)
        res = r[0] ? r[0] : g_None;
    vm_unroots(r);
    return res;
}

/* BaseExceptionGroup[T]: a generic alias, as for the built-in containers. */
static Obj eg_class_getitem_m(Obj *args, size_t nargs, Obj kw)
{
    return generic_alias_new(args[0], args[1]);
}

static const MethodDef eg_methods[] = {
    {"derive", eg_derive_m, METH_BARENAME, NULL},
    {"split", eg_split_m, METH_O | METH_UNPACKED | METH_BARENAME, NULL},
    {"subgroup", eg_subgroup_m, METH_O | METH_UNPACKED | METH_BARENAME, NULL},
    {"__class_getitem__", eg_class_getitem_m, METH_CLASS | METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* except*                                                            */
/* ------------------------------------------------------------------ */
int exc_group_check_star_type(Obj type)
{
    bool group = false;
    if (IS_TUPLE(type)) {
        for (int64_t i = 0; i < TUPLE_LEN(type); i++) {
            Obj t = TUPLE_ITEMS(type)[i];
            if (IS_TYPE(t) && type_is_subtype((TypeObj *)t, E_BaseExceptionGroup))
                group = true;
        }
    } else if (IS_TYPE(type) && type_is_subtype((TypeObj *)type, E_BaseExceptionGroup)) {
        group = true;
    }
    if (group) {
        err_set(E_TypeError, "catching ExceptionGroup with except* is not allowed. Use except instead.");
        return -1;
    }
    return 0;
}

int exc_group_match(Obj exc, Obj type, Obj *out)
{
    out[0] = out[1] = NULL;
    if (!exc || IS_NONE(exc))
        return 0;
    Obj *r = vm_roots(2);
    r[0] = exc;
    r[1] = type;
    int rc = -1;
    if (err_given_matches(r[0], r[1])) {
        if (exc_is_group(r[0])) {
            out[0] = r[0];
        } else {
            /* a naked exception: wrapped in a group of its own */
            r[1] = tuple_pack(1, r[0]);
            if (!r[1] || !(out[0] = make_group(g_empty_str, r[1])))
                goto out;
        }
        rc = 0;
        goto out;
    }
    if (!exc_is_group(r[0])) {
        rc = 0;
        goto out;
    }
    Obj pair = vm_call_method1(r[0], "split", r[1]);
    if (!pair)
        goto out;
    if (TID(pair) != TID_TUPLE || TUPLE_LEN(pair) != 2) {
        err_format(E_TypeError, "%s.split must return a 2-tuple, got %s", type_name(r[0]), type_name(pair));
        goto out;
    }
    out[0] = IS_NONE(TUPLE_ITEMS(pair)[0]) ? NULL : TUPLE_ITEMS(pair)[0];
    out[1] = TUPLE_ITEMS(pair)[1];
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* Leaves of exc (itself if not a group) appended to list. */
static int collect_leaves(Obj exc, Obj list)
{
    if (!exc_is_group(exc))
        return list_append(list, exc);
    if (vm_enter_recursive(" in exception group leaves") < 0)
        return -1;
    Obj *r = vm_roots(2);
    r[0] = exc;
    r[1] = list;
    int rc = 0;
    for (int64_t i = 0; rc == 0; i++) {
        Obj excs = group_field(r[0], 1);
        if (!excs || i >= TUPLE_LEN(excs))
            break;
        rc = collect_leaves(TUPLE_ITEMS(excs)[i], r[1]);
    }
    vm_unroots(r);
    vm_leave_recursive();
    return rc;
}

static Obj notes_of(Obj e)
{
    Obj d = EXC(e)->dict;
    return d && IS_DICT(d) ? dict_getitem_str(d, NAME(__notes__)) : NULL;
}

/* A re-raise keeps the original's traceback, cause, context and notes. */
static bool same_metadata(Obj a, Obj b)
{
    ExceptionObj *x = EXC(a);
    Obj tb = x->traceback, cause = x->cause, ctx = x->context;
    ExceptionObj *y = EXC(b);
    return tb == y->traceback && cause == y->cause && ctx == y->context && notes_of(a) == notes_of(b);
}

Obj exc_group_prep_reraise(Obj orig, Obj raised)
{
    /* r: 0 orig, 1 raised, 2 new ones, 3 re-raised ones, 4 leaves, 5-6 split */
    Obj *r = vm_roots(7);
    r[0] = orig;
    r[1] = raised;
    Obj res = NULL;
    if (!exc_is_group(orig)) {
        /* a naked exception was wrapped: one clause at most ran */
        res = g_None;
        for (int64_t i = 0; i < LIST_LEN(r[1]); i++)
            if (!IS_NONE(LIST_ITEMS(r[1])[i])) {
                res = LIST_ITEMS(r[1])[i];
                break;
            }
        goto out;
    }
    if (!(r[2] = list_new(0)) || !(r[3] = list_new(0)) || !(r[4] = list_new(0)))
        goto out;
    for (int64_t i = 0; i < LIST_LEN(r[1]); i++) {
        Obj e = LIST_ITEMS(r[1])[i];
        if (IS_NONE(e))
            continue;
        bool again = IS_EXCEPTION(e) && same_metadata(e, r[0]);
        if (list_append(again ? r[3] : r[2], e) < 0)
            goto out;
    }
    /* the re-raised parts, in the original's shape */
    for (int64_t i = 0; i < LIST_LEN(r[3]); i++)
        if (collect_leaves(LIST_ITEMS(r[3])[i], r[4]) < 0)
            goto out;
    r[5] = NULL;
    if (LIST_LEN(r[4]) && split_recursive(r[0], MATCH_INSTANCES, r[4], false, r + 5) < 0)
        goto out;
    if (LIST_LEN(r[2]) == 0) {
        res = r[5] ? r[5] : g_None;
        goto out;
    }
    if (r[5] && list_append(r[2], r[5]) < 0)
        goto out;
    if (LIST_LEN(r[2]) > 1)
        res = make_group(g_empty_str, r[2]);
    else
        res = LIST_ITEMS(r[2])[0];
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* The types                                                          */
/* ------------------------------------------------------------------ */
void exception_groups_init(void)
{
    TypeObj *b = (TypeObj *)type_new_builtin("BaseExceptionGroup", E_BaseException, TID_EXCEPTION,
                                             TPF_BASETYPE | TPF_HAS_DICT);
    E_BaseExceptionGroup = b;
    b->tp_new = eg_tp_new;
    b->tp_init = eg_tp_init;
    b->tp_str = eg_str;
    type_add_methods(b, eg_methods);
    type_add_member(b, "message", eg_message_get, NULL, "exception message");
    type_add_member(b, "exceptions", eg_exceptions_get, NULL, "nested exceptions");
    type_ready(b);
    type_set_attr_cstr(b, "__doc__", str_from_cstr("A combination of multiple unrelated exceptions."));

    /* ExceptionGroup(BaseExceptionGroup, Exception): two bases, CPython's MRO */
    TypeObj *e = (TypeObj *)type_new_builtin("ExceptionGroup", b, TID_EXCEPTION, TPF_BASETYPE | TPF_HAS_DICT);
    E_ExceptionGroup = e;
    Obj *r = vm_roots(1);
    r[0] = tuple_pack(2, (Obj)b, (Obj)E_Exception);
    Obj mro = r[0] ? tuple_new(5) : NULL;
    Obj bases = r[0];
    vm_unroots(r);
    if (!mro) {
        fprintf(stderr, "tmpy: out of memory at start-up\n");
        exit(1);
    }
    TUPLE_ITEMS(mro)[0] = (Obj)e;
    TUPLE_ITEMS(mro)[1] = (Obj)b;
    TUPLE_ITEMS(mro)[2] = (Obj)E_Exception;
    TUPLE_ITEMS(mro)[3] = (Obj)E_BaseException;
    TUPLE_ITEMS(mro)[4] = (Obj)T_object;
    VM_WRITE_RARE(e);
    e->bases = bases;
    e->mro = mro;
    type_ready(e);
    type_set_attr_cstr(e, "__doc__", g_None);
}
