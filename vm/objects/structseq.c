/* Struct sequences: tuple subclasses with named fields (sys.version_info,
 * time.struct_time, os.stat_result), made by calling type() at start-up. */
#include "objects.h"

#include <stdlib.h>
#include <string.h>

static Obj structseq_field(Obj self, int i)
{
    Obj t = vm_unwrap(self);
    if (IS_TUPLE(t) && i < TUPLE_LEN(t))
        return TUPLE_ITEMS(t)[i];
    return vm_getitem(self, MAKE_SMALLINT(i));
}

#define SS_GETTER(i) \
    static Obj ss_get##i(Obj *args, size_t nargs, Obj kwnames) \
    { (void)nargs; (void)kwnames; return structseq_field(args[0], i); }
SS_GETTER(0) SS_GETTER(1) SS_GETTER(2) SS_GETTER(3) SS_GETTER(4) SS_GETTER(5)
SS_GETTER(6) SS_GETTER(7) SS_GETTER(8) SS_GETTER(9) SS_GETTER(10) SS_GETTER(11)
SS_GETTER(12) SS_GETTER(13) SS_GETTER(14) SS_GETTER(15) SS_GETTER(16) SS_GETTER(17)
SS_GETTER(18) SS_GETTER(19)
static const cfunc ss_getters[] = {
    ss_get0, ss_get1, ss_get2, ss_get3, ss_get4, ss_get5, ss_get6, ss_get7, ss_get8, ss_get9,
    ss_get10, ss_get11, ss_get12, ss_get13, ss_get14, ss_get15, ss_get16, ss_get17, ss_get18, ss_get19,
};

/* repr: module.name(field=value, ...) for the named fields. */
static Obj ss_repr(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = vm_getattr_cstr((Obj)TYPE(r[0]), "_structseq_fields");
    if (!r[1] || !IS_TUPLE(r[1]))
        goto out;
    r[2] = vm_getattr_cstr((Obj)TYPE(r[0]), "_structseq_name");
    if (!r[2] || !IS_STR(r[2]))
        goto out;
    StrBuf b;
    sb_init(&b);
    sb_add_str(&b, r[2]);
    sb_addc(&b, '(');
    for (int64_t i = 0; i < TUPLE_LEN(r[1]); i++) {
        Obj v = structseq_field(r[0], (int)i);
        if (!v || !(r[3] = vm_repr(v))) {
            sb_free(&b);
            goto out;
        }
        if (i)
            sb_adds(&b, ", ");
        sb_add_str(&b, TUPLE_ITEMS(r[1])[i]);
        sb_addc(&b, '=');
        sb_add_str(&b, r[3]);
    }
    sb_addc(&b, ')');
    res = sb_finish(&b);
out:
    vm_unroots(r);
    return res;
}

static int64_t ss_class_int(Obj cls, const char *name)
{
    Obj v = vm_getattr_cstr(cls, name);
    int64_t n = -1;
    if (v && int_as_i64(v, &n) < 0)
        return -1;
    return n;
}

/* __new__(cls, sequence, dict=None) of a struct sequence with fields past
 * its sequence part (time.struct_time's tm_zone and tm_gmtoff): the
 * sequence gives n_sequence_fields to n_fields items, the rest are taken
 * from dict, or None. */
static Obj ss_new(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"sequence", "dict", NULL};
    enum { MAXF = (int)ARRAY_LEN(ss_getters) };
    Obj *a = vm_roots(2 + 4 + MAXF);
    Obj *r = a + 2, *items = a + 6, res = NULL;
    r[0] = args[0];
    if (vm_parse_args("structseq", args + 1, nargs - 1, kwnames, names, 1, 2, a) < 0)
        goto out;
    int64_t nseq = ss_class_int(r[0], "n_sequence_fields"), nf = ss_class_int(r[0], "n_fields");
    if (nseq < 0 || nf < nseq || nf > MAXF)
        goto out;
    if (!(r[1] = vm_call1((Obj)T_tuple, a[0]))) {
        if (err_matches(E_TypeError)) {
            err_clear();
            err_set(E_TypeError, "constructor requires a sequence");
        }
        goto out;
    }
    if (!(r[2] = vm_getattr_cstr(r[0], "_structseq_name")) ||
        !(r[3] = vm_getattr_cstr(r[0], "_structseq_extra")) || !IS_TUPLE(r[3]))
        goto out;
    int64_t len = TUPLE_LEN(r[1]);
    if (len < nseq || len > nf) {
        const char *what = nseq == nf ? "a" : len < nseq ? "an at least" : "an at most";
        err_format(E_TypeError, "%s() takes %s %lld-sequence (%lld-sequence given)", str_cstr(r[2]), what,
                   (long long)(len < nseq ? nseq : nf), (long long)len);
        goto out;
    }
    if (a[1] && !IS_NONE(a[1]) && !IS_DICT(vm_unwrap(a[1]))) {
        err_format(E_TypeError, "%s() takes a dict as second arg, if any", str_cstr(r[2]));
        goto out;
    }
    for (int64_t i = 0; i < len; i++)
        items[i] = TUPLE_ITEMS(r[1])[i];
    for (int64_t i = len; i < nf; i++) {
        Obj v = NULL;
        if (a[1] && !IS_NONE(a[1]) && !(v = dict_getitem(vm_unwrap(a[1]), TUPLE_ITEMS(r[3])[i - nseq])) &&
            err_occurred())
            goto out;
        items[i] = v ? v : g_None;
    }
    if (!(r[1] = tuple_from_array(items, nseq)) ||
        !(r[2] = vm_getattr_cstr((Obj)T_tuple, "__new__")) || !(res = vm_call2(r[2], r[0], r[1])))
        goto out;
    r[1] = res;
    for (int64_t i = nseq; i < nf; i++) {
        if (vm_setattr(r[1], TUPLE_ITEMS(r[3])[i - nseq], items[i]) < 0) {
            res = NULL;
            goto out;
        }
    }
    res = r[1];
out:
    vm_unroots(a);
    return res;
}

/* __reduce__: (cls, (the sequence part, {the other fields})) */
static Obj ss_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(5);
    Obj res = NULL;
    r[0] = args[0];
    if (!(r[1] = vm_getattr_cstr((Obj)TYPE(r[0]), "_structseq_extra")) || !IS_TUPLE(r[1]) ||
        !(r[2] = dict_new()))
        goto out;
    for (int64_t i = 0; i < TUPLE_LEN(r[1]); i++) {
        if (!(r[3] = vm_getattr(r[0], TUPLE_ITEMS(r[1])[i])))
            goto out;
        if (dict_setitem(r[2], TUPLE_ITEMS(r[1])[i], r[3]) < 0)
            goto out;
    }
    if ((r[3] = vm_call1((Obj)T_tuple, r[0])) && (r[3] = tuple_pack(2, r[3], r[2])))
        res = tuple_pack(2, (Obj)TYPE(r[0]), r[3]);
out:
    vm_unroots(r);
    return res;
}

static const MethodDef ss_methods[] = {
    {"__repr__", ss_repr, METH_NOARGS | METH_WRAPPER, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef ss_extra_methods[] = {
    {"__new__", ss_new, METH_STATIC | METH_KW, NULL},
    {"__reduce__", ss_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

Obj structseq_new_type(const char *module, const char *name, const char *const *fields, int n, int ngetters)
{
    return structseq_new_type_extra(module, name, fields, n, ngetters, NULL, 0);
}

Obj structseq_new_type_extra(const char *module, const char *name, const char *const *fields, int n, int ngetters,
                             const char *const *extra, int nextra)
{
    if (n > (int)ARRAY_LEN(ss_getters))
        n = (int)ARRAY_LEN(ss_getters);
    if (ngetters > n)
        ngetters = n;
    if (n + nextra > (int)ARRAY_LEN(ss_getters))
        nextra = (int)ARRAY_LEN(ss_getters) - n;
    Obj *r = vm_roots(5);
    Obj cls = NULL;
    r[0] = str_from_cstr(name);
    r[1] = r[0] ? tuple_pack(1, (Obj)T_tuple) : NULL;
    r[2] = r[1] ? dict_new() : NULL;
    if (!r[2] || !(r[3] = str_from_cstr(module)) || dict_setitem_cstr(r[2], "__module__", r[3]) < 0)
        goto out;
    /* the repr's name: a builtins type goes unqualified, as in CPython */
    r[3] = strcmp(module, "builtins") == 0 ? str_from_cstr(name) : str_from_format("%s.%s", module, name);
    if (!r[3] || dict_setitem_cstr(r[2], "_structseq_name", r[3]) < 0)
        goto out;
    if (!(r[3] = tuple_new(n)))
        goto out;
    for (int i = 0; i < n; i++) {
        Obj s = str_intern_cstr(fields[i]);
        if (!s)
            goto out;
        VM_WRITE(r[3]);
        TUPLE_ITEMS(r[3])[i] = s;
    }
    if (dict_setitem_cstr(r[2], "_structseq_fields", r[3]) < 0 ||
        dict_setitem_cstr(r[2], "n_sequence_fields", MAKE_SMALLINT(n)) < 0 ||
        dict_setitem_cstr(r[2], "n_fields", MAKE_SMALLINT(n + nextra)) < 0 ||
        dict_setitem_cstr(r[2], "n_unnamed_fields", MAKE_SMALLINT(0)) < 0)
        goto out;
    /* methods go in the namespace so the class's slots use them */
    if (builtin_add_to_dict(r[2], ss_methods, T_tuple) < 0)
        goto out;
    if (nextra) {
        if (!(r[3] = tuple_new(nextra)))
            goto out;
        for (int i = 0; i < nextra; i++) {
            Obj s = str_intern_cstr(extra[i]);
            if (!s)
                goto out;
            VM_WRITE(r[3]);
            TUPLE_ITEMS(r[3])[i] = s;
        }
        if (dict_setitem_cstr(r[2], "_structseq_extra", r[3]) < 0 ||
            builtin_add_to_dict(r[2], ss_extra_methods, T_tuple) < 0)
            goto out;
    }
    r[4] = vm_call3((Obj)T_type, r[0], r[1], r[2]);
    if (!r[4])
        goto out;
    for (int i = 0; i < ngetters; i++)
        type_add_getset((TypeObj *)r[4], fields[i], ss_getters[i], NULL);
    cls = r[4];
out:
    vm_unroots(r);
    return cls;
}

Obj structseq_new(Obj type, Obj *items, int n)
{
    Obj *r = vm_roots(2);
    r[0] = type;
    r[1] = tuple_from_array(items, n);
    Obj res = r[1] ? vm_call1(r[0], r[1]) : NULL;
    vm_unroots(r);
    return res;
}
