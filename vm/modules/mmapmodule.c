/* The mmap module (CPython 3.11's interface, Unix): the mmap type over
 * mmap(2) of a file descriptor or anonymous memory, with read/write/seek,
 * find/rfind, resize (mremap), flush (msync), move, madvise, item and
 * slice access, iteration, the context manager, and the MAP_* / PROT_* /
 * MADV_* / ACCESS_* / PAGESIZE constants. Written from the documentation.
 *
 * An mmap is an IterObj: a = a RawObj holding MapState (the mapping's
 * address and size, the position, the descriptor ...), b = a list of the
 * placeholder ranges a close or resize left behind (STM, below) or NULL.
 * The state is heap data, so under STM a position change is undone by an
 * abort like any write; the mapped bytes are not.
 *
 * STM: mapped memory is outside the transactional heap, so nothing an
 * abort restores. Every operation that writes it or changes the mapping
 * (write, write_byte, __setitem__, move, resize, flush, close, and the
 * mmap() call that makes one) first makes the transaction inevitable.
 * Reads run in any transaction: a read that races with another thread's
 * write sees bytes that may change, as under CPython without a lock. A
 * close or a resize that moves the mapping would unmap memory that a
 * running transaction may still be copying (its conflict on the state is
 * found only at its commit), so there the old range (a shrink: the pages
 * it drops) is replaced by a read-only copy of its bytes (swapped in by one
 * mremap: a reader sees the old bytes, as the committed state it read says,
 * whether it then aborts or commits first) and
 * unmapped by the object's __del__, which the collector runs once no thread
 * can reach the object.
 * The GIL build unmaps at once.
 *
 * The buffer protocol (vm_hooks.mapped_buffer, mapped_export): bytes-like
 * consumers read the mapped bytes in place; a memoryview reads and writes
 * them (memoryview.c; a store there is inevitable too) and counts as an
 * export, which close() and resize() refuse while one is alive. */
#define _GNU_SOURCE
#include "posix.h"
#include "objects/containers.h"
#include "objects/numbers.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { ACCESS_DEFAULT, ACCESS_READ, ACCESS_WRITE, ACCESS_COPY };

typedef struct {
    char *data;        /* NULL once closed */
    int64_t size;      /* bytes mapped */
    int64_t pos;       /* read/write position */
    int64_t offset;    /* offset in the file */
    int64_t exports;   /* memoryviews made of it, not released (some may be dead: refuse_if_exported) */
    int fd;            /* a dup of the caller's descriptor; -1 anonymous or closed */
    int access;
    int flags;
    int prot;
} MapState;

static TypeObj *T_mmap, *T_mmap_iterator;

static bool is_mmap(Obj v) { return TID(v) == TID_ITER && ITER(v)->cls == (Obj)T_mmap; }

/* The state of an mmap (unwrapped), read through the read barrier. */
static const MapState *state_of(Obj m) { return (const MapState *)VM_LINEAR(RAW(ITER(m)->a)->data); }

/* The state, writable (write barrier on it). */
static MapState *state_w(Obj m)
{
    Obj raw = ITER(m)->a;
    VM_WRITE(raw);
    return (MapState *)VM_LINEAR(RAW(raw)->data);
}

/* self unwrapped, or NULL with TypeError. */
static Obj map_self(Obj self, const char *meth)
{
    Obj s = vm_unwrap(self);
    if (!is_mmap(s)) {
        err_format(E_TypeError, "descriptor '%s' for 'mmap.mmap' objects doesn't apply to a '%s' object", meth,
                   type_name(self));
        return NULL;
    }
    return s;
}

/* self unwrapped if its mapping is open, else NULL with ValueError. */
static Obj open_self(Obj self, const char *meth)
{
    Obj s = map_self(self, meth);
    if (s && !state_of(s)->data) {
        err_set(E_ValueError, "mmap closed or invalid");
        return NULL;
    }
    return s;
}

static int check_writable(Obj m)
{
    if (state_of(m)->access == ACCESS_READ) {
        err_set(E_TypeError, "mmap can't modify a readonly memory map.");
        return -1;
    }
    return 0;
}

/* Under STM: the transaction becomes inevitable before a write to mapped
 * memory or a change of the mapping (nothing under the GIL). Then self is
 * re-read and checked open again: becoming inevitable may abort and retry,
 * and the state read before may be stale. */
static Obj open_self_for_effect(Obj self, const char *meth)
{
    if (!open_self(self, meth))
        return NULL;
    vm_tx_become_inevitable();
    return open_self(self, meth);
}

/* Retire the range [p, p + n) of m: unmap it (GIL), or (STM) map a
 * read-only copy of its bytes over it and remember it for __del__.
 * The caller is inevitable; m is in a root slot. 0 or -1. */
static int retire_range(Obj *mp, char *p, int64_t n)
{
#if TM_STM
    /* A read-only copy of the old bytes, swapped in at once (mremap onto the
     * range): a reader whose transaction commits before ours (it read the
     * committed state) must have seen the old bytes, not zeros. */
    char *copy = mmap(NULL, (size_t)n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (copy == MAP_FAILED) {
        posix_error(NULL);
        return -1;
    }
    memcpy(copy, p, (size_t)n);
    if (mprotect(copy, (size_t)n, PROT_READ) != 0 ||
        mremap(copy, (size_t)n, (size_t)n, MREMAP_MAYMOVE | MREMAP_FIXED, p) == MAP_FAILED) {
        posix_error(NULL);
        munmap(copy, (size_t)n);
        return -1;
    }
    Obj *r = vm_roots(2);
    int rc = -1;
    if (!ITER(vm_unwrap(*mp))->b) {
        r[0] = list_new_capacity(2);
        if (!r[0])
            goto out;
        Obj m = vm_unwrap(*mp);
        VM_WRITE(m);
        ITER(m)->b = r[0];
    }
    r[0] = int_from_i64((int64_t)(uintptr_t)p);
    if (!r[0] || list_append(ITER(vm_unwrap(*mp))->b, r[0]) < 0)
        goto out;
    r[0] = int_from_i64(n);
    if (!r[0] || list_append(ITER(vm_unwrap(*mp))->b, r[0]) < 0)
        goto out;
    rc = 0;
out:
    vm_unroots(r);
    return rc;
#else
    (void)mp;
    munmap(p, (size_t)n);
    return 0;
#endif
}

/* ------------------------------------------------------------------ */
/* Making one                                                          */
/* ------------------------------------------------------------------ */

/* mmap(fileno, length, flags=MAP_SHARED, prot=PROT_WRITE|PROT_READ, access=ACCESS_DEFAULT, offset=0) */
static Obj map_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"fileno", "length", "flags", "prot", "access", "offset", NULL};
    Obj *a = vm_roots(8);
    Obj res = NULL;
    int fd_in = -1, dupfd = -1;
    char *data = MAP_FAILED;
    int64_t size = 0, flags = MAP_SHARED, prot = PROT_WRITE | PROT_READ, access = ACCESS_DEFAULT, offset = 0;
    a[7] = type;
    if (vm_parse_args("mmap", args, nargs, kwnames, names, 2, 6, a) < 0)
        goto out;
    int64_t fdv;
    if (vm_index_i64(a[0], &fdv) < 0 || vm_index_i64(a[1], &size) < 0 ||
        (a[2] && vm_index_i64(a[2], &flags) < 0) || (a[3] && vm_index_i64(a[3], &prot) < 0) ||
        (a[4] && vm_index_i64(a[4], &access) < 0) || (a[5] && vm_index_i64(a[5], &offset) < 0))
        goto out;
    if (fdv < INT_MIN || fdv > INT_MAX || flags < INT_MIN || flags > INT_MAX || prot < INT_MIN || prot > INT_MAX ||
        access < INT_MIN || access > INT_MAX) {
        err_set(E_OverflowError, "signed integer is greater than maximum");
        goto out;
    }
    fd_in = (int)fdv;
    if (size < 0) {
        err_set(E_OverflowError, "memory mapped length must be positive");
        goto out;
    }
    if (offset < 0) {
        err_set(E_OverflowError, "memory mapped offset must be positive");
        goto out;
    }
    if (access != ACCESS_DEFAULT && (flags != MAP_SHARED || prot != (PROT_WRITE | PROT_READ))) {
        err_set(E_ValueError, "mmap can't specify both access and flags, prot.");
        goto out;
    }
    switch (access) {
    case ACCESS_READ: flags = MAP_SHARED; prot = PROT_READ; break;
    case ACCESS_WRITE: flags = MAP_SHARED; prot = PROT_READ | PROT_WRITE; break;
    case ACCESS_COPY: flags = MAP_PRIVATE; prot = PROT_READ | PROT_WRITE; break;
    case ACCESS_DEFAULT:   /* the access that prot implies */
        if (!((prot & PROT_READ) && (prot & PROT_WRITE)))
            access = (prot & PROT_WRITE) ? ACCESS_WRITE : ACCESS_READ;
        break;
    default:
        err_set(E_ValueError, "mmap invalid access parameter.");
        goto out;
    }
    vm_tx_become_inevitable();   /* the mapping and the dup'ed descriptor are not undone by an abort */
    if (fd_in != -1) {
        struct stat st;
        if (fstat(fd_in, &st) == 0 && S_ISREG(st.st_mode)) {
            if (size == 0) {
                if (st.st_size == 0) {
                    err_set(E_ValueError, "cannot mmap an empty file");
                    goto out;
                }
                if (offset >= st.st_size) {
                    err_set(E_ValueError, "mmap offset is greater than file size");
                    goto out;
                }
                size = st.st_size - offset;
            } else if (offset > st.st_size || st.st_size - offset < size) {
                err_set(E_ValueError, "mmap length is greater than file size");
                goto out;
            }
        }
        dupfd = fcntl(fd_in, F_DUPFD_CLOEXEC, 0);
        if (dupfd < 0) {
            posix_error(NULL);
            goto out;
        }
    } else {
        flags |= MAP_ANONYMOUS;
    }
    data = mmap(NULL, (size_t)size, (int)prot, (int)flags, dupfd, (off_t)offset);
    if (data == MAP_FAILED) {
        posix_error(NULL);
        goto out;
    }
    a[6] = raw_new(sizeof(MapState));
    if (!a[6])
        goto out;
    MapState *s = (MapState *)VM_LINEAR(RAW(a[6])->data);   /* a new object: no barrier */
    s->data = data;
    s->size = size;
    s->pos = 0;
    s->offset = offset;
    s->exports = 0;
    s->fd = dupfd;
    s->access = (int)access;
    s->flags = (int)flags;
    s->prot = (int)prot;
    tm_compiler_barrier();
    a[6] = iter_alloc(T_mmap, a[6], 0);
    if (!a[6])
        goto out;
    data = MAP_FAILED;
    dupfd = -1;
    tm_register_finalizer((object_t *)a[6]);   /* __del__ unmaps */
    res = container_wrap_for_type(T_mmap, a[7], a[6]);
out:
    if (data != MAP_FAILED)
        munmap(data, (size_t)size);
    if (dupfd >= 0)
        close(dupfd);
    vm_unroots(a);
    return res;
}

/* BufferError if a memoryview of m (in a root slot, unwrapped) that is
 * not released is alive. Without reference counts a dropped view stays
 * counted, so a positive count is checked by a census of the live views
 * (a major collection), which corrects it. 0 or -1. */
static int refuse_if_exported(Obj *mp, const char *message)
{
    if (state_of(*mp)->exports <= 0)
        return 0;
    int64_t live = memview_live_views(mp);
    state_w(*mp)->exports = live;
    if (live > 0) {
        err_set(E_BufferError, message);
        return -1;
    }
    return 0;
}

/* vm_hooks.mapped_buffer */
static bool mapped_buffer(Obj v, unsigned char **data, int64_t *len, bool *writable)
{
    if (!is_mmap(v))
        return false;
    const MapState *s = state_of(v);
    *data = (unsigned char *)s->data;
    *len = s->data ? s->size : 0;
    *writable = s->access != ACCESS_READ;
    return true;
}

/* vm_hooks.mapped_export */
static void mapped_export(Obj v, int64_t delta)
{
    if (is_mmap(v))
        state_w(v)->exports += delta;
}

/* Unmap and close the descriptor (once). The transaction is inevitable. */
static int unmap_all(Obj *mp)
{
    const MapState *s = state_of(vm_unwrap(*mp));
    char *data = s->data;
    int64_t size = s->size;
    int fd = s->fd;
    if (data) {
        MapState *w = state_w(vm_unwrap(*mp));
        w->data = NULL;
        w->fd = -1;
        if (fd >= 0)
            close(fd);
        if (retire_range(mp, data, size) < 0)
            return -1;
    }
    return 0;
}

/* close() */
static Obj map_close(Obj *args, size_t nargs, Obj kwnames)
{
    Obj m = map_self(args[0], "close");
    if (!m)
        return NULL;
    Obj *r = vm_roots(2);
    r[0] = args[0];
    r[1] = m;
    int rc = refuse_if_exported(&r[1], "cannot close exported pointers exist");
    if (rc == 0) {
        vm_tx_become_inevitable();
        rc = unmap_all(&r[0]);
    }
    vm_unroots(r);
    return rc < 0 ? NULL : g_None;
}

/* __del__: unmap what is still mapped and every placeholder (the finalizer). */
static Obj map_del(Obj *args, size_t nargs, Obj kwnames)
{
    Obj m = vm_unwrap(args[0]);
    if (!is_mmap(m))
        return g_None;
    vm_tx_become_inevitable();
    const MapState *s = state_of(m);
    if (s->data) {
        munmap(s->data, (size_t)s->size);
        if (s->fd >= 0)
            close(s->fd);
        MapState *w = state_w(m);
        w->data = NULL;
        w->fd = -1;
    }
    Obj held = ITER(m)->b;
    if (held) {
        for (int64_t k = 0; k + 1 < LIST_LEN(held); k += 2) {
            int64_t p = 0, n = 0;
            if (vm_index_i64(LIST_ITEMS(held)[k], &p) == 0 && vm_index_i64(LIST_ITEMS(held)[k + 1], &n) == 0)
                munmap((void *)(uintptr_t)p, (size_t)n);
        }
        VM_WRITE(m);
        ITER(m)->b = NULL;
    }
    return g_None;
}

static Obj map_closed(Obj *args, size_t nargs, Obj kwnames)
{
    Obj m = map_self(args[0], "closed");
    return !m ? NULL : state_of(m)->data ? g_False : g_True;
}

static Obj map_enter(Obj *args, size_t nargs, Obj kwnames)
{
    return open_self(args[0], "__enter__") ? args[0] : NULL;
}

static Obj map_exit(Obj *args, size_t nargs, Obj kwnames)
{
    return map_close(args, 1, NULL);
}

/* ------------------------------------------------------------------ */
/* Reading                                                             */
/* ------------------------------------------------------------------ */

/* The bytes [from, from + n) of the open map m as a new bytes, and the
 * position moved to from + n when `advance`. m is in *mp. */
static Obj take_bytes(Obj *mp, int64_t from, int64_t n, bool advance)
{
    const MapState *s = state_of(vm_unwrap(*mp));
    Obj b = bytes_new(s->data + from, (size_t)n);   /* C memory: the allocation moves nothing it reads */
    if (b && advance) {
        Obj *r = vm_roots(1);
        r[0] = b;
        state_w(vm_unwrap(*mp))->pos = from + n;
        b = r[0];
        vm_unroots(r);
    }
    return b;
}

/* An optional size argument (None or absent: -1). */
static int size_arg(Obj v, int64_t *out)
{
    *out = -1;
    if (!v || IS_NONE(v))
        return 0;
    if (!IS_INT(vm_unwrap(v)) && !vm_lookup_special(v, "__index__")) {
        err_format(E_TypeError, "argument should be integer or None, not '%s'", type_name(v));
        return -1;
    }
    return vm_index_i64(v, out);
}

/* read(n=None) */
static Obj map_read(Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("read", nargs - 1, kwnames, 0, 1) < 0)
        return NULL;
    int64_t n;
    if (!open_self(args[0], "read") || size_arg(nargs > 1 ? args[1] : NULL, &n) < 0)
        return NULL;
    Obj m = open_self(args[0], "read");   /* __index__ may have closed it */
    if (!m)
        return NULL;
    const MapState *s = state_of(m);
    int64_t left = s->pos < s->size ? s->size - s->pos : 0;
    if (n < 0 || n > left)
        n = left;
    return take_bytes(&args[0], s->pos, n, true);
}

/* read_byte() */
static Obj map_read_byte(Obj *args, size_t nargs, Obj kwnames)
{
    Obj m = open_self(args[0], "read_byte");
    if (!m)
        return NULL;
    const MapState *s = state_of(m);
    if (s->pos >= s->size) {
        err_set(E_ValueError, "read byte out of range");
        return NULL;
    }
    unsigned char c = (unsigned char)s->data[s->pos];
    state_w(m)->pos++;
    return MAKE_SMALLINT(c);
}

/* readline(): through the next b'\n' or to the end */
static Obj map_readline(Obj *args, size_t nargs, Obj kwnames)
{
    Obj m = open_self(args[0], "readline");
    if (!m)
        return NULL;
    const MapState *s = state_of(m);
    int64_t from = s->pos < s->size ? s->pos : s->size;
    const char *nl = memchr(s->data + from, '\n', (size_t)(s->size - from));
    int64_t n = nl ? nl - (s->data + from) + 1 : s->size - from;
    return take_bytes(&args[0], from, n, true);
}

/* The [start, end) arguments of find/rfind (defaults: the position and the
 * size; negative ones count from the end; clamped to [0, size]). */
static int search_range(Obj *args, size_t nargs, int64_t *start, int64_t *end)
{
    *start = state_of(vm_unwrap(args[0]))->pos;
    *end = state_of(vm_unwrap(args[0]))->size;
    if (nargs > 2 && !IS_NONE(args[2]) && vm_index_i64(args[2], start) < 0)
        return -1;
    if (nargs > 3 && !IS_NONE(args[3]) && vm_index_i64(args[3], end) < 0)
        return -1;
    int64_t size = state_of(vm_unwrap(args[0]))->size;   /* read again: __index__ may have moved the state (or resized the map) */
    if (*start < 0)
        *start += size;
    if (*start < 0)
        *start = 0;
    if (*start > size)
        *start = size;
    if (*end < 0)
        *end += size;
    if (*end < 0)
        *end = 0;
    if (*end > size)
        *end = size;
    return 0;
}

static Obj map_search(Obj *args, size_t nargs, Obj kwnames, const char *fname, bool reverse)
{
    if (vm_check_args(fname, nargs - 1, kwnames, 1, 3) < 0 || !open_self(args[0], fname))
        return NULL;
    const char *sub;
    int64_t subn;
    if (!bytes_like_arg(args[1], &sub, &subn))
        return NULL;
    int64_t start, end;
    if (search_range(args, nargs, &start, &end) < 0)
        return NULL;
    Obj m = open_self(args[0], fname);   /* __index__ may have closed it */
    if (!m)
        return NULL;
    bytes_like(args[1], &sub, &subn);   /* re-read: linear until the next allocation */
    const char *d = state_of(m)->data;
    if (end - start < subn)
        return MAKE_SMALLINT(-1);
    if (!reverse) {
        for (int64_t k = start; k + subn <= end; k++)
            if (memcmp(d + k, sub, (size_t)subn) == 0)
                return int_from_i64(k);
    } else {
        for (int64_t k = end - subn; k >= start; k--)
            if (memcmp(d + k, sub, (size_t)subn) == 0)
                return int_from_i64(k);
    }
    return MAKE_SMALLINT(-1);
}

static Obj map_find(Obj *args, size_t nargs, Obj kwnames) { return map_search(args, nargs, kwnames, "find", false); }
static Obj map_rfind(Obj *args, size_t nargs, Obj kwnames) { return map_search(args, nargs, kwnames, "rfind", true); }

/* ------------------------------------------------------------------ */
/* Position and size                                                   */
/* ------------------------------------------------------------------ */

/* seek(pos, whence=0) */
static Obj map_seek(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t dist, how = 0;
    if (!open_self(args[0], "seek") || vm_index_i64(args[1], &dist) < 0 ||
        (nargs > 2 && vm_index_i64(args[2], &how) < 0))
        return NULL;
    Obj m = open_self(args[0], "seek");
    if (!m)
        return NULL;
    const MapState *s = state_of(m);
    int64_t where;
    switch (how) {
    case 0: where = dist; break;
    case 1: where = s->pos + dist; break;
    case 2: where = s->size + dist; break;
    default:
        err_set(E_ValueError, "unknown seek type");
        return NULL;
    }
    if (where < 0 || where > s->size) {
        err_set(E_ValueError, "seek out of range");
        return NULL;
    }
    state_w(m)->pos = where;
    return g_None;
}

static Obj map_tell(Obj *args, size_t nargs, Obj kwnames)
{
    Obj m = open_self(args[0], "tell");
    return m ? int_from_i64(state_of(m)->pos) : NULL;
}

/* size(): the file's size (CPython 3.11 calls fstat for an anonymous map
 * too: OSError EBADF) */
static Obj map_size(Obj *args, size_t nargs, Obj kwnames)
{
    Obj m = open_self(args[0], "size");
    if (!m)
        return NULL;
    const MapState *s = state_of(m);
    struct stat st;
    if (fstat(s->fd, &st) < 0)
        return posix_error(NULL);
    return int_from_i64(st.st_size);
}

static int64_t map_len_slot(Obj self)
{
    Obj m = open_self(self, "__len__");
    return m ? state_of(m)->size : -1;
}

/* resize(newsize): the file too (ftruncate) for a file mapping */
static Obj map_resize(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t newsize;
    if (!open_self(args[0], "resize") || vm_index_i64(args[1], &newsize) < 0)
        return NULL;
    Obj m = open_self_for_effect(args[0], "resize");
    if (!m)
        return NULL;
    Obj *r = vm_roots(1);
    r[0] = m;
    int refused = refuse_if_exported(&r[0], "mmap can't resize with extant buffers exported.");
    m = r[0];
    vm_unroots(r);
    if (refused < 0 || !(m = open_self_for_effect(args[0], "resize")))
        return NULL;
    const MapState *s = state_of(m);
    if (s->access != ACCESS_WRITE && s->access != ACCESS_DEFAULT) {
        err_set(E_TypeError, "mmap can't resize a readonly or copy-on-write memory map.");
        return NULL;
    }
    if (newsize < 0 || newsize > INT64_MAX - s->offset) {
        err_set(E_ValueError, "new size out of range");
        return NULL;
    }
    char *old = s->data;
    int64_t oldsize = s->size;
#if TM_STM
    /* a shrink retires the dropped pages before the file loses them (a read
     * past the file's end would fault) */
    if (newsize < oldsize) {
        long pg = sysconf(_SC_PAGESIZE);
        int64_t keep = (newsize + pg - 1) / pg * pg, had = (oldsize + pg - 1) / pg * pg;
        Obj *r = vm_roots(1);
        r[0] = args[0];
        int rc = had > keep ? retire_range(&r[0], old + keep, had - keep) : 0;
        vm_unroots(r);
        if (rc < 0)
            return NULL;
        m = vm_unwrap(args[0]);
        s = state_of(m);
    }
#endif
    if (s->fd >= 0 && ftruncate(s->fd, (off_t)(s->offset + newsize)) < 0)
        return posix_error(NULL);
#if TM_STM
    /* every old byte stays readable (retire_range) for a transaction that
     * may be copying from it: a shrink covers the pages it drops with a
     * placeholder; a growth grows in place, else maps anew and retires the
     * old range */
    if (newsize <= oldsize) {
        MapState *w = state_w(vm_unwrap(args[0]));
        w->size = newsize;
        return g_None;
    }
    char *p = mremap(old, (size_t)oldsize, (size_t)newsize, 0);
    bool moved = false;
    if (p == MAP_FAILED && errno == ENOMEM) {
        if (s->fd >= 0) {
            p = mmap(NULL, (size_t)newsize, s->prot, s->flags, s->fd, (off_t)s->offset);
        } else {
            p = mmap(NULL, (size_t)newsize, s->prot, s->flags, -1, 0);
            if (p != MAP_FAILED)
                memcpy(p, old, (size_t)oldsize);
        }
        moved = true;
    }
#else
    char *p = mremap(old, (size_t)oldsize, (size_t)newsize, MREMAP_MAYMOVE);
#endif
    if (p == MAP_FAILED)
        return posix_error(NULL);
    MapState *w = state_w(m);
    w->data = p;
    w->size = newsize;
#if TM_STM
    if (moved) {
        Obj *r = vm_roots(1);
        r[0] = args[0];
        int rc = retire_range(&r[0], old, oldsize);
        vm_unroots(r);
        if (rc < 0)
            return NULL;
    }
#endif
    return g_None;
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */
/* ------------------------------------------------------------------ */

/* write(bytes): the number of bytes written */
static Obj map_write(Obj *args, size_t nargs, Obj kwnames)
{
    Obj m = open_self(args[0], "write");
    const char *p;
    int64_t n;
    if (!m || !bytes_like_arg(args[1], &p, &n))
        return NULL;
    if (!(m = open_self_for_effect(args[0], "write")) || check_writable(m) < 0)
        return NULL;
    const MapState *s = state_of(m);
    if (s->pos > s->size || s->size - s->pos < n) {
        err_set(E_ValueError, "data out of range");
        return NULL;
    }
    bytes_like(args[1], &p, &n);   /* re-read: linear until the next allocation */
    memcpy(s->data + s->pos, p, (size_t)n);
    state_w(m)->pos += n;
    return int_from_i64(n);
}

/* A byte value (CPython's "b" conversion: 0..255). */
static int byte_arg(Obj v, unsigned char *out)
{
    int64_t x;
    if (vm_index_i64(v, &x) < 0)
        return -1;
    if (x < 0) {
        err_set(E_OverflowError, "unsigned byte integer is less than minimum");
        return -1;
    }
    if (x > 255) {
        err_set(E_OverflowError, "unsigned byte integer is greater than maximum");
        return -1;
    }
    *out = (unsigned char)x;
    return 0;
}

/* write_byte(byte) */
static Obj map_write_byte(Obj *args, size_t nargs, Obj kwnames)
{
    unsigned char c;
    if (!open_self(args[0], "write_byte") || byte_arg(args[1], &c) < 0)
        return NULL;
    Obj m = open_self_for_effect(args[0], "write_byte");
    if (!m || check_writable(m) < 0)
        return NULL;
    const MapState *s = state_of(m);
    if (s->pos >= s->size) {
        err_set(E_ValueError, "write byte out of range");
        return NULL;
    }
    s->data[s->pos] = (char)c;
    state_w(m)->pos++;
    return g_None;
}

/* move(dest, src, count) */
static Obj map_move(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t dest, src, cnt;
    if (!open_self(args[0], "move") || vm_index_i64(args[1], &dest) < 0 || vm_index_i64(args[2], &src) < 0 ||
        vm_index_i64(args[3], &cnt) < 0)
        return NULL;
    Obj m = open_self_for_effect(args[0], "move");
    if (!m || check_writable(m) < 0)
        return NULL;
    const MapState *s = state_of(m);
    if (dest < 0 || src < 0 || cnt < 0 || s->size - dest < cnt || s->size - src < cnt) {
        err_set(E_ValueError, "source, destination, or count out of range");
        return NULL;
    }
    memmove(s->data + dest, s->data + src, (size_t)cnt);
    return g_None;
}

/* flush(offset=0, size=0): msync of [offset, offset + size), all when size is 0 */
static Obj map_flush(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t off = 0, n = 0;
    if (!open_self(args[0], "flush") || (nargs > 1 && vm_index_i64(args[1], &off) < 0) ||
        (nargs > 2 && vm_index_i64(args[2], &n) < 0))
        return NULL;
    Obj m = open_self_for_effect(args[0], "flush");
    if (!m)
        return NULL;
    const MapState *s = state_of(m);
    if (nargs <= 2 || n == 0)
        n = s->size - off;
    if (off < 0 || n < 0 || s->size - off < n) {
        err_set(E_ValueError, "flush values out of range");
        return NULL;
    }
    if (s->access == ACCESS_READ || s->access == ACCESS_COPY || n == 0)
        return g_None;
    if (msync(s->data + off, (size_t)n, MS_SYNC) < 0)
        return posix_error(NULL);
    return g_None;
}

/* madvise(option, start=0, length=size - start) */
static Obj map_madvise(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t opt, start = 0, len = -1;
    if (!open_self(args[0], "madvise") || vm_index_i64(args[1], &opt) < 0 ||
        (nargs > 2 && vm_index_i64(args[2], &start) < 0) || (nargs > 3 && vm_index_i64(args[3], &len) < 0))
        return NULL;
    Obj m = open_self(args[0], "madvise");
    if (!m)
        return NULL;
    const MapState *s = state_of(m);
    if (start < 0 || start >= s->size) {
        err_set(E_ValueError, "madvise start out of bounds");
        return NULL;
    }
    if (nargs > 3 && len < 0) {
        err_set(E_ValueError, "madvise length invalid");
        return NULL;
    }
    if (nargs <= 3 || len > s->size - start)
        len = s->size - start;
    vm_tx_become_inevitable();   /* MADV_DONTNEED and the like change the contents */
    if (!(m = open_self(args[0], "madvise")))
        return NULL;
    s = state_of(m);
    if (madvise(s->data + start, (size_t)len, (int)opt) < 0)
        return posix_error(NULL);
    return g_None;
}

/* ------------------------------------------------------------------ */
/* Items and slices                                                    */
/* ------------------------------------------------------------------ */

/* Both slots keep self, key and value in root slots: an __index__ or a
 * slice's bounds run Python code, which may collect (and move them) or
 * close or resize the map (open_self checks again). */
static Obj map_getitem_rooted(Obj *r)
{
    Obj m = open_self(r[0], "__getitem__");
    if (!m)
        return NULL;
    int64_t i;
    int k = seq_index_arg(r[1], &i);
    if (k < 0)
        return NULL;
    if (!(m = open_self(r[0], "__getitem__")))
        return NULL;
    const MapState *s = state_of(m);
    if (k > 0) {
        if (i < 0)
            i += s->size;
        if (i < 0 || i >= s->size) {
            err_set(E_IndexError, "mmap index out of range");
            return NULL;
        }
        return MAKE_SMALLINT((unsigned char)s->data[i]);
    }
    if (TID(r[1]) != TID_SLICE) {
        err_set(E_TypeError, "mmap indices must be integers");
        return NULL;
    }
    int64_t start, stop, step;
    if (slice_unpack(r[1], &start, &stop, &step) < 0 || !(m = open_self(r[0], "__getitem__")))
        return NULL;
    s = state_of(m);
    int64_t cnt = slice_adjust(s->size, &start, &stop, step);
    if (step == 1 || cnt <= 0)
        return take_bytes(&r[0], start, cnt > 0 ? cnt : 0, false);
    Obj b = bytes_alloc(cnt);
    if (!b || !(m = open_self(r[0], "__getitem__")))
        return NULL;
    s = state_of(m);
    if (start + (cnt - 1) * step >= s->size || start + (cnt - 1) * step < 0) {   /* a collection's finalizer resized it */
        err_set(E_IndexError, "mmap index out of range");
        return NULL;
    }
    char *dst = (char *)VM_LINEAR(BYTES(b)->data);   /* a new object: no barrier */
    for (int64_t j = 0; j < cnt; j++)
        dst[j] = s->data[start + j * step];
    tm_compiler_barrier();
    return b;
}

static Obj map_getitem_slot(Obj self, Obj key)
{
    Obj *r = vm_roots(2);
    r[0] = self;
    r[1] = key;
    Obj res = map_getitem_rooted(r);
    vm_unroots(r);
    return res;
}

static int map_setitem_rooted(Obj *r)
{
    Obj m = open_self(r[0], "__setitem__");
    if (!m)
        return -1;
    if (!r[2]) {
        err_set(E_TypeError, "mmap doesn't support item deletion");
        return -1;
    }
    int64_t i;
    int k = seq_index_arg(r[1], &i);
    if (k < 0)
        return -1;
    if (k > 0) {
        if (!(m = open_self(r[0], "__setitem__")))
            return -1;
        int64_t size = state_of(m)->size;
        if (i < 0)
            i += size;
        if (i < 0 || i >= size) {
            err_set(E_IndexError, "mmap index out of range");
            return -1;
        }
        if (!IS_INT(vm_unwrap(r[2])) && !vm_lookup_special(r[2], "__index__")) {
            if (!err_occurred())
                err_set(E_TypeError, "mmap item value must be an int");
            return -1;
        }
        int64_t x;
        if (vm_index_i64(r[2], &x) < 0)
            return -1;
        if (x < 0 || x > 255) {
            err_set(E_ValueError, "mmap item value must be in range(0, 256)");
            return -1;
        }
        if (!(m = open_self_for_effect(r[0], "__setitem__")) || check_writable(m) < 0)
            return -1;
        const MapState *s = state_of(m);
        if (i >= s->size) {
            err_set(E_IndexError, "mmap index out of range");
            return -1;
        }
        s->data[i] = (char)x;
        return 0;
    }
    if (TID(r[1]) != TID_SLICE) {
        err_set(E_TypeError, "mmap indices must be integer");
        return -1;
    }
    int64_t start, stop, step;
    const char *p;
    int64_t n;
    if (slice_unpack(r[1], &start, &stop, &step) < 0 || !bytes_like_arg(r[2], &p, &n))
        return -1;
    if (!(m = open_self_for_effect(r[0], "__setitem__")) || check_writable(m) < 0)
        return -1;
    const MapState *s = state_of(m);
    int64_t cnt = slice_adjust(s->size, &start, &stop, step);
    bytes_like(r[2], &p, &n);   /* after the calls above: r[2] may have moved */
    if (n != (cnt > 0 ? cnt : 0)) {
        err_set(E_IndexError, "mmap slice assignment is wrong size");
        return -1;
    }
    for (int64_t j = 0; j < n; j++)
        s->data[start + j * step] = p[j];
    return 0;
}

static int map_setitem_slot(Obj self, Obj key, Obj v)
{
    Obj *r = vm_roots(3);
    r[0] = self;
    r[1] = key;
    r[2] = v;
    int rc = map_setitem_rooted(r);
    vm_unroots(r);
    return rc;
}

/* Iteration: one-byte bytes objects, as CPython's sequence protocol gives. */
static Obj map_iter_slot(Obj self)
{
    if (!open_self(self, "__iter__"))
        return NULL;
    return iter_alloc(T_mmap_iterator, self, 0);
}

static Obj map_iter_next(Obj it)
{
    Obj m = vm_unwrap(ITER(it)->a);
    if (!m)
        return NULL;
    const MapState *s = state_of(m);
    int64_t i = ITER(it)->i;
    if (!s->data) {
        err_set(E_ValueError, "mmap closed or invalid");
        return NULL;
    }
    if (i >= s->size) {
        VM_WRITE(it);
        ITER(it)->a = NULL;
        return NULL;
    }
    char c = s->data[i];
    VM_WRITE(it);
    ITER(it)->i = i + 1;
    return bytes_new(&c, 1);
}

/* ------------------------------------------------------------------ */
/* repr, types, module                                                 */
/* ------------------------------------------------------------------ */

static Obj map_repr(Obj self)
{
    Obj m = vm_unwrap(self);
    const MapState *s = state_of(m);
    if (!s->data)
        return str_from_format("<%s closed=True>", TYPE(self) == T_mmap ? "mmap.mmap" : type_name(self));
    static const char *const access_names[] = {"ACCESS_DEFAULT", "ACCESS_READ", "ACCESS_WRITE", "ACCESS_COPY"};
    return str_from_format("<%s closed=False, access=%s, length=%lld, pos=%lld, offset=%lld>",
                           TYPE(self) == T_mmap ? "mmap.mmap" : type_name(self), access_names[s->access & 3],
                           (long long)s->size, (long long)s->pos, (long long)s->offset);
}

static const MethodDef map_methods[] = {
    {"close", map_close, METH_NOARGS, NULL},
    {"find", map_find, METH_KW, NULL},
    {"rfind", map_rfind, METH_KW, NULL},
    {"flush", map_flush, METH_ARGS(0, 2), NULL},
    {"madvise", map_madvise, METH_ARGS(1, 3), NULL},
    {"move", map_move, METH_ARGS(3, 3), NULL},
    {"read", map_read, METH_KW, NULL},
    {"read_byte", map_read_byte, METH_NOARGS, NULL},
    {"readline", map_readline, METH_NOARGS, NULL},
    {"resize", map_resize, METH_ARGS(1, 1), NULL},
    {"seek", map_seek, METH_ARGS(1, 2), NULL},
    {"size", map_size, METH_NOARGS, NULL},
    {"tell", map_tell, METH_NOARGS, NULL},
    {"write", map_write, METH_O, NULL},
    {"write_byte", map_write_byte, METH_O, NULL},
    {"__enter__", map_enter, METH_NOARGS, NULL},
    {"__exit__", map_exit, METH_ARGS(0, 3), NULL},
    {"__del__", map_del, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static void make_types(void)
{
    TypeObj *t = (TypeObj *)type_new_builtin("mmap.mmap", T_object, TID_ITER,
                                             TPF_BASETYPE | TPF_ITER_VALUE | TPF_DOTTED_NAME);
    VM_WRITE_RARE(t);
    t->tp_new = map_new;
    t->tp_repr = map_repr;
    t->tp_len = map_len_slot;
    t->tp_getitem = map_getitem_slot;
    t->tp_setitem = map_setitem_slot;
    t->tp_iter = map_iter_slot;
    type_add_methods(t, map_methods);
    type_add_getset(t, "closed", map_closed, NULL);
    type_ready(t);
    T_mmap = t;
    T_mmap_iterator = iter_make_type("iterator", map_iter_next, false);
}

#define CONST(NAME) {#NAME, NAME}
static const struct {
    const char *name;
    int64_t value;
} map_constants[] = {
    CONST(PROT_EXEC), CONST(PROT_READ), CONST(PROT_WRITE),
    CONST(MAP_SHARED), CONST(MAP_PRIVATE), CONST(MAP_DENYWRITE), CONST(MAP_EXECUTABLE),
    CONST(MAP_ANON), CONST(MAP_ANONYMOUS), CONST(MAP_POPULATE), CONST(MAP_STACK),
    CONST(ACCESS_DEFAULT), CONST(ACCESS_READ), CONST(ACCESS_WRITE), CONST(ACCESS_COPY),
    CONST(MADV_NORMAL), CONST(MADV_RANDOM), CONST(MADV_SEQUENTIAL), CONST(MADV_WILLNEED),
    CONST(MADV_DONTNEED), CONST(MADV_REMOVE), CONST(MADV_DONTFORK), CONST(MADV_DOFORK),
    CONST(MADV_HWPOISON), CONST(MADV_MERGEABLE), CONST(MADV_UNMERGEABLE), CONST(MADV_HUGEPAGE),
    CONST(MADV_NOHUGEPAGE), CONST(MADV_DONTDUMP), CONST(MADV_DODUMP), CONST(MADV_FREE),
};
#undef CONST

Obj mmap_module_init(void)
{
    if (!T_mmap) {   /* module inits run inevitable: C globals may be written */
        make_types();
        if (!T_mmap || !T_mmap_iterator)
            return err_nomemory();
        vm_hooks.mapped_buffer = mapped_buffer;
        vm_hooks.mapped_export = mapped_export;
    }
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = module_new("mmap");
    if (!r[0] || module_add(r[0], "mmap", (Obj)T_mmap) < 0 || module_add(r[0], "error", (Obj)E_OSError) < 0)
        goto out;
    for (size_t k = 0; k < sizeof map_constants / sizeof map_constants[0]; k++) {
        r[1] = int_from_i64(map_constants[k].value);
        if (!r[1] || module_add(r[0], map_constants[k].name, r[1]) < 0)
            goto out;
    }
    long page = sysconf(_SC_PAGESIZE);
    r[1] = int_from_i64(page);
    if (!r[1] || module_add(r[0], "PAGESIZE", r[1]) < 0 || module_add(r[0], "ALLOCATIONGRANULARITY", r[1]) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
