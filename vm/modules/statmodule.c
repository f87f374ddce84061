/* _stat: what CPython's Lib/stat.py takes from it (`from _stat import *`
 * at its end, over its own pure-Python definitions): the S_IF* file types,
 * the permission bits, the UF_/SF_ file flags, the ST_* indices of a stat
 * tuple, and S_ISDIR ... S_ISWHT, S_IMODE, S_IFMT and filemode with CPython
 * 3.11's behaviour.
 *
 * The values are this system's (<sys/stat.h>); Linux has no doors, event
 * ports or whiteouts, so S_IFDOOR, S_IFPORT and S_IFWHT are 0 and their
 * S_IS* tests are False, as in CPython there. A mode argument is what
 * CPython reads as a C mode_t through an unsigned long: an int (no
 * __index__), not negative, at most 32 bits, each with its message. */
#include "modules.h"
#include "objects/containers.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <sys/stat.h>

/* The mode argument; 0 or -1 with CPython's error. */
static int mode_arg(Obj v, uint32_t *out)
{
    Obj u = vm_unwrap(v);
    if (!IS_INT(u)) {
        err_set(E_TypeError, "an integer is required");
        return -1;
    }
    u = int_exact(u);
    if (int_sign(u) < 0) {
        err_set(E_OverflowError, "can't convert negative value to unsigned int");
        return -1;
    }
    if (int_bit_length(u) > 64) {
        err_set(E_OverflowError, "Python int too large to convert to C unsigned long");
        return -1;
    }
    if (int_bit_length(u) > 32) {
        err_set(E_OverflowError, "mode out of range");
        return -1;
    }
    int64_t m;
    if (int_as_i64(u, &m) < 0)
        return -1;
    *out = (uint32_t)m;
    return 0;
}

/* The file type bits this system knows (Linux: no door, port, whiteout). */
#define TYPE_DOOR 0
#define TYPE_PORT 0
#define TYPE_WHT 0

#define IS_FUNC(NAME, TEST)                                        \
    static Obj f_##NAME(Obj *args, size_t nargs, Obj kwnames)      \
    {                                                              \
        uint32_t m;                                                \
        if (mode_arg(args[0], &m) < 0)                             \
            return NULL;                                           \
        return vm_bool(TEST);                                      \
    }
IS_FUNC(S_ISDIR, S_ISDIR(m))
IS_FUNC(S_ISCHR, S_ISCHR(m))
IS_FUNC(S_ISBLK, S_ISBLK(m))
IS_FUNC(S_ISREG, S_ISREG(m))
IS_FUNC(S_ISFIFO, S_ISFIFO(m))
IS_FUNC(S_ISLNK, S_ISLNK(m))
IS_FUNC(S_ISSOCK, S_ISSOCK(m))
IS_FUNC(S_ISDOOR, TYPE_DOOR && (m & S_IFMT) == TYPE_DOOR)
IS_FUNC(S_ISPORT, TYPE_PORT && (m & S_IFMT) == TYPE_PORT)
IS_FUNC(S_ISWHT, TYPE_WHT && (m & S_IFMT) == TYPE_WHT)
#undef IS_FUNC

static Obj f_S_IMODE(Obj *args, size_t nargs, Obj kwnames)
{
    uint32_t m;
    if (mode_arg(args[0], &m) < 0)
        return NULL;
    return MAKE_SMALLINT(m & 07777);
}

static Obj f_S_IFMT(Obj *args, size_t nargs, Obj kwnames)
{
    uint32_t m;
    if (mode_arg(args[0], &m) < 0)
        return NULL;
    return MAKE_SMALLINT(m & S_IFMT);
}

/* ls -l's letter for the file type; '?' for a type this system lacks. */
static char type_letter(uint32_t m)
{
    switch (m & S_IFMT) {
    case S_IFREG: return '-';
    case S_IFDIR: return 'd';
    case S_IFLNK: return 'l';
    case S_IFBLK: return 'b';
    case S_IFCHR: return 'c';
    case S_IFIFO: return 'p';
    case S_IFSOCK: return 's';
    default: return '?';
    }
}

/* One rwx triple; the set-id/sticky bit shows in the x place, lowercase
 * when x is set too. */
static void triple(char *p, uint32_t m, uint32_t r, uint32_t w, uint32_t x, uint32_t special, char sc)
{
    p[0] = m & r ? 'r' : '-';
    p[1] = m & w ? 'w' : '-';
    if (m & special)
        p[2] = m & x ? sc : (char)(sc - 'a' + 'A');
    else
        p[2] = m & x ? 'x' : '-';
}

static Obj f_filemode(Obj *args, size_t nargs, Obj kwnames)
{
    uint32_t m;
    if (mode_arg(args[0], &m) < 0)
        return NULL;
    char s[10];
    s[0] = type_letter(m);
    triple(s + 1, m, S_IRUSR, S_IWUSR, S_IXUSR, S_ISUID, 's');
    triple(s + 4, m, S_IRGRP, S_IWGRP, S_IXGRP, S_ISGID, 's');
    triple(s + 7, m, S_IROTH, S_IWOTH, S_IXOTH, S_ISVTX, 't');
    return str_new(s, 10);
}

#define IS_DOC(NAME, WHAT) #NAME "(mode) -> bool\n\nReturn True if mode is from " WHAT "."

static const MethodDef stat_functions[] = {
    {"S_ISDIR", f_S_ISDIR, METH_O, IS_DOC(S_ISDIR, "a directory")},
    {"S_ISCHR", f_S_ISCHR, METH_O, IS_DOC(S_ISCHR, "a character special device file")},
    {"S_ISBLK", f_S_ISBLK, METH_O, IS_DOC(S_ISBLK, "a block special device file")},
    {"S_ISREG", f_S_ISREG, METH_O, IS_DOC(S_ISREG, "a regular file")},
    {"S_ISFIFO", f_S_ISFIFO, METH_O, IS_DOC(S_ISFIFO, "a FIFO (named pipe)")},
    {"S_ISLNK", f_S_ISLNK, METH_O, IS_DOC(S_ISLNK, "a symbolic link")},
    {"S_ISSOCK", f_S_ISSOCK, METH_O, IS_DOC(S_ISSOCK, "a socket")},
    {"S_ISDOOR", f_S_ISDOOR, METH_O, IS_DOC(S_ISDOOR, "a door")},
    {"S_ISPORT", f_S_ISPORT, METH_O, IS_DOC(S_ISPORT, "an event port")},
    {"S_ISWHT", f_S_ISWHT, METH_O, IS_DOC(S_ISWHT, "a whiteout")},
    {"S_IMODE", f_S_IMODE, METH_O, "Return the portion of the file's mode that can be set by os.chmod()."},
    {"S_IFMT", f_S_IFMT, METH_O, "Return the portion of the file's mode that describes the file type."},
    {"filemode", f_filemode, METH_O, "Convert a file's mode to a string of the form '-rwxrwxrwx'"},
    {NULL, NULL, 0, NULL},
};

static const struct {
    const char *name;
    int64_t value;
} stat_constants[] = {
    /* file types */
    {"S_IFDIR", S_IFDIR}, {"S_IFCHR", S_IFCHR}, {"S_IFBLK", S_IFBLK}, {"S_IFREG", S_IFREG},
    {"S_IFIFO", S_IFIFO}, {"S_IFLNK", S_IFLNK}, {"S_IFSOCK", S_IFSOCK},
    {"S_IFDOOR", TYPE_DOOR}, {"S_IFPORT", TYPE_PORT}, {"S_IFWHT", TYPE_WHT},
    /* mode bits */
    {"S_ISUID", S_ISUID}, {"S_ISGID", S_ISGID}, {"S_ISVTX", S_ISVTX},
    {"S_ENFMT", S_ISGID},   /* System V file locking: the set-gid bit without group execute */
    {"S_IREAD", S_IRUSR}, {"S_IWRITE", S_IWUSR}, {"S_IEXEC", S_IXUSR},
    {"S_IRWXU", S_IRWXU}, {"S_IRUSR", S_IRUSR}, {"S_IWUSR", S_IWUSR}, {"S_IXUSR", S_IXUSR},
    {"S_IRWXG", S_IRWXG}, {"S_IRGRP", S_IRGRP}, {"S_IWGRP", S_IWGRP}, {"S_IXGRP", S_IXGRP},
    {"S_IRWXO", S_IRWXO}, {"S_IROTH", S_IROTH}, {"S_IWOTH", S_IWOTH}, {"S_IXOTH", S_IXOTH},
    /* chflags(2) flags (BSD and macOS values: stat.py and os.chflags name them everywhere) */
    {"UF_NODUMP", 0x00000001}, {"UF_IMMUTABLE", 0x00000002}, {"UF_APPEND", 0x00000004},
    {"UF_OPAQUE", 0x00000008}, {"UF_NOUNLINK", 0x00000010}, {"UF_COMPRESSED", 0x00000020},
    {"UF_HIDDEN", 0x00008000}, {"SF_ARCHIVED", 0x00010000}, {"SF_IMMUTABLE", 0x00020000},
    {"SF_APPEND", 0x00040000}, {"SF_NOUNLINK", 0x00100000}, {"SF_SNAPSHOT", 0x00200000},
    /* indices into os.stat()'s tuple */
    {"ST_MODE", 0}, {"ST_INO", 1}, {"ST_DEV", 2}, {"ST_NLINK", 3}, {"ST_UID", 4},
    {"ST_GID", 5}, {"ST_SIZE", 6}, {"ST_ATIME", 7}, {"ST_MTIME", 8}, {"ST_CTIME", 9},
};

static const char stat_doc[] =
    "S_IFMT_: file type bits\n"
    "S_IFDIR: directory\n"
    "S_IFCHR: character device\n"
    "S_IFBLK: block device\n"
    "S_IFREG: regular file\n"
    "S_IFIFO: fifo (named pipe)\n"
    "S_IFLNK: symbolic link\n"
    "S_IFSOCK: socket file\n"
    "S_IFDOOR: door\n"
    "S_IFPORT: event port\n"
    "S_IFWHT: whiteout\n"
    "\n"
    "S_ISUID: set UID bit\n"
    "S_ISGID: set GID bit\n"
    "S_ENFMT: file locking enforcement\n"
    "S_ISVTX: sticky bit\n"
    "S_IREAD: Unix V7 synonym for S_IRUSR\n"
    "S_IWRITE: Unix V7 synonym for S_IWUSR\n"
    "S_IEXEC: Unix V7 synonym for S_IXUSR\n"
    "S_IRWXU: mask for owner permissions\n"
    "S_IRUSR: read by owner\n"
    "S_IWUSR: write by owner\n"
    "S_IXUSR: execute by owner\n"
    "S_IRWXG: mask for group permissions\n"
    "S_IRGRP: read by group\n"
    "S_IWGRP: write by group\n"
    "S_IXGRP: execute by group\n"
    "S_IRWXO: mask for others (not in group) permissions\n"
    "S_IROTH: read by others\n"
    "S_IWOTH: write by others\n"
    "S_IXOTH: execute by others\n"
    "\n"
    "UF_NODUMP: do not dump file\n"
    "UF_IMMUTABLE: file may not be changed\n"
    "UF_APPEND: file may only be appended to\n"
    "UF_OPAQUE: directory is opaque when viewed through a union stack\n"
    "UF_NOUNLINK: file may not be renamed or deleted\n"
    "UF_COMPRESSED: OS X: file is hfs-compressed\n"
    "UF_HIDDEN: OS X: file should not be displayed\n"
    "SF_ARCHIVED: file may be archived\n"
    "SF_IMMUTABLE: file may not be changed\n"
    "SF_APPEND: file may only be appended to\n"
    "SF_NOUNLINK: file may not be renamed or deleted\n"
    "SF_SNAPSHOT: file is a snapshot file\n"
    "\n"
    "ST_MODE\n"
    "ST_INO\n"
    "ST_DEV\n"
    "ST_NLINK\n"
    "ST_UID\n"
    "ST_GID\n"
    "ST_SIZE\n"
    "ST_ATIME\n"
    "ST_MTIME\n"
    "ST_CTIME\n"
    "\n"
    "FILE_ATTRIBUTE_*: Windows file attribute constants\n"
    "                   (only present on Windows)\n";

Obj stat_module_init(void)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = module_new("_stat");
    if (!r[0])
        goto out;
    module_add_functions(r[0], stat_functions);
    for (size_t i = 0; i < ARRAY_LEN(stat_constants); i++)
        if (module_add(r[0], stat_constants[i].name, MAKE_SMALLINT(stat_constants[i].value)) < 0)
            goto out;
    r[1] = str_from_cstr(stat_doc);
    if (!r[1] || module_add(r[0], "__doc__", r[1]) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
