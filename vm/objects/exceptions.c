/* The built-in exception hierarchy (as CPython 3.11), BaseException and its
 * specialised subclasses, and the err_* API: the current exception lives in
 * vm_ts.roots[ROOT_CUR_EXC]. */
#include "objects.h"
#include "strobj.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

TypeObj *E_BaseException, *E_Exception, *E_SystemExit, *E_KeyboardInterrupt, *E_GeneratorExit,
    *E_StopIteration, *E_ArithmeticError, *E_ZeroDivisionError, *E_OverflowError, *E_FloatingPointError,
    *E_AssertionError, *E_AttributeError, *E_BufferError, *E_EOFError, *E_ImportError, *E_ModuleNotFoundError,
    *E_LookupError, *E_IndexError, *E_KeyError, *E_MemoryError, *E_NameError, *E_UnboundLocalError, *E_OSError,
    *E_FileNotFoundError, *E_FileExistsError, *E_PermissionError, *E_IsADirectoryError, *E_NotADirectoryError,
    *E_TimeoutError, *E_ReferenceError, *E_RuntimeError, *E_NotImplementedError, *E_RecursionError,
    *E_SyntaxError, *E_IndentationError, *E_TabError, *E_SystemError, *E_TypeError, *E_ValueError,
    *E_UnicodeError, *E_UnicodeDecodeError, *E_UnicodeEncodeError, *E_Warning, *E_UserWarning,
    *E_DeprecationWarning, *E_RuntimeWarning, *E_StopAsyncIteration, *E_ConnectionError, *E_BrokenPipeError,
    *E_ChildProcessError, *E_InterruptedError, *E_ProcessLookupError, *E_BlockingIOError;
TypeObj *E_UnicodeTranslateError, *E_ConnectionAbortedError, *E_ConnectionRefusedError, *E_ConnectionResetError,
    *E_PendingDeprecationWarning, *E_SyntaxWarning, *E_FutureWarning, *E_ImportWarning, *E_UnicodeWarning,
    *E_BytesWarning, *E_ResourceWarning, *E_EncodingWarning;

static Obj g_memory_error;   /* pre-allocated: raising MemoryError must not allocate */


const char *type_name_of_type(TypeObj *t)
{
    if (!t || !t->name)
        return "?";
    if ((t->flags & TPF_DOTTED_NAME) && t->module && IS_STR(t->module)) {
        /* a few buffers in turn: one message may name several types */
        static __thread char bufs[4][128];
        static __thread unsigned next;
        char *b = bufs[next++ % 4];
        snprintf(b, sizeof bufs[0], "%s.%s", str_cstr(t->module), str_cstr(t->name));
        return b;
    }
    return str_cstr(t->name);
}

const char *type_name(Obj v) { return type_name_of_type(TYPE(v)); }

/* ------------------------------------------------------------------ */
/* Fields kept in `extra` (a tuple, replaced on assignment)            */
/* ------------------------------------------------------------------ */
static Obj extra_item(Obj self, int i)
{
    Obj x = EXCH(self)->extra;
    if (!x || !IS_TUPLE(x) || i >= TUPLE_LEN(x) || !TUPLE_ITEMS(x)[i])
        return g_None;
    return TUPLE_ITEMS(x)[i];
}

/* extra[i] = v (extra grows to n items, None-filled). */
static int extra_set(Obj self, int i, int n, Obj v)
{
    Obj *r = vm_roots(2);
    r[0] = self;
    r[1] = v;
    Obj t = tuple_new(n);
    if (!t) {
        vm_unroots(r);
        return -1;
    }
    Obj old = EXCH(r[0])->extra;
    for (int k = 0; k < n; k++) {
        Obj x = (old && IS_TUPLE(old) && k < TUPLE_LEN(old)) ? TUPLE_ITEMS(old)[k] : g_None;
        TUPLE_ITEMS(t)[k] = x ? x : g_None;
    }
    TUPLE_ITEMS(t)[i] = r[1] ? r[1] : g_None;
    VM_WRITE(r[0]);
    EXCH(r[0])->extra = t;
    vm_unroots(r);
    return 0;
}

#define EXTRA_GETSET(fname, idx, total) \
    static Obj fname##_get(Obj *a, size_t n, Obj k) { (void)n, (void)k; return extra_item(a[0], idx); } \
    static Obj fname##_set(Obj *a, size_t n, Obj k) \
    { \
        (void)n, (void)k; \
        return extra_set(a[0], idx, total, a[1]) < 0 ? NULL : g_None; \
    }

/* StopIteration: (value); SystemExit: (code) */
EXTRA_GETSET(stop_value, 0, 1)
EXTRA_GETSET(exit_code, 0, 1)
/* ImportError: (msg, name, path) */
EXTRA_GETSET(imp_msg, 0, 3)
EXTRA_GETSET(imp_name, 1, 3)
EXTRA_GETSET(imp_path, 2, 3)
/* OSError: (errno, strerror, filename, filename2) */
EXTRA_GETSET(os_errno, 0, 4)
EXTRA_GETSET(os_strerror, 1, 4)
EXTRA_GETSET(os_filename, 2, 4)
EXTRA_GETSET(os_filename2, 3, 4)
/* SyntaxError: (msg, filename, lineno, offset, text, end_lineno, end_offset, print_file_and_line) */
EXTRA_GETSET(syn_msg, 0, 8)
EXTRA_GETSET(syn_filename, 1, 8)
EXTRA_GETSET(syn_lineno, 2, 8)
EXTRA_GETSET(syn_offset, 3, 8)
EXTRA_GETSET(syn_text, 4, 8)
EXTRA_GETSET(syn_end_lineno, 5, 8)
EXTRA_GETSET(syn_end_offset, 6, 8)
EXTRA_GETSET(syn_pfl, 7, 8)
/* UnicodeError: (encoding, object, start, end, reason) */
EXTRA_GETSET(uni_encoding, 0, 5)
EXTRA_GETSET(uni_object, 1, 5)
EXTRA_GETSET(uni_start, 2, 5)
EXTRA_GETSET(uni_end, 3, 5)
EXTRA_GETSET(uni_reason, 4, 5)
/* AttributeError: (name, obj); NameError: (name) */
EXTRA_GETSET(attr_name, 0, 2)
EXTRA_GETSET(attr_obj, 1, 2)

/* ------------------------------------------------------------------ */
/* BaseException                                                      */
/* ------------------------------------------------------------------ */
static Obj tuple_of(Obj *args, size_t nargs)
{
    if (nargs == 0)
        return g_empty_tuple;
    return tuple_from_array(args, (int64_t)nargs);
}

static Obj exc_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    r[0] = tuple_of(args, nargs);
    Obj self = NULL;
    if (r[0]) {
        self = instance_new((TypeObj *)type);
        if (self) {
            VM_WRITE(self);
            EXCH(self)->args = r[0];
        }
    }
    vm_unroots(r);
    return self;
}

static int no_kwargs(Obj self, Obj kwnames)
{
    if (kwnames && TUPLE_LEN(kwnames)) {
        err_format(E_TypeError, "%s() takes no keyword arguments", type_name(self));
        return -1;
    }
    return 0;
}

static int set_args(Obj self, Obj *args, size_t nargs)
{
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj t = tuple_of(args, nargs);
    if (t) {
        VM_WRITE(r[0]);
        EXCH(r[0])->args = t;
    }
    vm_unroots(r);
    return t ? 0 : -1;
}

static int exc_tp_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    if (no_kwargs(self, kwnames) < 0)
        return -1;
    return set_args(self, args, nargs);
}

static Obj exc_str(Obj self)
{
    Obj args = EXCH(self)->args;
    if (!args || !IS_TUPLE(args))
        return g_empty_str;
    if (TUPLE_LEN(args) == 0)
        return g_empty_str;
    if (TUPLE_LEN(args) == 1)
        return vm_str(TUPLE_ITEMS(args)[0]);
    return vm_str(args);
}

static Obj exc_repr(Obj self)
{
    Obj *r = vm_roots(2);
    r[0] = self;
    Obj args = EXCH(self)->args;
    Obj res = NULL;
    if (args && IS_TUPLE(args) && TUPLE_LEN(args) == 1)
        r[1] = vm_repr(TUPLE_ITEMS(args)[0]);
    else
        r[1] = vm_repr(args && IS_TUPLE(args) ? args : g_empty_tuple);
    if (r[1]) {
        StrBuf b;
        sb_init(&b);
        sb_add_str(&b, TYPE(r[0])->name);
        Obj a = EXCH(r[0])->args;
        bool one = a && IS_TUPLE(a) && TUPLE_LEN(a) == 1;
        if (one)
            sb_addc(&b, '(');
        sb_add_str(&b, r[1]);
        if (one)
            sb_addc(&b, ')');
        res = sb_finish(&b);
    }
    vm_unroots(r);
    return res;
}

static Obj exc_args_get(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    Obj args = EXCH(a[0])->args;
    return args ? args : g_empty_tuple;
}

static Obj exc_args_set(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    if (!a[1]) {
        err_set(E_TypeError, "args may not be deleted");
        return NULL;
    }
    Obj t = vm_tuple_from_iter(a[1]);
    if (!t)
        return NULL;
    VM_WRITE(a[0]);
    EXCH(a[0])->args = t;
    return g_None;
}

static Obj exc_tb_get(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    Obj tb = EXCH(a[0])->traceback;
    return tb ? tb : g_None;
}

static Obj exc_tb_set(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    Obj v = a[1];
    if (!v) {
        err_set(E_TypeError, "__traceback__ may not be deleted");
        return NULL;
    }
    if (v != g_None && TID(v) != TID_TRACEBACK) {
        err_set(E_TypeError, "__traceback__ must be a traceback or None");
        return NULL;
    }
    VM_WRITE(a[0]);
    EXCH(a[0])->traceback = v == g_None ? NULL : v;
    return g_None;
}

static Obj exc_cause_get(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    Obj c = EXCH(a[0])->cause;
    return c ? c : g_None;
}

static Obj exc_cause_set(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    Obj v = a[1];
    if (!v) {
        err_set(E_TypeError, "__cause__ may not be deleted");
        return NULL;
    }
    if (v != g_None && !IS_EXCEPTION(v)) {
        err_set(E_TypeError, "exception cause must be None or derive from BaseException");
        return NULL;
    }
    VM_WRITE(a[0]);
    EXCH(a[0])->cause = v == g_None ? NULL : v;
    EXCH(a[0])->suppress_context = 1;
    return g_None;
}

static Obj exc_context_get(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    Obj c = EXCH(a[0])->context;
    return c ? c : g_None;
}

static Obj exc_context_set(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    Obj v = a[1];
    if (!v) {
        err_set(E_TypeError, "__context__ may not be deleted");
        return NULL;
    }
    if (v != g_None && !IS_EXCEPTION(v)) {
        err_set(E_TypeError, "exception context must be None or derive from BaseException");
        return NULL;
    }
    VM_WRITE(a[0]);
    EXCH(a[0])->context = v == g_None ? NULL : v;
    return g_None;
}

static Obj exc_suppress_get(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    return vm_bool(EXCH(a[0])->suppress_context != 0);
}

static Obj exc_suppress_set(Obj *a, size_t n, Obj k)
{
    (void)n, (void)k;
    if (!a[1]) {
        err_set(E_TypeError, "__suppress_context__ may not be deleted");
        return NULL;
    }
    int t = vm_is_true(a[1]);
    if (t < 0)
        return NULL;
    VM_WRITE(a[0]);
    EXCH(a[0])->suppress_context = t;
    return g_None;
}

static Obj exc_with_traceback_m(Obj *args, size_t nargs, Obj kw)
{
    Obj v[2] = {args[0], args[1]};
    if (!exc_tb_set(v, 2, NULL))
        return NULL;
    return args[0];
}

static Obj exc_add_note_m(Obj *args, size_t nargs, Obj kw)
{
    if (!IS_STR(args[1])) {
        err_format(E_TypeError, "note must be a str, not '%s'", type_name(args[1]));
        return NULL;
    }
    Obj d = vm_instance_dict(args[0]);
    if (!d)
        return NULL;
    Obj notes = dict_getitem_str(d, NAME(__notes__));
    if (!notes) {
        Obj *r = vm_roots(1);   /* the new list must survive dict_setitem's allocation */
        r[0] = list_new(0);
        if (!r[0] || dict_setitem(vm_instance_dict(args[0]), NAME(__notes__), r[0]) < 0) {
            vm_unroots(r);
            return NULL;
        }
        notes = r[0];
        vm_unroots(r);
    }
    if (!IS_LIST(notes)) {
        err_set(E_TypeError, "Cannot add note: __notes__ is not a list");
        return NULL;
    }
    if (list_append(notes, args[1]) < 0)
        return NULL;
    return g_None;
}

/* __reduce__: (type, args), with the instance dict when it has entries
 * (pickle and copy rebuild the exception from it). */
static Obj exc_reduce_m(Obj *args, size_t nargs, Obj kw)
{
    Obj d = EXC(args[0])->dict;
    Obj a = EXC(args[0])->args ? EXC(args[0])->args : g_empty_tuple;
    if (d && dict_len(d) > 0)
        return tuple_pack(3, (Obj)TYPE(args[0]), a, d);
    return tuple_pack(2, (Obj)TYPE(args[0]), a);
}

/* __setstate__(state): the dict's items become attributes. */
static Obj exc_setstate_m(Obj *args, size_t nargs, Obj kw)
{
    if (IS_NONE(args[1]))
        return g_None;
    if (!IS_DICT(args[1])) {
        err_set(E_TypeError, "state is not a dictionary");
        return NULL;
    }
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = dict_keys_list(args[1]);
    if (!r[1])
        goto out;
    for (int64_t i = 0; i < LIST_LEN(r[1]); i++) {
        r[2] = dict_getitem(args[1], LIST_ITEMS(r[1])[i]);
        if (!r[2]) {
            if (err_occurred())
                goto out;
            continue;
        }
        if (vm_setattr(r[0], LIST_ITEMS(r[1])[i], r[2]) < 0)
            goto out;
    }
    res = g_None;
out:
    vm_unroots(r);
    return res;
}

static const MethodDef exc_methods[] = {
    {"__reduce__", exc_reduce_m, METH_NOARGS, NULL},
    {"__setstate__", exc_setstate_m, METH_O, NULL},
    {"with_traceback", exc_with_traceback_m, METH_O, NULL},
    {"add_note", exc_add_note_m, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* Specialised exceptions                                             */
/* ------------------------------------------------------------------ */
static int stopiter_init(Obj self, Obj *args, size_t nargs, Obj kw)
{
    Obj *r = vm_roots(1);
    r[0] = self;
    int rc = exc_tp_init(self, args, nargs, kw);
    if (rc == 0)
        rc = extra_set(r[0], 0, 1, nargs ? args[0] : g_None);
    vm_unroots(r);
    return rc;
}

static int sysexit_init(Obj self, Obj *args, size_t nargs, Obj kw)
{
    Obj *r = vm_roots(1);
    r[0] = self;
    int rc = exc_tp_init(self, args, nargs, kw);
    if (rc == 0) {
        Obj code = nargs == 0 ? g_None : nargs == 1 ? args[0] : EXCH(r[0])->args;
        rc = extra_set(r[0], 0, 1, code);
    }
    vm_unroots(r);
    return rc;
}

static Obj keyerror_str(Obj self)
{
    Obj args = EXCH(self)->args;
    if (args && IS_TUPLE(args) && TUPLE_LEN(args) == 1)
        return vm_repr(TUPLE_ITEMS(args)[0]);
    return exc_str(self);
}

/* Keyword arguments named in `allowed` (NULL-terminated) go to extra[slot]. */
static int kw_to_extra(Obj self, Obj *kwvals, Obj kwnames, const char *const *allowed, const int *slots, int total)
{
    size_t nkw = kwnames ? (size_t)TUPLE_LEN(kwnames) : 0;
    Obj *r = vm_roots(2);
    r[0] = self;
    r[1] = kwnames;
    int rc = 0;
    for (size_t i = 0; i < nkw && rc == 0; i++) {
        Obj k = TUPLE_ITEMS(r[1])[i];
        int which = -1;
        for (int j = 0; allowed[j]; j++)
            if (str_eq_cstr(k, allowed[j]))
                which = j;
        if (which < 0) {
            err_format(E_TypeError, "'%s' is an invalid keyword argument for %s()", str_cstr(k), type_name(r[0]));
            rc = -1;
        } else {
            rc = extra_set(r[0], slots[which], total, kwvals[i]);
        }
    }
    vm_unroots(r);
    return rc;
}

static int import_init(Obj self, Obj *args, size_t nargs, Obj kw)
{
    static const char *const names[] = {"name", "path", NULL};
    static const int slots[] = {1, 2};
    Obj *r = vm_roots(2);
    r[0] = self;
    r[1] = kw;   /* may move while the stores allocate */
    int rc = -1;
    /* (name and path not given are reset, as CPython's) */
    if (set_args(r[0], args, nargs) < 0 || extra_set(r[0], 0, 3, nargs == 1 ? args[0] : g_None) < 0 ||
        extra_set(r[0], 1, 3, g_None) < 0 || extra_set(r[0], 2, 3, g_None) < 0)
        goto out;
    rc = kw_to_extra(r[0], args + nargs, r[1], names, slots, 3);
out:
    vm_unroots(r);
    return rc;
}

/* ImportError.__reduce__: (type, args[, state]), the state the instance
 * dict with name and path when they are not None. */
static Obj import_reduce_m(Obj *args, size_t nargs, Obj kw)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    Obj d = EXC(r[0])->dict;
    r[1] = d ? dict_copy(d) : dict_new();
    if (!r[1])
        goto out;
    static const char *const keys[] = {"name", "path"};
    for (int i = 0; i < 2; i++) {
        Obj v = extra_item(r[0], i + 1);
        if (v != g_None && dict_setitem_cstr(r[1], keys[i], v) < 0)
            goto out;
    }
    r[2] = EXC(r[0])->args ? EXC(r[0])->args : g_empty_tuple;
    res = dict_len(r[1]) > 0 ? tuple_pack(3, (Obj)TYPE(r[0]), r[2], r[1]) : tuple_pack(2, (Obj)TYPE(r[0]), r[2]);
out:
    vm_unroots(r);
    return res;
}

static const MethodDef import_methods[] = {
    {"__reduce__", import_reduce_m, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static Obj import_str(Obj self)
{
    Obj msg = extra_item(self, 0);
    if (msg != g_None)
        return vm_str(msg);
    return exc_str(self);
}

static int attr_init(Obj self, Obj *args, size_t nargs, Obj kw)
{
    static const char *const names[] = {"name", "obj", NULL};
    static const int slots[] = {0, 1};
    Obj *r = vm_roots(2);
    r[0] = self;
    r[1] = kw;   /* may move while set_args allocates */
    int rc = -1;
    if (set_args(r[0], args, nargs) < 0)
        goto out;
    rc = kw_to_extra(r[0], args + nargs, r[1], names, slots, 2);
out:
    vm_unroots(r);
    return rc;
}

static int name_init(Obj self, Obj *args, size_t nargs, Obj kw)
{
    static const char *const names[] = {"name", NULL};
    static const int slots[] = {0};
    Obj *r = vm_roots(2);
    r[0] = self;
    r[1] = kw;   /* may move while set_args allocates */
    int rc = -1;
    if (set_args(r[0], args, nargs) < 0)
        goto out;
    rc = kw_to_extra(r[0], args + nargs, r[1], names, slots, 2);
out:
    vm_unroots(r);
    return rc;
}

/* OSError */
static TypeObj *err_type_for_errno(int e)
{
    switch (e) {
    case ENOENT: return E_FileNotFoundError;
    case EEXIST: return E_FileExistsError;
    case EACCES:
    case EPERM: return E_PermissionError;
    case EISDIR: return E_IsADirectoryError;
    case ENOTDIR: return E_NotADirectoryError;
    case ETIMEDOUT: return E_TimeoutError;
    case EPIPE:
    case ESHUTDOWN: return E_BrokenPipeError;
    case ECHILD: return E_ChildProcessError;
    case EINTR: return E_InterruptedError;
    case ESRCH: return E_ProcessLookupError;
    case EAGAIN:
    case EALREADY:
    case EINPROGRESS: return E_BlockingIOError;
    case ECONNABORTED: return E_ConnectionAbortedError;
    case ECONNREFUSED: return E_ConnectionRefusedError;
    case ECONNRESET: return E_ConnectionResetError;
    }
    return E_OSError;
}

static Obj os_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if ((TypeObj *)type == E_OSError && nargs >= 2 && nargs <= 5 && IS_SMALLINT(args[0])) {
        int64_t e = SMALLINT_VAL(args[0]);
        if (e > 0 && e < 100000)
            type = (Obj)err_type_for_errno((int)e);
    }
    return exc_tp_new(type, args, nargs, kwnames);
}

static int os_init(Obj self, Obj *args, size_t nargs, Obj kw)
{
    if (no_kwargs(self, kw) < 0)
        return -1;
    Obj *r = vm_roots(1);
    r[0] = self;
    int rc = -1;
    if (nargs >= 2 && nargs <= 5) {
        if (extra_set(r[0], 0, 4, args[0]) < 0 || extra_set(r[0], 1, 4, args[1]) < 0)
            goto out;
        if (nargs >= 3 && extra_set(r[0], 2, 4, args[2]) < 0)
            goto out;
        if (nargs >= 5 && extra_set(r[0], 3, 4, args[4]) < 0)
            goto out;
        rc = set_args(r[0], args, nargs >= 3 ? 2 : nargs);
    } else {
        rc = set_args(r[0], args, nargs);
    }
out:
    vm_unroots(r);
    return rc;
}

static Obj os_str(Obj self)
{
    Obj *r = vm_roots(4);
    r[0] = self;
    Obj res = NULL;
    Obj eno = extra_item(self, 0), serr = extra_item(self, 1), fn = extra_item(self, 2), fn2 = extra_item(self, 3);
    if (eno == g_None && serr == g_None) {
        res = exc_str(self);
        goto out;
    }
    StrBuf b;
    sb_init(&b);
    r[1] = vm_str(eno);
    if (!r[1])
        goto fail;
    r[2] = vm_str(extra_item(r[0], 1));
    if (!r[2])
        goto fail;
    sb_adds(&b, "[Errno ");
    sb_add_str(&b, r[1]);
    sb_adds(&b, "] ");
    sb_add_str(&b, r[2]);
    fn = extra_item(r[0], 2);
    if (fn != g_None) {
        r[3] = vm_repr(fn);
        if (!r[3])
            goto fail;
        sb_adds(&b, ": ");
        sb_add_str(&b, r[3]);
        fn2 = extra_item(r[0], 3);
        if (fn2 != g_None) {
            r[3] = vm_repr(fn2);
            if (!r[3])
                goto fail;
            sb_adds(&b, " -> ");
            sb_add_str(&b, r[3]);
        }
    }
    (void)serr;
    res = sb_finish(&b);
    goto out;
fail:
    sb_free(&b);
out:
    vm_unroots(r);
    return res;
}

/* SyntaxError(msg, (filename, lineno, offset, text[, end_lineno, end_offset])) */
static int syntax_init(Obj self, Obj *args, size_t nargs, Obj kw)
{
    if (no_kwargs(self, kw) < 0)
        return -1;
    Obj *r = vm_roots(2);
    r[0] = self;
    int rc = -1;
    if (set_args(self, args, nargs) < 0)
        goto out;
    if (nargs >= 1 && extra_set(r[0], 0, 8, args[0]) < 0)
        goto out;
    if (nargs == 2) {
        r[1] = vm_tuple_from_iter(args[1]);
        if (!r[1])
            goto out;
        int64_t n = TUPLE_LEN(r[1]);
        if (n < 4 || n > 6) {
            err_format(E_TypeError, "function takes %s %d arguments (%lld given)", n < 4 ? "at least" : "at most",
                       n < 4 ? 4 : 6, (long long)n);
            goto out;
        }
        for (int64_t i = 0; i < n; i++)
            if (extra_set(r[0], (int)i + 1, 8, TUPLE_ITEMS(r[1])[i]) < 0)
                goto out;
    }
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

static Obj syntax_str(Obj self)
{
    Obj *r = vm_roots(2);
    r[0] = self;
    Obj res = NULL;
    r[1] = vm_str(extra_item(self, 0));
    if (!r[1])
        goto out;
    Obj fn = extra_item(r[0], 1), ln = extra_item(r[0], 2);
    bool have_fn = IS_STR(fn), have_ln = IS_INT(ln) && TID(ln) != TID_BOOL;
    if (!have_fn && !have_ln) {
        res = r[1];
        goto out;
    }
    StrBuf b;
    sb_init(&b);
    sb_add_str(&b, r[1]);
    sb_adds(&b, " (");
    if (have_fn) {
        const char *p = str_cstr(fn), *slash = strrchr(p, '/');
        sb_adds(&b, slash ? slash + 1 : p);
    }
    if (have_ln) {
        int64_t line = 0;
        if (IS_SMALLINT(ln))
            line = SMALLINT_VAL(ln);
        sb_printf(&b, "%sline %lld", have_fn ? ", " : "", (long long)line);
    }
    sb_addc(&b, ')');
    res = sb_finish(&b);
out:
    vm_unroots(r);
    return res;
}

/* UnicodeDecodeError / UnicodeEncodeError(encoding, object, start, end, reason) */
static int unicode_init(Obj self, Obj *args, size_t nargs, Obj kw)
{
    if (no_kwargs(self, kw) < 0)
        return -1;
    if (nargs != 5) {
        err_format(E_TypeError, "function takes exactly 5 arguments (%zu given)", nargs);
        return -1;
    }
    bool decode = vm_isinstance_type(self, E_UnicodeDecodeError);
    int64_t pos;
    if (!IS_STR(vm_unwrap(args[0]))) {
        err_format(E_TypeError, "argument 1 must be str, not %s", type_name(args[0]));
        return -1;
    }
    if (!decode && !IS_STR(vm_unwrap(args[1]))) {
        err_format(E_TypeError, "argument 2 must be str, not %s", type_name(args[1]));
        return -1;
    }
    if (vm_index_i64(args[2], &pos) < 0 || vm_index_i64(args[3], &pos) < 0)
        return -1;
    if (!IS_STR(vm_unwrap(args[4]))) {
        err_format(E_TypeError, "argument 5 must be str, not %s", type_name(args[4]));
        return -1;
    }
    Obj *r = vm_roots(2);
    r[0] = self;
    r[1] = args[1];
    int rc = -1;
    if (decode && !IS_BYTES(r[1])) {
        /* the object as bytes: a bytearray or other buffer copied */
        const char *p;
        int64_t n;
        if (!bytes_like(r[1], &p, &n)) {
            err_format(E_TypeError, "a bytes-like object is required, not '%s'", type_name(r[1]));
            goto out;
        }
        if (!(r[1] = bytes_new(p, (size_t)n)))
            goto out;
    }
    rc = set_args(r[0], args, nargs);   /* r[0]: bytes_new may have moved self */
    for (int i = 0; i < 5 && rc == 0; i++)
        rc = extra_set(r[0], i, 5, i == 1 ? r[1] : args[i]);
out:
    vm_unroots(r);
    return rc;
}

/* UnicodeTranslateError(object, start, end, reason): encoding None */
static int unicode_translate_init(Obj self, Obj *args, size_t nargs, Obj kw)
{
    if (no_kwargs(self, kw) < 0)
        return -1;
    if (nargs != 4) {
        err_format(E_TypeError, "function takes exactly 4 arguments (%zu given)", nargs);
        return -1;
    }
    int64_t pos;
    if (!IS_STR(vm_unwrap(args[0]))) {
        err_format(E_TypeError, "argument 1 must be str, not %s", type_name(args[0]));
        return -1;
    }
    if (vm_index_i64(args[1], &pos) < 0 || vm_index_i64(args[2], &pos) < 0)
        return -1;
    if (!IS_STR(vm_unwrap(args[3]))) {
        err_format(E_TypeError, "argument 4 must be str, not %s", type_name(args[3]));
        return -1;
    }
    Obj *r = vm_roots(1);
    r[0] = self;
    int rc = set_args(self, args, nargs);
    for (int i = 0; i < 4 && rc == 0; i++)
        rc = extra_set(r[0], i + 1, 5, args[i]);
    vm_unroots(r);
    return rc;
}

static Obj unicode_str(Obj self)
{
    Obj enc = extra_item(self, 0), obj = extra_item(self, 1), st = extra_item(self, 2), en = extra_item(self, 3),
        reason = extra_item(self, 4);
    bool decode = vm_isinstance_type(self, E_UnicodeDecodeError);
    bool translate = vm_isinstance_type(self, E_UnicodeTranslateError);
    if ((!translate && !IS_STR(enc)) || !IS_SMALLINT(st) || !IS_SMALLINT(en) || !IS_STR(reason))
        return exc_str(self);
    int64_t start = SMALLINT_VAL(st), end = SMALLINT_VAL(en);
    StrBuf b;
    sb_init(&b);
    /* "'ENC' codec can't encode ..." or "can't translate ..." */
    if (translate) {
        sb_printf(&b, "can't translate");
    } else {
        sb_addc(&b, '\'');
        sb_add_str(&b, enc);
        sb_printf(&b, "' codec can't %s", decode ? "decode" : "encode");
    }
    if (decode && IS_BYTES(obj) && start >= 0 && start < BYTES(obj)->length && end == start + 1) {
        unsigned char c = (unsigned char)((const char *)VM_LINEAR(BYTES(obj)->data))[start];
        sb_printf(&b, " byte 0x%02x in position %lld: ", c, (long long)start);
    } else if (decode) {
        sb_printf(&b, " bytes in position %lld-%lld: ", (long long)start, (long long)end - 1);
    } else if (IS_STR(obj) && start >= 0 && start < str_len(obj) && end == start + 1) {
        const unsigned char *p = (const unsigned char *)str_cstr(obj) + str_byte_offset(obj, start);
        int len;
        uint32_t c = utf8_decode(p, &len);
        if (c <= 0xff)
            sb_printf(&b, " character '\\x%02x' in position %lld: ", c, (long long)start);
        else if (c <= 0xffff)
            sb_printf(&b, " character '\\u%04x' in position %lld: ", c, (long long)start);
        else
            sb_printf(&b, " character '\\U%08x' in position %lld: ", c, (long long)start);
    } else {
        sb_printf(&b, " characters in position %lld-%lld: ", (long long)start, (long long)end - 1);
    }
    sb_add_str(&b, reason);
    return sb_finish(&b);
}

/* ------------------------------------------------------------------ */
/* The hierarchy                                                      */
/* ------------------------------------------------------------------ */
enum { K_PLAIN, K_BASE, K_STOPITER, K_SYSEXIT, K_KEY, K_IMPORT, K_OS, K_SYNTAX, K_UNICODE, K_UTRANSLATE, K_ATTR,
       K_NAME };

static const struct ExcDef {
    TypeObj **var;
    const char *name;
    TypeObj **base;
    int kind;
} exc_defs[] = {
    {&E_BaseException, "BaseException", NULL, K_BASE},
    {&E_SystemExit, "SystemExit", &E_BaseException, K_SYSEXIT},
    {&E_KeyboardInterrupt, "KeyboardInterrupt", &E_BaseException, K_PLAIN},
    {&E_GeneratorExit, "GeneratorExit", &E_BaseException, K_PLAIN},
    {&E_Exception, "Exception", &E_BaseException, K_PLAIN},
    {&E_StopIteration, "StopIteration", &E_Exception, K_STOPITER},
    {&E_StopAsyncIteration, "StopAsyncIteration", &E_Exception, K_PLAIN},
    {&E_ArithmeticError, "ArithmeticError", &E_Exception, K_PLAIN},
    {&E_FloatingPointError, "FloatingPointError", &E_ArithmeticError, K_PLAIN},
    {&E_OverflowError, "OverflowError", &E_ArithmeticError, K_PLAIN},
    {&E_ZeroDivisionError, "ZeroDivisionError", &E_ArithmeticError, K_PLAIN},
    {&E_AssertionError, "AssertionError", &E_Exception, K_PLAIN},
    {&E_AttributeError, "AttributeError", &E_Exception, K_ATTR},
    {&E_BufferError, "BufferError", &E_Exception, K_PLAIN},
    {&E_EOFError, "EOFError", &E_Exception, K_PLAIN},
    {&E_ImportError, "ImportError", &E_Exception, K_IMPORT},
    {&E_ModuleNotFoundError, "ModuleNotFoundError", &E_ImportError, K_PLAIN},
    {&E_LookupError, "LookupError", &E_Exception, K_PLAIN},
    {&E_IndexError, "IndexError", &E_LookupError, K_PLAIN},
    {&E_KeyError, "KeyError", &E_LookupError, K_KEY},
    {&E_MemoryError, "MemoryError", &E_Exception, K_PLAIN},
    {&E_NameError, "NameError", &E_Exception, K_NAME},
    {&E_UnboundLocalError, "UnboundLocalError", &E_NameError, K_PLAIN},
    {&E_OSError, "OSError", &E_Exception, K_OS},
    {&E_BlockingIOError, "BlockingIOError", &E_OSError, K_PLAIN},
    {&E_ChildProcessError, "ChildProcessError", &E_OSError, K_PLAIN},
    {&E_ConnectionError, "ConnectionError", &E_OSError, K_PLAIN},
    {&E_BrokenPipeError, "BrokenPipeError", &E_ConnectionError, K_PLAIN},
    {&E_ConnectionAbortedError, "ConnectionAbortedError", &E_ConnectionError, K_PLAIN},
    {&E_ConnectionRefusedError, "ConnectionRefusedError", &E_ConnectionError, K_PLAIN},
    {&E_ConnectionResetError, "ConnectionResetError", &E_ConnectionError, K_PLAIN},
    {&E_FileExistsError, "FileExistsError", &E_OSError, K_PLAIN},
    {&E_FileNotFoundError, "FileNotFoundError", &E_OSError, K_PLAIN},
    {&E_InterruptedError, "InterruptedError", &E_OSError, K_PLAIN},
    {&E_IsADirectoryError, "IsADirectoryError", &E_OSError, K_PLAIN},
    {&E_NotADirectoryError, "NotADirectoryError", &E_OSError, K_PLAIN},
    {&E_PermissionError, "PermissionError", &E_OSError, K_PLAIN},
    {&E_ProcessLookupError, "ProcessLookupError", &E_OSError, K_PLAIN},
    {&E_TimeoutError, "TimeoutError", &E_OSError, K_PLAIN},
    {&E_ReferenceError, "ReferenceError", &E_Exception, K_PLAIN},
    {&E_RuntimeError, "RuntimeError", &E_Exception, K_PLAIN},
    {&E_NotImplementedError, "NotImplementedError", &E_RuntimeError, K_PLAIN},
    {&E_RecursionError, "RecursionError", &E_RuntimeError, K_PLAIN},
    {&E_SyntaxError, "SyntaxError", &E_Exception, K_SYNTAX},
    {&E_IndentationError, "IndentationError", &E_SyntaxError, K_PLAIN},
    {&E_TabError, "TabError", &E_IndentationError, K_PLAIN},
    {&E_SystemError, "SystemError", &E_Exception, K_PLAIN},
    {&E_TypeError, "TypeError", &E_Exception, K_PLAIN},
    {&E_ValueError, "ValueError", &E_Exception, K_PLAIN},
    {&E_UnicodeError, "UnicodeError", &E_ValueError, K_PLAIN},
    {&E_UnicodeDecodeError, "UnicodeDecodeError", &E_UnicodeError, K_UNICODE},
    {&E_UnicodeEncodeError, "UnicodeEncodeError", &E_UnicodeError, K_UNICODE},
    {&E_UnicodeTranslateError, "UnicodeTranslateError", &E_UnicodeError, K_UTRANSLATE},
    {&E_Warning, "Warning", &E_Exception, K_PLAIN},
    {&E_BytesWarning, "BytesWarning", &E_Warning, K_PLAIN},
    {&E_DeprecationWarning, "DeprecationWarning", &E_Warning, K_PLAIN},
    {&E_EncodingWarning, "EncodingWarning", &E_Warning, K_PLAIN},
    {&E_FutureWarning, "FutureWarning", &E_Warning, K_PLAIN},
    {&E_ImportWarning, "ImportWarning", &E_Warning, K_PLAIN},
    {&E_PendingDeprecationWarning, "PendingDeprecationWarning", &E_Warning, K_PLAIN},
    {&E_ResourceWarning, "ResourceWarning", &E_Warning, K_PLAIN},
    {&E_RuntimeWarning, "RuntimeWarning", &E_Warning, K_PLAIN},
    {&E_SyntaxWarning, "SyntaxWarning", &E_Warning, K_PLAIN},
    {&E_UnicodeWarning, "UnicodeWarning", &E_Warning, K_PLAIN},
    {&E_UserWarning, "UserWarning", &E_Warning, K_PLAIN},
};

void exceptions_init(void)
{
    for (size_t i = 0; i < ARRAY_LEN(exc_defs); i++) {
        const struct ExcDef *d = &exc_defs[i];
        TypeObj *base = d->base ? *d->base : T_object;
        TypeObj *t = (TypeObj *)type_new_builtin(d->name, base, TID_EXCEPTION, TPF_BASETYPE | TPF_HAS_DICT);
        *d->var = t;
        switch (d->kind) {
        case K_BASE:
            t->tp_new = exc_tp_new;
            t->tp_init = exc_tp_init;
            t->tp_repr = exc_repr;
            t->tp_str = exc_str;
            type_add_methods(t, exc_methods);
            type_add_getset(t, "args", exc_args_get, exc_args_set);
            type_add_getset(t, "__traceback__", exc_tb_get, exc_tb_set);
            type_add_getset(t, "__cause__", exc_cause_get, exc_cause_set);
            type_add_getset(t, "__context__", exc_context_get, exc_context_set);
            type_add_getset(t, "__suppress_context__", exc_suppress_get, exc_suppress_set);
            type_add_getset(t, "__dict__", vm_getset_dict_get, vm_getset_dict_set);
            break;
        case K_STOPITER:
            t->tp_init = stopiter_init;
            type_add_getset(t, "value", stop_value_get, stop_value_set);
            break;
        case K_SYSEXIT:
            t->tp_init = sysexit_init;
            type_add_getset(t, "code", exit_code_get, exit_code_set);
            break;
        case K_KEY:
            t->tp_str = keyerror_str;
            break;
        case K_IMPORT:
            t->tp_init = import_init;
            t->tp_str = import_str;
            type_add_getset(t, "msg", imp_msg_get, imp_msg_set);
            type_add_getset(t, "name", imp_name_get, imp_name_set);
            type_add_getset(t, "path", imp_path_get, imp_path_set);
            type_add_methods(t, import_methods);
            break;
        case K_OS:
            t->tp_new = os_tp_new;
            t->tp_init = os_init;
            t->tp_str = os_str;
            type_add_getset(t, "errno", os_errno_get, os_errno_set);
            type_add_getset(t, "strerror", os_strerror_get, os_strerror_set);
            type_add_getset(t, "filename", os_filename_get, os_filename_set);
            type_add_getset(t, "filename2", os_filename2_get, os_filename2_set);
            break;
        case K_SYNTAX:
            t->tp_init = syntax_init;
            t->tp_str = syntax_str;
            type_add_getset(t, "msg", syn_msg_get, syn_msg_set);
            type_add_getset(t, "filename", syn_filename_get, syn_filename_set);
            type_add_getset(t, "lineno", syn_lineno_get, syn_lineno_set);
            type_add_getset(t, "offset", syn_offset_get, syn_offset_set);
            type_add_getset(t, "text", syn_text_get, syn_text_set);
            type_add_getset(t, "end_lineno", syn_end_lineno_get, syn_end_lineno_set);
            type_add_getset(t, "end_offset", syn_end_offset_get, syn_end_offset_set);
            type_add_getset(t, "print_file_and_line", syn_pfl_get, syn_pfl_set);
            break;
        case K_UNICODE:
        case K_UTRANSLATE:
            t->tp_init = d->kind == K_UNICODE ? unicode_init : unicode_translate_init;
            t->tp_str = unicode_str;
            type_add_getset(t, "encoding", uni_encoding_get, uni_encoding_set);
            type_add_getset(t, "object", uni_object_get, uni_object_set);
            type_add_getset(t, "start", uni_start_get, uni_start_set);
            type_add_getset(t, "end", uni_end_get, uni_end_set);
            type_add_getset(t, "reason", uni_reason_get, uni_reason_set);
            break;
        case K_ATTR:
            t->tp_init = attr_init;
            type_add_getset(t, "name", attr_name_get, attr_name_set);
            type_add_getset(t, "obj", attr_obj_get, attr_obj_set);
            break;
        case K_NAME:
            t->tp_init = name_init;
            type_add_getset(t, "name", attr_name_get, attr_name_set);
            break;
        }
        type_ready(t);
    }
    type_set_attr_cstr(E_BaseException, "__doc__", str_from_cstr("Common base class for all exceptions"));
    exception_groups_init();
    /* MemoryError must be raisable without allocating. */
    g_memory_error = (Obj)tm_allocate_old(TID_EXCEPTION, sizeof(struct ExceptionHObj_));
    if (!g_memory_error) {
        fprintf(stderr, "tmpy: out of memory at start-up\n");
        exit(1);
    }
    EXCH(g_memory_error)->cls = (Obj)E_MemoryError;
    EXCH(g_memory_error)->args = g_empty_tuple;
    VM_GLOBAL_ROOT(g_memory_error);
}

int exceptions_add_builtins(Obj m)
{
    Obj d = TID(m) == TID_MODULE ? ((ModuleObj *)m)->dict : m;
    Obj *r = vm_roots(1);
    r[0] = d;
    int rc = 0;
    for (size_t i = 0; i < ARRAY_LEN(exc_defs) && rc == 0; i++)
        rc = dict_setitem(r[0], ((TypeObj *)*exc_defs[i].var)->name, (Obj)*exc_defs[i].var);
    if (rc == 0)
        rc = dict_setitem(r[0], E_BaseExceptionGroup->name, (Obj)E_BaseExceptionGroup);
    if (rc == 0)
        rc = dict_setitem(r[0], E_ExceptionGroup->name, (Obj)E_ExceptionGroup);
    if (rc == 0)
        rc = dict_setitem_cstr(r[0], "EnvironmentError", (Obj)E_OSError);
    if (rc == 0)
        rc = dict_setitem_cstr(r[0], "IOError", (Obj)E_OSError);
    vm_unroots(r);
    return rc;
}

/* ------------------------------------------------------------------ */
/* The err_* API                                                      */
/* ------------------------------------------------------------------ */
Obj err_occurred(void) { return vm_ts.roots[ROOT_CUR_EXC]; }

void err_clear(void) { vm_ts.roots[ROOT_CUR_EXC] = NULL; }

Obj err_fetch(void)
{
    Obj e = vm_ts.roots[ROOT_CUR_EXC];
    vm_ts.roots[ROOT_CUR_EXC] = NULL;
    return e;
}

Obj err_nomemory(void)
{
    Obj e = g_memory_error;
    VM_WRITE(e);
    EXCH(e)->traceback = NULL;
    EXCH(e)->context = NULL;
    EXCH(e)->cause = NULL;
    vm_ts.roots[ROOT_CUR_EXC] = e;
    return NULL;
}

Obj exc_new(TypeObj *type, Obj *args, size_t nargs)
{
    Obj *r = vm_roots((int)nargs + 1);
    for (size_t i = 0; i < nargs; i++)
        r[i] = args[i];
    r[nargs] = (Obj)type;
    Obj e = TYPE((Obj)type) == T_type ? type_call((Obj)type, r, nargs, NULL) : vm_call((Obj)type, r, nargs, NULL);
    vm_unroots(r);
    return e;
}

void err_set_obj(Obj exc)
{
    if (IS_TYPE(exc)) {
        if (!type_is_subtype((TypeObj *)exc, E_BaseException)) {
            err_set(E_TypeError, "exceptions must derive from BaseException");
            return;
        }
        exc = exc_new((TypeObj *)exc, NULL, 0);
        if (!exc)
            return;
    }
    if (!IS_EXCEPTION(exc)) {
        err_set(E_TypeError, "exceptions must derive from BaseException");
        return;
    }
    /* Implicit chaining: the exception being handled becomes __context__. */
    Obj handled = vm_ts.roots[ROOT_HANDLED_EXC];
    if (handled && handled != exc && handled != g_None && IS_EXCEPTION(handled) && exc != g_memory_error) {
        Obj o = handled;
        for (int depth = 0; depth < 10000; depth++) {
            Obj c = EXCH(o)->context;
            if (!c)
                break;
            if (c == exc) {
                VM_WRITE(o);
                EXCH(o)->context = NULL;
                break;
            }
            o = c;
        }
        VM_WRITE(exc);
        EXCH(exc)->context = handled;
    }
    vm_ts.roots[ROOT_CUR_EXC] = exc;
}

void err_set_value(TypeObj *type, Obj arg)
{
    Obj e = exc_new(type, &arg, 1);
    if (e)
        err_set_obj(e);
}

void err_set(TypeObj *type, const char *msg)
{
    if (!msg) {
        err_set_obj((Obj)type);
        return;
    }
    Obj s = str_from_cstr(msg);
    if (!s) {
        err_nomemory();
        return;
    }
    err_set_value(type, s);
}

void err_format(TypeObj *type, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0) {
        err_set(type, fmt);
        return;
    }
    if ((size_t)n < sizeof buf) {
        err_set(type, buf);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        err_nomemory();
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    err_set(type, big);
    free(big);
}

bool err_matches(TypeObj *type)
{
    Obj e = vm_ts.roots[ROOT_CUR_EXC];
    return e && vm_isinstance_type(e, type);
}

bool err_given_matches(Obj exc, Obj type_or_tuple)
{
    if (!exc)
        return false;
    if (IS_TUPLE(type_or_tuple)) {
        for (int64_t i = 0; i < TUPLE_LEN(type_or_tuple); i++)
            if (err_given_matches(exc, TUPLE_ITEMS(type_or_tuple)[i]))
                return true;
        return false;
    }
    if (!IS_TYPE(type_or_tuple))
        return false;
    TypeObj *et = IS_TYPE(exc) ? (TypeObj *)exc : TYPE(exc);
    return type_is_subtype(et, (TypeObj *)type_or_tuple);
}

Obj err_no_attr(Obj obj, Obj name)
{
    Obj *r = vm_roots(3);
    r[0] = obj;
    r[1] = name;
    StrBuf b;
    sb_init(&b);
    if (TID(obj) == TID_MODULE) {
        Obj mn = dict_getitem_str(((ModuleObj *)obj)->dict, NAME(__name__));
        obj = r[0];   /* the lookup may have run a key's __eq__ */
        name = r[1];
        if (!mn || !IS_STR(mn))
            mn = ((ModuleObj *)obj)->name;
        sb_adds(&b, "module '");
        if (mn && IS_STR(mn))
            sb_add_str(&b, mn);
        sb_adds(&b, "' has no attribute '");
    } else if (IS_TYPE(obj)) {
        sb_adds(&b, "type object '");
        sb_add_str(&b, ((TypeObj *)obj)->name);
        sb_adds(&b, "' has no attribute '");
    } else {
        sb_addc(&b, '\'');
        sb_adds(&b, type_name(obj));
        sb_adds(&b, "' object has no attribute '");
    }
    if (IS_STR(name))
        sb_add_str(&b, name);
    sb_addc(&b, '\'');
    r[2] = sb_finish(&b);
    if (r[2]) {
        Obj e = exc_new(E_AttributeError, &r[2], 1);
        if (e) {
            r[2] = e;
            if (extra_set(e, 0, 2, r[1]) == 0 && extra_set(r[2], 1, 2, r[0]) == 0)
                err_set_obj(r[2]);
        }
    }
    vm_unroots(r);
    return NULL;
}

Obj exc_stopiteration_value(Obj exc)
{
    if (!exc || !IS_EXCEPTION(exc) || !vm_isinstance_type(exc, E_StopIteration))
        return g_None;
    Obj x = EXCH(exc)->extra;
    if (x && IS_TUPLE(x) && TUPLE_LEN(x) >= 1)
        return TUPLE_ITEMS(x)[0];
    Obj a = EXCH(exc)->args;
    if (a && IS_TUPLE(a) && TUPLE_LEN(a) >= 1)
        return TUPLE_ITEMS(a)[0];
    return g_None;
}
