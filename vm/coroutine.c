/* Coroutines and async generators (PEP 492, PEP 525) as CPython 3.11 has
 * them, with no event loop: whoever drives them calls send()/throw().
 *
 * Their frames are generator frames: the objects are GenObj (TID_COROUTINE,
 * TID_ASYNC_GENERATOR) and generator.c creates, resumes, suspends and
 * finishes them exactly as it does generators, so the STM build saves and
 * restores them across aborts on the same path. This file adds the types
 * and the small awaitable objects around them (IterObj with their own cls):
 *   coroutine_wrapper         coroutine.__await__(): a plain iterator
 *   async_generator_asend     __anext__() / asend(v): one step of the generator
 *   async_generator_athrow    athrow(...) / aclose()
 *   async_generator_wrapped_value  what an async generator's `yield v`
 *       yields (ASYNC_GEN_WRAP), so asend can tell it from a value an
 *       inner await passes through to the event loop.
 *   anext_awaitable           anext(it, default): __anext__()'s awaitable
 *       with StopAsyncIteration turned into StopIteration(default).
 * The builtins aiter() and anext() are here too (coro_builtin_*).
 * Finalization (generator.c, gen_finalize): a coroutine is registered at
 * creation (collected never started: the "never awaited" RuntimeWarning;
 * started and unfinished: closed), an async generator at its first
 * iteration (collected unfinished: the finalizer hook captured then is
 * called with it, or without one it is closed). */
#include "eval.h"

#include <string.h>

TypeObj *T_coroutine, *T_async_generator;
static TypeObj *T_coroutine_wrapper, *T_asend, *T_athrow, *T_wrapped_value, *T_anext_awaitable;

/* States of asend / athrow awaitables (CPython's AWAITABLE_STATE_*). */
enum { AW_INIT, AW_ITER, AW_CLOSED };

/* IterObj fields: a = the coroutine / async generator (wrapped value: the
 * value); b = asend: the value to send, athrow: the argument tuple (NULL:
 * aclose); i = the state. */
static Obj aw_new(TypeObj *cls, Obj a, Obj b)
{
    Obj *r = vm_roots(2);
    r[0] = a;
    r[1] = b;
    Obj o = (Obj)tm_allocate(TID_ITER, sizeof(struct IterObj_));
    if (o) {
        IterObj *it = ITER(o);
        it->cls = (Obj)cls;
        it->a = r[0];
        it->b = r[1];
        it->c = NULL;
        it->i = AW_INIT;
    }
    vm_unroots(r);
    return o ? o : err_nomemory();
}

static void aw_set_state(Obj o, int64_t st)
{
    VM_WRITE(o);
    ITER(o)->i = st;
}

static void ag_set_flag(Obj gen, int64_t flag, bool on)
{
    VM_WRITE(gen);
    if (on)
        GEN(gen)->flags |= flag;
    else
        GEN(gen)->flags &= ~flag;
}

static bool is_type(Obj v, TypeObj *t)
{
    return TID(v) == TID_ITER && TYPE(v) == t;
}

/* A coroutine, or a generator whose code has CO_ITERABLE_COROUTINE
 * (types.coroutine): `await` delegates to it directly. */
static bool is_coroutine_like(Obj v)
{
    if (TID(v) == TID_COROUTINE)
        return true;
    return TID(v) == TID_GENERATOR && (((CodeObj *)GEN(v)->code)->flags & CO_ITERABLE_COROUTINE);
}

/* type(v).name(v[, arg]) looked up on the type, as the interpreter calls
 * special methods. *missing: the type has no such method (no error set). */
static Obj call_special(Obj v, const char *name, Obj arg, bool *missing)
{
    *missing = false;
    Obj *r = vm_roots(3);
    r[0] = v;
    r[2] = arg;
    Obj res = NULL;
    r[1] = vm_lookup_special(r[0], name);
    if (!r[1]) {
        *missing = !err_occurred();
        goto done;
    }
    descrgetfunc g = TYPE(r[1])->tp_descr_get;
    if (g) {
        r[1] = g(r[1], r[0], (Obj)TYPE(r[0]));
        if (!r[1])
            goto done;
    }
    res = r[2] ? vm_call1(r[1], r[2]) : vm_call0(r[1]);
done:
    vm_unroots(r);
    return res;
}

static void set_stop_value(Obj v)
{
    Obj *r = vm_roots(1);
    r[0] = v;
    Obj exc = exc_new(E_StopIteration, r, 1);
    vm_unroots(r);
    if (exc)
        err_set_obj(exc);
}

/* ------------------------------------------------------------------ */
/* await                                                               */
/* ------------------------------------------------------------------ */
Obj coro_get_awaitable(Obj v, int where)
{
    if (TID(v) == TID_COROUTINE) {
        Obj yf = gen_get_yieldfrom(&v, 1, NULL);
        if (yf && !IS_NONE(yf)) {
            err_set(E_RuntimeError, "coroutine is being awaited already");
            return NULL;
        }
        return v;
    }
    if (is_coroutine_like(v))
        return v;
    bool missing;
    Obj *r = vm_roots(1);
    r[0] = v;
    Obj res = call_special(v, "__await__", NULL, &missing);
    if (missing) {
        if (where == 1)
            err_format(E_TypeError, "'async with' received an object from __aenter__ that does not implement "
                                    "__await__: %s", type_name(r[0]));
        else if (where == 2)
            err_format(E_TypeError, "'async with' received an object from __aexit__ that does not implement "
                                    "__await__: %s", type_name(r[0]));
        else
            err_format(E_TypeError, "object %s can't be used in 'await' expression", type_name(r[0]));
    } else if (res && is_coroutine_like(res)) {
        err_set(E_TypeError, "__await__() returned a coroutine");
        res = NULL;
    } else if (res && !TYPE(res)->tp_iternext) {
        err_format(E_TypeError, "__await__() returned non-iterator of type '%s'", type_name(res));
        res = NULL;
    }
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* async for                                                           */
/* ------------------------------------------------------------------ */
/* The first asend/athrow/anext of an async generator: the finalizer hook is
 * captured and firstiter(gen) called (CPython's async_gen_init_hooks). */
static int ag_init_hooks(Obj gen)
{
    if (GEN(gen)->flags & AG_HOOKS_INITED)
        return 0;
    if (!(GEN(gen)->flags & GEN_F_FINALIZABLE))
        tm_register_finalizer((object_t *)gen);   /* started: finalized when collected unfinished */
    ag_set_flag(gen, AG_HOOKS_INITED | GEN_F_FINALIZABLE, true);
    Obj fin = vm_ts.roots[ROOT_ASYNCGEN_FINALIZER];
    if (fin) {
        VM_WRITE(gen);
        GEN(gen)->ag_finalizer = fin;
    }
    Obj first = vm_ts.roots[ROOT_ASYNCGEN_FIRSTITER];
    if (first && !vm_call1(first, gen))
        return -1;
    return 0;
}

static Obj ag_asend_new(Obj gen, Obj value)
{
    Obj *r = vm_roots(2);
    r[0] = gen;
    r[1] = value;
    Obj res = ag_init_hooks(r[0]) < 0 ? NULL : aw_new(T_asend, r[0], r[1]);
    vm_unroots(r);
    return res;
}

Obj coro_get_aiter(Obj v)
{
    if (TID(v) == TID_ASYNC_GENERATOR)
        return v;
    bool missing;
    Obj *r = vm_roots(2);
    r[0] = v;
    r[1] = call_special(v, "__aiter__", NULL, &missing);
    if (missing) {
        err_format(E_TypeError, "'async for' requires an object with __aiter__ method, got %s", type_name(r[0]));
    } else if (r[1] && TID(r[1]) != TID_ASYNC_GENERATOR && !vm_lookup_special(r[1], "__anext__")) {
        if (!err_occurred())
            err_format(E_TypeError, "'async for' received an object from __aiter__ that does not implement "
                                    "__anext__: %s", type_name(r[1]));
        r[1] = NULL;
    }
    Obj it = r[1];
    vm_unroots(r);
    return it;
}

Obj coro_get_anext(Obj aiter)
{
    if (TID(aiter) == TID_ASYNC_GENERATOR)
        return ag_asend_new(aiter, g_None);
    bool missing;
    Obj *r = vm_roots(2);
    r[0] = aiter;
    Obj res = NULL;
    r[1] = call_special(aiter, "__anext__", NULL, &missing);
    if (missing) {
        err_format(E_TypeError, "'async for' requires an iterator with __anext__ method, got %s", type_name(r[0]));
    } else if (r[1]) {
        res = coro_get_awaitable(r[1], 0);
        if (!res && err_matches(E_TypeError)) {
            /* CPython's message, the cause being the awaitable's error */
            Obj *c = vm_roots(2);
            c[0] = err_fetch();
            c[1] = str_from_format("'async for' received an invalid object from __anext__: %s", type_name(r[1]));
            if (c[1]) {
                c[1] = exc_new(E_TypeError, &c[1], 1);
                if (c[1]) {
                    VM_WRITE(c[1]);
                    EXC(c[1])->cause = c[0];
                    EXC(c[1])->context = c[0];
                    EXC(c[1])->suppress_context = 1;
                    err_set_obj(c[1]);
                }
            }
            vm_unroots(c);
        }
    }
    vm_unroots(r);
    return res;
}

Obj asyncgen_wrap_value(Obj v)
{
    return aw_new(T_wrapped_value, v, NULL);
}

static bool is_wrapped(Obj v)
{
    return v && is_type(v, T_wrapped_value);
}

/* ------------------------------------------------------------------ */
/* The coroutine type                                                  */
/* ------------------------------------------------------------------ */
static Obj coro_repr(Obj c)
{
    uint64_t id = vm_object_id_slot(&c);
    Obj q = GEN(c)->qualname;
    return str_from_format("<%s object %s at %#lx>", TID(c) == TID_COROUTINE ? "coroutine" : "async_generator",
                           q && IS_STR(q) ? str_cstr(q) : "?", (unsigned long)id);
}

static Obj m_await(Obj *args, size_t nargs, Obj kw)
{
    return aw_new(T_coroutine_wrapper, args[0], NULL);
}

static Obj g_origin(Obj *args, size_t nargs, Obj kw)
{
    (void)args, (void)nargs, (void)kw;
    return g_None;   /* sys.set_coroutine_origin_tracking_depth is not built: never tracked */
}

static const MethodDef coro_methods[] = {
    {"send", gen_m_send, METH_O, "send(arg) -> send 'arg' into coroutine,\nreturn next iterated value or raise StopIteration."},
    {"throw", gen_m_throw, METH_ARGS(1, 3), "throw(value)\nthrow(type[,value[,traceback]])\n\nRaise exception in coroutine, return next iterated value or raise\nStopIteration."},
    {"close", gen_m_close, METH_NOARGS, "close() -> raise GeneratorExit inside coroutine."},
    {"__await__", m_await, METH_NOARGS | METH_WRAPPER, "Return an iterator to be used in await expression."},
    {NULL, NULL, 0, NULL},
};

/* coroutine_wrapper: the iterator of coroutine.__await__() */
static Obj cw_iternext(Obj w)
{
    return gen_send(ITER(w)->a, g_None);
}

static Obj cw_send(Obj *args, size_t nargs, Obj kw)
{
    return gen_send(ITER(args[0])->a, args[1]);
}

static Obj cw_throw(Obj *args, size_t nargs, Obj kw)
{
    Obj *r = vm_roots(1);
    r[0] = ITER(args[0])->a;
    Obj exc = gen_throw_args(args + 1, nargs - 1);
    Obj res = exc ? gen_throw(r[0], exc) : NULL;
    vm_unroots(r);
    return res;
}

static Obj cw_close(Obj *args, size_t nargs, Obj kw)
{
    return gen_close(ITER(args[0])->a);
}

static Obj self_iter(Obj v)
{
    return v;
}

static Obj m_self(Obj *args, size_t nargs, Obj kw)
{
    return args[0];
}

static const MethodDef cw_methods[] = {
    {"send", cw_send, METH_O, "send(arg) -> send 'arg' into coroutine,\nreturn next iterated value or raise StopIteration."},
    {"throw", cw_throw, METH_ARGS(1, 3), "throw(value)\nthrow(type[,value[,traceback]])\n\nRaise exception in coroutine, return next iterated value or raise\nStopIteration."},
    {"close", cw_close, METH_NOARGS, "close() -> raise GeneratorExit inside coroutine."},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* aiter(), anext() and anext_awaitable                                */
/* ------------------------------------------------------------------ */
Obj coro_builtin_aiter(Obj v)
{
    bool missing;
    Obj *r = vm_roots(2);
    r[0] = v;
    Obj it = NULL;
    r[1] = call_special(v, "__aiter__", NULL, &missing);
    if (missing) {
        err_format(E_TypeError, "'%s' object is not an async iterable", type_name(r[0]));
    } else if (r[1]) {
        if (TID(r[1]) == TID_ASYNC_GENERATOR || vm_lookup_special(r[1], "__anext__"))
            it = r[1];
        else if (!err_occurred())
            err_format(E_TypeError, "aiter() returned not an async iterator of type '%s'", type_name(r[1]));
    }
    vm_unroots(r);
    return it;
}

Obj coro_builtin_anext(Obj aiter, Obj dflt)
{
    Obj *r = vm_roots(2);
    r[0] = aiter;
    r[1] = dflt;
    Obj res = NULL;
    if (TID(r[0]) == TID_ASYNC_GENERATOR) {
        res = ag_asend_new(r[0], g_None);
    } else {
        bool missing;
        res = call_special(r[0], "__anext__", NULL, &missing);
        if (missing)
            err_format(E_TypeError, "'%s' object is not an async iterator", type_name(r[0]));
    }
    if (res && r[1])
        res = aw_new(T_anext_awaitable, res, r[1]);
    vm_unroots(r);
    return res;
}

/* The iterator behind an anext_awaitable's wrapped awaitable, asked anew
 * for each step as CPython does (a coroutine: its __await__ wrapper). */
static Obj anext_iter(Obj o)
{
    Obj a = ITER(o)->a;
    if (TID(a) == TID_COROUTINE)   /* not GET_AWAITABLE's "being awaited already" check */
        return aw_new(T_coroutine_wrapper, a, NULL);
    return coro_get_awaitable(a, 0);
}

/* A step's result: StopAsyncIteration becomes StopIteration(default). */
static Obj anext_result(Obj o, Obj res)
{
    if (!res && err_matches(E_StopAsyncIteration)) {
        err_clear();
        set_stop_value(ITER(o)->b);
    }
    return res;
}

static Obj anext_iternext(Obj o)
{
    Obj *r = vm_roots(1);
    r[0] = o;
    Obj res = NULL;
    Obj it = anext_iter(o);
    if (it)
        res = TID(it) == TID_GENERATOR ? gen_send(it, g_None) : TYPE(it)->tp_iternext(it);
    res = anext_result(r[0], res);
    vm_unroots(r);
    return res;
}

/* send / throw / close: the same method of the iterator. */
static Obj anext_proxy(Obj *args, size_t nargs, const char *meth)
{
    Obj it = anext_iter(args[0]);
    Obj res = it ? vm_call_method(it, meth, args + 1, nargs - 1) : NULL;
    return anext_result(args[0], res);
}

static Obj an_send(Obj *args, size_t nargs, Obj kw)
{
    return anext_proxy(args, nargs, "send");
}

static Obj an_throw(Obj *args, size_t nargs, Obj kw)
{
    return anext_proxy(args, nargs, "throw");
}

static Obj an_close(Obj *args, size_t nargs, Obj kw)
{
    return anext_proxy(args, nargs, "close");
}

static Obj an_await(Obj *args, size_t nargs, Obj kw)
{
    return args[0];
}

static const MethodDef anext_methods[] = {
    {"send", an_send, METH_O, "send(arg) -> send 'arg' into the wrapped iterator,\nreturn next yielded value or raise StopIteration."},
    {"throw", an_throw, METH_ARGS(1, 3), "throw(value)\nthrow(type[,value[,tb]])\n\nRaise exception in the wrapped iterator, return next yielded value\nor raise StopIteration."},
    {"close", an_close, METH_NOARGS, "close() -> raise GeneratorExit inside generator."},
    {"__await__", an_await, METH_NOARGS | METH_WRAPPER, "Return an iterator to be used in await expression."},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* Async generators                                                    */
/* ------------------------------------------------------------------ */
/* The result of resuming an async generator, seen by asend / athrow: a
 * wrapped value is the generator's `yield` (StopIteration(value) ends this
 * awaitable); another value passes through (an inner await's); an error
 * ends the generator's run. */
static Obj ag_unwrap_to(Obj gen, Obj result, Obj *value);
static Obj ag_unwrap(Obj gen, Obj result)
{
    return ag_unwrap_to(gen, result, NULL);
}

/* value non-NULL: a wrapped value is stored there (NULL returned, no
 * exception) instead of raised as StopIteration(value). */
static Obj ag_unwrap_to(Obj gen, Obj result, Obj *value)
{
    if (!result) {
        Obj *r = vm_roots(1);
        r[0] = gen;
        if (!err_occurred())
            err_set_obj((Obj)E_StopAsyncIteration);
        if (err_matches(E_StopAsyncIteration) || err_matches(E_GeneratorExit))
            ag_set_flag(r[0], AG_CLOSED, true);
        ag_set_flag(r[0], AG_RUNNING_ASYNC, false);
        vm_unroots(r);
        return NULL;
    }
    if (is_wrapped(result)) {
        Obj *r = vm_roots(1);
        r[0] = gen;
        if (value)
            *value = ITER(result)->a;   /* ag_set_flag does not allocate */
        else
            set_stop_value(ITER(result)->a);
        ag_set_flag(r[0], AG_RUNNING_ASYNC, false);
        vm_unroots(r);
        return NULL;
    }
    return result;
}

static Obj asend_run(Obj o, Obj arg, Obj *value);
static Obj asend_send(Obj o, Obj arg)
{
    return asend_run(o, arg, NULL);
}

bool coro_is_asend(Obj v)
{
    return TYPE(v) == T_asend;
}

Obj coro_asend_step(Obj o, Obj arg, Obj *value)
{
    *value = NULL;
    return asend_run(o, arg, value);
}

static Obj asend_run(Obj o, Obj arg, Obj *value)
{
    if (ITER(o)->i == AW_CLOSED) {
        err_set(E_RuntimeError, "cannot reuse already awaited __anext__()/asend()");
        return NULL;
    }
    Obj *r = vm_roots(2);
    r[0] = o;
    r[1] = arg;
    Obj res = NULL;
    if (ITER(o)->i == AW_INIT) {
        if (GEN(ITER(o)->a)->flags & AG_RUNNING_ASYNC) {
            err_set(E_RuntimeError, "anext(): asynchronous generator is already running");
            goto done;
        }
        if (!r[1] || IS_NONE(r[1]))
            r[1] = ITER(o)->b;
        aw_set_state(o, AW_ITER);
    }
    ag_set_flag(ITER(r[0])->a, AG_RUNNING_ASYNC, true);
    res = gen_send(ITER(r[0])->a, r[1]);
    res = ag_unwrap_to(ITER(r[0])->a, res, value);
    if (!res)
        aw_set_state(r[0], AW_CLOSED);
done:
    vm_unroots(r);
    return res;
}

static Obj asend_iternext(Obj o)
{
    return asend_send(o, g_None);
}

static Obj as_send(Obj *args, size_t nargs, Obj kw)
{
    return asend_send(args[0], args[1]);
}

/* throw(typ[, val[, tb]]) of an asend / athrow awaitable (args[0], a root
 * slot): the generator's result, or NULL with the error. Bad arguments come
 * back as errors too: CPython's callers unwrap them like the generator's
 * own (an asend awaitable is closed by them). */
static Obj aw_throw(Obj *args, size_t nargs, Obj kw)
{
    /* counted here, after the callers' state check, as CPython does */
    if (vm_check_args("throw", nargs - 1, kw, 1, 3) < 0)
        return NULL;
    Obj exc = gen_throw_args(args + 1, nargs - 1);
    return exc ? gen_throw(ITER(args[0])->a, exc) : NULL;
}

static Obj as_throw(Obj *args, size_t nargs, Obj kw)
{
    if (ITER(args[0])->i == AW_CLOSED) {
        err_set(E_RuntimeError, "cannot reuse already awaited __anext__()/asend()");
        return NULL;
    }
    Obj res = aw_throw(args, nargs, kw);
    res = ag_unwrap(ITER(args[0])->a, res);
    if (!res)
        aw_set_state(args[0], AW_CLOSED);
    return res;
}

static Obj as_close(Obj *args, size_t nargs, Obj kw)
{
    aw_set_state(args[0], AW_CLOSED);
    return g_None;
}

static const MethodDef asend_methods[] = {
    {"send", as_send, METH_O, "send(arg) -> send 'arg' into generator,\nreturn next yielded value or raise StopIteration."},
    {"throw", as_throw, 0, "throw(value)\nthrow(type[,value[,tb]])\n\nRaise exception in generator, return next yielded value or raise\nStopIteration."},
    {"close", as_close, METH_NOARGS, "close() -> raise GeneratorExit inside generator."},
    {"__await__", m_self, METH_NOARGS | METH_WRAPPER, "Return an iterator to be used in await expression."},
    {NULL, NULL, 0, NULL},
};

/* athrow / aclose (ITER(o)->b == NULL) */
static Obj athrow_finish_error(Obj o, bool aclose)
{
    Obj gen = ITER(o)->a;
    ag_set_flag(gen, AG_RUNNING_ASYNC, false);
    aw_set_state(o, AW_CLOSED);
    if (aclose && (err_matches(E_StopAsyncIteration) || err_matches(E_GeneratorExit))) {
        /* aclose() is done: its await returns None */
        err_clear();
        err_set_obj((Obj)E_StopIteration);
    }
    return NULL;
}

static Obj athrow_ignored_exit(Obj o)
{
    ag_set_flag(ITER(o)->a, AG_RUNNING_ASYNC, false);
    aw_set_state(o, AW_CLOSED);
    err_set(E_RuntimeError, "async generator ignored GeneratorExit");
    return NULL;
}

/* The exception athrow's arguments describe (checked when first sent, as
 * CPython does). */
static Obj athrow_exception(Obj args)
{
    int64_t n = TUPLE_LEN(args);
    if (n < 1) {
        err_format(E_TypeError, "athrow expected at least 1 argument, got %lld", (long long)n);
        return NULL;
    }
    if (n > 3) {
        err_format(E_TypeError, "athrow expected at most 3 arguments, got %lld", (long long)n);
        return NULL;
    }
    Obj *r = vm_roots(3);
    for (int64_t i = 0; i < n; i++)
        r[i] = TUPLE_ITEMS(args)[i];
    Obj exc = gen_throw_args(r, (size_t)n);
    vm_unroots(r);
    return exc;
}

static Obj athrow_send(Obj o, Obj arg)
{
    if (ITER(o)->i == AW_CLOSED) {
        err_set(E_RuntimeError, "cannot reuse already awaited aclose()/athrow()");
        return NULL;
    }
    Obj gen = ITER(o)->a;
    bool aclose = ITER(o)->b == NULL;
    if (GEN(gen)->state == GEN_FINISHED) {
        aw_set_state(o, AW_CLOSED);
        err_set_obj((Obj)E_StopIteration);
        return NULL;
    }
    Obj *r = vm_roots(2);
    r[0] = o;
    r[1] = arg;
    Obj res = NULL;
    if (ITER(o)->i == AW_INIT) {
        if (GEN(gen)->flags & AG_RUNNING_ASYNC) {
            aw_set_state(o, AW_CLOSED);
            err_set(E_RuntimeError, aclose ? "aclose(): asynchronous generator is already running"
                                           : "athrow(): asynchronous generator is already running");
            goto done;
        }
        if (GEN(gen)->flags & AG_CLOSED) {
            aw_set_state(o, AW_CLOSED);
            err_set_obj((Obj)E_StopAsyncIteration);
            goto done;
        }
        if (r[1] && !IS_NONE(r[1])) {
            err_set(E_RuntimeError, "can't send non-None value to a just-started coroutine");
            goto done;
        }
        aw_set_state(o, AW_ITER);
        ag_set_flag(gen, AG_RUNNING_ASYNC, true);
        Obj exc;
        if (aclose) {
            ag_set_flag(ITER(r[0])->a, AG_CLOSED, true);
            exc = exc_new(E_GeneratorExit, NULL, 0);
        } else {
            exc = athrow_exception(ITER(o)->b);
        }
        if (!exc) {
            res = athrow_finish_error(r[0], aclose);
            goto done;
        }
        res = gen_throw_ex(ITER(r[0])->a, exc, false);
        if (aclose) {
            if (is_wrapped(res))
                res = athrow_ignored_exit(r[0]);
            else if (!res)
                res = athrow_finish_error(r[0], true);
        } else {
            res = ag_unwrap(ITER(r[0])->a, res);
            if (!res)
                res = athrow_finish_error(r[0], false);
        }
        goto done;
    }
    /* AW_ITER: the generator awaits something inside its handler */
    res = gen_send(ITER(r[0])->a, r[1] ? r[1] : g_None);
    if (!aclose) {
        res = ag_unwrap(ITER(r[0])->a, res);
    } else if (is_wrapped(res)) {
        res = athrow_ignored_exit(r[0]);
    } else if (!res) {
        res = athrow_finish_error(r[0], true);
    }
done:
    vm_unroots(r);
    return res;
}

static Obj athrow_iternext(Obj o)
{
    return athrow_send(o, g_None);
}

static Obj at_send(Obj *args, size_t nargs, Obj kw)
{
    return athrow_send(args[0], args[1]);
}

static Obj at_throw(Obj *args, size_t nargs, Obj kw)
{
    if (ITER(args[0])->i == AW_CLOSED) {
        err_set(E_RuntimeError, "cannot reuse already awaited aclose()/athrow()");
        return NULL;
    }
    Obj res = aw_throw(args, nargs, kw);
    if (ITER(args[0])->b)   /* athrow */
        return ag_unwrap(ITER(args[0])->a, res);
    if (is_wrapped(res))
        return athrow_ignored_exit(args[0]);
    if (!res && (err_matches(E_StopAsyncIteration) || err_matches(E_GeneratorExit))) {
        /* aclose() is done: its await returns None */
        err_clear();
        err_set_obj((Obj)E_StopIteration);
    }
    return res;
}

static Obj at_close(Obj *args, size_t nargs, Obj kw)
{
    aw_set_state(args[0], AW_CLOSED);
    return g_None;
}

static const MethodDef athrow_methods[] = {
    {"send", at_send, METH_O, "send(arg) -> send 'arg' into generator,\nreturn next yielded value or raise StopIteration."},
    {"throw", at_throw, 0, "throw(value)\nthrow(type[,value[,tb]])\n\nRaise exception in generator, return next yielded value or raise\nStopIteration."},
    {"close", at_close, METH_NOARGS, "close() -> raise GeneratorExit inside generator."},
    {"__await__", m_self, METH_NOARGS | METH_WRAPPER, "Return an iterator to be used in await expression."},
    {NULL, NULL, 0, NULL},
};

/* The async generator's own methods */
static Obj ag_m_aiter(Obj *args, size_t nargs, Obj kw)
{
    return args[0];
}

static Obj ag_m_anext(Obj *args, size_t nargs, Obj kw)
{
    return ag_asend_new(args[0], g_None);
}

static Obj ag_m_asend(Obj *args, size_t nargs, Obj kw)
{
    return ag_asend_new(args[0], args[1]);
}

static Obj ag_m_athrow(Obj *args, size_t nargs, Obj kw)
{
    if (vm_check_args("athrow", nargs - 1, kw, 0, (int)nargs) < 0)
        return NULL;
    Obj *r = vm_roots(2);
    r[0] = args[0];
    Obj res = NULL;
    r[1] = tuple_new((int64_t)nargs - 1);
    if (r[1]) {
        for (size_t i = 1; i < nargs; i++)
            TUPLE_ITEMS(r[1])[i - 1] = args[i];
        if (ag_init_hooks(r[0]) == 0)
            res = aw_new(T_athrow, r[0], r[1]);
    }
    vm_unroots(r);
    return res;
}

static Obj ag_m_aclose(Obj *args, size_t nargs, Obj kw)
{
    Obj *r = vm_roots(1);
    r[0] = args[0];
    Obj res = ag_init_hooks(r[0]) == 0 ? aw_new(T_athrow, r[0], NULL) : NULL;
    vm_unroots(r);
    return res;
}

static Obj ag_running(Obj *args, size_t nargs, Obj kw)
{
    (void)nargs, (void)kw;
    return vm_bool(GEN(args[0])->flags & AG_RUNNING_ASYNC);
}

static const MethodDef ag_methods[] = {
    {"asend", ag_m_asend, METH_O, "asend(v) -> send 'v' in generator."},
    {"athrow", ag_m_athrow, 0, "athrow(typ[,val[,tb]]) -> raise exception in generator."},
    {"aclose", ag_m_aclose, METH_NOARGS, "aclose() -> raise GeneratorExit inside generator."},
    {"__aiter__", ag_m_aiter, METH_NOARGS | METH_WRAPPER, "Return an awaitable, that resolves in asynchronous iterator."},
    {"__anext__", ag_m_anext, METH_NOARGS | METH_WRAPPER, "Return a value or raise StopAsyncIteration."},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* Types                                                               */
/* ------------------------------------------------------------------ */
static TypeObj *iter_type(const char *name, unaryfunc next, const MethodDef *methods)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_ITER, 0);
    if (next) {
        t->tp_iter = self_iter;
        t->tp_iternext = next;
        type_add_methods(t, (const MethodDef[]){{"__iter__", m_self, METH_NOARGS | METH_WRAPPER, "Implement iter(self)."},
                                                {NULL, NULL, 0, NULL}});
    }
    if (methods)
        type_add_methods(t, methods);
    type_ready(t);
    return t;
}

void coro_init_types(void)
{
    T_coroutine = (TypeObj *)type_new_builtin("coroutine", T_object, TID_COROUTINE, 0);
    T_coroutine->tp_repr = coro_repr;
    type_add_methods(T_coroutine, coro_methods);
    type_add_getset(T_coroutine, "cr_running", gen_get_running, NULL);
    type_add_getset(T_coroutine, "cr_suspended", gen_get_suspended, NULL);
    type_add_getset(T_coroutine, "cr_code", gen_get_code, NULL);
    type_add_getset(T_coroutine, "cr_frame", gen_get_frame, NULL);
    type_add_getset(T_coroutine, "cr_await", gen_get_yieldfrom, NULL);
    type_add_getset(T_coroutine, "cr_origin", g_origin, NULL);
    gen_add_name_getsets(T_coroutine);
    type_ready(T_coroutine);

    T_async_generator = (TypeObj *)type_new_builtin("async_generator", T_object, TID_ASYNC_GENERATOR, 0);
    T_async_generator->tp_repr = coro_repr;
    type_add_methods(T_async_generator, ag_methods);
    type_add_getset(T_async_generator, "ag_running", ag_running, NULL);
    type_add_getset(T_async_generator, "ag_code", gen_get_code, NULL);
    type_add_getset(T_async_generator, "ag_frame", gen_get_frame, NULL);
    type_add_getset(T_async_generator, "ag_await", gen_get_yieldfrom, NULL);
    gen_add_name_getsets(T_async_generator);
    type_ready(T_async_generator);

    T_coroutine_wrapper = iter_type("coroutine_wrapper", cw_iternext, cw_methods);
    T_asend = iter_type("async_generator_asend", asend_iternext, asend_methods);
    T_athrow = iter_type("async_generator_athrow", athrow_iternext, athrow_methods);
    T_wrapped_value = iter_type("async_generator_wrapped_value", NULL, NULL);
    T_anext_awaitable = iter_type("anext_awaitable", anext_iternext, anext_methods);
}
