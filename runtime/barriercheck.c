/* The write-barrier checker (STM build, TMPY_STM_CHECK=1).
 *
 * A store into an old object without the write barrier goes straight to a
 * shared page: every segment sees it at once and no abort undoes it, so the
 * bug would show, rarely, as corruption somewhere else. With the checker on,
 * the shared old-space pages of every thread segment are mapped read-only:
 * the write barrier privatises a page before the first store (its private
 * copy is writable), so a store that skipped the barrier faults at once and
 * the handler names the instruction and the call stack.
 *
 * What a transaction may write without the STM barrier is made writable in
 * its own segment when it is allocated (objects it creates in old space:
 * survivors of its minor collections, pinned objects, big young objects)
 * and read-only again when the segment's next transaction starts, when
 * those objects are committed and old. Segment 0 stays writable (commits
 * copy into it). */
#define _GNU_SOURCE
#include "segment.h"
#include "cards.h"
#include "fatal.h"
#include "list.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

bool tm_check_writes;

/* Per segment: the old-space pages made writable for its transaction. */
static tm_list unprotected[TM_MAX_SEGMENTS + 1];

static void protect(int seg, uintptr_t page, int prot)
{
    if (mprotect(tm_segment_base(seg) + page, TM_PAGE_SIZE, prot) != 0)
        tm_fatal("barrier check: cannot change a page's protection: %s", strerror(errno));
}

void tm_check_unprotect(int seg, uintptr_t so, size_t size)
{
    if (!tm_check_writes || seg < 1)
        return;
    for (uintptr_t p = so & ~(TM_PAGE_SIZE - 1); p < so + size; p += TM_PAGE_SIZE) {
        if (tm_page_is_private(seg, p))
            continue;
        protect(seg, p, PROT_READ | PROT_WRITE);
        tm_list_push(&unprotected[seg], p);
    }
}

/* The pages tm_check_unprotect opened in seg that are still shared: set to prot. */
static void protect_unprotected(int seg, int prot)
{
    tm_list *l = &unprotected[seg];
    for (size_t i = 0; i < l->count; i++)
        if (!tm_page_is_private(seg, l->items[i]))
            protect(seg, l->items[i], prot);
}

void tm_check_reprotect(int seg)
{
    if (!tm_check_writes || seg < 1)
        return;
    protect_unprotected(seg, PROT_READ);
    unprotected[seg].count = 0;
}

void tm_check_unprotect_again(int seg)
{
    if (tm_check_writes && seg >= 1)
        protect_unprotected(seg, PROT_READ | PROT_WRITE);
}

static void say(const char *s) { (void)!write(2, s, strlen(s)); }

static void on_fault(int sig, siginfo_t *si, void *ucv)
{
    uintptr_t a = (uintptr_t)si->si_addr, base = (uintptr_t)tm_seg.base;
    size_t size = tm_seg.segment_size;
    if (a >= base + size && a < base + (size_t)(tm_seg.nsegments + 1) * size) {
        int seg = (int)((a - base) / size);
        uintptr_t so = (a - base) % size;
        if (so >= tm_seg.old_start && !tm_page_is_private(seg, so & ~(TM_PAGE_SIZE - 1))) {
            ucontext_t *uc = ucv;
            void *rip = (void *)uc->uc_mcontext.gregs[REG_RIP];
            Dl_info di;
            uintptr_t off = dladdr(rip, &di) && di.dli_fbase ? (uintptr_t)rip - (uintptr_t)di.dli_fbase : 0;
            char buf[512];
            snprintf(buf, sizeof buf,
                     "tmpy: barrier check: a store into old object memory without a write barrier "
                     "(segment %d, offset 0x%lx), at %s+0x%lx (addr2line -f -e %s 0x%lx); stack:\n",
                     seg, (unsigned long)so, di.dli_fname ? di.dli_fname : "?", (unsigned long)off,
                     di.dli_fname ? di.dli_fname : "?", (unsigned long)off);
            say(buf);
            void *frames[32];
            int n = backtrace(frames, 32);
            backtrace_symbols_fd(frames, n, 2);
            signal(SIGABRT, SIG_DFL);
            abort();
        }
    }
    /* Not a checked page: the fault is a fault. */
    (void)sig;
    signal(SIGSEGV, SIG_DFL);
}

void tm_check_report(const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fprintf(stderr, "tmpy: barrier check: %s; stack:\n", buf);
    fflush(stderr);
    void *frames[32];
    int n = backtrace(frames, 32);
    backtrace_symbols_fd(frames, n, 2);
    abort();
}

void tm_check_unmarked_cards(int seg, uintptr_t so, size_t base_size, size_t size, const char *layout)
{
    const uint8_t *marked = tm_card_tables[TM_CARDS_TX][seg];
    const unsigned char *mine = (const unsigned char *)tm_segment_base(seg);
    const unsigned char *committed = (const unsigned char *)tm_segment_base(0);
    uintptr_t start = so + base_size, end = so + size;
    for (uintptr_t c = start >> TM_CARD_SHIFT; c <= (end - 1) >> TM_CARD_SHIFT; c++) {
        if (marked[c])
            continue;
        uintptr_t lo = c << TM_CARD_SHIFT, hi = (c + 1) << TM_CARD_SHIFT;
        if (lo < start)
            lo = start;
        if (hi > end)
            hi = end;
        if (!memcmp(mine + lo, committed + lo, hi - lo))
            continue;
        while (mine[lo] == committed[lo])
            lo++;
        tm_check_report("a store into a card-marked '%s' (segment %d, byte %lu of its items) whose card "
                        "was not marked (tm_write_items did not name it): the commit would not publish it",
                        layout, seg, (unsigned long)(lo - start));
    }
}

void tm_check_init(void)
{
    if (!tm_check_writes)
        return;
    for (int s = 1; s <= tm_seg.nsegments; s++)
        if (mprotect(tm_segment_base(s) + tm_seg.old_start, tm_seg.segment_size - tm_seg.old_start, PROT_READ) != 0)
            tm_fatal("barrier check: cannot protect old space: %s", strerror(errno));
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    /* backtrace() loads libgcc on first use: not in the handler */
    void *dummy[1];
    backtrace(dummy, 1);
}
