/* Codec error handlers (PEP 293): their registry (codecs.register_error,
 * lookup_error; _codecs fills in the built-in ones) and calling one from a
 * C codec as CPython's codecs do: the handler named by the errors argument
 * gets a UnicodeDecodeError or UnicodeEncodeError (encoding, object,
 * start, end, reason) and returns (replacement, position to go on at).
 * strict, ignore and replace are done here without a call (the codecs
 * keep their own fast paths for the other built-in names too); any other
 * name, a handler registered with codecs.register_error included, is
 * looked up in the registry and called. Here, in the objects layer, since
 * str.encode and bytes.decode (bytes.c) call handlers as _codecs' UTF-7 and
 * CJK codecs do. */
#include "objects/objects.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* name -> handler; a global root made at start-up and never rebound */
static Obj g_codec_errors;

void codec_errors_init(void)
{
    VM_GLOBAL_ROOT(g_codec_errors);
    g_codec_errors = dict_new();
    if (!g_codec_errors) {
        fputs("tmpy: fatal: out of memory at start-up\n", stderr);
        exit(1);
    }
}

Obj codec_errors_registry(void)
{
    return g_codec_errors;
}

/* The handler registered under name; NULL with LookupError "unknown error
 * handler name '...'". */
static Obj codecs_error_handler(const char *name)
{
    Obj h = dict_getitem_cstr(g_codec_errors, name);
    if (!h && !err_occurred() && !dict_getitem_cstr(g_codec_errors, "strict") && !err_occurred()) {
        /* the built-in handlers are registered when _codecs is first imported */
        char buf[256];
        snprintf(buf, sizeof buf, "%s", name);   /* name may point into a str the import moves */
        if (!vm_import_cstr("_codecs"))
            return NULL;
        h = dict_getitem_cstr(g_codec_errors, buf);
        name = buf;
        if (!h && !err_occurred())
            err_format(E_LookupError, "unknown error handler name '%s'", name);
        return h;
    }
    if (!h && !err_occurred())
        err_format(E_LookupError, "unknown error handler name '%s'", name);
    return h;
}

int codecs_errors_arg(const char *fname, int argno, Obj e, char *buf, size_t cap, const char **out)
{
    *out = NULL;
    if (!e || IS_NONE(e))
        return 0;
    if (!IS_STR(e)) {
        if (argno)
            err_format(E_TypeError, "%s() argument %d must be str or None, not %s", fname, argno, type_name(e));
        else
            err_format(E_TypeError, "%s() argument 'errors' must be str or None, not %s", fname, type_name(e));
        return -1;
    }
    const char *s = str_cstr(e);
    size_t n = strlen(s);
    if (n >= cap || (int64_t)n != STR(e)->nbytes) {
        /* too long to be a handler's name here, or an embedded NUL: looked up as given */
        err_format(E_LookupError, "unknown error handler name '%.200s'", s);
        return -1;
    }
    memcpy(buf, s, n + 1);
    *out = buf;
    return 0;
}

/* The exception (type)(encoding, *inputp, start, end, reason). */
static Obj make_exc(TypeObj *type, const char *encoding, const char *reason, Obj *inputp, int64_t start,
                    int64_t end)
{
    Obj *r = vm_roots(5);
    Obj res = NULL;
    r[1] = *inputp;
    if ((r[0] = str_from_cstr(encoding)) && (r[2] = int_from_i64(start)) && (r[3] = int_from_i64(end)) &&
        (r[4] = str_from_cstr(reason)))
        res = exc_new(type, r, 5);
    vm_unroots(r);
    return res;
}

/* The exception of an error over [start, end): a new one, kept in *excp
 * (a root slot, or NULL), or the one kept there with its start, end and
 * reason set, as CPython's codecs reuse theirs within a call (a handler
 * sees what an earlier call left in it, exc.object included). */
static Obj get_exc(TypeObj *type, const char *encoding, const char *reason, Obj *inputp, int64_t start,
                   int64_t end, Obj *excp)
{
    if (!excp || !*excp) {
        Obj e = make_exc(type, encoding, reason, inputp, start, end);
        if (e && excp)
            *excp = e;
        return e;
    }
    static const char *const names[] = {"start", "end", "reason"};
    Obj *r = vm_roots(2);
    Obj res = *excp;
    for (int k = 0; k < 3 && res; k++) {
        r[0] = str_from_cstr(names[k]);
        r[1] = !r[0] ? NULL : k == 0 ? int_from_i64(start) : k == 1 ? int_from_i64(end) : str_from_cstr(reason);
        if (!r[1] || vm_setattr(*excp, r[0], r[1]) < 0)
            res = NULL;
    }
    if (res)
        res = *excp;
    vm_unroots(r);
    return res;
}

/* *inputp as bytes (a bytearray or other buffer copied), as a
 * UnicodeDecodeError holds it; -1 with an error. */
static int input_as_bytes(Obj *inputp)
{
    if (IS_BYTES(*inputp))
        return 0;
    const char *p;
    int64_t n;
    if (!bytes_like(*inputp, &p, &n)) {
        err_set(E_TypeError, "a bytes-like object is required");
        return -1;
    }
    Obj b = bytes_new(p, (size_t)n);
    if (!b)
        return -1;
    *inputp = b;
    return 0;
}

/* Call the handler named errors with a new exception; its result checked
 * as (str [or bytes], int): *replp the replacement, the return value the
 * new position (negative counts from len), or -1. A decoder's input
 * (CODEC_ERR_REREAD) is the exception's object after the call, which the
 * handler may have replaced. */
static int64_t call_handler(const char *errors, TypeObj *type, const char *encoding, const char *reason,
                            Obj *inputp, int64_t start, int64_t end, Obj *replp, int flags,
                            const char *type_msg, bool decode, Obj *excp)
{
    Obj *r = vm_roots(3);
    int64_t res = -1;
    r[0] = codecs_error_handler(errors);
    if (!r[0])
        goto out;
    r[1] = get_exc(type, encoding, reason, inputp, start, end, excp);
    if (!r[1])
        goto out;
    r[2] = vm_call1(r[0], r[1]);
    if (!r[2])
        goto out;
    Obj t = vm_unwrap(r[2]);
    if (!IS_TUPLE(t) || TUPLE_LEN(t) != 2) {
        err_set(E_TypeError, type_msg);
        goto out;
    }
    Obj rep = vm_unwrap(TUPLE_ITEMS(t)[0]);
    if (!(IS_STR(rep) || ((flags & CODEC_ERR_BYTES_OK) && IS_BYTES(rep)))) {
        err_set(E_TypeError, type_msg);
        goto out;
    }
    if ((flags & CODEC_ERR_MULTIBYTE) && !IS_INT(vm_unwrap(TUPLE_ITEMS(t)[1]))) {
        err_set(E_TypeError, type_msg);   /* CPython's multibyte codecs take an int alone, no __index__ */
        goto out;
    }
    *replp = rep;
    int64_t newpos;
    if (vm_index_i64(TUPLE_ITEMS(t)[1], &newpos) < 0) {
        if (!err_matches(E_OverflowError))
            goto out;
        err_clear();
        if (!(flags & CODEC_ERR_MULTIBYTE)) {
            err_set(E_OverflowError, "Python int too large to convert to C ssize_t");
            goto out;
        }
        err_set(E_IndexError, "position -1 from error handler out of bounds");   /* as CPython's */
        goto out;
    }
    int64_t len;
    if (decode) {
        if (flags & CODEC_ERR_REREAD) {
            r[0] = vm_getattr_cstr(r[1], "object");
            if (!r[0])
                goto out;
            if (!IS_BYTES(r[0])) {
                err_set(E_TypeError, "object attribute must be bytes");
                goto out;
            }
            *inputp = r[0];
        }
        const char *p;
        if (!bytes_like(*inputp, &p, &len)) {
            err_set(E_TypeError, "object attribute must be bytes");
            goto out;
        }
    } else {
        len = str_len(vm_unwrap(*inputp));
    }
    if (newpos < 0)
        newpos += len;
    if (newpos < 0 || newpos > len) {
        err_format(E_IndexError, "position %lld from error handler out of bounds", (long long)newpos);
        goto out;
    }
    res = newpos;
out:
    vm_unroots(r);
    return res;
}

int64_t codecs_decode_error(const char *errors, const char *encoding, const char *reason, Obj *inputp,
                            int64_t start, int64_t end, StrBuf *out, int flags, Obj *excp)
{
    if (!errors || !strcmp(errors, "strict")) {
        if (input_as_bytes(inputp) < 0)
            return -1;
        Obj e = get_exc(E_UnicodeDecodeError, encoding, reason, inputp, start, end, excp);
        if (e)
            err_set_obj(e);
        return -1;
    }
    if (!strcmp(errors, "ignore"))
        return end;
    if (!strcmp(errors, "replace")) {
        sb_add_codepoint(out, 0xFFFD);
        return end;
    }
    if ((flags & CODEC_ERR_REREAD) && input_as_bytes(inputp) < 0)
        return -1;
    Obj *r = vm_roots(1);
    int64_t pos = call_handler(errors, E_UnicodeDecodeError, encoding, reason, inputp, start, end, &r[0],
                               flags & ~CODEC_ERR_BYTES_OK, "decoding error handler must return (str, int) tuple", true,
                               excp);
    if (pos >= 0)
        sb_add_str(out, r[0]);
    vm_unroots(r);
    return pos;
}

int64_t codecs_encode_error(const char *errors, const char *encoding, const char *reason, Obj *inputp,
                            int64_t start, int64_t end, Obj *replp, int flags, const char *type_msg, Obj *excp)
{
    if (!errors || !strcmp(errors, "strict")) {
        Obj e = get_exc(E_UnicodeEncodeError, encoding, reason, inputp, start, end, excp);
        if (e)
            err_set_obj(e);
        return -1;
    }
    if (!strcmp(errors, "ignore")) {
        *replp = g_empty_str;
        return end;
    }
    if (!strcmp(errors, "replace")) {
        StrBuf b;
        sb_init(&b);
        for (int64_t i = start; i < end; i++)
            sb_addc(&b, '?');
        Obj s = sb_finish(&b);
        if (!s)
            return -1;
        *replp = s;
        return end;
    }
    return call_handler(errors, E_UnicodeEncodeError, encoding, reason, inputp, start, end, replp,
                        flags & ~CODEC_ERR_REREAD, type_msg, false, excp);
}
