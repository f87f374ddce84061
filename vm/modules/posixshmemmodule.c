/* The _posixshmem module: shm_open and shm_unlink, what CPython's
 * multiprocessing.shared_memory maps its blocks with. */
#define _GNU_SOURCE
#include "eval.h"
#include "modules.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The path argument as a malloc'd C string (a str, as CPython's). */
static char *path_arg(Obj v, const char *fname)
{
    Obj u = vm_unwrap(v);
    if (!IS_STR(u)) {
        err_format(E_TypeError, "%s() argument 'path' must be str, not %s", fname, type_name(v));
        return NULL;
    }
    char *c = strdup(str_cstr(u));
    if (!c)
        err_nomemory();
    return c;
}

/* shm_open(path, flags, mode=0o777) -> fd */
static Obj shm_open_fn(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"path", "flags", "mode", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    int64_t flags, mode = 0777;
    char *path = NULL;
    if (vm_parse_args("shm_open", args, nargs, kwnames, names, 2, 3, a) < 0 ||
        !(path = path_arg(a[0], "shm_open")) || vm_index_i64(a[1], &flags) < 0 ||
        (a[2] && vm_index_i64(a[2], &mode) < 0))
        goto out;
    vm_tx_become_inevitable();   /* a file made is not undone */
    int fd;
    do
        fd = shm_open(path, (int)flags, (mode_t)mode);
    while (fd < 0 && errno == EINTR && vm_signals_check() == 0);
    if (fd < 0) {
        if (errno != EINTR) {
            Obj *n = vm_roots(1);
            n[0] = a[0];
            err_from_errno(errno, n[0]);
            vm_unroots(n);
        }
        goto out;
    }
    res = int_from_i64(fd);
out:
    free(path);
    vm_unroots(a);
    return res;
}

/* shm_unlink(path) */
static Obj shm_unlink_fn(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"path", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    char *path = NULL;
    if (vm_parse_args("shm_unlink", args, nargs, kwnames, names, 1, 1, a) < 0 || !(path = path_arg(a[0], "shm_unlink")))
        goto out;
    vm_tx_become_inevitable();
    if (shm_unlink(path) < 0) {
        err_from_errno(errno, a[0]);
        goto out;
    }
    res = g_None;
out:
    free(path);
    vm_unroots(a);
    return res;
}

static const MethodDef posixshmem_functions[] = {
    {"shm_open", shm_open_fn, METH_KW, "Open a shared memory object.  Returns a file descriptor (integer)."},
    {"shm_unlink", shm_unlink_fn, METH_KW, "Remove a shared memory object (similar to unlink())."},
    {NULL, NULL, 0, NULL},
};

Obj posixshmem_module_init(void)
{
    Obj *r = vm_roots(1);
    r[0] = module_new("_posixshmem");
    if (r[0])
        module_add_functions(r[0], posixshmem_functions);   /* may move the module: read it back from its root */
    Obj m = r[0];
    vm_unroots(r);
    return m;
}
