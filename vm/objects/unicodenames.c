/* Unicode character names: the code point of a name, for \N{...} escapes in
 * str literals and the unicode_escape codec. Names are matched as CPython
 * does: letters in any case, but Hangul syllables and CJK unified
 * ideographs ("CJK UNIFIED IDEOGRAPH-4E00") only in upper case;
 * aliases (NameAliases.txt) too. The tables are generated
 * (unicodenames_data.h, by unicodedb_gen.py). The first name() or lookup()
 * builds an index of them (where each word and each name starts, and hash
 * tables of both): unicodedata.name over every code point, as test_unicodedata
 * does, scanned the whole table once per character. */
#include "objects.h"
#include "strobj.h"

#include "unicodenames_data.h"

#include <stdatomic.h>
#include <stdlib.h>

#define UNI_MAX_NAME 256

static inline unsigned char ub(char c) { return (unsigned char)((unsigned char)c - UNI_BYTE_OFFSET); }

/* The index of the two tables: word_off[i] is where word i's length byte
 * is in uni_lexicon; names are in code point order, name_cp[i] the code
 * point of the i-th and name_off[i] where its length byte is in uni_names;
 * word_hash and name_hash (open addressing, mask + 1 slots) hold
 * index + 1 of a word by its text and of a name by its coded form. */
typedef struct {
    uint32_t word_off[UNI_NWORDS];
    uint32_t *name_cp, *name_off, nnames;
    uint32_t *word_hash, word_mask;
    uint32_t *name_hash, name_mask;
} NameIndex;

static _Atomic(NameIndex *) s_name_index;

static void out_of_memory(void)
{
    fputs("tmpy: fatal: out of memory for the index of Unicode names\n", stderr);
    abort();
}

/* FNV-1a over the bytes of a table (stored + UNI_BYTE_OFFSET) or plain ones. */
static uint32_t hash_bytes(const char *p, size_t n, bool stored)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (stored ? ub(p[i]) : (unsigned char)p[i])) * 16777619u;
    return h;
}

static uint32_t pow2_above(uint32_t n)
{
    uint32_t m = 1;
    while (m < 2 * n)
        m <<= 1;
    return m;
}

/* Reads one entry of uni_names at *p: its code point delta; *p left at its length byte. */
static uint32_t read_delta(const char **p)
{
    uint32_t delta = 0;
    for (int shift = 0;; shift += 7) {
        unsigned char b = ub(*(*p)++);
        delta |= (uint32_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return delta;
    }
}

/* Built once per process (kept: C state an STM abort does not undo; every
 * builder makes the same index, and a loser of the race frees its own). */
static NameIndex *name_index(void)
{
    NameIndex *ix = atomic_load_explicit(&s_name_index, memory_order_acquire);
    if (ix)
        return ix;
    ix = vm_malloc_kept(sizeof *ix);
    if (!ix)
        out_of_memory();
    const char *p = uni_lexicon;
    for (int i = 0; i < UNI_NWORDS; i++) {
        ix->word_off[i] = (uint32_t)(p - uni_lexicon);
        p += 1 + ub(*p);
    }
    const char *end = uni_names + sizeof uni_names - 1;
    uint32_t n = 0;
    for (p = uni_names; p < end; n++) {
        read_delta(&p);
        p += 1 + ub(*p);
    }
    ix->nnames = n;
    ix->name_cp = vm_malloc_kept(n * sizeof(uint32_t));
    ix->name_off = vm_malloc_kept(n * sizeof(uint32_t));
    ix->word_mask = pow2_above(UNI_NWORDS) - 1;
    ix->word_hash = vm_malloc_kept((ix->word_mask + 1) * sizeof(uint32_t));
    ix->name_mask = pow2_above(n) - 1;
    ix->name_hash = vm_malloc_kept((ix->name_mask + 1) * sizeof(uint32_t));
    if (!ix->name_cp || !ix->name_off || !ix->word_hash || !ix->name_hash)
        out_of_memory();
    memset(ix->word_hash, 0, (ix->word_mask + 1) * sizeof(uint32_t));
    memset(ix->name_hash, 0, (ix->name_mask + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < UNI_NWORDS; i++) {
        const char *w = uni_lexicon + ix->word_off[i];
        uint32_t h = hash_bytes(w + 1, ub(*w), true) & ix->word_mask;
        while (ix->word_hash[h])
            h = (h + 1) & ix->word_mask;
        ix->word_hash[h] = i + 1;
    }
    uint32_t c = (uint32_t)-1;
    p = uni_names;
    for (uint32_t i = 0; i < n; i++) {
        c += read_delta(&p);
        ix->name_cp[i] = c;
        ix->name_off[i] = (uint32_t)(p - uni_names);
        uint32_t h = hash_bytes(p + 1, ub(*p), true) & ix->name_mask;
        while (ix->name_hash[h])
            h = (h + 1) & ix->name_mask;
        ix->name_hash[h] = i + 1;
        p += 1 + ub(*p);
    }
    NameIndex *none = NULL;
    if (!atomic_compare_exchange_strong(&s_name_index, &none, ix)) {
        free(ix->name_cp);
        free(ix->name_off);
        free(ix->word_hash);
        free(ix->name_hash);
        free(ix);
        ix = none;
    }
    return ix;
}

/* Whether the stored bytes at t (length byte first) are the n plain bytes at w. */
static bool same_bytes(const char *t, const unsigned char *w, size_t n)
{
    if ((size_t)ub(*t) != n)
        return false;
    for (size_t k = 0; k < n; k++)
        if (ub(t[1 + k]) != w[k])
            return false;
    return true;
}

/* Index of one word in the lexicon; -1 if no name has it. */
static int word_index(const char *w, size_t n)
{
    NameIndex *ix = name_index();
    for (uint32_t h = hash_bytes(w, n, false) & ix->word_mask; ix->word_hash[h]; h = (h + 1) & ix->word_mask)
        if (same_bytes(uni_lexicon + ix->word_off[ix->word_hash[h] - 1], (const unsigned char *)w, n))
            return (int)ix->word_hash[h] - 1;
    return -1;
}

/* The name (upper case, words split by single spaces) coded as the table
 * codes names: its length, or -1 if a word is in no name. */
static int code_name(const char *name, size_t n, unsigned char *out, size_t cap)
{
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && name[i] != ' ')
            continue;
        int wi = word_index(name + start, i - start);
        if (wi < 0 || k + 2 > cap)
            return -1;
        if (wi < 0x80) {
            out[k++] = (unsigned char)wi;
        } else {
            out[k++] = (unsigned char)(0x80 | (wi >> 8));
            out[k++] = (unsigned char)(wi & 0xff);
        }
        start = i + 1;
    }
    return (int)k;
}

static bool lookup_table(const unsigned char *code, int len, uint32_t *cp)
{
    NameIndex *ix = name_index();
    for (uint32_t h = hash_bytes((const char *)code, (size_t)len, false) & ix->name_mask; ix->name_hash[h];
         h = (h + 1) & ix->name_mask) {
        uint32_t i = ix->name_hash[h] - 1;
        if (same_bytes(uni_names + ix->name_off[i], code, (size_t)len)) {
            *cp = ix->name_cp[i];
            return true;
        }
    }
    return false;
}

/* Hangul syllables: "HANGUL SYLLABLE " and the short names of the leading
 * consonant, vowel and trailing consonant (Unicode 3.12), longest first. */
static const char *const jamo_l[19] = {"G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S",
                                       "SS", "", "J", "JJ", "C", "K", "T", "P", "H"};
static const char *const jamo_v[21] = {"A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA", "WAE",
                                       "OE", "YO", "U", "WEO", "WE", "WI", "YU", "EU", "YI", "I"};
static const char *const jamo_t[28] = {"", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG",
                                       "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S",
                                       "SS", "NG", "J", "C", "K", "T", "P", "H"};

static int longest_jamo(const char *const *table, int count, const char **s, const char *end)
{
    int best = -1;
    size_t best_len = 0;
    for (int i = 0; i < count; i++) {
        size_t len = strlen(table[i]);
        if ((best < 0 || len > best_len) && (size_t)(end - *s) >= len && memcmp(*s, table[i], len) == 0) {
            best = i;
            best_len = len;
        }
    }
    if (best >= 0)
        *s += best_len;
    return best;
}

/* Hangul syllables and CJK unified ideographs are named by rule, in upper
 * case only (as CPython); the other rule-made names are table names to
 * CPython, so any case matches (upper is the name in upper case). */
static bool lookup_rules(const char *name, const char *upper, size_t n, uint32_t *cp)
{
    static const char hangul[] = "HANGUL SYLLABLE ";
    if (n >= sizeof hangul - 1 && memcmp(name, hangul, sizeof hangul - 1) == 0) {
        const char *s = name + sizeof hangul - 1, *end = name + n;
        int l = longest_jamo(jamo_l, 19, &s, end);
        int v = longest_jamo(jamo_v, 21, &s, end);
        int t = longest_jamo(jamo_t, 28, &s, end);
        if (l < 0 || v < 0 || t < 0 || s != end)
            return false;
        *cp = 0xac00 + (uint32_t)((l * 21 + v) * 28 + t);
        return true;
    }
    for (size_t i = 0; i < ARRAY_LEN(uni_rule_ranges); i++) {
        const UniRuleRange *r = &uni_rule_ranges[i];
        size_t plen = strlen(r->prefix);
        bool exact_case = strcmp(r->prefix, "CJK UNIFIED IDEOGRAPH-") == 0;
        const char *s = exact_case ? name : upper;
        if (n < plen || memcmp(s, r->prefix, plen) != 0)
            continue;
        size_t k = plen, digits = n - k;
        if (digits != 4 && digits != 5)
            return false;
        uint32_t v = 0;
        for (size_t j = k; j < n; j++) {
            char c = s[j];
            if (c >= '0' && c <= '9')
                v = v * 16 + (uint32_t)(c - '0');
            else if (c >= 'A' && c <= 'F')
                v = v * 16 + (uint32_t)(c - 'A' + 10);
            else
                return false;
        }
        for (size_t j = i; j < ARRAY_LEN(uni_rule_ranges); j++)
            if (strcmp(uni_rule_ranges[j].prefix, r->prefix) == 0 && v >= uni_rule_ranges[j].lo &&
                v <= uni_rule_ranges[j].hi) {
                *cp = v;
                return true;
            }
        return false;
    }
    return false;
}

bool uni_lookup_name(const char *name, size_t n, uint32_t *cp)
{
    if (n == 0 || n >= UNI_MAX_NAME)
        return false;
    char upper[UNI_MAX_NAME];
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c >= 0x80 || c < 0x20)
            return false;
        upper[i] = (char)(c >= 'a' && c <= 'z' ? c - 32 : c);
    }
    if (lookup_rules(name, upper, n, cp))
        return true;
    for (int i = 0; i < UNI_NALIASES; i++)
        if (strlen(uni_aliases[i].name) == n && memcmp(uni_aliases[i].name, upper, n) == 0) {
            *cp = uni_aliases[i].cp;
            return true;
        }
    unsigned char code[2 * UNI_MAX_NAME];
    int len = code_name(upper, n, code, sizeof code);
    return len > 0 && lookup_table(code, len, cp);
}

/* The word with index wi of the lexicon: its text and length. */
static const char *word_at(int wi, size_t *len)
{
    const char *p = uni_lexicon + name_index()->word_off[wi];
    *len = ub(*p);
    return p + 1;
}

/* The name of cp (unicodedata.name) into out, NUL-terminated; false if cp
 * has none or it does not fit. */
bool uni_name_of(uint32_t cp, char *out, size_t cap)
{
    if (cp >= 0xac00 && cp <= 0xd7a3) {
        uint32_t s = cp - 0xac00;
        int n = snprintf(out, cap, "HANGUL SYLLABLE %s%s%s", jamo_l[s / (21 * 28)], jamo_v[s / 28 % 21], jamo_t[s % 28]);
        return n > 0 && (size_t)n < cap;
    }
    for (size_t i = 0; i < ARRAY_LEN(uni_rule_ranges); i++)
        if (cp >= uni_rule_ranges[i].lo && cp <= uni_rule_ranges[i].hi) {
            int n = snprintf(out, cap, "%s%04X", uni_rule_ranges[i].prefix, (unsigned)cp);
            return n > 0 && (size_t)n < cap;
        }
    NameIndex *ix = name_index();
    uint32_t lo = 0, hi = ix->nnames;   /* the first name at or above cp, in [lo, hi] */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (ix->name_cp[mid] < cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == ix->nnames || ix->name_cp[lo] != cp)
        return false;
    const char *p = uni_names + ix->name_off[lo];
    int n = ub(*p++);
    size_t k = 0;
    for (int j = 0; j < n;) {
        int wi = ub(p[j++]);
        if (wi & 0x80)
            wi = (wi & 0x7f) << 8 | ub(p[j++]);
        size_t len;
        const char *w = word_at(wi, &len);
        if (k + len + 2 > cap)
            return false;
        if (k)
            out[k++] = ' ';
        for (size_t q = 0; q < len; q++)
            out[k++] = (char)ub(w[q]);
    }
    out[k] = 0;
    return true;
}
