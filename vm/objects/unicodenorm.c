/* Unicode normalisation (UAX #15): full decomposition (canonical or
 * compatibility; Hangul syllables by rule), canonical ordering of
 * combining marks, canonical composition. The compiler applies NFKC to
 * identifiers outside ASCII as CPython does (PEP 3131: `ﬁ = 5` binds
 * `fi`); the unicodedata module's normalize() runs the same code over the
 * same tables (uni_norm_db), or over its Unicode 3.2.0 ones. The tables
 * are generated from CPython's unicodedata (unicodenorm_data.h). */
#include "objects.h"
#include "strobj.h"

#include <stdlib.h>

typedef struct UniCcc { uint32_t lo, hi; uint8_t ccc; } UniCcc;
#include "unicodenorm_data.h"

const UniNormDb uni_norm_db = {
    ARRAY_LEN(uni_decomp_cp), uni_decomp_cp, uni_decomp_tag, uni_decomp_off, uni_decomp_data,
    uni_decomp_tag_names, ARRAY_LEN(uni_pairs), uni_pairs, NULL, 0,
};

enum { S_BASE = 0xac00, L_BASE = 0x1100, V_BASE = 0x1161, T_BASE = 0x11a7,
       L_COUNT = 19, V_COUNT = 21, T_COUNT = 28, N_COUNT = V_COUNT * T_COUNT, S_COUNT = L_COUNT * N_COUNT };

static int uni_combining(uint32_t cp)
{
    size_t lo = 0, hi = ARRAY_LEN(uni_ccc);
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (cp < uni_ccc[mid].lo)
            hi = mid;
        else if (cp > uni_ccc[mid].hi)
            lo = mid + 1;
        else
            return uni_ccc[mid].ccc;
    }
    return 0;
}

int uni_decomp_index(const UniNormDb *db, uint32_t cp)
{
    int lo = 0, hi = db->ndecomp;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (cp < db->decomp_cp[mid])
            hi = mid;
        else if (cp > db->decomp_cp[mid])
            lo = mid + 1;
        else
            return mid;
    }
    return -1;
}

/* The primary composite of a pair; 0 if none. */
static uint32_t compose_pair(const UniNormDb *db, uint32_t a, uint32_t b)
{
    if (a >= L_BASE && a < L_BASE + L_COUNT && b >= V_BASE && b < V_BASE + V_COUNT)
        return S_BASE + ((a - L_BASE) * V_COUNT + (b - V_BASE)) * T_COUNT;
    if (a >= S_BASE && a < S_BASE + S_COUNT && (a - S_BASE) % T_COUNT == 0 && b > T_BASE && b < T_BASE + T_COUNT)
        return a + (b - T_BASE);
    int lo = 0, hi = db->npairs;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        const UniPair *p = &db->pairs[mid];
        if (a < p->first || (a == p->first && b < p->second))
            hi = mid;
        else if (a > p->first || b > p->second)
            lo = mid + 1;
        else
            return p->composite;
    }
    return 0;
}

typedef struct { uint32_t *v; size_t n, cap; bool failed; } CpBuf;

static void cp_push(CpBuf *b, uint32_t cp)
{
    if (b->failed)
        return;
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        uint32_t *v = realloc(b->v, cap * sizeof *v);
        if (!v) {
            b->failed = true;
            return;
        }
        b->v = v;
        b->cap = cap;
    }
    b->v[b->n++] = cp;
}

/* The full decomposition of cp: the one-level mappings applied recursively. */
static void decompose(const UniNormDb *db, CpBuf *out, uint32_t cp, bool compat)
{
    if (cp >= S_BASE && cp < S_BASE + S_COUNT) {
        uint32_t s = cp - S_BASE;
        cp_push(out, L_BASE + s / N_COUNT);
        cp_push(out, V_BASE + (s % N_COUNT) / T_COUNT);
        if (s % T_COUNT)
            cp_push(out, T_BASE + s % T_COUNT);
        return;
    }
    for (int k = 0; k < db->ncorrections; k++) {
        if (db->corrections[k][0] == cp) {
            decompose(db, out, db->corrections[k][1], compat);
            return;
        }
    }
    int i = uni_decomp_index(db, cp);
    if (i < 0 || (db->decomp_tag[i] && !compat)) {
        cp_push(out, cp);
        return;
    }
    for (int k = db->decomp_off[i]; k < db->decomp_off[i + 1]; k++)
        decompose(db, out, db->decomp_data[k], compat);
}

uint32_t *uni_normalize(const UniNormDb *db, const uint32_t *in, size_t n, bool compose, bool compat, size_t *outn)
{
    CpBuf b = {0};
    for (size_t i = 0; i < n; i++)
        decompose(db, &b, in[i], compat);
    /* canonical ordering: a stable sort of each run of non-starters */
    for (size_t i = 1; i < b.n && !b.failed; i++) {
        int c = uni_combining(b.v[i]);
        if (!c)
            continue;
        size_t j = i;
        uint32_t v = b.v[i];
        while (j > 0 && uni_combining(b.v[j - 1]) > c) {
            b.v[j] = b.v[j - 1];
            j--;
        }
        b.v[j] = v;
    }
    if (compose && b.n && !b.failed) {
        size_t out = 0;
        int64_t starter = -1;
        int last = -1;   /* ccc of the last character kept after the starter; -1: none */
        for (size_t i = 0; i < b.n; i++) {
            uint32_t cp = b.v[i];
            int c = uni_combining(cp);
            if (starter >= 0 && (last == -1 || (last != 0 && last < c))) {
                uint32_t comp = compose_pair(db, b.v[starter], cp);
                if (comp) {
                    b.v[starter] = comp;
                    continue;
                }
            }
            if (c == 0) {
                starter = (int64_t)out;
                last = -1;
            } else {
                last = c;
            }
            b.v[out++] = cp;
        }
        b.n = out;
    }
    if (b.failed) {
        free(b.v);
        return NULL;
    }
    if (!b.v)
        b.v = malloc(sizeof *b.v);   /* an empty result is not an error */
    *outn = b.n;
    return b.v;
}

char *uni_nfkc_utf8(const char *s, size_t n, size_t *outlen)
{
    CpBuf in = {0};
    for (size_t i = 0; i < n;) {
        int len;
        if (i + (size_t)utf8_lead_len((unsigned char)s[i]) > n)
            break;   /* a truncated sequence (the lexer never hands one over) */
        cp_push(&in, utf8_decode((const unsigned char *)s + i, &len));
        i += (size_t)len;
    }
    size_t k = 0;
    uint32_t *v = in.failed ? NULL : uni_normalize(&uni_norm_db, in.v, in.n, true, true, &k);
    free(in.v);
    if (!v)
        return NULL;
    char *res = malloc(k * 4 + 1);
    if (res) {
        size_t m = 0;
        for (size_t i = 0; i < k; i++)
            m += (size_t)utf8_encode(v[i], res + m);
        res[m] = 0;
        *outlen = m;
    }
    free(v);
    return res;
}
