/* tmpy: the bytecode compiler (compile.c): AST -> code objects per opcodes.h.
 *
 * vm_compile (declared in tmpy.h) is the entry point; code_new (tmpy.h)
 * allocates a pinned code object. This header adds debugging helpers and
 * states the parts of the code-object contract that opcodes.h leaves open.
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

#include "tmpy.h"

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
 * code objects among its constants. For debugging. */
void code_disassemble(Obj code, FILE *out);

#endif
