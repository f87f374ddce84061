/* _collections: the C half of lib/collections (collections.deque, whose type
 * lives in objects/dequeobject.c). */
#include "modules.h"
#include "objects/containers.h"
#include "objects/objects.h"

Obj collections_module_init(void)
{
    Obj *r = vm_roots(1);
    r[0] = module_new("_collections");
    Obj m = r[0];
    if (m && module_add(r[0], "deque", (Obj)T_deque) < 0)
        m = NULL;
    else
        m = r[0];
    vm_unroots(r);
    return m;
}
