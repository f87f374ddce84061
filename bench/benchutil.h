/* Helpers shared by the C benchmarks: the TMPY_BENCH_SCALE knob, fatal
 * errors, and small statistics. Define BENCH_NAME before including. */
#ifndef BENCHUTIL_H
#define BENCHUTIL_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BENCH_NAME
#error "define BENCH_NAME before including benchutil.h"
#endif

/* Multiplies the work of every benchmark; default 1. */
static inline double bench_scale(void)
{
    const char *s = getenv("TMPY_BENCH_SCALE");
    if (!s || !*s)
        return 1.0;
    char *end;
    double v = strtod(s, &end);
    if (*end || !(v > 0)) {
        fprintf(stderr, BENCH_NAME ": TMPY_BENCH_SCALE must be a positive number, got '%s'\n", s);
        exit(2);
    }
    return v;
}

static inline size_t scaled(double base, double scale, size_t min)
{
    double v = base * scale;
    return v < (double)min ? min : (size_t)v;
}

__attribute__((noreturn)) static inline void die(const char *what)
{
    fprintf(stderr, BENCH_NAME ": %s\n", what);
    exit(1);
}

static inline void *xalloc(size_t n)
{
    void *p = calloc(n ? n : 1, 1);
    if (!p)
        die("out of C memory");
    return p;
}

static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline double median(const double *v, size_t n)
{
    double *c = xalloc(n * sizeof *c);
    memcpy(c, v, n * sizeof *c);
    qsort(c, n, sizeof *c, cmp_double);
    double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    free(c);
    return m;
}

static inline double minimum(const double *v, size_t n)
{
    double m = v[0];
    for (size_t i = 1; i < n; i++)
        if (v[i] < m)
            m = v[i];
    return m;
}

static inline double maximum(const double *v, size_t n)
{
    double m = v[0];
    for (size_t i = 1; i < n; i++)
        if (v[i] > m)
            m = v[i];
    return m;
}

#endif
