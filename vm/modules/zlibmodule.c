/* The zlib module on the system's libz (gzip, zipfile, tarfile use it),
 * written from its documentation: compress/decompress with level, wbits
 * and bufsize, compressobj/decompressobj with flush, copy, unused_data,
 * unconsumed_tail and eof, crc32, adler32, the constants and zlib.error,
 * with CPython's messages.
 *
 * A stream object (zlib.Compress, zlib.Decompress) keeps its z_stream in C
 * memory, pointed to from the object (IterObj: `a` unused_data, `b`
 * unconsumed_tail, `c` the zdict, `i` the ZStream pointer, `n` flags).
 * STM: C memory is not transactional, so every method that reads or changes
 * an existing stream first makes the transaction inevitable (it cannot
 * abort, so a retry never feeds the same input twice; at most one runs at a
 * time, so two threads never touch one z_stream at once). Making a new
 * stream needs no such step: zlib allocates through calloc/free called from
 * here, which build/tmpy's txmalloc records, so an abort frees the stream of
 * an object it discards. The object is registered for finalization and its
 * __del__ (run by vm/rt/gcwork.c once it is unreachable, inevitable) ends
 * the stream and frees it. One-shot compress/decompress use a stream on the
 * C stack and call tm_safepoint() between chunks of input, which stays
 * valid there (bytes are immutable; a bytearray's storage does not move
 * while no allocation runs). */
#include "modules.h"
#include "objects/containers.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define DEF_BUF_SIZE (16 * 1024)
#define DEF_MEM_LEVEL 8
#define CHUNK_IN (256 * 1024)   /* input handed to zlib between safe points */

static Obj g_zlib_error;
static TypeObj *T_Compress, *T_Decompress;

enum { ZF_INIT = 1, ZF_EOF = 2, ZF_COMPRESS = 4 };

typedef struct ZStream {
    z_stream zs;
    bool inited;
} ZStream;

static voidpf zs_alloc(voidpf opaque, uInt items, uInt size) { return calloc(items, size); }
static void zs_free(voidpf opaque, voidpf p) { free(p); }

static void zs_setup(z_stream *zs)
{
    memset(zs, 0, sizeof *zs);
    zs->zalloc = zs_alloc;
    zs->zfree = zs_free;
}

/* zlib.error("Error %d while %s: %s"), CPython's wording. */
static Obj zlib_error(const z_stream *zs, int err, const char *what)
{
    const char *zmsg = err == Z_VERSION_ERROR ? "library version mismatch" : zs ? zs->msg : NULL;
    if (!zmsg) {
        switch (err) {
        case Z_BUF_ERROR: zmsg = "incomplete or truncated stream"; break;
        case Z_STREAM_ERROR: zmsg = "inconsistent stream state"; break;
        case Z_DATA_ERROR: zmsg = "invalid input data"; break;
        }
    }
    Obj s = zmsg ? str_from_format("Error %d while %s: %.200s", err, what, zmsg)
                 : str_from_format("Error %d while %s", err, what);
    if (s)
        err_set_value((TypeObj *)g_zlib_error, s);
    return NULL;
}

/* A growable C output buffer. */
typedef struct {
    unsigned char *p;
    size_t len, cap;
} OutBuf;

static bool ob_grow(OutBuf *o, size_t want)
{
    if (o->cap - o->len >= want)
        return true;
    size_t cap = o->cap ? o->cap : 256;
    while (cap - o->len < want)
        cap *= 2;
    if (cap > vm_max_object_size())
        cap = o->len + want;
    unsigned char *q = realloc(o->p, cap);
    if (!q || cap > vm_max_object_size()) {
        free(q ? q : NULL);
        o->p = NULL;
        err_nomemory();
        return false;
    }
    o->p = q;
    o->cap = cap;
    return true;
}

static Obj ob_finish(OutBuf *o)
{
    Obj res = bytes_new(o->p ? (const char *)o->p : "", o->len);
    free(o->p);
    o->p = NULL;
    return res;
}

/* An integer argument that CPython takes as a C int. */
static int int_arg(Obj v, int *out)
{
    int64_t x;
    if (arg_c_int(v, &x) < 0)
        return -1;
    *out = (int)x;
    return 0;
}

/* A size argument (Py_ssize_t). */
static int ssize_arg(Obj v, int64_t *out)
{
    return arg_i64(v, out);
}

/* ---- one-shot ---- */

static Obj z_compress(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"", "level", "wbits", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    int level = Z_DEFAULT_COMPRESSION, wbits = MAX_WBITS;
    if (vm_parse_args("compress", args, nargs, kwnames, names, 1, 3, a) < 0 ||
        (a[1] && int_arg(a[1], &level) < 0) || (a[2] && int_arg(a[2], &wbits) < 0))
        goto out;
    const char *p;
    int64_t n;
    if (!bytes_like_arg(a[0], &p, &n))
        goto out;
    z_stream zs;
    zs_setup(&zs);
    int err = deflateInit2(&zs, level, Z_DEFLATED, wbits, DEF_MEM_LEVEL, Z_DEFAULT_STRATEGY);
    if (err != Z_OK) {
        if (err == Z_MEM_ERROR)
            err_set(E_MemoryError, "Out of memory while compressing data");
        else if (err == Z_STREAM_ERROR)
            err_set((TypeObj *)g_zlib_error, "Bad compression level");
        else
            zlib_error(&zs, err, "compressing data");
        deflateEnd(&zs);
        goto out;
    }
    OutBuf o = {0};
    int64_t off = 0;
    for (;;) {
        int64_t k = n - off > CHUNK_IN ? CHUNK_IN : n - off;
        zs.next_in = (Bytef *)(p + off);
        zs.avail_in = (uInt)k;
        off += k;
        int flush = off == n ? Z_FINISH : Z_NO_FLUSH;
        do {
            size_t room = deflateBound(&zs, zs.avail_in) + 64;
            if (!ob_grow(&o, room)) {
                deflateEnd(&zs);
                goto out;
            }
            zs.next_out = o.p + o.len;
            zs.avail_out = (uInt)(o.cap - o.len > UINT32_MAX ? UINT32_MAX : o.cap - o.len);
            size_t before = zs.avail_out;
            err = deflate(&zs, flush);
            o.len += before - zs.avail_out;
            if (err == Z_STREAM_ERROR) {
                free(o.p);
                deflateEnd(&zs);
                zlib_error(&zs, err, "compressing data");
                goto out;
            }
        } while (zs.avail_out == 0 || (flush == Z_FINISH && err != Z_STREAM_END));
        if (flush == Z_FINISH)
            break;
        tm_safepoint();
    }
    err = deflateEnd(&zs);
    if (err != Z_OK) {
        free(o.p);
        zlib_error(&zs, err, "finishing compression");
        goto out;
    }
    res = ob_finish(&o);
out:
    vm_unroots(a);
    return res;
}

static Obj z_decompress(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"", "wbits", "bufsize", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    int wbits = MAX_WBITS;
    int64_t bufsize = DEF_BUF_SIZE;
    if (vm_parse_args("decompress", args, nargs, kwnames, names, 1, 3, a) < 0 ||
        (a[1] && int_arg(a[1], &wbits) < 0) || (a[2] && ssize_arg(a[2], &bufsize) < 0))
        goto out;
    if (bufsize < 0) {
        err_set(E_ValueError, "bufsize must be non-negative");
        goto out;
    }
    if (bufsize == 0)
        bufsize = 1;
    const char *p;
    int64_t n;
    if (!bytes_like_arg(a[0], &p, &n))
        goto out;
    z_stream zs;
    zs_setup(&zs);
    int err = inflateInit2(&zs, wbits);
    if (err != Z_OK) {
        if (err == Z_MEM_ERROR)
            err_set(E_MemoryError, "Out of memory while decompressing data");
        else
            zlib_error(&zs, err, "preparing to decompress data");
        inflateEnd(&zs);
        goto out;
    }
    OutBuf o = {0};
    int64_t off = 0;
    err = Z_OK;
    do {
        int64_t k = n - off > CHUNK_IN ? CHUNK_IN : n - off;
        zs.next_in = (Bytef *)(p + off);
        zs.avail_in = (uInt)k;
        off += k;
        int flush = off == n ? Z_FINISH : Z_NO_FLUSH;
        do {
            size_t want = o.len == 0 ? (size_t)bufsize : o.len;   /* doubles the output each time */
            if (!ob_grow(&o, want > 1 << 30 ? 1 << 30 : want)) {
                inflateEnd(&zs);
                goto out;
            }
            zs.next_out = o.p + o.len;
            zs.avail_out = (uInt)(o.cap - o.len > UINT32_MAX ? UINT32_MAX : o.cap - o.len);
            size_t before = zs.avail_out;
            err = inflate(&zs, flush);
            o.len += before - zs.avail_out;
            if (err != Z_OK && err != Z_BUF_ERROR && err != Z_STREAM_END) {
                if (err == Z_MEM_ERROR)
                    err_set(E_MemoryError, "Out of memory while decompressing data");
                else
                    zlib_error(&zs, err, "decompressing data");
                free(o.p);
                inflateEnd(&zs);
                goto out;
            }
        } while (zs.avail_out == 0 && err != Z_STREAM_END);
        if (off < n && err != Z_STREAM_END)
            tm_safepoint();
    } while (err != Z_STREAM_END && off < n);
    if (err != Z_STREAM_END) {
        free(o.p);
        zlib_error(&zs, Z_BUF_ERROR, "decompressing data");
        inflateEnd(&zs);
        goto out;
    }
    err = inflateEnd(&zs);
    if (err != Z_OK) {
        free(o.p);
        zlib_error(&zs, err, "finishing decompression");
        goto out;
    }
    res = ob_finish(&o);
out:
    vm_unroots(a);
    return res;
}

/* ---- checksums ---- */

static int checksum_start(Obj v, uint32_t *out)
{
    Obj *r = vm_roots(1);
    int rc = -1;
    r[0] = vm_index(v);
    if (r[0]) {
        Obj m = vm_binop(r[0], MAKE_SMALLINT(0xffffffffLL), NB_AND);
        int64_t x;
        if (m && int_as_i64(m, &x) == 0) {
            *out = (uint32_t)x;
            rc = 0;
        }
    }
    vm_unroots(r);
    return rc;
}

static Obj checksum(Obj *args, size_t nargs, uint32_t start, bool adler)
{
    uint32_t v = start;
    if (nargs > 1 && checksum_start(args[1], &v) < 0)
        return NULL;
    const char *p;
    int64_t n;
    if (!bytes_like_arg(args[0], &p, &n))
        return NULL;
    const Bytef *u = (const Bytef *)p;
    while (n > 0) {
        uInt k = n > CHUNK_IN ? CHUNK_IN : (uInt)n;
        v = adler ? (uint32_t)adler32(v, u, k) : (uint32_t)crc32(v, u, k);
        u += k;
        n -= k;
        if (n > 0)
            tm_safepoint();
    }
    return int_from_u64(v);
}

static Obj z_crc32(Obj *args, size_t nargs, Obj kwnames) { return checksum(args, nargs, 0, false); }
static Obj z_adler32(Obj *args, size_t nargs, Obj kwnames) { return checksum(args, nargs, 1, true); }

/* ---- stream objects ---- */

static ZStream *stream_of(Obj self) { return (ZStream *)(uintptr_t)ITER(self)->i; }

static Obj stream_new(TypeObj *type, int flags)
{
    Obj o = iter_alloc(type, g_empty_tuple, 0);   /* a: replaced below */
    if (!o)
        return NULL;
    Obj *r = vm_roots(1);
    r[0] = o;
    Obj empty = bytes_new("", 0);
    if (!empty) {
        vm_unroots(r);
        return NULL;
    }
    ZStream *z = calloc(1, sizeof *z);
    if (!z) {
        vm_unroots(r);
        return err_nomemory();
    }
    zs_setup(&z->zs);
    o = r[0];
    vm_unroots(r);
    VM_WRITE(o);
    ITER(o)->a = empty;
    ITER(o)->b = empty;
    ITER(o)->i = (int64_t)(uintptr_t)z;
    ITER(o)->n = flags;
    tm_register_finalizer((object_t *)o);   /* __del__ frees the stream */
    return o;
}

static void stream_set_flags(Obj self, int64_t flags)
{
    VM_WRITE(self);
    ITER(self)->n = flags;
}

/* __del__: end the stream and free it (once; the finalizer or a call). */
static Obj stream_del(Obj *args, size_t nargs, Obj kwnames)
{
    Obj self = args[0];
    vm_tx_become_inevitable();
    ZStream *z = stream_of(self);
    if (!z)
        return g_None;
    if (z->inited) {
        if (ITER(self)->n & ZF_COMPRESS)
            deflateEnd(&z->zs);
        else
            inflateEnd(&z->zs);
    }
    free(z);
    VM_WRITE(self);
    ITER(self)->i = 0;
    ITER(self)->n &= ~(int64_t)ZF_INIT;
    return g_None;
}

static Obj z_compressobj(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"level", "method", "wbits", "memLevel", "strategy", "zdict", NULL};
    Obj *a = vm_roots(7);
    Obj res = NULL;
    int v[5] = {Z_DEFAULT_COMPRESSION, Z_DEFLATED, MAX_WBITS, DEF_MEM_LEVEL, Z_DEFAULT_STRATEGY};
    if (vm_parse_args("compressobj", args, nargs, kwnames, names, 0, 6, a) < 0)
        goto out;
    for (int k = 0; k < 5; k++)
        if (a[k] && int_arg(a[k], &v[k]) < 0)
            goto out;
    const char *zp;
    int64_t zn;
    if (a[5] && !bytes_like_arg(a[5], &zp, &zn))
        goto out;
    a[6] = stream_new(T_Compress, ZF_COMPRESS);
    if (!a[6])
        goto out;
    ZStream *z = stream_of(a[6]);
    int err = deflateInit2(&z->zs, v[0], v[1], v[2], v[3], v[4]);
    if (err == Z_OK) {
        z->inited = true;
        stream_set_flags(a[6], ZF_COMPRESS | ZF_INIT);
        if (a[5]) {
            bytes_like(a[5], &zp, &zn);
            err = deflateSetDictionary(&z->zs, (const Bytef *)zp, (uInt)zn);
            if (err != Z_OK) {
                err_set(E_ValueError, "Invalid dictionary");
                goto out;
            }
        }
        res = a[6];
    } else if (err == Z_MEM_ERROR) {
        err_set(E_MemoryError, "Can't allocate memory for compression object");
    } else if (err == Z_STREAM_ERROR) {
        err_set(E_ValueError, "Invalid initialization option");
    } else {
        zlib_error(&z->zs, err, "creating compression object");
    }
out:
    vm_unroots(a);
    return res;
}

static int decomp_set_dict(Obj self)
{
    const char *zp;
    int64_t zn;
    Obj zdict = ITER(self)->c;
    if (!bytes_like(zdict, &zp, &zn)) {
        err_set(E_TypeError, "zdict argument must support the buffer protocol");
        return -1;
    }
    int err = inflateSetDictionary(&stream_of(self)->zs, (const Bytef *)zp, (uInt)zn);
    if (err != Z_OK) {
        zlib_error(&stream_of(self)->zs, err, "setting zdict");
        return -1;
    }
    return 0;
}

static Obj z_decompressobj(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"wbits", "zdict", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    int wbits = MAX_WBITS;
    if (vm_parse_args("decompressobj", args, nargs, kwnames, names, 0, 2, a) < 0 ||
        (a[0] && int_arg(a[0], &wbits) < 0))
        goto out;
    const char *zp;
    int64_t zn;
    if (a[1] && !bytes_like(a[1], &zp, &zn)) {
        err_set(E_TypeError, "zdict argument must support the buffer protocol");
        goto out;
    }
    a[2] = stream_new(T_Decompress, 0);
    if (!a[2])
        goto out;
    if (a[1]) {
        VM_WRITE(a[2]);
        ITER(a[2])->c = a[1];
    }
    ZStream *z = stream_of(a[2]);
    int err = inflateInit2(&z->zs, wbits);
    if (err == Z_OK) {
        z->inited = true;
        stream_set_flags(a[2], ZF_INIT);
        if (a[1] && wbits < 0 && decomp_set_dict(a[2]) < 0)   /* raw streams never ask for it */
            goto out;
        res = a[2];
    } else if (err == Z_STREAM_ERROR) {
        err_set(E_ValueError, "Invalid initialization option");
    } else if (err == Z_MEM_ERROR) {
        err_set(E_MemoryError, "Can't allocate memory for decompression object");
    } else {
        zlib_error(&z->zs, err, "creating decompression object");
    }
out:
    vm_unroots(a);
    return res;
}

/* Compress.compress(data) */
static Obj comp_compress(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();   /* the stream is C state: see the top of the file */
    const char *p;
    int64_t n;
    if (!bytes_like_arg(args[1], &p, &n))
        return NULL;
    ZStream *z = stream_of(args[0]);
    if (!z || !z->inited)
        return zlib_error(NULL, Z_STREAM_ERROR, "compressing data");
    OutBuf o = {0};
    int64_t off = 0;
    do {
        int64_t k = n - off > CHUNK_IN ? CHUNK_IN : n - off;
        z->zs.next_in = (Bytef *)(p + off);
        z->zs.avail_in = (uInt)k;
        off += k;
        do {
            if (!ob_grow(&o, deflateBound(&z->zs, z->zs.avail_in) + 64))
                return NULL;
            z->zs.next_out = o.p + o.len;
            z->zs.avail_out = (uInt)(o.cap - o.len > UINT32_MAX ? UINT32_MAX : o.cap - o.len);
            size_t before = z->zs.avail_out;
            int err = deflate(&z->zs, Z_NO_FLUSH);
            o.len += before - z->zs.avail_out;
            if (err == Z_STREAM_ERROR) {
                free(o.p);
                return zlib_error(&z->zs, err, "compressing data");
            }
        } while (z->zs.avail_out == 0);
        if (off < n)
            tm_safepoint();
    } while (off < n);
    return ob_finish(&o);
}

/* Compress.flush(mode=Z_FINISH) */
static Obj comp_flush(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();
    int mode = Z_FINISH;
    if (nargs > 1 && int_arg(args[1], &mode) < 0)
        return NULL;
    if (mode == Z_NO_FLUSH)
        return bytes_new("", 0);
    ZStream *z = stream_of(args[0]);
    if (!z || !z->inited)
        return zlib_error(NULL, Z_STREAM_ERROR, "flushing");
    OutBuf o = {0};
    int err;
    z->zs.avail_in = 0;
    do {
        if (!ob_grow(&o, DEF_BUF_SIZE))
            return NULL;
        z->zs.next_out = o.p + o.len;
        z->zs.avail_out = (uInt)(o.cap - o.len);
        size_t before = z->zs.avail_out;
        err = deflate(&z->zs, mode);
        o.len += before - z->zs.avail_out;
        if (err == Z_STREAM_ERROR) {
            free(o.p);
            return zlib_error(&z->zs, err, "flushing");
        }
    } while (z->zs.avail_out == 0);
    if (err == Z_STREAM_END && mode == Z_FINISH) {
        err = deflateEnd(&z->zs);
        z->inited = false;
        stream_set_flags(args[0], ZF_COMPRESS);
        if (err != Z_OK) {
            free(o.p);
            return zlib_error(&z->zs, err, "finishing compression");
        }
    } else if (err != Z_OK && err != Z_BUF_ERROR) {
        free(o.p);
        return zlib_error(&z->zs, err, "flushing");
    }
    return ob_finish(&o);
}

/* The copy of a stream object: a new object whose stream is a copy. */
static Obj stream_copy(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();
    Obj *r = vm_roots(2);
    r[0] = args[0];
    Obj res = NULL;
    bool comp = (ITER(r[0])->n & ZF_COMPRESS) != 0;
    ZStream *z = stream_of(r[0]);
    if (!z || !z->inited) {
        err_set(E_ValueError, "Inconsistent stream state");
        goto out;
    }
    r[1] = stream_new(comp ? T_Compress : T_Decompress, comp ? ZF_COMPRESS : 0);
    if (!r[1])
        goto out;
    z = stream_of(r[0]);
    ZStream *c = stream_of(r[1]);
    int err = comp ? deflateCopy(&c->zs, &z->zs) : inflateCopy(&c->zs, &z->zs);
    if (err != Z_OK) {
        if (err == Z_STREAM_ERROR)
            err_set(E_ValueError, "Inconsistent stream state");
        else if (err == Z_MEM_ERROR)
            err_set(E_MemoryError, comp ? "Can't allocate memory for compression object"
                                        : "Can't allocate memory for decompression object");
        else
            zlib_error(&z->zs, err, "copying compression object");
        goto out;
    }
    c->inited = true;
    VM_WRITE(r[1]);
    ITER(r[1])->a = ITER(r[0])->a;
    ITER(r[1])->b = ITER(r[0])->b;
    ITER(r[1])->c = ITER(r[0])->c;
    ITER(r[1])->n = ITER(r[0])->n;
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

static Obj stream_deepcopy(Obj *args, size_t nargs, Obj kwnames)
{
    return stream_copy(args, 1, NULL);
}

/* After inflate: input left after the end of the stream goes to
 * unused_data; input left because the output was limited goes to
 * unconsumed_tail (emptied once all input is taken). Allocates: the caller
 * passes self in a root slot and no longer needs the input pointer. */
static int save_unconsumed(Obj *selfp, int err)
{
    ZStream *z = stream_of(*selfp);
    Obj *r = vm_roots(2);
    int rc = -1;
    if (err == Z_STREAM_END && z->zs.avail_in > 0) {
        /* the bytes after the stream, copied before anything allocates */
        size_t k = z->zs.avail_in;
        char *tmp = malloc(k ? k : 1);
        if (!tmp) {
            err_nomemory();
            goto out;
        }
        memcpy(tmp, z->zs.next_in, k);
        z->zs.avail_in = 0;
        r[0] = bytes_new(tmp, k);
        free(tmp);
        if (!r[0])
            goto out;
        r[1] = vm_binop(ITER(*selfp)->a, r[0], NB_ADD);
        if (!r[1])
            goto out;
        VM_WRITE(*selfp);
        ITER(*selfp)->a = r[1];
    }
    z = stream_of(*selfp);
    if (z->zs.avail_in > 0 || BYTES(ITER(*selfp)->b)->length > 0) {
        r[0] = bytes_new((const char *)z->zs.next_in, z->zs.avail_in);
        if (!r[0])
            goto out;
        VM_WRITE(*selfp);
        ITER(*selfp)->b = r[0];
    }
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* Decompress.decompress(data, /, max_length=0) */
static Obj decomp_decompress(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"", "max_length", NULL};
    vm_tx_become_inevitable();
    Obj *a = vm_roots(3);
    Obj res = NULL;
    a[2] = args[0];
    int64_t max_length = 0;
    if (vm_parse_args("decompress", args + 1, nargs - 1, kwnames, names, 1, 2, a) < 0 ||
        (a[1] && ssize_arg(a[1], &max_length) < 0))
        goto out;
    if (max_length < 0) {
        err_set(E_ValueError, "max_length must be non-negative");
        goto out;
    }
    const char *p;
    int64_t n;
    if (!bytes_like_arg(a[0], &p, &n))
        goto out;
    ZStream *z = stream_of(a[2]);
    if (!z || !z->inited) {
        zlib_error(NULL, Z_STREAM_ERROR, "decompressing data");
        goto out;
    }
    /* the input stays in C memory while the output is built: the stream
     * keeps pointing into it until save_unconsumed copies what is left */
    unsigned char *in = malloc(n ? (size_t)n : 1);
    if (!in) {
        err_nomemory();
        goto out;
    }
    memcpy(in, p, (size_t)n);
    z->zs.next_in = in;
    z->zs.avail_in = (uInt)n;
    OutBuf o = {0};
    int err = Z_OK;
    for (;;) {
        size_t want = o.len == 0 ? DEF_BUF_SIZE : o.len;
        if (max_length && o.len + want > (size_t)max_length)
            want = (size_t)max_length - o.len;
        if (want == 0)
            break;
        if (!ob_grow(&o, want)) {
            free(in);
            goto out;
        }
        z->zs.next_out = o.p + o.len;
        z->zs.avail_out = (uInt)want;
        err = inflate(&z->zs, Z_SYNC_FLUSH);
        o.len += want - z->zs.avail_out;
        if (err == Z_NEED_DICT && ITER(a[2])->c) {
            if (decomp_set_dict(a[2]) < 0) {
                free(in);
                free(o.p);
                goto out;
            }
            err = Z_OK;
            continue;
        }
        if (err != Z_OK && err != Z_BUF_ERROR && err != Z_STREAM_END)
            break;
        if (err == Z_STREAM_END || z->zs.avail_out != 0 || z->zs.avail_in == 0)
            break;
        tm_safepoint();
    }
    if (err != Z_OK && err != Z_BUF_ERROR && err != Z_STREAM_END) {
        free(in);
        free(o.p);
        if (err == Z_NEED_DICT)
            zlib_error(&z->zs, err, "decompressing data");
        else
            zlib_error(&z->zs, err, "decompressing data");
        goto out;
    }
    if (err == Z_STREAM_END)
        stream_set_flags(a[2], ITER(a[2])->n | ZF_EOF);
    int rc = save_unconsumed(&a[2], err);
    free(in);
    stream_of(a[2])->zs.next_in = NULL;
    if (rc < 0) {
        free(o.p);
        goto out;
    }
    res = ob_finish(&o);
out:
    vm_unroots(a);
    return res;
}

/* Decompress.flush(length=DEF_BUF_SIZE): what is left of unconsumed_tail. */
static Obj decomp_flush(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();
    int64_t length = DEF_BUF_SIZE;
    if (nargs > 1 && ssize_arg(args[1], &length) < 0)
        return NULL;
    if (length <= 0) {
        err_set(E_ValueError, "length must be greater than zero");
        return NULL;
    }
    Obj *r = vm_roots(1);
    r[0] = args[0];
    Obj res = NULL;
    ZStream *z = stream_of(r[0]);
    if (!z || !z->inited) {
        res = bytes_new("", 0);
        goto out;
    }
    Obj tail = ITER(r[0])->b;
    int64_t n = BYTES(tail)->length;
    unsigned char *in = malloc(n ? (size_t)n : 1);
    if (!in) {
        err_nomemory();
        goto out;
    }
    memcpy(in, VM_LINEAR(BYTES(tail)->data), (size_t)n);
    z->zs.next_in = in;
    z->zs.avail_in = (uInt)n;
    OutBuf o = {0};
    int err;
    size_t want = (size_t)length;
    for (;;) {
        if (!ob_grow(&o, want)) {
            free(in);
            goto out;
        }
        z->zs.next_out = o.p + o.len;
        z->zs.avail_out = (uInt)want;
        err = inflate(&z->zs, Z_FINISH);
        o.len += want - z->zs.avail_out;
        if (err == Z_NEED_DICT && ITER(r[0])->c) {
            if (decomp_set_dict(r[0]) < 0) {
                free(in);
                free(o.p);
                goto out;
            }
            continue;
        }
        if (err != Z_OK && err != Z_BUF_ERROR)
            break;
        if (z->zs.avail_out != 0)
            break;
        want = o.len;
    }
    if (err == Z_STREAM_END || (err != Z_OK && err != Z_BUF_ERROR && err != Z_NEED_DICT)) {
        /* errors are not raised here, as CPython's flush: the stream ends */
    }
    int rc = save_unconsumed(&r[0], err);
    free(in);
    z = stream_of(r[0]);
    z->zs.next_in = NULL;
    if (rc < 0) {
        free(o.p);
        goto out;
    }
    if (err == Z_STREAM_END) {
        stream_set_flags(r[0], (ITER(r[0])->n | ZF_EOF) & ~(int64_t)ZF_INIT);
        inflateEnd(&z->zs);
        z->inited = false;
    }
    res = ob_finish(&o);
out:
    vm_unroots(r);
    return res;
}

static Obj decomp_unused_data(Obj *args, size_t nargs, Obj kwnames) { return ITER(args[0])->a; }
static Obj decomp_unconsumed_tail(Obj *args, size_t nargs, Obj kwnames) { return ITER(args[0])->b; }
static Obj decomp_eof(Obj *args, size_t nargs, Obj kwnames) { return vm_bool((ITER(args[0])->n & ZF_EOF) != 0); }

static const MethodDef compress_methods[] = {
    {"compress", comp_compress, METH_O, "compress($self, data, /)\n--\n\nReturns a bytes object containing compressed data."},
    {"flush", comp_flush, METH_ARGS(0, 1), "flush($self, mode=zlib.Z_FINISH, /)\n--\n\nReturn a bytes object containing any remaining compressed data."},
    {"copy", stream_copy, METH_NOARGS, "copy($self, /)\n--\n\nReturn a copy of the compression object."},
    {"__copy__", stream_copy, METH_NOARGS, NULL},
    {"__deepcopy__", stream_deepcopy, METH_O, NULL},
    {"__del__", stream_del, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef decompress_methods[] = {
    {"decompress", decomp_decompress, METH_KW, "decompress($self, data, /, max_length=0)\n--\n\nReturn a bytes object containing the decompressed version of the data."},
    {"flush", decomp_flush, METH_ARGS(0, 1), "flush($self, length=zlib.DEF_BUF_SIZE, /)\n--\n\nReturn a bytes object containing any remaining decompressed data."},
    {"copy", stream_copy, METH_NOARGS, "copy($self, /)\n--\n\nReturn a copy of the decompression object."},
    {"__copy__", stream_copy, METH_NOARGS, NULL},
    {"__deepcopy__", stream_deepcopy, METH_O, NULL},
    {"__del__", stream_del, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef zlib_functions[] = {
    {"compress", z_compress, METH_KW, "compress($module, data, /, level=Z_DEFAULT_COMPRESSION, wbits=MAX_WBITS)\n--\n\nReturns a bytes object containing compressed data."},
    {"decompress", z_decompress, METH_KW, "decompress($module, data, /, wbits=MAX_WBITS, bufsize=DEF_BUF_SIZE)\n--\n\nReturns a bytes object containing the uncompressed data."},
    {"compressobj", z_compressobj, METH_KW, "compressobj($module, /, level=Z_DEFAULT_COMPRESSION, method=DEFLATED, wbits=MAX_WBITS, memLevel=DEF_MEM_LEVEL, strategy=Z_DEFAULT_STRATEGY, zdict=None)\n--\n\nReturn a compressor object."},
    {"decompressobj", z_decompressobj, METH_KW, "decompressobj($module, /, wbits=MAX_WBITS, zdict=b'')\n--\n\nReturn a decompressor object."},
    {"crc32", z_crc32, METH_ARGS(1, 2), "crc32($module, data, value=0, /)\n--\n\nCompute a CRC-32 checksum of data."},
    {"adler32", z_adler32, METH_ARGS(1, 2), "adler32($module, data, value=1, /)\n--\n\nCompute an Adler-32 checksum of data."},
    {NULL, NULL, 0, NULL},
};

static TypeObj *make_stream_type(const char *name, const MethodDef *methods, bool decomp)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_ITER, TPF_DOTTED_NAME);
    if (!t)
        return NULL;
    VM_WRITE_RARE(t);
    t->flags |= TPF_HAS_DEL;
    type_add_methods(t, methods);
    if (decomp) {
        type_add_getset(t, "unused_data", decomp_unused_data, NULL);
        type_add_getset(t, "unconsumed_tail", decomp_unconsumed_tail, NULL);
        type_add_getset(t, "eof", decomp_eof, NULL);
    }
    type_ready(t);
    return t;
}

Obj zlib_module_init(void)
{
    static bool once;
    if (!once) {   /* module inits run inevitable: global roots may be written */
        VM_GLOBAL_ROOT(g_zlib_error);
        T_Compress = make_stream_type("zlib.Compress", compress_methods, false);
        T_Decompress = make_stream_type("zlib.Decompress", decompress_methods, true);
        if (!T_Compress || !T_Decompress)
            return err_nomemory();
        once = true;
    }
    Obj *r = vm_roots(4);
    Obj res = NULL;
    if (!g_zlib_error) {
        r[0] = str_from_cstr("error");
        r[1] = r[0] ? tuple_pack(1, (Obj)E_Exception) : NULL;
        r[2] = r[1] ? dict_new() : NULL;
        if (!r[2] || !(r[3] = str_from_cstr("zlib")) || dict_setitem_cstr(r[2], "__module__", r[3]) < 0)
            goto out;
        if (!(g_zlib_error = vm_call3((Obj)T_type, r[0], r[1], r[2])))
            goto out;
    }
    r[0] = module_new("zlib");
    if (!r[0])
        goto out;
    module_add_functions(r[0], zlib_functions);
    if (module_add(r[0], "error", g_zlib_error) < 0)
        goto out;
    static const struct { const char *name; int64_t v; } consts[] = {
        {"MAX_WBITS", MAX_WBITS}, {"DEFLATED", Z_DEFLATED}, {"DEF_MEM_LEVEL", DEF_MEM_LEVEL},
        {"DEF_BUF_SIZE", DEF_BUF_SIZE}, {"Z_NO_COMPRESSION", Z_NO_COMPRESSION}, {"Z_BEST_SPEED", Z_BEST_SPEED},
        {"Z_BEST_COMPRESSION", Z_BEST_COMPRESSION}, {"Z_DEFAULT_COMPRESSION", Z_DEFAULT_COMPRESSION},
        {"Z_FILTERED", Z_FILTERED}, {"Z_HUFFMAN_ONLY", Z_HUFFMAN_ONLY}, {"Z_RLE", Z_RLE}, {"Z_FIXED", Z_FIXED},
        {"Z_DEFAULT_STRATEGY", Z_DEFAULT_STRATEGY}, {"Z_NO_FLUSH", Z_NO_FLUSH}, {"Z_PARTIAL_FLUSH", Z_PARTIAL_FLUSH},
        {"Z_SYNC_FLUSH", Z_SYNC_FLUSH}, {"Z_FULL_FLUSH", Z_FULL_FLUSH}, {"Z_FINISH", Z_FINISH}, {"Z_BLOCK", Z_BLOCK},
        {"Z_TREES", Z_TREES},
    };
    for (size_t k = 0; k < ARRAY_LEN(consts); k++)
        if (module_add(r[0], consts[k].name, int_from_i64(consts[k].v)) < 0)
            goto out;
    if (!(r[1] = str_from_cstr(ZLIB_VERSION)) || module_add(r[0], "ZLIB_VERSION", r[1]) < 0 ||
        !(r[1] = str_from_cstr(zlibVersion())) || module_add(r[0], "ZLIB_RUNTIME_VERSION", r[1]) < 0 ||
        !(r[1] = str_from_cstr("1.0")) || module_add(r[0], "__version__", r[1]) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
