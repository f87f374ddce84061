/* Tracebacks: the traceback and frame types, traceback entries as an
 * exception passes through frames, and printing an uncaught exception
 * exactly as CPython 3.11 does (chains, repeated lines, SyntaxError). */
#include "eval.h"
#include "compiler/compile.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

TypeObj *T_traceback, *T_frame;

#define TB(v) ((TracebackObj *)(v))

/* ------------------------------------------------------------------ */
/* Entries                                                            */
/* ------------------------------------------------------------------ */
/* The entry of the running frame (code, globals) keeps its frame object, as
 * CPython's does: tb_frame.f_locals is that frame's locals (live while it
 * runs, then as it ended: eval_frame_ended). Not a generator's frame, whose
 * object would cost every later yield its fast path. */
void traceback_prepend(Obj exc, Obj code, Obj globals, int lineno, int64_t lasti)
{
    if (!exc || !IS_EXCEPTION(exc))
        return;
    Obj *r = vm_roots(4);
    r[0] = exc;
    r[1] = code;
    r[2] = globals;
    Frame *f = vm_ts.frame;
    if (f && (Obj)f->code == code && !FRAME_HDR(f)[HDR_GEN] && !(r[3] = eval_frame_object(f)))
        err_clear();   /* no memory for it: the entry is made without */
    Obj tb = (Obj)tm_allocate(TID_TRACEBACK, sizeof(struct TracebackObj_));
    if (tb) {
        TB(tb)->next = EXC(r[0])->traceback;
        TB(tb)->code = r[1];
        TB(tb)->globals = r[2];
        TB(tb)->frame = r[3];
        TB(tb)->lineno = lineno;
        TB(tb)->lasti = lasti;
        VM_WRITE(r[0]);
        EXC(r[0])->traceback = tb;
    }
    vm_unroots(r);
}

Obj frameobj_new(Obj code, Obj globals, int lineno)
{
    Obj *r = vm_roots(2);
    r[0] = code;
    r[1] = globals;
    Obj f = (Obj)tm_allocate(TID_FRAME, sizeof(struct FrameObj_));
    if (f) {
        FRAMEO(f)->code = r[0];
        FRAMEO(f)->globals = r[1];
        FRAMEO(f)->lineno = lineno;
        FRAMEO(f)->flags = FO_TRACE_LINES;
    }
    vm_unroots(r);
    return f ? f : err_nomemory();
}

/* ------------------------------------------------------------------ */
/* Types                                                              */
/* ------------------------------------------------------------------ */
#define GETTER(fname) static Obj fname(Obj *args, size_t nargs, Obj kw)
#define UNUSED_ARGS (void)nargs, (void)kw

GETTER(tb_get_next) { UNUSED_ARGS; return TB(args[0])->next ? TB(args[0])->next : g_None; }
GETTER(tb_set_next)
{
    UNUSED_ARGS;
    Obj v = args[1];
    if (!v || IS_NONE(v)) {
        v = NULL;
    } else if (TID(v) != TID_TRACEBACK) {
        err_format(E_TypeError, "expected traceback object or None, got '%s'", type_name(v));
        return NULL;
    }
    for (Obj t = v; t; t = TB(t)->next)
        if (t == args[0]) {
            err_set(E_ValueError, "traceback loop detected");
            return NULL;
        }
    VM_WRITE_RARE(args[0]);
    TB(args[0])->next = v;
    return g_None;
}
GETTER(tb_get_lineno) { UNUSED_ARGS; return MAKE_SMALLINT(TB(args[0])->lineno); }
/* As f_lasti: tmpy's instruction index times two (-1: unknown). */
GETTER(tb_get_lasti)
{
    UNUSED_ARGS;
    int64_t i = TB(args[0])->lasti;
    return MAKE_SMALLINT(i < 0 ? -1 : 2 * i);
}
GETTER(tb_get_frame)
{
    UNUSED_ARGS;
    if (TB(args[0])->frame)
        return TB(args[0])->frame;
    Obj g = TB(args[0])->globals;
    return frameobj_new(TB(args[0])->code, g ? g : g_None, (int)TB(args[0])->lineno);
}

/* Frame objects: a running frame's (see trace.c) answers from the frame
 * itself; one whose frame has ended, or that only records a traceback
 * entry, answers from what it recorded. */
static int fr_lineno(Obj fo)
{
    Frame *f = (FRAMEO(fo)->flags & FO_IN_EVENT) ? NULL : eval_frameobj_live(fo);
    if (f)
        return eval_frame_lineno(f);
    Obj gen = FRAMEO(fo)->gen;
    if (!(FRAMEO(fo)->flags & FO_IN_EVENT) && gen && GEN(gen)->state == GEN_SUSPENDED)
        return gen_saved_line(gen);
    return (int)FRAMEO(fo)->lineno;
}
GETTER(fr_get_code) { UNUSED_ARGS; return FRAMEO(args[0])->code; }
GETTER(fr_get_lineno) { UNUSED_ARGS; return MAKE_SMALLINT(fr_lineno(args[0])); }
GETTER(fr_get_globals)
{
    UNUSED_ARGS;
    Obj g = FRAMEO(args[0])->globals;
    return g ? g : g_None;
}
GETTER(fr_get_back)
{
    UNUSED_ARGS;
    if (FRAMEO(args[0])->back)
        return FRAMEO(args[0])->back;
    Frame *f = eval_frameobj_live(args[0]);
    return f && f->back ? eval_frame_object(f->back) : g_None;
}
/* The locals of a running frame (a new dict of its fast locals, or its
 * mapping); of a suspended or new generator's, those it saved; once it
 * has ended, those it had then (eval_frame_ended), or {} (a finished
 * generator's frame, an entry without its frame object). */
GETTER(fr_get_locals)
{
    UNUSED_ARGS;
    Frame *f = eval_frameobj_live(args[0]);
    if (f)
        return eval_frame_locals(f);
    if (FRAMEO(args[0])->locals)
        return FRAMEO(args[0])->locals;
    Obj gen = FRAMEO(args[0])->gen;
    if (gen && (GEN(gen)->state == GEN_SUSPENDED || GEN(gen)->state == GEN_CREATED))
        return gen_saved_locals(gen);
    return dict_new();
}
/* CPython's f_lasti counts two bytes a code unit; tmpy's instructions are
 * not CPython's, so this is tmpy's instruction index times two. */
GETTER(fr_get_lasti)
{
    UNUSED_ARGS;
    Frame *f = eval_frameobj_live(args[0]);
    return MAKE_SMALLINT(f ? 2 * (f->ip - f->code->code - 1) : 0);
}
GETTER(fr_get_trace)
{
    UNUSED_ARGS;
    Obj t = FRAMEO(args[0])->trace;
    return t ? t : g_None;
}
GETTER(fr_set_trace)
{
    UNUSED_ARGS;
    Obj v = args[1];
    VM_WRITE(args[0]);
    FRAMEO(args[0])->trace = v && !IS_NONE(v) ? v : NULL;
    return g_None;
}
/* f_trace_lines, f_trace_opcodes: bool flags of the frame object (T_BOOL
 * members in CPython, with their errors). */
static Obj flag_set(Obj *args, int64_t flag)
{
    if (!args[1]) {
        err_set(E_TypeError, "can't delete numeric/char attribute");
        return NULL;
    }
    if (args[1] != g_True && args[1] != g_False) {
        err_set(E_TypeError, "attribute value type must be bool");
        return NULL;
    }
    int t = args[1] == g_True;
    VM_WRITE(args[0]);
    FRAMEO(args[0])->flags = t ? FRAMEO(args[0])->flags | flag : FRAMEO(args[0])->flags & ~flag;
    return g_None;
}
GETTER(fr_get_trace_lines) { UNUSED_ARGS; return vm_bool(FRAMEO(args[0])->flags & FO_TRACE_LINES); }
GETTER(fr_set_trace_lines) { UNUSED_ARGS; return flag_set(args, FO_TRACE_LINES); }
GETTER(fr_get_trace_opcodes) { UNUSED_ARGS; return vm_bool(FRAMEO(args[0])->flags & FO_TRACE_OPCODES); }
GETTER(fr_set_trace_opcodes) { UNUSED_ARGS; return flag_set(args, FO_TRACE_OPCODES); }

/* frame.clear(): a running frame refuses; an ended or recorded one holds no
 * locals in tmpy (nothing to drop). traceback.clear_frames calls it. */
static Obj fr_clear(Obj *args, size_t nargs, Obj kw)
{
    if (!(FRAMEO(args[0])->flags & FO_IN_EVENT) && eval_frameobj_live(args[0])) {
        err_set(E_RuntimeError, "cannot clear an executing frame");
        return NULL;
    }
    return g_None;
}
static const MethodDef frame_methods[] = {
    {"clear", fr_clear, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static Obj frame_repr(Obj f)
{
    uint64_t id = vm_object_id_slot(&f);
    CodeObj *co = (CodeObj *)FRAMEO(f)->code;
    return str_from_format("<frame at %#lx, file '%s', line %d, code %s>", (unsigned long)id,
                           str_cstr(co->filename), fr_lineno(f), str_cstr(co->name));
}

void traceback_init_types(void)
{
    T_traceback = (TypeObj *)type_new_builtin("traceback", T_object, TID_TRACEBACK, 0);
    type_add_getset(T_traceback, "tb_next", tb_get_next, tb_set_next);
    type_add_getset(T_traceback, "tb_lineno", tb_get_lineno, NULL);
    type_add_getset(T_traceback, "tb_lasti", tb_get_lasti, NULL);
    type_add_getset(T_traceback, "tb_frame", tb_get_frame, NULL);
    type_ready(T_traceback);

    T_frame = (TypeObj *)type_new_builtin("frame", T_object, TID_FRAME, 0);
    T_frame->tp_repr = frame_repr;
    type_add_methods(T_frame, frame_methods);
    type_add_getset(T_frame, "f_code", fr_get_code, NULL);
    type_add_getset(T_frame, "f_lineno", fr_get_lineno, NULL);
    type_add_getset(T_frame, "f_globals", fr_get_globals, NULL);
    type_add_getset(T_frame, "f_back", fr_get_back, NULL);
    type_add_getset(T_frame, "f_locals", fr_get_locals, NULL);
    type_add_getset(T_frame, "f_lasti", fr_get_lasti, NULL);
    type_add_getset(T_frame, "f_trace", fr_get_trace, fr_set_trace);
    type_add_member(T_frame, "f_trace_lines", fr_get_trace_lines, fr_set_trace_lines, NULL);
    type_add_member(T_frame, "f_trace_opcodes", fr_get_trace_opcodes, fr_set_trace_opcodes, NULL);
    type_ready(T_frame);
}

/* ------------------------------------------------------------------ */
/* Source lines                                                       */
/* ------------------------------------------------------------------ */
static char *src_cache_name;
static char *src_cache_data;
static size_t src_cache_len;

/* The cache is C state of all threads that an abort would not restore
 * (and its blocks are malloc'd): only an inevitable transaction touches it.
 * print_exception is one already; warnings.c's display is not. */
static const char *file_text(const char *filename, size_t *len)
{
    vm_tx_become_inevitable();
    if (src_cache_name && strcmp(src_cache_name, filename) == 0) {
        *len = src_cache_len;
        return src_cache_data;
    }
    if (filename[0] == '<')
        return NULL;
    char *osname = strdup(filename);   /* str's UTF-8 -> the file system's bytes */
    if (!osname)
        return NULL;
    utf8_unescape_os(osname, strlen(osname));
    FILE *fp = fopen(osname, "rb");
    free(osname);
    if (!fp)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *data = malloc(cap);
    if (!data) {
        fclose(fp);
        return NULL;
    }
    for (;;) {
        if (n == cap) {
            char *nd = realloc(data, cap * 2);
            if (!nd) {
                free(data);
                fclose(fp);
                return NULL;
            }
            data = nd;
            cap *= 2;
        }
        size_t got = fread(data + n, 1, cap - n, fp);
        if (got == 0)
            break;
        n += got;
    }
    fclose(fp);
    free(src_cache_name);
    free(src_cache_data);
    src_cache_name = strdup(filename);
    src_cache_data = data;
    src_cache_len = n;
    *len = n;
    return data;
}

const char *traceback_source_line(const char *filename, int lineno, size_t *len)
{
    size_t n;
    const char *data = file_text(filename, &n);
    if (!data || lineno < 1)
        return NULL;
    const char *p = data, *end = data + n;
    for (int l = 1; l < lineno; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return NULL;
        p = nl + 1;
    }
    if (p >= end)
        return NULL;
    const char *e = memchr(p, '\n', (size_t)(end - p));
    if (!e)
        e = end;
    if (e > p && e[-1] == '\r')
        e--;
    *len = (size_t)(e - p);
    return p;
}

static bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r' || c == '\n';
}

/* Code points in the first `bytes` bytes of UTF-8 text p[0..len). */
static int64_t utf8_chars(const char *p, size_t len, int64_t bytes)
{
    if (bytes > (int64_t)len)
        bytes = (int64_t)len;
    int64_t n = 0;
    for (int64_t i = 0; i < bytes; i++)
        n += ((unsigned char)p[i] & 0xC0) != 0x80;
    return n;
}

static bool is_margin_space(char c) { return c == ' ' || c == '\t' || c == '\f'; }

/* The PEP 657 marker line under a traceback's source line (CPython 3.11's
 * tb_displayline): ^ under the failing instruction's range, or ~ for the
 * operands and ^ for the operator of a binary operation or the brackets of
 * a subscript; nothing when the range is the whole line. p[0..len) is the
 * line as in the file, `indent` its leading blanks. */
static void add_error_markers(StrBuf *b, const char *p, size_t len, int64_t indent, Obj code, int64_t lasti,
                              int lineno)
{
    CodePos pos;
    if (lasti < 0 || !code_position_at((CodeObj *)code, lasti, &pos) || pos.line != lineno || pos.col < 0 ||
        pos.end_col < 0)
        return;
    int64_t start = utf8_chars(p, len, pos.col), end;
    int64_t left = -1, right = -1;
    char primary = '^', secondary = '^';
    if (pos.line == pos.end_line) {
        end = utf8_chars(p, len, pos.end_col);
        int l, r;
        if (pos.col < pos.end_col && (size_t)pos.end_col <= len &&
            source_error_anchors(p + pos.col, (size_t)(pos.end_col - pos.col), &l, &r, &primary, &secondary)) {
            left = utf8_chars(p + pos.col, len - (size_t)pos.col, l) + start;
            right = utf8_chars(p + pos.col, len - (size_t)pos.col, r) + start;
        }
    } else {
        /* a range over several lines: up to the line's last non-blank (a byte index, as CPython) */
        int64_t i = (int64_t)len;
        while (--i >= 0 && is_margin_space(p[i]))
            ;
        end = i + 1;
    }
    int64_t chars = utf8_chars(p, len, (int64_t)len);
    bool secondary_ranges = left != -1 || right != -1;
    if (end - start == chars - indent && !secondary_ranges)
        return;
    for (int64_t off = indent - 4 + 1; off <= end; off++) {
        if (off <= start)
            sb_addc(b, ' ');
        else if (secondary_ranges && left < off && off <= right)
            sb_addc(b, secondary);
        else
            sb_addc(b, primary);
    }
    sb_addc(b, '\n');
}

/* "    <the line, stripped>", and its markers when the instruction is known. */
static void add_source_line(StrBuf *b, const char *filename, int lineno, Obj code, int64_t lasti)
{
    size_t len;
    const char *line = traceback_source_line(filename, lineno, &len);
    if (!line)
        return;
    const char *p = line;
    size_t n = len;
    int64_t indent = 0;
    while (n > 0 && is_ws(*p)) {
        indent += is_margin_space(*p);
        p++;
        n--;
    }
    size_t shown = n;   /* CPython keeps trailing blanks */
    while (n > 0 && is_ws(p[n - 1]))
        n--;
    if (n == 0)
        return;
    sb_adds(b, "    ");
    sb_add(b, p, shown);
    sb_addc(b, '\n');
    /* CPython counts only spaces, tabs and form feeds as the indentation */
    if ((size_t)indent == (size_t)(p - line))
        add_error_markers(b, line, len, utf8_chars(line, len, indent), code, lasti, lineno);
}

/* ------------------------------------------------------------------ */
/* Printing                                                           */
/* ------------------------------------------------------------------ */
#define TB_RECURSIVE_CUTOFF 3
#define TB_LIMIT 1000

static void add_repeated(StrBuf *b, long cnt)
{
    cnt -= TB_RECURSIVE_CUTOFF;
    sb_printf(b, "  [Previous line repeated %ld more time%s]\n", cnt, cnt > 1 ? "s" : "");
}

static void print_tb(StrBuf *b, Obj tb)
{
    long depth = 0;
    for (Obj t = tb; t; t = TB(t)->next)
        depth++;
    while (depth > TB_LIMIT) {
        depth--;
        tb = TB(tb)->next;
    }
    Obj last_file = NULL, last_name = NULL;
    int64_t last_line = -1;
    long cnt = 0;
    for (Obj t = tb; t; t = TB(t)->next) {
        CodeObj *co = (CodeObj *)TB(t)->code;
        Obj file = co->filename, name = co->name;
        int64_t line = TB(t)->lineno;
        if (!last_file || line != last_line || !str_eq(file, last_file) || !str_eq(name, last_name)) {
            if (cnt > TB_RECURSIVE_CUTOFF)
                add_repeated(b, cnt);
            last_file = file;
            last_name = name;
            last_line = line;
            cnt = 0;
        }
        cnt++;
        if (cnt > TB_RECURSIVE_CUTOFF)
            continue;
        sb_adds(b, "  File \"");
        sb_add_str(b, file);
        sb_printf(b, "\", line %d, in ", (int)line);
        sb_add_str(b, name);
        sb_addc(b, '\n');
        add_source_line(b, str_cstr(file), (int)line, TB(t)->code, TB(t)->lasti);
    }
    if (cnt > TB_RECURSIVE_CUTOFF)
        add_repeated(b, cnt);
}

/* Attribute of *slot, which stays a root (NULL on error, cleared). */
static Obj attr_opt(Obj *slot, const char *name)
{
    Obj nm = str_intern_cstr(name);
    Obj v = nm ? vm_getattr_opt(*slot, nm) : NULL;
    if (!v && err_occurred())
        err_clear();
    return v;
}

/* Attribute as a C int64 (NULL / None / non-int: false). */
static bool attr_i64(Obj *slot, const char *name, int64_t *out)
{
    Obj v = attr_opt(slot, name);
    if (!v || !IS_INT(v))
        return false;
    if (int_as_i64(v, out) < 0) {
        err_clear();
        return false;
    }
    return true;
}

/* Attribute as a malloc'd C string (NULL if absent or not a str). */
static char *attr_cstr(Obj *slot, const char *name)
{
    Obj v = attr_opt(slot, name);
    if (!v || !IS_STR(v))
        return NULL;
    return strdup(str_cstr(v));
}

/* The source line and caret marker of a SyntaxError. */
static void print_error_text(StrBuf *b, int64_t offset, int64_t end_offset, bool same_line, const char *text)
{
    offset--; /* 0-based */
    int64_t end0 = end_offset - 1;
    while (*text == ' ' || *text == '\t' || *text == '\f') {
        text++;
        offset--;
        end0--;
    }
    int64_t len = (int64_t)strlen(text);
    if (len > 0 && text[len - 1] == '\n')
        len--;
    if (offset > len)
        offset = len;
    /* Skip lines before the one the offset is in. */
    for (;;) {
        const char *nl = memchr(text, '\n', (size_t)len);
        if (!nl)
            break;
        int64_t inl = nl - text;
        if (inl >= offset)
            break;
        inl++;
        text += inl;
        len -= inl;
        offset -= inl;
        end0 -= inl;
    }
    const char *nl = memchr(text, '\n', (size_t)len);
    int64_t linelen = nl ? nl - text : len;
    sb_adds(b, "    ");
    sb_add(b, text, (size_t)linelen);
    sb_addc(b, '\n');
    if (offset < 0)
        return;
    int64_t carets = 1;
    if (same_line && end0 > offset)
        carets = end0 - offset;
    else if (!same_line && linelen > offset)
        carets = linelen - offset;
    if (offset + carets > linelen && linelen > offset)
        carets = linelen - offset;
    if (carets < 1)
        carets = 1;
    sb_adds(b, "    ");
    for (int64_t i = 0; i < offset; i++)
        sb_addc(b, ' ');
    for (int64_t i = 0; i < carets; i++)
        sb_addc(b, '^');
    sb_addc(b, '\n');
}

/* slot: the SyntaxError (a root: the attribute lookups may run code). */
static void print_syntax_error_location(StrBuf *b, Obj *slot)
{
    char *filename = attr_cstr(slot, "filename");
    int64_t lineno = 0, offset = 0, end_lineno = 0, end_offset = 0;
    bool has_line = attr_i64(slot, "lineno", &lineno);
    bool has_off = attr_i64(slot, "offset", &offset);
    bool has_end_line = attr_i64(slot, "end_lineno", &end_lineno);
    bool has_end_off = attr_i64(slot, "end_offset", &end_offset);
    char *text = attr_cstr(slot, "text");
    if (!has_line) {
        free(filename);
        free(text);
        return;
    }
    sb_printf(b, "  File \"%s\", line %" PRId64 "\n", filename ? filename : "<string>", lineno);
    if (!text && filename) {
        size_t len;
        const char *p = traceback_source_line(filename, (int)lineno, &len);
        if (p) {
            text = malloc(len + 2);
            if (text) {
                memcpy(text, p, len);
                text[len] = '\n';
                text[len + 1] = 0;
            }
        }
    }
    if (text) {
        if (has_off)
            print_error_text(b, offset, has_end_off ? end_offset : 0,
                             !has_end_line || end_lineno == lineno, text);
        else
            print_error_text(b, 0, 0, true, text);
    }
    free(filename);
    free(text);
}

/* How the exception being printed is nested in exception groups (CPython's
 * exception_print_context): each line inside a group starts with an indent
 * of two spaces per level and a "| " margin. */
typedef struct {
    StrBuf *b;
    Obj *seen;        /* a root slot: a list of the exceptions printed so far */
    int depth;        /* exception group nesting, 0 outside any group */
    bool need_close;  /* a group's last member still owes the closing line */
    int levels;       /* C recursion (chains and groups) */
    bool unchained;   /* leave causes and contexts out (unraisable reports) */
} PrintCtx;

#define EG_MAX_WIDTH 15
#define EG_MAX_DEPTH 10
#define PRINT_MAX_LEVELS 1000

static void add_indent(PrintCtx *ctx)
{
    for (int i = 0; i < 2 * ctx->depth; i++)
        sb_addc(ctx->b, ' ');
}

static void add_margin(PrintCtx *ctx)
{
    add_indent(ctx);
    if (ctx->depth)
        sb_adds(ctx->b, "| ");
}

/* src's lines, each after the indent and margin; frees src. */
static void add_lines_with_margin(PrintCtx *ctx, StrBuf *src)
{
    size_t i = 0;
    while (i < src->len) {
        const char *p = src->p + i, *nl = memchr(p, '\n', src->len - i);
        size_t n = nl ? (size_t)(nl - p) + 1 : src->len - i;
        add_margin(ctx);
        sb_add(ctx->b, p, n);
        i += n;
    }
    sb_free(src);
}

static void print_exception_line(PrintCtx *ctx, Obj *slot)
{
    StrBuf *b = ctx->b;
    add_margin(ctx);
    Obj exc = *slot;
    TypeObj *t = TYPE(exc);
    Obj mod = NULL;
    if (t->dict && IS_DICT(t->dict)) {
        mod = dict_getitem_cstr(t->dict, "__module__");
        if (!mod && err_occurred())
            err_clear();
    }
    t = TYPE(*slot);
    if (!mod)
        mod = t->module;
    if (mod && IS_STR(mod) && !str_eq_cstr(mod, "builtins") && !str_eq_cstr(mod, "__main__")) {
        sb_add_str(b, mod);
        sb_addc(b, '.');
    }
    Obj qn = t->qualname && IS_STR(t->qualname) ? t->qualname : t->name;
    sb_add_str(b, qn);
    bool syntax = vm_isinstance_type(*slot, E_SyntaxError);
    Obj s = NULL;
    if (syntax) {
        s = attr_opt(slot, "msg");
        if (s && !IS_STR(s))
            s = NULL;
    }
    if (!s)
        s = vm_str(*slot);
    if (!s || !IS_STR(s)) {
        if (err_occurred())
            err_clear();
        sb_adds(b, ": <exception str() failed>");
    } else if (str_len(s) > 0) {
        sb_adds(b, ": ");
        sb_add_str(b, s);
    }
    sb_addc(b, '\n');
    /* PEP 678 notes, each of their lines after the margin */
    Obj notes = attr_opt(slot, "__notes__");
    if (!notes)
        return;
    StrBuf nb;
    sb_init(&nb);
    b = &nb;
    Obj *r = vm_roots(1);
    r[0] = notes;
    if (IS_LIST(r[0]) || IS_TUPLE(r[0])) {
        for (int64_t i = 0;; i++) {
            int64_t n = IS_LIST(r[0]) ? LIST_LEN(r[0]) : TUPLE_LEN(r[0]);
            if (i >= n)
                break;
            Obj note = IS_LIST(r[0]) ? LIST_ITEMS(r[0])[i] : TUPLE_ITEMS(r[0])[i];
            if (IS_STR(note)) {
                sb_add_str(b, note);
            } else {
                Obj ns = vm_str(note);
                if (ns && IS_STR(ns)) {
                    sb_add_str(b, ns);
                } else {
                    if (err_occurred())
                        err_clear();
                    sb_adds(b, "<note str() failed>");
                }
            }
            sb_addc(b, '\n');
        }
    } else {
        Obj ns = vm_repr(r[0]);
        if (ns && IS_STR(ns)) {
            sb_add_str(b, ns);
        } else {
            if (err_occurred())
                err_clear();
            sb_adds(b, "<__notes__ repr() failed>");
        }
        sb_addc(b, '\n');
    }
    vm_unroots(r);
    add_lines_with_margin(ctx, &nb);
}

static void print_one(PrintCtx *ctx, Obj *slot)
{
    Obj exc = *slot;
    if (!IS_EXCEPTION(exc)) {
        add_margin(ctx);
        sb_printf(ctx->b, "TypeError: print_exception(): Exception expected for value, %s found\n",
                  type_name(exc));
        return;
    }
    Obj tb = EXC(exc)->traceback;
    bool group = exc_is_group(exc);
    if (tb && TID(tb) == TID_TRACEBACK) {
        add_indent(ctx);
        /* the outermost group's header opens its box */
        sb_adds(ctx->b, group && ctx->depth == 1 ? "+ " : ctx->depth ? "| " : "");
        sb_adds(ctx->b, group ? "Exception Group Traceback (most recent call last):\n"
                              : "Traceback (most recent call last):\n");
        StrBuf tb_text;
        sb_init(&tb_text);
        print_tb(&tb_text, tb);
        add_lines_with_margin(ctx, &tb_text);
    }
    if (vm_isinstance_type(*slot, E_SyntaxError)) {
        StrBuf loc;
        sb_init(&loc);
        print_syntax_error_location(&loc, slot);
        add_lines_with_margin(ctx, &loc);
    }
    print_exception_line(ctx, slot);
}

static void print_recursive(PrintCtx *ctx, Obj *slot);

static bool seen_before(PrintCtx *ctx, Obj e)
{
    for (int64_t i = 0; i < LIST_LEN(*ctx->seen); i++)
        if (LIST_ITEMS(*ctx->seen)[i] == e)
            return true;
    return false;
}

/* The cause or context, then the line that links it to what follows. */
static void print_chained(PrintCtx *ctx, Obj next, const char *message)
{
    Obj *r = vm_roots(1);
    r[0] = next;
    bool need_close = ctx->need_close;
    print_recursive(ctx, r);
    ctx->need_close = need_close;
    vm_unroots(r);
    add_margin(ctx);
    sb_addc(ctx->b, '\n');
    add_margin(ctx);
    sb_adds(ctx->b, message);
    add_margin(ctx);
    sb_addc(ctx->b, '\n');
}

/* A group: itself, then each member in a box (CPython's format, at most
 * EG_MAX_WIDTH members and EG_MAX_DEPTH levels shown). */
static void print_group(PrintCtx *ctx, Obj *slot)
{
    if (ctx->depth > EG_MAX_DEPTH) {
        add_margin(ctx);
        sb_printf(ctx->b, "... (max_group_depth is %d)\n", EG_MAX_DEPTH);
        return;
    }
    if (ctx->depth == 0)
        ctx->depth = 1;
    print_one(ctx, slot);
    Obj *r = vm_roots(2);
    r[0] = exc_group_exceptions(*slot);
    int64_t num = r[0] ? TUPLE_LEN(r[0]) : 0;
    int64_t n = num <= EG_MAX_WIDTH ? num : EG_MAX_WIDTH + 1;
    ctx->need_close = false;
    for (int64_t i = 0; i < n; i++) {
        bool last = i == n - 1;
        if (last)
            ctx->need_close = true;   /* a nested group may close the box itself */
        add_indent(ctx);
        if (i < EG_MAX_WIDTH)
            sb_printf(ctx->b, "%s+---------------- %lld ----------------\n", i == 0 ? "+-" : "  ", (long long)i + 1);
        else
            sb_printf(ctx->b, "%s+---------------- ... ----------------\n", i == 0 ? "+-" : "  ");
        ctx->depth++;
        if (i < EG_MAX_WIDTH) {
            r[1] = TUPLE_ITEMS(r[0])[i];
            print_recursive(ctx, &r[1]);
        } else {
            int64_t more = num - EG_MAX_WIDTH;
            add_margin(ctx);
            sb_printf(ctx->b, "and %lld more exception%s\n", (long long)more, more > 1 ? "s" : "");
        }
        if (last && ctx->need_close) {
            add_indent(ctx);
            sb_adds(ctx->b, "+------------------------------------\n");
            ctx->need_close = false;
        }
        ctx->depth--;
    }
    if (ctx->depth == 1)
        ctx->depth = 0;
    vm_unroots(r);
}

/* *slot (a root) with what caused it first, as CPython's
 * print_exception_recursive. */
static void print_recursive(PrintCtx *ctx, Obj *slot)
{
    if (ctx->levels >= PRINT_MAX_LEVELS)
        return;
    ctx->levels++;
    if (list_append(*ctx->seen, *slot) < 0)
        err_clear();
    if (IS_EXCEPTION(*slot) && !ctx->unchained) {
        ExceptionObj *e = EXC(*slot);
        Obj cause = e->cause, context = e->context;
        if (cause) {
            if (!seen_before(ctx, cause))
                print_chained(ctx, cause, "The above exception was the direct cause of the following exception:\n");
        } else if (context && !e->suppress_context && !seen_before(ctx, context)) {
            print_chained(ctx, context, "During handling of the above exception, another exception occurred:\n");
        }
    }
    if (exc_is_group(*slot))
        print_group(ctx, slot);
    else
        print_one(ctx, slot);
    ctx->levels--;
}

/* A message on sys.stderr (after start-up; stdout's pending output first). */
void vm_errmsg(const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof buf)
        n = (int)sizeof buf - 1;
    if (!g_sys_stderr || file_write_cstr(g_sys_stderr, buf, (size_t)n) < 0 || file_flush(g_sys_stderr) < 0) {
        err_clear();
        fputs(buf, stderr);
    }
}

static Obj current_stderr(void)
{
    Obj f = sys_get("stderr");
    return f && !IS_NONE(f) ? f : g_sys_stderr;
}

/* exc with its traceback and what caused it on `file`, or on sys.stderr as
 * it is when the text is written (file NULL). */
static void print_exception(Obj file, Obj exc, bool unchained)
{
    vm_tx_become_inevitable();   /* the source cache and the output are not transactional */
    Obj *r = vm_roots(5);        /* the exception, the pending exception, the text, the seen list, the file */
    r[4] = file;
    r[1] = err_fetch();          /* keep a pending exception aside */
    r[0] = exc;
    r[3] = list_new(0);
    if (g_sys_stdout) {
        if (file_flush(g_sys_stdout) < 0)
            err_clear();
    } else {
        fflush(stdout);
    }
    StrBuf b;
    sb_init(&b);
    if (r[3]) {
        PrintCtx ctx = {.b = &b, .seen = &r[3], .unchained = unchained};
        print_recursive(&ctx, &r[0]);
    } else {
        err_clear();
    }
    bool written = false;
    if (g_sys_stderr) {
        Obj s = r[2] = sb_finish(&b);
        if (s) {
            /* sys.stderr as it is now (a program may have replaced it),
             * fetched again after the write: the object may have moved */
            written = file_write_str(r[4] ? r[4] : current_stderr(), s) >= 0 &&
                      file_flush(r[4] ? r[4] : current_stderr()) >= 0;
            if (!written) {
                err_clear();
                fputs(str_cstr(r[2]), stderr);
                written = true;
            }
        } else {
            err_clear();
        }
    } else {
        fwrite(b.p ? b.p : "", 1, b.len, stderr);
        sb_free(&b);
        written = true;
    }
    fflush(stderr);
    if (r[1])
        eval_set_exc(r[1]);
    vm_unroots(r);
}

void vm_print_exception(Obj exc)
{
    print_exception(NULL, exc, false);
}

void vm_print_exception_on(Obj file, Obj exc, bool unchained)
{
    print_exception(file, exc, unchained);
}
