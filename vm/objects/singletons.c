/* None, NotImplemented, Ellipsis, True, False, () and '': pinned objects
 * made before any type exists (object_init_types gives them their types). */
#include "objects.h"

#include <stdlib.h>
#include <string.h>

Obj g_None, g_True, g_False, g_NotImplemented, g_Ellipsis;
Obj g_empty_tuple, g_empty_str;

static Obj make_singleton(const char *cname)
{
    Obj o = (Obj)tm_allocate_old(TID_NONETYPE, sizeof(struct SingletonObj_));
    if (!o) {
        fprintf(stderr, "tmpy: out of memory at start-up\n");
        exit(1);
    }
    ((SingletonObj *)o)->cname = cname;
    return o;
}

static Obj make_bool(int64_t v)
{
    Obj o = (Obj)tm_allocate_old(TID_BOOL, sizeof(struct BoolObj_));
    if (!o) {
        fprintf(stderr, "tmpy: out of memory at start-up\n");
        exit(1);
    }
    ((BoolObj *)o)->value = v;
    return o;
}

void singletons_init(void)
{
    g_None = make_singleton("None");
    /* NotImplemented and Ellipsis need types of their own: they are IterObj
     * (cls set by object_init_types), so TYPE() reads their cls. */
    g_NotImplemented = (Obj)tm_allocate_old(TID_ITER, sizeof(struct IterObj_));
    g_Ellipsis = (Obj)tm_allocate_old(TID_ITER, sizeof(struct IterObj_));
    if (!g_NotImplemented || !g_Ellipsis) {
        fprintf(stderr, "tmpy: out of memory at start-up\n");
        exit(1);
    }
    g_True = make_bool(1);
    g_False = make_bool(0);
    g_empty_tuple = (Obj)tm_allocate_old(TID_TUPLE, offsetof(struct TupleObj_, items));
    g_empty_str = (Obj)tm_allocate_old(TID_STR, offsetof(struct StrObj_, data) + 1);
    if (!g_empty_tuple || !g_empty_str) {
        fprintf(stderr, "tmpy: out of memory at start-up\n");
        exit(1);
    }
    STR(g_empty_str)->hash = -1;   /* tuple hash 0 = not cached, str -1 = not computed */
    VM_GLOBAL_ROOT(g_None);
    VM_GLOBAL_ROOT(g_NotImplemented);
    VM_GLOBAL_ROOT(g_Ellipsis);
    VM_GLOBAL_ROOT(g_True);
    VM_GLOBAL_ROOT(g_False);
    VM_GLOBAL_ROOT(g_empty_tuple);
    VM_GLOBAL_ROOT(g_empty_str);
}
