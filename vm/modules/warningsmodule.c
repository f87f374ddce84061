/* The _warnings module: the core of CPython's warnings.py (which imports it
 * when present): the filter list, the "once" registry, the default action,
 * warn() and warn_explicit(). As in CPython, the filters, default action and
 * _showwarnmsg are read from the warnings module when it is imported (so
 * catch_warnings' rebinding works), else from this module's own objects.
 * A filter's message and module entries are None, an exact str (compared
 * for equality: the built-in default filters) or a compiled regex (its
 * match() is called), so importing warnings needs no regex engine. */
#include "modules.h"
#include "eval.h"
#include "objects/containers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The module's own filters, "once" registry and default action, and the
 * filters' version (a one-item list, bumped by _filters_mutated: a
 * registry made under an older version is cleared). Made at start-up:
 * global roots, never rebound, so reading one allocates nothing; every
 * change is an ordinary transactional write into them. */
static Obj g_warn_filters, g_warn_once, g_warn_default, g_warn_version;
static Obj g_str_version, g_str_registry;   /* interned "version", "__warningregistry__" */

static int warnings_state_ready(void);

/* warnings.<name> if the warnings module is in sys.modules; NULL without
 * an error when it is not (or lacks the attribute). */
static Obj warnings_module_attr(const char *name)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = str_from_cstr(name);   /* first: the module looked up next must not move before its use */
    Obj m = r[0] ? dict_getitem_cstr(g_modules, "warnings") : NULL;
    if (m && !IS_NONE(m))
        res = vm_getattr_opt(m, r[0]);
    vm_unroots(r);
    return res;
}

/* warnings.<name> when the warnings module has it, else this module's own
 * object; NULL: an error. */
static Obj warnings_attr_or(const char *name, Obj own)
{
    Obj v = warnings_module_attr(name);
    return v ? v : err_occurred() ? NULL : own;
}

static Obj current_filters(void)
{
    Obj f = warnings_attr_or("filters", g_warn_filters);
    if (f && !IS_LIST(f)) {
        err_set(E_ValueError, "_warnings.filters must be a list");
        return NULL;
    }
    return f;
}

static Obj current_default_action(void)
{
    Obj a = warnings_attr_or("defaultaction", g_warn_default);
    if (a && !IS_STR(a)) {
        err_format(E_TypeError, "_warnings.defaultaction must be a string, not '%s'", type_name(a));
        return NULL;
    }
    return a;
}

static Obj current_once_registry(void)
{
    Obj r = warnings_attr_or("onceregistry", g_warn_once);
    if (r && !IS_DICT(r)) {
        err_format(E_TypeError, "_warnings.onceregistry must be a dict, not '%s'", type_name(r));
        return NULL;
    }
    return r;
}

/* A filter's message or module entry against the text: None matches
 * everything, an exact str must be equal, anything else is a regex whose
 * match() decides. 1, 0 or -1. */
static int filter_entry_matches(Obj pattern, Obj text)
{
    if (IS_NONE(pattern))
        return 1;
    if (IS_STR(pattern) && TYPE(pattern) == T_str)
        return vm_equal(pattern, text);
    Obj m = vm_call_method1(pattern, "match", text);
    if (!m)
        return -1;
    return vm_is_true(m);
}

/* The action of the first filter that matches (*item gets the filter, or
 * None for the default action). */
static Obj find_action(Obj category, Obj text, int64_t lineno, Obj module, Obj *item)
{
    Obj *r = vm_roots(5);
    r[0] = category;
    r[1] = text;
    r[2] = module;
    Obj res = NULL;
    r[3] = current_filters();
    if (!r[3])
        goto out;
    for (int64_t i = 0; i < LIST_LEN(r[3]); i++) {
        r[4] = LIST_ITEMS(r[3])[i];
        if (!IS_TUPLE(r[4]) || TUPLE_LEN(r[4]) != 5) {
            err_format(E_ValueError, "_warnings.filters item %lld isn't a 5-tuple", (long long)i);
            goto out;
        }
        int ok = filter_entry_matches(TUPLE_ITEMS(r[4])[1], r[1]);
        if (ok < 0)
            goto out;
        if (!ok)
            continue;
        ok = vm_issubclass(r[0], TUPLE_ITEMS(r[4])[2]);
        if (ok < 0)
            goto out;
        if (!ok)
            continue;
        ok = filter_entry_matches(TUPLE_ITEMS(r[4])[3], r[2]);
        if (ok < 0)
            goto out;
        if (!ok)
            continue;
        int64_t ln;
        if (vm_index_i64(TUPLE_ITEMS(r[4])[4], &ln) < 0)
            goto out;
        if (ln != 0 && ln != lineno)
            continue;
        *item = r[4];
        res = TUPLE_ITEMS(r[4])[0];
        goto out;
    }
    *item = g_None;
    res = current_default_action();
out:
    vm_unroots(r);
    return res;
}

/* Clears a registry made under an older filters version. 0 or -1. */
static int registry_check_version(Obj registry)
{
    Obj version = LIST_ITEMS(g_warn_version)[0];
    Obj v = dict_getitem(registry, g_str_version);
    if (v && IS_SMALLINT(v) && v == version)
        return 0;
    if (err_occurred())
        return -1;
    dict_clear(registry);
    return dict_setitem(registry, g_str_version, version);
}

/* registry[key] is set (1), else 0 after setting it when `set`; -1. */
static int already_warned(Obj registry, Obj key, bool set)
{
    Obj *r = vm_roots(2);
    r[0] = registry;
    r[1] = key;
    int res = -1;
    if (registry_check_version(r[0]) < 0)
        goto out;
    Obj v = dict_getitem(r[0], r[1]);
    if (!v && err_occurred())
        goto out;
    if (v) {
        int t = vm_is_true(v);
        if (t != 0) {
            res = t;
            goto out;
        }
    }
    res = 0;
    if (set && dict_setitem(r[0], r[1], g_True) < 0)
        res = -1;
out:
    vm_unroots(r);
    return res;
}

/* registry[(text, category)] (or (text, category, 0)) as already_warned. */
static int update_registry(Obj registry, Obj text, Obj category, bool add_zero)
{
    Obj *r = vm_roots(2);
    r[0] = registry;
    r[1] = add_zero ? tuple_pack(3, text, category, MAKE_SMALLINT(0)) : tuple_pack(2, text, category);
    int res = r[1] ? already_warned(r[0], r[1], true) : -1;
    vm_unroots(r);
    return res;
}

/* Without warnings._showwarnmsg, as CPython's C fallback: "file:line:
 * Category: text", then the stripped source line, on sys.stderr. A warning
 * about an object (source) also gets the tracemalloc hint: CPython imports
 * warnings.py to show it, whose format adds that line (not at shutdown,
 * when that import fails). */
static int show_warning_plain(Obj category, Obj text, Obj filename, int64_t lineno, bool about_object)
{
    Obj *r = vm_roots(5);
    int res = -1;
    r[0] = category;
    r[1] = text;
    r[2] = filename;
    r[3] = vm_getattr_cstr(g_sys_module, "stderr");
    if (!r[3])
        goto out;
    if (IS_NONE(r[3])) {
        res = 0;
        goto out;
    }
    r[4] = vm_getattr_cstr(r[0], "__name__");
    if (!r[4])
        goto out;
    if (!IS_STR(r[4])) {
        err_set(E_TypeError, "warning category's __name__ must be a str");
        goto out;
    }
    r[1] = vm_str(r[1]);
    if (!r[1])
        goto out;
    const char *file = str_cstr(r[2]), *cat = str_cstr(r[4]);
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "%s:%lld: %s: %s\n", file, (long long)lineno, cat, str_cstr(r[1]));
    size_t n = 0;
    const char *line = file[0] == '<' || lineno < 1 || lineno > INT_MAX
                           ? NULL : traceback_source_line(file, (int)lineno, &n);
    while (line && n && (*line == ' ' || *line == '\t' || *line == '\f')) {
        line++;
        n--;
    }
    while (line && n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
        n--;
    if (line && n) {
        sb_adds(&b, "  ");
        sb_add(&b, line, n);
        sb_addc(&b, '\n');
    }
    if (about_object && !vm_finalizing)   /* cat re-read: reading the source may have waited to become inevitable */
        sb_printf(&b, "%s: Enable tracemalloc to get the object allocation traceback\n", str_cstr(r[4]));
    r[4] = sb_finish(&b);
    if (!r[4])
        goto out;
    if (g_sys_stdout && file_flush(g_sys_stdout) < 0)
        err_clear();   /* what was printed before the warning comes first */
    if (vm_call_method1(r[3], "write", r[4]))
        res = 0;
out:
    vm_unroots(r);
    return res;
}

/* Shows the warning through warnings._showwarnmsg(WarningMessage(...)), or,
 * when warnings is not imported, as show_warning_plain. */
static int show_warning(Obj message, Obj category, Obj text, Obj filename, int64_t lineno, Obj source)
{
    Obj *r = vm_roots(9);
    int res = -1;
    r[0] = message;
    r[1] = category;
    r[2] = text;
    r[3] = filename;
    r[4] = source;
    r[5] = warnings_module_attr("_showwarnmsg");
    if (!r[5]) {
        if (!err_occurred())
            res = show_warning_plain(r[1], r[2], r[3], lineno, r[4] != NULL);
        goto out;
    }
    if (!vm_callable(r[5])) {
        err_set(E_TypeError, "warnings._showwarnmsg() must be set to a callable");
        goto out;
    }
    r[6] = warnings_module_attr("WarningMessage");
    if (!r[6]) {
        if (!err_occurred())
            err_set(E_RuntimeError, "unable to get warnings.WarningMessage");
        goto out;
    }
    r[7] = int_from_i64(lineno);
    if (!r[7])
        goto out;
    Obj *a = vm_roots(7);
    a[0] = r[0];
    a[1] = r[1];
    a[2] = r[3];
    a[3] = r[7];
    a[4] = g_None;
    a[5] = g_None;
    a[6] = r[4] ? r[4] : g_None;
    r[8] = vm_call(r[6], a, 7, NULL);
    vm_unroots(a);
    if (!r[8] || !vm_call1(r[5], r[8]))
        goto out;
    res = 0;
out:
    vm_unroots(r);
    return res;
}

/* The module name a file name stands for: without ".py"; "<unknown>" for
 * an empty name. */
static Obj module_from_filename(Obj filename)
{
    const char *s = str_cstr(filename);
    size_t n = strlen(s);
    if (n == 0)
        return str_from_cstr("<unknown>");
    if (n >= 3 && !strcmp(s + n - 3, ".py"))
        return str_new(s, n - 3);
    return filename;
}

/* warn_explicit's work; registry may be None. */
static Obj do_warn_explicit(Obj message, Obj category, Obj filename, int64_t lineno, Obj module,
                            Obj registry, Obj source)
{
    /* r: 0 message, 1 category, 2 filename, 3 module, 4 registry, 5 source,
     * 6 text, 7 key, 8 action, 9 item */
    Obj *r = vm_roots(10);
    Obj res = NULL;
    r[0] = message;
    r[1] = category;
    r[2] = filename;
    r[3] = module;
    r[4] = registry;
    r[5] = source;
    if (!IS_NONE(r[4]) && !IS_DICT(r[4])) {
        err_set(E_TypeError, "'registry' must be a dict or None");
        goto out;
    }
    if (IS_NONE(r[3])) {
        r[3] = module_from_filename(r[2]);
        if (!r[3])
            goto out;
    }
    int is_warning = vm_isinstance(r[0], (Obj)E_Warning);
    if (is_warning < 0)
        goto out;
    if (is_warning) {
        r[6] = vm_str(r[0]);
        if (!r[6])
            goto out;
        r[1] = (Obj)TYPE(r[0]);
    } else {
        r[6] = r[0];
        r[0] = vm_call1(r[1], r[0]);
        if (!r[0])
            goto out;
    }
    r[7] = int_from_i64(lineno);
    if (!r[7] || !(r[7] = tuple_pack(3, r[6], r[1], r[7])))
        goto out;
    if (!IS_NONE(r[4])) {
        int w = already_warned(r[4], r[7], false);
        if (w < 0)
            goto out;
        if (w) {
            res = g_None;
            goto out;
        }
    }
    Obj item = NULL;
    r[8] = find_action(r[1], r[6], lineno, r[3], &item);
    if (!r[8])
        goto out;
    r[9] = item;
    if (!IS_STR(r[8])) {
        err_format(E_TypeError, "action must be a string, not '%s'", type_name(r[8]));
        goto out;
    }
    if (str_eq_cstr(r[8], "error")) {
        err_set_obj(r[0]);
        goto out;
    }
    int rc = 0;
    if (!str_eq_cstr(r[8], "always")) {
        if (!IS_NONE(r[4]) && dict_setitem(r[4], r[7], g_True) < 0)
            goto out;
        if (str_eq_cstr(r[8], "ignore")) {
            res = g_None;
            goto out;
        } else if (str_eq_cstr(r[8], "once")) {
            if (IS_NONE(r[4])) {
                r[4] = current_once_registry();
                if (!r[4])
                    goto out;
            }
            rc = update_registry(r[4], r[6], r[1], false);
        } else if (str_eq_cstr(r[8], "module")) {
            if (!IS_NONE(r[4]))
                rc = update_registry(r[4], r[6], r[1], true);
        } else if (!str_eq_cstr(r[8], "default")) {
            Obj ra = vm_repr(r[8]);
            Obj ri = ra ? vm_repr(r[9]) : NULL;
            if (ri)
                err_format(E_RuntimeError, "Unrecognized action (%s) in warnings.filters:\n %s",
                           str_cstr(ra), str_cstr(ri));
            goto out;
        }
    }
    if (rc < 0)
        goto out;
    if (rc == 0 && show_warning(r[0], r[1], r[6], r[2], lineno, IS_NONE(r[5]) ? NULL : r[5]) < 0)
        goto out;
    res = g_None;
out:
    vm_unroots(r);
    return res;
}

/* The category warn() uses: the message's class for a Warning instance,
 * UserWarning for None; anything else must be a Warning subclass. */
static Obj warn_category(Obj message, Obj category)
{
    int is_warning = vm_isinstance(message, (Obj)E_Warning);
    if (is_warning < 0)
        return NULL;
    if (is_warning)
        return (Obj)TYPE(message);
    if (IS_NONE(category))
        return (Obj)E_UserWarning;
    if (!IS_TYPE(category) || !type_is_subtype((TypeObj *)category, E_Warning)) {
        err_format(E_TypeError, "category must be a Warning subclass, not '%s'", type_name(category));
        return NULL;
    }
    return category;
}

/* warn()'s work, for a checked category: the place is the frame
 * stacklevel-1 calls out from the running one ("sys", line 1, past the
 * outermost), its globals give the module name and the registry. */
static Obj warn_at_level(Obj message, Obj category, int64_t stacklevel, Obj source)
{
    /* r: 0 message, 1 category, 2 source, 3 globals, 4 filename, 5 module, 6 registry */
    Obj *r = vm_roots(7);
    Obj res = NULL;
    r[0] = message;
    r[1] = category;
    r[2] = source;
    Frame *f = vm_ts.frame;
    for (int64_t level = stacklevel; level > 1 && f; level--)
        f = f->back;
    int64_t lineno;
    if (!f) {
        r[3] = vm_getattr_cstr(g_sys_module, "__dict__");
        r[4] = str_from_cstr("sys");
        lineno = 1;
    } else {
        r[3] = FRAME_HDR(f)[HDR_GLOBALS];
        r[4] = f->code->filename;
        lineno = eval_frame_lineno(f);
    }
    if (!r[3] || !r[4])
        goto out;
    r[5] = IS_DICT(r[3]) ? dict_getitem(r[3], NAME(__name__)) : NULL;
    if (!r[5] || !IS_STR(r[5])) {
        if (err_occurred())
            goto out;
        r[5] = str_from_cstr("<string>");
        if (!r[5])
            goto out;
    }
    r[6] = g_None;
    if (IS_DICT(r[3])) {
        r[6] = dict_getitem(r[3], g_str_registry);
        if (!r[6]) {
            if (err_occurred())
                goto out;
            r[6] = dict_new();
            if (!r[6] || dict_setitem(r[3], g_str_registry, r[6]) < 0)
                goto out;
        }
    }
    res = do_warn_explicit(r[0], r[1], r[4], lineno, r[5], r[6], r[2]);
out:
    vm_unroots(r);
    return res;
}

/* warn(message, category=None, stacklevel=1, source=None) */
static Obj w_warn(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"message", "category", "stacklevel", "source", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    if (vm_parse_args("warn", args, nargs, kwnames, names, 1, 4, a) < 0)
        goto out;
    int64_t stacklevel = 1;
    if (a[2] && vm_index_i64(a[2], &stacklevel) < 0)
        goto out;
    a[1] = warn_category(a[0], a[1] ? a[1] : g_None);
    if (a[1])
        res = warn_at_level(a[0], a[1], stacklevel, a[3] ? a[3] : g_None);
out:
    vm_unroots(a);
    return res;
}

/* A warning the interpreter issues from C (CPython's PyErr_WarnEx, with
 * stacklevel 1): the same filters, registries and display as warn(), with
 * or without warnings imported. source: the object it is about, or NULL. */
int warnings_warn(TypeObj *category, Obj message, Obj source)
{
    Obj *r = vm_roots(3);
    r[0] = message;
    r[1] = source;
    r[2] = (Obj)category;
    int rc = -1;
    if (warnings_state_ready() == 0)
        rc = warn_at_level(r[0], r[2], 1, r[1] ? r[1] : g_None) ? 0 : -1;
    vm_unroots(r);
    return rc;
}

/* warn_explicit(message, category, filename, lineno, module=None,
 *               registry=None, module_globals=None, source=None) */
static Obj w_warn_explicit(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"message", "category", "filename", "lineno", "module",
                                        "registry", "module_globals", "source", NULL};
    Obj *a = vm_roots(8);
    Obj res = NULL;
    if (vm_parse_args("warn_explicit", args, nargs, kwnames, names, 4, 8, a) < 0)
        goto out;
    if (!IS_STR(a[2])) {
        err_format(E_TypeError, "warn_explicit() argument 3 must be str, not %s", type_name(a[2]));
        goto out;
    }
    int64_t lineno;
    if (vm_index_i64(a[3], &lineno) < 0)
        goto out;
    if (a[6] && !IS_NONE(a[6]) && !IS_DICT(a[6])) {
        err_format(E_TypeError, "module_globals must be a dict, not '%s'", type_name(a[6]));
        goto out;
    }
    res = do_warn_explicit(a[0], a[1], a[2], lineno, a[4] ? a[4] : g_None, a[5] ? a[5] : g_None,
                           a[7] ? a[7] : g_None);
out:
    vm_unroots(a);
    return res;
}

static Obj w_filters_mutated(Obj *args, size_t nargs, Obj kwnames)
{
    Obj v = LIST_ITEMS(g_warn_version)[0];
    if (list_setitem(g_warn_version, MAKE_SMALLINT(0), MAKE_SMALLINT(SMALLINT_VAL(v) + 1)) < 0)
        return NULL;
    return g_None;
}

static const MethodDef warnings_functions[] = {
    {"warn", w_warn, METH_KW, NULL},
    {"warn_explicit", w_warn_explicit, METH_KW, NULL},
    {"_filters_mutated", w_filters_mutated, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* CPython's default filters of a release build: DeprecationWarning shown
 * for __main__, ignored elsewhere with PendingDeprecationWarning,
 * ImportWarning and ResourceWarning. */
static Obj default_filters(void)
{
    static const struct { const char *action, *category, *module; } defaults[] = {
        {"default", "DeprecationWarning", "__main__"},
        {"ignore", "DeprecationWarning", NULL},
        {"ignore", "PendingDeprecationWarning", NULL},
        {"ignore", "ImportWarning", NULL},
        {"ignore", "ResourceWarning", NULL},
    };
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = list_new_capacity(5);
    if (!r[0])
        goto out;
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++) {
        Obj cat = dict_getitem_cstr(g_builtins, defaults[i].category);
        if (!cat) {
            err_format(E_SystemError, "no builtin %s", defaults[i].category);
            goto out;
        }
        r[1] = str_from_cstr(defaults[i].action);
        r[2] = r[1] && defaults[i].module ? str_from_cstr(defaults[i].module) : g_None;
        if (!r[1] || !r[2])
            goto out;
        cat = dict_getitem_cstr(g_builtins, defaults[i].category);
        r[3] = tuple_pack(5, r[1], g_None, cat, r[2], MAKE_SMALLINT(0));
        if (!r[3] || list_append(r[0], r[3]) < 0)
            goto out;
    }
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

/* The default filters and the version, put in at the first use (the
 * first import of _warnings or warning from C: the builtin categories
 * exist by then). 0 or -1. */
static int warnings_state_ready(void)
{
    if (LIST_LEN(g_warn_version) != 0)
        return 0;
    Obj defaults = default_filters();
    if (!defaults || list_extend(g_warn_filters, defaults) < 0)
        return -1;
    return list_append(g_warn_version, MAKE_SMALLINT(0));
}

Obj warnings_module_init(void)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    if (warnings_state_ready() < 0)
        goto out;
    r[0] = module_new("_warnings");
    if (!r[0])
        goto out;
    module_add_functions(r[0], warnings_functions);
    if (module_add(r[0], "filters", g_warn_filters) < 0 || module_add(r[0], "_onceregistry", g_warn_once) < 0 ||
        module_add(r[0], "_defaultaction", g_warn_default) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

/* Start-up: the state (global roots, written only now). */
void warnings_init(void)
{
    VM_GLOBAL_ROOT(g_warn_filters);
    VM_GLOBAL_ROOT(g_warn_once);
    VM_GLOBAL_ROOT(g_warn_default);
    VM_GLOBAL_ROOT(g_warn_version);
    VM_GLOBAL_ROOT(g_str_version);
    VM_GLOBAL_ROOT(g_str_registry);
    g_warn_filters = list_new_capacity(8);
    g_warn_once = g_warn_filters ? dict_new() : NULL;
    g_warn_version = g_warn_once ? list_new_capacity(1) : NULL;
    g_warn_default = g_warn_version ? str_intern_cstr("default") : NULL;
    g_str_version = g_warn_default ? str_intern_cstr("version") : NULL;
    g_str_registry = g_str_version ? str_intern_cstr("__warningregistry__") : NULL;
    if (!g_str_registry) {
        fputs("tmpy: fatal: out of memory at start-up\n", stderr);
        exit(1);
    }
}
