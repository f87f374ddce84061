/* The objects layer's header: the object model's API, open to every layer
 * above (docs/ARCHITECTURE.md, "Layers"). It includes the area headers
 * (errors, the abstract API and calls, numbers, strings, containers, dict
 * and set) and declares what the files of objects/ share beyond them
 * (types, descriptors, identity, names, files, weak references, exceptions).
 *
 * Conventions the objects area relies on (other areas, please follow):
 *
 * - Binary number slots follow CPython: vm_binop(a, b, op) calls
 *   TYPE(a)->nb[op](a, b) and, if that gives NotImplemented (or a's type has
 *   no slot), TYPE(b)->nb[op](a, b) -- with the operands IN THE SAME ORDER.
 *   So a slot must check which operand is of its type: float's nb[NB_ADD]
 *   receives (1, 2.5) for `1 + 2.5`; list's nb[NB_MUL] receives (3, [1])
 *   for `3 * [1]`. Return NotImplemented for operand types you do not handle.
 *   A subclass on the right is tried first (CPython's rule).
 * - tp_richcompare(self, other, op): self is of the slot's type; the
 *   reflected call is TYPE(b)->tp_richcompare(b, a, swapped op).
 * - Instances of user subclasses of built-in types (class L(list)) are
 *   TID_INSTANCE with base_value. Their inherited slots are adapters that
 *   pass vm_unwrap()ed operands to the built-in slot, so slots of built-in
 *   types see their own layout; METHODS (type_add_methods) still receive the
 *   instance as args[0] and must call vm_unwrap(args[0]).
 * - Allocate instances only with instance_new(cls): TID_INSTANCE objects
 *   carry a hidden identity-hash word after base_value (InstanceHObj).
 * - BuiltinObj call rule (builtin_call): if both b->self and b->owner are
 *   set (a bound method), self is prepended to the arguments; otherwise
 *   (module function, unbound method descriptor, METH_STATIC) the arguments
 *   are passed as they are. An unbound method descriptor checks that args[0]
 *   is an instance of owner ("descriptor 'append' for 'list' objects doesn't
 *   apply to a 'int' object") before calling: please do the same check if
 *   eval calls BuiltinObj functions directly.
 * - A method table declares each entry's positional count (METH_NOARGS,
 *   METH_O, METH_ARGS(min, max); self not counted) and builtin_call checks
 *   it, and refuses keywords without METH_KW, with CPython's message for the
 *   kind: the function then reads args[1..] without checking. Check by hand
 *   only what a declaration cannot say (an order CPython keeps, a message of
 *   its own).
 */
#ifndef TMPY_OBJECTS_H
#define TMPY_OBJECTS_H

#include "tmpy.h"
#include "errors.h"
#include "abstract.h"
#include "numbers.h"
#include "strobj.h"
#include "containers.h"
#include "dictset.h"

/* ---- Real layouts behind some public structs (registered sizes) ---- */
/* TID_INSTANCE: InstanceObj plus an identity-hash word (0: not assigned)
 * and the __slots__ values (ArrayObj of TYPE->nslots, NULL until set). */
VM_STRUCT(InstanceHObj) { tm_header h; Obj cls; Obj dict; Obj base_value; int64_t idhash; Obj slots; };
/* TID_EXCEPTION: ExceptionObj plus its identity hash (fits its padding). */
VM_STRUCT(ExceptionHObj) {
    tm_header h; Obj cls; Obj dict; Obj args; Obj traceback; Obj cause, context;
    int64_t suppress_context; Obj extra; int64_t idhash;
};
#define INSTH(v) ((InstanceHObj *)vm_rd(v))
#define EXCH(v) ((ExceptionHObj *)vm_rd(v))
/* TID_PROPERTY: PropertyObj plus the attribute name (from __set_name__). */
VM_STRUCT(PropertyHObj) { tm_header h; Obj fget; Obj fset; Obj fdel; Obj doc; Obj name; };

/* ---- Interned names (pinned strs, created at start-up) ---- */
#define VM_NAME_LIST(X) \
    X(__init__) X(__new__) X(__repr__) X(__str__) X(__hash__) X(__eq__) X(__ne__) X(__lt__) \
    X(__le__) X(__gt__) X(__ge__) X(__iter__) X(__next__) X(__call__) X(__getattribute__) \
    X(__getattr__) X(__setattr__) X(__delattr__) X(__get__) X(__set__) X(__delete__) X(__len__) \
    X(__getitem__) X(__setitem__) X(__delitem__) X(__contains__) X(__bool__) X(__neg__) \
    X(__pos__) X(__invert__) X(__int__) X(__float__) X(__index__) X(__abs__) X(__trunc__) \
    X(__format__) X(__dir__) X(__dict__) X(__class__) X(__name__) X(__qualname__) X(__module__) \
    X(__doc__) X(__slots__) X(__classcell__) X(__init_subclass__) X(__set_name__) X(__missing__) \
    X(__enter__) X(__exit__) X(__instancecheck__) X(__subclasscheck__) X(__prepare__) \
    X(__class_getitem__) X(__import__) X(__file__) X(__builtins__) X(__package__) X(__loader__) X(__spec__) \
    X(__reversed__) X(__round__) X(__abstractmethods__) X(__weakref__) X(__del__) X(__all__) X(__path__) \
    X(__mro_entries__) X(__bases__) X(__mro__) X(__subclasshook__) X(__self__) X(__func__) \
    X(__wrapped__) X(__isabstractmethod__) X(__objclass__) X(__annotations__) X(__notes__) \
    X(__traceback__) X(__cause__) X(__context__) X(__suppress_context__) X(__length_hint__) \
    X(__ceil__) X(__floor__) X(__complex__) X(__bytes__) X(__fspath__) X(__await__) \
    X(__match_args__) X(__abc_tpflags__) X(get) \
    X(builtins) X(metaclass) X(mro) X(args) X(name) X(obj) X(path) X(msg) X(value) X(code) \
    X(errno) X(strerror) X(filename) X(filename2) X(lineno) X(offset) X(text) X(end_lineno) \
    X(end_offset) X(print_file_and_line) X(encoding) X(object) X(start) X(end) X(reason) \
    X(fget) X(fset) X(fdel) X(keys) X(items) X(__add__) X(__radd__) X(__iadd__) X(__sub__) \
    X(__rsub__) X(__isub__) X(__mul__) X(__rmul__) X(__imul__) X(__truediv__) X(__rtruediv__) \
    X(__itruediv__) X(__floordiv__) X(__rfloordiv__) X(__ifloordiv__) X(__mod__) X(__rmod__) \
    X(__imod__) X(__pow__) X(__rpow__) X(__ipow__) X(__lshift__) X(__rlshift__) X(__ilshift__) \
    X(__rshift__) X(__rrshift__) X(__irshift__) X(__and__) X(__rand__) X(__iand__) X(__or__) \
    X(__ror__) X(__ior__) X(__xor__) X(__rxor__) X(__ixor__) X(__matmul__) X(__rmatmul__) \
    X(__imatmul__) X(__divmod__) X(__rdivmod__) X(__idivmod__)
enum {
#define VMN_ENUM(n) VMN_##n,
    VM_NAME_LIST(VMN_ENUM)
#undef VMN_ENUM
    VMN_COUNT_
};
extern Obj vm_names[VMN_COUNT_];
#define NAME(n) (vm_names[VMN_##n])
/* The interned str for a C string, cached (by content) after the first call. */
Obj vm_intern_cached(const char *s);

/* ---- Per-op tables ---- */
extern const char *const vm_nb_names[NB_COUNT][3];   /* "__add__", "__radd__", "__iadd__" */
extern const char *const vm_nb_symbols[NB_COUNT];    /* "+", ... ("** or pow()", "divmod()") */
extern const char *const vm_cmp_names[6];            /* "__lt__", ... by CMP_* */
extern const char *const vm_cmp_symbols[6];          /* "<", ... */

/* ---- Extra types of the objects area ---- */
extern TypeObj *T_wrapper_descriptor, *T_method_wrapper, *T_getset_descriptor, *T_member_descriptor;

/* ---- identity.c ---- */
/* id(v): stable for the object's life. A young object is first made old by a
 * minor collection (old objects never move), so its segment offset is fixed. */
uint64_t vm_object_id(Obj v);
uint64_t vm_object_id_slot(Obj *slot);   /* id of *slot; *slot re-read after */
/* Identity hash used by object.__hash__ (instances and exceptions keep a
 * counter-based hash in a hidden word; others use vm_object_id). */
int64_t vm_identity_hash(Obj v);

/* ---- singletons.c, names.c (start-up, before any type) ---- */
void singletons_init(void);
void names_init(void);

/* ---- typeobject.c ---- */
/* Instance dict slot of an object (NULL if its layout has none). */
Obj __seg_gs *vm_dict_slot(Obj o);
/* The instance dict, created if the layout has one (NULL: no dict, no error). */
Obj vm_instance_dict(Obj o);
/* Look up a dunder on type(self) and call it with self prepended (args
 * rooted). *found = 0 (and NULL returned without error) if absent. */
Obj vm_call_dunder(Obj self, Obj name, Obj *args, int nargs, int *found);
/* Call a value found on a type as a method of self (binding through
 * __get__ when needed): f(self, *args). args rooted. */
Obj vm_call_unbound(Obj f, Obj self, Obj *args, int nargs);
/* Type versions and lookup (typelookup.c): refresh the version of t and
 * every subclass (after a class attribute change); a version never given
 * before (the attribute cache's key); the MRO walk without the cache (before
 * t is readied: its base chain), *where (if not NULL) gets the defining type. */
void type_modified(TypeObj *t);
uint64_t type_new_version(void);
Obj type_lookup_uncached(TypeObj *t, Obj name, TypeObj **where);

/* The type attribute cache (typelookup.c): every lookup of a name in a
 * type's MRO (vm_lookup_type, the eval loop's attribute paths) goes through
 * one per-thread cache keyed on the type's version (renewed on every change of
 * the type, a base or __bases__) and the name, checked against the owner dict's
 * version. A TypeAttr says where the name is: the type of the MRO that defines
 * it (NULL: none does) and its entry in that type's dict, valid while the
 * dict's version is dver. */
typedef struct TypeAttr {
    TypeObj *owner;
    uint64_t dver;
    int64_t ix;
} TypeAttr;
typedef struct TypeCacheEntry {
    uint64_t tver;     /* the version of the type looked in (0: empty) */
    Obj name;          /* compared by address, with the hash */
    int64_t hash;
    TypeAttr at;
} TypeCacheEntry;
#define TYPE_CACHE_BITS 12
extern __thread TypeCacheEntry type_cache[1u << TYPE_CACHE_BITS];
static inline unsigned type_cache_index(uint64_t ver, int64_t h)
{
    return (unsigned)(((ver * 0x9E3779B97F4A7C15ull) ^ (uint64_t)h) >> (64 - TYPE_CACHE_BITS));
}
const TypeAttr *type_lookup_fill(TypeObj *t, Obj name);
/* Where name (a str) is in the MRO of t (a readied type): valid until the
 * next lookup on this thread. */
static inline const TypeAttr *type_lookup_where(TypeObj *t, Obj name)
{
    uint64_t ver = t->version;
    int64_t h = STR(name)->hash;
    TypeCacheEntry *e = &type_cache[type_cache_index(ver, h)];
    if (e->tver == ver && e->name == name && e->hash == h &&
        (!e->at.owner || DICT(e->at.owner->dict)->version == e->at.dver))
        return &e->at;
    return type_lookup_fill(t, name);
}
static inline Obj type_attr_value(const TypeAttr *at)
{
    return at->owner ? dict_value_at(at->owner->dict, at->ix) : NULL;
}
Obj type_repr(Obj type);
/* __module__ of a type as a str (NULL: builtins). */
Obj type_module(TypeObj *t);
/* object's slots, for types that want to reuse them. */
Obj object_repr(Obj self);
/* obj.__getstate__() (object's default: the instance dict and slots, None
 * when there are none), for the __reduce__ of built-in types. */
Obj vm_object_state(Obj self);
/* May instances of t get attribute `name` (a dict, or a __slots__ name)? */
bool type_allows_attr(TypeObj *t, Obj name);
/* genericalias.c: */
/* The members of `int | None` (a tuple), or NULL if u is not a union. */
Obj type_union_args(Obj u);
/* type[key]: __class_getitem__ or a generic alias (list[int]). */
Obj type_subscript(Obj type, Obj key);
/* a | b for types, unions and aliases (NotImplemented for other operands). */
Obj type_or(Obj a, Obj b);
/* types.GenericAlias and instances of its Python subclasses. */
extern TypeObj *T_generic_alias;
bool is_generic_alias(Obj v);
void genericalias_init_types(void);   /* types.UnionType, types.GenericAlias */
/* __dict__ getset for types whose instances have a dict. */
Obj vm_getset_dict_get(Obj *args, size_t nargs, Obj kwnames);
Obj vm_getset_dict_set(Obj *args, size_t nargs, Obj kwnames);

/* ---- methodobject.c, moduleobject.c, descrobject.c, superobject.c ---- */
void builtin_init_type(void);
void module_init_type(void);
void descr_init_types(void);      /* property, staticmethod, classmethod */
void descr_init_attr_types(void); /* wrapper_descriptor, method-wrapper, getset and member descriptors */
void super_init_type(void);
Obj staticmethod_new(Obj f);
Obj classmethod_new(Obj f);
/* A slot wrapper descriptor (int.__add__), bound to self if non-NULL. */
Obj wrapper_new(TypeObj *owner, int slotdef, Obj self);
/* A member descriptor: IterObj.kind MEMBER_SLOT (a __slots__ entry, index
 * into InstanceHObj.slots) or MEMBER_C (a C member: its getter in n, its
 * setter (or 0) in i, its doc in c). */
enum { MEMBER_SLOT = 0, MEMBER_C = 1 };
Obj member_new(TypeObj *owner, Obj name, int64_t index);
/* The InstanceHObj.slots index a __slots__ member descriptor reads and
 * writes; -1 for any other object (the eval loop's attribute caches). */
static inline int64_t member_slot_index(Obj d)
{
    if (IS_SMALLINT(d) || TID(d) != TID_ITER)
        return -1;
    IterObj *it = ITER(d);
    return it->cls == (Obj)T_member_descriptor && it->kind == MEMBER_SLOT ? it->i : -1;
}

/* Method descriptors into a class namespace dict (for classes made by
 * calling type()); owner checks the receiver. */
int builtin_add_to_dict(Obj ns, const MethodDef *defs, TypeObj *owner);

/* ---- structseq.c, namespaceobject.c ---- */
/* Struct sequences (sys.version_info, time.struct_time, os.stat_result):
 * a tuple subclass of n fields (named in its repr), the first ngetters of
 * them also attributes; instances have a dict for extra attributes. */
Obj structseq_new_type(const char *module, const char *name, const char *const *fields, int n, int ngetters);
/* ... with nextra fields past the sequence (attributes only: time.struct_time's tm_zone, tm_gmtoff),
 * which its constructor takes from a longer sequence or a dict, and __reduce__ returns. */
Obj structseq_new_type_extra(const char *module, const char *name, const char *const *fields, int n, int ngetters,
                             const char *const *extra, int nextra);
Obj structseq_new(Obj type, Obj *items, int n);        /* items in root slots */
/* types.SimpleNamespace-like object: attributes in its dict, repr namespace(a=1, ...). */
Obj namespace_new(void);
void namespace_init(void);   /* start-up */

/* ---- fileobject.c ---- */
/* io.UnsupportedOperation (made on first use; OSError if that fails). */
Obj file_unsupported_operation(void);
/* memoryio.c: io.StringIO and io.BytesIO */
extern TypeObj *T_StringIO, *T_BytesIO;
void memoryio_init_types(void);
#define FILE_BUFFER_SIZE 8192   /* io.DEFAULT_BUFFER_SIZE */
/* builtins.open and _io.open: open(file, mode='r', buffering=-1,
 * encoding=None, errors=None, newline=None, closefd=True, opener=None). */
Obj file_open(Obj *args, size_t nargs, Obj kwnames);
/* The _io classes (fileobject.c; iomodule.c makes the module). */
extern TypeObj *T_IOBase, *T_RawIOBase, *T_BufferedIOBase, *T_TextIOBase, *T_FileIO, *T_BufferedReader,
    *T_BufferedWriter, *T_BufferedRandom, *T_TextIOWrapper;
/* A TextIOWrapper (not a subclass): print() writes its whole line with one
 * file_write_cstr (no Python override of write() to call piece by piece). */
bool file_is_fast_text(Obj f);
/* One line (str or bytes, with its newline; empty at EOF) of a file object
 * (FileObj fast path, else file.readline()). */
Obj file_readline(Obj file);
/* Write C bytes (UTF-8 text) to a file object; for messages from C. */
int file_write_cstr(Obj file, const char *s, size_t n);
/* Flush every file that has buffered data (exit). Returns -1 if flushing
 * sys.stdout failed (the exit status becomes 120), else 0. */
int file_flush_all_at_exit(void);
/* The finalizer of a collected file object: flush and close it unless closed. */
int file_finalize(Obj f);
/* Bit i set: fd i (0, 1, 2) was closed at start-up; main.c put /dev/null
 * there (so the runtime's own files never take those numbers) and the
 * standard stream is None. */
extern unsigned file_closed_std_fds;
/* Set an OSError (the subclass chosen by errno, as CPython's OSError(errno,
 * strerror, filename) does) and return NULL. filename may be NULL. */
Obj err_from_errno(int err, Obj filename);
Obj err_from_errno2(int err, Obj filename, Obj filename2);
/* os.fspath() semantics: str, bytes, or __fspath__; TypeError otherwise. */
Obj vm_fspath(Obj path);

/* ---- builtiniters.c ---- */
Obj callable_iter_new(Obj callable, Obj sentinel);

/* ---- exceptions.c ---- */
/* Adds every built-in exception class (and the EnvironmentError / IOError
 * aliases) to a module or dict. NEEDED by builtins_init. */
int exceptions_add_builtins(Obj module_or_dict);
/* types.GenericAlias(origin, args) (genericalias.c): what cls[args] gives
 * for the built-in generic classes. */
Obj generic_alias_new(Obj origin, Obj key);

/* ---- exceptiongroup.c (PEP 654) ---- */
extern TypeObj *E_BaseExceptionGroup, *E_ExceptionGroup;
void exception_groups_init(void);       /* from exceptions_init */
bool exc_is_group(Obj v);               /* an instance of BaseExceptionGroup */
Obj exc_group_exceptions(Obj eg);       /* its exceptions tuple; NULL if not a group */
/* except*: TypeError for a clause naming an exception group type. */
int exc_group_check_star_type(Obj type);
/* One except* clause against exc (a root slot's value; None: nothing left):
 * out[0] the matching part (NULL: no match), out[1] the rest (NULL/None:
 * nothing). out: two root slots. A naked exception that matches is wrapped
 * in a new group. */
int exc_group_match(Obj exc, Obj type, Obj *out);
/* After the except* clauses: what to raise (None: nothing), from the
 * original exception and the list of what the clauses raised and the
 * unhandled rest (None items skipped). */
Obj exc_group_prep_reraise(Obj orig, Obj raised);

/* Extra exception types not in tmpy.h. */
extern TypeObj *E_UnicodeTranslateError, *E_ConnectionAbortedError, *E_ConnectionRefusedError,
    *E_ConnectionResetError, *E_PendingDeprecationWarning, *E_SyntaxWarning, *E_FutureWarning,
    *E_ImportWarning, *E_UnicodeWarning, *E_BytesWarning, *E_ResourceWarning, *E_EncodingWarning;

/* ---- fileobject.c: the standard streams, writing ---- */
extern Obj g_sys_stdout, g_sys_stderr, g_sys_stdin;   /* file objects */
/* Write to sys.stdout / sys.stderr (print uses these). */
int file_write_str(Obj file, Obj s);
int file_flush(Obj file);
void object_init_types(void);   /* typeobject.c: object, type, NoneType, ..., property, super, module, builtin, method */
void exceptions_init(void);     /* exceptions.c */
void int_init_type(void);       /* int.c: int, bool */
void float_init_type(void);
void complex_init_type(void);
void str_init_type(void);
void bytes_init_type(void);
void tuple_init_type(void);
void list_init_type(void);
void dict_init_type(void);
void set_init_type(void);
void range_init_type(void);     /* range, slice */
void iter_init_types(void);     /* builtiniters.c: enumerate, zip, map, filter, reversed, callable_iterator */
void file_init_type(void);
void memview_init_type(void);   /* memoryview.c */
/* pickle.PickleBuffer (memoryview.c): a view of an object's buffer (_pickle exports the type);
 * picklebuffer_view gives its memoryview, or NULL with ValueError once released. */
extern TypeObj *T_picklebuffer;
Obj picklebuffer_view(Obj pb);
/* The memoryview layout's GC trace hook: counts live views during a census (memoryview.c). */
void memview_gc_trace(object_t *o, tm_ref_visitor visit, void *ctx);
void weakref_init_types(void); /* weakrefobject.c: weakref.ref, ProxyType, CallableProxyType */
extern TypeObj *T_weakref, *T_weakproxy, *T_weakcallableproxy;
/* ref(ob, callback) / proxy(ob, callback) of type `type` (one of the three);
 * without a callback, the existing plain one of that kind if there is one
 * (CPython's sharing); TypeError "cannot create weak reference to 'int' object". */
Obj weakref_new(TypeObj *type, Obj ob, Obj callback);
Obj weakref_referent(Obj w);      /* the referent or NULL (dead); w a WeakrefObj */

#endif
