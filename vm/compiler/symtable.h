/* tmpy: the symbol table (symtable.c), the compiler's first pass over the AST.
 *
 * One Scope per module, class body, function, lambda and comprehension /
 * generator expression (each comprehension is a function scope with the
 * single parameter ".0", as in CPython 3.11). For every name used in a scope
 * it decides how the code generator reaches it: a fast local, a cell, a free
 * variable from the closure, a global, or a name looked up by LOAD_NAME.
 *
 * Plain C (malloc), no GC objects: the compiler runs it before creating any
 * Python object, so it can be tested without the interpreter.
 */
#ifndef TMPY_SYMTABLE_H
#define TMPY_SYMTABLE_H

#include "ast.h"

#include <stdbool.h>
#include <stdint.h>

/* An error found while compiling (symbol table or code generator). Turned
 * into a Python exception by vm_compile. Columns are AST style: 0-based
 * UTF-8 byte offsets. */
enum {
    CERR_NONE = 0,
    CERR_SYNTAX,          /* SyntaxError */
    CERR_INDENT,          /* IndentationError (parser) */
    CERR_TAB,             /* TabError (parser) */
    CERR_RECURSION,       /* RecursionError: nesting too deep */
    CERR_MEMORY,          /* MemoryError */
    CERR_NOTIMPL,         /* NotImplementedError */
    CERR_SYSTEM,          /* SystemError: a compiler bug (never expected) */
};
typedef struct CompileError {
    int kind;
    char msg[256];
    int lineno, col_offset, end_lineno, end_col_offset;   /* end_col_offset < 0: unknown */
    int msg_only_args;    /* like CPython's symtable errors: SyntaxError.args is (msg,) only */
    const void *repr_arg; /* a constant of the compiler (CConst): its repr replaces a '\x01' in msg */
} CompileError;

/* Deepest nesting of AST nodes the compiler accepts (RecursionError
 * "maximum recursion depth exceeded during compilation" beyond). */
#define COMPILER_MAX_NESTING 2990

/* Symbol flags recorded by the first pass. */
enum {
    DEF_GLOBAL = 1 << 0,      /* `global x` in this scope */
    DEF_LOCAL = 1 << 1,       /* assigned / deleted / bound by for, with, import, def, class, except */
    DEF_PARAM = 1 << 2,       /* a parameter */
    DEF_NONLOCAL = 1 << 3,    /* `nonlocal x` */
    SYM_USE = 1 << 4,         /* read */
    DEF_FREE_CLASS = 1 << 5,  /* class scope: bound here AND free in a method: passed through the class closure */
    DEF_IMPORT = 1 << 6,      /* bound by import */
    DEF_ANNOT = 1 << 7,       /* annotated (`x: int`) */
    DEF_COMP_ITER = 1 << 8,   /* a comprehension's iteration variable */
};
#define DEF_BOUND (DEF_LOCAL | DEF_PARAM | DEF_IMPORT)

/* Where a name lives, decided by the second pass. */
typedef enum {
    SC_NONE = 0,
    SC_LOCAL,             /* function: fast local; module/class: LOAD_NAME */
    SC_GLOBAL_EXPLICIT,   /* declared global */
    SC_GLOBAL_IMPLICIT,   /* not bound anywhere enclosing: global or builtin */
    SC_FREE,              /* bound in an enclosing function: from the closure */
    SC_CELL,              /* local, but captured by an inner scope: a cell */
} SymScope;

typedef struct Symbol {
    const char *name;     /* mangled name (owned by the AST arena or the symtable) */
    uint32_t hash;
    int flags;            /* DEF_* */
    SymScope scope;
    int dir_lineno, dir_col, dir_end_lineno, dir_end_col;  /* where global/nonlocal was declared */
} Symbol;

typedef enum { BLOCK_MODULE, BLOCK_CLASS, BLOCK_FUNCTION } BlockType;
typedef enum { COMP_NONE, COMP_LIST, COMP_SET, COMP_DICT, COMP_GENEXPR } CompKind;

typedef struct Scope Scope;
struct Scope {
    BlockType type;
    const char *name;     /* function/class name, "<lambda>", "<listcomp>", ..., "top" */
    const void *key;      /* the AST node that opened the scope (mod, stmt or expr) */
    int lineno, col_offset;
    Scope *parent;
    Scope **children;
    int nchildren, capchildren;
    /* symbols: open addressing table of indexes into syms[] (insertion order) */
    Symbol *syms;
    int nsyms, capsyms;
    int *slots;
    int nslots;           /* power of two */
    /* parameters in localsplus order (mangled) */
    const char **params;
    int nparams, capparams;
    const char *private_name;   /* class name used for __name mangling, or NULL */
    CompKind comp;        /* != COMP_NONE: a comprehension / generator expression scope */
    bool is_lambda;
    bool is_generator;    /* contains yield / yield from (or is a generator expression) */
    bool is_async_def;    /* an `async def` function */
    bool is_coroutine;    /* CPython's ste_coroutine: an async def, or a scope holding an await or
                             an `async for` clause (a comprehension), or a list/set/dict
                             comprehension that is itself a coroutine (propagated up one scope) */
    bool needs_class_closure;   /* class: a method uses super() or __class__ */
    bool has_varargs, has_varkeywords;
    int comp_iter_expr;   /* > 0 while visiting a comprehension's iterable */
};

typedef struct SymTable {
    Scope *top;
    Scope **by_key;       /* hash table: AST node -> scope */
    int nkeys, capkeys;
    char **owned;         /* strings allocated by the symtable (mangled names) */
    int nowned, capowned;
    bool future_annotations;  /* `from __future__ import annotations`: annotations are strings, not evaluated */
} SymTable;

/* Build the table for a module / interactive / expression AST. NULL on
 * error (err filled). */
SymTable *symtable_build(mod_ty mod, CompileError *err, bool future_annotations);
void symtable_free(SymTable *st);
/* The scope opened by an AST node (FunctionDef/ClassDef stmt, Lambda or
 * comprehension expr, the mod). NULL if none. */
Scope *symtable_lookup(SymTable *st, const void *key);
/* The symbol of a (mangled) name in a scope, or NULL. */
Symbol *scope_symbol(Scope *s, const char *name);
/* CPython's _Py_Mangle: "__x" in class C is "_C__x". Returns name itself
 * when no mangling applies, else a string owned by st (NULL: out of memory). */
const char *symtable_mangle(SymTable *st, const char *private_name, const char *name);
uint32_t symtable_hash(const char *s);

#endif
