/* The _io module: the C half of io (open, the file type under its CPython
 * class names, StringIO and BytesIO (modules/memoryio.c), UnsupportedOperation,
 * BlockingIOError, DEFAULT_BUFFER_SIZE); lib/io.py is the Python half. */
#include "modules.h"
#include "objects/objects.h"

Obj io_module_init(void)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = module_new("_io");
    if (!r[0])
        goto out;
    r[1] = file_unsupported_operation();
    if (!r[1])
        goto out;
    Obj open_fn = g_builtins ? dict_getitem_cstr(g_builtins, "open") : NULL;
    if ((open_fn && module_add(r[0], "open", open_fn) < 0) || module_add(r[0], "UnsupportedOperation", r[1]) < 0 ||
        module_add(r[0], "DEFAULT_BUFFER_SIZE", MAKE_SMALLINT(FILE_BUFFER_SIZE)) < 0)
        goto out;
    static const char *const names[] = {"TextIOWrapper", "BufferedReader", "BufferedWriter", "BufferedRandom",
                                        "FileIO", NULL};
    for (const char *const *n = names; *n; n++)
        if (module_add(r[0], *n, (Obj)T_file) < 0)
            goto out;
    if (module_add(r[0], "StringIO", (Obj)T_StringIO) < 0 || module_add(r[0], "BytesIO", (Obj)T_BytesIO) < 0 ||
        module_add(r[0], "BlockingIOError", (Obj)E_BlockingIOError) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
