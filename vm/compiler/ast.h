/* tmpy: the abstract syntax tree produced by the parser (parser.c) and
 * consumed by the compiler (symtable.c, compile.c).
 *
 * It mirrors Python 3.11's `ast` module (same node names, same field names,
 * same meaning), in the style of CPython's Python-ast.h:
 *
 *     stmt_ty s;  s->kind == If_kind;  s->v.If.test, s->v.If.body, s->v.If.orelse
 *     expr_ty e;  e->kind == Name_kind; e->v.Name.id, e->v.Name.ctx
 *
 * Plain C, no GC: every node, sequence and string lives in an Arena and is
 * freed all at once by arena_free(). Nothing here depends on tmpy.h.
 *
 * Conventions:
 *  - Sequences are embedded by value: `expr_seq elts` with elts.n items in
 *    elts.items[0 .. n-1] (items may be NULL when n == 0).
 *  - Optional children are NULL when absent (documented per field).
 *  - Identifiers are NUL-terminated UTF-8 strings in the arena (NFKC
 *    normalisation of non-ASCII identifiers is NOT done).
 *  - Positions: lineno / end_lineno are 1-based lines; col_offset /
 *    end_col_offset are 0-based UTF-8 BYTE offsets in their line (exactly as
 *    CPython's ast). end_* point just past the node.
 *  - Depth: the parser rejects input nested deeper than PARSE_MAX_DEPTH
 *    (3000, parser.h) with "too many nested levels" (CPython fails near
 *    there too), counting unary operators, operator/attribute/call chains
 *    and brackets; statements nest at most 100 deep (indentation limit). A
 *    recursive walk over a tree therefore needs at most ~3100 levels.
 *  - Async nodes: AsyncFunctionDef, AsyncFor and AsyncWith have the same
 *    fields as FunctionDef, For and With (as in CPython's ast) and share
 *    their union members: s->v.FunctionDef, s->v.For, s->v.With. Their
 *    position starts at the `async` keyword.
 *  - TryStar (a try with except* clauses) has Try's fields and shares its
 *    union member: s->v.Try.
 */
#ifndef TMPY_AST_H
#define TMPY_AST_H

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------ */
/* Arena: bump allocator in malloc'd blocks.                          */
/* ------------------------------------------------------------------ */
typedef struct Arena Arena;
Arena *arena_new(void);                      /* NULL if out of memory */
void arena_free(Arena *a);                   /* frees everything allocated in a (a may be NULL) */
void *arena_alloc(Arena *a, size_t n);       /* zeroed, 16-byte aligned; NULL if out of memory */
char *arena_strdup(Arena *a, const char *s); /* NULL if out of memory */
char *arena_strndup(Arena *a, const char *s, size_t n);  /* copies n bytes and adds a NUL */

/* ------------------------------------------------------------------ */
/* Node handles and sequences                                          */
/* ------------------------------------------------------------------ */
typedef char *identifier;
typedef struct _mod *mod_ty;
typedef struct _stmt *stmt_ty;
typedef struct _expr *expr_ty;
typedef struct _arguments *arguments_ty;
typedef struct _arg *arg_ty;
typedef struct _keyword *keyword_ty;
typedef struct _alias *alias_ty;
typedef struct _withitem *withitem_ty;
typedef struct _comprehension *comprehension_ty;
typedef struct _excepthandler *excepthandler_ty;
typedef struct _match_case *match_case_ty;
typedef struct _pattern *pattern_ty;

typedef enum { AST_Load = 1, AST_Store, AST_Del } expr_context_ty;
typedef enum { AST_And = 1, AST_Or } boolop_ty;
typedef enum {
    AST_Add = 1, AST_Sub, AST_Mult, AST_MatMult, AST_Div, AST_Mod, AST_Pow,
    AST_LShift, AST_RShift, AST_BitOr, AST_BitXor, AST_BitAnd, AST_FloorDiv
} operator_ty;
typedef enum { AST_Invert = 1, AST_Not, AST_UAdd, AST_USub } unaryop_ty;
typedef enum {
    AST_Eq = 1, AST_NotEq, AST_Lt, AST_LtE, AST_Gt, AST_GtE,
    AST_Is, AST_IsNot, AST_In, AST_NotIn
} cmpop_ty;

typedef struct { int n; stmt_ty *items; } stmt_seq;
typedef struct { int n; expr_ty *items; } expr_seq;
typedef struct { int n; arg_ty *items; } arg_seq;
typedef struct { int n; keyword_ty *items; } keyword_seq;
typedef struct { int n; alias_ty *items; } alias_seq;
typedef struct { int n; withitem_ty *items; } withitem_seq;
typedef struct { int n; comprehension_ty *items; } comprehension_seq;
typedef struct { int n; excepthandler_ty *items; } excepthandler_seq;
typedef struct { int n; identifier *items; } identifier_seq;
typedef struct { int n; cmpop_ty *items; } cmpop_seq;
typedef struct { int n; match_case_ty *items; } match_case_seq;
typedef struct { int n; pattern_ty *items; } pattern_seq;

/* ------------------------------------------------------------------ */
/* Constants (the value of a Constant node)                            */
/* ------------------------------------------------------------------ */
typedef enum {
    CONST_NONE = 1,   /* None */
    CONST_TRUE,       /* True */
    CONST_FALSE,      /* False */
    CONST_ELLIPSIS,   /* ... */
    CONST_INT,        /* an int literal (never negative: -1 is UnaryOp(USub, 1)) */
    CONST_FLOAT,      /* a float literal (1.5, 1e10, .5, 1_0.0) */
    CONST_IMAG,       /* an imaginary literal (1j, 2.5e3J): the complex 0 + f*1j */
    CONST_STR,        /* a str literal (after concatenation and escape decoding) */
    CONST_BYTES       /* a bytes literal (after concatenation and escape decoding) */
} constant_kind;

typedef struct constant {
    constant_kind kind;
    /* CONST_INT: the digits, without prefix (0x/0o/0b) and without
     * underscores, NUL-terminated, in base `base` (10, 16, 8 or 2): call
     * int_from_string(s, len, base). Leading zeros only for "0", "00"...
     * If the value fits in int64_t, fits_i64 is 1 and i64 holds it. */
    int base;
    int fits_i64;
    int64_t i64;
    /* CONST_INT: the digit text (len = strlen(s)).
     * CONST_STR: UTF-8 bytes, len bytes, NUL-terminated (may contain NULs
     *   via "\0"). Escapes are decoded. A lone surrogate escape ("\ud800")
     *   is encoded as its 3-byte generalized UTF-8 sequence (ED A0 80).
     * CONST_BYTES: the raw bytes, len bytes (NUL added after them). */
    const char *s;
    size_t len;
    /* CONST_FLOAT: the value. CONST_IMAG: the imaginary part. */
    double f;
    /* CONST_STR: 1 when the first literal had a lowercase u prefix (the ast's
     * kind='u'; only unparsing shows it). */
    int u_prefix;
} constant;

/* ------------------------------------------------------------------ */
/* mod                                                                */
/* ------------------------------------------------------------------ */
enum _mod_kind { Module_kind = 1, Interactive_kind, Expression_kind };
struct _mod {
    enum _mod_kind kind;
    union {
        struct { stmt_seq body; } Module;        /* COMPILE_EXEC: a file */
        struct { stmt_seq body; } Interactive;   /* COMPILE_SINGLE: one interactive statement
                                                    (compiler prints expression statements' values) */
        struct { expr_ty body; } Expression;     /* COMPILE_EVAL: one expression */
    } v;
};

/* ------------------------------------------------------------------ */
/* stmt                                                               */
/* ------------------------------------------------------------------ */
enum _stmt_kind {
    FunctionDef_kind = 1, ClassDef_kind, Return_kind, Delete_kind, Assign_kind,
    AugAssign_kind, AnnAssign_kind, For_kind, While_kind, If_kind, With_kind,
    Raise_kind, Try_kind, TryStar_kind, Assert_kind, Import_kind, ImportFrom_kind,
    Global_kind, Nonlocal_kind, Expr_kind, Pass_kind, Break_kind, Continue_kind,
    Match_kind, AsyncFunctionDef_kind, AsyncFor_kind, AsyncWith_kind
};
struct _stmt {
    enum _stmt_kind kind;
    union {
        /* def name(args) -> returns: body. decorator_list in source order
         * (applied last to first). returns: NULL if no annotation.
         * lineno of the node is the `def` line (not the first decorator). */
        struct { identifier name; arguments_ty args; stmt_seq body;
                 expr_seq decorator_list; expr_ty returns; } FunctionDef;
        /* class name(bases, keywords): body. Starred bases and **kw keywords
         * possible (keyword.arg NULL). lineno is the `class` line. */
        struct { identifier name; expr_seq bases; keyword_seq keywords;
                 stmt_seq body; expr_seq decorator_list; } ClassDef;
        struct { expr_ty value; /* NULL: bare return */ } Return;
        /* del targets: each a Name/Attribute/Subscript (ctx Del) or a
         * Tuple/List of those (ctx Del). */
        struct { expr_seq targets; } Delete;
        /* t1 = t2 = value: targets [t1, t2] (ctx Store; Name, Attribute,
         * Subscript, Starred inside Tuple/List, Tuple, List). */
        struct { expr_seq targets; expr_ty value; } Assign;
        /* target op= value. target: Name/Attribute/Subscript (ctx Store). */
        struct { expr_ty target; operator_ty op; expr_ty value; } AugAssign;
        /* target: annotation [= value]. value NULL if absent. simple is 1
         * when target is a plain Name not in parentheses. */
        struct { expr_ty target; expr_ty annotation; expr_ty value; int simple; } AnnAssign;
        struct { expr_ty target; expr_ty iter; stmt_seq body; stmt_seq orelse; } For;
        struct { expr_ty test; stmt_seq body; stmt_seq orelse; } While;
        /* elif chains: orelse holds a single nested If. */
        struct { expr_ty test; stmt_seq body; stmt_seq orelse; } If;
        /* with a as b, c: body   (items.n >= 1) */
        struct { withitem_seq items; stmt_seq body; } With;
        /* raise [exc [from cause]]: both NULL for a bare raise. */
        struct { expr_ty exc; expr_ty cause; } Raise;
        /* try: body; handlers; else: orelse; finally: finalbody */
        struct { stmt_seq body; excepthandler_seq handlers; stmt_seq orelse;
                 stmt_seq finalbody; } Try;
        struct { expr_ty test; expr_ty msg; /* NULL if absent */ } Assert;
        /* import a.b.c as d, e */
        struct { alias_seq names; } Import;
        /* from ..module import names. module NULL for `from . import x`;
         * level = number of leading dots; names may be the single alias "*". */
        struct { identifier module; alias_seq names; int level; } ImportFrom;
        struct { identifier_seq names; } Global;
        struct { identifier_seq names; } Nonlocal;
        struct { expr_ty value; } Expr;     /* expression statement */
        /* match subject: cases (cases.n >= 1). A subject with a comma is
         * a Tuple. */
        struct { expr_ty subject; match_case_seq cases; } Match;
    } v;
    int lineno, col_offset, end_lineno, end_col_offset;
};

/* ------------------------------------------------------------------ */
/* expr                                                               */
/* ------------------------------------------------------------------ */
enum _expr_kind {
    BoolOp_kind = 1, NamedExpr_kind, BinOp_kind, UnaryOp_kind, Lambda_kind,
    IfExp_kind, Dict_kind, Set_kind, ListComp_kind, SetComp_kind,
    DictComp_kind, GeneratorExp_kind, Yield_kind, YieldFrom_kind,
    Compare_kind, Call_kind, FormattedValue_kind, JoinedStr_kind,
    Constant_kind, Attribute_kind, Subscript_kind, Starred_kind, Name_kind,
    List_kind, Tuple_kind, Slice_kind, Await_kind
};
struct _expr {
    enum _expr_kind kind;
    int depth_;     /* parser internal: height of the subtree (0: not computed yet) */
    union {
        /* a and b and c: values [a, b, c] (n >= 2) */
        struct { boolop_ty op; expr_seq values; } BoolOp;
        /* (target := value): target is a Name (ctx Store) */
        struct { expr_ty target; expr_ty value; } NamedExpr;
        struct { expr_ty left; operator_ty op; expr_ty right; } BinOp;
        struct { unaryop_ty op; expr_ty operand; } UnaryOp;
        struct { arguments_ty args; expr_ty body; } Lambda;
        /* body if test else orelse */
        struct { expr_ty test; expr_ty body; expr_ty orelse; } IfExp;
        /* {k: v, **m}: keys.items[i] is NULL for a `**m` entry (values.items[i] = m).
         * keys.n == values.n. */
        struct { expr_seq keys; expr_seq values; } Dict;
        struct { expr_seq elts; } Set;     /* n >= 1 ({} is an empty Dict) */
        struct { expr_ty elt; comprehension_seq generators; } ListComp;
        struct { expr_ty elt; comprehension_seq generators; } SetComp;
        struct { expr_ty key; expr_ty value; comprehension_seq generators; } DictComp;
        struct { expr_ty elt; comprehension_seq generators; } GeneratorExp;
        struct { expr_ty value; /* NULL: bare yield */ } Yield;
        struct { expr_ty value; } YieldFrom;
        struct { expr_ty value; } Await;   /* await value */
        /* left ops[0] comparators[0] ops[1] comparators[1] ... (n equal, >= 1) */
        struct { expr_ty left; cmpop_seq ops; expr_seq comparators; } Compare;
        /* func(args, keywords). args may contain Starred (*x); keywords with
         * arg NULL are **m. Source order between positional and keyword
         * groups is not kept (like CPython). */
        struct { expr_ty func; expr_seq args; keyword_seq keywords; } Call;
        /* One {value!conversion:format_spec} field of an f-string.
         * conversion: -1 none, 's' (115), 'r' (114), 'a' (97).
         * format_spec: NULL or a JoinedStr. For {x=} the JoinedStr holds the
         * text "x=" as a Constant before this node, and conversion is 'r'
         * unless a conversion or a format spec is given (CPython rules). */
        struct { expr_ty value; int conversion; expr_ty format_spec; } FormattedValue;
        /* An f-string (or a concatenation involving one): values are
         * Constant(str) and FormattedValue nodes in order. Adjacent
         * constant parts are merged; empty ones dropped. */
        struct { expr_seq values; } JoinedStr;
        struct { constant value; } Constant;
        struct { expr_ty value; identifier attr; expr_context_ty ctx; } Attribute;
        /* value[slice]: slice is an expression, a Slice node, or a Tuple
         * possibly containing Slice nodes (a[1:2, 3]). */
        struct { expr_ty value; expr_ty slice; expr_context_ty ctx; } Subscript;
        struct { expr_ty value; expr_context_ty ctx; } Starred;
        struct { identifier id; expr_context_ty ctx; } Name;
        struct { expr_seq elts; expr_context_ty ctx; } List;
        struct { expr_seq elts; expr_context_ty ctx; } Tuple;
        /* lower:upper:step, each NULL if absent (only inside Subscript.slice) */
        struct { expr_ty lower; expr_ty upper; expr_ty step; } Slice;
    } v;
    int lineno, col_offset, end_lineno, end_col_offset;
};

/* ------------------------------------------------------------------ */
/* Helper nodes                                                        */
/* ------------------------------------------------------------------ */
/* A comprehension clause: `for target in iter if ifs[0] if ifs[1]`. */
struct _comprehension {
    expr_ty target;     /* ctx Store */
    expr_ty iter;
    expr_seq ifs;
    int is_async;       /* 1: `async for` */
};

/* `except type as name: body`. type NULL for a bare except; name NULL if no `as`. */
struct _excepthandler {
    expr_ty type;
    identifier name;
    stmt_seq body;
    int lineno, col_offset, end_lineno, end_col_offset;
};

/* def f(posonlyargs, /, args, *vararg, kwonlyargs, **kwarg)
 * defaults: default values of the LAST defaults.n of posonlyargs+args
 *   (in order).
 * kw_defaults: one entry per kwonlyargs item, NULL if that one has none.
 * vararg / kwarg: NULL if absent. */
struct _arguments {
    arg_seq posonlyargs;
    arg_seq args;
    arg_ty vararg;
    arg_seq kwonlyargs;
    expr_seq kw_defaults;
    arg_ty kwarg;
    expr_seq defaults;
};

struct _arg {
    identifier arg;
    expr_ty annotation;     /* NULL if none */
    int lineno, col_offset, end_lineno, end_col_offset;
};

/* A keyword argument in a call or class bases: arg=value, or **value (arg NULL). */
struct _keyword {
    identifier arg;
    expr_ty value;
    int lineno, col_offset, end_lineno, end_col_offset;
};

/* import name as asname: name may be dotted ("a.b.c") or "*"; asname NULL if absent. */
struct _alias {
    identifier name;
    identifier asname;
    int lineno, col_offset, end_lineno, end_col_offset;
};

/* `case pattern if guard: body` (guard NULL if absent). */
struct _match_case {
    pattern_ty pattern;
    expr_ty guard;
    stmt_seq body;
};

/* Patterns (PEP 634), as Python 3.11's ast:
 *  MatchValue: a literal or a dotted name compared with ==. value is a
 *    Constant (numbers, strings), UnaryOp(USub, Constant) for a negative
 *    number, an Attribute chain (a.b.c), or a JoinedStr (an f-string: the
 *    compiler rejects it, as CPython's does).
 *  MatchSingleton: None / True / False, compared with `is` (value.kind is
 *    CONST_NONE, CONST_TRUE or CONST_FALSE).
 *  MatchSequence: [p, ...], (p, ...) or p, q at the top of a case; at most
 *    one MatchStar among patterns (more: the compiler's SyntaxError).
 *  MatchMapping: {k: p, ..., **rest}: keys (Constant, negative number,
 *    Attribute or JoinedStr, as MatchValue's) and patterns pair up;
 *    rest NULL if absent.
 *  MatchClass: cls(patterns..., kwd_attrs[i]=kwd_patterns[i]...): cls is a
 *    Name or an Attribute chain.
 *  MatchStar: *name in a sequence (name NULL for *_).
 *  MatchAs: `pattern as name`; pattern NULL: a capture `name`, or the
 *    wildcard `_` when name is NULL too.
 *  MatchOr: p | q | ... (patterns.n >= 2). */
enum _pattern_kind {
    MatchValue_kind = 1, MatchSingleton_kind, MatchSequence_kind, MatchMapping_kind,
    MatchClass_kind, MatchStar_kind, MatchAs_kind, MatchOr_kind
};
struct _pattern {
    enum _pattern_kind kind;
    union {
        struct { expr_ty value; } MatchValue;
        struct { constant value; } MatchSingleton;
        struct { pattern_seq patterns; } MatchSequence;
        struct { expr_seq keys; pattern_seq patterns; identifier rest; } MatchMapping;
        struct { expr_ty cls; pattern_seq patterns; identifier_seq kwd_attrs;
                 pattern_seq kwd_patterns; } MatchClass;
        struct { identifier name; } MatchStar;
        struct { pattern_ty pattern; identifier name; } MatchAs;
        struct { pattern_seq patterns; } MatchOr;
    } v;
    int lineno, col_offset, end_lineno, end_col_offset;
};

/* with context_expr as optional_vars (NULL if no `as`; ctx Store) */
struct _withitem {
    expr_ty context_expr;
    expr_ty optional_vars;
};

/* ------------------------------------------------------------------ */
/* Utilities (ast.c)                                                   */
/* ------------------------------------------------------------------ */
#include <stdio.h>
/* The decimal digits of an int literal's digits in base 2/8/10/16 (without
 * leading zeros), malloc'd; NULL if out of memory. */
char *ast_int_to_decimal(const char *digits, int base);

#endif
/* AST-READY */
