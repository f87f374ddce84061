/* Shared helpers for the runtime's C tests: checks that report and fail,
 * a small deterministic PRNG, and the TMPY_TEST_SCALE knob for long runs. */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);     \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

/* Multiplies iteration counts; default 1 keeps `make test` short. */
static inline double test_scale(void)
{
    const char *s = getenv("TMPY_TEST_SCALE");
    double v = s ? atof(s) : 1.0;
    return v > 0 ? v : 1.0;
}

typedef struct { uint64_t s; } rng_t;

static inline uint64_t rng_next(rng_t *r)   /* splitmix64 */
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline uint64_t rng_below(rng_t *r, uint64_t n) { return rng_next(r) % n; }

#endif
