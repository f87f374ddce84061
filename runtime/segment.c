#define _GNU_SOURCE
#include "segment.h"
#include "fatal.h"

#include <asm/prctl.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef HWCAP2_FSGSBASE
#define HWCAP2_FSGSBASE (1 << 1)
#endif

tm_layout tm_seg;
__thread char *tm_gs_base;

/* One bit per old-space page per segment: is it private in that segment? */
static uint8_t *private_map[TM_MAX_SEGMENTS + 1];
static size_t private_count[TM_MAX_SEGMENTS + 1];
/* One past the last 64-page word of private_map[seg] that ever had a bit
 * set: scans of a segment's private pages stop there, not at the end of its
 * 16 GiB (a 512 KiB bitmap, read at every re-share for a solo transaction:
 * 14% of a program that starts and joins threads in a loop). */
static size_t private_words_hi[TM_MAX_SEGMENTS + 1];
static pthread_mutex_t private_lock = PTHREAD_MUTEX_INITIALIZER;
static size_t private_total, private_budget;

static uintptr_t align_up(uintptr_t x, uintptr_t a) { return (x + a - 1) & ~(a - 1); }

static int map_fixed(char *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    void *p = mmap(addr, len, prot, flags | MAP_FIXED, fd, off);
    return p == MAP_FAILED ? -1 : 0;
}

int tm_segments_init(int nsegments, size_t segment_size, size_t nursery_size,
                     char *err, size_t errlen)
{
    if (tm_seg.base)
        return 0;
    /* Objects start after the markers, which cover the whole segment at 1/16. */
    uintptr_t first_object = align_up(segment_size / 16, 1UL << 21);
    tm_layout L = {
        .nsegments = nsegments,
        .segment_size = segment_size,
        .markers_start = first_object / 16,
        .markers_end = first_object,
        .nursery_start = first_object,
        .nursery_end = first_object + nursery_size,
        .old_start = align_up(first_object + nursery_size, 1UL << 21),
        .memfd = -1,
    };
    if (L.markers_start < TM_SEGLOCAL_OFFSET + TM_SEGLOCAL_SIZE || L.old_start >= segment_size) {
        snprintf(err, errlen, "segment size %zu is too small for a nursery of %zu bytes",
                 segment_size, nursery_size);
        return -1;
    }
    size_t total = (size_t)(nsegments + 1) * segment_size;
    char *base = mmap(NULL, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) {
        snprintf(err, errlen, "cannot reserve %zu bytes of address space for %d segments of %zu bytes: %s",
                 total, nsegments + 1, segment_size, strerror(errno));
        return -1;
    }
    L.base = base;
    L.memfd = memfd_create("tmpy-old-space", MFD_CLOEXEC);
    if (L.memfd < 0 || ftruncate(L.memfd, (off_t)segment_size) != 0) {
        snprintf(err, errlen, "cannot create the shared object space (memfd of %zu bytes): %s",
                 segment_size, strerror(errno));
        munmap(base, total);
        return -1;
    }
    const int rw = PROT_READ | PROT_WRITE;
    const int priv = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
    for (int s = 0; s <= nsegments; s++) {
        char *b = base + (size_t)s * segment_size;
        if (map_fixed(b + TM_SEGLOCAL_OFFSET, TM_SEGLOCAL_SIZE, rw, priv, -1, 0) ||
            map_fixed(b + L.markers_start, L.markers_end - L.markers_start, rw, priv, -1, 0) ||
            map_fixed(b + L.nursery_start, L.nursery_end - L.nursery_start, rw, priv, -1, 0) ||
            map_fixed(b + L.old_start, segment_size - L.old_start, rw, MAP_SHARED | MAP_NORESERVE,
                      L.memfd, (off_t)L.old_start)) {
            snprintf(err, errlen, "cannot map segment %d: %s", s, strerror(errno));
            munmap(base, total);
            close(L.memfd);
            return -1;
        }
        size_t bits = (segment_size - L.old_start) / TM_PAGE_SIZE;
        private_map[s] = mmap(NULL, align_up(bits / 8 + 8, TM_PAGE_SIZE), rw, priv, -1, 0);
        if (private_map[s] == MAP_FAILED) {
            snprintf(err, errlen, "cannot allocate the private-page map: %s", strerror(errno));
            return -1;
        }
    }
    L.fsgsbase = (getauxval(AT_HWCAP2) & HWCAP2_FSGSBASE) && !getenv("TMPY_NO_WRGSBASE");
    /* An isolated private page costs two kernel mappings; leave room for
     * everything else the process maps. */
    size_t max_maps = 65530;
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    if (f) {
        if (fscanf(f, "%zu", &max_maps) != 1)
            max_maps = 65530;
        fclose(f);
    }
    private_budget = max_maps > 8192 ? (max_maps - 4096) / 2 : max_maps / 4;
    /* Tests: a small budget reaches the re-share paths in a few pages. */
    const char *budget = getenv("TMPY_STM_TEST_PAGE_BUDGET");
    if (budget && atol(budget) > 0)
        private_budget = (size_t)atol(budget);
    tm_seg = L;
    return 0;
}

void tm_set_segment(int seg)
{
    char *b = tm_segment_base(seg);
    if (tm_seg.fsgsbase)
        __asm__ __volatile__("wrgsbase %0" ::"r"(b) : "memory");
    else if (syscall(SYS_arch_prctl, ARCH_SET_GS, b) != 0)
        tm_fatal("arch_prctl(ARCH_SET_GS) failed: %s", strerror(errno));
    tm_gs_base = b;
}

static size_t page_index(uintptr_t so) { return (so - tm_seg.old_start) / TM_PAGE_SIZE; }

static void check_range(uintptr_t so, size_t npages)
{
    if (so < tm_seg.old_start || so % TM_PAGE_SIZE ||
        npages > (tm_seg.segment_size - so) / TM_PAGE_SIZE)
        tm_fatal("page range %#lx+%zu is not in old space", (unsigned long)so, npages);
}

static void set_private(int seg, uintptr_t so, size_t npages, bool on)
{
    pthread_mutex_lock(&private_lock);
    for (size_t i = page_index(so), e = i + npages; i < e; i++) {
        uint8_t bit = (uint8_t)(1u << (i & 7));
        bool was = private_map[seg][i >> 3] & bit;
        if (was != on) {
            if (on && i / 64 >= private_words_hi[seg])
                private_words_hi[seg] = i / 64 + 1;
            private_map[seg][i >> 3] ^= bit;
            private_count[seg] += on ? 1 : (size_t)-1;
            private_total += on ? 1 : (size_t)-1;
        }
    }
    pthread_mutex_unlock(&private_lock);
}

int tm_pages_privatise(int seg, uintptr_t so, size_t npages)
{
    check_range(so, npages);
    char *dst = tm_segment_base(seg) + so;
    size_t len = npages * TM_PAGE_SIZE;
    tm_compiler_barrier();
    /* MAP_POPULATE: the pages are allocated in the call, not one page
     * fault each in the read below (a fault cost 4 us on this machine: a
     * run of 8 pages took 6.2 us a page with faults, 5.1 us populated;
     * bench/results/set_privatise.txt). */
    if (map_fixed(dst, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0) != 0)
        return -1;
    /* The shared pages' contents, from the memfd: a copy through segment 0
     * would map them there too, which RSS counts again. */
    for (size_t done = 0; done < len;) {
        ssize_t n = pread(tm_seg.memfd, dst + done, len - done, (off_t)(so + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            tm_fatal("cannot read old-space pages from the memfd: %s", n < 0 ? strerror(errno) : "end of file");
        done += (size_t)n;
    }
    tm_compiler_barrier();
    set_private(seg, so, npages, true);
    return 0;
}

int tm_pages_reshare(int seg, uintptr_t so, size_t npages)
{
    check_range(so, npages);
    tm_compiler_barrier();
    int prot = tm_check_writes && seg >= 1 ? PROT_READ : PROT_READ | PROT_WRITE;
    if (map_fixed(tm_segment_base(seg) + so, npages * TM_PAGE_SIZE, prot,
                  MAP_SHARED | MAP_NORESERVE, tm_seg.memfd, (off_t)so) != 0)
        return -1;
    set_private(seg, so, npages, false);
    return 0;
}

bool tm_page_is_private(int seg, uintptr_t so)
{
    size_t i = page_index(so);
    return private_map[seg][i >> 3] & (1u << (i & 7));
}

/* The first page private in seg in [lo, hi) (page offsets), or hi. */
static uintptr_t first_private_page(int seg, uintptr_t lo, uintptr_t hi)
{
    const uint64_t *words = (const uint64_t *)private_map[seg];
    for (size_t i = page_index(lo), end = page_index(hi); i < end;) {
        uint64_t bits = words[i / 64] >> (i % 64);
        if (bits) {
            i += (size_t)__builtin_ctzll(bits);
            return i < end ? tm_seg.old_start + i * TM_PAGE_SIZE : hi;
        }
        i = (i / 64 + 1) * 64;
    }
    return hi;
}

bool tm_gs_next_data(uintptr_t from, uintptr_t to, uintptr_t *s, uintptr_t *e)
{
    if (from >= to)
        return false;
    if (from < tm_seg.old_start || to > tm_seg.segment_size) {   /* not the memfd's: all of it */
        *s = from, *e = to;
        return true;
    }
    int seg = (int)((size_t)(tm_gs_base - tm_seg.base) / tm_seg.segment_size);
    uintptr_t page = from & ~(uintptr_t)(TM_PAGE_SIZE - 1);
    off_t d = lseek(tm_seg.memfd, (off_t)page, SEEK_DATA);
    if (d < 0 && errno != ENXIO) {   /* cannot tell: all of it */
        *s = from, *e = to;
        return true;
    }
    uintptr_t data = d < 0 || (uintptr_t)d > to ? to : (uintptr_t)d;
    uintptr_t p = first_private_page(seg, page, data);
    if (p < data) {   /* a private copy of a hole: up to the next shared page */
        uintptr_t q = p;
        while (q < to && tm_page_is_private(seg, q))
            q += TM_PAGE_SIZE;
        *s = p > from ? p : from, *e = q < to ? q : to;
        return true;
    }
    if (data >= to)
        return false;
    /* The page holding `data` is data: a range that ends in it needs no
     * SEEK_HOLE, which walks the memfd's pages up to the next hole (to the
     * end of a 100 MB dict table, once per private page the major
     * collection traces again). */
    uintptr_t hole = to;
    if (to > (data & ~(uintptr_t)(TM_PAGE_SIZE - 1)) + TM_PAGE_SIZE) {
        off_t h = lseek(tm_seg.memfd, (off_t)data, SEEK_HOLE);
        hole = h < 0 || (uintptr_t)h > to ? to : (uintptr_t)h;
    }
    *s = data > from ? data : from, *e = hole;
    return true;
}

/* Re-share in maximal runs (one mmap from a private page to the last
 * private page before the next kept one; shared pages between are mapped
 * shared again, which changes nothing): each mmap replaces many mappings by
 * one, so this works even when the kernel's mapping limit is reached. */
/* One run: [start, end) holds `private` private pages to re-share. */
typedef struct reshare_run { uintptr_t start, end; size_t private; } reshare_run;

static size_t flush_run(int seg, reshare_run *r)
{
    size_t n = r->private;
    if (n && tm_pages_reshare(seg, r->start, (r->end - r->start) / TM_PAGE_SIZE) != 0)
        tm_fatal("cannot re-share pages: %s", strerror(errno));
    r->private = 0;
    return n;
}

size_t tm_pages_reshare_unless(int seg, bool (*keep)(uintptr_t so, void *ctx), void *ctx)
{
    size_t n = 0, nwords = private_words_hi[seg];
    const uint64_t *words = (const uint64_t *)private_map[seg];
    reshare_run run = {0, 0, 0};
    for (size_t w = 0; w < nwords; w++) {
        for (uint64_t bits = words[w]; bits; bits &= bits - 1) {
            uintptr_t so = tm_seg.old_start + (w * 64 + (size_t)__builtin_ctzll(bits)) * TM_PAGE_SIZE;
            if (keep(so, ctx)) {
                n += flush_run(seg, &run);
                continue;
            }
            if (!run.private)
                run.start = so;
            run.end = so + TM_PAGE_SIZE;
            run.private++;
        }
    }
    n += flush_run(seg, &run);
    tm_check_unprotect_again(seg);   /* the runs remapped shared pages this transaction created into */
    return n;
}

bool tm_private_pages_over_budget(void)
{
    return __atomic_load_n(&private_total, __ATOMIC_RELAXED) >= private_budget;
}

size_t tm_private_page_count(int seg) { return private_count[seg]; }

void tm_view_forget_pages(int seg, uintptr_t lo, uintptr_t hi)
{
    if (seg != 0 && private_count[seg])
        tm_fatal("tm_view_forget_pages: segment %d holds private pages", seg);
    if (hi <= lo)
        return;
    check_range(lo, (hi - lo) / TM_PAGE_SIZE);
    tm_compiler_barrier();
    /* MADV_DONTNEED on a shared mapping unmaps; it frees nothing. */
    if (madvise(tm_segment_base(seg) + lo, hi - lo, MADV_DONTNEED) != 0)
        tm_fatal("cannot unmap segment %d's view of old space: %s", seg, strerror(errno));
}

void tm_pages_release(uintptr_t so, size_t npages)
{
    check_range(so, npages);
    tm_compiler_barrier();
    if (fallocate(tm_seg.memfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)so,
                  (off_t)(npages * TM_PAGE_SIZE)) != 0)
        tm_fatal("cannot release %zu old-space pages: %s", npages, strerror(errno));
}

void tm_view_forget_shared(int seg, uintptr_t lo, uintptr_t hi)
{
    if (seg == 0 || !private_count[seg]) {
        tm_view_forget_pages(seg, lo, hi);
        return;
    }
    for (uintptr_t p = lo; p < hi;) {
        uintptr_t q = first_private_page(seg, p, hi);
        if (q > p && madvise(tm_segment_base(seg) + p, q - p, MADV_DONTNEED) != 0)
            tm_fatal("cannot unmap segment %d's view of old space: %s", seg, strerror(errno));
        for (p = q; p < hi && tm_page_is_private(seg, p); p += TM_PAGE_SIZE)
            ;
    }
}

size_t tm_shared_bytes_resident(void)
{
    struct stat st;
    if (fstat(tm_seg.memfd, &st) != 0)
        return 0;
    return (size_t)st.st_blocks * 512;
}

/* Maps the memfd over pages [from, to) of seg's old space. */
static int map_shared_run(int seg, size_t from, size_t to, int prot)
{
    uintptr_t so = tm_seg.old_start + from * TM_PAGE_SIZE;
    return map_fixed(tm_segment_base(seg) + so, (to - from) * TM_PAGE_SIZE, prot, MAP_SHARED | MAP_NORESERVE,
                     tm_seg.memfd, (off_t)so);
}

/* Maps the (new) memfd over the shared runs of seg: the gaps between its
 * private pages, which fork already made the child's own (copy-on-write). */
static int remap_shared_runs(int seg)
{
    int prot = tm_check_writes && seg >= 1 ? PROT_READ : PROT_READ | PROT_WRITE;
    size_t npages = (tm_seg.segment_size - tm_seg.old_start) / TM_PAGE_SIZE, nwords = private_words_hi[seg];
    const uint64_t *words = (const uint64_t *)private_map[seg];
    size_t start = 0;
    for (size_t w = 0; w < nwords; w++)
        for (uint64_t bits = words[w]; bits; bits &= bits - 1) {
            size_t i = w * 64 + (size_t)__builtin_ctzll(bits);
            if (i > start && map_shared_run(seg, start, i, prot) != 0)
                return -1;
            start = i + 1;
        }
    if (npages > start && map_shared_run(seg, start, npages, prot) != 0)
        return -1;
    tm_check_unprotect_again(seg);
    return 0;
}

/* Copies [from, to) of the memfd into fd at the same offsets. */
static int copy_range(int fd, off_t from, off_t to)
{
    while (from < to) {
        loff_t in = from, out = from;
        ssize_t n = copy_file_range(tm_seg.memfd, &in, fd, &out, (size_t)(to - from), 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            /* no copy_file_range here: segment 0 maps every shared page */
            n = pwrite(fd, tm_seg.base + from, (size_t)(to - from), from);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return -1;
        }
        from += n;
    }
    return 0;
}

int tm_segments_fork_copy(void)
{
    int fd = memfd_create("tmpy-old-space", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    if (ftruncate(fd, (off_t)tm_seg.segment_size) != 0)
        goto fail;
    /* only the pages that hold data (the rest are holes) */
    for (off_t pos = (off_t)tm_seg.old_start, end = (off_t)tm_seg.segment_size; pos < end;) {
        off_t data = lseek(tm_seg.memfd, pos, SEEK_DATA);
        if (data < 0) {
            if (errno == ENXIO)
                break;
            goto fail;
        }
        off_t hole = lseek(tm_seg.memfd, data, SEEK_HOLE);
        if (hole < 0 || copy_range(fd, data, hole) != 0)
            goto fail;
        pos = hole;
    }
    return fd;
fail:
    close(fd);
    return -1;
}

int tm_segments_fork_child(int fd)
{
    int old = tm_seg.memfd;
    tm_seg.memfd = fd;
    for (int s = 0; s <= tm_seg.nsegments; s++)
        if (remap_shared_runs(s) != 0)
            return -1;   /* half remapped: the caller cannot go on */
    close(old);
    return 0;
}
