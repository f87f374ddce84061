/* tmpy: the bytecode compiler. Source -> AST (parser) -> symbol table
 * (symtable.c) -> instruction lists (this file, plain C) -> code objects
 * (the thin last step, unit_to_code, is the only part that touches the GC).
 *
 * Follows vm/opcodes.h exactly (no deviation). Choices opcodes.h leaves
 * open (also listed in compile.h):
 *  - function code: consts[0] is the docstring (flag CO_HAS_DOCSTRING of
 *    tmpy.h) or None; lambdas: None;
 *  - parameter cells come first among the cell vars (cell2arg), cells of
 *    parameters beyond 16 are filled by a LOAD_FAST/STORE_DEREF prologue;
 *  - a class body needing __class__ stores the cell as __classcell__ and
 *    returns None;
 *  - COMPILE_SINGLE expression statements call sys.displayhook(value);
 *  - every backward jump is a JUMP_BACKWARD (loops never jump back
 *    conditionally; a while test is compiled twice, as CPython 3.11 does);
 *  - `from __future__ import x` is checked, then imported as any from-import.
 * Like CPython it folds constant int/float/complex arithmetic and tuples of
 * constants (only when the result is exact and raises nothing), and
 * prints its SyntaxWarnings ("is" with a literal, ...) to sys.stderr.
 *
 * Layout of this file: compiler state and helpers; constants and folding;
 * names; units (one per code object); block unwinding; SyntaxWarnings;
 * targets and conditions; functions and classes; statements; expressions;
 * assembly (labels, stack and block depth, encoding); test-build dumps;
 * emission into GC objects; errors; vm_compile; disassembler.
 */
#include "compile.h"
#include "symtable.h"
#include "ast.h"
#include "opcodes.h"

#include "parser.h"
#include "positions.h"
#include "unparse.h"
#include "objects/numbers.h"   /* cplx_quot: folding complex quotients */

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *const op_names[] = {
#define OP_NAME_STR(name) #name,
    OP_LIST(OP_NAME_STR)
#undef OP_NAME_STR
};

/* CPython's limit on statically nested blocks (loops, try, with). */
#define MAX_FBLOCKS 20
/* Displays with more items than this are built incrementally. */
#define STACK_USE_GUIDELINE 30
#define ARG_LIMIT ((int)INSTR_ARG_MAX)

/* ------------------------------------------------------------------ */
/* Compiler state                                                      */
/* ------------------------------------------------------------------ */

typedef enum { K_NONE, K_TRUE, K_FALSE, K_ELLIPSIS, K_INT, K_BIGINT, K_FLOAT, K_COMPLEX, K_STR, K_BYTES, K_TUPLE, K_FROZENSET, K_CODE } ConstKind;

struct Unit;
typedef struct CConst {
    ConstKind kind;
    bool neg;                 /* K_BIGINT: negative */
    int base;                 /* K_BIGINT */
    int nitems;               /* K_TUPLE, K_FROZENSET */
    int64_t i;                /* K_INT */
    double f;                 /* K_FLOAT; K_COMPLEX: the real part */
    double fi;                /* K_COMPLEX: the imaginary part */
    const char *s;            /* K_STR, K_BYTES, K_BIGINT digits */
    size_t len;
    struct CConst **items;    /* K_TUPLE, K_FROZENSET (a set display's items) */
    struct Unit *code;        /* K_CODE */
    uint32_t hash;
} CConst;

/* A source range (PEP 657): 1-based lines, 0-based UTF-8 byte columns; a
 * column of -1 is unknown, a line of 0 means no position. */
typedef struct SrcPos {
    int32_t line, end_line, col, end_col;
} SrcPos;

typedef struct Instr {
    uint8_t op;
    int32_t arg;              /* jumps: a label id until assembly */
    int32_t line;
    SrcPos pos;               /* what a traceback points at (co_positions) */
} Instr;

/* A table of strings with their index (names, varnames). */
typedef struct StrTab {
    const char **items;
    int n, cap;
    int *slots;
    int nslots;
} StrTab;

typedef enum {
    FB_WHILE, FB_FOR, FB_TRY_EXCEPT, FB_FINALLY_TRY, FB_FINALLY_END, FB_WITH, FB_HANDLER_CLEANUP, FB_POP_VALUE,
    FB_ASYNC_WITH, FB_EXCEPT_STAR
} FBKind;

typedef struct FBlock {
    FBKind kind;
    int start;                /* loops: the `continue` label */
    int exit;                 /* loops: the `break` label */
    const stmt_seq *finalbody;/* FB_FINALLY_TRY */
    const char *name;         /* FB_HANDLER_CLEANUP: the `as` name or NULL */
} FBlock;

typedef enum { U_MODULE, U_CLASS, U_FUNCTION, U_LAMBDA, U_COMP } UnitKind;

typedef struct Unit {
    UnitKind kind;
    Scope *ste;
    struct Unit *parent;
    const char *name;
    char *qualname;           /* malloc'd */
    const char *private_name; /* for __name mangling */
    int firstlineno;
    int argcount, posonlyargcount, kwonlyargcount;
    int flags;
    Instr *ins;
    int nins, capins;
    int *labels;              /* label id -> instruction index (-1: unbound) */
    int nlabels, caplabels;
    CConst **consts;
    int nconsts, capconsts;
    int *cslots;              /* const hash index */
    int ncslots;
    StrTab names, varnames, cells, frees;
    int nparamcells;
    FBlock fblocks[MAX_FBLOCKS];
    int nfblocks;
    int lineno;               /* line given to emitted instructions */
    SrcPos pos;               /* position given to emitted instructions */
    /* assembled */
    uint32_t *code;
    int32_t *lines;
    uint8_t *positions;       /* the encoded position table (positions.c) */
    size_t npositions;
    int ncode;
    int ncaches;
    int stacksize;
} Unit;

typedef struct PoolBlock {
    struct PoolBlock *next;
    size_t used, size;
    _Alignas(16) char data[];
} PoolBlock;

typedef struct Compiler {
    SymTable *st;
    CompileError *err;
    Unit *u;                  /* the unit being compiled */
    Unit **units;             /* every unit made (to free them) */
    int nunits, capunits;
    PoolBlock *pool;
    int depth;
    bool interactive;
    int optimize;                 /* -O level: 1 drops asserts and folds __debug__ to False; 2 also docstrings */
    const stmt_seq *module_body;  /* for the placement rule of `from __future__ import` */
    int future_prefix;            /* module_body items [0, future_prefix) may be future imports */
    struct CompileWarning *warnings;  /* SyntaxWarnings, printed by vm_compile */
    int nwarnings, capwarnings;
} Compiler;

typedef struct CompileWarning {
    int lineno;
    char msg[200];
} CompileWarning;

/* Every codegen function returns false after recording an error in c->err. */
#define TRY(x)                \
    do {                      \
        if (!(x))             \
            return false;     \
    } while (0)

static bool grow(void **p, int *cap, int need, size_t item)
{
    if (need <= *cap)
        return true;
    int n = *cap ? *cap * 2 : 16;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, (size_t)n * item);
    if (!q)
        return false;
    *p = q;
    *cap = n;
    return true;
}

static bool cerror(Compiler *c, int kind, int lineno, int col, int end_lineno, int end_col, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
static bool cerror(Compiler *c, int kind, int lineno, int col, int end_lineno, int end_col, const char *fmt, ...)
{
    CompileError *err = c->err;
    if (err->kind != CERR_NONE)
        return false;
    err->kind = kind;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->lineno = lineno;
    err->col_offset = col;
    err->end_lineno = end_lineno;
    err->end_col_offset = end_col;
    return false;
}

#define SYNERR(c, node, ...) \
    cerror((c), CERR_SYNTAX, (node)->lineno, (node)->col_offset, (node)->end_lineno, (node)->end_col_offset, __VA_ARGS__)

static bool nomem(Compiler *c)
{
    return cerror(c, CERR_MEMORY, 0, 0, 0, 0, "out of memory");
}

/* Record a SyntaxWarning at the current line (CPython's compiler_warn). */
static bool cwarn(Compiler *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool cwarn(Compiler *c, const char *fmt, ...)
{
    if (!grow((void **)&c->warnings, &c->capwarnings, c->nwarnings + 1, sizeof(CompileWarning)))
        return nomem(c);
    CompileWarning *w = &c->warnings[c->nwarnings++];
    w->lineno = c->u ? c->u->lineno : 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->msg, sizeof w->msg, fmt, ap);
    va_end(ap);
    return true;
}

static bool internal_error(Compiler *c, const char *what)
{
    return cerror(c, CERR_SYSTEM, c->u ? c->u->lineno : 0, 0, c->u ? c->u->lineno : 0, 0,
                  "compiler bug: %s", what);
}

static void *pool_alloc(Compiler *c, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    PoolBlock *b = c->pool;
    if (!b || b->used + n > b->size) {
        size_t size = n > 16384 ? n : 16384;
        b = malloc(sizeof(PoolBlock) + size);
        if (!b) {
            nomem(c);
            return NULL;
        }
        b->next = c->pool;
        b->used = 0;
        b->size = size;
        c->pool = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

/* ------------------------------------------------------------------ */
/* String tables                                                       */
/* ------------------------------------------------------------------ */

/* A new open-addressing index of n (a power of two) empty (-1) slots, for
 * the string tables and the constants; NULL: out of memory (recorded). */
static int *index_new(Compiler *c, int n)
{
    int *slots = malloc((size_t)n * sizeof(int));
    if (!slots) {
        nomem(c);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        slots[i] = -1;
    return slots;
}

static int strtab_find_slot(const StrTab *t, const char *s, uint32_t h)
{
    int mask = t->nslots - 1, i = (int)(h & (uint32_t)mask);
    while (t->slots[i] >= 0 && strcmp(t->items[t->slots[i]], s) != 0)
        i = (i + 1) & mask;
    return i;
}

static int strtab_lookup(const StrTab *t, const char *s)
{
    if (!t->nslots)
        return -1;
    return t->slots[strtab_find_slot(t, s, symtable_hash(s))];
}

/* Index of s in t, added if missing; -1 on error (recorded). */
static int strtab_add(Compiler *c, StrTab *t, const char *s)
{
    uint32_t h = symtable_hash(s);
    if (t->nslots) {
        int ix = t->slots[strtab_find_slot(t, s, h)];
        if (ix >= 0)
            return ix;
    }
    if (t->n >= ARG_LIMIT) {
        cerror(c, CERR_SYNTAX, c->u ? c->u->lineno : 0, 0, c->u ? c->u->lineno : 0, 0,
               "too many names in one code object");
        return -1;
    }
    if ((t->n + 1) * 2 > t->nslots) {
        int n = t->nslots ? t->nslots * 2 : 16;
        int *slots = index_new(c, n);
        if (!slots)
            return -1;
        free(t->slots);
        t->slots = slots;
        t->nslots = n;
        for (int k = 0; k < t->n; k++)
            t->slots[strtab_find_slot(t, t->items[k], symtable_hash(t->items[k]))] = k;
    }
    if (!grow((void **)&t->items, &t->cap, t->n + 1, sizeof(char *))) {
        nomem(c);
        return -1;
    }
    t->items[t->n] = s;
    t->slots[strtab_find_slot(t, s, h)] = t->n;
    return t->n++;
}

static void strtab_free(StrTab *t)
{
    free(t->items);
    free(t->slots);
}

/* ------------------------------------------------------------------ */
/* Instructions and labels                                             */
/* ------------------------------------------------------------------ */

static bool is_jump_op(int op)
{
    switch (op) {
    case OP_JUMP: case OP_JUMP_BACKWARD: case OP_POP_JUMP_IF_FALSE: case OP_POP_JUMP_IF_TRUE:
    case OP_JUMP_IF_FALSE_OR_POP: case OP_JUMP_IF_TRUE_OR_POP: case OP_POP_JUMP_IF_NONE:
    case OP_POP_JUMP_IF_NOT_NONE: case OP_FOR_ITER: case OP_SETUP_FINALLY: case OP_SETUP_WITH:
    case OP_SETUP_ASYNC_WITH: case OP_JUMP_IF_NOT_EXC_MATCH: case OP_CHECK_EG_MATCH:
        return true;
    default:
        return false;
    }
}

/* Ops whose argument is a cell/free index to be moved past the plain locals. */
static bool is_deref_op(int op)
{
    return op == OP_LOAD_DEREF || op == OP_STORE_DEREF || op == OP_DELETE_DEREF || op == OP_LOAD_CLOSURE ||
           op == OP_LOAD_CLASSDEREF;
}

static bool emit(Compiler *c, int op, int arg)
{
    Unit *u = c->u;
    if (!grow((void **)&u->ins, &u->capins, u->nins + 1, sizeof(Instr)))
        return nomem(c);
    Instr *i = &u->ins[u->nins++];
    i->op = (uint8_t)op;
    i->arg = arg;
    i->line = u->lineno;
    i->pos = u->pos;
    return true;
}

/* The position of an AST node (anything with the four position fields). */
#define NODE_POS(n) ((SrcPos){(n)->lineno, (n)->end_lineno, (n)->col_offset, (n)->end_col_offset})

/* CPython's rule for an attribute on a later line than where its value
 * starts (o\n.m): the position starts at the attribute's name. */
static void pos_to_attr(Compiler *c, expr_ty attr)
{
    SrcPos *p = &c->u->pos;
    if (p->line == attr->end_lineno)
        return;
    p->line = attr->end_lineno;
    int len = (int)strlen(attr->v.Attribute.attr);
    if (len <= attr->end_col_offset)
        p->col = attr->end_col_offset - len;
    else
        p->col = p->end_col = -1;
    if (p->end_line < p->line)
        p->end_line = p->line;
    if (p->line == p->end_line && p->end_col < p->col)
        p->end_col = p->col;
}

static int new_label(Compiler *c)
{
    Unit *u = c->u;
    if (!grow((void **)&u->labels, &u->caplabels, u->nlabels + 1, sizeof(int))) {
        nomem(c);
        return -1;
    }
    u->labels[u->nlabels] = -1;
    return u->nlabels++;
}

#define NEW_LABEL(var)            \
    int var = new_label(c);       \
    if (var < 0)                  \
        return false

static void bind_label(Compiler *c, int label)
{
    c->u->labels[label] = c->u->nins;
}

/* ------------------------------------------------------------------ */
/* Constants                                                           */
/* ------------------------------------------------------------------ */

static uint32_t hash_bytes(uint32_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 16777619u;
    return h;
}

static uint32_t const_hash(CConst *k)
{
    uint32_t h = 2166136261u ^ (uint32_t)k->kind * 977u;
    switch (k->kind) {
    case K_INT: h = hash_bytes(h, &k->i, sizeof k->i); break;
    case K_FLOAT: h = hash_bytes(h, &k->f, sizeof k->f); break;
    case K_COMPLEX: h = hash_bytes(hash_bytes(h, &k->f, sizeof k->f), &k->fi, sizeof k->fi); break;
    case K_BIGINT: h = hash_bytes(h, k->s, k->len) ^ (uint32_t)k->neg ^ ((uint32_t)k->base << 2); break;
    case K_STR: case K_BYTES: h = hash_bytes(h, k->s, k->len); break;
    case K_TUPLE: case K_FROZENSET:
        for (int i = 0; i < k->nitems; i++)
            h = (h ^ k->items[i]->hash) * 1000003u;
        h ^= (uint32_t)k->nitems;
        break;
    case K_CODE: { uintptr_t p = (uintptr_t)k->code; h = hash_bytes(h, &p, sizeof p); break; }
    default: break;
    }
    return h;
}

static bool const_eq(const CConst *a, const CConst *b)
{
    if (a == b)
        return true;
    if (a->kind != b->kind || a->hash != b->hash)
        return false;
    switch (a->kind) {
    case K_INT: return a->i == b->i;
    case K_FLOAT: return memcmp(&a->f, &b->f, sizeof a->f) == 0;   /* 0.0 and -0.0 differ */
    case K_COMPLEX: return memcmp(&a->f, &b->f, sizeof a->f) == 0 && memcmp(&a->fi, &b->fi, sizeof a->fi) == 0;
    case K_BIGINT:
        return a->neg == b->neg && a->base == b->base && a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
    case K_STR: case K_BYTES: return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
    case K_TUPLE: case K_FROZENSET:
        if (a->nitems != b->nitems)
            return false;
        for (int i = 0; i < a->nitems; i++)
            if (!const_eq(a->items[i], b->items[i]))
                return false;
        return true;
    case K_CODE: return a->code == b->code;
    default: return true;
    }
}

static CConst *const_new(Compiler *c, ConstKind kind)
{
    CConst *k = pool_alloc(c, sizeof(CConst));
    if (k)
        k->kind = kind;
    return k;
}

static CConst *const_finish(CConst *k)
{
    k->hash = const_hash(k);
    return k;
}

static CConst *const_simple(Compiler *c, ConstKind kind)
{
    CConst *k = const_new(c, kind);
    return k ? const_finish(k) : NULL;
}

static CConst *const_str(Compiler *c, const char *s, size_t len)
{
    CConst *k = const_new(c, K_STR);
    if (!k)
        return NULL;
    k->s = s;
    k->len = len;
    return const_finish(k);
}

static CConst *const_int(Compiler *c, int64_t v)
{
    CConst *k = const_new(c, K_INT);
    if (!k)
        return NULL;
    k->i = v;
    return const_finish(k);
}

static CConst *const_from_ast(Compiler *c, const constant *v)
{
    switch (v->kind) {
    case CONST_NONE: return const_simple(c, K_NONE);
    case CONST_TRUE: return const_simple(c, K_TRUE);
    case CONST_FALSE: return const_simple(c, K_FALSE);
    case CONST_ELLIPSIS: return const_simple(c, K_ELLIPSIS);
    case CONST_INT: {
        if (v->fits_i64)
            return const_int(c, v->i64);
        CConst *k = const_new(c, K_BIGINT);
        if (!k)
            return NULL;
        k->s = v->s;
        k->len = strlen(v->s);
        k->base = v->base;
        return const_finish(k);
    }
    case CONST_FLOAT: {
        CConst *k = const_new(c, K_FLOAT);
        if (!k)
            return NULL;
        k->f = v->f;
        return const_finish(k);
    }
    case CONST_IMAG: {
        CConst *k = const_new(c, K_COMPLEX);
        if (!k)
            return NULL;
        k->f = 0.0;
        k->fi = v->f;
        return const_finish(k);
    }
    case CONST_STR: return const_str(c, v->s, v->len);
    case CONST_BYTES: {
        CConst *k = const_new(c, K_BYTES);
        if (!k)
            return NULL;
        k->s = v->s;
        k->len = v->len;
        return const_finish(k);
    }
    }
    internal_error(c, "unknown constant kind");
    return NULL;
}

/* The slot of k in u's constant index: k's, or the empty one for it. */
static int const_find_slot(const Unit *u, const CConst *k)
{
    int mask = u->ncslots - 1, i = (int)(k->hash & (uint32_t)mask);
    while (u->cslots[i] >= 0 && !const_eq(u->consts[u->cslots[i]], k))
        i = (i + 1) & mask;
    return i;
}

/* Index of k in the current unit's constants (deduplicated); -1 on error. */
static int add_const(Compiler *c, CConst *k)
{
    Unit *u = c->u;
    if (u->ncslots) {
        int ix = u->cslots[const_find_slot(u, k)];
        if (ix >= 0)
            return ix;
    }
    if (u->nconsts >= ARG_LIMIT) {
        cerror(c, CERR_SYNTAX, u->lineno, 0, u->lineno, 0, "too many constants in one code object");
        return -1;
    }
    if ((u->nconsts + 1) * 2 > u->ncslots) {
        int n = u->ncslots ? u->ncslots * 2 : 16;
        int *slots = index_new(c, n);
        if (!slots)
            return -1;
        free(u->cslots);
        u->cslots = slots;
        u->ncslots = n;
        for (int j = 0; j < u->nconsts; j++)
            slots[const_find_slot(u, u->consts[j])] = j;
    }
    if (!grow((void **)&u->consts, &u->capconsts, u->nconsts + 1, sizeof(CConst *))) {
        nomem(c);
        return -1;
    }
    u->consts[u->nconsts] = k;
    u->cslots[const_find_slot(u, k)] = u->nconsts;
    return u->nconsts++;
}

static bool emit_const(Compiler *c, CConst *k)
{
    if (!k)
        return false;
    int ix = add_const(c, k);
    return ix >= 0 && emit(c, OP_LOAD_CONST, ix);
}

static bool emit_none(Compiler *c)
{
    return emit_const(c, const_simple(c, K_NONE));
}

static bool emit_str_const(Compiler *c, const char *s)
{
    return emit_const(c, const_str(c, s, strlen(s)));
}

/* Could fold_const succeed? A cheap structural test (no allocation). */
static bool may_fold(expr_ty e, int depth)
{
    if (depth > 100)
        return false;
    switch (e->kind) {
    case Constant_kind:
        return true;
    case UnaryOp_kind:
        return e->v.UnaryOp.op != AST_Not && may_fold(e->v.UnaryOp.operand, depth + 1);
    case BinOp_kind:
        return e->v.BinOp.op != AST_MatMult && may_fold(e->v.BinOp.left, depth + 1) &&
               may_fold(e->v.BinOp.right, depth + 1);
    case Tuple_kind:
        if (e->v.Tuple.ctx != AST_Load)
            return false;
        for (int i = 0; i < e->v.Tuple.elts.n; i++)
            if (!may_fold(e->v.Tuple.elts.items[i], depth + 1))
                return false;
        return true;
    default:
        return false;
    }
}

static CConst *const_float(Compiler *c, double f)
{
    CConst *k = const_new(c, K_FLOAT);
    if (!k)
        return NULL;
    k->f = f;
    return const_finish(k);
}

static CConst *const_complex(Compiler *c, double re, double im)
{
    CConst *k = const_new(c, K_COMPLEX);
    if (!k)
        return NULL;
    k->f = re;
    k->fi = im;
    return const_finish(k);
}

#define EXACT_DOUBLE_INT (INT64_C(1) << 53)

/* Complex arithmetic as the runtime does it (objects/complex.c): a real
 * operand becomes re + 0.0j. + - * / fold (not a division by zero); ** is
 * left to the runtime, as for floats. */
static bool complex_operand(Compiler *c, const CConst *k, cplx *z)
{
    z->im = k->kind == K_COMPLEX ? k->fi : 0.0;
    switch (k->kind) {
    case K_INT:
        z->re = (double)k->i;   /* rounded to nearest, ties to even, as int -> float */
        return true;
    case K_FLOAT: case K_COMPLEX:
        z->re = k->f;
        return true;
    case K_BIGINT: {
        /* correctly rounded through the decimal digits; too big: not folded
         * (the runtime's OverflowError) */
        char *d = ast_int_to_decimal(k->s, k->base);
        if (!d) {
            nomem(c);
            return false;
        }
        double v = strtod(d, NULL);
        free(d);
        z->re = k->neg ? -v : v;
        return isfinite(v);
    }
    default:
        return false;
    }
}

static CConst *fold_complex(Compiler *c, operator_ty op, const CConst *a, const CConst *b)
{
    cplx x, y;
    if (!complex_operand(c, a, &x) || !complex_operand(c, b, &y))
        return NULL;
    switch (op) {
    case AST_Add: return const_complex(c, x.re + y.re, x.im + y.im);
    case AST_Sub: return const_complex(c, x.re - y.re, x.im - y.im);
    case AST_Mult: return const_complex(c, x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re);
    case AST_Div: {
        int err = CPLX_OK;
        cplx q = cplx_quot(x, y, &err);
        return err == CPLX_OK ? const_complex(c, q.re, q.im) : NULL;
    }
    default: return NULL;
    }
}

/* Fold an int/float binary operation when CPython would give the same value
 * without an error; NULL (no error) otherwise: the runtime computes it. */
static CConst *fold_binop(Compiler *c, operator_ty op, const CConst *a, const CConst *b)
{
    if (a->kind == K_INT && b->kind == K_INT) {
        int64_t x = a->i, y = b->i, r;
        switch (op) {
        case AST_Add: if (__builtin_add_overflow(x, y, &r)) return NULL; break;
        case AST_Sub: if (__builtin_sub_overflow(x, y, &r)) return NULL; break;
        case AST_Mult: if (__builtin_mul_overflow(x, y, &r)) return NULL; break;
        case AST_FloorDiv:
            if (y == 0 || (x == INT64_MIN && y == -1))
                return NULL;
            r = x / y;
            if (x % y != 0 && ((x < 0) != (y < 0)))
                r--;
            break;
        case AST_Mod:
            if (y == 0)
                return NULL;
            if (y == -1) {
                r = 0;
                break;
            }
            r = x % y;
            if (r != 0 && ((r < 0) != (y < 0)))
                r += y;
            break;
        case AST_Pow: {
            if (y < 0)
                return NULL;   /* a float */
            int64_t base = x, e = y;
            r = 1;
            while (e) {
                if ((e & 1) && __builtin_mul_overflow(r, base, &r))
                    return NULL;
                e >>= 1;
                if (e && __builtin_mul_overflow(base, base, &base))
                    return NULL;
            }
            break;
        }
        case AST_LShift:
            if (y < 0)
                return NULL;
            if (x == 0) {
                r = 0;
                break;
            }
            if (y >= 63 || x > (INT64_MAX >> y) || x < (INT64_MIN >> y))
                return NULL;
            r = (int64_t)((uint64_t)x << y);
            break;
        case AST_RShift:
            if (y < 0)
                return NULL;
            r = y >= 63 ? (x < 0 ? -1 : 0) : x >> y;
            break;
        case AST_BitAnd: r = x & y; break;
        case AST_BitOr: r = x | y; break;
        case AST_BitXor: r = x ^ y; break;
        case AST_Div:
            if (y == 0 || x > EXACT_DOUBLE_INT || x < -EXACT_DOUBLE_INT || y > EXACT_DOUBLE_INT ||
                y < -EXACT_DOUBLE_INT)
                return NULL;
            return const_float(c, (double)x / (double)y);
        default:
            return NULL;
        }
        return const_int(c, r);
    }
    if (a->kind == K_COMPLEX || b->kind == K_COMPLEX)
        return fold_complex(c, op, a, b);
    if ((a->kind != K_INT && a->kind != K_FLOAT) || (b->kind != K_INT && b->kind != K_FLOAT))
        return NULL;
    if ((a->kind == K_INT && (a->i > EXACT_DOUBLE_INT || a->i < -EXACT_DOUBLE_INT)) ||
        (b->kind == K_INT && (b->i > EXACT_DOUBLE_INT || b->i < -EXACT_DOUBLE_INT)))
        return NULL;
    double x = a->kind == K_INT ? (double)a->i : a->f, y = b->kind == K_INT ? (double)b->i : b->f;
    switch (op) {
    case AST_Add: return const_float(c, x + y);
    case AST_Sub: return const_float(c, x - y);
    case AST_Mult: return const_float(c, x * y);
    case AST_Div: return y == 0.0 ? NULL : const_float(c, x / y);
    default: return NULL;   /* //, %, ** on floats: left to the runtime */
    }
}

/* The constant value of an expression if it is one (literals, tuples of
 * constants, arithmetic on int/float literals); NULL otherwise (not an
 * error; check c->err for out of memory). */
static CConst *fold_const(Compiler *c, expr_ty e, int depth)
{
    if (!may_fold(e, depth))
        return NULL;
    switch (e->kind) {
    case Constant_kind:
        return const_from_ast(c, &e->v.Constant.value);
    case UnaryOp_kind: {
        expr_ty o = e->v.UnaryOp.operand;
        if (e->v.UnaryOp.op == AST_USub && o->kind == Constant_kind && o->v.Constant.value.kind == CONST_INT &&
            !o->v.Constant.value.fits_i64) {
            const constant *v = &o->v.Constant.value;
            CConst *k = const_new(c, K_BIGINT);
            if (!k)
                return NULL;
            k->s = v->s;
            k->len = strlen(v->s);
            k->base = v->base;
            k->neg = true;
            return const_finish(k);
        }
        CConst *v = fold_const(c, o, depth + 1);
        if (!v || (v->kind != K_INT && v->kind != K_FLOAT && v->kind != K_COMPLEX))
            return NULL;
        switch (e->v.UnaryOp.op) {
        case AST_USub:
            if (v->kind == K_FLOAT)
                return const_float(c, -v->f);
            if (v->kind == K_COMPLEX)
                return const_complex(c, -v->f, -v->fi);
            return v->i == INT64_MIN ? NULL : const_int(c, -v->i);
        case AST_UAdd:
            return v;
        case AST_Invert:
            return v->kind == K_INT ? const_int(c, ~v->i) : NULL;
        default:
            return NULL;
        }
    }
    case BinOp_kind: {
        CConst *a = fold_const(c, e->v.BinOp.left, depth + 1);
        CConst *b = a ? fold_const(c, e->v.BinOp.right, depth + 1) : NULL;
        return b ? fold_binop(c, e->v.BinOp.op, a, b) : NULL;
    }
    case Tuple_kind: {
        int n = e->v.Tuple.elts.n;
        CConst **items = pool_alloc(c, (size_t)n * sizeof(CConst *) + 1);
        if (!items)
            return NULL;
        for (int i = 0; i < n; i++)
            if (!(items[i] = fold_const(c, e->v.Tuple.elts.items[i], depth + 1)))
                return NULL;
        CConst *k = const_new(c, K_TUPLE);
        if (!k)
            return NULL;
        k->items = items;
        k->nitems = n;
        return const_finish(k);
    }
    default:
        return NULL;
    }
}

/* ------------------------------------------------------------------ */
/* Names                                                               */
/* ------------------------------------------------------------------ */

static const char *mangle(Compiler *c, const char *name)
{
    const char *m = symtable_mangle(c->st, c->u->private_name, name);
    if (!m)
        nomem(c);
    return m;
}

static bool emit_name_index(Compiler *c, int op, const char *name)
{
    int ix = strtab_add(c, &c->u->names, name);
    return ix >= 0 && emit(c, op, ix);
}

/* An op with an inline cache: the cache index word is added at assembly. */
static bool emit_attr_op(Compiler *c, int op, const char *attr)
{
    const char *m = mangle(c, attr);
    return m && emit_name_index(c, op, m);
}

/* Load / store / delete a variable, choosing the op family from its scope. */
static bool compile_nameop(Compiler *c, const char *name, expr_context_ty ctx, expr_ty loc)
{
    Unit *u = c->u;
    if (strcmp(name, "__debug__") == 0) {
        if (ctx == AST_Load)
            return emit_const(c, const_simple(c, c->optimize ? K_FALSE : K_TRUE));
        if (loc)
            return SYNERR(c, loc, ctx == AST_Store ? "cannot assign to __debug__" : "cannot delete __debug__");
    }
    const char *m = mangle(c, name);
    if (!m)
        return false;
    Symbol *sym = scope_symbol(u->ste, m);
    SymScope sc = sym ? sym->scope : SC_NONE;
    bool in_function = u->ste->type == BLOCK_FUNCTION;
    enum { FAMILY_NAME, FAMILY_FAST, FAMILY_DEREF, FAMILY_GLOBAL } family = FAMILY_NAME;
    int ix = -1;
    switch (sc) {
    case SC_FREE:
        family = FAMILY_DEREF;
        ix = strtab_lookup(&u->frees, m);
        if (ix < 0)
            return internal_error(c, "free variable missing");
        ix += u->cells.n;
        break;
    case SC_CELL:
        family = FAMILY_DEREF;
        ix = strtab_lookup(&u->cells, m);
        if (ix < 0)
            return internal_error(c, "cell variable missing");
        break;
    case SC_LOCAL:
        if (in_function)
            family = FAMILY_FAST;
        break;
    case SC_GLOBAL_IMPLICIT:
        if (in_function)
            family = FAMILY_GLOBAL;
        break;
    case SC_GLOBAL_EXPLICIT:
        family = FAMILY_GLOBAL;
        break;
    default:
        break;
    }
    switch (family) {
    case FAMILY_FAST:
        ix = strtab_add(c, &u->varnames, m);
        if (ix < 0)
            return false;
        return emit(c, ctx == AST_Load ? OP_LOAD_FAST : ctx == AST_Store ? OP_STORE_FAST : OP_DELETE_FAST, ix);
    case FAMILY_DEREF:
        if (ctx == AST_Load)
            return emit(c, u->ste->type == BLOCK_CLASS ? OP_LOAD_CLASSDEREF : OP_LOAD_DEREF, ix);
        return emit(c, ctx == AST_Store ? OP_STORE_DEREF : OP_DELETE_DEREF, ix);
    case FAMILY_GLOBAL:
        return emit_name_index(c, ctx == AST_Load ? OP_LOAD_GLOBAL : ctx == AST_Store ? OP_STORE_GLOBAL
                                                                                        : OP_DELETE_GLOBAL, m);
    default:
        return emit_name_index(c, ctx == AST_Load ? OP_LOAD_NAME : ctx == AST_Store ? OP_STORE_NAME
                                                                                      : OP_DELETE_NAME, m);
    }
}

/* ------------------------------------------------------------------ */
/* Units (one per code object)                                         */
/* ------------------------------------------------------------------ */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static char *str_concat3(const char *a, const char *b, const char *c3)
{
    size_t na = strlen(a), nb = strlen(b), nc = strlen(c3);
    char *p = malloc(na + nb + nc + 1);
    if (!p)
        return NULL;
    memcpy(p, a, na);
    memcpy(p + na, b, nb);
    memcpy(p + na + nb, c3, nc + 1);
    return p;
}

/* Open a new unit for scope `ste` as a child of the current one. */
static bool enter_unit(Compiler *c, Scope *ste, UnitKind kind, const char *name, int firstlineno)
{
    if (!ste)
        return internal_error(c, "no scope for a nested block");
    Unit *u = calloc(1, sizeof(Unit));
    if (!u)
        return nomem(c);
    if (!grow((void **)&c->units, &c->capunits, c->nunits + 1, sizeof(Unit *))) {
        free(u);
        return nomem(c);
    }
    c->units[c->nunits++] = u;
    Unit *parent = c->u;
    u->kind = kind;
    u->ste = ste;
    u->parent = parent;
    u->name = name;
    u->firstlineno = firstlineno;
    u->lineno = firstlineno;
    u->pos = (SrcPos){firstlineno, firstlineno, -1, -1};
    u->private_name = kind == U_CLASS ? name : parent ? parent->private_name : NULL;

    /* qualname, as CPython: f.<locals>.g, C.m; a `global` def is top level */
    if (!parent || parent->kind == U_MODULE) {
        u->qualname = strdup(name);
    } else {
        bool force_global = false;
        if (kind == U_FUNCTION || kind == U_CLASS) {
            const char *m = symtable_mangle(c->st, parent->private_name, name);
            if (!m) {
                c->u = u;
                return nomem(c);
            }
            Symbol *sym = scope_symbol(parent->ste, m);
            force_global = sym && sym->scope == SC_GLOBAL_EXPLICIT;
        }
        if (force_global)
            u->qualname = strdup(name);
        else if (parent->kind == U_FUNCTION || parent->kind == U_LAMBDA)
            u->qualname = str_concat3(parent->qualname, ".<locals>.", name);
        else
            u->qualname = str_concat3(parent->qualname, ".", name);
    }
    c->u = u;
    if (!u->qualname)
        return nomem(c);

    /* varnames start with the parameters; cells: parameter cells first */
    for (int i = 0; i < ste->nparams; i++)
        if (strtab_add(c, &u->varnames, ste->params[i]) < 0)
            return false;
    for (int i = 0; i < ste->nparams; i++) {
        Symbol *sym = scope_symbol(ste, ste->params[i]);
        if (sym && sym->scope == SC_CELL && strtab_lookup(&u->cells, ste->params[i]) < 0) {
            if (strtab_add(c, &u->cells, ste->params[i]) < 0)
                return false;
            u->nparamcells++;
        }
    }
    int nsorted = 0;
    const char **sorted = malloc(((size_t)ste->nsyms + 1) * sizeof(char *));
    if (!sorted)
        return nomem(c);
    for (int i = 0; i < ste->nsyms; i++)
        if (ste->syms[i].scope == SC_CELL && !(ste->syms[i].flags & DEF_PARAM))
            sorted[nsorted++] = ste->syms[i].name;
    qsort(sorted, (size_t)nsorted, sizeof(char *), cmp_str);
    for (int i = 0; i < nsorted; i++)
        if (strtab_add(c, &u->cells, sorted[i]) < 0) {
            free(sorted);
            return false;
        }
    if (kind == U_CLASS && ste->needs_class_closure && strtab_add(c, &u->cells, "__class__") < 0) {
        free(sorted);
        return false;
    }
    nsorted = 0;
    for (int i = 0; i < ste->nsyms; i++)
        if (ste->syms[i].scope == SC_FREE || (ste->syms[i].flags & DEF_FREE_CLASS))
            sorted[nsorted++] = ste->syms[i].name;
    qsort(sorted, (size_t)nsorted, sizeof(char *), cmp_str);
    for (int i = 0; i < nsorted; i++)
        if (strtab_add(c, &u->frees, sorted[i]) < 0) {
            free(sorted);
            return false;
        }
    free(sorted);
    /* cell2arg covers 16 parameter cells; the others are filled by a prologue */
    for (int i = 16; i < u->nparamcells; i++) {
        int arg = strtab_lookup(&u->varnames, u->cells.items[i]);
        if (arg < 0)
            return internal_error(c, "parameter cell without a parameter");
        if (!emit(c, OP_LOAD_FAST, arg) || !emit(c, OP_STORE_DEREF, i))
            return false;
    }

    switch (kind) {
    case U_MODULE: u->flags = CO_MODULE; break;
    case U_CLASS: u->flags = CO_CLASSBODY; break;
    case U_LAMBDA: u->flags = CO_LAMBDA; break;
    case U_COMP: u->flags = CO_COMPREHENSION; break;
    default: break;
    }
    if (kind != U_MODULE && kind != U_CLASS) {
        /* CO_GENERATOR: a call makes a resumable object; which one the
         * other two flags say (code.co_flags shows CPython's bits). */
        if (ste->is_async_def || (kind == U_COMP && ste->is_coroutine)) {
            u->flags |= CO_GENERATOR;
            u->flags |= ste->is_generator ? CO_ASYNC_GENERATOR : CO_COROUTINE;
        } else if (ste->is_generator) {
            u->flags |= CO_GENERATOR;
        }
    }
    if (ste->has_varargs)
        u->flags |= CO_VARARGS;
    if (ste->has_varkeywords)
        u->flags |= CO_VARKEYWORDS;
    /* CPython's CO_NESTED: inside a function, or inside a nested block */
    if (parent && (parent->ste->type == BLOCK_FUNCTION || (parent->flags & CO_NESTED)))
        u->flags |= CO_NESTED;
    if (c->st->future_annotations)
        u->flags |= CO_FUTURE_ANNOTATIONS;   /* inherited by compile/exec/eval it runs */
    return true;
}

static bool assemble(Compiler *c, Unit *u);

/* Finish the current unit (assemble it) and return to its parent. */
static Unit *leave_unit(Compiler *c)
{
    Unit *u = c->u;
    if (!assemble(c, u))
        return NULL;
    c->u = u->parent;
    return u;
}

static void unit_free(Unit *u)
{
    free(u->qualname);
    free(u->ins);
    free(u->labels);
    free(u->consts);
    free(u->cslots);
    strtab_free(&u->names);
    strtab_free(&u->varnames);
    strtab_free(&u->cells);
    strtab_free(&u->frees);
    free(u->code);
    free(u->lines);
    free(u->positions);
    free(u);
}

/* Push the closure cells a child unit needs and return the MAKE_FUNCTION
 * closure flag (8) or 0; -1 on error. */
static int emit_closure(Compiler *c, Unit *child)
{
    if (!child->frees.n)
        return 0;
    Unit *u = c->u;
    for (int i = 0; i < child->frees.n; i++) {
        const char *name = child->frees.items[i];
        int ix = strtab_lookup(&u->cells, name);
        if (ix < 0) {
            ix = strtab_lookup(&u->frees, name);
            if (ix < 0) {
                internal_error(c, "closure variable not found in the enclosing scope");
                return -1;
            }
            ix += u->cells.n;
        }
        if (!emit(c, OP_LOAD_CLOSURE, ix))
            return -1;
    }
    if (!emit(c, OP_BUILD_TUPLE, child->frees.n))
        return -1;
    return 8;
}

/* <closure> LOAD_CONST code MAKE_FUNCTION flags, for an assembled child. */
static bool emit_make_function(Compiler *c, Unit *child, int flags)
{
    int cl = emit_closure(c, child);
    if (cl < 0)
        return false;
    CConst *k = const_new(c, K_CODE);
    if (!k)
        return false;
    k->code = child;
    const_finish(k);
    TRY(emit_const(c, k));
    return emit(c, OP_MAKE_FUNCTION, flags | cl);
}

/* ------------------------------------------------------------------ */
/* Block stack (fblocks) and unwinding for return / break / continue    */
/* ------------------------------------------------------------------ */

static bool push_fblock(Compiler *c, FBKind kind, int start, int exit, int lineno, int col, int end_lineno,
                        int end_col)
{
    Unit *u = c->u;
    if (u->nfblocks >= MAX_FBLOCKS)
        return cerror(c, CERR_SYNTAX, lineno, col, end_lineno, end_col, "too many statically nested blocks");
    FBlock *f = &u->fblocks[u->nfblocks++];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->start = start;
    f->exit = exit;
    return true;
}

#define PUSH_FBLOCK(c, kind, start, exit, node)                                                    \
    push_fblock((c), (kind), (start), (exit), (node)->lineno, (node)->col_offset, (node)->end_lineno, \
                (node)->end_col_offset)

static void pop_fblock(Compiler *c)
{
    c->u->nfblocks--;
}

static bool compile_stmts(Compiler *c, const stmt_seq *seq, int from);
static bool compile_expr(Compiler *c, expr_ty e);

/* await TOS: GET_AWAITABLE (where: 0 await, 1 __aenter__'s result, 2
 * __aexit__'s, for the messages), then delegate to it as yield from does. */
static bool emit_await(Compiler *c, int where)
{
    return emit(c, OP_GET_AWAITABLE, where) && emit_none(c) && emit(c, OP_YIELD_FROM, 0);
}

/* Emit what leaving block f requires (CPython's compiler_unwind_fblock).
 * preserve_tos: a return value on the stack must survive. */
static bool unwind_fblock(Compiler *c, FBlock *f, bool preserve_tos)
{
    switch (f->kind) {
    case FB_WHILE:
        return true;
    case FB_FOR:
        if (preserve_tos)
            TRY(emit(c, OP_ROT_TWO, 0));
        return emit(c, OP_POP_TOP, 0);
    case FB_TRY_EXCEPT:
        return emit(c, OP_POP_BLOCK, 0);
    case FB_FINALLY_TRY: {
        TRY(emit(c, OP_POP_BLOCK, 0));
        int line = c->u->lineno;
        if (preserve_tos) {
            Unit *u = c->u;
            if (u->nfblocks >= MAX_FBLOCKS)
                return cerror(c, CERR_SYNTAX, line, 0, line, 0, "too many statically nested blocks");
            FBlock *pv = &u->fblocks[u->nfblocks++];
            memset(pv, 0, sizeof *pv);
            pv->kind = FB_POP_VALUE;
        }
        TRY(compile_stmts(c, f->finalbody, 0));
        if (preserve_tos)
            pop_fblock(c);
        /* what follows (the return, the jump) stays on the finally body's
         * last line, as CPython's */
        return true;
    }
    case FB_FINALLY_END:
        /* stack: prev exc [value] */
        if (preserve_tos)
            TRY(emit(c, OP_ROT_THREE, 0));
        TRY(emit(c, OP_POP_TOP, 0));
        return emit(c, OP_POP_EXCEPT, 0);
    case FB_WITH:
        TRY(emit(c, OP_POP_BLOCK, 0));
        if (preserve_tos)
            TRY(emit(c, OP_ROT_TWO, 0));
        return emit(c, OP_CALL_EXIT_NONE, 0);
    case FB_ASYNC_WITH:
        TRY(emit(c, OP_POP_BLOCK, 0));
        if (preserve_tos)
            TRY(emit(c, OP_ROT_TWO, 0));
        TRY(emit(c, OP_CALL_EXIT_NONE, 1));
        return emit_await(c, 2) && emit(c, OP_POP_TOP, 0);
    case FB_HANDLER_CLEANUP:
        /* stack: prev [value]; a named handler also has its cleanup try block */
        if (f->name)
            TRY(emit(c, OP_POP_BLOCK, 0));
        if (preserve_tos)
            TRY(emit(c, OP_ROT_TWO, 0));
        TRY(emit(c, OP_POP_EXCEPT, 0));
        if (f->name) {
            TRY(emit_none(c));
            TRY(compile_nameop(c, f->name, AST_Store, NULL));
            TRY(compile_nameop(c, f->name, AST_Del, NULL));
        }
        return true;
    case FB_EXCEPT_STAR:
        return true;   /* never left by a jump: compile_return / break refuse */
    case FB_POP_VALUE:
        if (preserve_tos)
            TRY(emit(c, OP_ROT_TWO, 0));
        return emit(c, OP_POP_TOP, 0);
    }
    return internal_error(c, "bad fblock");
}

/* Unwind every block down to (not including) the innermost loop, or all of
 * them when loop is NULL. *loop receives the loop block (or NULL). */
static bool unwind_fblock_stack(Compiler *c, bool preserve_tos, FBlock **loop)
{
    Unit *u = c->u;
    if (u->nfblocks == 0)
        return true;
    FBlock *top = &u->fblocks[u->nfblocks - 1];
    if (loop && (top->kind == FB_WHILE || top->kind == FB_FOR)) {
        *loop = top;
        return true;
    }
    FBlock copy = *top;
    u->nfblocks--;
    bool ok = unwind_fblock(c, &copy, preserve_tos) && unwind_fblock_stack(c, preserve_tos, loop);
    u->fblocks[u->nfblocks++] = copy;
    return ok;
}

/* ------------------------------------------------------------------ */
/* SyntaxWarnings CPython's compiler gives for suspicious literals      */
/* ------------------------------------------------------------------ */

static const char *const_type_name(const CConst *k)
{
    switch (k->kind) {
    case K_NONE: return "NoneType";
    case K_TRUE: case K_FALSE: return "bool";
    case K_ELLIPSIS: return "ellipsis";
    case K_INT: case K_BIGINT: return "int";
    case K_FLOAT: return "float";
    case K_COMPLEX: return "complex";
    case K_STR: return "str";
    case K_BYTES: return "bytes";
    case K_TUPLE: return "tuple";
    case K_FROZENSET: return "frozenset";
    default: return "code";
    }
}

/* The type of a literal expression as CPython's infer_type sees it (after
 * its constant folding), or NULL. *k: the folded constant, if any. */
static const char *literal_type(Compiler *c, expr_ty e, CConst **k)
{
    *k = NULL;
    switch (e->kind) {
    case Tuple_kind:
        *k = fold_const(c, e, 0);
        return "tuple";
    case List_kind: case ListComp_kind: return "list";
    case Dict_kind: case DictComp_kind: return "dict";
    case Set_kind: case SetComp_kind: return "set";
    case GeneratorExp_kind: return "generator";
    case Lambda_kind: return "function";
    case JoinedStr_kind: case FormattedValue_kind: return "str";
    case Constant_kind: case UnaryOp_kind: case BinOp_kind:
        *k = fold_const(c, e, 0);
        return *k ? const_type_name(*k) : NULL;
    default:
        return NULL;
    }
}

/* `x is 1`: an `is` test against a literal other than None/True/False/... */
static bool is_plain_literal(Compiler *c, expr_ty e)
{
    CConst *k;
    if (e->kind != Constant_kind && e->kind != UnaryOp_kind && e->kind != BinOp_kind && e->kind != Tuple_kind)
        return false;
    if (!literal_type(c, e, &k) || !k)
        return false;
    return k->kind != K_NONE && k->kind != K_TRUE && k->kind != K_FALSE && k->kind != K_ELLIPSIS;
}

static bool check_compare(Compiler *c, expr_ty e)
{
    expr_ty left = e->v.Compare.left;
    for (int i = 0; i < e->v.Compare.ops.n; i++) {
        cmpop_ty op = e->v.Compare.ops.items[i];
        expr_ty right = e->v.Compare.comparators.items[i];
        if ((op == AST_Is || op == AST_IsNot) && (is_plain_literal(c, left) || is_plain_literal(c, right)))
            TRY(cwarn(c, op == AST_Is ? "\"is\" with a literal. Did you mean \"==\"?"
                                      : "\"is not\" with a literal. Did you mean \"!=\"?"));
        left = right;
    }
    return c->err->kind == CERR_NONE;
}

static bool check_caller(Compiler *c, expr_ty f)
{
    CConst *k;
    switch (f->kind) {
    case Constant_kind: case UnaryOp_kind: case BinOp_kind: case Tuple_kind: case List_kind: case ListComp_kind:
    case Dict_kind: case DictComp_kind: case Set_kind: case SetComp_kind: case GeneratorExp_kind:
    case JoinedStr_kind: case FormattedValue_kind: {
        const char *t = literal_type(c, f, &k);
        if (t)
            TRY(cwarn(c, "'%s' object is not callable; perhaps you missed a comma?", t));
        break;
    }
    default:
        break;
    }
    return c->err->kind == CERR_NONE;
}

/* v[i] with a literal v that cannot be subscripted, or a literal index of the wrong type. */
static bool check_subscript(Compiler *c, expr_ty v, expr_ty index)
{
    CConst *k;
    const char *vt = literal_type(c, v, &k);
    if (vt) {
        bool bad_value = false;
        if (v->kind == Set_kind || v->kind == SetComp_kind || v->kind == GeneratorExp_kind || v->kind == Lambda_kind)
            bad_value = true;
        else if (k && (k->kind == K_NONE || k->kind == K_ELLIPSIS || k->kind == K_INT || k->kind == K_BIGINT ||
                       k->kind == K_FLOAT || k->kind == K_COMPLEX || k->kind == K_TRUE || k->kind == K_FALSE))
            bad_value = true;
        if (bad_value)
            return cwarn(c, "'%s' object is not subscriptable; perhaps you missed a comma?", vt);
    }
    CConst *ik;
    const char *it = literal_type(c, index, &ik);
    if (!it || index->kind == Slice_kind || strcmp(it, "int") == 0 || strcmp(it, "bool") == 0)
        return c->err->kind == CERR_NONE;
    bool seq = v->kind == Tuple_kind || v->kind == List_kind || v->kind == ListComp_kind ||
               v->kind == JoinedStr_kind || v->kind == FormattedValue_kind ||
               (k && (k->kind == K_STR || k->kind == K_BYTES || k->kind == K_TUPLE));
    if (vt && seq)
        return cwarn(c, "%s indices must be integers or slices, not %s; perhaps you missed a comma?", vt, it);
    return c->err->kind == CERR_NONE;
}

/* ------------------------------------------------------------------ */
/* Shared pieces: depth guard, docstrings, targets, conditions          */
/* ------------------------------------------------------------------ */

static bool enter_nested(Compiler *c, int lineno, int col)
{
    if (++c->depth > COMPILER_MAX_NESTING + 50) {
        c->depth--;
        return cerror(c, CERR_RECURSION, lineno, col, lineno, col,
                      "maximum recursion depth exceeded during compilation");
    }
    return true;
}

/* The docstring of a body (first statement a string literal), or NULL. */
static const constant *docstring_of(const stmt_seq *body)
{
    if (body->n == 0)
        return NULL;
    stmt_ty s = body->items[0];
    if (s->kind != Expr_kind || s->v.Expr.value->kind != Constant_kind)
        return NULL;
    const constant *v = &s->v.Expr.value->v.Constant.value;
    return v->kind == CONST_STR ? v : NULL;
}

/* The docstring to keep (-OO drops them: the string is then an ordinary
 * expression statement, compiled to nothing). */
static const constant *kept_docstring(Compiler *c, const stmt_seq *body)
{
    return c->optimize >= 2 ? NULL : docstring_of(body);
}

static bool compile_store(Compiler *c, expr_ty t);
static bool has_starred(expr_seq elts);

static bool unpack_and_store(Compiler *c, expr_ty t, expr_seq elts)
{
    int n = elts.n, star = -1;
    for (int i = 0; i < n; i++) {
        if (elts.items[i]->kind == Starred_kind) {
            if (star >= 0)
                return SYNERR(c, t, "multiple starred expressions in assignment");
            star = i;
        }
    }
    if (star >= 0) {
        int before = star, after = n - star - 1;
        if (before >= 256 || after >= (1 << 16))
            return SYNERR(c, t, "too many expressions in star-unpacking assignment");
        TRY(emit(c, OP_UNPACK_EX, before | (after << 8)));
    } else {
        TRY(emit(c, OP_UNPACK_SEQUENCE, n));
    }
    for (int i = 0; i < n; i++) {
        expr_ty e = elts.items[i];
        TRY(compile_store(c, e->kind == Starred_kind ? e->v.Starred.value : e));
    }
    return true;
}

/* Store the value on top of the stack into target t. */
static bool compile_store(Compiler *c, expr_ty t)
{
    TRY(enter_nested(c, t->lineno, t->col_offset));
    int save = c->u->lineno;
    SrcPos save_pos = c->u->pos;
    c->u->lineno = t->lineno;
    c->u->pos = NODE_POS(t);
    bool ok;
    switch (t->kind) {
    case Name_kind:
        ok = compile_nameop(c, t->v.Name.id, AST_Store, t);
        break;
    case Attribute_kind:
        ok = compile_expr(c, t->v.Attribute.value);
        c->u->lineno = t->end_lineno;   /* CPython: attribute ops are on the attribute's line */
        pos_to_attr(c, t);
        ok = ok && emit_attr_op(c, OP_STORE_ATTR, t->v.Attribute.attr);
        break;
    case Subscript_kind:
        ok = compile_expr(c, t->v.Subscript.value) && compile_expr(c, t->v.Subscript.slice);
        c->u->lineno = t->lineno;
        ok = ok && emit(c, OP_STORE_SUBSCR, 0);
        break;
    case Tuple_kind:
        ok = unpack_and_store(c, t, t->v.Tuple.elts);
        break;
    case List_kind:
        ok = unpack_and_store(c, t, t->v.List.elts);
        break;
    case Starred_kind:
        ok = SYNERR(c, t, "starred assignment target must be in a list or tuple");
        break;
    default:
        ok = SYNERR(c, t, "cannot assign to expression");
        break;
    }
    c->u->lineno = save;
    c->u->pos = save_pos;
    c->depth--;
    return ok;
}

static bool compile_delete(Compiler *c, expr_ty t)
{
    TRY(enter_nested(c, t->lineno, t->col_offset));
    int save = c->u->lineno;
    SrcPos save_pos = c->u->pos;
    c->u->lineno = t->lineno;
    c->u->pos = NODE_POS(t);
    bool ok = true;
    switch (t->kind) {
    case Name_kind:
        ok = compile_nameop(c, t->v.Name.id, AST_Del, t);
        break;
    case Attribute_kind:
        ok = compile_expr(c, t->v.Attribute.value);
        c->u->lineno = t->end_lineno;
        pos_to_attr(c, t);
        ok = ok && emit_attr_op(c, OP_DELETE_ATTR, t->v.Attribute.attr);
        break;
    case Subscript_kind:
        ok = compile_expr(c, t->v.Subscript.value) && compile_expr(c, t->v.Subscript.slice);
        c->u->lineno = t->lineno;
        ok = ok && emit(c, OP_DELETE_SUBSCR, 0);
        break;
    case Tuple_kind:
        for (int i = 0; ok && i < t->v.Tuple.elts.n; i++)
            ok = compile_delete(c, t->v.Tuple.elts.items[i]);
        break;
    case List_kind:
        for (int i = 0; ok && i < t->v.List.elts.n; i++)
            ok = compile_delete(c, t->v.List.elts.items[i]);
        break;
    default:
        ok = SYNERR(c, t, "cannot delete expression");
        break;
    }
    c->u->lineno = save;
    c->u->pos = save_pos;
    c->depth--;
    return ok;
}

static bool emit_compare(Compiler *c, cmpop_ty op)
{
    switch (op) {
    case AST_Eq: return emit(c, OP_COMPARE_OP, CMP_EQ);
    case AST_NotEq: return emit(c, OP_COMPARE_OP, CMP_NE);
    case AST_Lt: return emit(c, OP_COMPARE_OP, CMP_LT);
    case AST_LtE: return emit(c, OP_COMPARE_OP, CMP_LE);
    case AST_Gt: return emit(c, OP_COMPARE_OP, CMP_GT);
    case AST_GtE: return emit(c, OP_COMPARE_OP, CMP_GE);
    case AST_Is: return emit(c, OP_IS_OP, 0);
    case AST_IsNot: return emit(c, OP_IS_OP, 1);
    case AST_In: return emit(c, OP_CONTAINS_OP, 0);
    case AST_NotIn: return emit(c, OP_CONTAINS_OP, 1);
    }
    return internal_error(c, "bad comparison operator");
}

static bool is_none_const(expr_ty e)
{
    return e->kind == Constant_kind && e->v.Constant.value.kind == CONST_NONE;
}

/* Evaluate e for its truth and jump to `label` when it equals `cond`;
 * otherwise fall through. Nothing is left on the stack. */
static bool jump_if(Compiler *c, expr_ty e, int label, bool cond)
{
    TRY(enter_nested(c, e->lineno, e->col_offset));
    int save = c->u->lineno;
    SrcPos save_pos = c->u->pos;
    c->u->lineno = e->lineno;
    c->u->pos = NODE_POS(e);
    bool ok = true;
    switch (e->kind) {
    case UnaryOp_kind:
        if (e->v.UnaryOp.op == AST_Not) {
            ok = jump_if(c, e->v.UnaryOp.operand, label, !cond);
            goto done;
        }
        break;
    case BoolOp_kind: {
        expr_seq vals = e->v.BoolOp.values;
        bool is_or = e->v.BoolOp.op == AST_Or;
        int n = vals.n;
        if (cond == is_or) {
            /* or/true, and/false: any operand decides */
            for (int i = 0; ok && i < n; i++)
                ok = jump_if(c, vals.items[i], label, cond);
        } else {
            int skip = new_label(c);
            if (skip < 0) {
                ok = false;
                goto done;
            }
            for (int i = 0; ok && i < n - 1; i++)
                ok = jump_if(c, vals.items[i], skip, !cond);
            ok = ok && jump_if(c, vals.items[n - 1], label, cond);
            bind_label(c, skip);
        }
        goto done;
    }
    case IfExp_kind: {
        int end = new_label(c), next = new_label(c);
        if (end < 0 || next < 0) {
            ok = false;
            goto done;
        }
        ok = jump_if(c, e->v.IfExp.test, next, false) && jump_if(c, e->v.IfExp.body, label, cond) &&
             emit(c, OP_JUMP, end);
        bind_label(c, next);
        ok = ok && jump_if(c, e->v.IfExp.orelse, label, cond);
        bind_label(c, end);
        goto done;
    }
    case Compare_kind: {
        int n = e->v.Compare.ops.n;
        expr_seq comps = e->v.Compare.comparators;
        if (n > 1 || is_none_const(comps.items[0]))
            TRY(check_compare(c, e));   /* else compile_expr below checks it */
        if (n == 1) {
            cmpop_ty op = e->v.Compare.ops.items[0];
            if ((op == AST_Is || op == AST_IsNot) && is_none_const(comps.items[0])) {
                /* x is None: POP_JUMP_IF_NONE / NOT_NONE */
                bool jump_on_none = (op == AST_Is) == cond;
                ok = compile_expr(c, e->v.Compare.left) &&
                     emit(c, jump_on_none ? OP_POP_JUMP_IF_NONE : OP_POP_JUMP_IF_NOT_NONE, label);
                goto done;
            }
            break;
        }
        int cleanup = new_label(c), end = new_label(c);
        if (cleanup < 0 || end < 0) {
            ok = false;
            goto done;
        }
        ok = compile_expr(c, e->v.Compare.left);
        for (int i = 0; ok && i < n - 1; i++) {
            ok = compile_expr(c, comps.items[i]) && emit(c, OP_DUP_TOP, 0) && emit(c, OP_ROT_THREE, 0) &&
                 emit_compare(c, e->v.Compare.ops.items[i]) && emit(c, OP_POP_JUMP_IF_FALSE, cleanup);
        }
        ok = ok && compile_expr(c, comps.items[n - 1]) && emit_compare(c, e->v.Compare.ops.items[n - 1]) &&
             emit(c, cond ? OP_POP_JUMP_IF_TRUE : OP_POP_JUMP_IF_FALSE, label) && emit(c, OP_JUMP, end);
        bind_label(c, cleanup);
        ok = ok && emit(c, OP_POP_TOP, 0) && (cond || emit(c, OP_JUMP, label));
        bind_label(c, end);
        goto done;
    }
    default:
        break;
    }
    ok = compile_expr(c, e) && emit(c, cond ? OP_POP_JUMP_IF_TRUE : OP_POP_JUMP_IF_FALSE, label);
done:
    c->u->lineno = save;
    c->u->pos = save_pos;
    c->depth--;
    return ok;
}

/* A literal whose truth is known (for `while True:`): 1 true, 0 false, -1 unknown. */
static int const_truth(expr_ty e)
{
    if (e->kind != Constant_kind)
        return -1;
    const constant *v = &e->v.Constant.value;
    switch (v->kind) {
    case CONST_NONE: case CONST_FALSE: return 0;
    case CONST_TRUE: case CONST_ELLIPSIS: return 1;
    case CONST_INT: return v->fits_i64 ? v->i64 != 0 : 1;
    case CONST_FLOAT: case CONST_IMAG: return v->f != 0.0;
    case CONST_STR: case CONST_BYTES: return v->len != 0;
    }
    return -1;
}

/* ------------------------------------------------------------------ */
/* Functions, lambdas, classes                                         */
/* ------------------------------------------------------------------ */

static bool compile_decorators(Compiler *c, expr_seq decs)
{
    for (int i = 0; i < decs.n; i++)
        TRY(compile_expr(c, decs.items[i]) && emit(c, OP_PUSH_NULL, 0));
    return true;
}

static bool apply_decorators(Compiler *c, expr_seq decs)
{
    int save = c->u->lineno;
    SrcPos save_pos = c->u->pos;
    for (int i = decs.n - 1; i >= 0; i--) {
        c->u->lineno = decs.items[i]->lineno;
        c->u->pos = NODE_POS(decs.items[i]);
        TRY(emit(c, OP_CALL, 1));
    }
    c->u->lineno = save;
    c->u->pos = save_pos;
    return true;
}

/* Push the defaults tuple and kw-only defaults dict; returns the
 * MAKE_FUNCTION flags (1, 2) or -1. */
static int compile_defaults(Compiler *c, arguments_ty a)
{
    int flags = 0;
    if (a->defaults.n) {
        bool all_const = true;
        CConst **items = pool_alloc(c, (size_t)a->defaults.n * sizeof(CConst *));
        if (!items)
            return -1;
        for (int i = 0; all_const && i < a->defaults.n; i++) {
            if (!(items[i] = fold_const(c, a->defaults.items[i], 0)))
                all_const = false;
        }
        if (c->err->kind != CERR_NONE)
            return -1;
        if (all_const) {
            CConst *k = const_new(c, K_TUPLE);
            if (!k)
                return -1;
            k->items = items;
            k->nitems = a->defaults.n;
            if (!emit_const(c, const_finish(k)))
                return -1;
        } else {
            for (int i = 0; i < a->defaults.n; i++)
                if (!compile_expr(c, a->defaults.items[i]))
                    return -1;
            if (!emit(c, OP_BUILD_TUPLE, a->defaults.n))
                return -1;
        }
        flags |= 1;
    }
    int nkw = 0;
    for (int i = 0; i < a->kw_defaults.n; i++) {
        expr_ty d = a->kw_defaults.items[i];
        if (!d)
            continue;
        const char *m = mangle(c, a->kwonlyargs.items[i]->arg);
        if (!m || !emit_str_const(c, m) || !compile_expr(c, d))
            return -1;
        nkw++;
    }
    if (nkw) {
        if (!emit(c, OP_BUILD_MAP, nkw))
            return -1;
        flags |= 2;
    }
    return flags;
}

static const char *pool_strndup(Compiler *c, const char *s, size_t n);

/* An annotation's value: the expression, or under `from __future__ import
 * annotations` its text as CPython's unparser writes it (PEP 563). */
static bool compile_annotation(Compiler *c, expr_ty ann)
{
    if (c->st->future_annotations) {
        char *text = ast_unparse_annotation(ann);
        if (!text) {   /* only a repr() out of memory can fail */
            err_clear();
            return nomem(c);
        }
        const char *kept = pool_strndup(c, text, strlen(text));   /* constants point into the pool */
        free(text);
        return kept && emit_str_const(c, kept);
    }
    if (ann->kind == Starred_kind)   /* *args: *Ts (PEP 646) */
        return compile_expr(c, ann->v.Starred.value) && emit(c, OP_UNPACK_SEQUENCE, 1);
    return compile_expr(c, ann);
}

static bool compile_arg_annotations(Compiler *c, arg_seq args, int *n)
{
    for (int i = 0; i < args.n; i++) {
        arg_ty a = args.items[i];
        if (!a->annotation)
            continue;
        const char *m = mangle(c, a->arg);
        TRY(m && emit_str_const(c, m) && compile_annotation(c, a->annotation));
        ++*n;
    }
    return true;
}

/* Push a def's __annotations__ dict, in CPython's order (args, then
 * positional-only, *args, keyword-only, **kwargs, 'return' last); returns
 * MAKE_FUNCTION's flag 4, 0 if there are none, -1 on error. */
static int compile_annotations(Compiler *c, arguments_ty a, expr_ty returns)
{
    int n = 0;
    arg_seq one;
    if (!compile_arg_annotations(c, a->args, &n) || !compile_arg_annotations(c, a->posonlyargs, &n))
        return -1;
    if (a->vararg) {
        one = (arg_seq){1, &a->vararg};
        if (!compile_arg_annotations(c, one, &n))
            return -1;
    }
    if (!compile_arg_annotations(c, a->kwonlyargs, &n))
        return -1;
    if (a->kwarg) {
        one = (arg_seq){1, &a->kwarg};
        if (!compile_arg_annotations(c, one, &n))
            return -1;
    }
    if (returns) {
        if (!emit_str_const(c, "return") || !compile_annotation(c, returns))
            return -1;
        n++;
    }
    if (!n)
        return 0;
    return emit(c, OP_BUILD_MAP, n) ? 4 : -1;
}

/* Does a module or class body annotate a simple target anywhere outside
 * nested defs and classes (CPython's find_ann)? */
static bool find_ann(const stmt_seq *body)
{
    for (int i = 0; i < body->n; i++) {
        stmt_ty s = body->items[i];
        switch (s->kind) {
        case AnnAssign_kind:
            return true;
        case For_kind: case AsyncFor_kind:
            if (find_ann(&s->v.For.body) || find_ann(&s->v.For.orelse))
                return true;
            break;
        case While_kind:
            if (find_ann(&s->v.While.body) || find_ann(&s->v.While.orelse))
                return true;
            break;
        case If_kind:
            if (find_ann(&s->v.If.body) || find_ann(&s->v.If.orelse))
                return true;
            break;
        case With_kind: case AsyncWith_kind:
            if (find_ann(&s->v.With.body))
                return true;
            break;
        case Try_kind: case TryStar_kind:
            for (int k = 0; k < s->v.Try.handlers.n; k++)
                if (find_ann(&s->v.Try.handlers.items[k]->body))
                    return true;
            if (find_ann(&s->v.Try.body) || find_ann(&s->v.Try.orelse) || find_ann(&s->v.Try.finalbody))
                return true;
            break;
        case Match_kind:
            for (int k = 0; k < s->v.Match.cases.n; k++)
                if (find_ann(&s->v.Match.cases.items[k]->body))
                    return true;
            break;
        default:
            break;
        }
    }
    return false;
}

static void set_arg_counts(Unit *u, arguments_ty a)
{
    u->posonlyargcount = a->posonlyargs.n;
    u->argcount = a->posonlyargs.n + a->args.n;
    u->kwonlyargcount = a->kwonlyargs.n;
}

static bool check_debug_params(Compiler *c, arguments_ty a, int lineno, int col, int end_lineno, int end_col);

static bool compile_function(Compiler *c, stmt_ty s)
{
    arguments_ty a = s->v.FunctionDef.args;
    TRY(check_debug_params(c, a, s->lineno, s->col_offset, s->end_lineno, s->end_col_offset));
    expr_seq decs = s->v.FunctionDef.decorator_list;
    TRY(compile_decorators(c, decs));
    c->u->lineno = s->lineno;
    int flags = compile_defaults(c, a);
    if (flags < 0)
        return false;
    int ann = compile_annotations(c, a, s->v.FunctionDef.returns);
    if (ann < 0)
        return false;
    flags |= ann;
    int firstline = decs.n ? decs.items[0]->lineno : s->lineno;
    TRY(enter_unit(c, symtable_lookup(c->st, s), U_FUNCTION, s->v.FunctionDef.name, firstline));
    set_arg_counts(c->u, a);
    const stmt_seq *body = &s->v.FunctionDef.body;
    const constant *doc = kept_docstring(c, body);
    /* consts[0]: the docstring or None */
    if (add_const(c, doc ? const_str(c, doc->s, doc->len) : const_simple(c, K_NONE)) < 0)
        return false;
    if (doc)
        c->u->flags |= CO_HAS_DOCSTRING;
    TRY(compile_stmts(c, body, doc ? 1 : 0));
    TRY(emit_none(c) && emit(c, OP_RETURN_VALUE, 0));
    Unit *child = leave_unit(c);
    if (!child)
        return false;
    c->u->lineno = s->lineno;
    TRY(emit_make_function(c, child, flags));
    TRY(apply_decorators(c, decs));
    return compile_nameop(c, s->v.FunctionDef.name, AST_Store, NULL);
}

static bool compile_lambda(Compiler *c, expr_ty e)
{
    arguments_ty a = e->v.Lambda.args;
    TRY(check_debug_params(c, a, e->lineno, e->col_offset, e->end_lineno, e->end_col_offset));
    int flags = compile_defaults(c, a);
    if (flags < 0)
        return false;
    Scope *ste = symtable_lookup(c->st, e);
    TRY(enter_unit(c, ste, U_LAMBDA, "<lambda>", e->lineno));
    set_arg_counts(c->u, a);
    /* consts[0] is None: a lambda has no docstring */
    if (add_const(c, const_simple(c, K_NONE)) < 0)
        return false;
    TRY(compile_expr(c, e->v.Lambda.body));
    if (ste->is_generator)
        TRY(emit(c, OP_POP_TOP, 0) && emit_none(c));
    TRY(emit(c, OP_RETURN_VALUE, 0));
    Unit *child = leave_unit(c);
    if (!child)
        return false;
    return emit_make_function(c, child, flags);
}

static bool call_helper(Compiler *c, int pushed, expr_seq args, keyword_seq kws);
static bool validate_keywords(Compiler *c, keyword_seq kws, int lineno, int col, int end_lineno, int end_col);

/* CPython refuses a parameter named __debug__ (reported at the def / lambda). */
static bool check_debug_params(Compiler *c, arguments_ty a, int lineno, int col, int end_lineno, int end_col)
{
    arg_seq groups[3] = { a->posonlyargs, a->args, a->kwonlyargs };
    bool bad = (a->vararg && strcmp(a->vararg->arg, "__debug__") == 0) ||
               (a->kwarg && strcmp(a->kwarg->arg, "__debug__") == 0);
    for (int g = 0; g < 3; g++)
        for (int i = 0; i < groups[g].n; i++)
            bad = bad || strcmp(groups[g].items[i]->arg, "__debug__") == 0;
    if (bad)
        return cerror(c, CERR_SYNTAX, lineno, col, end_lineno, end_col, "cannot assign to __debug__");
    return true;
}

static bool compile_class(Compiler *c, stmt_ty s)
{
    expr_seq decs = s->v.ClassDef.decorator_list;
    TRY(validate_keywords(c, s->v.ClassDef.keywords, s->lineno, s->col_offset, s->end_lineno, s->end_col_offset));
    TRY(compile_decorators(c, decs));
    int firstline = decs.n ? decs.items[0]->lineno : s->lineno;
    Scope *ste = symtable_lookup(c->st, s);
    TRY(enter_unit(c, ste, U_CLASS, s->v.ClassDef.name, firstline));
    Unit *u = c->u;
    u->lineno = s->lineno;
    TRY(emit_name_index(c, OP_LOAD_NAME, "__name__") && emit_name_index(c, OP_STORE_NAME, "__module__"));
    TRY(emit_str_const(c, u->qualname) && emit_name_index(c, OP_STORE_NAME, "__qualname__"));
    const stmt_seq *body = &s->v.ClassDef.body;
    if (find_ann(body))
        TRY(emit(c, OP_SETUP_ANNOTATIONS, 0));
    const constant *doc = kept_docstring(c, body);
    if (doc) {
        u->lineno = body->items[0]->lineno;
        TRY(emit_const(c, const_str(c, doc->s, doc->len)) && emit_name_index(c, OP_STORE_NAME, "__doc__"));
    }
    TRY(compile_stmts(c, body, doc ? 1 : 0));
    if (ste->needs_class_closure) {
        int ix = strtab_lookup(&u->cells, "__class__");
        if (ix < 0)
            return internal_error(c, "__class__ cell missing");
        TRY(emit(c, OP_LOAD_CLOSURE, ix) && emit_name_index(c, OP_STORE_NAME, "__classcell__"));
    }
    TRY(emit_none(c) && emit(c, OP_RETURN_VALUE, 0));
    Unit *child = leave_unit(c);
    if (!child)
        return false;
    c->u->lineno = s->lineno;
    TRY(emit(c, OP_LOAD_BUILD_CLASS, 0) && emit(c, OP_PUSH_NULL, 0));
    TRY(emit_make_function(c, child, 0));
    TRY(emit_str_const(c, s->v.ClassDef.name));
    TRY(call_helper(c, 2, s->v.ClassDef.bases, s->v.ClassDef.keywords));
    TRY(apply_decorators(c, decs));
    return compile_nameop(c, s->v.ClassDef.name, AST_Store, NULL);
}

/* ------------------------------------------------------------------ */
/* Statements                                                          */
/* ------------------------------------------------------------------ */

static bool compile_stmt(Compiler *c, stmt_ty s);
static bool compile_iterable(Compiler *c, expr_ty e);

static bool compile_stmts(Compiler *c, const stmt_seq *seq, int from)
{
    for (int i = from; i < seq->n; i++)
        TRY(compile_stmt(c, seq->items[i]));
    return true;
}

static bool compile_augassign(Compiler *c, stmt_ty s)
{
    expr_ty t = s->v.AugAssign.target;
    int op = NB_INPLACE_BASE;
    switch (s->v.AugAssign.op) {
    case AST_Add: op += NB_ADD; break;
    case AST_Sub: op += NB_SUB; break;
    case AST_Mult: op += NB_MUL; break;
    case AST_MatMult: op += NB_MATMUL; break;
    case AST_Div: op += NB_TRUEDIV; break;
    case AST_Mod: op += NB_MOD; break;
    case AST_Pow: op += NB_POW; break;
    case AST_LShift: op += NB_LSHIFT; break;
    case AST_RShift: op += NB_RSHIFT; break;
    case AST_BitOr: op += NB_OR; break;
    case AST_BitXor: op += NB_XOR; break;
    case AST_BitAnd: op += NB_AND; break;
    case AST_FloorDiv: op += NB_FLOORDIV; break;
    }
    switch (t->kind) {
    case Name_kind:
        TRY(compile_nameop(c, t->v.Name.id, AST_Load, t));
        TRY(compile_expr(c, s->v.AugAssign.value));
        c->u->lineno = s->lineno;
        TRY(emit(c, OP_BINARY_OP, op));
        return compile_nameop(c, t->v.Name.id, AST_Store, t);
    case Attribute_kind:
        TRY(compile_expr(c, t->v.Attribute.value));
        c->u->lineno = t->end_lineno;
        TRY(emit(c, OP_DUP_TOP, 0) && emit_attr_op(c, OP_LOAD_ATTR, t->v.Attribute.attr));
        TRY(compile_expr(c, s->v.AugAssign.value));
        c->u->lineno = s->lineno;
        TRY(emit(c, OP_BINARY_OP, op) && emit(c, OP_ROT_TWO, 0));
        c->u->lineno = t->end_lineno;
        return emit_attr_op(c, OP_STORE_ATTR, t->v.Attribute.attr);
    case Subscript_kind:
        TRY(compile_expr(c, t->v.Subscript.value) && compile_expr(c, t->v.Subscript.slice));
        c->u->lineno = t->lineno;
        TRY(emit(c, OP_DUP_TOP_TWO, 0) && emit(c, OP_BINARY_SUBSCR, 0));
        TRY(compile_expr(c, s->v.AugAssign.value));
        c->u->lineno = s->lineno;
        TRY(emit(c, OP_BINARY_OP, op) && emit(c, OP_ROT_THREE, 0));
        return emit(c, OP_STORE_SUBSCR, 0);
    default:
        return SYNERR(c, t, "illegal expression for augmented assignment");
    }
}

/* PEP 526: in a module or class body a simple name's annotation goes into
 * __annotations__ (after the value is stored); other targets' annotations
 * are evaluated there and dropped; in a function nothing is evaluated. */
static bool compile_annassign(Compiler *c, stmt_ty s)
{
    expr_ty t = s->v.AnnAssign.target;
    bool stored_scope = c->u->kind == U_MODULE || c->u->kind == U_CLASS;
    if (s->v.AnnAssign.value) {
        TRY(compile_expr(c, s->v.AnnAssign.value));
        TRY(compile_store(c, t));
    }
    switch (t->kind) {
    case Name_kind:
        if (s->v.AnnAssign.simple && stored_scope) {
            const char *m = mangle(c, t->v.Name.id);
            TRY(compile_annotation(c, s->v.AnnAssign.annotation));
            c->u->lineno = s->lineno;
            return m && emit_name_index(c, OP_LOAD_NAME, "__annotations__") && emit_str_const(c, m) &&
                   emit(c, OP_STORE_SUBSCR, 0);
        }
        break;
    case Attribute_kind:
        if (!s->v.AnnAssign.value)
            TRY(compile_expr(c, t->v.Attribute.value) && emit(c, OP_POP_TOP, 0));
        break;
    case Subscript_kind:
        if (!s->v.AnnAssign.value)
            TRY(compile_expr(c, t->v.Subscript.value) && emit(c, OP_POP_TOP, 0) &&
                compile_expr(c, t->v.Subscript.slice) && emit(c, OP_POP_TOP, 0));
        break;
    default:
        break;
    }
    if (stored_scope && !c->st->future_annotations)
        TRY(compile_expr(c, s->v.AnnAssign.annotation) && emit(c, OP_POP_TOP, 0));
    return true;
}

/* async for: each item is `await anext(it)` inside a try block whose
 * handler (END_ASYNC_FOR) ends the loop on StopAsyncIteration. */
static bool compile_async_for(Compiler *c, stmt_ty s)
{
    if (!c->u->ste->is_async_def)
        return SYNERR(c, s, "'async for' outside async function");
    NEW_LABEL(start);
    NEW_LABEL(except);
    NEW_LABEL(end);
    TRY(compile_iterable(c, s->v.For.iter));
    c->u->lineno = s->lineno;
    TRY(emit(c, OP_GET_AITER, 0));
    bind_label(c, start);
    TRY(emit(c, OP_SETUP_FINALLY, except) && emit(c, OP_GET_ANEXT, 0) && emit_await(c, 0) &&
        emit(c, OP_POP_BLOCK, 0));
    TRY(compile_store(c, s->v.For.target));
    TRY(PUSH_FBLOCK(c, FB_FOR, start, end, s));
    TRY(compile_stmts(c, &s->v.For.body, 0));
    pop_fblock(c);
    /* the back edge is on the line of the body's end (CPython: artificial,
     * inherited), so line tracing sees the loop's head once a turn; what
     * follows the loop's exit is on the loop's line (its FOR_ITER's) */
    TRY(emit(c, OP_JUMP, start));
    c->u->lineno = s->lineno;
    bind_label(c, except);
    TRY(emit(c, OP_END_ASYNC_FOR, 0));
    TRY(compile_stmts(c, &s->v.For.orelse, 0));
    bind_label(c, end);
    return true;
}

static bool compile_for(Compiler *c, stmt_ty s)
{
    NEW_LABEL(start);
    NEW_LABEL(cleanup);
    NEW_LABEL(end);
    TRY(compile_iterable(c, s->v.For.iter));
    c->u->lineno = s->lineno;
    TRY(emit(c, OP_GET_ITER, 0));
    bind_label(c, start);
    TRY(emit(c, OP_FOR_ITER, cleanup));
    TRY(compile_store(c, s->v.For.target));
    TRY(PUSH_FBLOCK(c, FB_FOR, start, end, s));
    TRY(compile_stmts(c, &s->v.For.body, 0));
    pop_fblock(c);
    /* the back edge is on the line of the body's end (CPython: artificial,
     * inherited), so line tracing sees the loop's head once a turn; what
     * follows the loop's exit is on the loop's line (its FOR_ITER's) */
    TRY(emit(c, OP_JUMP, start));
    c->u->lineno = s->lineno;
    bind_label(c, cleanup);
    TRY(compile_stmts(c, &s->v.For.orelse, 0));
    bind_label(c, end);
    return true;
}

/* As CPython 3.11, the test is compiled twice (before the loop and after
 * the body, so its SyntaxWarnings come twice too); the back edge stays an
 * unconditional JUMP_BACKWARD. */
static bool compile_while(Compiler *c, stmt_ty s)
{
    NEW_LABEL(start);
    NEW_LABEL(body);
    NEW_LABEL(anchor);
    NEW_LABEL(end);
    bool infinite = const_truth(s->v.While.test) == 1;
    bind_label(c, start);
    if (!infinite)
        TRY(jump_if(c, s->v.While.test, anchor, false));
    bind_label(c, body);
    TRY(PUSH_FBLOCK(c, FB_WHILE, start, end, s));
    TRY(compile_stmts(c, &s->v.While.body, 0));
    pop_fblock(c);
    c->u->lineno = s->lineno;
    if (!infinite)
        TRY(jump_if(c, s->v.While.test, anchor, false));
    c->u->lineno = s->lineno;
    TRY(emit(c, OP_JUMP, body));
    bind_label(c, anchor);
    TRY(compile_stmts(c, &s->v.While.orelse, 0));
    bind_label(c, end);
    return true;
}

static bool compile_if(Compiler *c, stmt_ty s)
{
    NEW_LABEL(end);
    int next = end;
    if (s->v.If.orelse.n) {
        next = new_label(c);
        if (next < 0)
            return false;
    }
    TRY(jump_if(c, s->v.If.test, next, false));
    TRY(compile_stmts(c, &s->v.If.body, 0));
    if (s->v.If.orelse.n) {
        TRY(emit(c, OP_JUMP, end));
        bind_label(c, next);
        TRY(compile_stmts(c, &s->v.If.orelse, 0));
    }
    bind_label(c, end);
    return true;
}

static bool compile_with(Compiler *c, stmt_ty s, int item)
{
    withitem_ty w = s->v.With.items.items[item];
    NEW_LABEL(handler);
    NEW_LABEL(suppress);
    NEW_LABEL(end);
    TRY(compile_expr(c, w->context_expr));
    c->u->lineno = s->lineno;
    TRY(emit(c, OP_SETUP_WITH, handler));
    TRY(PUSH_FBLOCK(c, FB_WITH, -1, -1, s));
    if (w->optional_vars)
        TRY(compile_store(c, w->optional_vars));
    else
        TRY(emit(c, OP_POP_TOP, 0));
    if (item + 1 < s->v.With.items.n)
        TRY(compile_with(c, s, item + 1));
    else
        TRY(compile_stmts(c, &s->v.With.body, 0));
    pop_fblock(c);
    c->u->lineno = s->lineno;
    TRY(emit(c, OP_POP_BLOCK, 0) && emit(c, OP_CALL_EXIT_NONE, 0) && emit(c, OP_JUMP, end));
    /* exception: stack exit prev exc */
    bind_label(c, handler);
    TRY(emit(c, OP_WITH_EXCEPT_START, 0) && emit(c, OP_POP_JUMP_IF_TRUE, suppress) && emit(c, OP_RERAISE, 0));
    bind_label(c, suppress);
    TRY(emit(c, OP_POP_TOP, 0) && emit(c, OP_POP_EXCEPT, 0) && emit(c, OP_POP_TOP, 0));
    bind_label(c, end);
    return true;
}

/* async with: as with, but __aenter__() and __aexit__(...) are awaited. */
static bool compile_async_with(Compiler *c, stmt_ty s, int item)
{
    if (!c->u->ste->is_async_def)
        return SYNERR(c, s, "'async with' outside async function");
    withitem_ty w = s->v.With.items.items[item];
    NEW_LABEL(handler);
    NEW_LABEL(suppress);
    NEW_LABEL(end);
    TRY(compile_expr(c, w->context_expr));
    c->u->lineno = s->lineno;
    TRY(emit(c, OP_BEFORE_ASYNC_WITH, 0) && emit_await(c, 1) && emit(c, OP_SETUP_ASYNC_WITH, handler));
    TRY(PUSH_FBLOCK(c, FB_ASYNC_WITH, -1, -1, s));
    if (w->optional_vars)
        TRY(compile_store(c, w->optional_vars));
    else
        TRY(emit(c, OP_POP_TOP, 0));
    if (item + 1 < s->v.With.items.n)
        TRY(compile_async_with(c, s, item + 1));
    else
        TRY(compile_stmts(c, &s->v.With.body, 0));
    pop_fblock(c);
    c->u->lineno = s->lineno;
    TRY(emit(c, OP_POP_BLOCK, 0) && emit(c, OP_CALL_EXIT_NONE, 1) && emit_await(c, 2) &&
        emit(c, OP_POP_TOP, 0) && emit(c, OP_JUMP, end));
    /* exception: stack exit prev exc */
    bind_label(c, handler);
    TRY(emit(c, OP_WITH_EXCEPT_START, 0) && emit_await(c, 2) && emit(c, OP_POP_JUMP_IF_TRUE, suppress) &&
        emit(c, OP_RERAISE, 0));
    bind_label(c, suppress);
    TRY(emit(c, OP_POP_TOP, 0) && emit(c, OP_POP_EXCEPT, 0) && emit(c, OP_POP_TOP, 0));
    bind_label(c, end);
    return true;
}

static bool compile_try_except(Compiler *c, stmt_ty s)
{
    NEW_LABEL(handlers);
    NEW_LABEL(end);
    c->u->lineno = s->lineno;
    TRY(emit(c, OP_SETUP_FINALLY, handlers));
    TRY(PUSH_FBLOCK(c, FB_TRY_EXCEPT, -1, -1, s));
    TRY(compile_stmts(c, &s->v.Try.body, 0));
    pop_fblock(c);
    TRY(emit(c, OP_POP_BLOCK, 0));
    TRY(compile_stmts(c, &s->v.Try.orelse, 0));
    TRY(emit(c, OP_JUMP, end));
    /* stack: prev exc */
    bind_label(c, handlers);
    int n = s->v.Try.handlers.n;
    for (int i = 0; i < n; i++) {
        excepthandler_ty h = s->v.Try.handlers.items[i];
        c->u->lineno = h->lineno;
        if (!h->type && i < n - 1)
            return SYNERR(c, h, "default 'except:' must be last");
        NEW_LABEL(next);
        if (h->type) {
            TRY(emit(c, OP_DUP_TOP, 0) && compile_expr(c, h->type));
            c->u->lineno = h->lineno;
            TRY(emit(c, OP_JUMP_IF_NOT_EXC_MATCH, next));
        }
        if (h->name) {
            NEW_LABEL(cleanup);
            TRY(compile_nameop(c, h->name, AST_Store, NULL));
            TRY(emit(c, OP_SETUP_FINALLY, cleanup));
            TRY(push_fblock(c, FB_HANDLER_CLEANUP, -1, -1, h->lineno, h->col_offset, h->end_lineno,
                            h->end_col_offset));
            c->u->fblocks[c->u->nfblocks - 1].name = h->name;
            TRY(compile_stmts(c, &h->body, 0));
            pop_fblock(c);
            c->u->lineno = h->lineno;
            TRY(emit(c, OP_POP_BLOCK, 0) && emit(c, OP_POP_EXCEPT, 0));
            TRY(emit_none(c) && compile_nameop(c, h->name, AST_Store, NULL) &&
                compile_nameop(c, h->name, AST_Del, NULL));
            TRY(emit(c, OP_JUMP, end));
            /* an exception in the handler body: stack prev prev2 exc2 */
            bind_label(c, cleanup);
            TRY(emit_none(c) && compile_nameop(c, h->name, AST_Store, NULL) &&
                compile_nameop(c, h->name, AST_Del, NULL) && emit(c, OP_RERAISE, 0));
        } else {
            TRY(emit(c, OP_POP_TOP, 0));
            TRY(push_fblock(c, FB_HANDLER_CLEANUP, -1, -1, h->lineno, h->col_offset, h->end_lineno,
                            h->end_col_offset));
            TRY(compile_stmts(c, &h->body, 0));
            pop_fblock(c);
            c->u->lineno = h->lineno;
            TRY(emit(c, OP_POP_EXCEPT, 0) && emit(c, OP_JUMP, end));
        }
        bind_label(c, next);
    }
    if (n == 0 || s->v.Try.handlers.items[n - 1]->type)
        TRY(emit(c, OP_RERAISE, 0));
    bind_label(c, end);
    return true;
}

/* try with except* clauses (PEP 654); the sequence is in opcodes.h. */
static bool compile_try_star_except(Compiler *c, stmt_ty s)
{
    NEW_LABEL(handlers);
    NEW_LABEL(end);
    NEW_LABEL(reraise);
    c->u->lineno = s->lineno;
    TRY(emit(c, OP_SETUP_FINALLY, handlers));
    TRY(PUSH_FBLOCK(c, FB_TRY_EXCEPT, -1, -1, s));
    TRY(compile_stmts(c, &s->v.Try.body, 0));
    pop_fblock(c);
    TRY(emit(c, OP_POP_BLOCK, 0));
    TRY(compile_stmts(c, &s->v.Try.orelse, 0));
    TRY(emit(c, OP_JUMP, end));
    /* stack: prev exc -> prev orig raised rest */
    bind_label(c, handlers);
    TRY(emit(c, OP_DUP_TOP, 0) && emit(c, OP_BUILD_LIST, 0) && emit(c, OP_ROT_TWO, 0));
    for (int i = 0; i < s->v.Try.handlers.n; i++) {
        excepthandler_ty h = s->v.Try.handlers.items[i];
        NEW_LABEL(next);
        NEW_LABEL(raised);
        c->u->lineno = h->lineno;
        TRY(compile_expr(c, h->type));
        c->u->lineno = h->lineno;
        TRY(emit(c, OP_CHECK_EG_MATCH, next));
        if (h->name)
            TRY(compile_nameop(c, h->name, AST_Store, NULL));
        else
            TRY(emit(c, OP_POP_TOP, 0));
        TRY(emit(c, OP_SETUP_FINALLY, raised));
        TRY(push_fblock(c, FB_EXCEPT_STAR, -1, -1, h->lineno, h->col_offset, h->end_lineno, h->end_col_offset));
        TRY(compile_stmts(c, &h->body, 0));
        pop_fblock(c);
        c->u->lineno = h->lineno;
        TRY(emit(c, OP_POP_BLOCK, 0));
        if (h->name)
            TRY(emit_none(c) && compile_nameop(c, h->name, AST_Store, NULL) &&
                compile_nameop(c, h->name, AST_Del, NULL));
        TRY(emit(c, OP_JUMP, next));
        /* the clause raised: stack prev orig raised rest prev2 exc2 */
        bind_label(c, raised);
        if (h->name)
            TRY(emit_none(c) && compile_nameop(c, h->name, AST_Store, NULL) &&
                compile_nameop(c, h->name, AST_Del, NULL));
        TRY(emit(c, OP_LIST_APPEND, 3) && emit(c, OP_POP_EXCEPT, 0));
        bind_label(c, next);
    }
    c->u->lineno = s->lineno;
    TRY(emit(c, OP_LIST_APPEND, 1) && emit(c, OP_PREP_RERAISE_STAR, 0));
    TRY(emit(c, OP_DUP_TOP, 0) && emit(c, OP_POP_JUMP_IF_NOT_NONE, reraise));
    TRY(emit(c, OP_POP_TOP, 0) && emit(c, OP_POP_EXCEPT, 0) && emit(c, OP_JUMP, end));
    bind_label(c, reraise);
    TRY(emit(c, OP_RERAISE, 0));
    bind_label(c, end);
    return true;
}

/* return/break/continue inside an except* clause (for break and continue:
 * unless inside a loop within it) is a SyntaxError, as CPython's unwinding
 * finds. */
static bool leaves_except_star(Compiler *c, bool to_loop)
{
    for (int i = c->u->nfblocks - 1; i >= 0; i--) {
        FBKind k = c->u->fblocks[i].kind;
        if (k == FB_EXCEPT_STAR)
            return true;
        if (to_loop && (k == FB_WHILE || k == FB_FOR))
            return false;
    }
    return false;
}
#define EXCEPT_STAR_EXIT_MSG "'break', 'continue' and 'return' cannot appear in an except* block"

static bool compile_try_finally(Compiler *c, stmt_ty s)
{
    NEW_LABEL(handler);
    NEW_LABEL(end);
    c->u->lineno = s->lineno;
    TRY(emit(c, OP_SETUP_FINALLY, handler));
    TRY(PUSH_FBLOCK(c, FB_FINALLY_TRY, -1, -1, s));
    c->u->fblocks[c->u->nfblocks - 1].finalbody = &s->v.Try.finalbody;
    if (s->v.Try.handlers.n)
        TRY(s->kind == TryStar_kind ? compile_try_star_except(c, s) : compile_try_except(c, s));
    else
        TRY(compile_stmts(c, &s->v.Try.body, 0));
    pop_fblock(c);
    TRY(emit(c, OP_POP_BLOCK, 0));
    TRY(compile_stmts(c, &s->v.Try.finalbody, 0));
    TRY(emit(c, OP_JUMP, end));
    /* exception: stack prev exc */
    bind_label(c, handler);
    TRY(PUSH_FBLOCK(c, FB_FINALLY_END, -1, -1, s));
    TRY(compile_stmts(c, &s->v.Try.finalbody, 0));
    pop_fblock(c);
    TRY(emit(c, OP_RERAISE, 0));
    bind_label(c, end);
    return true;
}

/* A dotted name's part [from, to) as a string owned by the pool. */
static const char *pool_strndup(Compiler *c, const char *s, size_t n)
{
    char *p = pool_alloc(c, n + 1);
    if (!p)
        return NULL;
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

static bool compile_import(Compiler *c, stmt_ty s)
{
    for (int i = 0; i < s->v.Import.names.n; i++) {
        alias_ty a = s->v.Import.names.items[i];
        c->u->lineno = a->lineno;
        TRY(emit_const(c, const_int(c, 0)) && emit_none(c) && emit_name_index(c, OP_IMPORT_NAME, a->name));
        const char *dot = strchr(a->name, '.');
        if (a->asname && dot) {
            /* import a.b.c as d: walk from a to a.b.c with IMPORT_FROM */
            const char *comp = dot + 1;
            for (;;) {
                const char *next = strchr(comp, '.');
                const char *part = pool_strndup(c, comp, next ? (size_t)(next - comp) : strlen(comp));
                if (!part)
                    return false;
                TRY(emit_name_index(c, OP_IMPORT_FROM, part));
                if (!next)
                    break;
                TRY(emit(c, OP_SWAP, 2) && emit(c, OP_POP_TOP, 0));
                comp = next + 1;
            }
            TRY(compile_nameop(c, a->asname, AST_Store, NULL) && emit(c, OP_POP_TOP, 0));
        } else if (a->asname) {
            TRY(compile_nameop(c, a->asname, AST_Store, NULL));
        } else {
            const char *top = dot ? pool_strndup(c, a->name, (size_t)(dot - a->name)) : a->name;
            if (!top)
                return false;
            TRY(compile_nameop(c, top, AST_Store, NULL));
        }
    }
    return true;
}

static bool compile_future(Compiler *c, stmt_ty s)
{
    bool placed = false;
    for (int i = 0; c->module_body && i < c->future_prefix; i++)
        placed = placed || c->module_body->items[i] == s;
    if (!placed)
        return SYNERR(c, s, "from __future__ imports must occur at the beginning of the file");
    static const char *const features[] = {
        "nested_scopes", "generators", "division", "absolute_import", "with_statement",
        "print_function", "unicode_literals", "barry_as_FLUFL", "generator_stop", "annotations", NULL
    };
    for (int i = 0; i < s->v.ImportFrom.names.n; i++) {
        alias_ty a = s->v.ImportFrom.names.items[i];
        c->err->msg_only_args = 1;   /* as CPython's future.c */
        if (strcmp(a->name, "braces") == 0)
            return cerror(c, CERR_SYNTAX, s->lineno, s->col_offset, s->lineno, -1, "not a chance");
        bool known = false;
        for (int k = 0; features[k]; k++)
            known = known || strcmp(a->name, features[k]) == 0;
        if (!known)   /* end_col_offset -1: CPython gives no end offset here */
            return cerror(c, CERR_SYNTAX, s->lineno, s->col_offset, s->lineno, -1,
                          "future feature %s is not defined", a->name);
        c->err->msg_only_args = 0;
    }
    return true;
}

static bool compile_importfrom(Compiler *c, stmt_ty s)
{
    const char *module = s->v.ImportFrom.module ? s->v.ImportFrom.module : "";
    alias_seq names = s->v.ImportFrom.names;
    /* a future import is checked here, then imported as any other (it binds the names) */
    if (s->v.ImportFrom.level == 0 && strcmp(module, "__future__") == 0)
        TRY(compile_future(c, s));
    CConst *fromlist = const_new(c, K_TUPLE);
    if (!fromlist)
        return false;
    fromlist->nitems = names.n;
    fromlist->items = pool_alloc(c, (size_t)names.n * sizeof(CConst *) + 1);
    if (!fromlist->items)
        return false;
    for (int i = 0; i < names.n; i++)
        if (!(fromlist->items[i] = const_str(c, names.items[i]->name, strlen(names.items[i]->name))))
            return false;
    TRY(emit_const(c, const_int(c, s->v.ImportFrom.level)) && emit_const(c, const_finish(fromlist)));
    TRY(emit_name_index(c, OP_IMPORT_NAME, module));
    if (names.n == 1 && strcmp(names.items[0]->name, "*") == 0)
        return emit(c, OP_IMPORT_STAR, 0);
    for (int i = 0; i < names.n; i++) {
        alias_ty a = names.items[i];
        c->u->lineno = a->lineno;
        TRY(emit_name_index(c, OP_IMPORT_FROM, a->name));
        TRY(compile_nameop(c, a->asname ? a->asname : a->name, AST_Store, NULL));
    }
    return emit(c, OP_POP_TOP, 0);
}

static bool compile_return(Compiler *c, stmt_ty s)
{
    if (c->u->ste->type != BLOCK_FUNCTION)
        return SYNERR(c, s, "'return' outside function");
    if (s->v.Return.value && c->u->ste->is_coroutine && c->u->ste->is_generator)
        return SYNERR(c, s, "'return' with value in async generator");
    if (leaves_except_star(c, false)) {
        if (s->v.Return.value)   /* CPython points at the value */
            return SYNERR(c, s->v.Return.value, EXCEPT_STAR_EXIT_MSG);
        return SYNERR(c, s, EXCEPT_STAR_EXIT_MSG);
    }
    if (s->v.Return.value) {
        TRY(compile_expr(c, s->v.Return.value));
        c->u->lineno = s->lineno;
        TRY(unwind_fblock_stack(c, true, NULL));
    } else {
        c->u->lineno = s->lineno;
        TRY(unwind_fblock_stack(c, false, NULL));
        TRY(emit_none(c));
    }
    /* after finally bodies the return is on their last line, as CPython's */
    return emit(c, OP_RETURN_VALUE, 0);
}

static bool compile_break_continue(Compiler *c, stmt_ty s, bool is_break)
{
    FBlock *loop = NULL;
    if (leaves_except_star(c, true))
        return SYNERR(c, s, EXCEPT_STAR_EXIT_MSG);
    c->u->lineno = s->lineno;
    TRY(unwind_fblock_stack(c, false, &loop));
    if (!loop)
        return SYNERR(c, s, is_break ? "'break' outside loop" : "'continue' not properly in loop");
    if (is_break) {
        TRY(unwind_fblock(c, loop, false));
        return emit(c, OP_JUMP, loop->exit);
    }
    return emit(c, OP_JUMP, loop->start);
}

static bool compile_expr_stmt(Compiler *c, stmt_ty s)
{
    expr_ty v = s->v.Expr.value;
    if (c->interactive && c->u->kind == U_MODULE) {
        /* the REPL shows the value: sys.displayhook(value) */
        TRY(emit_const(c, const_int(c, 0)) && emit_none(c) && emit_name_index(c, OP_IMPORT_NAME, "sys"));
        TRY(emit_name_index(c, OP_LOAD_METHOD, "displayhook"));
        TRY(compile_expr(c, v));
        c->u->lineno = s->lineno;
        return emit(c, OP_CALL, 1) && emit(c, OP_POP_TOP, 0);
    }
    if (v->kind == Constant_kind)
        return true;   /* no effect */
    TRY(compile_expr(c, v));
    c->u->lineno = s->lineno;
    return emit(c, OP_POP_TOP, 0);
}

/* `a, b = x, y` (2 or 3 items, no stars): no tuple, the values are
 * rotated into place. 1 done, 0 not applicable, -1 error. */
static int try_swap_assign(Compiler *c, expr_ty t, expr_ty v)
{
    expr_seq ts, vs;
    if (t->kind == Tuple_kind)
        ts = t->v.Tuple.elts;
    else if (t->kind == List_kind)
        ts = t->v.List.elts;
    else
        return 0;
    if (v->kind == Tuple_kind && v->v.Tuple.ctx == AST_Load)
        vs = v->v.Tuple.elts;
    else if (v->kind == List_kind && v->v.List.ctx == AST_Load)
        vs = v->v.List.elts;
    else
        return 0;
    int n = ts.n;
    if ((n != 2 && n != 3) || vs.n != n || has_starred(ts) || has_starred(vs))
        return 0;
    for (int i = 0; i < n; i++)
        if (!compile_expr(c, vs.items[i]))
            return -1;
    c->u->lineno = t->lineno;
    if (n == 3 && !emit(c, OP_ROT_THREE, 0))
        return -1;
    if (!emit(c, OP_ROT_TWO, 0))
        return -1;
    for (int i = 0; i < n; i++)
        if (!compile_store(c, ts.items[i]))
            return -1;
    return 1;
}

/* ------------------------------------------------------------------ */
/* The match statement                                                 */
/* ------------------------------------------------------------------ */
/* Layout while a case's pattern runs: the names the pattern captures have
 * a slot each on the value stack (pushed as NULL when the case starts),
 * below the values being matched. A capture puts its value in its slot
 * (SWAP n; POP_TOP), so values of alternatives land in the same slots and
 * nothing is bound until the whole pattern has matched; then the slots are
 * stored in capture order (CPython's observable order: an or-pattern binds
 * in the order of its first alternative). A failed test jumps into a chain
 * of POP_TOPs that empties the stack down to the chain's base. */

typedef struct FailChain {
    int *labels;      /* labels[k]: pop k values, then continue where the chain ends (-1: not used) */
    int n, cap;
    int base;         /* the stack height (above the capture slots) where the chain ends */
} FailChain;

typedef struct PatState {
    const char **names;       /* the case's captured names; slot i (0: the topmost) holds names[i] */
    int nnames;
    const char **bound;       /* names captured so far by this pattern or alternative (duplicates) */
    int nbound, capbound;
    int above;                /* values on the stack above the capture slots */
    FailChain *fail;
    bool allow_irrefutable;   /* a capture or `_` may match here (last case, guarded case, sub-pattern) */
    pattern_ty loc;           /* the last pattern compiled: where CPython reports errors found after it */
} PatState;

static bool is_wildcard(pattern_ty p)
{
    return p->kind == MatchAs_kind && !p->v.MatchAs.pattern && !p->v.MatchAs.name;
}

static bool is_star_wildcard(pattern_ty p)
{
    return p->kind == MatchStar_kind && !p->v.MatchStar.name;
}

static int name_index(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

static bool add_name(Compiler *c, const char ***names, int *n, int *cap, const char *name)
{
    if (!grow((void **)names, cap, *n + 1, sizeof(char *)))
        return nomem(c);
    (*names)[(*n)++] = name;
    return true;
}

/* The names a pattern captures, in the order they are stored. */
static bool collect_captures(Compiler *c, pattern_ty p, const char ***names, int *n, int *cap, int depth)
{
    if (depth > COMPILER_MAX_NESTING)
        return cerror(c, CERR_RECURSION, p->lineno, p->col_offset, p->end_lineno, p->end_col_offset,
                      "maximum recursion depth exceeded during compilation");
    const char *name = NULL;
    pattern_seq subs[2] = {{0, NULL}, {0, NULL}};
    switch (p->kind) {
    case MatchValue_kind: case MatchSingleton_kind:
        return true;
    case MatchSequence_kind: subs[0] = p->v.MatchSequence.patterns; break;
    case MatchOr_kind: subs[0] = p->v.MatchOr.patterns; break;
    case MatchMapping_kind:
        subs[0] = p->v.MatchMapping.patterns;
        name = p->v.MatchMapping.rest;
        break;
    case MatchClass_kind:
        subs[0] = p->v.MatchClass.patterns;
        subs[1] = p->v.MatchClass.kwd_patterns;
        break;
    case MatchStar_kind: name = p->v.MatchStar.name; break;
    case MatchAs_kind:
        if (p->v.MatchAs.pattern && !collect_captures(c, p->v.MatchAs.pattern, names, n, cap, depth + 1))
            return false;
        name = p->v.MatchAs.name;
        break;
    }
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < subs[s].n; i++)
            TRY(collect_captures(c, subs[s].items[i], names, n, cap, depth + 1));
    if (name && name_index(*names, *n, name) < 0)
        TRY(add_name(c, names, n, cap, name));
    return true;
}

/* The label that pops the values above the chain's base (the stack height
 * after the jump is st->above). */
static int fail_label(Compiler *c, FailChain *ch, int above)
{
    int k = above - ch->base;
    if (k < 0) {
        internal_error(c, "pattern stack below its fail chain");
        return -1;
    }
    if (k >= ch->n) {
        if (!grow((void **)&ch->labels, &ch->cap, k + 1, sizeof(int))) {
            nomem(c);
            return -1;
        }
        while (ch->n <= k)
            ch->labels[ch->n++] = -1;
    }
    if (ch->labels[k] < 0)
        ch->labels[k] = new_label(c);
    return ch->labels[k];
}

/* Emit `op` (a conditional jump that pops its operand) to the fail chain. */
static bool jump_to_fail(Compiler *c, PatState *st, int op)
{
    st->above--;
    int label = fail_label(c, st->fail, st->above);
    return label >= 0 && emit(c, op, label);
}

/* The chain's POP_TOPs (it ends at the next instruction). */
static bool emit_fail_chain(Compiler *c, FailChain *ch)
{
    for (int k = ch->n - 1; k >= 1; k--) {
        if (ch->labels[k] >= 0)
            bind_label(c, ch->labels[k]);
        TRY(emit(c, OP_POP_TOP, 0));
    }
    if (ch->n && ch->labels[0] >= 0)
        bind_label(c, ch->labels[0]);
    free(ch->labels);
    ch->labels = NULL;
    ch->n = ch->cap = 0;
    return true;
}

/* Put the value on top into the slot of `name` (NULL: drop it). */
static bool pattern_capture(Compiler *c, PatState *st, const char *name)
{
    if (!name) {
        st->above--;
        return emit(c, OP_POP_TOP, 0);
    }
    pattern_ty loc = st->loc;
    if (strcmp(name, "__debug__") == 0)
        return SYNERR(c, loc, "cannot assign to __debug__");
    if (name_index(st->bound, st->nbound, name) >= 0)
        return SYNERR(c, loc, "multiple assignments to name '%s' in pattern", name);
    TRY(add_name(c, &st->bound, &st->nbound, &st->capbound, name));
    int slot = name_index(st->names, st->nnames, name);
    if (slot < 0)
        return internal_error(c, "pattern capture without a slot");
    TRY(emit(c, OP_SWAP, st->above + 1 + slot) && emit(c, OP_POP_TOP, 0));
    st->above--;
    return true;
}

static bool compile_pattern(Compiler *c, pattern_ty p, PatState *st);

/* A pattern inside a sequence, mapping or class pattern: a capture there
 * never makes later cases unreachable. */
static bool compile_subpattern(Compiler *c, pattern_ty p, PatState *st)
{
    bool allow = st->allow_irrefutable;
    st->allow_irrefutable = true;
    bool ok = compile_pattern(c, p, st);
    st->allow_irrefutable = allow;
    return ok;
}

/* A literal (number, negative number, string, None, True, False) as a
 * constant; NULL without error when e is something else. */
/* A complex literal of a pattern: real +/- imaginary (the real part maybe negated). */
static bool is_complex_literal(expr_ty e)
{
    if (e->kind != BinOp_kind || (e->v.BinOp.op != AST_Add && e->v.BinOp.op != AST_Sub))
        return false;
    expr_ty l = e->v.BinOp.left, r = e->v.BinOp.right;
    if (l->kind == UnaryOp_kind && l->v.UnaryOp.op == AST_USub)
        l = l->v.UnaryOp.operand;
    return l->kind == Constant_kind && r->kind == Constant_kind;
}

static CConst *pattern_literal(Compiler *c, expr_ty e)
{
    if (e->kind == Constant_kind)
        return const_from_ast(c, &e->v.Constant.value);
    if (e->kind == UnaryOp_kind && e->v.UnaryOp.op == AST_USub && e->v.UnaryOp.operand->kind == Constant_kind)
        return fold_const(c, e, 0);
    if (is_complex_literal(e))
        return fold_const(c, e, 0);   /* NULL if it cannot fold (an int part too big for a float) */
    return NULL;
}

static bool is_number_const(const CConst *k)
{
    return k->kind == K_INT || k->kind == K_BIGINT || k->kind == K_FLOAT || k->kind == K_COMPLEX ||
           k->kind == K_TRUE || k->kind == K_FALSE;
}

/* The decimal digits of an int constant, with a '-' if negative (malloc'd). */
static char *int_const_decimal(const CConst *k)
{
    char buf[32];
    if (k->kind != K_BIGINT) {
        snprintf(buf, sizeof buf, "%lld", (long long)(k->kind == K_TRUE ? 1 : k->kind == K_FALSE ? 0 : k->i));
        return strdup(buf);
    }
    char *d = ast_int_to_decimal(k->s, k->base);
    if (!d || !k->neg || strcmp(d, "0") == 0)
        return d;
    char *s = malloc(strlen(d) + 2);
    if (s) {
        s[0] = '-';
        strcpy(s + 1, d);
    }
    free(d);
    return s;
}

/* Python's == between two literal constants (1 == 1.0 == True): 1, 0, or
 * -1 when out of memory (recorded). */
static int literal_eq(Compiler *c, const CConst *a, const CConst *b)
{
    bool an = is_number_const(a), bn = is_number_const(b);
    if (an != bn)
        return 0;
    if (!an) {
        if (a->kind != b->kind)
            return 0;
        if (a->kind == K_STR || a->kind == K_BYTES)
            return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
        return a->kind == K_NONE || a->kind == K_ELLIPSIS;
    }
    if (a->kind == K_COMPLEX || b->kind == K_COMPLEX) {
        /* complex == real: a zero imaginary part and the real parts equal */
        if (a->kind == K_COMPLEX && b->kind == K_COMPLEX)
            return a->f == b->f && a->fi == b->fi;
        const CConst *z = a->kind == K_COMPLEX ? a : b, *r = a->kind == K_COMPLEX ? b : a;
        if (z->fi != 0.0)
            return 0;
        CConst re = {0};
        re.kind = K_FLOAT;
        re.f = z->f;
        return literal_eq(c, &re, r);
    }
    if (a->kind == K_FLOAT && b->kind == K_FLOAT)
        return a->f == b->f;
    bool small_a = a->kind != K_BIGINT && a->kind != K_FLOAT, small_b = b->kind != K_BIGINT && b->kind != K_FLOAT;
    if (small_a && small_b) {
        int64_t x = a->kind == K_TRUE ? 1 : a->kind == K_FALSE ? 0 : a->i;
        int64_t y = b->kind == K_TRUE ? 1 : b->kind == K_FALSE ? 0 : b->i;
        return x == y;
    }
    /* An int against a float or a big int: compare the exact decimal digits. */
    char fbuf[400];
    char *x = NULL, *y = NULL;
    const CConst *ints[2] = {a, b};
    char **outs[2] = {&x, &y};
    for (int i = 0; i < 2; i++) {
        const CConst *k = ints[i];
        if (k->kind == K_FLOAT) {
            if (!isfinite(k->f) || k->f != floor(k->f))
                goto differ;
            snprintf(fbuf, sizeof fbuf, "%.0f", k->f);
            *outs[i] = strdup(strcmp(fbuf, "-0") == 0 ? "0" : fbuf);
        } else {
            *outs[i] = int_const_decimal(k);
        }
        if (!*outs[i]) {
            free(x);
            free(y);
            nomem(c);
            return -1;
        }
    }
    int eq = strcmp(x, y) == 0;
    free(x);
    free(y);
    return eq;
differ:
    free(x);
    free(y);
    return 0;
}

/* Emit a literal or an attribute lookup of a value pattern or a mapping key. */
static bool compile_pattern_value(Compiler *c, expr_ty e)
{
    CConst *k = pattern_literal(c, e);
    if (k)
        return emit_const(c, k);
    if (c->err->kind != CERR_NONE)
        return false;
    return compile_expr(c, e);
}

static bool compile_pattern_sequence(Compiler *c, pattern_ty p, PatState *st)
{
    pattern_seq pats = p->v.MatchSequence.patterns;
    int size = pats.n, star = -1;
    bool only_wildcard = true, star_wildcard = false;
    for (int i = 0; i < size; i++) {
        pattern_ty q = pats.items[i];
        if (q->kind == MatchStar_kind) {
            if (star >= 0)
                return SYNERR(c, p, "multiple starred names in sequence pattern");
            star = i;
            star_wildcard = is_star_wildcard(q);
        }
        if (!is_wildcard(q) && !is_star_wildcard(q))
            only_wildcard = false;
    }
    /* subject -- subject bool; the subject stays while it is checked */
    TRY(emit(c, OP_MATCH_SEQUENCE, 0));
    st->above++;
    TRY(jump_to_fail(c, st, OP_POP_JUMP_IF_FALSE));
    if (star < 0 || size > 1) {
        TRY(emit(c, OP_GET_LEN, 0) && emit_const(c, const_int(c, star < 0 ? size : size - 1)));
        TRY(emit(c, OP_COMPARE_OP, star < 0 ? CMP_EQ : CMP_GE));
        st->above++;
        TRY(jump_to_fail(c, st, OP_POP_JUMP_IF_FALSE));
    }
    if (only_wildcard) {
        st->above--;
        return emit(c, OP_POP_TOP, 0);
    }
    if (star_wildcard) {
        /* subject[i] for each item that is not a wildcard (subject[len - k]
         * after the star): the sequence is not iterated */
        for (int i = 0; i < size; i++) {
            pattern_ty q = pats.items[i];
            if (is_wildcard(q) || is_star_wildcard(q))
                continue;
            TRY(emit(c, OP_COPY, 1));
            if (i < star) {
                TRY(emit_const(c, const_int(c, i)));
            } else {
                TRY(emit(c, OP_GET_LEN, 0));
                TRY(emit_const(c, const_int(c, size - i)) && emit(c, OP_BINARY_OP, NB_SUB));
            }
            TRY(emit(c, OP_BINARY_SUBSCR, 0));
            st->above++;
            TRY(compile_subpattern(c, q, st));
        }
        st->above--;
        return emit(c, OP_POP_TOP, 0);
    }
    if (star < 0) {
        TRY(emit(c, OP_UNPACK_SEQUENCE, size));
    } else {
        if (star >= 256 || size - star - 1 >= (1 << 16))
            return SYNERR(c, st->loc, "too many expressions in star-unpacking sequence pattern");
        TRY(emit(c, OP_UNPACK_EX, star | ((size - star - 1) << 8)));
    }
    st->above += size - 1;
    for (int i = 0; i < size; i++)
        TRY(compile_subpattern(c, pats.items[i], st));
    return true;
}

static bool compile_pattern_mapping(Compiler *c, pattern_ty p, PatState *st)
{
    expr_seq keys = p->v.MatchMapping.keys;
    pattern_seq pats = p->v.MatchMapping.patterns;
    const char *rest = p->v.MatchMapping.rest;
    int n = keys.n;
    if (n != pats.n)
        return internal_error(c, "mapping pattern keys and patterns differ");
    TRY(emit(c, OP_MATCH_MAPPING, 0));
    st->above++;
    TRY(jump_to_fail(c, st, OP_POP_JUMP_IF_FALSE));
    if (!n && !rest) {
        st->above--;
        return emit(c, OP_POP_TOP, 0);
    }
    if (n) {
        TRY(emit(c, OP_GET_LEN, 0) && emit_const(c, const_int(c, n)) && emit(c, OP_COMPARE_OP, CMP_GE));
        st->above++;
        TRY(jump_to_fail(c, st, OP_POP_JUMP_IF_FALSE));
    }
    /* The keys, into a tuple; literal keys must differ (a SyntaxError, as
     * CPython; keys looked up by name are checked by MATCH_KEYS). */
    CConst **lits = n ? pool_alloc(c, (size_t)n * sizeof(CConst *)) : NULL;
    if (n && !lits)
        return false;
    int nlits = 0;
    for (int i = 0; i < n; i++) {
        expr_ty key = keys.items[i];
        CConst *k = pattern_literal(c, key);
        if (c->err->kind != CERR_NONE)
            return false;
        if (k) {
            for (int j = 0; j < nlits; j++) {
                int eq = literal_eq(c, lits[j], k);
                if (eq < 0)
                    return false;
                if (eq) {
                    SYNERR(c, p, "mapping pattern checks duplicate key (%s)", "\x01");
                    c->err->repr_arg = k;
                    return false;
                }
            }
            lits[nlits++] = k;
            TRY(emit_const(c, k));
        } else if (key->kind == Attribute_kind) {
            TRY(compile_expr(c, key));
        } else {
            return SYNERR(c, p, "mapping pattern keys may only match literals and attribute lookups");
        }
    }
    if (n) {
        TRY(emit(c, OP_BUILD_TUPLE, n));
    } else {
        CConst *empty = const_new(c, K_TUPLE);
        TRY(empty && emit_const(c, const_finish(empty)));
    }
    st->above++;   /* subject keys */
    if (n) {
        /* subject keys -- subject keys values|None */
        TRY(emit(c, OP_MATCH_KEYS, 0) && emit(c, OP_COPY, 1));
        st->above += 2;
        TRY(jump_to_fail(c, st, OP_POP_JUMP_IF_NONE));
        TRY(emit(c, OP_UNPACK_SEQUENCE, n));
        st->above += n - 1;
        for (int i = 0; i < n; i++)
            TRY(compile_subpattern(c, pats.items[i], st));
    }
    if (rest) {
        /* subject keys -- rest */
        TRY(emit(c, OP_COPY_DICT_WITHOUT_KEYS, 0));
        st->above--;
        return pattern_capture(c, st, rest);
    }
    st->above -= 2;
    return emit(c, OP_POP_TOP, 0) && emit(c, OP_POP_TOP, 0);
}

static bool compile_pattern_class(Compiler *c, pattern_ty p, PatState *st)
{
    pattern_seq pats = p->v.MatchClass.patterns, kwpats = p->v.MatchClass.kwd_patterns;
    identifier_seq attrs = p->v.MatchClass.kwd_attrs;
    int nargs = pats.n, nattrs = attrs.n;
    if (nattrs != kwpats.n)
        return internal_error(c, "class pattern keywords and patterns differ");
    for (int i = 0; i < nattrs; i++) {
        if (strcmp(attrs.items[i], "__debug__") == 0)
            return SYNERR(c, kwpats.items[i], "cannot assign to __debug__");
        for (int j = i + 1; j < nattrs; j++)
            if (strcmp(attrs.items[i], attrs.items[j]) == 0)
                return SYNERR(c, kwpats.items[j], "attribute name repeated in class pattern: %s", attrs.items[i]);
    }
    TRY(compile_expr(c, p->v.MatchClass.cls));
    CConst *names = const_new(c, K_TUPLE);
    if (!names)
        return false;
    names->items = pool_alloc(c, (size_t)nattrs * sizeof(CConst *) + 1);
    if (!names->items)
        return false;
    for (int i = 0; i < nattrs; i++)
        if (!(names->items[i] = const_str(c, attrs.items[i], strlen(attrs.items[i]))))
            return false;
    names->nitems = nattrs;
    TRY(emit_const(c, const_finish(names)));
    /* subject cls names -- attrs|None */
    TRY(emit(c, OP_MATCH_CLASS, nargs) && emit(c, OP_COPY, 1));
    st->above++;
    TRY(jump_to_fail(c, st, OP_POP_JUMP_IF_NONE));
    if (nargs + nattrs == 0) {
        st->above--;
        return emit(c, OP_POP_TOP, 0);
    }
    TRY(emit(c, OP_UNPACK_SEQUENCE, nargs + nattrs));
    st->above += nargs + nattrs - 1;
    for (int i = 0; i < nargs + nattrs; i++) {
        pattern_ty q = i < nargs ? pats.items[i] : kwpats.items[i - nargs];
        if (is_wildcard(q)) {
            st->above--;
            TRY(emit(c, OP_POP_TOP, 0));
            continue;
        }
        TRY(compile_subpattern(c, q, st));
    }
    return true;
}

static bool compile_pattern_or(Compiler *c, pattern_ty p, PatState *st)
{
    pattern_seq alts = p->v.MatchOr.patterns;
    int h = st->above;
    NEW_LABEL(end);
    const char **control = NULL;
    int ncontrol = 0;
    bool ok = true;
    for (int i = 0; ok && i < alts.n; i++) {
        FailChain chain = {NULL, 0, 0, h};
        PatState alt = *st;
        alt.bound = NULL;
        alt.nbound = alt.capbound = 0;
        alt.fail = &chain;
        alt.allow_irrefutable = i == alts.n - 1 && st->allow_irrefutable;
        alt.above = h + 1;
        ok = emit(c, OP_COPY, 1) && compile_pattern(c, alts.items[i], &alt);
        st->loc = alt.loc;
        if (ok && i == 0) {
            control = alt.bound;
            ncontrol = alt.nbound;
            alt.bound = NULL;
        } else if (ok) {
            bool same = alt.nbound == ncontrol;
            for (int k = 0; same && k < ncontrol; k++)
                same = name_index(alt.bound, alt.nbound, control[k]) >= 0;
            if (!same)
                ok = SYNERR(c, st->loc, "alternative patterns bind different names");
        }
        ok = ok && emit(c, OP_JUMP, end) && emit_fail_chain(c, &chain);
        free(alt.bound);
        free(chain.labels);
    }
    if (ok) {
        /* no alternative matched: drop the subject, fail */
        st->above = h - 1;
        int label = fail_label(c, st->fail, st->above);
        ok = label >= 0 && emit(c, OP_POP_TOP, 0) && emit(c, OP_JUMP, label);
    }
    if (ok) {
        bind_label(c, end);
        for (int k = 0; ok && k < ncontrol; k++) {
            if (name_index(st->bound, st->nbound, control[k]) >= 0)
                ok = SYNERR(c, st->loc, "multiple assignments to name '%s' in pattern", control[k]);
            else
                ok = add_name(c, &st->bound, &st->nbound, &st->capbound, control[k]);
        }
        ok = ok && emit(c, OP_POP_TOP, 0);
    }
    free(control);
    return ok;
}

static bool compile_pattern_inner(Compiler *c, pattern_ty p, PatState *st)
{
    switch (p->kind) {
    case MatchValue_kind: {
        expr_ty v = p->v.MatchValue.value;
        bool literal = v->kind == Constant_kind || v->kind == Attribute_kind ||
                       (v->kind == UnaryOp_kind && v->v.UnaryOp.op == AST_USub &&
                        v->v.UnaryOp.operand->kind == Constant_kind);
        if (is_complex_literal(v)) {
            /* CPython folds it to a constant, or (an int part too big for a
             * float) it is no literal */
            literal = pattern_literal(c, v) != NULL;
            if (c->err->kind != CERR_NONE)
                return false;
        }
        if (!literal)
            return SYNERR(c, p, "patterns may only match literals and attribute lookups");
        TRY(compile_pattern_value(c, v));
        c->u->lineno = p->lineno;
        TRY(emit(c, OP_COMPARE_OP, CMP_EQ));
        return jump_to_fail(c, st, OP_POP_JUMP_IF_FALSE);
    }
    case MatchSingleton_kind: {
        constant_kind k = p->v.MatchSingleton.value.kind;
        if (k == CONST_NONE)
            return jump_to_fail(c, st, OP_POP_JUMP_IF_NOT_NONE);
        TRY(emit_const(c, const_simple(c, k == CONST_TRUE ? K_TRUE : K_FALSE)) && emit(c, OP_IS_OP, 0));
        return jump_to_fail(c, st, OP_POP_JUMP_IF_FALSE);
    }
    case MatchSequence_kind:
        return compile_pattern_sequence(c, p, st);
    case MatchMapping_kind:
        return compile_pattern_mapping(c, p, st);
    case MatchClass_kind:
        return compile_pattern_class(c, p, st);
    case MatchStar_kind:
        return pattern_capture(c, st, p->v.MatchStar.name);
    case MatchAs_kind:
        if (!p->v.MatchAs.pattern) {
            if (!st->allow_irrefutable) {
                if (p->v.MatchAs.name)
                    return SYNERR(c, p, "name capture '%s' makes remaining patterns unreachable", p->v.MatchAs.name);
                return SYNERR(c, p, "wildcard makes remaining patterns unreachable");
            }
            return pattern_capture(c, st, p->v.MatchAs.name);
        }
        /* keep the value for the name while the sub-pattern runs */
        TRY(emit(c, OP_COPY, 1));
        st->above++;
        TRY(compile_pattern(c, p->v.MatchAs.pattern, st));
        return pattern_capture(c, st, p->v.MatchAs.name);
    case MatchOr_kind:
        return compile_pattern_or(c, p, st);
    }
    return internal_error(c, "unknown pattern kind");
}

/* Match the value on top of the stack (st->above counts it) against p: it
 * is consumed; a failure jumps to st->fail. */
static bool compile_pattern(Compiler *c, pattern_ty p, PatState *st)
{
    TRY(enter_nested(c, p->lineno, p->col_offset));
    c->u->lineno = p->lineno;
    st->loc = p;
    bool ok = compile_pattern_inner(c, p, st);
    c->depth--;
    return ok;
}

static bool compile_match(Compiler *c, stmt_ty s)
{
    match_case_seq cases = s->v.Match.cases;
    TRY(compile_expr(c, s->v.Match.subject));
    NEW_LABEL(end);
    /* A trailing `case _:` (after other cases) needs no pattern code: the
     * case before it takes the subject off the stack. */
    bool has_default = cases.n > 1 && is_wildcard(cases.items[cases.n - 1]->pattern);
    int npatterns = cases.n - has_default;
    for (int i = 0; i < npatterns; i++) {
        match_case_ty m = cases.items[i];
        bool keep_subject = i < npatterns - 1;   /* later cases need it: match a copy */
        c->u->lineno = m->pattern->lineno;
        NEW_LABEL(next);
        PatState st;
        memset(&st, 0, sizeof st);
        int capnames = 0, nnames = 0;
        FailChain chain = {NULL, 0, 0, 0};
        bool ok = collect_captures(c, m->pattern, &st.names, &st.nnames, &capnames, 0);
        for (int k = 0; ok && k < st.nnames; k++)
            ok = emit(c, OP_PUSH_NULL, 0);
        if (ok && (keep_subject || st.nnames))
            ok = emit(c, keep_subject ? OP_COPY : OP_SWAP, st.nnames + 1);
        st.above = 1;
        st.fail = &chain;
        st.allow_irrefutable = m->guard || i == cases.n - 1;
        ok = ok && compile_pattern(c, m->pattern, &st);
        if (ok && st.above != 0)
            ok = internal_error(c, "pattern leaves values on the stack");
        nnames = st.nnames;
        for (int k = 0; ok && k < nnames; k++)
            ok = compile_nameop(c, st.names[k], AST_Store, NULL);
        free(st.names);
        free(st.bound);
        if (ok && m->guard)
            ok = jump_if(c, m->guard, next, false);
        if (ok && keep_subject)
            ok = emit(c, OP_POP_TOP, 0);
        ok = ok && compile_stmts(c, &m->body, 0) && emit(c, OP_JUMP, end);
        /* failed: the chain, then the capture slots */
        ok = ok && emit_fail_chain(c, &chain);
        for (int k = 0; ok && k < nnames; k++)
            ok = emit(c, OP_POP_TOP, 0);
        free(chain.labels);
        if (!ok)
            return false;
        bind_label(c, next);
    }
    if (has_default) {
        match_case_ty m = cases.items[cases.n - 1];
        c->u->lineno = m->pattern->lineno;
        if (m->guard)
            TRY(jump_if(c, m->guard, end, false));
        TRY(compile_stmts(c, &m->body, 0));
    }
    bind_label(c, end);
    return true;
}

static bool compile_stmt(Compiler *c, stmt_ty s)
{
    TRY(enter_nested(c, s->lineno, s->col_offset));
    c->u->lineno = s->lineno;
    c->u->pos = NODE_POS(s);
    bool ok = true;
    switch (s->kind) {
    case FunctionDef_kind:
    case AsyncFunctionDef_kind:
        ok = compile_function(c, s);
        break;
    case ClassDef_kind:
        ok = compile_class(c, s);
        break;
    case Return_kind:
        ok = compile_return(c, s);
        break;
    case Delete_kind:
        for (int i = 0; ok && i < s->v.Delete.targets.n; i++)
            ok = compile_delete(c, s->v.Delete.targets.items[i]);
        break;
    case Assign_kind: {
        expr_seq ts = s->v.Assign.targets;
        if (ts.n == 1 && (ok = try_swap_assign(c, ts.items[0], s->v.Assign.value)) != 0) {
            ok = ok > 0;
            break;
        }
        ok = compile_expr(c, s->v.Assign.value);
        for (int i = 0; ok && i < ts.n; i++) {
            c->u->lineno = s->lineno;
            if (i < ts.n - 1)
                ok = emit(c, OP_DUP_TOP, 0);
            ok = ok && compile_store(c, ts.items[i]);
        }
        break;
    }
    case AugAssign_kind:
        ok = compile_augassign(c, s);
        break;
    case AnnAssign_kind:
        ok = compile_annassign(c, s);
        break;
    case For_kind:
        ok = compile_for(c, s);
        break;
    case AsyncFor_kind:
        ok = compile_async_for(c, s);
        break;
    case AsyncWith_kind:
        ok = compile_async_with(c, s, 0);
        break;
    case While_kind:
        ok = compile_while(c, s);
        break;
    case If_kind:
        ok = compile_if(c, s);
        break;
    case With_kind:
        ok = compile_with(c, s, 0);
        break;
    case Raise_kind: {
        int n = 0;
        if (s->v.Raise.exc) {
            ok = compile_expr(c, s->v.Raise.exc);
            n = 1;
            if (ok && s->v.Raise.cause) {
                ok = compile_expr(c, s->v.Raise.cause);
                n = 2;
            }
        }
        c->u->lineno = s->lineno;
        ok = ok && emit(c, OP_RAISE_VARARGS, n);
        break;
    }
    case Try_kind:
        ok = s->v.Try.finalbody.n ? compile_try_finally(c, s) : compile_try_except(c, s);
        break;
    case TryStar_kind:
        ok = s->v.Try.finalbody.n ? compile_try_finally(c, s) : compile_try_star_except(c, s);
        break;
    case Assert_kind: {
        expr_ty test = s->v.Assert.test;
        if (test->kind == Tuple_kind && test->v.Tuple.elts.n > 0 &&
            !cwarn(c, "assertion is always true, perhaps remove parentheses?")) {
            ok = false;
            break;
        }
        if (c->optimize)
            break;   /* -O: no code (the warning above still comes, as in CPython) */
        int end = new_label(c);
        ok = end >= 0 && jump_if(c, s->v.Assert.test, end, true);
        c->u->lineno = s->lineno;
        ok = ok && emit(c, OP_LOAD_ASSERTION_ERROR, 0);
        if (ok && s->v.Assert.msg) {
            ok = emit(c, OP_PUSH_NULL, 0) && compile_expr(c, s->v.Assert.msg);
            c->u->lineno = s->lineno;
            ok = ok && emit(c, OP_CALL, 1);
        }
        ok = ok && emit(c, OP_RAISE_VARARGS, 1);
        if (ok)
            bind_label(c, end);
        break;
    }
    case Import_kind:
        ok = compile_import(c, s);
        break;
    case ImportFrom_kind:
        ok = compile_importfrom(c, s);
        break;
    case Global_kind:
    case Nonlocal_kind:
    case Pass_kind:
        break;
    case Expr_kind:
        ok = compile_expr_stmt(c, s);
        break;
    case Break_kind:
        ok = compile_break_continue(c, s, true);
        break;
    case Continue_kind:
        ok = compile_break_continue(c, s, false);
        break;
    case Match_kind:
        ok = compile_match(c, s);
        break;
    }
    c->depth--;
    return ok;
}

/* ------------------------------------------------------------------ */
/* Expressions                                                         */
/* ------------------------------------------------------------------ */

static bool has_starred(expr_seq elts)
{
    for (int i = 0; i < elts.n; i++)
        if (elts.items[i]->kind == Starred_kind)
            return true;
    return false;
}

enum { SEQ_LIST, SEQ_TUPLE, SEQ_SET };

/* Build a list / tuple / set from elts (which may contain *x), with
 * `pushed` values already on the stack as its first items. */
static bool starunpack(Compiler *c, expr_seq elts, int pushed, int kind)
{
    int n = elts.n;
    bool star = has_starred(elts);
    int build = kind == SEQ_SET ? OP_BUILD_SET : kind == SEQ_TUPLE ? OP_BUILD_TUPLE : OP_BUILD_LIST;
    if (!star && n + pushed <= STACK_USE_GUIDELINE) {
        for (int i = 0; i < n; i++)
            TRY(compile_expr(c, elts.items[i]));
        return emit(c, build, n + pushed);
    }
    int seqbuild = kind == SEQ_SET ? OP_BUILD_SET : OP_BUILD_LIST;
    int add = kind == SEQ_SET ? OP_SET_ADD : OP_LIST_APPEND;
    int extend = kind == SEQ_SET ? OP_SET_UPDATE : OP_LIST_EXTEND;
    bool built = false;
    int seen = pushed;
    if (!star) {
        TRY(emit(c, seqbuild, pushed));
        built = true;
    }
    for (int i = 0; i < n; i++) {
        expr_ty e = elts.items[i];
        if (e->kind == Starred_kind) {
            if (!built) {
                TRY(emit(c, seqbuild, seen));
                built = true;
            }
            TRY(compile_expr(c, e->v.Starred.value) && emit(c, extend, 1));
        } else {
            TRY(compile_expr(c, e));
            if (built)
                TRY(emit(c, add, 1));
            else
                seen++;
        }
    }
    if (kind == SEQ_TUPLE)
        TRY(emit(c, OP_LIST_TO_TUPLE, 0));
    return true;
}

/* A constant tuple (kind K_TUPLE) or set display (K_FROZENSET) of all the
 * elements, or NULL (no error) when one is not constant. */
static CConst *fold_elts(Compiler *c, expr_seq elts, ConstKind kind)
{
    for (int i = 0; i < elts.n; i++)
        if (!may_fold(elts.items[i], 0))
            return NULL;
    CConst **items = pool_alloc(c, (size_t)elts.n * sizeof(CConst *) + 1);
    if (!items)
        return NULL;
    for (int i = 0; i < elts.n; i++)
        if (!(items[i] = fold_const(c, elts.items[i], 0)))
            return NULL;
    CConst *k = const_new(c, kind);
    if (!k)
        return NULL;
    k->items = items;
    k->nitems = elts.n;
    return const_finish(k);
}

/* The iterable of a `for`, of a comprehension or right of `in`: a list or
 * set display of constants is a tuple / frozenset constant there (CPython's
 * AST optimizer does it; the frozenset's order shows when iterating). */
static bool compile_iterable(Compiler *c, expr_ty e)
{
    if (e->kind == List_kind || e->kind == Set_kind) {
        expr_seq elts = e->kind == List_kind ? e->v.List.elts : e->v.Set.elts;
        if (!has_starred(elts)) {
            CConst *k = fold_elts(c, elts, e->kind == Set_kind ? K_FROZENSET : K_TUPLE);
            if (c->err->kind != CERR_NONE)
                return false;
            if (k)
                return emit_const(c, k);
        }
    }
    return compile_expr(c, e);
}

/* A list or set display. Of more than two constants, as CPython 3.11:
 * BUILD_LIST 0; LOAD_CONST tuple; LIST_EXTEND 1 (sets: BUILD_SET 0;
 * LOAD_CONST frozenset; SET_UPDATE 1, which gives CPython's set order). */
static bool compile_list_or_set(Compiler *c, expr_seq elts, int kind)
{
    if (elts.n > 2 && !has_starred(elts)) {
        bool set = kind == SEQ_SET;
        CConst *k = fold_elts(c, elts, set ? K_FROZENSET : K_TUPLE);
        if (c->err->kind != CERR_NONE)
            return false;
        if (k)
            return emit(c, set ? OP_BUILD_SET : OP_BUILD_LIST, 0) && emit_const(c, k) &&
                   emit(c, set ? OP_SET_UPDATE : OP_LIST_EXTEND, 1);
    }
    return starunpack(c, elts, 0, kind);
}

static bool compile_tuple(Compiler *c, expr_ty e)
{
    expr_seq elts = e->v.Tuple.elts;
    if (!has_starred(elts)) {
        CConst *k = fold_elts(c, elts, K_TUPLE);
        if (c->err->kind != CERR_NONE)
            return false;
        if (k)
            return emit_const(c, k);
    }
    return starunpack(c, elts, 0, SEQ_TUPLE);
}

static bool compile_dict(Compiler *c, expr_ty e)
{
    expr_seq keys = e->v.Dict.keys, vals = e->v.Dict.values;
    int n = keys.n;
    bool dstar = false;
    for (int i = 0; i < n; i++)
        dstar = dstar || !keys.items[i];
    if (!dstar && n > 1 && n <= STACK_USE_GUIDELINE) {
        CConst *k = fold_elts(c, keys, K_TUPLE);
        if (c->err->kind != CERR_NONE)
            return false;
        if (k) {
            for (int i = 0; i < n; i++)
                TRY(compile_expr(c, vals.items[i]));
            return emit_const(c, k) && emit(c, OP_BUILD_CONST_KEY_MAP, n);
        }
    }
    bool have = false;
    int pending = 0;
    for (int i = 0; i < n; i++) {
        if (!keys.items[i]) {
            if (pending) {
                TRY(emit(c, OP_BUILD_MAP, pending));
                if (have)
                    TRY(emit(c, OP_DICT_UPDATE, 1));
                have = true;
                pending = 0;
            }
            if (!have) {
                TRY(emit(c, OP_BUILD_MAP, 0));
                have = true;
            }
            TRY(compile_expr(c, vals.items[i]) && emit(c, OP_DICT_UPDATE, 1));
        } else {
            TRY(compile_expr(c, keys.items[i]) && compile_expr(c, vals.items[i]));
            if (++pending == 16) {
                TRY(emit(c, OP_BUILD_MAP, pending));
                if (have)
                    TRY(emit(c, OP_DICT_UPDATE, 1));
                have = true;
                pending = 0;
            }
        }
    }
    if (pending || !have) {
        TRY(emit(c, OP_BUILD_MAP, pending));
        if (have)
            TRY(emit(c, OP_DICT_UPDATE, 1));
    }
    return true;
}

/* Comparator i of a comparison; the last one, right of `in` / `not in`, is
 * an iterable (a constant display becomes a tuple / frozenset constant). */
static bool compile_compared(Compiler *c, expr_ty e, int i)
{
    expr_ty v = e->v.Compare.comparators.items[i];
    cmpop_ty op = e->v.Compare.ops.items[i];
    if (i == e->v.Compare.ops.n - 1 && (op == AST_In || op == AST_NotIn))
        return compile_iterable(c, v);
    return compile_expr(c, v);
}

static bool compile_compare(Compiler *c, expr_ty e)
{
    TRY(check_compare(c, e));
    int n = e->v.Compare.ops.n;
    expr_seq comps = e->v.Compare.comparators;
    TRY(compile_expr(c, e->v.Compare.left));
    if (n == 1)
        return compile_compared(c, e, 0) && emit_compare(c, e->v.Compare.ops.items[0]);
    NEW_LABEL(cleanup);
    NEW_LABEL(end);
    for (int i = 0; i < n - 1; i++) {
        TRY(compile_expr(c, comps.items[i]) && emit(c, OP_DUP_TOP, 0) && emit(c, OP_ROT_THREE, 0) &&
            emit_compare(c, e->v.Compare.ops.items[i]) && emit(c, OP_JUMP_IF_FALSE_OR_POP, cleanup));
    }
    TRY(compile_compared(c, e, n - 1) && emit_compare(c, e->v.Compare.ops.items[n - 1]));
    TRY(emit(c, OP_JUMP, end));
    bind_label(c, cleanup);
    TRY(emit(c, OP_ROT_TWO, 0) && emit(c, OP_POP_TOP, 0));
    bind_label(c, end);
    return true;
}

/* node: the call or class statement (where CPython reports __debug__). */
#define VALIDATE_KEYWORDS(c, kws, node) \
    validate_keywords((c), (kws), (node)->lineno, (node)->col_offset, (node)->end_lineno, (node)->end_col_offset)
static bool validate_keywords(Compiler *c, keyword_seq kws, int lineno, int col, int end_lineno, int end_col)
{
    for (int i = 0; i < kws.n; i++) {
        keyword_ty k = kws.items[i];
        if (!k->arg)
            continue;
        if (strcmp(k->arg, "__debug__") == 0)
            return cerror(c, CERR_SYNTAX, lineno, col, end_lineno, end_col, "cannot assign to __debug__");
        for (int j = i + 1; j < kws.n; j++) {
            keyword_ty o = kws.items[j];
            if (o->arg && strcmp(k->arg, o->arg) == 0)
                return SYNERR(c, o, "keyword argument repeated: %s", k->arg);
        }
    }
    return true;
}

/* Arguments and the call op, the callable (and self or NULL) being on the
 * stack below `pushed` positional values already pushed. */
static bool call_helper(Compiler *c, int pushed, expr_seq args, keyword_seq kws)
{
    int line = c->u->lineno;
    bool dstar = false;
    for (int i = 0; i < kws.n; i++)
        dstar = dstar || !kws.items[i]->arg;
    /* small calls push every argument; big ones build a tuple (and dict) incrementally */
    if (!dstar && !has_starred(args) && args.n + pushed <= STACK_USE_GUIDELINE && kws.n <= STACK_USE_GUIDELINE) {
        for (int i = 0; i < args.n; i++)
            TRY(compile_expr(c, args.items[i]));
        if (!kws.n) {
            c->u->lineno = line;
            return emit(c, OP_CALL, pushed + args.n);
        }
        CConst *names = const_new(c, K_TUPLE);
        if (!names)
            return false;
        names->nitems = kws.n;
        names->items = pool_alloc(c, (size_t)kws.n * sizeof(CConst *));
        if (!names->items)
            return false;
        for (int i = 0; i < kws.n; i++) {
            keyword_ty k = kws.items[i];
            TRY(compile_expr(c, k->value));
            if (!(names->items[i] = const_str(c, k->arg, strlen(k->arg))))
                return false;
        }
        c->u->lineno = line;
        return emit_const(c, const_finish(names)) && emit(c, OP_CALL_KW, pushed + args.n + kws.n);
    }
    /* general form: f(*args_tuple, **kwargs_dict) */
    if (pushed == 0 && args.n == 1 && args.items[0]->kind == Starred_kind) {
        /* f(*x) alone: LIST_EXTEND's bit 16 asks for CPython's "f() argument
         * after * must be an iterable" (other forms say "Value after *"). */
        TRY(emit(c, OP_BUILD_LIST, 0) && compile_expr(c, args.items[0]->v.Starred.value) &&
            emit(c, OP_LIST_EXTEND, 1 | 1 << 16) && emit(c, OP_LIST_TO_TUPLE, 0));
    } else {
        TRY(starunpack(c, args, pushed, SEQ_TUPLE));
    }
    if (kws.n) {
        bool have = false;
        int pending = 0;
        for (int i = 0; i < kws.n; i++) {
            keyword_ty k = kws.items[i];
            if (!k->arg) {
                if (pending) {
                    TRY(emit(c, OP_BUILD_MAP, pending));
                    if (have)
                        TRY(emit(c, OP_DICT_MERGE, 1));
                    have = true;
                    pending = 0;
                }
                if (!have) {
                    TRY(emit(c, OP_BUILD_MAP, 0));
                    have = true;
                }
                TRY(compile_expr(c, k->value) && emit(c, OP_DICT_MERGE, 1));
            } else {
                TRY(emit_str_const(c, k->arg) && compile_expr(c, k->value));
                if (++pending == 16 || i == kws.n - 1) {
                    TRY(emit(c, OP_BUILD_MAP, pending));
                    if (have)
                        TRY(emit(c, OP_DICT_MERGE, 1));
                    have = true;
                    pending = 0;
                }
            }
        }
    }
    c->u->lineno = line;
    return emit(c, OP_CALL_FUNCTION_EX, kws.n ? 1 : 0);
}

static bool compile_call(Compiler *c, expr_ty e)
{
    expr_ty f = e->v.Call.func;
    expr_seq args = e->v.Call.args;
    keyword_seq kws = e->v.Call.keywords;
    TRY(check_caller(c, f));
    TRY(VALIDATE_KEYWORDS(c, kws, e));
    bool dstar = false;
    for (int i = 0; i < kws.n; i++)
        dstar = dstar || !kws.items[i]->arg;
    if (f->kind == Attribute_kind && f->v.Attribute.ctx == AST_Load && !dstar && !has_starred(args)) {
        /* o.m(...): LOAD_METHOD avoids making a bound method */
        TRY(compile_expr(c, f->v.Attribute.value));
        c->u->lineno = f->end_lineno;   /* LOAD_METHOD and the call: on the method name's line */
        c->u->pos = NODE_POS(f);
        pos_to_attr(c, f);
        TRY(emit_attr_op(c, OP_LOAD_METHOD, f->v.Attribute.attr));
        c->u->pos = NODE_POS(e);
        pos_to_attr(c, f);
        return call_helper(c, 0, args, kws);
    }
    TRY(compile_expr(c, f));
    c->u->lineno = e->lineno;
    TRY(emit(c, OP_PUSH_NULL, 0));
    return call_helper(c, 0, args, kws);
}

static bool compile_formatted_value(Compiler *c, expr_ty e)
{
    TRY(compile_expr(c, e->v.FormattedValue.value));
    int flags;
    switch (e->v.FormattedValue.conversion) {
    case 's': flags = 1; break;
    case 'r': flags = 2; break;
    case 'a': flags = 3; break;
    default: flags = 0; break;
    }
    if (e->v.FormattedValue.format_spec) {
        TRY(compile_expr(c, e->v.FormattedValue.format_spec));
        flags |= 4;
    }
    c->u->lineno = e->lineno;
    return emit(c, OP_FORMAT_VALUE, flags);
}

static bool compile_joined_str(Compiler *c, expr_ty e)
{
    expr_seq vals = e->v.JoinedStr.values;
    if (vals.n == 0)
        return emit_const(c, const_str(c, "", 0));
    if (vals.n == 1)
        return compile_expr(c, vals.items[0]);
    int onstack = 0;
    for (int i = 0; i < vals.n; i++) {
        TRY(compile_expr(c, vals.items[i]));
        if (++onstack == STACK_USE_GUIDELINE) {
            TRY(emit(c, OP_BUILD_STRING, onstack));
            onstack = 1;
        }
    }
    if (onstack > 1)
        TRY(emit(c, OP_BUILD_STRING, onstack));
    return true;
}

/* One `for ... in ... if ...` clause of a comprehension and, nested in it,
 * the following clauses and finally the element. */
static bool comprehension_generator(Compiler *c, comprehension_seq gens, int gi, expr_ty elt, expr_ty val,
                                    CompKind kind)
{
    comprehension_ty g = gens.items[gi];
    NEW_LABEL(start);
    NEW_LABEL(if_cleanup);
    NEW_LABEL(anchor);
    NEW_LABEL(except);
    if (gi == 0) {
        TRY(emit(c, OP_LOAD_FAST, 0));   /* .0: the iterator of the outermost iterable */
    } else {
        TRY(compile_iterable(c, g->iter));
        c->u->lineno = g->iter->lineno;
        TRY(emit(c, g->is_async ? OP_GET_AITER : OP_GET_ITER, 0));
    }
    bind_label(c, start);
    if (g->is_async)
        TRY(emit(c, OP_SETUP_FINALLY, except) && emit(c, OP_GET_ANEXT, 0) && emit_await(c, 0) &&
            emit(c, OP_POP_BLOCK, 0));
    else
        TRY(emit(c, OP_FOR_ITER, anchor));
    TRY(compile_store(c, g->target));
    for (int i = 0; i < g->ifs.n; i++)
        TRY(jump_if(c, g->ifs.items[i], if_cleanup, false));
    if (gi + 1 < gens.n) {
        TRY(comprehension_generator(c, gens, gi + 1, elt, val, kind));
    } else {
        int depth = gens.n + 1;   /* the collection sits below the iterators */
        switch (kind) {
        case COMP_GENEXPR:
            TRY(compile_expr(c, elt));
            if (c->u->flags & CO_ASYNC_GENERATOR)
                TRY(emit(c, OP_ASYNC_GEN_WRAP, 0));
            TRY(emit(c, OP_YIELD_VALUE, 0) && emit(c, OP_POP_TOP, 0));
            break;
        case COMP_LIST:
            TRY(compile_expr(c, elt) && emit(c, OP_LIST_APPEND, depth));
            break;
        case COMP_SET:
            TRY(compile_expr(c, elt) && emit(c, OP_SET_ADD, depth));
            break;
        case COMP_DICT:
            TRY(compile_expr(c, elt) && compile_expr(c, val) && emit(c, OP_MAP_ADD, depth));
            break;
        default:
            return internal_error(c, "bad comprehension kind");
        }
    }
    bind_label(c, if_cleanup);
    TRY(emit(c, OP_JUMP, start));
    if (g->is_async) {
        bind_label(c, except);
        TRY(emit(c, OP_END_ASYNC_FOR, 0));
    }
    bind_label(c, anchor);
    return true;
}

static bool compile_comprehension(Compiler *c, expr_ty e, CompKind kind, comprehension_seq gens, expr_ty elt,
                                  expr_ty val)
{
    Scope *ste = symtable_lookup(c->st, e);
    if (!ste)
        return internal_error(c, "comprehension scope missing");
    /* An async list/set/dict comprehension is awaited where it is built. */
    bool awaited = ste->is_coroutine && kind != COMP_GENEXPR;
    if (awaited && !c->u->ste->is_async_def && c->u->kind != U_COMP)
        return SYNERR(c, e, "asynchronous comprehension outside of an asynchronous function");
    TRY(enter_unit(c, ste, U_COMP, ste->name, e->lineno));
    c->u->argcount = 1;
    switch (kind) {
    case COMP_LIST: TRY(emit(c, OP_BUILD_LIST, 0)); break;
    case COMP_SET: TRY(emit(c, OP_BUILD_SET, 0)); break;
    case COMP_DICT: TRY(emit(c, OP_BUILD_MAP, 0)); break;
    default: break;
    }
    TRY(comprehension_generator(c, gens, 0, elt, val, kind));
    c->u->lineno = e->lineno;
    if (kind == COMP_GENEXPR)
        TRY(emit_none(c));
    TRY(emit(c, OP_RETURN_VALUE, 0));
    Unit *child = leave_unit(c);
    if (!child)
        return false;
    TRY(emit_make_function(c, child, 0) && emit(c, OP_PUSH_NULL, 0));
    TRY(compile_iterable(c, gens.items[0]->iter));
    c->u->lineno = e->lineno;
    TRY(emit(c, gens.items[0]->is_async ? OP_GET_AITER : OP_GET_ITER, 0) && emit(c, OP_CALL, 1));
    return !awaited || emit_await(c, 0);
}

static int binop_arg(operator_ty op)
{
    switch (op) {
    case AST_Add: return NB_ADD;
    case AST_Sub: return NB_SUB;
    case AST_Mult: return NB_MUL;
    case AST_MatMult: return NB_MATMUL;
    case AST_Div: return NB_TRUEDIV;
    case AST_Mod: return NB_MOD;
    case AST_Pow: return NB_POW;
    case AST_LShift: return NB_LSHIFT;
    case AST_RShift: return NB_RSHIFT;
    case AST_BitOr: return NB_OR;
    case AST_BitXor: return NB_XOR;
    case AST_BitAnd: return NB_AND;
    case AST_FloorDiv: return NB_FLOORDIV;
    }
    return NB_ADD;
}

static bool compile_expr_inner(Compiler *c, expr_ty e)
{
    switch (e->kind) {
    case BoolOp_kind: {
        expr_seq vals = e->v.BoolOp.values;
        int op = e->v.BoolOp.op == AST_And ? OP_JUMP_IF_FALSE_OR_POP : OP_JUMP_IF_TRUE_OR_POP;
        NEW_LABEL(end);
        for (int i = 0; i < vals.n - 1; i++) {
            TRY(compile_expr(c, vals.items[i]));
            TRY(emit(c, op, end));
        }
        TRY(compile_expr(c, vals.items[vals.n - 1]));
        bind_label(c, end);
        return true;
    }
    case NamedExpr_kind:
        TRY(compile_expr(c, e->v.NamedExpr.value));
        c->u->lineno = e->lineno;
        TRY(emit(c, OP_DUP_TOP, 0));
        return compile_store(c, e->v.NamedExpr.target);
    case BinOp_kind: {
        CConst *k = fold_const(c, e, 0);
        if (k)
            return emit_const(c, k);
        if (c->err->kind != CERR_NONE)
            return false;
        TRY(compile_expr(c, e->v.BinOp.left) && compile_expr(c, e->v.BinOp.right));
        return emit(c, OP_BINARY_OP, binop_arg(e->v.BinOp.op));
    }
    case UnaryOp_kind: {
        CConst *k = fold_const(c, e, 0);
        if (k)
            return emit_const(c, k);
        if (c->err->kind != CERR_NONE)
            return false;
        TRY(compile_expr(c, e->v.UnaryOp.operand));
        int arg = UN_NEG;
        switch (e->v.UnaryOp.op) {
        case AST_Invert: arg = UN_INVERT; break;
        case AST_Not: arg = UN_NOT; break;
        case AST_UAdd: arg = UN_POS; break;
        case AST_USub: arg = UN_NEG; break;
        }
        return emit(c, OP_UNARY_OP, arg);
    }
    case Lambda_kind:
        return compile_lambda(c, e);
    case IfExp_kind: {
        NEW_LABEL(orelse);
        NEW_LABEL(end);
        TRY(jump_if(c, e->v.IfExp.test, orelse, false));
        TRY(compile_expr(c, e->v.IfExp.body) && emit(c, OP_JUMP, end));
        bind_label(c, orelse);
        TRY(compile_expr(c, e->v.IfExp.orelse));
        bind_label(c, end);
        return true;
    }
    case Dict_kind:
        return compile_dict(c, e);
    case Set_kind:
        return compile_list_or_set(c, e->v.Set.elts, SEQ_SET);
    case ListComp_kind:
        return compile_comprehension(c, e, COMP_LIST, e->v.ListComp.generators, e->v.ListComp.elt, NULL);
    case SetComp_kind:
        return compile_comprehension(c, e, COMP_SET, e->v.SetComp.generators, e->v.SetComp.elt, NULL);
    case DictComp_kind:
        return compile_comprehension(c, e, COMP_DICT, e->v.DictComp.generators, e->v.DictComp.key,
                                     e->v.DictComp.value);
    case GeneratorExp_kind:
        return compile_comprehension(c, e, COMP_GENEXPR, e->v.GeneratorExp.generators, e->v.GeneratorExp.elt,
                                     NULL);
    case Yield_kind:
        if (c->u->ste->type != BLOCK_FUNCTION)
            return SYNERR(c, e, "'yield' outside function");
        if (e->v.Yield.value)
            TRY(compile_expr(c, e->v.Yield.value));
        else
            TRY(emit_none(c));
        if (c->u->flags & CO_ASYNC_GENERATOR)
            TRY(emit(c, OP_ASYNC_GEN_WRAP, 0));
        return emit(c, OP_YIELD_VALUE, 0);
    case YieldFrom_kind:
        if (c->u->ste->type != BLOCK_FUNCTION)
            return SYNERR(c, e, "'yield' outside function");
        if (c->u->ste->is_async_def)
            return SYNERR(c, e, "'yield from' inside async function");
        TRY(compile_expr(c, e->v.YieldFrom.value));
        return emit(c, OP_GET_YIELD_FROM_ITER, 0) && emit_none(c) && emit(c, OP_YIELD_FROM, 0);
    case Await_kind:
        if (c->u->ste->type != BLOCK_FUNCTION)
            return SYNERR(c, e, "'await' outside function");
        if (!c->u->ste->is_async_def && c->u->kind != U_COMP)
            return SYNERR(c, e, "'await' outside async function");
        TRY(compile_expr(c, e->v.Await.value));
        return emit_await(c, 0);
    case Compare_kind:
        return compile_compare(c, e);
    case Call_kind:
        return compile_call(c, e);
    case FormattedValue_kind:
        return compile_formatted_value(c, e);
    case JoinedStr_kind:
        return compile_joined_str(c, e);
    case Constant_kind:
        return emit_const(c, const_from_ast(c, &e->v.Constant.value));
    case Attribute_kind:
        if (e->v.Attribute.ctx != AST_Load)
            return internal_error(c, "attribute store in expression context");
        TRY(compile_expr(c, e->v.Attribute.value));
        c->u->lineno = e->end_lineno;
        pos_to_attr(c, e);
        return emit_attr_op(c, OP_LOAD_ATTR, e->v.Attribute.attr);
    case Subscript_kind:
        if (e->v.Subscript.ctx != AST_Load)
            return internal_error(c, "subscript store in expression context");
        TRY(check_subscript(c, e->v.Subscript.value, e->v.Subscript.slice));
        TRY(compile_expr(c, e->v.Subscript.value) && compile_expr(c, e->v.Subscript.slice));
        c->u->lineno = e->lineno;
        return emit(c, OP_BINARY_SUBSCR, 0);
    case Starred_kind:
        return SYNERR(c, e, "can't use starred expression here");
    case Name_kind:
        return compile_nameop(c, e->v.Name.id, AST_Load, e);
    case List_kind:
        return compile_list_or_set(c, e->v.List.elts, SEQ_LIST);
    case Tuple_kind:
        return compile_tuple(c, e);
    case Slice_kind: {
        int n = 2;
        if (e->v.Slice.lower)
            TRY(compile_expr(c, e->v.Slice.lower));
        else
            TRY(emit_none(c));
        if (e->v.Slice.upper)
            TRY(compile_expr(c, e->v.Slice.upper));
        else
            TRY(emit_none(c));
        if (e->v.Slice.step) {
            TRY(compile_expr(c, e->v.Slice.step));
            n = 3;
        }
        return emit(c, OP_BUILD_SLICE, n);
    }
    }
    return internal_error(c, "unknown expression kind");
}

static bool compile_expr(Compiler *c, expr_ty e)
{
    TRY(enter_nested(c, e->lineno, e->col_offset));
    int save = c->u->lineno;
    SrcPos save_pos = c->u->pos;
    c->u->lineno = e->lineno;
    c->u->pos = NODE_POS(e);
    bool ok = compile_expr_inner(c, e);
    c->u->lineno = save;
    c->u->pos = save_pos;
    c->depth--;
    return ok;
}

/* ------------------------------------------------------------------ */
/* Module entry                                                        */
/* ------------------------------------------------------------------ */

static Unit *compile_mod(Compiler *c, mod_ty mod)
{
    if (!enter_unit(c, c->st->top, U_MODULE, "<module>", 1))
        return NULL;
    switch (mod->kind) {
    case Module_kind: {
        const stmt_seq *body = &mod->v.Module.body;
        const constant *doc = docstring_of(body);
        /* future imports may only follow the docstring and other future imports */
        c->module_body = body;
        c->future_prefix = doc ? 1 : 0;
        doc = kept_docstring(c, body);
        while (c->future_prefix < body->n) {
            stmt_ty s = body->items[c->future_prefix];
            if (s->kind != ImportFrom_kind || !s->v.ImportFrom.module || s->v.ImportFrom.level ||
                strcmp(s->v.ImportFrom.module, "__future__") != 0)
                break;
            c->future_prefix++;
        }
        if (find_ann(body)) {
            c->u->lineno = body->items[0]->lineno;
            if (!emit(c, OP_SETUP_ANNOTATIONS, 0))
                return NULL;
        }
        if (doc) {
            c->u->lineno = body->items[0]->lineno;
            if (!emit_const(c, const_str(c, doc->s, doc->len)) || !emit_name_index(c, OP_STORE_NAME, "__doc__"))
                return NULL;
        }
        if (!compile_stmts(c, body, doc ? 1 : 0) || !emit_none(c) || !emit(c, OP_RETURN_VALUE, 0))
            return NULL;
        break;
    }
    case Interactive_kind:
        c->interactive = true;
        if (!compile_stmts(c, &mod->v.Interactive.body, 0) || !emit_none(c) || !emit(c, OP_RETURN_VALUE, 0))
            return NULL;
        break;
    case Expression_kind:
        if (!compile_expr(c, mod->v.Expression.body) || !emit(c, OP_RETURN_VALUE, 0))
            return NULL;
        break;
    }
    return leave_unit(c);
}

/* ------------------------------------------------------------------ */
/* Assembly: stack depth, jump targets, instruction words              */
/* ------------------------------------------------------------------ */

/* Value-stack effect of an instruction when it falls through (jump 0) or
 * jumps (jump 1). INT32_MIN: unknown op. */
static int stack_effect(int op, int arg, int jump)
{
    switch (op) {
    case OP_NOP: case OP_ROT_TWO: case OP_ROT_THREE: case OP_ROT_FOUR: case OP_SWAP:
    case OP_DELETE_FAST: case OP_DELETE_DEREF: case OP_DELETE_GLOBAL: case OP_DELETE_NAME:
    case OP_LOAD_ATTR: case OP_YIELD_VALUE: case OP_GET_YIELD_FROM_ITER: case OP_JUMP: case OP_JUMP_BACKWARD:
    case OP_GET_ITER: case OP_UNARY_OP: case OP_LIST_TO_TUPLE: case OP_POP_BLOCK:
    case OP_GET_AWAITABLE: case OP_GET_AITER: case OP_ASYNC_GEN_WRAP: case OP_SETUP_ANNOTATIONS:
        return 0;
    case OP_CHECK_EG_MATCH:
        return jump ? -1 : 0;     /* rest type -> rest match; no match: rest */
    case OP_PREP_RERAISE_STAR:
        return -1;
    case OP_GET_ANEXT: case OP_BEFORE_ASYNC_WITH:
        return 1;
    case OP_END_ASYNC_FOR:
        return -3;
    case OP_SETUP_ASYNC_WITH:
        return jump ? 1 : 0;      /* exit res -> exit res; handler: exit prev exc */
    case OP_POP_TOP: case OP_STORE_FAST: case OP_STORE_DEREF: case OP_STORE_GLOBAL: case OP_STORE_NAME:
    case OP_DELETE_ATTR: case OP_RETURN_VALUE: case OP_YIELD_FROM: case OP_POP_JUMP_IF_FALSE:
    case OP_POP_JUMP_IF_TRUE: case OP_POP_JUMP_IF_NONE: case OP_POP_JUMP_IF_NOT_NONE: case OP_COMPARE_OP:
    case OP_IS_OP: case OP_CONTAINS_OP: case OP_BINARY_OP: case OP_BINARY_SUBSCR: case OP_LIST_APPEND:
    case OP_SET_ADD: case OP_LIST_EXTEND: case OP_SET_UPDATE: case OP_DICT_UPDATE: case OP_DICT_MERGE:
    case OP_IMPORT_NAME: case OP_IMPORT_STAR: case OP_POP_EXCEPT: case OP_RERAISE:
        return -1;
    case OP_CALL_EXIT_NONE:
        return arg ? 0 : -1;      /* arg 1: the result stays (async with awaits it) */
    case OP_DUP_TOP: case OP_COPY: case OP_PUSH_NULL: case OP_LOAD_CONST: case OP_LOAD_FAST:
    case OP_LOAD_DEREF: case OP_LOAD_CLOSURE: case OP_LOAD_CLASSDEREF: case OP_LOAD_GLOBAL: case OP_LOAD_NAME:
    case OP_LOAD_METHOD: case OP_LOAD_BUILD_CLASS: case OP_IMPORT_FROM: case OP_WITH_EXCEPT_START:
    case OP_LOAD_ASSERTION_ERROR: case OP_GET_LEN: case OP_MATCH_SEQUENCE: case OP_MATCH_MAPPING:
    case OP_MATCH_KEYS:
        return 1;
    case OP_COPY_DICT_WITHOUT_KEYS:
        return -1;
    case OP_MATCH_CLASS:
        return -2;
    case OP_DUP_TOP_TWO:
        return 2;
    case OP_STORE_ATTR: case OP_DELETE_SUBSCR: case OP_MAP_ADD: case OP_JUMP_IF_NOT_EXC_MATCH:
        return -2;
    case OP_STORE_SUBSCR:
        return -3;
    case OP_CALL:
        return -(arg + 1);
    case OP_CALL_KW:
        return -(arg + 2);
    case OP_CALL_FUNCTION_EX:
        return (arg & 1) ? -3 : -2;
    case OP_JUMP_IF_FALSE_OR_POP: case OP_JUMP_IF_TRUE_OR_POP:
        return jump ? 0 : -1;
    case OP_FOR_ITER:
        return jump ? -1 : 1;
    case OP_SETUP_FINALLY:
        return jump ? 2 : 0;      /* handler: prev exc pushed */
    case OP_SETUP_WITH:
        return jump ? 2 : 1;      /* mgr -> exit enter_result; handler: exit prev exc */
    case OP_BUILD_SLICE: case OP_BUILD_TUPLE: case OP_BUILD_LIST: case OP_BUILD_SET: case OP_BUILD_STRING:
        return 1 - arg;
    case OP_BUILD_MAP:
        return 1 - 2 * arg;
    case OP_BUILD_CONST_KEY_MAP:
        return -arg;
    case OP_UNPACK_SEQUENCE:
        return arg - 1;
    case OP_UNPACK_EX:
        return (arg & 0xff) + (arg >> 8);
    case OP_FORMAT_VALUE:
        return (arg & 4) ? -1 : 0;
    case OP_MAKE_FUNCTION:
        return -(((arg & 1) != 0) + ((arg & 2) != 0) + ((arg & 4) != 0) + ((arg & 8) != 0));
    case OP_RAISE_VARARGS:
        return -arg;
    default:
        return INT32_MIN;
    }
}

/* Block-stack effect (try blocks and EXCEPT_HANDLER blocks). */
static int block_effect(int op, int jump)
{
    (void)jump;
    switch (op) {
    case OP_SETUP_FINALLY: case OP_SETUP_WITH: case OP_SETUP_ASYNC_WITH:
        return 1;   /* fall through: the try block; handler: the EXCEPT_HANDLER block replacing it */
    case OP_POP_BLOCK: case OP_POP_EXCEPT: case OP_END_ASYNC_FOR:
        return -1;
    default:
        return 0;
    }
}

static bool is_terminal(int op)
{
    return op == OP_RETURN_VALUE || op == OP_RAISE_VARARGS || op == OP_RERAISE || op == OP_JUMP ||
           op == OP_JUMP_BACKWARD;
}

/* Propagate depths through every reachable path; checks that every join
 * point is reached with one stack depth and one block depth. */
static bool compute_depths(Compiler *c, Unit *u)
{
    int n = u->nins;
    int *depth = malloc((size_t)n * sizeof(int) + 1);
    int *bdepth = malloc((size_t)n * sizeof(int) + 1);
    int *work = malloc((size_t)n * sizeof(int) + 1);
    int nwork = 0, maxd = 0, maxb = 0;
    bool ok = depth && bdepth && work;
    if (!ok) {
        nomem(c);
        goto out;
    }
    for (int i = 0; i < n; i++)
        depth[i] = bdepth[i] = -1;
    if (n) {
        depth[0] = bdepth[0] = 0;
        work[nwork++] = 0;
    }
    while (ok && nwork) {
        int i = work[--nwork];
        int d = depth[i], bd = bdepth[i];
        for (;;) {
            Instr *in = &u->ins[i];
            c->u->lineno = in->line;
            if (is_jump_op(in->op)) {
                int t = u->labels[in->arg];
                int td = d + stack_effect(in->op, in->arg, 1), tb = bd + block_effect(in->op, 1);
                if (t < 0 || t >= n || td < 0 || tb < 0) {
                    ok = internal_error(c, "bad jump");
                    break;
                }
                if (td > maxd)
                    maxd = td;
                if (tb > maxb)
                    maxb = tb;
                if (depth[t] < 0) {
                    depth[t] = td;
                    bdepth[t] = tb;
                    work[nwork++] = t;
                } else if (depth[t] != td || bdepth[t] != tb) {
                    ok = internal_error(c, "inconsistent stack depth at a jump target");
                    break;
                }
            }
            int eff = stack_effect(in->op, in->arg, 0);
            if (eff == INT32_MIN) {
                ok = internal_error(c, "unknown opcode");
                break;
            }
            int nd = d + eff, nb = bd + block_effect(in->op, 0);
            if (nd < 0 || nb < 0) {
                ok = internal_error(c, "stack underflow");
                break;
            }
            if (nd > maxd)
                maxd = nd;
            if (nb > maxb)
                maxb = nb;
            if (is_terminal(in->op))
                break;
            if (++i >= n) {
                ok = internal_error(c, "code falls off the end");
                break;
            }
            if (depth[i] >= 0) {
                if (depth[i] != nd || bdepth[i] != nb)
                    ok = internal_error(c, "inconsistent stack depth");
                break;
            }
            depth[i] = nd;
            bdepth[i] = nb;
            d = nd;
            bd = nb;
        }
    }
    if (ok && maxb > COMPILE_MAX_BLOCK_DEPTH)
        ok = cerror(c, CERR_SYNTAX, u->firstlineno, 0, u->firstlineno, 0, "too many statically nested blocks");
    u->stacksize = maxd + 2;   /* small margin */
out:
    free(depth);
    free(bdepth);
    free(work);
    return ok;
}

static bool assemble(Compiler *c, Unit *u)
{
    if (u->nins == 0 || !is_terminal(u->ins[u->nins - 1].op))
        return internal_error(c, "unit does not end with a return");
    TRY(compute_depths(c, u));
    int n = u->nins;
    int *pos = malloc(((size_t)n + 1) * sizeof(int));
    if (!pos)
        return nomem(c);
    int64_t w = 0;
    for (int i = 0; i < n; i++) {
        pos[i] = (int)(w > INT32_MAX ? INT32_MAX : w);
        w += OP_HAS_CACHE(u->ins[i].op) ? 2 : 1;
    }
    pos[n] = (int)(w > INT32_MAX ? INT32_MAX : w);
    if (w > ARG_LIMIT) {
        free(pos);
        return cerror(c, CERR_SYNTAX, u->firstlineno, 0, u->firstlineno, 0, "code object too large");
    }
    u->ncode = (int)w;
    u->code = malloc((size_t)w * sizeof(uint32_t) + 1);
    u->lines = malloc((size_t)w * sizeof(int32_t) + 1);
    PosWord *words = malloc((size_t)w * sizeof(PosWord) + 1);
    if (!u->code || !u->lines || !words) {
        free(pos);
        free(words);
        return nomem(c);
    }
    int nlocals = u->varnames.n, cache = 0, k = 0;
    for (int i = 0; i < n; i++) {
        Instr *in = &u->ins[i];
        int op = in->op;
        int64_t arg = in->arg;
        if (is_jump_op(op)) {
            arg = pos[u->labels[in->arg]];
            if (op == OP_JUMP && arg <= pos[i])
                op = OP_JUMP_BACKWARD;
        } else if (is_deref_op(op)) {
            arg += nlocals;
        }
        if (arg < 0 || arg > ARG_LIMIT) {
            free(pos);
            free(words);
            return cerror(c, CERR_SYNTAX, in->line, 0, in->line, 0, "instruction argument too large");
        }
        PosWord pw = {in->line, in->pos.line, in->pos.end_line, in->pos.col, in->pos.end_col};
        u->code[k] = INSTR(op, (uint32_t)arg);
        words[k] = pw;
        u->lines[k++] = in->line;
        if (OP_HAS_CACHE(op)) {
            u->code[k] = (uint32_t)cache++;
            words[k] = pw;
            u->lines[k++] = in->line;
        }
    }
    u->ncaches = cache;
    free(pos);
    u->positions = positions_encode(words, w, &u->npositions);
    free(words);
    if (!u->positions)
        return nomem(c);
    return true;
}

/* ------------------------------------------------------------------ */
/* Compile to units (no GC objects yet)                                */
/* ------------------------------------------------------------------ */

static void compiler_free(Compiler *c)
{
    for (int i = 0; i < c->nunits; i++)
        unit_free(c->units[i]);
    free(c->units);
    while (c->pool) {
        PoolBlock *b = c->pool;
        c->pool = b->next;
        free(b);
    }
    symtable_free(c->st);
    free(c->warnings);
    memset(c, 0, sizeof *c);
}

/* The module unit, or NULL with err set. The caller frees c. */
static Unit *compile_units(Compiler *c, mod_ty mod, CompileError *err, int optimize, bool future_annotations)
{
    memset(c, 0, sizeof *c);
    c->err = err;
    c->optimize = optimize;
    c->st = symtable_build(mod, err, future_annotations);
    if (!c->st)
        return NULL;
    Unit *top = compile_mod(c, mod);
    if (!top && err->kind == CERR_NONE)
        internal_error(c, "compilation failed without an error");
    return top;
}

#ifdef COMPILE_NO_VM
/* Test builds only (cc -DCOMPILE_NO_VM, no GC, no interpreter): listings
 * of the units for scratch drivers, as text and as JSON for a reference
 * VM written in Python. */
/* ------------------------------------------------------------------ */
/* Debug listing of units (works without the GC: scratch drivers)      */
/* ------------------------------------------------------------------ */

static void const_print(FILE *out, const CConst *k)
{
    switch (k->kind) {
    case K_NONE: fputs("None", out); break;
    case K_TRUE: fputs("True", out); break;
    case K_FALSE: fputs("False", out); break;
    case K_ELLIPSIS: fputs("Ellipsis", out); break;
    case K_INT: fprintf(out, "%lld", (long long)k->i); break;
    case K_BIGINT: fprintf(out, "%sint('%s', %d)", k->neg ? "-" : "", k->s, k->base); break;
    case K_FLOAT: fprintf(out, "%.17g", k->f); break;
    case K_COMPLEX: fprintf(out, "complex(%.17g, %.17g)", k->f, k->fi); break;
    case K_STR: fprintf(out, "'%.*s'", (int)k->len, k->s); break;
    case K_BYTES: fprintf(out, "b'%.*s'", (int)k->len, k->s); break;
    case K_TUPLE: case K_FROZENSET:
        fputs(k->kind == K_FROZENSET ? "frozenset((" : "(", out);
        for (int i = 0; i < k->nitems; i++) {
            if (i)
                fputs(", ", out);
            const_print(out, k->items[i]);
        }
        fputs(k->nitems == 1 ? ",)" : ")", out);
        if (k->kind == K_FROZENSET)
            fputc(')', out);
        break;
    case K_CODE: fprintf(out, "<code %s>", k->code->qualname); break;
    }
}

static const char *localsplus_name(const Unit *u, int ix)
{
    if (ix < u->varnames.n)
        return u->varnames.items[ix];
    ix -= u->varnames.n;
    if (ix < u->cells.n)
        return u->cells.items[ix];
    ix -= u->cells.n;
    return ix < u->frees.n ? u->frees.items[ix] : "?";
}

static void unit_dump(FILE *out, const Unit *u)
{
    fprintf(out, "code %s (qualname %s) line %d flags 0x%x args %d/%d/%d stack %d caches %d\n", u->name,
            u->qualname, u->firstlineno, u->flags, u->argcount, u->posonlyargcount, u->kwonlyargcount,
            u->stacksize, u->ncaches);
    fputs("  localsplus:", out);
    for (int i = 0; i < u->varnames.n + u->cells.n + u->frees.n; i++)
        fprintf(out, " %s%s", localsplus_name(u, i),
                i >= u->varnames.n + u->cells.n ? "(free)" : i >= u->varnames.n ? "(cell)" : "");
    fputc('\n', out);
    int lastline = -1;
    for (int k = 0; k < u->ncode; k++) {
        uint32_t w = u->code[k];
        int op = (int)INSTR_OP(w), arg = (int)INSTR_ARG(w);
        if (u->lines[k] != lastline)
            fprintf(out, "%4d ", u->lines[k]);
        else
            fputs("     ", out);
        lastline = u->lines[k];
        fprintf(out, "%5d %-22s %d", k, op < OP_OP_COUNT_ ? op_names[op] : "???", arg);
        switch (op) {
        case OP_LOAD_CONST:
            fputs(" (", out);
            const_print(out, u->consts[arg]);
            fputc(')', out);
            break;
        case OP_LOAD_GLOBAL: case OP_STORE_GLOBAL: case OP_DELETE_GLOBAL: case OP_LOAD_NAME:
        case OP_STORE_NAME: case OP_DELETE_NAME: case OP_LOAD_ATTR: case OP_STORE_ATTR: case OP_DELETE_ATTR:
        case OP_LOAD_METHOD: case OP_IMPORT_NAME: case OP_IMPORT_FROM:
            fprintf(out, " (%s)", u->names.items[arg]);
            break;
        case OP_LOAD_FAST: case OP_STORE_FAST: case OP_DELETE_FAST: case OP_LOAD_DEREF: case OP_STORE_DEREF:
        case OP_DELETE_DEREF: case OP_LOAD_CLOSURE: case OP_LOAD_CLASSDEREF:
            fprintf(out, " (%s)", localsplus_name(u, arg));
            break;
        default:
            break;
        }
        fputc('\n', out);
        if (OP_HAS_CACHE(op))
            k++;
    }
    for (int i = 0; i < u->nconsts; i++)
        if (u->consts[i]->kind == K_CODE) {
            fputc('\n', out);
            unit_dump(out, u->consts[i]->code);
        }
}

/* For scratch test drivers: compile an AST and print the listing, or the
 * error. Returns 0 on success, -1 on error. */
int compile_debug_dump(mod_ty mod, FILE *out);
int compile_debug_dump(mod_ty mod, FILE *out)
{
    Compiler c;
    CompileError err = { 0 };
    Unit *top = compile_units(&c, mod, &err, 0);
    if (top)
        unit_dump(out, top);
    else
        fprintf(out, "error kind %d: %s (line %d col %d - line %d col %d)\n", err.kind, err.msg, err.lineno,
                err.col_offset, err.end_lineno, err.end_col_offset);
    compiler_free(&c);
    return top ? 0 : -1;
}

/* The units as JSON. */
static void json_str(FILE *out, const char *s, size_t n)
{
    fputc('"', out);
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 32)
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

static void unit_json(FILE *out, const Unit *u);

static void const_json(FILE *out, const CConst *k)
{
    switch (k->kind) {
    case K_NONE: fputs("{\"t\":\"none\"}", out); break;
    case K_TRUE: fputs("{\"t\":\"true\"}", out); break;
    case K_FALSE: fputs("{\"t\":\"false\"}", out); break;
    case K_ELLIPSIS: fputs("{\"t\":\"ellipsis\"}", out); break;
    case K_INT: fprintf(out, "{\"t\":\"int\",\"v\":\"%lld\",\"base\":10}", (long long)k->i); break;
    case K_BIGINT: fprintf(out, "{\"t\":\"int\",\"v\":\"%s%s\",\"base\":%d}", k->neg ? "-" : "", k->s, k->base); break;
    case K_FLOAT: fprintf(out, "{\"t\":\"float\",\"v\":\"%a\"}", k->f); break;
    case K_COMPLEX: fprintf(out, "{\"t\":\"complex\",\"re\":\"%a\",\"im\":\"%a\"}", k->f, k->fi); break;
    case K_STR: fputs("{\"t\":\"str\",\"v\":", out); json_str(out, k->s, k->len); fputc('}', out); break;
    case K_BYTES:
        fputs("{\"t\":\"bytes\",\"v\":\"", out);
        for (size_t i = 0; i < k->len; i++)
            fprintf(out, "%02x", (unsigned char)k->s[i]);
        fputs("\"}", out);
        break;
    case K_TUPLE: case K_FROZENSET:
        fputs(k->kind == K_FROZENSET ? "{\"t\":\"frozenset\",\"v\":[" : "{\"t\":\"tuple\",\"v\":[", out);
        for (int i = 0; i < k->nitems; i++) {
            if (i)
                fputc(',', out);
            const_json(out, k->items[i]);
        }
        fputs("]}", out);
        break;
    case K_CODE: fputs("{\"t\":\"code\",\"v\":", out); unit_json(out, k->code); fputc('}', out); break;
    }
}

static void strs_json(FILE *out, const StrTab *t)
{
    for (int i = 0; i < t->n; i++) {
        if (i)
            fputc(',', out);
        json_str(out, t->items[i], strlen(t->items[i]));
    }
}

static void unit_json(FILE *out, const Unit *u)
{
    fputs("{\"name\":", out);
    json_str(out, u->name, strlen(u->name));
    fputs(",\"qualname\":", out);
    json_str(out, u->qualname, strlen(u->qualname));
    fprintf(out, ",\"flags\":%d,\"argcount\":%d,\"posonly\":%d,\"kwonly\":%d,\"nlocals\":%d,\"ncells\":%d,"
            "\"nfrees\":%d,\"stacksize\":%d,\"ncaches\":%d,\"firstlineno\":%d,\"cell2arg\":[",
            u->flags, u->argcount, u->posonlyargcount, u->kwonlyargcount, u->varnames.n, u->cells.n, u->frees.n,
            u->stacksize, u->ncaches, u->firstlineno);
    for (int i = 0; i < u->nparamcells && i < 16; i++)
        fprintf(out, "%s%d", i ? "," : "", strtab_lookup(&u->varnames, u->cells.items[i]));
    fputs("],\"localsplus\":[", out);
    strs_json(out, &u->varnames);
    if (u->varnames.n && u->cells.n)
        fputc(',', out);
    strs_json(out, &u->cells);
    if ((u->varnames.n || u->cells.n) && u->frees.n)
        fputc(',', out);
    strs_json(out, &u->frees);
    fputs("],\"names\":[", out);
    strs_json(out, &u->names);
    fputs("],\"code\":[", out);
    for (int i = 0; i < u->ncode; i++)
        fprintf(out, "%s%u", i ? "," : "", u->code[i]);
    fputs("],\"lines\":[", out);
    for (int i = 0; i < u->ncode; i++)
        fprintf(out, "%s%d", i ? "," : "", u->lines[i]);
    fputs("],\"consts\":[", out);
    for (int i = 0; i < u->nconsts; i++) {
        if (i)
            fputc(',', out);
        const_json(out, u->consts[i]);
    }
    fputs("]}", out);
}

int compile_debug_json(mod_ty mod, FILE *out);
int compile_debug_json(mod_ty mod, FILE *out)
{
    Compiler c;
    CompileError err = { 0 };
    Unit *top = compile_units(&c, mod, &err, 0);
    if (top)
        unit_json(out, top);
    else {
        fprintf(out, "{\"error\":%d,\"msg\":", err.kind);
        json_str(out, err.msg, strlen(err.msg));
        fprintf(out, ",\"lineno\":%d,\"offset\":%d,\"end_lineno\":%d,\"end_offset\":%d}", err.lineno,
                err.col_offset + 1, err.end_lineno, err.end_col_offset + 1);
    }
    fputc('\n', out);
    compiler_free(&c);
    return top ? 0 : -1;
}
#endif /* COMPILE_NO_VM */

/* ================================================================== */
/* Everything below touches GC objects (the interpreter proper).      */
/* ================================================================== */
#ifndef COMPILE_NO_VM

#include "objects/containers.h"   /* set_display_constant */
#include "objects/numbers.h"      /* int_max_str_digits */

/* ------------------------------------------------------------------ */
/* Code objects                                                        */
/* ------------------------------------------------------------------ */

Obj code_new(int32_t ninstr)
{
    if (ninstr < 0)
        ninstr = 0;
    size_t size = offsetof(struct CodeObj_, code) + (size_t)ninstr * sizeof(uint32_t);
    Obj o = tm_allocate_old(TID_CODE, size);
    if (!o)
        return err_nomemory();
    CodeObj *co = (CodeObj *)o;
    co->ninstr = (uint64_t)ninstr;
    co->consts = g_empty_tuple;
    co->names = g_empty_tuple;
    co->localsplus = g_empty_tuple;
    co->name = g_empty_str;
    co->qualname = g_empty_str;
    co->filename = g_empty_str;
    co->cell2arg_count = 0;
    for (int i = 0; i < 16; i++)
        co->cell2arg[i] = -1;
    return o;
}

/* Is a str constant worth interning (looks like an identifier)? */
static bool looks_like_identifier(const char *s, size_t n)
{
    if (n == 0 || n > 40)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (!(ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')))
            return false;
    }
    return true;
}

typedef struct Emitter {
    Compiler *c;
    Obj filename;   /* interned str (pinned) */
} Emitter;

static Obj unit_to_code(Emitter *em, Unit *u);

static Obj const_to_obj(Emitter *em, CConst *k)
{
    switch (k->kind) {
    case K_NONE: return g_None;
    case K_TRUE: return g_True;
    case K_FALSE: return g_False;
    case K_ELLIPSIS: return g_Ellipsis;
    case K_INT: return int_from_i64(k->i);
    case K_BIGINT: {
        char *buf = malloc(k->len + 2);
        if (!buf)
            return err_nomemory();
        size_t n = 0;
        if (k->neg)
            buf[n++] = '-';
        memcpy(buf + n, k->s, k->len);
        n += k->len;
        buf[n] = 0;
        Obj v = int_from_string(buf, n, k->base);
        free(buf);
        return v;
    }
    case K_FLOAT: return float_new(k->f);
    case K_COMPLEX: return complex_new(k->f, k->fi);
    case K_STR: {
        if (looks_like_identifier(k->s, k->len)) {
            char tmp[48];
            memcpy(tmp, k->s, k->len);
            tmp[k->len] = 0;
            return str_intern_cstr(tmp);
        }
        return str_new(k->s, k->len);
    }
    case K_BYTES: return bytes_new(k->s, k->len);
    case K_TUPLE: case K_FROZENSET: {
        if (k->nitems == 0 && k->kind == K_TUPLE)
            return g_empty_tuple;
        Obj *r = vm_roots(1);
        r[0] = tuple_new(k->nitems);
        if (!r[0]) {
            vm_unroots(r);
            return err_nomemory();
        }
        for (int i = 0; i < k->nitems; i++)
            TUPLE_ITEMS(r[0])[i] = g_None;
        for (int i = 0; i < k->nitems; i++) {
            Obj v = const_to_obj(em, k->items[i]);
            if (!v) {
                vm_unroots(r);
                return NULL;
            }
            VM_WRITE(r[0]);
            TUPLE_ITEMS(r[0])[i] = v;
        }
        Obj t = k->kind == K_FROZENSET ? set_display_constant(r[0]) : r[0];
        vm_unroots(r);
        return t;
    }
    case K_CODE: return unit_to_code(em, k->code);
    }
    err_set(E_SystemError, "compiler: bad constant");
    return NULL;
}

/* A tuple of interned strs. */
static Obj names_tuple(const char *const *a, int na, const char *const *b, int nb, const char *const *c3, int nc)
{
    int n = na + nb + nc;
    if (n == 0)
        return g_empty_tuple;
    Obj *r = vm_roots(1);
    r[0] = tuple_new(n);
    if (!r[0]) {
        vm_unroots(r);
        return err_nomemory();
    }
    for (int i = 0; i < n; i++)
        TUPLE_ITEMS(r[0])[i] = g_None;
    for (int i = 0; i < n; i++) {
        const char *s = i < na ? a[i] : i < na + nb ? b[i - na] : c3[i - na - nb];
        Obj v = str_intern_cstr(s);
        if (!v) {
            vm_unroots(r);
            return NULL;
        }
        VM_WRITE(r[0]);
        TUPLE_ITEMS(r[0])[i] = v;
    }
    Obj t = r[0];
    vm_unroots(r);
    return t;
}

enum { R_CONSTS, R_NAMES, R_LOCALSPLUS, R_NAME, R_QUALNAME, R_LINES, R_POSITIONS, R_CACHE, R_COUNT };

static Obj unit_to_code(Emitter *em, Unit *u)
{
    Obj *r = vm_roots(R_COUNT);
    Obj result = NULL;
    if (u->nconsts) {
        r[R_CONSTS] = tuple_new(u->nconsts);
        if (!r[R_CONSTS]) {
            err_nomemory();
            goto out;
        }
        for (int i = 0; i < u->nconsts; i++)
            TUPLE_ITEMS(r[R_CONSTS])[i] = g_None;
        for (int i = 0; i < u->nconsts; i++) {
            Obj v = const_to_obj(em, u->consts[i]);
            if (!v)
                goto out;
            VM_WRITE(r[R_CONSTS]);
            TUPLE_ITEMS(r[R_CONSTS])[i] = v;
        }
    } else {
        r[R_CONSTS] = g_empty_tuple;
    }
    if (!(r[R_NAMES] = names_tuple(u->names.items, u->names.n, NULL, 0, NULL, 0)))
        goto out;
    if (!(r[R_LOCALSPLUS] = names_tuple(u->varnames.items, u->varnames.n, u->cells.items, u->cells.n,
                                        u->frees.items, u->frees.n)))
        goto out;
    if (!(r[R_NAME] = str_intern_cstr(u->name)) || !(r[R_QUALNAME] = str_from_cstr(u->qualname)))
        goto out;
    if (!(r[R_LINES] = raw_new((int64_t)u->ncode * (int64_t)sizeof(int32_t))))
        goto out;
    if (u->ncode)
        memcpy(VM_LINEAR((RAW(r[R_LINES]))->data), u->lines, (size_t)u->ncode * sizeof(int32_t));
    if (!(r[R_POSITIONS] = raw_new((int64_t)u->npositions)))
        goto out;
    if (u->npositions)
        memcpy(VM_LINEAR((RAW(r[R_POSITIONS]))->data), u->positions, u->npositions);
    if (!(r[R_CACHE] = raw_new((int64_t)u->ncaches * CACHE_ENTRY_SIZE)))
        goto out;
    Obj code = code_new(u->ncode);
    if (!code)
        goto out;
    /* nothing below allocates */
    CodeObj *co = (CodeObj *)code;
    VM_WRITE(code);
    co->consts = r[R_CONSTS];
    co->names = r[R_NAMES];
    co->localsplus = r[R_LOCALSPLUS];
    co->name = r[R_NAME];
    co->qualname = r[R_QUALNAME];
    co->filename = em->filename;
    co->lines = r[R_LINES];
    co->positions = r[R_POSITIONS];
    co->cache = r[R_CACHE];
    co->argcount = u->argcount;
    co->posonlyargcount = u->posonlyargcount;
    co->kwonlyargcount = u->kwonlyargcount;
    co->nlocals = u->varnames.n;
    co->ncellvars = u->cells.n;
    co->nfreevars = u->frees.n;
    co->stacksize = u->stacksize;
    co->flags = u->flags;
    co->firstlineno = u->firstlineno;
    co->ncaches = u->ncaches;
    co->reserved_ = 0;
    co->cell2arg_count = u->nparamcells < 16 ? u->nparamcells : 16;
    for (int i = 0; i < 16; i++)
        co->cell2arg[i] = -1;
    for (int i = 0; i < co->cell2arg_count; i++)
        co->cell2arg[i] = (int16_t)strtab_lookup(&u->varnames, u->cells.items[i]);
    if (u->ncode)
        memcpy(VM_LINEAR(co->code), u->code, (size_t)u->ncode * sizeof(uint32_t));
    result = code;
out:
    vm_unroots(r);
    return result;
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

/* SyntaxError(msg, (filename, lineno, offset, text, end_lineno, end_offset)). */
static void raise_syntax_error(TypeObj *type, const char *msg, const char *filename, int lineno, int offset,
                               const char *text, size_t textlen, int end_lineno, int end_offset, bool msg_only_args,
                               bool no_columns)
{
    /* end_offset <= 0: unknown (None); no_columns: offset and end_offset 0 */
    Obj *r = vm_roots(8);
    if (!(r[0] = str_from_cstr(msg)) || !(r[2] = str_from_cstr(filename)))
        goto out;
    r[3] = int_from_i64(lineno);
    r[4] = int_from_i64(offset);
    if (text) {
        if (!(r[5] = str_new(text, textlen)))
            goto out;
    } else {
        r[5] = g_None;
    }
    r[6] = int_from_i64(end_lineno);
    r[7] = end_offset > 0 || no_columns ? int_from_i64(no_columns ? 0 : end_offset) : g_None;
    if (!r[3] || !r[4] || !r[6] || !r[7])
        goto out;
    if (!(r[1] = tuple_from_array(&r[2], 6)))
        goto out;
    Obj exc = exc_new(type, r, 2);
    if (exc && msg_only_args) {
        /* the attributes stay (they live in `extra`); args becomes (msg,) */
        r[1] = exc;
        Obj t = tuple_new(1);
        exc = r[1];
        if (!t)
            goto out;
        TUPLE_ITEMS(t)[0] = r[0];
        VM_WRITE(exc);
        EXC(exc)->args = t;
    }
    if (exc)
        err_set_obj(exc);
out:
    if (!err_occurred())
        err_nomemory();
    vm_unroots(r);
}

/* The source line `lineno` (1-based) with its newline, for SyntaxError.text. */
static const char *source_line(const char *src, size_t len, int lineno, size_t *outlen)
{
    if (lineno < 1)
        return NULL;
    size_t i = 0;
    for (int l = 1; l < lineno; l++) {
        const char *nl = memchr(src + i, '\n', len - i);
        if (!nl)
            return NULL;
        i = (size_t)(nl - src) + 1;
    }
    if (i >= len)
        return NULL;
    const char *nl = memchr(src + i, '\n', len - i);
    *outlen = nl ? (size_t)(nl - (src + i)) + 1 : len - i;
    return src + i;
}

static void raise_compile_error(const CompileError *err, const char *filename, const char *src, size_t len)
{
    switch (err->kind) {
    case CERR_MEMORY:
        err_nomemory();
        return;
    case CERR_RECURSION:
        err_set(E_RecursionError, err->msg);
        return;
    case CERR_NOTIMPL:
        err_set(E_NotImplementedError, err->msg);
        return;
    case CERR_SYSTEM:
        err_set(E_SystemError, err->msg);
        return;
    default:
        break;
    }
    TypeObj *type = err->kind == CERR_INDENT ? E_IndentationError : err->kind == CERR_TAB ? E_TabError
                                                                                          : E_SyntaxError;
    /* A constant's repr in the message (CPython's %R). */
    char *msg = NULL;
    const char *mark = err->repr_arg ? strchr(err->msg, '\x01') : NULL;
    if (mark) {
        Emitter em = {NULL, NULL};
        Obj v = const_to_obj(&em, (CConst *)err->repr_arg);
        Obj r = v ? vm_repr(v) : NULL;
        if (!r)
            return;
        size_t head = (size_t)(mark - err->msg), rn = (size_t)STR(r)->nbytes, tail = strlen(mark + 1);
        msg = malloc(head + rn + tail + 1);
        if (!msg) {
            err_nomemory();
            return;
        }
        memcpy(msg, err->msg, head);
        memcpy(msg + head, str_cstr(r), rn);
        memcpy(msg + head + rn, mark + 1, tail + 1);
    }
    /* like CPython: the text is read from the file, so "<string>" & co have none */
    size_t textlen = 0;
    const char *text = filename[0] == '<' ? NULL : source_line(src, len, err->lineno, &textlen);
    raise_syntax_error(type, msg ? msg : err->msg, filename, err->lineno, err->col_offset + 1, text, textlen,
                       err->end_lineno, err->end_col_offset + 1, err->msg_only_args, false);
    free(msg);
}

/* ------------------------------------------------------------------ */
/* vm_compile                                                          */
/* ------------------------------------------------------------------ */

/* Print the SyntaxWarnings as the warnings module does by default:
 * "file:line: SyntaxWarning: msg" and the stripped source line. */
static void print_warnings(Compiler *c, const char *filename, const char *src, size_t len)
{
    for (int i = 0; i < c->nwarnings; i++) {
        CompileWarning *w = &c->warnings[i];
        StrBuf b;
        sb_init(&b);
        sb_printf(&b, "%s:%d: SyntaxWarning: %s\n", filename, w->lineno, w->msg);
        size_t n = 0;
        const char *line = filename[0] == '<' ? NULL : source_line(src, len, w->lineno, &n);
        while (line && n && (*line == ' ' || *line == '\t' || *line == '\f')) {
            line++;
            n--;
        }
        while (line && n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
            n--;
        if (line && n) {
            sb_adds(&b, "  ");
            sb_add(&b, line, n);
            sb_addc(&b, '\n');
        }
        if (g_sys_stderr) {
            Obj s = sb_finish(&b);
            if (!s || file_write_str(g_sys_stderr, s) < 0)
                err_clear();   /* like a failing warnings.showwarning: ignored */
        } else {
            fwrite(b.p, 1, b.len, stderr);
            sb_free(&b);
        }
    }
}

Obj vm_compile(const char *src, size_t len, const char *filename, int mode)
{
    if (!filename)
        filename = "<string>";
    bool future_annotations = (mode & COMPILE_FUTURE_ANNOTATIONS) != 0;
    mode &= ~COMPILE_FUTURE_ANNOTATIONS;
    Arena *arena = arena_new();
    if (!arena)
        return err_nomemory();
    SyntaxErrorInfo se;
    memset(&se, 0, sizeof se);
    int pmode = mode == COMPILE_EVAL ? PARSE_EVAL : mode == COMPILE_SINGLE ? PARSE_SINGLE : PARSE_EXEC;
    mod_ty mod = parse_source(arena, src, len, filename, pmode, (long long)int_max_str_digits, &se);
    if (!mod) {
        arena_free(arena);
        if (se.kind == SYNERR_NOMEMORY)
            return err_nomemory();
        TypeObj *type = se.kind == SYNERR_INDENTATION ? E_IndentationError
                        : se.kind == SYNERR_TAB        ? E_TabError
                                                       : E_SyntaxError;
        raise_syntax_error(type, se.msg[0] ? se.msg : "invalid syntax", filename, se.lineno, se.col_offset,
                           se.text[0] ? se.text : NULL, strlen(se.text), se.end_lineno, se.end_col_offset, false,
                           se.no_columns);
        return NULL;
    }
    Compiler c;
    CompileError err;
    memset(&err, 0, sizeof err);
    Obj code = NULL;
    Unit *top = compile_units(&c, mod, &err, sys_cflags.optimize, future_annotations);
    print_warnings(&c, filename, src, len);
    if (top) {
        Emitter em = { &c, str_intern_cstr(filename) };
        if (em.filename)
            code = unit_to_code(&em, top);
    } else {
        raise_compile_error(&err, filename, src, len);
    }
    compiler_free(&c);
    arena_free(arena);
    return code;
}

/* ------------------------------------------------------------------ */
/* Disassembler                                                        */
/* ------------------------------------------------------------------ */

static void print_obj_repr(Obj v, FILE *out)
{
    Obj *r = vm_roots(1);
    r[0] = vm_repr(v);
    if (r[0] && IS_STR(r[0]))
        fputs(str_cstr(r[0]), out);
    else {
        err_clear();
        fputs("<?>", out);
    }
    vm_unroots(r);
}

void code_disassemble(Obj code, FILE *out)
{
    Obj *r = vm_roots(1);
    r[0] = code;   /* pinned, but keep it reachable */
    CodeObj *co = (CodeObj *)code;
    fprintf(out, "Disassembly of <code object %s, file \"%s\", line %d>:\n", str_cstr(co->name),
            str_cstr(co->filename), co->firstlineno);
    fprintf(out, "  qualname %s flags 0x%x args %d posonly %d kwonly %d nlocals %d cells %d frees %d stack %d\n",
            str_cstr(co->qualname), co->flags, co->argcount, co->posonlyargcount, co->kwonlyargcount,
            co->nlocals, co->ncellvars, co->nfreevars, co->stacksize);
    const int32_t __seg_gs *lines = (const int32_t __seg_gs *)RAW(co->lines)->data;
    int lastline = -1;
    for (uint64_t k = 0; k < co->ninstr; k++) {
        uint32_t w = co->code[k];
        int op = (int)INSTR_OP(w);
        uint32_t arg = INSTR_ARG(w);
        int line = lines[k];
        if (line != lastline)
            fprintf(out, "%4d ", line);
        else
            fputs("     ", out);
        lastline = line;
        fprintf(out, "%6llu %-22s %u", (unsigned long long)k, op < OP_OP_COUNT_ ? op_names[op] : "???",
                arg);
        switch (op) {
        case OP_LOAD_CONST:
            fputs(" (", out);
            if (arg < (uint32_t)TUPLE_LEN(co->consts))
                print_obj_repr(TUPLE_ITEMS(co->consts)[arg], out);
            fputc(')', out);
            break;
        case OP_LOAD_GLOBAL: case OP_STORE_GLOBAL: case OP_DELETE_GLOBAL: case OP_LOAD_NAME:
        case OP_STORE_NAME: case OP_DELETE_NAME: case OP_LOAD_ATTR: case OP_STORE_ATTR: case OP_DELETE_ATTR:
        case OP_LOAD_METHOD: case OP_IMPORT_NAME: case OP_IMPORT_FROM:
            if (arg < (uint32_t)TUPLE_LEN(co->names))
                fprintf(out, " (%s)", str_cstr(TUPLE_ITEMS(co->names)[arg]));
            break;
        case OP_LOAD_FAST: case OP_STORE_FAST: case OP_DELETE_FAST: case OP_LOAD_DEREF: case OP_STORE_DEREF:
        case OP_DELETE_DEREF: case OP_LOAD_CLOSURE: case OP_LOAD_CLASSDEREF:
            if (arg < (uint32_t)TUPLE_LEN(co->localsplus))
                fprintf(out, " (%s)", str_cstr(TUPLE_ITEMS(co->localsplus)[arg]));
            break;
        default:
            if (is_jump_op(op) || op == OP_JUMP_BACKWARD)
                fprintf(out, " (to %u)", arg);
            break;
        }
        fputc('\n', out);
        if (OP_HAS_CACHE(op) && k + 1 < co->ninstr)
            k++;
    }
    int64_t n = TUPLE_LEN(co->consts);
    for (int64_t i = 0; i < n; i++) {
        Obj k = TUPLE_ITEMS(((CodeObj *)r[0])->consts)[i];
        if (!IS_SMALLINT(k) && IS_CODE(k)) {
            fputc('\n', out);
            code_disassemble(k, out);
        }
    }
    vm_unroots(r);
}

#endif /* COMPILE_NO_VM */
