/* tmpy: an expression back to source text as CPython's unparser writes it
 * (unparse.c); private to vm/compiler/. */
#ifndef TMPY_UNPARSE_H
#define TMPY_UNPARSE_H

#include "ast.h"

/* The text `from __future__ import annotations` stores for an annotation
 * (malloc'd; NULL with a Python exception set). */
char *ast_unparse_annotation(expr_ty e);

#endif
