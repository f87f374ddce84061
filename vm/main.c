/* The command line: tmpy-gil [options] FILE.py | -c CODE | -m MODULE | - [args],
 * start-up of the runtime and the interpreter, exit status and the atexit
 * module. */
#include "startup.h"
#include "eval.h"
#include "modules/modules.h"
#include "objects/objects.h"
#include "objects/numbers.h"
#include "objects/strobj.h"
#include "objects/containers.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *g_prog = "tmpy-gil";

/* ------------------------------------------------------------------ */
/* Messages                                                            */
/* ------------------------------------------------------------------ */

static void usage_line(void)
{
    fprintf(stderr, "usage: %s [option] ... [-c cmd | -m mod | file | -] [arg] ...\n", g_prog);
    fprintf(stderr, "Try `python -h' for more information.\n");
}

static void print_help(void)
{
    printf("usage: %s [option] ... [-c cmd | -m mod | file | -] [arg] ...\n", g_prog);
    printf("Options (and corresponding environment variables):\n"
           "-B     : don't write .pyc files on import (tmpy never writes them)\n"
           "-c cmd : program passed in as string (terminates option list)\n"
           "-E     : ignore PYTHON* environment variables (such as PYTHONPATH)\n"
           "-h     : print this help message and exit (also -? or --help)\n"
           "-I     : isolate Python from the user's environment (implies -E, -P and -s)\n"
           "-m mod : run library module as a script (terminates option list)\n"
           "-O     : remove assert and __debug__-dependent statements\n"
           "-P     : don't prepend a potentially unsafe path to sys.path\n"
           "-q     : don't print version and copyright messages on interactive startup\n"
           "-s     : don't add user site directory to sys.path\n"
           "-S     : don't imply 'import site' on initialization\n"
           "-u     : force the stdout and stderr streams to be unbuffered\n"
           "-v     : verbose (accepted, ignored)\n"
           "-V     : print the Python version number and exit (also --version)\n"
           "-W arg : warning control (accepted, ignored)\n"
           "-X opt : set implementation-specific option (int_max_str_digits=N; others ignored)\n"
           "--tm=M : how threads run (also TMPY_TM): tmpy-gil takes gil (the default) or htm\n"
           "         (hardware transactions elide the GIL where the CPU has RTM)\n"
           "file   : program read from script file\n"
           "-      : program read from stdin (default; interactive mode if a tty)\n"
           "arg ...: arguments passed to program in sys.argv[1:]\n"
           "\n"
           "tmpy environment variables: TMPY_SEGMENTS, TMPY_SEGMENT_SIZE, TMPY_NURSERY_SIZE,\n"
           "TMPY_GC_MAJOR_MIN, TMPY_GC_DEBUG, TMPY_TM, TMPY_HTM_TXLEN, TMPY_STATS (see README.md);\n"
           "PYTHONPATH, PYTHONUNBUFFERED,\n"
           "PYTHONINTMAXSTRDIGITS, PYTHONSAFEPATH as in CPython.\n");
}

/* ------------------------------------------------------------------ */
/* Exit status                                                         */
/* ------------------------------------------------------------------ */

static bool exit_by_sigint;

/* Report an uncaught exception; returns the exit status. */
static int handle_uncaught(Obj exc)
{
    Obj *r = vm_roots(3);
    int status = 1;
    r[0] = exc;
    if (vm_isinstance_type(exc, E_SystemExit)) {
        r[1] = vm_getattr_opt(r[0], NAME(code));
        if (!r[1]) {
            err_clear();
            Obj args = IS_EXCEPTION(r[0]) ? EXC(r[0])->args : NULL;
            r[1] = !args || TUPLE_LEN(args) == 0 ? g_None
                 : TUPLE_LEN(args) == 1 ? TUPLE_ITEMS(args)[0] : args;
        }
        if (IS_NONE(r[1])) {
            status = 0;
        } else if (IS_INT(r[1]) || vm_isinstance_type(r[1], T_int)) {   /* (an IntEnum too: pytest's ExitCode) */
            int64_t v;
            if (IS_INT(r[1]) ? int_as_i64(r[1], &v) < 0 : vm_index_i64(r[1], &v) < 0) {
                err_clear();
                v = -1;
            }
            status = (int)(v & 0xff);
        } else {
            /* the code is printed, the status is 1 */
            if (file_flush(g_sys_stdout) < 0)
                err_clear();
            r[2] = vm_str(r[1]);
            Obj errf = sys_get("stderr");
            if (!errf || IS_NONE(errf))
                errf = g_sys_stderr;
            if (!r[2] || file_write_str(errf, r[2]) < 0 || file_write_cstr(errf, "\n", 1) < 0)
                err_clear();
            status = 1;
        }
        vm_unroots(r);
        return status;
    }
    if (file_flush(g_sys_stdout) < 0)
        err_clear();
    /* a Python-level sys.excepthook replacement is honoured */
    Obj hook = sys_get("excepthook");
    Obj orig = sys_get("__excepthook__");
    if (hook && hook != orig && !IS_NONE(hook)) {
        r[1] = hook;
        Obj tb = IS_EXCEPTION(r[0]) && EXC(r[0])->traceback ? EXC(r[0])->traceback
                                                                          : g_None;
        Obj res = vm_call3(r[1], (Obj)TYPE(r[0]), r[0], tb);
        if (!res) {
            Obj e2 = err_fetch();
            vm_errmsg("Error in sys.excepthook:\n");
            if (e2)
                vm_print_exception(e2);
            vm_errmsg("\nOriginal exception was:\n");
            vm_print_exception(r[0]);
        }
    } else {
        vm_print_exception(r[0]);
    }
    /* CPython: an uncaught KeyboardInterrupt (that class, not a subclass)
     * ends the process as SIGINT's default action would, after the
     * finalisation (finish). */
    if (TYPE(r[0]) == E_KeyboardInterrupt)
        exit_by_sigint = true;
    vm_unroots(r);
    return status;
}

/* atexit callbacks, flush the standard streams, exit. */
__attribute__((noreturn)) static void finish(int status)
{
    threads_shutdown();
    atexit_run_callbacks();
    if (tm_gc_has_finalizers() || tm_gc_pending)
        vm_gc_at_exit();   /* finalizers of what is unreachable now (files flushed and closed) */
    if (file_flush_all_at_exit() < 0 && status == 0)
        status = 120;
    if (vm_tx_stats_enabled)
        vm_tx_print_stats();
#if !TM_STM
    /* Under HTM elision: exit holding the GIL, so no other thread runs again. */
    tm_elision_hold_gil();
#endif
    fflush(stdout);
    fflush(stderr);
    if (exit_by_sigint) {
        signals_exit_by_sigint();
        status = 128 + SIGINT;   /* SIGINT could not end the process */
    }
    exit(status);
}

/* ------------------------------------------------------------------ */
/* Running the main module                                             */
/* ------------------------------------------------------------------ */

/* A fresh __main__ module in sys.modules. */
static Obj make_main_module(Obj file, Obj package)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = file;
    r[1] = package;
    r[2] = module_new("__main__");
    if (!r[2])
        goto out;
    g_main_module = r[2];
    if (module_add(r[2], "__builtins__", g_builtins_module) < 0 ||
        (r[0] && module_add(r[2], "__file__", r[0]) < 0) ||
        module_add(r[2], "__package__", r[1] ? r[1] : g_None) < 0 ||
        module_add(r[2], "__spec__", g_None) < 0 || module_add(r[2], "__loader__", g_None) < 0 ||
        module_add(r[2], "__doc__", g_None) < 0 ||
        dict_setitem_cstr(g_modules, "__main__", r[2]) < 0)
        goto out;
    res = r[2];
out:
    vm_unroots(r);
    return res;
}

/* Compile and run source text as __main__. Returns the exit status. */
static int run_source(const char *src, size_t len, const char *filename, Obj file, Obj package)
{
    Obj *r = vm_roots(2);
    r[0] = make_main_module(file, package);
    int status = 0;
    if (r[0]) {
        r[1] = vm_compile(src, len, filename, COMPILE_EXEC);
        if (r[1]) {
            Obj d = ((ModuleObj *)r[0])->dict;
            if (vm_eval_code(r[1], d, d))
                status = 0;
            else
                status = -1;
        } else {
            status = -1;
        }
    } else {
        status = -1;
    }
    if (status < 0) {
        Obj exc = err_fetch();
        status = exc ? handle_uncaught(exc) : 1;
    }
    vm_unroots(r);
    return status;
}

/* path: the file system's bytes; file_obj: the same as a str (__file__,
 * whose UTF-8 is the code's file name). */
static int run_file(const char *path, Obj file_obj, Obj package)
{
    char *src;
    size_t len;
    char *filename = strdup(str_cstr(file_obj));
    if (!filename || import_read_file(path, &src, &len) < 0) {
        free(filename);
        Obj exc = filename ? err_fetch() : NULL;
        return exc ? handle_uncaught(exc) : 1;
    }
    int status = run_source(src, len, filename, file_obj, package);
    free(src);
    free(filename);
    return status;
}

static char *read_stdin_all(size_t *len)
{
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        ssize_t got = vm_blocking_read(0, buf + n, cap - n - 1);
        if (got < 0 && errno == EINTR) {   /* a signal handler raised */
            free(buf);
            return NULL;
        }
        if (got <= 0)
            break;
        n += (size_t)got;
        if (cap - n < 2) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
            cap *= 2;
        }
    }
    if (buf) {
        buf[n] = 0;
        *len = n;
    }
    return buf;
}

/* runpy's _get_module_details for `-m NAME`, as CPython 3.11 words it:
 * the parent package is imported first (an error there, other than a
 * missing parent, is the program's own and its traceback is shown), then
 * NAME is found; a package runs its __main__. Returns the source path and
 * sets *runname, or NULL with *message set (the "-m" error CPython prints
 * after sys.executable), or NULL with an exception set. */
static Obj module_details(Obj name, Obj *runname, Obj *message)
{
    Obj *r = vm_roots(4);   /* name, parent / scratch, found, exception */
    Obj res = NULL;
    r[0] = name;
    const char *n = str_cstr(name);
    const char *dot = strrchr(n, '.');
    if (dot) {
        r[1] = str_new(n, (size_t)(dot - n));
        if (!r[1])
            goto out;
        if (!import_absolute(r[1])) {
            if (!err_matches(E_ImportError))
                goto out;
            r[3] = err_fetch();
            Obj en = vm_getattr_opt(r[3], NAME(name));
            if (!en && err_occurred())
                goto out;
            /* a missing parent is reported by the search below */
            bool missing_parent = en && IS_STR(en) &&
                                  (str_eq(en, r[1]) || (strncmp(str_cstr(r[1]), str_cstr(en), (size_t)STR(en)->nbytes) == 0 &&
                                                        str_cstr(r[1])[STR(en)->nbytes] == '.'));
            if (!missing_parent) {
                err_set_obj(r[3]);
                goto out;
            }
        }
    }
    bool is_pkg = false;
    r[2] = import_find_source(r[0], &is_pkg);
    if (!r[2] && !err_occurred()) {
        *message = str_from_format("No module named %s", str_cstr(r[0]));
        goto out;
    }
    if (!r[2]) {
        if (!err_matches(E_ImportError) && !err_matches(E_AttributeError) && !err_matches(E_TypeError) &&
            !err_matches(E_ValueError))
            goto out;
        r[3] = err_fetch();
        r[1] = vm_str(r[3]);
        if (!r[1])
            goto out;
        size_t len = (size_t)STR(r[0])->nbytes;
        bool py = len > 3 && !strcmp(str_cstr(r[0]) + len - 3, ".py");
        *message = str_from_format("Error while finding module specification for '%s' (%s: %s)%s%.*s%s%s%s",
                                   str_cstr(r[0]), type_name(r[3]), str_cstr(r[1]),
                                   py ? ". Try using '" : "", py ? (int)(len - 3) : 0, str_cstr(r[0]),
                                   py ? "' instead of '" : "", py ? str_cstr(r[0]) : "", py ? "' as the module name." : "");
        goto out;
    }
    if (IS_STR(r[2]) && str_len(r[2]) == 0) {   /* a C module: nothing to run */
        *message = str_from_format("No code object available for %s", str_cstr(r[0]));
        goto out;
    }
    if (!is_pkg) {
        *runname = r[0];
        res = r[2];
        goto out;
    }
    size_t len = (size_t)STR(r[0])->nbytes;
    if (!strcmp(str_cstr(r[0]), "__main__") || (len >= 9 && !strcmp(str_cstr(r[0]) + len - 9, ".__main__"))) {
        *message = str_from_cstr("Cannot use package as __main__ module");
        goto out;
    }
    r[1] = str_from_format("%s.__main__", str_cstr(r[0]));
    if (!r[1])
        goto out;
    res = module_details(r[1], runname, message);
    if (!res && *message && dict_getitem(g_modules, r[0])) {
        Obj m = *message;
        *message = str_from_format("%s; '%s' is a package and cannot be directly executed", str_cstr(m),
                                   str_cstr(r[0]));
    }
out:
    vm_unroots(r);
    return res;
}

/* Whether sys.path holds a file (a zip archive), which import.c's search
 * leaves to CPython's PathFinder. */
static bool path_has_file_entry(void)
{
    Obj path = sys_get("path");
    if (!path || !IS_LIST(path))
        return false;
    for (int64_t i = 0; i < LIST_LEN(path); i++) {
        Obj e = LIST_ITEMS(path)[i];
        struct stat st;
        if (IS_STR(e) && stat(str_cstr(e), &st) == 0 && S_ISREG(st.st_mode))
            return true;
    }
    return false;
}

/* `-m NAME` by runpy._run_module_as_main(NAME), as CPython's -m: for a
 * module the C search did not find while a zip archive is on sys.path. */
static int run_module_by_runpy(Obj *namep)
{
    Obj *r = vm_roots(2);
    int status = 1;
    r[0] = make_main_module(NULL, NULL);   /* runpy runs the code in its namespace */
    if (r[0] && (r[0] = vm_import_cstr("runpy")) && (r[0] = vm_getattr_cstr(r[0], "_run_module_as_main")) &&
        vm_call2(r[0], *namep, g_True)) {
        status = 0;
    } else {
        Obj exc = err_fetch();
        status = exc ? handle_uncaught(exc) : 1;
    }
    vm_unroots(r);
    return status;
}

static int run_module(const char *modname)
{
    Obj *r = vm_roots(4);   /* name, path, run name, message */
    int status = 1;
    r[0] = str_from_cstr(modname);
    if (r[0])
        r[1] = module_details(r[0], &r[2], &r[3]);
    if (!r[1] && r[3] && path_has_file_entry()) {
        status = run_module_by_runpy(&r[0]);
        goto out;
    }
    if (!r[1]) {
        Obj exc = r[3] ? NULL : err_fetch();
        if (exc) {
            status = handle_uncaught(exc);
            goto out;
        }
        if (file_flush(g_sys_stdout) < 0)
            err_clear();
        Obj exe = sys_get("executable");
        vm_errmsg("%s: %s\n", exe && IS_STR(exe) ? str_cstr(exe) : g_prog, r[3] ? str_cstr(r[3]) : modname);
        goto out;
    }
    /* sys.argv[0] is the module's file */
    Obj argv = sys_get("argv");
    if (argv && IS_LIST(argv) && LIST_LEN(argv) > 0) {
        VM_WRITE(LIST(argv)->array);
        LIST_ITEMS(argv)[0] = r[1];
    }
    const char *full = str_cstr(r[2]);
    const char *dot = strrchr(full, '.');
    r[3] = dot ? str_new(full, (size_t)(dot - full)) : g_empty_str;
    char *path = r[3] ? str_to_os(r[1], NULL) : NULL;
    if (!path) {
        Obj exc = err_fetch();
        status = exc ? handle_uncaught(exc) : 1;
        goto out;
    }
    status = run_file(path, r[1], r[3]);
    free(path);
out:
    vm_unroots(r);
    return status;
}

/* ------------------------------------------------------------------ */
/* main                                                                */
/* ------------------------------------------------------------------ */

enum { RUN_STDIN, RUN_SCRIPT, RUN_COMMAND, RUN_MODULE };

static void fatal_startup(const char *what)
{
    Obj exc = err_occurred() ? err_fetch() : NULL;
    fprintf(stderr, "%s: fatal error during start-up: %s\n", g_prog, what);
    if (exc)
        vm_print_exception(exc);
    fflush(stderr);
    exit(1);
}

static void set_int_max_digits(const char *v)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (*v && !*end)
        if (int_set_max_str_digits(n) < 0)
            err_clear();
}

int main(int argc, char **argv)
{
    if (argc > 0 && argv[0] && *argv[0])
        g_prog = argv[0];
    int mode = RUN_STDIN;
    const char *arg = NULL;     /* -c command / -m module / script path */
    const char *xdigits = NULL;
    bool from_dash = false;
    int i = 1;
    while (i < argc) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == 0)
            break;
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (a[1] == '-') {
            if (!strcmp(a, "--version")) {
                printf("Python 3.11.7\n");
                return 0;
            }
            if (!strncmp(a, "--tm=", 5)) {
                const char *v = a + 5;
                if (strcmp(v, TM_STM ? "stm" : "gil") != 0 && (TM_STM || strcmp(v, "htm") != 0)) {
                    fprintf(stderr, TM_STM ? "tmpy: error: --tm must be stm in this build (HTM elision is "
                                             "tmpy-gil's), got '%s'\n"
                                           : "tmpy: error: --tm must be gil or htm, got '%s'\n", v);
                    return 2;
                }
                tm_config_tm_option = v;
                i++;
                continue;
            }
            if (!strcmp(a, "--help")) {
                print_help();
                return 0;
            }
            fprintf(stderr, "unknown option %s\n", a);
            usage_line();
            return 2;
        }
        for (const char *p = a + 1; *p; p++) {
            char c = *p;
            if (c == 'c' || c == 'm' || c == 'X' || c == 'W') {
                const char *v = p[1] ? p + 1 : (i + 1 < argc ? argv[++i] : NULL);
                if (!v) {
                    fprintf(stderr, "Argument expected for the -%c option\n", c);
                    usage_line();
                    return 2;
                }
                if (c == 'c' || c == 'm') {
                    mode = c == 'c' ? RUN_COMMAND : RUN_MODULE;
                    arg = v;
                    i++;
                    goto options_done;
                }
                if (c == 'X' && !strncmp(v, "int_max_str_digits=", 19))
                    xdigits = v + 19;
                break;
            }
            switch (c) {
            case 'u': sys_cflags.unbuffered = 1; break;
            case 'B': sys_cflags.dont_write_bytecode = 1; break;
            case 'O': sys_cflags.optimize++; break;
            case 'E': sys_cflags.ignore_environment = 1; break;
            case 's': sys_cflags.no_user_site = 1; break;
            case 'I': sys_cflags.isolated = 1; sys_cflags.ignore_environment = 1;
                      sys_cflags.no_user_site = 1; sys_cflags.safe_path = 1; break;
            case 'P': sys_cflags.safe_path = 1; break;
            case 'q': sys_cflags.quiet = 1; break;
            case 'v': sys_cflags.verbose++; break;
            case 'S': sys_cflags.no_site = 1; break;
            case 'b': case 'd': case 'i': case 'R': break;
            case 'V':
                printf("Python 3.11.7\n");
                return 0;
            case 'h': case '?':
                print_help();
                return 0;
            default:
                fprintf(stderr, "Unknown option: -%c\n", c);
                usage_line();
                return 2;
            }
        }
        i++;
    }
options_done:
    if (mode == RUN_STDIN && i < argc) {
        if (!strcmp(argv[i], "-")) {
            from_dash = true;
        } else {
            mode = RUN_SCRIPT;
            arg = argv[i];
        }
    }
    bool ignore_env = sys_cflags.ignore_environment;
    if (!ignore_env) {
        const char *u = getenv("PYTHONUNBUFFERED");
        if (u && *u)
            sys_cflags.unbuffered = 1;
        const char *sp = getenv("PYTHONSAFEPATH");
        if (sp && *sp)
            sys_cflags.safe_path = 1;
        const char *dw = getenv("PYTHONDONTWRITEBYTECODE");
        if (dw && *dw)
            sys_cflags.dont_write_bytecode = 1;
        const char *po = getenv("PYTHONOPTIMIZE");
        if (po && *po) {
            int lvl = atoi(po);
            if (lvl < 1)
                lvl = 1;   /* a non-number counts as 1, as CPython */
            if (lvl > sys_cflags.optimize)
                sys_cflags.optimize = lvl;
        }
        if (!xdigits)
            xdigits = getenv("PYTHONINTMAXSTRDIGITS");
        const char *nus = getenv("PYTHONNOUSERSITE");
        if (nus && *nus)
            sys_cflags.no_user_site = 1;
    }

    /* The script: its absolute path (for __file__ and messages) and the
     * real directory that becomes sys.path[0]. */
    char script_abs[PATH_MAX * 2] = "";
    char script_dir[PATH_MAX] = "";
    char main_py[PATH_MAX * 2 + 16] = "";
    if (mode == RUN_SCRIPT) {
        if (arg[0] == '/') {
            snprintf(script_abs, sizeof script_abs, "%s", arg);
        } else {
            char cwd[PATH_MAX];
            if (!getcwd(cwd, sizeof cwd))
                snprintf(cwd, sizeof cwd, ".");
            snprintf(script_abs, sizeof script_abs, "%s/%s", cwd, arg);
        }
        struct stat st;
        if (stat(script_abs, &st) < 0) {
            fprintf(stderr, "%s: can't open file '%s': [Errno %d] %s\n", g_prog, script_abs, errno, strerror(errno));
            return 2;
        }
        char real[PATH_MAX];
        if (S_ISDIR(st.st_mode)) {
            snprintf(main_py, sizeof main_py, "%s/__main__.py", script_abs);
            if (stat(main_py, &st) < 0 || !S_ISREG(st.st_mode)) {
                fprintf(stderr, "%s: can't find '__main__' module in '%s'\n", g_prog, arg);
                return 1;
            }
            if (realpath(script_abs, real))
                snprintf(script_dir, sizeof script_dir, "%s", real);
        } else if (realpath(script_abs, real)) {
            char *slash = strrchr(real, '/');
            if (slash == real)
                slash[1] = 0;
            else if (slash)
                *slash = 0;
            snprintf(script_dir, sizeof script_dir, "%s", real);
        }
        int fd = open(S_ISDIR(st.st_mode) ? main_py : script_abs, 0);
        if (fd < 0) {
            fprintf(stderr, "%s: can't open file '%s': [Errno %d] %s\n", g_prog, script_abs, errno, strerror(errno));
            return 2;
        }
        close(fd);
    } else if (mode == RUN_STDIN && isatty(0)) {
        fprintf(stderr, "%s: the interactive prompt (REPL) is not supported yet; "
                        "run a script (%s FILE.py), -c CODE, or pipe a program into stdin\n", g_prog, g_prog);
        return 2;
    }

    /* A broken pipe is an error return (BrokenPipeError), as in CPython. */
    signal(SIGPIPE, SIG_IGN);
    /* Closed standard fds get /dev/null, so that no file the runtime opens
     * (its heap memfd) takes number 0, 1 or 2 and receives prints. */
    for (int fd = 0; fd < 3; fd++) {
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            int nfd = open("/dev/null", O_RDWR);
            if (nfd >= 0 && nfd != fd) {
                dup2(nfd, fd);
                close(nfd);
            }
            file_closed_std_fds |= 1u << fd;
        }
    }

    tm_runtime_init_from_env();
    const char *stats = getenv("TMPY_STATS");
    vm_tx_stats_enabled = stats && strcmp(stats, "1") == 0;
    const char *txlen = getenv("TMPY_TXLEN");
    if (txlen) {
        char *end;
        errno = 0;
        long n = strtol(txlen, &end, 10);
        if (!*txlen || *end || errno || n < 1 || n > 1000000) {
            fprintf(stderr, "tmpy: error: TMPY_TXLEN must be an integer from 1 to 1000000, got '%s'\n", txlen);
            return 1;
        }
        vm_tx_length = (int)n;
    }
    vm_install_hooks();
    tm_thread_attach();
    /* Start-up and every C-level stretch outside the eval loop run inevitable
     * (they cannot be rolled back; see "Interpreter state across an abort"). */
    tm_start_transaction();
    tm_become_solo_or_inevitable();
    vm_thread_init();
    vm_init_types();
    if (!builtins_init())
        fatal_startup("builtins");
    threads_init();
    tm_init();
    signals_init();

    /* sys.argv */
    Obj *r = vm_roots(2);
    r[0] = list_new_capacity(argc);
    if (!r[0])
        fatal_startup("sys.argv");
    const char *argv0 = mode == RUN_COMMAND ? "-c" : mode == RUN_MODULE ? "-m" : mode == RUN_SCRIPT ? arg
                      : from_dash ? "-" : "";
    r[1] = str_from_os_cstr(argv0);
    if (!r[1] || list_append(r[0], r[1]) < 0)
        fatal_startup("sys.argv");
    for (int k = (mode == RUN_STDIN && !from_dash) ? i : i + (mode == RUN_SCRIPT || from_dash); k < argc; k++) {
        r[1] = str_from_os_cstr(argv[k]);
        if (!r[1] || list_append(r[0], r[1]) < 0)
            fatal_startup("sys.argv");
    }
    if (!sys_init(r[0]))
        fatal_startup("sys");
    vm_unroots(r);

    vm_init_modules();
    vm_tx_init();
    VM_GLOBAL_ROOT(g_main_module);
    if (xdigits)
        set_int_max_digits(xdigits);

    /* sys.path[0]: the script's directory; '' for -c and stdin; the current
     * directory for -m. -P / PYTHONSAFEPATH leave it out. */
    const char *path0 = NULL;
    char cwd[PATH_MAX];
    if (!sys_cflags.safe_path) {
        if (mode == RUN_SCRIPT)
            path0 = script_dir;
        else if (mode == RUN_MODULE)
            path0 = getcwd(cwd, sizeof cwd) ? cwd : "";
        else
            path0 = "";
    }
    import_init_paths(ignore_env, g_prog);

    /* CPython's site (site-packages, .pth files, a venv's prefix), as
     * python3 imports it unless -S. */
    if (!sys_cflags.no_site && !import_cstr("site")) {
        Obj exc = err_fetch();
        fprintf(stderr, "Fatal Python error: init_import_site: Failed to import the site module\n"
                        "Python runtime state: initialized\n");
        if (exc)
            vm_print_exception(exc);
        fflush(stderr);
        finish(1);
    }
    if (path0)
        import_prepend_path0(path0);

    /* Start-up objects become old: the program's first collection is cheaper. */
    tm_collect_minor();

    int status;
    if (mode == RUN_COMMAND) {
        status = run_source(arg, strlen(arg), "<string>", NULL, NULL);
    } else if (mode == RUN_MODULE) {
        status = run_module(arg);
    } else if (mode == RUN_SCRIPT) {
        Obj *q = vm_roots(1);
        const char *file = main_py[0] ? main_py : script_abs;
        q[0] = str_from_os_cstr(file);
        if (!q[0])
            fatal_startup("__file__");
        status = run_file(file, q[0], main_py[0] ? g_empty_str : NULL);
        vm_unroots(q);
    } else {
        size_t len;
        char *src = read_stdin_all(&len);
        if (!src) {
            if (err_occurred())
                finish(handle_uncaught(err_fetch()));
            fprintf(stderr, "%s: can't read the program from stdin\n", g_prog);
            finish(1);
        }
        Obj *q = vm_roots(1);
        q[0] = str_from_cstr("<stdin>");
        status = q[0] ? run_source(src, len, "<stdin>", q[0], NULL) : 1;
        vm_unroots(q);
        free(src);
    }
    finish(status);
}
