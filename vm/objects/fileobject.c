/* The file engine under _io's FileIO, BufferedReader/Writer/Random and
 * TextIOWrapper (vm/modules/iomodule.c makes the module): open(),
 * sys.stdin/stdout/stderr.
 *
 * The instances of those classes are ordinary instances (a dict, Python
 * subclasses) whose base_value is a FileObj (tmpy.h) when they sit over a
 * file descriptor. One FileObj per descriptor holds the state (fd, read and
 * write buffers, closed); each layer over it (the FileIO, the buffered
 * object, the text wrapper) has its own FileObj "view" (F_VIEW, `state`
 * pointing to the state) with the flags of its layer: raw, binary or text,
 * the newline mode, the errors handler, line buffering. The layers share
 * one buffer, so print() and sys.stdout.buffer.write() stay in order.
 * Layers over anything else (a BytesIO, a Python object) have no FileObj:
 * their methods run the Python implementation in lib/_iogeneric.py.
 *
 * Reads go through a pinned read buffer (a RawObj allocated old, so a
 * linear pointer into it survives allocations); writes collect in a C
 * buffer flushed when full, at close, at exit, and (stdout) before anything
 * reaches stderr. Text here is UTF-8; reading translates \r\n and \r to \n
 * (universal newlines). */
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
    F_RAW = 1 << 20,        /* a FileIO view: reads and writes go straight to the fd */
    F_WTHROUGH = 1 << 21,   /* TextIOWrapper write_through */
    /* newline kinds read so far (the newlines attribute; newline None or '') */
    F_SEEN_LF = 1 << 22, F_SEEN_CR = 1 << 23, F_SEEN_CRLF = 1 << 24,
    F_SEEN_ALL = F_SEEN_LF | F_SEEN_CR | F_SEEN_CRLF,
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


/* The object holding the state (fd, buffers, closed flag). */
static inline Obj fstate(Obj f)
{
    return (FO(f)->flags & F_VIEW) ? FO(f)->state : f;
}

/* The FileObj of an _io instance (NULL: a layer over a Python object, or
 * not initialized). */
static inline Obj engine_of(Obj self)
{
    if (TID(self) != TID_INSTANCE)
        return NULL;
    Obj b = INST(self)->base_value;
    return b && TID(b) == TID_FILE ? b : NULL;
}

/* The state of sys.stdout when it is over a descriptor. No allocation. */
static Obj stdout_state(void)
{
    Obj out = g_sys_stdout;
    Obj e = out ? engine_of(out) : NULL;
    return e ? fstate(e) : NULL;
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
    fo->state = fo->lower = NULL;
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

/* ------------------------------------------------------------------ */
/* Low-level I/O                                                       */
/* ------------------------------------------------------------------ */

static int flush_raw(Obj st);

/* Before bytes reach fd 1 or 2 from another file object, sys.stdout's
 * pending output goes first. Never allocates (callers hold linear pointers). */
static void flush_stdout_first(Obj st)
{
    Obj out = stdout_state();
    if (out && out != st && FO(out)->wlen > 0)
        (void)flush_raw(out);
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
    int rc = vm_write_all((int)f->fd, p, n) < 0 ? (errno ? errno : EIO) : 0;
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
        if (e != EINTR || !err_occurred())   /* EINTR: a signal handler's exception is set */
            err_from_errno(e, NULL);
        return -1;
    }
    return 0;
}

/* Unread buffered input of a read/write file is given back before writing. */
static int drop_read_buffer(Obj st)
{
    vm_tx_become_inevitable();   /* moves the descriptor's offset (see m_seek) */
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

/* Append bytes to the output of view v's state (v's flags say whether it
 * is line buffered or unbuffered). p may point into a GC object: it is
 * copied to C memory before anything that can block (a flush hands the GIL
 * on, and the object may then move). */
static int write_bytes(Obj v, const char *p, size_t n, bool has_newline)
{
    vm_tx_become_inevitable();   /* the buffer is C memory: no abort may write it twice */
    int64_t vflags = FO(v)->flags;
    Obj st = (vflags & F_VIEW) ? FO(v)->state : v;
    if (vflags & F_RAW)
        vflags |= F_UNBUF;
    FileObj *f = FO(st);
    if (n == 0)
        return 0;
    if (f->rlen > f->rpos)
        drop_read_buffer(st);
    if (!(vflags & F_UNBUF) && (size_t)(f->wcap - f->wlen) >= n) {
        memcpy(f->wbuf + f->wlen, p, n);   /* the common case: room in the buffer */
        VM_WRITE(st);
        f->wlen += (int64_t)n;
        if ((vflags & F_LINEBUF) && has_newline)
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
    while (f->wlen && ((vflags & F_UNBUF) || (size_t)(f->wcap - f->wlen) < n))
        if (flush_state(st) < 0)
            goto out;
    if ((vflags & F_UNBUF) || n >= WBUF_SIZE) {
        if (f->flags & F_STDIO)
            flush_stdout_first(st);
        if (vm_write_all((int)f->fd, copy, n) < 0) {
            if (errno != EINTR || !err_occurred())
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
    rc = (vflags & F_LINEBUF) && has_newline ? flush_state(st) : 0;
out:
    free(copy);
    return rc;
}

/* A str written to text file st: its UTF-8 as it is, or, when it holds lone
 * surrogates, encoded with the file's errors handler (strict: UnicodeEncodeError). */
static int write_text(Obj v, Obj s)
{
    size_t n = (size_t)STR(s)->nbytes;
    const char *p = str_cstr(s);
    if (likely(!utf8_has_surrogate(p, n)))
        return write_bytes(v, p, n, (FO(v)->flags & F_LINEBUF) && memchr(p, '\n', n));
    Obj *r = vm_roots(1);
    r[0] = str_encode(s, "utf-8", err_name(v));
    int rc = -1;
    if (r[0]) {
        n = (size_t)BYTES(r[0])->length;
        p = (const char *)VM_LINEAR(BYTES(r[0])->data);
        rc = write_bytes(v, p, n, (FO(v)->flags & F_LINEBUF) && memchr(p, '\n', n));
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
    if (f->fd == 0 && stdout_state() && FO(stdout_state())->wlen)
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

/* Record the kinds of newline in p[0..n) read by text view v. */
static void note_newlines(Obj v, const unsigned char *p, size_t n)
{
    int64_t fl = FO(v)->flags;
    if (!(fl & (F_TRANSLATE | F_NL_ANY)) || (fl & F_SEEN_ALL) == F_SEEN_ALL)
        return;
    int64_t seen = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\n') {
            seen |= F_SEEN_LF;
        } else if (p[i] == '\r') {
            if (i + 1 < n && p[i + 1] == '\n') {
                seen |= F_SEEN_CRLF;
                i++;
            } else {
                seen |= F_SEEN_CR;
            }
        }
    }
    if (seen & ~fl) {
        VM_WRITE(v);
        FO(v)->flags |= seen;
    }
}

static void note_newline(Obj v, int64_t kind)
{
    if ((FO(v)->flags & (F_TRANSLATE | F_NL_ANY)) && !(FO(v)->flags & kind)) {
        VM_WRITE(v);
        FO(v)->flags |= kind;
    }
}

/* Consume a pending \n after a translated \r. 0 ok, -1 error. */
static int skip_lf(Obj v)
{
    if (!(FO(v)->flags & F_SKIPLF))
        return 0;
    Obj st = fstate(v);
    int rc = fill(st);
    if (rc < 0)
        return -1;
    VM_WRITE(v);
    FO(v)->flags &= ~F_SKIPLF;
    if (rc > 0 && rdata(st)[FO(st)->rpos] == '\n') {
        VM_WRITE(st);
        FO(st)->rpos++;
        note_newline(v, F_SEEN_CRLF);
    } else {
        note_newline(v, F_SEEN_CR);
    }
    return 0;
}

/* Copy text bytes into out, translating \r\n and \r to \n when asked.
 * Returns the bytes consumed from p. A \r at the very end sets SKIPLF. */
static void add_translated(Obj v, StrBuf *out, const unsigned char *p, size_t n)
{
    Obj st = fstate(v);
    note_newlines(v, p, n && p[n - 1] == '\r' ? n - 1 : n);
    if (!(FO(v)->flags & F_TRANSLATE)) {
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
            VM_WRITE(v);
            FO(v)->flags |= F_SKIPLF;
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
static int read_all_raw_unlocked(Obj v, StrBuf *out, bool text)
{
    Obj st = fstate(v);
    FileObj *f = FO(st);
    if (text && skip_lf(v) < 0)
        return -1;
    if (f->rpos < f->rlen) {
        if (text)
            add_translated(v, out, rdata(st) + f->rpos, (size_t)(f->rlen - f->rpos));
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
    if (text)
        note_newlines(v, (const unsigned char *)out->p + start, out->len - start);
    if (text && (FO(v)->flags & F_TRANSLATE)) {
        if ((FO(v)->flags & F_SKIPLF) && out->len > start && out->p[start] == '\n') {
            memmove(out->p + start, out->p + start + 1, out->len - start - 1);
            out->len--;
        }
        out->len = start + translate_in_place(out->p + start, out->len - start);
    }
    if (FO(v)->flags & F_SKIPLF) {
        VM_WRITE(st);
        VM_WRITE(v);
        FO(v)->flags &= ~F_SKIPLF;
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
    /* STM: a blocking call commits first, and the read would then write a
     * committed object outside any transaction; reading into C memory and
     * copying held the file twice (a 200 MB read peaked at 600 MB). A
     * regular file's read does not wait for another thread, so it runs in
     * the transaction that allocates the object (inevitable: it cannot be
     * undone), in pieces with a safe point between them, so that other
     * threads' commits wait for one piece at most. */
    if (TM_STM)
        vm_tx_become_inevitable();   /* first: it may abort */
    /* Large: allocated outside the nursery, so it does not move while the
     * read runs. */
    Obj *r = vm_roots(1);   /* a young object outside the nursery dies unrooted */
    r[0] = bytes_alloc((int64_t)want);
    if (!r[0]) {
        vm_unroots(r);
        return NULL;
    }
    size_t got = 0;
    while (got < want) {
        char *p = (char *)VM_LINEAR(((BytesObj *)r[0])->data);
#if TM_STM
        size_t piece = want - got < (4u << 20) ? want - got : (4u << 20);
        ssize_t n;
        do
            n = read(fd, p + got, piece);
        while (n < 0 && errno == EINTR);
        int e = errno;
        tm_safepoint();   /* a committer may be waiting (the object does not move) */
        errno = e;
#else
        ssize_t n = vm_blocking_read(fd, p + got, want - got);
#endif
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
static int read_n_unlocked(Obj v, StrBuf *out, int64_t n, bool text)
{
    Obj st = fstate(v);
    int64_t got = 0;
    while (got < n) {
        if (text && skip_lf(v) < 0)
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
            if (p[i] == '\r' && (FO(v)->flags & F_TRANSLATE)) {
                sb_addc(out, '\n');
                if (i + 1 < avail) {
                    if (p[i + 1] == '\n')
                        i++;
                } else {
                    VM_WRITE(st);
                    VM_WRITE(v);
                FO(v)->flags |= F_SKIPLF;
                }
            } else {
                sb_add(out, (const char *)p + i, len);
            }
            i += len;
            got++;
        }
        note_newlines(v, p, i && p[i - 1] == '\r' && (FO(v)->flags & F_SKIPLF) ? i - 1 : i);
        VM_WRITE(st);
        f->rpos += (int64_t)i;
    next_chunk:;
    }
    return 0;
}

/* One line into out: up to and including the line end; limit < 0: none. */
static int read_line_unlocked(Obj v, StrBuf *out, int64_t limit, bool text)
{
    Obj st = fstate(v);
    bool any = text && (FO(v)->flags & (F_TRANSLATE | F_NL_ANY));
    int64_t got = 0;   /* characters (text) or bytes */
    for (;;) {
        if (text && skip_lf(v) < 0)
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
        if (text)
            note_newlines(v, p, found == 2 ? end - 1 : end);
        if (found == 2) {
            /* \r: translated (or kept, newline='') and a following \n joins it */
            bool crlf = false;
            if (FO(v)->flags & F_TRANSLATE) {
                sb_add(out, (const char *)p, end - 1);
                sb_addc(out, '\n');
            } else {
                sb_add(out, (const char *)p, end);
            }
            VM_WRITE(st);
            f->rpos += (int64_t)end;
            /* newline='': the \n of \r\n is a character of its own, within the limit */
            bool room = limit < 0 || got < limit || (FO(v)->flags & F_TRANSLATE);
            if (!room) {
                note_newline(v, F_SEEN_CR);
            } else if (f->rpos < f->rlen) {
                if (rdata(st)[f->rpos] == '\n') {
                    f->rpos++;
                    crlf = true;
                    if (!(FO(v)->flags & F_TRANSLATE))
                        sb_addc(out, '\n');
                }
                note_newline(v, crlf ? F_SEEN_CRLF : F_SEEN_CR);
            } else if (FO(v)->flags & F_TRANSLATE) {
                VM_WRITE(v);
                FO(v)->flags |= F_SKIPLF;   /* skip_lf() notes the kind */
            } else {
                /* newline='': peek for the \n of a \r\n split by the buffer */
                int rr = fill(st);
                if (rr < 0)
                    return -1;
                if (rr > 0 && rdata(st)[FO(st)->rpos] == '\n') {
                    VM_WRITE(st);
                    FO(st)->rpos++;
                    sb_addc(out, '\n');
                    crlf = true;
                }
                note_newline(v, crlf ? F_SEEN_CRLF : F_SEEN_CR);
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

/* Code points in valid UTF-8: the bytes that are not continuation bytes
 * (10xxxxxx), a word at a time. */
static int64_t utf8_count_cps(const unsigned char *p, size_t n)
{
    size_t cont = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        uint64_t m = w & ~(w << 1) & 0x8080808080808080ull;
        if (m)
            cont += (size_t)__builtin_popcountll(m);
    }
    for (; i < n; i++)
        cont += (p[i] & 0xc0) == 0x80;
    return (int64_t)(n - cont);
}

/* The next line when it lies whole in the read buffer and needs no newline
 * translation (the common case of `for line in f`); NULL without an error
 * when the general path must run. */
static Obj fast_line_in(Obj v, Obj st, int64_t vf)
{
    bool text = !(vf & F_BINARY);
    FileObj *f = FO(st);
    if ((vf & F_SKIPLF) || f->rpos >= f->rlen)
        return NULL;
    const unsigned char *p = rdata(st) + f->rpos;
    size_t avail = (size_t)(f->rlen - f->rpos);
    const unsigned char *nl = memchr(p, '\n', avail);
    if (!nl)
        return NULL;
    size_t len = (size_t)(nl - p) + 1;
    if (text) {
        if (vf & (F_TRANSLATE | F_NL_ANY)) {
            if (memchr(p, '\r', len))
                return NULL;
            if (unlikely(!(vf & F_SEEN_LF))) {
                VM_WRITE(v);
                FO(v)->flags |= F_SEEN_LF;
            }
        }
        if (utf8_valid_prefix((const char *)p, len) != len)
            return NULL;   /* the general path raises the error */
    }
    VM_WRITE(st);
    f->rpos += (int64_t)len;
    if (text && len > 1) {
        /* validated above: the str is made without a second scan (p points
         * into the pinned read buffer, which the allocation does not move) */
        Obj res = str_alloc((int64_t)len, utf8_count_cps(p, len));
        if (res)
            memcpy(VM_LINEAR(STR(res)->data), p, len);
        return res;
    }
    return text ? str_new((const char *)p, len) : bytes_new((const char *)p, len);
}

static Obj fast_line(Obj v)
{
    int64_t vf = FO(v)->flags;
    return fast_line_in(v, (vf & F_VIEW) ? FO(v)->state : v, vf);
}

/* The view of a layer of the classes themselves (not a subclass) that is
 * open and readable, and its state and flags; NULL when the general path
 * must run (which raises the errors). */
static inline Obj readable_view(Obj self, Obj *st_out, int64_t *vf_out)
{
    TypeObj *t = TYPE(self);
    if (t != T_TextIOWrapper && t != T_BufferedReader && t != T_BufferedRandom)
        return NULL;
    Obj v = INST(self)->base_value;
    if (unlikely(!v || TID(v) != TID_FILE))
        return NULL;
    int64_t vf = FO(v)->flags;
    Obj st = (vf & F_VIEW) ? FO(v)->state : v;
    if (unlikely((FO(st)->flags & F_CLOSED) || !(vf & F_READ)))
        return NULL;
    *st_out = st;
    *vf_out = vf;
    return v;
}

/* Turn collected bytes into the result object (st: the file, whose errors
 * handler decodes text that is not UTF-8). */
static Obj finish(Obj v, StrBuf *b, bool text)
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
        if ((FO(v)->flags & F_ERR_MASK) == 0) {
            err_decode((const unsigned char *)b->p, b->len, ok);
            sb_free(b);
            return NULL;
        }
        Obj *r = vm_roots(1);
        r[0] = bytes_new(b->p, b->len);
        sb_free(b);
        Obj res = r[0] ? bytes_decode(r[0], "utf-8", err_name(v)) : NULL;
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
/* The classes, and the layers over a Python object                    */
/* ------------------------------------------------------------------ */

TypeObj *T_IOBase, *T_RawIOBase, *T_BufferedIOBase, *T_TextIOBase, *T_FileIO, *T_BufferedReader,
    *T_BufferedWriter, *T_BufferedRandom, *T_TextIOWrapper;

static inline bool is_text(Obj v) { return !(FO(v)->flags & F_BINARY); }

/* The name of the Python implementation of self's class (lib/_iogeneric.py). */
static const char *layer_kind(Obj self)
{
    if (vm_isinstance_type(self, T_TextIOWrapper))
        return "TextIOWrapper";
    if (vm_isinstance_type(self, T_BufferedRandom))
        return "BufferedRandom";
    if (vm_isinstance_type(self, T_BufferedReader))
        return "BufferedReader";
    if (vm_isinstance_type(self, T_BufferedWriter))
        return "BufferedWriter";
    return "FileIO";
}

/* _io imported: the Python methods of the classes are installed (the
 * abstract classes' defaults: a FileIO's readline). open(buffering=0) and
 * the layers over Python objects make sure of it; the other layers have
 * their methods in C. */
static int io_ready(void)
{
    Obj mods = sys_get("modules");
    if (mods && IS_DICT(mods) && dict_getitem_cstr(mods, "_io"))
        return 0;
    return vm_import_cstr("_io") ? 0 : -1;
}

/* A layer over a Python object (or one not initialized): the method of
 * the Python implementation (lib/_iolayers.py), called with the same
 * arguments. */
static Obj forward(const char *meth, Obj *args, size_t nargs, Obj kwnames)
{
    if (!strcmp(layer_kind(args[0]), "FileIO")) {   /* always over a descriptor once initialized */
        if (!strcmp(meth, "_get_closed"))
            return g_True;
        err_set(E_ValueError, "I/O operation on uninitialized object");
        return NULL;
    }
    size_t nkw = kwnames ? (size_t)TUPLE_LEN(kwnames) : 0;
    Obj *r = vm_roots(nargs + nkw + 2);
    for (size_t i = 0; i < nargs + nkw; i++)
        r[i] = args[i];
    r[nargs + nkw + 1] = kwnames;
    Obj res = NULL;
    if (io_ready() < 0) {
        vm_unroots(r);
        return NULL;
    }
    r[nargs + nkw] = vm_import_cstr("_iolayers");
    if (r[nargs + nkw] && (r[nargs + nkw] = vm_getattr_cstr(r[nargs + nkw], layer_kind(r[0]))) != NULL &&
        (r[nargs + nkw] = vm_getattr_cstr(r[nargs + nkw], meth)) != NULL)
        res = vm_call(r[nargs + nkw], r, nargs, r[nargs + nkw + 1]);
    vm_unroots(r);
    return res;
}

#define FORWARD(meth) \
    do { \
        if (!engine_of(args[0])) \
            return forward(meth, args, nargs, kwnames); \
    } while (0)

/* ------------------------------------------------------------------ */
/* Checks shared by the methods                                        */
/* ------------------------------------------------------------------ */

/* ValueError for method meth of a closed file, in CPython's words for
 * each layer. */
static Obj err_closed_for(Obj v, const char *meth)
{
    bool raw = FO(v)->flags & F_RAW, buffered = !raw && !is_text(v);
    static const char *const terse[] = {"fileno", "isatty", "readable", "seekable", "writable", NULL};
    static const char *const of[] = {"read", "read1", "peek", "readinto", "readinto1", "readline", "seek",
                                     "truncate", NULL};
    bool flush = !strcmp(meth, "flush");
    for (const char *const *t = terse; *t; t++)
        if (!strcmp(meth, *t))
            raw = true;
    if ((raw && !flush) || (buffered && !strcmp(meth, "tell"))) {
        err_set(E_ValueError, "I/O operation on closed file");
        return NULL;
    }
    if (buffered) {
        for (const char *const *t = of; *t; t++)
            if (!strcmp(meth, *t)) {
                err_format(E_ValueError, "%s of closed file", meth);
                return NULL;
            }
        if (!strcmp(meth, "write") || (flush && (FO(v)->flags & F_WRITE))) {
            err_format(E_ValueError, "%s of closed file", meth);
            if (!flush) {
                err_clear();
                err_set(E_ValueError, "write to closed file");
            }
            return NULL;
        }
    }
    return err_closed();
}

/* The view of an open file object, or NULL with ValueError. */
static Obj check_file(Obj self, const char *meth)
{
    Obj v = engine_of(self);
    if (!v) {
        err_set(E_ValueError, "I/O operation on uninitialized object");
        return NULL;
    }
    if (FO(fstate(v))->flags & F_CLOSED)
        return err_closed_for(v, meth);
    return v;
}

static Obj check_readable(Obj self, const char *meth)
{
    Obj v = check_file(self, meth);
    if (v && !(FO(v)->flags & F_READ))
        return err_unsupported(is_text(v) ? "not readable" : "File or stream is not readable.");
    return v;
}

static Obj check_writable(Obj self, const char *meth)
{
    Obj v = check_file(self, meth);
    if (v && !(FO(v)->flags & F_WRITE))
        return err_unsupported(is_text(v) ? "not writable" : "File or stream is not writable.");
    return v;
}

/* An optional size argument: None or an int (-1: all). */
static int size_arg(Obj v, int64_t *out)
{
    if (!v || IS_NONE(v)) {
        *out = -1;
        return 0;
    }
    if (!IS_INT(vm_unwrap(v)) && !vm_lookup_special(v, "__index__")) {
        err_format(E_TypeError, "argument should be integer or None, not '%s'", type_name(v));
        return -1;
    }
    return vm_index_i64(v, out);
}

/* A text or buffered layer of the classes themselves (not a subclass,
 * whose Python overrides must be called). */
static bool plain_layer(Obj file)
{
    TypeObj *t = TYPE(file);
    return t == T_TextIOWrapper || t == T_BufferedWriter || t == T_BufferedReader || t == T_BufferedRandom;
}

/* ------------------------------------------------------------------ */
/* Public C API                                                        */
/* ------------------------------------------------------------------ */

/* The view C writes text to directly: a TextIOWrapper's (not a
 * subclass's) over a descriptor, open and writable; else NULL (the
 * general path, which also raises the errors). */
static inline Obj direct_text_view(Obj file)
{
    if (TYPE(file) != T_TextIOWrapper)
        return NULL;
    Obj v = INST(file)->base_value;
    if (unlikely(!v || TID(v) != TID_FILE))
        return NULL;
    int64_t vf = FO(v)->flags;
    if ((vf & (F_BINARY | F_WRITE)) != F_WRITE)
        return NULL;
    Obj st = (vf & F_VIEW) ? FO(v)->state : v;
    return (FO(st)->flags & F_CLOSED) ? NULL : v;
}

bool file_is_fast_text(Obj f)
{
    return TYPE(f) == T_TextIOWrapper;   /* file_write_cstr() checks the rest */
}

int file_write_cstr(Obj file, const char *s, size_t n)
{
    Obj v = direct_text_view(file);
    /* lone surrogates in text go through the errors handler (below) */
    if (likely(v != NULL) && likely(!utf8_has_surrogate(s, n)))
        return write_bytes(v, s, n, (FO(v)->flags & F_LINEBUF) && memchr(s, '\n', n));
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
    Obj v = direct_text_view(file);
    if (likely(v != NULL) && likely(IS_STR(s)))
        return write_text(v, s);
    v = TYPE(file) == T_TextIOWrapper ? engine_of(file) : NULL;
    if (v && is_text(v)) {
        v = check_writable(file, "write");
        if (!v)
            return -1;
        if (!IS_STR(s)) {
            s = vm_unwrap(s);
            if (!IS_STR(s)) {
                err_format(E_TypeError, "write() argument must be str, not %s", type_name(s));
                return -1;
            }
        }
        return write_text(v, s);
    }
    Obj *r = vm_roots(1);
    r[0] = s;
    Obj res = vm_call_method(file, "write", r, 1);
    vm_unroots(r);
    return res ? 0 : -1;
}

/* A layer of the classes themselves that detach() emptied. */
static bool detached(Obj file)
{
    if (!plain_layer(file) || engine_of(file))
        return false;
    Obj d = vm_instance_dict(file);
    return d && dict_getitem_cstr(d, "_detached") != NULL;
}

int file_flush(Obj file)
{
    if (detached(file))
        return 0;   /* sys.stdout detached and replaced: its new object is flushed */
    Obj v = plain_layer(file) ? engine_of(file) : NULL;
    if (v) {
        Obj st = fstate(v);
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
static int read_all_raw(Obj v, StrBuf *out, bool text)
{
    Obj st = fstate(v);
    tm_monitor_enter((object_t *)st);
    int rc = read_all_raw_unlocked(v, out, text);
    tm_monitor_exit((object_t *)st);
    return rc;
}

static int read_n(Obj v, StrBuf *out, int64_t n, bool text)
{
    Obj st = fstate(v);
    tm_monitor_enter((object_t *)st);
    int rc = read_n_unlocked(v, out, n, text);
    tm_monitor_exit((object_t *)st);
    return rc;
}

static int read_line(Obj v, StrBuf *out, int64_t limit, bool text)
{
    Obj st = fstate(v);
    tm_monitor_enter((object_t *)st);
    int rc = read_line_unlocked(v, out, limit, text);
    tm_monitor_exit((object_t *)st);
    return rc;
}

/* One line of the open file view v (NULL with an error). */
static Obj line_of(Obj v)
{
    Obj res = fast_line(v);
    if (res || err_occurred())
        return res;
    StrBuf b;
    sb_init(&b);
    if (read_line(v, &b, -1, is_text(v)) < 0) {
        sb_free(&b);
        return NULL;
    }
    return finish(v, &b, is_text(v));
}

Obj file_readline(Obj file)
{
    if (plain_layer(file) && engine_of(file)) {
        Obj v = check_readable(file, "readline");
        return v ? line_of(v) : NULL;
    }
    return vm_call_method(file, "readline", NULL, 0);
}

/* Flush a standard stream's object at exit (errors cleared); -1: failed. */
static int flush_stream_at_exit(Obj f)
{
    if (!f || IS_NONE(f))
        return 0;
    Obj v = engine_of(f);
    if (v && (FO(fstate(v))->flags & F_CLOSED))
        return 0;
    if (file_flush(f) < 0) {
        err_clear();
        return -1;
    }
    return 0;
}

int file_flush_all_at_exit(void)
{
    int rc = flush_stream_at_exit(sys_get("stdout"));
    if (flush_stream_at_exit(g_sys_stdout) < 0)
        rc = -1;
    (void)flush_stream_at_exit(sys_get("stderr"));
    (void)flush_stream_at_exit(g_sys_stderr);
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
/* Methods shared by the layers                                        */
/* ------------------------------------------------------------------ */

static Obj m_read(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("read");
    static const char *const names[] = {"self", "size", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    int64_t n;
    if (vm_parse_args("read", args, nargs, kwnames, names, 1, 2, a) < 0 || size_arg(a[1], &n) < 0)
        goto out;
    Obj v = check_readable(a[0], "read");
    if (!v)
        goto out;
    bool text = is_text(v);
    if (n < 0 && !text && !(FO(v)->flags & F_SKIPLF)) {
        res = read_all_bytes_direct(fstate(v));
        if (res || err_occurred())
            goto out;
    }
    StrBuf b;
    sb_init(&b);
    int rc = n < 0 ? read_all_raw(v, &b, text) : read_n(v, &b, n, text);
    if (rc < 0) {
        sb_free(&b);
        goto out;
    }
    res = finish(v, &b, text);
out:
    vm_unroots(a);
    return res;
}

static Obj m_readline(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs == 1 && !kwnames) {
        /* readline() of an open file with the line in the buffer */
        Obj st;
        int64_t vf;
        Obj v = readable_view(args[0], &st, &vf);
        Obj res = v ? fast_line_in(v, st, vf) : NULL;
        if (res || err_occurred())
            return res;
    }
    FORWARD("readline");
    static const char *const names[] = {"self", "size", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    int64_t n;
    if (vm_parse_args("readline", args, nargs, kwnames, names, 1, 2, a) < 0 || size_arg(a[1], &n) < 0)
        goto out;
    Obj v = check_readable(a[0], "readline");
    if (!v)
        goto out;
    if (n < 0) {
        res = line_of(v);
        goto out;
    }
    StrBuf b;
    sb_init(&b);
    if (read_line(v, &b, n, is_text(v)) < 0) {
        sb_free(&b);
        goto out;
    }
    res = finish(v, &b, is_text(v));
out:
    vm_unroots(a);
    return res;
}

static Obj m_readlines(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("readlines");
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
    int64_t total = 0;
    for (;;) {
        Obj v = check_readable(a[0], "readlines");
        if (!v)
            goto out;
        a[3] = line_of(v);
        if (!a[3])
            goto out;
        int64_t len = IS_STR(a[3]) ? str_len(a[3]) : BYTES(a[3])->length;
        if (len == 0)
            break;
        total += len;
        if (list_append(a[2], a[3]) < 0)
            goto out;
        if (hint > 0 && total >= hint)
            break;
    }
    res = a[2];
out:
    vm_unroots(a);
    return res;
}

/* Bytes from a bytes-like argument of write(). */
static Obj write_binary(Obj v, Obj b)
{
    const char *p;
    int64_t n;
    if (!bytes_like_arg(b, &p, &n))
        return NULL;
    if (write_bytes(v, p, (size_t)n, (FO(v)->flags & F_LINEBUF) && memchr(p, '\n', (size_t)n)) < 0)
        return NULL;
    return int_from_i64(n);
}

static Obj m_write(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("write");
    Obj v = check_writable(args[0], "write");
    if (!v)
        return NULL;
    if (!is_text(v))
        return write_binary(v, args[1]);
    Obj s = vm_unwrap(args[1]);
    if (!IS_STR(s)) {
        err_format(E_TypeError, "write() argument must be str, not %s", type_name(args[1]));
        return NULL;
    }
    if (write_text(v, s) < 0)
        return NULL;
    return int_from_i64(str_len(s));
}

static Obj m_writelines(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("writelines");
    if (!check_writable(args[0], "writelines"))
        return NULL;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[2] = args[0];
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
        Obj v = check_writable(r[2], "writelines");
        if (!v)
            goto out;
        Obj rc;
        if (is_text(v)) {
            Obj *w = vm_roots(2);
            w[0] = r[2];
            w[1] = r[1];
            rc = m_write(w, 2, NULL);
            vm_unroots(w);
        } else {
            rc = write_binary(v, r[1]);
        }
        if (!rc)
            goto out;
    }
    res = g_None;
out:
    vm_unroots(r);
    return res;
}

static int close_state(Obj st)
{
    FileObj *f = FO(st);
    if (f->flags & F_CLOSED)
        return 0;
    /* closing the descriptor cannot be undone: an abort after close() would
     * close it again (EBADF, or another file that reused the number) */
    vm_tx_become_inevitable();
    f = FO(st);
    if (f->flags & F_CLOSED)
        return 0;
    int rc = flush_state(st);   /* st is pinned */
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
    return close_state(fstate(f));
}

static Obj m_close(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("close");
    Obj v = engine_of(args[0]);
    Obj st = fstate(v);
    if (FO(st)->flags & F_CLOSED)
        return g_None;
    Obj *r = vm_roots(1);
    r[0] = args[0];
    int rc = 0;
    if (!plain_layer(r[0]) && !(FO(v)->flags & F_RAW)) {
        /* a subclass: its flush() runs first, as CPython's close calls it */
        Obj res = vm_call_method(r[0], "flush", NULL, 0);
        if (!res)
            rc = -1;
    }
    Obj *saved = NULL;
    if (rc < 0) {
        saved = vm_roots(1);
        saved[0] = err_fetch();
    }
    v = engine_of(r[0]);
    if (v && close_state(fstate(v)) < 0 && rc == 0)
        rc = -1;
    if (saved) {
        err_clear();
        err_set_obj(saved[0]);
        vm_unroots(saved);
    }
    vm_unroots(r);
    return rc < 0 ? NULL : g_None;
}

static Obj m_flush(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("flush");
    Obj v = engine_of(args[0]);
    if (FO(fstate(v))->flags & F_CLOSED)
        return err_closed_for(v, "flush");
    return flush_state(fstate(v)) < 0 ? NULL : g_None;
}

static Obj m_fileno(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("fileno");
    Obj v = check_file(args[0], "fileno");
    return v ? MAKE_SMALLINT(FO(fstate(v))->fd) : NULL;
}

static Obj m_isatty(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("isatty");
    Obj v = check_file(args[0], "isatty");
    return v ? vm_bool(isatty((int)FO(fstate(v))->fd)) : NULL;
}

static Obj m_readable(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("readable");
    Obj v = check_file(args[0], "readable");
    return v ? vm_bool(FO(v)->flags & F_READ) : NULL;
}

static Obj m_writable(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("writable");
    Obj v = engine_of(args[0]);
    if (FO(v)->flags & F_RAW)
        v = check_file(args[0], "writable");
    return v ? vm_bool(FO(v)->flags & F_WRITE) : NULL;
}

static Obj m_seekable(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("seekable");
    Obj v = check_file(args[0], "seekable");
    return v ? vm_bool(lseek((int)FO(fstate(v))->fd, 0, SEEK_CUR) >= 0) : NULL;
}

static Obj m_tell(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("tell");
    Obj v = check_file(args[0], "tell");
    if (!v)
        return NULL;
    Obj st = fstate(v);
    if (is_text(v) && skip_lf(v) < 0)   /* a \r\n split by the buffer: the position after the \n */
        return NULL;
    if (flush_state(st) < 0)
        return NULL;
    off_t pos = lseek((int)FO(st)->fd, 0, SEEK_CUR);
    if (pos < 0)
        return err_from_errno(errno, NULL);
    if (!(FO(v)->flags & F_RAW))
        pos -= (off_t)(FO(st)->rlen - FO(st)->rpos);
    return int_from_i64(pos);
}

static Obj m_seek(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("seek");
    static const char *const names[] = {"self", "cookie", "whence", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    int64_t off, whence = 0;
    if (vm_parse_args("seek", args, nargs, kwnames, names, 2, 3, a) < 0)
        goto out;
    if (!IS_INT(vm_unwrap(a[1])) && !vm_lookup_special(a[1], "__index__")) {
        err_format(E_TypeError, "an integer is required");
        goto out;
    }
    if (vm_index_i64(a[1], &off) < 0 || (a[2] && vm_index_i64(a[2], &whence) < 0))
        goto out;
    Obj v = check_file(a[0], "seek");
    if (!v)
        goto out;
    if (whence < 0 || whence > 2) {
        if (is_text(v))
            err_format(E_ValueError, "invalid whence (%ld, should be 0, 1 or 2)", (long)whence);
        else
            err_format(E_ValueError, "whence value %ld unsupported", (long)whence);
        goto out;
    }
    if (is_text(v)) {
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
    /* The descriptor's offset is kernel state an abort cannot take back: a
     * retry would move a relative seek twice, and a tell() before it would
     * read the new offset against the restored buffer (issue 21). */
    vm_tx_become_inevitable();
    Obj st = fstate(v);
    if (flush_state(st) < 0)
        goto out;
    if (whence == 1 && !(FO(v)->flags & F_RAW))
        off -= FO(st)->rlen - FO(st)->rpos;
    VM_WRITE(st);
    FO(st)->rpos = FO(st)->rlen = 0;
    VM_WRITE(v);
    FO(v)->flags &= ~F_SKIPLF;
    if (is_text(v) && (whence == 2 || off == 0))
        FO(v)->flags &= ~F_SEEN_ALL;   /* CPython resets its decoder there, and with it `newlines` */
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
    FORWARD("truncate");
    static const char *const names[] = {"self", "size", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    int64_t size;
    if (vm_parse_args("truncate", args, nargs, kwnames, names, 1, 2, a) < 0 || size_arg(a[1], &size) < 0)
        goto out;
    Obj v = check_writable(a[0], "truncate");
    if (!v)
        goto out;
    vm_tx_become_inevitable();   /* a file's length, like its offset, is not undone by an abort */
    Obj st = fstate(v);
    if (flush_state(st) < 0)
        goto out;
    if (size < 0) {
        off_t pos = lseek((int)FO(st)->fd, 0, SEEK_CUR);
        size = pos - (FO(v)->flags & F_RAW ? 0 : FO(st)->rlen - FO(st)->rpos);
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
    FORWARD("__enter__");
    if (!check_file(args[0], "__enter__"))
        return NULL;
    return args[0];
}

static Obj m_exit(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    r[0] = args[0];
    Obj res = vm_call_method(r[0], "close", NULL, 0);
    vm_unroots(r);
    return res ? g_None : NULL;
}

/* Detach: the layer below, this one unusable ("detached") after. */
static Obj m_detach(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("detach");
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = engine_of(r[0]);
    if (!(FO(fstate(r[1]))->flags & F_CLOSED) && flush_state(fstate(r[1])) < 0)
        goto out;
    r[2] = FO(r[1])->lower;
    if (!r[2]) {
        err_unsupported("detach");
        goto out;
    }
    Obj name = str_from_cstr("_detached");
    if (!name || vm_setattr(r[0], name, g_True) < 0)
        goto out;
    VM_WRITE(r[0]);
    INST(r[0])->base_value = NULL;
    res = r[2];
out:
    vm_unroots(r);
    return res;
}

static Obj layer_iternext(Obj self)
{
    /* the common case first: an open readable file, a line in the buffer */
    Obj st;
    int64_t vf;
    Obj v = readable_view(self, &st, &vf);
    if (likely(v != NULL)) {
        Obj res = fast_line_in(v, st, vf);
        if (res || err_occurred())
            return res;
    }
    v = plain_layer(self) ? engine_of(self) : NULL;
    if (!v) {
        /* a subclass, or a layer over a Python object: self.readline() */
        Obj *r = vm_roots(1);
        r[0] = self;
        r[0] = vm_call_method(r[0], "readline", NULL, 0);
        Obj line = r[0];
        if (line) {
            Obj u = vm_unwrap(line);
            int64_t n = IS_STR(u) ? str_len(u) : IS_BYTES(u) ? BYTES(u)->length : vm_len(line);
            line = n > 0 ? r[0] : NULL;   /* 0: the end; -1: an error */
        }
        vm_unroots(r);
        return line;
    }
    v = check_readable(self, "__next__");
    if (!v)
        return NULL;
    Obj res = fast_line(v);
    if (res || err_occurred())
        return res;
    StrBuf b;
    sb_init(&b);
    if (read_line(v, &b, -1, is_text(v)) < 0) {
        sb_free(&b);
        return NULL;
    }
    if (b.len == 0) {
        sb_free(&b);
        return NULL;   /* end: NULL without an error */
    }
    return finish(v, &b, is_text(v));
}

static Obj layer_iter(Obj self)
{
    Obj v = engine_of(self);
    if (v)
        return (FO(fstate(v))->flags & F_CLOSED) ? err_closed() : self;
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj c = vm_getattr_cstr(r[0], "closed");
    int t = c ? vm_is_true(c) : -1;
    Obj res = t < 0 ? NULL : t ? err_closed() : r[0];
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* FileIO: the raw layer (reads and writes go straight to the fd)      */
/* ------------------------------------------------------------------ */

/* One read() of at most n bytes into C memory, then a bytes object; None
 * when a non-blocking fd has nothing. */
static Obj raw_read_n(Obj st, int64_t n)
{
    char *tmp = malloc(n > 0 ? (size_t)n : 1);
    if (!tmp)
        return err_nomemory();
    ssize_t got = vm_blocking_read((int)FO(st)->fd, tmp, (size_t)n);
    Obj res;
    if (got < 0)
        res = errno == EAGAIN ? g_None : errno == EINTR ? NULL : err_from_errno(errno, NULL);
    else
        res = bytes_new(tmp, (size_t)got);
    free(tmp);
    return res;
}

static Obj raw_readall(Obj v)
{
    Obj st = fstate(v);
    StrBuf b;
    sb_init(&b);
    /* what the buffered layer read ahead is not the raw file's any more */
    Obj *r = vm_roots(1);
    r[0] = v;
    int64_t rpos = FO(st)->rpos, rlen = FO(st)->rlen;
    VM_WRITE(st);
    FO(st)->rpos = FO(st)->rlen = 0;
    int rc = read_all_raw(v, &b, false);
    VM_WRITE(st);
    FO(st)->rpos = rpos;
    FO(st)->rlen = rlen;
    vm_unroots(r);
    if (rc < 0) {
        sb_free(&b);
        return NULL;
    }
    return finish(v, &b, false);
}

static Obj raw_m_read(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"self", "size", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    int64_t n;
    if (vm_parse_args("read", args, nargs, kwnames, names, 1, 2, a) < 0 || size_arg(a[1], &n) < 0)
        goto out;
    Obj v = check_readable(a[0], "read");
    if (v)
        res = n < 0 ? raw_readall(v) : raw_read_n(fstate(v), n);
out:
    vm_unroots(a);
    return res;
}

static Obj raw_m_readall(Obj *args, size_t nargs, Obj kwnames)
{
    Obj v = check_readable(args[0], "readall");
    return v ? raw_readall(v) : NULL;
}

/* readinto(b) of any layer: read(len(b)) copied into the writable buffer b. */
static Obj m_readinto_common(Obj *args, size_t nargs, Obj kwnames, const char *meth)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = args[1];
    Obj mv = vm_call1((Obj)T_memoryview, r[1]);
    if (!mv)
        goto out;
    r[2] = mv;
    Obj ro = vm_getattr_cstr(r[2], "readonly");
    if (!ro)
        goto out;
    if (ro == g_True) {
        err_format(E_TypeError, "readinto() argument must be read-write bytes-like object, not %s", type_name(r[1]));
        goto out;
    }
    Obj cast_args = str_from_cstr("B");
    if (!cast_args)
        goto out;
    Obj *c = vm_roots(1);
    c[0] = cast_args;
    Obj flat = vm_call_method(r[2], "cast", c, 1);
    vm_unroots(c);
    if (!flat)
        goto out;
    r[2] = flat;
    int64_t n = vm_len(r[2]);
    if (n < 0)
        goto out;
    Obj *ca = vm_roots(2);
    ca[0] = r[0];
    ca[1] = int_from_i64(n);
    Obj data = ca[1] ? vm_call_method(ca[0], meth, &ca[1], 1) : NULL;
    vm_unroots(ca);
    if (!data)
        goto out;
    if (IS_NONE(data)) {
        res = g_None;
        goto out;
    }
    int64_t got = BYTES(data)->length;
    Obj *s = vm_roots(2);
    s[0] = data;
    s[1] = slice_new(MAKE_SMALLINT(0), int_from_i64(got), g_None);
    int rc = s[1] ? vm_setitem(r[2], s[1], s[0]) : -1;
    vm_unroots(s);
    if (rc < 0)
        goto out;
    res = int_from_i64(got);
out:
    vm_unroots(r);
    return res;
}

static Obj raw_m_readinto(Obj *args, size_t nargs, Obj kwnames)
{
    if (!check_readable(args[0], "readinto"))
        return NULL;
    return m_readinto_common(args, nargs, kwnames, "read");
}

static Obj raw_m_write(Obj *args, size_t nargs, Obj kwnames)
{
    Obj v = check_writable(args[0], "write");
    return v ? write_binary(v, args[1]) : NULL;
}

static Obj raw_m_close(Obj *args, size_t nargs, Obj kwnames)
{
    Obj v = engine_of(args[0]);
    if (!v)
        return g_None;
    Obj *r = vm_roots(1);
    r[0] = args[0];
    int rc = close_state(fstate(v));
    vm_unroots(r);
    return rc < 0 ? NULL : g_None;
}

static Obj g_closed(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("_get_closed");
    return vm_bool(FO(fstate(engine_of(args[0])))->flags & F_CLOSED);
}

static Obj g_name(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("_get_name");
    Obj st = fstate(engine_of(args[0]));
    if (!FO(st)->name) {
        err_format(E_AttributeError, "'%s' object has no attribute 'name'", type_name(args[0]));
        return NULL;
    }
    return FO(st)->name;
}

static Obj s_name(Obj *args, size_t nargs, Obj kwnames)
{
    Obj v = engine_of(args[0]);
    if (!v || !args[1]) {
        err_set(E_AttributeError, "can't delete attribute 'name'");
        return NULL;
    }
    Obj st = fstate(v);
    VM_WRITE(st);
    FO(st)->name = args[1];
    return g_None;
}

static Obj g_mode(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("_get_mode");
    return FO(fstate(engine_of(args[0])))->mode;
}

static Obj g_closefd(Obj *args, size_t nargs, Obj kwnames)
{
    Obj v = engine_of(args[0]);
    return vm_bool(!v || (FO(fstate(v))->flags & F_CLOSEFD));
}

static Obj g_lower(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD(TYPE(args[0]) == T_TextIOWrapper || vm_isinstance_type(args[0], T_TextIOWrapper) ? "_get_buffer"
                                                                                              : "_get_raw");
    Obj l = FO(engine_of(args[0]))->lower;
    return l ? l : g_None;
}

static Obj raw_repr(Obj self)
{
    Obj v = engine_of(self);
    if (!v || (FO(fstate(v))->flags & F_CLOSED))
        return str_from_format("<_io.FileIO [closed]>");
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = vm_repr(FO(fstate(v))->name);
    r[1] = r[0] ? vm_repr(FO(fstate(v))->mode) : NULL;
    if (r[1])
        res = str_from_format("<_io.FileIO name=%s mode=%s closefd=%s>", str_cstr(r[0]), str_cstr(r[1]),
                              (FO(fstate(v))->flags & F_CLOSEFD) ? "True" : "False");
    vm_unroots(r);
    return res;
}

/* repr(getattr(self, name)), or NULL without an error when it has none. */
static Obj attr_repr(Obj self, const char *name)
{
    Obj a = vm_getattr_cstr(self, name);
    if (!a) {
        if (err_matches(E_AttributeError) || err_matches(E_ValueError))
            err_clear();
        return NULL;
    }
    return vm_repr(a);
}

static Obj buffered_repr(Obj self)
{
    Obj *r = vm_roots(2);
    r[0] = self;
    Obj res = NULL;
    Obj tn = vm_getattr_cstr((Obj)TYPE(self), "__name__");
    if (!tn)
        goto out;
    r[1] = tn;
    Obj nm = attr_repr(r[0], "name");
    if (err_occurred())
        goto out;
    const char *mod = TYPE(r[0])->flags & TPF_HEAPTYPE ? "" : "_io.";
    res = nm ? str_from_format("<%s%s name=%s>", mod, str_cstr(r[1]), str_cstr(nm))
             : str_from_format("<%s%s>", mod, str_cstr(r[1]));
out:
    vm_unroots(r);
    return res;
}

static Obj text_repr(Obj self)
{
    Obj *r = vm_roots(4);
    r[0] = self;
    Obj res = NULL;
    StrBuf b;
    sb_init(&b);
    sb_add(&b, "<_io.TextIOWrapper", 18);
    const char *names[] = {"name", "mode", "encoding"};
    for (int i = 0; i < 3; i++) {
        Obj a = attr_repr(r[0], names[i]);
        if (err_occurred()) {
            sb_free(&b);
            goto out;
        }
        if (a) {
            sb_addc(&b, ' ');
            sb_add(&b, names[i], strlen(names[i]));
            sb_addc(&b, '=');
            sb_add(&b, str_cstr(a), (size_t)STR(a)->nbytes);
        }
    }
    sb_addc(&b, '>');
    res = sb_finish(&b);
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* Buffered layers                                                     */
/* ------------------------------------------------------------------ */

static Obj buf_m_read1(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("read1");
    static const char *const names[] = {"self", "size", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    int64_t n;
    if (vm_parse_args("read1", args, nargs, kwnames, names, 1, 2, a) < 0 || size_arg(a[1], &n) < 0)
        goto out;
    Obj v = check_readable(a[0], "read1");
    if (!v)
        goto out;
    Obj st = fstate(v);
    if (n == 0) {
        res = bytes_new("", 0);
        goto out;
    }
    tm_monitor_enter((object_t *)st);
    int rc = fill(st);
    if (rc > 0) {
        int64_t avail = FO(st)->rlen - FO(st)->rpos;
        if (n < 0 || n > avail)
            n = avail;
        res = bytes_new((const char *)rdata(st) + FO(st)->rpos, (size_t)n);
        if (res) {
            VM_WRITE(st);
            FO(st)->rpos += n;
        }
    } else if (rc == 0) {
        res = bytes_new("", 0);
    }
    tm_monitor_exit((object_t *)st);
out:
    vm_unroots(a);
    return res;
}

static Obj buf_m_peek(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("peek");
    Obj v = check_readable(args[0], "peek");
    if (!v)
        return NULL;
    Obj st = fstate(v);
    tm_monitor_enter((object_t *)st);
    int rc = fill(st);
    Obj res = NULL;
    if (rc >= 0)
        res = bytes_new((const char *)rdata(st) + FO(st)->rpos, (size_t)(FO(st)->rlen - FO(st)->rpos));
    tm_monitor_exit((object_t *)st);
    return res;
}

static Obj buf_m_readinto(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("readinto");
    if (!check_readable(args[0], "readinto"))
        return NULL;
    return m_readinto_common(args, nargs, kwnames, "read");
}

static Obj buf_m_readinto1(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("readinto1");
    if (!check_readable(args[0], "readinto1"))
        return NULL;
    return m_readinto_common(args, nargs, kwnames, "read1");
}

/* ------------------------------------------------------------------ */
/* TextIOWrapper                                                       */
/* ------------------------------------------------------------------ */

static Obj g_encoding(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("_get_encoding");
    return FO(engine_of(args[0]))->encoding;
}

static Obj g_errors(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("_get_errors");
    return str_from_cstr(err_name(engine_of(args[0])));
}

static Obj g_newlines(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("_get_newlines");
    int64_t fl = FO(engine_of(args[0]))->flags;
    int k = (fl & F_SEEN_LF ? 1 : 0) | (fl & F_SEEN_CR ? 2 : 0) | (fl & F_SEEN_CRLF ? 4 : 0);
    static const char *const kinds[][3] = {{NULL}, {"\n"}, {"\r"}, {"\r", "\n"}, {"\r\n"}, {"\n", "\r\n"},
                                           {"\r", "\r\n"}, {"\r", "\n", "\r\n"}};
    if (k == 0)
        return g_None;
    Obj *r = vm_roots(3);
    int n = 0;
    for (; n < 3 && kinds[k][n]; n++)
        if (!(r[n] = str_from_cstr(kinds[k][n]))) {
            vm_unroots(r);
            return NULL;
        }
    Obj res = n == 1 ? r[0] : n == 2 ? tuple_pack(2, r[0], r[1]) : tuple_pack(3, r[0], r[1], r[2]);
    vm_unroots(r);
    return res;
}

static Obj g_line_buffering(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("_get_line_buffering");
    return vm_bool(FO(engine_of(args[0]))->flags & F_LINEBUF);
}

static Obj g_write_through(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("_get_write_through");
    return vm_bool(FO(engine_of(args[0]))->flags & F_WTHROUGH);
}

/* The text flags for encoding/errors/newline when the C text layer can do
 * them (UTF-8; newline None, '' or '\n'): 0 and *flags set; 1: it cannot
 * (the Python implementation will); -1: an error. */
static int text_flags(Obj encoding, Obj errors, Obj newline, int64_t *flags)
{
    int64_t fl = 0;
    if (encoding && !IS_NONE(encoding)) {
        if (!IS_STR(encoding))
            return 1;
        if (!str_eq_cstr(encoding, "locale") && !enc_is_utf8(str_cstr(encoding)))
            return 1;
        fl |= F_EXPLICIT_ENC;
    }
    if (errors && !IS_NONE(errors)) {
        if (!IS_STR(errors))
            return 1;
        size_t k = 0;
        while (k < ARRAY_LEN(err_names) && !str_eq_cstr(errors, err_names[k]))
            k++;
        if (k == ARRAY_LEN(err_names))
            return 1;
        fl |= (int64_t)k << F_ERR_SHIFT;
    }
    if (!newline || IS_NONE(newline))
        fl |= F_TRANSLATE;
    else if (!IS_STR(newline))
        return 1;
    else if (str_eq_cstr(newline, ""))
        fl |= F_NL_ANY;
    else if (!str_eq_cstr(newline, "\n"))
        return 1;
    *flags = fl;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Construction                                                        */
/* ------------------------------------------------------------------ */

/* A view of state st for one layer (pinned, as the state: methods keep it
 * in C locals across blocking calls). */
static Obj view_new(Obj st, int64_t flags, Obj encoding, Obj lower)
{
    Obj *r = vm_roots(3);
    r[0] = st;
    r[1] = encoding;
    r[2] = lower;
    Obj v = (Obj)tm_allocate_old(TID_FILE, sizeof(struct FileObj_));
    if (v) {
        FileObj *fo = FO(v);
        fo->name = fo->mode = fo->rbuf = NULL;
        fo->encoding = r[1];
        fo->state = r[0];
        fo->lower = r[2];
        fo->fd = FO(r[0])->fd;
        fo->flags = flags | F_VIEW;
        fo->rpos = fo->rlen = fo->wlen = fo->wcap = 0;
        fo->wbuf = NULL;
    } else {
        err_nomemory();
    }
    vm_unroots(r);
    return v;
}

/* An instance of t whose engine is e. */
static Obj layer_new(TypeObj *t, Obj e)
{
    Obj *r = vm_roots(1);
    r[0] = e;
    Obj inst = instance_new(t);
    if (inst) {
        VM_WRITE(inst);
        INST(inst)->base_value = r[0];
    }
    vm_unroots(r);
    return inst;
}

static void set_engine(Obj self, Obj e)
{
    VM_WRITE(self);
    INST(self)->base_value = e;
}

/* The state of a new FileIO over fd (flags: F_READ/F_WRITE/F_APPEND/
 * F_CLOSEFD/F_STDIO). Registered for the flush at exit when writable, and
 * closed when collected. */
static Obj state_new(int fd, Obj name, Obj mode, int64_t flags)
{
    Obj f = file_alloc(fd, name, mode, flags | F_RAW | F_BINARY, NULL);
    if (!f)
        return NULL;
    tm_register_finalizer((object_t *)f);   /* closed (and flushed) when collected: file_finalize */
    if (flags & F_WRITE) {
        Obj *r = vm_roots(1);
        r[0] = f;
        int rc = register_open_file(f);
        f = r[0];
        vm_unroots(r);
        if (rc < 0)
            return NULL;
    }
    return f;
}

/* Parse an open()/FileIO mode. Returns 0 and the flags; -1 with ValueError. */
struct mode_bits { int r, w, a, x, plus, b, t; };
static int parse_mode(const char *mode, struct mode_bits *m, bool fileio)
{
    memset(m, 0, sizeof *m);
    for (const char *p = mode; *p; p++) {
        int *slot;
        switch (*p) {
        case 'r': slot = &m->r; break;
        case 'w': slot = &m->w; break;
        case 'a': slot = &m->a; break;
        case 'x': slot = &m->x; break;
        case '+': slot = &m->plus; break;
        case 'b': slot = &m->b; break;
        case 't': slot = fileio ? NULL : &m->t; break;
        default: slot = NULL;
        }
        if (!slot || *slot) {
            err_format(E_ValueError, "invalid mode: %s%s%s", fileio ? "" : "'", mode, fileio ? "" : "'");
            return -1;
        }
        *slot = 1;
    }
    if (m->r + m->w + m->a + m->x != 1) {
        err_set(E_ValueError, fileio ? "Must have exactly one of create/read/write/append mode and at most one plus"
                                     : "must have exactly one of create/read/write/append mode");
        return -1;
    }
    return 0;
}

/* FileIO(file, mode='r', closefd=True, opener=None): the state over the
 * opened descriptor, or NULL. */
static Obj fileio_open(Obj path, const char *mode, bool closefd, Obj opener)
{
    struct mode_bits m;
    if (parse_mode(mode, &m, true) < 0)
        return NULL;
    int64_t flags = 0;
    int oflags = O_CLOEXEC;
    flags |= m.r ? F_READ : F_WRITE;
    if (m.plus)
        flags |= F_READ | F_WRITE;
    oflags |= m.plus ? O_RDWR : m.r ? O_RDONLY : O_WRONLY;
    if (m.w)
        oflags |= O_CREAT | O_TRUNC;
    if (m.a) {
        oflags |= O_CREAT | O_APPEND;
        flags |= F_APPEND;
    }
    if (m.x)
        oflags |= O_CREAT | O_EXCL;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = path;
    int fd = -1;
    bool is_fd = false;
    if (IS_FLOAT(path)) {
        err_set(E_TypeError, "integer argument expected, got float");
        goto out;
    }
    if (IS_INT(vm_unwrap(path))) {
        int64_t v;
        if (vm_index_i64(path, &v) < 0)
            goto out;
        if (v < 0) {
            err_set(E_ValueError, "negative file descriptor");
            goto out;
        }
        if (v > 0x7fffffff) {
            err_set(E_OverflowError, "signed integer is greater than maximum");
            goto out;
        }
        fd = (int)v;
        is_fd = true;
        struct stat stb;
        if (fstat(fd, &stb) < 0) {
            err_from_errno(errno, NULL);
            goto out;
        }
        if (closefd)
            flags |= F_CLOSEFD;
    } else {
        if (!closefd) {
            err_set(E_ValueError, "Cannot use closefd=False with file name");
            goto out;
        }
        Obj p = vm_fspath(path);
        if (!p)
            goto out;
        r[0] = p;
        flags |= F_CLOSEFD;
        if (opener && !IS_NONE(opener)) {
            Obj *c = vm_roots(2);
            c[0] = r[0];
            c[1] = MAKE_SMALLINT(oflags);
            Obj fdo = vm_call(opener, c, 2, NULL);
            vm_unroots(c);
            if (!fdo)
                goto out;
            if (!IS_INT(vm_unwrap(fdo))) {
                err_format(E_TypeError, "expected integer from opener");
                goto out;
            }
            int64_t v;
            if (vm_index_i64(fdo, &v) < 0)
                goto out;
            if (v < 0) {
                err_format(E_ValueError, "opener returned %ld", (long)v);
                goto out;
            }
            fd = (int)v;
        } else {
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
                goto out;
            }
            fd = vm_blocking_open(cpath, oflags, 0666);
            free(cpath);
            if (fd < 0) {
                err_from_errno(errno, r[0]);
                goto out;
            }
        }
        struct stat stb;
        if (fstat(fd, &stb) == 0 && S_ISDIR(stb.st_mode)) {
            close(fd);
            err_from_errno(EISDIR, r[0]);
            goto out;
        }
    }
    if (m.a)
        lseek(fd, 0, SEEK_END);
    if (fd == 1 || fd == 2)
        flags |= F_STDIO;
    /* The mode as CPython's FileIO reports it. */
    const char *fm = m.x ? (m.plus ? "xb+" : "xb") : m.a ? (m.plus ? "ab+" : "ab")
                   : m.w ? (m.plus ? "rb+" : "wb") : (m.plus ? "rb+" : "rb");
    r[1] = str_from_cstr(fm);
    if (r[1])
        res = state_new(fd, r[0], r[1], flags);
    if (!res && (flags & F_CLOSEFD) && !is_fd)
        close(fd);
out:
    vm_unroots(r);
    return res;
}

static Obj io_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    return instance_new((TypeObj *)type);
}

static int fileio_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"file", "mode", "closefd", "opener", NULL};
    Obj *a = vm_roots(5);
    int rc = -1;
    a[4] = self;
    if (vm_parse_args("FileIO", args, nargs, kwnames, names, 1, 4, a) < 0)
        goto out;
    const char *mode = "r";
    if (a[1]) {
        Obj m = str_value(a[1]);
        if (!m) {
            err_format(E_TypeError, "FileIO() argument 'mode' must be str, not %s", type_name(a[1]));
            goto out;
        }
        mode = str_cstr(m);
    }
    int closefd = 1;
    if (a[2] && (closefd = vm_is_true(a[2])) < 0)
        goto out;
    Obj old = engine_of(a[4]);
    if (old && close_state(fstate(old)) < 0)
        goto out;
    Obj st = fileio_open(a[0], mode, closefd, a[3]);
    if (!st)
        goto out;
    set_engine(a[4], st);
    rc = 0;
out:
    vm_unroots(a);
    return rc;
}

/* BufferedReader/Writer/Random(raw, buffer_size=DEFAULT_BUFFER_SIZE). */
static int buffered_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"raw", "buffer_size", NULL};
    Obj *a = vm_roots(3);
    int rc = -1;
    a[2] = self;
    TypeObj *kind = vm_isinstance_type(self, T_BufferedRandom) ? T_BufferedRandom
                  : vm_isinstance_type(self, T_BufferedReader) ? T_BufferedReader : T_BufferedWriter;
    const char *fname = kind == T_BufferedRandom ? "BufferedRandom" : kind == T_BufferedReader ? "BufferedReader"
                                                                                              : "BufferedWriter";
    if (vm_parse_args(fname, args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    int64_t size = FILE_BUFFER_SIZE;
    if (a[1] && vm_index_i64(a[1], &size) < 0)
        goto out;
    if (size <= 0) {
        err_set(E_ValueError, "buffer size must be strictly positive");
        goto out;
    }
    Obj re = TYPE(a[0]) == T_FileIO ? engine_of(a[0]) : NULL;
    if (!re || (FO(re)->flags & F_CLOSED)) {
        set_engine(a[2], NULL);
        Obj *f = vm_roots(nargs + 1 + (kwnames ? (size_t)TUPLE_LEN(kwnames) : 0));
        f[0] = a[2];
        for (size_t i = 0; i < nargs + (kwnames ? (size_t)TUPLE_LEN(kwnames) : 0); i++)
            f[i + 1] = args[i];
        Obj res = forward("__init__", f, nargs + 1, kwnames);
        vm_unroots(f);
        rc = res ? 0 : -1;
        goto out;
    }
    int64_t want = kind == T_BufferedRandom ? F_READ | F_WRITE : kind == T_BufferedReader ? F_READ : F_WRITE;
    if ((want & F_READ) && !(FO(re)->flags & F_READ)) {
        err_unsupported("File or stream is not readable.");
        goto out;
    }
    if ((want & F_WRITE) && !(FO(re)->flags & F_WRITE)) {
        err_unsupported("File or stream is not writable.");
        goto out;
    }
    if (kind == T_BufferedRandom && lseek((int)FO(re)->fd, 0, SEEK_CUR) < 0) {
        err_unsupported("File or stream is not seekable.");
        goto out;
    }
    Obj v = view_new(re, want | F_BINARY, NULL, a[0]);
    if (!v)
        goto out;
    set_engine(a[2], v);
    rc = 0;
out:
    vm_unroots(a);
    return rc;
}

static const char *const text_init_names[] = {"buffer", "encoding", "errors", "newline", "line_buffering",
                                              "write_through", NULL};

/* TextIOWrapper(buffer, encoding=None, errors=None, newline=None,
 * line_buffering=False, write_through=False): the C text layer over an
 * open()-made buffer in UTF-8, else the Python implementation. */
static int text_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    Obj *a = vm_roots(7);
    int rc = -1;
    a[6] = self;
    if (vm_parse_args("TextIOWrapper", args, nargs, kwnames, text_init_names, 1, 6, a) < 0)
        goto out;
    int64_t fl = 0;
    int lb = 0, wt = 0;
    if (a[4] && (lb = vm_is_true(a[4])) < 0)
        goto out;
    if (a[5] && (wt = vm_is_true(a[5])) < 0)
        goto out;
    TypeObj *bt = TYPE(a[0]);
    Obj be = (bt == T_BufferedReader || bt == T_BufferedWriter || bt == T_BufferedRandom) ? engine_of(a[0]) : NULL;
    int can = be && !(FO(fstate(be))->flags & F_CLOSED) ? text_flags(a[1], a[2], a[3], &fl) : 1;
    if (can < 0)
        goto out;
    if (can > 0) {
        set_engine(a[6], NULL);
        size_t nall = nargs + (kwnames ? (size_t)TUPLE_LEN(kwnames) : 0);
        Obj *f = vm_roots(nall + 1);
        f[0] = a[6];
        for (size_t i = 0; i < nall; i++)
            f[i + 1] = args[i];
        Obj res = forward("__init__", f, nargs + 1, kwnames);
        vm_unroots(f);
        rc = res ? 0 : -1;
        goto out;
    }
    Obj enc = (fl & F_EXPLICIT_ENC) && !str_eq_cstr(a[1], "locale") ? a[1] : str_from_cstr("UTF-8");
    if (!enc)
        goto out;
    if (lb)
        fl |= F_LINEBUF;
    if (wt)
        fl |= F_WTHROUGH;
    Obj v = view_new(fstate(be), (FO(be)->flags & (F_READ | F_WRITE)) | fl, enc, a[0]);
    if (!v)
        goto out;
    set_engine(a[6], v);
    rc = 0;
out:
    vm_unroots(a);
    return rc;
}

/* reconfigure(*, encoding, errors, newline, line_buffering, write_through):
 * in place while the C text layer can do it, else by the Python one. */
static Obj text_m_reconfigure(Obj *args, size_t nargs, Obj kwnames)
{
    FORWARD("reconfigure");
    static const char *const names[] = {"self", "encoding", "errors", "newline", "line_buffering",
                                        "write_through", NULL};
    Obj *a = vm_roots(7);
    Obj res = NULL;
    if (vm_parse_args("reconfigure", args, nargs, kwnames, names, 1, 1, a) < 0)
        goto out;
    Obj v = engine_of(a[0]);
    if (file_flush(a[0]) < 0)
        goto out;
    int64_t old = FO(v)->flags;
    /* what is not given stays */
    if (!a[2] && (old & F_ERR_MASK))
        a[2] = str_from_cstr(err_name(v));
    if (!a[3])
        a[3] = (old & F_TRANSLATE) ? g_None : str_from_cstr((old & F_NL_ANY) ? "" : "\n");
    int64_t fl = 0;
    int can = text_flags(a[1] ? a[1] : FO(v)->encoding, a[2], a[3], &fl);
    if (can < 0)
        goto out;
    int lb = (old & F_LINEBUF) != 0, wt = (old & F_WTHROUGH) != 0;
    if (a[4] && !IS_NONE(a[4]) && (lb = vm_is_true(a[4])) < 0)
        goto out;
    if (a[5] && !IS_NONE(a[5]) && (wt = vm_is_true(a[5])) < 0)
        goto out;
    if (can == 0) {
        v = engine_of(a[0]);
        Obj enc = a[1] && !IS_NONE(a[1]) && !str_eq_cstr(a[1], "locale") ? a[1] : a[1] ? str_from_cstr("UTF-8") : FO(v)->encoding;
        if (!enc)
            goto out;
        v = engine_of(a[0]);
        VM_WRITE(v);
        FO(v)->encoding = enc;
        FO(v)->flags = (old & (F_READ | F_WRITE | F_VIEW | F_SKIPLF)) | fl | (lb ? F_LINEBUF : 0) | (wt ? F_WTHROUGH : 0);
        res = g_None;
        goto out;
    }
    /* The Python implementation takes over, over the same buffer. */
    Obj *c = vm_roots(6);
    c[0] = a[0];
    c[1] = FO(v)->lower;
    c[2] = a[1] ? a[1] : FO(v)->encoding;
    c[3] = a[2] ? a[2] : g_None;
    c[4] = a[3];
    c[5] = vm_bool(lb);
    Obj w = vm_bool(wt);
    set_engine(c[0], NULL);
    Obj *f = vm_roots(7);
    for (int i = 0; i < 6; i++)
        f[i] = c[i];
    f[6] = w;
    res = forward("__init__", f, 7, NULL);
    vm_unroots(f);
    vm_unroots(c);
out:
    vm_unroots(a);
    return res;
}

/* text.mode = mode, as CPython's open() sets it. */
static int set_mode_attr(Obj text, const char *mode)
{
    Obj *r = vm_roots(3);
    r[0] = text;
    r[1] = str_from_cstr(mode);
    r[2] = r[1] ? str_from_cstr("mode") : NULL;
    int rc = r[2] ? vm_setattr(r[0], r[2], r[1]) : -1;
    vm_unroots(r);
    return rc;
}

/* open(file, mode='r', buffering=-1, encoding=None, errors=None,
 * newline=None, closefd=True, opener=None). */
Obj file_open(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"file", "mode", "buffering", "encoding", "errors", "newline",
                                        "closefd", "opener", NULL};
    Obj *a = vm_roots(12);
    Obj res = NULL;
    if (vm_parse_args("open", args, nargs, kwnames, names, 1, 8, a) < 0)
        goto out;
    char mode[16] = "r";
    if (a[1]) {
        Obj m = str_value(a[1]);
        if (!m) {
            err_format(E_TypeError, "open() argument 'mode' must be str, not %s", type_name(a[1]));
            goto out;
        }
        if (STR(m)->nbytes >= (int64_t)sizeof mode) {
            err_format(E_ValueError, "invalid mode: '%s'", str_cstr(m));
            goto out;
        }
        memcpy(mode, str_cstr(m), (size_t)STR(m)->nbytes + 1);
    }
    int64_t buffering = -1;
    if (a[2] && vm_index_i64(a[2], &buffering) < 0)
        goto out;
    int closefd = 1;
    if (a[6] && (closefd = vm_is_true(a[6])) < 0)
        goto out;
    struct mode_bits m;
    if (parse_mode(mode, &m, false) < 0)
        goto out;
    for (int i = 3; i <= 5; i++)
        if (a[i] && IS_NONE(a[i]))
            a[i] = NULL;
    if (m.b && m.t) {
        err_set(E_ValueError, "can't have text and binary mode at once");
        goto out;
    }
    if (m.b && a[3]) {
        err_set(E_ValueError, "binary mode doesn't take an encoding argument");
        goto out;
    }
    if (m.b && a[4]) {
        err_set(E_ValueError, "binary mode doesn't take an errors argument");
        goto out;
    }
    if (m.b && a[5]) {
        err_set(E_ValueError, "binary mode doesn't take a newline argument");
        goto out;
    }
    if (!m.b && buffering == 0) {
        err_set(E_ValueError, "can't have unbuffered text I/O");
        goto out;
    }
    if (a[3] && !IS_STR(a[3])) {
        err_format(E_TypeError, "open() argument 'encoding' must be str or None, not %s", type_name(a[3]));
        goto out;
    }
    if (a[4] && !IS_STR(a[4])) {
        err_format(E_TypeError, "open() argument 'errors' must be str or None, not %s", type_name(a[4]));
        goto out;
    }
    if (a[5]) {
        if (!IS_STR(a[5])) {
            err_format(E_TypeError, "open() argument 'newline' must be str or None, not %s", type_name(a[5]));
            goto out;
        }
        if (!str_eq_cstr(a[5], "") && !str_eq_cstr(a[5], "\n") && !str_eq_cstr(a[5], "\r") &&
            !str_eq_cstr(a[5], "\r\n")) {
            err_format(E_ValueError, "illegal newline value: %s", str_cstr(a[5]));
            goto out;
        }
    }
    if (a[4]) {
        /* an unknown error handler fails here, as CPython's lookup does */
        Obj *c = vm_roots(1);
        c[0] = a[4];
        Obj mod = vm_import_cstr("codecs");
        Obj le = mod ? vm_getattr_cstr(mod, "lookup_error") : NULL;
        Obj h = le ? vm_call(le, c, 1, NULL) : NULL;
        vm_unroots(c);
        if (!h)
            goto out;
    }
    char fmode[8];
    snprintf(fmode, sizeof fmode, "%s%s", m.r ? "r" : m.w ? "w" : m.a ? "a" : "x", m.plus ? "+" : "");
    Obj st = fileio_open(a[0], fmode, closefd, a[7]);
    if (!st)
        goto out;
    a[8] = st;
    a[9] = layer_new(T_FileIO, st);
    if (!a[9]) {
        close_state(a[8]);
        goto out;
    }
    bool tty = isatty((int)FO(a[8])->fd);
    if (buffering == 0) {
        if (io_ready() == 0)
            res = a[9];
        goto out;
    }
    int64_t rw = FO(a[8])->flags & (F_READ | F_WRITE);
    TypeObj *bt = m.plus ? T_BufferedRandom : m.r ? T_BufferedReader : T_BufferedWriter;
    Obj bv = view_new(a[8], rw | F_BINARY, NULL, a[9]);
    a[10] = bv ? layer_new(bt, bv) : NULL;
    if (!a[10])
        goto out;
    if (m.b) {
        res = a[10];
        goto out;
    }
    /* text */
    int64_t fl = 0;
    int can = text_flags(a[3], a[4], a[5], &fl);
    bool lb = buffering == 1 || (buffering < 0 && tty);
    if (can == 0) {
        Obj enc = a[3] && !str_eq_cstr(a[3], "locale") ? a[3] : str_from_cstr("UTF-8");
        Obj tv = enc ? view_new(a[8], rw | fl | (lb ? F_LINEBUF : 0), enc, a[10]) : NULL;
        a[11] = tv ? layer_new(T_TextIOWrapper, tv) : NULL;
    } else {
        Obj *c = vm_roots(6);
        c[0] = a[10];
        c[1] = a[3] ? a[3] : g_None;
        c[2] = a[4] ? a[4] : g_None;
        c[3] = a[5] ? a[5] : g_None;
        c[4] = vm_bool(lb);
        a[11] = vm_call((Obj)T_TextIOWrapper, c, 5, NULL);
        vm_unroots(c);
    }
    if (!a[11])
        goto out;
    if (set_mode_attr(a[11], mode) < 0)
        goto out;
    res = a[11];
out:
    if (!res && a[8] && err_occurred()) {
        Obj *e = vm_roots(1);
        e[0] = err_fetch();
        close_state(a[8]);
        err_clear();
        err_set_obj(e[0]);
        vm_unroots(e);
    }
    vm_unroots(a);
    return res;
}

/* ------------------------------------------------------------------ */
/* The standard streams                                                */
/* ------------------------------------------------------------------ */

/* sys.stdin/stdout/stderr: a TextIOWrapper over a BufferedReader or
 * BufferedWriter over a FileIO, as CPython's; unbuffered (-u,
 * PYTHONUNBUFFERED), stdout and stderr wrap their FileIO directly. */
static Obj stdio_new(int fd, const char *name)
{
    Obj *r = vm_roots(7);
    Obj res = NULL;
    bool in = fd == 0;
    r[0] = str_from_cstr(name);
    r[1] = r[0] ? str_from_cstr(in ? "rb" : "wb") : NULL;
    r[2] = r[1] ? str_from_cstr("utf-8") : NULL;
    if (!r[2])
        goto out;
    int64_t rw = in ? F_READ : F_WRITE;
    r[3] = file_alloc(fd, r[0], r[1], rw | F_RAW | F_BINARY | (fd ? F_STDIO : 0), NULL);
    r[4] = r[3] ? layer_new(T_FileIO, r[3]) : NULL;
    if (!r[4])
        goto out;
    if (sys_cflags.unbuffered && !in) {
        r[5] = r[4];
    } else {
        Obj bv = view_new(r[3], rw | F_BINARY, NULL, r[4]);
        r[5] = bv ? layer_new(in ? T_BufferedReader : T_BufferedWriter, bv) : NULL;
        if (!r[5])
            goto out;
    }
    /* text: newline='\n' as CPython's standard streams (no translation) */
    int64_t fl = rw | F_EXPLICIT_ENC;
    if (fd == 2 || (!in && isatty(fd)))
        fl |= F_LINEBUF;
    if (!in && sys_cflags.unbuffered)
        fl |= F_UNBUF | F_WTHROUGH;   /* -u, PYTHONUNBUFFERED */
    /* CPython's standard streams: stderr backslashreplace; stdin and stdout
     * surrogateescape in the C and POSIX locales and in C.UTF-8 (a locale
     * coercion target) or with PYTHONUTF8=1, else strict. */
    if (fd == 2)
        fl |= (int64_t)ERRH_BACKSLASHREPLACE << F_ERR_SHIFT;
    else if (stdio_locale_escapes())
        fl |= (int64_t)ERRH_SURROGATEESCAPE << F_ERR_SHIFT;
    Obj tv = view_new(r[3], fl, r[2], r[5]);
    r[6] = tv ? layer_new(T_TextIOWrapper, tv) : NULL;
    if (!r[6])
        goto out;
    if (set_mode_attr(r[6], in ? "r" : "w") < 0)
        goto out;
    res = r[6];
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* Types                                                               */
/* ------------------------------------------------------------------ */

static const MethodDef common_methods[] = {
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
    {"detach", m_detach, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef read_methods[] = {
    {"read", m_read, METH_KW, NULL},
    {"readline", m_readline, METH_KW, NULL},
    {"readlines", m_readlines, METH_KW, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef buffered_read_methods[] = {
    {"read1", buf_m_read1, METH_KW, NULL},
    {"peek", buf_m_peek, METH_ARGS(0, 1), NULL},
    {"readinto", buf_m_readinto, METH_O, NULL},
    {"readinto1", buf_m_readinto1, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef write_methods[] = {
    {"write", m_write, METH_O, NULL},
    {"writelines", m_writelines, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef text_methods[] = {
    {"reconfigure", text_m_reconfigure, METH_KW, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef fileio_methods[] = {
    {"read", raw_m_read, METH_KW, NULL},
    {"readall", raw_m_readall, METH_NOARGS, NULL},
    {"readinto", raw_m_readinto, METH_O, NULL},
    {"write", raw_m_write, METH_O, NULL},
    {"close", raw_m_close, METH_NOARGS, NULL},
    {"fileno", m_fileno, METH_NOARGS, NULL},
    {"isatty", m_isatty, METH_NOARGS, NULL},
    {"readable", m_readable, METH_NOARGS, NULL},
    {"writable", m_writable, METH_NOARGS, NULL},
    {"seekable", m_seekable, METH_NOARGS, NULL},
    {"seek", m_seek, METH_KW, NULL},
    {"tell", m_tell, METH_NOARGS, NULL},
    {"truncate", m_truncate, METH_KW, NULL},
    {NULL, NULL, 0, NULL},
};

static TypeObj *io_type(const char *name, TypeObj *base)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, base, TID_INSTANCE, TPF_BASETYPE | TPF_HAS_DICT | TPF_WEAKREFABLE);
    VM_WRITE(t);
    t->tp_new = io_tp_new;
    return t;
}

void file_init_type(void)
{
    T_file = (TypeObj *)type_new_builtin("_io._FileEngine", T_object, TID_FILE, 0);
    type_ready(T_file);

    T_IOBase = io_type("_io._IOBase", T_object);
    T_IOBase->tp_iter = layer_iter;
    T_IOBase->tp_iternext = layer_iternext;
    type_add_getset(T_IOBase, "__dict__", vm_getset_dict_get, vm_getset_dict_set);
    type_ready(T_IOBase);
    T_RawIOBase = io_type("_io._RawIOBase", T_IOBase);
    type_ready(T_RawIOBase);
    T_BufferedIOBase = io_type("_io._BufferedIOBase", T_IOBase);
    type_ready(T_BufferedIOBase);
    T_TextIOBase = io_type("_io._TextIOBase", T_IOBase);
    type_ready(T_TextIOBase);

    T_FileIO = io_type("_io.FileIO", T_RawIOBase);
    T_FileIO->tp_init = fileio_init;
    T_FileIO->tp_repr = raw_repr;
    type_add_methods(T_FileIO, fileio_methods);
    type_add_getset(T_FileIO, "closed", g_closed, NULL);
    type_add_getset(T_FileIO, "closefd", g_closefd, NULL);
    type_add_getset(T_FileIO, "name", g_name, s_name);
    type_add_getset(T_FileIO, "mode", g_mode, NULL);
    type_ready(T_FileIO);

    TypeObj **bts[] = {&T_BufferedReader, &T_BufferedWriter, &T_BufferedRandom};
    const char *bnames[] = {"_io.BufferedReader", "_io.BufferedWriter", "_io.BufferedRandom"};
    for (int i = 0; i < 3; i++) {
        TypeObj *t = *bts[i] = io_type(bnames[i], T_BufferedIOBase);
        t->tp_init = buffered_init;
        t->tp_repr = buffered_repr;
        t->tp_iternext = layer_iternext;
        type_add_methods(t, common_methods);
        if (i != 1) {
            type_add_methods(t, read_methods);
            type_add_methods(t, buffered_read_methods);
        }
        if (i != 0)
            type_add_methods(t, write_methods);
        type_add_getset(t, "raw", g_lower, NULL);
        type_add_getset(t, "closed", g_closed, NULL);
        type_add_getset(t, "name", g_name, NULL);
        type_add_getset(t, "mode", g_mode, NULL);
        type_ready(t);
    }

    T_TextIOWrapper = io_type("_io.TextIOWrapper", T_TextIOBase);
    T_TextIOWrapper->tp_init = text_init;
    T_TextIOWrapper->tp_repr = text_repr;
    T_TextIOWrapper->tp_iternext = layer_iternext;
    type_add_methods(T_TextIOWrapper, common_methods);
    type_add_methods(T_TextIOWrapper, read_methods);
    type_add_methods(T_TextIOWrapper, write_methods);
    type_add_methods(T_TextIOWrapper, text_methods);
    type_add_getset(T_TextIOWrapper, "buffer", g_lower, NULL);
    type_add_getset(T_TextIOWrapper, "closed", g_closed, NULL);
    type_add_getset(T_TextIOWrapper, "name", g_name, NULL);
    type_add_getset(T_TextIOWrapper, "encoding", g_encoding, NULL);
    type_add_getset(T_TextIOWrapper, "errors", g_errors, NULL);
    type_add_getset(T_TextIOWrapper, "newlines", g_newlines, NULL);
    type_add_getset(T_TextIOWrapper, "line_buffering", g_line_buffering, NULL);
    type_add_getset(T_TextIOWrapper, "write_through", g_write_through, NULL);
    type_ready(T_TextIOWrapper);

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
    /* a standard stream whose fd is closed is None, as in CPython */
    bool ok0 = valid_fd(0) && !(file_closed_std_fds & 1);
    bool ok1 = valid_fd(1) && !(file_closed_std_fds & 2);
    bool ok2 = valid_fd(2) && !(file_closed_std_fds & 4);
    g_sys_stdin = ok0 ? stdio_new(0, "<stdin>") : g_None;
    g_sys_stdout = ok1 ? stdio_new(1, "<stdout>") : g_None;
    g_sys_stderr = ok2 ? stdio_new(2, "<stderr>") : g_None;
    if (!g_sys_stdin || !g_sys_stdout || !g_sys_stderr) {
        fputs("tmpy: fatal: cannot make the standard streams\n", stderr);
        exit(1);
    }
}
