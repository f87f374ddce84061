/* fork() with other threads alive (fork.c): what each part of the runtime
 * does around it. Internal to runtime/; the embedder calls segment.h's
 * tm_fork_prepare, tm_fork_parent and tm_fork_child. */
#ifndef TM_FORK_H
#define TM_FORK_H

/* thread.c: the registry is locked across the fork; in the child only the
 * calling thread stays registered. */
void tm_threads_fork_prepare(void);
void tm_threads_fork_parent(void);
void tm_threads_fork_child(void);

/* stm.c: the other threads' transactions are rolled back and their
 * segments freed; the sync state and queues start afresh. */
void tm_stm_fork_child(void);
/* contention.c: the token's queue holds no other thread's ticket. */
void tm_cm_fork_child(void);
/* gil.c: the GIL's waiters are gone. */
void tm_gil_fork_child(void);

#endif
