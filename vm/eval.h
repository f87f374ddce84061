/* The eval layer's header: frames, generators, the eval loop's API, import,
 * tracebacks and the finalizer work (eval.c, call.c, function.c,
 * generator.c, coroutine.c, import.c, trace.c, traceback.c, vmthread.c and
 * the eval side of rt/). Open to the modules and start-up above it.
 *
 * Frames. A running Python frame is a C struct `Frame` (metadata: code,
 * ip, block stack) on a per-thread C array, plus a run of shadow-stack slots
 * the GC sees and updates:
 *
 *     localsplus[nlp] | hdr[FRAME_NHDR] | value stack[code->stacksize]
 *
 * nlp = nlocals + ncellvars + nfreevars. The frame owns every slot up to
 * `end` (tm_self.ss_top == end of the innermost frame while the loop runs);
 * slots above the current sp keep old values, which stay valid roots.
 * A Python-to-Python call from the loop binds its arguments in place (the
 * callee's localsplus starts at the caller's first argument slot) when it can.
 *
 * Generators keep a saved copy of their slots and block stack in a GenObj
 * (TID_GENERATOR); resuming copies them back onto the shadow stack and runs
 * the same loop. */
#ifndef TMPY_EVAL_H
#define TMPY_EVAL_H

#include "objects/objects.h"
#include "compiler/compile.h"
#include "opcodes.h"

#include <string.h>

#define FRAME_MAX_BLOCKS 20

enum { BLK_TRY = 1, BLK_EXCEPT_HANDLER = 2 };
typedef struct Block {
    uint32_t handler : 24;   /* instruction index of the handler (BLK_TRY) */
    uint32_t type : 8;
    int32_t level;           /* value-stack depth (slots above stack_base) */
} Block;

/* Header slots between localsplus and the value stack. */
enum {
    HDR_FUNC,       /* FunctionObj, or NULL for module code */
    HDR_GLOBALS,    /* dict */
    HDR_BUILTINS,   /* dict */
    HDR_LOCALS,     /* locals mapping (class bodies, module code) or NULL */
    HDR_GEN,        /* the GenObj this frame belongs to, or NULL */
    HDR_PREV_EXC,   /* generator frames: the resumer's handled exception */
    HDR_FRAMEOBJ,   /* the frame's FrameObj once one was asked for (tracing, sys._getframe), or NULL */
    FRAME_NHDR
};

/* How a frame hands its result back. */
enum {
    FR_CALL,          /* Python call from the loop: push the result in the caller */
    FR_ENTRY,         /* entered from C: the C loop level returns */
    FR_GEN_ENTRY,     /* generator resumed from C (gen_send/throw) */
    FR_GEN_FORITER,   /* generator resumed by FOR_ITER of the caller */
    FR_GEN_YIELDFROM, /* generator resumed by YIELD_FROM of the caller */
    FR_INIT,          /* __init__ of a class instantiation from the loop: result is hdr[...] instance */
};

typedef struct Frame {
    struct Frame *back;
    CodeObj *code;                  /* pinned */
    const uint32_t __seg_gs *ip;    /* after the current (or last) opcode word */
    Obj *localsplus;
    Obj *stack_base;
    Obj *sp;                        /* saved value-stack top while this frame waits for a callee */
    Obj *end;                       /* end of the frame's slots */
    int16_t nblocks;
    uint8_t kind;                   /* FR_* */
    uint8_t status;                 /* entry frames: RUN_* */
    uint8_t traced;                 /* tracing: the call event of this activation is past */
    uint8_t gen_clean;              /* generator frames: resumed at its YIELD_FROM and has run nothing else
                                       since, so its slots still equal the GenObj's copy (generator.c) */
    int32_t trace_last;             /* tracing: index of the last instruction seen (-1: none) */
    Block blocks[FRAME_MAX_BLOCKS];
} Frame;

#define FRAME_HDR(f) ((f)->stack_base - FRAME_NHDR)

/* How eval_run ended (generators). */
enum { RUN_RETURNED, RUN_YIELDED, RUN_ERROR };

/* Generator object. The slots are a copy of the frame's shadow-stack slots
 * (localsplus, hdr, value stack up to sp) while it is suspended. */
enum { GEN_CREATED, GEN_SUSPENDED, GEN_RUNNING, GEN_FINISHED };
VM_STRUCT(GenObj) {
    tm_header h;
    int64_t nslots;          /* varsize length */
    Obj code;
    Obj name, qualname;
    Obj exc_state;           /* handled exception saved across a yield inside an except block */
    Obj blocks;              /* RawObj of FRAME_MAX_BLOCKS Blocks: the saved block stack, made when it
                                first suspends inside a try or with block (most never do: kept out of
                                line, a generator is 160 bytes smaller for the nursery) */
    Obj ag_finalizer;        /* async generators: the finalizer hook when first iterated (called with
                                the generator when it is collected started and unfinished) */
    /* ---- not references ---- */
    int64_t state;           /* GEN_* */
    int64_t flags;           /* GEN_F_* and, for async generators, AG_* */
    int64_t ip;              /* resume instruction index */
    int64_t sp;              /* value-stack depth */
    int64_t nblocks;
    Obj slots[];
};
#define GEN(v) ((GenObj *)vm_rd(v))
/* Async generator flags (CPython's ag_running_async, ag_closed, ag_hooks_inited). */
enum { AG_RUNNING_ASYNC = 1, AG_CLOSED = 2, AG_HOOKS_INITED = 4 };
/* GEN_F_FINALIZABLE: registered with the collector (tm_register_finalizer),
 * once: a generator when it first suspends inside a try or with block (only
 * those can observe close()), a coroutine at creation, an async generator at
 * its first iteration. gcwork.c finalizes it (gen_finalize). */
enum { GEN_F_FINALIZABLE = 8 };
/* Generators, coroutines and async generators share GenObj and the code below. */
static inline bool gen_is_resumable(Obj v)
{
    unsigned t = TID(v);
    return t == TID_GENERATOR || t == TID_COROUTINE || t == TID_ASYNC_GENERATOR;
}

/* Frame objects (trace.c, traceback.c): gi_frame, tb_frame, sys._getframe,
 * what trace and profile functions get. A running frame's object is kept in
 * its HDR_FRAMEOBJ slot and points back at its Frame record (`live`, checked
 * before use: see trace.c) until the frame ends. */
VM_STRUCT(FrameObj) {
    tm_header h; Obj code; Obj globals; Obj gen;
    Obj back;         /* f_back, once known (NULL: ask the live frame) */
    Obj trace;        /* f_trace, or NULL */
    int64_t lineno;   /* the line when last seen running */
    int64_t live;     /* Frame * while the frame runs, else 0 */
    int64_t flags;    /* FO_TRACE_LINES, FO_TRACE_OPCODES, FO_IN_EVENT */
    Obj locals;       /* f_locals of an ended (not generator) frame: taken as it ended, or NULL */
};
#define FRAMEO(v) ((FrameObj *)vm_rd(v))
enum { FO_TRACE_LINES = 1, FO_IN_EVENT = 2 /* a trace or profile function runs for it: f_lineno is the event's */,
       FO_TRACE_OPCODES = 4 };

/* Frame metadata: reserved once per thread, pages committed on use. */
#define FRAME_STACK_ENTRIES 120000

/* Per-thread eval state (vmthread.c). */
extern __thread Frame *vm_frames_base, *vm_frames_limit;
extern __thread Obj *vm_ss_safe_limit;      /* frames must end below this */

/* Nesting of eval_run levels on this thread (C code running Python). Only
 * the C stack limits it: Python frames count against the recursion limit. */
extern __thread int vm_eval_levels;
static inline int eval_enter_level(void)
{
    if (unlikely(vm_cstack_low())) {
        err_set(E_RecursionError, "maximum recursion depth exceeded while calling a Python object");
        return -1;
    }
    vm_eval_levels++;
    return 0;
}
static inline void eval_leave_level(void) { vm_eval_levels--; }

/* Transactions (txstate.c; STM build). A transaction that may abort starts
 * only at a yield point (of an eval loop at any depth: its eval_run is the
 * restart point) and spans vm_tx_length yield points (TMPY_TXLEN); anywhere
 * else a transaction runs inevitable, and so does one whose loop returned
 * to C. */
#define VM_TX_LENGTH_DEFAULT 1000   /* measured: bench/py_stm.py, docs/ARCHITECTURE.md */
/* Per-yield-point lengths (txstate.c; paper 001, section 4.3): a site whose
 * transactions abort more than THRESHOLD times in a PERIOD of them has its
 * length cut by 0.75; a PERIOD with fewer aborts settles it. */
#define VM_TX_LENGTH_PERIOD 300
#define VM_TX_LENGTH_THRESHOLD 18
#define VM_TX_LENGTH_MIN 1
extern int vm_tx_length;
extern __thread int vm_tx_countdown;     /* yield points left in this transaction */
extern __thread Frame *vm_tx_low;        /* lowest frame saved for an abort; NULL: none */
extern __thread int vm_tx_level;         /* the eval level an abort restarts at; 0: cannot abort */
void vm_tx_started(void);                /* after tm_start_transaction at a yield point */
void vm_tx_commit(void);                 /* commit (may abort) and drop the undo log */
bool vm_tx_nested_may_end(void);         /* a nested level's yield point may end the transaction now */
bool vm_tx_locks_may_end(void);          /* holding a lock: may the transaction end now (txstate.c) */
bool vm_tx_solo_goes_on(void);           /* a solo transaction goes on past this yield point (txstate.c) */
void vm_tx_init(void);                   /* start-up: the abort hook (STM) */
void vm_tx_save_frame_slow(Frame *f, Obj *above);
extern bool vm_tx_stats_enabled;         /* TMPY_STATS=1 */
void vm_tx_merge_stats(void);            /* a thread ends: its abort sites into the totals */
void vm_tx_print_stats(void);            /* at exit, TMPY_STATS=1 */
/* HTM elision of the GIL (tmpy-gil --tm=htm; elisionstats.c): a yield point
 * is named by its pinned code object and, above bit VM_SITE_SHIFT, the
 * index of the instruction after it. */
#define VM_SITE_SHIFT 47
int vm_elision_stats(Obj d);             /* tm.stats(): adds the elision's counters and lengths to d */
void vm_elision_print_stats(void);       /* at exit, TMPY_STATS=1 */
/* At exit, TMPY_STATS=1: the per-yield-point lengths of pol (both builds). */
void vm_txlen_print_sites(const tm_txlen_policy *pol, const char *label);
/* The file and line a yield-point site names; false for none. */
bool vm_site_place(uintptr_t site, const char **file, int *line);
/* f, a frame below the innermost, gets a slot written (its frame object:
 * f_back, sys._getframe(n)): save it for an abort first, with the frames
 * between, as the pops that make it innermost again would. */
void vm_tx_save_frames_to(Frame *f);
static inline void vm_tx_frame_write(Frame *f)
{
#if TM_STM
    if (unlikely(vm_tx_low && f < vm_tx_low))
        vm_tx_save_frames_to(f);
#else
    (void)f;
#endif
}
/* A frame whose slots started at `above` was popped: `back` becomes the
 * innermost frame (its run for an abort reaches up to `above`). */
static inline void vm_tx_frame_popped(Frame *back, Obj *above)
{
#if TM_STM
    if (unlikely(back && back < vm_tx_low))
        vm_tx_save_frame_slow(back, above);
#else
    (void)back, (void)above;
#endif
}

/* eval.c */
/* Run frames from `entry` (already pushed) until it returns, yields (generator
 * entries) or raises. throwing: the current exception is raised at entry->ip. */
Obj eval_run(Frame *entry, int throwing, int *status);
/* Call a Python function from C (a new C level). */
Obj eval_call_function(Obj func, Obj *args, size_t nargs, Obj kwnames);
/* Line of the instruction a frame is at. */
int eval_frame_lineno(Frame *f);
int code_line_at(CodeObj *co, int64_t word_index);
/* A fingerprint of the instruction set (the opcode names in order, the inline
 * cache size, the layout of marshal's code records): marshal refuses code
 * written by a tmpy whose bytecode differs, and tmpy's .pyc magic number
 * (importhooks.c) is made from it, so such a .pyc is recompiled, not run. */
#define CODE_RECORD_FORMAT 1   /* marshal's code record layout: bump when CodeObj changes */
uint32_t code_bytecode_fingerprint(void);
/* Name of the localsplus slot i of code. */
static inline Obj code_localname(CodeObj *co, int i) { return TUPLE_ITEMS(co->localsplus)[i]; }
static inline int code_nlocalsplus(CodeObj *co) { return co->nlocals + co->ncellvars + co->nfreevars; }
/* The entry for a new frame whose slots end at `end`, or NULL with
 * RecursionError (recursion limit, frame array or shadow stack exhausted). */
static inline Frame *frame_next(Obj *end)
{
    Frame *nf = vm_ts.frame ? vm_ts.frame + 1 : vm_frames_base;
    if (unlikely(vm_ts.py_depth + vm_ts.c_depth >= vm_recursion_limit || nf >= vm_frames_limit ||
                 end > vm_ss_safe_limit)) {
        err_set(E_RecursionError, "maximum recursion depth exceeded");
        return NULL;
    }
    return nf;
}

/* Make nf (from frame_next) the innermost frame: code co at ip, slots
 * lp .. end, an empty value stack and no blocks. */
static inline void frame_link(Frame *nf, CodeObj *co, const uint32_t __seg_gs *ip, Obj *lp, Obj *end, int kind)
{
    nf->back = vm_ts.frame;
    nf->code = co;
    nf->ip = ip;
    nf->localsplus = lp;
    nf->stack_base = lp + code_nlocalsplus(co) + FRAME_NHDR;
    nf->sp = nf->stack_base;
    nf->end = end;
    nf->nblocks = 0;
    nf->kind = (uint8_t)kind;
    nf->traced = 0;
    nf->gen_clean = 0;
    nf->trace_last = -1;
    vm_ts.frame = nf;
    vm_ts.py_depth++;
}

/* Set the current exception to an instance (no chaining, traceback kept). */
static inline void eval_set_exc(Obj exc) { vm_ts.roots[ROOT_CUR_EXC] = exc; }
Obj eval_globals_builtins(Obj globals);

/* bindargs.c */
/* Bind args to a frame's localsplus (zeroed slots, root). Returns 0 or -1. */
int call_bind_args(Obj func, CodeObj *co, Obj *args, size_t nargs, Obj kwnames, Obj *lp);
/* Create cells and copy the closure: localsplus after binding. */
int call_init_cells(Obj func, CodeObj *co, Obj *lp);

/* generator.c */
Obj gen_create(Obj func, CodeObj *co, Obj *lp);         /* from a bound frame region */
/* A call of generator function func with exactly its positional parameters
 * in args (at most 8), when its code has no cells: the generator made
 * without a frame first. */
Obj gen_create_args(Obj func, Obj *args, size_t nargs);
void gen_suspend_frame(Frame *f, Obj *sp);              /* save the running frame; pops it */
/* Before gen_suspend_frame of a frame inside blocks: 0, or -1 (MemoryError);
 * may collect (the frame's slots are roots). */
int gen_alloc_blocks(Obj gen);
static inline int gen_reserve_blocks(Frame *f)
{
    Obj gen = FRAME_HDR(f)[HDR_GEN];
    return unlikely(f->nblocks > 0) && !GEN(gen)->blocks ? gen_alloc_blocks(gen) : 0;
}
void gen_finish_frame(Frame *f);                        /* generator returned or raised; pops it */
void gen_init_type(void);
/* The collector found it unreachable (slot[0], registered GEN_F_FINALIZABLE):
 * close it, warn it was never awaited, or call its async finalizer hook. */
void gen_finalize(Obj *slot);
/* "generator", "coroutine" or "async generator" (messages). */
const char *gen_kind_name(Obj gen);
/* throw(): close_on_genexit false lets a GeneratorExit reach the delegate
 * of an await through its throw() (async generators' aclose). */
Obj gen_throw_ex(Obj gen, Obj exc, bool close_on_genexit);
/* throw()'s argument forms (type[, value[, tb]]) into one exception, or NULL. */
Obj gen_throw_args(Obj *args, size_t nargs);
/* PEP 479 in a generator-like frame that ended with an exception. */
void gen_convert_stop_exc(unsigned tid);
/* send, throw and close methods shared by the three types (args[0]: the
 * object, in a root slot as every method's arguments). */
Obj gen_m_send(Obj *args, size_t nargs, Obj kw);
Obj gen_m_throw(Obj *args, size_t nargs, Obj kw);
Obj gen_m_close(Obj *args, size_t nargs, Obj kw);
/* Attribute getters shared by the three types (args[0]: the object). */
Obj gen_get_running(Obj *args, size_t nargs, Obj kw);
Obj gen_get_suspended(Obj *args, size_t nargs, Obj kw);
Obj gen_get_code(Obj *args, size_t nargs, Obj kw);
Obj gen_get_frame(Obj *args, size_t nargs, Obj kw);
Obj gen_get_yieldfrom(Obj *args, size_t nargs, Obj kw);
Obj gen_saved_locals(Obj gen);   /* f_locals of a suspended or new generator's frame */
int gen_saved_line(Obj gen);      /* and its f_lineno */
void gen_add_name_getsets(TypeObj *t);   /* __name__, __qualname__ */

/* coroutine.c */
extern TypeObj *T_coroutine, *T_async_generator;
void coro_init_types(void);
/* GET_AWAITABLE: the iterator `await v` delegates to. where: 0 await,
 * 1 / 2 the result of __aenter__ / __aexit__ (their messages). */
Obj coro_get_awaitable(Obj v, int where);
Obj coro_get_aiter(Obj v);              /* GET_AITER */
Obj coro_get_anext(Obj aiter);          /* GET_ANEXT: the awaitable of __anext__() */
Obj asyncgen_wrap_value(Obj v);         /* ASYNC_GEN_WRAP */
/* YIELD_FROM on an asend awaitable (`await agen.__anext__()`, async for):
 * its send(arg), except that when it ends with the async generator's
 * yielded value, NULL is returned with *value set and no StopIteration made. */
bool coro_is_asend(Obj v);
Obj coro_asend_step(Obj o, Obj arg, Obj *value);

/* traceback.c */
void traceback_prepend(Obj exc, Obj code, Obj globals /* NULL: unknown */, int lineno, int64_t lasti);
/* Line `lineno` (1-based) of a source file, without its newline; NULL if
 * absent. A pointer into a one-file cache (valid until the next call).
 * Makes the transaction inevitable (the cache is shared C state). */
const char *traceback_source_line(const char *filename, int lineno, size_t *len);
Obj frameobj_new(Obj code, Obj globals, int lineno);
void traceback_init_types(void);   /* T_traceback, T_frame */

/* trace.c: sys.settrace / sys.setprofile. vm_tracing: this thread has a
 * trace or profile function (the loop then runs every instruction through
 * eval_trace_instr); vm_profiling: it has a profile function. */
extern __thread int vm_tracing, vm_profiling;
Obj eval_frame_object(Frame *f);          /* f's FrameObj, made on first use */
Obj eval_frame_locals(Frame *f);          /* eval.c: locals() of f (its mapping, or a new dict of its fast locals) */
Obj eval_slots_locals(Obj *code_root, Obj *slots);   /* eval.c: the same of rooted slots */
Frame *eval_frameobj_live(Obj fo);        /* the running frame of a FrameObj of this thread, or NULL */
void eval_frame_ended(Frame *f);          /* f leaves the stack (returned, yielded, unwound) */
int eval_trace_instr(Frame *f);           /* call and line events before an instruction; -1: error */
int eval_trace_return(Frame *f, Obj v);   /* return event (v NULL: the frame ends with an exception) */
int eval_trace_exception(Frame *f);       /* exception event: the current exception passes through f */
int eval_profile_c(Frame *f, int what, Obj callable);   /* c_call (0), c_return (1), c_exception (2) */
void eval_dispatch_update(void);          /* eval.c: the loop's dispatch table for this thread's state */
int eval_trace_busy(void);               /* STM: inside how many trace or profile function calls */
void eval_trace_after_abort(int busy_at_start);   /* STM: the tracing state after an abort restored the roots */

/* Resume generator `gen` (created or suspended, not running): copy its saved
 * slots and block stack onto the shadow stack above ss_top, push `sent` when
 * push_sent, and link the frame as the innermost (kind FR_GEN_ENTRY; the
 * caller sets another). NULL on error (recursion). Inline for the eval
 * loop's FOR_ITER and YIELD_FROM, which resume one per value and level of a
 * `yield from` chain; gen_push_frame (generator.c) for the C entry points. */
static inline __attribute__((always_inline)) Frame *gen_push_frame_inline(Obj gen, Obj sent, bool push_sent)
{
    GenObj *g = GEN(gen);
    CodeObj *co = (CodeObj *)g->code;
    Obj *lp = (Obj *)tm_self.ss_top;
    Obj *end = lp + g->nslots;
    Frame *nf = frame_next(end);
    if (unlikely(!nf))
        return NULL;
    int nlp = code_nlocalsplus(co);
    int64_t gsp = g->sp;
    int64_t ip = g->ip;
    Obj *stack_base = lp + nlp + FRAME_NHDR;
    tm_compiler_barrier();
    memcpy(lp, VM_LINEAR(g->slots), (size_t)(nlp + FRAME_NHDR + gsp) * sizeof(Obj));
    tm_compiler_barrier();
    Obj *sp = stack_base + gsp;
    if (push_sent)
        *sp++ = sent;
    /* The slots above must hold valid values for the GC (a short loop:
     * a memset call costs more here). */
    for (Obj *p = sp; p < end; p++)
        *(Obj volatile *)p = NULL;
    tm_self.ss_top = (object_t **)end;
    stack_base[-FRAME_NHDR + HDR_PREV_EXC] = vm_ts.roots[ROOT_HANDLED_EXC];
    if (unlikely(g->exc_state != NULL))
        vm_ts.roots[ROOT_HANDLED_EXC] = g->exc_state;
    int64_t nblocks = g->nblocks;
    VM_WRITE(gen);
    if (unlikely(g->state == GEN_CREATED) && TID(gen) == TID_COROUTINE &&
        tm_unregister_last_finalizer((object_t *)gen)) {
        /* A coroutine awaited right after its creation (the common case)
         * cannot be "never awaited" any more: its registration is taken
         * back, so it does not outlive minor collections; like a generator
         * it registers again if it suspends inside try/with. */
        g->flags &= ~GEN_F_FINALIZABLE;
    }
    g->state = GEN_RUNNING;
    const uint32_t __seg_gs *cip = co->code + ip;
    nf->back = vm_ts.frame;
    nf->code = co;
    nf->ip = cip;
    nf->localsplus = lp;
    nf->stack_base = stack_base;
    nf->sp = sp;
    nf->end = end;
    nf->kind = FR_GEN_ENTRY;
    nf->traced = 0;
    nf->trace_last = -1;
    /* A delegating generator of a yield-from chain, resumed to pass a value
     * on: if its delegate yields again before it runs anything else, its
     * suspension need not copy its slots back (gen_suspend_frame, and the
     * eval loop's yield: gen_pop_clean_frame). */
    nf->gen_clean = push_sent && !vm_tracing && INSTR_OP(*cip) == OP_YIELD_FROM;
    nf->nblocks = (int16_t)nblocks;
    vm_ts.frame = nf;
    vm_ts.py_depth++;
    if (unlikely(nblocks > 0)) {
        tm_compiler_barrier();
        memcpy(nf->blocks, VM_LINEAR(RAW(g->blocks)->data), (size_t)nblocks * sizeof(Block));
        tm_compiler_barrier();
    }
    return nf;
}

/* The eval loop's yield through a chain: pop generator frame f, which was
 * resumed at its YIELD_FROM and has run nothing else since (f->gen_clean,
 * no frame object, not tracing): its generator's saved copy is still
 * current (as in gen_suspend_frame). */
static inline __attribute__((always_inline)) void gen_pop_clean_frame(Frame *f)
{
    Obj *hdr = FRAME_HDR(f);
    Obj gen = hdr[HDR_GEN];
    VM_WRITE(gen);
    vm_ts.roots[ROOT_HANDLED_EXC] = hdr[HDR_PREV_EXC];
    GEN(gen)->state = GEN_SUSPENDED;
    vm_ts.py_depth--;
    vm_ts.frame = f->back;
    vm_tx_frame_popped(f->back, f->localsplus);
}


/* ---- The eval layer's API to the layers above (moved from tmpy.h) ---- */
/* Attach the calling OS thread (allocates its root slots). */
void vm_thread_init(void);
/* Before a thread ends: drops its roots and frame stack. */
void vm_thread_fini(void);
/* Print `exc` as CPython does for an uncaught exception (traceback, chained
 * causes/contexts, "Type: message") to stderr (traceback.c). */
void vm_print_exception(Obj exc);
/* The same on `file` (a file object or anything with write and flush; NULL:
 * sys.stderr), without its causes and contexts if `unchained` (CPython's
 * unraisable hook). */
void vm_print_exception_on(Obj file, Obj exc, bool unchained);
/* A message on sys.stderr (after start-up; stdout's pending output first). */
void vm_errmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* ------------------------------------------------------------------ */
/* Functions, frames, generators, evaluation (eval.c and friends)      */
/* ------------------------------------------------------------------ */
Obj function_new(Obj code, Obj globals, Obj qualname);
Obj cell_new(Obj v);
/* Run module-level code: returns the result (None) or NULL with an exception. */
Obj vm_eval_code(Obj code, Obj globals, Obj locals);
/* What the hooks of the lower layers call (tmpy.h's VMHooks). */
Obj eval_current_globals(void);
int eval_current_super_args(Obj *type_out, Obj *obj_out);
Obj eval_run_class_body(Obj func, Obj ns);
Obj import_cstr(const char *name);
/* The innermost Python frame's locals and line. */
Obj vm_current_locals(void);              /* locals() */
/* The generator protocol for yield from / send / throw, used by builtins too. */
Obj gen_send(Obj gen, Obj value);          /* NULL+StopIteration(value) at the end */
Obj gen_throw(Obj gen, Obj exc);
Obj gen_close(Obj gen);
/* The builtins aiter(v) and anext(aiter[, dflt]) (coroutine.c; dflt NULL: none). */
Obj coro_builtin_aiter(Obj v);
Obj coro_builtin_anext(Obj aiter, Obj dflt);
/* The future features of the innermost running Python code, as
 * COMPILE_* flags (what compile/exec/eval inherit). */
int vm_current_future_flags(void);
Obj vm_import(Obj name, Obj globals, Obj fromlist, int level);   /* __import__ */
void eval_note_builtin_import(void);   /* start-up, after builtins: what IMPORT_NAME compares with */
/* C modules: called on first import; returns the module or NULL. */
typedef Obj (*module_init_fn)(void);
void vm_register_builtin_module(const char *name, module_init_fn init);
extern Obj g_main_module;
/* Find the source of a module by dotted name (parents are imported, the
 * module itself is not). Returns its file path (str; None for a namespace
 * package, "" for a module written in C) and *is_pkg; NULL without an
 * exception if there is none, with one if importing a parent failed. */
Obj import_find_source(Obj fullname, bool *is_pkg);
/* Read a whole file into C memory (malloc'd, NUL-terminated): 0, or -1 with
 * OSError set. */
int import_read_file(const char *path, char **out, size_t *len);
/* sys.path, and CPython's getpath: sys.executable from argv0, the prefixes
 * (a venv's pyvenv.cfg next to the executable or one directory up names
 * the base executable), sys.builtin_module_names from the registry. */
void import_init_paths(bool ignore_env, const char *argv0);
void import_prepend_path0(const char *dir);
/* Import a module by absolute dotted name, its parents first; returns it. */
Obj import_absolute(Obj absname);
Obj import_source_module(Obj name);   /* a top-level source module by import.c's search alone */
/* The import lock and the built-in registry as _imp shows them. */
int import_lock_acquire(void);        /* -1: MemoryError */
bool import_lock_release(void);       /* false: the caller does not hold it */
bool import_lock_held(void);          /* by any thread */
void import_after_fork_child(void);   /* fork: an import lock another thread held is free */
bool import_is_builtin(Obj name);
/* The absolute name for a relative import (level dots) from the module
 * whose globals (or a dict with __package__) are given. */
Obj import_resolve_relative(Obj name, Obj globals, int level);
/* sys.meta_path and sys.path_hooks (importhooks.c): the default finders'
 * kinds, CPython's importlib._bootstrap(_external) loaded on first need. */
enum { IMPORTHOOK_BUILTIN, IMPORTHOOK_FROZEN, IMPORTHOOK_PATH, IMPORTHOOK_NKINDS, IMPORTHOOK_OTHER = IMPORTHOOK_NKINDS };
void importhooks_init(void);                       /* start-up, after sys exists */
int importhooks_kind(Obj finder);                  /* a default finder's kind or IMPORTHOOK_OTHER */
bool importhooks_path_default(void);               /* PathFinder would see what import.c sees */
bool importhooks_is_frozen(Obj name);              /* _frozen_importlib(_external) */
bool importhooks_bootstrap_loading(void);         /* this thread is setting up _frozen_importlib */
Obj importhooks_frozen_module(Obj name);           /* loads the bootstrap; the module */
int importhooks_attach_spec(Obj mod, Obj name, Obj file, Obj path_list);   /* __spec__, __loader__ */
Obj importhooks_find_spec(Obj finder, Obj name, Obj path);   /* a spec, None, or NULL */
Obj importhooks_path_find_spec(Obj name, Obj path);          /* CPython's PathFinder */
Obj importhooks_load_spec(Obj spec);                         /* _bootstrap._load(spec) */
void importhooks_trim_traceback(Obj exc);   /* CPython's remove_importlib_frames */
extern const char *vm_libdir;              /* lib/ of the source tree or install */
void eval_fill_layouts(tm_type *generator_layout, tm_type *frame_layout);   /* eval.c: frame, generator */
void func_init_types(void);     /* eval side: function, code, cell, generator, frame, traceback */
/* gcwork.c: weak-reference callbacks and finalizers, run outside the collector. */
void vm_run_gc_work(void);        /* runs what collections queued (no-op while already running) */
/* CPython's PyErr_WriteUnraisable: "Exception ignored in: <repr of what>"
 * and the current exception's traceback on stderr; clears the exception. */
void vm_report_unraisable(Obj what);   /* the exception in flight, to sys.unraisablehook */
void vm_report_unraisable_exc(Obj exc, Obj what, const char *err_msg);   /* err_msg NULL: "Exception ignored in" */
void vm_print_unraisable(Obj exc, Obj what, Obj err_msg);   /* sys.__unraisablehook__'s output */
/* gc.collect(): a major collection, then the queued work; None or NULL.
 * stack_top: where the arguments of the calling C function end (args +
 * nargs), or NULL: dead value-stack slots above it are cleared first. */
Obj vm_gc_collect(Obj *stack_top, int64_t *found);
void vm_gc_at_exit(void);         /* at exit: collect, then finalize what is still registered */
/* Set by vm_gc_at_exit: the finalizers of the shutdown run (sys.is_finalizing()). */
extern bool vm_finalizing;

#endif
