/* tmpy: `ast` node objects back into a C tree (ast.h) and on to a code
 * object: compile(tree, filename, mode). Driven by the class table of
 * astschema.c, with CPython 3.11's checks and messages where a malformed
 * tree would otherwise mislead the compiler: a node of the wrong class
 * ("expected some sort of expr, but got ..."), a missing field ("required
 * field ... missing from ..."), a field of the wrong type, expression
 * contexts that do not fit their place, empty bodies and mismatched
 * sequence lengths. */
#include "astconv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct Importer {
    Arena *arena;
} Importer;

static int import_node(Importer *im, Obj *obj, int cat, int expect_ctx, void *out);

static Obj class_of(int idx) { return TUPLE_ITEMS(g_ast_class_tuple)[idx]; }

static int out_of_memory(void)
{
    err_nomemory();
    return -1;
}

static int import_identifier(Importer *im, Obj v, char **out)
{
    if (IS_NONE(v)) {
        *out = NULL;
        return 0;
    }
    if (!IS_STR(v)) {
        err_set(E_TypeError, "AST identifier must be of type str");
        return -1;
    }
    *out = arena_strndup(im->arena, str_cstr(v), (size_t)STR(v)->nbytes);
    return *out ? 0 : out_of_memory();
}

static int import_int(Obj v, int *out)
{
    if (!IS_INT(v)) {
        Obj *r = vm_roots(1);
        r[0] = vm_repr(v);
        if (r[0])
            err_format(E_ValueError, "invalid integer value: %s", str_cstr(r[0]));
        vm_unroots(r);
        return -1;
    }
    int64_t i;
    if (vm_index_i64(v, &i) < 0) {
        if (!err_matches(E_OverflowError))
            return -1;
        err_clear();
        i = INT64_MAX;   /* beyond a C int too */
    }
    if (i < -2147483647 - 1 || i > 2147483647) {
        err_set(E_OverflowError, "Python int too large to convert to C int");
        return -1;
    }
    *out = (int)i;
    return 0;
}

static int import_constant(Importer *im, Obj v, constant *c)
{
    memset(c, 0, sizeof *c);
    if (v == g_None) c->kind = CONST_NONE;
    else if (v == g_True) c->kind = CONST_TRUE;
    else if (v == g_False) c->kind = CONST_FALSE;
    else if (v == g_Ellipsis) c->kind = CONST_ELLIPSIS;
    else if (IS_INT(v)) {
        Obj *r = vm_roots(1);
        r[0] = vm_repr(v);   /* decimal digits, maybe a '-' (int_from_string reads it back) */
        char *s = r[0] ? arena_strdup(im->arena, str_cstr(r[0])) : NULL;
        vm_unroots(r);
        if (!s)
            return err_occurred() ? -1 : out_of_memory();
        c->kind = CONST_INT;
        c->base = 10;
        c->s = s;
        c->len = strlen(s);
        errno = 0;
        long long i = strtoll(s, NULL, 10);
        c->fits_i64 = errno == 0;
        c->i64 = i;
    } else if (IS_FLOAT(v)) {
        c->kind = CONST_FLOAT;
        c->f = FLOAT_VAL(v);
    } else if (IS_COMPLEX(v)) {
        ComplexObj *z = (ComplexObj *)v;
        if (z->real != 0.0) {
            err_set(E_NotImplementedError, "compile(): a complex Constant with a real part is not supported yet");
            return -1;
        }
        c->kind = CONST_IMAG;
        c->f = z->imag;
    } else if (IS_STR(v)) {
        c->kind = CONST_STR;
        c->len = (size_t)STR(v)->nbytes;
        c->s = arena_strndup(im->arena, str_cstr(v), c->len);
        if (!c->s)
            return out_of_memory();
    } else if (IS_BYTES(v)) {
        c->kind = CONST_BYTES;
        c->len = (size_t)((BytesObj *)v)->length;
        char *s = arena_alloc(im->arena, c->len + 1);
        if (!s)
            return out_of_memory();
        memcpy(s, VM_LINEAR(((BytesObj *)v)->data), c->len);
        c->s = s;
    } else if (IS_TUPLE(v) || TYPE(v) == T_frozenset) {
        err_set(E_NotImplementedError, "compile(): a tuple or frozenset Constant is not supported yet");
        return -1;
    } else {
        err_format(E_TypeError, "got an invalid type in Constant: %s", type_name(v));
        return -1;
    }
    return 0;
}

/* The context a field's expressions must have (CPython's validator). */
static int field_context(const AstClass *c, const AstField *f, int own_ctx)
{
    const char *n = c->name, *fn = f->name;
    if (!strcmp(n, "Delete"))
        return AST_Del;
    if (!strcmp(n, "NamedExpr") && !strcmp(fn, "target"))
        return 0;   /* check_node: a Name (CPython's compiler says so before any context) */
    if ((!strcmp(fn, "targets") && !strcmp(n, "Assign")) ||
        !strcmp(fn, "target") ||
        !strcmp(fn, "optional_vars"))
        return AST_Store;
    if ((!strcmp(n, "List") || !strcmp(n, "Tuple")) && !strcmp(fn, "elts"))
        return own_ctx;
    if (!strcmp(n, "Starred") && !strcmp(fn, "value"))
        return own_ctx;
    return AST_Load;
}

/* import_node's expect_ctx for a pattern directly in a MatchSequence (where a MatchStar may be) */
#define IN_SEQUENCE_PATTERN 1

static const char *ctx_name(int ctx) { return ctx == AST_Store ? "Store" : ctx == AST_Del ? "Del" : "Load"; }

/* A non-empty sequence CPython requires ("empty body on If"). */
static bool must_be_nonempty(const AstClass *c, const AstField *f)
{
    const char *n = c->name, *fn = f->name;
    if (!strcmp(fn, "body"))
        return strcmp(n, "Module") && strcmp(n, "Interactive");
    if (!strcmp(fn, "targets") || !strcmp(fn, "items") || !strcmp(fn, "cases"))
        return true;
    return !strcmp(fn, "names") && strcmp(n, "MatchClass");
}

static int required_missing(const char *field, const char *owner)
{
    err_format(E_TypeError, "required field \"%s\" missing from %s", field, owner);
    return -1;
}

/* One value of f's type (not a sequence) into out. */
static int import_value(Importer *im, Obj *v, const AstClass *c, const AstField *f, int conv, int expect, void *out)
{
    if (IS_NONE(*v) && conv >= CAT_MOD && conv < CAT_COUNT) {
        if (f->card == AST_ONE) {
            err_format(E_ValueError, "field '%s' is required for %s", f->name, c->name);
            return -1;
        }
        *(void **)out = NULL;
        return 0;
    }
    if (IS_NONE(*v) && conv == CV_IDENT && f->card != AST_OPT) {
        if (f->card == AST_SEQ)
            err_set(E_ValueError, "None disallowed in identifier list");   /* (CPython crashes) */
        else
            err_format(E_ValueError, "field '%s' is required for %s", f->name, c->name);
        return -1;
    }
    switch (conv) {
    case CV_IDENT: return import_identifier(im, *v, (char **)out);
    case CV_INT: return IS_NONE(*v) && f->card == AST_OPT ? (*(int *)out = 0, 0) : import_int(*v, (int *)out);
    case CV_CONST: return import_constant(im, *v, (constant *)out);
    case CV_STRING: case CV_KIND: return 0;
    default: return import_node(im, v, conv, expect, out);
    }
}

static int import_field(Importer *im, Obj *obj, const AstClass *c, const AstField *f, int own_ctx, char *node)
{
    Obj *r = vm_roots(2);
    int rc = -1;
    Obj key = str_intern_cstr(f->name);   /* pinned; made before *obj is read (it may move) */
    r[0] = key ? vm_getattr_opt(*obj, key) : NULL;
    if (!r[0]) {
        if (err_occurred())
            goto out;
        if (f->card == AST_OPT || f->conv == CV_STRING || f->conv == CV_KIND) {
            rc = 0;   /* the arena zeroed it: NULL / 0 */
            goto out;
        }
        required_missing(f->name, c->name);
        goto out;
    }
    int conv = f->conv & ~CV_NULL_ITEMS;
    int expect = conv == CAT_EXPR                                   ? field_context(c, f, own_ctx)
                 : conv == CAT_PATTERN && !strcmp(c->name, "MatchSequence") ? IN_SEQUENCE_PATTERN
                                                                              : 0;
    if (f->card != AST_SEQ) {
        rc = f->offset < 0 ? 0 : import_value(im, &r[0], c, f, conv, expect, node + f->offset);
        goto out;
    }
    if (!IS_LIST(r[0])) {
        err_format(E_TypeError, "%s field \"%s\" must be a list, not a %s", c->name, f->name, type_name(r[0]));
        goto out;
    }
    if (f->offset < 0) {
        rc = 0;
        goto out;
    }
    int64_t n = LIST_LEN(r[0]);
    if (n == 0 && must_be_nonempty(c, f)) {
        err_format(E_ValueError, "empty %s on %s", f->name, c->name);
        goto out;
    }
    size_t stride = conv == CAT_CMPOP ? sizeof(cmpop_ty) : sizeof(void *);
    char *items = n ? arena_alloc(im->arena, (size_t)n * stride) : NULL;
    if (n && !items) {
        out_of_memory();
        goto out;
    }
    for (int64_t i = 0; i < n; i++) {
        if (i >= LIST_LEN(r[0])) {
            err_format(E_RuntimeError, "%s field \"%s\" changed size during iteration", c->name, f->name);
            goto out;
        }
        r[1] = LIST_ITEMS(r[0])[i];
        if (IS_NONE(r[1]) && conv >= CAT_MOD && conv < CAT_COUNT) {
            if (f->conv & CV_NULL_ITEMS)
                continue;   /* NULL: a **m entry of a Dict, a keyword-only argument without default */
            err_set(E_ValueError, conv == CAT_EXPR ? "None disallowed in expression list" : "None disallowed in statement list");
            goto out;
        }
        if (import_value(im, &r[1], c, f, conv, expect, items + (size_t)i * stride) < 0)
            goto out;
    }
    *(int *)(node + f->offset) = (int)n;
    *(char **)(node + f->offset + offsetof(expr_seq, items)) = items;
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

static int import_positions(Obj *obj, const char *owner, int *pos)
{
    Obj *r = vm_roots(1);
    int rc = -1;
    for (int i = 0; i < 4; i++) {
        Obj key = str_intern_cstr(ast_position_names[i]);   /* pinned; made before *obj is read (it may move) */
        r[0] = key ? vm_getattr_opt(*obj, key) : NULL;
        if (!r[0] && err_occurred())
            goto out;
        if (!r[0] || IS_NONE(r[0])) {
            if (i < 2) {
                required_missing(ast_position_names[i], owner);
                goto out;
            }
            pos[i] = pos[i - 2];   /* no end: the start */
            continue;
        }
        if (import_int(r[0], &pos[i]) < 0)
            goto out;
    }
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* A number Constant: an int or float (real), an imaginary (imag). */
static bool is_number(expr_ty v, bool real, bool imag)
{
    if (v->kind != Constant_kind)
        return false;
    constant_kind k = v->v.Constant.value.kind;
    return (real && (k == CONST_INT || k == CONST_FLOAT)) || (imag && k == CONST_IMAG);
}

static bool is_negative_number(expr_ty v, bool imag)
{
    return v->kind == UnaryOp_kind && v->v.UnaryOp.op == AST_USub && is_number(v->v.UnaryOp.operand, true, imag);
}

/* What a value pattern (or a mapping pattern's key) may hold (CPython
 * 3.11's validator): a number, str or bytes Constant, a negated number, a
 * complex literal (real +/- imaginary), an attribute chain, an f-string (the
 * compiler refuses that one, as CPython's does). NULL if v is one. */
static const char *check_pattern_value(expr_ty v)
{
    switch (v->kind) {
    case Constant_kind: {
        constant_kind k = v->v.Constant.value.kind;
        return k == CONST_NONE || k == CONST_TRUE || k == CONST_FALSE || k == CONST_ELLIPSIS
                   ? "unexpected constant inside of a literal pattern"
                   : NULL;
    }
    case Attribute_kind: case JoinedStr_kind:
        return NULL;
    case UnaryOp_kind:
        if (is_negative_number(v, true))
            return NULL;
        break;
    case BinOp_kind:
        if ((v->v.BinOp.op == AST_Add || v->v.BinOp.op == AST_Sub) &&
            (is_number(v->v.BinOp.left, true, false) || is_negative_number(v->v.BinOp.left, false)) &&
            is_number(v->v.BinOp.right, false, true))
            return NULL;
        break;
    default:
        break;
    }
    return "patterns may only match literals and attribute lookups";
}

static bool is_wildcard(const char *name) { return name && !strcmp(name, "_"); }

/* The rules the compiler relies on (CPython's validator and messages). */
static int check_node(const AstClass *c, const char *node, int expect_ctx)
{
    const char *msg = NULL;
    if (c->category == CAT_STMT) {
        const struct _stmt *st = (const struct _stmt *)node;
        if ((st->kind == Try_kind || st->kind == TryStar_kind) && !st->v.Try.handlers.n && !st->v.Try.finalbody.n) {
            err_format(E_ValueError, "%s has neither except handlers nor finalbody", c->name);
            return -1;
        }
        if ((st->kind == Try_kind || st->kind == TryStar_kind) && !st->v.Try.handlers.n && st->v.Try.orelse.n) {
            err_format(E_ValueError, "%s has orelse but no except handlers", c->name);
            return -1;
        }
        for (int i = 0; st->kind == TryStar_kind && i < st->v.Try.handlers.n; i++)
            if (!st->v.Try.handlers.items[i]->type) {   /* the parser never makes one; CPython runs it */
                err_set(E_NotImplementedError, "compile(): an except* handler without a type is not supported yet");
                return -1;
            }
        if (st->kind == Raise_kind && st->v.Raise.cause && !st->v.Raise.exc)
            msg = "Raise with cause but no exception";
        if (st->kind == AnnAssign_kind && st->v.AnnAssign.simple && st->v.AnnAssign.target->kind != Name_kind) {
            err_set(E_TypeError, "AnnAssign with simple non-Name target");
            return -1;
        }
        if (st->kind == ImportFrom_kind && st->v.ImportFrom.level < 0)
            msg = "Negative ImportFrom level";
        if (st->kind == AugAssign_kind) {
            expr_ty t = st->v.AugAssign.target;
            if (t->kind != Name_kind && t->kind != Attribute_kind && t->kind != Subscript_kind) {
                /* CPython's number: the node's place in Python.asdl's expr list */
                err_format(E_SystemError, "invalid node type (%d) for augmented assignment",
                           ast_class_index(CAT_EXPR, t->kind) - ast_categories[CAT_EXPR].first + 1);
                return -1;
            }
        }
    } else if (c->category == CAT_EXPR) {
        const struct _expr *e = (const struct _expr *)node;
        int conv = e->kind == FormattedValue_kind ? e->v.FormattedValue.conversion : -1;
        const comprehension_seq *gens = e->kind == ListComp_kind       ? &e->v.ListComp.generators
                                        : e->kind == SetComp_kind      ? &e->v.SetComp.generators
                                        : e->kind == DictComp_kind     ? &e->v.DictComp.generators
                                        : e->kind == GeneratorExp_kind ? &e->v.GeneratorExp.generators
                                                                       : NULL;
        if (gens && gens->n == 0)
            msg = "comprehension with no generators";
        if (conv != -1 && conv != 's' && conv != 'r' && conv != 'a') {
            err_format(E_SystemError, "Unrecognized conversion character %d", conv);
            return -1;
        }
    }
    if (c->category == CAT_EXPR) {
        const struct _expr *e = (const struct _expr *)node;
        if (e->kind == NamedExpr_kind) {
            /* the symbol table and the compiler read the target as a Name */
            expr_ty t = e->v.NamedExpr.target;
            if (t->kind != Name_kind) {
                err_set(E_TypeError, "NamedExpr target must be a Name");
                return -1;
            }
            if (t->v.Name.ctx != AST_Store) {
                err_format(E_ValueError, "expression must have Store context but has %s instead", ctx_name(t->v.Name.ctx));
                return -1;
            }
        }
        if (e->kind == Compare_kind && e->v.Compare.comparators.n == 0)
            msg = "Compare with no comparators";
        else if (e->kind == Compare_kind && e->v.Compare.ops.n != e->v.Compare.comparators.n)
            msg = "Compare has a different number of comparators and operands";
        else if (e->kind == Dict_kind && e->v.Dict.keys.n != e->v.Dict.values.n)
            msg = "Dict doesn't have the same number of keys as values";
        else if (e->kind == BoolOp_kind && e->v.BoolOp.values.n < 2)
            msg = "BoolOp with less than 2 values";
        else if (e->kind == Name_kind && (!strcmp(e->v.Name.id, "None") || !strcmp(e->v.Name.id, "True") ||
                                          !strcmp(e->v.Name.id, "False"))) {
            err_format(E_ValueError, "identifier field can't represent '%s' constant", e->v.Name.id);
            return -1;
        }
    } else if (c->category == CAT_ARGUMENTS) {
        const struct _arguments *a = (const struct _arguments *)node;
        if (a->defaults.n > a->posonlyargs.n + a->args.n)
            msg = "more positional defaults than args on arguments";
        else if (a->kw_defaults.n != a->kwonlyargs.n)
            msg = "length of kwonlyargs is not the same as kw_defaults on arguments";
    } else if (c->category == CAT_PATTERN) {
        const struct _pattern *p = (const struct _pattern *)node;
        if (p->kind == MatchMapping_kind && p->v.MatchMapping.keys.n != p->v.MatchMapping.patterns.n)
            msg = "MatchMapping doesn't have the same number of keys as patterns";
        else if (p->kind == MatchClass_kind && p->v.MatchClass.kwd_attrs.n != p->v.MatchClass.kwd_patterns.n)
            msg = "MatchClass doesn't have the same number of keyword attributes as patterns";
        else if (p->kind == MatchOr_kind && p->v.MatchOr.patterns.n < 2)
            msg = "MatchOr requires at least 2 patterns";
        else if (p->kind == MatchSingleton_kind && p->v.MatchSingleton.value.kind != CONST_NONE &&
                 p->v.MatchSingleton.value.kind != CONST_TRUE && p->v.MatchSingleton.value.kind != CONST_FALSE)
            msg = "MatchSingleton can only contain True, False and None";
        else if (p->kind == MatchValue_kind)
            msg = check_pattern_value(p->v.MatchValue.value);
        else if (p->kind == MatchStar_kind && expect_ctx != IN_SEQUENCE_PATTERN)
            msg = "can't use MatchStar here";
        else if ((p->kind == MatchStar_kind && is_wildcard(p->v.MatchStar.name)) ||
                 (p->kind == MatchAs_kind && is_wildcard(p->v.MatchAs.name)) ||
                 (p->kind == MatchMapping_kind && is_wildcard(p->v.MatchMapping.rest)))
            msg = "can't capture name '_' in patterns";
        else if (p->kind == MatchAs_kind && p->v.MatchAs.pattern && !p->v.MatchAs.name)
            msg = "MatchAs must specify a target name if a pattern is given";
        else if (p->kind == MatchClass_kind) {
            expr_ty cls = p->v.MatchClass.cls;
            while (cls->kind == Attribute_kind)
                cls = cls->v.Attribute.value;
            if (cls->kind != Name_kind)
                msg = "MatchClass cls field can only contain Name or Attribute nodes.";
        }
        for (int i = 0; !msg && p->kind == MatchMapping_kind && i < p->v.MatchMapping.keys.n; i++) {
            expr_ty key = p->v.MatchMapping.keys.items[i];
            constant_kind k = key->kind == Constant_kind ? key->v.Constant.value.kind : CONST_ELLIPSIS;
            if (k != CONST_NONE && k != CONST_TRUE && k != CONST_FALSE)   /* keys may be those */
                msg = check_pattern_value(key);
        }
    }
    if (msg) {
        err_set(E_ValueError, msg);
        return -1;
    }
    return 0;
}

/* *obj (a root slot) as a node of category cat into out: a pointer to a new
 * C node, or an int for contexts and operators. expect_ctx: the context an
 * expression with a ctx field must have here (0: any). */
static int import_node(Importer *im, Obj *obj, int cat, int expect_ctx, void *out)
{
    const AstCategoryInfo *ci = &ast_categories[cat];
    int idx = -1;
    if (ci->abstract < 0) {
        idx = ci->first;   /* a product type: read its fields, whatever its class */
    } else {
        for (int i = ci->first; i < ci->first + ci->count; i++)
            if (vm_isinstance_type(*obj, (TypeObj *)class_of(i))) {
                idx = i;
                break;
            }
        if (idx < 0 || ast_classes[idx].kind == 0) {
            Obj *r = vm_roots(1);
            r[0] = vm_repr(*obj);
            if (r[0])
                err_format(E_TypeError, "expected some sort of %s, but got %s", ci->name, str_cstr(r[0]));
            vm_unroots(r);
            return -1;
        }
    }
    const AstClass *c = &ast_classes[idx];
    if (ci->size == 0) {
        *(int *)out = c->kind;
        return 0;
    }
    if (vm_enter_recursive(" during compilation") < 0)
        return -1;
    int rc = -1;
    char *node = arena_alloc(im->arena, ci->size);
    if (!node) {
        out_of_memory();
        goto out;
    }
    if (ci->kind_offset >= 0)
        *(int *)(node + ci->kind_offset) = c->kind;
    /* positions first, as CPython reads them */
    if (ci->pos_offset >= 0 && import_positions(obj, ci->name, (int *)(node + ci->pos_offset)) < 0)
        goto out;
    /* the node's own context next: its children's may depend on it */
    int own_ctx = 0;
    for (const AstField *f = c->fields; f->name; f++)
        if (f->conv == CAT_CTX) {
            if (import_field(im, obj, c, f, 0, node) < 0)
                goto out;
            own_ctx = *(int *)(node + f->offset);
            if (expect_ctx && own_ctx != expect_ctx) {
                err_format(E_ValueError, "expression must have %s context but has %s instead", ctx_name(expect_ctx),
                           ctx_name(own_ctx));
                goto out;
            }
        }
    for (const AstField *f = c->fields; f->name; f++)
        if (f->conv != CAT_CTX && import_field(im, obj, c, f, own_ctx, node) < 0)
            goto out;
    if (cat == CAT_EXPR && expect_ctx && expect_ctx != AST_Load && !own_ctx) {
        err_format(E_ValueError, "expression which can't be assigned to in %s context", ctx_name(expect_ctx));
        goto out;
    }
    if (check_node(c, node, expect_ctx) < 0)
        goto out;
    *(char **)out = node;
    rc = 0;
out:
    vm_leave_recursive();
    return rc;
}

Obj ast_compile_objects(Obj tree, const char *filename, int mode)
{
    static const char *const wanted[] = {"Module", "Expression", "Interactive"};
    int m = mode & ~COMPILE_FUTURE_ANNOTATIONS;
    int idx = ast_class_index(CAT_MOD, m == COMPILE_EVAL ? Expression_kind : m == COMPILE_SINGLE ? Interactive_kind
                                                                                                 : Module_kind);
    Obj *r = vm_roots(1);
    r[0] = tree;
    Obj code = NULL;
    if (!g_ast_class_tuple || !vm_isinstance_type(r[0], (TypeObj *)class_of(idx))) {
        err_format(E_TypeError, "expected %s node, got %s", wanted[m == COMPILE_EVAL ? 1 : m == COMPILE_SINGLE ? 2 : 0],
                   type_name(r[0]));
        vm_unroots(r);
        return NULL;
    }
    Importer im = { arena_new() };
    if (!im.arena) {
        vm_unroots(r);
        return err_nomemory();
    }
    mod_ty mod = NULL;
    if (import_node(&im, &r[0], CAT_MOD, 0, &mod) == 0)
        code = compile_tree(mod, filename, mode, NULL, 0);
    arena_free(im.arena);
    vm_unroots(r);
    return code;
}
