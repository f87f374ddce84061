/* File objects: open(), sys.stdin/stdout/stderr.
 *
 * One type serves text and binary files (FileObj in tmpy.h). Reads go
 * through a pinned read buffer (a RawObj allocated old, so a linear pointer
 * into it survives allocations); writes collect in a C buffer flushed when
 * full, at close, at exit, and (stdout) before anything reaches stderr.
 * Text is UTF-8; reading translates \r\n and \r to \n (universal newlines).
 *
 * `f.buffer` of a text file is a binary "view": a FileObj flagged F_VIEW
 * whose `encoding` field holds the text file, so both share one state (fd,
 * buffers) and print() and sys.stdout.buffer.write() stay in order. */
#include "objects.h"
#include "strobj.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <locale.h>
#include <unistd.h>


TypeObj *T_file;
Obj g_sys_stdout, g_sys_stderr, g_sys_stdin;

enum {
    F_READ = 1 << 0,
    F_WRITE = 1 << 1,
    F_BINARY = 1 << 2,
    F_APPEND = 1 << 3,
    F_CLOSED = 1 << 4,
    F_LINEBUF = 1 << 5,     /* flush at every newline written */
    F_UNBUF = 1 << 6,       /* flush at every write */
    F_TRANSLATE = 1 << 7,   /* newline=None: \r\n and \r read as \n */
    F_NL_ANY = 1 << 8,      /* newline='': lines end at \n, \r or \r\n, untranslated */
    F_CLOSEFD = 1 << 9,
    F_REGISTERED = 1 << 10, /* in g_open_files (flushed at exit) */
    F_SKIPLF = 1 << 11,     /* translated a \r last: drop a \n that follows */
    F_VIEW = 1 << 12,       /* binary view of a text file: state in ->encoding */
    F_STDIO = 1 << 13,      /* fd 1 or 2: flush sys.stdout before writing */
    F_EXPLICIT_ENC = 1 << 14,
    F_ERR_SHIFT = 16,       /* bits 16-18: the errors= handler, an index into err_names */
    F_ERR_MASK = 7 << 16,
};

/* Text files' error handlers; "strict" (0) is the default. */
static const char *const err_names[] = {"strict", "surrogateescape", "backslashreplace", "replace",
                                        "ignore", "surrogatepass", "xmlcharrefreplace"};
enum { ERRH_STRICT, ERRH_SURROGATEESCAPE, ERRH_BACKSLASHREPLACE };

static inline const char *err_name(Obj st) { return err_names[(FO(st)->flags & F_ERR_MASK) >> F_ERR_SHIFT]; }

#define RBUF_SIZE FILE_BUFFER_SIZE
#define WBUF_SIZE 8192

unsigned file_closed_std_fds;
static Obj g_open_files;        /* list of writable files not closed yet */
static Obj g_unsupported_op;    /* io.UnsupportedOperation (made on first use) */
static Obj g_stdout_view;       /* sys.stdout.buffer */
static Obj g_stdin_view;        /* sys.stdin.buffer */


/* The object holding the state (fd, buffers, closed flag). */
static inline Obj fstate(Obj f)
{
    return (FO(f)->flags & F_VIEW) ? FO(f)->encoding : f;
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

static TypeObj *errno_type(int e)
{
    switch (e) {
    case ENOENT: return E_FileNotFoundError;
    case EEXIST: return E_FileExistsError;
    case EACCES: case EPERM: return E_PermissionError;
    case EISDIR: return E_IsADirectoryError;
    case ENOTDIR: return E_NotADirectoryError;
    case EPIPE: case ESHUTDOWN: return E_BrokenPipeError;
    case EINTR: return E_InterruptedError;
    case ECHILD: return E_ChildProcessError;
    case ESRCH: return E_ProcessLookupError;
    case EAGAIN: case EALREADY: case EINPROGRESS: return E_BlockingIOError;
    case ETIMEDOUT: return E_TimeoutError;
    case ECONNREFUSED: case ECONNABORTED: case ECONNRESET: return E_ConnectionError;
    default: return E_OSError;
    }
}

Obj err_from_errno2(int err, Obj filename, Obj filename2)
{
    /* OSError(errno, strerror[, filename[, winerror, filename2]]) */
    Obj *r = vm_roots(5);
    r[2] = filename;
    r[3] = g_None;
    r[4] = filename2;
    r[0] = MAKE_SMALLINT(err);
    r[1] = str_from_cstr(strerror(err));
    size_t n = filename2 ? 5 : filename ? 3 : 2;
    Obj exc = r[1] ? exc_new(errno_type(err), r, n) : NULL;
    if (exc)
        err_set_obj(exc);
    vm_unroots(r);
    return NULL;
}

Obj err_from_errno(int err, Obj filename)
{
    return err_from_errno2(err, filename, NULL);
}

/* io.UnsupportedOperation: a subclass of OSError and ValueError. */
Obj file_unsupported_operation(void)
{
    if (g_unsupported_op)
        return g_unsupported_op;
    vm_tx_become_inevitable();   /* a C global root is written only by an inevitable transaction */
    if (g_unsupported_op)        /* made by another thread while this one waited to become inevitable */
        return g_unsupported_op;
    Obj *r = vm_roots(4);
    r[0] = str_from_cstr("UnsupportedOperation");
    r[1] = tuple_pack(2, (Obj)E_OSError, (Obj)E_ValueError);
    r[2] = dict_new();
    Obj cls = NULL;
    if (r[0] && r[1] && r[2] && dict_setitem_cstr(r[2], "__module__", r[3] = str_from_cstr("io")) == 0)
        cls = vm_call3((Obj)T_type, r[0], r[1], r[2]);
    vm_unroots(r);
    if (!cls) {
        err_clear();
        return (Obj)E_OSError;
    }
    g_unsupported_op = cls;
    return cls;
}

static Obj err_unsupported(const char *msg)
{
    Obj t = file_unsupported_operation();
    Obj *r = vm_roots(1);
    r[0] = str_from_cstr(msg);
    Obj exc = r[0] ? vm_call1(t, r[0]) : NULL;
    if (exc)
        err_set_obj(exc);
    vm_unroots(r);
    return NULL;
}

static Obj err_closed(void)
{
    err_set(E_ValueError, "I/O operation on closed file.");
    return NULL;
}

/* UnicodeDecodeError for invalid UTF-8 at p[pos]. */
static Obj err_decode(const unsigned char *p, size_t n, size_t pos)
{
    unsigned c = p[pos];
    const char *why = "invalid start byte";
    if (c >= 0xc2 && c <= 0xf4) {
        int need = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
        why = (pos + (size_t)need > n) ? "unexpected end of data" : "invalid continuation byte";
        /* a truncated sequence whose present bytes are fine is "unexpected end" */
        for (size_t k = 1; k < (size_t)need && pos + k < n; k++)
            if ((p[pos + k] & 0xc0) != 0x80) {
                why = "invalid continuation byte";
                break;
            }
    }
    /* UnicodeDecodeError(encoding, object, start, end, reason) */
    size_t end = why[0] == 'u' ? n : pos + 1;
    Obj *r = vm_roots(5);
    r[0] = str_from_cstr("utf-8");
    r[1] = r[0] ? bytes_new((const char *)p, n) : NULL;
    r[2] = int_from_i64((int64_t)pos);
    r[3] = int_from_i64((int64_t)end);
    r[4] = r[1] ? str_from_cstr(why) : NULL;
    Obj exc = r[4] ? exc_new(E_UnicodeDecodeError, r, 5) : NULL;
    if (exc)
        err_set_obj(exc);
    vm_unroots(r);
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Creating file objects                                               */
/* ------------------------------------------------------------------ */

static Obj rbuf_new(void)
{
    /* Pinned: a linear pointer into it stays valid across allocations. */
    Obj raw = (Obj)tm_allocate_old(TID_RAW, sizeof(struct RawObj_) + RBUF_SIZE);
    if (!raw)
        return err_nomemory();
    (RAW(raw))->length = RBUF_SIZE;
    return raw;
}

/* g_open_files holds weak references: a writable file nobody references
 * is collected (and flushed and closed by its finalizer, gcwork.c); the
 * ones still open at exit are flushed from this list. Dead entries are
 * dropped whenever the list has grown by 64. */
static void prune_open_files(void)
{
    Obj l = g_open_files;
    int64_t n = LIST_LEN(l), k = 0;
    VM_WRITE(l);
    VM_WRITE(LIST(l)->array);
    for (int64_t i = 0; i < n; i++) {
        Obj w = LIST_ITEMS(l)[i];
        if (weakref_referent(w))
            LIST_ITEMS(l)[k++] = w;
    }
    for (int64_t i = k; i < n; i++)
        LIST_ITEMS(l)[i] = g_None;
    LIST(l)->length = k;
}

static int register_open_file(Obj f)
{
    Obj *r = vm_roots(2);
    r[0] = f;
    if (LIST_LEN(g_open_files) % 64 == 63)
        prune_open_files();
    r[1] = weakref_new(T_weakref, r[0], NULL);
    int rc = r[1] ? list_append(g_open_files, r[1]) : -1;
    f = r[0];
    vm_unroots(r);
    if (rc == 0) {
        VM_WRITE(f);
        FO(f)->flags |= F_REGISTERED;
    }
    return rc;
}

static void unregister_open_file(Obj f)
{
    if (!(FO(f)->flags & F_REGISTERED) || !g_open_files)
        return;
    VM_WRITE(f);
    FO(f)->flags &= ~F_REGISTERED;
    Obj l = g_open_files;
    int64_t n = LIST_LEN(l);
    for (int64_t i = 0; i < n; i++) {
        if (weakref_referent(LIST_ITEMS(l)[i]) == f) {
            VM_WRITE(l);
            VM_WRITE(LIST(l)->array);
            for (int64_t j = i; j + 1 < n; j++)
                LIST_ITEMS(l)[j] = LIST_ITEMS(l)[j + 1];
            LIST_ITEMS(l)[n - 1] = g_None;
            LIST(l)->length = n - 1;
            return;
        }
    }
}

/* A file object for an open fd. name/mode: rooted by the caller or pinned. */
static Obj file_alloc(int fd, Obj name, Obj mode, int64_t flags, Obj encoding)
{
    Obj *r = vm_roots(4);
    r[0] = name;
    r[1] = mode;
    r[3] = encoding;
    if (flags & F_READ) {
        r[2] = rbuf_new();
        if (!r[2]) {
            vm_unroots(r);
            return NULL;
        }
    }
    /* Pinned: file methods keep the object in a C local across blocking
     * reads and writes, which hand the GIL on (and collect). */
    Obj f = (Obj)tm_allocate_old(TID_FILE, sizeof(struct FileObj_));
    if (!f) {
        vm_unroots(r);
        return err_nomemory();
    }
    FileObj *fo = FO(f);
    fo->name = r[0];
    fo->mode = r[1];
    fo->rbuf = r[2];
    fo->encoding = r[3];
    fo->fd = fd;
    fo->flags = flags;
    fo->rpos = fo->rlen = 0;
    fo->wbuf = NULL;
    fo->wlen = fo->wcap = 0;
    vm_unroots(r);
    return f;
}

static bool valid_fd(int fd) { return fcntl(fd, F_GETFD) != -1 || errno != EBADF; }

/* Whether the environment's LC_CTYPE locale makes CPython use
 * surrogateescape on stdin and stdout (computed once). */
static bool stdio_locale_escapes(void)
{
    static int cached = -1;
    if (cached < 0) {
        const char *utf8 = sys_cflags.ignore_environment ? NULL : getenv("PYTHONUTF8");
        if (utf8 && !strcmp(utf8, "1")) {
            cached = 1;
        } else {
            /* the locale the environment asks for, as setlocale resolves it
             * (an unknown one stays "C"); the program keeps running in "C" */
            const char *loc = setlocale(LC_CTYPE, "");
            if (!loc)
                loc = "C";
            cached = !strcmp(loc, "C") || !strcmp(loc, "POSIX") || !strcmp(loc, "C.UTF-8") ||
                     !strcmp(loc, "C.utf8") || !strcmp(loc, "UTF-8");
            setlocale(LC_CTYPE, "C");
        }
    }
    return cached;
}

static Obj file_from_fd(int fd, const char *mode, const char *name)
{
    Obj *r = vm_roots(3);
    r[0] = str_from_cstr(name);
    r[1] = r[0] ? str_from_cstr(mode) : NULL;
    r[2] = r[1] ? str_from_cstr("utf-8") : NULL;
    if (!r[2]) {
        vm_unroots(r);
        return NULL;
    }
    int64_t flags = F_EXPLICIT_ENC;
    if (strchr(mode, 'r') || strchr(mode, '+'))
        flags |= F_READ;
    if (strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+'))
        flags |= F_WRITE;
    if (strchr(mode, 'b'))
        flags |= F_BINARY;
    /* text: newline='\n' as CPython's standard streams (no translation) */
    if (fd == 1 || fd == 2)
        flags |= F_STDIO;
    if (fd == 2 || ((flags & F_WRITE) && isatty(fd)))
        flags |= F_LINEBUF;
    if ((fd == 1 || fd == 2) && sys_cflags.unbuffered)
        flags |= F_UNBUF;   /* -u, PYTHONUNBUFFERED */
    /* CPython's standard streams: stderr backslashreplace; stdin and stdout
     * surrogateescape in the C and POSIX locales and in C.UTF-8 (a locale
     * coercion target) or with PYTHONUTF8=1, else strict. */
    if (fd == 2)
        flags |= (int64_t)ERRH_BACKSLASHREPLACE << F_ERR_SHIFT;
    else if (stdio_locale_escapes())
        flags |= (int64_t)ERRH_SURROGATEESCAPE << F_ERR_SHIFT;
    Obj f = file_alloc(fd, r[0], r[1], flags, (flags & F_BINARY) ? NULL : r[2]);
    vm_unroots(r);
    return f;
}

Obj vm_fspath(Obj path)
{
    if (IS_STR(path) || IS_BYTES(path))
        return path;
    Obj v = vm_unwrap(path);
    if (IS_STR(v) || IS_BYTES(v))
        return v;
    Obj *r = vm_roots(1);
    r[0] = path;
    Obj u = NULL;
    Obj meth = vm_lookup_special(r[0], "__fspath__");
    if (!meth) {
        err_format(E_TypeError, "expected str, bytes or os.PathLike object, not %s", type_name(r[0]));
        goto out;
    }
    Obj res = vm_call_method(r[0], "__fspath__", NULL, 0);
    if (!res)
        goto out;
    u = vm_unwrap(res);
    if (!IS_STR(u) && !IS_BYTES(u)) {
        err_format(E_TypeError, "expected %s.__fspath__() to return str or bytes, not %s",
                   type_name(r[0]), type_name(res));
        u = NULL;
    }
out:
    vm_unroots(r);
    return u;
}

static bool enc_is_utf8(const char *e)
{
    char buf[32];
    size_t n = 0;
    for (; *e && n + 1 < sizeof buf; e++)
        if (*e != '-' && *e != '_')
            buf[n++] = (char)(*e >= 'A' && *e <= 'Z' ? *e + 32 : *e);
    buf[n] = 0;
    return !strcmp(buf, "utf8") || !strcmp(buf, "u8") || !strcmp(buf, "utf") || !strcmp(buf, "cp65001");
}

Obj file_open_ex(Obj path, const char *mode, int buffering, Obj encoding, Obj errors, Obj newline, bool closefd)
{
    /* Parse the mode as CPython's io.open does. */
    int r_ = 0, w_ = 0, a_ = 0, x_ = 0, plus = 0, b_ = 0, t_ = 0;
    for (const char *m = mode; *m; m++) {
        int *slot;
        switch (*m) {
        case 'r': slot = &r_; break;
        case 'w': slot = &w_; break;
        case 'a': slot = &a_; break;
        case 'x': slot = &x_; break;
        case '+': slot = &plus; break;
        case 'b': slot = &b_; break;
        case 't': slot = &t_; break;
        default: slot = NULL;
        }
        if (!slot || *slot) {
            err_format(E_ValueError, "invalid mode: '%s'", mode);
            return NULL;
        }
        *slot = 1;
    }
    if (r_ + w_ + a_ + x_ != 1) {
        err_set(E_ValueError, "must have exactly one of create/read/write/append mode");
        return NULL;
    }
    if (b_ && t_) {
        err_set(E_ValueError, "can't have text and binary mode at once");
        return NULL;
    }
    if (encoding && IS_NONE(encoding))
        encoding = NULL;
    if (newline && IS_NONE(newline))
        newline = NULL;
    if (b_ && encoding) {
        err_set(E_ValueError, "binary mode doesn't take an encoding argument");
        return NULL;
    }
    if (errors && IS_NONE(errors))
        errors = NULL;
    if (b_ && errors) {
        err_set(E_ValueError, "binary mode doesn't take an errors argument");
        return NULL;
    }
    if (b_ && newline) {
        err_set(E_ValueError, "binary mode doesn't take a newline argument");
        return NULL;
    }
    if (!b_ && buffering == 0) {
        err_set(E_ValueError, "can't have unbuffered text I/O");
        return NULL;
    }
    int64_t flags = 0;
    if (encoding) {
        if (!IS_STR(encoding)) {
            err_format(E_TypeError, "open() argument 'encoding' must be str or None, not %s", type_name(encoding));
            return NULL;
        }
        if (!enc_is_utf8(str_cstr(encoding))) {
            err_format(E_NotImplementedError, "open(): encoding '%s' is not supported yet (only UTF-8)",
                       str_cstr(encoding));
            return NULL;
        }
        flags |= F_EXPLICIT_ENC;
    }
    if (errors) {
        Obj e = str_value(errors);
        if (!e) {
            err_format(E_TypeError, "open() argument 'errors' must be str or None, not %s", type_name(errors));
            return NULL;
        }
        size_t k = 0;
        while (k < ARRAY_LEN(err_names) && !str_eq_cstr(e, err_names[k]))
            k++;
        if (k == ARRAY_LEN(err_names)) {
            err_format(E_LookupError, "unknown error handler name '%s'", str_cstr(e));
            return NULL;
        }
        flags |= (int64_t)k << F_ERR_SHIFT;
    }
    if (!b_) {
        if (!newline) {
            flags |= F_TRANSLATE;
        } else if (!IS_STR(newline)) {
            err_format(E_TypeError, "open() argument 'newline' must be str or None, not %s", type_name(newline));
            return NULL;
        } else if (str_eq_cstr(newline, "")) {
            flags |= F_NL_ANY;
        } else if (str_eq_cstr(newline, "\n")) {
            /* lines end at \n only, nothing translated */
        } else if (str_eq_cstr(newline, "\r") || str_eq_cstr(newline, "\r\n")) {
            err_set(E_NotImplementedError, "open(): newline='\\r' and '\\r\\n' are not supported yet");
            return NULL;
        } else {
            err_format(E_ValueError, "illegal newline value: %s", str_cstr(newline));
            return NULL;
        }
    }
    int oflags = O_CLOEXEC;
    if (r_)
        flags |= F_READ;
    else
        flags |= F_WRITE;
    if (plus)
        flags |= F_READ | F_WRITE;
    oflags |= plus ? O_RDWR : r_ ? O_RDONLY : O_WRONLY;
    if (w_)
        oflags |= O_CREAT | O_TRUNC;
    if (a_) {
        oflags |= O_CREAT | O_APPEND;
        flags |= F_APPEND;
    }
    if (x_)
        oflags |= O_CREAT | O_EXCL;
    if (b_)
        flags |= F_BINARY;
    if (buffering == 0)
        flags |= F_UNBUF;
    else if (buffering == 1 && !b_)
        flags |= F_LINEBUF;

    Obj *r = vm_roots(5);
    r[0] = path;
    r[4] = encoding;
    int fd;
    if (IS_INT(path) && TID(path) != TID_BOOL) {
        int64_t v;
        if (int_as_i64(path, &v) < 0) {
            vm_unroots(r);
            return NULL;
        }
        if (v < 0 || v > 0x7fffffff) {
            err_set(v < 0 ? E_ValueError : E_OverflowError,
                    v < 0 ? "negative file descriptor" : "signed integer is greater than maximum");
            vm_unroots(r);
            return NULL;
        }
        fd = (int)v;
        struct stat st;
        if (fstat(fd, &st) < 0) {
            err_from_errno(errno, NULL);
            vm_unroots(r);
            return NULL;
        }
        if (closefd)
            flags |= F_CLOSEFD;
        if (fd == 1 || fd == 2)
            flags |= F_STDIO;
    } else {
        if (!closefd) {
            err_set(E_ValueError, "Cannot use closefd=False with file name");
            vm_unroots(r);
            return NULL;
        }
        Obj p = vm_fspath(path);
        if (!p) {
            vm_unroots(r);
            return NULL;
        }
        r[0] = p;
        size_t clen;
        char *cpath;   /* the file system's bytes (a str: surrogateescape) */
        if (IS_STR(p)) {
            cpath = str_to_os(p, &clen);
        } else {
            clen = (size_t)((BytesObj *)p)->length;
            cpath = malloc(clen + 1);
            if (cpath) {
                memcpy(cpath, (const char *)VM_LINEAR(((BytesObj *)p)->data), clen);
                cpath[clen] = 0;
            } else {
                err_nomemory();
            }
        }
        if (!cpath || strlen(cpath) != clen) {
            if (cpath)
                err_set(E_ValueError, "embedded null byte");
            free(cpath);
            vm_unroots(r);
            return NULL;
        }
        fd = vm_blocking_open(cpath, oflags, 0666);
        free(cpath);
        if (fd < 0) {
            err_from_errno(errno, r[0]);
            vm_unroots(r);
            return NULL;
        }
        struct stat st;
        if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
            close(fd);
            err_from_errno(EISDIR, r[0]);
            vm_unroots(r);
            return NULL;
        }
        flags |= F_CLOSEFD;
    }
    /* The mode string as CPython reports it. */
    char mbuf[8];
    if (b_) {
        snprintf(mbuf, sizeof mbuf, "%s%s", r_ ? "rb" : w_ ? "wb" : a_ ? "ab" : "xb", plus ? "+" : "");
        if (plus && !r_)
            snprintf(mbuf, sizeof mbuf, "%s", a_ ? "ab+" : x_ ? "xb+" : "rb+");
    } else {
        snprintf(mbuf, sizeof mbuf, "%s", mode);
    }
    r[1] = str_from_cstr(mbuf);
    if (r[1] && !b_)
        r[2] = r[4] ? r[4] : str_from_cstr("UTF-8");
    if (!r[1] || (!b_ && !r[2])) {
        close(fd);
        vm_unroots(r);
        return NULL;
    }
    if (!(flags & F_LINEBUF) && (flags & F_WRITE) && buffering < 0 && isatty(fd) && !b_)
        flags |= F_LINEBUF;
    Obj f = file_alloc(fd, r[0], r[1], flags, b_ ? NULL : r[2]);
    if (f)
        tm_register_finalizer((object_t *)f);   /* closed (and flushed) when collected: file_finalize */
    if (f && (flags & F_WRITE)) {
        r[3] = f;
        if (register_open_file(f) < 0)
            f = NULL;
        else
            f = r[3];
    }
    if (!f && (flags & F_CLOSEFD))
        close(fd);
    vm_unroots(r);
    return f;
}

/* ------------------------------------------------------------------ */
/* Low-level I/O                                                       */
/* ------------------------------------------------------------------ */

static int flush_raw(Obj st);

/* Before bytes reach fd 1 or 2 from another file object, sys.stdout's
 * pending output goes first. Never allocates (callers hold linear pointers). */
static void flush_stdout_first(Obj st)
{
    Obj out = g_sys_stdout;
    if (out && TID(out) == TID_FILE && out != st && FO(out)->wlen > 0)
        (void)flush_raw(out);
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = vm_blocking_write(fd, p, n);
        if (w < 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Write the C buffer of a state object: 0 or an errno (nothing raised). */
static int flush_raw(Obj st)
{
    FileObj *f = FO(st);
    if (f->wlen == 0)
        return 0;
    if (f->flags & F_STDIO)
        flush_stdout_first(st);
    /* The buffer is taken off the file while it is written: the write hands
     * the GIL on, and another thread may write to this file meanwhile (it
     * gets a fresh buffer). The data is dropped even on error: a broken pipe
     * must not fail again at exit. */
    char *p = f->wbuf;
    size_t n = (size_t)f->wlen;
    VM_WRITE(st);
    f->wbuf = NULL;
    f->wlen = f->wcap = 0;
    int rc = write_all((int)f->fd, p, n) < 0 ? (errno ? errno : EIO) : 0;
    f = FO(st);   /* pinned: the same object */
    if (!f->wbuf && !(f->flags & F_CLOSED)) {
        VM_WRITE(st);
        f->wbuf = p;
        f->wcap = WBUF_SIZE;
    } else {
        free(p);
    }
    return rc;
}

static int flush_state(Obj st)
{
    int e = flush_raw(st);
    if (e) {
        err_from_errno(e, NULL);
        return -1;
    }
    return 0;
}

/* Unread buffered input of a read/write file is given back before writing. */
static int drop_read_buffer(Obj st)
{
    FileObj *f = FO(st);
    int64_t unread = f->rlen - f->rpos;
    if (unread > 0 && lseek((int)f->fd, -unread, SEEK_CUR) < 0) {
        /* not seekable: the data is simply dropped */
    }
    VM_WRITE(st);
    f->rpos = f->rlen = 0;
    f->flags &= ~F_SKIPLF;
    return 0;
}

/* Append bytes to the state's output. p may point into a GC object: it is
 * copied to C memory before anything that can block (a flush hands the GIL
 * on, and the object may then move). */
static int write_bytes(Obj st, const char *p, size_t n, bool has_newline)
{
    vm_tx_become_inevitable();   /* the buffer is C memory: no abort may write it twice */
    FileObj *f = FO(st);
    if (n == 0)
        return 0;
    if (f->rlen > f->rpos)
        drop_read_buffer(st);
    if (!(f->flags & F_UNBUF) && (size_t)(f->wcap - f->wlen) >= n) {
        memcpy(f->wbuf + f->wlen, p, n);   /* the common case: room in the buffer */
        VM_WRITE(st);
        f->wlen += (int64_t)n;
        if ((f->flags & F_LINEBUF) && has_newline)
            return flush_state(st);
        return 0;
    }
    char *copy = malloc(n ? n : 1);
    if (!copy) {
        err_nomemory();
        return -1;
    }
    memcpy(copy, p, n);
    int rc = -1;
    /* Flushing blocks, and another thread may fill the buffer meanwhile:
     * check the room again after each flush. */
    while (f->wlen && ((f->flags & F_UNBUF) || (size_t)(f->wcap - f->wlen) < n))
        if (flush_state(st) < 0)
            goto out;
    if ((f->flags & F_UNBUF) || n >= WBUF_SIZE) {
        if (f->flags & F_STDIO)
            flush_stdout_first(st);
        if (write_all((int)f->fd, copy, n) < 0) {
            err_from_errno(errno, NULL);
            goto out;
        }
        rc = 0;
        goto out;
    }
    if (!f->wbuf) {
        char *b = malloc(WBUF_SIZE);
        if (!b) {
            err_nomemory();
            goto out;
        }
        VM_WRITE(st);
        f->wbuf = b;
        f->wcap = WBUF_SIZE;
    }
    memcpy(f->wbuf + f->wlen, copy, n);
    VM_WRITE(st);
    f->wlen += (int64_t)n;
    rc = (f->flags & F_LINEBUF) && has_newline ? flush_state(st) : 0;
out:
    free(copy);
    return rc;
}

/* A str written to text file st: its UTF-8 as it is, or, when it holds lone
 * surrogates, encoded with the file's errors handler (strict: UnicodeEncodeError). */
static int write_text(Obj st, Obj s)
{
    size_t n = (size_t)STR(s)->nbytes;
    const char *p = str_cstr(s);
    if (likely(!utf8_has_surrogate(p, n)))
        return write_bytes(st, p, n, (FO(st)->flags & F_LINEBUF) && memchr(p, '\n', n));
    Obj *r = vm_roots(1);
    r[0] = str_encode(s, "utf-8", err_name(st));
    int rc = -1;
    if (r[0]) {
        n = (size_t)BYTES(r[0])->length;
        p = (const char *)VM_LINEAR(BYTES(r[0])->data);
        rc = write_bytes(st, p, n, (FO(st)->flags & F_LINEBUF) && memchr(p, '\n', n));
    }
    vm_unroots(r);
    return rc;
}

/* Refill the read buffer. 1: data available, 0: EOF, -1: error. */
static int fill(Obj st)
{
    FileObj *f = FO(st);
    if (f->rpos < f->rlen)
        return 1;
    if (f->wlen && flush_state(st) < 0)
        return -1;
    if (g_sys_stdout && (f->fd == 0) && TID(g_sys_stdout) == TID_FILE && FO(g_sys_stdout)->wlen)
        flush_stdout_first(st);   /* an interactive prompt shows before we wait */
    /* One thread at a time fills the buffer (the read hands the GIL on):
     * the file's monitor serves as CPython's per-file lock. st is pinned. */
    tm_monitor_enter((object_t *)st);
    if (f->rpos < f->rlen) {   /* another thread filled it while we waited */
        tm_monitor_exit((object_t *)st);
        return 1;
    }
    VM_WRITE(st);
    f->rpos = f->rlen = 0;
#if TM_STM
    /* The read runs between two transactions: into C memory, copied into
     * the buffer object by the transaction after it. */
    char tmp[RBUF_SIZE];
    ssize_t n = vm_blocking_read((int)f->fd, tmp, RBUF_SIZE);
    if (n > 0) {
        Obj raw = f->rbuf;
        VM_WRITE(raw);
        memcpy(VM_LINEAR(RAW(raw)->data), tmp, (size_t)n);
        tm_compiler_barrier();
    }
#else
    Obj raw = f->rbuf;
    VM_WRITE(raw);
    ssize_t n = vm_blocking_read((int)f->fd, VM_LINEAR((RAW(raw))->data), RBUF_SIZE);
#endif
    tm_monitor_exit((object_t *)st);
    if (n < 0) {
        if (errno != EINTR)   /* EINTR: a signal handler's exception is set */
            err_from_errno(errno, NULL);
        return -1;
    }
    VM_WRITE(st);
    f->rlen = n;
    return n > 0;
}

static inline const unsigned char *rdata(Obj st)
{
    return (const unsigned char *)VM_LINEAR(RAW(FO(st)->rbuf)->data);
}

/* Consume a pending \n after a translated \r. 0 ok, -1 error. */
static int skip_lf(Obj st)
{
    FileObj *f = FO(st);
    if (!(f->flags & F_SKIPLF))
        return 0;
    int rc = fill(st);
    if (rc < 0)
        return -1;
    VM_WRITE(st);
    f->flags &= ~F_SKIPLF;
    if (rc > 0 && rdata(st)[f->rpos] == '\n')
        f->rpos++;
    return 0;
}

/* Copy text bytes into out, translating \r\n and \r to \n when asked.
 * Returns the bytes consumed from p. A \r at the very end sets SKIPLF. */
static void add_translated(Obj st, StrBuf *out, const unsigned char *p, size_t n)
{
    if (!(FO(st)->flags & F_TRANSLATE)) {
        sb_add(out, (const char *)p, n);
        return;
    }
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] != '\r')
            continue;
        sb_add(out, (const char *)p + start, i - start);
        sb_addc(out, '\n');
        if (i + 1 < n) {
            if (p[i + 1] == '\n')
                i++;
        } else {
            VM_WRITE(st);
            FO(st)->flags |= F_SKIPLF;
        }
        start = i + 1;
    }
    sb_add(out, (const char *)p + start, n - start);
}

/* \r\n and \r to \n in place in p[0..n); returns the new length. */
static size_t translate_in_place(char *p, size_t n)
{
    char *cr = memchr(p, '\r', n);
    if (!cr)
        return n;
    size_t w = (size_t)(cr - p);
    for (size_t i = w; i < n; i++) {
        char c = p[i];
        if (c == '\r') {
            p[w++] = '\n';
            if (i + 1 < n && p[i + 1] == '\n')
                i++;
        } else {
            p[w++] = c;
        }
    }
    return w;
}

/* Read everything left into out (text: newlines translated). The file's
 * size sizes the buffer, so a regular file is read with one system call
 * and no copying. */
static int read_all_raw_unlocked(Obj st, StrBuf *out, bool text)
{
    FileObj *f = FO(st);
    if (text && skip_lf(st) < 0)
        return -1;
    if (f->rpos < f->rlen) {
        if (text)
            add_translated(st, out, rdata(st) + f->rpos, (size_t)(f->rlen - f->rpos));
        else
            sb_add(out, (const char *)rdata(st) + f->rpos, (size_t)(f->rlen - f->rpos));
        VM_WRITE(st);
        f->rpos = f->rlen = 0;
    }
    if (f->wlen && flush_state(st) < 0)
        return -1;
    int fd = (int)FO(st)->fd;
    struct stat sb;
    size_t chunk = 65536;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0) {
        off_t pos = lseek(fd, 0, SEEK_CUR);
        if (pos >= 0 && sb.st_size > pos)
            chunk = (size_t)(sb.st_size - pos) + 1;   /* +1: EOF is seen without growing */
    }
    size_t start = out->len;
    for (;;) {
        if (!sb_reserve(out, chunk)) {
            err_nomemory();
            return -1;
        }
        ssize_t n = vm_blocking_read(fd, out->p + out->len, out->cap - out->len - 1);
        if (n < 0) {
            if (errno != EINTR)   /* EINTR: a signal handler's exception is set */
                err_from_errno(errno, NULL);
            return -1;
        }
        if (n == 0)
            break;
        out->len += (size_t)n;
        if (out->cap - out->len - 1 == 0)
            chunk = out->len < 65536 ? 65536 : out->len;   /* grow geometrically */
    }
    if (text && (FO(st)->flags & F_TRANSLATE)) {
        if ((FO(st)->flags & F_SKIPLF) && out->len > start && out->p[start] == '\n') {
            memmove(out->p + start, out->p + start + 1, out->len - start - 1);
            out->len--;
        }
        out->len = start + translate_in_place(out->p + start, out->len - start);
    }
    if (FO(st)->flags & F_SKIPLF) {
        VM_WRITE(st);
        FO(st)->flags &= ~F_SKIPLF;
    }
    return 0;
}

/* read() of a whole regular binary file straight into its bytes object
 * (no intermediate buffer); NULL without an error when this does not apply. */
static Obj read_all_bytes_direct(Obj st)
{
    FileObj *f = FO(st);
    if (f->rpos < f->rlen || f->wlen)
        return NULL;
    int fd = (int)f->fd;
    struct stat sb;
    if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode))
        return NULL;
    off_t pos = lseek(fd, 0, SEEK_CUR);
    if (pos < 0 || sb.st_size - pos < 65536)
        return NULL;   /* small: the general path is as good */
    size_t want = (size_t)(sb.st_size - pos);
    if (TM_STM)
        return NULL;   /* the read would write a GC object between two transactions */
    /* Large: allocated outside the nursery, so it does not move while the
     * read runs (issue 5: the STM build must read into C memory instead). */
    Obj *r = vm_roots(1);   /* a young object outside the nursery dies unrooted */
    r[0] = bytes_alloc((int64_t)want);
    if (!r[0]) {
        vm_unroots(r);
        return NULL;
    }
    size_t got = 0;
    while (got < want) {
        char *p = (char *)VM_LINEAR(((BytesObj *)r[0])->data);
        ssize_t n = vm_blocking_read(fd, p + got, want - got);
        if (n < 0) {
            vm_unroots(r);
            return errno == EINTR ? NULL : err_from_errno(errno, NULL);
        }
        if (n == 0)
            break;
        got += (size_t)n;
    }
    if (got == want) {
        /* the file did not grow meanwhile? */
        char probe;
        ssize_t more = vm_blocking_read(fd, &probe, 1);
        Obj res = r[0];
        vm_unroots(r);
        if (more < 0 && errno == EINTR)
            return NULL;   /* a signal handler raised */
        if (more <= 0)
            return res;
        lseek(fd, -1, SEEK_CUR);
    } else {
        vm_unroots(r);
    }
    /* the file changed size: start over with the general path */
    lseek(fd, pos, SEEK_SET);
    return NULL;
}

/* Read n bytes (binary) or up to n characters (text). */
static int read_n_unlocked(Obj st, StrBuf *out, int64_t n, bool text)
{
    int64_t got = 0;
    while (got < n) {
        if (text && skip_lf(st) < 0)
            return -1;
        int rc = fill(st);
        if (rc < 0)
            return -1;
        if (rc == 0)
            break;
        FileObj *f = FO(st);
        const unsigned char *p = rdata(st) + f->rpos;
        size_t avail = (size_t)(f->rlen - f->rpos);
        if (!text) {
            size_t take = avail < (size_t)(n - got) ? avail : (size_t)(n - got);
            sb_add(out, (const char *)p, take);
            VM_WRITE(st);
            f->rpos += (int64_t)take;
            got += (int64_t)take;
            continue;
        }
        /* text: one character at a time (lead byte + continuation bytes) */
        size_t i = 0;
        while (i < avail && got < n) {
            size_t len = (size_t)utf8_lead_len(p[i]);
            if ((p[i] & 0xc0) == 0x80 || p[i] >= 0xf8)
                len = 1;
            if (i + len > avail) {
                if (i == 0) {
                    /* a split character: gather it byte by byte */
                    char c[4];
                    size_t k = 0;
                    while (k < len) {
                        int rr = fill(st);
                        if (rr < 0)
                            return -1;
                        if (rr == 0)
                            break;
                        c[k++] = (char)rdata(st)[FO(st)->rpos];
                        VM_WRITE(st);
                        FO(st)->rpos++;
                    }
                    sb_add(out, c, k);
                    got++;
                    goto next_chunk;
                }
                break;
            }
            if (p[i] == '\r' && (f->flags & F_TRANSLATE)) {
                sb_addc(out, '\n');
                if (i + 1 < avail) {
                    if (p[i + 1] == '\n')
                        i++;
                } else {
                    VM_WRITE(st);
                    f->flags |= F_SKIPLF;
                }
            } else {
                sb_add(out, (const char *)p + i, len);
            }
            i += len;
            got++;
        }
        VM_WRITE(st);
        f->rpos += (int64_t)i;
    next_chunk:;
    }
    return 0;
}

/* One line into out: up to and including the line end; limit < 0: none. */
static int read_line_unlocked(Obj st, StrBuf *out, int64_t limit, bool text)
{
    bool any = text && (FO(st)->flags & (F_TRANSLATE | F_NL_ANY));
    int64_t got = 0;   /* characters (text) or bytes */
    for (;;) {
        if (text && skip_lf(st) < 0)
            return -1;
        int rc = fill(st);
        if (rc < 0)
            return -1;
        if (rc == 0)
            return 0;
        FileObj *f = FO(st);
        const unsigned char *p = rdata(st) + f->rpos;
        size_t avail = (size_t)(f->rlen - f->rpos);
        size_t end = avail;    /* bytes to take */
        int found = 0;         /* 1: \n, 2: \r */
        if (!any) {
            const unsigned char *nl = memchr(p, '\n', avail);
            if (nl) {
                end = (size_t)(nl - p) + 1;
                found = 1;
            }
        } else {
            for (size_t i = 0; i < avail; i++)
                if (p[i] == '\n' || p[i] == '\r') {
                    end = i + 1;
                    found = p[i] == '\n' ? 1 : 2;
                    break;
                }
        }
        if (limit >= 0) {
            /* cut at `limit` characters (not inside a UTF-8 sequence) */
            size_t i = 0;
            while (i < end && got < limit) {
                size_t len = text ? (size_t)utf8_lead_len(p[i]) : 1;
                if (text && ((p[i] & 0xc0) == 0x80 || p[i] >= 0xf8))
                    len = 1;
                i += len;
                got++;
            }
            if (i > end)
                i = end;
            if (i < end) {
                end = i;
                found = 0;
                if (end == 0) {
                    return 0;
                }
                sb_add(out, (const char *)p, end);
                VM_WRITE(st);
                f->rpos += (int64_t)end;
                return 0;
            }
        }
        if (found == 2) {
            /* \r: translated (or kept, newline='') and a following \n joins it */
            if (f->flags & F_TRANSLATE) {
                sb_add(out, (const char *)p, end - 1);
                sb_addc(out, '\n');
            } else {
                sb_add(out, (const char *)p, end);
            }
            VM_WRITE(st);
            f->rpos += (int64_t)end;
            if (f->rpos < f->rlen) {
                if (rdata(st)[f->rpos] == '\n') {
                    f->rpos++;
                    if (!(f->flags & F_TRANSLATE))
                        sb_addc(out, '\n');
                }
            } else if (f->flags & F_TRANSLATE) {
                f->flags |= F_SKIPLF;
            } else {
                /* newline='': peek for the \n of a \r\n split by the buffer */
                int rr = fill(st);
                if (rr < 0)
                    return -1;
                if (rr > 0 && rdata(st)[FO(st)->rpos] == '\n') {
                    VM_WRITE(st);
                    FO(st)->rpos++;
                    sb_addc(out, '\n');
                }
            }
            return 0;
        }
        sb_add(out, (const char *)p, end);
        VM_WRITE(st);
        f->rpos += (int64_t)end;
        if (found)
            return 0;
    }
}

/* The next line when it lies whole in the read buffer and needs no newline
 * translation (the common case of `for line in f`); NULL without an error
 * when the general path must run. */
static Obj fast_line(Obj st, bool text)
{
    FileObj *f = FO(st);
    if ((f->flags & F_SKIPLF) || f->rpos >= f->rlen)
        return NULL;
    const unsigned char *p = rdata(st) + f->rpos;
    size_t avail = (size_t)(f->rlen - f->rpos);
    const unsigned char *nl = memchr(p, '\n', avail);
    if (!nl)
        return NULL;
    size_t len = (size_t)(nl - p) + 1;
    if (text) {
        if ((f->flags & (F_TRANSLATE | F_NL_ANY)) && memchr(p, '\r', len))
            return NULL;
        if (utf8_valid_prefix((const char *)p, len) != len)
            return NULL;   /* the general path raises the error */
    }
    VM_WRITE(st);
    f->rpos += (int64_t)len;
    /* p points into the pinned read buffer: str_new copies it out first */
    return text ? str_new((const char *)p, len) : bytes_new((const char *)p, len);
}

/* Turn collected bytes into the result object (st: the file, whose errors
 * handler decodes text that is not UTF-8). */
static Obj finish(Obj st, StrBuf *b, bool text)
{
    if (b->cap == SIZE_MAX) {   /* a StrBuf that ran out of memory */
        sb_free(b);
        return err_nomemory();
    }
    if (!text) {
        Obj res = bytes_new(b->p ? b->p : "", b->len);
        sb_free(b);
        return res;
    }
    size_t ok = utf8_valid_prefix(b->p ? b->p : "", b->len);
    if (ok != b->len) {
        if ((FO(st)->flags & F_ERR_MASK) == 0) {
            err_decode((const unsigned char *)b->p, b->len, ok);
            sb_free(b);
            return NULL;
        }
        Obj *r = vm_roots(1);
        r[0] = bytes_new(b->p, b->len);
        sb_free(b);
        Obj res = r[0] ? bytes_decode(r[0], "utf-8", err_name(st)) : NULL;
        vm_unroots(r);
        return res;
    }
    if (b->len == 0) {
        sb_free(b);
        return g_empty_str;
    }
    return sb_finish(b);
}

/* ------------------------------------------------------------------ */
/* Checks shared by the methods                                        */
/* ------------------------------------------------------------------ */

static Obj check_file(Obj self, const char *meth)
{
    if (TID(self) != TID_FILE) {
        err_format(E_TypeError, "descriptor '%s' requires a file object but received '%s'", meth, type_name(self));
        return NULL;
    }
    Obj st = fstate(self);
    if (FO(st)->flags & F_CLOSED)
        return err_closed();
    return st;
}

static Obj check_readable(Obj self, const char *meth)
{
    Obj st = check_file(self, meth);
    if (st && !(FO(st)->flags & F_READ))
        return err_unsupported("not readable");
    return st;
}

static Obj check_writable(Obj self, const char *meth)
{
    Obj st = check_file(self, meth);
    if (st && !(FO(st)->flags & F_WRITE))
        return err_unsupported("not writable");
    return st;
}

static inline bool is_text(Obj self) { return !(FO(self)->flags & F_BINARY); }

/* An optional size argument: None or an int (-1: all). */
static int size_arg(Obj v, int64_t *out)
{
    if (!v || IS_NONE(v)) {
        *out = -1;
        return 0;
    }
    if (!IS_INT(vm_unwrap(v))) {
        err_format(E_TypeError, "argument should be integer or None, not '%s'", type_name(v));
        return -1;
    }
    return vm_index_i64(v, out);
}

/* ------------------------------------------------------------------ */
/* Public C API                                                        */
/* ------------------------------------------------------------------ */

int file_write_cstr(Obj file, const char *s, size_t n)
{
    if (TID(file) == TID_FILE) {
        Obj st = check_writable(file, "write");
        if (!st)
            return -1;
        /* lone surrogates in text go through the errors handler (below) */
        if (likely(!utf8_has_surrogate(s, n)) || (FO(file)->flags & F_BINARY))
            return write_bytes(st, s, n, memchr(s, '\n', n) != NULL);
    }
    Obj *r = vm_roots(1);
    r[0] = file;
    Obj str = str_new(s, n);
    int rc = -1;
    if (str)
        rc = file_write_str(r[0], str);
    vm_unroots(r);
    return rc;
}

int file_write_str(Obj file, Obj s)
{
    if (likely(TID(file) == TID_FILE && !(FO(file)->flags & F_BINARY))) {
        Obj st = check_writable(file, "write");
        if (!st)
            return -1;
        if (!IS_STR(s)) {
            s = vm_unwrap(s);
            if (!IS_STR(s)) {
                err_format(E_TypeError, "write() argument must be str, not %s", type_name(s));
                return -1;
            }
        }
        return write_text(st, s);
    }
    Obj *r = vm_roots(1);
    r[0] = s;
    Obj res = vm_call_method(file, "write", r, 1);
    vm_unroots(r);
    return res ? 0 : -1;
}

int file_flush(Obj file)
{
    if (TID(file) == TID_FILE) {
        Obj st = fstate(file);
        if (FO(st)->flags & F_CLOSED) {
            err_closed();
            return -1;
        }
        return flush_state(st);
    }
    Obj res = vm_call_method(file, "flush", NULL, 0);
    return res ? 0 : -1;
}

/* Each read runs whole under the file's monitor (re-entrant; fill() takes
 * it too): a line or a read(n) is never split between threads whose reads
 * interleave while one waits for data. */
static int read_all_raw(Obj st, StrBuf *out, bool text)
{
    tm_monitor_enter((object_t *)st);
    int rc = read_all_raw_unlocked(st, out, text);
    tm_monitor_exit((object_t *)st);
    return rc;
}

static int read_n(Obj st, StrBuf *out, int64_t n, bool text)
{
    tm_monitor_enter((object_t *)st);
    int rc = read_n_unlocked(st, out, n, text);
    tm_monitor_exit((object_t *)st);
    return rc;
}

static int read_line(Obj st, StrBuf *out, int64_t limit, bool text)
{
    tm_monitor_enter((object_t *)st);
    int rc = read_line_unlocked(st, out, limit, text);
    tm_monitor_exit((object_t *)st);
    return rc;
}

Obj file_readline(Obj file)
{
    if (TID(file) == TID_FILE) {
        Obj *r = vm_roots(1);
        r[0] = file;
        Obj st = check_readable(file, "readline");
        Obj res = st ? fast_line(st, is_text(file)) : NULL;
        if (st && !res && !err_occurred()) {
            StrBuf b;
            sb_init(&b);
            if (read_line(st, &b, -1, is_text(r[0])) < 0)
                sb_free(&b);
            else
                res = finish(st, &b, is_text(r[0]));
        }
        vm_unroots(r);
        return res;
    }
    return vm_call_method(file, "readline", NULL, 0);
}

int file_flush_all_at_exit(void)
{
    int rc = 0;
    Obj out = sys_get("stdout");
    if (out && !IS_NONE(out)) {
        if (TID(out) == TID_FILE && (FO(fstate(out))->flags & F_CLOSED))
            ;
        else if (file_flush(out) < 0) {
            err_clear();
            rc = -1;
        }
    }
    if (g_sys_stdout && TID(g_sys_stdout) == TID_FILE && !(FO(g_sys_stdout)->flags & F_CLOSED)) {
        if (flush_state(g_sys_stdout) < 0) {
            err_clear();
            rc = -1;
        }
    }
    Obj err = sys_get("stderr");
    if (err && !IS_NONE(err) && !(TID(err) == TID_FILE && (FO(fstate(err))->flags & F_CLOSED)))
        if (file_flush(err) < 0)
            err_clear();
    if (g_sys_stderr && TID(g_sys_stderr) == TID_FILE && !(FO(g_sys_stderr)->flags & F_CLOSED))
        if (flush_state(g_sys_stderr) < 0)
            err_clear();
    if (g_open_files) {
        for (int64_t i = 0; i < LIST_LEN(g_open_files); i++) {
            Obj f = weakref_referent(LIST_ITEMS(g_open_files)[i]);
            if (f && TID(f) == TID_FILE && !(FO(f)->flags & F_CLOSED) && FO(f)->wlen)
                if (flush_state(f) < 0)
                    err_clear();
        }
    }
    return rc;
}

/* ------------------------------------------------------------------ */
/* Methods                                                             */
/* ------------------------------------------------------------------ */

static Obj m_read(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"self", "size", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    int64_t n;
    if (vm_parse_args("read", args, nargs, kwnames, names, 1, 2, a) < 0 || size_arg(a[1], &n) < 0)
        goto out;
    Obj st = check_readable(a[0], "read");
    if (!st)
        goto out;
    bool text = is_text(a[0]);
    if (n < 0 && !text) {
        res = read_all_bytes_direct(st);
        if (res || err_occurred())
            goto out;
    }
    StrBuf b;
    sb_init(&b);
    int rc = n < 0 ? read_all_raw(st, &b, text) : read_n(st, &b, n, text);
    if (rc < 0) {
        sb_free(&b);
        goto out;
    }
    res = finish(st, &b, text);
out:
    vm_unroots(a);
    return res;
}

static Obj m_readline(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"self", "size", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    int64_t n;
    if (vm_parse_args("readline", args, nargs, kwnames, names, 1, 2, a) < 0 || size_arg(a[1], &n) < 0)
        goto out;
    Obj st = check_readable(a[0], "readline");
    if (!st)
        goto out;
    bool text = is_text(a[0]);
    if (n < 0 && ((res = fast_line(st, text)) || err_occurred()))
        goto out;
    StrBuf b;
    sb_init(&b);
    if (read_line(st, &b, n, text) < 0) {
        sb_free(&b);
        goto out;
    }
    res = finish(st, &b, text);
out:
    vm_unroots(a);
    return res;
}

static Obj m_readlines(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"self", "hint", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    int64_t hint;
    if (vm_parse_args("readlines", args, nargs, kwnames, names, 1, 2, a) < 0 || size_arg(a[1], &hint) < 0)
        goto out;
    if (!check_readable(a[0], "readlines"))
        goto out;
    a[2] = list_new_capacity(8);
    if (!a[2])
        goto out;
    bool text = is_text(a[0]);
    int64_t total = 0;
    for (;;) {
        Obj st = check_readable(a[0], "readlines");
        if (!st)
            goto out;
        StrBuf b;
        sb_init(&b);
        if (read_line(st, &b, -1, text) < 0) {
            sb_free(&b);
            goto out;
        }
        if (b.len == 0) {
            sb_free(&b);
            break;
        }
        total += (int64_t)b.len;
        a[3] = finish(st, &b, text);
        if (!a[3] || list_append(a[2], a[3]) < 0)
            goto out;
        if (hint > 0 && total >= hint)
            break;
    }
    res = a[2];
out:
    vm_unroots(a);
    return res;
}

static Obj m_write(Obj *args, size_t nargs, Obj kwnames)
{
    Obj self = args[0];
    Obj st = check_writable(self, "write");
    if (!st)
        return NULL;
    Obj v = args[1];
    if (is_text(self)) {
        Obj s = vm_unwrap(v);
        if (!IS_STR(s)) {
            err_format(E_TypeError, "write() argument must be str, not %s", type_name(v));
            return NULL;
        }
        if (write_text(st, s) < 0)
            return NULL;
        return int_from_i64(str_len(s));
    }
    const char *p;
    int64_t n;
    if (!bytes_like_arg(v, &p, &n))
        return NULL;
    if (write_bytes(st, p, (size_t)n, (FO(st)->flags & F_LINEBUF) && memchr(p, '\n', (size_t)n)) < 0)
        return NULL;
    return int_from_i64(n);
}

static Obj m_writelines(Obj *args, size_t nargs, Obj kwnames)
{
    if (!check_writable(args[0], "writelines"))
        return NULL;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = vm_iter(args[1]);
    if (!r[0])
        goto out;
    for (;;) {
        r[1] = vm_next(r[0]);
        if (!r[1]) {
            if (err_occurred())
                goto out;
            break;
        }
        Obj *w = vm_roots(2);
        w[0] = args[0];
        w[1] = r[1];
        Obj rc = m_write(w, 2, NULL);
        vm_unroots(w);
        if (!rc)
            goto out;
    }
    res = g_None;
out:
    vm_unroots(r);
    return res;
}

static int close_file(Obj self)
{
    Obj st = fstate(self);
    FileObj *f = FO(st);
    if (f->flags & F_CLOSED)
        return 0;
    /* closing the descriptor cannot be undone: an abort after close() would
     * close it again (EBADF, or another file that reused the number) */
    vm_tx_become_inevitable();
    st = fstate(self);
    f = FO(st);
    if (f->flags & F_CLOSED)
        return 0;
    Obj *r = vm_roots(1);
    r[0] = st;
    int rc = flush_state(st);   /* raising allocates: st is read again */
    st = r[0];
    vm_unroots(r);
    f = FO(st);
    VM_WRITE(st);
    f->flags |= F_CLOSED;
    if (f->wbuf) {
        free(f->wbuf);
        f->wbuf = NULL;
        f->wcap = f->wlen = 0;
    }
    f->rpos = f->rlen = 0;
    unregister_open_file(st);
    if (FO(st)->flags & F_CLOSEFD) {
        if (close((int)FO(st)->fd) < 0 && rc == 0) {
            err_from_errno(errno, NULL);
            rc = -1;
        }
    }
    return rc;
}

int file_finalize(Obj f)
{
    return close_file(f);
}

static Obj m_close(Obj *args, size_t nargs, Obj kwnames)
{
    if (TID(args[0]) != TID_FILE)
        return check_file(args[0], "close");
    return close_file(args[0]) < 0 ? NULL : g_None;
}

static Obj m_flush(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = check_file(args[0], "flush");
    if (!st)
        return NULL;
    return flush_state(st) < 0 ? NULL : g_None;
}

static Obj m_fileno(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = check_file(args[0], "fileno");
    return st ? MAKE_SMALLINT(FO(st)->fd) : NULL;
}

static Obj m_isatty(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = check_file(args[0], "isatty");
    return st ? vm_bool(isatty((int)FO(st)->fd)) : NULL;
}

static Obj m_readable(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = check_file(args[0], "readable");
    return st ? vm_bool(FO(st)->flags & F_READ) : NULL;
}

static Obj m_writable(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = check_file(args[0], "writable");
    return st ? vm_bool(FO(st)->flags & F_WRITE) : NULL;
}

static Obj m_seekable(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = check_file(args[0], "seekable");
    return st ? vm_bool(lseek((int)FO(st)->fd, 0, SEEK_CUR) >= 0) : NULL;
}

static Obj m_tell(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = check_file(args[0], "tell");
    if (!st || flush_state(st) < 0)
        return NULL;
    off_t pos = lseek((int)FO(st)->fd, 0, SEEK_CUR);
    if (pos < 0)
        return err_from_errno(errno, NULL);
    pos -= (off_t)(FO(st)->rlen - FO(st)->rpos);
    return int_from_i64(pos);
}

static Obj m_seek(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"self", "cookie", "whence", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    int64_t off, whence = 0;
    if (vm_parse_args("seek", args, nargs, kwnames, names, 2, 3, a) < 0)
        goto out;
    if (vm_index_i64(a[1], &off) < 0 || (a[2] && vm_index_i64(a[2], &whence) < 0))
        goto out;
    Obj st = check_file(a[0], "seek");
    if (!st)
        goto out;
    if (whence < 0 || whence > 2) {
        err_format(E_ValueError, "invalid whence (%ld, should be 0, 1 or 2)", (long)whence);
        goto out;
    }
    if (is_text(a[0])) {
        if (whence == 1 && off != 0) {
            err_unsupported("can't do nonzero cur-relative seeks");
            goto out;
        }
        if (whence == 2 && off != 0) {
            err_unsupported("can't do nonzero end-relative seeks");
            goto out;
        }
        if (whence == 0 && off < 0) {
            err_format(E_ValueError, "negative seek position %ld", (long)off);
            goto out;
        }
    }
    if (flush_state(st) < 0)
        goto out;
    if (whence == 1)
        off -= FO(st)->rlen - FO(st)->rpos;
    VM_WRITE(st);
    FO(st)->rpos = FO(st)->rlen = 0;
    FO(st)->flags &= ~F_SKIPLF;
    off_t pos = lseek((int)FO(st)->fd, (off_t)off, (int)whence);
    if (pos < 0) {
        err_from_errno(errno, NULL);
        goto out;
    }
    res = int_from_i64(pos);
out:
    vm_unroots(a);
    return res;
}

static Obj m_truncate(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"self", "size", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    int64_t size;
    if (vm_parse_args("truncate", args, nargs, kwnames, names, 1, 2, a) < 0 || size_arg(a[1], &size) < 0)
        goto out;
    Obj st = check_writable(a[0], "truncate");
    if (!st || flush_state(st) < 0)
        goto out;
    if (size < 0) {
        off_t pos = lseek((int)FO(st)->fd, 0, SEEK_CUR);
        size = pos - (FO(st)->rlen - FO(st)->rpos);
    }
    if (ftruncate((int)FO(st)->fd, (off_t)size) < 0) {
        err_from_errno(errno, NULL);
        goto out;
    }
    res = int_from_i64(size);
out:
    vm_unroots(a);
    return res;
}

static Obj m_enter(Obj *args, size_t nargs, Obj kwnames)
{
    if (!check_file(args[0], "__enter__"))
        return NULL;
    return args[0];
}

static Obj m_exit(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs < 1 || TID(args[0]) != TID_FILE)
        return check_file(nargs ? args[0] : g_None, "__exit__");
    return close_file(args[0]) < 0 ? NULL : g_None;
}

static Obj m_iter_method(Obj *args, size_t nargs, Obj kwnames)
{
    return check_file(args[0], "__iter__") ? args[0] : NULL;
}

static Obj file_iter(Obj self)
{
    return check_file(self, "__iter__") ? self : NULL;
}

static Obj file_iternext(Obj self)
{
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj st = check_readable(self, "__next__");
    Obj res = NULL;
    if (st && (res = fast_line(st, is_text(self))) != NULL) {
        vm_unroots(r);
        return res;
    }
    if (st && !err_occurred()) {
        StrBuf b;
        sb_init(&b);
        if (read_line(st, &b, -1, is_text(r[0])) < 0) {
            sb_free(&b);
        } else if (b.len == 0) {
            sb_free(&b);   /* end: NULL without an error */
        } else {
            res = finish(st, &b, is_text(r[0]));
        }
    }
    vm_unroots(r);
    return res;
}

static Obj file_repr(Obj self)
{
    FileObj *f = FO(self);
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = self;
    if (f->flags & F_VIEW) {
        r[1] = vm_repr(FO(fstate(self))->name);
        if (r[1])
            res = str_from_format("<_io.BufferedWriter name=%s>", str_cstr(r[1]));
        vm_unroots(r);
        return res;
    }
    r[1] = vm_repr(f->name);
    if (!r[1])
        goto out;
    if (FO(r[0])->flags & F_BINARY) {
        int64_t fl = FO(r[0])->flags;
        const char *kind = (fl & F_READ) && (fl & F_WRITE) ? "BufferedRandom"
                         : (fl & F_READ) ? "BufferedReader" : "BufferedWriter";
        res = str_from_format("<_io.%s name=%s>", kind, str_cstr(r[1]));
        goto out;
    }
    r[2] = vm_repr(FO(r[0])->mode);
    if (!r[2])
        goto out;
    Obj enc = vm_repr(FO(r[0])->encoding);
    if (!enc)
        goto out;
    res = str_from_format("<_io.TextIOWrapper name=%s mode=%s encoding=%s>", str_cstr(r[1]),
                          str_cstr(r[2]), str_cstr(enc));
out:
    vm_unroots(r);
    return res;
}

/* ---- attributes ---- */

static Obj g_closed(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs; (void)kwnames;
    return vm_bool(FO(fstate(args[0]))->flags & F_CLOSED);
}

static Obj g_name(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs; (void)kwnames;
    return FO(fstate(args[0]))->name;
}

static Obj g_mode(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs; (void)kwnames;
    Obj self = args[0];
    if (FO(self)->flags & F_VIEW) {
        int64_t fl = FO(fstate(self))->flags;
        return str_from_cstr((fl & F_READ) && (fl & F_WRITE) ? "rb+" : (fl & F_READ) ? "rb" : "wb");
    }
    return FO(self)->mode;
}

static Obj g_encoding(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs; (void)kwnames;
    Obj self = args[0];
    if (FO(self)->flags & F_BINARY) {
        err_format(E_AttributeError, "'_io.BufferedReader' object has no attribute 'encoding'");
        return NULL;
    }
    return FO(self)->encoding;
}

static Obj g_errors(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs; (void)kwnames;
    return str_from_cstr(err_name(args[0]));
}

static Obj g_newlines(Obj *args, size_t nargs, Obj kwnames)
{
    (void)args; (void)nargs; (void)kwnames;
    return g_None;
}

static Obj g_line_buffering(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs; (void)kwnames;
    return vm_bool(FO(fstate(args[0]))->flags & F_LINEBUF);
}

static Obj g_buffer(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs; (void)kwnames;
    Obj self = args[0];
    if (FO(self)->flags & F_BINARY) {
        err_set(E_AttributeError, "'_io.BufferedReader' object has no attribute 'buffer'");
        return NULL;
    }
    if (self == g_sys_stdout && g_stdout_view)
        return g_stdout_view;
    if (self == g_sys_stdin && g_stdin_view)
        return g_stdin_view;
    vm_tx_become_inevitable();   /* a C global root is written only by an inevitable transaction */
    if (self == g_sys_stdout && g_stdout_view)   /* made by another thread while we waited */
        return g_stdout_view;
    if (self == g_sys_stdin && g_stdin_view)
        return g_stdin_view;
    Obj *r = vm_roots(1);
    r[0] = self;
    int64_t fl = (FO(self)->flags & (F_READ | F_WRITE)) | F_BINARY | F_VIEW;
    Obj v = file_alloc((int)FO(self)->fd, FO(self)->name, FO(self)->mode, fl, self);
    if (v) {
        if (r[0] == g_sys_stdout)
            g_stdout_view = v;
        else if (r[0] == g_sys_stdin)
            g_stdin_view = v;
    }
    vm_unroots(r);
    return v;
}

static const MethodDef file_methods[] = {
    {"read", m_read, METH_KW, NULL},
    {"readline", m_readline, METH_KW, NULL},
    {"readlines", m_readlines, METH_KW, NULL},
    {"write", m_write, METH_O, NULL},
    {"writelines", m_writelines, METH_O, NULL},
    {"close", m_close, METH_NOARGS, NULL},
    {"flush", m_flush, METH_NOARGS, NULL},
    {"fileno", m_fileno, METH_NOARGS, NULL},
    {"isatty", m_isatty, METH_NOARGS, NULL},
    {"readable", m_readable, METH_NOARGS, NULL},
    {"writable", m_writable, METH_NOARGS, NULL},
    {"seekable", m_seekable, METH_NOARGS, NULL},
    {"seek", m_seek, METH_KW, NULL},
    {"tell", m_tell, METH_NOARGS, NULL},
    {"truncate", m_truncate, METH_KW, NULL},
    {"__enter__", m_enter, METH_NOARGS, NULL},
    {"__exit__", m_exit, 0, NULL},
    {"__iter__", m_iter_method, METH_NOARGS | METH_WRAPPER, NULL},
    {NULL, NULL, 0, NULL},
};

void file_init_type(void)
{
    T_file = (TypeObj *)type_new_builtin("_io.TextIOWrapper", T_object, TID_FILE, 0);
    VM_WRITE(T_file);
    T_file->tp_repr = file_repr;
    T_file->tp_iter = file_iter;
    T_file->tp_iternext = file_iternext;
    type_add_methods(T_file, file_methods);
    type_add_getset(T_file, "closed", g_closed, NULL);
    type_add_getset(T_file, "name", g_name, NULL);
    type_add_getset(T_file, "mode", g_mode, NULL);
    type_add_getset(T_file, "encoding", g_encoding, NULL);
    type_add_getset(T_file, "errors", g_errors, NULL);
    type_add_getset(T_file, "newlines", g_newlines, NULL);
    type_add_getset(T_file, "line_buffering", g_line_buffering, NULL);
    type_add_getset(T_file, "buffer", g_buffer, NULL);
    type_ready(T_file);

    VM_GLOBAL_ROOT(g_sys_stdout);
    VM_GLOBAL_ROOT(g_sys_stderr);
    VM_GLOBAL_ROOT(g_sys_stdin);
    VM_GLOBAL_ROOT(g_open_files);
    g_open_files = list_new_capacity(8);   /* at start-up: a global root is written only then */
    if (!g_open_files) {
        fputs("tmpy: fatal: out of memory at start-up\n", stderr);
        exit(1);
    }
    VM_GLOBAL_ROOT(g_unsupported_op);
    VM_GLOBAL_ROOT(g_stdout_view);
    VM_GLOBAL_ROOT(g_stdin_view);
    /* a standard stream whose fd is closed is None, as in CPython */
    bool ok0 = valid_fd(0) && !(file_closed_std_fds & 1);
    bool ok1 = valid_fd(1) && !(file_closed_std_fds & 2);
    bool ok2 = valid_fd(2) && !(file_closed_std_fds & 4);
    g_sys_stdin = ok0 ? file_from_fd(0, "r", "<stdin>") : g_None;
    g_sys_stdout = ok1 ? file_from_fd(1, "w", "<stdout>") : g_None;
    g_sys_stderr = ok2 ? file_from_fd(2, "w", "<stderr>") : g_None;
}
