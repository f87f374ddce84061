/* _uuid: generate_time_safe() as libuuid's uuid_generate_time_safe gives it
 * to CPython's uuid.py (uuid1(), getnode()): a version-1 UUID from the time
 * in 100 ns ticks since 1582-10-15, a clock sequence (random at first use)
 * and the node: the MAC address of the first network interface with a
 * non-zero one (/sys/class/net), else 48 random bits with the multicast bit
 * set (RFC 4122, 4.5). Times never repeat within the process (a tick that
 * does not move forward is taken as the last one plus one). The second item
 * is -1 (SafeUUID.unsafe): nothing coordinates with other processes, as
 * libuuid answers without its uuidd daemon. */
#define _GNU_SOURCE
#include "eval.h"
#include "modules.h"
#include "posix.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t g_uuid_lock = PTHREAD_MUTEX_INITIALIZER;
static bool g_uuid_ready;
static uint64_t g_last_ticks;
static uint16_t g_clock_seq;
static unsigned char g_node[6];

static void random_bytes(unsigned char *p, size_t n)
{
    if (posix_random_bytes(p, n) < 0)
        for (size_t i = 0; i < n; i++)   /* no entropy source: the clock's bits */
            p[i] = (unsigned char)(clock() >> (i % 4 * 8));
}

/* The first interface (in name order) whose address is 6 non-zero bytes. */
static bool read_mac(unsigned char out[6])
{
    struct dirent **names;
    int n = scandir("/sys/class/net", &names, NULL, alphasort);
    if (n < 0)
        return false;
    bool found = false;
    for (int i = 0; i < n; i++) {
        char path[512];
        if (!found && names[i]->d_name[0] != '.' &&
            snprintf(path, sizeof path, "/sys/class/net/%s/address", names[i]->d_name) < (int)sizeof path) {
            FILE *f = fopen(path, "r");
            unsigned b[6];
            if (f) {
                if (fscanf(f, "%2x:%2x:%2x:%2x:%2x:%2x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) == 6 &&
                    (b[0] | b[1] | b[2] | b[3] | b[4] | b[5]) != 0) {
                    for (int k = 0; k < 6; k++)
                        out[k] = (unsigned char)b[k];
                    found = true;
                }
                fclose(f);
            }
        }
        free(names[i]);
    }
    free(names);
    return found;
}

static Obj uuid_generate_time_safe(Obj *args, size_t nargs, Obj kwnames)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    /* 100 ns ticks since the Gregorian reform, 1582-10-15 */
    uint64_t ticks = (uint64_t)ts.tv_sec * 10000000u + (uint64_t)ts.tv_nsec / 100u + 0x01B21DD213814000ull;
    unsigned char u[16];
    pthread_mutex_lock(&g_uuid_lock);
    if (!g_uuid_ready) {
        unsigned char seq[2];
        random_bytes(seq, 2);
        g_clock_seq = (uint16_t)((seq[0] << 8 | seq[1]) & 0x3FFF);
        if (!read_mac(g_node)) {
            random_bytes(g_node, 6);
            g_node[0] |= 0x01;
        }
        g_uuid_ready = true;
    }
    if (ticks <= g_last_ticks)
        ticks = g_last_ticks + 1;
    g_last_ticks = ticks;
    uint16_t seq = g_clock_seq;
    memcpy(u + 10, g_node, 6);
    pthread_mutex_unlock(&g_uuid_lock);
    uint32_t time_low = (uint32_t)ticks;
    uint16_t time_mid = (uint16_t)(ticks >> 32);
    uint16_t time_hi = (uint16_t)((ticks >> 48) & 0x0FFF) | 0x1000;   /* version 1 */
    u[0] = (unsigned char)(time_low >> 24);
    u[1] = (unsigned char)(time_low >> 16);
    u[2] = (unsigned char)(time_low >> 8);
    u[3] = (unsigned char)time_low;
    u[4] = (unsigned char)(time_mid >> 8);
    u[5] = (unsigned char)time_mid;
    u[6] = (unsigned char)(time_hi >> 8);
    u[7] = (unsigned char)time_hi;
    u[8] = (unsigned char)(0x80 | (seq >> 8 & 0x3F));   /* the RFC 4122 variant */
    u[9] = (unsigned char)seq;
    Obj *r = vm_roots(1);
    r[0] = bytes_new((const char *)u, 16);
    Obj res = r[0] ? tuple_pack(2, r[0], MAKE_SMALLINT(-1)) : NULL;
    vm_unroots(r);
    return res;
}

static const MethodDef uuid_functions[] = {
    {"generate_time_safe", uuid_generate_time_safe, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

Obj uuid_module_init(void)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = module_new("_uuid");
    if (!r[0])
        goto out;
    module_add_functions(r[0], uuid_functions);
    if (module_add(r[0], "has_uuid_generate_time_safe", MAKE_SMALLINT(1)) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
