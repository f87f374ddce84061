/* The _struct module (CPython's struct.py re-exports it): pack, unpack,
 * pack_into, unpack_from, iter_unpack, calcsize, Struct and struct.error,
 * written from the struct module's documentation. A format is parsed at
 * each use (formats are short); '@' (the default) is native size and
 * alignment of this x86-64 machine, '=', '<', '>' and '!' standard sizes
 * without alignment. Messages are CPython's. pack_into writes into a
 * bytearray or an array.array. */
#include "modules.h"
#include "objects/containers.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <float.h>
#include <stdarg.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Obj g_struct_error;           /* struct.error, made at first use */
static TypeObj *T_struct, *T_unpack_iterator;

/* ---- formats ---- */

typedef struct {
    char code;
    int64_t count;     /* repeat count; for 's' and 'p' the byte length */
    int64_t offset;    /* of the first item */
    int size;          /* of one item */
} FormatItem;

#define FORMAT_SMALL_ITEMS 8
typedef struct {
    bool little;       /* byte order */
    bool native;       /* native sizes and alignment ('@') */
    int nitems;
    FormatItem *items; /* small, or malloc'd (a longer format) */
    int64_t size;      /* total bytes */
    int64_t nvalues;   /* values packed / unpacked */
    FormatItem small[FORMAT_SMALL_ITEMS];   /* a short format's items: no malloc per call */
} Format;   /* not copied: items may point into it */

static Obj struct_error_type(void)
{
    if (g_struct_error)
        return g_struct_error;
    vm_tx_become_inevitable();   /* a C global root is written only by an inevitable transaction */
    if (g_struct_error)          /* made by another thread while this one waited to become inevitable */
        return g_struct_error;
    Obj *r = vm_roots(4);
    r[0] = str_from_cstr("error");
    r[1] = tuple_pack(1, (Obj)E_Exception);
    r[2] = dict_new();
    Obj cls = NULL;
    if (r[0] && r[1] && r[2] && (r[3] = str_from_cstr("struct")) && dict_setitem_cstr(r[2], "__module__", r[3]) == 0)
        cls = vm_call3((Obj)T_type, r[0], r[1], r[2]);
    vm_unroots(r);
    if (cls)
        g_struct_error = cls;
    return cls;
}

static void struct_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void struct_error(const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    Obj t = struct_error_type();
    if (!t)
        return;
    Obj s = str_from_cstr(msg);
    if (s)
        err_set_value((TypeObj *)t, s);
}

/* Size of one item of `code`, or 0 for a code the mode does not have. */
static int code_size(char code, bool native)
{
    switch (code) {
    case 'x': case 'c': case 'b': case 'B': case '?': case 's': case 'p':
        return 1;
    case 'h': case 'H': case 'e':
        return 2;
    case 'i': case 'I': case 'f':
        return 4;
    case 'l': case 'L':
        return native ? 8 : 4;
    case 'q': case 'Q': case 'd':
        return 8;
    case 'n': case 'N': case 'P':
        return native ? 8 : 0;
    default:
        return 0;
    }
}

static void format_free(Format *f)
{
    if (f->items != f->small)
        free(f->items);
    f->items = NULL;
}

/* Parses fmt (str or bytes) into *f. 0, or -1 with struct.error / TypeError. */
static int format_parse(Obj fmt, Format *f)
{
    f->little = f->native = false;
    f->nitems = 0;
    f->items = f->small;
    f->size = f->nvalues = 0;
    const char *s;
    int64_t n;
    if (IS_STR(fmt)) {
        s = str_cstr(fmt);
        n = (int64_t)strlen(s);
    } else if (!bytes_like(fmt, &s, &n)) {
        err_format(E_TypeError, "Struct() argument 1 must be a str or bytes object, not %s", type_name(fmt));
        return -1;
    }
    /* a private copy: parsing allocates nothing, but be safe against moves */
    char local[64];
    char *p = n < (int64_t)sizeof local ? local : malloc((size_t)n + 1);
    if (!p) {
        err_nomemory();
        return -1;
    }
    memcpy(p, s, (size_t)n);
    p[n] = 0;
    int64_t i = 0;
    f->native = true;
    f->little = true;
    if (n > 0 && strchr("@=<>!", p[0])) {
        f->native = p[0] == '@';
        f->little = p[0] == '@' || p[0] == '=' || p[0] == '<';
        i = 1;
    }
    int cap = FORMAT_SMALL_ITEMS;
    int64_t off = 0;
    while (i < n) {
        char c = p[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
            i++;
            continue;
        }
        int64_t count = 1;
        if (c >= '0' && c <= '9') {
            count = 0;
            while (i < n && p[i] >= '0' && p[i] <= '9') {
                if (count > (INT64_MAX - 9) / 10) {
                    struct_error("total struct size too long");
                    goto fail;
                }
                count = count * 10 + (p[i] - '0');
                i++;
            }
            if (i >= n) {
                struct_error("repeat count given without format specifier");
                goto fail;
            }
            c = p[i];
        }
        int size = code_size(c, f->native);
        if (!size) {
            struct_error("bad char in struct format");
            goto fail;
        }
        i++;
        if (f->native && size > 1 && c != 's' && c != 'p')
            off = (off + size - 1) / size * size;
        bool bytes_code = c == 's' || c == 'p';
        int64_t span = bytes_code ? count : count * (int64_t)size;
        if (count && (bytes_code ? false : count > INT64_MAX / size)) {
            struct_error("total struct size too long");
            goto fail;
        }
        if (f->nitems == cap) {
            cap *= 2;
            FormatItem *ni = f->items == f->small ? malloc((size_t)cap * sizeof *ni)
                                                  : realloc(f->items, (size_t)cap * sizeof *ni);
            if (!ni) {
                err_nomemory();
                goto fail;
            }
            if (f->items == f->small)
                memcpy(ni, f->small, sizeof f->small);
            f->items = ni;
        }
        f->items[f->nitems++] = (FormatItem){c, count, off, size};
        if (off > INT64_MAX - span) {
            struct_error("total struct size too long");
            goto fail;
        }
        off += span;
        if (c != 'x')
            f->nvalues += bytes_code ? 1 : count;
    }
    f->size = off;
    if (p != local)
        free(p);
    return 0;
fail:
    if (p != local)
        free(p);
    format_free(f);
    return -1;
}

/* ---- packing ---- */

static void put_uint(unsigned char *dst, uint64_t v, int size, bool little)
{
    for (int k = 0; k < size; k++) {
        int shift = 8 * (little ? k : size - 1 - k);
        dst[k] = (unsigned char)(v >> shift);
    }
}

static uint64_t get_uint(const unsigned char *src, int size, bool little)
{
    uint64_t v = 0;
    for (int k = 0; k < size; k++) {
        int shift = 8 * (little ? k : size - 1 - k);
        v |= (uint64_t)src[k] << shift;
    }
    return v;
}

/* The int value of v (via __index__): *out gets v as int64 (signed codes)
 * or as uint64 bits (unsigned codes, v >= 0). 1: does not fit 64 bits, or
 * is negative for an unsigned code (then *negative is set and *out holds
 * it when it fits an int64). */
static int int_arg(Obj v, bool is_unsigned, int64_t *out, bool *negative)
{
    *negative = false;
    if (!IS_INT(vm_unwrap(v)) && !vm_lookup_special(v, "__index__")) {
        struct_error("required argument is not an integer");
        return -1;
    }
    Obj *r = vm_roots(2);
    int res = -1;
    r[0] = vm_index(v);
    if (!r[0])
        goto out;
    if (int_as_i64(r[0], out) == 0) {
        *negative = *out < 0;
        res = is_unsigned && *out < 0 ? 1 : 0;
        goto out;
    }
    if (!err_matches(E_OverflowError))
        goto out;
    err_clear();
    res = 1;
    if (!is_unsigned || int_sign(r[0]) < 0)
        goto out;
    /* 2**63 <= v: v - 2**63 must fit */
    r[1] = int_from_u64(1ULL << 63);
    if (!r[1] || !(r[1] = int_sub(r[0], r[1])))
        goto fail;
    int64_t low;
    if (int_as_i64(r[1], &low) == 0) {
        *out = (int64_t)((uint64_t)low + (1ULL << 63));
        res = 0;
        goto out;
    }
    if (!err_matches(E_OverflowError))
        goto fail;
    err_clear();
    goto out;
fail:
    res = -1;
out:
    vm_unroots(r);
    return res;
}

static int pack_int(unsigned char *dst, Obj v, char code, int size, const Format *f)
{
    bool is_unsigned = code == 'B' || code == 'H' || code == 'I' || code == 'L' || code == 'Q' || code == 'N';
    bool named = code == 'b' || code == 'B' || code == 'h' || code == 'H';
    int64_t x;
    bool negative;
    int rc = int_arg(v, (is_unsigned && !named) || code == 'P', &x, &negative);
    if (rc < 0)
        return -1;
    if (code == 'P' && rc == 1 && negative)
        rc = 0;   /* a pointer may be given as a negative int: its two's complement */
    if (named) {
        static const struct { char code; const char *name; int64_t lo, hi; } ranges[] = {
            {'b', "byte", -128, 127}, {'B', "ubyte", 0, 255},
            {'h', "short", -32768, 32767}, {'H', "ushort", 0, 65535},
        };
        for (size_t k = 0; k < 4; k++)
            if (ranges[k].code == code && (rc == 1 || x < ranges[k].lo || x > ranges[k].hi)) {
                struct_error("%s format requires %lld <= number <= %lld", ranges[k].name,
                             (long long)ranges[k].lo, (long long)ranges[k].hi);
                return -1;
            }
    } else if (rc == 1) {
        struct_error("argument out of range");
        return -1;
    } else if (size < 8) {
        int64_t lo = is_unsigned ? 0 : -(INT64_C(1) << (8 * size - 1));
        int64_t hi = is_unsigned ? (INT64_C(1) << (8 * size)) - 1 : (INT64_C(1) << (8 * size - 1)) - 1;
        if (x < lo || x > hi) {
            struct_error("'%c' format requires %lld <= number <= %lld", code, (long long)lo, (long long)hi);
            return -1;
        }
    }
    put_uint(dst, (uint64_t)x, size, f->little);
    return 0;
}

/* IEEE half precision from a double, rounding to nearest even; -1 with
 * OverflowError when it does not fit. */
static int double_to_half(double d, uint16_t *out)
{
    uint16_t sign = signbit(d) ? 0x8000 : 0;
    double a = fabs(d);
    if (isnan(d)) {
        *out = sign | 0x7e00;
        return 0;
    }
    if (isinf(d)) {
        *out = sign | 0x7c00;
        return 0;
    }
    if (a == 0) {
        *out = sign;
        return 0;
    }
    int e;
    double m = frexp(a, &e);   /* a = m * 2**e, 0.5 <= m < 1 */
    int exp = e - 1;           /* a = (2m) * 2**exp */
    uint32_t bits;
    if (exp < -14) {
        /* subnormal: a / 2**-24 rounded */
        double q = ldexp(a, 24);
        double r = nearbyint(q);   /* default rounding: to nearest even */
        bits = (uint32_t)r;        /* may round up into the normal range: still right */
    } else {
        double frac = ldexp(2 * m - 1, 10);   /* 10 mantissa bits */
        double r = nearbyint(frac);
        uint32_t mant = (uint32_t)r;
        if (mant == 1024) {
            mant = 0;
            exp++;
        }
        if (exp > 15) {
            err_set(E_OverflowError, "float too large to pack with e format");
            return -1;
        }
        bits = ((uint32_t)(exp + 15) << 10) | mant;
    }
    *out = sign | (uint16_t)bits;
    return 0;
}

static double half_to_double(uint16_t h)
{
    int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    double v;
    if (exp == 0)
        v = ldexp(mant, -24);
    else if (exp == 31)
        v = mant ? NAN : INFINITY;
    else
        v = ldexp(mant + 1024, exp - 25);
    return sign ? -v : v;
}

static int pack_float(unsigned char *dst, Obj v, char code, const Format *f)
{
    double d;
    if (!IS_FLOAT(v) && !vm_lookup_special(v, "__float__") && !vm_lookup_special(v, "__index__")) {
        struct_error("required argument is not a float");
        return -1;
    }
    if (vm_as_double(v, &d) < 0)
        return -1;
    if (code == 'e') {
        uint16_t h;
        if (double_to_half(d, &h) < 0)
            return -1;
        put_uint(dst, h, 2, f->little);
    } else if (code == 'f') {
        if (!f->native && isfinite(d) && fabs(d) > FLT_MAX) {
            /* rounds to FLT_MAX when within half an ulp, as IEEE rounding does */
            float x = (float)d;
            if (isinf(x)) {
                err_set(E_OverflowError, "float too large to pack with f format");
                return -1;
            }
        }
        float x = (float)d;
        uint32_t u;
        memcpy(&u, &x, 4);
        put_uint(dst, u, 4, f->little);
    } else {
        uint64_t u;
        memcpy(&u, &d, 8);
        put_uint(dst, u, 8, f->little);
    }
    return 0;
}

/* Packs values[0..nvalues) into dst (f->size bytes, zeroed). */
static int pack_values(const Format *f, Obj *values, unsigned char *dst)
{
    int64_t vi = 0;
    for (int k = 0; k < f->nitems; k++) {
        FormatItem *it = &f->items[k];
        unsigned char *p = dst + it->offset;
        if (it->code == 'x')
            continue;
        if (it->code == 's' || it->code == 'p') {
            Obj v = values[vi++];
            const char *data;
            int64_t len;
            if (!IS_BYTES(vm_unwrap(v)) && !(TID(vm_unwrap(v)) == TID_BYTEARRAY)) {
                struct_error("argument for '%c' must be a bytes object", it->code);
                return -1;
            }
            bytes_like(v, &data, &len);
            if (it->code == 's') {
                memcpy(p, data, (size_t)(len < it->count ? len : it->count));
            } else if (it->count > 0) {
                int64_t room = it->count - 1;
                int64_t nb = len < room ? len : room;
                memcpy(p + 1, data, (size_t)nb);
                p[0] = (unsigned char)(nb > 255 ? 255 : nb);
            }
            continue;
        }
        for (int64_t c = 0; c < it->count; c++, p += it->size) {
            Obj v = values[vi++];
            switch (it->code) {
            case 'c': {
                const char *data;
                int64_t len;
                Obj u = vm_unwrap(v);
                if (!(IS_BYTES(u) || (TID(u)) == TID_BYTEARRAY) || !bytes_like(v, &data, &len) || len != 1) {
                    struct_error("char format requires a bytes object of length 1");
                    return -1;
                }
                p[0] = (unsigned char)data[0];
                break;
            }
            case '?': {
                int t = vm_is_true(v);
                if (t < 0)
                    return -1;
                p[0] = (unsigned char)t;
                break;
            }
            case 'e': case 'f': case 'd':
                if (pack_float(p, v, it->code, f) < 0)
                    return -1;
                break;
            default:
                if (pack_int(p, v, it->code, it->size, f) < 0)
                    return -1;
            }
        }
    }
    return 0;
}

/* ---- unpacking ---- */

static Obj unpack_one(const unsigned char *p, char code, int size, const Format *f)
{
    switch (code) {
    case 'c':
        return bytes_new((const char *)p, 1);
    case '?':
        return vm_bool(p[0] != 0);
    case 'e':
        return float_new(half_to_double((uint16_t)get_uint(p, 2, f->little)));
    case 'f': {
        uint32_t u = (uint32_t)get_uint(p, 4, f->little);
        float x;
        memcpy(&x, &u, 4);
        return float_new(x);
    }
    case 'd': {
        uint64_t u = get_uint(p, 8, f->little);
        double x;
        memcpy(&x, &u, 8);
        return float_new(x);
    }
    case 'B': case 'H': case 'I': case 'L': case 'Q': case 'N': case 'P':
        return int_from_u64(get_uint(p, size, f->little));
    default: {
        uint64_t u = get_uint(p, size, f->little);
        if (size < 8 && (u >> (8 * size - 1)) & 1)
            u |= ~UINT64_C(0) << (8 * size);   /* sign-extend */
        return int_from_i64((int64_t)u);
    }
    }
}

/* The tuple of values in data[0..f->size): data is copied first (the
 * allocations below may move the buffer it came from). */
static Obj unpack_data(const Format *f, const char *data)
{
    unsigned char small[256];
    unsigned char *buf = f->size <= (int64_t)sizeof small ? small : malloc((size_t)f->size);
    if (!buf)
        return err_nomemory();
    memcpy(buf, data, (size_t)f->size);
    Obj *r = vm_roots(2);
    Obj res = NULL;
    /* a list first: a tuple filled across allocations would be an old
     * object written without a barrier */
    r[0] = list_new_capacity(f->nvalues);
    if (!r[0])
        goto out;
    for (int k = 0; k < f->nitems; k++) {
        FormatItem *it = &f->items[k];
        unsigned char *p = buf + it->offset;
        if (it->code == 'x')
            continue;
        if (it->code == 's' || it->code == 'p') {
            if (it->code == 's') {
                r[1] = bytes_new((const char *)p, (size_t)it->count);
            } else {
                int64_t nb = it->count > 0 ? p[0] : 0;
                if (nb > it->count - 1)
                    nb = it->count > 0 ? it->count - 1 : 0;
                r[1] = bytes_new((const char *)p + 1, (size_t)nb);
            }
            if (!r[1] || list_append(r[0], r[1]) < 0)
                goto out;
            continue;
        }
        for (int64_t c = 0; c < it->count; c++, p += it->size) {
            r[1] = unpack_one(p, it->code, it->size, f);
            if (!r[1] || list_append(r[0], r[1]) < 0)
                goto out;
        }
    }
    res = list_as_tuple(r[0]);
out:
    vm_unroots(r);
    if (buf != small)
        free(buf);
    return res;
}

/* ---- the functions ---- */

/* The format of a call: a Struct's, or a format argument parsed. */
static int format_of(Obj fmt_or_struct, Format *f)
{
    if (vm_isinstance_type(fmt_or_struct, T_struct))
        return format_parse(ITER(fmt_or_struct)->a, f);
    return format_parse(fmt_or_struct, f);
}

static Obj do_pack(Obj fmt, Obj *values, size_t nvalues)
{
    Format f;
    if (format_of(fmt, &f) < 0)
        return NULL;
    Obj res = NULL;
    if ((int64_t)nvalues != f.nvalues) {
        struct_error("pack expected %lld items for packing (got %zu)", (long long)f.nvalues, nvalues);
        goto out;
    }
    if ((uint64_t)f.size > vm_max_object_size()) {
        err_nomemory();
        goto out;
    }
    unsigned char small[64];
    unsigned char *buf = f.size < (int64_t)sizeof small ? small : malloc((size_t)f.size + 1);
    if (!buf) {
        err_nomemory();
        goto out;
    }
    memset(buf, 0, (size_t)f.size + 1);
    if (pack_values(&f, values, buf) == 0)
        res = bytes_new((const char *)buf, (size_t)f.size);
    if (buf != small)
        free(buf);
out:
    format_free(&f);
    return res;
}

static Obj do_pack_into(const char *fname, Obj fmt, Obj *args, size_t nargs)
{
    if (nargs < 2) {
        if (nargs == 0)
            err_format(E_TypeError, "%s expected buffer argument", fname);
        else
            err_format(E_TypeError, "%s expected offset argument", fname);
        return NULL;
    }
    Format f;
    if (format_of(fmt, &f) < 0)
        return NULL;
    Obj res = NULL;
    unsigned char *buf = NULL;
    if (writable_buffer_len(args[0]) < 0) {
        err_format(E_TypeError, "argument must be read-write bytes-like object, not %s", type_name(args[0]));
        goto out;
    }
    if ((int64_t)nargs - 2 != f.nvalues) {
        struct_error("pack expected %lld items for packing (got %zu)", (long long)f.nvalues, nargs - 2);
        goto out;
    }
    int64_t offset;
    if (vm_index_i64(args[1], &offset) < 0)
        goto out;
    int64_t len = writable_buffer_len(args[0]);   /* the offset's __index__ may have changed it */
    if (len < 0) {
        err_format(E_TypeError, "argument must be read-write bytes-like object, not %s", type_name(args[0]));
        goto out;
    }
    if (offset < 0) {
        if (offset + f.size > 0) {
            struct_error("no space to pack %lld bytes at offset %lld", (long long)f.size, (long long)offset);
            goto out;
        }
        if (offset + len < 0) {
            struct_error("offset %lld out of range for %lld-byte buffer", (long long)offset, (long long)len);
            goto out;
        }
        offset += len;
    }
    if (len - offset < f.size) {
        struct_error("pack_into requires a buffer of at least %lld bytes for packing %lld bytes at offset %lld "
                     "(actual buffer size is %lld)", (long long)(f.size + offset), (long long)f.size,
                     (long long)offset, (long long)len);
        goto out;
    }
    buf = calloc(1, (size_t)f.size + 1);
    if (!buf) {
        err_nomemory();
        goto out;
    }
    if (pack_values(&f, args + 2, buf) < 0)
        goto out;
    /* the values' __index__ may have resized the bytearray */
    if (writable_buffer_len(args[0]) - offset < f.size) {
        struct_error("pack_into requires a buffer of at least %lld bytes", (long long)(f.size + offset));
        goto out;
    }
    if (writable_buffer_store(args[0], offset, buf, f.size) == 0)
        res = g_None;
out:
    free(buf);
    format_free(&f);
    return res;
}

static Obj do_unpack(Obj fmt, Obj buffer)
{
    Format f;
    if (format_of(fmt, &f) < 0)
        return NULL;
    Obj res = NULL;
    const char *p;
    int64_t n;
    if (!bytes_like_arg(buffer, &p, &n))
        goto out;
    if (n != f.size) {
        struct_error("unpack requires a buffer of %lld bytes", (long long)f.size);
        goto out;
    }
    res = unpack_data(&f, p);
out:
    format_free(&f);
    return res;
}

static Obj do_unpack_from(Obj fmt, Obj buffer, Obj offset_obj)
{
    Format f;
    if (format_of(fmt, &f) < 0)
        return NULL;
    Obj res = NULL;
    Obj *r = vm_roots(1);
    r[0] = buffer;   /* the offset's __index__ may run Python code, which moves it */
    int64_t offset = 0;
    if (offset_obj && vm_index_i64(offset_obj, &offset) < 0)
        goto out;
    const char *p;
    int64_t n;
    if (!bytes_like_arg(r[0], &p, &n))
        goto out;
    if (offset < 0) {
        if (offset + n < 0) {
            struct_error("offset %lld out of range for %lld-byte buffer", (long long)offset, (long long)n);
            goto out;
        }
        offset += n;
    }
    if (n - offset < f.size) {
        struct_error("unpack_from requires a buffer of at least %lld bytes for unpacking %lld bytes at offset "
                         "%lld (actual buffer size is %lld)", (long long)(f.size + offset), (long long)f.size,
                         (long long)offset, (long long)n);
        goto out;
    }
    res = unpack_data(&f, p + offset);
out:
    vm_unroots(r);
    format_free(&f);
    return res;
}

/* iter_unpack: an iterator (a = the Struct, b = the buffer, i = next offset). */
static Obj do_iter_unpack(Obj st, Obj buffer)
{
    Format f;
    if (format_of(st, &f) < 0)
        return NULL;
    Obj res = NULL;
    const char *p;
    int64_t n;
    if (!bytes_like_arg(buffer, &p, &n))
        goto out;
    if (f.size == 0) {
        struct_error("cannot iteratively unpack with a struct of length 0");
        goto out;
    }
    if (n % f.size) {
        struct_error("iterative unpacking requires a buffer of a multiple of %lld bytes", (long long)f.size);
        goto out;
    }
    Obj *r = vm_roots(2);
    r[0] = st;
    r[1] = buffer;
    res = iter_alloc(T_unpack_iterator, r[0], 0);
    if (res)
        ITER(res)->b = r[1];
    vm_unroots(r);
out:
    format_free(&f);
    return res;
}

static Obj unpack_iterator_next(Obj self)
{
    Obj st = ITER(self)->a;
    if (!st)
        return NULL;
    Format f;
    if (format_of(st, &f) < 0)
        return NULL;
    Obj res = NULL;
    const char *p;
    int64_t n;
    if (!bytes_like_arg(ITER(self)->b, &p, &n))
        goto out;
    int64_t off = ITER(self)->i;
    if (off + f.size > n) {
        VM_WRITE(self);
        ITER(self)->a = NULL;
        ITER(self)->b = NULL;
        goto out;
    }
    Obj *r = vm_roots(1);
    r[0] = self;
    res = unpack_data(&f, p + off);
    if (res) {
        VM_WRITE(r[0]);
        ITER(r[0])->i = off + f.size;
    }
    vm_unroots(r);
out:
    format_free(&f);
    return res;
}

static Obj unpack_iterator_length_hint(Obj *args, size_t nargs, Obj kwnames)
{
    Obj self = args[0];
    if (!ITER(self)->a)
        return MAKE_SMALLINT(0);
    Format f;
    if (format_of(ITER(self)->a, &f) < 0)
        return NULL;
    const char *p;
    int64_t n;
    Obj res = NULL;
    if (bytes_like_arg(ITER(self)->b, &p, &n))
        res = int_from_i64(f.size ? (n - ITER(self)->i) / f.size : 0);
    format_free(&f);
    return res;
}

/* pack, pack_into and unpack serve as Struct methods too: args[0] is a
 * format or a Struct (format_of). */
static Obj s_pack(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs == 0) {   /* the module function without its format (CPython's wording) */
        err_set(E_TypeError, "missing format argument");
        return NULL;
    }
    return do_pack(args[0], args + 1, nargs - 1);
}

static Obj s_pack_into(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs == 0) {   /* the module function without its format (CPython's wording) */
        err_set(E_TypeError, "missing format argument");
        return NULL;
    }
    return do_pack_into("pack_into", args[0], args + 1, nargs - 1);
}

static Obj s_unpack(Obj *args, size_t nargs, Obj kwnames)
{
    return do_unpack(args[0], args[1]);
}

static Obj s_unpack_from(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"format", "buffer", "offset", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("unpack_from", args, nargs, kwnames, names, 2, 3, a) == 0)
        res = do_unpack_from(a[0], a[1], a[2]);
    vm_unroots(a);
    return res;
}

static Obj s_iter_unpack(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[1] = args[1];
    r[0] = vm_call1((Obj)T_struct, args[0]);
    if (r[0])
        res = do_iter_unpack(r[0], r[1]);
    vm_unroots(r);
    return res;
}

static Obj s_calcsize(Obj *args, size_t nargs, Obj kwnames)
{
    Format f;
    if (format_of(args[0], &f) < 0)
        return NULL;
    Obj res = int_from_i64(f.size);
    format_free(&f);
    return res;
}

/* Formats are not cached: nothing to clear. */
static Obj s_clearcache(Obj *args, size_t nargs, Obj kwnames)
{
    return g_None;
}

/* ---- Struct ---- */

/* Struct(format): a = the format as a str. */
static Obj struct_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    (void)type;
    static const char *const names[] = {"format", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("Struct", args, nargs, kwnames, names, 1, 1, a) < 0)
        goto out;
    Format f;
    if (format_parse(a[0], &f) < 0)
        goto out;
    format_free(&f);
    if (IS_STR(a[0])) {
        a[1] = a[0];
    } else {
        const char *p;
        int64_t n;
        bytes_like(a[0], &p, &n);
        a[1] = str_new(p, (size_t)n);
        if (!a[1])
            goto out;
    }
    res = iter_alloc(T_struct, a[1], 0);
out:
    vm_unroots(a);
    return res;
}

static Obj st_unpack_from(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"buffer", "offset", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("unpack_from", args + 1, nargs - 1, kwnames, names, 1, 2, a) == 0)
        res = do_unpack_from(args[0], a[0], a[1]);
    vm_unroots(a);
    return res;
}

static Obj st_iter_unpack(Obj *args, size_t nargs, Obj kwnames)
{
    return do_iter_unpack(args[0], args[1]);
}

static Obj st_format(Obj *args, size_t nargs, Obj kwnames)
{
    return ITER(args[0])->a;
}

static Obj st_size(Obj *args, size_t nargs, Obj kwnames)
{
    Format f;
    if (format_parse(ITER(args[0])->a, &f) < 0)
        return NULL;
    Obj res = int_from_i64(f.size);
    format_free(&f);
    return res;
}

static const MethodDef struct_methods[] = {
    {"pack", s_pack, 0, NULL},
    {"pack_into", s_pack_into, 0, NULL},
    {"unpack", s_unpack, METH_O, NULL},
    {"unpack_from", st_unpack_from, METH_KW, NULL},
    {"iter_unpack", st_iter_unpack, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef unpack_iterator_methods[] = {
    {"__length_hint__", unpack_iterator_length_hint, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef struct_functions[] = {
    {"pack", s_pack, 0, NULL},
    {"pack_into", s_pack_into, 0, NULL},
    {"unpack", s_unpack, METH_ARGS(2, 2), NULL},
    {"unpack_from", s_unpack_from, METH_KW, NULL},
    {"iter_unpack", s_iter_unpack, METH_ARGS(2, 2), NULL},
    {"calcsize", s_calcsize, METH_O, NULL},
    {"_clearcache", s_clearcache, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

Obj struct_module_init(void)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[1] = struct_error_type();
    if (!r[1])
        goto out;
    r[0] = module_new("_struct");
    if (!r[0])
        goto out;
    module_add_functions(r[0], struct_functions);
    if (module_add(r[0], "Struct", (Obj)T_struct) < 0 || module_add(r[0], "error", r[1]) < 0)
        goto out;
    r[1] = str_from_cstr("Functions to convert between Python values and C structs.");
    if (!r[1] || module_add(r[0], "__doc__", r[1]) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

/* Start-up: the types (made before threads start). */
void struct_init(void)
{
    VM_GLOBAL_ROOT(g_struct_error);
    T_struct = (TypeObj *)type_new_builtin("_struct.Struct", T_object, TID_ITER, 0);
    T_unpack_iterator = (TypeObj *)type_new_builtin("_struct.unpack_iterator", T_object, TID_ITER, 0);
    if (!T_struct || !T_unpack_iterator) {
        fputs("tmpy: fatal: out of memory at start-up\n", stderr);
        exit(1);
    }
    VM_WRITE_RARE(T_struct);
    T_struct->tp_new = struct_new;
    type_add_methods(T_struct, struct_methods);
    type_add_getset(T_struct, "format", st_format, NULL);
    type_add_getset(T_struct, "size", st_size, NULL);
    VM_WRITE_RARE(T_unpack_iterator);
    T_unpack_iterator->tp_iter = iter_self;
    T_unpack_iterator->tp_iternext = unpack_iterator_next;
    type_add_methods(T_unpack_iterator, unpack_iterator_methods);
    type_ready(T_struct);
    type_ready(T_unpack_iterator);
}
