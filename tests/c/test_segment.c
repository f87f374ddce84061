/* Segments: %gs reads in two threads see their own segment; old space is
 * shared; a privatised page diverges in one segment only; re-sharing brings
 * segment 0's content back; released pages read as zero and free memory. */
#include "tmrt.h"
#include "testutil.h"

#include <pthread.h>
#include <string.h>

static pthread_barrier_t step;
static uintptr_t page;                       /* an old-space page (SO) */
static const uintptr_t LOCAL = TM_SEGLOCAL_OFFSET + 8192;   /* past struct tm_seglocal */

static uint64_t gs_read(uintptr_t so) { return *(volatile uint64_t __seg_gs *)so; }
static void gs_write(uintptr_t so, uint64_t v) { *(volatile uint64_t __seg_gs *)so = v; }
static uint64_t *in_segment(int seg, uintptr_t so) { return (uint64_t *)(tm_segment_base(seg) + so); }

/* The two threads run the same script in lockstep; `seg` is 1 or 2. */
static void *worker(void *arg)
{
    int seg = (int)(intptr_t)arg;
    tm_set_segment(seg);

    /* 1. Segment-local data: same offset, different memory. */
    *in_segment(seg, LOCAL) = 1000 + (uint64_t)seg;
    pthread_barrier_wait(&step);
    CHECK(gs_read(LOCAL) == 1000 + (uint64_t)seg, "seg %d read %lu", seg, gs_read(LOCAL));
    /* The nursery is private too. */
    gs_write(tm_seg.nursery_start + 64, 7 * (uint64_t)seg);
    pthread_barrier_wait(&step);
    CHECK(gs_read(tm_seg.nursery_start + 64) == 7 * (uint64_t)seg, "nursery not private");

    /* 2. Old space is shared: a write through segment 1 is seen by segment 2. */
    if (seg == 1)
        gs_write(page + 8, 111);
    pthread_barrier_wait(&step);
    CHECK(gs_read(page + 8) == 111, "seg %d: shared page read %lu", seg, gs_read(page + 8));
    pthread_barrier_wait(&step);

    /* 3. Privatise in segment 1: its writes stay there. */
    if (seg == 1) {
        CHECK(tm_pages_privatise(1, page, 1) == 0, "privatise failed");
        CHECK(gs_read(page + 8) == 111, "privatised page lost its content");
        gs_write(page + 8, 222);
    }
    pthread_barrier_wait(&step);
    CHECK(tm_page_is_private(1, page) && !tm_page_is_private(2, page), "private bits wrong");
    CHECK(gs_read(page + 8) == (seg == 1 ? 222u : 111u), "seg %d read %lu after privatise",
          seg, gs_read(page + 8));
    CHECK(*in_segment(0, page + 8) == 111, "segment 0 saw a private write");
    pthread_barrier_wait(&step);
    /* A commit-like copy into segment 0 reaches the sharing segments, not segment 1. */
    if (seg == 2)
        *in_segment(0, page + 8) = 333;
    pthread_barrier_wait(&step);
    CHECK(gs_read(page + 8) == (seg == 1 ? 222u : 333u), "seg %d read %lu after seg-0 write",
          seg, gs_read(page + 8));
    pthread_barrier_wait(&step);

    /* 4. Re-share: segment 1 sees segment 0 again, and shares future writes. */
    if (seg == 1) {
        CHECK(tm_pages_reshare(1, page, 1) == 0, "reshare failed");
        gs_write(page + 16, 444);
    }
    pthread_barrier_wait(&step);
    CHECK(gs_read(page + 8) == 333, "seg %d read %lu after reshare", seg, gs_read(page + 8));
    CHECK(gs_read(page + 16) == 444, "re-shared page is not shared");
    CHECK(!tm_page_is_private(1, page) && tm_private_page_count(1) == 0, "private bits not cleared");
    return NULL;
}

static void test_threads(void)
{
    pthread_t t1, t2;
    pthread_barrier_init(&step, NULL, 2);
    pthread_create(&t1, NULL, worker, (void *)1);
    pthread_create(&t2, NULL, worker, (void *)2);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    printf("ok two threads, two segments: local, shared, private and re-shared pages\n");
}

/* A run of pages privatised at once keeps every byte, and re-shares as a run. */
static void test_page_runs(void)
{
    enum { N = 16 };
    uintptr_t run = tm_seg.old_start + 256 * TM_PAGE_SIZE;
    uint8_t *shared = (uint8_t *)in_segment(0, run);
    for (size_t i = 0; i < N * TM_PAGE_SIZE; i++)
        shared[i] = (uint8_t)(i * 31 + 7);
    CHECK(tm_pages_privatise(2, run, N) == 0, "privatise run failed");
    CHECK(tm_private_page_count(2) == N, "count %zu", tm_private_page_count(2));
    uint8_t *priv = (uint8_t *)in_segment(2, run);
    CHECK(memcmp(priv, shared, N * TM_PAGE_SIZE) == 0, "privatised run differs from segment 0");
    priv[5 * TM_PAGE_SIZE + 3] ^= 0xff;
    tm_compiler_barrier();
    CHECK(shared[5 * TM_PAGE_SIZE + 3] != priv[5 * TM_PAGE_SIZE + 3], "private write leaked");
    CHECK(*(uint8_t *)in_segment(1, run + 5 * TM_PAGE_SIZE + 3) == shared[5 * TM_PAGE_SIZE + 3],
          "segment 1 does not share the run");
    CHECK(tm_pages_reshare(2, run, N) == 0, "reshare run failed");
    tm_compiler_barrier();
    CHECK(memcmp(priv, shared, N * TM_PAGE_SIZE) == 0, "re-shared run differs");
    CHECK(tm_private_page_count(2) == 0, "count after reshare %zu", tm_private_page_count(2));
    printf("ok %d-page run privatised and re-shared\n", N);
}

/* Released pages go back to the kernel and read as zero everywhere. */
static void test_release(void)
{
    enum { N = 1024 };
    uintptr_t run = tm_seg.old_start + 4096 * TM_PAGE_SIZE;
    size_t before = tm_shared_bytes_resident();
    memset(in_segment(0, run), 0xab, N * TM_PAGE_SIZE);
    size_t touched = tm_shared_bytes_resident();
    CHECK(touched >= before + N * TM_PAGE_SIZE, "memfd did not grow: %zu -> %zu", before, touched);
    tm_pages_release(run, N);
    size_t after = tm_shared_bytes_resident();
    CHECK(after + N * TM_PAGE_SIZE <= touched, "memory not returned: %zu -> %zu", touched, after);
    for (int s = 0; s <= tm_seg.nsegments; s++)
        CHECK(*in_segment(s, run + 12345) == 0, "segment %d reads a released page as non-zero", s);
    printf("ok %d released pages returned %zu KiB and read as zero\n", N, (touched - after) >> 10);
}

int main(void)
{
    tm_config cfg;
    char err[256];
    tm_config_defaults(&cfg);
    cfg.nsegments = 2;
    cfg.segment_size = 1UL << 30;
    cfg.nursery_size = 1UL << 20;
    CHECK(tm_runtime_init(&cfg, err, sizeof err) == 0, "%s", err);
    page = tm_seg.old_start + 100 * TM_PAGE_SIZE;
    printf("ok GS base set with %s\n", tm_seg.fsgsbase ? "wrgsbase" : "arch_prctl");
    test_threads();
    test_page_runs();
    test_release();
    return 0;
}
