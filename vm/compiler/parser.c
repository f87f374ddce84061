/* tmpy: the parser (see parser.h). Recursive descent over the token array
 * of lexer.c, following the Python 3.11 grammar (docs: "Full Grammar
 * specification") and reproducing CPython's messages for the common
 * syntax errors. Every node lives in the caller's arena. `match` and `case`
 * are soft keywords: a statement starting with the name `match` is a match
 * statement when `match subject:` and a NEWLINE parse (a trial), else a
 * simple statement. */
#include "parser.h"
#include "lexer.h"
#include "objects/strobj.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define unlikely(x) __builtin_expect(!!(x), 0)

typedef struct Parser {
    Arena *arena;
    Token *toks;
    int ntoks;
    int pos;            /* the current token */
    int max_pos;        /* the furthest token looked at: generic errors point there */
    int depth;          /* recursion / AST nesting guard */
    int failed;
    SyntaxErrorInfo *err;
    int in_fexpr;       /* parsing an f-string replacement field */
    int fstring_depth;  /* f-strings nested in f-string expressions */
    int no_invalid;     /* inside a trial parse: no special error checks */
    int lex_failed;     /* the tokens end with T_LEXERROR: lex_err is raised when the parser gets there */
    SyntaxErrorInfo lex_err;
    int unclosed, unclosed_line, unclosed_col;   /* end of file inside brackets (TokenArray) */
    int reached_end;    /* looked at the end of file while brackets are unclosed (even in a trial) */
    int reached_end_first;  /* the same, but not in a trial for an error message (CPython's first pass) */
    int match_trial;    /* is_match_statement's trial (an alternative of CPython's first pass) */
    int generic_error;  /* the error is the generic "invalid syntax" */
    int lex_override;   /* a generic error was replaced by the tokenizer's error later in the file */
    int match_newline;  /* the last `match` statement trial saw `match subject` NEWLINE */
    int match_quirk;    /* such a statement parsed as an expression statement: see match_quirk() */
    long long int_max_digits;   /* decimal int literals longer than this are an error (0: no limit) */
} Parser;

/* A growable array of pointers in the arena (turned into a typed seq at the end). */
typedef struct Vec {
    void **items;
    int n, cap;
} Vec;

static void *nomem(Parser *p)
{
    if (!p->failed || p->err->kind != SYNERR_NOMEMORY)
        lex_set_error(p->err, SYNERR_NOMEMORY, 0, 0, 0, 0, "out of memory");
    p->failed = 1;
    return NULL;
}

static int vec_push(Parser *p, Vec *v, void *x)
{
    if (v->n == v->cap) {
        int ncap = v->cap ? v->cap * 2 : 4;
        void **items = arena_alloc(p->arena, sizeof(void *) * (size_t)ncap);
        if (!items) {
            nomem(p);
            return -1;
        }
        if (v->n)
            memcpy(items, v->items, sizeof(void *) * (size_t)v->n);
        v->items = items;
        v->cap = ncap;
    }
    v->items[v->n++] = x;
    return 0;
}

#define DEFINE_SEQ(T, SEQ, NAME)                                                \
    static int NAME(Parser *p, const Vec *v, SEQ *out)                          \
    {                                                                           \
        out->n = v->n;                                                          \
        out->items = NULL;                                                      \
        if (v->n) {                                                             \
            out->items = arena_alloc(p->arena, sizeof(T) * (size_t)v->n);       \
            if (!out->items) {                                                  \
                nomem(p);                                                       \
                return -1;                                                      \
            }                                                                   \
            for (int i = 0; i < v->n; i++)                                      \
                out->items[i] = (T)v->items[i];                                 \
        }                                                                       \
        return 0;                                                               \
    }
DEFINE_SEQ(expr_ty, expr_seq, to_exprs)
DEFINE_SEQ(stmt_ty, stmt_seq, to_stmts)
DEFINE_SEQ(arg_ty, arg_seq, to_args)
DEFINE_SEQ(keyword_ty, keyword_seq, to_keywords)
DEFINE_SEQ(alias_ty, alias_seq, to_aliases)
DEFINE_SEQ(withitem_ty, withitem_seq, to_withitems)
DEFINE_SEQ(comprehension_ty, comprehension_seq, to_comprehensions)
DEFINE_SEQ(excepthandler_ty, excepthandler_seq, to_handlers)
DEFINE_SEQ(identifier, identifier_seq, to_identifiers)
DEFINE_SEQ(pattern_ty, pattern_seq, to_patterns)
DEFINE_SEQ(match_case_ty, match_case_seq, to_match_cases)

/* ------------------------------------------------------------------ */
/* Tokens                                                              */
/* ------------------------------------------------------------------ */
static void raise_lex_error(Parser *p)
{
    if (!p->failed) {
        *p->err = p->lex_err;
        p->failed = 1;
    }
}
static void end_reached(Parser *p)
{
    p->reached_end = 1;
    if (!p->no_invalid || p->match_trial)
        p->reached_end_first = 1;
}
static inline Token *cur(Parser *p)
{
    if (p->pos > p->max_pos)
        p->max_pos = p->pos;
    Token *t = &p->toks[p->pos];
    if (unlikely(t->type == T_LEXERROR))
        raise_lex_error(p);
    if (unlikely(t->type == T_ENDMARKER))
        end_reached(p);
    return t;
}
static inline int at(Parser *p, int type) { return cur(p)->type == type; }
/* Type of the token k ahead (counts as looked at, as in CPython). */
static inline int peek(Parser *p, int k)
{
    int i = p->pos + k;
    if (i >= p->ntoks)
        i = p->ntoks - 1;
    if (i > p->max_pos)
        p->max_pos = i;
    if (unlikely(p->toks[i].type == T_LEXERROR))
        raise_lex_error(p);
    if (unlikely(p->toks[i].type == T_ENDMARKER))
        end_reached(p);
    return p->toks[i].type;
}
static inline Token *advance(Parser *p)
{
    Token *t = cur(p);
    if (t->type != T_ENDMARKER && t->type != T_LEXERROR)
        p->pos++;
    return t;
}
static inline int accept(Parser *p, int type)
{
    if (at(p, type)) {
        advance(p);
        return 1;
    }
    return 0;
}
/* The last token consumed that is not NEWLINE / INDENT / DEDENT. */
static Token *last_real(Parser *p)
{
    int i = p->pos - 1;
    while (i > 0 && (p->toks[i].type == T_NEWLINE || p->toks[i].type == T_INDENT ||
                     p->toks[i].type == T_DEDENT || p->toks[i].type == T_ENDMARKER))
        i--;
    return &p->toks[i < 0 ? 0 : i];
}
static int tok_is_name(const Token *t, const char *s)
{
    size_t n = strlen(s);
    return t->type == T_NAME && (size_t)(t->end - t->start) == n && memcmp(t->start, s, n) == 0;
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */
static void *verror(Parser *p, int kind, int l, int c, int el, int ec, const char *fmt, va_list ap)
{
    if (p->failed)
        return NULL;
    p->failed = 1;
    char msg[320];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (p->in_fexpr && strncmp(msg, "f-string", 8) != 0)
        lex_set_error(p->err, kind, l, c, el, ec, "f-string: %s", msg);
    else
        lex_set_error(p->err, kind, l, c, el, ec, "%s", msg);
    return NULL;
}

static void *error_at(Parser *p, int kind, int l, int c, int el, int ec, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
static void *error_at(Parser *p, int kind, int l, int c, int el, int ec, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(p, kind, l, c, el, ec, fmt, ap);
    va_end(ap);
    return NULL;
}

static void *error_tok(Parser *p, const Token *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void *error_tok(Parser *p, const Token *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(p, SYNERR_SYNTAX, t->lineno, t->col, t->end_lineno, t->end_col, fmt, ap);
    va_end(ap);
    return NULL;
}

/* Error spanning expression a to expression b. */
static void *error_exprs(Parser *p, expr_ty a, expr_ty b, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void *error_exprs(Parser *p, expr_ty a, expr_ty b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(p, SYNERR_SYNTAX, a->lineno, a->col_offset, b->end_lineno, b->end_col_offset, fmt, ap);
    va_end(ap);
    return NULL;
}

/* The generic error: "invalid syntax" at the furthest token looked at,
 * unless (as CPython) the end of file came inside brackets, an indent is
 * unexpected, or the tokenizer fails later in the file. */
static void *syntax_error(Parser *p)
{
    if (p->failed)
        return NULL;
    Token *t = &p->toks[p->max_pos < p->ntoks ? p->max_pos : p->ntoks - 1];
    if (t->type == T_LEXERROR) {
        raise_lex_error(p);
        return NULL;
    }
    if (t->type == T_ENDMARKER && p->unclosed)
        return error_at(p, 0, p->unclosed_line, p->unclosed_col, p->unclosed_line, p->unclosed_col + 1,
                        "'%c' was never closed", p->unclosed);
    if (t->type == T_INDENT)
        return error_at(p, SYNERR_INDENTATION, t->lineno, t->col - 1, t->lineno, t->col, "unexpected indent");
    if (t->type == T_DEDENT)
        return error_at(p, SYNERR_INDENTATION, t->lineno, t->col - 1, t->lineno, t->col, "unexpected unindent");
    if (p->lex_failed) {
        raise_lex_error(p);
        p->lex_override = 1;
        return NULL;
    }
    p->generic_error = 1;
    return error_tok(p, t, "invalid syntax");
}

/* Nesting guard: "too many nested levels" instead of a C stack overflow
 * (and a tree the compiler could not recurse over). */
static int enter(Parser *p)
{
    if (++p->depth > PARSE_MAX_DEPTH) {
        Token *t = cur(p);
        error_tok(p, t, "too many nested levels");
        return -1;
    }
    return 0;
}
static inline void leave(Parser *p) { p->depth--; }

/* ------------------------------------------------------------------ */
/* Node construction                                                   */
/* ------------------------------------------------------------------ */
static expr_ty new_expr(Parser *p, enum _expr_kind kind)
{
    expr_ty e = arena_alloc(p->arena, sizeof(struct _expr));
    if (!e)
        return nomem(p);
    e->kind = kind;
    return e;
}
static stmt_ty new_stmt(Parser *p, enum _stmt_kind kind, const Token *start)
{
    stmt_ty s = arena_alloc(p->arena, sizeof(struct _stmt));
    if (!s)
        return nomem(p);
    s->kind = kind;
    s->lineno = start->lineno;
    s->col_offset = start->col;
    return s;
}
/* The last token consumed (expressions end there: CPython's node ends
 * include the closing parenthesis of a parenthesized last operand). */
static inline Token *prev_tok(Parser *p) { return &p->toks[p->pos > 0 ? p->pos - 1 : 0]; }

/* Statement ends at the last real token consumed. */
static stmt_ty end_stmt(Parser *p, stmt_ty s)
{
    Token *t = last_real(p);
    s->end_lineno = t->end_lineno;
    s->end_col_offset = t->end_col;
    return s;
}
static void pos_tt(expr_ty e, const Token *a, const Token *b)
{
    e->lineno = a->lineno;
    e->col_offset = a->col;
    e->end_lineno = b->end_lineno;
    e->end_col_offset = b->end_col;
}

/* A NAME token's identifier: outside ASCII in its NFKC form (PEP 3131). */
static identifier tok_ident(Parser *p, const Token *t)
{
    size_t n = (size_t)(t->end - t->start);
    bool ascii = true;
    for (size_t i = 0; i < n && ascii; i++)
        ascii = (unsigned char)t->start[i] < 0x80;
    char *s;
    if (ascii) {
        s = arena_strndup(p->arena, t->start, n);
    } else {
        size_t m;
        char *norm = uni_nfkc_utf8(t->start, n, &m);
        s = norm ? arena_strndup(p->arena, norm, m) : NULL;
        free(norm);
    }
    if (!s)
        return nomem(p);
    return s;
}

static expr_ty make_name(Parser *p, const Token *t, expr_context_ty ctx)
{
    expr_ty e = new_expr(p, Name_kind);
    if (!e)
        return NULL;
    e->v.Name.id = tok_ident(p, t);
    if (!e->v.Name.id)
        return NULL;
    e->v.Name.ctx = ctx;
    pos_tt(e, t, t);
    return e;
}

static expr_ty make_tuple(Parser *p, const Vec *elts, expr_context_ty ctx)
{
    expr_ty e = new_expr(p, Tuple_kind);
    if (!e || to_exprs(p, elts, &e->v.Tuple.elts) < 0)
        return NULL;
    e->v.Tuple.ctx = ctx;
    return e;
}

/* Does this token start an expression? (for the "forgot a comma" and
 * legacy print checks) */
static int starts_expression(int type)
{
    switch (type) {
    case T_NAME: case T_NUMBER: case T_STRING: case T_LPAR: case T_LSQB: case T_LBRACE:
    case T_MINUS: case T_PLUS: case T_TILDE: case T_KW_NOT: case T_KW_LAMBDA: case T_KW_AWAIT:
    case T_ELLIPSIS: case T_KW_NONE: case T_KW_TRUE: case T_KW_FALSE:
        return 1;
    }
    return 0;
}

/* The items of a comma-separated list whose first item `first` is parsed
 * and whose comma is next: `, item` while the token after a comma satisfies
 * more(type) (else that comma was a trailing one). 0, or -1 (error set). */
static int parse_comma_items(Parser *p, Vec *v, expr_ty first, expr_ty (*item)(Parser *), int (*more)(int type))
{
    if (vec_push(p, v, first) < 0)
        return -1;
    while (accept(p, T_COMMA)) {
        if (!more(cur(p)->type))
            break;
        expr_ty e = item(p);
        if (!e || vec_push(p, v, e) < 0)
            return -1;
    }
    return 0;
}

/* A tuple of v's items spanning tokens start..end. */
static expr_ty make_tuple_at(Parser *p, const Vec *v, expr_context_ty ctx, Token *start, Token *end)
{
    expr_ty t = make_tuple(p, v, ctx);
    if (t)
        pos_tt(t, start, end);
    return t;
}

static int not_rsqb(int type) { return type != T_RSQB; }
static int not_rpar(int type) { return type != T_RPAR; }
static int starts_target(int type);

/* Saved parser state for a trial parse. */
typedef struct Mark {
    int pos, max_pos, depth, failed;
    SyntaxErrorInfo err;
} Mark;
static void mark_save(Parser *p, Mark *m)
{
    m->pos = p->pos;
    m->max_pos = p->max_pos;
    m->depth = p->depth;
    m->failed = p->failed;
    m->err = *p->err;
}
static void mark_restore(Parser *p, const Mark *m)
{
    int oom = p->failed && p->err->kind == SYNERR_NOMEMORY;
    p->pos = m->pos;
    p->max_pos = m->max_pos;
    p->depth = m->depth;
    if (oom)
        return;   /* out of memory is never undone */
    if (p->failed && !m->failed)
        p->generic_error = 0;
    p->failed = m->failed;
    *p->err = m->err;
}

/* ------------------------------------------------------------------ */
/* Expression helpers                                                  */
/* ------------------------------------------------------------------ */
static expr_ty parse_expression(Parser *p);
static expr_ty parse_named_expression(Parser *p);
static expr_ty parse_star_expressions(Parser *p);
static expr_ty parse_star_expression(Parser *p);
static expr_ty parse_star_named_expression(Parser *p);
static expr_ty parse_disjunction(Parser *p);
static expr_ty parse_bitwise_or(Parser *p);
static expr_ty parse_yield_expr(Parser *p);
static expr_ty parse_atom(Parser *p);
static expr_ty parse_strings(Parser *p) __attribute__((noinline));
static int parse_for_if_clauses(Parser *p, comprehension_seq *out);
static arguments_ty parse_params(Parser *p, int lambda);

/* Name of an expression kind in "cannot assign to ..." messages. */
static const char *expr_name(expr_ty e)
{
    switch (e->kind) {
    case Attribute_kind: return "attribute";
    case Subscript_kind: return "subscript";
    case Starred_kind: return "starred";
    case Name_kind: return "name";
    case List_kind: return "list";
    case Tuple_kind: return "tuple";
    case Lambda_kind: return "lambda";
    case Call_kind: return "function call";
    case BoolOp_kind: case BinOp_kind: case UnaryOp_kind: return "expression";
    case GeneratorExp_kind: return "generator expression";
    case Yield_kind: case YieldFrom_kind: return "yield expression";
    case Await_kind: return "await expression";
    case ListComp_kind: return "list comprehension";
    case SetComp_kind: return "set comprehension";
    case DictComp_kind: return "dict comprehension";
    case Dict_kind: return "dict literal";
    case Set_kind: return "set display";
    case JoinedStr_kind: case FormattedValue_kind: return "f-string expression";
    case Constant_kind:
        switch (e->v.Constant.value.kind) {
        case CONST_NONE: return "None";
        case CONST_TRUE: return "True";
        case CONST_FALSE: return "False";
        case CONST_ELLIPSIS: return "ellipsis";
        default: return "literal";
        }
    case Compare_kind: return "comparison";
    case IfExp_kind: return "conditional expression";
    case NamedExpr_kind: return "named expression";
    case Slice_kind: return "slice";
    }
    return "expression";
}

/* Index of the token starting at (line, col), or of the first token at or
 * after it. */
static int tok_index_at(Parser *p, int line, int col)
{
    int lo = 0, hi = p->ntoks - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        Token *t = &p->toks[mid];
        if (t->lineno < line || (t->lineno == line && t->col < col))
            lo = mid + 1;
        else
            hi = mid;
    }
    /* Zero-width tokens (INDENT/DEDENT/NEWLINE at EOF) may share a position: take the first real one. */
    while (lo < p->ntoks - 1 && (p->toks[lo].type == T_INDENT || p->toks[lo].type == T_DEDENT) &&
           p->toks[lo].start == p->toks[lo].end)
        lo++;
    return lo;
}

/* Is e in parentheses of its own: `(e)`? */
static int is_parenthesized(Parser *p, expr_ty e)
{
    int i = tok_index_at(p, e->lineno, e->col_offset);
    if (i <= 0 || p->toks[i - 1].type != T_LPAR)
        return 0;
    int j = tok_index_at(p, e->end_lineno, e->end_col_offset);
    return j < p->ntoks && p->toks[j].type == T_RPAR;
}

/* Would CPython's grammar see e as a `bitwise_or` (an operand, not a
 * comparison, not/and/or, conditional, lambda, starred, yield...)? */
static int is_bitor_level(Parser *p, expr_ty e)
{
    switch (e->kind) {
    case BoolOp_kind: case Compare_kind: case IfExp_kind: case Lambda_kind: case NamedExpr_kind:
    case Starred_kind: case Yield_kind: case YieldFrom_kind:
        return is_parenthesized(p, e);
    case UnaryOp_kind:
        return e->v.UnaryOp.op != AST_Not || is_parenthesized(p, e);
    case Tuple_kind: {
        int i = tok_index_at(p, e->lineno, e->col_offset);
        return p->toks[i].type == T_LPAR && e->v.Tuple.elts.n > 0 &&
               (e->v.Tuple.elts.items[0]->lineno != e->lineno ||
                e->v.Tuple.elts.items[0]->col_offset != e->col_offset);
    }
    default:
        return 1;
    }
}

static int is_const_kind(expr_ty e, constant_kind k)
{
    return e->kind == Constant_kind && e->v.Constant.value.kind == k;
}

/* The first node of e that cannot be a target (NULL: e is a valid target). */
static expr_ty invalid_target(expr_ty e, int del)
{
    switch (e->kind) {
    case Name_kind: case Attribute_kind: case Subscript_kind:
        return NULL;
    case Starred_kind:
        if (del)
            return e;
        return invalid_target(e->v.Starred.value, del);
    case List_kind: case Tuple_kind:
        for (int i = 0; i < e->v.List.elts.n; i++) {
            expr_ty r = invalid_target(e->v.List.elts.items[i], del);
            if (r)
                return r;
        }
        return NULL;
    default:
        return e;
    }
}

static void set_ctx(expr_ty e, expr_context_ty ctx)
{
    switch (e->kind) {
    case Name_kind: e->v.Name.ctx = ctx; break;
    case Attribute_kind: e->v.Attribute.ctx = ctx; break;
    case Subscript_kind: e->v.Subscript.ctx = ctx; break;
    case Starred_kind:
        e->v.Starred.ctx = ctx;
        set_ctx(e->v.Starred.value, ctx);
        break;
    case List_kind: case Tuple_kind:
        e->v.List.ctx = ctx;
        for (int i = 0; i < e->v.List.elts.n; i++)
            set_ctx(e->v.List.elts.items[i], ctx);
        break;
    default: break;
    }
}

/* Validate a target and give it ctx Store (or Del). */
static expr_ty make_target(Parser *p, expr_ty e, int del)
{
    expr_ty bad = invalid_target(e, del);
    if (bad)
        return error_exprs(p, bad, bad, del ? "cannot delete %s" : "cannot assign to %s", expr_name(bad));
    set_ctx(e, del ? AST_Del : AST_Store);
    return e;
}

/* CPython's invalid_expression: `a b` inside brackets. Called after a
 * disjunction `a` when the next token starts an expression (never valid). */
__attribute__((noinline)) static void check_forgot_comma(Parser *p, expr_ty a, int start_pos)
{
    if (p->no_invalid)
        return;
    Token *s = &p->toks[start_pos];
    if (s->type == T_NAME && start_pos + 1 < p->ntoks && p->toks[start_pos + 1].type == T_STRING)
        return;
    if (tok_is_name(s, "match") || tok_is_name(s, "case") || tok_is_name(s, "_"))
        return;
    Mark m;
    mark_save(p, &m);
    p->no_invalid++;
    expr_ty b = parse_expression(p);
    p->no_invalid--;
    int ok = b && !p->failed;
    int level = p->toks[p->pos > 0 ? p->pos - 1 : 0].level;
    mark_restore(p, &m);
    if (ok && level > 0)
        error_exprs(p, a, b, "invalid syntax. Perhaps you forgot a comma?");
}

/* `x = 1` where an expression is expected (if x = 1:, [x = 1]). */
__attribute__((noinline)) static void check_mistaken_assign(Parser *p, expr_ty a, int start_pos)
{
    if (p->no_invalid || !is_bitor_level(p, a))
        return;
    Mark m;
    mark_save(p, &m);
    advance(p);   /* '=' */
    int t = cur(p)->type;
    int ok = 0;
    expr_ty b = NULL;
    if (starts_expression(t) && t != T_KW_NOT && t != T_KW_LAMBDA) {
        p->no_invalid++;
        b = parse_bitwise_or(p);
        p->no_invalid--;
        ok = b && !p->failed && !at(p, T_EQUAL) && !at(p, T_COLONEQUAL);
    }
    mark_restore(p, &m);
    if (!ok)
        return;
    if (a->kind == Name_kind && p->toks[start_pos].type == T_NAME)
        error_exprs(p, a, b, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
    else if (a->kind != List_kind && a->kind != Tuple_kind && a->kind != GeneratorExp_kind &&
             !is_const_kind(a, CONST_TRUE) && !is_const_kind(a, CONST_FALSE) && !is_const_kind(a, CONST_NONE))
        error_exprs(p, a, a, "cannot assign to %s here. Maybe you meant '==' instead of '='?", expr_name(a));
}

/* ------------------------------------------------------------------ */
/* Expressions, from the lowest precedence up                          */
/* ------------------------------------------------------------------ */
static expr_ty parse_lambda(Parser *p)
{
    Token *t = advance(p);   /* lambda */
    arguments_ty args = parse_params(p, 1);
    if (!args)
        return NULL;
    if (!accept(p, T_COLON))
        return syntax_error(p);
    expr_ty body = parse_expression(p);
    if (!body)
        return NULL;
    expr_ty e = new_expr(p, Lambda_kind);
    if (!e)
        return NULL;
    e->v.Lambda.args = args;
    e->v.Lambda.body = body;
    pos_tt(e, t, prev_tok(p));
    return e;
}

/* expression: lambda | disjunction ['if' disjunction 'else' expression] */
static expr_ty parse_expression_inner(Parser *p)
{
    if (at(p, T_KW_LAMBDA))
        return parse_lambda(p);
    int start_pos = p->pos;
    Token *st = cur(p);
    expr_ty a = parse_disjunction(p);
    if (!a)
        return NULL;
    if (at(p, T_KW_IF)) {
        advance(p);
        expr_ty test = parse_disjunction(p);
        if (!test)
            return NULL;
        if (!at(p, T_KW_ELSE)) {
            if (at(p, T_COLON) || p->no_invalid)
                return syntax_error(p);
            return error_exprs(p, a, test, "expected 'else' after 'if' expression");
        }
        advance(p);
        expr_ty orelse = parse_expression(p);
        if (!orelse)
            return NULL;
        expr_ty e = new_expr(p, IfExp_kind);
        if (!e)
            return NULL;
        e->v.IfExp.test = test;
        e->v.IfExp.body = a;
        e->v.IfExp.orelse = orelse;
        pos_tt(e, st, prev_tok(p));
        return e;
    }
    if (starts_expression(cur(p)->type)) {
        check_forgot_comma(p, a, start_pos);
        if (p->failed)
            return NULL;
    }
    return a;
}

static expr_ty parse_expression(Parser *p)
{
    if (enter(p) < 0)
        return NULL;
    expr_ty e = parse_expression_inner(p);
    leave(p);
    return e;
}

static expr_ty parse_boolop(Parser *p, int kwtype, boolop_ty op, expr_ty (*operand)(Parser *))
{
    Token *st = cur(p);
    expr_ty a = operand(p);
    if (!a || !at(p, kwtype))
        return a;
    Vec v = {0};
    if (vec_push(p, &v, a) < 0)
        return NULL;
    expr_ty last = a;
    while (accept(p, kwtype)) {
        last = operand(p);
        if (!last || vec_push(p, &v, last) < 0)
            return NULL;
    }
    expr_ty e = new_expr(p, BoolOp_kind);
    if (!e || to_exprs(p, &v, &e->v.BoolOp.values) < 0)
        return NULL;
    e->v.BoolOp.op = op;
    pos_tt(e, st, prev_tok(p));
    return e;
}

static expr_ty parse_comparison(Parser *p);

/* Prefix operators (not / unary + - ~) are collected in a loop, not by
 * recursion: long chains must not use C stack. Returns how many, or -1. */
static int prefix_ops(Parser *p, Vec *toks, int is_not)
{
    for (;;) {
        int t = cur(p)->type;
        if (is_not ? t != T_KW_NOT : (t != T_PLUS && t != T_MINUS && t != T_TILDE))
            return toks->n;
        if (toks->n + p->depth >= PARSE_MAX_DEPTH) {
            error_tok(p, cur(p), "too many nested levels");
            return -1;
        }
        if (vec_push(p, toks, advance(p)) < 0)
            return -1;
    }
}

/* Height of a subtree, memoized in e->depth_. Operator, attribute, call
 * and subscript chains and prefix operators set it when they are built (they
 * are the only way to nest without parser recursion), so the recursion
 * here stays within the parser's own nesting. */
static int expr_depth(expr_ty e);
static int seq_depth(expr_seq s)
{
    int d = 0;
    for (int i = 0; i < s.n; i++) {
        if (s.items[i]) {
            int k = expr_depth(s.items[i]);
            if (k > d)
                d = k;
        }
    }
    return d;
}
static int max2(int a, int b) { return a > b ? a : b; }
static int opt_depth(expr_ty e) { return e ? expr_depth(e) : 0; }
static int comps_depth(comprehension_seq g)
{
    int d = 0;
    for (int i = 0; i < g.n; i++)
        d = max2(d, max2(max2(expr_depth(g.items[i]->target), expr_depth(g.items[i]->iter)), seq_depth(g.items[i]->ifs)));
    return d;
}
static int args_depth(arguments_ty a)
{
    return max2(seq_depth(a->defaults), seq_depth(a->kw_defaults));
}
static int expr_depth(expr_ty e)
{
    if (e->depth_)
        return e->depth_;
    int d = 0;
    switch (e->kind) {
    case BoolOp_kind: d = seq_depth(e->v.BoolOp.values); break;
    case NamedExpr_kind: d = expr_depth(e->v.NamedExpr.value); break;
    case BinOp_kind: d = max2(expr_depth(e->v.BinOp.left), expr_depth(e->v.BinOp.right)); break;
    case UnaryOp_kind: d = expr_depth(e->v.UnaryOp.operand); break;
    case Lambda_kind: d = max2(args_depth(e->v.Lambda.args), expr_depth(e->v.Lambda.body)); break;
    case IfExp_kind:
        d = max2(expr_depth(e->v.IfExp.test), max2(expr_depth(e->v.IfExp.body), expr_depth(e->v.IfExp.orelse)));
        break;
    case Dict_kind: d = max2(seq_depth(e->v.Dict.keys), seq_depth(e->v.Dict.values)); break;
    case Set_kind: d = seq_depth(e->v.Set.elts); break;
    case ListComp_kind: case SetComp_kind: case GeneratorExp_kind:
        d = max2(expr_depth(e->v.ListComp.elt), comps_depth(e->v.ListComp.generators));
        break;
    case DictComp_kind:
        d = max2(max2(expr_depth(e->v.DictComp.key), expr_depth(e->v.DictComp.value)),
                 comps_depth(e->v.DictComp.generators));
        break;
    case Yield_kind: d = opt_depth(e->v.Yield.value); break;
    case YieldFrom_kind: d = expr_depth(e->v.YieldFrom.value); break;
    case Await_kind: d = expr_depth(e->v.Await.value); break;
    case Compare_kind: d = max2(expr_depth(e->v.Compare.left), seq_depth(e->v.Compare.comparators)); break;
    case Call_kind:
        d = max2(expr_depth(e->v.Call.func), seq_depth(e->v.Call.args));
        for (int i = 0; i < e->v.Call.keywords.n; i++)
            d = max2(d, expr_depth(e->v.Call.keywords.items[i]->value));
        break;
    case FormattedValue_kind:
        d = max2(expr_depth(e->v.FormattedValue.value), opt_depth(e->v.FormattedValue.format_spec));
        break;
    case JoinedStr_kind: d = seq_depth(e->v.JoinedStr.values); break;
    case Constant_kind: case Name_kind: d = 0; break;
    case Attribute_kind: d = expr_depth(e->v.Attribute.value); break;
    case Subscript_kind: d = max2(expr_depth(e->v.Subscript.value), expr_depth(e->v.Subscript.slice)); break;
    case Starred_kind: d = expr_depth(e->v.Starred.value); break;
    case List_kind: case Tuple_kind: d = seq_depth(e->v.List.elts); break;
    case Slice_kind:
        d = max2(opt_depth(e->v.Slice.lower), max2(opt_depth(e->v.Slice.upper), opt_depth(e->v.Slice.step)));
        break;
    }
    e->depth_ = d + 1;
    return e->depth_;
}

/* A chain node was built on top of e: check the height limit. */
static expr_ty check_height(Parser *p, expr_ty e)
{
    if (expr_depth(e) + p->depth > PARSE_MAX_DEPTH)
        return error_exprs(p, e, e, "too many nested levels");
    return e;
}

/* Wrap e in the collected prefix operators, innermost last. */
static expr_ty wrap_prefix_ops(Parser *p, Vec *toks, expr_ty e)
{
    Token *end = prev_tok(p);
    for (int i = toks->n - 1; i >= 0 && e; i--) {
        Token *t = toks->items[i];
        expr_ty u = new_expr(p, UnaryOp_kind);
        if (!u)
            return NULL;
        u->v.UnaryOp.op = t->type == T_KW_NOT ? AST_Not : t->type == T_PLUS ? AST_UAdd : t->type == T_MINUS ? AST_USub : AST_Invert;
        u->v.UnaryOp.operand = e;
        pos_tt(u, t, end);
        u->depth_ = expr_depth(e) + 1;
        e = u;
    }
    return e ? check_height(p, e) : NULL;
}

static expr_ty parse_inversion(Parser *p)
{
    if (!at(p, T_KW_NOT))
        return parse_comparison(p);
    Vec toks = {0};
    int n = prefix_ops(p, &toks, 1);
    if (n < 0)
        return NULL;
    p->depth += n;
    expr_ty o = parse_comparison(p);
    p->depth -= n;
    if (!o)
        return NULL;
    return wrap_prefix_ops(p, &toks, o);
}

static expr_ty parse_conjunction(Parser *p) { return parse_boolop(p, T_KW_AND, AST_And, parse_inversion); }
static expr_ty parse_disjunction(Parser *p) { return parse_boolop(p, T_KW_OR, AST_Or, parse_conjunction); }

/* The comparison operator at the current token (0: none); consumes it. */
static int take_cmpop(Parser *p)
{
    switch (cur(p)->type) {
    case T_EQEQUAL: advance(p); return AST_Eq;
    case T_NOTEQUAL: advance(p); return AST_NotEq;
    case T_LESS: advance(p); return AST_Lt;
    case T_LESSEQUAL: advance(p); return AST_LtE;
    case T_GREATER: advance(p); return AST_Gt;
    case T_GREATEREQUAL: advance(p); return AST_GtE;
    case T_KW_IN: advance(p); return AST_In;
    case T_KW_NOT:
        if (peek(p, 1) == T_KW_IN) {
            advance(p);
            advance(p);
            return AST_NotIn;
        }
        return 0;
    case T_KW_IS:
        advance(p);
        if (accept(p, T_KW_NOT))
            return AST_IsNot;
        return AST_Is;
    }
    return 0;
}

static expr_ty parse_comparison(Parser *p)
{
    Token *st = cur(p);
    expr_ty a = parse_bitwise_or(p);
    if (!a)
        return NULL;
    int op = take_cmpop(p);
    if (!op)
        return a;
    Vec ops = {0}, comps = {0};
    expr_ty last = NULL;
    while (op) {
        last = parse_bitwise_or(p);
        if (!last)
            return NULL;
        if (vec_push(p, &ops, (void *)(intptr_t)op) < 0 || vec_push(p, &comps, last) < 0)
            return NULL;
        op = take_cmpop(p);
    }
    expr_ty e = new_expr(p, Compare_kind);
    if (!e || to_exprs(p, &comps, &e->v.Compare.comparators) < 0)
        return NULL;
    e->v.Compare.left = a;
    e->v.Compare.ops.n = ops.n;
    e->v.Compare.ops.items = arena_alloc(p->arena, sizeof(cmpop_ty) * (size_t)ops.n);
    if (!e->v.Compare.ops.items)
        return nomem(p);
    for (int i = 0; i < ops.n; i++)
        e->v.Compare.ops.items[i] = (cmpop_ty)(intptr_t)ops.items[i];
    pos_tt(e, st, prev_tok(p));
    return e;
}

/* Binary operator precedence: | 1, ^ 2, & 3, << >> 4, + - 5, * / // % @ 6. */
static int binop_prec(int type, operator_ty *op)
{
    switch (type) {
    case T_VBAR: *op = AST_BitOr; return 1;
    case T_CIRCUMFLEX: *op = AST_BitXor; return 2;
    case T_AMPER: *op = AST_BitAnd; return 3;
    case T_LEFTSHIFT: *op = AST_LShift; return 4;
    case T_RIGHTSHIFT: *op = AST_RShift; return 4;
    case T_PLUS: *op = AST_Add; return 5;
    case T_MINUS: *op = AST_Sub; return 5;
    case T_STAR: *op = AST_Mult; return 6;
    case T_SLASH: *op = AST_Div; return 6;
    case T_DOUBLESLASH: *op = AST_FloorDiv; return 6;
    case T_PERCENT: *op = AST_Mod; return 6;
    case T_AT: *op = AST_MatMult; return 6;
    }
    return 0;
}

static expr_ty parse_factor(Parser *p);

static expr_ty parse_binary(Parser *p, int min_prec)
{
    Token *st = cur(p);
    expr_ty left = parse_factor(p);
    if (!left)
        return NULL;
    for (;;) {
        operator_ty op;
        int prec = binop_prec(cur(p)->type, &op);
        if (prec == 0 || prec < min_prec)
            return left;
        advance(p);
        expr_ty right = prec < 6 ? parse_binary(p, prec + 1) : parse_factor(p);
        if (!right)
            return NULL;
        expr_ty e = new_expr(p, BinOp_kind);
        if (!e)
            return NULL;
        e->v.BinOp.left = left;
        e->v.BinOp.op = op;
        e->v.BinOp.right = right;
        pos_tt(e, st, prev_tok(p));
        e->depth_ = max2(expr_depth(left), expr_depth(right)) + 1;
        if (!check_height(p, e))
            return NULL;
        left = e;
    }
}

static expr_ty parse_bitwise_or(Parser *p) { return parse_binary(p, 1); }

static expr_ty parse_power(Parser *p);

static expr_ty parse_factor(Parser *p)
{
    int type = cur(p)->type;
    if (type != T_PLUS && type != T_MINUS && type != T_TILDE)
        return parse_power(p);
    Vec toks = {0};
    int n = prefix_ops(p, &toks, 0);
    if (n < 0)
        return NULL;
    p->depth += n;
    expr_ty o = parse_power(p);
    p->depth -= n;
    if (!o)
        return NULL;
    return wrap_prefix_ops(p, &toks, o);
}

static expr_ty parse_primary(Parser *p);

/* await_primary: 'await' primary | primary */
static expr_ty parse_await_primary(Parser *p)
{
    if (!at(p, T_KW_AWAIT))
        return parse_primary(p);
    Token *st = advance(p);
    if (enter(p) < 0)
        return NULL;
    expr_ty v = parse_primary(p);
    leave(p);
    if (!v)
        return NULL;
    expr_ty e = new_expr(p, Await_kind);
    if (!e)
        return NULL;
    e->v.Await.value = v;
    pos_tt(e, st, prev_tok(p));
    return e;
}

static expr_ty parse_power(Parser *p)
{
    Token *st = cur(p);
    expr_ty a = parse_await_primary(p);
    if (!a || !at(p, T_DOUBLESTAR))
        return a;
    advance(p);
    if (enter(p) < 0)
        return NULL;
    expr_ty b = parse_factor(p);
    leave(p);
    if (!b)
        return NULL;
    expr_ty e = new_expr(p, BinOp_kind);
    if (!e)
        return NULL;
    e->v.BinOp.left = a;
    e->v.BinOp.op = AST_Pow;
    e->v.BinOp.right = b;
    pos_tt(e, st, prev_tok(p));
    return e;
}

/* Call arguments after '(' up to (not including) ')'. Positional
 * arguments go to args, keywords to kws. A generator expression as the
 * sole argument is returned in *genexp_elt/clauses (the caller makes the
 * node, since its position is the call's parentheses). */
static int parse_call_args(Parser *p, Vec *args, Vec *kws, expr_ty *genexp)
{
    int seen_kw = 0, seen_kwunpack = 0;
    *genexp = NULL;
    while (!at(p, T_RPAR)) {
        Token *t = cur(p);
        if (t->type == T_STAR) {
            if (seen_kwunpack) {
                error_tok(p, t, "iterable argument unpacking follows keyword argument unpacking");
                return -1;
            }
            advance(p);
            expr_ty v = parse_expression(p);
            if (!v)
                return -1;
            expr_ty s = new_expr(p, Starred_kind);
            if (!s)
                return -1;
            s->v.Starred.value = v;
            s->v.Starred.ctx = AST_Load;
            pos_tt(s, t, prev_tok(p));
            if (vec_push(p, args, s) < 0)
                return -1;
        } else if (t->type == T_DOUBLESTAR) {
            advance(p);
            expr_ty v = parse_expression(p);
            if (!v)
                return -1;
            keyword_ty k = arena_alloc(p->arena, sizeof(struct _keyword));
            if (!k) {
                nomem(p);
                return -1;
            }
            k->value = v;
            k->lineno = t->lineno;
            k->col_offset = t->col;
            k->end_lineno = prev_tok(p)->end_lineno;
            k->end_col_offset = prev_tok(p)->end_col;
            if (vec_push(p, kws, k) < 0)
                return -1;
            seen_kwunpack = 1;
        } else if (t->type == T_NAME && peek(p, 1) == T_EQUAL) {
            advance(p);
            Token *eq = advance(p);
            expr_ty v = parse_expression(p);
            if (!v)
                return -1;
            if (at(p, T_KW_FOR)) {
                error_at(p, 0, t->lineno, t->col, eq->end_lineno, eq->end_col,
                         "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
                return -1;
            }
            keyword_ty k = arena_alloc(p->arena, sizeof(struct _keyword));
            if (!k) {
                nomem(p);
                return -1;
            }
            k->arg = tok_ident(p, t);
            if (!k->arg)
                return -1;
            k->value = v;
            k->lineno = t->lineno;
            k->col_offset = t->col;
            k->end_lineno = prev_tok(p)->end_lineno;
            k->end_col_offset = prev_tok(p)->end_col;
            if (vec_push(p, kws, k) < 0)
                return -1;
            seen_kw = 1;
        } else if ((t->type == T_KW_TRUE || t->type == T_KW_FALSE || t->type == T_KW_NONE) &&
                   peek(p, 1) == T_EQUAL) {
            Token *eq = &p->toks[p->pos + 1];
            error_at(p, 0, t->lineno, t->col, eq->end_lineno, eq->end_col, "cannot assign to %s", token_text[t->type]);
            return -1;
        } else {
            expr_ty a;
            if (t->type == T_NAME && peek(p, 1) == T_COLONEQUAL) {
                a = parse_named_expression(p);
                if (!a)
                    return -1;
            } else {
                a = parse_expression(p);
                if (!a)
                    return -1;
                if (at(p, T_COLONEQUAL)) {
                    error_exprs(p, a, a, "cannot use assignment expressions with %s", expr_name(a));
                    return -1;
                }
                if (at(p, T_EQUAL)) {
                    Token *eq = cur(p);
                    error_at(p, 0, a->lineno, a->col_offset, eq->end_lineno, eq->end_col,
                             "expression cannot contain assignment, perhaps you meant \"==\"?");
                    return -1;
                }
            }
            if (at(p, T_KW_FOR) || at(p, T_KW_ASYNC)) {
                comprehension_seq gens;
                if (parse_for_if_clauses(p, &gens) < 0)
                    return -1;
                expr_ty g = new_expr(p, GeneratorExp_kind);
                if (!g)
                    return -1;
                g->v.GeneratorExp.elt = a;
                g->v.GeneratorExp.generators = gens;
                pos_tt(g, t, prev_tok(p));
                if (args->n || kws->n || !at(p, T_RPAR)) {
                    error_exprs(p, g, g, "Generator expression must be parenthesized");
                    return -1;
                }
                *genexp = g;
                if (vec_push(p, args, g) < 0)
                    return -1;
                continue;
            }
            if (seen_kwunpack || seen_kw) {
                error_tok(p, cur(p), seen_kwunpack ? "positional argument follows keyword argument unpacking"
                                                   : "positional argument follows keyword argument");
                return -1;
            }
            if (vec_push(p, args, a) < 0)
                return -1;
        }
        if (!accept(p, T_COMMA))
            break;
        if (*genexp) {
            error_exprs(p, *genexp, *genexp, "Generator expression must be parenthesized");
            return -1;
        }
    }
    if (*genexp && args->n > 1) {
        error_exprs(p, *genexp, *genexp, "Generator expression must be parenthesized");
        return -1;
    }
    return 0;
}

static expr_ty parse_call(Parser *p, expr_ty func, const Token *start)
{
    Token *lpar = advance(p);
    Vec args = {0}, kws = {0};
    expr_ty genexp;
    if (parse_call_args(p, &args, &kws, &genexp) < 0)
        return NULL;
    if (!at(p, T_RPAR))
        return syntax_error(p);
    Token *rpar = advance(p);
    if (genexp)
        pos_tt(genexp, lpar, rpar);
    expr_ty e = new_expr(p, Call_kind);
    if (!e || to_exprs(p, &args, &e->v.Call.args) < 0 || to_keywords(p, &kws, &e->v.Call.keywords) < 0)
        return NULL;
    e->v.Call.func = func;
    pos_tt(e, start, rpar);
    return e;
}

/* One element of a subscript: a slice, a named expression or *starred. */
static expr_ty parse_slice_item(Parser *p)
{
    Token *start = cur(p);
    if (start->type == T_STAR) {
        advance(p);
        expr_ty v = parse_bitwise_or(p);
        if (!v)
            return NULL;
        expr_ty s = new_expr(p, Starred_kind);
        if (!s)
            return NULL;
        s->v.Starred.value = v;
        s->v.Starred.ctx = AST_Load;
        pos_tt(s, start, prev_tok(p));
        return s;
    }
    expr_ty lower = NULL, upper = NULL, step = NULL;
    if (!at(p, T_COLON)) {
        lower = parse_named_expression(p);
        if (!lower)
            return NULL;
        if (!at(p, T_COLON))
            return lower;
        if (lower->kind == NamedExpr_kind && !is_parenthesized(p, lower))
            return syntax_error(p);
    }
    advance(p);   /* ':' */
    if (!at(p, T_COLON) && !at(p, T_COMMA) && !at(p, T_RSQB)) {
        upper = parse_expression(p);
        if (!upper)
            return NULL;
    }
    if (accept(p, T_COLON)) {
        if (!at(p, T_COMMA) && !at(p, T_RSQB)) {
            step = parse_expression(p);
            if (!step)
                return NULL;
        }
    }
    expr_ty e = new_expr(p, Slice_kind);
    if (!e)
        return NULL;
    e->v.Slice.lower = lower;
    e->v.Slice.upper = upper;
    e->v.Slice.step = step;
    pos_tt(e, start, last_real(p));
    return e;
}

static expr_ty parse_slices(Parser *p)
{
    Token *start = cur(p);
    expr_ty first = parse_slice_item(p);
    if (!first)
        return NULL;
    if (!at(p, T_COMMA) && first->kind != Starred_kind)
        return first;
    Vec v = {0};
    if (parse_comma_items(p, &v, first, parse_slice_item, not_rsqb) < 0)
        return NULL;
    return make_tuple_at(p, &v, AST_Load, start, last_real(p));
}

static expr_ty parse_primary(Parser *p)
{
    Token *st = cur(p);
    expr_ty a = parse_atom(p);
    if (!a)
        return NULL;
    for (;;) {
        int type = cur(p)->type;
        if (type == T_DOT) {
            advance(p);
            if (!at(p, T_NAME))
                return syntax_error(p);
            Token *n = advance(p);
            expr_ty e = new_expr(p, Attribute_kind);
            if (!e)
                return NULL;
            e->v.Attribute.value = a;
            e->v.Attribute.attr = tok_ident(p, n);
            if (!e->v.Attribute.attr)
                return NULL;
            e->v.Attribute.ctx = AST_Load;
            pos_tt(e, st, n);
            a = e;
        } else if (type == T_LPAR) {
            a = parse_call(p, a, st);
            if (!a)
                return NULL;
        } else if (type == T_LSQB) {
            advance(p);
            expr_ty s = parse_slices(p);
            if (!s)
                return NULL;
            if (!at(p, T_RSQB))
                return syntax_error(p);
            Token *r = advance(p);
            expr_ty e = new_expr(p, Subscript_kind);
            if (!e)
                return NULL;
            e->v.Subscript.value = a;
            e->v.Subscript.slice = s;
            e->v.Subscript.ctx = AST_Load;
            pos_tt(e, st, r);
            a = e;
        } else
            return a;
        a->depth_ = 0;
        if (!check_height(p, a))
            return NULL;
    }
}

static expr_ty make_constant(Parser *p, const Token *t, constant_kind kind)
{
    expr_ty e = new_expr(p, Constant_kind);
    if (!e)
        return NULL;
    e->v.Constant.value.kind = kind;
    pos_tt(e, t, t);
    return e;
}

static expr_ty make_comp(Parser *p, enum _expr_kind kind, expr_ty elt, expr_ty value, const Token *open)
{
    comprehension_seq gens;
    if (parse_for_if_clauses(p, &gens) < 0)
        return NULL;
    int close = kind == ListComp_kind ? T_RSQB : kind == GeneratorExp_kind ? T_RPAR : T_RBRACE;
    if (!at(p, close))
        return syntax_error(p);
    Token *c = advance(p);
    expr_ty e = new_expr(p, kind);
    if (!e)
        return NULL;
    if (kind == DictComp_kind) {
        e->v.DictComp.key = elt;
        e->v.DictComp.value = value;
        e->v.DictComp.generators = gens;
    } else {
        e->v.ListComp.elt = elt;
        e->v.ListComp.generators = gens;
    }
    pos_tt(e, open, c);
    return e;
}

static expr_ty parse_paren(Parser *p)
{
    Token *lpar = advance(p);
    if (at(p, T_RPAR)) {
        Token *r = advance(p);
        Vec v = {0};
        return make_tuple_at(p, &v, AST_Load, lpar, r);
    }
    if (at(p, T_KW_YIELD)) {
        expr_ty y = parse_yield_expr(p);
        if (!y)
            return NULL;
        if (!accept(p, T_RPAR))
            return syntax_error(p);
        return y;
    }
    if (at(p, T_DOUBLESTAR))
        return error_tok(p, cur(p), "cannot use double starred expression here");
    expr_ty a = parse_star_named_expression(p);
    if (!a)
        return NULL;
    if (at(p, T_KW_FOR) || at(p, T_KW_ASYNC)) {
        if (a->kind == Starred_kind)
            return error_exprs(p, a, a, "iterable unpacking cannot be used in comprehension");
        return make_comp(p, GeneratorExp_kind, a, NULL, lpar);
    }
    if (at(p, T_RPAR)) {
        advance(p);
        if (a->kind == Starred_kind)
            return error_exprs(p, a, a, "cannot use starred expression here");
        return a;
    }
    if (!at(p, T_COMMA))
        return syntax_error(p);
    Vec v = {0};
    if (parse_comma_items(p, &v, a, parse_star_named_expression, not_rpar) < 0)
        return NULL;
    if (!at(p, T_RPAR))
        return syntax_error(p);
    Token *r = advance(p);
    return make_tuple_at(p, &v, AST_Load, lpar, r);
}

static expr_ty parse_list(Parser *p)
{
    Token *lsqb = advance(p);
    Vec v = {0};
    if (!at(p, T_RSQB)) {
        expr_ty a = parse_star_named_expression(p);
        if (!a)
            return NULL;
        if (at(p, T_KW_FOR) || at(p, T_KW_ASYNC)) {
            if (a->kind == Starred_kind)
                return error_exprs(p, a, a, "iterable unpacking cannot be used in comprehension");
            return make_comp(p, ListComp_kind, a, NULL, lsqb);
        }
        if (vec_push(p, &v, a) < 0)
            return NULL;
        while (accept(p, T_COMMA)) {
            if (at(p, T_RSQB))
                break;
            expr_ty e = parse_star_named_expression(p);
            if (!e || vec_push(p, &v, e) < 0)
                return NULL;
        }
        if (at(p, T_KW_FOR) && v.n >= 2)
            return error_exprs(p, v.items[0], v.items[v.n - 1],
                               "did you forget parentheses around the comprehension target?");
    }
    if (!at(p, T_RSQB))
        return syntax_error(p);
    Token *r = advance(p);
    expr_ty e = new_expr(p, List_kind);
    if (!e || to_exprs(p, &v, &e->v.List.elts) < 0)
        return NULL;
    e->v.List.ctx = AST_Load;
    pos_tt(e, lsqb, r);
    return e;
}

/* One `key: value` or `**mapping` item of a dict display. */
static int parse_dict_item(Parser *p, Vec *keys, Vec *values)
{
    if (at(p, T_DOUBLESTAR)) {
        advance(p);
        expr_ty v = parse_bitwise_or(p);
        if (!v)
            return -1;
        return vec_push(p, keys, NULL) < 0 || vec_push(p, values, v) < 0 ? -1 : 0;
    }
    expr_ty k = parse_expression(p);
    if (!k)
        return -1;
    if (!at(p, T_COLON)) {
        if (at(p, T_COMMA) || at(p, T_RBRACE)) {
            error_exprs(p, k, k, "':' expected after dictionary key");
            return -1;
        }
        syntax_error(p);
        return -1;
    }
    Token *colon = advance(p);
    if (at(p, T_COMMA) || at(p, T_RBRACE)) {
        error_tok(p, colon, "expression expected after dictionary key and ':'");
        return -1;
    }
    expr_ty v = parse_expression(p);
    if (!v)
        return -1;
    return vec_push(p, keys, k) < 0 || vec_push(p, values, v) < 0 ? -1 : 0;
}

static expr_ty parse_brace(Parser *p)
{
    Token *lb = advance(p);
    Vec keys = {0}, values = {0}, elts = {0};
    int is_dict = 1;
    if (at(p, T_RBRACE))
        goto done;
    if (at(p, T_DOUBLESTAR)) {
        Token *st = cur(p);
        if (parse_dict_item(p, &keys, &values) < 0)
            return NULL;
        if (at(p, T_KW_FOR) || at(p, T_KW_ASYNC)) {
            expr_ty v = values.items[0];
            return error_at(p, 0, st->lineno, st->col, v->end_lineno, v->end_col_offset,
                            "dict unpacking cannot be used in dict comprehension");
        }
    } else {
        expr_ty a = parse_star_named_expression(p);
        if (!a)
            return NULL;
        if (at(p, T_COLON) && a->kind != Starred_kind &&
            !(a->kind == NamedExpr_kind && !is_parenthesized(p, a))) {
            Token *colon = advance(p);
            if (at(p, T_COMMA) || at(p, T_RBRACE))
                return error_tok(p, colon, "expression expected after dictionary key and ':'");
            expr_ty v = parse_expression(p);
            if (!v)
                return NULL;
            if (at(p, T_KW_FOR) || at(p, T_KW_ASYNC))
                return make_comp(p, DictComp_kind, a, v, lb);
            if (vec_push(p, &keys, a) < 0 || vec_push(p, &values, v) < 0)
                return NULL;
        } else {
            is_dict = 0;
            if (at(p, T_KW_FOR) || at(p, T_KW_ASYNC)) {
                if (a->kind == Starred_kind)
                    return error_exprs(p, a, a, "iterable unpacking cannot be used in comprehension");
                return make_comp(p, SetComp_kind, a, NULL, lb);
            }
            if (vec_push(p, &elts, a) < 0)
                return NULL;
        }
    }
    while (accept(p, T_COMMA)) {
        if (at(p, T_RBRACE))
            break;
        if (is_dict) {
            if (parse_dict_item(p, &keys, &values) < 0)
                return NULL;
        } else {
            expr_ty e = parse_star_named_expression(p);
            if (!e || vec_push(p, &elts, e) < 0)
                return NULL;
        }
    }
    if (!is_dict && at(p, T_KW_FOR) && elts.n >= 2)
        return error_exprs(p, elts.items[0], elts.items[elts.n - 1],
                           "did you forget parentheses around the comprehension target?");
done:
    if (!at(p, T_RBRACE))
        return syntax_error(p);
    Token *rb = advance(p);
    expr_ty e;
    if (is_dict) {
        e = new_expr(p, Dict_kind);
        if (!e || to_exprs(p, &keys, &e->v.Dict.keys) < 0 || to_exprs(p, &values, &e->v.Dict.values) < 0)
            return NULL;
    } else {
        e = new_expr(p, Set_kind);
        if (!e || to_exprs(p, &elts, &e->v.Set.elts) < 0)
            return NULL;
    }
    pos_tt(e, lb, rb);
    return e;
}

static expr_ty parse_atom(Parser *p)
{
    Token *t = cur(p);
    switch (t->type) {
    case T_NAME:
        advance(p);
        return make_name(p, t, AST_Load);
    case T_KW_TRUE:
        advance(p);
        return make_constant(p, t, CONST_TRUE);
    case T_KW_FALSE:
        advance(p);
        return make_constant(p, t, CONST_FALSE);
    case T_KW_NONE:
        advance(p);
        return make_constant(p, t, CONST_NONE);
    case T_ELLIPSIS:
        advance(p);
        return make_constant(p, t, CONST_ELLIPSIS);
    case T_NUMBER: {
        advance(p);
        expr_ty e = make_constant(p, t, CONST_INT);
        if (!e)
            return NULL;
        if (lex_decode_number(p->arena, t, &e->v.Constant.value, p->err) < 0) {
            p->failed = 1;
            return NULL;
        }
        const constant *v = &e->v.Constant.value;
        if (v->kind == CONST_INT && v->base == 10 && !v->fits_i64 && p->int_max_digits > 0 &&
            (long long)v->len > p->int_max_digits) {
            /* CPython: the line only (no columns: no wall of carets) */
            error_at(p, SYNERR_SYNTAX, t->lineno, 0, t->end_lineno, 0,
                     "Exceeds the limit (%lld digits) for integer string conversion: value has %zu digits; "
                     "use sys.set_int_max_str_digits() to increase the limit - Consider hexadecimal for huge "
                     "integer literals to avoid decimal conversion limits.", p->int_max_digits, v->len);
            if (p->err->lineno == t->lineno)
                p->err->no_columns = 1;
            return NULL;
        }
        return e;
    }
    case T_STRING:
        return parse_strings(p);
    case T_LPAR:
        return parse_paren(p);
    case T_LSQB:
        return parse_list(p);
    case T_LBRACE:
        return parse_brace(p);
    }
    return syntax_error(p);
}

/* star_expressions: a tuple when there is a comma. */
static expr_ty parse_star_expressions(Parser *p)
{
    Token *start = cur(p);
    expr_ty a = parse_star_expression(p);
    if (!a || !at(p, T_COMMA))
        return a;
    Vec v = {0};
    if (parse_comma_items(p, &v, a, parse_star_expression, starts_target) < 0)
        return NULL;
    return make_tuple_at(p, &v, AST_Load, start, last_real(p));
}

static expr_ty parse_starred(Parser *p)
{
    Token *t = advance(p);   /* '*' */
    expr_ty v = parse_bitwise_or(p);
    if (!v)
        return NULL;
    expr_ty s = new_expr(p, Starred_kind);
    if (!s)
        return NULL;
    s->v.Starred.value = v;
    s->v.Starred.ctx = AST_Load;
    pos_tt(s, t, prev_tok(p));
    return s;
}

static expr_ty parse_star_expression(Parser *p)
{
    if (at(p, T_STAR))
        return parse_starred(p);
    return parse_expression(p);
}

static expr_ty parse_star_named_expression(Parser *p)
{
    if (at(p, T_STAR))
        return parse_starred(p);
    return parse_named_expression(p);
}

static expr_ty parse_named_expression(Parser *p)
{
    Token *t = cur(p);
    if (t->type == T_NAME && peek(p, 1) == T_COLONEQUAL) {
        advance(p);
        advance(p);
        expr_ty v = parse_expression(p);
        if (!v)
            return NULL;
        expr_ty target = make_name(p, t, AST_Store);
        expr_ty e = new_expr(p, NamedExpr_kind);
        if (!target || !e)
            return NULL;
        e->v.NamedExpr.target = target;
        e->v.NamedExpr.value = v;
        pos_tt(e, t, prev_tok(p));
        return e;
    }
    int start_pos = p->pos;
    expr_ty a = parse_expression(p);
    if (!a)
        return NULL;
    if (at(p, T_COLONEQUAL))
        return error_exprs(p, a, a, "cannot use assignment expressions with %s", expr_name(a));
    if (at(p, T_EQUAL)) {
        check_mistaken_assign(p, a, start_pos);
        if (p->failed)
            return NULL;
    }
    return a;
}

static expr_ty parse_yield_expr(Parser *p)
{
    Token *t = advance(p);   /* yield */
    if (accept(p, T_KW_FROM)) {
        expr_ty v = parse_expression(p);
        if (!v)
            return NULL;
        expr_ty e = new_expr(p, YieldFrom_kind);
        if (!e)
            return NULL;
        e->v.YieldFrom.value = v;
        pos_tt(e, t, prev_tok(p));
        return e;
    }
    expr_ty e = new_expr(p, Yield_kind);
    if (!e)
        return NULL;
    int ty = cur(p)->type;
    if (starts_expression(ty) || ty == T_STAR) {
        expr_ty v = parse_star_expressions(p);
        if (!v)
            return NULL;
        e->v.Yield.value = v;
        pos_tt(e, t, prev_tok(p));
    } else
        pos_tt(e, t, t);
    return e;
}

/* A target list (for loops, comprehensions): star_targets, which stop
 * before `in`. */
static int starts_target(int type)
{
    return starts_expression(type) || type == T_STAR;
}

static expr_ty parse_target_elem(Parser *p)
{
    if (at(p, T_STAR))
        return parse_starred(p);
    return parse_bitwise_or(p);
}

static expr_ty parse_target_list(Parser *p)
{
    Token *start = cur(p);
    expr_ty a = parse_target_elem(p);
    if (!a)
        return NULL;
    if (at(p, T_COMMA)) {
        Vec v = {0};
        if (parse_comma_items(p, &v, a, parse_target_elem, starts_target) < 0 ||
            !(a = make_tuple_at(p, &v, AST_Store, start, last_real(p))))
            return NULL;
    }
    return make_target(p, a, 0);
}

static int parse_for_if_clauses(Parser *p, comprehension_seq *out)
{
    Vec v = {0};
    while (at(p, T_KW_FOR) || at(p, T_KW_ASYNC)) {
        int is_async = 0;
        if (at(p, T_KW_ASYNC)) {
            advance(p);
            if (!at(p, T_KW_FOR)) {
                syntax_error(p);
                return -1;
            }
            is_async = 1;
        }
        advance(p);
        expr_ty target = parse_target_list(p);
        if (!target)
            return -1;
        if (!accept(p, T_KW_IN)) {
            syntax_error(p);
            return -1;
        }
        expr_ty iter = parse_disjunction(p);
        if (!iter)
            return -1;
        Vec ifs = {0};
        while (accept(p, T_KW_IF)) {
            expr_ty c = parse_disjunction(p);
            if (!c || vec_push(p, &ifs, c) < 0)
                return -1;
        }
        comprehension_ty c = arena_alloc(p->arena, sizeof(struct _comprehension));
        if (!c) {
            nomem(p);
            return -1;
        }
        c->target = target;
        c->iter = iter;
        c->is_async = is_async;
        if (to_exprs(p, &ifs, &c->ifs) < 0 || vec_push(p, &v, c) < 0)
            return -1;
    }
    return to_comprehensions(p, &v, out);
}

/* ------------------------------------------------------------------ */
/* Parameters (def and lambda)                                         */
/* ------------------------------------------------------------------ */
static arg_ty parse_one_param(Parser *p, int lambda, int star_annotation)
{
    if (!at(p, T_NAME))
        return syntax_error(p);
    Token *n = advance(p);
    arg_ty a = arena_alloc(p->arena, sizeof(struct _arg));
    if (!a)
        return nomem(p);
    a->arg = tok_ident(p, n);
    if (!a->arg)
        return NULL;
    a->lineno = n->lineno;
    a->col_offset = n->col;
    a->end_lineno = n->end_lineno;
    a->end_col_offset = n->end_col;
    if (!lambda && accept(p, T_COLON)) {
        a->annotation = star_annotation ? parse_star_expression(p) : parse_expression(p);
        if (!a->annotation)
            return NULL;
        a->end_lineno = prev_tok(p)->end_lineno;
        a->end_col_offset = prev_tok(p)->end_col;
    }
    return a;
}

static arguments_ty parse_params(Parser *p, int lambda)
{
    int close = lambda ? T_COLON : T_RPAR;
    Vec posonly = {0}, args = {0}, defaults = {0}, kwonly = {0}, kwdefaults = {0};
    arg_ty vararg = NULL, kwarg = NULL;
    int seen_slash = 0, seen_star = 0, seen_default = 0;
    Token *bare_star = NULL;
    while (!at(p, close)) {
        Token *t = cur(p);
        if (kwarg)
            return error_tok(p, t, "arguments cannot follow var-keyword argument");
        if (t->type == T_SLASH) {
            if (seen_slash)
                return error_tok(p, t, "/ may appear only once");
            if (seen_star)
                return error_tok(p, t, "/ must be ahead of *");
            if (args.n == 0)
                return syntax_error(p);
            advance(p);
            seen_slash = 1;
            posonly = args;
            args = (Vec){0};
        } else if (t->type == T_STAR) {
            if (seen_star)
                return error_tok(p, t, "* argument may appear only once");
            advance(p);
            seen_star = 1;
            if (at(p, T_NAME)) {
                vararg = parse_one_param(p, lambda, 1);
                if (!vararg)
                    return NULL;
                if (at(p, T_EQUAL))
                    return error_tok(p, cur(p), "var-positional argument cannot have default value");
            } else {
                bare_star = t;
                if (at(p, close) || (at(p, T_COMMA) && (peek(p, 1) == close || peek(p, 1) == T_DOUBLESTAR))) {
                    /* def: at the '*'; lambda: at the token that shows it (as CPython) */
                    if (lambda)
                        return error_tok(p, at(p, close) ? cur(p) : &p->toks[p->pos + 1],
                                         "named arguments must follow bare *");
                    return error_tok(p, t, "named arguments must follow bare *");
                }
                if (!at(p, T_COMMA))
                    return syntax_error(p);
            }
        } else if (t->type == T_DOUBLESTAR) {
            advance(p);
            kwarg = parse_one_param(p, lambda, 0);
            if (!kwarg)
                return NULL;
            if (at(p, T_EQUAL))
                return error_tok(p, cur(p), "var-keyword argument cannot have default value");
        } else if (t->type == T_NAME) {
            arg_ty a = parse_one_param(p, lambda, 0);
            if (!a)
                return NULL;
            expr_ty d = NULL;
            if (accept(p, T_EQUAL)) {
                d = parse_expression(p);
                if (!d)
                    return NULL;
            }
            if (seen_star) {
                if (vec_push(p, &kwonly, a) < 0 || vec_push(p, &kwdefaults, d) < 0)
                    return NULL;
            } else {
                if (d) {
                    if (vec_push(p, &defaults, d) < 0)
                        return NULL;
                    seen_default = 1;
                } else if (seen_default) {
                    return error_at(p, 0, a->lineno, a->col_offset, a->end_lineno, a->end_col_offset,
                                    "non-default argument follows default argument");
                }
                if (vec_push(p, &args, a) < 0)
                    return NULL;
            }
        } else
            return syntax_error(p);
        if (!accept(p, T_COMMA))
            break;
    }
    if (bare_star && kwonly.n == 0)
        return error_tok(p, bare_star, "named arguments must follow bare *");
    arguments_ty r = arena_alloc(p->arena, sizeof(struct _arguments));
    if (!r)
        return nomem(p);
    if (to_args(p, &posonly, &r->posonlyargs) < 0 || to_args(p, &args, &r->args) < 0 ||
        to_args(p, &kwonly, &r->kwonlyargs) < 0 || to_exprs(p, &kwdefaults, &r->kw_defaults) < 0 ||
        to_exprs(p, &defaults, &r->defaults) < 0)
        return NULL;
    r->vararg = vararg;
    r->kwarg = kwarg;
    return r;
}

/* ------------------------------------------------------------------ */
/* String literals and f-strings                                       */
/* ------------------------------------------------------------------ */
/* Growable text in the arena for the constant parts of f-strings. */
typedef struct LitBuf {
    char *s;
    size_t n, cap;
} LitBuf;

static int lit_add(Parser *p, LitBuf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t ncap = b->cap ? b->cap * 2 : 64;
        while (ncap < b->n + n + 1)
            ncap *= 2;
        char *ns = arena_alloc(p->arena, ncap);
        if (!ns) {
            nomem(p);
            return -1;
        }
        if (b->n)
            memcpy(ns, b->s, b->n);
        b->s = ns;
        b->cap = ncap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
    return 0;
}

/* State of one string run (adjacent literals). */
typedef struct StrRun {
    const Token *first, *last;
    const Token *err_tok;     /* CPython reports string errors at the token after the run */
} StrRun;

static void *run_error(Parser *p, const StrRun *r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void *run_error(Parser *p, const StrRun *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const Token *t = r->err_tok;
    verror(p, SYNERR_SYNTAX, t->lineno, t->col, t->lineno, t->col, fmt, ap);
    va_end(ap);
    return NULL;
}

/* Decode [s, e) of token t (escapes unless raw) and append it to b. */
static int lit_add_decoded(Parser *p, const StrRun *r, LitBuf *b, const Token *t, const char *s, const char *e, int flags)
{
    if (s == e)
        return 0;
    char *out;
    size_t n;
    if (lex_decode_string(p->arena, t, s, e, flags & ~STRPFX_F, &out, &n, p->err) < 0) {
        p->failed = 1;
        if (p->err->kind != SYNERR_NOMEMORY && (p->err->msg[0] == '(')) {
            p->err->lineno = p->err->end_lineno = r->err_tok->lineno;
            p->err->col_offset = p->err->end_col_offset = r->err_tok->col;
        }
        return -1;
    }
    return lit_add(p, b, out, n);
}

/* Move the pending literal text into a Constant node in values. */
static int lit_flush(Parser *p, const StrRun *r, LitBuf *b, Vec *values)
{
    if (b->n == 0)
        return 0;
    expr_ty c = new_expr(p, Constant_kind);
    if (!c)
        return -1;
    c->v.Constant.value.kind = CONST_STR;
    c->v.Constant.value.s = b->s;
    c->v.Constant.value.len = b->n;
    pos_tt(c, r->first, r->last);
    *b = (LitBuf){0};
    return vec_push(p, values, c);
}

static int fstring_body(Parser *p, const StrRun *r, const Token *t, const char **sp, const char *end, int flags,
                        int recurse_lvl, LitBuf *lit, Vec *values);

/* Parse the expression text [s, e) of a replacement field of token t:
 * tokenized in place (positions are real) and parsed as if in parentheses. */
static expr_ty fstring_expr(Parser *p, const StrRun *r, const Token *t, const char *s, const char *e)
{
    const char *q = s;
    while (q < e && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\f' || *q == '\r' || *q == '\v'))
        q++;
    if (q == e)
        return run_error(p, r, "f-string: empty expression not allowed");
    if (p->fstring_depth >= 20 || p->depth + 10 > PARSE_MAX_DEPTH)
        return run_error(p, r, "too many nested levels");
    int line = t->lineno, col = t->col;
    for (const char *c = t->start; c < s; c++) {
        if (*c == '\n') {
            line++;
            col = 0;
        } else
            col++;
    }
    TokenArray ta = {0};
    if (lex_tokenize(p->arena, s, (size_t)(e - s), line - 1, col, 1, &ta, p->err) < 0) {
        p->failed = 1;
        if (p->err->kind != SYNERR_NOMEMORY && strncmp(p->err->msg, "f-string", 8) != 0) {
            char msg[sizeof p->err->msg];
            size_t k = strlen(p->err->msg);
            if (k > sizeof msg - 11)
                k = sizeof msg - 11;
            memcpy(msg, "f-string: ", 10);
            memcpy(msg + 10, p->err->msg, k);
            msg[10 + k] = 0;
            memcpy(p->err->msg, msg, sizeof msg);
        }
        return NULL;
    }
    /* ( tokens ) ENDMARKER */
    Token *toks = arena_alloc(p->arena, sizeof(Token) * (size_t)(ta.n + 2));
    if (!toks)
        return nomem(p);
    Token *endm = &ta.items[ta.n - 1];
    toks[0] = ta.items[0];
    toks[0].type = T_LPAR;
    toks[0].level = 0;
    toks[0].end = toks[0].start;
    toks[0].end_lineno = toks[0].lineno;
    toks[0].end_col = toks[0].col;
    memcpy(toks + 1, ta.items, sizeof(Token) * (size_t)(ta.n - 1));
    toks[ta.n] = *endm;
    toks[ta.n].type = T_RPAR;
    toks[ta.n].level = 1;
    toks[ta.n + 1] = *endm;
    Parser sp = {0};
    sp.arena = p->arena;
    sp.toks = toks;
    sp.ntoks = ta.n + 2;
    sp.depth = p->depth + 1;
    sp.err = p->err;
    sp.in_fexpr = 1;
    sp.fstring_depth = p->fstring_depth + 1;
    sp.int_max_digits = p->int_max_digits;
    expr_ty v = parse_paren(&sp);
    if (v && !sp.failed && !at(&sp, T_ENDMARKER))
        syntax_error(&sp);
    if (sp.failed) {
        p->failed = 1;
        return NULL;
    }
    return v;
}

/* A replacement field: *sp points at '{'. */
static int fstring_field(Parser *p, const StrRun *r, const Token *t, const char **sp, const char *end, int flags,
                         int recurse_lvl, LitBuf *lit, Vec *values)
{
    const char *s = *sp + 1;
    if (recurse_lvl >= 2) {
        run_error(p, r, "f-string: expressions nested too deeply");
        return -1;
    }
    const char *expr_start = s;
    char quote = 0;
    int triple = 0;
    char parens[PARSE_MAX_PAREN_LEVEL];
    int depth = 0;
    for (; s < end; s++) {
        char ch = *s;
        if (ch == '\\') {
            run_error(p, r, "f-string expression part cannot include a backslash");
            return -1;
        }
        if (quote) {
            if (ch == quote) {
                if (triple) {
                    if (s + 2 < end && s[1] == ch && s[2] == ch) {
                        s += 2;
                        quote = 0;
                    }
                } else
                    quote = 0;
            }
            continue;
        }
        if (ch == '\'' || ch == '"') {
            if (s + 2 < end && s[1] == ch && s[2] == ch) {
                triple = 1;
                s += 2;
            } else
                triple = 0;
            quote = ch;
        } else if (ch == '[' || ch == '{' || ch == '(') {
            if (depth >= PARSE_MAX_PAREN_LEVEL) {
                run_error(p, r, "f-string: too many nested parenthesis");
                return -1;
            }
            parens[depth++] = ch;
        } else if (ch == '#') {
            run_error(p, r, "f-string expression part cannot include '#'");
            return -1;
        } else if (depth == 0 && (ch == '!' || ch == ':' || ch == '}' || ch == '=' || ch == '>' || ch == '<')) {
            char next = s + 1 < end ? s[1] : 0;
            if (ch == '!' && next == '=') {
                s++;
                continue;
            }
            if ((ch == '<' || ch == '>' || ch == '=') && next == '=') {
                s++;
                continue;
            }
            if (ch == '<' || ch == '>')
                continue;
            break;
        } else if (ch == ']' || ch == '}' || ch == ')') {
            if (depth == 0) {
                run_error(p, r, "f-string: unmatched '%c'", ch);
                return -1;
            }
            char open = parens[--depth];
            if (!((open == '(' && ch == ')') || (open == '[' && ch == ']') || (open == '{' && ch == '}'))) {
                run_error(p, r, "f-string: closing parenthesis '%c' does not match opening parenthesis '%c'", ch, open);
                return -1;
            }
        }
    }
    const char *expr_end = s;
    if (quote) {
        run_error(p, r, "f-string: unterminated string");
        return -1;
    }
    if (depth) {
        run_error(p, r, "f-string: unmatched '%c'", parens[depth - 1]);
        return -1;
    }
    if (s >= end) {
        run_error(p, r, "f-string: expecting '}'");
        return -1;
    }
    expr_ty value = fstring_expr(p, r, t, expr_start, expr_end);
    if (!value)
        return -1;
    /* {expr=}: the text is kept before the value. */
    int debug = 0;
    if (*s == '=') {
        s++;
        while (s < end && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\f' || *s == '\r' || *s == '\v'))
            s++;
        if (s >= end) {
            run_error(p, r, "f-string: expecting '}'");
            return -1;
        }
        if (lit_add(p, lit, expr_start, (size_t)(s - expr_start)) < 0)
            return -1;
        debug = 1;
    }
    int conversion = -1;
    if (*s == '!') {
        s++;
        if (s >= end) {
            run_error(p, r, "f-string: expecting '}'");
            return -1;
        }
        conversion = (unsigned char)*s++;
        if (conversion != 's' && conversion != 'r' && conversion != 'a') {
            run_error(p, r, "f-string: invalid conversion character: expected 's', 'r', or 'a'");
            return -1;
        }
    }
    expr_ty spec = NULL;
    if (s < end && *s == ':') {
        s++;
        Vec sv = {0};
        LitBuf sl = {0};
        /* positions as CPython 3.11's: the spec and its last literal piece
         * span the token they are in, its other parts the whole run */
        StrRun tr = *r;
        tr.first = tr.last = t;
        if (fstring_body(p, r, t, &s, end, flags, recurse_lvl + 1, &sl, &sv) < 0)
            return -1;
        if (lit_flush(p, &tr, &sl, &sv) < 0)
            return -1;
        spec = new_expr(p, JoinedStr_kind);
        if (!spec || to_exprs(p, &sv, &spec->v.JoinedStr.values) < 0)
            return -1;
        pos_tt(spec, t, t);
    }
    if (s >= end || *s != '}') {
        run_error(p, r, "f-string: expecting '}'");
        return -1;
    }
    s++;
    if (debug && conversion == -1 && !spec)
        conversion = 'r';
    if (lit_flush(p, r, lit, values) < 0)
        return -1;
    expr_ty fv = new_expr(p, FormattedValue_kind);
    if (!fv)
        return -1;
    fv->v.FormattedValue.value = value;
    fv->v.FormattedValue.conversion = conversion;
    fv->v.FormattedValue.format_spec = spec;
    pos_tt(fv, r->first, r->last);
    *sp = s;
    return vec_push(p, values, fv);
}

/* Literal text and fields of an f-string body from *sp; stops at the end,
 * or (in a format spec, recurse_lvl > 0) before the closing '}'. */
static int fstring_body(Parser *p, const StrRun *r, const Token *t, const char **sp, const char *end, int flags,
                        int recurse_lvl, LitBuf *lit, Vec *values)
{
    const char *s = *sp;
    int raw = (flags & STRPFX_RAW) != 0;
    while (s < end) {
        const char *chunk = s;
        while (s < end) {
            char ch = *s;
            if (!raw && ch == '\\' && s + 1 < end) {
                if (s[1] == '{' || s[1] == '}') {
                    /* The backslash stays a literal backslash; the brace is itself. */
                    if (lit_add_decoded(p, r, lit, t, chunk, s, flags) < 0 || lit_add(p, lit, "\\", 1) < 0)
                        return -1;
                    s++;
                    chunk = s;
                    continue;
                }
                if (s[1] == 'N' && s + 2 < end && s[2] == '{') {
                    /* \N{name}: its braces are not a replacement field */
                    const char *close = memchr(s + 3, '}', (size_t)(end - s - 3));
                    s = close ? close + 1 : end;
                    continue;
                }
                s += 2;
                continue;
            }
            if (ch == '{' || ch == '}') {
                if (recurse_lvl == 0 && s + 1 < end && s[1] == ch) {
                    if (lit_add_decoded(p, r, lit, t, chunk, s, flags) < 0 || lit_add(p, lit, &ch, 1) < 0)
                        return -1;
                    s += 2;
                    chunk = s;
                    continue;
                }
                if (ch == '}' && recurse_lvl == 0) {
                    run_error(p, r, "f-string: single '}' is not allowed");
                    return -1;
                }
                break;
            }
            s++;
        }
        if (lit_add_decoded(p, r, lit, t, chunk, s, flags) < 0)
            return -1;
        if (s >= end || *s == '}')
            break;
        if (fstring_field(p, r, t, &s, end, flags, recurse_lvl, lit, values) < 0)
            return -1;
    }
    *sp = s;
    return 0;
}

__attribute__((noinline)) static expr_ty parse_strings(Parser *p)
{
    int first = p->pos;
    while (at(p, T_STRING))
        advance(p);
    int last = p->pos - 1;
    StrRun r = {&p->toks[first], &p->toks[last], cur(p)};
    int any_bytes = 0, any_str = 0, any_f = 0;
    for (int i = first; i <= last; i++) {
        int flags, ql;
        const char *b, *e;
        lex_string_parts(&p->toks[i], &flags, &b, &e, &ql);
        if (flags & STRPFX_BYTES)
            any_bytes = 1;
        else
            any_str = 1;
        if (flags & STRPFX_F)
            any_f = 1;
    }
    if (any_bytes && any_str)
        return run_error(p, &r, "cannot mix bytes and nonbytes literals");
    if (!any_f) {
        LitBuf b = {0};
        for (int i = first; i <= last; i++) {
            int flags, ql;
            const char *s, *e;
            lex_string_parts(&p->toks[i], &flags, &s, &e, &ql);
            if (i == first && i == last) {
                char *out;
                size_t n;
                if (lex_decode_string(p->arena, &p->toks[i], s, e, flags, &out, &n, p->err) < 0) {
                    p->failed = 1;
                    if (p->err->kind != SYNERR_NOMEMORY && p->err->msg[0] == '(') {
                        p->err->lineno = p->err->end_lineno = r.err_tok->lineno;
                        p->err->col_offset = p->err->end_col_offset = r.err_tok->col;
                    }
                    return NULL;
                }
                b.s = out;
                b.n = n;
            } else if (lit_add_decoded(p, &r, &b, &p->toks[i], s, e, flags) < 0)
                return NULL;
        }
        if (!b.s && lit_add(p, &b, "", 0) < 0)
            return NULL;
        expr_ty c = new_expr(p, Constant_kind);
        if (!c)
            return NULL;
        c->v.Constant.value.kind = any_bytes ? CONST_BYTES : CONST_STR;
        c->v.Constant.value.u_prefix = p->toks[first].start[0] == 'u';
        c->v.Constant.value.s = b.s;
        c->v.Constant.value.len = b.n;
        pos_tt(c, r.first, r.last);
        return c;
    }
    Vec values = {0};
    LitBuf lit = {0};
    for (int i = first; i <= last; i++) {
        const Token *t = &p->toks[i];
        int flags, ql;
        const char *s, *e;
        lex_string_parts(t, &flags, &s, &e, &ql);
        if (flags & STRPFX_F) {
            if (fstring_body(p, &r, t, &s, e, flags, 0, &lit, &values) < 0)
                return NULL;
        } else if (lit_add_decoded(p, &r, &lit, t, s, e, flags) < 0)
            return NULL;
    }
    if (lit_flush(p, &r, &lit, &values) < 0)
        return NULL;
    expr_ty j = new_expr(p, JoinedStr_kind);
    if (!j || to_exprs(p, &values, &j->v.JoinedStr.values) < 0)
        return NULL;
    pos_tt(j, r.first, r.last);
    return j;
}

/* ------------------------------------------------------------------ */
/* Statements                                                          */
/* ------------------------------------------------------------------ */
static int parse_statement(Parser *p, Vec *out);
static int parse_simple_stmts(Parser *p, Vec *out);

/* block: NEWLINE INDENT statements DEDENT | simple_stmts */
static int parse_block(Parser *p, const char *what, const Token *hdr, stmt_seq *out)
{
    Vec v = {0};
    if (at(p, T_NEWLINE)) {
        advance(p);
        if (!at(p, T_INDENT)) {
            Token *t = cur(p);
            error_at(p, SYNERR_INDENTATION, t->lineno, t->col, t->end_lineno, t->end_col,
                     "expected an indented block after %s on line %d", what, hdr->lineno);
            return -1;
        }
        advance(p);
        if (enter(p) < 0)
            return -1;
        while (!at(p, T_DEDENT) && !at(p, T_ENDMARKER)) {
            if (parse_statement(p, &v) < 0)
                return -1;
        }
        leave(p);
        accept(p, T_DEDENT);
    } else {
        if (parse_simple_stmts(p, &v) < 0)
            return -1;
    }
    return to_stmts(p, &v, out);
}

/* ':' after a compound statement header. forced: any other token is
 * "expected ':'"; otherwise only a NEWLINE is. */
static int expect_colon(Parser *p, int forced)
{
    if (accept(p, T_COLON))
        return 0;
    if (forced || at(p, T_NEWLINE))
        error_tok(p, cur(p), "expected ':'");
    else
        syntax_error(p);
    return -1;
}

static int parse_else_block(Parser *p, stmt_seq *out)
{
    Token *e = advance(p);   /* else */
    if (expect_colon(p, 1) < 0)
        return -1;
    return parse_block(p, "'else' statement", e, out);
}

static stmt_ty parse_if(Parser *p, const char *what)
{
    Token *t = advance(p);   /* if / elif */
    expr_ty test = parse_named_expression(p);
    if (!test || expect_colon(p, 0) < 0)
        return NULL;
    stmt_ty s = new_stmt(p, If_kind, t);
    if (!s)
        return NULL;
    s->v.If.test = test;
    if (parse_block(p, what, t, &s->v.If.body) < 0)
        return NULL;
    if (at(p, T_KW_ELIF)) {
        stmt_ty e = parse_if(p, "'elif' statement");
        if (!e)
            return NULL;
        Vec v = {0};
        if (vec_push(p, &v, e) < 0 || to_stmts(p, &v, &s->v.If.orelse) < 0)
            return NULL;
    } else if (at(p, T_KW_ELSE)) {
        if (parse_else_block(p, &s->v.If.orelse) < 0)
            return NULL;
    }
    return end_stmt(p, s);
}

static stmt_ty parse_while(Parser *p)
{
    Token *t = advance(p);
    expr_ty test = parse_named_expression(p);
    if (!test || expect_colon(p, 0) < 0)
        return NULL;
    stmt_ty s = new_stmt(p, While_kind, t);
    if (!s)
        return NULL;
    s->v.While.test = test;
    if (parse_block(p, "'while' statement", t, &s->v.While.body) < 0)
        return NULL;
    if (at(p, T_KW_ELSE) && parse_else_block(p, &s->v.While.orelse) < 0)
        return NULL;
    return end_stmt(p, s);
}

/* for (async_tok: the `async` before it, or NULL) */
static stmt_ty parse_for(Parser *p, Token *async_tok)
{
    Token *t = advance(p);
    expr_ty target = parse_target_list(p);
    if (!target)
        return NULL;
    if (!accept(p, T_KW_IN))
        return syntax_error(p);
    expr_ty iter = parse_star_expressions(p);
    if (!iter || expect_colon(p, 0) < 0)
        return NULL;
    stmt_ty s = new_stmt(p, async_tok ? AsyncFor_kind : For_kind, async_tok ? async_tok : t);
    if (!s)
        return NULL;
    s->v.For.target = target;
    s->v.For.iter = iter;
    if (parse_block(p, "'for' statement", t, &s->v.For.body) < 0)
        return NULL;
    if (at(p, T_KW_ELSE) && parse_else_block(p, &s->v.For.orelse) < 0)
        return NULL;
    return end_stmt(p, s);
}

static withitem_ty parse_with_item(Parser *p)
{
    expr_ty e = parse_expression(p);
    if (!e)
        return NULL;
    withitem_ty w = arena_alloc(p->arena, sizeof(struct _withitem));
    if (!w)
        return nomem(p);
    w->context_expr = e;
    if (accept(p, T_KW_AS)) {
        expr_ty target = at(p, T_STAR) ? parse_starred(p) : parse_expression(p);
        if (!target)
            return NULL;
        if (!at(p, T_COMMA) && !at(p, T_RPAR) && !at(p, T_COLON) && !at(p, T_NEWLINE))
            return syntax_error(p);
        w->optional_vars = make_target(p, target, 0);
        if (!w->optional_vars)
            return NULL;
    }
    return w;
}

/* with_item (',' with_item)* ; in parentheses when paren is set. */
static int parse_with_items(Parser *p, int paren, Vec *items)
{
    if (paren)
        advance(p);
    for (;;) {
        withitem_ty w = parse_with_item(p);
        if (!w || vec_push(p, items, w) < 0)
            return -1;
        if (!accept(p, T_COMMA))
            break;
        if (paren && at(p, T_RPAR))
            break;
    }
    if (paren && !accept(p, T_RPAR)) {
        syntax_error(p);
        return -1;
    }
    return 0;
}

/* `with (a as b, c):` (the parenthesized form) or an expression in
 * parentheses: try the first, then the second. 1: parsed, -1: error. */
__attribute__((noinline)) static int parse_with_paren_items(Parser *p, Vec *items)
{
    Mark m;
    mark_save(p, &m);
    if (parse_with_items(p, 1, items) == 0 && at(p, T_COLON))
        return 1;
    Mark *failed_at = arena_alloc(p->arena, sizeof(Mark));
    if (!failed_at) {
        nomem(p);
        return -1;
    }
    mark_save(p, failed_at);
    mark_restore(p, &m);
    *items = (Vec){0};
    if (parse_with_items(p, 0, items) == 0 && at(p, T_COLON))
        return 1;
    mark_restore(p, failed_at);
    return -1;
}

static stmt_ty parse_with(Parser *p, Token *async_tok)
{
    Token *t = advance(p);
    Vec items = {0};
    int done = 0;
    if (at(p, T_LPAR)) {
        /* Try the parenthesized form when ':' follows the matching ')'. */
        int lv = cur(p)->level, j = p->pos + 1;
        while (j < p->ntoks - 1 && !(p->toks[j].level == lv - 1 && p->toks[j].type == T_RPAR))
            j++;
        if (j >= p->ntoks - 1 || (j + 1 < p->ntoks && p->toks[j + 1].type == T_COLON)) {
            if (parse_with_paren_items(p, &items) < 0)
                return NULL;
            done = 1;
        }
    }
    if (!done && parse_with_items(p, 0, &items) < 0)
        return NULL;
    if (expect_colon(p, 0) < 0)
        return NULL;
    stmt_ty s = new_stmt(p, async_tok ? AsyncWith_kind : With_kind, async_tok ? async_tok : t);
    if (!s || to_withitems(p, &items, &s->v.With.items) < 0)
        return NULL;
    if (parse_block(p, "'with' statement", t, &s->v.With.body) < 0)
        return NULL;
    return end_stmt(p, s);
}

static stmt_ty parse_try(Parser *p)
{
    Token *t = advance(p);
    if (expect_colon(p, 1) < 0)
        return NULL;
    stmt_ty s = new_stmt(p, Try_kind, t);
    if (!s)
        return NULL;
    if (parse_block(p, "'try' statement", t, &s->v.Try.body) < 0)
        return NULL;
    Vec handlers = {0};
    int star = -1;   /* except* clauses (1) or except clauses (0): one kind per try */
    while (at(p, T_KW_EXCEPT)) {
        Token *e = advance(p);
        Token *st = at(p, T_STAR) ? advance(p) : NULL;
        if (star < 0)
            star = st != NULL;
        else if (star != (st != NULL))
            return error_at(p, SYNERR_SYNTAX, e->lineno, e->col, (st ? st : e)->end_lineno,
                            (st ? st : e)->end_col, "cannot have both 'except' and 'except*' on the same 'try'");
        if (st && (at(p, T_COLON) || at(p, T_NEWLINE)))
            return error_tok(p, cur(p), "expected one or more exception types");
        excepthandler_ty h = arena_alloc(p->arena, sizeof(struct _excepthandler));
        if (!h)
            return nomem(p);
        h->lineno = e->lineno;
        h->col_offset = e->col;
        if (!at(p, T_COLON) && !at(p, T_NEWLINE)) {
            h->type = parse_expression(p);
            if (!h->type)
                return NULL;
            if (at(p, T_COMMA)) {
                expr_ty a = h->type;
                advance(p);
                expr_ty b = parse_expression(p);
                if (!b)
                    return NULL;
                return error_exprs(p, a, b, "multiple exception types must be parenthesized");
            }
            if (accept(p, T_KW_AS)) {
                if (!at(p, T_NAME))
                    return syntax_error(p);
                h->name = tok_ident(p, advance(p));
                if (!h->name)
                    return NULL;
            }
        }
        if (expect_colon(p, 0) < 0)
            return NULL;
        if (parse_block(p, "'except' statement", e, &h->body) < 0)
            return NULL;
        Token *lt = last_real(p);
        h->end_lineno = lt->end_lineno;
        h->end_col_offset = lt->end_col;
        if (vec_push(p, &handlers, h) < 0)
            return NULL;
    }
    if (to_handlers(p, &handlers, &s->v.Try.handlers) < 0)
        return NULL;
    if (star == 1)
        s->kind = TryStar_kind;
    if (handlers.n && at(p, T_KW_ELSE) && parse_else_block(p, &s->v.Try.orelse) < 0)
        return NULL;
    if (at(p, T_KW_FINALLY)) {
        Token *f = advance(p);
        if (expect_colon(p, 1) < 0)
            return NULL;
        if (parse_block(p, "'finally' statement", f, &s->v.Try.finalbody) < 0)
            return NULL;
    }
    if (!handlers.n && !s->v.Try.finalbody.n)
        return error_tok(p, cur(p), "expected 'except' or 'finally' block");
    return end_stmt(p, s);
}

static stmt_ty parse_funcdef(Parser *p, const Vec *decorators, Token *async_tok)
{
    Token *t = advance(p);   /* def */
    if (!at(p, T_NAME))
        return syntax_error(p);
    Token *name = advance(p);
    if (!at(p, T_LPAR))
        return error_tok(p, cur(p), "expected '('");
    advance(p);
    arguments_ty args = parse_params(p, 0);
    if (!args)
        return NULL;
    if (!accept(p, T_RPAR))
        return syntax_error(p);
    expr_ty returns = NULL;
    if (accept(p, T_RARROW)) {
        returns = parse_expression(p);
        if (!returns)
            return NULL;
    }
    if (expect_colon(p, 1) < 0)
        return NULL;
    stmt_ty s = new_stmt(p, async_tok ? AsyncFunctionDef_kind : FunctionDef_kind, async_tok ? async_tok : t);
    if (!s)
        return NULL;
    s->v.FunctionDef.name = tok_ident(p, name);
    s->v.FunctionDef.args = args;
    s->v.FunctionDef.returns = returns;
    if (!s->v.FunctionDef.name || to_exprs(p, decorators, &s->v.FunctionDef.decorator_list) < 0)
        return NULL;
    if (parse_block(p, "function definition", t, &s->v.FunctionDef.body) < 0)
        return NULL;
    return end_stmt(p, s);
}

static stmt_ty parse_classdef(Parser *p, const Vec *decorators)
{
    Token *t = advance(p);   /* class */
    if (!at(p, T_NAME))
        return syntax_error(p);
    Token *name = advance(p);
    Vec bases = {0}, kws = {0};
    if (at(p, T_LPAR)) {
        advance(p);
        expr_ty genexp;
        if (parse_call_args(p, &bases, &kws, &genexp) < 0)
            return NULL;
        if (genexp)
            return error_exprs(p, genexp, genexp, "invalid syntax");
        if (!accept(p, T_RPAR))
            return syntax_error(p);
    }
    if (expect_colon(p, 0) < 0)
        return NULL;
    stmt_ty s = new_stmt(p, ClassDef_kind, t);
    if (!s)
        return NULL;
    s->v.ClassDef.name = tok_ident(p, name);
    if (!s->v.ClassDef.name || to_exprs(p, &bases, &s->v.ClassDef.bases) < 0 ||
        to_keywords(p, &kws, &s->v.ClassDef.keywords) < 0 ||
        to_exprs(p, decorators, &s->v.ClassDef.decorator_list) < 0)
        return NULL;
    if (parse_block(p, "class definition", t, &s->v.ClassDef.body) < 0)
        return NULL;
    return end_stmt(p, s);
}

static stmt_ty parse_decorated(Parser *p)
{
    Vec decs = {0};
    while (at(p, T_AT)) {
        advance(p);
        expr_ty d = parse_named_expression(p);
        if (!d || vec_push(p, &decs, d) < 0)
            return NULL;
        if (!accept(p, T_NEWLINE))
            return syntax_error(p);
    }
    if (at(p, T_KW_DEF))
        return parse_funcdef(p, &decs, NULL);
    if (at(p, T_KW_CLASS))
        return parse_classdef(p, &decs);
    if (at(p, T_KW_ASYNC) && peek(p, 1) == T_KW_DEF) {
        Token *a = advance(p);
        return parse_funcdef(p, &decs, a);
    }
    return syntax_error(p);
}

/* ------------------------------------------------------------------ */
/* The match statement (PEP 634): `match` and `case` are soft keywords */
/* ------------------------------------------------------------------ */
static pattern_ty parse_pattern(Parser *p);

static pattern_ty new_pattern(Parser *p, enum _pattern_kind kind, const Token *start)
{
    pattern_ty pt = arena_alloc(p->arena, sizeof(struct _pattern));
    if (!pt)
        return nomem(p);
    pt->kind = kind;
    pt->lineno = start->lineno;
    pt->col_offset = start->col;
    Token *e = prev_tok(p);
    pt->end_lineno = e->end_lineno;
    pt->end_col_offset = e->end_col;
    return pt;
}

/* Can this token start a pattern? (after a comma: another item follows) */
static int starts_pattern(int type)
{
    switch (type) {
    case T_NAME: case T_NUMBER: case T_STRING: case T_MINUS: case T_LPAR: case T_LSQB: case T_LBRACE:
    case T_STAR: case T_KW_NONE: case T_KW_TRUE: case T_KW_FALSE:
        return 1;
    }
    return 0;
}

/* pattern_capture_target: a NAME other than `_`, not followed by '.', '('
 * or '='. NULL (syntax error) otherwise. */
static identifier parse_capture_target(Parser *p)
{
    Token *t = cur(p);
    if (t->type != T_NAME || tok_is_name(t, "_"))
        return syntax_error(p);
    int next = peek(p, 1);
    if (next == T_DOT || next == T_LPAR || next == T_EQUAL)
        return syntax_error(p);
    advance(p);
    return tok_ident(p, t);
}

/* Is a NUMBER token an imaginary literal (2j, 1.5e3J)? */
static int tok_is_imaginary(const Token *t)
{
    char last = t->end > t->start ? t->end[-1] : 0;
    return (last == 'j' || last == 'J') && !(t->end - t->start > 1 && t->start[0] == '0' &&
                                              (t->start[1] == 'x' || t->start[1] == 'X'));
}

/* signed_number, or a complex literal `real +/- imaginary` (CPython's
 * complex_number: the left part must be real, the right one imaginary). */
static expr_ty parse_signed_number(Parser *p)
{
    Token *st = cur(p);
    int neg = accept(p, T_MINUS);
    if (!at(p, T_NUMBER))
        return syntax_error(p);
    Token *num = cur(p);
    expr_ty e = parse_atom(p);
    if (!e)
        return NULL;
    if (neg) {
        expr_ty u = new_expr(p, UnaryOp_kind);
        if (!u)
            return NULL;
        u->v.UnaryOp.op = AST_USub;
        u->v.UnaryOp.operand = e;
        pos_tt(u, st, prev_tok(p));
        e = u;
    }
    if (at(p, T_PLUS) || at(p, T_MINUS)) {
        if (tok_is_imaginary(num))
            return error_tok(p, num, "real number required in complex literal");
        int op = advance(p)->type == T_PLUS ? AST_Add : AST_Sub;
        if (!at(p, T_NUMBER))
            return syntax_error(p);
        Token *im = cur(p);
        if (!tok_is_imaginary(im))
            return error_tok(p, im, "imaginary number required in complex literal");
        expr_ty r = parse_atom(p);
        if (!r)
            return NULL;
        expr_ty b = new_expr(p, BinOp_kind);
        if (!b)
            return NULL;
        b->v.BinOp.left = e;
        b->v.BinOp.op = op;
        b->v.BinOp.right = r;
        pos_tt(b, st, prev_tok(p));
        e = b;
    }
    return e;
}

/* name_or_attr: NAME ('.' NAME)*, as a Name or an Attribute chain (Load). */
static expr_ty parse_name_or_attr(Parser *p)
{
    Token *st = advance(p);   /* NAME */
    expr_ty e = make_name(p, st, AST_Load);
    while (e && at(p, T_DOT)) {
        advance(p);
        if (!at(p, T_NAME))
            return syntax_error(p);
        Token *n = advance(p);
        expr_ty a = new_expr(p, Attribute_kind);
        if (!a)
            return NULL;
        a->v.Attribute.value = e;
        a->v.Attribute.attr = tok_ident(p, n);
        if (!a->v.Attribute.attr)
            return NULL;
        a->v.Attribute.ctx = AST_Load;
        pos_tt(a, st, n);
        a->depth_ = 0;
        if (!check_height(p, a))
            return NULL;
        e = a;
    }
    return e;
}

/* A sequence of patterns up to `close` (']' or ')'), after the first item
 * `first` when it is given. */
static int parse_pattern_items(Parser *p, Vec *items, pattern_ty first, int close);
static pattern_ty parse_maybe_star_pattern(Parser *p);

/* The arguments of a class pattern, after '(' (up to ')'). */
static int parse_class_args(Parser *p, Vec *pats, Vec *attrs, Vec *kwpats)
{
    while (!at(p, T_RPAR)) {
        if (at(p, T_NAME) && peek(p, 1) == T_EQUAL) {
            identifier name = tok_ident(p, advance(p));
            advance(p);   /* '=' */
            pattern_ty v = name ? parse_pattern(p) : NULL;
            if (!v || vec_push(p, attrs, name) < 0 || vec_push(p, kwpats, v) < 0)
                return -1;
        } else {
            pattern_ty a = parse_pattern(p);
            if (!a)
                return -1;
            if (attrs->n) {
                /* CPython's message spans the positional patterns that follow
                 * the keyword ones (as many as parse). */
                pattern_ty last = a;
                while (at(p, T_COMMA) && peek(p, 1) != T_RPAR && !(peek(p, 1) == T_NAME && peek(p, 2) == T_EQUAL)) {
                    Mark m;
                    mark_save(p, &m);
                    advance(p);
                    p->no_invalid++;
                    pattern_ty b = parse_pattern(p);
                    p->no_invalid--;
                    if (!b || p->failed) {
                        mark_restore(p, &m);
                        break;
                    }
                    last = b;
                }
                error_at(p, SYNERR_SYNTAX, a->lineno, a->col_offset, last->end_lineno, last->end_col_offset,
                         "positional patterns follow keyword patterns");
                return -1;
            }
            if (vec_push(p, pats, a) < 0)
                return -1;
        }
        if (!accept(p, T_COMMA))
            break;
    }
    if (!at(p, T_RPAR)) {
        syntax_error(p);
        return -1;
    }
    advance(p);
    return 0;
}

/* A mapping pattern key: literal_expr (a number, a complex literal, strings,
 * None, True, False) or a dotted name of at least two parts. */
static expr_ty parse_mapping_key(Parser *p)
{
    Token *t = cur(p);
    switch (t->type) {
    case T_NUMBER: case T_MINUS:
        return parse_signed_number(p);
    case T_STRING:
        return parse_strings(p);
    case T_KW_NONE: case T_KW_TRUE: case T_KW_FALSE:
        advance(p);
        return make_constant(p, t, t->type == T_KW_NONE ? CONST_NONE : t->type == T_KW_TRUE ? CONST_TRUE : CONST_FALSE);
    case T_NAME:
        if (peek(p, 1) != T_DOT)
            break;
        return parse_name_or_attr(p);
    }
    return syntax_error(p);
}

static pattern_ty parse_mapping_pattern(Parser *p)
{
    Token *lb = advance(p);   /* '{' */
    Vec keys = {0}, pats = {0};
    identifier rest = NULL;
    while (!at(p, T_RBRACE)) {
        if (at(p, T_DOUBLESTAR)) {
            advance(p);
            rest = parse_capture_target(p);
            if (!rest)
                return NULL;
            accept(p, T_COMMA);
            break;
        }
        expr_ty k = parse_mapping_key(p);
        if (!k)
            return NULL;
        if (!accept(p, T_COLON))
            return syntax_error(p);
        pattern_ty v = parse_pattern(p);
        if (!v || vec_push(p, &keys, k) < 0 || vec_push(p, &pats, v) < 0)
            return NULL;
        if (!accept(p, T_COMMA))
            break;
    }
    if (!accept(p, T_RBRACE))
        return syntax_error(p);
    pattern_ty pt = new_pattern(p, MatchMapping_kind, lb);
    if (!pt || to_exprs(p, &keys, &pt->v.MatchMapping.keys) < 0 ||
        to_patterns(p, &pats, &pt->v.MatchMapping.patterns) < 0)
        return NULL;
    pt->v.MatchMapping.rest = rest;
    return pt;
}

/* A pattern starting with a NAME: `_`, a capture, a dotted value, a class. */
static pattern_ty parse_name_pattern(Parser *p)
{
    Token *t = cur(p);
    if (tok_is_name(t, "_")) {
        advance(p);
        return new_pattern(p, MatchAs_kind, t);
    }
    if (peek(p, 1) != T_DOT && peek(p, 1) != T_LPAR) {
        advance(p);
        pattern_ty pt = new_pattern(p, MatchAs_kind, t);
        if (pt && !(pt->v.MatchAs.name = tok_ident(p, t)))
            return NULL;
        return pt;
    }
    expr_ty e = parse_name_or_attr(p);
    if (!e)
        return NULL;
    if (!at(p, T_LPAR)) {
        pattern_ty pt = new_pattern(p, MatchValue_kind, t);
        if (pt)
            pt->v.MatchValue.value = e;
        return pt;
    }
    advance(p);   /* '(' */
    Vec pats = {0}, attrs = {0}, kwpats = {0};
    if (parse_class_args(p, &pats, &attrs, &kwpats) < 0)
        return NULL;
    pattern_ty pt = new_pattern(p, MatchClass_kind, t);
    if (!pt || to_patterns(p, &pats, &pt->v.MatchClass.patterns) < 0 ||
        to_identifiers(p, &attrs, &pt->v.MatchClass.kwd_attrs) < 0 ||
        to_patterns(p, &kwpats, &pt->v.MatchClass.kwd_patterns) < 0)
        return NULL;
    pt->v.MatchClass.cls = e;
    return pt;
}

/* closed_pattern: literal | capture | wildcard | value | group | sequence
 * | mapping | class. */
static pattern_ty parse_closed_pattern_inner(Parser *p)
{
    Token *t = cur(p);
    switch (t->type) {
    case T_NUMBER: case T_MINUS: case T_STRING: {
        expr_ty e = t->type == T_STRING ? parse_strings(p) : parse_signed_number(p);
        if (!e)
            return NULL;
        pattern_ty pt = new_pattern(p, MatchValue_kind, t);
        if (pt)
            pt->v.MatchValue.value = e;
        return pt;
    }
    case T_KW_NONE: case T_KW_TRUE: case T_KW_FALSE: {
        advance(p);
        pattern_ty pt = new_pattern(p, MatchSingleton_kind, t);
        if (pt)
            pt->v.MatchSingleton.value.kind = t->type == T_KW_NONE ? CONST_NONE : t->type == T_KW_TRUE ? CONST_TRUE
                                                                                                        : CONST_FALSE;
        return pt;
    }
    case T_NAME:
        return parse_name_pattern(p);
    case T_LBRACE:
        return parse_mapping_pattern(p);
    case T_LSQB: case T_LPAR: {
        int close = t->type == T_LSQB ? T_RSQB : T_RPAR;
        advance(p);
        Vec items = {0};
        if (!at(p, close)) {
            pattern_ty first = parse_maybe_star_pattern(p);
            if (!first)
                return NULL;
            if (close == T_RPAR && !at(p, T_COMMA)) {
                /* a group: the pattern itself */
                if (first->kind == MatchStar_kind || !at(p, T_RPAR))
                    return syntax_error(p);
                advance(p);
                return first;
            }
            if (parse_pattern_items(p, &items, first, close) < 0)
                return NULL;
        }
        if (!accept(p, close))
            return syntax_error(p);
        pattern_ty pt = new_pattern(p, MatchSequence_kind, t);
        if (!pt || to_patterns(p, &items, &pt->v.MatchSequence.patterns) < 0)
            return NULL;
        return pt;
    }
    }
    return syntax_error(p);
}

static pattern_ty parse_closed_pattern(Parser *p)
{
    if (enter(p) < 0)
        return NULL;
    pattern_ty pt = parse_closed_pattern_inner(p);
    leave(p);
    return pt;
}

/* pattern: or_pattern ['as' NAME] */
static pattern_ty parse_pattern(Parser *p)
{
    Token *st = cur(p);
    pattern_ty a = parse_closed_pattern(p);
    if (!a)
        return NULL;
    if (at(p, T_VBAR)) {
        Vec alts = {0};
        if (vec_push(p, &alts, a) < 0)
            return NULL;
        while (accept(p, T_VBAR)) {
            pattern_ty b = parse_closed_pattern(p);
            if (!b || vec_push(p, &alts, b) < 0)
                return NULL;
        }
        a = new_pattern(p, MatchOr_kind, st);
        if (!a || to_patterns(p, &alts, &a->v.MatchOr.patterns) < 0)
            return NULL;
    }
    if (!at(p, T_KW_AS))
        return a;
    advance(p);
    Token *t = cur(p);
    if (t->type != T_NAME) {
        if (p->no_invalid || !starts_expression(t->type))
            return syntax_error(p);
        Mark m;
        mark_save(p, &m);
        p->no_invalid++;
        expr_ty e = parse_expression(p);
        p->no_invalid--;
        int ok = e && !p->failed;
        mark_restore(p, &m);
        if (!ok)
            return syntax_error(p);
        return error_exprs(p, e, e, "invalid pattern target");
    }
    if (tok_is_name(t, "_"))
        return error_tok(p, t, "cannot use '_' as a target");
    identifier name = parse_capture_target(p);
    if (!name)
        return NULL;
    pattern_ty pt = new_pattern(p, MatchAs_kind, st);
    if (!pt)
        return NULL;
    pt->v.MatchAs.pattern = a;
    pt->v.MatchAs.name = name;
    return pt;
}

/* star_pattern ('*' NAME, '*' '_') | pattern */
static pattern_ty parse_maybe_star_pattern(Parser *p)
{
    if (!at(p, T_STAR))
        return parse_pattern(p);
    Token *st = advance(p);
    identifier name = NULL;
    if (tok_is_name(cur(p), "_"))
        advance(p);
    else if (!(name = parse_capture_target(p)))
        return NULL;
    pattern_ty pt = new_pattern(p, MatchStar_kind, st);
    if (pt)
        pt->v.MatchStar.name = name;
    return pt;
}

static int parse_pattern_items(Parser *p, Vec *items, pattern_ty first, int close)
{
    if (vec_push(p, items, first) < 0)
        return -1;
    while (accept(p, T_COMMA)) {
        if (close ? at(p, close) : !starts_pattern(cur(p)->type))
            break;
        pattern_ty b = parse_maybe_star_pattern(p);
        if (!b || vec_push(p, items, b) < 0)
            return -1;
    }
    return 0;
}

/* The patterns of a case: `a, *b` is a sequence without brackets. */
static pattern_ty parse_case_patterns(Parser *p)
{
    Token *st = cur(p);
    pattern_ty a = parse_maybe_star_pattern(p);
    if (!a)
        return NULL;
    if (!at(p, T_COMMA)) {
        if (a->kind == MatchStar_kind)
            return syntax_error(p);
        return a;
    }
    Vec items = {0};
    if (parse_pattern_items(p, &items, a, 0) < 0)
        return NULL;
    pattern_ty pt = new_pattern(p, MatchSequence_kind, st);
    if (!pt || to_patterns(p, &items, &pt->v.MatchSequence.patterns) < 0)
        return NULL;
    return pt;
}

static int starts_star_target(int type) { return type == T_STAR || starts_expression(type); }

/* subject_expr: star_named_expression ',' star_named_expressions? | named_expression */
static expr_ty parse_match_subject(Parser *p)
{
    Token *start = cur(p);
    expr_ty a = parse_star_named_expression(p);
    if (!a)
        return NULL;
    if (!at(p, T_COMMA)) {
        if (a->kind == Starred_kind)
            return syntax_error(p);
        return a;
    }
    Vec v = {0};
    if (parse_comma_items(p, &v, a, parse_star_named_expression, starts_star_target) < 0)
        return NULL;
    return make_tuple_at(p, &v, AST_Load, start, last_real(p));
}

/* A statement starting with the name `match`: is it `match subject:` and a
 * NEWLINE (then it is a match statement, whatever follows)? The subject is
 * parsed in a trial; *subject receives it. */
static int is_match_statement(Parser *p, expr_ty *subject)
{
    Mark m;
    mark_save(p, &m);
    advance(p);
    p->no_invalid++;
    p->match_trial++;
    expr_ty e = starts_star_target(cur(p)->type) ? parse_match_subject(p) : NULL;
    int ok = e && !p->failed && at(p, T_COLON) && peek(p, 1) == T_NEWLINE;
    p->match_trial--;
    p->no_invalid--;
    if (ok) {
        *subject = e;
        return 1;
    }
    p->match_newline = e && !p->failed && at(p, T_NEWLINE);
    /* CPython tried this alternative first: an "invalid syntax" points at
     * the furthest token it reached. */
    int furthest = p->max_pos;
    mark_restore(p, &m);
    p->max_pos = furthest;
    return 0;
}

/* The simple statement starting with `match` failed: `match subject` and
 * a NEWLINE is CPython's "expected ':'". */
__attribute__((noinline)) static void check_match_colon(Parser *p, int start)
{
    if (p->err->kind == SYNERR_NOMEMORY)
        return;
    Mark m;
    mark_save(p, &m);
    p->failed = 0;
    p->pos = start + 1;
    p->no_invalid++;
    expr_ty e = starts_star_target(cur(p)->type) ? parse_match_subject(p) : NULL;
    p->no_invalid--;
    int ok = e && !p->failed && at(p, T_NEWLINE);
    Token *nl = cur(p);
    mark_restore(p, &m);
    if (ok) {
        p->failed = 0;
        p->generic_error = 0;
        error_tok(p, nl, "expected ':'");
    }
}

static match_case_ty parse_case_block(Parser *p)
{
    Token *t = cur(p);
    if (!tok_is_name(t, "case"))
        return syntax_error(p);
    advance(p);
    match_case_ty mc = arena_alloc(p->arena, sizeof(struct _match_case));
    if (!mc)
        return nomem(p);
    mc->pattern = parse_case_patterns(p);
    if (!mc->pattern)
        return NULL;
    if (accept(p, T_KW_IF)) {
        mc->guard = parse_named_expression(p);
        if (!mc->guard)
            return NULL;
    }
    if (expect_colon(p, 0) < 0 || parse_block(p, "'case' statement", t, &mc->body) < 0)
        return NULL;
    return mc;
}

/* match subject: NEWLINE INDENT case_block+ DEDENT (the subject and the
 * ':' parsed by is_match_statement). */
static stmt_ty parse_match(Parser *p, Token *kw, expr_ty subject)
{
    advance(p);   /* ':' */
    advance(p);   /* NEWLINE */
    if (!at(p, T_INDENT)) {
        Token *t = cur(p);
        return error_at(p, SYNERR_INDENTATION, t->lineno, t->col, t->end_lineno, t->end_col,
                        "expected an indented block after 'match' statement on line %d", kw->lineno);
    }
    advance(p);
    if (enter(p) < 0)
        return NULL;
    Vec cases = {0};
    do {
        match_case_ty mc = parse_case_block(p);
        if (!mc || vec_push(p, &cases, mc) < 0)
            return NULL;
    } while (!at(p, T_DEDENT) && !at(p, T_ENDMARKER));
    leave(p);
    accept(p, T_DEDENT);
    stmt_ty s = new_stmt(p, Match_kind, kw);
    if (!s || to_match_cases(p, &cases, &s->v.Match.cases) < 0)
        return NULL;
    s->v.Match.subject = subject;
    return end_stmt(p, s);
}

static int push_stmt(Parser *p, Vec *out, stmt_ty s)
{
    if (!s)
        return -1;
    return vec_push(p, out, s);
}

static int parse_statement(Parser *p, Vec *out)
{
    Token *t = cur(p);
    switch (t->type) {
    case T_KW_IF: return push_stmt(p, out, parse_if(p, "'if' statement"));
    case T_KW_WHILE: return push_stmt(p, out, parse_while(p));
    case T_KW_FOR: return push_stmt(p, out, parse_for(p, NULL));
    case T_KW_TRY: return push_stmt(p, out, parse_try(p));
    case T_KW_WITH: return push_stmt(p, out, parse_with(p, NULL));
    case T_KW_DEF: {
        Vec none = {0};
        return push_stmt(p, out, parse_funcdef(p, &none, NULL));
    }
    case T_KW_CLASS: {
        Vec none = {0};
        return push_stmt(p, out, parse_classdef(p, &none));
    }
    case T_AT: return push_stmt(p, out, parse_decorated(p));
    case T_KW_ASYNC: {
        int n = peek(p, 1);
        if (n == T_KW_DEF || n == T_KW_FOR || n == T_KW_WITH) {
            advance(p);
            Vec none = {0};
            stmt_ty s = n == T_KW_DEF ? parse_funcdef(p, &none, t) : n == T_KW_FOR ? parse_for(p, t) : parse_with(p, t);
            return push_stmt(p, out, s);
        }
        syntax_error(p);
        return -1;
    }
    case T_INDENT:
        syntax_error(p);
        return -1;
    case T_NAME:
        if (tok_is_name(t, "match")) {
            expr_ty subject;
            if (is_match_statement(p, &subject))
                return push_stmt(p, out, parse_match(p, t, subject));
            int start = p->pos;
            if (parse_simple_stmts(p, out) < 0) {
                check_match_colon(p, start);
                return -1;
            }
            if (p->match_newline)
                p->match_quirk = 1;
            return 0;
        }
        break;
    }
    return parse_simple_stmts(p, out);
}

/* dotted_name: NAME ('.' NAME)*, returned as one string. */
static identifier parse_dotted_name(Parser *p)
{
    if (!at(p, T_NAME))
        return syntax_error(p);
    Token *first = advance(p);
    LitBuf b = {0};
    if (lit_add(p, &b, first->start, (size_t)(first->end - first->start)) < 0)
        return NULL;
    while (at(p, T_DOT)) {
        advance(p);
        if (!at(p, T_NAME))
            return syntax_error(p);
        Token *n = advance(p);
        if (lit_add(p, &b, ".", 1) < 0 || lit_add(p, &b, n->start, (size_t)(n->end - n->start)) < 0)
            return NULL;
    }
    return b.s;
}

static alias_ty make_alias(Parser *p, identifier name, const Token *start)
{
    alias_ty a = arena_alloc(p->arena, sizeof(struct _alias));
    if (!a)
        return nomem(p);
    a->name = name;
    if (accept(p, T_KW_AS)) {
        if (!at(p, T_NAME))
            return syntax_error(p);
        a->asname = tok_ident(p, advance(p));
        if (!a->asname)
            return NULL;
    }
    Token *e = last_real(p);
    a->lineno = start->lineno;
    a->col_offset = start->col;
    a->end_lineno = e->end_lineno;
    a->end_col_offset = e->end_col;
    return a;
}

static stmt_ty parse_import(Parser *p)
{
    Token *t = advance(p);
    Vec names = {0};
    do {
        Token *start = cur(p);
        identifier n = parse_dotted_name(p);
        if (!n)
            return NULL;
        alias_ty a = make_alias(p, n, start);
        if (!a || vec_push(p, &names, a) < 0)
            return NULL;
    } while (accept(p, T_COMMA));
    stmt_ty s = new_stmt(p, Import_kind, t);
    if (!s || to_aliases(p, &names, &s->v.Import.names) < 0)
        return NULL;
    return end_stmt(p, s);
}

static stmt_ty parse_from_import(Parser *p)
{
    Token *t = advance(p);
    int level = 0;
    for (;;) {
        if (accept(p, T_DOT))
            level++;
        else if (accept(p, T_ELLIPSIS))
            level += 3;
        else
            break;
    }
    identifier module = NULL;
    if (!at(p, T_KW_IMPORT) || level == 0) {
        module = parse_dotted_name(p);
        if (!module)
            return NULL;
    }
    if (!accept(p, T_KW_IMPORT))
        return syntax_error(p);
    Vec names = {0};
    if (at(p, T_STAR)) {
        Token *st = advance(p);
        alias_ty a = arena_alloc(p->arena, sizeof(struct _alias));
        if (!a)
            return nomem(p);
        a->name = arena_strdup(p->arena, "*");
        if (!a->name)
            return nomem(p);
        a->lineno = st->lineno;
        a->col_offset = st->col;
        a->end_lineno = st->end_lineno;
        a->end_col_offset = st->end_col;
        if (vec_push(p, &names, a) < 0)
            return NULL;
    } else {
        int paren = accept(p, T_LPAR);
        for (;;) {
            if (!at(p, T_NAME))
                return syntax_error(p);
            Token *n = advance(p);
            identifier id = tok_ident(p, n);
            if (!id)
                return NULL;
            alias_ty a = make_alias(p, id, n);
            if (!a || vec_push(p, &names, a) < 0)
                return NULL;
            if (!accept(p, T_COMMA))
                break;
            if (paren && at(p, T_RPAR))
                break;
            if (!paren && !at(p, T_NAME)) {
                if (at(p, T_NEWLINE) || at(p, T_SEMI) || at(p, T_ENDMARKER))
                    return error_tok(p, cur(p), "trailing comma not allowed without surrounding parentheses");
                return syntax_error(p);
            }
        }
        if (paren && !accept(p, T_RPAR))
            return syntax_error(p);
    }
    stmt_ty s = new_stmt(p, ImportFrom_kind, t);
    if (!s || to_aliases(p, &names, &s->v.ImportFrom.names) < 0)
        return NULL;
    s->v.ImportFrom.module = module;
    s->v.ImportFrom.level = level;
    return end_stmt(p, s);
}

static stmt_ty parse_global(Parser *p, enum _stmt_kind kind)
{
    Token *t = advance(p);
    Vec names = {0};
    do {
        if (!at(p, T_NAME))
            return syntax_error(p);
        identifier n = tok_ident(p, advance(p));
        if (!n || vec_push(p, &names, n) < 0)
            return NULL;
    } while (accept(p, T_COMMA));
    stmt_ty s = new_stmt(p, kind, t);
    if (!s || to_identifiers(p, &names, &s->v.Global.names) < 0)
        return NULL;
    return end_stmt(p, s);
}

static stmt_ty parse_del(Parser *p)
{
    Token *t = advance(p);
    Vec targets = {0};
    do {
        int ty = cur(p)->type;
        if (targets.n && !starts_target(ty))
            break;
        expr_ty e = parse_star_expression(p);
        if (!e)
            return NULL;
        if (!make_target(p, e, 1) || vec_push(p, &targets, e) < 0)
            return NULL;
    } while (accept(p, T_COMMA));
    stmt_ty s = new_stmt(p, Delete_kind, t);
    if (!s || to_exprs(p, &targets, &s->v.Delete.targets) < 0)
        return NULL;
    return end_stmt(p, s);
}

/* The right-hand side of an assignment: yield_expr | star_expressions. */
static expr_ty parse_rhs(Parser *p)
{
    if (at(p, T_KW_YIELD))
        return parse_yield_expr(p);
    return parse_star_expressions(p);
}

static int augassign_op(int type, operator_ty *op)
{
    switch (type) {
    case T_PLUSEQUAL: *op = AST_Add; return 1;
    case T_MINEQUAL: *op = AST_Sub; return 1;
    case T_STAREQUAL: *op = AST_Mult; return 1;
    case T_ATEQUAL: *op = AST_MatMult; return 1;
    case T_SLASHEQUAL: *op = AST_Div; return 1;
    case T_PERCENTEQUAL: *op = AST_Mod; return 1;
    case T_AMPEREQUAL: *op = AST_BitAnd; return 1;
    case T_VBAREQUAL: *op = AST_BitOr; return 1;
    case T_CIRCUMFLEXEQUAL: *op = AST_BitXor; return 1;
    case T_LEFTSHIFTEQUAL: *op = AST_LShift; return 1;
    case T_RIGHTSHIFTEQUAL: *op = AST_RShift; return 1;
    case T_DOUBLESTAREQUAL: *op = AST_Pow; return 1;
    case T_DOUBLESLASHEQUAL: *op = AST_FloorDiv; return 1;
    }
    return 0;
}

/* Assignment targets t1 = t2 = ... = value: validate (CPython's messages). */
static int check_assign_targets(Parser *p, const Vec *targets, const int *eq_pos, expr_ty value)
{
    for (int i = 0; i < targets->n; i++) {
        expr_ty t = targets->items[i];
        if ((t->kind == Yield_kind || t->kind == YieldFrom_kind) && !is_parenthesized(p, t)) {
            error_exprs(p, t, t, "assignment to yield expression not possible");
            return -1;
        }
        expr_ty bad = invalid_target(t, 0);
        if (!bad) {
            set_ctx(t, AST_Store);
            continue;
        }
        int here = 0;
        if (i == 0) {
            expr_ty last = t;
            if (t->kind == Tuple_kind && !is_bitor_level(p, t) && t->v.Tuple.elts.n)
                last = t->v.Tuple.elts.items[t->v.Tuple.elts.n - 1];
            if (bad == last && is_bitor_level(p, last) && last->kind != List_kind && last->kind != Tuple_kind &&
                last->kind != GeneratorExp_kind && !is_const_kind(last, CONST_TRUE) &&
                !is_const_kind(last, CONST_FALSE) && !is_const_kind(last, CONST_NONE)) {
                expr_ty rhs = targets->n > 1 ? targets->items[1] : value;
                int ft = p->toks[eq_pos[0] + 1].type;
                if (ft != T_KW_NOT && ft != T_KW_LAMBDA && ft != T_KW_YIELD && ft != T_STAR && ft != T_KW_AWAIT) {
                    int rhs_simple = is_bitor_level(p, rhs) &&
                                     !(rhs->kind == Tuple_kind && !is_parenthesized(p, rhs) &&
                                       p->toks[tok_index_at(p, rhs->lineno, rhs->col_offset)].type != T_LPAR);
                    int after = tok_index_at(p, rhs->end_lineno, rhs->end_col_offset);
                    int followed_by_eq = p->toks[after].type == T_EQUAL || p->toks[after].type == T_COLONEQUAL;
                    here = !(rhs_simple && followed_by_eq);
                }
            }
        }
        error_exprs(p, bad, bad, "cannot assign to %s%s", expr_name(bad),
                    here ? " here. Maybe you meant '==' instead of '='?" : "");
        return -1;
    }
    return 0;
}

/* print "x": Python 2 style. */
__attribute__((noinline)) static void check_legacy_print(Parser *p, expr_ty e)
{
    Mark m;
    mark_save(p, &m);
    p->no_invalid++;
    expr_ty b = parse_star_expressions(p);
    p->no_invalid--;
    int ok = b && !p->failed;
    mark_restore(p, &m);
    if (ok)
        error_exprs(p, e, b, "Missing parentheses in call to '%s'. Did you mean %s(...)?", e->v.Name.id, e->v.Name.id);
}

/* Expression statements and assignments. */
static stmt_ty parse_expr_stmt(Parser *p)
{
    Token *t = cur(p);
    int start_pos = p->pos;
    expr_ty e = parse_rhs(p);
    if (!e)
        return NULL;
    if (at(p, T_COLONEQUAL) && e->kind != Name_kind)
        return error_exprs(p, e, e, "cannot use assignment expressions with %s", expr_name(e));
    operator_ty op;
    if (at(p, T_COLON)) {
        /* Annotated assignment. The messages for a bad target need an
         * annotation after the ':' (CPython's rules do); without one, the
         * error is at the ':'. */
        int paren = p->toks[start_pos].type == T_LPAR;
        int annotated = p->pos + 1 < p->ntoks && starts_expression(p->toks[p->pos + 1].type);
        if (!annotated && e->kind != Name_kind && e->kind != Attribute_kind && e->kind != Subscript_kind)
            return syntax_error(p);
        if (e->kind == Tuple_kind) {
            if (paren && is_bitor_level(p, e))
                return error_exprs(p, e, e, "only single target (not tuple) can be annotated");
            expr_ty first = e->v.Tuple.elts.n ? e->v.Tuple.elts.items[0] : e;
            return error_exprs(p, first, first, "only single target (not tuple) can be annotated");
        }
        if (e->kind == List_kind)
            return error_exprs(p, e, e, "only single target (not list) can be annotated");
        if (e->kind != Name_kind && e->kind != Attribute_kind && e->kind != Subscript_kind)
            return error_exprs(p, e, e, "illegal target for annotation");
        advance(p);
        expr_ty ann = parse_expression(p);
        if (!ann)
            return NULL;
        expr_ty value = NULL;
        if (accept(p, T_EQUAL)) {
            value = parse_rhs(p);
            if (!value)
                return NULL;
        }
        stmt_ty s = new_stmt(p, AnnAssign_kind, t);
        if (!s)
            return NULL;
        set_ctx(e, AST_Store);
        s->v.AnnAssign.target = e;
        s->v.AnnAssign.annotation = ann;
        s->v.AnnAssign.value = value;
        s->v.AnnAssign.simple = e->kind == Name_kind && !paren;
        return end_stmt(p, s);
    }
    if (augassign_op(cur(p)->type, &op)) {
        if (e->kind != Name_kind && e->kind != Attribute_kind && e->kind != Subscript_kind)
            return error_exprs(p, e, e, "'%s' is an illegal expression for augmented assignment", expr_name(e));
        advance(p);
        expr_ty value = parse_rhs(p);
        if (!value)
            return NULL;
        stmt_ty s = new_stmt(p, AugAssign_kind, t);
        if (!s)
            return NULL;
        set_ctx(e, AST_Store);
        s->v.AugAssign.target = e;
        s->v.AugAssign.op = op;
        s->v.AugAssign.value = value;
        return end_stmt(p, s);
    }
    if (at(p, T_EQUAL)) {
        Vec targets = {0};
        int eq_small[16];
        int *eq_pos = eq_small, eq_cap = 16;
        expr_ty value = e;
        while (at(p, T_EQUAL)) {
            if (targets.n == eq_cap) {
                int *n = arena_alloc(p->arena, sizeof(int) * (size_t)eq_cap * 2);
                if (!n)
                    return nomem(p);
                memcpy(n, eq_pos, sizeof(int) * (size_t)eq_cap);
                eq_pos = n;
                eq_cap *= 2;
            }
            eq_pos[targets.n] = p->pos;
            if (vec_push(p, &targets, value) < 0)
                return NULL;
            advance(p);
            value = parse_rhs(p);
            if (!value)
                return NULL;
        }
        if (check_assign_targets(p, &targets, eq_pos, value) < 0)
            return NULL;
        stmt_ty s = new_stmt(p, Assign_kind, t);
        if (!s || to_exprs(p, &targets, &s->v.Assign.targets) < 0)
            return NULL;
        s->v.Assign.value = value;
        return end_stmt(p, s);
    }
    if (e->kind == Name_kind && (strcmp(e->v.Name.id, "print") == 0 || strcmp(e->v.Name.id, "exec") == 0) &&
        !is_parenthesized(p, e) && (starts_expression(cur(p)->type) || at(p, T_STAR))) {
        check_legacy_print(p, e);
        if (p->failed)
            return NULL;
    }
    stmt_ty s = new_stmt(p, Expr_kind, t);
    if (!s)
        return NULL;
    s->v.Expr.value = e;
    return end_stmt(p, s);
}

static stmt_ty parse_simple_stmt(Parser *p)
{
    Token *t = cur(p);
    switch (t->type) {
    case T_KW_PASS: case T_KW_BREAK: case T_KW_CONTINUE: {
        advance(p);
        stmt_ty s = new_stmt(p, t->type == T_KW_PASS ? Pass_kind : t->type == T_KW_BREAK ? Break_kind : Continue_kind, t);
        return s ? end_stmt(p, s) : NULL;
    }
    case T_KW_RETURN: {
        advance(p);
        expr_ty v = NULL;
        if (starts_expression(cur(p)->type) || at(p, T_STAR)) {
            v = parse_star_expressions(p);
            if (!v)
                return NULL;
        }
        stmt_ty s = new_stmt(p, Return_kind, t);
        if (!s)
            return NULL;
        s->v.Return.value = v;
        return end_stmt(p, s);
    }
    case T_KW_RAISE: {
        advance(p);
        expr_ty exc = NULL, cause = NULL;
        if (starts_expression(cur(p)->type)) {
            exc = parse_expression(p);
            if (!exc)
                return NULL;
            if (accept(p, T_KW_FROM)) {
                cause = parse_expression(p);
                if (!cause)
                    return NULL;
            }
        }
        stmt_ty s = new_stmt(p, Raise_kind, t);
        if (!s)
            return NULL;
        s->v.Raise.exc = exc;
        s->v.Raise.cause = cause;
        return end_stmt(p, s);
    }
    case T_KW_GLOBAL: return parse_global(p, Global_kind);
    case T_KW_NONLOCAL: return parse_global(p, Nonlocal_kind);
    case T_KW_DEL: return parse_del(p);
    case T_KW_ASSERT: {
        advance(p);
        expr_ty test = parse_expression(p);
        if (!test)
            return NULL;
        expr_ty msg = NULL;
        if (accept(p, T_COMMA)) {
            msg = parse_expression(p);
            if (!msg)
                return NULL;
        }
        stmt_ty s = new_stmt(p, Assert_kind, t);
        if (!s)
            return NULL;
        s->v.Assert.test = test;
        s->v.Assert.msg = msg;
        return end_stmt(p, s);
    }
    case T_KW_IMPORT: return parse_import(p);
    case T_KW_FROM: return parse_from_import(p);
    }
    return parse_expr_stmt(p);
}

/* simple_stmt (';' simple_stmt)* [';'] NEWLINE */
static int parse_simple_stmts(Parser *p, Vec *out)
{
    for (;;) {
        stmt_ty s = parse_simple_stmt(p);
        if (!s || vec_push(p, out, s) < 0)
            return -1;
        if (!accept(p, T_SEMI))
            break;
        if (at(p, T_NEWLINE))
            break;
    }
    if (!accept(p, T_NEWLINE)) {
        syntax_error(p);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Entry point                                                         */
/* ------------------------------------------------------------------ */
static int tok_is_simple_start(int type)
{
    switch (type) {
    case T_KW_IF: case T_KW_WHILE: case T_KW_FOR: case T_KW_TRY: case T_KW_WITH: case T_KW_DEF:
    case T_KW_CLASS: case T_AT: case T_KW_ASYNC:
        return 0;
    }
    return 1;
}

static mod_ty parse_mod(Parser *p, int mode)
{
    mod_ty m = arena_alloc(p->arena, sizeof(struct _mod));
    if (!m)
        return nomem(p);
    Vec body = {0};
    if (mode == PARSE_EVAL) {
        m->kind = Expression_kind;
        Token *start = cur(p);
        expr_ty e = parse_expression(p);
        if (!e)
            return NULL;
        if (at(p, T_COMMA)) {
            Vec v = {0};
            if (parse_comma_items(p, &v, e, parse_expression, starts_expression) < 0 ||
                !(e = make_tuple_at(p, &v, AST_Load, start, last_real(p))))
                return NULL;
        }
        while (accept(p, T_NEWLINE))
            ;
        if (!at(p, T_ENDMARKER))
            return syntax_error(p);
        m->v.Expression.body = e;
        return m;
    }
    if (mode == PARSE_SINGLE) {
        m->kind = Interactive_kind;
        while (accept(p, T_NEWLINE))
            ;
        if (at(p, T_ENDMARKER))
            return syntax_error(p);
        int compound = !tok_is_simple_start(cur(p)->type);
        if (parse_statement(p, &body) < 0)
            return NULL;
        if (body.n == 1 && ((stmt_ty)body.items[0])->kind == Match_kind)
            compound = 1;
        Token *nl = prev_tok(p);
        while (accept(p, T_NEWLINE))
            ;
        if (!at(p, T_ENDMARKER)) {
            if (compound)
                return syntax_error(p);
            return error_tok(p, nl, "multiple statements found while compiling a single statement");
        }
        if (to_stmts(p, &body, &m->v.Interactive.body) < 0)
            return NULL;
        return m;
    }
    m->kind = Module_kind;
    while (!at(p, T_ENDMARKER)) {
        if (at(p, T_NEWLINE)) {
            advance(p);
            continue;
        }
        if (parse_statement(p, &body) < 0)
            return NULL;
    }
    if (to_stmts(p, &body, &m->v.Module.body) < 0)
        return NULL;
    return m;
}

/* CPython's parser makes a second pass with its error rules when the first
 * one fails. Its rule for `match subject` NEWLINE ("expected ':'") also
 * matches an expression statement such as `match(x)`, so after one, any
 * error of the second pass is reported as "expected ':'" at the furthest
 * token of the first (CPython 3.11 does this). Errors of its first pass
 * stay: the tokenizer's, and those of literals. Then, as CPython, a later
 * tokenizer error or an unclosed bracket takes precedence. 1: applied. */
static int match_quirk(Parser *p, const TokenArray *ta)
{
    static const char *const first_pass[] = {
        "f-string", "(unicode error)", "bytes can only contain ASCII", "imaginary number required",
        "cannot mix bytes and nonbytes", "too many nested levels", "expected '('", "expected ':'",
    };
    SyntaxErrorInfo *err = p->err;
    if (!p->match_quirk || (err->kind != SYNERR_SYNTAX && err->kind != SYNERR_INDENTATION))
        return 0;
    int lexer = p->lex_failed && strcmp(err->msg, p->lex_err.msg) == 0 && err->lineno == p->lex_err.lineno;
    if ((lexer && !p->lex_override) || (ta->unclosed && p->reached_end_first))
        return 0;   /* the first pass stopped at the tokenizer's error, or at the end inside brackets */
    for (size_t i = 0; i < sizeof first_pass / sizeof first_pass[0]; i++)
        if (strncmp(err->msg, first_pass[i], strlen(first_pass[i])) == 0)
            return 0;
    Token *t = &p->toks[p->max_pos < p->ntoks ? p->max_pos : p->ntoks - 1];
    if (p->lex_failed && p->lex_err.kind == SYNERR_SYNTAX)
        *err = p->lex_err;
    else if (ta->unclosed && t->lineno > ta->unclosed_line)
        lex_set_error(err, 0, ta->unclosed_line, ta->unclosed_col, ta->unclosed_line, ta->unclosed_col + 1,
                      "'%c' was never closed", ta->unclosed);
    else
        lex_set_error(err, SYNERR_SYNTAX, t->lineno, t->col, t->end_lineno, t->end_col, "expected ':'");
    return 1;
}

/* Byte column -> 1-based character offset in line [ls, le). */
static int char_offset(const char *ls, const char *le, int col)
{
    int chars = 0;
    const char *s = ls;
    while (s < le && s < ls + col) {
        uint32_t cp;
        s += lex_utf8_decode(s, (size_t)(le - s), &cp);
        chars++;
    }
    if (s < ls + col)
        chars += (int)(ls + col - s);
    return chars + 1;
}

/* Find line `lineno` (1-based) in buf: [*ls, *le) without the newline. */
static int find_line(const char *buf, size_t n, int lineno, const char **ls, const char **le)
{
    const char *s = buf, *end = buf + n;
    for (int l = 1; l < lineno; l++) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        if (!nl)
            return 0;
        s = nl + 1;
    }
    if (s > end || (s == end && lineno > 1 && !(n && buf[n - 1] == '\n')))
        return 0;
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    *ls = s;
    *le = nl ? nl : end;
    return 1;
}

/* Byte columns -> CPython's character offsets, and the line's text. */
static void finish_error(const char *buf, size_t n, SyntaxErrorInfo *err, int from_parser)
{
    if (err->kind == SYNERR_NOMEMORY || err->lineno <= 0) {
        err->text[0] = 0;
        return;
    }
    const char *ls, *le;
    if (find_line(buf, n, err->lineno, &ls, &le)) {
        int col = err->col_offset;
        err->col_offset = char_offset(ls, le, col < 0 ? 0 : col);
        size_t len = (size_t)(le - ls);
        int has_nl = le < buf + n;
        if (len > sizeof err->text - 2) {
            len = sizeof err->text - 2;
            while (len > 0 && ((unsigned char)ls[len] & 0xc0) == 0x80)
                len--;
        }
        memcpy(err->text, ls, len);
        if (has_nl || from_parser)
            err->text[len++] = '\n';
        err->text[len] = 0;
    } else {
        err->col_offset = err->col_offset + 1;
        err->text[0] = 0;
    }
    if (err->end_lineno > 0 && find_line(buf, n, err->end_lineno, &ls, &le))
        err->end_col_offset = char_offset(ls, le, err->end_col_offset < 0 ? 0 : err->end_col_offset);
    else if (err->end_lineno > 0)
        err->end_col_offset = err->end_col_offset + 1;
    if (err->no_columns)
        err->col_offset = err->end_col_offset = 0;
}

/* Check UTF-8 validity (a BOM is removed before). */
static int check_utf8(const char *s, size_t n, SyntaxErrorInfo *err)
{
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        uint32_t cp;
        int k = lex_utf8_decode(s + i, n - i, &cp);
        if (k == 1 || (cp >= 0xd800 && cp <= 0xdfff)) {   /* an encoded surrogate is not UTF-8 either */
            const char *why = (c >= 0xc2 && c <= 0xf4) ? (i + 1 >= n ? "unexpected end of data" : "invalid continuation byte")
                                                       : "invalid start byte";
            int line = 1;
            for (size_t j = 0; j < i; j++)
                line += s[j] == '\n';
            lex_set_error(err, SYNERR_SYNTAX, line, 0, 0, 0,
                          "(unicode error) 'utf-8' codec can't decode byte 0x%02x in position %zu: %s", c, i, why);
            return -1;
        }
        i += (size_t)k;
    }
    return 0;
}

/* The encoding named by a `# -*- coding: NAME -*-` comment on line 1 or 2
 * (PEP 263), lowercased with '_' as '-', in out; 0 if there is none. */
static int coding_declaration(const char *s, size_t n, char *out, size_t outsz)
{
    const char *end = s + n;
    for (int line = 1; line <= 2 && s < end; line++) {
        const char *eol = memchr(s, '\n', (size_t)(end - s));
        if (!eol)
            eol = end;
        const char *q = s;
        while (q < eol && (*q == ' ' || *q == '\t' || *q == '\f'))
            q++;
        if (q < eol && *q == '#') {
            for (const char *c = q; c + 6 < eol; c++) {
                if (memcmp(c, "coding", 6) == 0 && (c[6] == ':' || c[6] == '=')) {
                    const char *v = c + 7;
                    while (v < eol && (*v == ' ' || *v == '\t'))
                        v++;
                    size_t k = 0;
                    while (v < eol && k + 1 < outsz &&
                           ((*v >= 'a' && *v <= 'z') || (*v >= 'A' && *v <= 'Z') || (*v >= '0' && *v <= '9') ||
                            *v == '-' || *v == '_' || *v == '.')) {
                        char ch = *v++;
                        if (ch >= 'A' && ch <= 'Z')
                            ch = (char)(ch - 'A' + 'a');
                        out[k++] = ch == '_' ? '-' : ch;
                    }
                    out[k] = 0;
                    return k > 0;
                }
            }
        } else if (q < eol)
            return 0;   /* line 1 is code: no declaration on line 2 */
        s = eol + 1;
    }
    return 0;
}

static int name_is(const char *enc, const char *base)
{
    size_t n = strlen(base);
    return strncmp(enc, base, n) == 0 && (enc[n] == 0 || enc[n] == '-');
}

mod_ty parse_source(Arena *arena, const char *src, size_t len, const char *filename, int mode,
                    long long int_max_digits, SyntaxErrorInfo *err)
{
    (void)filename;
    memset(err, 0, sizeof *err);
    if (len && memchr(src, 0, len)) {
        lex_set_error(err, SYNERR_SYNTAX, 0, 0, 0, 0, "source code cannot contain null bytes");
        return NULL;
    }
    int bom = 0;
    if (len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0) {
        src += 3;
        len -= 3;
        bom = 1;
    }
    char enc[64];
    if (coding_declaration(src, len, enc, sizeof enc) && !name_is(enc, "utf-8") && !name_is(enc, "utf8")) {
        int latin1 = name_is(enc, "latin-1") || name_is(enc, "iso-8859-1") || name_is(enc, "iso8859-1") ||
                     name_is(enc, "latin1") || name_is(enc, "iso-latin-1") || strcmp(enc, "l1") == 0;
        if (bom) {
            lex_set_error(err, SYNERR_SYNTAX, 0, 0, 0, 0, "encoding problem: %s with BOM", enc);
            return NULL;
        }
        int ascii = 1;
        for (size_t i = 0; i < len; i++)
            if ((unsigned char)src[i] >= 0x80) {
                ascii = 0;
                break;
            }
        if (!ascii && latin1) {
            /* Latin-1 to UTF-8. */
            char *u = arena_alloc(arena, len * 2 + 1);
            if (!u) {
                lex_set_error(err, SYNERR_NOMEMORY, 0, 0, 0, 0, "out of memory");
                return NULL;
            }
            size_t k = 0;
            for (size_t i = 0; i < len; i++) {
                unsigned char c = (unsigned char)src[i];
                if (c < 0x80)
                    u[k++] = (char)c;
                else {
                    u[k++] = (char)(0xc0 | (c >> 6));
                    u[k++] = (char)(0x80 | (c & 0x3f));
                }
            }
            src = u;
            len = k;
        } else if (!ascii) {
            lex_set_error(err, SYNERR_SYNTAX, 0, 0, 0, 0, "source encoding '%s' is not supported yet", enc);
            return NULL;
        }
    }
    if (check_utf8(src, len, err) < 0)
        return NULL;
    /* A private copy with \r\n and \r turned into \n. */
    char *buf = arena_alloc(arena, len + 1);
    if (!buf) {
        lex_set_error(err, SYNERR_NOMEMORY, 0, 0, 0, 0, "out of memory");
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (src[i] == '\r') {
            buf[n++] = '\n';
            if (i + 1 < len && src[i + 1] == '\n')
                i++;
        } else
            buf[n++] = src[i];
    }
    buf[n] = 0;
    TokenArray ta = {0};
    Parser *p = arena_alloc(arena, sizeof(Parser));
    if (!p) {
        lex_set_error(err, SYNERR_NOMEMORY, 0, 0, 0, 0, "out of memory");
        return NULL;
    }
    if (lex_tokenize(arena, buf, n, 0, 0, 0, &ta, err) < 0) {
        if (err->kind == SYNERR_NOMEMORY || ta.n == 0) {
            finish_error(buf, n, err, 0);
            return NULL;
        }
        p->lex_failed = 1;
        p->lex_err = *err;
        memset(err, 0, sizeof *err);
    }
    p->arena = arena;
    p->int_max_digits = int_max_digits;
    p->toks = ta.items;
    p->ntoks = ta.n;
    p->err = err;
    p->unclosed = ta.unclosed;
    p->unclosed_line = ta.unclosed_line;
    p->unclosed_col = ta.unclosed_col;
    mod_ty m = parse_mod(p, mode);
    if (!m || p->failed) {
        if (!p->failed)
            syntax_error(p);
        /* CPython: a parser error inside brackets that are still open at the
         * end of the file is reported as the unclosed bracket. */
        if (match_quirk(p, &ta)) {
            /* reported as CPython does */
        } else if (ta.unclosed && err->kind != SYNERR_NOMEMORY && !p->lex_failed &&
            (p->reached_end || (!p->generic_error && (err->lineno > ta.outer_line ||
                                                       (err->lineno == ta.outer_line && err->col_offset >= ta.outer_col))))) {
            lex_set_error(err, 0, ta.unclosed_line, ta.unclosed_col, ta.unclosed_line, ta.unclosed_col + 1,
                          "'%c' was never closed", ta.unclosed);
        }
        /* Errors found by the tokenizer: text without a forced newline. */
        int from_lexer = p->lex_failed && strcmp(err->msg, p->lex_err.msg) == 0 &&
                         err->lineno == p->lex_err.lineno;
        finish_error(buf, n, err, !from_lexer);
        return NULL;
    }
    return m;
}
