/* Card marking for big varsize objects (internal to the GC and STM).
 * A store into items of an old varsize object that spans at least
 * TM_CARD_MIN_SIZE bytes (tm_write_items / tm_write_item) marks the cards
 * (TM_CARD_SIZE bytes of segment address space) holding the items, instead
 * of remembering the whole object: (STM) a commit publishes only the marked
 * cards and, when the items are references, a minor collection traces only
 * them. Without this, every commit re-copied a whole big list, dict table or
 * set table that a loop stores into (the commit time grew with the square
 * of a dict's size), and every minor collection re-traced it.
 *
 * Two tables of one byte per card per segment: TM_CARDS_GC (items that are
 * references only; cleared by the segment's minor collections) and
 * TM_CARDS_TX (STM, every carded layout: cleared at commit and abort). A
 * carded object starts on a page boundary (it is a page run), so no card
 * holds two of them. A store into a carded object's items whose card is not
 * marked is lost to the other segments: the barrier checker
 * (TMPY_STM_CHECK=1) compares the unmarked cards with the committed copy at
 * every commit (tm_check_unmarked_cards). Under STM a card is also the
 * conflict unit of such an object written by cards: stm.c locks it card by
 * card and checks the readers of its items (tm_read_at) card by card. */
#ifndef TM_CARDS_H
#define TM_CARDS_H

#include "object.h"
#include "segment.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TM_CARD_SHIFT 9
#define TM_CARD_SIZE (1UL << TM_CARD_SHIFT)   /* 64 references */
#define TM_CARD_MIN_SIZE (8UL << 10)

enum { TM_CARDS_GC, TM_CARDS_TX };

extern uint8_t *tm_card_tables[2][TM_MAX_SEGMENTS + 1];
/* One byte per group of 64 cards (32 KiB): set when a card of the group is
 * marked, so that taking the cards of a huge object skips its unmarked
 * groups (a 32 MiB set table has 64 K cards, and every commit that wrote a
 * few of them scanned them all: bench/results/commit_merge_in_place.txt).
 * Cleared by tm_cards_take once the whole group is clear; a stale set
 * byte only costs a scan. */
#define TM_CARD_GROUP_SHIFT 6
extern uint8_t *tm_card_groups[2][TM_MAX_SEGMENTS + 1];

void tm_cards_init(void);

/* Is an object of this layout and size card-marked (STM: published by its
 * marked cards)? Any varsize layout, references or plain bytes. */
static inline bool tm_carded(const tm_type *t, size_t size)
{
    return t->item_size && size >= TM_CARD_MIN_SIZE;
}

/* Does the GC trace it by cards too (its items are references)? */
static inline bool tm_gc_carded(const tm_type *t, size_t size)
{
    return t->items_are_refs && size >= TM_CARD_MIN_SIZE;
}

/* Mark the cards of the bytes [lo, hi] (hi included). */
static inline void tm_cards_set_range(int kind, int seg, uintptr_t lo, uintptr_t hi)
{
    for (uintptr_t c = lo >> TM_CARD_SHIFT; c <= hi >> TM_CARD_SHIFT; c++)
        tm_card_tables[kind][seg][c] = 1;
    for (uintptr_t g = lo >> (TM_CARD_SHIFT + TM_CARD_GROUP_SHIFT); g <= hi >> (TM_CARD_SHIFT + TM_CARD_GROUP_SHIFT); g++)
        tm_card_groups[kind][seg][g] = 1;
}

/* Mark (or clear) every card of [so, so + size). */
void tm_cards_set_all(int kind, int seg, uintptr_t so, size_t size);
void tm_cards_clear(int kind, int seg, uintptr_t so, size_t size);

/* For each maximal run of marked cards of [start, end) (clipped to it):
 * clear the run, then call fn(run_start, run_end, ctx). */
void tm_cards_take(int kind, int seg, uintptr_t start, uintptr_t end,
                   void (*fn)(uintptr_t, uintptr_t, void *), void *ctx);

/* Barrier checker (TMPY_STM_CHECK=1), at a commit, before the cards of the
 * carded object at `so` are taken: its items in cards that this transaction
 * did not mark must equal the committed copy (segment 0); a difference is a
 * store whose card was not marked, which the commit would not publish. */
void tm_check_unmarked_cards(int seg, uintptr_t so, size_t base_size, size_t size, const char *layout);

#endif
