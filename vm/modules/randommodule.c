/* _random: the Mersenne Twister core under CPython 3.11's random.py (the
 * system stdlib's, which `import random` loads; tmpy has no random of its
 * own). The type _random.Random has CPython's interface: random(),
 * seed(n=None), getstate(), setstate(state), getrandbits(k), a generic
 * __new__ (any arguments, an unseeded all-zero state) and an __init__ that
 * seeds from its one optional argument, refusing keywords unless a subclass
 * replaced __init__ (random.Random does). random.py does the rest in
 * Python, as on CPython: Random.seed turns str, bytes and bytearray into an
 * int (SHA-512 for version 2, the old string hash for version 1) before it
 * calls seed() here, and randrange, choice, shuffle, sample, choices, the
 * distributions, pickling, the subclass hooks and SystemRandom are its
 * own. The sequences are CPython's for the same seed: MT19937 seeded by
 * init_by_array from the seed's 32-bit words, random() from 53 bits of two
 * outputs, getrandbits() from 32-bit words, least significant first.
 *
 * An instance is an InstanceObj (_random.Random or a subclass) whose
 * base_value is a RawObj holding the generator state (MTState); the type's
 * own instances have no __dict__, as CPython's. */
#include "modules.h"
#include "posix.h"
#include "objects/objects.h"
#include "objects/numbers.h"
#include "objects/strobj.h"
#include "objects/containers.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ==== core begin: no VM calls in this part ==== */

#define MT_N 624
#define MT_M 397

typedef struct MTState {
    uint32_t mt[MT_N];
    int32_t index;   /* next word of mt to hand out; MT_N: regenerate first */
} MTState;

static void mt_init_genrand(MTState *s, uint32_t seed)
{
    s->mt[0] = seed;
    for (uint32_t i = 1; i < MT_N; i++)
        s->mt[i] = 1812433253U * (s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) + i;
    s->index = MT_N;
}

static void mt_init_by_array(MTState *s, const uint32_t *key, size_t keylen)
{
    mt_init_genrand(s, 19650218U);
    size_t i = 1, j = 0;
    size_t k = MT_N > keylen ? MT_N : keylen;
    for (; k; k--) {
        s->mt[i] = (s->mt[i] ^ ((s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            s->mt[0] = s->mt[MT_N - 1];
            i = 1;
        }
        if (j >= keylen)
            j = 0;
    }
    for (k = MT_N - 1; k; k--) {
        s->mt[i] = (s->mt[i] ^ ((s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            s->mt[0] = s->mt[MT_N - 1];
            i = 1;
        }
    }
    s->mt[0] = 0x80000000U;
}

static uint32_t mt_genrand(MTState *s)
{
    static const uint32_t mag01[2] = {0, 0x9908b0dfU};
    uint32_t y;
    if (s->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (s->mt[kk] & 0x80000000U) | (s->mt[kk + 1] & 0x7fffffffU);
            s->mt[kk] = s->mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 1];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (s->mt[kk] & 0x80000000U) | (s->mt[kk + 1] & 0x7fffffffU);
            s->mt[kk] = s->mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1];
        }
        y = (s->mt[MT_N - 1] & 0x80000000U) | (s->mt[0] & 0x7fffffffU);
        s->mt[MT_N - 1] = s->mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1];
        s->index = 0;
    }
    y = s->mt[s->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

/* random(): 53 random bits, (a*2**26 + b) / 2**53. */
static double mt_random(MTState *s)
{
    uint32_t a = mt_genrand(s) >> 5, b = mt_genrand(s) >> 6;
    return ((double)a * 67108864.0 + (double)b) * (1.0 / 9007199254740992.0);
}

/* getrandbits(k) for 0 < k <= 64: 32-bit words, least significant first;
 * the last one keeps its top bits. */
static uint64_t mt_getrandbits64(MTState *s, int k)
{
    if (k <= 32)
        return mt_genrand(s) >> (32 - k);
    uint64_t lo = mt_genrand(s);
    uint64_t hi = mt_genrand(s) >> (64 - k);
    return lo | (hi << 32);
}

/* The 32-bit key of a magnitude in 64-bit limbs (least significant first),
 * as many words as it needs (one for 0): a malloc'd array, NULL if out of
 * memory. */
static uint32_t *mt_key_of_limbs(const uint64_t *d, size_t n, size_t *words)
{
    while (n > 0 && d[n - 1] == 0)
        n--;
    size_t w = n == 0 ? 1 : 2 * n - ((d[n - 1] >> 32) == 0 ? 1 : 0);
    uint32_t *key = calloc(w, sizeof(uint32_t));
    if (!key)
        return NULL;
    for (size_t i = 0; i < n * 2 && i < w; i++)
        key[i] = (uint32_t)(d[i / 2] >> (32 * (i % 2)));
    *words = w;
    return key;
}

/* ==== core end ==== */

static TypeObj *T_Random;   /* _random.Random */

/* The generator state of self (a linear pointer: valid until the next
 * allocation), or NULL with TypeError. `write`: it is about to change. */
static MTState *get_state(Obj self, bool write)
{
    Obj st = vm_unwrap(self);
    if (st == self || TID(st) != TID_RAW || RAW(st)->length != (int64_t)sizeof(MTState)) {
        err_format(E_TypeError, "descriptor requires a '_random.Random' object but received '%s'",
                   type_name(self));
        return NULL;
    }
    if (write)
        VM_WRITE(st);
    else
        VM_READ(st);
    return (MTState *)VM_LINEAR(RAW(st)->data);
}

/* No seed: the OS's entropy (CPython's urandom), else the time and pid. */
static void seed_urandom(MTState *s)
{
    uint32_t key[MT_N];
    if (posix_random_bytes(key, sizeof key) < 0) {
        struct timespec rt, mono;
        clock_gettime(CLOCK_REALTIME, &rt);
        clock_gettime(CLOCK_MONOTONIC, &mono);
        key[0] = (uint32_t)rt.tv_sec;
        key[1] = (uint32_t)((uint64_t)rt.tv_sec >> 32);
        key[2] = (uint32_t)rt.tv_nsec;
        key[3] = (uint32_t)getpid();
        key[4] = (uint32_t)mono.tv_nsec;
        mt_init_by_array(s, key, 5);
        return;
    }
    mt_init_by_array(s, key, MT_N);
}

/* Seed from a magnitude; -1 with MemoryError. */
static int seed_limbs(Obj self, const uint64_t *d, size_t n)
{
    size_t words;
    uint32_t *key = mt_key_of_limbs(d, n, &words);
    if (!key) {
        err_nomemory();
        return -1;
    }
    MTState *s = get_state(self, true);   /* never allocates: d stays valid */
    if (s)
        mt_init_by_array(s, key, words);
    free(key);
    return s ? 0 : -1;
}

/* seed(n): None (or no argument) from the OS's entropy; an int by its
 * absolute value (an int subclass by its int value, never its own
 * __abs__); anything else by hash(n) read as an unsigned 64-bit word.
 * *selfp is a root slot (hash() may run Python). */
static int seed_obj(Obj *selfp, Obj arg)
{
    if (!arg || IS_NONE(arg)) {
        MTState *s = get_state(*selfp, true);
        if (!s)
            return -1;
        seed_urandom(s);
        return 0;
    }
    Obj v = vm_unwrap(arg);
    if (IS_SMALLINT(v) || TID(v) == TID_BOOL) {
        int64_t x = IS_SMALLINT(v) ? SMALLINT_VAL(v) : ((BoolObj *)v)->value;
        uint64_t m = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
        return seed_limbs(*selfp, &m, 1);
    }
    if (TID(v) == TID_BIGINT) {   /* ints never change: read its limbs in place */
        if (!get_state(*selfp, false))
            return -1;
        return seed_limbs(*selfp, (const uint64_t *)VM_LINEAR(((BigIntObj *)v)->limbs),
                          (size_t)((BigIntObj *)v)->nlimbs);
    }
    if (!get_state(*selfp, false))   /* the type's error before hash()'s */
        return -1;
    int64_t h = vm_hash(arg);
    if (h == -1 && err_occurred())
        return -1;
    uint64_t m = (uint64_t)h;
    return seed_limbs(*selfp, &m, 1);
}

/* ------------------------------------------------------------------ */
/* Methods                                                             */
/* ------------------------------------------------------------------ */

static Obj r_random(Obj *args, size_t nargs, Obj kwnames)
{
    MTState *s = get_state(args[0], true);
    if (!s)
        return NULL;
    return float_new(mt_random(s));
}

static Obj r_seed(Obj *args, size_t nargs, Obj kwnames)
{
    if (seed_obj(&args[0], nargs > 1 ? args[1] : NULL) < 0)
        return NULL;
    return g_None;
}

/* (mt[0], ..., mt[623], index) */
static Obj r_getstate(Obj *args, size_t nargs, Obj kwnames)
{
    if (!get_state(args[0], false))
        return NULL;
    Obj t = tuple_new(MT_N + 1);
    if (!t)
        return NULL;
    VM_WRITE(t);
    MTState *s = get_state(args[0], false);
    for (int i = 0; i < MT_N; i++)
        TUPLE_ITEMS(t)[i] = MAKE_SMALLINT((int64_t)s->mt[i]);
    TUPLE_ITEMS(t)[MT_N] = MAKE_SMALLINT((int64_t)s->index);
    return t;
}

/* An int's value as CPython's PyLong_AsUnsignedLong reads it (v unwrapped:
 * int, bool or an int subclass's value; nothing else, not even __index__). */
static int unsigned_long_of(Obj v, uint64_t *out)
{
    if (!IS_INT(v)) {
        err_set(E_TypeError, "an integer is required");
        return -1;
    }
    if (IS_SMALLINT(v) || TID(v) == TID_BOOL) {
        int64_t x = IS_SMALLINT(v) ? SMALLINT_VAL(v) : ((BoolObj *)v)->value;
        if (x < 0)
            goto negative;
        *out = (uint64_t)x;
        return 0;
    }
    if (((BigIntObj *)v)->sign < 0)
        goto negative;
    if (((BigIntObj *)v)->nlimbs > 1) {
        err_set(E_OverflowError, "Python int too large to convert to C unsigned long");
        return -1;
    }
    *out = ((BigIntObj *)v)->limbs[0];
    return 0;
negative:
    err_set(E_OverflowError, "can't convert negative value to unsigned int");
    return -1;
}

/* setstate((mt[0], ..., mt[623], index)): the words taken modulo 2**32 as
 * CPython's (an unsigned long stored in 32 bits), the index 0..624. A bad
 * state leaves the generator as it was. */
static Obj r_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    if (!get_state(args[0], false))
        return NULL;
    Obj state = vm_unwrap(args[1]);
    if (!IS_TUPLE(state)) {
        err_set(E_TypeError, "state vector must be a tuple");
        return NULL;
    }
    if (TUPLE_LEN(state) != MT_N + 1) {
        err_set(E_ValueError, "state vector is the wrong size");
        return NULL;
    }
    uint32_t mt[MT_N];
    for (int i = 0; i < MT_N; i++) {   /* no allocation: state stays put */
        uint64_t w;
        if (unsigned_long_of(vm_unwrap(TUPLE_ITEMS(state)[i]), &w) < 0)
            return NULL;
        mt[i] = (uint32_t)w;
    }
    int64_t index;
    if (vm_index_i64(TUPLE_ITEMS(state)[MT_N], &index) < 0)   /* __index__ may run Python */
        return NULL;
    if (index < 0 || index > MT_N) {
        err_set(E_ValueError, "invalid state");
        return NULL;
    }
    MTState *s = get_state(args[0], true);
    if (!s)
        return NULL;
    memcpy(s->mt, mt, sizeof mt);
    s->index = (int32_t)index;
    return g_None;
}

/* Limbs filled between safe points by a long getrandbits. */
#define LIMBS_PER_SAFEPOINT 32768

/* getrandbits(k) for k > 64: 32-bit words, least significant first, the
 * last one keeping its top bits, written straight into a new int (GC
 * memory: an STM abort at a safe point leaves nothing behind). */
static Obj getrandbits_big(Obj *selfp, int64_t k)
{
    size_t words = (size_t)((k - 1) / 32 + 1);
    size_t nlimbs = (words + 1) / 2;
    Obj res = (Obj)tm_allocate_var(TID_BIGINT, (uintptr_t)nlimbs);
    if (!res)
        return err_nomemory();
    MTState *s = get_state(*selfp, true);   /* (checked by the caller: never NULL) */
    uint64_t *limbs = (uint64_t *)VM_LINEAR(((BigIntObj *)res)->limbs);
    ((BigIntObj *)res)->sign = 1;
    int64_t left = k;
    for (size_t i = 0; i < nlimbs; i++) {
        if (i > 0 && i % LIMBS_PER_SAFEPOINT == 0) {
            tm_safepoint();   /* a committer may be waiting (nothing of this thread moves there) */
            s = get_state(*selfp, true);
        }
        uint64_t limb = 0;
        for (int half = 0; half < 2 && left > 0; half++, left -= 32) {
            uint32_t r = mt_genrand(s);
            if (left < 32)
                r >>= (32 - left);
            limb |= (uint64_t)r << (32 * half);
        }
        limbs[i] = limb;
    }
    size_t n = nlimbs;
    while (n > 0 && limbs[n - 1] == 0)
        n--;
    if (n == nlimbs)
        return res;
    /* the top limb came out 0: the int is the value of its lower limbs */
    if (n == 0)
        return MAKE_SMALLINT(0);
    if (n == 1 && limbs[0] <= (uint64_t)SMALLINT_MAX)
        return MAKE_SMALLINT((int64_t)limbs[0]);
    Obj *r = vm_roots(1);
    r[0] = res;
    Obj t = (Obj)tm_allocate_var(TID_BIGINT, (uintptr_t)n);
    if (t) {
        ((BigIntObj *)t)->sign = 1;
        memcpy(VM_LINEAR(((BigIntObj *)t)->limbs), VM_LINEAR(((BigIntObj *)r[0])->limbs), n * sizeof(uint64_t));
    } else {
        err_nomemory();
    }
    vm_unroots(r);
    return t;
}

static Obj r_getrandbits(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t k;
    if (arg_c_int(args[1], &k) < 0)   /* CPython takes k as a C int */
        return NULL;
    if (k < 0) {
        err_set(E_ValueError, "number of bits must be non-negative");
        return NULL;
    }
    MTState *s = get_state(args[0], true);
    if (!s)
        return NULL;
    if (k == 0)
        return MAKE_SMALLINT(0);
    if (k <= 64)
        return int_from_u64(mt_getrandbits64(s, (int)k));
    return getrandbits_big(&args[0], k);
}

/* ------------------------------------------------------------------ */
/* Construction                                                        */
/* ------------------------------------------------------------------ */

/* CPython's generic __new__: any arguments, the state all zeros (index 0:
 * random() gives 0.0 until seeded). */
static Obj random_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = type;
    r[1] = raw_new((int64_t)sizeof(MTState));
    if (r[1]) {
        Obj inst = instance_new((TypeObj *)r[0]);
        if (inst) {
            VM_WRITE(inst);
            INST(inst)->base_value = r[1];
            res = inst;
        }
    }
    vm_unroots(r);
    return res;
}

static int random_tp_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    TypeObj *t = TYPE(self);
    if ((t == T_Random || t->tp_init == random_tp_init) && kwnames && TUPLE_LEN(kwnames) > 0) {
        err_set(E_TypeError, "Random() takes no keyword arguments");
        return -1;
    }
    if (nargs > 1) {
        err_set(E_TypeError, "Random() requires 0 or 1 argument");
        return -1;
    }
    Obj *r = vm_roots(1);
    r[0] = self;
    int rc = seed_obj(&r[0], nargs ? args[0] : NULL);
    vm_unroots(r);
    return rc;
}

static const MethodDef random_methods[] = {
    {"random", r_random, METH_NOARGS, "random($self, /)\n--\n\nrandom() -> x in the interval [0, 1)."},
    {"seed", r_seed, METH_ARGS(0, 1),
     "seed($self, n=None, /)\n--\n\nseed([n]) -> None.\n\nDefaults to use urandom and falls back to a "
     "combination\nof the current time and the process identifier."},
    {"getstate", r_getstate, METH_NOARGS,
     "getstate($self, /)\n--\n\ngetstate() -> tuple containing the current state."},
    {"setstate", r_setstate, METH_O,
     "setstate($self, state, /)\n--\n\nsetstate(state) -> None.  Restores generator state."},
    {"getrandbits", r_getrandbits, METH_O,
     "getrandbits($self, k, /)\n--\n\ngetrandbits(k) -> x.  Generates an int with k random bits."},
    {NULL, NULL, 0, NULL},
};

static void make_type(void)
{
    TypeObj *t = T_Random = (TypeObj *)type_new_builtin("_random.Random", T_object, TID_INSTANCE, TPF_BASETYPE);
    VM_WRITE(t);
    t->tp_new = random_tp_new;
    t->tp_init = random_tp_init;
    type_add_methods(t, random_methods);
    type_ready(t);
    Obj doc = str_from_cstr("Random() -> create a random number generator with its own internal state.");
    if (doc)
        type_set_attr_cstr(t, "__doc__", doc);
    Obj mod = str_from_cstr("_random");   /* in the type's dict, as CPython's (a heap type there) */
    if (mod)
        type_set_attr_cstr(t, "__module__", mod);
}

Obj random_module_init(void)
{
    if (!T_Random)   /* module inits run inevitable: C globals may be written */
        make_type();
    Obj *r = vm_roots(2);
    r[0] = module_new("_random");
    Obj m = r[0];
    if (m) {
        r[1] = str_from_cstr("Module implements the Mersenne Twister random number generator.");
        m = r[1] && module_add(r[0], "Random", (Obj)T_Random) == 0 && module_add(r[0], "__doc__", r[1]) == 0 ? r[0]
                                                                                                            : NULL;
    }
    vm_unroots(r);
    return m;
}
