/* tmpy: the tokenizer. Turns UTF-8 source into an array of tokens (in an
 * arena), with Python 3.11's rules for indentation, implicit line joining,
 * backslash continuation, numbers, strings and identifiers. Also decodes
 * the text of number and string literals for the parser.
 *
 * Independent of the GC and of every other vm file except ast.h / parser.h
 * (the fuzz target links ast.c, lexer.c and parser.c alone).
 */
#ifndef TMPY_LEXER_H
#define TMPY_LEXER_H

#include "ast.h"
#include "parser.h"

#include <stdint.h>

/* Token types. Operators and keywords each have their own type. */
#define TOKEN_LIST(X) \
    X(ENDMARKER, "end of file") X(NAME, "name") X(NUMBER, "number") X(STRING, "string") \
    X(NEWLINE, "newline") X(INDENT, "indent") X(DEDENT, "dedent") \
    X(LPAR, "(") X(RPAR, ")") X(LSQB, "[") X(RSQB, "]") X(LBRACE, "{") X(RBRACE, "}") \
    X(COLON, ":") X(COMMA, ",") X(SEMI, ";") X(PLUS, "+") X(MINUS, "-") X(STAR, "*") \
    X(SLASH, "/") X(VBAR, "|") X(AMPER, "&") X(LESS, "<") X(GREATER, ">") X(EQUAL, "=") \
    X(DOT, ".") X(PERCENT, "%") X(EQEQUAL, "==") X(NOTEQUAL, "!=") X(LESSEQUAL, "<=") \
    X(GREATEREQUAL, ">=") X(TILDE, "~") X(CIRCUMFLEX, "^") X(LEFTSHIFT, "<<") \
    X(RIGHTSHIFT, ">>") X(DOUBLESTAR, "**") X(PLUSEQUAL, "+=") X(MINEQUAL, "-=") \
    X(STAREQUAL, "*=") X(SLASHEQUAL, "/=") X(PERCENTEQUAL, "%=") X(AMPEREQUAL, "&=") \
    X(VBAREQUAL, "|=") X(CIRCUMFLEXEQUAL, "^=") X(LEFTSHIFTEQUAL, "<<=") \
    X(RIGHTSHIFTEQUAL, ">>=") X(DOUBLESTAREQUAL, "**=") X(DOUBLESLASH, "//") \
    X(DOUBLESLASHEQUAL, "//=") X(AT, "@") X(ATEQUAL, "@=") X(RARROW, "->") \
    X(ELLIPSIS, "...") X(COLONEQUAL, ":=") \
    X(OP_ERROR, "?") /* a character that is no token (`$`, `?`, a lone `!`, `<>`): invalid syntax */ \
    X(LEXERROR, "error") /* last token when lexing failed: the parser raises the lexer's error there */ \
    X(KW_FALSE, "False") X(KW_NONE, "None") X(KW_TRUE, "True") X(KW_AND, "and") \
    X(KW_AS, "as") X(KW_ASSERT, "assert") X(KW_ASYNC, "async") X(KW_AWAIT, "await") \
    X(KW_BREAK, "break") X(KW_CLASS, "class") X(KW_CONTINUE, "continue") X(KW_DEF, "def") \
    X(KW_DEL, "del") X(KW_ELIF, "elif") X(KW_ELSE, "else") X(KW_EXCEPT, "except") \
    X(KW_FINALLY, "finally") X(KW_FOR, "for") X(KW_FROM, "from") X(KW_GLOBAL, "global") \
    X(KW_IF, "if") X(KW_IMPORT, "import") X(KW_IN, "in") X(KW_IS, "is") \
    X(KW_LAMBDA, "lambda") X(KW_NONLOCAL, "nonlocal") X(KW_NOT, "not") X(KW_OR, "or") \
    X(KW_PASS, "pass") X(KW_RAISE, "raise") X(KW_RETURN, "return") X(KW_TRY, "try") \
    X(KW_WHILE, "while") X(KW_WITH, "with") X(KW_YIELD, "yield")

enum {
#define TOK_ENUM(name, text) T_##name,
    TOKEN_LIST(TOK_ENUM)
#undef TOK_ENUM
    T_COUNT_
};
#define T_FIRST_KEYWORD T_KW_FALSE
extern const char *const token_text[T_COUNT_];   /* "(", "if", "name", ... */

typedef struct Token {
    int type;                 /* T_* */
    int level;                /* bracket nesting level after this token (as CPython's) */
    const char *start, *end;  /* the token's bytes in the source */
    int lineno, col;          /* 1-based line, 0-based byte column of the start */
    int end_lineno, end_col;  /* just past the end */
} Token;

typedef struct TokenArray {
    Token *items;
    int n, cap;
    /* End of file inside brackets: the innermost open bracket (0: none).
     * The parser reports "'(' was never closed" if it fails at the end. */
    int unclosed, unclosed_line, unclosed_col;
    int outer_line, outer_col;   /* the outermost open bracket */
} TokenArray;

/* Tokenize src[0..len) (not NUL-terminated necessarily; it must stay alive
 * while the tokens are used). Positions of tokens on the first line are
 * shifted by first_col, lines by line_offset (used for f-string
 * expressions, which are tokenized in place). `fstring_expr`: the text is
 * an f-string replacement field expression (as if in parentheses: no
 * NEWLINE/INDENT tokens, no comments or backslashes allowed).
 * Returns 0, or -1 with *err filled (col_offset = 0-based BYTE column
 * relative to the real source line, as the parser converts it later).
 * Lexing stops at the first error; the tokens before it are kept in *out,
 * followed by a T_LEXERROR token (unless out of memory). */
int lex_tokenize(Arena *arena, const char *src, size_t len, int line_offset, int first_col,
                 int fstring_expr, TokenArray *out, SyntaxErrorInfo *err);

/* String literals. Decodes the body of one STRING token (prefix and
 * quotes removed) into the arena.
 * prefix flags: */
enum { STRPFX_RAW = 1, STRPFX_BYTES = 2, STRPFX_F = 4, STRPFX_U = 8 };
/* Splits a STRING token's text into prefix flags and body [*body, *body_end)
 * and the quote length (1 or 3). */
void lex_string_parts(const Token *t, int *flags, const char **body, const char **body_end, int *quote_len);
/* Decode escapes of a non-f string body. For str: UTF-8 out (surrogates as
 * 3-byte sequences); for bytes: raw bytes (non-ASCII source chars are an
 * error). Returns 0, or -1 with err->msg set (and err position set to the
 * token's start). */
int lex_decode_string(Arena *arena, const Token *t, const char *body, const char *body_end,
                      int flags, char **out, size_t *out_len, SyntaxErrorInfo *err);

/* Numbers: fills an ast constant (INT, FLOAT or IMAG) from a NUMBER token.
 * Returns 0, or -1 (out of memory) with err set. */
int lex_decode_number(Arena *arena, const Token *t, constant *c, SyntaxErrorInfo *err);

/* Set err (message printf-style) at a position (0-based byte columns). */
void lex_set_error(SyntaxErrorInfo *err, int kind, int lineno, int col, int end_lineno,
                   int end_col, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* Decode one UTF-8 sequence at s (len bytes available); returns its length
 * (1 for an invalid byte, with *cp = the byte). */
int lex_utf8_decode(const char *s, size_t len, uint32_t *cp);

#endif
