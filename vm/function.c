/* Function, bound method, cell and code objects, and func_init_types, which
 * creates every type of the eval side. */
#include "eval.h"
#include "compiler/compile.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>


#define FUNC(v) ((FunctionObj *)(v))
#define METHOD(v) ((MethodObj *)(v))
#define CODE(v) ((CodeObj *)(v))

/* ------------------------------------------------------------------ */
/* Functions                                                          */
/* ------------------------------------------------------------------ */
static Obj function_get_doc(Obj code)
{
    CodeObj *co = CODE(code);
    if ((co->flags & CO_HAS_DOCSTRING) && co->consts && TUPLE_LEN(co->consts) > 0)
        return TUPLE_ITEMS(co->consts)[0];
    return g_None;
}

Obj function_new(Obj code, Obj globals, Obj qualname)
{
    if (!IS_CODE(code)) {
        err_set(E_TypeError, "function() argument 'code' must be code");
        return NULL;
    }
    Obj *r = vm_roots(4);
    r[0] = globals;
    r[1] = qualname;
    r[2] = IS_DICT(globals) ? dict_getitem_cstr(globals, "__name__") : NULL;
    if (!r[2] && err_occurred())
        err_clear();
    r[3] = eval_globals_builtins(r[0]);
    Obj fn = (Obj)tm_allocate(TID_FUNCTION, sizeof(struct FunctionObj_));
    if (!fn) {
        vm_unroots(r);
        return err_nomemory();
    }
    FunctionObj *F = FUNC(fn);
    F->code = code;
    F->globals = r[0];
    F->name = CODE(code)->name;
    F->qualname = r[1] && IS_STR(r[1]) ? r[1] : CODE(code)->qualname;
    F->doc = function_get_doc(code);
    F->module = r[2] ? r[2] : g_None;
    F->builtins = r[3];
    vm_unroots(r);
    return fn;
}

static Obj function_descr_get(Obj f, Obj obj, Obj type)
{
    (void)type;
    if (!obj || IS_NONE(obj))
        return f;
    return method_new(f, obj);
}

static Obj function_repr(Obj f)
{
    uint64_t id = vm_object_id_slot(&f);   /* id()'s value: the address once it no longer moves */
    Obj q = FUNC(f)->qualname;
    return str_from_format("<function %s at %#lx>", q && IS_STR(q) ? str_cstr(q) : "?", (unsigned long)id);
}

/* Data descriptors on the type, then the function's __dict__, then the rest. */
static Obj function_getattro(Obj f, Obj name)
{
    TypeObj *t = TYPE(f);
    Obj d = vm_lookup_type(t, name);
    if (d) {
        TypeObj *dt = TYPE(d);
        if (dt->tp_descr_get && dt->tp_descr_set)
            return dt->tp_descr_get(d, f, (Obj)t);
    }
    Obj fd = FUNC(f)->dict;
    if (fd) {
        Obj v = dict_getitem(fd, name);
        if (v)
            return v;
        if (err_occurred())
            return NULL;
    }
    if (d) {
        descrgetfunc g = TYPE(d)->tp_descr_get;
        return g ? g(d, f, (Obj)t) : d;
    }
    return err_no_attr(f, name);
}

static int function_setattro(Obj f, Obj name, Obj v)
{
    Obj d = vm_lookup_type(TYPE(f), name);
    if (d && TYPE(d)->tp_descr_set)
        return TYPE(d)->tp_descr_set(d, f, v);
    Obj *r = vm_roots(3);
    r[0] = f;
    r[1] = name;
    r[2] = v;
    int ret = -1;
    if (!FUNC(r[0])->dict) {
        if (!v) {
            err_no_attr(r[0], r[1]);
            goto done;
        }
        Obj nd = dict_new();
        if (!nd)
            goto done;
        VM_WRITE_RARE(r[0]);
        FUNC(r[0])->dict = nd;
    }
    if (v) {
        ret = dict_setitem(FUNC(r[0])->dict, r[1], r[2]);
    } else {
        ret = dict_delitem(FUNC(r[0])->dict, r[1]);
        if (ret < 0 && err_matches(E_KeyError)) {
            err_clear();
            err_no_attr(r[0], r[1]);
        }
    }
done:
    vm_unroots(r);
    return ret;
}

#define GETTER(fname) static Obj fname(Obj *args, size_t nargs, Obj kw)
#define UNUSED_ARGS (void)nargs, (void)kw

static int need_value(Obj v, const char *attr)
{
    if (!v) {
        err_format(E_TypeError, "cannot delete %s", attr);
        return -1;
    }
    return 0;
}

GETTER(f_get_name) { UNUSED_ARGS; return FUNC(args[0])->name; }
GETTER(f_set_name)
{
    UNUSED_ARGS;
    if (!args[1] || !IS_STR(args[1])) {
        err_set(E_TypeError, "__name__ must be set to a string object");
        return NULL;
    }
    VM_WRITE_RARE(args[0]);
    FUNC(args[0])->name = args[1];
    return g_None;
}
GETTER(f_get_qualname) { UNUSED_ARGS; return FUNC(args[0])->qualname; }
GETTER(f_set_qualname)
{
    UNUSED_ARGS;
    if (!args[1] || !IS_STR(args[1])) {
        err_set(E_TypeError, "__qualname__ must be set to a string object");
        return NULL;
    }
    VM_WRITE_RARE(args[0]);
    FUNC(args[0])->qualname = args[1];
    return g_None;
}
GETTER(f_get_doc) { UNUSED_ARGS; return FUNC(args[0])->doc ? FUNC(args[0])->doc : g_None; }
GETTER(f_set_doc)
{
    UNUSED_ARGS;
    VM_WRITE_RARE(args[0]);
    FUNC(args[0])->doc = args[1] ? args[1] : g_None;
    return g_None;
}
GETTER(f_get_module) { UNUSED_ARGS; return FUNC(args[0])->module ? FUNC(args[0])->module : g_None; }
GETTER(f_set_module)
{
    UNUSED_ARGS;
    VM_WRITE_RARE(args[0]);
    FUNC(args[0])->module = args[1] ? args[1] : g_None;
    return g_None;
}
GETTER(f_get_defaults) { UNUSED_ARGS; return FUNC(args[0])->defaults ? FUNC(args[0])->defaults : g_None; }
GETTER(f_set_defaults)
{
    UNUSED_ARGS;
    Obj v = args[1];
    if (v && IS_NONE(v))
        v = NULL;
    if (v && !IS_TUPLE(v)) {
        err_set(E_TypeError, "__defaults__ must be set to a tuple object");
        return NULL;
    }
    VM_WRITE_RARE(args[0]);
    FUNC(args[0])->defaults = v;
    return g_None;
}
GETTER(f_get_kwdefaults) { UNUSED_ARGS; return FUNC(args[0])->kwdefaults ? FUNC(args[0])->kwdefaults : g_None; }
GETTER(f_set_kwdefaults)
{
    UNUSED_ARGS;
    Obj v = args[1];
    if (v && IS_NONE(v))
        v = NULL;
    if (v && !IS_DICT(v)) {
        err_set(E_TypeError, "__kwdefaults__ must be set to a dict object");
        return NULL;
    }
    VM_WRITE_RARE(args[0]);
    FUNC(args[0])->kwdefaults = v;
    return g_None;
}
GETTER(f_get_closure) { UNUSED_ARGS; return FUNC(args[0])->closure ? FUNC(args[0])->closure : g_None; }
GETTER(f_get_code) { UNUSED_ARGS; return FUNC(args[0])->code; }
GETTER(f_set_code)
{
    UNUSED_ARGS;
    if (need_value(args[1], "__code__") < 0)
        return NULL;
    if (!IS_CODE(args[1])) {
        err_set(E_TypeError, "__code__ must be set to a code object");
        return NULL;
    }
    int64_t nclosure = FUNC(args[0])->closure ? TUPLE_LEN(FUNC(args[0])->closure) : 0;
    if (CODE(args[1])->nfreevars != nclosure) {
        err_format(E_ValueError, "%s() requires a code object with %" PRId64 " free vars, not %d",
                   str_cstr(FUNC(args[0])->name), nclosure, (int)CODE(args[1])->nfreevars);
        return NULL;
    }
    VM_WRITE_RARE(args[0]);
    FUNC(args[0])->code = args[1];
    return g_None;
}
GETTER(f_get_globals) { UNUSED_ARGS; return FUNC(args[0])->globals; }
GETTER(f_get_builtins) { UNUSED_ARGS; return FUNC(args[0])->builtins; }
GETTER(f_get_dict)
{
    UNUSED_ARGS;
    if (!FUNC(args[0])->dict) {
        Obj d = dict_new();
        if (!d)
            return NULL;
        VM_WRITE_RARE(args[0]);
        FUNC(args[0])->dict = d;
    }
    return FUNC(args[0])->dict;
}
GETTER(f_set_dict)
{
    UNUSED_ARGS;
    if (need_value(args[1], "function __dict__") < 0)
        return NULL;
    if (!IS_DICT(args[1])) {
        err_format(E_TypeError, "__dict__ must be set to a dictionary, not a '%s'", type_name(args[1]));
        return NULL;
    }
    VM_WRITE_RARE(args[0]);
    FUNC(args[0])->dict = args[1];
    return g_None;
}
/* __annotations__: the dict MAKE_FUNCTION was given, else an empty one made
 * on first read; assignable to a dict, or None / del (none yet). */
GETTER(f_get_annotations)
{
    UNUSED_ARGS;
    if (FUNC(args[0])->annotations)
        return FUNC(args[0])->annotations;
    Obj *r = vm_roots(2);
    r[0] = args[0];
    r[1] = dict_new();
    if (r[1]) {
        VM_WRITE_RARE(r[0]);
        FUNC(r[0])->annotations = r[1];
    }
    Obj d = r[1];
    vm_unroots(r);
    return d;
}
GETTER(f_set_annotations)
{
    UNUSED_ARGS;
    Obj v = args[1];
    if (v && IS_NONE(v))
        v = NULL;
    if (v && !vm_isinstance_type(v, T_dict)) {
        err_set(E_TypeError, "__annotations__ must be set to a dict object");
        return NULL;
    }
    VM_WRITE_RARE(args[0]);
    FUNC(args[0])->annotations = v;
    return g_None;
}

/* ------------------------------------------------------------------ */
/* Bound methods                                                      */
/* ------------------------------------------------------------------ */

/* types.MethodType(function, instance), as CPython. */
static Obj method_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    (void)type;
    if (kwnames && TUPLE_LEN(kwnames)) {
        err_set(E_TypeError, "method() takes no keyword arguments");
        return NULL;
    }
    if (nargs != 2) {
        err_format(E_TypeError, "method expected 2 arguments, got %zu", nargs);
        return NULL;
    }
    if (!vm_callable(args[0])) {
        err_set(E_TypeError, "first argument must be callable");
        return NULL;
    }
    if (IS_NONE(args[1])) {
        err_set(E_TypeError, "instance must not be None");
        return NULL;
    }
    return method_new(args[0], args[1]);
}

static Obj method_call(Obj m, Obj *args, size_t nargs, Obj kwnames)
{
    return vm_call(m, args, nargs, kwnames);
}

static Obj method_repr(Obj m)
{
    Obj *r = vm_roots(3);
    r[0] = m;
    Obj res = NULL;
    Obj qualname = str_intern_cstr("__qualname__"), name = str_intern_cstr("__name__");
    if (!qualname || !name)
        goto done;
    r[1] = vm_getattr_opt(METHOD(r[0])->func, qualname);
    if (!r[1]) {
        if (err_occurred())
            goto done;
        r[1] = vm_getattr_opt(METHOD(r[0])->func, name);
        if (!r[1] && err_occurred())
            goto done;
    }
    r[2] = vm_repr(METHOD(r[0])->self);
    if (!r[2])
        goto done;
    res = str_from_format("<bound method %s of %s>", r[1] && IS_STR(r[1]) ? str_cstr(r[1]) : "?",
                          str_cstr(r[2]));
done:
    vm_unroots(r);
    return res;
}

static Obj method_richcompare(Obj a, Obj b, int op)
{
    if ((op != CMP_EQ && op != CMP_NE) || TID(a) != TID_METHOD || TID(b) != TID_METHOD)
        return g_NotImplemented;
    bool eq = METHOD(a)->self == METHOD(b)->self;
    if (eq) {
        int r = vm_richcompare_bool(METHOD(a)->func, METHOD(b)->func, CMP_EQ);
        if (r < 0)
            return NULL;
        eq = r;
    }
    return vm_bool(op == CMP_EQ ? eq : !eq);
}

static int64_t method_hash(Obj m)
{
    return vm_hash(METHOD(m)->func);
}

static Obj method_descr_get(Obj m, Obj obj, Obj type)
{
    (void)obj, (void)type;
    return m;
}

static Obj method_getattro(Obj m, Obj name)
{
    TypeObj *t = TYPE(m);
    Obj d = vm_lookup_type(t, name);
    if (d) {
        descrgetfunc g = TYPE(d)->tp_descr_get;
        return g ? g(d, m, (Obj)t) : d;
    }
    return vm_getattr(METHOD(m)->func, name);
}

GETTER(m_get_self) { UNUSED_ARGS; return METHOD(args[0])->self; }
GETTER(m_get_func) { UNUSED_ARGS; return METHOD(args[0])->func; }
GETTER(m_get_doc) { UNUSED_ARGS; return vm_getattr_cstr(METHOD(args[0])->func, "__doc__"); }

/* (getattr, (self, name)), as CPython's method.__reduce__. */
static Obj m_reduce(Obj *args, size_t nargs, Obj kw)
{
    UNUSED_ARGS;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = vm_getattr_cstr(METHOD(args[0])->func, "__name__");
    if (r[0])
        r[0] = tuple_pack(2, METHOD(args[0])->self, r[0]);
    if (r[0])
        r[1] = dict_getitem_cstr(g_builtins, "getattr");
    if (r[1])
        res = tuple_pack(2, r[1], r[0]);
    else if (r[0] && !err_occurred())
        err_set(E_RuntimeError, "builtins.getattr is missing");
    vm_unroots(r);
    return res;
}

static const MethodDef method_methods[] = {
    {"__reduce__", m_reduce, 0, NULL},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* Cells                                                              */
/* ------------------------------------------------------------------ */
Obj cell_new(Obj v)
{
    Obj *r = vm_roots(1);
    r[0] = v;
    Obj c = (Obj)tm_allocate(TID_CELL, sizeof(struct CellObj_));
    if (c)
        CELL(c)->ref = r[0];
    vm_unroots(r);
    return c ? c : err_nomemory();
}

static Obj cell_repr(Obj c)
{
    uint64_t id = vm_object_id_slot(&c);
    Obj v = CELL(c)->ref;
    if (!v)
        return str_from_format("<cell at %#lx: empty>", (unsigned long)id);
    uint64_t vid = vm_object_id_slot(&v);
    return str_from_format("<cell at %#lx: %s object at %#lx>", (unsigned long)id, type_name(v), (unsigned long)vid);
}

static Obj cell_richcompare(Obj a, Obj b, int op)
{
    if (TID(a) != TID_CELL || TID(b) != TID_CELL)
        return g_NotImplemented;
    Obj x = CELL(a)->ref, y = CELL(b)->ref;
    if (x && y)
        return vm_richcompare(x, y, op);
    /* empty cells sort first */
    int c = (x != NULL) - (y != NULL);
    bool res;
    switch (op) {
    case CMP_LT: res = c < 0; break;
    case CMP_LE: res = c <= 0; break;
    case CMP_EQ: res = c == 0; break;
    case CMP_NE: res = c != 0; break;
    case CMP_GT: res = c > 0; break;
    default: res = c >= 0; break;
    }
    return vm_bool(res);
}

GETTER(c_get_contents)
{
    UNUSED_ARGS;
    Obj v = CELL(args[0])->ref;
    if (!v)
        err_set(E_ValueError, "Cell is empty");
    return v;
}
GETTER(c_set_contents)
{
    UNUSED_ARGS;
    VM_WRITE(args[0]);
    CELL(args[0])->ref = args[1];
    return g_None;
}

/* ------------------------------------------------------------------ */
/* Code objects                                                       */
/* ------------------------------------------------------------------ */
static Obj code_repr(Obj c)
{
    uint64_t id = vm_object_id_slot(&c);
    CodeObj *co = CODE(c);
    return str_from_format("<code object %s at %#lx, file \"%s\", line %d>", str_cstr(co->name),
                           (unsigned long)id, str_cstr(co->filename), (int)co->firstlineno);
}

static Obj localsplus_slice(Obj c, int from, int to)
{
    if (to <= from)
        return g_empty_tuple;
    Obj t = tuple_new(to - from);
    if (!t)
        return NULL;
    for (int i = from; i < to; i++)
        TUPLE_ITEMS(t)[i - from] = TUPLE_ITEMS(CODE(c)->localsplus)[i];
    return t;
}

GETTER(co_get_name) { UNUSED_ARGS; return CODE(args[0])->name; }
GETTER(co_get_qualname) { UNUSED_ARGS; return CODE(args[0])->qualname; }
GETTER(co_get_filename) { UNUSED_ARGS; return CODE(args[0])->filename; }
GETTER(co_get_firstlineno) { UNUSED_ARGS; return MAKE_SMALLINT(CODE(args[0])->firstlineno); }
GETTER(co_get_argcount) { UNUSED_ARGS; return MAKE_SMALLINT(CODE(args[0])->argcount); }
GETTER(co_get_posonlyargcount) { UNUSED_ARGS; return MAKE_SMALLINT(CODE(args[0])->posonlyargcount); }
GETTER(co_get_kwonlyargcount) { UNUSED_ARGS; return MAKE_SMALLINT(CODE(args[0])->kwonlyargcount); }
GETTER(co_get_nlocals) { UNUSED_ARGS; return MAKE_SMALLINT(CODE(args[0])->nlocals); }
GETTER(co_get_stacksize) { UNUSED_ARGS; return MAKE_SMALLINT(CODE(args[0])->stacksize); }
GETTER(co_get_consts) { UNUSED_ARGS; return CODE(args[0])->consts; }
GETTER(co_get_names) { UNUSED_ARGS; return CODE(args[0])->names; }
GETTER(co_get_varnames)
{
    UNUSED_ARGS;
    return localsplus_slice(args[0], 0, CODE(args[0])->nlocals);
}
GETTER(co_get_cellvars)
{
    UNUSED_ARGS;
    CodeObj *co = CODE(args[0]);
    return localsplus_slice(args[0], co->nlocals, co->nlocals + co->ncellvars);
}
GETTER(co_get_freevars)
{
    UNUSED_ARGS;
    CodeObj *co = CODE(args[0]);
    return localsplus_slice(args[0], co->nlocals + co->ncellvars, code_nlocalsplus(co));
}
/* CPython's flag values, for inspect. */
GETTER(co_get_flags)
{
    UNUSED_ARGS;
    int fl = CODE(args[0])->flags;
    int r = 0;
    if (!(fl & (CO_MODULE | CO_CLASSBODY)))
        r |= 0x1 | 0x2;          /* OPTIMIZED, NEWLOCALS */
    if (fl & CO_VARARGS)
        r |= 0x4;
    if (fl & CO_VARKEYWORDS)
        r |= 0x8;
    if (fl & CO_NESTED)
        r |= 0x10;
    if (fl & CO_COROUTINE)
        r |= 0x80;
    else if (fl & CO_ASYNC_GENERATOR)
        r |= 0x200;
    else if (fl & CO_GENERATOR)
        r |= 0x20;
    if (fl & CO_ITERABLE_COROUTINE)
        r |= 0x100;
    if (fl & CO_FUTURE_ANNOTATIONS)
        r |= PY_CO_FUTURE_ANNOTATIONS;
    return MAKE_SMALLINT(r);
}

/* code.replace(): co_flags (only CO_ITERABLE_COROUTINE, 0x100, may change:
 * what types.coroutine needs), co_name, co_qualname, co_filename and
 * co_firstlineno (which moves every line by the difference, as CPython's
 * line table is relative to it: what hypothesis's proxies do); the other
 * fields are not built. The copy gets its own inline caches. */
enum { RP_FLAGS = 1, RP_NAME, RP_QUALNAME, RP_FILENAME, RP_FIRSTLINENO, RP_CACHE, RP_CODE, RP_LINES, RP_NSLOTS };
static Obj code_replace(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"co_flags", "co_name", "co_qualname", "co_filename", "co_firstlineno", NULL};
    static const char *const cpython_fields[] = {"co_argcount", "co_posonlyargcount", "co_kwonlyargcount",
        "co_nlocals", "co_stacksize", "co_code", "co_consts", "co_names", "co_varnames", "co_freevars",
        "co_cellvars", "co_linetable", "co_exceptiontable", NULL};
    if (nargs > 1) {
        err_set(E_TypeError, "replace() takes no positional arguments");
        return NULL;
    }
    if (kwnames) {
        for (int64_t i = 0; i < TUPLE_LEN(kwnames); i++) {
            const char *k = str_cstr(TUPLE_ITEMS(kwnames)[i]);
            bool known = false;
            for (int j = 0; names[j]; j++)
                known |= strcmp(k, names[j]) == 0;
            for (int j = 0; !known && cpython_fields[j]; j++)
                if (strcmp(k, cpython_fields[j]) == 0) {
                    err_format(E_NotImplementedError, "code.replace(): tmpy cannot replace %s", k);
                    return NULL;
                }
            if (!known) {
                err_format(E_TypeError, "'%s' is an invalid keyword argument for replace()", k);
                return NULL;
            }
        }
    }
    Obj *r = vm_roots(RP_NSLOTS);
    Obj res = NULL;
    r[0] = args[0];
    if (vm_parse_args("replace", args + 1, 0, kwnames, names, 0, 0, r + 1) < 0)
        goto done;
    for (int i = RP_NAME; i <= RP_FILENAME; i++)
        if (r[i] && !IS_STR(r[i])) {
            err_format(E_TypeError, "replace() argument '%s' must be str, not %s", names[i - 1], type_name(r[i]));
            goto done;
        }
    int64_t want = CODE(r[0])->flags & CO_ITERABLE_COROUTINE ? 0x100 : 0;
    if (r[RP_FLAGS]) {
        if (vm_index_i64(r[RP_FLAGS], &want) < 0)
            goto done;
        Obj cur = co_get_flags(r, 1, NULL);
        if (!cur)
            goto done;
        if ((want & ~0x100) != (SMALLINT_VAL(cur) & ~0x100)) {
            err_set(E_NotImplementedError, "code.replace(): tmpy can only change the CO_ITERABLE_COROUTINE flag (0x100)");
            goto done;
        }
    }
    int64_t firstlineno = CODE(r[0])->firstlineno;
    if (r[RP_FIRSTLINENO] && vm_index_i64(r[RP_FIRSTLINENO], &firstlineno) < 0)
        goto done;
    if (firstlineno < INT32_MIN || firstlineno > INT32_MAX) {
        err_set(E_OverflowError, "Python int too large to convert to C int");
        goto done;
    }
    int32_t shift = (int32_t)(firstlineno - CODE(r[0])->firstlineno);
    if (shift && CODE(r[0])->lines) {
        uint64_t n = CODE(r[0])->ninstr;
        if (!(r[RP_LINES] = raw_new((int64_t)(n * sizeof(int32_t)))))
            goto done;
        const int32_t __seg_gs *from = (const int32_t __seg_gs *)RAW(CODE(r[0])->lines)->data;
        int32_t *to = (int32_t *)VM_LINEAR(RAW(r[RP_LINES])->data);
        for (uint64_t i = 0; i < n; i++)
            to[i] = from[i] > 0 ? from[i] + shift : from[i];
    }
    r[RP_CACHE] = raw_new((int64_t)CODE(r[0])->ncaches * CACHE_ENTRY_SIZE);
    if (!r[RP_CACHE])
        goto done;
    r[RP_CODE] = code_new((int32_t)CODE(r[0])->ninstr);
    if (!r[RP_CODE])
        goto done;
    /* nothing below allocates */
    CodeObj *src = CODE(r[0]), *dst = CODE(r[RP_CODE]);
    VM_WRITE(r[RP_CODE]);
    dst->consts = src->consts;
    dst->names = src->names;
    dst->localsplus = src->localsplus;
    dst->name = r[RP_NAME] ? r[RP_NAME] : src->name;
    dst->qualname = r[RP_QUALNAME] ? r[RP_QUALNAME] : src->qualname;
    dst->filename = r[RP_FILENAME] ? r[RP_FILENAME] : src->filename;
    dst->lines = shift ? r[RP_LINES] : src->lines;
    /* the column ranges hold lines too: none rather than wrong ones */
    dst->positions = shift ? NULL : src->positions;
    dst->cache = r[RP_CACHE];
    dst->argcount = src->argcount;
    dst->posonlyargcount = src->posonlyargcount;
    dst->kwonlyargcount = src->kwonlyargcount;
    dst->nlocals = src->nlocals;
    dst->ncellvars = src->ncellvars;
    dst->nfreevars = src->nfreevars;
    dst->stacksize = src->stacksize;
    dst->flags = (src->flags & ~CO_ITERABLE_COROUTINE) | ((want & 0x100) ? CO_ITERABLE_COROUTINE : 0);
    dst->firstlineno = (int32_t)firstlineno;
    dst->ncaches = src->ncaches;
    dst->reserved_ = 0;
    dst->cell2arg_count = src->cell2arg_count;
    for (int i = 0; i < 16; i++)
        dst->cell2arg[i] = src->cell2arg[i];
    for (uint64_t i = 0; i < src->ninstr; i++)
        dst->code[i] = src->code[i];
    res = r[RP_CODE];
done:
    vm_unroots(r);
    return res;
}

uint32_t code_bytecode_fingerprint(void)
{
    static const char names[] =
#define OP_NAME_TEXT(name) #name "\0"
        OP_LIST(OP_NAME_TEXT)
#undef OP_NAME_TEXT
        ;
    uint32_t h = 2166136261u ^ CACHE_ENTRY_SIZE ^ CODE_RECORD_FORMAT << 8;
    for (size_t i = 0; i < sizeof names; i++)
        h = (h ^ (unsigned char)names[i]) * 16777619u;
    return h;
}

static Obj int_or_none(int v, int none_below) { return v < none_below ? g_None : MAKE_SMALLINT(v); }

/* co_positions(): (line, end_line, col, end_col) of each instruction word
 * (tmpy's words, not CPython's code units), None where unknown. */
static Obj code_positions(Obj *args, size_t nargs, Obj kwnames)
{
    CodeObj *co = CODE(args[0]);
    int64_t n = (int64_t)co->ninstr;
    CodePos *all = malloc((size_t)n * sizeof(CodePos) + 1);
    if (!all)
        return err_nomemory();
    int64_t got = code_positions_decode(co, all, n);
    for (int64_t i = got; i < n; i++)
        all[i] = (CodePos){0, 0, -1, -1};
    Obj *r = vm_roots(2);
    Obj res = NULL;
    if (!(r[0] = list_new_capacity(n)))
        goto out;
    for (int64_t i = 0; i < n; i++) {
        CodePos p = all[i];
        bool has = p.line > 0;
        r[1] = tuple_pack(4, has ? MAKE_SMALLINT(p.line) : g_None, has ? MAKE_SMALLINT(p.end_line) : g_None,
                          has ? int_or_none(p.col, 0) : g_None, has ? int_or_none(p.end_col, 0) : g_None);
        if (!r[1] || list_append(r[0], r[1]) < 0)
            goto out;
    }
    res = vm_iter(r[0]);
out:
    vm_unroots(r);
    free(all);
    return res;
}

static const MethodDef code_methods[] = {
    {"replace", code_replace, METH_KW, "Return a copy of the code object with new values for the specified fields."},
    {"co_positions", code_positions, METH_NOARGS,
     "Return an iterator of (start_line, end_line, start_column, end_column) for each instruction."},
    {NULL, NULL, 0, NULL},
};

static Obj code_richcompare(Obj a, Obj b, int op)
{
    if ((op != CMP_EQ && op != CMP_NE) || !IS_CODE(a) || !IS_CODE(b))
        return g_NotImplemented;
    return vm_bool((a == b) == (op == CMP_EQ));
}

static int64_t code_hash(Obj c)
{
    int64_t h = str_hash(CODE(c)->name) ^ ((int64_t)CODE(c)->firstlineno * 1000003);
    return h == -1 ? -2 : h;
}

/* ------------------------------------------------------------------ */
/* Built-in method descriptors (for LOAD_METHOD and vm_call_method)     */
/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* Types                                                              */
/* ------------------------------------------------------------------ */
void func_init_types(void)
{
    T_function = (TypeObj *)type_new_builtin("function", T_object, TID_FUNCTION, 0);
    T_function->tp_call = eval_call_function;   /* vm_call (objects/call.c) reaches eval here */
    T_function->tp_descr_get = function_descr_get;
    T_function->tp_repr = function_repr;
    T_function->tp_getattro = function_getattro;
    T_function->tp_setattro = function_setattro;
    type_add_getset(T_function, "__name__", f_get_name, f_set_name);
    type_add_getset(T_function, "__qualname__", f_get_qualname, f_set_qualname);
    type_add_getset(T_function, "__doc__", f_get_doc, f_set_doc);
    type_add_getset(T_function, "__module__", f_get_module, f_set_module);
    type_add_getset(T_function, "__defaults__", f_get_defaults, f_set_defaults);
    type_add_getset(T_function, "__kwdefaults__", f_get_kwdefaults, f_set_kwdefaults);
    type_add_member(T_function, "__closure__", f_get_closure, NULL, NULL);
    type_add_getset(T_function, "__code__", f_get_code, f_set_code);
    type_add_member(T_function, "__globals__", f_get_globals, NULL, NULL);
    type_add_member(T_function, "__builtins__", f_get_builtins, NULL, NULL);
    type_add_getset(T_function, "__dict__", f_get_dict, f_set_dict);
    type_add_getset(T_function, "__annotations__", f_get_annotations, f_set_annotations);
    type_ready(T_function);

    T_method = (TypeObj *)type_new_builtin("method", T_object, TID_METHOD, 0);
    T_method->tp_new = method_tp_new;
    T_method->tp_call = method_call;
    T_method->tp_repr = method_repr;
    T_method->tp_richcompare = method_richcompare;
    T_method->tp_hash = method_hash;
    T_method->tp_descr_get = method_descr_get;
    T_method->tp_getattro = method_getattro;
    type_add_methods(T_method, method_methods);
    type_add_getset(T_method, "__self__", m_get_self, NULL);
    type_add_getset(T_method, "__func__", m_get_func, NULL);
    type_add_getset(T_method, "__doc__", m_get_doc, NULL);
    type_ready(T_method);

    T_cell = (TypeObj *)type_new_builtin("cell", T_object, TID_CELL, 0);
    T_cell->tp_repr = cell_repr;
    T_cell->tp_richcompare = cell_richcompare;
    type_add_getset(T_cell, "cell_contents", c_get_contents, c_set_contents);
    type_ready(T_cell);

    T_code = (TypeObj *)type_new_builtin("code", T_object, TID_CODE, 0);
    T_code->tp_repr = code_repr;
    T_code->tp_richcompare = code_richcompare;
    T_code->tp_hash = code_hash;
    type_add_getset(T_code, "co_name", co_get_name, NULL);
    type_add_getset(T_code, "co_qualname", co_get_qualname, NULL);
    type_add_getset(T_code, "co_filename", co_get_filename, NULL);
    type_add_getset(T_code, "co_firstlineno", co_get_firstlineno, NULL);
    type_add_getset(T_code, "co_argcount", co_get_argcount, NULL);
    type_add_getset(T_code, "co_posonlyargcount", co_get_posonlyargcount, NULL);
    type_add_getset(T_code, "co_kwonlyargcount", co_get_kwonlyargcount, NULL);
    type_add_getset(T_code, "co_nlocals", co_get_nlocals, NULL);
    type_add_getset(T_code, "co_stacksize", co_get_stacksize, NULL);
    type_add_getset(T_code, "co_consts", co_get_consts, NULL);
    type_add_getset(T_code, "co_names", co_get_names, NULL);
    type_add_getset(T_code, "co_varnames", co_get_varnames, NULL);
    type_add_getset(T_code, "co_cellvars", co_get_cellvars, NULL);
    type_add_getset(T_code, "co_freevars", co_get_freevars, NULL);
    type_add_getset(T_code, "co_flags", co_get_flags, NULL);
    type_add_methods(T_code, code_methods);
    type_ready(T_code);

    gen_init_type();
    traceback_init_types();
}
