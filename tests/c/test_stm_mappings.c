/* The kernel allows 65530 memory mappings (vm.max_map_count) and every
 * isolated private page costs two. One transaction privatises 25k isolated
 * pages and commits; the next privatises 25k others: the write barrier must
 * re-share the first set (no running transaction needs it) instead of
 * failing, and every byte must survive. */
#include "tmrt.h"
#include "testutil.h"

#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

typedef __seg_gs struct blob {
    tm_header h;
    uintptr_t len;
    uint64_t words[];
} blob_t;
typedef __seg_gs struct table {
    tm_header h;
    uintptr_t len;
    object_t *items[];
} table_t;

static uint16_t T_BLOB, T_TABLE;
static object_t *table;
enum { PAGES = 100000, PER_PAGE = 2 };   /* 2048-byte blobs: two per page */

static blob_t *blob(size_t i) { return (blob_t *)((table_t *)table)->items[i]; }

static void register_types(void)
{
    T_BLOB = tm_register_type(&(tm_type){.name = "blob", .base_size = sizeof(struct blob),
                                         .item_size = 8, .length_offset = 8});
    T_TABLE = tm_register_type(&(tm_type){.name = "table", .base_size = sizeof(struct table),
                                          .item_size = 8, .length_offset = 8, .items_are_refs = true});
}

/* In the running (inevitable) transaction: the table of n blobs of `words`
 * words, two per page, blob i holding i in its first word and ~i in its last. */
static void fill_table(size_t n, size_t words)
{
    table = tm_allocate_var(T_TABLE, n);
    CHECK(table, "table allocation failed");
    for (size_t i = 0; i < n; i++) {
        object_t *b = tm_allocate_var(T_BLOB, words);
        CHECK(b, "blob allocation failed");
        ((blob_t *)b)->words[0] = i;
        ((blob_t *)b)->words[words - 1] = ~i;
        tm_write(table);
        ((table_t *)table)->items[i] = b;
    }
}

/* Write one blob in every other page of [first, first + n) pages. */
static void write_isolated_pages(size_t first, size_t n, uint64_t tag)
{
    tm_start_transaction();
    for (size_t p = first; p < first + n; p += 2) {
        blob_t *b = blob(p * PER_PAGE);
        tm_write((object_t *)b);
        b->words[0] = tag + p;
    }
    tm_commit_transaction();
}

/* ---- Mode "merge": the re-share on demand inside a commit's merge ----
 * tm_commit_write_items privatises pages with the world stopped by the
 * committing thread itself. With the private pages one short of the budget
 * (TMPY_STM_TEST_PAGE_BUDGET), a merge that writes items on pages not yet
 * private crosses it: the re-share must run in the stopped world, not stop
 * it a second time (that waited for itself forever). */
enum { BUDGET = 48, MERGE_BLOBS = 400, BIG_WORDS = 8 * TM_PAGE_SIZE / 8 };
static object_t *big;        /* a raw carded object of 8 pages */
static bool merge_on;
static size_t merge_lo, merge_n;

static bool merge_items(void)
{
    if (!merge_on)
        return true;
    if (!tm_commit_write_items(big, merge_lo, merge_n))
        return false;
    for (size_t i = merge_lo; i < merge_lo + merge_n; i++)
        ((blob_t *)big)->words[i] = 7000000 + i;   /* no barrier: the merge made them ours */
    return true;
}

static size_t private_pages(void)
{
    size_t n = 0;
    for (int j = 1; j <= tm_seg.nsegments; j++)
        n += tm_private_page_count(j);
    return n;
}

static int merge_mode(void)
{
    char budget[16];
    snprintf(budget, sizeof budget, "%d", BUDGET);
    setenv("TMPY_STM_TEST_PAGE_BUDGET", budget, 1);
    setenv("TMPY_STM_TEST_MERGE_PRIVATE", "1", 1);   /* a merge that privatises (mode "inplace": one that does not) */
    alarm(60);   /* the bug hangs: end the test instead */
    tm_runtime_init_from_env();
    register_types();
    tm_add_global_root(&table);
    tm_add_global_root(&big);
    tm_set_commit_hooks(NULL, merge_items);
    tm_thread_attach();

    size_t words = (2048 - sizeof(struct blob)) / 8;
    tm_start_transaction();
    tm_become_inevitable();
    fill_table(MERGE_BLOBS, words);
    big = tm_allocate_var(T_BLOB, BIG_WORDS);
    CHECK(big, "big allocation failed");
    tm_commit_transaction();

    /* Items on three pages of big, away from its header page. */
    merge_lo = 2 * TM_PAGE_SIZE / 8;
    merge_n = 2 * TM_PAGE_SIZE / 8 + 1;
    tm_start_transaction();
    CHECK(!tm_page_is_private(tm_self.segment, (uintptr_t)big + 3 * TM_PAGE_SIZE),
          "big's pages are private before the merge");
    /* One blob a page until the private pages are one short of the budget
     * (a write barrier re-shares on the way when they reach it). */
    size_t p = 0;
    while (private_pages() != BUDGET - 1) {
        CHECK(p * 2 < MERGE_BLOBS, "never one page short of the budget (%zu private)", private_pages());
        blob_t *b = blob(p * 2);
        tm_write((object_t *)b);
        b->words[0] = 5000000 + p;
        p++;
    }
    merge_on = true;
    tm_commit_transaction();
    merge_on = false;

    tm_stm_stats st;
    tm_stm_get_stats(&st);
    CHECK(st.reshares_on_demand >= 1, "the merge never re-shared (%zu private pages)", private_pages());
    tm_start_transaction();
    for (size_t i = 0; i < p; i++)
        CHECK(blob(i * 2)->words[0] == 5000000 + i, "blob %zu lost its write", i * 2);
    for (size_t i = 0; i < BIG_WORDS; i++) {
        uint64_t want = i >= merge_lo && i < merge_lo + merge_n ? 7000000 + i : 0;
        CHECK(((blob_t *)big)->words[i] == want, "big word %zu is %lu, expected %lu", i,
              ((blob_t *)big)->words[i], want);
    }
    tm_commit_transaction();
    printf("ok merge: %zu pages written, the merge's %zu items on 3 pages privatised past the budget of %d "
           "(%lu re-share(s) on demand)\n", p, merge_n, BUDGET, st.reshares_on_demand);
    tm_thread_detach();
    return 0;
}

/* ---- Mode "inplace": a merge writes the committed state in place ----
 * With the world stopped and nothing left that can abort the commit, a
 * merge writes through the committer's view: where its page is shared that
 * is segment 0 itself, so it privatises nothing; the cards it marks are
 * still copied into a segment that has the page private. Thread A keeps a
 * page of big private (it wrote an item there) and runs a transaction that
 * waits at safe points while thread B merges items onto that page and the
 * next: B's pages stay shared, and A then reads the merged items. */
static int merged_by_b;
static int b_seg;

static void *merging_thread(void *arg)
{
    (void)arg;
    tm_thread_attach();
    tm_start_transaction();
    b_seg = tm_self.segment;
    tm_write_items(big, 0, 1);   /* a commit that wrote nothing runs no merge */
    ((blob_t *)big)->words[0] = 1;
    merge_on = true;
    tm_commit_transaction();
    merge_on = false;
    __atomic_store_n(&merged_by_b, 1, __ATOMIC_RELEASE);
    tm_thread_detach();
    return NULL;
}

static int inplace_mode(void)
{
    alarm(60);
    tm_runtime_init_from_env();
    T_BLOB = tm_register_type(&(tm_type){.name = "blob", .base_size = sizeof(struct blob),
                                         .item_size = 8, .length_offset = 8});
    tm_add_global_root(&big);
    tm_set_commit_hooks(NULL, merge_items);
    tm_thread_attach();
    tm_start_transaction();
    tm_become_inevitable();
    big = tm_allocate_var(T_BLOB, BIG_WORDS);
    CHECK(big, "big allocation failed");
    tm_commit_transaction();

    uintptr_t page = (uintptr_t)big + 2 * TM_PAGE_SIZE;   /* items 2 * 512 - 2.. on it */
    merge_lo = 2 * TM_PAGE_SIZE / 8 + 16;
    merge_n = TM_PAGE_SIZE / 8;                           /* to the next page */
    tm_start_transaction();
    int a_seg = tm_self.segment;
    tm_write_items(big, 2 * TM_PAGE_SIZE / 8, 1);
    ((blob_t *)big)->words[2 * TM_PAGE_SIZE / 8] = 42;     /* page private in A's segment */
    tm_commit_transaction();
    tm_start_transaction();
    CHECK(tm_self.segment == a_seg, "A moved to segment %d from %d", tm_self.segment, a_seg);
    CHECK(tm_page_is_private(a_seg, page), "A's page of big is not private");
    pthread_t th;
    CHECK(pthread_create(&th, NULL, merging_thread, NULL) == 0, "pthread_create");
    while (!__atomic_load_n(&merged_by_b, __ATOMIC_ACQUIRE))
        tm_safepoint();   /* B's commit stops the world */
    CHECK(b_seg != a_seg, "B ran in A's segment %d", b_seg);
    CHECK(!tm_page_is_private(b_seg, page) && !tm_page_is_private(b_seg, page + TM_PAGE_SIZE),
          "the merge privatised its pages in B's segment %d (it should write in place)", b_seg);
    CHECK(tm_page_is_private(a_seg, page), "A's page of big was re-shared");
    for (size_t i = 0; i < BIG_WORDS; i++) {
        uint64_t want = i >= merge_lo && i < merge_lo + merge_n ? 7000000 + i
                        : i == 2 * TM_PAGE_SIZE / 8 ? 42 : i == 0 ? 1 : 0;
        CHECK(((blob_t *)big)->words[i] == want, "A sees big word %zu as %lu, expected %lu", i,
              ((blob_t *)big)->words[i], want);
    }
    tm_commit_transaction();
    pthread_join(th, NULL);
    printf("ok inplace: a merge of %zu items wrote segment 0 in place and A's private page got them\n", merge_n);
    tm_thread_detach();
    return 0;
}

/* ---- Mode "ahead": item stores walking up a carded object privatise ahead ----
 * A store into the first card of a page whose predecessor is private in the
 * segment (not the header's page) privatises the next 8 pages of the object
 * in one call (runtime/stm.c privatise_items). Those pages must then behave
 * as any private page: thread B's commit of an item on one of them reaches
 * A's copy while A's transaction runs, and A's own stores there are its own
 * until it commits. Fails without the privatisation ahead (as under
 * TMPY_STM_TEST_NO_PRIVATISE_AHEAD=1): page 3 is not private then. */
enum { AHEAD_PAGES = 16, AHEAD_WORDS = AHEAD_PAGES * TM_PAGE_SIZE / 8 };
static size_t page_word(int k) { return (k * TM_PAGE_SIZE - sizeof(struct blob)) / 8; }   /* first item on page k */
static int b_done;

static void *ahead_writer(void *arg)
{
    (void)arg;
    tm_thread_attach();
    tm_start_transaction();
    b_seg = tm_self.segment;
    tm_write_items(big, page_word(5) + 3, 1);   /* a page A made private ahead, not written by A */
    ((blob_t *)big)->words[page_word(5) + 3] = 555;
    tm_commit_transaction();
    __atomic_store_n(&b_done, 1, __ATOMIC_RELEASE);
    tm_thread_detach();
    return NULL;
}

static int ahead_mode(void)
{
    alarm(60);
    tm_runtime_init_from_env();
    T_BLOB = tm_register_type(&(tm_type){.name = "blob", .base_size = sizeof(struct blob),
                                         .item_size = 8, .length_offset = 8});
    tm_add_global_root(&big);
    tm_thread_attach();
    tm_start_transaction();
    tm_become_inevitable();
    big = tm_allocate_var(T_BLOB, AHEAD_WORDS);
    CHECK(big, "big allocation failed");
    tm_commit_transaction();

    tm_stm_stats st0, st1;
    tm_stm_get_stats(&st0);
    tm_start_transaction();
    int a_seg = tm_self.segment;
    uintptr_t page0 = (uintptr_t)big & ~(uintptr_t)(TM_PAGE_SIZE - 1);
    for (int k = 1; k <= 2; k++) {   /* the first item of pages 1 and 2: walking up */
        tm_write_items(big, page_word(k), 1);
        ((blob_t *)big)->words[page_word(k)] = 100 + k;
    }
    for (int k = 2; k < 10; k++)
        CHECK(tm_page_is_private(a_seg, page0 + k * TM_PAGE_SIZE), "page %d of big is not private in A's segment", k);
    CHECK(!tm_page_is_private(a_seg, page0 + 10 * TM_PAGE_SIZE), "page 10 of big is private (8 pages ahead at most)");
    tm_stm_get_stats(&st1);
    CHECK(st1.pages_privatised - st0.pages_privatised == 10 && st1.privatise_calls - st0.privatise_calls == 3,
          "%lu pages privatised in %lu calls (expected 10 in 3: the header's page, page 1, then eight)",
          st1.pages_privatised - st0.pages_privatised, st1.privatise_calls - st0.privatise_calls);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, ahead_writer, NULL) == 0, "pthread_create");
    while (!__atomic_load_n(&b_done, __ATOMIC_ACQUIRE))
        tm_safepoint();   /* B's commit stops the world */
    CHECK(b_seg != a_seg, "B ran in A's segment %d", b_seg);
    CHECK(((blob_t *)big)->words[page_word(5) + 3] == 555, "A's page 5 (private ahead) missed B's commit: %lu",
          ((blob_t *)big)->words[page_word(5) + 3]);
    tm_write_items(big, page_word(6) + 1, 1);
    ((blob_t *)big)->words[page_word(6) + 1] = 666;
    tm_commit_transaction();
    pthread_join(th, NULL);
    tm_start_transaction();
    tm_become_inevitable();
    for (size_t i = 0; i < AHEAD_WORDS; i++) {
        uint64_t want = i == page_word(1) ? 101 : i == page_word(2) ? 102 : i == page_word(5) + 3 ? 555
                        : i == page_word(6) + 1 ? 666 : 0;
        CHECK(((blob_t *)big)->words[i] == want, "big word %zu is %lu, expected %lu", i, ((blob_t *)big)->words[i], want);
    }
    tm_commit_transaction();
    printf("ok ahead: a store walking up privatised pages 2-9 in one call; B's commit reached them; all words right\n");
    tm_thread_detach();
    return 0;
}

/* ---- Mode "forget": a major collection drops every view's mappings of
 * shared pages (RSS counted a page once per view that mapped it), keeping
 * private ones: the blobs a transaction read are no longer mapped in its
 * segment afterwards (/proc/self/pagemap), the page it wrote still is, and
 * every byte reads back right. */
static bool mapped(const void *addr)
{
    static int fd = -1;
    if (fd < 0)
        fd = open("/proc/self/pagemap", O_RDONLY);
    CHECK(fd >= 0, "cannot open /proc/self/pagemap");
    uint64_t e = 0;
    CHECK(pread(fd, &e, 8, (off_t)((uintptr_t)addr / TM_PAGE_SIZE * 8)) == 8, "cannot read pagemap");
    return e >> 63;
}

static int forget_mode(void)
{
    enum { N = 64 };   /* two 2048-byte blobs a page: 32 pages */
    tm_runtime_init_from_env();
    register_types();
    tm_add_global_root(&table);
    tm_thread_attach();
    size_t words = (2048 - sizeof(struct blob)) / 8;
    tm_start_transaction();
    tm_become_inevitable();
    fill_table(N, words);
    tm_commit_transaction();
    tm_start_transaction();
    tm_become_inevitable();
    uint64_t sum = 0;
    for (size_t i = 0; i < N; i++)
        sum += blob(i)->words[0];
    CHECK(sum == N * (N - 1) / 2, "blobs read wrong: %lu", (unsigned long)sum);
    tm_write((object_t *)blob(5));
    blob(5)->words[1] = 4242;   /* its page becomes private */
    CHECK(mapped(tm_linear(blob(20))), "a blob just read is not mapped");
    /* Addresses first: reading the table after the drop would map its
     * page again, and the kernel maps the neighbours with it (fault-around). */
    static uintptr_t at[N];
    for (size_t i = 0; i < N; i++)
        at[i] = (uintptr_t)blob(i);
    tm_collect_major();
    size_t still = 0;
    for (size_t i = 0; i < N; i++)
        if (at[i] / TM_PAGE_SIZE != at[5] / TM_PAGE_SIZE)
            still += mapped(tm_segment_base(tm_self.segment) + at[i]);
    CHECK(tm_page_is_private(tm_self.segment, (uintptr_t)blob(5) & ~(uintptr_t)(TM_PAGE_SIZE - 1)),
          "the written page is not private");
    CHECK(mapped(tm_linear(blob(5))), "the private page was dropped");
    CHECK(still == 0, "%zu shared blobs still mapped after a major collection", still);
    CHECK(blob(5)->words[1] == 4242, "the private page lost its write");
    for (size_t i = 0; i < N; i++)
        CHECK(blob(i)->words[0] == i, "blob %zu reads %lu after the drop", i, (unsigned long)blob(i)->words[0]);
    tm_commit_transaction();
    printf("ok forget: shared pages dropped from the view by a major collection, the private one kept\n");
    tm_thread_detach();
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "ahead") == 0)
        return ahead_mode();
    if (argc > 1 && strcmp(argv[1], "merge") == 0)
        return merge_mode();
    if (argc > 1 && strcmp(argv[1], "inplace") == 0)
        return inplace_mode();
    if (argc > 1 && strcmp(argv[1], "forget") == 0)
        return forget_mode();
    tm_runtime_init_from_env();
    register_types();
    tm_add_global_root(&table);
    tm_thread_attach();

    size_t nblobs = PAGES * PER_PAGE, words = (2048 - sizeof(struct blob)) / 8;
    tm_start_transaction();
    tm_become_inevitable();
    fill_table(nblobs, words);
    tm_commit_transaction();

    /* The blobs must sit two per page, in order, for pages to be isolated. */
    tm_start_transaction();
    for (size_t i = 0; i + 1 < nblobs; i += 2)
        CHECK((uintptr_t)blob(i) / TM_PAGE_SIZE == (uintptr_t)blob(i + 1) / TM_PAGE_SIZE,
              "blobs %zu and %zu are not on one page", i, i + 1);
    tm_commit_transaction();

    write_isolated_pages(0, PAGES / 2, 1000000000);
    size_t private_after_first = tm_private_page_count(tm_self.last_segment);
    write_isolated_pages(PAGES / 2, PAGES / 2, 2000000000);

    tm_stm_stats st;
    tm_stm_get_stats(&st);
    CHECK(st.reshares_on_demand >= 1, "the mapping limit was never hit (%lu private pages)",
          private_after_first);
    tm_start_transaction();
    for (size_t i = 0; i < nblobs; i++) {
        size_t p = i / PER_PAGE;
        uint64_t want = (i % PER_PAGE == 0 && p % 2 == 0) ? (p < PAGES / 2 ? 1000000000 : 2000000000) + p : i;
        CHECK(blob(i)->words[0] == want, "blob %zu word 0 is %lu, expected %lu", i, blob(i)->words[0], want);
        CHECK(blob(i)->words[words - 1] == ~i, "blob %zu last word corrupted", i);
    }
    tm_commit_transaction();
    printf("ok %d isolated pages privatised in two transactions; %lu re-share(s) on demand; all %zu blobs intact\n",
           PAGES / 2, st.reshares_on_demand, nblobs);
    tm_thread_detach();
    return 0;
}
