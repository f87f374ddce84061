/* _itertools: the C half of lib/itertools.py (itertools.count, whose type
 * lives in objects/countobject.c: its next() is one atomic step). */
#include "modules.h"
#include "objects/objects.h"

Obj itertools_module_init(void)
{
    Obj *r = vm_roots(1);
    r[0] = module_new("_itertools");
    Obj m = r[0];
    if (m && module_add(r[0], "count", (Obj)T_count) < 0)
        m = NULL;
    else
        m = r[0];   /* it may have moved */
    vm_unroots(r);
    return m;
}
