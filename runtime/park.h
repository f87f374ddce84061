/* Parking threads: futex waits on a 32-bit word, with a deadline, that an
 * interrupt can end early.
 *
 * One thread at a time is the interrupt target (a language's main thread,
 * where its signal handlers run). tm_interrupt() -- async-signal-safe, meant
 * for a signal handler -- sets tm_interrupt_pending and ends the target's
 * current interruptible park. There is no lost wakeup: a park publishes its
 * word before it tests the flag, and tm_interrupt(), run on the target
 * thread itself (the usual case: other threads block the signals), stores
 * into that word, so the futex wait cannot start sleeping after it. The
 * client clears the flag (tm_interrupt_clear) when it handles it.
 *
 * Parking does not hand back the caller's segment: callers bracket it with
 * their blocking hooks. */
#ifndef TM_PARK_H
#define TM_PARK_H

#include <stdbool.h>
#include <stdint.h>

/* Deadlines are CLOCK_MONOTONIC nanoseconds; this one never passes. */
#define TM_PARK_FOREVER INT64_MAX

enum tm_park_result {
    TM_PARK_WOKEN = 1,        /* *word became nonzero */
    TM_PARK_TIMED_OUT = 0,
    TM_PARK_INTERRUPTED = -1, /* the target thread, interruptible, and tm_interrupt_pending */
};

int64_t tm_now_ns(void);
/* Sleep while *word is 0 and the deadline has not passed. */
int tm_park(uint32_t *word, int64_t deadline, bool interruptible);
/* Set *word to 1 and wake the thread parked on it. */
void tm_unpark(uint32_t *word);

/* TMPY_TEST_WAKE_DELAY (tests): sleeps a random 0..MAX microseconds, as if
 * the scheduler ran a woken thread late; nothing when the knob is unset.
 * Called after every wake-up of the runtime's wait loops. */
void tm_wake_delay(void);

extern volatile int tm_interrupt_pending;
/* The calling thread becomes the interrupt target. */
void tm_interrupt_set_target(void);
bool tm_interrupt_is_target(void);
/* Whether the calling thread is the target and an interrupt is pending. */
bool tm_interrupted(void);
void tm_interrupt(void);          /* async-signal-safe */
void tm_interrupt_clear(void);

#endif
