/* _pickle: the C accelerator under CPython's Lib/pickle.py, which takes
 * Pickler, Unpickler, dump, dumps, load, loads and the three exceptions
 * from here in place of its pure-Python classes. Written from the pickle
 * protocol as Lib/pickle.py and pickletools document it (protocols 0-5),
 * with CPython 3.11's C module's interface and messages.
 *
 * Pickler and Unpickler are instances (TID_INSTANCE: Python subclasses,
 * a __dict__) whose base_value is a hidden state object (an IterObj: `a`
 * holds a list of fields, `i` the protocol, `n` flags), set at creation
 * and never replaced. Per-call work (the output buffer, the input bytes,
 * the mark stack) is C memory owned by the C frame of the call: under STM
 * an abort of the transaction that allocated it also discards that frame
 * (txmalloc frees the blocks).
 *
 * The pickler's memo is a dict from id(obj) (old-space offsets: stable
 * while the object lives, which the memo's list of objects guarantees) to
 * the memo index, with that list in the same order. persistent_id,
 * reducer_override and dispatch_table are attributes of the pickler looked
 * up at each dump() (a class attribute or one set on the instance, as
 * Lib/pickle.py reads them); persistent_load likewise at each load(), and
 * find_class is called through the instance when a subclass overrides it.
 *
 * PickleBuffer (protocol 5, PEP 574; the type is memoryview.c's): saved in
 * band as bytes or a bytearray, or out of band (NEXT_BUFFER, READONLY_BUFFER)
 * when buffer_callback returns false for it; an unpickler takes buffers=. */
#include "modules.h"
#include "objects/objects.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static TypeObj *T_pickler, *T_unpickler, *T_pstate, *T_pmemo_proxy, *T_umemo_proxy;
static Obj g_PickleError, g_PicklingError, g_UnpicklingError;
/* (copyreg.dispatch_table, copyreg._extension_registry, copyreg._inverted_registry,
 *  copyreg._extension_cache, _compat_pickle.NAME_MAPPING, IMPORT_MAPPING,
 *  REVERSE_NAME_MAPPING, REVERSE_IMPORT_MAPPING, functools.partial, codecs.encode,
 *  the unpickler's memo hole marker, getattr) */
static Obj g_shared;
enum { G_DISPATCH, G_EXT_REG, G_INV_REG, G_EXT_CACHE, G_NAME_MAP, G_IMPORT_MAP, G_RNAME_MAP, G_RIMPORT_MAP,
       G_PARTIAL, G_ENCODE, G_HOLE, G_GETATTR, G_COUNT };
#define SHARED(k) (TUPLE_ITEMS(g_shared)[k])

enum { HIGHEST_PROTOCOL = 5, DEFAULT_PROTOCOL = 4 };
enum { FRAME_SIZE_MIN = 4, FRAME_SIZE_TARGET = 64 * 1024, BATCHSIZE = 1000, FAST_NESTING_LIMIT = 50 };

/* The opcodes (pickletools' names). */
enum {
    MARK = '(', STOP = '.', POP = '0', POP_MARK = '1', DUP = '2', FLOAT = 'F', INT = 'I', BININT = 'J',
    BININT1 = 'K', LONG = 'L', BININT2 = 'M', NONE = 'N', PERSID = 'P', BINPERSID = 'Q', REDUCE = 'R',
    STRING = 'S', BINSTRING = 'T', SHORT_BINSTRING = 'U', UNICODE = 'V', BINUNICODE = 'X', APPEND = 'a',
    BUILD = 'b', GLOBAL = 'c', DICT = 'd', EMPTY_DICT = '}', APPENDS = 'e', GET = 'g', BINGET = 'h',
    INST = 'i', LONG_BINGET = 'j', LIST = 'l', EMPTY_LIST = ']', OBJ = 'o', PUT = 'p', BINPUT = 'q',
    LONG_BINPUT = 'r', SETITEM = 's', TUPLE = 't', EMPTY_TUPLE = ')', SETITEMS = 'u', BINFLOAT = 'G',
    PROTO = 0x80, NEWOBJ = 0x81, EXT1 = 0x82, EXT2 = 0x83, EXT4 = 0x84, TUPLE1 = 0x85, TUPLE2 = 0x86,
    TUPLE3 = 0x87, NEWTRUE = 0x88, NEWFALSE = 0x89, LONG1 = 0x8a, LONG4 = 0x8b, BINBYTES = 'B',
    SHORT_BINBYTES = 'C', SHORT_BINUNICODE = 0x8c, BINUNICODE8 = 0x8d, BINBYTES8 = 0x8e, EMPTY_SET = 0x8f,
    ADDITEMS = 0x90, FROZENSET = 0x91, NEWOBJ_EX = 0x92, STACK_GLOBAL = 0x93, MEMOIZE = 0x94, FRAME = 0x95,
    BYTEARRAY8 = 0x96, NEXT_BUFFER = 0x97, READONLY_BUFFER = 0x98,
};

/* ------------------------------------------------------------------ */
/* Shared helpers                                                      */
/* ------------------------------------------------------------------ */

static Obj name_of(const char *s)
{
    return vm_intern_cached(s);
}

/* The state object of a Pickler / Unpickler instance, or NULL. */
static Obj state_of(Obj self)
{
    if (TID(self) == TID_INSTANCE) {
        Obj st = INST(self)->base_value;
        if (st && TID(st) == TID_ITER && ITER(st)->cls == (Obj)T_pstate)
            return st;
    }
    return NULL;
}

static inline Obj field(Obj st, int k)
{
    return LIST_ITEMS(ITER(st)->a)[k];
}

static void set_field(Obj st, int k, Obj v)
{
    Obj arr = LIST(ITER(st)->a)->array;
    VM_WRITE_ITEM(arr, k);
    ARRAY(arr)->items[k] = v;
}

static Obj state_new(int nfields)
{
    Obj *r = vm_roots(1);
    Obj st = NULL;
    r[0] = list_new(nfields);
    if (r[0])
        st = iter_alloc(T_pstate, r[0], 0);
    vm_unroots(r);
    return st;
}

static inline uint64_t le_u(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static inline void put_le(unsigned char *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++, v >>= 8)
        p[i] = (unsigned char)v;
}

/* The protocol argument: None -> DEFAULT, negative -> HIGHEST. */
static int protocol_arg(Obj v, int *out)
{
    if (!v || v == g_None) {
        *out = DEFAULT_PROTOCOL;
        return 0;
    }
    int64_t p;
    if (vm_index_i64(v, &p) < 0)
        return -1;
    if (p < 0)
        p = HIGHEST_PROTOCOL;
    else if (p > HIGHEST_PROTOCOL) {
        err_format(E_ValueError, "pickle protocol must be <= %d", HIGHEST_PROTOCOL);
        return -1;
    }
    *out = (int)p;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Pickler                                                             */
/* ------------------------------------------------------------------ */

/* Fields of a pickler's state list. */
enum { PF_WRITE, PF_MEMO, PF_MEMO_OBJS, PF_BUFCB, PF_COUNT };
/* Flags (the state's n). */
enum { PFL_INIT = 1, PFL_FIX_IMPORTS = 2, PFL_FAST = 4 };

/* Root slots of one dump. */
enum { PR_SELF, PR_WRITE, PR_MEMO, PR_MEMO_OBJS, PR_PERSID, PR_REDUCER, PR_DISPATCH, PR_FASTMEMO, PR_BUFCB, PR_COUNT };

typedef struct Pk {
    Obj *r;
    StrBuf out;
    int64_t frame_start;   /* offset of the current frame's data (its 9 header bytes before it); -1: none */
    int proto;
    bool bin, fix_imports, fast;
    int fast_nesting;
    /* dumps() / dump(): the memo no one else sees, a C table from id to
     * index (ids are old-space addresses, stable while PR_MEMO_OBJS keeps
     * the objects); NULL: PR_MEMO's dict (a Pickler's memo). */
    uint64_t *ctab;    /* pairs (id + 1, index); 0: empty */
    uint64_t cmask, ccount;
} Pk;

static int save(Pk *pk, Obj obj, bool pers_save);

static inline void w(Pk *pk, const void *p, size_t n)
{
    sb_add(&pk->out, (const char *)p, n);
}

static inline void w1(Pk *pk, int op)
{
    sb_addc(&pk->out, (char)op);
}

/* write(data) to the file, for data in C memory. */
static int write_raw(Pk *pk, const char *p, size_t n)
{
    Obj b = bytes_new(p, n);
    if (!b)
        return -1;
    return vm_call1(pk->r[PR_WRITE], b) ? 0 : -1;
}

/* Hand the buffered output to the file. */
static int flush_out(Pk *pk)
{
    if (sb_failed(&pk->out)) {
        err_nomemory();
        return -1;
    }
    if (!pk->out.len)
        return 0;
    int rc = write_raw(pk, pk->out.p, pk->out.len);
    pk->out.len = 0;
    return rc;
}

static void frame_begin(Pk *pk)
{
    static const char zeros[9];
    w(pk, zeros, 9);
    pk->frame_start = (int64_t)pk->out.len;
}

/* End the current frame if it reached the target size (or `force`): its
 * header is filled in (or dropped, for a frame too small to be worth one),
 * the output goes to the file if there is one, and a new frame begins
 * unless `last`. */
static int frame_commit(Pk *pk, bool force, bool last)
{
    if (pk->frame_start < 0 || sb_failed(&pk->out))
        return 0;
    int64_t n = (int64_t)pk->out.len - pk->frame_start;
    if (!force && n < FRAME_SIZE_TARGET)
        return 0;
    unsigned char *hdr = (unsigned char *)pk->out.p + pk->frame_start - 9;
    if (n >= FRAME_SIZE_MIN) {
        hdr[0] = FRAME;
        put_le(hdr + 1, (uint64_t)n, 8);
    } else {
        memmove(hdr, hdr + 9, (size_t)n);
        pk->out.len -= 9;
    }
    pk->frame_start = -1;
    if (pk->r[PR_WRITE] && flush_out(pk) < 0)
        return -1;
    if (!last)
        frame_begin(pk);
    return 0;
}

/* The linear data of a payload (str, bytes or bytearray): valid until the next allocation. */
static const char *payload_data(Obj v)
{
    if (IS_STR(v))
        return str_cstr(v);
    if (TID(v) == TID_BYTEARRAY)
        return BYTEARRAY(v)->length ? (const char *)VM_LINEAR(bytearray_data(v)) : "";
    return (const char *)VM_LINEAR(BYTES(v)->data);
}

/* A bytes copy of n bytes of the payload in *srcp (a root slot: the
 * allocation may move it, so its data is read after). */
static Obj bytes_copy_of(Obj *srcp, int64_t n)
{
    Obj b = bytes_alloc(n);
    if (b && n)
        memcpy(VM_LINEAR(BYTES(b)->data), payload_data(*srcp), (size_t)n);
    return b;
}

/* An opcode header and its payload (str, bytes or bytearray data at
 * *datap, a root slot, n bytes). A payload of FRAME_SIZE_TARGET bytes or
 * more goes outside any frame, and straight to the file when there is one
 * (Lib/pickle.py's write_large_bytes). */
static int write_header_payload(Pk *pk, const unsigned char *hdr, size_t hn, Obj *datap, int64_t n)
{
    if (n < FRAME_SIZE_TARGET || (pk->frame_start < 0 && !pk->r[PR_WRITE])) {
        w(pk, hdr, hn);
        w(pk, payload_data(*datap), (size_t)n);
        return 0;
    }
    bool framing = pk->frame_start >= 0;
    if (framing) {
        if (frame_commit(pk, true, true) < 0)
            return -1;
    }
    w(pk, hdr, hn);
    if (pk->r[PR_WRITE]) {
        if (flush_out(pk) < 0)
            return -1;
        Obj payload = *datap;
        if (IS_STR(payload) && !(payload = bytes_copy_of(datap, n)))
            return -1;
        if (!vm_call1(pk->r[PR_WRITE], payload))
            return -1;
    } else {
        w(pk, payload_data(*datap), (size_t)n);
    }
    if (framing)
        frame_begin(pk);
    return 0;
}

/* ---- the memo ---- */

static inline uint64_t ctab_slot(uint64_t oid, uint64_t mask)
{
    return ((oid >> 4) * 0x9E3779B97F4A7C15ull >> 20) & mask;
}

/* The memo index of the object whose id is oid, or -1. */
static int64_t memo_find(Pk *pk, uint64_t oid)
{
    if (pk->ctab) {
        for (uint64_t i = ctab_slot(oid, pk->cmask);; i = (i + 1) & pk->cmask) {
            uint64_t k = pk->ctab[2 * i];
            if (k == oid + 1)
                return (int64_t)pk->ctab[2 * i + 1];
            if (!k)
                return -1;
        }
    }
    Obj v = dict_getitem(pk->r[PR_MEMO], MAKE_SMALLINT((int64_t)oid));
    return v ? SMALLINT_VAL(v) : -1;
}

static int ctab_put(Pk *pk, uint64_t oid, uint64_t idx)
{
    if ((pk->ccount + 1) * 2 > pk->cmask + 1) {
        uint64_t ncap = (pk->cmask + 1) * 2;
        uint64_t *t = calloc(ncap * 2, sizeof *t);
        if (!t) {
            err_nomemory();
            return -1;
        }
        for (uint64_t j = 0; j <= pk->cmask; j++) {
            uint64_t k = pk->ctab[2 * j];
            if (!k)
                continue;
            uint64_t i = ctab_slot(k - 1, ncap - 1);
            while (t[2 * i])
                i = (i + 1) & (ncap - 1);
            t[2 * i] = k;
            t[2 * i + 1] = pk->ctab[2 * j + 1];
        }
        free(pk->ctab);
        pk->ctab = t;
        pk->cmask = ncap - 1;
    }
    uint64_t i = ctab_slot(oid, pk->cmask);
    while (pk->ctab[2 * i])
        i = (i + 1) & pk->cmask;
    pk->ctab[2 * i] = oid + 1;
    pk->ctab[2 * i + 1] = idx;
    pk->ccount++;
    return 0;
}

static void write_get(Pk *pk, int64_t idx)
{
    unsigned char b[8];
    if (pk->bin) {
        if (idx < 256) {
            b[0] = BINGET;
            b[1] = (unsigned char)idx;
            w(pk, b, 2);
        } else {
            b[0] = LONG_BINGET;
            put_le(b + 1, (uint64_t)idx, 4);
            w(pk, b, 5);
        }
    } else {
        sb_printf(&pk->out, "g%lld\n", (long long)idx);
    }
}

/* Memoize the object in *op (id oid) and write the PUT. */
static int memoize(Pk *pk, Obj *op, uint64_t oid)
{
    if (pk->fast)
        return 0;
    int64_t idx;
    if (pk->ctab) {
        idx = (int64_t)pk->ccount;
        if (ctab_put(pk, oid, (uint64_t)idx) < 0)
            return -1;
    } else {
        idx = dict_len(pk->r[PR_MEMO]);
        if (dict_setitem(pk->r[PR_MEMO], MAKE_SMALLINT((int64_t)oid), MAKE_SMALLINT(idx)) < 0)
            return -1;
    }
    if (list_append(pk->r[PR_MEMO_OBJS], *op) < 0)
        return -1;
    unsigned char b[8];
    if (pk->proto >= 4) {
        w1(pk, MEMOIZE);
    } else if (pk->bin) {
        if (idx < 256) {
            b[0] = BINPUT;
            b[1] = (unsigned char)idx;
            w(pk, b, 2);
        } else {
            b[0] = LONG_BINPUT;
            put_le(b + 1, (uint64_t)idx, 4);
            w(pk, b, 5);
        }
    } else {
        sb_printf(&pk->out, "p%lld\n", (long long)idx);
    }
    return 0;
}

/* After saving the parts of an object that was not in the memo: if it is
 * now (a recursive reference reached it through its parts), the parts are
 * thrown away (POP_MARK or n POPs) and it is fetched from the memo: 1. */
static int already_memoized(Pk *pk, uint64_t oid, int npop, bool popmark)
{
    int64_t idx = memo_find(pk, oid);
    if (idx < 0)
        return err_occurred() ? -1 : 0;
    if (popmark && pk->bin) {
        w1(pk, POP_MARK);
    } else {
        for (int i = 0; i < npop + (popmark ? 1 : 0); i++)
            w1(pk, POP);
    }
    write_get(pk, idx);
    return 1;
}

/* ---- atoms ---- */

static void save_bool(Pk *pk, bool v)
{
    if (pk->proto >= 2)
        w1(pk, v ? NEWTRUE : NEWFALSE);
    else
        sb_adds(&pk->out, v ? "I01\n" : "I00\n");
}

/* The two's complement little-endian bytes of a big int (pickle's
 * encode_long): malloc'd, length in *n. */
static unsigned char *encode_bigint(Obj v, int64_t *n)
{
    BigIntObj *b = (BigIntObj *)v;
    uint64_t nl = b->nlimbs;
    uint64_t bits = int_bit_length(v);
    int64_t nbytes = (int64_t)(bits >> 3) + 1;
    unsigned char *out = malloc((size_t)nbytes);
    if (!out)
        return NULL;
    for (int64_t i = 0; i < nbytes; i++) {
        uint64_t li = (uint64_t)i / 8;
        out[i] = li < nl ? (unsigned char)(b->limbs[li] >> (8 * (i % 8))) : 0;
    }
    if (b->sign < 0) {
        unsigned carry = 1;
        for (int64_t i = 0; i < nbytes; i++) {
            unsigned x = (unsigned)(unsigned char)~out[i] + carry;
            out[i] = (unsigned char)x;
            carry = x >> 8;
        }
        if (nbytes > 1 && out[nbytes - 1] == 0xff && (out[nbytes - 2] & 0x80))
            nbytes--;
    }
    *n = nbytes;
    return out;
}

static int save_long(Pk *pk, Obj v)
{
    unsigned char b[16];
    if (IS_SMALLINT(v)) {
        int64_t x = SMALLINT_VAL(v);
        if (pk->bin) {
            if (x >= 0 && x <= 0xff) {
                b[0] = BININT1;
                b[1] = (unsigned char)x;
                w(pk, b, 2);
                return 0;
            }
            if (x >= 0 && x <= 0xffff) {
                b[0] = BININT2;
                put_le(b + 1, (uint64_t)x, 2);
                w(pk, b, 3);
                return 0;
            }
            if (x >= -0x80000000LL && x <= 0x7fffffffLL) {
                b[0] = BININT;
                put_le(b + 1, (uint64_t)x, 4);
                w(pk, b, 5);
                return 0;
            }
        }
        if (pk->proto >= 2) {
            /* minimal two's complement, little-endian */
            int nb = 1;
            while (nb < 8) {
                int64_t lo = -((int64_t)1 << (8 * nb - 1)), hi = ((int64_t)1 << (8 * nb - 1)) - 1;
                if (x >= lo && x <= hi)
                    break;
                nb++;
            }
            b[0] = LONG1;
            b[1] = (unsigned char)nb;
            put_le(b + 2, (uint64_t)x, nb);
            w(pk, b, (size_t)nb + 2);
            return 0;
        }
        if (x >= -0x80000000LL && x <= 0x7fffffffLL)
            sb_printf(&pk->out, "I%lld\n", (long long)x);
        else
            sb_printf(&pk->out, "L%lldL\n", (long long)x);
        return 0;
    }
    if (pk->proto >= 2) {
        int64_t n;
        unsigned char *e = encode_bigint(v, &n);
        if (!e) {
            err_nomemory();
            return -1;
        }
        if (n < 256) {
            b[0] = LONG1;
            b[1] = (unsigned char)n;
            w(pk, b, 2);
        } else if (n <= 0x7fffffff) {
            b[0] = LONG4;
            put_le(b + 1, (uint64_t)n, 4);
            w(pk, b, 5);
        } else {
            free(e);
            err_set(E_OverflowError, "int too large to pickle");
            return -1;
        }
        w(pk, e, (size_t)n);
        free(e);
        return 0;
    }
    Obj s = int_to_string(v, 10);
    if (!s)
        return -1;
    sb_addc(&pk->out, 'L');
    sb_add_str(&pk->out, s);
    sb_adds(&pk->out, "L\n");
    return 0;
}

static void save_float(Pk *pk, double d)
{
    if (pk->bin) {
        unsigned char b[9];
        uint64_t u;
        memcpy(&u, &d, 8);
        b[0] = BINFLOAT;
        for (int i = 0; i < 8; i++)
            b[1 + i] = (unsigned char)(u >> (56 - 8 * i));
        w(pk, b, 9);
    } else {
        char buf[40];
        float_repr_buf(d, buf);
        sb_addc(&pk->out, 'F');
        sb_adds(&pk->out, buf);
        sb_addc(&pk->out, '\n');
    }
}

static int save_reduce(Pk *pk, Obj *rv, int64_t nrv, Obj *objp, uint64_t oid);

/* save_reduce of (callable, args) for obj (a root slot; NULL: not memoized). */
static int save_reduce2(Pk *pk, Obj callable, Obj args, Obj *objp, uint64_t oid)
{
    Obj *r = vm_roots(2);
    r[0] = callable;
    r[1] = args;
    int rc = save_reduce(pk, r, 2, objp, oid);
    vm_unroots(r);
    return rc;
}

static int save_bytes(Pk *pk, Obj *op, uint64_t oid);
static int save_bytearray(Pk *pk, Obj *op, uint64_t oid);

/* A PickleBuffer: its bytes in band (bytes if read-only, else a bytearray),
 * or out of band when buffer_callback(pb) is false. */
static int save_picklebuffer(Pk *pk, Obj *op, uint64_t oid)
{
    if (pk->proto < 5) {
        err_set((TypeObj *)g_PicklingError, "PickleBuffer can only pickled with protocol >= 5");
        return -1;
    }
    Obj *r = vm_roots(2);
    int rc = -1;
    r[0] = picklebuffer_view(*op);
    if (!r[0])
        goto out;
    r[1] = vm_getattr_cstr(r[0], "contiguous");
    if (!r[1])
        goto out;
    if (r[1] != g_True) {
        err_set((TypeObj *)g_PicklingError, "PickleBuffer can not be pickled when pointing to a non-contiguous buffer");
        goto out;
    }
    int in_band = 1;
    if (pk->r[PR_BUFCB]) {
        r[1] = vm_call1(pk->r[PR_BUFCB], *op);
        if (!r[1] || (in_band = vm_is_true(r[1])) < 0)
            goto out;
    }
    r[1] = vm_getattr_cstr(r[0], "readonly");
    if (!r[1])
        goto out;
    bool readonly = r[1] == g_True;
    if (!in_band) {
        w1(pk, NEXT_BUFFER);
        if (readonly)
            w1(pk, READONLY_BUFFER);
        rc = 0;
        goto out;
    }
    r[1] = vm_call_method(r[0], "tobytes", NULL, 0);
    if (r[1] && !readonly)
        r[1] = vm_call1((Obj)T_bytearray, r[1]);
    if (r[1])
        rc = readonly ? save_bytes(pk, &r[1], oid) : save_bytearray(pk, &r[1], oid);
out:
    vm_unroots(r);
    return rc;
}

static int save_bytes(Pk *pk, Obj *op, uint64_t oid)
{
    if (pk->proto < 3) {
        if (BYTES(*op)->length == 0)
            return save_reduce2(pk, (Obj)T_bytes, g_empty_tuple, op, oid);
        Obj *r = vm_roots(2);
        int rc = -1;
        r[0] = bytes_decode(*op, "latin-1", NULL);
        if (r[0] && (r[1] = name_of("latin1")) && (r[0] = tuple_pack(2, r[0], r[1])))
            rc = save_reduce2(pk, SHARED(G_ENCODE), r[0], op, oid);
        vm_unroots(r);
        return rc;
    }
    int64_t n = BYTES(*op)->length;
    unsigned char h[9];
    size_t hn;
    if (n <= 0xff) {
        h[0] = SHORT_BINBYTES;
        h[1] = (unsigned char)n;
        hn = 2;
    } else if (n > 0xffffffffLL && pk->proto >= 4) {
        h[0] = BINBYTES8;
        put_le(h + 1, (uint64_t)n, 8);
        hn = 9;
    } else if (n > 0xffffffffLL) {
        err_set(E_OverflowError, "cannot serialize a bytes object larger than 4 GiB");
        return -1;
    } else {
        h[0] = BINBYTES;
        put_le(h + 1, (uint64_t)n, 4);
        hn = 5;
    }
    if (write_header_payload(pk, h, hn, op, n) < 0)
        return -1;
    return memoize(pk, op, oid);
}

static int save_bytearray(Pk *pk, Obj *op, uint64_t oid)
{
    int64_t n = BYTEARRAY(*op)->length;
    if (pk->proto < 5) {
        if (n == 0)
            return save_reduce2(pk, (Obj)T_bytearray, g_empty_tuple, op, oid);
        Obj *r = vm_roots(1);
        int rc = -1;
        r[0] = bytes_copy_of(op, n);
        if (r[0] && (r[0] = tuple_pack(1, r[0])))
            rc = save_reduce2(pk, (Obj)T_bytearray, r[0], op, oid);
        vm_unroots(r);
        return rc;
    }
    unsigned char h[9];
    h[0] = BYTEARRAY8;
    put_le(h + 1, (uint64_t)n, 8);
    if (write_header_payload(pk, h, 9, op, n) < 0)
        return -1;
    return memoize(pk, op, oid);
}

/* raw-unicode-escape of a str, after protocol 0's replacements of \, \0,
 * \n, \r and \x1a by \uXXXX (what UNICODE's line must not hold). */
static void add_unicode_escaped(StrBuf *b, Obj s)
{
    const unsigned char *p = (const unsigned char *)str_cstr(s);
    int64_t n = STR(s)->nbytes;
    for (int64_t i = 0; i < n;) {
        int len;
        uint32_t cp = utf8_decode(p + i, &len);
        i += len;
        if (cp == '\\' || cp == 0 || cp == '\n' || cp == '\r' || cp == 0x1a || (cp >= 0x100 && cp < 0x10000))
            sb_printf(b, "\\u%04x", cp);
        else if (cp >= 0x10000)
            sb_printf(b, "\\U%08x", cp);
        else
            sb_addc(b, (char)cp);
    }
}

static int save_str(Pk *pk, Obj *op, uint64_t oid)
{
    if (pk->bin) {
        int64_t n = STR(*op)->nbytes;
        unsigned char h[9];
        size_t hn;
        if (n <= 0xff && pk->proto >= 4) {
            h[0] = SHORT_BINUNICODE;
            h[1] = (unsigned char)n;
            hn = 2;
        } else if (n > 0xffffffffLL && pk->proto >= 4) {
            h[0] = BINUNICODE8;
            put_le(h + 1, (uint64_t)n, 8);
            hn = 9;
        } else if (n > 0xffffffffLL) {
            err_set(E_OverflowError, "cannot serialize a string larger than 4GiB");
            return -1;
        } else {
            h[0] = BINUNICODE;
            put_le(h + 1, (uint64_t)n, 4);
            hn = 5;
        }
        if (write_header_payload(pk, h, hn, op, n) < 0)
            return -1;
    } else {
        sb_addc(&pk->out, UNICODE);
        add_unicode_escaped(&pk->out, *op);
        sb_addc(&pk->out, '\n');
    }
    return memoize(pk, op, oid);
}

/* ---- containers ---- */

/* Fast mode's guard against cycles (nothing is memoized to stop them). */
static int fast_enter(Pk *pk, Obj *op, uint64_t oid)
{
    if (!pk->fast || ++pk->fast_nesting < FAST_NESTING_LIMIT)
        return 0;
    if (!pk->r[PR_FASTMEMO] && !(pk->r[PR_FASTMEMO] = dict_new()))
        return -1;
    Obj key = MAKE_SMALLINT((int64_t)oid);
    if (dict_getitem(pk->r[PR_FASTMEMO], key)) {
        err_format(E_ValueError, "fast mode: can't pickle cyclic objects including object type %.200s at %p",
                   type_name(*op), (void *)(uintptr_t)oid);
        return -1;
    }
    return dict_setitem(pk->r[PR_FASTMEMO], key, g_None);
}

static void fast_leave(Pk *pk, uint64_t oid)
{
    if (!pk->fast)
        return;
    if (pk->fast_nesting-- >= FAST_NESTING_LIMIT && pk->r[PR_FASTMEMO]) {
        Obj out;
        dict_pop(pk->r[PR_FASTMEMO], MAKE_SMALLINT((int64_t)oid), &out);
    }
}

static int save_tuple(Pk *pk, Obj *op, uint64_t oid)
{
    int64_t n = TUPLE_LEN(*op);
    if (n == 0) {
        if (pk->proto)
            w1(pk, EMPTY_TUPLE);
        else
            sb_adds(&pk->out, "(t");
        return 0;
    }
    bool small = n <= 3 && pk->proto >= 2;
    if (!small)
        w1(pk, MARK);
    for (int64_t i = 0; i < n; i++)
        if (save(pk, TUPLE_ITEMS(*op)[i], false) < 0)
            return -1;
    int m = already_memoized(pk, oid, (int)n, !small);
    if (m)
        return m < 0 ? -1 : 0;
    if (small)
        w1(pk, TUPLE1 + (int)n - 1);
    else
        w1(pk, TUPLE);
    return memoize(pk, op, oid);
}

/* The items of an iterator (*itp) as APPENDS batches (APPEND one by one in protocol 0). */
static int batch_appends_iter(Pk *pk, Obj *itp)
{
    Obj *r = vm_roots(1);
    int rc = -1;
    if (!pk->bin) {
        while ((r[0] = vm_next(*itp))) {
            if (save(pk, r[0], false) < 0)
                goto out;
            w1(pk, APPEND);
        }
        rc = err_occurred() ? -1 : 0;
        goto out;
    }
    int n;
    do {
        n = 0;
        r[0] = vm_next(*itp);
        if (!r[0])
            break;
        Obj *q = vm_roots(1);
        q[0] = vm_next(*itp);
        if (!q[0]) {
            vm_unroots(q);
            if (err_occurred() || save(pk, r[0], false) < 0)
                goto out;
            w1(pk, APPEND);
            break;
        }
        w1(pk, MARK);
        int ok = save(pk, r[0], false) == 0;
        r[0] = q[0];
        vm_unroots(q);
        if (!ok)
            goto out;
        n = 1;
        while (r[0]) {
            if (save(pk, r[0], false) < 0)
                goto out;
            if (++n == BATCHSIZE)
                break;
            r[0] = vm_next(*itp);
        }
        if (err_occurred())
            goto out;
        w1(pk, APPENDS);
    } while (n == BATCHSIZE);
    rc = err_occurred() ? -1 : 0;
out:
    vm_unroots(r);
    return rc;
}

/* An exact list's items, by index (the list may change while its items are saved). */
static int batch_list_exact(Pk *pk, Obj *lp)
{
    if (!pk->bin) {
        for (int64_t i = 0; i < LIST_LEN(*lp); i++) {
            if (save(pk, LIST_ITEMS(*lp)[i], false) < 0)
                return -1;
            w1(pk, APPEND);
        }
        return 0;
    }
    if (LIST_LEN(*lp) == 1) {
        if (save(pk, LIST_ITEMS(*lp)[0], false) < 0)
            return -1;
        w1(pk, APPEND);
        return 0;
    }
    int64_t i = 0;
    while (i < LIST_LEN(*lp)) {
        int64_t k = 0;
        w1(pk, MARK);
        while (k < BATCHSIZE && i < LIST_LEN(*lp)) {
            if (save(pk, LIST_ITEMS(*lp)[i], false) < 0)
                return -1;
            i++, k++;
        }
        w1(pk, APPENDS);
    }
    return 0;
}

static int save_list(Pk *pk, Obj *op, uint64_t oid)
{
    if (pk->bin)
        w1(pk, EMPTY_LIST);
    else
        sb_adds(&pk->out, "(l");
    if (memoize(pk, op, oid) < 0)
        return -1;
    if (LIST_LEN(*op) == 0)
        return 0;
    if (fast_enter(pk, op, oid) < 0)
        return -1;
    int rc = batch_list_exact(pk, op);
    fast_leave(pk, oid);
    return rc;
}

static int save_pair(Pk *pk, Obj item)
{
    if (!IS_TUPLE(item) || TUPLE_LEN(item) != 2) {
        err_set(E_TypeError, "dict items iterator must return 2-tuples");
        return -1;
    }
    Obj *r = vm_roots(1);
    r[0] = item;
    int rc = save(pk, TUPLE_ITEMS(r[0])[0], false) == 0 && save(pk, TUPLE_ITEMS(r[0])[1], false) == 0 ? 0 : -1;
    vm_unroots(r);
    return rc;
}

/* (key, value) pairs of an iterator (*itp) as SETITEMS batches (SETITEM one by one in protocol 0). */
static int batch_setitems_iter(Pk *pk, Obj *itp)
{
    Obj *r = vm_roots(1);
    int rc = -1;
    if (!pk->bin) {
        while ((r[0] = vm_next(*itp))) {
            if (save_pair(pk, r[0]) < 0)
                goto out;
            w1(pk, SETITEM);
        }
        rc = err_occurred() ? -1 : 0;
        goto out;
    }
    int n;
    do {
        n = 0;
        r[0] = vm_next(*itp);
        if (!r[0])
            break;
        if (!IS_TUPLE(r[0]) || TUPLE_LEN(r[0]) != 2) {
            err_set(E_TypeError, "dict items iterator must return 2-tuples");
            goto out;
        }
        Obj *q = vm_roots(1);
        q[0] = vm_next(*itp);
        if (!q[0]) {
            vm_unroots(q);
            if (err_occurred() || save_pair(pk, r[0]) < 0)
                goto out;
            w1(pk, SETITEM);
            break;
        }
        w1(pk, MARK);
        int ok = save_pair(pk, r[0]) == 0;
        r[0] = q[0];
        vm_unroots(q);
        if (!ok)
            goto out;
        n = 1;
        while (r[0]) {
            if (save_pair(pk, r[0]) < 0)
                goto out;
            if (++n == BATCHSIZE)
                break;
            r[0] = vm_next(*itp);
        }
        if (err_occurred())
            goto out;
        w1(pk, SETITEMS);
    } while (n == BATCHSIZE);
    rc = err_occurred() ? -1 : 0;
out:
    vm_unroots(r);
    return rc;
}

/* An exact dict's items (a change of its size while they are saved is a RuntimeError). */
static int batch_dict_exact(Pk *pk, Obj *dp)
{
    Obj *r = vm_roots(2);
    int rc = -1;
    int64_t size = dict_len(*dp), pos = 0, k = 0;
    bool batch = pk->bin && size > 1;
    Obj key, value;
    while (dict_next(*dp, &pos, &key, &value)) {
        r[0] = key;
        r[1] = value;
        if (batch && k % BATCHSIZE == 0)
            w1(pk, MARK);
        if (save(pk, r[0], false) < 0 || save(pk, r[1], false) < 0)
            goto out;
        k++;
        if (!batch)
            w1(pk, SETITEM);
        else if (k % BATCHSIZE == 0)
            w1(pk, SETITEMS);
        if (dict_len(*dp) != size) {
            err_set(E_RuntimeError, "dictionary changed size during iteration");
            goto out;
        }
    }
    if (batch && k % BATCHSIZE)
        w1(pk, SETITEMS);
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

static int save_dict(Pk *pk, Obj *op, uint64_t oid)
{
    if (pk->bin)
        w1(pk, EMPTY_DICT);
    else
        sb_adds(&pk->out, "(d");
    if (memoize(pk, op, oid) < 0)
        return -1;
    if (dict_len(*op) == 0)
        return 0;
    if (fast_enter(pk, op, oid) < 0)
        return -1;
    int rc = batch_dict_exact(pk, op);
    fast_leave(pk, oid);
    return rc;
}

/* set and frozenset: protocol 4 opcodes, else a reduce to set(list) / frozenset(list). */
static int save_set(Pk *pk, Obj *op, uint64_t oid, bool frozen)
{
    Obj *r = vm_roots(2);
    int rc = -1;
    if (pk->proto < 4) {
        r[0] = vm_list_from_iter(*op);
        if (r[0] && (r[0] = tuple_pack(1, r[0])))
            rc = save_reduce2(pk, frozen ? (Obj)T_frozenset : (Obj)T_set, r[0], op, oid);
        goto out;
    }
    if (frozen) {
        w1(pk, MARK);
    } else {
        w1(pk, EMPTY_SET);
        if (memoize(pk, op, oid) < 0)
            goto out;
    }
    int64_t size = set_len(*op);
    r[0] = vm_iter(*op);
    if (!r[0])
        goto out;
    int64_t k = 0;
    for (;;) {
        r[1] = vm_next(r[0]);
        if (!r[1])
            break;
        if (!frozen && k % BATCHSIZE == 0)
            w1(pk, MARK);
        if (save(pk, r[1], false) < 0)
            goto out;
        k++;
        if (!frozen && k % BATCHSIZE == 0)
            w1(pk, ADDITEMS);
        if (!frozen && set_len(*op) != size) {
            err_set(E_RuntimeError, "set changed size during iteration");
            goto out;
        }
    }
    if (err_occurred())
        goto out;
    if (frozen) {
        int m = already_memoized(pk, oid, 0, true);
        if (m) {
            rc = m < 0 ? -1 : 0;
            goto out;
        }
        w1(pk, FROZENSET);
        rc = memoize(pk, op, oid);
        goto out;
    }
    if (k % BATCHSIZE)
        w1(pk, ADDITEMS);
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* ---- globals ---- */

/* getattr along a dotted path: obj in out[0], its parent in out[1]
 * (root slots); AttributeError on a missing part or '<locals>'. */
static int get_dotted(Obj module, Obj name, Obj *out)
{
    Obj *r = vm_roots(2);
    int rc = -1;
    r[0] = name;
    out[0] = module;
    out[1] = NULL;
    Obj dot = str_from_cstr(".");
    if (!dot || !(r[1] = vm_call_method1(r[0], "split", dot)))
        goto done;
    for (int64_t i = 0; i < LIST_LEN(r[1]); i++) {
        Obj part = LIST_ITEMS(r[1])[i];
        if (str_eq_cstr(part, "<locals>")) {
            err_format(E_AttributeError, "Can't get local attribute %s on %s", str_cstr(r[0]), type_name(out[0]));
            goto done;
        }
        out[1] = out[0];
        out[0] = vm_getattr(out[0], part);
        if (!out[0]) {
            if (err_matches(E_AttributeError)) {
                Obj *q = vm_roots(1);
                q[0] = vm_repr(out[1]);
                err_clear();
                err_format(E_AttributeError, "Can't get attribute '%s' on %s", str_cstr(r[0]),
                           q[0] ? str_cstr(q[0]) : "?");
                vm_unroots(q);
            }
            goto done;
        }
    }
    rc = 0;
done:
    vm_unroots(r);
    return rc;
}

/* pickle's whichmodule: obj.__module__, else the module of sys.modules
 * that has it under that name, else '__main__'. */
static Obj which_module(Obj *objp, Obj *namep)
{
    Obj m = vm_getattr_opt(*objp, NAME(__module__));
    if ((m && m != g_None) || err_occurred())
        return m;
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = dict_items_list(g_modules);
    if (!r[0])
        goto out;
    for (int64_t i = 0; i < LIST_LEN(r[0]); i++) {
        Obj item = LIST_ITEMS(r[0])[i];
        r[1] = TUPLE_ITEMS(item)[0];
        Obj mod = TUPLE_ITEMS(item)[1];
        if (mod == g_None || !IS_STR(r[1]) || str_eq_cstr(r[1], "__main__") || str_eq_cstr(r[1], "__mp_main__"))
            continue;
        if (get_dotted(mod, *namep, &r[2]) < 0) {
            if (!err_matches(E_AttributeError))
                goto out;
            err_clear();
            continue;
        }
        if (r[2] == *objp) {
            res = r[1];
            goto out;
        }
    }
    res = str_from_cstr("__main__");
out:
    vm_unroots(r);
    return res;
}

static void raise_picklingf(const char *fmt, Obj a, Obj b, Obj c)
{
    Obj *r = vm_roots(3);
    r[0] = a ? vm_repr(a) : NULL;
    if (r[0] || !a) {
        r[1] = b;
        r[2] = c;
        err_format((TypeObj *)g_PicklingError, fmt, r[0] ? str_cstr(r[0]) : "",
                   r[1] ? str_cstr(r[1]) : "", r[2] ? str_cstr(r[2]) : "");
    }
    vm_unroots(r);
}

/* save_global(obj, name): by reference, as module and qualified name. */
static int save_global(Pk *pk, Obj *op, uint64_t oid, Obj name)
{
    Obj *r = vm_roots(6);   /* name, module name, module, found (2: obj, parent), tmp */
    int rc = -1;
    r[0] = name;
    if (!r[0]) {
        r[0] = vm_getattr_opt(*op, NAME(__qualname__));
        if (!r[0] && !err_occurred())
            r[0] = vm_getattr(*op, NAME(__name__));
        if (!r[0])
            goto out;
    }
    if (!IS_STR(r[0])) {
        err_format(E_TypeError, "attribute name must be string, not '%.200s'", type_name(r[0]));
        goto out;
    }
    r[1] = which_module(op, &r[0]);
    if (!r[1])
        goto out;
    if (!IS_STR(r[1])) {
        err_format(E_TypeError, "module name must be string, not '%.200s'", type_name(r[1]));
        goto out;
    }
    char *modname = strdup(str_cstr(r[1]));
    if (!modname) {
        err_nomemory();
        goto out;
    }
    Obj imported = vm_import_cstr(modname);
    free(modname);
    if (!imported) {
        raise_picklingf("Can't pickle %s: import of module '%s' failed%s", *op, r[1], NULL);
        goto out;
    }
    r[2] = dict_getitem(g_modules, r[1]);
    if (!r[2]) {
        if (!err_occurred())
            raise_picklingf("Can't pickle %s: import of module '%s' failed%s", *op, r[1], NULL);
        goto out;
    }
    if (get_dotted(r[2], r[0], &r[3]) < 0) {
        if (err_matches(E_AttributeError)) {
            err_clear();
            raise_picklingf("Can't pickle %s: attribute lookup %s on %s failed", *op, r[0], r[1]);
        }
        goto out;
    }
    if (r[3] != *op) {
        raise_picklingf("Can't pickle %s: it's not the same object as %s.%s", *op, r[1], r[0]);
        goto out;
    }
    if (pk->proto >= 2) {
        r[5] = tuple_pack(2, r[1], r[0]);
        if (!r[5])
            goto out;
        Obj code = dict_getitem(SHARED(G_EXT_REG), r[5]);
        if (!code && err_occurred())
            goto out;
        if (code) {
            int64_t c;
            if (!IS_SMALLINT(code) || (c = SMALLINT_VAL(code)) <= 0 || c > 0x7fffffff) {
                err_set((TypeObj *)g_PicklingError, "Can't pickle: extension code is out of range");
                goto out;
            }
            unsigned char b[5];
            if (c <= 0xff) {
                b[0] = EXT1;
                b[1] = (unsigned char)c;
                w(pk, b, 2);
            } else if (c <= 0xffff) {
                b[0] = EXT2;
                put_le(b + 1, (uint64_t)c, 2);
                w(pk, b, 3);
            } else {
                b[0] = EXT4;
                put_le(b + 1, (uint64_t)c, 4);
                w(pk, b, 5);
            }
            rc = 0;
            goto out;
        }
    }
    /* the last part of the name, when its parent is the module */
    if (r[4] == r[2]) {
        const char *q = str_cstr(r[0]), *dot = strrchr(q, '.');
        if (dot && !(r[0] = str_from_cstr(dot + 1)))
            goto out;
    }
    if (pk->proto >= 4) {
        if (save(pk, r[1], false) < 0 || save(pk, r[0], false) < 0)
            goto out;
        w1(pk, STACK_GLOBAL);
    } else if (r[4] != r[2]) {
        /* getattr(parent, lastname) */
        const char *q = str_cstr(r[0]), *dot = strrchr(q, '.');
        if (!(r[5] = str_from_cstr(dot ? dot + 1 : q)) || !(r[5] = tuple_pack(2, r[4], r[5])))
            goto out;
        rc = save_reduce2(pk, SHARED(G_GETATTR), r[5], NULL, 0);
        goto out;
    } else if (pk->proto >= 3) {
        sb_addc(&pk->out, GLOBAL);
        sb_add_str(&pk->out, r[1]);
        sb_addc(&pk->out, '\n');
        sb_add_str(&pk->out, r[0]);
        sb_addc(&pk->out, '\n');
    } else {
        if (pk->fix_imports) {
            r[5] = tuple_pack(2, r[1], r[0]);
            if (!r[5])
                goto out;
            Obj m = dict_getitem(SHARED(G_RNAME_MAP), r[5]);
            if (m) {
                if (!IS_TUPLE(m) || TUPLE_LEN(m) != 2) {
                    err_format(E_RuntimeError, "_compat_pickle.REVERSE_NAME_MAPPING values should be 2-tuples, not %.200s",
                               type_name(m));
                    goto out;
                }
                r[1] = TUPLE_ITEMS(m)[0];
                r[0] = TUPLE_ITEMS(m)[1];
            } else if (err_occurred()) {
                goto out;
            } else if ((m = dict_getitem(SHARED(G_RIMPORT_MAP), r[1]))) {
                r[1] = m;
            } else if (err_occurred()) {
                goto out;
            }
            if (!IS_STR(r[1]) || !IS_STR(r[0])) {
                err_set(E_RuntimeError, "_compat_pickle mappings should hold strs");
                goto out;
            }
        }
        if (!str_is_ascii(r[1]) || !str_is_ascii(r[0])) {
            err_format((TypeObj *)g_PicklingError, "can't pickle global identifier '%s.%s' using pickle protocol %d",
                       str_cstr(r[1]), str_cstr(r[0]), pk->proto);
            goto out;
        }
        sb_addc(&pk->out, GLOBAL);
        sb_add_str(&pk->out, r[1]);
        sb_addc(&pk->out, '\n');
        sb_add_str(&pk->out, r[0]);
        sb_addc(&pk->out, '\n');
    }
    rc = memoize(pk, op, oid);
out:
    vm_unroots(r);
    return rc;
}

/* type(None), type(NotImplemented), type(...): a reduce to type(singleton). */
static int save_type(Pk *pk, Obj *op, uint64_t oid)
{
    Obj single = *op == (Obj)T_NoneType ? g_None : *op == (Obj)T_NotImplementedType ? g_NotImplemented
                                                 : *op == (Obj)T_ellipsis ? g_Ellipsis : NULL;
    if (!single)
        return save_global(pk, op, oid, NULL);
    Obj t = tuple_pack(1, single);
    return t ? save_reduce2(pk, (Obj)T_type, t, op, oid) : -1;
}

/* ---- the reduce protocol ---- */

static bool is_iterator(Obj v)
{
    return TYPE(v)->tp_iternext != NULL;
}

/* rv[0..nrv): callable, args, state, listitems, dictitems, state_setter
 * (root slots); objp: the object (memoized after the call is written) or NULL. */
static int save_reduce(Pk *pk, Obj *rv, int64_t nrv, Obj *objp, uint64_t oid)
{
    Obj *r = vm_roots(4);   /* name, cls, args', kwargs / tmp */
    int rc = -1;
    Obj callable = rv[0], argtup = rv[1];
    Obj listitems = nrv > 3 && rv[3] != g_None ? rv[3] : NULL;
    Obj dictitems = nrv > 4 && rv[4] != g_None ? rv[4] : NULL;
    Obj setter = nrv > 5 && rv[5] != g_None ? rv[5] : NULL;
    if (!vm_callable(callable)) {
        err_set((TypeObj *)g_PicklingError, "first item of the tuple returned by __reduce__ must be callable");
        goto out;
    }
    if (!IS_TUPLE(vm_unwrap(argtup)) || !vm_isinstance_type(argtup, T_tuple)) {
        err_set((TypeObj *)g_PicklingError, "second item of the tuple returned by __reduce__ must be a tuple");
        goto out;
    }
    if (listitems && !is_iterator(listitems)) {
        err_format((TypeObj *)g_PicklingError,
                   "fourth element of the tuple returned by __reduce__ must be an iterator, not %s",
                   type_name(listitems));
        goto out;
    }
    if (dictitems && !is_iterator(dictitems)) {
        err_format((TypeObj *)g_PicklingError,
                   "fifth element of the tuple returned by __reduce__ must be an iterator, not %s",
                   type_name(dictitems));
        goto out;
    }
    if (setter && !vm_callable(setter)) {
        err_format((TypeObj *)g_PicklingError,
                   "sixth element of the tuple returned by __reduce__ must be a function, not %s", type_name(setter));
        goto out;
    }
    bool newobj = false, newobj_ex = false;
    if (pk->proto >= 2) {
        r[0] = vm_getattr_opt(rv[0], NAME(__name__));
        if (!r[0] && err_occurred())
            goto out;
        if (r[0] && IS_STR(r[0])) {
            newobj_ex = str_eq_cstr(r[0], "__newobj_ex__");
            newobj = str_eq_cstr(r[0], "__newobj__");
        }
    }
    argtup = vm_unwrap(rv[1]);
    if (newobj_ex) {
        if (TUPLE_LEN(argtup) != 3) {
            err_format((TypeObj *)g_PicklingError, "length of the NEWOBJ_EX argument tuple must be exactly 3, not %lld",
                       (long long)TUPLE_LEN(argtup));
            goto out;
        }
        r[1] = TUPLE_ITEMS(argtup)[0];
        r[2] = TUPLE_ITEMS(argtup)[1];
        r[3] = TUPLE_ITEMS(argtup)[2];
        if (!IS_TYPE(r[1])) {
            err_format((TypeObj *)g_PicklingError, "first item from NEWOBJ_EX argument tuple must be a class, not %.200s",
                       type_name(r[1]));
            goto out;
        }
        if (objp) {
            Obj cls = vm_getattr(*objp, NAME(__class__));
            if (!cls)
                goto out;
            if (cls != r[1]) {
                err_format((TypeObj *)g_PicklingError, "first item from NEWOBJ_EX argument tuple must be %s, not %s",
                           type_name_of_type((TypeObj *)cls), type_name_of_type((TypeObj *)r[1]));
                goto out;
            }
        }
        if (!IS_TUPLE(vm_unwrap(r[2])) || !vm_isinstance_type(r[2], T_tuple)) {
            err_format((TypeObj *)g_PicklingError, "second item from NEWOBJ_EX argument tuple must be a tuple, not %.200s",
                       type_name(r[2]));
            goto out;
        }
        if (!vm_isinstance_type(r[3], T_dict)) {
            err_format((TypeObj *)g_PicklingError, "third item from NEWOBJ_EX argument tuple must be a dict, not %.200s",
                       type_name(r[3]));
            goto out;
        }
        if (pk->proto >= 4) {
            if (save(pk, r[1], false) < 0 || save(pk, r[2], false) < 0 || save(pk, r[3], false) < 0)
                goto out;
            w1(pk, NEWOBJ_EX);
        } else {
            /* partial(cls.__new__, cls, *args, **kwargs), called with () */
            Obj *q = vm_roots(2);
            q[0] = vm_getattr(r[1], NAME(__new__));
            int64_t na = TUPLE_LEN(vm_unwrap(r[2]));
            if (q[0])
                q[1] = tuple_new(na + 2);
            if (!q[1]) {
                vm_unroots(q);
                goto out;
            }
            Obj a = vm_unwrap(r[2]);
            TUPLE_ITEMS(q[1])[0] = q[0];
            TUPLE_ITEMS(q[1])[1] = r[1];
            for (int64_t i = 0; i < na; i++)
                TUPLE_ITEMS(q[1])[i + 2] = TUPLE_ITEMS(a)[i];
            q[0] = vm_call_tuple_dict(SHARED(G_PARTIAL), q[1], r[3]);
            int ok = q[0] && save(pk, q[0], false) == 0 && save(pk, g_empty_tuple, false) == 0;
            vm_unroots(q);
            if (!ok)
                goto out;
            w1(pk, REDUCE);
        }
    } else if (newobj) {
        if (TUPLE_LEN(argtup) < 1) {
            err_set((TypeObj *)g_PicklingError, "__newobj__ arglist is empty");
            goto out;
        }
        r[1] = TUPLE_ITEMS(argtup)[0];
        if (!IS_TYPE(r[1])) {
            err_set((TypeObj *)g_PicklingError, "args[0] from __newobj__ args is not a type");
            goto out;
        }
        if (objp) {
            Obj cls = vm_getattr(*objp, NAME(__class__));
            if (!cls)
                goto out;
            if (cls != r[1]) {
                err_set((TypeObj *)g_PicklingError, "args[0] from __newobj__ args has the wrong class");
                goto out;
            }
        }
        argtup = vm_unwrap(rv[1]);
        int64_t n = TUPLE_LEN(argtup);
        r[2] = tuple_new(n - 1);
        if (!r[2])
            goto out;
        argtup = vm_unwrap(rv[1]);
        for (int64_t i = 1; i < n; i++)
            TUPLE_ITEMS(r[2])[i - 1] = TUPLE_ITEMS(argtup)[i];
        if (save(pk, r[1], false) < 0 || save(pk, r[2], false) < 0)
            goto out;
        w1(pk, NEWOBJ);
    } else {
        if (save(pk, rv[0], false) < 0 || save(pk, rv[1], false) < 0)
            goto out;
        w1(pk, REDUCE);
    }
    if (objp) {
        /* already there: the object is recursive; throw away what was built and fetch it */
        int64_t idx = memo_find(pk, oid);
        if (idx >= 0) {
            w1(pk, POP);
            write_get(pk, idx);
        } else if (err_occurred() || memoize(pk, objp, oid) < 0) {
            goto out;
        }
    }
    if (nrv > 3 && rv[3] != g_None && batch_appends_iter(pk, &rv[3]) < 0)
        goto out;
    if (nrv > 4 && rv[4] != g_None && batch_setitems_iter(pk, &rv[4]) < 0)
        goto out;
    if (nrv > 2 && rv[2] != g_None) {
        if (nrv > 5 && rv[5] != g_None) {
            if (!objp) {
                err_set((TypeObj *)g_PicklingError, "a state_setter needs the object");
                goto out;
            }
            if (save(pk, rv[5], false) < 0 || save(pk, *objp, false) < 0 || save(pk, rv[2], false) < 0)
                goto out;
            w1(pk, TUPLE2);
            w1(pk, REDUCE);
            w1(pk, POP);
        } else {
            if (save(pk, rv[2], false) < 0)
                goto out;
            w1(pk, BUILD);
        }
    }
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* persistent_id(obj): 1 if it gave an id (saved), 0 if None, -1 error. */
static int save_pers(Pk *pk, Obj *op)
{
    Obj *r = vm_roots(1);
    int rc = -1;
    r[0] = vm_call1(pk->r[PR_PERSID], *op);
    if (!r[0])
        goto out;
    if (r[0] == g_None) {
        rc = 0;
        goto out;
    }
    if (pk->bin) {
        if (save(pk, r[0], true) < 0)
            goto out;
        w1(pk, BINPERSID);
    } else {
        Obj s = vm_str(r[0]);
        if (!s)
            goto out;
        if (!str_is_ascii(s)) {
            err_set((TypeObj *)g_PicklingError, "persistent IDs in protocol 0 must be ASCII strings");
            goto out;
        }
        sb_addc(&pk->out, PERSID);
        sb_add_str(&pk->out, s);
        sb_addc(&pk->out, '\n');
    }
    rc = 1;
out:
    vm_unroots(r);
    return rc;
}

/* The reduce value of obj (through reducer_override already refused):
 * dispatch_table, copyreg's, __reduce_ex__(proto), __reduce__(); or a
 * save_global for classes. *done set when the object was saved. */
static Obj reduce_value(Pk *pk, Obj *op, uint64_t oid, bool *done)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    Obj f = NULL;
    if (pk->r[PR_DISPATCH]) {
        f = vm_getitem(pk->r[PR_DISPATCH], (Obj)TYPE(*op));
        if (!f) {
            if (!err_matches(E_KeyError))
                goto out;
            err_clear();
        }
    } else {
        f = dict_getitem(SHARED(G_DISPATCH), (Obj)TYPE(*op));
        if (!f && err_occurred())
            goto out;
    }
    if (f) {
        res = vm_call1(f, *op);
        goto out;
    }
    if (type_is_subtype(TYPE(*op), T_type)) {
        *done = true;
        res = save_global(pk, op, oid, NULL) < 0 ? NULL : g_None;
        goto out;
    }
    r[0] = vm_getattr_opt(*op, name_of("__reduce_ex__"));
    if (r[0]) {
        res = vm_call1(r[0], MAKE_SMALLINT(pk->proto));
        goto out;
    }
    if (err_occurred())
        goto out;
    r[0] = vm_getattr_opt(*op, name_of("__reduce__"));
    if (r[0]) {
        res = vm_call0(r[0]);
        goto out;
    }
    if (!err_occurred()) {
        r[1] = vm_repr(*op);
        if (r[1])
            err_format((TypeObj *)g_PicklingError, "can't pickle '%.200s' object: %s", type_name(*op),
                       str_cstr(r[1]));
    }
out:
    vm_unroots(r);
    return res;
}

static int save_obj(Pk *pk, Obj *op, bool pers_save)
{
    if (!pers_save && pk->r[PR_PERSID]) {
        int p = save_pers(pk, op);
        if (p)
            return p < 0 ? -1 : 0;
    }
    Obj obj = *op;
    if (obj == g_None) {
        w1(pk, NONE);
        return 0;
    }
    if (obj == g_True || obj == g_False) {
        save_bool(pk, obj == g_True);
        return 0;
    }
    if (IS_INT_EXACT(obj))
        return save_long(pk, obj);
    if (IS_FLOAT(obj)) {
        save_float(pk, FLOAT_VAL(obj));
        return 0;
    }
    uint64_t oid = vm_object_id(obj);   /* (may move *op) */
    int64_t idx = memo_find(pk, oid);
    if (idx >= 0) {
        write_get(pk, idx);
        return 0;
    }
    if (err_occurred())
        return -1;
    obj = *op;
    if (IS_STR(obj))
        return save_str(pk, op, oid);
    if (IS_BYTES(obj))
        return save_bytes(pk, op, oid);
    if (vm_enter_recursive(" while pickling an object") < 0)
        return -1;
    int rc = -1;
    unsigned tid = TID(obj);
    if (tid == TID_DICT) {
        rc = save_dict(pk, op, oid);
        goto done;
    }
    if (tid == TID_LIST) {
        rc = save_list(pk, op, oid);
        goto done;
    }
    if (tid == TID_TUPLE) {
        rc = save_tuple(pk, op, oid);
        goto done;
    }
    if (tid == TID_SET) {
        rc = save_set(pk, op, oid, TYPE(obj) == T_frozenset);
        goto done;
    }
    if (tid == TID_BYTEARRAY) {
        rc = save_bytearray(pk, op, oid);
        goto done;
    }
    Obj *r = vm_roots(7);   /* the reduce value's items (6), the value */
    if (pk->r[PR_REDUCER]) {
        r[6] = vm_call1(pk->r[PR_REDUCER], *op);
        if (!r[6])
            goto reduced;
        if (r[6] != g_NotImplemented)
            goto reduce;
        r[6] = NULL;
    }
    if (TYPE(*op) == T_type) {
        rc = save_type(pk, op, oid);
        goto reduced;
    }
    if (TYPE(*op) == T_picklebuffer) {
        rc = save_picklebuffer(pk, op, oid);
        goto reduced;
    }
    if (IS_FUNCTION(*op)) {
        rc = save_global(pk, op, oid, NULL);
        goto reduced;
    }
    bool done = false;
    r[6] = reduce_value(pk, op, oid, &done);
    if (done) {
        rc = r[6] ? 0 : -1;
        goto reduced;
    }
    if (!r[6])
        goto reduced;
reduce:
    if (IS_STR(r[6])) {
        rc = save_global(pk, op, oid, r[6]);
        goto reduced;
    }
    if (!IS_TUPLE(r[6])) {
        err_set((TypeObj *)g_PicklingError, "__reduce__ must return a string or tuple");
        goto reduced;
    }
    int64_t n = TUPLE_LEN(r[6]);
    if (n < 2 || n > 6) {
        err_set((TypeObj *)g_PicklingError, "tuple returned by __reduce__ must contain 2 through 6 elements");
        goto reduced;
    }
    for (int64_t i = 0; i < n; i++)
        r[i] = TUPLE_ITEMS(r[6])[i];
    rc = save_reduce(pk, r, n, op, oid);
reduced:
    vm_unroots(r);
done:
    vm_leave_recursive();
    return rc;
}

static int save(Pk *pk, Obj obj, bool pers_save)
{
    Obj *r = vm_roots(1);
    r[0] = obj;   /* rooted first: a frame commit calls the file's write(), Python code */
    if (pk->frame_start >= 0 && (int64_t)pk->out.len - pk->frame_start >= FRAME_SIZE_TARGET &&
        frame_commit(pk, false, false) < 0) {
        vm_unroots(r);
        return -1;
    }
    int rc = save_obj(pk, &r[0], pers_save);
    vm_unroots(r);
    return rc;
}

/* The whole pickle of *objp: PROTO, the frames, STOP. The output is in
 * pk->out, or went to the file (PR_WRITE). */
static int dump_obj(Pk *pk, Obj *objp)
{
    pk->frame_start = -1;
    if (pk->proto >= 2) {
        unsigned char b[2] = {PROTO, (unsigned char)pk->proto};
        w(pk, b, 2);
        if (pk->proto >= 4)
            frame_begin(pk);
    }
    if (save(pk, *objp, false) < 0)
        return -1;
    w1(pk, STOP);
    if (frame_commit(pk, true, true) < 0)
        return -1;
    if (sb_failed(&pk->out)) {
        err_nomemory();
        return -1;
    }
    if (pk->r[PR_WRITE])
        return flush_out(pk);
    return 0;
}

/* Set up pk from a Pickler instance (its state, its attributes). */
static int pk_from_pickler(Pk *pk, Obj *selfp)
{
    Obj st = state_of(*selfp);
    if (!st || !(ITER(st)->n & PFL_INIT)) {
        err_format((TypeObj *)g_PicklingError, "Pickler.__init__() was not called by %s.__init__()",
                   type_name(*selfp));
        return -1;
    }
    pk->proto = (int)ITER(st)->i;
    pk->bin = pk->proto > 0;
    pk->fix_imports = ITER(st)->n & PFL_FIX_IMPORTS;
    pk->fast = ITER(st)->n & PFL_FAST;
    pk->r[PR_WRITE] = field(st, PF_WRITE);
    pk->r[PR_MEMO] = field(st, PF_MEMO);
    pk->r[PR_MEMO_OBJS] = field(st, PF_MEMO_OBJS);
    pk->r[PR_BUFCB] = IS_NONE(field(st, PF_BUFCB)) ? NULL : field(st, PF_BUFCB);
    if (!(pk->r[PR_PERSID] = vm_getattr_opt(*selfp, name_of("persistent_id"))) && err_occurred())
        return -1;
    if (!(pk->r[PR_REDUCER] = vm_getattr_opt(*selfp, name_of("reducer_override"))) && err_occurred())
        return -1;
    if (!(pk->r[PR_DISPATCH] = vm_getattr_opt(*selfp, name_of("dispatch_table"))) && err_occurred())
        return -1;
    return 0;
}

static Obj pickler_dump(Obj *args, size_t nargs, Obj kwnames)
{
    Pk pk = {0};
    pk.r = vm_roots(PR_COUNT + 1);
    Obj res = NULL;
    pk.r[PR_SELF] = args[0];
    pk.r[PR_COUNT] = args[1];
    sb_init(&pk.out);
    if (pk_from_pickler(&pk, &pk.r[PR_SELF]) == 0 && dump_obj(&pk, &pk.r[PR_COUNT]) == 0)
        res = g_None;
    sb_free(&pk.out);
    vm_unroots(pk.r);
    return res;
}

/* dumps / dump: a pickler without an object. */
static Obj dump_common(Obj *objp, Obj file, Obj protocol, Obj fix_imports, Obj bufcb)
{
    Pk pk = {0};
    pk.r = vm_roots(PR_COUNT);
    Obj res = NULL;
    int proto;
    if (protocol_arg(protocol, &proto) < 0)
        goto out;
    pk.proto = proto;
    pk.bin = proto > 0;
    int fix = fix_imports ? vm_is_true(fix_imports) : 1;
    if (fix < 0)
        goto out;
    pk.fix_imports = fix && proto < 3;
    if (bufcb && bufcb != g_None && proto < 5) {
        err_set(E_ValueError, "buffer_callback needs protocol >= 5");
        goto out;
    }
    if (file) {
        pk.r[PR_WRITE] = vm_getattr_opt(file, name_of("write"));
        if (!pk.r[PR_WRITE]) {
            if (!err_occurred())
                err_set(E_TypeError, "file must have a 'write' attribute");
            goto out;
        }
    }
    pk.r[PR_BUFCB] = bufcb && !IS_NONE(bufcb) ? bufcb : NULL;
    if (!(pk.r[PR_MEMO_OBJS] = list_new_capacity(0)))
        goto out;
    pk.cmask = 63;
    if (!(pk.ctab = calloc((pk.cmask + 1) * 2, sizeof *pk.ctab))) {
        err_nomemory();
        goto out;
    }
    sb_init(&pk.out);
    sb_reserve(&pk.out, 256);
    if (dump_obj(&pk, objp) == 0)
        res = file ? g_None : bytes_new(pk.out.p, pk.out.len);
    sb_free(&pk.out);
    free(pk.ctab);
out:
    vm_unroots(pk.r);
    return res;
}

static Obj pickle_dumps(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"obj", "protocol", "fix_imports", "buffer_callback", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    if (vm_parse_args("dumps", args, nargs, kwnames, names, 1, 2, a) == 0)
        res = dump_common(&a[0], NULL, a[1], a[2], a[3]);
    vm_unroots(a);
    return res;
}

static Obj pickle_dump(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"obj", "file", "protocol", "fix_imports", "buffer_callback", NULL};
    Obj *a = vm_roots(5);
    Obj res = NULL;
    if (vm_parse_args("dump", args, nargs, kwnames, names, 2, 3, a) == 0)
        res = dump_common(&a[0], a[1], a[2], a[3], a[4]);
    vm_unroots(a);
    return res;
}

/* An instance of type whose base_value is a fresh state of nfields fields (None). */
static Obj instance_with_state(Obj type, int nfields)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = type;
    r[1] = state_new(nfields);
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

static Obj pickler_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    return instance_with_state(type, PF_COUNT);
}

static int pickler_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"file", "protocol", "fix_imports", "buffer_callback", NULL};
    Obj *a = vm_roots(7);   /* the 4 arguments, self, write, memo */
    int rc = -1;
    a[4] = self;
    if (vm_parse_args("Pickler", args, nargs, kwnames, names, 1, 4, a) < 0)
        goto out;
    Obj st = state_of(a[4]);
    if (!st) {
        err_set(E_TypeError, "Pickler.__init__() needs a Pickler instance");
        goto out;
    }
    int proto;
    if (protocol_arg(a[1], &proto) < 0)
        goto out;
    int fix = a[2] ? vm_is_true(a[2]) : 1;
    if (fix < 0)
        goto out;
    if (a[3] && a[3] != g_None && proto < 5) {
        err_set(E_ValueError, "buffer_callback needs protocol >= 5");
        goto out;
    }
    a[5] = vm_getattr_opt(a[0], name_of("write"));
    if (!a[5]) {
        if (!err_occurred())
            err_set(E_TypeError, "file must have a 'write' attribute");
        goto out;
    }
    if (!(a[6] = dict_new()))
        goto out;
    st = state_of(a[4]);
    set_field(st, PF_MEMO, a[6]);
    if (!(a[6] = list_new_capacity(0)))
        goto out;
    st = state_of(a[4]);
    set_field(st, PF_MEMO_OBJS, a[6]);
    set_field(st, PF_WRITE, a[5]);
    set_field(st, PF_BUFCB, a[3] ? a[3] : g_None);
    VM_WRITE(st);
    ITER(st)->i = proto;
    ITER(st)->n = PFL_INIT | (fix && proto < 3 ? PFL_FIX_IMPORTS : 0);
    rc = 0;
out:
    vm_unroots(a);
    return rc;
}

static Obj pickler_state_checked(Obj self)
{
    Obj st = state_of(self);
    if (!st)
        err_format(E_TypeError, "'%s' object is not a Pickler", type_name(self));
    return st;
}

static Obj pickler_clear_memo(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = pickler_state_checked(args[0]);
    if (!st)
        return NULL;
    if (field(st, PF_MEMO) && field(st, PF_MEMO) != g_None) {
        dict_clear(field(st, PF_MEMO));
        list_clear(field(st, PF_MEMO_OBJS));
    }
    return g_None;
}

static Obj pickler_get_fast(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = pickler_state_checked(args[0]);
    return st ? MAKE_SMALLINT((ITER(st)->n & PFL_FAST) != 0) : NULL;
}

static Obj pickler_set_fast(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = pickler_state_checked(args[0]);
    if (!st)
        return NULL;
    if (!args[1]) {
        err_set(E_AttributeError, "attribute deletion is not supported");
        return NULL;
    }
    int t = vm_is_true(args[1]);
    if (t < 0)
        return NULL;
    st = state_of(args[0]);
    VM_WRITE(st);
    ITER(st)->n = t ? (ITER(st)->n | PFL_FAST) : (ITER(st)->n & ~(int64_t)PFL_FAST);
    return g_None;
}

static Obj pickler_get_bin(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = pickler_state_checked(args[0]);
    return st ? MAKE_SMALLINT(ITER(st)->i > 0) : NULL;
}

static Obj memo_proxy_new(TypeObj *t, Obj owner)
{
    return iter_alloc(t, owner, 0);
}

static Obj pickler_get_memo(Obj *args, size_t nargs, Obj kwnames)
{
    if (!pickler_state_checked(args[0]))
        return NULL;
    return memo_proxy_new(T_pmemo_proxy, args[0]);
}

/* {id: (index, obj)} of a pickler's memo. */
static Obj pickler_memo_copy(Obj self)
{
    Obj st = pickler_state_checked(self);
    if (!st)
        return NULL;
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = self;
    r[1] = dict_new();
    if (!r[1])
        goto out;
    st = state_of(r[0]);
    int64_t pos = 0, k = 0;
    Obj key, v;
    while (field(st, PF_MEMO) != g_None && dict_next(field(st, PF_MEMO), &pos, &key, &v)) {
        r[2] = key;
        r[3] = tuple_pack(2, v, LIST_ITEMS(field(state_of(r[0]), PF_MEMO_OBJS))[k]);
        if (!r[3] || dict_setitem(r[1], r[2], r[3]) < 0)
            goto out;
        k++;
        st = state_of(r[0]);
    }
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

static Obj pickler_set_memo(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = pickler_state_checked(args[0]);
    if (!st)
        return NULL;
    if (!args[1]) {
        err_set(E_TypeError, "attribute deletion is not supported");
        return NULL;
    }
    Obj *r = vm_roots(6);   /* self, source dict, new memo, new objs, item, obj */
    Obj res = NULL;
    r[0] = args[0];
    if (TID(args[1]) == TID_ITER && ITER(args[1])->cls == (Obj)T_pmemo_proxy) {
        r[1] = pickler_memo_copy(ITER(args[1])->a);
    } else if (IS_DICT(args[1])) {
        r[1] = args[1];
    } else {
        err_format(E_TypeError, "'memo' attribute must be a PicklerMemoProxy object or dict, not %.200s",
                   type_name(args[1]));
        goto out;
    }
    if (!r[1] || !(r[2] = dict_new()) || !(r[3] = list_new_capacity(0)))
        goto out;
    int64_t pos = 0;
    Obj key, v;
    while (dict_next(r[1], &pos, &key, &v)) {
        if (!IS_TUPLE(v) || TUPLE_LEN(v) != 2) {
            err_set(E_TypeError, "'memo' values must be 2-item tuples");
            goto out;
        }
        r[4] = TUPLE_ITEMS(v)[0];
        r[5] = TUPLE_ITEMS(v)[1];
        int64_t idx;
        if (vm_index_i64(r[4], &idx) < 0)
            goto out;
        uint64_t oid = vm_object_id_slot(&r[5]);
        if (dict_setitem(r[2], MAKE_SMALLINT((int64_t)oid), MAKE_SMALLINT(idx)) < 0 || list_append(r[3], r[5]) < 0)
            goto out;
    }
    st = state_of(r[0]);
    set_field(st, PF_MEMO, r[2]);
    set_field(st, PF_MEMO_OBJS, r[3]);
    res = g_None;
out:
    vm_unroots(r);
    return res;
}

static Obj pmemo_copy(Obj *args, size_t nargs, Obj kwnames)
{
    return pickler_memo_copy(ITER(args[0])->a);
}

static Obj pmemo_clear(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    r[0] = ITER(args[0])->a;
    Obj res = pickler_clear_memo(r, 1, NULL);
    vm_unroots(r);
    return res;
}

/* (dict, (copy,)) */
static Obj memo_reduce(Obj copy)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = copy;
    if (r[0] && (r[0] = tuple_pack(1, r[0])))
        res = tuple_pack(2, (Obj)T_dict, r[0]);
    vm_unroots(r);
    return res;
}

static Obj pmemo_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    return memo_reduce(pickler_memo_copy(ITER(args[0])->a));
}

/* ------------------------------------------------------------------ */
/* Unpickler                                                           */
/* ------------------------------------------------------------------ */

enum { UF_READ, UF_READLINE, UF_MEMO, UF_SPARSE, UF_MEMO_LEN, UF_ENCODING, UF_ERRORS, UF_BUFFERS, UF_COUNT };
enum { UFL_INIT = 1, UFL_FIX_IMPORTS = 2 };
enum { UR_SELF, UR_STATE, UR_STACK, UR_PERSLOAD, UR_FINDCLASS, UR_T0, UR_T1, UR_T2, UR_T3, UR_COUNT };

typedef struct Up {
    Obj *r;
    unsigned char *buf;
    int64_t len, pos;
    bool file;
    int64_t *marks;
    int64_t nmarks, capmarks;
    int proto;
    bool fix_imports;
} Up;

static void raise_unpickling(const char *msg)
{
    err_set((TypeObj *)g_UnpicklingError, msg);
}

static inline Obj up_state(Up *u)
{
    return u->r[UR_STATE];
}

/* Read n more bytes of input from the file after the rest of the buffer. */
static int up_fill(Up *u, int64_t n, bool line)
{
    if (!u->file) {
        raise_unpickling("pickle data was truncated");
        return -1;
    }
    int64_t rest = u->len - u->pos;
    if (u->pos && rest)
        memmove(u->buf, u->buf + u->pos, (size_t)rest);
    u->len = rest;
    u->pos = 0;
    Obj data;
    if (line) {
        data = vm_call0(field(up_state(u), UF_READLINE));
    } else {
        Obj cnt = int_from_i64(n - rest);
        data = cnt ? vm_call1(field(up_state(u), UF_READ), cnt) : NULL;
    }
    if (!data)
        return -1;
    const char *p;
    int64_t got;
    if (!bytes_like(data, &p, &got)) {
        err_format(E_TypeError, "a bytes-like object is required, not '%.100s'", type_name(data));
        return -1;
    }
    unsigned char *nb = realloc(u->buf, (size_t)(rest + got + 1));
    if (!nb) {
        err_nomemory();
        return -1;
    }
    u->buf = nb;
    if (!bytes_like(data, &p, &got))   /* (linear again: realloc ran no GC, but be exact) */
        return -1;
    memcpy(u->buf + rest, p, (size_t)got);
    u->len = rest + got;
    if (!line && u->len < n) {
        raise_unpickling("pickle data was truncated");
        return -1;
    }
    return 0;
}

static inline const unsigned char *up_read(Up *u, int64_t n)
{
    if (likely(u->len - u->pos >= n)) {
        const unsigned char *p = u->buf + u->pos;
        u->pos += n;
        return p;
    }
    if (n < 0 || up_fill(u, n, false) < 0)
        return NULL;
    const unsigned char *p = u->buf + u->pos;
    u->pos += n;
    return p;
}

/* One line (its length in *n, the newline included if there is one). */
static const unsigned char *up_readline(Up *u, int64_t *n)
{
    const unsigned char *p = u->buf + u->pos;
    const unsigned char *nl = u->len > u->pos ? memchr(p, '\n', (size_t)(u->len - u->pos)) : NULL;
    if (!nl && u->file) {
        if (up_fill(u, 0, true) < 0)
            return NULL;
        p = u->buf + u->pos;
        nl = u->len > u->pos ? memchr(p, '\n', (size_t)(u->len - u->pos)) : NULL;
    }
    int64_t len = nl ? nl - p + 1 : u->len - u->pos;
    if (len == 0) {
        raise_unpickling("pickle data was truncated");
        return NULL;
    }
    u->pos += len;
    *n = len;
    return p;
}

/* A line without its newline, which must be there (the text opcodes). */
static const unsigned char *up_textline(Up *u, int64_t *n)
{
    const unsigned char *p = up_readline(u, n);
    if (!p)
        return NULL;
    if (*n < 1 || p[*n - 1] != '\n') {
        raise_unpickling("pickle data was truncated");
        return NULL;
    }
    (*n)--;
    return p;
}

/* ---- the stack ---- */

static inline int64_t fence(Up *u)
{
    return u->nmarks ? u->marks[u->nmarks - 1] : 0;
}

static int stack_underflow(Up *u)
{
    raise_unpickling(u->nmarks ? "unexpected MARK found" : "unpickling stack underflow");
    return -1;
}

static inline int push(Up *u, Obj v)
{
    return v ? list_append(u->r[UR_STACK], v) : -1;
}

static inline void stack_truncate(Up *u, int64_t n)
{
    Obj l = u->r[UR_STACK];
    VM_WRITE(l);
    LIST(l)->length = n;
}

static Obj pop(Up *u)
{
    int64_t n = LIST_LEN(u->r[UR_STACK]);
    if (n <= fence(u)) {
        stack_underflow(u);
        return NULL;
    }
    Obj v = LIST_ITEMS(u->r[UR_STACK])[n - 1];
    stack_truncate(u, n - 1);
    return v;
}

static Obj top(Up *u)
{
    int64_t n = LIST_LEN(u->r[UR_STACK]);
    if (n <= fence(u)) {
        stack_underflow(u);
        return NULL;
    }
    return LIST_ITEMS(u->r[UR_STACK])[n - 1];
}

/* The stack position of the last MARK (popped), or -1. */
static int64_t marker(Up *u)
{
    if (!u->nmarks) {
        raise_unpickling("could not find MARK");
        return -1;
    }
    return u->marks[--u->nmarks];
}

/* The items from position `from` up as a tuple (or list), removed from the stack. */
static Obj pop_items(Up *u, int64_t from, bool as_list)
{
    int64_t n = LIST_LEN(u->r[UR_STACK]) - from;
    Obj res = as_list ? list_new(n) : tuple_new(n);
    if (!res)
        return NULL;
    Obj __seg_gs *items = LIST_ITEMS(u->r[UR_STACK]);
    if (as_list) {
        Obj arr = LIST(res)->array;
        for (int64_t i = 0; i < n; i++)
            ARRAY(arr)->items[i] = items[from + i];
    } else {
        for (int64_t i = 0; i < n; i++)
            TUPLE_ITEMS(res)[i] = items[from + i];
    }
    stack_truncate(u, from);
    return res;
}

/* ---- the memo ---- */

static Obj memo_get(Up *u, int64_t idx)
{
    Obj st = up_state(u);
    Obj memo = field(st, UF_MEMO);
    if (idx >= 0 && idx < LIST_LEN(memo)) {
        Obj v = LIST_ITEMS(memo)[idx];
        if (v != SHARED(G_HOLE))
            return v;
    } else if (field(st, UF_SPARSE) != g_None) {
        Obj v = dict_getitem(field(st, UF_SPARSE), MAKE_SMALLINT(idx));
        if (v)
            return v;
    }
    err_format((TypeObj *)g_UnpicklingError, "Memo value not found at index %lld", (long long)idx);
    return NULL;
}

static int memo_put_in(Obj *stp, int64_t idx, Obj value)
{
    Obj *r = vm_roots(2);
    int rc = -1;
    r[0] = value;
    Obj memo = field(*stp, UF_MEMO);
    int64_t n = LIST_LEN(memo);
    bool fresh = true;
    if (idx < n) {
        fresh = LIST_ITEMS(memo)[idx] == SHARED(G_HOLE);
        Obj arr = LIST(memo)->array;
        VM_WRITE_ITEM(arr, idx);
        ARRAY(arr)->items[idx] = r[0];
    } else if (idx <= 2 * n + 1024) {
        while (LIST_LEN(field(*stp, UF_MEMO)) < idx)
            if (list_append(field(*stp, UF_MEMO), SHARED(G_HOLE)) < 0)
                goto out;
        if (list_append(field(*stp, UF_MEMO), r[0]) < 0)
            goto out;
    } else {
        if (field(*stp, UF_SPARSE) == g_None) {
            r[1] = dict_new();
            if (!r[1])
                goto out;
            set_field(*stp, UF_SPARSE, r[1]);
        }
        int c = dict_contains(field(*stp, UF_SPARSE), MAKE_SMALLINT(idx));
        if (c < 0 || dict_setitem(field(*stp, UF_SPARSE), MAKE_SMALLINT(idx), r[0]) < 0)
            goto out;
        fresh = !c;
    }
    if (fresh)
        set_field(*stp, UF_MEMO_LEN, MAKE_SMALLINT(SMALLINT_VAL(field(*stp, UF_MEMO_LEN)) + 1));
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

static int memo_put_top(Up *u, int64_t idx)
{
    Obj v = top(u);
    if (!v)
        return -1;
    if (idx < 0) {
        err_set(E_ValueError, "negative PUT argument");
        return -1;
    }
    return memo_put_in(&u->r[UR_STATE], idx, v);
}

/* ---- opcodes that call into Python ---- */

/* find_class(module, name) through the instance when a subclass overrides it. */
static Obj find_class_impl(Obj *stp, int proto, bool fix_imports, Obj module, Obj name);

static Obj find_class(Up *u, Obj module, Obj name)
{
    if (u->r[UR_FINDCLASS]) {
        Obj *r = vm_roots(2);
        r[0] = module;
        r[1] = name;
        Obj res = vm_call(u->r[UR_FINDCLASS], r, 2, NULL);
        vm_unroots(r);
        return res;
    }
    return find_class_impl(&u->r[UR_STATE], u->proto, u->fix_imports, module, name);
}

static Obj find_class_impl(Obj *stp, int proto, bool fix_imports, Obj module, Obj name)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = module;
    r[1] = name;
    if (proto < 3 && fix_imports) {
        r[2] = tuple_pack(2, r[0], r[1]);
        if (!r[2])
            goto out;
        Obj m = dict_getitem(SHARED(G_NAME_MAP), r[2]);
        if (m) {
            if (!IS_TUPLE(m) || TUPLE_LEN(m) != 2) {
                err_format(E_RuntimeError, "_compat_pickle.NAME_MAPPING values should be 2-tuples, not %.200s",
                           type_name(m));
                goto out;
            }
            r[0] = TUPLE_ITEMS(m)[0];
            r[1] = TUPLE_ITEMS(m)[1];
        } else if (err_occurred()) {
            goto out;
        } else if ((m = dict_getitem(SHARED(G_IMPORT_MAP), r[0]))) {
            r[0] = m;
        } else if (err_occurred()) {
            goto out;
        }
    }
    if (!IS_STR(r[0])) {
        err_format(E_TypeError, "module name must be str, not %.200s", type_name(r[0]));
        goto out;
    }
    char *modname = strdup(str_cstr(r[0]));
    if (!modname) {
        err_nomemory();
        goto out;
    }
    Obj imported = vm_import_cstr(modname);
    free(modname);
    if (!imported)
        goto out;
    r[2] = dict_getitem(g_modules, r[0]);
    if (!r[2]) {
        if (!err_occurred())
            err_set_value(E_KeyError, r[0]);
        goto out;
    }
    if (proto >= 4 && IS_STR(r[1])) {
        Obj *q = vm_roots(2);
        if (get_dotted(r[2], r[1], q) == 0)
            res = q[0];
        vm_unroots(q);
    } else {
        res = vm_getattr(r[2], r[1]);
    }
out:
    vm_unroots(r);
    return res;
}

/* cls(*args), or cls.__new__(cls) for a class without args and __getinitargs__. */
static Obj instantiate(Obj cls, Obj args)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = cls;
    r[1] = args;
    if (TUPLE_LEN(r[1]) == 0 && IS_TYPE(r[0])) {
        r[2] = vm_getattr_opt(r[0], name_of("__getinitargs__"));
        if (!r[2]) {
            if (err_occurred())
                goto out;
            r[2] = vm_getattr(r[0], NAME(__new__));
            if (r[2])
                res = vm_call1(r[2], r[0]);
            goto out;
        }
    }
    res = vm_call_tuple_dict(r[0], r[1], NULL);
out:
    vm_unroots(r);
    return res;
}

static Obj decode_bytes_obj(Up *u, Obj *bp);

static Obj decode_string(Up *u, const unsigned char *p, int64_t n)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = bytes_new((const char *)p, (size_t)n);   /* (p is C memory: the input buffer) */
    if (r[0])
        res = decode_bytes_obj(u, &r[0]);
    vm_unroots(r);
    return res;
}

/* The bytes in *bp (a root slot) as STRING / BINSTRING give them: decoded with the encoding and errors
 * of the unpickler, or as they are for encoding 'bytes'. */
static Obj decode_bytes_obj(Up *u, Obj *bp)
{
    Obj enc = field(up_state(u), UF_ENCODING);
    if (IS_STR(enc) && str_eq_cstr(enc, "bytes"))
        return *bp;
    Obj *a = vm_roots(2);
    a[0] = field(up_state(u), UF_ENCODING);
    a[1] = field(up_state(u), UF_ERRORS);
    Obj res = vm_call_method(*bp, "decode", a, 2);
    vm_unroots(a);
    return res;
}

static Obj load_int_text(const unsigned char *p, int64_t n, bool long_form)
{
    if (long_form && n && p[n - 1] == 'L')
        n--;
    if (!long_form && n == 2 && p[0] == '0' && (p[1] == '0' || p[1] == '1'))
        return vm_bool(p[1] == '1');
    return int_from_string((const char *)p, (size_t)n, 0);
}

/* int.from_bytes(p[0..n), 'little', signed=True) */
static Obj decode_long(const unsigned char *p, int64_t n)
{
    if (n == 0)
        return MAKE_SMALLINT(0);
    if (n <= 8) {
        uint64_t v = le_u(p, (int)n);
        if (n < 8 && (p[n - 1] & 0x80))
            v |= ~(uint64_t)0 << (8 * n);
        return int_from_i64((int64_t)v);
    }
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = bytes_new((const char *)p, (size_t)n);
    if (r[0] && (r[1] = str_from_cstr("little")) && (r[2] = g_True) && (r[3] = vm_getattr_cstr((Obj)T_int, "from_bytes"))) {
        Obj kw = tuple_pack(1, name_of("signed"));
        if (kw)
            res = vm_call(r[3], r, 2, kw);
    }
    vm_unroots(r);
    return res;
}

/* str from UTF-8 with surrogatepass (str keeps surrogates in that form). */
static Obj decode_utf8(const unsigned char *p, int64_t n)
{
    if (utf8_valid_prefix((const char *)p, (size_t)n) == (size_t)n)
        return str_new((const char *)p, (size_t)n);
    Obj b = bytes_new((const char *)p, (size_t)n);
    return b ? bytes_decode(b, "utf-8", "surrogatepass") : NULL;
}

static int load_persid(Up *u, Obj pid)
{
    if (!u->r[UR_PERSLOAD]) {
        raise_unpickling("A load persistent id instruction was encountered,\nbut no persistent_load function was specified.");
        return -1;
    }
    return push(u, vm_call1(u->r[UR_PERSLOAD], pid));
}

/* list.append / extend of the items from stack position x on, into the list below them. */
static int do_append(Up *u, int64_t x)
{
    int64_t len = LIST_LEN(u->r[UR_STACK]);
    if (x > len || x <= fence(u))
        return stack_underflow(u);
    if (x == len)
        return 0;
    u->r[UR_T0] = LIST_ITEMS(u->r[UR_STACK])[x - 1];
    if (IS_LIST(u->r[UR_T0])) {
        for (int64_t i = x; i < len; i++)
            if (list_append(u->r[UR_T0], LIST_ITEMS(u->r[UR_STACK])[i]) < 0)
                return -1;
        stack_truncate(u, x);
        return 0;
    }
    u->r[UR_T1] = vm_getattr_opt(u->r[UR_T0], name_of("extend"));
    if (u->r[UR_T1]) {
        u->r[UR_T2] = pop_items(u, x, true);
        return u->r[UR_T2] && vm_call1(u->r[UR_T1], u->r[UR_T2]) ? 0 : -1;
    }
    if (err_occurred())
        return -1;
    u->r[UR_T1] = vm_getattr(u->r[UR_T0], name_of("append"));
    if (!u->r[UR_T1])
        return -1;
    u->r[UR_T2] = pop_items(u, x, false);
    if (!u->r[UR_T2])
        return -1;
    for (int64_t i = 0; i < TUPLE_LEN(u->r[UR_T2]); i++)
        if (!vm_call1(u->r[UR_T1], TUPLE_ITEMS(u->r[UR_T2])[i]))
            return -1;
    return 0;
}

/* dict[key] = value for the pairs from stack position x on, into the mapping below them. */
static int do_setitems(Up *u, int64_t x)
{
    int64_t len = LIST_LEN(u->r[UR_STACK]);
    if (x > len || x <= fence(u))
        return stack_underflow(u);
    if (x == len)
        return 0;
    if ((len - x) % 2) {
        raise_unpickling("odd number of items for SETITEMS");
        return -1;
    }
    u->r[UR_T0] = LIST_ITEMS(u->r[UR_STACK])[x - 1];
    u->r[UR_T1] = pop_items(u, x, false);
    if (!u->r[UR_T1])
        return -1;
    for (int64_t i = 0; i < TUPLE_LEN(u->r[UR_T1]); i += 2) {
        Obj k = TUPLE_ITEMS(u->r[UR_T1])[i], v = TUPLE_ITEMS(u->r[UR_T1])[i + 1];
        if ((IS_DICT(u->r[UR_T0]) ? dict_setitem(u->r[UR_T0], k, v) : vm_setitem(u->r[UR_T0], k, v)) < 0)
            return -1;
    }
    return 0;
}

static int load_additems(Up *u)
{
    int64_t x = marker(u);
    if (x < 0)
        return -1;
    int64_t len = LIST_LEN(u->r[UR_STACK]);
    if (x > len || x <= fence(u))
        return stack_underflow(u);
    if (x == len)
        return 0;
    u->r[UR_T0] = LIST_ITEMS(u->r[UR_STACK])[x - 1];
    u->r[UR_T1] = pop_items(u, x, false);
    if (!u->r[UR_T1])
        return -1;
    if (TID(u->r[UR_T0]) == TID_SET && TYPE(u->r[UR_T0]) == T_set)
        return set_update(u->r[UR_T0], u->r[UR_T1]);
    u->r[UR_T2] = vm_getattr(u->r[UR_T0], name_of("add"));
    if (!u->r[UR_T2])
        return -1;
    for (int64_t i = 0; i < TUPLE_LEN(u->r[UR_T1]); i++)
        if (!vm_call1(u->r[UR_T2], TUPLE_ITEMS(u->r[UR_T1])[i]))
            return -1;
    return 0;
}

static int load_build(Up *u)
{
    u->r[UR_T0] = pop(u);
    if (!u->r[UR_T0])
        return -1;
    u->r[UR_T1] = top(u);
    if (!u->r[UR_T1])
        return -1;
    u->r[UR_T2] = vm_getattr_opt(u->r[UR_T1], name_of("__setstate__"));
    if (u->r[UR_T2])
        return vm_call1(u->r[UR_T2], u->r[UR_T0]) ? 0 : -1;
    if (err_occurred())
        return -1;
    /* the default: state, or (state, slotstate) */
    u->r[UR_T3] = NULL;
    if (IS_TUPLE(u->r[UR_T0]) && TUPLE_LEN(u->r[UR_T0]) == 2) {
        u->r[UR_T3] = TUPLE_ITEMS(u->r[UR_T0])[1];
        u->r[UR_T0] = TUPLE_ITEMS(u->r[UR_T0])[0];
    }
    if (u->r[UR_T0] != g_None) {
        if (!IS_DICT(vm_unwrap(u->r[UR_T0]))) {
            raise_unpickling("state is not a dictionary");
            return -1;
        }
        u->r[UR_T2] = vm_getattr(u->r[UR_T1], NAME(__dict__));
        if (!u->r[UR_T2])
            return -1;
        Obj *q = vm_roots(3);
        q[0] = dict_items_list(vm_unwrap(u->r[UR_T0]));
        int rc = q[0] ? 0 : -1;
        for (int64_t i = 0; rc == 0 && i < LIST_LEN(q[0]); i++) {
            Obj item = LIST_ITEMS(q[0])[i];
            q[1] = TUPLE_ITEMS(item)[0];
            q[2] = TUPLE_ITEMS(item)[1];
            if (IS_STR(q[1]) && !(q[1] = str_intern(q[1])))
                rc = -1;
            else if ((IS_DICT(u->r[UR_T2]) ? dict_setitem(u->r[UR_T2], q[1], q[2])
                                            : vm_setitem(u->r[UR_T2], q[1], q[2])) < 0)
                rc = -1;
        }
        vm_unroots(q);
        if (rc < 0)
            return -1;
    }
    if (u->r[UR_T3] && u->r[UR_T3] != g_None) {
        if (!IS_DICT(vm_unwrap(u->r[UR_T3]))) {
            raise_unpickling("slot state is not a dictionary");
            return -1;
        }
        Obj *q = vm_roots(3);
        q[0] = dict_items_list(vm_unwrap(u->r[UR_T3]));
        int rc = q[0] ? 0 : -1;
        for (int64_t i = 0; rc == 0 && i < LIST_LEN(q[0]); i++) {
            Obj item = LIST_ITEMS(q[0])[i];
            q[1] = TUPLE_ITEMS(item)[0];
            q[2] = TUPLE_ITEMS(item)[1];
            if (vm_setattr(u->r[UR_T1], q[1], q[2]) < 0)
                rc = -1;
        }
        vm_unroots(q);
        if (rc < 0)
            return -1;
    }
    return 0;
}

static int load_extension(Up *u, int64_t code)
{
    Obj key = MAKE_SMALLINT(code);
    Obj obj = dict_getitem(SHARED(G_EXT_CACHE), key);
    if (obj)
        return push(u, obj);
    if (err_occurred())
        return -1;
    Obj pair = dict_getitem(SHARED(G_INV_REG), key);
    if (!pair) {
        if (err_occurred())
            return -1;
        if (code <= 0)
            raise_unpickling("EXT specifies code <= 0");
        else
            err_format(E_ValueError, "unregistered extension code %lld", (long long)code);
        return -1;
    }
    if (!IS_TUPLE(pair) || TUPLE_LEN(pair) != 2) {
        err_format(E_ValueError, "_inverted_registry[%lld] isn't a 2-tuple of strings", (long long)code);
        return -1;
    }
    u->r[UR_T0] = find_class(u, TUPLE_ITEMS(pair)[0], TUPLE_ITEMS(pair)[1]);
    if (!u->r[UR_T0] || dict_setitem(SHARED(G_EXT_CACHE), key, u->r[UR_T0]) < 0)
        return -1;
    return push(u, u->r[UR_T0]);
}

static int push_mark(Up *u)
{
    if (u->nmarks == u->capmarks) {
        int64_t cap = u->capmarks ? u->capmarks * 2 : 16;
        int64_t *m = realloc(u->marks, (size_t)cap * sizeof *m);
        if (!m) {
            err_nomemory();
            return -1;
        }
        u->marks = m;
        u->capmarks = cap;
    }
    u->marks[u->nmarks++] = LIST_LEN(u->r[UR_STACK]);
    return 0;
}

/* The opcode loop: the unpickled object, or NULL. */
static Obj load(Up *u)
{
    const unsigned char *s;
    int64_t n, x;
    for (;;) {
        if (!(s = up_read(u, 1))) {
            if (err_matches((TypeObj *)g_UnpicklingError)) {
                err_clear();
                err_set(E_EOFError, "Ran out of input");
            }
            return NULL;
        }
        int op = s[0];
        switch (op) {
        case MARK:
            if (push_mark(u) < 0)
                return NULL;
            break;
        case STOP: {
            Obj v = pop(u);
            return v;
        }
        case POP:
            n = LIST_LEN(u->r[UR_STACK]);
            if (u->nmarks && u->marks[u->nmarks - 1] == n)
                u->nmarks--;
            else if (n <= fence(u))
                { stack_underflow(u); return NULL; }
            else
                stack_truncate(u, n - 1);
            break;
        case POP_MARK:
            if ((x = marker(u)) < 0)
                return NULL;
            stack_truncate(u, x);
            break;
        case DUP:
            if (push(u, top(u)) < 0)
                return NULL;
            break;
        case FLOAT: {
            if (!(s = up_textline(u, &n)))
                return NULL;
            char buf[64], *end;
            if (n >= (int64_t)sizeof buf) {
                Obj b = bytes_new((const char *)s, (size_t)n);
                if (push(u, b ? float_parse_object(b) : NULL) < 0)
                    return NULL;
                break;
            }
            memcpy(buf, s, (size_t)n);
            buf[n] = 0;
            double d = strtod(buf, &end);
            if (end == buf || *end) {
                Obj b = bytes_new(buf, (size_t)n);
                if (push(u, b ? float_parse_object(b) : NULL) < 0)
                    return NULL;
                break;
            }
            if (push(u, float_new(d)) < 0)
                return NULL;
            break;
        }
        case INT:
        case LONG:
            if (!(s = up_textline(u, &n)) || push(u, load_int_text(s, n, op == LONG)) < 0)
                return NULL;
            break;
        case BININT:
            if (!(s = up_read(u, 4)) || push(u, MAKE_SMALLINT((int32_t)le_u(s, 4))) < 0)
                return NULL;
            break;
        case BININT1:
            if (!(s = up_read(u, 1)) || push(u, MAKE_SMALLINT(s[0])) < 0)
                return NULL;
            break;
        case BININT2:
            if (!(s = up_read(u, 2)) || push(u, MAKE_SMALLINT(le_u(s, 2))) < 0)
                return NULL;
            break;
        case LONG1:
        case LONG4: {
            int k = op == LONG1 ? 1 : 4;
            if (!(s = up_read(u, k)))
                return NULL;
            n = op == LONG1 ? s[0] : (int32_t)le_u(s, 4);
            if (n < 0) {
                raise_unpickling("LONG pickle has negative byte count");
                return NULL;
            }
            if (!(s = up_read(u, n)) || push(u, decode_long(s, n)) < 0)
                return NULL;
            break;
        }
        case BINFLOAT: {
            if (!(s = up_read(u, 8)))
                return NULL;
            uint64_t bits = 0;
            for (int i = 0; i < 8; i++)
                bits = bits << 8 | s[i];
            double d;
            memcpy(&d, &bits, 8);
            if (push(u, float_new(d)) < 0)
                return NULL;
            break;
        }
        case NONE:
            if (push(u, g_None) < 0)
                return NULL;
            break;
        case NEWTRUE:
        case NEWFALSE:
            if (push(u, vm_bool(op == NEWTRUE)) < 0)
                return NULL;
            break;
        case PERSID: {
            if (!(s = up_textline(u, &n)))
                return NULL;
            for (int64_t i = 0; i < n; i++)
                if (s[i] >= 0x80) {
                    raise_unpickling("persistent IDs in protocol 0 must be ASCII strings");
                    return NULL;
                }
            u->r[UR_T0] = str_new((const char *)s, (size_t)n);
            if (!u->r[UR_T0] || load_persid(u, u->r[UR_T0]) < 0)
                return NULL;
            break;
        }
        case BINPERSID:
            if (!(u->r[UR_T0] = pop(u)) || load_persid(u, u->r[UR_T0]) < 0)
                return NULL;
            break;
        case REDUCE: {
            if (!(u->r[UR_T0] = pop(u)) || !(u->r[UR_T1] = pop(u)))
                return NULL;
            if (!IS_TUPLE(u->r[UR_T0])) {
                err_set(E_TypeError, "argument list must be a tuple");
                return NULL;
            }
            if (push(u, vm_call_tuple_dict(u->r[UR_T1], u->r[UR_T0], NULL)) < 0)
                return NULL;
            break;
        }
        case STRING: {
            if (!(s = up_textline(u, &n)))
                return NULL;
            if (n < 2 || s[0] != s[n - 1] || (s[0] != '"' && s[0] != '\'')) {
                raise_unpickling("the STRING opcode argument must be quoted");
                return NULL;
            }
            Obj *q = vm_roots(2);
            q[0] = bytes_new((const char *)s + 1, (size_t)n - 2);
            Obj codecs = q[0] ? vm_import_cstr("codecs") : NULL;
            q[1] = codecs ? vm_getattr_cstr(codecs, "escape_decode") : NULL;
            Obj t = q[1] ? vm_call1(q[1], q[0]) : NULL;
            Obj v = NULL;
            if (t && IS_TUPLE(t) && TUPLE_LEN(t) >= 1) {
                q[0] = TUPLE_ITEMS(t)[0];
                v = decode_bytes_obj(u, &q[0]);
            }
            vm_unroots(q);
            if (push(u, v) < 0)
                return NULL;
            break;
        }
        case BINSTRING:
        case SHORT_BINSTRING:
            if (!(s = up_read(u, op == BINSTRING ? 4 : 1)))
                return NULL;
            n = op == BINSTRING ? (int32_t)le_u(s, 4) : s[0];
            if (n < 0) {
                raise_unpickling("BINSTRING pickle has negative byte count");
                return NULL;
            }
            if (!(s = up_read(u, n)) || push(u, decode_string(u, s, n)) < 0)
                return NULL;
            break;
        case BINBYTES:
        case SHORT_BINBYTES:
        case BINBYTES8:
        case BYTEARRAY8: {
            int k = op == SHORT_BINBYTES ? 1 : op == BINBYTES ? 4 : 8;
            if (!(s = up_read(u, k)))
                return NULL;
            uint64_t m = le_u(s, k);
            if (m > (uint64_t)INT64_MAX) {
                err_format((TypeObj *)g_UnpicklingError, "%s exceeds system's maximum size of %lld bytes",
                           op == BYTEARRAY8 ? "BYTEARRAY8" : "BINBYTES8", (long long)INT64_MAX);
                return NULL;
            }
            if (!(s = up_read(u, (int64_t)m)))
                return NULL;
            if (push(u, op == BYTEARRAY8 ? bytearray_new((const char *)s, m) : bytes_new((const char *)s, m)) < 0)
                return NULL;
            break;
        }
        case UNICODE: {
            if (!(s = up_textline(u, &n)))
                return NULL;
            Obj b = bytes_new((const char *)s, (size_t)n);
            if (push(u, b ? bytes_decode(b, "raw-unicode-escape", NULL) : NULL) < 0)
                return NULL;
            break;
        }
        case BINUNICODE:
        case SHORT_BINUNICODE:
        case BINUNICODE8: {
            int k = op == SHORT_BINUNICODE ? 1 : op == BINUNICODE ? 4 : 8;
            if (!(s = up_read(u, k)))
                return NULL;
            uint64_t m = le_u(s, k);
            if (m > (uint64_t)INT64_MAX) {
                err_format((TypeObj *)g_UnpicklingError, "BINUNICODE8 exceeds system's maximum size of %lld bytes",
                           (long long)INT64_MAX);
                return NULL;
            }
            if (!(s = up_read(u, (int64_t)m)) || push(u, decode_utf8(s, (int64_t)m)) < 0)
                return NULL;
            break;
        }
        case NEXT_BUFFER: {
            Obj bufs = field(up_state(u), UF_BUFFERS);
            if (bufs == g_None) {
                raise_unpickling("pickle stream refers to out-of-band data but no *buffers* argument was given");
                return NULL;
            }
            Obj v = vm_next(bufs);
            if (!v) {
                if (!err_occurred())
                    raise_unpickling("not enough out-of-band buffers");
                return NULL;
            }
            if (push(u, v) < 0)
                return NULL;
            break;
        }
        case READONLY_BUFFER: {
            if (!(u->r[UR_T0] = top(u)))
                return NULL;
            u->r[UR_T1] = vm_call1((Obj)T_memoryview, u->r[UR_T0]);
            if (!u->r[UR_T1])
                return NULL;
            Obj ro = vm_getattr_cstr(u->r[UR_T1], "readonly");
            if (!ro)
                return NULL;
            if (ro == g_False) {
                Obj v = vm_call_method(u->r[UR_T1], "toreadonly", NULL, 0);
                if (!v)
                    return NULL;
                Obj l = u->r[UR_STACK];
                Obj arr = LIST(l)->array;
                int64_t i = LIST_LEN(l) - 1;
                VM_WRITE_ITEM(arr, i);
                ARRAY(arr)->items[i] = v;
            }
            break;
        }
        case EMPTY_TUPLE:
            if (push(u, g_empty_tuple) < 0)
                return NULL;
            break;
        case TUPLE:
            if ((x = marker(u)) < 0 || push(u, pop_items(u, x, false)) < 0)
                return NULL;
            break;
        case TUPLE1:
        case TUPLE2:
        case TUPLE3: {
            int k = op - TUPLE1 + 1;
            if (LIST_LEN(u->r[UR_STACK]) - k < fence(u))
                { stack_underflow(u); return NULL; }
            if (push(u, pop_items(u, LIST_LEN(u->r[UR_STACK]) - k, false)) < 0)
                return NULL;
            break;
        }
        case EMPTY_LIST:
            if (push(u, list_new_capacity(0)) < 0)
                return NULL;
            break;
        case EMPTY_DICT:
            if (push(u, dict_new()) < 0)
                return NULL;
            break;
        case EMPTY_SET:
            if (push(u, set_new(NULL)) < 0)
                return NULL;
            break;
        case LIST:
            if ((x = marker(u)) < 0 || push(u, pop_items(u, x, true)) < 0)
                return NULL;
            break;
        case FROZENSET:
            if ((x = marker(u)) < 0 || !(u->r[UR_T0] = pop_items(u, x, false)) ||
                push(u, frozenset_new(u->r[UR_T0])) < 0)
                return NULL;
            break;
        case DICT: {
            if ((x = marker(u)) < 0)
                return NULL;
            if ((LIST_LEN(u->r[UR_STACK]) - x) % 2) {
                raise_unpickling("odd number of items for DICT");
                return NULL;
            }
            if (!(u->r[UR_T0] = pop_items(u, x, false)) || !(u->r[UR_T1] = dict_new()))
                return NULL;
            for (int64_t i = 0; i < TUPLE_LEN(u->r[UR_T0]); i += 2)
                if (dict_setitem(u->r[UR_T1], TUPLE_ITEMS(u->r[UR_T0])[i], TUPLE_ITEMS(u->r[UR_T0])[i + 1]) < 0)
                    return NULL;
            if (push(u, u->r[UR_T1]) < 0)
                return NULL;
            break;
        }
        case INST: {
            if (!(s = up_textline(u, &n)))
                return NULL;
            u->r[UR_T0] = str_new((const char *)s, (size_t)n);   /* (ASCII in CPython's) */
            if (!u->r[UR_T0] || !(s = up_textline(u, &n)))
                return NULL;
            u->r[UR_T1] = str_new((const char *)s, (size_t)n);
            if (!u->r[UR_T1] || (x = marker(u)) < 0)
                return NULL;
            if (!(u->r[UR_T2] = pop_items(u, x, false)))
                return NULL;
            if (!(u->r[UR_T0] = find_class(u, u->r[UR_T0], u->r[UR_T1])))
                return NULL;
            if (push(u, instantiate(u->r[UR_T0], u->r[UR_T2])) < 0)
                return NULL;
            break;
        }
        case OBJ: {
            if ((x = marker(u)) < 0)
                return NULL;
            if (LIST_LEN(u->r[UR_STACK]) - x < 1)
                { stack_underflow(u); return NULL; }
            if (!(u->r[UR_T0] = pop_items(u, x + 1, false)) || !(u->r[UR_T1] = pop(u)))
                return NULL;
            if (push(u, instantiate(u->r[UR_T1], u->r[UR_T0])) < 0)
                return NULL;
            break;
        }
        case NEWOBJ:
        case NEWOBJ_EX: {
            u->r[UR_T2] = NULL;
            if (op == NEWOBJ_EX && !(u->r[UR_T2] = pop(u)))
                return NULL;
            if (!(u->r[UR_T1] = pop(u)) || !(u->r[UR_T0] = pop(u)))
                return NULL;
            const char *oname = op == NEWOBJ ? "NEWOBJ" : "NEWOBJ_EX";
            if (!IS_TYPE(u->r[UR_T0])) {
                err_format((TypeObj *)g_UnpicklingError, "%s class argument must be a type, not %.200s", oname,
                           type_name(u->r[UR_T0]));
                return NULL;
            }
            if (!IS_TUPLE(vm_unwrap(u->r[UR_T1]))) {
                err_format((TypeObj *)g_UnpicklingError, "%s args argument must be a tuple, not %.200s", oname,
                           type_name(u->r[UR_T1]));
                return NULL;
            }
            if (u->r[UR_T2] && !IS_DICT(vm_unwrap(u->r[UR_T2]))) {
                err_format((TypeObj *)g_UnpicklingError, "%s kwargs argument must be a dict, not %.200s", oname,
                           type_name(u->r[UR_T2]));
                return NULL;
            }
            /* cls.__new__(cls, *args, **kwargs) */
            u->r[UR_T3] = vm_getattr(u->r[UR_T0], NAME(__new__));
            if (!u->r[UR_T3])
                return NULL;
            Obj a = vm_unwrap(u->r[UR_T1]);
            int64_t na = TUPLE_LEN(a);
            Obj t = tuple_new(na + 1);
            if (!t)
                return NULL;
            a = vm_unwrap(u->r[UR_T1]);
            TUPLE_ITEMS(t)[0] = u->r[UR_T0];
            for (int64_t i = 0; i < na; i++)
                TUPLE_ITEMS(t)[i + 1] = TUPLE_ITEMS(a)[i];
            if (push(u, vm_call_tuple_dict(u->r[UR_T3], t, u->r[UR_T2] ? vm_unwrap(u->r[UR_T2]) : NULL)) < 0)
                return NULL;
            break;
        }
        case GLOBAL: {
            if (!(s = up_textline(u, &n)))
                return NULL;
            u->r[UR_T0] = decode_utf8(s, n);
            if (!u->r[UR_T0] || !(s = up_textline(u, &n)))
                return NULL;
            u->r[UR_T1] = decode_utf8(s, n);
            if (!u->r[UR_T1] || push(u, find_class(u, u->r[UR_T0], u->r[UR_T1])) < 0)
                return NULL;
            break;
        }
        case STACK_GLOBAL:
            if (!(u->r[UR_T1] = pop(u)) || !(u->r[UR_T0] = pop(u)))
                return NULL;
            if (!IS_STR(u->r[UR_T0]) || !IS_STR(u->r[UR_T1])) {
                raise_unpickling("STACK_GLOBAL requires str");
                return NULL;
            }
            if (push(u, find_class(u, u->r[UR_T0], u->r[UR_T1])) < 0)
                return NULL;
            break;
        case EXT1:
        case EXT2:
        case EXT4: {
            int k = op == EXT1 ? 1 : op == EXT2 ? 2 : 4;
            if (!(s = up_read(u, k)))
                return NULL;
            int64_t code = k == 4 ? (int32_t)le_u(s, 4) : (int64_t)le_u(s, k);
            if (load_extension(u, code) < 0)
                return NULL;
            break;
        }
        case GET: {
            if (!(s = up_textline(u, &n)))
                return NULL;
            Obj iv = int_from_string((const char *)s, (size_t)n, 10);
            int64_t idx;
            if (!iv || int_as_i64(iv, &idx) < 0 || push(u, memo_get(u, idx)) < 0)
                return NULL;
            break;
        }
        case BINGET:
        case LONG_BINGET:
            if (!(s = up_read(u, op == BINGET ? 1 : 4)) || push(u, memo_get(u, (int64_t)le_u(s, op == BINGET ? 1 : 4))) < 0)
                return NULL;
            break;
        case PUT: {
            if (!(s = up_textline(u, &n)))
                return NULL;
            Obj iv = int_from_string((const char *)s, (size_t)n, 10);
            int64_t idx;
            if (!iv || int_as_i64(iv, &idx) < 0 || memo_put_top(u, idx) < 0)
                return NULL;
            break;
        }
        case BINPUT:
        case LONG_BINPUT:
            if (!(s = up_read(u, op == BINPUT ? 1 : 4)) || memo_put_top(u, (int64_t)le_u(s, op == BINPUT ? 1 : 4)) < 0)
                return NULL;
            break;
        case MEMOIZE:
            if (memo_put_top(u, SMALLINT_VAL(field(up_state(u), UF_MEMO_LEN))) < 0)
                return NULL;
            break;
        case APPEND:
            if (do_append(u, LIST_LEN(u->r[UR_STACK]) - 1) < 0)
                return NULL;
            break;
        case APPENDS:
            if ((x = marker(u)) < 0 || do_append(u, x) < 0)
                return NULL;
            break;
        case SETITEM:
            if (do_setitems(u, LIST_LEN(u->r[UR_STACK]) - 2) < 0)
                return NULL;
            break;
        case SETITEMS:
            if ((x = marker(u)) < 0 || do_setitems(u, x) < 0)
                return NULL;
            break;
        case ADDITEMS:
            if (load_additems(u) < 0)
                return NULL;
            break;
        case BUILD:
            if (load_build(u) < 0)
                return NULL;
            break;
        case PROTO:
            if (!(s = up_read(u, 1)))
                return NULL;
            if (s[0] > HIGHEST_PROTOCOL) {
                err_format(E_ValueError, "unsupported pickle protocol: %d", s[0]);
                return NULL;
            }
            u->proto = s[0];
            VM_WRITE(u->r[UR_STATE]);
            ITER(u->r[UR_STATE])->i = s[0];
            break;
        case FRAME: {
            if (!(s = up_read(u, 8)))
                return NULL;
            uint64_t m = le_u(s, 8);
            if (m > (uint64_t)INT64_MAX) {
                err_format(E_OverflowError, "FRAME length exceeds system's maximum of %lld bytes",
                           (long long)INT64_MAX);
                return NULL;
            }
            /* the whole frame in the buffer, then read from it */
            if (!up_read(u, (int64_t)m))
                return NULL;
            u->pos -= (int64_t)m;
            break;
        }
        default:
            if (op >= 0x20 && op < 0x7f)
                err_format((TypeObj *)g_UnpicklingError, "invalid load key, '%c'.", op);
            else
                err_format((TypeObj *)g_UnpicklingError, "invalid load key, '\\x%02x'.", op);
            return NULL;
        }
    }
}

/* Run a load over u (input set up), with the instance's or the call's settings. */
static Obj load_run(Up *u)
{
    if (!(u->r[UR_STACK] = list_new_capacity(16)))
        return NULL;
    Obj res = load(u);
    free(u->marks);
    u->marks = NULL;
    return res;
}

static int up_settings(Up *u)
{
    Obj st = up_state(u);
    u->fix_imports = ITER(st)->n & UFL_FIX_IMPORTS;
    u->proto = 0;
    VM_WRITE(st);
    ITER(st)->i = 0;
    return 0;
}

static Obj unpickler_load(Obj *args, size_t nargs, Obj kwnames)
{
    Up u = {0};
    u.r = vm_roots(UR_COUNT);
    Obj res = NULL;
    u.r[UR_SELF] = args[0];
    Obj st = state_of(u.r[UR_SELF]);
    if (!st || !(ITER(st)->n & UFL_INIT)) {
        err_format((TypeObj *)g_UnpicklingError, "Unpickler.__init__() was not called by %s.__init__()",
                   type_name(u.r[UR_SELF]));
        goto out;
    }
    u.r[UR_STATE] = st;
    u.file = true;
    up_settings(&u);
    if (!(u.r[UR_PERSLOAD] = vm_getattr_opt(u.r[UR_SELF], name_of("persistent_load"))) && err_occurred())
        goto out;
    Obj fc = vm_lookup_type(TYPE(u.r[UR_SELF]), name_of("find_class"));
    if (fc != dict_getitem_str(T_unpickler->dict, name_of("find_class"))) {
        if (!(u.r[UR_FINDCLASS] = vm_getattr(u.r[UR_SELF], name_of("find_class"))))
            goto out;
    }
    res = load_run(&u);
out:
    free(u.buf);
    vm_unroots(u.r);
    return res;
}

/* A fresh unpickler state: memo, settings (root slots a: fix_imports, encoding, errors, buffers). */
static int unpickler_fill_state(Obj *stp, Obj fix_imports, Obj encoding, Obj errors, Obj buffers)
{
    Obj *r = vm_roots(1);
    int rc = -1;
    int fix = fix_imports ? vm_is_true(fix_imports) : 1;
    if (fix < 0)
        goto out;
    if (encoding && !IS_STR(encoding)) {
        err_format(E_TypeError, "argument 'encoding' must be str, not %.200s", type_name(encoding));
        goto out;
    }
    if (errors && !IS_STR(errors)) {
        err_format(E_TypeError, "argument 'errors' must be str, not %.200s", type_name(errors));
        goto out;
    }
    if (buffers && buffers != g_None) {
        r[0] = vm_iter(buffers);
        if (!r[0])
            goto out;
        set_field(*stp, UF_BUFFERS, r[0]);
    } else {
        set_field(*stp, UF_BUFFERS, g_None);
    }
    if (!(r[0] = encoding ? encoding : str_from_cstr("ASCII")))
        goto out;
    set_field(*stp, UF_ENCODING, r[0]);
    if (!(r[0] = errors ? errors : str_from_cstr("strict")))
        goto out;
    set_field(*stp, UF_ERRORS, r[0]);
    if (!(r[0] = list_new_capacity(0)))
        goto out;
    set_field(*stp, UF_MEMO, r[0]);
    set_field(*stp, UF_SPARSE, g_None);
    set_field(*stp, UF_MEMO_LEN, MAKE_SMALLINT(0));
    VM_WRITE(*stp);
    ITER(*stp)->n = UFL_INIT | (fix ? UFL_FIX_IMPORTS : 0);
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* read and readline of a file argument into the state. */
static int unpickler_set_file(Obj *stp, Obj file)
{
    Obj *r = vm_roots(3);
    int rc = -1;
    r[0] = file;
    r[1] = vm_getattr_opt(r[0], name_of("read"));
    if (!r[1] && err_occurred())
        goto out;
    r[2] = vm_getattr_opt(r[0], name_of("readline"));
    if (!r[2] && err_occurred())
        goto out;
    if (!r[1] || !r[2]) {
        err_set(E_TypeError, "file must have 'read' and 'readline' attributes");
        goto out;
    }
    set_field(*stp, UF_READ, r[1]);
    set_field(*stp, UF_READLINE, r[2]);
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

static Obj unpickler_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    return instance_with_state(type, UF_COUNT);
}

static int unpickler_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"file", "fix_imports", "encoding", "errors", "buffers", NULL};
    Obj *a = vm_roots(7);
    int rc = -1;
    a[5] = self;
    if (vm_parse_args("Unpickler", args, nargs, kwnames, names, 1, 1, a) < 0)
        goto out;
    a[6] = state_of(a[5]);
    if (!a[6]) {
        err_set(E_TypeError, "Unpickler.__init__() needs an Unpickler instance");
        goto out;
    }
    if (unpickler_set_file(&a[6], a[0]) < 0 || unpickler_fill_state(&a[6], a[1], a[2], a[3], a[4]) < 0)
        goto out;
    rc = 0;
out:
    vm_unroots(a);
    return rc;
}

static Obj pickle_loads(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"data", "fix_imports", "encoding", "errors", "buffers", NULL};
    Obj *a = vm_roots(5);
    Up u = {0};
    u.r = vm_roots(UR_COUNT);
    Obj res = NULL;
    if (vm_parse_args("loads", args, nargs, kwnames, names, 1, 1, a) < 0)
        goto out;
    const char *p;
    int64_t n;
    if (!bytes_like_arg(a[0], &p, &n))
        goto out;
    if (!(u.r[UR_STATE] = state_new(UF_COUNT)) || unpickler_fill_state(&u.r[UR_STATE], a[1], a[2], a[3], a[4]) < 0)
        goto out;
    if (!bytes_like(a[0], &p, &n))
        goto out;
    u.buf = malloc((size_t)n + 1);
    if (!u.buf) {
        err_nomemory();
        goto out;
    }
    memcpy(u.buf, p, (size_t)n);
    u.len = n;
    up_settings(&u);
    res = load_run(&u);
out:
    free(u.buf);
    vm_unroots(a);
    return res;
}

static Obj pickle_load(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"file", "fix_imports", "encoding", "errors", "buffers", NULL};
    Obj *a = vm_roots(5);
    Up u = {0};
    u.r = vm_roots(UR_COUNT);
    Obj res = NULL;
    if (vm_parse_args("load", args, nargs, kwnames, names, 1, 1, a) < 0)
        goto out;
    if (!(u.r[UR_STATE] = state_new(UF_COUNT)) || unpickler_set_file(&u.r[UR_STATE], a[0]) < 0 ||
        unpickler_fill_state(&u.r[UR_STATE], a[1], a[2], a[3], a[4]) < 0)
        goto out;
    u.file = true;
    up_settings(&u);
    res = load_run(&u);
out:
    free(u.buf);
    vm_unroots(a);
    return res;
}

static Obj unpickler_state_checked(Obj self)
{
    Obj st = state_of(self);
    if (!st)
        err_format(E_TypeError, "'%s' object is not an Unpickler", type_name(self));
    return st;
}

static Obj unpickler_find_class(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = unpickler_state_checked(args[0]);
    if (r[0]) {
        bool fix = ITER(r[0])->n & UFL_FIX_IMPORTS;
        /* the protocol of the load in progress is not kept: CPython's find_class reads self->proto,
         * which a PROTO opcode sets; 0 until then (fix_imports mappings apply). */
        res = find_class_impl(&r[0], (int)ITER(r[0])->i, fix, args[1], args[2]);
    }
    vm_unroots(r);
    return res;
}

static Obj unpickler_get_memo(Obj *args, size_t nargs, Obj kwnames)
{
    if (!unpickler_state_checked(args[0]))
        return NULL;
    return memo_proxy_new(T_umemo_proxy, args[0]);
}

/* {index: obj} of an unpickler's memo. */
static Obj unpickler_memo_copy(Obj self)
{
    Obj st = unpickler_state_checked(self);
    if (!st)
        return NULL;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    r[1] = dict_new();
    if (!r[1])
        goto out;
    st = state_of(r[0]);
    Obj memo = field(st, UF_MEMO);
    for (int64_t i = 0; memo && memo != g_None && i < LIST_LEN(memo); i++) {
        Obj v = LIST_ITEMS(memo)[i];
        if (v != SHARED(G_HOLE) && dict_setitem(r[1], MAKE_SMALLINT(i), v) < 0)
            goto out;
        memo = field(state_of(r[0]), UF_MEMO);
    }
    Obj sparse = field(state_of(r[0]), UF_SPARSE);
    if (sparse && sparse != g_None && dict_update(r[1], sparse) < 0)
        goto out;
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

static Obj unpickler_set_memo(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(5);   /* self, state, source, key, value */
    Obj res = NULL;
    r[0] = args[0];
    r[1] = unpickler_state_checked(args[0]);
    if (!r[1])
        goto out;
    if (!args[1]) {
        err_set(E_TypeError, "attribute deletion is not supported");
        goto out;
    }
    if (TID(args[1]) == TID_ITER && ITER(args[1])->cls == (Obj)T_umemo_proxy)
        r[2] = unpickler_memo_copy(ITER(args[1])->a);
    else if (IS_DICT(args[1]))
        r[2] = args[1];
    else {
        err_format(E_TypeError, "'memo' attribute must be an UnpicklerMemoProxy object or dict, not %.200s",
                   type_name(args[1]));
        goto out;
    }
    if (!r[2])
        goto out;
    /* check the keys first, then replace the memo */
    int64_t pos = 0;
    Obj key, v;
    while (dict_next(r[2], &pos, &key, &v)) {
        if (!IS_INT_EXACT(key) && !IS_INT(vm_unwrap(key))) {
            err_set(E_TypeError, "memo key must be integers");
            goto out;
        }
        int64_t idx;
        if (int_as_i64(vm_unwrap(key), &idx) < 0)
            goto out;
        if (idx < 0) {
            err_set(E_ValueError, "memo key must be positive integers.");
            goto out;
        }
    }
    Obj l = list_new_capacity(0);
    if (!l)
        goto out;
    set_field(r[1], UF_MEMO, l);
    set_field(r[1], UF_SPARSE, g_None);
    set_field(r[1], UF_MEMO_LEN, MAKE_SMALLINT(0));
    pos = 0;
    while (dict_next(r[2], &pos, &key, &v)) {
        r[3] = key;
        r[4] = v;
        int64_t idx;
        if (int_as_i64(vm_unwrap(r[3]), &idx) < 0 || memo_put_in(&r[1], idx, r[4]) < 0)
            goto out;
    }
    res = g_None;
out:
    vm_unroots(r);
    return res;
}

static Obj umemo_copy(Obj *args, size_t nargs, Obj kwnames)
{
    return unpickler_memo_copy(ITER(args[0])->a);
}

static Obj umemo_clear(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = unpickler_state_checked(ITER(args[0])->a);
    if (r[0]) {
        Obj l = list_new_capacity(0);
        if (l) {
            set_field(r[0], UF_MEMO, l);
            set_field(r[0], UF_SPARSE, g_None);
            set_field(r[0], UF_MEMO_LEN, MAKE_SMALLINT(0));
            res = g_None;
        }
    }
    vm_unroots(r);
    return res;
}

static Obj umemo_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    return memo_reduce(unpickler_memo_copy(ITER(args[0])->a));
}

/* ------------------------------------------------------------------ */
/* The module                                                          */
/* ------------------------------------------------------------------ */

static const MethodDef pickler_methods[] = {
    {"dump", pickler_dump, METH_O, "Write a pickled representation of the given object to the open file."},
    {"clear_memo", pickler_clear_memo, METH_NOARGS,
     "Clears the pickler's \"memo\".\n\nThe memo is the data structure that remembers which objects the\n"
     "pickler has already seen, so that shared or recursive objects are\npickled by reference and not by value.  "
     "This method is useful when\nre-using picklers."},
    {NULL, NULL, 0, NULL},
};

static const MethodDef unpickler_methods[] = {
    {"load", unpickler_load, METH_NOARGS, "Load a pickle.\n\nRead a pickled object representation from the open file object given\n"
                                          "in the constructor, and return the reconstituted object hierarchy\n"
                                          "specified therein."},
    {"find_class", unpickler_find_class, METH_ARGS(2, 2),
     "Return an object from a specified module.\n\nIf necessary, the module will be imported. Subclasses may override\n"
     "this method (e.g. to restrict unpickling of arbitrary classes and\nfunctions).\n\nThis method is called "
     "whenever a class or a function object is\nneeded.  Both arguments passed are str objects."},
    {NULL, NULL, 0, NULL},
};

static const MethodDef pmemo_methods[] = {
    {"clear", pmemo_clear, METH_NOARGS, "Remove all items from memo."},
    {"copy", pmemo_copy, METH_NOARGS, "Copy the memo to a new object."},
    {"__reduce__", pmemo_reduce, METH_NOARGS, "Implement pickle support."},
    {NULL, NULL, 0, NULL},
};

static const MethodDef umemo_methods[] = {
    {"clear", umemo_clear, METH_NOARGS, "Remove all keys from the unpickler's memo."},
    {"copy", umemo_copy, METH_NOARGS, "Copy the memo to a new object."},
    {"__reduce__", umemo_reduce, METH_NOARGS, "Implement pickling support."},
    {NULL, NULL, 0, NULL},
};

static const MethodDef pickle_funcs[] = {
    {"dump", pickle_dump, METH_KW,
     "Write a pickled representation of obj to the open file object file.\n\n"
     "This is equivalent to ``Pickler(file, protocol).dump(obj)``, but may\nbe more efficient."},
    {"dumps", pickle_dumps, METH_KW,
     "Return the pickled representation of the object as a bytes object."},
    {"load", pickle_load, METH_KW,
     "Read and return an object from the pickle data stored in a file."},
    {"loads", pickle_loads, METH_KW,
     "Read and return an object from the given pickle data."},
    {NULL, NULL, 0, NULL},
};

static Obj make_exception(const char *name, Obj base)
{
    Obj *r = vm_roots(4);
    Obj cls = NULL;
    r[0] = str_from_cstr(name);
    r[1] = r[0] ? tuple_pack(1, base) : NULL;
    r[2] = r[1] ? dict_new() : NULL;
    if (r[2] && (r[3] = str_from_cstr("_pickle")) && dict_setitem_cstr(r[2], "__module__", r[3]) == 0)
        cls = vm_call3((Obj)T_type, r[0], r[1], r[2]);
    vm_unroots(r);
    return cls;
}

static Obj getattr_from(const char *module, const char *name)
{
    Obj m = vm_import_cstr(module);
    return m ? vm_getattr_cstr(m, name) : NULL;
}

static int make_shared(void)
{
    static const char *const src[][2] = {
        {"copyreg", "dispatch_table"}, {"copyreg", "_extension_registry"}, {"copyreg", "_inverted_registry"},
        {"copyreg", "_extension_cache"}, {"_compat_pickle", "NAME_MAPPING"}, {"_compat_pickle", "IMPORT_MAPPING"},
        {"_compat_pickle", "REVERSE_NAME_MAPPING"}, {"_compat_pickle", "REVERSE_IMPORT_MAPPING"},
        {"functools", "partial"}, {"codecs", "encode"},
    };
    Obj *r = vm_roots(G_COUNT);
    int rc = -1;
    for (int k = 0; k < G_HOLE; k++) {
        r[k] = getattr_from(src[k][0], src[k][1]);
        if (!r[k])
            goto out;
        if (k < G_PARTIAL && !IS_DICT(r[k])) {
            err_format(E_RuntimeError, "%s.%s should be a dict, not %.200s", src[k][0], src[k][1], type_name(r[k]));
            goto out;
        }
    }
    if (!(r[G_HOLE] = instance_new(T_object)))
        goto out;
    if (!(r[G_GETATTR] = dict_getitem_cstr(g_builtins, "getattr")))
        goto out;
    g_shared = tuple_from_array(r, G_COUNT);
    rc = g_shared ? 0 : -1;
out:
    vm_unroots(r);
    return rc;
}

static TypeObj *make_class(const char *name, newfunc tp_new, initfunc tp_init, const MethodDef *methods)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_INSTANCE, TPF_BASETYPE | TPF_HAS_DICT);
    VM_WRITE(t);
    t->tp_new = tp_new;
    t->tp_init = tp_init;
    type_add_methods(t, methods);
    return t;
}

static TypeObj *make_proxy(const char *name, const MethodDef *methods)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_ITER, 0);
    type_add_methods(t, methods);
    type_ready(t);
    return t;
}

static int make_types(void)
{
    VM_GLOBAL_ROOT(g_PickleError);
    VM_GLOBAL_ROOT(g_PicklingError);
    VM_GLOBAL_ROOT(g_UnpicklingError);
    VM_GLOBAL_ROOT(g_shared);
    if (make_shared() < 0)
        return -1;
    if (!(g_PickleError = make_exception("PickleError", (Obj)E_Exception)) ||
        !(g_PicklingError = make_exception("PicklingError", g_PickleError)) ||
        !(g_UnpicklingError = make_exception("UnpicklingError", g_PickleError)))
        return -1;
    T_pstate = (TypeObj *)type_new_builtin("_pickle._State", T_object, TID_ITER, 0);
    type_ready(T_pstate);
    T_pmemo_proxy = make_proxy("_pickle.PicklerMemoProxy", pmemo_methods);
    T_umemo_proxy = make_proxy("_pickle.UnpicklerMemoProxy", umemo_methods);

    TypeObj *t = T_pickler = make_class("_pickle.Pickler", pickler_new, pickler_init, pickler_methods);
    type_add_getset(t, "memo", pickler_get_memo, pickler_set_memo);
    type_add_getset(t, "fast", pickler_get_fast, pickler_set_fast);
    type_add_getset(t, "bin", pickler_get_bin, NULL);
    type_add_getset(t, "__dict__", vm_getset_dict_get, vm_getset_dict_set);
    type_ready(t);
    Obj doc = str_from_cstr(
        "Pickler(file, protocol=None, fix_imports=True, buffer_callback=None)\n--\n\n"
        "This takes a binary file for writing a pickle data stream.");
    if (doc)
        type_set_attr_cstr(t, "__doc__", doc);

    t = T_unpickler = make_class("_pickle.Unpickler", unpickler_new, unpickler_init, unpickler_methods);
    type_add_getset(t, "memo", unpickler_get_memo, unpickler_set_memo);
    type_add_getset(t, "__dict__", vm_getset_dict_get, vm_getset_dict_set);
    type_ready(t);
    doc = str_from_cstr(
        "Unpickler(file, *, fix_imports=True, encoding='ASCII', errors='strict', buffers=())\n--\n\n"
        "This takes a binary file for reading a pickle data stream.");
    if (doc)
        type_set_attr_cstr(t, "__doc__", doc);
    return 0;
}

Obj pickle_module_init(void)
{
    if (!T_pickler && make_types() < 0)   /* module inits run inevitable: C globals may be written */
        return NULL;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = module_new("_pickle");
    if (!r[0])
        goto out;
    module_add_functions(r[0], pickle_funcs);
    if (module_add(r[0], "Pickler", (Obj)T_pickler) < 0 || module_add(r[0], "Unpickler", (Obj)T_unpickler) < 0 ||
        module_add(r[0], "PickleBuffer", (Obj)T_picklebuffer) < 0 ||
        module_add(r[0], "PickleError", g_PickleError) < 0 ||
        module_add(r[0], "PicklingError", g_PicklingError) < 0 ||
        module_add(r[0], "UnpicklingError", g_UnpicklingError) < 0)
        goto out;
    r[1] = str_from_cstr("Optimized C implementation for the Python pickle module.");
    if (r[1] && module_add(r[0], "__doc__", r[1]) == 0)
        res = r[0];
out:
    vm_unroots(r);
    return res;
}
