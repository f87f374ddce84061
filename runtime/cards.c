#define _GNU_SOURCE
#include "cards.h"
#include "fatal.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

uint8_t *tm_card_tables[2][TM_MAX_SEGMENTS + 1];
uint8_t *tm_card_groups[2][TM_MAX_SEGMENTS + 1];

void tm_cards_init(void)
{
    size_t len = tm_seg.segment_size >> TM_CARD_SHIFT, groups = (len >> TM_CARD_GROUP_SHIFT) + 1;
    for (int kind = 0; kind < (TM_STM ? 2 : 1); kind++)
        for (int s = 1; s <= tm_seg.nsegments; s++) {
            uint8_t *p = mmap(NULL, len + groups, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                              -1, 0);
            if (p == MAP_FAILED)
                tm_fatal("cannot allocate a card table: %s", strerror(errno));
            tm_card_tables[kind][s] = p;
            tm_card_groups[kind][s] = p + len;
        }
}

static size_t card_of(uintptr_t addr) { return addr >> TM_CARD_SHIFT; }

void tm_cards_set_all(int kind, int seg, uintptr_t so, size_t size)
{
    size_t first = card_of(so), last = card_of(so + size - 1);
    memset(tm_card_tables[kind][seg] + first, 1, last - first + 1);
    memset(tm_card_groups[kind][seg] + (first >> TM_CARD_GROUP_SHIFT), 1,
           (last >> TM_CARD_GROUP_SHIFT) - (first >> TM_CARD_GROUP_SHIFT) + 1);
}

void tm_cards_clear(int kind, int seg, uintptr_t so, size_t size)
{
    size_t first = card_of(so), last = card_of(so + size - 1);
    memset(tm_card_tables[kind][seg] + first, 0, last - first + 1);
}

/* Clear group g's byte if none of its cards is marked any more. */
static void group_settle(uint8_t *t, uint8_t *groups, size_t g)
{
    const uint64_t *w = (const uint64_t *)(t + (g << TM_CARD_GROUP_SHIFT));
    for (size_t i = 0; i < (1u << TM_CARD_GROUP_SHIFT) / 8; i++)
        if (w[i])
            return;
    groups[g] = 0;
}

void tm_cards_take(int kind, int seg, uintptr_t start, uintptr_t end,
                   void (*fn)(uintptr_t, uintptr_t, void *), void *ctx)
{
    if (start >= end)
        return;
    uint8_t *t = tm_card_tables[kind][seg], *groups = tm_card_groups[kind][seg];
    size_t c = card_of(start), last = card_of(end - 1);
    while (c <= last) {
        size_t g = c >> TM_CARD_GROUP_SHIFT;
        size_t group_end = (g + 1) << TM_CARD_GROUP_SHIFT;   /* first card of the next group */
        if (!groups[g]) {   /* no card of the group marked */
            c = group_end;
            continue;
        }
        size_t stop = group_end <= last + 1 ? group_end : last + 1;
        while (c < stop) {
            /* Skip clear cards eight at a time. */
            while (c + 8 <= stop && (c & 7) == 0 && *(uint64_t *)(t + c) == 0)
                c += 8;
            if (c >= stop)   /* t[c] is the next group's or the next object's card */
                break;
            if (!t[c]) {
                c++;
                continue;
            }
            size_t e = c;
            while (e <= last && t[e])
                t[e++] = 0;
            uintptr_t lo = (uintptr_t)c << TM_CARD_SHIFT, hi = (uintptr_t)e << TM_CARD_SHIFT;
            fn(lo < start ? start : lo, hi > end ? end : hi, ctx);
            c = e;
        }
        /* A run may have gone on into later groups: settle each group it cleared. */
        for (size_t h = g; h <= ((c - 1) >> TM_CARD_GROUP_SHIFT); h++)
            group_settle(t, groups, h);
    }
}
