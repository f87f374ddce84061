/* Unrecoverable runtime errors: one line on stderr, then abort(). Reserved for
 * broken invariants (a GC bug, a corrupted heap), never for bad user input. */
#ifndef TM_FATAL_H
#define TM_FATAL_H

__attribute__((noreturn, format(printf, 1, 2)))
void tm_fatal(const char *fmt, ...);

/* Set by a phase that can fail on a broken invariant (the major collection's
 * mark) to print, after the message, where it was (the object it traced). */
extern void (*tm_fatal_context)(void);

#define TM_ASSERT(cond) \
    ((cond) ? (void)0 : tm_fatal("assertion failed: %s (%s:%d)", #cond, __FILE__, __LINE__))

#endif
