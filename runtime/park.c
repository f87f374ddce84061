/* Parking threads on futex words; interrupts of the target thread's parks
 * (see park.h). */
#define _GNU_SOURCE
#include "park.h"
#include "tmrt.h"

#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

volatile int tm_interrupt_pending;
static __thread bool is_target;
/* The word the target thread is parked on (interruptibly), or NULL. Read by
 * tm_interrupt, possibly inside a signal handler that interrupted the park. */
static uint32_t *volatile target_word;

int64_t tm_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static long futex(uint32_t *word, int op, uint32_t val, const struct timespec *ts)
{
    return syscall(SYS_futex, word, op, val, ts, NULL, 0);
}

int tm_park(uint32_t *word, int64_t deadline, bool interruptible)
{
    interruptible = interruptible && is_target;
    if (interruptible) {
        target_word = word;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    }
    int result = TM_PARK_WOKEN;
    while (!__atomic_load_n(word, __ATOMIC_ACQUIRE)) {
        if (interruptible && tm_interrupt_pending) {
            result = TM_PARK_INTERRUPTED;
            break;
        }
        struct timespec rel, *tsp = NULL;
        if (deadline != TM_PARK_FOREVER) {
            int64_t left = deadline - tm_now_ns();
            if (left <= 0) {
                result = TM_PARK_TIMED_OUT;
                break;
            }
            rel.tv_sec = (time_t)(left / 1000000000);
            rel.tv_nsec = (long)(left % 1000000000);
            tsp = &rel;
        }
        futex(word, FUTEX_WAIT_PRIVATE, 0, tsp);
        tm_wake_delay();
    }
    if (interruptible) {
        target_word = NULL;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        /* an interrupt that set the word (not a real wakeup) ends it the same way */
        if (result == TM_PARK_WOKEN && tm_interrupt_pending)
            result = TM_PARK_INTERRUPTED;
    }
    return result;
}

void tm_wake_delay(void)
{
    uint32_t max = tm_cfg.wake_delay_us;
    if (!max)
        return;
    static __thread uint64_t state;   /* a per-thread xorshift generator */
    if (!state)
        state = (uint64_t)tm_now_ns() * 0x9E3779B97F4A7C15ull | 1;
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    uint64_t ns = state % ((uint64_t)max + 1) * 1000;
    struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000), .tv_nsec = (long)(ns % 1000000000)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

void tm_unpark(uint32_t *word)
{
    __atomic_store_n(word, 1, __ATOMIC_RELEASE);
    futex(word, FUTEX_WAKE_PRIVATE, 1, NULL);
}

void tm_interrupt_set_target(void)
{
    is_target = true;
}

bool tm_interrupt_is_target(void)
{
    return is_target;
}

bool tm_interrupted(void)
{
    return is_target && tm_interrupt_pending;
}

void tm_interrupt(void)
{
    int e = errno;
    tm_interrupt_pending = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    uint32_t *w = target_word;
    if (w) {
        /* On the target thread the park cannot end (and its word go out of
         * scope) while this handler runs: store, so the futex wait returns.
         * From another thread only wake it: the word may be stale by now,
         * and a wake on a stale address is harmless. */
        if (is_target)
            __atomic_store_n(w, 1, __ATOMIC_RELEASE);
        futex(w, FUTEX_WAKE_PRIVATE, 1, NULL);
    }
    errno = e;
}

void tm_interrupt_clear(void)
{
    tm_interrupt_pending = 0;
}
