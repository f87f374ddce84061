/* Type expressions: `int | None` (types.UnionType) and `list[int]`
 * (types.GenericAlias, with the substitution of its type variables), and
 * type[key] that makes them. */
#include "objects.h"
#include "strobj.h"

static TypeObj *T_union;
TypeObj *T_generic_alias;
static TypeObj *T_generic_alias_iterator;

bool is_generic_alias(Obj v) { return TID(v) == TID_ITER && type_is_subtype(TYPE(v), T_generic_alias); }

/* ------------------------------------------------------------------ */
/* int | None (types.UnionType)                                       */
/* ------------------------------------------------------------------ */

static bool union_arg_ok(Obj v)
{
    return v == g_None || IS_TYPE(v) || TYPE(v) == T_union || is_generic_alias(v);
}

Obj type_union_args(Obj u) { return TYPE(u) == T_union ? (ITER(u))->a : NULL; }

static int union_add(Obj list, Obj v)
{
    if (v == g_None)
        v = (Obj)T_NoneType;
    for (int64_t i = 0; i < LIST_LEN(list); i++)
        if (LIST_ITEMS(list)[i] == v)
            return 0;
    return list_append(list, v);
}

Obj type_or(Obj a, Obj b)
{
    if (!union_arg_ok(a) || !union_arg_ok(b))
        return g_NotImplemented;
    Obj *r = vm_roots(3);
    r[0] = a;
    r[1] = b;
    r[2] = list_new(0);
    Obj res = NULL;
    if (!r[2])
        goto out;
    for (int k = 0; k < 2; k++) {
        Obj x = r[k];
        if (TYPE(x) == T_union) {
            Obj args = (ITER(x))->a;
            for (int64_t i = 0; i < TUPLE_LEN(args); i++)
                if (union_add(r[2], TUPLE_ITEMS((ITER(r[k]))->a)[i]) < 0)
                    goto out;
        } else if (union_add(r[2], x) < 0) {
            goto out;
        }
    }
    if (LIST_LEN(r[2]) == 1) {
        res = LIST_ITEMS(r[2])[0];
        goto out;
    }
    Obj t = vm_tuple_from_iter(r[2]);
    if (!t)
        goto out;
    r[0] = t;
    Obj u = (Obj)tm_allocate(TID_ITER, sizeof(struct IterObj_));
    if (!u) {
        err_nomemory();
        goto out;
    }
    (ITER(u))->cls = (Obj)T_union;
    (ITER(u))->a = r[0];
    res = u;
out:
    vm_unroots(r);
    return res;
}

/* repr of a type argument as typing shows it: int, mod.C, ... */
static int repr_type_arg(StrBuf *b, Obj v)
{
    if (v == g_Ellipsis) {
        sb_adds(b, "...");
        return 0;
    }
    if (v == (Obj)T_NoneType || v == g_None) {
        sb_adds(b, "None");
        return 0;
    }
    if (IS_TYPE(v)) {
        TypeObj *t = (TypeObj *)v;
        Obj mod = type_module(t);
        if (mod && !str_eq(mod, NAME(builtins))) {
            sb_add_str(b, mod);
            sb_addc(b, '.');
        }
        sb_add_str(b, t->qualname ? t->qualname : t->name);
        return 0;
    }
    Obj s = vm_repr(v);
    if (!s)
        return -1;
    sb_add_str(b, s);
    return 0;
}

static Obj union_repr(Obj u)
{
    Obj *r = vm_roots(1);
    r[0] = (ITER(u))->a;
    StrBuf b;
    sb_init(&b);
    for (int64_t i = 0; i < TUPLE_LEN(r[0]); i++) {
        if (i)
            sb_adds(&b, " | ");
        if (repr_type_arg(&b, TUPLE_ITEMS(r[0])[i]) < 0) {
            sb_free(&b);
            vm_unroots(r);
            return NULL;
        }
    }
    vm_unroots(r);
    return sb_finish(&b);
}

static bool tuple_same_set(Obj a, Obj b)
{
    if (TUPLE_LEN(a) != TUPLE_LEN(b))
        return false;
    for (int64_t i = 0; i < TUPLE_LEN(a); i++) {
        bool found = false;
        for (int64_t j = 0; j < TUPLE_LEN(b) && !found; j++)
            found = TUPLE_ITEMS(a)[i] == TUPLE_ITEMS(b)[j];
        if (!found)
            return false;
    }
    return true;
}

static Obj union_richcompare(Obj a, Obj b, int op)
{
    if ((op != CMP_EQ && op != CMP_NE) || TYPE(b) != T_union)
        return g_NotImplemented;
    bool eq = tuple_same_set((ITER(a))->a, (ITER(b))->a);
    return vm_bool(op == CMP_EQ ? eq : !eq);
}

static int64_t union_hash(Obj u)
{
    Obj *r = vm_roots(1);
    r[0] = u;
    int64_t h = 0x345678;
    for (int64_t i = 0; i < TUPLE_LEN((ITER(r[0]))->a); i++)
        h ^= vm_identity_hash(TUPLE_ITEMS((ITER(r[0]))->a)[i]);
    vm_unroots(r);
    return h == -1 ? -2 : h;
}

static Obj union_args_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return (ITER(args[0]))->a;
}

/* ------------------------------------------------------------------ */
/* list[int] (types.GenericAlias)                                     */
/* ------------------------------------------------------------------ */
/* types.GenericAlias (list[int]): an IterObj whose a is the origin, b the
 * args tuple and kind 1 when starred (*tuple[int], what iterating an alias
 * gives); cls is GenericAlias or a Python subclass of it (which keeps this
 * layout: no instance dict, as collections.abc's uses __slots__ = ()). */
static bool ga_starred(Obj g) { return (ITER(g))->kind == 1; }

static Obj generic_alias_make_starred(Obj cls, Obj origin, Obj key, bool starred)
{
    Obj *r = vm_roots(3);
    r[0] = origin;
    r[1] = IS_TUPLE(key) ? key : tuple_pack(1, key);
    r[2] = cls;
    Obj res = NULL;
    if (!r[1])
        goto out;
    Obj g = (Obj)tm_allocate(TID_ITER, sizeof(struct IterObj_));
    if (!g) {
        err_nomemory();
        goto out;
    }
    (ITER(g))->cls = r[2];
    (ITER(g))->a = r[0];
    (ITER(g))->b = r[1];
    (ITER(g))->kind = starred;
    res = g;
out:
    vm_unroots(r);
    return res;
}

static Obj generic_alias_make(Obj cls, Obj origin, Obj key)
{
    return generic_alias_make_starred(cls, origin, key, false);
}

Obj generic_alias_new(Obj origin, Obj key) { return generic_alias_make((Obj)T_generic_alias, origin, key); }

/* iter(alias) yields the starred alias once: [*tuple[int]], Generic[*Ts].
 * The iterator (a = the alias until it is used) pickles as iter(alias). */
static Obj generic_alias_iter(Obj g) { return iter_alloc(T_generic_alias_iterator, g, 0); }

static Obj ga_iter_next(Obj it)
{
    Obj g = (ITER(it))->a;
    if (!g)
        return NULL;
    VM_WRITE(it);
    (ITER(it))->a = NULL;
    return generic_alias_make_starred((Obj)T_generic_alias, (ITER(g))->a, (ITER(g))->b, true);
}

static Obj ga_iter_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = (ITER(args[0]))->a;
    if ((r[0] = tuple_pack(1, r[0] ? r[0] : g_empty_tuple)) && (r[1] = vm_getattr_cstr(g_builtins_module, "iter")))
        res = tuple_pack(2, r[1], r[0]);
    vm_unroots(r);
    return res;
}

static const MethodDef ga_iter_methods[] = {
    {"__reduce__", ga_iter_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* GenericAlias(origin, args), also for subclasses. */
static Obj generic_alias_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (kwnames && TUPLE_LEN(kwnames)) {
        err_set(E_TypeError, "GenericAlias() takes no keyword arguments");
        return NULL;
    }
    if (nargs != 2) {
        err_format(E_TypeError, "GenericAlias expected 2 arguments, got %d", (int)nargs);
        return NULL;
    }
    return generic_alias_make(type, args[0], args[1]);
}

static Obj generic_alias_repr(Obj g)
{
    Obj *r = vm_roots(1);
    r[0] = g;
    StrBuf b;
    sb_init(&b);
    if (ga_starred(r[0]))
        sb_addc(&b, '*');
    if (repr_type_arg(&b, (ITER(r[0]))->a) < 0)
        goto fail;
    sb_addc(&b, '[');
    Obj args = (ITER(r[0]))->b;
    if (TUPLE_LEN(args) == 0)
        sb_adds(&b, "()");
    for (int64_t i = 0; i < TUPLE_LEN((ITER(r[0]))->b); i++) {
        if (i)
            sb_adds(&b, ", ");
        if (repr_type_arg(&b, TUPLE_ITEMS((ITER(r[0]))->b)[i]) < 0)
            goto fail;
    }
    sb_addc(&b, ']');
    vm_unroots(r);
    return sb_finish(&b);
fail:
    sb_free(&b);
    vm_unroots(r);
    return NULL;
}

/* Calling an alias calls its origin and, as CPython, records the alias as
 * the result's __orig_class__ where the result takes attributes. */
static Obj generic_alias_call(Obj g, Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    r[0] = g;
    Obj res = NULL;
    r[1] = vm_call((ITER(g))->a, args, nargs, kwnames);
    if (r[1]) {
        if (vm_setattr(r[1], vm_intern_cached("__orig_class__"), r[0]) < 0) {
            if (!err_matches(E_AttributeError) && !err_matches(E_TypeError))
                goto out;
            err_clear();
        }
        res = r[1];
    }
out:
    vm_unroots(r);
    return res;
}

/* The alias's own attributes (CPython's list); every other name is the origin's. */
static Obj generic_alias_getattro(Obj g, Obj name)
{
    static const char *const own[] = {"__class__", "__origin__", "__args__", "__unpacked__", "__parameters__",
                                      "__typing_unpacked_tuple_args__", "__mro_entries__", "__reduce_ex__",
                                      "__reduce__", "__copy__", "__deepcopy__", NULL};
    if (IS_STR(name)) {
        for (const char *const *p = own;; p++) {
            if (!*p)
                return vm_getattr((ITER(g))->a, name);
            if (str_eq_cstr(name, *p))
                break;
        }
    }
    return vm_generic_getattr(g, name);
}

static Obj ga_origin_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return (ITER(args[0]))->a;
}

static Obj ga_args_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return (ITER(args[0]))->b;
}

static Obj ga_unpacked_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return vm_bool(ga_starred(args[0]));
}

/* *tuple[int, str]: its args, which substitution spreads; None otherwise. */
static Obj ga_unpacked_tuple_args_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    if (ga_starred(args[0]) && (ITER(args[0]))->a == (Obj)T_tuple)
        return (ITER(args[0]))->b;
    return g_None;
}

/* Type variables are told apart by identity, as CPython does. */
static int64_t index_by_identity(Obj tuple, Obj v)
{
    for (int64_t i = 0; i < TUPLE_LEN(tuple); i++)
        if (TUPLE_ITEMS(tuple)[i] == v)
            return i;
    return -1;
}

static int append_new_by_identity(Obj list, Obj v)
{
    for (int64_t i = 0; i < LIST_LEN(list); i++)
        if (LIST_ITEMS(list)[i] == v)
            return 0;
    return list_append(list, v);
}

/* The type variables among args, in order, each once: an arg with
 * __typing_subst__ (a TypeVar), or the __parameters__ of an arg that has
 * them (another alias); classes are skipped. */
static Obj make_parameters(Obj args)
{
    Obj *r = vm_roots(4);   /* 0 args, 1 result list, 2 arg, 3 its parameters */
    Obj res = NULL;
    r[0] = args;
    if (!(r[1] = list_new_capacity(4)))
        goto out;
    for (int64_t i = 0; i < TUPLE_LEN(r[0]); i++) {
        r[2] = TUPLE_ITEMS(r[0])[i];
        if (IS_TYPE(r[2]))
            continue;
        Obj subst = vm_getattr_opt(r[2], vm_intern_cached("__typing_subst__"));
        if (!subst && err_occurred())
            goto out;
        if (subst) {
            if (append_new_by_identity(r[1], r[2]) < 0)
                goto out;
            continue;
        }
        r[3] = vm_getattr_opt(r[2], vm_intern_cached("__parameters__"));
        if (!r[3] && err_occurred())
            goto out;
        if (!r[3] || !IS_TUPLE(r[3]))
            continue;
        for (int64_t j = 0; j < TUPLE_LEN(r[3]); j++)
            if (append_new_by_identity(r[1], TUPLE_ITEMS(r[3])[j]) < 0)
                goto out;
    }
    res = vm_tuple_from_iter(r[1]);
out:
    vm_unroots(r);
    return res;
}

static Obj ga_parameters_get(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return make_parameters((ITER(args[0]))->b);
}

/* PEP 560: class C(list[int]) derives from list. */
static Obj ga_mro_entries(Obj *args, size_t nargs, Obj kwnames)
{
    return tuple_pack(1, (ITER(args[0]))->a);
}

static Obj ga_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = args[0];
    if (ga_starred(r[0])) {
        /* as CPython: next(iter(the alias unstarred)) */
        if ((r[1] = generic_alias_new((ITER(r[0]))->a, (ITER(r[0]))->b)) && (r[1] = generic_alias_iter(r[1])) &&
            (r[1] = tuple_pack(1, r[1])) && (r[0] = vm_getattr_cstr(g_builtins_module, "next")))
            res = tuple_pack(2, r[0], r[1]);
    } else if ((r[1] = tuple_pack(2, (ITER(r[0]))->a, (ITER(r[0]))->b)))
        res = tuple_pack(2, (Obj)TYPE(r[0]), r[1]);
    vm_unroots(r);
    return res;
}

/* The arguments of alias[key] as a tuple: key's items (key itself if not a
 * tuple), each unpacked tuple (*tuple[int, str], which has
 * __typing_unpacked_tuple_args__ not ending in ...) spread out. */
static Obj subst_items(Obj key)
{
    Obj *r = vm_roots(4);   /* 0 items, 1 result list, 2 item, 3 its unpacked args */
    Obj res = NULL;
    r[0] = IS_TUPLE(key) ? key : tuple_pack(1, key);
    if (!r[0] || !(r[1] = list_new_capacity(TUPLE_LEN(r[0]))))
        goto out;
    for (int64_t i = 0; i < TUPLE_LEN(r[0]); i++) {
        r[2] = TUPLE_ITEMS(r[0])[i];
        r[3] = IS_TYPE(r[2]) ? NULL : vm_getattr_opt(r[2], vm_intern_cached("__typing_unpacked_tuple_args__"));
        if (!r[3] && err_occurred())
            goto out;
        if (r[3] && IS_TUPLE(r[3]) &&
            !(TUPLE_LEN(r[3]) && TUPLE_ITEMS(r[3])[TUPLE_LEN(r[3]) - 1] == g_Ellipsis)) {
            for (int64_t j = 0; j < TUPLE_LEN(r[3]); j++)
                if (list_append(r[1], TUPLE_ITEMS(r[3])[j]) < 0)
                    goto out;
        } else if (list_append(r[1], r[2]) < 0)
            goto out;
    }
    res = vm_tuple_from_iter(r[1]);
out:
    vm_unroots(r);
    return res;
}

/* A parameter standing for several arguments (a TypeVarTuple: its type is
 * iterable) given a tuple of them. */
static bool spreads(Obj param, Obj arg)
{
    return IS_TUPLE(arg) && vm_lookup_type(TYPE(param), NAME(__iter__)) != NULL;
}

/* An arg that is not itself a type variable but has some (list[T]):
 * arg[its parameters replaced by the matching items]. */
static Obj subst_nested(Obj arg, Obj params, Obj items)
{
    Obj *r = vm_roots(6);   /* 0 arg, 1 params, 2 items, 3 its parameters, 4 new args, 5 one */
    Obj res = NULL;
    r[0] = arg;
    r[1] = params;
    r[2] = items;
    r[3] = vm_getattr_opt(arg, vm_intern_cached("__parameters__"));
    if (!r[3]) {
        if (!err_occurred())
            res = r[0];
        goto out;
    }
    if (!IS_TUPLE(r[3]) || TUPLE_LEN(r[3]) == 0) {
        res = r[0];
        goto out;
    }
    if (!(r[4] = list_new_capacity(TUPLE_LEN(r[3]))))
        goto out;
    for (int64_t i = 0; i < TUPLE_LEN(r[3]); i++) {
        Obj p = TUPLE_ITEMS(r[3])[i];
        int64_t k = index_by_identity(r[1], p);
        r[5] = k >= 0 ? TUPLE_ITEMS(r[2])[k] : p;
        if (k >= 0 && spreads(TUPLE_ITEMS(r[1])[k], r[5])) {
            for (int64_t j = 0; j < TUPLE_LEN(r[5]); j++)
                if (list_append(r[4], TUPLE_ITEMS(r[5])[j]) < 0)
                    goto out;
        } else if (list_append(r[4], r[5]) < 0)
            goto out;
    }
    if (!(r[4] = vm_tuple_from_iter(r[4])))
        goto out;
    res = vm_getitem(r[0], r[4]);
out:
    vm_unroots(r);
    return res;
}

/* alias[key]: each type variable among the args replaced by the matching
 * item (through its __typing_subst__), nested aliases substituted in turn;
 * the result is a plain GenericAlias of the same origin (CPython 3.11). */
static Obj ga_getitem(Obj g, Obj key)
{
    Obj *r = vm_roots(8);   /* 0 alias, 1 params, 2 key, 3 items, 4 new args, 5 arg, 6 subst, 7 new arg */
    Obj res = NULL;
    r[0] = g;
    r[2] = key;
    if (!(r[1] = make_parameters((ITER(r[0]))->b)))
        goto out;
    int64_t nparams = TUPLE_LEN(r[1]);
    if (nparams == 0) {
        Obj rep = generic_alias_repr(r[0]);
        if (rep)
            err_format(E_TypeError, "%s is not a generic class", str_cstr(rep));
        goto out;
    }
    /* The unpacked tuples among the items are spread, then a parameter may
     * reshape them (TypeVarTuple, ParamSpec). */
    if (!(r[2] = subst_items(r[2])))
        goto out;
    for (int64_t i = 0; i < nparams; i++) {
        r[6] = vm_getattr_opt(TUPLE_ITEMS(r[1])[i], vm_intern_cached("__typing_prepare_subst__"));
        if (!r[6]) {
            if (err_occurred())
                goto out;
            continue;
        }
        if (!(r[2] = vm_call2(r[6], r[0], r[2])))
            goto out;
        if (!IS_TUPLE(r[2]) && !(r[2] = tuple_pack(1, r[2])))
            goto out;
    }
    r[3] = r[2];
    int64_t nitems = TUPLE_LEN(r[3]);
    if (nitems != nparams) {
        Obj rep = generic_alias_repr(r[0]);
        if (rep)
            err_format(E_TypeError, "Too %s arguments for %s; actual %lld, expected %lld",
                       nitems > nparams ? "many" : "few", str_cstr(rep), (long long)nitems, (long long)nparams);
        goto out;
    }
    if (!(r[4] = list_new_capacity(TUPLE_LEN((ITER(r[0]))->b))))
        goto out;
    for (int64_t i = 0; i < TUPLE_LEN((ITER(r[0]))->b); i++) {
        r[5] = TUPLE_ITEMS((ITER(r[0]))->b)[i];
        if (IS_TYPE(r[5])) {
            if (list_append(r[4], r[5]) < 0)
                goto out;
            continue;
        }
        /* *Ts among the args: its substitution (a tuple) is spread. */
        Obj unpacked = vm_getattr_opt(r[5], vm_intern_cached("__typing_is_unpacked_typevartuple__"));
        int spread = 0;
        if (!unpacked && err_occurred())
            goto out;
        if (unpacked && (spread = vm_is_true(unpacked)) < 0)
            goto out;
        r[6] = vm_getattr_opt(r[5], vm_intern_cached("__typing_subst__"));
        if (!r[6] && err_occurred())
            goto out;
        if (r[6]) {
            int64_t k = index_by_identity(r[1], r[5]);
            r[7] = k >= 0 ? vm_call1(r[6], TUPLE_ITEMS(r[3])[k]) : r[5];
        } else
            r[7] = subst_nested(r[5], r[1], r[3]);
        if (!r[7])
            goto out;
        if (spread && IS_TUPLE(r[7])) {
            for (int64_t j = 0; j < TUPLE_LEN(r[7]); j++)
                if (list_append(r[4], TUPLE_ITEMS(r[7])[j]) < 0)
                    goto out;
        } else if (list_append(r[4], r[7]) < 0)
            goto out;
    }
    if (!(r[4] = vm_tuple_from_iter(r[4])))
        goto out;
    res = generic_alias_make_starred((Obj)T_generic_alias, (ITER(r[0]))->a, r[4], ga_starred(r[0]));
out:
    vm_unroots(r);
    return res;
}

static Obj generic_alias_richcompare(Obj a, Obj b, int op)
{
    if ((op != CMP_EQ && op != CMP_NE) || !is_generic_alias(b))
        return g_NotImplemented;
    Obj *r = vm_roots(2);
    r[0] = a;
    r[1] = b;
    Obj res = NULL;
    if (ga_starred(a) != ga_starred(b)) {
        vm_unroots(r);
        return vm_bool(op == CMP_NE);
    }
    int eq = vm_richcompare_bool((ITER(a))->a, (ITER(b))->a, CMP_EQ);
    if (eq > 0)
        eq = vm_richcompare_bool((ITER(r[0]))->b, (ITER(r[1]))->b, CMP_EQ);
    if (eq >= 0)
        res = vm_bool(op == CMP_EQ ? eq : !eq);
    vm_unroots(r);
    return res;
}

static int64_t generic_alias_hash(Obj g)
{
    Obj *r = vm_roots(1);
    r[0] = g;
    int64_t h = vm_hash((ITER(g))->b);
    if (h != -1) {
        int64_t h0 = vm_hash((ITER(r[0]))->a);
        h = h0 == -1 ? -1 : h ^ h0;
    }
    vm_unroots(r);
    return h == -1 && !err_occurred() ? -2 : h;
}

/* isinstance(x, list[int]) and issubclass(C, list[int]) are errors (the
 * alias is neither a type nor class-like), as in CPython. */
static Obj ga_instancecheck(Obj *args, size_t nargs, Obj kwnames)
{
    err_set(E_TypeError, "isinstance() argument 2 cannot be a parameterized generic");
    return NULL;
}

static Obj ga_subclasscheck(Obj *args, size_t nargs, Obj kwnames)
{
    err_set(E_TypeError, "issubclass() argument 2 cannot be a parameterized generic");
    return NULL;
}

static const MethodDef generic_alias_methods[] = {
    {"__instancecheck__", ga_instancecheck, METH_O, NULL},
    {"__subclasscheck__", ga_subclasscheck, METH_O, NULL},
    {"__mro_entries__", ga_mro_entries, METH_O, NULL},
    {"__reduce__", ga_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* type[key]: __class_getitem__, or a generic alias for the built-in containers. */
Obj type_subscript(Obj type, Obj key)
{
    Obj *r = vm_roots(2);
    r[0] = type;
    r[1] = key;
    Obj res = NULL;
    Obj f = vm_lookup_type((TypeObj *)type, NAME(__class_getitem__));
    if (f) {
        descrgetfunc g = TYPE(f)->tp_descr_get;
        Obj bound = g ? g(f, NULL, type) : f;
        if (bound)
            res = vm_call1(bound, r[1]);
        goto out;
    }
    TypeObj *t = (TypeObj *)type;
    /* (subclasses of the containers too: their __class_getitem__ is inherited in CPython; not of type) */
    if (type_is_subtype(t, T_list) || type_is_subtype(t, T_dict) || type_is_subtype(t, T_tuple) ||
        type_is_subtype(t, T_set) || type_is_subtype(t, T_frozenset) || t == T_type) {
        res = generic_alias_new(type, key);
        goto out;
    }
    err_format(E_TypeError, "type '%s' is not subscriptable", type_name_of_type(t));
out:
    vm_unroots(r);
    return res;
}

void genericalias_init_types(void)
{
    T_union = (TypeObj *)type_new_builtin("types.UnionType", T_object, TID_ITER, 0);
    T_union->tp_repr = union_repr;
    T_union->tp_richcompare = union_richcompare;
    T_union->tp_hash = union_hash;
    T_union->nb[NB_OR] = type_or;
    type_add_getset(T_union, "__args__", union_args_get, NULL);
    type_ready(T_union);

    T_generic_alias = (TypeObj *)type_new_builtin("types.GenericAlias", T_object, TID_ITER, TPF_BASETYPE);
    T_generic_alias->tp_new = generic_alias_tp_new;
    T_generic_alias->tp_getitem = ga_getitem;
    type_add_methods(T_generic_alias, generic_alias_methods);
    type_add_getset(T_generic_alias, "__origin__", ga_origin_get, NULL);
    type_add_getset(T_generic_alias, "__args__", ga_args_get, NULL);
    type_add_getset(T_generic_alias, "__parameters__", ga_parameters_get, NULL);
    type_add_getset(T_generic_alias, "__unpacked__", ga_unpacked_get, NULL);
    type_add_getset(T_generic_alias, "__typing_unpacked_tuple_args__", ga_unpacked_tuple_args_get, NULL);
    T_generic_alias->tp_iter = generic_alias_iter;
    T_generic_alias_iterator = iter_make_type("generic_alias_iterator", ga_iter_next, false);
    type_add_methods(T_generic_alias_iterator, ga_iter_methods);
    T_generic_alias->tp_repr = generic_alias_repr;
    T_generic_alias->tp_call = generic_alias_call;
    T_generic_alias->tp_getattro = generic_alias_getattro;
    T_generic_alias->tp_richcompare = generic_alias_richcompare;
    T_generic_alias->tp_hash = generic_alias_hash;
    T_generic_alias->nb[NB_OR] = type_or;
    type_ready(T_generic_alias);
}
