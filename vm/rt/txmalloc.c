/* C heap memory and aborts (STM build).
 *
 * build/tmpy is linked with -Wl,--wrap for malloc, calloc, realloc, free,
 * strdup and strndup, so every such call in vm/ comes here (and GMP's
 * allocations too: int.c hands it these functions). While a transaction
 * that may abort runs (from vm_tx_started to its commit or to becoming
 * inevitable: vm_txmalloc_track / vm_txmalloc_forget), each block it
 * allocates is recorded in a per-thread set and dropped from it when freed.
 * An abort frees what the set still holds: the C frames or the heap objects
 * that owned those blocks were discarded with it (a transaction that may
 * abort starts only at an eval loop's yield point; the C builtins below that
 * loop wait for it to return and allocate nothing meanwhile). A commit
 * empties the set: the blocks belong to their owners from then on.
 *
 * Two kinds of owner survive an abort and must not lose their block:
 *  - C state that an abort does not undo (a static cache, a per-thread
 *    table): such blocks come from vm_malloc_kept / vm_realloc_kept, never
 *    recorded;
 *  - an old block grown by realloc inside the transaction: its owner
 *    existed before, so the new block is not recorded either (an abort that
 *    restores a heap owner to the old pointer would leave it dangling, so
 *    C blocks owned by heap objects are grown only in inevitable code, as
 *    file buffers are).
 * Blocks libc allocates internally (opendir, getcwd(NULL)) are not seen;
 * freeing them here finds nothing in the set and just frees them. */
#include "objects/objects.h"

#include <stdlib.h>
#include <string.h>

#if TM_STM

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);
void __libc_free(void *p);

uint64_t vm_tx_blocks_freed;

#define TOMBSTONE ((void *)1)

/* An open-addressing set of block addresses; `used` counts tombstones too. */
static __thread struct {
    bool tracking;
    void **slots;
    size_t cap, count, used;
} tx;

static size_t slot_of(void *p, size_t cap)
{
    return (size_t)(((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull >> 20) & (cap - 1);
}

static void set_insert(void **slots, size_t cap, void *p)
{
    size_t i = slot_of(p, cap);
    while (slots[i] && slots[i] != TOMBSTONE)
        i = (i + 1) & (cap - 1);
    slots[i] = p;
}

static bool set_grow(void)
{
    size_t ncap = tx.cap ? (tx.count * 4 > tx.cap ? tx.cap * 2 : tx.cap) : 64;
    void **n = __libc_calloc(ncap, sizeof *n);
    if (!n)
        return false;
    for (size_t i = 0; i < tx.cap; i++)
        if (tx.slots[i] && tx.slots[i] != TOMBSTONE)
            set_insert(n, ncap, tx.slots[i]);
    __libc_free(tx.slots);
    tx.slots = n;
    tx.cap = ncap;
    tx.used = tx.count;
    return true;
}

static void record(void *p)
{
    if ((tx.used + 1) * 4 > tx.cap * 3 && !set_grow()) {
        tx.tracking = false;   /* out of memory for the set: the transaction's blocks leak if it aborts */
        return;
    }
    set_insert(tx.slots, tx.cap, p);
    tx.count++;
    tx.used++;
}

/* Drop p from the set; true if it was there. */
static bool forget(void *p)
{
    if (!tx.count)
        return false;
    for (size_t i = slot_of(p, tx.cap); tx.slots[i]; i = (i + 1) & (tx.cap - 1))
        if (tx.slots[i] == p) {
            tx.slots[i] = TOMBSTONE;
            tx.count--;
            return true;
        }
    return false;
}

static void clear(void)
{
    if (tx.cap > 4096) {   /* one transaction's burst: do not clear a big table at every commit after it */
        __libc_free(tx.slots);
        tx.slots = NULL;
        tx.cap = 0;
    } else if (tx.used) {
        memset(tx.slots, 0, tx.cap * sizeof *tx.slots);
    }
    tx.count = tx.used = 0;
}

void *__wrap_malloc(size_t n)
{
    void *p = __libc_malloc(n);
    if (p && tx.tracking)
        record(p);
    return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
    void *p = __libc_calloc(n, size);
    if (p && tx.tracking)
        record(p);
    return p;
}

void *__wrap_realloc(void *p, size_t n)
{
    if (!p)
        return __wrap_malloc(n);
    bool mine = forget(p);
    void *q = __libc_realloc(p, n);
    if (mine && (q || n))
        record(q ? q : p);   /* a failed realloc leaves p allocated (realloc(p, 0) frees it) */
    return q;
}

void __wrap_free(void *p)
{
    if (p)
        forget(p);
    __libc_free(p);
}

char *__wrap_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = __wrap_malloc(n);
    return p ? memcpy(p, s, n) : NULL;
}

char *__wrap_strndup(const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    char *p = __wrap_malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

void *vm_malloc_kept(size_t n) { return __libc_malloc(n); }
void *vm_realloc_kept(void *p, size_t n) { return __libc_realloc(p, n); }

void vm_txmalloc_track(void) { tx.tracking = true; }

void vm_txmalloc_forget(void)
{
    tx.tracking = false;
    clear();
}

void vm_txmalloc_free_all(void)
{
    uint64_t n = 0;
    for (size_t i = 0; i < tx.cap && tx.count; i++)
        if (tx.slots[i] && tx.slots[i] != TOMBSTONE) {
            __libc_free(tx.slots[i]);
            tx.count--;
            n++;
        }
    clear();
    if (n)
        __atomic_add_fetch(&vm_tx_blocks_freed, n, __ATOMIC_RELAXED);
}

#else

uint64_t vm_tx_blocks_freed;
void *vm_malloc_kept(size_t n) { return malloc(n); }
void *vm_realloc_kept(void *p, size_t n) { return realloc(p, n); }

#endif
