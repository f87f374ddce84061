/* sys.settrace and sys.setprofile, as CPython 3.11 calls them, and the frame
 * objects of running frames.
 *
 * While a thread has a trace or profile function, its eval loop dispatches
 * every instruction through eval_trace_instr (eval_dispatch_update swaps the
 * thread's dispatch table, so the loop pays nothing otherwise). That gives
 * the 'call' event at a frame's first instruction (and at each resumption
 * of a generator), 'line' events where the line changes or a jump goes
 * back, and 'opcode' events for every instruction of a frame whose
 * f_trace_opcodes is set. The loop calls eval_trace_return where a frame returns, yields or
 * ends with an exception, eval_trace_exception where an exception passes
 * through a frame, and eval_profile_c around calls of built-in functions
 * (c_call, c_return, c_exception). The functions run with tracing off for
 * the thread (`busy`); one that raises is removed, as CPython does.
 *
 * Frame objects: a frame's FrameObj is made on first use and kept in its
 * HDR_FRAMEOBJ slot (a generator keeps it across yields, in its saved
 * slots). `live` points back at the Frame record while the frame runs; it is
 * cleared when the frame leaves the stack and checked before every use (the
 * record must be one of this thread's running frames and still hold this
 * object), so a frame object that outlives its frame, or is read by another
 * thread, reports what it last saw. */
#include "eval.h"
#include "objects/objects.h"

__thread int vm_tracing, vm_profiling;
static __thread int busy;   /* inside a trace or profile function */

enum { EV_CALL, EV_LINE, EV_RETURN, EV_EXCEPTION, EV_C_CALL, EV_C_RETURN, EV_C_EXCEPTION, EV_OPCODE };
static const char *const event_names[] = {"call", "line", "return", "exception", "c_call", "c_return",
                                          "c_exception", "opcode"};

/* ------------------------------------------------------------------ */
/* Frame objects                                                       */
/* ------------------------------------------------------------------ */

Frame *eval_frameobj_live(Obj fo)
{
    Frame *f = (Frame *)(uintptr_t)FRAMEO(fo)->live;
    if (f && f >= vm_frames_base && f <= vm_ts.frame && FRAME_HDR(f)[HDR_FRAMEOBJ] == fo)
        return f;
    /* A generator's frame, resumed since its object last saw it run (a
     * yield clears `live`, and the resumed frame need not lie where it did). */
    Obj gen = FRAMEO(fo)->gen;
    if (gen && GEN(gen)->state == GEN_RUNNING)
        for (f = vm_ts.frame; f; f = f->back)
            if (FRAME_HDR(f)[HDR_GEN] == gen && FRAME_HDR(f)[HDR_FRAMEOBJ] == fo)
                return f;
    return NULL;
}

Obj eval_frame_object(Frame *f)
{
    Obj fo = FRAME_HDR(f)[HDR_FRAMEOBJ];
    if (!fo) {
        fo = frameobj_new((Obj)f->code, FRAME_HDR(f)[HDR_GLOBALS], eval_frame_lineno(f));
        if (!fo)
            return NULL;
        FRAMEO(fo)->gen = FRAME_HDR(f)[HDR_GEN];   /* new: no barrier needed for the stores */
        FRAMEO(fo)->flags = FO_TRACE_LINES;
        vm_tx_frame_write(f);   /* an outer frame's slot: an abort must restore it */
        FRAME_HDR(f)[HDR_FRAMEOBJ] = fo;
    }
    if (FRAMEO(fo)->live != (int64_t)(uintptr_t)f) {
        VM_WRITE(fo);
        FRAMEO(fo)->live = (int64_t)(uintptr_t)f;
    }
    return fo;
}

/* The frame leaves the stack: its object keeps the line, and, when the
 * frame ends with an exception (not a generator's, which may run again),
 * the locals it ended with: f_locals of a traceback's frame, as in CPython.
 * Only then: the exception, pending, is rooted, while a return's value is
 * held in a C variable of the eval loop that a collection here would not
 * update. */
void eval_frame_ended(Frame *f)
{
    Obj fo = FRAME_HDR(f)[HDR_FRAMEOBJ];
    if (!fo || !FRAMEO(fo)->live)
        return;
    Obj *r = vm_roots(3);
    r[0] = fo;
    if (!FRAME_HDR(f)[HDR_GEN] && vm_ts.roots[ROOT_CUR_EXC]) {
        r[1] = err_fetch();
        r[2] = eval_frame_locals(f);
        if (!r[2])
            err_clear();
        if (r[1])
            vm_ts.roots[ROOT_CUR_EXC] = r[1];
    }
    VM_WRITE(r[0]);
    FRAMEO(r[0])->lineno = eval_frame_lineno(f);
    FRAMEO(r[0])->live = 0;
    if (r[2])
        FRAMEO(r[0])->locals = r[2];
    vm_unroots(r);
}

/* ------------------------------------------------------------------ */
/* Calling the functions                                               */
/* ------------------------------------------------------------------ */

/* The thread's flags and dispatch table from its root slots. */
static void sync_flags(void)
{
    int tracing = vm_ts.roots[ROOT_TRACE_FUNC] || vm_ts.roots[ROOT_PROFILE_FUNC];
    vm_profiling = vm_ts.roots[ROOT_PROFILE_FUNC] != NULL;
    if (tracing != vm_tracing) {
        vm_tracing = tracing;
        eval_dispatch_update();
    }
}

/* STM: an abort restored the root slots as they were when the transaction
 * started, at a yield point of some eval level, which may be inside a trace
 * function: `busy` (C state the abort skipped past) gets its value of then
 * back (txstate.c saves it with eval_trace_busy). */
int eval_trace_busy(void) { return busy; }

void eval_trace_after_abort(int busy_at_start)
{
    busy = busy_at_start;
    sync_flags();
}

/* Drop the trace (or profile) function after it raised (C state changes
 * with it: not in a transaction that could abort). */
static void remove_func(int root)
{
    vm_tx_become_inevitable();
    vm_ts.roots[root] = NULL;
    vm_tracing = vm_ts.roots[ROOT_TRACE_FUNC] || vm_ts.roots[ROOT_PROFILE_FUNC];
    vm_profiling = vm_ts.roots[ROOT_PROFILE_FUNC] != NULL;
    eval_dispatch_update();
}

/* func(frame, event, arg) with f's line in the frame object and the
 * pending exception (if any) set aside. *result: what it returned (NULL if
 * not wanted). 0, or -1 with its error (then the function is removed). */
static int call_func(int root, Obj func, Frame *f, int event, Obj arg, int line, Obj *result)
{
    Obj *r = vm_roots(4);   /* 0 func, 1 arg, 2 frame object, 3 saved exception */
    int rc = -1;
    r[0] = func;
    r[1] = arg ? arg : g_None;
    r[3] = err_fetch();
    r[2] = eval_frame_object(f);
    if (!r[2])
        goto out;
    /* during the call f_lineno is the event's line */
    VM_WRITE(r[2]);
    FRAMEO(r[2])->lineno = line;
    FRAMEO(r[2])->flags |= FO_IN_EVENT;
    Obj name = vm_intern_cached(event_names[event]);
    busy++;
    Obj res = vm_call3(r[0], r[2], name, r[1]);
    busy--;
    VM_WRITE(r[2]);
    FRAMEO(r[2])->flags &= ~FO_IN_EVENT;
    if (!res) {
        if (root == ROOT_TRACE_FUNC && FRAME_HDR(f)[HDR_FRAMEOBJ]) {
            VM_WRITE(FRAME_HDR(f)[HDR_FRAMEOBJ]);
            FRAMEO(FRAME_HDR(f)[HDR_FRAMEOBJ])->trace = NULL;
        }
        remove_func(root);
        goto out;   /* its error replaces the pending one */
    }
    r[1] = res;
    if (r[3])
        err_set_obj(r[3]);
    if (result)
        *result = r[1];
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* An event for the frame's local trace function (f_trace); what it
 * returns, if not None, becomes the new one. */
static int call_local(Frame *f, int event, Obj arg, int line)
{
    Obj fo = FRAME_HDR(f)[HDR_FRAMEOBJ];
    if (!fo || !FRAMEO(fo)->trace)
        return 0;
    Obj res = NULL;
    if (call_func(ROOT_TRACE_FUNC, FRAMEO(fo)->trace, f, event, arg, line, &res) < 0)
        return -1;
    fo = FRAME_HDR(f)[HDR_FRAMEOBJ];
    if (res && !IS_NONE(res)) {
        VM_WRITE(fo);
        FRAMEO(fo)->trace = res;
    }
    return 0;
}

/* The line of instruction i, or 0 for an instruction of no line. */
static int raw_line(CodeObj *co, int64_t i)
{
    if (i < 0 || !co->lines || (uint64_t)i >= co->ninstr)
        return 0;
    return ((const int32_t __seg_gs *)RAW(co->lines)->data)[i];
}

/* ------------------------------------------------------------------ */
/* Events                                                              */
/* ------------------------------------------------------------------ */

/* The call event of this activation of f (a new frame, or a generator
 * resumed), once: at its first instruction, or when an exception is thrown
 * into it before any. */
static int call_event(Frame *f)
{
    CodeObj *co = f->code;
    int64_t i = f->ip - co->code - 1;
    if (!f->traced) {
        f->traced = 1;
        /* a resumed generator goes on from its yield; a new frame is at
         * its def line (co_firstlineno), as CPython reports it */
        f->trace_last = i > 0 ? (int32_t)(i - 1) : -1;
        int line = i > 0 ? code_line_at(co, i - 1) : co->firstlineno;
        if (vm_ts.roots[ROOT_PROFILE_FUNC] &&
            call_func(ROOT_PROFILE_FUNC, vm_ts.roots[ROOT_PROFILE_FUNC], f, EV_CALL, NULL, line, NULL) < 0)
            return -1;
        if (vm_ts.roots[ROOT_TRACE_FUNC]) {
            Obj res = NULL;
            if (call_func(ROOT_TRACE_FUNC, vm_ts.roots[ROOT_TRACE_FUNC], f, EV_CALL, NULL, line, &res) < 0)
                return -1;
            if (res && !IS_NONE(res)) {
                Obj fo = FRAME_HDR(f)[HDR_FRAMEOBJ];
                VM_WRITE(fo);
                FRAMEO(fo)->trace = res;
            }
        }
    }
    return 0;
}

int eval_trace_instr(Frame *f)
{
    if (busy)
        return 0;
    if (!f->traced && call_event(f) < 0)
        return -1;
    CodeObj *co = f->code;
    int64_t i = f->ip - co->code - 1;
    int64_t last = f->trace_last;
    f->trace_last = (int32_t)i;
    Obj fo = FRAME_HDR(f)[HDR_FRAMEOBJ];
    if (!vm_ts.roots[ROOT_TRACE_FUNC] || !fo || !FRAMEO(fo)->trace)
        return 0;
    int line = raw_line(co, i);
    if (line > 0 && (FRAMEO(fo)->flags & FO_TRACE_LINES)) {
        int lastline = last >= 0 ? raw_line(co, last) : -1;
        if ((line != lastline || i < last) && call_local(f, EV_LINE, NULL, line) < 0)
            return -1;
    }
    /* f_trace_opcodes: an 'opcode' event before every instruction, after
     * its line event (CPython 3.11); the line event may have changed it. */
    fo = FRAME_HDR(f)[HDR_FRAMEOBJ];
    if (!vm_ts.roots[ROOT_TRACE_FUNC] || !fo || !FRAMEO(fo)->trace || !(FRAMEO(fo)->flags & FO_TRACE_OPCODES))
        return 0;
    return call_local(f, EV_OPCODE, NULL, line > 0 ? line : eval_frame_lineno(f));
}

int eval_trace_return(Frame *f, Obj v)
{
    if (busy)
        return 0;
    if (!f->traced) {
        Obj *r = vm_roots(1);   /* v is rooted by the caller's stack, but not when NULL */
        r[0] = v;
        int rc = call_event(f);
        v = r[0];
        vm_unroots(r);
        if (rc < 0)
            return -1;
    }
    int line = eval_frame_lineno(f);
    if (vm_ts.roots[ROOT_PROFILE_FUNC] &&
        call_func(ROOT_PROFILE_FUNC, vm_ts.roots[ROOT_PROFILE_FUNC], f, EV_RETURN, v, line, NULL) < 0)
        return -1;
    if (vm_ts.roots[ROOT_TRACE_FUNC])
        return call_local(f, EV_RETURN, v, line);
    return 0;
}

int eval_trace_exception(Frame *f)
{
    if (busy)
        return 0;
    if (!f->traced && call_event(f) < 0)
        return -1;
    if (!vm_ts.roots[ROOT_TRACE_FUNC])
        return 0;
    Obj fo = FRAME_HDR(f)[HDR_FRAMEOBJ];
    Obj exc = vm_ts.roots[ROOT_CUR_EXC];
    if (!fo || !FRAMEO(fo)->trace || !exc)
        return 0;
    Obj *r = vm_roots(1);
    int rc = -1;
    Obj tb = IS_EXCEPTION(exc) && EXC(exc)->traceback ? EXC(exc)->traceback : g_None;
    r[0] = tuple_pack(3, (Obj)TYPE(exc), exc, tb);
    if (r[0])
        rc = call_local(f, EV_EXCEPTION, r[0], eval_frame_lineno(f));
    vm_unroots(r);
    return rc;
}

int eval_profile_c(Frame *f, int what, Obj callable)
{
    if (busy || !vm_ts.roots[ROOT_PROFILE_FUNC])
        return 0;
    return call_func(ROOT_PROFILE_FUNC, vm_ts.roots[ROOT_PROFILE_FUNC], f, EV_C_CALL + what, callable,
                     eval_frame_lineno(f), NULL);
}
