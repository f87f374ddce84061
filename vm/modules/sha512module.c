/* _sha512: CPython 3.11's lean SHA-384/SHA-512 module, which random.py
 * imports (for str/bytes seeds) in place of hashlib, "pretty heavy to
 * load": with it `import random` skips hashlib and _hashlib's set-up of
 * every OpenSSL digest. The functions sha512(string=b'', *,
 * usedforsecurity=True) and sha384(...) make objects of the types
 * _sha512.sha512 and _sha512.sha384 (not instantiable, not subclassable):
 * update, digest, hexdigest, copy, name, digest_size, block_size, with
 * CPython's messages. (3.11's module also binds its sha512 type under the
 * name SHA384Type; so does this one.) hashlib itself keeps taking sha384
 * and sha512 from _hashlib; its __get_builtin_constructor finds these.
 *
 * The compression is OpenSSL's (libcrypto, linked for _hashlib): its plain
 * SHA512_CTX struct, no pointers, kept in a RawObj (the IterObj's b; a is
 * the name, n the digest size). An update copies the state to the C
 * stack, hashes (safe points between chunks of a long input, which is read
 * in place: nothing allocates meanwhile) and writes it back through the
 * write barrier, so under STM an abort undoes it like any heap write, and
 * copy() copies bytes. */
#define OPENSSL_SUPPRESS_DEPRECATED 1   /* SHA512_Init & co.: their context struct is what we keep */
#include "modules.h"
#include "objects/containers.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <openssl/sha.h>
#include <string.h>

#define SHA_CHUNK (256 * 1024)   /* bytes hashed between safe points */

static TypeObj *T_sha512, *T_sha384;

/* The data argument of update/new: bytes-like; str refused with CPython's
 * message. */
static bool data_arg(Obj v, const char **p, int64_t *n)
{
    if (str_value(v)) {
        err_set(E_TypeError, "Strings must be encoded before hashing");
        return false;
    }
    if (bytes_like(v, p, n))
        return true;
    err_set(E_TypeError, "object supporting the buffer API required");
    return false;
}

static void update_chunks(SHA512_CTX *c, const char *p, int64_t n)
{
    while (n > 0) {
        size_t k = n > SHA_CHUNK ? SHA_CHUNK : (size_t)n;
        SHA512_Update(c, p, k);
        p += k;
        n -= (int64_t)k;
        if (n > 0)
            tm_safepoint();   /* a committer may be waiting */
    }
}

static SHA512_CTX *ctx_of(Obj h) { return (SHA512_CTX *)VM_LINEAR(RAW(ITER(h)->b)->data); }

/* A new hash object of type t with the given state. */
static Obj sha_alloc(TypeObj *t, const SHA512_CTX *c)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = raw_new((int64_t)sizeof(SHA512_CTX));
    if (r[0]) {
        memcpy(VM_LINEAR(RAW(r[0])->data), c, sizeof *c);   /* a new object: no barrier */
        tm_compiler_barrier();
        r[1] = str_intern_cstr(t == T_sha512 ? "sha512" : "sha384");
        Obj h = r[1] ? iter_alloc(t, r[1], 0) : NULL;
        if (h) {
            ITER(h)->b = r[0];
            ITER(h)->n = t == T_sha512 ? 64 : 48;
            res = h;
        }
    }
    vm_unroots(r);
    return res;
}

static Obj sha_new(TypeObj *t, const char *fname, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"string", "usedforsecurity", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args(fname, args, nargs, kwnames, names, 0, 1, a) < 0)
        goto out;
    const char *p = NULL;
    int64_t n = 0;
    if (a[0] && !data_arg(a[0], &p, &n))
        goto out;
    SHA512_CTX c;
    if (t == T_sha512)
        SHA512_Init(&c);
    else
        SHA384_Init(&c);
    if (a[0])
        update_chunks(&c, p, n);
    res = sha_alloc(t, &c);
out:
    vm_unroots(a);
    return res;
}

static Obj f_sha512(Obj *args, size_t nargs, Obj kwnames) { return sha_new(T_sha512, "sha512", args, nargs, kwnames); }
static Obj f_sha384(Obj *args, size_t nargs, Obj kwnames) { return sha_new(T_sha384, "sha384", args, nargs, kwnames); }

static Obj m_update(Obj *args, size_t nargs, Obj kwnames)
{
    const char *p;
    int64_t n;
    if (!data_arg(args[1], &p, &n))
        return NULL;
    SHA512_CTX c;
    memcpy(&c, ctx_of(args[0]), sizeof c);
    update_chunks(&c, p, n);
    Obj raw = ITER(args[0])->b;
    VM_WRITE(raw);
    memcpy(VM_LINEAR(RAW(raw)->data), &c, sizeof c);
    tm_compiler_barrier();
    return g_None;
}

/* The digest of h into out (64 bytes; sha384 uses the first 48). */
static int64_t sha_final(Obj h, unsigned char out[SHA512_DIGEST_LENGTH])
{
    SHA512_CTX c;
    memcpy(&c, ctx_of(h), sizeof c);
    if (TYPE(h) == T_sha512)
        SHA512_Final(out, &c);
    else
        SHA384_Final(out, &c);
    return ITER(h)->n;
}

static Obj m_digest(Obj *args, size_t nargs, Obj kwnames)
{
    unsigned char out[SHA512_DIGEST_LENGTH];
    int64_t n = sha_final(args[0], out);
    return bytes_new((const char *)out, (size_t)n);
}

static Obj m_hexdigest(Obj *args, size_t nargs, Obj kwnames)
{
    static const char digits[] = "0123456789abcdef";
    unsigned char out[SHA512_DIGEST_LENGTH];
    char hex[2 * SHA512_DIGEST_LENGTH];
    int64_t n = sha_final(args[0], out);
    for (int64_t i = 0; i < n; i++) {
        hex[2 * i] = digits[out[i] >> 4];
        hex[2 * i + 1] = digits[out[i] & 15];
    }
    return str_new(hex, (size_t)n * 2);
}

static Obj m_copy(Obj *args, size_t nargs, Obj kwnames)
{
    SHA512_CTX c;
    memcpy(&c, ctx_of(args[0]), sizeof c);
    return sha_alloc(TYPE(args[0]), &c);
}

static Obj g_name(Obj *args, size_t nargs, Obj kwnames) { return ITER(args[0])->a; }
static Obj g_digest_size(Obj *args, size_t nargs, Obj kwnames) { return MAKE_SMALLINT(ITER(args[0])->n); }
static Obj g_block_size(Obj *args, size_t nargs, Obj kwnames) { return MAKE_SMALLINT(SHA512_CBLOCK); }

static const MethodDef sha_methods[] = {
    {"copy", m_copy, METH_NOARGS, "copy($self, /)\n--\n\nReturn a copy of the hash object."},
    {"digest", m_digest, METH_NOARGS, "digest($self, /)\n--\n\nReturn the digest value as a bytes object."},
    {"hexdigest", m_hexdigest, METH_NOARGS,
     "hexdigest($self, /)\n--\n\nReturn the digest value as a string of hexadecimal digits."},
    {"update", m_update, METH_O,
     "update($self, obj, /)\n--\n\nUpdate this hash object's state with the provided string."},
    {NULL, NULL, 0, NULL},
};

static const MethodDef sha512_functions[] = {
    {"sha512", f_sha512, METH_KW,
     "sha512($module, /, string=b'', *, usedforsecurity=True)\n--\n\n"
     "Return a new SHA-512 hash object; optionally initialized with a string."},
    {"sha384", f_sha384, METH_KW,
     "sha384($module, /, string=b'', *, usedforsecurity=True)\n--\n\n"
     "Return a new SHA-384 hash object; optionally initialized with a string."},
    {NULL, NULL, 0, NULL},
};

static TypeObj *make_type(const char *name)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_ITER, TPF_DOTTED_NAME);
    VM_WRITE_RARE(t);
    type_add_methods(t, sha_methods);
    type_add_getset(t, "name", g_name, NULL);
    type_add_getset(t, "digest_size", g_digest_size, NULL);
    type_add_getset(t, "block_size", g_block_size, NULL);
    type_ready(t);
    Obj mod = str_from_cstr("_sha512");   /* in the type's dict, as CPython's (a heap type there) */
    if (mod)
        type_set_attr_cstr(t, "__module__", mod);
    return t;
}

Obj sha512_module_init(void)
{
    if (!T_sha512) {   /* module inits run inevitable: C globals may be written */
        T_sha512 = make_type("_sha512.sha512");
        T_sha384 = make_type("_sha512.sha384");
    }
    Obj *r = vm_roots(1);
    r[0] = module_new("_sha512");
    Obj m = r[0];
    if (m) {
        module_add_functions(r[0], sha512_functions);
        m = module_add(r[0], "SHA384Type", (Obj)T_sha512) == 0 ? r[0] : NULL;   /* sic: 3.11's binding */
    }
    vm_unroots(r);
    return m;
}
