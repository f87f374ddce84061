/* The compiler layer's header: the bytecode compiler (compile.c): source or
 * AST -> code objects per opcodes.h.
 *
 * vm_compile is the entry point; code_new allocates a pinned code object.
 * This header also has debugging helpers and states the parts of the
 * code-object contract that opcodes.h leaves open.
 *
 * Contract notes for the eval loop (see also the comment at the top of
 * compile.c):
 *  - Function and lambda code (no CO_MODULE / CO_CLASSBODY /
 *    CO_COMPREHENSION flag): consts[0] is the docstring (a str, and the
 *    code has tmpy.h's CO_HAS_DOCSTRING flag) or None.
 *  - Cell variables that are parameters come first in the cell list, in
 *    parameter order: cell i < cell2arg_count starts with the argument
 *    cell2arg[i]; the others start empty. cell2arg[i] is -1 for cells that
 *    are not parameters. cell2arg_count <= 16: further parameter cells
 *    start empty and the code begins with LOAD_FAST p; STORE_DEREF cell.
 *  - A class body that needs __class__ has it as its only cell (index 0)
 *    and ends with LOAD_CLOSURE __class__; STORE_NAME __classcell__;
 *    LOAD_CONST None; RETURN_VALUE.
 *  - The runtime block stack (try blocks + EXCEPT_HANDLER blocks) of a
 *    frame never exceeds COMPILE_MAX_BLOCK_DEPTH entries.
 *  - COMPILE_SINGLE: an expression statement at top level calls
 *    sys.displayhook(value) (IMPORT_NAME sys; LOAD_METHOD displayhook).
 *  - Backward jumps are only ever JUMP_BACKWARD (every loop has one).
 */
#ifndef TMPY_COMPILE_H
#define TMPY_COMPILE_H

#include "objects/objects.h"

#include <stdio.h>

/* Upper bound on the block stack depth (SETUP_FINALLY / SETUP_WITH try
 * blocks plus EXCEPT_HANDLER blocks) any code object can reach: the
 * compiler computes it exactly and raises SyntaxError "too many statically
 * nested blocks" beyond (eval.h's FRAME_MAX_BLOCKS must be >= this). */
#define COMPILE_MAX_BLOCK_DEPTH 20

/* Source positions of instructions (positions.c, PEP 657): line 0 means
 * none, a column of -1 unknown; columns are 0-based UTF-8 byte offsets. */
typedef struct CodePos {
    int line, end_line, col, end_col;
} CodePos;
/* The positions of the first n instruction words of co into out; returns
 * how many it filled (0: the code has no table). */
int64_t code_positions_decode(CodeObj *co, CodePos *out, int64_t n);
/* The position of word i; false if it has none. */
bool code_position_at(CodeObj *co, int64_t i, CodePos *out);
/* A traceback's anchors in the failing expression's text seg[0..len) (CPython
 * 3.11: a binary operator or a subscript): byte offsets [*left, *right) in seg
 * of the part marked with *secondary, the rest with *primary; false if none. */
bool source_error_anchors(const char *seg, size_t len, int *left, int *right, char *primary, char *secondary);

/* Print a human-readable listing of a code object and, recursively, of the
 * code objects among its constants. For debugging (call it from gdb). */
void code_disassemble(Obj code, FILE *out);

/* ---- The `ast` module's node classes (astschema.c, astexport.c, astimport.c) ----
 * astschema.c describes every node class of Python 3.11's ast (ASDL): its
 * name, base, fields and whether it has positions; vm/modules/astmodule.c
 * makes the classes from it; astexport.c turns a parsed tree into instances
 * of them (compile(..., PyCF_ONLY_AST)); astimport.c turns such instances
 * back into a tree and compiles it (compile(tree, ...)). */
enum { AST_ONE = 0, AST_OPT = 1, AST_SEQ = 2 };     /* a field's cardinality: x, x?, x* */
typedef struct AstField {
    const char *name;
    const char *type;      /* its ASDL type: identifier, expr, int, ... */
    int card;              /* AST_ONE / AST_OPT / AST_SEQ */
    int conv;              /* how astexport/astimport convert it (private to the compiler) */
    long offset;           /* where the C tree keeps it; -1: nowhere (type_comment, type_ignores) */
} AstField;
typedef struct AstClass {
    const char *name;
    int base;              /* index of the base class in ast_classes; -1: AST itself */
    int category;          /* private to the compiler */
    int kind;              /* the C node's kind (ast.h enum); 0 for abstract classes */
    int attributes;        /* 1: lineno, col_offset, end_lineno, end_col_offset */
    const AstField *fields;   /* terminated by a NULL name */
} AstClass;
extern const AstClass ast_classes[];
extern const int ast_nclasses;
/* The attributes of a class with positions (its _attributes), in the order
 * the C nodes keep them from their pos_offset. */
extern const char *const ast_position_names[4];
/* The classes made from ast_classes (a tuple, same order), set once by the
 * _ast module's init; NULL before `_ast` is imported. */
extern Obj g_ast_class_tuple;
/* compile(src, filename, mode, PyCF_ONLY_AST): the tree of src as ast node
 * objects (imports _ast first). mode: COMPILE_EXEC / EVAL / SINGLE. */
Obj ast_parse_to_objects(const char *src, size_t len, const char *filename, int mode);
/* compile(tree, filename, mode): tree an ast.mod instance (Module for
 * "exec", Expression for "eval", Interactive for "single"); CPython's
 * TypeError/ValueError for a malformed tree. */
Obj ast_compile_objects(Obj tree, const char *filename, int mode);
/* isinstance(v, ast.AST), false when _ast was never imported */
bool ast_is_node(Obj v);

/* Pinned (tm_allocate_old): the eval loop keeps a raw pointer to code[]. */
Obj code_new(int32_t ninstr);
/* ------------------------------------------------------------------ */
/* Compiler (compile.c, parser front end)                              */
/* ------------------------------------------------------------------ */
enum { COMPILE_EXEC, COMPILE_EVAL, COMPILE_SINGLE };
/* OR'd into vm_compile's mode: compile as if the source began with
 * `from __future__ import annotations` (compile()'s flag, or inherited). */
#define COMPILE_FUTURE_ANNOTATIONS 0x100
/* compile()'s flag value of that feature (CPython's CO_FUTURE_ANNOTATIONS). */
#define PY_CO_FUTURE_ANNOTATIONS 0x1000000
/* Source text to a code object, or NULL with SyntaxError (msg, filename,
 * lineno, offset, text: as CPython's SyntaxError attributes) set. src and
 * filename must be C memory (they are read after allocations). */
Obj vm_compile(const char *src, size_t len, const char *filename, int mode);

#endif
