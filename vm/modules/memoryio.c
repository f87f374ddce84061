/* In-memory streams: io.StringIO and io.BytesIO (the _io module gives
 * them to lib/io.py), written from the io module's documentation.
 *
 * Both are IterObj (TID_ITER, cls set), wrapped for Python subclasses by
 * container_wrap_for_type; methods unwrap self first.
 * StringIO: a = the text (a str), b = a list of chunks written at the end
 * since (joined into a when anything else needs the text), i = position,
 * n = length, both in code points; kind = SIO_* flags and newline mode.
 * BytesIO: a = a bytearray holding the bytes, i = position; kind = closed. */
#include "objects/objects.h"
#include "objects/containers.h"
#include "objects/strobj.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TypeObj *T_StringIO, *T_BytesIO;

enum {
    IO_CLOSED = 1,
    /* StringIO newline modes (bits 1-3) */
    NL_SHIFT = 1, NL_MASK = 7 << 1,
    NL_LF = 0, NL_UNIVERSAL = 1 /* None */, NL_UNTRANSLATED = 2 /* '' */, NL_CR = 3, NL_CRLF = 4,
    /* newline kinds seen in universal mode (newlines attribute) */
    SEEN_CR = 1 << 4, SEEN_LF = 1 << 5, SEEN_CRLF = 1 << 6,
};

static Obj check_self(Obj self, TypeObj *t)
{
    Obj s = vm_unwrap(self);
    if (TID(s) != TID_ITER || ITER(s)->cls != (Obj)t) {
        err_format(E_TypeError, "descriptor requires a '_io.%s' object but received a '%s'",
                   type_name_of_type(t), type_name(self));
        return NULL;
    }
    return s;
}

/* The object, or NULL with ValueError when it is closed (msg: CPython's,
 * with or without the final period as the method has it). */
static Obj open_self(Obj self, TypeObj *t, bool period)
{
    Obj s = check_self(self, t);
    if (s && (ITER(s)->kind & IO_CLOSED)) {
        err_set(E_ValueError, period ? "I/O operation on closed file." : "I/O operation on closed file");
        return NULL;
    }
    return s;
}

/* An optional size argument: None or absent is -1. */
static int size_arg(Obj v, int64_t *out)
{
    *out = -1;
    if (!v || IS_NONE(v))
        return 0;
    if (!IS_INT(vm_unwrap(v)) && !vm_lookup_special(v, "__index__")) {
        err_format(E_TypeError, "argument should be integer or None, not '%s'", type_name(v));
        return -1;
    }
    return vm_index_i64(v, out);
}

static Obj slice_of(Obj seq, int64_t start, int64_t stop)
{
    Obj *r = vm_roots(1);
    r[0] = seq;
    Obj res = NULL;
    Obj sl = slice_new(MAKE_SMALLINT(start), MAKE_SMALLINT(stop), g_None);
    if (sl)
        res = vm_getitem(r[0], sl);
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* StringIO                                                            */
/* ------------------------------------------------------------------ */

static int nl_mode(Obj s)
{
    return (int)((ITER(s)->kind & NL_MASK) >> NL_SHIFT);
}

/* Joins the chunks written at the end into the text. */
static int sio_settle(Obj s)
{
    Obj chunks = ITER(s)->b;
    if (!chunks || LIST_LEN(chunks) == 0)
        return 0;
    Obj *r = vm_roots(2);
    int res = -1;
    r[0] = s;
    r[1] = list_new_capacity(LIST_LEN(chunks) + 1);
    if (!r[1] || list_append(r[1], ITER(r[0])->a) < 0 || list_extend(r[1], ITER(r[0])->b) < 0)
        goto out;
    r[1] = str_join(g_empty_str, r[1]);
    if (!r[1])
        goto out;
    VM_WRITE(r[0]);
    ITER(r[0])->a = r[1];
    list_clear(ITER(r[0])->b);
    res = 0;
out:
    vm_unroots(r);
    return res;
}

static Obj str_replace_cstr(Obj s, const char *old, const char *new)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = s;
    r[1] = str_from_cstr(old);
    r[2] = r[1] ? str_from_cstr(new) : NULL;
    if (r[2])
        res = vm_call_method(r[0], "replace", r + 1, 2);
    vm_unroots(r);
    return res;
}

/* Text as written: universal mode turns \r\n and \r into \n (noting the
 * kinds seen), \r and \r\n modes turn \n into their newline. */
static Obj sio_translate(Obj s, Obj text)
{
    int mode = nl_mode(s);
    const char *p = str_cstr(text);
    if (mode == NL_UNIVERSAL) {
        if (!strchr(p, '\r')) {
            if (strchr(p, '\n')) {
                VM_WRITE(s);
                ITER(s)->kind |= SEEN_LF;
            }
            return text;
        }
        int64_t seen = 0;
        size_t n = (size_t)STR(text)->nbytes;
        for (size_t k = 0; k < n; k++) {
            if (p[k] == '\r') {
                if (k + 1 < n && p[k + 1] == '\n') {
                    seen |= SEEN_CRLF;
                    k++;
                } else {
                    seen |= SEEN_CR;
                }
            } else if (p[k] == '\n') {
                seen |= SEEN_LF;
            }
        }
        VM_WRITE(s);
        ITER(s)->kind |= seen;
        Obj *r = vm_roots(1);
        r[0] = str_replace_cstr(text, "\r\n", "\n");
        Obj res = r[0] ? str_replace_cstr(r[0], "\r", "\n") : NULL;
        vm_unroots(r);
        return res;
    }
    if ((mode == NL_CR || mode == NL_CRLF) && strchr(p, '\n'))
        return str_replace_cstr(text, "\n", mode == NL_CR ? "\r" : "\r\n");
    return text;
}

/* write(s): at the end, a chunk; elsewhere the text is rebuilt (past the
 * end, the gap is NULs). Returns the length of s as given. */
static Obj sio_write_str(Obj s, Obj text)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = s;
    int64_t given = str_len(text);
    r[1] = sio_translate(r[0], text);
    if (!r[1])
        goto out;
    int64_t len = str_len(r[1]);
    int64_t pos = ITER(r[0])->i, n = ITER(r[0])->n;
    if (len == 0) {
        res = int_from_i64(given);
        goto out;
    }
    if (pos == n) {
        if (list_append(ITER(r[0])->b, r[1]) < 0)
            goto out;
    } else {
        if (sio_settle(r[0]) < 0)
            goto out;
        if (pos > n) {
            StrBuf b;
            sb_init(&b);
            sb_add_repeat(&b, "\0", 1, pos - n);
            r[2] = sb_finish(&b);
            if (!r[2] || !(r[2] = str_concat(ITER(r[0])->a, r[2])))
                goto out;
        } else {
            r[2] = slice_of(ITER(r[0])->a, 0, pos);
            if (!r[2])
                goto out;
        }
        r[3] = pos + len < n ? slice_of(ITER(r[0])->a, pos + len, n) : g_empty_str;
        if (!r[3] || !(r[2] = str_concat(r[2], r[1])) || !(r[2] = str_concat(r[2], r[3])))
            goto out;
        VM_WRITE(r[0]);
        ITER(r[0])->a = r[2];
    }
    VM_WRITE(r[0]);
    ITER(r[0])->i = pos + len;
    if (pos + len > n)
        ITER(r[0])->n = pos + len;
    res = int_from_i64(given);
out:
    vm_unroots(r);
    return res;
}

static Obj sio_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = list_new_capacity(4);
    r[1] = r[0] ? iter_alloc(T_StringIO, g_empty_str, 0) : NULL;
    if (r[1]) {
        ITER(r[1])->b = r[0];
        res = container_wrap_for_type(T_StringIO, type, r[1]);
    }
    vm_unroots(r);
    return res;
}

static int sio_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"initial_value", "newline", NULL};
    Obj *a = vm_roots(3);
    int rc = -1;
    a[2] = self;
    if (vm_parse_args("StringIO", args, nargs, kwnames, names, 0, 2, a) < 0)
        goto out;
    Obj s = check_self(a[2], T_StringIO);
    if (!s)
        goto out;
    int mode = NL_LF;
    if (a[1] && !IS_NONE(a[1])) {
        if (!IS_STR(a[1])) {
            err_format(E_TypeError, "newline must be str or None, not %s", type_name(a[1]));
            goto out;
        }
        const char *nl = str_cstr(a[1]);
        if (!strcmp(nl, "\n")) mode = NL_LF;
        else if (!strcmp(nl, "")) mode = NL_UNTRANSLATED;
        else if (!strcmp(nl, "\r")) mode = NL_CR;
        else if (!strcmp(nl, "\r\n")) mode = NL_CRLF;
        else {
            Obj rep = vm_repr(a[1]);
            if (rep)
                err_format(E_ValueError, "illegal newline value: %s", str_cstr(rep));
            goto out;
        }
    } else if (a[1]) {
        mode = NL_UNIVERSAL;
    }
    if (a[0] && !IS_NONE(a[0]) && !IS_STR(vm_unwrap(a[0]))) {
        err_format(E_TypeError, "initial_value must be str or None, not %s", type_name(a[0]));
        goto out;
    }
    s = vm_unwrap(a[2]);
    VM_WRITE(s);
    ITER(s)->a = g_empty_str;
    ITER(s)->i = ITER(s)->n = 0;
    ITER(s)->kind = (int64_t)mode << NL_SHIFT;
    list_clear(ITER(s)->b);
    if (a[0] && !IS_NONE(a[0]) && str_len(vm_unwrap(a[0])) > 0) {
        if (!sio_write_str(s, vm_unwrap(a[0])))
            goto out;
        s = vm_unwrap(a[2]);
        VM_WRITE(s);
        ITER(s)->i = 0;
    }
    rc = 0;
out:
    vm_unroots(a);
    return rc;
}

static Obj sio_write(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = open_self(args[0], T_StringIO, false);
    if (!s)
        return NULL;
    if (!IS_STR(vm_unwrap(args[1]))) {
        err_format(E_TypeError, "string argument expected, got '%s'", type_name(args[1]));
        return NULL;
    }
    return sio_write_str(s, vm_unwrap(args[1]));
}

static Obj sio_getvalue(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = open_self(args[0], T_StringIO, false);
    if (!s || sio_settle(s) < 0)
        return NULL;
    return ITER(vm_unwrap(args[0]))->a;
}

/* The text from the position to `end` (clamped), moving the position. */
static Obj sio_take(Obj s, int64_t end)
{
    Obj *r = vm_roots(1);
    r[0] = s;
    Obj res = NULL;
    int64_t pos = ITER(r[0])->i, n = ITER(r[0])->n;
    if (end > n)
        end = n;
    if (pos >= end) {
        res = g_empty_str;
        goto out;
    }
    if (sio_settle(r[0]) < 0)
        goto out;
    res = pos == 0 && end == n ? ITER(r[0])->a : slice_of(ITER(r[0])->a, pos, end);
    if (res) {
        VM_WRITE(r[0]);
        ITER(r[0])->i = end;
    }
out:
    vm_unroots(r);
    return res;
}

/* Index just past the line that starts at the position (newline mode). */
static int sio_line_end(Obj s, int64_t *end)
{
    Obj *r = vm_roots(3);
    int res = -1;
    r[0] = s;
    int64_t pos = ITER(r[0])->i, n = ITER(r[0])->n;
    *end = n;
    if (pos >= n || sio_settle(r[0]) < 0) {
        res = pos >= n ? 0 : -1;
        goto out;
    }
    int mode = nl_mode(r[0]);
    const char *seps[2] = {mode == NL_CR ? "\r" : mode == NL_CRLF ? "\r\n" : "\n", mode == NL_UNTRANSLATED ? "\r" : NULL};
    for (int k = 0; k < 2 && seps[k]; k++) {
        r[1] = str_from_cstr(seps[k]);
        r[2] = r[1] ? MAKE_SMALLINT(pos) : NULL;
        if (!r[2])
            goto out;
        Obj found = vm_call_method(ITER(r[0])->a, "find", r + 1, 2);
        int64_t at;
        if (!found || vm_index_i64(found, &at) < 0)
            goto out;
        if (at >= 0) {
            int64_t e = at + (int64_t)strlen(seps[k]);
            if (k == 1 && e < n) {
                /* '' mode: \r\n is one line end */
                Obj nx = slice_of(ITER(r[0])->a, e, e + 1);
                if (!nx)
                    goto out;
                if (str_eq_cstr(nx, "\n"))
                    e++;
            }
            if (e < *end)
                *end = e;
        }
    }
    res = 0;
out:
    vm_unroots(r);
    return res;
}

static Obj sio_readline_impl(Obj s, int64_t size)
{
    Obj *r = vm_roots(1);
    r[0] = s;
    Obj res = NULL;
    int64_t end;
    if (sio_line_end(r[0], &end) == 0) {
        if (size >= 0 && ITER(r[0])->i + size < end)
            end = ITER(r[0])->i + size;
        res = sio_take(r[0], end);
    }
    vm_unroots(r);
    return res;
}

/* Cuts the text to size (less than its length). */
static int sio_cut(Obj s, int64_t size)
{
    Obj *r = vm_roots(1);
    int rc = -1;
    r[0] = s;
    if (sio_settle(r[0]) < 0)
        goto out;
    Obj t = slice_of(ITER(r[0])->a, 0, size);
    if (!t)
        goto out;
    VM_WRITE(r[0]);
    ITER(r[0])->a = t;
    ITER(r[0])->n = size;
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* ------------------------------------------------------------------ */
/* BytesIO                                                             */
/* ------------------------------------------------------------------ */

static Obj bio_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = bytearray_new("", 0);
    Obj it = r[0] ? iter_alloc(T_BytesIO, r[0], 0) : NULL;
    if (it)
        res = container_wrap_for_type(T_BytesIO, type, it);
    vm_unroots(r);
    return res;
}

static int bio_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"initial_bytes", NULL};
    Obj *a = vm_roots(2);
    int rc = -1;
    a[1] = self;
    if (vm_parse_args("BytesIO", args, nargs, kwnames, names, 0, 1, a) < 0)
        goto out;
    if (!check_self(a[1], T_BytesIO))
        goto out;
    const char *p = "";
    int64_t n = 0;
    if (a[0] && !IS_NONE(a[0]) && !bytes_like_arg(a[0], &p, &n))
        goto out;
    Obj ba = bytearray_new(p, (size_t)n);
    if (!ba)
        goto out;
    Obj s = vm_unwrap(a[1]);
    VM_WRITE(s);
    ITER(s)->a = ba;
    ITER(s)->i = 0;
    ITER(s)->kind = 0;
    rc = 0;
out:
    vm_unroots(a);
    return rc;
}

static int64_t bio_len(Obj s)
{
    return BYTEARRAY(ITER(s)->a)->length;
}

static Obj bio_getvalue(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = open_self(args[0], T_BytesIO, true);
    if (!s)
        return NULL;
    const char *p;
    int64_t n;
    bytes_like(ITER(s)->a, &p, &n);
    return bytes_new(p, (size_t)n);
}

static Obj bio_getbuffer(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = open_self(args[0], T_BytesIO, true);
    return s ? vm_call1((Obj)T_memoryview, ITER(s)->a) : NULL;
}

/* The bytes from the position to `end` (clamped), moving the position. */
static Obj bio_take(Obj s, int64_t end)
{
    int64_t pos = ITER(s)->i, n = bio_len(s);
    if (end > n)
        end = n;
    if (pos >= end)
        return bytes_new("", 0);
    const char *p;
    int64_t len;
    bytes_like(ITER(s)->a, &p, &len);
    Obj *r = vm_roots(1);
    r[0] = s;
    Obj res = bytes_new(p + pos, (size_t)(end - pos));   /* copies before allocating */
    if (res) {
        VM_WRITE(r[0]);
        ITER(r[0])->i = end;
    }
    vm_unroots(r);
    return res;
}

static Obj bio_readline_impl(Obj s, int64_t size)
{
    int64_t pos = ITER(s)->i, n = bio_len(s), end = n;
    if (pos < n) {
        const char *p;
        int64_t len;
        bytes_like(ITER(s)->a, &p, &len);
        const char *nl = memchr(p + pos, '\n', (size_t)(n - pos));
        if (nl)
            end = nl - p + 1;
    }
    if (size >= 0 && pos + size < end)
        end = pos + size;
    return bio_take(s, end);
}

/* readinto(buffer): bytes read into a bytearray; their count. */
static Obj bio_readinto(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = open_self(args[0], T_BytesIO, true);
    if (!s)
        return NULL;
    Obj target = vm_unwrap(args[1]);
    if (TID(target) != TID_BYTEARRAY) {
        if (TYPE(args[1]) == T_memoryview)
            err_set(E_NotImplementedError, "readinto() a memoryview is not built in tmpy yet");
        else
            err_format(E_TypeError, "readinto() argument must be read-write bytes-like object, not %s",
                       type_name(args[1]));
        return NULL;
    }
    int64_t want = BYTEARRAY(target)->length, pos = ITER(s)->i, n = bio_len(s);
    int64_t k = pos < n ? (n - pos < want ? n - pos : want) : 0;
    if (k > 0) {
        const char *p;
        int64_t len;
        bytes_like(ITER(s)->a, &p, &len);
        Obj raw = BYTEARRAY(target)->raw;
        VM_WRITE(raw);
        memmove(VM_LINEAR((RAW(raw))->data + BYTEARRAY(target)->start), p + pos, (size_t)k);
        VM_WRITE(s);
        ITER(s)->i = pos + k;
    }
    return int_from_i64(k);
}

static Obj bio_write(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = open_self(args[0], T_BytesIO, true);
    if (!s)
        return NULL;
    const char *p;
    int64_t len;
    if (!bytes_like_arg(args[1], &p, &len))
        return NULL;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = s;
    r[1] = bytes_new(p, (size_t)len);   /* a copy: writing may resize what args[1] views */
    if (!r[1])
        goto out;
    int64_t pos = ITER(r[0])->i, n = bio_len(r[0]);
    if (len > 0) {
        if (pos > n) {
            r[2] = bytes_alloc(pos - n);   /* the gap: NULs */
            if (!r[2] || !vm_call_method(ITER(r[0])->a, "extend", r + 2, 1))
                goto out;
            n = pos;
        }
        Obj sl = slice_new(MAKE_SMALLINT(pos), MAKE_SMALLINT(pos + len < n ? pos + len : n), g_None);
        if (!sl || vm_setitem(ITER(r[0])->a, sl, r[1]) < 0)
            goto out;
        VM_WRITE(r[0]);
        ITER(r[0])->i = pos + len;
    }
    res = int_from_i64(len);
out:
    vm_unroots(r);
    return res;
}

/* Cuts the bytes to size (less than their length). */
static int bio_cut(Obj s, int64_t size)
{
    Obj *r = vm_roots(1);
    r[0] = s;
    Obj sl = slice_new(MAKE_SMALLINT(size), g_None, g_None);
    int rc = sl ? vm_delitem(ITER(r[0])->a, sl) : -1;
    vm_unroots(r);
    return rc;
}

/* ------------------------------------------------------------------ */
/* What both have                                                      */
/* ------------------------------------------------------------------ */

static TypeObj *type_of(Obj self)
{
    Obj s = vm_unwrap(self);
    if (TID(s) == TID_ITER && ITER(s)->cls == (Obj)T_BytesIO)
        return T_BytesIO;
    return T_StringIO;
}

/* The object open, its type in *t (the closed message has a period for
 * BytesIO's own methods). */
static Obj open_typed(Obj self, TypeObj **t)
{
    *t = type_of(self);
    return open_self(self, *t, *t == T_BytesIO);
}

static int64_t mio_len(Obj s, TypeObj *t)
{
    return t == T_BytesIO ? bio_len(s) : ITER(s)->n;
}

/* The length of what read or readline gave. */
static int64_t item_len(Obj v, TypeObj *t)
{
    return t == T_BytesIO ? BYTES(v)->length : str_len(v);
}

static Obj mio_take(Obj s, TypeObj *t, int64_t end)
{
    return t == T_BytesIO ? bio_take(s, end) : sio_take(s, end);
}

static Obj mio_readline_impl(Obj s, TypeObj *t, int64_t size)
{
    return t == T_BytesIO ? bio_readline_impl(s, size) : sio_readline_impl(s, size);
}

/* read(size=-1), also BytesIO's read1 */
static Obj mio_read(Obj *args, size_t nargs, Obj kwnames)
{
    TypeObj *t;
    int64_t size;
    if (!open_typed(args[0], &t) || size_arg(nargs > 1 ? args[1] : NULL, &size) < 0)
        return NULL;
    Obj s = vm_unwrap(args[0]);
    return mio_take(s, t, size < 0 ? mio_len(s, t) : ITER(s)->i + size);
}

static Obj mio_readline(Obj *args, size_t nargs, Obj kwnames)
{
    TypeObj *t;
    int64_t size;
    if (!open_typed(args[0], &t) || size_arg(nargs > 1 ? args[1] : NULL, &size) < 0)
        return NULL;
    return mio_readline_impl(vm_unwrap(args[0]), t, size);
}

static Obj mio_next(Obj self)
{
    TypeObj *t;
    Obj s = open_typed(self, &t);
    if (!s)
        return NULL;
    Obj line = mio_readline_impl(s, t, -1);
    if (!line || item_len(line, t) == 0)
        return NULL;   /* exhausted (or the error) */
    return line;
}

static Obj mio_tell(Obj *args, size_t nargs, Obj kwnames)
{
    TypeObj *t;
    Obj s = open_typed(args[0], &t);
    return s ? int_from_i64(ITER(s)->i) : NULL;
}

/* seek(pos, whence=0): StringIO takes only zero offsets from the current
 * position or the end; the messages differ in case as CPython's do. */
static Obj mio_seek(Obj *args, size_t nargs, Obj kwnames)
{
    TypeObj *t;
    int64_t pos, whence = 0;
    if (!open_typed(args[0], &t) || vm_index_i64(args[1], &pos) < 0 ||
        (nargs > 2 && vm_index_i64(args[2], &whence) < 0))
        return NULL;
    Obj s = vm_unwrap(args[0]);
    bool text = t == T_StringIO;
    if (whence < 0 || whence > 2) {
        err_format(E_ValueError, text ? "Invalid whence (%lld, should be 0, 1 or 2)"
                                      : "invalid whence (%lld, should be 0, 1 or 2)", (long long)whence);
        return NULL;
    }
    if (whence == 0 && pos < 0) {
        err_format(E_ValueError, text ? "Negative seek position %lld" : "negative seek value %lld", (long long)pos);
        return NULL;
    }
    if (text && whence != 0 && pos != 0) {
        err_set(E_OSError, "Can't do nonzero cur-relative seeks");   /* CPython's words, for the end too */
        return NULL;
    }
    if (whence == 1)
        pos += ITER(s)->i;
    else if (whence == 2)
        pos += mio_len(s, t);
    if (pos < 0)
        pos = 0;
    VM_WRITE(s);
    ITER(s)->i = pos;
    return int_from_i64(pos);
}

/* truncate(size=None): None is the position. */
static Obj mio_truncate(Obj *args, size_t nargs, Obj kwnames)
{
    TypeObj *t;
    int64_t size;
    if (!open_typed(args[0], &t) || size_arg(nargs > 1 ? args[1] : NULL, &size) < 0)
        return NULL;
    Obj s = vm_unwrap(args[0]);
    if (nargs < 2 || IS_NONE(args[1]))
        size = ITER(s)->i;
    if (size < 0) {
        err_format(E_ValueError, t == T_BytesIO ? "negative size value %lld" : "Negative size value %lld",
                   (long long)size);
        return NULL;
    }
    if (size < mio_len(s, t) && (t == T_BytesIO ? bio_cut(s, size) : sio_cut(s, size)) < 0)
        return NULL;
    return int_from_i64(size);
}

static Obj mio_close(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = check_self(args[0], type_of(args[0]));
    if (!s)
        return NULL;
    VM_WRITE(s);
    ITER(s)->kind |= IO_CLOSED;
    return g_None;
}

static Obj mio_closed(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = check_self(args[0], type_of(args[0]));
    return s ? vm_bool(ITER(s)->kind & IO_CLOSED) : NULL;
}

/* readable, writable, seekable: True while open. */
static Obj mio_true(Obj *args, size_t nargs, Obj kwnames)
{
    TypeObj *t = type_of(args[0]);
    return open_self(args[0], t, t == T_BytesIO) ? g_True : NULL;
}

static Obj mio_isatty(Obj *args, size_t nargs, Obj kwnames)
{
    return open_self(args[0], type_of(args[0]), true) ? g_False : NULL;
}

static Obj mio_flush(Obj *args, size_t nargs, Obj kwnames)
{
    TypeObj *t = type_of(args[0]);
    if (t == T_BytesIO)
        return open_self(args[0], t, true) ? g_None : NULL;
    return check_self(args[0], t) ? g_None : NULL;
}

static Obj mio_enter(Obj *args, size_t nargs, Obj kwnames)
{
    return open_self(args[0], type_of(args[0]), true) ? args[0] : NULL;
}

/* __exit__(*exc_info): close; exceptions go on. */
static Obj mio_exit(Obj *args, size_t nargs, Obj kwnames)
{
    return mio_close(args, 1, NULL) ? g_None : NULL;
}

static Obj mio_unsupported(const char *what)
{
    Obj t = file_unsupported_operation();
    Obj *r = vm_roots(1);
    r[0] = str_from_cstr(what);
    if (r[0])
        err_set_value((TypeObj *)t, r[0]);
    vm_unroots(r);
    return NULL;
}

static Obj mio_fileno(Obj *args, size_t nargs, Obj kwnames)
{
    if (!check_self(args[0], type_of(args[0])))
        return NULL;
    return mio_unsupported("fileno");
}

static Obj mio_detach(Obj *args, size_t nargs, Obj kwnames)
{
    if (!check_self(args[0], type_of(args[0])))
        return NULL;
    return mio_unsupported("detach");
}

/* readlines(hint=-1): lines until the end, or until their total length
 * reaches hint. Like writelines, IOBase's in CPython: its closed message. */
static Obj mio_readlines(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t hint;
    TypeObj *t = type_of(args[0]);
    if (!open_self(args[0], t, true) || size_arg(nargs > 1 ? args[1] : NULL, &hint) < 0)
        return NULL;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = vm_unwrap(args[0]);
    r[1] = list_new_capacity(8);
    if (!r[1])
        goto out;
    int64_t total = 0;
    for (;;) {
        r[2] = mio_readline_impl(r[0], t, -1);
        if (!r[2])
            goto out;
        int64_t len = item_len(r[2], t);
        if (len == 0)
            break;
        if (list_append(r[1], r[2]) < 0)
            goto out;
        total += len;
        if (hint > 0 && total >= hint)
            break;
    }
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

static Obj mio_writelines(Obj *args, size_t nargs, Obj kwnames)
{
    if (!open_self(args[0], type_of(args[0]), true))
        return NULL;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = vm_iter(args[1]);
    if (!r[1])
        goto out;
    for (;;) {
        r[2] = vm_next(r[1]);
        if (!r[2]) {
            if (err_occurred())
                goto out;
            break;
        }
        if (!vm_call_method(r[0], "write", r + 2, 1))
            goto out;
    }
    res = g_None;
out:
    vm_unroots(r);
    return res;
}

static Obj sio_newlines(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = open_self(args[0], T_StringIO, false);
    if (!s)
        return NULL;
    int64_t k = ITER(s)->kind;
    if (nl_mode(s) != NL_UNIVERSAL || !(k & (SEEN_CR | SEEN_LF | SEEN_CRLF)))
        return g_None;
    const char *kinds[3] = {"\r", "\n", "\r\n"};
    int64_t bits[3] = {SEEN_CR, SEEN_LF, SEEN_CRLF};
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = list_new_capacity(3);
    for (int i = 0; r[0] && i < 3; i++)
        if (k & bits[i]) {
            r[1] = str_from_cstr(kinds[i]);
            if (!r[1] || list_append(r[0], r[1]) < 0)
                goto out;
        }
    if (!r[0])
        goto out;
    res = LIST_LEN(r[0]) == 1 ? LIST_ITEMS(r[0])[0] : list_as_tuple(r[0]);
out:
    vm_unroots(r);
    return res;
}

static Obj sio_none_attr(Obj *args, size_t nargs, Obj kwnames)
{
    return g_None;
}

static Obj sio_line_buffering(Obj *args, size_t nargs, Obj kwnames)
{
    return open_self(args[0], T_StringIO, false) ? g_False : NULL;
}

static const MethodDef common_methods[] = {
    {"close", mio_close, METH_NOARGS, NULL},
    {"read", mio_read, METH_ARGS(0, 1), NULL},
    {"readline", mio_readline, METH_ARGS(0, 1), NULL},
    {"tell", mio_tell, METH_NOARGS, NULL},
    {"seek", mio_seek, METH_ARGS(1, 2), NULL},
    {"truncate", mio_truncate, METH_ARGS(0, 1), NULL},
    {"readable", mio_true, METH_NOARGS, NULL},
    {"writable", mio_true, METH_NOARGS, NULL},
    {"seekable", mio_true, METH_NOARGS, NULL},
    {"isatty", mio_isatty, METH_NOARGS, NULL},
    {"flush", mio_flush, METH_NOARGS, NULL},
    {"fileno", mio_fileno, METH_NOARGS, NULL},
    {"detach", mio_detach, METH_NOARGS, NULL},
    {"readlines", mio_readlines, METH_ARGS(0, 1), NULL},
    {"writelines", mio_writelines, METH_O, NULL},
    {"__enter__", mio_enter, METH_NOARGS, NULL},
    {"__exit__", mio_exit, 0, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef stringio_methods[] = {
    {"write", sio_write, METH_O, NULL},
    {"getvalue", sio_getvalue, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef bytesio_methods[] = {
    {"write", bio_write, METH_O, NULL},
    {"getvalue", bio_getvalue, METH_NOARGS, NULL},
    {"getbuffer", bio_getbuffer, METH_NOARGS, NULL},
    {"read1", mio_read, METH_ARGS(0, 1), NULL},
    {"readinto", bio_readinto, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static TypeObj *make_type(const char *name, newfunc tp_new, initfunc tp_init, const MethodDef *methods)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_ITER, TPF_BASETYPE | TPF_ITER_VALUE | TPF_WEAKREFABLE);
    VM_WRITE_RARE(t);
    t->tp_new = tp_new;
    t->tp_init = tp_init;
    t->tp_iter = iter_self;
    t->tp_iternext = mio_next;
    type_add_methods(t, methods);
    type_add_methods(t, common_methods);
    type_add_getset(t, "closed", mio_closed, NULL);
    return t;
}

void memoryio_init_types(void)
{
    T_StringIO = make_type("_io.StringIO", sio_new, sio_init, stringio_methods);
    type_add_getset(T_StringIO, "newlines", sio_newlines, NULL);
    type_add_getset(T_StringIO, "line_buffering", sio_line_buffering, NULL);
    type_add_getset(T_StringIO, "encoding", sio_none_attr, NULL);
    type_add_getset(T_StringIO, "errors", sio_none_attr, NULL);
    T_BytesIO = make_type("_io.BytesIO", bio_new, bio_init, bytesio_methods);
    type_ready(T_StringIO);
    type_ready(T_BytesIO);
}
