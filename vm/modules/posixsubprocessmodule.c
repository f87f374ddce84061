/* _posixsubprocess: fork_exec with CPython 3.11's signature, what
 * subprocess.Popen runs a program with.
 *
 * Everything the child needs is converted to C memory before the fork; the
 * child then runs only async-signal-safe C (dup2, chdir, close, exec) until
 * exec, so it is right whatever the parent's other threads held (both
 * builds), except for a preexec_fn, which runs Python in the child (safe
 * only when the parent had one thread, as in CPython). A failure before or
 * at exec goes to the parent through errpipe_write as
 * "OSError:<hex errno>:[noexec]", which subprocess.py turns into the
 * exception. */
#define _GNU_SOURCE
#include "posix.h"
#include "objects/containers.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

typedef struct {
    char **argv, **exes, **envp;   /* NULL-terminated; envp NULL: inherit */
    char *cwd;
    int *keep;                     /* sorted fds_to_keep */
    size_t nkeep;
    gid_t *groups;
    ssize_t ngroups;               /* -1: leave the groups */
    int close_fds, restore_signals, call_setsid, pgid, child_umask;
    int p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite, errpipe_read, errpipe_write;
    long long gid, uid;            /* -1: leave */
    long max_fd;
} ForkExec;

static void free_strv(char **v)
{
    for (char **p = v; p && *p; p++)
        free(*p);
    free(v);
}

/* A sequence of str/bytes/PathLike as a NULL-terminated vector. */
static char **strv(Obj seq, const char *what)
{
    Obj *r = vm_roots(1);
    char **v = NULL;
    r[0] = vm_list_from_iter(seq);
    if (!r[0])
        goto out;
    int64_t n = LIST_LEN(r[0]);
    v = calloc((size_t)n + 1, sizeof *v);
    if (!v) {
        err_nomemory();
        goto out;
    }
    for (int64_t i = 0; i < n; i++) {
        PosixPath p;
        Obj item = LIST_ITEMS(r[0])[i];
        Obj u = vm_unwrap(item);
        if (!IS_STR(u) && !IS_BYTES(u) && !vm_lookup_special(item, "__fspath__")) {
            err_format(E_TypeError, "expected str, bytes or os.PathLike object, not %s", type_name(item));
            goto fail;
        }
        if (posix_path(LIST_ITEMS(r[0])[i], "fork_exec", what, false, false, &p) < 0)
            goto fail;
        v[i] = p.c;
    }
    goto out;
fail:
    free_strv(v);
    v = NULL;
out:
    vm_unroots(r);
    return v;
}

static int int_or_none(Obj v, long long dflt, long long *out)
{
    *out = dflt;
    if (IS_NONE(v))
        return 0;
    int64_t x;
    if (vm_index_i64(v, &x) < 0)
        return -1;
    *out = x;
    return 0;
}

/* close the fds lo..hi (hi -1: all from lo) */
static void close_range_of(const ForkExec *fe, int lo, int hi)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)lo, hi < 0 ? ~0U : (unsigned)hi, 0) == 0)
        return;
#endif
    long end = hi < 0 ? fe->max_fd : hi + 1;
    for (long fd = lo; fd < end; fd++)
        close((int)fd);
}

/* close every fd >= 3 except those in keep[] (sorted) */
static void close_open_fds(const ForkExec *fe)
{
    int lo = 3;
    for (size_t i = 0; i < fe->nkeep; i++) {
        if (fe->keep[i] > lo)
            close_range_of(fe, lo, fe->keep[i] - 1);
        if (fe->keep[i] + 1 > lo)
            lo = fe->keep[i] + 1;
    }
    close_range_of(fe, lo, -1);
}

static void write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        p += w;
        n -= (size_t)w;
    }
}

static void report(int fd, int err, bool noexec)
{
    char hex[32], *cur = hex + sizeof hex;
    unsigned e = (unsigned)err;
    do
        *--cur = "0123456789abcdef"[e % 16];
    while ((e /= 16) != 0);
    write_all(fd, "OSError:", 8);
    write_all(fd, cur, (size_t)(hex + sizeof hex - cur));
    write_all(fd, ":", 1);
    if (noexec)
        write_all(fd, "noexec", 6);
}

static int clear_cloexec(int fd)
{
    int f = fcntl(fd, F_GETFD);
    return f < 0 ? -1 : fcntl(fd, F_SETFD, f & ~FD_CLOEXEC);
}

/* The child: never returns. preexec is a root slot holding the callable or None. */
static void child_exec(ForkExec *fe, Obj *preexec, int heap)
{
    int epw = fe->errpipe_write;
    if (fe->p2cwrite != -1)
        close(fe->p2cwrite);
    if (fe->c2pread != -1)
        close(fe->c2pread);
    if (fe->errread != -1)
        close(fe->errread);
    close(fe->errpipe_read);
    /* tmpy blocks the asynchronous signals in threads other than the main
     * one (signalmodule.c); the program must not inherit that */
    sigset_t blocked;
    signals_thread_mask(&blocked);
    sigprocmask(SIG_UNBLOCK, &blocked, NULL);
    for (size_t i = 0; i < fe->nkeep; i++)
        if (fe->keep[i] != epw && clear_cloexec(fe->keep[i]) < 0)
            goto fail;
    /* a pipe end on 0, 1 or 2 must not be overwritten by the dup2s below */
    if (fe->c2pwrite == 0 && (fe->c2pwrite = fcntl(0, F_DUPFD_CLOEXEC, 3)) < 0)
        goto fail;
    while (fe->errwrite == 0 || fe->errwrite == 1)
        if ((fe->errwrite = fcntl(fe->errwrite, F_DUPFD_CLOEXEC, 3)) < 0)
            goto fail;
    int targets[3] = {fe->p2cread, fe->c2pwrite, fe->errwrite};
    for (int t = 0; t < 3; t++) {
        if (targets[t] == t) {
            if (clear_cloexec(t) < 0)
                goto fail;
        } else if (targets[t] != -1 && dup2(targets[t], t) < 0) {
            goto fail;
        }
    }
    if (fe->cwd && chdir(fe->cwd) < 0)
        goto fail;
    if (fe->child_umask >= 0)
        umask((mode_t)fe->child_umask);
    if (fe->restore_signals) {
        signal(SIGPIPE, SIG_DFL);
        signal(SIGXFSZ, SIG_DFL);
    }
    if (fe->call_setsid && setsid() < 0)
        goto fail;
    if (fe->pgid >= 0 && setpgid(0, fe->pgid) < 0)
        goto fail;
    if (fe->ngroups >= 0 && setgroups((size_t)fe->ngroups, fe->groups) < 0)
        goto fail;
    if (fe->gid != -1 && setregid((gid_t)fe->gid, (gid_t)fe->gid) < 0)
        goto fail;
    if (fe->uid != -1 && setreuid((uid_t)fe->uid, (uid_t)fe->uid) < 0)
        goto fail;
    if (!IS_NONE(*preexec)) {
        posix_after_fork_child(heap);
        if (!vm_call0(*preexec)) {
            static const char msg[] = "SubprocessError:0:Exception occurred in preexec_fn.";
            write_all(epw, msg, sizeof msg - 1);
            _exit(255);
        }
    }
    if (fe->close_fds)
        close_open_fds(fe);
    int saved = 0;
    for (char **exe = fe->exes; *exe; exe++) {
        execve(*exe, fe->argv, fe->envp ? fe->envp : environ);
        if (errno != ENOENT && errno != ENOTDIR && saved == 0)
            saved = errno;
    }
    report(epw, saved ? saved : errno, false);
    _exit(255);
fail:
    report(epw, errno, true);
    _exit(255);
}

static Obj fork_exec(Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("fork_exec", nargs, kwnames, 23, 23) < 0)
        return NULL;
    ForkExec fe = {0};
    Obj res = NULL;
    int64_t v;
    bool b;
    if (posix_bool(args[2], false, &b) < 0)
        goto out;
    fe.close_fds = b;
    if (!IS_TUPLE(args[3])) {
        err_set(E_TypeError, "fork_exec() argument 4 must be tuple");
        goto out;
    }
    fe.nkeep = (size_t)TUPLE_LEN(args[3]);
    fe.keep = malloc((fe.nkeep + 1) * sizeof *fe.keep);
    if (!fe.keep) {
        err_nomemory();
        goto out;
    }
    for (size_t i = 0; i < fe.nkeep; i++) {
        Obj k = TUPLE_ITEMS(args[3])[i];
        if (!IS_INT(k) || vm_index_i64(k, &v) < 0 || v < 0 || v > INT32_MAX || (i && v <= fe.keep[i - 1])) {
            err_clear();
            err_set(E_ValueError, "bad value(s) in fds_to_keep");
            goto out;
        }
        fe.keep[i] = (int)v;
    }
    int *fds[] = {&fe.p2cread, &fe.p2cwrite, &fe.c2pread, &fe.c2pwrite, &fe.errread, &fe.errwrite,
                  &fe.errpipe_read, &fe.errpipe_write};
    for (int i = 0; i < 8; i++)
        if (posix_int(args[6 + i], fds[i]) < 0)
            goto out;
    if (posix_bool(args[14], false, &b) < 0)
        goto out;
    fe.restore_signals = b;
    if (posix_bool(args[15], false, &b) < 0)
        goto out;
    fe.call_setsid = b;
    long long ll;
    if (int_or_none(args[16], -1, &ll) < 0)
        goto out;
    fe.pgid = (int)ll;
    if (int_or_none(args[17], -1, &fe.gid) < 0 || int_or_none(args[19], -1, &fe.uid) < 0)
        goto out;
    if (posix_int(args[20], &fe.child_umask) < 0)
        goto out;
    fe.ngroups = -1;
    if (!IS_NONE(args[18])) {
        Obj *r = vm_roots(1);
        r[0] = vm_list_from_iter(args[18]);
        if (r[0]) {
            int64_t n = LIST_LEN(r[0]);
            fe.groups = malloc(((size_t)n + 1) * sizeof *fe.groups);
            fe.ngroups = n;
            for (int64_t i = 0; fe.groups && i < n; i++) {
                if (vm_index_i64(LIST_ITEMS(r[0])[i], &v) < 0) {
                    vm_unroots(r);
                    goto out;
                }
                fe.groups[i] = (gid_t)v;
            }
        }
        vm_unroots(r);
        if (!fe.groups) {
            if (!err_occurred())
                err_nomemory();
            goto out;
        }
    }
    if (!IS_NONE(args[21]) && !vm_callable(args[21])) {
        err_set(E_TypeError, "preexec_fn must be callable");
        goto out;
    }
    if (!(fe.argv = strv(args[0], "args")) || !(fe.exes = strv(args[1], "executable_list")))
        goto out;
    if (!IS_NONE(args[5]) && !(fe.envp = strv(args[5], "env")))
        goto out;
    if (!IS_NONE(args[4])) {
        PosixPath p;
        if (posix_path(args[4], "fork_exec", "cwd", false, false, &p) < 0)
            goto out;
        fe.cwd = p.c;
    }
    fe.max_fd = sysconf(_SC_OPEN_MAX);
    if (fe.max_fd < 256)
        fe.max_fd = 256;
    vm_tx_become_inevitable();   /* both processes go on from here */
    /* a preexec_fn runs Python in the child: it needs its own object space */
    bool own_heap = !IS_NONE(args[21]);
    if (own_heap)
        tm_fork_prepare();
    int heap = own_heap ? tm_segments_fork_copy() : -1;
    if (own_heap && heap < 0) {
        tm_fork_parent();
        posix_error(NULL);
        goto out;
    }
    Obj *pre = vm_roots(1);
    pre[0] = args[21];
    pid_t pid = fork();
    if (pid == 0)
        child_exec(&fe, pre, heap);
    vm_unroots(pre);
    if (own_heap) {
        tm_fork_parent();
        close(heap);
    }
    res = pid < 0 ? posix_error(NULL) : int_from_i64(pid);
out:
    free_strv(fe.argv);
    free_strv(fe.exes);
    free_strv(fe.envp);
    free(fe.cwd);
    free(fe.keep);
    free(fe.groups);
    return res;
}

static const MethodDef posixsubprocess_functions[] = {
    {"fork_exec", fork_exec, 0, NULL},
    {NULL, NULL, 0, NULL},
};

Obj posixsubprocess_module_init(void)
{
    Obj *r = vm_roots(1);
    r[0] = module_new("_posixsubprocess");
    if (r[0])
        module_add_functions(r[0], posixsubprocess_functions);
    Obj m = r[0];
    vm_unroots(r);
    return m;
}
