/* The fcntl module: fcntl, ioctl, flock, lockf and their constants. A
 * file descriptor argument is an int or an object with fileno(). The
 * calls that may wait (F_SETLKW, flock, lockf without LOCK_NB) are
 * blocking calls (the thread commits or hands the GIL on first). */
#define _GNU_SOURCE
#include "posix.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* An int argument, or a bytes-like one copied to buf (at most 1024 bytes,
 * as CPython): *len the number of bytes, -1 for an int in *ival. */
static int int_or_buffer(Obj v, const char *fname, char *buf, int64_t *len, long *ival)
{
    *len = -1;
    *ival = 0;
    if (!v)
        return 0;
    const char *p;
    Obj u = vm_unwrap(v);
    if (IS_STR(u)) {
        p = str_cstr(u);
        *len = STR(u)->nbytes;
    } else if (!bytes_like(v, &p, len)) {
        int64_t x;
        if (vm_index_i64(v, &x) < 0)
            return -1;
        *ival = (long)x;
        *len = -1;
        return 0;
    }
    if (*len > 1024) {
        err_format(E_ValueError, "%s string arg too long", fname);
        return -1;
    }
    memcpy(buf, p, (size_t)*len);
    return 0;
}

/* fcntl(fd, cmd, arg=0) */
static Obj fcntl_fcntl(Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("fcntl", nargs, kwnames, 2, 3) < 0)
        return NULL;
    int fd, cmd;
    if (posix_fileno(args[0], &fd) < 0 || posix_int(args[1], &cmd) < 0)
        return NULL;
    char buf[1024];
    int64_t len;
    long ival;
    if (int_or_buffer(nargs > 2 ? args[2] : NULL, "fcntl", buf, &len, &ival) < 0)
        return NULL;
    vm_tx_become_inevitable();
    bool waits = cmd == F_SETLKW || cmd == F_OFD_SETLKW;
    if (waits)
        vm_blocking_begin();
    int rc;
    do
        rc = len >= 0 ? fcntl(fd, cmd, buf) : fcntl(fd, cmd, ival);
    while (rc < 0 && errno == EINTR && waits);
    if (waits)
        vm_blocking_end();
    if (rc < 0)
        return posix_error(NULL);
    return len >= 0 ? bytes_new(buf, (size_t)len) : int_from_i64(rc);
}

/* ioctl(fd, request, arg=0, mutate_flag=True) */
static Obj fcntl_ioctl(Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("ioctl", nargs, kwnames, 2, 4) < 0)
        return NULL;
    int fd;
    int64_t req;
    if (posix_fileno(args[0], &fd) < 0 || vm_index_i64(args[1], &req) < 0)
        return NULL;
    char buf[1025];
    int64_t len;
    long ival;
    if (int_or_buffer(nargs > 2 ? args[2] : NULL, "ioctl", buf, &len, &ival) < 0)
        return NULL;
    bool mutate = nargs > 2 && (!IS_SMALLINT(vm_unwrap(args[2])) && TID(vm_unwrap(args[2])) == TID_BYTEARRAY);
    if (mutate && nargs > 3) {
        int t = vm_is_true(args[3]);
        if (t < 0)
            return NULL;
        mutate = t;
    }
    vm_tx_become_inevitable();
    int rc = len >= 0 ? ioctl(fd, (unsigned long)req, buf) : ioctl(fd, (unsigned long)req, ival);
    if (rc < 0)
        return posix_error(NULL);
    if (len < 0)
        return int_from_i64(rc);
    if (mutate) {   /* the result goes back into the caller's bytearray */
        Obj ba = vm_unwrap(args[2]);
        const char *p;
        int64_t n;
        if (bytes_like(ba, &p, &n) && n == len) {
            VM_WRITE(ba);
            for (int64_t i = 0; i < n; i++)
                bytearray_data(ba)[i] = (unsigned char)buf[i];
        }
        return int_from_i64(rc);
    }
    return bytes_new(buf, (size_t)len);
}

/* flock(fd, operation) */
static Obj fcntl_flock(Obj *args, size_t nargs, Obj kwnames)
{
    int fd, op;
    if (posix_fileno(args[0], &fd) < 0 || posix_int(args[1], &op) < 0)
        return NULL;
    vm_tx_become_inevitable();
    int rc;
    vm_blocking_begin();
    do
        rc = flock(fd, op);
    while (rc < 0 && errno == EINTR);
    vm_blocking_end();
    return rc < 0 ? posix_error(NULL) : g_None;
}

/* lockf(fd, cmd, len=0, start=0, whence=0): cmd a LOCK_* value */
static Obj fcntl_lockf(Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("lockf", nargs, kwnames, 2, 5) < 0)
        return NULL;
    int fd, cmd, whence = 0;
    int64_t len = 0, start = 0;
    if (posix_fileno(args[0], &fd) < 0 || posix_int(args[1], &cmd) < 0 ||
        (nargs > 2 && vm_index_i64(args[2], &len) < 0) || (nargs > 3 && vm_index_i64(args[3], &start) < 0) ||
        (nargs > 4 && posix_int(args[4], &whence) < 0))
        return NULL;
    struct flock l = {0};
    int op = cmd & ~LOCK_NB;
    if (op == LOCK_UN)
        l.l_type = F_UNLCK;
    else if (op == LOCK_SH)
        l.l_type = F_RDLCK;
    else if (op == LOCK_EX)
        l.l_type = F_WRLCK;
    else {
        err_set(E_ValueError, "unrecognized lockf argument");
        return NULL;
    }
    l.l_start = (off_t)start;
    l.l_len = (off_t)len;
    l.l_whence = (short)whence;
    vm_tx_become_inevitable();
    int rc;
    vm_blocking_begin();
    do
        rc = fcntl(fd, (cmd & LOCK_NB) ? F_SETLK : F_SETLKW, &l);
    while (rc < 0 && errno == EINTR);
    vm_blocking_end();
    return rc < 0 ? posix_error(NULL) : g_None;
}

static const MethodDef fcntl_functions[] = {
    {"fcntl", fcntl_fcntl, 0, NULL},
    {"ioctl", fcntl_ioctl, 0, NULL},
    {"flock", fcntl_flock, METH_ARGS(2, 2), NULL},
    {"lockf", fcntl_lockf, 0, NULL},
    {NULL, NULL, 0, NULL},
};

Obj fcntl_module_init(void)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = module_new("fcntl");
    if (!r[0])
        goto out;
    module_add_functions(r[0], fcntl_functions);
    static const struct { const char *name; int64_t v; } ints[] = {
        {"F_DUPFD", F_DUPFD}, {"F_DUPFD_CLOEXEC", F_DUPFD_CLOEXEC}, {"F_GETFD", F_GETFD}, {"F_SETFD", F_SETFD},
        {"F_GETFL", F_GETFL}, {"F_SETFL", F_SETFL}, {"F_GETLK", F_GETLK}, {"F_SETLK", F_SETLK},
        {"F_SETLKW", F_SETLKW}, {"F_OFD_GETLK", F_OFD_GETLK}, {"F_OFD_SETLK", F_OFD_SETLK},
        {"F_OFD_SETLKW", F_OFD_SETLKW}, {"F_GETOWN", F_GETOWN}, {"F_SETOWN", F_SETOWN},
        {"F_GETSIG", F_GETSIG}, {"F_SETSIG", F_SETSIG}, {"F_RDLCK", F_RDLCK}, {"F_WRLCK", F_WRLCK},
        {"F_UNLCK", F_UNLCK}, {"F_GETLEASE", F_GETLEASE}, {"F_SETLEASE", F_SETLEASE}, {"F_NOTIFY", F_NOTIFY},
        {"F_GETPIPE_SZ", F_GETPIPE_SZ}, {"F_SETPIPE_SZ", F_SETPIPE_SZ}, {"F_ADD_SEALS", F_ADD_SEALS},
        {"F_GET_SEALS", F_GET_SEALS}, {"F_SEAL_SEAL", F_SEAL_SEAL}, {"F_SEAL_SHRINK", F_SEAL_SHRINK},
        {"F_SEAL_GROW", F_SEAL_GROW}, {"F_SEAL_WRITE", F_SEAL_WRITE}, {"FD_CLOEXEC", FD_CLOEXEC},
        {"LOCK_SH", LOCK_SH}, {"LOCK_EX", LOCK_EX}, {"LOCK_NB", LOCK_NB}, {"LOCK_UN", LOCK_UN},
        {"LOCK_MAND", 32}, {"LOCK_READ", 64}, {"LOCK_WRITE", 128}, {"LOCK_RW", 192},
        {"DN_ACCESS", DN_ACCESS}, {"DN_MODIFY", DN_MODIFY}, {"DN_CREATE", DN_CREATE}, {"DN_DELETE", DN_DELETE},
        {"DN_RENAME", DN_RENAME}, {"DN_ATTRIB", DN_ATTRIB}, {"DN_MULTISHOT", (int64_t)(unsigned)DN_MULTISHOT},
        {"F_EXLCK", 4}, {"F_SHLCK", 8},
    };
    for (size_t i = 0; i < ARRAY_LEN(ints); i++)
        if (module_add(r[0], ints[i].name, MAKE_SMALLINT(ints[i].v)) < 0)
            goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
