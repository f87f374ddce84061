/* types.SimpleNamespace (sys.implementation): attributes in its dict, repr
 * namespace(a=1, ...); the class is made on first use, by calling type(). */
#include "containers.h"
#include "objects.h"

#include <stdlib.h>
#include <string.h>

static Obj g_namespace_type;

static Obj ns_init(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs > 1) {
        err_format(E_TypeError, "no positional arguments expected");
        return NULL;
    }
    int64_t nk = kwnames ? TUPLE_LEN(kwnames) : 0;
    Obj *r = vm_roots(1);
    r[0] = kwnames;   /* may be young: it follows moves here */
    for (int64_t i = 0; i < nk; i++)
        if (vm_setattr(args[0], TUPLE_ITEMS(r[0])[i], args[nargs + i]) < 0) {
            vm_unroots(r);
            return NULL;
        }
    vm_unroots(r);
    return g_None;
}

static Obj ns_repr(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = args[0];
    int rc = repr_enter(&r[0]);
    if (rc < 0)
        goto out;
    if (rc > 0) {
        res = str_from_cstr("namespace(...)");
        goto out;
    }
    r[1] = vm_getattr_cstr(r[0], "__dict__");
    if (!r[1] || !IS_DICT(r[1]) || !(r[2] = dict_items_list(r[1]))) {
        repr_leave();
        goto out;
    }
    StrBuf b;
    sb_init(&b);
    sb_adds(&b, "namespace(");
    for (int64_t i = 0; i < LIST_LEN(r[2]); i++) {
        Obj kv = LIST_ITEMS(r[2])[i];
        if (!IS_STR(TUPLE_ITEMS(kv)[0]))
            continue;
        if (!(r[3] = vm_repr(TUPLE_ITEMS(kv)[1]))) {
            sb_free(&b);
            repr_leave();
            goto out;
        }
        kv = LIST_ITEMS(r[2])[i];
        if (i)
            sb_adds(&b, ", ");
        sb_add_str(&b, TUPLE_ITEMS(kv)[0]);
        sb_addc(&b, '=');
        sb_add_str(&b, r[3]);
    }
    sb_addc(&b, ')');
    repr_leave();
    res = sb_finish(&b);
out:
    vm_unroots(r);
    return res;
}

static Obj ns_eq(Obj *args, size_t nargs, Obj kwnames)
{
    if (TYPE(args[0]) != TYPE(args[1]))
        return g_NotImplemented;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = vm_getattr_cstr(args[0], "__dict__");
    r[1] = r[0] ? vm_getattr_cstr(args[1], "__dict__") : NULL;
    if (r[1])
        res = vm_richcompare(r[0], r[1], CMP_EQ);
    vm_unroots(r);
    return res;
}

static const MethodDef ns_methods[] = {
    {"__init__", ns_init, METH_KW, NULL},
    {"__repr__", ns_repr, METH_NOARGS | METH_WRAPPER, NULL},
    {"__eq__", ns_eq, METH_O | METH_WRAPPER, NULL},
    {NULL, NULL, 0, NULL},
};

static Obj namespace_type(void)
{
    if (g_namespace_type)
        return g_namespace_type;
    /* A C global: only an inevitable transaction sets it (an aborted one's
     * class would be discarded), and only once. */
    vm_tx_become_inevitable();
    if (g_namespace_type)
        return g_namespace_type;
    Obj *r = vm_roots(4);
    r[0] = str_from_cstr("SimpleNamespace");
    r[1] = r[0] ? tuple_pack(1, (Obj)T_object) : NULL;
    r[2] = r[1] ? dict_new() : NULL;
    if (r[2] && (r[3] = str_from_cstr("types")) && dict_setitem_cstr(r[2], "__module__", r[3]) == 0 &&
        builtin_add_to_dict(r[2], ns_methods, T_object) == 0) {
        Obj cls = vm_call3((Obj)T_type, r[0], r[1], r[2]);
        if (cls)
            g_namespace_type = cls;
    }
    vm_unroots(r);
    return g_namespace_type;
}

Obj namespace_new(void)
{
    Obj t = namespace_type();
    return t ? vm_call0(t) : NULL;
}

/* Start-up (sys_init): the class is a global root. */
void namespace_init(void)
{
    VM_GLOBAL_ROOT(g_namespace_type);
}
