/* The marshal module: dumps/loads/dump/load of the value types CPython
 * marshals (None, bools, ints of any size, floats, complex, str, bytes and
 * other buffers, tuple, list, dict, set, frozenset, Ellipsis,
 * StopIteration) in CPython's format, versions 0 to 4 (4: references with
 * FLAG_REF, short tuples and short ASCII strings). Written from the format
 * as CPython's documentation and data describe it.
 *
 * Not built: code objects (tmpy's code objects are not CPython's: dumps
 * raises ValueError "unmarshallable object", loads of a 'c' record
 * "bad marshal data (unknown type code)"). Where CPython's output depends on
 * reference counts and interning, tmpy's follows a rule: at version >= 3
 * every object but the singletons gets FLAG_REF and a second occurrence of
 * the same object (small ints by value) is a reference, and a str written
 * as ASCII counts as interned when it looks like an identifier (CPython's
 * compiler interns those constants). The bytes then match CPython's for
 * constants; loads reads all of CPython's output. */
#include "modules.h"
#include "compiler/compile.h"
#include "objects/containers.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MARSHAL_VERSION 4
#define MAX_DEPTH 2000
#define FLAG_REF 0x80
#define TYPE_TMPY_CODE 'K'   /* not one of CPython's type codes */
#define CODE_NSCALARS 11

/* ---- writing ---- */

typedef struct {
    StrBuf out;
    int version;
    int depth;
    Obj *refs;       /* root slot: dict object key -> index (version >= 3) */
    bool error;
} Writer;

static void w_byte(Writer *w, int c) { sb_addc(&w->out, (char)c); }
static void w_long(Writer *w, int64_t x)
{
    char b[4] = {(char)(x & 0xff), (char)((x >> 8) & 0xff), (char)((x >> 16) & 0xff), (char)((x >> 24) & 0xff)};
    sb_add(&w->out, b, 4);
}
static void w_double(Writer *w, double d)
{
    unsigned char b[8];
    memcpy(b, &d, 8);   /* x86-64 is little-endian, as the format */
    sb_add(&w->out, (const char *)b, 8);
}
static void w_pstring(Writer *w, const char *p, int64_t n)
{
    w_long(w, n);
    sb_add(&w->out, p, (size_t)n);
}

static void w_float_text(Writer *w, double d)
{
    char buf[64];
    if (isnan(d))
        snprintf(buf, sizeof buf, "nan");
    else if (isinf(d))
        snprintf(buf, sizeof buf, d > 0 ? "inf" : "-inf");
    else
        snprintf(buf, sizeof buf, "%.17g", d);
    size_t n = strlen(buf);
    w_byte(w, (int)n);
    sb_add(&w->out, buf, n);
}

/* An int too big for TYPE_INT: sign and magnitude in 15-bit digits. */
static void w_bigint(Writer *w, Obj v, int flag)
{
    w_byte(w, 'l' | flag);
    uint64_t mag[2];
    const uint64_t __seg_gs *limbs;
    int64_t nlimbs, sign;
    if (IS_SMALLINT(v)) {
        int64_t x = SMALLINT_VAL(v);
        sign = x < 0 ? -1 : 1;
        mag[0] = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
        nlimbs = 1;
        limbs = NULL;
    } else {
        BigIntObj *b = (BigIntObj *)v;
        sign = b->sign;
        nlimbs = (int64_t)b->nlimbs;
        limbs = b->limbs;
    }
    int64_t bits = 64 * nlimbs;
#define LIMB(i) (limbs ? limbs[i] : mag[i])
    while (bits > 0 && !(LIMB((bits - 1) / 64) >> ((bits - 1) % 64) & 1))
        bits--;
    int64_t ndigits = (bits + 14) / 15;
    w_long(w, sign < 0 ? -ndigits : ndigits);
    for (int64_t d = 0; d < ndigits; d++) {
        unsigned digit = 0;
        for (int k = 0; k < 15; k++) {
            int64_t bit = d * 15 + k;
            if (bit < bits && (LIMB(bit / 64) >> (bit % 64) & 1))
                digit |= 1u << k;
        }
        char b[2] = {(char)(digit & 0xff), (char)(digit >> 8)};
        sb_add(&w->out, b, 2);
    }
#undef LIMB
}

static bool looks_interned(const char *p, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    }
    return true;
}

static int w_object(Writer *w, Obj v);

/* 1: written as a reference; 0: go on (*flag says whether to set FLAG_REF);
 * -1: error. */
static int w_ref(Writer *w, Obj *vp, int *flag)
{
    if (w->version < 3)
        return 0;
    Obj *r = vm_roots(2);
    int rc = -1;
    uint64_t key = IS_SMALLINT(*vp) ? (uint64_t)(uintptr_t)*vp : vm_object_id_slot(vp);
    r[0] = int_from_u64(key);
    if (!r[0])
        goto out;
    Obj idx = dict_getitem(*w->refs, r[0]);
    if (idx) {
        w_byte(w, 'r');
        w_long(w, SMALLINT_VAL(idx));
        rc = 1;
        goto out;
    }
    if (err_occurred())
        goto out;
    r[1] = int_from_i64(dict_len(*w->refs));
    if (!r[1] || dict_setitem(*w->refs, r[0], r[1]) < 0)
        goto out;
    *flag = FLAG_REF;
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

static int w_items(Writer *w, Obj *seqp, bool is_list)
{
    for (int64_t i = 0;; i++) {
        int64_t n = is_list ? LIST_LEN(*seqp) : TUPLE_LEN(*seqp);
        if (i >= n)
            return 0;
        Obj item = is_list ? LIST_ITEMS(*seqp)[i] : TUPLE_ITEMS(*seqp)[i];
        if (w_object(w, item) < 0)
            return -1;
    }
}

/* A code object, in tmpy's own layout (TYPE_TMPY_CODE): CPython's 'c'
 * records hold CPython bytecode, which tmpy cannot run, so they stay
 * "unknown type code" here. Scalars, the instruction words, the line and
 * position tables, then the objects. */
static int w_code(Writer *w, Obj *vp, int flag)
{
    CodeObj *co = (CodeObj *)*vp;   /* pinned: the pointer stays valid */
    w_byte(w, TYPE_TMPY_CODE | flag);
    w_long(w, (int32_t)code_bytecode_fingerprint());
    int32_t scalars[] = {co->argcount, co->posonlyargcount, co->kwonlyargcount, co->nlocals, co->ncellvars,
                         co->nfreevars, co->stacksize, co->flags, co->firstlineno, co->ncaches,
                         co->cell2arg_count};
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
        w_long(w, scalars[i]);
    for (int i = 0; i < 16; i++)
        w_long(w, co->cell2arg[i]);
    w_long(w, (int64_t)co->ninstr);
    for (uint64_t i = 0; i < co->ninstr; i++)
        w_long(w, (int64_t)co->code[i]);
    Obj tables[2] = {co->lines, co->positions};
    for (int t = 0; t < 2; t++) {
        if (!tables[t]) {
            w_byte(w, 0);
            continue;
        }
        RawObj *raw = RAW(tables[t]);
        w_byte(w, 1);
        w_pstring(w, (const char *)VM_LINEAR(raw->data), raw->length);
    }
    /* w_object allocates: each field is read again from the pinned code */
    for (int f = 0; f < 6; f++) {
        co = (CodeObj *)*vp;
        Obj v = f == 0 ? co->consts : f == 1 ? co->names : f == 2 ? co->localsplus
              : f == 3 ? co->name : f == 4 ? co->qualname : co->filename;
        if (w_object(w, v) < 0)
            return -1;
    }
    return 0;
}

static int w_complex_object(Writer *w, Obj *vp, int flag)
{
    Obj v = *vp;
    TypeObj *t = TYPE(v);
    if (t == T_int) {
        int64_t x;
        if (IS_SMALLINT(v) && (x = SMALLINT_VAL(v)) >= INT32_MIN && x <= INT32_MAX) {
            w_byte(w, 'i' | flag);
            w_long(w, x);
        } else {
            w_bigint(w, v, flag);
        }
        return 0;
    }
    if (t == T_float) {
        if (w->version > 1) {
            w_byte(w, 'g' | flag);
            w_double(w, FLOAT_VAL(v));
        } else {
            w_byte(w, 'f' | flag);
            w_float_text(w, FLOAT_VAL(v));
        }
        return 0;
    }
    if (t == T_complex) {
        if (w->version > 1) {
            w_byte(w, 'y' | flag);
            w_double(w, COMPLEX_REAL(v));
            w_double(w, COMPLEX_IMAG(v));
        } else {
            w_byte(w, 'x' | flag);
            w_float_text(w, COMPLEX_REAL(v));
            w_float_text(w, COMPLEX_IMAG(v));
        }
        return 0;
    }
    if (t == T_str) {
        const char *p = str_cstr(v);
        int64_t n = STR(v)->nbytes;
        if (w->version >= 4 && str_is_ascii(v)) {
            bool interned = looks_interned(p, n);
            if (n < 256) {
                w_byte(w, (interned ? 'Z' : 'z') | flag);
                w_byte(w, (int)n);
                sb_add(&w->out, p, (size_t)n);
            } else {
                w_byte(w, (interned ? 'A' : 'a') | flag);
                w_pstring(w, p, n);
            }
        } else {
            /* str's UTF-8 keeps lone surrogates as their 3-byte form: the surrogatepass encoding */
            w_byte(w, (w->version >= 3 && str_is_ascii(v) && looks_interned(p, n) ? 't' : 'u') | flag);
            w_pstring(w, p, n);
        }
        return 0;
    }
    if (t == T_tuple) {
        int64_t n = TUPLE_LEN(v);
        if (w->version >= 4 && n < 256) {
            w_byte(w, ')' | flag);
            w_byte(w, (int)n);
        } else {
            w_byte(w, '(' | flag);
            w_long(w, n);
        }
        return w_items(w, vp, false);
    }
    if (t == T_list) {
        w_byte(w, '[' | flag);
        w_long(w, LIST_LEN(v));
        return w_items(w, vp, true);
    }
    if (t == T_dict) {
        w_byte(w, '{' | flag);
        Obj *r = vm_roots(2);
        int64_t pos = 0;
        Obj k, val;
        int rc = 0;
        while (dict_next(*vp, &pos, &k, &val)) {
            r[0] = k;
            r[1] = val;
            if (w_object(w, r[0]) < 0 || w_object(w, r[1]) < 0) {
                rc = -1;
                break;
            }
        }
        vm_unroots(r);
        w_byte(w, '0');
        return rc;
    }
    if (t == T_set || t == T_frozenset) {
        w_byte(w, (t == T_set ? '<' : '>') | flag);
        Obj *r = vm_roots(1);
        r[0] = vm_list_from_iter(*vp);
        int rc = -1;
        if (r[0]) {
            w_long(w, LIST_LEN(r[0]));
            rc = w_items(w, &r[0], true);
        }
        vm_unroots(r);
        return rc;
    }
    if (t == T_code)
        return w_code(w, vp, flag);
    const char *p;
    int64_t n;
    if (bytes_like(v, &p, &n)) {   /* bytes, and any other buffer, as bytes */
        w_byte(w, 's' | flag);
        w_pstring(w, p, n);
        return 0;
    }
    err_set(E_ValueError, "unmarshallable object");
    return -1;
}

static int w_object(Writer *w, Obj v)
{
    if (sb_failed(&w->out)) {
        err_nomemory();
        return -1;
    }
    if (++w->depth > MAX_DEPTH) {
        w->depth--;
        err_set(E_ValueError, "object too deeply nested to marshal");
        return -1;
    }
    int rc = 0;
    if (v == g_None)
        w_byte(w, 'N');
    else if (v == (Obj)E_StopIteration)
        w_byte(w, 'S');
    else if (v == g_Ellipsis)
        w_byte(w, '.');
    else if (v == g_False)
        w_byte(w, 'F');
    else if (v == g_True)
        w_byte(w, 'T');
    else {
        Obj *r = vm_roots(1);
        r[0] = v;
        int flag = 0;
        /* a buffer that is not bytes (bytearray, memoryview) is written as bytes and never
         * referenced: CPython sees such arguments with a reference count of 1 */
        unsigned tid = TID(v);
        bool plain_buffer = tid == TID_BYTEARRAY || tid == TID_MEMORYVIEW;
        rc = plain_buffer ? 0 : w_ref(w, &r[0], &flag);
        if (rc == 0)
            rc = w_complex_object(w, &r[0], flag);
        else if (rc == 1)
            rc = 0;
        vm_unroots(r);
    }
    w->depth--;
    return rc;
}

static Obj do_dumps(Obj value, int version)
{
    Writer w = {.version = version};
    sb_init(&w.out);
    Obj *r = vm_roots(2);
    r[0] = value;
    Obj res = NULL;
    if (version >= 3) {
        r[1] = dict_new();
        if (!r[1])
            goto out;
    }
    w.refs = &r[1];
    if (w_object(&w, r[0]) < 0)
        goto out;
    if (sb_failed(&w.out)) {
        err_nomemory();
        goto out;
    }
    res = bytes_new(w.out.p ? w.out.p : "", w.out.len);
out:
    sb_free(&w.out);
    vm_unroots(r);
    return res;
}

static int version_arg(Obj v, int *out)
{
    int64_t x;
    if (arg_c_int(v, &x) < 0)
        return -1;
    *out = (int)x;
    return 0;
}

static Obj m_dumps(Obj *args, size_t nargs, Obj kwnames)
{
    int version = MARSHAL_VERSION;
    if (nargs > 1 && version_arg(args[1], &version) < 0)
        return NULL;
    return do_dumps(args[0], version);
}

static Obj m_dump(Obj *args, size_t nargs, Obj kwnames)
{
    int version = MARSHAL_VERSION;
    if (nargs > 2 && version_arg(args[2], &version) < 0)
        return NULL;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = args[1];
    r[1] = do_dumps(args[0], version);
    if (r[1] && vm_call_method1(r[0], "write", r[1]))
        res = g_None;
    vm_unroots(r);
    return res;
}

/* ---- reading ---- */

typedef struct {
    const unsigned char *p;   /* C copy of the input (loads) */
    int64_t pos, len;
    Obj *file;                /* root slot: the file of load(), or NULL */
    unsigned char *fbuf;      /* the last piece read from the file */
    int depth;
    Obj *refs;                /* root slot: list of the objects with FLAG_REF */
} Reader;

/* n bytes of input (valid until the next read); NULL with EOFError. */
static const unsigned char *r_bytes(Reader *rd, int64_t n)
{
    if (!rd->file) {
        if (n > rd->len - rd->pos) {
            err_set(E_EOFError, "marshal data too short");
            return NULL;
        }
        const unsigned char *q = rd->p + rd->pos;
        rd->pos += n;
        return q;
    }
    Obj *r = vm_roots(1);
    const unsigned char *q = NULL;
    r[0] = vm_call_method1(*rd->file, "read", int_from_i64(n));
    if (r[0]) {
        const char *p;
        int64_t got;
        if (!bytes_like(r[0], &p, &got)) {
            err_format(E_TypeError, "file.read() returned not bytes but %s", type_name(r[0]));
        } else if (got != n) {
            err_set(E_EOFError, "EOF read where not expected");
        } else {
            free(rd->fbuf);
            rd->fbuf = malloc(n ? (size_t)n : 1);
            if (!rd->fbuf) {
                err_nomemory();
            } else {
                memcpy(rd->fbuf, p, (size_t)n);
                q = rd->fbuf;
            }
        }
    }
    vm_unroots(r);
    return q;
}

static int r_long(Reader *rd, int64_t *out)
{
    const unsigned char *q = r_bytes(rd, 4);
    if (!q)
        return -1;
    *out = (int32_t)((uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24);
    return 0;
}

static int r_double(Reader *rd, double *out)
{
    const unsigned char *q = r_bytes(rd, 8);
    if (!q)
        return -1;
    memcpy(out, q, 8);
    return 0;
}

static int r_float_text(Reader *rd, double *out)
{
    const unsigned char *q = r_bytes(rd, 1);
    if (!q)
        return -1;
    int n = q[0];
    q = r_bytes(rd, n);
    if (!q)
        return -1;
    char buf[257];
    memcpy(buf, q, (size_t)n);
    buf[n] = 0;
    Obj s = str_new(buf, (size_t)n);
    Obj f = s ? float_parse_object(s) : NULL;
    if (!f)
        return -1;
    *out = FLOAT_VAL(f);
    return 0;
}

static Obj bad_data(const char *what)
{
    char msg[128];
    snprintf(msg, sizeof msg, "bad marshal data (%s)", what);
    err_set(E_ValueError, msg);
    return NULL;
}

static Obj r_object(Reader *rd);

/* An int from n 15-bit digits (negative n: negative). */
static Obj r_bigint(Reader *rd)
{
    int64_t n;
    if (r_long(rd, &n) < 0)
        return NULL;
    bool neg = n < 0;
    if (neg)
        n = -n;
    if (n > (int64_t)(vm_max_object_size() / 2))
        return bad_data("long size out of range");
    const unsigned char *q = r_bytes(rd, 2 * n);
    if (!q)
        return NULL;
    /* digits to hexadecimal text (most significant first) for int() */
    int64_t bits = 15 * n;
    int64_t nhex = (bits + 3) / 4;
    char *hex = malloc((size_t)nhex + 2);
    if (!hex)
        return err_nomemory();
    for (int64_t d = 0; d < n; d++) {
        unsigned digit = (unsigned)q[2 * d] | (unsigned)q[2 * d + 1] << 8;
        if (digit > 0x7fff || (d == n - 1 && digit == 0)) {
            free(hex);
            return bad_data("digit out of range in long");
        }
    }
    for (int64_t h = 0; h < nhex; h++) {
        unsigned nib = 0;
        for (int k = 0; k < 4; k++) {
            int64_t bit = h * 4 + k;
            if (bit < bits) {
                int64_t d = bit / 15;
                unsigned digit = (unsigned)q[2 * d] | (unsigned)q[2 * d + 1] << 8;
                if (digit >> (bit % 15) & 1)
                    nib |= 1u << k;
            }
        }
        hex[nhex - 1 - h] = "0123456789abcdef"[nib];
    }
    Obj v = nhex ? int_from_string(hex, (size_t)nhex, 16) : MAKE_SMALLINT(0);
    free(hex);
    if (v && neg)
        v = int_neg(v);
    return v;
}

/* Register an object read with FLAG_REF (at index `slot`, reserved before
 * its items were read when `slot` >= 0). */
static int r_ref_reserve(Reader *rd)
{
    int64_t idx = LIST_LEN(*rd->refs);
    if (list_append(*rd->refs, g_None) < 0)
        return -1;
    return (int)idx;
}

static Obj r_ref_set(Reader *rd, int64_t idx, Obj v)
{
    if (!v)
        return NULL;
    Obj *r = vm_roots(1);
    r[0] = v;
    if (vm_setitem(*rd->refs, MAKE_SMALLINT(idx), r[0]) < 0)
        r[0] = NULL;
    v = r[0];
    vm_unroots(r);
    return v;
}

static Obj r_string_kind(Reader *rd, int64_t n, int code)
{
    if (n < 0 || n > (int64_t)vm_max_object_size())
        return bad_data(code == 's' ? "bytes object size out of range" : "string size out of range");
    const unsigned char *q = r_bytes(rd, n);
    if (!q)
        return NULL;
    if (code == 's')
        return bytes_new((const char *)q, (size_t)n);
    /* text: UTF-8 with surrogates allowed (surrogatepass), as str keeps it */
    Obj b = bytes_new((const char *)q, (size_t)n);
    if (!b)
        return NULL;
    Obj s = bytes_decode(b, "utf-8", "surrogatepass");
    if (s && (code == 't' || code == 'A' || code == 'Z'))
        s = str_intern(s);
    return s;
}

/* Items appended one by one to the list in *seqp: a size read from
 * corrupt data costs nothing until items are really there. */
static Obj r_sequence_items(Reader *rd, Obj *seqp, int64_t n, bool is_list)
{
    for (int64_t i = 0; i < n; i++) {
        Obj item = r_object(rd);
        if (!item) {
            if (!err_occurred())
                bad_data(is_list ? "NULL object in marshal data for list" : "NULL object in marshal data for tuple");
            return NULL;
        }
        if (list_append(*seqp, item) < 0)
            return NULL;
    }
    return *seqp;
}

/* A RawObj of a table written by w_code (a byte 0: none). */
static int r_table(Reader *rd, Obj *out)
{
    const unsigned char *q = r_bytes(rd, 1);
    if (!q)
        return -1;
    if (q[0] == 0) {
        *out = NULL;
        return 0;
    }
    int64_t n;
    if (q[0] != 1) {
        bad_data("bad code object table");
        return -1;
    }
    if (r_long(rd, &n) < 0)
        return -1;
    if (n < 0 || n > (int64_t)vm_max_object_size()) {
        bad_data("bytes object size out of range");
        return -1;
    }
    if (!rd->file && n > rd->len - rd->pos) {   /* before allocating n bytes */
        err_set(E_EOFError, "marshal data too short");
        return -1;
    }
    /* read first (a file's read() runs Python code, which may commit): the
     * raw is then new, written without a barrier; q is C memory */
    if (!(q = r_bytes(rd, n)) || !(*out = raw_new(n)))
        return -1;
    memcpy(VM_LINEAR(RAW(*out)->data), q, (size_t)n);
    return 0;
}

static bool is_str_tuple(Obj t)
{
    if (TYPE(t) != T_tuple)
        return false;
    for (int64_t i = 0; i < TUPLE_LEN(t); i++)
        if (TYPE(TUPLE_ITEMS(t)[i]) != T_str)
            return false;
    return true;
}

/* The strs of a tuple of names interned in place (the compiler interns them;
 * data written at version < 3 has them plain): 0 or -1. */
static int intern_items(Obj *tp)
{
    for (int64_t i = 0; i < TUPLE_LEN(*tp); i++) {
        Obj v = str_intern(TUPLE_ITEMS(*tp)[i]);
        if (!v)
            return -1;
        VM_WRITE(*tp);
        TUPLE_ITEMS(*tp)[i] = v;
    }
    return 0;
}

/* A TYPE_TMPY_CODE record (see w_code). The counts are checked against
 * each other and the tables so that the eval loop's indexing of locals,
 * cells and line tables stays in bounds; the instruction words are taken
 * as written (as CPython takes its bytecode). */
static Obj r_code(Reader *rd)
{
    enum { C_LINES, C_POSITIONS, C_CONSTS, C_NAMES, C_LOCALSPLUS, C_NAME, C_QUALNAME, C_FILENAME, C_CACHE,
           C_CODE, C_N };
    int64_t fingerprint;
    if (r_long(rd, &fingerprint) < 0)
        return NULL;
    if ((uint32_t)fingerprint != code_bytecode_fingerprint())
        return bad_data("code object of another tmpy bytecode");
    const unsigned char *q;
    int64_t sc[CODE_NSCALARS], c2a[16], ninstr;
    for (int i = 0; i < CODE_NSCALARS; i++)
        if (r_long(rd, &sc[i]) < 0)
            return NULL;
    for (int i = 0; i < 16; i++)
        if (r_long(rd, &c2a[i]) < 0)
            return NULL;
    if (r_long(rd, &ninstr) < 0)
        return NULL;
    int64_t argc = sc[0], posonly = sc[1], kwonly = sc[2], nlocals = sc[3], ncell = sc[4], nfree = sc[5];
    int64_t ncaches = sc[9], nc2a = sc[10];
    bool ok = ninstr >= 0 && argc >= 0 && posonly >= 0 && posonly <= argc && kwonly >= 0 && nlocals >= 0
              && ncell >= 0 && nfree >= 0 && sc[6] >= 0 && ncaches >= 0 && ncaches <= ninstr && nc2a >= 0
              && nc2a <= 16 && nc2a <= ncell && argc + kwonly + !!(sc[7] & CO_VARARGS)
                                                   + !!(sc[7] & CO_VARKEYWORDS) <= nlocals;
    for (int i = 0; ok && i < 16; i++)
        ok = i < nc2a ? c2a[i] >= 0 && c2a[i] < nlocals : c2a[i] == -1;
    if (!ok)
        return bad_data("bad code object");
    if (!rd->file && ninstr > (rd->len - rd->pos) / 4) {   /* before allocating the words */
        err_set(E_EOFError, "marshal data too short");
        return NULL;
    }
    Obj *r = vm_roots(C_N);
    Obj res = NULL;
    if (!(r[C_CODE] = code_new((int32_t)ninstr)))
        goto out;
    if (!(q = r_bytes(rd, 4 * ninstr)))
        goto out;
    CodeObj *co = (CodeObj *)r[C_CODE];
    VM_WRITE(r[C_CODE]);
    for (int64_t i = 0; i < ninstr; i++)
        co->code[i] = (uint32_t)q[4 * i] | (uint32_t)q[4 * i + 1] << 8 | (uint32_t)q[4 * i + 2] << 16
                      | (uint32_t)q[4 * i + 3] << 24;
    if (r_table(rd, &r[C_LINES]) < 0 || r_table(rd, &r[C_POSITIONS]) < 0)
        goto out;
    for (int f = C_CONSTS; f <= C_FILENAME; f++) {
        if (!(r[f] = r_object(rd))) {
            if (!err_occurred())
                bad_data("NULL object in marshal data for code");
            goto out;
        }
    }
    if (!r[C_LINES] || RAW(r[C_LINES])->length != 4 * ninstr || TYPE(r[C_CONSTS]) != T_tuple
        || !is_str_tuple(r[C_NAMES]) || !is_str_tuple(r[C_LOCALSPLUS])
        || TUPLE_LEN(r[C_LOCALSPLUS]) != nlocals + ncell + nfree || TYPE(r[C_NAME]) != T_str
        || TYPE(r[C_QUALNAME]) != T_str || TYPE(r[C_FILENAME]) != T_str) {
        bad_data("bad code object");
        goto out;
    }
    if (intern_items(&r[C_NAMES]) < 0 || intern_items(&r[C_LOCALSPLUS]) < 0 || !(r[C_NAME] = str_intern(r[C_NAME])))
        goto out;
    if (!(r[C_CACHE] = raw_new(ncaches * CACHE_ENTRY_SIZE)))
        goto out;
    /* nothing below allocates */
    co = (CodeObj *)r[C_CODE];
    VM_WRITE(r[C_CODE]);
    co->consts = r[C_CONSTS];
    co->names = r[C_NAMES];
    co->localsplus = r[C_LOCALSPLUS];
    co->name = r[C_NAME];
    co->qualname = r[C_QUALNAME];
    co->filename = r[C_FILENAME];
    co->lines = r[C_LINES];
    co->positions = r[C_POSITIONS];
    co->cache = r[C_CACHE];
    co->argcount = (int32_t)argc;
    co->posonlyargcount = (int32_t)posonly;
    co->kwonlyargcount = (int32_t)kwonly;
    co->nlocals = (int32_t)nlocals;
    co->ncellvars = (int32_t)ncell;
    co->nfreevars = (int32_t)nfree;
    co->stacksize = (int32_t)sc[6];
    co->flags = (int32_t)sc[7];
    co->firstlineno = (int32_t)sc[8];
    co->ncaches = (int32_t)ncaches;
    co->reserved_ = 0;
    co->cell2arg_count = (int32_t)nc2a;
    for (int i = 0; i < 16; i++)
        co->cell2arg[i] = (int16_t)c2a[i];
    res = r[C_CODE];
out:
    vm_unroots(r);
    return res;
}

static Obj r_object_inner(Reader *rd, int code, int flag)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    int64_t idx = -1;
    int64_t n = 0;
    double d1, d2;
    switch (code) {
    case '0':
        /* NULL: ends a dict; elsewhere an error the caller reports */
        break;
    case 'N': res = g_None; break;
    case 'F': res = g_False; break;
    case 'T': res = g_True; break;
    case 'S': res = (Obj)E_StopIteration; break;
    case '.': res = g_Ellipsis; break;
    case 'i':
        if (r_long(rd, &n) == 0)
            res = int_from_i64(n);
        break;
    case 'l': res = r_bigint(rd); break;
    case 'g':
        if (r_double(rd, &d1) == 0)
            res = float_new(d1);
        break;
    case 'f':
        if (r_float_text(rd, &d1) == 0)
            res = float_new(d1);
        break;
    case 'y':
        if (r_double(rd, &d1) == 0 && r_double(rd, &d2) == 0)
            res = complex_new(d1, d2);
        break;
    case 'x':
        if (r_float_text(rd, &d1) == 0 && r_float_text(rd, &d2) == 0)
            res = complex_new(d1, d2);
        break;
    case 's': case 'u': case 't': case 'a': case 'A':
        if (r_long(rd, &n) == 0)
            res = r_string_kind(rd, n, code == 'a' ? 'u' : code);
        break;
    case 'z': case 'Z': {
        const unsigned char *q = r_bytes(rd, 1);
        if (q)
            res = r_string_kind(rd, q[0], code == 'z' ? 'u' : 'Z');
        break;
    }
    case ')': case '(': case '[': case '<': case '>': case '{': {
        if (code == ')') {
            const unsigned char *q = r_bytes(rd, 1);
            if (!q)
                break;
            n = q[0];
        } else if (code != '{' && r_long(rd, &n) < 0) {
            break;
        }
        if (code != '{' && n < 0) {
            bad_data(code == '[' ? "list size out of range" : code == '<' || code == '>' ? "set size out of range"
                                                                                          : "tuple size out of range");
            break;
        }
        if (flag && (idx = r_ref_reserve(rd)) < 0)
            break;
        if (code == ')' || code == '(') {
            r[0] = list_new(0);
            if (!r[0] || !r_sequence_items(rd, &r[0], n, false))
                break;
            res = list_as_tuple(r[0]);
        } else if (code == '[') {
            r[0] = list_new(0);
            if (!r[0])
                break;
            if (flag && !r_ref_set(rd, idx, r[0]))
                break;
            res = r_sequence_items(rd, &r[0], n, true);
        } else if (code == '{') {
            r[0] = dict_new();
            if (!r[0])
                break;
            if (flag && !r_ref_set(rd, idx, r[0]))
                break;
            for (;;) {
                r[1] = r_object(rd);
                if (!r[1]) {
                    if (err_occurred())
                        goto done;
                    break;   /* the NULL that ends it */
                }
                r[2] = r_object(rd);
                if (!r[2]) {
                    if (!err_occurred())
                        bad_data("NULL object in marshal data for dict");   /* CPython stops here too */
                    goto done;
                }
                if (dict_setitem(r[0], r[1], r[2]) < 0)
                    goto done;
            }
            res = r[0];
        } else {
            r[0] = list_new(0);
            if (!r[0])
                break;
            for (int64_t i = 0; i < n; i++) {
                r[1] = r_object(rd);
                if (!r[1]) {
                    if (!err_occurred())
                        bad_data("NULL object in marshal data for set");
                    goto done;
                }
                if (list_append(r[0], r[1]) < 0)
                    goto done;
            }
            res = vm_call1((Obj)(code == '<' ? T_set : T_frozenset), r[0]);
        }
        break;
    }
    case TYPE_TMPY_CODE:
        if (flag && (idx = r_ref_reserve(rd)) < 0)
            break;
        res = r_code(rd);
        break;
    case 'r': {
        if (r_long(rd, &n) < 0)
            break;
        if (n < 0 || n >= LIST_LEN(*rd->refs) || LIST_ITEMS(*rd->refs)[n] == g_None) {
            bad_data("invalid reference");
            break;
        }
        res = LIST_ITEMS(*rd->refs)[n];
        flag = 0;
        break;
    }
    default:
        bad_data("unknown type code");
        break;
    }
done:
    if (res && flag && code != 'r') {
        if (idx >= 0)
            res = r_ref_set(rd, idx, res);
        else {
            r[0] = res;
            if (list_append(*rd->refs, r[0]) < 0)
                res = NULL;
            else
                res = r[0];
        }
    }
    vm_unroots(r);
    return res;
}

static Obj r_object(Reader *rd)
{
    const unsigned char *q = r_bytes(rd, 1);
    if (!q) {
        if (err_matches(E_EOFError)) {
            err_clear();
            err_set(E_EOFError, "EOF read where object expected");
        }
        return NULL;
    }
    int code = q[0] & ~FLAG_REF, flag = q[0] & FLAG_REF;
    if (++rd->depth > MAX_DEPTH) {
        rd->depth--;
        err_set(E_ValueError, "recursion limit exceeded");
        return NULL;
    }
    Obj res = r_object_inner(rd, code, flag);
    rd->depth--;
    return res;
}

static Obj load_top(Reader *rd)
{
    Obj *r = vm_roots(1);
    r[0] = list_new(0);
    Obj res = NULL;
    if (r[0]) {
        rd->refs = &r[0];
        res = r_object(rd);
        if (!res && !err_occurred())
            bad_data("unknown type code");   /* a NULL record at the top */
    }
    vm_unroots(r);
    return res;
}

static Obj m_loads(Obj *args, size_t nargs, Obj kwnames)
{
    const char *p;
    int64_t n;
    if (!bytes_like_arg(args[0], &p, &n))
        return NULL;
    /* a C copy: reading allocates, which would move the input */
    unsigned char *copy = malloc(n ? (size_t)n : 1);
    if (!copy)
        return err_nomemory();
    memcpy(copy, p, (size_t)n);
    Reader rd = {.p = copy, .len = n};
    Obj res = load_top(&rd);
    free(copy);
    return res;
}

static Obj m_load(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    r[0] = args[0];
    Reader rd = {.file = &r[0]};
    Obj res = load_top(&rd);
    free(rd.fbuf);
    vm_unroots(r);
    return res;
}

static const MethodDef marshal_functions[] = {
    {"dumps", m_dumps, METH_ARGS(1, 2), "dumps($module, value, version=version, /)\n--\n\n"
                                        "Return the bytes object that would be written to a file by dump(value, file)."},
    {"loads", m_loads, METH_O, "loads($module, bytes, /)\n--\n\nConvert the bytes-like object to a value."},
    {"dump", m_dump, METH_ARGS(2, 3), "dump($module, value, file, version=version, /)\n--\n\n"
                                      "Write the value on the open file."},
    {"load", m_load, METH_O, "load($module, file, /)\n--\n\nRead one value from the open file and return it."},
    {NULL, NULL, 0, NULL},
};

Obj marshal_module_init(void)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = module_new("marshal");
    if (r[0]) {
        module_add_functions(r[0], marshal_functions);
        if (module_add(r[0], "version", MAKE_SMALLINT(MARSHAL_VERSION)) == 0)
            res = r[0];
    }
    vm_unroots(r);
    return res;
}
