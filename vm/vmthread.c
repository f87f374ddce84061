/* Per-thread eval state: the frame stack (a C array of Frame records) and
 * where the frames' shadow-stack slots must end. The state every layer
 * uses (vm_ts, the recursion guard) is rt/threadstate.c's. */
#include "eval.h"

#include <stdlib.h>
#include <sys/mman.h>

__thread Frame *vm_frames_base, *vm_frames_limit;
__thread Obj *vm_ss_safe_limit;

void vm_thread_init(void)
{
    vm_threadstate_init();
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
    vm_ss_safe_limit = (Obj *)tm_self.ss_base + TM_SHADOWSTACK_ENTRIES - VM_SS_MARGIN;
}

void vm_thread_fini(void)
{
    dict_flush_pending();   /* its log lives in a root slot */
#if TM_STM
    list_flush_pending();
    set_log_thread_end();   /* its entries into plain stores; its C memory */
#endif
    tm_self.ss_top = tm_self.ss_base;
    vm_ts.roots = NULL;
    vm_ts.frame = NULL;
    if (vm_frames_base) {
        munmap(vm_frames_base, sizeof(Frame) * (size_t)FRAME_STACK_ENTRIES);
        vm_frames_base = vm_frames_limit = NULL;
    }
}
