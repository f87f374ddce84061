/* The eval loop: one C loop runs every Python-to-Python call, generator
 * resumption (FOR_ITER, YIELD_FROM) and return; C code re-enters it only
 * through eval_run (a new C level). See eval.h for the frame layout. */
#include "eval.h"
#include "compiler/compile.h"
#include "objects/containers.h"
#include "objects/objects.h"

#include <inttypes.h>
#include <string.h>

_Static_assert(FRAME_MAX_BLOCKS >= COMPILE_MAX_BLOCK_DEPTH, "the block stack is smaller than the compiler assumes");

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
    AC_SLOT,        /* a __slots__ member on the type: InstanceHObj.slots[slot] (tver, owner dict dver) */
    AC_STORE_SLOT,  /* STORE_ATTR into a __slots__ member, as AC_SLOT */
    AC_STORE_DESCR, /* STORE_ATTR through another data descriptor on the type (owner dict) */
    AC_CLASS_ATTR,  /* an attribute of a class whose metatype is `type`: tver is the class's version */
};
VM_STRUCT(AttrCache) {
    uint64_t tver;      /* TypeObj.version (or module dict version) */
    uint64_t dver;      /* owner type's dict version */
    uint64_t owner;     /* owner type (pinned; alive while tver matches) */
    int32_t index;      /* entry index in owner dict / module dict */
    uint8_t kind;       /* AC_* */
    uint8_t fills;
    uint16_t slot;      /* AC_SLOT, AC_STORE_SLOT: the slot index */
};

_Static_assert(sizeof(struct GlobalCache_) <= CACHE_ENTRY_SIZE, "cache entry");
_Static_assert(sizeof(struct AttrCache_) <= CACHE_ENTRY_SIZE, "cache entry");

#define CACHE_BASE(co) ((unsigned char __seg_gs *)((RawObj *)(co)->cache)->data)
#define GLOBAL_CACHE(co, i) ((GlobalCache *)(CACHE_BASE(co) + (size_t)(i) * CACHE_ENTRY_SIZE))
#define ATTR_CACHE(co, i) ((AttrCache *)(CACHE_BASE(co) + (size_t)(i) * CACHE_ENTRY_SIZE))

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
    const int32_t __seg_gs *lines = (const int32_t __seg_gs *)RAW(co->lines)->data;
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
        return INST(obj)->dict;
    return NULL;
}

static void eval_chain_context(Obj exc, Obj handled)
{
    if (!handled || handled == exc || !IS_EXCEPTION(exc) || !IS_EXCEPTION(handled))
        return;
    /* Cut a cycle: if exc is already in handled's context chain, unlink it. */
    Obj o = handled;
    for (int guard = 0; guard < 10000; guard++) {
        Obj ctx = EXC(o)->context;
        if (!ctx)
            break;
        if (ctx == exc) {
            VM_WRITE(o);
            EXC(o)->context = NULL;
            break;
        }
        o = ctx;
    }
    VM_WRITE(exc);
    EXC(exc)->context = handled;
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

/* name in a namespace (a dict, or any mapping for class bodies / exec):
 * the value, or NULL: missing (no error) or an error (err_occurred). */
static Obj namespace_get(Obj ns, Obj name)
{
    if (IS_DICT(ns))
        return dict_getitem(ns, name);
    Obj v = vm_getitem(ns, name);
    if (!v && err_matches(E_KeyError))
        err_clear();
    return v;
}

/* ------------------------------------------------------------------ */
/* Frames                                                             */
/* ------------------------------------------------------------------ */
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
    bool bind_in_place = inplace && !kwnames && nargs == (size_t)co->argcount && co->kwonlyargcount == 0 &&
                         !(flags & (CO_VARARGS | CO_VARKEYWORDS));
    Obj *lp = bind_in_place ? args : old_top;
    Obj *end = lp + nlp + FRAME_NHDR + co->stacksize;
    Frame *nf = frame_next(end);
    if (unlikely(!nf))
        return NULL;
    if (likely(bind_in_place)) {
        for (Obj *p = lp + nargs; p < end; p++)
            *p = NULL;
        /* Never shrink below the caller's slots: they must stay scanned by
         * the GC, or they would hold stale references when exposed again. */
        if (end < old_top)
            end = old_top;
        tm_self.ss_top = (object_t **)end;
    } else {
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
    frame_link(nf, co, co->code, lp, end, FR_CALL);
    return nf;
}

/* The common call from the loop, inline: positional arguments in place that
 * match the parameters exactly, no cells, not a generator. NULL: not such a
 * call (or the recursion limit): push_function_frame then. */
static inline __attribute__((always_inline)) Frame *push_simple_frame(Obj func, Obj *args, size_t nargs)
{
    CodeObj *co = (CodeObj *)((FunctionObj *)func)->code;
    if (unlikely(nargs != (size_t)co->argcount || co->kwonlyargcount != 0 ||
                 (co->flags & (CO_VARARGS | CO_VARKEYWORDS | CO_GENERATOR)) || (co->ncellvars | co->nfreevars)))
        return NULL;
    Obj *old_top = (Obj *)tm_self.ss_top;
    Obj *lp = args;
    int nlp = co->nlocals;
    Obj *end = lp + nlp + FRAME_NHDR + co->stacksize;
    Frame *nf = frame_next(end);
    if (unlikely(!nf))
        return NULL;   /* push_function_frame raises it again */
    for (Obj *p = lp + nargs; p < end; p++)
        *p = NULL;
    /* as push_function_frame: never below the caller's slots */
    if (end < old_top)
        end = old_top;
    tm_self.ss_top = (object_t **)end;
    Obj *hdr = lp + nlp;
    hdr[HDR_FUNC] = func;
    hdr[HDR_GLOBALS] = ((FunctionObj *)func)->globals;
    hdr[HDR_BUILTINS] = ((FunctionObj *)func)->builtins;
    frame_link(nf, co, co->code, lp, end, FR_CALL);
    return nf;
}

static Frame *eval_push_function(Obj func, Obj *args, size_t nargs, Obj kwnames, Obj *gen_out)
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
    Frame *nf = frame_next(end);
    if (!nf)
        return NULL;
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
    frame_link(nf, co, co->code, lp, end, FR_ENTRY);
    return nf;
}

/* Pop the innermost frame (not generator frames: see gen_*_frame). */
static inline void pop_frame(Frame *f)
{
    if (unlikely(FRAME_HDR(f)[HDR_FRAMEOBJ] != NULL))
        eval_frame_ended(f);
    vm_ts.py_depth--;
    vm_ts.frame = f->back;
    vm_tx_frame_popped(f->back, f->localsplus);
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
        v = namespace_get(builtins, name);
        if (!v && !err_occurred())
            name_error(name);
        return v;
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

static inline bool generic_getattr_type(TypeObj *t)
{
    return t->tp_getattro == T_object->tp_getattro;
}

/* What an attribute lookup on instances of one type finds (never allocates):
 * from the type attribute cache (type_lookup), classified. Returns false when
 * it cannot be used (custom getattr, classes, ...). */
typedef struct AttrInfo {
    uint8_t kind;        /* AC_INSTANCE, AC_TYPE_ATTR or AC_DATA_DESCR */
    uint64_t dver;       /* owner dict version */
    uint64_t owner;      /* owner type */
    int64_t index;       /* entry index in the owner dict */
    Obj value;           /* what the type has (NULL for AC_INSTANCE) */
} AttrInfo;

static inline __attribute__((always_inline)) bool attr_analyze(TypeObj *t, unsigned tid, Obj name, AttrInfo *ai)
{
    if (!generic_getattr_type(t) || tid == TID_TYPE || tid == TID_FUNCTION || tid == TID_MODULE)
        return false;
    const TypeAttr *at = type_lookup_where(t, name);
    if (!at->owner) {
        if (tid != TID_INSTANCE && tid != TID_EXCEPTION)
            return false;
        ai->kind = AC_INSTANCE;
        ai->value = NULL;
        ai->dver = 0;
        ai->owner = 0;
        ai->index = -1;
        return true;
    }
    Obj v = dict_value_at(at->owner->dict, at->ix);
    if (!v)
        return false;
    ai->kind = TYPE(v)->tp_descr_set ? AC_DATA_DESCR : AC_TYPE_ATTR;
    ai->value = v;
    ai->dver = at->dver;
    ai->owner = (uint64_t)(uintptr_t)at->owner;
    ai->index = at->ix;
    return true;
}

/* Whether cls.name can be cached as AC_CLASS_ATTR: cls's metatype is
 * `type` itself (no metaclass getattr, no metaclass attribute in the way:
 * type's own dict is immutable, so a data descriptor of it for name, which
 * type_getattro would prefer, is checked once here), and name is on cls's
 * MRO. Never allocates. */
static bool class_attr_cacheable(TypeObj *cls, Obj name)
{
    if (TYPE((Obj)cls) != T_type || type_version(cls) == 0 || !cls->mro)
        return false;
    const TypeAttr *meta = type_lookup_where(T_type, name);
    Obj mv = type_attr_value(meta);
    if (meta->owner && (!mv || (TYPE(mv)->tp_descr_get && TYPE(mv)->tp_descr_set)))
        return false;
    Obj v = type_attr_value(type_lookup_where(cls, name));
    return v != NULL;
}

/* An AC_CLASS_ATTR hit: 1 with *out set, 0 a miss, -1 an error (a
 * descriptor's __get__ raised). What type_getattro returns for it. */
static inline int class_attr_hit(AttrCache *e, Obj obj, Obj *out)
{
    if (TID(obj) != TID_TYPE || TYPE(obj) != T_type || type_version((TypeObj *)obj) != e->tver)
        return 0;
    Obj od = ((TypeObj *)(uintptr_t)e->owner)->dict;
    if (DICT(od)->version != e->dver)
        return 0;
    Obj v = dict_value_at(od, e->index);
    if (!v)
        return 0;
    descrgetfunc get = TYPE(v)->tp_descr_get;
    if (get && !(v = get(v, NULL, obj)))
        return -1;
    *out = v;
    return 1;
}

/* The slots array of an instance when its type still has the __slots__
 * member an AC_SLOT / AC_STORE_SLOT entry was filled for, and the array
 * holds that slot; else NULL. */
static inline Obj slot_array_hit(AttrCache *e, Obj obj)
{
    if (type_version(TYPE(obj)) != e->tver || DICT(((TypeObj *)(uintptr_t)e->owner)->dict)->version != e->dver)
        return NULL;
    Obj arr = INSTH(obj)->slots;
    return arr && e->slot < ARRAY(arr)->length ? arr : NULL;
}

/* Fill a LOAD_ATTR / LOAD_METHOD cache entry for (type(obj), name). Never
 * allocates. */
static __attribute__((noinline)) void attr_cache_refill(CodeObj *co, uint32_t cidx, Obj obj, Obj name,
                                                      bool method)
{
    AttrCache *e = ATTR_CACHE(co, cidx);
    TypeObj *t = TYPE(obj);
    unsigned tid = TID(obj);
    uint8_t kind;
    uint64_t tver, dver = 0, owner_bits = 0;
    int64_t ix = -1;
    uint16_t slot = 0;
    if (tid == TID_MODULE && t == T_module) {
        Obj d = ((ModuleObj *)obj)->dict;
        if (!d || !IS_DICT(d) || vm_lookup_type(t, name))
            return;
        ix = dict_lookup_str_index(d, name);
        if (ix < 0 || DICT(d)->version == 0)
            return;
        kind = AC_MODULE;
        tver = DICT(d)->version;
    } else if (tid == TID_TYPE) {
        if (!class_attr_cacheable((TypeObj *)obj, name))
            return;
        const TypeAttr *at = type_lookup_where((TypeObj *)obj, name);
        kind = AC_CLASS_ATTR;
        tver = type_version((TypeObj *)obj);
        dver = at->dver;
        owner_bits = (uint64_t)(uintptr_t)at->owner;
        ix = at->ix;
    } else {
        AttrInfo ai;
        if (type_version(t) == 0 || !attr_analyze(t, tid, name, &ai))
            return;
        kind = ai.kind;
        if (kind == AC_TYPE_ATTR && method && (IS_FUNCTION(ai.value) || vm_is_method_descr(ai.value)))
            kind = AC_METHOD;
        if (kind == AC_DATA_DESCR && !method && tid == TID_INSTANCE) {
            int64_t s = member_slot_index(ai.value);
            if (s >= 0 && s <= UINT16_MAX) {
                kind = AC_SLOT;
                slot = (uint16_t)s;
            }
        }
        dver = ai.dver;
        owner_bits = ai.owner;
        ix = ai.index;
        tver = type_version(t);
    }
    VM_WRITE(co->cache);
    e->fills++;
    e->kind = kind;
    e->tver = tver;
    e->dver = dver;
    e->owner = owner_bits;
    e->index = (int32_t)ix;
    e->slot = slot;
}

/* AC_INSTANCE and AC_STORE_INST keep in `index` a guess of the name's entry
 * in instance dicts (dict_getitem_str_hinted): instances of one class
 * mostly set their attributes in one order. A site whose instances
 * disagree stops updating it after a few tries (a cache write each). */
#define ATTR_MAX_REHINTS 8
static __attribute__((noinline)) void attr_cache_rehint(CodeObj *co, uint32_t cidx, int64_t hint)
{
    AttrCache *e = ATTR_CACHE(co, cidx);
    if (e->slot >= ATTR_MAX_REHINTS || hint < 0 || hint > INT32_MAX)
        return;
    VM_WRITE(co->cache);
    e->slot++;
    e->index = (int32_t)hint;
}

/* An AC_INSTANCE entry also serves a second type (instances of sibling
 * classes at one site, as deltablue's constraint subclasses): its version in
 * `dver` and its name's entry hint in `owner` (both unused by AC_INSTANCE).
 * Set once after each refill (a cache write), when the second type also
 * finds the name in its instances' dicts only; ix: its entry there. */
static __attribute__((noinline)) void attr_cache_second_type(CodeObj *co, uint32_t cidx, TypeObj *t, int64_t ix)
{
    AttrCache *e = ATTR_CACHE(co, cidx);
    if (e->kind != AC_INSTANCE || e->dver != 0 || type_version(t) == 0 || type_version(t) == e->tver)
        return;
    VM_WRITE(co->cache);
    e->dver = type_version(t);
    e->owner = (uint64_t)ix;
}

static inline void attr_cache_fill(CodeObj *co, uint32_t cidx, Obj obj, Obj name, bool method)
{
    if (cache_usable(co, cidx) && ATTR_CACHE(co, cidx)->fills < CACHE_MAX_FILLS)
        attr_cache_refill(co, cidx, obj, name, method);
}

/* LOAD_ATTR after a per-site miss: the type cache, then the generic path. */
static Obj load_attr_slow(CodeObj *co, uint32_t cidx, Obj obj, Obj name)
{
    attr_cache_fill(co, cidx, obj, name, false);
    TypeObj *t = TYPE(obj);
    AttrInfo ai;
    if (attr_analyze(t, TID(obj), name, &ai)) {
        Obj v;
        if (ai.kind != AC_DATA_DESCR) {
            Obj d = instance_dict(obj);
            if (d && DICT(d)->used) {
                int64_t hint = -1;
                if ((v = dict_getitem_str_hinted(d, name, &hint))) {
                    if (ai.kind == AC_INSTANCE && cache_usable(co, cidx) &&
                        ATTR_CACHE(co, cidx)->kind == AC_INSTANCE && ATTR_CACHE(co, cidx)->dver == 0)
                        attr_cache_second_type(co, cidx, t, hint);
                    return v;
                }
            }
        }
        if (ai.kind != AC_INSTANCE) {
            v = ai.value;
            descrgetfunc get = TYPE(v)->tp_descr_get;
            return get ? get(v, obj, (Obj)t) : v;
        }
    }
    return vm_getattr(obj, name);
}

/* STORE_ATTR fast path through the type cache: 1 done, 0 not applicable, -1 error. */
static int store_attr_typecache(Obj obj, Obj name, Obj v)
{
    unsigned tid = TID(obj);
    if (tid != TID_INSTANCE && tid != TID_EXCEPTION)
        return 0;
    TypeObj *t = TYPE(obj);
    if (t->tp_setattro != T_object->tp_setattro || t->slot_names)
        return 0;
    Obj d = instance_dict(obj);
    if (!d)
        return 0;
    const TypeAttr *at = type_lookup_where(t, name);   /* a data descriptor there takes the store */
    if (at->owner) {
        Obj tv = dict_value_at(at->owner->dict, at->ix);
        if (!tv || TYPE(tv)->tp_descr_set)
            return 0;
    }
    return dict_setitem(d, name, v) < 0 ? -1 : 1;
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
    if ((tid != TID_INSTANCE && tid != TID_EXCEPTION) || type_version(t) == 0 ||
        t->tp_setattro != T_object->tp_setattro)
        return;
    const TypeAttr *at = type_lookup_where(t, name);
    Obj v = type_attr_value(at);
    uint8_t kind = AC_STORE_INST;
    int64_t slot = -1;
    if (at->owner && v && TYPE(v)->tp_descr_set) {
        /* A data descriptor takes the store: a __slots__ member of an
         * instance directly, any other through its setter. */
        slot = tid == TID_INSTANCE ? member_slot_index(v) : -1;
        kind = slot >= 0 && slot <= UINT16_MAX ? AC_STORE_SLOT : AC_STORE_DESCR;
    } else if (at->owner && !v) {
        return;
    } else if (!instance_dict(obj)) {
        return;
    }
    VM_WRITE(co->cache);
    e->fills++;
    e->kind = kind;
    e->tver = type_version(t);
    e->dver = kind == AC_STORE_INST ? 0 : at->dver;
    e->owner = kind == AC_STORE_INST ? 0 : (uint64_t)(uintptr_t)at->owner;
    e->index = kind == AC_STORE_INST ? -1 : (int32_t)at->ix;
    e->slot = kind == AC_STORE_SLOT ? (uint16_t)slot : 0;
}

/* LOAD_METHOD without a per-site hit: pushes (meth, obj) or (attr, NULL) into out. */
static int load_method_slow(CodeObj *co, uint32_t cidx, Obj *out /* 2 root slots: out[0] = obj */, Obj name)
{
    Obj obj = out[0];
    TypeObj *t = TYPE(obj);
    attr_cache_fill(co, cidx, obj, name, true);
    AttrInfo ai;
    if (attr_analyze(t, TID(obj), name, &ai) && ai.kind == AC_TYPE_ATTR) {
        Obj descr = ai.value;
        if (IS_FUNCTION(descr) || vm_is_method_descr(descr)) {
            Obj d = instance_dict(obj);
            Obj v = d && DICT(d)->used ? dict_getitem_str(d, name) : NULL;
            if (v) {
                out[0] = v;
                out[1] = NULL;
                return 0;
            }
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

/* Instantiating a plain class (metatype `type`, object.__new__, a Python
 * __init__) runs __init__ in the loop: returns that __init__, or NULL when
 * the class needs type_call. Never allocates. */
static Obj s_init_name;
static inline Obj plain_class_init(Obj callable)
{
    TypeObj *cls = (TypeObj *)callable;
    if (TYPE(callable) != T_type || cls->tp_new != T_object->tp_new || cls->tp_init == T_object->tp_init ||
        (cls->flags & TPF_ABSTRACT_NEW) || cls->inst_tid != TID_INSTANCE || cls->solid != (Obj)T_object)
        return NULL;
    if (unlikely(!s_init_name))
        s_init_name = str_intern_cstr("__init__");   /* interned: pinned, never freed */
    AttrInfo ai;
    if (!attr_analyze(cls, TID_INSTANCE, s_init_name, &ai) || ai.kind != AC_TYPE_ATTR)
        return NULL;
    return IS_FUNCTION(ai.value) ? ai.value : NULL;
}

/* name is interned (co->names): it survives the lookups; the namespaces
 * are read again from the frame header after each one, which may run code. */
static Obj load_name(Frame *f, Obj name)
{
    Obj *hdr = FRAME_HDR(f);
    Obj v;
    if (hdr[HDR_LOCALS] && ((v = namespace_get(hdr[HDR_LOCALS], name)) || err_occurred()))
        return v;
    if (hdr[HDR_GLOBALS] != hdr[HDR_LOCALS] && ((v = dict_getitem(hdr[HDR_GLOBALS], name)) || err_occurred()))
        return v;
    if ((v = namespace_get(hdr[HDR_BUILTINS], name)) || err_occurred())
        return v;
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

/* SETUP_ANNOTATIONS: __annotations__ = {} in the locals mapping unless set. */
static int setup_annotations(Frame *f)
{
    Obj locals = FRAME_HDR(f)[HDR_LOCALS];
    if (!locals) {
        err_set(E_SystemError, "no locals found when setting up annotations");
        return -1;
    }
    Obj name = str_intern_cstr("__annotations__");
    if (!name)
        return -1;
    if (IS_DICT(locals)) {
        if (dict_getitem_str(locals, name))
            return 0;
    } else {
        Obj v = vm_getitem(locals, name);
        if (v)
            return 0;
        if (!err_matches(E_KeyError))
            return -1;
        err_clear();
    }
    Obj d = dict_new();
    return d ? store_name(f, str_intern_cstr("__annotations__"), d) : -1;
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
    Obj locals = FRAME_HDR(f)[HDR_LOCALS];
    Obj v;
    if (locals && ((v = namespace_get(locals, code_localname(co, i))) || err_occurred()))
        return v;
    v = CELL(f->localsplus[i])->ref;
    if (!v)
        deref_error(co, i);
    return v;
}

/* *slot is an exception class: replace it with an instance (0), or -1. */
static int instantiate_exc_class(Obj *slot)
{
    Obj inst = vm_call0(*slot);
    if (!inst)
        return -1;
    if (!IS_EXCEPTION(inst)) {
        err_format(E_TypeError, "calling %s should have returned an instance of BaseException, not %s",
                   type_name_of_type((TypeObj *)*slot), type_name(inst));
        return -1;
    }
    *slot = inst;
    return 0;
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
        if (instantiate_exc_class(&r[0]) < 0)
            goto fail;
    } else if (!IS_EXCEPTION(exc)) {
        err_set(E_TypeError, "exceptions must derive from BaseException");
        goto fail;
    }
    if (r[1]) {
        if (IS_TYPE(r[1]) && type_is_subtype((TypeObj *)r[1], E_BaseException)) {
            if (instantiate_exc_class(&r[1]) < 0)
                goto fail;
        } else if (IS_NONE(r[1])) {
            r[1] = NULL;
        } else if (!IS_EXCEPTION(r[1])) {
            err_set(E_TypeError, "exception causes must derive from BaseException");
            goto fail;
        }
        VM_WRITE(r[0]);
        EXC(r[0])->cause = r[1];
        EXC(r[0])->suppress_context = 1;
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

/* After a failed unpack of *slot: CPython's message for a non-iterable. */
static void unpack_not_iterable_error(Obj *slot)
{
    if (err_matches(E_TypeError) && !vm_hasattr(*slot, str_intern_cstr("__iter__")) &&
        !vm_hasattr(*slot, str_intern_cstr("__getitem__"))) {
        err_clear();
        err_format(E_TypeError, "cannot unpack non-iterable %s object", type_name(*slot));
    }
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
    r[0] = vm_list_from_iter(sp[-1]);
    if (!r[0]) {
        unpack_not_iterable_error(sp - 1);
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

/* LIST_EXTEND: list_extend, with the iterator made here (so that a list
 * subclass's own __iter__ runs, and for the "Value after *" message). The
 * list and the iterable are stack slots. */
static int list_extend_star(Obj *list_slot, Obj *iterable_slot)
{
    Obj it = *iterable_slot;
    if (!IS_LIST(it) && !IS_TUPLE(it)) {
        it = vm_iter(it);
        if (!it) {
            if (err_matches(E_TypeError) && !vm_lookup_special(*iterable_slot, "__iter__") &&
                !vm_lookup_special(*iterable_slot, "__getitem__")) {
                err_clear();
                err_format(E_TypeError, "Value after * must be an iterable, not %s", type_name(*iterable_slot));
            }
            return -1;
        }
    }
    return list_extend(*list_slot, it);
}

/* {**m} and **rest: d.update(m) for a mapping m. Both are root slots (the
 * keys lookup may run code, and move d). */
static int dict_update_mapping(Obj *d, Obj *m)
{
    if (!IS_DICT(*m) && !vm_hasattr(*m, str_intern_cstr("keys"))) {
        err_format(E_TypeError, "'%s' object is not a mapping", type_name(*m));
        return -1;
    }
    return dict_update(*d, *m);
}

/* ---- Pattern matching (match statement) ---- */
static Obj s_get_name, s_match_args_name;   /* interned: pinned */

/* MATCH_KEYS: slots[0] the subject (a mapping), slots[1] a tuple of keys
 * (both stack slots). The tuple of the values, None when a key is missing,
 * NULL on error. As CPython: subject.get(key, sentinel) for each key (an
 * exact dict is looked up directly, which is what its get does), a key seen
 * twice is a ValueError. */
static Obj match_keys(Obj *slots)
{
    int64_t n = TUPLE_LEN(slots[1]);
    if (n == 0)
        return g_empty_tuple;
    /* r: 0 get (NULL: an exact dict), 1 keys seen, 2 values, 3 the sentinel */
    Obj *r = vm_roots(4);
    if (!IS_DICT(slots[0])) {
        if (unlikely(!s_get_name))
            s_get_name = str_intern_cstr("get");
        if (!(r[0] = vm_getattr(slots[0], s_get_name)) || !(r[3] = vm_call0((Obj)T_object)))
            goto fail;
    }
    if (!(r[1] = set_new(NULL)) || !(r[2] = tuple_new(n)))
        goto fail;
    for (int64_t i = 0; i < n; i++)
        TUPLE_ITEMS(r[2])[i] = g_None;
    for (int64_t i = 0; i < n; i++) {
        Obj key = TUPLE_ITEMS(slots[1])[i];
        int seen = set_contains(r[1], key);
        if (seen < 0)
            goto fail;
        if (seen) {
            Obj rep = vm_repr(TUPLE_ITEMS(slots[1])[i]);
            if (rep)
                err_format(E_ValueError, "mapping pattern checks duplicate key (%s)", str_cstr(rep));
            goto fail;
        }
        if (set_add(r[1], TUPLE_ITEMS(slots[1])[i]) < 0)
            goto fail;
        Obj v;
        if (!r[0]) {
            v = dict_getitem(slots[0], TUPLE_ITEMS(slots[1])[i]);
            if (!v && err_occurred())
                goto fail;
        } else {
            v = vm_call2(r[0], TUPLE_ITEMS(slots[1])[i], r[3]);
            if (!v)
                goto fail;
            if (v == r[3])
                v = NULL;
        }
        if (!v) {
            vm_unroots(r);
            return g_None;
        }
        /* get() may have run Python code that committed the tuple, which is
         * then read without barriers: a rare write */
        VM_WRITE_RARE(r[2]);
        TUPLE_ITEMS(r[2])[i] = v;
    }
    Obj res = r[2];
    vm_unroots(r);
    return res;
fail:
    vm_unroots(r);
    return NULL;
}

/* getattr(subject, name) for a class pattern. r: root slots, r[0] the set of
 * names seen, r[3] the name (an exact str); a name given twice is a
 * TypeError. NULL without an error: the subject has no such attribute. */
static Obj match_class_attr(Obj *slots /* subject cls */, Obj *r)
{
    int dup = set_contains(r[0], r[3]);
    if (dup < 0)
        return NULL;
    if (dup) {
        Obj rep = vm_repr(r[3]);
        if (rep)
            err_format(E_TypeError, "%s() got multiple sub-patterns for attribute %s",
                       type_name_of_type((TypeObj *)slots[1]), str_cstr(rep));
        return NULL;
    }
    if (set_add(r[0], r[3]) < 0)
        return NULL;
    Obj v = vm_getattr(slots[0], r[3]);
    if (!v && err_matches(E_AttributeError))
        err_clear();
    return v;
}

/* MATCH_CLASS: slots[0..2] subject, cls, the keyword names (a tuple).
 * The tuple of the nargs positional and the keyword attributes, None when
 * the subject is not an instance or lacks one, NULL on error. */
static Obj match_class(Obj *slots, int nargs)
{
    if (!IS_TYPE(slots[1])) {
        err_set(E_TypeError, "called match pattern must be a type");
        return NULL;
    }
    int inst = vm_isinstance(slots[0], slots[1]);
    if (inst <= 0)
        return inst < 0 ? NULL : g_None;
    int64_t nkw = TUPLE_LEN(slots[2]);
    /* r: 0 attribute names seen, 1 the result, 2 __match_args__, 3 a name */
    Obj *r = vm_roots(4);
    if (!(r[0] = set_new(NULL)) || !(r[1] = tuple_new(nargs + nkw)))
        goto fail;
    for (int64_t i = 0; i < nargs + nkw; i++)
        TUPLE_ITEMS(r[1])[i] = g_None;
    if (nargs) {
        if (unlikely(!s_match_args_name))
            s_match_args_name = str_intern_cstr("__match_args__");
        bool match_self = false;
        r[2] = vm_getattr(slots[1], s_match_args_name);
        if (r[2]) {
            if (TID(r[2]) != TID_TUPLE) {
                err_format(E_TypeError, "%s.__match_args__ must be a tuple (got %s)",
                           type_name_of_type((TypeObj *)slots[1]), type_name(r[2]));
                goto fail;
            }
        } else if (err_matches(E_AttributeError)) {
            err_clear();
            r[2] = g_empty_tuple;
            match_self = (((TypeObj *)slots[1])->flags & TPF_MATCH_SELF) != 0;
        } else {
            goto fail;
        }
        int64_t allowed = match_self ? 1 : TUPLE_LEN(r[2]);
        if (allowed < nargs) {
            err_format(E_TypeError, "%s() accepts %d positional sub-pattern%s (%d given)",
                       type_name_of_type((TypeObj *)slots[1]), (int)allowed, allowed == 1 ? "" : "s", nargs);
            goto fail;
        }
        /* getattr may have run Python code that committed the tuple, which is
         * then read without barriers: a rare write */
        if (match_self) {
            VM_WRITE_RARE(r[1]);
            TUPLE_ITEMS(r[1])[0] = slots[0];
        } else {
            for (int i = 0; i < nargs; i++) {
                r[3] = TUPLE_ITEMS(r[2])[i];
                if (TID(r[3]) != TID_STR) {
                    err_format(E_TypeError, "__match_args__ elements must be strings (got %s)", type_name(r[3]));
                    goto fail;
                }
                Obj v = match_class_attr(slots, r);
                if (!v)
                    goto missing;
                VM_WRITE_RARE(r[1]);
                TUPLE_ITEMS(r[1])[i] = v;
            }
        }
    }
    for (int64_t i = 0; i < nkw; i++) {
        r[3] = TUPLE_ITEMS(slots[2])[i];
        Obj v = match_class_attr(slots, r);
        if (!v)
            goto missing;
        VM_WRITE_RARE(r[1]);
        TUPLE_ITEMS(r[1])[nargs + i] = v;
    }
    Obj res = r[1];
    vm_unroots(r);
    return res;
missing:
    if (!err_occurred()) {
        vm_unroots(r);
        return g_None;
    }
fail:
    vm_unroots(r);
    return NULL;
}

/* COPY_DICT_WITHOUT_KEYS: a new dict of the subject's items (slots[0]) but
 * the keys (slots[1], a tuple): **rest of a mapping pattern. */
static Obj copy_dict_without_keys(Obj *slots)
{
    Obj *r = vm_roots(1);
    r[0] = dict_new();
    if (!r[0] || dict_update_mapping(&r[0], &slots[0]) < 0)
        goto fail;
    for (int64_t i = 0; i < TUPLE_LEN(slots[1]); i++)
        if (vm_delitem(r[0], TUPLE_ITEMS(slots[1])[i]) < 0)
            goto fail;
    Obj res = r[0];
    vm_unroots(r);
    return res;
fail:
    vm_unroots(r);
    return NULL;
}

/* The built-in __import__ (a global root, noted at start-up): while
 * builtins.__import__ is still it, IMPORT_NAME calls vm_import directly. */
static Obj g_builtin_import;

void eval_note_builtin_import(void)
{
    VM_GLOBAL_ROOT(g_builtin_import);
    g_builtin_import = dict_getitem_str(g_builtins, vm_names[VMN___import__]);
}

/* Where __import__ was in the builtins dict last looked at, by its version
 * (per thread: a dict version is never reused, so what it says stays true
 * after an abort): IMPORT_NAME's check costs a compare and a load. */
static __thread uint64_t import_cache_version;
static __thread int64_t import_cache_index;

static inline bool builtin_import_in_place(Obj builtins)
{
    return IS_DICT(builtins) && DICT(builtins)->version == import_cache_version &&
           dict_value_at(builtins, import_cache_index) == g_builtin_import;
}

/* IMPORT_NAME past the check: __import__ looked up (and its place noted);
 * the built-in one is vm_import, a user's override is called as CPython
 * calls it (name, globals, locals or None, fromlist, level); none is
 * ImportError. */
__attribute__((noinline)) static Obj import_name_slow(Obj builtins, Obj name, Obj globals, Obj locals,
                                                      Obj fromlist, int64_t level)
{
    Obj import_func;
    if (IS_DICT(builtins)) {
        int64_t ix = dict_lookup_str_index(builtins, vm_names[VMN___import__]);
        import_func = ix >= 0 ? dict_value_at(builtins, ix) : NULL;
        if (ix >= 0 && DICT(builtins)->version != 0) {
            import_cache_version = DICT(builtins)->version;
            import_cache_index = ix;
        }
    } else {
        import_func = vm_getitem(builtins, vm_names[VMN___import__]);
    }
    if (import_func && import_func == g_builtin_import)
        return vm_import(name, globals, fromlist, (int)level);
    if (!import_func) {
        if (!err_occurred() || err_matches(E_KeyError)) {
            err_clear();
            err_set(E_ImportError, "__import__ not found");
        }
        return NULL;
    }
    Obj *r = vm_roots(6);
    r[0] = import_func;
    r[1] = name;
    r[2] = globals;
    r[3] = locals ? locals : g_None;
    r[4] = fromlist;
    r[5] = int_from_i64(level);
    Obj res = r[5] ? vm_call(r[0], r + 1, 5, NULL) : NULL;
    vm_unroots(r);
    return res;
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
    Obj all_name = str_intern_cstr("__all__");
    r[2] = all_name ? vm_getattr_opt(r[0], all_name) : NULL;
    if (!r[2] && err_occurred())
        goto fail;
    /* No __all__: the module's public names. */
    bool public_only = !r[2];
    if (r[2]) {
        r[2] = vm_list_from_iter(r[2]);
    } else {
        Obj d = TID(r[0]) == TID_MODULE ? ((ModuleObj *)r[0])->dict : NULL;
        if (!d)
            d = vm_getattr_cstr(r[0], "__dict__");
        r[2] = d ? dict_keys_list(d) : NULL;
    }
    if (!r[2])
        goto fail;
    for (int64_t i = 0; i < LIST_LEN(r[2]); i++) {
        r[3] = LIST_ITEMS(r[2])[i];
        if (public_only && IS_STR(r[3]) && str_cstr(r[3])[0] == '_')
            continue;
        Obj v = vm_getattr(r[0], r[3]);
        if (!v)
            goto fail;
        if ((IS_DICT(r[1]) ? dict_setitem(r[1], r[3], v) : vm_setitem(r[1], r[3], v)) < 0)
            goto fail;
    }
    vm_unroots(r);
    return 0;
fail:
    vm_unroots(r);
    return -1;
}

/* SETUP_WITH (BEFORE_ASYNC_WITH when is_async): the manager in *slot
 * becomes its bound __exit__ (__aexit__); returns __enter__()'s result
 * (__aenter__()'s, to be awaited). */
static Obj setup_with(Obj *slot, bool is_async)
{
    Obj *r = vm_roots(3);
    r[0] = *slot;
    const char *proto = is_async ? "asynchronous context manager" : "context manager";
    /* The sync names are pre-interned: by C string, each `with` hashed
     * and compared the name (strcmp and the intern cache: 10% of a loop of
     * `with lock:` in both builds). */
    Obj enter = is_async ? vm_lookup_special(r[0], "__aenter__") : vm_lookup_type(TYPE(r[0]), NAME(__enter__));
    if (!enter) {
        if (!err_occurred())
            err_format(E_TypeError, "'%s' object does not support the %s protocol", type_name(r[0]), proto);
        goto fail;
    }
    r[1] = enter;
    Obj exit = is_async ? vm_lookup_special(r[0], "__aexit__") : vm_lookup_type(TYPE(r[0]), NAME(__exit__));
    if (!exit) {
        if (!err_occurred())
            err_format(E_TypeError, "'%s' object does not support the %s protocol (missed %s method)",
                       type_name(r[0]), proto, is_async ? "__aexit__" : "__exit__");
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
    /* stack: [defaults] [kwdefaults] [annotations] [closure] code */
    Obj code = sp[-1];
    Obj fn = function_new(code, globals, ((CodeObj *)code)->qualname);
    if (!fn)
        return NULL;
    FunctionObj *F = (FunctionObj *)fn;
    Obj *p = sp - 1;
    if (flags & 8)
        F->closure = *--p;
    if (flags & 4)
        F->annotations = *--p;
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

/* Truth of v (1, 0, -1) with the bool singletons decided inline. */
static inline void push_block(Frame *f, int type, uint32_t handler, Obj *level)
{
    Block *b = &f->blocks[f->nblocks++];
    b->type = type;
    b->handler = handler;
    b->level = (int32_t)(level - f->stack_base);
}

static inline int truth(Obj v)
{
    return v == g_True ? 1 : v == g_False ? 0 : vm_is_true(v);
}

/* ------------------------------------------------------------------ */
/* Yield points: loop back-edges and returns.                          */
/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* The loop                                                           */
/* ------------------------------------------------------------------ */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"

/* The loop dispatches through this thread's copy of its label table: with a
 * trace or profile function every entry is the trace hook (trace.c), else
 * the table is the loop's own (one thread-local load, as a static one). */
static __thread void *dispatch[256];
static void *loop_labels[256];   /* the loop's labels, copied at the first run (start-up) */
static void *trace_hook_label;

void eval_dispatch_update(void)
{
    for (int i = 0; i < 256; i++)
        dispatch[i] = vm_tracing ? trace_hook_label : loop_labels[i];
}

/* Runs frames from `entry`. tx_break (STM, outermost loop only): a yield
 * point that ends the transaction saves the frame's sp and ip, sets
 * *tx_break and returns; eval_run commits, starts the next transaction and
 * calls the loop again on the innermost frame. The loop itself holds no
 * setjmp, which would keep its locals out of registers. */
static Obj eval_loop(Frame *entry, int throwing, int *status, bool *tx_break)
{
#define LABEL(name) [OP_##name] = &&L_##name,
    static void *const labels[256] = {
        [0 ... 255] = &&L_bad_opcode,
        OP_LIST(LABEL)
    };
#undef LABEL
    Frame *f = entry;
    CodeObj *co;
    const uint32_t __seg_gs *ip;
    Obj *sp, *lp;
    uint32_t word;
    Obj yv; /* the value being yielded */
    Obj *cbase, *cargs, ckw; /* calls: see CALL */
    size_t cnargs;
    int status_dummy;
    if (!status)
        status = &status_dummy;
    if (unlikely(!dispatch[0])) {
        if (!trace_hook_label) {
            memcpy(loop_labels, labels, sizeof labels);
            trace_hook_label = &&L_trace_hook;
        }
        eval_dispatch_update();
    }

#define TARGET(name) L_##name:
#define ARG (word >> 8)
#define DISPATCH()                          \
    do {                                    \
        word = *ip++;                       \
        f->ip = ip;                         \
        goto *dispatch[INSTR_OP(word)];     \
    } while (0)
#define LOAD_FRAME()                        \
    do {                                    \
        co = f->code;                       \
        ip = f->ip;                         \
        lp = f->localsplus;                 \
    } while (0)
/* Continue in frame fr (the callee has been popped): its slots end the
 * shadow stack again, its saved sp is the stack top. */
#define RESUME_FRAME(fr)                      \
    do {                                      \
        f = (fr);                             \
        tm_self.ss_top = (object_t **)f->end; \
        sp = f->sp;                           \
        LOAD_FRAME();                         \
    } while (0)
/* A yield point. STM: every vm_tx_length of them (outside `with
 * tm.atomic:`) the loop returns to its eval_run to end the transaction, at
 * any eval depth (at a nested one not too often: vm_tx_nested_may_end; not
 * while holding a lock taken in it, for a while: vm_tx_locks_may_end);
 * `redo` is 1 where the point comes before the
 * instruction's work (the instruction runs again when the loop resumes), 0
 * after it. GIL: hand the GIL on if a thread waits. */
#if TM_STM
#define YIELD_POINT_AT(redo)                                           \
    do {                                                               \
        if (unlikely(--vm_tx_countdown <= 0) && !vm_ts.atomic &&      \
            (vm_eval_levels == 1 || vm_tx_nested_may_end()) &&         \
            (likely(!vm_ts.locks_held) || vm_tx_locks_may_end()) &&   \
            !vm_tx_solo_goes_on()) {                                   \
            f->sp = sp;                                                \
            f->ip = ip - (redo);                                       \
            *tx_break = true;                                          \
            return NULL;                                               \
        }                                                              \
        tm_safepoint();   /* a committer may be waiting for us */      \
    } while (0)
/* Leaving the loop whose eval_run the running transaction would restart
 * in after an abort: C code continues it, which an abort could not
 * rewind, so it becomes inevitable (vm_tx_level is 0 when it is). */
#define LEAVE_RUN()                                                    \
    do {                                                               \
        if (unlikely(vm_tx_level >= vm_eval_levels))                   \
            vm_tx_become_inevitable();                                 \
    } while (0)
/* The same for a loop that returns v, with the frame popped: becoming
 * inevitable may park this thread while another collects, and v, held in C
 * only, would not be a root (an object this transaction made and promoted
 * was swept, and returned freed: the threaded fuzzer's seed 2008411). It
 * waits in the frame's first slot, on the shadow stack. */
#define LEAVE_RUN_WITH(v)                                              \
    do {                                                               \
        if (unlikely(vm_tx_level >= vm_eval_levels)) {                 \
            Obj *keep_ = (Obj *)tm_self.ss_top;                        \
            *keep_ = (v);                                              \
            tm_self.ss_top = (object_t **)(keep_ + 1);                 \
            vm_tx_become_inevitable();                                 \
            (v) = *keep_;                                              \
            tm_self.ss_top = (object_t **)keep_;                       \
        }                                                              \
    } while (0)
#else
/* The request word first: while it is 0 (always, with one thread and no
 * HTM elision) a yield point is two loads (the second: work the collector
 * queued, weak callbacks and finalizers, vm/gcwork.c). The site names the yield point
 * for the HTM elision's per-yield-point lengths: the pinned code object's
 * offset, and the instruction index above bit 47. */
#define YIELD_POINT_AT(redo)                                                       \
    do {                                                                           \
        (void)tx_break;                                                            \
        if (unlikely(tm_yield_request != 0) && likely(!vm_ts.atomic))              \
            tm_yield_slow((uintptr_t)co | ((uintptr_t)(ip - co->code) << VM_SITE_SHIFT)); \
        if (unlikely(tm_gc_pending)) { /* weak callbacks, finalizers (gcwork.c) */ \
            f->sp = sp;                                                            \
            vm_run_gc_work();                                                      \
        }                                                                          \
    } while (0)
#define LEAVE_RUN() ((void)0)
#define LEAVE_RUN_WITH(v) ((void)0)
#endif
/* A signal was caught: the main thread runs the Python handlers here,
 * between two instructions (modules/signalmodule.c); a handler's exception
 * is raised here. One load and a branch on the fast path. */
#define CHECK_SIGNALS()                             \
    do {                                            \
        if (unlikely(tm_interrupt_pending)) {       \
            f->sp = sp;                             \
            if (vm_signals_check() < 0)             \
                goto error;                         \
        }                                           \
    } while (0)
#define HDR (f->stack_base - FRAME_NHDR)
#undef NAME   /* objects.h's interned-name macro: the loop's own NAME is co->names */
#define NAME(i) (TUPLE_ITEMS(co->names)[i])
#define JUMP_TO(target) (ip = co->code + (target))

    LOAD_FRAME();
    sp = f->sp;
    if (throwing)
        goto error;
    DISPATCH();

    TARGET(NOP) { DISPATCH(); }
    TARGET(POP_TOP) { sp--; DISPATCH(); }
    TARGET(ROT_TWO) {
        Obj t = sp[-1];
        sp[-1] = sp[-2];
        sp[-2] = t;
        DISPATCH();
    }
    TARGET(ROT_THREE) {
        Obj t = sp[-1];
        sp[-1] = sp[-2];
        sp[-2] = sp[-3];
        sp[-3] = t;
        DISPATCH();
    }
    TARGET(ROT_FOUR) {
        Obj t = sp[-1];
        sp[-1] = sp[-2];
        sp[-2] = sp[-3];
        sp[-3] = sp[-4];
        sp[-4] = t;
        DISPATCH();
    }
    TARGET(DUP_TOP) {
        sp[0] = sp[-1];
        sp++;
        DISPATCH();
    }
    TARGET(DUP_TOP_TWO) {
        sp[0] = sp[-2];
        sp[1] = sp[-1];
        sp += 2;
        DISPATCH();
    }
    TARGET(COPY) {
        sp[0] = sp[-(int)ARG];
        sp++;
        DISPATCH();
    }
    TARGET(SWAP) {
        Obj t = sp[-1];
        sp[-1] = sp[-(int)ARG];
        sp[-(int)ARG] = t;
        DISPATCH();
    }
    TARGET(PUSH_NULL) { *sp++ = NULL; DISPATCH(); }
    TARGET(LOAD_CONST) {
        *sp++ = TUPLE_ITEMS(co->consts)[ARG];
        DISPATCH();
    }
    TARGET(LOAD_FAST) {
        Obj v = lp[ARG];
        if (unlikely(!v)) {
            unbound_local_error(co, ARG);
            goto error;
        }
        *sp++ = v;
        DISPATCH();
    }
    TARGET(STORE_FAST) {
        lp[ARG] = *--sp;
        DISPATCH();
    }
    TARGET(DELETE_FAST) {
        if (unlikely(!lp[ARG])) {
            unbound_local_error(co, ARG);
            goto error;
        }
        lp[ARG] = NULL;
        DISPATCH();
    }
    TARGET(LOAD_DEREF) {
        Obj v = CELL(lp[ARG])->ref;
        if (unlikely(!v)) {
            deref_error(co, ARG);
            goto error;
        }
        *sp++ = v;
        DISPATCH();
    }
    TARGET(STORE_DEREF) {
        Obj cell = lp[ARG];
        VM_WRITE(cell);
        CELL(cell)->ref = *--sp;
        DISPATCH();
    }
    TARGET(DELETE_DEREF) {
        Obj cell = lp[ARG];
        if (!CELL(cell)->ref) {
            deref_error(co, ARG);
            goto error;
        }
        VM_WRITE(cell);
        CELL(cell)->ref = NULL;
        DISPATCH();
    }
    TARGET(LOAD_CLOSURE) {
        *sp++ = lp[ARG];
        DISPATCH();
    }
    TARGET(LOAD_CLASSDEREF) {
        Obj v = load_classderef(f, ARG);
        if (!v)
            goto error;
        *sp++ = v;
        DISPATCH();
    }
    TARGET(LOAD_GLOBAL) {
        uint32_t cidx = *ip;
        Obj g = HDR[HDR_GLOBALS];
        Obj v;
        GlobalCache *e = GLOBAL_CACHE(co, cidx);
        if (likely(e->where == GC_GLOBALS && DICT(g)->version == e->gver)) {
            v = dict_value_at(g, e->index);
        } else if (e->where == GC_BUILTINS && DICT(g)->version == e->gver &&
                   DICT(HDR[HDR_BUILTINS])->version == e->bver) {
            v = dict_value_at(HDR[HDR_BUILTINS], e->index);
        } else {
            v = load_global_slow(co, cidx, g, HDR[HDR_BUILTINS], NAME(ARG));
            if (!v)
                goto error;
        }
        ip++;
        *sp++ = v;
        DISPATCH();
    }
    TARGET(STORE_GLOBAL) {
        if (dict_setitem(HDR[HDR_GLOBALS], NAME(ARG), sp[-1]) < 0)
            goto error;
        sp--;
        DISPATCH();
    }
    TARGET(DELETE_GLOBAL) {
        if (dict_delitem(HDR[HDR_GLOBALS], NAME(ARG)) < 0) {
            if (err_matches(E_KeyError)) {
                err_clear();
                name_error(NAME(ARG));
            }
            goto error;
        }
        DISPATCH();
    }
    TARGET(LOAD_NAME) {
        Obj v = load_name(f, NAME(ARG));
        if (!v)
            goto error;
        *sp++ = v;
        DISPATCH();
    }
    TARGET(STORE_NAME) {
        if (store_name(f, NAME(ARG), sp[-1]) < 0)
            goto error;
        sp--;
        DISPATCH();
    }
    TARGET(SETUP_ANNOTATIONS) {
        if (setup_annotations(f) < 0)
            goto error;
        DISPATCH();
    }
    TARGET(DELETE_NAME) {
        if (delete_name(f, NAME(ARG)) < 0)
            goto error;
        DISPATCH();
    }
    TARGET(LOAD_ATTR) {
        Obj obj = sp[-1];
        Obj name = NAME(ARG);
        uint32_t cidx = *ip;
        AttrCache *e = ATTR_CACHE(co, cidx);
        Obj v;
        switch (e->kind) {
        case AC_INSTANCE: {
            uint64_t tv = type_version(TYPE(obj));
            if (tv == e->tver) {
                Obj d = instance_dict(obj);
                int64_t hint = e->index;
                if (d && (v = dict_getitem_str_hinted(d, name, &hint))) {
                    if (unlikely(hint != e->index))
                        attr_cache_rehint(co, cidx, hint);
                    goto load_attr_done;
                }
            } else if (tv == e->dver && tv != 0) {
                /* the site's second type (attr_cache_second_type) */
                Obj d = instance_dict(obj);
                int64_t hint = (int64_t)e->owner;
                if (d && (v = dict_getitem_str_hinted(d, name, &hint)))
                    goto load_attr_done;
            }
            break;
        }
        case AC_MODULE:   /* a plain module (a ModuleType subclass may shadow its dict) */
            if (TID(obj) == TID_MODULE && !((ModuleObj *)obj)->cls) {
                Obj d = ((ModuleObj *)obj)->dict;
                if (DICT(d)->version == e->tver && (v = dict_value_at(d, e->index)))
                    goto load_attr_done;
            }
            break;
        case AC_SLOT: {
            Obj arr = slot_array_hit(e, obj);
            if (arr && (v = ARRAY(arr)->items[e->slot]))
                goto load_attr_done;
            break;   /* unset: the slow path raises */
        }
        case AC_CLASS_ATTR: {
            int hit = class_attr_hit(e, obj, &v);
            if (hit < 0)
                goto error;
            if (hit)
                goto load_attr_done;
            break;
        }
        case AC_TYPE_ATTR:
        case AC_METHOD:
        case AC_DATA_DESCR: {
            TypeObj *t = TYPE(obj);
            if (type_version(t) != e->tver)
                break;
            if (e->kind != AC_DATA_DESCR) {
                Obj d = instance_dict(obj);
                if (d && DICT(d)->used && (v = dict_getitem_str(d, name)))
                    goto load_attr_done;
            }
            Obj od = ((TypeObj *)(uintptr_t)e->owner)->dict;
            if (DICT(od)->version != e->dver)
                break;
            v = dict_value_at(od, e->index);
            if (!v)
                break;
            descrgetfunc get = TYPE(v)->tp_descr_get;
            if (get) {
                v = get(v, obj, (Obj)t);
                if (!v)
                    goto error;
            }
            goto load_attr_done;
        }
        default:
            break;
        }
        v = load_attr_slow(co, cidx, obj, name);
        if (!v)
            goto error;
    load_attr_done:
        ip++;
        sp[-1] = v;
        DISPATCH();
    }
    TARGET(STORE_ATTR) {
        Obj obj = sp[-1];
        Obj name = NAME(ARG);
        uint32_t cidx = *ip;
        AttrCache *e = ATTR_CACHE(co, cidx);
        if (e->kind == AC_STORE_INST && type_version(TYPE(obj)) == e->tver) {
            Obj d = instance_dict(obj);
            if (d) {
                if (dict_replace_str_hinted(d, name, e->index, sp[-2]))
                    goto store_attr_done;
                if (dict_setitem(d, name, sp[-2]) < 0)
                    goto error;
                if (ATTR_CACHE(co, cidx)->slot < ATTR_MAX_REHINTS)
                    attr_cache_rehint(co, cidx, dict_lookup_str_index(instance_dict(sp[-1]), name));
                goto store_attr_done;
            }
        } else if (e->kind == AC_STORE_SLOT) {
            Obj arr = slot_array_hit(e, obj);
            if (arr) {
                VM_WRITE(arr);
                ARRAY(arr)->items[e->slot] = sp[-2];
                goto store_attr_done;
            }
        } else if (e->kind == AC_STORE_DESCR && type_version(TYPE(obj)) == e->tver) {
            Obj od = ((TypeObj *)(uintptr_t)e->owner)->dict;
            Obj dsc;
            if (DICT(od)->version == e->dver && (dsc = dict_value_at(od, e->index)) && TYPE(dsc)->tp_descr_set) {
                if (TYPE(dsc)->tp_descr_set(dsc, obj, sp[-2]) < 0)
                    goto error;
                goto store_attr_done;
            }
        }
        {
            int done = store_attr_typecache(obj, name, sp[-2]);
            if (done < 0)
                goto error;
            if (done)
                goto store_attr_done;
        }
        if (vm_setattr(obj, name, sp[-2]) < 0)
            goto error;
        store_attr_cache_fill(co, cidx, sp[-1], NAME(ARG));
    store_attr_done:
        ip++;
        sp -= 2;
        DISPATCH();
    }
    TARGET(DELETE_ATTR) {
        if (vm_setattr(sp[-1], NAME(ARG), NULL) < 0)
            goto error;
        sp--;
        DISPATCH();
    }
    TARGET(LOAD_METHOD) {
        Obj obj = sp[-1];
        Obj name = NAME(ARG);
        uint32_t cidx = *ip;
        AttrCache *e = ATTR_CACHE(co, cidx);
        if (e->kind == AC_METHOD) {
            TypeObj *t = TYPE(obj);
            if (type_version(t) == e->tver) {
                Obj d = instance_dict(obj);
                if (!d || DICT(d)->used == 0 || !dict_getitem_str(d, name)) {
                    Obj od = ((TypeObj *)(uintptr_t)e->owner)->dict;
                    if (DICT(od)->version == e->dver) {
                        Obj m = dict_value_at(od, e->index);
                        if (m) {
                            sp[-1] = m;
                            *sp++ = obj;
                            ip++;
                            DISPATCH();
                        }
                    }
                }
            }
        } else if (e->kind == AC_INSTANCE) {
            /* a callable in the instance dict (self.append = stack.append) */
            Obj d, v;
            int64_t hint = e->index;
            if (type_version(TYPE(obj)) == e->tver && (d = instance_dict(obj)) &&
                (v = dict_getitem_str_hinted(d, name, &hint))) {
                if (unlikely(hint != e->index))
                    attr_cache_rehint(co, cidx, hint);
                sp[-1] = v;
                *sp++ = NULL;
                ip++;
                DISPATCH();
            }
        } else if (e->kind == AC_MODULE && TID(obj) == TID_MODULE && !((ModuleObj *)obj)->cls) {
            Obj d = ((ModuleObj *)obj)->dict;
            Obj v;
            if (DICT(d)->version == e->tver && (v = dict_value_at(d, e->index))) {
                sp[-1] = v;
                *sp++ = NULL;
                ip++;
                DISPATCH();
            }
        } else if (e->kind == AC_CLASS_ATTR) {
            Obj v;
            int hit = class_attr_hit(e, obj, &v);
            if (hit < 0)
                goto error;
            if (hit) {
                sp[-1] = v;
                *sp++ = NULL;
                ip++;
                DISPATCH();
            }
        }
        if (load_method_slow(co, cidx, sp - 1, name) < 0)
            goto error;
        sp++;
        ip++;
        DISPATCH();
    }

    /* ---- calls ---- */
    /* The three call ops set cbase (callable, self_or_NULL, arguments...),
     * cargs/cnargs/ckw (the vector convention) and end at enter_function
     * (a Python function: a new frame in this loop) or call_c. */
#define UNPACK_BOUND_METHOD()                                                         \
    do {                                                                              \
        Obj m_ = cbase[0];                                                            \
        if (TID(m_) == TID_METHOD && !cbase[1] && IS_FUNCTION(((MethodObj *)m_)->func)) { \
            cbase[1] = ((MethodObj *)m_)->self;                                       \
            cbase[0] = ((MethodObj *)m_)->func;                                       \
            cargs = cbase + 1;                                                        \
            cnargs++;                                                                 \
        }                                                                             \
    } while (0)
    /* push_function_frame is inlined with `inplace` constant: one site each. */
#define ENTER_FUNCTION(inplace)                                                       \
    do {                                                                              \
        f->sp = cbase;                                                                \
        Obj gen_ = NULL;                                                              \
        Frame *nf_ = push_function_frame(cbase[0], cargs, cnargs, ckw, inplace, &gen_); \
        if (unlikely(!nf_)) {                                                         \
            tm_self.ss_top = (object_t **)f->end;                                     \
            sp = cbase;                                                               \
            if (!gen_)                                                                \
                goto error;                                                           \
            *sp++ = gen_;                                                             \
            DISPATCH();                                                               \
        }                                                                             \
        f = nf_;                                                                      \
        LOAD_FRAME();                                                                 \
        sp = f->sp;                                                                   \
        DISPATCH();                                                                   \
    } while (0)
    TARGET(CALL) {
        int n = (int)ARG;
        cbase = sp - n - 2;
        cargs = cbase + 2;
        cnargs = (size_t)n;
        ckw = NULL;
        if (cbase[1]) {
            cargs--;
            cnargs++;
        }
        UNPACK_BOUND_METHOD();
        Obj callable = cbase[0];
        if (TID(callable) == TID_FUNCTION) {
            Frame *nf = push_simple_frame(callable, cargs, cnargs);
            if (likely(nf != NULL)) {
                f->sp = cbase;
                f = nf;
                LOAD_FRAME();
                sp = f->sp;
                DISPATCH();
            }
            ENTER_FUNCTION(true);
        }
        if (TID(callable) == TID_TYPE && !cbase[1]) {
            Obj init = plain_class_init(callable);
            if (init) {
                /* cbase[0] keeps the instance (the result); cbase[1] is self. */
                cbase[1] = init;
                Obj inst = instance_new((TypeObj *)callable);
                if (!inst) {
                    sp = cbase;
                    goto error;
                }
                cbase[0] = inst;
                init = cbase[1];
                cbase[1] = inst;
                f->sp = cbase;
                Obj gen = NULL;
                Frame *nf = push_function_frame(init, cbase + 1, cnargs + 1, NULL, true, &gen);
                if (!nf) {
                    sp = cbase;
                    if (gen)
                        err_set(E_TypeError, "__init__() should return None, not 'generator'");
                    goto error;
                }
                nf->kind = FR_INIT;
                f = nf;
                LOAD_FRAME();
                sp = f->sp;
                DISPATCH();
            }
        }
        goto call_c;
    }
    TARGET(CALL_KW) {
        int n = (int)ARG;
        ckw = sp[-1];
        cbase = sp - n - 3;
        cargs = cbase + 2;
        cnargs = (size_t)(n - TUPLE_LEN(ckw));
        if (cbase[1]) {
            cargs--;
            cnargs++;
        }
        UNPACK_BOUND_METHOD();
        if (TID(cbase[0]) == TID_FUNCTION)
            goto enter_function;
        goto call_c;
    }
    TARGET(CALL_FUNCTION_EX) {
        int has_kw = ARG & 1;
        cbase = sp - 3 - has_kw;
        cargs = NULL;
        cnargs = 0;
        UNPACK_BOUND_METHOD();
        /* The argument vector goes above the frame's slots (f->end): the
         * callee's frame above it; both are dropped on return. */
        Obj *v = call_ex_args(cbase[0], cbase[1], cbase[2], has_kw ? cbase[3] : NULL, &cnargs);
        if (!v) {
            tm_self.ss_top = (object_t **)f->end;
            goto error;
        }
        cargs = v + 1;
        ckw = v[0];
        if (TID(cbase[0]) == TID_FUNCTION)
            goto enter_function;
        goto call_c;
    }
enter_function:
    ENTER_FUNCTION(false);
call_c: {
        if (unlikely(++vm_ts.c_depth + vm_ts.py_depth > vm_recursion_limit)) {
            vm_ts.c_depth--;
            tm_self.ss_top = (object_t **)f->end;
            err_set(E_RecursionError, "maximum recursion depth exceeded while calling a Python object");
            goto error;
        }
        if (unlikely(vm_profiling) && TID(cbase[0]) == TID_BUILTIN)
            goto call_c_profiled;
        Obj res = vm_call(cbase[0], cargs, cnargs, ckw);
        vm_ts.c_depth--;
        tm_self.ss_top = (object_t **)f->end;
        sp = cbase;
        if (!res)
            goto error;
        *sp++ = res;
        CHECK_SIGNALS();   /* as CPython after a call: a signal the callee let in */
        DISPATCH();
    }
call_c_profiled: {
        /* setprofile: c_call, then c_return or c_exception */
        f->sp = cbase;
        if (eval_profile_c(f, 0, cbase[0]) < 0) {
            vm_ts.c_depth--;
            tm_self.ss_top = (object_t **)f->end;
            sp = cbase;
            goto error;
        }
        Obj res = vm_call(cbase[0], cargs, cnargs, ckw);
        vm_ts.c_depth--;
        Obj callable = cbase[0];
        tm_self.ss_top = (object_t **)f->end;
        sp = cbase;
        if (!res) {
            *sp++ = callable;   /* rooted while the profile function runs */
            f->sp = sp;
            eval_profile_c(f, 2, callable);
            sp--;
            goto error;
        }
        cbase[1] = res;         /* both rooted while it runs */
        sp = cbase + 2;
        f->sp = sp;
        int rc_ = eval_profile_c(f, 1, cbase[0]);
        res = cbase[1];
        sp = cbase;
        if (rc_ < 0)
            goto error;
        *sp++ = res;
        DISPATCH();
    }
#undef UNPACK_BOUND_METHOD
#undef ENTER_FUNCTION
    TARGET(RETURN_VALUE) {
        /* traced returns reach return_other from the trace hook */
        if (likely(f->kind == FR_CALL)) {
            Obj v = sp[-1];
            pop_frame(f);
            RESUME_FRAME(f->back);
            *sp++ = v;
            CHECK_SIGNALS();
            YIELD_POINT_AT(0);
            DISPATCH();
        }
        goto return_other;
    }
    TARGET(YIELD_VALUE) {
        YIELD_POINT_AT(1);   /* the value is still on the stack */
        yv = *--sp;
    do_yield:
        if (unlikely(!FRAME_HDR(f)[HDR_GEN])) {
            err_set(E_SystemError, "yield outside a generator frame");
            goto error;
        }
        if (unlikely(vm_tracing)) {
            *sp++ = yv;   /* rooted while the trace function runs */
            f->sp = sp;
            int rc_ = eval_trace_return(f, yv);
            yv = *--sp;
            if (rc_ < 0)
                goto error;
        }
        if (unlikely(f->nblocks > 0)) {
            *sp = yv;   /* a root while the block stack's room is made */
            int rc_ = gen_reserve_blocks(f);
            yv = *sp;
            if (rc_ < 0)
                goto error;
        }
        gen_suspend_frame(f, sp);
    yield_popped:
        switch (f->kind) {
        case FR_GEN_FORITER:
            RESUME_FRAME(f->back);
            *sp++ = yv;
            DISPATCH();
        case FR_GEN_YIELDFROM: {
            /* The delegating generator yields the value too and, when
             * resumed, runs its YIELD_FROM again. One that was resumed
             * only to pass a value on (the levels of a `yield from` chain)
             * is popped here without running anything. */
            Frame *b = f->back;
            if (likely(b->gen_clean) && likely(!FRAME_HDR(b)[HDR_FRAMEOBJ]) && likely(!vm_tracing)) {
                gen_pop_clean_frame(b);
                f = b;
                goto yield_popped;
            }
            RESUME_FRAME(b);
            f->ip--;
            goto do_yield;
        }
        default: /* FR_GEN_ENTRY */
            tm_self.ss_top = (object_t **)f->localsplus;
            *status = RUN_YIELDED;
            LEAVE_RUN_WITH(yv);
            return yv;
        }
    }
    TARGET(GET_YIELD_FROM_ITER) {
        Obj v = sp[-1];
        if (TID(v) == TID_COROUTINE) {
            if (!(co->flags & (CO_COROUTINE | CO_ITERABLE_COROUTINE))) {
                err_set(E_TypeError, "cannot 'yield from' a coroutine object in a non-coroutine generator");
                goto error;
            }
        } else if (TID(v) != TID_GENERATOR) {
            v = vm_iter(v);
            if (!v)
                goto error;
            sp[-1] = v;
        }
        DISPATCH();
    }
    TARGET(YIELD_FROM) {
        Obj recv = sp[-2];
        Obj v = sp[-1];
        if ((TID(recv) == TID_GENERATOR && TYPE(recv) == T_generator) || TID(recv) == TID_COROUTINE) {
            /* resumed in this loop, as FOR_ITER does (await: a coroutine) */
            int64_t st = GEN(recv)->state;
            if (st == GEN_FINISHED) {
                if (TID(recv) == TID_COROUTINE) {
                    err_set(E_RuntimeError, "cannot reuse already awaited coroutine");
                    goto error;
                }
                sp--;
                sp[-1] = g_None;
                f->gen_clean = 0;
                DISPATCH();
            }
            if (st == GEN_RUNNING) {
                err_format(E_ValueError, "%s already executing", gen_kind_name(recv));
                goto error;
            }
            if (st == GEN_CREATED && !IS_NONE(v)) {
                err_format(E_TypeError, "can't send non-None value to a just-started %s", gen_kind_name(recv));
                goto error;
            }
            sp--;
            f->sp = sp;
            Frame *nf = gen_push_frame_inline(recv, v, st != GEN_CREATED);
            if (!nf)
                goto error;
            nf->kind = FR_GEN_YIELDFROM;
            f = nf;
            LOAD_FRAME();
            sp = f->sp;
            DISPATCH();
        }
        /* A user class's __next__ is called as a method: its tp_iternext
         * slot drops the StopIteration, whose value is the result here. */
        Obj r;
        unaryfunc next = TYPE(recv)->tp_iternext;
        if (coro_is_asend(recv)) {
            Obj done = NULL;
            r = coro_asend_step(recv, v, &done);
            if (!r && done) {
                sp--;
                sp[-1] = done;
                f->gen_clean = 0;
                DISPATCH();
            }
        } else if (!IS_NONE(v))
            r = vm_call_method(recv, "send", sp - 1, 1);
        else if (TID(recv) == TID_INSTANCE)
            r = vm_call_method(recv, "__next__", NULL, 0);
        else if (next)
            r = next(recv);
        else
            r = vm_call_method(recv, "send", sp - 1, 1);
        if (r) {
            sp--;
            f->ip--;
            yv = r;
            goto do_yield;
        }
        Obj value = g_None;
        if (err_occurred()) {
            if (!err_matches(E_StopIteration))
                goto error;
            Obj exc = err_fetch();
            value = exc_stopiteration_value(exc);
            if (!value)
                value = g_None;
        }
        sp--;
        sp[-1] = value;
        f->gen_clean = 0;
        DISPATCH();
    }

    /* ---- jumps ---- */
    TARGET(JUMP) {
        JUMP_TO(ARG);
        DISPATCH();
    }
    TARGET(JUMP_BACKWARD) {
        CHECK_SIGNALS();
        JUMP_TO(ARG);
        YIELD_POINT_AT(0);
        DISPATCH();
    }
    /* Conditional jumps: jump when truth(v) == when (v popped unless `keep`
     * and jumping). sp[-1] stays on the stack (a root) during vm_is_true. */
#define COND_JUMP(when, keep)             \
    do {                                  \
        int t_ = truth(sp[-1]);           \
        if (unlikely(t_ < 0))             \
            goto error;                   \
        if (t_ == (when)) {               \
            JUMP_TO(ARG);                 \
            if (!(keep))                  \
                sp--;                     \
        } else {                          \
            sp--;                         \
        }                                 \
        DISPATCH();                       \
    } while (0)
    TARGET(POP_JUMP_IF_FALSE) { COND_JUMP(0, false); }
    TARGET(POP_JUMP_IF_TRUE) { COND_JUMP(1, false); }
    TARGET(JUMP_IF_FALSE_OR_POP) { COND_JUMP(0, true); }
    TARGET(JUMP_IF_TRUE_OR_POP) { COND_JUMP(1, true); }
#undef COND_JUMP
    TARGET(POP_JUMP_IF_NONE) {
        if (IS_NONE(*--sp))
            JUMP_TO(ARG);
        DISPATCH();
    }
    TARGET(POP_JUMP_IF_NOT_NONE) {
        if (!IS_NONE(*--sp))
            JUMP_TO(ARG);
        DISPATCH();
    }

    /* ---- iteration ---- */
    TARGET(GET_ITER) {
        Obj it = vm_iter(sp[-1]);
        if (!it)
            goto error;
        sp[-1] = it;
        DISPATCH();
    }
    TARGET(FOR_ITER) {
        Obj it = sp[-1];
        if (TID(it) == TID_GENERATOR && TYPE(it) == T_generator) {
            int64_t st = GEN(it)->state;
            if (st == GEN_FINISHED)
                goto for_iter_exhausted;
            if (st == GEN_RUNNING) {
                err_set(E_ValueError, "generator already executing");
                goto error;
            }
            f->sp = sp;
            Frame *nf = gen_push_frame_inline(it, g_None, st != GEN_CREATED);
            if (!nf)
                goto error;
            nf->kind = FR_GEN_FORITER;
            f = nf;
            LOAD_FRAME();
            sp = f->sp;
            DISPATCH();
        }
        TypeObj *itt = TYPE(it);
        Obj v;
        if (itt == T_list_iterator) {
            v = list_iter_next_inline(it);
        } else if (itt == T_range_iterator) {
            v = range_iter_next_inline(it);
        } else {
            unaryfunc next = itt->tp_iternext;
            v = likely(next != NULL) ? next(it) : vm_next(it);
        }
        if (likely(v != NULL)) {
            *sp++ = v;
            DISPATCH();
        }
        if (err_occurred()) {
            if (!err_matches(E_StopIteration))
                goto error;
            err_clear();
        }
    for_iter_exhausted:
        sp--;
        JUMP_TO(ARG);
        DISPATCH();
    }

    /* ---- operators ---- */
    TARGET(COMPARE_OP) {
        Obj b = sp[-1], a = sp[-2];
        int res;
#define C_COMPARE(x, y)                          \
    switch (ARG) {                               \
    case CMP_LT: res = (x) < (y); break;         \
    case CMP_LE: res = (x) <= (y); break;        \
    case CMP_EQ: res = (x) == (y); break;        \
    case CMP_NE: res = (x) != (y); break;        \
    case CMP_GT: res = (x) > (y); break;         \
    default: res = (x) >= (y); break;            \
    }
        if (IS_SMALLINT(a) && IS_SMALLINT(b)) {
            /* tagging keeps the order */
            C_COMPARE((int64_t)(uintptr_t)a, (int64_t)(uintptr_t)b);
            goto compare_done;
        }
        if (TID(a) == TID_FLOAT && TID(b) == TID_FLOAT) {
            C_COMPARE(FLOAT_VAL(a), FLOAT_VAL(b));
            goto compare_done;
        }
#undef C_COMPARE
        if ((ARG == CMP_EQ || ARG == CMP_NE) && TID(a) == TID_STR && TID(b) == TID_STR) {
            res = (a == b || str_eq(a, b)) == (ARG == CMP_EQ);
            goto compare_done;
        }
        {
            Obj r = vm_richcompare(a, b, (int)ARG);
            if (!r)
                goto error;
            sp--;
            sp[-1] = r;
            DISPATCH();
        }
    compare_done: {
        /* Fused with a following conditional jump. */
        uint32_t next = *ip;
        sp -= 2;
        if (INSTR_OP(next) == OP_POP_JUMP_IF_FALSE) {
            ip = res ? ip + 1 : co->code + INSTR_ARG(next);
            DISPATCH();
        }
        if (INSTR_OP(next) == OP_POP_JUMP_IF_TRUE) {
            ip = res ? co->code + INSTR_ARG(next) : ip + 1;
            DISPATCH();
        }
        *sp++ = res ? g_True : g_False;
        DISPATCH();
    }
    }
    TARGET(IS_OP) {
        int res = (sp[-2] == sp[-1]) ^ (int)ARG;
        sp--;
        sp[-1] = res ? g_True : g_False;
        DISPATCH();
    }
    TARGET(CONTAINS_OP) {
        int r = vm_contains(sp[-1], sp[-2]);
        if (r < 0)
            goto error;
        sp--;
        sp[-1] = (r ^ (int)ARG) ? g_True : g_False;
        DISPATCH();
    }
    TARGET(BINARY_OP) {
        Obj b = sp[-1], a = sp[-2];
        Obj r;
        unsigned op = ARG;
        unsigned bop = op >= NB_INPLACE_BASE ? op - NB_INPLACE_BASE : op;
        if (IS_SMALLINT(a) && IS_SMALLINT(b)) {
            int64_t x = SMALLINT_VAL(a), y = SMALLINT_VAL(b), z;
            switch (bop) {
            case NB_ADD:
                z = x + y;
                if (likely(SMALLINT_FITS(z)))
                    goto binop_int;
                break;
            case NB_SUB:
                z = x - y;
                if (likely(SMALLINT_FITS(z)))
                    goto binop_int;
                break;
            case NB_MUL:
                if (!__builtin_mul_overflow(x, y, &z) && SMALLINT_FITS(z))
                    goto binop_int;
                break;
            case NB_FLOORDIV:
                if (y != 0) {
                    z = x / y;
                    if ((x % y != 0) && ((x < 0) != (y < 0)))
                        z--;
                    if (SMALLINT_FITS(z))
                        goto binop_int;
                }
                break;
            case NB_MOD:
                if (y != 0) {
                    z = x % y;
                    if (z != 0 && ((z < 0) != (y < 0)))
                        z += y;
                    goto binop_int;
                }
                break;
            case NB_AND: z = x & y; goto binop_int;
            case NB_OR: z = x | y; goto binop_int;
            case NB_XOR: z = x ^ y; goto binop_int;
            case NB_RSHIFT:
                if (y >= 0) {
                    z = y > 63 ? (x < 0 ? -1 : 0) : x >> y;
                    goto binop_int;
                }
                break;
            case NB_LSHIFT:
                if (y >= 0 && y < 62) {
                    z = (int64_t)((uint64_t)x << y);
                    if ((z >> y) == x && SMALLINT_FITS(z))
                        goto binop_int;
                }
                break;
            case NB_TRUEDIV:
                if (y != 0 && x > -(1LL << 53) && x < (1LL << 53) && y > -(1LL << 53) && y < (1LL << 53)) {
                    r = float_new((double)x / (double)y);
                    if (!r)
                        goto error;
                    goto binop_done;
                }
                break;
            default:
                break;
            }
            goto binop_slow;
        binop_int:
            sp--;
            sp[-1] = MAKE_SMALLINT(z);
            DISPATCH();
        }
        {
            double x, y;
            if (TID(a) == TID_FLOAT) {
                x = FLOAT_VAL(a);
                if (TID(b) == TID_FLOAT)
                    y = FLOAT_VAL(b);
                else if (IS_SMALLINT(b))
                    y = (double)SMALLINT_VAL(b);
                else
                    goto binop_slow;
            } else if (TID(b) == TID_FLOAT && IS_SMALLINT(a)) {
                x = (double)SMALLINT_VAL(a);
                y = FLOAT_VAL(b);
            } else {
                goto binop_slow;
            }
            double z;
            switch (bop) {
            case NB_ADD: z = x + y; break;
            case NB_SUB: z = x - y; break;
            case NB_MUL: z = x * y; break;
            case NB_TRUEDIV:
                if (y == 0.0)
                    goto binop_slow;
                z = x / y;
                break;
            default:
                goto binop_slow;
            }
            r = float_new(z);
            if (!r)
                goto error;
            goto binop_done;
        }
    binop_slow:
        if (bop == NB_ADD && TID(a) == TID_STR && TID(b) == TID_STR)
            r = str_concat(a, b);
        else if (op >= NB_INPLACE_BASE)
            r = vm_inplace_binop(a, b, (int)bop);
        else
            r = vm_binop(a, b, (int)op);
        if (!r)
            goto error;
    binop_done:
        sp--;
        sp[-1] = r;
        DISPATCH();
    }
    TARGET(UNARY_OP) {
        Obj v = sp[-1];
        Obj r;
        switch (ARG) {
        case UN_NOT: {
            int t = truth(v);
            if (t < 0)
                goto error;
            sp[-1] = t ? g_False : g_True;
            DISPATCH();
        }
        case UN_NEG:
            if (IS_SMALLINT(v) && SMALLINT_VAL(v) != SMALLINT_MIN) {
                sp[-1] = MAKE_SMALLINT(-SMALLINT_VAL(v));
                DISPATCH();
            }
            if (TID(v) == TID_FLOAT) {
                r = float_new(-FLOAT_VAL(v));
                if (!r)
                    goto error;
                sp[-1] = r;
                DISPATCH();
            }
            break;
        case UN_INVERT:
            if (IS_SMALLINT(v)) {
                sp[-1] = MAKE_SMALLINT(~SMALLINT_VAL(v));
                DISPATCH();
            }
            break;
        default:
            break;
        }
        r = vm_unaryop(v, (int)ARG);
        if (!r)
            goto error;
        sp[-1] = r;
        DISPATCH();
    }
    TARGET(BINARY_SUBSCR) {
        Obj key = sp[-1], c = sp[-2];
        Obj r;
        if (IS_SMALLINT(key)) {
            int64_t i = SMALLINT_VAL(key);
            unsigned tid = TID(c);
            if (tid == TID_LIST) {
                int64_t n = LIST_LEN(c);
                if (i < 0)
                    i += n;
                if ((uint64_t)i < (uint64_t)n) {
                    sp--;
                    sp[-1] = LIST_ITEMS(c)[i];
                    DISPATCH();
                }
            } else if (tid == TID_TUPLE) {
                int64_t n = TUPLE_LEN(c);
                if (i < 0)
                    i += n;
                if ((uint64_t)i < (uint64_t)n) {
                    sp--;
                    sp[-1] = TUPLE_ITEMS(c)[i];
                    DISPATCH();
                }
            }
        }
        r = vm_getitem(c, key);
        if (!r)
            goto error;
        sp--;
        sp[-1] = r;
        DISPATCH();
    }
    TARGET(STORE_SUBSCR) {
        /* v container key */
        Obj key = sp[-1], c = sp[-2];
        if (IS_SMALLINT(key) && TID(c) == TID_LIST) {
            int64_t i = SMALLINT_VAL(key), n = LIST_LEN(c);
            if (i < 0)
                i += n;
            if ((uint64_t)i < (uint64_t)n) {
                Obj arr = LIST(c)->array;
                VM_WRITE_ITEM(arr, i);
                ARRAY(arr)->items[i] = sp[-3];
                sp -= 3;
                DISPATCH();
            }
        }
        if (vm_setitem(c, key, sp[-3]) < 0)
            goto error;
        sp -= 3;
        DISPATCH();
    }
    TARGET(DELETE_SUBSCR) {
        if (vm_delitem(sp[-2], sp[-1]) < 0)
            goto error;
        sp -= 2;
        DISPATCH();
    }

    /* ---- builders ---- */
    TARGET(BUILD_SLICE) {
        Obj r;
        if (ARG == 3) {
            r = slice_new(sp[-3], sp[-2], sp[-1]);
            if (!r)
                goto error;
            sp -= 2;
        } else {
            r = slice_new(sp[-2], sp[-1], g_None);
            if (!r)
                goto error;
            sp -= 1;
        }
        sp[-1] = r;
        DISPATCH();
    }
    /* The top nitems slots become the result of build (items in slots). */
#define BUILD_FROM_STACK(nitems, build)    \
    do {                                   \
        int n_ = (nitems);                 \
        Obj r_ = build;                    \
        if (!r_)                           \
            goto error;                    \
        sp -= n_;                          \
        *sp++ = r_;                        \
        DISPATCH();                        \
    } while (0)
    TARGET(BUILD_TUPLE) { BUILD_FROM_STACK((int)ARG, ARG == 0 ? g_empty_tuple : tuple_from_array(sp - n_, n_)); }
    TARGET(BUILD_LIST) { BUILD_FROM_STACK((int)ARG, list_from_array(sp - n_, n_)); }
    TARGET(BUILD_SET) { BUILD_FROM_STACK((int)ARG, build_set(sp - n_, n_)); }
    TARGET(BUILD_MAP) { BUILD_FROM_STACK(2 * (int)ARG, build_map(sp - n_, (int)ARG)); }
    TARGET(BUILD_CONST_KEY_MAP) { BUILD_FROM_STACK((int)ARG + 1, build_const_key_map(sp - n_, (int)ARG)); }
    TARGET(BUILD_STRING) { BUILD_FROM_STACK((int)ARG, build_string(sp - n_, n_)); }
#undef BUILD_FROM_STACK
    TARGET(LIST_APPEND) {
        Obj v = sp[-1];
        if (list_append(sp[-1 - (int)ARG], v) < 0)
            goto error;
        sp--;
        DISPATCH();
    }
    TARGET(SET_ADD) {
        if (set_add(sp[-1 - (int)ARG], sp[-1]) < 0)
            goto error;
        sp--;
        DISPATCH();
    }
    TARGET(MAP_ADD) {
        if (dict_setitem(sp[-2 - (int)ARG], sp[-2], sp[-1]) < 0)
            goto error;
        sp -= 2;
        DISPATCH();
    }
    TARGET(LIST_EXTEND) {
        /* arg bit 16 (compiler's choice): the list is a call's argument
         * list, for CPython's "f() argument after * ..." message. */
        int i = (int)(ARG & 0xffff);
        if (list_extend_star(sp - 1 - i, sp - 1) < 0) {
            if ((ARG >> 16) && err_matches(E_TypeError) && sp - 1 - i - 2 >= f->stack_base)
                call_star_arg_error(sp[-1 - i - 2], sp[-1]);
            goto error;
        }
        sp--;
        DISPATCH();
    }
    TARGET(SET_UPDATE) {
        if (set_update(sp[-1 - (int)ARG], sp[-1]) < 0)
            goto error;
        sp--;
        DISPATCH();
    }
    TARGET(DICT_UPDATE) {
        if (dict_update_mapping(&sp[-1 - (int)ARG], &sp[-1]) < 0)
            goto error;
        sp--;
        DISPATCH();
    }
    TARGET(DICT_MERGE) {
        /* callable self_or_NULL args_tuple dict ... mapping */
        int i = (int)ARG;
        Obj *fslot = sp - 1 - i - 3;
        Obj func = fslot >= f->stack_base ? *fslot : NULL;
        if (func && TID(func) == TID_METHOD)
            func = ((MethodObj *)func)->func;
        if (func && !IS_FUNCTION(func))
            func = NULL;
        if (call_merge_kwargs(sp[-1 - i], sp[-1], func) < 0)
            goto error;
        sp--;
        DISPATCH();
    }
    TARGET(LIST_TO_TUPLE) {
        Obj r = list_to_tuple(sp - 1);
        if (!r)
            goto error;
        sp[-1] = r;
        DISPATCH();
    }
    TARGET(UNPACK_SEQUENCE) {
        int n = (int)ARG;
        Obj seq = sp[-1];
        unsigned tid = TID(seq);
        if (tid == TID_TUPLE || tid == TID_LIST) {
            int64_t len = tid == TID_TUPLE ? TUPLE_LEN(seq) : LIST_LEN(seq);
            if (len == n) {
                sp--;
                if (tid == TID_TUPLE)
                    for (int i = n - 1; i >= 0; i--)
                        *sp++ = TUPLE_ITEMS(seq)[i];
                else
                    for (int i = n - 1; i >= 0; i--)
                        *sp++ = LIST_ITEMS(seq)[i];
                DISPATCH();
            }
            if (len < n)
                err_format(E_ValueError, "not enough values to unpack (expected %d, got %d)", n, (int)len);
            else
                err_format(E_ValueError, "too many values to unpack (expected %d)", n);
            goto error;
        }
        {
            Obj *tmp = vm_roots(n);
            if (unpack_iterable(seq, tmp, n) < 0) {
                vm_unroots(tmp);
                unpack_not_iterable_error(sp - 1);
                goto error;
            }
            sp--;
            for (int i = n - 1; i >= 0; i--)
                *sp++ = tmp[i];
            vm_unroots(tmp);
        }
        DISPATCH();
    }
    TARGET(UNPACK_EX) {
        Obj *nsp = unpack_ex(sp, (int)(ARG & 0xff), (int)(ARG >> 8));
        if (!nsp)
            goto error;
        sp = nsp;
        DISPATCH();
    }
    TARGET(FORMAT_VALUE) {
        Obj spec = NULL;
        if (ARG & 4)
            spec = *--sp;
        Obj r = format_value(sp[-1], (int)(ARG & 3), spec);
        if (!r)
            goto error;
        sp[-1] = r;
        DISPATCH();
    }
    TARGET(MAKE_FUNCTION) {
        int fl = (int)ARG;
        Obj fn = make_function(sp, fl, HDR[HDR_GLOBALS]);
        if (!fn)
            goto error;
        sp -= 1 + !!(fl & 1) + !!(fl & 2) + !!(fl & 4) + !!(fl & 8);
        *sp++ = fn;
        DISPATCH();
    }
    TARGET(LOAD_BUILD_CLASS) {
        Obj b = HDR[HDR_BUILTINS];
        Obj v = IS_DICT(b) ? dict_getitem_cstr(b, "__build_class__") : NULL;
        if (!v) {
            if (!err_occurred())
                err_set(E_NameError, "__build_class__ not found");
            goto error;
        }
        *sp++ = v;
        DISPATCH();
    }
    TARGET(IMPORT_NAME) {
        /* level fromlist -- module */
        int64_t level = 0;
        if (IS_SMALLINT(sp[-2]))
            level = SMALLINT_VAL(sp[-2]);
        Obj m = likely(builtin_import_in_place(HDR[HDR_BUILTINS]))
                    ? vm_import(NAME(ARG), HDR[HDR_GLOBALS], sp[-1], (int)level)
                    : import_name_slow(HDR[HDR_BUILTINS], NAME(ARG), HDR[HDR_GLOBALS], HDR[HDR_LOCALS], sp[-1], level);
        if (!m)
            goto error;
        sp--;
        sp[-1] = m;
        DISPATCH();
    }
    TARGET(IMPORT_FROM) {
        Obj v = import_from(sp[-1], NAME(ARG));
        if (!v)
            goto error;
        *sp++ = v;
        DISPATCH();
    }
    TARGET(IMPORT_STAR) {
        if (import_star(f, sp[-1]) < 0)
            goto error;
        sp--;
        DISPATCH();
    }

    /* ---- exceptions ---- */
    TARGET(RAISE_VARARGS) {
        int n = (int)ARG;
        if (n == 0) {
            Obj h = vm_ts.roots[ROOT_HANDLED_EXC];
            if (!h) {
                err_set(E_RuntimeError, "No active exception to reraise");
                goto error;
            }
            eval_set_exc(h);
            goto unwind;
        }
        if (do_raise(sp[-n], n == 2 ? sp[-1] : NULL) < 0)
            goto error;
        sp -= n;
        goto error_tb;
    }
#define CHECK_BLOCK_ROOM()                                                  \
    do {                                                                    \
        if (unlikely(f->nblocks >= FRAME_MAX_BLOCKS)) {                     \
            err_set(E_SystemError, "too many statically nested blocks");    \
            goto error;                                                     \
        }                                                                   \
    } while (0)
    TARGET(SETUP_FINALLY) {
        CHECK_BLOCK_ROOM();
        push_block(f, BLK_TRY, ARG, sp);
        DISPATCH();
    }
    TARGET(SETUP_WITH) {
        CHECK_BLOCK_ROOM();
        Obj res = setup_with(sp - 1, false);
        if (!res)
            goto error;
        push_block(f, BLK_TRY, ARG, sp);
        *sp++ = res;
        DISPATCH();
    }
    TARGET(SETUP_ASYNC_WITH) {
        /* exit res: the try block starts just above exit (the awaited
         * __aenter__() result is stored or popped next) */
        CHECK_BLOCK_ROOM();
        push_block(f, BLK_TRY, ARG, sp - 1);
        DISPATCH();
    }
#undef CHECK_BLOCK_ROOM
    TARGET(BEFORE_ASYNC_WITH) {
        Obj res = setup_with(sp - 1, true);
        if (!res)
            goto error;
        *sp++ = res;
        DISPATCH();
    }
    TARGET(GET_AWAITABLE) {
        Obj it = coro_get_awaitable(sp[-1], (int)ARG);
        if (!it)
            goto error;
        sp[-1] = it;
        DISPATCH();
    }
    TARGET(GET_AITER) {
        Obj it = coro_get_aiter(sp[-1]);
        if (!it)
            goto error;
        sp[-1] = it;
        DISPATCH();
    }
    TARGET(GET_ANEXT) {
        Obj aw = coro_get_anext(sp[-1]);
        if (!aw)
            goto error;
        *sp++ = aw;
        DISPATCH();
    }
    TARGET(END_ASYNC_FOR) {
        /* aiter prev exc, in the handler of the loop's next step */
        Obj exc = sp[-1];
        if (!vm_isinstance_type(exc, E_StopAsyncIteration)) {
            eval_set_exc(*--sp);   /* as RERAISE */
            goto unwind;
        }
        if (f->nblocks <= 0 || f->blocks[f->nblocks - 1].type != BLK_EXCEPT_HANDLER) {
            err_set(E_SystemError, "popped block is not an except handler");
            goto error;
        }
        f->nblocks--;
        Obj prev = sp[-2];
        vm_ts.roots[ROOT_HANDLED_EXC] = IS_NONE(prev) ? NULL : prev;
        sp -= 3;
        DISPATCH();
    }
    TARGET(ASYNC_GEN_WRAP) {
        Obj w = asyncgen_wrap_value(sp[-1]);
        if (!w)
            goto error;
        sp[-1] = w;
        DISPATCH();
    }
    TARGET(POP_BLOCK) {
        if (f->nblocks > 0)
            f->nblocks--;
        DISPATCH();
    }
    TARGET(POP_EXCEPT) {
        if (f->nblocks <= 0 || f->blocks[f->nblocks - 1].type != BLK_EXCEPT_HANDLER) {
            err_set(E_SystemError, "popped block is not an except handler");
            goto error;
        }
        f->nblocks--;
        Obj prev = *--sp;
        vm_ts.roots[ROOT_HANDLED_EXC] = IS_NONE(prev) ? NULL : prev;
        DISPATCH();
    }
    TARGET(RERAISE) {
        eval_set_exc(*--sp);
        goto unwind;
    }
    TARGET(JUMP_IF_NOT_EXC_MATCH) {
        Obj type = sp[-1], exc = sp[-2];
        if (!valid_exc_class(type)) {
            err_set(E_TypeError, "catching classes that do not inherit from BaseException is not allowed");
            goto error;
        }
        sp -= 2;
        if (!err_given_matches(exc, type))
            JUMP_TO(ARG);
        DISPATCH();
    }
    TARGET(CHECK_EG_MATCH) {
        /* rest type -- rest' match  |  rest type -- rest (jump) */
        Obj type = sp[-1];
        if (!valid_exc_class(type)) {
            err_set(E_TypeError, "catching classes that do not inherit from BaseException is not allowed");
            goto error;
        }
        if (exc_group_check_star_type(type) < 0)
            goto error;
        Obj *r = vm_roots(2);
        int rc = exc_group_match(sp[-2], sp[-1], r);
        Obj match = r[0], rest = r[1];
        vm_unroots(r);
        if (rc < 0)
            goto error;
        if (!match) {
            sp--;
            JUMP_TO(ARG);
            DISPATCH();
        }
        sp[-2] = rest ? rest : g_None;
        sp[-1] = match;
        vm_ts.roots[ROOT_HANDLED_EXC] = match;
        DISPATCH();
    }
    TARGET(PREP_RERAISE_STAR) {
        Obj res = exc_group_prep_reraise(sp[-2], sp[-1]);
        if (!res)
            goto error;
        sp--;
        sp[-1] = res;
        DISPATCH();
    }
    TARGET(CALL_EXIT_NONE) {
        Obj *r = vm_roots(3);
        r[0] = r[1] = r[2] = g_None;
        Obj res = vm_call(sp[-1], r, 3, NULL);
        vm_unroots(r);
        if (!res)
            goto error;
        if (ARG)
            sp[-1] = res;   /* async with: awaited next */
        else
            sp--;
        DISPATCH();
    }
    TARGET(WITH_EXCEPT_START) {
        /* exit prev exc -- exit prev exc res */
        Obj exc = sp[-1];
        Obj *r = vm_roots(3);
        r[0] = (Obj)TYPE(exc);
        r[1] = exc;
        Obj tb = IS_EXCEPTION(exc) ? EXC(exc)->traceback : NULL;
        r[2] = tb ? tb : g_None;
        Obj res = vm_call(sp[-3], r, 3, NULL);
        vm_unroots(r);
        if (!res)
            goto error;
        *sp++ = res;
        DISPATCH();
    }
    TARGET(LOAD_ASSERTION_ERROR) {
        *sp++ = (Obj)E_AssertionError;
        DISPATCH();
    }
    TARGET(GET_LEN) {
        int64_t n = vm_len(sp[-1]);
        if (n < 0)
            goto error;
        Obj r = int_from_i64(n);
        if (!r)
            goto error;
        *sp++ = r;
        DISPATCH();
    }
    /* ---- pattern matching ---- */
    TARGET(MATCH_SEQUENCE) {
        *sp = (TYPE(sp[-1])->flags & TPF_SEQUENCE) ? g_True : g_False;
        sp++;
        DISPATCH();
    }
    TARGET(MATCH_MAPPING) {
        *sp = (TYPE(sp[-1])->flags & TPF_MAPPING) ? g_True : g_False;
        sp++;
        DISPATCH();
    }
    TARGET(MATCH_KEYS) {
        Obj values = match_keys(sp - 2);
        if (!values)
            goto error;
        *sp++ = values;
        DISPATCH();
    }
    TARGET(MATCH_CLASS) {
        Obj attrs = match_class(sp - 3, (int)ARG);
        if (!attrs)
            goto error;
        sp -= 2;
        sp[-1] = attrs;
        DISPATCH();
    }
    TARGET(COPY_DICT_WITHOUT_KEYS) {
        Obj rest = copy_dict_without_keys(sp - 2);
        if (!rest)
            goto error;
        sp--;
        sp[-1] = rest;
        DISPATCH();
    }
    TARGET(OP_COUNT_) { goto bad_opcode; }
    L_trace_hook:
        /* tracing (trace.c): events before the instruction in `word` */
        f->sp = sp;
        if (unlikely(eval_trace_instr(f) < 0))
            goto error;
        if (INSTR_OP(word) == OP_RETURN_VALUE)
            goto return_other;   /* the 'return' event: RETURN_VALUE's fast path has no check */
        goto *labels[INSTR_OP(word)];
    L_bad_opcode:
    bad_opcode:
        err_format(E_SystemError, "unknown opcode %u", INSTR_OP(word));
        goto error;

    /* ---- leaving frames ---- */
return_other: {
        YIELD_POINT_AT(1);   /* RETURN_VALUE again when resumed */
        if (unlikely(vm_tracing)) {
            f->sp = sp;
            if (eval_trace_return(f, sp[-1]) < 0)
                goto error;
        }
        Obj v = sp[-1];
        switch (f->kind) {
        case FR_ENTRY:
            pop_frame(f);
            tm_self.ss_top = (object_t **)f->localsplus;
            *status = RUN_RETURNED;
            LEAVE_RUN_WITH(v);
            return v;
        case FR_GEN_ENTRY:
            gen_finish_frame(f);
            tm_self.ss_top = (object_t **)f->localsplus;
            *status = RUN_RETURNED;
            LEAVE_RUN_WITH(v);
            return v;
        case FR_GEN_FORITER:
            gen_finish_frame(f);
            RESUME_FRAME(f->back);
            sp--;                        /* pop the exhausted iterator */
            JUMP_TO(INSTR_ARG(ip[-1]));  /* the FOR_ITER's exit target */
            DISPATCH();
        case FR_GEN_YIELDFROM:
            gen_finish_frame(f);
            RESUME_FRAME(f->back);
            f->gen_clean = 0;            /* it runs on past its YIELD_FROM */
            sp[-1] = v;                  /* replaces the receiver */
            DISPATCH();
        case FR_INIT:
            /* the caller's stack keeps the new instance below the arguments */
            pop_frame(f);
            RESUME_FRAME(f->back);
            if (!IS_NONE(v)) {
                err_format(E_TypeError, "__init__() should return None, not '%s'", type_name(v));
                goto error;
            }
            sp++;
            DISPATCH();
        default: /* FR_CALL (RETURN_VALUE's fast path) */
            pop_frame(f);
            RESUME_FRAME(f->back);
            *sp++ = v;
            DISPATCH();
        }
    }

error: {
        f->gen_clean = 0;   /* a handler may run on in this frame */
        Obj exc = err_occurred();
        if (unlikely(!exc)) {
            err_set(E_SystemError, "error return without exception set");
            exc = err_occurred();
        }
        exc = vm_ts.roots[ROOT_CUR_EXC];
        if (exc && IS_EXCEPTION(exc) && !EXC(exc)->traceback)
            eval_chain_context(exc, vm_ts.roots[ROOT_HANDLED_EXC]);
    }
error_tb:
    traceback_prepend(vm_ts.roots[ROOT_CUR_EXC], (Obj)co, FRAME_HDR(f)[HDR_GLOBALS], code_line_at(co, ip - co->code - 1), ip - co->code - 1);
    if (unlikely(vm_tracing)) {
        f->sp = sp;
        if (eval_trace_exception(f) < 0)
            goto error;   /* the trace function raised: it is removed, its error goes on */
    }
unwind:
    while (f->nblocks > 0) {
        Block *b = &f->blocks[--f->nblocks];
        Obj *lvl = f->stack_base + b->level;
        if (b->type == BLK_EXCEPT_HANDLER) {
            Obj prev = lvl[0];
            vm_ts.roots[ROOT_HANDLED_EXC] = (!prev || IS_NONE(prev)) ? NULL : prev;
            sp = lvl;
            continue;
        }
        /* A try block: run its handler with `prev exc` on the stack. */
        uint32_t handler = b->handler;
        sp = lvl;
        push_block(f, BLK_EXCEPT_HANDLER, 0, sp);
        Obj prev = vm_ts.roots[ROOT_HANDLED_EXC];
        Obj exc = vm_ts.roots[ROOT_CUR_EXC];
        *sp++ = prev ? prev : g_None;
        *sp++ = exc;
        vm_ts.roots[ROOT_HANDLED_EXC] = exc;
        vm_ts.roots[ROOT_CUR_EXC] = NULL;
        JUMP_TO(handler);
        DISPATCH();
    }
    /* No handler here: the frame exits with the exception. */
    if (unlikely(vm_tracing)) {
        f->sp = sp;
        if (eval_trace_return(f, NULL) < 0)
            goto error_tb;
    }
    switch (f->kind) {
    case FR_ENTRY:
        pop_frame(f);
        tm_self.ss_top = (object_t **)f->localsplus;
        *status = RUN_ERROR;
        LEAVE_RUN();
        return NULL;
    case FR_GEN_ENTRY: {
        unsigned gtid = TID(FRAME_HDR(f)[HDR_GEN]);
        gen_finish_frame(f);
        gen_convert_stop_exc(gtid);
        tm_self.ss_top = (object_t **)f->localsplus;
        *status = RUN_ERROR;
        LEAVE_RUN();
        return NULL;
    }
    case FR_GEN_FORITER:
    case FR_GEN_YIELDFROM: {
        unsigned gtid = TID(FRAME_HDR(f)[HDR_GEN]);
        gen_finish_frame(f);
        gen_convert_stop_exc(gtid);
        f = f->back;
        f->gen_clean = 0;
        break;
    }
    default: {
        Frame *caller = f->back;
        pop_frame(f);
        f = caller;
        break;
    }
    }
    tm_self.ss_top = (object_t **)f->end;
    LOAD_FRAME();
    goto error_tb;

#undef TARGET
#undef ARG
#undef DISPATCH
#undef LOAD_FRAME
#undef RESUME_FRAME
#undef HDR
#undef CHECK_SIGNALS
#undef NAME
#undef JUMP_TO
}
#pragma GCC diagnostic pop

/* The loop, entered from C. STM: transactions end at yield points, at any
 * eval depth: the loop returns here, the transaction commits and the next
 * one starts in this C frame, which outlives it (the setjmp an abort comes
 * back to; txstate.c then has the frames as they were at its start), and
 * the loop resumes on the innermost frame. The C frames below this one
 * (a builtin that called Python) wait for the loop to return: an abort
 * never goes below it, and the loop leaves it only inevitable (LEAVE_RUN).
 * Weak callbacks and finalizers run between transactions of the
 * outermost loop only (gcwork.c). */
Obj eval_run(Frame *entry, int throwing, int *status)
{
#if TM_STM
    bool brk = false;
    Obj r = eval_loop(entry, throwing, status, &brk);
    while (brk) {
        tm_cm_continue_next();   /* a serialised thread may keep the token */
        vm_tx_commit();
        tm_start_transaction();
        vm_tx_started();   /* the saved state back after an abort, else a snapshot */
        if (unlikely(tm_gc_pending) && vm_eval_levels == 1)
            vm_run_gc_work();   /* weak callbacks, finalizers: inevitable (gcwork.c) */
        brk = false;
        r = eval_loop(vm_ts.frame, 0, status, &brk);
    }
    return r;
#else
    return eval_loop(entry, throwing, status, NULL);
#endif
}

/* ------------------------------------------------------------------ */
/* Entry points from C                                                */
/* ------------------------------------------------------------------ */
__thread int vm_eval_levels;

Obj eval_call_function(Obj func, Obj *args, size_t nargs, Obj kwnames)
{
    CodeObj *co = (CodeObj *)((FunctionObj *)func)->code;
    if (unlikely(co->flags & CO_GENERATOR) && !kwnames && nargs == (size_t)co->argcount && nargs <= 8 &&
        co->kwonlyargcount == 0 && !(co->flags & (CO_VARARGS | CO_VARKEYWORDS)) &&
        !(co->ncellvars | co->nfreevars))
        return gen_create_args(func, args, nargs);   /* iter() of a class whose __iter__ is a generator */
    if (eval_enter_level() < 0)
        return NULL;
    Obj gen = NULL;
    Frame *f = eval_push_function(func, args, nargs, kwnames, &gen);
    Obj r;
    if (!f)
        r = gen;
    else
        r = eval_run(f, 0, NULL);
    eval_leave_level();
    return r;
}

Obj vm_eval_code(Obj code, Obj globals, Obj locals)
{
    if (!IS_CODE(code)) {
        err_set(E_TypeError, "expected a code object");
        return NULL;
    }
    if (((CodeObj *)code)->flags & CO_GENERATOR)
        return g_None;   /* CPython makes a generator and drops it */
    if (((CodeObj *)code)->nfreevars) {
        err_set(E_TypeError, "code object passed to exec() may not contain free variables");
        return NULL;
    }
    globals = vm_unwrap(globals);
    if (!IS_DICT(globals)) {
        err_set(E_TypeError, "globals must be a dict");
        return NULL;
    }
    if (eval_enter_level() < 0)
        return NULL;
    Obj *r = vm_roots(3);
    r[0] = globals;
    r[1] = locals ? locals : globals;
    /* Module code without __builtins__ gets the builtins module. */
    if (!dict_getitem_cstr(r[0], "__builtins__")) {
        if (err_occurred() || !g_builtins) {
            vm_unroots(r);
            eval_leave_level();
            if (!err_occurred())
                err_set(E_SystemError, "no builtins");
            return NULL;
        }
        Obj bm = dict_getitem_cstr(g_modules, "builtins");
        if (dict_setitem_cstr(r[0], "__builtins__", bm ? bm : g_builtins) < 0) {
            vm_unroots(r);
            eval_leave_level();
            return NULL;
        }
    }
    r[2] = eval_globals_builtins(r[0]);
    Obj res = NULL;
    Frame *f = push_code_frame(code, NULL, r[0], r[2], r[1]);
    if (f) {
        /* the frame's slots are above r: r must stay until the frame is gone */
        res = eval_run(f, 0, NULL);
    }
    vm_unroots(r);
    eval_leave_level();
    return res;
}

Obj eval_run_class_body(Obj func, Obj ns)
{
    if (!IS_FUNCTION(func)) {
        err_set(E_TypeError, "class body must be a function");
        return NULL;
    }
    if (eval_enter_level() < 0)
        return NULL;
    Obj *r = vm_roots(2);
    r[0] = func;
    r[1] = ns;
    FunctionObj *F = (FunctionObj *)func;
    Frame *f = push_code_frame(F->code, r[0], F->globals, F->builtins, r[1]);
    Obj res = f ? eval_run(f, 0, NULL) : NULL;
    vm_unroots(r);
    eval_leave_level();
    return res;
}

int vm_current_future_flags(void)
{
    Frame *f = vm_ts.frame;
    if (!f || !f->code)
        return 0;
    return (((CodeObj *)f->code)->flags & CO_FUTURE_ANNOTATIONS) ? COMPILE_FUTURE_ANNOTATIONS : 0;
}

Obj eval_current_globals(void)
{
    Frame *f = vm_ts.frame;
    return f ? FRAME_HDR(f)[HDR_GLOBALS] : NULL;
}

Obj vm_current_locals(void)
{
    Frame *f = vm_ts.frame;
    if (!f) {
        err_set(E_SystemError, "locals(): no current frame");
        return NULL;
    }
    return eval_frame_locals(f);
}

Obj eval_frame_locals(Frame *f)
{
    Obj loc = FRAME_HDR(f)[HDR_LOCALS];
    if (loc)
        return loc;
    Obj *r = vm_roots(1);
    r[0] = (Obj)f->code;
    Obj d = eval_slots_locals(&r[0], f->localsplus);
    vm_unroots(r);
    return d;
}

/* A new dict of the bound locals in slots[0..nlocalsplus) (roots: a frame's
 * or a copy of a generator's), cells read through; the code in *code_root,
 * a root too, since the insertions allocate. */
Obj eval_slots_locals(Obj *code_root, Obj *slots)
{
    Obj *r = vm_roots(1);
    r[0] = dict_new();
    if (!r[0])
        goto fail;
    int n = code_nlocalsplus((CodeObj *)*code_root);
    for (int i = 0; i < n; i++) {
        CodeObj *co = (CodeObj *)*code_root;
        Obj v = slots[i];
        if (v && i >= co->nlocals)
            v = CELL(v)->ref;
        if (v && dict_setitem(r[0], code_localname(co, i), v) < 0)
            goto fail;
    }
    Obj d = r[0];
    vm_unroots(r);
    return d;
fail:
    vm_unroots(r);
    return NULL;
}

int eval_current_super_args(Obj *type_out, Obj *obj_out)
{
    Frame *f = vm_ts.frame;
    if (!f) {
        err_set(E_RuntimeError, "super(): no current frame");
        return -1;
    }
    CodeObj *co = f->code;
    if (co->argcount == 0) {
        err_set(E_RuntimeError, "super(): no arguments");
        return -1;
    }
    Obj obj = f->localsplus[0];
    /* The first argument may live in a cell. */
    for (int i = 0; i < co->ncellvars && i < 16; i++) {
        if (co->cell2arg[i] == 0) {
            Obj cell = f->localsplus[co->nlocals + i];
            if (cell)
                obj = CELL(cell)->ref;
            break;
        }
    }
    if (!obj) {
        err_set(E_RuntimeError, "super(): arg[0] deleted");
        return -1;
    }
    int n = code_nlocalsplus(co);
    for (int i = co->nlocals; i < n; i++) {
        if (str_eq_cstr(code_localname(co, i), "__class__")) {
            Obj cell = f->localsplus[i];
            Obj t = cell ? CELL(cell)->ref : NULL;
            if (!t) {
                err_set(E_RuntimeError, "super(): empty __class__ cell");
                return -1;
            }
            if (!IS_TYPE(t)) {
                err_format(E_RuntimeError, "super(): __class__ is not a type (%s)", type_name(t));
                return -1;
            }
            *type_out = t;
            *obj_out = obj;
            return 0;
        }
    }
    err_set(E_RuntimeError, "super(): __class__ cell not found");
    return -1;
}
