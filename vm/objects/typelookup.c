/* Type attribute lookup: name in a type's MRO, with no binding (the first
 * step of every attribute access, special method call and LOAD_ATTR cache
 * fill), through one per-thread cache, and the type versions it is keyed on.
 *
 * Why the cache is right, also under STM:
 * - A type's version changes (type_modified) whenever an attribute of it or
 *   of a base is set or deleted, its __bases__ change, or it is created;
 *   type_modified renews the versions of every class below it too (the
 *   subclass lists). Versions come from one process-wide counter that aborts
 *   do not roll back, so a version is never given twice: an entry keyed on a
 *   version an aborted transaction made is never hit again.
 * - A hit is also checked against the owner's dict version (unique numbers
 *   as well, dict.c), so a dict changed without type_modified misses.
 * - The cache is __thread: no locking, no torn entries, and nothing of it is
 *   in the transactional heap. Owners are types, allocated old (they never
 *   move), kept alive by the MRO of the type whose version keys the entry. */
#include "objects.h"

/* ------------------------------------------------------------------ */
/* Versions                                                           */
/* ------------------------------------------------------------------ */
static uint64_t version_counter;

uint64_t type_new_version(void)
{
    return __atomic_add_fetch(&version_counter, 1, __ATOMIC_RELAXED);
}

static void modified_rec(TypeObj *t, int depth)
{
    VM_WRITE_RARE(t);
    t->version = type_new_version();
    Obj subs = t->subclasses;
    if (!subs || depth > 200)
        return;
    for (int64_t i = 0; i < LIST_LEN(subs); i++)
        modified_rec((TypeObj *)LIST_ITEMS(subs)[i], depth + 1);
}

void type_modified(TypeObj *t) { modified_rec(t, 0); }

/* ------------------------------------------------------------------ */
/* Lookup                                                             */
/* ------------------------------------------------------------------ */
/* Walk the MRO (no cache). *where gets the defining type. */
Obj type_lookup_uncached(TypeObj *t, Obj name, TypeObj **where)
{
    Obj mro = t->mro;
    if (mro) {
        int64_t n = TUPLE_LEN(mro);
        for (int64_t i = 0; i < n; i++) {
            TypeObj *b = (TypeObj *)TUPLE_ITEMS(mro)[i];
            Obj d = b->dict;
            if (!d)
                continue;
            Obj v = IS_STR(name) ? dict_getitem_str(d, name) : dict_getitem(d, name);
            if (v) {
                if (where)
                    *where = b;
                return v;
            }
        }
        return NULL;
    }
    /* Not readied yet (start-up): follow the base chain. */
    for (TypeObj *b = t; b; b = (TypeObj *)b->base) {
        Obj d = b->dict;
        if (!d)
            continue;
        Obj v = IS_STR(name) ? dict_getitem_str(d, name) : dict_getitem(d, name);
        if (v) {
            if (where)
                *where = b;
            return v;
        }
    }
    return NULL;
}

#define TYPE_CACHE_BITS 12
typedef struct TypeCacheEntry {
    uint64_t tver;     /* the version of the type looked in (0: empty) */
    Obj name;          /* compared by address only (with the hash) */
    int64_t hash;
    TypeAttr at;       /* at.owner NULL: no type of the MRO has name */
} TypeCacheEntry;
static __thread TypeCacheEntry type_cache[1u << TYPE_CACHE_BITS];

static inline unsigned type_cache_index(uint64_t ver, int64_t h)
{
    return (unsigned)(((ver * 0x9E3779B97F4A7C15ull) ^ (uint64_t)h) * 0xff51afd7ed558ccdull >> (64 - TYPE_CACHE_BITS));
}

static Obj lookup_uncached_at(TypeObj *t, Obj name, TypeAttr *where)
{
    TypeObj *owner = NULL;
    Obj v = type_lookup_uncached(t, name, &owner);
    where->owner = v ? owner : NULL;
    where->dver = 0;
    where->ix = -1;
    return v;
}

Obj type_lookup(TypeObj *t, Obj name, TypeAttr *where)
{
    if (unlikely(!IS_STR(name) || !t->mro)) {
        if (where)
            return lookup_uncached_at(t, name, where);
        return type_lookup_uncached(t, name, NULL);
    }
    int64_t h = STR(name)->hash;
    if (h == -1)
        h = str_hash(name);
    uint64_t ver = t->version;
    TypeCacheEntry *e = &type_cache[type_cache_index(ver, h)];
    if (e->tver == ver && e->name == name && e->hash == h) {
        TypeObj *owner = e->at.owner;
        if (!owner) {
            if (where)
                *where = e->at;
            return NULL;
        }
        Obj d = owner->dict;
        if (DICT(d)->version == e->at.dver) {
            if (where)
                *where = e->at;
            return dict_value_at(d, e->at.ix);
        }
    }
    e->tver = ver;
    e->name = name;
    e->hash = h;
    e->at.owner = NULL;
    e->at.dver = 0;
    e->at.ix = -1;
    Obj v = NULL;
    Obj mro = t->mro;
    int64_t n = TUPLE_LEN(mro);
    for (int64_t i = 0; i < n; i++) {
        TypeObj *b = (TypeObj *)TUPLE_ITEMS(mro)[i];
        Obj d = b->dict;
        int64_t ix = dict_lookup_str_index(d, name);
        if (ix >= 0) {
            e->at.owner = b;
            e->at.dver = DICT(d)->version;
            e->at.ix = ix;
            v = dict_value_at(d, ix);
            break;
        }
    }
    if (where)
        *where = e->at;
    return v;
}

Obj vm_lookup_type(TypeObj *t, Obj name) { return type_lookup(t, name, NULL); }

Obj vm_lookup_special(Obj v, const char *dunder)
{
    Obj name = vm_intern_cached(dunder);
    if (!name) {
        err_clear();
        return NULL;
    }
    return vm_lookup_type(TYPE(v), name);
}
