/* Old object space (internal to the GC): objects that never move again.
 * Small objects (<= TM_SMALL_MAX) live in 4K pages of one size class, each
 * page owned by one segment so threads never share a free list; bigger ones
 * get a run of whole pages. Mark bits live beside the heap, not in headers.
 * Pages at or above the high-water mark were never used and read as zero. */
#ifndef TM_OLDSPACE_H
#define TM_OLDSPACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TM_SMALL_MAX 2048

void tm_oldspace_init(void);

/* Space for an object of `size` bytes (rounded), allocated for segment `seg`.
 * Not zeroed. Returns its SO, or 0 when old space is full. */
uintptr_t tm_old_alloc(int seg, size_t size);
/* A run of zeroed pages for a young object too big for the nursery, which
 * segment `seg` will write (and clears it through); 0 if full. */
uintptr_t tm_old_alloc_young_large(int seg, size_t size);
/* The young large object survived its minor collection: it is old now. */
void tm_old_large_promoted(uintptr_t so);
/* It did not survive: its pages go back at once. */
void tm_old_large_free(uintptr_t so);

/* A young object outside the nursery (STM: every object born old, which
 * a transaction must publish at commit or drop at abort): a slot of a small
 * page of segment `seg` for sizes up to TM_SMALL_MAX (a whole page each
 * was 4 KiB for every interned string, code object and class), else a page
 * run; zeroed through seg's view. 0 if full. */
uintptr_t tm_old_alloc_young(int seg, size_t size);
/* Reached by its minor collection: old now. */
void tm_old_young_promoted(uintptr_t so);
/* Not reached, or its transaction aborted: the space goes back at once. */
void tm_old_young_free(uintptr_t so);

/* Free pages a major collection keeps mapped instead of giving back. */
size_t tm_old_retained_pages(void);
/* The SO just past every old-space page ever handed out. */
uintptr_t tm_old_high_water(void);
/* Bytes that can still be handed out (free pages, ignoring fragmentation). */
size_t tm_old_free_bytes(void);
/* Bytes in allocated objects (slot and page granular). */
extern size_t tm_old_bytes_used;
extern size_t tm_old_pages_in_use;
extern uint64_t tm_old_pages_released;
extern size_t tm_old_large_count;
/* Bytes of big objects (page runs) made old since the last major collection. */
extern size_t tm_old_large_bytes_promoted;

/* Major collection: set the mark bit of an old object; true if it was clear. */
bool tm_old_mark(uintptr_t so);
bool tm_old_is_marked(uintptr_t so);
/* TMPY_GC_VERIFY: record a freeing (how: 0 minor, 1 abort, 2 sweep) and tell it. */
void tm_old_note_freed(uintptr_t so, int how, int seg);
void tm_old_describe_freed(uintptr_t so);
void tm_old_foreach_marked(void (*fn)(uintptr_t so, void *ctx), void *ctx);
bool tm_old_is_allocated(uintptr_t so);
/* Free every unmarked object, clear the marks, give empty pages back. */
/* dead != NULL: adds the number of freed objects whose layout holds
 * references (their headers read as the current segment sees them). */
void tm_old_sweep(uint64_t *dead);
/* Objects the last sweep freed. */
extern size_t tm_old_objects_freed;

#endif
