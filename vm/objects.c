/* Object layouts (the GC's view of every built-in shape), the singletons,
 * the interned-name table and the start-up sequence of the types. */
#include "objects.h"
#include "modules.h"

#include <stdlib.h>
#include <string.h>

#if __has_include("eval.h")
#include "eval.h"
#else
void eval_fill_layouts(tm_type *gen, tm_type *frame);
#endif

TypeObj *vm_tid_type[TID_COUNT];
Obj g_None, g_True, g_False, g_NotImplemented, g_Ellipsis;
Obj g_empty_tuple, g_empty_str;
Obj vm_names[VMN_COUNT_];

const char *const vm_nb_names[NB_COUNT][3] = {
    {"__add__", "__radd__", "__iadd__"},
    {"__sub__", "__rsub__", "__isub__"},
    {"__mul__", "__rmul__", "__imul__"},
    {"__truediv__", "__rtruediv__", "__itruediv__"},
    {"__floordiv__", "__rfloordiv__", "__ifloordiv__"},
    {"__mod__", "__rmod__", "__imod__"},
    {"__pow__", "__rpow__", "__ipow__"},
    {"__lshift__", "__rlshift__", "__ilshift__"},
    {"__rshift__", "__rrshift__", "__irshift__"},
    {"__and__", "__rand__", "__iand__"},
    {"__or__", "__ror__", "__ior__"},
    {"__xor__", "__rxor__", "__ixor__"},
    {"__matmul__", "__rmatmul__", "__imatmul__"},
    {"__divmod__", "__rdivmod__", "__idivmod__"},
};
const char *const vm_nb_symbols[NB_COUNT] = {
    "+", "-", "*", "/", "//", "%", "** or pow()", "<<", ">>", "&", "|", "^", "@", "divmod()",
};
const char *const vm_cmp_names[6] = {"__lt__", "__le__", "__eq__", "__ne__", "__gt__", "__ge__"};
const char *const vm_cmp_symbols[6] = {"<", "<=", "==", "!=", ">", ">="};

/* ------------------------------------------------------------------ */
/* Layouts                                                            */
/* ------------------------------------------------------------------ */
#define WORD(S, f) (offsetof(struct S##_, f) / 8)
#define REF(S, f) (1ULL << WORD(S, f))

static tm_type layout_fixed(const char *name, uint32_t size, uint64_t refs)
{
    tm_type t = {0};
    t.name = name;
    t.base_size = size;
    t.ref_words = refs;
    return t;
}

static tm_type layout_var(const char *name, uint32_t base, uint32_t item, uint32_t lenoff,
                          uint64_t refs, bool items_are_refs)
{
    tm_type t = layout_fixed(name, base, refs);
    t.item_size = item;
    t.length_offset = lenoff;
    t.items_are_refs = items_are_refs;
    return t;
}

static void reg(unsigned expected, tm_type t)
{
    uint16_t id = tm_register_type(&t);
    if (id != expected) {
        fprintf(stderr, "tmpy: layout %s registered as %u, expected %u\n", t.name, id, expected);
        abort();
    }
}

void vm_register_layouts(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    tm_type gen = {0}, frame = {0};
    eval_fill_layouts(&gen, &frame);
    if (!gen.name)
        gen.name = "generator";
    if (!frame.name)
        frame.name = "frame";

    reg(TID_NONETYPE, layout_fixed("singleton", sizeof(struct SingletonObj_), 0));
    reg(TID_BOOL, layout_fixed("bool", sizeof(struct BoolObj_), 0));
    reg(TID_BIGINT, layout_var("bigint", offsetof(struct BigIntObj_, limbs), 8,
                               offsetof(struct BigIntObj_, nlimbs), 0, false));
    reg(TID_FLOAT, layout_fixed("float", sizeof(struct FloatObj_), 0));
    reg(TID_STR, layout_var("str", offsetof(struct StrObj_, data) + 1, 1,
                            offsetof(struct StrObj_, nbytes), 0, false));
    reg(TID_BYTES, layout_var("bytes", offsetof(struct BytesObj_, data) + 1, 1,
                              offsetof(struct BytesObj_, length), 0, false));
    reg(TID_BYTEARRAY, layout_fixed("bytearray", sizeof(struct ByteArrayObj_), REF(ByteArrayObj, raw)));
    reg(TID_TUPLE, layout_var("tuple", offsetof(struct TupleObj_, items), 8,
                              offsetof(struct TupleObj_, length), 0, true));
    reg(TID_LIST, layout_fixed("list", sizeof(struct ListObj_), REF(ListObj, array)));
    reg(TID_ARRAY, layout_var("array", offsetof(struct ArrayObj_, items), 8,
                              offsetof(struct ArrayObj_, length), 0, true));
    reg(TID_RAW, layout_var("raw", offsetof(struct RawObj_, data), 1,
                            offsetof(struct RawObj_, length), 0, false));
    reg(TID_DICT, layout_fixed("dict", sizeof(struct DictObj_), REF(DictObj, entries) | REF(DictObj, index)));
    reg(TID_SET, layout_fixed("set", sizeof(struct SetObj_), REF(SetObj, table)));
    reg(TID_RANGE, layout_fixed("range", sizeof(struct RangeObj_),
                                REF(RangeObj, start) | REF(RangeObj, stop) | REF(RangeObj, step)));
    reg(TID_SLICE, layout_fixed("slice", sizeof(struct SliceObj_),
                                REF(SliceObj, start) | REF(SliceObj, stop) | REF(SliceObj, step)));
    reg(TID_CODE, layout_var("code", offsetof(struct CodeObj_, code), 4, offsetof(struct CodeObj_, ninstr),
                             REF(CodeObj, consts) | REF(CodeObj, names) | REF(CodeObj, localsplus) |
                                 REF(CodeObj, name) | REF(CodeObj, qualname) | REF(CodeObj, filename) |
                                 REF(CodeObj, lines) | REF(CodeObj, exc_unused) | REF(CodeObj, cache),
                             false));
    reg(TID_FUNCTION, layout_fixed("function", sizeof(struct FunctionObj_),
                                   REF(FunctionObj, code) | REF(FunctionObj, globals) | REF(FunctionObj, name) |
                                       REF(FunctionObj, qualname) | REF(FunctionObj, defaults) |
                                       REF(FunctionObj, kwdefaults) | REF(FunctionObj, closure) |
                                       REF(FunctionObj, dict) | REF(FunctionObj, doc) |
                                       REF(FunctionObj, module) | REF(FunctionObj, builtins)));
    reg(TID_CELL, layout_fixed("cell", sizeof(struct CellObj_), REF(CellObj, ref)));
    reg(TID_METHOD, layout_fixed("method", sizeof(struct MethodObj_), REF(MethodObj, func) | REF(MethodObj, self)));
    reg(TID_BUILTIN, layout_fixed("builtin", sizeof(struct BuiltinObj_),
                                  REF(BuiltinObj, self) | REF(BuiltinObj, name) | REF(BuiltinObj, owner)));
    reg(TID_GENERATOR, gen);
    reg(TID_FRAME, frame);
    reg(TID_TRACEBACK, layout_fixed("traceback", sizeof(struct TracebackObj_),
                                    REF(TracebackObj, next) | REF(TracebackObj, code)));
    reg(TID_MODULE, layout_fixed("module", sizeof(struct ModuleObj_), REF(ModuleObj, dict) | REF(ModuleObj, name)));
    reg(TID_PROPERTY, layout_fixed("property", sizeof(struct PropertyHObj_),
                                   REF(PropertyHObj, fget) | REF(PropertyHObj, fset) | REF(PropertyHObj, fdel) |
                                       REF(PropertyHObj, doc) | REF(PropertyHObj, name)));
    reg(TID_STATICMETHOD, layout_fixed("staticmethod", sizeof(struct StaticMethodObj_), REF(StaticMethodObj, func)));
    reg(TID_CLASSMETHOD, layout_fixed("classmethod", sizeof(struct StaticMethodObj_), REF(StaticMethodObj, func)));
    reg(TID_SUPER, layout_fixed("super", sizeof(struct SuperObj_),
                                REF(SuperObj, type) | REF(SuperObj, obj) | REF(SuperObj, obj_type)));
    reg(TID_ITER, layout_fixed("iter", sizeof(struct IterObj_),
                               REF(IterObj, cls) | REF(IterObj, a) | REF(IterObj, b) | REF(IterObj, c)));
    reg(TID_FILE, layout_fixed("file", sizeof(struct FileObj_),
                               REF(FileObj, name) | REF(FileObj, mode) | REF(FileObj, rbuf) | REF(FileObj, encoding)));
    reg(TID_CAPSULE, layout_fixed("capsule", sizeof(struct CapsuleObj_),
                                  REF(CapsuleObj, refs[0]) | REF(CapsuleObj, refs[1]) | REF(CapsuleObj, refs[2]) |
                                      REF(CapsuleObj, refs[3])));
    reg(TID_TYPE, layout_fixed("type", sizeof(struct TypeObj_),
                               REF(TypeObj, cls) | REF(TypeObj, dict) | REF(TypeObj, name) | REF(TypeObj, qualname) |
                                   REF(TypeObj, module) | REF(TypeObj, bases) | REF(TypeObj, mro) |
                                   REF(TypeObj, base) | REF(TypeObj, solid) | REF(TypeObj, slot_names) |
                                   REF(TypeObj, subclasses)));
    reg(TID_INSTANCE, layout_fixed("instance", sizeof(struct InstanceHObj_),
                                   REF(InstanceHObj, cls) | REF(InstanceHObj, dict) | REF(InstanceHObj, base_value) |
                                       REF(InstanceHObj, slots)));
    reg(TID_EXCEPTION, layout_fixed("exception", sizeof(struct ExceptionHObj_),
                                    REF(ExceptionHObj, cls) | REF(ExceptionHObj, dict) | REF(ExceptionHObj, args) |
                                        REF(ExceptionHObj, traceback) | REF(ExceptionHObj, cause) |
                                        REF(ExceptionHObj, context) | REF(ExceptionHObj, extra)));
}

/* ------------------------------------------------------------------ */
/* Singletons                                                         */
/* ------------------------------------------------------------------ */
static Obj make_singleton(const char *cname)
{
    Obj o = (Obj)tm_allocate_old(TID_NONETYPE, sizeof(struct SingletonObj_));
    if (!o) {
        fprintf(stderr, "tmpy: out of memory at start-up\n");
        exit(1);
    }
    ((SingletonObj *)o)->cname = cname;
    return o;
}

static Obj make_bool(int64_t v)
{
    Obj o = (Obj)tm_allocate_old(TID_BOOL, sizeof(struct BoolObj_));
    if (!o) {
        fprintf(stderr, "tmpy: out of memory at start-up\n");
        exit(1);
    }
    ((BoolObj *)o)->value = v;
    return o;
}

static void init_singletons(void)
{
    g_None = make_singleton("None");
    /* NotImplemented and Ellipsis need types of their own: they are IterObj
     * (cls set by object_init_types), so TYPE() reads their cls. */
    g_NotImplemented = (Obj)tm_allocate_old(TID_ITER, sizeof(struct IterObj_));
    g_Ellipsis = (Obj)tm_allocate_old(TID_ITER, sizeof(struct IterObj_));
    if (!g_NotImplemented || !g_Ellipsis) {
        fprintf(stderr, "tmpy: out of memory at start-up\n");
        exit(1);
    }
    g_True = make_bool(1);
    g_False = make_bool(0);
    g_empty_tuple = (Obj)tm_allocate_old(TID_TUPLE, offsetof(struct TupleObj_, items));
    g_empty_str = (Obj)tm_allocate_old(TID_STR, offsetof(struct StrObj_, data) + 1);
    if (!g_empty_tuple || !g_empty_str) {
        fprintf(stderr, "tmpy: out of memory at start-up\n");
        exit(1);
    }
    STR(g_empty_str)->hash = -1;   /* tuple hash 0 = not cached, str -1 = not computed */
    VM_GLOBAL_ROOT(g_None);
    VM_GLOBAL_ROOT(g_NotImplemented);
    VM_GLOBAL_ROOT(g_Ellipsis);
    VM_GLOBAL_ROOT(g_True);
    VM_GLOBAL_ROOT(g_False);
    VM_GLOBAL_ROOT(g_empty_tuple);
    VM_GLOBAL_ROOT(g_empty_str);
}

/* ------------------------------------------------------------------ */
/* Interned names                                                     */
/* ------------------------------------------------------------------ */
static void init_names(void)
{
    static const char *const texts[VMN_COUNT_] = {
#define VMN_TEXT(n) #n,
        VM_NAME_LIST(VMN_TEXT)
#undef VMN_TEXT
    };
    for (int i = 0; i < VMN_COUNT_; i++) {
        vm_names[i] = str_intern_cstr(texts[i]);
        if (!vm_names[i]) {
            fprintf(stderr, "tmpy: out of memory at start-up\n");
            exit(1);
        }
        VM_GLOBAL_ROOT(vm_names[i]);
    }
}

/* A small direct-mapped cache: C string -> interned str. The key is the
 * pointer (callers pass literals) but the content is checked, so a reused
 * buffer never gives a wrong name. Interned strs are pinned: raw Obj is safe. */
#define ICACHE_SIZE 512
static struct { const char *key; Obj s; } icache[ICACHE_SIZE];

Obj vm_intern_cached(const char *s)
{
    unsigned h = (unsigned)(((uintptr_t)s >> 3) * 2654435761u) % ICACHE_SIZE;
    if (icache[h].key == s && icache[h].s && strcmp(str_cstr(icache[h].s), s) == 0)
        return icache[h].s;
    Obj r = str_intern_cstr(s);
    if (r) {
        icache[h].key = s;
        icache[h].s = r;
    }
    return r;
}

/* ------------------------------------------------------------------ */
/* Identity hashes                                                    */
/* ------------------------------------------------------------------ */
static uint64_t idhash_counter;

static int64_t next_idhash(void)
{
    uint64_t n = __atomic_add_fetch(&idhash_counter, 1, __ATOMIC_RELAXED);
    return (int64_t)(n & ((1ULL << 60) - 1));
}

/* Instances and exceptions (the objects most hashed by identity: dict and
 * set keys) draw a counter value into a hidden word on first use, so
 * hashing a young one does not cost a minor collection as vm_object_id does;
 * id() and default reprs still use the address (vm_object_id). */
int64_t vm_identity_hash(Obj v)
{
    if (IS_SMALLINT(v))
        return SMALLINT_VAL(v) == -1 ? -2 : SMALLINT_VAL(v);
    unsigned tid = v->h.tid;
    if (tid == TID_INSTANCE || tid == TID_EXCEPTION) {
        int64_t __seg_gs *word = tid == TID_INSTANCE ? &((InstanceHObj *)v)->idhash
                                                     : &((ExceptionHObj *)v)->idhash;
        if (!*word) {
            VM_WRITE(v);
            *word = next_idhash();
        }
        return *word;
    }
    /* Everything else: its address once it stops moving. */
    uint64_t a = vm_object_id(v);
    int64_t h = (int64_t)((a >> 4) | (a << 60)) & INT64_MAX;
    return h == -1 ? -2 : h;
}

/* ------------------------------------------------------------------ */
/* Start-up                                                           */
/* ------------------------------------------------------------------ */
void vm_init_types(void)
{
    vm_register_layouts();
    init_singletons();
    init_names();
    object_init_types();
    exceptions_init();
    int_init_type();
    float_init_type();
    str_init_type();
    bytes_init_type();
    tuple_init_type();
    list_init_type();
    dict_init_type();
    set_init_type();
    range_init_type();
    func_init_types();
    descr_fallback_types();
    iter_init_types();
    file_init_type();
}
