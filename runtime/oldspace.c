#define _GNU_SOURCE
#include "oldspace.h"
#include "fatal.h"
#include "gc_internal.h"
#include "object.h"
#include "segment.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Size classes: every 16 bytes up to 512, then coarser steps to 2048. */
static const uint16_t class_size[] = {
    16,  32,  48,  64,  80,  96,  112, 128, 144, 160, 176, 192, 208, 224, 240, 256,
    272, 288, 304, 320, 336, 352, 368, 384, 400, 416, 432, 448, 464, 480, 496, 512,
    640, 768, 1024, 1360, 2048,
};
#define NCLASSES (int)(sizeof class_size / sizeof class_size[0])
static uint8_t class_of[TM_SMALL_MAX / 16 + 1];   /* by size / 16 */
static uint64_t class_valid[NCLASSES][4];         /* bits of real slots in a page */

typedef struct smallpage {
    uintptr_t so;
    uint16_t slot_size, nslots, nfree;
    uint8_t cls, seg;
    uint64_t used[4];
    uint64_t mark[4];
    struct smallpage *next_partial;   /* in its segment's list for its class */
} smallpage;

enum { PAGE_FREE, PAGE_SMALL, PAGE_LARGE, PAGE_LARGE_TAIL };

typedef struct pageinfo {
    uint8_t kind;
    uint8_t marked;     /* PAGE_LARGE */
    uint8_t released;   /* PAGE_FREE whose memory went back to the kernel */
    uint32_t npages;    /* PAGE_LARGE: run length */
    smallpage *sp;      /* PAGE_SMALL */
} pageinfo;

typedef struct run { size_t first, n; } run;

static pageinfo *pages;        /* one per old-space page */
static size_t npages_total;
static size_t hw;              /* pages at or above hw were never handed out (or were given back) */
static run *runs;              /* free runs below hw, sorted by address */
static size_t nruns, capruns, free_in_runs;
static size_t free_kept;       /* free pages below hw whose memory stays mapped (not released) */
static pthread_mutex_t pages_lock = PTHREAD_MUTEX_INITIALIZER;

static struct segalloc {
    smallpage *current[NCLASSES];
    smallpage *partial[NCLASSES];
} segalloc[TM_MAX_SEGMENTS + 1];

static smallpage **small_pages;   /* every small page in use */
static size_t nsmall, capsmall;
static uintptr_t *large_objs;     /* every old large object */
static size_t nlarge, caplarge;

size_t tm_old_bytes_used, tm_old_pages_in_use, tm_old_large_count, tm_old_large_bytes_promoted;
uint64_t tm_old_pages_released;

static uintptr_t page_so(size_t i) { return tm_seg.old_start + i * TM_PAGE_SIZE; }
static size_t page_of(uintptr_t so) { return (so - tm_seg.old_start) / TM_PAGE_SIZE; }

static void *grow(void *arr, size_t *cap, size_t elem)
{
    size_t ncap = *cap ? *cap * 2 : 1024;
    void *p = realloc(arr, ncap * elem);
    if (!p)
        tm_fatal("out of C memory for old-space bookkeeping");
    *cap = ncap;
    return p;
}

/* TMPY_GC_VERIFY (debugging): who freed an old slot last. */
#define FREED_LOG (1u << 20)
static struct freed_rec { uintptr_t so; uint16_t tid; uint8_t how, seg; uint32_t when; } *freed_log;

void tm_oldspace_init(void)
{
    npages_total = (tm_seg.segment_size - tm_seg.old_start) / TM_PAGE_SIZE;
    if (tm_cfg.gc_verify && !freed_log && !(freed_log = calloc(FREED_LOG, sizeof *freed_log)))
        tm_fatal("out of C memory for TMPY_GC_VERIFY's record of freed objects");
    pages = mmap(NULL, npages_total * sizeof *pages, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (pages == MAP_FAILED)
        tm_fatal("cannot allocate the old-space page table");
    for (int c = 0, s = 1; c < NCLASSES; c++) {
        for (; s <= TM_SMALL_MAX / 16 && s * 16 <= class_size[c]; s++)
            class_of[s] = (uint8_t)c;
        unsigned n = TM_PAGE_SIZE / class_size[c];
        for (unsigned i = 0; i < n; i++)
            class_valid[c][i / 64] |= 1ULL << (i % 64);
    }
}

/* Raised by frees of big objects (pages_free), as glibc's malloc raises its
 * mmap threshold after a big free: a program that makes and drops a 10 MiB
 * object again and again (asyncio's `data = data[n:]` at each write) keeps
 * two of them mapped instead of faulting 2560 pages in every time. Capped
 * at twice 32 MiB, glibc's own bound, so memory stays as python3's. */
#define RETAIN_EXTRA_MAX (2 * (32u << 20) / TM_PAGE_SIZE)
static size_t retain_extra;

size_t tm_old_retained_pages(void)
{
    return 2 * (tm_seg.nursery_end - tm_seg.nursery_start) / TM_PAGE_SIZE + 256 + retain_extra;
}

uintptr_t tm_old_high_water(void)
{
    return page_so(__atomic_load_n(&hw, __ATOMIC_RELAXED));
}

size_t tm_old_free_bytes(void)
{
    return (npages_total - hw + free_in_runs) * TM_PAGE_SIZE;
}

/* Hand out n contiguous pages: first fit in the free runs, else above hw
 * (*fresh set: never used, so they read as zero). */
static size_t pages_alloc(size_t n, bool *fresh)
{
    *fresh = false;
    size_t first = (size_t)-1;
    pthread_mutex_lock(&pages_lock);
    for (size_t i = 0; i < nruns; i++) {
        if (runs[i].n >= n) {
            first = runs[i].first;
            runs[i].first += n;
            runs[i].n -= n;
            if (runs[i].n == 0)
                memmove(&runs[i], &runs[i + 1], (--nruns - i) * sizeof *runs);
            free_in_runs -= n;
            break;
        }
    }
    if (first != (size_t)-1)
        for (size_t i = first; i < first + n; i++)
            free_kept -= !pages[i].released;
    if (first == (size_t)-1 && n <= npages_total - hw) {
        first = hw;
        hw += n;
        *fresh = true;
    }
    if (first != (size_t)-1)
        tm_old_pages_in_use += n;
    pthread_mutex_unlock(&pages_lock);
    return first;
}

/* Give n pages to the free runs (coalesced), and back to the kernel unless
 * the free pages kept mapped stay within tm_old_retained_pages(): a big
 * young object that dies at each minor collection (a socket's 256 KiB reads,
 * a buffer's copy) then reuses its pages instead of punching a hole in the
 * memfd and faulting them in again (asyncio_tcp made 11,000 fallocate calls
 * and spent two thirds of its time in the kernel). alloc_large clears kept
 * pages that must read as zero. */
static void pages_free(size_t first, size_t n)
{
    pthread_mutex_lock(&pages_lock);
    bool keep = free_kept + n <= tm_old_retained_pages();
    if (keep)
        free_kept += n;
    else if (2 * n > retain_extra && 2 * n <= RETAIN_EXTRA_MAX)
        retain_extra = 2 * n;   /* the next one this size stays */
    pthread_mutex_unlock(&pages_lock);
    if (!keep)   /* before the pages are free: nobody may take them while the hole is punched */
        tm_pages_release(page_so(first), n);
    pthread_mutex_lock(&pages_lock);
    for (size_t i = first; i < first + n; i++)
        pages[i] = (pageinfo){.kind = PAGE_FREE, .released = !keep};
    tm_old_pages_in_use -= n;
    if (!keep)
        tm_old_pages_released += n;
    size_t lo = 0, hi = nruns;   /* insertion point: first run after `first` */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (runs[mid].first < first) lo = mid + 1; else hi = mid;
    }
    bool join_prev = lo > 0 && runs[lo - 1].first + runs[lo - 1].n == first;
    bool join_next = lo < nruns && first + n == runs[lo].first;
    if (join_prev && join_next) {
        runs[lo - 1].n += n + runs[lo].n;
        memmove(&runs[lo], &runs[lo + 1], (--nruns - lo) * sizeof *runs);
    } else if (join_prev) {
        runs[lo - 1].n += n;
    } else if (join_next) {
        runs[lo].first = first;
        runs[lo].n += n;
    } else {
        if (nruns == capruns)
            runs = grow(runs, &capruns, sizeof *runs);
        memmove(&runs[lo + 1], &runs[lo], (nruns - lo) * sizeof *runs);
        runs[lo] = (run){first, n};
        nruns++;
    }
    free_in_runs += n;
    pthread_mutex_unlock(&pages_lock);
}

static smallpage *new_small_page(int seg, int c)
{
    bool fresh;
    size_t i = pages_alloc(1, &fresh);
    if (i == (size_t)-1)
        return NULL;
    smallpage *sp = calloc(1, sizeof *sp);
    if (!sp)
        tm_fatal("out of C memory for old-space bookkeeping");
    sp->so = page_so(i);
    sp->slot_size = class_size[c];
    sp->nslots = sp->nfree = (uint16_t)(TM_PAGE_SIZE / class_size[c]);
    sp->cls = (uint8_t)c;
    sp->seg = (uint8_t)seg;
    pthread_mutex_lock(&pages_lock);
    pages[i] = (pageinfo){.kind = PAGE_SMALL, .sp = sp};
    if (nsmall == capsmall)
        small_pages = grow(small_pages, &capsmall, sizeof *small_pages);
    small_pages[nsmall++] = sp;
    pthread_mutex_unlock(&pages_lock);
    return sp;
}

static uintptr_t alloc_small(int seg, size_t size)
{
    int c = class_of[size / 16];
    struct segalloc *sa = &segalloc[seg];
    smallpage *sp = sa->current[c];
    if (!sp || !sp->nfree) {
        sp = sa->partial[c];
        if (sp)
            sa->partial[c] = sp->next_partial;
        else if (!(sp = new_small_page(seg, c)))
            return 0;
        sa->current[c] = sp;
    }
    for (int w = 0;; w++) {
        uint64_t freebits = ~sp->used[w] & class_valid[c][w];
        if (freebits) {
            int b = __builtin_ctzll(freebits);
            sp->used[w] |= 1ULL << b;
            sp->nfree--;
            __atomic_add_fetch(&tm_old_bytes_used, sp->slot_size, __ATOMIC_RELAXED);   /* segments allocate in parallel */
            return sp->so + (uintptr_t)(w * 64 + b) * sp->slot_size;
        }
    }
}

/* zero_seg >= 0: the pages must read as zero, and are cleared through that
 * segment's view (the one that will write them: clearing them through
 * segment 0 mapped every page of every big young object there too, twice
 * its size in RSS). Fresh pages and released ones read as zero already. */
static uintptr_t alloc_large(size_t size, int zero_seg)
{
    size_t n = (size + TM_PAGE_SIZE - 1) / TM_PAGE_SIZE;
    bool fresh;
    size_t i = pages_alloc(n, &fresh);
    if (i == (size_t)-1)
        return 0;
    if (zero_seg >= 0)
        tm_check_unprotect(zero_seg, page_so(i), size);   /* before the clearing stores */
    if (zero_seg >= 0 && !fresh) {
        tm_compiler_barrier();
        for (size_t j = i; j < i + n; j++)
            if (!pages[j].released)
                memset(tm_segment_base(zero_seg) + page_so(j), 0, TM_PAGE_SIZE);
        tm_compiler_barrier();
    }
    pages[i] = (pageinfo){.kind = PAGE_LARGE, .npages = (uint32_t)n};
    for (size_t j = 1; j < n; j++)
        pages[i + j] = (pageinfo){.kind = PAGE_LARGE_TAIL};
    return page_so(i);
}

void tm_old_large_promoted(uintptr_t so)
{
    pthread_mutex_lock(&pages_lock);
    if (nlarge == caplarge)
        large_objs = grow(large_objs, &caplarge, sizeof *large_objs);
    large_objs[nlarge++] = so;
    tm_old_large_count++;
    pages[page_of(so)].marked = 0;   /* a major collection may have marked it while young */
    tm_old_bytes_used += pages[page_of(so)].npages * TM_PAGE_SIZE;
    tm_old_large_bytes_promoted += pages[page_of(so)].npages * TM_PAGE_SIZE;
    pthread_mutex_unlock(&pages_lock);
}

uintptr_t tm_old_alloc(int seg, size_t size)
{
    uintptr_t so;
    if (size <= TM_SMALL_MAX) {
        so = alloc_small(seg, size);
    } else {
        so = alloc_large(size, -1);
        if (so)
            tm_old_large_promoted(so);
    }
    if (so)
        tm_check_unprotect(seg, so, size);
    return so;
}

uintptr_t tm_old_alloc_young_large(int seg, size_t size) { return alloc_large(size, seg); }

void tm_old_large_free(uintptr_t so)
{
    size_t i = page_of(so);
    pages_free(i, pages[i].npages);
}

uintptr_t tm_old_alloc_young(int seg, size_t size)
{
    if (size > TM_SMALL_MAX)
        return tm_old_alloc_young_large(seg, size);
    uintptr_t so = alloc_small(seg, size);
    if (so) {
        tm_check_unprotect(seg, so, size);
        char *p = tm_segment_base(seg) + so;
        tm_compiler_barrier();
        memset(p, 0, size);
        tm_compiler_barrier();
    }
    return so;
}

void tm_old_young_promoted(uintptr_t so)
{
    if (pages[page_of(so)].kind != PAGE_SMALL)
        tm_old_large_promoted(so);
    /* a small slot was counted in use when it was handed out */
}

/* TMPY_GC_VERIFY (debugging): who freed an old slot last, for the message
 * of a reference to it. Direct-mapped by address. */
static uint32_t freed_majors;
/* Made at start-up (tm_oldspace_init): segments' minor collections note in parallel. */
static bool freed_log_ready(void) { return freed_log != NULL; }
void tm_old_note_freed(uintptr_t so, int how, int seg)
{
    if (!freed_log_ready())
        return;
    struct freed_rec *r = &freed_log[(so >> 4) & (FREED_LOG - 1)];
    *r = (struct freed_rec){so, ((object_t *)so)->h.tid, (uint8_t)how, (uint8_t)seg, freed_majors};
}
void tm_old_describe_freed(uintptr_t so)
{
    static const char *const hows[] = {"a minor collection (young outside, unreached)",
                                       "an abort (young outside)", "a major collection's sweep"};
    struct freed_rec *r = freed_log ? &freed_log[(so >> 4) & (FREED_LOG - 1)] : NULL;
    if (!r || r->so != so) {
        fprintf(stderr, "tmpy: (SO %#lx: no record of its freeing)\n", (unsigned long)so);
        return;
    }
    fprintf(stderr, "tmpy: (SO %#lx, layout '%s', was freed by %s in segment %d, after %u major collections; now %u)\n",
            (unsigned long)so, r->tid < tm_ntypes ? tm_types[r->tid].name : "?", hows[r->how], r->seg,
            r->when, freed_majors);
}

/* Only the segment whose allocator owns the page frees a slot in it (its
 * own transaction's young object), or a collector with the world stopped. */
void tm_old_young_free(uintptr_t so)
{
    pageinfo *pi = &pages[page_of(so)];
    if (pi->kind != PAGE_SMALL) {
        tm_old_large_free(so);
        return;
    }
    smallpage *sp = pi->sp;
    unsigned slot = (unsigned)(so - sp->so) / sp->slot_size;
    uint64_t bit = 1ULL << (slot % 64);
    if (!(sp->used[slot / 64] & bit))
        tm_fatal("freeing SO %#lx, which is not an allocated small object", (unsigned long)so);
    sp->used[slot / 64] &= ~bit;
    sp->mark[slot / 64] &= ~bit;
    __atomic_sub_fetch(&tm_old_bytes_used, sp->slot_size, __ATOMIC_RELAXED);
    struct segalloc *sa = &segalloc[sp->seg];
    if (sp->nfree++ == 0 && sa->current[sp->cls] != sp) {   /* full pages are on no list */
        sp->next_partial = sa->partial[sp->cls];
        sa->partial[sp->cls] = sp;
    }
}

bool tm_old_mark(uintptr_t so)
{
    pageinfo *pi = &pages[page_of(so)];
    if (pi->kind == PAGE_SMALL) {
        smallpage *sp = pi->sp;
        unsigned slot = (unsigned)(so - sp->so) / sp->slot_size;
        uint64_t bit = 1ULL << (slot % 64);
        if (!(sp->used[slot / 64] & bit) || (so - sp->so) % sp->slot_size)
        {
            tm_old_describe_freed(so);
            tm_fatal("reference to SO %#lx, which is not an allocated old object", (unsigned long)so);
        }
        if (sp->mark[slot / 64] & bit)
            return false;
        sp->mark[slot / 64] |= bit;
        return true;
    }
    if (pi->kind == PAGE_LARGE && so % TM_PAGE_SIZE == 0) {
        if (pi->marked)
            return false;
        pi->marked = 1;
        return true;
    }
    tm_fatal("reference to SO %#lx, which is not an old object (page kind %d)",
             (unsigned long)so, pi->kind);
}

/* Debugging (TMPY_GC_VERIFY): fn on every marked object, before the sweep. */
void tm_old_foreach_marked(void (*fn)(uintptr_t so, void *ctx), void *ctx)
{
    for (size_t i = 0; i < nsmall; i++) {
        smallpage *sp = small_pages[i];
        for (unsigned slot = 0; slot < sp->nslots; slot++)
            if (sp->mark[slot / 64] & (1ULL << (slot % 64)))
                fn(sp->so + (uintptr_t)slot * sp->slot_size, ctx);
    }
    for (size_t i = 0; i < nlarge; i++)
        if (pages[page_of(large_objs[i])].marked)
            fn(large_objs[i], ctx);
}

bool tm_old_is_marked(uintptr_t so)
{
    pageinfo *pi = &pages[page_of(so)];
    if (pi->kind == PAGE_SMALL) {
        smallpage *sp = pi->sp;
        unsigned slot = (unsigned)(so - sp->so) / sp->slot_size;
        return sp->mark[slot / 64] & (1ULL << (slot % 64));
    }
    return pi->kind == PAGE_LARGE && pi->marked;
}

/* Is so the start of an allocated old object (a small slot in use, or the
 * first page of a big one)? For checks. */
bool tm_old_is_allocated(uintptr_t so)
{
    if (so < tm_seg.old_start || so >= tm_old_high_water())
        return false;
    pageinfo *pi = &pages[page_of(so)];
    if (pi->kind == PAGE_SMALL) {
        const smallpage *sp = pi->sp;
        unsigned slot = (unsigned)(so - sp->so) / sp->slot_size;
        return (so - sp->so) % sp->slot_size == 0 && (sp->used[slot / 64] & (1ULL << (slot % 64)));
    }
    return pi->kind == PAGE_LARGE && so % TM_PAGE_SIZE == 0;
}

size_t tm_old_objects_freed;

/* Dead containers among a small page's freed slots (bitmaps of 64). */
static uint64_t dead_containers(const smallpage *sp, int w, uint64_t dead)
{
    uint64_t n = 0;
    for (; dead; dead &= dead - 1) {
        uintptr_t so = sp->so + (uintptr_t)(w * 64 + __builtin_ctzll(dead)) * sp->slot_size;
        n += tm_tid_holds_refs(((object_t *)so)->h.tid);
    }
    return n;
}

void tm_old_sweep(uint64_t *dead)
{
    size_t used = 0, freed = 0;
    uint64_t containers = 0;
    memset(segalloc, 0, sizeof segalloc);
    /* Small pages: keep marked slots; empty pages become free. */
    for (size_t i = nsmall; i-- > 0;) {
        smallpage *sp = small_pages[i];
        unsigned live = 0;
        for (int w = 0; w < 4; w++) {
            freed += (size_t)__builtin_popcountll(sp->used[w] & ~sp->mark[w]);
            if (freed_log_ready())
                for (uint64_t b = sp->used[w] & ~sp->mark[w]; b; b &= b - 1) {
                    uintptr_t so = sp->so + ((uintptr_t)w * 64 + (uintptr_t)__builtin_ctzll(b)) * sp->slot_size;
                    tm_old_note_freed(so, 2, 0);
                    /* poisoned in the shared view: a later use meets tid 0 */
                    ((struct tm_header *)(tm_segment_base(0) + so))->tid = 0;
                }
            if (dead)
                containers += dead_containers(sp, w, sp->used[w] & ~sp->mark[w]);
            sp->used[w] &= sp->mark[w];
            sp->mark[w] = 0;
            live += (unsigned)__builtin_popcountll(sp->used[w]);
        }
        if (live == 0) {
            pages[page_of(sp->so)] = (pageinfo){.kind = PAGE_FREE};
            small_pages[i] = small_pages[--nsmall];
            free(sp);
            continue;
        }
        sp->nfree = (uint16_t)(sp->nslots - live);
        used += (size_t)live * sp->slot_size;
        if (sp->nfree) {
            struct segalloc *sa = &segalloc[sp->seg];
            sp->next_partial = sa->partial[sp->cls];
            sa->partial[sp->cls] = sp;
        }
    }
    /* Large objects */
    for (size_t i = nlarge; i-- > 0;) {
        pageinfo *pi = &pages[page_of(large_objs[i])];
        if (pi->marked) {
            pi->marked = 0;
            used += pi->npages * TM_PAGE_SIZE;
            continue;
        }
        if (dead)
            containers += tm_tid_holds_refs(((object_t *)large_objs[i])->h.tid);
        size_t first = page_of(large_objs[i]), n = pi->npages;
        for (size_t j = 0; j < n; j++)
            pages[first + j] = (pageinfo){.kind = PAGE_FREE};
        large_objs[i] = large_objs[--nlarge];
        tm_old_large_count--;
        freed++;
    }
    tm_old_bytes_used = used;
    tm_old_objects_freed = freed;
    freed_majors++;
    if (dead)
        *dead += containers;
    /* Rebuild the free runs in address order. The first free pages stay
     * mapped (the next minor collections fill them without page faults);
     * the rest go back to the kernel. */
    nruns = 0;
    free_in_runs = 0;
    size_t in_use = 0, kept = 0;
    for (size_t i = 0; i < hw;) {
        if (pages[i].kind != PAGE_FREE) {
            in_use++;
            i++;
            continue;
        }
        size_t j = i;
        for (; j < hw && pages[j].kind == PAGE_FREE; j++) {
            if (pages[j].released)
                continue;
            if (kept < tm_old_retained_pages()) {
                kept++;
                continue;
            }
            size_t k = j;
            while (k < hw && pages[k].kind == PAGE_FREE && !pages[k].released)
                pages[k++].released = 1;
            tm_pages_release(page_so(j), k - j);
            tm_old_pages_released += k - j;
            j = k - 1;
        }
        if (nruns == capruns)
            runs = grow(runs, &capruns, sizeof *runs);
        runs[nruns++] = (run){i, j - i};
        free_in_runs += j - i;
        i = j;
    }
    tm_old_pages_in_use = in_use;
    free_kept = kept;
}
