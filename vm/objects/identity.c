/* Object identity: id() and the identity hash of object.__hash__. */
#include "objects.h"

#include <stdlib.h>
#include <string.h>

/* Old objects never move (major collections do not compact), so an old
 * object's segment offset is a stable identity. A young object in the
 * nursery gets the offset it will have once old, reserved now (no minor
 * collection: copy.deepcopy takes an id of each new memo dict);
 * one that lives outside the nursery is made old by a minor collection.
 * Small ints are tagged words: odd, so never equal to an object's
 * (16-aligned) offset. The caller's copy of v is stale after this call if
 * v was young: read it again from its root slot. */
uint64_t vm_object_id(Obj v)
{
    if (IS_SMALLINT(v))
        return (uint64_t)(uintptr_t)v;
    uintptr_t so = (uintptr_t)v;
    if (so >= tm_seg.nursery_start && so < tm_seg.nursery_end) {
        uintptr_t reserved = tm_reserve_old_address((object_t *)v);
        if (reserved)
            return reserved;
    }
    if ((so >= tm_seg.nursery_start && so < tm_seg.nursery_end) || (v->h.flags & TM_GCFLAG_YOUNG_OUTSIDE)) {
        Obj *r = vm_roots(1);
        r[0] = v;
        tm_collect_minor();
        v = r[0];
        vm_unroots(r);
    }
    return (uint64_t)(uintptr_t)v;
}

static uint64_t idhash_counter;
static __thread uint64_t idhash_next, idhash_end;

static int64_t next_idhash(void)
{
    uint64_t n = vm_unique_next(&idhash_counter, &idhash_next, &idhash_end);
    return (int64_t)(n & ((1ULL << 60) - 1));
}

/* id() of the object in a root slot, which is updated (the object may move
 * to become old): for reprs that read the object after taking its id. */
uint64_t vm_object_id_slot(Obj *slot)
{
    Obj *r = vm_roots(1);
    r[0] = *slot;
    uint64_t id = vm_object_id(r[0]);
    *slot = r[0];
    vm_unroots(r);
    return id;
}

/* Instances and exceptions (the objects most hashed by identity: dict and
 * set keys) draw a counter value into a hidden word on first use, so
 * hashing a young one does not cost a minor collection as vm_object_id does;
 * id() and default reprs still use the address (vm_object_id). */
int64_t vm_identity_hash(Obj v)
{
    if (IS_SMALLINT(v))
        return SMALLINT_VAL(v) == -1 ? -2 : SMALLINT_VAL(v);
    unsigned tid = v->h.tid;
    if (tid == TID_INSTANCE || tid == TID_EXCEPTION) {
        int64_t __seg_gs *word = tid == TID_INSTANCE ? &INSTH(v)->idhash
                                                     : &EXCH(v)->idhash;
        if (!*word) {
            VM_WRITE(v);
            *word = next_idhash();
        }
        return *word;
    }
    /* Everything else: its address once it stops moving. */
    uint64_t a = vm_object_id(v);
    int64_t h = (int64_t)((a >> 4) | (a << 60)) & INT64_MAX;
    return h == -1 ? -2 : h;
}
