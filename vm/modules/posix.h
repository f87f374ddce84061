/* What the files of the posix module share (posixmodule.c: files, file
 * descriptors and the module; posixprocess.c: processes; posixscandir.c:
 * scandir and DirEntry): argument conversions with CPython's messages and
 * the OSError of a failed call. */
#ifndef TMPY_POSIX_H
#define TMPY_POSIX_H

#include "modules.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <dirent.h>
#include <stdbool.h>
#include <sys/stat.h>

/* A path argument (CPython's path_t): the file system's bytes of a str,
 * bytes or os.PathLike (malloc'd, NUL-terminated: free with
 * posix_path_free), or a file descriptor when the function takes one. */
typedef struct {
    char *c;       /* NULL when fd >= 0 or the argument was None */
    bool bytes;    /* results of this path are bytes */
    bool is_fd;    /* an int was given (allow_fd): fd */
    int fd;
} PosixPath;

/* 0, or -1 with TypeError "fname: argname should be string, bytes,
 * os.PathLike[, integer][ or None], not T" or ValueError "embedded null
 * byte". NULL (not given) or None is allowed when nullable. */
int posix_path(Obj v, const char *fname, const char *argname, bool nullable, bool allow_fd, PosixPath *out);
void posix_path_free(PosixPath *p);
/* n bytes from the OS entropy source (getrandom), retried after a signal or a
 * short read: 0, or -1 with errno set (os.urandom, random's seeds and
 * SystemRandom, _uuid). */
int posix_random_bytes(void *buf, size_t n);
/* A C int argument (fd, mode, flags): 0 or -1 (TypeError/OverflowError). */
int posix_int(Obj v, int *out);
/* An object's file descriptor: an int, or what its fileno() returns. */
int posix_fileno(Obj v, int *fd);
/* A truth-value argument; dflt when NULL. 0 or -1. */
int posix_bool(Obj v, bool dflt, bool *out);
/* Opens a directory: a path (NULL: "."), or a copy of an fd, rewound (the
 * caller's fd stays where it was). NULL with errno. */
DIR *posix_opendir(const PosixPath *p);
/* OSError from errno, naming the path argument v (NULL: none). NULL. */
Obj posix_error(Obj v);
/* The os.stat_result of st. */
Obj posix_stat_result(const struct stat *st);
/* str or bytes of the file system's bytes p[0..n). */
Obj posix_mkpath(bool bytes, const char *p, size_t n);

/* posixscandir.c */
Obj posix_scandir(Obj *args, size_t nargs, Obj kwnames);
int posix_scandir_init(Obj module);     /* adds DirEntry */
/* posixprocess.c */
extern const MethodDef posix_process_functions[];
int posix_process_init(Obj module);      /* the result types and constants */
/* In a fork's child, before it runs Python: its own object space (heap:
 * tm_segments_fork_copy's memfd, made just before the fork), one thread. */
void posix_after_fork_child(int heap);

#endif
