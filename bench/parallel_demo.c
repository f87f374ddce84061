/* The same threaded program, linked against either runtime: threads doing
 * mostly independent work in transactions (each builds short-lived lists,
 * walks and updates its own long-lived table, and now and then bumps a
 * shared counter). Under the GIL build the threads take turns, switching
 * every 5 ms as CPython's GIL does (handing over after every iteration would
 * only measure context switches); under the STM build every iteration is a
 * transaction and they run in parallel. It checks its own results and
 * prints its time; bench/demo.sh runs both builds and compares.
 *
 * Usage: parallel_demo [threads] [transactions per thread] */
#include "tmrt.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef __seg_gs struct node {
    tm_header h;
    object_t *next;
    uintptr_t value;
} node_t;
typedef __seg_gs struct table {
    tm_header h;
    uintptr_t len;
    object_t *items[];
} table_t;

enum { TABLE = 1024, LIST = 2000, UPDATES = 32, SHARED_EVERY = 64 };

static uint16_t T_NODE, T_TABLE;
static object_t *tables;    /* one table of nodes per thread */
static object_t *shared;    /* a node: the shared counter */
static long per_thread = 3000;

static uintptr_t get(object_t *o)
{
    tm_read(o);
    return ((node_t *)o)->value;
}

static object_t *node(object_t *next, uintptr_t value)
{
    TM_PUSH_ROOT(next);
    object_t *n = tm_allocate(T_NODE, sizeof(struct node));
    TM_POP_ROOT(next);
    if (!n) {
        fprintf(stderr, "parallel_demo: out of memory\n");
        exit(1);
    }
    ((node_t *)n)->next = next;
    ((node_t *)n)->value = value;
    return n;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#define SWITCH_INTERVAL_NS 5000000   /* the GIL build's turn, as CPython's default */

static void *worker(void *arg)
{
    uintptr_t id = (uintptr_t)arg;
    volatile bool holding = false;
    uint64_t turn_start = 0;
    tm_thread_attach();
    for (volatile long i = 0; i < per_thread; i++) {
        if (!holding) {
            tm_start_transaction();
            holding = true;
            turn_start = now_ns();
        }
        /* A short-lived list: allocation-heavy, private, garbage at commit. */
        object_t *list = NULL;
        for (uintptr_t k = 0; k < LIST; k++)
            list = node(list, k);
        uintptr_t sum = 0;
        for (object_t *p = list; p; p = ((node_t *)p)->next)
            sum += get(p);
        if (sum != LIST * (LIST - 1) / 2) {
            fprintf(stderr, "parallel_demo: list sum %lu\n", sum);
            exit(1);
        }
        /* The thread's own long-lived table: read all, update some. */
        tm_read(tables);
        object_t *mine = ((table_t *)tables)->items[id];
        tm_read(mine);
        uintptr_t total = 0;
        for (int k = 0; k < TABLE; k++)
            total += get(((table_t *)mine)->items[k]);
        if (total != (uintptr_t)i * UPDATES) {
            fprintf(stderr, "parallel_demo: thread %lu table total %lu, expected %lu\n", id, total,
                    (uintptr_t)i * UPDATES);
            exit(1);
        }
        for (int k = 0; k < UPDATES; k++) {
            object_t *n = ((table_t *)mine)->items[(i * 7 + k) % TABLE];
            tm_write(n);
            ((node_t *)n)->value++;
        }
        /* Rarely, shared state. */
        if (i % SHARED_EVERY == 0) {
            uintptr_t v = get(shared);
            tm_write(shared);
            ((node_t *)shared)->value = v + 1;
        }
        if (TM_STM || now_ns() - turn_start >= SWITCH_INTERVAL_NS) {
            tm_commit_transaction();
            holding = false;
        }
    }
    if (holding)
        tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

int main(int argc, char **argv)
{
    int nthreads = argc > 1 ? atoi(argv[1]) : 4;
    if (argc > 2)
        per_thread = atol(argv[2]);
    if (nthreads < 1 || nthreads > 64 || per_thread < 1) {
        fprintf(stderr, "usage: parallel_demo [threads 1..64] [transactions per thread]\n");
        return 2;
    }
    tm_runtime_init_from_env();
    T_NODE = tm_register_type(&(tm_type){.name = "node", .base_size = sizeof(struct node), .ref_words = 1u << 1});
    T_TABLE = tm_register_type(&(tm_type){.name = "table", .base_size = sizeof(struct table),
                                          .item_size = 8, .length_offset = 8, .items_are_refs = true});
    tm_add_global_root(&tables);
    tm_add_global_root(&shared);
    tm_thread_attach();
    tm_start_transaction();
    tm_become_inevitable();   /* it writes C globals */
    shared = node(NULL, 0);
    tables = tm_allocate_var(T_TABLE, (uintptr_t)nthreads);
    for (int t = 0; t < nthreads; t++) {
        object_t *tab = tm_allocate_var(T_TABLE, TABLE);
        tm_write(tables);
        ((table_t *)tables)->items[t] = tab;
        for (int k = 0; k < TABLE; k++) {
            object_t *n = node(NULL, 0);
            tab = ((table_t *)tables)->items[t];   /* may have moved */
            tm_write(tab);
            ((table_t *)tab)->items[k] = n;
        }
    }
    tm_commit_transaction();

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_t th[64];
    for (int t = 0; t < nthreads; t++)
        pthread_create(&th[t], NULL, worker, (void *)(uintptr_t)t);
    for (int t = 0; t < nthreads; t++)
        pthread_join(th[t], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;

    tm_start_transaction();
    uintptr_t counter = get(shared), expected = (uintptr_t)nthreads * (uintptr_t)((per_thread + SHARED_EVERY - 1) / SHARED_EVERY);
    tm_commit_transaction();
    if (counter != expected) {
        fprintf(stderr, "parallel_demo: shared counter %lu, expected %lu\n", counter, expected);
        return 1;
    }
    tm_stm_stats st;
    tm_stm_get_stats(&st);
    printf("%-4s build: %d threads x %ld transactions (each %d allocations, %d reads, %d writes) in %.2f s",
           TM_STM ? "STM" : "GIL", nthreads, per_thread, LIST, LIST + TABLE, UPDATES, secs);
    if (TM_STM)
        printf("; %lu commits, %lu aborts", st.committed, st.aborted);
    printf("; results verified\n");
    printf("seconds %.4f\n", secs);
    tm_thread_detach();
    return 0;
}
