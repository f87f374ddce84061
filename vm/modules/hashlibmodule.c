/* The _hashlib module on OpenSSL's libcrypto, with the interface CPython's
 * Lib/hashlib.py and hmac.py use: new, openssl_md5 ... openssl_shake_256,
 * the HASH / HASHXOF objects (update, digest, hexdigest, copy, name,
 * digest_size, block_size), HMAC (hmac_new, hmac_digest), pbkdf2_hmac,
 * compare_digest, openssl_md_meth_names, get_fips_mode and
 * UnsupportedDigestmodError. Written from the documentation.
 *
 * Two kinds of state:
 *  - md5, sha1 and the SHA-2 family (sha224 ... sha512) keep OpenSSL's
 *    plain context structs (MD5_CTX, SHA256_CTX, ...: no pointers) in a
 *    RawObj: an update copies the state to the C stack, hashes, and writes
 *    it back through the write barrier, so the state is transactional under
 *    STM (an abort undoes an update like any heap write; no C memory to
 *    free), and a copy is a copy of the bytes.
 *  - every other algorithm (sha3, shake, blake2 through OpenSSL, sm3, ...)
 *    keeps an EVP_MD_CTX in C memory, freed by the object's __del__ (the
 *    finalizer vm/rt/gcwork.c runs once it is unreachable). STM: every
 *    method that reads or changes an existing context makes the transaction
 *    inevitable first (no retry can hash the same data twice, and no two
 *    threads use one context at once); a context made by a transaction that
 *    aborts is lost (OpenSSL allocates through libc's malloc directly,
 *    which txmalloc cannot see).
 * Long updates hash in chunks with tm_safepoint() between them; the data is
 * read in place (no allocation runs meanwhile).
 *
 * The hash objects serve hashlib's builtin modules too (builtinhashes.c:
 * _md5, _sha1, _sha256, _sha512, _sha3): the same layout and methods under
 * their own types, made by hashlib_object_new (modules.h). */
#define OPENSSL_SUPPRESS_DEPRECATED 1   /* MD5_Init & co.: their context structs are what we keep */
#include "modules.h"
#include "objects/containers.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/md5.h>
#include <openssl/objects.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HASH_CHUNK (256 * 1024)   /* bytes hashed between safe points */

static Obj g_unsupported_error;
static TypeObj *T_HASH, *T_HASHXOF, *T_HMAC;

/* ---- the plain-struct algorithms ---- */

#define LOWLEVEL(NAME, CTX)                                                                        \
    static void NAME##_init(void *c) { NAME##_Init((CTX *)c); }                                   \
    static void NAME##_update(void *c, const void *d, size_t n) { NAME##_Update((CTX *)c, d, n); } \
    static void NAME##_final(unsigned char *o, void *c) { NAME##_Final(o, (CTX *)c); }
LOWLEVEL(MD5, MD5_CTX)
LOWLEVEL(SHA1, SHA_CTX)
LOWLEVEL(SHA224, SHA256_CTX)
LOWLEVEL(SHA256, SHA256_CTX)
LOWLEVEL(SHA384, SHA512_CTX)
LOWLEVEL(SHA512, SHA512_CTX)
#undef LOWLEVEL

#define STATE_MAX 256   /* >= every context struct above */

typedef struct Algo {
    const char *name;       /* Python's name (hashlib's) */
    const char *ossl;       /* OpenSSL's */
    int nid;
    size_t ctx_size;        /* plain struct: its size; 0: an EVP context */
    void (*init)(void *);
    void (*update)(void *, const void *, size_t);
    void (*final)(unsigned char *, void *);
    bool xof;
} Algo;

static const Algo algos[] = {
    {"md5", "MD5", NID_md5, sizeof(MD5_CTX), MD5_init, MD5_update, MD5_final, false},
    {"sha1", "SHA1", NID_sha1, sizeof(SHA_CTX), SHA1_init, SHA1_update, SHA1_final, false},
    {"sha224", "SHA224", NID_sha224, sizeof(SHA256_CTX), SHA224_init, SHA224_update, SHA224_final, false},
    {"sha256", "SHA256", NID_sha256, sizeof(SHA256_CTX), SHA256_init, SHA256_update, SHA256_final, false},
    {"sha384", "SHA384", NID_sha384, sizeof(SHA512_CTX), SHA384_init, SHA384_update, SHA384_final, false},
    {"sha512", "SHA512", NID_sha512, sizeof(SHA512_CTX), SHA512_init, SHA512_update, SHA512_final, false},
    {"sha512_224", "SHA512-224", NID_sha512_224, 0, NULL, NULL, NULL, false},
    {"sha512_256", "SHA512-256", NID_sha512_256, 0, NULL, NULL, NULL, false},
    {"sha3_224", "SHA3-224", NID_sha3_224, 0, NULL, NULL, NULL, false},
    {"sha3_256", "SHA3-256", NID_sha3_256, 0, NULL, NULL, NULL, false},
    {"sha3_384", "SHA3-384", NID_sha3_384, 0, NULL, NULL, NULL, false},
    {"sha3_512", "SHA3-512", NID_sha3_512, 0, NULL, NULL, NULL, false},
    {"shake_128", "SHAKE128", NID_shake128, 0, NULL, NULL, NULL, true},
    {"shake_256", "SHAKE256", NID_shake256, 0, NULL, NULL, NULL, true},
    {"blake2b", "BLAKE2B-512", NID_blake2b512, 0, NULL, NULL, NULL, false},
    {"blake2s", "BLAKE2S-256", NID_blake2s256, 0, NULL, NULL, NULL, false},
    {"md5-sha1", "MD5-SHA1", NID_md5_sha1, 0, NULL, NULL, NULL, false},
    {"sm3", "SM3", NID_sm3, 0, NULL, NULL, NULL, false},
    {"ripemd160", "RIPEMD160", NID_ripemd160, 0, NULL, NULL, NULL, false},
};
#define NALGOS ((int)ARRAY_LEN(algos))

/* The EVP_MD of each algorithm, fetched once at module init (NULL: this
 * OpenSSL has none). Read-only afterwards. */
static const EVP_MD *algo_md[ARRAY_LEN(algos)];

/* HASH objects (IterObj): a = the algorithm's name (str), b = the RawObj
 * state of a plain-struct algorithm, i = the EVP_MD_CTX of another,
 * n = the algorithm's index. */
static const Algo *algo_of(Obj h) { return &algos[ITER(h)->n]; }
static EVP_MD_CTX *evp_of(Obj h) { return (EVP_MD_CTX *)(uintptr_t)ITER(h)->i; }

static Obj unsupported(const char *msg)
{
    Obj s = str_from_cstr(msg);
    if (s)
        err_set_value((TypeObj *)g_unsupported_error, s);
    return NULL;
}

static Obj openssl_error(void)
{
    unsigned long e = ERR_get_error();
    char buf[256];
    ERR_clear_error();
    if (!e)
        return unsupported("unsupported hash type");
    const char *lib = ERR_lib_error_string(e), *reason = ERR_reason_error_string(e);
    if (lib && reason)
        snprintf(buf, sizeof buf, "[%s] %s", lib, reason);
    else
        snprintf(buf, sizeof buf, "%s", reason ? reason : "unsupported hash type");
    return unsupported(buf);
}

/* The algorithm of a name: hashlib's names first, then OpenSSL's (any
 * alias it knows, e.g. 'SHA256'); -1 with UnsupportedDigestmodError. */
static int algo_index(const char *name)
{
    for (int k = 0; k < NALGOS; k++)
        if (strcmp(algos[k].name, name) == 0 && algo_md[k])
            return k;
    const EVP_MD *md = EVP_get_digestbyname(name);
    if (md) {
        int nid = EVP_MD_get_type(md);
        for (int k = 0; k < NALGOS; k++)
            if (algos[k].nid == nid && algo_md[k])
                return k;
    }
    ERR_clear_error();
    unsupported("[digital envelope routines] unsupported");
    return -1;
}

/* The data argument of update/new: bytes-like; str is refused with
 * CPython's message. */
static bool hash_data_arg(Obj v, const char **p, int64_t *n)
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

/* Feed n bytes at p to a state in C memory, safe points between chunks. */
static void low_update(const Algo *a, void *state, const char *p, int64_t n)
{
    while (n > 0) {
        size_t k = n > HASH_CHUNK ? HASH_CHUNK : (size_t)n;
        a->update(state, p, k);
        p += k;
        n -= (int64_t)k;
        if (n > 0)
            tm_safepoint();
    }
}

static int evp_update(EVP_MD_CTX *ctx, const char *p, int64_t n)
{
    while (n > 0) {
        size_t k = n > HASH_CHUNK ? HASH_CHUNK : (size_t)n;
        if (!EVP_DigestUpdate(ctx, p, k))
            return -1;
        p += k;
        n -= (int64_t)k;
        if (n > 0)
            tm_safepoint();
    }
    return 0;
}

/* Hash the data in *datap (a root slot, or NULL) into h. */
static int hash_update_obj(Obj *hp, Obj data)
{
    const Algo *a = algo_of(*hp);
    const char *p;
    int64_t n;
    if (a->ctx_size) {
        if (!hash_data_arg(data, &p, &n))
            return -1;
        unsigned char state[STATE_MAX];
        Obj raw = ITER(*hp)->b;
        memcpy(state, VM_LINEAR(RAW(raw)->data), a->ctx_size);
        low_update(a, state, p, n);
        raw = ITER(*hp)->b;
        VM_WRITE(raw);
        memcpy(VM_LINEAR(RAW(raw)->data), state, a->ctx_size);
        tm_compiler_barrier();
        return 0;
    }
    vm_tx_become_inevitable();   /* the context is C state: see the top of the file */
    if (!hash_data_arg(data, &p, &n))
        return -1;
    EVP_MD_CTX *ctx = evp_of(*hp);
    if (!ctx || evp_update(ctx, p, n) < 0) {
        openssl_error();
        return -1;
    }
    return 0;
}

static Obj hash_del(Obj *args, size_t nargs, Obj kwnames);

/* A new hash object of type t (NULL: _hashlib's HASH or HASHXOF) and
 * algorithm k, hashing `data` (NULL: nothing). */
static Obj hash_new_typed(TypeObj *t, int k, Obj data)
{
    const Algo *a = &algos[k];
    if (!t)
        t = a->xof ? T_HASHXOF : T_HASH;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = data;
    const char *p;
    int64_t n;
    if (data && !hash_data_arg(data, &p, &n))
        goto out;
    r[1] = str_from_cstr(a->name);
    if (!r[1])
        goto out;
    if (a->ctx_size) {
        r[2] = raw_new((int64_t)a->ctx_size);
        if (!r[2])
            goto out;
        unsigned char state[STATE_MAX];
        a->init(state);
        if (r[0]) {
            hash_data_arg(r[0], &p, &n);
            low_update(a, state, p, n);
        }
        memcpy(VM_LINEAR(RAW(r[2])->data), state, a->ctx_size);   /* a new object: no barrier */
        tm_compiler_barrier();
        Obj h = iter_alloc(t, r[1], k);
        if (!h)
            goto out;
        ITER(h)->b = r[2];
        ITER(h)->n = k;
        res = h;
        goto out;
    }
    Obj h = iter_alloc(t, r[1], k);
    if (!h)
        goto out;
    r[2] = h;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (!ctx) {
        err_nomemory();
        goto out;
    }
    if (!EVP_DigestInit_ex(ctx, algo_md[k], NULL)) {
        EVP_MD_CTX_free(ctx);
        openssl_error();
        goto out;
    }
    VM_WRITE(r[2]);
    ITER(r[2])->i = (int64_t)(uintptr_t)ctx;
    ITER(r[2])->n = k;
    tm_register_finalizer((object_t *)r[2]);   /* __del__ frees the context */
    if (r[0]) {
        hash_data_arg(r[0], &p, &n);
        if (evp_update(ctx, p, n) < 0) {
            openssl_error();
            goto out;
        }
    }
    res = r[2];
out:
    vm_unroots(r);
    return res;
}

static Obj hash_new(int k, Obj data) { return hash_new_typed(NULL, k, data); }

/* The digest of h (length: a shake's output length) into out. */
static int hash_final(Obj h, unsigned char *out, size_t length)
{
    const Algo *a = algo_of(h);
    if (a->ctx_size) {
        unsigned char state[STATE_MAX];
        memcpy(state, VM_LINEAR(RAW(ITER(h)->b)->data), a->ctx_size);
        a->final(out, state);
        return 0;
    }
    vm_tx_become_inevitable();
    EVP_MD_CTX *tmp = EVP_MD_CTX_new();
    int ok = tmp && EVP_MD_CTX_copy_ex(tmp, evp_of(h));
    if (ok)
        ok = a->xof ? EVP_DigestFinalXOF(tmp, out, length) : EVP_DigestFinal_ex(tmp, out, NULL);
    EVP_MD_CTX_free(tmp);
    if (!ok) {
        openssl_error();
        return -1;
    }
    return 0;
}

static int algo_digest_size(const Algo *a, int k)
{
    return a->xof ? 0 : EVP_MD_get_size(algo_md[k]);
}

/* The digest of h as bytes or hex str; length: a shake's output length
 * (>= 0), ignored for the others. */
static Obj digest_out(Obj h, int64_t length, bool hex)
{
    const Algo *a = algo_of(h);
    if (!a->xof)
        length = algo_digest_size(a, (int)ITER(h)->n);
    else if ((uint64_t)length > vm_max_object_size() / 2)
        return err_nomemory();
    unsigned char small[EVP_MAX_MD_SIZE];
    unsigned char *out = length <= EVP_MAX_MD_SIZE ? small : malloc((size_t)length);
    if (!out)
        return err_nomemory();
    Obj res = NULL;
    if (hash_final(h, out, (size_t)length) == 0) {   /* no allocation before this: h stays */
        if (hex) {
            static const char digits[] = "0123456789abcdef";
            char *s = malloc((size_t)length * 2 + 1);
            if (s) {
                for (int64_t i = 0; i < length; i++) {
                    s[2 * i] = digits[out[i] >> 4];
                    s[2 * i + 1] = digits[out[i] & 15];
                }
                res = str_new(s, (size_t)length * 2);
                free(s);
            } else {
                err_nomemory();
            }
        } else {
            res = bytes_new((const char *)out, (size_t)length);
        }
    }
    if (out != small)
        free(out);
    return res;
}

static Obj digest_common(Obj *args, size_t nargs, bool hex)
{
    int64_t length = 0;
    if (algo_of(args[0])->xof) {
        if (arg_i64(args[1], &length) < 0)
            return NULL;
        if (length < 0) {
            err_set(E_SystemError, "Negative size passed to PyBytes_FromStringAndSize");
            return NULL;
        }
    }
    return digest_out(args[0], length, hex);
}

static Obj hash_digest(Obj *args, size_t nargs, Obj kwnames) { return digest_common(args, nargs, false); }
static Obj hash_hexdigest(Obj *args, size_t nargs, Obj kwnames) { return digest_common(args, nargs, true); }

static Obj xof_digest(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"length", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    a[1] = args[0];
    if (vm_parse_args("digest", args + 1, nargs - 1, kwnames, names, 1, 1, a) == 0) {
        Obj v[2] = {a[1], a[0]};
        Obj *r = vm_roots(2);
        r[0] = v[0];
        r[1] = v[1];
        res = digest_common(r, 2, false);
        vm_unroots(r);
    }
    vm_unroots(a);
    return res;
}

static Obj xof_hexdigest(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"length", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    a[1] = args[0];
    if (vm_parse_args("hexdigest", args + 1, nargs - 1, kwnames, names, 1, 1, a) == 0) {
        Obj *r = vm_roots(2);
        r[0] = a[1];
        r[1] = a[0];
        res = digest_common(r, 2, true);
        vm_unroots(r);
    }
    vm_unroots(a);
    return res;
}

static Obj hash_update(Obj *args, size_t nargs, Obj kwnames)
{
    return hash_update_obj(&args[0], args[1]) < 0 ? NULL : g_None;
}

static Obj hash_copy(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    int k = (int)ITER(r[0])->n;
    const Algo *a = &algos[k];
    if (a->ctx_size) {
        r[1] = raw_new((int64_t)a->ctx_size);
        if (!r[1])
            goto out;
        memcpy(VM_LINEAR(RAW(r[1])->data), VM_LINEAR(RAW(ITER(r[0])->b)->data), a->ctx_size);
        tm_compiler_barrier();
        Obj h = iter_alloc(TYPE(r[0]), ITER(r[0])->a, k);
        if (!h)
            goto out;
        ITER(h)->b = r[1];
        ITER(h)->n = k;
        res = h;
        goto out;
    }
    vm_tx_become_inevitable();
    r[1] = iter_alloc(TYPE(r[0]), ITER(r[0])->a, k);
    if (!r[1])
        goto out;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (!ctx || !EVP_MD_CTX_copy_ex(ctx, evp_of(r[0]))) {
        EVP_MD_CTX_free(ctx);
        openssl_error();
        goto out;
    }
    VM_WRITE(r[1]);
    ITER(r[1])->i = (int64_t)(uintptr_t)ctx;
    ITER(r[1])->n = k;
    tm_register_finalizer((object_t *)r[1]);
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

/* __del__: free an EVP context (once; the finalizer or a call). */
static Obj hash_del(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();
    EVP_MD_CTX *ctx = evp_of(args[0]);
    if (ctx) {
        EVP_MD_CTX_free(ctx);
        VM_WRITE(args[0]);
        ITER(args[0])->i = 0;
    }
    return g_None;
}

static Obj hash_name(Obj *args, size_t nargs, Obj kwnames) { return ITER(args[0])->a; }
static Obj hash_digest_size(Obj *args, size_t nargs, Obj kwnames)
{
    int k = (int)ITER(args[0])->n;
    return MAKE_SMALLINT(algo_digest_size(&algos[k], k));
}
static Obj hash_block_size(Obj *args, size_t nargs, Obj kwnames)
{
    return MAKE_SMALLINT(EVP_MD_get_block_size(algo_md[ITER(args[0])->n]));
}

static Obj hash_repr(Obj self)
{
    Obj *r = vm_roots(1);
    r[0] = self;
    unsigned long long id = vm_object_id_slot(&r[0]);   /* may move it */
    Obj res = str_from_format("<%s %s object @ 0x%llx>", str_cstr(ITER(r[0])->a),
                              TYPE(r[0]) == T_HASHXOF ? "_hashlib.HASHXOF" : "_hashlib.HASH", id);
    vm_unroots(r);
    return res;
}

/* ---- constructors ---- */

static Obj new_named(const char *fname, int k, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"string", "usedforsecurity", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args(fname, args, nargs, kwnames, names, 0, 1, a) == 0)
        res = hash_new(k, a[0]);
    vm_unroots(a);
    return res;
}

#define CONSTRUCTOR(NAME, K)                                                 \
    static Obj openssl_##NAME(Obj *args, size_t nargs, Obj kwnames)          \
    {                                                                        \
        if (!algo_md[K])                                                     \
            return unsupported("[digital envelope routines] unsupported");  \
        return new_named("openssl_" #NAME, K, args, nargs, kwnames);         \
    }
CONSTRUCTOR(md5, 0)
CONSTRUCTOR(sha1, 1)
CONSTRUCTOR(sha224, 2)
CONSTRUCTOR(sha256, 3)
CONSTRUCTOR(sha384, 4)
CONSTRUCTOR(sha512, 5)
CONSTRUCTOR(sha3_224, 8)
CONSTRUCTOR(sha3_256, 9)
CONSTRUCTOR(sha3_384, 10)
CONSTRUCTOR(sha3_512, 11)
CONSTRUCTOR(shake_128, 12)
CONSTRUCTOR(shake_256, 13)
#undef CONSTRUCTOR

/* hashlib's constructors (our openssl_* functions) -> their names, which
 * hmac.py's digestmod may be (hmac.new(key, msg, hashlib.sha256)). */
static Obj g_constructors;

/* The algorithm a digestmod names: a str or one of our constructors. */
static int digestmod_index(Obj digestmod)
{
    Obj s = str_value(digestmod);
    if (!s && g_constructors) {
        Obj name = dict_getitem(g_constructors, digestmod);
        if (!name && err_occurred())
            return -1;
        s = name ? str_value(name) : NULL;
    }
    if (s)
        return algo_index(str_cstr(s));
    unsupported("Unsupported digestmod");
    return -1;
}

static Obj h_new(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"name", "string", "usedforsecurity", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("new", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    Obj s = str_value(a[0]);
    if (!s) {
        err_set(E_TypeError, "name must be a string");
        goto out;
    }
    int k = algo_index(str_cstr(s));
    if (k >= 0)
        res = hash_new(k, a[1]);
out:
    vm_unroots(a);
    return res;
}

/* ---- HMAC: inner and outer hashes of the padded key (RFC 2104) ---- */

/* HMAC objects (IterObj): a = the inner HASH, b = the outer HASH. */
static Obj hmac_make(int k, Obj *keyp, Obj *msgp)
{
    const Algo *al = &algos[k];
    if (al->xof)
        return unsupported("[digital envelope routines] unsupported");
    int block = EVP_MD_get_block_size(algo_md[k]);
    Obj *r = vm_roots(4);
    Obj res = NULL;
    unsigned char *kb = calloc(1, (size_t)block);
    unsigned char pad[EVP_MAX_MD_SIZE > 256 ? EVP_MAX_MD_SIZE : 256];
    if (!kb) {
        err_nomemory();
        goto out;
    }
    const char *p;
    int64_t n;
    if (!bytes_like_arg(*keyp, &p, &n))
        goto out;
    if (n > block) {   /* a long key is replaced by its digest */
        r[0] = hash_new(k, *keyp);
        if (!r[0] || hash_final(r[0], pad, 0) < 0)
            goto out;
        memcpy(kb, pad, (size_t)EVP_MD_get_size(algo_md[k]));
    } else {
        memcpy(kb, p, (size_t)n);
    }
    for (int pass = 0; pass < 2; pass++) {
        unsigned char x = pass == 0 ? 0x36 : 0x5c;
        for (int i = 0; i < block; i++)
            pad[i] = kb[i] ^ x;
        r[3] = bytes_new((const char *)pad, (size_t)block);
        if (!r[3])
            goto out;
        r[1 + pass] = hash_new(k, r[3]);
        if (!r[1 + pass])
            goto out;
    }
    if (msgp && *msgp && !IS_NONE(*msgp) && hash_update_obj(&r[1], *msgp) < 0)
        goto out;
    Obj h = iter_alloc(T_HMAC, r[1], k);
    if (!h)
        goto out;
    ITER(h)->b = r[2];
    ITER(h)->n = k;
    res = h;
out:
    free(kb);
    vm_unroots(r);
    return res;
}

static Obj h_hmac_new(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"key", "msg", "digestmod", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("hmac_new", args, nargs, kwnames, names, 1, 3, a) < 0)
        goto out;
    if (!a[2]) {
        err_set(E_TypeError, "Missing required parameter 'digestmod'.");
        goto out;
    }
    int k = digestmod_index(a[2]);
    if (k >= 0)
        res = hmac_make(k, &a[0], &a[1]);
out:
    vm_unroots(a);
    return res;
}

/* The HMAC of an HMAC object's state into out (its digest size). */
static int hmac_final(Obj *hp, unsigned char *out)
{
    unsigned char inner[EVP_MAX_MD_SIZE];
    if (hash_final(ITER(*hp)->a, inner, 0) < 0)
        return -1;
    int size = EVP_MD_get_size(algo_md[ITER(*hp)->n]);
    Obj *r = vm_roots(2);
    int rc = -1;
    r[0] = ITER(*hp)->b;
    r[0] = hash_copy(&r[0], 1, NULL);
    if (r[0] && (r[1] = bytes_new((const char *)inner, (size_t)size)) && hash_update_obj(&r[0], r[1]) == 0 &&
        hash_final(r[0], out, 0) == 0)
        rc = 0;
    vm_unroots(r);
    return rc;
}

static Obj hmac_digest_common(Obj *hp, bool hex)
{
    unsigned char out[EVP_MAX_MD_SIZE];
    if (hmac_final(hp, out) < 0)
        return NULL;
    int size = EVP_MD_get_size(algo_md[ITER(*hp)->n]);
    if (!hex)
        return bytes_new((const char *)out, (size_t)size);
    static const char digits[] = "0123456789abcdef";
    char s[2 * EVP_MAX_MD_SIZE];
    for (int i = 0; i < size; i++) {
        s[2 * i] = digits[out[i] >> 4];
        s[2 * i + 1] = digits[out[i] & 15];
    }
    return str_new(s, (size_t)size * 2);
}

static Obj hmac_m_digest(Obj *args, size_t nargs, Obj kwnames) { return hmac_digest_common(&args[0], false); }
static Obj hmac_m_hexdigest(Obj *args, size_t nargs, Obj kwnames) { return hmac_digest_common(&args[0], true); }

static Obj hmac_m_update(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"msg", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("update", args + 1, nargs - 1, kwnames, names, 1, 1, a) == 0) {
        a[1] = ITER(args[0])->a;
        if (hash_update_obj(&a[1], a[0]) == 0)
            res = g_None;
    }
    vm_unroots(a);
    return res;
}

static Obj hmac_m_copy(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = ITER(r[0])->a;
    r[1] = hash_copy(&r[1], 1, NULL);
    if (r[1]) {
        r[2] = ITER(r[0])->b;
        r[2] = hash_copy(&r[2], 1, NULL);
    }
    if (r[2]) {
        Obj h = iter_alloc(T_HMAC, r[1], ITER(r[0])->n);
        if (h) {
            ITER(h)->b = r[2];
            ITER(h)->n = ITER(r[0])->n;
            res = h;
        }
    }
    vm_unroots(r);
    return res;
}

static Obj hmac_m_name(Obj *args, size_t nargs, Obj kwnames)
{
    return str_from_format("hmac-%s", algos[ITER(args[0])->n].name);
}
static Obj hmac_m_digest_size(Obj *args, size_t nargs, Obj kwnames)
{
    return MAKE_SMALLINT(EVP_MD_get_size(algo_md[ITER(args[0])->n]));
}
static Obj hmac_m_block_size(Obj *args, size_t nargs, Obj kwnames)
{
    return MAKE_SMALLINT(EVP_MD_get_block_size(algo_md[ITER(args[0])->n]));
}
static Obj hmac_repr(Obj self)
{
    Obj *r = vm_roots(1);
    r[0] = self;
    unsigned long long id = vm_object_id_slot(&r[0]);   /* may move it */
    Obj res = str_from_format("<%s HMAC object @ 0x%llx>", algos[ITER(r[0])->n].name, id);
    vm_unroots(r);
    return res;
}

static Obj h_hmac_digest(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"key", "msg", "digest", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    if (vm_parse_args("hmac_digest", args, nargs, kwnames, names, 3, 3, a) < 0)
        goto out;
    int k = digestmod_index(a[2]);
    if (k < 0)
        goto out;
    a[3] = hmac_make(k, &a[0], &a[1]);
    if (a[3])
        res = hmac_digest_common(&a[3], false);
out:
    vm_unroots(a);
    return res;
}

/* ---- pbkdf2_hmac, compare_digest, get_fips_mode ---- */

static Obj h_pbkdf2_hmac(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"hash_name", "password", "salt", "iterations", "dklen", NULL};
    Obj *a = vm_roots(5);
    Obj res = NULL;
    if (vm_parse_args("pbkdf2_hmac", args, nargs, kwnames, names, 4, 5, a) < 0)
        goto out;
    Obj s = str_value(a[0]);
    if (!s) {
        err_format(E_TypeError, "pbkdf2_hmac() argument 'hash_name' must be str, not %s", type_name(a[0]));
        goto out;
    }
    int k = algo_index(str_cstr(s));
    if (k < 0)
        goto out;
    const char *pp, *sp;
    int64_t pn, sn, iters, dklen;
    if (!bytes_like_arg(a[1], &pp, &pn) || !bytes_like_arg(a[2], &sp, &sn))
        goto out;
    if (arg_i64(a[3], &iters) < 0)
        goto out;
    if (iters < 1) {
        err_set(E_ValueError, "iteration value must be greater than 0.");
        goto out;
    }
    if (iters > INT32_MAX) {
        err_set(E_OverflowError, "iteration value is too great.");
        goto out;
    }
    if (!a[4] || IS_NONE(a[4])) {
        dklen = EVP_MD_get_size(algo_md[k]);
    } else {
        if (arg_i64(a[4], &dklen) < 0)
            goto out;
        if (dklen < 1) {
            err_set(E_ValueError, "key length must be greater than 0.");
            goto out;
        }
        if (dklen > INT32_MAX) {
            err_set(E_OverflowError, "key length is too great.");
            goto out;
        }
    }
    /* copies: the key derivation is long and reads no heap */
    char *buf = malloc((size_t)(pn + sn + dklen + 1));
    if (!buf) {
        err_nomemory();
        goto out;
    }
    bytes_like(a[1], &pp, &pn);
    memcpy(buf, pp, (size_t)pn);
    bytes_like(a[2], &sp, &sn);
    memcpy(buf + pn, sp, (size_t)sn);
    unsigned char *key = (unsigned char *)buf + pn + sn;
    int ok = PKCS5_PBKDF2_HMAC(buf, (int)pn, (unsigned char *)buf + pn, (int)sn, (int)iters, algo_md[k], (int)dklen, key);
    if (ok)
        res = bytes_new((const char *)key, (size_t)dklen);
    else
        openssl_error();
    free(buf);
out:
    vm_unroots(a);
    return res;
}

/* compare_digest(a, b): also operator._compare_digest (hmac's), as in CPython. */
Obj hashlib_compare_digest(Obj *args, size_t nargs, Obj kwnames)
{
    const char *p, *q;
    int64_t pn, qn;
    Obj sa = str_value(args[0]), sb = str_value(args[1]);
    if (!(sa && sb) && !bytes_like(args[0], &p, &pn) && !bytes_like(args[1], &q, &qn)) {
        err_format(E_TypeError, "unsupported operand types(s) or combination of types: '%s' and '%s'",
                   type_name(args[0]), type_name(args[1]));
        return NULL;
    }
    if (sa && sb) {
        if (!str_is_ascii(sa) || !str_is_ascii(sb)) {
            err_set(E_TypeError, "comparing strings with non-ASCII characters is not supported");
            return NULL;
        }
        p = str_cstr(sa);
        pn = STR(sa)->nbytes;
        q = str_cstr(sb);
        qn = STR(sb)->nbytes;
    } else {
        if (!bytes_like_arg(args[0], &p, &pn))
            return NULL;
        if (!bytes_like_arg(args[1], &q, &qn))
            return NULL;
        bytes_like(args[0], &p, &pn);
    }
    /* time independent of where they differ: CRYPTO_memcmp over the shorter
     * length, against itself when the lengths differ */
    int diff = pn != qn;
    const char *left = pn == qn ? p : q;
    diff |= CRYPTO_memcmp(left, q, (size_t)qn) != 0;
    return vm_bool(!diff);
}

static Obj h_get_fips_mode(Obj *args, size_t nargs, Obj kwnames)
{
    return MAKE_SMALLINT(EVP_default_properties_is_fips_enabled(NULL) ? 1 : 0);
}

static const MethodDef hash_methods[] = {
    {"update", hash_update, METH_O, "update($self, obj, /)\n--\n\nUpdate this hash object's state with the provided string."},
    {"digest", hash_digest, METH_NOARGS, "digest($self, /)\n--\n\nReturn the digest value as a bytes object."},
    {"hexdigest", hash_hexdigest, METH_NOARGS, "hexdigest($self, /)\n--\n\nReturn the digest value as a string of hexadecimal digits."},
    {"copy", hash_copy, METH_NOARGS, "copy($self, /)\n--\n\nReturn a copy of the hash object."},
    {"__del__", hash_del, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef xof_methods[] = {
    {"update", hash_update, METH_O, "update($self, obj, /)\n--\n\nUpdate this hash object's state with the provided string."},
    {"digest", xof_digest, METH_KW, "digest($self, /, length)\n--\n\nReturn the digest value as a bytes object."},
    {"hexdigest", xof_hexdigest, METH_KW, "hexdigest($self, /, length)\n--\n\nReturn the digest value as a string of hexadecimal digits."},
    {"copy", hash_copy, METH_NOARGS, "copy($self, /)\n--\n\nReturn a copy of the hash object."},
    {"__del__", hash_del, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef hmac_methods[] = {
    {"update", hmac_m_update, METH_KW, "update($self, /, msg)\n--\n\nUpdate the HMAC object with msg."},
    {"digest", hmac_m_digest, METH_NOARGS, "digest($self, /)\n--\n\nReturn the digest of the bytes passed to the update() method so far."},
    {"hexdigest", hmac_m_hexdigest, METH_NOARGS, "hexdigest($self, /)\n--\n\nReturn hexadecimal digest of the bytes passed to the update() method so far."},
    {"copy", hmac_m_copy, METH_NOARGS, "copy($self, /)\n--\n\nReturn a copy (\"clone\") of the HMAC object."},
    {NULL, NULL, 0, NULL},
};

static const MethodDef hashlib_functions[] = {
    {"new", h_new, METH_KW, "new($module, /, name, string=b'', *, usedforsecurity=True)\n--\n\nReturn a new hash object using the named algorithm."},
    {"openssl_md5", openssl_md5, METH_KW, "Returns a md5 hash object; optionally initialized with a string"},
    {"openssl_sha1", openssl_sha1, METH_KW, "Returns a sha1 hash object; optionally initialized with a string"},
    {"openssl_sha224", openssl_sha224, METH_KW, "Returns a sha224 hash object; optionally initialized with a string"},
    {"openssl_sha256", openssl_sha256, METH_KW, "Returns a sha256 hash object; optionally initialized with a string"},
    {"openssl_sha384", openssl_sha384, METH_KW, "Returns a sha384 hash object; optionally initialized with a string"},
    {"openssl_sha512", openssl_sha512, METH_KW, "Returns a sha512 hash object; optionally initialized with a string"},
    {"openssl_sha3_224", openssl_sha3_224, METH_KW, "Returns a sha3-224 hash object; optionally initialized with a string"},
    {"openssl_sha3_256", openssl_sha3_256, METH_KW, "Returns a sha3-256 hash object; optionally initialized with a string"},
    {"openssl_sha3_384", openssl_sha3_384, METH_KW, "Returns a sha3-384 hash object; optionally initialized with a string"},
    {"openssl_sha3_512", openssl_sha3_512, METH_KW, "Returns a sha3-512 hash object; optionally initialized with a string"},
    {"openssl_shake_128", openssl_shake_128, METH_KW, "Returns a shake-128 variable hash object; optionally initialized with a string"},
    {"openssl_shake_256", openssl_shake_256, METH_KW, "Returns a shake-256 variable hash object; optionally initialized with a string"},
    {"hmac_new", h_hmac_new, METH_KW, "hmac_new($module, /, key, msg=b'', digestmod=None)\n--\n\nReturn a new hmac object."},
    {"hmac_digest", h_hmac_digest, METH_KW, "hmac_digest($module, /, key, msg, digest)\n--\n\nSingle-shot HMAC."},
    {"pbkdf2_hmac", h_pbkdf2_hmac, METH_KW, "pbkdf2_hmac($module, /, hash_name, password, salt, iterations, dklen=None)\n--\n\nPassword based key derivation function 2 (PKCS #5 v2.0) with HMAC as pseudorandom function."},
    {"compare_digest", hashlib_compare_digest, METH_ARGS(2, 2), "compare_digest($module, a, b, /)\n--\n\nReturn 'a == b'."},
    {"get_fips_mode", h_get_fips_mode, METH_NOARGS, "get_fips_mode($module, /)\n--\n\nDetermine the OpenSSL FIPS mode of operation."},
    {NULL, NULL, 0, NULL},
};

static TypeObj *make_type(const char *name, TypeObj *base, const MethodDef *methods, unaryfunc repr, bool has_del)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, base, TID_ITER, TPF_DOTTED_NAME);
    if (!t)
        return NULL;
    VM_WRITE_RARE(t);
    if (has_del)
        t->flags |= TPF_HAS_DEL;
    t->tp_repr = repr;
    type_add_methods(t, methods);
    if (methods == hmac_methods) {
        type_add_getset(t, "name", hmac_m_name, NULL);
        type_add_getset(t, "digest_size", hmac_m_digest_size, NULL);
        type_add_getset(t, "block_size", hmac_m_block_size, NULL);
    } else {
        type_add_getset(t, "name", hash_name, NULL);
        type_add_getset(t, "digest_size", hash_digest_size, NULL);
        type_add_getset(t, "block_size", hash_block_size, NULL);
    }
    type_ready(t);
    return t;
}

/* ---- what builtinhashes.c (_md5, _sha1, _sha256, _sha512, _sha3) takes ---- */

static bool algos_ready;

void hashlib_algos_init(void)
{
    if (algos_ready)   /* module inits run inevitable: the table may be written */
        return;
    for (int k = 0; k < NALGOS; k++) {
        algo_md[k] = EVP_get_digestbyname(algos[k].ossl);
        /* a digest the default provider cannot run (legacy ones) is left out */
        EVP_MD *fetched = EVP_MD_fetch(NULL, algos[k].ossl, NULL);
        if (!fetched)
            algo_md[k] = NULL;
        EVP_MD_free(fetched);
    }
    ERR_clear_error();
    algos_ready = true;
}

int hashlib_algo(const char *name)
{
    for (int k = 0; k < NALGOS; k++)
        if (strcmp(algos[k].name, name) == 0)
            return algo_md[k] ? k : -1;
    return -1;
}


Obj hashlib_object_new(TypeObj *t, int k, Obj data) { return hash_new_typed(t, k, data); }
Obj hashlib_object_digest(Obj h, int64_t length, bool hex) { return digest_out(h, length, hex); }
Obj hashlib_m_update(Obj *args, size_t nargs, Obj kwnames) { return hash_update(args, nargs, kwnames); }
Obj hashlib_m_digest(Obj *args, size_t nargs, Obj kwnames) { return digest_out(args[0], 0, false); }
Obj hashlib_m_hexdigest(Obj *args, size_t nargs, Obj kwnames) { return digest_out(args[0], 0, true); }
Obj hashlib_m_copy(Obj *args, size_t nargs, Obj kwnames) { return hash_copy(args, nargs, kwnames); }
Obj hashlib_m_del(Obj *args, size_t nargs, Obj kwnames) { return hash_del(args, nargs, kwnames); }
Obj hashlib_m_name(Obj *args, size_t nargs, Obj kwnames) { return hash_name(args, nargs, kwnames); }
Obj hashlib_m_digest_size(Obj *args, size_t nargs, Obj kwnames) { return hash_digest_size(args, nargs, kwnames); }
Obj hashlib_m_block_size(Obj *args, size_t nargs, Obj kwnames) { return hash_block_size(args, nargs, kwnames); }

Obj hashlib_module_init(void)
{
    static bool once;
    if (!once) {   /* module inits run inevitable: C globals and roots may be written */
        VM_GLOBAL_ROOT(g_unsupported_error);
        VM_GLOBAL_ROOT(g_constructors);
        hashlib_algos_init();
        T_HASH = make_type("_hashlib.HASH", T_object, hash_methods, hash_repr, true);
        /* a subclass of HASH, as CPython's (test_hashlib tells _hashlib's objects apart by it) */
        T_HASHXOF = T_HASH ? make_type("_hashlib.HASHXOF", T_HASH, xof_methods, hash_repr, true) : NULL;
        T_HMAC = make_type("_hashlib.HMAC", T_object, hmac_methods, hmac_repr, false);
        if (!T_HASH || !T_HASHXOF || !T_HMAC)
            return err_nomemory();
        once = true;
    }
    Obj *r = vm_roots(4);
    Obj res = NULL;
    if (!g_unsupported_error) {
        r[0] = str_from_cstr("UnsupportedDigestmodError");
        r[1] = r[0] ? tuple_pack(1, (Obj)E_ValueError) : NULL;
        r[2] = r[1] ? dict_new() : NULL;
        if (!r[2] || !(r[3] = str_from_cstr("_hashlib")) || dict_setitem_cstr(r[2], "__module__", r[3]) < 0)
            goto out;
        if (!(g_unsupported_error = vm_call3((Obj)T_type, r[0], r[1], r[2])))
            goto out;
    }
    r[0] = module_new("_hashlib");
    if (!r[0])
        goto out;
    module_add_functions(r[0], hashlib_functions);
    if (module_add(r[0], "UnsupportedDigestmodError", g_unsupported_error) < 0 ||
        module_add(r[0], "HASH", (Obj)T_HASH) < 0 || module_add(r[0], "HASHXOF", (Obj)T_HASHXOF) < 0 ||
        module_add(r[0], "HMAC", (Obj)T_HMAC) < 0)
        goto out;
    r[1] = list_new(0);
    if (!r[1])
        goto out;
    for (int k = 0; k < NALGOS; k++) {
        if (!algo_md[k])
            continue;
        r[2] = str_from_cstr(algos[k].name);
        if (!r[2] || list_append(r[1], r[2]) < 0)
            goto out;
    }
    r[2] = vm_call1((Obj)T_frozenset, r[1]);
    if (!r[2] || module_add(r[0], "openssl_md_meth_names", r[2]) < 0)
        goto out;
    /* _constructors: hashlib.py fills it (constructor -> name) */
    if (!g_constructors) {
        Obj d = dict_new();
        if (!d)
            goto out;
        g_constructors = d;
    }
    for (const MethodDef *m = hashlib_functions; m->name; m++) {
        if (strncmp(m->name, "openssl_", 8) != 0 || algo_index(m->name + 8) < 0) {
            err_clear();
            continue;
        }
        r[2] = vm_getattr_cstr(r[0], m->name);
        r[3] = r[2] ? str_from_cstr(m->name + 8) : NULL;
        if (!r[3] || dict_setitem(g_constructors, r[2], r[3]) < 0)
            goto out;
    }
    if (module_add(r[0], "_constructors", g_constructors) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
