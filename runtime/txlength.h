/* Per-yield-point transaction lengths (paper 001, section 4.3, Figure 3).
 *
 * A transaction that starts at yield point `site` runs through length-1 more
 * yield points before it ends. Each site starts at a long length; while a
 * site is being profiled, a transaction's first abort counts against it, and
 * when more than `threshold` of the transactions started in one profiling
 * period abort, the site's length is multiplied by `attenuation` and a new
 * period begins. A period of `period` transactions with at most `threshold`
 * aborts ends profiling at that site: its length is settled.
 *
 * No Python and no transaction mechanism in here: a site is an opaque
 * non-zero word (the interpreter passes its yield point's code position; 0 is
 * "not at a yield point"), and "abort" is whatever the caller counts as one
 * (hardware aborts in the GIL build's HTM elision; the STM build can feed its
 * own aborts to a policy of its own). Sites are kept in a fixed table, added
 * and counted without locks: calls from several threads at once are safe,
 * and a racing update can lose a count, which only shifts a decision by one
 * transaction (as the paper's unsynchronised counters do). */
#ifndef TM_TXLENGTH_H
#define TM_TXLENGTH_H

#include <stdbool.h>
#include <stdint.h>

/* Section 5.1's values for the 4th Generation Core processor: initial length
 * 255, profiling period 300, attenuation 0.75, threshold 18 (a 6% target
 * abort ratio; zEC12 used 3, i.e. 1%). */
#define TM_TXLEN_INITIAL 255
#define TM_TXLEN_PERIOD 300
#define TM_TXLEN_ATTENUATION 0.75
#define TM_TXLEN_THRESHOLD 18

/* Sites the table holds; a site that finds it full runs at the constant
 * initial length and is counted in `untracked`. */
#define TM_TXLEN_SITES 4096

typedef struct tm_txlen_params {
    uint32_t constant;     /* non-zero: every transaction has this length (Figure 3, lines 2-3) */
    uint32_t initial;      /* a site's first length */
    uint32_t period;       /* transactions per profiling period */
    double attenuation;    /* length *= attenuation when a period aborts too often */
    uint32_t threshold;    /* aborts a period may have */
    uint32_t minimum;      /* no cut goes below it (the paper's 1; 0 reads as 1) */
} tm_txlen_params;

typedef struct tm_txlen_site {
    uintptr_t site;        /* key; TM_TXLEN_EMPTY while unused */
    uint32_t length;       /* current length */
    uint32_t counter;      /* transactions started in this profiling period (stops at period) */
    uint32_t aborts;       /* first aborts counted in this period */
    uint32_t shortened;    /* times the length was cut */
    uint64_t started;      /* transactions started here, in total */
    uint64_t aborted;      /* of those, how many aborted at least once */
    uint64_t started_at_length, aborted_at_length;   /* the same since the last cut */
} tm_txlen_site;

typedef struct tm_txlen_policy {
    tm_txlen_params p;
    tm_txlen_site sites[TM_TXLEN_SITES];
    uint64_t untracked;    /* transactions from sites the full table could not take */
} tm_txlen_policy;

#define TM_TXLEN_EMPTY ((uintptr_t)-1)

/* params NULL: section 5.1's defaults. */
void tm_txlen_init(tm_txlen_policy *pol, const tm_txlen_params *params);
void tm_txlen_default_params(tm_txlen_params *out);

/* A transaction is about to start at site: its length (Figure 3, lines 1-10). */
uint32_t tm_txlen_start(tm_txlen_policy *pol, uintptr_t site);

/* The transaction started at site aborted for the first time (lines 11-24).
 * Returns true if this cut the site's length. */
bool tm_txlen_first_abort(tm_txlen_policy *pol, uintptr_t site);

/* The site's entry (NULL if it has none); for statistics and tests. */
const tm_txlen_site *tm_txlen_lookup(const tm_txlen_policy *pol, uintptr_t site);

/* Whether profiling has ended at this site (its length is settled). */
bool tm_txlen_settled(const tm_txlen_policy *pol, const tm_txlen_site *s);

#endif
