/* tmrt demo: what the runtime does today, in a few lines (`make demo`).
 *
 * Four threads take turns under the GIL (tm_start_transaction() ..
 * tm_commit_transaction()) building one shared random graph of a million
 * vertices hung from a table of chains reachable from a C global root. Each
 * vertex has an id, a check word, an edge to a random earlier vertex and
 * sometimes a small payload array. Along the way the threads rewire edges of
 * old vertices and replace payloads (so the write barrier and the major
 * collector have work). Then the main thread verifies the whole graph, drops
 * the oldest 90%, runs a major collection and shows how much memory went back
 * to the kernel, and verifies what is left. Exits 1 if the graph is wrong.
 *
 * The environment knobs of the runtime apply (TMPY_NURSERY_SIZE, TMPY_GC_MAJOR_MIN,
 * TMPY_GC_DEBUG=move, ...); TMPY_DEMO_VERTICES changes the graph size. */
#include "tmrt.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NTHREADS 4
#define NSLOTS 16384          /* chains; the table is 128 KB: born outside the nursery */
#define PER_TURN 500          /* vertices allocated per turn */
#define REWIRES_PER_TURN 100  /* edges of existing vertices rewritten per turn */
#define REPLACES_PER_TURN 200 /* payloads of existing vertices replaced per turn */

#define DEMO_CHECK(cond, ...)                                                   \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "tmrt_demo: FAIL: " __VA_ARGS__);                   \
            fputc('\n', stderr);                                                \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

typedef __seg_gs struct vertex vertex_t;
typedef __seg_gs struct payload payload_t;
typedef __seg_gs struct table table_t;

struct vertex {
    tm_header h;
    vertex_t *next;       /* word 1: the chain of its slot, newest first */
    vertex_t *other;      /* word 2: a random edge */
    payload_t *payload;   /* word 3: NULL or a small array */
    uint64_t id, check;
};
struct payload {
    tm_header h;
    uint64_t len;         /* word 1 */
    uint64_t id, ver;
    uint64_t items[];
};
struct table {
    tm_header h;
    uint64_t len;
    vertex_t *slots[];
};

static uint16_t T_VERTEX, T_PAYLOAD, T_TABLE;
static table_t *graph;            /* the global root */

/* Only touched while holding the segment. */
static uint64_t next_id, nvertices, rewires, replaced, payloads_made;
static uint64_t acquisitions;

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

typedef struct { uint64_t s; } rng_t;
static uint64_t rnd(rng_t *r, uint64_t n) { return mix(r->s++) % n; }

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double mb(uint64_t bytes) { return (double)bytes / (1 << 20); }

static uint64_t payload_item(uint64_t id, uint64_t ver, uint64_t i) { return mix(id * 31 + ver * 7 + i); }

/* A filled payload for (id, ver); may collect. */
static payload_t *new_payload(uint64_t id, uint64_t ver)
{
    uint64_t n = 1 + mix(id ^ (ver << 40)) % 6;
    payload_t *p = (payload_t *)tm_allocate_var(T_PAYLOAD, n);
    DEMO_CHECK(p, "out of memory");
    p->id = id;
    p->ver = ver;
    for (uint64_t i = 0; i < n; i++)
        p->items[i] = payload_item(id, ver, i);
    payloads_made++;
    return p;
}

/* Some vertex: the head of a random chain, a few steps in (or NULL). */
static vertex_t *random_vertex(rng_t *r)
{
    vertex_t *v = graph->slots[rnd(r, NSLOTS)];
    for (uint64_t steps = rnd(r, 4); v && v->next && steps; steps--)
        v = v->next;
    return v;
}

static uint64_t target_vertices;

static void *worker(void *arg)
{
    rng_t rng = {(uint64_t)(uintptr_t)arg * 0x100000001ULL};
    tm_thread_attach();
    for (;;) {
        tm_start_transaction();
        if (nvertices >= target_vertices) {
            acquisitions += tm_self.acquisitions;
            tm_commit_transaction();
            break;
        }
        for (int k = 0; k < PER_TURN && nvertices < target_vertices; k++) {
            uint64_t id = next_id++;
            payload_t *p = NULL;
            if (rnd(&rng, 4) == 0)
                p = new_payload(id, 0);
            TM_PUSH_ROOT(p);
            vertex_t *v = (vertex_t *)tm_allocate(T_VERTEX, sizeof(struct vertex));
            TM_POP_ROOT(p);
            DEMO_CHECK(v, "out of memory");
            /* v was just allocated: its fields need no barrier */
            v->id = id;
            v->check = mix(id);
            v->payload = p;
            v->other = random_vertex(&rng);
            uint64_t s = rnd(&rng, NSLOTS);
            v->next = graph->slots[s];
            tm_write((object_t *)graph);
            graph->slots[s] = v;
            nvertices++;
        }
        /* Mutate the old part of the graph: old objects now point to young ones. */
        for (int k = 0; k < REWIRES_PER_TURN; k++) {
            vertex_t *u = random_vertex(&rng), *w = random_vertex(&rng);
            if (u) {
                tm_write((object_t *)u);
                u->other = w;
                rewires++;
            }
        }
        for (int k = 0; k < REPLACES_PER_TURN; k++) {
            vertex_t *u = random_vertex(&rng);
            for (int tries = 0; u && !u->payload && tries < 4; tries++)
                u = random_vertex(&rng);
            if (!u || !u->payload)
                continue;
            TM_PUSH_ROOT(u);
            payload_t *p = new_payload(u->id, u->payload->ver + 1);
            TM_POP_ROOT(u);
            tm_write((object_t *)u);   /* u may be old, and p is young */
            u->payload = p;
            replaced++;
        }
        tm_commit_transaction();
    }
    tm_thread_detach();
    return NULL;
}

/* Walk every chain; check each vertex once, with ids in [lo, hi). With the
 * segment held. Returns the number of vertices. */
static uint64_t verify(uint64_t lo, uint64_t hi)
{
    uint64_t n = hi - lo, count = 0;
    uint8_t *seen = calloc(n / 8 + 1, 1);
    DEMO_CHECK(seen, "out of C memory");
    DEMO_CHECK(graph->h.tid == T_TABLE && graph->len == NSLOTS, "the table is damaged");
    for (uint64_t s = 0; s < NSLOTS; s++) {
        uint64_t prev_id = UINT64_MAX;
        for (vertex_t *v = graph->slots[s]; v; v = v->next) {
            DEMO_CHECK(v->h.tid == T_VERTEX, "slot %lu holds an object of type %u", (unsigned long)s, v->h.tid);
            uint64_t id = v->id;
            DEMO_CHECK(id >= lo && id < hi, "vertex id %lu out of range [%lu, %lu)", (unsigned long)id,
                       (unsigned long)lo, (unsigned long)hi);
            DEMO_CHECK(id < prev_id, "chain %lu is not newest-first", (unsigned long)s);
            prev_id = id;
            uint64_t i = id - lo;
            DEMO_CHECK(!(seen[i / 8] & (1u << (i % 8))), "vertex %lu reached twice", (unsigned long)id);
            seen[i / 8] |= (uint8_t)(1u << (i % 8));
            DEMO_CHECK(v->check == mix(id), "vertex %lu: check word corrupt", (unsigned long)id);
            vertex_t *o = v->other;
            DEMO_CHECK(!o || (o->h.tid == T_VERTEX && o->check == mix(o->id) && o->id >= lo),
                       "vertex %lu: edge to a bad vertex", (unsigned long)id);
            payload_t *p = v->payload;
            if (p) {
                DEMO_CHECK(p->h.tid == T_PAYLOAD && p->id == id, "vertex %lu: bad payload", (unsigned long)id);
                DEMO_CHECK(p->len >= 1 && p->len <= 6, "vertex %lu: payload length %lu", (unsigned long)id,
                           (unsigned long)p->len);
                for (uint64_t k = 0; k < p->len; k++)
                    DEMO_CHECK(p->items[k] == payload_item(id, p->ver, k), "vertex %lu: payload item %lu corrupt",
                               (unsigned long)id, (unsigned long)k);
            }
            count++;
        }
    }
    DEMO_CHECK(count == n, "%lu vertices reachable, expected %lu", (unsigned long)count, (unsigned long)n);
    free(seen);
    return count;
}

int main(void)
{
    double t0 = now_s();
    tm_runtime_init_from_env();
    const char *nv = getenv("TMPY_DEMO_VERTICES");
    target_vertices = nv ? strtoull(nv, NULL, 10) : 1000000;
    if (target_vertices < 1000)
        target_vertices = 1000;
    T_VERTEX = tm_register_type(&(tm_type){.name = "vertex", .base_size = sizeof(struct vertex),
                                           .ref_words = (1u << 1) | (1u << 2) | (1u << 3)});
    T_PAYLOAD = tm_register_type(&(tm_type){.name = "payload", .base_size = sizeof(struct payload),
                                            .item_size = 8, .length_offset = 8});
    T_TABLE = tm_register_type(&(tm_type){.name = "table", .base_size = sizeof(struct table), .item_size = 8,
                                          .length_offset = 8, .items_are_refs = true});
    tm_add_global_root((object_t **)&graph);

    tm_thread_attach();
    tm_start_transaction();
    graph = (table_t *)tm_allocate_var(T_TABLE, NSLOTS);
    DEMO_CHECK(graph, "out of memory");
    tm_commit_transaction();

    printf("tmrt demo: %d threads take turns under the GIL, building one shared random graph\n", NTHREADS);
    double tb = now_s();
    pthread_t th[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        DEMO_CHECK(pthread_create(&th[i], NULL, worker, (void *)(uintptr_t)(i + 1)) == 0, "pthread_create");
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(th[i], NULL);
    tb = now_s() - tb;

    tm_gc_stats st;
    tm_gc_get_stats(&st);
    uint64_t resident_before = tm_shared_bytes_resident();
    printf("  built %lu vertices and %lu payload arrays in %.2f s (%lu transactions); rewired %lu edges and "
           "replaced %lu payloads of older vertices\n",
           (unsigned long)nvertices, (unsigned long)payloads_made, tb, (unsigned long)acquisitions,
           (unsigned long)rewires, (unsigned long)replaced);
    printf("  GC: %lu minor collections (%.3f s, %.1f MB survived the nursery), %lu major (%.3f s, threshold "
           "%.0f MB); old space %.1f MB in use, %.1f MB resident\n",
           (unsigned long)st.minor_collections, st.minor_ns * 1e-9, mb(st.bytes_survived),
           (unsigned long)st.major_collections, st.major_ns * 1e-9, mb(tm_cfg.major_min), mb(st.old_bytes_used),
           mb(resident_before));

    tm_start_transaction();
    double tv = now_s();
    uint64_t n = verify(0, nvertices);
    printf("  verified: all %lu vertices reachable exactly once, fields, edges and payloads intact (%.2f s)\n",
           (unsigned long)n, now_s() - tv);

    /* Drop the oldest 90%: cut every chain (newest first) at the cutoff, and
     * clear the edges of the survivors that point below it. */
    uint64_t cutoff = nvertices - nvertices / 10;
    for (uint64_t s = 0; s < NSLOTS; s++) {
        vertex_t *prev = NULL;
        for (vertex_t *v = graph->slots[s]; v; prev = v, v = v->next) {
            if (v->id < cutoff) {
                if (prev) {
                    tm_write((object_t *)prev);
                    prev->next = NULL;
                } else {
                    tm_write((object_t *)graph);
                    graph->slots[s] = NULL;
                }
                break;
            }
            if (v->other && v->other->id < cutoff) {
                tm_write((object_t *)v);
                v->other = NULL;
            }
        }
    }
    tm_gc_stats before, after;
    tm_gc_get_stats(&before);
    tm_collect_major();
    tm_gc_get_stats(&after);
    uint64_t resident_after = tm_shared_bytes_resident();
    uint64_t pages_freed = before.old_pages_in_use - after.old_pages_in_use;
    uint64_t pages_returned = after.pages_released - before.pages_released;
    printf("  dropped the oldest 90%% and ran a major collection (%.3f s): objects %.1f -> %.1f MB, resident "
           "%.1f -> %.1f MB; %.1f MB returned to the kernel, %.1f MB of free pages kept for reuse\n",
           (after.major_ns - before.major_ns) * 1e-9, mb(before.old_bytes_used), mb(after.old_bytes_used),
           mb(resident_before), mb(resident_after), mb(pages_returned * TM_PAGE_SIZE),
           mb(pages_freed > pages_returned ? (pages_freed - pages_returned) * TM_PAGE_SIZE : 0));
    n = verify(cutoff, nvertices);
    tm_commit_transaction();
    printf("  verified: the %lu newest vertices are all there and intact; total %.2f s\n", (unsigned long)n,
           now_s() - t0);
    tm_thread_detach();
    return 0;
}
