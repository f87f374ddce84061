/* The eval loop: one C loop runs every Python-to-Python call, generator
 * resumption (FOR_ITER, YIELD_FROM) and return; C code re-enters it only
 * through eval_run (a new C level). See eval.h for the frame layout. */
#include "eval.h"

#include <string.h>

const char *const op_names[] = {
#define OP_NAME(name) #name,
    OP_LIST(OP_NAME)
#undef OP_NAME
};

/* ------------------------------------------------------------------ */
/* Inline caches (code->cache, CACHE_ENTRY_SIZE bytes each). They hold */
/* versions and indexes only, never GC references.                    */
/* ------------------------------------------------------------------ */
/* A cache entry is refilled at most this many times, then left alone: under
 * STM many threads read it, and rewriting it on every miss would conflict. */
#define CACHE_MAX_FILLS 4

enum { GC_EMPTY, GC_GLOBALS, GC_BUILTINS };
VM_STRUCT(GlobalCache) {
    uint64_t gver;      /* globals dict version */
    uint64_t bver;      /* builtins dict version (GC_BUILTINS) */
    int64_t index;      /* entry index in the dict that holds the name */
    uint8_t where;      /* GC_* */
    uint8_t fills;
    uint8_t pad[6];
};

enum {
    AC_EMPTY,
    AC_INSTANCE,    /* not on the type: the instance dict (tver) */
    AC_TYPE_ATTR,   /* on the type, not a data descriptor: instance dict first, then owner dict */
    AC_DATA_DESCR,  /* a data descriptor on the type (owner dict) */
    AC_METHOD,      /* LOAD_METHOD: a function on the type, instance dict checked */
    AC_MODULE,      /* module attribute: tver is the module dict's version */
    AC_STORE_INST,  /* STORE_ATTR: store into the instance dict */
};
VM_STRUCT(AttrCache) {
    uint64_t tver;      /* TypeObj.version (or module dict version) */
    uint64_t dver;      /* owner type's dict version */
    uint64_t owner;     /* owner type (pinned; alive while tver matches) */
    int32_t index;      /* entry index in owner dict / module dict */
    uint8_t kind;       /* AC_* */
    uint8_t fills;
    uint16_t pad;
};

_Static_assert(sizeof(struct GlobalCache_) <= CACHE_ENTRY_SIZE, "cache entry");
_Static_assert(sizeof(struct AttrCache_) <= CACHE_ENTRY_SIZE, "cache entry");

#define CACHE_BASE(co) ((unsigned char __seg_gs *)((RawObj *)(co)->cache)->data)
#define GLOBAL_CACHE(co, i) ((GlobalCache *)(CACHE_BASE(co) + (size_t)(i) * CACHE_ENTRY_SIZE))
#define ATTR_CACHE(co, i) ((AttrCache *)(CACHE_BASE(co) + (size_t)(i) * CACHE_ENTRY_SIZE))
#define DICT(d) ((DictObj *)(d))

static inline bool cache_usable(CodeObj *co, uint32_t idx)
{
    return co->cache && idx < (uint32_t)co->ncaches;
}

/* ------------------------------------------------------------------ */
/* Small helpers                                                      */
/* ------------------------------------------------------------------ */
int code_line_at(CodeObj *co, int64_t i)
{
    if (i < 0)
        return co->firstlineno;
    if (!co->lines || (uint64_t)i >= co->ninstr)
        return co->firstlineno;
    const int32_t __seg_gs *lines = (const int32_t __seg_gs *)((RawObj *)co->lines)->data;
    int line = lines[i];
    /* Cache words may carry no line of their own. */
    if (line <= 0 && i > 0)
        line = lines[i - 1];
    return line > 0 ? line : co->firstlineno;
}

int eval_frame_lineno(Frame *f)
{
    return code_line_at(f->code, f->ip - f->code->code - 1);
}

static inline Obj instance_dict(Obj obj)
{
    unsigned tid = TID(obj);
    if (tid == TID_INSTANCE || tid == TID_EXCEPTION)
        return ((InstanceObj *)obj)->dict;
    return NULL;
}

void eval_chain_context(Obj exc, Obj handled)
{
    if (!handled || handled == exc || !IS_EXCEPTION(exc) || !IS_EXCEPTION(handled))
        return;
    /* Cut a cycle: if exc is already in handled's context chain, unlink it. */
    Obj o = handled;
    for (int guard = 0; guard < 10000; guard++) {
        Obj ctx = ((ExceptionObj *)o)->context;
        if (!ctx)
            break;
        if (ctx == exc) {
            VM_WRITE(o);
            ((ExceptionObj *)o)->context = NULL;
            break;
        }
        o = ctx;
    }
    VM_WRITE(exc);
    ((ExceptionObj *)exc)->context = handled;
}

/* The builtins dict for code run with `globals`. */
Obj eval_globals_builtins(Obj globals)
{
    Obj b = IS_DICT(globals) ? dict_getitem_cstr(globals, "__builtins__") : NULL;
    if (b) {
        if (TID(b) == TID_MODULE)
            return ((ModuleObj *)b)->dict;
        if (IS_DICT(b))
            return b;
    }
    if (err_occurred())
        err_clear();
    return g_builtins;
}

static void unbound_local_error(CodeObj *co, int i)
{
    err_format(E_UnboundLocalError,
               "cannot access local variable '%s' where it is not associated with a value",
               str_cstr(code_localname(co, i)));
}

static void deref_error(CodeObj *co, int i)
{
    if (i < co->nlocals + co->ncellvars)
        unbound_local_error(co, i);
    else
        err_format(E_NameError,
                   "cannot access free variable '%s' where it is not associated with a value in enclosing scope",
                   str_cstr(code_localname(co, i)));
}

static void name_error(Obj name)
{
    err_format(E_NameError, "name '%s' is not defined", str_cstr(name));
}

/* ------------------------------------------------------------------ */
/* Frames                                                             */
/* ------------------------------------------------------------------ */
static void recursion_error(void)
{
    err_set(E_RecursionError, "maximum recursion depth exceeded");
}

/* Push a frame for a Python function. args[0..nargs) and (kwnames) the
 * keyword values after them are root slots. inplace: args are the top of
 * the running frame's value stack, so the callee's localsplus may start at
 * args (plain positional calls). Returns the frame, or NULL: an error, or a
 * generator function (*gen_out is then the new generator). */
static inline Frame *push_function_frame(Obj func, Obj *args, size_t nargs, Obj kwnames,
                                         bool inplace, Obj *gen_out)
{
    CodeObj *co = (CodeObj *)((FunctionObj *)func)->code;
    int nlp = code_nlocalsplus(co);
    int flags = co->flags;
    Obj *old_top = (Obj *)tm_self.ss_top;
    Frame *back = vm_ts.frame;
    Frame *nf = back ? back + 1 : vm_frames_base;
    Obj *lp, *end;

    if (unlikely(vm_ts.py_depth + vm_ts.c_depth >= vm_recursion_limit || nf >= vm_frames_limit)) {
        recursion_error();
        return NULL;
    }
    if (likely(inplace && !kwnames && nargs == (size_t)co->argcount && co->kwonlyargcount == 0 &&
               !(flags & (CO_VARARGS | CO_VARKEYWORDS)))) {
        lp = args;
        end = lp + nlp + FRAME_NHDR + co->stacksize;
        if (unlikely(end > vm_ss_safe_limit)) {
            recursion_error();
            return NULL;
        }
        for (Obj *p = lp + nargs; p < end; p++)
            *p = NULL;
        tm_self.ss_top = (object_t **)end;
    } else {
        lp = old_top;
        end = lp + nlp + FRAME_NHDR + co->stacksize;
        if (unlikely(end > vm_ss_safe_limit)) {
            recursion_error();
            return NULL;
        }
        for (Obj *p = lp; p < end; p++)
            *p = NULL;
        tm_self.ss_top = (object_t **)end;
        lp[nlp + HDR_FUNC] = func;
        if (call_bind_args(func, co, args, nargs, kwnames, lp) < 0) {
            tm_self.ss_top = (object_t **)old_top;
            return NULL;
        }
        func = lp[nlp + HDR_FUNC];
    }
    Obj *hdr = lp + nlp;
    hdr[HDR_FUNC] = func;
    hdr[HDR_GLOBALS] = ((FunctionObj *)func)->globals;
    hdr[HDR_BUILTINS] = ((FunctionObj *)func)->builtins;
    if (unlikely(co->ncellvars | co->nfreevars)) {
        if (call_init_cells(func, co, lp) < 0) {
            tm_self.ss_top = (object_t **)old_top;
            return NULL;
        }
    }
    if (unlikely(flags & CO_GENERATOR)) {
        *gen_out = gen_create(hdr[HDR_FUNC], co, lp);
        tm_self.ss_top = (object_t **)old_top;
        return NULL;
    }
    nf->back = back;
    nf->code = co;
    nf->ip = co->code;
    nf->localsplus = lp;
    nf->stack_base = hdr + FRAME_NHDR;
    nf->sp = nf->stack_base;
    nf->end = end;
    nf->nblocks = 0;
    nf->kind = FR_CALL;
    vm_ts.frame = nf;
    vm_ts.py_depth++;
    return nf;
}

Frame *eval_push_function(Obj func, Obj *args, size_t nargs, Obj kwnames, Obj *gen_out)
{
    *gen_out = NULL;
    Frame *f = push_function_frame(func, args, nargs, kwnames, false, gen_out);
    if (f)
        f->kind = FR_ENTRY;
    return f;
}

/* A frame for module code or a class body (no arguments). */
static Frame *push_code_frame(Obj code, Obj func, Obj globals, Obj builtins, Obj locals)
{
    CodeObj *co = (CodeObj *)code;
    int nlp = code_nlocalsplus(co);
    Obj *lp = (Obj *)tm_self.ss_top;
    Obj *end = lp + nlp + FRAME_NHDR + co->stacksize;
    Frame *back = vm_ts.frame;
    Frame *nf = back ? back + 1 : vm_frames_base;
    if (vm_ts.py_depth + vm_ts.c_depth >= vm_recursion_limit || nf >= vm_frames_limit ||
        end > vm_ss_safe_limit) {
        recursion_error();
        return NULL;
    }
    for (Obj *p = lp; p < end; p++)
        *p = NULL;
    tm_self.ss_top = (object_t **)end;
    Obj *hdr = lp + nlp;
    hdr[HDR_FUNC] = func;
    hdr[HDR_GLOBALS] = globals;
    hdr[HDR_BUILTINS] = builtins;
    hdr[HDR_LOCALS] = locals;
    if (co->ncellvars | co->nfreevars) {
        if (!func && co->nfreevars) {
            tm_self.ss_top = (object_t **)lp;
            err_set(E_TypeError, "code object requires a closure");
            return NULL;
        }
        if (call_init_cells(func, co, lp) < 0) {
            tm_self.ss_top = (object_t **)lp;
            return NULL;
        }
    }
    nf->back = back;
    nf->code = co;
    nf->ip = co->code;
    nf->localsplus = lp;
    nf->stack_base = hdr + FRAME_NHDR;
    nf->sp = nf->stack_base;
    nf->end = end;
    nf->nblocks = 0;
    nf->kind = FR_ENTRY;
    vm_ts.frame = nf;
    vm_ts.py_depth++;
    return nf;
}

/* Pop the innermost frame (not generator frames: see gen_*_frame). */
static inline void pop_frame(Frame *f)
{
    vm_ts.py_depth--;
    vm_ts.frame = f->back;
}

/* ------------------------------------------------------------------ */
/* Slow paths                                                         */
/* ------------------------------------------------------------------ */
static Obj load_global_slow(CodeObj *co, uint32_t cidx, Obj globals, Obj builtins, Obj name)
{
    int64_t ix = dict_lookup_str_index(globals, name);
    uint8_t where = GC_GLOBALS;
    Obj v = NULL;
    if (ix >= 0) {
        v = dict_value_at(globals, ix);
    } else if (IS_DICT(builtins)) {
        ix = dict_lookup_str_index(builtins, name);
        if (ix >= 0) {
            v = dict_value_at(builtins, ix);
            where = GC_BUILTINS;
        }
    } else {
        v = vm_getitem(builtins, name);
        if (!v) {
            if (!err_matches(E_KeyError))
                return NULL;
            err_clear();
        }
        return v ? v : (name_error(name), NULL);
    }
    if (!v) {
        name_error(name);
        return NULL;
    }
    if (cache_usable(co, cidx)) {
        GlobalCache *e = GLOBAL_CACHE(co, cidx);
        if (e->fills < CACHE_MAX_FILLS && DICT(globals)->version != 0) {
            VM_WRITE(co->cache);
            e->fills++;
            e->where = where;
            e->gver = DICT(globals)->version;
            e->bver = where == GC_BUILTINS ? DICT(builtins)->version : 0;
            e->index = ix;
        }
    }
    return v;
}

/* Find `name` in t's MRO: the owner type and the entry index in its dict. */
static TypeObj *mro_find(TypeObj *t, Obj name, int64_t *ix_out)
{
    Obj mro = t->mro;
    if (!mro || !IS_TUPLE(mro))
        return NULL;
    int64_t n = TUPLE_LEN(mro);
    for (int64_t i = 0; i < n; i++) {
        TypeObj *b = (TypeObj *)TUPLE_ITEMS(mro)[i];
        if (!b->dict || !IS_DICT(b->dict))
            return NULL;
        int64_t ix = dict_lookup_str_index(b->dict, name);
        if (ix >= 0) {
            *ix_out = ix;
            return b;
        }
    }
    return NULL;
}

static inline bool generic_getattr_type(TypeObj *t)
{
    return t->tp_getattro == T_object->tp_getattro;
}

/* Fill a LOAD_ATTR / LOAD_METHOD cache entry for (type(obj), name). Never
 * allocates. */
static void attr_cache_fill(CodeObj *co, uint32_t cidx, Obj obj, Obj name, bool method)
{
    if (!cache_usable(co, cidx))
        return;
    AttrCache *e = ATTR_CACHE(co, cidx);
    if (e->fills >= CACHE_MAX_FILLS)
        return;
    TypeObj *t = TYPE(obj);
    unsigned tid = TID(obj);
    uint8_t kind;
    uint64_t tver, dver = 0, owner_bits = 0;
    int64_t ix = -1;
    if (tid == TID_MODULE && t == T_module) {
        Obj d = ((ModuleObj *)obj)->dict;
        if (!d || !IS_DICT(d) || vm_lookup_type(t, name))
            return;
        ix = dict_lookup_str_index(d, name);
        if (ix < 0 || DICT(d)->version == 0)
            return;
        kind = AC_MODULE;
        tver = DICT(d)->version;
    } else {
        if (t->version == 0 || !generic_getattr_type(t) || tid == TID_TYPE ||
            tid == TID_FUNCTION || tid == TID_MODULE)
            return;
        bool has_dict = tid == TID_INSTANCE || tid == TID_EXCEPTION;
        TypeObj *owner = mro_find(t, name, &ix);
        if (!owner) {
            if (!has_dict)
                return;
            kind = AC_INSTANCE;
        } else {
            Obj v = dict_value_at(owner->dict, ix);
            if (!v)
                return;
            TypeObj *vt = TYPE(v);
            if (vt->tp_descr_set)
                kind = AC_DATA_DESCR;
            else if (method && (IS_FUNCTION(v) || vm_is_method_descr(v)))
                kind = AC_METHOD;
            else
                kind = AC_TYPE_ATTR;
            dver = DICT(owner->dict)->version;
            owner_bits = (uint64_t)(uintptr_t)owner;
        }
        tver = t->version;
    }
    VM_WRITE(co->cache);
    e->fills++;
    e->kind = kind;
    e->tver = tver;
    e->dver = dver;
    e->owner = owner_bits;
    e->index = (int32_t)ix;
}

static void store_attr_cache_fill(CodeObj *co, uint32_t cidx, Obj obj, Obj name)
{
    if (!cache_usable(co, cidx))
        return;
    AttrCache *e = ATTR_CACHE(co, cidx);
    if (e->fills >= CACHE_MAX_FILLS)
        return;
    TypeObj *t = TYPE(obj);
    unsigned tid = TID(obj);
    if ((tid != TID_INSTANCE && tid != TID_EXCEPTION) || t->version == 0 ||
        t->tp_setattro != T_object->tp_setattro || !instance_dict(obj))
        return;
    int64_t ix;
    TypeObj *owner = mro_find(t, name, &ix);
    if (owner) {
        Obj v = dict_value_at(owner->dict, ix);
        if (!v || TYPE(v)->tp_descr_set)
            return;
    }
    VM_WRITE(co->cache);
    e->fills++;
    e->kind = AC_STORE_INST;
    e->tver = t->version;
    e->dver = 0;
    e->owner = 0;
    e->index = -1;
}

/* LOAD_METHOD without a cache hit: pushes (meth, obj) or (attr, NULL) into out. */
static int load_method_slow(CodeObj *co, uint32_t cidx, Obj *out /* 2 root slots: out[0] = obj */, Obj name)
{
    Obj obj = out[0];
    TypeObj *t = TYPE(obj);
    attr_cache_fill(co, cidx, obj, name, true);
    if (generic_getattr_type(t) && TID(obj) != TID_TYPE && TID(obj) != TID_MODULE) {
        Obj descr = vm_lookup_type(t, name);
        if (descr && (IS_FUNCTION(descr) || vm_is_method_descr(descr))) {
            Obj d = instance_dict(obj);
            Obj v = d ? dict_getitem(d, name) : NULL;
            if (v) {
                out[0] = v;
                out[1] = NULL;
                return 0;
            }
            if (err_occurred())
                return -1;
            out[0] = descr;
            out[1] = obj;
            return 0;
        }
    }
    Obj v = vm_getattr(obj, name);
    if (!v)
        return -1;
    out[0] = v;
    out[1] = NULL;
    return 0;
}

static Obj load_name(Frame *f, Obj name)
{
    Obj *hdr = FRAME_HDR(f);
    Obj locals = hdr[HDR_LOCALS];
    Obj v;
    if (locals) {
        if (IS_DICT(locals)) {
            v = dict_getitem(locals, name);
            if (v)
                return v;
            if (err_occurred())
                return NULL;
        } else {
            v = vm_getitem(locals, name);
            if (v)
                return v;
            if (!err_matches(E_KeyError))
                return NULL;
            err_clear();
        }
    }
    Obj globals = hdr[HDR_GLOBALS];
    if (globals != locals) {
        v = dict_getitem(globals, name);
        if (v)
            return v;
        if (err_occurred())
            return NULL;
    }
    Obj b = hdr[HDR_BUILTINS];
    if (IS_DICT(b)) {
        v = dict_getitem(b, name);
        if (v)
            return v;
        if (err_occurred())
            return NULL;
    } else {
        v = vm_getitem(b, name);
        if (v)
            return v;
        if (!err_matches(E_KeyError))
            return NULL;
        err_clear();
    }
    name_error(name);
    return NULL;
}

static int store_name(Frame *f, Obj name, Obj v)
{
    Obj locals = FRAME_HDR(f)[HDR_LOCALS];
    if (!locals) {
        err_format(E_SystemError, "no locals found when storing '%s'", str_cstr(name));
        return -1;
    }
    if (IS_DICT(locals))
        return dict_setitem(locals, name, v);
    return vm_setitem(locals, name, v);
}

static int delete_name(Frame *f, Obj name)
{
    Obj locals = FRAME_HDR(f)[HDR_LOCALS];
    if (!locals) {
        err_format(E_SystemError, "no locals when deleting '%s'", str_cstr(name));
        return -1;
    }
    int r = IS_DICT(locals) ? dict_delitem(locals, name) : vm_delitem(locals, name);
    if (r < 0 && err_matches(E_KeyError)) {
        err_clear();
        name_error(name);
    }
    return r;
}

static Obj load_classderef(Frame *f, int i)
{
    CodeObj *co = f->code;
    Obj name = code_localname(co, i);
    Obj locals = FRAME_HDR(f)[HDR_LOCALS];
    if (locals) {
        Obj v;
        if (IS_DICT(locals)) {
            v = dict_getitem(locals, name);
            if (v)
                return v;
            if (err_occurred())
                return NULL;
        } else {
            v = vm_getitem(locals, name);
            if (v)
                return v;
            if (!err_matches(E_KeyError))
                return NULL;
            err_clear();
        }
    }
    Obj v = ((CellObj *)f->localsplus[i])->ref;
    if (!v)
        deref_error(co, i);
    return v;
}

/* `raise exc [from cause]`: sets the current exception (with context). */
static int do_raise(Obj exc, Obj cause)
{
    Obj *r = vm_roots(2);
    r[0] = exc;
    r[1] = cause;
    if (IS_TYPE(exc)) {
        if (!type_is_subtype((TypeObj *)exc, E_BaseException)) {
            err_set(E_TypeError, "exceptions must derive from BaseException");
            goto fail;
        }
        Obj inst = vm_call0(exc);
        if (!inst)
            goto fail;
        if (!IS_EXCEPTION(inst)) {
            err_format(E_TypeError, "calling %s should have returned an instance of BaseException, not %s",
                       type_name_of_type((TypeObj *)r[0]), type_name(inst));
            goto fail;
        }
        r[0] = inst;
    } else if (!IS_EXCEPTION(exc)) {
        err_set(E_TypeError, "exceptions must derive from BaseException");
        goto fail;
    }
    if (r[1]) {
        Obj c = r[1];
        if (IS_TYPE(c) && type_is_subtype((TypeObj *)c, E_BaseException)) {
            c = vm_call0(c);
            if (!c)
                goto fail;
            if (!IS_EXCEPTION(c)) {
                err_format(E_TypeError, "calling %s should have returned an instance of BaseException, not %s",
                           type_name_of_type((TypeObj *)r[1]), type_name(c));
                goto fail;
            }
        } else if (IS_NONE(c)) {
            c = NULL;
        } else if (!IS_EXCEPTION(c)) {
            err_set(E_TypeError, "exception causes must derive from BaseException");
            goto fail;
        }
        VM_WRITE(r[0]);
        ((ExceptionObj *)r[0])->cause = c;
        ((ExceptionObj *)r[0])->suppress_context = 1;
    }
    eval_chain_context(r[0], vm_ts.roots[ROOT_HANDLED_EXC]);
    eval_set_exc(r[0]);
    vm_unroots(r);
    return 0;
fail:
    vm_unroots(r);
    return -1;
}

static bool valid_exc_class(Obj t)
{
    if (IS_TYPE(t))
        return type_is_subtype((TypeObj *)t, E_BaseException);
    if (IS_TUPLE(t)) {
        for (int64_t i = 0; i < TUPLE_LEN(t); i++)
            if (!valid_exc_class(TUPLE_ITEMS(t)[i]))
                return false;
        return true;
    }
    return false;
}

/* UNPACK_SEQUENCE for non-fast cases: results into out[0..n) (v1..vn). */
static int unpack_iterable(Obj seq, Obj *out, int n)
{
    Obj *r = vm_roots(2);
    r[0] = vm_iter(seq);
    if (!r[0])
        goto fail;
    for (int i = 0; i < n; i++) {
        Obj v = vm_next(r[0]);
        if (!v) {
            if (!err_occurred())
                err_format(E_ValueError, "not enough values to unpack (expected %d, got %d)", n, i);
            goto fail;
        }
        out[i] = v;
    }
    Obj extra = vm_next(r[0]);
    if (extra) {
        err_format(E_ValueError, "too many values to unpack (expected %d)", n);
        goto fail;
    }
    if (err_occurred())
        goto fail;
    vm_unroots(r);
    return 0;
fail:
    vm_unroots(r);
    return -1;
}

/* UNPACK_EX: sp[-1] is the sequence; writes the results over it. */
static Obj *unpack_ex(Obj *sp, int before, int after)
{
    Obj *r = vm_roots(2);
    Obj seq = sp[-1];
    r[0] = vm_list_from_iter(seq);
    if (!r[0]) {
        if (err_matches(E_TypeError) && !vm_hasattr(seq, str_intern_cstr("__iter__")) &&
            !vm_hasattr(seq, str_intern_cstr("__getitem__"))) {
            err_clear();
            err_format(E_TypeError, "cannot unpack non-iterable %s object", type_name(sp[-1]));
        }
        vm_unroots(r);
        return NULL;
    }
    int64_t n = LIST_LEN(r[0]);
    if (n < before + after) {
        err_format(E_ValueError, "not enough values to unpack (expected at least %d, got %" PRId64 ")",
                   before + after, n);
        vm_unroots(r);
        return NULL;
    }
    int64_t mid = n - before - after;
    r[1] = list_new(mid);
    if (!r[1]) {
        vm_unroots(r);
        return NULL;
    }
    Obj list = r[0], midl = r[1];
    VM_WRITE(LIST(midl)->array);
    for (int64_t i = 0; i < mid; i++)
        LIST_ITEMS(midl)[i] = LIST_ITEMS(list)[before + i];
    sp--;
    for (int64_t i = n - 1; i >= n - after; i--)
        *sp++ = LIST_ITEMS(list)[i];
    *sp++ = midl;
    for (int64_t i = before - 1; i >= 0; i--)
        *sp++ = LIST_ITEMS(list)[i];
    vm_unroots(r);
    return sp;
}

static int list_extend_iter(Obj list, Obj iterable)
{
    Obj *r = vm_roots(3);
    r[0] = list;
    r[1] = iterable;
    if (IS_LIST(iterable) || IS_TUPLE(iterable)) {
        for (int64_t i = 0;; i++) {
            Obj it = r[1];
            int64_t n = IS_LIST(it) ? LIST_LEN(it) : TUPLE_LEN(it);
            if (i >= n)
                break;
            Obj v = IS_LIST(it) ? LIST_ITEMS(it)[i] : TUPLE_ITEMS(it)[i];
            if (list_append(r[0], v) < 0)
                goto fail;
        }
        vm_unroots(r);
        return 0;
    }
    r[2] = vm_iter(iterable);
    if (!r[2]) {
        if (err_matches(E_TypeError)) {
            err_clear();
            err_format(E_TypeError, "Value after * must be an iterable, not %s", type_name(r[1]));
        }
        goto fail;
    }
    for (;;) {
        Obj v = vm_next(r[2]);
        if (!v) {
            if (err_occurred())
                goto fail;
            break;
        }
        if (list_append(r[0], v) < 0)
            goto fail;
    }
    vm_unroots(r);
    return 0;
fail:
    vm_unroots(r);
    return -1;
}

static int set_update_iter(Obj set, Obj iterable)
{
    Obj *r = vm_roots(2);
    r[0] = set;
    r[1] = vm_iter(iterable);
    if (!r[1])
        goto fail;
    for (;;) {
        Obj v = vm_next(r[1]);
        if (!v) {
            if (err_occurred())
                goto fail;
            break;
        }
        if (set_add(r[0], v) < 0)
            goto fail;
    }
    vm_unroots(r);
    return 0;
fail:
    vm_unroots(r);
    return -1;
}

static int dict_update_mapping(Obj d, Obj m)
{
    if (!IS_DICT(m) && !vm_hasattr(m, str_intern_cstr("keys"))) {
        err_format(E_TypeError, "'%s' object is not a mapping", type_name(m));
        return -1;
    }
    return dict_update(d, m);
}

/* f(**m): merge m into the kwargs dict d; duplicates are errors. */
static int dict_merge_call(Obj d, Obj m, Obj func)
{
    Obj *r = vm_roots(5);
    r[0] = d;
    r[1] = m;
    r[2] = func;
    if (!IS_DICT(m)) {
        if (!vm_hasattr(m, str_intern_cstr("keys"))) {
            const char *fname = r[2] ? func_display_name(r[2]) : "function";
            err_format(E_TypeError, "%s argument after ** must be a mapping, not %s", fname, type_name(r[1]));
            goto fail;
        }
        r[3] = vm_call_method(m, "keys", NULL, 0);
        if (!r[3])
            goto fail;
        r[3] = vm_list_from_iter(r[3]);
        if (!r[3])
            goto fail;
        for (int64_t i = 0; i < LIST_LEN(r[3]); i++) {
            r[4] = LIST_ITEMS(r[3])[i];
            if (!IS_STR(r[4])) {
                err_set(E_TypeError, "keywords must be strings");
                goto fail;
            }
            Obj v = vm_getitem(r[1], r[4]);
            if (!v)
                goto fail;
            Obj old = dict_getitem(r[0], r[4]);
            if (old) {
                err_format(E_TypeError, "%s got multiple values for keyword argument '%s'",
                           r[2] ? func_display_name(r[2]) : "function", str_cstr(r[4]));
                goto fail;
            }
            if (dict_setitem(r[0], r[4], v) < 0)
                goto fail;
        }
        vm_unroots(r);
        return 0;
    }
    int64_t pos = 0;
    Obj k, v;
    while (dict_next(r[1], &pos, &k, &v)) {
        if (!IS_STR(k)) {
            err_set(E_TypeError, "keywords must be strings");
            goto fail;
        }
        if (dict_getitem(r[0], k)) {
            err_format(E_TypeError, "%s got multiple values for keyword argument '%s'",
                       r[2] ? func_display_name(r[2]) : "function", str_cstr(k));
            goto fail;
        }
        r[3] = k;
        r[4] = v;
        if (dict_setitem(r[0], r[3], r[4]) < 0)
            goto fail;
        k = r[3];
    }
    vm_unroots(r);
    return 0;
fail:
    vm_unroots(r);
    return -1;
}

static Obj import_from(Obj module, Obj name)
{
    Obj *r = vm_roots(4);
    r[0] = module;
    r[1] = name;
    Obj v = vm_getattr_opt(module, name);
    if (v || err_occurred()) {
        vm_unroots(r);
        return v;
    }
    r[2] = vm_getattr_opt(r[0], str_intern_cstr("__name__"));
    if (!r[2] && err_occurred())
        err_clear();
    if (r[2] && IS_STR(r[2])) {
        r[3] = str_from_format("%s.%s", str_cstr(r[2]), str_cstr(r[1]));
        if (!r[3]) {
            vm_unroots(r);
            return NULL;
        }
        v = dict_getitem(g_modules, r[3]);
        if (v) {
            vm_unroots(r);
            return v;
        }
        if (err_occurred())
            err_clear();
    }
    r[3] = vm_getattr_opt(r[0], str_intern_cstr("__file__"));
    if (!r[3] && err_occurred())
        err_clear();
    StrBuf b;
    sb_init(&b);
    sb_adds(&b, "cannot import name '");
    sb_add_str(&b, r[1]);
    sb_adds(&b, "' from '");
    if (r[2] && IS_STR(r[2]))
        sb_add_str(&b, r[2]);
    else
        sb_adds(&b, "<unknown module name>");
    sb_adds(&b, "' (");
    if (r[3] && IS_STR(r[3]))
        sb_add_str(&b, r[3]);
    else
        sb_adds(&b, "unknown location");
    sb_adds(&b, ")");
    Obj msg = sb_finish(&b);
    if (msg)
        err_set_value(E_ImportError, msg);
    vm_unroots(r);
    return NULL;
}

static int import_star(Frame *f, Obj module)
{
    Obj *r = vm_roots(4);
    r[0] = module;
    Obj locals = FRAME_HDR(f)[HDR_LOCALS];
    if (!locals)
        locals = FRAME_HDR(f)[HDR_GLOBALS];
    r[1] = locals;
    r[2] = vm_getattr_opt(module, str_intern_cstr("__all__"));
    if (!r[2] && err_occurred())
        goto fail;
    if (r[2]) {
        r[2] = vm_list_from_iter(r[2]);
        if (!r[2])
            goto fail;
        for (int64_t i = 0; i < LIST_LEN(r[2]); i++) {
            r[3] = LIST_ITEMS(r[2])[i];
            Obj v = vm_getattr(r[0], r[3]);
            if (!v)
                goto fail;
            if ((IS_DICT(r[1]) ? dict_setitem(r[1], r[3], v) : vm_setitem(r[1], r[3], v)) < 0)
                goto fail;
        }
    } else {
        Obj d = TID(module) == TID_MODULE ? ((ModuleObj *)module)->dict : NULL;
        if (!d) {
            d = vm_getattr_cstr(module, "__dict__");
            if (!d)
                goto fail;
        }
        r[2] = dict_keys_list(d);
        if (!r[2])
            goto fail;
        for (int64_t i = 0; i < LIST_LEN(r[2]); i++) {
            r[3] = LIST_ITEMS(r[2])[i];
            if (IS_STR(r[3]) && str_cstr(r[3])[0] == '_')
                continue;
            Obj v = vm_getattr(r[0], r[3]);
            if (!v)
                goto fail;
            if ((IS_DICT(r[1]) ? dict_setitem(r[1], r[3], v) : vm_setitem(r[1], r[3], v)) < 0)
                goto fail;
        }
    }
    vm_unroots(r);
    return 0;
fail:
    vm_unroots(r);
    return -1;
}

/* SETUP_WITH: sp[-1] = mgr becomes bound __exit__; *out = __enter__() result. */
static Obj setup_with(Obj *slot)
{
    Obj *r = vm_roots(3);
    r[0] = *slot;
    Obj enter = vm_lookup_special(r[0], "__enter__");
    if (!enter) {
        err_format(E_TypeError, "'%s' object does not support the context manager protocol", type_name(r[0]));
        goto fail;
    }
    r[1] = enter;
    Obj exit = vm_lookup_special(r[0], "__exit__");
    if (!exit) {
        err_format(E_TypeError, "'%s' object does not support the context manager protocol (missed __exit__ method)",
                   type_name(r[0]));
        goto fail;
    }
    descrgetfunc g = TYPE(exit)->tp_descr_get;
    if (g) {
        exit = g(exit, r[0], (Obj)TYPE(r[0]));
        if (!exit)
            goto fail;
    }
    *slot = exit;
    g = TYPE(r[1])->tp_descr_get;
    if (g) {
        r[1] = g(r[1], r[0], (Obj)TYPE(r[0]));
        if (!r[1])
            goto fail;
    }
    Obj res = vm_call0(r[1]);
    vm_unroots(r);
    return res;
fail:
    vm_unroots(r);
    return NULL;
}

static Obj make_function(Obj *sp, int flags, Obj globals)
{
    /* stack: [defaults] [kwdefaults] [closure] code */
    Obj code = sp[-1];
    Obj fn = function_new(code, globals, ((CodeObj *)code)->qualname);
    if (!fn)
        return NULL;
    FunctionObj *F = (FunctionObj *)fn;
    Obj *p = sp - 1;
    if (flags & 8)
        F->closure = *--p;
    if (flags & 2)
        F->kwdefaults = *--p;
    if (flags & 1)
        F->defaults = *--p;
    return fn;
}

static Obj format_value(Obj v, int conv, Obj spec)
{
    Obj *r = vm_roots(2);
    r[1] = spec;
    switch (conv) {
    case 1: v = vm_str(v); break;
    case 2: v = vm_repr(v); break;
    case 3: v = vm_ascii(v); break;
    default: break;
    }
    if (!v) {
        vm_unroots(r);
        return NULL;
    }
    if (TID(v) == TID_STR && (!r[1] || (IS_STR(r[1]) && str_len(r[1]) == 0))) {
        vm_unroots(r);
        return v;
    }
    Obj res = vm_format(v, r[1] ? r[1] : g_empty_str);
    vm_unroots(r);
    return res;
}

static Obj build_string(Obj *items, int n)
{
    StrBuf b;
    sb_init(&b);
    for (int i = 0; i < n; i++) {
        if (!IS_STR(items[i])) {
            sb_free(&b);
            err_set(E_SystemError, "BUILD_STRING of a non-str");
            return NULL;
        }
        sb_add_str(&b, items[i]);
    }
    return sb_finish(&b);
}

static Obj build_set(Obj *items, int n)
{
    Obj *r = vm_roots(1);
    r[0] = set_new(NULL);
    if (!r[0])
        goto fail;
    for (int i = 0; i < n; i++)
        if (set_add(r[0], items[i]) < 0)
            goto fail;
    Obj s = r[0];
    vm_unroots(r);
    return s;
fail:
    vm_unroots(r);
    return NULL;
}

static Obj build_map(Obj *items, int n)
{
    Obj *r = vm_roots(1);
    r[0] = dict_new_presized(n);
    if (!r[0])
        goto fail;
    for (int i = 0; i < n; i++)
        if (dict_setitem(r[0], items[2 * i], items[2 * i + 1]) < 0)
            goto fail;
    Obj d = r[0];
    vm_unroots(r);
    return d;
fail:
    vm_unroots(r);
    return NULL;
}

static Obj build_const_key_map(Obj *items, int n)
{
    /* items[0..n) values, items[n] keys tuple */
    Obj *r = vm_roots(1);
    if (!IS_TUPLE(items[n]) || TUPLE_LEN(items[n]) != n) {
        err_set(E_SystemError, "bad BUILD_CONST_KEY_MAP keys argument");
        goto fail;
    }
    r[0] = dict_new_presized(n);
    if (!r[0])
        goto fail;
    for (int i = 0; i < n; i++)
        if (dict_setitem(r[0], TUPLE_ITEMS(items[n])[i], items[i]) < 0)
            goto fail;
    Obj d = r[0];
    vm_unroots(r);
    return d;
fail:
    vm_unroots(r);
    return NULL;
}

static Obj list_to_tuple(Obj *slot)
{
    int64_t n = LIST_LEN(*slot);
    Obj t = tuple_new(n);
    if (!t)
        return NULL;
    Obj l = *slot;
    n = n < LIST_LEN(l) ? n : LIST_LEN(l);
    for (int64_t i = 0; i < n; i++)
        TUPLE_ITEMS(t)[i] = LIST_ITEMS(l)[i];
    return t;
}

/* CALL_FUNCTION_EX: build an argument vector on the shadow stack. Returns the
 * vector (v[0] = kwnames or NULL, args from v[1]) or NULL; *nargs_out counts
 * the positional arguments. The caller resets ss_top. */
static Obj *ex_call_args(Obj func, Obj self, Obj args, Obj kwargs, size_t *nargs_out)
{
    Obj *r = vm_roots(4);
    r[0] = func;
    r[1] = self;
    r[2] = args;
    r[3] = kwargs;
    if (!IS_TUPLE(r[2])) {
        Obj t = vm_tuple_from_iter(r[2]);
        if (!t) {
            if (err_matches(E_TypeError)) {
                err_clear();
                err_format(E_TypeError, "%s argument after * must be an iterable, not %s",
                           func_display_name(r[0]), type_name(r[2]));
            }
            return NULL;
        }
        r[2] = t;
    }
    if (r[3] && !IS_DICT(r[3])) {
        Obj d = dict_new();
        if (!d)
            return NULL;
        Obj m = r[3];
        r[3] = d;
        Obj *q = vm_roots(1);
        q[0] = m;
        if (dict_merge_call(r[3], q[0], r[0]) < 0)
            return NULL;
        vm_unroots(q);
    }
    int64_t npos = TUPLE_LEN(r[2]) + (r[1] ? 1 : 0);
    int64_t nkw = r[3] ? dict_len(r[3]) : 0;
    Obj *v = vm_roots((int)(1 + npos + nkw));
    int64_t k = 1;
    if (r[1])
        v[k++] = r[1];
    for (int64_t i = 0; i < TUPLE_LEN(r[2]); i++)
        v[k++] = TUPLE_ITEMS(r[2])[i];
    if (nkw) {
        Obj names = tuple_new(nkw);
        if (!names)
            return NULL;
        int64_t pos = 0, j = 0;
        Obj key, val;
        while (j < nkw && dict_next(r[3], &pos, &key, &val)) {
            if (!IS_STR(key)) {
                err_set(E_TypeError, "keywords must be strings");
                return NULL;
            }
            TUPLE_ITEMS(names)[j] = key;
            v[k++] = val;
            j++;
        }
        v[0] = names;
    }
    *nargs_out = (size_t)npos;
    return v;
}

/* Convert StopIteration escaping a generator into RuntimeError (PEP 479). */
static void gen_stopiteration_to_runtime_error(void)
{
    Obj exc = vm_ts.roots[ROOT_CUR_EXC];
    if (!exc || !vm_isinstance_type(exc, E_StopIteration))
        return;
    Obj *r = vm_roots(2);
    r[0] = exc;
    Obj msg = str_from_cstr("generator raised StopIteration");
    if (msg) {
        r[1] = exc_new(E_RuntimeError, &msg, 1);
        if (r[1]) {
            VM_WRITE(r[1]);
            ((ExceptionObj *)r[1])->cause = r[0];
            ((ExceptionObj *)r[1])->context = r[0];
            ((ExceptionObj *)r[1])->suppress_context = 1;
            eval_set_exc(r[1]);
        }
    }
    vm_unroots(r);
}

/* ------------------------------------------------------------------ */
/* Yield points: loop back-edges and returns.                          */
/* ------------------------------------------------------------------ */
static inline void yield_point(void)
{
#if TM_STM
    /* Transactions break only at the outermost C level (see ARCHITECTURE.md). */
    if (vm_ts.c_depth == 0)
        tm_yield();
#else
    tm_yield();
#endif
}
