/* Calling a codec error handler from a C codec (PEP 293), as CPython's
 * codecs do: the handler named by the errors argument gets a
 * UnicodeDecodeError or UnicodeEncodeError (encoding, object, start, end,
 * reason) and returns (replacement, position to go on at). strict, ignore
 * and replace are done here without a call (as CPython's multibyte codecs
 * do); any other name, a handler registered with codecs.register_error
 * included, is looked up in the registry and called. */
#include "codecs.h"
#include "objects/objects.h"

#include <string.h>

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

/* Call the handler named errors with a new exception; its result checked
 * as (str [or bytes], int): *replp the replacement, the return value the
 * new position (negative counts from len), or -1. */
static int64_t call_handler(const char *errors, TypeObj *type, const char *encoding, const char *reason,
                            Obj *inputp, int64_t start, int64_t end, Obj *replp, bool bytes_ok,
                            const char *type_msg, bool decode)
{
    Obj *r = vm_roots(2);
    int64_t res = -1;
    r[0] = codecs_error_handler(errors);
    if (!r[0])
        goto out;
    r[1] = make_exc(type, encoding, reason, inputp, start, end);
    if (!r[1])
        goto out;
    r[1] = vm_call1(r[0], r[1]);
    if (!r[1])
        goto out;
    Obj t = r[1];
    if (!IS_TUPLE(vm_unwrap(t)) || TUPLE_LEN(vm_unwrap(t)) != 2) {
        err_set(E_TypeError, type_msg);
        goto out;
    }
    t = vm_unwrap(t);
    Obj rep = TUPLE_ITEMS(t)[0], pos = TUPLE_ITEMS(t)[1];
    if (!(IS_STR(vm_unwrap(rep)) || (bytes_ok && IS_BYTES(vm_unwrap(rep)))) || !(IS_INT(vm_unwrap(pos)) || TYPE(pos)->nb_index)) {
        err_set(E_TypeError, type_msg);
        goto out;
    }
    *replp = vm_unwrap(rep);
    int64_t newpos;
    if (vm_index_i64(pos, &newpos) < 0) {
        if (!err_matches(E_OverflowError))
            goto out;
        err_clear();
        newpos = INT64_MAX;
    }
    int64_t len;
    if (decode) {
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
                            int64_t start, int64_t end, StrBuf *out, const char *type_msg)
{
    if (!errors || !strcmp(errors, "strict")) {
        Obj e = make_exc(E_UnicodeDecodeError, encoding, reason, inputp, start, end);
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
    Obj *r = vm_roots(1);
    int64_t pos = call_handler(errors, E_UnicodeDecodeError, encoding, reason, inputp, start, end, &r[0], false,
                               type_msg, true);
    if (pos >= 0)
        sb_add_str(out, r[0]);
    vm_unroots(r);
    return pos;
}

int64_t codecs_encode_error(const char *errors, const char *encoding, const char *reason, Obj *inputp,
                            int64_t start, int64_t end, Obj *replp, bool bytes_ok, const char *type_msg)
{
    if (!errors || !strcmp(errors, "strict")) {
        Obj e = make_exc(E_UnicodeEncodeError, encoding, reason, inputp, start, end);
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
    return call_handler(errors, E_UnicodeEncodeError, encoding, reason, inputp, start, end, replp, bytes_ok, type_msg,
                        false);
}
