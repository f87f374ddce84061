/* fork() with other threads alive. The forking thread makes the world safe
 * first: under STM every other transaction parks at a safe point (none is
 * in the middle of a commit or a collection, which run with the world
 * stopped by their requester); under the GIL the forking thread holds it.
 * Then no thread may be attaching or detaching. In the child only the
 * forking thread exists: the others' runtime state (segments and their
 * transactions, registry entries, shadow stacks, places in the queues of
 * the segments, of inevitability, of the token, of the GIL) is reset, so
 * the child can start threads and transactions and collect. Locks and
 * monitors the other threads held stay held, as POSIX and CPython leave a
 * lock another thread held at the fork. */
#include "tmrt.h"
#include "fork.h"
#include "gc_internal.h"

void tm_fork_prepare(void)
{
#if TM_STM
    tm_stop_world();
#endif
    tm_threads_fork_prepare();
}

void tm_fork_parent(void)
{
    tm_threads_fork_parent();
#if TM_STM
    tm_resume_world();
#endif
}

/* Called after tm_segments_fork_child: the rollback reads the committed
 * contents, which must be the child's copy by then, not the pages the
 * parent goes on writing. */
void tm_fork_child(void)
{
#if TM_STM
    tm_stm_fork_child();
    tm_cm_fork_child();
#else
    tm_gil_fork_child();
#endif
    tm_threads_fork_child();
}
