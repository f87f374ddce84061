/* A set's table, shared by set.c and setlog.c (set.c's header comment says
 * how it is laid out: keys, then a RawObj of the hashes, and for a big table
 * the counter stripes after the hashes). */
#ifndef TMPY_SETTABLE_H
#define TMPY_SETTABLE_H

#include "objects.h"

#define LINEAR_PROBES 9
#define PERTURB_SHIFT 5

/* ---- big tables: counter stripes (conflict units: set.c's header comment) ---- */

#define STRIPED_MIN 1024   /* slots: the keys and hashes (8 KiB each) are card-marked (runtime cards.h) */
#define NSTRIPES 8
enum { ST_USED, ST_FILL, ST_ALLOW };

/* Slots of a table: its length never changes, so it is read without a barrier. */
static inline int64_t t_size(Obj table)
{
    return ((ArrayObj *)table)->length - 1;   /* no barrier: a table's length never changes */
}
static inline bool t_striped(Obj table)
{
    return t_size(table) >= STRIPED_MIN;
}
/* Byte offset of stripe k in the hashes' data: after the hashes, on a card
 * boundary (the data starts 16 bytes into its page run). */
static inline uint64_t stripe_offset(int64_t size, int k)
{
    return (uint64_t)size * 8 + 496 + 512 * (uint64_t)k;
}
static inline Obj t_hashobj(Obj table)
{
    return ((ArrayObj *)table)->items[t_size(table)];   /* no barrier: set once, when the table is made */
}
static inline int64_t __seg_gs *t_stripe(Obj table, int k)
{
    return (int64_t __seg_gs *)(((RawObj *)t_hashobj(table))->data + stripe_offset(t_size(table), k));   /* no barrier: callers mark the stripe (tm_read_at) */
}
/* Stripes in use: one per segment, up to NSTRIPES. */
static inline int n_stripes(void)
{
    return !TM_STM ? 1 : tm_seg.nsegments < NSTRIPES ? tm_seg.nsegments : NSTRIPES;
}
static inline int my_stripe(void)
{
    return (int)((unsigned)(tm_self.segment + NSTRIPES - 1) % (unsigned)n_stripes());   /* segment >= 1 in a transaction */
}

/* Slot storage read without the tables' barriers: the callers mark either
 * the whole table (t_read_whole, small tables) or each slot (t_read_slot,
 * big ones). */
static inline Obj __seg_gs *t_keys_nb(Obj table)
{
    return ((ArrayObj *)table)->items;   /* no barrier: t_read_whole or t_read_slot */
}
static inline int64_t __seg_gs *t_hashes_nb(Obj table)
{
    return (int64_t __seg_gs *)((RawObj *)t_hashobj(table))->data;   /* no barrier: t_read_whole or t_read_slot */
}
static inline void t_read_whole(Obj table)
{
    VM_READ(table);
    VM_READ(t_hashobj(table));
}
static inline void t_read_slot(Obj table, uint64_t j, uint8_t rv)
{
    tm_read_at_rv((uintptr_t)&t_keys_nb(table)[j], rv);
    tm_read_at_rv((uintptr_t)&t_hashes_nb(table)[j], rv);
}

/* The key that marks a deleted slot (set.c). */
Obj set_dummy_key(void);

#if TM_STM
/* Adds and discards that commit blind (setlog.c): 1 done (*removed set for
 * a discard), 0 not taken (the caller does it plainly), -1 error. */
int set_log_add(Obj *sp, Obj *kp, int64_t hash);
int set_log_discard(Obj *sp, Obj *kp, int64_t hash, bool *removed);
#endif

#endif
