/* The array module: array.array of every typecode (b B u h H i I l L q Q f
 * d), written from its documentation with CPython's messages: the sequence
 * and mutation methods, slicing and slice assignment, comparisons,
 * concatenation and repetition, the conversions (frombytes/tobytes,
 * fromlist/tolist, fromunicode/tounicode, fromfile/tofile), byteswap,
 * buffer_info, pickling (__reduce_ex__ and _array_reconstructor with
 * CPython's machine format codes), iteration, and the buffer protocol.
 *
 * An array is an IterObj (cls = array.array; instances of Python
 * subclasses hold one in base_value, TPF_ITER_VALUE) whose `a` is a
 * bytearray holding the items in native layout and `kind` the typecode.
 * The items are read through the bytearray's and its RawObj's barriers and
 * written after VM_WRITE / VM_WRITE_ITEMS on the RawObj, so under STM they
 * are ordinary transactional heap data (nothing in C memory). Keeping them
 * in a bytearray gives the buffer protocol: the hook vm_hooks.buffer_export
 * hands the bytearray, the typecode and the item size to bytes_like() (so
 * bytes(a), struct.unpack(fmt, a), b''.join, file.write take arrays) and to
 * memoryview(a), whose view counts as an export of that bytearray: while a
 * view is alive the array cannot change size (BufferError, as CPython's). */
#include "modules.h"
#include "objects/containers.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static TypeObj *T_array, *T_arrayiterator;
static Obj g_reconstructor;   /* array._array_reconstructor (pickles name it) */

static const char TYPECODES[] = "bBuhHiIlLqQfd";

static int itemsize_of(int code)
{
    switch (code) {
    case 'b': case 'B': return 1;
    case 'h': case 'H': return 2;
    case 'u': case 'i': case 'I': case 'f': return 4;
    case 'l': case 'L': case 'q': case 'Q': case 'd': return 8;
    default: return 0;
    }
}

/* ---- the object ---- */

static bool is_array(Obj v) { return TID(v) == TID_ITER && TYPE(v) == T_array; }
static Obj storage(Obj a) { return ITER(a)->a; }
static int code_of(Obj a) { return (int)ITER(a)->kind; }
static int64_t isz(Obj a) { return itemsize_of(code_of(a)); }
static int64_t nbytes_of(Obj a) { return BYTEARRAY(storage(a))->length; }
/* alen and adata inline everywhere: under STM their read barriers made
 * GCC call them out of line from every item access (scimark: 1.5 calls per
 * item read or store). */
static inline __attribute__((always_inline)) int64_t alen(Obj a) { return nbytes_of(a) / isz(a); }
/* The items, linear (valid until the next allocation). */
static inline __attribute__((always_inline)) unsigned char *adata(Obj a)
{
    Obj raw = BYTEARRAY(storage(a))->raw;
    return raw ? VM_LINEAR((RAW(raw))->data) : NULL;
}
/* The items for a store into bytes [off, off + n): barrier first. */
static unsigned char *awrite(Obj a, int64_t off, int64_t n)
{
    Obj raw = BYTEARRAY(storage(a))->raw;
    if (!raw || n <= 0)
        return raw ? VM_LINEAR((RAW(raw))->data) : NULL;
    VM_WRITE_ITEMS(raw, off, n);
    return VM_LINEAR((RAW(raw))->data);
}

/* self (an array or an instance of a subclass) as the array; NULL with
 * TypeError otherwise (a descriptor called on something else). */
static Obj self_array(Obj v)
{
    Obj a = vm_unwrap(v);
    if (is_array(a))
        return a;
    err_format(E_TypeError, "descriptor requires a 'array.array' object but received a '%s'", type_name(v));
    return NULL;
}

/* vm_hooks.buffer_export: the storage of an array (unwrapped). */
static Obj array_buffer_export(Obj v, int *code, int64_t *itemsize)
{
    if (!is_array(v))
        return NULL;
    *code = code_of(v) == 'u' ? 'w' : code_of(v);
    *itemsize = isz(v);
    return storage(v);
}

static Obj array_alloc(int code, int64_t nbytes)
{
    Obj ba = bytearray_new("", 0);
    if (!ba)
        return NULL;
    Obj *r = vm_roots(1);
    r[0] = ba;
    Obj a = iter_alloc(T_array, r[0], code);
    if (a && nbytes) {
        r[0] = a;
        Obj raw = raw_new(nbytes);
        a = r[0];
        if (!raw) {
            a = NULL;
        } else {
            Obj st = storage(a);
            VM_WRITE(st);
            BYTEARRAY(st)->raw = raw;
            BYTEARRAY(st)->length = nbytes;
        }
    }
    vm_unroots(r);
    return a;
}

/* Replace bytes [lo, hi) of the array in *ap by dn bytes of C memory at
 * data (never GC memory: resizing may collect). 0, or -1 with BufferError
 * while a memoryview of the array is alive and the size would change. */
static int set_range(Obj *ap, int64_t lo, int64_t hi, const char *data, int64_t dn)
{
    Obj *r = vm_roots(1);
    int rc = -1;
    r[0] = storage(*ap);
    int64_t len = BYTEARRAY(r[0])->length;
    int64_t newlen = len - (hi - lo) + dn;
    if (newlen != len && BYTEARRAY(r[0])->exports && memview_live_exports(&r[0]) > 0) {
        err_set(E_BufferError, "cannot resize an array that is exporting buffers");
        goto out;
    }
    if ((uint64_t)newlen > vm_max_object_size()) {
        err_nomemory();
        goto out;
    }
    Obj raw = BYTEARRAY(r[0])->raw;
    int64_t cap = raw ? (RAW(raw))->length : 0;
    if (newlen > cap) {   /* geometric growth */
        int64_t ncap = cap + (cap >> 1) + 16;
        if (ncap < newlen)
            ncap = newlen;
        Obj nraw = raw_new(ncap);
        if (!nraw)
            goto out;
        raw = BYTEARRAY(r[0])->raw;
        len = BYTEARRAY(r[0])->length;
        if (len)
            memcpy(VM_LINEAR((RAW(nraw))->data), VM_LINEAR((RAW(raw))->data), (size_t)len);
        tm_compiler_barrier();
        VM_WRITE(r[0]);
        BYTEARRAY(r[0])->raw = nraw;
        raw = nraw;
    }
    if (raw && (dn || hi != lo)) {
        int64_t end = newlen > len ? newlen : len;
        VM_WRITE_ITEMS(raw, lo, end - lo);
        unsigned char *p = VM_LINEAR((RAW(raw))->data);
        if (hi < len && lo + dn != hi)
            memmove(p + lo + dn, p + hi, (size_t)(len - hi));
        if (dn)
            memcpy(p + lo, data, (size_t)dn);
        tm_compiler_barrier();
    }
    if (newlen != len) {
        VM_WRITE(r[0]);
        BYTEARRAY(r[0])->length = newlen;
    }
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* ---- items ---- */

static Obj unpack_item(int code, const unsigned char *p)
{
    switch (code) {
    case 'b': return MAKE_SMALLINT(*(const int8_t *)p);
    case 'B': return MAKE_SMALLINT(*p);
    case 'h': { int16_t v; memcpy(&v, p, 2); return MAKE_SMALLINT(v); }
    case 'H': { uint16_t v; memcpy(&v, p, 2); return MAKE_SMALLINT(v); }
    case 'i': { int32_t v; memcpy(&v, p, 4); return MAKE_SMALLINT(v); }
    case 'I': { uint32_t v; memcpy(&v, p, 4); return MAKE_SMALLINT(v); }
    case 'l': case 'q': { int64_t v; memcpy(&v, p, 8); return int_from_i64(v); }
    case 'L': case 'Q': { uint64_t v; memcpy(&v, p, 8); return int_from_u64(v); }
    case 'f': { float v; memcpy(&v, p, 4); return float_new(v); }
    case 'd': { double v; memcpy(&v, p, 8); return float_new(v); }
    case 'u': { uint32_t v; memcpy(&v, p, 4); return str_from_codepoint(v); }
    }
    return NULL;
}

/* An unsigned 64-bit value of a non-negative int; false if it does not fit. */
static bool int_to_u64(Obj v, uint64_t *out)
{
    if (int_bit_length(v) > 64)
        return false;
    int64_t x;
    if (int_bit_length(v) <= 63) {
        int_as_i64(v, &x);
        *out = (uint64_t)x;
        return true;
    }
    Obj *r = vm_roots(1);
    r[0] = v;
    Obj two64 = int_lshift(MAKE_SMALLINT(1), MAKE_SMALLINT(64));
    Obj d = two64 ? int_sub(r[0], two64) : NULL;
    vm_unroots(r);
    if (!d || int_as_i64(d, &x) < 0) {
        err_clear();
        return false;
    }
    *out = (uint64_t)x;
    return true;
}

#define OVF(msg) do { err_set(E_OverflowError, msg); return -1; } while (0)

/* One item packed into out (itemsize bytes), with CPython's checks. */
static int pack_item(int code, Obj v, unsigned char *out)
{
    if (code == 'f' || code == 'd') {
        double d;
        if (vm_as_double(v, &d) < 0)
            return -1;
        if (code == 'f') {
            float f = (float)d;
            memcpy(out, &f, 4);
        } else {
            memcpy(out, &d, 8);
        }
        return 0;
    }
    if (code == 'u') {
        Obj s = str_value(v);
        if (!s || str_len(s) != 1) {
            err_set(E_TypeError, "array item must be unicode character");
            return -1;
        }
        int k;
        uint32_t cp = utf8_decode((const unsigned char *)str_cstr(s), &k);
        memcpy(out, &cp, 4);
        return 0;
    }
    Obj *r = vm_roots(1);
    r[0] = vm_index(v);
    if (!r[0]) {
        vm_unroots(r);
        return -1;
    }
    Obj iv = r[0];
    vm_unroots(r);
    int64_t x = 0;
    uint64_t u = 0;
    if (code == 'I' || code == 'L' || code == 'Q') {
        if (int_sign(iv) < 0)
            OVF(code == 'Q' ? "can't convert negative int to unsigned" : "can't convert negative value to unsigned int");
        if (!int_to_u64(iv, &u))
            OVF(code == 'Q' ? "int too big to convert" : "Python int too large to convert to C unsigned long");
        if (code == 'I') {
            if (u > UINT32_MAX)
                OVF("unsigned int is greater than maximum");
            uint32_t w = (uint32_t)u;
            memcpy(out, &w, 4);
        } else {
            memcpy(out, &u, 8);
        }
        return 0;
    }
    if (int_as_i64(iv, &x) < 0) {
        err_clear();
        OVF(code == 'q' ? "int too big to convert" : "Python int too large to convert to C long");
    }
    switch (code) {
    case 'b':
        if (x < INT16_MIN) OVF("signed short integer is less than minimum");
        if (x > INT16_MAX) OVF("signed short integer is greater than maximum");
        if (x < INT8_MIN) OVF("signed char is less than minimum");
        if (x > INT8_MAX) OVF("signed char is greater than maximum");
        *(int8_t *)out = (int8_t)x;
        return 0;
    case 'B':
        if (x < 0) OVF("unsigned byte integer is less than minimum");
        if (x > UINT8_MAX) OVF("unsigned byte integer is greater than maximum");
        *out = (uint8_t)x;
        return 0;
    case 'h': {
        if (x < INT16_MIN) OVF("signed short integer is less than minimum");
        if (x > INT16_MAX) OVF("signed short integer is greater than maximum");
        int16_t w = (int16_t)x;
        memcpy(out, &w, 2);
        return 0;
    }
    case 'H': {
        if (x < INT32_MIN) OVF("signed integer is less than minimum");
        if (x > INT32_MAX) OVF("signed integer is greater than maximum");
        if (x < 0) OVF("unsigned short is less than minimum");
        if (x > UINT16_MAX) OVF("unsigned short is greater than maximum");
        uint16_t w = (uint16_t)x;
        memcpy(out, &w, 2);
        return 0;
    }
    case 'i': {
        if (x < INT32_MIN) OVF("signed integer is less than minimum");
        if (x > INT32_MAX) OVF("signed integer is greater than maximum");
        int32_t w = (int32_t)x;
        memcpy(out, &w, 4);
        return 0;
    }
    default:   /* 'l', 'q' */
        memcpy(out, &x, 8);
        return 0;
    }
}
#undef OVF

/* Append the items of an iterable (packed one by one) to the array in *ap. */
static int extend_iter(Obj *ap, Obj iterable)
{
    Obj *r = vm_roots(2);
    int rc = -1;
    r[0] = vm_iter(iterable);
    if (!r[0])
        goto out;
    int code = code_of(*ap);
    int64_t sz = itemsize_of(code);
    for (;;) {
        r[1] = vm_next(r[0]);
        if (!r[1]) {
            if (err_occurred())
                goto out;
            break;
        }
        unsigned char buf[8];
        if (pack_item(code, r[1], buf) < 0)
            goto out;
        int64_t end = nbytes_of(*ap);
        if (set_range(ap, end, end, (const char *)buf, sz) < 0)
            goto out;
    }
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* The bytes of another array in C memory (malloc'd; *n its length). */
static char *copy_items(Obj a, int64_t *n)
{
    *n = nbytes_of(a);
    char *c = malloc(*n ? (size_t)*n : 1);
    if (!c) {
        err_nomemory();
        return NULL;
    }
    if (*n)
        memcpy(c, adata(a), (size_t)*n);
    return c;
}

static int extend_array(Obj *ap, Obj other)
{
    if (code_of(other) != code_of(*ap)) {
        err_set(E_TypeError, "can only extend with array of same kind");
        return -1;
    }
    int64_t n;
    char *c = copy_items(other, &n);
    if (!c)
        return -1;
    int64_t end = nbytes_of(*ap);
    int rc = set_range(ap, end, end, c, n);
    free(c);
    return rc;
}

static int frombytes_into(Obj *ap, Obj b)
{
    const char *p;
    int64_t n;
    if (!bytes_like_arg(b, &p, &n))
        return -1;
    if (n % isz(*ap)) {
        err_set(E_ValueError, "bytes length not a multiple of item size");
        return -1;
    }
    char *c = malloc(n ? (size_t)n : 1);
    if (!c) {
        err_nomemory();
        return -1;
    }
    memcpy(c, p, (size_t)n);
    int64_t end = nbytes_of(*ap);
    int rc = set_range(ap, end, end, c, n);
    free(c);
    return rc;
}

static int fromunicode_into(Obj *ap, Obj s)
{
    int64_t n = str_len(s);
    uint32_t *c = malloc(n ? (size_t)n * 4 : 4);
    if (!c) {
        err_nomemory();
        return -1;
    }
    const unsigned char *p = (const unsigned char *)str_cstr(s);
    for (int64_t i = 0; i < n; i++) {
        int k;
        c[i] = utf8_decode(p, &k);
        p += k;
    }
    int64_t end = nbytes_of(*ap);
    int rc = set_range(ap, end, end, (const char *)c, n * 4);
    free(c);
    return rc;
}

/* ---- construction ---- */

static int typecode_arg(Obj v, int *code)
{
    Obj s = str_value(v);
    if (!s || str_len(s) != 1) {
        err_format(E_TypeError, "array() argument 1 must be a unicode character, not %s", type_name(v));
        return -1;
    }
    int c = (unsigned char)str_cstr(s)[0];
    if (STR(s)->nbytes != 1 || !strchr(TYPECODES, c)) {
        err_set(E_ValueError, "bad typecode (must be b, B, u, h, H, i, I, l, L, q, Q, f or d)");
        return -1;
    }
    *code = c;
    return 0;
}

static Obj arr_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (kwnames && TUPLE_LEN(kwnames) && (TypeObj *)type == T_array) {
        err_set(E_TypeError, "array.array() takes no keyword arguments");
        return NULL;
    }
    if (nargs < 1 || nargs > 2) {
        err_format(E_TypeError, "array() takes at most 2 arguments (%zu given)", nargs);
        if (nargs < 1) {
            err_clear();
            err_format(E_TypeError, "array() takes at least 1 argument (0 given)");
        }
        return NULL;
    }
    int code;
    if (typecode_arg(args[0], &code) < 0)
        return NULL;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = nargs > 1 ? args[1] : NULL;
    r[1] = type;
    Obj init = r[0] ? vm_unwrap(r[0]) : NULL;
    if (init && str_value(init) && code != 'u') {
        err_format(E_TypeError, "cannot use a str to initialize an array with typecode '%c'", code);
        goto out;
    }
    if (init && is_array(init) && code_of(init) == 'u' && code != 'u') {
        err_format(E_TypeError, "cannot use a unicode array to initialize an array with typecode '%c'", code);
        goto out;
    }
    r[2] = array_alloc(code, 0);
    if (!r[2])
        goto out;
    if (r[0]) {
        init = vm_unwrap(r[0]);
        int rc;
        if (str_value(init))
            rc = fromunicode_into(&r[2], str_value(init));
        else if (is_array(init) && code_of(init) == code)
            rc = extend_array(&r[2], init);
        else if (TID(init) == TID_BYTES || TID(init) == TID_BYTEARRAY)
            rc = frombytes_into(&r[2], init);
        else
            rc = extend_iter(&r[2], r[0]);
        if (rc < 0)
            goto out;
    }
    res = container_wrap_for_type(T_array, r[1], r[2]);
out:
    vm_unroots(r);
    return res;
}

/* A new array of the same typecode from n bytes of C memory. */
static Obj array_from_c(int code, const char *p, int64_t n)
{
    Obj a = array_alloc(code, n);
    if (a && n) {
        memcpy(adata(a), p, (size_t)n);   /* a new object: no barrier */
        tm_compiler_barrier();
    }
    return a;
}

/* ---- sequence protocol ---- */

static int64_t array_len_slot(Obj self) { return alen(vm_unwrap(self)); }

static Obj array_item(Obj a, int64_t i)
{
    int64_t n = alen(a);
    if (i < 0)
        i += n;
    if (i < 0 || i >= n) {
        err_set(E_IndexError, "array index out of range");
        return NULL;
    }
    return unpack_item(code_of(a), adata(a) + i * isz(a));
}

static Obj array_getitem_slot(Obj self, Obj key)
{
    Obj a = vm_unwrap(self);
    int64_t i;
    int k = seq_index_arg(key, &i);
    if (k < 0)
        return NULL;
    if (k > 0)
        return array_item(a, i);
    if (TID(key) != TID_SLICE) {
        err_set(E_TypeError, "array indices must be integers");
        return NULL;
    }
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = a;
    int64_t start, stop, step;
    if (slice_unpack(key, &start, &stop, &step) < 0)
        goto out;
    int64_t cnt = slice_adjust(alen(r[0]), &start, &stop, step);
    int64_t sz = isz(r[0]);
    int code = code_of(r[0]);
    r[1] = array_alloc(code, cnt * sz);
    if (!r[1])
        goto out;
    unsigned char *dst = adata(r[1]);
    const unsigned char *src = adata(r[0]);
    if (step == 1) {
        if (cnt)
            memcpy(dst, src + start * sz, (size_t)(cnt * sz));
    } else {
        for (int64_t j = 0; j < cnt; j++)
            memcpy(dst + j * sz, src + (start + j * step) * sz, (size_t)sz);
    }
    tm_compiler_barrier();
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

/* del a[start:stop:step] for cnt items (step may be negative). */
static int delete_slice(Obj *ap, int64_t start, int64_t step, int64_t cnt)
{
    if (cnt <= 0)
        return 0;
    int64_t sz = isz(*ap);
    if (step < 0) {   /* the same items, walked upwards */
        start += step * (cnt - 1);
        step = -step;
    }
    if (step == 1)
        return set_range(ap, start * sz, (start + cnt) * sz, "", 0);
    int64_t n = alen(*ap);
    int64_t nbytes = (n - cnt) * sz;
    char *c = malloc(nbytes ? (size_t)nbytes : 1);
    if (!c) {
        err_nomemory();
        return -1;
    }
    const unsigned char *p = adata(*ap);
    int64_t o = 0;
    for (int64_t i = 0; i < n; i++) {
        if (i >= start && (i - start) % step == 0 && (i - start) / step < cnt)
            continue;
        memcpy(c + o, p + i * sz, (size_t)sz);
        o += sz;
    }
    int rc = set_range(ap, 0, n * sz, c, nbytes);
    free(c);
    return rc;
}

static int array_setitem_slot(Obj self, Obj key, Obj v)
{
    Obj *r = vm_roots(2);
    int rc = -1;
    r[0] = vm_unwrap(self);
    r[1] = v;
    int64_t i;
    int k = seq_index_arg(key, &i);
    if (k < 0)
        goto out;
    if (k > 0) {
        int64_t n = alen(r[0]);
        if (i < 0)
            i += n;
        if (i < 0 || i >= n) {
            err_set(E_IndexError, "array assignment index out of range");
            goto out;
        }
        int64_t sz = isz(r[0]);
        if (!r[1]) {
            rc = set_range(&r[0], i * sz, (i + 1) * sz, "", 0);
            goto out;
        }
        unsigned char buf[8];
        if (pack_item(code_of(r[0]), r[1], buf) < 0)
            goto out;
        if (i >= alen(r[0])) {   /* __index__ may have shrunk it */
            err_set(E_IndexError, "array assignment index out of range");
            goto out;
        }
        memcpy(awrite(r[0], i * sz, sz) + i * sz, buf, (size_t)sz);
        tm_compiler_barrier();
        rc = 0;
        goto out;
    }
    if (TID(key) != TID_SLICE) {
        err_set(E_TypeError, "array indices must be integers");
        goto out;
    }
    int64_t start, stop, step;
    if (slice_unpack(key, &start, &stop, &step) < 0)
        goto out;
    int64_t cnt = slice_adjust(alen(r[0]), &start, &stop, step);
    if (!r[1]) {
        rc = delete_slice(&r[0], start, step, cnt);
        goto out;
    }
    Obj other = vm_unwrap(r[1]);
    if (!is_array(other)) {
        err_format(E_TypeError, "can only assign array (not \"%s\") to array slice", type_name(r[1]));
        goto out;
    }
    if (code_of(other) != code_of(r[0])) {
        err_set(E_TypeError, "bad argument type for built-in operation");
        goto out;
    }
    int64_t sz = isz(r[0]), n;
    char *c = copy_items(other, &n);
    if (!c)
        goto out;
    if (step == 1) {
        if (stop < start)
            stop = start;
        rc = set_range(&r[0], start * sz, stop * sz, c, n);
    } else if (n / sz != cnt) {
        err_format(E_ValueError, "attempt to assign array of size %lld to extended slice of size %lld",
                   (long long)(n / sz), (long long)cnt);
    } else {
        for (int64_t j = 0; j < cnt; j++) {
            int64_t at = (start + j * step) * sz;
            memcpy(awrite(r[0], at, sz) + at, c + j * sz, (size_t)sz);
        }
        tm_compiler_barrier();
        rc = 0;
    }
    free(c);
out:
    vm_unroots(r);
    return rc;
}

/* Index of the first item == v in [start, stop), -1 if none, -2 on error. */
static int64_t find_item(Obj *ap, Obj v, int64_t start, int64_t stop)
{
    Obj *r = vm_roots(2);
    int64_t res = -1;
    r[1] = v;
    for (int64_t i = start; i < stop && i < alen(*ap); i++) {
        Obj item = unpack_item(code_of(*ap), adata(*ap) + i * isz(*ap));
        if (!item) {
            res = -2;
            break;
        }
        int eq = vm_richcompare_bool(item, r[1], CMP_EQ);
        if (eq < 0) {
            res = -2;
            break;
        }
        if (eq) {
            res = i;
            break;
        }
    }
    vm_unroots(r);
    return res;
}

static int array_contains_slot(Obj self, Obj v)
{
    Obj *r = vm_roots(1);
    r[0] = vm_unwrap(self);
    int64_t i = find_item(&r[0], v, 0, INT64_MAX);
    vm_unroots(r);
    return i == -2 ? -1 : i >= 0;
}

/* ---- methods ---- */

#define SELF_OR_FAIL(slot)                 \
    Obj *slot = vm_roots(1);               \
    slot[0] = self_array(args[0]);         \
    if (!slot[0]) {                        \
        vm_unroots(slot);                  \
        return NULL;                       \
    }

static Obj a_append(Obj *args, size_t nargs, Obj kwnames)
{
    SELF_OR_FAIL(r);
    unsigned char buf[8];
    Obj res = NULL;
    if (pack_item(code_of(r[0]), args[1], buf) == 0) {
        int64_t end = nbytes_of(r[0]);
        if (set_range(&r[0], end, end, (const char *)buf, isz(r[0])) == 0)
            res = g_None;
    }
    vm_unroots(r);
    return res;
}

static Obj a_extend(Obj *args, size_t nargs, Obj kwnames)
{
    SELF_OR_FAIL(r);
    Obj other = vm_unwrap(args[1]);
    int rc = is_array(other) ? extend_array(&r[0], other) : extend_iter(&r[0], args[1]);
    vm_unroots(r);
    return rc < 0 ? NULL : g_None;
}

static Obj a_insert(Obj *args, size_t nargs, Obj kwnames)
{
    SELF_OR_FAIL(r);
    Obj res = NULL;
    int64_t i;
    unsigned char buf[8];
    if (arg_i64(args[1], &i) < 0 || pack_item(code_of(r[0]), args[2], buf) < 0)
        goto out;
    int64_t n = alen(r[0]);
    if (i < 0) {
        i += n;
        if (i < 0)
            i = 0;
    }
    if (i > n)
        i = n;
    int64_t sz = isz(r[0]);
    if (set_range(&r[0], i * sz, i * sz, (const char *)buf, sz) == 0)
        res = g_None;
out:
    vm_unroots(r);
    return res;
}

static Obj a_pop(Obj *args, size_t nargs, Obj kwnames)
{
    SELF_OR_FAIL(r);
    Obj res = NULL;
    int64_t i = -1;
    if (nargs > 1 && arg_i64(args[1], &i) < 0)
        goto out;
    int64_t n = alen(r[0]);
    if (n == 0) {
        err_set(E_IndexError, "pop from empty array");
        goto out;
    }
    if (i < 0)
        i += n;
    if (i < 0 || i >= n) {
        err_set(E_IndexError, "pop index out of range");
        goto out;
    }
    Obj *v = vm_roots(1);
    v[0] = unpack_item(code_of(r[0]), adata(r[0]) + i * isz(r[0]));
    if (v[0] && set_range(&r[0], i * isz(r[0]), (i + 1) * isz(r[0]), "", 0) == 0)
        res = v[0];
    vm_unroots(v);
out:
    vm_unroots(r);
    return res;
}

static Obj a_remove(Obj *args, size_t nargs, Obj kwnames)
{
    SELF_OR_FAIL(r);
    Obj res = NULL;
    int64_t i = find_item(&r[0], args[1], 0, INT64_MAX);
    if (i == -1)
        err_set(E_ValueError, "array.remove(x): x not in array");
    else if (i >= 0 && set_range(&r[0], i * isz(r[0]), (i + 1) * isz(r[0]), "", 0) == 0)
        res = g_None;
    vm_unroots(r);
    return res;
}

static Obj a_index(Obj *args, size_t nargs, Obj kwnames)
{
    SELF_OR_FAIL(r);
    Obj res = NULL;
    int64_t start = 0, stop = INT64_MAX;
    if ((nargs > 2 && slice_arg(args[2], &start) < 0) || (nargs > 3 && slice_arg(args[3], &stop) < 0))
        goto out;
    int64_t n = alen(r[0]);
    if (start < 0 && (start += n) < 0)
        start = 0;
    if (stop < 0 && (stop += n) < 0)
        stop = 0;
    int64_t i = find_item(&r[0], args[1], start, stop);
    if (i == -1)
        err_set(E_ValueError, "array.index(x): x not in array");
    else if (i >= 0)
        res = int_from_i64(i);
out:
    vm_unroots(r);
    return res;
}

static Obj a_count(Obj *args, size_t nargs, Obj kwnames)
{
    SELF_OR_FAIL(r);
    Obj *v = vm_roots(1);
    v[0] = args[1];
    Obj res = NULL;
    int64_t count = 0;
    for (int64_t i = 0; i < alen(r[0]); i++) {
        Obj item = unpack_item(code_of(r[0]), adata(r[0]) + i * isz(r[0]));
        int eq = item ? vm_richcompare_bool(item, v[0], CMP_EQ) : -1;
        if (eq < 0)
            goto out;
        count += eq;
    }
    res = int_from_i64(count);
out:
    vm_unroots(v);
    vm_unroots(r);
    return res;
}

static Obj a_reverse(Obj *args, size_t nargs, Obj kwnames)
{
    SELF_OR_FAIL(r);
    int64_t n = alen(r[0]), sz = isz(r[0]);
    unsigned char *p = awrite(r[0], 0, n * sz);
    for (int64_t i = 0, j = n - 1; i < j; i++, j--) {
        unsigned char t[8];
        memcpy(t, p + i * sz, (size_t)sz);
        memcpy(p + i * sz, p + j * sz, (size_t)sz);
        memcpy(p + j * sz, t, (size_t)sz);
    }
    tm_compiler_barrier();
    vm_unroots(r);
    return g_None;
}

static Obj a_byteswap(Obj *args, size_t nargs, Obj kwnames)
{
    SELF_OR_FAIL(r);
    int64_t n = alen(r[0]), sz = isz(r[0]);
    unsigned char *p = awrite(r[0], 0, n * sz);
    for (int64_t i = 0; i < n; i++) {
        unsigned char *q = p + i * sz;
        for (int64_t a = 0, b = sz - 1; a < b; a++, b--) {
            unsigned char t = q[a];
            q[a] = q[b];
            q[b] = t;
        }
    }
    tm_compiler_barrier();
    vm_unroots(r);
    return g_None;
}

static Obj a_buffer_info(Obj *args, size_t nargs, Obj kwnames)
{
    SELF_OR_FAIL(r);
    /* the address: where the items are in this process (they move with the GC) */
    Obj raw = BYTEARRAY(storage(r[0]))->raw;
    uint64_t addr = raw ? (uint64_t)(uintptr_t)VM_LINEAR((RAW(raw))->data) : 0;
    int64_t n = alen(r[0]);
    Obj *v = vm_roots(1);
    v[0] = int_from_u64(addr);
    Obj res = v[0] ? tuple_pack(2, v[0], int_from_i64(n)) : NULL;
    vm_unroots(v);
    vm_unroots(r);
    return res;
}

static Obj a_tobytes(Obj *args, size_t nargs, Obj kwnames)
{
    SELF_OR_FAIL(r);
    int64_t n;
    char *c = copy_items(r[0], &n);
    Obj res = c ? bytes_new(c, (size_t)n) : NULL;
    free(c);
    vm_unroots(r);
    return res;
}

static Obj a_frombytes(Obj *args, size_t nargs, Obj kwnames)
{
    SELF_OR_FAIL(r);
    int rc = frombytes_into(&r[0], args[1]);
    vm_unroots(r);
    return rc < 0 ? NULL : g_None;
}

static Obj a_tolist(Obj *args, size_t nargs, Obj kwnames)
{
    SELF_OR_FAIL(r);
    Obj *l = vm_roots(1);
    Obj res = NULL;
    int64_t n = alen(r[0]);
    l[0] = list_new(n);
    if (!l[0])
        goto out;
    for (int64_t i = 0; i < n && i < alen(r[0]); i++) {
        Obj item = unpack_item(code_of(r[0]), adata(r[0]) + i * isz(r[0]));
        if (!item)
            goto out;
        VM_WRITE_ITEM(LIST(l[0])->array, i);
        LIST_ITEMS(l[0])[i] = item;
    }
    res = l[0];
out:
    vm_unroots(l);
    vm_unroots(r);
    return res;
}

static Obj a_fromlist(Obj *args, size_t nargs, Obj kwnames)
{
    SELF_OR_FAIL(r);
    Obj res = NULL;
    Obj l = vm_unwrap(args[1]);
    if (!IS_LIST(l)) {
        err_set(E_TypeError, "arg must be list");
        goto out;
    }
    /* all or nothing: pack every item first */
    Obj *lp = vm_roots(1);
    lp[0] = l;
    int64_t n = LIST_LEN(lp[0]), sz = isz(r[0]);
    char *c = malloc(n ? (size_t)(n * sz) : 1);
    if (!c) {
        err_nomemory();
        vm_unroots(lp);
        goto out;
    }
    int64_t k = 0;
    for (; k < n && k < LIST_LEN(lp[0]); k++)
        if (pack_item(code_of(r[0]), LIST_ITEMS(lp[0])[k], (unsigned char *)c + k * sz) < 0)
            break;
    if (k == n || !err_occurred()) {
        int64_t end = nbytes_of(r[0]);
        if (set_range(&r[0], end, end, c, k * sz) == 0)
            res = g_None;
    }
    free(c);
    vm_unroots(lp);
out:
    vm_unroots(r);
    return res;
}

static Obj a_fromunicode(Obj *args, size_t nargs, Obj kwnames)
{
    SELF_OR_FAIL(r);
    Obj res = NULL;
    Obj s = str_value(args[1]);
    if (!s)
        err_format(E_TypeError, "fromunicode() argument must be str, not %s", type_name(args[1]));
    else if (code_of(r[0]) != 'u')
        err_set(E_ValueError, "fromunicode() may only be called on unicode type arrays");
    else if (fromunicode_into(&r[0], s) == 0)
        res = g_None;
    vm_unroots(r);
    return res;
}

static Obj a_tounicode(Obj *args, size_t nargs, Obj kwnames)
{
    SELF_OR_FAIL(r);
    Obj res = NULL;
    if (code_of(r[0]) != 'u') {
        err_set(E_ValueError, "tounicode() may only be called on unicode type arrays");
        goto out;
    }
    int64_t n = alen(r[0]);
    StrBuf b;
    sb_init(&b);
    const unsigned char *p = adata(r[0]);
    for (int64_t i = 0; i < n; i++) {
        uint32_t cp;
        memcpy(&cp, p + 4 * i, 4);
        if (cp > 0x10ffff) {
            sb_free(&b);
            err_format(E_ValueError, "character U+%x is not in range [U+0000; U+10ffff]", cp);
            goto out;
        }
        sb_add_codepoint(&b, cp);
    }
    res = sb_finish(&b);
out:
    vm_unroots(r);
    return res;
}

static Obj a_tofile(Obj *args, size_t nargs, Obj kwnames)
{
    SELF_OR_FAIL(r);
    Obj *w = vm_roots(2);
    Obj res = NULL;
    w[0] = args[1];
    int64_t total = nbytes_of(r[0]), block = 64 * 1024;
    for (int64_t off = 0; off < total || total == 0; off += block) {
        int64_t k = total - off < block ? total - off : block;
        w[1] = bytes_new((const char *)adata(r[0]) + off, (size_t)k);
        if (!w[1] || !vm_call_method1(w[0], "write", w[1]))
            goto out;
        if (total == 0)
            break;
    }
    res = g_None;
out:
    vm_unroots(w);
    vm_unroots(r);
    return res;
}

static Obj a_fromfile(Obj *args, size_t nargs, Obj kwnames)
{
    SELF_OR_FAIL(r);
    Obj *w = vm_roots(1);
    Obj res = NULL;
    int64_t n;
    if (arg_i64(args[2], &n) < 0)
        goto out;
    if (n < 0) {
        err_set(E_ValueError, "negative count");
        goto out;
    }
    int64_t want = n * isz(r[0]);
    w[0] = vm_call_method1(args[1], "read", int_from_i64(want));
    if (!w[0])
        goto out;
    if (!IS_BYTES(w[0])) {
        err_set(E_TypeError, "read() didn't return bytes");
        goto out;
    }
    int64_t got = BYTES(w[0])->length;
    int64_t whole = got - got % isz(r[0]);
    char *c = malloc(whole ? (size_t)whole : 1);
    if (!c) {
        err_nomemory();
        goto out;
    }
    memcpy(c, VM_LINEAR(BYTES(w[0])->data), (size_t)whole);
    int64_t end = nbytes_of(r[0]);
    int rc = set_range(&r[0], end, end, c, whole);
    free(c);
    if (rc < 0)
        goto out;
    if (got != want) {
        err_set(E_EOFError, "read() didn't return enough bytes");
        goto out;
    }
    res = g_None;
out:
    vm_unroots(w);
    vm_unroots(r);
    return res;
}

static Obj a_copy(Obj *args, size_t nargs, Obj kwnames)
{
    SELF_OR_FAIL(r);
    int64_t n;
    char *c = copy_items(r[0], &n);
    Obj res = c ? array_from_c(code_of(r[0]), c, n) : NULL;
    free(c);
    vm_unroots(r);
    return res;
}

/* CPython's machine format codes (pickles carry them) */
enum {
    MF_U8 = 0, MF_S8 = 1, MF_U16_LE = 2, MF_U16_BE = 3, MF_S16_LE = 4, MF_S16_BE = 5,
    MF_U32_LE = 6, MF_U32_BE = 7, MF_S32_LE = 8, MF_S32_BE = 9, MF_U64_LE = 10, MF_U64_BE = 11,
    MF_S64_LE = 12, MF_S64_BE = 13, MF_F32_LE = 14, MF_F32_BE = 15, MF_F64_LE = 16, MF_F64_BE = 17,
    MF_UTF16_LE = 18, MF_UTF16_BE = 19, MF_UTF32_LE = 20, MF_UTF32_BE = 21, MF_COUNT
};

static int native_mformat(int code)
{
    switch (code) {
    case 'b': return MF_S8;
    case 'B': return MF_U8;
    case 'u': return MF_UTF32_LE;
    case 'h': return MF_S16_LE;
    case 'H': return MF_U16_LE;
    case 'i': return MF_S32_LE;
    case 'I': return MF_U32_LE;
    case 'l': case 'q': return MF_S64_LE;
    case 'L': case 'Q': return MF_U64_LE;
    case 'f': return MF_F32_LE;
    default: return MF_F64_LE;
    }
}

static Obj a_reduce_ex(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = args[0];   /* the instance (a subclass keeps its class and __dict__) */
    Obj a = self_array(r[0]);
    if (!a)
        goto out;
    int64_t protocol;
    if (arg_i64(args[1], &protocol) < 0)
        goto out;
    Obj dict = vm_getattr_opt(r[0], NAME(__dict__));
    if (!dict && err_occurred())
        goto out;
    r[1] = dict && !(IS_DICT(dict) && DICT(dict)->used == 0) ? dict : g_None;
    char tc[2] = {(char)code_of(vm_unwrap(r[0])), 0};
    r[2] = str_from_cstr(tc);
    if (!r[2])
        goto out;
    if (protocol < 3) {
        Obj *l = vm_roots(1);
        l[0] = r[0];
        r[3] = a_tolist(l, 1, NULL);
        vm_unroots(l);
        if (!r[3] || !(r[3] = tuple_pack(2, r[2], r[3])))
            goto out;
        res = tuple_pack(3, (Obj)TYPE(r[0]), r[3], r[1]);
        goto out;
    }
    Obj *l = vm_roots(1);
    l[0] = r[0];
    r[3] = a_tobytes(l, 1, NULL);
    vm_unroots(l);
    if (!r[3])
        goto out;
    r[3] = tuple_pack(4, (Obj)TYPE(r[0]), r[2], MAKE_SMALLINT(native_mformat(tc[0])), r[3]);
    if (r[3])
        res = tuple_pack(3, g_reconstructor, r[3], r[1]);
out:
    vm_unroots(r);
    return res;
}

static Obj a_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    r[0] = args[0];
    r[1] = MAKE_SMALLINT(0);
    Obj res = a_reduce_ex(r, 2, NULL);
    vm_unroots(r);
    return res;
}

/* _array_reconstructor(arraytype, typecode, mformat_code, items) */
static Obj a_reconstructor(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    if (!IS_TYPE(r[0])) {
        err_format(E_TypeError, "first argument must be a type object, not %s", type_name(r[0]));
        goto out;
    }
    if (!type_is_subtype((TypeObj *)r[0], T_array)) {
        err_format(E_TypeError, "%s is not a subtype of array.array", type_name_of_type((TypeObj *)r[0]));
        goto out;
    }
    Obj s = str_value(args[1]);
    int code = s && str_len(s) == 1 ? (unsigned char)str_cstr(s)[0] : 0;
    if (!code || !strchr(TYPECODES, code)) {
        if (s)
            err_set(E_ValueError, "second argument must be a valid type code");
        else
            err_format(E_TypeError, "_array_reconstructor() argument 2 must be a unicode character, not %s",
                       type_name(args[1]));
        goto out;
    }
    int64_t mf;
    if (arg_c_int(args[2], &mf) < 0)
        goto out;
    if (mf < 0 || mf >= MF_COUNT) {
        err_set(E_ValueError, "third argument must be a valid machine format code.");
        goto out;
    }
    if (!IS_BYTES(args[3])) {
        err_format(E_TypeError, "fourth argument should be bytes, not %s", type_name(args[3]));
        goto out;
    }
    r[1] = args[3];
    Obj tc = args[1];
    r[2] = tc;
    if (mf == native_mformat(code)) {
        Obj *c = vm_roots(2);
        c[0] = r[2];
        c[1] = r[1];
        res = vm_call((Obj)r[0], c, 2, NULL);
        vm_unroots(c);
        goto out;
    }
    /* another machine's layout: items to Python values first */
    Obj *l = vm_roots(2);
    int64_t n = BYTES(r[1])->length;
    if (mf >= MF_UTF16_LE) {
        static const char *const enc[] = {"utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"};
        l[0] = bytes_decode(r[1], enc[mf - MF_UTF16_LE], "strict");
    } else {
        static const int sizes[] = {1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 8, 8, 8, 8, 4, 4, 8, 8};
        int sz = sizes[mf];
        bool big = mf >= 2 && (mf % 2) == 1, is_float = mf >= MF_F32_LE;
        bool is_signed = !is_float && (mf == MF_S8 || (mf >= 2 && ((mf - 2) / 2) % 2 == 1));
        if (n % sz) {
            err_set(E_ValueError, "string length not a multiple of item size");
            vm_unroots(l);
            goto out;
        }
        l[0] = list_new(0);
        for (int64_t i = 0; l[0] && i < n / sz; i++) {
            const unsigned char *p = (const unsigned char *)VM_LINEAR(BYTES(r[1])->data) + i * sz;
            uint64_t u = 0;
            for (int k = 0; k < sz; k++)
                u |= (uint64_t)p[big ? k : sz - 1 - k] << (8 * (sz - 1 - k));
            if (is_float) {
                double d;
                if (sz == 4) {
                    uint32_t w = (uint32_t)u;
                    float f;
                    memcpy(&f, &w, 4);
                    d = f;
                } else {
                    memcpy(&d, &u, 8);
                }
                l[1] = float_new(d);
            } else if (is_signed) {
                int64_t x = sz == 8 ? (int64_t)u : (int64_t)(u << (64 - 8 * sz)) >> (64 - 8 * sz);
                l[1] = int_from_i64(x);
            } else {
                l[1] = int_from_u64(u);
            }
            if (!l[1] || list_append(l[0], l[1]) < 0)
                l[0] = NULL;
        }
    }
    if (l[0] && mf < MF_F32_LE) {
        /* integers: the first typecode of their size and signedness, as CPython picks */
        static const int sizes[] = {1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 8, 8, 8, 8};
        bool is_signed = mf == MF_S8 || (mf >= 2 && ((mf - 2) / 2) % 2 == 1);
        for (const char *t = "bBhHiIlLqQ"; *t; t++) {
            bool tsigned = *t == 'b' || *t == 'h' || *t == 'i' || *t == 'l' || *t == 'q';
            if (itemsize_of(*t) == sizes[mf] && tsigned == is_signed) {
                char tc2[2] = {*t, 0};
                r[2] = str_from_cstr(tc2);
                break;
            }
        }
        if (!r[2])
            l[0] = NULL;
    }
    if (l[0]) {
        l[1] = r[2];
        Obj t = l[0];
        l[0] = l[1];
        l[1] = t;
        res = vm_call((Obj)r[0], l, 2, NULL);
    }
    vm_unroots(l);
out:
    vm_unroots(r);
    return res;
}

static Obj a_typecode(Obj *args, size_t nargs, Obj kwnames)
{
    Obj a = self_array(args[0]);
    if (!a)
        return NULL;
    char tc[2] = {(char)code_of(a), 0};
    return str_from_cstr(tc);
}

static Obj a_itemsize(Obj *args, size_t nargs, Obj kwnames)
{
    Obj a = self_array(args[0]);
    return a ? MAKE_SMALLINT(isz(a)) : NULL;
}

/* ---- repr, comparison, arithmetic ---- */

static int64_t array_unhashable(Obj self)
{
    err_format(E_TypeError, "unhashable type: '%s'", type_name(self));
    return -1;
}

static Obj array_repr(Obj self)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    Obj a = vm_unwrap(self);
    int code = code_of(a);
    const char *tname = type_name_of_type(TYPE(self));
    const char *dot = strrchr(tname, '.');
    char name[128];
    snprintf(name, sizeof name, "%s", dot ? dot + 1 : tname);
    if (alen(a) == 0) {
        res = str_from_format("%s('%c')", name, code);
        goto out;
    }
    Obj *l = vm_roots(1);
    l[0] = vm_unwrap(r[0]);
    r[1] = code == 'u' ? a_tounicode(l, 1, NULL) : a_tolist(l, 1, NULL);
    vm_unroots(l);
    if (!r[1])
        goto out;
    r[1] = vm_repr(r[1]);
    if (r[1])
        res = str_from_format("%s('%c', %s)", name, code, str_cstr(r[1]));
out:
    vm_unroots(r);
    return res;
}

static Obj array_richcompare(Obj self, Obj other, int op)
{
    Obj a = vm_unwrap(self), b = vm_unwrap(other);
    if (!is_array(a) || !is_array(b))
        return g_NotImplemented;
    int64_t na = alen(a), nb = alen(b);
    if (na != nb && (op == CMP_EQ || op == CMP_NE))
        return vm_bool(op == CMP_NE);
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = a;
    r[1] = b;
    int64_t i = 0;
    for (; i < alen(r[0]) && i < alen(r[1]); i++) {
        r[2] = unpack_item(code_of(r[0]), adata(r[0]) + i * isz(r[0]));
        r[3] = r[2] ? unpack_item(code_of(r[1]), adata(r[1]) + i * isz(r[1])) : NULL;
        if (!r[3])
            goto out;
        int eq = vm_richcompare_bool(r[2], r[3], CMP_EQ);
        if (eq < 0)
            goto out;
        if (!eq)
            break;
    }
    na = alen(r[0]);
    nb = alen(r[1]);
    if (i >= na || i >= nb) {   /* no more items to compare: the lengths decide */
        bool c;
        switch (op) {
        case CMP_LT: c = na < nb; break;
        case CMP_LE: c = na <= nb; break;
        case CMP_EQ: c = na == nb; break;
        case CMP_NE: c = na != nb; break;
        case CMP_GT: c = na > nb; break;
        default: c = na >= nb; break;
        }
        res = vm_bool(c);
        goto out;
    }
    if (op == CMP_EQ)
        res = g_False;
    else if (op == CMP_NE)
        res = g_True;
    else
        res = vm_richcompare(r[2], r[3], op);
out:
    vm_unroots(r);
    return res;
}

static Obj array_add_slot(Obj x, Obj y)
{
    Obj a = vm_unwrap(x), b = vm_unwrap(y);
    if (!is_array(a))
        return g_NotImplemented;
    if (!is_array(b)) {
        err_format(E_TypeError, "can only append array (not \"%s\") to array", type_name(y));
        return NULL;
    }
    if (code_of(a) != code_of(b)) {
        err_set(E_TypeError, "bad argument type for built-in operation");
        return NULL;
    }
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = a;
    r[1] = b;
    int64_t na = nbytes_of(r[0]), nb = nbytes_of(r[1]);
    r[2] = array_alloc(code_of(r[0]), na + nb);
    if (r[2]) {
        unsigned char *d = adata(r[2]);
        if (na)
            memcpy(d, adata(r[0]), (size_t)na);
        if (nb)
            memcpy(d + na, adata(r[1]), (size_t)nb);
        tm_compiler_barrier();
        res = r[2];
    }
    vm_unroots(r);
    return res;
}

static Obj array_value(Obj v)
{
    Obj a = vm_unwrap(v);
    return is_array(a) ? a : NULL;
}

static Obj array_repeat(Obj a, int64_t n)
{
    if (n < 0)
        n = 0;
    int64_t nb = nbytes_of(a);
    if (nb && n > (int64_t)(vm_max_object_size() / (uint64_t)nb))
        return err_nomemory();
    Obj *r = vm_roots(2);
    r[0] = a;
    r[1] = array_alloc(code_of(a), nb * n);
    Obj res = NULL;
    if (r[1]) {
        unsigned char *d = adata(r[1]);
        const unsigned char *s = adata(r[0]);
        for (int64_t k = 0; k < n; k++)
            memcpy(d + k * nb, s, (size_t)nb);
        tm_compiler_barrier();
        res = r[1];
    }
    vm_unroots(r);
    return res;
}

static Obj array_mul_slot(Obj x, Obj y) { return seq_mul_slot(x, y, array_value, array_repeat); }

static Obj array_iadd_slot(Obj x, Obj y)
{
    Obj a = vm_unwrap(x), b = vm_unwrap(y);
    if (!is_array(a))
        return g_NotImplemented;
    if (!is_array(b)) {
        err_format(E_TypeError, "can only extend array with array (not \"%s\")", type_name(y));
        return NULL;
    }
    Obj *r = vm_roots(2);
    r[0] = a;
    r[1] = x;
    Obj res = extend_array(&r[0], b) < 0 ? NULL : r[1];
    vm_unroots(r);
    return res;
}

static Obj array_imul_slot(Obj x, Obj y)
{
    Obj a = vm_unwrap(x);
    if (!is_array(a))
        return g_NotImplemented;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = a;
    r[1] = x;
    int64_t n;
    int k = seq_repeat_count(x, y, true, &n);
    if (k <= 0) {
        res = k == 0 ? g_NotImplemented : NULL;
        goto out;
    }
    if (n <= 0) {
        if (set_range(&r[0], 0, nbytes_of(r[0]), "", 0) == 0)
            res = r[1];
        goto out;
    }
    int64_t nb = nbytes_of(r[0]);
    if (nb && n > (int64_t)(vm_max_object_size() / (uint64_t)nb)) {
        err_nomemory();
        goto out;
    }
    char *c = malloc(nb * n > 0 ? (size_t)(nb * n) : 1);
    if (!c) {
        err_nomemory();
        goto out;
    }
    for (int64_t j = 0; j < n; j++)
        memcpy(c + j * nb, adata(r[0]), (size_t)nb);
    if (set_range(&r[0], 0, nb, c, nb * n) == 0)
        res = r[1];
    free(c);
out:
    vm_unroots(r);
    return res;
}

/* ---- iteration ---- */

static Obj array_iter_slot(Obj self)
{
    return iter_alloc(T_arrayiterator, vm_unwrap(self), 0);
}

static Obj arrayiter_next(Obj it)
{
    Obj a = ITER(it)->a;
    if (!a)
        return NULL;
    int64_t i = ITER(it)->i;
    if (i >= alen(a)) {
        VM_WRITE(it);
        ITER(it)->a = NULL;
        return NULL;
    }
    Obj *r = vm_roots(1);
    r[0] = it;
    Obj v = unpack_item(code_of(a), adata(a) + i * isz(a));
    if (v) {
        VM_WRITE(r[0]);
        ITER(r[0])->i = i + 1;
    }
    vm_unroots(r);
    return v;
}

static Obj arrayiter_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = vm_getattr_cstr(g_builtins_module, "iter");
    if (!r[1])
        goto out;
    Obj a = ITER(r[0])->a;
    int64_t i = ITER(r[0])->i;
    Obj t = a ? tuple_pack(1, a) : tuple_new(0);
    if (t && !a)
        t = tuple_pack(1, t);
    if (t)
        res = a ? tuple_pack(3, r[1], t, MAKE_SMALLINT(i)) : tuple_pack(2, r[1], t);
out:
    vm_unroots(r);
    return res;
}

static Obj arrayiter_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t i;
    if (arg_i64(args[1], &i) < 0)
        return NULL;
    Obj a = ITER(args[0])->a;
    if (a) {
        if (i < 0)
            i = 0;
        if (i > alen(a))
            i = alen(a);
        VM_WRITE(args[0]);
        ITER(args[0])->i = i;
    }
    return g_None;
}

static const MethodDef array_methods[] = {
    {"append", a_append, METH_O, "append($self, v, /)\n--\n\nAppend new value v to the end of the array."},
    {"extend", a_extend, METH_O, "extend($self, bb, /)\n--\n\nAppend items to the end of the array."},
    {"insert", a_insert, METH_ARGS(2, 2), "insert($self, i, v, /)\n--\n\nInsert a new item v into the array before position i."},
    {"pop", a_pop, METH_ARGS(0, 1), "pop($self, i=-1, /)\n--\n\nReturn the i-th element and delete it from the array."},
    {"remove", a_remove, METH_O, "remove($self, v, /)\n--\n\nRemove the first occurrence of v in the array."},
    {"index", a_index, METH_ARGS(1, 3), "index($self, v, start=0, stop=sys.maxsize, /)\n--\n\nReturn index of first occurrence of v in the array."},
    {"count", a_count, METH_O, "count($self, v, /)\n--\n\nReturn number of occurrences of v in the array."},
    {"reverse", a_reverse, METH_NOARGS, "reverse($self, /)\n--\n\nReverse the order of the items in the array."},
    {"byteswap", a_byteswap, METH_NOARGS, "byteswap($self, /)\n--\n\nByteswap all items of the array."},
    {"buffer_info", a_buffer_info, METH_NOARGS, "buffer_info($self, /)\n--\n\nReturn a tuple (address, length) giving the current memory address and the length in items of the buffer used to hold array's contents."},
    {"tobytes", a_tobytes, METH_NOARGS, "tobytes($self, /)\n--\n\nConvert the array to an array of machine values and return the bytes representation."},
    {"frombytes", a_frombytes, METH_O, "frombytes($self, buffer, /)\n--\n\nAppends items from the string, interpreting it as an array of machine values, as if it had been read from a file using the fromfile() method."},
    {"tolist", a_tolist, METH_NOARGS, "tolist($self, /)\n--\n\nConvert array to an ordinary list with the same items."},
    {"fromlist", a_fromlist, METH_O, "fromlist($self, list, /)\n--\n\nAppend items to array from list."},
    {"fromunicode", a_fromunicode, METH_O, "fromunicode($self, ustr, /)\n--\n\nExtends this array with data from the unicode string ustr."},
    {"tounicode", a_tounicode, METH_NOARGS, "tounicode($self, /)\n--\n\nExtends this array with data from the unicode string ustr."},
    {"tofile", a_tofile, METH_O, "tofile($self, f, /)\n--\n\nWrite all items (as machine values) to the file object f."},
    {"fromfile", a_fromfile, METH_ARGS(2, 2), "fromfile($self, f, n, /)\n--\n\nRead n objects from the file object f and append them to the end of the array."},
    {"__copy__", a_copy, METH_NOARGS, "__copy__($self, /)\n--\n\nReturn a copy of the array."},
    {"__deepcopy__", a_copy, METH_O, "__deepcopy__($self, unused, /)\n--\n\nReturn a copy of the array."},
    {"__reduce_ex__", a_reduce_ex, METH_O, "__reduce_ex__($self, value, /)\n--\n\nReturn state information for pickling."},
    {"__reduce__", a_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef arrayiter_methods[] = {
    {"__reduce__", arrayiter_reduce, METH_NOARGS, "__reduce__($self, /)\n--\n\nReturn state information for pickling."},
    {"__setstate__", arrayiter_setstate, METH_O, "__setstate__($self, state, /)\n--\n\nSet state information for unpickling."},
    {NULL, NULL, 0, NULL},
};

static const MethodDef array_functions[] = {
    {"_array_reconstructor", a_reconstructor, METH_ARGS(4, 4), "_array_reconstructor($module, arraytype, typecode, mformat_code, items, /)\n--\n\nInternal. Used for pickling support."},
    {NULL, NULL, 0, NULL},
};

static void make_types(void)
{
    TypeObj *t = (TypeObj *)type_new_builtin("array.array", T_object, TID_ITER,
                                             TPF_BASETYPE | TPF_ITER_VALUE | TPF_SEQUENCE | TPF_DOTTED_NAME |
                                             TPF_WEAKREFABLE);
    VM_WRITE_RARE(t);
    t->tp_new = arr_tp_new;
    t->tp_repr = array_repr;
    t->tp_richcompare = array_richcompare;
    t->tp_hash = array_unhashable;
    t->tp_len = array_len_slot;
    t->tp_getitem = array_getitem_slot;
    t->tp_setitem = array_setitem_slot;
    t->tp_contains = array_contains_slot;
    t->tp_iter = array_iter_slot;
    t->nb[NB_ADD] = array_add_slot;
    t->nb[NB_MUL] = array_mul_slot;
    t->nb_inplace[NB_ADD] = array_iadd_slot;
    t->nb_inplace[NB_MUL] = array_imul_slot;
    type_add_methods(t, array_methods);
    type_add_getset(t, "typecode", a_typecode, NULL);
    type_add_getset(t, "itemsize", a_itemsize, NULL);
    T_array = t;
    type_ready(t);
    type_set_attr_cstr(t, "__hash__", g_None);
    TypeObj *it = (TypeObj *)type_new_builtin("array.arrayiterator", T_object, TID_ITER, TPF_DOTTED_NAME);
    VM_WRITE_RARE(it);
    it->tp_iter = iter_self;
    it->tp_iternext = arrayiter_next;
    type_add_methods(it, arrayiter_methods);
    type_ready(it);
    T_arrayiterator = it;
}

Obj array_module_init(void)
{
    if (!T_array) {   /* module inits run inevitable: C globals and hooks may be written */
        VM_GLOBAL_ROOT(g_reconstructor);
        make_types();
        if (!T_array || !T_arrayiterator)
            return err_nomemory();
        vm_hooks.buffer_export = array_buffer_export;
    }
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = module_new("array");
    if (!r[0])
        goto out;
    module_add_functions(r[0], array_functions);
    g_reconstructor = vm_getattr_cstr(r[0], "_array_reconstructor");
    if (!g_reconstructor)
        goto out;
    if (module_add(r[0], "array", (Obj)T_array) < 0 || module_add(r[0], "ArrayType", (Obj)T_array) < 0)
        goto out;
    r[1] = str_from_cstr(TYPECODES);
    if (!r[1] || module_add(r[0], "typecodes", r[1]) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
