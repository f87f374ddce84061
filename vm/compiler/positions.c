/* Source positions of instructions (PEP 657): the table the compiler
 * stores in a code object's `positions`, what reads it back (tracebacks,
 * code.co_positions()), and the anchors of a failing expression that a
 * traceback marks with ~ and ^.
 *
 * The table is a byte string of runs, each covering consecutive
 * instruction words with one position and one line in `lines`:
 *   count                       varint, >= 1
 *   start                       varint: 0 = no position (nothing follows),
 *                               else zigzag(start line - the words' line) + 1
 *   end line - start line       varint
 *   col + 1, end col + 1        varints (0: unknown column)
 * A typical run takes 5 bytes and covers one or two words, against the 4
 * bytes per word of `lines`. */
#include "compile.h"
#include "parser.h"
#include "positions.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Encoding (compile.c)                                                */
/* ------------------------------------------------------------------ */
typedef struct { uint8_t *p; size_t n, cap; bool failed; } Bytes;

static void put_varint_slow(Bytes *b, uint64_t v)
{
    if (b->n + 10 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        if (b->failed)
            return;
        uint8_t *q = realloc(b->p, cap);
        if (!q) {
            b->failed = true;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    do {
        uint8_t byte = v & 0x7f;
        v >>= 7;
        b->p[b->n++] = byte | (v ? 0x80 : 0);
    } while (v);
}

static inline void put_varint(Bytes *b, uint64_t v)
{
    if (v < 0x80 && b->n < b->cap)
        b->p[b->n++] = (uint8_t)v;   /* the usual case: one byte, room left */
    else
        put_varint_slow(b, v);
}

static uint64_t zigzag(int64_t v) { return v < 0 ? ((uint64_t)(-(v + 1)) << 1) | 1 : (uint64_t)v << 1; }
static int64_t unzigzag(uint64_t v) { return v & 1 ? -(int64_t)(v >> 1) - 1 : (int64_t)(v >> 1); }

static bool same_word(const PosWord *a, const PosWord *b)
{
    return a->line == b->line && a->pos_line == b->pos_line && a->end_line == b->end_line && a->col == b->col &&
           a->end_col == b->end_col;
}

uint8_t *positions_encode(const PosWord *w, int64_t n, size_t *len)
{
    Bytes b = {NULL, 0, 0, false};
    b.cap = (size_t)n * 4 + 16;   /* about what a table takes: one allocation */
    if (!(b.p = malloc(b.cap)))
        return NULL;
    for (int64_t i = 0; i < n;) {
        int64_t j = i + 1;
        while (j < n && same_word(&w[i], &w[j]))
            j++;
        put_varint(&b, (uint64_t)(j - i));
        const PosWord *p = &w[i];
        if (p->pos_line <= 0 || p->end_line < p->pos_line) {
            put_varint(&b, 0);
        } else {
            put_varint(&b, zigzag((int64_t)p->pos_line - p->line) + 1);
            put_varint(&b, (uint64_t)(p->end_line - p->pos_line));
            put_varint(&b, p->col < 0 ? 0 : (uint64_t)p->col + 1);
            put_varint(&b, p->end_col < 0 ? 0 : (uint64_t)p->end_col + 1);
        }
        i = j;
    }
    if (b.failed) {
        free(b.p);
        return NULL;
    }
    *len = b.n;
    return b.p;
}

/* ------------------------------------------------------------------ */
/* Decoding                                                            */
/* ------------------------------------------------------------------ */
typedef const uint8_t __seg_gs *BytePtr;
typedef struct {
    BytePtr p, end;
    const int32_t __seg_gs *lines;
    int64_t k;   /* the first word of the next run */
    bool bad;
} Reader;

static uint64_t get_varint(Reader *r)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (r->p >= r->end) {
            r->bad = true;
            return 0;
        }
        uint8_t byte = *r->p++;
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return v;
    }
    r->bad = true;
    return 0;
}

static bool reader_init(Reader *r, CodeObj *co)
{
    if (!co->positions || !co->lines)
        return false;
    RawObj *raw = RAW(co->positions);
    *r = (Reader){(BytePtr)raw->data, (BytePtr)raw->data + raw->length,
                  (const int32_t __seg_gs *)RAW(co->lines)->data, 0, false};
    return true;
}

/* The next run, starting at word r->k (< ninstr): how many words it covers
 * (0: the table ended or is bad) and, into *p, their position. */
static uint64_t next_run(Reader *r, CodePos *p)
{
    if (r->p >= r->end)
        return 0;
    uint64_t count = get_varint(r), start = get_varint(r);
    *p = (CodePos){0, 0, -1, -1};
    if (start) {
        uint64_t dend = get_varint(r), col = get_varint(r), end_col = get_varint(r);
        p->line = (int)(r->lines[r->k] + unzigzag(start - 1));
        p->end_line = (int)(p->line + (int64_t)dend);
        p->col = (int)col - 1;
        p->end_col = (int)end_col - 1;
    }
    return r->bad ? 0 : count;
}

int64_t code_positions_decode(CodeObj *co, CodePos *out, int64_t n)
{
    Reader r;
    if (!reader_init(&r, co))
        return 0;
    int64_t limit = n < (int64_t)co->ninstr ? n : (int64_t)co->ninstr;
    CodePos p;
    uint64_t count;
    while (r.k < limit && (count = next_run(&r, &p)) != 0)
        for (uint64_t c = 0; c < count && r.k < limit; c++)
            out[r.k++] = p;
    return r.k;
}

/* Walks the runs up to word i: no copy of the words before it. */
bool code_position_at(CodeObj *co, int64_t i, CodePos *out)
{
    Reader r;
    if (i < 0 || (uint64_t)i >= co->ninstr || !reader_init(&r, co))
        return false;
    CodePos p;
    uint64_t count;
    while ((count = next_run(&r, &p)) != 0) {
        if (count > (uint64_t)(i - r.k)) {
            *out = p;
            return p.line > 0;
        }
        r.k += (int64_t)count;
    }
    return false;
}

/* ------------------------------------------------------------------ */
/* Anchors (CPython 3.11's traceback.c, extract_anchors_from_line)     */
/* ------------------------------------------------------------------ */
static bool is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\f'; }

bool source_error_anchors(const char *seg, size_t len, int *left, int *right, char *primary, char *secondary)
{
    *left = *right = -1;
    Arena *arena = arena_new();
    if (!arena)
        return false;
    SyntaxErrorInfo err;
    mod_ty m = parse_source(arena, seg, len, "<traceback>", PARSE_EXEC, 0, &err);
    bool found = false;
    if (m && m->kind == Module_kind && m->v.Module.body.n == 1 && m->v.Module.body.items[0]->kind == Expr_kind) {
        expr_ty e = m->v.Module.body.items[0]->v.Expr.value;
        int n = (int)len;
        if (e->kind == BinOp_kind && e->v.BinOp.left->end_lineno == 1 && e->v.BinOp.right->lineno == 1) {
            /* the operator: the first non-space between the operands,
             * skipping closing parentheses of the left one */
            int from = e->v.BinOp.left->end_col_offset, to = e->v.BinOp.right->col_offset;
            for (int i = from; i < to && i < n; i++) {
                if (is_space(seg[i]))
                    continue;
                *left = i;
                *right = i + 1;
                if (i + 1 < to && !is_space(seg[i + 1]))
                    ++*right;   /* a two-character operator (//, **, ...) */
                if (i + 1 < to && seg[i] == ')')
                    continue;
                break;
            }
            found = *left >= 0;
        } else if (e->kind == Subscript_kind && e->v.Subscript.value->end_lineno == 1 &&
                   e->v.Subscript.slice->end_lineno == 1) {
            /* from the '[' to the ']' */
            int l = e->v.Subscript.value->end_col_offset, r = e->v.Subscript.slice->end_col_offset + 1;
            while (l < n && seg[l] != '[')
                l++;
            while (r < n && seg[r] != ']')
                r++;
            if (r < n)
                r++;
            *left = l;
            *right = r;
            found = true;
        }
        if (found) {
            *primary = '~';
            *secondary = '^';
        }
    }
    arena_free(arena);
    return found;
}
