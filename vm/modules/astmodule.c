/* _ast: the node classes of Python 3.11's `ast` module (CPython's Lib/ast.py
 * runs on top of it unchanged). The classes are made at import from the
 * table in compiler/astschema.c, by calling type() (so they are ordinary
 * heap classes named ast.X, as CPython's): AST with its constructor and
 * __reduce__, the abstract bases (mod, stmt, expr, ...) carrying
 * _attributes, each concrete class with _fields, __match_args__, its ASDL
 * signature as __doc__ and None class defaults for optional (`?`) fields and
 * end positions. compile() converts trees to and from instances
 * (compiler/astexport.c, compiler/astimport.c). */
#include "compiler/compile.h"
#include "modules.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <string.h>

/* AST(*args, **kwargs): positional arguments fill _fields in order, keywords
 * set any attribute (as CPython 3.11). */
static Obj ast_init(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    size_t npos = nargs - 1;
    r[0] = vm_getattr_cstr((Obj)TYPE(args[0]), "_fields");
    if (!r[0])
        goto out;
    r[1] = vm_tuple_from_iter(r[0]);
    if (!r[1])
        goto out;
    int64_t nfields = TUPLE_LEN(r[1]);
    if ((int64_t)npos > nfields) {
        err_format(E_TypeError, "%s constructor takes at most %lld positional argument%s",
                   type_name(args[0]), (long long)nfields, nfields == 1 ? "" : "s");
        goto out;
    }
    for (size_t i = 0; i < npos; i++)
        if (vm_setattr(args[0], TUPLE_ITEMS(r[1])[i], args[1 + i]) < 0)
            goto out;
    int64_t nk = kwnames ? TUPLE_LEN(kwnames) : 0;
    r[2] = kwnames;
    for (int64_t k = 0; k < nk; k++) {
        for (size_t i = 0; i < npos; i++) {
            /* _fields may hold anything: == may run code (the tuples are roots) */
            int eq = vm_equal(TUPLE_ITEMS(r[1])[i], TUPLE_ITEMS(r[2])[k]);
            if (eq < 0)
                goto out;
            if (eq) {
                err_format(E_TypeError, "%s got multiple values for argument '%s'", type_name(args[0]),
                           str_cstr(TUPLE_ITEMS(r[2])[k]));
                goto out;
            }
        }
        if (vm_setattr(args[0], TUPLE_ITEMS(r[2])[k], args[nargs + k]) < 0)
            goto out;
    }
    res = g_None;
out:
    vm_unroots(r);
    return res;
}

/* copy and pickle: (type(self), (), self.__dict__) */
static Obj ast_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = vm_getattr_cstr(args[0], "__dict__");
    r[1] = r[0] ? tuple_new(0) : NULL;
    if (r[1])
        res = tuple_pack(3, (Obj)TYPE(args[0]), r[1], r[0]);
    vm_unroots(r);
    return res;
}

static const MethodDef ast_methods[] = {
    {"__init__", ast_init, METH_KW, NULL},
    {"__reduce__", ast_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* "Name(identifier id, expr_context ctx)", or "Pass" with no fields */
static void add_signature(StrBuf *b, const AstClass *c)
{
    sb_adds(b, c->name);
    if (!c->fields[0].name)
        return;
    sb_addc(b, '(');
    for (const AstField *f = c->fields; f->name; f++) {
        if (f != c->fields)
            sb_adds(b, ", ");
        sb_adds(b, f->type);
        if (f->card != AST_ONE)
            sb_addc(b, f->card == AST_OPT ? '?' : '*');
        sb_addc(b, ' ');
        sb_adds(b, f->name);
    }
    sb_addc(b, ')');
}

/* __doc__: the ASDL rule, as CPython's: "expr_context = Load | Store | Del",
 * "mod = Module(...)\n    | Interactive(...)", "Name(identifier id, ...)". */
static Obj class_doc(int idx)
{
    const AstClass *c = &ast_classes[idx];
    StrBuf b;
    sb_init(&b);
    if (c->kind || c->base >= 0 || ast_classes[idx + 1].base != idx) {
        add_signature(&b, c);
        return sb_finish(&b);
    }
    bool simple = true;
    for (int i = idx + 1; i < ast_nclasses && ast_classes[i].base == idx; i++)
        if (ast_classes[i].fields[0].name)
            simple = false;
    sb_adds(&b, c->name);
    sb_adds(&b, " = ");
    for (int i = idx + 1; i < ast_nclasses && ast_classes[i].base == idx; i++) {
        if (i > idx + 1 && simple) {
            sb_adds(&b, " | ");
        } else if (i > idx + 1) {   /* continuation lines align the bar under the '=' */
            sb_addc(&b, '\n');
            for (size_t k = 0; k <= strlen(c->name); k++)
                sb_addc(&b, ' ');
            sb_adds(&b, "| ");
        }
        add_signature(&b, &ast_classes[i]);
    }
    return sb_finish(&b);
}

static Obj str_tuple(const char *const *names, int n)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = tuple_new(n);
    if (!r[0])
        goto out;
    for (int i = 0; i < n; i++)
        TUPLE_ITEMS(r[0])[i] = g_None;
    for (int i = 0; i < n; i++) {
        Obj s = str_intern_cstr(names[i]);   /* pinned; may allocate, so the tuple may have moved and aged */
        if (!s)
            goto out;
        VM_WRITE_RARE(r[0]);
        TUPLE_ITEMS(r[0])[i] = s;
    }
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

/* type(name, (base,), ns) with the given namespace entries; NULL on error */
static Obj make_class(const char *name, Obj base, Obj ns)
{
    Obj *r = vm_roots(5);
    Obj res = NULL;
    r[0] = ns;
    r[1] = base;
    r[2] = str_from_cstr(name);
    r[3] = r[2] ? tuple_pack(1, r[1]) : NULL;
    if (r[3] && (r[4] = str_intern_cstr("ast")) && dict_setitem_cstr(r[0], "__module__", r[4]) == 0)
        res = vm_call3((Obj)T_type, r[2], r[3], r[0]);
    vm_unroots(r);
    return res;
}

/* The namespace of class idx: _fields, __match_args__, __doc__, defaults */
static Obj class_namespace(int idx)
{
    const AstClass *c = &ast_classes[idx];
    Obj *r = vm_roots(3);
    Obj res = NULL;
    const char *names[16];
    int n = 0;
    r[0] = dict_new();
    if (!r[0])
        goto out;
    for (const AstField *f = c->fields; f->name; f++) {
        names[n++] = f->name;
        if (f->card == AST_OPT && dict_setitem_cstr(r[0], f->name, g_None) < 0)
            goto out;
    }
    bool abstract = c->base < 0 && idx + 1 < ast_nclasses && ast_classes[idx + 1].base == idx;
    if (!abstract || c->fields[0].name) {
        r[1] = str_tuple(names, n);
        if (!r[1] || dict_setitem_cstr(r[0], "_fields", r[1]) < 0 ||
            dict_setitem_cstr(r[0], "__match_args__", r[1]) < 0)
            goto out;
    }
    if (c->attributes && c->base < 0) {   /* on the abstract base, or on a product type */
        r[1] = str_tuple(ast_position_names, 4);
        if (!r[1] || dict_setitem_cstr(r[0], "_attributes", r[1]) < 0)
            goto out;
        if (c->attributes == 1 &&   /* end positions are optional (int?), except in patterns */
            (dict_setitem_cstr(r[0], "end_lineno", g_None) < 0 || dict_setitem_cstr(r[0], "end_col_offset", g_None) < 0))
            goto out;
    }
    r[2] = class_doc(idx);
    if (!r[2] || dict_setitem_cstr(r[0], "__doc__", r[2]) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

/* AST and every class of the table, in a tuple: [0..n) the table, [n] AST */
static Obj make_classes(void)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = tuple_new(ast_nclasses + 1);
    if (!r[0])
        goto out;
    for (int i = 0; i <= ast_nclasses; i++)
        TUPLE_ITEMS(r[0])[i] = g_None;
    r[1] = dict_new();
    if (!r[1] || builtin_add_to_dict(r[1], ast_methods, T_object) < 0)
        goto out;
    r[2] = tuple_new(0);
    if (!r[2] || dict_setitem_cstr(r[1], "_fields", r[2]) < 0 || dict_setitem_cstr(r[1], "_attributes", r[2]) < 0 ||
        dict_setitem_cstr(r[1], "__match_args__", r[2]) < 0)
        goto out;
    r[3] = make_class("AST", (Obj)T_object, r[1]);
    if (!r[3])
        goto out;
    VM_WRITE_RARE(r[0]);
    TUPLE_ITEMS(r[0])[ast_nclasses] = r[3];
    for (int i = 0; i < ast_nclasses; i++) {
        r[1] = class_namespace(i);
        if (!r[1])
            goto out;
        int b = ast_classes[i].base;
        r[3] = make_class(ast_classes[i].name, TUPLE_ITEMS(r[0])[b < 0 ? ast_nclasses : b], r[1]);
        if (!r[3])
            goto out;
        VM_WRITE_RARE(r[0]);
        TUPLE_ITEMS(r[0])[i] = r[3];
    }
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

Obj ast_module_init(void)
{
    vm_tx_become_inevitable();   /* g_ast_class_tuple, a C global root, is written once */
    if (!g_ast_class_tuple) {
        Obj t = make_classes();
        if (!t)
            return NULL;
        VM_GLOBAL_ROOT(g_ast_class_tuple);
        g_ast_class_tuple = t;
    }
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = module_new("_ast");
    if (!r[0])
        goto out;
    for (int i = 0; i <= ast_nclasses; i++)
        if (module_add(r[0], i < ast_nclasses ? ast_classes[i].name : "AST", TUPLE_ITEMS(g_ast_class_tuple)[i]) < 0)
            goto out;
    if (module_add(r[0], "PyCF_ONLY_AST", int_from_i64(0x400)) < 0 ||
        module_add(r[0], "PyCF_TYPE_COMMENTS", int_from_i64(0x1000)) < 0 ||
        module_add(r[0], "PyCF_ALLOW_TOP_LEVEL_AWAIT", int_from_i64(0x2000)) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

bool ast_is_node(Obj v)
{
    return g_ast_class_tuple && vm_isinstance_type(v, (TypeObj *)TUPLE_ITEMS(g_ast_class_tuple)[ast_nclasses]);
}
