/* tmpy: what the builtins area (builtins, import, files, sys, time, os,
 * random, start-up) provides beyond tmpy.h, to the other areas and between
 * its own files. */
#ifndef TMPY_MODULES_H
#define TMPY_MODULES_H

#include "tmpy.h"

#include <sys/types.h>

/* ---- blocking calls (threadmodule.c) ----
 * Every system call that may wait (read/write on pipes and terminals, open,
 * sleep, system, lock waits) runs between vm_blocking_begin() and
 * vm_blocking_end(): the GIL build releases the GIL there (when another
 * thread exists), the STM build will commit before and start a new
 * transaction after. Releasing runs a minor collection: every young object
 * may move, so callers keep their references in root slots and re-read
 * them after; in between, no GC object may be touched (C memory only). Both
 * keep errno. The read/write/open wrappers (fileobject.c) bracket the call
 * and retry on EINTR; use them rather than the bare calls. */
void vm_blocking_begin(void);
void vm_blocking_end(void);
ssize_t vm_blocking_read(int fd, void *buf, size_t n);         /* -1 with errno */
ssize_t vm_blocking_write(int fd, const void *buf, size_t n);  /* may write less than n */
int vm_blocking_open(const char *path, int flags, int mode);

/* ---- fileobject.c ---- */
/* open() with all its arguments: encoding/newline NULL or None for the
 * defaults; closefd false only for an int `path` (a file descriptor). */
Obj file_open_ex(Obj path, const char *mode, int buffering, Obj encoding, Obj newline, bool closefd);
/* One line (str or bytes, with its newline; empty at EOF) of a file object
 * (FileObj fast path, else file.readline()). */
Obj file_readline(Obj file);
/* Write C bytes (UTF-8 text) to a file object; for messages from C. */
int file_write_cstr(Obj file, const char *s, size_t n);
/* Flush every file that has buffered data (exit). Returns -1 if flushing
 * sys.stdout failed (the exit status becomes 120), else 0. */
int file_flush_all_at_exit(void);
/* Bit i set: fd i (0, 1, 2) was closed at start-up; main.c put /dev/null
 * there (so the runtime's own files never take those numbers) and the
 * standard stream is None. */
extern unsigned file_closed_std_fds;
/* Set an OSError (the subclass chosen by errno, as CPython's OSError(errno,
 * strerror, filename) does) and return NULL. filename may be NULL. */
Obj err_from_errno(int err, Obj filename);
Obj err_from_errno2(int err, Obj filename, Obj filename2);
/* os.fspath() semantics: str, bytes, or __fspath__; TypeError otherwise. */
Obj vm_fspath(Obj path);
/* The _io module: open, the file type (under its CPython class names),
 * UnsupportedOperation (a subclass of OSError and ValueError). */
Obj io_module_init(void);

/* ---- sysmodule.c ---- */
/* Command-line flags (main.c sets them before start-up; sys.flags shows them). */
struct sys_cflags {
    int optimize, dont_write_bytecode, no_user_site, ignore_environment, verbose, quiet;
    int isolated, safe_path, unbuffered;
};
extern struct sys_cflags sys_cflags;
extern Obj g_sys_module;
extern double vm_switch_interval;          /* sys.setswitchinterval (seconds) */
/* sys.<name> as it is now (user code may rebind sys.stdout); NULL if unset (no error). */
Obj sys_get(const char *name);
/* Struct sequences (sys.version_info, time.struct_time, os.stat_result):
 * a tuple subclass of n fields (named in its repr), the first ngetters of
 * them also attributes; instances have a dict for extra attributes. */
Obj structseq_new_type(const char *module, const char *name, const char *const *fields, int n, int ngetters);
Obj structseq_new(Obj type, Obj *items, int n);        /* items in root slots */
/* types.SimpleNamespace-like object: attributes in its dict, repr namespace(a=1, ...). */
Obj namespace_new(void);

/* ---- builtins.c ---- */
/* id(v): stable for the object's life. A young object is first made old by a
 * minor collection (old objects never move), so its segment offset is fixed. */
uint64_t vm_object_id(Obj v);
extern Obj g_builtins_module;

/* ---- builtiniters.c ---- */
Obj callable_iter_new(Obj callable, Obj sentinel);

/* ---- import.c ---- */
extern Obj g_main_module;
/* Find the source of a module by dotted name (parents are imported, the
 * module itself is not). Returns its file path (str; None for a namespace
 * package) and *is_pkg; NULL with ModuleNotFoundError/ImportError set if
 * absent. */
Obj import_find_source(Obj fullname, bool *is_pkg);
/* Compile and run a file's source as module `mod` (globals = its dict).
 * Returns None or NULL with an exception. */
Obj import_run_source_file(Obj mod, Obj path);
/* Read a whole file into C memory (malloc'd, NUL-terminated): 0, or -1 with
 * OSError set. */
int import_read_file(const char *path, char **out, size_t *len);
void import_init_paths(bool ignore_env, const char *script_dir);
Obj importlib_module_init(void);

/* ---- threadmodule.c ---- */
void threads_init(void);        /* start-up, main thread, after builtins_init */
void threads_shutdown(void);    /* at exit: threading._shutdown() joins non-daemon threads */
Obj thread_module_init(void);   /* _thread */
Obj tm_module_init(void);       /* tm */

/* ---- C modules (vm_register_builtin_module) ---- */
Obj sys_module_init(void);
Obj time_module_init(void);
Obj os_module_init(void);
Obj posixpath_module_init(void);
Obj random_module_init(void);
Obj atexit_module_init(void);
int atexit_run_callbacks(void);   /* at exit: runs atexit.register()ed callables, last first */

/* The math module's init function (numbers area, mathmodule.c). */
Obj math_module_init(void);

#endif
