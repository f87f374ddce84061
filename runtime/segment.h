/* Segments (paper 004, sections 3.1-3.2 and 4.3).
 *
 * One PROT_NONE reservation holds N+1 segments of equal size. Segment 0 is the
 * sharing segment; threads run in segments 1..N. Every segment has the same
 * layout (offsets from its start):
 *
 *   [0, 4K)                       NULL page, never mapped
 *   [4K, 4K+TM_SEGLOCAL_SIZE)     segment-local data (struct tm_seglocal), private
 *   [markers_start, markers_end)  read markers, one byte per 16 bytes of segment, private
 *   [nursery_start, nursery_end)  nursery, private
 *   [old_start, segment_size)     old object space: MAP_SHARED from one memfd whose
 *                                 file offset equals the segment offset
 *
 * Object references are segment offsets (SO), dereferenced through %gs, so one
 * reference means the same object in every segment. Code that needs a linear
 * address (libc, memcpy) converts with tm_linear() and nothing else. */
#ifndef TM_SEGMENT_H
#define TM_SEGMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The build: 0 for the GIL build, 1 for the STM build (the Makefile sets it). */
#ifndef TM_STM
#define TM_STM 0
#endif

#define TM_PAGE_SIZE 4096UL
#define TM_SEGLOCAL_OFFSET 4096UL
#define TM_SEGLOCAL_SIZE (16 * TM_PAGE_SIZE)
#define TM_MAX_SEGMENTS 63                 /* a segment number fits a write-lock byte */
#define TM_MIN_SEGMENT_SIZE (64UL << 20)
#define TM_MAX_RESERVATION (64UL << 40)    /* half the 47-bit user address space */

typedef struct tm_layout {
    int nsegments;            /* N */
    size_t segment_size;
    uintptr_t markers_start, markers_end;
    uintptr_t nursery_start, nursery_end;
    uintptr_t old_start;      /* old space is [old_start, segment_size) */
    char *base;               /* linear address of segment 0 */
    int memfd;
    bool fsgsbase;            /* wrgsbase usable; else arch_prctl */
} tm_layout;

/* Written once by tm_segments_init, read-only afterwards. */
extern tm_layout tm_seg;

/* Linear start of the segment this thread's %gs points to. */
extern __thread char *tm_gs_base;

/* Reserve and map all segments. Returns 0, or -1 with a one-line message in err. */
int tm_segments_init(int nsegments, size_t segment_size, size_t nursery_size,
                     char *err, size_t errlen);

static inline char *tm_segment_base(int seg)
{
    return tm_seg.base + (size_t)seg * tm_seg.segment_size;
}

/* The one conversion from a segment offset to a linear address, in this
 * thread's current segment. */
static inline void *tm_linear(const void __seg_gs *p)
{
    return tm_gs_base + (uintptr_t)p;
}

/* Point this thread's %gs at segment `seg`. */
void tm_set_segment(int seg);

/* Reads and writes through two segments can hit the same memory; the compiler
 * does not know that, so code that mixes them puts this between. */
#define tm_compiler_barrier() __asm__ __volatile__("" ::: "memory")

/* Page privatisation in old space: map private memory over [so, so+n pages)
 * in segment `seg` and copy the pages from segment 0. Returns 0, or -1 when the
 * kernel refuses the mapping (ENOMEM: too many mappings). */
int tm_pages_privatise(int seg, uintptr_t so, size_t npages);
/* Map the shared memfd pages back over [so, so+n pages) in segment `seg`. */
int tm_pages_reshare(int seg, uintptr_t so, size_t npages);
bool tm_page_is_private(int seg, uintptr_t so);
/* Re-share every private page of `seg` for which keep(page) is false;
 * returns how many. */
size_t tm_pages_reshare_unless(int seg, bool (*keep)(uintptr_t so, void *ctx), void *ctx);
size_t tm_private_page_count(int seg);
/* All segments' private pages come close to the kernel's mapping limit
 * (vm.max_map_count; an isolated private page costs two mappings). */
bool tm_private_pages_over_budget(void);

/* Drop segment `seg`'s page-table entries for the shared pages of old space
 * in [lo, hi) (their contents stay in the memfd; the next access maps them
 * again). Segment 0, or one without private pages (whose contents this
 * would throw away). */
void tm_view_forget_pages(int seg, uintptr_t lo, uintptr_t hi);
/* The same for the shared pages of [lo, hi) in any segment: its private
 * pages stay. The segment's transaction (if any) must be parked. */
void tm_view_forget_shared(int seg, uintptr_t lo, uintptr_t hi);

/* Give the physical memory of free old-space pages back to the kernel; they
 * read as zero afterwards. */
void tm_pages_release(uintptr_t so, size_t npages);
/* Physical memory held by the shared object space, in bytes. */
size_t tm_shared_bytes_resident(void);
/* fork(): the old space's MAP_SHARED memfd would stay shared between parent
 * and child (each would see the other's writes). Before the fork, with no
 * other writer, tm_segments_fork_copy copies its pages into a new memfd
 * (returned, or -1 with errno); the child maps that one in its place in
 * every segment with tm_segments_fork_child (0, or -1 with errno: the
 * child cannot go on); the parent closes it. */
int tm_segments_fork_copy(void);
int tm_segments_fork_child(int fd);
/* Around a fork (fork.c): tm_fork_prepare before the copy (STM: parks
 * every other transaction; both builds: locks the thread registry), then
 * tm_fork_parent in the parent, and in the child tm_fork_child after
 * tm_segments_fork_child (it rolls back the other threads' transactions
 * from the committed contents, which must be the child's copy by then). */
void tm_fork_prepare(void);
void tm_fork_parent(void);
void tm_fork_child(void);

/* The write-barrier checker (barriercheck.c; STM build, TMPY_STM_CHECK=1):
 * shared old-space pages of thread segments are read-only, so a store that
 * skipped the write barrier faults and is reported. */
extern bool tm_check_writes;
void tm_check_init(void);
/* Report a barrier rule broken here, with the call stack, and abort. */
__attribute__((noreturn, format(printf, 1, 2))) void tm_check_report(const char *fmt, ...);
/* Old-space memory the running transaction of `seg` created: writable there. */
void tm_check_unprotect(int seg, uintptr_t so, size_t size);
/* A new transaction in `seg`: what the last one created is old now. */
void tm_check_reprotect(int seg);
/* Re-sharing maps whole runs of pages again, read-only: the pages
 * tm_check_unprotect opened in `seg` inside such a run are opened again. */
void tm_check_unprotect_again(int seg);

#endif
