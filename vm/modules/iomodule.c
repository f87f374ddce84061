/* The _io module: CPython's names and class hierarchy, under CPython's own
 * Lib/io.py. The classes are C types (vm/objects/fileobject.c): FileIO,
 * the Buffered* classes and TextIOWrapper run in C over a file descriptor
 * (lib/_iolayers.py over Python objects), StringIO and BytesIO in
 * memoryio.c; lib/_iogeneric.py gives the methods that CPython's C code
 * gets by calling methods (the _IOBase family's defaults),
 * IncrementalNewlineDecoder and BufferedRWPair. It is imported (and
 * installs them) when _io is. */
#include "modules.h"
#include "objects/objects.h"

#include <string.h>

/* _install(cls, name, value): a Python method of one of the _io classes
 * (lib/_iogeneric.py); their dicts are closed to setattr. */
static Obj io_install(Obj *args, size_t nargs, Obj kwnames)
{
    Obj t = args[0];
    TypeObj *own[] = {T_IOBase, T_RawIOBase, T_BufferedIOBase, T_TextIOBase, T_FileIO, T_BufferedReader,
                      T_BufferedWriter, T_BufferedRandom, T_TextIOWrapper};
    bool ok = false;
    for (size_t i = 0; i < ARRAY_LEN(own); i++)
        ok |= t == (Obj)own[i];
    if (!ok || !IS_STR(args[1])) {
        err_set(E_TypeError, "_install: an _io class and a name");
        return NULL;
    }
    const char *name = str_cstr(args[1]);
    vm_tx_become_inevitable();   /* a built-in type changes */
    type_set_attr_cstr((TypeObj *)t, name, args[2]);
    if (!strcmp(name, "__del__")) {
        /* the abstract classes' instances (Python subclasses) are closed
         * when collected; the C layers' descriptors close with their state */
        TypeObj *abstract[] = {T_IOBase, T_RawIOBase, T_BufferedIOBase, T_TextIOBase};
        for (size_t i = 0; i < ARRAY_LEN(abstract); i++) {
            VM_WRITE_RARE(abstract[i]);
            abstract[i]->flags |= TPF_HAS_DEL;
        }
    }
    return g_None;
}

static const MethodDef io_functions[] = {
    {"_install", io_install, METH_ARGS(3, 3), NULL},
    {NULL, NULL, 0, NULL},
};

Obj io_module_init(void)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = module_new("_io");
    if (!r[0])
        goto out;
    r[1] = file_unsupported_operation();
    if (!r[1])
        goto out;
    module_add_functions(r[0], io_functions);
    Obj open_fn = g_builtins ? dict_getitem_cstr(g_builtins, "open") : NULL;
    if ((open_fn && module_add(r[0], "open", open_fn) < 0) || module_add(r[0], "UnsupportedOperation", r[1]) < 0 ||
        module_add(r[0], "DEFAULT_BUFFER_SIZE", MAKE_SMALLINT(FILE_BUFFER_SIZE)) < 0)
        goto out;
    struct { const char *name; TypeObj *t; } types[] = {
        {"_IOBase", T_IOBase}, {"_RawIOBase", T_RawIOBase}, {"_BufferedIOBase", T_BufferedIOBase},
        {"_TextIOBase", T_TextIOBase}, {"FileIO", T_FileIO}, {"BufferedReader", T_BufferedReader},
        {"BufferedWriter", T_BufferedWriter}, {"BufferedRandom", T_BufferedRandom},
        {"TextIOWrapper", T_TextIOWrapper}, {"StringIO", T_StringIO}, {"BytesIO", T_BytesIO},
        {"BlockingIOError", E_BlockingIOError},
    };
    for (size_t i = 0; i < ARRAY_LEN(types); i++)
        if (module_add(r[0], types[i].name, (Obj)types[i].t) < 0)
            goto out;
    /* the Python half fills in the rest (it needs this module) */
    Obj gen = vm_import_cstr("_iogeneric");
    if (!gen)
        goto out;
    r[2] = gen;
    Obj *c = vm_roots(1);
    c[0] = r[0];
    Obj done = vm_call_method(r[2], "_setup", c, 1);
    vm_unroots(c);
    if (!done)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
