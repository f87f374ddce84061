/* dict and set/frozenset (dict.c, set.c): the hashed containers. Their
 * iterators and views are in containers.h (containeriter.c). */
#ifndef TMPY_DICTSET_H
#define TMPY_DICTSET_H

#include "tmpy.h"

/* ------------------------------------------------------------------ */
/* dict.c                                                              */
/* ------------------------------------------------------------------ */
Obj dict_new(void);
Obj dict_new_presized(int64_t n);
Obj dict_getitem(Obj d, Obj key);         /* borrowed value, or NULL: missing (no error) or error (err_occurred) */
Obj dict_getitem_str(Obj d, Obj key);     /* key: an exact str (fast path, never raises) */
Obj dict_getitem_cstr(Obj d, const char *key);
/* Entry index of an exact-str key (-1 if absent; never raises) and the value
 * at an entry index (for inline caches validated by DictObj.version). */
int64_t dict_lookup_str_index(Obj d, Obj key);
Obj dict_value_at(Obj d, int64_t ix);
/* An inline cache's guess *hint of the entry of exact-str key: its value
 * by a pointer compare when right, else by lookup (*hint set to the entry
 * found; NULL: absent). Never raises. */
Obj dict_getitem_str_hinted(Obj d, Obj key, int64_t *hint);
/* Replace the value of exact-str key when entry hint holds it (true); false:
 * not there, nothing done (the caller stores through dict_setitem). */
bool dict_replace_str_hinted(Obj d, Obj key, int64_t hint, Obj v);
int dict_setitem(Obj d, Obj key, Obj v);
int dict_setitem_cstr(Obj d, const char *key, Obj v);
int dict_delitem(Obj d, Obj key);         /* KeyError if missing */
int dict_pop(Obj d, Obj key, Obj *out);   /* 1 found (removed; *out is the value), 0 missing, -1 error */
/* Remove and return the last (or first) (key, value) pair; NULL without an error if empty. */
Obj dict_popitem_end(Obj d, bool last);
/* Move key's entry to the end (or the front) of the order; KeyError if missing. */
int dict_move_to_end(Obj d, Obj key, bool last);
int64_t dict_len(Obj d);
/* The forms for a key the caller hashed once (hash = vm_hash(key), never -1):
 * functools' lru_cache calls a key's __hash__ once per call, as CPython's. */
Obj dict_getitem_known_hash(Obj d, Obj key, int64_t hash);
int dict_setitem_known_hash(Obj d, Obj key, Obj v, int64_t hash);
/* The value of key, its entry moved to the end, in one lookup (a bounded
 * lru_cache's hit); NULL: missing (no error) or an error (err_occurred). */
Obj dict_get_move_to_end_known_hash(Obj d, Obj key, int64_t hash);
/* popitem from the front, the scan starting at *hint while *tokenp (a root
 * slot, NULL at first) is what the previous call left there: an LRU
 * eviction that does not rescan the deleted entries before the first live
 * one. NULL without an error if empty. */
Obj dict_popitem_first_hinted(Obj d, Obj *tokenp, int64_t *hint);
/* Iterate: pos starts at 0; returns false at the end. k/v may be NULL. */
bool dict_next(Obj d, int64_t *pos, Obj *k, Obj *v);
Obj dict_copy(Obj d);
int dict_update(Obj d, Obj other);        /* dict.update(other) for a mapping or iterable of pairs */
Obj dict_keys_list(Obj d);
Obj dict_items_list(Obj d);
void dict_clear(Obj d);
/* STM: turn the running transaction's pending inserts (dict.c, "inserts
 * that commit at the tail") into plain ones; a thread calls it before its
 * root slots go. Nothing in the GIL build. */
void dict_flush_pending(void);

Obj set_new(Obj iterable /* or NULL */);
Obj frozenset_new(Obj iterable /* or NULL */);
int set_add(Obj s, Obj key);
int set_contains(Obj s, Obj key);
int64_t set_len(Obj s);

int dict_contains(Obj d, Obj key);                   /* 1, 0, -1 */
/* dict_getitem_str may, only when d holds a non-str key whose hash equals
 * the str's, run that key's __eq__ (and so allocate). */

/* ------------------------------------------------------------------ */
/* set.c                                                               */
/* ------------------------------------------------------------------ */
int set_update(Obj s, Obj iterable);                 /* set.update(iterable) (SET_UPDATE) */
/* The constant of a set display of >= 3 constants, as CPython 3.11 builds
 * it: frozenset(items), rebuilt once from its own iteration order (what
 * its constant merging does). Compiled as BUILD_SET 0, LOAD_CONST this,
 * SET_UPDATE 1 (with SET_UPDATE calling set_update), `print({5, 17, 33})`
 * shows CPython's order. items: a tuple. */
Obj set_display_constant(Obj items);
/* CPython's set internals that the dict views use (other: any iterable). */
int set_difference_update(Obj s, Obj other);
int set_symmetric_difference_update(Obj s, Obj other);
Obj set_intersection_iter(Obj s, Obj other);          /* new set (kind of s) */

#endif
