/* What collections leave for the interpreter: weak-reference callbacks and
 * finalizers (runtime/gc.h, "Weak references and finalizers"). Collections
 * only queue them; they run here, as Python code, outside the collector:
 * at a yield point of the eval loop (GIL build), between two transactions
 * of the outermost loop (STM build), in gc.collect() and at exit. Whichever
 * thread gets there first runs the whole queue.
 *
 * Finalizers follow PEP 442: an object whose class has __del__ (TPF_HAS_DEL:
 * from the class body, a base, or assigned before the object was made) is
 * registered at creation; the first major collection
 * that finds it unreachable keeps it, and what it references, alive and
 * queues it; __del__ runs once, and the object is freed by a later
 * collection unless __del__ resurrected it. Cycles of such objects are
 * collected the same way (all their finalizers run, in no fixed order). A
 * file object's finalizer flushes and closes it. Generators, coroutines
 * and async generators are finalized as CPython's _PyGen_Finalize does
 * (generator.c, gen_finalize: close(), the "never awaited" warning, the
 * async generator finalizer hook). */
#include "eval.h"
#include "objects/objects.h"
#include "objects/strobj.h"

static __thread bool running;

/* CPython's default unraisable hook: "Exception ignored in: <repr>" (or
 * err_msg's words), then the exception without its chain. */
void vm_print_unraisable(Obj exc, Obj what, Obj err_msg)
{
    Obj *r = vm_roots(3);
    r[0] = exc;
    r[1] = what;
    r[2] = err_msg && !IS_NONE(err_msg) ? vm_str(err_msg) : NULL;
    if (!r[2])
        err_clear();
    if (g_sys_stdout && file_flush(g_sys_stdout) < 0)
        err_clear();
    if (r[1] && !IS_NONE(r[1])) {
        Obj rep = vm_repr(r[1]);
        if (!rep)
            err_clear();
        vm_errmsg("%s: %s\n", r[2] ? str_cstr(r[2]) : "Exception ignored in", rep ? str_cstr(rep) : "<object repr() failed>");
    } else if (r[2]) {
        vm_errmsg("%s:\n", str_cstr(r[2]));
    }
    /* CPython: no chained exceptions; one raised without a traceback (by C
     * code) gets the running frame's line */
    Frame *f = vm_ts.frame;
    if (r[0] && IS_EXCEPTION(r[0]) && !EXC(r[0])->traceback && f)
        traceback_prepend(r[0], (Obj)f->code, FRAME_HDR(f)[HDR_GLOBALS], eval_frame_lineno(f), f->ip - f->code->code - 1);
    if (r[0])
        vm_print_exception_on(NULL, r[0], true);
    vm_unroots(r);
}

/* The type of the hook's argument (sys.UnraisableHookArgs, not a sys
 * attribute in CPython either): made on first use, a C global root. */
static Obj g_unraisable_args_type;

static Obj unraisable_args_type(void)
{
    if (!g_unraisable_args_type) {
        static const char *const f[] = {"exc_type", "exc_value", "exc_traceback", "err_msg", "object"};
        vm_tx_become_inevitable();   /* a C global root: an abort would not undo it */
        VM_GLOBAL_ROOT(g_unraisable_args_type);
        g_unraisable_args_type = structseq_new_type("sys", "UnraisableHookArgs", f, 5, 5);
    }
    return g_unraisable_args_type;
}

/* sys.unraisablehook(UnraisableHookArgs) when the user replaced it: 0, or
 * -1 with its exception. */
static int call_unraisable_hook(Obj hook, Obj exc, Obj what, Obj err_msg)
{
    Obj *r = vm_roots(7);   /* hook, exc_type, exc_value, exc_traceback, err_msg, object, args type */
    int rc = -1;
    r[0] = hook;
    r[2] = exc ? exc : g_None;
    r[1] = exc ? (Obj)TYPE(exc) : g_None;
    r[3] = exc && IS_EXCEPTION(exc) && EXC(exc)->traceback ? EXC(exc)->traceback : g_None;
    r[4] = err_msg ? err_msg : g_None;
    r[5] = what ? what : g_None;
    r[6] = unraisable_args_type();
    if (r[6] && (r[6] = structseq_new(r[6], r + 1, 5)) && vm_call1(r[0], r[6]))
        rc = 0;
    vm_unroots(r);
    return rc;
}

void vm_report_unraisable_exc(Obj exc, Obj what, const char *err_msg)
{
    Obj *r = vm_roots(4);
    r[0] = exc;
    r[1] = what;
    r[3] = err_msg ? str_from_cstr(err_msg) : NULL;
    if (err_msg && !r[3])
        err_clear();
    r[2] = sys_get("unraisablehook");
    if (r[2] && !IS_NONE(r[2]) && r[2] != sys_get("__unraisablehook__")) {
        if (call_unraisable_hook(r[2], r[0], r[1], r[3]) == 0) {
            vm_unroots(r);
            return;
        }
        r[0] = err_fetch();   /* the hook failed: its own error, as CPython */
        r[1] = r[2];
        r[2] = str_from_cstr("Exception ignored in sys.unraisablehook");
        if (!r[2])
            err_clear();
        vm_print_unraisable(r[0], r[1], r[2]);
        vm_unroots(r);
        return;
    }
    vm_print_unraisable(r[0], r[1], r[3]);
    vm_unroots(r);
}

void vm_report_unraisable(Obj what)
{
    Obj *r = vm_roots(1);
    r[0] = what;
    Obj exc = err_fetch();
    vm_report_unraisable_exc(exc, r[0], NULL);
    vm_unroots(r);
}

/* slot[0]: a cleared weak reference; its callback gets the weak reference
 * (the subclass instance if it is one), once. */
static void run_callback(Obj *slot)
{
    Obj cb = WREF(slot[0])->callback;
    if (!cb)
        return;
    VM_WRITE(slot[0]);
    WREF(slot[0])->callback = NULL;   /* CPython: __callback__ is None once called */
    Obj *r = vm_roots(2);
    r[0] = cb;
    Obj wrapper = WREF(slot[0])->wrapper;
    r[1] = wrapper ? wrapper : slot[0];
    if (!vm_call(r[0], &r[1], 1, NULL))
        vm_report_unraisable(r[0]);
    vm_unroots(r);
}

/* slot[0]: an unreachable registered object. */
static void finalize(Obj *slot)
{
    Obj o = slot[0];
    if (gen_is_resumable(o)) {
        gen_finalize(slot);
        return;
    }
    if (TID(o) == TID_FILE) {
        if (file_finalize(o) < 0)
            vm_report_unraisable(slot[0]);
        return;
    }
    Obj del = vm_lookup_type(TYPE(o), NAME(__del__));
    if (!del)
        return;   /* __del__ was deleted from the class since */
    Obj *r = vm_roots(1);
    r[0] = del;
    if (!vm_call(r[0], slot, 1, NULL))
        vm_report_unraisable(r[0]);
    vm_unroots(r);
}

void vm_run_gc_work(void)
{
    if (running || !tm_gc_pending)
        return;
    /* Taking from the queues is not undone by an abort. Becoming inevitable
     * may abort (while it waits for another inevitable transaction): the
     * flag is set only after it, or an abort would leave it set and this
     * thread would never run the queues again (issue 21, finalizers lost). */
    vm_tx_become_inevitable();
    running = true;
    Obj *r = vm_roots(1);
    for (;;) {
        object_t *w = tm_take_cleared_weakref();
        if (w) {
            r[0] = (Obj)w;
            run_callback(r);
            continue;
        }
        object_t *f = tm_take_finalizable();
        if (!f)
            break;
        r[0] = (Obj)f;
        finalize(r);
    }
    vm_unroots(r);
    running = false;
}

/* The value-stack slots of the innermost frame above `top` (the arguments
 * of the C call in progress end there) hold values that were popped: they
 * are dead, but the GC sees every shadow-stack slot. Cleared, so that
 * `del x; gc.collect()` finds x dead as CPython's reference counting
 * would. A top outside that frame (a call from C) clears nothing. */
static void clear_dead_stack(Obj *top)
{
    Frame *f = vm_ts.frame;
    if (!f || !top || top < f->stack_base || top > f->end)
        return;
    for (Obj *p = top; p < f->end; p++)
        *p = NULL;
}

/* *found: the dead containers (objects that hold references: CPython's
 * collector counts only those, the rest die by reference counting), young
 * and old, plus the unreachable objects queued for finalization. */
Obj vm_gc_collect(Obj *stack_top, int64_t *found)
{
    clear_dead_stack(stack_top);
    tm_gc_count_dead_start();
#if TM_STM
    /* What this transaction made (weak references, registrations) is the
     * collector's to judge only once committed: commit, and go on in an
     * inevitable transaction (as after a blocking call; an abort while it
     * waits to become inevitable comes back here). Inside `with tm.atomic:`
     * the block's own objects wait for a later collection. */
    if (!vm_ts.atomic) {
        vm_tx_commit();
        tm_start_transaction();
        tm_become_inevitable();
    }
#endif
    size_t before = tm_gc_pending;
    tm_collect_major();
    size_t queued = tm_gc_pending > before ? tm_gc_pending - before : 0;
    *found = (int64_t)(tm_gc_count_dead_stop() + queued);
    vm_run_gc_work();
    /* The finalized objects (and what only they reach) are freed now, as
     * CPython's collection frees what it finalized and did not resurrect:
     * else the next collect() would count them a second time. */
    if (queued && !running) {
        vm_tx_become_inevitable();
        tm_collect_major();
        vm_run_gc_work();
    }
    return g_None;
}

/* Files are left to the flush at exit (file_flush_all_at_exit): the
 * standard streams must stay open for what follows. */
static bool finalized_at_exit(object_t *o, void *ctx)
{
    (void)ctx;
    return TID((Obj)o) != TID_FILE;
}

static bool is_value_of(Obj dict, Obj o)
{
    Obj k, v;
    int64_t pos = 0;
    while (dict_next(dict, &pos, &k, &v))
        if (v == o)
            return true;
    return false;
}

/* o is a value of the globals *(Obj *)ctx, or an attribute of an instance
 * that is one. */
static bool in_globals(object_t *o, void *ctx)
{
    Obj globals = *(Obj *)ctx, k, v;
    if (!finalized_at_exit(o, NULL))
        return false;
    int64_t pos = 0;
    while (dict_next(globals, &pos, &k, &v)) {
        if (v == (Obj)o)
            return true;
        if (TID(v) == TID_INSTANCE && INST(v)->dict && IS_DICT(INST(v)->dict) && is_value_of(INST(v)->dict, (Obj)o))
            return true;
    }
    return false;
}

/* v may be registered (saves a search of the registered objects). */
static void queue_if_registered(Obj v)
{
    if (IS_SMALLINT(v))
        return;
    bool maybe = gen_is_resumable(v) ? (GEN(v)->flags & GEN_F_FINALIZABLE) != 0
                                     : (TYPE(v)->flags & TPF_HAS_DEL) != 0;
    if (maybe && finalized_at_exit((object_t *)v, NULL))
        tm_finalize_now((object_t *)v);
}

/* What __main__'s globals hold, in the order CPython's shutdown finalizes
 * it in simple programs: the registered values and attributes of instances
 * that are values (in the order they were made), then, in the order of the
 * dict, the items of lists and tuples (last first, as their deallocation
 * releases them). Nothing here allocates: the dict does not move. */
static void queue_main_globals(void)
{
    Obj main = dict_getitem_cstr(g_modules, "__main__");
    if (!main || TID(main) != TID_MODULE)
        return;
    Obj globals = ((ModuleObj *)main)->dict;
    if (!globals || !IS_DICT(globals))
        return;
    tm_finalize_all_now(in_globals, &globals);
    Obj k, v;
    int64_t pos = 0;
    while (dict_next(globals, &pos, &k, &v))
        if (IS_LIST(v) || IS_TUPLE(v))
            for (int64_t i = IS_LIST(v) ? LIST_LEN(v) : TUPLE_LEN(v); i-- > 0;)
                queue_if_registered(IS_LIST(v) ? LIST_ITEMS(v)[i] : TUPLE_ITEMS(v)[i]);
}

bool vm_finalizing;

void vm_gc_at_exit(void)
{
    int64_t found;
    vm_tx_become_inevitable();   /* a C global written */
    vm_finalizing = true;
    vm_gc_collect(NULL, &found);
    /* CPython's shutdown clears the modules' globals: what they still hold
     * is finalized too (__del__, generators closed), __main__'s first */
    queue_main_globals();
    tm_finalize_all_now(finalized_at_exit, NULL);
    vm_run_gc_work();
}
