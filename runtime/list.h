/* A growable array of words in ordinary C memory (never in a segment).
 * The GC keeps its work lists here: remembered objects, the copy and mark
 * stacks, young objects outside the nursery. */
#ifndef TM_LIST_H
#define TM_LIST_H

#include <stddef.h>
#include <stdint.h>

typedef struct tm_list {
    uintptr_t *items;
    size_t count, cap;
} tm_list;

void tm_list_grow(tm_list *l);   /* doubles the capacity; fatal if C memory runs out */
void tm_list_free(tm_list *l);

static inline void tm_list_push(tm_list *l, uintptr_t x)
{
    if (__builtin_expect(l->count == l->cap, 0))
        tm_list_grow(l);
    l->items[l->count++] = x;
}

static inline uintptr_t tm_list_pop(tm_list *l) { return l->items[--l->count]; }

#endif
