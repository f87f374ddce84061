/* The random module, all in C, giving CPython 3.11's exact sequences for
 * the same seed: the Mersenne Twister MT19937 (init_genrand /
 * init_by_array), random.py's algorithms for randrange, choice, shuffle,
 * sample, choices and the distributions, and its seeding rules (ints by
 * absolute value in 32-bit chunks, str/bytes through SHA-512, other
 * hashables by hash()).
 *
 * A Random instance is an InstanceObj (class random.Random or a subclass)
 * whose base_value is a private RawObj holding the generator state.
 * Methods of a subclass that overrides random(), getrandbits() or
 * _randbelow() call the overrides, as random.py does. */
#include "modules.h"
#include "posix.h"
#include "objects/objects.h"
#include "objects/numbers.h"
#include "objects/strobj.h"
#include "objects/containers.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ==== core begin: no VM calls in this part ==== */

#define MT_N 624
#define MT_M 397

typedef struct MTState {
    uint32_t mt[MT_N];
    int32_t index;
    int32_t has_gauss;
    double gauss_next;
} MTState;

static void mt_init_genrand(MTState *s, uint32_t seed)
{
    s->mt[0] = seed;
    for (uint32_t i = 1; i < MT_N; i++)
        s->mt[i] = 1812433253U * (s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) + i;
    s->index = MT_N;
}

static void mt_init_by_array(MTState *s, const uint32_t *key, size_t keylen)
{
    mt_init_genrand(s, 19650218U);
    size_t i = 1, j = 0;
    size_t k = MT_N > keylen ? MT_N : keylen;
    for (; k; k--) {
        s->mt[i] = (s->mt[i] ^ ((s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            s->mt[0] = s->mt[MT_N - 1];
            i = 1;
        }
        if (j >= keylen)
            j = 0;
    }
    for (k = MT_N - 1; k; k--) {
        s->mt[i] = (s->mt[i] ^ ((s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            s->mt[0] = s->mt[MT_N - 1];
            i = 1;
        }
    }
    s->mt[0] = 0x80000000U;
}

static uint32_t mt_genrand(MTState *s)
{
    static const uint32_t mag01[2] = {0, 0x9908b0dfU};
    uint32_t y;
    if (s->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (s->mt[kk] & 0x80000000U) | (s->mt[kk + 1] & 0x7fffffffU);
            s->mt[kk] = s->mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 1];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (s->mt[kk] & 0x80000000U) | (s->mt[kk + 1] & 0x7fffffffU);
            s->mt[kk] = s->mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1];
        }
        y = (s->mt[MT_N - 1] & 0x80000000U) | (s->mt[0] & 0x7fffffffU);
        s->mt[MT_N - 1] = s->mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1];
        s->index = 0;
    }
    y = s->mt[s->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

/* random(): 53 random bits, (a*2**26 + b) / 2**53. */
static double mt_random(MTState *s)
{
    uint32_t a = mt_genrand(s) >> 5, b = mt_genrand(s) >> 6;
    return ((double)a * 67108864.0 + (double)b) * (1.0 / 9007199254740992.0);
}

/* getrandbits(k) for 0 <= k <= 64: 32-bit words, least significant first;
 * the last one keeps its top bits. */
static uint64_t mt_getrandbits64(MTState *s, int k)
{
    if (k <= 0)
        return 0;
    if (k <= 32)
        return mt_genrand(s) >> (32 - k);
    uint64_t lo = mt_genrand(s);
    uint64_t hi = mt_genrand(s) >> (64 - k);
    return lo | (hi << 32);
}

static int bit_length64(uint64_t n) { return n ? 64 - __builtin_clzll(n) : 0; }

/* _randbelow(n) for 0 < n < 2**64: rejection sampling on n.bit_length() bits. */
static uint64_t mt_randbelow64(MTState *s, uint64_t n)
{
    int k = bit_length64(n);
    uint64_t r = mt_getrandbits64(s, k);
    while (r >= n)
        r = mt_getrandbits64(s, k);
    return r;
}

/* SHA-512 (FIPS 180-4), for seeding with str/bytes. */
static const uint64_t sha512_k[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
    0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
    0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
    0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
    0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
    0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
    0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
    0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
    0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
    0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
    0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
    0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

static inline uint64_t ror64(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

static void sha512_block(uint64_t h[8], const uint8_t *p)
{
    uint64_t w[80];
    for (int i = 0; i < 16; i++) {
        uint64_t v = 0;
        for (int b = 0; b < 8; b++)
            v = (v << 8) | p[i * 8 + b];
        w[i] = v;
    }
    for (int i = 16; i < 80; i++) {
        uint64_t s0 = ror64(w[i - 15], 1) ^ ror64(w[i - 15], 8) ^ (w[i - 15] >> 7);
        uint64_t s1 = ror64(w[i - 2], 19) ^ ror64(w[i - 2], 61) ^ (w[i - 2] >> 6);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 80; i++) {
        uint64_t S1 = ror64(e, 14) ^ ror64(e, 18) ^ ror64(e, 41);
        uint64_t ch = (e & f) ^ (~e & g);
        uint64_t t1 = hh + S1 + ch + sha512_k[i] + w[i];
        uint64_t S0 = ror64(a, 28) ^ ror64(a, 34) ^ ror64(a, 39);
        uint64_t maj = (a & b) ^ (a & c) ^ (b & c);
        uint64_t t2 = S0 + maj;
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

static void sha512(const uint8_t *msg, size_t len, uint8_t out[64])
{
    uint64_t h[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
                     0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};
    size_t full = len / 128;
    for (size_t i = 0; i < full; i++)
        sha512_block(h, msg + i * 128);
    uint8_t tail[256];
    size_t rem = len - full * 128;
    memset(tail, 0, sizeof tail);
    memcpy(tail, msg + full * 128, rem);
    tail[rem] = 0x80;
    size_t tl = rem + 1 + 16 <= 128 ? 128 : 256;
    uint64_t bits = (uint64_t)len * 8;   /* the high 64 bits of the 128-bit length stay 0 */
    for (int b = 0; b < 8; b++)
        tail[tl - 1 - b] = (uint8_t)(bits >> (8 * b));
    sha512_block(h, tail);
    if (tl == 256)
        sha512_block(h, tail + 128);
    for (int i = 0; i < 8; i++)
        for (int b = 0; b < 8; b++)
            out[i * 8 + b] = (uint8_t)(h[i] >> (56 - 8 * b));
}

/* Seed from a big-endian byte string read as an unsigned integer. */
static void mt_seed_bytes_be(MTState *s, const uint8_t *p, size_t n)
{
    while (n > 0 && *p == 0) {
        p++;
        n--;
    }
    size_t words = n ? (n + 3) / 4 : 1;
    uint32_t *key = calloc(words, sizeof(uint32_t));
    if (!key) {
        mt_init_genrand(s, 19650218U);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        size_t pos = n - 1 - i;   /* byte i counting from the least significant */
        key[i / 4] |= (uint32_t)p[pos] << (8 * (i % 4));
    }
    mt_init_by_array(s, key, words);
    free(key);
}

/* Seed from a magnitude in 64-bit limbs (least significant first). */
static void mt_seed_limbs(MTState *s, const uint64_t *d, size_t n)
{
    while (n > 0 && d[n - 1] == 0)
        n--;
    uint32_t one = 0;
    if (n == 0) {
        mt_init_by_array(s, &one, 1);
        return;
    }
    size_t words = 2 * n - ((d[n - 1] >> 32) == 0 ? 1 : 0);
    uint32_t *key = malloc(words * sizeof(uint32_t));
    if (!key) {
        mt_init_genrand(s, 19650218U);
        return;
    }
    for (size_t i = 0; i < words; i++)
        key[i] = (uint32_t)(d[i / 2] >> (32 * (i % 2)));
    mt_init_by_array(s, key, words);
    free(key);
}

/* ==== core end ==== */

/* ------------------------------------------------------------------ */
/* Instances                                                           */
/* ------------------------------------------------------------------ */

TypeObj *T_Random, *T_SystemRandom;
static Obj g_inst;                   /* random._inst */
static Obj g_meth_random, g_meth_getrandbits, g_meth_randbelow;   /* Random's own entries */

static double TWOPI, NV_MAGICCONST, LOG4, SG_MAGICCONST;
/* Interned (pinned) method names, made at init: lookups never allocate. */
static Obj n_random, n_getrandbits, n_randbelow, n_seed;

static Obj state_new(void)
{
    Obj b = raw_new((int64_t)sizeof(MTState));   /* RawObj: a mutable shape, read with barriers */
    if (!b)
        return NULL;
    MTState *s = (MTState *)VM_LINEAR(RAW(b)->data);
    mt_init_genrand(s, 5489U);
    s->has_gauss = 0;
    return b;
}

/* The generator state of self (linear pointer: valid until the next
 * allocation), or NULL with TypeError. Marks it written. */
static MTState *get_state(Obj self)
{
    Obj st = vm_unwrap(self);
    if (st == self || TID(st) != TID_RAW || RAW(st)->length != (int64_t)sizeof(MTState)) {
        err_format(E_TypeError, "descriptor requires a 'random.Random' object but received '%s'", type_name(self));
        return NULL;
    }
    VM_WRITE(st);
    return (MTState *)VM_LINEAR(RAW(st)->data);
}

/* Does type(self) use Random's own method `name` (no override)? Never
 * allocates. */
static bool uses_own(Obj self, Obj own, Obj name)
{
    TypeObj *t = TYPE(self);
    if (t == T_Random)
        return true;
    return vm_lookup_type(t, name) == own;
}

/* self.random() */
static int rnd_float(Obj self, double *out)
{
    if (uses_own(self, g_meth_random, n_random)) {
        MTState *s = get_state(self);
        if (!s)
            return -1;
        *out = mt_random(s);
        return 0;
    }
    Obj v = vm_call_method(self, "random", NULL, 0);
    if (!v)
        return -1;
    if (IS_FLOAT(v)) {
        *out = FLOAT_VAL(v);
        return 0;
    }
    return vm_as_double(v, out);
}

/* getrandbits(k) as an int object (k >= 0). */
static Obj getrandbits_obj(MTState *s_unused, Obj self, int64_t k)
{
    (void)s_unused;
    if (k <= 64) {
        MTState *s = get_state(self);
        if (!s)
            return NULL;
        return int_from_u64(mt_getrandbits64(s, (int)k));
    }
    size_t words = (size_t)((k - 1) / 32 + 1);
    size_t nlimbs = (words + 1) / 2;
    uint64_t *limbs = calloc(nlimbs, sizeof(uint64_t));
    if (!limbs)
        return err_nomemory();
    MTState *s = get_state(self);
    if (!s) {
        free(limbs);
        return NULL;
    }
    int64_t left = k;
    for (size_t i = 0; i < words; i++, left -= 32) {
        uint32_t r = mt_genrand(s);
        if (left < 32)
            r >>= (32 - left);
        limbs[i / 2] |= (uint64_t)r << (32 * (i % 2));
    }
    /* an int from the magnitude (as int.c builds big ints) */
    size_t n = nlimbs;
    while (n > 0 && limbs[n - 1] == 0)
        n--;
    Obj res;
    if (n == 0) {
        res = MAKE_SMALLINT(0);
    } else if (n == 1 && limbs[0] <= (uint64_t)SMALLINT_MAX) {
        res = MAKE_SMALLINT((int64_t)limbs[0]);
    } else {
        res = (Obj)tm_allocate_var(TID_BIGINT, (uintptr_t)n);
        if (res) {
            ((BigIntObj *)res)->sign = 1;
            memcpy(VM_LINEAR(((BigIntObj *)res)->limbs), limbs, n * sizeof(uint64_t));
        } else {
            err_nomemory();
        }
    }
    free(limbs);
    return res;
}

/* self.getrandbits(k) honouring overrides. */
static Obj call_getrandbits(Obj self, int64_t k)
{
    if (uses_own(self, g_meth_getrandbits, n_getrandbits))
        return getrandbits_obj(NULL, self, k);
    Obj *r = vm_roots(1);
    r[0] = int_from_i64(k);
    Obj res = r[0] ? vm_call_method(self, "getrandbits", r, 1) : NULL;
    vm_unroots(r);
    return res;
}

/* How a subclass draws _randbelow: random.py's __init_subclass__ rule. */
enum { RB_OWN, RB_GETRANDBITS, RB_RANDOM, RB_PYTHON };
static int randbelow_kind(Obj self)
{
    TypeObj *t = TYPE(self);
    if (t == T_Random)
        return RB_OWN;
    Obj mro = t->mro;
    if (!mro || !IS_TUPLE(mro))
        return RB_OWN;
    for (int64_t i = 0; i < TUPLE_LEN(mro); i++) {
        TypeObj *c = (TypeObj *)TUPLE_ITEMS(mro)[i];
        if (c == T_Random)
            return RB_OWN;
        Obj d = c->dict;
        if (!d || !IS_DICT(d))
            continue;
        if (dict_getitem_str(d, n_randbelow))
            return RB_PYTHON;
        if (dict_getitem_str(d, n_getrandbits))
            return RB_GETRANDBITS;
        if (dict_getitem_str(d, n_random))
            return RB_RANDOM;
    }
    return RB_OWN;
}

/* _randbelow(n) for an int n > 0. */
static Obj randbelow(Obj self, Obj n)
{
    int kind = randbelow_kind(self);   /* never allocates */
    if (kind == RB_OWN && IS_SMALLINT(n)) {
        MTState *s = get_state(self);
        if (!s)
            return NULL;
        return MAKE_SMALLINT((int64_t)mt_randbelow64(s, (uint64_t)SMALLINT_VAL(n)));
    }
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    r[1] = n;
    if (kind == RB_PYTHON) {
        res = vm_call_method(r[0], "_randbelow", &r[1], 1);
    } else if (kind == RB_RANDOM) {
        /* _randbelow_without_getrandbits: only random() */
        const double maxsize = 9007199254740992.0;   /* 1 << 53 */
        int64_t nv;
        double x;
        if (int_compare(r[1], int_from_i64((int64_t)1 << 53)) >= 0) {
            double nd;
            if (int_as_double(r[1], &nd) < 0 || rnd_float(r[0], &x) < 0)
                goto out;
            res = int_from_double(floor(x * nd));
            goto out;
        }
        if (int_as_i64(r[1], &nv) < 0)
            goto out;
        int64_t rem = ((int64_t)1 << 53) % nv;
        double limit = (maxsize - (double)rem) / maxsize;
        if (rnd_float(r[0], &x) < 0)
            goto out;
        while (x >= limit)
            if (rnd_float(r[0], &x) < 0)
                goto out;
        res = MAKE_SMALLINT((int64_t)floor(x * maxsize) % nv);
    } else {
        uint64_t k = int_bit_length(r[1]);
        for (;;) {
            Obj v = call_getrandbits(r[0], (int64_t)k);
            if (!v)
                goto out;
            int c = int_compare(v, r[1]);
            if (c < 0) {
                res = v;
                break;
            }
        }
    }
out:
    vm_unroots(r);
    return res;
}

static MTState *self_state(Obj *args, size_t nargs)
{
    if (nargs < 1) {
        err_set(E_TypeError, "descriptor needs an argument");
        return NULL;
    }
    return get_state(args[0]);
}

/* ------------------------------------------------------------------ */
/* Seeding                                                             */
/* ------------------------------------------------------------------ */

static void seed_urandom(MTState *s)
{
    uint32_t key[MT_N];
    if (posix_random_bytes(key, sizeof key) < 0) {
        /* no entropy source: time and pid */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        key[0] = (uint32_t)ts.tv_sec;
        key[1] = (uint32_t)ts.tv_nsec;
        key[2] = (uint32_t)getpid();
        mt_init_by_array(s, key, 3);
        return;
    }
    mt_init_by_array(s, key, MT_N);
}

/* C-level seed (_random.Random.seed): None, an int (its absolute value) or
 * any hashable (its hash as an unsigned word). */
static int seed_c(Obj self, Obj a)
{
    if (!a || IS_NONE(a)) {
        MTState *s = get_state(self);
        if (!s)
            return -1;
        seed_urandom(s);
        s->has_gauss = 0;
        return 0;
    }
    Obj v = vm_unwrap(a);
    if (IS_SMALLINT(v) || TID(v) == TID_BOOL) {
        int64_t x = IS_SMALLINT(v) ? SMALLINT_VAL(v) : ((BoolObj *)v)->value;
        uint64_t m = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
        MTState *s = get_state(self);
        if (!s)
            return -1;
        mt_seed_limbs(s, &m, 1);
        s->has_gauss = 0;
        return 0;
    }
    if (TID(v) == TID_BIGINT) {
        size_t n = (size_t)((BigIntObj *)v)->nlimbs;
        uint64_t *limbs = malloc(n * sizeof(uint64_t));
        if (!limbs) {
            err_nomemory();
            return -1;
        }
        memcpy(limbs, VM_LINEAR(((BigIntObj *)v)->limbs), n * sizeof(uint64_t));
        MTState *s = get_state(self);
        if (s) {
            mt_seed_limbs(s, limbs, n);
            s->has_gauss = 0;
        }
        free(limbs);
        return s ? 0 : -1;
    }
    Obj *r = vm_roots(1);
    r[0] = self;
    int64_t h = vm_hash(a);
    self = r[0];
    vm_unroots(r);
    if (h == -1 && err_occurred())
        return -1;
    uint64_t m = (uint64_t)h;
    MTState *s = get_state(self);
    if (!s)
        return -1;
    mt_seed_limbs(s, &m, 1);
    s->has_gauss = 0;
    return 0;
}

/* random.py's Random.seed(a, version). */
static int seed_py(Obj self, Obj a, int64_t version)
{
    Obj v = a ? vm_unwrap(a) : NULL;
    const char *p = NULL;
    int64_t n = 0;
    bool is_text = v && IS_STR(v);
    bool is_bin = v && (IS_BYTES(v) || TID(v) == TID_BYTEARRAY);
    if (is_text) {
        if (utf8_has_surrogate(str_cstr(v), (size_t)STR(v)->nbytes)) {
            Obj *r = vm_roots(1);
            r[0] = str_encode(v, "utf-8", "strict");   /* UnicodeEncodeError, as seed's a.encode() */
            vm_unroots(r);
            if (!r[0])
                return -1;
        }
        p = str_cstr(v);
        n = STR(v)->nbytes;
    } else if (is_bin) {
        bytes_like(v, &p, &n);
    }
    if (version == 1 && (is_text || IS_BYTES(v))) {
        /* the legacy hash of the characters (bytes as latin-1) */
        uint64_t x = 0;
        int64_t count = 0;
        if (is_text) {
            const unsigned char *q = (const unsigned char *)p;
            for (int64_t i = 0; i < n;) {
                int len;
                uint32_t c = utf8_decode(q + i, &len);
                if (count == 0)
                    x = (uint64_t)c << 7;
                x = (1000003ULL * x) ^ c;
                i += len;
                count++;
            }
        } else {
            for (int64_t i = 0; i < n; i++) {
                uint32_t c = (unsigned char)p[i];
                if (count == 0)
                    x = (uint64_t)c << 7;
                x = (1000003ULL * x) ^ c;
                count++;
            }
        }
        x ^= (uint64_t)count;
        MTState *s = get_state(self);
        if (!s)
            return -1;
        mt_seed_limbs(s, &x, 1);
        s->has_gauss = 0;
        return 0;
    }
    if (version == 2 && (is_text || is_bin)) {
        /* int.from_bytes(a + sha512(a).digest()) */
        uint8_t *buf = malloc((size_t)n + 64);
        if (!buf) {
            err_nomemory();
            return -1;
        }
        memcpy(buf, p, (size_t)n);
        sha512(buf, (size_t)n, buf + n);
        MTState *s = get_state(self);
        if (s) {
            mt_seed_bytes_be(s, buf, (size_t)n + 64);
            s->has_gauss = 0;
        }
        free(buf);
        return s ? 0 : -1;
    }
    if (v && !IS_NONE(v) && !IS_INT(v) && !IS_FLOAT(v) && !is_text && !is_bin) {
        err_set(E_TypeError, "The only supported seed types are: None,\nint, float, str, bytes, and bytearray.");
        return -1;
    }
    return seed_c(self, a);
}

/* ------------------------------------------------------------------ */
/* Core methods                                                        */
/* ------------------------------------------------------------------ */

static Obj r_seed(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"a", "version", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (nargs < 1) {
        err_set(E_TypeError, "seed() needs a Random instance");
        goto out;
    }
    if (vm_parse_args("seed", args + 1, nargs - 1, kwnames, names, 0, 2, a) < 0)
        goto out;
    int64_t version = 2;
    if (a[1] && vm_index_i64(a[1], &version) < 0)
        goto out;
    if (seed_py(args[0], a[0], version) < 0)
        goto out;
    res = g_None;
out:
    vm_unroots(a);
    return res;
}

static Obj r_random(Obj *args, size_t nargs, Obj kwnames)
{
    MTState *s = self_state(args, nargs);
    if (!s)
        return NULL;
    return float_new(mt_random(s));
}

static Obj r_getrandbits(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t k;
    if (arg_c_int(args[1], &k) < 0)   /* CPython takes k as a C int */
        return NULL;
    if (k < 0) {
        err_set(E_ValueError, "number of bits must be non-negative");
        return NULL;
    }
    return getrandbits_obj(NULL, args[0], k);
}

static Obj r_randbytes(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t n;
    if (arg_c_int(args[1], &n) < 0)
        return NULL;
    if (n < 0) {
        err_set(E_ValueError, "number of bits must be non-negative");
        return NULL;
    }
    if (n > INT_MAX / 8) {   /* getrandbits(n * 8) takes a C int */
        err_set(E_OverflowError, "Python int too large to convert to C int");
        return NULL;
    }
    if (!uses_own(args[0], g_meth_getrandbits, n_getrandbits)) {
        /* getrandbits(n * 8).to_bytes(n, 'little') through the override */
        Obj *r = vm_roots(2);
        Obj res = NULL;
        r[0] = call_getrandbits(args[0], n * 8);
        if (r[0]) {
            r[1] = int_from_i64(n);
            Obj *c = vm_roots(2);
            c[0] = r[1];
            c[1] = str_from_cstr("little");
            res = c[1] ? vm_call_method(r[0], "to_bytes", c, 2) : NULL;
            vm_unroots(c);
        }
        vm_unroots(r);
        return res;
    }
    Obj b = bytes_alloc(n);
    if (!b)
        return NULL;
    MTState *s = get_state(args[0]);
    if (!s)
        return NULL;
    unsigned char *out = (unsigned char *)VM_LINEAR(((BytesObj *)b)->data);
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        uint32_t w = mt_genrand(s);
        out[i] = (unsigned char)w;
        out[i + 1] = (unsigned char)(w >> 8);
        out[i + 2] = (unsigned char)(w >> 16);
        out[i + 3] = (unsigned char)(w >> 24);
    }
    if (i < n) {
        int bits = (int)(n - i) * 8;
        uint32_t w = mt_genrand(s) >> (32 - bits);
        for (; i < n; i++, w >>= 8)
            out[i] = (unsigned char)w;
    }
    return b;
}

static Obj r_getstate(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = tuple_new(MT_N + 1);
    if (!r[1])
        goto out;
    for (int i = 0; i <= MT_N; i++) {
        MTState *s = get_state(r[0]);
        if (!s)
            goto out;
        int64_t v = i < MT_N ? (int64_t)s->mt[i] : (int64_t)s->index;
        VM_WRITE(r[1]);
        TUPLE_ITEMS(r[1])[i] = MAKE_SMALLINT(v);
    }
    MTState *s = get_state(r[0]);
    if (!s)
        goto out;
    r[2] = s->has_gauss ? float_new(s->gauss_next) : g_None;
    if (!r[2])
        goto out;
    res = tuple_pack(3, MAKE_SMALLINT(3), r[1], r[2]);
out:
    vm_unroots(r);
    return res;
}

static Obj r_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    Obj state = vm_unwrap(args[1]);
    if (!IS_TUPLE(state) || TUPLE_LEN(state) < 1) {
        err_set(E_TypeError, "state vector must be a tuple");
        return NULL;
    }
    int64_t version;
    if (vm_index_i64(TUPLE_ITEMS(state)[0], &version) < 0)
        return NULL;
    state = vm_unwrap(args[1]);   /* __index__ may have allocated */
    if (version != 2 && version != 3) {
        Obj *r = vm_roots(1);
        r[0] = vm_str(TUPLE_ITEMS(state)[0]);
        if (r[0])
            err_format(E_ValueError, "state with version %s passed to Random.setstate() of version 3", str_cstr(r[0]));
        vm_unroots(r);
        return NULL;
    }
    if (TUPLE_LEN(state) != 3) {
        err_format(E_ValueError, "too many values to unpack (expected 3)");
        return NULL;
    }
    Obj inner = vm_unwrap(TUPLE_ITEMS(state)[1]);
    Obj gauss = TUPLE_ITEMS(state)[2];
    if (!IS_TUPLE(inner)) {
        err_set(E_TypeError, "state vector must be a tuple");
        return NULL;
    }
    if (TUPLE_LEN(inner) != MT_N + 1) {
        err_set(E_ValueError, "state vector is the wrong size");
        return NULL;
    }
    uint32_t mt[MT_N];
    int64_t index = 0;
    for (int i = 0; i <= MT_N; i++) {
        Obj x = TUPLE_ITEMS(inner)[i];
        int64_t v;
        if (!IS_INT(vm_unwrap(x))) {
            err_format(E_TypeError, "'%s' object cannot be interpreted as an integer", type_name(x));
            return NULL;
        }
        if (int_as_i64(vm_unwrap(x), &v) < 0)
            return NULL;
        if (i < MT_N) {
            if (version == 2)
                v = (int64_t)((uint64_t)v & 0xffffffffU);
            if (v < 0 || v > 0xffffffffLL) {
                err_set(E_OverflowError, "Python int too large to convert to C unsigned long");
                return NULL;
            }
            mt[i] = (uint32_t)v;
        } else {
            index = v;
        }
    }
    if (index < 0 || index > MT_N) {
        err_set(E_ValueError, "invalid state");
        return NULL;
    }
    double g = 0;
    bool has_g = !IS_NONE(gauss);
    if (has_g && vm_as_double(gauss, &g) < 0)
        return NULL;
    MTState *s = get_state(args[0]);
    if (!s)
        return NULL;
    memcpy(s->mt, mt, sizeof mt);
    s->index = (int32_t)index;
    s->has_gauss = has_g;
    s->gauss_next = g;
    return g_None;
}

static Obj r_randbelow(Obj *args, size_t nargs, Obj kwnames)
{
    Obj n = vm_index(args[1]);
    if (!n)
        return NULL;
    if (int_sign(n) <= 0) {
        if (int_sign(n) == 0)
            return MAKE_SMALLINT(0);
        err_set(E_ValueError, "negative bit count");
        return NULL;
    }
    if (IS_SMALLINT(n)) {
        MTState *s = get_state(args[0]);
        if (!s)
            return NULL;
        return MAKE_SMALLINT((int64_t)mt_randbelow64(s, (uint64_t)SMALLINT_VAL(n)));
    }
    Obj *r = vm_roots(1);
    r[0] = n;
    uint64_t k = int_bit_length(r[0]);
    Obj res;
    for (;;) {
        res = getrandbits_obj(NULL, args[0], (int64_t)k);
        if (!res || int_compare(res, r[0]) < 0)
            break;
    }
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* Integers: randrange, randint                                        */
/* ------------------------------------------------------------------ */

/* operator.index(v), or int(v) when that equals v (randrange's deprecated
 * float support); ValueError "non-integer <what> for randrange()". */
static Obj rr_index(Obj v, const char *what)
{
    if (IS_SMALLINT(v))
        return v;
    Obj i = vm_index(v);
    if (i || !err_matches(E_TypeError))
        return i;
    err_clear();
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = v;
    r[1] = vm_number_int(v);
    if (r[1]) {
        int ne = vm_richcompare_bool(r[1], r[0], CMP_NE);
        if (ne > 0)
            err_format(E_ValueError, "non-integer %s for randrange()", what);
        else if (ne == 0)
            res = r[1];
    }
    vm_unroots(r);
    return res;
}

static inline int64_t floordiv64(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

/* randrange(start, stop, step) with step_given = a step other than the
 * default 1 was passed. */
static Obj randrange_impl(Obj self, Obj start, Obj stop, Obj step, bool step_given)
{
    Obj *r = vm_roots(8);   /* self, start, stop, step, istart, istop, istep, scratch */
    Obj res = NULL;
    r[0] = self;
    r[1] = start;
    r[2] = stop;
    r[3] = step;
    r[4] = rr_index(r[1], "arg 1");
    if (!r[4])
        goto out;
    if (!r[2] || IS_NONE(r[2])) {
        if (step_given) {
            err_set(E_TypeError, "Missing a non-None stop argument");
            goto out;
        }
        if (int_sign(r[4]) > 0)
            res = randbelow(r[0], r[4]);
        else
            err_set(E_ValueError, "empty range for randrange()");
        goto out;
    }
    r[5] = rr_index(r[2], "stop");
    if (!r[5])
        goto out;
    r[6] = r[3] ? rr_index(r[3], "step") : MAKE_SMALLINT(1);
    if (!r[6])
        goto out;
    /* all small: C arithmetic (|values| < 2**61, so no overflow) */
    if (IS_SMALLINT(r[4]) && IS_SMALLINT(r[5]) && IS_SMALLINT(r[6])) {
        int64_t istart = SMALLINT_VAL(r[4]), istop = SMALLINT_VAL(r[5]), istep = SMALLINT_VAL(r[6]);
        int64_t width = istop - istart;
        if (istep == 1) {
            if (width > 0) {
                r[7] = int_from_i64(width);
                Obj b = r[7] ? randbelow(r[0], r[7]) : NULL;
                res = b ? int_add(MAKE_SMALLINT(istart), b) : NULL;
            } else {
                err_format(E_ValueError, "empty range for randrange() (%ld, %ld, %ld)", (long)istart, (long)istop,
                           (long)width);
            }
            goto out;
        }
        int64_t n;
        if (istep > 0)
            n = floordiv64(width + istep - 1, istep);
        else if (istep < 0)
            n = floordiv64(width + istep + 1, istep);
        else {
            err_set(E_ValueError, "zero step for randrange()");
            goto out;
        }
        if (n <= 0) {
            err_set(E_ValueError, "empty range for randrange()");
            goto out;
        }
        r[7] = int_from_i64(n);
        Obj b = r[7] ? randbelow(r[0], r[7]) : NULL;
        if (!b)
            goto out;
        r[7] = int_mul(MAKE_SMALLINT(istep), b);
        res = r[7] ? int_add(MAKE_SMALLINT(istart), r[7]) : NULL;
        goto out;
    }
    /* big ints */
    r[7] = int_sub(r[5], r[4]);   /* width */
    if (!r[7])
        goto out;
    if (IS_SMALLINT(r[6]) && SMALLINT_VAL(r[6]) == 1) {
        if (int_sign(r[7]) > 0) {
            Obj b = randbelow(r[0], r[7]);
            res = b ? int_add(r[4], b) : NULL;
        } else {
            Obj *q = vm_roots(3);
            q[0] = int_to_string(r[4], 10);
            q[1] = q[0] ? int_to_string(r[5], 10) : NULL;
            q[2] = q[1] ? int_to_string(r[7], 10) : NULL;
            if (q[2])
                err_format(E_ValueError, "empty range for randrange() (%s, %s, %s)", str_cstr(q[0]), str_cstr(q[1]),
                           str_cstr(q[2]));
            vm_unroots(q);
        }
        goto out;
    }
    int ssign = int_sign(r[6]);
    if (ssign == 0) {
        err_set(E_ValueError, "zero step for randrange()");
        goto out;
    }
    r[7] = int_add(r[7], r[6]);
    r[7] = r[7] ? int_add(r[7], MAKE_SMALLINT(ssign > 0 ? -1 : 1)) : NULL;
    r[7] = r[7] ? int_floordiv(r[7], r[6]) : NULL;   /* n */
    if (!r[7])
        goto out;
    if (int_sign(r[7]) <= 0) {
        err_set(E_ValueError, "empty range for randrange()");
        goto out;
    }
    r[7] = randbelow(r[0], r[7]);
    r[7] = r[7] ? int_mul(r[6], r[7]) : NULL;
    res = r[7] ? int_add(r[4], r[7]) : NULL;
out:
    vm_unroots(r);
    return res;
}

static Obj r_randrange(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"start", "stop", "step", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("randrange", args + 1, nargs - 1, kwnames, names, 1, 3, a) < 0)
        goto out;
    bool step_given = a[2] && !(IS_SMALLINT(a[2]) && SMALLINT_VAL(a[2]) == 1);
    res = randrange_impl(args[0], a[0], a[1], a[2], step_given);
out:
    vm_unroots(a);
    return res;
}

static Obj r_randint(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"a", "b", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("randint", args + 1, nargs - 1, kwnames, names, 2, 2, a) < 0)
        goto out;
    /* fast path: small ints */
    if (IS_SMALLINT(a[0]) && IS_SMALLINT(a[1]) && randbelow_kind(args[0]) == RB_OWN) {
        int64_t lo = SMALLINT_VAL(a[0]), hi = SMALLINT_VAL(a[1]);
        int64_t width = hi + 1 - lo;
        if (width > 0) {
            MTState *s = get_state(args[0]);
            if (s)
                res = int_from_i64(lo + (int64_t)mt_randbelow64(s, (uint64_t)width));
            goto out;
        }
    }
    a[2] = vm_binop(a[1], MAKE_SMALLINT(1), NB_ADD);
    if (a[2])
        res = randrange_impl(args[0], a[0], a[2], NULL, false);
out:
    vm_unroots(a);
    return res;
}

/* ------------------------------------------------------------------ */
/* Sequences: choice, shuffle, sample, choices                         */
/* ------------------------------------------------------------------ */

static Obj r_choice(Obj *args, size_t nargs, Obj kwnames)
{
    Obj seq = args[1];
    int64_t n = vm_len(seq);
    if (n < 0)
        return NULL;
    if (n == 0) {
        err_set(E_IndexError, "Cannot choose from an empty sequence");
        return NULL;
    }
    Obj i = randbelow(args[0], int_from_i64(n));
    if (!i)
        return NULL;
    seq = args[1];
    if (IS_LIST(seq) && IS_SMALLINT(i) && SMALLINT_VAL(i) < LIST_LEN(seq))
        return LIST_ITEMS(seq)[SMALLINT_VAL(i)];
    if (IS_TUPLE(seq) && IS_SMALLINT(i))
        return TUPLE_ITEMS(seq)[SMALLINT_VAL(i)];
    return vm_getitem(seq, i);
}

static Obj r_shuffle(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t n = vm_len(args[1]);
    if (n < 0)
        return NULL;
    bool own = randbelow_kind(args[0]) == RB_OWN;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    for (int64_t i = n - 1; i >= 1; i--) {
        int64_t j;
        if (own) {
            MTState *s = get_state(args[0]);
            if (!s)
                goto out;
            j = (int64_t)mt_randbelow64(s, (uint64_t)(i + 1));
        } else {
            Obj jo = randbelow(args[0], int_from_i64(i + 1));
            if (!jo || int_as_i64(jo, &j) < 0)
                goto out;
        }
        Obj x = args[1];
        if (IS_LIST(x) && LIST_LEN(x) == n) {
            VM_WRITE(LIST(x)->array);
            Obj t = LIST_ITEMS(x)[i];
            LIST_ITEMS(x)[i] = LIST_ITEMS(x)[j];
            LIST_ITEMS(x)[j] = t;
            continue;
        }
        /* x[i], x[j] = x[j], x[i] */
        r[0] = vm_getitem(x, MAKE_SMALLINT(j));
        r[1] = r[0] ? vm_getitem(args[1], MAKE_SMALLINT(i)) : NULL;
        if (!r[1] || vm_setitem(args[1], MAKE_SMALLINT(i), r[0]) < 0 ||
            vm_setitem(args[1], MAKE_SMALLINT(j), r[1]) < 0)
            goto out;
    }
    res = g_None;
out:
    vm_unroots(r);
    return res;
}

/* A small open-addressing set of int64 (sample's "selected"). */
typedef struct { int64_t *keys; uint8_t *used; size_t mask; } I64Set;

static int i64set_init(I64Set *s, int64_t k)
{
    size_t cap = 16;
    while (cap < (size_t)k * 2 + 2)
        cap <<= 1;
    s->keys = malloc(cap * sizeof(int64_t));
    s->used = calloc(cap, 1);
    s->mask = cap - 1;
    return s->keys && s->used ? 0 : -1;
}

/* 1 if added, 0 if present. */
static int i64set_add(I64Set *s, int64_t v)
{
    size_t h = (size_t)((uint64_t)v * 0x9e3779b97f4a7c15ULL >> 17) & s->mask;
    while (s->used[h]) {
        if (s->keys[h] == v)
            return 0;
        h = (h + 1) & s->mask;
    }
    s->used[h] = 1;
    s->keys[h] = v;
    return 1;
}

static void i64set_free(I64Set *s)
{
    free(s->keys);
    free(s->used);
}

/* bisect.bisect_right(a, x, lo, hi) for a list a. */
static int bisect_right(Obj a, Obj x, int64_t lo, int64_t hi, int64_t *out)
{
    Obj *r = vm_roots(2);
    r[0] = a;
    r[1] = x;
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        int lt = vm_richcompare_bool(r[1], LIST_ITEMS(r[0])[mid], CMP_LT);
        if (lt < 0) {
            vm_unroots(r);
            return -1;
        }
        if (lt)
            hi = mid;
        else
            lo = mid + 1;
    }
    vm_unroots(r);
    *out = lo;
    return 0;
}

/* list(itertools.accumulate(iterable)) */
static Obj accumulate(Obj iterable)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = vm_iter(iterable);
    r[1] = r[0] ? list_new_capacity(8) : NULL;
    if (!r[1])
        goto out;
    for (;;) {
        r[2] = vm_next(r[0]);
        if (!r[2]) {
            if (!err_occurred())
                res = r[1];
            goto out;
        }
        if (r[3]) {
            if (IS_FLOAT(r[3]) && IS_FLOAT(r[2]))
                r[3] = float_new(FLOAT_VAL(r[3]) + FLOAT_VAL(r[2]));
            else
                r[3] = vm_binop(r[3], r[2], NB_ADD);
            if (!r[3])
                goto out;
        } else {
            r[3] = r[2];
        }
        if (list_append(r[1], r[3]) < 0)
            goto out;
    }
out:
    vm_unroots(r);
    return res;
}

static bool is_sequence(Obj v)
{
    Obj u = vm_unwrap(v);
    unsigned tid = TID(u);
    if (tid == TID_SET || tid == TID_DICT)
        return false;
    TypeObj *t = TYPE(v);
    return t->tp_getitem && t->tp_len;
}

static Obj sample_impl(Obj self, Obj population, Obj kobj, Obj counts);

static Obj r_sample(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"population", "k", "counts", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("sample", args + 1, nargs - 1, kwnames, names, 2, 2, a) < 0)
        goto out;
    res = sample_impl(args[0], a[0], a[1], a[2]);
out:
    vm_unroots(a);
    return res;
}

static Obj sample_impl(Obj self, Obj population, Obj kobj, Obj counts)
{
    Obj *r = vm_roots(8);   /* self, population, k, counts, result, pool/cum, scratch, selections */
    Obj res = NULL;
    r[0] = self;
    r[1] = population;
    r[2] = kobj;
    r[3] = counts;
    if (!is_sequence(r[1])) {
        err_set(E_TypeError, "Population must be a sequence.  For dicts or sets, use sorted(d).");
        goto out;
    }
    int64_t n = vm_len(r[1]);
    if (n < 0)
        goto out;
    if (r[3] && !IS_NONE(r[3])) {
        r[5] = accumulate(r[3]);
        if (!r[5])
            goto out;
        if (LIST_LEN(r[5]) != n) {
            err_set(E_ValueError, "The number of counts does not match the population");
            goto out;
        }
        r[6] = list_pop(r[5], LIST_LEN(r[5]) - 1);   /* total */
        if (!r[6])
            goto out;
        if (!IS_INT(vm_unwrap(r[6])) || TID(vm_unwrap(r[6])) == TID_BOOL) {
            if (!IS_INT(vm_unwrap(r[6]))) {
                err_set(E_TypeError, "Counts must be integers");
                goto out;
            }
        }
        if (int_sign(vm_unwrap(r[6])) <= 0) {
            err_set(E_ValueError, "Total of counts must be greater than zero");
            goto out;
        }
        r[6] = range_new(MAKE_SMALLINT(0), vm_unwrap(r[6]), MAKE_SMALLINT(1));
        if (!r[6])
            goto out;
        r[7] = sample_impl(r[0], r[6], r[2], NULL);
        if (!r[7])
            goto out;
        r[4] = list_new(LIST_LEN(r[7]));
        if (!r[4])
            goto out;
        for (int64_t i = 0; i < LIST_LEN(r[7]); i++) {
            int64_t idx;
            if (bisect_right(r[5], LIST_ITEMS(r[7])[i], 0, LIST_LEN(r[5]), &idx) < 0)
                goto out;
            Obj item = vm_getitem(r[1], MAKE_SMALLINT(idx));
            if (!item)
                goto out;
            VM_WRITE(LIST(r[4])->array);
            LIST_ITEMS(r[4])[i] = item;
        }
        res = r[4];
        goto out;
    }
    int64_t k;
    Obj ku = vm_unwrap(r[2]);
    if (IS_INT(ku)) {
        if (int_as_i64(ku, &k) < 0) {
            err_clear();
            k = int_sign(ku) < 0 ? -1 : INT64_MAX;
        }
        if (k < 0 || k > n) {
            err_set(E_ValueError, "Sample larger than population or is negative");
            goto out;
        }
    } else {
        double kd;
        if (vm_as_double(r[2], &kd) < 0)
            goto out;
        if (!(0 <= kd && kd <= (double)n))
            err_set(E_ValueError, "Sample larger than population or is negative");
        else
            err_format(E_TypeError, "can't multiply sequence by non-int of type '%s'", type_name(r[2]));
        goto out;
    }
    r[4] = list_new(k);
    if (!r[4])
        goto out;
    int64_t setsize = 21;
    if (k > 5)
        setsize += (int64_t)pow(4.0, ceil(log((double)(k * 3)) / log(4.0)));
    bool own = randbelow_kind(r[0]) == RB_OWN;
    if (n <= setsize) {
        /* pool: an n-length list, the selected ones swapped out */
        r[5] = list_from_iterable(r[1]);
        if (!r[5])
            goto out;
        for (int64_t i = 0; i < k; i++) {
            int64_t j;
            if (own) {
                MTState *s = get_state(r[0]);
                if (!s)
                    goto out;
                j = (int64_t)mt_randbelow64(s, (uint64_t)(n - i));
            } else {
                Obj jo = randbelow(r[0], int_from_i64(n - i));
                if (!jo || int_as_i64(jo, &j) < 0)
                    goto out;
            }
            VM_WRITE(LIST(r[4])->array);
            LIST_ITEMS(r[4])[i] = LIST_ITEMS(r[5])[j];
            VM_WRITE(LIST(r[5])->array);
            LIST_ITEMS(r[5])[j] = LIST_ITEMS(r[5])[n - i - 1];
        }
    } else {
        I64Set sel;
        if (i64set_init(&sel, k) < 0) {
            i64set_free(&sel);
            err_nomemory();
            goto out;
        }
        for (int64_t i = 0; i < k; i++) {
            int64_t j;
            do {
                if (own) {
                    MTState *s = get_state(r[0]);
                    if (!s) {
                        i64set_free(&sel);
                        goto out;
                    }
                    j = (int64_t)mt_randbelow64(s, (uint64_t)n);
                } else {
                    Obj jo = randbelow(r[0], int_from_i64(n));
                    if (!jo || int_as_i64(jo, &j) < 0) {
                        i64set_free(&sel);
                        goto out;
                    }
                }
            } while (!i64set_add(&sel, j));
            Obj item;
            Obj pop = r[1];
            if (IS_LIST(pop) && j < LIST_LEN(pop))
                item = LIST_ITEMS(pop)[j];
            else if (IS_TUPLE(pop))
                item = TUPLE_ITEMS(pop)[j];
            else
                item = vm_getitem(pop, MAKE_SMALLINT(j));
            if (!item) {
                i64set_free(&sel);
                goto out;
            }
            VM_WRITE(LIST(r[4])->array);
            LIST_ITEMS(r[4])[i] = item;
        }
        i64set_free(&sel);
    }
    res = r[4];
out:
    vm_unroots(r);
    return res;
}

static Obj r_choices(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"population", "weights", "cum_weights", "k", NULL};
    Obj *a = vm_roots(8);   /* population, weights, cum_weights, k, result, scratch, total */
    Obj res = NULL;
    double *cw = NULL;
    if (vm_parse_args("choices", args + 1, nargs - 1, kwnames, names, 1, 2, a) < 0)
        goto out;
    int64_t k = 1;
    if (a[3]) {
        if (IS_FLOAT(a[3]) || !IS_INT(vm_unwrap(a[3]))) {
            err_format(E_TypeError, "'%s' object cannot be interpreted as an integer", type_name(a[3]));
            goto out;
        }
        if (vm_index_i64(a[3], &k) < 0)
            goto out;
    }
    if (k < 0)
        k = 0;
    int64_t n = vm_len(a[0]);
    if (n < 0)
        goto out;
    if (!a[2] || IS_NONE(a[2])) {
        if (!a[1] || IS_NONE(a[1])) {
            double nf = (double)n;
            a[4] = list_new(k);
            if (!a[4])
                goto out;
            for (int64_t i = 0; i < k; i++) {
                double x;
                if (rnd_float(args[0], &x) < 0)
                    goto out;
                double f = floor(x * nf);
                a[5] = int_from_double(f);
                if (!a[5])
                    goto out;
                Obj item;
                Obj pop = a[0];
                if (IS_LIST(pop) && IS_SMALLINT(a[5]) && SMALLINT_VAL(a[5]) < LIST_LEN(pop))
                    item = LIST_ITEMS(pop)[SMALLINT_VAL(a[5])];
                else
                    item = vm_getitem(pop, a[5]);
                if (!item)
                    goto out;
                VM_WRITE(LIST(a[4])->array);
                LIST_ITEMS(a[4])[i] = item;
            }
            res = a[4];
            goto out;
        }
        a[2] = accumulate(a[1]);
        if (!a[2]) {
            if (err_matches(E_TypeError) && IS_INT(vm_unwrap(a[1]))) {
                err_clear();
                Obj *q = vm_roots(1);
                q[0] = vm_repr(a[1]);
                if (q[0])
                    err_format(E_TypeError, "The number of choices must be a keyword argument: k=%s", str_cstr(q[0]));
                vm_unroots(q);
            }
            goto out;
        }
    } else if (a[1] && !IS_NONE(a[1])) {
        err_set(E_TypeError, "Cannot specify both weights and cumulative weights");
        goto out;
    } else if (!IS_LIST(a[2])) {
        a[2] = list_from_iterable(a[2]);
        if (!a[2])
            goto out;
    }
    if (LIST_LEN(a[2]) != n) {
        err_set(E_ValueError, "The number of weights does not match the population");
        goto out;
    }
    if (n == 0) {
        err_set(E_IndexError, "list index out of range");
        goto out;
    }
    a[6] = vm_binop(LIST_ITEMS(a[2])[n - 1], float_new(0.0), NB_ADD);
    if (!a[6])
        goto out;
    double total;
    if (IS_FLOAT(a[6]))
        total = FLOAT_VAL(a[6]);
    else if (vm_as_double(a[6], &total) < 0)
        goto out;
    if (total <= 0.0) {
        err_set(E_ValueError, "Total of weights must be greater than zero");
        goto out;
    }
    if (!isfinite(total)) {
        err_set(E_ValueError, "Total of weights must be finite");
        goto out;
    }
    /* cumulative weights as doubles when comparing with them is exact */
    cw = malloc((size_t)n * sizeof(double));
    bool fast = cw != NULL;
    for (int64_t i = 0; fast && i < n; i++) {
        Obj w = LIST_ITEMS(a[2])[i];
        if (IS_FLOAT(w))
            cw[i] = FLOAT_VAL(w);
        else if (IS_SMALLINT(w) && SMALLINT_VAL(w) <= (1LL << 53) && SMALLINT_VAL(w) >= -(1LL << 53))
            cw[i] = (double)SMALLINT_VAL(w);
        else
            fast = false;
    }
    a[4] = list_new(k);
    if (!a[4])
        goto out;
    int64_t hi = n - 1;
    for (int64_t i = 0; i < k; i++) {
        double x;
        if (rnd_float(args[0], &x) < 0)
            goto out;
        x *= total;
        int64_t idx;
        if (fast) {
            int64_t lo = 0, h = hi;
            while (lo < h) {
                int64_t mid = (lo + h) / 2;
                if (x < cw[mid])
                    h = mid;
                else
                    lo = mid + 1;
            }
            idx = lo;
        } else {
            a[5] = float_new(x);
            if (!a[5] || bisect_right(a[2], a[5], 0, hi, &idx) < 0)
                goto out;
        }
        Obj pop = a[0];
        Obj item = IS_LIST(pop) && idx < LIST_LEN(pop) ? LIST_ITEMS(pop)[idx] : vm_getitem(pop, MAKE_SMALLINT(idx));
        if (!item)
            goto out;
        VM_WRITE(LIST(a[4])->array);
        LIST_ITEMS(a[4])[i] = item;
    }
    res = a[4];
out:
    free(cw);
    vm_unroots(a);
    return res;
}

/* ------------------------------------------------------------------ */
/* Real-valued distributions                                           */
/* ------------------------------------------------------------------ */

/* Float parameters with defaults. */
static int float_params(const char *fname, Obj *args, size_t nargs, Obj kwnames, const char *const *names,
                        int nmin, int nmax, const double *defaults, double *out, Obj *raw)
{
    Obj *a = vm_roots(4);
    int rc = -1;
    if (nargs < 1) {
        err_format(E_TypeError, "%s() needs a Random instance", fname);
        goto out;
    }
    if (vm_parse_args(fname, args + 1, nargs - 1, kwnames, names, nmin, nmax, a) < 0)
        goto out;
    for (int i = 0; i < nmax; i++) {
        if (raw)
            raw[i] = a[i];
        if (!a[i]) {
            out[i] = defaults ? defaults[i] : 0.0;
            continue;
        }
        if (IS_FLOAT(a[i]))
            out[i] = FLOAT_VAL(a[i]);
        else if (vm_as_double(a[i], &out[i]) < 0)
            goto out;
    }
    rc = 0;
out:
    vm_unroots(a);
    return rc;
}

static Obj r_uniform(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"a", "b", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("uniform", args + 1, nargs - 1, kwnames, names, 2, 2, a) < 0)
        goto out;
    double x;
    if (rnd_float(args[0], &x) < 0)
        goto out;
    Obj lo = a[0], hi = a[1];
    /* a + (b - a) * random(), in doubles when that is exact */
    if (IS_FLOAT(lo) && IS_FLOAT(hi)) {
        res = float_new(FLOAT_VAL(lo) + (FLOAT_VAL(hi) - FLOAT_VAL(lo)) * x);
        goto out;
    }
    const int64_t L = 1LL << 52;
    if (IS_SMALLINT(lo) && IS_SMALLINT(hi) && SMALLINT_VAL(lo) < L && SMALLINT_VAL(lo) > -L && SMALLINT_VAL(hi) < L &&
        SMALLINT_VAL(hi) > -L) {
        res = float_new((double)SMALLINT_VAL(lo) + (double)(SMALLINT_VAL(hi) - SMALLINT_VAL(lo)) * x);
        goto out;
    }
    a[2] = vm_binop(a[1], a[0], NB_SUB);
    if (!a[2])
        goto out;
    Obj xf = float_new(x);
    a[2] = xf ? vm_binop(a[2], xf, NB_MUL) : NULL;
    if (a[2])
        res = vm_binop(a[0], a[2], NB_ADD);
out:
    vm_unroots(a);
    return res;
}

static Obj r_triangular(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"low", "high", "mode", NULL};
    static const double defs[] = {0.0, 1.0, 0.0};
    double p[3];
    Obj raw[3];
    if (float_params("triangular", args, nargs, kwnames, names, 0, 3, defs, p, raw) < 0)
        return NULL;
    bool has_mode = raw[2] && !IS_NONE(raw[2]);
    double u;
    if (rnd_float(args[0], &u) < 0)
        return NULL;
    double low = p[0], high = p[1], c;
    if (!has_mode) {
        c = 0.5;
    } else {
        if (high - low == 0.0)
            return float_new(low);
        c = (p[2] - low) / (high - low);
    }
    if (u > c) {
        u = 1.0 - u;
        c = 1.0 - c;
        double t = low;
        low = high;
        high = t;
    }
    return float_new(low + (high - low) * sqrt(u * c));
}

static Obj r_normalvariate(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"mu", "sigma", NULL};
    static const double defs[] = {0.0, 1.0};
    double p[2];
    if (float_params("normalvariate", args, nargs, kwnames, names, 0, 2, defs, p, NULL) < 0)
        return NULL;
    double z;
    for (;;) {
        double u1, u2;
        if (rnd_float(args[0], &u1) < 0 || rnd_float(args[0], &u2) < 0)
            return NULL;
        u2 = 1.0 - u2;
        z = NV_MAGICCONST * (u1 - 0.5) / u2;
        double zz = z * z / 4.0;
        if (zz <= -log(u2))
            break;
    }
    return float_new(p[0] + z * p[1]);
}

static Obj r_lognormvariate(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"mu", "sigma", NULL};
    double p[2];
    if (float_params("lognormvariate", args, nargs, kwnames, names, 2, 2, NULL, p, NULL) < 0)
        return NULL;
    double z;
    for (;;) {
        double u1, u2;
        if (rnd_float(args[0], &u1) < 0 || rnd_float(args[0], &u2) < 0)
            return NULL;
        u2 = 1.0 - u2;
        z = NV_MAGICCONST * (u1 - 0.5) / u2;
        double zz = z * z / 4.0;
        if (zz <= -log(u2))
            break;
    }
    double v = exp(p[0] + z * p[1]);
    if (isinf(v)) {
        err_set(E_OverflowError, "math range error");
        return NULL;
    }
    return float_new(v);
}

static Obj r_gauss(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"mu", "sigma", NULL};
    static const double defs[] = {0.0, 1.0};
    double p[2];
    if (float_params("gauss", args, nargs, kwnames, names, 0, 2, defs, p, NULL) < 0)
        return NULL;
    MTState *s = get_state(args[0]);
    if (!s)
        return NULL;
    double z;
    if (s->has_gauss) {
        z = s->gauss_next;
        s->has_gauss = 0;
    } else {
        double a, b;
        if (rnd_float(args[0], &a) < 0 || rnd_float(args[0], &b) < 0)
            return NULL;
        double x2pi = a * TWOPI;
        double g2rad = sqrt(-2.0 * log(1.0 - b));
        z = cos(x2pi) * g2rad;
        s = get_state(args[0]);
        if (!s)
            return NULL;
        s->gauss_next = sin(x2pi) * g2rad;
        s->has_gauss = 1;
    }
    return float_new(p[0] + z * p[1]);
}

static Obj r_expovariate(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"lambd", NULL};
    double p[1];
    if (float_params("expovariate", args, nargs, kwnames, names, 1, 1, NULL, p, NULL) < 0)
        return NULL;
    double u;
    if (rnd_float(args[0], &u) < 0)
        return NULL;
    if (p[0] == 0.0) {
        err_set(E_ZeroDivisionError, "float division by zero");
        return NULL;
    }
    return float_new(-log(1.0 - u) / p[0]);
}

/* Python's float % for a positive modulus. */
static double py_fmod(double x, double m)
{
    double r = fmod(x, m);
    if (r != 0.0) {
        if ((m < 0) != (r < 0))
            r += m;
    } else {
        r = copysign(0.0, m);
    }
    return r;
}

static Obj r_vonmisesvariate(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"mu", "kappa", NULL};
    double p[2];
    if (float_params("vonmisesvariate", args, nargs, kwnames, names, 2, 2, NULL, p, NULL) < 0)
        return NULL;
    double mu = p[0], kappa = p[1], u;
    if (kappa <= 1e-6) {
        if (rnd_float(args[0], &u) < 0)
            return NULL;
        return float_new(TWOPI * u);
    }
    double s = 0.5 / kappa;
    double r = s + sqrt(1.0 + s * s);
    double z;
    for (;;) {
        double u1, u2;
        if (rnd_float(args[0], &u1) < 0)
            return NULL;
        z = cos(M_PI * u1);
        double d = z / (r + z);
        if (rnd_float(args[0], &u2) < 0)
            return NULL;
        if (u2 < 1.0 - d * d || u2 <= (1.0 - d) * exp(d))
            break;
    }
    double q = 1.0 / r;
    double f = (q + z) / (1.0 + q * z);
    double u3;
    if (rnd_float(args[0], &u3) < 0)
        return NULL;
    double theta = u3 > 0.5 ? py_fmod(mu + acos(f), TWOPI) : py_fmod(mu - acos(f), TWOPI);
    return float_new(theta);
}

/* gammavariate as a C double; -1 with an exception on error. */
static int gamma_c(Obj self, double alpha, double beta, double *out)
{
    if (alpha <= 0.0 || beta <= 0.0) {
        err_set(E_ValueError, "gammavariate: alpha and beta must be > 0.0");
        return -1;
    }
    if (alpha > 1.0) {
        double ainv = sqrt(2.0 * alpha - 1.0);
        double bbb = alpha - LOG4;
        double ccc = alpha + ainv;
        for (;;) {
            double u1, u2;
            if (rnd_float(self, &u1) < 0)
                return -1;
            if (!(1e-7 < u1 && u1 < 0.9999999))
                continue;
            if (rnd_float(self, &u2) < 0)
                return -1;
            u2 = 1.0 - u2;
            double v = log(u1 / (1.0 - u1)) / ainv;
            double x = alpha * exp(v);
            double z = u1 * u1 * u2;
            double r = bbb + ccc * v - x;
            if (r + SG_MAGICCONST - 4.5 * z >= 0.0 || r >= log(z)) {
                *out = x * beta;
                return 0;
            }
        }
    }
    if (alpha == 1.0) {
        double u;
        if (rnd_float(self, &u) < 0)
            return -1;
        *out = -log(1.0 - u) * beta;
        return 0;
    }
    double x;
    for (;;) {
        double u, u1;
        if (rnd_float(self, &u) < 0)
            return -1;
        double b = (M_E + alpha) / M_E;
        double p = b * u;
        if (p <= 1.0)
            x = pow(p, 1.0 / alpha);
        else
            x = -log((b - p) / alpha);
        if (rnd_float(self, &u1) < 0)
            return -1;
        if (p > 1.0) {
            if (u1 <= pow(x, alpha - 1.0))
                break;
        } else if (u1 <= exp(-x)) {
            break;
        }
    }
    *out = x * beta;
    return 0;
}

static Obj r_gammavariate(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"alpha", "beta", NULL};
    double p[2], v;
    if (float_params("gammavariate", args, nargs, kwnames, names, 2, 2, NULL, p, NULL) < 0)
        return NULL;
    if (gamma_c(args[0], p[0], p[1], &v) < 0)
        return NULL;
    return float_new(v);
}

static Obj r_betavariate(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"alpha", "beta", NULL};
    double p[2], y, z;
    if (float_params("betavariate", args, nargs, kwnames, names, 2, 2, NULL, p, NULL) < 0)
        return NULL;
    if (gamma_c(args[0], p[0], 1.0, &y) < 0)
        return NULL;
    if (y == 0.0)
        return float_new(0.0);
    if (gamma_c(args[0], p[1], 1.0, &z) < 0)
        return NULL;
    return float_new(y / (y + z));
}

static Obj r_paretovariate(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"alpha", NULL};
    double p[1], u;
    if (float_params("paretovariate", args, nargs, kwnames, names, 1, 1, NULL, p, NULL) < 0)
        return NULL;
    if (rnd_float(args[0], &u) < 0)
        return NULL;
    u = 1.0 - u;
    if (p[0] == 0.0) {
        err_set(E_ZeroDivisionError, "float division by zero");
        return NULL;
    }
    return float_pow_double(u, -1.0 / p[0]);
}

static Obj r_weibullvariate(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"alpha", "beta", NULL};
    double p[2], u;
    if (float_params("weibullvariate", args, nargs, kwnames, names, 2, 2, NULL, p, NULL) < 0)
        return NULL;
    if (rnd_float(args[0], &u) < 0)
        return NULL;
    u = 1.0 - u;
    if (p[1] == 0.0) {
        err_set(E_ZeroDivisionError, "float division by zero");
        return NULL;
    }
    Obj *r = vm_roots(1);
    r[0] = float_pow_double(-log(u), 1.0 / p[1]);
    Obj res = NULL;
    if (r[0]) {
        if (IS_FLOAT(r[0]))
            res = float_new(p[0] * FLOAT_VAL(r[0]));
        else
            res = vm_binop(float_new(p[0]), r[0], NB_MUL);
    }
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* Construction                                                        */
/* ------------------------------------------------------------------ */

static Obj random_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (type == (Obj)T_Random && kwnames && TUPLE_LEN(kwnames)) {
        err_set(E_TypeError, "Random() takes no keyword arguments");
        return NULL;
    }
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = type;
    r[1] = state_new();
    if (r[1]) {
        Obj inst = instance_new((TypeObj *)r[0]);
        if (inst) {
            VM_WRITE(inst);
            INST(inst)->base_value = r[1];
            res = inst;
        }
    }
    vm_unroots(r);
    return res;
}

static int random_tp_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"x", NULL};
    Obj *a = vm_roots(2);
    int rc = -1;
    a[1] = self;
    if (vm_parse_args("Random", args, nargs, kwnames, names, 0, 1, a) == 0) {
        /* self.seed(x): an override in a subclass is called */
        if (TYPE(a[1]) != T_Random && !uses_own(a[1], dict_getitem_str(T_Random->dict, n_seed), n_seed)) {
            Obj arg = a[0] ? a[0] : g_None;
            a[0] = arg;
            rc = vm_call_method(a[1], "seed", &a[0], 1) ? 0 : -1;
        } else {
            rc = seed_py(a[1], a[0], 2);
        }
    }
    vm_unroots(a);
    return rc;
}

/* ---- SystemRandom: the OS entropy source ---- */

static Obj sr_random(Obj *args, size_t nargs, Obj kwnames)
{
    unsigned char b[7];
    if (posix_random_bytes(b, sizeof b) < 0)
        return err_from_errno(errno, NULL);
    uint64_t v = 0;
    for (int i = 0; i < 7; i++)
        v = (v << 8) | b[i];
    return float_new((double)(v >> 3) * (1.0 / 9007199254740992.0));
}

static Obj sr_getrandbits(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t k;
    if (vm_index_i64(args[1], &k) < 0)
        return NULL;
    if (k < 0) {
        err_set(E_ValueError, "number of bits must be non-negative");
        return NULL;
    }
    size_t nbytes = (size_t)k / 8 + ((size_t)k % 8 != 0);
    if (nbytes > vm_max_object_size())   /* the int could never be built */
        return err_nomemory();
    unsigned char *buf = malloc(nbytes + 1);
    if (!buf)
        return err_nomemory();
    if (posix_random_bytes(buf, nbytes) < 0) {
        int e = errno;
        free(buf);
        return err_from_errno(e, NULL);
    }
    /* int.from_bytes(buf, 'big') >> (nbytes * 8 - k) */
    Obj *r = vm_roots(1);
    r[0] = MAKE_SMALLINT(0);
    for (size_t i = 0; i < nbytes && r[0]; i++) {
        r[0] = int_lshift(r[0], MAKE_SMALLINT(8));
        r[0] = r[0] ? int_or(r[0], MAKE_SMALLINT(buf[i])) : NULL;
    }
    free(buf);
    Obj res = r[0] ? int_rshift(r[0], MAKE_SMALLINT((int64_t)nbytes * 8 - k)) : NULL;
    vm_unroots(r);
    return res;
}

static Obj sr_seed(Obj *args, size_t nargs, Obj kwnames)
{
    (void)args; (void)nargs; (void)kwnames;
    return g_None;
}

static Obj sr_notimplemented(Obj *args, size_t nargs, Obj kwnames)
{
    (void)args; (void)nargs; (void)kwnames;
    err_set(E_NotImplementedError, "System entropy source does not have state.");
    return NULL;
}

/* Pickling as CPython's random.Random: (class, (), self.getstate()), and
 * __setstate__ calls self.setstate (a subclass's override included). */
static Obj r_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = vm_call_method(r[0], "getstate", NULL, 0);
    if (r[1])
        res = tuple_pack(3, (Obj)TYPE(r[0]), g_empty_tuple, r[1]);
    vm_unroots(r);
    return res;
}

static Obj r_getstate_dunder(Obj *args, size_t nargs, Obj kwnames)
{
    return vm_call_method(args[0], "getstate", NULL, 0);
}

static Obj r_setstate_dunder(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    r[0] = vm_call_method1(args[0], "setstate", args[1]);
    Obj res = r[0] ? g_None : NULL;
    vm_unroots(r);
    return res;
}

static const MethodDef random_methods[] = {
    {"__reduce__", r_reduce, METH_NOARGS, NULL},
    {"__getstate__", r_getstate_dunder, METH_NOARGS, NULL},
    {"__setstate__", r_setstate_dunder, METH_O, NULL},
    {"seed", r_seed, METH_KW, "Initialize internal state from a seed."},
    {"random", r_random, METH_NOARGS, "random() -> x in the interval [0, 1)."},
    {"getrandbits", r_getrandbits, METH_O, "getrandbits(k) -> x.  Generates an int with k random bits."},
    {"randbytes", r_randbytes, METH_O, "Generate n random bytes."},
    {"getstate", r_getstate, METH_NOARGS, "Return internal state; can be passed to setstate() later."},
    {"setstate", r_setstate, METH_O, "Restore internal state from object returned by getstate()."},
    {"_randbelow", r_randbelow, METH_O, "Return a random int in the range [0,n).  Defined for n > 0."},
    {"randrange", r_randrange, METH_KW, "Choose a random item from range(stop) or range(start, stop[, step])."},
    {"randint", r_randint, METH_KW, "Return random integer in range [a, b], including both end points."},
    {"choice", r_choice, METH_O, "Choose a random element from a non-empty sequence."},
    {"shuffle", r_shuffle, METH_O, "Shuffle list x in place, and return None."},
    {"sample", r_sample, METH_KW, "Chooses k unique random elements from a population sequence."},
    {"choices", r_choices, METH_KW, "Return a k sized list of population elements chosen with replacement."},
    {"uniform", r_uniform, METH_KW, "Get a random number in the range [a, b) or [a, b] depending on rounding."},
    {"triangular", r_triangular, METH_KW, "Triangular distribution."},
    {"normalvariate", r_normalvariate, METH_KW, "Normal distribution."},
    {"lognormvariate", r_lognormvariate, METH_KW, "Log normal distribution."},
    {"gauss", r_gauss, METH_KW, "Gaussian distribution."},
    {"expovariate", r_expovariate, METH_KW, "Exponential distribution."},
    {"vonmisesvariate", r_vonmisesvariate, METH_KW, "Circular data distribution."},
    {"gammavariate", r_gammavariate, METH_KW, "Gamma distribution.  Not the gamma function!"},
    {"betavariate", r_betavariate, METH_KW, "Beta distribution."},
    {"paretovariate", r_paretovariate, METH_KW, "Pareto distribution.  alpha is the shape parameter."},
    {"weibullvariate", r_weibullvariate, METH_KW, "Weibull distribution."},
    {NULL, NULL, 0, NULL},
};

static const MethodDef sysrandom_methods[] = {
    {"random", sr_random, METH_NOARGS, "Get the next random number in the range 0.0 <= X < 1.0."},
    {"getrandbits", sr_getrandbits, METH_O, "getrandbits(k) -> x.  Generates an int with k random bits."},
    {"seed", sr_seed, METH_KW, "Stub method.  Not used for a system random number generator."},
    {"getstate", sr_notimplemented, METH_KW, NULL},
    {"setstate", sr_notimplemented, METH_KW, NULL},
    {NULL, NULL, 0, NULL},
};

/* The module functions: bound methods of the hidden instance, as random.py. */
static const char *const exported[] = {
    "seed", "random", "uniform", "triangular", "randint", "choice", "randrange", "sample", "shuffle",
    "choices", "normalvariate", "lognormvariate", "expovariate", "vonmisesvariate", "gammavariate",
    "gauss", "betavariate", "paretovariate", "weibullvariate", "getstate", "setstate", "getrandbits",
    "randbytes", NULL,
};

static void init_types(void)
{
    TWOPI = 2.0 * M_PI;
    NV_MAGICCONST = 4 * exp(-0.5) / sqrt(2.0);
    LOG4 = log(4.0);
    SG_MAGICCONST = 1.0 + log(4.5);

    n_random = str_intern_cstr("random");
    n_getrandbits = str_intern_cstr("getrandbits");
    n_randbelow = str_intern_cstr("_randbelow");
    n_seed = str_intern_cstr("seed");
    T_Random = (TypeObj *)type_new_builtin("random.Random", T_object, TID_INSTANCE, TPF_BASETYPE | TPF_HAS_DICT);
    VM_WRITE(T_Random);
    T_Random->flags &= ~(uint32_t)TPF_DOTTED_NAME;   /* a Python class in CPython: plain 'Random' */
    T_Random->tp_new = random_tp_new;
    T_Random->tp_init = random_tp_init;
    type_add_methods(T_Random, random_methods);
    type_set_attr_cstr(T_Random, "VERSION", MAKE_SMALLINT(3));
    type_ready(T_Random);
    g_meth_random = dict_getitem_str(T_Random->dict, n_random);
    g_meth_getrandbits = dict_getitem_str(T_Random->dict, n_getrandbits);
    g_meth_randbelow = dict_getitem_str(T_Random->dict, n_randbelow);

    T_SystemRandom = (TypeObj *)type_new_builtin("random.SystemRandom", T_Random, TID_INSTANCE,
                                                 TPF_BASETYPE | TPF_HAS_DICT);
    VM_WRITE(T_SystemRandom);
    T_SystemRandom->flags &= ~(uint32_t)TPF_DOTTED_NAME;
    T_SystemRandom->tp_new = random_tp_new;
    T_SystemRandom->tp_init = random_tp_init;
    type_add_methods(T_SystemRandom, sysrandom_methods);
    type_ready(T_SystemRandom);
}

Obj random_module_init(void)
{
    static bool types_done;
    if (!types_done) {
        VM_GLOBAL_ROOT(g_inst);
        VM_GLOBAL_ROOT(g_meth_random);
        VM_GLOBAL_ROOT(g_meth_getrandbits);
        VM_GLOBAL_ROOT(g_meth_randbelow);
        init_types();
        types_done = true;
    }
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = module_new("random");
    if (!r[0])
        goto out;
    /* _inst = Random(): seeded from the OS */
    r[1] = vm_call0((Obj)T_Random);
    if (!r[1])
        goto out;
    g_inst = r[1];
    if (module_add(r[0], "Random", (Obj)T_Random) < 0 || module_add(r[0], "SystemRandom", (Obj)T_SystemRandom) < 0 ||
        module_add(r[0], "_inst", r[1]) < 0)
        goto out;
    for (const char *const *name = exported; *name; name++) {
        const MethodDef *def = NULL;
        for (const MethodDef *d = random_methods; d->name; d++)
            if (!strcmp(d->name, *name))
                def = d;
        if (!def)
            continue;
        r[2] = builtin_new(def, g_inst, (Obj)T_Random);
        if (!r[2] || module_add(r[0], *name, r[2]) < 0)
            goto out;
    }
    struct { const char *name; double v; } consts[] = {
        {"TWOPI", TWOPI}, {"NV_MAGICCONST", NV_MAGICCONST}, {"LOG4", LOG4}, {"SG_MAGICCONST", SG_MAGICCONST},
        {"RECIP_BPF", 1.0 / 9007199254740992.0},
    };
    for (size_t i = 0; i < ARRAY_LEN(consts); i++) {
        r[2] = float_new(consts[i].v);
        if (!r[2] || module_add(r[0], consts[i].name, r[2]) < 0)
            goto out;
    }
    if (module_add(r[0], "BPF", MAKE_SMALLINT(53)) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
