/* A fake HTM for tests on machines without RTM (htm.h). It cannot roll
 * memory back, so every abort is decided at begin, before the transaction
 * has run anything: begin returns the status a script or the conflict model
 * chooses, and the elision takes its abort path exactly as it would after a
 * hardware abort. A transaction begin lets start holds `fake_cpu` until it
 * ends: the fake's transactions run one at a time (the hardware would run
 * them in parallel and abort the ones that conflict). */
#include "htm.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FAKE_SCRIPT, FAKE_MODEL };
static int fake_kind = FAKE_SCRIPT;
static unsigned *script;
static size_t script_len;
static size_t script_pos;     /* next status (atomic) */
static bool script_cycles;    /* an environment script repeats; a test's runs out */
static tm_htm_model model = {.conflict = 0.002, .capacity = 0, .seed = 1};

static pthread_mutex_t fake_cpu = PTHREAD_MUTEX_INITIALIZER;
static __thread bool in_tx;
static __thread uint64_t rng;
static uint64_t rng_streams;

static uint64_t next_random(void)
{
    if (!rng) {   /* each thread its own stream, from the seed */
        uint64_t k = __atomic_add_fetch(&rng_streams, 1, __ATOMIC_RELAXED);
        rng = (model.seed + 1) * 0x9e3779b97f4a7c15ull ^ (k * 0xbf58476d1ce4e5b9ull);
        if (!rng)
            rng = 1;
    }
    rng ^= rng << 13;   /* xorshift64 */
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* x**n for a probability x and a whole n (no libm in the runtime). */
static double power(double x, uint64_t n)
{
    double r = 1;
    for (; n; n >>= 1, x *= x)
        if (n & 1)
            r *= x;
    return r;
}

/* The model: a capacity abort past the footprint; otherwise a conflict with
 * probability 1 - (1 - conflict)^(length x other running threads). */
static unsigned model_status(const tm_htm_tx *tx)
{
    if (model.capacity && tx->length > model.capacity)
        return TM_HTM_CAPACITY;
    int others = tx->running - 1;
    if (others <= 0 || model.conflict <= 0)
        return TM_HTM_STARTED;
    double p = 1 - power(1 - model.conflict, (uint64_t)tx->length * (uint64_t)others);
    double u = (double)(next_random() >> 11) / (double)(1ull << 53);
    return u < p ? (TM_HTM_CONFLICT | TM_HTM_RETRY) : TM_HTM_STARTED;
}

static unsigned script_status(void)
{
    size_t len = __atomic_load_n(&script_len, __ATOMIC_ACQUIRE);
    if (!len)
        return TM_HTM_STARTED;
    size_t i = __atomic_fetch_add(&script_pos, 1, __ATOMIC_ACQ_REL);
    if (i >= len) {
        if (!script_cycles)
            return TM_HTM_STARTED;
        i %= len;
    }
    return script[i];
}

static unsigned fake_begin(const tm_htm_tx *tx)
{
    unsigned st = fake_kind == FAKE_MODEL ? model_status(tx) : script_status();
    if (st != TM_HTM_STARTED)
        return st;
    pthread_mutex_lock(&fake_cpu);
    in_tx = true;
    return TM_HTM_STARTED;
}

static void fake_end(void)
{
    in_tx = false;
    pthread_mutex_unlock(&fake_cpu);
}

static unsigned fake_abort(uint8_t code)
{
    if (in_tx)
        fake_end();
    return TM_HTM_STATUS_EXPLICIT(code);
}

static bool fake_test(void) { return in_tx; }

/* A GIL holder must not run while a fake transaction does: wait for it. */
static void fake_gil_taken(void)
{
    if (in_tx)
        return;
    pthread_mutex_lock(&fake_cpu);
    pthread_mutex_unlock(&fake_cpu);
}

const tm_htm_ops tm_htm_fake = {
    .name = "fake", .begin = fake_begin, .end = fake_end, .abort = fake_abort, .test = fake_test,
    .gil_taken = fake_gil_taken, .rolls_back = false,
};

static void set_script(const unsigned *statuses, size_t n, bool cycles)
{
    unsigned *copy = n ? malloc(n * sizeof *copy) : NULL;
    if (n && !copy)
        n = 0;
    if (n)
        memcpy(copy, statuses, n * sizeof *copy);
    __atomic_store_n(&script_len, 0, __ATOMIC_RELEASE);
    free(script);   /* tests set scripts between runs, never during one */
    script = copy;
    script_pos = 0;
    script_cycles = cycles;
    fake_kind = FAKE_SCRIPT;
    __atomic_store_n(&script_len, n, __ATOMIC_RELEASE);
}

void tm_htm_fake_script(const unsigned *statuses, size_t n) { set_script(statuses, n, false); }

size_t tm_htm_fake_script_left(void)
{
    size_t pos = __atomic_load_n(&script_pos, __ATOMIC_ACQUIRE);
    return pos >= script_len ? 0 : script_len - pos;
}

void tm_htm_fake_model(const tm_htm_model *m)
{
    model = *m;
    fake_kind = FAKE_MODEL;
}

static int parse_model(const char *s, tm_htm_model *m, char *err, size_t errlen)
{
    while (*s) {
        const char *eq = strchr(s, '=');
        const char *comma = strchr(s, ',');
        size_t keylen = eq ? (size_t)(eq - s) : 0;
        if (!eq || (comma && comma < eq))
            goto bad;
        char *end;
        errno = 0;
        if (keylen == 8 && !strncmp(s, "conflict", 8)) {
            m->conflict = strtod(eq + 1, &end);
            if (end == eq + 1 || errno || !(m->conflict >= 0 && m->conflict <= 1))
                goto bad;
        } else if (keylen == 8 && !strncmp(s, "capacity", 8)) {
            unsigned long v = strtoul(eq + 1, &end, 10);
            if (end == eq + 1 || errno || eq[1] == '-' || v > 1000000)
                goto bad;
            m->capacity = (uint32_t)v;
        } else if (keylen == 4 && !strncmp(s, "seed", 4)) {
            m->seed = strtoull(eq + 1, &end, 10);
            if (end == eq + 1 || errno || eq[1] == '-')
                goto bad;
        } else {
            goto bad;
        }
        if (*end == ',' && end[1])
            s = end + 1;
        else if (*end)
            goto bad;
        else
            s = end;
    }
    return 0;
bad:
    snprintf(err, errlen, "TMPY_HTM_FAKE: a model takes conflict=P (0..1), capacity=N (0..1000000) and seed=S, "
             "as model:conflict=0.002,capacity=100,seed=1; got '%s'", s);
    return -1;
}

int tm_htm_fake_configure(const char *spec, char *err, size_t errlen)
{
    if (!strcmp(spec, "model") || !strncmp(spec, "model:", 6)) {
        tm_htm_model m = {.conflict = 0.002, .capacity = 0, .seed = 1};
        if (spec[5] == ':' && parse_model(spec + 6, &m, err, errlen) < 0)
            return -1;
        tm_htm_fake_model(&m);
        return 0;
    }
    if (!strncmp(spec, "script:", 7) && spec[7]) {
        size_t n = strlen(spec + 7);
        unsigned *codes = malloc(n * sizeof *codes);
        if (!codes) {
            snprintf(err, errlen, "TMPY_HTM_FAKE: out of memory");
            return -1;
        }
        for (size_t i = 0; i < n; i++) {
            switch (spec[7 + i]) {
            case 's': codes[i] = TM_HTM_STARTED; break;
            case 'c': codes[i] = TM_HTM_CONFLICT | TM_HTM_RETRY; break;
            case 'k': codes[i] = TM_HTM_CONFLICT; break;
            case 'p': codes[i] = TM_HTM_CAPACITY; break;
            case 'e': codes[i] = TM_HTM_STATUS_EXPLICIT(1); break;
            case 'u': codes[i] = 0; break;
            default:
                free(codes);
                snprintf(err, errlen, "TMPY_HTM_FAKE: a script is letters s c k p e u, got '%s'", spec + 7);
                return -1;
            }
        }
        set_script(codes, n, true);
        free(codes);
        return 0;
    }
    snprintf(err, errlen, "TMPY_HTM_FAKE must be model[:conflict=P,capacity=N,seed=S] or script:LETTERS, got '%s'",
             spec);
    return -1;
}
