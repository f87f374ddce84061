/* The start-up table, in one file: the hooks the upper layers lend the
 * lower ones, the GC's view of every built-in shape (one runtime type id per
 * TID_*, registered in enum order), the start-up order of the types, then
 * the built-in modules. main.c runs them in that order. */
#include "startup.h"
#include "modules/sre/sre.h"

#include <stdlib.h>
#include <string.h>

void vm_install_hooks(void)
{
    vm_hooks = (VMHooks){
        .current_globals = eval_current_globals,
        .current_super_args = eval_current_super_args,
        .run_class_body = eval_run_class_body,
        .import_cstr = import_cstr,
        .tx_commit = vm_tx_commit,
        .signals_check = signals_check,
        .warn = warnings_warn,
    };
}

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

/* The shapes read through cast macros with the read barrier (tmpy.h: LIST,
 * DICT, INST, EXC, GEN, FO, ...). Every other shape is read without barriers
 * and written after its creation only through VM_WRITE_RARE. */
static bool read_with_barrier(unsigned tid)
{
    switch (tid) {
    case TID_BYTEARRAY: case TID_LIST: case TID_ARRAY: case TID_RAW: case TID_DICT: case TID_SET:
    case TID_CELL: case TID_GENERATOR: case TID_COROUTINE: case TID_ASYNC_GENERATOR: case TID_ITER: case TID_FILE: case TID_DEQUE:
    case TID_MEMORYVIEW: case TID_FRAME: case TID_COUNTER: case TID_WEAKREF: case TID_WEAKPROXY: case TID_WEAKCALLABLEPROXY:
    case TID_SRE_SCANNER:
    case TID_INSTANCE: case TID_EXCEPTION:
        return true;
    default:
        return false;
    }
}

static void reg(unsigned expected, tm_type t)
{
    t.read_without_barrier = !read_with_barrier(expected);
    uint16_t id = tm_register_type(&t);
    if (id != expected) {
        fprintf(stderr, "tmpy: layout %s registered as %u, expected %u\n", t.name, id, expected);
        abort();
    }
}

static void vm_register_layouts(void)
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
    reg(TID_COMPLEX, layout_fixed("complex", sizeof(struct ComplexObj_), 0));
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
                                 REF(CodeObj, lines) | REF(CodeObj, positions) | REF(CodeObj, cache),
                             false));
    reg(TID_FUNCTION, layout_fixed("function", sizeof(struct FunctionObj_),
                                   REF(FunctionObj, code) | REF(FunctionObj, globals) | REF(FunctionObj, name) |
                                       REF(FunctionObj, qualname) | REF(FunctionObj, defaults) |
                                       REF(FunctionObj, kwdefaults) | REF(FunctionObj, closure) |
                                       REF(FunctionObj, dict) | REF(FunctionObj, doc) |
                                       REF(FunctionObj, module) | REF(FunctionObj, builtins) |
                                       REF(FunctionObj, annotations)));
    reg(TID_CELL, layout_fixed("cell", sizeof(struct CellObj_), REF(CellObj, ref)));
    reg(TID_METHOD, layout_fixed("method", sizeof(struct MethodObj_), REF(MethodObj, func) | REF(MethodObj, self)));
    reg(TID_BUILTIN, layout_fixed("builtin", sizeof(struct BuiltinObj_),
                                  REF(BuiltinObj, self) | REF(BuiltinObj, name) | REF(BuiltinObj, owner)));
    reg(TID_GENERATOR, gen);
    gen.name = "coroutine";
    reg(TID_COROUTINE, gen);
    gen.name = "async_generator";
    reg(TID_ASYNC_GENERATOR, gen);
    reg(TID_FRAME, frame);
    reg(TID_TRACEBACK, layout_fixed("traceback", sizeof(struct TracebackObj_),
                                    REF(TracebackObj, next) | REF(TracebackObj, code) | REF(TracebackObj, globals) |
                                        REF(TracebackObj, frame)));
    reg(TID_MODULE, layout_fixed("module", sizeof(struct ModuleObj_), REF(ModuleObj, dict) | REF(ModuleObj, name) | REF(ModuleObj, cls)));
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
                               REF(FileObj, name) | REF(FileObj, mode) | REF(FileObj, rbuf) | REF(FileObj, encoding) |
                               REF(FileObj, state) | REF(FileObj, lower)));
    reg(TID_CAPSULE, layout_fixed("capsule", sizeof(struct CapsuleObj_),
                                  REF(CapsuleObj, refs[0]) | REF(CapsuleObj, refs[1]) | REF(CapsuleObj, refs[2]) |
                                      REF(CapsuleObj, refs[3])));
    reg(TID_DEQUE, layout_fixed("deque", sizeof(struct DequeObj_), REF(DequeObj, buf)));
    tm_type mv = layout_fixed("memoryview", sizeof(struct MemoryViewObj_),
                              REF(MemoryViewObj, obj) | REF(MemoryViewObj, base) | REF(MemoryViewObj, format) |
                                  REF(MemoryViewObj, shape) | REF(MemoryViewObj, strides));
    mv.trace = memview_gc_trace;
    reg(TID_MEMORYVIEW, mv);
    reg(TID_COUNTER, layout_fixed("count", sizeof(struct CountObj_), REF(CountObj, value) | REF(CountObj, step)));
    static const char *const weak_names[] = {"weakref", "weakproxy", "weakcallableproxy"};
    for (unsigned k = 0; k < 3; k++) {
        tm_type w = layout_fixed(weak_names[k], sizeof(struct WeakrefObj_),
                                 REF(WeakrefObj, callback) | REF(WeakrefObj, wrapper));
        w.weak_offset = offsetof(struct WeakrefObj_, referent);
        w.weak_notify = true;   /* callbacks, and clearing the wrapper's view */
        reg(TID_WEAKREF + k, w);
    }
    reg(TID_SRE_PATTERN, layout_fixed("re.Pattern", sizeof(struct SrePatternObj_),
                                      REF(SrePatternObj, pattern) | REF(SrePatternObj, code) |
                                          REF(SrePatternObj, groupindex) | REF(SrePatternObj, indexgroup)));
    reg(TID_SRE_MATCH, layout_fixed("re.Match", sizeof(struct SreMatchObj_),
                                    REF(SreMatchObj, string) | REF(SreMatchObj, pattern) | REF(SreMatchObj, regs) |
                                        REF(SreMatchObj, chars)));
    reg(TID_SRE_SCANNER, layout_fixed("_sre.SRE_Scanner", sizeof(struct SreScannerObj_),
                                      REF(SreScannerObj, pattern) | REF(SreScannerObj, string) |
                                          REF(SreScannerObj, chars)));
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
/* Start-up                                                           */
/* ------------------------------------------------------------------ */
void vm_init_types(void)
{
    vm_register_layouts();
    singletons_init();
    names_init();
    object_init_types();
    exceptions_init();
    int_init_type();
    float_init_type();
    complex_init_type();
    str_init_type();
    bytes_init_type();
    tuple_init_type();
    list_init_type();
    dict_init_type();
    set_init_type();
    range_init_type();
    func_init_types();
    iter_init_types();
    file_init_type();
    memoryio_init_types();
    deque_init_type();
    memview_init_type();
    itertools_init_types();
    weakref_init_types();
    sre_init_types();
}

/* ------------------------------------------------------------------ */
/* The built-in C modules (as Lua's linit.c): imported on first use     */
/* (import.c calls the init function then), in this table's order when */
/* several are; then the state some keep from the start.               */
/* ------------------------------------------------------------------ */
/* builtins exists from the start (builtins_init): importing it finds it. */
static Obj builtins_module_init(void) { return g_builtins_module; }

static const struct {
    const char *name;
    module_init_fn init;
} builtin_modules[] = {
    {"sys", sys_module_init},
    {"builtins", builtins_module_init},
    {"time", time_module_init},
    {"math", math_module_init},
    {"cmath", cmath_module_init},
    {"posix", posix_module_init},
    {"_posixsubprocess", posixsubprocess_module_init},
    {"_multiprocessing", multiprocessing_module_init},
    {"_posixshmem", posixshmem_module_init},
    {"resource", resource_module_init},
    {"_uuid", uuid_module_init},
    {"termios", termios_module_init},
    {"_queue", queue_module_init},
    {"_locale", locale_module_init},
    {"faulthandler", faulthandler_module_init},
    {"_opcode", opcode_module_init},
    {"select", select_module_init},
    {"fcntl", fcntl_module_init},
    {"pwd", pwd_module_init},
    {"grp", grp_module_init},
    {"_random", random_module_init},
    {"atexit", atexit_module_init},
    {"_warnings", warnings_module_init},
    {"_contextvars", contextvars_module_init},
    {"_struct", struct_module_init},
    {"_codecs", codecs_module_init},
    {"_multibytecodec", multibytecodec_module_init},
    {"_codecs_jp", cjk_jp_module_init},
    {"_codecs_kr", cjk_kr_module_init},
    {"_codecs_cn", cjk_cn_module_init},
    {"_codecs_tw", cjk_tw_module_init},
    {"_codecs_hk", cjk_hk_module_init},
    {"_codecs_iso2022", cjk_iso2022_module_init},
    {"errno", errno_module_init},
    {"_stat", stat_module_init},
    {"_collections", collections_module_init},
    {"_sre", sre_module_init},
    {"_ast", ast_module_init},
    {"_string", string_module_init},
    {"itertools", itertools_module_init},
    {"_heapq", heapq_module_init},
    {"_bisect", bisect_module_init},
    {"_operator", operator_module_init},
    {"_json", json_module_init},
    {"_pickle", pickle_module_init},
    {"_functools", functools_module_init},
    {"_datetime", datetime_module_init},
    {"_csv", csv_module_init},
    {"_weakref", weakref_module_init},
    {"_abc", abc_module_init},
    {"gc", gc_module_init},
    {"_thread", thread_module_init},
    {"tm", tm_module_init},
    {"_imp", imp_module_init},
    {"_io", io_module_init},
    {"_socket", socket_module_init},
    {"signal", signal_module_init},
    {"_signal", signal_module_init},
    {"binascii", binascii_module_init},
    {"zlib", zlib_module_init},
    {"_hashlib", hashlib_module_init},
    {"_ssl", ssl_module_init},
    {"_blake2", blake2_module_init},
    {"_md5", md5_module_init},
    {"_sha1", sha1_module_init},
    {"_sha256", sha256_module_init},
    {"_sha512", sha512_module_init},
    {"_sha3", sha3_module_init},
    {"marshal", marshal_module_init},
    {"array", array_module_init},
    {"mmap", mmap_module_init},
    {"unicodedata", unicodedata_module_init},
    {"pyexpat", pyexpat_module_init},
};

void vm_init_modules(void)
{
    for (size_t i = 0; i < ARRAY_LEN(builtin_modules); i++)
        vm_register_builtin_module(builtin_modules[i].name, builtin_modules[i].init);
    eval_note_builtin_import();
    atexit_init();
    warnings_init();
    contextvars_init();
    struct_init();
    codecs_init();
    gc_init();
    string_init();
}
