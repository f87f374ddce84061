/* The kernel allows 65530 memory mappings (vm.max_map_count) and every
 * isolated private page costs two. One transaction privatises 25k isolated
 * pages and commits; the next privatises 25k others: the write barrier must
 * re-share the first set (no running transaction needs it) instead of
 * failing, and every byte must survive. */
#include "tmrt.h"
#include "testutil.h"

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

int main(void)
{
    tm_runtime_init_from_env();
    T_BLOB = tm_register_type(&(tm_type){.name = "blob", .base_size = sizeof(struct blob),
                                         .item_size = 8, .length_offset = 8});
    T_TABLE = tm_register_type(&(tm_type){.name = "table", .base_size = sizeof(struct table),
                                          .item_size = 8, .length_offset = 8, .items_are_refs = true});
    tm_add_global_root(&table);
    tm_thread_attach();

    size_t nblobs = PAGES * PER_PAGE, words = (2048 - sizeof(struct blob)) / 8;
    tm_start_transaction();
    tm_become_inevitable();
    table = tm_allocate_var(T_TABLE, nblobs);
    CHECK(table, "table allocation failed");
    for (size_t i = 0; i < nblobs; i++) {
        object_t *b = tm_allocate_var(T_BLOB, words);
        CHECK(b, "blob allocation failed");
        ((blob_t *)b)->words[0] = i;
        ((blob_t *)b)->words[words - 1] = ~i;
        tm_write(table);
        ((table_t *)table)->items[i] = b;
    }
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
