/* The atexit module: callables run at exit, last registered first. */
#include "modules.h"
#include "objects/containers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <stdio.h>
#include <stdlib.h>

static Obj g_atexit;   /* list of (func, args tuple, kwargs dict or None) */

static Obj ax_register(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs < 1) {
        err_set(E_TypeError, "register() takes at least 1 argument (0 given)");
        return NULL;
    }
    if (!vm_callable(args[0])) {
        err_set(E_TypeError, "the first argument must be callable");
        return NULL;
    }
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[3] = kwnames;
    r[0] = tuple_from_array(args + 1, (int64_t)nargs - 1);
    if (!r[0])
        goto out;
    r[1] = g_None;
    int64_t nk = kwnames ? TUPLE_LEN(kwnames) : 0;
    if (nk) {
        r[1] = dict_new();
        for (int64_t i = 0; r[1] && i < nk; i++)
            if (dict_setitem(r[1], TUPLE_ITEMS(r[3])[i], args[nargs + i]) < 0)
                r[1] = NULL;
        if (!r[1])
            goto out;
    }
    r[2] = tuple_pack(3, args[0], r[0], r[1]);
    if (!r[2])
        goto out;
    if (!g_atexit)
        goto out;
    if (list_append(g_atexit, r[2]) < 0)
        goto out;
    res = args[0];
out:
    vm_unroots(r);
    return res;
}

static Obj ax_unregister(Obj *args, size_t nargs, Obj kwnames)
{
    if (!g_atexit)
        return g_None;
    for (int64_t i = 0; i < LIST_LEN(g_atexit);) {
        Obj f = TUPLE_ITEMS(LIST_ITEMS(g_atexit)[i])[0];
        int eq = vm_equal(f, args[0]);
        if (eq < 0)
            return NULL;
        if (eq) {
            Obj v = list_pop(g_atexit, i);
            if (!v)
                return NULL;
        } else {
            i++;
        }
    }
    return g_None;
}

int atexit_run_callbacks(void)
{
    int failed = 0;
    while (g_atexit && LIST_LEN(g_atexit) > 0) {
        Obj *r = vm_roots(2);
        r[0] = list_pop(g_atexit, LIST_LEN(g_atexit) - 1);
        if (!r[0]) {
            err_clear();
            vm_unroots(r);
            break;
        }
        Obj kw = TUPLE_ITEMS(r[0])[2];
        Obj res = vm_call_tuple_dict(TUPLE_ITEMS(r[0])[0], TUPLE_ITEMS(r[0])[1], IS_NONE(kw) ? NULL : kw);
        if (!res) {
            failed = 1;
            r[1] = err_fetch();
            Obj rep = vm_repr(TUPLE_ITEMS(r[0])[0]);
            if (!rep)
                err_clear();
            if (file_flush(g_sys_stdout) < 0)
                err_clear();
            vm_errmsg("Exception ignored in atexit callback: %s\n", rep ? str_cstr(rep) : "<callback>");
            if (r[1])
                vm_print_exception(r[1]);
        }
        vm_unroots(r);
    }
    return failed ? -1 : 0;
}

static Obj ax_run_exitfuncs(Obj *args, size_t nargs, Obj kwnames)
{
    atexit_run_callbacks();
    return g_None;
}

static Obj ax_clear(Obj *args, size_t nargs, Obj kwnames)
{
    if (g_atexit)
        list_clear(g_atexit);
    return g_None;
}

static Obj ax_ncallbacks(Obj *args, size_t nargs, Obj kwnames)
{
    return MAKE_SMALLINT(g_atexit ? LIST_LEN(g_atexit) : 0);
}

static const MethodDef atexit_functions[] = {
    {"register", ax_register, METH_KW, NULL},
    {"unregister", ax_unregister, METH_O, NULL},
    {"_run_exitfuncs", ax_run_exitfuncs, METH_NOARGS, NULL},
    {"_clear", ax_clear, METH_NOARGS, NULL},
    {"_ncallbacks", ax_ncallbacks, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

Obj atexit_module_init(void)
{
    Obj *r = vm_roots(1);
    r[0] = module_new("atexit");
    if (r[0])
        module_add_functions(r[0], atexit_functions);   /* allocates: r[0] follows the module */
    Obj m = r[0];
    vm_unroots(r);
    return m;
}

/* Start-up: the callback list, a global root (made now: a root is written
 * only before threads start or by an inevitable transaction). */
void atexit_init(void)
{
    VM_GLOBAL_ROOT(g_atexit);
    g_atexit = list_new_capacity(4);
    if (!g_atexit) {
        fputs("tmpy: fatal: out of memory at start-up\n", stderr);
        exit(1);
    }
}
