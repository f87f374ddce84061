/* tmpy: the bytecode compiler. Source -> AST (parser) -> symbol table
 * (symtable.c) -> instruction lists (this file, plain C) -> code objects
 * (the thin last step, emit_code, is the only part that touches the GC).
 *
 * Follows vm/opcodes.h exactly (no deviation). Choices opcodes.h leaves
 * open (also listed in compile.h):
 *  - function/lambda code: consts[0] is the docstring or None;
 *  - parameter cells come first among the cell vars (cell2arg);
 *  - a class body needing __class__ stores the cell as __classcell__ and
 *    returns None;
 *  - COMPILE_SINGLE expression statements call sys.displayhook(value);
 *  - every backward jump is a JUMP_BACKWARD (loops never jump back
 *    conditionally);
 *  - `from __future__ import x` compiles to nothing (features are checked).
 *
 * Layout of this file: compiler state and helpers; constants; names;
 * scopes (units); statements; expressions; assembly (labels, stack depth,
 * encoding); emission into GC objects; vm_compile; disassembler.
 */
#include "compile.h"
#include "symtable.h"
#include "ast.h"
#include "opcodes.h"

#if __has_include("parser.h")
#include "parser.h"
#else
/* parser.h not written yet: the prototype the parser engineer was given. */
typedef struct SyntaxErrorInfo {
    char msg[256];
    int lineno, col_offset, end_lineno, end_col_offset;
    char text[512];
    int kind; /* 0 SyntaxError, 1 IndentationError, 2 TabError */
} SyntaxErrorInfo;
mod_ty parse_source(Arena *arena, const char *src, size_t len, const char *filename, int mode,
                    SyntaxErrorInfo *err);
#endif

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *const compile_op_names[] = {
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

typedef enum { K_NONE, K_TRUE, K_FALSE, K_ELLIPSIS, K_INT, K_BIGINT, K_FLOAT, K_STR, K_BYTES, K_TUPLE, K_CODE } ConstKind;

struct Unit;
typedef struct CConst {
    ConstKind kind;
    bool neg;                 /* K_BIGINT: negative */
    int base;                 /* K_BIGINT */
    int nitems;               /* K_TUPLE */
    int64_t i;                /* K_INT */
    double f;                 /* K_FLOAT */
    const char *s;            /* K_STR, K_BYTES, K_BIGINT digits */
    size_t len;
    struct CConst **items;    /* K_TUPLE */
    struct Unit *code;        /* K_CODE */
    uint32_t hash;
} CConst;

typedef struct Instr {
    uint8_t op;
    int32_t arg;              /* jumps: a label id until assembly */
    int32_t line;
} Instr;

/* A table of strings with their index (names, varnames). */
typedef struct StrTab {
    const char **items;
    int n, cap;
    int *slots;
    int nslots;
} StrTab;

typedef enum {
    FB_WHILE, FB_FOR, FB_TRY_EXCEPT, FB_FINALLY_TRY, FB_FINALLY_END, FB_WITH, FB_HANDLER_CLEANUP, FB_POP_VALUE
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
    /* assembled */
    uint32_t *code;
    int32_t *lines;
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
} Compiler;

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
        int *slots = malloc((size_t)n * sizeof(int));
        if (!slots) {
            nomem(c);
            return -1;
        }
        for (int i = 0; i < n; i++)
            slots[i] = -1;
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
    case OP_JUMP_IF_NOT_EXC_MATCH:
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
    return true;
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
    case K_BIGINT: h = hash_bytes(h, k->s, k->len) ^ (uint32_t)k->neg ^ ((uint32_t)k->base << 2); break;
    case K_STR: case K_BYTES: h = hash_bytes(h, k->s, k->len); break;
    case K_TUPLE:
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
    case K_BIGINT:
        return a->neg == b->neg && a->base == b->base && a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
    case K_STR: case K_BYTES: return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
    case K_TUPLE:
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

/* Index of k in the current unit's constants (deduplicated); -1 on error. */
static int add_const(Compiler *c, CConst *k)
{
    Unit *u = c->u;
    if (u->ncslots) {
        int mask = u->ncslots - 1, i = (int)(k->hash & (uint32_t)mask);
        while (u->cslots[i] >= 0) {
            if (const_eq(u->consts[u->cslots[i]], k))
                return u->cslots[i];
            i = (i + 1) & mask;
        }
    }
    if (u->nconsts >= ARG_LIMIT) {
        cerror(c, CERR_SYNTAX, u->lineno, 0, u->lineno, 0, "too many constants in one code object");
        return -1;
    }
    if ((u->nconsts + 1) * 2 > u->ncslots) {
        int n = u->ncslots ? u->ncslots * 2 : 16;
        int *slots = malloc((size_t)n * sizeof(int));
        if (!slots) {
            nomem(c);
            return -1;
        }
        for (int i = 0; i < n; i++)
            slots[i] = -1;
        free(u->cslots);
        u->cslots = slots;
        u->ncslots = n;
        for (int j = 0; j < u->nconsts; j++) {
            int i = (int)(u->consts[j]->hash & (uint32_t)(n - 1));
            while (slots[i] >= 0)
                i = (i + 1) & (n - 1);
            slots[i] = j;
        }
    }
    if (!grow((void **)&u->consts, &u->capconsts, u->nconsts + 1, sizeof(CConst *))) {
        nomem(c);
        return -1;
    }
    u->consts[u->nconsts] = k;
    int i = (int)(k->hash & (uint32_t)(u->ncslots - 1));
    while (u->cslots[i] >= 0)
        i = (i + 1) & (u->ncslots - 1);
    u->cslots[i] = u->nconsts;
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

/* The constant value of an expression if it is one (literals, tuples of
 * literals, negated numbers); NULL otherwise (not an error). */
static CConst *fold_const(Compiler *c, expr_ty e, int depth)
{
    if (depth > 100)
        return NULL;
    switch (e->kind) {
    case Constant_kind:
        return const_from_ast(c, &e->v.Constant.value);
    case UnaryOp_kind: {
        if (e->v.UnaryOp.op != AST_USub || e->v.UnaryOp.operand->kind != Constant_kind)
            return NULL;
        const constant *v = &e->v.UnaryOp.operand->v.Constant.value;
        if (v->kind == CONST_INT) {
            if (v->fits_i64)
                return const_int(c, -v->i64);
            CConst *k = const_new(c, K_BIGINT);
            if (!k)
                return NULL;
            k->s = v->s;
            k->len = strlen(v->s);
            k->base = v->base;
            k->neg = true;
            return const_finish(k);
        }
        if (v->kind == CONST_FLOAT) {
            CConst *k = const_new(c, K_FLOAT);
            if (!k)
                return NULL;
            k->f = -v->f;
            return const_finish(k);
        }
        return NULL;
    }
    case Tuple_kind: {
        if (e->v.Tuple.ctx != AST_Load)
            return NULL;
        int n = e->v.Tuple.elts.n;
        CConst **items = n ? pool_alloc(c, (size_t)n * sizeof(CConst *)) : NULL;
        if (n && !items)
            return NULL;
        for (int i = 0; i < n; i++) {
            expr_ty x = e->v.Tuple.elts.items[i];
            if (x->kind != Constant_kind && x->kind != Tuple_kind && x->kind != UnaryOp_kind)
                return NULL;
            if (!(items[i] = fold_const(c, x, depth + 1)))
                return NULL;
        }
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
            return emit_const(c, const_simple(c, K_TRUE));
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
    if (u->nparamcells > 16)
        return cerror(c, CERR_NOTIMPL, firstlineno, 0, firstlineno, 0,
                      "more than 16 parameters captured by inner functions are not supported yet");

    switch (kind) {
    case U_MODULE: u->flags = CO_MODULE; break;
    case U_CLASS: u->flags = CO_CLASSBODY; break;
    case U_LAMBDA: u->flags = CO_LAMBDA; break;
    case U_COMP: u->flags = CO_COMPREHENSION; break;
    default: break;
    }
    if (ste->is_generator && kind != U_MODULE && kind != U_CLASS)
        u->flags |= CO_GENERATOR;
    if (ste->has_varargs)
        u->flags |= CO_VARARGS;
    if (ste->has_varkeywords)
        u->flags |= CO_VARKEYWORDS;
    if (parent && parent->kind != U_MODULE)
        u->flags |= CO_NESTED;
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
        c->u->lineno = line;
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

static bool compile_store(Compiler *c, expr_ty t);

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
    c->u->lineno = t->lineno;
    bool ok;
    switch (t->kind) {
    case Name_kind:
        ok = compile_nameop(c, t->v.Name.id, AST_Store, t);
        break;
    case Attribute_kind:
        ok = compile_expr(c, t->v.Attribute.value);
        c->u->lineno = t->lineno;
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
    c->depth--;
    return ok;
}

static bool compile_delete(Compiler *c, expr_ty t)
{
    TRY(enter_nested(c, t->lineno, t->col_offset));
    int save = c->u->lineno;
    c->u->lineno = t->lineno;
    bool ok = true;
    switch (t->kind) {
    case Name_kind:
        ok = compile_nameop(c, t->v.Name.id, AST_Del, t);
        break;
    case Attribute_kind:
        ok = compile_expr(c, t->v.Attribute.value);
        c->u->lineno = t->lineno;
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
    c->u->lineno = e->lineno;
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
    case CONST_FLOAT: return v->f != 0.0;
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
    for (int i = decs.n - 1; i >= 0; i--) {
        c->u->lineno = decs.items[i]->lineno;
        TRY(emit(c, OP_CALL, 1));
    }
    c->u->lineno = save;
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
            expr_ty d = a->defaults.items[i];
            if (d->kind != Constant_kind && d->kind != Tuple_kind && d->kind != UnaryOp_kind)
                all_const = false;
            else if (!(items[i] = fold_const(c, d, 0)))
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

static void set_arg_counts(Unit *u, arguments_ty a)
{
    u->posonlyargcount = a->posonlyargs.n;
    u->argcount = a->posonlyargs.n + a->args.n;
    u->kwonlyargcount = a->kwonlyargs.n;
}

static bool compile_function(Compiler *c, stmt_ty s)
{
    arguments_ty a = s->v.FunctionDef.args;
    expr_seq decs = s->v.FunctionDef.decorator_list;
    TRY(compile_decorators(c, decs));
    c->u->lineno = s->lineno;
    int flags = compile_defaults(c, a);
    if (flags < 0)
        return false;
    int firstline = decs.n ? decs.items[0]->lineno : s->lineno;
    TRY(enter_unit(c, symtable_lookup(c->st, s), U_FUNCTION, s->v.FunctionDef.name, firstline));
    set_arg_counts(c->u, a);
    const stmt_seq *body = &s->v.FunctionDef.body;
    const constant *doc = docstring_of(body);
    /* consts[0]: the docstring or None */
    if (add_const(c, doc ? const_str(c, doc->s, doc->len) : const_simple(c, K_NONE)) < 0)
        return false;
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

static bool compile_class(Compiler *c, stmt_ty s)
{
    expr_seq decs = s->v.ClassDef.decorator_list;
    TRY(compile_decorators(c, decs));
    int firstline = decs.n ? decs.items[0]->lineno : s->lineno;
    Scope *ste = symtable_lookup(c->st, s);
    TRY(enter_unit(c, ste, U_CLASS, s->v.ClassDef.name, firstline));
    Unit *u = c->u;
    u->lineno = s->lineno;
    TRY(emit_name_index(c, OP_LOAD_NAME, "__name__") && emit_name_index(c, OP_STORE_NAME, "__module__"));
    TRY(emit_str_const(c, u->qualname) && emit_name_index(c, OP_STORE_NAME, "__qualname__"));
    const stmt_seq *body = &s->v.ClassDef.body;
    const constant *doc = docstring_of(body);
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
        c->u->lineno = t->lineno;
        TRY(emit(c, OP_DUP_TOP, 0) && emit_attr_op(c, OP_LOAD_ATTR, t->v.Attribute.attr));
        TRY(compile_expr(c, s->v.AugAssign.value));
        c->u->lineno = s->lineno;
        TRY(emit(c, OP_BINARY_OP, op) && emit(c, OP_ROT_TWO, 0));
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

static bool compile_annassign(Compiler *c, stmt_ty s)
{
    expr_ty t = s->v.AnnAssign.target;
    /* annotations are not evaluated (tmpy keeps no __annotations__) */
    if (s->v.AnnAssign.value) {
        TRY(compile_expr(c, s->v.AnnAssign.value));
        return compile_store(c, t);
    }
    if (t->kind == Attribute_kind)
        return compile_expr(c, t->v.Attribute.value) && emit(c, OP_POP_TOP, 0);
    if (t->kind == Subscript_kind)
        return compile_expr(c, t->v.Subscript.value) && emit(c, OP_POP_TOP, 0) &&
               compile_expr(c, t->v.Subscript.slice) && emit(c, OP_POP_TOP, 0);
    return true;
}

static bool compile_for(Compiler *c, stmt_ty s)
{
    NEW_LABEL(start);
    NEW_LABEL(cleanup);
    NEW_LABEL(end);
    TRY(compile_expr(c, s->v.For.iter));
    c->u->lineno = s->lineno;
    TRY(emit(c, OP_GET_ITER, 0));
    bind_label(c, start);
    TRY(emit(c, OP_FOR_ITER, cleanup));
    TRY(compile_store(c, s->v.For.target));
    TRY(PUSH_FBLOCK(c, FB_FOR, start, end, s));
    TRY(compile_stmts(c, &s->v.For.body, 0));
    pop_fblock(c);
    c->u->lineno = s->lineno;
    TRY(emit(c, OP_JUMP, start));
    bind_label(c, cleanup);
    TRY(compile_stmts(c, &s->v.For.orelse, 0));
    bind_label(c, end);
    return true;
}

static bool compile_while(Compiler *c, stmt_ty s)
{
    NEW_LABEL(start);
    NEW_LABEL(anchor);
    NEW_LABEL(end);
    bind_label(c, start);
    if (const_truth(s->v.While.test) != 1)
        TRY(jump_if(c, s->v.While.test, anchor, false));
    TRY(PUSH_FBLOCK(c, FB_WHILE, start, end, s));
    TRY(compile_stmts(c, &s->v.While.body, 0));
    pop_fblock(c);
    c->u->lineno = s->lineno;
    TRY(emit(c, OP_JUMP, start));
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

static bool compile_try_finally(Compiler *c, stmt_ty s)
{
    NEW_LABEL(handler);
    NEW_LABEL(end);
    c->u->lineno = s->lineno;
    TRY(emit(c, OP_SETUP_FINALLY, handler));
    TRY(PUSH_FBLOCK(c, FB_FINALLY_TRY, -1, -1, s));
    c->u->fblocks[c->u->nfblocks - 1].finalbody = &s->v.Try.finalbody;
    if (s->v.Try.handlers.n)
        TRY(compile_try_except(c, s));
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
    static const char *const features[] = {
        "nested_scopes", "generators", "division", "absolute_import", "with_statement",
        "print_function", "unicode_literals", "barry_as_FLUFL", "generator_stop", "annotations", NULL
    };
    for (int i = 0; i < s->v.ImportFrom.names.n; i++) {
        alias_ty a = s->v.ImportFrom.names.items[i];
        if (strcmp(a->name, "braces") == 0)
            return SYNERR(c, s, "not a chance");
        bool known = false;
        for (int k = 0; features[k]; k++)
            known = known || strcmp(a->name, features[k]) == 0;
        if (!known)
            return SYNERR(c, s, "future feature %s is not defined", a->name);
    }
    return true;
}

static bool compile_importfrom(Compiler *c, stmt_ty s)
{
    const char *module = s->v.ImportFrom.module ? s->v.ImportFrom.module : "";
    alias_seq names = s->v.ImportFrom.names;
    if (s->v.ImportFrom.level == 0 && strcmp(module, "__future__") == 0)
        return compile_future(c, s);
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
    if (s->v.Return.value) {
        TRY(compile_expr(c, s->v.Return.value));
        c->u->lineno = s->lineno;
        TRY(unwind_fblock_stack(c, true, NULL));
    } else {
        TRY(unwind_fblock_stack(c, false, NULL));
        TRY(emit_none(c));
    }
    c->u->lineno = s->lineno;
    return emit(c, OP_RETURN_VALUE, 0);
}

static bool compile_break_continue(Compiler *c, stmt_ty s, bool is_break)
{
    FBlock *loop = NULL;
    TRY(unwind_fblock_stack(c, false, &loop));
    if (!loop)
        return SYNERR(c, s, is_break ? "'break' outside loop" : "'continue' not properly in loop");
    c->u->lineno = s->lineno;
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

static bool compile_stmt(Compiler *c, stmt_ty s)
{
    TRY(enter_nested(c, s->lineno, s->col_offset));
    c->u->lineno = s->lineno;
    bool ok = true;
    switch (s->kind) {
    case FunctionDef_kind:
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
    case Assert_kind: {
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
    }
    c->depth--;
    return ok;
}
