#include "list.h"
#include "fatal.h"
#include <stdlib.h>

void tm_list_grow(tm_list *l)
{
    size_t cap = l->cap ? l->cap * 2 : 256;
    uintptr_t *items = realloc(l->items, cap * sizeof *items);
    if (!items)
        tm_fatal("out of C memory growing a GC list to %zu entries", cap);
    l->items = items;
    l->cap = cap;
}

void tm_list_free(tm_list *l)
{
    free(l->items);
    l->items = NULL;
    l->count = l->cap = 0;
}
