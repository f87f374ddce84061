/* Wake-ups deferred to the commit (see wake.h). */
#include "wake.h"
#include "fatal.h"
#include "park.h"
#include "thread.h"
#include "tmrt.h"

#include <stdlib.h>

/* Each thread index's wake word (a futex): 0 while it waits, set to 1 by a
 * wake-up. Indexed by the waiter's index, so a waker needs only the index
 * the waiter left in the shared state. A reused index gets at worst a late
 * wake-up meant for its former owner: a spurious one. */
static uint32_t wake_words[TM_MAX_THREAD_INDEX + 1];

#if TM_STM
/* The indices to wake when the running transaction commits. */
static __thread unsigned *pending;
static __thread size_t npending, cap_pending;
#endif

void tm_wake_prepare(void)
{
    __atomic_store_n(&wake_words[tm_self.index], 0, __ATOMIC_SEQ_CST);
}

int tm_wake_wait(int64_t deadline, bool interruptible)
{
    bool passive = deadline == TM_PARK_FOREVER;
    if (passive)
        tm_thread_passive_begin();
    int r = tm_park(&wake_words[tm_self.index], deadline, interruptible);
    if (passive)
        tm_thread_passive_end();
    return r;
}

static void wake_now(unsigned index)
{
    tm_unpark(&wake_words[index]);
}

void tm_wake_after_commit(unsigned index)
{
#if TM_STM
    if (!tm_cfg.wake_at_once) {
        if (npending == cap_pending) {
            cap_pending = cap_pending ? 2 * cap_pending : 8;
            pending = realloc(pending, cap_pending * sizeof *pending);
            if (!pending)
                tm_fatal("out of memory for deferred wake-ups");
        }
        pending[npending++] = index;
        return;
    }
#endif
    wake_now(index);
}

#if TM_STM
void tm_wakes_run(void)
{
    /* npending first: a wake-up cannot start a transaction of ours */
    size_t n = npending;
    npending = 0;
    for (size_t i = 0; i < n; i++)
        wake_now(pending[i]);
}

void tm_wakes_drop(void)
{
    npending = 0;
}

bool tm_wakes_pending(void)
{
    return npending != 0;
}
#endif
