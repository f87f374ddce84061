/* The import system: __import__ semantics over sys.modules, the registry of
 * modules written in C, and source files found on sys.path (packages with
 * __init__.py, namespace packages, relative imports). No bytecode caches. */
#include "eval.h"
#include "objects/strobj.h"
#include "objects/containers.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef TMPY_LIBDIR
#define TMPY_LIBDIR "/usr/local/lib/tmpy"
#endif

/* CPython's pure-Python standard library (Debian's libpython3.11-stdlib),
 * searched after lib/; the Makefile sets the default, TMPY_STDLIB overrides
 * it at run time (empty: none). */
#ifndef TMPY_STDLIBDIR
#define TMPY_STDLIBDIR "/usr/lib/python3.11"
#endif

const char *vm_libdir = TMPY_LIBDIR;
Obj g_main_module;

/* ------------------------------------------------------------------ */
/* Registry of C modules                                               */
/* ------------------------------------------------------------------ */

#define MAX_BUILTIN_MODULES 128
static struct { const char *name; module_init_fn init; } g_registry[MAX_BUILTIN_MODULES];
static int g_nregistry;
static Obj g_import_lock;   /* its monitor is the import lock */
static Obj g_loading;       /* dict: names of the modules being loaded now */

void vm_register_builtin_module(const char *name, module_init_fn init)
{
    for (int i = 0; i < g_nregistry; i++)
        if (!strcmp(g_registry[i].name, name)) {
            g_registry[i].init = init;
            return;
        }
    if (g_nregistry == MAX_BUILTIN_MODULES) {   /* start-up: a module would silently go missing */
        fprintf(stderr, "tmpy: fatal: more than %d built-in modules (raise MAX_BUILTIN_MODULES in vm/import.c)\n",
                MAX_BUILTIN_MODULES);
        exit(1);
    }
    g_registry[g_nregistry].name = name;
    g_registry[g_nregistry].init = init;
    g_nregistry++;
}

static module_init_fn find_builtin(Obj name)
{
    for (int i = 0; i < g_nregistry; i++)
        if (str_eq_cstr(name, g_registry[i].name))
            return g_registry[i].init;
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static Obj err_not_found(Obj name, const char *fmt_extra)
{
    Obj *r = vm_roots(3);
    r[0] = name;
    r[1] = fmt_extra ? str_from_format("No module named '%s'; %s", str_cstr(name), fmt_extra)
                     : str_from_format("No module named '%s'", str_cstr(r[0]));
    if (r[1]) {
        r[2] = exc_new(E_ModuleNotFoundError, &r[1], 1);
        if (r[2] && vm_setattr(r[2], NAME(name), r[0]) == 0)
            err_set_obj(r[2]);
    }
    vm_unroots(r);
    return NULL;
}

int import_read_file(const char *path, char **out, size_t *len)
{
    int fd = vm_blocking_open(path, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0) {
        int e = errno;
        Obj *r = vm_roots(1);
        r[0] = str_from_os_cstr(path);
        if (r[0])
            err_from_errno(e, r[0]);
        vm_unroots(r);
        return -1;
    }
    size_t cap = 65536, n = 0;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        cap = (size_t)st.st_size + 1;   /* +1: the NUL, and EOF is seen without growing */
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            close(fd);
            err_nomemory();
            return -1;
        }
        ssize_t got = vm_blocking_read(fd, buf + n, cap - n - 1);
        if (got < 0) {
            int e = errno;
            free(buf);
            close(fd);
            if (e != EINTR)   /* EINTR: a signal handler raised */
                err_from_errno(e, NULL);
            return -1;
        }
        if (got == 0)
            break;
        n += (size_t)got;
        if (cap - n < 2) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    close(fd);
    buf[n] = 0;
    *out = buf;
    *len = n;
    return 0;
}

static bool is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A path entry that is a file or inside one (an archive and a folder in
 * it: what zipimporter reads). */
static bool entry_in_file(const char *p)
{
    struct stat st;
    if (stat(p, &st) == 0)
        return S_ISREG(st.st_mode);
    return errno == ENOTDIR;
}

/* The directory a sys.path entry names ('' is the current directory), as
 * the file system's bytes. */
static bool entry_dir(Obj entry, char *out, size_t cap)
{
    if (!IS_STR(entry))
        return false;
    size_t n = (size_t)STR(entry)->nbytes;
    if (n == 0)
        return getcwd(out, cap) != NULL;
    if (n + 1 > cap)
        return false;
    memcpy(out, str_cstr(entry), n + 1);
    utf8_unescape_os(out, n);
    return true;
}

/* Where a module's source is. */
enum { FOUND_NONE, FOUND_MODULE, FOUND_PACKAGE, FOUND_NAMESPACE, FOUND_FILE_ENTRY };
typedef struct {
    int kind;
    char path[PATH_MAX];      /* the .py file (module or __init__.py) */
    char dir[PATH_MAX];       /* package directory */
} Found;

/* The current sys.path (user code may rebind it). */
static Obj current_sys_path(void)
{
    Obj p = sys_get("path");
    return (p && (IS_LIST(p) || IS_TUPLE(p))) ? p : g_sys_path;
}

/* Find a module by its full name in `search` (the parent's __path__ or
 * sys.path): a package directory with __init__.py first, then name.py, in
 * each entry; directories without __init__.py make a namespace package
 * (their list in *ns_dirs) if nothing else is found. With stop_at_files,
 * an entry that is a file (a zip archive: zipimporter's) ends the search
 * as FOUND_FILE_ENTRY, for CPython's PathFinder to do. */
static int find_module(Obj fullname, Obj search, Found *f, Obj *ns_dirs, bool stop_at_files)
{
    const char *full = str_cstr(fullname);
    const char *dot = strrchr(full, '.');
    char base[NAME_MAX + 1];
    snprintf(base, sizeof base, "%s", dot ? dot + 1 : full);
    char dir[PATH_MAX];
    Obj *r = vm_roots(3);
    int rc = 0;
    r[0] = search;
    f->kind = FOUND_NONE;
    for (int64_t i = 0; f->kind == FOUND_NONE; i++) {
        Obj list = r[0];
        if (!list || !(IS_LIST(list) || IS_TUPLE(list)))
            break;
        int64_t n = IS_LIST(list) ? LIST_LEN(list) : TUPLE_LEN(list);
        if (i >= n)
            break;
        Obj entry = IS_LIST(list) ? LIST_ITEMS(list)[i] : TUPLE_ITEMS(list)[i];
        if (!entry_dir(entry, dir, sizeof dir))
            continue;
        if (stop_at_files && entry_in_file(dir)) {
            f->kind = FOUND_FILE_ENTRY;
            break;
        }
        int k = snprintf(f->dir, sizeof f->dir, "%s/%s", dir, base);
        if (k < 0 || (size_t)k >= sizeof f->dir)
            continue;
        k = snprintf(f->path, sizeof f->path, "%s/__init__.py", f->dir);
        if (k > 0 && (size_t)k < sizeof f->path && is_file(f->path)) {
            f->kind = FOUND_PACKAGE;
            break;
        }
        k = snprintf(f->path, sizeof f->path, "%s/%s.py", dir, base);
        if (k > 0 && (size_t)k < sizeof f->path && is_file(f->path)) {
            f->kind = FOUND_MODULE;
            break;
        }
        if (is_dir(f->dir)) {
            if (!r[1] && !(r[1] = list_new_capacity(2))) {
                rc = -1;
                break;
            }
            r[2] = str_from_os_cstr(f->dir);
            if (!r[2] || list_append(r[1], r[2]) < 0) {
                rc = -1;
                break;
            }
        }
    }
    if (rc == 0 && f->kind == FOUND_NONE && r[1])
        f->kind = FOUND_NAMESPACE;
    *ns_dirs = r[1];
    vm_unroots(r);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */
/* ------------------------------------------------------------------ */

static Obj parent_name(Obj fullname)
{
    const char *s = str_cstr(fullname);
    const char *dot = strrchr(s, '.');
    if (!dot)
        return g_empty_str;
    return str_new(s, (size_t)(dot - s));
}

static Obj run_source_file(Obj mod, Obj path)
{
    char *cpath = strdup(str_cstr(path));   /* the code's file name */
    if (!cpath)
        return err_nomemory();
    char *ospath = str_to_os(path, NULL);
    if (!ospath) {
        free(cpath);
        return NULL;
    }
    char *src;
    size_t len;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = mod;
    if (import_read_file(ospath, &src, &len) == 0) {
        r[1] = vm_compile(src, len, cpath, COMPILE_EXEC);
        free(src);
        if (r[1]) {
            Obj d = ((ModuleObj *)r[0])->dict;
            res = vm_eval_code(r[1], d, d);
        }
    }
    free(cpath);
    free(ospath);
    vm_unroots(r);
    return res;
}

/* __cached__ of a module from DIR/NAME.py: DIR/__pycache__/NAME.tmpy-311.pyc, what
 * importlib.util.cache_from_source gives (sys.implementation.cache_tag); None for
 * another file name. tmpy reads no .pyc here (it compiles the source). */
static Obj cached_path(Obj file)
{
    const char *p = str_cstr(file);
    size_t n = (size_t)STR(file)->nbytes;
    if (n < 3 || memcmp(p + n - 3, ".py", 3) != 0 || memchr(p, 0, n))
        return g_None;
    size_t dirlen = n;
    while (dirlen > 0 && p[dirlen - 1] != '/')
        dirlen--;
    const char *mid = "__pycache__/", *tail = ".tmpy-311.pyc";
    size_t len = dirlen + strlen(mid) + (n - 3 - dirlen) + strlen(tail);
    char *buf = malloc(len + 1);
    if (!buf)
        return err_nomemory();
    snprintf(buf, len + 1, "%.*s%s%.*s%s", (int)dirlen, p, mid, (int)(n - 3 - dirlen), p + dirlen, tail);
    Obj res = str_new(buf, len);
    free(buf);
    return res;
}

static int module_add_cached(Obj mod, Obj file)
{
    Obj *r = vm_roots(2);
    r[0] = mod;
    r[1] = cached_path(file);
    int rc = r[1] ? module_add(r[0], "__cached__", r[1]) : -1;
    vm_unroots(r);
    return rc;
}

static int set_module_attrs(Obj mod, Obj fullname, Obj file, Obj package, Obj path_list)
{
    Obj *r = vm_roots(5);
    r[0] = mod;
    r[1] = fullname;
    r[2] = file;
    r[3] = package;
    r[4] = path_list;
    int rc = -1;
    if (module_add(r[0], "__name__", r[1]) < 0 ||
        (r[2] && module_add(r[0], "__file__", r[2]) < 0) ||
        (r[2] && IS_STR(r[2]) && module_add_cached(r[0], r[2]) < 0) ||
        module_add(r[0], "__package__", r[3]) < 0 ||
        (r[4] && module_add(r[0], "__path__", r[4]) < 0) ||
        module_add(r[0], "__spec__", g_None) < 0 ||
        module_add(r[0], "__loader__", g_None) < 0 ||
        module_add(r[0], "__builtins__", g_builtins) < 0)
        goto out;
    if (!dict_getitem_str(((ModuleObj *)r[0])->dict, NAME(__doc__)) && module_add(r[0], "__doc__", g_None) < 0)
        goto out;
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* A module written in C: its init, in sys.modules (BuiltinImporter's part). */
static Obj load_builtin(Obj fullname, module_init_fn init)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = fullname;
    vm_tx_become_inevitable();   /* module inits set C globals (roots) */
    r[1] = init();
    if (r[1] && (dict_getitem(g_modules, r[0]) || dict_setitem(g_modules, r[0], r[1]) == 0))
        res = dict_getitem(g_modules, r[0]);
    vm_unroots(r);
    return res;
}

/* PathFinder's part, in C: the module's source on `search` (the parent's
 * __path__ or sys.path), loaded. *found false (and NULL, no exception) if
 * there is none, *deferred true if an entry is a file (with
 * stop_at_files: CPython's PathFinder is to search). Returns the module
 * (borrowed from sys.modules) or NULL. */
static Obj load_from_path(Obj fullname, Obj search, bool *found, bool stop_at_files, bool *deferred)
{
    Obj *r = vm_roots(6);   /* fullname, search, module, ns dirs, path str, scratch */
    Obj res = NULL;
    r[0] = fullname;
    r[1] = search;
    *found = true;
    Found *f = malloc(sizeof *f);
    if (!f) {
        err_nomemory();
        goto out;
    }
    *deferred = false;
    if (find_module(r[0], r[1], f, &r[3], stop_at_files) < 0) {
        free(f);
        goto out;
    }
    if (f->kind == FOUND_NONE || f->kind == FOUND_FILE_ENTRY) {
        *deferred = f->kind == FOUND_FILE_ENTRY;
        free(f);
        *found = false;
        goto out;
    }
    char *cname = strdup(str_cstr(r[0]));
    r[2] = cname ? module_new(cname) : err_nomemory();
    free(cname);
    if (!r[2]) {
        free(f);
        goto out;
    }
    int kind = f->kind;
    Obj pkg;
    if (kind == FOUND_NAMESPACE) {
        free(f);
        pkg = r[0];
        if (set_module_attrs(r[2], r[0], NULL, pkg, r[3]) < 0 || importhooks_attach_spec(r[2], r[0], NULL, r[3]) < 0)
            goto out;
        if (dict_setitem(g_modules, r[0], r[2]) < 0)
            goto out;
        res = r[2];
        goto out;
    }
    r[4] = str_from_os_cstr(f->path);
    if (!r[4]) {
        free(f);
        goto out;
    }
    if (kind == FOUND_PACKAGE) {
        r[5] = str_from_os_cstr(f->dir);
        free(f);
        if (!r[5] || !(r[3] = list_from_array(&r[5], 1)))
            goto out;
        r[5] = r[0];
    } else {
        free(f);
        r[3] = NULL;
        r[5] = parent_name(r[0]);
        if (!r[5])
            goto out;
    }
    if (set_module_attrs(r[2], r[0], r[4], r[5], r[3]) < 0 || importhooks_attach_spec(r[2], r[0], r[4], r[3]) < 0)
        goto out;
    /* In sys.modules before running: circular imports see the partial module. */
    if (dict_setitem(g_modules, r[0], r[2]) < 0)
        goto out;
    if (!run_source_file(r[2], r[4])) {
        /* a failed import leaves nothing behind in sys.modules */
        Obj *e = vm_roots(1);
        e[0] = err_fetch();
        Obj dummy;
        if (dict_pop(g_modules, r[0], &dummy) < 0)
            err_clear();
        err_set_obj(e[0]);
        vm_unroots(e);
        goto out;
    }
    /* the module may have replaced itself in sys.modules */
    res = dict_getitem(g_modules, r[0]);
    if (!res && !err_occurred())
        err_format(E_ImportError, "Loaded module %s not found in sys.modules", str_cstr(r[0]));
out:
    vm_unroots(r);
    return res;
}

/* A finder's spec loaded, or the module a finder put in sys.modules while
 * finding (CPython's _find_spec returns that one). */
static Obj load_found_spec(Obj fullname, Obj spec)
{
    Obj m = dict_getitem(g_modules, fullname);
    if (m)
        return m;
    if (err_occurred())
        return NULL;
    return importhooks_load_spec(spec);
}

/* Import one module whose parent (if any) is imported, asking the finders
 * of sys.meta_path in turn as CPython's _find_spec does; `parent_path` is
 * the parent's __path__ (NULL for a top-level module). The default finders
 * work in C (the registry, the frozen bootstrap, the path search) while
 * sys.path_hooks and sys.path_importer_cache are the default ones; any
 * other finder is called. Returns the module (borrowed from sys.modules)
 * or NULL. */
static Obj load_module(Obj fullname, Obj parent_path)
{
    Obj *r = vm_roots(5);   /* fullname, parent path, meta_path, finder, spec */
    Obj res = NULL;
    r[0] = fullname;
    r[1] = parent_path;
    r[2] = sys_get("meta_path");
    if (!r[2] || IS_NONE(r[2])) {
        err_set(E_ImportError, "sys.meta_path is None, Python is likely shutting down");
        goto out;
    }
    if (!IS_LIST(r[2])) {   /* any iterable: a list of it */
        if (!(r[2] = vm_call1((Obj)T_list, r[2])))
            goto out;
    }
    if (LIST_LEN(r[2]) == 0) {
        Obj *q = vm_roots(1);
        q[0] = str_from_cstr("sys.meta_path is empty");
        int rc = q[0] ? vm_warn(E_ImportWarning, q[0], NULL) : -1;
        vm_unroots(q);
        if (rc < 0)
            goto out;
    }
    for (int64_t i = 0; i < LIST_LEN(r[2]); i++) {
        r[3] = LIST_ITEMS(r[2])[i];
        switch (importhooks_kind(r[3])) {
        case IMPORTHOOK_BUILTIN: {
            module_init_fn init = find_builtin(r[0]);
            if (init) {
                res = load_builtin(r[0], init);
                goto out;
            }
            continue;
        }
        case IMPORTHOOK_FROZEN:
            if (importhooks_is_frozen(r[0])) {
                res = importhooks_frozen_module(r[0]) ? dict_getitem(g_modules, r[0]) : NULL;
                goto out;
            }
            continue;
        case IMPORTHOOK_PATH:
            if (importhooks_path_default()) {
                bool found = false, deferred = false;
                Obj *q = vm_roots(1);   /* a namespace package's _NamespacePath: its list now */
                q[0] = !r[1] ? current_sys_path() : IS_LIST(r[1]) || IS_TUPLE(r[1]) ? r[1] : vm_call1((Obj)T_list, r[1]);
                /* while the bootstrap is set up, its imports skip file entries (a zip
                 * archive on PYTHONPATH): the PathFinder that reads them is what it makes */
                bool scan_files = !importhooks_bootstrap_loading();   /* may allocate: before r[0], q[0] are read */
                res = q[0] ? load_from_path(r[0], q[0], &found, scan_files, &deferred) : NULL;
                found = found || !q[0];
                vm_unroots(q);
                if (res || found)
                    goto out;
                if (!deferred)
                    continue;
            }
            r[4] = importhooks_path_find_spec(r[0], r[1]);
            break;
        default:
            r[4] = importhooks_find_spec(r[3], r[0], r[1]);
            break;
        }
        if (!r[4])
            goto out;
        if (!IS_NONE(r[4])) {
            res = load_found_spec(r[0], r[4]);
            goto out;
        }
    }
    err_not_found(r[0], NULL);
out:
    if (!res)
        importhooks_trim_traceback(err_occurred());
    vm_unroots(r);
    return res;
}

/* A top-level module from a source file on sys.path, found by import.c's
 * search alone (no finder asked, file entries skipped): zipimport, which
 * the zipimporter hook needs before it can look into a zip archive on
 * sys.path. */
Obj import_source_module(Obj name)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = name;
    if (import_lock_acquire() < 0)
        goto out;
    res = dict_getitem(g_modules, r[0]);
    if (!res && !err_occurred()) {
        bool found = false, deferred = false;
        res = load_from_path(r[0], current_sys_path(), &found, false, &deferred);
        if (!res && !found)
            err_not_found(r[0], NULL);
    }
    import_lock_release();
out:
    vm_unroots(r);
    return res;
}

/* A module another thread is loading now (it is in sys.modules, half
 * initialised): the importer must wait for the import lock. */
static bool loading_elsewhere(Obj absname)
{
    if (!g_loading || DICT(g_loading)->used == 0 || tm_monitor_count((object_t *)g_import_lock))
        return false;
    return dict_getitem(g_loading, absname) != NULL;
}

/* A sys.modules entry as an import's result (None halts the import). */
static Obj module_found(Obj m, Obj absname)
{
    if (IS_NONE(m)) {
        Obj *r = vm_roots(2);
        r[0] = absname;
        r[1] = str_from_format("import of %s halted; None in sys.modules", str_cstr(absname));
        if (r[1] && (r[1] = exc_new(E_ModuleNotFoundError, &r[1], 1)) && vm_setattr(r[1], NAME(name), r[0]) == 0)
            err_set_obj(r[1]);
        vm_unroots(r);
        return NULL;
    }
    return m;
}

static Obj load_with_parents(Obj absname);

/* The import lock's object and the loading set, made on first use (as
 * C global roots: inevitable first, so an abort cannot leave them half
 * made). False on MemoryError. */
static bool import_lock_ready(void)
{
    if (g_import_lock && g_loading)
        return true;
    vm_tx_become_inevitable();
    if (!g_import_lock) {
        VM_GLOBAL_ROOT(g_import_lock);
        VM_GLOBAL_ROOT(g_loading);
        if (!(g_import_lock = list_new_capacity(0)))
            return false;
    }
    if (!g_loading && !(g_loading = dict_new()))
        return false;
    return true;
}

/* _imp.acquire_lock/release_lock/lock_held: the import lock from Python. */
int import_lock_acquire(void)
{
    if (!import_lock_ready())
        return -1;
    tm_monitor_enter((object_t *)g_import_lock);
    return 0;
}

bool import_lock_release(void)
{
    return g_import_lock && tm_monitor_exit((object_t *)g_import_lock);
}

/* fork (posixprocess.c): in the child, an import lock held by another
 * thread (gone there) is free again, as CPython reinitialises it. */
void import_after_fork_child(void)
{
    if (g_import_lock && tm_monitor_owner((object_t *)g_import_lock) != tm_self.index)
        tm_monitor_fork_reset((object_t *)g_import_lock);
}

bool import_lock_held(void)
{
    return g_import_lock && tm_monitor_owner((object_t *)g_import_lock) != 0;
}

/* Whether name is a module built into the interpreter (_imp.is_builtin). */
bool import_is_builtin(Obj name)
{
    return find_builtin(name) != NULL;
}

/* Import a module by absolute dotted name, its parents first. One thread at
 * a time loads modules (the import lock, the monitor of g_import_lock;
 * re-entrant, since loading a module imports others): a thread importing a
 * module another thread is loading waits for it, then finds it done. */
Obj import_absolute(Obj absname)
{
    Obj m = dict_getitem(g_modules, absname);
    if (m && !loading_elsewhere(absname))
        return module_found(m, absname);
    if (err_occurred())
        return NULL;
    Obj *r = vm_roots(1);
    r[0] = absname;
    if (!import_lock_ready()) {
        vm_unroots(r);
        return NULL;
    }
    tm_monitor_enter((object_t *)g_import_lock);   /* may wait: absname is re-read */
    m = dict_getitem(g_modules, r[0]);
    Obj res = m ? module_found(m, r[0]) : err_occurred() ? NULL : load_with_parents(r[0]);
    tm_monitor_exit((object_t *)g_import_lock);
    vm_unroots(r);
    return res;
}

/* import_absolute's work, under the import lock, the module not loaded yet. */
static Obj load_with_parents(Obj absname)
{
    Obj *r = vm_roots(4);   /* absname, parent name, parent module, search path */
    Obj res = NULL;
    r[0] = absname;
    const char *s = str_cstr(absname);
    const char *dot = strrchr(s, '.');
    if (dot) {
        r[1] = str_new(s, (size_t)(dot - s));
        if (!r[1])
            goto out;
        r[2] = import_absolute(r[1]);
        if (!r[2])
            goto out;
        /* importing the parent may have imported us */
        Obj m = dict_getitem(g_modules, r[0]);
        if (m) {
            res = m;
            goto out;
        }
        r[3] = vm_getattr_opt(r[2], NAME(__path__));
        if (!r[3]) {
            if (!err_occurred()) {
                Obj *q = vm_roots(1);
                q[0] = str_from_format("'%s' is not a package", str_cstr(r[1]));
                if (q[0]) {
                    char *msg = strdup(str_cstr(q[0]));
                    if (msg) {
                        err_not_found(r[0], msg);
                        free(msg);
                    }
                }
                vm_unroots(q);
            }
            goto out;
        }
    }
    if (dict_setitem(g_loading, r[0], g_True) < 0)
        goto out;
    res = load_module(r[0], r[3]);
    {
        Obj *q = vm_roots(2);
        q[0] = res;
        q[1] = err_fetch();   /* load_module's error, kept across the delete */
        if (dict_delitem(g_loading, r[0]) < 0)
            err_clear();
        if (q[1])
            err_set_obj(q[1]);
        res = q[0];
        vm_unroots(q);
    }
    if (res && r[2]) {
        /* bind the submodule as an attribute of its parent */
        Obj *q = vm_roots(2);
        q[0] = res;
        const char *full = str_cstr(r[0]);
        q[1] = str_from_cstr(strrchr(full, '.') + 1);
        if (!q[1] || vm_setattr(r[2], q[1], q[0]) < 0)
            q[0] = NULL;
        res = q[0];
        vm_unroots(q);
    }
out:
    vm_unroots(r);
    return res;
}

/* The absolute name for a relative import from the module with `globals`. */
Obj import_resolve_relative(Obj name, Obj globals, int level)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = name;
    r[1] = globals ? dict_getitem_str(globals, NAME(__package__)) : NULL;
    if (r[1] && IS_NONE(r[1]))
        r[1] = NULL;
    if (r[1] && !IS_STR(r[1])) {
        err_set(E_TypeError, "package must be a string");
        goto out;
    }
    if (!r[1] && globals) {
        Obj modname = dict_getitem_str(globals, NAME(__name__));
        if (!modname) {
            err_set(E_KeyError, "'__name__' not in globals");
            goto out;
        }
        if (!IS_STR(modname)) {
            err_set(E_TypeError, "__name__ must be a string");
            goto out;
        }
        if (dict_getitem_str(globals, NAME(__path__)))
            r[1] = modname;
        else
            r[1] = parent_name(modname);
        if (!r[1])
            goto out;
    }
    if (!r[1] || str_len(r[1]) == 0) {
        err_set(E_ImportError, "attempted relative import with no known parent package");
        goto out;
    }
    /* strip level-1 trailing components */
    const char *p = str_cstr(r[1]);
    size_t n = (size_t)STR(r[1])->nbytes;
    for (int i = 1; i < level; i++) {
        while (n > 0 && p[n - 1] != '.')
            n--;
        if (n == 0) {
            err_set(E_ImportError, "attempted relative import beyond top-level package");
            goto out;
        }
        n--;   /* the dot */
    }
    if (str_len(r[0]) == 0)
        res = str_new(p, n);
    else
        res = str_from_format("%.*s.%s", (int)n, p, str_cstr(r[0]));
out:
    vm_unroots(r);
    return res;
}

static bool fromlist_empty(Obj fromlist)
{
    if (!fromlist || IS_NONE(fromlist))
        return true;
    if (IS_TUPLE(fromlist))
        return TUPLE_LEN(fromlist) == 0;
    if (IS_LIST(fromlist))
        return LIST_LEN(fromlist) == 0;
    return vm_is_true(fromlist) == 0;
}

/* `from package import a, b`: import submodules that are not attributes. */
static int handle_fromlist(Obj module, Obj fromlist, bool recursive)
{
    Obj *r = vm_roots(6);   /* module, iterator, item, modname, subname, all */
    int rc = -1;
    r[0] = module;
    r[1] = vm_iter(fromlist);
    if (!r[1])
        goto out;
    for (;;) {
        r[2] = vm_next(r[1]);
        if (!r[2]) {
            if (err_occurred())
                goto out;
            break;
        }
        if (!IS_STR(r[2])) {
            err_format(E_TypeError, "Item in %s must be str, not %s", recursive ? "Module.__all__" : "``from list''",
                       type_name(r[2]));
            goto out;
        }
        if (str_eq_cstr(r[2], "*")) {
            if (!recursive) {
                r[5] = vm_getattr_opt(r[0], NAME(__all__));
                if (r[5] && handle_fromlist(r[0], r[5], true) < 0)
                    goto out;
                if (!r[5] && err_occurred())
                    goto out;
            }
            continue;
        }
        Obj have = vm_getattr_opt(r[0], r[2]);
        if (have)
            continue;
        if (err_occurred())
            goto out;
        r[3] = vm_getattr(r[0], NAME(__name__));
        if (!r[3] || !IS_STR(r[3]))
            goto out;
        r[4] = str_from_format("%s.%s", str_cstr(r[3]), str_cstr(r[2]));
        if (!r[4])
            goto out;
        if (!import_absolute(r[4])) {
            /* a missing submodule is fine: IMPORT_FROM reports the name */
            if (!err_matches(E_ModuleNotFoundError))
                goto out;
            Obj *e = vm_roots(2);
            e[0] = err_fetch();
            e[1] = vm_getattr_opt(e[0], NAME(name));
            bool ours = e[1] && IS_STR(e[1]) && str_eq(e[1], r[4]);
            if (!ours) {
                err_clear();
                err_set_obj(e[0]);
                vm_unroots(e);
                goto out;
            }
            err_clear();
            vm_unroots(e);
        }
    }
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

Obj vm_import(Obj name, Obj globals, Obj fromlist, int level)
{
    if (!IS_STR(name)) {
        Obj s = str_value(name);
        if (!s) {
            err_format(E_TypeError, "module name must be str, not %s", type_name(name));
            return NULL;
        }
        name = s;
    }
    /* fast path: `import x` of a loaded top-level module */
    if (level == 0 && fromlist_empty(fromlist)) {
        Obj m = dict_getitem(g_modules, name);
        if (m && !IS_NONE(m) && !memchr(str_cstr(name), '.', (size_t)STR(name)->nbytes) &&
            !loading_elsewhere(name))
            return m;
    }
    if (level < 0) {
        err_set(E_ValueError, "level must be >= 0");
        return NULL;
    }
    Obj *r = vm_roots(5);   /* name, globals, fromlist, absname, module */
    Obj res = NULL;
    r[0] = name;
    r[1] = globals;
    r[2] = fromlist;
    if (level > 0) {
        r[3] = import_resolve_relative(name, globals, level);
        if (!r[3])
            goto out;
    } else {
        if (str_len(name) == 0) {
            err_set(E_ValueError, "Empty module name");
            goto out;
        }
        r[3] = name;
    }
    r[4] = import_absolute(r[3]);
    if (!r[4])
        goto out;
    if (fromlist_empty(r[2])) {
        const char *n = str_cstr(r[0]);
        const char *dot = strchr(n, '.');
        if (level == 0) {
            if (!dot) {
                res = r[4];
            } else {
                Obj top = str_new(n, (size_t)(dot - n));
                res = top ? dict_getitem(g_modules, top) : NULL;
                if (!res && !err_occurred())
                    err_not_found(top, NULL);
            }
        } else if (str_len(r[0]) == 0) {
            res = r[4];
        } else {
            /* __import__('a.b', level=1) returns the package of 'a' */
            size_t cut = (size_t)STR(r[0])->nbytes - (dot ? (size_t)(dot - n) : (size_t)STR(r[0])->nbytes);
            Obj absn = r[3];
            Obj top = str_new(str_cstr(absn), (size_t)STR(absn)->nbytes - cut);
            res = top ? dict_getitem(g_modules, top) : NULL;
            if (!res && !err_occurred())
                err_not_found(top, NULL);
        }
        goto out;
    }
    /* only packages have submodules to import for the fromlist */
    Obj path = TID(r[4]) == TID_MODULE ? dict_getitem_str(((ModuleObj *)r[4])->dict, NAME(__path__))
                                       : vm_getattr_opt(r[4], NAME(__path__));
    if (path) {
        if (handle_fromlist(r[4], r[2], false) < 0)
            goto out;
    } else if (err_occurred()) {
        goto out;
    }
    res = r[4];
out:
    vm_unroots(r);
    return res;
}

Obj import_cstr(const char *name)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = str_from_cstr(name);
    if (r[0])
        res = import_absolute(r[0]);
    vm_unroots(r);
    return res;
}

Obj import_find_source(Obj fullname, bool *is_pkg)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = fullname;
    const char *s = str_cstr(fullname);
    const char *dot = strrchr(s, '.');
    if (dot) {
        r[1] = str_new(s, (size_t)(dot - s));
        if (!r[1] || !(r[2] = import_absolute(r[1])))
            goto out;
        r[3] = vm_getattr_opt(r[2], NAME(__path__));
        if (!r[3]) {
            if (!err_occurred()) {
                Obj *q = vm_roots(1);
                q[0] = str_from_format("__path__ attribute not found on '%s' while trying to find '%s'",
                                       str_cstr(r[1]), str_cstr(r[0]));
                if (q[0] && (q[0] = exc_new(E_ModuleNotFoundError, &q[0], 1)) && vm_setattr(q[0], NAME(name), r[0]) == 0)
                    err_set_obj(q[0]);
                vm_unroots(q);
            }
            goto out;
        }
    } else {
        r[3] = current_sys_path();
    }
    if (find_builtin(r[0])) {   /* a C module: no source (runpy: no code object) */
        *is_pkg = false;
        res = g_empty_str;
        goto out;
    }
    Found *f = malloc(sizeof *f);
    if (!f) {
        err_nomemory();
        goto out;
    }
    Obj *q = vm_roots(1);
    int rc = find_module(r[0], r[3], f, &q[0], false);
    vm_unroots(q);
    if (rc == 0) {
        if (f->kind == FOUND_MODULE || f->kind == FOUND_PACKAGE) {
            *is_pkg = f->kind == FOUND_PACKAGE;
            res = str_from_os_cstr(f->path);
        } else if (f->kind == FOUND_NAMESPACE) {
            *is_pkg = true;
            res = g_None;
        }   /* else not found: NULL, no exception (importlib's find_spec gives None) */
    }
    free(f);
out:
    vm_unroots(r);
    return res;
}

/* out = a/b; false (out "") if it does not fit. */
static bool join_path(char *out, size_t cap, const char *a, const char *b)
{
    int k = snprintf(out, cap, "%s/%s", a, b);
    if (k < 0 || (size_t)k >= cap) {
        out[0] = 0;
        return false;
    }
    return true;
}

/* "a/./b/../c" -> "a/c" in place, for an absolute path (CPython's abspath:
 * lexical, symbolic links are kept). */
static void normalize_path(char *p)
{
    char *out = p, *in = p;
    while (*in) {
        while (*in == '/')
            in++;
        char *seg = in;
        while (*in && *in != '/')
            in++;
        size_t len = (size_t)(in - seg);
        if (len == 0 || (len == 1 && seg[0] == '.'))
            continue;
        if (len == 2 && seg[0] == '.' && seg[1] == '.') {
            while (out > p && *--out != '/')
                ;
            continue;
        }
        *out++ = '/';
        memmove(out, seg, len);
        out += len;
    }
    if (out == p)
        *out++ = '/';
    *out = 0;
}

static void dir_name(char *p)
{
    char *slash = strrchr(p, '/');
    if (slash && slash != p)
        *slash = 0;
    else if (slash)
        slash[1] = 0;
}

/* The executable as the user named it: argv[0] made absolute, or found on
 * PATH; the running binary if neither works. */
static void find_executable(const char *argv0, char *out, size_t cap)
{
    out[0] = 0;
    if (argv0 && strchr(argv0, '/')) {
        char cwd[PATH_MAX];
        if (argv0[0] == '/')
            snprintf(out, cap, "%s", argv0);
        else if (getcwd(cwd, sizeof cwd))
            join_path(out, cap, cwd, argv0);
    } else if (argv0 && *argv0) {
        const char *path = getenv("PATH");
        while (path && *path) {
            const char *colon = strchr(path, ':');
            size_t len = colon ? (size_t)(colon - path) : strlen(path);
            char cand[PATH_MAX];
            int k = snprintf(cand, sizeof cand, "%.*s/%s", (int)len, len ? path : ".", argv0);
            if (k > 0 && (size_t)k < sizeof cand && is_file(cand) && access(cand, X_OK) == 0) {
                if (cand[0] == '/') {
                    snprintf(out, cap, "%s", cand);
                } else {
                    char cwd[PATH_MAX];
                    if (getcwd(cwd, sizeof cwd))
                        join_path(out, cap, cwd, cand);
                }
                break;
            }
            path = colon ? colon + 1 : NULL;
        }
    }
    if (!out[0] || !is_file(out)) {
        ssize_t n = readlink("/proc/self/exe", out, cap - 1);
        out[n > 0 ? n : 0] = 0;
    }
    normalize_path(out);
}

/* The "home = DIR" line of a venv's pyvenv.cfg (out: "" if none). */
static bool read_pyvenv_home(const char *cfg, char *out, size_t cap)
{
    out[0] = 0;
    FILE *f = fopen(cfg, "r");
    if (!f)
        return false;
    char line[PATH_MAX + 64];
    while (fgets(line, sizeof line, f)) {
        char *eq = strchr(line, '=');
        if (!eq)
            continue;
        char *k = line, *ke = eq;
        while (*k == ' ' || *k == '\t')
            k++;
        while (ke > k && (ke[-1] == ' ' || ke[-1] == '\t'))
            ke--;
        if ((size_t)(ke - k) != 4 || strncasecmp(k, "home", 4) != 0)
            continue;
        char *v = eq + 1;
        while (*v == ' ' || *v == '\t')
            v++;
        size_t len = strlen(v);
        while (len && (v[len - 1] == '\n' || v[len - 1] == '\r' || v[len - 1] == ' ' || v[len - 1] == '\t'))
            len--;
        snprintf(out, cap, "%.*s", (int)len, v);
    }
    fclose(f);
    return true;
}

static int set_sys_path_attr(const char *name, const char *os_path)
{
    Obj *r = vm_roots(1);   /* the key's allocation may move the value */
    r[0] = str_from_os_cstr(os_path);
    int rc = r[0] ? dict_setitem_cstr(g_sys_dict, name, r[0]) : -1;
    vm_unroots(r);
    return rc;
}

/* sys.executable, sys._base_executable and the four prefixes. tmpy's own
 * prefix is the directory above the one its binary is in (build/ in the
 * source tree, bin/ when installed); in a venv (a pyvenv.cfg beside the
 * executable or one directory up) the base executable is the one in the
 * directory its home names, and site makes the venv sys.prefix. */
static void init_prefixes(const char *argv0)
{
    static char exe[PATH_MAX], base_exe[PATH_MAX], real[PATH_MAX], base_prefix[PATH_MAX];
    find_executable(argv0, exe, sizeof exe);
    ssize_t n = readlink("/proc/self/exe", real, sizeof real - 1);
    real[n > 0 ? n : 0] = 0;
    snprintf(base_prefix, sizeof base_prefix, "%s", real);
    dir_name(base_prefix);
    dir_name(base_prefix);
    snprintf(base_exe, sizeof base_exe, "%s", exe);
    char exe_dir[PATH_MAX], cfg[PATH_MAX + 16], home[PATH_MAX];
    snprintf(exe_dir, sizeof exe_dir, "%s", exe);
    dir_name(exe_dir);
    bool venv = false;
    snprintf(cfg, sizeof cfg, "%s/pyvenv.cfg", exe_dir);
    if (is_file(cfg))
        venv = read_pyvenv_home(cfg, home, sizeof home);
    if (!venv) {
        char up[PATH_MAX];
        snprintf(up, sizeof up, "%s", exe_dir);
        dir_name(up);
        snprintf(cfg, sizeof cfg, "%s/pyvenv.cfg", up);
        if (is_file(cfg))
            venv = read_pyvenv_home(cfg, home, sizeof home);
    }
    if (venv) {   /* (sys.prefix becomes the venv when site runs, as in CPython 3.11) */
        const char *slash = strrchr(exe, '/');
        char cand[PATH_MAX];
        bool fits = join_path(cand, sizeof cand, home, slash ? slash + 1 : exe);
        snprintf(base_exe, sizeof base_exe, "%s", fits && home[0] && is_file(cand) ? cand : real);
    }
    if (set_sys_path_attr("executable", exe) < 0 || set_sys_path_attr("_base_executable", base_exe) < 0 ||
        set_sys_path_attr("prefix", base_prefix) < 0 || set_sys_path_attr("exec_prefix", base_prefix) < 0 ||
        set_sys_path_attr("base_prefix", base_prefix) < 0 || set_sys_path_attr("base_exec_prefix", base_prefix) < 0)
        err_clear();
}

/* sys.builtin_module_names: the registry's top-level names, sorted. */
static void publish_builtin_names(void)
{
    const char *names[MAX_BUILTIN_MODULES];
    int n = 0;
    for (int i = 0; i < g_nregistry; i++)
        if (!strchr(g_registry[i].name, '.'))
            names[n++] = g_registry[i].name;
    for (int i = 1; i < n; i++)   /* insertion sort: a few dozen names */
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            const char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    Obj *r = vm_roots(2);
    r[0] = list_new_capacity(n);
    for (int i = 0; r[0] && i < n; i++) {
        r[1] = str_from_cstr(names[i]);
        if (!r[1] || list_append(r[0], r[1]) < 0)
            r[0] = NULL;
    }
    if (r[0])
        r[0] = list_as_tuple(r[0]);
    if (!r[0] || dict_setitem_cstr(g_sys_dict, "builtin_module_names", r[0]) < 0)
        err_clear();
    vm_unroots(r);
}

/* sys.path[0]: the script's directory, '' or the current directory; as
 * CPython does, after site ran. */
void import_prepend_path0(const char *dir)
{
    Obj *r = vm_roots(3);
    r[0] = current_sys_path();
    r[1] = MAKE_SMALLINT(0);
    r[2] = str_from_os_cstr(dir);
    if (!r[2] || !IS_LIST(r[0]) || !vm_call_method(r[0], "insert", &r[1], 2))
        err_clear();
    vm_unroots(r);
}

/* sys.path: PYTHONPATH, tmpy's lib/, then CPython's standard library (where
 * it is a directory). */
void import_init_paths(bool ignore_env, const char *argv0)
{
    init_prefixes(argv0);
    publish_builtin_names();
    importhooks_init();
    static char libbuf[PATH_MAX + 16];
    if (!is_dir(vm_libdir)) {
        char exe[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n > 0) {
            exe[n] = 0;
            char *slash = strrchr(exe, '/');
            if (slash) {
                *slash = 0;
                snprintf(libbuf, sizeof libbuf, "%s/../lib", exe);
                char real[PATH_MAX];
                if (realpath(libbuf, real))
                    snprintf(libbuf, sizeof libbuf, "%s", real);
                vm_libdir = libbuf;
            }
        }
    }
    Obj *r = vm_roots(1);
    const char *pp = ignore_env ? NULL : getenv("PYTHONPATH");
    if (pp && *pp) {
        const char *p = pp;
        while (*p) {
            const char *colon = strchr(p, ':');
            size_t len = colon ? (size_t)(colon - p) : strlen(p);
            if (len > 0) {
                char dir[PATH_MAX];
                snprintf(dir, sizeof dir, "%.*s", (int)len, p);
                char real[PATH_MAX];
                const char *use = dir;
                if (dir[0] != '/' && realpath(dir, real))
                    use = real;
                r[0] = str_from_os_cstr(use);
                if (r[0])
                    list_append(g_sys_path, r[0]);
            }
            if (!colon)
                break;
            p = colon + 1;
        }
    }
    r[0] = str_from_os_cstr(vm_libdir);
    if (r[0])
        list_append(g_sys_path, r[0]);
    const char *stdlib = getenv("TMPY_STDLIB");
    if (!stdlib)
        stdlib = TMPY_STDLIBDIR;
    if (*stdlib && is_dir(stdlib)) {
        r[0] = str_from_os_cstr(stdlib);
        if (r[0])
            list_append(g_sys_path, r[0]);
    }
    vm_unroots(r);
    err_clear();
}
