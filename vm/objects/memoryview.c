/* memoryview: a view of the data of a bytes or bytearray (or of another
 * memoryview's object) as items of a native struct format, in one or more
 * dimensions. Slicing makes strided 1-D views; cast() reinterprets a
 * C-contiguous view (1-D <-> N-D, byte format <-> any format).
 *
 * A view over a bytearray counts as an export: while one that is not
 * released is alive, the bytearray refuses to change size. tmpy has no
 * reference counts, so a view dropped without release() is still counted;
 * when a resize finds the count above zero, memview_live_exports() runs a
 * major collection during which this layout's trace hook records every
 * live view of that bytearray, and the count is corrected to what is alive.
 *
 * Under STM a view reads and writes its bytearray through the bytearray's
 * barriers (BYTEARRAY, RAW, VM_WRITE); a bytes object is immutable.
 *
 * The base may also be an mmap.mmap (vm_hooks.mapped_buffer): its bytes
 * are outside the heap, reached through %gs by their distance from this
 * thread's segment, and under STM a store into them first makes the
 * transaction inevitable (no abort can undo it). Its exports are counted
 * by vm_hooks.mapped_export; mmap's close() and resize() take the census. */
#include "strobj.h"
#include "containers.h"
#include "numbers.h"
#include "objects.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TypeObj *T_memoryview;
static TypeObj *T_memory_iterator;
TypeObj *T_picklebuffer;   /* pickle.PickleBuffer (below) */

enum { MV_RELEASED = 1, MV_READONLY = 2 };
#define MV_MAXDIM 64

/* ------------------------------------------------------------------ */
/* Formats                                                             */
/* ------------------------------------------------------------------ */

/* Size of a native struct format letter; 0 if memoryview does not know it. */
static int64_t format_size(int c)
{
    switch (c) {
    case 'c': case 'b': case 'B': case '?': return 1;
    case 'h': case 'H': return 2;
    case 'i': case 'I': case 'f': return 4;
    case 'l': case 'L': case 'q': case 'Q': case 'n': case 'N': case 'd': case 'P': return 8;
    default: return 0;
    }
}

static bool is_byte_format(int c) { return c == 'B' || c == 'b' || c == 'c'; }

/* The letter of a format str ('h' or '@h'); 0 if not a native single letter. */
static int format_code(Obj fmt)
{
    const char *s = str_cstr(fmt);
    int64_t n = STR(fmt)->nbytes;
    if (n == 2 && s[0] == '@')
        s++, n--;
    if (n != 1 || !format_size((unsigned char)s[0]))
        return 0;
    return (unsigned char)s[0];
}

/* ------------------------------------------------------------------ */
/* Views and their data                                                */
/* ------------------------------------------------------------------ */

static bool is_mv(Obj v) { return TID(v) == TID_MEMORYVIEW; }

static int check_released(Obj mv)
{
    if (MEMVIEW(mv)->flags & MV_RELEASED) {
        err_set(E_ValueError, "operation forbidden on released memoryview object");
        return -1;
    }
    return 0;
}

/* Shape and strides into C arrays; the number of dimensions. */
static int mv_dims(Obj mv, int64_t *shape, int64_t *strides)
{
    Obj sh = MEMVIEW(mv)->shape, st = MEMVIEW(mv)->strides;
    int nd = (int)TUPLE_LEN(sh);
    for (int k = 0; k < nd; k++) {
        shape[k] = SMALLINT_VAL(TUPLE_ITEMS(sh)[k]);
        strides[k] = SMALLINT_VAL(TUPLE_ITEMS(st)[k]);
    }
    return nd;
}

static int mv_ndim(Obj mv) { return (int)TUPLE_LEN(MEMVIEW(mv)->shape); }

static int64_t mv_nitems(Obj mv)
{
    Obj sh = MEMVIEW(mv)->shape;
    int64_t n = 1;
    for (int64_t k = 0; k < TUPLE_LEN(sh); k++)
        n *= SMALLINT_VAL(TUPLE_ITEMS(sh)[k]);
    return n;
}

/* The base's data (segment pointer) and its current length. */
/* Byte offset (from the base's data) of item `flat` of the view, counting
 * in C order (fortran: in Fortran order). */
static int64_t item_offset(Obj mv, int nd, const int64_t *shape, const int64_t *strides, int64_t flat, bool fortran)
{
    int64_t off = MEMVIEW(mv)->offset;
    for (int j = 0; j < nd; j++) {
        int k = fortran ? j : nd - 1 - j;
        off += (flat % shape[k]) * strides[k];
        flat /= shape[k];
    }
    return off;
}

/* The base's data, segment-relative, and its length: a bytes or bytearray's
 * storage, or the bytes an mmap maps (none once it is closed). */
static unsigned char __seg_gs *base_storage(Obj base, int64_t *len)
{
    unsigned char *d = NULL;
    bool writable;
    if (TID(base) == TID_ITER && vm_hooks.mapped_buffer && vm_hooks.mapped_buffer(base, &d, len, &writable)) {
        if (!d) {
            *len = 0;
            return NULL;
        }
        return (unsigned char __seg_gs *)((uintptr_t)d - (uintptr_t)tm_gs_base);
    }
    return bytes_storage(base, len);
}

/* The base's data, checked to still hold every byte the view spans (a
 * bytearray exported to a live view cannot shrink; this is the guard that
 * keeps a broken rule from reading outside it). */
static unsigned char __seg_gs *mv_data(Obj mv)
{
    if (check_released(mv) < 0)   /* an __index__ or __eq__ may have released it since the caller checked */
        return NULL;
    int64_t shape[MV_MAXDIM], strides[MV_MAXDIM];
    int nd = mv_dims(mv, shape, strides);
    int64_t lo = MEMVIEW(mv)->offset, hi = lo, len;
    bool empty = false;
    for (int k = 0; k < nd; k++) {
        if (shape[k] == 0)
            empty = true;
        int64_t ext = (shape[k] - 1) * strides[k];
        if (ext < 0)
            lo += ext;
        else
            hi += ext;
    }
    unsigned char __seg_gs *p = base_storage(MEMVIEW(mv)->base, &len);
    if (!empty && (lo < 0 || hi + MEMVIEW(mv)->itemsize > len)) {
        err_set(E_BufferError, "memoryview: the underlying buffer has changed size");
        return NULL;
    }
    return p;
}

/* mv_data for a store: the base bytearray's data after its write barrier
 * (under STM the barrier may give the transaction its own copy, so the
 * pointer is fetched again after it), or a map's bytes once the transaction
 * is inevitable (it may have been retried: fetched again too). NULL with the
 * error. */
static unsigned char __seg_gs *mv_data_for_write(Obj mv)
{
    if (!mv_data(mv))
        return NULL;
    if (TID(MEMVIEW(mv)->base) == TID_BYTEARRAY)
        VM_WRITE(BYTEARRAY(MEMVIEW(mv)->base)->raw);
    else
        vm_tx_become_inevitable();
    return mv_data(mv);
}

static bool c_contiguous(int nd, const int64_t *shape, const int64_t *strides, int64_t itemsize)
{
    int64_t sd = itemsize;
    for (int k = 0; k < nd; k++)
        if (shape[k] == 0)
            return true;
    for (int k = nd - 1; k >= 0; k--) {
        if (shape[k] > 1 && strides[k] != sd)
            return false;
        sd *= shape[k];
    }
    return true;
}

static bool f_contiguous(int nd, const int64_t *shape, const int64_t *strides, int64_t itemsize)
{
    int64_t sd = itemsize;
    for (int k = 0; k < nd; k++)
        if (shape[k] == 0)
            return true;
    for (int k = 0; k < nd; k++) {
        if (shape[k] > 1 && strides[k] != sd)
            return false;
        sd *= shape[k];
    }
    return true;
}

static bool mv_is_c_contiguous(Obj mv)
{
    int64_t shape[MV_MAXDIM], strides[MV_MAXDIM];
    int nd = mv_dims(mv, shape, strides);
    return c_contiguous(nd, shape, strides, MEMVIEW(mv)->itemsize);
}

bool memview_buffer_error(Obj v)
{
    Obj mv = vm_unwrap(v);
    if (TID(mv) != TID_MEMORYVIEW)
        return false;
    if (MEMVIEW(mv)->flags & MV_RELEASED)
        err_set(E_ValueError, "operation forbidden on released memoryview object");
    else if (!mv_is_c_contiguous(mv))
        err_set(E_BufferError, "memoryview: underlying buffer is not C-contiguous");
    else
        return false;
    return true;
}

bool memview_contiguous_data(Obj mv, const char **p, int64_t *n)
{
    if (MEMVIEW(mv)->flags & MV_RELEASED || !mv_is_c_contiguous(mv))
        return false;
    int64_t nbytes = mv_nitems(mv) * MEMVIEW(mv)->itemsize;
    if (nbytes == 0) {   /* an empty base (bytearray()) may have no storage at all */
        *n = 0;
        *p = "";
        return true;
    }
    unsigned char __seg_gs *d = mv_data(mv);
    if (!d) {
        err_clear();
        return false;
    }
    *n = nbytes;
    *p = (const char *)VM_LINEAR(d + MEMVIEW(mv)->offset);
    return true;
}

/* The writable buffer of v (unwrapped): a bytearray, an array's storage, a
 * map that may be written, or a writable C-contiguous memoryview that is
 * not released; its bytes' count, or -1 if v is none. */
int64_t writable_buffer_len(Obj v)
{
    v = vm_unwrap(v);
    int64_t n;
    if (TID(v) == TID_BYTEARRAY)
        return BYTEARRAY(v)->length;
    if (TID(v) == TID_MEMORYVIEW) {
        if (MEMVIEW(v)->flags & (MV_RELEASED | MV_READONLY) || !mv_is_c_contiguous(v))
            return -1;
        return mv_nitems(v) * MEMVIEW(v)->itemsize;
    }
    if (TID(v) != TID_ITER)
        return -1;
    unsigned char *d;
    bool writable;
    if (vm_hooks.mapped_buffer && vm_hooks.mapped_buffer(v, &d, &n, &writable))
        return d && writable ? n : -1;
    int code;
    int64_t itemsize;
    Obj ba = vm_hooks.buffer_export ? vm_hooks.buffer_export(v, &code, &itemsize) : NULL;
    return ba ? BYTEARRAY(ba)->length : -1;
}

/* Store n bytes at `offset` of v's writable buffer (checked by the caller
 * with writable_buffer_len, and checked again here: becoming inevitable may
 * have retried), through the bytearray's barrier or inevitable for a map.
 * 0, or -1 with BufferError if it no longer holds them. */
int writable_buffer_store(Obj v, int64_t offset, const void *src, int64_t n)
{
    if (n <= 0)
        return 0;
    Obj u = vm_unwrap(v);
    if (TID(u) == TID_MEMORYVIEW) {
        unsigned char __seg_gs *d = mv_data_for_write(u);
        if (!d)
            return -1;
        u = vm_unwrap(v);
        if (writable_buffer_len(u) - offset < n)
            goto changed;
        memcpy((unsigned char *)VM_LINEAR(d + MEMVIEW(u)->offset) + offset, src, (size_t)n);
        return 0;
    }
    if (TID(u) == TID_ITER && vm_hooks.mapped_buffer) {
        unsigned char *d;
        int64_t len;
        bool writable;
        if (vm_hooks.mapped_buffer(u, &d, &len, &writable)) {
            vm_tx_become_inevitable();
            u = vm_unwrap(v);
            vm_hooks.mapped_buffer(u, &d, &len, &writable);
            if (!d || !writable || len - offset < n)
                goto changed;
            memcpy(d + offset, src, (size_t)n);
            return 0;
        }
    }
    if (TID(u) == TID_ITER) {
        int code;
        int64_t itemsize;
        u = vm_hooks.buffer_export ? vm_hooks.buffer_export(u, &code, &itemsize) : NULL;
    }
    if (!u || TID(u) != TID_BYTEARRAY || BYTEARRAY(u)->length - offset < n)
        goto changed;
    Obj raw = BYTEARRAY(u)->raw;
    VM_WRITE(raw);
    memcpy((unsigned char *)VM_LINEAR(RAW(raw)->data + BYTEARRAY(u)->start) + offset, src, (size_t)n);
    return 0;
changed:
    err_set(E_BufferError, "the buffer has changed size");
    return -1;
}

/* ------------------------------------------------------------------ */
/* Exports of bytearrays                                               */
/* ------------------------------------------------------------------ */

static void add_export(Obj base, int delta)
{
    if (TID(base) == TID_ITER && vm_hooks.mapped_export)
        vm_hooks.mapped_export(base, delta);
    if (TID(base) != TID_BYTEARRAY)
        return;
    VM_WRITE(base);
    BYTEARRAY(base)->exports += delta;
}

/* The census: while `census_target` is set (by this thread, inevitable,
 * around one major collection), every live view of it that is not
 * released is recorded once (a view may be traced more than once: STM
 * traces a written object in two views). */
static __thread uintptr_t census_target;
static __thread uintptr_t *census_seen;
static __thread size_t census_count, census_cap;

void memview_gc_trace(object_t *o, tm_ref_visitor visit, void *ctx)
{
    (void)visit;
    (void)ctx;
    if (likely(!census_target))
        return;
    MemoryViewObj *mv = (MemoryViewObj *)o;   /* no barrier: the GC's own read, world stopped */
    if ((uintptr_t)mv->base != census_target || (mv->flags & MV_RELEASED))
        return;
    if (census_count == census_cap) {
        size_t cap = census_cap ? census_cap * 2 : 16;
        uintptr_t *p = realloc(census_seen, cap * sizeof *p);
        if (!p)
            return;   /* undercounted: the bytearray may be resized under a live view (reads stay checked) */
        census_seen = p;
        census_cap = cap;
    }
    census_seen[census_count++] = (uintptr_t)o;
}

static int cmp_addr(const void *a, const void *b)
{
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return x < y ? -1 : x > y;
}

int64_t memview_live_views(Obj *basep)
{
    /* C globals written around a collection: no abort may come between
     * (inevitable); and no older version of what this thread wrote may keep
     * a dropped view alive (committed first: a collection traces both
     * versions of an object a running transaction wrote). */
    vm_commit_point();
    vm_tx_become_inevitable();
    tm_collect_minor();   /* the bytearray is old (it stays put) and nothing of ours is young */
    census_count = 0;
    census_target = (uintptr_t)*basep;
    tm_collect_major();
    census_target = 0;
    qsort(census_seen, census_count, sizeof *census_seen, cmp_addr);
    int64_t live = 0;
    for (size_t i = 0; i < census_count; i++)
        if (i == 0 || census_seen[i] != census_seen[i - 1])
            live++;
    free(census_seen);
    census_seen = NULL;
    census_count = census_cap = 0;
    return live;
}

int64_t memview_live_exports(Obj *bap)
{
    int64_t live = memview_live_views(bap);
    VM_WRITE(*bap);
    BYTEARRAY(*bap)->exports = live;
    return live;
}

/* ------------------------------------------------------------------ */
/* Construction                                                        */
/* ------------------------------------------------------------------ */

/* A new view: r[0] obj, r[1] base, r[2] format, r[3] shape, r[4] strides. */
static Obj mv_alloc(Obj *r, int64_t offset, int64_t itemsize, int code, int64_t flags)
{
    Obj mv = (Obj)tm_allocate(TID_MEMORYVIEW, sizeof(struct MemoryViewObj_));
    if (!mv)
        return err_nomemory();
    MemoryViewObj *m = MEMVIEW(mv);
    m->obj = r[0];
    m->base = r[1];
    m->format = r[2];
    m->shape = r[3];
    m->strides = r[4];
    m->offset = offset;
    m->itemsize = itemsize;
    m->code = code;
    m->flags = flags;
    m->hash = -1;
    add_export(r[1], 1);
    return mv;
}

static Obj int_tuple(const int64_t *v, int n)
{
    Obj t = tuple_new(n);
    if (!t)
        return NULL;
    for (int k = 0; k < n; k++)
        TUPLE_ITEMS(t)[k] = MAKE_SMALLINT(v[k]);
    return t;
}

/* A view like `src` with other shape, strides, offset (and format). */
static Obj mv_derive(Obj *srcp, Obj format, int code, int64_t itemsize, int nd, const int64_t *shape,
                     const int64_t *strides, int64_t offset, int64_t flags)
{
    Obj *r = vm_roots(5);
    Obj res = NULL;
    r[0] = MEMVIEW(*srcp)->obj;
    r[1] = MEMVIEW(*srcp)->base;
    r[2] = format ? format : MEMVIEW(*srcp)->format;
    if ((r[3] = int_tuple(shape, nd)) && (r[4] = int_tuple(strides, nd)))
        res = mv_alloc(r, offset, itemsize, code, flags);
    vm_unroots(r);
    return res;
}

/* memoryview(obj): bytes, bytearray (or subclasses), memoryview. */
static Obj mv_from_object(Obj obj)
{
    Obj v = vm_unwrap(obj);
    unsigned tid = TID(v);
    if (tid == TID_ITER && ITER(v)->cls == (Obj)T_picklebuffer) {
        if (!ITER(v)->a) {
            err_set(E_ValueError, "operation forbidden on released PickleBuffer object");
            return NULL;
        }
        return mv_from_object(ITER(v)->a);   /* (its .obj: the object the PickleBuffer wraps) */
    }
    if (tid == TID_MEMORYVIEW) {
        if (check_released(v) < 0)
            return NULL;
        int64_t shape[MV_MAXDIM], strides[MV_MAXDIM];
        Obj *r = vm_roots(1);
        r[0] = v;
        int nd = mv_dims(v, shape, strides);
        Obj res = mv_derive(&r[0], NULL, (int)MEMVIEW(v)->code, MEMVIEW(v)->itemsize, nd, shape, strides,
                            MEMVIEW(v)->offset, MEMVIEW(v)->flags & MV_READONLY);
        vm_unroots(r);
        return res;
    }
    int code = 'B';
    int64_t itemsize = 1;
    Obj exported = tid == TID_ITER && vm_hooks.buffer_export ? vm_hooks.buffer_export(v, &code, &itemsize) : NULL;
    if (exported) {   /* an array.array: a view of its storage bytearray in its item format */
        if (!format_size(code)) {
            err_format(E_NotImplementedError, "memoryview: format '%c' is not supported", code);
            return NULL;
        }
        Obj *r = vm_roots(5);
        Obj res = NULL;
        r[0] = obj;
        r[1] = exported;
        char fmt[2] = {(char)code, 0};
        int64_t len, one = itemsize;
        bytes_storage(r[1], &len);
        len /= itemsize;
        if ((r[2] = str_intern_cstr(fmt)) && (r[3] = int_tuple(&len, 1)) && (r[4] = int_tuple(&one, 1)))
            res = mv_alloc(r, 0, itemsize, code, 0);
        vm_unroots(r);
        return res;
    }
    unsigned char *mapped;
    int64_t mapped_len;
    bool writable;
    if (tid == TID_ITER && vm_hooks.mapped_buffer && vm_hooks.mapped_buffer(v, &mapped, &mapped_len, &writable)) {
        if (!mapped) {
            err_set(E_ValueError, "mmap closed or invalid");
            return NULL;
        }
        Obj *r = vm_roots(5);
        Obj res = NULL;
        r[0] = obj;
        r[1] = v;
        int64_t one = 1;
        if ((r[2] = str_intern_cstr("B")) && (r[3] = int_tuple(&mapped_len, 1)) && (r[4] = int_tuple(&one, 1)))
            res = mv_alloc(r, 0, 1, 'B', writable ? 0 : MV_READONLY);
        vm_unroots(r);
        return res;
    }
    if (tid != TID_BYTES && tid != TID_BYTEARRAY) {
        err_format(E_TypeError, "memoryview: a bytes-like object is required, not '%s'", type_name(obj));
        return NULL;
    }
    Obj *r = vm_roots(5);
    Obj res = NULL;
    r[0] = obj;
    r[1] = v;
    int64_t len;
    bytes_storage(v, &len);
    int64_t one = 1;
    if ((r[2] = str_intern_cstr("B")) && (r[3] = int_tuple(&len, 1)) && (r[4] = int_tuple(&one, 1)))
        res = mv_alloc(r, 0, 1, 'B', tid == TID_BYTES ? MV_READONLY : 0);
    vm_unroots(r);
    return res;
}

static Obj mv_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    (void)type;
    static const char *const names[] = {"object", NULL};
    Obj *o = vm_roots(1);
    Obj res = NULL;
    if (vm_parse_args("memoryview", args, nargs, kwnames, names, 1, 1, o) == 0)
        res = mv_from_object(o[0]);
    vm_unroots(o);
    return res;
}

/* ------------------------------------------------------------------ */
/* Items: unpack and pack                                              */
/* ------------------------------------------------------------------ */

/* One item as C: an integer (signed or not), a double, or a char ('c'). */
typedef struct { int kind; int64_t i; uint64_t u; double d; } CItem;
enum { CI_INT, CI_UINT, CI_DOUBLE, CI_CHAR, CI_BOOL };

static CItem unpack_c(int code, const unsigned char *p)
{
    CItem c = {0};
    switch (code) {
    case 'B': c.kind = CI_UINT; c.u = p[0]; break;
    case 'b': c.kind = CI_INT; c.i = (signed char)p[0]; break;
    case 'c': c.kind = CI_CHAR; c.i = p[0]; break;
    case '?': c.kind = CI_BOOL; c.i = p[0] != 0; break;
    case 'h': { int16_t x; memcpy(&x, p, 2); c.kind = CI_INT; c.i = x; break; }
    case 'H': { uint16_t x; memcpy(&x, p, 2); c.kind = CI_UINT; c.u = x; break; }
    case 'i': { int32_t x; memcpy(&x, p, 4); c.kind = CI_INT; c.i = x; break; }
    case 'I': { uint32_t x; memcpy(&x, p, 4); c.kind = CI_UINT; c.u = x; break; }
    case 'l': case 'q': case 'n': { int64_t x; memcpy(&x, p, 8); c.kind = CI_INT; c.i = x; break; }
    case 'L': case 'Q': case 'N': case 'P': { uint64_t x; memcpy(&x, p, 8); c.kind = CI_UINT; c.u = x; break; }
    case 'f': { float x; memcpy(&x, p, 4); c.kind = CI_DOUBLE; c.d = x; break; }
    case 'd': { double x; memcpy(&x, p, 8); c.kind = CI_DOUBLE; c.d = x; break; }
    }
    return c;
}

static Obj citem_obj(CItem c)
{
    switch (c.kind) {
    case CI_INT: return int_from_i64(c.i);
    case CI_UINT: return int_from_u64(c.u);
    case CI_DOUBLE: return float_new(c.d);
    case CI_BOOL: return vm_bool((int)c.i);
    default: {
        char ch = (char)c.i;
        return bytes_new(&ch, 1);
    }
    }
}

/* Python's == between two unpacked items (what struct.unpack's objects give). */
static bool citem_eq(CItem a, CItem b)
{
    if (a.kind == CI_CHAR || b.kind == CI_CHAR)
        return a.kind == b.kind && a.i == b.i;
    if (a.kind == CI_DOUBLE || b.kind == CI_DOUBLE) {
        if (a.kind == CI_DOUBLE && b.kind == CI_DOUBLE)
            return a.d == b.d;
        CItem f = a.kind == CI_DOUBLE ? a : b, n = a.kind == CI_DOUBLE ? b : a;
        if (f.d != floor(f.d) || fabs(f.d) > 1.8446744073709552e19)
            return false;
        if (n.kind == CI_UINT)
            return f.d >= 0 && f.d < 1.8446744073709552e19 && (uint64_t)f.d == n.u;
        return f.d >= -9.2233720368547758e18 && f.d < 9.2233720368547758e18 && (int64_t)f.d == n.i;
    }
    bool an = a.kind != CI_UINT && a.i < 0, bn = b.kind != CI_UINT && b.i < 0;
    if (an || bn)
        return an && bn && a.i == b.i;
    uint64_t x = a.kind == CI_UINT ? a.u : (uint64_t)a.i, y = b.kind == CI_UINT ? b.u : (uint64_t)b.i;
    return x == y;
}

/* Item at byte offset `off` of the view's base, as a Python object. */
static Obj mv_unpack_at(Obj mv, unsigned char __seg_gs *data, int64_t off)
{
    unsigned char buf[8];
    int64_t sz = MEMVIEW(mv)->itemsize;
    for (int64_t k = 0; k < sz; k++)
        buf[k] = data[off + k];
    return citem_obj(unpack_c((int)MEMVIEW(mv)->code, buf));
}

/* An integer for a format of `size` bytes, signed or not: 0, or -1 with
 * the error (TypeError: not an integer; ValueError: out of range). */
static int pack_int(Obj v, int64_t size, bool is_signed, uint64_t *out)
{
    if (!IS_INT(vm_unwrap(v)) && !TYPE(v)->nb_index) {
        err_set(E_TypeError, "");
        return -1;
    }
    Obj i = vm_index(v);
    if (!i)
        return -1;
    int64_t x;
    if (int_as_i64(i, &x) == 0) {
        if (is_signed) {
            int64_t lim = size == 8 ? INT64_MAX : (int64_t)1 << (size * 8 - 1);
            if (size < 8 && (x >= lim || x < -lim))
                goto range;
        } else if (x < 0 || (size < 8 && (uint64_t)x >> (size * 8)))
            goto range;
        *out = (uint64_t)x;
        return 0;
    }
    err_clear();
    if (!is_signed && size == 8 && int_sign(i) > 0 && int_bit_length(i) <= 64) {
        *out = ((BigIntObj *)i)->limbs[0];
        return 0;
    }
range:
    err_set(E_ValueError, "");
    return -1;
}

/* v packed as one item of `code` into out[0..size): 0 or -1 with
 * CPython's "memoryview: invalid type/value for format" error. */
static int pack_item(int code, Obj v, unsigned char *out)
{
    int64_t size = format_size(code);
    int rc = 0;
    switch (code) {
    case 'c': {
        Obj b = vm_unwrap(v);
        if (!IS_BYTES(b)) {
            err_set(E_TypeError, "");
            rc = -1;
        } else if (BYTES(b)->length != 1) {
            err_set(E_ValueError, "");
            rc = -1;
        } else {
            out[0] = (unsigned char)BYTES(b)->data[0];
        }
        break;
    }
    case '?': {
        int t = vm_is_true(v);
        if (t < 0)
            return -1;
        out[0] = (unsigned char)t;
        break;
    }
    case 'f': case 'd': {
        double d;
        if (vm_as_double(v, &d) < 0) {
            rc = -1;
            break;
        }
        if (code == 'f') {
            float f = (float)d;
            memcpy(out, &f, 4);
        } else {
            memcpy(out, &d, 8);
        }
        break;
    }
    default: {
        uint64_t u;
        bool is_signed = code == 'b' || code == 'h' || code == 'i' || code == 'l' || code == 'q' || code == 'n';
        if (pack_int(v, size, is_signed, &u) < 0) {
            rc = -1;
            break;
        }
        switch (size) {
        case 1: out[0] = (unsigned char)u; break;
        case 2: { uint16_t x = (uint16_t)u; memcpy(out, &x, 2); break; }
        case 4: { uint32_t x = (uint32_t)u; memcpy(out, &x, 4); break; }
        default: memcpy(out, &u, 8); break;
        }
    }
    }
    if (rc < 0) {
        /* CPython rewrites only these three; others pass through */
        bool type_err = err_matches(E_TypeError);
        if (!type_err && !err_matches(E_ValueError) && !err_matches(E_OverflowError))
            return -1;
        err_clear();
        err_format(type_err ? E_TypeError : E_ValueError, "memoryview: invalid %s for format '%c'",
                   type_err ? "type" : "value", code);
    }
    return rc;
}

/* Store v as the item at byte offset off of the view (writable, checked). */
static int mv_store_at(Obj *mvp, int64_t off, Obj v)
{
    unsigned char buf[8];
    if (pack_item((int)MEMVIEW(*mvp)->code, v, buf) < 0)
        return -1;
    unsigned char __seg_gs *d = mv_data_for_write(*mvp);
    if (!d)
        return -1;
    for (int64_t k = 0; k < MEMVIEW(*mvp)->itemsize; k++)
        d[off + k] = buf[k];
    return 0;
}

/* ------------------------------------------------------------------ */
/* Attributes                                                          */
/* ------------------------------------------------------------------ */

static Obj self_mv(Obj *args, const char *name)
{
    (void)name;
    Obj mv = args[0];
    if (check_released(mv) < 0)
        return NULL;
    return mv;
}

#define GETTER(name, expr)                                                   \
    static Obj mv_get_##name(Obj *args, size_t nargs, Obj kwnames)          \
    {                                                                       \
        (void)nargs;                                                        \
        (void)kwnames;                                                      \
        Obj mv = self_mv(args, #name);                                      \
        if (!mv)                                                            \
            return NULL;                                                    \
        int64_t shape[MV_MAXDIM], strides[MV_MAXDIM];                       \
        int nd = mv_dims(mv, shape, strides);                               \
        (void)nd;                                                           \
        return expr;                                                        \
    }

GETTER(obj, MEMVIEW(mv)->obj)
GETTER(nbytes, int_from_i64(mv_nitems(mv) * MEMVIEW(mv)->itemsize))
GETTER(readonly, vm_bool(MEMVIEW(mv)->flags & MV_READONLY))
GETTER(itemsize, int_from_i64(MEMVIEW(mv)->itemsize))
GETTER(format, MEMVIEW(mv)->format)
GETTER(ndim, MAKE_SMALLINT(nd))
GETTER(shape, MEMVIEW(mv)->shape)
GETTER(strides, MEMVIEW(mv)->strides)
GETTER(suboffsets, g_empty_tuple)
GETTER(c_contiguous, vm_bool(c_contiguous(nd, shape, strides, MEMVIEW(mv)->itemsize)))
GETTER(f_contiguous, vm_bool(f_contiguous(nd, shape, strides, MEMVIEW(mv)->itemsize)))
GETTER(contiguous, vm_bool(c_contiguous(nd, shape, strides, MEMVIEW(mv)->itemsize) ||
                           f_contiguous(nd, shape, strides, MEMVIEW(mv)->itemsize)))

/* ------------------------------------------------------------------ */
/* tobytes, tolist, hex, release, toreadonly, cast                     */
/* ------------------------------------------------------------------ */

/* The view's bytes in C (or Fortran) order, as a new bytes. */
static Obj mv_bytes(Obj *mvp, bool fortran)
{
    int64_t shape[MV_MAXDIM], strides[MV_MAXDIM];
    int nd = mv_dims(*mvp, shape, strides);
    int64_t n = mv_nitems(*mvp), sz = MEMVIEW(*mvp)->itemsize;
    Obj b = bytes_alloc(n * sz);
    if (!b || !n)
        return b;
    unsigned char __seg_gs *d = mv_data(*mvp);
    if (!d)
        return NULL;
    unsigned char __seg_gs *out = (unsigned char __seg_gs *)BYTES(b)->data;
    for (int64_t i = 0; i < n; i++) {
        int64_t off = item_offset(*mvp, nd, shape, strides, i, fortran);
        for (int64_t k = 0; k < sz; k++)
            out[i * sz + k] = d[off + k];
    }
    return b;
}

static Obj mv_tobytes(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"order", NULL};
    if (!self_mv(args, "tobytes"))
        return NULL;
    Obj *o = vm_roots(1);
    Obj res = NULL;
    if (vm_parse_args("tobytes", args + 1, nargs - 1, kwnames, names, 0, 1, o) < 0)
        goto out;
    bool fortran = false;
    if (o[0] && !IS_NONE(o[0])) {
        if (!IS_STR(o[0])) {
            err_format(E_TypeError, "tobytes() argument 'order' must be str or None, not %s", type_name(o[0]));
            goto out;
        }
        const char *s = str_cstr(o[0]);
        if (STR(o[0])->nbytes != 1 || (s[0] != 'C' && s[0] != 'F' && s[0] != 'A')) {
            err_set(E_ValueError, "order must be 'C', 'F' or 'A'");
            goto out;
        }
        fortran = s[0] == 'F';
    }
    res = mv_bytes(&args[0], fortran);
out:
    vm_unroots(o);
    return res;
}

/* Nested lists of dimension k.. of the view, starting at byte offset off. */
static Obj tolist_dim(Obj *mvp, int k, int nd, const int64_t *shape, const int64_t *strides, int64_t off)
{
    if (k == nd) {
        unsigned char __seg_gs *d = mv_data(*mvp);
        return d ? mv_unpack_at(*mvp, d, off) : NULL;
    }
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = list_new(shape[k]);
    if (!r[0])
        goto out;
    for (int64_t i = 0; i < shape[k]; i++) {
        Obj item = tolist_dim(mvp, k + 1, nd, shape, strides, off + i * strides[k]);
        if (!item)
            goto out;
        VM_WRITE(LIST(r[0])->array);
        LIST_ITEMS(r[0])[i] = item;
    }
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

static Obj mv_tolist(Obj *args, size_t nargs, Obj kwnames)
{
    if (!self_mv(args, "tolist"))
        return NULL;
    int64_t shape[MV_MAXDIM], strides[MV_MAXDIM];
    int nd = mv_dims(args[0], shape, strides);
    return tolist_dim(&args[0], 0, nd, shape, strides, MEMVIEW(args[0])->offset);
}

static Obj mv_hex(Obj *args, size_t nargs, Obj kwnames)
{
    if (!self_mv(args, "hex"))
        return NULL;
    Obj *r = vm_roots(1);
    Obj res = NULL;
    if ((r[0] = mv_bytes(&args[0], false)) && (r[0] = vm_getattr_cstr(r[0], "hex")))
        res = vm_call(r[0], args + 1, nargs - 1, kwnames);
    vm_unroots(r);
    return res;
}

static void mv_release_now(Obj mv)
{
    if (MEMVIEW(mv)->flags & MV_RELEASED)
        return;
    VM_WRITE(mv);
    MEMVIEW(mv)->flags |= MV_RELEASED;
    add_export(MEMVIEW(mv)->base, -1);
}

static Obj mv_release(Obj *args, size_t nargs, Obj kwnames)
{
    mv_release_now(args[0]);
    return g_None;
}

static Obj mv_enter(Obj *args, size_t nargs, Obj kwnames)
{
    return self_mv(args, "__enter__");
}

static Obj mv_exit(Obj *args, size_t nargs, Obj kwnames)
{
    mv_release_now(args[0]);
    return g_None;
}

static Obj mv_toreadonly(Obj *args, size_t nargs, Obj kwnames)
{
    if (!self_mv(args, "toreadonly"))
        return NULL;
    int64_t shape[MV_MAXDIM], strides[MV_MAXDIM];
    int nd = mv_dims(args[0], shape, strides);
    return mv_derive(&args[0], NULL, (int)MEMVIEW(args[0])->code, MEMVIEW(args[0])->itemsize, nd, shape, strides,
                     MEMVIEW(args[0])->offset, MV_READONLY);
}

static Obj mv_cast(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"format", "shape", NULL};
    if (!self_mv(args, "cast"))
        return NULL;
    Obj *o = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("cast", args + 1, nargs - 1, kwnames, names, 1, 2, o) < 0)
        goto out;
    if (!IS_STR(o[0])) {
        err_format(E_TypeError, "cast() argument 'format' must be str, not %s", type_name(o[0]));
        goto out;
    }
    Obj mv = args[0];
    if (!mv_is_c_contiguous(mv)) {
        err_set(E_TypeError, "memoryview: casts are restricted to C-contiguous views");
        goto out;
    }
    int nd_src = mv_ndim(mv);
    int64_t shape[MV_MAXDIM], strides[MV_MAXDIM];
    int nd = 1;
    if (o[1]) {
        if (!IS_LIST(o[1]) && !IS_TUPLE(o[1])) {
            err_set(E_TypeError, "shape must be a list or a tuple");
            goto out;
        }
        int64_t n = IS_LIST(o[1]) ? LIST_LEN(o[1]) : TUPLE_LEN(o[1]);
        if (n > MV_MAXDIM) {
            err_set(E_ValueError, "memoryview: number of dimensions must not exceed 64");
            goto out;
        }
        nd = (int)n;
        if (nd_src != 1 && nd != 1) {
            err_set(E_TypeError, "memoryview: cast must be 1D -> ND or ND -> 1D");
            goto out;
        }
    }
    int code = format_code(o[0]);
    if (!code) {
        err_set(E_ValueError,
                "memoryview: destination format must be a native single character format prefixed with an optional '@'");
        goto out;
    }
    int src_code = (int)MEMVIEW(mv)->code;
    if (!is_byte_format(code) && !is_byte_format(src_code)) {
        err_set(E_TypeError, "memoryview: cannot cast between two non-byte formats");
        goto out;
    }
    int64_t itemsize = format_size(code);
    int64_t nbytes = mv_nitems(mv) * MEMVIEW(mv)->itemsize;
    if (nbytes % itemsize) {
        err_set(E_TypeError, "memoryview: length is not a multiple of itemsize");
        goto out;
    }
    if (o[1]) {
        int64_t prod = 1, total;
        for (int k = 0; k < nd; k++) {
            Obj e = IS_LIST(o[1]) ? LIST_ITEMS(o[1])[k] : TUPLE_ITEMS(o[1])[k];
            int64_t x;
            if (!IS_INT(vm_unwrap(e))) {
                err_set(E_TypeError, "memoryview.cast(): elements of shape must be integers");
                goto out;
            }
            if (int_as_i64(vm_unwrap(e), &x) < 0) {
                err_clear();
                err_set(E_OverflowError, "Python int too large to convert to C ssize_t");
                goto out;
            }
            if (x <= 0) {
                err_set(E_ValueError, "memoryview.cast(): elements of shape must be integers > 0");
                goto out;
            }
            if (x > INT64_MAX / prod) {
                err_set(E_ValueError, "memoryview.cast(): product(shape) > SSIZE_MAX");
                goto out;
            }
            prod *= x;
            shape[k] = x;
        }
        if (__builtin_mul_overflow(prod, itemsize, &total) || total != nbytes) {
            err_set(E_TypeError, "memoryview: product(shape) * itemsize != buffer size");
            goto out;
        }
    } else {
        shape[0] = nbytes / itemsize;
    }
    int64_t sd = itemsize;
    for (int k = nd - 1; k >= 0; k--) {
        strides[k] = sd;
        sd *= shape[k];
    }
    /* a C-contiguous view starts at its lowest address */
    res = mv_derive(&args[0], o[0], code, itemsize, nd, shape, strides, MEMVIEW(args[0])->offset,
                    MEMVIEW(args[0])->flags & MV_READONLY);
out:
    vm_unroots(o);
    return res;
}

/* ------------------------------------------------------------------ */
/* Indexing                                                            */
/* ------------------------------------------------------------------ */

/* Byte offset of an item from an index tuple (or one int for 1-D):
 * 0, or -1 with the error. */
static int index_offset(Obj mv, Obj key, int64_t *off)
{
    int64_t shape[MV_MAXDIM], strides[MV_MAXDIM];
    int nd = mv_dims(mv, shape, strides);
    int64_t n = IS_TUPLE(key) ? TUPLE_LEN(key) : 1;
    if (n != nd) {
        err_format(E_TypeError, "cannot index %d-dimension view with %d-element tuple", nd, (int)n);
        return -1;
    }
    *off = MEMVIEW(mv)->offset;
    for (int k = 0; k < nd; k++) {
        Obj *r = vm_roots(2);
        r[0] = mv;
        r[1] = key;
        int64_t i;
        int rc = seq_index_arg(IS_TUPLE(key) ? TUPLE_ITEMS(key)[k] : key, &i);
        mv = r[0];
        key = r[1];
        vm_unroots(r);
        if (rc < 0)
            return -1;
        if (rc == 0) {
            err_set(E_TypeError, "memoryview: invalid slice key");
            return -1;
        }
        if (i < 0)
            i += shape[k];
        if (i < 0 || i >= shape[k]) {
            err_format(E_IndexError, "index out of bounds on dimension %d", k + 1);
            return -1;
        }
        *off += i * strides[k];
    }
    return 0;
}

static bool tuple_all_ints(Obj key)
{
    for (int64_t k = 0; k < TUPLE_LEN(key); k++) {
        Obj e = TUPLE_ITEMS(key)[k];
        if (!IS_INT(vm_unwrap(e)) && !TYPE(e)->nb_index)
            return false;
    }
    return true;
}

static bool tuple_all_slices(Obj key)
{
    for (int64_t k = 0; k < TUPLE_LEN(key); k++)
        if (TID(TUPLE_ITEMS(key)[k]) != TID_SLICE)
            return false;
    return true;
}

/* A view of key (a slice) along the first dimension. */
static Obj mv_slice(Obj *mvp, Obj key, int64_t flags)
{
    int64_t shape[MV_MAXDIM], strides[MV_MAXDIM];
    int nd = mv_dims(*mvp, shape, strides);
    int64_t start, stop, step;
    int64_t cnt = slice_indices(key, shape[0], &start, &stop, &step);
    if (cnt < 0 || check_released(*mvp) < 0)   /* the slice's __index__ may release the view */
        return NULL;
    nd = mv_dims(*mvp, shape, strides);
    int64_t offset = MEMVIEW(*mvp)->offset + start * strides[0];
    shape[0] = cnt;
    strides[0] *= step;
    return mv_derive(mvp, NULL, (int)MEMVIEW(*mvp)->code, MEMVIEW(*mvp)->itemsize, nd, shape, strides, offset, flags);
}

static Obj mv_getitem(Obj self, Obj key)
{
    if (check_released(self) < 0)
        return NULL;
    int nd = mv_ndim(self);
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj res = NULL;
    int64_t off;
    if (nd == 0) {
        if (key == g_Ellipsis)
            res = mv_from_object(self);
        else if (IS_TUPLE(key) && TUPLE_LEN(key) == 0) {
            unsigned char __seg_gs *d = mv_data(self);
            res = d ? mv_unpack_at(self, d, MEMVIEW(self)->offset) : NULL;
        } else
            err_set(E_TypeError, "invalid indexing of 0-dim memory");
    } else if (TID(key) == TID_SLICE) {
        res = mv_slice(&r[0], key, MEMVIEW(self)->flags & MV_READONLY);
    } else if (IS_TUPLE(key)) {
        if (tuple_all_ints(key)) {
            if (TUPLE_LEN(key) < nd)
                err_set(E_NotImplementedError, "sub-views are not implemented");
            else if (index_offset(r[0], key, &off) == 0) {
                unsigned char __seg_gs *d = mv_data(r[0]);
                res = d ? mv_unpack_at(r[0], d, off) : NULL;
            }
        } else if (tuple_all_slices(key)) {
            err_set(E_NotImplementedError, "multi-dimensional slicing is not implemented");
        } else {
            err_set(E_TypeError, "memoryview: invalid slice key");
        }
    } else if (IS_INT(vm_unwrap(key)) || TYPE(key)->nb_index) {
        if (nd > 1)
            err_set(E_NotImplementedError, "multi-dimensional sub-views are not implemented");
        else if (index_offset(r[0], key, &off) == 0) {
            unsigned char __seg_gs *d = mv_data(r[0]);
            res = d ? mv_unpack_at(r[0], d, off) : NULL;
        }
    } else {
        err_set(E_TypeError, "memoryview: invalid slice key");
    }
    vm_unroots(r);
    return res;
}

/* The format, shape and data of any buffer as a source of slice assignment
 * (a bytes or bytearray is format 'B', shape (n,)). A new bytes of its items
 * in C order: 0, or -1 with the error. */
static int source_items(Obj src, int *code, int64_t *n, Obj *bytesp)
{
    Obj v = vm_unwrap(src);
    if (is_mv(v)) {
        if (check_released(v) < 0)
            return -1;
        *code = (int)MEMVIEW(v)->code;
        if (mv_ndim(v) != 1) {
            *n = -1;   /* another structure */
            return 0;
        }
        *n = SMALLINT_VAL(TUPLE_ITEMS(MEMVIEW(v)->shape)[0]);
        Obj *r = vm_roots(1);
        r[0] = v;
        *bytesp = mv_bytes(&r[0], false);
        vm_unroots(r);
        return *bytesp ? 0 : -1;
    }
    const char *p;
    int64_t len;
    if (!bytes_like(v, &p, &len)) {
        err_format(E_TypeError, "a bytes-like object is required, not '%s'", type_name(src));
        return -1;
    }
    *code = 'B';
    *n = len;
    *bytesp = bytes_new(p, (size_t)len);
    return *bytesp ? 0 : -1;
}

static int mv_setitem(Obj self, Obj key, Obj value)
{
    if (check_released(self) < 0)
        return -1;
    if (MEMVIEW(self)->flags & MV_READONLY) {
        err_set(E_TypeError, "cannot modify read-only memory");
        return -1;
    }
    if (!value) {
        err_set(E_TypeError, "cannot delete memory");
        return -1;
    }
    int nd = mv_ndim(self);
    Obj *r = vm_roots(4);
    r[0] = self;
    r[1] = key;
    r[2] = value;
    int rc = -1;
    int64_t off;
    if (nd == 0) {
        if (key == g_Ellipsis || (IS_TUPLE(key) && TUPLE_LEN(key) == 0))
            rc = mv_store_at(&r[0], MEMVIEW(self)->offset, value);
        else
            err_set(E_TypeError, "invalid indexing of 0-dim memory");
    } else if (TID(key) == TID_SLICE) {
        if (nd > 1) {
            err_set(E_NotImplementedError, "memoryview slice assignments are currently restricted to ndim = 1");
            goto out;
        }
        int code;
        int64_t n;
        if (source_items(value, &code, &n, &r[3]) < 0)
            goto out;
        int64_t shape[MV_MAXDIM], strides[MV_MAXDIM];
        mv_dims(r[0], shape, strides);
        int64_t start, stop, step;
        int64_t cnt = slice_indices(r[1], shape[0], &start, &stop, &step);
        if (cnt < 0)
            goto out;
        if (code != MEMVIEW(r[0])->code || n != cnt) {
            err_set(E_ValueError, "memoryview assignment: lvalue and rvalue have different structures");
            goto out;
        }
        if (cnt == 0) {
            rc = 0;
            goto out;
        }
        unsigned char __seg_gs *d = mv_data_for_write(r[0]);
        if (!d)
            goto out;
        const unsigned char __seg_gs *s = (const unsigned char __seg_gs *)BYTES(r[3])->data;
        int64_t sz = MEMVIEW(r[0])->itemsize;
        int64_t base_off = MEMVIEW(r[0])->offset + start * strides[0];
        for (int64_t i = 0; i < cnt; i++)
            for (int64_t k = 0; k < sz; k++)
                d[base_off + i * step * strides[0] + k] = s[i * sz + k];
        rc = 0;
    } else if (IS_TUPLE(key)) {
        if (tuple_all_ints(key)) {
            if (TUPLE_LEN(key) < nd)
                err_set(E_NotImplementedError, "sub-views are not implemented");
            else if (index_offset(r[0], r[1], &off) == 0)
                rc = mv_store_at(&r[0], off, r[2]);
        } else if (tuple_all_slices(key)) {
            err_set(E_NotImplementedError, "memoryview slice assignments are currently restricted to ndim = 1");
        } else {
            err_set(E_TypeError, "memoryview: invalid slice key");
        }
    } else if (IS_INT(vm_unwrap(key)) || TYPE(key)->nb_index) {
        if (nd > 1)
            err_set(E_NotImplementedError, "sub-views are not implemented");
        else if (index_offset(r[0], r[1], &off) == 0)
            rc = mv_store_at(&r[0], off, r[2]);
    } else {
        err_set(E_TypeError, "memoryview: invalid slice key");
    }
out:
    vm_unroots(r);
    return rc;
}

static int64_t mv_len(Obj self)
{
    if (check_released(self) < 0)
        return -1;
    Obj sh = MEMVIEW(self)->shape;
    return TUPLE_LEN(sh) ? SMALLINT_VAL(TUPLE_ITEMS(sh)[0]) : 1;
}

/* ------------------------------------------------------------------ */
/* Iteration                                                           */
/* ------------------------------------------------------------------ */

static Obj mv_iter(Obj self)
{
    if (check_released(self) < 0)
        return NULL;
    int nd = mv_ndim(self);
    if (nd == 0) {
        err_set(E_TypeError, "invalid indexing of 0-dim memory");
        return NULL;
    }
    if (nd > 1) {
        err_set(E_NotImplementedError, "multi-dimensional sub-views are not implemented");
        return NULL;
    }
    return iter_alloc(T_memory_iterator, self, 0);
}

static Obj mv_iter_next(Obj it)
{
    Obj mv = ITER(it)->a;
    if (!mv)
        return NULL;
    if (check_released(mv) < 0)
        return NULL;
    int64_t i = ITER(it)->i;
    if (i >= SMALLINT_VAL(TUPLE_ITEMS(MEMVIEW(mv)->shape)[0])) {
        VM_WRITE(it);
        ITER(it)->a = NULL;
        return NULL;
    }
    VM_WRITE(it);
    ITER(it)->i = i + 1;
    unsigned char __seg_gs *d = mv_data(mv);
    if (!d)
        return NULL;
    return mv_unpack_at(mv, d, MEMVIEW(mv)->offset + i * SMALLINT_VAL(TUPLE_ITEMS(MEMVIEW(mv)->strides)[0]));
}

/* ------------------------------------------------------------------ */
/* Comparison, hash, repr                                              */
/* ------------------------------------------------------------------ */

/* Items of a and b (views of equal shape) compared as Python values. */
static bool items_equal(Obj a, Obj b)
{
    int64_t sa[MV_MAXDIM], ta[MV_MAXDIM], sb[MV_MAXDIM], tb[MV_MAXDIM];
    int nd = mv_dims(a, sa, ta);
    mv_dims(b, sb, tb);
    unsigned char __seg_gs *da = mv_data(a);
    unsigned char __seg_gs *db = mv_data(b);
    if (!da || !db) {
        err_clear();
        return false;
    }
    int ca = (int)MEMVIEW(a)->code, cb = (int)MEMVIEW(b)->code;
    int64_t za = MEMVIEW(a)->itemsize, zb = MEMVIEW(b)->itemsize;
    int64_t n = mv_nitems(a);
    for (int64_t i = 0; i < n; i++) {
        unsigned char x[8], y[8];
        int64_t oa = item_offset(a, nd, sa, ta, i, false), ob = item_offset(b, nd, sb, tb, i, false);
        for (int64_t k = 0; k < za; k++)
            x[k] = da[oa + k];
        for (int64_t k = 0; k < zb; k++)
            y[k] = db[ob + k];
        if (!citem_eq(unpack_c(ca, x), unpack_c(cb, y)))
            return false;
    }
    return true;
}

static Obj mv_richcompare(Obj self, Obj other, int op)
{
    if (op != CMP_EQ && op != CMP_NE)
        return g_NotImplemented;
    Obj o = vm_unwrap(other);
    bool eq;
    if (MEMVIEW(self)->flags & MV_RELEASED || (is_mv(o) && MEMVIEW(o)->flags & MV_RELEASED)) {
        eq = self == other;
    } else if (is_mv(o)) {
        Obj sa = MEMVIEW(self)->shape, sb = MEMVIEW(o)->shape;
        eq = TUPLE_LEN(sa) == TUPLE_LEN(sb);
        for (int64_t k = 0; eq && k < TUPLE_LEN(sa); k++)
            eq = TUPLE_ITEMS(sa)[k] == TUPLE_ITEMS(sb)[k];
        eq = eq && items_equal(self, o);
    } else {
        const char *p;
        int64_t n;
        if (!bytes_like(o, &p, &n))
            return g_NotImplemented;
        Obj *r = vm_roots(2);
        r[0] = self;
        Obj tmp = mv_from_object(o);   /* a 'B' view of the bytes */
        r[1] = tmp;
        self = r[0];
        if (!tmp) {
            vm_unroots(r);
            return NULL;
        }
        Obj sa = MEMVIEW(self)->shape;
        eq = TUPLE_LEN(sa) == 1 && SMALLINT_VAL(TUPLE_ITEMS(sa)[0]) == n && items_equal(self, tmp);
        mv_release_now(tmp);
        vm_unroots(r);
    }
    return vm_bool(op == CMP_EQ ? eq : !eq);
}

static int64_t mv_hash(Obj self)
{
    int64_t h = MEMVIEW(self)->hash;
    if (h != -1)
        return h;
    if (check_released(self) < 0)
        return -1;
    if (!(MEMVIEW(self)->flags & MV_READONLY)) {
        err_set(E_ValueError, "cannot hash writable memoryview object");
        return -1;
    }
    if (!is_byte_format((int)MEMVIEW(self)->code)) {
        err_set(E_ValueError, "memoryview: hashing is restricted to formats 'B', 'b' or 'c'");
        return -1;
    }
    Obj *r = vm_roots(1);
    r[0] = self;
    /* CPython hashes the exporter first (a bytearray refuses, its message kept) */
    Obj b = vm_hash(MEMVIEW(self)->obj) == -1 ? NULL : mv_bytes(&r[0], false);
    h = b ? vm_hash(b) : -1;
    if (h != -1) {
        VM_WRITE(r[0]);
        MEMVIEW(r[0])->hash = h;
    }
    vm_unroots(r);
    return h;
}

static Obj mv_repr(Obj self)
{
    bool released = MEMVIEW(self)->flags & MV_RELEASED;
    uint64_t id = vm_object_id(self);
    return str_from_format("<%smemory at 0x%llx>", released ? "released " : "", (unsigned long long)id);
}

/* ------------------------------------------------------------------ */
/* The type                                                            */
/* ------------------------------------------------------------------ */

static const MethodDef mv_methods[] = {
    {"tobytes", mv_tobytes, METH_KW, NULL},
    {"tolist", mv_tolist, METH_NOARGS, NULL},
    {"hex", mv_hex, METH_KW, NULL},
    {"release", mv_release, METH_NOARGS, NULL},
    {"toreadonly", mv_toreadonly, METH_NOARGS, NULL},
    {"cast", mv_cast, METH_KW, NULL},
    {"__enter__", mv_enter, 0, NULL},
    {"__exit__", mv_exit, 0, NULL},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* pickle.PickleBuffer (PEP 574): a view of an object's buffer that the */
/* picklers of protocol 5 can hand out of band. An IterObj: a = a      */
/* memoryview of the object (NULL once released).                      */
/* ------------------------------------------------------------------ */

static Obj pb_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (kwnames && TUPLE_LEN(kwnames)) {
        err_set(E_TypeError, "PickleBuffer() takes no keyword arguments");
        return NULL;
    }
    if (nargs != 1) {
        err_format(E_TypeError, "PickleBuffer() takes exactly 1 positional argument (%zu given)", nargs);
        return NULL;
    }
    Obj *a = vm_roots(1);
    Obj res = NULL;
    a[0] = mv_from_object(args[0]);
    if (a[0])
        res = iter_alloc(T_picklebuffer, a[0], 0);
    else if (err_matches(E_TypeError) && !vm_isinstance_type(args[0], T_memoryview)) {
        err_clear();   /* CPython's wording: the buffer protocol's, not memoryview's */
        err_format(E_TypeError, "a bytes-like object is required, not '%s'", type_name(args[0]));
    }
    vm_unroots(a);
    return res;
}

/* The memoryview of a PickleBuffer, or ValueError once released. */
static Obj pb_view(Obj self)
{
    Obj v = ITER(self)->a;
    if (!v)
        err_set(E_ValueError, "operation forbidden on released PickleBuffer object");
    return v;
}

/* raw(): a one-dimensional memoryview of unsigned bytes over the buffer. */
static Obj pb_raw(Obj *args, size_t nargs, Obj kwnames)
{
    Obj v = pb_view(args[0]);
    if (!v)
        return NULL;
    if (!mv_is_c_contiguous(v)) {
        err_set(E_BufferError, "cannot extract raw buffer from non-contiguous buffer");
        return NULL;
    }
    Obj *r = vm_roots(1);
    r[0] = str_intern_cstr("B");
    Obj res = r[0] ? vm_call_method(ITER(args[0])->a, "cast", r, 1) : NULL;
    vm_unroots(r);
    return res;
}

/* release(): lets go of the buffer (a second call does nothing). */
static Obj pb_release(Obj *args, size_t nargs, Obj kwnames)
{
    Obj v = ITER(args[0])->a;
    if (v) {
        Obj u = args[0];
        VM_WRITE(u);
        ITER(u)->a = NULL;
        Obj *r = vm_roots(1);
        r[0] = v;
        Obj res = vm_call_method(r[0], "release", NULL, 0);
        vm_unroots(r);
        if (!res)
            return NULL;
    }
    return g_None;
}

static const MethodDef pb_methods[] = {
    {"raw", pb_raw, METH_NOARGS, "Return a memoryview of the raw memory underlying this buffer."},
    {"release", pb_release, METH_NOARGS, "Release the underlying buffer exposed by the PickleBuffer object."},
    {NULL, NULL, 0, NULL},
};

Obj picklebuffer_view(Obj pb)
{
    return pb_view(pb);
}

void memview_init_type(void)
{
    TypeObj *t = (TypeObj *)type_new_builtin("memoryview", T_object, TID_MEMORYVIEW, 0);
    T_memoryview = t;
    t->tp_new = mv_tp_new;
    t->tp_repr = mv_repr;
    t->tp_hash = mv_hash;
    t->tp_richcompare = mv_richcompare;
    t->tp_len = mv_len;
    t->tp_getitem = mv_getitem;
    t->tp_setitem = mv_setitem;
    t->tp_iter = mv_iter;
    type_add_methods(t, mv_methods);
    type_add_getset(t, "obj", mv_get_obj, NULL);
    type_add_getset(t, "nbytes", mv_get_nbytes, NULL);
    type_add_getset(t, "readonly", mv_get_readonly, NULL);
    type_add_getset(t, "itemsize", mv_get_itemsize, NULL);
    type_add_getset(t, "format", mv_get_format, NULL);
    type_add_getset(t, "ndim", mv_get_ndim, NULL);
    type_add_getset(t, "shape", mv_get_shape, NULL);
    type_add_getset(t, "strides", mv_get_strides, NULL);
    type_add_getset(t, "suboffsets", mv_get_suboffsets, NULL);
    type_add_getset(t, "c_contiguous", mv_get_c_contiguous, NULL);
    type_add_getset(t, "f_contiguous", mv_get_f_contiguous, NULL);
    type_add_getset(t, "contiguous", mv_get_contiguous, NULL);
    type_ready(t);
    T_memory_iterator = iter_make_type("memory_iterator", mv_iter_next, false);
    T_picklebuffer = (TypeObj *)type_new_builtin("pickle.PickleBuffer", T_object, TID_ITER, 0);
    VM_WRITE(T_picklebuffer);
    T_picklebuffer->tp_new = pb_tp_new;
    T_picklebuffer->flags |= TPF_WEAKREFABLE;
    type_add_methods(T_picklebuffer, pb_methods);
    type_ready(T_picklebuffer);
}
