/* pyexpat on the system's libexpat (xml.parsers.expat, and through it
 * xml.etree.ElementTree, xml.dom.minidom, xml.sax, plistlib, xmlrpc),
 * written from libexpat's expat.h and CPython 3.11's documented interface:
 * ParserCreate, the xmlparser type (Parse, ParseFile, SetBase/GetBase,
 * GetInputContext, ExternalEntityParserCreate, SetParamEntityParsing,
 * UseForeignDTD, every handler attribute, buffer_text, ordered and
 * specified attributes, namespace_prefixes, the error and position
 * attributes, intern), ErrorString, ExpatError/error, the errors and model
 * submodules, version_info, EXPAT_VERSION, native_encoding, features.
 *
 * A parser is an IterObj: a = the list of handlers (None: not set, one per
 * HANDLERS entry), b = the intern dict or None, c = the parent parser of
 * an external entity parser (kept alive while the child lives) or NULL,
 * i = its ParserC (C memory), n = the PF_* flags, kind = buffer_size.
 *
 * Callbacks. libexpat calls back only inside XML_Parse/XML_ParseBuffer;
 * its userData is the ParserC, whose self_slot points at the root slot
 * that holds the parser object during the parse (a collection during a
 * handler may move the object: the callbacks read it from the slot each
 * time). The input is copied into libexpat's own buffer (XML_GetBuffer)
 * before it parses, so no pointer into a movable str or bytes is held
 * while Python runs. A handler that raises clears every handler and stops
 * libexpat (as CPython does); Parse raises the exception.
 *
 * C handlers are registered with libexpat to match the handler list at
 * the start of every Parse, and at once when a handler is set during a
 * parse: setting an attribute outside a parse changes only the list.
 *
 * STM: libexpat's state is C memory, outside the transactional heap, and an
 * abort could not undo what a parse did to it, so Parse and ParseFile (and
 * every method that changes libexpat's state) make the transaction
 * inevitable first. Handlers run as Python called from C (a nested level:
 * their transactions may commit and abort inside the handler, and the
 * transaction is inevitable again when the handler returns). libexpat
 * allocates through this file's malloc/realloc/free (XML_ParserCreate_MM),
 * which build/tmpy's txmalloc records, so a parser made by a transaction
 * that aborts is freed with it; __del__ (finalization) frees the others. */
#include "modules.h"
#include "objects/containers.h"
#include "objects/dictset.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARSE_CHUNK (1 << 20)        /* input handed to libexpat at a time */
#define PARSEFILE_CHUNK 2048         /* what ParseFile asks read() for */
#define DEFAULT_BUFFER_SIZE 8192     /* buffer_size's default (characters of UTF-8) */

/* The handler attributes, in CPython's order. */
#define HANDLERS(X)                                                                                          \
    X(StartElement) X(EndElement) X(ProcessingInstruction) X(CharacterData) X(UnparsedEntityDecl)          \
    X(NotationDecl) X(StartNamespaceDecl) X(EndNamespaceDecl) X(Comment) X(StartCdataSection)               \
    X(EndCdataSection) X(Default) X(DefaultHandlerExpand) X(NotStandalone) X(ExternalEntityRef)             \
    X(StartDoctypeDecl) X(EndDoctypeDecl) X(EntityDecl) X(XmlDecl) X(ElementDecl) X(AttlistDecl)           \
    X(SkippedEntity)

#define H_ENUM(name) H_##name,
enum { HANDLERS(H_ENUM) H_COUNT };

/* The attribute name of each handler ("DefaultHandlerExpand" has no
 * "Handler" suffix added). */
#define H_NAME(name) #name,
static const char *const handler_base_names[] = {HANDLERS(H_NAME)};

enum { PF_ORDERED = 1, PF_SPECIFIED = 2, PF_BUFFER_TEXT = 4, PF_NS_PREFIXES = 8 };

typedef struct ParserC {
    XML_Parser xp;
    Obj *self_slot;            /* root slot of the parser object while libexpat may call back */
    char *buf;                 /* buffer_text's character data (UTF-8), used only during a parse */
    int64_t buf_used, buf_cap;
    uint32_t registered;       /* the handlers registered with libexpat (bit per H_*) */
    bool parsing, in_callback, exc_pending, dead;
    int children;              /* external entity parsers not yet freed (they use this one's state) */
    struct ParserC *parent;
} ParserC;

static TypeObj *T_xmlparser;
static Obj g_expat_error;       /* ExpatError */
static Obj g_errors_module, g_model_module;

/* libexpat's memory: these calls are txmalloc's in build/tmpy. */
static void *mem_malloc(size_t n) { return malloc(n); }
static void *mem_realloc(void *p, size_t n) { return realloc(p, n); }
static void mem_free(void *p) { free(p); }
static const XML_Memory_Handling_Suite mem_suite = {mem_malloc, mem_realloc, mem_free};

static ParserC *pc_of(Obj self) { return (ParserC *)(uintptr_t)ITER(self)->i; }
static Obj self_of(ParserC *pc) { return *pc->self_slot; }
static int64_t flags_of(Obj self) { return ITER(self)->n; }

static Obj handler_get(Obj self, int k)
{
    Obj h = LIST_ITEMS(ITER(self)->a)[k];
    return IS_NONE(h) ? NULL : h;
}

static void handler_store(Obj self, int k, Obj v)
{
    Obj arr = LIST(ITER(self)->a)->array;
    VM_WRITE_ITEM(arr, k);
    ARRAY(arr)->items[k] = v;
}

/* ---- ExpatError ---- */

/* ExpatError("<message>: line L, column C") with code, lineno, offset. */
static Obj set_error(XML_Parser xp, enum XML_Error code)
{
    int64_t line = (int64_t)XML_GetErrorLineNumber(xp);
    int64_t col = (int64_t)XML_GetErrorColumnNumber(xp);
    const char *msg = XML_ErrorString(code);
    Obj *r = vm_roots(2);
    r[0] = str_from_format("%.200s: line %lld, column %lld", msg ? msg : "", (long long)line, (long long)col);
    if (r[0])
        r[1] = vm_call1(g_expat_error, r[0]);
    static const char *const names[] = {"code", "offset", "lineno"};
    int64_t values[] = {code, col, line};
    int k = 0;
    for (; r[1] && k < 3; k++) {
        Obj name = str_intern_cstr(names[k]);   /* pinned: stays valid in a local */
        if (!name || !(r[0] = int_from_i64(values[k])) || vm_setattr(r[1], name, r[0]) < 0)
            break;
    }
    if (k == 3)
        err_set_obj(r[1]);
    vm_unroots(r);
    return NULL;
}

/* ---- conversions ---- */

static Obj conv_str(const XML_Char *s) { return s ? str_new(s, strlen(s)) : g_None; }

/* A name through the intern dict (the same str object for equal names). */
static Obj intern_name(ParserC *pc, const XML_Char *s)
{
    if (!s)
        return g_None;
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = str_new(s, strlen(s));
    if (!r[0])
        goto out;
    Obj d = vm_unwrap(ITER(self_of(pc))->b);   /* a dict subclass: its dict, as CPython's PyDict_* */
    if (IS_NONE(d)) {
        res = r[0];
        goto out;
    }
    Obj have = dict_getitem(d, r[0]);
    if (have) {
        res = have;
        goto out;
    }
    if (err_occurred())
        goto out;
    if (dict_setitem(vm_unwrap(ITER(self_of(pc))->b), r[0], r[0]) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

/* ---- registering the C handlers ---- */

static void register_handler(XML_Parser xp, int k, bool on);

/* Make libexpat's registered handlers match the handler list: those to
 * drop first (Default and DefaultHandlerExpand share one libexpat slot). */
static void sync_handlers(ParserC *pc, Obj self)
{
    uint32_t want = 0;
    for (int k = 0; k < H_COUNT; k++)
        if (handler_get(self, k))
            want |= 1u << k;
    /* a character data handler dropped inside a callback stays registered (it
     * finds None and does nothing), so expat does not send the rest of that
     * text to the default handler */
    if (pc->in_callback && (pc->registered & (1u << H_CharacterData)))
        want |= 1u << H_CharacterData;
    for (int k = 0; k < H_COUNT; k++)
        if ((pc->registered & (1u << k)) && !(want & (1u << k)))
            register_handler(pc->xp, k, false);
    for (int k = 0; k < H_COUNT; k++)
        if (want & (1u << k))
            register_handler(pc->xp, k, true);
    pc->registered = want;
}

static int error_external_entity_ref(XML_Parser xp, const XML_Char *context, const XML_Char *base,
                                     const XML_Char *system_id, const XML_Char *public_id)
{
    return XML_STATUS_ERROR;
}

/* A handler raised: as CPython, every handler is dropped, libexpat stops,
 * and Parse raises the exception. */
static void flag_error(ParserC *pc)
{
    pc->exc_pending = true;
    for (int k = 0; k < H_COUNT; k++)
        handler_store(self_of(pc), k, g_None);
    for (int k = 0; k < H_COUNT; k++)
        if (pc->registered & (1u << k))
            register_handler(pc->xp, k, false);
    pc->registered = 0;
    XML_SetExternalEntityRefHandler(pc->xp, error_external_entity_ref);
    XML_StopParser(pc->xp, XML_FALSE);   /* as CPython: the parse ends here (ErrorCode: aborted) */
}

/* Call handler k with args r[0..n) (root slots); NULL after flag_error. */
static Obj call_handler(ParserC *pc, int k, Obj *args, size_t n)
{
    Obj h = handler_get(self_of(pc), k);
    if (!h)
        return g_None;
    bool was = pc->in_callback;
    pc->in_callback = true;
    Obj res = vm_call(h, args, n, NULL);
    pc->in_callback = was;
    if (!res)
        flag_error(pc);
    return res;
}

static int call_char_handler(ParserC *pc, const char *data, int64_t len)
{
    if (!handler_get(self_of(pc), H_CharacterData))
        return 0;
    Obj *r = vm_roots(1);
    int rc = -1;
    r[0] = str_new(data, (size_t)len);
    if (!r[0])
        flag_error(pc);
    else if (call_handler(pc, H_CharacterData, r, 1))
        rc = 0;
    vm_unroots(r);
    return rc;
}

static int flush_buffer(ParserC *pc)
{
    if (!pc->buf || pc->buf_used == 0)
        return 0;
    int64_t n = pc->buf_used;
    pc->buf_used = 0;
    /* the handler may add to the buffer: hand it a copy */
    char *copy = malloc((size_t)n);
    if (!copy) {
        err_nomemory();
        flag_error(pc);
        return -1;
    }
    memcpy(copy, pc->buf, (size_t)n);
    int rc = call_char_handler(pc, copy, n);
    free(copy);
    return rc;
}

/* Whether handler k should run now (flushing buffered text first). */
static bool want_handler(ParserC *pc, int k)
{
    if (pc->exc_pending || !handler_get(self_of(pc), k))
        return false;
    if (flush_buffer(pc) < 0)
        return false;
    return handler_get(self_of(pc), k) != NULL && !pc->exc_pending;
}

/* Call handler k with n arguments made by the callback into r; frees r. */
static Obj finish_call(ParserC *pc, int k, Obj *r, int n, bool ok)
{
    Obj res = NULL;
    if (!ok) {
        flag_error(pc);
    } else {
        res = call_handler(pc, k, r, (size_t)n);
    }
    vm_unroots(r);
    return res;
}

/* ---- the C handlers ---- */

static void on_StartElement(void *ud, const XML_Char *name, const XML_Char **atts)
{
    ParserC *pc = ud;
    if (!want_handler(pc, H_StartElement))
        return;
    int64_t fl = flags_of(self_of(pc));
    int max = 0;
    if (fl & PF_SPECIFIED)
        max = XML_GetSpecifiedAttributeCount(pc->xp);
    else
        while (atts[max])
            max += 2;
    Obj *r = vm_roots(4);
    bool ok = false;
    r[1] = (fl & PF_ORDERED) ? list_new_capacity(max) : dict_new();
    if (!r[1])
        goto done;
    for (int i = 0; i < max; i += 2) {
        if (!(r[2] = intern_name(pc, atts[i])) || !(r[3] = conv_str(atts[i + 1])))
            goto done;
        if (fl & PF_ORDERED) {
            if (list_append(r[1], r[2]) < 0 || list_append(r[1], r[3]) < 0)
                goto done;
        } else if (dict_setitem(r[1], r[2], r[3]) < 0) {
            goto done;
        }
    }
    ok = (r[0] = intern_name(pc, name)) != NULL;
done:
    finish_call(pc, H_StartElement, r, 2, ok);
}

static void on_EndElement(void *ud, const XML_Char *name)
{
    ParserC *pc = ud;
    if (!want_handler(pc, H_EndElement))
        return;
    Obj *r = vm_roots(1);
    bool ok = (r[0] = intern_name(pc, name)) != NULL;
    finish_call(pc, H_EndElement, r, 1, ok);
}

static void on_ProcessingInstruction(void *ud, const XML_Char *target, const XML_Char *data)
{
    ParserC *pc = ud;
    if (!want_handler(pc, H_ProcessingInstruction))
        return;
    Obj *r = vm_roots(2);
    bool ok = (r[0] = intern_name(pc, target)) && (r[1] = conv_str(data));
    finish_call(pc, H_ProcessingInstruction, r, 2, ok);
}

static void on_CharacterData(void *ud, const XML_Char *s, int len)
{
    ParserC *pc = ud;
    if (pc->exc_pending)
        return;
    if (!pc->buf) {
        call_char_handler(pc, s, len);
        return;
    }
    if (pc->buf_used + len > pc->buf_cap) {
        if (flush_buffer(pc) < 0)
            return;
        if (!handler_get(self_of(pc), H_CharacterData))
            return;   /* the handler dropped itself: the rest goes nowhere */
    }
    if (!pc->buf || len > pc->buf_cap) {
        call_char_handler(pc, s, len);
        return;
    }
    memcpy(pc->buf + pc->buf_used, s, (size_t)len);
    pc->buf_used += len;
}

static void on_UnparsedEntityDecl(void *ud, const XML_Char *entity, const XML_Char *base, const XML_Char *system_id,
                                  const XML_Char *public_id, const XML_Char *notation)
{
    ParserC *pc = ud;
    if (!want_handler(pc, H_UnparsedEntityDecl))
        return;
    Obj *r = vm_roots(5);
    bool ok = (r[0] = intern_name(pc, entity)) && (r[1] = intern_name(pc, base)) &&
              (r[2] = intern_name(pc, system_id)) && (r[3] = intern_name(pc, public_id)) &&
              (r[4] = intern_name(pc, notation));
    finish_call(pc, H_UnparsedEntityDecl, r, 5, ok);
}

static void on_NotationDecl(void *ud, const XML_Char *notation, const XML_Char *base, const XML_Char *system_id,
                            const XML_Char *public_id)
{
    ParserC *pc = ud;
    if (!want_handler(pc, H_NotationDecl))
        return;
    Obj *r = vm_roots(4);
    bool ok = (r[0] = intern_name(pc, notation)) && (r[1] = intern_name(pc, base)) &&
              (r[2] = intern_name(pc, system_id)) && (r[3] = intern_name(pc, public_id));
    finish_call(pc, H_NotationDecl, r, 4, ok);
}

static void on_StartNamespaceDecl(void *ud, const XML_Char *prefix, const XML_Char *uri)
{
    ParserC *pc = ud;
    if (!want_handler(pc, H_StartNamespaceDecl))
        return;
    Obj *r = vm_roots(2);
    bool ok = (r[0] = intern_name(pc, prefix)) && (r[1] = intern_name(pc, uri));
    finish_call(pc, H_StartNamespaceDecl, r, 2, ok);
}

static void on_EndNamespaceDecl(void *ud, const XML_Char *prefix)
{
    ParserC *pc = ud;
    if (!want_handler(pc, H_EndNamespaceDecl))
        return;
    Obj *r = vm_roots(1);
    bool ok = (r[0] = intern_name(pc, prefix)) != NULL;
    finish_call(pc, H_EndNamespaceDecl, r, 1, ok);
}

static void on_Comment(void *ud, const XML_Char *data)
{
    ParserC *pc = ud;
    if (!want_handler(pc, H_Comment))
        return;
    Obj *r = vm_roots(1);
    bool ok = (r[0] = conv_str(data)) != NULL;
    finish_call(pc, H_Comment, r, 1, ok);
}

static void on_StartCdataSection(void *ud)
{
    ParserC *pc = ud;
    if (want_handler(pc, H_StartCdataSection))
        finish_call(pc, H_StartCdataSection, vm_roots(0), 0, true);
}

static void on_EndCdataSection(void *ud)
{
    ParserC *pc = ud;
    if (want_handler(pc, H_EndCdataSection))
        finish_call(pc, H_EndCdataSection, vm_roots(0), 0, true);
}

static void default_common(ParserC *pc, int k, const XML_Char *s, int len)
{
    if (!want_handler(pc, k))
        return;
    Obj *r = vm_roots(1);
    bool ok = (r[0] = str_new(s, (size_t)len)) != NULL;
    finish_call(pc, k, r, 1, ok);
}

static void on_Default(void *ud, const XML_Char *s, int len) { default_common(ud, H_Default, s, len); }
static void on_DefaultHandlerExpand(void *ud, const XML_Char *s, int len)
{
    default_common(ud, H_DefaultHandlerExpand, s, len);
}

/* A handler's int result (NotStandalone, ExternalEntityRef); fail on error. */
static int int_result(ParserC *pc, Obj res, int fail)
{
    if (!res)
        return fail;
    int64_t v;
    if (arg_c_int(res, &v) < 0) {
        flag_error(pc);
        return fail;
    }
    return (int)v;
}

static int on_NotStandalone(void *ud)
{
    ParserC *pc = ud;
    if (!want_handler(pc, H_NotStandalone))
        return 0;
    return int_result(pc, finish_call(pc, H_NotStandalone, vm_roots(0), 0, true), 0);
}

static int on_ExternalEntityRef(XML_Parser xp, const XML_Char *context, const XML_Char *base,
                                const XML_Char *system_id, const XML_Char *public_id)
{
    ParserC *pc = XML_GetUserData(xp);
    if (!want_handler(pc, H_ExternalEntityRef))
        return 0;
    Obj *r = vm_roots(4);
    bool ok = (r[0] = intern_name(pc, context)) && (r[1] = intern_name(pc, base)) &&
              (r[2] = intern_name(pc, system_id)) && (r[3] = intern_name(pc, public_id));
    return int_result(pc, finish_call(pc, H_ExternalEntityRef, r, 4, ok), 0);
}

static void on_StartDoctypeDecl(void *ud, const XML_Char *name, const XML_Char *sysid, const XML_Char *pubid,
                                int has_internal_subset)
{
    ParserC *pc = ud;
    if (!want_handler(pc, H_StartDoctypeDecl))
        return;
    Obj *r = vm_roots(4);
    bool ok = (r[0] = intern_name(pc, name)) && (r[1] = intern_name(pc, sysid)) && (r[2] = intern_name(pc, pubid)) &&
              (r[3] = int_from_i64(has_internal_subset));
    finish_call(pc, H_StartDoctypeDecl, r, 4, ok);
}

static void on_EndDoctypeDecl(void *ud)
{
    ParserC *pc = ud;
    if (want_handler(pc, H_EndDoctypeDecl))
        finish_call(pc, H_EndDoctypeDecl, vm_roots(0), 0, true);
}

static void on_EntityDecl(void *ud, const XML_Char *entity, int is_parameter, const XML_Char *value, int value_len,
                          const XML_Char *base, const XML_Char *system_id, const XML_Char *public_id,
                          const XML_Char *notation)
{
    ParserC *pc = ud;
    if (!want_handler(pc, H_EntityDecl))
        return;
    Obj *r = vm_roots(7);
    bool ok = (r[0] = intern_name(pc, entity)) && (r[1] = int_from_i64(is_parameter)) &&
              (r[2] = value ? str_new(value, (size_t)value_len) : g_None) && (r[3] = intern_name(pc, base)) &&
              (r[4] = intern_name(pc, system_id)) && (r[5] = intern_name(pc, public_id)) &&
              (r[6] = intern_name(pc, notation));
    finish_call(pc, H_EntityDecl, r, 7, ok);
}

static void on_XmlDecl(void *ud, const XML_Char *version, const XML_Char *encoding, int standalone)
{
    ParserC *pc = ud;
    if (!want_handler(pc, H_XmlDecl))
        return;
    Obj *r = vm_roots(3);
    bool ok = (r[0] = conv_str(version)) && (r[1] = conv_str(encoding)) && (r[2] = int_from_i64(standalone));
    finish_call(pc, H_XmlDecl, r, 3, ok);
}

/* A content model as CPython gives it: (type, quant, name or None, children). */
static Obj conv_model(ParserC *pc, const XML_Content *m)
{
    if (vm_enter_recursive(" while converting a content model") < 0)
        return NULL;
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[3] = list_new_capacity(m->numchildren);
    if (!r[3])
        goto out;
    for (unsigned i = 0; i < m->numchildren; i++) {
        Obj c = conv_model(pc, &m->children[i]);
        if (!c || list_append(r[3], c) < 0)
            goto out;
    }
    if (!(r[3] = vm_tuple_from_iter(r[3])) || !(r[0] = int_from_i64(m->type)) || !(r[1] = int_from_i64(m->quant)) ||
        !(r[2] = intern_name(pc, m->name)))
        goto out;
    res = tuple_from_array(r, 4);
out:
    vm_unroots(r);
    vm_leave_recursive();
    return res;
}

static void on_ElementDecl(void *ud, const XML_Char *name, XML_Content *model)
{
    ParserC *pc = ud;
    if (want_handler(pc, H_ElementDecl)) {
        Obj *r = vm_roots(2);
        bool ok = (r[0] = intern_name(pc, name)) && (r[1] = conv_model(pc, model));
        finish_call(pc, H_ElementDecl, r, 2, ok);
    }
    XML_FreeContentModel(pc->xp, model);
}

static void on_AttlistDecl(void *ud, const XML_Char *elname, const XML_Char *attname, const XML_Char *att_type,
                           const XML_Char *dflt, int isrequired)
{
    ParserC *pc = ud;
    if (!want_handler(pc, H_AttlistDecl))
        return;
    Obj *r = vm_roots(5);
    bool ok = (r[0] = intern_name(pc, elname)) && (r[1] = intern_name(pc, attname)) &&
              (r[2] = conv_str(att_type)) && (r[3] = conv_str(dflt)) && (r[4] = int_from_i64(isrequired));
    finish_call(pc, H_AttlistDecl, r, 5, ok);
}

static void on_SkippedEntity(void *ud, const XML_Char *entity, int is_parameter)
{
    ParserC *pc = ud;
    if (!want_handler(pc, H_SkippedEntity))
        return;
    Obj *r = vm_roots(2);
    bool ok = (r[0] = intern_name(pc, entity)) && (r[1] = int_from_i64(is_parameter));
    finish_call(pc, H_SkippedEntity, r, 2, ok);
}

static void register_handler(XML_Parser xp, int k, bool on)
{
#define ON(f) (on ? f : NULL)
    switch (k) {
    case H_StartElement: XML_SetStartElementHandler(xp, ON(on_StartElement)); break;
    case H_EndElement: XML_SetEndElementHandler(xp, ON(on_EndElement)); break;
    case H_ProcessingInstruction: XML_SetProcessingInstructionHandler(xp, ON(on_ProcessingInstruction)); break;
    case H_CharacterData: XML_SetCharacterDataHandler(xp, ON(on_CharacterData)); break;
    case H_UnparsedEntityDecl: XML_SetUnparsedEntityDeclHandler(xp, ON(on_UnparsedEntityDecl)); break;
    case H_NotationDecl: XML_SetNotationDeclHandler(xp, ON(on_NotationDecl)); break;
    case H_StartNamespaceDecl: XML_SetStartNamespaceDeclHandler(xp, ON(on_StartNamespaceDecl)); break;
    case H_EndNamespaceDecl: XML_SetEndNamespaceDeclHandler(xp, ON(on_EndNamespaceDecl)); break;
    case H_Comment: XML_SetCommentHandler(xp, ON(on_Comment)); break;
    case H_StartCdataSection: XML_SetStartCdataSectionHandler(xp, ON(on_StartCdataSection)); break;
    case H_EndCdataSection: XML_SetEndCdataSectionHandler(xp, ON(on_EndCdataSection)); break;
    case H_Default: XML_SetDefaultHandler(xp, ON(on_Default)); break;
    case H_DefaultHandlerExpand: XML_SetDefaultHandlerExpand(xp, ON(on_DefaultHandlerExpand)); break;
    case H_NotStandalone: XML_SetNotStandaloneHandler(xp, ON(on_NotStandalone)); break;
    case H_ExternalEntityRef: XML_SetExternalEntityRefHandler(xp, ON(on_ExternalEntityRef)); break;
    case H_StartDoctypeDecl: XML_SetStartDoctypeDeclHandler(xp, ON(on_StartDoctypeDecl)); break;
    case H_EndDoctypeDecl: XML_SetEndDoctypeDeclHandler(xp, ON(on_EndDoctypeDecl)); break;
    case H_EntityDecl: XML_SetEntityDeclHandler(xp, ON(on_EntityDecl)); break;
    case H_XmlDecl: XML_SetXmlDeclHandler(xp, ON(on_XmlDecl)); break;
    case H_ElementDecl: XML_SetElementDeclHandler(xp, ON(on_ElementDecl)); break;
    case H_AttlistDecl: XML_SetAttlistDeclHandler(xp, ON(on_AttlistDecl)); break;
    case H_SkippedEntity: XML_SetSkippedEntityHandler(xp, ON(on_SkippedEntity)); break;
    }
#undef ON
}

/* An encoding libexpat does not know: a one-byte codec of Python's, its
 * 256 characters decoded with "replace" (U+FFFD: not a character of it). */
static int on_unknown_encoding(void *data, const XML_Char *name, XML_Encoding *info)
{
    ParserC *pc = data;
    if (pc->exc_pending)
        return XML_STATUS_ERROR;
    unsigned char all[256];
    for (int i = 0; i < 256; i++)
        all[i] = (unsigned char)i;
    Obj *r = vm_roots(1);
    int rc = XML_STATUS_ERROR;
    r[0] = bytes_new((const char *)all, 256);
    if (r[0])
        r[0] = bytes_decode(r[0], name, "replace");
    if (!r[0]) {
        pc->exc_pending = true;
        goto out;
    }
    if (STR(r[0])->length != 256) {
        err_set(E_ValueError, "multi-byte encodings are not supported");
        pc->exc_pending = true;
        goto out;
    }
    const unsigned char *p = (const unsigned char *)str_cstr(r[0]);
    for (int i = 0; i < 256; i++) {
        uint32_t cp;
        if (p[0] < 0x80) {
            cp = p[0];
            p += 1;
        } else if (p[0] < 0xE0) {
            cp = (uint32_t)(p[0] & 0x1F) << 6 | (p[1] & 0x3F);
            p += 2;
        } else if (p[0] < 0xF0) {
            cp = (uint32_t)(p[0] & 0x0F) << 12 | (uint32_t)(p[1] & 0x3F) << 6 | (p[2] & 0x3F);
            p += 3;
        } else {
            cp = (uint32_t)(p[0] & 0x07) << 18 | (uint32_t)(p[1] & 0x3F) << 12 | (uint32_t)(p[2] & 0x3F) << 6 |
                 (p[3] & 0x3F);
            p += 4;
        }
        info->map[i] = cp == 0xFFFD ? -1 : (int)cp;
    }
    info->data = NULL;
    info->convert = NULL;
    info->release = NULL;
    rc = XML_STATUS_OK;
out:
    vm_unroots(r);
    return rc;
}

/* ---- parser objects ---- */

/* A parser object around xp (NULL: out of memory), handlers None or a copy of
 * `handlers` (rooted by the caller). */
static Obj parser_new(XML_Parser xp, Obj *intern_slot, Obj *handlers_slot, Obj *parent_slot, int64_t flags,
                      int64_t buffer_size)
{
    if (!xp)
        return err_nomemory();
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = list_new(H_COUNT);
    if (!r[0])
        goto fail;
    if (handlers_slot)
        for (int k = 0; k < H_COUNT; k++)
            LIST_ITEMS(r[0])[k] = LIST_ITEMS(*handlers_slot)[k];
    r[1] = iter_alloc(T_xmlparser, r[0], 0);
    ParserC *pc = r[1] ? calloc(1, sizeof *pc) : NULL;
    if (!pc) {
        if (r[1])
            err_nomemory();
        goto fail;
    }
    pc->xp = xp;
    XML_SetUserData(xp, pc);
    XML_SetUnknownEncodingHandler(xp, on_unknown_encoding, pc);
    VM_WRITE(r[1]);
    ITER(r[1])->b = *intern_slot;
    ITER(r[1])->c = parent_slot ? *parent_slot : NULL;
    ITER(r[1])->i = (int64_t)(uintptr_t)pc;
    ITER(r[1])->n = flags;
    ITER(r[1])->kind = buffer_size;
    tm_register_finalizer((object_t *)r[1]);   /* __del__ frees libexpat's parser */
    res = r[1];
    vm_unroots(r);
    return res;
fail:
    XML_ParserFree(xp);
    vm_unroots(r);
    return NULL;
}

static void pc_free(ParserC *pc)
{
    XML_ParserFree(pc->xp);
    free(pc->buf);
    ParserC *parent = pc->parent;
    free(pc);
    if (parent && --parent->children == 0 && parent->dead)
        pc_free(parent);
}

/* __del__: free libexpat's parser (once; after its external entity parsers). */
static Obj parser_del(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();
    ParserC *pc = pc_of(args[0]);
    if (!pc)
        return g_None;
    VM_WRITE(args[0]);
    ITER(args[0])->i = 0;
    pc->dead = true;
    if (pc->children == 0)
        pc_free(pc);
    return g_None;
}

/* The parser's ParserC, or NULL with an error once it is freed. */
/* Inevitable first: libexpat's state (outside the heap) may be read or
 * changed by the caller, even its position getters write a cache, and a
 * parse by another (inevitable) thread may be changing it. */
static ParserC *live_pc(Obj self)
{
    vm_tx_become_inevitable();
    ParserC *pc = pc_of(self);
    if (!pc)
        err_set(E_RuntimeError, "parser has been freed");
    return pc;
}

/* The buffer_text buffer made or dropped to match the flag (inevitable). */
static int sync_buffer(ParserC *pc, Obj self)
{
    bool want = flags_of(self) & PF_BUFFER_TEXT;
    int64_t size = ITER(self)->kind;
    if (want && (!pc->buf || pc->buf_cap != size)) {
        if (flush_buffer(pc) < 0)
            return -1;
        char *b = realloc(pc->buf, (size_t)size);
        if (!b) {
            err_nomemory();
            return -1;
        }
        pc->buf = b;
        pc->buf_cap = size;
    } else if (!want && pc->buf) {
        if (flush_buffer(pc) < 0)
            return -1;
        free(pc->buf);
        pc->buf = NULL;
        pc->buf_cap = 0;
    }
    return 0;
}

/* Before feeding libexpat: inevitable, the handlers and options in place. */
static ParserC *parse_begin(Obj *selfp, Obj **saved_slot)
{
    vm_tx_become_inevitable();
    ParserC *pc = live_pc(*selfp);
    if (!pc)
        return NULL;
    if (pc->self_slot) {   /* libexpat must not be re-entered (its buffer may move under the outer parse) */
        err_set(E_RuntimeError, "cannot call Parse() from within a handler");
        return NULL;
    }
    *saved_slot = pc->self_slot;
    pc->self_slot = selfp;
    pc->parsing = true;
    sync_handlers(pc, *selfp);
    if (!pc->exc_pending && sync_buffer(pc, *selfp) < 0) {
        pc->self_slot = *saved_slot;
        pc->parsing = *saved_slot != NULL;
        return NULL;
    }
    XML_SetReturnNSTriplet(pc->xp, (flags_of(*selfp) & PF_NS_PREFIXES) != 0);
    return pc;
}

/* After libexpat returned rc: the pending exception, ExpatError, or rc. */
static Obj parse_end(ParserC *pc, Obj *saved_slot, int rc)
{
    Obj res = NULL;
    if (pc->exc_pending) {
        pc->exc_pending = false;
    } else if (rc == XML_STATUS_ERROR) {
        set_error(pc->xp, XML_GetErrorCode(pc->xp));
    } else if (flush_buffer(pc) == 0) {
        res = int_from_i64(rc);
    } else {
        pc->exc_pending = false;
    }
    pc->self_slot = saved_slot;
    pc->parsing = saved_slot != NULL;
    return res;
}

/* Hand libexpat n bytes (p re-read by the caller after any call into Python). */
static int feed(ParserC *pc, const char *p, int64_t n, bool final)
{
    if (n == 0)
        return XML_Parse(pc->xp, "", 0, final);
    void *buf = XML_GetBuffer(pc->xp, (int)n);
    if (!buf)
        return XML_STATUS_ERROR;
    memcpy(buf, p, (size_t)n);
    return XML_ParseBuffer(pc->xp, (int)n, final);
}

/* xmlparser.Parse(data, isfinal=False, /) */
static Obj xp_parse(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = vm_unwrap(args[1]);
    int64_t isfinal = 0;
    if (nargs > 2 && arg_c_int(args[2], &isfinal) < 0)
        goto out;
    bool is_str = IS_STR(r[1]);
    const char *p;
    int64_t n;
    if (!is_str && !bytes_like_arg(r[1], &p, &n))
        goto out;
    Obj *saved;
    ParserC *pc = parse_begin(&r[0], &saved);
    if (!pc)
        goto out;
    if (is_str)
        XML_SetEncoding(pc->xp, "utf-8");
    int rc = XML_STATUS_OK;
    int64_t off = 0;
    for (;;) {
        if (is_str) {
            p = str_cstr(r[1]);
            n = STR(r[1])->nbytes;
        } else if (!bytes_like(r[1], &p, &n)) {
            n = 0;
        }
        if (off > n)
            off = n;
        int64_t k = n - off > PARSE_CHUNK ? PARSE_CHUNK : n - off;
        bool last = off + k == n;
        rc = feed(pc, p + off, k, last && isfinal);
        off += k;
        if (rc == XML_STATUS_ERROR || pc->exc_pending || last)
            break;
    }
    res = parse_end(pc, saved, rc);
out:
    vm_unroots(r);
    return res;
}

/* xmlparser.ParseFile(file, /): read(2048) until it returns b''. */
static Obj xp_parsefile(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    Obj read_name = str_intern_cstr("read");   /* pinned */
    r[1] = read_name ? vm_getattr_opt(args[1], read_name) : NULL;
    if (!r[1]) {
        if (!err_occurred())
            err_set(E_TypeError, "argument must have 'read' attribute");
        goto out;
    }
    Obj *saved;
    ParserC *pc = parse_begin(&r[0], &saved);
    if (!pc)
        goto out;
    int rc = XML_STATUS_OK;
    for (;;) {
        if (!XML_GetBuffer(pc->xp, PARSEFILE_CHUNK)) {   /* a finished parser: "parsing finished" */
            rc = XML_STATUS_ERROR;
            break;
        }
        r[2] = vm_call1(r[1], MAKE_SMALLINT(PARSEFILE_CHUNK));
        if (!r[2]) {
            pc->exc_pending = true;
            break;
        }
        if (!IS_BYTES(vm_unwrap(r[2]))) {
            err_format(E_TypeError, "read() did not return a bytes object (type=%.400s)", type_name(r[2]));
            pc->exc_pending = true;
            break;
        }
        r[2] = vm_unwrap(r[2]);
        int64_t n = BYTES(r[2])->length;
        if (n > PARSEFILE_CHUNK) {
            err_format(E_ValueError, "read() returned too much data: %d bytes requested, %lld returned",
                       PARSEFILE_CHUNK, (long long)n);
            pc->exc_pending = true;
            break;
        }
        rc = feed(pc, (const char *)VM_LINEAR(BYTES(r[2])->data), n, n == 0);
        if (rc == XML_STATUS_ERROR || pc->exc_pending || n == 0)
            break;
    }
    res = parse_end(pc, saved, rc);
out:
    vm_unroots(r);
    return res;
}

static Obj xp_setbase(Obj *args, size_t nargs, Obj kwnames)
{
    Obj base = vm_unwrap(args[1]);
    if (!IS_STR(base)) {
        err_format(E_TypeError, "SetBase() argument must be str, not %.200s", type_name(args[1]));
        return NULL;
    }
    vm_tx_become_inevitable();
    ParserC *pc = live_pc(args[0]);
    if (!pc)
        return NULL;
    if (!XML_SetBase(pc->xp, str_cstr(base)))
        return err_nomemory();
    return g_None;
}

static Obj xp_getbase(Obj *args, size_t nargs, Obj kwnames)
{
    ParserC *pc = live_pc(args[0]);
    return pc ? conv_str(XML_GetBase(pc->xp)) : NULL;
}

static Obj xp_getinputcontext(Obj *args, size_t nargs, Obj kwnames)
{
    ParserC *pc = live_pc(args[0]);
    if (!pc)
        return NULL;
    if (!pc->in_callback)
        return g_None;
    int offset, size;
    const char *b = XML_GetInputContext(pc->xp, &offset, &size);
    return b ? bytes_new(b + offset, (size_t)(size - offset)) : g_None;
}

/* xmlparser.ExternalEntityParserCreate(context, encoding=<unrepresentable>, /) */
static Obj xp_external_entity_parser_create(Obj *args, size_t nargs, Obj kwnames)
{
    Obj ctx = vm_unwrap(args[1]);
    if (!IS_NONE(ctx) && !IS_STR(ctx)) {
        err_format(E_TypeError, "ExternalEntityParserCreate() argument 1 must be str or None, not %.200s",
                   type_name(args[1]));
        return NULL;
    }
    Obj enc = nargs > 2 ? vm_unwrap(args[2]) : NULL;
    if (enc && !IS_STR(enc)) {
        err_format(E_TypeError, "ExternalEntityParserCreate() argument 2 must be str, not %.200s",
                   type_name(args[2]));
        return NULL;
    }
    vm_tx_become_inevitable();
    ParserC *pc = live_pc(args[0]);
    if (!pc)
        return NULL;
    /* the C strings are copied by libexpat before anything allocates */
    XML_Parser child = XML_ExternalEntityParserCreate(pc->xp, IS_NONE(ctx) ? NULL : str_cstr(ctx),
                                                      enc ? str_cstr(enc) : NULL);
    Obj *r = vm_roots(3);
    r[0] = args[0];
    r[1] = ITER(r[0])->b;
    r[2] = ITER(r[0])->a;
    Obj res = parser_new(child, &r[1], &r[2], &r[0], ITER(r[0])->n, ITER(r[0])->kind);
    if (res) {
        ParserC *cc = pc_of(res);
        cc->parent = pc_of(r[0]);
        cc->parent->children++;
        /* libexpat copied the parent's handlers and userData: ours replace them */
        XML_SetUserData(child, cc);
        XML_SetUnknownEncodingHandler(child, on_unknown_encoding, cc);
        cc->registered = (1u << H_COUNT) - 1;   /* whatever the parent had: the next Parse syncs */
    }
    vm_unroots(r);
    return res;
}

static Obj xp_setparamentityparsing(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t flag;
    if (arg_c_int(args[1], &flag) < 0)
        return NULL;
    vm_tx_become_inevitable();
    ParserC *pc = live_pc(args[0]);
    if (!pc)
        return NULL;
    return int_from_i64(XML_SetParamEntityParsing(pc->xp, (enum XML_ParamEntityParsing)flag));
}

static Obj xp_useforeigndtd(Obj *args, size_t nargs, Obj kwnames)
{
    int flag = 1;
    if (nargs > 1) {
        int t = vm_is_true(args[1]);
        if (t < 0)
            return NULL;
        flag = t;
    }
    vm_tx_become_inevitable();
    ParserC *pc = live_pc(args[0]);
    if (!pc)
        return NULL;
    enum XML_Error rc = XML_UseForeignDTD(pc->xp, flag ? XML_TRUE : XML_FALSE);
    if (rc != XML_ERROR_NONE)
        return set_error(pc->xp, rc);
    return g_None;
}

/* ---- attributes ---- */

static Obj handler_getter(Obj self, int k)
{
    Obj h = handler_get(self, k);
    return h ? h : g_None;
}

/* args: (self, handler), root slots (a flush runs Python code). */
static Obj handler_setter(Obj *args, int k)
{
    if (!args[1]) {
        err_set(E_AttributeError, "Cannot delete attribute");
        return NULL;
    }
    if (pc_of(args[0]))
        vm_tx_become_inevitable();   /* parsing is libexpat's state, read here, and its registration may change */
    ParserC *pc = pc_of(args[0]);
    if (pc && pc->parsing && k == H_CharacterData && flush_buffer(pc) < 0) {
        pc->exc_pending = false;
        return NULL;
    }
    handler_store(args[0], k, args[1]);
    if (pc && pc->parsing)
        sync_handlers(pc, args[0]);
    return g_None;
}

#define H_ACCESSORS(name)                                                                                   \
    static Obj get_##name(Obj *args, size_t nargs, Obj kwnames) { return handler_getter(args[0], H_##name); } \
    static Obj set_##name(Obj *args, size_t nargs, Obj kwnames)                                             \
    {                                                                                                       \
        return handler_setter(args, H_##name);                                                              \
    }
HANDLERS(H_ACCESSORS)
#define H_GETTER(name) get_##name,
#define H_SETTER(name) set_##name,
static const cfunc handler_getters[] = {HANDLERS(H_GETTER)};
static const cfunc handler_setters[] = {HANDLERS(H_SETTER)};

static Obj flag_get(Obj self, int f) { return vm_bool((flags_of(self) & f) != 0); }

static Obj flag_set(Obj *args, int f)
{
    if (!args[1]) {
        err_set(E_AttributeError, "Cannot delete attribute");
        return NULL;
    }
    int t = vm_is_true(args[1]);   /* may run __bool__: self re-read after it */
    if (t < 0)
        return NULL;
    Obj self = args[0];
    if (pc_of(self))
        vm_tx_become_inevitable();   /* parsing is libexpat's state */
    VM_WRITE(self);
    ITER(self)->n = t ? (ITER(self)->n | f) : (ITER(self)->n & ~(int64_t)f);
    ParserC *pc = pc_of(self);
    if (f == PF_BUFFER_TEXT && pc && pc->parsing) {   /* the buffer changes now */
        if (sync_buffer(pc, self) < 0) {
            pc->exc_pending = false;
            return NULL;
        }
    }
    return g_None;
}

#define FLAG_ACCESSORS(attr, f)                                                                              \
    static Obj get_##attr(Obj *args, size_t nargs, Obj kwnames) { return flag_get(args[0], f); }             \
    static Obj set_##attr(Obj *args, size_t nargs, Obj kwnames) { return flag_set(args, f); }
FLAG_ACCESSORS(ordered_attributes, PF_ORDERED)
FLAG_ACCESSORS(specified_attributes, PF_SPECIFIED)
FLAG_ACCESSORS(buffer_text, PF_BUFFER_TEXT)
FLAG_ACCESSORS(namespace_prefixes, PF_NS_PREFIXES)

static Obj get_buffer_size(Obj *args, size_t nargs, Obj kwnames) { return int_from_i64(ITER(args[0])->kind); }

static Obj set_buffer_size(Obj *args, size_t nargs, Obj kwnames)
{
    Obj self = args[0], v = args[1];
    if (!v) {
        err_set(E_AttributeError, "Cannot delete attribute");
        return NULL;
    }
    if (!IS_INT(vm_unwrap(v))) {
        err_set(E_TypeError, "buffer_size must be an integer");
        return NULL;
    }
    int64_t size;
    if (int_as_i64(vm_unwrap(v), &size) < 0 || size > INT32_MAX) {
        err_clear();
        err_format(E_ValueError, "buffer_size must not be greater than %d", INT32_MAX);
        return NULL;
    }
    if (size <= 0) {
        err_set(E_ValueError, "buffer_size must be greater than zero");
        return NULL;
    }
    if (pc_of(self))
        vm_tx_become_inevitable();   /* parsing is libexpat's state */
    VM_WRITE(self);
    ITER(self)->kind = size;
    ParserC *pc = pc_of(self);
    if (pc && pc->parsing) {
        if (sync_buffer(pc, args[0]) < 0) {
            pc->exc_pending = false;
            return NULL;
        }
    }
    return g_None;
}

static Obj get_buffer_used(Obj *args, size_t nargs, Obj kwnames)
{
    ParserC *pc = pc_of(args[0]);
    return int_from_i64(pc && pc->buf ? pc->buf_used : 0);
}

static Obj get_intern(Obj *args, size_t nargs, Obj kwnames) { return ITER(args[0])->b; }

#define POS_GETTER(attr, expr)                                                                               \
    static Obj get_##attr(Obj *args, size_t nargs, Obj kwnames)                                              \
    {                                                                                                        \
        ParserC *pc = live_pc(args[0]);                                                                      \
        return pc ? int_from_i64((int64_t)(expr)) : NULL;                                                    \
    }
POS_GETTER(ErrorCode, XML_GetErrorCode(pc->xp))
POS_GETTER(ErrorLineNumber, XML_GetErrorLineNumber(pc->xp))
POS_GETTER(ErrorColumnNumber, XML_GetErrorColumnNumber(pc->xp))
POS_GETTER(ErrorByteIndex, XML_GetErrorByteIndex(pc->xp))
POS_GETTER(CurrentLineNumber, XML_GetCurrentLineNumber(pc->xp))
POS_GETTER(CurrentColumnNumber, XML_GetCurrentColumnNumber(pc->xp))
POS_GETTER(CurrentByteIndex, XML_GetCurrentByteIndex(pc->xp))

static const MethodDef xmlparser_methods[] = {
    {"Parse", xp_parse, METH_ARGS(1, 2), "Parse($self, data, isfinal=False, /)\n--\n\nParse XML data.\n\n`isfinal' should be true at end of input."},
    {"ParseFile", xp_parsefile, METH_O, "ParseFile($self, file, /)\n--\n\nParse XML data from file-like object."},
    {"SetBase", xp_setbase, METH_O, "SetBase($self, base, /)\n--\n\nSet the base URL for the parser."},
    {"GetBase", xp_getbase, METH_NOARGS, "GetBase($self, /)\n--\n\nReturn base URL string for the parser."},
    {"GetInputContext", xp_getinputcontext, METH_NOARGS, "GetInputContext($self, /)\n--\n\nReturn the untranslated text of the input that caused the current event.\n\nIf the event was generated by a large amount of text (such as a start tag\nfor an element with many attributes), not all of the text may be available."},
    {"ExternalEntityParserCreate", xp_external_entity_parser_create, METH_ARGS(1, 2), "ExternalEntityParserCreate($self, context, encoding=<unrepresentable>, /)\n--\n\nCreate a parser for parsing an external entity based on the information passed to the ExternalEntityRefHandler."},
    {"SetParamEntityParsing", xp_setparamentityparsing, METH_O, "SetParamEntityParsing($self, flag, /)\n--\n\nControls parsing of parameter entities (including the external DTD subset).\n\nPossible flag values are XML_PARAM_ENTITY_PARSING_NEVER,\nXML_PARAM_ENTITY_PARSING_UNLESS_STANDALONE and\nXML_PARAM_ENTITY_PARSING_ALWAYS. Returns true if setting the flag\nwas successful."},
    {"UseForeignDTD", xp_useforeigndtd, METH_ARGS(0, 1), "UseForeignDTD($self, flag=True, /)\n--\n\nAllows the application to provide an artificial external subset if one is not specified as part of the document instance.\n\nThis readily allows the use of a 'default' document type controlled by the\napplication, while still getting the advantage of providing document type\ninformation to the parser. 'flag' defaults to True if not provided."},
    {"__del__", parser_del, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* ---- module functions ---- */

/* ParserCreate(encoding=None, namespace_separator=None, intern=<unrepresentable>) */
static Obj pyexpat_parsercreate(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"encoding", "namespace_separator", "intern", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    if (vm_parse_args("ParserCreate", args, nargs, kwnames, names, 0, 3, a) < 0)
        goto out;
    static const char *const argnames[] = {"encoding", "namespace_separator"};
    for (int k = 0; k < 2; k++)
        if (a[k] && !IS_NONE(a[k]) && !IS_STR(vm_unwrap(a[k]))) {
            err_format(E_TypeError, "ParserCreate() argument '%s' must be str or None, not %.200s", argnames[k],
                       type_name(a[k]));
            goto out;
        }
    bool ns = a[1] && !IS_NONE(a[1]);
    if (ns && STR(vm_unwrap(a[1]))->length > 1) {
        err_set(E_ValueError, "namespace_separator must be at most one character, omitted, or None");
        goto out;
    }
    if (!a[2]) {
        if (!(a[2] = dict_new()))
            goto out;
    } else if (!IS_NONE(a[2]) && !IS_DICT(vm_unwrap(a[2]))) {
        err_set(E_TypeError, "intern must be a dictionary");
        goto out;
    }
    const char *enc = a[0] && !IS_NONE(a[0]) ? str_cstr(vm_unwrap(a[0])) : NULL;
    XML_Parser xp;
    if (ns) {
        /* one character: its first UTF-8 byte is the separator (CPython takes the same) */
        const char *sep = str_cstr(vm_unwrap(a[1]));
        xp = XML_ParserCreate_MM(enc, &mem_suite, sep);
    } else {
        xp = XML_ParserCreate_MM(enc, &mem_suite, NULL);
    }
    res = parser_new(xp, &a[2], NULL, NULL, 0, DEFAULT_BUFFER_SIZE);
out:
    vm_unroots(a);
    return res;
}

static Obj pyexpat_errorstring(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t code;
    if (arg_c_int(args[0], &code) < 0)
        return NULL;
    return conv_str(XML_ErrorString((enum XML_Error)code));
}

static const MethodDef pyexpat_functions[] = {
    {"ParserCreate", pyexpat_parsercreate, METH_KW, "ParserCreate($module, /, encoding=None, namespace_separator=None, intern=<unrepresentable>)\n--\n\nReturn a new XML parser object."},
    {"ErrorString", pyexpat_errorstring, METH_O, "ErrorString($module, code, /)\n--\n\nReturns string error for given number."},
    {NULL, NULL, 0, NULL},
};

/* ---- the module ---- */

#define ERR_NAME(e) {#e, e},
static const struct { const char *name; enum XML_Error code; } error_names[] = {
    ERR_NAME(XML_ERROR_NO_MEMORY) ERR_NAME(XML_ERROR_SYNTAX) ERR_NAME(XML_ERROR_NO_ELEMENTS)
    ERR_NAME(XML_ERROR_INVALID_TOKEN) ERR_NAME(XML_ERROR_UNCLOSED_TOKEN) ERR_NAME(XML_ERROR_PARTIAL_CHAR)
    ERR_NAME(XML_ERROR_TAG_MISMATCH) ERR_NAME(XML_ERROR_DUPLICATE_ATTRIBUTE)
    ERR_NAME(XML_ERROR_JUNK_AFTER_DOC_ELEMENT) ERR_NAME(XML_ERROR_PARAM_ENTITY_REF)
    ERR_NAME(XML_ERROR_UNDEFINED_ENTITY) ERR_NAME(XML_ERROR_RECURSIVE_ENTITY_REF) ERR_NAME(XML_ERROR_ASYNC_ENTITY)
    ERR_NAME(XML_ERROR_BAD_CHAR_REF) ERR_NAME(XML_ERROR_BINARY_ENTITY_REF)
    ERR_NAME(XML_ERROR_ATTRIBUTE_EXTERNAL_ENTITY_REF) ERR_NAME(XML_ERROR_MISPLACED_XML_PI)
    ERR_NAME(XML_ERROR_UNKNOWN_ENCODING) ERR_NAME(XML_ERROR_INCORRECT_ENCODING)
    ERR_NAME(XML_ERROR_UNCLOSED_CDATA_SECTION) ERR_NAME(XML_ERROR_EXTERNAL_ENTITY_HANDLING)
    ERR_NAME(XML_ERROR_NOT_STANDALONE) ERR_NAME(XML_ERROR_UNEXPECTED_STATE)
    ERR_NAME(XML_ERROR_ENTITY_DECLARED_IN_PE) ERR_NAME(XML_ERROR_FEATURE_REQUIRES_XML_DTD)
    ERR_NAME(XML_ERROR_CANT_CHANGE_FEATURE_ONCE_PARSING) ERR_NAME(XML_ERROR_UNBOUND_PREFIX)
    ERR_NAME(XML_ERROR_UNDECLARING_PREFIX) ERR_NAME(XML_ERROR_INCOMPLETE_PE) ERR_NAME(XML_ERROR_XML_DECL)
    ERR_NAME(XML_ERROR_TEXT_DECL) ERR_NAME(XML_ERROR_PUBLICID) ERR_NAME(XML_ERROR_SUSPENDED)
    ERR_NAME(XML_ERROR_NOT_SUSPENDED) ERR_NAME(XML_ERROR_ABORTED) ERR_NAME(XML_ERROR_FINISHED)
    ERR_NAME(XML_ERROR_SUSPEND_PE) ERR_NAME(XML_ERROR_RESERVED_PREFIX_XML)
    ERR_NAME(XML_ERROR_RESERVED_PREFIX_XMLNS) ERR_NAME(XML_ERROR_RESERVED_NAMESPACE_URI)
    ERR_NAME(XML_ERROR_INVALID_ARGUMENT) ERR_NAME(XML_ERROR_NO_BUFFER)
    ERR_NAME(XML_ERROR_AMPLIFICATION_LIMIT_BREACH)
};

/* A submodule registered as sys.modules["pyexpat.<name>"]. */
static Obj submodule(const char *name)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    char full[64];
    snprintf(full, sizeof full, "pyexpat.%s", name);
    r[0] = module_new(full);
    if (r[0] && dict_setitem_cstr(g_modules, full, r[0]) == 0)
        res = r[0];
    vm_unroots(r);
    return res;
}

static Obj make_errors_module(void)
{
    Obj *r = vm_roots(5);
    Obj res = NULL;
    if (!(r[0] = submodule("errors")) || !(r[1] = dict_new()) || !(r[2] = dict_new()))
        goto out;
    if (!(r[3] = str_from_cstr("Constants used to describe error conditions.")) || module_add(r[0], "__doc__", r[3]) < 0)
        goto out;
    for (size_t k = 0; k < ARRAY_LEN(error_names); k++) {
        if (!(r[3] = conv_str(XML_ErrorString(error_names[k].code))) || !(r[4] = int_from_i64(error_names[k].code)))
            goto out;
        if (module_add(r[0], error_names[k].name, r[3]) < 0 || dict_setitem(r[1], r[3], r[4]) < 0 ||
            dict_setitem(r[2], r[4], r[3]) < 0)
            goto out;
    }
    if (module_add(r[0], "codes", r[1]) < 0 || module_add(r[0], "messages", r[2]) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

static Obj make_model_module(void)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    if (!(r[0] = submodule("model")))
        goto out;
    if (!(r[1] = str_from_cstr("Constants used to interpret content model information.")) ||
        module_add(r[0], "__doc__", r[1]) < 0)
        goto out;
    static const struct { const char *name; int v; } consts[] = {
        {"XML_CTYPE_EMPTY", XML_CTYPE_EMPTY}, {"XML_CTYPE_ANY", XML_CTYPE_ANY},
        {"XML_CTYPE_MIXED", XML_CTYPE_MIXED}, {"XML_CTYPE_NAME", XML_CTYPE_NAME},
        {"XML_CTYPE_CHOICE", XML_CTYPE_CHOICE}, {"XML_CTYPE_SEQ", XML_CTYPE_SEQ},
        {"XML_CQUANT_NONE", XML_CQUANT_NONE}, {"XML_CQUANT_OPT", XML_CQUANT_OPT},
        {"XML_CQUANT_REP", XML_CQUANT_REP}, {"XML_CQUANT_PLUS", XML_CQUANT_PLUS},
    };
    for (size_t k = 0; k < ARRAY_LEN(consts); k++)
        if (module_add(r[0], consts[k].name, int_from_i64(consts[k].v)) < 0)
            goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

/* features: [(name, value), ...] as libexpat lists them. */
static Obj make_features(void)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    if (!(r[0] = list_new_capacity(8)))
        goto out;
    for (const XML_Feature *f = XML_GetFeatureList(); f && f->feature != XML_FEATURE_END; f++) {
        if (!(r[1] = str_from_cstr(f->name)) || !(r[2] = int_from_i64(f->value)))
            goto out;
        Obj t = tuple_from_array(&r[1], 2);
        if (!t || list_append(r[0], t) < 0)
            goto out;
    }
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

static TypeObj *make_parser_type(void)
{
    TypeObj *t = (TypeObj *)type_new_builtin("pyexpat.xmlparser", T_object, TID_ITER, TPF_DOTTED_NAME);
    if (!t)
        return NULL;
    VM_WRITE_RARE(t);
    t->flags |= TPF_HAS_DEL;
    type_add_methods(t, xmlparser_methods);
    for (int k = 0; k < H_COUNT; k++) {
        char name[64];
        const char *base = handler_base_names[k];
        snprintf(name, sizeof name, strcmp(base, "DefaultHandlerExpand") == 0 ? "%s" : "%sHandler", base);
        type_add_getset(t, name, handler_getters[k], handler_setters[k]);
    }
    type_add_getset(t, "ordered_attributes", get_ordered_attributes, set_ordered_attributes);
    type_add_getset(t, "specified_attributes", get_specified_attributes, set_specified_attributes);
    type_add_getset(t, "buffer_text", get_buffer_text, set_buffer_text);
    type_add_getset(t, "namespace_prefixes", get_namespace_prefixes, set_namespace_prefixes);
    type_add_getset(t, "buffer_size", get_buffer_size, set_buffer_size);
    type_add_getset(t, "buffer_used", get_buffer_used, NULL);
    type_add_getset(t, "intern", get_intern, NULL);
    type_add_getset(t, "ErrorCode", get_ErrorCode, NULL);
    type_add_getset(t, "ErrorLineNumber", get_ErrorLineNumber, NULL);
    type_add_getset(t, "ErrorColumnNumber", get_ErrorColumnNumber, NULL);
    type_add_getset(t, "ErrorByteIndex", get_ErrorByteIndex, NULL);
    type_add_getset(t, "CurrentLineNumber", get_CurrentLineNumber, NULL);
    type_add_getset(t, "CurrentColumnNumber", get_CurrentColumnNumber, NULL);
    type_add_getset(t, "CurrentByteIndex", get_CurrentByteIndex, NULL);
    type_ready(t);
    return t;
}

Obj pyexpat_module_init(void)
{
    static bool once;
    if (!once) {   /* module inits run inevitable: global roots may be written */
        VM_GLOBAL_ROOT(g_expat_error);
        VM_GLOBAL_ROOT(g_errors_module);
        VM_GLOBAL_ROOT(g_model_module);
        T_xmlparser = make_parser_type();
        if (!T_xmlparser)
            return err_nomemory();
        once = true;
    }
    Obj *r = vm_roots(4);
    Obj res = NULL;
    if (!g_expat_error) {
        r[0] = str_from_cstr("ExpatError");
        r[1] = r[0] ? tuple_pack(1, (Obj)E_Exception) : NULL;
        r[2] = r[1] ? dict_new() : NULL;
        if (!r[2] || !(r[3] = str_from_cstr("xml.parsers.expat")) || dict_setitem_cstr(r[2], "__module__", r[3]) < 0)
            goto out;
        if (!(g_expat_error = vm_call3((Obj)T_type, r[0], r[1], r[2])))
            goto out;
    }
    if (!(g_errors_module = make_errors_module()) || !(g_model_module = make_model_module()))
        goto out;
    r[0] = module_new("pyexpat");
    if (!r[0])
        goto out;
    module_add_functions(r[0], pyexpat_functions);
    if (module_add(r[0], "ExpatError", g_expat_error) < 0 || module_add(r[0], "error", g_expat_error) < 0 ||
        module_add(r[0], "XMLParserType", (Obj)T_xmlparser) < 0 || module_add(r[0], "errors", g_errors_module) < 0 ||
        module_add(r[0], "model", g_model_module) < 0)
        goto out;
    if (!(r[1] = str_from_cstr(XML_ExpatVersion())) || module_add(r[0], "EXPAT_VERSION", r[1]) < 0)
        goto out;
    XML_Expat_Version v = XML_ExpatVersionInfo();
    if (!(r[1] = tuple_pack(3, int_from_i64(v.major), int_from_i64(v.minor), int_from_i64(v.micro))) ||
        module_add(r[0], "version_info", r[1]) < 0)
        goto out;
    if (!(r[1] = str_from_cstr("UTF-8")) || module_add(r[0], "native_encoding", r[1]) < 0)
        goto out;
    if (!(r[1] = make_features()) || module_add(r[0], "features", r[1]) < 0)
        goto out;
    static const struct { const char *name; int v; } consts[] = {
        {"XML_PARAM_ENTITY_PARSING_NEVER", XML_PARAM_ENTITY_PARSING_NEVER},
        {"XML_PARAM_ENTITY_PARSING_UNLESS_STANDALONE", XML_PARAM_ENTITY_PARSING_UNLESS_STANDALONE},
        {"XML_PARAM_ENTITY_PARSING_ALWAYS", XML_PARAM_ENTITY_PARSING_ALWAYS},
    };
    for (size_t k = 0; k < ARRAY_LEN(consts); k++)
        if (module_add(r[0], consts[k].name, int_from_i64(consts[k].v)) < 0)
            goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
