/* The resource module: getrlimit, setrlimit, prlimit, getrusage,
 * getpagesize and their constants, with CPython's results and errors. */
#define _GNU_SOURCE
#include "eval.h"
#include "modules.h"
#include "objects/numbers.h"
#include "objects/objects.h"

#include <errno.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

static Obj g_struct_rusage;

static Obj rlimit_tuple(const struct rlimit *rl)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    /* RLIM_INFINITY reads as -1, as in CPython (a signed long long) */
    if ((r[0] = int_from_i64((int64_t)rl->rlim_cur)) && (r[1] = int_from_i64((int64_t)rl->rlim_max)))
        res = tuple_pack(2, r[0], r[1]);
    vm_unroots(r);
    return res;
}

static int resource_arg(Obj v, int *out)
{
    int64_t x;
    if (vm_index_i64(v, &x) < 0)
        return -1;
    if (x < 0 || x >= RLIM_NLIMITS) {
        err_set(E_ValueError, "invalid resource specified");
        return -1;
    }
    *out = (int)x;
    return 0;
}

/* limits: a sequence of two ints */
static int rlimit_arg(Obj limits, struct rlimit *rl)
{
    Obj *r = vm_roots(1);
    int rc = -1;
    r[0] = vm_tuple_from_iter(limits);
    if (!r[0]) {
        if (err_matches(E_TypeError)) {
            err_clear();
            err_set(E_ValueError, "expected a tuple of 2 integers");
        }
        goto out;
    }
    if (TUPLE_LEN(r[0]) != 2) {
        err_set(E_ValueError, "expected a tuple of 2 integers");
        goto out;
    }
    int64_t cur, max;
    if (vm_index_i64(TUPLE_ITEMS(r[0])[0], &cur) < 0 || vm_index_i64(TUPLE_ITEMS(r[0])[1], &max) < 0)
        goto out;
    rl->rlim_cur = (rlim_t)cur;
    rl->rlim_max = (rlim_t)max;
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

static Obj setrlimit_error(void)
{
    if (errno == EINVAL) {
        err_set(E_ValueError, "current limit exceeds maximum limit");
        return NULL;
    }
    if (errno == EPERM) {
        err_set(E_ValueError, "not allowed to raise maximum limit");
        return NULL;
    }
    return err_from_errno(errno, NULL);
}

static Obj resource_getrlimit(Obj *args, size_t nargs, Obj kwnames)
{
    int res;
    if (resource_arg(args[0], &res) < 0)
        return NULL;
    struct rlimit rl;
    if (getrlimit(res, &rl) < 0)
        return err_from_errno(errno, NULL);
    return rlimit_tuple(&rl);
}

static Obj resource_setrlimit(Obj *args, size_t nargs, Obj kwnames)
{
    int res;
    struct rlimit rl;
    if (resource_arg(args[0], &res) < 0 || rlimit_arg(args[1], &rl) < 0)
        return NULL;
    vm_tx_become_inevitable();   /* a limit set is not undone */
    if (setrlimit(res, &rl) < 0)
        return setrlimit_error();
    return g_None;
}

/* prlimit(pid, resource[, limits]) -> the old limits */
static Obj resource_prlimit(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t pid;
    int res;
    if (vm_index_i64(args[0], &pid) < 0 || resource_arg(args[1], &res) < 0)
        return NULL;
    struct rlimit rl, old;
    bool set = nargs > 2 && !IS_NONE(args[2]);
    if (set && rlimit_arg(args[2], &rl) < 0)
        return NULL;
    if (set)
        vm_tx_become_inevitable();
    if (prlimit((pid_t)pid, res, set ? &rl : NULL, &old) < 0)
        return set ? setrlimit_error() : err_from_errno(errno, NULL);
    return rlimit_tuple(&old);
}

static Obj resource_getrusage(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t who;
    if (vm_index_i64(args[0], &who) < 0)
        return NULL;
    struct rusage ru;
    if (getrusage((int)who, &ru) < 0) {
        if (errno == EINVAL) {
            err_set(E_ValueError, "invalid who parameter");
            return NULL;
        }
        return err_from_errno(errno, NULL);
    }
    Obj *r = vm_roots(16);
    Obj res = NULL;
    const long v[] = {ru.ru_maxrss, ru.ru_ixrss, ru.ru_idrss, ru.ru_isrss, ru.ru_minflt, ru.ru_majflt, ru.ru_nswap,
                      ru.ru_inblock, ru.ru_oublock, ru.ru_msgsnd, ru.ru_msgrcv, ru.ru_nsignals, ru.ru_nvcsw, ru.ru_nivcsw};
    if (!(r[0] = float_new(ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6)) ||
        !(r[1] = float_new(ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6)))
        goto out;
    for (int i = 0; i < 14; i++)
        if (!(r[2 + i] = int_from_i64(v[i])))
            goto out;
    res = structseq_new(g_struct_rusage, r, 16);
out:
    vm_unroots(r);
    return res;
}

static Obj resource_getpagesize(Obj *args, size_t nargs, Obj kwnames)
{
    return int_from_i64(sysconf(_SC_PAGESIZE));
}

static const MethodDef resource_functions[] = {
    {"getrlimit", resource_getrlimit, METH_O, NULL},
    {"setrlimit", resource_setrlimit, METH_ARGS(2, 2), NULL},
    {"prlimit", resource_prlimit, METH_ARGS(2, 3), NULL},
    {"getrusage", resource_getrusage, METH_O, NULL},
    {"getpagesize", resource_getpagesize, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

Obj resource_module_init(void)
{
    vm_tx_become_inevitable();   /* the type is a C global */
    if (!g_struct_rusage) {
        VM_GLOBAL_ROOT(g_struct_rusage);
        static const char *const f[] = {"ru_utime", "ru_stime", "ru_maxrss", "ru_ixrss", "ru_idrss", "ru_isrss",
                                        "ru_minflt", "ru_majflt", "ru_nswap", "ru_inblock", "ru_oublock",
                                        "ru_msgsnd", "ru_msgrcv", "ru_nsignals", "ru_nvcsw", "ru_nivcsw"};
        if (!(g_struct_rusage = structseq_new_type("resource", "struct_rusage", f, 16, 16)))
            return NULL;
    }
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = module_new("resource");
    if (!r[0])
        goto out;
    module_add_functions(r[0], resource_functions);
    static const struct { const char *name; int64_t v; } ints[] = {
        {"RLIMIT_CPU", RLIMIT_CPU}, {"RLIMIT_FSIZE", RLIMIT_FSIZE}, {"RLIMIT_DATA", RLIMIT_DATA},
        {"RLIMIT_STACK", RLIMIT_STACK}, {"RLIMIT_CORE", RLIMIT_CORE}, {"RLIMIT_RSS", RLIMIT_RSS},
        {"RLIMIT_NPROC", RLIMIT_NPROC}, {"RLIMIT_NOFILE", RLIMIT_NOFILE}, {"RLIMIT_OFILE", RLIMIT_OFILE},
        {"RLIMIT_MEMLOCK", RLIMIT_MEMLOCK}, {"RLIMIT_AS", RLIMIT_AS}, {"RLIMIT_MSGQUEUE", RLIMIT_MSGQUEUE},
        {"RLIMIT_NICE", RLIMIT_NICE}, {"RLIMIT_RTPRIO", RLIMIT_RTPRIO}, {"RLIMIT_RTTIME", RLIMIT_RTTIME},
        {"RLIMIT_SIGPENDING", RLIMIT_SIGPENDING}, {"RUSAGE_SELF", RUSAGE_SELF},
        {"RUSAGE_CHILDREN", RUSAGE_CHILDREN}, {"RUSAGE_THREAD", RUSAGE_THREAD}, {"RLIM_INFINITY", -1},
    };
    for (size_t i = 0; i < ARRAY_LEN(ints); i++)
        if (module_add(r[0], ints[i].name, MAKE_SMALLINT(ints[i].v)) < 0)
            goto out;
    if (module_add(r[0], "struct_rusage", g_struct_rusage) < 0 || module_add(r[0], "error", (Obj)E_OSError) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
