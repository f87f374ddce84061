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
 *   move), kept alive by the MRO of the type whose version keys the entry;
 *   no value is kept (objects move), only its place in the owner's dict.
 * The probe is inline (type_lookup_where, tmpy.h); a miss comes here. */
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
/* name in type b's own dict (NULL: absent; a non-str key may raise). */
static Obj own_attr(TypeObj *b, Obj name)
{
    Obj d = b->dict;
    if (!d)
        return NULL;
    return IS_STR(name) ? dict_getitem_str(d, name) : dict_getitem(d, name);
}

/* Walk the MRO (no cache). *where gets the defining type. */
Obj type_lookup_uncached(TypeObj *t, Obj name, TypeObj **where)
{
    Obj mro = t->mro, v = NULL;
    TypeObj *b = NULL;
    if (mro) {
        for (int64_t i = 0; i < TUPLE_LEN(mro) && !v; i++)
            v = own_attr(b = (TypeObj *)TUPLE_ITEMS(mro)[i], name);
    } else {   /* not readied yet (start-up): its base chain */
        for (b = t; b && !(v = own_attr(b, name)); b = (TypeObj *)b->base)
            ;
    }
    if (v && where)
        *where = b;
    return v;
}

__thread TypeCacheEntry type_cache[1u << TYPE_CACHE_BITS];

/* Whether type b's own dict has name; if so, where into *at. */
static bool find_in(TypeObj *b, Obj name, TypeAttr *at)
{
    Obj d = b->dict;
    int64_t ix = d ? dict_lookup_str_index(d, name) : -1;
    if (ix < 0)
        return false;
    at->owner = b;
    at->dver = DICT(d)->version;
    at->ix = ix;
    return true;
}

/* A miss of type_lookup_where: walk the MRO and fill the entry. */
const TypeAttr *type_lookup_fill(TypeObj *t, Obj name)
{
    static __thread TypeAttr uncached;
    int64_t h = str_hash(name);
    Obj mro = t->mro;
    if (!mro) {   /* not readied yet (start-up): its base chain, not kept */
        TypeAttr *at = &uncached;
        at->owner = NULL;
        for (TypeObj *b = t; b && !find_in(b, name, at); b = (TypeObj *)b->base)
            ;
        return at;
    }
    TypeCacheEntry *e = &type_cache[type_cache_index(t->version, h)];
    e->tver = t->version;
    e->name = name;
    e->hash = h;
    e->at.owner = NULL;
    for (int64_t i = 0, n = TUPLE_LEN(mro); i < n && !find_in((TypeObj *)TUPLE_ITEMS(mro)[i], name, &e->at); i++)
        ;
    return &e->at;
}

Obj vm_lookup_type(TypeObj *t, Obj name)
{
    if (unlikely(!IS_STR(name) || !t->mro))
        return type_lookup_uncached(t, name, NULL);
    return type_attr_value(type_lookup_where(t, name));
}

Obj vm_lookup_special(Obj v, const char *dunder)
{
    Obj name = vm_intern_cached(dunder);
    if (!name) {
        err_clear();
        return NULL;
    }
    return vm_lookup_type(TYPE(v), name);
}
