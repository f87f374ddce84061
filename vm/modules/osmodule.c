/* The os module (POSIX calls) and os.path (posixpath: path strings). */
#include "modules.h"
#include "objects/objects.h"
#include "objects/strobj.h"
#include "objects/containers.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static Obj g_os_module, g_posixpath_module, g_environ, g_stat_result, g_terminal_size;
static TypeObj *T_walk_iterator;

/* ------------------------------------------------------------------ */
/* Path arguments                                                      */
/* ------------------------------------------------------------------ */

/* A path argument (str, bytes or os.PathLike) copied to C memory: p is
 * malloc'd (free it) and NUL-terminated, n its length (it may hold NULs),
 * bytes whether results should be bytes. A str gives str's own UTF-8 (for
 * string work on paths, results through mkpath) or, with for_os, the file
 * system's bytes (surrogateescape: for system calls, results through
 * mkpath_os). 0, or -1 with an exception. */
typedef struct { char *p; size_t n; bool bytes; } PathStr;

static int pstr_as(Obj v, PathStr *out, bool for_os)
{
    Obj p = vm_unwrap(v);
    if (!IS_STR(p) && !IS_BYTES(p)) {
        p = vm_fspath(v);
        if (!p)
            return -1;
    }
    out->bytes = IS_BYTES(p);
    if (for_os && !out->bytes) {
        out->p = str_to_os(p, &out->n);
        return out->p ? 0 : -1;
    }
    out->n = out->bytes ? (size_t)((BytesObj *)p)->length : (size_t)STR(p)->nbytes;
    out->p = malloc(out->n + 1);
    if (!out->p) {
        err_nomemory();
        return -1;
    }
    /* no allocation since p was read: its bytes are still where they were */
    memcpy(out->p, out->bytes ? (const char *)VM_LINEAR(((BytesObj *)p)->data) : str_cstr(p), out->n);
    out->p[out->n] = 0;
    return 0;
}

static int pstr(Obj v, PathStr *out) { return pstr_as(v, out, false); }

/* A path argument of a system call as a malloc'd C string (free it); NULL
 * with TypeError ("fname: path should be <accepted>, not T") or ValueError
 * (an embedded NUL). *is_bytes tells whether results should be bytes. */
static char *path_cstr_as(Obj v, const char *fname, const char *accepted, bool *is_bytes)
{
    Obj p = vm_unwrap(v);
    if (!IS_STR(p) && !IS_BYTES(p)) {
        Obj *r = vm_roots(1);
        r[0] = v;
        bool pathlike = vm_lookup_special(r[0], "__fspath__") != NULL;
        v = r[0];
        vm_unroots(r);
        if (!pathlike) {
            err_format(E_TypeError, "%s: path should be %s, not %s", fname, accepted, type_name(v));
            return NULL;
        }
    }
    PathStr ps;
    if (pstr_as(v, &ps, true) < 0)
        return NULL;
    if (strlen(ps.p) != ps.n) {
        free(ps.p);
        err_set(E_ValueError, "embedded null byte");
        return NULL;
    }
    if (is_bytes)
        *is_bytes = ps.bytes;
    return ps.p;
}

static char *path_cstr(Obj v, const char *fname, bool *is_bytes)
{
    return path_cstr_as(v, fname, "string, bytes or os.PathLike", is_bytes);
}

/* The end of a system call on a C path: frees p; None, or OSError (from
 * errno, naming `path`) when rc < 0. */
static Obj path_done(int rc, char *p, Obj path)
{
    int e = errno;
    free(p);
    return rc < 0 ? err_from_errno(e, path) : g_None;
}

/* str or bytes result from str's UTF-8 (a str argument's own bytes). */
static Obj mkpath(bool is_bytes, const char *p, size_t n)
{
    return is_bytes ? bytes_new(p, n) : str_new(p, n);
}

/* str or bytes result from the file system's bytes (surrogateescape). */
static Obj mkpath_os(bool is_bytes, const char *p, size_t n)
{
    return is_bytes ? bytes_new(p, n) : str_from_os(p, n);
}

/* ------------------------------------------------------------------ */
/* os.stat                                                             */
/* ------------------------------------------------------------------ */

static const char *const stat_fields[] = {"st_mode", "st_ino", "st_dev", "st_nlink", "st_uid", "st_gid",
                                          "st_size", "st_atime", "st_mtime", "st_ctime"};

static double ts_float(struct timespec ts) { return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9; }

static Obj stat_to_obj(const struct stat *st)
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
    struct { const char *name; int kind; double d; int64_t i; } extra[] = {
        {"st_atime", 0, ts_float(st->st_atim), 0},
        {"st_mtime", 0, ts_float(st->st_mtim), 0},
        {"st_ctime", 0, ts_float(st->st_ctim), 0},
        {"st_atime_ns", 1, 0, (int64_t)st->st_atim.tv_sec * 1000000000 + st->st_atim.tv_nsec},
        {"st_mtime_ns", 1, 0, (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec},
        {"st_ctime_ns", 1, 0, (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec},
        {"st_blksize", 1, 0, (int64_t)st->st_blksize},
        {"st_blocks", 1, 0, (int64_t)st->st_blocks},
        {"st_rdev", 1, 0, (int64_t)st->st_rdev},
    };
    for (size_t k = 0; k < ARRAY_LEN(extra); k++) {
        it[11] = extra[k].kind ? int_from_i64(extra[k].i) : float_new(extra[k].d);
        Obj key = it[11] ? str_intern_cstr(extra[k].name) : NULL;   /* pinned */
        if (!key || vm_setattr(it[10], key, it[11]) < 0)
            goto out;
    }
    res = it[10];
out:
    vm_unroots(it);
    return res;
}

/* stat() of a path, or of an fd (an int) when fd_ok. 0; -1 with errno (an
 * OS error); -2 with a Python exception (bad argument). */
static int stat_any(Obj v, const char *fname, bool follow, bool fd_ok, struct stat *st)
{
    if (fd_ok && IS_INT(v) && TID(v) != TID_BOOL) {
        int64_t fd;
        if (int_as_i64(v, &fd) < 0 || fd > INT_MAX || fd < INT_MIN) {
            err_clear();
            err_set(E_OverflowError, int_sign(v) > 0 ? "fd is greater than maximum" : "fd is less than minimum");
            return -2;
        }
        return fstat((int)fd, st);
    }
    char *c = path_cstr_as(v, fname, fd_ok ? "string, bytes, os.PathLike or integer" : "string, bytes or os.PathLike",
                           NULL);
    if (!c)
        return -2;
    int rc = follow ? stat(c, st) : lstat(c, st);
    int e = errno;
    free(c);
    errno = e;
    return rc;
}

static Obj do_stat(Obj *args, size_t nargs, Obj kwnames, const char *fname, bool follow, bool fd_ok)
{
    static const char *const names[] = {"path", "dir_fd", "follow_symlinks", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args(fname, args, nargs, kwnames, names, 1, 1, a) < 0)
        goto out;
    if (a[2]) {
        int t = vm_is_true(a[2]);
        if (t < 0)
            goto out;
        if (!t)
            follow = false;
    }
    struct stat st;
    int rc = stat_any(a[0], fname, follow, fd_ok, &st);
    if (rc == -1)
        err_from_errno(errno, IS_INT(a[0]) ? NULL : a[0]);
    else if (rc == 0)
        res = stat_to_obj(&st);
out:
    vm_unroots(a);
    return res;
}

/* get_terminal_size(fd=1): os.terminal_size (columns, lines) of the
 * terminal on fd; OSError when fd is not one. */
static Obj os_get_terminal_size(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t fd = STDOUT_FILENO;
    if (nargs && vm_index_i64(args[0], &fd) < 0)
        return NULL;
    struct winsize w;
    if (fd < 0 || fd > INT_MAX || ioctl((int)fd, TIOCGWINSZ, &w) < 0) {
        err_from_errno(fd < 0 || fd > INT_MAX ? EBADF : errno, NULL);
        return NULL;
    }
    Obj *it = vm_roots(2);
    it[0] = MAKE_SMALLINT(w.ws_col);
    it[1] = MAKE_SMALLINT(w.ws_row);
    Obj res = structseq_new(g_terminal_size, it, 2);
    vm_unroots(it);
    return res;
}

static Obj os_stat(Obj *args, size_t nargs, Obj kwnames) { return do_stat(args, nargs, kwnames, "stat", true, true); }
static Obj os_lstat(Obj *args, size_t nargs, Obj kwnames) { return do_stat(args, nargs, kwnames, "lstat", false, false); }

static Obj os_fstat(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t fd;
    if (arg_c_int(args[0], &fd) < 0)
        return NULL;
    struct stat st;
    return fstat((int)fd, &st) < 0 ? err_from_errno(errno, NULL) : stat_to_obj(&st);
}

/* ------------------------------------------------------------------ */
/* Files and directories                                               */
/* ------------------------------------------------------------------ */

static Obj os_getcwd(Obj *args, size_t nargs, Obj kwnames)
{
    char buf[PATH_MAX];
    if (!getcwd(buf, sizeof buf))
        return err_from_errno(errno, NULL);
    return str_from_os_cstr(buf);
}

static Obj os_getcwdb(Obj *args, size_t nargs, Obj kwnames)
{
    char buf[PATH_MAX];
    if (!getcwd(buf, sizeof buf))
        return err_from_errno(errno, NULL);
    return bytes_new(buf, strlen(buf));
}

/* One-path calls: f(path) -> None. */
static Obj path_call(Obj *args, size_t nargs, Obj kwnames, const char *fname, int (*fn)(const char *))
{
    vm_tx_become_inevitable();   /* changes the world: no abort may repeat it */
    static const char *const names[] = {"path", "dir_fd", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args(fname, args, nargs, kwnames, names, 1, 1, a) < 0)
        goto out;
    char *p = path_cstr(a[0], fname, NULL);
    if (!p)
        goto out;
    res = path_done(fn(p), p, a[0]);
out:
    vm_unroots(a);
    return res;
}

static Obj os_chdir(Obj *args, size_t nargs, Obj kwnames) { return path_call(args, nargs, kwnames, "chdir", chdir); }
static Obj os_remove(Obj *args, size_t nargs, Obj kwnames) { return path_call(args, nargs, kwnames, "remove", unlink); }
static Obj os_unlink(Obj *args, size_t nargs, Obj kwnames) { return path_call(args, nargs, kwnames, "unlink", unlink); }
static Obj os_rmdir(Obj *args, size_t nargs, Obj kwnames) { return path_call(args, nargs, kwnames, "rmdir", rmdir); }

static Obj os_mkdir(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();   /* changes the world: no abort may repeat it */
    static const char *const names[] = {"path", "mode", "dir_fd", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("mkdir", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    int64_t mode = 0777;
    if (a[1] && arg_c_int(a[1], &mode) < 0)
        goto out;
    char *p = path_cstr(a[0], "mkdir", NULL);
    if (!p)
        goto out;
    res = path_done(mkdir(p, (mode_t)mode), p, a[0]);
out:
    vm_unroots(a);
    return res;
}

static bool path_is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* mkdir -p on a C path: 0, or -1 with errno. */
static int makedirs_c(char *p, mode_t mode, bool exist_ok)
{
    /* parents first (CPython: head of the path, trailing slashes ignored) */
    size_t n = strlen(p);
    while (n > 1 && p[n - 1] == '/')
        n--;
    size_t cut = n;
    while (cut > 0 && p[cut - 1] != '/')
        cut--;
    if (cut > 0) {
        size_t hl = cut;
        while (hl > 1 && p[hl - 1] == '/')
            hl--;
        char saved = p[hl];
        p[hl] = 0;
        struct stat st;
        if (hl > 0 && stat(p, &st) < 0) {
            if (makedirs_c(p, mode, true) < 0 && errno != EEXIST) {
                p[hl] = saved;
                return -1;
            }
        }
        p[hl] = saved;
    }
    if (mkdir(p, mode) < 0) {
        int e = errno;
        if (exist_ok && path_is_dir(p))
            return 0;
        errno = e;
        return -1;
    }
    return 0;
}

static Obj os_makedirs(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();   /* changes the world: no abort may repeat it */
    static const char *const names[] = {"name", "mode", "exist_ok", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("makedirs", args, nargs, kwnames, names, 1, 3, a) < 0)
        goto out;
    int64_t mode = 0777;
    if (a[1] && arg_c_int(a[1], &mode) < 0)
        goto out;
    int exist_ok = 0;
    if (a[2] && (exist_ok = vm_is_true(a[2])) < 0)
        goto out;
    char *p = path_cstr(a[0], "makedirs", NULL);
    if (!p)
        goto out;
    res = path_done(makedirs_c(p, (mode_t)mode, exist_ok), p, a[0]);
out:
    vm_unroots(a);
    return res;
}

static Obj rename_impl(Obj *args, size_t nargs, Obj kwnames, const char *fname)
{
    vm_tx_become_inevitable();   /* changes the world: no abort may repeat it */
    static const char *const names[] = {"src", "dst", "src_dir_fd", "dst_dir_fd", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    if (vm_parse_args(fname, args, nargs, kwnames, names, 2, 2, a) < 0)
        goto out;
    char *s = path_cstr(a[0], fname, NULL);
    if (!s)
        goto out;
    char *d = path_cstr(a[1], fname, NULL);
    if (!d) {
        free(s);
        goto out;
    }
    int rc = rename(s, d);
    int e = errno;
    free(s);
    free(d);
    if (rc < 0) {
        err_from_errno2(e, a[0], a[1]);
        goto out;
    }
    res = g_None;
out:
    vm_unroots(a);
    return res;
}

static Obj os_rename(Obj *args, size_t nargs, Obj kwnames) { return rename_impl(args, nargs, kwnames, "rename"); }
static Obj os_replace(Obj *args, size_t nargs, Obj kwnames) { return rename_impl(args, nargs, kwnames, "replace"); }

/* Entries of a directory (not . and ..) into a new list. */
static Obj list_dir(const char *path, bool as_bytes)
{
    DIR *d = opendir(path);
    if (!d)
        return NULL;   /* errno set; caller raises */
    Obj *r = vm_roots(2);
    r[0] = list_new_capacity(16);
    if (!r[0]) {
        closedir(d);
        vm_unroots(r);
        errno = ENOMEM;
        return NULL;
    }
    struct dirent *de;
    errno = 0;
    while ((de = readdir(d))) {
        const char *n = de->d_name;
        if (n[0] == '.' && (n[1] == 0 || (n[1] == '.' && n[2] == 0)))
            continue;
        r[1] = mkpath_os(as_bytes, n, strlen(n));
        if (!r[1] || list_append(r[0], r[1]) < 0) {
            closedir(d);
            vm_unroots(r);
            errno = ENOMEM;
            return NULL;
        }
    }
    closedir(d);
    Obj res = r[0];
    vm_unroots(r);
    return res;
}

static Obj os_listdir(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"path", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    if (vm_parse_args("listdir", args, nargs, kwnames, names, 0, 1, a) < 0)
        goto out;
    bool as_bytes = false;
    char *p = (!a[0] || IS_NONE(a[0])) ? strdup(".") : path_cstr(a[0], "listdir", &as_bytes);
    if (!p) {
        if (!err_occurred())
            err_nomemory();
        goto out;
    }
    res = list_dir(p, as_bytes);
    int e = errno;
    free(p);
    if (!res) {
        if (e == ENOMEM)
            err_nomemory();
        else
            err_from_errno(e, a[0] && !IS_NONE(a[0]) ? a[0] : NULL);
    }
out:
    vm_unroots(a);
    return res;
}

static Obj os_access(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"path", "mode", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("access", args, nargs, kwnames, names, 2, 2, a) < 0)
        goto out;
    int64_t mode;
    if (arg_c_int(a[1], &mode) < 0)
        goto out;
    char *p = path_cstr(a[0], "access", NULL);
    if (!p)
        goto out;
    res = vm_bool(access(p, (int)mode) == 0);
    free(p);
out:
    vm_unroots(a);
    return res;
}

static Obj os_chmod(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();   /* changes the world: no abort may repeat it */
    static const char *const names[] = {"path", "mode", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("chmod", args, nargs, kwnames, names, 2, 2, a) < 0)
        goto out;
    int64_t mode;
    if (arg_c_int(a[1], &mode) < 0)
        goto out;
    char *p = path_cstr(a[0], "chmod", NULL);
    if (!p)
        goto out;
    res = path_done(chmod(p, (mode_t)mode), p, a[0]);
out:
    vm_unroots(a);
    return res;
}

/* ---- file descriptors ---- */

static Obj os_open(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();   /* changes the world: no abort may repeat it */
    static const char *const names[] = {"path", "flags", "mode", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("open", args, nargs, kwnames, names, 2, 3, a) < 0)
        goto out;
    int64_t flags, mode = 0777;
    if (arg_c_int(a[1], &flags) < 0 || (a[2] && arg_c_int(a[2], &mode) < 0))
        goto out;
    char *p = path_cstr(a[0], "open", NULL);
    if (!p)
        goto out;
    int fd = vm_blocking_open(p, (int)flags | O_CLOEXEC, (int)mode);
    res = path_done(fd, p, a[0]);
    if (res)
        res = MAKE_SMALLINT(fd);
out:
    vm_unroots(a);
    return res;
}

static Obj os_close(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();   /* changes the world: no abort may repeat it */
    int64_t fd;
    if (arg_c_int(args[0], &fd) < 0)
        return NULL;
    if (close((int)fd) < 0)
        return err_from_errno(errno, NULL);
    return g_None;
}

static Obj os_read(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t fd, n;
    if (arg_c_int(args[0], &fd) < 0 || vm_index_i64(args[1], &n) < 0)
        return NULL;
    if (n < 0) {
        err_set(E_ValueError, "negative length");   /* CPython: OSError EINVAL */
        return NULL;
    }
    if ((uint64_t)n > vm_max_object_size())   /* the bytes could never be built */
        return err_nomemory();
    char *buf = malloc((size_t)n + 1);
    if (!buf)
        return err_nomemory();
    ssize_t got = vm_blocking_read((int)fd, buf, (size_t)n);
    if (got < 0) {
        int e = errno;
        free(buf);
        return e == EINTR ? NULL : err_from_errno(e, NULL);   /* EINTR: a signal handler raised */
    }
    Obj res = bytes_new(buf, (size_t)got);
    free(buf);
    return res;
}

static Obj os_write(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();   /* changes the world: no abort may repeat it */
    int64_t fd;
    if (arg_c_int(args[0], &fd) < 0)
        return NULL;
    const char *p;
    int64_t n;
    if (!bytes_like(args[1], &p, &n)) {
        err_format(E_TypeError, "a bytes-like object is required, not '%s'", type_name(args[1]));
        return NULL;
    }
    /* the data is copied: the write may block (and later release the GIL) */
    char *copy = malloc((size_t)n + 1);
    if (!copy)
        return err_nomemory();
    memcpy(copy, p, (size_t)n);
    ssize_t w = vm_blocking_write((int)fd, copy, (size_t)n);
    int e = errno;
    free(copy);
    if (w < 0)
        return err_from_errno(e, NULL);
    return int_from_i64(w);
}

/* ------------------------------------------------------------------ */
/* Process and environment                                             */
/* ------------------------------------------------------------------ */

static Obj os_getenv(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"key", "default", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("getenv", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    if (!IS_STR(a[0])) {
        err_format(E_TypeError, "str expected, not %s", type_name(a[0]));
        goto out;
    }
    Obj v = g_environ ? dict_getitem(g_environ, a[0]) : NULL;
    if (v)
        res = v;
    else if (!err_occurred())
        res = a[1] ? a[1] : g_None;
out:
    vm_unroots(a);
    return res;
}

static Obj os_putenv(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();   /* changes the world: no abort may repeat it */
    if (!IS_STR(args[0]) || !IS_STR(args[1])) {
        err_format(E_TypeError, "str expected, not %s", type_name(IS_STR(args[0]) ? args[1] : args[0]));
        return NULL;
    }
    size_t kn, vn;
    char *kc = str_to_os(args[0], &kn);
    char *vc = kc ? str_to_os(args[1], &vn) : NULL;
    if (!vc) {
        free(kc);
        return NULL;
    }
    const char *bad = strlen(kc) != kn || strlen(vc) != vn ? "embedded null byte"
                      : (!*kc || strchr(kc, '='))          ? "illegal environment variable name"
                                                           : NULL;
    int rc = bad ? 0 : setenv(kc, vc, 1);
    int e = errno;
    free(kc);
    free(vc);
    if (bad) {
        err_set(E_ValueError, bad);
        return NULL;
    }
    if (rc < 0)
        return err_from_errno(e ? e : ENOMEM, NULL);
    return g_None;
}

static Obj os_unsetenv(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();   /* changes the world: no abort may repeat it */
    if (!IS_STR(args[0])) {
        err_format(E_TypeError, "str expected, not %s", type_name(args[0]));
        return NULL;
    }
    size_t kn;
    char *kc = str_to_os(args[0], &kn);
    if (!kc)
        return NULL;
    const char *bad = strlen(kc) != kn ? "embedded null byte"
                      : (!*kc || strchr(kc, '=')) ? "illegal environment variable name" : NULL;
    if (!bad && unsetenv(kc) < 0) {
        int e = errno;
        free(kc);
        return err_from_errno(e, NULL);
    }
    free(kc);
    if (bad) {
        err_set(E_ValueError, bad);
        return NULL;
    }
    return g_None;
}

/* f() -> a small int from a C call that cannot fail. */
#define OS_INT_GETTER(fname, expr)                                             \
    static Obj os_##fname(Obj *args, size_t nargs, Obj kwnames)                \
    {                                                                          \
        return MAKE_SMALLINT(expr);                                            \
    }
OS_INT_GETTER(getpid, getpid())

/* kill(pid, sig); a signal to this process has its Python handler run
 * before the call returns (the main thread gets it). */
static Obj os_kill(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t pid, sig;
    for (int i = 0; i < 2; i++)
        if (!IS_INT(vm_unwrap(args[i]))) {
            err_format(E_TypeError, "'%s' object cannot be interpreted as an integer", type_name(args[i]));
            return NULL;
        }
    if (vm_index_i64(args[0], &pid) < 0 || vm_index_i64(args[1], &sig) < 0)
        return NULL;
    if (pid < INT32_MIN || pid > INT32_MAX || sig < INT32_MIN || sig > INT32_MAX) {
        err_set(E_OverflowError, "Python int too large to convert to C int");
        return NULL;
    }
    vm_tx_become_inevitable();   /* changes the world: no abort may repeat it */
    if (kill((pid_t)pid, (int)sig) < 0)
        return err_from_errno(errno, NULL);
    return vm_signals_check() < 0 ? NULL : g_None;
}
OS_INT_GETTER(getppid, getppid())
OS_INT_GETTER(getuid, getuid())
OS_INT_GETTER(geteuid, geteuid())
OS_INT_GETTER(getgid, getgid())
OS_INT_GETTER(getegid, getegid())

static Obj os_cpu_count(Obj *args, size_t nargs, Obj kwnames)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? MAKE_SMALLINT(n) : g_None;
}

static Obj os_urandom(Obj *args, size_t nargs, Obj kwnames)
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
    size_t got = 0;
    while (got < (size_t)n) {
        ssize_t k = getrandom(buf + got, (size_t)n - got, 0);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            free(buf);
            return err_from_errno(e, NULL);
        }
        got += (size_t)k;
    }
    Obj res = bytes_new(buf, (size_t)n);
    free(buf);
    return res;
}

static Obj os_strerror(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t e;
    if (arg_c_int(args[0], &e) < 0)
        return NULL;
    return str_from_cstr(strerror((int)e));
}

static Obj os_fspath(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"path", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    if (vm_parse_args("fspath", args, nargs, kwnames, names, 1, 1, a) == 0) {
        if (IS_STR(a[0]) || IS_BYTES(a[0]))
            res = a[0];
        else
            res = vm_fspath(a[0]);
    }
    vm_unroots(a);
    return res;
}

/* os.fsencode / os.fsdecode: the file system's bytes of a path and back
 * (UTF-8 with surrogateescape, as str_to_os / str_from_os). */
static Obj os_fsencode(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"filename", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    if (vm_parse_args("fsencode", args, nargs, kwnames, names, 1, 1, a) == 0 && (res = vm_fspath(a[0])) &&
        IS_STR(res))
        res = str_encode(res, "utf-8", "surrogateescape");
    vm_unroots(a);
    return res;
}

static Obj os_fsdecode(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"filename", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    if (vm_parse_args("fsdecode", args, nargs, kwnames, names, 1, 1, a) == 0 && (res = vm_fspath(a[0])) &&
        IS_BYTES(res))
        res = str_from_os((const char *)VM_LINEAR(((BytesObj *)res)->data), (size_t)((BytesObj *)res)->length);
    vm_unroots(a);
    return res;
}

static Obj os_system(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"command", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    if (vm_parse_args("system", args, nargs, kwnames, names, 1, 1, a) < 0)
        goto out;
    char *cmd = path_cstr(a[0], "system", NULL);
    if (!cmd)
        goto out;
    /* A thread other than the main one blocks the asynchronous signals
     * (signalmodule.c); the command must not inherit that mask. */
    sigset_t blocked, saved;
    signals_thread_mask(&blocked);
    pthread_sigmask(SIG_UNBLOCK, &blocked, &saved);
    vm_blocking_begin();
    int st = system(cmd);
    vm_blocking_end();
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    free(cmd);
    res = MAKE_SMALLINT(st);
out:
    vm_unroots(a);
    return res;
}

static Obj os__exit(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();   /* changes the world: no abort may repeat it */
    int64_t n;
    if (arg_c_int(args[0], &n) < 0)
        return NULL;
    _exit((int)n);
}

/* ------------------------------------------------------------------ */
/* os.walk                                                             */
/* ------------------------------------------------------------------ */

/* IterObj: a = stack of directories still to visit (top-down), b = the last
 * (top, dirs) yielded (its dirs list, possibly pruned by the caller, is
 * pushed on the next step), c = precomputed results (bottom-up), i = index
 * into c, n = followlinks. kind 1: top-down, 2: bottom-up. */

static Obj join2(Obj top, Obj name)
{
    bool is_bytes = IS_BYTES(top);
    const char *t = is_bytes ? (const char *)VM_LINEAR(((BytesObj *)top)->data) : str_cstr(top);
    size_t tl = is_bytes ? (size_t)((BytesObj *)top)->length : (size_t)STR(top)->nbytes;
    const char *nm = is_bytes ? (const char *)VM_LINEAR(((BytesObj *)name)->data) : str_cstr(name);
    size_t nl = is_bytes ? (size_t)((BytesObj *)name)->length : (size_t)STR(name)->nbytes;
    StrBuf b;
    sb_init(&b);
    sb_add(&b, t, tl);
    if (tl && t[tl - 1] != '/')
        sb_addc(&b, '/');
    sb_add(&b, nm, nl);
    Obj res = mkpath(is_bytes, b.p ? b.p : "", b.len);
    sb_free(&b);
    return res;
}

/* (top, dirs, files) for one directory; NULL without error if unreadable. */
static Obj walk_one(Obj top)
{
    Obj *r = vm_roots(5);   /* top, names, dirs, files, scratch */
    Obj res = NULL;
    r[0] = top;
    bool is_bytes = IS_BYTES(top);
    char *p = path_cstr(top, "walk", NULL);
    if (!p)
        goto out;
    r[1] = list_dir(p, is_bytes);
    free(p);
    if (!r[1]) {
        if (errno == ENOMEM)
            err_nomemory();
        goto out;   /* onerror=None: unreadable directories are skipped */
    }
    r[2] = list_new_capacity(4);
    r[3] = r[2] ? list_new_capacity(8) : NULL;
    if (!r[3])
        goto out;
    for (int64_t i = 0; i < LIST_LEN(r[1]); i++) {
        r[4] = join2(r[0], LIST_ITEMS(r[1])[i]);
        if (!r[4])
            goto out;
        char *full = path_cstr(r[4], "walk", NULL);
        if (!full)
            goto out;
        bool dir = path_is_dir(full);
        free(full);
        if (list_append(dir ? r[2] : r[3], LIST_ITEMS(r[1])[i]) < 0)
            goto out;
    }
    res = tuple_pack(3, r[0], r[2], r[3]);
out:
    vm_unroots(r);
    return res;
}

static bool is_link(Obj path)
{
    char *p = path_cstr(path, "walk", NULL);
    if (!p) {
        err_clear();
        return false;
    }
    struct stat st;
    bool link = lstat(p, &st) == 0 && S_ISLNK(st.st_mode);
    free(p);
    return link;
}

/* Bottom-up: children first, then the directory itself. */
static int walk_bottom_up(Obj top, Obj out, bool followlinks, int depth)
{
    if (depth > 1000)
        return 0;
    Obj *r = vm_roots(4);
    int rc = -1;
    r[0] = top;
    r[1] = out;
    r[2] = walk_one(top);
    if (!r[2]) {
        rc = err_occurred() ? -1 : 0;
        goto out;
    }
    Obj dirs = TUPLE_ITEMS(r[2])[1];
    for (int64_t i = 0; i < LIST_LEN(dirs); i++) {
        r[3] = join2(r[0], LIST_ITEMS(TUPLE_ITEMS(r[2])[1])[i]);
        if (!r[3])
            goto out;
        if ((followlinks || !is_link(r[3])) && walk_bottom_up(r[3], r[1], followlinks, depth + 1) < 0)
            goto out;
        dirs = TUPLE_ITEMS(r[2])[1];
    }
    rc = list_append(r[1], r[2]);
out:
    vm_unroots(r);
    return rc;
}

static Obj walk_next(Obj self)
{
    IterObj *it = ITER(self);
    if (it->kind == 2) {
        Obj l = it->c;
        if (!l || it->i >= LIST_LEN(l))
            return NULL;
        VM_WRITE(self);
        it->i++;
        return LIST_ITEMS(l)[it->i - 1];
    }
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = self;
    /* push the subdirectories of what we yielded last (the caller may have pruned them) */
    if (ITER(r[0])->b) {
        Obj last = ITER(r[0])->b;
        VM_WRITE(r[0]);
        ITER(r[0])->b = NULL;
        r[1] = last;
        Obj dirs = TUPLE_ITEMS(r[1])[1];
        for (int64_t i = IS_LIST(dirs) ? LIST_LEN(dirs) - 1 : -1; i >= 0; i--) {
            dirs = TUPLE_ITEMS(r[1])[1];
            if (i >= LIST_LEN(dirs))
                continue;
            r[2] = join2(TUPLE_ITEMS(r[1])[0], LIST_ITEMS(dirs)[i]);
            if (!r[2])
                goto out;
            if ((ITER(r[0])->n || !is_link(r[2])) && list_append(ITER(r[0])->a, r[2]) < 0)
                goto out;
        }
    }
    for (;;) {
        Obj stack = ITER(r[0])->a;
        if (!stack || LIST_LEN(stack) == 0)
            goto out;
        r[1] = list_pop(stack, LIST_LEN(stack) - 1);
        if (!r[1])
            goto out;
        r[2] = walk_one(r[1]);
        if (r[2])
            break;
        if (err_occurred())
            goto out;
    }
    r[1] = tuple_pack(2, TUPLE_ITEMS(r[2])[0], TUPLE_ITEMS(r[2])[1]);
    if (!r[1])
        goto out;
    VM_WRITE(r[0]);
    ITER(r[0])->b = r[1];
    res = r[2];
out:
    vm_unroots(r);
    return res;
}

static Obj os_walk(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"top", "topdown", "onerror", "followlinks", NULL};
    Obj *a = vm_roots(6);
    Obj res = NULL;
    if (vm_parse_args("walk", args, nargs, kwnames, names, 1, 4, a) < 0)
        goto out;
    a[4] = vm_fspath(a[0]);
    if (!a[4])
        goto out;
    int topdown = 1, follow = 0;
    if ((a[1] && (topdown = vm_is_true(a[1])) < 0) || (a[3] && (follow = vm_is_true(a[3])) < 0))
        goto out;
    if (a[2] && !IS_NONE(a[2])) {
        err_set(E_NotImplementedError, "os.walk(): onerror= is not supported yet");
        goto out;
    }
    a[5] = list_new_capacity(8);
    if (!a[5])
        goto out;
    if (topdown) {
        if (list_append(a[5], a[4]) < 0)
            goto out;
        Obj it = iter_alloc(T_walk_iterator, a[5], 1);
        if (!it)
            goto out;
        ITER(it)->n = follow;
        res = it;
    } else {
        if (walk_bottom_up(a[4], a[5], follow, 0) < 0)
            goto out;
        Obj it = iter_alloc(T_walk_iterator, NULL, 2);
        if (!it)
            goto out;
        ITER(it)->c = a[5];
        res = it;
    }
out:
    vm_unroots(a);
    return res;
}

/* ------------------------------------------------------------------ */
/* os.path                                                             */
/* ------------------------------------------------------------------ */

static Obj one_path_fn(Obj *args, size_t nargs, Obj kwnames, const char *fname, PathStr *ps)
{
    if (pstr(args[0], ps) < 0)
        return NULL;
    return g_None;
}

/* Index just after the last '/' (0 if none). */
static size_t last_sep(const char *p, size_t n)
{
    size_t i = n;
    while (i > 0 && p[i - 1] != '/')
        i--;
    return i;
}

/* head of split(): p[:i] with trailing slashes removed unless all slashes. */
static size_t split_head_len(const char *p, size_t i)
{
    size_t h = i;
    bool all = true;
    for (size_t k = 0; k < i; k++)
        if (p[k] != '/') {
            all = false;
            break;
        }
    if (!all)
        while (h > 0 && p[h - 1] == '/')
            h--;
    return h;
}

static Obj pp_basename(Obj *args, size_t nargs, Obj kwnames)
{
    PathStr ps;
    if (!one_path_fn(args, nargs, kwnames, "basename", &ps))
        return NULL;
    size_t i = last_sep(ps.p, ps.n);
    Obj res = mkpath(ps.bytes, ps.p + i, ps.n - i);
    free(ps.p);
    return res;
}

static Obj pp_dirname(Obj *args, size_t nargs, Obj kwnames)
{
    PathStr ps;
    if (!one_path_fn(args, nargs, kwnames, "dirname", &ps))
        return NULL;
    size_t i = last_sep(ps.p, ps.n);
    Obj res = mkpath(ps.bytes, ps.p, split_head_len(ps.p, i));
    free(ps.p);
    return res;
}

static Obj pp_split(Obj *args, size_t nargs, Obj kwnames)
{
    PathStr ps;
    if (!one_path_fn(args, nargs, kwnames, "split", &ps))
        return NULL;
    size_t i = last_sep(ps.p, ps.n);
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = mkpath(ps.bytes, ps.p, split_head_len(ps.p, i));
    r[1] = r[0] ? mkpath(ps.bytes, ps.p + i, ps.n - i) : NULL;
    if (r[1])
        res = tuple_pack(2, r[0], r[1]);
    free(ps.p);
    vm_unroots(r);
    return res;
}

static Obj pp_splitext(Obj *args, size_t nargs, Obj kwnames)
{
    PathStr ps;
    if (!one_path_fn(args, nargs, kwnames, "splitext", &ps))
        return NULL;
    size_t sep = last_sep(ps.p, ps.n);   /* index after the last '/' */
    size_t cut = ps.n;
    /* last dot after the last separator, not counting leading dots */
    const char *dot = NULL;
    for (size_t k = ps.n; k > sep; k--)
        if (ps.p[k - 1] == '.') {
            dot = ps.p + k - 1;
            break;
        }
    if (dot) {
        size_t di = (size_t)(dot - ps.p);
        for (size_t k = sep; k < di; k++)
            if (ps.p[k] != '.') {
                cut = di;
                break;
            }
    }
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = mkpath(ps.bytes, ps.p, cut);
    r[1] = r[0] ? mkpath(ps.bytes, ps.p + cut, ps.n - cut) : NULL;
    if (r[1])
        res = tuple_pack(2, r[0], r[1]);
    free(ps.p);
    vm_unroots(r);
    return res;
}

static Obj pp_isabs(Obj *args, size_t nargs, Obj kwnames)
{
    PathStr ps;
    if (!one_path_fn(args, nargs, kwnames, "isabs", &ps))
        return NULL;
    bool abs = ps.n > 0 && ps.p[0] == '/';
    free(ps.p);
    return vm_bool(abs);
}

static Obj pp_join(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs < 1) {
        err_set(E_TypeError, "join() missing 1 required positional argument: 'a'");
        return NULL;
    }
    PathStr first;
    if (pstr(args[0], &first) < 0)
        return NULL;
    StrBuf b;
    sb_init(&b);
    sb_add(&b, first.p, first.n);
    free(first.p);
    for (size_t i = 1; i < nargs; i++) {
        Obj v = vm_unwrap(args[i]);
        if (!IS_STR(v) && !IS_BYTES(v) && !vm_lookup_special(args[i], "__fspath__")) {
            sb_free(&b);
            err_format(E_TypeError, "join() argument must be str, bytes, or os.PathLike object, not '%s'",
                       type_name(args[i]));
            return NULL;
        }
        PathStr ps;
        if (pstr(args[i], &ps) < 0) {
            sb_free(&b);
            return NULL;
        }
        if (ps.bytes != first.bytes) {
            free(ps.p);
            sb_free(&b);
            err_set(E_TypeError, "Can't mix strings and bytes in path components");
            return NULL;
        }
        if (ps.n && ps.p[0] == '/')
            b.len = 0;
        else if (b.len && b.p[b.len - 1] != '/')
            sb_addc(&b, '/');
        sb_add(&b, ps.p, ps.n);
        free(ps.p);
    }
    Obj res = mkpath(first.bytes, b.p ? b.p : "", b.len);
    sb_free(&b);
    return res;
}

/* CPython's posixpath.normpath into out. */
static void normpath_c(const char *p, size_t n, StrBuf *out)
{
    if (n == 0) {
        sb_addc(out, '.');
        return;
    }
    int initial = p[0] == '/' ? 1 : 0;
    if (initial && n >= 2 && p[1] == '/' && !(n >= 3 && p[2] == '/'))
        initial = 2;
    /* components: start offsets and lengths */
    size_t *cs = malloc(sizeof(size_t) * (n + 1)), *cl = malloc(sizeof(size_t) * (n + 1));
    if (!cs || !cl) {
        free(cs);
        free(cl);
        sb_add(out, p, n);
        return;
    }
    size_t nc = 0;
    size_t i = 0;
    while (i <= n) {
        size_t j = i;
        while (j < n && p[j] != '/')
            j++;
        size_t len = j - i;
        const char *c = p + i;
        if (len == 0 || (len == 1 && c[0] == '.')) {
            /* skip */
        } else if (len == 2 && c[0] == '.' && c[1] == '.') {
            bool last_dotdot = nc > 0 && cl[nc - 1] == 2 && p[cs[nc - 1]] == '.' && p[cs[nc - 1] + 1] == '.';
            if ((!initial && nc == 0) || last_dotdot) {
                cs[nc] = i;
                cl[nc++] = len;
            } else if (nc > 0) {
                nc--;
            }
        } else {
            cs[nc] = i;
            cl[nc++] = len;
        }
        i = j + 1;
    }
    for (int k = 0; k < initial; k++)
        sb_addc(out, '/');
    for (size_t k = 0; k < nc; k++) {
        if (k)
            sb_addc(out, '/');
        sb_add(out, p + cs[k], cl[k]);
    }
    if (out->len == 0)
        sb_addc(out, '.');
    free(cs);
    free(cl);
}

static Obj pp_normpath(Obj *args, size_t nargs, Obj kwnames)
{
    PathStr ps;
    if (!one_path_fn(args, nargs, kwnames, "normpath", &ps))
        return NULL;
    StrBuf b;
    sb_init(&b);
    normpath_c(ps.p, ps.n, &b);
    Obj res = mkpath(ps.bytes, b.p, b.len);
    sb_free(&b);
    free(ps.p);
    return res;
}

/* abspath into out (C string). raw: p is bytes (the file system's), else
 * str's UTF-8 (the working directory is decoded to match). */
static int abspath_c(const char *p, size_t n, StrBuf *out, bool raw)
{
    StrBuf tmp;
    sb_init(&tmp);
    if (n == 0 || p[0] != '/') {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd)) {
            sb_free(&tmp);
            err_from_errno(errno, NULL);
            return -1;
        }
        if (raw)
            sb_adds(&tmp, cwd);
        else
            sb_add_os(&tmp, cwd, strlen(cwd));
        if (n) {
            if (tmp.len && tmp.p[tmp.len - 1] != '/')
                sb_addc(&tmp, '/');
            sb_add(&tmp, p, n);
        }
    } else {
        sb_add(&tmp, p, n);
    }
    normpath_c(tmp.p, tmp.len, out);
    sb_free(&tmp);
    return 0;
}

static Obj pp_abspath(Obj *args, size_t nargs, Obj kwnames)
{
    PathStr ps;
    if (!one_path_fn(args, nargs, kwnames, "abspath", &ps))
        return NULL;
    StrBuf b;
    sb_init(&b);
    Obj res = NULL;
    if (abspath_c(ps.p, ps.n, &b, ps.bytes) == 0)
        res = mkpath(ps.bytes, b.p, b.len);
    sb_free(&b);
    free(ps.p);
    return res;
}

static Obj pp_realpath(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"path", "strict", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("realpath", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    PathStr ps;
    if (pstr_as(a[0], &ps, true) < 0)
        goto out;
    StrBuf abs;
    sb_init(&abs);
    if (abspath_c(ps.p, ps.n, &abs, true) < 0) {
        free(ps.p);
        goto out;
    }
    sb_addc(&abs, 0);
    /* resolve the longest prefix that exists; keep the rest as it is */
    char real[PATH_MAX];
    char *path = abs.p;
    size_t len = strlen(path);
    size_t cut = len;
    StrBuf b;
    sb_init(&b);
    for (;;) {
        char saved = path[cut];
        path[cut] = 0;
        bool ok = realpath(path, real) != NULL;
        path[cut] = saved;
        if (ok) {
            sb_adds(&b, real);
            if (cut < len) {
                if (b.len && b.p[b.len - 1] != '/')
                    sb_addc(&b, '/');
                sb_adds(&b, path + cut + (path[cut] == '/'));
            }
            break;
        }
        while (cut > 0 && path[cut - 1] != '/')
            cut--;
        if (cut <= 1) {
            sb_adds(&b, path);
            break;
        }
        cut--;
    }
    res = mkpath_os(ps.bytes, b.p, b.len);
    sb_free(&b);
    sb_free(&abs);
    free(ps.p);
out:
    vm_unroots(a);
    return res;
}

static Obj pp_relpath(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"path", "start", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("relpath", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    PathStr p, s = {0};
    if (pstr(a[0], &p) < 0)
        goto out;
    if (p.n == 0) {
        free(p.p);
        err_set(E_ValueError, "no path specified");
        goto out;
    }
    if (a[1] && !IS_NONE(a[1])) {
        if (pstr(a[1], &s) < 0) {
            free(p.p);
            goto out;
        }
    } else {
        s.p = strdup(".");
        s.n = 1;
        s.bytes = p.bytes;
    }
    StrBuf pa, sa, b;
    sb_init(&pa);
    sb_init(&sa);
    sb_init(&b);
    if (abspath_c(p.p, p.n, &pa, p.bytes) == 0 && abspath_c(s.p, s.n, &sa, p.bytes) == 0) {
        sb_addc(&pa, 0);
        sb_addc(&sa, 0);
        /* components of both (empty ones dropped) */
        char *pc[PATH_MAX / 2], *sc[PATH_MAX / 2];
        int np = 0, ns = 0;
        for (char *t = strtok(pa.p, "/"); t && np < PATH_MAX / 2; t = strtok(NULL, "/"))
            pc[np++] = t;
        for (char *t = strtok(sa.p, "/"); t && ns < PATH_MAX / 2; t = strtok(NULL, "/"))
            sc[ns++] = t;
        int common = 0;
        while (common < np && common < ns && !strcmp(pc[common], sc[common]))
            common++;
        for (int k = common; k < ns; k++) {
            if (b.len)
                sb_addc(&b, '/');
            sb_adds(&b, "..");
        }
        for (int k = common; k < np; k++) {
            if (b.len)
                sb_addc(&b, '/');
            sb_adds(&b, pc[k]);
        }
        if (b.len == 0)
            sb_addc(&b, '.');
        res = mkpath(p.bytes, b.p, b.len);
    }
    sb_free(&pa);
    sb_free(&sa);
    sb_free(&b);
    free(p.p);
    free(s.p);
out:
    vm_unroots(a);
    return res;
}

static Obj pp_commonprefix(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = vm_list_from_iter(args[0]);
    if (!r[0])
        goto out;
    int64_t n = LIST_LEN(r[0]);
    if (n == 0) {
        res = g_empty_str;
        goto out;
    }
    /* the common prefix of all (the min and max of the list share it) */
    Obj first = LIST_ITEMS(r[0])[0];
    if (!IS_STR(first)) {
        err_set(E_NotImplementedError, "os.path.commonprefix() of non-str items is not supported yet");
        goto out;
    }
    int64_t len = STR(first)->nbytes;
    for (int64_t i = 1; i < n; i++) {
        Obj s = LIST_ITEMS(r[0])[i];
        if (!IS_STR(s)) {
            err_set(E_NotImplementedError, "os.path.commonprefix() of non-str items is not supported yet");
            goto out;
        }
        const char *a = str_cstr(LIST_ITEMS(r[0])[0]), *b = str_cstr(s);
        int64_t k = 0;
        while (k < len && k < STR(s)->nbytes && a[k] == b[k])
            k++;
        len = k;
    }
    /* never cut inside a UTF-8 sequence */
    const char *a = str_cstr(LIST_ITEMS(r[0])[0]);
    while (len > 0 && (a[len] & 0xc0) == 0x80)
        len--;
    res = str_new(a, (size_t)len);
out:
    vm_unroots(r);
    return res;
}

static Obj pp_expanduser(Obj *args, size_t nargs, Obj kwnames)
{
    PathStr ps;
    if (!one_path_fn(args, nargs, kwnames, "expanduser", &ps))
        return NULL;
    if (ps.n == 0 || ps.p[0] != '~') {
        Obj res = mkpath(ps.bytes, ps.p, ps.n);
        free(ps.p);
        return res;
    }
    size_t i = 1;
    while (i < ps.n && ps.p[i] != '/')
        i++;
    const char *home = NULL;
    if (i == 1) {
        home = getenv("HOME");
        if (!home) {
            struct passwd *pw = getpwuid(getuid());
            home = pw ? pw->pw_dir : NULL;
        }
    } else {
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(i - 1), ps.p + 1);
        if (!ps.bytes)
            utf8_unescape_os(name, strlen(name));
        struct passwd *pw = getpwnam(name);
        home = pw ? pw->pw_dir : NULL;
    }
    Obj res;
    if (!home) {
        res = mkpath(ps.bytes, ps.p, ps.n);
    } else {
        StrBuf b;
        sb_init(&b);
        size_t hl = strlen(home);
        while (hl > 1 && home[hl - 1] == '/')
            hl--;
        if (ps.bytes)
            sb_add(&b, home, hl);
        else
            sb_add_os(&b, home, hl);
        sb_add(&b, ps.p + i, ps.n - i);
        if (b.len == 0)
            sb_addc(&b, '/');
        res = mkpath(ps.bytes, b.p, b.len);
        sb_free(&b);
    }
    free(ps.p);
    return res;
}

static Obj pp_expandvars(Obj *args, size_t nargs, Obj kwnames)
{
    PathStr ps;
    if (!one_path_fn(args, nargs, kwnames, "expandvars", &ps))
        return NULL;
    StrBuf b;
    sb_init(&b);
    for (size_t i = 0; i < ps.n;) {
        if (ps.p[i] != '$') {
            sb_addc(&b, ps.p[i++]);
            continue;
        }
        size_t start = i + 1, end;
        bool brace = start < ps.n && ps.p[start] == '{';
        if (brace) {
            end = start + 1;
            while (end < ps.n && ps.p[end] != '}')
                end++;
            if (end >= ps.n) {
                sb_add(&b, ps.p + i, ps.n - i);
                break;
            }
        } else {
            end = start;
            while (end < ps.n && (ps.p[end] == '_' || (ps.p[end] >= 'a' && ps.p[end] <= 'z') ||
                                  (ps.p[end] >= 'A' && ps.p[end] <= 'Z') || (ps.p[end] >= '0' && ps.p[end] <= '9')))
                end++;
        }
        size_t ns = brace ? start + 1 : start;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(end - ns), ps.p + ns);
        if (!ps.bytes)
            utf8_unescape_os(name, strlen(name));
        const char *val = (end > ns) ? getenv(name) : NULL;
        size_t stop = brace ? end + 1 : end;
        if (val && ps.bytes)
            sb_adds(&b, val);
        else if (val)
            sb_add_os(&b, val, strlen(val));
        else
            sb_add(&b, ps.p + i, stop - i);
        i = stop > i ? stop : i + 1;
    }
    Obj res = mkpath(ps.bytes, b.p ? b.p : "", b.len);
    sb_free(&b);
    free(ps.p);
    return res;
}

/* Predicates on the file system: a bad path is just false. */
static int stat_arg(Obj v, struct stat *st, bool follow)
{
    int rc = stat_any(v, "stat", follow, true, st);
    if (rc == -2 && (err_matches(E_ValueError) || err_matches(E_OverflowError))) {
        err_clear();   /* embedded NUL, fd out of range: just "no such file" */
        return -1;
    }
    return rc;
}

#define PRED(fname, follow, test)                                              \
    static Obj pp_##fname(Obj *args, size_t nargs, Obj kwnames)                \
    {                                                                          \
        struct stat st;                                                        \
        int rc = stat_arg(args[0], &st, follow);                               \
        if (rc == -2)                                                          \
            return NULL;                                                       \
        return vm_bool(rc == 0 && (test));                                     \
    }
PRED(exists, true, true)
PRED(lexists, false, true)
PRED(isfile, true, S_ISREG(st.st_mode))
PRED(isdir, true, S_ISDIR(st.st_mode))
PRED(islink, false, S_ISLNK(st.st_mode))

/* getsize and friends raise OSError. */
static Obj stat_value(Obj *args, int what)
{
    struct stat st;
    int rc = stat_any(args[0], "stat", true, true, &st);
    if (rc == -2)
        return NULL;
    if (rc < 0)
        return err_from_errno(errno, args[0]);
    switch (what) {
    case 0: return int_from_i64(st.st_size);
    case 1: return float_new(ts_float(st.st_mtim));
    case 2: return float_new(ts_float(st.st_atim));
    default: return float_new(ts_float(st.st_ctim));
    }
}

static Obj pp_getsize(Obj *args, size_t nargs, Obj kwnames) { return stat_value(args, 0); }
static Obj pp_getmtime(Obj *args, size_t nargs, Obj kwnames) { return stat_value(args, 1); }
static Obj pp_getatime(Obj *args, size_t nargs, Obj kwnames) { return stat_value(args, 2); }
static Obj pp_getctime(Obj *args, size_t nargs, Obj kwnames) { return stat_value(args, 3); }

static Obj pp_samefile(Obj *args, size_t nargs, Obj kwnames)
{
    struct stat a, b;
    int r1 = stat_any(args[0], "stat", true, true, &a);
    if (r1 == -2)
        return NULL;
    if (r1 < 0)
        return err_from_errno(errno, args[0]);
    int r2 = stat_any(args[1], "stat", true, true, &b);
    if (r2 == -2)
        return NULL;
    if (r2 < 0)
        return err_from_errno(errno, args[1]);
    return vm_bool(a.st_dev == b.st_dev && a.st_ino == b.st_ino);
}

static Obj pp_normcase(Obj *args, size_t nargs, Obj kwnames)
{
    return vm_fspath(args[0]);
}

static Obj pp_splitdrive(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = vm_fspath(args[0]);
    if (r[0]) {
        r[1] = IS_BYTES(r[0]) ? bytes_new("", 0) : g_empty_str;
        if (r[1])
            res = tuple_pack(2, r[1], r[0]);
    }
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* Module set-up                                                       */
/* ------------------------------------------------------------------ */

static const MethodDef posixpath_functions[] = {
    {"join", pp_join, 0, NULL},
    {"split", pp_split, METH_O, NULL},
    {"basename", pp_basename, METH_O, NULL},
    {"dirname", pp_dirname, METH_O, NULL},
    {"splitext", pp_splitext, METH_O, NULL},
    {"splitdrive", pp_splitdrive, METH_O, NULL},
    {"isabs", pp_isabs, METH_O, NULL},
    {"normpath", pp_normpath, METH_O, NULL},
    {"normcase", pp_normcase, METH_O, NULL},
    {"abspath", pp_abspath, METH_O, NULL},
    {"realpath", pp_realpath, METH_KW, NULL},
    {"relpath", pp_relpath, METH_KW, NULL},
    {"commonprefix", pp_commonprefix, METH_O, NULL},
    {"expanduser", pp_expanduser, METH_O, NULL},
    {"expandvars", pp_expandvars, METH_O, NULL},
    {"exists", pp_exists, METH_O, NULL},
    {"lexists", pp_lexists, METH_O, NULL},
    {"isfile", pp_isfile, METH_O, NULL},
    {"isdir", pp_isdir, METH_O, NULL},
    {"islink", pp_islink, METH_O, NULL},
    {"getsize", pp_getsize, METH_O, NULL},
    {"getmtime", pp_getmtime, METH_O, NULL},
    {"getatime", pp_getatime, METH_O, NULL},
    {"getctime", pp_getctime, METH_O, NULL},
    {"samefile", pp_samefile, METH_ARGS(2, 2), NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef os_functions[] = {
    {"getcwd", os_getcwd, METH_NOARGS, NULL},
    {"getcwdb", os_getcwdb, METH_NOARGS, NULL},
    {"chdir", os_chdir, METH_KW, NULL},
    {"listdir", os_listdir, METH_KW, NULL},
    {"mkdir", os_mkdir, METH_KW, NULL},
    {"makedirs", os_makedirs, METH_KW, NULL},
    {"remove", os_remove, METH_KW, NULL},
    {"unlink", os_unlink, METH_KW, NULL},
    {"rmdir", os_rmdir, METH_KW, NULL},
    {"rename", os_rename, METH_KW, NULL},
    {"replace", os_replace, METH_KW, NULL},
    {"stat", os_stat, METH_KW, NULL},
    {"get_terminal_size", os_get_terminal_size, METH_ARGS(0, 1), NULL},
    {"lstat", os_lstat, METH_KW, NULL},
    {"fstat", os_fstat, METH_O, NULL},
    {"access", os_access, METH_KW, NULL},
    {"chmod", os_chmod, METH_KW, NULL},
    {"open", os_open, METH_KW, NULL},
    {"close", os_close, METH_O, NULL},
    {"read", os_read, METH_ARGS(2, 2), NULL},
    {"write", os_write, METH_ARGS(2, 2), NULL},
    {"getenv", os_getenv, METH_KW, NULL},
    {"putenv", os_putenv, METH_ARGS(2, 2), NULL},
    {"unsetenv", os_unsetenv, METH_O, NULL},
    {"getpid", os_getpid, METH_NOARGS, NULL},
    {"getppid", os_getppid, METH_NOARGS, NULL},
    {"getuid", os_getuid, METH_NOARGS, NULL},
    {"geteuid", os_geteuid, METH_NOARGS, NULL},
    {"getgid", os_getgid, METH_NOARGS, NULL},
    {"getegid", os_getegid, METH_NOARGS, NULL},
    {"cpu_count", os_cpu_count, METH_NOARGS, NULL},
    {"urandom", os_urandom, METH_O, NULL},
    {"strerror", os_strerror, METH_O, NULL},
    {"fspath", os_fspath, METH_KW, NULL},
    {"fsencode", os_fsencode, METH_KW, NULL},
    {"fsdecode", os_fsdecode, METH_KW, NULL},
    {"system", os_system, METH_KW, NULL},
    {"_exit", os__exit, METH_O, NULL},
    {"kill", os_kill, METH_OLDMSG | METH_ARGS(2, 2), NULL},
    {"walk", os_walk, METH_KW, NULL},
    {NULL, NULL, 0, NULL},
};

/* Name/value pairs shared by os and os.path. */
static int add_strs(Obj m, const char *const (*pairs)[2], size_t n)
{
    Obj *r = vm_roots(2);
    int rc = 0;
    r[0] = m;
    for (size_t i = 0; i < n && rc == 0; i++) {
        r[1] = pairs[i][1] ? str_from_cstr(pairs[i][1]) : g_None;
        rc = r[1] ? module_add(r[0], pairs[i][0], r[1]) : -1;
    }
    vm_unroots(r);
    return rc;
}

static const char *const path_consts[][2] = {
    {"sep", "/"}, {"curdir", "."}, {"pardir", ".."}, {"extsep", "."}, {"altsep", NULL},
    {"pathsep", ":"}, {"defpath", "/bin:/usr/bin"}, {"devnull", "/dev/null"},
};

Obj posixpath_module_init(void)
{
    if (g_posixpath_module)
        return g_posixpath_module;
    VM_GLOBAL_ROOT(g_posixpath_module);
    Obj m = module_new("posixpath");
    if (!m)
        return NULL;
    g_posixpath_module = m;
    module_add_functions(g_posixpath_module, posixpath_functions);
    if (add_strs(g_posixpath_module, path_consts, ARRAY_LEN(path_consts)) < 0 ||
        module_add(g_posixpath_module, "supports_unicode_filenames", g_False) < 0)
        return NULL;
    if (dict_setitem_cstr(g_modules, "posixpath", g_posixpath_module) < 0 ||
        dict_setitem_cstr(g_modules, "os.path", g_posixpath_module) < 0)
        return NULL;
    return g_posixpath_module;
}

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
        size_t kl = (size_t)(eq - *e), vl = strlen(eq + 1);
        r[1] = str_from_os(*e, kl);
        r[2] = r[1] ? str_from_os(eq + 1, vl) : NULL;
        if (!r[2] || dict_setitem(r[0], r[1], r[2]) < 0)
            goto out;
    }
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

/* os.environ: a dict subclass whose changes reach the process environment
 * through putenv/unsetenv (which encode with surrogateescape), as CPython's
 * os._Environ does. Run in the os module's namespace. */
static const char environ_class_src[] =
    "class _Environ(dict):\n"
    "    __slots__ = ()\n"
    "    def __setitem__(self, key, value):\n"
    "        putenv(key, value)\n"
    "        dict.__setitem__(self, key, value)\n"
    "    def __delitem__(self, key):\n"
    "        unsetenv(key)\n"
    "        if key not in self:\n"
    "            raise KeyError(key)\n"
    "        dict.__delitem__(self, key)\n"
    "    def setdefault(self, key, value):\n"
    "        if key not in self:\n"
    "            self[key] = value\n"
    "        return self[key]\n"
    "    def update(self, other=(), /, **kwds):\n"
    "        if isinstance(other, dict):\n"
    "            pairs = [(k, other[k]) for k in other]\n"
    "        elif hasattr(other, 'keys'):\n"
    "            pairs = [(k, other[k]) for k in other.keys()]\n"
    "        else:\n"
    "            pairs = other\n"
    "        for key, value in pairs:\n"
    "            self[key] = value\n"
    "        for key, value in kwds.items():\n"
    "            self[key] = value\n"
    "    _nothing = object()\n"
    "    def pop(self, key, default=_nothing):\n"
    "        if key in self:\n"
    "            value = self[key]\n"
    "            del self[key]\n"
    "            return value\n"
    "        if default is _Environ._nothing:\n"
    "            raise KeyError(key)\n"
    "        return default\n"
    "    def popitem(self):\n"
    "        for key in self:\n"
    "            return key, self.pop(key)\n"
    "        raise KeyError\n"
    "    def clear(self):\n"
    "        for key in list(self):\n"
    "            del self[key]\n"
    "    def copy(self):\n"
    "        return dict(self)\n"
    "    def __repr__(self):\n"
    "        return 'environ({%s})' % ', '.join('%r: %r' % kv for kv in self.items())\n"
    "    def __ior__(self, other):\n"
    "        self.update(other)\n"
    "        return self\n"
    "    def __or__(self, other):\n"
    "        if not isinstance(other, dict):\n"
    "            return NotImplemented\n"
    "        merged = dict(self)\n"
    "        merged.update(other)\n"
    "        return merged\n"
    "    def __ror__(self, other):\n"
    "        if not isinstance(other, dict):\n"
    "            return NotImplemented\n"
    "        merged = dict(other)\n"
    "        merged.update(self)\n"
    "        return merged\n"
    "_Environ.__module__ = 'os'\n";

/* os.environ over the dict of the start-up environment (in *data, a root). */
static Obj make_environ_object(Obj mod, Obj *data)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = mod;
    r[1] = vm_compile(environ_class_src, sizeof environ_class_src - 1, "<os>", COMPILE_EXEC);
    if (!r[1])
        goto out;
    Obj d = ((ModuleObj *)r[0])->dict;
    if (!vm_eval_code(r[1], d, d))
        goto out;
    r[2] = dict_getitem_cstr(((ModuleObj *)r[0])->dict, "_Environ");
    if (!r[2]) {
        if (!err_occurred())
            err_set(E_SystemError, "os: _Environ missing");
        goto out;
    }
    res = vm_call1(r[2], *data);
out:
    vm_unroots(r);
    return res;
}

/* os.supports_dir_fd, supports_fd, supports_follow_symlinks and
 * supports_effective_ids, the sets of functions that honour those
 * arguments (shutil and others consult them): stat takes a file
 * descriptor and follow_symlinks; no function here acts on dir_fd or
 * effective_ids. */
static int add_supports_sets(Obj m)
{
    static const char *const names[] = {"supports_dir_fd", "supports_fd", "supports_follow_symlinks",
                                        "supports_effective_ids"};
    Obj *r = vm_roots(3);
    int rc = -1;
    r[0] = m;
    for (int i = 0; i < 4; i++) {
        r[1] = set_new(NULL);
        if (!r[1])
            goto out;
        if (i == 1 || i == 2) {
            r[2] = vm_getattr_cstr(r[0], "stat");
            if (!r[2] || set_add(r[1], r[2]) < 0)
                goto out;
        }
        if (module_add(r[0], names[i], r[1]) < 0)
            goto out;
    }
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

Obj os_module_init(void)
{
    if (g_os_module)
        return g_os_module;
    VM_GLOBAL_ROOT(g_os_module);
    VM_GLOBAL_ROOT(g_environ);
    VM_GLOBAL_ROOT(g_stat_result);
    if (!T_walk_iterator) {
        TypeObj *t = (TypeObj *)type_new_builtin("walk_iterator", T_object, TID_ITER, 0);
        VM_WRITE_RARE(t);
        t->tp_iter = iter_self;
        t->tp_iternext = walk_next;
        type_ready(t);
        T_walk_iterator = t;
    }
    if (!g_stat_result) {
        g_stat_result = structseq_new_type("os", "stat_result", stat_fields, 10, 7);
        if (!g_stat_result)
            return NULL;
    }
    VM_GLOBAL_ROOT(g_terminal_size);
    if (!g_terminal_size) {
        static const char *const fields[] = {"columns", "lines"};
        g_terminal_size = structseq_new_type("os", "terminal_size", fields, 2, 2);
        if (!g_terminal_size)
            return NULL;
    }
    Obj pathmod = posixpath_module_init();
    if (!pathmod)
        return NULL;
    Obj m = module_new("os");
    if (!m)
        return NULL;
    g_os_module = m;
    module_add_functions(g_os_module, os_functions);
    g_environ = make_environ();
    if (!g_environ)
        return NULL;
    static const struct { const char *name; int64_t v; } ints[] = {
        {"F_OK", F_OK}, {"R_OK", R_OK}, {"W_OK", W_OK}, {"X_OK", X_OK},
        {"O_RDONLY", O_RDONLY}, {"O_WRONLY", O_WRONLY}, {"O_RDWR", O_RDWR}, {"O_APPEND", O_APPEND},
        {"O_CREAT", O_CREAT}, {"O_EXCL", O_EXCL}, {"O_TRUNC", O_TRUNC}, {"O_NONBLOCK", O_NONBLOCK},
        {"O_CLOEXEC", O_CLOEXEC}, {"SEEK_SET", SEEK_SET}, {"SEEK_CUR", SEEK_CUR}, {"SEEK_END", SEEK_END},
        {"EX_OK", 0},
    };
    for (size_t i = 0; i < ARRAY_LEN(ints); i++)
        if (module_add(g_os_module, ints[i].name, MAKE_SMALLINT(ints[i].v)) < 0)
            return NULL;
    static const char *const os_consts[][2] = {{"name", "posix"}, {"linesep", "\n"}};
    if (add_strs(g_os_module, path_consts, ARRAY_LEN(path_consts)) < 0 ||
        add_strs(g_os_module, os_consts, ARRAY_LEN(os_consts)) < 0 ||
        !(g_environ = make_environ_object(g_os_module, &g_environ)) ||
        module_add(g_os_module, "environ", g_environ) < 0 ||
        module_add(g_os_module, "path", g_posixpath_module) < 0 ||
        module_add(g_os_module, "error", (Obj)E_OSError) < 0 ||
        module_add(g_os_module, "stat_result", g_stat_result) < 0 ||
        module_add(g_os_module, "terminal_size", g_terminal_size) < 0 || add_supports_sets(g_os_module) < 0)
        return NULL;
    return g_os_module;
}
