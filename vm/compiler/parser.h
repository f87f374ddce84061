/* tmpy: the parser: Python 3.11 source text to an AST (ast.h).
 *
 * Hand-written recursive descent (precedence climbing for binary
 * operators) over the token array of lexer.c. Independent of the GC: only
 * ast.c, lexer.c and parser.c are needed (tests/fuzz/fuzz_parse.c links
 * them alone).
 */
#ifndef TMPY_PARSER_H
#define TMPY_PARSER_H

#include "ast.h"

#include <stddef.h>

/* Why parse_source failed: what CPython puts in the SyntaxError. */
typedef struct SyntaxErrorInfo {
    char msg[320];
    int lineno;           /* 1-based */
    int col_offset;       /* 1-based, in characters (code points), like SyntaxError.offset; 0 if unknown */
    int end_lineno;       /* 0 if unknown */
    int end_col_offset;   /* 1-based, in characters, exclusive; 0 if unknown */
    char text[512];       /* the source line (with its '\n' if it has one), "" if unknown */
    int kind;             /* SYNERR_*: 0 SyntaxError, 1 IndentationError, 2 TabError, 3 out of memory */
    int no_columns;       /* a line but no columns: offset and end_offset are 0 (a huge int literal) */
} SyntaxErrorInfo;

enum { SYNERR_SYNTAX = 0, SYNERR_INDENTATION = 1, SYNERR_TAB = 2,
       SYNERR_NOMEMORY = 3 /* not a SyntaxError: out of memory while parsing (raise MemoryError) */ };

/* Parse mode: the values of COMPILE_EXEC / COMPILE_EVAL / COMPILE_SINGLE in
 * tmpy.h (repeated here so that the parser does not need tmpy.h). */
enum { PARSE_EXEC = 0, PARSE_EVAL = 1, PARSE_SINGLE = 2 };

/* Parse src[0..len) (UTF-8, optional BOM; need not be NUL-terminated).
 * mode EXEC: Module; EVAL: Expression (one expression list; like CPython's
 * compile(), leading spaces are an "unexpected indent": builtin eval()
 * strips leading spaces and tabs first); SINGLE: Interactive (one
 * statement or compound statement). Returns the tree (allocated in arena, valid until
 * arena_free), or NULL with *err filled (out of memory: kind
 * SYNERR_NOMEMORY, msg "out of memory": raise MemoryError).
 * filename is only used for messages that mention it (none so far).
 * int_max_digits: a decimal int literal of more digits (that is not 0) is
 * a SyntaxError, as CPython's limit on int/str conversions makes it (the
 * caller passes sys.get_int_max_str_digits(); 0: no limit). */
mod_ty parse_source(Arena *arena, const char *src, size_t len, const char *filename, int mode,
                    long long int_max_digits, SyntaxErrorInfo *err);

/* Limits (CPython's values where it has them). */
#define PARSE_MAX_PAREN_LEVEL 200    /* "too many nested parentheses" */
#define PARSE_MAX_INDENT 100         /* "too many levels of indentation" (IndentationError) */
#define PARSE_MAX_DEPTH 3000         /* nesting of the parser and of the tree: "too many nested levels" */

#endif
