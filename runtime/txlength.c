/* Per-yield-point transaction lengths (txlength.h; paper 001, Figure 3). */
#include "txlength.h"

#include <stddef.h>

/* Counters are shared by every thread that starts transactions at a site and
 * updated without locks: relaxed loads and stores, so a race loses a count
 * and nothing else. */
#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

void tm_txlen_default_params(tm_txlen_params *out)
{
    out->constant = 0;
    out->initial = TM_TXLEN_INITIAL;
    out->period = TM_TXLEN_PERIOD;
    out->attenuation = TM_TXLEN_ATTENUATION;
    out->threshold = TM_TXLEN_THRESHOLD;
    out->minimum = 1;
}

void tm_txlen_init(tm_txlen_policy *pol, const tm_txlen_params *params)
{
    if (params)
        pol->p = *params;
    else
        tm_txlen_default_params(&pol->p);
    if (pol->p.minimum < 1)
        pol->p.minimum = 1;
    if (pol->p.initial < pol->p.minimum)
        pol->p.initial = pol->p.minimum;
    for (size_t i = 0; i < TM_TXLEN_SITES; i++)
        pol->sites[i] = (tm_txlen_site){.site = TM_TXLEN_EMPTY};
    pol->untracked = 0;
}

static size_t hash(uintptr_t site)
{
    uint64_t h = (uint64_t)site * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 52) % TM_TXLEN_SITES;
}

/* The site's entry, added if absent and `add`; NULL when the table is full. */
static tm_txlen_site *find(tm_txlen_policy *pol, uintptr_t site, bool add)
{
    size_t h = hash(site);
    for (size_t k = 0; k < TM_TXLEN_SITES; k++, h = (h + 1) % TM_TXLEN_SITES) {
        tm_txlen_site *s = &pol->sites[h];
        uintptr_t key = __atomic_load_n(&s->site, __ATOMIC_ACQUIRE);
        if (key == site)
            return s;
        if (key != TM_TXLEN_EMPTY)
            continue;
        if (!add)
            return NULL;
        uintptr_t expected = TM_TXLEN_EMPTY;
        if (__atomic_compare_exchange_n(&s->site, &expected, site, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)
            || expected == site)
            return s;
    }
    return NULL;
}

const tm_txlen_site *tm_txlen_lookup(const tm_txlen_policy *pol, uintptr_t site)
{
    return find((tm_txlen_policy *)pol, site, false);
}

bool tm_txlen_settled(const tm_txlen_policy *pol, const tm_txlen_site *s)
{
    return LOAD(s->counter) > pol->p.period || LOAD(s->length) <= pol->p.minimum;
}

uint32_t tm_txlen_start(tm_txlen_policy *pol, uintptr_t site)
{
    if (pol->p.constant)
        return pol->p.constant;
    tm_txlen_site *s = find(pol, site, true);
    if (!s) {
        STORE(pol->untracked, LOAD(pol->untracked) + 1);
        return pol->p.initial;
    }
    uint32_t len = LOAD(s->length);
    if (len == 0) {   /* new (an entry's length is set just after its key) */
        len = pol->p.initial;
        STORE(s->length, len);
    }
    /* The counter stops one past the period: a whole period with few enough
     * aborts has passed, and the site is no longer profiled (the paper's
     * "upper bound for the counter" so a steady state costs nothing). */
    uint32_t c = LOAD(s->counter);
    if (c <= pol->p.period)
        STORE(s->counter, c + 1);
    STORE(s->started, LOAD(s->started) + 1);
    STORE(s->started_at_length, LOAD(s->started_at_length) + 1);
    return len;
}

bool tm_txlen_first_abort(tm_txlen_policy *pol, uintptr_t site)
{
    if (pol->p.constant)
        return false;
    tm_txlen_site *s = find(pol, site, false);
    if (!s)
        return false;
    STORE(s->aborted, LOAD(s->aborted) + 1);
    STORE(s->aborted_at_length, LOAD(s->aborted_at_length) + 1);
    uint32_t len = LOAD(s->length);
    if (len <= pol->p.minimum || LOAD(s->counter) > pol->p.period)
        return false;
    uint32_t n = LOAD(s->aborts);
    if (n <= pol->p.threshold) {
        STORE(s->aborts, n + 1);
        return false;
    }
    uint32_t cut = (uint32_t)(len * pol->p.attenuation);
    STORE(s->length, cut < pol->p.minimum ? pol->p.minimum : cut);
    STORE(s->counter, 0);
    STORE(s->aborts, 0);
    STORE(s->shortened, LOAD(s->shortened) + 1);
    STORE(s->started_at_length, 0);
    STORE(s->aborted_at_length, 0);
    return true;
}
