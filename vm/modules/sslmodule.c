/* The _ssl module on OpenSSL's libssl, with the interface CPython 3.11's
 * Lib/ssl.py (and through it http.client, urllib3, pip and asyncio) uses:
 * _SSLContext, _SSLSocket, MemoryBIO, SSLSession, the SSLError family, the
 * RAND_* functions, txt2obj/nid2obj, get_default_verify_paths,
 * _test_decode_cert and the constants. Written from OpenSSL's manual pages
 * and the ssl module's documentation; names, messages and the shape of
 * getpeercert()'s dict are CPython's.
 *
 * Objects are IterObjs (TID_ITER):
 *  - _SSLContext: i = the SSL_CTX *, n = the protocol, kind = CTX_* flags
 *    (check_hostname, post_handshake_auth), a = keylog_filename (None),
 *    b = sni_callback, c = _msg_callback (NULL or None: none). Subclassable (ssl.SSLContext):
 *    a subclass instance keeps the IterObj in base_value.
 *  - _SSLSocket: i = the SSL *, a = the socket (None over MemoryBIOs),
 *    b = the context object, c = [owner, server_hostname, incoming, outgoing],
 *    kind = SOCK_* flags (server side, over BIOs).
 *  - MemoryBIO: i = the BIO *, kind = 1 once write_eof() was called.
 *  - SSLSession: i = the SSL_SESSION *, a = the context of its connection.
 *  - Certificate (get_verified_chain, get_unverified_chain): i = the X509 *.
 * The OpenSSL objects live in C memory, freed by each object's __del__ (the
 * finalizer vm/rt/gcwork.c runs once it is unreachable). STM: every method
 * that reads or changes them makes the transaction inevitable first (an
 * abort cannot undo them), as _hashlib does with its EVP contexts.
 *
 * I/O on a socket runs SSL_do_handshake/SSL_read/SSL_write/SSL_shutdown
 * between vm_blocking_begin/end (other threads run; the STM transaction
 * commits first) on C memory only; what the error report needs (the SSL
 * error, errno, OpenSSL's error code, the verify result) is captured there.
 * A socket's timeout governs the call as in CPython: None blocks, 0 raises
 * SSLWantReadError/SSLWantWriteError, > 0 polls the fd until the deadline
 * and raises TimeoutError. */
#define _GNU_SOURCE
#define OPENSSL_SUPPRESS_DEPRECATED 1   /* TLSv1_method & co.: PROTOCOL_TLSv1* contexts, as CPython makes them */
#include "modules.h"
#include "objects/containers.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <arpa/inet.h>
#include <errno.h>
#include <openssl/bio.h>
#include <openssl/dh.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static TypeObj *T_ctx, *T_sslsock, *T_bio, *T_session, *T_cert;
static TypeObj *E_ssl, *E_zero_return, *E_want_read, *E_want_write, *E_syscall, *E_eof;
static Obj g_cert_verify_error;   /* SSLCertVerificationError(SSLError, ValueError), made by type() */
static int g_alpn_index = -1;     /* SSL_CTX ex_data slot of a server's ALPN protocols */
static int g_keylog_index = -1;   /* SSL_CTX ex_data slot of the keylog_filename's FILE */

/* CPython's PY_SSL_ERROR_* (SSL_ERROR_EOF and up are its own). */
enum { ERR_EOF = 8, ERR_NO_SOCKET = 9, ERR_INVALID = 10 };
/* The protocols (PROTOCOL_*). */
enum { PROTO_TLS = 2, PROTO_TLSv1 = 3, PROTO_TLSv1_1 = 4, PROTO_TLSv1_2 = 5, PROTO_TLS_CLIENT = 16, PROTO_TLS_SERVER = 17 };
enum { CTX_CHECK_HOSTNAME = 1, CTX_PHA = 2 };
enum { SOCK_SERVER = 1, SOCK_OVER_BIO = 2 };
/* The items of an _SSLSocket's list (c). */
enum { C_OWNER, C_HOSTNAME, C_INCOMING, C_OUTGOING, C_COUNT };
/* The CERT_* values. */
enum { CERT_NONE, CERT_OPTIONAL, CERT_REQUIRED };
/* The _ssl.c line numbers CPython's messages end with, kept so that
 * messages match CPython's ("... (_ssl.c:1006)"). */
enum { LINE_HANDSHAKE = 1006, LINE_READ = 2580, LINE_WRITE = 2427, LINE_SHUTDOWN = 2706, LINE_CERT_CHAIN = 3905,
       LINE_KEY = 3926, LINE_CADATA = 4020, LINE_VERIFY_FILE = 4154, LINE_DH = 4202, LINE_CTX = 3100 };

#define DEFAULT_CIPHERS "@SECLEVEL=2:ECDH+AESGCM:ECDH+CHACHA20:ECDH+AES:DHE+AES:!aNULL:!eNULL:!aDSS:!SHA1:!AESCCM"

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

/* OpenSSL's library codes and CPython's short names for them. */
static const struct { int code; const char *name; } lib_names[] = {
    {ERR_LIB_ASN1, "ASN1"}, {ERR_LIB_ASYNC, "ASYNC"}, {ERR_LIB_BIO, "BIO"}, {ERR_LIB_BN, "BN"},
    {ERR_LIB_BUF, "BUF"}, {ERR_LIB_CMP, "CMP"}, {ERR_LIB_CMS, "CMS"}, {ERR_LIB_COMP, "COMP"},
    {ERR_LIB_CONF, "CONF"}, {ERR_LIB_CRMF, "CRMF"}, {ERR_LIB_CRYPTO, "CRYPTO"}, {ERR_LIB_CT, "CT"},
    {ERR_LIB_DH, "DH"}, {ERR_LIB_DSA, "DSA"}, {ERR_LIB_DSO, "DSO"}, {ERR_LIB_EC, "EC"},
    {ERR_LIB_ECDH, "ECDH"}, {ERR_LIB_ECDSA, "ECDSA"}, {ERR_LIB_ENGINE, "ENGINE"}, {ERR_LIB_ESS, "ESS"},
    {ERR_LIB_EVP, "EVP"}, {ERR_LIB_FIPS, "FIPS"}, {ERR_LIB_HMAC, "HMAC"}, {ERR_LIB_HTTP, "HTTP"},
    {ERR_LIB_KDF, "KDF"}, {ERR_LIB_NONE, "NONE"}, {ERR_LIB_OBJ, "OBJ"}, {ERR_LIB_OCSP, "OCSP"},
    {ERR_LIB_OSSL_DECODER, "OSSL_DECODER"}, {ERR_LIB_OSSL_ENCODER, "OSSL_ENCODER"}, {ERR_LIB_OSSL_STORE, "OSSL_STORE"},
    {ERR_LIB_PEM, "PEM"}, {ERR_LIB_PKCS12, "PKCS12"}, {ERR_LIB_PKCS7, "PKCS7"}, {ERR_LIB_PROP, "PROP"},
    {ERR_LIB_PROV, "PROV"}, {ERR_LIB_RAND, "RAND"}, {ERR_LIB_RSA, "RSA"}, {ERR_LIB_SM2, "SM2"},
    {ERR_LIB_SSL, "SSL"}, {ERR_LIB_SYS, "SYS"}, {ERR_LIB_TS, "TS"}, {ERR_LIB_UI, "UI"},
    {ERR_LIB_USER, "USER"}, {ERR_LIB_X509, "X509"}, {ERR_LIB_X509V3, "X509V3"},
};

static const char *lib_name(int lib)
{
    for (size_t i = 0; i < ARRAY_LEN(lib_names); i++)
        if (lib_names[i].code == lib)
            return lib_names[i].name;
    return NULL;
}

/* The mnemonic of a reason (CERTIFICATE_VERIFY_FAILED): OpenSSL's reason
 * string in upper case with '_' for ' ' (OpenSSL exports no mnemonics).
 * The common reasons (ERR_R_*) have none, as in CPython's table. */
static bool reason_mnemonic(unsigned long e, char *out, size_t size)
{
    const char *s = ERR_reason_error_string(e);
    if (!s || (ERR_GET_REASON(e) & ERR_RFLAG_COMMON) || ERR_SYSTEM_ERROR(e))
        return false;
    size_t i = 0;
    for (; s[i] && i + 1 < size; i++) {
        char ch = s[i];
        out[i] = ch == ' ' || ch == '-' ? '_' : (ch >= 'a' && ch <= 'z' ? (char)(ch - 32) : ch);
    }
    out[i] = 0;
    return true;
}

/* obj.name = v on a new exception (its dict); *objp is a root. */
static int set_attr(Obj *objp, const char *name, Obj v)
{
    Obj *r = vm_roots(2);
    r[0] = v;
    r[1] = str_from_cstr(name);
    int rc = r[1] ? vm_setattr(*objp, r[1], r[0]) : -1;
    vm_unroots(r);
    return rc;
}

/* Raise type(code, message) with .library, .reason (None when NULL) and,
 * for a verify failure, .verify_code and .verify_message. */
static Obj raise_ssl_full(TypeObj *type, int code, const char *message, const char *library, const char *reason,
                          long verify_code, const char *verify_message)
{
    Obj *r = vm_roots(3);
    r[0] = MAKE_SMALLINT(code);
    r[1] = str_from_cstr(message);
    if (!r[1])
        goto out;
    r[2] = exc_new(type, r, 2);
    if (!r[2])
        goto out;
    Obj v = library ? str_from_cstr(library) : g_None;
    if (!v || set_attr(&r[2], "library", v) < 0)
        goto out;
    v = reason ? str_from_cstr(reason) : g_None;
    if (!v || set_attr(&r[2], "reason", v) < 0)
        goto out;
    if (verify_message) {
        if (set_attr(&r[2], "verify_code", int_from_i64(verify_code)) < 0)
            goto out;
        v = str_from_cstr(verify_message);
        if (!v || set_attr(&r[2], "verify_message", v) < 0)
            goto out;
    }
    err_set_obj(r[2]);
out:
    vm_unroots(r);
    return NULL;
}

static Obj raise_ssl(TypeObj *type, int code, const char *message)
{
    return raise_ssl_full(type, code, message, NULL, NULL, 0, NULL);
}

/* SSLError(message) with one argument, as CPython raises for bad settings
 * ("No cipher can be selected."). */
static Obj raise_ssl_plain(const char *message)
{
    err_set(E_ssl, message);
    return NULL;
}

static Obj raise_errno(int e)
{
    Obj *r = vm_roots(2);
    r[0] = MAKE_SMALLINT(e);
    r[1] = str_from_cstr(strerror(e));
    Obj exc = r[1] ? exc_new(E_OSError, r, 2) : NULL;
    if (exc)
        err_set_obj(exc);
    vm_unroots(r);
    return NULL;
}

/* OSError(errno, strerror, filename). */
static Obj raise_errno_filename(int e, Obj filename)
{
    Obj *r = vm_roots(3);
    r[2] = filename;
    r[0] = MAKE_SMALLINT(e);
    r[1] = str_from_cstr(strerror(e));
    Obj exc = r[1] ? exc_new(E_OSError, r, 3) : NULL;
    if (exc)
        err_set_obj(exc);
    vm_unroots(r);
    return NULL;
}

/* The error OpenSSL's queue ends with (e: ERR_peek_last_error) as
 * SSLError(code, "[LIB: REASON] reason string (_ssl.c:LINE)"); code is
 * `ssl_code` when >= 0, else the reason number (context methods). */
static Obj raise_from_err(unsigned long e, int ssl_code, int line, TypeObj *type)
{
    char msg[512], mnem[128];
    const char *lib = lib_name(ERR_GET_LIB(e));
    const char *rstr = ERR_reason_error_string(e);
    bool has_mnem = e && reason_mnemonic(e, mnem, sizeof mnem);
    if (!rstr)
        rstr = "unknown error";
    if (lib && has_mnem)
        snprintf(msg, sizeof msg, "[%s: %s] %s (_ssl.c:%d)", lib, mnem, rstr, line);
    else if (lib && e)
        snprintf(msg, sizeof msg, "[%s] %s (_ssl.c:%d)", lib, rstr, line);
    else
        snprintf(msg, sizeof msg, "%s (_ssl.c:%d)", rstr, line);
    int code = ssl_code >= 0 ? ssl_code : ERR_GET_REASON(e);
    return raise_ssl_full(type ? type : E_ssl, code, msg, e ? lib : NULL, has_mnem ? mnem : NULL, 0, NULL);
}

/* An error of a context method: the last one queued, the queue cleared. */
static Obj raise_ctx_error(int line)
{
    unsigned long e = ERR_peek_last_error();
    ERR_clear_error();
    return raise_from_err(e, -1, line, NULL);
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

/* The IterObj of type t behind self (a subclass instance unwrapped), or
 * NULL with TypeError. */
static Obj self_of(Obj self, TypeObj *t, const char *what)
{
    Obj s = vm_unwrap(self);
    if (TID(s) != TID_ITER || ITER(s)->cls != (Obj)t) {
        err_format(E_TypeError, "descriptor '%s' for '%s' objects doesn't apply to a '%s' object", what,
                   str_cstr(t->name), type_name(self));
        return NULL;
    }
    return s;
}

/* __del__ of the types holding an OpenSSL object in their word: free it
 * once (the word cleared), the transaction inevitable (C state). */
static Obj free_held(Obj *args, TypeObj *t, void (*free_fn)(void *))
{
    if (!self_of(args[0], t, "__del__"))
        return NULL;
    vm_tx_become_inevitable();
    Obj s = vm_unwrap(args[0]);
    void *p = (void *)(uintptr_t)ITER(s)->i;
    if (p) {
        free_fn(p);
        VM_WRITE(s);
        ITER(s)->i = 0;
    }
    return g_None;
}

static SSL_CTX *ctx_ptr(Obj s) { return (SSL_CTX *)(uintptr_t)ITER(s)->i; }
static SSL *ssl_ptr(Obj s) { return (SSL *)(uintptr_t)ITER(s)->i; }
static BIO *bio_ptr(Obj s) { return (BIO *)(uintptr_t)ITER(s)->i; }

/* A str of n bytes at p that may not be valid UTF-8 (certificate fields):
 * decoded with errors='replace' only when needed. */
static Obj str_of(const char *p, size_t n) { return str_new(p, n); }

/* What a memory BIO holds, as a str (and the BIO freed). */
static Obj bio_to_str(BIO *b)
{
    char *p;
    long n = BIO_get_mem_data(b, &p);
    Obj s = str_of(p, n > 0 ? (size_t)n : 0);
    BIO_free(b);
    return s;
}

/* A path argument (str, bytes or os.PathLike) as a malloc'd C string. */
static char *path_arg(Obj v, const char *what)
{
    Obj p = vm_fspath(v);
    if (!p) {
        err_clear();
        err_format(E_TypeError, "%s should be a valid filesystem path", what);
        return NULL;
    }
    p = vm_unwrap(p);
    if (IS_STR(p))
        return str_to_os(p, NULL);
    const char *d;
    int64_t n;
    if (!bytes_like(p, &d, &n))
        return NULL;
    char *c = malloc((size_t)n + 1);
    if (!c) {
        err_nomemory();
        return NULL;
    }
    memcpy(c, d, (size_t)n);
    c[n] = 0;
    if (strlen(c) != (size_t)n) {
        free(c);
        err_set(E_ValueError, "embedded null byte");
        return NULL;
    }
    return c;
}

/* ------------------------------------------------------------------ */
/* Certificates as Python values (CPython's getpeercert() dict)        */
/* ------------------------------------------------------------------ */

/* (name, value) of one name entry: the attribute's long name (or OID) and
 * its value in UTF-8. */
static Obj name_attribute(X509_NAME_ENTRY *ent)
{
    char buf[256];
    ASN1_OBJECT *obj = X509_NAME_ENTRY_get_object(ent);
    int n = OBJ_obj2txt(buf, sizeof buf, obj, 0);
    if (n < 0)
        n = 0;
    if (n >= (int)sizeof buf)
        n = sizeof buf - 1;
    unsigned char *utf8 = NULL;
    int vn = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(ent));
    if (vn < 0) {
        ERR_clear_error();
        return raise_ssl_plain("cannot decode a certificate name's value");
    }
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = str_new(buf, (size_t)n);
    r[1] = r[0] ? str_of((const char *)utf8, (size_t)vn) : NULL;
    if (r[1])
        res = tuple_pack(2, r[0], r[1]);
    OPENSSL_free(utf8);
    vm_unroots(r);
    return res;
}

/* A name as a tuple of RDNs, each a tuple of (name, value) pairs: entries
 * of one set (X509_NAME_ENTRY_set) form one RDN. */
static Obj name_tuple(const X509_NAME *name)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = list_new(0);   /* the RDNs */
    r[1] = list_new(0);   /* the current RDN's attributes */
    if (!r[0] || !r[1])
        goto out;
    int count = X509_NAME_entry_count(name), last_set = -1;
    for (int i = 0; i < count; i++) {
        X509_NAME_ENTRY *ent = X509_NAME_get_entry(name, i);
        int set = X509_NAME_ENTRY_set(ent);
        if (set != last_set && LIST(r[1])->length > 0) {
            r[2] = list_as_tuple(r[1]);
            if (!r[2] || list_append(r[0], r[2]) < 0 || !(r[1] = list_new(0)))
                goto out;
        }
        last_set = set;
        r[2] = name_attribute(ent);
        if (!r[2] || list_append(r[1], r[2]) < 0)
            goto out;
    }
    if (LIST(r[1])->length > 0) {
        r[2] = list_as_tuple(r[1]);
        if (!r[2] || list_append(r[0], r[2]) < 0)
            goto out;
    }
    res = list_as_tuple(r[0]);
out:
    vm_unroots(r);
    return res;
}

static Obj pair_cstr(const char *kind, Obj value)
{
    if (!value)
        return NULL;
    Obj *r = vm_roots(2);
    r[1] = value;
    r[0] = str_from_cstr(kind);
    Obj res = r[0] ? tuple_pack(2, r[0], r[1]) : NULL;
    vm_unroots(r);
    return res;
}

static Obj asn1_str(const ASN1_STRING *s)
{
    return str_of((const char *)ASN1_STRING_get0_data(s), (size_t)ASN1_STRING_length(s));
}

/* One subjectAltName entry: ('DNS', 'example.org'), ('IP Address', ...) ... */
static Obj general_name(const GENERAL_NAME *g)
{
    char buf[256];
    switch (g->type) {
    case GEN_DNS:
        return pair_cstr("DNS", asn1_str(g->d.dNSName));
    case GEN_EMAIL:
        return pair_cstr("email", asn1_str(g->d.rfc822Name));
    case GEN_URI:
        return pair_cstr("URI", asn1_str(g->d.uniformResourceIdentifier));
    case GEN_DIRNAME: {
        Obj t = name_tuple(g->d.directoryName);
        return t ? pair_cstr("DirName", t) : NULL;
    }
    case GEN_RID: {
        int n = OBJ_obj2txt(buf, sizeof buf, g->d.registeredID, 0);
        return pair_cstr("Registered ID", str_new(buf, n < 0 ? 0 : (size_t)n));
    }
    case GEN_IPADD: {
        const unsigned char *p = ASN1_STRING_get0_data(g->d.iPAddress);
        int len = ASN1_STRING_length(g->d.iPAddress);
        if (len == 4)
            snprintf(buf, sizeof buf, "%d.%d.%d.%d", p[0], p[1], p[2], p[3]);
        else if (len == 16)   /* every group, upper-case hex, no '::' (CPython's form) */
            snprintf(buf, sizeof buf, "%X:%X:%X:%X:%X:%X:%X:%X", p[0] << 8 | p[1], p[2] << 8 | p[3],
                     p[4] << 8 | p[5], p[6] << 8 | p[7], p[8] << 8 | p[9], p[10] << 8 | p[11], p[12] << 8 | p[13],
                     p[14] << 8 | p[15]);
        else
            snprintf(buf, sizeof buf, "<invalid>");
        return pair_cstr("IP Address", str_from_cstr(buf));
    }
    case GEN_OTHERNAME:
        return pair_cstr("othername", str_from_cstr("<unsupported>"));
    case GEN_X400:
        return pair_cstr("X400Name", str_from_cstr("<unsupported>"));
    case GEN_EDIPARTY:
        return pair_cstr("EdiPartyName", str_from_cstr("<unsupported>"));
    }
    return pair_cstr("unknown", str_from_cstr("<unsupported>"));
}

/* d[key] = tuple(list) when the list is not empty. */
static int set_nonempty(Obj *dp, const char *key, Obj list)
{
    if (LIST(list)->length == 0)
        return 0;
    Obj t = list_as_tuple(list);
    return t ? dict_setitem_cstr(*dp, key, t) : -1;
}

static int append_uri(Obj *listp, const GENERAL_NAME *g)
{
    if (g->type != GEN_URI)
        return 0;
    Obj s = asn1_str(g->d.uniformResourceIdentifier);
    return s ? list_append(*listp, s) : -1;
}

/* The dict CPython's getpeercert() and _test_decode_cert return. */
static Obj cert_dict(X509 *cert)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = dict_new();
    if (!r[0])
        goto out;
    r[1] = name_tuple(X509_get_subject_name(cert));
    if (!r[1] || dict_setitem_cstr(r[0], "subject", r[1]) < 0)
        goto out;
    r[1] = name_tuple(X509_get_issuer_name(cert));
    if (!r[1] || dict_setitem_cstr(r[0], "issuer", r[1]) < 0)
        goto out;
    if (dict_setitem_cstr(r[0], "version", int_from_i64(X509_get_version(cert) + 1)) < 0)
        goto out;
    BIO *b = BIO_new(BIO_s_mem());
    if (!b) {
        err_nomemory();
        goto out;
    }
    i2a_ASN1_INTEGER(b, X509_get0_serialNumber(cert));
    r[1] = bio_to_str(b);
    if (!r[1] || dict_setitem_cstr(r[0], "serialNumber", r[1]) < 0)
        goto out;
    for (int k = 0; k < 2; k++) {
        b = BIO_new(BIO_s_mem());
        if (!b) {
            err_nomemory();
            goto out;
        }
        ASN1_TIME_print(b, k == 0 ? X509_get0_notBefore(cert) : X509_get0_notAfter(cert));
        r[1] = bio_to_str(b);
        if (!r[1] || dict_setitem_cstr(r[0], k == 0 ? "notBefore" : "notAfter", r[1]) < 0)
            goto out;
    }
    GENERAL_NAMES *names = X509_get_ext_d2i(cert, NID_subject_alt_name, NULL, NULL);
    if (names) {
        int bad = 0;
        r[1] = list_new(0);
        for (int i = 0; r[1] && i < sk_GENERAL_NAME_num(names) && !bad; i++) {
            r[2] = general_name(sk_GENERAL_NAME_value(names, i));
            bad = !r[2] || list_append(r[1], r[2]) < 0;
        }
        GENERAL_NAMES_free(names);
        if (!r[1] || bad || set_nonempty(&r[0], "subjectAltName", r[1]) < 0)
            goto out;
    }
    AUTHORITY_INFO_ACCESS *aia = X509_get_ext_d2i(cert, NID_info_access, NULL, NULL);
    if (aia) {
        int bad = 0;
        r[1] = list_new(0);   /* OCSP */
        r[2] = r[1] ? list_new(0) : NULL;   /* caIssuers */
        for (int i = 0; r[2] && i < sk_ACCESS_DESCRIPTION_num(aia) && !bad; i++) {
            ACCESS_DESCRIPTION *ad = sk_ACCESS_DESCRIPTION_value(aia, i);
            int nid = OBJ_obj2nid(ad->method);
            if (nid == NID_ad_OCSP)
                bad = append_uri(&r[1], ad->location) < 0;
            else if (nid == NID_ad_ca_issuers)
                bad = append_uri(&r[2], ad->location) < 0;
        }
        AUTHORITY_INFO_ACCESS_free(aia);
        if (!r[2] || bad || set_nonempty(&r[0], "OCSP", r[1]) < 0 || set_nonempty(&r[0], "caIssuers", r[2]) < 0)
            goto out;
    }
    STACK_OF(DIST_POINT) *dps = X509_get_ext_d2i(cert, NID_crl_distribution_points, NULL, NULL);
    if (dps) {
        int bad = 0;
        r[1] = list_new(0);
        for (int i = 0; r[1] && i < sk_DIST_POINT_num(dps) && !bad; i++) {
            DIST_POINT *dp = sk_DIST_POINT_value(dps, i);
            if (!dp->distpoint || dp->distpoint->type != 0)
                continue;
            GENERAL_NAMES *full = dp->distpoint->name.fullname;
            for (int j = 0; j < sk_GENERAL_NAME_num(full) && !bad; j++)
                bad = append_uri(&r[1], sk_GENERAL_NAME_value(full, j)) < 0;
        }
        CRL_DIST_POINTS_free(dps);
        if (!r[1] || bad || set_nonempty(&r[0], "crlDistributionPoints", r[1]) < 0)
            goto out;
    }
    res = r[0];
out:
    ERR_clear_error();
    vm_unroots(r);
    return res;
}

static Obj cert_der(X509 *cert)
{
    unsigned char *der = NULL;
    int n = i2d_X509(cert, &der);
    if (n < 0) {
        ERR_clear_error();
        return raise_ssl_plain("cannot encode the certificate");
    }
    Obj b = bytes_new((const char *)der, (size_t)n);
    OPENSSL_free(der);
    return b;
}

/* ---- _ssl.Certificate: one certificate of a connection's chain ---- */

static X509 *cert_ptr(Obj s) { return (X509 *)(uintptr_t)ITER(s)->i; }

/* A new Certificate holding a reference of its own to x. */
static Obj cert_new(X509 *x)
{
    Obj c = iter_alloc(T_cert, g_None, 0);
    if (!c)
        return NULL;
    X509_up_ref(x);
    VM_WRITE(c);
    ITER(c)->i = (int64_t)(uintptr_t)x;
    tm_register_finalizer((object_t *)c);
    return c;
}

/* A chain (not owned) as a list of Certificates; None without one. */
static Obj chain_list(STACK_OF(X509) *chain, X509 *first)
{
    if (!chain && !first)
        return g_None;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = list_new(0);
    if (!r[0])
        goto out;
    if (first && (!(r[1] = cert_new(first)) || list_append(r[0], r[1]) < 0))
        goto out;
    for (int i = 0; chain && i < sk_X509_num(chain); i++)
        if (!(r[1] = cert_new(sk_X509_value(chain, i))) || list_append(r[0], r[1]) < 0)
            goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

static void certobj_del_free(void *p)
{
    X509_free((X509 *)p);
}

static Obj certobj_del(Obj *args, size_t nargs, Obj kwnames)
{
    return free_held(args, T_cert, certobj_del_free);
}

static Obj certobj_get_info(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = self_of(args[0], T_cert, "get_info");
    return s ? cert_dict(cert_ptr(s)) : NULL;
}

static Obj certobj_public_bytes(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"format", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    Obj s = self_of(args[0], T_cert, "public_bytes");
    if (!s || vm_parse_args("public_bytes", args + 1, nargs - 1, kwnames, names, 0, 1, a) < 0)
        goto out;
    int64_t format = 1;   /* ENCODING_PEM */
    if (a[0] && arg_c_int(a[0], &format) < 0)
        goto out;
    X509 *x = cert_ptr(vm_unwrap(args[0]));
    if (format == 2) {   /* ENCODING_DER */
        res = cert_der(x);
    } else if (format == 1) {
        BIO *b = BIO_new(BIO_s_mem());
        if (!b || !PEM_write_bio_X509(b, x)) {
            BIO_free(b);
            ERR_clear_error();
            raise_ssl_plain("cannot encode the certificate");
            goto out;
        }
        res = bio_to_str(b);
    } else {
        err_set(E_ValueError, "Unsupported format");
    }
out:
    vm_unroots(a);
    return res;
}

static Obj certobj_richcompare(Obj a, Obj b, int op)
{
    Obj x = vm_unwrap(a), y = vm_unwrap(b);
    if ((op != CMP_EQ && op != CMP_NE) || TID(y) != TID_ITER || ITER(y)->cls != (Obj)T_cert)
        return g_NotImplemented;
    bool eq = X509_cmp(cert_ptr(x), cert_ptr(y)) == 0;
    return vm_bool(op == CMP_EQ ? eq : !eq);
}

/* The hash of the certificate's SHA-256 digest (equal certificates, equal hashes). */
static int64_t certobj_hash(Obj self)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!X509_digest(cert_ptr(vm_unwrap(self)), EVP_sha256(), md, &n) || n < 8) {
        ERR_clear_error();
        return 0;
    }
    int64_t h;
    memcpy(&h, md, sizeof h);
    h &= INT64_MAX >> 1;
    return h == -1 ? -2 : h;
}

static Obj certobj_repr(Obj self)
{
    BIO *b = BIO_new(BIO_s_mem());
    if (!b)
        return err_nomemory();
    X509_NAME_print_ex(b, X509_get_subject_name(cert_ptr(vm_unwrap(self))), 0, XN_FLAG_RFC2253);
    Obj *r = vm_roots(1);
    r[0] = bio_to_str(b);
    Obj res = r[0] ? str_from_format("<Certificate '%s'>", str_cstr(r[0])) : NULL;
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* MemoryBIO                                                           */
/* ------------------------------------------------------------------ */

static Obj bio_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs || (kwnames && TUPLE(kwnames)->length)) {
        err_set(E_TypeError, nargs ? "MemoryBIO() takes no positional arguments" : "MemoryBIO() takes no keyword arguments");
        return NULL;
    }
    Obj *r = vm_roots(1);
    r[0] = iter_alloc(T_bio, g_None, 0);
    if (!r[0]) {
        vm_unroots(r);
        return NULL;
    }
    vm_tx_become_inevitable();   /* C state from here on */
    Obj it = r[0];
    vm_unroots(r);
    BIO *b = BIO_new(BIO_s_mem());
    if (!b)
        return err_nomemory();
    /* an empty BIO asks to retry (want read) rather than reporting EOF */
    BIO_set_mem_eof_return(b, -1);
    VM_WRITE(it);
    ITER(it)->i = (int64_t)(uintptr_t)b;
    tm_register_finalizer((object_t *)it);
    return it;
}

static void bio_del_free(void *p)
{
    BIO_free((BIO *)p);
}

static Obj bio_del(Obj *args, size_t nargs, Obj kwnames)
{
    return free_held(args, T_bio, bio_del_free);
}

#define BIO_SELF(meth)                                 \
    Obj s = self_of(args[0], T_bio, meth);             \
    if (!s)                                            \
        return NULL;                                   \
    vm_tx_become_inevitable();                         \
    s = vm_unwrap(args[0]);                            \
    BIO *b = bio_ptr(s);                               \
    if (!b)                                            \
        return raise_ssl_plain("MemoryBIO is freed");

static Obj bio_read(Obj *args, size_t nargs, Obj kwnames)
{
    BIO_SELF("read");
    int64_t size = -1;
    if (nargs > 1 && arg_c_int(args[1], &size) < 0)
        return NULL;
    int64_t avail = (int64_t)BIO_ctrl_pending(b);
    if (size < 0 || size > avail)
        size = avail;
    Obj res = bytes_alloc(size);
    if (!res || size == 0)
        return res;
    b = bio_ptr(vm_unwrap(args[0]));
    int n = BIO_read(b, VM_LINEAR(BYTES(res)->data), (int)size);
    tm_compiler_barrier();
    if (n != size) {   /* a memory BIO gives what it holds */
        ERR_clear_error();
        return raise_ssl_plain("MemoryBIO read failed");
    }
    return res;
}

static Obj bio_write(Obj *args, size_t nargs, Obj kwnames)
{
    BIO_SELF("write");
    const char *p;
    int64_t n;
    if (!bytes_like(args[1], &p, &n)) {
        err_format(E_TypeError, "a bytes-like object is required, not '%s'", type_name(args[1]));
        return NULL;
    }
    if (n > INT32_MAX) {
        err_format(E_OverflowError, "string longer than %d bytes", INT32_MAX);
        return NULL;
    }
    if (ITER(s)->kind & 1)
        return raise_ssl_plain("cannot write() after write_eof()");
    int w = n ? BIO_write(b, p, (int)n) : 0;
    if (w < 0) {
        ERR_clear_error();
        return raise_ssl_plain("MemoryBIO write failed");
    }
    return MAKE_SMALLINT(w);
}

static Obj bio_write_eof(Obj *args, size_t nargs, Obj kwnames)
{
    BIO_SELF("write_eof");
    VM_WRITE(s);
    ITER(s)->kind |= 1;
    BIO_set_mem_eof_return(b, 0);   /* an empty BIO now reads as EOF */
    return g_None;
}

static Obj bio_pending(Obj *args, size_t nargs, Obj kwnames)
{
    BIO_SELF("pending");
    return int_from_i64((int64_t)BIO_ctrl_pending(b));
}

static Obj bio_eof(Obj *args, size_t nargs, Obj kwnames)
{
    BIO_SELF("eof");
    return vm_bool((ITER(s)->kind & 1) && BIO_ctrl_pending(b) == 0);
}

/* ------------------------------------------------------------------ */
/* _SSLContext                                                         */
/* ------------------------------------------------------------------ */

/* Frees a server's ALPN list with its SSL_CTX. */
static void alpn_free(void *parent, void *ptr, CRYPTO_EX_DATA *ad, int idx, long argl, void *argp)
{
    (void)parent, (void)ad, (void)idx, (void)argl, (void)argp;
    OPENSSL_free(ptr);
}

static int ctx_verify_mode(SSL_CTX *ctx)
{
    int m = SSL_CTX_get_verify_mode(ctx);
    if (!(m & SSL_VERIFY_PEER))
        return CERT_NONE;
    return (m & SSL_VERIFY_FAIL_IF_NO_PEER_CERT) ? CERT_REQUIRED : CERT_OPTIONAL;
}

static int set_verify_mode(SSL_CTX *ctx, int mode)
{
    int m;
    switch (mode) {
    case CERT_NONE:
        m = SSL_VERIFY_NONE;
        break;
    case CERT_OPTIONAL:
        m = SSL_VERIFY_PEER;
        break;
    case CERT_REQUIRED:
        m = SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
        break;
    default:
        err_set(E_ValueError, "invalid value for verify_mode");
        return -1;
    }
    /* post-handshake auth keeps its flag on a server's mode */
    m |= SSL_CTX_get_verify_mode(ctx) & SSL_VERIFY_POST_HANDSHAKE;
    SSL_CTX_set_verify(ctx, m, NULL);
    return 0;
}

static Obj ctx_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"protocol", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    a[1] = type;
    if (vm_parse_args("_SSLContext", args, nargs, kwnames, names, 1, 1, a) < 0)
        goto out;
    int64_t proto;
    if (arg_c_int(a[0], &proto) < 0)
        goto out;
    const SSL_METHOD *method;
    int version = 0;
    const char *deprecated = NULL;
    switch (proto) {
    case PROTO_TLS:
        method = TLS_method();
        deprecated = "ssl.PROTOCOL_TLS is deprecated";
        break;
    case PROTO_TLS_CLIENT:
        method = TLS_client_method();
        break;
    case PROTO_TLS_SERVER:
        method = TLS_server_method();
        break;
    case PROTO_TLSv1:
        method = TLSv1_method();   /* one version: minimum/maximum_version stay unset */
        version = TLS1_VERSION;
        deprecated = "ssl.PROTOCOL_TLSv1 is deprecated";
        break;
    case PROTO_TLSv1_1:
        method = TLSv1_1_method();   /* one version: minimum/maximum_version stay unset */
        version = TLS1_1_VERSION;
        deprecated = "ssl.PROTOCOL_TLSv1_1 is deprecated";
        break;
    case PROTO_TLSv1_2:
        method = TLSv1_2_method();   /* one version: minimum/maximum_version stay unset */
        version = TLS1_2_VERSION;
        deprecated = "ssl.PROTOCOL_TLSv1_2 is deprecated";
        break;
    default:
        err_format(E_ValueError, "invalid or unsupported protocol version %lld", (long long)proto);
        goto out;
    }
    if (deprecated) {
        Obj msg = str_from_cstr(deprecated);
        if (!msg || vm_warn(E_DeprecationWarning, msg, NULL) < 0)
            goto out;
    }
    Obj it = iter_alloc(T_ctx, g_None, 0);
    if (!it)
        goto out;
    a[0] = it;
    vm_tx_become_inevitable();   /* the SSL_CTX is C state */
    SSL_CTX *ctx = SSL_CTX_new(method);
    if (!ctx) {
        raise_ctx_error(LINE_CTX);
        goto out;
    }
    if (!version)
        SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    /* CPython's defaults: its options, ciphers, verify and host flags */
    SSL_CTX_set_options(ctx, (SSL_OP_ALL & ~SSL_OP_DONT_INSERT_EMPTY_FRAGMENTS) | SSL_OP_NO_SSLv2 | SSL_OP_NO_SSLv3 |
                                 SSL_OP_NO_COMPRESSION | SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_SINGLE_DH_USE |
                                 SSL_OP_SINGLE_ECDH_USE);
    SSL_CTX_set_mode(ctx, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_AUTO_RETRY);
    if (!SSL_CTX_set_cipher_list(ctx, DEFAULT_CIPHERS)) {
        SSL_CTX_free(ctx);
        raise_ssl_plain("No cipher can be selected.");
        goto out;
    }
    X509_VERIFY_PARAM *param = SSL_CTX_get0_param(ctx);
    X509_VERIFY_PARAM_set_flags(param, X509_V_FLAG_TRUSTED_FIRST);
    X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    SSL_CTX_set_session_id_context(ctx, (const unsigned char *)"Python", 6);
    int64_t flags = 0;
    if (proto == PROTO_TLS_CLIENT) {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
        flags |= CTX_CHECK_HOSTNAME;
    } else {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
    }
    ERR_clear_error();
    it = a[0];
    VM_WRITE(it);
    ITER(it)->i = (int64_t)(uintptr_t)ctx;
    ITER(it)->n = proto;
    ITER(it)->kind = flags;
    if ((TypeObj *)a[1] == T_ctx)   /* a subclass's instance is registered itself (TPF_HAS_DEL) */
        tm_register_finalizer((object_t *)it);
    res = container_wrap_for_type(T_ctx, a[1], a[0]);
out:
    vm_unroots(a);
    return res;
}

static void ctx_del_free(void *p)
{
    SSL_CTX_free((SSL_CTX *)p);
}

static Obj ctx_del(Obj *args, size_t nargs, Obj kwnames)
{
    return free_held(args, T_ctx, ctx_del_free);
}

/* self's SSL_CTX (and s, its IterObj), the transaction inevitable. */
#define CTX_SELF(meth)                                   \
    Obj s = self_of(args[0], T_ctx, meth);               \
    if (!s)                                              \
        return NULL;                                     \
    vm_tx_become_inevitable();                           \
    s = vm_unwrap(args[0]);                              \
    SSL_CTX *ctx = ctx_ptr(s);                           \
    if (!ctx)                                            \
        return raise_ssl_plain("the SSL context is freed");

static Obj ctx_get_protocol(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("protocol");
    (void)ctx;
    return MAKE_SMALLINT(ITER(s)->n);
}

static Obj ctx_get_options(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("options");
    return int_from_u64((uint64_t)SSL_CTX_get_options(ctx));
}

static Obj ctx_set_options(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("options");
    if (!args[1]) {
        err_set(E_TypeError, "cannot delete attribute");
        return NULL;
    }
    int64_t v;
    if (vm_index_i64(args[1], &v) < 0)
        return NULL;
    uint64_t want = (uint64_t)v, have = SSL_CTX_get_options(ctx);
    uint64_t set = want & ~have, clear = have & ~want;
    uint64_t deprecated = SSL_OP_NO_SSLv2 | SSL_OP_NO_SSLv3 | SSL_OP_NO_TLSv1 | SSL_OP_NO_TLSv1_1 |
                          SSL_OP_NO_TLSv1_2 | SSL_OP_NO_TLSv1_3;
    if (set & deprecated) {
        Obj msg = str_from_cstr("ssl.OP_NO_SSL*/ssl.OP_NO_TLS* options are deprecated");
        if (!msg || vm_warn(E_DeprecationWarning, msg, NULL) < 0)
            return NULL;
        vm_tx_become_inevitable();
        ctx = ctx_ptr(vm_unwrap(args[0]));
    }
    if (clear)
        SSL_CTX_clear_options(ctx, clear);
    if (set)
        SSL_CTX_set_options(ctx, set);
    return g_None;
}

static Obj ctx_get_verify_mode(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("verify_mode");
    return MAKE_SMALLINT(ctx_verify_mode(ctx));
}

static Obj ctx_set_verify_mode(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("verify_mode");
    if (!args[1]) {
        err_set(E_TypeError, "cannot delete attribute");
        return NULL;
    }
    int64_t v;
    if (arg_c_int(args[1], &v) < 0)
        return NULL;
    s = vm_unwrap(args[0]);
    if (v == CERT_NONE && (ITER(s)->kind & CTX_CHECK_HOSTNAME)) {
        err_set(E_ValueError, "Cannot set verify_mode to CERT_NONE when check_hostname is enabled.");
        return NULL;
    }
    return set_verify_mode(ctx, (int)v) < 0 ? NULL : g_None;
}

static Obj ctx_get_check_hostname(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("check_hostname");
    (void)ctx;
    return vm_bool(ITER(s)->kind & CTX_CHECK_HOSTNAME);
}

static Obj ctx_set_check_hostname(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("check_hostname");
    if (!args[1]) {
        err_set(E_TypeError, "cannot delete attribute");
        return NULL;
    }
    int on = vm_is_true(args[1]);
    if (on < 0)
        return NULL;
    vm_tx_become_inevitable();
    s = vm_unwrap(args[0]);
    ctx = ctx_ptr(s);
    if (on && ctx_verify_mode(ctx) == CERT_NONE)
        set_verify_mode(ctx, CERT_REQUIRED);
    VM_WRITE(s);
    ITER(s)->kind = on ? (ITER(s)->kind | CTX_CHECK_HOSTNAME) : (ITER(s)->kind & ~CTX_CHECK_HOSTNAME);
    return g_None;
}

static Obj ctx_get_pha(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("post_handshake_auth");
    (void)ctx;
    return vm_bool(ITER(s)->kind & CTX_PHA);
}

static Obj ctx_set_pha(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("post_handshake_auth");
    (void)ctx;
    if (!args[1]) {
        err_set(E_AttributeError, "cannot delete attribute");
        return NULL;
    }
    int on = vm_is_true(args[1]);
    if (on < 0)
        return NULL;
    s = vm_unwrap(args[0]);
    VM_WRITE(s);
    ITER(s)->kind = on ? (ITER(s)->kind | CTX_PHA) : (ITER(s)->kind & ~CTX_PHA);
    return g_None;
}

static Obj ctx_get_verify_flags(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("verify_flags");
    return int_from_u64(X509_VERIFY_PARAM_get_flags(SSL_CTX_get0_param(ctx)));
}

static Obj ctx_set_verify_flags(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("verify_flags");
    if (!args[1]) {
        err_set(E_TypeError, "cannot delete attribute");
        return NULL;
    }
    int64_t v;
    if (vm_index_i64(args[1], &v) < 0)
        return NULL;
    X509_VERIFY_PARAM *param = SSL_CTX_get0_param(ctx);
    unsigned long have = X509_VERIFY_PARAM_get_flags(param), want = (unsigned long)v;
    if ((have & ~want) && !X509_VERIFY_PARAM_clear_flags(param, have & ~want))
        return raise_ctx_error(LINE_CTX);
    if ((want & ~have) && !X509_VERIFY_PARAM_set_flags(param, want & ~have))
        return raise_ctx_error(LINE_CTX);
    return g_None;
}

static Obj ctx_get_host_flags(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("_host_flags");
    return int_from_u64(X509_VERIFY_PARAM_get_hostflags(SSL_CTX_get0_param(ctx)));
}

static Obj ctx_set_host_flags(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("_host_flags");
    if (!args[1]) {
        err_set(E_TypeError, "cannot delete attribute");
        return NULL;
    }
    int64_t v;
    if (vm_index_i64(args[1], &v) < 0)
        return NULL;
    X509_VERIFY_PARAM_set_hostflags(SSL_CTX_get0_param(ctx), (unsigned int)v);
    return g_None;
}

/* TLSVersion values: -2 / -1 (MINIMUM_ / MAXIMUM_SUPPORTED) are OpenSSL's 0. */
static Obj proto_version_get(Obj *args, bool max)
{
    CTX_SELF(max ? "maximum_version" : "minimum_version");
    long v = max ? SSL_CTX_get_max_proto_version(ctx) : SSL_CTX_get_min_proto_version(ctx);
    return MAKE_SMALLINT(v == 0 ? (max ? -1 : -2) : v);
}

static Obj proto_version_set(Obj *args, bool max)
{
    CTX_SELF(max ? "maximum_version" : "minimum_version");
    if (!args[1]) {
        err_set(E_AttributeError, "cannot delete attribute");
        return NULL;
    }
    int64_t v;
    if (arg_c_int(args[1], &v) < 0)
        return NULL;
    s = vm_unwrap(args[0]);
    int64_t proto = ITER(s)->n;
    if (proto != PROTO_TLS && proto != PROTO_TLS_CLIENT && proto != PROTO_TLS_SERVER) {
        err_set(E_ValueError, "The context's protocol doesn't support modification of highest and lowest version.");
        return NULL;
    }
    switch (v) {
    case -2:   /* MINIMUM_SUPPORTED: as a maximum, the lowest version built (TLS 1.0) */
        v = max ? TLS1_VERSION : 0;
        break;
    case -1:   /* MAXIMUM_SUPPORTED: as a minimum, the highest (TLS 1.3) */
        v = max ? 0 : TLS1_3_VERSION;
        break;
    case SSL3_VERSION:
    case TLS1_VERSION:
    case TLS1_1_VERSION:
    case TLS1_2_VERSION:
    case TLS1_3_VERSION:
        break;
    default:
        err_format(E_ValueError, "Unsupported TLS/SSL version 0x%x", (unsigned)v);
        return NULL;
    }
    int ok = max ? SSL_CTX_set_max_proto_version(ctx, (int)v) : SSL_CTX_set_min_proto_version(ctx, (int)v);
    if (!ok) {
        ERR_clear_error();
        err_format(E_ValueError, "Unsupported protocol version 0x%x", (unsigned)v);
        return NULL;
    }
    return g_None;
}

static Obj ctx_get_min_version(Obj *args, size_t nargs, Obj kwnames) { return proto_version_get(args, false); }
static Obj ctx_set_min_version(Obj *args, size_t nargs, Obj kwnames) { return proto_version_set(args, false); }
static Obj ctx_get_max_version(Obj *args, size_t nargs, Obj kwnames) { return proto_version_get(args, true); }
static Obj ctx_set_max_version(Obj *args, size_t nargs, Obj kwnames) { return proto_version_set(args, true); }

static Obj ctx_get_security_level(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("security_level");
    return MAKE_SMALLINT(SSL_CTX_get_security_level(ctx));
}

static Obj ctx_get_num_tickets(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("num_tickets");
    return int_from_u64(SSL_CTX_get_num_tickets(ctx));
}

static Obj ctx_set_num_tickets(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("num_tickets");
    if (!args[1]) {
        err_set(E_AttributeError, "cannot delete attribute");
        return NULL;
    }
    int64_t v;
    if (vm_index_i64(args[1], &v) < 0)
        return NULL;
    if (v < 0) {
        err_set(E_ValueError, "value must be non-negative");
        return NULL;
    }
    s = vm_unwrap(args[0]);
    if (ITER(s)->n != PROTO_TLS_SERVER) {
        err_set(E_ValueError, "SSLContext is not a server context.");
        return NULL;
    }
    if (!SSL_CTX_set_num_tickets(ctx, (size_t)v)) {
        ERR_clear_error();
        err_set(E_ValueError, "failed to set num tickets.");
        return NULL;
    }
    return g_None;
}

/* keylog_filename: TLS secrets appended to a file (NSS key log format),
 * for Wireshark; the FILE lives with the SSL_CTX (closed with it). */
static void keylog_close(void *parent, void *ptr, CRYPTO_EX_DATA *ad, int idx, long argl, void *argp)
{
    (void)parent, (void)ad, (void)idx, (void)argl, (void)argp;
    if (ptr)
        fclose(ptr);
}

/* OpenSSL's key log callback: runs inside a handshake (C memory only). */
static void keylog_line(const SSL *ssl, const char *line)
{
    FILE *f = SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), g_keylog_index);
    if (!f)
        return;
    flockfile(f);   /* one line at a time when connections log at once */
    fputs(line, f);
    fputc('\n', f);
    fflush(f);
    funlockfile(f);
}

static Obj ctx_get_keylog(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = self_of(args[0], T_ctx, "keylog_filename");
    return s ? ITER(s)->a : NULL;
}

static Obj ctx_set_keylog(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("keylog_filename");
    FILE *f = NULL;
    if (args[1] && !IS_NONE(args[1])) {
        char *path = path_arg(args[1], "filename");
        if (!path)
            return NULL;
        vm_tx_become_inevitable();
        ctx = ctx_ptr(vm_unwrap(args[0]));
        f = fopen(path, "a");
        int e = errno;
        free(path);
        if (!f)
            return raise_errno_filename(e, args[1]);
        if (ftell(f) == 0) {   /* a new file starts with the format's comment line */
            fputs("# TLS secrets log file, generated by OpenSSL / Python\n", f);
            fflush(f);
        }
    }
    FILE *old = SSL_CTX_get_ex_data(ctx, g_keylog_index);
    SSL_CTX_set_ex_data(ctx, g_keylog_index, f);
    if (old)
        fclose(old);
    SSL_CTX_set_keylog_callback(ctx, f ? keylog_line : NULL);
    s = vm_unwrap(args[0]);
    VM_WRITE(s);
    ITER(s)->a = f ? args[1] : g_None;
    return g_None;
}

/* The I/O call running on this thread (ssl_io): its _SSLSocket's root slot,
 * whether it runs in a blocking region, and the root slot that keeps what a
 * message callback raised until the call ends, for the callbacks OpenSSL
 * makes from inside it. */
static __thread Obj *tls_io_self;
static __thread bool tls_io_blocking;
static __thread Obj *tls_io_exc;

/* sni_callback(owner or _SSLSocket, server name or None, context) on a
 * ClientHello: None goes on, an int is the alert to end with. An exception
 * is reported as unraisable and ends the handshake (CPython's). */
static int sni_run(Obj *selfp, const char *name, int *alert)
{
    Obj *r = vm_roots(4);
    int ret = SSL_TLSEXT_ERR_OK;
    Obj sock = vm_unwrap(*selfp);
    r[2] = ITER(sock)->b;   /* the context the connection started with */
    r[3] = ITER(vm_unwrap(r[2]))->b;
    if (!r[3] || IS_NONE(r[3]))
        goto out;
    r[0] = LIST_ITEMS(ITER(sock)->c)[C_OWNER];
    if (IS_NONE(r[0]))
        r[0] = *selfp;
    r[1] = name ? str_from_cstr(name) : g_None;
    Obj res = r[1] ? vm_call(r[3], r, 3, NULL) : NULL;
    if (res && IS_NONE(res))
        goto out;
    ret = SSL_TLSEXT_ERR_ALERT_FATAL;
    int64_t v;
    if (res && IS_INT(vm_unwrap(res)) && arg_c_int(res, &v) == 0) {
        *alert = (int)v;
        goto out;
    }
    *alert = res ? SSL_AD_INTERNAL_ERROR : SSL_AD_HANDSHAKE_FAILURE;
    if (res && !err_occurred()) {   /* a wrong result is reported with itself as the object */
        r[3] = res;
        err_set(E_TypeError, "servername callback must return None or an integer");
    }
    vm_report_unraisable(r[3]);
out:
    vm_unroots(r);
    return ret;
}

/* OpenSSL's servername callback: back in the interpreter for the Python
 * call (out of the blocking region the I/O runs in), then out again. */
static int servername_cb(SSL *ssl, int *alert, void *arg)
{
    (void)arg;
    Obj *selfp = tls_io_self;
    if (!selfp)
        return SSL_TLSEXT_ERR_OK;
    bool blocking = tls_io_blocking;
    const char *name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);
    char buf[256];
    if (name)
        snprintf(buf, sizeof buf, "%s", name);
    if (blocking)
        vm_blocking_end();
    int ret = sni_run(selfp, name ? buf : NULL, alert);
    if (blocking)
        vm_blocking_begin();
    else
        vm_tx_become_inevitable();   /* Python code ran: OpenSSL's C state goes on changing */
    return ret;
}

static Obj ctx_get_sni_callback(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = self_of(args[0], T_ctx, "sni_callback");
    if (!s)
        return NULL;
    return ITER(s)->b ? ITER(s)->b : g_None;
}

static Obj ctx_set_sni_callback(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("sni_callback");
    if (ITER(s)->n == PROTO_TLS_CLIENT) {
        err_set(E_ValueError, "sni_callback cannot be set on TLS_CLIENT context");
        return NULL;
    }
    Obj cb = args[1] && !IS_NONE(args[1]) ? args[1] : g_None;
    if (!IS_NONE(cb) && !vm_callable(cb)) {
        err_set(E_TypeError, "not a callable object");
        return NULL;
    }
    SSL_CTX_set_tlsext_servername_callback(ctx, (IS_NONE(cb) ? NULL : servername_cb));
    VM_WRITE(s);
    ITER(s)->b = cb;
    return g_None;
}

/* _msg_callback(owner or _SSLSocket, 'read' or 'write', version,
 * content type, message type, data) for each TLS message and record
 * header; what it raises is kept and raised when the I/O call ends. */
static void msg_run(Obj *selfp, int write_p, int version, int content_type, const unsigned char *buf, size_t len)
{
    Obj *r = vm_roots(7);
    Obj sock = vm_unwrap(*selfp);
    r[6] = ITER(vm_unwrap(ITER(sock)->b))->c;
    if (!r[6] || IS_NONE(r[6]) || *tls_io_exc)
        goto out;
    /* CPython's message types: a handshake message's first byte, an alert's
     * description, CHANGE_CIPHER_SPEC as 0x0101, a record header's type (its
     * version in bytes 1-2), an inner content type; otherwise -1 */
    int msg_type = -1;
    switch (content_type) {
    case SSL3_RT_CHANGE_CIPHER_SPEC:
        msg_type = SSL3_MT_CHANGE_CIPHER_SPEC;
        break;
    case SSL3_RT_ALERT:
        msg_type = len > 1 ? buf[1] : -1;
        break;
    case SSL3_RT_HANDSHAKE:
    case SSL3_RT_INNER_CONTENT_TYPE:
        msg_type = len > 0 ? buf[0] : -1;
        break;
    case SSL3_RT_HEADER:
        if (len > 2) {
            version = buf[1] << 8 | buf[2];
            msg_type = buf[0];
        }
        break;
    }
    r[0] = LIST_ITEMS(ITER(sock)->c)[C_OWNER];
    if (IS_NONE(r[0]))
        r[0] = *selfp;
    r[2] = MAKE_SMALLINT(version);
    r[3] = MAKE_SMALLINT(content_type);
    r[4] = MAKE_SMALLINT(msg_type);
    r[1] = str_from_cstr(write_p ? "write" : "read");
    r[5] = r[1] ? bytes_new((const char *)buf, len) : NULL;
    if (!r[5] || !vm_call(r[6], r, 6, NULL)) {
        *tls_io_exc = err_occurred();
        err_clear();
    }
out:
    vm_unroots(r);
}

static void msg_cb(int write_p, int version, int content_type, const void *buf, size_t len, SSL *ssl, void *arg)
{
    (void)ssl, (void)arg;
    Obj *selfp = tls_io_self;
    if (!selfp || !tls_io_exc)
        return;   /* not inside an I/O call (nothing to report it to) */
    bool blocking = tls_io_blocking;
    if (blocking)
        vm_blocking_end();
    msg_run(selfp, write_p, version, content_type, buf, len);
    if (blocking)
        vm_blocking_begin();
    else
        vm_tx_become_inevitable();   /* Python code ran: OpenSSL's C state goes on changing */
}

static Obj ctx_get_msg_callback(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = self_of(args[0], T_ctx, "_msg_callback");
    if (!s)
        return NULL;
    return ITER(s)->c ? ITER(s)->c : g_None;
}

static Obj ctx_set_msg_callback(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("_msg_callback");
    Obj cb = args[1] && !IS_NONE(args[1]) ? args[1] : g_None;
    if (!IS_NONE(cb) && !vm_callable(cb)) {
        err_format(E_TypeError, "%s is not callable.", type_name(cb));
        return NULL;
    }
    SSL_CTX_set_msg_callback(ctx, IS_NONE(cb) ? NULL : msg_cb);
    VM_WRITE(s);
    ITER(s)->c = cb;
    return g_None;
}

/* A password for an encrypted key: a str, bytes-like, or a callable
 * returning one, fetched when OpenSSL asks for it. */
typedef struct {
    Obj *password;   /* root slot */
    bool raised;     /* the callable raised, or returned a bad value */
} PasswordAsk;

static int password_cb(char *buf, int size, int rwflag, void *userdata)
{
    (void)rwflag;
    PasswordAsk *ask = userdata;
    Obj *r = vm_roots(1);
    int n = -1;
    r[0] = *ask->password;
    if (vm_callable(r[0]) && !IS_STR(vm_unwrap(r[0]))) {
        r[0] = vm_call0(r[0]);
        vm_tx_become_inevitable();   /* Python code ran: OpenSSL's C state goes on changing */
        if (!r[0]) {
            ask->raised = true;
            goto out;
        }
    }
    const char *p;
    int64_t len;
    Obj v = vm_unwrap(r[0]);
    if (IS_STR(v)) {
        p = str_cstr(v);
        len = STR(v)->nbytes;
    } else if (!bytes_like(v, &p, &len)) {
        err_set(E_TypeError, vm_callable(*ask->password) ? "password callback must return a string"
                                                          : "password should be a string or callable");
        ask->raised = true;
        goto out;
    }
    if (len > size) {
        err_format(E_ValueError, "password cannot be longer than %d bytes", size);
        ask->raised = true;
        goto out;
    }
    memcpy(buf, p, (size_t)len);
    n = (int)len;
out:
    vm_unroots(r);
    return n;
}

static Obj ctx_load_cert_chain(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"certfile", "keyfile", "password", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    char *certfile = NULL, *keyfile = NULL;
    a[3] = args[0];
    if (!self_of(args[0], T_ctx, "load_cert_chain") ||
        vm_parse_args("load_cert_chain", args + 1, nargs - 1, kwnames, names, 1, 3, a) < 0)
        goto out;
    if (a[1] && IS_NONE(a[1]))
        a[1] = NULL;
    if (a[2] && IS_NONE(a[2]))
        a[2] = NULL;
    if (!(certfile = path_arg(a[0], "certfile")))
        goto out;
    if (a[1] && !(keyfile = path_arg(a[1], "keyfile")))
        goto out;
    if (a[2]) {
        Obj pw = vm_unwrap(a[2]);
        const char *p;
        int64_t n;
        if (!IS_STR(pw) && !bytes_like(pw, &p, &n) && !vm_callable(pw)) {
            err_set(E_TypeError, "password should be a string or callable");
            goto out;
        }
    }
    vm_tx_become_inevitable();
    SSL_CTX *ctx = ctx_ptr(vm_unwrap(a[3]));
    PasswordAsk ask = {.password = &a[2], .raised = false};
    pem_password_cb *old_cb = SSL_CTX_get_default_passwd_cb(ctx);
    void *old_ud = SSL_CTX_get_default_passwd_cb_userdata(ctx);
    if (a[2]) {
        SSL_CTX_set_default_passwd_cb(ctx, password_cb);
        SSL_CTX_set_default_passwd_cb_userdata(ctx, &ask);
    }
    ERR_clear_error();
    errno = 0;
    int ok = SSL_CTX_use_certificate_chain_file(ctx, certfile);
    int line = LINE_CERT_CHAIN;
    if (ok) {
        errno = 0;
        ok = SSL_CTX_use_PrivateKey_file(ctx, keyfile ? keyfile : certfile, SSL_FILETYPE_PEM);
        line = LINE_KEY;
        if (ok) {
            ok = SSL_CTX_check_private_key(ctx);
            line = LINE_KEY;
        }
    }
    int saved_errno = errno;
    SSL_CTX_set_default_passwd_cb(ctx, old_cb);
    SSL_CTX_set_default_passwd_cb_userdata(ctx, old_ud);
    if (ok) {
        res = g_None;
        goto out;
    }
    if (ask.raised) {
        ERR_clear_error();
        goto out;
    }
    unsigned long e = ERR_peek_last_error();
    if (saved_errno && (ERR_GET_LIB(e) == ERR_LIB_SYS || ERR_SYSTEM_ERROR(e) ||
                        ERR_GET_REASON(e) == ERR_R_SYS_LIB || ERR_GET_LIB(e) == ERR_LIB_BIO || !e)) {
        ERR_clear_error();
        raise_errno(saved_errno);
        goto out;
    }
    raise_ctx_error(line);
out:
    free(certfile);
    free(keyfile);
    vm_unroots(a);
    return res;
}

/* Add PEM (text) or DER (binary) certificates to the store: how many. */
static int load_cadata(SSL_CTX *ctx, const char *data, int64_t len, bool pem, Obj *errp)
{
    (void)errp;
    BIO *b = BIO_new_mem_buf(data, (int)len);
    if (!b) {
        err_nomemory();
        return -1;
    }
    X509_STORE *store = SSL_CTX_get_cert_store(ctx);
    int loaded = 0;
    ERR_clear_error();
    for (;;) {
        X509 *cert = pem ? PEM_read_bio_X509(b, NULL, NULL, NULL) : d2i_X509_bio(b, NULL);
        if (!cert)
            break;
        if (!X509_STORE_add_cert(store, cert)) {
            unsigned long e = ERR_peek_last_error();
            if (ERR_GET_LIB(e) != ERR_LIB_X509 || ERR_GET_REASON(e) != X509_R_CERT_ALREADY_IN_HASH_TABLE) {
                X509_free(cert);
                BIO_free(b);
                raise_ctx_error(LINE_CADATA);
                return -1;
            }
            ERR_clear_error();
        }
        X509_free(cert);
        loaded++;
    }
    unsigned long e = ERR_peek_last_error();
    bool at_end = pem ? (ERR_GET_LIB(e) == ERR_LIB_PEM && ERR_GET_REASON(e) == PEM_R_NO_START_LINE)
                      : (BIO_eof(b) || ERR_GET_REASON(e) == ASN1_R_HEADER_TOO_LONG);
    BIO_free(b);
    if (loaded == 0) {
        char msg[256];
        const char *why = ERR_reason_error_string(e);
        snprintf(msg, sizeof msg, "%s: cadata does not contain a certificate (_ssl.c:%d)",
                 why ? why : (pem ? "no start line" : "not enough data"), LINE_CADATA);
        ERR_clear_error();
        raise_ssl(E_ssl, 0, msg);
        return -1;
    }
    if (!at_end && e) {
        raise_ctx_error(LINE_CADATA);
        return -1;
    }
    ERR_clear_error();
    return loaded;
}

static Obj ctx_load_verify_locations(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"cafile", "capath", "cadata", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    char *cafile = NULL, *capath = NULL;
    char *cadata = NULL;
    int64_t cadata_len = 0;
    bool pem = false;
    a[3] = args[0];
    if (!self_of(args[0], T_ctx, "load_verify_locations") ||
        vm_parse_args("load_verify_locations", args + 1, nargs - 1, kwnames, names, 0, 3, a) < 0)
        goto out;
    for (int i = 0; i < 3; i++)
        if (a[i] && IS_NONE(a[i]))
            a[i] = NULL;
    if (!a[0] && !a[1] && !a[2]) {
        err_set(E_TypeError, "cafile, capath and cadata cannot be all omitted");
        goto out;
    }
    if (a[0] && !(cafile = path_arg(a[0], "cafile")))
        goto out;
    if (a[1] && !(capath = path_arg(a[1], "capath")))
        goto out;
    if (a[2]) {
        Obj d = vm_unwrap(a[2]);
        const char *p;
        if (IS_STR(d)) {
            if (!str_is_ascii(d)) {
                err_set(E_TypeError, "cadata should be an ASCII string or a bytes-like object");
                goto out;
            }
            p = str_cstr(d);
            cadata_len = STR(d)->nbytes;
            pem = true;
        } else if (!bytes_like(d, &p, &cadata_len)) {
            err_set(E_TypeError, "cadata should be an ASCII string or a bytes-like object");
            goto out;
        }
        cadata = malloc((size_t)cadata_len + 1);
        if (!cadata) {
            err_nomemory();
            goto out;
        }
        memcpy(cadata, p, (size_t)cadata_len);
    }
    vm_tx_become_inevitable();
    SSL_CTX *ctx = ctx_ptr(vm_unwrap(a[3]));
    if (cadata && load_cadata(ctx, cadata, cadata_len, pem, NULL) < 0)
        goto out;
    if (cafile || capath) {
        ERR_clear_error();
        errno = 0;
        if (!SSL_CTX_load_verify_locations(ctx, cafile, capath)) {
            int e = errno;
            if (e) {
                ERR_clear_error();
                raise_errno(e);
            } else {
                raise_ctx_error(LINE_VERIFY_FILE);
            }
            goto out;
        }
    }
    res = g_None;
out:
    free(cafile);
    free(capath);
    free(cadata);
    vm_unroots(a);
    return res;
}

static Obj ctx_set_default_verify_paths(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("set_default_verify_paths");
    if (!SSL_CTX_set_default_verify_paths(ctx))
        return raise_ctx_error(LINE_CTX);
    return g_None;
}

static Obj ctx_load_dh_params(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("load_dh_params");
    char *path = path_arg(args[1], "path");
    if (!path)
        return NULL;
    vm_tx_become_inevitable();
    ctx = ctx_ptr(vm_unwrap(args[0]));
    errno = 0;
    BIO *b = BIO_new_file(path, "r");
    free(path);
    if (!b) {
        int e = errno;
        ERR_clear_error();
        return e ? raise_errno_filename(e, args[1]) : raise_ctx_error(LINE_CTX);
    }
    DH *dh = PEM_read_bio_DHparams(b, NULL, NULL, NULL);   /* PEM's errors, as CPython's */
    BIO_free(b);
    if (!dh)
        return raise_ctx_error(LINE_DH);
    int ok = SSL_CTX_set_tmp_dh(ctx, dh);
    DH_free(dh);
    if (!ok)
        return raise_ctx_error(LINE_DH);
    return g_None;
}

static Obj ctx_set_ciphers(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("set_ciphers");
    Obj v = str_value(args[1]);
    if (!v) {
        err_format(E_TypeError, "set_ciphers() argument must be str, not %s", type_name(args[1]));
        return NULL;
    }
    if ((int64_t)strlen(str_cstr(v)) != STR(v)->nbytes) {
        err_set(E_ValueError, "embedded null character");
        return NULL;
    }
    if (!SSL_CTX_set_cipher_list(ctx, str_cstr(v))) {
        ERR_clear_error();
        return raise_ssl_plain("No cipher can be selected.");
    }
    return g_None;
}

/* The dict CPython gives for one cipher (get_ciphers, shared_ciphers' names). */
static Obj cipher_dict(const SSL_CIPHER *c)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    char desc[256];
    r[0] = dict_new();
    if (!r[0])
        goto out;
    int alg_bits = 0;
    int strength = SSL_CIPHER_get_bits(c, &alg_bits);
    SSL_CIPHER_description(c, desc, sizeof desc);
    size_t dl = strlen(desc);
    while (dl && (desc[dl - 1] == '\n' || desc[dl - 1] == ' '))
        desc[--dl] = 0;
    int nids[4] = {SSL_CIPHER_get_cipher_nid(c), SSL_CIPHER_get_digest_nid(c), SSL_CIPHER_get_kx_nid(c),
                   SSL_CIPHER_get_auth_nid(c)};
    static const char *const nid_keys[4] = {"symmetric", "digest", "kea", "auth"};
    if (dict_setitem_cstr(r[0], "id", int_from_u64(SSL_CIPHER_get_id(c))) < 0 ||
        !(r[1] = str_from_cstr(SSL_CIPHER_get_name(c))) || dict_setitem_cstr(r[0], "name", r[1]) < 0 ||
        !(r[1] = str_from_cstr(SSL_CIPHER_get_version(c))) || dict_setitem_cstr(r[0], "protocol", r[1]) < 0 ||
        !(r[1] = str_from_cstr(desc)) || dict_setitem_cstr(r[0], "description", r[1]) < 0 ||
        dict_setitem_cstr(r[0], "strength_bits", MAKE_SMALLINT(strength)) < 0 ||
        dict_setitem_cstr(r[0], "alg_bits", MAKE_SMALLINT(alg_bits)) < 0 ||
        dict_setitem_cstr(r[0], "aead", vm_bool(SSL_CIPHER_is_aead(c))) < 0)
        goto out;
    for (int k = 0; k < 4; k++) {
        const char *ln = nids[k] != NID_undef ? OBJ_nid2ln(nids[k]) : NULL;
        r[1] = ln ? str_from_cstr(ln) : g_None;
        if (!r[1] || dict_setitem_cstr(r[0], nid_keys[k], r[1]) < 0)
            goto out;
    }
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

static Obj ctx_get_ciphers(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("get_ciphers");
    SSL *ssl = SSL_new(ctx);
    if (!ssl)
        return raise_ctx_error(LINE_CTX);
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = list_new(0);
    STACK_OF(SSL_CIPHER) *sk = SSL_get_ciphers(ssl);
    for (int i = 0; r[0] && i < sk_SSL_CIPHER_num(sk); i++) {
        r[1] = cipher_dict(sk_SSL_CIPHER_value(sk, i));
        if (!r[1] || list_append(r[0], r[1]) < 0)
            goto out;
    }
    res = r[0];
out:
    SSL_free(ssl);
    vm_unroots(r);
    return res;
}

/* The server's ALPN choice: the first of its protocols the client offers. */
static int alpn_select(SSL *ssl, const unsigned char **out, unsigned char *outlen, const unsigned char *in,
                       unsigned int inlen, void *arg)
{
    (void)arg;
    const unsigned char *ours = SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), g_alpn_index);
    if (!ours)
        return SSL_TLSEXT_ERR_NOACK;
    unsigned char *sel;
    int rc = SSL_select_next_proto(&sel, outlen, ours + 4, *(const unsigned int *)ours, in, inlen);
    if (rc != OPENSSL_NPN_NEGOTIATED)
        return SSL_TLSEXT_ERR_NOACK;
    *out = sel;
    return SSL_TLSEXT_ERR_OK;
}

static Obj ctx_set_alpn_protocols(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("_set_alpn_protocols");
    const char *p;
    int64_t n;
    if (!bytes_like_arg(args[1], &p, &n))
        return NULL;
    if (n > UINT32_MAX / 2) {
        err_set(E_OverflowError, "protocols longer than UINT_MAX");
        return NULL;
    }
    /* a server's list, length first, kept with the SSL_CTX (freed with it) */
    unsigned char *copy = OPENSSL_malloc((size_t)n + 4);
    if (!copy)
        return err_nomemory();
    unsigned int len = (unsigned int)n;
    memcpy(copy, &len, 4);
    memcpy(copy + 4, p, (size_t)n);
    OPENSSL_free(SSL_CTX_get_ex_data(ctx, g_alpn_index));
    SSL_CTX_set_ex_data(ctx, g_alpn_index, copy);
    SSL_CTX_set_alpn_select_cb(ctx, alpn_select, NULL);
    if (SSL_CTX_set_alpn_protos(ctx, copy + 4, len) != 0) {
        ERR_clear_error();
        return err_nomemory();
    }
    return g_None;
}

static Obj ctx_set_ecdh_curve(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("set_ecdh_curve");
    Obj *r = vm_roots(1);
    r[0] = args[1];
    Obj name = vm_fspath(r[0]);
    vm_unroots(r);
    if (!name)
        return NULL;
    name = vm_unwrap(name);
    const char *p;
    int64_t n;
    if (IS_STR(name)) {
        name = vm_call_method(name, "encode", NULL, 0);
        if (!name)
            return NULL;
    }
    if (!bytes_like(name, &p, &n))
        return NULL;
    char buf[128];
    snprintf(buf, sizeof buf, "%.*s", (int)(n < 127 ? n : 127), p);
    int nid = OBJ_sn2nid(buf);
    if (nid == NID_undef) {
        Obj *q = vm_roots(1);
        q[0] = vm_repr(args[1]);
        if (q[0])
            err_format(E_ValueError, "unknown elliptic curve name %s", str_cstr(q[0]));
        vm_unroots(q);
        return NULL;
    }
    vm_tx_become_inevitable();
    ctx = ctx_ptr(vm_unwrap(args[0]));
    if (!SSL_CTX_set1_groups(ctx, &nid, 1))
        return raise_ctx_error(LINE_CTX);
    return g_None;
}

static Obj ctx_cert_store_stats(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("cert_store_stats");
    STACK_OF(X509_OBJECT) *objs = X509_STORE_get0_objects(SSL_CTX_get_cert_store(ctx));
    int x509 = 0, crl = 0, ca = 0;
    for (int i = 0; i < sk_X509_OBJECT_num(objs); i++) {
        X509_OBJECT *o = sk_X509_OBJECT_value(objs, i);
        switch (X509_OBJECT_get_type(o)) {
        case X509_LU_X509:
            x509++;
            if (X509_check_ca(X509_OBJECT_get0_X509(o)))
                ca++;
            break;
        case X509_LU_CRL:
            crl++;
            break;
        default:
            break;
        }
    }
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = dict_new();
    if (r[0] && dict_setitem_cstr(r[0], "x509", MAKE_SMALLINT(x509)) == 0 &&
        dict_setitem_cstr(r[0], "crl", MAKE_SMALLINT(crl)) == 0 &&
        dict_setitem_cstr(r[0], "x509_ca", MAKE_SMALLINT(ca)) == 0)
        res = r[0];
    vm_unroots(r);
    return res;
}

static Obj ctx_get_ca_certs(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"binary_form", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    a[2] = args[0];
    if (!self_of(args[0], T_ctx, "get_ca_certs") ||
        vm_parse_args("get_ca_certs", args + 1, nargs - 1, kwnames, names, 0, 1, a) < 0)
        goto out;
    int binary = a[0] ? vm_is_true(a[0]) : 0;
    if (binary < 0)
        goto out;
    a[1] = list_new(0);
    if (!a[1])
        goto out;
    vm_tx_become_inevitable();
    SSL_CTX *ctx = ctx_ptr(vm_unwrap(a[2]));
    STACK_OF(X509_OBJECT) *objs = X509_STORE_get0_objects(SSL_CTX_get_cert_store(ctx));
    for (int i = 0; i < sk_X509_OBJECT_num(objs); i++) {
        X509_OBJECT *o = sk_X509_OBJECT_value(objs, i);
        if (X509_OBJECT_get_type(o) != X509_LU_X509)
            continue;
        X509 *cert = X509_OBJECT_get0_X509(o);
        if (!X509_check_ca(cert))
            continue;
        Obj c = binary ? cert_der(cert) : cert_dict(cert);
        if (!c || list_append(a[1], c) < 0)
            goto out;
    }
    res = a[1];
out:
    vm_unroots(a);
    return res;
}

static Obj ctx_session_stats(Obj *args, size_t nargs, Obj kwnames)
{
    CTX_SELF("session_stats");
    long v[] = {SSL_CTX_sess_number(ctx), SSL_CTX_sess_connect(ctx), SSL_CTX_sess_connect_good(ctx),
                SSL_CTX_sess_connect_renegotiate(ctx), SSL_CTX_sess_accept(ctx), SSL_CTX_sess_accept_good(ctx),
                SSL_CTX_sess_accept_renegotiate(ctx), SSL_CTX_sess_hits(ctx), SSL_CTX_sess_misses(ctx),
                SSL_CTX_sess_timeouts(ctx), SSL_CTX_sess_cache_full(ctx)};
    static const char *const keys[] = {"number", "connect", "connect_good", "connect_renegotiate", "accept",
                                       "accept_good", "accept_renegotiate", "hits", "misses", "timeouts",
                                       "cache_full"};
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = dict_new();
    for (size_t i = 0; r[0] && i < ARRAY_LEN(keys); i++)
        if (dict_setitem_cstr(r[0], keys[i], int_from_i64(v[i])) < 0)
            goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* _SSLSocket                                                          */
/* ------------------------------------------------------------------ */


static void sslsock_del_free(void *p)
{
    SSL_free((SSL *)p);   /* and the BIOs it holds (ours keep their own reference) */
}

static Obj sslsock_del(Obj *args, size_t nargs, Obj kwnames)
{
    return free_held(args, T_sslsock, sslsock_del_free);
}

static int use_session(Obj s, SSL *ssl, Obj *sessp);

/* Is `host` an IP address? (then no SNI, and IP matching) */
static bool is_ip_address(const char *host)
{
    unsigned char buf[16];
    return inet_pton(AF_INET, host, buf) == 1 || inet_pton(AF_INET6, host, buf) == 1;
}

/* A new _SSLSocket on ctx (args: the _SSLContext, *sockp a socket or NULL,
 * *inp and *outp MemoryBIOs or NULL). */
static Obj sslsock_make(Obj *ctxp, Obj *sockp, Obj *inp, Obj *outp, bool server_side, Obj *hostp, Obj *ownerp,
                        Obj *sessionp)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    char *host = NULL;
    if (*hostp && !IS_NONE(*hostp)) {
        /* a str of ASCII (ssl.py passed it through IDNA), as CPython's "es" */
        if (!IS_STR(vm_unwrap(*hostp))) {
            err_format(E_TypeError, "argument must be str, not %s", type_name(*hostp));
            goto out;
        }
        r[2] = str_from_cstr("ascii");
        if (!r[2] || !(r[2] = vm_call_method(vm_unwrap(*hostp), "encode", &r[2], 1)))
            goto out;
        const char *p;
        int64_t n;
        bytes_like(r[2], &p, &n);
        if ((int64_t)strnlen(p, (size_t)n) != n) {
            err_set(E_TypeError, "argument must be encoded string without null bytes, not str");
            goto out;
        }
        if (n == 0 || p[0] == '.') {
            err_set(E_ValueError, "server_hostname cannot be an empty string or start with a leading dot.");
            goto out;
        }
        host = strndup(p, (size_t)n);
        if (!host) {
            err_nomemory();
            goto out;
        }
        r[2] = *hostp;   /* the server_hostname attribute */
    } else {
        r[2] = g_None;
    }
    int64_t proto = ITER(vm_unwrap(*ctxp))->n;
    if (server_side ? proto == PROTO_TLS_CLIENT : proto == PROTO_TLS_SERVER) {
        char msg[160];
        snprintf(msg, sizeof msg, "Cannot create a %s socket with a PROTOCOL_TLS_%s context (_ssl.c:%d)",
                 server_side ? "server" : "client", server_side ? "CLIENT" : "SERVER", server_side ? 802 : 809);
        raise_ssl(E_ssl, 0, msg);
        goto out;
    }
    if (server_side && host) {
        err_set(E_ValueError, "server_hostname can only be specified in client mode");
        goto out;
    }
    int fd = -1;
    int64_t timeout = -1;
    if (sockp && socket_fd_timeout(*sockp, &fd, &timeout) < 0) {
        err_clear();
        err_format(E_TypeError, "_wrap_socket() argument 'sock' must be _socket.socket, not %s",
                   IS_NONE(*sockp) ? "None" : type_name(*sockp));
        goto out;
    }
    for (int k = 0; !sockp && k < 2; k++) {
        Obj b = vm_unwrap(k ? *outp : *inp);
        if (TID(b) != TID_ITER || ITER(b)->cls != (Obj)T_bio) {
            err_format(E_TypeError, "_wrap_bio() argument '%s' must be _ssl.MemoryBIO, not %s",
                       k ? "outgoing" : "incoming", IS_NONE(k ? *outp : *inp) ? "None" : type_name(k ? *outp : *inp));
            goto out;
        }
    }
    r[0] = list_new(0);
    for (int k = 0; r[0] && k < C_COUNT; k++)
        if (list_append(r[0], g_None) < 0)
            goto out;
    if (!r[0])
        goto out;
    r[1] = iter_alloc(T_sslsock, sockp ? *sockp : g_None, server_side ? SOCK_SERVER : 0);
    if (!r[1])
        goto out;
    vm_tx_become_inevitable();   /* the SSL is C state */
    Obj cs = vm_unwrap(*ctxp);
    SSL_CTX *ctx = ctx_ptr(cs);
    int64_t ctx_flags = ITER(cs)->kind;
    SSL *ssl = SSL_new(ctx);
    if (!ssl) {
        raise_ctx_error(LINE_CTX);
        goto out;
    }
    ERR_clear_error();
    if (sockp) {
        SSL_set_fd(ssl, fd);
    } else {
        BIO *in = bio_ptr(vm_unwrap(*inp)), *out = bio_ptr(vm_unwrap(*outp));
        BIO_up_ref(in);   /* the SSL takes one reference of each; the MemoryBIOs keep theirs */
        BIO_up_ref(out);
        SSL_set_bio(ssl, in, out);
    }
    SSL_set_mode(ssl, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_AUTO_RETRY);
    if (ctx_flags & CTX_PHA) {
        if (server_side) {
            int mode = SSL_get_verify_mode(ssl);
            if (mode & SSL_VERIFY_PEER)
                SSL_set_verify(ssl, mode | SSL_VERIFY_POST_HANDSHAKE, NULL);
        } else {
            SSL_set_post_handshake_auth(ssl, 1);
        }
    }
    if (host) {
        bool ip = is_ip_address(host);
        if (!ip && !SSL_set_tlsext_host_name(ssl, host)) {
            SSL_free(ssl);
            raise_ctx_error(LINE_CTX);
            goto out;
        }
        if (ctx_flags & CTX_CHECK_HOSTNAME) {
            X509_VERIFY_PARAM *param = SSL_get0_param(ssl);
            int ok = ip ? X509_VERIFY_PARAM_set1_ip_asc(param, host) : X509_VERIFY_PARAM_set1_host(param, host, 0);
            if (!ok) {
                SSL_free(ssl);
                raise_ctx_error(LINE_CTX);
                goto out;
            }
        }
    }
    if (server_side)
        SSL_set_accept_state(ssl);
    else
        SSL_set_connect_state(ssl);
    Obj it = r[1];
    VM_WRITE(it);
    ITER(it)->i = (int64_t)(uintptr_t)ssl;
    ITER(it)->b = *ctxp;
    ITER(it)->c = r[0];
    ITER(it)->kind = (server_side ? SOCK_SERVER : 0) | (sockp ? 0 : SOCK_OVER_BIO);
    tm_register_finalizer((object_t *)it);
    if (sessionp && *sessionp && !IS_NONE(*sessionp) && use_session(vm_unwrap(r[1]), ssl, sessionp) < 0)
        goto out;
    if ((ownerp && *ownerp && list_setitem(r[0], MAKE_SMALLINT(C_OWNER), *ownerp) < 0) ||
        list_setitem(r[0], MAKE_SMALLINT(C_HOSTNAME), r[2]) < 0 ||
        (inp && list_setitem(r[0], MAKE_SMALLINT(C_INCOMING), *inp) < 0) ||
        (outp && list_setitem(r[0], MAKE_SMALLINT(C_OUTGOING), *outp) < 0))
        goto out;
    res = r[1];
out:
    free(host);
    vm_unroots(r);
    return res;
}

static Obj ctx_wrap_socket(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"sock", "server_side", "server_hostname", "owner", "session", NULL};
    Obj *a = vm_roots(6);
    Obj res = NULL;
    a[5] = args[0];
    if (!self_of(args[0], T_ctx, "_wrap_socket") ||
        vm_parse_args("_wrap_socket", args + 1, nargs - 1, kwnames, names, 2, 3, a) < 0)
        goto out;
    int server = vm_is_true(a[1]);
    if (server < 0)
        goto out;
    res = sslsock_make(&a[5], &a[0], NULL, NULL, server, &a[2], &a[3], &a[4]);
out:
    vm_unroots(a);
    return res;
}

static Obj ctx_wrap_bio(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"incoming", "outgoing", "server_side", "server_hostname", "owner",
                                        "session", NULL};
    Obj *a = vm_roots(7);
    Obj res = NULL;
    a[6] = args[0];
    if (!self_of(args[0], T_ctx, "_wrap_bio") ||
        vm_parse_args("_wrap_bio", args + 1, nargs - 1, kwnames, names, 3, 4, a) < 0)
        goto out;
    int server = vm_is_true(a[2]);
    if (server < 0)
        goto out;
    res = sslsock_make(&a[6], NULL, &a[0], &a[1], server, &a[3], &a[4], &a[5]);
out:
    vm_unroots(a);
    return res;
}

/* ---- SSLSession: a client's session, to resume on a new connection ---- */

static SSL_SESSION *session_ptr(Obj s) { return (SSL_SESSION *)(uintptr_t)ITER(s)->i; }

static void session_del_free(void *p)
{
    SSL_SESSION_free((SSL_SESSION *)p);
}

static Obj session_del(Obj *args, size_t nargs, Obj kwnames)
{
    return free_held(args, T_session, session_del_free);
}

#define SESSION_SELF(meth)                               \
    Obj s = self_of(args[0], T_session, meth);           \
    if (!s)                                              \
        return NULL;                                     \
    SSL_SESSION *sess = session_ptr(s);                  \
    if (!sess)                                           \
        return raise_ssl_plain("the SSL session is freed");

static Obj session_id(Obj *args, size_t nargs, Obj kwnames)
{
    SESSION_SELF("id");
    unsigned int n;
    const unsigned char *id = SSL_SESSION_get_id(sess, &n);
    return bytes_new((const char *)id, n);
}

static Obj session_time(Obj *args, size_t nargs, Obj kwnames)
{
    SESSION_SELF("time");
    return int_from_i64(SSL_SESSION_get_time(sess));
}

static Obj session_timeout(Obj *args, size_t nargs, Obj kwnames)
{
    SESSION_SELF("timeout");
    return int_from_i64(SSL_SESSION_get_timeout(sess));
}

static Obj session_lifetime_hint(Obj *args, size_t nargs, Obj kwnames)
{
    SESSION_SELF("ticket_lifetime_hint");
    return int_from_u64(SSL_SESSION_get_ticket_lifetime_hint(sess));
}

static Obj session_has_ticket(Obj *args, size_t nargs, Obj kwnames)
{
    SESSION_SELF("has_ticket");
    return vm_bool(SSL_SESSION_has_ticket(sess));
}

/* Two sessions are equal when their ids are. */
static Obj session_richcompare(Obj a, Obj b, int op)
{
    Obj x = vm_unwrap(a), y = vm_unwrap(b);
    if ((op != CMP_EQ && op != CMP_NE) || TID(y) != TID_ITER || ITER(y)->cls != (Obj)T_session)
        return g_NotImplemented;
    SSL_SESSION *p = session_ptr(x), *q = session_ptr(y);
    bool eq = p == q;
    if (!eq && p && q) {
        unsigned int pn, qn;
        const unsigned char *pid = SSL_SESSION_get_id(p, &pn), *qid = SSL_SESSION_get_id(q, &qn);
        eq = pn == qn && memcmp(pid, qid, pn) == 0;
    }
    return vm_bool(op == CMP_EQ ? eq : !eq);
}

/* Resume *sessp on the (client, not yet connected) SSL of s: 0 or -1. */
static int use_session(Obj s, SSL *ssl, Obj *sessp)
{
    Obj v = vm_unwrap(*sessp);
    if (TID(v) != TID_ITER || ITER(v)->cls != (Obj)T_session) {
        err_set(E_TypeError, "Value is not a SSLSession.");
        return -1;
    }
    Obj c1 = vm_unwrap(ITER(s)->b), c2 = vm_unwrap(ITER(v)->a);
    if (ctx_ptr(c1) != ctx_ptr(c2)) {
        err_set(E_ValueError, "Session refers to a different SSLContext.");
        return -1;
    }
    if (ITER(s)->kind & SOCK_SERVER) {
        err_set(E_ValueError, "Cannot set session for server-side SSLSocket.");
        return -1;
    }
    if (SSL_is_init_finished(ssl)) {
        err_set(E_ValueError, "Cannot set session after handshake.");
        return -1;
    }
    vm_tx_become_inevitable();
    if (!SSL_set_session(ssl, session_ptr(vm_unwrap(*sessp)))) {
        raise_ctx_error(LINE_CTX);
        return -1;
    }
    return 0;
}

/* ---- I/O: one OpenSSL call at a time, on C memory only ---- */

enum { IO_HANDSHAKE, IO_READ, IO_WRITE, IO_SHUTDOWN };

typedef struct {
    SSL *ssl;
    int op;
    char *buf;          /* IO_READ / IO_WRITE */
    size_t len;
    size_t done;        /* bytes read or written */
    int ret;            /* the call's result */
    int ssl_err;        /* SSL_get_error(): SSL_ERROR_NONE on success */
    int sys_errno;
    unsigned long err;  /* ERR_peek_last_error() */
    long verify;        /* SSL_get_verify_result() */
} SslCall;

/* Runs in a blocking region (no heap access): the call and what an error
 * report needs. */
static void ssl_call_run(SslCall *c)
{
    ERR_clear_error();
    errno = 0;
    switch (c->op) {
    case IO_HANDSHAKE:
        c->ret = SSL_do_handshake(c->ssl);
        break;
    case IO_READ:
        c->ret = SSL_read_ex(c->ssl, c->buf, c->len, &c->done);
        break;
    case IO_WRITE:
        c->ret = SSL_write_ex(c->ssl, c->buf, c->len, &c->done);
        break;
    case IO_SHUTDOWN:
        c->ret = SSL_shutdown(c->ssl);
        break;
    }
    c->sys_errno = errno;
    c->ssl_err = c->ret > 0 || (c->op == IO_SHUTDOWN && c->ret == 0) ? SSL_ERROR_NONE : SSL_get_error(c->ssl, c->ret);
    c->err = ERR_peek_last_error();
    c->verify = SSL_get_verify_result(c->ssl);
    ERR_clear_error();
}

static const int op_lines[] = {LINE_HANDSHAKE, LINE_READ, LINE_WRITE, LINE_SHUTDOWN};

/* The exception of a failed call (CPython's PySSL_SetError). *selfp is
 * the _SSLSocket (for the server_hostname of a hostname mismatch). */
static Obj raise_call_error(Obj *selfp, const SslCall *c)
{
    int line = op_lines[c->op];
    char msg[640];
    switch (c->ssl_err) {
    case SSL_ERROR_ZERO_RETURN:
        snprintf(msg, sizeof msg, "TLS/SSL connection has been closed (EOF) (_ssl.c:%d)", line);
        return raise_ssl(E_zero_return, SSL_ERROR_ZERO_RETURN, msg);
    case SSL_ERROR_WANT_READ:
        snprintf(msg, sizeof msg, "The operation did not complete (read) (_ssl.c:%d)", line);
        return raise_ssl(E_want_read, SSL_ERROR_WANT_READ, msg);
    case SSL_ERROR_WANT_WRITE:
        snprintf(msg, sizeof msg, "The operation did not complete (write) (_ssl.c:%d)", line);
        return raise_ssl(E_want_write, SSL_ERROR_WANT_WRITE, msg);
    case SSL_ERROR_WANT_X509_LOOKUP:
        snprintf(msg, sizeof msg, "The operation did not complete (X509 lookup) (_ssl.c:%d)", line);
        return raise_ssl(E_ssl, SSL_ERROR_WANT_X509_LOOKUP, msg);
    case SSL_ERROR_WANT_CONNECT:
        snprintf(msg, sizeof msg, "The operation did not complete (connect) (_ssl.c:%d)", line);
        return raise_ssl(E_ssl, SSL_ERROR_WANT_CONNECT, msg);
    case SSL_ERROR_SYSCALL:
        if (c->err == 0) {
            if (c->sys_errno)
                return raise_errno(c->sys_errno);
            snprintf(msg, sizeof msg, "EOF occurred in violation of protocol (_ssl.c:%d)", line);
            return raise_ssl(E_eof, ERR_EOF, msg);
        }
        break;
    case SSL_ERROR_SSL:
        break;
    default:
        snprintf(msg, sizeof msg, "Invalid error code (_ssl.c:%d)", line);
        return raise_ssl(E_ssl, ERR_INVALID, msg);
    }
    unsigned long e = c->err;
    if (ERR_GET_LIB(e) == ERR_LIB_SSL && ERR_GET_REASON(e) == SSL_R_UNEXPECTED_EOF_WHILE_READING) {
        snprintf(msg, sizeof msg, "[SSL: UNEXPECTED_EOF_WHILE_READING] EOF occurred in violation of protocol (_ssl.c:%d)",
                 line);
        return raise_ssl_full(E_eof, ERR_EOF, msg, "SSL", "UNEXPECTED_EOF_WHILE_READING", 0, NULL);
    }
    if (ERR_GET_LIB(e) == ERR_LIB_SSL && ERR_GET_REASON(e) == SSL_R_CERTIFICATE_VERIFY_FAILED) {
        char vmsg[400];
        if (c->verify == X509_V_ERR_HOSTNAME_MISMATCH || c->verify == X509_V_ERR_IP_ADDRESS_MISMATCH) {
            Obj host = LIST_ITEMS(ITER(vm_unwrap(*selfp))->c)[C_HOSTNAME];
            Obj *r = vm_roots(1);
            r[0] = vm_repr(host);
            if (!r[0]) {
                vm_unroots(r);
                return NULL;
            }
            snprintf(vmsg, sizeof vmsg, "%s mismatch, certificate is not valid for %s.",
                     c->verify == X509_V_ERR_HOSTNAME_MISMATCH ? "Hostname" : "IP address", str_cstr(r[0]));
            vm_unroots(r);
        } else {
            snprintf(vmsg, sizeof vmsg, "%s", X509_verify_cert_error_string(c->verify));
        }
        snprintf(msg, sizeof msg, "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: %s (_ssl.c:%d)", vmsg,
                 line);
        return raise_ssl_full((TypeObj *)g_cert_verify_error, SSL_ERROR_SSL, msg, "SSL", "CERTIFICATE_VERIFY_FAILED",
                              c->verify, vmsg);
    }
    return raise_from_err(e, SSL_ERROR_SSL, line, NULL);
}

/* Wait until fd is ready for `events` or the deadline (tm_now_ns; < 0:
 * none): 0 ready, 1 timed out, -1 raised (errno, or a signal handler). */
static int wait_fd(int fd, short events, int64_t deadline)
{
    for (;;) {
        int ms = -1;
        if (deadline >= 0) {
            int64_t left = deadline - tm_now_ns();
            if (left <= 0)
                return 1;
            ms = (int)((left + 999999) / 1000000);
        }
        struct pollfd p = {.fd = fd, .events = events};
        vm_blocking_begin();
        int n = tm_interrupted() ? (errno = EINTR, -1) : poll(&p, 1, ms);
        int e = errno;
        vm_blocking_end();
        if (n > 0)
            return 0;
        if (n == 0)
            return 1;
        if (e != EINTR) {
            raise_errno(e);
            return -1;
        }
        if (vm_signals_check() < 0)
            return -1;
    }
}

/* Run c to completion as the socket's timeout says (see the top of the
 * file); 0, or -1 with the exception set. *selfp: the _SSLSocket. */
static int ssl_io_run(Obj *selfp, SslCall *c);

/* ssl_io_run with a slot for what a message callback raises inside it:
 * that exception is the call's (CPython's). */
static int ssl_io(Obj *selfp, SslCall *c)
{
    Obj *r = vm_roots(1);
    Obj *outer_exc = tls_io_exc;
    tls_io_exc = &r[0];
    int rc = ssl_io_run(selfp, c);
    tls_io_exc = outer_exc;
    if (r[0]) {
        err_set_obj(r[0]);
        rc = -1;
    }
    vm_unroots(r);
    return rc;
}

static int ssl_io_run(Obj *selfp, SslCall *c)
{
    Obj s = vm_unwrap(*selfp);
    bool over_bio = ITER(s)->kind & SOCK_OVER_BIO;
    int fd = -1;
    int64_t timeout = 0;
    if (!over_bio) {
        if (socket_fd_timeout(ITER(s)->a, &fd, &timeout) < 0)
            return -1;
        if (fd < 0) {
            raise_ssl_plain("Underlying socket has been closed.");
            return -1;
        }
    }
    int64_t deadline = timeout > 0 ? tm_now_ns() + timeout : -1;
    for (;;) {
        Obj *outer_self = tls_io_self;   /* (a callback's own I/O nests) */
        bool outer_blocking = tls_io_blocking;
        tls_io_self = selfp;
        tls_io_blocking = !over_bio;
        if (over_bio) {   /* memory only: never waits */
            vm_tx_become_inevitable();
            ssl_call_run(c);
        } else {
            vm_blocking_begin();
            ssl_call_run(c);
            vm_blocking_end();
        }
        tls_io_self = outer_self;
        tls_io_blocking = outer_blocking;
        if (c->ssl_err == SSL_ERROR_NONE)
            return 0;
        bool want_read = c->ssl_err == SSL_ERROR_WANT_READ, want_write = c->ssl_err == SSL_ERROR_WANT_WRITE;
        bool interrupted = c->ssl_err == SSL_ERROR_SYSCALL && c->err == 0 && c->sys_errno == EINTR;
        if (interrupted) {
            if (vm_signals_check() < 0)
                return -1;
            continue;
        }
        if (over_bio || timeout == 0 || !(want_read || want_write)) {
            raise_call_error(selfp, c);
            return -1;
        }
        int w = wait_fd(fd, want_read ? POLLIN : POLLOUT, deadline);
        if (w < 0)
            return -1;
        if (w > 0) {
            if (c->op == IO_HANDSHAKE)
                err_set(E_TimeoutError, "_ssl.c:989: The handshake operation timed out");
            else if (want_read)
                err_set(E_TimeoutError, "The read operation timed out");
            else
                err_set(E_TimeoutError, "The write operation timed out");
            return -1;
        }
    }
}

/* self's SSL (and s, its IterObj), the transaction inevitable. */
#define SSL_SELF(meth)                                   \
    Obj s = self_of(args[0], T_sslsock, meth);           \
    if (!s)                                              \
        return NULL;                                     \
    vm_tx_become_inevitable();                           \
    s = vm_unwrap(args[0]);                              \
    SSL *ssl = ssl_ptr(s);                               \
    if (!ssl)                                            \
        return raise_ssl_plain("the SSL object is freed");

static Obj sslsock_do_handshake(Obj *args, size_t nargs, Obj kwnames)
{
    SSL_SELF("do_handshake");
    SslCall c = {.ssl = ssl, .op = IO_HANDSHAKE};
    return ssl_io(&args[0], &c) < 0 ? NULL : g_None;
}

static Obj sslsock_read(Obj *args, size_t nargs, Obj kwnames)
{
    SSL_SELF("read");
    int64_t len;
    if (nargs < 2) {
        err_set(E_TypeError, "read() missing required argument 'size' (pos 1)");
        return NULL;
    }
    if (arg_c_int(args[1], &len) < 0)
        return NULL;
    Obj buffer = nargs > 2 && !IS_NONE(args[2]) ? args[2] : NULL;
    int64_t cap = -1;
    if (buffer) {
        cap = writable_buffer_len(buffer);
        if (cap < 0) {
            err_format(E_TypeError, "read() argument 2 must be read-write bytes-like object, not %s",
                       type_name(buffer));
            return NULL;
        }
        if (len <= 0 || len > cap)
            len = cap;
    } else if (len < 0) {
        err_set(E_ValueError, "size should not be negative");
        return NULL;
    }
    if (len == 0)
        return buffer ? MAKE_SMALLINT(0) : bytes_new("", 0);
    char *tmp = malloc((size_t)len);
    if (!tmp)
        return err_nomemory();
    SslCall c = {.ssl = ssl, .op = IO_READ, .buf = tmp, .len = (size_t)len};
    Obj res = NULL;
    if (ssl_io(&args[0], &c) < 0) {
        /* a close_notify the peer sent ends the stream: b'' (CPython) */
        if (c.ssl_err == SSL_ERROR_ZERO_RETURN && (SSL_get_shutdown(ssl) & SSL_RECEIVED_SHUTDOWN)) {
            err_clear();
            c.done = 0;
        } else {
            goto out;
        }
    }
    if (buffer)
        res = writable_buffer_store(args[2], 0, tmp, (int64_t)c.done) < 0 ? NULL : int_from_i64((int64_t)c.done);
    else
        res = bytes_new(tmp, c.done);
out:
    free(tmp);
    return res;
}

static Obj sslsock_write(Obj *args, size_t nargs, Obj kwnames)
{
    SSL_SELF("write");
    const char *p;
    int64_t n;
    if (!bytes_like(args[1], &p, &n)) {
        err_format(E_TypeError, "a bytes-like object is required, not '%s'", type_name(args[1]));
        return NULL;
    }
    if (n > INT32_MAX) {
        err_format(E_OverflowError, "string longer than %d bytes", INT32_MAX);
        return NULL;
    }
    if (n == 0)
        return MAKE_SMALLINT(0);
    char *tmp = malloc((size_t)n);   /* the call may wait: C memory only */
    if (!tmp)
        return err_nomemory();
    memcpy(tmp, p, (size_t)n);
    SslCall c = {.ssl = ssl, .op = IO_WRITE, .buf = tmp, .len = (size_t)n};
    Obj res = ssl_io(&args[0], &c) < 0 ? NULL : int_from_i64((int64_t)c.done);
    free(tmp);
    return res;
}

static Obj sslsock_shutdown(Obj *args, size_t nargs, Obj kwnames)
{
    SSL_SELF("shutdown");
    /* the first call sends our close_notify (0: the peer's not seen yet); a
     * second one waits for the peer's (over memory BIOs: SSLWantReadError
     * until it comes), as CPython's does */
    for (int attempt = 0; attempt < 2; attempt++) {
        if (attempt)   /* read no further than the close_notify: plain text may follow (unwrap) */
            SSL_set_read_ahead(ssl, 0);
        SslCall c = {.ssl = ssl, .op = IO_SHUTDOWN};
        if (ssl_io(&args[0], &c) < 0)
            return NULL;
        if (c.ret > 0)
            break;
    }
    s = vm_unwrap(args[0]);
    return ITER(s)->kind & SOCK_OVER_BIO ? g_None : ITER(s)->a;
}

static Obj sslsock_pending(Obj *args, size_t nargs, Obj kwnames)
{
    SSL_SELF("pending");
    return MAKE_SMALLINT(SSL_pending(ssl));
}

static Obj sslsock_getpeercert(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"binary_form", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    a[1] = args[0];
    if (!self_of(args[0], T_sslsock, "getpeercert") ||
        vm_parse_args("getpeercert", args + 1, nargs - 1, kwnames, names, 0, 1, a) < 0)
        goto out;
    int binary = a[0] ? vm_is_true(a[0]) : 0;
    if (binary < 0)
        goto out;
    vm_tx_become_inevitable();
    SSL *ssl = ssl_ptr(vm_unwrap(a[1]));
    if (!SSL_is_init_finished(ssl)) {
        err_set(E_ValueError, "handshake not done yet");
        goto out;
    }
    X509 *cert = SSL_get1_peer_certificate(ssl);
    if (!cert) {
        res = g_None;
        goto out;
    }
    if (binary)
        res = cert_der(cert);
    else if (!(SSL_get_verify_mode(ssl) & SSL_VERIFY_PEER))
        res = dict_new();   /* not validated: CPython gives an empty dict */
    else
        res = cert_dict(cert);
    X509_free(cert);
out:
    vm_unroots(a);
    return res;
}

static Obj cipher_tuple(const SSL_CIPHER *c)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    const char *name = SSL_CIPHER_get_name(c), *version = SSL_CIPHER_get_version(c);
    r[0] = name ? str_from_cstr(name) : g_None;
    r[1] = r[0] ? (version ? str_from_cstr(version) : g_None) : NULL;
    if (r[1])
        res = tuple_pack(3, r[0], r[1], MAKE_SMALLINT(SSL_CIPHER_get_bits(c, NULL)));
    vm_unroots(r);
    return res;
}

static Obj sslsock_cipher(Obj *args, size_t nargs, Obj kwnames)
{
    SSL_SELF("cipher");
    const SSL_CIPHER *c = SSL_get_current_cipher(ssl);
    return c ? cipher_tuple(c) : g_None;
}

static Obj sslsock_shared_ciphers(Obj *args, size_t nargs, Obj kwnames)
{
    SSL_SELF("shared_ciphers");
    STACK_OF(SSL_CIPHER) *theirs = SSL_get_client_ciphers(ssl);
    if (!theirs)
        return g_None;
    STACK_OF(SSL_CIPHER) *ours = SSL_get_ciphers(ssl);
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = list_new(0);
    for (int i = 0; r[0] && i < sk_SSL_CIPHER_num(theirs); i++) {
        const SSL_CIPHER *c = sk_SSL_CIPHER_value(theirs, i);
        if (sk_SSL_CIPHER_find(ours, (SSL_CIPHER *)c) < 0)
            continue;
        r[1] = cipher_tuple(c);
        if (!r[1] || list_append(r[0], r[1]) < 0)
            goto out;
    }
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

static Obj sslsock_version(Obj *args, size_t nargs, Obj kwnames)
{
    SSL_SELF("version");
    if (!SSL_is_init_finished(ssl))
        return g_None;   /* CPython: None before the handshake */
    const char *v = SSL_get_version(ssl);
    return strcmp(v, "unknown") == 0 ? g_None : str_from_cstr(v);
}

static Obj sslsock_selected_alpn(Obj *args, size_t nargs, Obj kwnames)
{
    SSL_SELF("selected_alpn_protocol");
    const unsigned char *p;
    unsigned int n;
    SSL_get0_alpn_selected(ssl, &p, &n);
    return p && n ? str_new((const char *)p, n) : g_None;
}

static Obj sslsock_compression(Obj *args, size_t nargs, Obj kwnames)
{
    SSL_SELF("compression");
    (void)ssl;
    return g_None;   /* OpenSSL 3 is built without TLS compression (OP_NO_COMPRESSION) */
}

static Obj sslsock_channel_binding(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"cb_type", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    a[1] = args[0];
    if (!self_of(args[0], T_sslsock, "get_channel_binding") ||
        vm_parse_args("get_channel_binding", args + 1, nargs - 1, kwnames, names, 0, 1, a) < 0)
        goto out;
    Obj t = a[0] ? str_value(a[0]) : NULL;
    if (a[0] && !t) {
        err_format(E_TypeError, "get_channel_binding() argument 'cb_type' must be str, not %s", type_name(a[0]));
        goto out;
    }
    if (t && strcmp(str_cstr(t), "tls-unique") != 0) {
        err_format(E_ValueError, "'%s' channel binding type not implemented", str_cstr(t));
        goto out;
    }
    vm_tx_become_inevitable();
    Obj s = vm_unwrap(a[1]);
    SSL *ssl = ssl_ptr(s);
    char buf[256];
    size_t n;
    /* tls-unique: the first Finished message of the handshake */
    bool server = ITER(s)->kind & SOCK_SERVER;
    if (SSL_session_reused(ssl) ^ !server)
        n = SSL_get_finished(ssl, buf, sizeof buf);
    else
        n = SSL_get_peer_finished(ssl, buf, sizeof buf);
    res = n == 0 ? g_None : bytes_new(buf, n);
out:
    vm_unroots(a);
    return res;
}

static Obj sslsock_verified_chain(Obj *args, size_t nargs, Obj kwnames)
{
    SSL_SELF("get_verified_chain");
    return chain_list(SSL_get0_verified_chain(ssl), NULL);
}

/* The chain the peer sent; a server's view of it lacks the client's own
 * certificate, which comes first (as CPython's). */
static Obj sslsock_unverified_chain(Obj *args, size_t nargs, Obj kwnames)
{
    SSL_SELF("get_unverified_chain");
    STACK_OF(X509) *chain = SSL_get_peer_cert_chain(ssl);
    X509 *peer = NULL;
    if (ITER(s)->kind & SOCK_SERVER)
        peer = SSL_get0_peer_certificate(ssl);
    if (!chain)
        return g_None;
    return chain_list(chain, peer);
}

static Obj sslsock_verify_pha(Obj *args, size_t nargs, Obj kwnames)
{
    SSL_SELF("verify_client_post_handshake");
    if (!SSL_verify_client_post_handshake(ssl))
        return raise_ctx_error(LINE_CTX);
    return g_None;
}

static Obj sslsock_get_context(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = self_of(args[0], T_sslsock, "context");
    return s ? ITER(s)->b : NULL;
}

static Obj sslsock_set_context(Obj *args, size_t nargs, Obj kwnames)
{
    SSL_SELF("context");
    if (!args[1]) {
        err_set(E_AttributeError, "cannot delete attribute");
        return NULL;
    }
    Obj c = vm_unwrap(args[1]);
    if (TID(c) != TID_ITER || ITER(c)->cls != (Obj)T_ctx) {
        err_set(E_TypeError, "The value must be a SSLContext");
        return NULL;
    }
    SSL_set_SSL_CTX(ssl, ctx_ptr(c));
    s = vm_unwrap(args[0]);
    VM_WRITE(s);
    ITER(s)->b = args[1];
    return g_None;
}

static Obj sslsock_list_item(Obj *args, int k, const char *what)
{
    Obj s = self_of(args[0], T_sslsock, what);
    return s ? LIST_ITEMS(ITER(s)->c)[k] : NULL;
}

static Obj sslsock_get_owner(Obj *args, size_t nargs, Obj kwnames) { return sslsock_list_item(args, C_OWNER, "owner"); }
static Obj sslsock_get_hostname(Obj *args, size_t nargs, Obj kwnames)
{
    return sslsock_list_item(args, C_HOSTNAME, "server_hostname");
}

static Obj sslsock_set_owner(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = self_of(args[0], T_sslsock, "owner");
    if (!s)
        return NULL;
    return list_setitem(ITER(s)->c, MAKE_SMALLINT(C_OWNER), args[1] ? args[1] : g_None) < 0 ? NULL : g_None;
}

static Obj sslsock_get_server_side(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = self_of(args[0], T_sslsock, "server_side");
    return s ? vm_bool(ITER(s)->kind & SOCK_SERVER) : NULL;
}

static Obj sslsock_get_session(Obj *args, size_t nargs, Obj kwnames)
{
    SSL_SELF("session");
    Obj *r = vm_roots(1);
    r[0] = iter_alloc(T_session, ITER(s)->b, 0);   /* a = the context */
    if (!r[0]) {
        vm_unroots(r);
        return NULL;
    }
    vm_tx_become_inevitable();
    Obj res = r[0];
    vm_unroots(r);
    ssl = ssl_ptr(vm_unwrap(args[0]));
    SSL_SESSION *sess = SSL_get1_session(ssl);
    if (!sess)
        return g_None;
    VM_WRITE(res);
    ITER(res)->i = (int64_t)(uintptr_t)sess;
    tm_register_finalizer((object_t *)res);
    return res;
}

static Obj sslsock_set_session(Obj *args, size_t nargs, Obj kwnames)
{
    SSL_SELF("session");
    if (!args[1]) {
        err_set(E_AttributeError, "cannot delete attribute");
        return NULL;
    }
    return use_session(s, ssl, &args[1]) < 0 ? NULL : g_None;
}

static Obj sslsock_get_session_reused(Obj *args, size_t nargs, Obj kwnames)
{
    SSL_SELF("session_reused");
    return vm_bool(SSL_session_reused(ssl));
}

/* ------------------------------------------------------------------ */
/* Module functions                                                    */
/* ------------------------------------------------------------------ */

static Obj m_rand_bytes_common(Obj *args, bool pseudo)
{
    int64_t n;
    if (arg_c_int(args[0], &n) < 0)
        return NULL;
    if (n < 0) {
        err_set(E_ValueError, "num must be positive");
        return NULL;
    }
    Obj b = bytes_alloc(n);
    if (!b || n == 0)
        return b && pseudo ? tuple_pack(2, b, g_True) : b;
    vm_tx_become_inevitable();   /* the generator's state is C state */
    int ok = RAND_bytes((unsigned char *)VM_LINEAR(BYTES(b)->data), (int)n);
    tm_compiler_barrier();
    if (ok != 1) {
        unsigned long e = ERR_peek_last_error();
        ERR_clear_error();
        return raise_from_err(e, -1, LINE_CTX, NULL);
    }
    return pseudo ? tuple_pack(2, b, g_True) : b;
}

static Obj m_rand_bytes(Obj *args, size_t nargs, Obj kwnames) { return m_rand_bytes_common(args, false); }

static Obj m_rand_pseudo_bytes(Obj *args, size_t nargs, Obj kwnames)
{
    Obj msg = str_from_cstr("ssl.RAND_pseudo_bytes() is deprecated");
    if (!msg || vm_warn(E_DeprecationWarning, msg, NULL) < 0)
        return NULL;
    return m_rand_bytes_common(args, true);
}

static Obj m_rand_status(Obj *args, size_t nargs, Obj kwnames) { return vm_bool(RAND_status() == 1); }

static Obj m_rand_add(Obj *args, size_t nargs, Obj kwnames)
{
    const char *p;
    int64_t n;
    Obj v = vm_unwrap(args[0]);
    if (IS_STR(v)) {
        p = str_cstr(v);
        n = STR(v)->nbytes;
    } else if (!bytes_like(v, &p, &n)) {
        err_format(E_TypeError, "a bytes-like object is required, not '%s'", type_name(args[0]));
        return NULL;
    }
    Obj e = vm_unwrap(args[1]);
    const char *ep;
    int64_t en;
    if (IS_STR(e) || bytes_like(e, &ep, &en)) {   /* float() would parse them: CPython's "d" takes numbers only */
        err_format(E_TypeError, "must be real number, not %s", type_name(args[1]));
        return NULL;
    }
    Obj *r = vm_roots(1);
    r[0] = args[1];
    double entropy;
    Obj f = vm_call1((Obj)T_float, r[0]);
    vm_unroots(r);
    if (!f)
        return NULL;
    entropy = FLOAT_VAL(f);
    v = vm_unwrap(args[0]);
    if (IS_STR(v))
        p = str_cstr(v);
    else
        bytes_like(v, &p, &n);
    vm_tx_become_inevitable();
    RAND_add(p, (int)(n > INT32_MAX ? INT32_MAX : n), entropy);
    return g_None;
}

/* (nid, shortname, longname, oid) of an ASN.1 object. */
static Obj asn1obj_tuple(const ASN1_OBJECT *obj)
{
    char buf[256];
    int nid = OBJ_obj2nid(obj);
    if (nid == NID_undef) {
        err_set(E_ValueError, "Unknown object");   /* only made from known ones here */
        return NULL;
    }
    int n = OBJ_obj2txt(buf, sizeof buf, obj, 1);
    if (n < 0) {
        ERR_clear_error();
        return raise_ssl_plain("cannot convert the object identifier");
    }
    Obj *r = vm_roots(3);
    Obj res = NULL;
    const char *sn = OBJ_nid2sn(nid), *ln = OBJ_nid2ln(nid);
    r[0] = sn ? str_from_cstr(sn) : g_None;
    r[1] = r[0] && ln ? str_from_cstr(ln) : g_None;
    r[2] = r[0] && r[1] ? str_new(buf, (size_t)n) : NULL;
    if (r[2])
        res = tuple_pack(4, MAKE_SMALLINT(nid), r[0], r[1], r[2]);
    vm_unroots(r);
    return res;
}

static Obj m_txt2obj(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"txt", "name", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("txt2obj", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    Obj t = str_value(a[0]);
    if (!t) {
        err_format(E_TypeError, "txt2obj() argument 'txt' must be str, not %s", type_name(a[0]));
        goto out;
    }
    int by_name = a[1] ? vm_is_true(a[1]) : 0;
    if (by_name < 0)
        goto out;
    t = str_value(a[0]);
    ASN1_OBJECT *obj = OBJ_txt2obj(str_cstr(t), by_name ? 0 : 1);
    if (!obj || OBJ_obj2nid(obj) == NID_undef) {
        ASN1_OBJECT_free(obj);
        ERR_clear_error();
        Obj *q = vm_roots(1);
        q[0] = vm_repr(a[0]);
        if (q[0])
            err_format(E_ValueError, "unknown object '%s'", str_cstr(str_value(a[0])));
        vm_unroots(q);
        goto out;
    }
    res = asn1obj_tuple(obj);
    ASN1_OBJECT_free(obj);
out:
    vm_unroots(a);
    return res;
}

static Obj m_nid2obj(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t nid;
    if (arg_c_int(args[0], &nid) < 0)
        return NULL;
    if (nid < NID_undef) {
        err_set(E_ValueError, "NID must be positive.");
        return NULL;
    }
    ASN1_OBJECT *obj = nid > 0 ? OBJ_nid2obj((int)nid) : NULL;
    if (!obj || OBJ_obj2nid(obj) == NID_undef) {
        ERR_clear_error();
        err_format(E_ValueError, "unknown NID %lld", (long long)nid);
        return NULL;
    }
    Obj res = asn1obj_tuple(obj);
    ASN1_OBJECT_free(obj);
    return res;
}

static Obj m_get_default_verify_paths(Obj *args, size_t nargs, Obj kwnames)
{
    const char *v[4] = {X509_get_default_cert_file_env(), X509_get_default_cert_file(),
                        X509_get_default_cert_dir_env(), X509_get_default_cert_dir()};
    Obj *r = vm_roots(4);
    Obj res = NULL;
    for (int i = 0; i < 4; i++)
        if (!(r[i] = str_from_cstr(v[i])))
            goto out;
    res = tuple_pack(4, r[0], r[1], r[2], r[3]);
out:
    vm_unroots(r);
    return res;
}

static Obj m_test_decode_cert(Obj *args, size_t nargs, Obj kwnames)
{
    char *path = path_arg(args[0], "path");
    if (!path)
        return NULL;
    vm_tx_become_inevitable();
    BIO *b = BIO_new(BIO_s_file());
    if (!b) {
        free(path);
        return err_nomemory();
    }
    if (BIO_read_filename(b, path) <= 0) {
        free(path);
        BIO_free(b);
        ERR_clear_error();
        return raise_ssl_plain("Can't open file");
    }
    free(path);
    X509 *cert = PEM_read_bio_X509(b, NULL, NULL, NULL);
    BIO_free(b);
    if (!cert) {
        ERR_clear_error();
        return raise_ssl_plain("Error decoding PEM-encoded file");
    }
    Obj res = cert_dict(cert);
    X509_free(cert);
    return res;
}

/* ------------------------------------------------------------------ */
/* Types and the module                                                */
/* ------------------------------------------------------------------ */

static const MethodDef bio_methods[] = {
    {"read", bio_read, METH_ARGS(0, 1), "read($self, size=-1, /)\n--\n\nRead up to size bytes from the memory BIO."},
    {"write", bio_write, METH_O, "write($self, b, /)\n--\n\nWrites the bytes b into the memory BIO."},
    {"write_eof", bio_write_eof, METH_NOARGS, "write_eof($self, /)\n--\n\nWrite an EOF marker to the memory BIO."},
    {"__del__", bio_del, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef ctx_methods[] = {
    {"_wrap_socket", ctx_wrap_socket, METH_KW, NULL},
    {"_wrap_bio", ctx_wrap_bio, METH_KW, NULL},
    {"set_ciphers", ctx_set_ciphers, METH_O, "set_ciphers($self, cipherlist, /)\n--\n\n"},
    {"get_ciphers", ctx_get_ciphers, METH_NOARGS, "get_ciphers($self, /)\n--\n\n"},
    {"_set_alpn_protocols", ctx_set_alpn_protocols, METH_O, NULL},
    {"load_cert_chain", ctx_load_cert_chain, METH_KW, "load_cert_chain($self, /, certfile, keyfile=None, password=None)\n--\n\n"},
    {"load_verify_locations", ctx_load_verify_locations, METH_KW,
     "load_verify_locations($self, /, cafile=None, capath=None, cadata=None)\n--\n\n"},
    {"load_dh_params", ctx_load_dh_params, METH_O, "load_dh_params($self, path, /)\n--\n\n"},
    {"set_default_verify_paths", ctx_set_default_verify_paths, METH_NOARGS, "set_default_verify_paths($self, /)\n--\n\n"},
    {"set_ecdh_curve", ctx_set_ecdh_curve, METH_O, "set_ecdh_curve($self, name, /)\n--\n\n"},
    {"cert_store_stats", ctx_cert_store_stats, METH_NOARGS, "cert_store_stats($self, /)\n--\n\n"},
    {"get_ca_certs", ctx_get_ca_certs, METH_KW, "get_ca_certs($self, /, binary_form=False)\n--\n\n"},
    {"session_stats", ctx_session_stats, METH_NOARGS, "session_stats($self, /)\n--\n\n"},
    {"__del__", ctx_del, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef sslsock_methods[] = {
    {"do_handshake", sslsock_do_handshake, METH_NOARGS, NULL},
    {"read", sslsock_read, METH_ARGS(1, 2), "read(size, [buffer])\nRead up to size bytes from the SSL socket."},
    {"write", sslsock_write, METH_O, "write($self, b, /)\n--\n\nWrites the bytes-like object b into the SSL object."},
    {"pending", sslsock_pending, METH_NOARGS, NULL},
    {"shutdown", sslsock_shutdown, METH_NOARGS, NULL},
    {"getpeercert", sslsock_getpeercert, METH_KW, NULL},
    {"cipher", sslsock_cipher, METH_NOARGS, NULL},
    {"shared_ciphers", sslsock_shared_ciphers, METH_NOARGS, NULL},
    {"version", sslsock_version, METH_NOARGS, NULL},
    {"selected_alpn_protocol", sslsock_selected_alpn, METH_NOARGS, NULL},
    {"compression", sslsock_compression, METH_NOARGS, NULL},
    {"get_channel_binding", sslsock_channel_binding, METH_KW, NULL},
    {"verify_client_post_handshake", sslsock_verify_pha, METH_NOARGS, NULL},
    {"get_verified_chain", sslsock_verified_chain, METH_NOARGS, NULL},
    {"get_unverified_chain", sslsock_unverified_chain, METH_NOARGS, NULL},
    {"__del__", sslsock_del, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef cert_methods[] = {
    {"get_info", certobj_get_info, METH_NOARGS, NULL},
    {"public_bytes", certobj_public_bytes, METH_KW, "public_bytes($self, /, format=Encoding.PEM)\n--\n\n"},
    {"__del__", certobj_del, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef session_methods[] = {
    {"__del__", session_del, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef ssl_functions[] = {
    {"RAND_bytes", m_rand_bytes, METH_O, "RAND_bytes($module, n, /)\n--\n\nGenerate n cryptographically strong pseudo-random bytes."},
    {"RAND_pseudo_bytes", m_rand_pseudo_bytes, METH_O, NULL},
    {"RAND_status", m_rand_status, METH_NOARGS, NULL},
    {"RAND_add", m_rand_add, METH_ARGS(2, 2), NULL},
    {"txt2obj", m_txt2obj, METH_KW, NULL},
    {"nid2obj", m_nid2obj, METH_O, NULL},
    {"get_default_verify_paths", m_get_default_verify_paths, METH_NOARGS, NULL},
    {"_test_decode_cert", m_test_decode_cert, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static TypeObj *exc_type(const char *name, TypeObj *base, unaryfunc str)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, base, TID_EXCEPTION, TPF_BASETYPE | TPF_HAS_DICT);
    if (str) {   /* before type_ready, which gives it its __str__ (a class made by type() finds it there) */
        VM_WRITE_RARE(t);
        t->tp_str = str;
    }
    type_ready(t);
    return t;
}

/* str(SSLError): its strerror when that is a str, else str(args) (CPython). */
static Obj sslerror_str(Obj self)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    r[1] = vm_getattr_cstr(r[0], "strerror");
    if (!r[1])
        goto out;
    if (IS_STR(vm_unwrap(r[1]))) {
        res = r[1];
        goto out;
    }
    r[1] = vm_getattr_cstr(r[0], "args");
    res = r[1] ? vm_str(r[1]) : NULL;
out:
    vm_unroots(r);
    return res;
}

static void ssl_make_types(void)
{
    if (T_ctx)
        return;
    VM_GLOBAL_ROOT(g_cert_verify_error);   /* made by ssl_module_init */
    g_alpn_index = SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, alpn_free);
    g_keylog_index = SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, keylog_close);
    TypeObj *t = (TypeObj *)type_new_builtin("_ssl._SSLContext", T_object, TID_ITER,
                                             TPF_BASETYPE | TPF_ITER_VALUE | TPF_DOTTED_NAME);
    VM_WRITE_RARE(t);
    t->flags |= TPF_HAS_DEL;   /* subclasses' instances are registered for finalization */
    t->tp_new = ctx_new;
    type_add_methods(t, ctx_methods);
    type_add_getset(t, "protocol", ctx_get_protocol, NULL);
    type_add_getset(t, "options", ctx_get_options, ctx_set_options);
    type_add_getset(t, "verify_mode", ctx_get_verify_mode, ctx_set_verify_mode);
    type_add_getset(t, "check_hostname", ctx_get_check_hostname, ctx_set_check_hostname);
    type_add_getset(t, "post_handshake_auth", ctx_get_pha, ctx_set_pha);
    type_add_getset(t, "verify_flags", ctx_get_verify_flags, ctx_set_verify_flags);
    type_add_getset(t, "_host_flags", ctx_get_host_flags, ctx_set_host_flags);
    type_add_getset(t, "minimum_version", ctx_get_min_version, ctx_set_min_version);
    type_add_getset(t, "maximum_version", ctx_get_max_version, ctx_set_max_version);
    type_add_getset(t, "security_level", ctx_get_security_level, NULL);
    type_add_getset(t, "num_tickets", ctx_get_num_tickets, ctx_set_num_tickets);
    type_add_getset(t, "keylog_filename", ctx_get_keylog, ctx_set_keylog);
    type_add_getset(t, "sni_callback", ctx_get_sni_callback, ctx_set_sni_callback);
    type_add_getset(t, "_msg_callback", ctx_get_msg_callback, ctx_set_msg_callback);
    type_ready(t);
    T_ctx = t;

    t = (TypeObj *)type_new_builtin("_ssl._SSLSocket", T_object, TID_ITER, TPF_DOTTED_NAME);
    VM_WRITE_RARE(t);
    t->flags |= TPF_HAS_DEL;
    type_add_methods(t, sslsock_methods);
    type_add_getset(t, "context", sslsock_get_context, sslsock_set_context);
    type_add_getset(t, "owner", sslsock_get_owner, sslsock_set_owner);
    type_add_getset(t, "server_side", sslsock_get_server_side, NULL);
    type_add_getset(t, "server_hostname", sslsock_get_hostname, NULL);
    type_add_getset(t, "session", sslsock_get_session, sslsock_set_session);
    type_add_getset(t, "session_reused", sslsock_get_session_reused, NULL);
    type_ready(t);
    T_sslsock = t;

    t = (TypeObj *)type_new_builtin("_ssl.MemoryBIO", T_object, TID_ITER, TPF_DOTTED_NAME);
    VM_WRITE_RARE(t);
    t->flags |= TPF_HAS_DEL;
    t->tp_new = bio_new;
    type_add_methods(t, bio_methods);
    type_add_getset(t, "pending", bio_pending, NULL);
    type_add_getset(t, "eof", bio_eof, NULL);
    type_ready(t);
    T_bio = t;

    t = (TypeObj *)type_new_builtin("_ssl.Certificate", T_object, TID_ITER, TPF_DOTTED_NAME);
    VM_WRITE_RARE(t);
    t->flags |= TPF_HAS_DEL;
    t->tp_richcompare = certobj_richcompare;
    t->tp_hash = certobj_hash;
    t->tp_repr = certobj_repr;
    type_add_methods(t, cert_methods);
    type_ready(t);
    T_cert = t;

    t = (TypeObj *)type_new_builtin("_ssl.SSLSession", T_object, TID_ITER, TPF_DOTTED_NAME);
    VM_WRITE_RARE(t);
    t->flags |= TPF_HAS_DEL;
    t->tp_richcompare = session_richcompare;
    type_add_methods(t, session_methods);
    type_add_getset(t, "id", session_id, NULL);
    type_add_getset(t, "time", session_time, NULL);
    type_add_getset(t, "timeout", session_timeout, NULL);
    type_add_getset(t, "ticket_lifetime_hint", session_lifetime_hint, NULL);
    type_add_getset(t, "has_ticket", session_has_ticket, NULL);
    type_ready(t);
    T_session = t;

    E_ssl = exc_type("ssl.SSLError", E_OSError, sslerror_str);
    E_zero_return = exc_type("ssl.SSLZeroReturnError", E_ssl, NULL);
    E_want_read = exc_type("ssl.SSLWantReadError", E_ssl, NULL);
    E_want_write = exc_type("ssl.SSLWantWriteError", E_ssl, NULL);
    E_syscall = exc_type("ssl.SSLSyscallError", E_ssl, NULL);
    E_eof = exc_type("ssl.SSLEOFError", E_ssl, NULL);
}

/* OpenSSL's version number as CPython's 5-tuple (major, minor, fix, patch, status). */
static Obj version_info(unsigned long v)
{
    unsigned status = v & 0xF, patch = (v >> 4) & 0xFF, fix = (v >> 12) & 0xFF, minor = (v >> 20) & 0xFF,
             major = (v >> 28) & 0xFF;
    return tuple_pack(5, MAKE_SMALLINT(major), MAKE_SMALLINT(minor), MAKE_SMALLINT(fix), MAKE_SMALLINT(patch),
                      MAKE_SMALLINT(status));
}

static const struct { const char *name; long long value; } ssl_constants[] = {
    {"PROTOCOL_SSLv23", PROTO_TLS}, {"PROTOCOL_TLS", PROTO_TLS}, {"PROTOCOL_TLS_CLIENT", PROTO_TLS_CLIENT},
    {"PROTOCOL_TLS_SERVER", PROTO_TLS_SERVER}, {"PROTOCOL_TLSv1", PROTO_TLSv1}, {"PROTOCOL_TLSv1_1", PROTO_TLSv1_1},
    {"PROTOCOL_TLSv1_2", PROTO_TLSv1_2},
    {"PROTO_MINIMUM_SUPPORTED", -2}, {"PROTO_MAXIMUM_SUPPORTED", -1}, {"PROTO_SSLv3", SSL3_VERSION},
    {"PROTO_TLSv1", TLS1_VERSION}, {"PROTO_TLSv1_1", TLS1_1_VERSION}, {"PROTO_TLSv1_2", TLS1_2_VERSION},
    {"PROTO_TLSv1_3", TLS1_3_VERSION},
    {"CERT_NONE", CERT_NONE}, {"CERT_OPTIONAL", CERT_OPTIONAL}, {"CERT_REQUIRED", CERT_REQUIRED},
    {"OP_ALL", SSL_OP_ALL & ~SSL_OP_DONT_INSERT_EMPTY_FRAGMENTS}, {"OP_NO_SSLv2", SSL_OP_NO_SSLv2},
    {"OP_NO_SSLv3", SSL_OP_NO_SSLv3}, {"OP_NO_TLSv1", SSL_OP_NO_TLSv1}, {"OP_NO_TLSv1_1", SSL_OP_NO_TLSv1_1},
    {"OP_NO_TLSv1_2", SSL_OP_NO_TLSv1_2}, {"OP_NO_TLSv1_3", SSL_OP_NO_TLSv1_3},
    {"OP_CIPHER_SERVER_PREFERENCE", SSL_OP_CIPHER_SERVER_PREFERENCE}, {"OP_SINGLE_DH_USE", SSL_OP_SINGLE_DH_USE},
    {"OP_SINGLE_ECDH_USE", SSL_OP_SINGLE_ECDH_USE}, {"OP_NO_COMPRESSION", SSL_OP_NO_COMPRESSION},
    {"OP_ENABLE_MIDDLEBOX_COMPAT", SSL_OP_ENABLE_MIDDLEBOX_COMPAT}, {"OP_NO_TICKET", SSL_OP_NO_TICKET},
    {"OP_NO_RENEGOTIATION", SSL_OP_NO_RENEGOTIATION}, {"OP_IGNORE_UNEXPECTED_EOF", SSL_OP_IGNORE_UNEXPECTED_EOF},
    {"VERIFY_DEFAULT", 0}, {"VERIFY_CRL_CHECK_LEAF", X509_V_FLAG_CRL_CHECK},
    {"VERIFY_CRL_CHECK_CHAIN", X509_V_FLAG_CRL_CHECK | X509_V_FLAG_CRL_CHECK_ALL},
    {"VERIFY_X509_STRICT", X509_V_FLAG_X509_STRICT}, {"VERIFY_ALLOW_PROXY_CERTS", X509_V_FLAG_ALLOW_PROXY_CERTS},
    {"VERIFY_X509_TRUSTED_FIRST", X509_V_FLAG_TRUSTED_FIRST}, {"VERIFY_X509_PARTIAL_CHAIN", X509_V_FLAG_PARTIAL_CHAIN},
    {"HOSTFLAG_ALWAYS_CHECK_SUBJECT", X509_CHECK_FLAG_ALWAYS_CHECK_SUBJECT},
    {"HOSTFLAG_NEVER_CHECK_SUBJECT", X509_CHECK_FLAG_NEVER_CHECK_SUBJECT},
    {"HOSTFLAG_NO_WILDCARDS", X509_CHECK_FLAG_NO_WILDCARDS},
    {"HOSTFLAG_NO_PARTIAL_WILDCARDS", X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS},
    {"HOSTFLAG_MULTI_LABEL_WILDCARDS", X509_CHECK_FLAG_MULTI_LABEL_WILDCARDS},
    {"HOSTFLAG_SINGLE_LABEL_SUBDOMAINS", X509_CHECK_FLAG_SINGLE_LABEL_SUBDOMAINS},
    {"SSL_ERROR_ZERO_RETURN", SSL_ERROR_ZERO_RETURN}, {"SSL_ERROR_WANT_READ", SSL_ERROR_WANT_READ},
    {"SSL_ERROR_WANT_WRITE", SSL_ERROR_WANT_WRITE}, {"SSL_ERROR_WANT_X509_LOOKUP", SSL_ERROR_WANT_X509_LOOKUP},
    {"SSL_ERROR_SYSCALL", SSL_ERROR_SYSCALL}, {"SSL_ERROR_SSL", SSL_ERROR_SSL},
    {"SSL_ERROR_WANT_CONNECT", SSL_ERROR_WANT_CONNECT}, {"SSL_ERROR_EOF", ERR_EOF},
    {"SSL_ERROR_INVALID_ERROR_CODE", ERR_INVALID},
    {"ENCODING_PEM", 1}, {"ENCODING_DER", 2},
    {"ALERT_DESCRIPTION_CLOSE_NOTIFY", SSL_AD_CLOSE_NOTIFY},
    {"ALERT_DESCRIPTION_UNEXPECTED_MESSAGE", SSL_AD_UNEXPECTED_MESSAGE},
    {"ALERT_DESCRIPTION_BAD_RECORD_MAC", SSL_AD_BAD_RECORD_MAC},
    {"ALERT_DESCRIPTION_RECORD_OVERFLOW", SSL_AD_RECORD_OVERFLOW},
    {"ALERT_DESCRIPTION_DECOMPRESSION_FAILURE", SSL_AD_DECOMPRESSION_FAILURE},
    {"ALERT_DESCRIPTION_HANDSHAKE_FAILURE", SSL_AD_HANDSHAKE_FAILURE},
    {"ALERT_DESCRIPTION_BAD_CERTIFICATE", SSL_AD_BAD_CERTIFICATE},
    {"ALERT_DESCRIPTION_UNSUPPORTED_CERTIFICATE", SSL_AD_UNSUPPORTED_CERTIFICATE},
    {"ALERT_DESCRIPTION_CERTIFICATE_REVOKED", SSL_AD_CERTIFICATE_REVOKED},
    {"ALERT_DESCRIPTION_CERTIFICATE_EXPIRED", SSL_AD_CERTIFICATE_EXPIRED},
    {"ALERT_DESCRIPTION_CERTIFICATE_UNKNOWN", SSL_AD_CERTIFICATE_UNKNOWN},
    {"ALERT_DESCRIPTION_ILLEGAL_PARAMETER", SSL_AD_ILLEGAL_PARAMETER},
    {"ALERT_DESCRIPTION_UNKNOWN_CA", SSL_AD_UNKNOWN_CA},
    {"ALERT_DESCRIPTION_ACCESS_DENIED", SSL_AD_ACCESS_DENIED},
    {"ALERT_DESCRIPTION_DECODE_ERROR", SSL_AD_DECODE_ERROR},
    {"ALERT_DESCRIPTION_DECRYPT_ERROR", SSL_AD_DECRYPT_ERROR},
    {"ALERT_DESCRIPTION_PROTOCOL_VERSION", SSL_AD_PROTOCOL_VERSION},
    {"ALERT_DESCRIPTION_INSUFFICIENT_SECURITY", SSL_AD_INSUFFICIENT_SECURITY},
    {"ALERT_DESCRIPTION_INTERNAL_ERROR", SSL_AD_INTERNAL_ERROR},
    {"ALERT_DESCRIPTION_USER_CANCELLED", SSL_AD_USER_CANCELLED},
    {"ALERT_DESCRIPTION_NO_RENEGOTIATION", SSL_AD_NO_RENEGOTIATION},
    {"ALERT_DESCRIPTION_UNSUPPORTED_EXTENSION", SSL_AD_UNSUPPORTED_EXTENSION},
    {"ALERT_DESCRIPTION_CERTIFICATE_UNOBTAINABLE", SSL_AD_CERTIFICATE_UNOBTAINABLE},
    {"ALERT_DESCRIPTION_UNRECOGNIZED_NAME", SSL_AD_UNRECOGNIZED_NAME},
    {"ALERT_DESCRIPTION_BAD_CERTIFICATE_STATUS_RESPONSE", SSL_AD_BAD_CERTIFICATE_STATUS_RESPONSE},
    {"ALERT_DESCRIPTION_BAD_CERTIFICATE_HASH_VALUE", SSL_AD_BAD_CERTIFICATE_HASH_VALUE},
    {"ALERT_DESCRIPTION_UNKNOWN_PSK_IDENTITY", SSL_AD_UNKNOWN_PSK_IDENTITY},
};

static const struct { const char *name; bool value; } ssl_flags[] = {
    {"HAS_SNI", true}, {"HAS_ECDH", true}, {"HAS_NPN", false}, {"HAS_ALPN", true}, {"HAS_SSLv2", false},
    {"HAS_SSLv3", false}, {"HAS_TLSv1", true}, {"HAS_TLSv1_1", true}, {"HAS_TLSv1_2", true},
    {"HAS_TLSv1_3", true}, {"HAS_TLS_UNIQUE", true},
};

/* err_codes_to_names / err_names_to_codes for the reasons CPython's own
 * tests and callers look up; lib_codes_to_names complete. */
static const struct { int lib, reason; const char *name; } err_names[] = {
    {ERR_LIB_SSL, SSL_R_CERTIFICATE_VERIFY_FAILED, "CERTIFICATE_VERIFY_FAILED"},
    {ERR_LIB_SSL, SSL_R_UNEXPECTED_EOF_WHILE_READING, "UNEXPECTED_EOF_WHILE_READING"},
    {ERR_LIB_SSL, SSL_R_WRONG_VERSION_NUMBER, "WRONG_VERSION_NUMBER"},
    {ERR_LIB_SSL, SSL_R_NO_SHARED_CIPHER, "NO_SHARED_CIPHER"},
    {ERR_LIB_SSL, SSL_R_TLSV1_ALERT_UNKNOWN_CA, "TLSV1_ALERT_UNKNOWN_CA"},
    {ERR_LIB_SSL, SSL_R_SSLV3_ALERT_BAD_CERTIFICATE, "SSLV3_ALERT_BAD_CERTIFICATE"},
    {ERR_LIB_SSL, SSL_R_SSLV3_ALERT_HANDSHAKE_FAILURE, "SSLV3_ALERT_HANDSHAKE_FAILURE"},
    {ERR_LIB_SSL, SSL_R_UNSUPPORTED_PROTOCOL, "UNSUPPORTED_PROTOCOL"},
    {ERR_LIB_SSL, SSL_R_NO_PROTOCOLS_AVAILABLE, "NO_PROTOCOLS_AVAILABLE"},
    {ERR_LIB_SSL, SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE, "PEER_DID_NOT_RETURN_A_CERTIFICATE"},
    {ERR_LIB_X509, X509_R_KEY_VALUES_MISMATCH, "KEY_VALUES_MISMATCH"},
    {ERR_LIB_X509, X509_R_CERT_ALREADY_IN_HASH_TABLE, "CERT_ALREADY_IN_HASH_TABLE"},
    {ERR_LIB_PEM, PEM_R_NO_START_LINE, "NO_START_LINE"},
    {ERR_LIB_PEM, PEM_R_BAD_DECRYPT, "BAD_DECRYPT"},
};

static int add_error_tables(Obj *modp)
{
    Obj *r = vm_roots(5);
    int rc = -1;
    r[0] = dict_new();   /* err_codes_to_names */
    r[1] = r[0] ? dict_new() : NULL;   /* err_names_to_codes */
    r[2] = r[1] ? dict_new() : NULL;   /* lib_codes_to_names */
    if (!r[2])
        goto out;
    for (size_t i = 0; i < ARRAY_LEN(err_names); i++) {
        r[3] = tuple_pack(2, MAKE_SMALLINT(err_names[i].lib), MAKE_SMALLINT(err_names[i].reason));
        r[4] = r[3] ? str_from_cstr(err_names[i].name) : NULL;
        if (!r[4] || dict_setitem(r[0], r[3], r[4]) < 0 || dict_setitem(r[1], r[4], r[3]) < 0)
            goto out;
    }
    for (size_t i = 0; i < ARRAY_LEN(lib_names); i++) {
        r[4] = str_from_cstr(lib_names[i].name);
        if (!r[4] || dict_setitem(r[2], MAKE_SMALLINT(lib_names[i].code), r[4]) < 0)
            goto out;
    }
    if (module_add(*modp, "err_codes_to_names", r[0]) < 0 || module_add(*modp, "err_names_to_codes", r[1]) < 0 ||
        module_add(*modp, "lib_codes_to_names", r[2]) < 0)
        goto out;
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

Obj ssl_module_init(void)
{
    vm_tx_become_inevitable();   /* C globals */
    ssl_make_types();
    Obj *r = vm_roots(4);
    Obj res = NULL;
    if (!g_cert_verify_error) {
        r[0] = str_from_cstr("SSLCertVerificationError");
        r[1] = r[0] ? tuple_pack(2, (Obj)E_ssl, (Obj)E_ValueError) : NULL;
        r[2] = r[1] ? dict_new() : NULL;
        if (!r[2] || !(r[3] = str_from_cstr("ssl")) || dict_setitem_cstr(r[2], "__module__", r[3]) < 0)
            goto out;
        r[3] = str_from_cstr("A certificate could not be verified.");
        if (!r[3] || dict_setitem_cstr(r[2], "__doc__", r[3]) < 0)
            goto out;
        Obj t = vm_call3((Obj)T_type, r[0], r[1], r[2]);
        if (!t)
            goto out;
        g_cert_verify_error = t;
    }
    r[0] = module_new("_ssl");
    if (!r[0])
        goto out;
    module_add_functions(r[0], ssl_functions);
    struct { const char *name; Obj v; } objs[] = {
        {"_SSLContext", (Obj)T_ctx}, {"_SSLSocket", (Obj)T_sslsock}, {"MemoryBIO", (Obj)T_bio},
        {"SSLSession", (Obj)T_session}, {"Certificate", (Obj)T_cert}, {"SSLError", (Obj)E_ssl}, {"SSLZeroReturnError", (Obj)E_zero_return},
        {"SSLWantReadError", (Obj)E_want_read}, {"SSLWantWriteError", (Obj)E_want_write},
        {"SSLSyscallError", (Obj)E_syscall}, {"SSLEOFError", (Obj)E_eof},
        {"SSLCertVerificationError", g_cert_verify_error},
    };
    for (size_t i = 0; i < ARRAY_LEN(objs); i++)
        if (module_add(r[0], objs[i].name, objs[i].v) < 0)
            goto out;
    for (size_t i = 0; i < ARRAY_LEN(ssl_constants); i++) {
        r[1] = int_from_i64(ssl_constants[i].value);
        if (!r[1] || module_add(r[0], ssl_constants[i].name, r[1]) < 0)
            goto out;
    }
    for (size_t i = 0; i < ARRAY_LEN(ssl_flags); i++)
        if (module_add(r[0], ssl_flags[i].name, vm_bool(ssl_flags[i].value)) < 0)
            goto out;
    r[1] = str_from_cstr(OpenSSL_version(OPENSSL_VERSION));
    if (!r[1] || module_add(r[0], "OPENSSL_VERSION", r[1]) < 0)
        goto out;
    r[1] = int_from_u64(OpenSSL_version_num());
    if (!r[1] || module_add(r[0], "OPENSSL_VERSION_NUMBER", r[1]) < 0)
        goto out;
    r[1] = version_info(OpenSSL_version_num());
    if (!r[1] || module_add(r[0], "OPENSSL_VERSION_INFO", r[1]) < 0)
        goto out;
    r[1] = version_info(OPENSSL_VERSION_NUMBER);
    if (!r[1] || module_add(r[0], "_OPENSSL_API_VERSION", r[1]) < 0)
        goto out;
    r[1] = str_from_cstr(DEFAULT_CIPHERS);
    if (!r[1] || module_add(r[0], "_DEFAULT_CIPHERS", r[1]) < 0)
        goto out;
    if (add_error_tables(&r[0]) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
