/* tmpy: the symbol table. Two passes over the AST, as CPython's:
 *  1. build: one Scope per module / class / function / lambda /
 *     comprehension, recording what each scope does with each name
 *     (assigns, reads, declares global/nonlocal, takes as a parameter);
 *  2. analyze: decide each name's SymScope, top-down with the set of names
 *     bound by the enclosing functions, bottom-up with the names that inner
 *     scopes need from the outside (which turns locals into cells).
 * Both passes report the SyntaxErrors CPython's symtable reports.
 */
#include "symtable.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */
/* ------------------------------------------------------------------ */

uint32_t symtable_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* Grow a malloc'd array so that it holds at least `need` items. */
static bool grow(void **p, int *cap, int need, size_t item)
{
    if (need <= *cap)
        return true;
    int n = *cap ? *cap * 2 : 8;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, (size_t)n * item);
    if (!q)
        return false;
    *p = q;
    *cap = n;
    return true;
}

typedef struct Builder {
    SymTable *st;
    Scope *cur;
    CompileError *err;
    int depth;
    bool in_comp_target;   /* visiting a comprehension's `for` target */
} Builder;

static bool set_error(CompileError *err, int kind, int lineno, int col, int end_lineno, int end_col,
                      const char *fmt, ...) __attribute__((format(printf, 7, 8)));
static bool set_error(CompileError *err, int kind, int lineno, int col, int end_lineno, int end_col,
                      const char *fmt, ...)
{
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
    err->msg_only_args = 1;
    return false;
}

static bool nomem(Builder *b)
{
    return set_error(b->err, CERR_MEMORY, 0, 0, 0, 0, "out of memory");
}

#define ERR_AT(b, node, ...)                                                                 \
    set_error((b)->err, CERR_SYNTAX, (node)->lineno, (node)->col_offset, (node)->end_lineno, \
              (node)->end_col_offset, __VA_ARGS__)

/* ------------------------------------------------------------------ */
/* Scopes and symbols                                                  */
/* ------------------------------------------------------------------ */

static int sym_find_slot(Scope *s, const char *name, uint32_t h)
{
    int mask = s->nslots - 1;
    int i = (int)(h & (uint32_t)mask);
    for (;;) {
        int ix = s->slots[i];
        if (ix < 0)
            return i;
        if (s->syms[ix].hash == h && strcmp(s->syms[ix].name, name) == 0)
            return i;
        i = (i + 1) & mask;
    }
}

Symbol *scope_symbol(Scope *s, const char *name)
{
    if (!s->nslots)
        return NULL;
    uint32_t h = symtable_hash(name);
    int ix = s->slots[sym_find_slot(s, name, h)];
    return ix < 0 ? NULL : &s->syms[ix];
}

/* The symbol for `name` (already mangled), created if missing. */
static Symbol *scope_intern(Scope *s, const char *name)
{
    uint32_t h = symtable_hash(name);
    if (s->nslots) {
        int ix = s->slots[sym_find_slot(s, name, h)];
        if (ix >= 0)
            return &s->syms[ix];
    }
    if ((s->nsyms + 1) * 2 > s->nslots) {
        int n = s->nslots ? s->nslots * 2 : 16;
        int *slots = malloc((size_t)n * sizeof(int));
        if (!slots)
            return NULL;
        for (int i = 0; i < n; i++)
            slots[i] = -1;
        free(s->slots);
        s->slots = slots;
        s->nslots = n;
        for (int k = 0; k < s->nsyms; k++)
            s->slots[sym_find_slot(s, s->syms[k].name, s->syms[k].hash)] = k;
    }
    if (!grow((void **)&s->syms, &s->capsyms, s->nsyms + 1, sizeof(Symbol)))
        return NULL;
    Symbol *sym = &s->syms[s->nsyms];
    memset(sym, 0, sizeof *sym);
    sym->name = name;
    sym->hash = h;
    s->slots[sym_find_slot(s, name, h)] = s->nsyms++;
    return sym;
}

static bool keep_string(SymTable *st, char *p)
{
    if (!grow((void **)&st->owned, &st->capowned, st->nowned + 1, sizeof(char *))) {
        free(p);
        return false;
    }
    st->owned[st->nowned++] = p;
    return true;
}

const char *symtable_mangle(SymTable *st, const char *private_name, const char *name)
{
    if (!private_name || name[0] != '_' || name[1] != '_')
        return name;
    size_t n = strlen(name);
    if ((n >= 2 && name[n - 1] == '_' && name[n - 2] == '_') || strchr(name, '.'))
        return name;
    while (*private_name == '_')
        private_name++;
    if (!*private_name)
        return name;
    size_t pn = strlen(private_name);
    char *p = malloc(1 + pn + n + 1);
    if (!p)
        return NULL;
    p[0] = '_';
    memcpy(p + 1, private_name, pn);
    memcpy(p + 1 + pn, name, n + 1);
    if (!keep_string(st, p))
        return NULL;
    return p;
}

static bool map_key(SymTable *st, Scope *s)
{
    if ((st->nkeys + 1) * 2 > st->capkeys) {
        int n = st->capkeys ? st->capkeys * 2 : 32;
        Scope **t = calloc((size_t)n, sizeof(Scope *));
        if (!t)
            return false;
        for (int i = 0; i < st->capkeys; i++) {
            Scope *o = st->by_key[i];
            if (!o)
                continue;
            uint32_t j = (uint32_t)(((uintptr_t)o->key >> 4) * 2654435761u) & (uint32_t)(n - 1);
            while (t[j])
                j = (j + 1) & (uint32_t)(n - 1);
            t[j] = o;
        }
        free(st->by_key);
        st->by_key = t;
        st->capkeys = n;
    }
    uint32_t j = (uint32_t)(((uintptr_t)s->key >> 4) * 2654435761u) & (uint32_t)(st->capkeys - 1);
    while (st->by_key[j])
        j = (j + 1) & (uint32_t)(st->capkeys - 1);
    st->by_key[j] = s;
    st->nkeys++;
    return true;
}

Scope *symtable_lookup(SymTable *st, const void *key)
{
    if (!st->capkeys)
        return NULL;
    uint32_t j = (uint32_t)(((uintptr_t)key >> 4) * 2654435761u) & (uint32_t)(st->capkeys - 1);
    while (st->by_key[j]) {
        if (st->by_key[j]->key == key)
            return st->by_key[j];
        j = (j + 1) & (uint32_t)(st->capkeys - 1);
    }
    return NULL;
}

static Scope *enter_scope(Builder *b, const char *name, BlockType type, const void *key, int lineno, int col)
{
    Scope *s = calloc(1, sizeof(Scope));
    if (!s) {
        nomem(b);
        return NULL;
    }
    s->type = type;
    s->name = name;
    s->key = key;
    s->lineno = lineno;
    s->col_offset = col;
    s->parent = b->cur;
    if (b->cur) {
        Scope *p = b->cur;
        if (!grow((void **)&p->children, &p->capchildren, p->nchildren + 1, sizeof(Scope *))) {
            free(s);
            nomem(b);
            return NULL;
        }
        p->children[p->nchildren++] = s;
        s->private_name = p->private_name;
    } else {
        b->st->top = s;
    }
    if (!map_key(b->st, s)) {
        nomem(b);
        return NULL;
    }
    b->cur = s;
    return s;
}

static void exit_scope(Builder *b)
{
    b->cur = b->cur->parent;
}

/* Record `flag` for `name` in scope s (name not yet mangled). */
static bool add_def_in(Builder *b, Scope *s, const char *name, int flag, int lineno, int col,
                       int end_lineno, int end_col)
{
    const char *m = symtable_mangle(b->st, s->private_name, name);
    if (!m)
        return nomem(b);
    Symbol *sym = scope_intern(s, m);
    if (!sym)
        return nomem(b);
    if ((flag & DEF_PARAM) && (sym->flags & DEF_PARAM))
        return set_error(b->err, CERR_SYNTAX, lineno, col, end_lineno, end_col,
                         "duplicate argument '%s' in function definition", name);
    sym->flags |= flag;
    if ((flag & (DEF_GLOBAL | DEF_NONLOCAL)) && !sym->dir_lineno) {
        sym->dir_lineno = lineno;
        sym->dir_col = col;
        sym->dir_end_lineno = end_lineno;
        sym->dir_end_col = end_col;
    }
    if (flag & DEF_PARAM) {
        if (!grow((void **)&s->params, &s->capparams, s->nparams + 1, sizeof(char *)))
            return nomem(b);
        s->params[s->nparams++] = m;
    }
    return true;
}

#define ADD_DEF(b, name, flag, node)                                                     \
    add_def_in((b), (b)->cur, (name), (flag), (node)->lineno, (node)->col_offset, \
               (node)->end_lineno, (node)->end_col_offset)

/* ------------------------------------------------------------------ */
/* Pass 1: walk the AST                                                */
/* ------------------------------------------------------------------ */

static bool visit_stmt(Builder *b, stmt_ty s);
static bool visit_expr(Builder *b, expr_ty e);

static bool visit_stmts(Builder *b, stmt_seq seq)
{
    for (int i = 0; i < seq.n; i++)
        if (!visit_stmt(b, seq.items[i]))
            return false;
    return true;
}

static bool visit_exprs(Builder *b, expr_seq seq)
{
    for (int i = 0; i < seq.n; i++)
        if (seq.items[i] && !visit_expr(b, seq.items[i]))
            return false;
    return true;
}

static bool visit_keywords(Builder *b, keyword_seq seq)
{
    for (int i = 0; i < seq.n; i++)
        if (!visit_expr(b, seq.items[i]->value))
            return false;
    return true;
}

static bool visit_params(Builder *b, arguments_ty a)
{
    /* localsplus order: positional (posonly, then the others), kw-only, *args, **kwargs */
    arg_seq groups[3] = { a->posonlyargs, a->args, a->kwonlyargs };
    for (int g = 0; g < 3; g++)
        for (int i = 0; i < groups[g].n; i++)
            if (!ADD_DEF(b, groups[g].items[i]->arg, DEF_PARAM, groups[g].items[i]))
                return false;
    if (a->vararg) {
        if (!ADD_DEF(b, a->vararg->arg, DEF_PARAM, a->vararg))
            return false;
        b->cur->has_varargs = true;
    }
    if (a->kwarg) {
        if (!ADD_DEF(b, a->kwarg->arg, DEF_PARAM, a->kwarg))
            return false;
        b->cur->has_varkeywords = true;
    }
    return true;
}

static bool visit_defaults(Builder *b, arguments_ty a)
{
    return visit_exprs(b, a->defaults) && visit_exprs(b, a->kw_defaults);
}

/* global / nonlocal statements. */
static bool visit_directive(Builder *b, stmt_ty s, bool is_global)
{
    identifier_seq names = is_global ? s->v.Global.names : s->v.Nonlocal.names;
    const char *what = is_global ? "global" : "nonlocal";
    if (!is_global && b->cur->type == BLOCK_MODULE)
        return ERR_AT(b, s, "nonlocal declaration not allowed at module level");
    for (int i = 0; i < names.n; i++) {
        const char *name = names.items[i];
        const char *m = symtable_mangle(b->st, b->cur->private_name, name);
        if (!m)
            return nomem(b);
        Symbol *sym = scope_symbol(b->cur, m);
        int cur = sym ? sym->flags : 0;
        if (cur & (DEF_PARAM | DEF_LOCAL | SYM_USE | DEF_ANNOT)) {
            if (cur & DEF_PARAM)
                return ERR_AT(b, s, "name '%s' is parameter and %s", name, what);
            if (cur & SYM_USE)
                return ERR_AT(b, s, "name '%s' is used prior to %s declaration", name, what);
            if (cur & DEF_ANNOT)
                return ERR_AT(b, s, "annotated name '%s' can't be %s", name, what);
            return ERR_AT(b, s, "name '%s' is assigned to before %s declaration", name, what);
        }
        if (!ADD_DEF(b, name, is_global ? DEF_GLOBAL : DEF_NONLOCAL, s))
            return false;
    }
    return true;
}

static bool visit_pattern(Builder *b, pattern_ty p);

static bool visit_patterns(Builder *b, pattern_seq seq)
{
    for (int i = 0; i < seq.n; i++)
        if (!visit_pattern(b, seq.items[i]))
            return false;
    return true;
}

/* Names a pattern captures are locals of the scope, like assignment targets. */
static bool visit_pattern(Builder *b, pattern_ty p)
{
    if (++b->depth > COMPILER_MAX_NESTING) {
        return set_error(b->err, CERR_RECURSION, p->lineno, p->col_offset, p->end_lineno,
                         p->end_col_offset, "maximum recursion depth exceeded during compilation");
    }
    bool ok = true;
    switch (p->kind) {
    case MatchValue_kind:
        ok = visit_expr(b, p->v.MatchValue.value);
        break;
    case MatchSingleton_kind:
        break;
    case MatchSequence_kind:
        ok = visit_patterns(b, p->v.MatchSequence.patterns);
        break;
    case MatchMapping_kind:
        ok = visit_exprs(b, p->v.MatchMapping.keys) && visit_patterns(b, p->v.MatchMapping.patterns) &&
             (!p->v.MatchMapping.rest || ADD_DEF(b, p->v.MatchMapping.rest, DEF_LOCAL, p));
        break;
    case MatchClass_kind:
        ok = visit_expr(b, p->v.MatchClass.cls) && visit_patterns(b, p->v.MatchClass.patterns) &&
             visit_patterns(b, p->v.MatchClass.kwd_patterns);
        break;
    case MatchStar_kind:
        if (p->v.MatchStar.name)
            ok = ADD_DEF(b, p->v.MatchStar.name, DEF_LOCAL, p);
        break;
    case MatchAs_kind:
        ok = (!p->v.MatchAs.pattern || visit_pattern(b, p->v.MatchAs.pattern)) &&
             (!p->v.MatchAs.name || ADD_DEF(b, p->v.MatchAs.name, DEF_LOCAL, p));
        break;
    case MatchOr_kind:
        ok = visit_patterns(b, p->v.MatchOr.patterns);
        break;
    }
    b->depth--;
    return ok;
}

/* A def's annotations are evaluated where the def runs (unless they are
 * strings under `from __future__ import annotations`). */
static bool visit_arg_annotations(Builder *b, arg_seq args)
{
    for (int i = 0; i < args.n; i++)
        if (args.items[i]->annotation && !visit_expr(b, args.items[i]->annotation))
            return false;
    return true;
}

/* Under `from __future__ import annotations` an annotation is only text,
 * never evaluated, so it records no names; CPython still refuses these in
 * it (not inside a lambda or comprehension, which are scopes of their own). */
static bool check_future_annotation(Builder *b, expr_ty e)
{
    const char *what = NULL;
    switch (e->kind) {
    case NamedExpr_kind: what = "named expression"; break;
    case Yield_kind: case YieldFrom_kind: what = "yield expression"; break;
    case Await_kind: what = "await expression"; break;
    default: break;
    }
    if (what)
        return ERR_AT(b, e, "'%s' can not be used within an annotation", what);
    if (++b->depth > COMPILER_MAX_NESTING)
        return set_error(b->err, CERR_RECURSION, e->lineno, e->col_offset, e->end_lineno, e->end_col_offset,
                         "maximum recursion depth exceeded during compilation");
    expr_ty kids[3] = {NULL, NULL, NULL};
    const expr_seq *seqs[2] = {NULL, NULL};
    const keyword_seq *kws = NULL;
    switch (e->kind) {
    case BoolOp_kind: seqs[0] = &e->v.BoolOp.values; break;
    case BinOp_kind: kids[0] = e->v.BinOp.left; kids[1] = e->v.BinOp.right; break;
    case UnaryOp_kind: kids[0] = e->v.UnaryOp.operand; break;
    case IfExp_kind: kids[0] = e->v.IfExp.test; kids[1] = e->v.IfExp.body; kids[2] = e->v.IfExp.orelse; break;
    case Dict_kind: seqs[0] = &e->v.Dict.keys; seqs[1] = &e->v.Dict.values; break;
    case Set_kind: seqs[0] = &e->v.Set.elts; break;
    case Compare_kind: kids[0] = e->v.Compare.left; seqs[0] = &e->v.Compare.comparators; break;
    case Call_kind: kids[0] = e->v.Call.func; seqs[0] = &e->v.Call.args; kws = &e->v.Call.keywords; break;
    case FormattedValue_kind: kids[0] = e->v.FormattedValue.value; kids[1] = e->v.FormattedValue.format_spec; break;
    case JoinedStr_kind: seqs[0] = &e->v.JoinedStr.values; break;
    case Attribute_kind: kids[0] = e->v.Attribute.value; break;
    case Subscript_kind: kids[0] = e->v.Subscript.value; kids[1] = e->v.Subscript.slice; break;
    case Starred_kind: kids[0] = e->v.Starred.value; break;
    case List_kind: seqs[0] = &e->v.List.elts; break;
    case Tuple_kind: seqs[0] = &e->v.Tuple.elts; break;
    case Slice_kind: kids[0] = e->v.Slice.lower; kids[1] = e->v.Slice.upper; kids[2] = e->v.Slice.step; break;
    default: break;   /* names, constants; lambdas and comprehensions are scopes of their own */
    }
    bool ok = true;
    for (int i = 0; ok && i < 3; i++)
        if (kids[i])
            ok = check_future_annotation(b, kids[i]);
    for (int k = 0; ok && k < 2; k++)
        for (int i = 0; ok && seqs[k] && i < seqs[k]->n; i++)
            if (seqs[k]->items[i])
                ok = check_future_annotation(b, seqs[k]->items[i]);
    for (int i = 0; ok && kws && i < kws->n; i++)
        ok = check_future_annotation(b, kws->items[i]->value);
    b->depth--;
    return ok;
}

static bool visit_annotation(Builder *b, expr_ty e)
{
    return b->st->future_annotations ? check_future_annotation(b, e) : visit_expr(b, e);
}

static bool visit_annotations(Builder *b, arguments_ty a, expr_ty returns)
{
    if (b->st->future_annotations) {
        arg_seq groups[3] = {a->posonlyargs, a->args, a->kwonlyargs};
        for (int g = 0; g < 3; g++)
            for (int i = 0; i < groups[g].n; i++)
                if (groups[g].items[i]->annotation && !check_future_annotation(b, groups[g].items[i]->annotation))
                    return false;
        return (!a->vararg || !a->vararg->annotation || check_future_annotation(b, a->vararg->annotation)) &&
               (!a->kwarg || !a->kwarg->annotation || check_future_annotation(b, a->kwarg->annotation)) &&
               (!returns || check_future_annotation(b, returns));
    }
    return visit_arg_annotations(b, a->posonlyargs) && visit_arg_annotations(b, a->args) &&
           (!a->vararg || !a->vararg->annotation || visit_expr(b, a->vararg->annotation)) &&
           visit_arg_annotations(b, a->kwonlyargs) &&
           (!a->kwarg || !a->kwarg->annotation || visit_expr(b, a->kwarg->annotation)) &&
           (!returns || visit_expr(b, returns));
}

static bool visit_stmt(Builder *b, stmt_ty s)
{
    if (++b->depth > COMPILER_MAX_NESTING) {
        return set_error(b->err, CERR_RECURSION, s->lineno, s->col_offset, s->end_lineno,
                         s->end_col_offset, "maximum recursion depth exceeded during compilation");
    }
    bool ok = true;
    switch (s->kind) {
    case FunctionDef_kind:
    case AsyncFunctionDef_kind: {
        arguments_ty a = s->v.FunctionDef.args;
        if (!ADD_DEF(b, s->v.FunctionDef.name, DEF_LOCAL, s) || !visit_defaults(b, a) ||
            !visit_exprs(b, s->v.FunctionDef.decorator_list))
            return false;
        if (!visit_annotations(b, a, s->v.FunctionDef.returns))
            return false;
        Scope *fs = enter_scope(b, s->v.FunctionDef.name, BLOCK_FUNCTION, s, s->lineno, s->col_offset);
        if (!fs)
            return false;
        if (s->kind == AsyncFunctionDef_kind)
            fs->is_async_def = fs->is_coroutine = true;
        ok = visit_params(b, a) && visit_stmts(b, s->v.FunctionDef.body);
        exit_scope(b);
        break;
    }
    case ClassDef_kind: {
        if (!ADD_DEF(b, s->v.ClassDef.name, DEF_LOCAL, s) || !visit_exprs(b, s->v.ClassDef.bases) ||
            !visit_keywords(b, s->v.ClassDef.keywords) || !visit_exprs(b, s->v.ClassDef.decorator_list))
            return false;
        Scope *c = enter_scope(b, s->v.ClassDef.name, BLOCK_CLASS, s, s->lineno, s->col_offset);
        if (!c)
            return false;
        c->private_name = s->v.ClassDef.name;
        ok = visit_stmts(b, s->v.ClassDef.body);
        exit_scope(b);
        break;
    }
    case Return_kind:
        if (s->v.Return.value)
            ok = visit_expr(b, s->v.Return.value);
        break;
    case Delete_kind:
        ok = visit_exprs(b, s->v.Delete.targets);
        break;
    case Assign_kind:
        ok = visit_exprs(b, s->v.Assign.targets) && visit_expr(b, s->v.Assign.value);
        break;
    case AugAssign_kind:
        ok = visit_expr(b, s->v.AugAssign.target) && visit_expr(b, s->v.AugAssign.value);
        break;
    case AnnAssign_kind: {
        expr_ty t = s->v.AnnAssign.target;
        if (t->kind == Name_kind) {
            const char *m = symtable_mangle(b->st, b->cur->private_name, t->v.Name.id);
            if (!m)
                return nomem(b);
            Symbol *sym = scope_symbol(b->cur, m);
            if (sym && (sym->flags & (DEF_GLOBAL | DEF_NONLOCAL)) && b->cur->type != BLOCK_MODULE &&
                s->v.AnnAssign.simple)
                return ERR_AT(b, s, "annotated name '%s' can't be %s", t->v.Name.id,
                              (sym->flags & DEF_GLOBAL) ? "global" : "nonlocal");
            if (s->v.AnnAssign.simple)
                ok = ADD_DEF(b, t->v.Name.id, DEF_ANNOT | DEF_LOCAL, t);
            else if (s->v.AnnAssign.value)
                ok = ADD_DEF(b, t->v.Name.id, DEF_LOCAL, t);
        } else {
            ok = visit_expr(b, t);
        }
        if (ok)
            ok = visit_annotation(b, s->v.AnnAssign.annotation);
        if (ok && s->v.AnnAssign.value)
            ok = visit_expr(b, s->v.AnnAssign.value);
        break;
    }
    case For_kind:
    case AsyncFor_kind:
        ok = visit_expr(b, s->v.For.target) && visit_expr(b, s->v.For.iter) &&
             visit_stmts(b, s->v.For.body) && visit_stmts(b, s->v.For.orelse);
        break;
    case While_kind:
        ok = visit_expr(b, s->v.While.test) && visit_stmts(b, s->v.While.body) &&
             visit_stmts(b, s->v.While.orelse);
        break;
    case If_kind:
        ok = visit_expr(b, s->v.If.test) && visit_stmts(b, s->v.If.body) && visit_stmts(b, s->v.If.orelse);
        break;
    case With_kind:
    case AsyncWith_kind:
        for (int i = 0; ok && i < s->v.With.items.n; i++) {
            withitem_ty w = s->v.With.items.items[i];
            ok = visit_expr(b, w->context_expr) && (!w->optional_vars || visit_expr(b, w->optional_vars));
        }
        ok = ok && visit_stmts(b, s->v.With.body);
        break;
    case Raise_kind:
        ok = (!s->v.Raise.exc || visit_expr(b, s->v.Raise.exc)) &&
             (!s->v.Raise.cause || visit_expr(b, s->v.Raise.cause));
        break;
    case Try_kind:
    case TryStar_kind:
        ok = visit_stmts(b, s->v.Try.body) && visit_stmts(b, s->v.Try.orelse);
        for (int i = 0; ok && i < s->v.Try.handlers.n; i++) {
            excepthandler_ty h = s->v.Try.handlers.items[i];
            if (h->type && !visit_expr(b, h->type))
                return false;
            if (h->name && !ADD_DEF(b, h->name, DEF_LOCAL, h))
                return false;
            ok = visit_stmts(b, h->body);
        }
        ok = ok && visit_stmts(b, s->v.Try.finalbody);
        break;
    case Assert_kind:
        ok = visit_expr(b, s->v.Assert.test) && (!s->v.Assert.msg || visit_expr(b, s->v.Assert.msg));
        break;
    case Import_kind:
    case ImportFrom_kind: {
        alias_seq names = s->kind == Import_kind ? s->v.Import.names : s->v.ImportFrom.names;
        for (int i = 0; i < names.n; i++) {
            alias_ty a = names.items[i];
            if (strcmp(a->name, "*") == 0) {
                if (b->cur->type != BLOCK_MODULE)
                    return ERR_AT(b, a, "import * only allowed at module level");
                continue;
            }
            const char *store = a->asname;
            char *tmp = NULL;
            if (!store) {
                const char *dot = strchr(a->name, '.');
                if (dot) {
                    tmp = strndup(a->name, (size_t)(dot - a->name));
                    if (!tmp || !keep_string(b->st, tmp))
                        return nomem(b);
                    store = tmp;
                } else {
                    store = a->name;
                }
            }
            if (!ADD_DEF(b, store, DEF_IMPORT, a))
                return false;
        }
        break;
    }
    case Global_kind:
        ok = visit_directive(b, s, true);
        break;
    case Nonlocal_kind:
        ok = visit_directive(b, s, false);
        break;
    case Expr_kind:
        ok = visit_expr(b, s->v.Expr.value);
        break;
    case Match_kind:
        ok = visit_expr(b, s->v.Match.subject);
        for (int i = 0; ok && i < s->v.Match.cases.n; i++) {
            match_case_ty m = s->v.Match.cases.items[i];
            ok = visit_pattern(b, m->pattern) && (!m->guard || visit_expr(b, m->guard)) &&
                 visit_stmts(b, m->body);
        }
        break;
    case Pass_kind:
    case Break_kind:
    case Continue_kind:
        break;
    }
    b->depth--;
    return ok;
}

static const char *comp_scope_name(CompKind k)
{
    switch (k) {
    case COMP_LIST: return "<listcomp>";
    case COMP_SET: return "<setcomp>";
    case COMP_DICT: return "<dictcomp>";
    default: return "<genexpr>";
    }
}

static bool visit_comp_target(Builder *b, expr_ty t)
{
    bool save = b->in_comp_target;
    b->in_comp_target = true;
    bool ok = visit_expr(b, t);
    b->in_comp_target = save;
    return ok;
}

static bool visit_comprehension(Builder *b, expr_ty e, CompKind kind, comprehension_seq gens, expr_ty elt,
                                expr_ty value)
{
    comprehension_ty outer = gens.items[0];
    /* The outermost iterable is evaluated in the enclosing scope. */
    b->cur->comp_iter_expr++;
    bool ok = visit_expr(b, outer->iter);
    b->cur->comp_iter_expr--;
    if (!ok)
        return false;
    Scope *s = enter_scope(b, comp_scope_name(kind), BLOCK_FUNCTION, e, e->lineno, e->col_offset);
    if (!s)
        return false;
    s->comp = kind;
    if (kind == COMP_GENEXPR)
        s->is_generator = true;
    if (outer->is_async)
        s->is_coroutine = true;
    ok = add_def_in(b, s, ".0", DEF_PARAM, e->lineno, e->col_offset, e->end_lineno, e->end_col_offset) &&
         visit_comp_target(b, outer->target) && visit_exprs(b, outer->ifs);
    for (int i = 1; ok && i < gens.n; i++) {
        comprehension_ty g = gens.items[i];
        if (g->is_async)
            s->is_coroutine = true;
        ok = visit_comp_target(b, g->target);
        if (!ok)
            break;
        s->comp_iter_expr++;
        ok = visit_expr(b, g->iter);
        s->comp_iter_expr--;
        ok = ok && visit_exprs(b, g->ifs);
    }
    if (ok && value)
        ok = visit_expr(b, value);
    ok = ok && visit_expr(b, elt);
    exit_scope(b);
    /* An async list/set/dict comprehension is awaited where it is built. */
    if (s->is_coroutine && kind != COMP_GENEXPR)
        b->cur->is_coroutine = true;
    return ok;
}

/* A walrus inside a comprehension binds in the nearest enclosing function
 * (or module) scope. */
static bool extend_namedexpr_scope(Builder *b, expr_ty target)
{
    const char *name = target->v.Name.id;
    for (Scope *s = b->cur; s; s = s->parent) {
        if (s->comp != COMP_NONE) {
            const char *m = symtable_mangle(b->st, s->private_name, name);
            if (!m)
                return nomem(b);
            Symbol *sym = scope_symbol(s, m);
            if (sym && (sym->flags & DEF_COMP_ITER))
                return ERR_AT(b, target, "assignment expression cannot rebind comprehension iteration variable '%s'",
                              name);
            continue;
        }
        if (s->type == BLOCK_FUNCTION) {
            const char *m = symtable_mangle(b->st, s->private_name, name);
            if (!m)
                return nomem(b);
            Symbol *sym = scope_symbol(s, m);
            int f = (sym && (sym->flags & DEF_GLOBAL)) ? DEF_GLOBAL : DEF_NONLOCAL;
            return ADD_DEF(b, name, f, target) &&
                   add_def_in(b, s, name, DEF_LOCAL, target->lineno, target->col_offset, target->end_lineno,
                              target->end_col_offset);
        }
        if (s->type == BLOCK_MODULE) {
            return ADD_DEF(b, name, DEF_GLOBAL, target) &&
                   add_def_in(b, s, name, DEF_GLOBAL, target->lineno, target->col_offset, target->end_lineno,
                              target->end_col_offset);
        }
        return ERR_AT(b, target, "assignment expression within a comprehension cannot be used in a class body");
    }
    return true;
}

static bool visit_expr(Builder *b, expr_ty e)
{
    if (++b->depth > COMPILER_MAX_NESTING) {
        return set_error(b->err, CERR_RECURSION, e->lineno, e->col_offset, e->end_lineno,
                         e->end_col_offset, "maximum recursion depth exceeded during compilation");
    }
    bool ok = true;
    switch (e->kind) {
    case BoolOp_kind:
        ok = visit_exprs(b, e->v.BoolOp.values);
        break;
    case NamedExpr_kind:
        if (b->cur->comp_iter_expr > 0)
            return ERR_AT(b, e, "assignment expression cannot be used in a comprehension iterable expression");
        if (b->cur->comp != COMP_NONE && !extend_namedexpr_scope(b, e->v.NamedExpr.target))
            return false;
        ok = visit_expr(b, e->v.NamedExpr.value) && visit_expr(b, e->v.NamedExpr.target);
        break;
    case BinOp_kind:
        ok = visit_expr(b, e->v.BinOp.left) && visit_expr(b, e->v.BinOp.right);
        break;
    case UnaryOp_kind:
        ok = visit_expr(b, e->v.UnaryOp.operand);
        break;
    case Lambda_kind: {
        arguments_ty a = e->v.Lambda.args;
        if (!visit_defaults(b, a))
            return false;
        Scope *s = enter_scope(b, "<lambda>", BLOCK_FUNCTION, e, e->lineno, e->col_offset);
        if (!s)
            return false;
        s->is_lambda = true;
        ok = visit_params(b, a) && visit_expr(b, e->v.Lambda.body);
        exit_scope(b);
        break;
    }
    case IfExp_kind:
        ok = visit_expr(b, e->v.IfExp.test) && visit_expr(b, e->v.IfExp.body) && visit_expr(b, e->v.IfExp.orelse);
        break;
    case Dict_kind:
        ok = visit_exprs(b, e->v.Dict.keys) && visit_exprs(b, e->v.Dict.values);
        break;
    case Set_kind:
        ok = visit_exprs(b, e->v.Set.elts);
        break;
    case ListComp_kind:
        ok = visit_comprehension(b, e, COMP_LIST, e->v.ListComp.generators, e->v.ListComp.elt, NULL);
        break;
    case SetComp_kind:
        ok = visit_comprehension(b, e, COMP_SET, e->v.SetComp.generators, e->v.SetComp.elt, NULL);
        break;
    case DictComp_kind:
        ok = visit_comprehension(b, e, COMP_DICT, e->v.DictComp.generators, e->v.DictComp.key,
                                 e->v.DictComp.value);
        break;
    case GeneratorExp_kind:
        ok = visit_comprehension(b, e, COMP_GENEXPR, e->v.GeneratorExp.generators, e->v.GeneratorExp.elt, NULL);
        break;
    case Yield_kind:
    case YieldFrom_kind: {
        expr_ty v = e->kind == Yield_kind ? e->v.Yield.value : e->v.YieldFrom.value;
        if (v && !visit_expr(b, v))
            return false;
        b->cur->is_generator = true;
        switch (b->cur->comp) {
        case COMP_NONE: break;
        case COMP_LIST: return ERR_AT(b, e, "'yield' inside list comprehension");
        case COMP_SET: return ERR_AT(b, e, "'yield' inside set comprehension");
        case COMP_DICT: return ERR_AT(b, e, "'yield' inside dict comprehension");
        case COMP_GENEXPR: return ERR_AT(b, e, "'yield' inside generator expression");
        }
        break;
    }
    case Await_kind:
        ok = visit_expr(b, e->v.Await.value);
        b->cur->is_coroutine = true;
        break;
    case Compare_kind:
        ok = visit_expr(b, e->v.Compare.left) && visit_exprs(b, e->v.Compare.comparators);
        break;
    case Call_kind:
        ok = visit_expr(b, e->v.Call.func) && visit_exprs(b, e->v.Call.args) &&
             visit_keywords(b, e->v.Call.keywords);
        break;
    case FormattedValue_kind:
        ok = visit_expr(b, e->v.FormattedValue.value) &&
             (!e->v.FormattedValue.format_spec || visit_expr(b, e->v.FormattedValue.format_spec));
        break;
    case JoinedStr_kind:
        ok = visit_exprs(b, e->v.JoinedStr.values);
        break;
    case Constant_kind:
        break;
    case Attribute_kind:
        ok = visit_expr(b, e->v.Attribute.value);
        break;
    case Subscript_kind:
        ok = visit_expr(b, e->v.Subscript.value) && visit_expr(b, e->v.Subscript.slice);
        break;
    case Starred_kind:
        ok = visit_expr(b, e->v.Starred.value);
        break;
    case Name_kind: {
        const char *id = e->v.Name.id;
        if (e->v.Name.ctx == AST_Load) {
            ok = ADD_DEF(b, id, SYM_USE, e);
            /* zero-argument super() needs the __class__ cell */
            if (ok && b->cur->type == BLOCK_FUNCTION && strcmp(id, "super") == 0)
                ok = ADD_DEF(b, "__class__", SYM_USE, e);
        } else {
            ok = ADD_DEF(b, id, DEF_LOCAL | (b->in_comp_target ? DEF_COMP_ITER : 0), e);
        }
        break;
    }
    case List_kind:
        ok = visit_exprs(b, e->v.List.elts);
        break;
    case Tuple_kind:
        ok = visit_exprs(b, e->v.Tuple.elts);
        break;
    case Slice_kind:
        ok = (!e->v.Slice.lower || visit_expr(b, e->v.Slice.lower)) &&
             (!e->v.Slice.upper || visit_expr(b, e->v.Slice.upper)) &&
             (!e->v.Slice.step || visit_expr(b, e->v.Slice.step));
        break;
    }
    b->depth--;
    return ok;
}

/* ------------------------------------------------------------------ */
/* Pass 2: analysis                                                    */
/* ------------------------------------------------------------------ */

/* A set of names: open addressing with tombstones. */
#define TOMB ((const char *)1)
typedef struct NameSet {
    const char **slot;
    int cap, used, filled;   /* used: live entries; filled: live + tombstones */
} NameSet;

static void ns_free(NameSet *s)
{
    free(s->slot);
    memset(s, 0, sizeof *s);
}

static int ns_find(const NameSet *s, const char *name, uint32_t h)
{
    int mask = s->cap - 1, i = (int)(h & (uint32_t)mask), tomb = -1;
    for (;;) {
        const char *k = s->slot[i];
        if (!k)
            return tomb >= 0 ? tomb : i;
        if (k == TOMB) {
            if (tomb < 0)
                tomb = i;
        } else if (strcmp(k, name) == 0) {
            return i;
        }
        i = (i + 1) & mask;
    }
}

static bool ns_contains(const NameSet *s, const char *name)
{
    if (!s || !s->used)
        return false;
    const char *k = s->slot[ns_find(s, name, symtable_hash(name))];
    return k && k != TOMB && strcmp(k, name) == 0;
}

static bool ns_add(NameSet *s, const char *name)
{
    if ((s->filled + 1) * 2 > s->cap) {
        NameSet n = { 0 };
        n.cap = s->cap ? s->cap : 16;
        while ((s->used + 1) * 2 > n.cap)
            n.cap *= 2;
        n.slot = calloc((size_t)n.cap, sizeof(char *));
        if (!n.slot)
            return false;
        for (int i = 0; i < s->cap; i++) {
            const char *k = s->slot[i];
            if (k && k != TOMB) {
                n.slot[ns_find(&n, k, symtable_hash(k))] = k;
                n.used++;
                n.filled++;
            }
        }
        free(s->slot);
        *s = n;
    }
    int i = ns_find(s, name, symtable_hash(name));
    const char *k = s->slot[i];
    if (k && k != TOMB)
        return true;
    if (!k)
        s->filled++;
    s->slot[i] = name;
    s->used++;
    return true;
}

static void ns_remove(NameSet *s, const char *name)
{
    if (!s || !s->used)
        return;
    int i = ns_find(s, name, symtable_hash(name));
    const char *k = s->slot[i];
    if (k && k != TOMB && strcmp(k, name) == 0) {
        s->slot[i] = TOMB;
        s->used--;
    }
}

static bool ns_update(NameSet *dst, const NameSet *src)
{
    if (!src)
        return true;
    for (int i = 0; i < src->cap; i++) {
        const char *k = src->slot[i];
        if (k && k != TOMB && !ns_add(dst, k))
            return false;
    }
    return true;
}

typedef struct Analyzer {
    SymTable *st;
    CompileError *err;
} Analyzer;

static bool an_nomem(Analyzer *a)
{
    return set_error(a->err, CERR_MEMORY, 0, 0, 0, 0, "out of memory");
}

static bool analyze_name(Analyzer *a, Scope *s, Symbol *sym, NameSet *bound, NameSet *local, NameSet *free,
                         NameSet *global)
{
    int flags = sym->flags;
    if (flags & DEF_GLOBAL) {
        if (flags & DEF_NONLOCAL)
            return set_error(a->err, CERR_SYNTAX, sym->dir_lineno, sym->dir_col, sym->dir_end_lineno,
                             sym->dir_end_col, "name '%s' is nonlocal and global", sym->name);
        sym->scope = SC_GLOBAL_EXPLICIT;
        if (!ns_add(global, sym->name))
            return an_nomem(a);
        ns_remove(bound, sym->name);
        return true;
    }
    if (flags & DEF_NONLOCAL) {
        if (!ns_contains(bound, sym->name))
            return set_error(a->err, CERR_SYNTAX, sym->dir_lineno, sym->dir_col, sym->dir_end_lineno,
                             sym->dir_end_col, "no binding for nonlocal '%s' found", sym->name);
        sym->scope = SC_FREE;
        return ns_add(free, sym->name) || an_nomem(a);
    }
    if (flags & DEF_BOUND) {
        sym->scope = SC_LOCAL;
        if (!ns_add(local, sym->name))
            return an_nomem(a);
        ns_remove(global, sym->name);
        return true;
    }
    if (ns_contains(bound, sym->name)) {
        sym->scope = SC_FREE;
        return ns_add(free, sym->name) || an_nomem(a);
    }
    (void)s;
    sym->scope = SC_GLOBAL_IMPLICIT;
    return true;
}

/* bound: names bound by enclosing functions (NULL for the module);
 * global: names known global. Both are this block's own copies. The names
 * this block needs from outside are added to `free`. */
static bool analyze_block(Analyzer *a, Scope *s, NameSet *bound, NameSet *global, NameSet *free, int depth)
{
    if (depth > COMPILER_MAX_NESTING)
        return set_error(a->err, CERR_RECURSION, s->lineno, s->col_offset, s->lineno, s->col_offset,
                         "maximum recursion depth exceeded during compilation");
    NameSet local = { 0 }, newbound = { 0 }, newglobal = { 0 }, newfree = { 0 };
    bool ok = true;
    int nsyms = s->nsyms;
    for (int i = 0; ok && i < nsyms; i++)
        ok = analyze_name(a, s, &s->syms[i], bound, &local, free, global);
    if (ok) {
        if (s->type != BLOCK_CLASS) {
            if (s->type == BLOCK_FUNCTION)
                ok = ns_update(&newbound, &local);
            ok = ok && ns_update(&newbound, bound) && ns_update(&newglobal, global);
        } else {
            ok = ns_update(&newglobal, global) && ns_update(&newbound, bound) && ns_add(&newbound, "__class__");
        }
        if (!ok)
            an_nomem(a);
    }
    for (int i = 0; ok && i < s->nchildren; i++) {
        NameSet cb = { 0 }, cg = { 0 }, cf = { 0 };
        ok = ns_update(&cb, &newbound) && ns_update(&cg, &newglobal);
        if (!ok)
            an_nomem(a);
        ok = ok && analyze_block(a, s->children[i], &cb, &cg, &cf, depth + 1);
        if (ok && !ns_update(&newfree, &cf))
            ok = an_nomem(a);
        ns_free(&cb);
        ns_free(&cg);
        ns_free(&cf);
    }
    if (ok && s->type == BLOCK_FUNCTION) {
        /* locals captured by inner scopes become cells */
        for (int i = 0; i < s->nsyms; i++) {
            Symbol *sym = &s->syms[i];
            if (sym->scope == SC_LOCAL && ns_contains(&newfree, sym->name)) {
                sym->scope = SC_CELL;
                ns_remove(&newfree, sym->name);
            }
        }
    } else if (ok && s->type == BLOCK_CLASS && ns_contains(&newfree, "__class__")) {
        s->needs_class_closure = true;
        ns_remove(&newfree, "__class__");
    }
    /* free names of children that this block does not resolve */
    for (int i = 0; ok && i < newfree.cap; i++) {
        const char *name = newfree.slot[i];
        if (!name || name == TOMB)
            continue;
        Symbol *sym = scope_symbol(s, name);
        if (sym) {
            if (s->type == BLOCK_CLASS && (sym->flags & (DEF_BOUND | DEF_GLOBAL)))
                sym->flags |= DEF_FREE_CLASS;
            continue;
        }
        if (bound && !ns_contains(bound, name))
            continue;   /* a global */
        sym = scope_intern(s, name);
        if (!sym) {
            ok = an_nomem(a);
            break;
        }
        sym->scope = SC_FREE;
    }
    if (ok && !ns_update(free, &newfree))
        ok = an_nomem(a);
    ns_free(&local);
    ns_free(&newbound);
    ns_free(&newglobal);
    ns_free(&newfree);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */
/* ------------------------------------------------------------------ */

static void scope_free(Scope *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nchildren; i++)
        scope_free(s->children[i]);
    free(s->children);
    free(s->syms);
    free(s->slots);
    free(s->params);
    free(s);
}

void symtable_free(SymTable *st)
{
    if (!st)
        return;
    scope_free(st->top);
    free(st->by_key);
    for (int i = 0; i < st->nowned; i++)
        free(st->owned[i]);
    free(st->owned);
    free(st);
}

/* `from __future__ import annotations` among the future imports that open
 * the module (after its docstring). */
static bool has_future_annotations(const stmt_seq *body)
{
    int i = 0;
    if (body->n && body->items[0]->kind == Expr_kind && body->items[0]->v.Expr.value->kind == Constant_kind &&
        body->items[0]->v.Expr.value->v.Constant.value.kind == CONST_STR)
        i = 1;
    for (; i < body->n; i++) {
        stmt_ty s = body->items[i];
        if (s->kind != ImportFrom_kind || !s->v.ImportFrom.module || s->v.ImportFrom.level ||
            strcmp(s->v.ImportFrom.module, "__future__") != 0)
            break;
        for (int k = 0; k < s->v.ImportFrom.names.n; k++)
            if (strcmp(s->v.ImportFrom.names.items[k]->name, "annotations") == 0)
                return true;
    }
    return false;
}

SymTable *symtable_build(mod_ty mod, CompileError *err, bool future_annotations)
{
    SymTable *st = calloc(1, sizeof(SymTable));
    if (!st) {
        set_error(err, CERR_MEMORY, 0, 0, 0, 0, "out of memory");
        return NULL;
    }
    Builder b = { .st = st, .err = err };
    st->future_annotations = future_annotations;   /* compile()'s flag or inherited */
    if (mod->kind == Module_kind && has_future_annotations(&mod->v.Module.body))
        st->future_annotations = true;
    bool ok = enter_scope(&b, "top", BLOCK_MODULE, mod, 0, 0) != NULL;
    if (ok) {
        switch (mod->kind) {
        case Module_kind: ok = visit_stmts(&b, mod->v.Module.body); break;
        case Interactive_kind: ok = visit_stmts(&b, mod->v.Interactive.body); break;
        case Expression_kind: ok = visit_expr(&b, mod->v.Expression.body); break;
        }
    }
    if (ok) {
        Analyzer a = { st, err };
        NameSet global = { 0 }, free_ = { 0 };
        ok = analyze_block(&a, st->top, NULL, &global, &free_, 0);
        ns_free(&global);
        ns_free(&free_);
    }
    if (!ok) {
        if (err->kind == CERR_NONE)
            set_error(err, CERR_SYSTEM, 0, 0, 0, 0, "symtable failed");
        symtable_free(st);
        return NULL;
    }
    return st;
}
