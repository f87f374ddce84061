/* The select module: select() and poll objects (what selectors'
 * PollSelector and subprocess's communicate() use). select() runs on
 * poll(2), so any fd number works. The wait is a blocking call: the thread
 * commits (STM) or hands the GIL on before it waits; a signal runs the
 * handlers and the wait goes on with what is left of the timeout (PEP 475). */
#define _GNU_SOURCE
#include "posix.h"
#include "objects/containers.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <time.h>

static TypeObj *T_poll;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* poll(2) on C memory, as a blocking call; timeout_ms < 0: forever. The
 * result of poll, or -1 with errno (EINTR: a signal handler raised). */
static int blocking_poll(struct pollfd *fds, size_t n, double timeout_ms)
{
    double deadline = timeout_ms < 0 ? 0 : now_seconds() + timeout_ms / 1000;
    for (;;) {
        int ms = timeout_ms < 0 ? -1 : timeout_ms > INT_MAX ? INT_MAX : (int)ceil(timeout_ms);
        int rc;
        vm_blocking_begin();
        if (tm_interrupted()) {
            rc = -1;
            errno = EINTR;
        } else {
            rc = poll(fds, n, ms);
        }
        vm_blocking_end();
        if (rc >= 0 || errno != EINTR)
            return rc;
        if (vm_signals_check() < 0) {
            errno = EINTR;
            return -1;
        }
        if (timeout_ms >= 0) {
            timeout_ms = (deadline - now_seconds()) * 1000;
            if (timeout_ms < 0)
                timeout_ms = 0;
        }
    }
}

/* select(rlist, wlist, xlist, timeout=None) */
static Obj select_select(Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("select", nargs, kwnames, 3, 4) < 0)
        return NULL;
    Obj *r = vm_roots(7);
    Obj res = NULL;
    struct pollfd *fds = NULL;
    double timeout_ms = -1;
    if (nargs > 3 && !IS_NONE(args[3])) {
        double t;
        Obj u = vm_unwrap(args[3]);
        if (!IS_INT(u) && !IS_FLOAT(u)) {
            err_set(E_TypeError, "timeout must be a float or None");
            goto out;
        }
        if (vm_as_double(args[3], &t) < 0)
            goto out;
        if (t < 0) {
            err_set(E_ValueError, "timeout must be non-negative");
            goto out;
        }
        timeout_ms = t * 1000;
    }
    size_t total = 0;
    for (int k = 0; k < 3; k++) {
        r[k] = vm_list_from_iter(args[k]);
        if (!r[k])
            goto out;
        total += (size_t)LIST_LEN(r[k]);
    }
    fds = calloc(total + 1, sizeof *fds);
    if (!fds) {
        err_nomemory();
        goto out;
    }
    static const short want[3] = {POLLIN, POLLOUT, POLLPRI};
    size_t j = 0;
    for (int k = 0; k < 3; k++)
        for (int64_t i = 0; i < LIST_LEN(r[k]); i++, j++) {
            int fd;
            if (posix_fileno(LIST_ITEMS(r[k])[i], &fd) < 0)
                goto out;
            if (fd < 0) {
                err_set(E_ValueError, "file descriptor cannot be a negative integer (-1)");
                goto out;
            }
            fds[j].fd = fd;
            fds[j].events = want[k];
        }
    if (blocking_poll(fds, total, timeout_ms) < 0) {
        if (errno != EINTR)
            posix_error(NULL);
        goto out;
    }
    static const short got[3] = {POLLIN | POLLHUP | POLLERR, POLLOUT | POLLERR, POLLPRI};
    j = 0;
    for (int k = 0; k < 3; k++) {
        r[3 + k] = list_new_capacity(0);
        if (!r[3 + k])
            goto out;
        for (int64_t i = 0; i < LIST_LEN(r[k]); i++, j++) {
            if (fds[j].revents & POLLNVAL) {
                errno = EBADF;
                posix_error(NULL);
                goto out;
            }
            if ((fds[j].revents & got[k]) && list_append(r[3 + k], LIST_ITEMS(r[k])[i]) < 0)
                goto out;
        }
    }
    res = tuple_pack(3, r[3], r[4], r[5]);
out:
    free(fds);
    vm_unroots(r);
    return res;
}

/* ---- poll objects: an IterObj whose a is the dict fd -> event mask ---- */

static int poll_fd_arg(Obj v, int *fd)
{
    if (posix_fileno(v, fd) < 0)
        return -1;
    if (*fd < 0) {
        err_format(E_ValueError, "file descriptor cannot be a negative integer (%d)", *fd);
        return -1;
    }
    return 0;
}

static int poll_mask_arg(Obj v, int *mask)
{
    int64_t m;
    if (vm_index_i64(v, &m) < 0)
        return -1;
    if (m < 0 || m > 0xffff) {
        err_set(E_OverflowError, m < 0 ? "Python int too large to convert to C unsigned short"
                                       : "Python int too large to convert to C unsigned short");
        return -1;
    }
    *mask = (int)m;
    return 0;
}

static Obj poll_register(Obj *args, size_t nargs, Obj kwnames)
{
    int fd, mask = POLLIN | POLLPRI | POLLOUT;
    if (poll_fd_arg(args[1], &fd) < 0 || (nargs > 2 && poll_mask_arg(args[2], &mask) < 0))
        return NULL;
    return dict_setitem(ITER(args[0])->a, MAKE_SMALLINT(fd), MAKE_SMALLINT(mask)) < 0 ? NULL : g_None;
}

static Obj poll_modify(Obj *args, size_t nargs, Obj kwnames)
{
    int fd, mask;
    if (poll_fd_arg(args[1], &fd) < 0 || poll_mask_arg(args[2], &mask) < 0)
        return NULL;
    int has = dict_contains(ITER(args[0])->a, MAKE_SMALLINT(fd));
    if (has < 0)
        return NULL;
    if (!has) {
        errno = ENOENT;
        return posix_error(NULL);
    }
    return dict_setitem(ITER(args[0])->a, MAKE_SMALLINT(fd), MAKE_SMALLINT(mask)) < 0 ? NULL : g_None;
}

static Obj poll_unregister(Obj *args, size_t nargs, Obj kwnames)
{
    int fd;
    if (poll_fd_arg(args[1], &fd) < 0)
        return NULL;
    return vm_delitem(ITER(args[0])->a, MAKE_SMALLINT(fd)) < 0 ? NULL : g_None;
}

/* poll(timeout=None): timeout in milliseconds, None or negative: forever */
static Obj poll_poll(Obj *args, size_t nargs, Obj kwnames)
{
    double timeout_ms = -1;
    if (nargs > 1 && !IS_NONE(args[1])) {
        Obj u = vm_unwrap(args[1]);
        if (!IS_INT(u) && !IS_FLOAT(u)) {
            err_format(E_TypeError, "'%s' object cannot be interpreted as an integer", type_name(args[1]));
            return NULL;
        }
        if (vm_as_double(args[1], &timeout_ms) < 0)
            return NULL;
        if (timeout_ms < 0)
            timeout_ms = -1;
    }
    Obj *r = vm_roots(3);
    Obj res = NULL;
    struct pollfd *fds = NULL;
    r[0] = args[0];
    r[1] = vm_list_from_iter(ITER(r[0])->a);   /* the registered fds */
    if (!r[1])
        goto out;
    size_t n = (size_t)LIST_LEN(r[1]);
    fds = calloc(n + 1, sizeof *fds);
    if (!fds) {
        err_nomemory();
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        Obj fd = LIST_ITEMS(r[1])[i];
        Obj mask = dict_getitem(ITER(r[0])->a, fd);
        if (!mask)
            goto out;
        fds[i].fd = (int)SMALLINT_VAL(fd);
        fds[i].events = (short)SMALLINT_VAL(mask);
    }
    if (blocking_poll(fds, n, timeout_ms) < 0) {
        if (errno != EINTR)
            posix_error(NULL);
        goto out;
    }
    r[1] = list_new_capacity(0);
    for (size_t i = 0; r[1] && i < n; i++) {
        if (!fds[i].revents)
            continue;
        r[2] = tuple_pack(2, MAKE_SMALLINT(fds[i].fd), MAKE_SMALLINT((unsigned short)fds[i].revents));
        if (!r[2] || list_append(r[1], r[2]) < 0)
            goto out;
    }
    res = r[1];
out:
    free(fds);
    vm_unroots(r);
    return res;
}

static const MethodDef poll_methods[] = {
    {"register", poll_register, METH_ARGS(1, 2), NULL},
    {"modify", poll_modify, METH_ARGS(2, 2), NULL},
    {"unregister", poll_unregister, METH_O, NULL},
    {"poll", poll_poll, METH_ARGS(0, 1), NULL},
    {NULL, NULL, 0, NULL},
};

static Obj select_poll(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    r[0] = dict_new();
    Obj res = r[0] ? iter_alloc(T_poll, r[0], 0) : NULL;
    vm_unroots(r);
    return res;
}

static const MethodDef select_functions[] = {
    {"select", select_select, 0, NULL},
    {"poll", select_poll, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

Obj select_module_init(void)
{
    if (!T_poll) {
        TypeObj *t = (TypeObj *)type_new_builtin("select.poll", T_object, TID_ITER, 0);
        VM_WRITE_RARE(t);
        type_add_methods(t, poll_methods);
        type_ready(t);
        T_poll = t;
    }
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = module_new("select");
    if (!r[0])
        goto out;
    module_add_functions(r[0], select_functions);
    static const struct { const char *name; int v; } ints[] = {
        {"POLLIN", POLLIN}, {"POLLPRI", POLLPRI}, {"POLLOUT", POLLOUT}, {"POLLERR", POLLERR},
        {"POLLHUP", POLLHUP}, {"POLLNVAL", POLLNVAL}, {"POLLRDNORM", POLLRDNORM}, {"POLLRDBAND", POLLRDBAND},
        {"POLLWRNORM", POLLWRNORM}, {"POLLWRBAND", POLLWRBAND}, {"POLLMSG", POLLMSG}, {"POLLRDHUP", POLLRDHUP},
        {"PIPE_BUF", PIPE_BUF},
    };
    for (size_t i = 0; i < ARRAY_LEN(ints); i++)
        if (module_add(r[0], ints[i].name, MAKE_SMALLINT(ints[i].v)) < 0)
            goto out;
    if (module_add(r[0], "error", (Obj)E_OSError) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
