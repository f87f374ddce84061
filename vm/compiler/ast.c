/* tmpy: the AST arena and a debugging dump (see ast.h). */
#include "ast.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Arena: a list of malloc'd blocks; allocation bumps a pointer.       */
/* ------------------------------------------------------------------ */
typedef struct ArenaBlock {
    struct ArenaBlock *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
} ArenaBlock;

struct Arena {
    ArenaBlock *head;       /* the block being filled (front of the list) */
    size_t total;
};

#define ARENA_BLOCK_SIZE (64 * 1024 - 64)

Arena *arena_new(void)
{
    Arena *a = calloc(1, sizeof(Arena));
    return a;
}

void arena_free(Arena *a)
{
    if (!a)
        return;
    ArenaBlock *b = a->head;
    while (b) {
        ArenaBlock *next = b->next;
        free(b);
        b = next;
    }
    free(a);
}

void *arena_alloc(Arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (n == 0)
        n = 16;
    ArenaBlock *b = a->head;
    if (!b || b->size - b->used < n) {
        if (n > ARENA_BLOCK_SIZE / 4) {
            /* A big request gets its own block, kept behind the current one. */
            ArenaBlock *big = malloc(sizeof(ArenaBlock) + n);
            if (!big)
                return NULL;
            big->size = big->used = n;
            if (b) {
                big->next = b->next;
                b->next = big;
            } else {
                big->next = NULL;
                a->head = big;
            }
            a->total += n;
            memset(big->data, 0, n);
            return big->data;
        }
        ArenaBlock *nb = malloc(sizeof(ArenaBlock) + ARENA_BLOCK_SIZE);
        if (!nb)
            return NULL;
        nb->size = ARENA_BLOCK_SIZE;
        nb->used = 0;
        nb->next = b;
        a->head = b = nb;
    }
    void *p = b->data + b->used;
    b->used += n;
    a->total += n;
    memset(p, 0, n);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    if (!p)
        return NULL;
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

/* ------------------------------------------------------------------ */
/* Dump: Name(field=value, ...) with positions as @line:col-line:col.   */
/* Positions are left out inside f-strings (CPython 3.11's are odd     */
/* there). Strings and bytes print as hex so a test can compare them    */
/* byte for byte with a dump made by python3's ast module.              */
/* ------------------------------------------------------------------ */
typedef struct Dumper {
    FILE *f;
    int in_fstring;
} Dumper;

static void dump_expr(Dumper *d, expr_ty e);
static void dump_stmts(Dumper *d, stmt_seq s);

static void dump_pos(Dumper *d, int l, int c, int el, int ec)
{
    if (!d->in_fstring)
        fprintf(d->f, "@%d:%d-%d:%d", l, c, el, ec);
}

static void dump_ident(Dumper *d, const char *s)
{
    if (s)
        fprintf(d->f, "'%s'", s);
    else
        fputs("None", d->f);
}

static void dump_hex(Dumper *d, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(d->f, "%02x", (unsigned char)s[i]);
}

/* Digits in base 2/8/10/16 to decimal (schoolbook): the dump, and the
 * compiler's comparison of big int literals written in different bases. */
char *ast_int_to_decimal(const char *digits, int base)
{
    size_t len = strlen(digits);
    if (base == 10) {
        while (*digits == '0' && digits[1])
            digits++;
        return strdup(digits);
    }
    size_t cap = len * 2 + 2, n = 1;
    unsigned char *dec = calloc(cap, 1);   /* little-endian decimal digits */
    if (!dec)
        return NULL;
    for (const char *p = digits; *p; p++) {
        int v = (*p >= '0' && *p <= '9') ? *p - '0' : (*p | 0x20) - 'a' + 10;
        int carry = v;
        for (size_t i = 0; i < n; i++) {
            int x = dec[i] * base + carry;
            dec[i] = (unsigned char)(x % 10);
            carry = x / 10;
        }
        while (carry) {
            dec[n++] = (unsigned char)(carry % 10);
            carry /= 10;
        }
    }
    while (n > 1 && dec[n - 1] == 0)
        n--;
    char *out = malloc(n + 1);
    if (out) {
        for (size_t i = 0; i < n; i++)
            out[i] = (char)('0' + dec[n - 1 - i]);
        out[n] = 0;
    }
    free(dec);
    return out;
}

static void dump_int(Dumper *d, const constant *c)
{
    char *s = ast_int_to_decimal(c->s, c->base);
    if (s)
        fputs(s, d->f);
    free(s);
}

static void dump_constant(Dumper *d, const constant *c)
{
    switch (c->kind) {
    case CONST_NONE: fputs("None", d->f); break;
    case CONST_TRUE: fputs("True", d->f); break;
    case CONST_FALSE: fputs("False", d->f); break;
    case CONST_ELLIPSIS: fputs("Ellipsis", d->f); break;
    case CONST_INT: dump_int(d, c); break;
    case CONST_FLOAT: fprintf(d->f, "%.17g", c->f); break;
    case CONST_IMAG: fprintf(d->f, "%.17gj", c->f); break;
    case CONST_STR: fputs("s'", d->f); dump_hex(d, c->s, c->len); fputc('\'', d->f); break;
    case CONST_BYTES: fputs("b'", d->f); dump_hex(d, c->s, c->len); fputc('\'', d->f); break;
    }
}

static const char *ctx_name(expr_context_ty c)
{
    return c == AST_Load ? "Load()" : c == AST_Store ? "Store()" : c == AST_Del ? "Del()" : "?";
}

static const char *operator_name(operator_ty op)
{
    static const char *const names[] = {"?", "Add", "Sub", "Mult", "MatMult", "Div", "Mod", "Pow",
                                        "LShift", "RShift", "BitOr", "BitXor", "BitAnd", "FloorDiv"};
    return (op >= 1 && op <= AST_FloorDiv) ? names[op] : "?";
}

static const char *cmpop_name(cmpop_ty op)
{
    static const char *const names[] = {"?", "Eq", "NotEq", "Lt", "LtE", "Gt", "GtE", "Is", "IsNot", "In", "NotIn"};
    return (op >= 1 && op <= AST_NotIn) ? names[op] : "?";
}

/* [item, item, ...] of any AST sequence, each dumped by dump_item(d, item). */
#define DUMP_SEQ(d, s, dump_item)                     \
    do {                                              \
        fputc('[', (d)->f);                           \
        for (int i_ = 0; i_ < (s).n; i_++) {          \
            if (i_)                                   \
                fputs(", ", (d)->f);                  \
            dump_item((d), (s).items[i_]);            \
        }                                             \
        fputc(']', (d)->f);                           \
    } while (0)

static void dump_exprs(Dumper *d, expr_seq s) { DUMP_SEQ(d, s, dump_expr); }

static void dump_arg(Dumper *d, arg_ty a)
{
    if (!a) {
        fputs("None", d->f);
        return;
    }
    fputs("arg(arg=", d->f);
    dump_ident(d, a->arg);
    fputs(", annotation=", d->f);
    dump_expr(d, a->annotation);
    fputc(')', d->f);
    dump_pos(d, a->lineno, a->col_offset, a->end_lineno, a->end_col_offset);
}

static void dump_args_seq(Dumper *d, arg_seq s) { DUMP_SEQ(d, s, dump_arg); }

static void dump_arguments(Dumper *d, arguments_ty a)
{
    fputs("arguments(posonlyargs=", d->f);
    dump_args_seq(d, a->posonlyargs);
    fputs(", args=", d->f);
    dump_args_seq(d, a->args);
    fputs(", vararg=", d->f);
    dump_arg(d, a->vararg);
    fputs(", kwonlyargs=", d->f);
    dump_args_seq(d, a->kwonlyargs);
    fputs(", kw_defaults=", d->f);
    dump_exprs(d, a->kw_defaults);
    fputs(", kwarg=", d->f);
    dump_arg(d, a->kwarg);
    fputs(", defaults=", d->f);
    dump_exprs(d, a->defaults);
    fputc(')', d->f);
}

static void dump_keyword(Dumper *d, keyword_ty k)
{
    fputs("keyword(arg=", d->f);
    dump_ident(d, k->arg);
    fputs(", value=", d->f);
    dump_expr(d, k->value);
    fputc(')', d->f);
    dump_pos(d, k->lineno, k->col_offset, k->end_lineno, k->end_col_offset);
}

static void dump_comprehension(Dumper *d, comprehension_ty c)
{
    fputs("comprehension(target=", d->f);
    dump_expr(d, c->target);
    fputs(", iter=", d->f);
    dump_expr(d, c->iter);
    fputs(", ifs=", d->f);
    dump_exprs(d, c->ifs);
    fprintf(d->f, ", is_async=%d)", c->is_async);
}

static void dump_alias(Dumper *d, alias_ty a)
{
    fputs("alias(name=", d->f);
    dump_ident(d, a->name);
    fputs(", asname=", d->f);
    dump_ident(d, a->asname);
    fputc(')', d->f);
    dump_pos(d, a->lineno, a->col_offset, a->end_lineno, a->end_col_offset);
}

static void dump_withitem(Dumper *d, withitem_ty w)
{
    fputs("withitem(context_expr=", d->f);
    dump_expr(d, w->context_expr);
    fputs(", optional_vars=", d->f);
    dump_expr(d, w->optional_vars);
    fputc(')', d->f);
}

static void dump_handler(Dumper *d, excepthandler_ty h)
{
    fputs("ExceptHandler(type=", d->f);
    dump_expr(d, h->type);
    fputs(", name=", d->f);
    dump_ident(d, h->name);
    fputs(", body=", d->f);
    dump_stmts(d, h->body);
    fputc(')', d->f);
    dump_pos(d, h->lineno, h->col_offset, h->end_lineno, h->end_col_offset);
}

static void dump_keywords(Dumper *d, keyword_seq s) { DUMP_SEQ(d, s, dump_keyword); }
static void dump_comprehensions(Dumper *d, comprehension_seq s) { DUMP_SEQ(d, s, dump_comprehension); }
static void dump_aliases(Dumper *d, alias_seq s) { DUMP_SEQ(d, s, dump_alias); }
static void dump_idents(Dumper *d, identifier_seq s) { DUMP_SEQ(d, s, dump_ident); }

static void dump_expr(Dumper *d, expr_ty e)
{
    FILE *f = d->f;
    if (!e) {
        fputs("None", f);
        return;
    }
    int saved = d->in_fstring;
    switch (e->kind) {
    case BoolOp_kind:
        fprintf(f, "BoolOp(op=%s, values=", e->v.BoolOp.op == AST_And ? "And()" : "Or()");
        dump_exprs(d, e->v.BoolOp.values);
        break;
    case NamedExpr_kind:
        fputs("NamedExpr(target=", f);
        dump_expr(d, e->v.NamedExpr.target);
        fputs(", value=", f);
        dump_expr(d, e->v.NamedExpr.value);
        break;
    case BinOp_kind:
        fputs("BinOp(left=", f);
        dump_expr(d, e->v.BinOp.left);
        fprintf(f, ", op=%s(), right=", operator_name(e->v.BinOp.op));
        dump_expr(d, e->v.BinOp.right);
        break;
    case UnaryOp_kind: {
        static const char *const un[] = {"?", "Invert", "Not", "UAdd", "USub"};
        fprintf(f, "UnaryOp(op=%s(), operand=", un[e->v.UnaryOp.op <= AST_USub ? e->v.UnaryOp.op : 0]);
        dump_expr(d, e->v.UnaryOp.operand);
        break;
    }
    case Lambda_kind:
        fputs("Lambda(args=", f);
        dump_arguments(d, e->v.Lambda.args);
        fputs(", body=", f);
        dump_expr(d, e->v.Lambda.body);
        break;
    case IfExp_kind:
        fputs("IfExp(test=", f);
        dump_expr(d, e->v.IfExp.test);
        fputs(", body=", f);
        dump_expr(d, e->v.IfExp.body);
        fputs(", orelse=", f);
        dump_expr(d, e->v.IfExp.orelse);
        break;
    case Dict_kind:
        fputs("Dict(keys=", f);
        dump_exprs(d, e->v.Dict.keys);
        fputs(", values=", f);
        dump_exprs(d, e->v.Dict.values);
        break;
    case Set_kind:
        fputs("Set(elts=", f);
        dump_exprs(d, e->v.Set.elts);
        break;
    case ListComp_kind:
    case SetComp_kind:
    case GeneratorExp_kind:
        fputs(e->kind == ListComp_kind ? "ListComp(elt=" : e->kind == SetComp_kind ? "SetComp(elt=" : "GeneratorExp(elt=", f);
        dump_expr(d, e->v.ListComp.elt);
        fputs(", generators=", f);
        dump_comprehensions(d, e->v.ListComp.generators);
        break;
    case DictComp_kind:
        fputs("DictComp(key=", f);
        dump_expr(d, e->v.DictComp.key);
        fputs(", value=", f);
        dump_expr(d, e->v.DictComp.value);
        fputs(", generators=", f);
        dump_comprehensions(d, e->v.DictComp.generators);
        break;
    case Yield_kind:
        fputs("Yield(value=", f);
        dump_expr(d, e->v.Yield.value);
        break;
    case YieldFrom_kind:
        fputs("YieldFrom(value=", f);
        dump_expr(d, e->v.YieldFrom.value);
        break;
    case Await_kind:
        fputs("Await(value=", f);
        dump_expr(d, e->v.Await.value);
        break;
    case Compare_kind:
        fputs("Compare(left=", f);
        dump_expr(d, e->v.Compare.left);
        fputs(", ops=[", f);
        for (int i = 0; i < e->v.Compare.ops.n; i++)
            fprintf(f, "%s%s()", i ? ", " : "", cmpop_name(e->v.Compare.ops.items[i]));
        fputs("], comparators=", f);
        dump_exprs(d, e->v.Compare.comparators);
        break;
    case Call_kind:
        fputs("Call(func=", f);
        dump_expr(d, e->v.Call.func);
        fputs(", args=", f);
        dump_exprs(d, e->v.Call.args);
        fputs(", keywords=", f);
        dump_keywords(d, e->v.Call.keywords);
        break;
    case FormattedValue_kind:
        fputs("FormattedValue(value=", f);
        dump_expr(d, e->v.FormattedValue.value);
        fprintf(f, ", conversion=%d, format_spec=", e->v.FormattedValue.conversion);
        dump_expr(d, e->v.FormattedValue.format_spec);
        break;
    case JoinedStr_kind:
        fputs("JoinedStr(values=", f);
        d->in_fstring = 1;
        dump_exprs(d, e->v.JoinedStr.values);
        d->in_fstring = saved;
        break;
    case Constant_kind:
        fputs("Constant(value=", f);
        dump_constant(d, &e->v.Constant.value);
        break;
    case Attribute_kind:
        fputs("Attribute(value=", f);
        dump_expr(d, e->v.Attribute.value);
        fputs(", attr=", f);
        dump_ident(d, e->v.Attribute.attr);
        fprintf(f, ", ctx=%s", ctx_name(e->v.Attribute.ctx));
        break;
    case Subscript_kind:
        fputs("Subscript(value=", f);
        dump_expr(d, e->v.Subscript.value);
        fputs(", slice=", f);
        dump_expr(d, e->v.Subscript.slice);
        fprintf(f, ", ctx=%s", ctx_name(e->v.Subscript.ctx));
        break;
    case Starred_kind:
        fputs("Starred(value=", f);
        dump_expr(d, e->v.Starred.value);
        fprintf(f, ", ctx=%s", ctx_name(e->v.Starred.ctx));
        break;
    case Name_kind:
        fputs("Name(id=", f);
        dump_ident(d, e->v.Name.id);
        fprintf(f, ", ctx=%s", ctx_name(e->v.Name.ctx));
        break;
    case List_kind:
    case Tuple_kind:
        fputs(e->kind == List_kind ? "List(elts=" : "Tuple(elts=", f);
        dump_exprs(d, e->v.List.elts);
        fprintf(f, ", ctx=%s", ctx_name(e->v.List.ctx));
        break;
    case Slice_kind:
        fputs("Slice(lower=", f);
        dump_expr(d, e->v.Slice.lower);
        fputs(", upper=", f);
        dump_expr(d, e->v.Slice.upper);
        fputs(", step=", f);
        dump_expr(d, e->v.Slice.step);
        break;
    default:
        fputs("?(", f);
        break;
    }
    fputc(')', f);
    dump_pos(d, e->lineno, e->col_offset, e->end_lineno, e->end_col_offset);
}

static void dump_pattern(Dumper *d, pattern_ty p)
{
    FILE *f = d->f;
    if (!p) {
        fputs("None", f);
        return;
    }
    switch (p->kind) {
    case MatchValue_kind:
        fputs("MatchValue(value=", f);
        dump_expr(d, p->v.MatchValue.value);
        break;
    case MatchSingleton_kind:
        fputs("MatchSingleton(value=", f);
        dump_constant(d, &p->v.MatchSingleton.value);
        break;
    case MatchSequence_kind:
        fputs("MatchSequence(patterns=", f);
        DUMP_SEQ(d, p->v.MatchSequence.patterns, dump_pattern);
        break;
    case MatchMapping_kind:
        fputs("MatchMapping(keys=", f);
        dump_exprs(d, p->v.MatchMapping.keys);
        fputs(", patterns=", f);
        DUMP_SEQ(d, p->v.MatchMapping.patterns, dump_pattern);
        fputs(", rest=", f);
        dump_ident(d, p->v.MatchMapping.rest);
        break;
    case MatchClass_kind:
        fputs("MatchClass(cls=", f);
        dump_expr(d, p->v.MatchClass.cls);
        fputs(", patterns=", f);
        DUMP_SEQ(d, p->v.MatchClass.patterns, dump_pattern);
        fputs(", kwd_attrs=", f);
        dump_idents(d, p->v.MatchClass.kwd_attrs);
        fputs(", kwd_patterns=", f);
        DUMP_SEQ(d, p->v.MatchClass.kwd_patterns, dump_pattern);
        break;
    case MatchStar_kind:
        fputs("MatchStar(name=", f);
        dump_ident(d, p->v.MatchStar.name);
        break;
    case MatchAs_kind:
        fputs("MatchAs(pattern=", f);
        dump_pattern(d, p->v.MatchAs.pattern);
        fputs(", name=", f);
        dump_ident(d, p->v.MatchAs.name);
        break;
    case MatchOr_kind:
        fputs("MatchOr(patterns=", f);
        DUMP_SEQ(d, p->v.MatchOr.patterns, dump_pattern);
        break;
    default:
        fputs("?(", f);
        break;
    }
    fputc(')', f);
    dump_pos(d, p->lineno, p->col_offset, p->end_lineno, p->end_col_offset);
}

static void dump_match_case(Dumper *d, match_case_ty m)
{
    fputs("match_case(pattern=", d->f);
    dump_pattern(d, m->pattern);
    fputs(", guard=", d->f);
    dump_expr(d, m->guard);
    fputs(", body=", d->f);
    dump_stmts(d, m->body);
    fputc(')', d->f);
}

static void dump_stmt(Dumper *d, stmt_ty s)
{
    FILE *f = d->f;
    switch (s->kind) {
    case FunctionDef_kind:
    case AsyncFunctionDef_kind:
        fputs(s->kind == FunctionDef_kind ? "FunctionDef(name=" : "AsyncFunctionDef(name=", f);
        dump_ident(d, s->v.FunctionDef.name);
        fputs(", args=", f);
        dump_arguments(d, s->v.FunctionDef.args);
        fputs(", body=", f);
        dump_stmts(d, s->v.FunctionDef.body);
        fputs(", decorator_list=", f);
        dump_exprs(d, s->v.FunctionDef.decorator_list);
        fputs(", returns=", f);
        dump_expr(d, s->v.FunctionDef.returns);
        break;
    case ClassDef_kind:
        fputs("ClassDef(name=", f);
        dump_ident(d, s->v.ClassDef.name);
        fputs(", bases=", f);
        dump_exprs(d, s->v.ClassDef.bases);
        fputs(", keywords=", f);
        dump_keywords(d, s->v.ClassDef.keywords);
        fputs(", body=", f);
        dump_stmts(d, s->v.ClassDef.body);
        fputs(", decorator_list=", f);
        dump_exprs(d, s->v.ClassDef.decorator_list);
        break;
    case Return_kind:
        fputs("Return(value=", f);
        dump_expr(d, s->v.Return.value);
        break;
    case Delete_kind:
        fputs("Delete(targets=", f);
        dump_exprs(d, s->v.Delete.targets);
        break;
    case Assign_kind:
        fputs("Assign(targets=", f);
        dump_exprs(d, s->v.Assign.targets);
        fputs(", value=", f);
        dump_expr(d, s->v.Assign.value);
        break;
    case AugAssign_kind:
        fputs("AugAssign(target=", f);
        dump_expr(d, s->v.AugAssign.target);
        fprintf(f, ", op=%s(), value=", operator_name(s->v.AugAssign.op));
        dump_expr(d, s->v.AugAssign.value);
        break;
    case AnnAssign_kind:
        fputs("AnnAssign(target=", f);
        dump_expr(d, s->v.AnnAssign.target);
        fputs(", annotation=", f);
        dump_expr(d, s->v.AnnAssign.annotation);
        fputs(", value=", f);
        dump_expr(d, s->v.AnnAssign.value);
        fprintf(f, ", simple=%d", s->v.AnnAssign.simple);
        break;
    case For_kind:
    case AsyncFor_kind:
        fputs(s->kind == For_kind ? "For(target=" : "AsyncFor(target=", f);
        dump_expr(d, s->v.For.target);
        fputs(", iter=", f);
        dump_expr(d, s->v.For.iter);
        fputs(", body=", f);
        dump_stmts(d, s->v.For.body);
        fputs(", orelse=", f);
        dump_stmts(d, s->v.For.orelse);
        break;
    case While_kind:
    case If_kind:
        fputs(s->kind == While_kind ? "While(test=" : "If(test=", f);
        dump_expr(d, s->v.If.test);
        fputs(", body=", f);
        dump_stmts(d, s->v.If.body);
        fputs(", orelse=", f);
        dump_stmts(d, s->v.If.orelse);
        break;
    case With_kind:
    case AsyncWith_kind:
        fputs(s->kind == With_kind ? "With(items=" : "AsyncWith(items=", f);
        DUMP_SEQ(d, s->v.With.items, dump_withitem);
        fputs(", body=", f);
        dump_stmts(d, s->v.With.body);
        break;
    case Raise_kind:
        fputs("Raise(exc=", f);
        dump_expr(d, s->v.Raise.exc);
        fputs(", cause=", f);
        dump_expr(d, s->v.Raise.cause);
        break;
    case Try_kind:
    case TryStar_kind:
        fputs(s->kind == TryStar_kind ? "TryStar(body=" : "Try(body=", f);
        dump_stmts(d, s->v.Try.body);
        fputs(", handlers=", f);
        DUMP_SEQ(d, s->v.Try.handlers, dump_handler);
        fputs(", orelse=", f);
        dump_stmts(d, s->v.Try.orelse);
        fputs(", finalbody=", f);
        dump_stmts(d, s->v.Try.finalbody);
        break;
    case Assert_kind:
        fputs("Assert(test=", f);
        dump_expr(d, s->v.Assert.test);
        fputs(", msg=", f);
        dump_expr(d, s->v.Assert.msg);
        break;
    case Import_kind:
        fputs("Import(names=", f);
        dump_aliases(d, s->v.Import.names);
        break;
    case ImportFrom_kind:
        fputs("ImportFrom(module=", f);
        dump_ident(d, s->v.ImportFrom.module);
        fputs(", names=", f);
        dump_aliases(d, s->v.ImportFrom.names);
        fprintf(f, ", level=%d", s->v.ImportFrom.level);
        break;
    case Global_kind:
    case Nonlocal_kind:
        fputs(s->kind == Global_kind ? "Global(names=" : "Nonlocal(names=", f);
        dump_idents(d, s->v.Global.names);
        break;
    case Expr_kind:
        fputs("Expr(value=", f);
        dump_expr(d, s->v.Expr.value);
        break;
    case Match_kind:
        fputs("Match(subject=", f);
        dump_expr(d, s->v.Match.subject);
        fputs(", cases=", f);
        DUMP_SEQ(d, s->v.Match.cases, dump_match_case);
        break;
    case Pass_kind: fputs("Pass(", f); break;
    case Break_kind: fputs("Break(", f); break;
    case Continue_kind: fputs("Continue(", f); break;
    default: fputs("?(", f); break;
    }
    fputc(')', f);
    dump_pos(d, s->lineno, s->col_offset, s->end_lineno, s->end_col_offset);
}

static void dump_stmts(Dumper *d, stmt_seq s) { DUMP_SEQ(d, s, dump_stmt); }
