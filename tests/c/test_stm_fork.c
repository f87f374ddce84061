/* fork() with other threads in transactions (runtime/fork.c), the runtime
 * alone: W writer threads loop over transactions that write every one of a
 * few shared cells (so at any moment one of them may hold their write
 * locks), allocate young objects, and sometimes run long. The main thread
 * forks R times, from an inevitable transaction as the interpreter does.
 * Each child: its own threads write the same cells (they would wait forever
 * for a gone writer's locks), each cell ends exactly N*T above what the
 * child found, a major collection runs, and it exits 0. The parent's
 * writers go on, and their totals are exact at the end.
 *
 * Run under abort injection, the barrier checker and move mode too:
 * tests/test_fork.py. TMPY_TEST_SCALE multiplies the rounds. */
#define _GNU_SOURCE
#include "tmrt.h"
#include "testutil.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOBJ 4
#define WRITERS 3
#define CHILD_THREADS 2
#define CHILD_ITERS 300

typedef __seg_gs struct cell cell_t;
struct cell {
    tm_header h;
    uintptr_t value;
};

static uint16_t T_CELL;
static object_t *objs[NOBJ];   /* global roots */
static atomic_int stop;
static atomic_long commits;

static cell_t *as_cell(object_t *o) { return (cell_t *)o; }

static void write_all(void)
{
    for (int k = 0; k < NOBJ; k++) {
        tm_write(objs[k]);
        as_cell(objs[k])->value++;
    }
}

static void *writer_main(void *arg)
{
    uintptr_t id = (uintptr_t)arg;
    tm_thread_attach();
    rng_t rng = {id * 7919 + 1};
    long done = 0;
    while (!atomic_load(&stop)) {
        uint64_t spin = rng_below(&rng, 8) == 0 ? 20000 : 0;   /* some run long: the fork finds them inside */
        tm_start_transaction();
        write_all();
        for (int i = 0; i < 4; i++)
            CHECK(tm_allocate(T_CELL, sizeof(struct cell)) != NULL, "allocation failed");
        for (volatile uint64_t s = 0; s < spin; s++)
            ;
        tm_commit_transaction();
        done++;
    }
    atomic_fetch_add(&commits, done);
    tm_thread_detach();
    return NULL;
}

static void *child_thread_main(void *arg)
{
    (void)arg;
    tm_thread_attach();
    for (int i = 0; i < CHILD_ITERS; i++) {
        tm_start_transaction();
        write_all();
        tm_commit_transaction();
    }
    tm_thread_detach();
    return NULL;
}

static uintptr_t value_of(int k)
{
    tm_read(objs[k]);
    return as_cell(objs[k])->value;
}

/* The child: the caller's inevitable transaction goes on. */
static int child(void)
{
    uintptr_t before[NOBJ];
    for (int k = 0; k < NOBJ; k++)
        before[k] = value_of(k);
    if (getenv("DEBUG_VIEWS"))
        for (int j = 0; j <= tm_seg.nsegments; j++)
            fprintf(stderr, "seg %d (me %d): cell0 %lu\n", j, tm_self.segment,
                    (unsigned long)((struct cell *)(tm_segment_base(j) + (uintptr_t)objs[0]))->value);
    tm_commit_transaction();
    tm_start_transaction();
    for (int k = 0; k < NOBJ; k++)
        if (value_of(k) != before[k]) {
            fprintf(stderr, "child: cell %d read %lu in the forking transaction, %lu after its commit\n", k,
                    (unsigned long)before[k], (unsigned long)value_of(k));
            return 5;
        }
    tm_commit_transaction();
    pthread_t th[CHILD_THREADS];
    for (int t = 0; t < CHILD_THREADS; t++)
        if (pthread_create(&th[t], NULL, child_thread_main, NULL) != 0)
            return 2;
    for (int t = 0; t < CHILD_THREADS; t++)
        pthread_join(th[t], NULL);
    tm_start_transaction();
    tm_become_inevitable();
    tm_collect_major();
    for (int k = 0; k < NOBJ; k++)
        if (value_of(k) != before[k] + CHILD_THREADS * CHILD_ITERS) {
            fprintf(stderr, "child: cell %d is %lu, want %lu\n", k, (unsigned long)value_of(k),
                    (unsigned long)(before[k] + CHILD_THREADS * CHILD_ITERS));
            return 3;
        }
    tm_commit_transaction();
    return 0;
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    tm_runtime_init_from_env();
    int rounds = (int)(12 * test_scale());
    T_CELL = tm_register_type(&(tm_type){.name = "cell", .base_size = sizeof(struct cell)});
    for (int k = 0; k < NOBJ; k++)
        tm_add_global_root(&objs[k]);
    tm_thread_attach();
    tm_start_transaction();
    tm_become_inevitable();   /* C globals are written only inevitable */
    for (int k = 0; k < NOBJ; k++)
        CHECK((objs[k] = tm_allocate(T_CELL, sizeof(struct cell))) != NULL, "allocation failed");
    tm_commit_transaction();
    pthread_t th[WRITERS];
    for (int t = 0; t < WRITERS; t++)
        CHECK(pthread_create(&th[t], NULL, writer_main, (void *)(uintptr_t)t) == 0, "pthread_create");
    for (int r = 0; r < rounds; r++) {
        usleep(2000);
        tm_start_transaction();
        tm_become_inevitable();   /* both processes go on from here */
        tm_fork_prepare();
        int heap = tm_segments_fork_copy();
        CHECK(heap >= 0, "tm_segments_fork_copy: %s", strerror(errno));
        pid_t pid = fork();
        CHECK(pid >= 0, "fork: %s", strerror(errno));
        if (pid == 0) {
            if (tm_segments_fork_child(heap) != 0)   /* first: the rollback reads the child's copy */
                _exit(4);
            tm_fork_child();
            _exit(child());
        }
        tm_fork_parent();
        close(heap);
        tm_commit_transaction();
        int status;
        CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "round %d: child status %#x", r, status);
    }
    atomic_store(&stop, 1);
    for (int t = 0; t < WRITERS; t++)
        pthread_join(th[t], NULL);
    tm_start_transaction();
    long n = atomic_load(&commits);
    for (int k = 0; k < NOBJ; k++)
        CHECK(value_of(k) == (uintptr_t)n, "parent: cell %d is %lu after %ld commits", k, (unsigned long)value_of(k), n);
    tm_commit_transaction();
    printf("ok fork %d rounds with %d writers: children exact, parent %ld commits exact\n", rounds, WRITERS, n);
    tm_thread_detach();
    return 0;
}
