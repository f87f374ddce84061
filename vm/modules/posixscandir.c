/* posix.scandir and posix.DirEntry.
 *
 * scandir reads the whole directory when it is called (CPython reads it as
 * the iterator goes): no directory stream stays open across Python code,
 * so an iterator that is dropped without close() leaks no descriptor and
 * an STM abort has nothing to undo. The entries are those of that moment.
 *
 * A DirEntry is an IterObj: a = name, b = path (str or bytes, as the
 * argument), c = the cached [stat, lstat] results (a list, made on first
 * use), i = d_type, n = d_ino, kind = the directory's fd when scandir was
 * given one (its stat() works relative to it), else AT_FDCWD. */
#define _GNU_SOURCE
#include "posix.h"
#include "objects/containers.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

static TypeObj *T_dir_entry, *T_scandir_iterator;

/* ---- DirEntry ---- */

static Obj entry_name(Obj *args, size_t nargs, Obj kwnames) { return ITER(args[0])->a; }
static Obj entry_path(Obj *args, size_t nargs, Obj kwnames) { return ITER(args[0])->b; }

static Obj entry_inode(Obj *args, size_t nargs, Obj kwnames) { return int_from_u64((uint64_t)ITER(args[0])->n); }

static Obj entry_fspath(Obj *args, size_t nargs, Obj kwnames) { return ITER(args[0])->b; }

static Obj entry_repr(Obj self)
{
    Obj *r = vm_roots(1);
    r[0] = vm_repr(ITER(self)->a);
    Obj res = r[0] ? str_from_format("<DirEntry %s>", str_cstr(r[0])) : NULL;
    vm_unroots(r);
    return res;
}

/* The entry's stat (follow) or lstat result, cached; NULL with OSError. */
static Obj entry_stat_obj(Obj self, bool follow)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    if (follow && ITER(r[0])->i != DT_LNK && ITER(r[0])->i != DT_UNKNOWN)
        follow = false;   /* not a link: stat and lstat agree */
    int slot = follow ? 0 : 1;
    if (!ITER(r[0])->c) {
        r[1] = list_new_capacity(2);
        if (!r[1] || list_append(r[1], g_None) < 0 || list_append(r[1], g_None) < 0)
            goto out;
        VM_WRITE(r[0]);
        ITER(r[0])->c = r[1];
    }
    Obj cached = LIST_ITEMS(ITER(r[0])->c)[slot];
    if (!IS_NONE(cached)) {
        res = cached;
        goto out;
    }
    int dfd = (int)ITER(r[0])->kind;
    PosixPath p;
    if (posix_path(dfd == AT_FDCWD ? ITER(r[0])->b : ITER(r[0])->a, "stat", "path", false, false, &p) < 0)
        goto out;
    struct stat st;
    int rc = fstatat(dfd, p.c, &st, follow ? 0 : AT_SYMLINK_NOFOLLOW);
    posix_path_free(&p);
    if (rc < 0) {
        posix_error(ITER(r[0])->b);
        goto out;
    }
    r[1] = posix_stat_result(&st);
    if (!r[1])
        goto out;
    VM_WRITE(ITER(r[0])->c);
    LIST_ITEMS(ITER(r[0])->c)[slot] = r[1];
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

/* Whether the entry's file type is `want` (a DT_ value, S_IFMT bits);
 * 1, 0, or -1 with an error. A file gone since is none of them. */
static int entry_is(Obj self, bool follow, int want_dt, unsigned want_fmt)
{
    int dt = (int)ITER(self)->i;
    if (dt != DT_UNKNOWN && !(follow && dt == DT_LNK))
        return dt == want_dt;
    Obj st = entry_stat_obj(self, follow);
    if (!st) {
        if (!err_matches(E_FileNotFoundError))
            return -1;
        err_clear();
        return 0;
    }
    int64_t mode;
    if (int_as_i64(TUPLE_ITEMS(vm_unwrap(st))[0], &mode) < 0)
        return -1;
    return ((unsigned)mode & S_IFMT) == want_fmt;
}

static int follow_arg(const char *fname, Obj *args, size_t nargs, Obj kwnames, bool *follow)
{
    static const char *const names[] = {"follow_symlinks", NULL};
    Obj *a = vm_roots(1);
    int rc = vm_parse_args(fname, args + 1, nargs - 1, kwnames, names, 0, 0, a) < 0 ? -1 : posix_bool(a[0], true, follow);
    vm_unroots(a);
    return rc;
}

static Obj entry_is_dir(Obj *args, size_t nargs, Obj kwnames)
{
    bool follow;
    if (follow_arg("is_dir", args, nargs, kwnames, &follow) < 0)
        return NULL;
    int t = entry_is(args[0], follow, DT_DIR, S_IFDIR);
    return t < 0 ? NULL : vm_bool(t);
}

static Obj entry_is_file(Obj *args, size_t nargs, Obj kwnames)
{
    bool follow;
    if (follow_arg("is_file", args, nargs, kwnames, &follow) < 0)
        return NULL;
    int t = entry_is(args[0], follow, DT_REG, S_IFREG);
    return t < 0 ? NULL : vm_bool(t);
}

static Obj entry_is_symlink(Obj *args, size_t nargs, Obj kwnames)
{
    int t = entry_is(args[0], false, DT_LNK, S_IFLNK);
    return t < 0 ? NULL : vm_bool(t);
}

static Obj entry_stat(Obj *args, size_t nargs, Obj kwnames)
{
    bool follow;
    if (follow_arg("stat", args, nargs, kwnames, &follow) < 0)
        return NULL;
    return entry_stat_obj(args[0], follow);
}

static const MethodDef entry_methods[] = {
    {"inode", entry_inode, METH_NOARGS, NULL},
    {"is_dir", entry_is_dir, METH_KW, NULL},
    {"is_file", entry_is_file, METH_KW, NULL},
    {"is_symlink", entry_is_symlink, METH_NOARGS, NULL},
    {"stat", entry_stat, METH_KW, NULL},
    {"__fspath__", entry_fspath, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* ---- ScandirIterator: a = the list of entries, i = the next one ---- */

static Obj scandir_next(Obj self)
{
    IterObj *it = ITER(self);
    Obj l = it->a;
    if (!l || it->i >= LIST_LEN(l))
        return NULL;
    VM_WRITE(self);
    ITER(self)->i++;
    return LIST_ITEMS(l)[ITER(self)->i - 1];
}

static Obj scandir_close(Obj *args, size_t nargs, Obj kwnames)
{
    VM_WRITE(args[0]);
    ITER(args[0])->a = NULL;
    return g_None;
}

static Obj scandir_enter(Obj *args, size_t nargs, Obj kwnames) { return args[0]; }

static Obj scandir_exit(Obj *args, size_t nargs, Obj kwnames) { return scandir_close(args, 1, NULL); }

static const MethodDef scandir_methods[] = {
    {"close", scandir_close, METH_NOARGS, NULL},
    {"__enter__", scandir_enter, METH_NOARGS, NULL},
    {"__exit__", scandir_exit, METH_ARGS(0, -1), NULL},
    {NULL, NULL, 0, NULL},
};

/* ---- scandir(path=None) ---- */

typedef struct { char *name; unsigned char type; ino_t ino; } RawEntry;

static void free_raw(RawEntry *e, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(e[i].name);
    free(e);
}

/* The entries of d (closed here) as C memory; -1 with errno. */
static int read_raw(DIR *d, RawEntry **out, size_t *count)
{
    size_t n = 0, cap = 16;
    RawEntry *e = malloc(cap * sizeof *e);
    struct dirent *de;
    int err = e ? 0 : ENOMEM;
    while (!err) {
        errno = 0;
        if (!(de = readdir(d))) {
            err = errno;
            break;
        }
        const char *nm = de->d_name;
        if (nm[0] == '.' && (nm[1] == 0 || (nm[1] == '.' && nm[2] == 0)))
            continue;
        if (n == cap) {
            RawEntry *m = realloc(e, 2 * cap * sizeof *e);
            if (!m) {
                err = ENOMEM;
                break;
            }
            e = m;
            cap *= 2;
        }
        e[n].name = strdup(nm);
        if (!e[n].name) {
            err = ENOMEM;
            break;
        }
        e[n].type = de->d_type;
        e[n].ino = de->d_ino;
        n++;
    }
    closedir(d);
    if (err) {
        if (e)
            free_raw(e, n);
        errno = err;
        return -1;
    }
    *out = e;
    *count = n;
    return 0;
}

Obj posix_scandir(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"path", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    PosixPath p = {0};
    RawEntry *raw = NULL;
    size_t n = 0;
    if (vm_parse_args("scandir", args, nargs, kwnames, names, 0, 1, a) < 0 ||
        posix_path(a[0], "scandir", "path", true, true, &p) < 0)
        goto out;
    DIR *d = posix_opendir(&p);
    if (!d || read_raw(d, &raw, &n) < 0) {
        if (errno == ENOMEM)
            err_nomemory();
        else
            posix_error(a[0] && !IS_NONE(a[0]) ? a[0] : NULL);
        goto out;
    }
    const char *dir = p.c ? p.c : ".";
    size_t dl = strlen(dir);
    bool slash = dl > 0 && dir[dl - 1] == '/';
    a[1] = list_new_capacity((int64_t)n);
    if (!a[1])
        goto out;
    for (size_t i = 0; i < n; i++) {
        size_t nl = strlen(raw[i].name);
        a[2] = posix_mkpath(p.bytes, raw[i].name, nl);
        if (!a[2])
            goto out;
        if (p.is_fd) {
            a[3] = a[2];
        } else {
            char *full = malloc(dl + nl + 2);
            if (!full) {
                err_nomemory();
                goto out;
            }
            memcpy(full, dir, dl);
            size_t k = dl;
            if (!slash)
                full[k++] = '/';
            memcpy(full + k, raw[i].name, nl);
            a[3] = posix_mkpath(p.bytes, full, k + nl);
            free(full);
            if (!a[3])
                goto out;
        }
        Obj e = iter_alloc(T_dir_entry, a[2], p.is_fd ? p.fd : AT_FDCWD);
        if (!e)
            goto out;
        ITER(e)->b = a[3];
        ITER(e)->i = raw[i].type;
        ITER(e)->n = (int64_t)raw[i].ino;
        if (list_append(a[1], e) < 0)
            goto out;
    }
    res = iter_alloc(T_scandir_iterator, a[1], 0);
out:
    if (raw)
        free_raw(raw, n);
    posix_path_free(&p);
    vm_unroots(a);
    return res;
}

int posix_scandir_init(Obj module)
{
    if (!T_dir_entry) {
        TypeObj *t = (TypeObj *)type_new_builtin("posix.DirEntry", T_object, TID_ITER, 0);
        VM_WRITE_RARE(t);
        t->tp_repr = entry_repr;
        type_add_methods(t, entry_methods);
        type_add_getset(t, "name", entry_name, NULL);
        type_add_getset(t, "path", entry_path, NULL);
        type_ready(t);
        T_dir_entry = t;
        t = (TypeObj *)type_new_builtin("posix.ScandirIterator", T_object, TID_ITER, 0);
        VM_WRITE_RARE(t);
        t->tp_iter = iter_self;
        t->tp_iternext = scandir_next;
        type_add_methods(t, scandir_methods);
        type_ready(t);
        T_scandir_iterator = t;
    }
    return module_add(module, "DirEntry", (Obj)T_dir_entry);
}
