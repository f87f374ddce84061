/* The abstract object API of the objects layer: operations on any value
 * (abstract.c, typeobject.c), the calling protocol (call.c), argument
 * parsing for C functions (args.c), and making types and classes. */
#ifndef TMPY_ABSTRACT_H
#define TMPY_ABSTRACT_H

#include "tmpy.h"

bool vm_isinstance_type(Obj v, TypeObj *t);   /* isinstance(v, t) for one type, via the MRO */
bool type_is_subtype(TypeObj *a, TypeObj *b); /* b in a.__mro__ */
Obj vm_repr(Obj v);                       /* str */
Obj vm_str(Obj v);                        /* str */
Obj vm_ascii(Obj v);
int64_t vm_hash(Obj v);                   /* -1 on error */
Obj vm_richcompare(Obj a, Obj b, int op); /* with reflection and the default identity ==/!= */
int vm_richcompare_bool(Obj a, Obj b, int op);  /* 1, 0, -1; `is` shortcut for EQ/NE */
int vm_equal(Obj a, Obj b);               /* a is b or a == b: 1, 0, -1 (used by containers) */
int vm_is_true(Obj v);                    /* 1, 0, -1 */
Obj vm_binop(Obj a, Obj b, int nb_op);    /* a op b with __rop__ / subclass rules; TypeError "unsupported operand type(s)" */
Obj vm_inplace_binop(Obj a, Obj b, int nb_op);
Obj vm_unaryop(Obj v, int un_op);
Obj vm_getitem(Obj o, Obj key);
int vm_setitem(Obj o, Obj key, Obj v);
void vm_delitem_error(Obj o, Obj key);   /* TypeError: o does not support deleting key */
int vm_delitem(Obj o, Obj key);
int64_t vm_len(Obj o);                    /* -1 on error */
int vm_contains(Obj container, Obj item); /* `item in container`: 1, 0, -1 */
Obj vm_iter(Obj o);                       /* iter(o): __iter__ or the sequence protocol */
Obj vm_next(Obj it);                      /* next item; NULL without error when exhausted (a StopIteration raised inside included) */
Obj vm_getattr(Obj o, Obj name);          /* name: str */
Obj vm_getattr_cstr(Obj o, const char *name);
Obj vm_getattr_opt(Obj o, Obj name);      /* NULL without error on AttributeError */
int vm_setattr(Obj o, Obj name, Obj v);   /* v NULL: delattr */
int vm_hasattr(Obj o, Obj name);
Obj vm_generic_getattr(Obj o, Obj name);  /* object.__getattribute__ */
int vm_generic_setattr(Obj o, Obj name, Obj v);
Obj vm_lookup_type(TypeObj *t, Obj name); /* MRO lookup, no binding, no error; NULL if absent */
Obj vm_lookup_special(Obj v, const char *dunder);  /* type(v) MRO lookup by C name (interned); NULL if absent */
Obj vm_call(Obj callable, Obj *args, size_t nargs, Obj kwnames);  /* args must be in root slots */
Obj vm_call0(Obj callable);
Obj vm_call1(Obj callable, Obj a);
Obj vm_call2(Obj callable, Obj a, Obj b);
Obj vm_call3(Obj callable, Obj a, Obj b, Obj c);
Obj vm_call_method(Obj self, const char *name, Obj *args, size_t nargs);   /* self.name(*args); args rooted */
Obj vm_call_method1(Obj self, const char *name, Obj a);                  /* self.name(a) */
Obj vm_call_tuple_dict(Obj callable, Obj args_tuple, Obj kwargs_dict);  /* f(*t, **d) */
bool vm_callable(Obj v);
int vm_isinstance(Obj v, Obj cls_or_tuple);     /* isinstance(): 1, 0, -1 */
int vm_issubclass(Obj cls, Obj cls_or_tuple);
Obj vm_index(Obj v);                      /* operator.index(v): an int, or TypeError */
int vm_index_i64(Obj v, int64_t *out);    /* __index__ to a C int64; OverflowError/IndexError-free: -1 with error */
Obj vm_number_int(Obj v);                 /* int(v) for one argument */
Obj vm_number_float(Obj v);               /* float(v) for one argument */
int vm_as_double(Obj v, double *out);     /* int/float/bool/__float__ to double; -1 with TypeError */
Obj vm_format(Obj v, Obj spec);           /* format(v, spec): __format__ */
Obj vm_dir(Obj v);
Obj vm_list_from_iter(Obj iterable);      /* list(iterable) */
Obj vm_tuple_from_iter(Obj iterable);     /* tuple(iterable) */

/* Types and classes (typeobject.c). */
Obj type_new_builtin(const char *name, TypeObj *base, unsigned inst_tid, unsigned flags);  /* start-up only */
void type_add_methods(TypeObj *t, const MethodDef *defs);
void type_add_getset(TypeObj *t, const char *name, cfunc getter, cfunc setter);  /* getter(args=[self]), setter(args=[self, value]) */
/* A member descriptor of a built-in type (CPython's PyMemberDef): getter(args=[self]),
 * setter(args=[self, value or NULL]) or NULL for a READONLY one ("readonly attribute"); doc may be NULL. */
void type_add_member(TypeObj *t, const char *name, cfunc getter, cfunc setter, const char *doc);
void type_set_attr_cstr(TypeObj *t, const char *name, Obj v);
void type_ready(TypeObj *t);    /* after slots and methods are set: fills dunder entries from slots, mro, inherits slots */
Obj type_call(Obj type, Obj *args, size_t nargs, Obj kwnames);  /* calling a class */
Obj vm_build_class(Obj *args, size_t nargs, Obj kwnames);      /* builtins.__build_class__(func, name, *bases, **kw) */
Obj instance_new(TypeObj *cls);   /* a bare instance of a user class (object.__new__) */
int module_add(Obj module, const char *name, Obj v);
Obj module_new(const char *name);
void module_add_functions(Obj module, const MethodDef *defs);
Obj builtin_new(const MethodDef *def, Obj self, Obj owner);
/* Call a BuiltinObj: binds self, checks the instance for an unbound method
 * descriptor, and the declared argument count (METH_ARGS). */
Obj builtin_call(Obj callable, Obj *args, size_t nargs, Obj kwnames);
Obj method_new(Obj func, Obj self);          /* a bound method (methodobject.c) */
bool vm_is_method_descr(Obj v);   /* a built-in method descriptor: call with self first */

/* f(**m): merge mapping m into the kwargs dict d (duplicates: TypeError). */
int call_merge_kwargs(Obj d, Obj m, Obj func);
/* f(*x) with x not iterable: CPython's message (replaces a TypeError). */
void call_star_arg_error(Obj func, Obj arg);
/* f(*args, **kwargs): an argument vector on the shadow stack (v[0] = kwnames
 * or NULL, arguments from v[1], self first if given). The caller resets
 * tm_self.ss_top afterwards (also on error). */
Obj *call_ex_args(Obj func, Obj self, Obj args, Obj kwargs, size_t *nargs_out);
/* Qualified name for messages: "f", "C.m" (function qualname). */
const char *func_display_name(Obj func);

/* ------------------------------------------------------------------ */
/* Argument checking (args.c, objects agent)                           */
/* ------------------------------------------------------------------ */
/* Bind positional and keyword args of a C function to out[0..nnames)
 * (NULL for those not given). names: parameter names (NULL-terminated
 * list); `min` required, `maxpos` that may be positional. `out` must be
 * root slots. CPython-style TypeError messages ("f() takes at most 2
 * arguments (3 given)", "f() got an unexpected keyword argument 'x'",
 * "f() missing required argument 'x' (pos 1)"). Returns 0 or -1. */
int vm_parse_args(const char *fname, Obj *args, size_t nargs, Obj kwnames,
                  const char *const *names, int min, int maxpos, Obj *out);
/* No keyword arguments and min <= nargs <= max, else TypeError. */
int vm_check_args(const char *fname, size_t nargs, Obj kwnames, int min, int max);

#endif
