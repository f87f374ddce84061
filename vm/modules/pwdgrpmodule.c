/* The pwd and grp modules: the password and group databases (getpwuid,
 * getpwnam, getpwall; getgrgid, getgrnam, getgrall) as CPython's struct
 * sequences. The re-entrant *_r calls fill C buffers, so the lookups are
 * safe from any thread. */
#define _GNU_SOURCE
#include "posix.h"
#include "objects/containers.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

static Obj g_struct_passwd, g_struct_group;

static Obj passwd_obj(const struct passwd *p)
{
    Obj *r = vm_roots(7);
    Obj res = NULL;
    if (!(r[0] = str_from_os_cstr(p->pw_name)) || !(r[1] = str_from_os_cstr(p->pw_passwd)) ||
        !(r[2] = int_from_i64(p->pw_uid)) || !(r[3] = int_from_i64(p->pw_gid)) ||
        !(r[4] = str_from_os_cstr(p->pw_gecos)) || !(r[5] = str_from_os_cstr(p->pw_dir)) ||
        !(r[6] = str_from_os_cstr(p->pw_shell)))
        goto out;
    res = structseq_new(g_struct_passwd, r, 7);
out:
    vm_unroots(r);
    return res;
}

static Obj group_obj(const struct group *g)
{
    Obj *r = vm_roots(5);
    Obj res = NULL;
    if (!(r[0] = str_from_os_cstr(g->gr_name)) || !(r[1] = str_from_os_cstr(g->gr_passwd)) ||
        !(r[2] = int_from_i64(g->gr_gid)) || !(r[3] = list_new_capacity(0)))
        goto out;
    for (char **m = g->gr_mem; m && *m; m++)
        if (!(r[4] = str_from_os_cstr(*m)) || list_append(r[3], r[4]) < 0)
            goto out;
    res = structseq_new(g_struct_group, r, 4);
out:
    vm_unroots(r);
    return res;
}

/* Runs lookup (a getpw*_r / getgr*_r call wrapped by the caller) with a
 * growing buffer: 1 found (into *out), 0 not found, -1 with OSError. */
typedef int (*lookup_fn)(const void *key, void *entry, char *buf, size_t len, void **result);

static int pw_by_uid(const void *k, void *e, char *b, size_t n, void **res)
{
    return getpwuid_r(*(const uid_t *)k, e, b, n, (struct passwd **)res);
}
static int pw_by_name(const void *k, void *e, char *b, size_t n, void **res)
{
    return getpwnam_r(k, e, b, n, (struct passwd **)res);
}
static int gr_by_gid(const void *k, void *e, char *b, size_t n, void **res)
{
    return getgrgid_r(*(const gid_t *)k, e, b, n, (struct group **)res);
}
static int gr_by_name(const void *k, void *e, char *b, size_t n, void **res)
{
    return getgrnam_r(k, e, b, n, (struct group **)res);
}

static Obj lookup(lookup_fn fn, const void *key, bool group)
{
    struct passwd pw;
    struct group gr;
    void *entry = group ? (void *)&gr : (void *)&pw, *found = NULL;
    size_t len = 1024;
    char *buf = NULL;
    int rc;
    for (;;) {
        char *nb = realloc(buf, len);
        if (!nb) {
            free(buf);
            return err_nomemory();
        }
        buf = nb;
        rc = fn(key, entry, buf, len, &found);
        if (rc != ERANGE || len > (1u << 24))
            break;
        len *= 2;
    }
    Obj res;
    if (rc != 0 && rc != ENOENT && rc != ESRCH && rc != EBADF && rc != EPERM)
        res = err_from_errno(rc, NULL);
    else if (!found)
        res = g_None;   /* the caller raises its KeyError */
    else
        res = group ? group_obj(&gr) : passwd_obj(&pw);
    free(buf);
    return res;
}

/* A name argument as the file system's bytes; NULL with TypeError/ValueError. */
static char *name_arg(Obj v, const char *fname)
{
    if (!IS_STR(vm_unwrap(v))) {
        err_format(E_TypeError, "%s() argument must be str, not %s", fname, type_name(v));
        return NULL;
    }
    PosixPath p;
    return posix_path(v, fname, "name", false, false, &p) < 0 ? NULL : p.c;
}

/* A uid or gid argument: an int (or __index__). */
static int id_arg(Obj v, const char *what, int64_t *out)
{
    Obj u = vm_unwrap(v);
    if (!IS_INT(u) && !vm_lookup_special(v, "__index__")) {
        err_format(E_TypeError, "%s should be integer, not %s", what, type_name(v));
        return -1;
    }
    return vm_index_i64(v, out);
}

static Obj pwd_getpwuid(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t uid;
    if (id_arg(args[0], "uid", &uid) < 0)
        return NULL;
    uid_t u = (uid_t)uid;
    Obj res = (int64_t)u != uid ? g_None : lookup(pw_by_uid, &u, false);
    if (res == g_None) {
        err_format(E_KeyError, "getpwuid(): uid not found: %lld", (long long)uid);
        return NULL;
    }
    return res;
}

static Obj pwd_getpwnam(Obj *args, size_t nargs, Obj kwnames)
{
    char *name = name_arg(args[0], "getpwnam");
    if (!name)
        return NULL;
    Obj res = lookup(pw_by_name, name, false);
    if (res == g_None)
        err_format(E_KeyError, "getpwnam(): name not found: '%s'", name);
    free(name);
    return res == g_None ? NULL : res;
}

static Obj grp_getgrgid(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t gid;
    if (id_arg(args[0], "gid", &gid) < 0)
        return NULL;
    gid_t g = (gid_t)gid;
    Obj res = (int64_t)g != gid ? g_None : lookup(gr_by_gid, &g, true);
    if (res == g_None) {
        err_format(E_KeyError, "getgrgid(): gid not found: %lld", (long long)gid);
        return NULL;
    }
    return res;
}

static Obj grp_getgrnam(Obj *args, size_t nargs, Obj kwnames)
{
    char *name = name_arg(args[0], "getgrnam");
    if (!name)
        return NULL;
    Obj res = lookup(gr_by_name, name, true);
    if (res == g_None)
        err_format(E_KeyError, "getgrnam(): name not found: '%s'", name);
    free(name);
    return res == g_None ? NULL : res;
}

/* getpwall / getgrall: every entry, through the (not re-entrant)
 * enumeration calls; the transaction is inevitable, so no abort repeats
 * them halfway. */
static Obj pwd_getpwall(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = list_new_capacity(0);
    if (!r[0])
        goto out;
    setpwent();
    struct passwd *p;
    while ((p = getpwent()))
        if (!(r[1] = passwd_obj(p)) || list_append(r[0], r[1]) < 0)
            goto done;
    res = r[0];
done:
    endpwent();
out:
    vm_unroots(r);
    return res;
}

static Obj grp_getgrall(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = list_new_capacity(0);
    if (!r[0])
        goto out;
    setgrent();
    struct group *g;
    while ((g = getgrent()))
        if (!(r[1] = group_obj(g)) || list_append(r[0], r[1]) < 0)
            goto done;
    res = r[0];
done:
    endgrent();
out:
    vm_unroots(r);
    return res;
}

static const MethodDef pwd_functions[] = {
    {"getpwuid", pwd_getpwuid, METH_O, NULL},
    {"getpwnam", pwd_getpwnam, METH_O, NULL},
    {"getpwall", pwd_getpwall, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef grp_functions[] = {
    {"getgrgid", grp_getgrgid, METH_O, NULL},
    {"getgrnam", grp_getgrnam, METH_O, NULL},
    {"getgrall", grp_getgrall, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static Obj make_module(const char *name, const MethodDef *fns, Obj *type, const char *tname,
                       const char *const *fields, int n)
{
    VM_GLOBAL_ROOT(*type);
    if (!*type && !(*type = structseq_new_type(name, tname, fields, n, n)))
        return NULL;
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = module_new(name);
    if (!r[0])
        goto out;
    module_add_functions(r[0], fns);
    if (module_add(r[0], tname, *type) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

Obj pwd_module_init(void)
{
    static const char *const fields[] = {"pw_name", "pw_passwd", "pw_uid", "pw_gid", "pw_gecos", "pw_dir",
                                         "pw_shell"};
    return make_module("pwd", pwd_functions, &g_struct_passwd, "struct_passwd", fields, 7);
}

Obj grp_module_init(void)
{
    static const char *const fields[] = {"gr_name", "gr_passwd", "gr_gid", "gr_mem"};
    return make_module("grp", grp_functions, &g_struct_group, "struct_group", fields, 4);
}
