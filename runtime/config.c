#include "config.h"
#include "segment.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The parameters tm_runtime_init was given. */
tm_config tm_cfg;
const char *tm_config_tm_option;

/* One segment per online CPU, at least 2 (TMPY_SEGMENTS overrides). */
static int default_segments(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 2 ? 2 : n > TM_MAX_SEGMENTS ? TM_MAX_SEGMENTS : (int)n;
}

void tm_config_defaults(tm_config *c)
{
    *c = (tm_config){
        .nsegments = default_segments(),
        .segment_size = 16UL << 30, /* the heap limit; fits a 24 GiB machine */
        .nursery_size = 4UL << 20,
        .major_min = 16UL << 20,   /* 64M let a small program's old garbage grow to 4x CPython's RSS */
        .major_factor = 1.82,
        .gc_debug_move = false,
        .stm_solo = true,
        .stm_cm = TM_CM_CFG_ON,
    };
}

/* A byte count with an optional K/M/G/T suffix (powers of 1024): digits
 * first, nothing after the suffix (no blanks on either side). */
static int parse_size(const char *s, size_t *out)
{
    if (!isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return -1;
    int shift = 0;
    switch (toupper((unsigned char)*end)) {
    case 'K': shift = 10; end++; break;
    case 'M': shift = 20; end++; break;
    case 'G': shift = 30; end++; break;
    case 'T': shift = 40; end++; break;
    }
    if (*end && !((*end == 'B' || *end == 'b') && !end[1]))
        return -1;
    if (shift && v > (UINT64_MAX >> shift))
        return -1;
    *out = (size_t)(v << shift);
    return 0;
}

/* A 0/1 variable: unset or empty leaves *flag as it is. */
static int env_flag(const char *name, bool *flag, char *err, size_t errlen)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return 0;
    if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0) {
        snprintf(err, errlen, "%s must be 0 or 1, got '%s'", name, v);
        return -1;
    }
    *flag = *v == '1';
    return 0;
}

int tm_config_from_env(tm_config *c, char *err, size_t errlen)
{
    const char *v;
    if ((v = getenv("TMPY_SEGMENTS"))) {
        char *end;
        errno = 0;
        long n = strtol(v, &end, 10);   /* digits only: strtol alone would skip leading blanks and take a sign */
        if (!isdigit((unsigned char)*v) || *end || errno || n < 1 || n > TM_MAX_SEGMENTS) {
            snprintf(err, errlen, "TMPY_SEGMENTS must be an integer from 1 to %d, got '%s'",
                     TM_MAX_SEGMENTS, v);
            return -1;
        }
        c->nsegments = (int)n;
    }
    if ((v = getenv("TMPY_SEGMENT_SIZE"))) {
        size_t s;
        if (parse_size(v, &s) || s % TM_PAGE_SIZE || s < TM_MIN_SEGMENT_SIZE) {
            snprintf(err, errlen, "TMPY_SEGMENT_SIZE must be a size of at least 64M in whole 4K pages "
                     "(a number with an optional K, M, G or T suffix), got '%s'", v);
            return -1;
        }
        c->segment_size = s;
    }
    if ((v = getenv("TMPY_NURSERY_SIZE"))) {
        size_t s;
        if (parse_size(v, &s) || s % TM_PAGE_SIZE || s < (256UL << 10) || s > (1UL << 30)) {
            snprintf(err, errlen, "TMPY_NURSERY_SIZE must be a size from 256K to 1G in whole 4K pages, got '%s'", v);
            return -1;
        }
        c->nursery_size = s;
    }
    if ((v = getenv("TMPY_GC_MAJOR_MIN"))) {
        size_t s;
        if (parse_size(v, &s)) {
            snprintf(err, errlen, "TMPY_GC_MAJOR_MIN must be a size (e.g. 64M), got '%s'", v);
            return -1;
        }
        c->major_min = s;
    }
    if ((v = getenv("TMPY_GC_DEBUG")) && *v) {
        char *end = NULL;
        unsigned long room = 0;
        if (strncmp(v, "move:", 5) == 0) {
            errno = 0;
            room = strtoul(v + 5, &end, 10);
        }
        if (strcmp(v, "move") != 0 && !(end && end != v + 5 && !*end && !errno && room <= 65536)) {
            snprintf(err, errlen, "TMPY_GC_DEBUG must be 'move', 'move:ROOM' (bytes, at most 65536) or empty, "
                     "got '%s'", v);
            return -1;
        }
        c->gc_debug_move = true;
        c->gc_debug_room = (uint32_t)room;
    }
    if (env_flag("TMPY_STM_WAIT_FOR_READERS", &c->wait_for_readers, err, errlen))
        return -1;
    if (env_flag("TMPY_STM_SOLO", &c->stm_solo, err, errlen))
        return -1;
    if (env_flag("TMPY_STM_CHECK", &c->stm_check, err, errlen))
        return -1;
    if (env_flag("TMPY_GC_VERIFY", &c->gc_verify, err, errlen))
        return -1;
    if ((v = getenv("TMPY_STM_CM")) && *v) {
        if (strcmp(v, "off") == 0)
            c->stm_cm = TM_CM_CFG_OFF;
        else if (strcmp(v, "on") == 0)
            c->stm_cm = TM_CM_CFG_ON;
        else if (strcmp(v, "eager") == 0)
            c->stm_cm = TM_CM_CFG_EAGER;
        else {
            snprintf(err, errlen, "TMPY_STM_CM must be 'on', 'off' or 'eager', got '%s'", v);
            return -1;
        }
    }
    if ((v = getenv("TMPY_STM_INJECT_ABORTS")) && *v) {
        char *end;
        errno = 0;
        double rate = strtod(v, &end);
        unsigned long long seed = 1;
        bool ok = end != v && !errno && rate >= 0 && rate <= 1;
        if (ok && *end == ':') {
            const char *s = end + 1;
            seed = strtoull(s, &end, 10);
            ok = isdigit((unsigned char)*s) && !errno;
        }
        if (!ok || *end) {
            snprintf(err, errlen, "TMPY_STM_INJECT_ABORTS must be RATE or RATE:SEED (RATE from 0 to 1, "
                     "SEED an unsigned integer), got '%s'", v);
            return -1;
        }
        c->inject_aborts = rate;
        c->inject_seed = seed;
    }
    if (env_flag("TMPY_STM_INJECT_DIVERGE", &c->inject_diverge, err, errlen))
        return -1;
    if (env_flag("TMPY_TEST_WAKE_AT_ONCE", &c->wake_at_once, err, errlen))
        return -1;
    if ((v = getenv("TMPY_TEST_WAKE_DELAY")) && *v) {
        char *end;
        errno = 0;
        unsigned long us = strtoul(v, &end, 10);
        if (!isdigit((unsigned char)*v) || *end || errno || us > 1000000) {
            snprintf(err, errlen, "TMPY_TEST_WAKE_DELAY must be microseconds from 0 to 1000000, got '%s'", v);
            return -1;
        }
        c->wake_delay_us = (uint32_t)us;
    }
    v = tm_config_tm_option ? tm_config_tm_option : getenv("TMPY_TM");
    if (v && *v) {
        if (strcmp(v, TM_STM ? "stm" : "gil") != 0 && (TM_STM || strcmp(v, "htm") != 0)) {
            snprintf(err, errlen, TM_STM ? "TMPY_TM must be stm in build/tmpy (HTM elision is tmpy-gil's), got '%s'"
                                         : "TMPY_TM must be gil or htm, got '%s'", v);
            return -1;
        }
        c->tm_htm = !strcmp(v, "htm");
    }
    if ((v = getenv("TMPY_HTM_FAKE")) && *v)
        c->htm_fake = v;   /* checked when the fake is configured */
    if ((v = getenv("TMPY_HTM_TXLEN")) && *v) {
        char *end;
        errno = 0;
        unsigned long n = strtoul(v, &end, 10);
        if (!isdigit((unsigned char)*v) || *end || errno || n < 1 || n > 1000000) {
            snprintf(err, errlen, "TMPY_HTM_TXLEN must be an integer from 1 to 1000000, got '%s'", v);
            return -1;
        }
        c->htm_txlen = (uint32_t)n;
    }
    /* The reservation must fit in the address space: (N+1) segments. */
    if (c->segment_size > TM_MAX_RESERVATION / (size_t)(c->nsegments + 1)) {
        snprintf(err, errlen, "TMPY_SEGMENT_SIZE of %zu bytes times %d segments (TMPY_SEGMENTS+1) "
                 "exceeds the %lu TiB address-space limit", c->segment_size, c->nsegments + 1,
                 TM_MAX_RESERVATION >> 40);
        return -1;
    }
    if (c->nursery_size > c->segment_size / 4) {
        snprintf(err, errlen, "TMPY_NURSERY_SIZE (%zu) must be at most a quarter of TMPY_SEGMENT_SIZE (%zu)",
                 c->nursery_size, c->segment_size);
        return -1;
    }
    return 0;
}
