/* tmpy: what astschema.c tells the two converters between the C tree
 * (ast.h) and ast node objects: astexport.c (C -> objects) and astimport.c
 * (objects -> C). Private to vm/compiler/. */
#ifndef TMPY_ASTCONV_H
#define TMPY_ASTCONV_H

#include "ast.h"
#include "compile.h"

/* AstClass.category and, for node-valued fields, AstField.conv: the ASDL
 * type a class belongs to / a field holds. */
enum AstCategory {
    CAT_NONE, CAT_MOD, CAT_STMT, CAT_EXPR, CAT_CTX, CAT_BOOLOP, CAT_OPERATOR, CAT_UNARYOP, CAT_CMPOP,
    CAT_COMPREHENSION, CAT_HANDLER, CAT_ARGUMENTS, CAT_ARG, CAT_KEYWORD, CAT_ALIAS, CAT_WITHITEM,
    CAT_MATCH_CASE, CAT_PATTERN, CAT_TYPE_IGNORE, CAT_COUNT
};
/* AstField.conv for the other field types */
enum {
    CV_IDENT = 100,   /* identifier: char * */
    CV_STRING,        /* string (type_comment, tag): never kept in the C tree */
    CV_INT,           /* int */
    CV_CONST,         /* constant: struct constant (ast.h) */
    CV_KIND,          /* Constant.kind: 'u' from constant.u_prefix, else None */
};
/* OR'd into conv: a sequence whose items may be None (NULL in C): Dict.keys, kw_defaults */
#define CV_NULL_ITEMS 0x1000

typedef struct AstCategoryInfo {
    const char *name;     /* the ASDL type name (the abstract class, when there is one) */
    int abstract;         /* index of its abstract class in ast_classes; -1: a product type */
    int first, count;     /* its concrete classes: ast_classes[first .. first + count) */
    size_t size;          /* sizeof the C struct; 0: a plain enum value (contexts, operators) */
    long kind_offset;     /* where the C struct keeps its kind; -1: none */
    long pos_offset;      /* where it keeps lineno, col_offset, end_lineno, end_col_offset; -1: none */
} AstCategoryInfo;
extern const AstCategoryInfo ast_categories[CAT_COUNT];

/* The class of ast_classes that a C node of category cat with kind kind is (-1: none). */
int ast_class_index(int cat, int kind);

/* compile.c: vm_compile's two halves. compile_parse: src (mode COMPILE_*) to
 * a tree in arena, NULL with SyntaxError set. compile_tree: a tree to a code
 * object; src/len the text it came from (NULL, 0 for a tree built in Python). */
mod_ty compile_parse(Arena *arena, const char *src, size_t len, const char *filename, int mode);
Obj compile_tree(mod_ty mod, const char *filename, int mode, const char *src, size_t len);

#endif
