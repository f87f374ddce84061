/* tmpy: a parsed tree (ast.h) as `ast` node objects: what
 * compile(src, filename, mode, ast.PyCF_ONLY_AST) returns. Driven by the
 * class table of astschema.c: each C node becomes an instance of its class
 * with every field set (None for an absent optional one, a list for a
 * sequence) and, for classes with positions, lineno, col_offset,
 * end_lineno and end_col_offset (UTF-8 byte columns, as CPython's). */
#include "astconv.h"
#include "parser.h"

#include <string.h>

Obj g_ast_class_tuple;
static Obj g_ast_singletons;   /* one instance per context/operator class (index = class index), or None */

static Obj export_node(int cat, const char *node);

static Obj export_constant(const constant *v)
{
    switch (v->kind) {
    case CONST_NONE: return g_None;
    case CONST_TRUE: return g_True;
    case CONST_FALSE: return g_False;
    case CONST_ELLIPSIS: return g_Ellipsis;
    case CONST_INT: return v->fits_i64 ? int_from_i64(v->i64) : int_from_string(v->s, strlen(v->s), v->base);
    case CONST_FLOAT: return float_new(v->f);
    case CONST_IMAG: return complex_new(0.0, v->f);
    case CONST_STR: return str_new(v->s, v->len);
    case CONST_BYTES: return bytes_new(v->s, v->len);
    }
    err_set(E_SystemError, "unknown constant kind in the syntax tree");
    return NULL;
}

/* The shared instance of a context or operator class (CPython's trees share them too). */
static Obj export_simple(int cat, int kind)
{
    int idx = ast_class_index(cat, kind);
    if (idx < 0) {
        err_set(E_SystemError, "unknown operator in the syntax tree");
        return NULL;
    }
    if (!g_ast_singletons) {
        vm_tx_become_inevitable();   /* a C global root is written only by an inevitable transaction */
        Obj *r = vm_roots(2);
        r[0] = tuple_new(ast_nclasses);
        for (int i = 0; r[0] && i < ast_nclasses; i++)
            TUPLE_ITEMS(r[0])[i] = g_None;
        for (int i = 0; r[0] && i < ast_nclasses; i++) {
            const AstClass *c = &ast_classes[i];
            bool simple = c->kind && ast_categories[c->category].size == 0 && c->category != CAT_TYPE_IGNORE;
            if (!simple)
                continue;
            r[1] = instance_new((TypeObj *)TUPLE_ITEMS(g_ast_class_tuple)[i]);
            if (!r[1]) {
                r[0] = NULL;
                break;
            }
            VM_WRITE_RARE(r[0]);
            TUPLE_ITEMS(r[0])[i] = r[1];
        }
        if (r[0] && !g_ast_singletons) {
            VM_GLOBAL_ROOT(g_ast_singletons);
            g_ast_singletons = r[0];
        }
        vm_unroots(r);
        if (!g_ast_singletons)
            return NULL;
    }
    return TUPLE_ITEMS(g_ast_singletons)[idx];
}

/* One value of conv's type stored at p. */
static Obj export_one(int conv, const char *p)
{
    switch (conv) {
    case CV_IDENT: {
        const char *s = *(char *const *)p;
        return s ? str_from_cstr(s) : g_None;
    }
    case CV_STRING: return g_None;
    case CV_INT: return int_from_i64(*(const int *)p);
    case CV_CONST: return export_constant((const constant *)p);
    case CAT_CTX: case CAT_BOOLOP: case CAT_OPERATOR: case CAT_UNARYOP: case CAT_CMPOP:
        return export_simple(conv, *(const int *)p);
    default: {
        const char *n = *(char *const *)p;
        return n ? export_node(conv, n) : g_None;
    }
    }
}

static Obj export_field(const AstField *f, const char *node)
{
    int conv = f->conv & ~CV_NULL_ITEMS;
    if (f->card != AST_SEQ)
        return f->offset < 0 ? g_None : export_one(conv, node + f->offset);
    if (f->offset < 0)
        return list_new(0);
    int n = *(const int *)(node + f->offset);
    const char *items = *(char *const *)(node + f->offset + offsetof(expr_seq, items));
    size_t stride = conv == CAT_CMPOP ? sizeof(cmpop_ty) : sizeof(void *);
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = list_new_capacity(n);
    if (!r[0])
        goto out;
    for (int i = 0; i < n; i++) {
        r[1] = export_one(conv, items + (size_t)i * stride);
        if (!r[1] || list_append(r[0], r[1]) < 0)
            goto out;
    }
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

static int set_cstr(Obj *node, const char *name, Obj v)
{
    Obj *r = vm_roots(1);
    r[0] = v;
    Obj key = str_intern_cstr(name);
    int rc = key ? vm_setattr(*node, key, r[0]) : -1;
    vm_unroots(r);
    return rc;
}

static Obj export_node(int cat, const char *node)
{
    const AstCategoryInfo *ci = &ast_categories[cat];
    int kind = ci->kind_offset >= 0 ? *(const int *)(node + ci->kind_offset) : 0;
    int idx = ast_class_index(cat, kind);
    if (idx < 0) {
        err_format(E_SystemError, "unknown %s node in the syntax tree", ci->name);
        return NULL;
    }
    if (vm_enter_recursive(" during ast construction") < 0)
        return NULL;
    const AstClass *c = &ast_classes[idx];
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = instance_new((TypeObj *)TUPLE_ITEMS(g_ast_class_tuple)[idx]);
    if (!r[0])
        goto out;
    for (const AstField *f = c->fields; f->name; f++) {
        if (f->conv == CV_KIND) {   /* Constant.kind: 'u' for u"..." */
            const struct _expr *e = (const struct _expr *)node;
            r[1] = e->v.Constant.value.kind == CONST_STR && e->v.Constant.value.u_prefix ? str_from_cstr("u") : g_None;
        } else {
            r[1] = export_field(f, node);
        }
        if (!r[1] || set_cstr(&r[0], f->name, r[1]) < 0)
            goto out;
    }
    if (ci->pos_offset >= 0) {
        const int *pos = (const int *)(node + ci->pos_offset);
        for (int i = 0; i < 4; i++)
            if (set_cstr(&r[0], ast_position_names[i], int_from_i64(pos[i])) < 0)
                goto out;
    }
    res = r[0];
out:
    vm_unroots(r);
    vm_leave_recursive();
    return res;
}

Obj ast_parse_to_objects(const char *src, size_t len, const char *filename, int mode)
{
    if (!vm_import_cstr("_ast"))
        return NULL;
    if (!g_ast_class_tuple) {
        err_set(E_SystemError, "the _ast module did not make its classes");
        return NULL;
    }
    Arena *arena = arena_new();
    if (!arena)
        return err_nomemory();
    Obj res = NULL;
    mod_ty mod = compile_parse(arena, src, len, filename, mode);
    if (mod)
        res = export_node(CAT_MOD, (const char *)mod);
    arena_free(arena);
    return res;
}
