/* _heapq: the C half of CPython's Lib/heapq.py (which runs unchanged over
 * it): the sift operations on a list, min-heaps and the max-heap variants
 * that heapq.merge and nlargest use.
 *
 * A heap is a list where heap[k] <= heap[2k+1] and heap[2k+2]. An item is
 * moved by swapping it with a parent (sift down: toward the root) or with
 * its lesser child (sift up: the hole goes to a leaf, then the item climbs
 * back), the order of comparisons CPython documents, so heaps and a custom
 * __lt__'s calls come out the same. Each comparison may run Python that
 * changes the list: the length is checked after each one (RuntimeError, as
 * CPython) and the items are re-read before each swap. */
#include "modules.h"
#include "objects/containers.h"
#include "objects/objects.h"

/* The list a heap argument holds (a list subclass's list), or NULL +
 * TypeError in CPython's words. `which` is "argument" or "argument 1". */
static Obj heap_list(Obj heap, const char *fn, const char *which)
{
    Obj l = vm_unwrap(heap);
    if (IS_LIST(l))
        return l;
    err_format(E_TypeError, "%s() %s must be list, not %s", fn, which, type_name(heap));
    return NULL;
}

static void swap_items(Obj list, int64_t i, int64_t j)
{
    Obj arr = LIST(list)->array;
    Obj a = ARRAY(arr)->items[i], b = ARRAY(arr)->items[j];
    VM_WRITE_ITEM(arr, i);
    ARRAY(arr)->items[i] = b;
    VM_WRITE_ITEM(arr, j);
    ARRAY(arr)->items[j] = a;
}

/* items[a] < items[b] (max: items[b] < items[a]): 1, 0, or -1 with an error,
 * RuntimeError when the comparison changed the list's length from `size`. */
static int item_less(Obj *list, int64_t a, int64_t b, int64_t size, bool max)
{
    Obj x = LIST_ITEMS(*list)[max ? b : a], y = LIST_ITEMS(*list)[max ? a : b];
    int lt = vm_richcompare_bool(x, y, CMP_LT);
    if (lt < 0)
        return -1;
    if (LIST_LEN(*list) != size) {
        err_set(E_RuntimeError, "list changed size during iteration");
        return -1;
    }
    return lt;
}

/* Move items[pos] toward the root (not above `start`) while it is less than
 * its parent. *list is a root slot. */
static int sift_down(Obj *list, int64_t start, int64_t pos, bool max)
{
    int64_t size = LIST_LEN(*list);
    if (pos >= size) {
        err_set(E_IndexError, "index out of range");
        return -1;
    }
    while (pos > start) {
        int64_t parent = (pos - 1) >> 1;
        int lt = item_less(list, pos, parent, size, max);
        if (lt < 0)
            return -1;
        if (!lt)
            break;
        swap_items(*list, parent, pos);
        pos = parent;
    }
    return 0;
}

/* Move the hole at pos down to a leaf along the lesser children, then let
 * the item that was at pos climb back (sift_down). */
static int sift_up(Obj *list, int64_t pos, bool max)
{
    int64_t size = LIST_LEN(*list), start = pos, limit = size >> 1;
    while (pos < limit) {
        int64_t child = 2 * pos + 1;
        if (child + 1 < size) {
            int lt = item_less(list, child, child + 1, size, max);
            if (lt < 0)
                return -1;
            if (!lt)
                child++;
        }
        swap_items(*list, child, pos);
        pos = child;
    }
    return sift_down(list, start, pos, max);
}

static Obj heappush(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    Obj l = heap_list(args[0], "heappush", "argument 1");
    if (!l)
        return NULL;
    Obj *r = vm_roots(1);
    r[0] = l;
    int rc = list_append(r[0], args[1]);
    if (rc == 0)
        rc = sift_down(&r[0], 0, LIST_LEN(r[0]) - 1, false);
    vm_unroots(r);
    return rc < 0 ? NULL : g_None;
}

/* heappop and _heappop_max: the last item fills the root, then sifts. */
static Obj pop_root(Obj heap, const char *fn, bool max)
{
    Obj l = heap_list(heap, fn, "argument");
    if (!l)
        return NULL;
    if (LIST_LEN(l) == 0) {
        err_set(E_IndexError, "index out of range");
        return NULL;
    }
    Obj *r = vm_roots(2);
    r[0] = l;
    r[1] = list_pop(r[0], -1);
    Obj res = r[1];
    if (res && LIST_LEN(r[0]) > 0) {
        Obj arr = LIST(r[0])->array;
        res = ARRAY(arr)->items[0];
        VM_WRITE_ITEM(arr, 0);
        ARRAY(arr)->items[0] = r[1];
        r[1] = res;
        if (sift_up(&r[0], 0, max) < 0)
            res = NULL;
        else
            res = r[1];
    }
    vm_unroots(r);
    return res;
}

static Obj heappop(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return pop_root(args[0], "heappop", false);
}

static Obj heappop_max(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return pop_root(args[0], "_heappop_max", true);
}

/* heapreplace and _heapreplace_max: the root, replaced by item. */
static Obj replace_root(Obj heap, Obj item, const char *fn, bool max)
{
    Obj l = heap_list(heap, fn, "argument 1");
    if (!l)
        return NULL;
    if (LIST_LEN(l) == 0) {
        err_set(E_IndexError, "index out of range");
        return NULL;
    }
    Obj *r = vm_roots(2);
    r[0] = l;
    Obj arr = LIST(r[0])->array;
    r[1] = ARRAY(arr)->items[0];
    VM_WRITE_ITEM(arr, 0);
    ARRAY(arr)->items[0] = item;
    Obj res = sift_up(&r[0], 0, max) < 0 ? NULL : r[1];
    vm_unroots(r);
    return res;
}

static Obj heapreplace(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return replace_root(args[0], args[1], "heapreplace", false);
}

static Obj heapreplace_max(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return replace_root(args[0], args[1], "_heapreplace_max", true);
}

/* heappushpop: item itself when the heap is empty or item <= the root. */
static Obj heappushpop(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    Obj l = heap_list(args[0], "heappushpop", "argument 1");
    if (!l)
        return NULL;
    if (LIST_LEN(l) == 0)
        return args[1];
    Obj *r = vm_roots(2);
    r[0] = l;
    r[1] = args[1];
    Obj res = NULL;
    int lt = vm_richcompare_bool(LIST_ITEMS(r[0])[0], r[1], CMP_LT);
    if (lt == 0) {
        res = r[1];
    } else if (lt > 0) {
        if (LIST_LEN(r[0]) == 0) {   /* the comparison emptied it */
            err_set(E_IndexError, "index out of range");
        } else {
            Obj arr = LIST(r[0])->array;
            res = ARRAY(arr)->items[0];
            VM_WRITE_ITEM(arr, 0);
            ARRAY(arr)->items[0] = r[1];
            r[1] = res;
            res = sift_up(&r[0], 0, false) < 0 ? NULL : r[1];
        }
    }
    vm_unroots(r);
    return res;
}

/* heapify and _heapify_max: sift up every parent, the last one first. */
static Obj heapify_list(Obj heap, const char *fn, bool max)
{
    Obj l = heap_list(heap, fn, "argument");
    if (!l)
        return NULL;
    Obj *r = vm_roots(1);
    r[0] = l;
    int rc = 0;
    for (int64_t i = LIST_LEN(r[0]) / 2 - 1; i >= 0 && rc == 0; i--)
        rc = sift_up(&r[0], i, max);
    vm_unroots(r);
    return rc < 0 ? NULL : g_None;
}

static Obj heapify(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return heapify_list(args[0], "heapify", false);
}

static Obj heapify_max(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return heapify_list(args[0], "_heapify_max", true);
}

static const MethodDef heapq_funcs[] = {
    {"heappush", heappush, METH_ARGS(2, 2),
     "Push item onto heap, maintaining the heap invariant."},
    {"heappop", heappop, METH_ARGS(1, 1),
     "Pop the smallest item off the heap, maintaining the heap invariant."},
    {"heapreplace", heapreplace, METH_ARGS(2, 2),
     "Pop and return the current smallest value, and add the new item."},
    {"heappushpop", heappushpop, METH_ARGS(2, 2),
     "Push item on the heap, then pop and return the smallest item from the heap."},
    {"heapify", heapify, METH_ARGS(1, 1),
     "Transform list into a heap, in-place, in O(len(heap)) time."},
    {"_heappop_max", heappop_max, METH_ARGS(1, 1), "Maxheap variant of heappop."},
    {"_heapreplace_max", heapreplace_max, METH_ARGS(2, 2), "Maxheap variant of heapreplace."},
    {"_heapify_max", heapify_max, METH_ARGS(1, 1), "Maxheap variant of heapify."},
    {NULL, NULL, 0, NULL},
};

Obj heapq_module_init(void)
{
    Obj *r = vm_roots(1);
    r[0] = module_new("_heapq");
    Obj m = r[0];
    if (m) {
        module_add_functions(r[0], heapq_funcs);
        m = r[0];
    }
    vm_unroots(r);
    return m;
}
