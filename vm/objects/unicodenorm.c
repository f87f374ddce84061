/* NFKC normalisation (UAX #15), which the compiler applies to identifiers
 * outside ASCII as CPython does (PEP 3131: `ﬁ = 5` binds `fi`): full
 * compatibility decomposition (Hangul syllables by rule), canonical
 * ordering of combining marks, canonical composition. The tables are
 * generated from CPython's unicodedata (unicodenorm_data.h). */
#include "objects.h"
#include "strobj.h"

#include <stdlib.h>

#include "unicodenorm_data.h"

enum { S_BASE = 0xac00, L_BASE = 0x1100, V_BASE = 0x1161, T_BASE = 0x11a7,
       L_COUNT = 19, V_COUNT = 21, T_COUNT = 28, N_COUNT = V_COUNT * T_COUNT, S_COUNT = L_COUNT * N_COUNT };

static int ccc(uint32_t cp)
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

/* The decomposition of cp in the table: its index, or -1. */
static int decomp_index(uint32_t cp)
{
    int lo = 0, hi = UNI_NDECOMP;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (cp < uni_decomp_cp[mid])
            hi = mid;
        else if (cp > uni_decomp_cp[mid])
            lo = mid + 1;
        else
            return mid;
    }
    return -1;
}

/* The primary composite of a pair; 0 if none. */
static uint32_t compose(uint32_t a, uint32_t b)
{
    if (a >= L_BASE && a < L_BASE + L_COUNT && b >= V_BASE && b < V_BASE + V_COUNT)
        return S_BASE + ((a - L_BASE) * V_COUNT + (b - V_BASE)) * T_COUNT;
    if (a >= S_BASE && a < S_BASE + S_COUNT && (a - S_BASE) % T_COUNT == 0 && b > T_BASE && b < T_BASE + T_COUNT)
        return a + (b - T_BASE);
    size_t lo = 0, hi = ARRAY_LEN(uni_pairs);
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const UniPair *p = &uni_pairs[mid];
        if (a < p->first || (a == p->first && b < p->second))
            hi = mid;
        else if (a > p->first || b > p->second)
            lo = mid + 1;
        else
            return p->composite;
    }
    return 0;
}

typedef struct { uint32_t *v; size_t n, cap; } CpBuf;

static bool cp_push(CpBuf *b, uint32_t cp)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        uint32_t *v = realloc(b->v, cap * sizeof *v);
        if (!v)
            return false;
        b->v = v;
        b->cap = cap;
    }
    b->v[b->n++] = cp;
    return true;
}

static bool decompose(CpBuf *out, uint32_t cp)
{
    if (cp >= S_BASE && cp < S_BASE + S_COUNT) {
        uint32_t s = cp - S_BASE, t = s % T_COUNT;
        return cp_push(out, L_BASE + s / N_COUNT) && cp_push(out, V_BASE + (s % N_COUNT) / T_COUNT) &&
               (t == 0 || cp_push(out, T_BASE + t));
    }
    int i = decomp_index(cp);
    if (i < 0)
        return cp_push(out, cp);
    for (int k = uni_decomp_off[i]; k < uni_decomp_off[i + 1]; k++)
        if (!cp_push(out, uni_decomp_data[k]))
            return false;
    return true;
}

char *uni_nfkc_utf8(const char *s, size_t n, size_t *outlen)
{
    CpBuf d = {0};
    char *res = NULL;
    for (size_t i = 0; i < n;) {
        int len;
        if (i + (size_t)utf8_lead_len((unsigned char)s[i]) > n)
            break;   /* a truncated sequence (the lexer never hands one over) */
        uint32_t cp = utf8_decode((const unsigned char *)s + i, &len);
        i += (size_t)len;
        if (!decompose(&d, cp))
            goto out;
    }
    /* canonical order: each run of combining marks sorted (stably) by class */
    for (size_t i = 1; i < d.n; i++) {
        int c = ccc(d.v[i]);
        if (!c)
            continue;
        for (size_t j = i; j > 0 && ccc(d.v[j - 1]) > c; j--) {
            uint32_t t = d.v[j - 1];
            d.v[j - 1] = d.v[j];
            d.v[j] = t;
        }
    }
    /* composition (the reference algorithm of UAX #15) */
    size_t k = 0;
    if (d.n) {
        size_t starter = 0;
        int last = ccc(d.v[0]) ? 256 : 0;
        k = 1;
        for (size_t i = 1; i < d.n; i++) {
            uint32_t ch = d.v[i];
            int c = ccc(ch);
            uint32_t comp = compose(d.v[starter], ch);
            if (comp && (last < c || last == 0)) {
                d.v[starter] = comp;
                continue;
            }
            if (c == 0)
                starter = k;
            last = c;
            d.v[k++] = ch;
        }
    }
    res = malloc(k * 4 + 1);
    if (!res)
        goto out;
    size_t m = 0;
    for (size_t i = 0; i < k; i++)
        m += (size_t)utf8_encode(d.v[i], res + m);
    res[m] = 0;
    *outlen = m;
out:
    free(d.v);
    return res;
}
