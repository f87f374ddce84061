/* The posix module's processes: ids, fork and the at-fork hooks, exec,
 * wait and the wait-status macros, signals to processes, uname, times.
 *
 * fork: the object space's shared pages would stay shared between parent
 * and child (a MAP_SHARED memfd): they are copied into a new memfd just
 * before the fork (tm_segments_fork_copy), which the child maps in their
 * place before it runs any Python.
 * Other threads may be running: tm_fork_prepare parks them at a safe point
 * (STM) and the forking thread's transaction is inevitable, so the child
 * goes on from a state no abort can take back. The child has one thread,
 * the one that forked: tm_fork_child rolls back the others' transactions
 * and forgets them (runtime/fork.c), vm_live_threads is 1 again, and the
 * forking thread becomes the main one (signals). threading's own state is
 * reset by its register_at_fork hook (CPython's threading.py, _after_fork). */
#define _GNU_SOURCE
#include "posix.h"
#include "objects/containers.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static Obj g_uname_result, g_times_result;
/* register_at_fork's callables: before, after_in_parent, after_in_child */
static Obj g_fork_hooks[3];

/* f() -> an int from a C call that cannot fail. */
#define POSIX_INT_GETTER(fname, expr)                              \
    static Obj posix_##fname(Obj *args, size_t nargs, Obj kwnames) \
    {                                                              \
        return int_from_i64((int64_t)(expr));                      \
    }
POSIX_INT_GETTER(getpid, getpid())
POSIX_INT_GETTER(getppid, getppid())
POSIX_INT_GETTER(getuid, getuid())
POSIX_INT_GETTER(geteuid, geteuid())
POSIX_INT_GETTER(getgid, getgid())
POSIX_INT_GETTER(getegid, getegid())
POSIX_INT_GETTER(getpgrp, getpgrp())

/* f(pid) -> int, OSError on -1 */
static Obj pid_call(Obj *args, pid_t (*fn)(pid_t), bool change)
{
    int pid;
    if (posix_int(args[0], &pid) < 0)
        return NULL;
    if (change)
        vm_tx_become_inevitable();
    pid_t r = fn((pid_t)pid);
    return r < 0 ? posix_error(NULL) : int_from_i64(r);
}

static Obj posix_getpgid(Obj *args, size_t nargs, Obj kwnames) { return pid_call(args, getpgid, false); }
static Obj posix_getsid(Obj *args, size_t nargs, Obj kwnames) { return pid_call(args, getsid, false); }

static Obj posix_setsid(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();
    return setsid() < 0 ? posix_error(NULL) : g_None;
}

static Obj posix_setpgrp(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();
    return setpgid(0, 0) < 0 ? posix_error(NULL) : g_None;
}

static Obj posix_setpgid(Obj *args, size_t nargs, Obj kwnames)
{
    int pid, pgrp;
    if (posix_int(args[0], &pid) < 0 || posix_int(args[1], &pgrp) < 0)
        return NULL;
    vm_tx_become_inevitable();
    return setpgid(pid, pgrp) < 0 ? posix_error(NULL) : g_None;
}

static Obj posix_getgroups(Obj *args, size_t nargs, Obj kwnames)
{
    gid_t groups[NGROUPS_MAX];
    int n = getgroups(NGROUPS_MAX, groups);
    if (n < 0)
        return posix_error(NULL);
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = list_new_capacity(n);
    for (int i = 0; r[0] && i < n; i++)
        if (!(r[1] = int_from_i64(groups[i])) || list_append(r[0], r[1]) < 0)
            goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

/* kill(pid, sig) / killpg(pgid, sig); a signal to this process has its
 * Python handler run before the call returns (the main thread gets it). */
static Obj kill_impl(Obj *args, int (*fn)(pid_t, int))
{
    int pid, sig;
    if (posix_int(args[0], &pid) < 0 || posix_int(args[1], &sig) < 0)
        return NULL;
    vm_tx_become_inevitable();   /* changes the world: no abort may repeat it */
    if (fn((pid_t)pid, sig) < 0)
        return posix_error(NULL);
    return vm_signals_check() < 0 ? NULL : g_None;
}

static Obj posix_kill(Obj *args, size_t nargs, Obj kwnames) { return kill_impl(args, kill); }
static Obj posix_killpg(Obj *args, size_t nargs, Obj kwnames) { return kill_impl(args, killpg); }

static Obj posix__exit(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"status", NULL};
    Obj *a = vm_roots(1);
    int n;
    if (vm_parse_args("_exit", args, nargs, kwnames, names, 1, 1, a) < 0 || posix_int(a[0], &n) < 0) {
        vm_unroots(a);
        return NULL;
    }
    vm_tx_become_inevitable();
    _exit(n);
}

/* system(command): the shell's wait status */
static Obj posix_system(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"command", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    PosixPath p = {0};
    if (vm_parse_args("system", args, nargs, kwnames, names, 1, 1, a) < 0 ||
        posix_path(a[0], "system", "command", false, false, &p) < 0)
        goto out;
    vm_tx_become_inevitable();
    /* A thread other than the main one blocks the asynchronous signals
     * (signalmodule.c); the command must not inherit that mask. */
    sigset_t blocked, saved;
    signals_thread_mask(&blocked);
    pthread_sigmask(SIG_UNBLOCK, &blocked, &saved);
    vm_blocking_begin();
    int st = system(p.c);
    vm_blocking_end();
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    res = MAKE_SMALLINT(st);
out:
    posix_path_free(&p);
    vm_unroots(a);
    return res;
}

/* ---- fork ---- */

/* Calls the hooks of list i: the before hooks last-registered first, the
 * after hooks in registration order. Errors are printed and ignored
 * (CPython writes them as unraisable). */
static void run_fork_hooks(int i, bool reverse)
{
    Obj l = g_fork_hooks[i];
    if (!l)
        return;
    int64_t n = LIST_LEN(l);
    for (int64_t k = 0; k < n; k++) {
        l = g_fork_hooks[i];
        int64_t j = reverse ? n - 1 - k : k;
        if (j >= LIST_LEN(l))
            continue;
        Obj f = LIST_ITEMS(l)[j];
        if (!vm_call0(f)) {
            Obj *r = vm_roots(1);
            r[0] = f;
            vm_report_unraisable(r[0]);
            vm_unroots(r);
        }
    }
}

/* register_at_fork(*, before=None, after_in_child=None, after_in_parent=None) */
static Obj posix_register_at_fork(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"before", "after_in_child", "after_in_parent", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("register_at_fork", args, nargs, kwnames, names, 0, 0, a) < 0)
        goto out;
    if (!a[0] && !a[1] && !a[2]) {
        err_set(E_TypeError, "At least one argument is required.");
        goto out;
    }
    static const char *const what[] = {"before", "after_in_child", "after_in_parent"};
    for (int i = 0; i < 3; i++)
        if (a[i] && !IS_NONE(a[i]) && !vm_callable(a[i])) {
            err_format(E_TypeError, "'%s' must be callable, not %s", what[i], type_name(a[i]));
            goto out;
        }
    static const int slot[] = {0, 2, 1};   /* names' order -> g_fork_hooks' */
    vm_tx_become_inevitable();   /* the lists are C global roots, made here on first use */
    for (int i = 0; i < 3; i++) {
        if (!a[i] || IS_NONE(a[i]))
            continue;
        if (!g_fork_hooks[slot[i]]) {
            Obj l = list_new_capacity(2);
            if (!l)
                goto out;
            g_fork_hooks[slot[i]] = l;
        }
        if (list_append(g_fork_hooks[slot[i]], a[i]) < 0)
            goto out;
    }
    res = g_None;
out:
    vm_unroots(a);
    return res;
}

static Obj posix_fork(Obj *args, size_t nargs, Obj kwnames)
{
    run_fork_hooks(0, true);
    vm_tx_become_inevitable();   /* both processes go on from here: no abort may take it back */
    tm_fork_prepare();   /* STM: the other threads park at a safe point */
    int heap = tm_segments_fork_copy();   /* the child's object space, as of now */
    pid_t pid = heap < 0 ? -1 : fork();
    if (pid < 0) {
        int e = errno;
        tm_fork_parent();
        if (heap >= 0)
            close(heap);
        run_fork_hooks(1, false);
        return err_from_errno(e, NULL);
    }
    if (pid == 0) {
        posix_after_fork_child(heap);
        run_fork_hooks(2, false);
    } else {
        tm_fork_parent();
        close(heap);
        run_fork_hooks(1, false);
    }
    return int_from_i64(pid);
}

void posix_after_fork_child(int heap)
{
    /* the object space must stop being the parent's too */
    if (tm_segments_fork_child(heap) != 0) {
        fprintf(stderr, "tmpy: fork: cannot copy the object space into the child: %s\n", strerror(errno));
        _exit(127);
    }
    /* only now: the other threads' transactions are rolled back from the
     * committed contents, which must be the child's copy, not the pages the
     * parent goes on writing */
    tm_fork_child();
    __atomic_store_n(&vm_live_threads, 1, __ATOMIC_RELEASE);
    import_after_fork_child();
    /* The forking thread is the child's main thread (as in CPython): the
     * one signals go to and whose waits they end. */
    if (!tm_interrupt_is_target()) {
        tm_interrupt_set_target();
        sigset_t blocked;
        signals_thread_mask(&blocked);
        pthread_sigmask(SIG_UNBLOCK, &blocked, NULL);
    }
}

/* ---- exec ---- */

/* A NULL-terminated malloc'd vector of the file system's bytes of the
 * items of a tuple or list (each a str, bytes or os.PathLike). */
static void free_vector(char **v)
{
    for (char **p = v; p && *p; p++)
        free(*p);
    free(v);
}

static char **argv_vector(Obj seq, const char *fname, bool nonempty)
{
    if (!IS_TUPLE(seq) && !IS_LIST(seq)) {
        err_format(E_TypeError, "%s() arg 2 must be a tuple or list", fname);
        return NULL;
    }
    Obj *r = vm_roots(1);
    r[0] = seq;
    int64_t n = IS_TUPLE(seq) ? TUPLE_LEN(seq) : LIST_LEN(seq);
    char **v = NULL;
    if (nonempty && n < 1) {
        err_format(E_ValueError, "%s() arg 2 must not be empty", fname);
        goto out;
    }
    v = calloc((size_t)n + 1, sizeof *v);
    if (!v) {
        err_nomemory();
        goto out;
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t len = IS_TUPLE(r[0]) ? TUPLE_LEN(r[0]) : LIST_LEN(r[0]);
        if (i >= len)
            break;
        Obj item = IS_TUPLE(r[0]) ? TUPLE_ITEMS(r[0])[i] : LIST_ITEMS(r[0])[i];
        PosixPath p;
        Obj u = vm_unwrap(item);
        if (!IS_STR(u) && !IS_BYTES(u) && !vm_lookup_special(item, "__fspath__")) {
            err_format(E_TypeError, "expected str, bytes or os.PathLike object, not %s", type_name(item));
            free_vector(v);
            v = NULL;
            goto out;
        }
        if (posix_path(item, fname, "args", false, false, &p) < 0) {
            free_vector(v);
            v = NULL;
            goto out;
        }
        v[i] = p.c;
    }
    if (nonempty && !v[0][0]) {
        err_format(E_ValueError, "%s() arg 2 first element cannot be empty", fname);
        free_vector(v);
        v = NULL;
    }
out:
    vm_unroots(r);
    return v;
}

/* An env mapping as "key=value" strings. */
static char **env_vector(Obj env)
{
    Obj *r = vm_roots(3);
    char **v = NULL;
    r[0] = env;
    r[1] = vm_call_method(r[0], "keys", NULL, 0);
    if (!r[1] || !(r[1] = vm_list_from_iter(r[1])))
        goto out;
    int64_t n = LIST_LEN(r[1]);
    v = calloc((size_t)n + 1, sizeof *v);
    if (!v) {
        err_nomemory();
        goto out;
    }
    for (int64_t i = 0; i < n && i < LIST_LEN(r[1]); i++) {
        PosixPath k, val;
        r[2] = vm_getitem(r[0], LIST_ITEMS(r[1])[i]);
        if (!r[2] || posix_path(LIST_ITEMS(r[1])[i], "execve", "env", false, false, &k) < 0)
            goto fail;
        if (posix_path(r[2], "execve", "env", false, false, &val) < 0) {
            free(k.c);
            goto fail;
        }
        if (!*k.c || strchr(k.c, '=')) {
            free(k.c);
            free(val.c);
            err_set(E_ValueError, "illegal environment variable name");
            goto fail;
        }
        size_t kl = strlen(k.c), vl = strlen(val.c);
        v[i] = malloc(kl + vl + 2);
        if (v[i]) {
            memcpy(v[i], k.c, kl);
            v[i][kl] = '=';
            memcpy(v[i] + kl + 1, val.c, vl + 1);
        }
        free(k.c);
        free(val.c);
        if (!v[i]) {
            err_nomemory();
            goto fail;
        }
    }
    goto out;
fail:
    free_vector(v);
    v = NULL;
out:
    vm_unroots(r);
    return v;
}

/* execv(path, argv) / execve(path, argv, env): returns only on failure */
static Obj exec_impl(Obj *args, size_t nargs, Obj kwnames, const char *fname, bool with_env)
{
    static const char *const names[] = {"path", "argv", "env", NULL};
    Obj *a = vm_roots(3);
    PosixPath p = {0};
    char **argv = NULL, **envp = NULL;
    if (vm_parse_args(fname, args, nargs, kwnames, names, with_env ? 3 : 2, with_env ? 3 : 2, a) < 0 ||
        posix_path(a[0], fname, "path", false, with_env, &p) < 0 || !(argv = argv_vector(a[1], fname, true)))
        goto out;
    if (with_env) {
        if (!vm_lookup_special(a[2], "keys") && !vm_getattr_opt(a[2], str_intern_cstr("keys"))) {
            err_set(E_TypeError, "execve: environment must be a mapping object");
            goto out;
        }
        if (!(envp = env_vector(a[2])))
            goto out;
    }
    vm_tx_become_inevitable();
    if (p.is_fd)
        fexecve(p.fd, argv, envp);
    else
        execve(p.c, argv, with_env ? envp : environ);
    posix_error(with_env ? a[0] : NULL);
out:
    free_vector(argv);
    free_vector(envp);
    posix_path_free(&p);
    vm_unroots(a);
    return NULL;
}

static Obj posix_execv(Obj *args, size_t nargs, Obj kwnames) { return exec_impl(args, nargs, kwnames, "execv", false); }
static Obj posix_execve(Obj *args, size_t nargs, Obj kwnames) { return exec_impl(args, nargs, kwnames, "execve", true); }

/* ---- wait ---- */

/* waitpid(pid, options) -> (pid, status). PEP 475: a signal runs the
 * handlers, then the wait goes on unless one raised. */
static Obj wait_impl(pid_t pid, int options)
{
    int status = 0;
    pid_t r;
    for (;;) {
        vm_blocking_begin();
        if (tm_interrupted()) {
            r = -1;
            errno = EINTR;
        } else {
            r = waitpid(pid, &status, options);
        }
        vm_blocking_end();
        if (r >= 0 || errno != EINTR)
            break;
        if (vm_signals_check() < 0)
            return NULL;
    }
    if (r < 0)
        return posix_error(NULL);
    return tuple_pack(2, int_from_i64(r), MAKE_SMALLINT(status));
}

static Obj posix_waitpid(Obj *args, size_t nargs, Obj kwnames)
{
    int pid, options;
    if (posix_int(args[0], &pid) < 0 || posix_int(args[1], &options) < 0)
        return NULL;
    return wait_impl(pid, options);
}

static Obj posix_wait(Obj *args, size_t nargs, Obj kwnames) { return wait_impl(-1, 0); }

static int status_arg(const char *fname, Obj *args, size_t nargs, Obj kwnames, int *st)
{
    static const char *const names[] = {"status", NULL};
    Obj *a = vm_roots(1);
    int rc = vm_parse_args(fname, args, nargs, kwnames, names, 1, 1, a) < 0 ? -1 : posix_int(a[0], st);
    vm_unroots(a);
    return rc;
}

#define WAIT_MACRO(NAME, expr, is_bool)                                    \
    static Obj posix_##NAME(Obj *args, size_t nargs, Obj kwnames)          \
    {                                                                      \
        int status;                                                        \
        if (status_arg(#NAME, args, nargs, kwnames, &status) < 0)          \
            return NULL;                                                   \
        return is_bool ? vm_bool(expr) : MAKE_SMALLINT(expr);              \
    }
WAIT_MACRO(WIFEXITED, WIFEXITED(status), true)
WAIT_MACRO(WEXITSTATUS, WEXITSTATUS(status), false)
WAIT_MACRO(WIFSIGNALED, WIFSIGNALED(status), true)
WAIT_MACRO(WTERMSIG, WTERMSIG(status), false)
WAIT_MACRO(WIFSTOPPED, WIFSTOPPED(status), true)
WAIT_MACRO(WSTOPSIG, WSTOPSIG(status), false)
WAIT_MACRO(WIFCONTINUED, WIFCONTINUED(status), true)
WAIT_MACRO(WCOREDUMP, WCOREDUMP(status), true)

/* waitstatus_to_exitcode(status): the exit code, or -signal */
static Obj posix_waitstatus_to_exitcode(Obj *args, size_t nargs, Obj kwnames)
{
    int status;
    if (status_arg("waitstatus_to_exitcode", args, nargs, kwnames, &status) < 0)
        return NULL;
    if (WIFEXITED(status))
        return MAKE_SMALLINT(WEXITSTATUS(status));
    if (WIFSIGNALED(status))
        return MAKE_SMALLINT(-WTERMSIG(status));
    if (WIFSTOPPED(status))
        err_format(E_ValueError, "process stopped by delivery of signal %d", WSTOPSIG(status));
    else
        err_format(E_ValueError, "invalid wait status: %d", status);
    return NULL;
}

/* ---- system information ---- */

static Obj posix_uname(Obj *args, size_t nargs, Obj kwnames)
{
    struct utsname u;
    if (uname(&u) < 0)
        return posix_error(NULL);
    Obj *r = vm_roots(5);
    Obj res = NULL;
    const char *f[] = {u.sysname, u.nodename, u.release, u.version, u.machine};
    for (int i = 0; i < 5; i++)
        if (!(r[i] = str_from_os_cstr(f[i])))
            goto out;
    res = structseq_new(g_uname_result, r, 5);
out:
    vm_unroots(r);
    return res;
}

static Obj posix_times(Obj *args, size_t nargs, Obj kwnames)
{
    struct tms t;
    clock_t c = times(&t);
    if (c == (clock_t)-1)
        return posix_error(NULL);
    double tick = (double)sysconf(_SC_CLK_TCK);
    double v[] = {t.tms_utime / tick, t.tms_stime / tick, t.tms_cutime / tick, t.tms_cstime / tick, c / tick};
    Obj *r = vm_roots(5);
    Obj res = NULL;
    for (int i = 0; i < 5; i++)
        if (!(r[i] = float_new(v[i])))
            goto out;
    res = structseq_new(g_times_result, r, 5);
out:
    vm_unroots(r);
    return res;
}

static Obj posix_sched_getaffinity(Obj *args, size_t nargs, Obj kwnames)
{
    int pid;
    if (posix_int(args[0], &pid) < 0)
        return NULL;
    cpu_set_t set;
    if (sched_getaffinity(pid, sizeof set, &set) < 0)
        return posix_error(NULL);
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = set_new(NULL);
    for (int i = 0; r[0] && i < CPU_SETSIZE; i++)
        if (CPU_ISSET(i, &set) && set_add(r[0], MAKE_SMALLINT(i)) < 0)
            goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

static Obj posix_nice(Obj *args, size_t nargs, Obj kwnames)
{
    int inc;
    if (posix_int(args[0], &inc) < 0)
        return NULL;
    vm_tx_become_inevitable();
    errno = 0;
    int v = nice(inc);
    if (v == -1 && errno)
        return posix_error(NULL);
    return MAKE_SMALLINT(v);
}

const MethodDef posix_process_functions[] = {
    {"getpid", posix_getpid, METH_NOARGS, NULL},
    {"getppid", posix_getppid, METH_NOARGS, NULL},
    {"getuid", posix_getuid, METH_NOARGS, NULL},
    {"geteuid", posix_geteuid, METH_NOARGS, NULL},
    {"getgid", posix_getgid, METH_NOARGS, NULL},
    {"getegid", posix_getegid, METH_NOARGS, NULL},
    {"getpgrp", posix_getpgrp, METH_NOARGS, NULL},
    {"getpgid", posix_getpgid, METH_O, NULL},
    {"getsid", posix_getsid, METH_O, NULL},
    {"setsid", posix_setsid, METH_NOARGS, NULL},
    {"setpgrp", posix_setpgrp, METH_NOARGS, NULL},
    {"setpgid", posix_setpgid, METH_ARGS(2, 2), NULL},
    {"getgroups", posix_getgroups, METH_NOARGS, NULL},
    {"kill", posix_kill, METH_ARGS(2, 2), NULL},
    {"killpg", posix_killpg, METH_ARGS(2, 2), NULL},
    {"_exit", posix__exit, METH_KW, NULL},
    {"system", posix_system, METH_KW, NULL},
    {"fork", posix_fork, METH_NOARGS, NULL},
    {"register_at_fork", posix_register_at_fork, METH_KW, NULL},
    {"execv", posix_execv, METH_KW, NULL},
    {"execve", posix_execve, METH_KW, NULL},
    {"waitpid", posix_waitpid, METH_ARGS(2, 2), NULL},
    {"wait", posix_wait, METH_NOARGS, NULL},
    {"WIFEXITED", posix_WIFEXITED, METH_KW, NULL},
    {"WEXITSTATUS", posix_WEXITSTATUS, METH_KW, NULL},
    {"WIFSIGNALED", posix_WIFSIGNALED, METH_KW, NULL},
    {"WTERMSIG", posix_WTERMSIG, METH_KW, NULL},
    {"WIFSTOPPED", posix_WIFSTOPPED, METH_KW, NULL},
    {"WSTOPSIG", posix_WSTOPSIG, METH_KW, NULL},
    {"WIFCONTINUED", posix_WIFCONTINUED, METH_KW, NULL},
    {"WCOREDUMP", posix_WCOREDUMP, METH_KW, NULL},
    {"waitstatus_to_exitcode", posix_waitstatus_to_exitcode, METH_KW, NULL},
    {"uname", posix_uname, METH_NOARGS, NULL},
    {"times", posix_times, METH_NOARGS, NULL},
    {"sched_getaffinity", posix_sched_getaffinity, METH_O, NULL},
    {"nice", posix_nice, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

int posix_process_init(Obj module)
{
    for (int i = 0; i < 3; i++)
        VM_GLOBAL_ROOT(g_fork_hooks[i]);
    VM_GLOBAL_ROOT(g_uname_result);
    VM_GLOBAL_ROOT(g_times_result);
    if (!g_uname_result) {
        static const char *const f[] = {"sysname", "nodename", "release", "version", "machine"};
        if (!(g_uname_result = structseq_new_type("posix", "uname_result", f, 5, 5)))
            return -1;
    }
    if (!g_times_result) {
        static const char *const f[] = {"user", "system", "children_user", "children_system", "elapsed"};
        if (!(g_times_result = structseq_new_type("posix", "times_result", f, 5, 5)))
            return -1;
    }
    Obj *r = vm_roots(1);
    r[0] = module;
    static const struct { const char *name; int v; } ints[] = {
        {"WNOHANG", WNOHANG}, {"WUNTRACED", WUNTRACED}, {"WCONTINUED", WCONTINUED}, {"WEXITED", WEXITED},
        {"WSTOPPED", WSTOPPED}, {"WNOWAIT", WNOWAIT}, {"P_PID", P_PID}, {"P_PGID", P_PGID}, {"P_ALL", P_ALL},
        {"CLD_EXITED", CLD_EXITED}, {"CLD_KILLED", CLD_KILLED}, {"CLD_DUMPED", CLD_DUMPED},
        {"CLD_TRAPPED", CLD_TRAPPED}, {"CLD_STOPPED", CLD_STOPPED}, {"CLD_CONTINUED", CLD_CONTINUED},
    };
    int rc = 0;
    for (size_t i = 0; i < ARRAY_LEN(ints) && rc == 0; i++)
        rc = module_add(r[0], ints[i].name, MAKE_SMALLINT(ints[i].v));
    if (rc == 0)
        rc = module_add(r[0], "uname_result", g_uname_result);
    if (rc == 0)
        rc = module_add(r[0], "times_result", g_times_result);
    vm_unroots(r);
    return rc;
}
