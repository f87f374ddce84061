#include "object.h"
#include "fatal.h"
#include "segment.h"

tm_type tm_types[TM_MAX_TYPES];
unsigned tm_ntypes = 1; /* id 0 is never a valid type */

uint16_t tm_register_type(const tm_type *t)
{
    if (tm_ntypes >= TM_MAX_TYPES)
        tm_fatal("too many object types (limit %d)", TM_MAX_TYPES);
    if (t->base_size < sizeof(tm_header) || (t->ref_words & 1) ||
        (t->ref_words >> 1 && 64 - __builtin_clzll(t->ref_words) > (int)(t->base_size / 8)) ||
        (t->items_are_refs && t->item_size != 8) ||
        (t->item_size && t->length_offset + sizeof(uintptr_t) > t->base_size) ||
        (t->weak_offset && ((t->weak_offset & 7) || t->weak_offset + 8 > t->base_size ||
                            (t->weak_offset < 512 && (t->ref_words >> (t->weak_offset / 8) & 1)))) ||
        (t->weak_notify && !t->weak_offset))
        tm_fatal("bad layout for type '%s'", t->name ? t->name : "?");
    tm_types[tm_ntypes] = *t;
    return (uint16_t)tm_ntypes++;
}

size_t tm_object_size_checked(object_t *o)
{
    tm_fatal("object at SO %#lx has a bad type id %u (header %#x): a dangling reference or a missing root",
             (unsigned long)(uintptr_t)o, (unsigned)o->h.tid, (unsigned)o->h.flags);
}

size_t tm_object_size_in(int seg, uintptr_t so)
{
    const char *p = tm_segment_base(seg) + so;
    const tm_header *h = (const tm_header *)p;
    if (h->tid == 0 || h->tid >= tm_ntypes)
        tm_fatal("object at SO %#lx in segment %d has a bad type id %u", (unsigned long)so, seg, h->tid);
    const tm_type *t = &tm_types[h->tid];
    return tm_type_size(t, t->item_size ? *(const uintptr_t *)(p + t->length_offset) : 0);
}
