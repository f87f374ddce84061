/* The regex engine: runs the pattern code CPython 3.11's re/_compiler.py
 * emits (re/_constants.py), written here from the opcodes' documented
 * meaning.
 *
 * A backtracking machine with no C recursion: a choice-point stack (the
 * alternatives still to try: a BRANCH's next alternative, one character
 * fewer for a greedy REPEAT_ONE, the tail of a REPEAT, ...), a trail that
 * undoes the writes (group marks, repeat counters) made since a choice point,
 * and a frame stack for the sub-matches whose first success is final
 * (lookarounds, atomic groups, possessive repeats): their SUCCESS cuts the
 * choice points made inside. Group marks are restored on backtracking as
 * CPython's engine restores them (observable in the groups a match reports):
 * the highest mark set (lastmark) and lastindex always, the marks' values
 * only where a repeat (REPEAT ... UNTIL) is active or a repeat iteration or
 * an optional possessive iteration fails; otherwise values a failed path
 * wrote below lastmark stay. Everything is C memory grown on demand
 * (MemoryError when it cannot grow), so a long subject never overflows the C
 * stack, and an STM abort frees it (txmalloc.c). The subject is immutable
 * while the engine runs (a str, a bytes, or a copy of a bytearray's bytes). */
#include "sre.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Subjects                                                            */
/* ------------------------------------------------------------------ */

int sre_subject_init(SreSubject *s, int64_t pattern_isbytes)
{
    Obj v = vm_unwrap(*s->string);
    *s->chars = NULL;
    if (IS_STR(v)) {
        if (pattern_isbytes == 1) {
            err_set(E_TypeError, "cannot use a bytes pattern on a string-like object");
            return -1;
        }
        s->isbytes = false;
        s->length = STR(v)->length;
        if (str_is_ascii(v)) {
            s->width = 1;
            return 0;
        }
        /* decode once into code points: the engine indexes characters */
        Obj raw = raw_new(s->length * 4 + 4);
        if (!raw)
            return -1;
        *s->chars = raw;
        v = vm_unwrap(*s->string);
        const unsigned char *p = (const unsigned char *)str_cstr(v);
        uint32_t *out = (uint32_t *)VM_LINEAR(RAW(raw)->data);
        for (int64_t i = 0; i < s->length; i++) {
            int n;
            out[i] = utf8_decode(p, &n);
            p += n;
        }
        s->width = 4;
        return 0;
    }
    const char *p;
    int64_t n;
    if (!bytes_like(v, &p, &n)) {
        err_format(E_TypeError, "expected string or bytes-like object, got '%s'", type_name(*s->string));
        return -1;
    }
    if (pattern_isbytes == 0) {
        err_set(E_TypeError, "cannot use a string pattern on a bytes-like object");
        return -1;
    }
    s->isbytes = true;
    s->width = 1;
    s->length = n;
    if (TID(v) != TID_BYTES) {
        /* a bytearray or memoryview may change: match a snapshot */
        Obj raw = raw_new(n + 1);
        if (!raw)
            return -1;
        *s->chars = raw;
        bytes_like(vm_unwrap(*s->string), &p, &n);
        if (n > s->length)
            n = s->length;
        memcpy(VM_LINEAR(RAW(raw)->data), p, (size_t)n);
    }
    return 0;
}

void sre_subject_from(SreSubject *s, Obj *string_slot, Obj *chars_slot)
{
    s->string = string_slot;
    s->chars = chars_slot;
    Obj v = vm_unwrap(*string_slot);
    s->isbytes = !IS_STR(v);
    if (*chars_slot) {
        Obj raw = *chars_slot;
        s->width = s->isbytes ? 1 : 4;
        s->length = s->isbytes ? RAW(raw)->length - 1 : (RAW(raw)->length - 4) / 4;
    } else {
        s->width = 1;
        s->length = IS_STR(v) ? STR(v)->length : BYTES(v)->length;
    }
}

static const void *subject_data(SreSubject *s)
{
    if (*s->chars)
        return VM_LINEAR(RAW(*s->chars)->data);
    Obj v = vm_unwrap(*s->string);
    if (IS_STR(v))
        return VM_LINEAR(STR(v)->data);
    return VM_LINEAR(BYTES(v)->data);
}

Obj sre_subject_slice(SreSubject *s, int64_t start, int64_t end)
{
    if (start < 0 || end < start)
        start = end = 0;
    if (end > s->length)
        end = s->length;
    if (start > end)
        start = end;
    Obj v = vm_unwrap(*s->string);
    if (s->isbytes) {
        if (!*s->chars && start == 0 && end == s->length && TYPE(*s->string) == T_bytes)
            return *s->string;
        Obj b = bytes_alloc(end - start);
        if (!b)
            return NULL;
        memcpy(VM_LINEAR(BYTES(b)->data), (const char *)subject_data(s) + start, (size_t)(end - start));
        return b;
    }
    if (!*s->chars || (start == 0 && end == s->length && TYPE(*s->string) == T_str))
        return str_substr(v, start, end);   /* ASCII, or the whole of an exact str: itself */
    StrBuf b;
    sb_init(&b);
    if (!sb_reserve(&b, (size_t)(end - start) * 4))
        return sb_finish(&b);
    const uint32_t *cp = (const uint32_t *)subject_data(s);
    for (int64_t i = start; i < end; i++) {
        char tmp[4];
        int n = utf8_encode(cp[i], tmp);
        sb_add(&b, tmp, (size_t)n);
    }
    return sb_finish(&b);
}

/* ------------------------------------------------------------------ */
/* Characters: classes and case                                        */
/* ------------------------------------------------------------------ */

static inline bool ascii_isalnum(uint32_t c)
{
    return (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z');
}
static inline bool ascii_isword(uint32_t c) { return c < 128 && (ascii_isalnum(c) || c == '_'); }
static inline bool ascii_isdigit(uint32_t c) { return c >= '0' && c <= '9'; }
static inline bool ascii_isspace(uint32_t c) { return c == ' ' || (c >= 9 && c <= 13); }
static bool uni_isalnum(uint32_t c)
{
    if (c < 128)
        return ascii_isalnum(c);
    return uni_isalpha(c) || uni_isdecimal(c) || uni_isdigit(c) || uni_isnumeric(c);
}
static inline bool uni_isword(uint32_t c) { return c == '_' || uni_isalnum(c); }
static bool uni_islinebreak(uint32_t c)
{
    return (c >= 10 && c <= 13) || (c >= 0x1c && c <= 0x1e) || c == 0x85 || c == 0x2028 || c == 0x2029;
}
/* LOCALE: bytes patterns only; tmpy's locale is the C one, so its classes
 * are ASCII's. */
static inline bool loc_isword(uint32_t c) { return c < 256 && ascii_isword(c); }

uint32_t sre_lower_ascii(uint32_t ch) { return ch >= 'A' && ch <= 'Z' ? ch + 32 : ch; }
static uint32_t upper_ascii(uint32_t ch) { return ch >= 'a' && ch <= 'z' ? ch - 32 : ch; }

/* The one-code-point case mappings CPython's Py_UNICODE_TOLOWER/TOUPPER
 * give: a character whose full mapping is several code points maps to the
 * first of them (U+0130 lowers to 'i', U+00DF uppers to 'S'). */
uint32_t sre_lower_unicode(uint32_t ch)
{
    if (ch < 128)
        return sre_lower_ascii(ch);
    uint32_t out[3];
    uni_tolower(ch, out);
    return out[0];
}

static uint32_t sre_upper_unicode(uint32_t ch)
{
    if (ch < 128)
        return upper_ascii(ch);
    uint32_t out[3];
    uni_toupper(ch, out);
    return out[0];
}

bool sre_iscased_ascii(uint32_t ch) { return ch < 128 && ((ch | 32) >= 'a' && (ch | 32) <= 'z'); }
bool sre_iscased_unicode(uint32_t ch) { return ch != sre_lower_unicode(ch) || ch != sre_upper_unicode(ch); }

static uint32_t lower_locale(uint32_t ch) { return ch < 128 ? sre_lower_ascii(ch) : ch; }
static uint32_t upper_locale(uint32_t ch) { return ch < 128 ? upper_ascii(ch) : ch; }

static bool category(uint32_t code, uint32_t ch)
{
    switch (code) {
    case SRE_CAT_DIGIT: return ascii_isdigit(ch);
    case SRE_CAT_NOT_DIGIT: return !ascii_isdigit(ch);
    case SRE_CAT_SPACE: return ascii_isspace(ch);
    case SRE_CAT_NOT_SPACE: return !ascii_isspace(ch);
    case SRE_CAT_WORD: return ascii_isword(ch);
    case SRE_CAT_NOT_WORD: return !ascii_isword(ch);
    case SRE_CAT_LINEBREAK: return ch == '\n';
    case SRE_CAT_NOT_LINEBREAK: return ch != '\n';
    case SRE_CAT_LOC_WORD: return loc_isword(ch);
    case SRE_CAT_LOC_NOT_WORD: return !loc_isword(ch);
    case SRE_CAT_UNI_DIGIT: return ch < 128 ? ascii_isdigit(ch) : uni_isdecimal(ch);
    case SRE_CAT_UNI_NOT_DIGIT: return !(ch < 128 ? ascii_isdigit(ch) : uni_isdecimal(ch));
    case SRE_CAT_UNI_SPACE: return str_isspace_cp(ch);
    case SRE_CAT_UNI_NOT_SPACE: return !str_isspace_cp(ch);
    case SRE_CAT_UNI_WORD: return uni_isword(ch);
    case SRE_CAT_UNI_NOT_WORD: return !uni_isword(ch);
    case SRE_CAT_UNI_LINEBREAK: return uni_islinebreak(ch);
    case SRE_CAT_UNI_NOT_LINEBREAK: return !uni_islinebreak(ch);
    }
    return false;
}

/* Is ch in the set at code[p] (ends with FAILURE)? */
static bool in_charset(const uint32_t *code, uint32_t p, uint32_t ch)
{
    bool ok = true;
    for (;;) {
        switch (code[p]) {
        case SRE_OP_FAILURE:
            return !ok;
        case SRE_OP_LITERAL:
            if (ch == code[p + 1])
                return ok;
            p += 2;
            break;
        case SRE_OP_CATEGORY:
            if (category(code[p + 1], ch))
                return ok;
            p += 2;
            break;
        case SRE_OP_CHARSET:
            if (ch < 256 && (code[p + 1 + (ch >> 5)] & (1u << (ch & 31))))
                return ok;
            p += 1 + 8;
            break;
        case SRE_OP_RANGE:
            if (code[p + 1] <= ch && ch <= code[p + 2])
                return ok;
            p += 3;
            break;
        case SRE_OP_RANGE_UNI_IGNORE: {
            if (code[p + 1] <= ch && ch <= code[p + 2])
                return ok;
            uint32_t u = sre_upper_unicode(ch);
            if (code[p + 1] <= u && u <= code[p + 2])
                return ok;
            p += 3;
            break;
        }
        case SRE_OP_NEGATE:
            ok = !ok;
            p += 1;
            break;
        case SRE_OP_BIGCHARSET: {
            uint32_t nblocks = code[p + 1];
            if (ch < 65536) {
                const unsigned char *map = (const unsigned char *)&code[p + 2];
                uint32_t block = map[ch >> 8];
                const uint32_t *bits = &code[p + 2 + 64 + block * 8];
                if (bits[(ch & 255) >> 5] & (1u << (ch & 31)))
                    return ok;
            }
            p += 2 + 64 + nblocks * 8;
            break;
        }
        default:
            return false;   /* sre_code_valid refused anything else */
        }
    }
}

/* Does the one-character item at code[p] match ch? */
static bool match_one(const uint32_t *code, uint32_t p, uint32_t ch)
{
    uint32_t a = code[p + 1];
    switch (code[p]) {
    case SRE_OP_ANY: return ch != '\n';
    case SRE_OP_ANY_ALL: return true;
    case SRE_OP_LITERAL: return ch == a;
    case SRE_OP_NOT_LITERAL: return ch != a;
    case SRE_OP_LITERAL_IGNORE: return sre_lower_ascii(ch) == a;
    case SRE_OP_NOT_LITERAL_IGNORE: return sre_lower_ascii(ch) != a;
    case SRE_OP_LITERAL_UNI_IGNORE: return sre_lower_unicode(ch) == a;
    case SRE_OP_NOT_LITERAL_UNI_IGNORE: return sre_lower_unicode(ch) != a;
    case SRE_OP_LITERAL_LOC_IGNORE: return ch == a || lower_locale(ch) == a || upper_locale(ch) == a;
    case SRE_OP_NOT_LITERAL_LOC_IGNORE: return !(ch == a || lower_locale(ch) == a || upper_locale(ch) == a);
    case SRE_OP_CATEGORY: return category(a, ch);
    case SRE_OP_IN: return in_charset(code, p + 2, ch);
    case SRE_OP_IN_IGNORE: return in_charset(code, p + 2, sre_lower_ascii(ch));
    case SRE_OP_IN_UNI_IGNORE: return in_charset(code, p + 2, sre_lower_unicode(ch));
    case SRE_OP_IN_LOC_IGNORE:
        return in_charset(code, p + 2, ch) || in_charset(code, p + 2, lower_locale(ch)) ||
               in_charset(code, p + 2, upper_locale(ch));
    }
    return false;
}

/* ------------------------------------------------------------------ */
/* The machine's stacks                                                */
/* ------------------------------------------------------------------ */

enum {   /* choice points */
    CP_BRANCH,          /* pc: the skip word of the next alternative */
    CP_REPEAT_ONE,      /* greedy: a = characters taken, b = min; pos = where the run starts */
    CP_MIN_REPEAT_ONE,  /* lazy: a = characters taken, b = item pc */
    CP_UNTIL_TAIL,      /* MAX_UNTIL: the body failed, try the tail */
    CP_MIN_UNTIL_MORE,  /* MIN_UNTIL: the tail failed, try one more iteration; a = count */
    CP_ASSERT_NOT,      /* the negative lookaround's body failed: go on at pc */
    CP_POSS_ITER,       /* a possessive iteration failed: a = count done, b = the POSSESSIVE_REPEAT pc */
};
struct SreChoice {
    uint32_t kind, pc;
    int64_t pos, a, b;
    int64_t ntrail, nframes, nreps, lastindex, lastmark;
    int64_t rep;
    int64_t snapbase;    /* snapshot stack height below this choice point's own */
    bool snap;           /* marks[0..lastmark] saved at snapbase: restored on resume */
};
/* A trail entry: a repeat field to restore: -where-1 (2 per repeat:
 * count, last). */
struct SreTrail { int64_t where, old; };
enum { F_ASSERT, F_ASSERT_NOT, F_ATOMIC, F_POSS };
struct SreFrame {
    uint32_t kind, pc;   /* pc: where to go on (ASSERT, ATOMIC), or the POSSESSIVE_REPEAT */
    int64_t pos;         /* ASSERT: the position to go back to; POSS: this iteration's start */
    int64_t ncp;         /* choice points below the frame's own */
    int64_t nsnap;       /* and the snapshot stack's height then */
    int64_t count;       /* POSS: iterations done before this one */
};
struct SreRepeat { uint32_t pc; int64_t count, last, prev; };

static bool grow(void **p, int64_t *cap, size_t item)
{
    int64_t n = *cap ? *cap * 2 : 64;
    void *q = realloc(*p, (size_t)n * item);
    if (!q)
        return false;
    *p = q;
    *cap = n;
    return true;
}

int sre_state_init(SreState *st, Obj *pattern, SreSubject *subj, int64_t pos, int64_t endpos)
{
    memset(st, 0, sizeof *st);
    st->pattern = pattern;
    st->subj = subj;
    int64_t len = subj->length;
    if (pos < 0)
        pos = 0;
    else if (pos > len)
        pos = len;
    if (endpos < 0)
        endpos = 0;
    else if (endpos > len)
        endpos = len;
    st->pos = pos;
    st->start = pos;
    st->end = endpos;
    st->ngroups = SREPAT(*pattern)->groups + 1;
    if (st->ngroups * 2 <= (int64_t)(sizeof st->marks_small / sizeof st->marks_small[0]))
        st->marks = st->marks_small;
    else
        st->marks = malloc((size_t)st->ngroups * 2 * sizeof(int64_t));
    if (!st->marks) {
        err_nomemory();
        return -1;
    }
    sre_state_refresh(st);
    return 0;
}

void sre_state_fini(SreState *st)
{
    if (st->marks != st->marks_small)
        free(st->marks);
    free(st->cps);
    free(st->trail);
    free(st->frames);
    free(st->reps);
    free(st->snaps);
    st->snaps = NULL;
    st->marks = NULL;
    st->cps = NULL;
    st->trail = NULL;
    st->frames = NULL;
    st->reps = NULL;
}

void sre_state_refresh(SreState *st)
{
    st->code = (const uint32_t *)VM_LINEAR(RAW(SREPAT(*st->pattern)->code)->data);
    const uint32_t *map = st->code + SREPAT(*st->pattern)->codelen + 1;
    st->startmap = map[0] ? map + 1 : NULL;
    const void *d = subject_data(st->subj);
    st->s8 = d;
    st->s32 = d;
}

/* ------------------------------------------------------------------ */
/* The machine                                                         */
/* ------------------------------------------------------------------ */

#define CH(i) (wide ? s32[i] : (uint32_t)s8[i])

static bool at(SreState *st, uint32_t code, int64_t pos)
{
    bool wide = st->subj->width == 4;
    const unsigned char *s8 = st->s8;
    const uint32_t *s32 = st->s32;
    int64_t end = st->end;
    bool before, here;
    switch (code) {
    case SRE_AT_BEGINNING:
    case SRE_AT_BEGINNING_STRING:
        return pos == 0;
    case SRE_AT_BEGINNING_LINE:
        return pos == 0 || CH(pos - 1) == '\n';
    case SRE_AT_END:
        return pos == end || (pos + 1 == end && CH(pos) == '\n');
    case SRE_AT_END_LINE:
        return pos == end || CH(pos) == '\n';
    case SRE_AT_END_STRING:
        return pos == end;
    case SRE_AT_BOUNDARY: case SRE_AT_NON_BOUNDARY:
        if (end == 0)
            return false;   /* no boundary of either kind in an empty string (3.11) */
        before = pos > 0 && ascii_isword(CH(pos - 1));
        here = pos < end && ascii_isword(CH(pos));
        return (before != here) == (code == SRE_AT_BOUNDARY);
    case SRE_AT_LOC_BOUNDARY: case SRE_AT_LOC_NON_BOUNDARY:
        if (end == 0)
            return false;
        before = pos > 0 && loc_isword(CH(pos - 1));
        here = pos < end && loc_isword(CH(pos));
        return (before != here) == (code == SRE_AT_LOC_BOUNDARY);
    case SRE_AT_UNI_BOUNDARY: case SRE_AT_UNI_NON_BOUNDARY:
        if (end == 0)
            return false;
        before = pos > 0 && uni_isword(CH(pos - 1));
        here = pos < end && uni_isword(CH(pos));
        return (before != here) == (code == SRE_AT_UNI_BOUNDARY);
    }
    return false;
}

/* How many characters from pos match the item at code[p], at most max. */
static int64_t count_run(SreState *st, uint32_t p, int64_t pos, int64_t max)
{
    const uint32_t *code = st->code;
    bool wide = st->subj->width == 4;
    const unsigned char *s8 = st->s8;
    const uint32_t *s32 = st->s32;
    int64_t lim = st->end - pos;
    if (max < lim)
        lim = max;
    int64_t i = 0;
    uint32_t a = code[p + 1];
    switch (code[p]) {
    case SRE_OP_ANY_ALL:
        return lim;
    case SRE_OP_ANY:
        if (!wide) {
            const void *nl = memchr(s8 + pos, '\n', (size_t)lim);
            return nl ? (const unsigned char *)nl - (s8 + pos) : lim;
        }
        while (i < lim && s32[pos + i] != '\n')
            i++;
        return i;
    case SRE_OP_LITERAL:
        while (i < lim && CH(pos + i) == a)
            i++;
        return i;
    case SRE_OP_NOT_LITERAL:
        while (i < lim && CH(pos + i) != a)
            i++;
        return i;
    default:
        while (i < lim && match_one(code, p, CH(pos + i)))
            i++;
        return i;
    }
}

static inline int64_t maxrep(uint32_t m) { return m == SRE_MAXREPEAT ? INT64_MAX : (int64_t)m; }

/* Run the code from pc at st->start. 1 success, 0 failure, -1 error set. */
static int run(SreState *st, uint32_t pc)
{
    const uint32_t *code = st->code;
    bool wide = st->subj->width == 4;
    const unsigned char *s8 = st->s8;
    const uint32_t *s32 = st->s32;
    int64_t end = st->end;
    int64_t pos = st->start;
    int64_t *marks = st->marks;
    int64_t lastindex = -1;
    int64_t lastmark = -1;
    int64_t rep = -1;
    st->ncp = st->ntrail = st->nframes = st->nreps = st->nsnap = 0;
    /* marks above lastmark are unset: no clearing needed */

#define NEED(ptr, n, cap, type)                                                    \
    do {                                                                          \
        if ((n) >= (cap) && !grow((void **)&(ptr), &(cap), sizeof(type)))         \
            goto nomem;                                                           \
    } while (0)
#define TRAIL(w, oldv)                                                            \
    do {                                                                          \
        if (st->ncp) {                                                            \
            NEED(st->trail, st->ntrail, st->captrail, SreTrail);                  \
            st->trail[st->ntrail].where = (w);                                    \
            st->trail[st->ntrail++].old = (oldv);                                 \
        }                                                                         \
    } while (0)
#define PUSH_CP(k, p_, pos_, a_, b_, full)                                        \
    do {                                                                          \
        NEED(st->cps, st->ncp, st->capcp, SreChoice);                             \
        SreChoice *c_ = &st->cps[st->ncp++];                                      \
        c_->kind = (k); c_->pc = (p_); c_->pos = (pos_); c_->a = (a_); c_->b = (b_); \
        c_->ntrail = st->ntrail; c_->nframes = st->nframes; c_->nreps = st->nreps; \
        c_->lastindex = lastindex; c_->lastmark = lastmark; c_->rep = rep;        \
        c_->snapbase = st->nsnap; c_->snap = (full);                              \
        if (full) {                                                               \
            while (st->nsnap + lastmark + 1 > st->capsnap)                        \
                if (!grow((void **)&st->snaps, &st->capsnap, sizeof(int64_t)))    \
                    goto nomem;                                                   \
            memcpy(st->snaps + st->nsnap, marks, (size_t)(lastmark + 1) * sizeof(int64_t)); \
            st->nsnap += lastmark + 1;                                            \
        }                                                                         \
    } while (0)
#define PUSH_FRAME(k, p_, pos_, ncp_, nsnap_, count_)                             \
    do {                                                                          \
        NEED(st->frames, st->nframes, st->capframes, SreFrame);                   \
        SreFrame *f_ = &st->frames[st->nframes++];                                \
        f_->kind = (k); f_->pc = (p_); f_->pos = (pos_); f_->ncp = (ncp_);        \
        f_->nsnap = (nsnap_); f_->count = (count_);                               \
    } while (0)
/* Iteration `count_` (0-based) of the POSSESSIVE_REPEAT at rp_, from pos: a
 * choice point to stop before it (saving the marks if it is optional), and
 * a frame whose SUCCESS cuts the choice points the iteration leaves. */
#define POSS_ITERATION(rp_, count_)                                               \
    do {                                                                          \
        int64_t nsnap0_ = st->nsnap;                                              \
        PUSH_CP(CP_POSS_ITER, rp_, pos, count_, 0, (count_) >= (int64_t)code[(rp_) + 2]); \
        PUSH_FRAME(F_POSS, rp_, pos, st->ncp - 1, nsnap0_, count_);               \
        pc = (rp_) + 4;                                                           \
    } while (0)
/* One more iteration of the REPEAT body (`rep`) from pos, its `count_`-th:
 * the counters' old values go to the trail. */
#define ITERATE_AGAIN(count_)                                                     \
    do {                                                                          \
        SreRepeat *r_ = &st->reps[rep];                                           \
        TRAIL(-(rep * 2) - 1, r_->count);                                         \
        TRAIL(-(rep * 2) - 2, r_->last);                                          \
        r_->count = (count_);                                                     \
        r_->last = pos;                                                           \
        pc = r_->pc + 4;                                                          \
    } while (0)

    for (;;) {
        if (unlikely((++st->steps & 0xfff) == 0)) {
            tm_safepoint();
            if (tm_interrupted()) {
                if (vm_signals_check() < 0)
                    return -1;
                sre_state_refresh(st);   /* a handler may have moved objects */
                code = st->code;
                s8 = st->s8;
                s32 = st->s32;
            }
        }
        uint32_t op = code[pc];
        switch (op) {
        case SRE_OP_FAILURE:
            goto fail;

        case SRE_OP_SUCCESS: {
            if (st->nframes == 0) {
                if (st->match_all && pos != end)
                    goto fail;
                if (st->must_advance && pos == st->start)
                    goto fail;
                st->match_end = pos;
                st->lastindex = lastindex;
                st->lastmark = lastmark;
                return 1;
            }
            SreFrame *f = &st->frames[--st->nframes];
            switch (f->kind) {
            case F_ASSERT:
                st->ncp = f->ncp;
                st->nsnap = f->nsnap;
                pos = f->pos;
                pc = f->pc;
                continue;
            case F_ASSERT_NOT:
                st->ncp = f->ncp;   /* its barrier too: the lookaround fails */
                st->nsnap = f->nsnap;
                goto fail;
            case F_ATOMIC:
                st->ncp = f->ncp;
                st->nsnap = f->nsnap;
                pc = f->pc;
                continue;
            case F_POSS: {
                st->ncp = f->ncp;
                st->nsnap = f->nsnap;
                uint32_t rp = f->pc;
                int64_t count = f->count + 1;
                /* the min iterations even if empty; then one more at least, and on while they advance */
                if ((pos == f->pos && f->count >= (int64_t)code[rp + 2]) || count >= maxrep(code[rp + 3])) {
                    pc = rp + 2 + code[rp + 1];   /* past its SUCCESS */
                    continue;
                }
                POSS_ITERATION(rp, count);
                continue;
            }
            }
            goto fail;
        }

        case SRE_OP_ANY:
            if (pos >= end || CH(pos) == '\n')
                goto fail;
            pos++;
            pc += 1;
            continue;
        case SRE_OP_ANY_ALL:
            if (pos >= end)
                goto fail;
            pos++;
            pc += 1;
            continue;
        case SRE_OP_LITERAL:
            if (pos >= end || CH(pos) != code[pc + 1])
                goto fail;
            pos++;
            pc += 2;
            continue;
        case SRE_OP_NOT_LITERAL: case SRE_OP_LITERAL_IGNORE: case SRE_OP_NOT_LITERAL_IGNORE:
        case SRE_OP_LITERAL_UNI_IGNORE: case SRE_OP_NOT_LITERAL_UNI_IGNORE:
        case SRE_OP_LITERAL_LOC_IGNORE: case SRE_OP_NOT_LITERAL_LOC_IGNORE: case SRE_OP_CATEGORY:
            if (pos >= end || !match_one(code, pc, CH(pos)))
                goto fail;
            pos++;
            pc += 2;
            continue;
        case SRE_OP_IN: case SRE_OP_IN_IGNORE: case SRE_OP_IN_UNI_IGNORE: case SRE_OP_IN_LOC_IGNORE:
            if (pos >= end || !match_one(code, pc, CH(pos)))
                goto fail;
            pos++;
            pc += 1 + code[pc + 1];
            continue;

        case SRE_OP_AT:
            if (!at(st, code[pc + 1], pos))
                goto fail;
            pc += 2;
            continue;

        case SRE_OP_INFO:
            pc += 1 + code[pc + 1];
            continue;

        case SRE_OP_JUMP:
            pc += 1 + code[pc + 1];
            continue;

        case SRE_OP_MARK: {
            int64_t k = code[pc + 1];
            if (k & 1)
                lastindex = k / 2 + 1;
            if (k > lastmark) {
                for (int64_t j = lastmark + 1; j < k; j++)
                    marks[j] = -1;   /* never reached on this path */
                lastmark = k;
            }
            marks[k] = pos;
            pc += 2;
            continue;
        }

        case SRE_OP_BRANCH: {
            uint32_t q = pc + 1;
            /* alternatives that start with a literal not here are skipped */
            while (code[q] && code[q + 1] == SRE_OP_LITERAL && (pos >= end || CH(pos) != code[q + 2]))
                q += code[q];
            if (!code[q])
                goto fail;
            uint32_t next = q + code[q];
            /* no choice point for alternatives that cannot match here */
            while (code[next] && code[next + 1] == SRE_OP_LITERAL && (pos >= end || CH(pos) != code[next + 2]))
                next += code[next];
            if (code[next] || rep >= 0)   /* after the last alternative too: it restores marks */
                PUSH_CP(CP_BRANCH, next, pos, 0, 0, rep >= 0);
            pc = q + 1;
            continue;
        }

        case SRE_OP_REPEAT_ONE: {
            int64_t min = code[pc + 2], max = maxrep(code[pc + 3]);
            uint32_t tail = pc + 1 + code[pc + 1];
            if (end - pos < min)
                goto fail;
            int64_t n = count_run(st, pc + 4, pos, max);
            if (n < min)
                goto fail;
            if (code[tail] == SRE_OP_SUCCESS && (st->nframes || (!st->match_all && !st->must_advance))) {
                pos += n;   /* nothing after it could want fewer */
                pc = tail;
                continue;
            }
            if (code[tail] == SRE_OP_LITERAL) {
                uint32_t c = code[tail + 1];
                while (n >= min && (pos + n >= end || CH(pos + n) != c))
                    n--;
                if (n < min)
                    goto fail;
            }
            if (n > min || rep >= 0)
                PUSH_CP(CP_REPEAT_ONE, tail, pos, n, min, rep >= 0);
            pos += n;
            pc = tail;
            continue;
        }

        case SRE_OP_MIN_REPEAT_ONE: {
            int64_t min = code[pc + 2];
            uint32_t tail = pc + 1 + code[pc + 1];
            if (end - pos < min)
                goto fail;
            int64_t n = min ? count_run(st, pc + 4, pos, min) : 0;
            if (n < min)
                goto fail;
            PUSH_CP(CP_MIN_REPEAT_ONE, tail, pos, n, pc, rep >= 0);
            pos += n;
            pc = tail;
            continue;
        }

        case SRE_OP_POSSESSIVE_REPEAT_ONE: {
            int64_t min = code[pc + 2], max = maxrep(code[pc + 3]);
            if (end - pos < min)
                goto fail;
            int64_t n = count_run(st, pc + 4, pos, max);
            if (n < min)
                goto fail;
            pos += n;
            pc += 1 + code[pc + 1];
            continue;
        }

        case SRE_OP_REPEAT: {
            NEED(st->reps, st->nreps, st->capreps, SreRepeat);
            SreRepeat *r = &st->reps[st->nreps];
            r->pc = pc;
            r->count = -1;
            r->last = -1;
            r->prev = rep;
            rep = st->nreps++;
            pc += 1 + code[pc + 1];   /* to its UNTIL */
            continue;
        }

        case SRE_OP_MAX_UNTIL: case SRE_OP_MIN_UNTIL: {
            if (rep < 0)
                goto fail;
            SreRepeat *r = &st->reps[rep];
            uint32_t rp = r->pc;
            int64_t count = r->count + 1;
            if (count < (int64_t)code[rp + 2]) {   /* below min: the body again */
                TRAIL(-(rep * 2) - 1, r->count);
                r->count = count;
                pc = rp + 4;
                continue;
            }
            if (op == SRE_OP_MIN_UNTIL) {   /* the tail first; one more iteration if it fails */
                PUSH_CP(CP_MIN_UNTIL_MORE, pc, pos, count, 0, r->prev >= 0);
                rep = r->prev;
                pc += 1;
                continue;
            }
            if (count < maxrep(code[rp + 3]) && pos != r->last) {   /* the body again; the tail if it fails */
                PUSH_CP(CP_UNTIL_TAIL, pc + 1, pos, 0, 0, true);
                ITERATE_AGAIN(count);
                continue;
            }
            rep = r->prev;
            pc += 1;
            continue;
        }

        case SRE_OP_GROUPREF: case SRE_OP_GROUPREF_IGNORE: case SRE_OP_GROUPREF_UNI_IGNORE:
        case SRE_OP_GROUPREF_LOC_IGNORE: {
            int64_t g = code[pc + 1];
            int64_t s = marks[2 * g], e = marks[2 * g + 1];
            if (2 * g + 1 > lastmark || s < 0 || e < s)
                goto fail;
            if (end - pos < e - s)
                goto fail;
            for (int64_t i = 0; i < e - s; i++) {
                uint32_t a = CH(s + i), b = CH(pos + i);
                if (a == b)
                    continue;
                if (op == SRE_OP_GROUPREF_IGNORE && sre_lower_ascii(a) == sre_lower_ascii(b))
                    continue;
                if (op == SRE_OP_GROUPREF_UNI_IGNORE && sre_lower_unicode(a) == sre_lower_unicode(b))
                    continue;
                if (op == SRE_OP_GROUPREF_LOC_IGNORE && lower_locale(a) == lower_locale(b))
                    continue;
                goto fail;
            }
            pos += e - s;
            pc += 2;
            continue;
        }

        case SRE_OP_GROUPREF_EXISTS: {
            int64_t g = code[pc + 1];
            int64_t s = marks[2 * g], e = marks[2 * g + 1];
            if (2 * g + 1 <= lastmark && s >= 0 && e >= s)
                pc += 3;
            else
                pc += 1 + code[pc + 2];
            continue;
        }

        case SRE_OP_ASSERT: case SRE_OP_ASSERT_NOT: {
            uint32_t back = code[pc + 2];
            uint32_t after = pc + 1 + code[pc + 1];
            if (pos < (int64_t)back) {
                if (op == SRE_OP_ASSERT)
                    goto fail;
                pc = after;
                continue;
            }
            int64_t nsnap0 = st->nsnap;
            if (op == SRE_OP_ASSERT) {
                PUSH_FRAME(F_ASSERT, after, pos, st->ncp, nsnap0, 0);
            } else {
                PUSH_CP(CP_ASSERT_NOT, after, pos, 0, 0, rep >= 0);
                PUSH_FRAME(F_ASSERT_NOT, after, pos, st->ncp - 1, nsnap0, 0);
            }
            pos -= back;
            pc += 3;
            continue;
        }

        case SRE_OP_ATOMIC_GROUP:
            PUSH_FRAME(F_ATOMIC, pc + 1 + code[pc + 1], pos, st->ncp, st->nsnap, 0);
            pc += 2;
            continue;

        case SRE_OP_POSSESSIVE_REPEAT: {
            uint32_t rp = pc;
            if (maxrep(code[rp + 3]) == 0) {
                pc = rp + 2 + code[rp + 1];   /* past its SUCCESS */
                continue;
            }
            POSS_ITERATION(rp, (int64_t)0);
            continue;
        }

        default:
            goto fail;   /* sre_code_valid refused anything else */
        }

fail:
#define POP_CP() (st->nsnap = c->snapbase, st->ncp--)
        for (;;) {
            if (st->ncp == 0) {
                return 0;
            }
            SreChoice *c = &st->cps[st->ncp - 1];
            while (st->ntrail > c->ntrail) {
                SreTrail *t = &st->trail[--st->ntrail];
                int64_t w = -t->where - 1;
                if (w & 1)
                    st->reps[w / 2].last = t->old;
                else
                    st->reps[w / 2].count = t->old;
            }
            st->nframes = c->nframes;
            st->nreps = c->nreps;
            lastindex = c->lastindex;
            lastmark = c->lastmark;
            if (c->snap)
                memcpy(marks, st->snaps + c->snapbase, (size_t)(lastmark + 1) * sizeof(int64_t));
            st->nsnap = c->snapbase + (c->snap ? lastmark + 1 : 0);
            rep = c->rep;
            pos = c->pos;
            switch (c->kind) {
            case CP_BRANCH: {
                uint32_t q = c->pc;
                while (code[q] && code[q + 1] == SRE_OP_LITERAL && (pos >= end || CH(pos) != code[q + 2]))
                    q += code[q];
                if (!code[q]) {
                    POP_CP();
                    continue;
                }
                uint32_t next = q + code[q];
                while (code[next] && code[next + 1] == SRE_OP_LITERAL && (pos >= end || CH(pos) != code[next + 2]))
                    next += code[next];
                if (code[next] || c->snap)
                    c->pc = next;
                else
                    POP_CP();
                pc = q + 1;
                break;
            }
            case CP_REPEAT_ONE: {
                int64_t n = c->a - 1, min = c->b;
                uint32_t tail = c->pc;
                if (code[tail] == SRE_OP_LITERAL) {
                    uint32_t ch = code[tail + 1];
                    while (n >= min && (pos + n >= end || CH(pos + n) != ch))
                        n--;
                }
                if (n < min) {
                    POP_CP();
                    continue;
                }
                if (n == min && !c->snap)
                    POP_CP();
                else
                    c->a = n;
                pos += n;
                pc = tail;
                break;
            }
            case CP_MIN_REPEAT_ONE: {
                uint32_t ip = (uint32_t)c->b;
                int64_t n = c->a;
                if (n >= maxrep(code[ip + 3]) || pos + n >= end || !match_one(code, ip + 4, CH(pos + n))) {
                    POP_CP();
                    continue;
                }
                c->a = ++n;
                pos += n;
                pc = c->pc;
                break;
            }
            case CP_UNTIL_TAIL:
                POP_CP();
                rep = st->reps[rep].prev;
                pc = c->pc;
                break;
            case CP_MIN_UNTIL_MORE: {
                POP_CP();
                SreRepeat *r = &st->reps[rep];
                int64_t count = c->a;
                if (count >= maxrep(code[r->pc + 3]) || pos == r->last)
                    continue;
                ITERATE_AGAIN(count);
                break;
            }
            case CP_ASSERT_NOT:
                POP_CP();
                pc = c->pc;
                break;
            case CP_POSS_ITER: {
                POP_CP();
                uint32_t rp = c->pc;
                if (c->a < (int64_t)code[rp + 2])
                    continue;   /* fewer than min iterations */
                pc = rp + 2 + code[rp + 1];   /* past its SUCCESS */
                break;
            }
            default:
                POP_CP();
                continue;
            }
            break;
        }
    }
nomem:
    err_nomemory();
    return -1;
#undef NEED
#undef TRAIL
#undef PUSH_CP
#undef PUSH_FRAME
#undef POSS_ITERATION
#undef ITERATE_AGAIN
#undef POP_CP
}

bool sre_state_span(SreState *st, int64_t g, int64_t *start, int64_t *end)
{
    int64_t s = st->marks[2 * g], e = st->marks[2 * g + 1];
    if (2 * g + 1 > st->lastmark || s < 0 || e < s)
        return false;
    *start = s;
    *end = e;
    return true;
}

/* The INFO block at the start of the code: where the pattern proper
 * begins, and its minimum width. */
static uint32_t skip_info(const uint32_t *code, int64_t *min)
{
    *min = 0;
    if (code[0] != SRE_OP_INFO)
        return 0;
    *min = code[3];
    return 1 + code[1];
}

int sre_match(SreState *st)
{
    int64_t min;
    uint32_t pc = skip_info(st->code, &min);
    /* pos beyond endpos still tries (an empty match can succeed there) */
    if (min > 0 && st->end - st->start < min)
        return 0;
    st->match_start = st->start;
    return run(st, pc);
}

/* Is the op at code[p] one that consumes exactly one character? */
static bool is_char_item(uint32_t op)
{
    switch (op) {
    case SRE_OP_LITERAL: case SRE_OP_NOT_LITERAL: case SRE_OP_ANY: case SRE_OP_ANY_ALL: case SRE_OP_IN:
    case SRE_OP_IN_IGNORE: case SRE_OP_IN_UNI_IGNORE: case SRE_OP_IN_LOC_IGNORE: case SRE_OP_LITERAL_IGNORE:
    case SRE_OP_NOT_LITERAL_IGNORE: case SRE_OP_LITERAL_UNI_IGNORE: case SRE_OP_NOT_LITERAL_UNI_IGNORE:
    case SRE_OP_LITERAL_LOC_IGNORE: case SRE_OP_NOT_LITERAL_LOC_IGNORE: case SRE_OP_CATEGORY:
        return true;
    }
    return false;
}

/* The one-character item every match must start with (past group marks,
 * inside a repeat of at least one), or 0: search skips the positions where
 * it does not match without starting the machine there. */
static uint32_t first_item(const uint32_t *code, uint32_t p)
{
    while (code[p] == SRE_OP_MARK)
        p += 2;
    uint32_t op = code[p];
    if (is_char_item(op))
        return p;
    if ((op == SRE_OP_REPEAT_ONE || op == SRE_OP_MIN_REPEAT_ONE || op == SRE_OP_POSSESSIVE_REPEAT_ONE) &&
        code[p + 2] >= 1)
        return p + 4;
    return 0;
}

/* Can a match start with ch? (BRANCH: any alternative's first item.) */
static bool first_matches(const uint32_t *code, uint32_t p, uint32_t ch)
{
    if (code[p] != SRE_OP_BRANCH)
        return match_one(code, p, ch);
    for (uint32_t q = p + 1; code[q]; q += code[q])
        if (match_one(code, first_item(code, q + 1), ch))
            return true;
    return false;
}

static uint32_t first_filter(const uint32_t *code, uint32_t pc)
{
    uint32_t p = pc;
    while (code[p] == SRE_OP_MARK)
        p += 2;
    if (code[p] == SRE_OP_BRANCH) {
        for (uint32_t q = p + 1; code[q]; q += code[q])
            if (!first_item(code, q + 1))
                return 0;
        return p;
    }
    return first_item(code, pc);
}

int sre_search(SreState *st)
{
    const uint32_t *code = st->code;
    int64_t min;
    uint32_t pc = skip_info(code, &min);
    if (st->start > st->end)
        return 0;
    uint32_t flags = code[0] == SRE_OP_INFO ? code[2] : 0;
    uint32_t first = 0;   /* a literal every match starts with */
    bool has_first = false;
    uint32_t charset_pc = 0;
    if (flags & SRE_INFO_PREFIX) {
        first = code[7];
        has_first = true;
    } else if (flags & SRE_INFO_CHARSET) {
        charset_pc = 5;
    }
    int64_t last = st->end - min;   /* the last start that can fit */
    int64_t s = st->start;
    uint32_t filter = has_first || charset_pc ? 0 : first_filter(code, pc);   /* INFO's scan is faster */
    uint32_t at0 = code[pc] == SRE_OP_AT ? code[pc + 1] : SRE_AT_COUNT;
    if (at0 == SRE_AT_BEGINNING || at0 == SRE_AT_BEGINNING_STRING) {
        if (s > 0)
            return 0;
        last = 0;   /* only position 0 can match */
    }
    const uint32_t *map = st->startmap;
    if (map && st->subj->width == 1 && (filter || has_first || charset_pc)) {
        /* the same filter as below, by table */
        const unsigned char *s8 = st->s8;
        int64_t stop = last < st->end ? last : st->end - 1;
        for (;; s++) {
            while (s <= stop && !(map[s8[s] >> 5] & (1u << (s8[s] & 31))))
                s++;
            if (s > stop)
                return 0;
            st->start = s;
            st->match_start = s;
            int rc = run(st, pc);
            if (rc != 0)
                return rc;
            st->must_advance = false;
            code = st->code;   /* a signal handler may have moved it */
            map = st->startmap;
            s8 = st->s8;
        }
    }
    for (; s <= last; s++) {
        if (filter) {
            bool wide = st->subj->width == 4;
            const unsigned char *s8 = st->s8;
            const uint32_t *s32 = st->s32;
            while (s <= last && (s >= st->end || !first_matches(code, filter, CH(s))))
                s++;
            if (s > last)
                return 0;
        }
        if (has_first || charset_pc) {
            bool wide = st->subj->width == 4;
            const unsigned char *s8 = st->s8;
            const uint32_t *s32 = st->s32;
            if (has_first && !wide) {
                if (first > 255)
                    return 0;
                if (s >= st->end)
                    return 0;
                const void *hit = memchr(s8 + s, (int)first, (size_t)(st->end - s));
                if (!hit)
                    return 0;
                s = (const unsigned char *)hit - s8;
                if (s > last)
                    return 0;
            } else {
                while (s <= last && s < st->end &&
                       !(has_first ? CH(s) == first : in_charset(code, charset_pc, CH(s))))
                    s++;
                if (s > last || s >= st->end)
                    return 0;
            }
        }
        st->start = s;
        st->match_start = s;
        int rc = run(st, pc);
        if (rc != 0)
            return rc;
        st->must_advance = false;
        code = st->code;   /* a signal handler may have moved it */
    }
    return 0;
}

void sre_start_map(const uint32_t *code, int64_t flags, uint32_t *map)
{
    memset(map, 0, SRE_STARTMAP_WORDS * sizeof(uint32_t));
    if (flags & SRE_FLAG_LOCALE)
        return;
    int64_t min;
    uint32_t pc = skip_info(code, &min);
    uint32_t info = code[0] == SRE_OP_INFO ? code[2] : 0;
    uint32_t filter = info & (SRE_INFO_PREFIX | SRE_INFO_CHARSET) ? 0 : first_filter(code, pc);
    if (!(info & (SRE_INFO_PREFIX | SRE_INFO_CHARSET)) && !filter)
        return;
    for (uint32_t ch = 0; ch < 256; ch++) {
        bool can = info & SRE_INFO_PREFIX ? ch == code[7]
                   : info & SRE_INFO_CHARSET ? in_charset(code, 5, ch)
                   : first_matches(code, filter, ch);
        if (can)
            map[1 + (ch >> 5)] |= 1u << (ch & 31);
    }
    map[0] = 1;
}

/* ------------------------------------------------------------------ */
/* Checking code from _sre.compile                                     */
/* ------------------------------------------------------------------ */
/* The engine trusts the code's structure (skips, set contents, group
 * numbers), so _sre.compile checks it first: any list of words that passes
 * runs without reading outside the code or the marks. */

typedef struct { const uint32_t *code; int64_t n; int64_t groups; int depth; } Checker;

static bool check_set(Checker *k, int64_t p, int64_t end)
{
    const uint32_t *c = k->code;
    while (p < end) {
        switch (c[p]) {
        case SRE_OP_FAILURE:
            return p + 1 == end;
        case SRE_OP_NEGATE:
            p += 1;
            break;
        case SRE_OP_LITERAL:
            p += 2;
            break;
        case SRE_OP_CATEGORY:
            if (p + 1 >= end || c[p + 1] >= SRE_CAT_COUNT)
                return false;
            p += 2;
            break;
        case SRE_OP_RANGE: case SRE_OP_RANGE_UNI_IGNORE:
            if (p + 2 >= end || c[p + 1] > c[p + 2])
                return false;
            p += 3;
            break;
        case SRE_OP_CHARSET:
            p += 9;
            break;
        case SRE_OP_BIGCHARSET: {
            if (p + 1 >= end)
                return false;
            int64_t nb = c[p + 1];
            if (p + 2 + 64 > end)
                return false;
            const unsigned char *map = (const unsigned char *)&c[p + 2];
            for (int i = 0; i < 256; i++)
                if (map[i] >= nb)
                    return false;
            p += 2 + 64 + nb * 8;
            break;
        }
        default:
            return false;
        }
    }
    return false;
}

/* A one-character item exactly filling [p, end). */
static bool check_item(Checker *k, int64_t p, int64_t end)
{
    const uint32_t *c = k->code;
    if (p >= end)
        return false;
    switch (c[p]) {
    case SRE_OP_ANY: case SRE_OP_ANY_ALL:
        return p + 1 == end;
    case SRE_OP_LITERAL: case SRE_OP_NOT_LITERAL: case SRE_OP_LITERAL_IGNORE: case SRE_OP_NOT_LITERAL_IGNORE:
    case SRE_OP_LITERAL_UNI_IGNORE: case SRE_OP_NOT_LITERAL_UNI_IGNORE: case SRE_OP_LITERAL_LOC_IGNORE:
    case SRE_OP_NOT_LITERAL_LOC_IGNORE:
        return p + 2 == end;
    case SRE_OP_CATEGORY:
        return p + 2 == end && c[p + 1] < SRE_CAT_COUNT;
    case SRE_OP_IN: case SRE_OP_IN_IGNORE: case SRE_OP_IN_UNI_IGNORE: case SRE_OP_IN_LOC_IGNORE:
        return p + 1 < end && c[p + 1] >= 1 && p + 1 + (int64_t)c[p + 1] == end &&
               check_set(k, p + 2, end);
    }
    return false;
}

static bool check_block(Checker *k, int64_t p, int64_t end);

/* The skip word at p: its target (p + skip), which must lie in (p, end]. */
static bool skip_target(Checker *k, int64_t p, int64_t end, int64_t *t)
{
    *t = end;
    if (p >= end)
        return false;
    *t = p + (int64_t)k->code[p];
    return k->code[p] >= 1 && *t <= end;
}

static bool check_block(Checker *k, int64_t p, int64_t end)
{
    const uint32_t *c = k->code;
    if (++k->depth > 5000) {
        k->depth--;
        return false;
    }
    bool ok = true;
    while (ok && p < end) {
        uint32_t op = c[p];
        int64_t t = end;
        switch (op) {
        case SRE_OP_FAILURE: case SRE_OP_SUCCESS: case SRE_OP_ANY: case SRE_OP_ANY_ALL:
            p += 1;
            break;
        case SRE_OP_LITERAL: case SRE_OP_NOT_LITERAL: case SRE_OP_LITERAL_IGNORE: case SRE_OP_NOT_LITERAL_IGNORE:
        case SRE_OP_LITERAL_UNI_IGNORE: case SRE_OP_NOT_LITERAL_UNI_IGNORE: case SRE_OP_LITERAL_LOC_IGNORE:
        case SRE_OP_NOT_LITERAL_LOC_IGNORE:
            ok = p + 2 <= end;
            p += 2;
            break;
        case SRE_OP_CATEGORY:
            ok = p + 2 <= end && c[p + 1] < SRE_CAT_COUNT;
            p += 2;
            break;
        case SRE_OP_AT:
            ok = p + 2 <= end && c[p + 1] < SRE_AT_COUNT;
            p += 2;
            break;
        case SRE_OP_MARK:
            ok = p + 2 <= end && c[p + 1] < 2 * (uint64_t)k->groups + 2;   /* the marks array's size */
            p += 2;
            break;
        case SRE_OP_GROUPREF: case SRE_OP_GROUPREF_IGNORE: case SRE_OP_GROUPREF_UNI_IGNORE:
        case SRE_OP_GROUPREF_LOC_IGNORE:
            ok = p + 2 <= end && c[p + 1] < (uint64_t)k->groups;
            p += 2;
            break;
        case SRE_OP_IN: case SRE_OP_IN_IGNORE: case SRE_OP_IN_UNI_IGNORE: case SRE_OP_IN_LOC_IGNORE:
            ok = skip_target(k, p + 1, end, &t) && check_set(k, p + 2, t);
            p = t;
            break;
        case SRE_OP_INFO: {
            ok = skip_target(k, p + 1, end, &t) && p + 5 <= t;
            if (!ok)
                break;
            uint32_t fl = c[p + 2];
            if (fl & SRE_INFO_PREFIX) {
                ok = p + 7 <= t && c[p + 5] >= 1 && c[p + 6] <= c[p + 5] &&
                     p + 7 + 2 * (int64_t)c[p + 5] == t;
            } else if (fl & SRE_INFO_CHARSET) {
                ok = check_set(k, p + 5, t);
            } else {
                ok = p + 5 == t;
            }
            p = t;
            break;
        }
        case SRE_OP_BRANCH: {
            int64_t q = p + 1, tail = -1;
            while (ok) {
                if (q >= end) {
                    ok = false;
                    break;
                }
                if (c[q] == 0) {
                    q += 1;
                    break;
                }
                ok = skip_target(k, q, end, &t) && t - q >= 3 && c[t - 2] == SRE_OP_JUMP &&
                     check_block(k, q + 1, t - 2);
                if (!ok)
                    break;
                int64_t jt = (t - 1) + (int64_t)c[t - 1];
                if (tail < 0)
                    tail = jt;
                ok = jt == tail;
                q = t;
            }
            ok = ok && (tail < 0 || tail == q);
            p = q;
            break;
        }
        case SRE_OP_GROUPREF_EXISTS: {
            ok = p + 3 <= end && c[p + 1] < (uint64_t)k->groups;
            if (!ok)
                break;
            t = p + 1 + (int64_t)c[p + 2];
            ok = c[p + 2] >= 2 && t <= end;
            if (!ok)
                break;
            /* yes JUMP no: the yes branch ends with a jump over the no branch */
            if (t - 2 >= p + 3 && c[t - 2] == SRE_OP_JUMP) {
                int64_t e = (t - 1) + (int64_t)c[t - 1];
                if (e >= t && e <= end && check_block(k, p + 3, t - 2) && check_block(k, t, e)) {
                    p = e;
                    break;
                }
            }
            ok = check_block(k, p + 3, t);
            p = t;
            break;
        }
        case SRE_OP_REPEAT: case SRE_OP_REPEAT_ONE: case SRE_OP_MIN_REPEAT_ONE:
        case SRE_OP_POSSESSIVE_REPEAT: case SRE_OP_POSSESSIVE_REPEAT_ONE: {
            ok = skip_target(k, p + 1, end, &t) && p + 4 <= t && c[p + 2] <= c[p + 3];
            if (!ok)
                break;
            if (op == SRE_OP_REPEAT) {
                ok = t < end && (c[t] == SRE_OP_MAX_UNTIL || c[t] == SRE_OP_MIN_UNTIL) && check_block(k, p + 4, t);
                p = t + 1;
            } else if (op == SRE_OP_POSSESSIVE_REPEAT) {
                /* as REPEAT: the skip reaches its closing SUCCESS */
                ok = t < end && c[t] == SRE_OP_SUCCESS && check_block(k, p + 4, t);
                p = t + 1;
            } else {
                ok = t - 1 >= p + 4 && c[t - 1] == SRE_OP_SUCCESS && check_item(k, p + 4, t - 1);
                p = t;
            }
            break;
        }
        case SRE_OP_ASSERT: case SRE_OP_ASSERT_NOT:
            ok = skip_target(k, p + 1, end, &t) && p + 4 <= t && c[t - 1] == SRE_OP_SUCCESS &&
                 check_block(k, p + 3, t - 1);
            p = t;
            break;
        case SRE_OP_ATOMIC_GROUP:
            ok = skip_target(k, p + 1, end, &t) && p + 3 <= t && c[t - 1] == SRE_OP_SUCCESS &&
                 check_block(k, p + 2, t - 1);
            p = t;
            break;
        default:   /* JUMP outside a branch, a stray UNTIL, set-only or unknown ops */
            ok = false;
            break;
        }
    }
    k->depth--;
    return ok && p == end;
}

bool sre_code_valid(const uint32_t *code, int64_t n, int64_t groups)
{
    Checker k = {code, n, groups, 0};
    return n > 0 && code[n - 1] == SRE_OP_SUCCESS && check_block(&k, 0, n);
}
