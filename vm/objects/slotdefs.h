/* The table of dunders that stand for C slots (__add__ for nb[NB_ADD]),
 * filled at start-up by typeobject.c; the slot wrappers of descrobject.c
 * (int.__add__) name an entry by its index. */
#ifndef TMPY_SLOTDEFS_H
#define TMPY_SLOTDEFS_H

#include "objects.h"

/* Slot ids: which field of a TypeObj. */
enum {
    S_REPR, S_STR, S_HASH, S_RICHCMP, S_ITER, S_NEXT, S_CALL, S_GETATTRO, S_SETATTRO,
    S_DGET, S_DSET, S_LEN, S_GETITEM, S_SETITEM, S_CONTAINS, S_BOOL, S_NEW, S_INIT,
    S_NEG, S_POS, S_INVERT, S_INT, S_FLOAT, S_INDEX, S_ABS,
    S_NB, S_NBI = S_NB + NB_COUNT, S_COUNT = S_NBI + NB_COUNT
};

/* Wrapper kinds: how a dunder's arguments map onto its slot. */
enum {
    WK_UNARY, WK_HASH, WK_CMP, WK_NEXT, WK_CALL, WK_GETATTR, WK_SETATTR, WK_DELATTR,
    WK_GET, WK_SET, WK_DELETE, WK_LEN, WK_GETITEM, WK_SETITEM, WK_DELITEM, WK_CONTAINS,
    WK_BOOL, WK_NEW, WK_INIT, WK_BIN, WK_RBIN, WK_IBIN
};

typedef struct SlotDef {
    const char *name;
    int slot;     /* S_* */
    int kind;     /* WK_* */
    int op;       /* CMP_* / NB_* */
    Obj iname;    /* interned name (set at start-up) */
} SlotDef;

#define SLOTDEFS_MAX 160
extern SlotDef slotdefs[SLOTDEFS_MAX];

/* Call owner's slot for sd with a dunder's arguments (args[0] is self, or
 * the class for __new__): the call of a slot wrapper. */
Obj wrapper_call_slot(TypeObj *owner, const SlotDef *sd, Obj *args, size_t nargs, Obj kwnames);

#endif
