/* The signal module, and where Python signal handlers run.
 *
 * As in CPython: the C handler only records the signal (a flag per signal)
 * and calls tm_interrupt() (runtime/park.h), which sets
 * tm_interrupt_pending and ends the main thread's current interruptible
 * wait. The Python handlers run later, in the main thread, in
 * vm_signals_check(): at the eval loop's back-edges and returns, and in
 * every wait that an interrupt ends (sleep, lock and monitor waits, reads).
 * Other threads block the asynchronous signals (signals_thread_mask), so
 * the kernel delivers them to the main thread and its waits wake up. The
 * default SIGINT handler raises KeyboardInterrupt. */
#define _GNU_SOURCE
#include "eval.h"
#include "modules.h"
#include "objects/objects.h"
#include "objects/strobj.h"
#include "objects/containers.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

/* Set by the C handler, cleared by the main thread before it runs the
 * Python handler. */
static volatile sig_atomic_t tripped[NSIG];
/* The Python-level handler of each signal: a callable, SIG_DFL (0) or
 * SIG_IGN (1), or None for a handler not set from Python. A list, rooted. */
static Obj g_handlers;
static Obj g_default_int_handler;
static TypeObj *E_ItimerError;

/* set_wakeup_fd's descriptor (-1: none): the C handler writes the signal's
 * number to it as one byte, for event loops that wait in select/poll
 * (multiprocessing's forkserver, asyncio). */
static volatile sig_atomic_t wakeup_fd = -1;

static void on_signal(int sig)
{
    tripped[sig] = 1;
    int fd = wakeup_fd;
    if (fd >= 0) {
        int saved = errno;
        unsigned char byte = (unsigned char)sig;
        ssize_t n = write(fd, &byte, 1);   /* a full pipe drops it, as CPython does (without its warning) */
        (void)n;
        errno = saved;
    }
    tm_interrupt();
}

/* Signals that other threads leave to the main thread: all but those the
 * kernel delivers to the thread that caused them. */
void signals_thread_mask(sigset_t *set)
{
    sigfillset(set);
    static const int synchronous[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT};
    for (size_t i = 0; i < ARRAY_LEN(synchronous); i++)
        sigdelset(set, synchronous[i]);
}

/* The Python frame running now, for the handler's second argument. */
static Obj current_frame(void)
{
    Frame *f = vm_ts.frame;
    if (!f)
        return g_None;
    return frameobj_new((Obj)f->code, FRAME_HDR(f)[HDR_GLOBALS], eval_frame_lineno(f));
}

static bool any_tripped(void)
{
    for (int sig = 1; sig < NSIG; sig++)
        if (tripped[sig])
            return true;
    return false;
}

/* Run the handlers of the signals caught since the last run, lowest number
 * first. A handler that raises stops the run; the signals not yet handled
 * stay pending. */
static int run_handlers(void)
{
    /* STM: a handler's effects, and the flags cleared here, cannot be
     * undone by an abort (an abort while waiting leaves the flags set). */
    vm_tx_become_inevitable();
    tm_interrupt_clear();
    Obj *r = vm_roots(2);
    int rc = 0;
    for (int sig = 1; sig < NSIG; sig++) {
        if (!tripped[sig])
            continue;
        tripped[sig] = 0;
        r[0] = LIST_ITEMS(g_handlers)[sig];
        if (!vm_callable(r[0]))
            continue;   /* set to SIG_IGN / SIG_DFL after the signal came */
        r[1] = current_frame();
        if (!r[1] || !vm_call2(r[0], MAKE_SMALLINT(sig), r[1])) {
            if (any_tripped())
                tm_interrupt();
            rc = -1;
            break;
        }
    }
    vm_unroots(r);
    return rc;
}

int signals_check(void)
{
    if (!tm_interrupted())
        return 0;
    return run_handlers();
}

/* ------------------------------------------------------------------ */
/* Module functions                                                    */
/* ------------------------------------------------------------------ */

/* An int argument CPython takes as a C int: TypeError for a non-int (no
 * __index__), OverflowError beyond the C int range. */
static int c_int_arg(Obj v, int64_t *n)
{
    if (!IS_INT(vm_unwrap(v))) {
        err_format(E_TypeError, "'%s' object cannot be interpreted as an integer", type_name(v));
        return -1;
    }
    return arg_c_int(v, n);
}

/* The signal number in v, checked against the range. */
static int signal_number(Obj v, int *sig)
{
    int64_t n;
    if (c_int_arg(v, &n) < 0)
        return -1;
    if (n < 1 || n >= NSIG) {
        err_set(E_ValueError, "signal number out of range");
        return -1;
    }
    *sig = (int)n;
    return 0;
}

static int install(int sig, void (*action)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = action;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_ONSTACK;   /* no SA_RESTART: a wait must see EINTR */
    return sigaction(sig, &sa, NULL);
}

static Obj sig_signal(Obj *args, size_t nargs, Obj kwnames)
{
    int sig;
    if (signal_number(args[0], &sig) < 0)
        return NULL;
    if (!tm_interrupt_is_target()) {
        err_set(E_ValueError, "signal only works in main thread of the main interpreter");
        return NULL;
    }
    Obj h = args[1];
    void (*action)(int) = on_signal;
    if (IS_INT(vm_unwrap(h))) {
        int64_t v;
        if (int_as_i64(vm_unwrap(h), &v) < 0)
            err_clear();
        else if (v == 0)
            action = SIG_DFL;
        else if (v == 1)
            action = SIG_IGN;
        if (action == on_signal) {
            err_set(E_TypeError, "signal handler must be signal.SIG_IGN, signal.SIG_DFL, or a callable object");
            return NULL;
        }
    } else if (!vm_callable(h)) {
        err_set(E_TypeError, "signal handler must be signal.SIG_IGN, signal.SIG_DFL, or a callable object");
        return NULL;
    }
    vm_tx_become_inevitable();   /* changes the process: no abort may repeat it */
    if (install(sig, action) < 0)
        return err_from_errno(errno, NULL);
    Obj old = LIST_ITEMS(g_handlers)[sig];
    VM_WRITE(LIST(g_handlers)->array);
    LIST_ITEMS(g_handlers)[sig] = args[1];
    return old;
}

/* set_wakeup_fd(fd, /, *, warn_on_full_buffer=True): the old fd. */
static Obj sig_set_wakeup_fd(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"", "warn_on_full_buffer", NULL};
    Obj *r = vm_roots(2);
    Obj res = NULL;
    int64_t fd;
    if (vm_parse_args("set_wakeup_fd", args, nargs, kwnames, names, 1, 1, r) < 0 || c_int_arg(r[0], &fd) < 0)
        goto out;
    if (!tm_interrupt_is_target()) {
        err_set(E_ValueError, "set_wakeup_fd only works in main thread of the main interpreter");
        goto out;
    }
    if (fd != -1) {
        struct stat st;
        if (fd < 0 || fstat((int)fd, &st) != 0) {
            err_from_errno(fd < 0 ? EBADF : errno, NULL);
            goto out;
        }
        int fl = fcntl((int)fd, F_GETFL);
        if (fl < 0) {
            err_from_errno(errno, NULL);
            goto out;
        }
        if (!(fl & O_NONBLOCK)) {
            err_format(E_ValueError, "the fd %d must be in non-blocking mode", (int)fd);
            goto out;
        }
    }
    vm_tx_become_inevitable();   /* the handler's C state: no abort may undo it */
    int old = wakeup_fd;
    wakeup_fd = (sig_atomic_t)fd;
    res = MAKE_SMALLINT(old);
out:
    vm_unroots(r);
    return res;
}

static Obj sig_getsignal(Obj *args, size_t nargs, Obj kwnames)
{
    int sig;
    if (signal_number(args[0], &sig) < 0)
        return NULL;
    return LIST_ITEMS(g_handlers)[sig];
}

static Obj sig_default_int_handler(Obj *args, size_t nargs, Obj kwnames)
{
    err_set_obj((Obj)E_KeyboardInterrupt);
    return NULL;
}

/* Send sig to the process and run its handler at once (the main thread
 * gets it; raise() in another thread would leave it pending there, where
 * it is blocked). */
/* _thread.interrupt_main: the signal's Python handler runs in the main
 * thread as if the signal had come; nothing when it is SIG_DFL or SIG_IGN
 * (CPython 3.10+). From another thread the signal itself is sent to the
 * process (the other threads block it, so the main thread takes it and its
 * wait ends with EINTR); in the main thread it is tripped and handled at
 * once. */
int signals_interrupt_main(int64_t sig)
{
    if (sig < 1 || sig >= NSIG) {
        err_set(E_ValueError, "signal number out of range");
        return -1;
    }
    if (!vm_callable(LIST_ITEMS(g_handlers)[sig]))
        return 0;
    vm_tx_become_inevitable();   /* a signal sent is not taken back */
    if (!tm_interrupt_is_target()) {
        if (kill(getpid(), (int)sig) != 0) {
            err_from_errno(errno, NULL);
            return -1;
        }
        return 0;
    }
    tripped[sig] = 1;
    tm_interrupt();
    return vm_signals_check();
}

static Obj sig_raise_signal(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t sig;
    if (c_int_arg(args[0], &sig) < 0)
        return NULL;
    /* what raise() refuses (CPython has no range check of its own; 0 is
     * no signal, accepted) */
    sigset_t valid;
    sigfillset(&valid);
    if (sig < 0 || sig >= NSIG || (sig > 0 && sigismember(&valid, (int)sig) != 1))
        return err_from_errno(EINVAL, NULL);
    vm_tx_become_inevitable();
    int rc = tm_interrupt_is_target() ? raise((int)sig) : kill(getpid(), (int)sig);
    if (rc != 0)
        return err_from_errno(errno, NULL);
    return vm_signals_check() < 0 ? NULL : g_None;
}

static Obj sig_alarm(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t secs;
    if (c_int_arg(args[0], &secs) < 0)
        return NULL;
    vm_tx_become_inevitable();
    return int_from_u64(alarm((unsigned)(int)secs));   /* a negative int wraps, as in CPython */
}

/* Wait for a signal: returns once a handler ran. */
static Obj sig_pause(Obj *args, size_t nargs, Obj kwnames)
{
    uint32_t never = 0;
    vm_blocking_begin();
    tm_park(&never, TM_PARK_FOREVER, true);
    vm_blocking_end();
    return vm_signals_check() < 0 ? NULL : g_None;
}

static Obj sig_strsignal(Obj *args, size_t nargs, Obj kwnames)
{
    int sig;
    if (signal_number(args[0], &sig) < 0)
        return NULL;
    const char *s = strsignal(sig);
    if (!s || strstr(s, "Unknown signal"))
        return g_None;
    return str_from_cstr(s);
}

static Obj sig_valid_signals(Obj *args, size_t nargs, Obj kwnames)
{
    sigset_t all;
    sigfillset(&all);
    Obj *r = vm_roots(1);
    r[0] = set_new(NULL);
    for (int sig = 1; r[0] && sig < NSIG; sig++)
        if (sigismember(&all, sig) == 1 && set_add(r[0], MAKE_SMALLINT(sig)) < 0)
            r[0] = NULL;
    Obj res = r[0];
    vm_unroots(r);
    return res;
}

/* ---- interval timers ---- */

static double tv_seconds(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static Obj itimer_tuple(const struct itimerval *v)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = float_new(tv_seconds(v->it_value));
    r[1] = r[0] ? float_new(tv_seconds(v->it_interval)) : NULL;
    if (r[1])
        res = tuple_pack(2, r[0], r[1]);
    vm_unroots(r);
    return res;
}

static Obj itimer_error(int e)
{
    Obj *r = vm_roots(2);
    r[0] = MAKE_SMALLINT(e);
    r[1] = str_from_cstr(strerror(e));
    Obj exc = r[1] ? exc_new(E_ItimerError, r, 2) : NULL;
    if (exc)
        err_set_obj(exc);
    vm_unroots(r);
    return NULL;
}

static int which_timer(Obj v, int *which)
{
    int64_t n;
    if (!IS_INT(vm_unwrap(v))) {
        err_format(E_TypeError, "'%s' object cannot be interpreted as an integer", type_name(v));
        return -1;
    }
    if (vm_index_i64(v, &n) < 0)
        return -1;
    *which = n < INT32_MIN || n > INT32_MAX ? -1 : (int)n;
    return 0;
}

static int seconds_to_timeval(Obj v, struct timeval *tv)
{
    double d;
    if (vm_as_double(v, &d) < 0)
        return -1;
    if (d < 0 || d > 1e15) {
        errno = EINVAL;
        return 1;
    }
    tv->tv_sec = (time_t)d;
    tv->tv_usec = (suseconds_t)((d - (double)tv->tv_sec) * 1e6);
    if (tv->tv_sec == 0 && tv->tv_usec == 0 && d > 0)
        tv->tv_usec = 1;   /* a tiny positive delay still arms the timer */
    return 0;
}

static Obj sig_setitimer(Obj *args, size_t nargs, Obj kwnames)
{
    int which;
    struct itimerval nv = {{0, 0}, {0, 0}}, old;
    if (which_timer(args[0], &which) < 0)
        return NULL;
    int rc = seconds_to_timeval(args[1], &nv.it_value);
    if (rc == 0 && nargs > 2)
        rc = seconds_to_timeval(args[2], &nv.it_interval);
    if (rc < 0)
        return NULL;
    if (rc > 0)
        return itimer_error(EINVAL);
    vm_tx_become_inevitable();
    if (setitimer(which, &nv, &old) < 0)
        return itimer_error(errno);
    return itimer_tuple(&old);
}

static Obj sig_getitimer(Obj *args, size_t nargs, Obj kwnames)
{
    int which;
    struct itimerval cur;
    if (which_timer(args[0], &which) < 0)
        return NULL;
    if (getitimer(which, &cur) < 0)
        return itimer_error(errno);
    return itimer_tuple(&cur);
}

static const MethodDef signal_functions[] = {
    {"signal", sig_signal, METH_ARGS(2, 2), "Set the action for the given signal; return the previous one."},
    {"getsignal", sig_getsignal, METH_O, "Return the current action for the given signal."},
    {"set_wakeup_fd", sig_set_wakeup_fd, METH_KW,
     "set_wakeup_fd($module, fd, /, *, warn_on_full_buffer=True)\n--\n\n"
     "Sets the fd to be written to (with the signal number) when a signal comes in."},
    {"raise_signal", sig_raise_signal, METH_O, "Send a signal to the executing process."},
    {"alarm", sig_alarm, METH_O, "Arrange for SIGALRM to arrive after the given number of seconds."},
    {"pause", sig_pause, METH_NOARGS, "Wait until a signal arrives."},
    {"strsignal", sig_strsignal, METH_O, "Return the system description of the given signal."},
    {"valid_signals", sig_valid_signals, METH_NOARGS, "Return a set of valid signal numbers on this platform."},
    {"setitimer", sig_setitimer, METH_ARGS(2, 3), "Set an interval timer; return its previous (delay, interval)."},
    {"getitimer", sig_getitimer, METH_O, "Return the current (delay, interval) of an interval timer."},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* Start-up and the module                                             */
/* ------------------------------------------------------------------ */

static const MethodDef default_int_handler_def = {
    "default_int_handler", sig_default_int_handler, METH_ARGS(2, 2),
    "The default handler for SIGINT installed by Python.\n\nIt raises KeyboardInterrupt."};

void signals_init(void)
{
    tm_interrupt_set_target();
    VM_GLOBAL_ROOT(g_handlers);
    VM_GLOBAL_ROOT(g_default_int_handler);
    g_handlers = list_new_capacity(NSIG);
    g_default_int_handler = builtin_new(&default_int_handler_def, NULL, NULL);
    if (!g_handlers || !g_default_int_handler) {
        fputs("tmpy: fatal: out of memory starting the signal support\n", stderr);
        exit(1);
    }
    /* Python writes to a closed pipe or past the file size limit get an
     * error return (BrokenPipeError, OSError EFBIG), as in CPython. */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
    struct sigaction sa;
    if (sigaction(SIGINT, NULL, &sa) == 0 && sa.sa_handler == SIG_DFL && install(SIGINT, on_signal) < 0)
        perror("tmpy: SIGINT");
    for (int sig = 0; sig < NSIG; sig++) {
        Obj h = g_None;
        if (sig > 0 && sigaction(sig, NULL, &sa) == 0) {
            if (sa.sa_handler == SIG_DFL)
                h = MAKE_SMALLINT(0);
            else if (sa.sa_handler == SIG_IGN)
                h = MAKE_SMALLINT(1);
            else if (sig == SIGINT)
                h = g_default_int_handler;
        }
        if (list_append(g_handlers, h) < 0) {
            fputs("tmpy: fatal: out of memory starting the signal support\n", stderr);
            exit(1);
        }
    }
    E_ItimerError = (TypeObj *)type_new_builtin("signal.itimer_error", E_OSError, TID_EXCEPTION,
                                                TPF_BASETYPE | TPF_HAS_DICT);
    type_ready(E_ItimerError);
}

void signals_exit_by_sigint(void)
{
    fflush(stdout);
    fflush(stderr);
    signal(SIGINT, SIG_DFL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, SIGINT);
    pthread_sigmask(SIG_UNBLOCK, &only, NULL);
    kill(getpid(), SIGINT);
}

static Obj g_signal_module;

/* signal and _signal are one module. */
Obj signal_module_init(void)
{
    if (g_signal_module)
        return g_signal_module;
    VM_GLOBAL_ROOT(g_signal_module);
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = module_new("signal");
    if (!r[0])
        goto out;
    module_add_functions(r[0], signal_functions);
    static const struct { const char *name; int v; } ints[] = {
        {"SIGABRT", SIGABRT}, {"SIGALRM", SIGALRM}, {"SIGBUS", SIGBUS}, {"SIGCHLD", SIGCHLD},
        {"SIGCLD", SIGCHLD}, {"SIGCONT", SIGCONT}, {"SIGFPE", SIGFPE}, {"SIGHUP", SIGHUP},
        {"SIGILL", SIGILL}, {"SIGINT", SIGINT}, {"SIGIO", SIGIO}, {"SIGIOT", SIGIOT},
        {"SIGKILL", SIGKILL}, {"SIGPIPE", SIGPIPE}, {"SIGPOLL", SIGPOLL}, {"SIGPROF", SIGPROF},
        {"SIGPWR", SIGPWR}, {"SIGQUIT", SIGQUIT}, {"SIGSEGV", SIGSEGV}, {"SIGSTKFLT", SIGSTKFLT},
        {"SIGSTOP", SIGSTOP}, {"SIGSYS", SIGSYS}, {"SIGTERM", SIGTERM}, {"SIGTRAP", SIGTRAP},
        {"SIGTSTP", SIGTSTP}, {"SIGTTIN", SIGTTIN}, {"SIGTTOU", SIGTTOU}, {"SIGURG", SIGURG},
        {"SIGUSR1", SIGUSR1}, {"SIGUSR2", SIGUSR2}, {"SIGVTALRM", SIGVTALRM}, {"SIGWINCH", SIGWINCH},
        {"SIGXCPU", SIGXCPU}, {"SIGXFSZ", SIGXFSZ},
        {"SIG_DFL", 0}, {"SIG_IGN", 1}, {"NSIG", NSIG},
        {"SIG_BLOCK", SIG_BLOCK}, {"SIG_UNBLOCK", SIG_UNBLOCK}, {"SIG_SETMASK", SIG_SETMASK},
        {"ITIMER_REAL", ITIMER_REAL}, {"ITIMER_VIRTUAL", ITIMER_VIRTUAL}, {"ITIMER_PROF", ITIMER_PROF},
    };
    for (size_t i = 0; i < ARRAY_LEN(ints); i++)
        if (module_add(r[0], ints[i].name, MAKE_SMALLINT(ints[i].v)) < 0)
            goto out;
    if (module_add(r[0], "SIGRTMIN", MAKE_SMALLINT(SIGRTMIN)) < 0 ||
        module_add(r[0], "SIGRTMAX", MAKE_SMALLINT(SIGRTMAX)) < 0 ||
        module_add(r[0], "default_int_handler", g_default_int_handler) < 0 ||
        module_add(r[0], "ItimerError", (Obj)E_ItimerError) < 0)
        goto out;
    res = g_signal_module = r[0];
out:
    vm_unroots(r);
    return res;
}
