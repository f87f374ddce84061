/* Interned names the VM uses (NAME(__init__)), the C string -> interned str
 * cache, and the dunder and symbol tables of the operators. */
#include "objects.h"

#include <stdlib.h>
#include <string.h>

Obj vm_names[VMN_COUNT_];

const char *const vm_nb_names[NB_COUNT][3] = {
    {"__add__", "__radd__", "__iadd__"},
    {"__sub__", "__rsub__", "__isub__"},
    {"__mul__", "__rmul__", "__imul__"},
    {"__truediv__", "__rtruediv__", "__itruediv__"},
    {"__floordiv__", "__rfloordiv__", "__ifloordiv__"},
    {"__mod__", "__rmod__", "__imod__"},
    {"__pow__", "__rpow__", "__ipow__"},
    {"__lshift__", "__rlshift__", "__ilshift__"},
    {"__rshift__", "__rrshift__", "__irshift__"},
    {"__and__", "__rand__", "__iand__"},
    {"__or__", "__ror__", "__ior__"},
    {"__xor__", "__rxor__", "__ixor__"},
    {"__matmul__", "__rmatmul__", "__imatmul__"},
    {"__divmod__", "__rdivmod__", "__idivmod__"},
};
const char *const vm_nb_symbols[NB_COUNT] = {
    "+", "-", "*", "/", "//", "%", "** or pow()", "<<", ">>", "&", "|", "^", "@", "divmod()",
};
const char *const vm_cmp_names[6] = {"__lt__", "__le__", "__eq__", "__ne__", "__gt__", "__ge__"};
const char *const vm_cmp_symbols[6] = {"<", "<=", "==", "!=", ">", ">="};

void names_init(void)
{
    static const char *const texts[VMN_COUNT_] = {
#define VMN_TEXT(n) #n,
        VM_NAME_LIST(VMN_TEXT)
#undef VMN_TEXT
    };
    for (int i = 0; i < VMN_COUNT_; i++) {
        vm_names[i] = str_intern_cstr(texts[i]);
        if (!vm_names[i]) {
            fprintf(stderr, "tmpy: out of memory at start-up\n");
            exit(1);
        }
        VM_GLOBAL_ROOT(vm_names[i]);
    }
}

/* A small direct-mapped cache: C string -> interned str. The key is the
 * pointer (callers pass literals) but the content is checked, so a reused
 * buffer never gives a wrong name. Interned strs are pinned: raw Obj is safe. */
#define ICACHE_SIZE 512
static struct { const char *key; Obj s; } icache[ICACHE_SIZE];

Obj vm_intern_cached(const char *s)
{
    unsigned h = (unsigned)(((uintptr_t)s >> 3) * 2654435761u) % ICACHE_SIZE;
    if (icache[h].key == s && icache[h].s && strcmp(str_cstr(icache[h].s), s) == 0)
        return icache[h].s;
    Obj r = str_intern_cstr(s);
    if (r) {
        icache[h].key = s;
        icache[h].s = r;
    }
    return r;
}
