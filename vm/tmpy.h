/* tmpy: the interpreter's core header. Every file in vm/ includes it.
 *
 * THE RULES (read before writing any C in vm/):
 *
 * 1. Values. `Obj` is a reference to a GC object (a segment offset,
 *    dereferenced through %gs) or a tagged small int (low bit 1, see
 *    IS_SMALLINT). Never dereference an Obj without knowing it is not a small
 *    int: use TYPE(v), IS_SMALLINT(v), or the IS_xxx() tests below.
 *
 * 2. Moving GC. Any call that can allocate (almost every vm_* / *_new
 *    function, and anything that runs Python code) may MOVE every young
 *    object. An Obj held in a C local across such a call is stale afterwards.
 *    Keep it in a root slot instead:
 *        Obj *r = vm_roots(2);           // 2 zeroed slots on the shadow stack
 *        r[0] = arg;                     // r[i] is updated by the GC
 *        r[1] = list_new(0);             // may move r[0]'s object: fine
 *        if (!r[1]) { vm_unroots(r); return NULL; }
 *        ...
 *        Obj result = r[1];
 *        vm_unroots(r);                  // pops back to r (LIFO)
 *        return result;
 *    Arguments that arrive as `Obj *args` (the vector calling convention)
 *    already live in root slots: read args[i] again after allocating.
 *    Plain `Obj` parameters are NOT rooted: root them yourself if you use
 *    them after an allocation. Objects allocated with tm_allocate_old (code
 *    objects, type objects) and the singletons (None, True, False, ...) never
 *    move: a C pointer to them stays valid (they must still be reachable).
 *
 * 3. Write barrier. Call VM_WRITE(o) before storing into any field of an
 *    existing object o, unless o was allocated and nothing that can
 *    allocate has run since. (GIL build: the generational barrier; STM
 *    build: also the write lock.) Read barrier VM_READ(o) before reading a
 *    mutable object's fields (no-op in the GIL build; write it anyway in the
 *    containers so the STM build works later).
 *
 * 4. Errors. CPython style: a function that fails sets the thread's current
 *    exception (err_set / err_format / ...) and returns NULL (Obj results)
 *    or -1 (int results). Callers check and propagate. Never print and exit
 *    for a Python-level error. tm_allocate returning NULL => err_nomemory().
 *
 * 5. Recursion. C code that can recurse on user data (repr of nested lists,
 *    comparisons of nested tuples, the eval loop run from C) calls
 *    vm_enter_recursive(" while ...") / vm_leave_recursive(): it raises
 *    RecursionError instead of overflowing the C or shadow stack.
 *
 * 6. Strings for C. str_cstr(s) gives a linear `const char *` to a str's
 *    UTF-8 bytes (NUL-terminated): valid only until the next allocation.
 */
#ifndef TMPY_H
#define TMPY_H

#include "tmrt.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

typedef object_t *Obj;

/* ------------------------------------------------------------------ */
/* Tagged small ints: (n << 1) | 1, n in [SMALLINT_MIN, SMALLINT_MAX].  */
/* ------------------------------------------------------------------ */
#define SMALLINT_MAX ((int64_t)((1ULL << 61) - 1))
#define SMALLINT_MIN (-SMALLINT_MAX - 1)
#define IS_SMALLINT(v) (((uintptr_t)(v)) & TM_IMMEDIATE_TAG)
#define SMALLINT_VAL(v) (((int64_t)(uintptr_t)(v)) >> 1)
#define MAKE_SMALLINT(n) ((Obj)(uintptr_t)((((uint64_t)(int64_t)(n)) << 1) | 1))
#define SMALLINT_FITS(n) ((n) >= SMALLINT_MIN && (n) <= SMALLINT_MAX)

/* ------------------------------------------------------------------ */
/* Barriers and roots                                                 */
/* ------------------------------------------------------------------ */
#define VM_WRITE(o) tm_write((object_t *)(o))
#define VM_READ(o) tm_read((object_t *)(o))
/* Before growing container o to n items (a resize): its write lock first,
 * so that of two threads growing one shared container at once the second
 * waits before it builds a table or copies items of its own; a big shared
 * one's grower then keeps its locks from older transactions (tm_tx_grows). */
#define VM_WRITE_TO_GROW(o, n) vm_write_to_grow((Obj)(o), (int64_t)(n))
/* Before storing items[i] of an ArrayObj (or another layout whose items are
 * references) and nothing else of it: a big old array then remembers only
 * the part holding item i (runtime/cards.h). */
#define VM_WRITE_ITEM(o, i) tm_write_item((object_t *)(o), (uintptr_t)(i))
/* Before storing items [i, i + n) of a varsize object (an ArrayObj's Obj
 * items, a RawObj's bytes) and nothing else of it: a big old one then
 * publishes only the cards holding them. A store outside them is lost to
 * other threads (TMPY_STM_CHECK=1 reports it). */
#define VM_WRITE_ITEMS(o, i, n) tm_write_items((object_t *)(o), (uintptr_t)(i), (uintptr_t)(n))
/* The write barrier of shapes read without barriers (types, functions,
 * modules, code, ...: every layout whose cast has no vm_rd below). Under STM
 * a write into one the transaction did not create makes it globally unique
 * (tm_write_rare): inevitable, and every transaction running beside it
 * aborts when it commits, so none goes on with what it read before. */
#if !defined(TMPY_TEST_PLAIN_RARE_WRITE)   /* tests/test_barrier_check.py */
#define VM_WRITE_RARE(o) tm_write_rare((object_t *)(o))
#else
#define VM_WRITE_RARE(o) VM_WRITE(o)
#endif
/* The read barrier inside the accessors: the cast macros of mutable shapes
 * (LIST, ARRAY, DICT, RAW, SETOBJ, ITER, CELL, INST, BYTEARRAY, DEQUE, COUNTOBJ, ...) mark the
 * object read in the running transaction (STM: one byte store; GIL:
 * nothing), so code that reads through them needs no VM_READ of its own. */
static inline Obj vm_rd(Obj o)
{
#ifndef TMPY_BREAK_READ_BARRIER   /* tests only: a build that shows what a missing barrier does */
    tm_read((object_t *)o);
#endif
    return o;
}

/* VM_WRITE_TO_GROW. Only a big one counts as growing: a small copy is
 * cheap, and a transaction marked growing wins every lock it holds. */
#define VM_GROW_BIG 4096
static inline void vm_write_to_grow(Obj o, int64_t n)
{
    tm_write((object_t *)o);
#if TM_STM
    if (n >= VM_GROW_BIG && !tm_created_here((object_t *)o))
        tm_tx_grows();
#else
    (void)n;
#endif
}

/* A cache word in an immutable object (a hash): stored without the write
 * barrier. Every thread computes the same value, so a store that is lost
 * (an abort, a private copy of the page) or repeated is harmless. Under the
 * barrier checker (TMPY_STM_CHECK, where shared pages are read-only in
 * thread segments) an object outside the nursery is written through
 * segment 0, the shared view. */
static inline void vm_cache_store(int64_t __seg_gs *field, int64_t v)
{
#if TM_STM
    uintptr_t so = (uintptr_t)field;
    if (__builtin_expect(tm_check_writes, 0) && so - tm_seg.nursery_start >= tm_seg.nursery_end - tm_seg.nursery_start) {
        tm_compiler_barrier();
        *(volatile int64_t *)(tm_seg.base + so) = v;
        tm_compiler_barrier();
        return;
    }
#endif
    *field = v;
}

/* The next value of a process-wide counter of unique numbers (dict versions,
 * identity hashes), taken from the shared word in per-thread blocks: threads
 * do not all write one word, on which hardware transactions would conflict
 * (paper 001, section 4.4). `next` and `end` are the caller's __thread
 * block; one thread alone counts 1, 2, 3, ... as with a plain counter. */
#define VM_UNIQUE_BLOCK 4096
static inline uint64_t vm_unique_next(uint64_t *shared, uint64_t *next, uint64_t *end)
{
    if (__builtin_expect(*next == *end, 0)) {
        *next = __atomic_fetch_add(shared, VM_UNIQUE_BLOCK, __ATOMIC_RELAXED);
        *end = *next + VM_UNIQUE_BLOCK;
    }
    return ++*next;
}

static inline Obj *vm_roots(int n)
{
    Obj *r = (Obj *)tm_self.ss_top;
    for (int i = 0; i < n; i++)
        r[i] = NULL;
    tm_self.ss_top += n;
    return r;
}
static inline void vm_unroots(Obj *r) { tm_self.ss_top = (object_t **)r; }
/* A C global holding an Obj must be registered once (start-up). */
#define VM_GLOBAL_ROOT(var) tm_add_global_root((object_t **)&(var))

/* Linear address of a GC object's bytes (for memcpy, libc). Valid until the
 * next allocation (the object may move). */
#define VM_LINEAR(p) tm_linear((const void __seg_gs *)(p))

/* ------------------------------------------------------------------ */
/* GC type ids (layouts) of the built-in object shapes.               */
/* Registered by vm_register_layouts() (startup.c) in order.  */
/* Every layout from TID_FIRST_WITH_CLS on has `Obj cls` at offset 8  */
/* and `Obj dict` at offset 16: its Python type is read from cls.     */
/* ------------------------------------------------------------------ */
enum {
    TID_NONE_ = 0,      /* unused: tid 0 marks a bad header */
    TID_NONETYPE,       /* None: SingletonObj (NotImplemented and Ellipsis are IterObj with their own cls) */
    TID_BOOL,           /* IntObj-free: BoolObj */
    TID_BIGINT,         /* BigIntObj: sign + GMP limbs */
    TID_FLOAT,
    TID_COMPLEX,        /* ComplexObj: two doubles */
    TID_STR,
    TID_BYTES,
    TID_BYTEARRAY,
    TID_TUPLE,
    TID_LIST,
    TID_ARRAY,          /* ArrayObj: internal varsize array of Obj (list storage etc.) */
    TID_RAW,            /* RawObj: internal varsize bytes, no references */
    TID_DICT,
    TID_SET,            /* set and frozenset */
    TID_RANGE,
    TID_SLICE,
    TID_CODE,
    TID_FUNCTION,
    TID_CELL,
    TID_METHOD,         /* bound method: MethodObj */
    TID_BUILTIN,        /* BuiltinObj: a C function, bound (self) or not */
    TID_GENERATOR,
    TID_COROUTINE,      /* coroutine: the generator layout (GenObj), coroutine.c */
    TID_ASYNC_GENERATOR,/* async generator: the generator layout (GenObj), coroutine.c */
    TID_FRAME,          /* FrameObj: a saved frame (generators) */
    TID_TRACEBACK,
    TID_MODULE,
    TID_PROPERTY,
    TID_STATICMETHOD,
    TID_CLASSMETHOD,
    TID_SUPER,
    TID_ITER,           /* IterObj: built-in iterators and views (see IterObj) */
    TID_FILE,
    TID_CAPSULE,        /* internal: wraps C data with up to 4 Obj refs */
    TID_DEQUE,          /* collections.deque: DequeObj, a ring buffer over an ArrayObj (dequeobject.c) */
    TID_MEMORYVIEW,     /* MemoryViewObj (memoryview.c) */
    TID_COUNTER,        /* itertools.count: CountObj (countobject.c) */
    TID_WEAKREF,        /* weakref.ref: WeakrefObj, its referent in the runtime's weak slot (weakrefobject.c) */
    TID_WEAKPROXY,      /* weakref.ProxyType: WeakrefObj */
    TID_WEAKCALLABLEPROXY, /* weakref.CallableProxyType: WeakrefObj */
    TID_SRE_PATTERN,    /* re.Pattern: SrePatternObj (objects/sre.h) */
    TID_SRE_MATCH,      /* re.Match: SreMatchObj */
    TID_SRE_SCANNER,    /* _sre.SRE_Scanner (finditer): SreScannerObj */
    TID_FIRST_WITH_CLS, /* ---- layouts below carry cls and dict ---- */
    TID_TYPE = TID_FIRST_WITH_CLS,
    TID_INSTANCE,       /* instances of user classes (and of `object`); made only by instance_new
                           (the real layout, InstanceHObj in objects.h, adds a hidden hash and slots) */
    TID_EXCEPTION,      /* instances of BaseException and subclasses */
    TID_COUNT
};
/* vm_register_layouts() registers the layouts in enum order, so TID_X is
 * the runtime type id itself: tm_allocate(TID_FLOAT, sizeof(struct FloatObj_)).
 * str and bytes layouts count one byte more than their length (the NUL).
 * TID_GENERATOR (also TID_COROUTINE, TID_ASYNC_GENERATOR) and TID_FRAME layouts
 * come from eval_fill_layouts() (eval.h). */

/* ------------------------------------------------------------------ */
/* Object layouts. typedef __seg_gs struct X_ X: X * is a segment      */
/* offset. Reference fields are Obj; words that are not references     */
/* must not be listed in the layout's ref_words.                       */
/* ------------------------------------------------------------------ */
#define VM_STRUCT(name) typedef __seg_gs struct name##_ name; struct name##_

VM_STRUCT(SingletonObj) { tm_header h; const char *cname; };
VM_STRUCT(BoolObj) { tm_header h; int64_t value; };
/* Ints outside the small range. Normalised: never fits a small int. */
VM_STRUCT(BigIntObj) { tm_header h; uint64_t nlimbs; /* limbs used (allocated: the same) */ int64_t sign; /* -1 or 1 */ uint64_t limbs[]; };
VM_STRUCT(FloatObj) { tm_header h; double value; };
VM_STRUCT(ComplexObj) { tm_header h; double real; double imag; };
/* str: UTF-8, NUL-terminated; length in code points; ascii iff length == nbytes. */
VM_STRUCT(StrObj) { tm_header h; int64_t nbytes; int64_t length; int64_t hash; /* -1: not computed */ char data[]; };
VM_STRUCT(BytesObj) { tm_header h; int64_t length; int64_t hash; char data[]; /* NUL after */ };
/* exports: memoryviews not yet released over it (a resize is refused while
 * any is alive: memoryview.c counts the live ones when this is not 0).
 * start: where the data begins in raw (deleting a prefix moves it instead of
 * the bytes after it, so a buffer consumed from the front, as asyncio's and
 * protocol parsers' are, costs nothing per deletion); the room for data is
 * raw->length - start. Always 0 in an array's storage (arraymodule.c). */
VM_STRUCT(ByteArrayObj) { tm_header h; int64_t length; Obj raw; /* RawObj */ int64_t start; int64_t exports; };
/* memoryview (memoryview.c): a view of a bytes or bytearray's data. */
VM_STRUCT(MemoryViewObj) {
    tm_header h;
    Obj obj;          /* what memoryview() was given (.obj) */
    Obj base;         /* the bytes or bytearray whose data it views (unwrapped) */
    Obj format;       /* str: 'B', '@h', ... */
    Obj shape;        /* tuple of ints; () for a 0-dim view */
    Obj strides;      /* tuple of ints, in bytes */
    int64_t offset;   /* byte offset of the first item in base's data */
    int64_t itemsize;
    int64_t code;     /* the format's struct letter ('B', 'h', ...) */
    int64_t flags;    /* MV_RELEASED, MV_READONLY */
    int64_t hash;     /* -1: not computed */
};
#define MEMVIEW(v) ((MemoryViewObj *)vm_rd(v))
VM_STRUCT(TupleObj) { tm_header h; int64_t length; int64_t hash; Obj items[]; };
VM_STRUCT(ArrayObj) { tm_header h; int64_t length; Obj items[]; };
VM_STRUCT(RawObj) { tm_header h; int64_t length; unsigned char data[]; };
VM_STRUCT(ListObj) { tm_header h; int64_t length; Obj array; /* ArrayObj, capacity = array->length */ };
/* dict: layout private to dict.c except `used` and `version`. version is
 * globally unique (one global counter) and replaced whenever a key is added
 * or removed or the table is rebuilt, NOT when an existing key's value is
 * replaced: an entry index cached with a version stays valid while the
 * version is unchanged (inline caches for globals rely on it). */
VM_STRUCT(DictObj) { tm_header h; int64_t used; uint64_t version; Obj entries; Obj index; int64_t nentries; int64_t popped; };
VM_STRUCT(SetObj) { tm_header h; int64_t used; int64_t fill; int64_t mask; Obj table; int64_t frozen; int64_t hash; };
VM_STRUCT(RangeObj) { tm_header h; Obj start; Obj stop; Obj step; int64_t length; /* -1: big */ };
VM_STRUCT(SliceObj) { tm_header h; Obj start; Obj stop; Obj step; };
VM_STRUCT(CellObj) { tm_header h; Obj ref; /* NULL: empty */ };
#define CELL(v) ((CellObj *)vm_rd(v))
VM_STRUCT(MethodObj) { tm_header h; Obj func; Obj self; };
/* cls: NULL for a plain module, else its ModuleType subclass (TYPE() reads it) */
VM_STRUCT(ModuleObj) { tm_header h; Obj dict; Obj name; Obj cls; };
VM_STRUCT(PropertyObj) { tm_header h; Obj fget; Obj fset; Obj fdel; Obj doc; };
VM_STRUCT(StaticMethodObj) { tm_header h; Obj func; };   /* classmethod too */
VM_STRUCT(SuperObj) { tm_header h; Obj type; Obj obj; Obj obj_type; };
/* collections.deque (dequeobject.c): items at buf[(head + k) % capacity], k < len. */
VM_STRUCT(DequeObj) { tm_header h; Obj buf; /* ArrayObj, capacity = buf->length */ int64_t head; int64_t len; int64_t maxlen; /* -1: none */ int64_t state; /* bumped by every change of the items' positions */ };
#define DEQUE(v) ((DequeObj *)vm_rd(v))
/* itertools.count (countobject.c): the next value and the step. */
VM_STRUCT(CountObj) { tm_header h; Obj value; Obj step; };
#define COUNTOBJ(v) ((CountObj *)vm_rd(v))
/* Weak references (weakrefobject.c): `referent` is the runtime's weak slot
 * (tm_type.weak_offset): the GC neither keeps it alive nor lets it dangle,
 * it becomes NULL when a collection finds the referent dead (also in other
 * transactions' views, so it is read through the barrier like any field).
 * `wrapper`: the instance of a Python subclass (class KeyedRef(ref)) that
 * holds this one as its base value, which callbacks receive. */
VM_STRUCT(WeakrefObj) { tm_header h; Obj referent; Obj callback; Obj wrapper; int64_t hash; int64_t has_hash; };
#define WREF(v) ((WeakrefObj *)vm_rd(v))
VM_STRUCT(CapsuleObj) { tm_header h; Obj refs[4]; void *cdata; int64_t kind; };
/* Files (fileobject.c): the engine of the _io objects over a file descriptor.
 * The write buffer is C memory (freed at close). A view (one per FileIO,
 * Buffered* or TextIOWrapper layer) points to the state it shares in `state`;
 * `lower` is the layer object it wraps (a text layer's buffer, a buffered
 * layer's raw). */
VM_STRUCT(FileObj) { tm_header h; Obj name; Obj mode; Obj rbuf; /* RawObj read buffer */ Obj encoding;
                     Obj state; Obj lower;
                     int64_t fd; int64_t flags; int64_t rpos; int64_t rlen; char *wbuf; int64_t wlen; int64_t wcap; };
#define FO(v) ((FileObj *)vm_rd(v))

/* Traceback entry: one per frame an exception passed through. */
VM_STRUCT(TracebackObj) { tm_header h; Obj next; Obj code; int64_t lineno; int64_t lasti; /* instruction word, -1: unknown */
                           Obj globals; /* of the frame (tb_frame.f_globals), or NULL */
                           Obj frame; /* the frame's FrameObj (tb_frame), or NULL: made from code and globals */ };

/* Layouts with a class: cls at offset 8, dict at 16 (NULL: no dict yet). */
/* __slots__ attributes live in the dict too (setattr refuses other names). */
VM_STRUCT(InstanceObj) { tm_header h; Obj cls; Obj dict; Obj base_value; /* value of a builtin base (list, int, ...) or NULL */ };
#define INST(v) ((InstanceObj *)vm_rd(v))
VM_STRUCT(ExceptionObj) {
    tm_header h; Obj cls; Obj dict;
    Obj args;            /* tuple */
    Obj traceback;       /* TracebackObj or NULL */
    Obj cause, context;  /* NULL when unset */
    int64_t suppress_context;
    Obj extra;           /* subclass-specific (StopIteration.value, SyntaxError details tuple, ...) */
};
#define EXC(v) ((ExceptionObj *)vm_rd(v))

/* Built-in iterator / view objects share one layout; `kind` says which. */
VM_STRUCT(IterObj) { tm_header h; Obj cls; Obj a; Obj b; Obj c; int64_t i; int64_t n; int64_t kind; };

/* A C function as a Python object. def->flags: see MethodDef. self: bound
 * receiver (module functions: the module, or NULL). */
typedef Obj (*cfunc)(Obj *args, size_t nargs, Obj kwnames);
typedef struct MethodDef {
    const char *name;
    cfunc fn;        /* args[0] is self (or the class for METH_CLASS) unless METH_STATIC / module function */
    int flags;
    const char *doc;
} MethodDef;
enum {
    METH_KW = 1,          /* accepts keyword arguments (kwnames may be non-NULL) */
    METH_STATIC = 2,      /* in a type: a staticmethod (no self) */
    METH_CLASS = 4,       /* in a type: a classmethod (args[0] = the class) */
    METH_COUNTED = 8,     /* the call checks the declared count (METH_ARGS) and that no keyword is
                             given, so fn may read args[0..min) without looking */
    METH_OLDMSG = 16,     /* with METH_COUNTED: PyArg_ParseTuple's wording ("find() takes at least
                             1 argument (0 given)") in place of "find expected at least 1 argument, got 0";
                             in a module it implies METH_BARENAME */
    METH_BARENAME = 32,   /* CPython's function is METH_VARARGS: bound to a module or an object it goes
                             by its bare name ("log() takes no keyword arguments", not "math.log()") */
    METH_UNPACKED = 128,  /* with METH_COUNTED: PyArg_UnpackTuple's wording even for one argument
                             ("split expected 1 argument, got 0", not "takes exactly one argument") */
    METH_WRAPPER = 64,    /* with METH_COUNTED: a slot wrapper in CPython (__next__, __await__, __repr__),
                             so its wording: "expected 0 arguments, got 1", "wrapper __next__() takes no
                             keyword arguments" */
};
/* Declared positional-argument counts (self not counted; max -1: no limit). The messages are
 * CPython's for the kind: METH_NOARGS "list.clear() takes no arguments (1 given)", METH_O
 * "list.append() takes exactly one argument (0 given)", others "pop expected at most 1 argument,
 * got 2"; a keyword: "list.pop() takes no keyword arguments". */
#define METH_ARGS(min, max) (METH_COUNTED | (min) << 8 | ((max) & 0xff) << 16)
#define METH_NOARGS METH_ARGS(0, 0)
#define METH_O METH_ARGS(1, 1)
#define METH_ARGS_MIN(flags) ((flags) >> 8 & 0xff)
#define METH_ARGS_MAX(flags) ((flags) >> 16 & 0xff)   /* 0xff: no limit */
VM_STRUCT(BuiltinObj) { tm_header h; Obj self; Obj name; const MethodDef *def; Obj owner; /* defining type, for unbound methods */ };

/* ------------------------------------------------------------------ */
/* Code objects (compile.c makes them, eval.c runs them). Pinned.      */
/* ------------------------------------------------------------------ */
enum {
    CO_VARARGS = 1,       /* *args */
    CO_VARKEYWORDS = 2,   /* **kwargs */
    CO_GENERATOR = 4,     /* a call makes a resumable object: a generator, or with one of the
                             two flags below a coroutine / async generator (generator.c) */
    CO_NESTED = 8,
    CO_CLASSBODY = 16,    /* a class body: names through LOAD_NAME/STORE_NAME */
    CO_MODULE = 32,       /* module level code */
    CO_LAMBDA = 64,
    CO_COMPREHENSION = 128,
    CO_HAS_DOCSTRING = 256, /* consts[0] is the function's __doc__ */
    CO_COROUTINE = 512,     /* async def (or an awaited async comprehension) */
    CO_ASYNC_GENERATOR = 1024, /* async def with yield, or an async generator expression */
    CO_ITERABLE_COROUTINE = 2048, /* a generator usable with await (types.coroutine) */
    CO_FUTURE_ANNOTATIONS = 4096, /* compiled under `from __future__ import annotations` (PEP 563) */
};
VM_STRUCT(CodeObj) {
    tm_header h;
    Obj consts;        /* tuple */
    Obj names;         /* tuple of str: global/attribute/import names */
    Obj localsplus;    /* tuple of str: parameters, other locals, then cell vars, then free vars */
    Obj name;          /* str */
    Obj qualname;      /* str */
    Obj filename;      /* str */
    Obj lines;         /* RawObj: int32 line number per instruction word */
    Obj positions;     /* RawObj: the instructions' source ranges, encoded (compiler/positions.c), or NULL */
    Obj cache;         /* RawObj: inline caches (ncaches * 32 bytes), zeroed */
    int32_t argcount, posonlyargcount, kwonlyargcount;
    int32_t nlocals;   /* parameters + other plain locals (first entries of localsplus) */
    int32_t ncellvars; /* cells created by this code: localsplus[nlocals .. nlocals+ncellvars) */
    int32_t nfreevars; /* from the closure: localsplus[nlocals+ncellvars ..) */
    int32_t stacksize; /* max value-stack depth */
    int32_t flags;     /* CO_* */
    int32_t firstlineno;
    int32_t ncaches;
    int32_t reserved_;
    uint64_t ninstr;   /* instruction words in code[] (the layout's varsize length) */
    int32_t cell2arg_count; /* cell vars that are also parameters: see cell2arg */
    int16_t cell2arg[16];   /* for cell var i (< 16): index of the parameter it starts from, or -1 */
    uint32_t code[];   /* instruction words: see opcodes.h */
};

VM_STRUCT(FunctionObj) {
    tm_header h;
    Obj code;          /* CodeObj */
    Obj globals;       /* dict */
    Obj name, qualname;
    Obj defaults;      /* tuple or NULL */
    Obj kwdefaults;    /* dict or NULL */
    Obj closure;       /* tuple of cells or NULL */
    Obj dict;          /* function attributes, NULL until set */
    Obj doc;
    Obj module;        /* __module__ (str) */
    Obj builtins;      /* builtins dict at definition time */
    Obj annotations;   /* __annotations__ dict, NULL until made (MAKE_FUNCTION flag 4 or first read) */
};

/* ------------------------------------------------------------------ */
/* Type objects (pinned). Slots are C function pointers (non-reference */
/* words). For user classes, typeobject.c fills slots with wrappers    */
/* that call the dunder methods found in the MRO.                      */
/* ------------------------------------------------------------------ */
typedef Obj (*unaryfunc)(Obj);
typedef Obj (*binaryfunc)(Obj, Obj);
typedef Obj (*ternaryfunc)(Obj, Obj, Obj);
typedef int64_t (*lenfunc)(Obj);               /* -1: error */
typedef int64_t (*hashfunc)(Obj);              /* -1: error (a real hash of -1 becomes -2) */
typedef Obj (*richcmpfunc)(Obj, Obj, int op);  /* may return NotImplemented */
typedef Obj (*getattrofunc)(Obj, Obj name);
typedef int (*setattrofunc)(Obj, Obj name, Obj value);  /* value NULL: delete */
typedef Obj (*descrgetfunc)(Obj descr, Obj obj /* NULL: through the class */, Obj type);
typedef int (*descrsetfunc)(Obj descr, Obj obj, Obj value /* NULL: delete */);
typedef int (*objobjproc)(Obj, Obj);           /* contains: 1, 0, -1 */
typedef int (*objobjargproc)(Obj, Obj, Obj);   /* setitem (value NULL: delitem): 0, -1 */
typedef int (*inquiry)(Obj);                   /* bool: 1, 0, -1 */
typedef Obj (*vectorcallfunc)(Obj callable, Obj *args, size_t nargs, Obj kwnames);
typedef Obj (*newfunc)(Obj type, Obj *args, size_t nargs, Obj kwnames);
typedef int (*initfunc)(Obj self, Obj *args, size_t nargs, Obj kwnames);

/* Comparison ops (CPython order). */
enum { CMP_LT, CMP_LE, CMP_EQ, CMP_NE, CMP_GT, CMP_GE };

/* Binary number ops: index into TypeObj.nb (and the BINARY_OP arg). The
 * in-place forms are NB_INPLACE_BASE + op. */
enum {
    NB_ADD, NB_SUB, NB_MUL, NB_TRUEDIV, NB_FLOORDIV, NB_MOD, NB_POW,
    NB_LSHIFT, NB_RSHIFT, NB_AND, NB_OR, NB_XOR, NB_MATMUL, NB_DIVMOD,
    NB_COUNT,
    NB_INPLACE_BASE = 16
};
/* Unary ops (UNARY_OP arg). */
enum { UN_NEG, UN_POS, UN_INVERT, UN_NOT };

enum {
    TPF_BASETYPE = 1,      /* may be subclassed */
    TPF_HEAPTYPE = 2,      /* a class statement made it */
    TPF_HAS_DICT = 4,      /* instances have a __dict__ */
    TPF_ABSTRACT_NEW = 8,  /* cannot be instantiated */
    TPF_DOTTED_NAME = 16,  /* messages name it module.name, as CPython's C types ('_io.TextIOWrapper') */
    /* Pattern matching (CPython's Py_TPFLAGS_SEQUENCE / _MAPPING, same bit values, and
     * _Py_TPFLAGS_MATCH_SELF), inherited from the best base. A class statement whose body sets
     * __abc_tpflags__ (an int) takes its SEQUENCE / MAPPING bits and the name is removed: what
     * CPython's ABCMeta does for collections.abc.Sequence / Mapping (tmpy has no abc module). */
    TPF_SEQUENCE = 1 << 5,   /* sequence patterns match its instances */
    TPF_MAPPING = 1 << 6,    /* mapping patterns match its instances */
    TPF_MATCH_SELF = 1 << 7, /* `case int(x)`: one positional sub-pattern matches the subject itself */
    TPF_WEAKREFABLE = 1 << 8, /* a class whose instances can be weakly referenced (no __slots__, or __weakref__ in them) */
    TPF_HAS_DEL = 1 << 9,     /* a class with __del__ (made with it, or assigned one later, here or on a base):
                                 instances made since are registered for finalization */
    TPF_ITER_VALUE = 1 << 10, /* a built-in IterObj type whose subclasses' instances keep one of it in base_value (io.StringIO, io.BytesIO) */
};

VM_STRUCT(TypeObj) {
    tm_header h;
    Obj cls;            /* metatype: `type` */
    Obj dict;           /* DictObj of attributes */
    Obj name;           /* str */
    Obj qualname;       /* str */
    Obj module;         /* str or NULL */
    Obj bases;          /* tuple of types */
    Obj mro;            /* tuple of types, self first */
    Obj base;           /* first base (NULL for object) */
    Obj solid;          /* nearest built-in type in the MRO that decides the layout (object for plain classes) */
    Obj slot_names;     /* tuple of __slots__ names or NULL */
    Obj subclasses;     /* list of direct subclasses (for version bumps) or NULL */
    /* ---- not references ---- */
    uint64_t version;   /* globally unique; replaced by a fresh value (from one global counter) whenever an
                           attribute of this type or of any base is set or deleted: inline caches key on it */
    uint32_t flags;     /* TPF_* */
    uint16_t inst_tid;  /* GC layout of instances (our TID_* enum) */
    uint16_t nslots;    /* number of __slots__ slots in instances */
    unaryfunc tp_repr, tp_str;
    hashfunc tp_hash;
    richcmpfunc tp_richcompare;
    unaryfunc tp_iter, tp_iternext;   /* iternext: NULL result without error = exhausted */
    vectorcallfunc tp_call;
    getattrofunc tp_getattro;
    setattrofunc tp_setattro;
    descrgetfunc tp_descr_get;
    descrsetfunc tp_descr_set;
    lenfunc tp_len;
    binaryfunc tp_getitem;
    objobjargproc tp_setitem;
    objobjproc tp_contains;
    inquiry tp_bool;
    newfunc tp_new;
    initfunc tp_init;
    binaryfunc nb[NB_COUNT];          /* called with (a, b) in source order for both a's and b's type (as
                                         CPython): `3 * [1]` reaches list's NB_MUL with a == 3. May return
                                         NotImplemented; vm_binop handles reflection */
    binaryfunc nb_inplace[NB_COUNT];  /* NULL: fall back to nb */
    unaryfunc nb_neg, nb_pos, nb_invert, nb_int, nb_float, nb_index, nb_abs;
};
/* The version the inline caches key on. Types are read without barriers:
 * a transaction that changes one is globally unique (VM_WRITE_RARE). */
static inline uint64_t type_version(TypeObj *t) { return t->version; }

/* ------------------------------------------------------------------ */
/* The built-in types and singletons (never move; global roots).       */
/* ------------------------------------------------------------------ */
extern TypeObj *T_object, *T_type, *T_NoneType, *T_NotImplementedType, *T_ellipsis,
    *T_bool, *T_int, *T_float, *T_complex, *T_str, *T_bytes, *T_bytearray, *T_memoryview, *T_tuple, *T_list,
    *T_dict, *T_set, *T_frozenset, *T_range, *T_slice, *T_code, *T_function,
    *T_cell, *T_method, *T_builtin, *T_generator, *T_frame, *T_traceback,
    *T_module, *T_property, *T_staticmethod, *T_classmethod, *T_super, *T_file,
    *T_capsule;
/* Built-in iterator and view types (all TID_ITER; their cls field says which). */
extern TypeObj *T_list_iterator, *T_tuple_iterator, *T_str_iterator, *T_range_iterator,
    *T_dict_keys, *T_dict_values, *T_dict_items, *T_dict_keyiterator,
    *T_dict_valueiterator, *T_dict_itemiterator, *T_set_iterator, *T_seq_iterator,
    *T_callable_iterator, *T_enumerate, *T_zip, *T_map, *T_filter, *T_reversed,
    *T_list_reverseiterator, *T_bytes_iterator;

extern Obj g_None, g_True, g_False, g_NotImplemented, g_Ellipsis;
extern Obj g_empty_tuple, g_empty_str;

/* Type of any value (small ints included). */
extern TypeObj *vm_tid_type[TID_COUNT];   /* tid -> type for layouts without cls */
/* The type of a BuiltinObj unbound in a type: method_descriptor, classmethod_descriptor, or
 * builtin_function_or_method for a static method (methodobject.c). */
TypeObj *vm_builtin_descr_type(BuiltinObj *b);
static inline TypeObj *TYPE(Obj v)
{
    if (IS_SMALLINT(v))
        return T_int;
    unsigned tid = v->h.tid;
    if (tid >= TID_FIRST_WITH_CLS)
        return (TypeObj *)((InstanceObj *)v)->cls;   /* no barrier: see "Barrier rules" */
    if (tid == TID_ITER)
        return (TypeObj *)((IterObj *)v)->cls;   /* no barrier: set at creation */
    if (tid == TID_SET && ((SetObj *)v)->frozen)   /* no barrier: set at creation */
        return T_frozenset;
    if (tid == TID_MODULE && ((ModuleObj *)v)->cls)   /* modules are read without barriers */
        return (TypeObj *)((ModuleObj *)v)->cls;
    if (tid == TID_BUILTIN && !((BuiltinObj *)v)->self && ((BuiltinObj *)v)->owner &&   /* no barrier: */
        ((BuiltinObj *)v)->owner->h.tid == TID_TYPE)                                     /* set at creation */
        return vm_builtin_descr_type((BuiltinObj *)v);
    return vm_tid_type[tid];
}
#define TID(v) (IS_SMALLINT(v) ? 0u : (unsigned)(v)->h.tid)
#define IS_NONE(v) ((v) == g_None)
#define IS_INT_EXACT(v) (IS_SMALLINT(v) || TID(v) == TID_BIGINT)    /* int, not bool */
#define IS_FLOAT(v) (TID(v) == TID_FLOAT)
#define IS_COMPLEX(v) (TID(v) == TID_COMPLEX)
#define IS_STR(v) (TID(v) == TID_STR)
#define IS_BYTES(v) (TID(v) == TID_BYTES)
#define IS_TUPLE(v) (TID(v) == TID_TUPLE)
#define IS_LIST(v) (TID(v) == TID_LIST)
#define IS_DICT(v) (TID(v) == TID_DICT)
#define IS_SET_ANY(v) (TID(v) == TID_SET)        /* set or frozenset */
#define IS_TYPE(v) (TID(v) == TID_TYPE)
#define IS_FUNCTION(v) (TID(v) == TID_FUNCTION)
#define IS_CODE(v) (TID(v) == TID_CODE)
#define IS_EXCEPTION(v) (TID(v) == TID_EXCEPTION)
#define IS_INSTANCE(v) (TID(v) == TID_INSTANCE)
/* Instance of a user subclass of a built-in (class L(list)): the built-in value. */
static inline Obj vm_unwrap(Obj v)
{
    if (TID(v) == TID_INSTANCE && ((InstanceObj *)v)->base_value)   /* no barrier: set at creation */
        return ((InstanceObj *)v)->base_value;   /* no barrier: set at creation */
    return v;
}
/* isinstance(v, int) including bool and int subclasses (unwrapped first by callers). */
#define IS_INT(v) (IS_SMALLINT(v) || TID(v) == TID_BIGINT || TID(v) == TID_BOOL)
static inline Obj vm_bool(int b) { return b ? g_True : g_False; }

/* ------------------------------------------------------------------ */
/* Per-thread interpreter state (C memory; its Obj fields live in      */
/* shadow-stack slots so the GC sees them).                            */
/* ------------------------------------------------------------------ */
struct Frame;
typedef struct VMThread {
    Obj *roots;             /* slots at the base of this thread's shadow stack */
    int c_depth;            /* nested C recursion (vm_enter_recursive) */
    int py_depth;           /* Python frames on this thread */
    int atomic;             /* nesting of `with tm.atomic:` blocks */
    int locks_held;         /* _thread.lock objects this thread took and has not released (STM: a
                             * transaction runs on past its length to their release; txstate.c) */
    struct Frame *frame;    /* the innermost Python frame (eval.c) */
    void *eval_state;       /* eval.c private */
} VMThread;
enum { ROOT_CUR_EXC,        /* the exception being raised (NULL: none) */
       ROOT_HANDLED_EXC,    /* the exception being handled (sys.exc_info), NULL if none */
       ROOT_SCRATCH,
       ROOT_THREAD_LOCALS,  /* dict: _thread._local object -> this thread's attribute dict */
       ROOT_ASYNCGEN_FIRSTITER,  /* sys.set_asyncgen_hooks(firstiter=...), NULL: none */
       ROOT_ASYNCGEN_FINALIZER,  /* sys.set_asyncgen_hooks(finalizer=...), NULL: none */
       ROOT_TRACE_FUNC,     /* sys.settrace(...), NULL: none */
       ROOT_PROFILE_FUNC,   /* sys.setprofile(...), NULL: none */
       ROOT_CONTEXT,        /* the current contextvars.Context, NULL: none made yet */
       ROOT_DICT_APPENDS,   /* STM: the running transaction's pending dict inserts (dict.c), NULL: none */
       ROOT_LIST_APPENDS,   /* STM: the running transaction's pending list appends (listappends.c), NULL: none */
       ROOT_SET_OPS,        /* STM: the running transaction's blind set adds and discards (setlog.c), NULL: none */
       ROOT_COUNT = 12 };
extern __thread VMThread vm_ts;
extern int vm_recursion_limit;   /* sys.getrecursionlimit(), default 1000 */

/* Threads started and not yet finished, the main thread included (blocking.c;
 * _thread counts them, before a new thread exists). */
extern int vm_live_threads;

/* rt/threadstate.c: attach the calling OS thread and set up vm_ts (the eval
 * layer's vm_thread_init adds the frame stack). */
void vm_threadstate_init(void);
/* Recursion guard for C code (threadstate.c). */
int vm_enter_recursive(const char *where);   /* 0, or -1 with RecursionError set */
void vm_leave_recursive(void);
/* Shadow-stack slots kept free above the frames for C code's vm_roots. */
#define VM_SS_MARGIN (64 * 1024)
extern __thread uintptr_t vm_cstack_limit;  /* C stack must stay above this */
static inline bool vm_cstack_low(void)
{
    char here;
    return (uintptr_t)&here < vm_cstack_limit;
}

/* ------------------------------------------------------------------ */
/* Accessors of the layouts above. The functions of the objects live   */
/* in the objects layer's headers (objects/objects.h and the headers   */
/* it includes); each upper layer has its own (docs/ARCHITECTURE.md,   */
/* "Layers").                                                          */
/* ------------------------------------------------------------------ */
#define FLOAT_VAL(v) (((FloatObj *)(v))->value)
#define COMPLEX_REAL(v) (((ComplexObj *)(v))->real)
#define COMPLEX_IMAG(v) (((ComplexObj *)(v))->imag)

#define STR(v) ((StrObj *)(v))
static inline int64_t str_len(Obj s) { return STR(s)->length; }
static inline const char *str_cstr(Obj s) { return (const char *)VM_LINEAR(STR(s)->data); }

/* The largest object, in bytes, the heap could ever hold (its old space).
 * A size computed from user input beyond it is a MemoryError at once,
 * before anything is built. */
static inline uint64_t vm_max_object_size(void) { return tm_seg.segment_size - tm_seg.old_start; }

#define TUPLE(v) ((TupleObj *)(v))
#define TUPLE_LEN(v) (TUPLE(v)->length)
#define TUPLE_ITEMS(v) (TUPLE(v)->items)
#define ARRAY(v) ((ArrayObj *)vm_rd(v))
#define RAW(v) ((RawObj *)vm_rd(v))
#define DICT(v) ((DictObj *)vm_rd(v))
#define ITER(v) ((IterObj *)vm_rd(v))
#if TM_STM
/* The read barrier of a shape with a commit-time log (lists' appends,
 * objects/listappends.c; sets' blind adds and discards, objects/setlog.c):
 * a read first turns the running transaction's pending entries for that
 * object into plain stores (program order), behind a thread-local flag. */
static inline Obj vm_rd_logged(Obj o, const bool *logging, void (*flush)(Obj))
{
    uint8_t rv = tm_read_version();
    if (rv) {   /* 0: a solo transaction, which logs nothing (the test costs it nothing) */
#ifndef TMPY_BREAK_READ_BARRIER   /* tests only, as vm_rd */
        tm_read_at_rv((uintptr_t)o, rv);
#endif
        if (__builtin_expect(*logging, 0))
            flush(o);
    }
    return o;
}
extern __thread bool vm_list_logging;
void list_flush_own_slow(Obj l);
#define LIST(v) ((ListObj *)vm_rd_logged((v), &vm_list_logging, list_flush_own_slow))
extern __thread bool vm_set_logging;
void set_flush_own_slow(Obj s);
#define SETOBJ(v) ((SetObj *)vm_rd_logged((v), &vm_set_logging, set_flush_own_slow))
#else
#define LIST(v) ((ListObj *)vm_rd(v))
#define SETOBJ(v) ((SetObj *)vm_rd(v))
#endif
/* A set read by its log itself (setlog.c): the barrier, no flush. */
#define SETOBJ_NOFLUSH(v) ((SetObj *)vm_rd(v))
#define LIST_LEN(v) (LIST(v)->length)
#define LIST_ITEMS(v) (((ArrayObj *)vm_rd(LIST(v)->array))->items)

/* ------------------------------------------------------------------ */
/* Process-wide interpreter state every layer reads (rt/interpstate.c; */
/* the modules that own them fill them in at start-up)                 */
/* ------------------------------------------------------------------ */
extern Obj g_modules;                      /* sys.modules dict */
extern Obj g_builtins_module;
extern Obj g_builtins;                     /* the builtins module's dict */
extern Obj g_sys_module, g_sys_dict;       /* sys and its dict */
extern Obj g_sys_path;                     /* list of str */
/* sys.<name> as it is now (user code may rebind sys.stdout); NULL if unset (no error). */
Obj sys_get(const char *name);
/* Command-line flags (main.c sets them before start-up; sys.flags shows them). */
struct sys_cflags {
    int optimize, dont_write_bytecode, no_user_site, ignore_environment, verbose, quiet;
    int isolated, safe_path, unbuffered, no_site;
};
extern struct sys_cflags sys_cflags;

/* Blocking calls (blocking.c).
 * Every system call that may wait (read/write on pipes and terminals, open,
 * sleep, system, lock waits) runs between vm_blocking_begin() and
 * vm_blocking_end(): the GIL build releases the GIL there (when another
 * thread exists), the STM build will commit before and start a new
 * transaction after. Releasing runs a minor collection: every young object
 * may move, so callers keep their references in root slots and re-read
 * them after; in between, no GC object may be touched (C memory only). Both
 * keep errno. The read/write/open wrappers bracket the call
 * and retry on EINTR; use them rather than the bare calls. */
void vm_blocking_begin(void);
void vm_blocking_end(void);
/* STM: commit what the thread did so far and go on in a new inevitable
 * transaction (inside `with tm.atomic:` only become inevitable), so that the
 * committed state is this thread's own: a major collection then sees no
 * older version of what it wrote (memoryview's census of live views). May
 * collect, as vm_blocking_begin. Nothing under the GIL. */
void vm_commit_point(void);
/* A read interrupted by a signal runs the Python signal handlers (main
 * thread); if one raised, it returns -1 with errno EINTR and that exception
 * set (callers raise nothing of their own then), else it reads on. */
ssize_t vm_blocking_read(int fd, void *buf, size_t n);         /* -1 with errno */
ssize_t vm_blocking_write(int fd, const void *buf, size_t n);  /* may write less than n */
int vm_write_all(int fd, const char *p, size_t n);              /* 0, or -1 with errno (EINTR: a signal handler raised) */
int vm_blocking_open(const char *path, int flags, int mode);

/* STM: before an effect that cannot be undone (C memory shared between
 * threads, I/O), the running transaction becomes inevitable (nothing under
 * the GIL; the runtime's inevitable hook drops the undo log, txstate.c). May
 * abort while it waits: call it holding no C lock (C memory the caller holds
 * is freed: see txmalloc.c). */
static inline void vm_tx_become_inevitable(void) { tm_become_inevitable(); }
/* STM: malloc'd memory of a transaction that aborts is freed
 * (txmalloc.c). A block kept by C state that an abort does not undo (a
 * static cache, a per-thread table) comes from these instead. */
void *vm_malloc_kept(size_t n);
void *vm_realloc_kept(void *p, size_t n);
extern uint64_t vm_tx_blocks_freed;   /* statistics: blocks aborts freed */
/* C blocks of a transaction that may abort (txmalloc.c): record them from
 * its start, forget them at commit or when it turns inevitable, free them
 * when it aborts. */
void vm_txmalloc_track(void);
void vm_txmalloc_forget(void);
void vm_txmalloc_free_all(void);

/* ------------------------------------------------------------------ */
/* Hooks: what the layers below need of the layers above. Start-up     */
/* installs them (vm_install_hooks, startup.c) before anything runs; a  */
/* lower layer calls the inline functions below and never names an     */
/* upper layer's function (docs/ARCHITECTURE.md, "Layers";             */
/* tests/check_layers.py).                                             */
/* ------------------------------------------------------------------ */
typedef struct VMHooks {
    /* eval layer */
    Obj (*current_globals)(void);                        /* eval.c */
    int (*current_super_args)(Obj *type_out, Obj *obj_out);
    Obj (*run_class_body)(Obj func, Obj ns);
    Obj (*import_cstr)(const char *name);                /* import.c */
    void (*tx_commit)(void);                             /* rt/txstate.c */
    /* modules layer */
    int (*signals_check)(void);                          /* modules/signalmodule.c */
    int (*warn)(TypeObj *category, Obj message, Obj source);   /* modules/warningsmodule.c */
    /* modules/arraymodule.c (set when array is imported): the bytearray an array.array keeps
     * its items in, its struct letter and item size; NULL if v is no array (buffer protocol) */
    Obj (*buffer_export)(Obj v, int *code, int64_t *itemsize);
    /* modules/mmapmodule.c (set when mmap is imported), the buffer protocol of mapped memory:
     * mapped_buffer is false if v (unwrapped) is no mmap.mmap, else true with its bytes (linear,
     * NULL once closed), their length and whether they may be written; mapped_export adds delta
     * to its count of exports (memoryviews), which close() and resize() refuse while positive */
    bool (*mapped_buffer)(Obj v, unsigned char **data, int64_t *len, bool *writable);
    void (*mapped_export)(Obj v, int64_t delta);
} VMHooks;
extern VMHooks vm_hooks;   /* rt/interpstate.c */

/* The innermost Python frame's globals dict, and its (self, __class__) for
 * a zero-argument super(): 0, or -1 with RuntimeError. */
static inline Obj vm_current_globals(void) { return vm_hooks.current_globals(); }
static inline int vm_current_super_args(Obj *type_out, Obj *obj_out) { return vm_hooks.current_super_args(type_out, obj_out); }
/* Run a class body function with `ns` as its locals (__build_class__): the
 * body's result (None) or NULL. A body that needs the __class__ cell
 * (zero-arg super) stores the cell in ns['__classcell__']; vm_build_class
 * removes it and sets the cell to the new class. */
static inline Obj vm_run_class_body(Obj func, Obj ns) { return vm_hooks.run_class_body(func, ns); }
/* Import a module by dotted name (its parents first); returns it. */
static inline Obj vm_import_cstr(const char *name) { return vm_hooks.import_cstr(name); }
/* Signals (modules/signalmodule.c): in the main thread, with a signal
 * caught (tm_interrupt_pending), run the Python handlers; -1 with the
 * exception a handler raised. Called at the eval loop's back-edges and
 * returns and after every wait an interrupt ended (runtime/park.h). */
static inline int vm_signals_check(void) { return vm_hooks.signals_check(); }

/* warningsmodule.c: a warning from C (CPython's PyErr_WarnEx, stacklevel 1):
 * warnings.warn if that module is imported, else CPython's default filters
 * and format on stderr. message: a str; source: the object it is about
 * (the tracemalloc hint) or NULL. 0, or -1 with an exception (a filter
 * made it an error). */
static inline int vm_warn(TypeObj *category, Obj message, Obj source) { return vm_hooks.warn(category, message, source); }

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#endif

