/* The posix module: CPython's names and interfaces, under CPython's own
 * Lib/os.py (which makes os.environ, os.walk, os.makedirs, os.fsencode,
 * os.PathLike from it). This file: the argument conversions, files and
 * directories, file descriptors, the environment and the module itself;
 * posixprocess.c has the processes, posixscandir.c scandir.
 *
 * STM: a call that changes the world (creates, removes, writes, closes)
 * makes the transaction inevitable first, so no abort repeats it; a call
 * that may wait (open of a FIFO, read, write) runs between
 * vm_blocking_begin/end, so the thread commits before it waits. */
#define _GNU_SOURCE
#include "posix.h"
#include "objects/containers.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <unistd.h>

extern char **environ;

static Obj g_posix_module, g_stat_result, g_terminal_size, g_statvfs_result;

/* ------------------------------------------------------------------ */
/* Arguments                                                           */
/* ------------------------------------------------------------------ */

int posix_int(Obj v, int *out)
{
    int64_t x;
    if (arg_c_int(v, &x) < 0)
        return -1;
    *out = (int)x;
    return 0;
}

int posix_fileno(Obj v, int *fd)
{
    if (IS_INT(vm_unwrap(v)))
        return posix_int(v, fd);
    Obj *r = vm_roots(1);
    r[0] = v;
    int rc = -1;
    if (!vm_lookup_special(r[0], "fileno") && !vm_getattr_opt(r[0], str_intern_cstr("fileno"))) {
        if (!err_occurred())
            err_set(E_TypeError, "argument must be an int, or have a fileno() method.");
        goto out;
    }
    Obj n = vm_call_method(r[0], "fileno", NULL, 0);
    if (!n)
        goto out;
    if (!IS_INT(vm_unwrap(n))) {
        err_set(E_TypeError, "fileno() returned a non-integer");
        goto out;
    }
    rc = posix_int(n, fd);
    if (rc == 0 && *fd < 0) {
        err_format(E_ValueError, "file descriptor cannot be a negative integer (%d)", *fd);
        rc = -1;
    }
out:
    vm_unroots(r);
    return rc;
}

int posix_bool(Obj v, bool dflt, bool *out)
{
    *out = dflt;
    if (!v)
        return 0;
    int t = vm_is_true(v);
    if (t < 0)
        return -1;
    *out = t;
    return 0;
}

/* A dir_fd argument: NULL or None -> AT_FDCWD; else a C int. 0 or -1. */
static int posix_dir_fd(Obj v, int *fd)
{
    *fd = AT_FDCWD;
    if (!v || IS_NONE(v))
        return 0;
    if (!IS_INT(vm_unwrap(v))) {
        err_format(E_TypeError, "argument should be integer or None, not %s", type_name(v));
        return -1;
    }
    return posix_int(v, fd);
}

int posix_path(Obj v, const char *fname, const char *argname, bool nullable, bool allow_fd, PosixPath *out)
{
    out->c = NULL;
    out->bytes = false;
    out->fd = -1;
    out->is_fd = false;
    if (nullable && (!v || IS_NONE(v)))
        return 0;
    Obj u = vm_unwrap(v);
    if (allow_fd && IS_INT(u) && TID(u) != TID_BOOL) {
        int64_t fd;
        if (int_as_i64(u, &fd) < 0 || fd > INT_MAX || fd < INT_MIN) {
            err_clear();
            err_set(E_OverflowError, int_sign(u) > 0 ? "fd is greater than maximum" : "fd is less than minimum");
            return -1;
        }
        out->fd = (int)fd;
        out->is_fd = true;
        return 0;
    }
    if (!IS_STR(u) && !IS_BYTES(u)) {
        Obj *r = vm_roots(1);
        r[0] = v;
        bool pathlike = vm_lookup_special(r[0], "__fspath__") != NULL;
        v = r[0];
        vm_unroots(r);
        if (!pathlike) {
            const char *kinds = allow_fd && nullable ? "string, bytes, os.PathLike, integer or None"
                                : allow_fd           ? "string, bytes, os.PathLike or integer"
                                : nullable           ? "string, bytes, os.PathLike or None"
                                                     : "string, bytes or os.PathLike";
            err_format(E_TypeError, "%s: %s should be %s, not %s", fname, argname, kinds, type_name(v));
            return -1;
        }
        u = vm_fspath(v);
        if (!u)
            return -1;
    }
    size_t n;
    if (IS_BYTES(u)) {
        out->bytes = true;
        n = (size_t)((BytesObj *)u)->length;
        out->c = malloc(n + 1);
        if (!out->c) {
            err_nomemory();
            return -1;
        }
        memcpy(out->c, VM_LINEAR(((BytesObj *)u)->data), n);
        out->c[n] = 0;
    } else {
        out->c = str_to_os(u, &n);
        if (!out->c)
            return -1;
    }
    if (strlen(out->c) != n) {
        posix_path_free(out);
        err_set(E_ValueError, "embedded null byte");
        return -1;
    }
    return 0;
}

void posix_path_free(PosixPath *p)
{
    free(p->c);
    p->c = NULL;
}

Obj posix_error(Obj v) { return err_from_errno(errno, v); }

Obj posix_mkpath(bool bytes, const char *p, size_t n) { return bytes ? bytes_new(p, n) : str_from_os(p, n); }

/* ------------------------------------------------------------------ */
/* stat                                                                */
/* ------------------------------------------------------------------ */

/* The ten tuple fields; the float times, the _ns times and the rest are
 * attributes, as CPython's (whose tuple ends in three unnamed fields). */
static const char *const stat_fields[] = {"st_mode", "st_ino", "st_dev", "st_nlink", "st_uid", "st_gid",
                                          "st_size", "st_atime", "st_mtime", "st_ctime"};

static double ts_float(struct timespec ts) { return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9; }

static Obj ts_ns(struct timespec ts)
{
    __int128 ns = (__int128)ts.tv_sec * 1000000000 + ts.tv_nsec;
    if (ns >= INT64_MIN && ns <= INT64_MAX)
        return int_from_i64((int64_t)ns);
    Obj *r = vm_roots(2);
    r[0] = int_from_i64(ts.tv_sec);
    r[1] = r[0] ? int_from_i64(1000000000) : NULL;
    Obj res = r[1] ? vm_binop(r[0], r[1], NB_MUL) : NULL;
    if (res) {
        r[0] = res;
        r[1] = int_from_i64(ts.tv_nsec);
        res = r[1] ? vm_binop(r[0], r[1], NB_ADD) : NULL;
    }
    vm_unroots(r);
    return res;
}

Obj posix_stat_result(const struct stat *st)
{
    Obj *it = vm_roots(12);
    Obj res = NULL;
    it[0] = int_from_i64(st->st_mode);
    it[1] = int_from_u64(st->st_ino);
    it[2] = int_from_u64(st->st_dev);
    it[3] = int_from_i64((int64_t)st->st_nlink);
    it[4] = int_from_i64(st->st_uid);
    it[5] = int_from_i64(st->st_gid);
    it[6] = int_from_i64(st->st_size);
    it[7] = int_from_i64(st->st_atim.tv_sec);
    it[8] = int_from_i64(st->st_mtim.tv_sec);
    it[9] = int_from_i64(st->st_ctim.tv_sec);
    for (int i = 0; i < 10; i++)
        if (!it[i])
            goto out;
    it[10] = structseq_new(g_stat_result, it, 10);
    if (!it[10])
        goto out;
    static const char *const names[] = {"st_atime", "st_mtime", "st_ctime", "st_atime_ns", "st_mtime_ns",
                                        "st_ctime_ns", "st_blksize", "st_blocks", "st_rdev"};
    for (int k = 0; k < 9; k++) {
        switch (k) {
        case 0: it[11] = float_new(ts_float(st->st_atim)); break;
        case 1: it[11] = float_new(ts_float(st->st_mtim)); break;
        case 2: it[11] = float_new(ts_float(st->st_ctim)); break;
        case 3: it[11] = ts_ns(st->st_atim); break;
        case 4: it[11] = ts_ns(st->st_mtim); break;
        case 5: it[11] = ts_ns(st->st_ctim); break;
        case 6: it[11] = int_from_i64((int64_t)st->st_blksize); break;
        case 7: it[11] = int_from_i64((int64_t)st->st_blocks); break;
        default: it[11] = int_from_u64((uint64_t)st->st_rdev); break;
        }
        Obj key = it[11] ? str_intern_cstr(names[k]) : NULL;   /* pinned */
        if (!key || vm_setattr(it[10], key, it[11]) < 0)
            goto out;
    }
    res = it[10];
out:
    vm_unroots(it);
    return res;
}

/* stat(path, *, dir_fd=None, follow_symlinks=True); lstat without the last. */
static Obj stat_impl(Obj *args, size_t nargs, Obj kwnames, const char *fname, bool follow)
{
    static const char *const names[] = {"path", "dir_fd", "follow_symlinks", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    PosixPath p = {0};
    int dfd;
    if (vm_parse_args(fname, args, nargs, kwnames, names, 1, 1, a) < 0 || posix_dir_fd(a[1], &dfd) < 0 ||
        posix_bool(a[2], follow, &follow) < 0 || posix_path(a[0], fname, "path", false, true, &p) < 0)
        goto out;
    struct stat st;
    int rc = p.is_fd ? fstat(p.fd, &st) : fstatat(dfd, p.c, &st, follow ? 0 : AT_SYMLINK_NOFOLLOW);
    res = rc < 0 ? posix_error(a[0]) : posix_stat_result(&st);
out:
    posix_path_free(&p);
    vm_unroots(a);
    return res;
}

static Obj posix_stat(Obj *args, size_t nargs, Obj kwnames) { return stat_impl(args, nargs, kwnames, "stat", true); }

static Obj posix_lstat(Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("lstat", nargs, NULL, 1, 1) < 0)
        return NULL;
    if (kwnames)
        for (int64_t i = 0; i < TUPLE_LEN(kwnames); i++)
            if (strcmp(str_cstr(TUPLE_ITEMS(kwnames)[i]), "follow_symlinks") == 0) {
                err_set(E_TypeError, "lstat() got an unexpected keyword argument 'follow_symlinks'");
                return NULL;
            }
    return stat_impl(args, nargs, kwnames, "lstat", false);
}

static Obj posix_fstat(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"fd", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    int fd;
    struct stat st;
    if (vm_parse_args("fstat", args, nargs, kwnames, names, 1, 1, a) == 0 && posix_int(a[0], &fd) == 0)
        res = fstat(fd, &st) < 0 ? posix_error(NULL) : posix_stat_result(&st);
    vm_unroots(a);
    return res;
}

/* statvfs(path) (path may be an fd) / fstatvfs(fd): os.statvfs_result */
static Obj statvfs_result(const struct statvfs *v)
{
    Obj *r = vm_roots(11);
    Obj res = NULL;
    uint64_t f[] = {v->f_bsize, v->f_frsize, v->f_blocks, v->f_bfree, v->f_bavail,
                    v->f_files, v->f_ffree, v->f_favail, v->f_flag, v->f_namemax};
    for (int i = 0; i < 10; i++)
        if (!(r[i] = int_from_u64(f[i])))
            goto out;
    r[10] = structseq_new(g_statvfs_result, r, 10);
    if (!r[10])
        goto out;
    r[0] = int_from_u64(v->f_fsid);
    if (!r[0] || vm_setattr(r[10], str_intern_cstr("f_fsid"), r[0]) < 0)
        goto out;
    res = r[10];
out:
    vm_unroots(r);
    return res;
}

static Obj posix_statvfs(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"path", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    PosixPath p = {0};
    if (vm_parse_args("statvfs", args, nargs, kwnames, names, 1, 1, a) < 0 ||
        posix_path(a[0], "statvfs", "path", false, true, &p) < 0)
        goto out;
    struct statvfs v;
    vm_blocking_begin();   /* a network file system may take its time */
    int rc = p.is_fd ? fstatvfs(p.fd, &v) : statvfs(p.c, &v);
    vm_blocking_end();
    res = rc < 0 ? posix_error(a[0]) : statvfs_result(&v);
out:
    posix_path_free(&p);
    vm_unroots(a);
    return res;
}

static Obj posix_fstatvfs(Obj *args, size_t nargs, Obj kwnames)
{
    int fd;
    struct statvfs v;
    if (posix_int(args[0], &fd) < 0)
        return NULL;
    return fstatvfs(fd, &v) < 0 ? posix_error(NULL) : statvfs_result(&v);
}

/* ------------------------------------------------------------------ */
/* Files and directories                                               */
/* ------------------------------------------------------------------ */

static Obj posix_getcwd(Obj *args, size_t nargs, Obj kwnames)
{
    char buf[PATH_MAX];
    if (!getcwd(buf, sizeof buf))
        return posix_error(NULL);
    return str_from_os_cstr(buf);
}

static Obj posix_getcwdb(Obj *args, size_t nargs, Obj kwnames)
{
    char buf[PATH_MAX];
    if (!getcwd(buf, sizeof buf))
        return posix_error(NULL);
    return bytes_new(buf, strlen(buf));
}

static Obj posix_chdir(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"path", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    PosixPath p = {0};
    if (vm_parse_args("chdir", args, nargs, kwnames, names, 1, 1, a) < 0 ||
        posix_path(a[0], "chdir", "path", false, true, &p) < 0)
        goto out;
    vm_tx_become_inevitable();   /* changes the world: no abort may repeat it */
    res = (p.is_fd ? fchdir(p.fd) : chdir(p.c)) < 0 ? posix_error(a[0]) : g_None;
out:
    posix_path_free(&p);
    vm_unroots(a);
    return res;
}

/* unlink/remove/rmdir(path, *, dir_fd=None) */
static Obj unlink_impl(Obj *args, size_t nargs, Obj kwnames, const char *fname, int flags)
{
    static const char *const names[] = {"path", "dir_fd", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    PosixPath p = {0};
    int dfd;
    if (vm_parse_args(fname, args, nargs, kwnames, names, 1, 1, a) < 0 || posix_dir_fd(a[1], &dfd) < 0 ||
        posix_path(a[0], fname, "path", false, false, &p) < 0)
        goto out;
    vm_tx_become_inevitable();
    res = unlinkat(dfd, p.c, flags) < 0 ? posix_error(a[0]) : g_None;
out:
    posix_path_free(&p);
    vm_unroots(a);
    return res;
}

static Obj posix_unlink(Obj *args, size_t nargs, Obj kwnames) { return unlink_impl(args, nargs, kwnames, "unlink", 0); }
static Obj posix_remove(Obj *args, size_t nargs, Obj kwnames) { return unlink_impl(args, nargs, kwnames, "remove", 0); }
static Obj posix_rmdir(Obj *args, size_t nargs, Obj kwnames)
{
    return unlink_impl(args, nargs, kwnames, "rmdir", AT_REMOVEDIR);
}

/* mkdir/mkfifo(path, mode=default, *, dir_fd=None) */
static Obj mkdir_impl(Obj *args, size_t nargs, Obj kwnames, const char *fname, int mode, bool fifo)
{
    static const char *const names[] = {"path", "mode", "dir_fd", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    PosixPath p = {0};
    int dfd;
    if (vm_parse_args(fname, args, nargs, kwnames, names, 1, 2, a) < 0 || (a[1] && posix_int(a[1], &mode) < 0) ||
        posix_dir_fd(a[2], &dfd) < 0 || posix_path(a[0], fname, "path", false, false, &p) < 0)
        goto out;
    vm_tx_become_inevitable();
    int rc = fifo ? mkfifoat(dfd, p.c, (mode_t)mode) : mkdirat(dfd, p.c, (mode_t)mode);
    res = rc < 0 ? posix_error(a[0]) : g_None;
out:
    posix_path_free(&p);
    vm_unroots(a);
    return res;
}

static Obj posix_mkdir(Obj *args, size_t nargs, Obj kwnames)
{
    return mkdir_impl(args, nargs, kwnames, "mkdir", 0777, false);
}
static Obj posix_mkfifo(Obj *args, size_t nargs, Obj kwnames)
{
    return mkdir_impl(args, nargs, kwnames, "mkfifo", 0666, true);
}

/* rename/replace(src, dst, *, src_dir_fd=None, dst_dir_fd=None) */
static Obj rename_impl(Obj *args, size_t nargs, Obj kwnames, const char *fname)
{
    static const char *const names[] = {"src", "dst", "src_dir_fd", "dst_dir_fd", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    PosixPath s = {0}, d = {0};
    int sfd, dfd;
    if (vm_parse_args(fname, args, nargs, kwnames, names, 2, 2, a) < 0 || posix_dir_fd(a[2], &sfd) < 0 ||
        posix_dir_fd(a[3], &dfd) < 0 || posix_path(a[0], fname, "src", false, false, &s) < 0 ||
        posix_path(a[1], fname, "dst", false, false, &d) < 0)
        goto out;
    if (s.bytes != d.bytes) {
        err_format(E_TypeError, "%s: src and dst must be the same type", fname);
        goto out;
    }
    vm_tx_become_inevitable();
    res = renameat(sfd, s.c, dfd, d.c) < 0 ? err_from_errno2(errno, a[0], a[1]) : g_None;
out:
    posix_path_free(&s);
    posix_path_free(&d);
    vm_unroots(a);
    return res;
}

static Obj posix_rename(Obj *args, size_t nargs, Obj kwnames) { return rename_impl(args, nargs, kwnames, "rename"); }
static Obj posix_replace(Obj *args, size_t nargs, Obj kwnames) { return rename_impl(args, nargs, kwnames, "replace"); }

/* link(src, dst, *, src_dir_fd=None, dst_dir_fd=None, follow_symlinks=True) */
static Obj posix_link(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"src", "dst", "src_dir_fd", "dst_dir_fd", "follow_symlinks", NULL};
    Obj *a = vm_roots(5);
    Obj res = NULL;
    PosixPath s = {0}, d = {0};
    int sfd, dfd;
    bool follow;
    if (vm_parse_args("link", args, nargs, kwnames, names, 2, 2, a) < 0 || posix_dir_fd(a[2], &sfd) < 0 ||
        posix_dir_fd(a[3], &dfd) < 0 || posix_bool(a[4], true, &follow) < 0 ||
        posix_path(a[0], "link", "src", false, false, &s) < 0 || posix_path(a[1], "link", "dst", false, false, &d) < 0)
        goto out;
    vm_tx_become_inevitable();
    res = linkat(sfd, s.c, dfd, d.c, follow ? AT_SYMLINK_FOLLOW : 0) < 0 ? err_from_errno2(errno, a[0], a[1]) : g_None;
out:
    posix_path_free(&s);
    posix_path_free(&d);
    vm_unroots(a);
    return res;
}

/* symlink(src, dst, target_is_directory=False, *, dir_fd=None) */
static Obj posix_symlink(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"src", "dst", "target_is_directory", "dir_fd", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    PosixPath s = {0}, d = {0};
    int dfd;
    if (vm_parse_args("symlink", args, nargs, kwnames, names, 2, 3, a) < 0 || posix_dir_fd(a[3], &dfd) < 0 ||
        posix_path(a[0], "symlink", "src", false, false, &s) < 0 ||
        posix_path(a[1], "symlink", "dst", false, false, &d) < 0)
        goto out;
    vm_tx_become_inevitable();
    res = symlinkat(s.c, dfd, d.c) < 0 ? err_from_errno2(errno, a[0], a[1]) : g_None;
out:
    posix_path_free(&s);
    posix_path_free(&d);
    vm_unroots(a);
    return res;
}

/* readlink(path, *, dir_fd=None): str or bytes as the path */
static Obj posix_readlink(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"path", "dir_fd", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    PosixPath p = {0};
    int dfd;
    if (vm_parse_args("readlink", args, nargs, kwnames, names, 1, 1, a) < 0 || posix_dir_fd(a[1], &dfd) < 0 ||
        posix_path(a[0], "readlink", "path", false, false, &p) < 0)
        goto out;
    char buf[PATH_MAX + 1];
    ssize_t n = readlinkat(dfd, p.c, buf, sizeof buf);
    res = n < 0 ? posix_error(a[0]) : posix_mkpath(p.bytes, buf, (size_t)n);
out:
    posix_path_free(&p);
    vm_unroots(a);
    return res;
}

/* access(path, mode, *, dir_fd=None, effective_ids=False, follow_symlinks=True) -> bool */
static Obj posix_access(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"path", "mode", "dir_fd", "effective_ids", "follow_symlinks", NULL};
    Obj *a = vm_roots(5);
    Obj res = NULL;
    PosixPath p = {0};
    int mode, dfd;
    bool eff, follow;
    if (vm_parse_args("access", args, nargs, kwnames, names, 2, 2, a) < 0 || posix_int(a[1], &mode) < 0 ||
        posix_dir_fd(a[2], &dfd) < 0 || posix_bool(a[3], false, &eff) < 0 || posix_bool(a[4], true, &follow) < 0 ||
        posix_path(a[0], "access", "path", false, false, &p) < 0)
        goto out;
    int flags = (eff ? AT_EACCESS : 0) | (follow ? 0 : AT_SYMLINK_NOFOLLOW);
    res = vm_bool(faccessat(dfd, p.c, mode, flags) == 0);
out:
    posix_path_free(&p);
    vm_unroots(a);
    return res;
}

/* chmod(path, mode, *, dir_fd=None, follow_symlinks=True); path may be an fd */
static Obj posix_chmod(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"path", "mode", "dir_fd", "follow_symlinks", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    PosixPath p = {0};
    int mode, dfd;
    bool follow;
    if (vm_parse_args("chmod", args, nargs, kwnames, names, 2, 2, a) < 0 ||
        posix_path(a[0], "chmod", "path", false, true, &p) < 0 || posix_int(a[1], &mode) < 0 ||
        posix_dir_fd(a[2], &dfd) < 0 || posix_bool(a[3], true, &follow) < 0)
        goto out;
    vm_tx_become_inevitable();
    int rc = p.is_fd ? fchmod(p.fd, (mode_t)mode) : fchmodat(dfd, p.c, (mode_t)mode, follow ? 0 : AT_SYMLINK_NOFOLLOW);
    if (rc < 0 && !follow && (errno == ENOTSUP || errno == EOPNOTSUPP))
        err_set(E_NotImplementedError, "chmod: follow_symlinks unavailable on this platform");
    else
        res = rc < 0 ? posix_error(a[0]) : g_None;
out:
    posix_path_free(&p);
    vm_unroots(a);
    return res;
}

static Obj posix_fchmod(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"fd", "mode", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    int fd, mode;
    if (vm_parse_args("fchmod", args, nargs, kwnames, names, 2, 2, a) == 0 && posix_int(a[0], &fd) == 0 &&
        posix_int(a[1], &mode) == 0) {
        vm_tx_become_inevitable();
        res = fchmod(fd, (mode_t)mode) < 0 ? posix_error(NULL) : g_None;
    }
    vm_unroots(a);
    return res;
}

/* chown(path, uid, gid, *, dir_fd=None, follow_symlinks=True) */
static Obj chown_impl(Obj *args, size_t nargs, Obj kwnames, const char *fname, bool follow, bool fd_only)
{
    static const char *const names[] = {"path", "uid", "gid", "dir_fd", "follow_symlinks", NULL};
    static const char *const fd_names[] = {"fd", "uid", "gid", NULL};
    Obj *a = vm_roots(5);
    Obj res = NULL;
    PosixPath p = {0};
    int64_t uid, gid;
    int dfd;
    if (vm_parse_args(fname, args, nargs, kwnames, fd_only ? fd_names : names, 3, 3, a) < 0 ||
        (fd_only ? posix_int(a[0], &p.fd) : posix_path(a[0], fname, "path", false, follow, &p)) < 0 ||
        vm_index_i64(a[1], &uid) < 0 || vm_index_i64(a[2], &gid) < 0 || posix_dir_fd(a[3], &dfd) < 0 ||
        posix_bool(a[4], follow, &follow) < 0)
        goto out;
    vm_tx_become_inevitable();
    int rc = fd_only || p.is_fd ? fchown(p.fd, (uid_t)uid, (gid_t)gid)
                                  : fchownat(dfd, p.c, (uid_t)uid, (gid_t)gid, follow ? 0 : AT_SYMLINK_NOFOLLOW);
    res = rc < 0 ? posix_error(fd_only ? NULL : a[0]) : g_None;
out:
    posix_path_free(&p);
    vm_unroots(a);
    return res;
}

static Obj posix_chown(Obj *args, size_t nargs, Obj kwnames) { return chown_impl(args, nargs, kwnames, "chown", true, false); }
static Obj posix_lchown(Obj *args, size_t nargs, Obj kwnames) { return chown_impl(args, nargs, kwnames, "lchown", false, false); }
static Obj posix_fchown(Obj *args, size_t nargs, Obj kwnames) { return chown_impl(args, nargs, kwnames, "fchown", true, true); }

/* One utime time (int or float seconds) as a timespec. */
static int utime_seconds(Obj v, struct timespec *ts)
{
    Obj u = vm_unwrap(v);
    if (IS_FLOAT(u)) {
        double d = FLOAT_VAL(u), s = (double)(int64_t)d;
        if (s > d)
            s -= 1;
        ts->tv_sec = (time_t)s;
        ts->tv_nsec = (long)((d - s) * 1e9 + 0.5);
        if (ts->tv_nsec >= 1000000000) {
            ts->tv_sec++;
            ts->tv_nsec -= 1000000000;
        }
        return 0;
    }
    int64_t x;
    if (vm_index_i64(v, &x) < 0)
        return -1;
    ts->tv_sec = (time_t)x;
    ts->tv_nsec = 0;
    return 0;
}

static int utime_ns(Obj v, struct timespec *ts)
{
    Obj *r = vm_roots(3);
    int rc = -1;
    r[0] = v;
    r[1] = int_from_i64(1000000000);
    Obj q = r[1] ? vm_binop(r[0], r[1], NB_FLOORDIV) : NULL;
    int64_t s, ns;
    if (q && (r[2] = q, vm_index_i64(r[2], &s) == 0)) {
        Obj m = vm_binop(r[0], r[1], NB_MOD);
        if (m && vm_index_i64(m, &ns) == 0) {
            ts->tv_sec = (time_t)s;
            ts->tv_nsec = (long)ns;
            rc = 0;
        }
    }
    vm_unroots(r);
    return rc;
}

/* utime(path, times=None, *, ns=None, dir_fd=None, follow_symlinks=True) */
static Obj posix_utime(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"path", "times", "ns", "dir_fd", "follow_symlinks", NULL};
    Obj *a = vm_roots(5);
    Obj res = NULL;
    PosixPath p = {0};
    int dfd;
    bool follow;
    struct timespec ts[2];
    const struct timespec *tsp = NULL;
    if (vm_parse_args("utime", args, nargs, kwnames, names, 1, 2, a) < 0 ||
        posix_path(a[0], "utime", "path", false, true, &p) < 0 || posix_dir_fd(a[3], &dfd) < 0 ||
        posix_bool(a[4], true, &follow) < 0)
        goto out;
    bool has_times = a[1] && !IS_NONE(a[1]), has_ns = a[2] != NULL;
    if (has_times && has_ns) {
        err_set(E_ValueError, "utime: you may specify either 'times' or 'ns' but not both");
        goto out;
    }
    if (has_times) {
        if (!IS_TUPLE(a[1]) || TUPLE_LEN(a[1]) != 2) {
            err_set(E_TypeError, "utime: 'times' must be either a tuple of two ints or None");
            goto out;
        }
        if (utime_seconds(TUPLE_ITEMS(a[1])[0], &ts[0]) < 0 || utime_seconds(TUPLE_ITEMS(a[1])[1], &ts[1]) < 0)
            goto out;
        tsp = ts;
    } else if (has_ns) {
        if (!IS_TUPLE(a[2]) || TUPLE_LEN(a[2]) != 2) {
            err_set(E_TypeError, "utime: 'ns' must be a tuple of two ints");
            goto out;
        }
        if (utime_ns(TUPLE_ITEMS(a[2])[0], &ts[0]) < 0 || utime_ns(TUPLE_ITEMS(a[2])[1], &ts[1]) < 0)
            goto out;
        tsp = ts;
    }
    vm_tx_become_inevitable();
    int rc = p.is_fd ? futimens(p.fd, tsp) : utimensat(dfd, p.c, tsp, follow ? 0 : AT_SYMLINK_NOFOLLOW);
    res = rc < 0 ? posix_error(a[0]) : g_None;
out:
    posix_path_free(&p);
    vm_unroots(a);
    return res;
}

/* truncate(path, length): path may be an fd */
static Obj posix_truncate(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"path", "length", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    PosixPath p = {0};
    int64_t len;
    if (vm_parse_args("truncate", args, nargs, kwnames, names, 2, 2, a) < 0 ||
        posix_path(a[0], "truncate", "path", false, true, &p) < 0 || vm_index_i64(a[1], &len) < 0)
        goto out;
    vm_tx_become_inevitable();
    int rc = p.is_fd ? ftruncate(p.fd, (off_t)len) : truncate(p.c, (off_t)len);
    res = rc < 0 ? posix_error(a[0]) : g_None;
out:
    posix_path_free(&p);
    vm_unroots(a);
    return res;
}

static Obj posix_ftruncate(Obj *args, size_t nargs, Obj kwnames)
{
    int fd;
    int64_t len;
    if (posix_int(args[0], &fd) < 0 || vm_index_i64(args[1], &len) < 0)
        return NULL;
    vm_tx_become_inevitable();
    return ftruncate(fd, (off_t)len) < 0 ? posix_error(NULL) : g_None;
}

/* Entries of an open directory (not . and ..) into a new list; closes d. */
static Obj list_dir(DIR *d, bool as_bytes)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = list_new_capacity(16);
    if (!r[0])
        goto out;
    struct dirent *de;
    for (;;) {
        errno = 0;
        if (!(de = readdir(d)))
            break;
        const char *n = de->d_name;
        if (n[0] == '.' && (n[1] == 0 || (n[1] == '.' && n[2] == 0)))
            continue;
        r[1] = posix_mkpath(as_bytes, n, strlen(n));
        if (!r[1] || list_append(r[0], r[1]) < 0)
            goto out;
    }
    if (errno) {
        posix_error(NULL);
        goto out;
    }
    res = r[0];
out:
    closedir(d);
    vm_unroots(r);
    return res;
}

DIR *posix_opendir(const PosixPath *p)
{
    if (!p->is_fd)
        return opendir(p->c ? p->c : ".");
    int fd = fcntl(p->fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return NULL;
    DIR *d = fdopendir(fd);
    if (!d) {
        int e = errno;
        close(fd);
        errno = e;
        return NULL;
    }
    rewinddir(d);
    return d;
}

/* listdir(path=None): path may be an fd */
static Obj posix_listdir(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"path", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    PosixPath p = {0};
    if (vm_parse_args("listdir", args, nargs, kwnames, names, 0, 1, a) < 0 ||
        posix_path(a[0], "listdir", "path", true, true, &p) < 0)
        goto out;
    DIR *d = posix_opendir(&p);
    if (!d)
        posix_error(a[0] && !IS_NONE(a[0]) ? a[0] : NULL);
    else
        res = list_dir(d, p.bytes);
out:
    posix_path_free(&p);
    vm_unroots(a);
    return res;
}

static Obj posix_umask(Obj *args, size_t nargs, Obj kwnames)
{
    int mask;
    if (posix_int(args[0], &mask) < 0)
        return NULL;
    vm_tx_become_inevitable();
    return MAKE_SMALLINT((int)umask((mode_t)mask));
}

static Obj posix_sync(Obj *args, size_t nargs, Obj kwnames)
{
    vm_blocking_begin();
    sync();
    vm_blocking_end();
    return g_None;
}

/* ------------------------------------------------------------------ */
/* File descriptors                                                    */
/* ------------------------------------------------------------------ */

/* open(path, flags, mode=0o777, *, dir_fd=None): not inheritable (PEP 446) */
static Obj posix_open(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"path", "flags", "mode", "dir_fd", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    PosixPath p = {0};
    int flags, mode = 0777, dfd;
    if (vm_parse_args("open", args, nargs, kwnames, names, 2, 3, a) < 0 ||
        posix_path(a[0], "open", "path", false, false, &p) < 0 || posix_int(a[1], &flags) < 0 ||
        (a[2] && posix_int(a[2], &mode) < 0) || posix_dir_fd(a[3], &dfd) < 0)
        goto out;
    vm_tx_become_inevitable();
    int fd;
    for (;;) {   /* PEP 475: a signal runs the handlers, then the open goes on */
        vm_blocking_begin();   /* a FIFO's open waits for the other end */
        if (tm_interrupted()) {
            fd = -1;
            errno = EINTR;
        } else {
            fd = openat(dfd, p.c, flags | O_CLOEXEC, (mode_t)mode);
        }
        vm_blocking_end();
        if (fd >= 0 || errno != EINTR)
            break;
        if (vm_signals_check() < 0)
            goto out;
    }
    res = fd < 0 ? posix_error(a[0]) : MAKE_SMALLINT(fd);
out:
    posix_path_free(&p);
    vm_unroots(a);
    return res;
}

static Obj posix_close(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"fd", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    int fd;
    if (vm_parse_args("close", args, nargs, kwnames, names, 1, 1, a) == 0 && posix_int(a[0], &fd) == 0) {
        vm_tx_become_inevitable();
        /* EINTR: the fd is closed anyway on Linux (PEP 475 keeps it) */
        res = close(fd) < 0 && errno != EINTR ? posix_error(NULL) : g_None;
    }
    vm_unroots(a);
    return res;
}

static Obj posix_closerange(Obj *args, size_t nargs, Obj kwnames)
{
    int lo, hi;
    if (posix_int(args[0], &lo) < 0 || posix_int(args[1], &hi) < 0)
        return NULL;
    vm_tx_become_inevitable();
    for (int fd = lo < 0 ? 0 : lo; fd < hi; fd++)
        close(fd);
    return g_None;
}

static Obj posix_dup(Obj *args, size_t nargs, Obj kwnames)
{
    int fd;
    if (posix_int(args[0], &fd) < 0)
        return NULL;
    vm_tx_become_inevitable();
    int n = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    return n < 0 ? posix_error(NULL) : MAKE_SMALLINT(n);
}

/* dup2(fd, fd2, inheritable=True) -> fd2 */
static Obj posix_dup2(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"fd", "fd2", "inheritable", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    int fd, fd2;
    bool inh;
    if (vm_parse_args("dup2", args, nargs, kwnames, names, 2, 3, a) < 0 || posix_int(a[0], &fd) < 0 ||
        posix_int(a[1], &fd2) < 0 || posix_bool(a[2], true, &inh) < 0)
        goto out;
    vm_tx_become_inevitable();
    int n = fd == fd2 ? (fcntl(fd, F_GETFD) < 0 ? -1 : fd) : dup3(fd, fd2, inh ? 0 : O_CLOEXEC);
    res = n < 0 ? posix_error(NULL) : MAKE_SMALLINT(n);
out:
    vm_unroots(a);
    return res;
}

static Obj posix_read(Obj *args, size_t nargs, Obj kwnames)
{
    int fd;
    int64_t n;
    if (posix_int(args[0], &fd) < 0 || vm_index_i64(args[1], &n) < 0)
        return NULL;
    if (n < 0) {
        errno = EINVAL;
        return posix_error(NULL);
    }
    if ((uint64_t)n > vm_max_object_size())   /* the bytes could never be built */
        return err_nomemory();
    char *buf = malloc((size_t)n + 1);
    if (!buf)
        return err_nomemory();
    ssize_t got = vm_blocking_read(fd, buf, (size_t)n);
    if (got < 0) {
        int e = errno;
        free(buf);
        return e == EINTR ? NULL : err_from_errno(e, NULL);   /* EINTR: a signal handler raised */
    }
    Obj res = bytes_new(buf, (size_t)got);
    free(buf);
    return res;
}

static Obj posix_write(Obj *args, size_t nargs, Obj kwnames)
{
    int fd;
    if (posix_int(args[0], &fd) < 0)
        return NULL;
    const char *p;
    int64_t n;
    if (!bytes_like(args[1], &p, &n)) {
        err_format(E_TypeError, "a bytes-like object is required, not '%s'", type_name(args[1]));
        return NULL;
    }
    vm_tx_become_inevitable();
    /* the data is copied: the write may block (and a collection move it) */
    char *copy = malloc((size_t)n + 1);
    if (!copy)
        return err_nomemory();
    memcpy(copy, p, (size_t)n);
    ssize_t w = vm_blocking_write(fd, copy, (size_t)n);
    int e = errno;
    free(copy);
    if (w < 0)
        return e == EINTR && err_occurred() ? NULL : err_from_errno(e, NULL);   /* EINTR: a handler raised */
    return int_from_i64(w);
}

static Obj posix_lseek(Obj *args, size_t nargs, Obj kwnames)
{
    int fd, how;
    int64_t pos;
    if (posix_int(args[0], &fd) < 0 || vm_index_i64(args[1], &pos) < 0 || posix_int(args[2], &how) < 0)
        return NULL;
    vm_tx_become_inevitable();
    off_t r = lseek(fd, (off_t)pos, how);
    return r < 0 ? posix_error(NULL) : int_from_i64(r);
}

static Obj make_pipe(int flags)
{
    int fds[2];
    vm_tx_become_inevitable();
    if (pipe2(fds, flags) < 0)
        return posix_error(NULL);
    return tuple_pack(2, MAKE_SMALLINT(fds[0]), MAKE_SMALLINT(fds[1]));
}

static Obj posix_pipe(Obj *args, size_t nargs, Obj kwnames) { return make_pipe(O_CLOEXEC); }

static Obj posix_pipe2(Obj *args, size_t nargs, Obj kwnames)
{
    int flags;
    return posix_int(args[0], &flags) < 0 ? NULL : make_pipe(flags);
}

static Obj posix_isatty(Obj *args, size_t nargs, Obj kwnames)
{
    int fd;
    return posix_int(args[0], &fd) < 0 ? NULL : vm_bool(isatty(fd));
}

static Obj posix_fsync(Obj *args, size_t nargs, Obj kwnames)
{
    int fd;
    if (posix_fileno(args[0], &fd) < 0)
        return NULL;
    vm_tx_become_inevitable();
    vm_blocking_begin();
    int rc = fsync(fd);
    vm_blocking_end();
    return rc < 0 ? posix_error(NULL) : g_None;
}

/* get_/set_inheritable (FD_CLOEXEC), get_/set_blocking (O_NONBLOCK) */
static Obj fd_flag_get(Obj *args, int get, int bit, bool when_set)
{
    int fd;
    if (posix_int(args[0], &fd) < 0)
        return NULL;
    int f = fcntl(fd, get);
    return f < 0 ? posix_error(NULL) : vm_bool(((f & bit) != 0) == when_set);
}

static Obj fd_flag_set(Obj *args, int get, int set, int bit, bool when_true)
{
    int fd;
    bool on;
    if (posix_int(args[0], &fd) < 0 || posix_bool(args[1], false, &on) < 0)
        return NULL;
    vm_tx_become_inevitable();
    int f = fcntl(fd, get);
    if (f < 0)
        return posix_error(NULL);
    int nf = on == when_true ? f | bit : f & ~bit;
    if (nf != f && fcntl(fd, set, nf) < 0)
        return posix_error(NULL);
    return g_None;
}

static Obj posix_get_inheritable(Obj *args, size_t nargs, Obj kwnames)
{
    return fd_flag_get(args, F_GETFD, FD_CLOEXEC, false);
}
static Obj posix_set_inheritable(Obj *args, size_t nargs, Obj kwnames)
{
    return fd_flag_set(args, F_GETFD, F_SETFD, FD_CLOEXEC, false);
}
static Obj posix_get_blocking(Obj *args, size_t nargs, Obj kwnames)
{
    return fd_flag_get(args, F_GETFL, O_NONBLOCK, false);
}
static Obj posix_set_blocking(Obj *args, size_t nargs, Obj kwnames)
{
    return fd_flag_set(args, F_GETFL, F_SETFL, O_NONBLOCK, false);
}

/* device_encoding(fd): the locale's encoding for a terminal, else None */
static Obj posix_device_encoding(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"fd", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    int fd;
    if (vm_parse_args("device_encoding", args, nargs, kwnames, names, 1, 1, a) == 0 && posix_int(a[0], &fd) == 0)
        res = isatty(fd) ? str_from_cstr("UTF-8") : g_None;
    vm_unroots(a);
    return res;
}

/* get_terminal_size(fd=1): os.terminal_size (columns, lines) */
static Obj posix_get_terminal_size(Obj *args, size_t nargs, Obj kwnames)
{
    int fd = STDOUT_FILENO;
    if (nargs && posix_int(args[0], &fd) < 0)
        return NULL;
    struct winsize w;
    if (ioctl(fd, TIOCGWINSZ, &w) < 0)
        return posix_error(NULL);
    Obj *it = vm_roots(2);
    it[0] = MAKE_SMALLINT(w.ws_col);
    it[1] = MAKE_SMALLINT(w.ws_row);
    Obj res = structseq_new(g_terminal_size, it, 2);
    vm_unroots(it);
    return res;
}

/* ------------------------------------------------------------------ */
/* Miscellaneous                                                       */
/* ------------------------------------------------------------------ */

static Obj posix_cpu_count(Obj *args, size_t nargs, Obj kwnames)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? MAKE_SMALLINT(n) : g_None;
}

int posix_random_bytes(void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = getrandom((char *)buf + got, n - got, 0);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        got += (size_t)k;
    }
    return 0;
}

static Obj posix_urandom(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t n;
    if (vm_index_i64(args[0], &n) < 0)
        return NULL;
    if (n < 0) {
        err_set(E_ValueError, "negative argument not allowed");
        return NULL;
    }
    if ((uint64_t)n > vm_max_object_size())   /* the bytes could never be built */
        return err_nomemory();
    char *buf = malloc((size_t)n + 1);
    if (!buf)
        return err_nomemory();
    if (posix_random_bytes(buf, (size_t)n) < 0) {
        int e = errno;
        free(buf);
        return err_from_errno(e, NULL);
    }
    Obj res = bytes_new(buf, (size_t)n);
    free(buf);
    return res;
}

static Obj posix_strerror(Obj *args, size_t nargs, Obj kwnames)
{
    int e;
    if (posix_int(args[0], &e) < 0)
        return NULL;
    return str_from_cstr(strerror(e));
}

static Obj posix_fspath(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"path", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    if (vm_parse_args("fspath", args, nargs, kwnames, names, 1, 1, a) == 0)
        res = IS_STR(a[0]) || IS_BYTES(a[0]) ? a[0] : vm_fspath(a[0]);
    vm_unroots(a);
    return res;
}

/* An environment name or value (str, bytes or os.PathLike, as CPython's
 * FSConverter) as malloc'd C bytes; -1 with ValueError on a NUL. */
static char *env_bytes(Obj v, const char *fname)
{
    PosixPath p;
    Obj u = vm_unwrap(v);
    if (!IS_STR(u) && !IS_BYTES(u) && !vm_lookup_special(v, "__fspath__")) {
        err_format(E_TypeError, "expected str, bytes or os.PathLike object, not %s", type_name(v));
        return NULL;
    }
    return posix_path(v, fname, "name", false, false, &p) < 0 ? NULL : p.c;
}

static Obj posix_putenv(Obj *args, size_t nargs, Obj kwnames)
{
    char *k = env_bytes(args[0], "putenv");
    if (!k)
        return NULL;
    char *v = env_bytes(args[1], "putenv");
    if (!v) {
        free(k);
        return NULL;
    }
    vm_tx_become_inevitable();
    int rc = !*k || strchr(k, '=') ? (errno = 0, -2) : setenv(k, v, 1);
    int e = errno;
    free(k);
    free(v);
    if (rc == -2) {
        err_set(E_ValueError, "illegal environment variable name");
        return NULL;
    }
    return rc < 0 ? err_from_errno(e ? e : ENOMEM, NULL) : g_None;
}

static Obj posix_unsetenv(Obj *args, size_t nargs, Obj kwnames)
{
    char *k = env_bytes(args[0], "unsetenv");
    if (!k)
        return NULL;
    if (!*k || strchr(k, '=')) {
        free(k);
        err_set(E_ValueError, "illegal environment variable name");
        return NULL;
    }
    vm_tx_become_inevitable();
    int rc = unsetenv(k);
    int e = errno;
    free(k);
    return rc < 0 ? err_from_errno(e, NULL) : g_None;
}

/* sysconf / confstr names: str names from the tables, or ints */
typedef struct { const char *name; int v; } NameVal;

static const NameVal sysconf_names[] = {
    {"SC_ARG_MAX", _SC_ARG_MAX}, {"SC_CHILD_MAX", _SC_CHILD_MAX}, {"SC_CLK_TCK", _SC_CLK_TCK},
    {"SC_NGROUPS_MAX", _SC_NGROUPS_MAX}, {"SC_OPEN_MAX", _SC_OPEN_MAX}, {"SC_PAGESIZE", _SC_PAGESIZE},
    {"SC_PAGE_SIZE", _SC_PAGE_SIZE}, {"SC_NPROCESSORS_CONF", _SC_NPROCESSORS_CONF},
    {"SC_NPROCESSORS_ONLN", _SC_NPROCESSORS_ONLN}, {"SC_PHYS_PAGES", _SC_PHYS_PAGES},
    {"SC_AVPHYS_PAGES", _SC_AVPHYS_PAGES}, {"SC_IOV_MAX", _SC_IOV_MAX}, {"SC_LINE_MAX", _SC_LINE_MAX},
    {"SC_HOST_NAME_MAX", _SC_HOST_NAME_MAX}, {"SC_LOGIN_NAME_MAX", _SC_LOGIN_NAME_MAX},
    {"SC_TTY_NAME_MAX", _SC_TTY_NAME_MAX}, {"SC_SEM_NSEMS_MAX", _SC_SEM_NSEMS_MAX},
    {"SC_STREAM_MAX", _SC_STREAM_MAX}, {"SC_TZNAME_MAX", _SC_TZNAME_MAX}, {"SC_VERSION", _SC_VERSION},
    {"SC_MINSIGSTKSZ", _SC_MINSIGSTKSZ}, {"SC_THREAD_STACK_MIN", _SC_THREAD_STACK_MIN},
};

static const NameVal confstr_names[] = {
    {"CS_PATH", _CS_PATH}, {"CS_GNU_LIBC_VERSION", _CS_GNU_LIBC_VERSION},
    {"CS_GNU_LIBPTHREAD_VERSION", _CS_GNU_LIBPTHREAD_VERSION},
};

static int conf_name(Obj v, const NameVal *tab, size_t n, int *out)
{
    Obj u = vm_unwrap(v);
    if (IS_INT(u))
        return posix_int(v, out);
    if (!IS_STR(u)) {
        err_set(E_TypeError, "configuration names must be strings or integers");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (strcmp(str_cstr(u), tab[i].name) == 0) {
            *out = tab[i].v;
            return 0;
        }
    err_set(E_ValueError, "unrecognized configuration name");
    return -1;
}

static Obj posix_sysconf(Obj *args, size_t nargs, Obj kwnames)
{
    int name;
    if (conf_name(args[0], sysconf_names, ARRAY_LEN(sysconf_names), &name) < 0)
        return NULL;
    errno = 0;
    long v = sysconf(name);
    if (v == -1 && errno)
        return posix_error(NULL);
    return int_from_i64(v);
}

static Obj posix_confstr(Obj *args, size_t nargs, Obj kwnames)
{
    int name;
    if (conf_name(args[0], confstr_names, ARRAY_LEN(confstr_names), &name) < 0)
        return NULL;
    char buf[1024];
    errno = 0;
    size_t n = confstr(name, buf, sizeof buf);
    if (n == 0)
        return errno ? posix_error(NULL) : g_None;
    return str_from_cstr(buf);
}

static Obj conf_dict(const NameVal *tab, size_t n)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = dict_new();
    for (size_t i = 0; r[0] && i < n; i++)
        if (dict_setitem_cstr(r[0], tab[i].name, MAKE_SMALLINT(tab[i].v)) < 0)
            goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

static Obj posix_getloadavg(Obj *args, size_t nargs, Obj kwnames)
{
    double l[3];
    if (getloadavg(l, 3) != 3) {
        err_set(E_OSError, "Load averages are unobtainable");
        return NULL;
    }
    Obj *r = vm_roots(3);
    Obj res = NULL;
    if ((r[0] = float_new(l[0])) && (r[1] = float_new(l[1])) && (r[2] = float_new(l[2])))
        res = tuple_pack(3, r[0], r[1], r[2]);
    vm_unroots(r);
    return res;
}

static const MethodDef posix_functions[] = {
    {"stat", posix_stat, METH_KW, NULL},
    {"lstat", posix_lstat, METH_KW, NULL},
    {"fstat", posix_fstat, METH_KW, NULL},
    {"statvfs", posix_statvfs, METH_KW, NULL},
    {"fstatvfs", posix_fstatvfs, METH_O, NULL},
    {"getcwd", posix_getcwd, METH_NOARGS, NULL},
    {"getcwdb", posix_getcwdb, METH_NOARGS, NULL},
    {"chdir", posix_chdir, METH_KW, NULL},
    {"listdir", posix_listdir, METH_KW, NULL},
    {"scandir", posix_scandir, METH_KW, NULL},
    {"mkdir", posix_mkdir, METH_KW, NULL},
    {"mkfifo", posix_mkfifo, METH_KW, NULL},
    {"remove", posix_remove, METH_KW, NULL},
    {"unlink", posix_unlink, METH_KW, NULL},
    {"rmdir", posix_rmdir, METH_KW, NULL},
    {"rename", posix_rename, METH_KW, NULL},
    {"replace", posix_replace, METH_KW, NULL},
    {"link", posix_link, METH_KW, NULL},
    {"symlink", posix_symlink, METH_KW, NULL},
    {"readlink", posix_readlink, METH_KW, NULL},
    {"access", posix_access, METH_KW, NULL},
    {"chmod", posix_chmod, METH_KW, NULL},
    {"fchmod", posix_fchmod, METH_KW, NULL},
    {"chown", posix_chown, METH_KW, NULL},
    {"lchown", posix_lchown, METH_KW, NULL},
    {"fchown", posix_fchown, METH_KW, NULL},
    {"utime", posix_utime, METH_KW, NULL},
    {"truncate", posix_truncate, METH_KW, NULL},
    {"ftruncate", posix_ftruncate, METH_ARGS(2, 2), NULL},
    {"umask", posix_umask, METH_O, NULL},
    {"sync", posix_sync, METH_NOARGS, NULL},
    {"open", posix_open, METH_KW, NULL},
    {"close", posix_close, METH_KW, NULL},
    {"closerange", posix_closerange, METH_ARGS(2, 2), NULL},
    {"dup", posix_dup, METH_O, NULL},
    {"dup2", posix_dup2, METH_KW, NULL},
    {"read", posix_read, METH_ARGS(2, 2), NULL},
    {"write", posix_write, METH_ARGS(2, 2), NULL},
    {"lseek", posix_lseek, METH_ARGS(3, 3), NULL},
    {"pipe", posix_pipe, METH_NOARGS, NULL},
    {"pipe2", posix_pipe2, METH_O, NULL},
    {"isatty", posix_isatty, METH_O, NULL},
    {"fsync", posix_fsync, METH_O, NULL},
    {"get_inheritable", posix_get_inheritable, METH_O, NULL},
    {"set_inheritable", posix_set_inheritable, METH_ARGS(2, 2), NULL},
    {"get_blocking", posix_get_blocking, METH_O, NULL},
    {"set_blocking", posix_set_blocking, METH_ARGS(2, 2), NULL},
    {"device_encoding", posix_device_encoding, METH_KW, NULL},
    {"get_terminal_size", posix_get_terminal_size, METH_ARGS(0, 1), NULL},
    {"cpu_count", posix_cpu_count, METH_NOARGS, NULL},
    {"urandom", posix_urandom, METH_O, NULL},
    {"strerror", posix_strerror, METH_O, NULL},
    {"fspath", posix_fspath, METH_KW, NULL},
    {"putenv", posix_putenv, METH_ARGS(2, 2), NULL},
    {"unsetenv", posix_unsetenv, METH_O, NULL},
    {"sysconf", posix_sysconf, METH_O, NULL},
    {"confstr", posix_confstr, METH_O, NULL},
    {"getloadavg", posix_getloadavg, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* posix.environ: the start-up environment as bytes -> bytes (os.py makes
 * os.environ and os.environb over it). */
static Obj make_environ(void)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = dict_new();
    if (!r[0])
        goto out;
    for (char **e = environ; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq || eq == *e)
            continue;
        r[1] = bytes_new(*e, (size_t)(eq - *e));
        r[2] = r[1] ? bytes_new(eq + 1, strlen(eq + 1)) : NULL;
        if (!r[2])
            goto out;
        /* the first of two equal names wins, as CPython's */
        int has = dict_contains(r[0], r[1]);
        if (has < 0 || (!has && dict_setitem(r[0], r[1], r[2]) < 0))
            goto out;
    }
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

/* _have_functions: what os.py's supports_dir_fd, supports_fd and
 * supports_follow_symlinks are made from. */
static const char *const have_functions[] = {
    "HAVE_FACCESSAT", "HAVE_FCHDIR",   "HAVE_FCHMOD",    "HAVE_FCHMODAT",   "HAVE_FCHOWN",
    "HAVE_FCHOWNAT",  "HAVE_FDOPENDIR", "HAVE_FSTATAT",  "HAVE_FSTATVFS", "HAVE_FTRUNCATE",  "HAVE_FUTIMENS",
    "HAVE_LCHOWN",    "HAVE_LINKAT",    "HAVE_LSTAT",    "HAVE_MKDIRAT",    "HAVE_MKFIFOAT",
    "HAVE_OPENAT",    "HAVE_READLINKAT", "HAVE_RENAMEAT", "HAVE_SYMLINKAT", "HAVE_UNLINKAT",
    "HAVE_UTIMENSAT",
};

static const NameVal posix_int_consts[] = {
    {"F_OK", F_OK}, {"R_OK", R_OK}, {"W_OK", W_OK}, {"X_OK", X_OK},
    {"O_RDONLY", O_RDONLY}, {"O_WRONLY", O_WRONLY}, {"O_RDWR", O_RDWR}, {"O_APPEND", O_APPEND},
    {"O_CREAT", O_CREAT}, {"O_EXCL", O_EXCL}, {"O_TRUNC", O_TRUNC}, {"O_NONBLOCK", O_NONBLOCK},
    {"O_NDELAY", O_NDELAY}, {"O_SYNC", O_SYNC}, {"O_DSYNC", O_DSYNC}, {"O_RSYNC", O_RSYNC},
    {"O_NOCTTY", O_NOCTTY}, {"O_CLOEXEC", O_CLOEXEC}, {"O_DIRECTORY", O_DIRECTORY},
    {"O_NOFOLLOW", O_NOFOLLOW}, {"O_NOATIME", O_NOATIME}, {"O_PATH", O_PATH}, {"O_TMPFILE", O_TMPFILE},
    {"O_ASYNC", O_ASYNC}, {"O_DIRECT", O_DIRECT}, {"O_LARGEFILE", O_LARGEFILE}, {"O_ACCMODE", O_ACCMODE},
    {"SEEK_SET", SEEK_SET}, {"SEEK_CUR", SEEK_CUR}, {"SEEK_END", SEEK_END},
    {"SEEK_DATA", SEEK_DATA}, {"SEEK_HOLE", SEEK_HOLE},
    {"EX_OK", 0}, {"EX_USAGE", 64}, {"EX_DATAERR", 65}, {"EX_NOINPUT", 66}, {"EX_NOUSER", 67},
    {"EX_NOHOST", 68}, {"EX_UNAVAILABLE", 69}, {"EX_SOFTWARE", 70}, {"EX_OSERR", 71}, {"EX_OSFILE", 72},
    {"EX_CANTCREAT", 73}, {"EX_IOERR", 74}, {"EX_TEMPFAIL", 75}, {"EX_PROTOCOL", 76}, {"EX_NOPERM", 77},
    {"EX_CONFIG", 78},
    {"TMP_MAX", TMP_MAX}, {"NGROUPS_MAX", NGROUPS_MAX},
    {"ST_RDONLY", ST_RDONLY}, {"ST_NOSUID", ST_NOSUID}, {"ST_NODEV", ST_NODEV}, {"ST_NOEXEC", ST_NOEXEC},
    {"ST_SYNCHRONOUS", ST_SYNCHRONOUS}, {"ST_MANDLOCK", ST_MANDLOCK}, {"ST_WRITE", ST_WRITE},
    {"ST_APPEND", ST_APPEND}, {"ST_NOATIME", ST_NOATIME}, {"ST_NODIRATIME", ST_NODIRATIME},
    {"ST_RELATIME", ST_RELATIME},
};

Obj posix_module_init(void)
{
    if (g_posix_module)
        return g_posix_module;
    VM_GLOBAL_ROOT(g_posix_module);
    VM_GLOBAL_ROOT(g_stat_result);
    VM_GLOBAL_ROOT(g_terminal_size);
    VM_GLOBAL_ROOT(g_statvfs_result);
    if (!g_statvfs_result) {
        static const char *const fields[] = {"f_bsize", "f_frsize", "f_blocks", "f_bfree", "f_bavail",
                                             "f_files", "f_ffree", "f_favail", "f_flag", "f_namemax"};
        if (!(g_statvfs_result = structseq_new_type("os", "statvfs_result", fields, 10, 10)))
            return NULL;
    }
    if (!g_stat_result && !(g_stat_result = structseq_new_type("os", "stat_result", stat_fields, 10, 7)))
        return NULL;
    if (!g_terminal_size) {
        static const char *const fields[] = {"columns", "lines"};
        if (!(g_terminal_size = structseq_new_type("os", "terminal_size", fields, 2, 2)))
            return NULL;
    }
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = module_new("posix");
    if (!r[0])
        goto out;
    module_add_functions(r[0], posix_functions);
    module_add_functions(r[0], posix_process_functions);
    for (size_t i = 0; i < ARRAY_LEN(posix_int_consts); i++)
        if (module_add(r[0], posix_int_consts[i].name, MAKE_SMALLINT(posix_int_consts[i].v)) < 0)
            goto out;
    r[1] = list_new_capacity(ARRAY_LEN(have_functions));
    for (size_t i = 0; r[1] && i < ARRAY_LEN(have_functions); i++)
        if (!(r[2] = str_from_cstr(have_functions[i])) || list_append(r[1], r[2]) < 0)
            goto out;
    if (!r[1] || module_add(r[0], "_have_functions", r[1]) < 0)
        goto out;
    if (!(r[1] = make_environ()) || module_add(r[0], "environ", r[1]) < 0)
        goto out;
    if (!(r[1] = conf_dict(sysconf_names, ARRAY_LEN(sysconf_names))) || module_add(r[0], "sysconf_names", r[1]) < 0)
        goto out;
    if (!(r[1] = conf_dict(confstr_names, ARRAY_LEN(confstr_names))) || module_add(r[0], "confstr_names", r[1]) < 0)
        goto out;
    if (module_add(r[0], "error", (Obj)E_OSError) < 0 || module_add(r[0], "stat_result", g_stat_result) < 0 ||
        module_add(r[0], "terminal_size", g_terminal_size) < 0 ||
        module_add(r[0], "statvfs_result", g_statvfs_result) < 0 || posix_scandir_init(r[0]) < 0 ||
        posix_process_init(r[0]) < 0)
        goto out;
    g_posix_module = r[0];
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
