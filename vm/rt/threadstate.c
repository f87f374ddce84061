/* Per-thread interpreter state every layer uses: vm_ts (root slots, the
 * current exception, depths), the recursion limit and the guard C code
 * calls before recursing on user data. The eval layer adds the frame
 * stack (vmthread.c). */
#define _GNU_SOURCE
#include "objects/objects.h"

#include <pthread.h>

__thread VMThread vm_ts;
int vm_recursion_limit = 1000;
__thread uintptr_t vm_cstack_limit;

/* C stack kept free below the deepest recursion check; a small stack
 * (threading.stack_size) keeps half of what it has. */
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
    if (low == 0 || low >= h)
        low = h - (4UL << 20);   /* unknown: assume 4 MiB below here */
    uintptr_t margin = h - low < 2 * CSTACK_MARGIN ? (h - low) / 2 : CSTACK_MARGIN;
    vm_cstack_limit = low + margin;
}

void vm_threadstate_init(void)
{
    if (!tm_self.attached)
        tm_thread_attach();
    vm_ts.roots = vm_roots(ROOT_COUNT);
    vm_ts.c_depth = 0;
    vm_ts.py_depth = 0;
    vm_ts.frame = NULL;
    vm_ts.eval_state = NULL;
    init_cstack_limit();
}

int vm_enter_recursive(const char *where)
{
    if (unlikely(++vm_ts.c_depth + vm_ts.py_depth > vm_recursion_limit ||
                 TM_SHADOWSTACK_DEPTH() > TM_SHADOWSTACK_ENTRIES - VM_SS_MARGIN / 2 ||
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
