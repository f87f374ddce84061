/* The _blake2 module: blake2b and blake2s with every parameter of CPython's
 * (digest_size, key, salt, person, fanout, depth, leaf_size, node_offset,
 * node_depth, inner_size, last_node), which OpenSSL's fixed-size EVP
 * digests cannot take. BLAKE2 written here from RFC 7693 and the BLAKE2
 * paper's parameter block. hashlib.py takes blake2b/blake2s from this
 * module, never from _hashlib.
 *
 * The hash state is plain data in a RawObj (IterObj: a = the state,
 * n = the digest size, kind = 0 for blake2b, 1 for blake2s): an update
 * works on a C copy and writes it back through the write barrier, so under
 * STM an abort undoes it like any heap write and copy() copies bytes. */
#include "modules.h"
#include "objects/containers.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define B2_CHUNK (256 * 1024)   /* bytes hashed between safe points */

static TypeObj *T_blake2b, *T_blake2s;

static const uint8_t sigma[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4}, {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13}, {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11}, {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5}, {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
};

static const uint64_t iv64[8] = {
    0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
    0x510e527fade682d1ull, 0x9b05688c2b3e6c1full, 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull,
};
static const uint32_t iv32[8] = {
    0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au, 0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u,
};

/* One state layout for both: words are 64-bit for blake2b, the low 32 bits
 * for blake2s. */
typedef struct B2State {
    uint64_t h[8];
    uint64_t t[2];           /* byte counter */
    uint32_t buflen, outlen;
    uint32_t last_node, is_s;
    uint8_t buf[128];        /* blake2b's block; blake2s uses 64 */
} B2State;

static inline uint64_t rotr64(uint64_t x, int n) { return x >> n | x << (64 - n); }
static inline uint32_t rotr32(uint32_t x, int n) { return x >> n | x << (32 - n); }

static uint64_t load_le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void compress_b(B2State *s, const uint8_t *block, bool last)
{
    uint64_t v[16], m[16];
    for (int i = 0; i < 16; i++)
        m[i] = load_le(block + 8 * i, 8);
    for (int i = 0; i < 8; i++) {
        v[i] = s->h[i];
        v[i + 8] = iv64[i];
    }
    v[12] ^= s->t[0];
    v[13] ^= s->t[1];
    if (last) {
        v[14] = ~v[14];
        if (s->last_node)
            v[15] = ~v[15];
    }
#define GB(a, b, c, d, x, y)                                            \
    do {                                                                \
        v[a] += v[b] + (x); v[d] = rotr64(v[d] ^ v[a], 32);             \
        v[c] += v[d]; v[b] = rotr64(v[b] ^ v[c], 24);                   \
        v[a] += v[b] + (y); v[d] = rotr64(v[d] ^ v[a], 16);             \
        v[c] += v[d]; v[b] = rotr64(v[b] ^ v[c], 63);                   \
    } while (0)
    for (int r = 0; r < 12; r++) {
        const uint8_t *sg = sigma[r % 10];
        GB(0, 4, 8, 12, m[sg[0]], m[sg[1]]);
        GB(1, 5, 9, 13, m[sg[2]], m[sg[3]]);
        GB(2, 6, 10, 14, m[sg[4]], m[sg[5]]);
        GB(3, 7, 11, 15, m[sg[6]], m[sg[7]]);
        GB(0, 5, 10, 15, m[sg[8]], m[sg[9]]);
        GB(1, 6, 11, 12, m[sg[10]], m[sg[11]]);
        GB(2, 7, 8, 13, m[sg[12]], m[sg[13]]);
        GB(3, 4, 9, 14, m[sg[14]], m[sg[15]]);
    }
#undef GB
    for (int i = 0; i < 8; i++)
        s->h[i] ^= v[i] ^ v[i + 8];
}

static void compress_s(B2State *s, const uint8_t *block, bool last)
{
    uint32_t v[16], m[16];
    for (int i = 0; i < 16; i++)
        m[i] = (uint32_t)load_le(block + 4 * i, 4);
    for (int i = 0; i < 8; i++) {
        v[i] = (uint32_t)s->h[i];
        v[i + 8] = iv32[i];
    }
    v[12] ^= (uint32_t)s->t[0];
    v[13] ^= (uint32_t)(s->t[0] >> 32);
    if (last) {
        v[14] = ~v[14];
        if (s->last_node)
            v[15] = ~v[15];
    }
#define GS(a, b, c, d, x, y)                                            \
    do {                                                                \
        v[a] += v[b] + (x); v[d] = rotr32(v[d] ^ v[a], 16);             \
        v[c] += v[d]; v[b] = rotr32(v[b] ^ v[c], 12);                   \
        v[a] += v[b] + (y); v[d] = rotr32(v[d] ^ v[a], 8);              \
        v[c] += v[d]; v[b] = rotr32(v[b] ^ v[c], 7);                    \
    } while (0)
    for (int r = 0; r < 10; r++) {
        const uint8_t *sg = sigma[r];
        GS(0, 4, 8, 12, m[sg[0]], m[sg[1]]);
        GS(1, 5, 9, 13, m[sg[2]], m[sg[3]]);
        GS(2, 6, 10, 14, m[sg[4]], m[sg[5]]);
        GS(3, 7, 11, 15, m[sg[6]], m[sg[7]]);
        GS(0, 5, 10, 15, m[sg[8]], m[sg[9]]);
        GS(1, 6, 11, 12, m[sg[10]], m[sg[11]]);
        GS(2, 7, 8, 13, m[sg[12]], m[sg[13]]);
        GS(3, 4, 9, 14, m[sg[14]], m[sg[15]]);
    }
#undef GS
    for (int i = 0; i < 8; i++)
        s->h[i] = (uint32_t)s->h[i] ^ v[i] ^ v[i + 8];
}

static unsigned block_of(const B2State *s) { return s->is_s ? 64 : 128; }

static void add_count(B2State *s, uint64_t n)
{
    s->t[0] += n;
    if (s->t[0] < n)
        s->t[1]++;
}

static void compress(B2State *s, const uint8_t *block, bool last)
{
    if (s->is_s)
        compress_s(s, block, last);
    else
        compress_b(s, block, last);
}

/* The last block stays buffered until final (it is compressed with the
 * "last" flag), so a full buffer is compressed only when more data comes. */
static void b2_update(B2State *s, const uint8_t *p, int64_t n)
{
    unsigned bs = block_of(s);
    int64_t since = 0;
    while (n > 0) {
        if (s->buflen == bs) {
            add_count(s, bs);
            compress(s, s->buf, false);
            s->buflen = 0;
        }
        if (s->buflen == 0) {   /* whole blocks straight from the input, keeping the last one */
            while (n > (int64_t)bs) {
                add_count(s, bs);
                compress(s, p, false);
                p += bs;
                n -= bs;
                if ((since += bs) >= B2_CHUNK) {
                    since = 0;
                    tm_safepoint();   /* a committer may be waiting (the input does not move) */
                }
            }
        }
        unsigned k = bs - s->buflen;
        if ((int64_t)k > n)
            k = (unsigned)n;
        memcpy(s->buf + s->buflen, p, k);
        s->buflen += k;
        p += k;
        n -= k;
    }
}

static void b2_final(const B2State *in, uint8_t *out)
{
    B2State s = *in;
    unsigned bs = block_of(&s);
    add_count(&s, s.buflen);
    memset(s.buf + s.buflen, 0, bs - s.buflen);
    compress(&s, s.buf, true);
    for (unsigned i = 0; i < s.outlen; i++)
        out[i] = (uint8_t)(s.is_s ? (uint32_t)s.h[i / 4] >> (8 * (i % 4)) : s.h[i / 8] >> (8 * (i % 8)));
}

/* ---- the Python objects ---- */

static bool data_arg(Obj v, const char **p, int64_t *n)
{
    if (str_value(v)) {
        err_set(E_TypeError, "Strings must be encoded before hashing");
        return false;
    }
    if (bytes_like(v, p, n))
        return true;
    if (memview_buffer_error(v))
        return false;
    err_set(E_TypeError, "object supporting the buffer API required");
    return false;
}

/* A non-negative int parameter (CPython converts them as unsigned). */
static int unsigned_param(Obj v, uint64_t *out)
{
    Obj *r = vm_roots(1);
    int rc = -1;
    r[0] = vm_index(v);
    if (r[0]) {
        if (int_sign(r[0]) < 0) {
            err_set(E_ValueError, "value must be positive");
        } else if (int_bit_length(r[0]) > 64) {
            err_set(E_OverflowError, "int too big to convert");
        } else {
            Obj lo = vm_binop(r[0], MAKE_SMALLINT(0xffffffffLL), NB_AND);
            Obj hi = lo ? int_rshift(r[0], MAKE_SMALLINT(32)) : NULL;
            int64_t l, h;
            if (lo && hi && int_as_i64(lo, &l) == 0 && int_as_i64(hi, &h) == 0) {
                *out = (uint64_t)h << 32 | (uint64_t)l;
                rc = 0;
            }
        }
    }
    vm_unroots(r);
    return rc;
}

static int small_int_param(Obj v, int64_t *out)
{
    return arg_c_int(v, out);
}

static Obj b2_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"", "digest_size", "key", "salt", "person", "fanout", "depth",
                                        "leaf_size", "node_offset", "node_depth", "inner_size", "last_node",
                                        "usedforsecurity", NULL};
    bool is_s = type == (Obj)T_blake2s;
    const char *fname = is_s ? "blake2s" : "blake2b";
    const int max_digest = is_s ? 32 : 64, max_key = is_s ? 32 : 64, salt_size = is_s ? 8 : 16;
    Obj *a = vm_roots(14);
    Obj res = NULL;
    if (vm_parse_args(fname, args, nargs, kwnames, names, 0, 1, a) < 0)
        goto out;
    int64_t digest_size = max_digest, fanout = 1, depth = 1, node_depth = 0, inner_size = 0;
    uint64_t leaf_size = 0, node_offset = 0;
    int last_node = 0;
    if (a[1] && small_int_param(a[1], &digest_size) < 0)
        goto out;
    if (digest_size < 1 || digest_size > max_digest) {
        err_format(E_ValueError, "digest_size must be between 1 and %d bytes", max_digest);
        goto out;
    }
    const char *p;
    int64_t n;
    int64_t lens[3] = {0, 0, 0};
    static const char *const what[3] = {"key", "salt", "person"};
    for (int k = 0; k < 3; k++) {
        if (!a[2 + k])
            continue;
        if (!bytes_like_arg(a[2 + k], &p, &n))
            goto out;
        int limit = k == 0 ? max_key : salt_size;
        if (n > limit) {
            err_format(E_ValueError, "maximum %s length is %d bytes", what[k], limit);
            goto out;
        }
        lens[k] = n;
    }
    if (a[5] && small_int_param(a[5], &fanout) < 0)
        goto out;
    if (fanout < 0 || fanout > 255) {
        err_set(E_ValueError, "fanout must be between 0 and 255");
        goto out;
    }
    if (a[6] && small_int_param(a[6], &depth) < 0)
        goto out;
    if (depth <= 0 || depth > 255) {
        err_set(E_ValueError, "depth must be between 1 and 255");
        goto out;
    }
    if (a[7] && unsigned_param(a[7], &leaf_size) < 0)
        goto out;
    if (leaf_size > 0xffffffffull) {
        err_set(E_OverflowError, "leaf_size is too large");
        goto out;
    }
    if (a[8] && unsigned_param(a[8], &node_offset) < 0)
        goto out;
    if (is_s && node_offset > 0xffffffffffffull) {
        err_set(E_OverflowError, "node_offset is too large");
        goto out;
    }
    if (a[9] && small_int_param(a[9], &node_depth) < 0)
        goto out;
    if (node_depth < 0 || node_depth > 255) {
        err_set(E_ValueError, "node_depth must be between 0 and 255");
        goto out;
    }
    if (a[10] && small_int_param(a[10], &inner_size) < 0)
        goto out;
    if (inner_size < 0 || inner_size > max_digest) {
        err_format(E_ValueError, "inner_size must be between 0 and is %d", max_digest);
        goto out;
    }
    if (a[11] && (last_node = vm_is_true(a[11])) < 0)
        goto out;
    if (a[0] && !data_arg(a[0], &p, &n))
        goto out;
    a[13] = raw_new((int64_t)sizeof(B2State));
    if (!a[13])
        goto out;
    /* the parameter block, XORed into the IV */
    B2State s;
    memset(&s, 0, sizeof s);
    s.is_s = is_s;
    s.outlen = (uint32_t)digest_size;
    s.last_node = (uint32_t)last_node;
    uint8_t pb[64];
    memset(pb, 0, sizeof pb);
    pb[0] = (uint8_t)digest_size;
    pb[1] = (uint8_t)lens[0];
    pb[2] = (uint8_t)fanout;
    pb[3] = (uint8_t)depth;
    for (int i = 0; i < 4; i++)
        pb[4 + i] = (uint8_t)(leaf_size >> (8 * i));
    const char *sp, *pp;
    int64_t sn, pn;
    if (is_s) {
        for (int i = 0; i < 6; i++)
            pb[8 + i] = (uint8_t)(node_offset >> (8 * i));
        pb[14] = (uint8_t)node_depth;
        pb[15] = (uint8_t)inner_size;
        if (a[3] && bytes_like(a[3], &sp, &sn))
            memcpy(pb + 16, sp, (size_t)sn);
        if (a[4] && bytes_like(a[4], &pp, &pn))
            memcpy(pb + 24, pp, (size_t)pn);
        for (int i = 0; i < 8; i++)
            s.h[i] = iv32[i] ^ (uint32_t)load_le(pb + 4 * i, 4);
    } else {
        for (int i = 0; i < 8; i++)
            pb[8 + i] = (uint8_t)(node_offset >> (8 * i));
        pb[16] = (uint8_t)node_depth;
        pb[17] = (uint8_t)inner_size;
        if (a[3] && bytes_like(a[3], &sp, &sn))
            memcpy(pb + 32, sp, (size_t)sn);
        if (a[4] && bytes_like(a[4], &pp, &pn))
            memcpy(pb + 48, pp, (size_t)pn);
        for (int i = 0; i < 8; i++)
            s.h[i] = iv64[i] ^ load_le(pb + 8 * i, 8);
    }
    if (lens[0]) {   /* the key, padded to a block, is the first block */
        const char *kp;
        int64_t kn;
        bytes_like(a[2], &kp, &kn);
        memcpy(s.buf, kp, (size_t)kn);
        s.buflen = block_of(&s);
    }
    if (a[0]) {
        data_arg(a[0], &p, &n);
        b2_update(&s, (const uint8_t *)p, n);
    }
    memcpy(VM_LINEAR(RAW(a[13])->data), &s, sizeof s);   /* a new object: no barrier */
    tm_compiler_barrier();
    Obj h = iter_alloc(is_s ? T_blake2s : T_blake2b, a[13], is_s);
    if (h) {
        ITER(h)->n = digest_size;
        res = h;
    }
out:
    vm_unroots(a);
    return res;
}

static void state_of(Obj self, B2State *s)
{
    memcpy(s, VM_LINEAR(RAW(ITER(self)->a)->data), sizeof *s);
    tm_compiler_barrier();
}

static Obj b2_update_m(Obj *args, size_t nargs, Obj kwnames)
{
    const char *p;
    int64_t n;
    if (!data_arg(args[1], &p, &n))
        return NULL;
    B2State s;
    state_of(args[0], &s);
    b2_update(&s, (const uint8_t *)p, n);
    Obj raw = ITER(args[0])->a;
    VM_WRITE(raw);
    memcpy(VM_LINEAR(RAW(raw)->data), &s, sizeof s);
    tm_compiler_barrier();
    return g_None;
}

static Obj b2_digest_common(Obj self, bool hex)
{
    B2State s;
    state_of(self, &s);
    uint8_t out[64];
    b2_final(&s, out);
    if (!hex)
        return bytes_new((const char *)out, s.outlen);
    static const char digits[] = "0123456789abcdef";
    char h[128];
    for (unsigned i = 0; i < s.outlen; i++) {
        h[2 * i] = digits[out[i] >> 4];
        h[2 * i + 1] = digits[out[i] & 15];
    }
    return str_new(h, 2 * (size_t)s.outlen);
}

static Obj b2_digest(Obj *args, size_t nargs, Obj kwnames) { return b2_digest_common(args[0], false); }
static Obj b2_hexdigest(Obj *args, size_t nargs, Obj kwnames) { return b2_digest_common(args[0], true); }

static Obj b2_copy(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = raw_new((int64_t)sizeof(B2State));
    if (r[1]) {
        B2State s;
        state_of(r[0], &s);
        memcpy(VM_LINEAR(RAW(r[1])->data), &s, sizeof s);
        tm_compiler_barrier();
        Obj h = iter_alloc(TYPE(r[0]), r[1], ITER(r[0])->kind);
        if (h) {
            ITER(h)->n = ITER(r[0])->n;
            res = h;
        }
    }
    vm_unroots(r);
    return res;
}

static Obj b2_name(Obj *args, size_t nargs, Obj kwnames)
{
    return str_from_cstr(ITER(args[0])->kind ? "blake2s" : "blake2b");
}
static Obj b2_digest_size(Obj *args, size_t nargs, Obj kwnames) { return MAKE_SMALLINT(ITER(args[0])->n); }
static Obj b2_block_size(Obj *args, size_t nargs, Obj kwnames) { return MAKE_SMALLINT(ITER(args[0])->kind ? 64 : 128); }

static const MethodDef b2_methods[] = {
    {"update", b2_update_m, METH_O, "update($self, data, /)\n--\n\nUpdate this hash object's state with the provided bytes-like object."},
    {"digest", b2_digest, METH_NOARGS, "digest($self, /)\n--\n\nReturn the digest value as a bytes object."},
    {"hexdigest", b2_hexdigest, METH_NOARGS, "hexdigest($self, /)\n--\n\nReturn the digest value as a string of hexadecimal digits."},
    {"copy", b2_copy, METH_NOARGS, "copy($self, /)\n--\n\nReturn a copy of the hash object."},
    {NULL, NULL, 0, NULL},
};

static TypeObj *make_type(const char *name, bool is_s)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_ITER, TPF_DOTTED_NAME);
    if (!t)
        return NULL;
    VM_WRITE_RARE(t);
    t->tp_new = b2_new;
    type_add_methods(t, b2_methods);
    type_add_getset(t, "name", b2_name, NULL);
    type_add_getset(t, "digest_size", b2_digest_size, NULL);
    type_add_getset(t, "block_size", b2_block_size, NULL);
    type_set_attr_cstr(t, "SALT_SIZE", MAKE_SMALLINT(is_s ? 8 : 16));
    type_set_attr_cstr(t, "PERSON_SIZE", MAKE_SMALLINT(is_s ? 8 : 16));
    type_set_attr_cstr(t, "MAX_KEY_SIZE", MAKE_SMALLINT(is_s ? 32 : 64));
    type_set_attr_cstr(t, "MAX_DIGEST_SIZE", MAKE_SMALLINT(is_s ? 32 : 64));
    type_ready(t);
    return t;
}

Obj blake2_module_init(void)
{
    if (!T_blake2b) {   /* module inits run inevitable: C globals may be written */
        T_blake2b = make_type("_blake2.blake2b", false);
        T_blake2s = make_type("_blake2.blake2s", true);
        if (!T_blake2b || !T_blake2s)
            return err_nomemory();
    }
    Obj m = module_new("_blake2");
    if (!m)
        return NULL;
    Obj *r = vm_roots(1);
    r[0] = m;
    Obj res = NULL;
    static const struct { const char *name; int v; } consts[] = {
        {"BLAKE2B_SALT_SIZE", 16}, {"BLAKE2B_PERSON_SIZE", 16}, {"BLAKE2B_MAX_KEY_SIZE", 64},
        {"BLAKE2B_MAX_DIGEST_SIZE", 64}, {"BLAKE2S_SALT_SIZE", 8}, {"BLAKE2S_PERSON_SIZE", 8},
        {"BLAKE2S_MAX_KEY_SIZE", 32}, {"BLAKE2S_MAX_DIGEST_SIZE", 32},
    };
    for (size_t k = 0; k < ARRAY_LEN(consts); k++)
        if (module_add(r[0], consts[k].name, MAKE_SMALLINT(consts[k].v)) < 0)
            goto out;
    if (module_add(r[0], "blake2b", (Obj)T_blake2b) < 0 || module_add(r[0], "blake2s", (Obj)T_blake2s) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
