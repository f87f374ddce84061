/* Process-wide interpreter state that every layer reads: sys.modules, the
 * builtins, the sys module and sys.path, and the command-line flags. The
 * modules that own them (builtinsmodule.c, sysmodule.c) and main.c fill
 * them in at start-up; the layers below read them here, without calling up. */
#include "objects/objects.h"

Obj g_modules;            /* sys.modules */
Obj g_builtins_module;
Obj g_builtins;           /* the builtins module's dict */
Obj g_sys_module;
Obj g_sys_dict;           /* the sys module's dict (its attributes) */
Obj g_sys_path;
struct sys_cflags sys_cflags;
VMHooks vm_hooks;          /* installed by vm_install_hooks (startup.c) */

Obj sys_get(const char *name)
{
    if (!g_sys_dict)
        return NULL;
    /* a cached interned key: no allocation after the first call per name */
    Obj key = vm_intern_cached(name);
    if (!key) {
        err_clear();
        return NULL;
    }
    return dict_getitem_str(g_sys_dict, key);
}
