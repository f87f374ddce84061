/* Generators (and the frames of coroutines and async generators, which
 * share GenObj and everything here: coroutine.c adds their types). A generator object keeps a copy of its frame's shadow-stack
 * slots and block stack while suspended; resuming copies them back onto the
 * shadow stack and runs them in the eval loop (eval.c). FOR_ITER and
 * YIELD_FROM resume generators inside the loop without C recursion; the C
 * entry points here (send, throw, close, next) run a new loop level. */
#include "eval.h"
#include "objects/containers.h"

#include <stddef.h>
#include <string.h>

TypeObj *T_generator;

#define GEN_REF_WORD(field) (1ULL << (offsetof(struct GenObj_, field) / 8))
#define FRAME_REF_WORD(field) (1ULL << (offsetof(struct FrameObj_, field) / 8))

void eval_fill_layouts(tm_type *gl, tm_type *fl)
{
    memset(gl, 0, sizeof *gl);
    gl->name = "generator";
    gl->base_size = offsetof(struct GenObj_, slots);
    gl->item_size = sizeof(Obj);
    gl->length_offset = offsetof(struct GenObj_, nslots);
    gl->ref_words = GEN_REF_WORD(code) | GEN_REF_WORD(name) | GEN_REF_WORD(qualname) |
                    GEN_REF_WORD(exc_state) | GEN_REF_WORD(blocks) | GEN_REF_WORD(ag_finalizer);
    gl->items_are_refs = true;

    memset(fl, 0, sizeof *fl);
    fl->name = "frame";
    fl->base_size = sizeof(struct FrameObj_);
    fl->ref_words = FRAME_REF_WORD(code) | FRAME_REF_WORD(globals) | FRAME_REF_WORD(gen) | FRAME_REF_WORD(back) |
                    FRAME_REF_WORD(trace) | FRAME_REF_WORD(locals);
}

/* ------------------------------------------------------------------ */
/* Frames in and out of generator objects                              */
/* ------------------------------------------------------------------ */
static unsigned gen_tid_of(CodeObj *co)
{
    return (co->flags & CO_ASYNC_GENERATOR) ? TID_ASYNC_GENERATOR
           : (co->flags & CO_COROUTINE) ? TID_COROUTINE : TID_GENERATOR;
}

/* The fields of a new (zeroed) generator object but its slots. */
static void gen_setup(Obj gen, unsigned tid, CodeObj *co, Obj func)
{
    GenObj *g = GEN(gen);
    g->code = (Obj)co;
    g->name = ((FunctionObj *)func)->name;
    g->qualname = ((FunctionObj *)func)->qualname;
    g->state = GEN_CREATED;
    g->ip = 0;
    g->sp = 0;
    g->nblocks = 0;
    g->flags = 0;
    g->ag_finalizer = NULL;
    g->blocks = NULL;
    if (tid == TID_COROUTINE) {
        /* never awaited: warned about when collected */
        g->flags = GEN_F_FINALIZABLE;
        tm_register_finalizer((object_t *)gen);
    }
}

Obj gen_create(Obj func, CodeObj *co, Obj *lp)
{
    int nlp = code_nlocalsplus(co);
    int64_t nslots = nlp + FRAME_NHDR + co->stacksize;
    unsigned tid = gen_tid_of(co);
    Obj gen = (Obj)tm_allocate_var(tid, (uintptr_t)nslots);
    if (!gen)
        return err_nomemory();
    func = lp[nlp + HDR_FUNC];
    gen_setup(gen, tid, co, func);
    GenObj *g = GEN(gen);
    for (int i = 0; i < nlp + FRAME_NHDR; i++)
        g->slots[i] = lp[i];
    g->slots[nlp + HDR_GEN] = gen;
    g->slots[nlp + HDR_PREV_EXC] = NULL;
    return gen;
}

Obj gen_create_args(Obj func, Obj *args, size_t nargs)
{
    CodeObj *co = (CodeObj *)((FunctionObj *)func)->code;
    int nlp = code_nlocalsplus(co);
    int64_t nslots = nlp + FRAME_NHDR + co->stacksize;
    unsigned tid = gen_tid_of(co);
    /* args need not be roots: kept here across the allocation */
    Obj *r = vm_roots((int)nargs + 1);
    r[0] = func;
    for (size_t i = 0; i < nargs; i++)
        r[i + 1] = args[i];
    Obj gen = (Obj)tm_allocate_var(tid, (uintptr_t)nslots);
    if (!gen) {
        vm_unroots(r);
        return err_nomemory();
    }
    func = r[0];
    gen_setup(gen, tid, co, func);
    GenObj *g = GEN(gen);
    /* the other locals are unbound and the value stack empty: the new
     * object's slots are NULL */
    for (size_t i = 0; i < nargs; i++)
        g->slots[i] = r[i + 1];
    vm_unroots(r);
    g->slots[nlp + HDR_FUNC] = func;
    g->slots[nlp + HDR_GLOBALS] = ((FunctionObj *)func)->globals;
    g->slots[nlp + HDR_BUILTINS] = ((FunctionObj *)func)->builtins;
    g->slots[nlp + HDR_GEN] = gen;
    return gen;
}

static Frame *gen_push_frame(Obj gen, Obj sent, bool push_sent)
{
    return gen_push_frame_inline(gen, sent, push_sent);
}

void gen_suspend_frame(Frame *f, Obj *sp)
{
    if (unlikely(FRAME_HDR(f)[HDR_FRAMEOBJ] != NULL))
        eval_frame_ended(f);
    Obj *hdr = FRAME_HDR(f);
    Obj gen = hdr[HDR_GEN];
    GenObj *g = GEN(gen);
    VM_WRITE(gen);
    if (f->gen_clean && !hdr[HDR_FRAMEOBJ] && !vm_tracing) {
        /* It only ran its YIELD_FROM again (which popped the value sent in):
         * locals, value stack, ip, blocks and exception state are what its
         * generator saved when it last suspended here; the collector keeps
         * both copies' references current. */
        (void)g;
        gen_pop_clean_frame(f);
        return;
    }
    /* The header slots never change after creation but for the frame
     * object: save localsplus, it and the value stack. */
    int nlp = (int)(hdr - f->localsplus);
    if (hdr[HDR_FRAMEOBJ])
        g->slots[nlp + HDR_FRAMEOBJ] = hdr[HDR_FRAMEOBJ];
    int64_t nstack = sp - f->stack_base;
    tm_compiler_barrier();
    Obj *dst = (Obj *)VM_LINEAR(g->slots);
    memcpy(dst, f->localsplus, (size_t)nlp * sizeof(Obj));
    memcpy(dst + nlp + FRAME_NHDR, f->stack_base, (size_t)nstack * sizeof(Obj));
    tm_compiler_barrier();
    g->sp = sp - f->stack_base;
    g->ip = f->ip - f->code->code;
    g->nblocks = f->nblocks;
    if (unlikely(f->nblocks > 0) && !(g->flags & GEN_F_FINALIZABLE)) {
        /* suspended inside try/with: close() when collected can run code */
        g->flags |= GEN_F_FINALIZABLE;
        tm_register_finalizer((object_t *)gen);
    }
    bool in_handler = false;
    if (f->nblocks > 0) {
        VM_WRITE(g->blocks);   /* made by gen_reserve_blocks */
        tm_compiler_barrier();
        memcpy(VM_LINEAR(RAW(g->blocks)->data), f->blocks, (size_t)f->nblocks * sizeof(Block));
        tm_compiler_barrier();
        for (int i = 0; i < f->nblocks; i++)
            if (f->blocks[i].type == BLK_EXCEPT_HANDLER)
                in_handler = true;
    }
    g->exc_state = in_handler ? vm_ts.roots[ROOT_HANDLED_EXC] : NULL;
    vm_ts.roots[ROOT_HANDLED_EXC] = hdr[HDR_PREV_EXC];
    g->state = GEN_SUSPENDED;
    vm_ts.py_depth--;
    vm_ts.frame = f->back;
    vm_tx_frame_popped(f->back, f->localsplus);
}

int gen_alloc_blocks(Obj gen)
{
    Obj *r = vm_roots(1);
    r[0] = gen;
    Obj raw = raw_new(FRAME_MAX_BLOCKS * sizeof(Block));
    if (raw) {
        VM_WRITE(r[0]);
        GEN(r[0])->blocks = raw;
    }
    vm_unroots(r);
    return raw ? 0 : -1;
}

void gen_finish_frame(Frame *f)
{
    if (unlikely(FRAME_HDR(f)[HDR_FRAMEOBJ] != NULL))
        eval_frame_ended(f);
    Obj *hdr = FRAME_HDR(f);
    Obj gen = hdr[HDR_GEN];
    GenObj *g = GEN(gen);
    VM_WRITE(gen);
    if (unlikely(g->flags & GEN_F_FINALIZABLE) && tm_unregister_last_finalizer((object_t *)gen)) {
        /* finished: nothing left to finalize (an async generator is
         * registered at its first iteration, and one that ends before
         * anything else registers, as the leaves of a recursion do, need
         * not outlive the next minor collection) */
        g->flags &= ~GEN_F_FINALIZABLE;
    }
    g->state = GEN_FINISHED;
    g->exc_state = NULL;
    g->blocks = NULL;
    g->nblocks = 0;
    g->sp = 0;
    for (int64_t i = 0; i < g->nslots; i++)
        g->slots[i] = NULL;
    vm_ts.roots[ROOT_HANDLED_EXC] = hdr[HDR_PREV_EXC];
    vm_ts.py_depth--;
    vm_ts.frame = f->back;
    vm_tx_frame_popped(f->back, f->localsplus);
}

/* PEP 479: StopIteration escaping a generator-like frame (and
 * StopAsyncIteration escaping an async generator) becomes RuntimeError. */
void gen_convert_stop_exc(unsigned tid)
{
    Obj exc = vm_ts.roots[ROOT_CUR_EXC];
    const char *msg;
    if (!exc)
        return;
    if (vm_isinstance_type(exc, E_StopIteration))
        msg = tid == TID_COROUTINE ? "coroutine raised StopIteration"
              : tid == TID_ASYNC_GENERATOR ? "async generator raised StopIteration"
                                           : "generator raised StopIteration";
    else if (tid == TID_ASYNC_GENERATOR && vm_isinstance_type(exc, E_StopAsyncIteration))
        msg = "async generator raised StopAsyncIteration";
    else
        return;
    Obj *r = vm_roots(2);
    r[0] = exc;
    r[1] = str_from_cstr(msg);
    if (r[1]) {
        r[1] = exc_new(E_RuntimeError, &r[1], 1);
        if (r[1]) {
            VM_WRITE(r[1]);
            EXC(r[1])->cause = r[0];
            EXC(r[1])->context = r[0];
            EXC(r[1])->suppress_context = 1;
            eval_set_exc(r[1]);
        }
    }
    vm_unroots(r);
}

static bool gen_at_yield_from(GenObj *g)
{
    CodeObj *co = (CodeObj *)g->code;
    return g->state == GEN_SUSPENDED && (uint64_t)g->ip < co->ninstr &&
           INSTR_OP(co->code[g->ip]) == OP_YIELD_FROM && g->sp > 0;
}

static int64_t gen_top_slot(GenObj *g)
{
    return code_nlocalsplus((CodeObj *)g->code) + FRAME_NHDR + g->sp - 1;
}

/* ------------------------------------------------------------------ */
/* Resuming from C                                                     */
/* ------------------------------------------------------------------ */
const char *gen_kind_name(Obj gen)
{
    switch (TID(gen)) {
    case TID_COROUTINE: return "coroutine";
    case TID_ASYNC_GENERATOR: return "async generator";
    default: return "generator";
    }
}

static Obj gen_resume(Obj gen, Obj sent, Obj exc, int *status)
{
    *status = RUN_ERROR;
    GenObj *g = GEN(gen);
    if (g->state == GEN_RUNNING) {
        err_format(E_ValueError, "%s already executing", gen_kind_name(gen));
        return NULL;
    }
    if (g->state == GEN_FINISHED) {
        if (TID(gen) == TID_COROUTINE) {
            err_set(E_RuntimeError, "cannot reuse already awaited coroutine");
            return NULL;
        }
        if (TID(gen) == TID_ASYNC_GENERATOR && !exc) {
            err_set_obj((Obj)E_StopAsyncIteration);
            return NULL;
        }
        if (exc)
            eval_set_exc(exc);
        else
            err_set_obj((Obj)E_StopIteration);
        return NULL;
    }
    if (eval_enter_level() < 0)
        return NULL;
    /* Nothing below allocates before eval_run: no roots needed. */
    bool created = g->state == GEN_CREATED;
    bool at_yf = exc && !created && gen_at_yield_from(g);
    Frame *nf = gen_push_frame(gen, sent, !exc && !created && sent != NULL);
    Obj res = NULL;
    if (nf) {
        nf->kind = FR_GEN_ENTRY;
        if (exc) {
            eval_set_exc(exc);
            if (at_yf)
                nf->ip++;   /* raise at the YIELD_FROM itself */
        }
        res = eval_run(nf, exc != NULL, status);
    }
    eval_leave_level();
    return res;
}

static void set_stopiteration(Obj value)
{
    Obj exc;
    if (!value || IS_NONE(value)) {
        exc = exc_new(E_StopIteration, NULL, 0);
    } else {
        Obj *r = vm_roots(1);
        r[0] = value;
        exc = exc_new(E_StopIteration, r, 1);
        vm_unroots(r);
    }
    if (exc)
        eval_set_exc(exc);
}

/* A generator-like object returned v: StopIteration(v), or for an async
 * generator StopAsyncIteration. */
static void set_returned(Obj gen, Obj v)
{
    if (TID(gen) == TID_ASYNC_GENERATOR)
        err_set_obj((Obj)E_StopAsyncIteration);
    else
        set_stopiteration(v);
}

static Obj gen_send_ex(Obj gen, Obj value)
{
    int st;
    Obj *r = vm_roots(1);
    r[0] = gen;
    Obj res = gen_resume(gen, value, NULL, &st);
    if (st == RUN_RETURNED) {
        set_returned(r[0], res);
        res = NULL;
    }
    vm_unroots(r);
    return res;
}

Obj gen_send(Obj gen, Obj value)
{
    GenObj *g = GEN(gen);
    if (g->state == GEN_CREATED && value && !IS_NONE(value)) {
        err_format(E_TypeError, "can't send non-None value to a just-started %s", gen_kind_name(gen));
        return NULL;
    }
    return gen_send_ex(gen, value ? value : g_None);
}

static Obj gen_iternext(Obj gen)
{
    GenObj *g = GEN(gen);
    if (g->state == GEN_FINISHED)
        return NULL;
    int st;
    Obj r = gen_resume(gen, g_None, NULL, &st);
    if (st == RUN_RETURNED)
        return NULL;
    return r;
}

/* Close a delegate of yield from: 0 or -1. */
static int close_iter(Obj yf)
{
    if (TID(yf) == TID_GENERATOR || TID(yf) == TID_COROUTINE) {
        Obj r = gen_close(yf);
        return r ? 0 : -1;
    }
    Obj *rr = vm_roots(1);
    rr[0] = vm_getattr_opt(yf, str_intern_cstr("close"));
    int ret = 0;
    if (rr[0]) {
        if (!vm_call0(rr[0]))
            ret = -1;
    } else if (err_occurred()) {
        ret = -1;
    }
    vm_unroots(rr);
    return ret;
}

Obj gen_throw(Obj gen, Obj exc)
{
    return gen_throw_ex(gen, exc, true);
}

Obj gen_throw_ex(Obj gen, Obj exc, bool close_on_genexit)
{
    Obj *r = vm_roots(4);
    r[0] = gen;
    r[1] = exc;
    Obj res = NULL;
    if (IS_TYPE(r[1]) && type_is_subtype((TypeObj *)r[1], E_BaseException)) {
        r[1] = vm_call0(r[1]);
        if (!r[1])
            goto done;
    }
    if (!IS_EXCEPTION(r[1])) {
        err_format(E_TypeError, "exceptions must be classes or instances deriving from BaseException, not %s",
                   type_name(r[1]));
        goto done;
    }
    GenObj *g = GEN(r[0]);
    if (gen_at_yield_from(g)) {
        r[2] = g->slots[gen_top_slot(g)];   /* the delegate */
        if (close_on_genexit && vm_isinstance_type(r[1], E_GeneratorExit)) {
            VM_WRITE(r[0]);
            GEN(r[0])->state = GEN_RUNNING;
            int err = close_iter(r[2]);
            VM_WRITE(r[0]);
            GEN(r[0])->state = GEN_SUSPENDED;
            if (err < 0)
                r[1] = err_fetch();
            goto throw_here;
        }
        Obj yr;
        VM_WRITE(r[0]);
        GEN(r[0])->state = GEN_RUNNING;
        if (TID(r[2]) == TID_GENERATOR || TID(r[2]) == TID_COROUTINE) {
            yr = gen_throw_ex(r[2], r[1], close_on_genexit);
        } else {
            r[3] = vm_getattr_opt(r[2], str_intern_cstr("throw"));
            if (!r[3]) {
                VM_WRITE(r[0]);
                GEN(r[0])->state = GEN_SUSPENDED;
                if (err_occurred())
                    r[1] = err_fetch();
                goto throw_here;
            }
            yr = vm_call1(r[3], r[1]);
        }
        VM_WRITE(r[0]);
        GEN(r[0])->state = GEN_SUSPENDED;
        if (yr) {
            res = yr;   /* the delegate yielded: so do we */
            goto done;
        }
        if (err_matches(E_StopIteration)) {
            /* The delegate finished: continue after the YIELD_FROM with its value. */
            Obj stop = err_fetch();
            Obj value = exc_stopiteration_value(stop);
            g = GEN(r[0]);
            VM_WRITE(r[0]);
            g->slots[gen_top_slot(g)] = value ? value : g_None;
            g->ip++;
            res = gen_send_ex(r[0], NULL);
            goto done;
        }
        r[1] = err_fetch();
    }
throw_here: {
        int st;
        res = gen_resume(r[0], NULL, r[1], &st);
        if (st == RUN_RETURNED) {
            set_returned(r[0], res);
            res = NULL;
        }
    }
done:
    vm_unroots(r);
    return res;
}

Obj gen_close(Obj gen)
{
    GenObj *g = GEN(gen);
    if (g->state == GEN_CREATED) {
        VM_WRITE(gen);
        g->state = GEN_FINISHED;
        for (int64_t i = 0; i < g->nslots; i++)
            g->slots[i] = NULL;
        return g_None;
    }
    if (g->state == GEN_FINISHED)
        return g_None;
    if (g->state == GEN_RUNNING) {
        err_format(E_ValueError, "%s already executing", gen_kind_name(gen));
        return NULL;
    }
    Obj *r = vm_roots(1);
    r[0] = gen;
    Obj exc = exc_new(E_GeneratorExit, NULL, 0);
    Obj res = NULL;
    if (exc) {
        Obj y = gen_throw(r[0], exc);
        if (y) {
            err_format(E_RuntimeError, "%s ignored GeneratorExit", gen_kind_name(r[0]));
        } else if (err_matches(E_StopIteration) || err_matches(E_GeneratorExit)) {
            err_clear();
            res = g_None;
        }
    }
    vm_unroots(r);
    return res;
}

/* CPython's _PyGen_Finalize, for one the collector found unreachable
 * (slot[0]; gcwork.c): an async generator with a finalizer hook gets it
 * called; a coroutine never started, the "never awaited" RuntimeWarning;
 * any other unfinished one, close(). What fails is reported unraisable. */
void gen_finalize(Obj *slot)
{
    GenObj *g = GEN(slot[0]);
    if (g->state == GEN_FINISHED || g->state == GEN_RUNNING)
        return;
    if (TID(slot[0]) == TID_ASYNC_GENERATOR && g->ag_finalizer && !(g->flags & AG_CLOSED)) {
        if (!vm_call1(g->ag_finalizer, slot[0]))
            vm_report_unraisable(slot[0]);
        return;
    }
    if (TID(slot[0]) == TID_COROUTINE && g->state == GEN_CREATED) {
        Obj q = g->qualname;
        Obj *r = vm_roots(1);
        r[0] = str_from_format("coroutine '%s' was never awaited", q && IS_STR(q) ? str_cstr(q) : "?");
        if (!r[0] || vm_warn(E_RuntimeWarning, r[0], slot[0]) < 0)
            vm_report_unraisable(slot[0]);
        vm_unroots(r);
        return;
    }
    if (!gen_close(slot[0]))
        vm_report_unraisable(slot[0]);
}

/* ------------------------------------------------------------------ */
/* The generator type                                                  */
/* ------------------------------------------------------------------ */
static Obj gen_repr(Obj gen)
{
    uint64_t id = vm_object_id_slot(&gen);
    Obj q = GEN(gen)->qualname;
    return str_from_format("<generator object %s at %#lx>", q && IS_STR(q) ? str_cstr(q) : "?", (unsigned long)id);
}

static Obj gen_iter(Obj gen)
{
    return gen;
}

Obj gen_m_send(Obj *args, size_t nargs, Obj kw)
{
    return gen_send(args[0], args[1]);
}

Obj gen_m_throw(Obj *args, size_t nargs, Obj kw)
{
    Obj exc = gen_throw_args(args + 1, nargs - 1);
    return exc ? gen_throw(args[0], exc) : NULL;
}

/* args: type[, value[, tb]] (root slots). */
Obj gen_throw_args(Obj *args, size_t nargs)
{
    Obj typ = args[0];
    Obj val = nargs > 1 ? args[1] : g_None;
    Obj *r = vm_roots(1);
    Obj res = NULL;
    if (IS_TYPE(typ) && type_is_subtype((TypeObj *)typ, E_BaseException)) {
        if (IS_NONE(val)) {
            r[0] = vm_call0(typ);
        } else if (vm_isinstance_type(val, (TypeObj *)typ)) {
            r[0] = val;
        } else if (IS_TUPLE(val)) {
            r[0] = vm_call_tuple_dict(typ, val, NULL);
        } else {
            r[0] = vm_call1(typ, val);
        }
        if (!r[0])
            goto done;
    } else if (IS_EXCEPTION(typ)) {
        if (!IS_NONE(val)) {
            err_set(E_TypeError, "instance exception may not have a separate value");
            goto done;
        }
        r[0] = typ;
    } else {
        err_format(E_TypeError, "exceptions must be classes or instances deriving from BaseException, not %s",
                   type_name(typ));
        goto done;
    }
    if (nargs > 2 && !IS_NONE(args[2])) {
        if (TID(args[2]) != TID_TRACEBACK) {
            err_set(E_TypeError, "throw() third argument must be a traceback object");
            goto done;
        }
        VM_WRITE(r[0]);
        EXC(r[0])->traceback = args[2];
    }
    res = r[0];
done:
    vm_unroots(r);
    return res;
}

Obj gen_m_close(Obj *args, size_t nargs, Obj kw)
{
    return gen_close(args[0]);
}

static Obj m_next(Obj *args, size_t nargs, Obj kw)
{
    if (GEN(args[0])->state == GEN_FINISHED) {
        err_set_obj((Obj)E_StopIteration);
        return NULL;
    }
    return gen_send_ex(args[0], g_None);
}

static Obj m_iter(Obj *args, size_t nargs, Obj kw)
{
    return args[0];
}

static const MethodDef gen_methods[] = {
    {"send", gen_m_send, METH_O, "send(arg) -> send 'arg' into generator,\nreturn next yielded value or raise StopIteration."},
    {"throw", gen_m_throw, METH_ARGS(1, 3), "throw(value)\nthrow(type[,value[,tb]])\n\nRaise exception in generator, return next yielded value or raise\nStopIteration."},
    {"close", gen_m_close, METH_NOARGS, "close() -> raise GeneratorExit inside generator."},
    {"__next__", m_next, METH_NOARGS | METH_WRAPPER, "Implement next(self)."},
    {"__iter__", m_iter, METH_NOARGS | METH_WRAPPER, "Implement iter(self)."},
    {NULL, NULL, 0, NULL},
};

Obj gen_get_running(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return vm_bool(GEN(args[0])->state == GEN_RUNNING);
}

Obj gen_get_suspended(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return vm_bool(GEN(args[0])->state == GEN_SUSPENDED);
}

Obj gen_get_code(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return GEN(args[0])->code;
}

Obj gen_get_frame(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    GenObj *g = GEN(args[0]);
    if (g->state == GEN_FINISHED)
        return g_None;
    if (g->state == GEN_RUNNING) {
        /* running on this thread: its live frame's object (sys._getframe's) */
        for (Frame *f = vm_ts.frame; f; f = f->back)
            if (FRAME_HDR(f)[HDR_GEN] == args[0])
                return eval_frame_object(f);
    }
    CodeObj *co = (CodeObj *)g->code;
    int line = gen_saved_line(args[0]);
    int nlp = code_nlocalsplus(co);
    if (g->slots[nlp + HDR_FRAMEOBJ])   /* the one tracing or sys._getframe made */
        return g->slots[nlp + HDR_FRAMEOBJ];
    Obj globals = g->slots[nlp + HDR_GLOBALS];
    Obj fo = frameobj_new(g->code, globals, line);
    if (fo) {
        VM_WRITE(fo);
        FRAMEO(fo)->gen = args[0];
        g = GEN(args[0]);
        if (g->state == GEN_SUSPENDED || g->state == GEN_CREATED) {
            /* kept: gi_frame is one object while the generator lives, as in CPython */
            VM_WRITE(args[0]);
            g->slots[nlp + HDR_FRAMEOBJ] = fo;
        }
    }
    return fo;
}

/* The line a generator that does not run stopped at (its first, not yet
 * started). */
int gen_saved_line(Obj gen)
{
    GenObj *g = GEN(gen);
    CodeObj *co = (CodeObj *)g->code;
    return g->state == GEN_CREATED ? co->firstlineno : code_line_at(co, g->ip - 1);
}

/* The locals a generator saved when it last suspended (or its arguments,
 * not yet started): f_locals of its frame object while it does not run.
 * Copied into roots first: the insertions allocate, and may move it. */
Obj gen_saved_locals(Obj gen)
{
    GenObj *g = GEN(gen);
    int n = code_nlocalsplus((CodeObj *)g->code);
    Obj *r = vm_roots(n + 1);
    r[0] = g->code;
    for (int i = 0; i < n; i++)
        r[i + 1] = g->slots[i];
    Obj d = eval_slots_locals(&r[0], r + 1);
    vm_unroots(r);
    return d;
}

Obj gen_get_yieldfrom(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    GenObj *g = GEN(args[0]);
    if (!gen_at_yield_from(g))
        return g_None;
    return g->slots[gen_top_slot(g)];
}

static Obj g_name(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return GEN(args[0])->name;
}

static Obj g_set_name(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    if (!args[1] || !IS_STR(args[1])) {
        err_set(E_TypeError, "__name__ must be set to a string object");
        return NULL;
    }
    VM_WRITE(args[0]);
    GEN(args[0])->name = args[1];
    return g_None;
}

static Obj g_qualname(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return GEN(args[0])->qualname;
}

static Obj g_set_qualname(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    if (!args[1] || !IS_STR(args[1])) {
        err_set(E_TypeError, "__qualname__ must be set to a string object");
        return NULL;
    }
    VM_WRITE(args[0]);
    GEN(args[0])->qualname = args[1];
    return g_None;
}

void gen_init_type(void)
{
    T_generator = (TypeObj *)type_new_builtin("generator", T_object, TID_GENERATOR, 0);
    T_generator->tp_repr = gen_repr;
    T_generator->tp_iter = gen_iter;
    T_generator->tp_iternext = gen_iternext;
    type_add_methods(T_generator, gen_methods);
    type_add_getset(T_generator, "gi_running", gen_get_running, NULL);
    type_add_getset(T_generator, "gi_suspended", gen_get_suspended, NULL);
    type_add_getset(T_generator, "gi_code", gen_get_code, NULL);
    type_add_getset(T_generator, "gi_frame", gen_get_frame, NULL);
    type_add_getset(T_generator, "gi_yieldfrom", gen_get_yieldfrom, NULL);
    gen_add_name_getsets(T_generator);
    type_ready(T_generator);
    coro_init_types();
}

void gen_add_name_getsets(TypeObj *t)
{
    type_add_getset(t, "__name__", g_name, g_set_name);
    type_add_getset(t, "__qualname__", g_qualname, g_set_qualname);
}
