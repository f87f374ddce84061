/* str: immutable Unicode text stored as UTF-8 (NUL-terminated), with its
 * length in code points and a cached hash. ASCII strings (length == nbytes)
 * index in O(1); other strings go through a per-thread cursor that makes
 * sequential indexing O(1) amortised. Also: interning, the one-char cache,
 * the str type with its slots and methods, and the str iterator. */
#define _GNU_SOURCE
#include "objects.h"
#include "strobj.h"
#include "containers.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

TypeObj *T_str, *T_str_iterator;
static TypeObj *T_str_ascii_iterator;

/* ------------------------------------------------------------------ */
/* UTF-8 helpers                                                       */
/* ------------------------------------------------------------------ */

int64_t utf8_count(const char *p, size_t n)
{
    /* Count the bytes that are not continuation bytes (10xxxxxx), a word at a time. */
    const unsigned char *s = (const unsigned char *)p;
    int64_t count = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (!(w & 0x8080808080808080ull)) {
            count += 8;
            continue;
        }
        /* continuation bytes have bit7 set and bit6 clear */
        uint64_t cont = w & ~(w << 1) & 0x8080808080808080ull;
        count += 8 - __builtin_popcountll(cont);
    }
    for (; i < n; i++)
        count += (s[i] & 0xc0) != 0x80;
    return count;
}

/* The valid prefix of p[0..n) and its code points in *count. strict: no
 * surrogates (the UTF-8 codec's rule); otherwise the encoded surrogates that
 * str itself stores (ED A0..BF xx) pass. */
static size_t utf8_scan(const char *p, size_t n, bool strict, int64_t *count)
{
    const unsigned char *s = (const unsigned char *)p;
    size_t i = 0;
    int64_t cps = 0;
    while (i < n) {
        /* ASCII run, a word at a time */
        while (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            if (w & 0x8080808080808080ull)
                break;
            i += 8;
            cps += 8;
        }
        if (i >= n)
            break;
        unsigned c = s[i];
        if (c < 0x80) {
            i++;
            cps++;
            continue;
        }
        size_t need;
        uint32_t min;
        if (c >= 0xc2 && c <= 0xdf)
            need = 1, min = 0x80;
        else if (c >= 0xe0 && c <= 0xef)
            need = 2, min = 0x800;
        else if (c >= 0xf0 && c <= 0xf4)
            need = 3, min = 0x10000;
        else
            break;
        if (i + need >= n)   /* truncated */
            break;
        uint32_t cp = c & (0x3f >> need);
        size_t k = 1;
        for (; k <= need; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                break;
            cp = (cp << 6) | (s[i + k] & 0x3f);
        }
        if (k <= need || cp < min || cp > 0x10ffff || (strict && cp >= 0xd800 && cp <= 0xdfff))
            break;
        i += need + 1;
        cps++;
    }
    *count = cps;
    return i;
}

size_t utf8_valid_prefix(const char *p, size_t n)
{
    int64_t count;
    return utf8_scan(p, n, true, &count);
}

/* ------------------------------------------------------------------ */
/* Allocation                                                          */
/* ------------------------------------------------------------------ */

/* Pinned (never moving) str: the caller keeps it reachable. */
static Obj str_alloc_pinned(const char *utf8, size_t n, int64_t length)
{
    size_t size = tm_type_size(&tm_types[TID_STR], n);
    Obj s = (Obj)tm_allocate_old(TID_STR, size);
    if (!s)
        return err_nomemory();
    STR(s)->nbytes = (int64_t)n;
    STR(s)->length = length;
    STR(s)->hash = -1;
    memcpy(VM_LINEAR(STR(s)->data), utf8, n);
    return s;
}

static Obj empty_str(void)
{
    if (unlikely(!g_empty_str)) {
        vm_tx_become_inevitable();   /* a C global root is written only by an inevitable transaction */
        if (g_empty_str)             /* made by another thread while we waited to become inevitable */
            return g_empty_str;
        g_empty_str = str_alloc_pinned("", 0, 0);
        if (!g_empty_str)
            return NULL;
        str_hash(g_empty_str);
        VM_GLOBAL_ROOT(g_empty_str);
    }
    return g_empty_str;
}

Obj str_alloc(int64_t nbytes, int64_t length)
{
    if (nbytes == 0)
        return empty_str();
    if (nbytes < 0 || (uint64_t)nbytes > (1ull << 40))
        return err_nomemory();
    /* tm_allocate_var's inline equivalent (nbytes is already bounded) */
    Obj s = (Obj)tm_allocate(TID_STR, tm_types[TID_STR].base_size + (size_t)nbytes);
    if (!s)
        return err_nomemory();
    STR(s)->nbytes = nbytes;
    STR(s)->length = length;
    STR(s)->hash = -1;
    return s;
}

static Obj char_cache[256];   /* the one-char Latin-1 strs, interned */
static Obj str_escape_decode(const char *p, size_t n, bool strict);
static Obj make_char(uint32_t cp);

Obj str_new(const char *utf8, size_t n)
{
    if (n == 0)
        return empty_str();
    if (n == 1 && (unsigned char)utf8[0] < 0x80) {
        Obj c = char_cache[(unsigned char)utf8[0]];
        return c ? c : make_char((unsigned char)utf8[0]);
    }
    /* A caller passing bytes of a GC object (str_cstr of another str) would
     * read freed memory after our allocation moved it: copy them out first. */
    char small[256], *heap;
    utf8 = stable_copy(utf8, n, small, sizeof small, &heap);
    if (!utf8)
        return err_nomemory();
    int64_t length;
    Obj s;
    if (likely(utf8_scan(utf8, n, false, &length) == n)) {
        s = str_alloc((int64_t)n, length);
        if (s)
            memcpy(VM_LINEAR(STR(s)->data), utf8, n);
    } else {
        s = str_escape_decode(utf8, n, false);
    }
    free(heap);
    return s;
}

/* p[0..n) (C memory) with every byte that does not belong to valid UTF-8
 * (strict: surrogates are not valid either) turned into U+DC00+byte, as the
 * surrogateescape error handler does. No str ever holds invalid UTF-8. */
static Obj str_escape_decode(const char *p, size_t n, bool strict)
{
    StrBuf b;
    sb_init(&b);
    size_t i = 0;
    while (i < n) {
        int64_t count;
        size_t ok = utf8_scan(p + i, n - i, strict, &count);
        sb_add(&b, p + i, ok);
        i += ok;
        if (i < n)
            sb_add_codepoint(&b, 0xdc00 + (unsigned char)p[i++]);
    }
    return sb_finish(&b);   /* valid now: str_new takes it as it is */
}

Obj str_from_os(const char *p, size_t n)
{
    char small[256], *heap;
    p = stable_copy(p, n, small, sizeof small, &heap);
    if (!p)
        return err_nomemory();
    int64_t length;
    Obj s = utf8_scan(p, n, true, &length) == n ? str_new(p, n) : str_escape_decode(p, n, true);
    free(heap);
    return s;
}

Obj str_from_os_cstr(const char *p) { return str_from_os(p, strlen(p)); }

size_t utf8_unescape_os(char *p, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c1 = i + 2 < n ? (unsigned char)p[i + 1] : 0;
        if ((unsigned char)p[i] == 0xed && (c1 == 0xb2 || c1 == 0xb3)) {
            p[o++] = (char)(((c1 & 3) << 6) | (p[i + 2] & 0x3f));
            i += 3;
        } else {
            p[o++] = p[i++];
        }
    }
    p[o] = 0;
    return o;
}

char *str_to_os(Obj s, size_t *np)
{
    const char *p = str_cstr(s);
    size_t n = (size_t)STR(s)->nbytes;
    if (utf8_has_surrogate(p, n)) {
        Obj *r = vm_roots(1);
        r[0] = str_encode(s, "utf-8", "surrogateescape");   /* UnicodeEncodeError for other surrogates */
        char *out = NULL;
        if (r[0]) {
            n = (size_t)BYTES(r[0])->length;
            out = malloc(n + 1);
            if (out) {
                memcpy(out, (const char *)VM_LINEAR(BYTES(r[0])->data), n);
                out[n] = 0;
            } else {
                err_nomemory();
            }
        }
        vm_unroots(r);
        if (out && np)
            *np = n;
        return out;
    }
    char *out = malloc(n + 1);
    if (!out)
        return err_nomemory(), NULL;
    memcpy(out, p, n + 1);
    if (np)
        *np = n;
    return out;
}

const char *stable_copy(const char *data, size_t n, char *small, size_t smalln, char **heap)
{
    *heap = NULL;
    if (likely(!in_gc_heap(data)))
        return data;
    if (n <= smalln) {
        memcpy(small, data, n);
        return small;
    }
    *heap = malloc(n);
    if (*heap)
        memcpy(*heap, data, n);
    return *heap;
}

Obj str_from_cstr(const char *s) { return str_new(s, strlen(s)); }

Obj str_from_format(const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return err_nomemory();
    if ((size_t)n < sizeof small)
        return str_new(small, (size_t)n);
    char *big = malloc((size_t)n + 1);
    if (!big)
        return err_nomemory();
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    Obj s = str_new(big, (size_t)n);
    free(big);
    return s;
}

/* ------------------------------------------------------------------ */
/* Hash, equality, comparison                                          */
/* ------------------------------------------------------------------ */

static inline uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

/* Our own 64-bit hash: two multiply-rotate lanes over 8-byte words, then a
 * final avalanche. Not CPython's (not randomised). */
static uint64_t hash_bytes(const unsigned char *p, size_t n)
{
    const uint64_t K1 = 0x9e3779b97f4a7c15ull, K2 = 0xc2b2ae3d27d4eb4full, K3 = 0x165667b19e3779f9ull;
    uint64_t h1 = K3 ^ (n * K1), h2 = K2 + n;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        uint64_t a, b;
        memcpy(&a, p + i, 8);
        memcpy(&b, p + i + 8, 8);
        h1 = rotl64(h1 ^ (a * K2), 31) * K1;
        h2 = rotl64(h2 ^ (b * K1), 29) * K2;
    }
    if (i + 8 <= n) {
        uint64_t a;
        memcpy(&a, p + i, 8);
        h1 = rotl64(h1 ^ (a * K2), 31) * K1;
        i += 8;
    }
    if (i < n) {
        uint64_t a = 0;
        memcpy(&a, p + i, n - i);
        h2 = rotl64(h2 ^ (a * K1), 29) * K2;
    }
    uint64_t h = h1 ^ rotl64(h2, 17);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return h;
}

static inline int64_t fix_hash(uint64_t h)
{
    int64_t r = (int64_t)h;
    return r == -1 ? -2 : r;
}

int64_t hash_data(const void *p, size_t n) { return fix_hash(hash_bytes(p, n)); }

int64_t str_hash(Obj s)
{
    int64_t h = STR(s)->hash;
    if (likely(h != -1))
        return h;
    h = fix_hash(hash_bytes((const unsigned char *)str_cstr(s), (size_t)STR(s)->nbytes));
    vm_cache_store(&STR(s)->hash, h);
    return h;
}

bool str_eq(Obj a, Obj b)
{
    if (a == b)
        return true;
    int64_t n = STR(a)->nbytes;
    if (n != STR(b)->nbytes || STR(a)->length != STR(b)->length)
        return false;
    int64_t ha = STR(a)->hash, hb = STR(b)->hash;
    if (ha != -1 && hb != -1 && ha != hb)
        return false;
    return memcmp(str_cstr(a), str_cstr(b), (size_t)n) == 0;
}

bool str_eq_cstr(Obj s, const char *c)
{
    size_t n = strlen(c);
    return (size_t)STR(s)->nbytes == n && memcmp(str_cstr(s), c, n) == 0;
}

/* UTF-8 byte order is code point order (surrogates included). */
static int str_compare(Obj a, Obj b)
{
    if (a == b)
        return 0;
    int64_t na = STR(a)->nbytes, nb = STR(b)->nbytes;
    int c = memcmp(str_cstr(a), str_cstr(b), (size_t)(na < nb ? na : nb));
    if (c)
        return c < 0 ? -1 : 1;
    return na < nb ? -1 : na > nb ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* Interning: a C hash table of pinned strs, kept alive by one pinned  */
/* ArrayObj that is a global root.                                     */
/* ------------------------------------------------------------------ */

static Obj *itab;              /* open addressing, NULL = empty; entries never move */
static size_t itab_mask, itab_count;
static Obj intern_keep;        /* ArrayObj listing every interned str */
static pthread_mutex_t intern_lock = PTHREAD_MUTEX_INITIALIZER;

static Obj intern_find(const char *p, size_t n, int64_t h)
{
    if (!itab)
        return NULL;
    for (size_t i = (size_t)h & itab_mask;; i = (i + 1) & itab_mask) {
        Obj e = itab[i];
        if (!e)
            return NULL;
        if (STR(e)->hash == h && (size_t)STR(e)->nbytes == n && memcmp(str_cstr(e), p, n) == 0)
            return e;
    }
}

static void itab_insert(Obj s)
{
    size_t i = (size_t)STR(s)->hash & itab_mask;
    while (itab[i])
        i = (i + 1) & itab_mask;
    itab[i] = s;
}

/* Room for one more entry in the C table (under intern_lock). */
static bool itab_reserve(void)
{
    if (!itab || (itab_count + 1) * 2 > itab_mask + 1) {
        size_t cap = itab ? (itab_mask + 1) * 2 : 4096;
        Obj *old = itab;
        size_t oldcap = itab ? itab_mask + 1 : 0;
        itab = calloc(cap, sizeof(Obj));
        if (!itab) {
            itab = old;
            return false;
        }
        itab_mask = cap - 1;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i])
                itab_insert(old[i]);
        free(old);
    }
    return true;
}

/* Room for one more entry in the keep-alive array (allocates: not under
 * intern_lock, and only by the one inserter, see intern_bytes). */
static bool keep_reserve(void)
{
    int64_t keepcap = intern_keep ? ARRAY(intern_keep)->length : 0;
    if ((int64_t)itab_count >= keepcap) {
        int64_t cap = keepcap ? keepcap * 2 : 2048;
        Obj a = (Obj)tm_allocate_old(TID_ARRAY, tm_type_size(&tm_types[TID_ARRAY], (uintptr_t)cap));
        if (!a)
            return false;
        ARRAY(a)->length = cap;
        for (int64_t i = 0; i < keepcap; i++)
            ARRAY(a)->items[i] = ARRAY(intern_keep)->items[i];
        if (!intern_keep) {
            intern_keep = a;
            VM_GLOBAL_ROOT(intern_keep);
        } else {
            intern_keep = a;
        }
    }
    return true;
}

/* The interned str with these bytes (created pinned if new). */
static Obj intern_bytes(const char *p, size_t n, int64_t length)
{
    int64_t h = fix_hash(hash_bytes((const unsigned char *)p, n));
    pthread_mutex_lock(&intern_lock);
    Obj s = intern_find(p, n, h);
    pthread_mutex_unlock(&intern_lock);
    if (s)
        return s;
    /* A new entry. The C table is not transactional: the transaction becomes
     * inevitable (STM), so no abort can leave a str in it that was never
     * committed, and there is one inserter at a time (under the GIL too).
     * Allocation runs without intern_lock: it may park this thread while
     * another commits, and lookups take the lock without allocating. */
    vm_tx_become_inevitable();   /* moves nothing */
    /* p may point into a movable object: copy before allocating */
    char small[256], *heap;
    const char *src = stable_copy(p, n, small, sizeof small, &heap);
    if (!src)
        return err_nomemory();
    if (!keep_reserve()) {
        free(heap);
        return err_nomemory();
    }
    pthread_mutex_lock(&intern_lock);
    s = intern_find(src, n, h);   /* inserted before we became the inserter? */
    pthread_mutex_unlock(&intern_lock);
    if (s) {
        free(heap);
        return s;
    }
    if (length < 0 && utf8_scan(src, n, false, &length) != n) {
        /* not UTF-8 (a C caller's bytes): intern the escaped str instead */
        s = str_escape_decode(src, n, false);
        free(heap);
        return s ? str_intern(s) : NULL;
    }
    s = str_alloc_pinned(src, n, length);
    free(heap);
    if (!s)
        return NULL;
    STR(s)->hash = h;
    VM_WRITE(intern_keep);
    ARRAY(intern_keep)->items[itab_count] = s;
    pthread_mutex_lock(&intern_lock);
    if (!itab_reserve()) {
        pthread_mutex_unlock(&intern_lock);
        return err_nomemory();
    }
    itab_count++;
    itab_insert(s);
    pthread_mutex_unlock(&intern_lock);
    return s;
}

Obj str_intern_cstr(const char *s) { return intern_bytes(s, strlen(s), -1); }

Obj str_intern(Obj s)
{
    s = vm_unwrap(s);
    int64_t h = str_hash(s);
    size_t n = (size_t)STR(s)->nbytes;
    pthread_mutex_lock(&intern_lock);
    Obj e = intern_find(str_cstr(s), n, h);
    pthread_mutex_unlock(&intern_lock);
    if (e)
        return e;
    return intern_bytes(str_cstr(s), n, STR(s)->length);
}

/* ------------------------------------------------------------------ */
/* Characters                                                          */
/* ------------------------------------------------------------------ */

static Obj make_char(uint32_t cp)
{
    char buf[4];
    int n = utf8_encode(cp, buf);
    Obj s = intern_bytes(buf, (size_t)n, 1);
    if (s)
        char_cache[cp] = s;
    return s;
}

Obj str_from_codepoint(uint32_t cp)
{
    if (cp < 256) {
        Obj c = char_cache[cp];
        return c ? c : make_char(cp);
    }
    char buf[4];
    int n = utf8_encode(cp, buf);
    Obj s = str_alloc(n, 1);
    if (s)
        memcpy(VM_LINEAR(STR(s)->data), buf, (size_t)n);
    return s;
}

/* ------------------------------------------------------------------ */
/* Code point index -> byte offset                                     */
/* ------------------------------------------------------------------ */

/* The last position looked up in a non-ASCII string. Objects move or die
 * only in a collection, so the entry is trusted only while the collection
 * count (tm_gc_collections) is unchanged. */
static __thread struct {
    Obj s;
    uint64_t stamp;
    int64_t cp, byte;
} cursor;

/* Forget the cursor (an STM abort reuses nursery addresses without a
 * collection: the abort path must call this). */
void str_cursor_reset(void) { cursor.s = NULL; }

static int64_t scan_forward(const unsigned char *p, int64_t b, int64_t cp, int64_t target)
{
    while (cp < target) {
        /* skip 8 ASCII bytes at once when we can */
        if (target - cp >= 8) {
            uint64_t w;
            memcpy(&w, p + b, 8);
            if (!(w & 0x8080808080808080ull)) {
                b += 8;
                cp += 8;
                continue;
            }
        }
        b += utf8_lead_len(p[b]);
        cp++;
    }
    return b;
}

static int64_t scan_backward(const unsigned char *p, int64_t b, int64_t cp, int64_t target)
{
    while (cp > target) {
        b--;
        while ((p[b] & 0xc0) == 0x80)
            b--;
        cp--;
    }
    return b;
}

int64_t str_byte_offset(Obj s, int64_t i)
{
    int64_t n = STR(s)->nbytes, len = STR(s)->length;
    if (n == len)
        return i;
    if (i <= 0)
        return 0;
    if (i >= len)
        return n;
    const unsigned char *p = (const unsigned char *)str_cstr(s);
    if (n <= 64)
        return scan_forward(p, 0, 0, i);
    int64_t from_cp = 0, from_b = 0, dist = i;
    if (len - i < dist)
        from_cp = len, from_b = n, dist = len - i;
    uint64_t stamp = tm_gc_collections();
    if (cursor.s == s && cursor.stamp == stamp && cursor.byte <= n && cursor.cp <= len) {
        int64_t d = i > cursor.cp ? i - cursor.cp : cursor.cp - i;
        if (d < dist)
            from_cp = cursor.cp, from_b = cursor.byte, dist = d;
    }
    int64_t b = from_cp <= i ? scan_forward(p, from_b, from_cp, i) : scan_backward(p, from_b, from_cp, i);
    cursor.s = s;
    cursor.stamp = stamp;
    cursor.cp = i;
    cursor.byte = b;
    return b;
}

/* A str from bytes [b0, b1) of the str in *sp (a root slot); ncp < 0: count. */
static Obj substr_bytes(Obj *sp, int64_t b0, int64_t b1, int64_t ncp)
{
    int64_t n = b1 - b0;
    Obj s = *sp;
    if (n <= 0)
        return empty_str();
    if (b0 == 0 && n == STR(s)->nbytes)
        return s;
    const unsigned char *p = (const unsigned char *)str_cstr(s) + b0;
    if (ncp < 0)
        ncp = str_is_ascii(s) ? n : utf8_count((const char *)p, (size_t)n);
    if (ncp == 1) {
        int len;
        uint32_t cp = utf8_decode(p, &len);
        if (cp < 256)
            return str_from_codepoint(cp);
    }
    Obj r = str_alloc(n, ncp);
    if (!r)
        return NULL;
    memcpy(VM_LINEAR(STR(r)->data), str_cstr(*sp) + b0, (size_t)n);
    return r;
}

Obj str_substr(Obj s, int64_t start, int64_t stop)
{
    if (start >= stop)
        return empty_str();
    if (start == 0 && stop == STR(s)->length)
        return s;
    int64_t b0 = str_byte_offset(s, start);
    int64_t b1 = str_byte_offset(s, stop);
    Obj *r = vm_roots(1);
    r[0] = s;
    Obj res = substr_bytes(&r[0], b0, b1, stop - start);
    vm_unroots(r);
    return res;
}

static Obj str_char_at(Obj s, int64_t i)
{
    if (str_is_ascii(s))
        return str_from_codepoint((unsigned char)STR(s)->data[i]);
    int64_t b = str_byte_offset(s, i);
    int len;
    uint32_t cp = utf8_decode((const unsigned char *)str_cstr(s) + b, &len);
    return str_from_codepoint(cp);
}

/* ------------------------------------------------------------------ */
/* Concatenation, repetition, join                                     */
/* ------------------------------------------------------------------ */

Obj str_concat(Obj a, Obj b)
{
    int64_t na = STR(a)->nbytes, nb = STR(b)->nbytes;
    if (nb == 0)
        return a;
    if (na == 0)
        return b;
    Obj *r = vm_roots(2);
    r[0] = a;
    r[1] = b;
    Obj s = str_alloc(na + nb, STR(a)->length + STR(b)->length);
    if (s) {
        char *d = VM_LINEAR(STR(s)->data);
        memcpy(d, str_cstr(r[0]), (size_t)na);
        memcpy(d + na, str_cstr(r[1]), (size_t)nb);
    }
    vm_unroots(r);
    return s;
}

static Obj str_mul(Obj s, int64_t n)
{
    int64_t nb = STR(s)->nbytes;
    if (n <= 0 || nb == 0)
        return empty_str();
    if (n == 1)
        return s;
    if (STR(s)->length > INT64_MAX / n) {
        err_set(E_OverflowError, "repeated string is too long");
        return NULL;
    }
    if ((uint64_t)nb > vm_max_object_size() / (uint64_t)n)
        return err_nomemory();
    Obj *r = vm_roots(1);
    r[0] = s;
    Obj res = str_alloc(nb * n, STR(s)->length * n);
    if (res) {
        char *d = VM_LINEAR(STR(res)->data);
        memcpy(d, str_cstr(r[0]), (size_t)nb);
        mem_repeat(d, nb, nb * n);
    }
    vm_unroots(r);
    return res;
}

void mem_repeat(void *d, int64_t n, int64_t total)
{
    /* doubling copies */
    for (int64_t done = n; done < total;) {
        int64_t k = done < total - done ? done : total - done;
        memcpy((char *)d + done, d, (size_t)k);
        done += k;
    }
}

/* sep.join(items) for items in root slots (a list or tuple's items are
 * re-read through the container held in *seqp). */
static Obj join_items(Obj *sepp, Obj *seqp)
{
    Obj seq = *seqp;
    bool is_list = IS_LIST(seq);
    int64_t n = is_list ? LIST_LEN(seq) : TUPLE_LEN(seq);
#define ITEM(k) (is_list ? LIST_ITEMS(*seqp)[k] : TUPLE_ITEMS(*seqp)[k])
    if (n == 0)
        return empty_str();
    int64_t nbytes = 0, length = 0;
    for (int64_t k = 0; k < n; k++) {
        Obj it = ITEM(k);
        Obj sv = str_value(it);
        if (!sv) {
            err_format(E_TypeError, "sequence item %ld: expected str instance, %s found", (long)k,
                       type_name(it));
            return NULL;
        }
        nbytes += STR(sv)->nbytes;
        length += STR(sv)->length;
    }
    if (n == 1 && IS_STR(ITEM(0)))
        return ITEM(0);
    Obj sep = *sepp;
    nbytes += STR(sep)->nbytes * (n - 1);
    length += STR(sep)->length * (n - 1);
    Obj res = str_alloc(nbytes, length);
    if (!res)
        return NULL;
    char *d = VM_LINEAR(STR(res)->data);
    sep = *sepp;
    const char *sp = str_cstr(sep);
    size_t sn = (size_t)STR(sep)->nbytes;
    for (int64_t k = 0; k < n; k++) {
        if (k && sn) {
            memcpy(d, sp, sn);
            d += sn;
        }
        Obj sv = vm_unwrap(ITEM(k));
        size_t m = (size_t)STR(sv)->nbytes;
        memcpy(d, str_cstr(sv), m);
        d += m;
    }
#undef ITEM
    return res;
}

Obj str_join(Obj sep, Obj iterable)
{
    Obj *r = vm_roots(2);
    r[0] = vm_unwrap(sep);
    if (IS_LIST(iterable) || IS_TUPLE(iterable)) {
        r[1] = iterable;
    } else {
        r[1] = iterable;
        Obj it = vm_iter(iterable);
        if (!it) {
            if (err_matches(E_TypeError)) {
                err_clear();
                err_set(E_TypeError, "can only join an iterable");
            }
            vm_unroots(r);
            return NULL;
        }
        r[1] = vm_list_from_iter(it);
        if (!r[1]) {
            vm_unroots(r);
            return NULL;
        }
    }
    Obj res = join_items(&r[0], &r[1]);
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* repr / ascii                                                        */
/* ------------------------------------------------------------------ */

static const char hexdigits[] = "0123456789abcdef";

void sb_add_escape(StrBuf *b, uint32_t cp)
{
    char buf[12];
    int k = 0;
    buf[k++] = '\\';
    int nd;
    if (cp < 0x100)
        buf[k++] = 'x', nd = 2;
    else if (cp < 0x10000)
        buf[k++] = 'u', nd = 4;
    else
        buf[k++] = 'U', nd = 8;
    for (int i = nd - 1; i >= 0; i--)
        buf[k++] = hexdigits[(cp >> (4 * i)) & 0xf];
    sb_add(b, buf, (size_t)k);
}

static Obj str_repr(Obj s)
{
    s = vm_unwrap(s);
    const unsigned char *p = (const unsigned char *)str_cstr(s);
    size_t n = (size_t)STR(s)->nbytes;
    bool has_sq = memchr(p, '\'', n) != NULL;
    bool has_dq = has_sq && memchr(p, '"', n) != NULL;
    char quote = has_sq && !has_dq ? '"' : '\'';
    /* plain printable ASCII without the quote or a backslash: copy */
    bool plain = str_is_ascii(s);
    for (size_t i = 0; plain && i < n; i++) {
        unsigned c = p[i];
        if (c < 0x20 || c == 0x7f || c == '\\' || c == (unsigned)quote)
            plain = false;
    }
    if (plain) {
        Obj *r = vm_roots(1);
        r[0] = s;
        Obj res = str_alloc((int64_t)n + 2, (int64_t)n + 2);
        if (res) {
            char *d = VM_LINEAR(STR(res)->data);
            d[0] = quote;
            memcpy(d + 1, str_cstr(r[0]), n);
            d[n + 1] = quote;
        }
        vm_unroots(r);
        return res;
    }
    StrBuf b;
    sb_init(&b);
    sb_addc(&b, quote);
    for (size_t i = 0; i < n;) {
        unsigned c = p[i];
        if (c < 0x80) {
            i++;
            if (c == (unsigned)quote || c == '\\') {
                sb_addc(&b, '\\');
                sb_addc(&b, (char)c);
            } else if (c == '\n') {
                sb_add(&b, "\\n", 2);
            } else if (c == '\r') {
                sb_add(&b, "\\r", 2);
            } else if (c == '\t') {
                sb_add(&b, "\\t", 2);
            } else if (c < 0x20 || c == 0x7f) {
                sb_add_escape(&b, c);
            } else {
                sb_addc(&b, (char)c);
            }
            continue;
        }
        int len;
        uint32_t cp = utf8_decode(p + i, &len);
        if (uni_isprintable(cp))
            sb_add(&b, (const char *)p + i, (size_t)len);
        else
            sb_add_escape(&b, cp);
        i += (size_t)len;
    }
    sb_addc(&b, quote);
    return sb_finish(&b);
}

Obj str_ascii_escape(Obj s)
{
    s = vm_unwrap(s);
    if (str_is_ascii(s))
        return s;
    const unsigned char *p = (const unsigned char *)str_cstr(s);
    size_t n = (size_t)STR(s)->nbytes;
    StrBuf b;
    sb_init(&b);
    for (size_t i = 0; i < n;) {
        if (p[i] < 0x80) {
            sb_addc(&b, (char)p[i++]);
            continue;
        }
        int len;
        uint32_t cp = utf8_decode(p + i, &len);
        sb_add_escape(&b, cp);
        i += (size_t)len;
    }
    return sb_finish(&b);
}

/* ------------------------------------------------------------------ */
/* Iterator                                                            */
/* ------------------------------------------------------------------ */

static Obj str_iter_new(Obj s)
{
    Obj *r = vm_roots(1);
    r[0] = vm_unwrap(s);
    IterObj *it = (IterObj *)tm_allocate(TID_ITER, sizeof(IterObj));   /* no barrier: a new object */
    if (!it) {
        vm_unroots(r);
        return err_nomemory();
    }
    it->cls = (Obj)(str_is_ascii(r[0]) ? T_str_ascii_iterator : T_str_iterator);
    it->a = r[0];
    it->i = 0;   /* byte offset of the next char */
    it->n = 0;   /* its code point index */
    vm_unroots(r);
    return (Obj)it;
}

static Obj str_iter_next(Obj self)
{
    IterObj *it = ITER(self);
    Obj s = it->a;
    if (!s)
        return NULL;
    int64_t b = it->i;
    if (b >= STR(s)->nbytes) {
        VM_WRITE(self);
        it->a = NULL;
        return NULL;
    }
    int len;
    uint32_t cp = utf8_decode((const unsigned char *)str_cstr(s) + b, &len);
    VM_WRITE(self);
    it->i = b + len;
    it->n++;
    return str_from_codepoint(cp);
}

static Obj str_iter_length_hint(Obj *args, size_t nargs, Obj kwnames)
{
    IterObj *it = ITER(args[0]);
    Obj s = it->a;
    return MAKE_SMALLINT(s ? STR(s)->length - it->n : 0);
}

/* Pickling: (iter, (s,), code point index); an exhausted one is iter(''). */
static Obj str_iter_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = vm_getattr_cstr(g_builtins_module, "iter");
    if (!r[1])
        goto out;
    Obj s = ITER(r[0])->a;
    Obj t = tuple_pack(1, s ? s : g_empty_str);
    if (t)
        res = s ? tuple_pack(3, r[1], t, MAKE_SMALLINT(ITER(r[0])->n)) : tuple_pack(2, r[1], t);
out:
    vm_unroots(r);
    return res;
}

/* __setstate__(index): position at that code point (clamped to the string). */
static Obj str_iter_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t n;
    if (arg_i64(args[1], &n) < 0)
        return NULL;
    Obj self = args[0];
    Obj s = ITER(self)->a;
    if (!s)
        return g_None;
    if (n < 0)
        n = 0;
    if (n > STR(s)->length)
        n = STR(s)->length;
    const unsigned char *p = (const unsigned char *)str_cstr(s);
    int64_t b = 0;
    for (int64_t k = 0; k < n; k++) {
        int len;
        utf8_decode(p + b, &len);
        b += len;
    }
    VM_WRITE(self);
    ITER(self)->i = b;
    ITER(self)->n = n;
    return g_None;
}

/* ------------------------------------------------------------------ */
/* Argument helpers                                                    */
/* ------------------------------------------------------------------ */

/* self of a str method (a str or an instance of a str subclass). */
static Obj self_str(Obj v, const char *meth)
{
    Obj s = str_value(v);
    const char *dot = strchr(meth, '.');
    if (dot)
        meth = dot + 1;
    if (!s)
        err_format(E_TypeError, "descriptor '%s' for 'str' objects doesn't apply to a '%s' object", meth,
                   type_name(v));
    return s;
}

/* An integer argument (width, count, ...): __index__, OverflowError if huge. */
int arg_i64(Obj v, int64_t *out)
{
    if (IS_SMALLINT(v)) {
        *out = SMALLINT_VAL(v);
        return 0;
    }
    return vm_index_i64(v, out);
}

int arg_ssize(Obj v, int64_t *out)
{
    if (arg_i64(v, out) == 0)
        return 0;
    if (err_matches(E_OverflowError)) {
        err_clear();
        err_set(E_OverflowError, "Python int too large to convert to C ssize_t");
    }
    return -1;
}

int arg_c_int(Obj v, int64_t *out)
{
    if (arg_i64(v, out) < 0) {
        if (!err_matches(E_OverflowError))
            return -1;
        err_clear();
        *out = INT64_MAX;
    }
    if (*out > INT_MAX || *out < INT_MIN) {
        err_set(E_OverflowError, "Python int too large to convert to C int");
        return -1;
    }
    return 0;
}

/* start/end of find() and friends: None or an index, clamped (as slices are). */
int slice_arg(Obj v, int64_t *out)
{
    if (!v || IS_NONE(v))
        return 0;
    if (IS_SMALLINT(v)) {
        *out = SMALLINT_VAL(v);
        return 0;
    }
    if (!IS_INT(v) && !TYPE(v)->nb_index) {
        err_set(E_TypeError, "slice indices must be integers or None or have an __index__ method");
        return -1;
    }
    Obj i = vm_index(v);
    if (!i)
        return -1;
    if (IS_SMALLINT(i)) {
        *out = SMALLINT_VAL(i);
        return 0;
    }
    if (TID(i) == TID_BOOL) {
        *out = ((BoolObj *)i)->value;
        return 0;
    }
    *out = int_sign(i) < 0 ? INT64_MIN / 4 : INT64_MAX / 4;
    return 0;
}

/* Python's ADJUST_INDICES: end clamped to [0, len], start made >= 0. */
void adjust_range(int64_t *start, int64_t *end, int64_t len)
{
    if (*end > len)
        *end = len;
    else if (*end < 0) {
        *end += len;
        if (*end < 0)
            *end = 0;
    }
    if (*start < 0) {
        *start += len;
        if (*start < 0)
            *start = 0;
    }
}

/* Last occurrence of needle in hay (NULL if none). */
const char *mem_rfind(const char *hay, size_t hn, const char *needle, size_t nn)
{
    if (nn == 0)
        return hay + hn;
    if (nn > hn)
        return NULL;
    if (nn == 1)
        return memrchr(hay, needle[0], hn);
    size_t lim = hn - nn + 1;   /* candidate starts are [0, lim) */
    while (lim > 0) {
        const char *c = memrchr(hay, needle[0], lim);
        if (!c)
            return NULL;
        if (memcmp(c + 1, needle + 1, nn - 1) == 0)
            return c;
        lim = (size_t)(c - hay);
    }
    return NULL;
}

int64_t mem_count(const char *hay, size_t hn, const char *needle, size_t nn)
{
    const char *p = hay, *lim = hay + hn;
    int64_t count = 0;
    for (;;) {
        const char *hit = mem_find(p, (size_t)(lim - p), needle, nn);
        if (!hit)
            return count;
        count++;
        p = hit + nn;
    }
}

/* ------------------------------------------------------------------ */
/* Slots                                                               */
/* ------------------------------------------------------------------ */

static Obj str_tp_repr(Obj s) { return str_repr(s); }

static Obj str_tp_str(Obj s) { return vm_unwrap(s); }

static int64_t str_tp_hash(Obj s) { return str_hash(vm_unwrap(s)); }

static int64_t str_tp_len(Obj s) { return STR(vm_unwrap(s))->length; }

static int str_tp_bool(Obj s) { return STR(vm_unwrap(s))->nbytes != 0; }

static Obj str_richcompare(Obj a, Obj b, int op)
{
    a = str_value(a);
    b = str_value(b);
    if (!a || !b)
        return g_NotImplemented;
    if (op == CMP_EQ)
        return vm_bool(str_eq(a, b));
    if (op == CMP_NE)
        return vm_bool(!str_eq(a, b));
    int c = str_compare(a, b);
    switch (op) {
    case CMP_LT: return vm_bool(c < 0);
    case CMP_LE: return vm_bool(c <= 0);
    case CMP_GT: return vm_bool(c > 0);
    default: return vm_bool(c >= 0);
    }
}

/* A step-slice of s: code points start, start+step, ... (count of them). */
static Obj str_slice_step(Obj s, int64_t start, int64_t step, int64_t count)
{
    Obj *r = vm_roots(1);
    r[0] = s;
    Obj res;
    if (str_is_ascii(s)) {
        res = str_alloc(count, count);
        if (res) {
            char *d = VM_LINEAR(STR(res)->data);
            const char *p = str_cstr(r[0]);
            for (int64_t k = 0; k < count; k++)
                d[k] = p[start + k * step];
        }
    } else {
        StrBuf b;
        sb_init(&b);
        for (int64_t k = 0; k < count; k++) {
            int64_t off = str_byte_offset(r[0], start + k * step);
            const unsigned char *p = (const unsigned char *)str_cstr(r[0]) + off;
            sb_add(&b, (const char *)p, (size_t)utf8_lead_len(*p));
        }
        res = sb_finish(&b);
    }
    vm_unroots(r);
    return res;
}

static Obj str_getitem(Obj s, Obj key)
{
    s = vm_unwrap(s);
    int64_t len = STR(s)->length;
    if (IS_SMALLINT(key)) {
        int64_t i = SMALLINT_VAL(key);
        if (i < 0)
            i += len;
        if ((uint64_t)i >= (uint64_t)len) {
            err_set(E_IndexError, "string index out of range");
            return NULL;
        }
        return str_char_at(s, i);
    }
    if (TID(key) == TID_SLICE) {
        Obj *r = vm_roots(1);
        r[0] = s;
        int64_t start, stop, step;
        int64_t n = slice_indices(key, len, &start, &stop, &step);
        Obj res = NULL;
        if (n >= 0) {
            if (n == 0)
                res = empty_str();
            else if (step == 1)
                res = str_substr(r[0], start, start + n);
            else
                res = str_slice_step(r[0], start, step, n);
        }
        vm_unroots(r);
        return res;
    }
    Obj *r = vm_roots(1);
    r[0] = s;
    int64_t i;
    int k = seq_index_arg(key, &i);
    Obj res = NULL;
    if (k == 0) {
        err_format(E_TypeError, "string indices must be integers, not '%s'", type_name(key));
    } else if (k > 0) {
        len = STR(r[0])->length;
        if (i < 0)
            i += len;
        if ((uint64_t)i >= (uint64_t)len)
            err_set(E_IndexError, "string index out of range");
        else
            res = str_char_at(r[0], i);
    }
    vm_unroots(r);
    return res;
}

static int str_contains(Obj s, Obj sub)
{
    s = vm_unwrap(s);
    Obj t = str_value(sub);
    if (!t) {
        err_format(E_TypeError, "'in <string>' requires string as left operand, not %s", type_name(sub));
        return -1;
    }
    size_t tn = (size_t)STR(t)->nbytes;
    if (tn == 0)
        return 1;
    return mem_find(str_cstr(s), (size_t)STR(s)->nbytes, str_cstr(t), tn) != NULL;
}

/* A user class that may take over a binary op through its reflected method. */
static bool defers_to(Obj other, const char *rname)
{
    return (TYPE(other)->flags & TPF_HEAPTYPE) && vm_lookup_special(other, rname) != NULL;
}

static Obj str_add(Obj a, Obj b)
{
    Obj x = str_value(a);
    if (!x)
        return g_NotImplemented;
    Obj y = str_value(b);
    if (!y) {
        if (defers_to(b, "__radd__"))
            return g_NotImplemented;
        err_format(E_TypeError, "can only concatenate str (not \"%s\") to str", type_name(b));
        return NULL;
    }
    return str_concat(x, y);
}

/* Sequence repetition for str, bytes and bytearray: which operand is the
 * count; returns 1 with *count set, 0 for NotImplemented, -1 on error. */
int repeat_count(Obj count, int64_t *out)
{
    if (IS_SMALLINT(count)) {
        *out = SMALLINT_VAL(count);
        return 1;
    }
    if (!IS_INT(count) && !TYPE(count)->nb_index) {
        if (defers_to(count, "__rmul__"))
            return 0;
        err_format(E_TypeError, "can't multiply sequence by non-int of type '%s'", type_name(count));
        return -1;
    }
    char tname[64];   /* count may move: keep its type name */
    snprintf(tname, sizeof tname, "%s", type_name(count));
    Obj v = vm_index(count);
    if (!v)
        return -1;
    if (IS_SMALLINT(v)) {
        *out = SMALLINT_VAL(v);
        return 1;
    }
    if (TID(v) == TID_BOOL) {
        *out = ((BoolObj *)v)->value;
        return 1;
    }
    if (int_as_i64(v, out) < 0) {
        err_clear();
        err_format(E_OverflowError, "cannot fit '%s' into an index-sized integer", tname);
        return -1;
    }
    return 1;
}

Obj seq_mul_slot(Obj a, Obj b, Obj (*value)(Obj), Obj (*repeat)(Obj, int64_t))
{
    Obj s = value(a), c = b;
    if (!s) {
        s = value(b);
        c = a;
        if (!s)
            return g_NotImplemented;
    }
    Obj *r = vm_roots(1);
    r[0] = s;
    int64_t n;
    int k = repeat_count(c, &n);
    Obj res = k < 0 ? NULL : k == 0 ? g_NotImplemented : repeat(r[0], n);
    vm_unroots(r);
    return res;
}

static Obj str_mul_slot(Obj a, Obj b) { return seq_mul_slot(a, b, str_value, str_mul); }

static Obj str_mod_slot(Obj a, Obj b)
{
    Obj s = str_value(a);
    if (!s)
        return g_NotImplemented;
    return str_percent_format(s, b);
}

/* str(object='', encoding='utf-8', errors='strict') */
static Obj str_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"object", "encoding", "errors", NULL};
    (void)type;   /* vm_new_for wraps the value for a subclass */
    Obj *o = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("str", args, nargs, kwnames, names, 0, 3, o) < 0)
        goto out;
    if (!o[1] && !o[2]) {
        if (!o[0])
            res = empty_str();
        else
            res = vm_str(o[0]);
    } else {
        if (!o[0])
            res = empty_str();
        else
            res = str_from_bytes_args(o[0], o[1], o[2]);
    }
out:
    vm_unroots(o);
    return res;
}

/* ------------------------------------------------------------------ */
/* Methods: searching                                                  */
/* ------------------------------------------------------------------ */

#define SELF(name)                          \
    Obj self = self_str(args[0], name);     \
    if (!self)                              \
        return NULL

/* sub in s[start:end] (code points): its index, or -1. */
static int64_t find_in(Obj s, Obj sub, int64_t start, int64_t end, bool reverse)
{
    int64_t len = STR(s)->length;
    adjust_range(&start, &end, len);
    if (start > len || end - start < STR(sub)->length)
        return -1;
    int64_t bs = str_byte_offset(s, start), be = str_byte_offset(s, end);
    const char *p = str_cstr(s);
    const char *q = str_cstr(sub);
    size_t qn = (size_t)STR(sub)->nbytes;
    const char *hit = reverse ? mem_rfind(p + bs, (size_t)(be - bs), q, qn)
                              : mem_find(p + bs, (size_t)(be - bs), q, qn);
    if (!hit)
        return -1;
    int64_t off = hit - (p + bs);
    return start + (str_is_ascii(s) ? off : utf8_count(p + bs, (size_t)off));
}

static int64_t count_in(Obj s, Obj sub, int64_t start, int64_t end)
{
    int64_t len = STR(s)->length;
    adjust_range(&start, &end, len);
    if (start > len || end - start < STR(sub)->length)
        return 0;
    if (STR(sub)->length == 0)
        return end - start + 1;
    int64_t bs = str_byte_offset(s, start), be = str_byte_offset(s, end);
    return mem_count(str_cstr(s) + bs, (size_t)(be - bs), str_cstr(sub), (size_t)STR(sub)->nbytes);
}

/* Parses (sub[, start[, end]]); returns the unwrapped self and sub in
 * s/sub, or false with an error. */
static bool search_args(const char *name, Obj *args, size_t nargs, Obj kwnames, Obj *s, Obj *sub,
                        int64_t *start, int64_t *end)
{
    if (!self_str(args[0], name))
        return false;
    if (!str_value(args[1])) {
        err_format(E_TypeError, "must be str, not %s", type_name(args[1]));
        return false;
    }
    *start = 0;
    *end = INT64_MAX / 4;
    if (nargs > 2 && slice_arg(args[2], start) < 0)
        return false;
    if (nargs > 3 && slice_arg(args[3], end) < 0)
        return false;
    *s = vm_unwrap(args[0]);   /* re-read: __index__ may have run */
    *sub = vm_unwrap(args[1]);
    return true;
}

static Obj find_method(const char *name, Obj *args, size_t nargs, Obj kwnames, bool reverse, bool raise)
{
    Obj s, sub;
    int64_t start, end;
    if (!search_args(name, args, nargs, kwnames, &s, &sub, &start, &end))
        return NULL;
    int64_t i = find_in(s, sub, start, end, reverse);
    if (i < 0 && raise) {
        err_set(E_ValueError, "substring not found");
        return NULL;
    }
    return MAKE_SMALLINT(i);
}

static Obj m_find(Obj *args, size_t nargs, Obj kw) { return find_method("find", args, nargs, kw, false, false); }
static Obj m_rfind(Obj *args, size_t nargs, Obj kw) { return find_method("rfind", args, nargs, kw, true, false); }
static Obj m_index(Obj *args, size_t nargs, Obj kw) { return find_method("index", args, nargs, kw, false, true); }
static Obj m_rindex(Obj *args, size_t nargs, Obj kw) { return find_method("rindex", args, nargs, kw, true, true); }

static Obj m_count(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s, sub;
    int64_t start, end;
    if (!search_args("count", args, nargs, kwnames, &s, &sub, &start, &end))
        return NULL;
    return MAKE_SMALLINT(count_in(s, sub, start, end));
}

static bool tail_match(Obj s, Obj sub, int64_t start, int64_t end, bool at_end)
{
    int64_t len = STR(s)->length;
    adjust_range(&start, &end, len);
    if (start > len || end - start < STR(sub)->length)
        return false;
    int64_t bs = str_byte_offset(s, start), be = str_byte_offset(s, end);
    int64_t qn = STR(sub)->nbytes;
    if (be - bs < qn)
        return false;
    const char *p = str_cstr(s) + (at_end ? be - qn : bs);
    return memcmp(p, str_cstr(sub), (size_t)qn) == 0;
}

static Obj startsend(const char *name, Obj *args, size_t nargs, Obj kwnames, bool at_end)
{
    if (!self_str(args[0], name))
        return NULL;
    int64_t start = 0, end = INT64_MAX / 4;
    if (nargs > 2 && slice_arg(args[2], &start) < 0)
        return NULL;
    if (nargs > 3 && slice_arg(args[3], &end) < 0)
        return NULL;
    Obj s = vm_unwrap(args[0]), pre = args[1];
    if (IS_TUPLE(pre)) {
        for (int64_t k = 0; k < TUPLE_LEN(pre); k++) {
            Obj it = str_value(TUPLE_ITEMS(pre)[k]);
            if (!it) {
                err_format(E_TypeError, "tuple for %s must only contain str, not %s", name,
                           type_name(TUPLE_ITEMS(pre)[k]));
                return NULL;
            }
            if (tail_match(s, it, start, end, at_end))
                return g_True;
        }
        return g_False;
    }
    Obj sub = str_value(pre);
    if (!sub) {
        err_format(E_TypeError, "%s first arg must be str or a tuple of str, not %s", name, type_name(pre));
        return NULL;
    }
    return vm_bool(tail_match(s, sub, start, end, at_end));
}

static Obj m_startswith(Obj *args, size_t nargs, Obj kw) { return startsend("startswith", args, nargs, kw, false); }
static Obj m_endswith(Obj *args, size_t nargs, Obj kw) { return startsend("endswith", args, nargs, kw, true); }

/* ------------------------------------------------------------------ */
/* Methods: splitting and joining                                      */
/* ------------------------------------------------------------------ */

/* The code point ending at byte b (b > 0) and its start. */
static inline uint32_t decode_before(const unsigned char *p, int64_t b, int64_t *start)
{
    int64_t k = b - 1;
    while (k > 0 && (p[k] & 0xc0) == 0x80)
        k--;
    int len;
    *start = k;
    return utf8_decode(p + k, &len);
}

static inline uint32_t decode_at(const unsigned char *p, int64_t b, int *len)
{
    if (p[b] < 0x80) {
        *len = 1;
        return p[b];
    }
    return utf8_decode(p + b, len);
}

static void list_reverse_inplace(Obj list)
{
    int64_t n = LIST_LEN(list);
    if (n < 2)
        return;
    VM_WRITE(LIST(list)->array);
    Obj __seg_gs *items = LIST_ITEMS(list);
    for (int64_t i = 0, j = n - 1; i < j; i++, j--) {
        Obj t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

/* Whitespace of str.split() (ASCII part) and of bytes.split() (all of it). */
static const unsigned char ascii_space[128] = {
    [9] = 1, [10] = 1, [11] = 1, [12] = 1, [13] = 1, [28] = 1, [29] = 1, [30] = 1, [31] = 1, [32] = 1,
};
static const unsigned char byte_space[256] = {[9] = 1, [10] = 1, [11] = 1, [12] = 1, [13] = 1, [32] = 1};

/* First byte index >= i in p[0..n) whose char is (not) whitespace. */
static inline int64_t scan_space(const unsigned char *p, int64_t i, int64_t n, bool skip_space, bool utf8)
{
    while (i < n) {
        unsigned c = p[i];
        if (!utf8) {
            if ((bool)byte_space[c] != skip_space)
                break;
            i++;
        } else if (c < 0x80) {
            if ((bool)ascii_space[c] != skip_space)
                break;
            i++;
        } else {
            int len;
            if (uni_isspace(utf8_decode(p + i, &len)) != skip_space)
                break;
            i += len;
        }
    }
    return i;
}

/* Scanning backwards from byte j: the start of the run of (non-)whitespace ending at j. */
static inline int64_t scan_space_back(const unsigned char *p, int64_t j, bool skip_space, bool utf8)
{
    while (j > 0) {
        unsigned c = p[j - 1];
        if (!utf8) {
            if ((bool)byte_space[c] != skip_space)
                break;
            j--;
        } else if (c < 0x80) {
            if ((bool)ascii_space[c] != skip_space)
                break;
            j--;
        } else {
            int64_t k;
            if (uni_isspace(decode_before(p, j, &k)) != skip_space)
                break;
            j = k;
        }
    }
    return j;
}

/* Append piece(*sp)[b0:b1) to the list in *lp. */
static inline int add_piece(seq_piece_fn piece, Obj *sp, Obj *lp, int64_t b0, int64_t b1)
{
    Obj v = piece(sp, b0, b1);
    return v ? list_append(*lp, v) : -1;
}

int split_into(Obj *sp, Obj *sepp, Obj *lp, int64_t maxsplit, bool rev, bool utf8, seq_data_fn data,
               seq_piece_fn piece)
{
    if (maxsplit < 0)
        maxsplit = INT64_MAX;
    int64_t n, qn;
    /* The data (and separator) pointers are re-read after every piece:
     * making a piece allocates. */
#define P ((const unsigned char *)data(*sp, &n))
    P;
    if (!*sepp && !rev) {
        int64_t i = 0;
        for (;;) {
            const unsigned char *p = P;
            i = scan_space(p, i, n, true, utf8);
            if (i >= n)
                break;
            if (maxsplit-- <= 0)
                return add_piece(piece, sp, lp, i, n);
            int64_t j = scan_space(p, i, n, false, utf8);
            if (add_piece(piece, sp, lp, i, j) < 0)
                return -1;
            i = j;
        }
        return 0;
    }
    if (!*sepp) {
        int64_t j = n;
        for (;;) {
            const unsigned char *p = P;
            j = scan_space_back(p, j, true, utf8);
            if (j <= 0)
                break;
            if (maxsplit-- <= 0) {
                if (add_piece(piece, sp, lp, 0, j) < 0)
                    return -1;
                break;
            }
            int64_t i = scan_space_back(p, j, false, utf8);
            if (add_piece(piece, sp, lp, i, j) < 0)
                return -1;
            j = i;
        }
    } else if (!rev) {
        int64_t i = 0;
        while (maxsplit-- > 0) {
            const char *p = (const char *)P, *q = data(*sepp, &qn);
            const char *hit = mem_find(p + i, (size_t)(n - i), q, (size_t)qn);
            if (!hit)
                break;
            int64_t j = hit - p;
            if (add_piece(piece, sp, lp, i, j) < 0)
                return -1;
            i = j + qn;
        }
        return add_piece(piece, sp, lp, i, n);
    } else {
        int64_t j = n;
        while (maxsplit-- > 0) {
            const char *p = (const char *)P, *q = data(*sepp, &qn);
            const char *hit = mem_rfind(p, (size_t)j, q, (size_t)qn);
            if (!hit)
                break;
            int64_t i = hit - p;
            if (add_piece(piece, sp, lp, i + qn, j) < 0)
                return -1;
            j = i;
        }
        if (add_piece(piece, sp, lp, 0, j) < 0)
            return -1;
    }
#undef P
    list_reverse_inplace(*lp);
    return 0;
}

static const char *str_data(Obj s, int64_t *n)
{
    *n = STR(s)->nbytes;
    return str_cstr(s);
}

static Obj str_piece(Obj *sp, int64_t b0, int64_t b1) { return substr_bytes(sp, b0, b1, -1); }

static Obj split_common(Obj *args, size_t nargs, Obj kwnames, bool rev)
{
    static const char *const names[] = {"sep", "maxsplit", NULL};
    const char *fname = rev ? "rsplit" : "split";
    if (!self_str(args[0], fname))
        return NULL;
    Obj *o = vm_roots(4);   /* sep, maxsplit, self, result */
    Obj res = NULL;
    if (vm_parse_args(fname, args + 1, nargs - 1, kwnames, names, 0, 2, o) < 0)
        goto out;
    int64_t maxsplit = -1;
    if (o[1] && arg_i64(o[1], &maxsplit) < 0)
        goto out;
    if (o[0] && !IS_NONE(o[0])) {
        Obj sv = str_value(o[0]);
        if (!sv) {
            err_format(E_TypeError, "must be str or None, not %s", type_name(o[0]));
            goto out;
        }
        if (STR(sv)->nbytes == 0) {
            err_set(E_ValueError, "empty separator");
            goto out;
        }
        o[0] = sv;
    } else {
        o[0] = NULL;
    }
    o[2] = vm_unwrap(args[0]);
    o[3] = list_new_capacity(o[0] ? 8 : 12);
    if (o[3] && split_into(&o[2], &o[0], &o[3], maxsplit, rev, true, str_data, str_piece) == 0)
        res = o[3];
out:
    vm_unroots(o);
    return res;
}

static Obj m_split(Obj *args, size_t nargs, Obj kw) { return split_common(args, nargs, kw, false); }
static Obj m_rsplit(Obj *args, size_t nargs, Obj kw) { return split_common(args, nargs, kw, true); }

static bool is_linebreak(uint32_t c)
{
    return c == '\n' || c == '\r' || c == 0x0b || c == 0x0c || c == 0x1c || c == 0x1d || c == 0x1e ||
           c == 0x85 || c == 0x2028 || c == 0x2029;
}

int splitlines_into(Obj *sp, Obj *lp, bool keepends, bool utf8, seq_data_fn data, seq_piece_fn piece)
{
    int64_t n, i = 0;
    data(*sp, &n);
    while (i < n) {
        int64_t j = i, eol = n, next = n;
        const unsigned char *p = (const unsigned char *)data(*sp, &n);   /* re-read: pieces allocate */
        while (j < n) {
            int len = 1;
            uint32_t c = utf8 ? decode_at(p, j, &len) : p[j];
            if (utf8 ? is_linebreak(c) : c == '\n' || c == '\r') {
                eol = j;
                next = j + len;
                if (c == '\r' && next < n && p[next] == '\n')
                    next++;
                break;
            }
            j += len;
        }
        if (add_piece(piece, sp, lp, i, keepends ? next : eol) < 0)
            return -1;
        i = next;
    }
    return 0;
}

static Obj m_splitlines(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"keepends", NULL};
    if (!self_str(args[0], "splitlines"))
        return NULL;
    Obj *o = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("splitlines", args + 1, nargs - 1, kwnames, names, 0, 1, o) < 0)
        goto out;
    int keep = 0;
    if (o[0] && (keep = vm_is_true(o[0])) < 0)
        goto out;
    o[1] = vm_unwrap(args[0]);
    o[2] = list_new_capacity(8);
    if (o[2] && splitlines_into(&o[1], &o[2], keep, true, str_data, str_piece) == 0)
        res = o[2];
out:
    vm_unroots(o);
    return res;
}

static Obj partition_common(Obj *args, size_t nargs, Obj kwnames, bool rev)
{
    const char *fname = rev ? "str.rpartition" : "str.partition";
    SELF(fname);
    Obj sep = str_value(args[1]);
    if (!sep) {
        err_format(E_TypeError, "must be str, not %s", type_name(args[1]));
        return NULL;
    }
    if (STR(sep)->nbytes == 0) {
        err_set(E_ValueError, "empty separator");
        return NULL;
    }
    Obj *o = vm_roots(4);
    o[0] = self;
    o[1] = sep;
    Obj res = NULL;
    const char *p = str_cstr(self);
    int64_t n = STR(self)->nbytes, qn = STR(sep)->nbytes;
    const char *hit = rev ? mem_rfind(p, (size_t)n, str_cstr(sep), (size_t)qn)
                          : mem_find(p, (size_t)n, str_cstr(sep), (size_t)qn);
    if (!hit) {
        Obj e = empty_str();
        res = rev ? tuple_pack(3, e, e, o[0]) : tuple_pack(3, o[0], e, e);
    } else {
        int64_t i = hit - p;
        o[2] = substr_bytes(&o[0], 0, i, -1);
        if (!o[2])
            goto out;
        o[3] = substr_bytes(&o[0], i + qn, STR(o[0])->nbytes, -1);
        if (!o[3])
            goto out;
        res = tuple_pack(3, o[2], o[1], o[3]);
    }
out:
    vm_unroots(o);
    return res;
}

static Obj m_partition(Obj *args, size_t nargs, Obj kw) { return partition_common(args, nargs, kw, false); }
static Obj m_rpartition(Obj *args, size_t nargs, Obj kw) { return partition_common(args, nargs, kw, true); }

static Obj m_join(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("join");
    return str_join(self, args[1]);
}

/* ------------------------------------------------------------------ */
/* Methods: strip, replace, affixes                                    */
/* ------------------------------------------------------------------ */

enum { STRIP_LEFT = 1, STRIP_RIGHT = 2 };

static bool in_wide(const uint32_t *w, int64_t n, uint32_t cp)
{
    for (int64_t k = 0; k < n; k++)
        if (w[k] == cp)
            return true;
    return false;
}

static Obj strip_common(Obj *args, size_t nargs, Obj kwnames, int which, const char *fname)
{
    SELF(fname);
    Obj chars = nargs > 1 && !IS_NONE(args[1]) ? args[1] : NULL;
    if (chars && !(chars = str_value(chars))) {
        err_format(E_TypeError, "%s arg must be None or str", fname);
        return NULL;
    }
    const unsigned char *p = (const unsigned char *)str_cstr(self);
    int64_t n = STR(self)->nbytes;
    /* membership: an ASCII table, plus the list of non-ASCII chars */
    bool table[128];
    uint32_t *wide = NULL;
    int64_t nwide = 0;
    if (chars) {
        memset(table, 0, sizeof table);
        const unsigned char *c = (const unsigned char *)str_cstr(chars);
        int64_t cn = STR(chars)->nbytes;
        if (!str_is_ascii(chars)) {
            wide = malloc(sizeof(uint32_t) * (size_t)STR(chars)->length);
            if (!wide)
                return err_nomemory();
        }
        for (int64_t k = 0; k < cn;) {
            int len;
            uint32_t cp = decode_at(c, k, &len);
            if (cp < 128)
                table[cp] = true;
            else
                wide[nwide++] = cp;
            k += len;
        }
    }
#define MEMBER(cp) (!chars ? str_isspace_cp(cp) : (cp) < 128 ? table[cp] : in_wide(wide, nwide, cp))
    int64_t i = 0, j = n;
    if (which & STRIP_LEFT) {
        while (i < n) {
            int len;
            uint32_t cp = decode_at(p, i, &len);
            if (!MEMBER(cp))
                break;
            i += len;
        }
    }
    if (which & STRIP_RIGHT) {
        while (j > i) {
            int64_t k = j - 1;
            uint32_t cp = p[j - 1] < 0x80 ? p[j - 1] : decode_before(p, j, &k);
            if (!MEMBER(cp))
                break;
            j = k;
        }
    }
#undef MEMBER
    free(wide);
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj res = substr_bytes(&r[0], i, j, -1);
    vm_unroots(r);
    return res;
}

static Obj m_strip(Obj *args, size_t nargs, Obj kw) { return strip_common(args, nargs, kw, 3, "strip"); }
static Obj m_lstrip(Obj *args, size_t nargs, Obj kw) { return strip_common(args, nargs, kw, 1, "lstrip"); }
static Obj m_rstrip(Obj *args, size_t nargs, Obj kw) { return strip_common(args, nargs, kw, 2, "rstrip"); }

static Obj m_replace(Obj *args, size_t nargs, Obj kwnames)
{
    if (!self_str(args[0], "replace"))
        return NULL;
    for (int k = 1; k <= 2; k++) {
        if (!str_value(args[k])) {
            err_format(E_TypeError, "replace() argument %d must be str, not %s", k, type_name(args[k]));
            return NULL;
        }
    }
    int64_t count = -1;
    if (nargs > 3 && arg_i64(args[3], &count) < 0)
        return NULL;
    Obj self = vm_unwrap(args[0]), old = vm_unwrap(args[1]), new = vm_unwrap(args[2]);
    if (count < 0)
        count = INT64_MAX;
    const char *p = str_cstr(self), *q = str_cstr(old), *w = str_cstr(new);
    int64_t n = STR(self)->nbytes, qn = STR(old)->nbytes, wn = STR(new)->nbytes;
    if (count == 0 || (qn > 0 && !mem_find(p, (size_t)n, q, (size_t)qn)))
        return self;
    StrBuf b;
    sb_init(&b);
    sb_replace(&b, p, n, q, qn, w, wn, count, true);
    return sb_finish(&b);
}

/* Does p.replace(q, w, count) (growing: wn > qn) fit in an object? The
 * bound n + (n / qn) * (wn - qn) is tried first; replacements are counted
 * only when it is too big. */
static bool replace_fits(const char *p, int64_t n, const char *q, int64_t qn, int64_t wn, int64_t count,
                         bool utf8)
{
    uint64_t max = vm_max_object_size(), grow = (uint64_t)(wn - qn);
    uint64_t k = qn ? (uint64_t)(n / qn) : (uint64_t)(utf8 ? utf8_count(p, (size_t)n) : n) + 1;
    if (k > (uint64_t)count)
        k = (uint64_t)count;
    if (k == 0 || grow <= (max - (uint64_t)n) / k)
        return true;
    if (qn) {
        k = (uint64_t)mem_count(p, (size_t)n, q, (size_t)qn);
        if (k > (uint64_t)count)
            k = (uint64_t)count;
    }
    return k == 0 || grow <= (max - (uint64_t)n) / k;
}

void sb_replace(StrBuf *b, const char *p, int64_t n, const char *q, int64_t qn, const char *w, int64_t wn,
                int64_t count, bool utf8)
{
    int64_t i = 0;
    if (wn > qn && !replace_fits(p, n, q, qn, wn, count, utf8)) {
        sb_nomemory(b);   /* the result could never be held: MemoryError before building it */
        return;
    }
    if (qn == 0) {
        /* insert w before every character and at the end */
        while (count > 0 && i <= n) {
            sb_add(b, w, (size_t)wn);
            count--;
            if (i == n)
                break;
            int len = utf8 ? utf8_lead_len((unsigned char)p[i]) : 1;
            sb_add(b, p + i, (size_t)len);
            i += len;
        }
    } else {
        while (count > 0) {
            const char *hit = mem_find(p + i, (size_t)(n - i), q, (size_t)qn);
            if (!hit)
                break;
            int64_t j = hit - p;
            sb_add(b, p + i, (size_t)(j - i));
            sb_add(b, w, (size_t)wn);
            i = j + qn;
            count--;
        }
    }
    sb_add(b, p + i, (size_t)(n - i));
}

static Obj affix_common(Obj *args, size_t nargs, Obj kwnames, bool suffix)
{
    const char *fname = suffix ? "str.removesuffix" : "str.removeprefix";
    SELF(fname);
    Obj a = str_value(args[1]);
    if (!a) {
        err_format(E_TypeError, "%s() argument must be str, not %s", fname + 4, type_name(args[1]));
        return NULL;
    }
    int64_t n = STR(self)->nbytes, an = STR(a)->nbytes;
    if (an == 0 || an > n)
        return self;
    const char *p = str_cstr(self) + (suffix ? n - an : 0);
    if (memcmp(p, str_cstr(a), (size_t)an) != 0)
        return self;
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj res = suffix ? substr_bytes(&r[0], 0, n - an, -1) : substr_bytes(&r[0], an, n, -1);
    vm_unroots(r);
    return res;
}

static Obj m_removeprefix(Obj *args, size_t nargs, Obj kw) { return affix_common(args, nargs, kw, false); }
static Obj m_removesuffix(Obj *args, size_t nargs, Obj kw) { return affix_common(args, nargs, kw, true); }

/* ------------------------------------------------------------------ */
/* Methods: case                                                       */
/* ------------------------------------------------------------------ */

enum { CASE_LOWER, CASE_UPPER, CASE_TITLE, CASE_CAPITALIZE, CASE_SWAP, CASE_FOLD };

static inline bool a_lower(unsigned c) { return c >= 'a' && c <= 'z'; }
static inline bool a_upper(unsigned c) { return c >= 'A' && c <= 'Z'; }
static inline bool a_alpha(unsigned c) { return a_lower(c) || a_upper(c); }
static inline bool a_digit(unsigned c) { return c >= '0' && c <= '9'; }

static Obj case_ascii(Obj s, int mode)
{
    int64_t n = STR(s)->nbytes;
    Obj *r = vm_roots(1);
    r[0] = s;
    Obj res = str_alloc(n, n);
    if (res) {
        const unsigned char *p = (const unsigned char *)str_cstr(r[0]);
        unsigned char *d = VM_LINEAR(STR(res)->data);
        /* one loop per mode: the compiler vectorises the simple ones */
        switch (mode) {
        case CASE_LOWER:
        case CASE_FOLD:
            for (int64_t i = 0; i < n; i++)
                d[i] = (unsigned char)(p[i] + (a_upper(p[i]) ? 32 : 0));
            break;
        case CASE_UPPER:
            for (int64_t i = 0; i < n; i++)
                d[i] = (unsigned char)(p[i] - (a_lower(p[i]) ? 32 : 0));
            break;
        case CASE_SWAP:
            for (int64_t i = 0; i < n; i++)
                d[i] = (unsigned char)(a_alpha(p[i]) ? p[i] ^ 32 : p[i]);
            break;
        case CASE_CAPITALIZE:
            for (int64_t i = 0; i < n; i++)
                d[i] = (unsigned char)(p[i] + (a_upper(p[i]) ? 32 : 0));
            if (a_lower(d[0]))
                d[0] = (unsigned char)(d[0] - 32);
            break;
        default: {   /* CASE_TITLE */
            bool prev_cased = false;
            for (int64_t i = 0; i < n; i++) {
                unsigned c = p[i];
                bool cased = a_alpha(c);
                if (prev_cased && a_upper(c))
                    c += 32;
                else if (!prev_cased && a_lower(c))
                    c -= 32;
                prev_cased = cased;
                d[i] = (unsigned char)c;
            }
        }
        }
    }
    vm_unroots(r);
    return res;
}

/* Lowercase of cps[i], with the Greek final sigma rule. */
static int lower_at(const uint32_t *cps, int64_t len, int64_t i, uint32_t out[3])
{
    uint32_t c = cps[i];
    if (c == 0x3a3) {
        int64_t j = i - 1;
        while (j >= 0 && uni_iscaseignorable(cps[j]))
            j--;
        bool before = j >= 0 && uni_iscased(cps[j]);
        j = i + 1;
        while (j < len && uni_iscaseignorable(cps[j]))
            j++;
        bool after = j < len && uni_iscased(cps[j]);
        out[0] = before && !after ? 0x3c2 : 0x3c3;
        return 1;
    }
    return uni_tolower(c, out);
}

/* The code points of s in a malloc'd array (NULL: MemoryError set). */
static uint32_t *decode_all(Obj s, int64_t *len_out)
{
    int64_t len = STR(s)->length;
    uint32_t *cps = malloc(sizeof(uint32_t) * (size_t)(len ? len : 1));
    if (!cps) {
        err_nomemory();
        return NULL;
    }
    const unsigned char *p = (const unsigned char *)str_cstr(s);
    int64_t b = 0;
    for (int64_t i = 0; i < len; i++) {
        int l;
        cps[i] = decode_at(p, b, &l);
        b += l;
    }
    *len_out = len;
    return cps;
}

static Obj case_unicode(Obj s, int mode)
{
    int64_t len;
    uint32_t *cps = decode_all(s, &len);
    if (!cps)
        return NULL;
    StrBuf b;
    sb_init(&b);
    bool prev_cased = false;
    for (int64_t i = 0; i < len; i++) {
        uint32_t c = cps[i], out[3];
        int k = 1;
        out[0] = c;
        switch (mode) {
        case CASE_LOWER: k = lower_at(cps, len, i, out); break;
        case CASE_UPPER: k = uni_toupper(c, out); break;
        case CASE_FOLD: k = uni_tocasefold(c, out); break;
        case CASE_SWAP:
            if (uni_isupper(c))
                k = lower_at(cps, len, i, out);
            else if (uni_islower(c))
                k = uni_toupper(c, out);
            break;
        case CASE_CAPITALIZE:
            k = i == 0 ? uni_totitle(c, out) : lower_at(cps, len, i, out);
            break;
        case CASE_TITLE:
            k = prev_cased ? lower_at(cps, len, i, out) : uni_totitle(c, out);
            prev_cased = uni_iscased(c);
            break;
        }
        for (int j = 0; j < k; j++)
            sb_add_codepoint(&b, out[j]);
    }
    free(cps);
    return sb_finish(&b);
}

static Obj case_method(Obj *args, size_t nargs, Obj kwnames, int mode, const char *fname)
{
    SELF(fname);
    if (STR(self)->nbytes == 0)
        return self;
    return str_is_ascii(self) ? case_ascii(self, mode) : case_unicode(self, mode);
}

static Obj m_lower(Obj *a, size_t n, Obj k) { return case_method(a, n, k, CASE_LOWER, "str.lower"); }
static Obj m_upper(Obj *a, size_t n, Obj k) { return case_method(a, n, k, CASE_UPPER, "str.upper"); }
static Obj m_title(Obj *a, size_t n, Obj k) { return case_method(a, n, k, CASE_TITLE, "str.title"); }
static Obj m_capitalize(Obj *a, size_t n, Obj k) { return case_method(a, n, k, CASE_CAPITALIZE, "str.capitalize"); }
static Obj m_swapcase(Obj *a, size_t n, Obj k) { return case_method(a, n, k, CASE_SWAP, "str.swapcase"); }
static Obj m_casefold(Obj *a, size_t n, Obj k) { return case_method(a, n, k, CASE_FOLD, "str.casefold"); }

/* ------------------------------------------------------------------ */
/* Methods: classification                                             */
/* ------------------------------------------------------------------ */

enum { IS_ALPHA, IS_ALNUM, IS_DECIMAL, IS_DIGIT, IS_NUMERIC, IS_SPACE, IS_PRINTABLE };

static bool char_is(int what, uint32_t c)
{
    if (c < 128) {
        switch (what) {
        case IS_ALPHA: return a_alpha(c);
        case IS_ALNUM: return a_alpha(c) || a_digit(c);
        case IS_DECIMAL:
        case IS_DIGIT:
        case IS_NUMERIC: return a_digit(c);
        case IS_SPACE: return str_isspace_cp(c);
        default: return c >= 0x20 && c < 0x7f;
        }
    }
    switch (what) {
    case IS_ALPHA: return uni_isalpha(c);
    case IS_ALNUM: return uni_isalpha(c) || uni_isdecimal(c) || uni_isdigit(c) || uni_isnumeric(c);
    case IS_DECIMAL: return uni_isdecimal(c);
    case IS_DIGIT: return uni_isdigit(c);
    case IS_NUMERIC: return uni_isnumeric(c);
    case IS_SPACE: return uni_isspace(c);
    default: return uni_isprintable(c);
    }
}

static Obj is_method(Obj *args, size_t nargs, Obj kwnames, int what, const char *fname)
{
    SELF(fname);
    int64_t n = STR(self)->nbytes;
    if (n == 0)
        return vm_bool(what == IS_PRINTABLE);
    const unsigned char *p = (const unsigned char *)str_cstr(self);
    for (int64_t i = 0; i < n;) {
        int len;
        uint32_t c = decode_at(p, i, &len);
        if (!char_is(what, c))
            return g_False;
        i += len;
    }
    return g_True;
}

static Obj m_isalpha(Obj *a, size_t n, Obj k) { return is_method(a, n, k, IS_ALPHA, "str.isalpha"); }
static Obj m_isalnum(Obj *a, size_t n, Obj k) { return is_method(a, n, k, IS_ALNUM, "str.isalnum"); }
static Obj m_isdecimal(Obj *a, size_t n, Obj k) { return is_method(a, n, k, IS_DECIMAL, "str.isdecimal"); }
static Obj m_isdigit(Obj *a, size_t n, Obj k) { return is_method(a, n, k, IS_DIGIT, "str.isdigit"); }
static Obj m_isnumeric(Obj *a, size_t n, Obj k) { return is_method(a, n, k, IS_NUMERIC, "str.isnumeric"); }
static Obj m_isspace(Obj *a, size_t n, Obj k) { return is_method(a, n, k, IS_SPACE, "str.isspace"); }
static Obj m_isprintable(Obj *a, size_t n, Obj k) { return is_method(a, n, k, IS_PRINTABLE, "str.isprintable"); }

static Obj m_isascii(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("isascii");
    return vm_bool(str_is_ascii(self));
}

static inline bool cp_upper(uint32_t c) { return c < 128 ? a_upper(c) : uni_isupper(c); }
static inline bool cp_lower(uint32_t c) { return c < 128 ? a_lower(c) : uni_islower(c); }
static inline bool cp_title(uint32_t c) { return c >= 128 && uni_istitle(c); }

/* islower / isupper: some cased char, none of the other case (nor titlecase). */
static Obj case_test(Obj *args, size_t nargs, Obj kwnames, bool upper, const char *fname)
{
    SELF(fname);
    const unsigned char *p = (const unsigned char *)str_cstr(self);
    int64_t n = STR(self)->nbytes;
    bool cased = false;
    for (int64_t i = 0; i < n;) {
        int len;
        uint32_t c = decode_at(p, i, &len);
        i += len;
        if ((upper ? cp_lower(c) : cp_upper(c)) || cp_title(c))
            return g_False;
        if (upper ? cp_upper(c) : cp_lower(c))
            cased = true;
    }
    return vm_bool(cased);
}

static Obj m_islower(Obj *a, size_t n, Obj k) { return case_test(a, n, k, false, "str.islower"); }
static Obj m_isupper(Obj *a, size_t n, Obj k) { return case_test(a, n, k, true, "str.isupper"); }

static Obj m_istitle(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("istitle");
    const unsigned char *p = (const unsigned char *)str_cstr(self);
    int64_t n = STR(self)->nbytes;
    bool cased = false, prev_cased = false;
    for (int64_t i = 0; i < n;) {
        int len;
        uint32_t c = decode_at(p, i, &len);
        i += len;
        if (cp_upper(c) || cp_title(c)) {
            if (prev_cased)
                return g_False;
            prev_cased = cased = true;
        } else if (cp_lower(c)) {
            if (!prev_cased)
                return g_False;
            prev_cased = cased = true;
        } else {
            prev_cased = false;
        }
    }
    return vm_bool(cased);
}

bool str_isidentifier(Obj s)
{
    s = vm_unwrap(s);
    const unsigned char *p = (const unsigned char *)str_cstr(s);
    int64_t n = STR(s)->nbytes;
    if (n == 0)
        return false;
    for (int64_t i = 0; i < n;) {
        int len;
        uint32_t c = decode_at(p, i, &len);
        bool ok;
        if (c < 128)
            ok = a_alpha(c) || c == '_' || (i > 0 && a_digit(c));
        else
            ok = i == 0 ? uni_isxidstart(c) : uni_isxidcontinue(c);
        if (!ok)
            return false;
        i += len;
    }
    return true;
}

static Obj m_isidentifier(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("isidentifier");
    return vm_bool(str_isidentifier(self));
}

/* ------------------------------------------------------------------ */
/* Methods: padding and tabs                                           */
/* ------------------------------------------------------------------ */

static Obj pad(Obj s, int64_t left, int64_t right, uint32_t fill)
{
    if (left < 0)
        left = 0;
    if (right < 0)
        right = 0;
    if (left == 0 && right == 0)
        return s;
    char fb[4];
    int fl = utf8_encode(fill, fb);
    int64_t n = STR(s)->nbytes;
    Obj *r = vm_roots(1);
    r[0] = s;
    Obj res = str_alloc(n + (left + right) * fl, STR(s)->length + left + right);
    if (res) {
        char *d = VM_LINEAR(STR(res)->data);
        for (int64_t k = 0; k < left; k++, d += fl)
            memcpy(d, fb, (size_t)fl);
        memcpy(d, str_cstr(r[0]), (size_t)n);
        d += n;
        for (int64_t k = 0; k < right; k++, d += fl)
            memcpy(d, fb, (size_t)fl);
    }
    vm_unroots(r);
    return res;
}

enum { JUST_LEFT, JUST_RIGHT, JUST_CENTER };

static Obj just_method(Obj *args, size_t nargs, Obj kwnames, int how, const char *fname)
{
    if (!self_str(args[0], fname))
        return NULL;
    int64_t width;
    if (arg_i64(args[1], &width) < 0)
        return NULL;
    uint32_t fill = ' ';
    if (nargs > 2) {
        Obj f = str_value(args[2]);
        if (!f) {
            err_format(E_TypeError, "%s() argument 2 must be str, not %s", fname, type_name(args[2]));
            return NULL;
        }
        if (STR(f)->length != 1) {
            err_set(E_TypeError, "The fill character must be exactly one character long");
            return NULL;
        }
        int len;
        fill = utf8_decode((const unsigned char *)str_cstr(f), &len);
    }
    Obj self = vm_unwrap(args[0]);
    int64_t len = STR(self)->length;
    if (width <= len)
        return self;
    int64_t total = width - len;
    if (how == JUST_LEFT)
        return pad(self, 0, total, fill);
    if (how == JUST_RIGHT)
        return pad(self, total, 0, fill);
    int64_t left = total / 2 + (total & width & 1);
    return pad(self, left, total - left, fill);
}

static Obj m_ljust(Obj *a, size_t n, Obj k) { return just_method(a, n, k, JUST_LEFT, "ljust"); }
static Obj m_rjust(Obj *a, size_t n, Obj k) { return just_method(a, n, k, JUST_RIGHT, "rjust"); }
static Obj m_center(Obj *a, size_t n, Obj k) { return just_method(a, n, k, JUST_CENTER, "center"); }

static Obj m_zfill(Obj *args, size_t nargs, Obj kwnames)
{
    if (!self_str(args[0], "zfill"))
        return NULL;
    int64_t width;
    if (arg_i64(args[1], &width) < 0)
        return NULL;
    Obj self = vm_unwrap(args[0]);
    int64_t len = STR(self)->length;
    if (width <= len)
        return self;
    int64_t fill = width - len;
    Obj res = pad(self, fill, 0, '0');
    if (res) {
        char *d = VM_LINEAR(STR(res)->data);
        if (d[fill] == '+' || d[fill] == '-') {
            d[0] = d[fill];
            d[fill] = '0';
        }
    }
    return res;
}

static Obj m_expandtabs(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"tabsize", NULL};
    if (!self_str(args[0], "expandtabs"))
        return NULL;
    Obj *o = vm_roots(1);
    int64_t tabsize = 8;
    if (vm_parse_args("expandtabs", args + 1, nargs - 1, kwnames, names, 0, 1, o) < 0 ||
        (o[0] && arg_c_int(o[0], &tabsize) < 0)) {
        vm_unroots(o);
        return NULL;
    }
    vm_unroots(o);
    Obj self = vm_unwrap(args[0]);
    const unsigned char *p = (const unsigned char *)str_cstr(self);
    int64_t n = STR(self)->nbytes;
    if (!memchr(p, '\t', (size_t)n))
        return self;
    StrBuf b;
    sb_init(&b);
    sb_expandtabs(&b, (const char *)p, n, tabsize, true);
    return sb_finish(&b);
}

void sb_expandtabs(StrBuf *b, const char *p, int64_t n, int64_t tabsize, bool utf8)
{
    int64_t col = 0;
    for (int64_t i = 0; i < n;) {
        unsigned char c = (unsigned char)p[i];
        if (c == '\t') {
            if (tabsize > 0) {
                int64_t incr = tabsize - col % tabsize;
                col += incr;
                sb_add_repeat(b, " ", 1, incr);   /* too much for memory: poisons b at once */
            }
            i++;
            continue;
        }
        int len = utf8 ? utf8_lead_len(c) : 1;
        sb_add(b, p + i, (size_t)len);
        col = c == '\n' || c == '\r' ? 0 : col + 1;
        i += len;
    }
}

/* ------------------------------------------------------------------ */
/* Methods: translate, encode, format                                  */
/* ------------------------------------------------------------------ */

static Obj m_maketrans(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = dict_new();
    if (!r[0])
        goto out;
    if (nargs == 1) {
        if (!IS_DICT(args[0])) {
            err_set(E_TypeError, "if you give only one argument to maketrans it must be a dict");
            goto out;
        }
        int64_t pos = 0;
        Obj k, v;
        while (dict_next(args[0], &pos, &k, &v)) {
            r[1] = v;
            Obj ks = str_value(k);
            Obj key;
            if (ks) {
                if (STR(ks)->length != 1) {
                    err_set(E_ValueError, "string keys in translate table must be of length 1");
                    goto out;
                }
                int len;
                key = MAKE_SMALLINT(utf8_decode((const unsigned char *)str_cstr(ks), &len));
            } else if (IS_INT(k)) {
                key = k;
            } else {
                err_set(E_TypeError, "keys in translate table must be strings or integers");
                goto out;
            }
            if (dict_setitem(r[0], key, r[1]) < 0)
                goto out;
        }
    } else {
        for (size_t k = 0; k < nargs; k++) {
            if (!str_value(args[k])) {
                err_format(E_TypeError, "maketrans() argument %d must be str, not %s", (int)k + 1,
                           type_name(args[k]));
                goto out;
            }
        }
        Obj x = vm_unwrap(args[0]), y = vm_unwrap(args[1]);
        if (STR(x)->length != STR(y)->length) {
            err_set(E_ValueError, "the first two maketrans arguments must have equal length");
            goto out;
        }
        int64_t bx = 0, by = 0;
        for (int64_t i = 0; i < STR(x)->length; i++) {
            x = vm_unwrap(args[0]);
            y = vm_unwrap(args[1]);
            int lx, ly;
            uint32_t cx = decode_at((const unsigned char *)str_cstr(x), bx, &lx);
            uint32_t cy = decode_at((const unsigned char *)str_cstr(y), by, &ly);
            bx += lx;
            by += ly;
            if (dict_setitem(r[0], MAKE_SMALLINT(cx), MAKE_SMALLINT(cy)) < 0)
                goto out;
        }
        if (nargs == 3) {
            int64_t bz = 0;
            for (int64_t i = 0; i < STR(vm_unwrap(args[2]))->length; i++) {
                int lz;
                uint32_t cz = decode_at((const unsigned char *)str_cstr(vm_unwrap(args[2])), bz, &lz);
                bz += lz;
                if (dict_setitem(r[0], MAKE_SMALLINT(cz), g_None) < 0)
                    goto out;
            }
        }
    }
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

static Obj m_translate(Obj *args, size_t nargs, Obj kwnames)
{
    if (!self_str(args[0], "translate"))
        return NULL;
    /* outcome cache for ASCII chars: -2 unknown, -1 delete, else a code point */
    int32_t cache[128];
    for (int k = 0; k < 128; k++)
        cache[k] = -2;
    StrBuf b;
    sb_init(&b);
    int64_t i = 0;
    for (;;) {
        Obj self = vm_unwrap(args[0]);
        if (i >= STR(self)->nbytes)
            break;
        int len;
        uint32_t c = decode_at((const unsigned char *)str_cstr(self), i, &len);
        i += len;
        if (c < 128 && cache[c] != -2) {
            if (cache[c] >= 0)
                sb_add_codepoint(&b, (uint32_t)cache[c]);
            continue;
        }
        Obj v = vm_getitem(args[1], MAKE_SMALLINT(c));
        if (!v) {
            if (err_matches(E_LookupError)) {
                err_clear();
                sb_add_codepoint(&b, c);
                if (c < 128)
                    cache[c] = (int32_t)c;
                continue;
            }
            sb_free(&b);
            return NULL;
        }
        if (IS_NONE(v)) {
            if (c < 128)
                cache[c] = -1;
        } else if (IS_INT(v)) {
            int64_t m;
            if (int_as_i64(v, &m) < 0 || m < 0 || m > 0x10ffff) {
                err_clear();
                err_set(E_ValueError, "character mapping must be in range(0x110000)");
                sb_free(&b);
                return NULL;
            }
            sb_add_codepoint(&b, (uint32_t)m);
            if (c < 128)
                cache[c] = (int32_t)m;
        } else if (str_value(v)) {
            Obj sv = str_value(v);
            sb_add_str(&b, sv);
            if (c < 128 && STR(sv)->length == 1) {
                int l2;
                cache[c] = (int32_t)utf8_decode((const unsigned char *)str_cstr(sv), &l2);
            } else if (c < 128 && STR(sv)->length == 0) {
                cache[c] = -1;
            }
        } else {
            err_set(E_TypeError, "character mapping must return integer, None or str");
            sb_free(&b);
            return NULL;
        }
    }
    return sb_finish(&b);
}

/* A codec or error-handler name into buf, cut at size - 1 bytes (as
 * snprintf, which cost 1% of pickle_pure_python in str.encode calls). */
static void copy_name(char *buf, size_t size, Obj s)
{
    size_t n = (size_t)STR(s)->nbytes;
    if (n >= size)
        n = size - 1;
    memcpy(buf, str_cstr(s), n);
    buf[n] = 0;
}

static Obj m_encode(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"encoding", "errors", NULL};
    if (!self_str(args[0], "encode"))
        return NULL;
    Obj *o = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("encode", args + 1, nargs - 1, kwnames, names, 0, 2, o) < 0)
        goto out;
    for (int k = 0; k < 2; k++) {
        if (o[k] && !str_value(o[k])) {
            err_format(E_TypeError, "encode() argument '%s' must be str, not %s", names[k], type_name(o[k]));
            goto out;
        }
    }
    /* copy the names: str_encode allocates */
    char enc[64] = "utf-8", errs[64] = "strict";
    if (o[0])
        copy_name(enc, sizeof enc, vm_unwrap(o[0]));
    if (o[1])
        copy_name(errs, sizeof errs, vm_unwrap(o[1]));
    res = str_encode_method(vm_unwrap(args[0]), enc, errs);
out:
    vm_unroots(o);
    return res;
}

static Obj m_format_map(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("format_map");
    return str_format_map(self, args[1]);
}

static Obj m___format__(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("__format__");
    if (!str_value(args[1])) {
        err_format(E_TypeError, "__format__() argument must be str, not %s", type_name(args[1]));
        return NULL;
    }
    /* an empty spec on a subclass instance is str(self) (its __str__) */
    if (STR(vm_unwrap(args[1]))->nbytes == 0 && !IS_STR(args[0]))
        return vm_str(args[0]);
    return format_str(self, vm_unwrap(args[1]));
}

static Obj m___getnewargs__(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("__getnewargs__");
    return tuple_pack(1, self);
}

/* ------------------------------------------------------------------ */
/* The type                                                            */
/* ------------------------------------------------------------------ */

static const MethodDef str_methods[] = {
    {"find", m_find, METH_ARGS(1, 3) | METH_OLDMSG | METH_BARENAME, NULL},
    {"rfind", m_rfind, METH_ARGS(1, 3) | METH_OLDMSG | METH_BARENAME, NULL},
    {"index", m_index, METH_ARGS(1, 3) | METH_OLDMSG | METH_BARENAME, NULL},
    {"rindex", m_rindex, METH_ARGS(1, 3) | METH_OLDMSG | METH_BARENAME, NULL},
    {"count", m_count, METH_ARGS(1, 3) | METH_OLDMSG | METH_BARENAME, NULL},
    {"startswith", m_startswith, METH_ARGS(1, 3) | METH_OLDMSG | METH_BARENAME, NULL},
    {"endswith", m_endswith, METH_ARGS(1, 3) | METH_OLDMSG | METH_BARENAME, NULL},
    {"split", m_split, METH_KW, NULL},
    {"rsplit", m_rsplit, METH_KW, NULL},
    {"splitlines", m_splitlines, METH_KW, NULL},
    {"partition", m_partition, METH_O, NULL},
    {"rpartition", m_rpartition, METH_O, NULL},
    {"join", m_join, METH_O, NULL},
    {"strip", m_strip, METH_ARGS(0, 1), NULL},
    {"lstrip", m_lstrip, METH_ARGS(0, 1), NULL},
    {"rstrip", m_rstrip, METH_ARGS(0, 1), NULL},
    {"replace", m_replace, METH_ARGS(2, 3), NULL},
    {"removeprefix", m_removeprefix, METH_O, NULL},
    {"removesuffix", m_removesuffix, METH_O, NULL},
    {"lower", m_lower, METH_NOARGS, NULL},
    {"upper", m_upper, METH_NOARGS, NULL},
    {"title", m_title, METH_NOARGS, NULL},
    {"capitalize", m_capitalize, METH_NOARGS, NULL},
    {"swapcase", m_swapcase, METH_NOARGS, NULL},
    {"casefold", m_casefold, METH_NOARGS, NULL},
    {"isalpha", m_isalpha, METH_NOARGS, NULL},
    {"isalnum", m_isalnum, METH_NOARGS, NULL},
    {"isdecimal", m_isdecimal, METH_NOARGS, NULL},
    {"isdigit", m_isdigit, METH_NOARGS, NULL},
    {"isnumeric", m_isnumeric, METH_NOARGS, NULL},
    {"isspace", m_isspace, METH_NOARGS, NULL},
    {"isprintable", m_isprintable, METH_NOARGS, NULL},
    {"isascii", m_isascii, METH_NOARGS, NULL},
    {"islower", m_islower, METH_NOARGS, NULL},
    {"isupper", m_isupper, METH_NOARGS, NULL},
    {"istitle", m_istitle, METH_NOARGS, NULL},
    {"isidentifier", m_isidentifier, METH_NOARGS, NULL},
    {"ljust", m_ljust, METH_ARGS(1, 2), NULL},
    {"rjust", m_rjust, METH_ARGS(1, 2), NULL},
    {"center", m_center, METH_ARGS(1, 2), NULL},
    {"zfill", m_zfill, METH_O, NULL},
    {"expandtabs", m_expandtabs, METH_KW, NULL},
    {"maketrans", m_maketrans, METH_STATIC | METH_ARGS(1, 3), NULL},
    {"translate", m_translate, METH_O, NULL},
    {"encode", m_encode, METH_KW, NULL},
    {"format", str_format_method, METH_KW, NULL},
    {"format_map", m_format_map, METH_O, NULL},
    {"__format__", m___format__, METH_O, NULL},
    {"__getnewargs__", m___getnewargs__, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef str_iter_methods[] = {
    {"__length_hint__", str_iter_length_hint, METH_NOARGS, NULL},
    {"__reduce__", str_iter_reduce, METH_NOARGS, "Return state information for pickling."},
    {"__setstate__", str_iter_setstate, METH_O, "Set state information for unpickling."},
    {NULL, NULL, 0, NULL},
};

static TypeObj *make_str_iter_type(const char *name)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_ITER, 0);
    t->tp_iter = iter_self;
    t->tp_iternext = str_iter_next;
    type_add_methods(t, str_iter_methods);
    type_ready(t);
    return t;
}

void str_init_type(void)
{
    empty_str();
    for (uint32_t c = 0; c < 256; c++)
        if (!char_cache[c])
            make_char(c);
    TypeObj *t = (TypeObj *)type_new_builtin("str", T_object, TID_STR, TPF_BASETYPE | TPF_MATCH_SELF);
    T_str = t;
    t->tp_repr = str_tp_repr;
    t->tp_str = str_tp_str;
    t->tp_hash = str_tp_hash;
    t->tp_richcompare = str_richcompare;
    t->tp_len = str_tp_len;
    t->tp_getitem = str_getitem;
    t->tp_contains = str_contains;
    t->tp_iter = str_iter_new;
    t->tp_bool = str_tp_bool;
    t->tp_new = str_tp_new;
    t->nb[NB_ADD] = str_add;
    t->nb[NB_MUL] = str_mul_slot;
    t->nb[NB_MOD] = str_mod_slot;
    type_add_methods(t, str_methods);
    type_ready(t);
    T_str_iterator = make_str_iter_type("str_iterator");
    T_str_ascii_iterator = make_str_iter_type("str_ascii_iterator");
}
