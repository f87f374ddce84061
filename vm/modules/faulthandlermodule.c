/* The faulthandler module: on a fatal signal (SIGSEGV, SIGFPE, SIGABRT,
 * SIGBUS, SIGILL) write "Fatal Python error" and the Python traceback of
 * the faulting thread to a file descriptor, then die of the signal;
 * dump_traceback(), dump_traceback_later() (a watchdog thread), register()
 * (a traceback on a user signal).
 *
 * The traceback is written by the thread whose frames it shows, with
 * write() only (async-signal-safe), from its frame stack (vm_ts.frame) and
 * the code objects, which are pinned. dump_traceback_later's watchdog asks
 * the thread that armed it for its traceback with a signal (SIGRTMIN+1),
 * so the frames are read by their own thread. Other threads' tracebacks
 * are not written (CPython writes every thread's for all_threads=True). */
#define _GNU_SOURCE
#include "eval.h"
#include "modules.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_FRAMES 100
#define MAX_STRING 500

/* ---- writing a traceback (async-signal-safe) ---- */

static void put(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

static void puts_fd(int fd, const char *s) { put(fd, s, strlen(s)); }

static void put_dec(int fd, unsigned long v)
{
    char buf[24];
    int i = sizeof buf;
    do
        buf[--i] = (char)('0' + v % 10);
    while ((v /= 10) && i > 0);
    put(fd, buf + i, sizeof buf - (size_t)i);
}

static void put_hex(int fd, unsigned long v, int width)
{
    char buf[20];
    int i = sizeof buf;
    do {
        buf[--i] = "0123456789abcdef"[v & 15];
        v >>= 4;
        width--;
    } while ((v || width > 0) && i > 2);
    buf[--i] = 'x';
    buf[--i] = '0';
    put(fd, buf + i, sizeof buf - (size_t)i);
}

/* a str, non-ASCII as \xNN, \uNNNN or \UNNNNNNNN and cut at MAX_STRING
 * characters, as CPython writes it */
static void put_str(int fd, Obj s)
{
    if (!s || !IS_STR(s)) {
        puts_fd(fd, "???");
        return;
    }
    const unsigned char *p = (const unsigned char *)str_cstr(s);
    int64_t nbytes = STR(s)->nbytes, chars = 0;
    for (int64_t i = 0; i < nbytes && chars < MAX_STRING; chars++) {
        uint32_t c = p[i];
        int len = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
        if (len > 1)
            c &= 0x3f >> (len - 1);
        for (int k = 1; k < len && i + k < nbytes; k++)
            c = (c << 6) | (p[i + k] & 0x3f);
        i += len;
        if (c < 0x80) {
            char ch = (char)c;
            put(fd, &ch, 1);
        } else if (c <= 0xff) {
            puts_fd(fd, "\\x");
            put_hex(fd, c, 2);
        } else {
            put(fd, c <= 0xffff ? "\\u" : "\\U", 2);
            char buf[8];
            int w = c <= 0xffff ? 4 : 8;
            for (int k = w - 1; k >= 0; k--, c >>= 4)
                buf[k] = "0123456789abcdef"[c & 15];
            put(fd, buf, (size_t)w);
        }
    }
    if (chars >= MAX_STRING && str_len(s) > MAX_STRING)
        puts_fd(fd, "...");
}

/* The calling thread's frames, innermost first. */
static void dump_frames(int fd)
{
    Frame *f = vm_ts.frame;
    if (!f) {
        puts_fd(fd, "  <no Python frame>\n");
        return;
    }
    for (int depth = 0; f; f = f->back, depth++) {
        if (depth >= MAX_FRAMES) {
            puts_fd(fd, "  ...\n");
            return;
        }
        puts_fd(fd, "  File \"");
        put_str(fd, f->code->filename);
        puts_fd(fd, "\", line ");
        int line = eval_frame_lineno(f);
        if (line >= 0)
            put_dec(fd, (unsigned long)line);
        else
            puts_fd(fd, "???");
        puts_fd(fd, " in ");
        put_str(fd, f->code->name);
        puts_fd(fd, "\n");
    }
}

/* header: "Current thread 0x...", "Thread 0x..." or (one thread only) "Stack" */
static void dump_thread(int fd, const char *header, unsigned long thread)
{
    puts_fd(fd, header);
    if (thread) {
        put_hex(fd, thread, 16);
        puts_fd(fd, " (most recent call first):\n");
    } else {
        puts_fd(fd, " (most recent call first):\n");
    }
    dump_frames(fd);
}

/* ---- the file argument ---- */

static Obj g_fatal_file, g_later_file;   /* kept alive while their fd is used */

/* file: None (sys.stderr), an int fd, or an object with fileno(); its
 * buffered data is flushed. *keep: the object to keep alive (or NULL). */
static int file_fd(Obj file, int *fd, Obj *keep)
{
    Obj *r = vm_roots(2);
    int rc = -1;
    r[0] = file;
    *keep = NULL;
    if (!r[0] || IS_NONE(r[0])) {
        r[0] = sys_get("stderr");
        if (!r[0] || IS_NONE(r[0])) {
            err_set(E_RuntimeError, "sys.stderr is None");
            goto out;
        }
    }
    int64_t v;
    if (IS_INT(vm_unwrap(r[0]))) {
        if (vm_index_i64(r[0], &v) < 0)
            goto out;
        if (v < 0) {
            err_set(E_ValueError, "file is not a valid file descripter");
            goto out;
        }
    } else {
        r[1] = vm_call_method(r[0], "fileno", NULL, 0);
        if (!r[1] || vm_index_i64(r[1], &v) < 0)
            goto out;
        if (v < 0) {
            err_set(E_ValueError, "file is not a valid file descripter");
            goto out;
        }
        r[1] = vm_call_method(r[0], "flush", NULL, 0);
        if (!r[1])
            err_clear();   /* as CPython: a failing flush is ignored */
        *keep = r[0];
    }
    *fd = (int)v;
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* ---- fatal signals ---- */

static const int fatal_signals[] = {SIGSEGV, SIGFPE, SIGABRT, SIGBUS, SIGILL};
static const char *const fatal_names[] = {"Segmentation fault", "Floating point exception", "Aborted",
                                          "Bus error", "Illegal instruction"};
static struct sigaction saved_fatal[5];
static volatile sig_atomic_t fatal_enabled, fatal_fd = 2, fatal_all_threads = 1;
static char *alt_stack;

static void fatal_handler(int sig)
{
    int e = errno;
    int i = 0;
    while (i < 5 && fatal_signals[i] != sig)
        i++;
    int fd = fatal_fd;
    if (fatal_enabled) {
        /* the previous handlers come back first: a fault while dumping ends the process */
        for (int k = 0; k < 5; k++)
            sigaction(fatal_signals[k], &saved_fatal[k], NULL);
        fatal_enabled = 0;
    }
    puts_fd(fd, "Fatal Python error: ");
    puts_fd(fd, i < 5 ? fatal_names[i] : "?");
    puts_fd(fd, "\n\n");
    if (fatal_all_threads)
        dump_thread(fd, "Current thread ", (unsigned long)pthread_self());
    else
        dump_thread(fd, "Stack", 0);
    errno = e;
    raise(sig);   /* the previous handler (the default one: the process dies of it) */
    /* a previous handler that returned (the barrier checker's, for a fault
     * it does not check) leaves the default action, which must end us */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_fatal(void)
{
    if (!alt_stack) {
        /* a stack overflow's SIGSEGV needs a stack of its own */
        size_t size = SIGSTKSZ * 2;
        alt_stack = malloc(size);
        if (alt_stack) {
            stack_t ss = {.ss_sp = alt_stack, .ss_size = size, .ss_flags = 0};
            sigaltstack(&ss, NULL);
        }
    }
    for (int k = 0; k < 5; k++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = fatal_handler;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_NODEFER | SA_ONSTACK;
        sigaction(fatal_signals[k], &sa, &saved_fatal[k]);
    }
    fatal_enabled = 1;
}

static void uninstall_fatal(void)
{
    for (int k = 0; k < 5; k++)
        sigaction(fatal_signals[k], &saved_fatal[k], NULL);
    fatal_enabled = 0;
}

/* enable(file=sys.stderr, all_threads=True) */
static Obj fh_enable(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"file", "all_threads", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    int fd, all = 1;
    if (vm_parse_args("enable", args, nargs, kwnames, names, 0, 2, a) < 0 ||
        (a[1] && (all = vm_is_true(a[1])) < 0) || file_fd(a[0], &fd, &a[2]) < 0)
        goto out;
    vm_tx_become_inevitable();   /* signal handlers are the process's */
    g_fatal_file = a[2];
    fatal_fd = fd;
    fatal_all_threads = all;
    if (!fatal_enabled)
        install_fatal();
    res = g_None;
out:
    vm_unroots(a);
    return res;
}

static Obj fh_disable(Obj *args, size_t nargs, Obj kwnames)
{
    if (!fatal_enabled)
        return g_False;
    vm_tx_become_inevitable();
    uninstall_fatal();
    g_fatal_file = NULL;
    return g_True;
}

static Obj fh_is_enabled(Obj *args, size_t nargs, Obj kwnames)
{
    return fatal_enabled ? g_True : g_False;
}

/* dump_traceback(file=sys.stderr, all_threads=True) */
static Obj fh_dump_traceback(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"file", "all_threads", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    int fd, all = 1;
    if (vm_parse_args("dump_traceback", args, nargs, kwnames, names, 0, 2, a) < 0 ||
        (a[1] && (all = vm_is_true(a[1])) < 0) || file_fd(a[0], &fd, &a[2]) < 0)
        goto out;
    vm_tx_become_inevitable();   /* written once: no abort may write it again */
    if (all)
        dump_thread(fd, "Current thread ", (unsigned long)pthread_self());
    else
        dump_thread(fd, "Stack", 0);
    res = g_None;
out:
    vm_unroots(a);
    return res;
}

/* ---- dump_traceback_later: a watchdog thread ---- */

#define DUMP_SIGNAL (SIGRTMIN + 1)

static pthread_mutex_t later_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t later_cond = PTHREAD_COND_INITIALIZER;
static struct {
    bool armed, cancel;
    pthread_t watchdog, target;
    int64_t timeout_ns;
    bool repeat, exit;
    int fd;
    char header[64];
    volatile sig_atomic_t dumped;
} later;

static void dump_signal_handler(int sig)
{
    int e = errno;
    dump_thread(later.fd, "Thread ", (unsigned long)pthread_self());
    later.dumped = 1;
    errno = e;
}

static void *watchdog_main(void *arg)
{
    (void)arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);   /* the process's signals are not for this thread */
    pthread_mutex_lock(&later_lock);
    for (;;) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        int64_t ns = ts.tv_nsec + later.timeout_ns % 1000000000;
        ts.tv_sec += (time_t)(later.timeout_ns / 1000000000 + ns / 1000000000);
        ts.tv_nsec = (long)(ns % 1000000000);
        int rc = 0;
        while (!later.cancel && rc != ETIMEDOUT)
            rc = pthread_cond_timedwait(&later_cond, &later_lock, &ts);
        if (later.cancel)
            break;
        puts_fd(later.fd, later.header);
        later.dumped = 0;
        if (pthread_kill(later.target, DUMP_SIGNAL) == 0)
            for (int i = 0; i < 1000 && !later.dumped; i++) {   /* up to a second */
                pthread_mutex_unlock(&later_lock);
                struct timespec ms = {0, 1000000};
                nanosleep(&ms, NULL);
                pthread_mutex_lock(&later_lock);
            }
        if (later.exit)
            _exit(1);
        if (!later.repeat)
            break;
    }
    pthread_mutex_unlock(&later_lock);
    return NULL;
}

static void cancel_later(void)
{
    pthread_mutex_lock(&later_lock);
    bool armed = later.armed;
    later.cancel = true;
    pthread_cond_broadcast(&later_cond);
    pthread_mutex_unlock(&later_lock);
    if (armed) {
        vm_blocking_begin();
        pthread_join(later.watchdog, NULL);
        vm_blocking_end();
    }
    later.armed = false;
}

/* dump_traceback_later(timeout, repeat=False, file=sys.stderr, exit=False) */
static Obj fh_dump_traceback_later(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"timeout", "repeat", "file", "exit", NULL};
    Obj *a = vm_roots(5);
    Obj res = NULL;
    int fd, repeat = 0, ex = 0;
    double t;
    if (vm_parse_args("dump_traceback_later", args, nargs, kwnames, names, 1, 4, a) < 0 ||
        vm_as_double(a[0], &t) < 0)
        goto out;
    if (t <= 0) {
        err_set(E_ValueError, "timeout must be greater than 0");
        goto out;
    }
    if (t * 1e9 >= 9.2e18) {
        err_set(E_OverflowError, "timeout value is too large");
        goto out;
    }
    if ((a[1] && (repeat = vm_is_true(a[1])) < 0) || (a[3] && (ex = vm_is_true(a[3])) < 0) ||
        file_fd(a[2], &fd, &a[4]) < 0)
        goto out;
    vm_tx_become_inevitable();   /* a thread started is not undone */
    cancel_later();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = dump_signal_handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(DUMP_SIGNAL, &sa, NULL);
    int64_t secs = (int64_t)t;
    char *h = later.header;
    /* "Timeout (H:MM:SS[.ffffff])!\n" */
    int n = 0;
    n += snprintf(h + n, sizeof later.header - (size_t)n, "Timeout (%lld:%02lld:%02lld", (long long)(secs / 3600),
                  (long long)(secs / 60 % 60), (long long)(secs % 60));
    long us = (long)((t - (double)secs) * 1e6);
    if (us)
        n += snprintf(h + n, sizeof later.header - (size_t)n, ".%06ld", us);
    snprintf(h + n, sizeof later.header - (size_t)n, ")!\n");
    later.timeout_ns = (int64_t)(t * 1e9);
    later.repeat = repeat;
    later.exit = ex;
    later.fd = fd;
    later.target = pthread_self();
    later.cancel = false;
    g_later_file = a[4];
    if (pthread_create(&later.watchdog, NULL, watchdog_main, NULL) != 0) {
        err_set(E_RuntimeError, "unable to start watchdog thread");
        goto out;
    }
    later.armed = true;
    res = g_None;
out:
    vm_unroots(a);
    return res;
}

static Obj fh_cancel_dump_traceback_later(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();
    cancel_later();
    g_later_file = NULL;
    return g_None;
}

/* ---- register(signum): a traceback on a user signal ---- */

static struct user_signal {
    bool enabled, chain, all_threads;
    int fd;
    struct sigaction previous;
} user_signals[NSIG];
static Obj g_user_files;   /* dict signum -> file kept alive */

static void user_handler(int sig)
{
    int e = errno;
    struct user_signal *u = &user_signals[sig];
    if (u->enabled) {
        if (u->all_threads)
            dump_thread(u->fd, "Current thread ", (unsigned long)pthread_self());
        else
            dump_thread(u->fd, "Stack", 0);
        if (u->chain && u->previous.sa_handler != SIG_DFL && u->previous.sa_handler != SIG_IGN &&
            u->previous.sa_handler != user_handler)
            u->previous.sa_handler(sig);
    }
    errno = e;
}

static int user_signum(Obj v, int *out)
{
    int64_t s;
    if (vm_index_i64(v, &s) < 0)
        return -1;
    for (int k = 0; k < 5; k++)
        if (s == fatal_signals[k]) {
            err_format(E_RuntimeError, "signal %lld cannot be registered, use enable() instead", (long long)s);
            return -1;
        }
    if (s < 1 || s >= NSIG) {
        err_set(E_ValueError, "signal number out of range");
        return -1;
    }
    *out = (int)s;
    return 0;
}

/* register(signum, file=sys.stderr, all_threads=True, chain=False) */
static Obj fh_register(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"signum", "file", "all_threads", "chain", NULL};
    Obj *a = vm_roots(5);
    Obj res = NULL;
    int sig, fd, all = 1, chain = 0;
    if (vm_parse_args("register", args, nargs, kwnames, names, 1, 4, a) < 0 || user_signum(a[0], &sig) < 0 ||
        (a[2] && (all = vm_is_true(a[2])) < 0) || (a[3] && (chain = vm_is_true(a[3])) < 0) ||
        file_fd(a[1], &fd, &a[4]) < 0)
        goto out;
    vm_tx_become_inevitable();
    if (!g_user_files && !(g_user_files = dict_new()))
        goto out;
    if (a[4] && dict_setitem(g_user_files, a[0], a[4]) < 0)
        goto out;
    struct user_signal *u = &user_signals[sig];
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = user_handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | (chain ? SA_NODEFER : 0);
    if (sigaction(sig, &sa, u->enabled ? NULL : &u->previous) < 0) {
        err_from_errno(errno, NULL);
        goto out;
    }
    u->fd = fd;
    u->all_threads = all;
    u->chain = chain;
    u->enabled = true;
    res = g_None;
out:
    vm_unroots(a);
    return res;
}

static Obj fh_unregister(Obj *args, size_t nargs, Obj kwnames)
{
    int sig;
    if (user_signum(args[0], &sig) < 0)
        return NULL;
    struct user_signal *u = &user_signals[sig];
    if (!u->enabled)
        return g_False;
    vm_tx_become_inevitable();
    u->enabled = false;
    sigaction(sig, &u->previous, NULL);
    if (g_user_files && dict_delitem(g_user_files, args[0]) < 0)
        err_clear();
    return g_True;
}

/* _sigsegv() and friends: tests make the process fault on purpose */
static Obj fh_sigsegv(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();
    raise(SIGSEGV);
    return g_None;
}

static Obj fh_sigabrt(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();
    abort();
}

static Obj fh_sigfpe(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();
    raise(SIGFPE);
    return g_None;
}

static Obj fh_read_null(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();
    raise(SIGSEGV);   /* what reading address 0 ends in */
    return g_None;
}

static const MethodDef fh_functions[] = {
    {"enable", fh_enable, METH_KW, NULL},
    {"disable", fh_disable, METH_NOARGS, NULL},
    {"is_enabled", fh_is_enabled, METH_NOARGS, NULL},
    {"dump_traceback", fh_dump_traceback, METH_KW, NULL},
    {"dump_traceback_later", fh_dump_traceback_later, METH_KW, NULL},
    {"cancel_dump_traceback_later", fh_cancel_dump_traceback_later, METH_NOARGS, NULL},
    {"register", fh_register, METH_KW, NULL},
    {"unregister", fh_unregister, METH_O, NULL},
    {"_sigsegv", fh_sigsegv, METH_ARGS(0, 1), NULL},
    {"_sigabrt", fh_sigabrt, METH_NOARGS, NULL},
    {"_sigfpe", fh_sigfpe, METH_NOARGS, NULL},
    {"_read_null", fh_read_null, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

Obj faulthandler_module_init(void)
{
    VM_GLOBAL_ROOT(g_fatal_file);
    VM_GLOBAL_ROOT(g_later_file);
    VM_GLOBAL_ROOT(g_user_files);
    Obj *r = vm_roots(1);
    r[0] = module_new("faulthandler");
    if (r[0])
        module_add_functions(r[0], fh_functions);   /* may move the module: read it back from its root */
    Obj m = r[0];
    vm_unroots(r);
    return m;
}
