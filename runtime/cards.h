/* Card marking for big arrays of references (internal to the GC and STM).
 * A store into item i of an old object whose items are references and that
 * spans at least TM_CARD_MIN_SIZE bytes (tm_write_item) marks the card
 * (TM_CARD_SIZE bytes of segment address space) holding the item, instead
 * of remembering the whole object: a minor collection then traces only the
 * marked cards, and (STM) a commit publishes only them. Without this, every
 * minor collection (under STM: every commit) re-traced, and every commit
 * re-copied, a whole big list that a loop stores into.
 *
 * Two tables of one byte per card per segment: TM_CARDS_GC (cleared by the
 * segment's minor collections) and TM_CARDS_TX (STM: cleared at commit and
 * abort). A carded object starts on a page boundary (it is a page run), so
 * no card holds two of them. */
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

void tm_cards_init(void);

/* Is an object of this layout and size card-marked? */
static inline bool tm_carded(const tm_type *t, size_t size)
{
    return t->items_are_refs && size >= TM_CARD_MIN_SIZE;
}

static inline void tm_card_set(int kind, int seg, uintptr_t addr)
{
    tm_card_tables[kind][seg][addr >> TM_CARD_SHIFT] = 1;
}

/* Mark (or clear) every card of [so, so + size). */
void tm_cards_set_all(int kind, int seg, uintptr_t so, size_t size);
void tm_cards_clear(int kind, int seg, uintptr_t so, size_t size);

/* For each maximal run of marked cards of [start, end) (clipped to it):
 * clear the run, then call fn(run_start, run_end, ctx). */
void tm_cards_take(int kind, int seg, uintptr_t start, uintptr_t end,
                   void (*fn)(uintptr_t, uintptr_t, void *), void *ctx);

#endif
