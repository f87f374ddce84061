/* An expression back to source text, as CPython's ast_unparse.c writes it:
 * the strings `from __future__ import annotations` stores for annotations
 * (PEP 563). Parentheses come from operator precedence alone (the source's
 * own are not kept); constants are written as their repr. */
#include "unparse.h"
#include "parser.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <stdlib.h>
#include <string.h>

/* CPython's precedence levels, lowest first. */
enum {
    PR_TUPLE, PR_TEST, PR_OR, PR_AND, PR_NOT, PR_CMP, PR_EXPR, PR_BOR = PR_EXPR, PR_BXOR, PR_BAND,
    PR_SHIFT, PR_ARITH, PR_TERM, PR_FACTOR, PR_POWER, PR_AWAIT, PR_ATOM
};

typedef struct {
    StrBuf b;
    bool failed;
    int depth;
} Unparser;

static void expr(Unparser *u, expr_ty e, int level);

static void add(Unparser *u, const char *s) { sb_adds(&u->b, s); }

static void add_if(Unparser *u, bool cond, const char *s)
{
    if (cond)
        sb_adds(&u->b, s);
}

/* repr() of a value made from the constant (the text CPython writes). */
static void add_repr(Unparser *u, Obj v)
{
    Obj s = v ? vm_repr(v) : NULL;
    if (!s) {
        u->failed = true;
        return;
    }
    sb_add_str(&u->b, s);
}

/* repr() of a float or complex, with infinities as 1e309 (so the text
 * evaluates back to the value). */
static void add_number_repr(Unparser *u, Obj v)
{
    Obj s = v ? vm_repr(v) : NULL;
    if (!s) {
        u->failed = true;
        return;
    }
    const char *p = str_cstr(s);
    for (;;) {
        const char *inf = strstr(p, "inf");
        if (!inf) {
            sb_adds(&u->b, p);
            break;
        }
        sb_add(&u->b, p, (size_t)(inf - p));
        sb_adds(&u->b, "1e309");
        p = inf + 3;
    }
}

static void constant_text(Unparser *u, const constant *k)
{
    switch (k->kind) {
    case CONST_NONE: add(u, "None"); break;
    case CONST_TRUE: add(u, "True"); break;
    case CONST_FALSE: add(u, "False"); break;
    case CONST_ELLIPSIS: add(u, "..."); break;
    case CONST_INT:
        if (k->fits_i64)
            sb_printf(&u->b, "%lld", (long long)k->i64);
        else
            add_repr(u, int_from_string(k->s, k->len, k->base));
        break;
    case CONST_FLOAT: add_number_repr(u, float_new(k->f)); break;
    case CONST_IMAG: add_number_repr(u, complex_new(0.0, k->f)); break;
    case CONST_STR:
        add_if(u, k->u_prefix, "u");
        add_repr(u, str_new(k->s, k->len));
        break;
    case CONST_BYTES: add_repr(u, bytes_new(k->s, k->len)); break;
    }
}

static void exprs(Unparser *u, expr_seq s, int level)
{
    for (int i = 0; i < s.n; i++) {
        add_if(u, i > 0, ", ");
        expr(u, s.items[i], level);
    }
}

static void comprehensions(Unparser *u, comprehension_seq gens)
{
    for (int i = 0; i < gens.n; i++) {
        comprehension_ty g = gens.items[i];
        add(u, g->is_async ? " async for " : " for ");
        expr(u, g->target, PR_TUPLE);
        add(u, " in ");
        expr(u, g->iter, PR_TEST + 1);
        for (int k = 0; k < g->ifs.n; k++) {
            add(u, " if ");
            expr(u, g->ifs.items[k], PR_TEST + 1);
        }
    }
}

static void args_text(Unparser *u, arguments_ty a)
{
    bool first = true;
    int npos = a->posonlyargs.n, nargs = a->args.n, ndef = a->defaults.n;
    for (int i = 0; i < npos + nargs; i++) {
        add_if(u, !first, ", ");
        first = false;
        add(u, i < npos ? a->posonlyargs.items[i]->arg : a->args.items[i - npos]->arg);
        int di = i - npos - nargs + ndef;
        if (di >= 0) {
            add(u, "=");
            expr(u, a->defaults.items[di], PR_TEST);
        }
        add_if(u, npos && i + 1 == npos, ", /");
    }
    if (a->vararg || a->kwonlyargs.n) {
        add_if(u, !first, ", ");
        first = false;
        add(u, "*");
        if (a->vararg)
            add(u, a->vararg->arg);
    }
    for (int i = 0; i < a->kwonlyargs.n; i++) {
        add_if(u, !first, ", ");
        first = false;
        add(u, a->kwonlyargs.items[i]->arg);
        expr_ty d = i < a->kw_defaults.n ? a->kw_defaults.items[i] : NULL;
        if (d) {
            add(u, "=");
            expr(u, d, PR_TEST);
        }
    }
    if (a->kwarg) {
        add_if(u, !first, ", ");
        add(u, "**");
        add(u, a->kwarg->arg);
    }
}

/* The inside of an f-string: literal parts with braces doubled, fields. */
static void fstring_body(Unparser *u, StrBuf *out, expr_seq values);

static void fstring_field(Unparser *u, StrBuf *out, expr_ty fv)
{
    Unparser inner = {.depth = u->depth};
    sb_init(&inner.b);
    expr(&inner, fv->v.FormattedValue.value, PR_TEST + 1);
    if (inner.failed) {
        u->failed = true;
        sb_free(&inner.b);
        return;
    }
    sb_addc(out, '{');
    if (inner.b.len && inner.b.p[0] == '{')
        sb_addc(out, ' ');   /* `{ {a: 1}}`: not an escaped brace */
    sb_add(out, inner.b.p, inner.b.len);
    sb_free(&inner.b);
    int conv = fv->v.FormattedValue.conversion;
    if (conv == 's' || conv == 'r' || conv == 'a') {
        sb_addc(out, '!');
        sb_addc(out, (char)conv);
    }
    if (fv->v.FormattedValue.format_spec) {
        sb_addc(out, ':');
        expr_ty spec = fv->v.FormattedValue.format_spec;
        if (spec->kind == JoinedStr_kind)
            fstring_body(u, out, spec->v.JoinedStr.values);
        else if (spec->kind == Constant_kind && spec->v.Constant.value.kind == CONST_STR)
            sb_add(out, spec->v.Constant.value.s, spec->v.Constant.value.len);
    }
    sb_addc(out, '}');
}

static void fstring_body(Unparser *u, StrBuf *out, expr_seq values)
{
    for (int i = 0; i < values.n; i++) {
        expr_ty v = values.items[i];
        if (v->kind == Constant_kind && v->v.Constant.value.kind == CONST_STR) {
            const constant *k = &v->v.Constant.value;
            for (size_t j = 0; j < k->len; j++) {
                char ch = k->s[j];
                sb_addc(out, ch);
                if (ch == '{' || ch == '}')
                    sb_addc(out, ch);
            }
        } else if (v->kind == FormattedValue_kind) {
            fstring_field(u, out, v);
        }
    }
}

static void joined_str(Unparser *u, expr_seq values)
{
    StrBuf body;
    sb_init(&body);
    fstring_body(u, &body, values);
    Obj s = u->failed ? NULL : sb_finish(&body);
    if (!s) {
        if (!u->failed)
            sb_free(&body);
        u->failed = true;
        return;
    }
    add(u, "f");
    add_repr(u, s);
}

static const char *binop_text(operator_ty op, int *pr)
{
    switch (op) {
    case AST_Add: *pr = PR_ARITH; return " + ";
    case AST_Sub: *pr = PR_ARITH; return " - ";
    case AST_Mult: *pr = PR_TERM; return " * ";
    case AST_MatMult: *pr = PR_TERM; return " @ ";
    case AST_Div: *pr = PR_TERM; return " / ";
    case AST_Mod: *pr = PR_TERM; return " % ";
    case AST_LShift: *pr = PR_SHIFT; return " << ";
    case AST_RShift: *pr = PR_SHIFT; return " >> ";
    case AST_BitOr: *pr = PR_BOR; return " | ";
    case AST_BitXor: *pr = PR_BXOR; return " ^ ";
    case AST_BitAnd: *pr = PR_BAND; return " & ";
    case AST_FloorDiv: *pr = PR_TERM; return " // ";
    case AST_Pow: *pr = PR_POWER; return " ** ";
    }
    *pr = PR_ATOM;
    return " ? ";
}

static const char *cmpop_text(cmpop_ty op)
{
    switch (op) {
    case AST_Eq: return " == ";
    case AST_NotEq: return " != ";
    case AST_Lt: return " < ";
    case AST_LtE: return " <= ";
    case AST_Gt: return " > ";
    case AST_GtE: return " >= ";
    case AST_Is: return " is ";
    case AST_IsNot: return " is not ";
    case AST_In: return " in ";
    case AST_NotIn: return " not in ";
    }
    return " ? ";
}

/* [elt for ...], {elt for ...}, (elt for ...): open, the element, the
 * clauses, close. */
static void comprehension_expr(Unparser *u, const char *open, expr_ty elt, comprehension_seq gens,
                               const char *close)
{
    add(u, open);
    expr(u, elt, PR_TEST);
    comprehensions(u, gens);
    add(u, close);
}

static void expr(Unparser *u, expr_ty e, int level)
{
    if (u->failed)
        return;
    if (++u->depth > PARSE_MAX_DEPTH + 200) {   /* the parser bounds the depth already */
        u->failed = true;
        return;
    }
    switch (e->kind) {
    case BoolOp_kind: {
        bool and_ = e->v.BoolOp.op == AST_And;
        int pr = and_ ? PR_AND : PR_OR;
        add_if(u, level > pr, "(");
        for (int i = 0; i < e->v.BoolOp.values.n; i++) {
            add_if(u, i > 0, and_ ? " and " : " or ");
            expr(u, e->v.BoolOp.values.items[i], pr + 1);
        }
        add_if(u, level > pr, ")");
        break;
    }
    case NamedExpr_kind:
        add_if(u, level > PR_TUPLE, "(");
        expr(u, e->v.NamedExpr.target, PR_ATOM);
        add(u, " := ");
        expr(u, e->v.NamedExpr.value, PR_ATOM);
        add_if(u, level > PR_TUPLE, ")");
        break;
    case BinOp_kind: {
        int pr;
        const char *op = binop_text(e->v.BinOp.op, &pr);
        int rassoc = e->v.BinOp.op == AST_Pow;
        add_if(u, level > pr, "(");
        expr(u, e->v.BinOp.left, pr + rassoc);
        add(u, op);
        expr(u, e->v.BinOp.right, pr + !rassoc);
        add_if(u, level > pr, ")");
        break;
    }
    case UnaryOp_kind: {
        const char *op = "~";
        int pr = PR_FACTOR;
        switch (e->v.UnaryOp.op) {
        case AST_Invert: op = "~"; break;
        case AST_Not: op = "not "; pr = PR_NOT; break;
        case AST_UAdd: op = "+"; break;
        case AST_USub: op = "-"; break;
        }
        add_if(u, level > pr, "(");
        add(u, op);
        expr(u, e->v.UnaryOp.operand, pr);
        add_if(u, level > pr, ")");
        break;
    }
    case Lambda_kind: {
        arguments_ty a = e->v.Lambda.args;
        add_if(u, level > PR_TEST, "(");
        add(u, a->args.n + a->posonlyargs.n ? "lambda " : "lambda");
        args_text(u, a);
        add(u, ": ");
        expr(u, e->v.Lambda.body, PR_TEST);
        add_if(u, level > PR_TEST, ")");
        break;
    }
    case IfExp_kind:
        add_if(u, level > PR_TEST, "(");
        expr(u, e->v.IfExp.body, PR_TEST + 1);
        add(u, " if ");
        expr(u, e->v.IfExp.test, PR_TEST + 1);
        add(u, " else ");
        expr(u, e->v.IfExp.orelse, PR_TEST);
        add_if(u, level > PR_TEST, ")");
        break;
    case Dict_kind:
        add(u, "{");
        for (int i = 0; i < e->v.Dict.values.n; i++) {
            add_if(u, i > 0, ", ");
            expr_ty k = e->v.Dict.keys.items[i];
            if (k) {
                expr(u, k, PR_TEST);
                add(u, ": ");
                expr(u, e->v.Dict.values.items[i], PR_TEST);
            } else {
                add(u, "**");
                expr(u, e->v.Dict.values.items[i], PR_EXPR);
            }
        }
        add(u, "}");
        break;
    case Set_kind:
        add(u, "{");
        exprs(u, e->v.Set.elts, PR_TEST);
        add(u, "}");
        break;
    case ListComp_kind:
        comprehension_expr(u, "[", e->v.ListComp.elt, e->v.ListComp.generators, "]");
        break;
    case SetComp_kind:
        comprehension_expr(u, "{", e->v.SetComp.elt, e->v.SetComp.generators, "}");
        break;
    case DictComp_kind:
        add(u, "{");
        expr(u, e->v.DictComp.key, PR_TEST);
        add(u, ": ");
        expr(u, e->v.DictComp.value, PR_TEST);
        comprehensions(u, e->v.DictComp.generators);
        add(u, "}");
        break;
    case GeneratorExp_kind:
        comprehension_expr(u, "(", e->v.GeneratorExp.elt, e->v.GeneratorExp.generators, ")");
        break;
    case Await_kind:
        add_if(u, level > PR_AWAIT, "(");
        add(u, "await ");
        expr(u, e->v.Await.value, PR_ATOM);
        add_if(u, level > PR_AWAIT, ")");
        break;
    case Yield_kind:
        if (!e->v.Yield.value) {
            add(u, "(yield)");
            break;
        }
        add(u, "(yield ");
        expr(u, e->v.Yield.value, PR_TEST);
        add(u, ")");
        break;
    case YieldFrom_kind:
        add(u, "(yield from ");
        expr(u, e->v.YieldFrom.value, PR_TEST);
        add(u, ")");
        break;
    case Compare_kind:
        add_if(u, level > PR_CMP, "(");
        expr(u, e->v.Compare.left, PR_CMP + 1);
        for (int i = 0; i < e->v.Compare.comparators.n; i++) {
            add(u, cmpop_text(e->v.Compare.ops.items[i]));
            expr(u, e->v.Compare.comparators.items[i], PR_CMP + 1);
        }
        add_if(u, level > PR_CMP, ")");
        break;
    case Call_kind: {
        expr(u, e->v.Call.func, PR_ATOM);
        expr_seq args = e->v.Call.args;
        keyword_seq kws = e->v.Call.keywords;
        if (args.n == 1 && kws.n == 0 && args.items[0]->kind == GeneratorExp_kind) {
            expr(u, args.items[0], PR_TEST);   /* f(x for x in y): its own parentheses */
            break;
        }
        add(u, "(");
        exprs(u, args, PR_TEST);
        for (int i = 0; i < kws.n; i++) {
            add_if(u, i > 0 || args.n, ", ");
            if (kws.items[i]->arg) {
                add(u, kws.items[i]->arg);
                add(u, "=");
            } else {
                add(u, "**");
            }
            expr(u, kws.items[i]->value, PR_TEST);
        }
        add(u, ")");
        break;
    }
    case FormattedValue_kind: {
        /* only inside a JoinedStr; alone, as an f-string of one field */
        expr_seq one = {1, &e};
        joined_str(u, one);
        break;
    }
    case JoinedStr_kind:
        joined_str(u, e->v.JoinedStr.values);
        break;
    case Constant_kind:
        constant_text(u, &e->v.Constant.value);
        break;
    case Attribute_kind: {
        expr_ty v = e->v.Attribute.value;
        expr(u, v, PR_ATOM);
        /* `1 .real`: an int needs the space */
        add(u, v->kind == Constant_kind && v->v.Constant.value.kind == CONST_INT ? " ." : ".");
        add(u, e->v.Attribute.attr);
        break;
    }
    case Subscript_kind: {
        expr_ty s = e->v.Subscript.slice;
        expr(u, e->v.Subscript.value, PR_ATOM);
        add(u, "[");
        if (s->kind == Tuple_kind && s->v.Tuple.elts.n > 0) {
            /* a[1, 2:3]: the tuple without its parentheses */
            exprs(u, s->v.Tuple.elts, PR_TEST);
            add_if(u, s->v.Tuple.elts.n == 1, ",");
        } else {
            expr(u, s, PR_TUPLE);
        }
        add(u, "]");
        break;
    }
    case Starred_kind:
        add(u, "*");
        expr(u, e->v.Starred.value, PR_EXPR);
        break;
    case Name_kind:
        add(u, e->v.Name.id);
        break;
    case List_kind:
        add(u, "[");
        exprs(u, e->v.List.elts, PR_TEST);
        add(u, "]");
        break;
    case Tuple_kind:
        if (e->v.Tuple.elts.n == 0) {
            add(u, "()");
            break;
        }
        add_if(u, level > PR_TUPLE, "(");
        exprs(u, e->v.Tuple.elts, PR_TEST);
        add_if(u, e->v.Tuple.elts.n == 1, ",");
        add_if(u, level > PR_TUPLE, ")");
        break;
    case Slice_kind:
        if (e->v.Slice.lower)
            expr(u, e->v.Slice.lower, PR_TEST);
        add(u, ":");
        if (e->v.Slice.upper)
            expr(u, e->v.Slice.upper, PR_TEST);
        if (e->v.Slice.step) {
            add(u, ":");
            expr(u, e->v.Slice.step, PR_TEST);
        }
        break;
    }
    u->depth--;
}

char *ast_unparse_annotation(expr_ty e)
{
    Unparser u = {0};
    sb_init(&u.b);
    expr(&u, e, PR_TEST);
    if (u.failed) {
        sb_free(&u.b);
        return NULL;
    }
    sb_addc(&u.b, '\0');
    char *text = malloc(u.b.len);
    if (text)
        memcpy(text, u.b.p, u.b.len);
    else
        err_nomemory();
    sb_free(&u.b);
    return text;
}
