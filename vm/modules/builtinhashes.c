/* hashlib's "builtin" hash modules, the ones Lib/hashlib.py falls back to
 * when _hashlib lacks an algorithm (__get_builtin_constructor) and that
 * CPython's tests import by name: _md5 (md5), _sha1 (sha1), _sha256
 * (sha224, sha256), _sha512 (sha384, sha512) and _sha3 (sha3_224 ...
 * sha3_512, shake_128, shake_256), with CPython 3.11's interfaces: the
 * constructor names and arguments (md5(string=b'', *, usedforsecurity=True);
 * sha3_224([data], *, usedforsecurity=True), a type), the types' names
 * ('_md5.md5', '_sha3.shake_128'), name, digest_size, block_size, update,
 * digest, hexdigest, copy, a shake's digest(length), sha3's _capacity_bits,
 * _rate_bits and _suffix, and their messages.
 *
 * The hashing is OpenSSL's libcrypto, through hashlibmodule.c's hash
 * objects (modules.h): a well-kept library that every build links already
 * for _hashlib and _ssl, so these modules add no second implementation of
 * the algorithms to keep right. md5, sha1 and SHA-2 keep OpenSSL's plain
 * context structs in a RawObj (transactional under STM, copied as bytes);
 * sha3 and shake keep an EVP_MD_CTX in C memory (inevitable under STM, freed
 * by __del__), as _hashlib's do. hashlib.md5 & co. still come from
 * _hashlib: hashlib.py takes these only when _hashlib is missing or lacks
 * the algorithm. */
#include "modules.h"
#include "objects/containers.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <stdio.h>
#include <string.h>

/* ---- md5, sha1, sha224, sha256, sha384, sha512 ---- */

enum { H_MD5, H_SHA1, H_SHA224, H_SHA256, H_SHA384, H_SHA512, NPLAIN };

static const struct {
    const char *algo;       /* hashlib's name: the object's .name */
    const char *type_name;  /* the type, module.name */
    const char *type_attr;  /* the module's name for the type (NULL: none) */
} plain[NPLAIN] = {
    {"md5", "_md5.md5", "MD5Type"},
    {"sha1", "_sha1.sha1", "SHA1Type"},
    {"sha224", "_sha256.sha224", "SHA224Type"},
    {"sha256", "_sha256.sha256", "SHA256Type"},
    /* CPython 3.11's _sha512 has no SHA512Type: it adds its sha512 type
     * under the name SHA384Type, and its sha384 type under none */
    {"sha384", "_sha512.sha384", NULL},
    {"sha512", "_sha512.sha512", "SHA384Type"},
};

static TypeObj *T_plain[NPLAIN];

/* Its algorithm in hashlibmodule.c's table; -1 with ValueError when this
 * OpenSSL cannot run it (FIPS, a provider without it). */
static int algo_or_error(const char *name)
{
    int k = hashlib_algo(name);
    if (k < 0)
        err_format(E_ValueError, "unsupported hash type %s", name);
    return k;
}

/* usedforsecurity= is accepted and only checked for truth, as CPython's
 * builtin hashes (they have no policy to apply). */
static int check_usedforsecurity(Obj v)
{
    return v && vm_is_true(v) < 0 ? -1 : 0;
}

static Obj plain_new(int which, const char *fname, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"string", "usedforsecurity", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args(fname, args, nargs, kwnames, names, 0, 1, a) < 0 || check_usedforsecurity(a[1]) < 0)
        goto out;
    int k = algo_or_error(plain[which].algo);
    if (k >= 0)
        res = hashlib_object_new(T_plain[which], k, a[0]);
out:
    vm_unroots(a);
    return res;
}

static Obj f_md5(Obj *args, size_t nargs, Obj kwnames) { return plain_new(H_MD5, "md5", args, nargs, kwnames); }
static Obj f_sha1(Obj *args, size_t nargs, Obj kwnames) { return plain_new(H_SHA1, "sha1", args, nargs, kwnames); }
static Obj f_sha224(Obj *args, size_t nargs, Obj kwnames) { return plain_new(H_SHA224, "sha224", args, nargs, kwnames); }
static Obj f_sha256(Obj *args, size_t nargs, Obj kwnames) { return plain_new(H_SHA256, "sha256", args, nargs, kwnames); }
static Obj f_sha384(Obj *args, size_t nargs, Obj kwnames) { return plain_new(H_SHA384, "sha384", args, nargs, kwnames); }
static Obj f_sha512(Obj *args, size_t nargs, Obj kwnames) { return plain_new(H_SHA512, "sha512", args, nargs, kwnames); }

/* copy(): CPython 3.11's takes its defining class, which makes it refuse
 * positional arguments with this message and let keywords pass unread. */
static Obj plain_copy(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs > 1) {
        err_set(E_TypeError, "copy() takes no arguments");
        return NULL;
    }
    return hashlib_m_copy(args, 1, NULL);
}

static const MethodDef plain_methods[] = {
    {"copy", plain_copy, METH_KW, "copy($self, /)\n--\n\nReturn a copy of the hash object."},
    {"digest", hashlib_m_digest, METH_NOARGS, "digest($self, /)\n--\n\nReturn the digest value as a bytes object."},
    {"hexdigest", hashlib_m_hexdigest, METH_NOARGS,
     "hexdigest($self, /)\n--\n\nReturn the digest value as a string of hexadecimal digits."},
    {"update", hashlib_m_update, METH_O,
     "update($self, obj, /)\n--\n\nUpdate this hash object's state with the provided string."},
    {NULL, NULL, 0, NULL},
};

/* ---- sha3_224 ... sha3_512, shake_128, shake_256 ---- */

enum { S_224, S_256, S_384, S_512, S_SHAKE128, S_SHAKE256, NSHA3 };

static const struct {
    const char *algo;       /* hashlib's name, also the type's */
    int capacity_bits;      /* 2 x the security level; rate = 1600 - capacity */
    bool shake;
    const char *doc;        /* the type's (CPython's shows the constructor's there) */
} sha3[NSHA3] = {
    {"sha3_224", 448, false,
     "sha3_224([data], *, usedforsecurity=True) -> SHA3 object\n\n"
     "Return a new SHA3 hash object with a hashbit length of 28 bytes."},
    {"sha3_256", 512, false,
     "sha3_256([data], *, usedforsecurity=True) -> SHA3 object\n\n"
     "Return a new SHA3 hash object with a hashbit length of 32 bytes."},
    {"sha3_384", 768, false,
     "sha3_384([data], *, usedforsecurity=True) -> SHA3 object\n\n"
     "Return a new SHA3 hash object with a hashbit length of 48 bytes."},
    {"sha3_512", 1024, false,
     "sha3_512([data], *, usedforsecurity=True) -> SHA3 object\n\n"
     "Return a new SHA3 hash object with a hashbit length of 64 bytes."},
    {"shake_128", 256, true,
     "shake_128([data], *, usedforsecurity=True) -> SHAKE object\n\n"
     "Return a new SHAKE hash object."},
    {"shake_256", 512, true,
     "shake_256([data], *, usedforsecurity=True) -> SHAKE object\n\n"
     "Return a new SHAKE hash object."},
};

static TypeObj *T_sha3[NSHA3];

static int sha3_index(Obj type)
{
    for (int i = 0; i < NSHA3; i++)
        if (type == (Obj)T_sha3[i])
            return i;
    return -1;
}

static Obj sha3_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"", "usedforsecurity", NULL};
    int i = sha3_index(type);
    if (i < 0) {
        err_format(E_TypeError, "cannot create '%s' instances", type_name_of_type((TypeObj *)type));
        return NULL;
    }
    Obj *a = vm_roots(2);
    Obj res = NULL;
    /* CPython 3.11's six types share one argument parser named sha3_224 */
    if (vm_parse_args("sha3_224", args, nargs, kwnames, names, 0, 1, a) < 0 || check_usedforsecurity(a[1]) < 0)
        goto out;
    int k = algo_or_error(sha3[i].algo);
    if (k >= 0)
        res = hashlib_object_new(T_sha3[i], k, a[0]);
out:
    vm_unroots(a);
    return res;
}

/* A shake's length argument, converted as CPython's unsigned long
 * parameter: an int (no __index__), not negative, under 2**29 bytes. */
static int shake_length(Obj v, int64_t *out)
{
    Obj u = vm_unwrap(v);
    if (!IS_INT(u)) {
        err_set(E_TypeError, "an integer is required");
        return -1;
    }
    u = int_exact(u);
    if (int_sign(u) < 0) {
        err_set(E_ValueError, "value must be positive");
        return -1;
    }
    if (int_bit_length(u) > 64) {
        err_set(E_OverflowError, "Python int too large to convert to C unsigned long");
        return -1;
    }
    int64_t n;
    if (int_bit_length(u) > 63 || int_as_i64(u, &n) < 0 || n >= (1 << 29)) {
        err_clear();
        err_set(E_ValueError, "length is too large");
        return -1;
    }
    *out = n;
    return 0;
}

static Obj shake_digest_common(Obj *args, bool hex)
{
    int64_t n;
    if (shake_length(args[1], &n) < 0)
        return NULL;
    return hashlib_object_digest(args[0], n, hex);
}

static Obj shake_digest(Obj *args, size_t nargs, Obj kwnames) { return shake_digest_common(args, false); }
static Obj shake_hexdigest(Obj *args, size_t nargs, Obj kwnames) { return shake_digest_common(args, true); }

static int sha3_of(Obj self)
{
    int i = sha3_index((Obj)TYPE(self));
    return i < 0 ? 0 : i;
}

static Obj sha3_capacity_bits(Obj *args, size_t nargs, Obj kwnames)
{
    return MAKE_SMALLINT(sha3[sha3_of(args[0])].capacity_bits);
}

static Obj sha3_rate_bits(Obj *args, size_t nargs, Obj kwnames)
{
    return MAKE_SMALLINT(1600 - sha3[sha3_of(args[0])].capacity_bits);
}

/* The domain-separation bits FIPS 202 appends before the padding: 01 for
 * SHA-3, 1111 for SHAKE, as the byte CPython shows. */
static Obj sha3_suffix(Obj *args, size_t nargs, Obj kwnames)
{
    return bytes_new(sha3[sha3_of(args[0])].shake ? "\x1f" : "\x06", 1);
}

static const MethodDef sha3_methods[] = {
    {"copy", hashlib_m_copy, METH_NOARGS, "copy($self, /)\n--\n\nReturn a copy of the hash object."},
    {"digest", hashlib_m_digest, METH_NOARGS, "digest($self, /)\n--\n\nReturn the digest value as a bytes object."},
    {"hexdigest", hashlib_m_hexdigest, METH_NOARGS,
     "hexdigest($self, /)\n--\n\nReturn the digest value as a string of hexadecimal digits."},
    {"update", hashlib_m_update, METH_O,
     "update($self, data, /)\n--\n\nUpdate this hash object's state with the provided bytes-like object."},
    {"__del__", hashlib_m_del, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef shake_methods[] = {
    {"copy", hashlib_m_copy, METH_NOARGS, "copy($self, /)\n--\n\nReturn a copy of the hash object."},
    {"digest", shake_digest, METH_O, "digest($self, length, /)\n--\n\nReturn the digest value as a bytes object."},
    {"hexdigest", shake_hexdigest, METH_O,
     "hexdigest($self, length, /)\n--\n\nReturn the digest value as a string of hexadecimal digits."},
    {"update", hashlib_m_update, METH_O,
     "update($self, data, /)\n--\n\nUpdate this hash object's state with the provided bytes-like object."},
    {"__del__", hashlib_m_del, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* ---- the types and modules ---- */

static TypeObj *make_type(const char *name, const MethodDef *methods, const char *doc, bool has_del)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_ITER, TPF_DOTTED_NAME);
    if (!t)
        return NULL;
    VM_WRITE_RARE(t);
    if (has_del)
        t->flags |= TPF_HAS_DEL;   /* an EVP context to free */
    type_add_methods(t, methods);
    type_add_getset(t, "name", hashlib_m_name, NULL);
    type_add_getset(t, "digest_size", hashlib_m_digest_size, NULL);
    type_add_getset(t, "block_size", hashlib_m_block_size, NULL);
    Obj d = doc ? str_from_cstr(doc) : g_None;   /* CPython's md5 & co. types have none */
    if (!d)
        return NULL;
    type_set_attr_cstr(t, "__doc__", d);
    return t;
}

/* The types, made once (module inits run inevitable: C globals may be
 * written). 0 or -1. */
static int make_types(void)
{
    if (T_sha3[NSHA3 - 1])
        return 0;
    hashlib_algos_init();
    for (int i = 0; i < NPLAIN; i++) {
        if (!T_plain[i]) {
            TypeObj *t = make_type(plain[i].type_name, plain_methods, NULL, false);
            if (!t)
                return -1;
            type_ready(t);
            T_plain[i] = t;
        }
    }
    for (int i = 0; i < NSHA3; i++) {
        if (T_sha3[i])
            continue;
        char name[32];
        snprintf(name, sizeof name, "_sha3.%s", sha3[i].algo);
        TypeObj *t = make_type(name, sha3[i].shake ? shake_methods : sha3_methods, sha3[i].doc, true);
        if (!t)
            return -1;
        t->tp_new = sha3_new;
        type_add_getset(t, "_capacity_bits", sha3_capacity_bits, NULL);
        type_add_getset(t, "_rate_bits", sha3_rate_bits, NULL);
        type_add_getset(t, "_suffix", sha3_suffix, NULL);
        type_ready(t);
        T_sha3[i] = t;
    }
    return 0;
}

/* A module with the constructors (functions) fns and the plain types
 * first..last under their module names. */
static Obj plain_module(const char *name, const MethodDef *fns, int first, int last)
{
    if (make_types() < 0)
        return err_occurred() ? NULL : err_nomemory();
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = module_new(name);
    if (!r[0])
        goto out;
    module_add_functions(r[0], fns);
    for (int i = first; i <= last; i++)
        if (plain[i].type_attr && module_add(r[0], plain[i].type_attr, (Obj)T_plain[i]) < 0)
            goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

#define CONSTRUCTOR_DOC(NAME, WHAT)                                         \
    NAME "($module, /, string=b'', *, usedforsecurity=True)\n--\n\nReturn a new " WHAT \
    " hash object; optionally initialized with a string."

Obj md5_module_init(void)
{
    static const MethodDef fns[] = {
        {"md5", f_md5, METH_KW, CONSTRUCTOR_DOC("md5", "MD5")},
        {NULL, NULL, 0, NULL},
    };
    return plain_module("_md5", fns, H_MD5, H_MD5);
}

Obj sha1_module_init(void)
{
    static const MethodDef fns[] = {
        {"sha1", f_sha1, METH_KW, CONSTRUCTOR_DOC("sha1", "SHA1")},
        {NULL, NULL, 0, NULL},
    };
    return plain_module("_sha1", fns, H_SHA1, H_SHA1);
}

Obj sha256_module_init(void)
{
    static const MethodDef fns[] = {
        {"sha256", f_sha256, METH_KW, CONSTRUCTOR_DOC("sha256", "SHA-256")},
        {"sha224", f_sha224, METH_KW, CONSTRUCTOR_DOC("sha224", "SHA-224")},
        {NULL, NULL, 0, NULL},
    };
    return plain_module("_sha256", fns, H_SHA224, H_SHA256);
}

Obj sha512_module_init(void)
{
    static const MethodDef fns[] = {
        {"sha512", f_sha512, METH_KW, CONSTRUCTOR_DOC("sha512", "SHA-512")},
        {"sha384", f_sha384, METH_KW, CONSTRUCTOR_DOC("sha384", "SHA-384")},
        {NULL, NULL, 0, NULL},
    };
    return plain_module("_sha512", fns, H_SHA384, H_SHA512);
}

Obj sha3_module_init(void)
{
    if (make_types() < 0)
        return err_occurred() ? NULL : err_nomemory();
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = module_new("_sha3");
    if (!r[0])
        goto out;
    for (int i = 0; i < NSHA3; i++)
        if (module_add(r[0], sha3[i].algo, (Obj)T_sha3[i]) < 0)
            goto out;
    /* CPython 3.11 names its Keccak code here ('tiny_sha3', keccakopt 0:
     * no XKCP lane optimisation); tmpy's is OpenSSL's */
    r[1] = str_from_cstr("OpenSSL");
    if (!r[1] || module_add(r[0], "implementation", r[1]) < 0 ||
        module_add(r[0], "keccakopt", MAKE_SMALLINT(0)) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
