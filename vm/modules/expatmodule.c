/* The _expat module: the C half of pyexpat (lib/pyexpat.py is the rest: the
 * xmlparser type with its handler attributes, buffer_text, the errors and
 * model submodules). It wraps libexpat's parser: _expat.Parser(encoding,
 * namespace_separator, dispatch) makes one; parse(data, isfinal) feeds it,
 * and each libexpat callback that is switched on (set_events) calls
 * dispatch(kind, arg, ...) with kind an EV_* index (the order of
 * pyexpat.py's _EVENTS). A dispatch that raises stops the parser
 * (XML_StopParser) and parse() raises that exception; a parse error makes
 * parse() return 0 and error() tell the code and position.
 *
 * A Parser is an IterObj: i = the XML_Parser (C memory, freed by __del__,
 * which the collector runs once it is unreachable), a = dispatch, n = the
 * event mask. STM: the parser's state is C memory, so every method that
 * uses it runs inevitable (as zlib's streams); dispatch runs Python code,
 * and a transaction that starts inside it and returns to C here is
 * inevitable again (eval.h). */
#include "modules.h"
#include "objects/containers.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <expat.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static TypeObj *T_parser;

enum {
    EV_START_ELEMENT, EV_END_ELEMENT, EV_CHARACTER_DATA, EV_PROCESSING_INSTRUCTION, EV_COMMENT,
    EV_START_NAMESPACE_DECL, EV_END_NAMESPACE_DECL, EV_START_CDATA, EV_END_CDATA, EV_DEFAULT,
    EV_DEFAULT_EXPAND, EV_XML_DECL, EV_START_DOCTYPE, EV_END_DOCTYPE, EV_ENTITY_DECL, EV_NOTATION_DECL,
    EV_UNPARSED_ENTITY_DECL, EV_NOT_STANDALONE, EV_EXTERNAL_ENTITY_REF, EV_SKIPPED_ENTITY, EV_ELEMENT_DECL,
    EV_ATTLIST_DECL,
};

/* What the callbacks of one parse() call share (XML_SetUserData). */
typedef struct {
    Obj *slot;     /* the Parser, in a root slot */
    bool failed;   /* a dispatch raised: no more calls */
} ParseCtx;

static XML_Parser parser_of(Obj self) { return (XML_Parser)(uintptr_t)ITER(vm_unwrap(self))->i; }

static Obj text(const char *s) { return s ? str_new(s, strlen(s)) : g_None; }

/* The content model of an element declaration: (type, quant, name, children). */
static Obj model_tuple(const XML_Content *c)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = list_new_capacity(c->numchildren);
    if (!r[0])
        goto out;
    for (unsigned k = 0; k < c->numchildren; k++) {
        Obj child = model_tuple(&c->children[k]);
        if (!child || list_append(r[0], child) < 0)
            goto out;
    }
    r[0] = list_as_tuple(r[0]);
    if (!r[0] || !(r[1] = text(c->name)))
        goto out;
    res = tuple_pack(4, MAKE_SMALLINT(c->type), MAKE_SMALLINT(c->quant), r[1], r[0]);
out:
    vm_unroots(r);
    return res;
}

/* dispatch(kind, ...) with the arguments `pattern` says: s a C string (NULL:
 * None), i an int, n a counted string (pointer, int length), a the
 * attributes (a NULL-ended array of name, value: a flat list), m a content
 * model. The dispatch's result, or NULL (the parser is stopped). */
static Obj emit(void *ud, int kind, const char *pattern, ...)
{
    ParseCtx *ctx = ud;
    if (ctx->failed)
        return NULL;
    int n = (int)strlen(pattern);
    Obj *r = vm_roots((size_t)n + 1);
    r[0] = MAKE_SMALLINT(kind);
    va_list ap;
    va_start(ap, pattern);
    bool ok = true;
    for (int k = 0; k < n && ok; k++) {
        Obj v = NULL;
        switch (pattern[k]) {
        case 's': v = text(va_arg(ap, const char *)); break;
        case 'i': v = MAKE_SMALLINT(va_arg(ap, int)); break;
        case 'n': {
            const char *p = va_arg(ap, const char *);
            int len = va_arg(ap, int);
            v = str_new(p, (size_t)len);
            break;
        }
        case 'a': {
            const char **atts = va_arg(ap, const char **);
            int cnt = 0;
            while (atts[cnt])
                cnt++;
            r[k + 1] = list_new_capacity(cnt);
            for (int j = 0; r[k + 1] && j < cnt; j++) {
                Obj s = text(atts[j]);
                if (!s || list_append(r[k + 1], s) < 0)
                    r[k + 1] = NULL;
            }
            v = r[k + 1];
            break;
        }
        case 'm': {
            XML_Content *model = va_arg(ap, XML_Content *);
            v = model_tuple(model);
            XML_FreeContentModel(*(XML_Parser *)va_arg(ap, XML_Parser *), model);
            break;
        }
        }
        if (!v)
            ok = false;
        r[k + 1] = v;
    }
    va_end(ap);
    Obj res = NULL;
    if (ok)
        res = vm_call(ITER(vm_unwrap(*ctx->slot))->a, r, (size_t)n + 1, NULL);
    vm_unroots(r);
    if (!res) {
        ctx->failed = true;
        XML_StopParser(parser_of(*ctx->slot), XML_FALSE);
    }
    return res;
}

static void on_start_element(void *ud, const XML_Char *name, const XML_Char **atts)
{
    ParseCtx *ctx = ud;
    if (!ctx->failed)
        emit(ud, EV_START_ELEMENT, "sai", name, atts, XML_GetSpecifiedAttributeCount(parser_of(*ctx->slot)));
}
static void on_end_element(void *ud, const XML_Char *name) { emit(ud, EV_END_ELEMENT, "s", name); }
static void on_character_data(void *ud, const XML_Char *s, int len) { emit(ud, EV_CHARACTER_DATA, "n", s, len); }
static void on_pi(void *ud, const XML_Char *target, const XML_Char *data)
{
    emit(ud, EV_PROCESSING_INSTRUCTION, "ss", target, data);
}
static void on_comment(void *ud, const XML_Char *data) { emit(ud, EV_COMMENT, "s", data); }
static void on_start_ns(void *ud, const XML_Char *prefix, const XML_Char *uri)
{
    emit(ud, EV_START_NAMESPACE_DECL, "ss", prefix, uri);
}
static void on_end_ns(void *ud, const XML_Char *prefix) { emit(ud, EV_END_NAMESPACE_DECL, "s", prefix); }
static void on_start_cdata(void *ud) { emit(ud, EV_START_CDATA, ""); }
static void on_end_cdata(void *ud) { emit(ud, EV_END_CDATA, ""); }
static void on_default(void *ud, const XML_Char *s, int len) { emit(ud, EV_DEFAULT, "n", s, len); }
static void on_default_expand(void *ud, const XML_Char *s, int len) { emit(ud, EV_DEFAULT_EXPAND, "n", s, len); }
static void on_xml_decl(void *ud, const XML_Char *version, const XML_Char *encoding, int standalone)
{
    emit(ud, EV_XML_DECL, "ssi", version, encoding, standalone);
}
static void on_start_doctype(void *ud, const XML_Char *name, const XML_Char *sysid, const XML_Char *pubid,
                             int has_internal_subset)
{
    emit(ud, EV_START_DOCTYPE, "sssi", name, sysid, pubid, has_internal_subset);
}
static void on_end_doctype(void *ud) { emit(ud, EV_END_DOCTYPE, ""); }
static void on_entity_decl(void *ud, const XML_Char *name, int is_param, const XML_Char *value, int value_len,
                           const XML_Char *base, const XML_Char *sysid, const XML_Char *pubid,
                           const XML_Char *notation)
{
    if (value)
        emit(ud, EV_ENTITY_DECL, "sinssss", name, is_param, value, value_len, base, sysid, pubid, notation);
    else
        emit(ud, EV_ENTITY_DECL, "sisssss", name, is_param, (const char *)NULL, base, sysid, pubid, notation);
}
static void on_notation_decl(void *ud, const XML_Char *name, const XML_Char *base, const XML_Char *sysid,
                             const XML_Char *pubid)
{
    emit(ud, EV_NOTATION_DECL, "ssss", name, base, sysid, pubid);
}
static void on_unparsed_entity_decl(void *ud, const XML_Char *name, const XML_Char *base, const XML_Char *sysid,
                                    const XML_Char *pubid, const XML_Char *notation)
{
    emit(ud, EV_UNPARSED_ENTITY_DECL, "sssss", name, base, sysid, pubid, notation);
}
/* The handler's result as an int (what libexpat wants back); 0 after an error. */
static int int_result(Obj res)
{
    int64_t v = 0;
    if (!res)
        return 0;
    if (IS_NONE(res) || vm_index_i64(res, &v) < 0) {
        err_clear();
        return 0;
    }
    return (int)v;
}
static int on_not_standalone(void *ud) { return int_result(emit(ud, EV_NOT_STANDALONE, "")); }
static int on_external_entity_ref(XML_Parser p, const XML_Char *context, const XML_Char *base,
                                  const XML_Char *sysid, const XML_Char *pubid)
{
    Obj res = emit(XML_GetUserData(p), EV_EXTERNAL_ENTITY_REF, "ssss", context, base, sysid, pubid);
    return res ? (IS_NONE(res) ? 1 : int_result(res)) : XML_STATUS_ERROR;
}
static void on_skipped_entity(void *ud, const XML_Char *name, int is_param)
{
    emit(ud, EV_SKIPPED_ENTITY, "si", name, is_param);
}
static void on_element_decl(void *ud, const XML_Char *name, XML_Content *model)
{
    ParseCtx *ctx = ud;
    XML_Parser p = parser_of(*ctx->slot);
    if (ctx->failed) {
        XML_FreeContentModel(p, model);
        return;
    }
    emit(ud, EV_ELEMENT_DECL, "sm", name, model, &p);
}
static void on_attlist_decl(void *ud, const XML_Char *elname, const XML_Char *attname, const XML_Char *type,
                            const XML_Char *dflt, int required)
{
    emit(ud, EV_ATTLIST_DECL, "ssssi", elname, attname, type, dflt, required);
}

/* Switch each libexpat callback on or off as bit EV_* of mask says. */
static void set_events(XML_Parser p, int64_t mask)
{
#define ON(ev) ((mask >> (ev)) & 1)
    XML_SetStartElementHandler(p, ON(EV_START_ELEMENT) ? on_start_element : NULL);
    XML_SetEndElementHandler(p, ON(EV_END_ELEMENT) ? on_end_element : NULL);
    XML_SetCharacterDataHandler(p, ON(EV_CHARACTER_DATA) ? on_character_data : NULL);
    XML_SetProcessingInstructionHandler(p, ON(EV_PROCESSING_INSTRUCTION) ? on_pi : NULL);
    XML_SetCommentHandler(p, ON(EV_COMMENT) ? on_comment : NULL);
    XML_SetStartNamespaceDeclHandler(p, ON(EV_START_NAMESPACE_DECL) ? on_start_ns : NULL);
    XML_SetEndNamespaceDeclHandler(p, ON(EV_END_NAMESPACE_DECL) ? on_end_ns : NULL);
    XML_SetStartCdataSectionHandler(p, ON(EV_START_CDATA) ? on_start_cdata : NULL);
    XML_SetEndCdataSectionHandler(p, ON(EV_END_CDATA) ? on_end_cdata : NULL);
    if (ON(EV_DEFAULT))
        XML_SetDefaultHandler(p, on_default);
    else
        XML_SetDefaultHandlerExpand(p, ON(EV_DEFAULT_EXPAND) ? on_default_expand : NULL);
    XML_SetXmlDeclHandler(p, ON(EV_XML_DECL) ? on_xml_decl : NULL);
    XML_SetStartDoctypeDeclHandler(p, ON(EV_START_DOCTYPE) ? on_start_doctype : NULL);
    XML_SetEndDoctypeDeclHandler(p, ON(EV_END_DOCTYPE) ? on_end_doctype : NULL);
    XML_SetEntityDeclHandler(p, ON(EV_ENTITY_DECL) ? on_entity_decl : NULL);
    XML_SetNotationDeclHandler(p, ON(EV_NOTATION_DECL) ? on_notation_decl : NULL);
    XML_SetUnparsedEntityDeclHandler(p, ON(EV_UNPARSED_ENTITY_DECL) ? on_unparsed_entity_decl : NULL);
    XML_SetNotStandaloneHandler(p, ON(EV_NOT_STANDALONE) ? on_not_standalone : NULL);
    XML_SetExternalEntityRefHandler(p, ON(EV_EXTERNAL_ENTITY_REF) ? on_external_entity_ref : NULL);
    XML_SetSkippedEntityHandler(p, ON(EV_SKIPPED_ENTITY) ? on_skipped_entity : NULL);
    XML_SetElementDeclHandler(p, ON(EV_ELEMENT_DECL) ? on_element_decl : NULL);
    XML_SetAttlistDeclHandler(p, ON(EV_ATTLIST_DECL) ? on_attlist_decl : NULL);
#undef ON
}

/* An optional str argument as UTF-8 (None: NULL). */
static int opt_text(Obj v, const char **out)
{
    *out = NULL;
    if (!v || IS_NONE(v))
        return 0;
    Obj s = str_value(v);
    if (!s) {
        err_format(E_TypeError, "expected str or None, not %s", type_name(v));
        return -1;
    }
    *out = str_cstr(s);
    return 0;
}

/* Parser(encoding, namespace_separator, dispatch) */
static Obj parser_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("Parser", nargs, kwnames, 3, 3) < 0)
        return NULL;
    const char *enc, *sep;
    if (opt_text(args[0], &enc) < 0 || opt_text(args[1], &sep) < 0)
        return NULL;
    vm_tx_become_inevitable();   /* the parser is C memory an abort would not free */
    if (opt_text(args[0], &enc) < 0 || opt_text(args[1], &sep) < 0)
        return NULL;
    XML_Parser p = sep ? XML_ParserCreateNS(enc, sep[0]) : XML_ParserCreate(enc);
    if (!p)
        return err_nomemory();
    Obj o = iter_alloc(T_parser, args[2], 0);
    if (!o) {
        XML_ParserFree(p);
        return NULL;
    }
    VM_WRITE(o);
    ITER(o)->i = (int64_t)(uintptr_t)p;
    tm_register_finalizer((object_t *)o);   /* __del__ frees the parser */
    return o;
}

/* The parser of self (NULL with ValueError once freed), inevitable. */
static XML_Parser live_parser(Obj self)
{
    vm_tx_become_inevitable();
    Obj s = vm_unwrap(self);
    if (TID(s) != TID_ITER || ITER(s)->cls != (Obj)T_parser || !ITER(s)->i) {
        err_set(E_ValueError, "parser is freed");
        return NULL;
    }
    return (XML_Parser)(uintptr_t)ITER(s)->i;
}

/* set_events(mask) */
static Obj parser_set_events(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t mask;
    if (vm_index_i64(args[1], &mask) < 0)
        return NULL;
    XML_Parser p = live_parser(args[0]);
    if (!p)
        return NULL;
    set_events(p, mask);
    VM_WRITE(vm_unwrap(args[0]));
    ITER(vm_unwrap(args[0]))->n = mask;
    return g_None;
}

/* parse(data, isfinal): 1, or 0 after a parse error (error() says which) */
static Obj parser_parse(Obj *args, size_t nargs, Obj kwnames)
{
    const char *p;
    int64_t n;
    if (!bytes_like_arg(args[1], &p, &n))
        return NULL;
    int fin = vm_is_true(args[2]);
    if (fin < 0)
        return NULL;
    XML_Parser xp = live_parser(args[0]);
    if (!xp)
        return NULL;
    Obj *r = vm_roots(2);
    r[0] = args[0];
    r[1] = args[1];
    ParseCtx ctx = {&r[0], false};
    XML_SetUserData(xp, &ctx);
    /* libexpat copies what it keeps of the data, in chunks that fit an int;
     * the data is re-read after each (a dispatch may move it) */
    enum XML_Status st = XML_STATUS_OK;
    int64_t done = 0;
    do {
        bytes_like(r[1], &p, &n);
        int64_t chunk = n - done > (1 << 30) ? (1 << 30) : n - done;
        bool last = done + chunk >= n;
        char *copy = malloc(chunk ? (size_t)chunk : 1);   /* dispatches may move the data meanwhile */
        if (!copy) {
            vm_unroots(r);
            return err_nomemory();
        }
        memcpy(copy, p + done, (size_t)chunk);
        st = XML_Parse(xp, copy, (int)chunk, last && fin);
        free(copy);
        done += chunk;
    } while (st == XML_STATUS_OK && done < n && !ctx.failed);
    XML_SetUserData(xp, NULL);
    vm_unroots(r);
    if (ctx.failed)
        return NULL;
    return MAKE_SMALLINT(st == XML_STATUS_OK ? 1 : 0);
}

/* error(): (code, line, column, byte index) of the last error */
static Obj parser_error(Obj *args, size_t nargs, Obj kwnames)
{
    XML_Parser p = live_parser(args[0]);
    if (!p)
        return NULL;
    return tuple_pack(4, int_from_i64(XML_GetErrorCode(p)), int_from_i64((int64_t)XML_GetErrorLineNumber(p)),
                      int_from_i64((int64_t)XML_GetErrorColumnNumber(p)), int_from_i64(XML_GetErrorByteIndex(p)));
}

/* position(): (line, column, byte index) of the current event */
static Obj parser_position(Obj *args, size_t nargs, Obj kwnames)
{
    XML_Parser p = live_parser(args[0]);
    if (!p)
        return NULL;
    return tuple_pack(3, int_from_i64((int64_t)XML_GetCurrentLineNumber(p)),
                      int_from_i64((int64_t)XML_GetCurrentColumnNumber(p)), int_from_i64(XML_GetCurrentByteIndex(p)));
}

/* set_base(str or None) */
static Obj parser_set_base(Obj *args, size_t nargs, Obj kwnames)
{
    const char *base;
    if (opt_text(args[1], &base) < 0)
        return NULL;
    XML_Parser p = live_parser(args[0]);
    if (!p || opt_text(args[1], &base) < 0)
        return NULL;
    if (XML_SetBase(p, base) != XML_STATUS_OK)
        return err_nomemory();
    return g_None;
}

/* set_encoding(str): the encoding of the data (before parsing starts) */
static Obj parser_set_encoding(Obj *args, size_t nargs, Obj kwnames)
{
    const char *enc;
    if (opt_text(args[1], &enc) < 0)
        return NULL;
    XML_Parser p = live_parser(args[0]);
    if (!p || opt_text(args[1], &enc) < 0)
        return NULL;
    XML_SetEncoding(p, enc);
    return g_None;
}

static Obj parser_get_base(Obj *args, size_t nargs, Obj kwnames)
{
    XML_Parser p = live_parser(args[0]);
    return p ? text(XML_GetBase(p)) : NULL;
}

/* set_param_entity_parsing(flag): libexpat's answer (0 once parsing began) */
static Obj parser_set_param_entity_parsing(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t flag;
    if (vm_index_i64(args[1], &flag) < 0)
        return NULL;
    XML_Parser p = live_parser(args[0]);
    return p ? int_from_i64(XML_SetParamEntityParsing(p, (enum XML_ParamEntityParsing)flag)) : NULL;
}

/* use_foreign_dtd(flag): the error code (0: none) */
static Obj parser_use_foreign_dtd(Obj *args, size_t nargs, Obj kwnames)
{
    int flag = vm_is_true(args[1]);
    if (flag < 0)
        return NULL;
    XML_Parser p = live_parser(args[0]);
    return p ? int_from_i64(XML_UseForeignDTD(p, flag ? XML_TRUE : XML_FALSE)) : NULL;
}

/* set_namespace_triplets(flag) */
static Obj parser_set_return_ns_triplet(Obj *args, size_t nargs, Obj kwnames)
{
    int flag = vm_is_true(args[1]);
    if (flag < 0)
        return NULL;
    XML_Parser p = live_parser(args[0]);
    if (!p)
        return NULL;
    XML_SetReturnNSTriplet(p, flag);
    return g_None;
}

/* input_context(): (bytes around the current event, offset in them) or None */
static Obj parser_input_context(Obj *args, size_t nargs, Obj kwnames)
{
    XML_Parser p = live_parser(args[0]);
    if (!p)
        return NULL;
    int offset = 0, size = 0;
    const char *buf = XML_GetInputContext(p, &offset, &size);
    if (!buf)
        return g_None;
    Obj *r = vm_roots(1);
    r[0] = bytes_new(buf, (size_t)size);
    Obj res = r[0] ? tuple_pack(2, r[0], MAKE_SMALLINT(offset)) : NULL;
    vm_unroots(r);
    return res;
}

/* __del__: free the parser (once; the finalizer or a call) */
static Obj parser_del(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();
    Obj s = vm_unwrap(args[0]);
    XML_Parser p = (XML_Parser)(uintptr_t)ITER(s)->i;
    if (p) {
        XML_ParserFree(p);
        VM_WRITE(s);
        ITER(s)->i = 0;
    }
    return g_None;
}

/* error_string(code): libexpat's message, or None */
static Obj expat_error_string(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t code;
    if (vm_index_i64(args[0], &code) < 0)
        return NULL;
    return text(XML_ErrorString((enum XML_Error)code));
}

/* version(): (EXPAT_VERSION, (major, minor, micro)) */
static Obj expat_version(Obj *args, size_t nargs, Obj kwnames)
{
    XML_Expat_Version v = XML_ExpatVersionInfo();
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = str_from_cstr(XML_ExpatVersion());
    if (r[0] && (r[1] = tuple_pack(3, MAKE_SMALLINT(v.major), MAKE_SMALLINT(v.minor), MAKE_SMALLINT(v.micro))))
        res = tuple_pack(2, r[0], r[1]);
    vm_unroots(r);
    return res;
}

/* features(): libexpat's [(name, value), ...] */
static Obj expat_features(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = list_new_capacity(8);
    if (!r[0])
        goto out;
    for (const XML_Feature *f = XML_GetFeatureList(); f && f->feature != XML_FEATURE_END; f++) {
        r[1] = str_from_cstr(f->name);
        if (!r[1] || !(r[1] = tuple_pack(2, r[1], int_from_i64(f->value))) || list_append(r[0], r[1]) < 0)
            goto out;
    }
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

static const MethodDef parser_methods[] = {
    {"set_events", parser_set_events, METH_O, NULL},
    {"parse", parser_parse, METH_ARGS(2, 2), NULL},
    {"error", parser_error, METH_NOARGS, NULL},
    {"position", parser_position, METH_NOARGS, NULL},
    {"set_base", parser_set_base, METH_O, NULL},
    {"get_base", parser_get_base, METH_NOARGS, NULL},
    {"set_encoding", parser_set_encoding, METH_O, NULL},
    {"set_param_entity_parsing", parser_set_param_entity_parsing, METH_O, NULL},
    {"use_foreign_dtd", parser_use_foreign_dtd, METH_O, NULL},
    {"set_return_ns_triplet", parser_set_return_ns_triplet, METH_O, NULL},
    {"input_context", parser_input_context, METH_NOARGS, NULL},
    {"__del__", parser_del, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef expat_functions[] = {
    {"error_string", expat_error_string, METH_O, NULL},
    {"version", expat_version, METH_NOARGS, NULL},
    {"features", expat_features, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

Obj expat_module_init(void)
{
    if (!T_parser) {   /* module inits run inevitable: C globals may be written */
        TypeObj *t = (TypeObj *)type_new_builtin("_expat.Parser", T_object, TID_ITER, TPF_DOTTED_NAME);
        VM_WRITE_RARE(t);
        t->tp_new = parser_new;
        type_add_methods(t, parser_methods);
        type_ready(t);
        T_parser = t;
    }
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = module_new("_expat");
    if (!r[0] || module_add(r[0], "Parser", (Obj)T_parser) < 0)
        goto out;
    module_add_functions(r[0], expat_functions);
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
