/* tmpy: the node classes of Python 3.11's `ast` module, as data: names,
 * bases, fields (ASDL type, cardinality, where the C tree of ast.h keeps
 * them). vm/modules/astmodule.c makes the classes; astexport.c and
 * astimport.c convert between them and the C tree. Classes come in the
 * order of CPython's Python.asdl (their docs list them so). */
#include "astconv.h"

#include <stddef.h>

/* the fields of every class without any (abstract classes, Pass, operators, contexts) */
static const AstField f_none[] = {{NULL, NULL, 0, 0, 0}};

static const AstField f_Module[] = {{"body", "stmt", AST_SEQ, CAT_STMT, (long)offsetof(struct _mod, v.Module.body)}, {"type_ignores", "type_ignore", AST_SEQ, CAT_TYPE_IGNORE, -1}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Interactive[] = {{"body", "stmt", AST_SEQ, CAT_STMT, (long)offsetof(struct _mod, v.Interactive.body)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Expression[] = {{"body", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _mod, v.Expression.body)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_FunctionType[] = {{"argtypes", "expr", AST_SEQ, CAT_EXPR, -1}, {"returns", "expr", AST_ONE, CAT_EXPR, -1}, {NULL, NULL, 0, 0, 0}};
static const AstField f_FunctionDef[] = {{"name", "identifier", AST_ONE, CV_IDENT, (long)offsetof(struct _stmt, v.FunctionDef.name)}, {"args", "arguments", AST_ONE, CAT_ARGUMENTS, (long)offsetof(struct _stmt, v.FunctionDef.args)}, {"body", "stmt", AST_SEQ, CAT_STMT, (long)offsetof(struct _stmt, v.FunctionDef.body)}, {"decorator_list", "expr", AST_SEQ, CAT_EXPR, (long)offsetof(struct _stmt, v.FunctionDef.decorator_list)}, {"returns", "expr", AST_OPT, CAT_EXPR, (long)offsetof(struct _stmt, v.FunctionDef.returns)}, {"type_comment", "string", AST_OPT, CV_STRING, -1}, {NULL, NULL, 0, 0, 0}};
static const AstField f_ClassDef[] = {{"name", "identifier", AST_ONE, CV_IDENT, (long)offsetof(struct _stmt, v.ClassDef.name)}, {"bases", "expr", AST_SEQ, CAT_EXPR, (long)offsetof(struct _stmt, v.ClassDef.bases)}, {"keywords", "keyword", AST_SEQ, CAT_KEYWORD, (long)offsetof(struct _stmt, v.ClassDef.keywords)}, {"body", "stmt", AST_SEQ, CAT_STMT, (long)offsetof(struct _stmt, v.ClassDef.body)}, {"decorator_list", "expr", AST_SEQ, CAT_EXPR, (long)offsetof(struct _stmt, v.ClassDef.decorator_list)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Return[] = {{"value", "expr", AST_OPT, CAT_EXPR, (long)offsetof(struct _stmt, v.Return.value)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Delete[] = {{"targets", "expr", AST_SEQ, CAT_EXPR, (long)offsetof(struct _stmt, v.Delete.targets)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Assign[] = {{"targets", "expr", AST_SEQ, CAT_EXPR, (long)offsetof(struct _stmt, v.Assign.targets)}, {"value", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _stmt, v.Assign.value)}, {"type_comment", "string", AST_OPT, CV_STRING, -1}, {NULL, NULL, 0, 0, 0}};
static const AstField f_AugAssign[] = {{"target", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _stmt, v.AugAssign.target)}, {"op", "operator", AST_ONE, CAT_OPERATOR, (long)offsetof(struct _stmt, v.AugAssign.op)}, {"value", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _stmt, v.AugAssign.value)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_AnnAssign[] = {{"target", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _stmt, v.AnnAssign.target)}, {"annotation", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _stmt, v.AnnAssign.annotation)}, {"value", "expr", AST_OPT, CAT_EXPR, (long)offsetof(struct _stmt, v.AnnAssign.value)}, {"simple", "int", AST_ONE, CV_INT, (long)offsetof(struct _stmt, v.AnnAssign.simple)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_For[] = {{"target", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _stmt, v.For.target)}, {"iter", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _stmt, v.For.iter)}, {"body", "stmt", AST_SEQ, CAT_STMT, (long)offsetof(struct _stmt, v.For.body)}, {"orelse", "stmt", AST_SEQ, CAT_STMT, (long)offsetof(struct _stmt, v.For.orelse)}, {"type_comment", "string", AST_OPT, CV_STRING, -1}, {NULL, NULL, 0, 0, 0}};
static const AstField f_While[] = {{"test", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _stmt, v.While.test)}, {"body", "stmt", AST_SEQ, CAT_STMT, (long)offsetof(struct _stmt, v.While.body)}, {"orelse", "stmt", AST_SEQ, CAT_STMT, (long)offsetof(struct _stmt, v.While.orelse)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_If[] = {{"test", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _stmt, v.If.test)}, {"body", "stmt", AST_SEQ, CAT_STMT, (long)offsetof(struct _stmt, v.If.body)}, {"orelse", "stmt", AST_SEQ, CAT_STMT, (long)offsetof(struct _stmt, v.If.orelse)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_With[] = {{"items", "withitem", AST_SEQ, CAT_WITHITEM, (long)offsetof(struct _stmt, v.With.items)}, {"body", "stmt", AST_SEQ, CAT_STMT, (long)offsetof(struct _stmt, v.With.body)}, {"type_comment", "string", AST_OPT, CV_STRING, -1}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Match[] = {{"subject", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _stmt, v.Match.subject)}, {"cases", "match_case", AST_SEQ, CAT_MATCH_CASE, (long)offsetof(struct _stmt, v.Match.cases)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Raise[] = {{"exc", "expr", AST_OPT, CAT_EXPR, (long)offsetof(struct _stmt, v.Raise.exc)}, {"cause", "expr", AST_OPT, CAT_EXPR, (long)offsetof(struct _stmt, v.Raise.cause)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Try[] = {{"body", "stmt", AST_SEQ, CAT_STMT, (long)offsetof(struct _stmt, v.Try.body)}, {"handlers", "excepthandler", AST_SEQ, CAT_HANDLER, (long)offsetof(struct _stmt, v.Try.handlers)}, {"orelse", "stmt", AST_SEQ, CAT_STMT, (long)offsetof(struct _stmt, v.Try.orelse)}, {"finalbody", "stmt", AST_SEQ, CAT_STMT, (long)offsetof(struct _stmt, v.Try.finalbody)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Assert[] = {{"test", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _stmt, v.Assert.test)}, {"msg", "expr", AST_OPT, CAT_EXPR, (long)offsetof(struct _stmt, v.Assert.msg)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Import[] = {{"names", "alias", AST_SEQ, CAT_ALIAS, (long)offsetof(struct _stmt, v.Import.names)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_ImportFrom[] = {{"module", "identifier", AST_OPT, CV_IDENT, (long)offsetof(struct _stmt, v.ImportFrom.module)}, {"names", "alias", AST_SEQ, CAT_ALIAS, (long)offsetof(struct _stmt, v.ImportFrom.names)}, {"level", "int", AST_OPT, CV_INT, (long)offsetof(struct _stmt, v.ImportFrom.level)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Global[] = {{"names", "identifier", AST_SEQ, CV_IDENT, (long)offsetof(struct _stmt, v.Global.names)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Nonlocal[] = {{"names", "identifier", AST_SEQ, CV_IDENT, (long)offsetof(struct _stmt, v.Nonlocal.names)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Expr[] = {{"value", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _stmt, v.Expr.value)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_BoolOp[] = {{"op", "boolop", AST_ONE, CAT_BOOLOP, (long)offsetof(struct _expr, v.BoolOp.op)}, {"values", "expr", AST_SEQ, CAT_EXPR, (long)offsetof(struct _expr, v.BoolOp.values)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_NamedExpr[] = {{"target", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.NamedExpr.target)}, {"value", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.NamedExpr.value)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_BinOp[] = {{"left", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.BinOp.left)}, {"op", "operator", AST_ONE, CAT_OPERATOR, (long)offsetof(struct _expr, v.BinOp.op)}, {"right", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.BinOp.right)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_UnaryOp[] = {{"op", "unaryop", AST_ONE, CAT_UNARYOP, (long)offsetof(struct _expr, v.UnaryOp.op)}, {"operand", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.UnaryOp.operand)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Lambda[] = {{"args", "arguments", AST_ONE, CAT_ARGUMENTS, (long)offsetof(struct _expr, v.Lambda.args)}, {"body", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.Lambda.body)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_IfExp[] = {{"test", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.IfExp.test)}, {"body", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.IfExp.body)}, {"orelse", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.IfExp.orelse)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Dict[] = {{"keys", "expr", AST_SEQ, CAT_EXPR | CV_NULL_ITEMS, (long)offsetof(struct _expr, v.Dict.keys)}, {"values", "expr", AST_SEQ, CAT_EXPR, (long)offsetof(struct _expr, v.Dict.values)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Set[] = {{"elts", "expr", AST_SEQ, CAT_EXPR, (long)offsetof(struct _expr, v.Set.elts)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_ListComp[] = {{"elt", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.ListComp.elt)}, {"generators", "comprehension", AST_SEQ, CAT_COMPREHENSION, (long)offsetof(struct _expr, v.ListComp.generators)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_SetComp[] = {{"elt", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.SetComp.elt)}, {"generators", "comprehension", AST_SEQ, CAT_COMPREHENSION, (long)offsetof(struct _expr, v.SetComp.generators)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_DictComp[] = {{"key", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.DictComp.key)}, {"value", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.DictComp.value)}, {"generators", "comprehension", AST_SEQ, CAT_COMPREHENSION, (long)offsetof(struct _expr, v.DictComp.generators)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_GeneratorExp[] = {{"elt", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.GeneratorExp.elt)}, {"generators", "comprehension", AST_SEQ, CAT_COMPREHENSION, (long)offsetof(struct _expr, v.GeneratorExp.generators)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Await[] = {{"value", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.Await.value)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Yield[] = {{"value", "expr", AST_OPT, CAT_EXPR, (long)offsetof(struct _expr, v.Yield.value)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_YieldFrom[] = {{"value", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.YieldFrom.value)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Compare[] = {{"left", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.Compare.left)}, {"ops", "cmpop", AST_SEQ, CAT_CMPOP, (long)offsetof(struct _expr, v.Compare.ops)}, {"comparators", "expr", AST_SEQ, CAT_EXPR, (long)offsetof(struct _expr, v.Compare.comparators)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Call[] = {{"func", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.Call.func)}, {"args", "expr", AST_SEQ, CAT_EXPR, (long)offsetof(struct _expr, v.Call.args)}, {"keywords", "keyword", AST_SEQ, CAT_KEYWORD, (long)offsetof(struct _expr, v.Call.keywords)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_FormattedValue[] = {{"value", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.FormattedValue.value)}, {"conversion", "int", AST_ONE, CV_INT, (long)offsetof(struct _expr, v.FormattedValue.conversion)}, {"format_spec", "expr", AST_OPT, CAT_EXPR, (long)offsetof(struct _expr, v.FormattedValue.format_spec)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_JoinedStr[] = {{"values", "expr", AST_SEQ, CAT_EXPR, (long)offsetof(struct _expr, v.JoinedStr.values)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Constant[] = {{"value", "constant", AST_ONE, CV_CONST, (long)offsetof(struct _expr, v.Constant.value)}, {"kind", "string", AST_OPT, CV_KIND, -1}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Attribute[] = {{"value", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.Attribute.value)}, {"attr", "identifier", AST_ONE, CV_IDENT, (long)offsetof(struct _expr, v.Attribute.attr)}, {"ctx", "expr_context", AST_ONE, CAT_CTX, (long)offsetof(struct _expr, v.Attribute.ctx)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Subscript[] = {{"value", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.Subscript.value)}, {"slice", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.Subscript.slice)}, {"ctx", "expr_context", AST_ONE, CAT_CTX, (long)offsetof(struct _expr, v.Subscript.ctx)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Starred[] = {{"value", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _expr, v.Starred.value)}, {"ctx", "expr_context", AST_ONE, CAT_CTX, (long)offsetof(struct _expr, v.Starred.ctx)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Name[] = {{"id", "identifier", AST_ONE, CV_IDENT, (long)offsetof(struct _expr, v.Name.id)}, {"ctx", "expr_context", AST_ONE, CAT_CTX, (long)offsetof(struct _expr, v.Name.ctx)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_List[] = {{"elts", "expr", AST_SEQ, CAT_EXPR, (long)offsetof(struct _expr, v.List.elts)}, {"ctx", "expr_context", AST_ONE, CAT_CTX, (long)offsetof(struct _expr, v.List.ctx)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Tuple[] = {{"elts", "expr", AST_SEQ, CAT_EXPR, (long)offsetof(struct _expr, v.Tuple.elts)}, {"ctx", "expr_context", AST_ONE, CAT_CTX, (long)offsetof(struct _expr, v.Tuple.ctx)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_Slice[] = {{"lower", "expr", AST_OPT, CAT_EXPR, (long)offsetof(struct _expr, v.Slice.lower)}, {"upper", "expr", AST_OPT, CAT_EXPR, (long)offsetof(struct _expr, v.Slice.upper)}, {"step", "expr", AST_OPT, CAT_EXPR, (long)offsetof(struct _expr, v.Slice.step)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_comprehension[] = {{"target", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _comprehension, target)}, {"iter", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _comprehension, iter)}, {"ifs", "expr", AST_SEQ, CAT_EXPR, (long)offsetof(struct _comprehension, ifs)}, {"is_async", "int", AST_ONE, CV_INT, (long)offsetof(struct _comprehension, is_async)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_ExceptHandler[] = {{"type", "expr", AST_OPT, CAT_EXPR, (long)offsetof(struct _excepthandler, type)}, {"name", "identifier", AST_OPT, CV_IDENT, (long)offsetof(struct _excepthandler, name)}, {"body", "stmt", AST_SEQ, CAT_STMT, (long)offsetof(struct _excepthandler, body)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_arguments[] = {{"posonlyargs", "arg", AST_SEQ, CAT_ARG, (long)offsetof(struct _arguments, posonlyargs)}, {"args", "arg", AST_SEQ, CAT_ARG, (long)offsetof(struct _arguments, args)}, {"vararg", "arg", AST_OPT, CAT_ARG, (long)offsetof(struct _arguments, vararg)}, {"kwonlyargs", "arg", AST_SEQ, CAT_ARG, (long)offsetof(struct _arguments, kwonlyargs)}, {"kw_defaults", "expr", AST_SEQ, CAT_EXPR | CV_NULL_ITEMS, (long)offsetof(struct _arguments, kw_defaults)}, {"kwarg", "arg", AST_OPT, CAT_ARG, (long)offsetof(struct _arguments, kwarg)}, {"defaults", "expr", AST_SEQ, CAT_EXPR, (long)offsetof(struct _arguments, defaults)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_arg[] = {{"arg", "identifier", AST_ONE, CV_IDENT, (long)offsetof(struct _arg, arg)}, {"annotation", "expr", AST_OPT, CAT_EXPR, (long)offsetof(struct _arg, annotation)}, {"type_comment", "string", AST_OPT, CV_STRING, -1}, {NULL, NULL, 0, 0, 0}};
static const AstField f_keyword[] = {{"arg", "identifier", AST_OPT, CV_IDENT, (long)offsetof(struct _keyword, arg)}, {"value", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _keyword, value)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_alias[] = {{"name", "identifier", AST_ONE, CV_IDENT, (long)offsetof(struct _alias, name)}, {"asname", "identifier", AST_OPT, CV_IDENT, (long)offsetof(struct _alias, asname)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_withitem[] = {{"context_expr", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _withitem, context_expr)}, {"optional_vars", "expr", AST_OPT, CAT_EXPR, (long)offsetof(struct _withitem, optional_vars)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_match_case[] = {{"pattern", "pattern", AST_ONE, CAT_PATTERN, (long)offsetof(struct _match_case, pattern)}, {"guard", "expr", AST_OPT, CAT_EXPR, (long)offsetof(struct _match_case, guard)}, {"body", "stmt", AST_SEQ, CAT_STMT, (long)offsetof(struct _match_case, body)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_MatchValue[] = {{"value", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _pattern, v.MatchValue.value)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_MatchSingleton[] = {{"value", "constant", AST_ONE, CV_CONST, (long)offsetof(struct _pattern, v.MatchSingleton.value)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_MatchSequence[] = {{"patterns", "pattern", AST_SEQ, CAT_PATTERN, (long)offsetof(struct _pattern, v.MatchSequence.patterns)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_MatchMapping[] = {{"keys", "expr", AST_SEQ, CAT_EXPR, (long)offsetof(struct _pattern, v.MatchMapping.keys)}, {"patterns", "pattern", AST_SEQ, CAT_PATTERN, (long)offsetof(struct _pattern, v.MatchMapping.patterns)}, {"rest", "identifier", AST_OPT, CV_IDENT, (long)offsetof(struct _pattern, v.MatchMapping.rest)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_MatchClass[] = {{"cls", "expr", AST_ONE, CAT_EXPR, (long)offsetof(struct _pattern, v.MatchClass.cls)}, {"patterns", "pattern", AST_SEQ, CAT_PATTERN, (long)offsetof(struct _pattern, v.MatchClass.patterns)}, {"kwd_attrs", "identifier", AST_SEQ, CV_IDENT, (long)offsetof(struct _pattern, v.MatchClass.kwd_attrs)}, {"kwd_patterns", "pattern", AST_SEQ, CAT_PATTERN, (long)offsetof(struct _pattern, v.MatchClass.kwd_patterns)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_MatchStar[] = {{"name", "identifier", AST_OPT, CV_IDENT, (long)offsetof(struct _pattern, v.MatchStar.name)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_MatchAs[] = {{"pattern", "pattern", AST_OPT, CAT_PATTERN, (long)offsetof(struct _pattern, v.MatchAs.pattern)}, {"name", "identifier", AST_OPT, CV_IDENT, (long)offsetof(struct _pattern, v.MatchAs.name)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_MatchOr[] = {{"patterns", "pattern", AST_SEQ, CAT_PATTERN, (long)offsetof(struct _pattern, v.MatchOr.patterns)}, {NULL, NULL, 0, 0, 0}};
static const AstField f_TypeIgnore[] = {{"lineno", "int", AST_ONE, CV_INT, -1}, {"tag", "string", AST_ONE, CV_STRING, -1}, {NULL, NULL, 0, 0, 0}};

/* Async forms and TryStar share the fields (and C struct members) of their plain forms. */
const AstClass ast_classes[] = {
    {"mod", -1, CAT_MOD, 0, 0, f_none},
    {"Module", 0, CAT_MOD, Module_kind, 0, f_Module},
    {"Interactive", 0, CAT_MOD, Interactive_kind, 0, f_Interactive},
    {"Expression", 0, CAT_MOD, Expression_kind, 0, f_Expression},
    {"FunctionType", 0, CAT_MOD, 0, 0, f_FunctionType},
    {"stmt", -1, CAT_STMT, 0, 1, f_none},
    {"FunctionDef", 5, CAT_STMT, FunctionDef_kind, 1, f_FunctionDef},
    {"AsyncFunctionDef", 5, CAT_STMT, AsyncFunctionDef_kind, 1, f_FunctionDef},
    {"ClassDef", 5, CAT_STMT, ClassDef_kind, 1, f_ClassDef},
    {"Return", 5, CAT_STMT, Return_kind, 1, f_Return},
    {"Delete", 5, CAT_STMT, Delete_kind, 1, f_Delete},
    {"Assign", 5, CAT_STMT, Assign_kind, 1, f_Assign},
    {"AugAssign", 5, CAT_STMT, AugAssign_kind, 1, f_AugAssign},
    {"AnnAssign", 5, CAT_STMT, AnnAssign_kind, 1, f_AnnAssign},
    {"For", 5, CAT_STMT, For_kind, 1, f_For},
    {"AsyncFor", 5, CAT_STMT, AsyncFor_kind, 1, f_For},
    {"While", 5, CAT_STMT, While_kind, 1, f_While},
    {"If", 5, CAT_STMT, If_kind, 1, f_If},
    {"With", 5, CAT_STMT, With_kind, 1, f_With},
    {"AsyncWith", 5, CAT_STMT, AsyncWith_kind, 1, f_With},
    {"Match", 5, CAT_STMT, Match_kind, 1, f_Match},
    {"Raise", 5, CAT_STMT, Raise_kind, 1, f_Raise},
    {"Try", 5, CAT_STMT, Try_kind, 1, f_Try},
    {"TryStar", 5, CAT_STMT, TryStar_kind, 1, f_Try},
    {"Assert", 5, CAT_STMT, Assert_kind, 1, f_Assert},
    {"Import", 5, CAT_STMT, Import_kind, 1, f_Import},
    {"ImportFrom", 5, CAT_STMT, ImportFrom_kind, 1, f_ImportFrom},
    {"Global", 5, CAT_STMT, Global_kind, 1, f_Global},
    {"Nonlocal", 5, CAT_STMT, Nonlocal_kind, 1, f_Nonlocal},
    {"Expr", 5, CAT_STMT, Expr_kind, 1, f_Expr},
    {"Pass", 5, CAT_STMT, Pass_kind, 1, f_none},
    {"Break", 5, CAT_STMT, Break_kind, 1, f_none},
    {"Continue", 5, CAT_STMT, Continue_kind, 1, f_none},
    {"expr", -1, CAT_EXPR, 0, 1, f_none},
    {"BoolOp", 33, CAT_EXPR, BoolOp_kind, 1, f_BoolOp},
    {"NamedExpr", 33, CAT_EXPR, NamedExpr_kind, 1, f_NamedExpr},
    {"BinOp", 33, CAT_EXPR, BinOp_kind, 1, f_BinOp},
    {"UnaryOp", 33, CAT_EXPR, UnaryOp_kind, 1, f_UnaryOp},
    {"Lambda", 33, CAT_EXPR, Lambda_kind, 1, f_Lambda},
    {"IfExp", 33, CAT_EXPR, IfExp_kind, 1, f_IfExp},
    {"Dict", 33, CAT_EXPR, Dict_kind, 1, f_Dict},
    {"Set", 33, CAT_EXPR, Set_kind, 1, f_Set},
    {"ListComp", 33, CAT_EXPR, ListComp_kind, 1, f_ListComp},
    {"SetComp", 33, CAT_EXPR, SetComp_kind, 1, f_SetComp},
    {"DictComp", 33, CAT_EXPR, DictComp_kind, 1, f_DictComp},
    {"GeneratorExp", 33, CAT_EXPR, GeneratorExp_kind, 1, f_GeneratorExp},
    {"Await", 33, CAT_EXPR, Await_kind, 1, f_Await},
    {"Yield", 33, CAT_EXPR, Yield_kind, 1, f_Yield},
    {"YieldFrom", 33, CAT_EXPR, YieldFrom_kind, 1, f_YieldFrom},
    {"Compare", 33, CAT_EXPR, Compare_kind, 1, f_Compare},
    {"Call", 33, CAT_EXPR, Call_kind, 1, f_Call},
    {"FormattedValue", 33, CAT_EXPR, FormattedValue_kind, 1, f_FormattedValue},
    {"JoinedStr", 33, CAT_EXPR, JoinedStr_kind, 1, f_JoinedStr},
    {"Constant", 33, CAT_EXPR, Constant_kind, 1, f_Constant},
    {"Attribute", 33, CAT_EXPR, Attribute_kind, 1, f_Attribute},
    {"Subscript", 33, CAT_EXPR, Subscript_kind, 1, f_Subscript},
    {"Starred", 33, CAT_EXPR, Starred_kind, 1, f_Starred},
    {"Name", 33, CAT_EXPR, Name_kind, 1, f_Name},
    {"List", 33, CAT_EXPR, List_kind, 1, f_List},
    {"Tuple", 33, CAT_EXPR, Tuple_kind, 1, f_Tuple},
    {"Slice", 33, CAT_EXPR, Slice_kind, 1, f_Slice},
    {"expr_context", -1, CAT_CTX, 0, 0, f_none},
    {"Load", 61, CAT_CTX, AST_Load, 0, f_none},
    {"Store", 61, CAT_CTX, AST_Store, 0, f_none},
    {"Del", 61, CAT_CTX, AST_Del, 0, f_none},
    {"boolop", -1, CAT_BOOLOP, 0, 0, f_none},
    {"And", 65, CAT_BOOLOP, AST_And, 0, f_none},
    {"Or", 65, CAT_BOOLOP, AST_Or, 0, f_none},
    {"operator", -1, CAT_OPERATOR, 0, 0, f_none},
    {"Add", 68, CAT_OPERATOR, AST_Add, 0, f_none},
    {"Sub", 68, CAT_OPERATOR, AST_Sub, 0, f_none},
    {"Mult", 68, CAT_OPERATOR, AST_Mult, 0, f_none},
    {"MatMult", 68, CAT_OPERATOR, AST_MatMult, 0, f_none},
    {"Div", 68, CAT_OPERATOR, AST_Div, 0, f_none},
    {"Mod", 68, CAT_OPERATOR, AST_Mod, 0, f_none},
    {"Pow", 68, CAT_OPERATOR, AST_Pow, 0, f_none},
    {"LShift", 68, CAT_OPERATOR, AST_LShift, 0, f_none},
    {"RShift", 68, CAT_OPERATOR, AST_RShift, 0, f_none},
    {"BitOr", 68, CAT_OPERATOR, AST_BitOr, 0, f_none},
    {"BitXor", 68, CAT_OPERATOR, AST_BitXor, 0, f_none},
    {"BitAnd", 68, CAT_OPERATOR, AST_BitAnd, 0, f_none},
    {"FloorDiv", 68, CAT_OPERATOR, AST_FloorDiv, 0, f_none},
    {"unaryop", -1, CAT_UNARYOP, 0, 0, f_none},
    {"Invert", 82, CAT_UNARYOP, AST_Invert, 0, f_none},
    {"Not", 82, CAT_UNARYOP, AST_Not, 0, f_none},
    {"UAdd", 82, CAT_UNARYOP, AST_UAdd, 0, f_none},
    {"USub", 82, CAT_UNARYOP, AST_USub, 0, f_none},
    {"cmpop", -1, CAT_CMPOP, 0, 0, f_none},
    {"Eq", 87, CAT_CMPOP, AST_Eq, 0, f_none},
    {"NotEq", 87, CAT_CMPOP, AST_NotEq, 0, f_none},
    {"Lt", 87, CAT_CMPOP, AST_Lt, 0, f_none},
    {"LtE", 87, CAT_CMPOP, AST_LtE, 0, f_none},
    {"Gt", 87, CAT_CMPOP, AST_Gt, 0, f_none},
    {"GtE", 87, CAT_CMPOP, AST_GtE, 0, f_none},
    {"Is", 87, CAT_CMPOP, AST_Is, 0, f_none},
    {"IsNot", 87, CAT_CMPOP, AST_IsNot, 0, f_none},
    {"In", 87, CAT_CMPOP, AST_In, 0, f_none},
    {"NotIn", 87, CAT_CMPOP, AST_NotIn, 0, f_none},
    {"comprehension", -1, CAT_COMPREHENSION, 1, 0, f_comprehension},
    {"excepthandler", -1, CAT_HANDLER, 0, 1, f_none},
    {"ExceptHandler", 99, CAT_HANDLER, 1, 1, f_ExceptHandler},
    {"arguments", -1, CAT_ARGUMENTS, 1, 0, f_arguments},
    {"arg", -1, CAT_ARG, 1, 1, f_arg},
    {"keyword", -1, CAT_KEYWORD, 1, 1, f_keyword},
    {"alias", -1, CAT_ALIAS, 1, 1, f_alias},
    {"withitem", -1, CAT_WITHITEM, 1, 0, f_withitem},
    {"match_case", -1, CAT_MATCH_CASE, 1, 0, f_match_case},
    {"pattern", -1, CAT_PATTERN, 0, 2, f_none},
    {"MatchValue", 107, CAT_PATTERN, MatchValue_kind, 2, f_MatchValue},
    {"MatchSingleton", 107, CAT_PATTERN, MatchSingleton_kind, 2, f_MatchSingleton},
    {"MatchSequence", 107, CAT_PATTERN, MatchSequence_kind, 2, f_MatchSequence},
    {"MatchMapping", 107, CAT_PATTERN, MatchMapping_kind, 2, f_MatchMapping},
    {"MatchClass", 107, CAT_PATTERN, MatchClass_kind, 2, f_MatchClass},
    {"MatchStar", 107, CAT_PATTERN, MatchStar_kind, 2, f_MatchStar},
    {"MatchAs", 107, CAT_PATTERN, MatchAs_kind, 2, f_MatchAs},
    {"MatchOr", 107, CAT_PATTERN, MatchOr_kind, 2, f_MatchOr},
    {"type_ignore", -1, CAT_TYPE_IGNORE, 0, 0, f_none},
    {"TypeIgnore", 116, CAT_TYPE_IGNORE, 0, 0, f_TypeIgnore},
};
const int ast_nclasses = (int)(sizeof ast_classes / sizeof ast_classes[0]);

const char *const ast_position_names[4] = {"lineno", "col_offset", "end_lineno", "end_col_offset"};

const AstCategoryInfo ast_categories[CAT_COUNT] = {
    [CAT_NONE] = {"", -1, 0, 0, 0, -1, -1},
    [CAT_MOD] = {"mod", 0, 1, 4, sizeof(struct _mod), 0, -1},
    [CAT_STMT] = {"stmt", 5, 6, 27, sizeof(struct _stmt), 0, (long)offsetof(struct _stmt, lineno)},
    [CAT_EXPR] = {"expr", 33, 34, 27, sizeof(struct _expr), 0, (long)offsetof(struct _expr, lineno)},
    [CAT_CTX] = {"expr_context", 61, 62, 3, 0, -1, -1},
    [CAT_BOOLOP] = {"boolop", 65, 66, 2, 0, -1, -1},
    [CAT_OPERATOR] = {"operator", 68, 69, 13, 0, -1, -1},
    [CAT_UNARYOP] = {"unaryop", 82, 83, 4, 0, -1, -1},
    [CAT_CMPOP] = {"cmpop", 87, 88, 10, 0, -1, -1},
    [CAT_COMPREHENSION] = {"comprehension", -1, 98, 1, sizeof(struct _comprehension), -1, -1},
    [CAT_HANDLER] = {"excepthandler", 99, 100, 1, sizeof(struct _excepthandler), -1, (long)offsetof(struct _excepthandler, lineno)},
    [CAT_ARGUMENTS] = {"arguments", -1, 101, 1, sizeof(struct _arguments), -1, -1},
    [CAT_ARG] = {"arg", -1, 102, 1, sizeof(struct _arg), -1, (long)offsetof(struct _arg, lineno)},
    [CAT_KEYWORD] = {"keyword", -1, 103, 1, sizeof(struct _keyword), -1, (long)offsetof(struct _keyword, lineno)},
    [CAT_ALIAS] = {"alias", -1, 104, 1, sizeof(struct _alias), -1, (long)offsetof(struct _alias, lineno)},
    [CAT_WITHITEM] = {"withitem", -1, 105, 1, sizeof(struct _withitem), -1, -1},
    [CAT_MATCH_CASE] = {"match_case", -1, 106, 1, sizeof(struct _match_case), -1, -1},
    [CAT_PATTERN] = {"pattern", 107, 108, 8, sizeof(struct _pattern), 0, (long)offsetof(struct _pattern, lineno)},
    [CAT_TYPE_IGNORE] = {"type_ignore", 116, 117, 1, 0, -1, -1},
};

int ast_class_index(int cat, int kind)
{
    if (cat <= CAT_NONE || cat >= CAT_COUNT)
        return -1;
    const AstCategoryInfo *ci = &ast_categories[cat];
    if (ci->abstract < 0 || cat == CAT_HANDLER)
        return ci->first;   /* a product type, or a sum with one constructor and no C kind */
    for (int i = ci->first; i < ci->first + ci->count; i++)
        if (ast_classes[i].kind == kind)
            return i;
    return -1;
}
