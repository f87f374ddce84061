/* Per-thread interpreter state: root slots, the frame stack, recursion
 * guards (Python depth, C depth, shadow-stack and C-stack room). */
#define _GNU_SOURCE
#include "eval.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

__thread VMThread vm_ts;
int vm_recursion_limit = 1000;

__thread Frame *vm_frames_base, *vm_frames_limit;
__thread Obj *vm_ss_safe_limit;
__thread uintptr_t vm_cstack_limit;

/* Shadow-stack slots kept free above the frames for C code's vm_roots. */
#define SS_MARGIN (64 * 1024)
/* C stack kept free below the deepest recursion check. */
#define CSTACK_MARGIN (256 * 1024)

static void init_cstack_limit(void)
{
    char here;
    uintptr_t low = 0;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        void *addr;
        size_t size;
        if (pthread_attr_getstack(&attr, &addr, &size) == 0)
            low = (uintptr_t)addr;
        pthread_attr_destroy(&attr);
    }
    uintptr_t h = (uintptr_t)&here;
    if (low == 0 || low >= h || h - low < 2 * CSTACK_MARGIN)
        low = h - (4UL << 20);   /* unknown: assume 4 MiB below here */
    vm_cstack_limit = low + CSTACK_MARGIN;
}

void vm_thread_init(void)
{
    if (!tm_self.attached)
        tm_thread_attach();
    vm_ts.roots = vm_roots(ROOT_COUNT);
    vm_ts.c_depth = 0;
    vm_ts.py_depth = 0;
    vm_ts.frame = NULL;
    vm_ts.eval_state = NULL;
    if (!vm_frames_base) {
        size_t bytes = sizeof(Frame) * (size_t)FRAME_STACK_ENTRIES;
        void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) {
            fputs("tmpy: fatal: cannot reserve the frame stack\n", stderr);
            abort();
        }
        vm_frames_base = (Frame *)m;
        vm_frames_limit = vm_frames_base + FRAME_STACK_ENTRIES - 1;
    }
    vm_ss_safe_limit = (Obj *)tm_self.ss_base + TM_SHADOWSTACK_ENTRIES - SS_MARGIN;
    init_cstack_limit();
}

void vm_thread_fini(void)
{
    tm_self.ss_top = tm_self.ss_base;
    vm_ts.roots = NULL;
    vm_ts.frame = NULL;
    if (vm_frames_base) {
        munmap(vm_frames_base, sizeof(Frame) * (size_t)FRAME_STACK_ENTRIES);
        vm_frames_base = vm_frames_limit = NULL;
    }
}

int vm_enter_recursive(const char *where)
{
    if (unlikely(++vm_ts.c_depth + vm_ts.py_depth > vm_recursion_limit ||
                 TM_SHADOWSTACK_DEPTH() > TM_SHADOWSTACK_ENTRIES - SS_MARGIN / 2 ||
                 vm_cstack_low())) {
        /* Leave some room to raise and handle the error itself. */
        vm_ts.c_depth--;
        err_format(E_RecursionError, "maximum recursion depth exceeded%s", where ? where : "");
        return -1;
    }
    return 0;
}

void vm_leave_recursive(void)
{
    vm_ts.c_depth--;
}
