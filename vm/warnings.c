/* Warnings the interpreter itself issues (CPython's PyErr_WarnEx from C):
 * through the warnings module's warn() when a `warnings` module is already
 * in sys.modules (its filters, showwarning and registry then apply), and
 * otherwise as CPython's default filters and format would show it:
 *
 *     file:line: Category: message
 *       the stripped source line
 *     Category: Enable tracemalloc to get the object allocation traceback
 *
 * (the last line only for a warning about an object, `source`, and not at
 * shutdown, when CPython's own fallback prints it). The place
 * is the running Python frame (stacklevel 1), or "sys:1" without one, as
 * CPython. Without the module, the default filters are applied by hand:
 * DeprecationWarning is shown only for code of __main__,
 * PendingDeprecationWarning, ImportWarning and ResourceWarning never, and
 * the rest once per (text, category, line) of a module, remembered in its
 * globals' __warningregistry__ as CPython's "default" action does. */
#include "eval.h"
#include "objects/strobj.h"

extern TypeObj *E_PendingDeprecationWarning, *E_ImportWarning, *E_ResourceWarning;

static int warn_through_module(Obj warnings, TypeObj *category, Obj message, Obj source)
{
    Obj *r = vm_roots(5);
    r[0] = vm_getattr_opt(warnings, str_intern_cstr("warn"));
    int rc = -1;
    if (!r[0]) {
        rc = err_occurred() ? -1 : 1;   /* no warn(): show it ourselves */
        goto done;
    }
    r[1] = message;
    r[2] = (Obj)category;
    r[3] = MAKE_SMALLINT(1);
    r[4] = source ? source : g_None;
    rc = vm_call(r[0], &r[1], 4, NULL) ? 0 : -1;
done:
    vm_unroots(r);
    return rc;
}

/* CPython's default filters, for a warning at a frame of module `modname`. */
static bool ignored_by_default(TypeObj *category, Obj globals)
{
    if (type_is_subtype(category, E_PendingDeprecationWarning) || type_is_subtype(category, E_ImportWarning) ||
        type_is_subtype(category, E_ResourceWarning))
        return true;
    if (type_is_subtype(category, E_DeprecationWarning)) {
        Obj name = globals ? dict_getitem_cstr(globals, "__name__") : NULL;
        return !(name && IS_STR(name) && strcmp(str_cstr(name), "__main__") == 0);
    }
    return false;
}

/* "default" action: once per (text, category, lineno) in the module's
 * __warningregistry__. 1: already shown; 0: recorded now; -1: error. */
static int seen_before(Obj globals, TypeObj *category, Obj message, int lineno)
{
    if (!globals || !IS_DICT(globals))
        return 0;
    Obj *r = vm_roots(3);
    int rc = -1;
    r[0] = dict_getitem_cstr(globals, "__warningregistry__");
    if (!r[0] || !IS_DICT(r[0])) {
        r[0] = dict_new();
        if (!r[0] || dict_setitem_cstr(globals, "__warningregistry__", r[0]) < 0)
            goto done;
    }
    r[1] = message;
    r[1] = tuple_pack(3, r[1], (Obj)category, MAKE_SMALLINT(lineno));
    if (!r[1])
        goto done;
    r[2] = dict_getitem(r[0], r[1]);
    if (r[2]) {
        rc = 1;
        goto done;
    }
    if (err_occurred())
        goto done;
    rc = dict_setitem(r[0], r[1], g_True) < 0 ? -1 : 0;
done:
    vm_unroots(r);
    return rc;
}

static int show_default(TypeObj *category, Obj message, bool about_object)
{
    Frame *f = vm_ts.frame;
    const char *filename = "sys";
    int lineno = 1;
    Obj globals = NULL;
    if (f) {
        Obj fn = f->code->filename;
        filename = fn && IS_STR(fn) ? str_cstr(fn) : "?";
        lineno = eval_frame_lineno(f);
        globals = FRAME_HDR(f)[HDR_GLOBALS];
    }
    if (ignored_by_default(category, globals))
        return 0;
    Obj *r = vm_roots(2);
    r[0] = message;
    r[1] = globals;
    int seen = seen_before(r[1], category, r[0], lineno);
    if (seen != 0) {
        vm_unroots(r);
        return seen < 0 ? -1 : 0;
    }
    const char *cat = category->name && IS_STR(category->name) ? str_cstr(category->name) : "Warning";
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "%s:%d: %s: %s\n", filename, lineno, cat, str_cstr(r[0]));
    size_t n = 0;
    const char *line = filename[0] == '<' ? NULL : traceback_source_line(filename, lineno, &n);
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
    if (about_object && !vm_finalizing)   /* at shutdown CPython's warnings.py is gone: no hint */
        sb_printf(&b, "%s: Enable tracemalloc to get the object allocation traceback\n", cat);
    vm_unroots(r);
    if (g_sys_stdout && file_flush(g_sys_stdout) < 0)
        err_clear();
    if (g_sys_stderr) {
        Obj s = sb_finish(&b);
        if (!s || file_write_str(g_sys_stderr, s) < 0)
            err_clear();   /* like a failing showwarning: ignored */
    } else {
        fwrite(b.p, 1, b.len, stderr);
        sb_free(&b);
    }
    return 0;
}

int vm_warn(TypeObj *category, Obj message, Obj source)
{
    Obj *r = vm_roots(3);
    int rc;
    r[0] = source;
    r[1] = message;
    r[2] = dict_getitem_cstr(g_modules, "warnings");
    if (r[2] && !IS_NONE(r[2])) {
        rc = warn_through_module(r[2], category, r[1], r[0]);
        if (rc <= 0)
            goto done;
    }
    rc = show_default(category, r[1], r[0] != NULL);
done:
    vm_unroots(r);
    return rc;
}
