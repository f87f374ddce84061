/* The _multibytecodec module, under CPython's encodings for the CJK codecs
 * (encodings/shift_jis.py and the others): MultibyteCodec (the object
 * _codecs_jp.getcodec() and its siblings return: encode, decode), and the
 * classes those files subclass, MultibyteIncrementalEncoder,
 * MultibyteIncrementalDecoder, MultibyteStreamReader and
 * MultibyteStreamWriter, with CPython 3.11's interface, state and messages.
 * The characters themselves are converted by cjkcodecs.c.
 *
 * A MultibyteCodec is an IterObj whose `i` is the codec's index in
 * cjkcodecs.c. An instance of the four classes (TID_INSTANCE: Python
 * subclasses, a __dict__) keeps its state in a hidden IterObj in its
 * base_value, set at creation: `a` the pending input (bytes a decoder has
 * not decoded yet: a partial sequence; text an encoder holds back: a
 * character that may pair with the next), `b` the errors name (str), `c`
 * the stream (reader, writer), `kind` the codec, `n` the codec's mode (hz:
 * 1 in GB mode). All of it is heap state, so
 * an STM abort undoes it. The class's `codec` attribute (a MultibyteCodec)
 * says which codec an instance uses. */
#include "codecs.h"
#include "objects/containers.h"
#include "objects/numbers.h"
#include "objects/objects.h"

#include <stdlib.h>
#include <string.h>

static TypeObj *T_codec, *T_state, *T_ienc, *T_idec, *T_reader, *T_writer;

#define CHUNK 4096   /* characters converted between safe points */

static const char ENC_TYPE_MSG[] = "encoding error handler must return (str, int) tuple";

Obj mbc_codec_new(int codec)
{
    return iter_alloc(T_codec, g_None, codec);
}

static int codec_of(Obj v)
{
    v = vm_unwrap(v);
    if (TID(v) == TID_ITER && ITER(v)->cls == (Obj)T_codec)
        return (int)ITER(v)->kind;
    return -1;
}

/* ---- decoding and encoding with error handlers ---- */

/* Decode the bytes-like *inputp: the text, with *consumed the bytes used
 * (all but an incomplete tail when not final). */
static Obj mb_decode(int codec, Obj *inputp, bool final, const char *errors, int64_t *consumed, uint64_t *state)
{
    StrBuf out;
    sb_init(&out);
    Obj *r = vm_roots(1);   /* the exception the errors share */
    int64_t i = 0;
    for (;;) {
        const char *p0;
        int64_t n;
        if (!bytes_like(*inputp, &p0, &n)) {
            err_set(E_TypeError, "a bytes-like object is required");
            goto fail;
        }
        const unsigned char *p = (const unsigned char *)p0;
        void *cd;
        if (cjk_open(codec, false, &cd) < 0)
            goto fail;
        const char *reason = NULL;
        int64_t end = 0, steps = 0;
        bool stop = false;
        while (i < n && steps++ < CHUNK) {
            uint32_t cp[2];
            int ncp;
            int k = cjk_decode_one(codec, cd, p + i, n - i, cp, &ncp, state);
            if (k > 0) {
                for (int m = 0; m < ncp; m++)
                    sb_add_codepoint(&out, cp[m]);
                i += k;
            } else if (k == 0) {
                if (!final) {
                    stop = true;
                    break;
                }
                reason = "incomplete multibyte sequence";
                end = n;
                break;
            } else {
                reason = "illegal multibyte sequence";
                end = i - k;
                break;
            }
        }
        cjk_close(codec, cd);
        if (!reason) {
            if (stop || i >= n)
                break;
            tm_safepoint();
            continue;
        }
        int64_t pos =
            codecs_decode_error(errors, cjk_name(codec), reason, inputp, i, end, &out, CODEC_ERR_MULTIBYTE, &r[0]);
        if (pos < 0)
            goto fail;
        i = pos;
    }
    vm_unroots(r);
    *consumed = i;
    return sb_finish(&out);
fail:
    vm_unroots(r);
    sb_free(&out);
    return NULL;
}

/* The code points of a str (malloc'd; *n of them), or NULL (MemoryError). */
static uint32_t *code_points(Obj s, int64_t *n)
{
    s = vm_unwrap(s);
    int64_t count = str_len(s);
    uint32_t *u = malloc((size_t)(count ? count : 1) * sizeof *u);
    if (!u) {
        err_nomemory();
        return NULL;
    }
    const unsigned char *q = (const unsigned char *)str_cstr(s);
    for (int64_t k = 0; k < count; k++) {
        int len;
        u[k] = utf8_decode(q, &len);
        q += len;
    }
    *n = count;
    return u;
}

static int mb_encode_into(int codec, Obj *inputp, bool final, bool reset, const char *errors, StrBuf *out,
                          int64_t *consumed, uint64_t *state);

/* A handler's replacement, a str encoded strictly, or bytes as they are. */
static int add_replacement(int codec, Obj *replp, StrBuf *out, uint64_t *state)
{
    if (IS_BYTES(*replp)) {
        const char *p;
        int64_t n;
        bytes_like(*replp, &p, &n);
        sb_add(out, p, (size_t)n);
        return 0;
    }
    int64_t used;
    return mb_encode_into(codec, replp, true, false, NULL, out, &used, state);
}

/* Encode the str *inputp onto out; *consumed the characters used (all but
 * a last one that may pair with the next, when not final); reset: end in
 * the codec's initial mode (hz: "~}"). */
static int mb_encode_into(int codec, Obj *inputp, bool final, bool reset, const char *errors, StrBuf *out,
                          int64_t *consumed, uint64_t *state)
{
    int64_t n;
    uint32_t *u = code_points(*inputp, &n);
    if (!u)
        return -1;
    Obj *r = vm_roots(2);   /* the replacement, the exception the errors share */
    int rc = -1;
    int64_t i = 0;
    for (;;) {
        void *cd;
        if (cjk_open(codec, true, &cd) < 0)
            goto out;
        bool bad = false, stop = false;
        int64_t steps = 0;
        while (i < n && steps++ < CHUNK) {
            uint32_t c = u[i];
            if (cjk_pair_start(codec, c)) {
                if (i + 1 < n) {
                    if (cjk_encode_pair(codec, c, u[i + 1], out, state)) {
                        i += 2;
                        continue;
                    }
                } else if (!final) {
                    stop = true;
                    break;
                }
            }
            if (cjk_encode_one(codec, cd, c, out, state)) {
                i++;
                continue;
            }
            bad = true;
            break;
        }
        cjk_close(codec, cd);
        if (!bad) {
            if (stop || i >= n)
                break;
            tm_safepoint();
            continue;
        }
        int64_t pos = codecs_encode_error(errors, cjk_name(codec), "illegal multibyte sequence", inputp, i, i + 1,
                                          &r[0], CODEC_ERR_BYTES_OK | CODEC_ERR_MULTIBYTE, ENC_TYPE_MSG, &r[1]);
        if (pos < 0 || add_replacement(codec, &r[0], out, state) < 0)
            goto out;
        i = pos;
    }
    if (reset && i >= n)
        cjk_encode_reset(codec, state, out);
    *consumed = i;
    rc = 0;
out:
    free(u);
    vm_unroots(r);
    return rc;
}

/* The argument as a str: str() of anything else, as CPython's encoders do. */
static Obj as_text(Obj v)
{
    if (IS_STR(vm_unwrap(v)))
        return vm_unwrap(v);
    Obj s = vm_str(v);
    if (s && !IS_STR(s)) {
        err_set(E_TypeError, "couldn't convert the object to unicode.");
        return NULL;
    }
    return s;
}

/* ---- MultibyteCodec ---- */

static Obj codec_self(Obj self, const char *meth)
{
    if (codec_of(self) < 0) {
        err_format(E_TypeError, "descriptor '%s' for '_multibytecodec.MultibyteCodec' objects doesn't apply to a '%s' object",
                   meth, type_name(self));
        return NULL;
    }
    return self;
}

/* encode(input, errors=None) -> (bytes, length) */
static Obj codec_encode(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"input", "errors", NULL};
    if (!codec_self(args[0], "encode"))
        return NULL;
    Obj *a = vm_roots(3);
    Obj res = NULL;
    char errbuf[256];
    const char *errors;
    StrBuf out;
    sb_init(&out);
    if (vm_parse_args("encode", args + 1, nargs - 1, kwnames, names, 1, 2, a) < 0 ||
        codecs_errors_arg("encode", 0, a[1], errbuf, sizeof errbuf, &errors) < 0)
        goto out;
    if (!(a[0] = as_text(a[0])))
        goto out;
    int64_t used;
    uint64_t state = 0;
    if (mb_encode_into(codec_of(args[0]), &a[0], true, true, errors, &out, &used, &state) < 0)
        goto out;
    if (sb_failed(&out)) {
        err_nomemory();
        goto out;
    }
    a[2] = bytes_new(out.p ? out.p : "", out.len);
    if (a[2])
        res = tuple_pack(2, a[2], int_from_i64(str_len(a[0])));
out:
    sb_free(&out);
    vm_unroots(a);
    return res;
}

/* decode(input, errors=None) -> (str, length) */
static Obj codec_decode(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"input", "errors", NULL};
    if (!codec_self(args[0], "decode"))
        return NULL;
    Obj *a = vm_roots(3);
    Obj res = NULL;
    char errbuf[256];
    const char *errors;
    if (vm_parse_args("decode", args + 1, nargs - 1, kwnames, names, 1, 2, a) < 0)
        goto out;
    const char *p;
    int64_t n;
    if (!bytes_like_arg(a[0], &p, &n) || codecs_errors_arg("decode", 0, a[1], errbuf, sizeof errbuf, &errors) < 0)
        goto out;
    int64_t used;
    uint64_t state = 0;
    a[2] = mb_decode(codec_of(args[0]), &a[0], true, errors, &used, &state);
    if (a[2])
        res = tuple_pack(2, a[2], int_from_i64(n));
out:
    vm_unroots(a);
    return res;
}

/* ---- the state of the four classes ---- */

static Obj state_of(Obj self, TypeObj *kind, const char *what)
{
    if (TID(self) == TID_INSTANCE) {
        Obj st = INST(self)->base_value;
        if (st && TID(st) == TID_ITER && ITER(st)->cls == (Obj)T_state && (!kind || vm_isinstance_type(self, kind)))
            return st;
    }
    err_format(E_TypeError, "'%s' object is not a %s", type_name(self), what);
    return NULL;
}

/* errors argument of a constructor: None -> "strict"; else a str. */
static Obj errors_value(Obj e)
{
    if (!e || IS_NONE(e))
        return str_from_cstr("strict");
    if (!IS_STR(e)) {
        err_format(E_TypeError, "errors must be a string, not %s", type_name(e));
        return NULL;
    }
    return e;
}

/* A new instance of type (a subclass whose `codec` is a MultibyteCodec) with a fresh state. */
static Obj new_with_state(Obj type, Obj errors, Obj stream, Obj pending)
{
    Obj *r = vm_roots(5);
    Obj res = NULL;
    r[0] = type;
    r[1] = errors;
    r[2] = stream;
    r[3] = pending;
    r[4] = vm_getattr_cstr(r[0], "codec");
    if (!r[4])
        goto out;
    int codec = codec_of(r[4]);
    if (codec < 0) {
        err_set(E_TypeError, "codec is unexpected type");
        goto out;
    }
    if (!(r[1] = errors_value(r[1])))
        goto out;
    r[4] = iter_alloc(T_state, r[3], codec);
    if (!r[4])
        goto out;
    ITER(r[4])->b = r[1];
    ITER(r[4])->c = r[2] ? r[2] : g_None;
    ITER(r[4])->i = 0;
    ITER(r[4])->n = 0;   /* the codec's mode (hz: 1 in GB mode) */
    Obj inst = instance_new((TypeObj *)r[0]);
    if (inst) {
        VM_WRITE(inst);
        INST(inst)->base_value = r[4];
        res = inst;
    }
out:
    vm_unroots(r);
    return res;
}

static int64_t bytes_len(Obj b)
{
    const char *p;
    int64_t n;
    return bytes_like(b, &p, &n) ? n : 0;
}

static void set_pending(Obj st, Obj v)
{
    VM_WRITE(st);
    ITER(st)->a = v;
}

/* reset(): the pending input dropped and the codec's mode reset as
 * CPython's codecs reset it (an encoder as its final reset, its output
 * dropped; ISO-2022 keeps its G1 designation). */
static void reset_state(Obj st, Obj empty, bool encoder)
{
    uint64_t state = (uint64_t)ITER(st)->n;
    int codec = (int)ITER(st)->kind;
    if (encoder) {
        StrBuf scratch;
        sb_init(&scratch);
        cjk_encode_reset(codec, &state, &scratch);
        sb_free(&scratch);
    } else {
        cjk_decode_reset(codec, &state);
    }
    VM_WRITE(st);
    ITER(st)->a = empty;
    ITER(st)->n = (int64_t)state;
}

static Obj ienc_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"errors", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    if (vm_parse_args("MultibyteIncrementalEncoder", args, nargs, kwnames, names, 0, 1, a) == 0)
        res = new_with_state(type, a[0], NULL, g_empty_str);
    vm_unroots(a);
    return res;
}

static Obj idec_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"errors", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("MultibyteIncrementalDecoder", args, nargs, kwnames, names, 0, 1, a) == 0 &&
        (a[1] = bytes_new("", 0)))
        res = new_with_state(type, a[0], NULL, a[1]);
    vm_unroots(a);
    return res;
}

static Obj stream_new(const char *fname, bool reader, Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"stream", "errors", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args(fname, args, nargs, kwnames, names, 1, 2, a) == 0 &&
        (a[2] = reader ? bytes_new("", 0) : g_empty_str))
        res = new_with_state(type, a[1], a[0], a[2]);
    vm_unroots(a);
    return res;
}

static Obj reader_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    return stream_new("MultibyteStreamReader", true, type, args, nargs, kwnames);
}

static Obj writer_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    return stream_new("MultibyteStreamWriter", false, type, args, nargs, kwnames);
}

/* __init__ does nothing (__new__ did it all): the Python classes these are
 * mixed with (codecs.IncrementalEncoder, ...) come after them in the MRO. */
static int noop_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    return 0;
}

static Obj get_errors(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = state_of(args[0], NULL, "multibyte codec object");
    return st ? ITER(st)->b : NULL;
}

static Obj set_errors(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = state_of(args[0], NULL, "multibyte codec object");
    if (!st)
        return NULL;
    if (!args[1]) {
        err_set(E_AttributeError, "cannot delete attribute");
        return NULL;
    }
    if (!IS_STR(args[1])) {
        err_set(E_TypeError, "errors must be a string");
        return NULL;
    }
    VM_WRITE(st);
    ITER(st)->b = args[1];
    return g_None;
}

static Obj get_stream(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = state_of(args[0], NULL, "multibyte stream object");
    return st ? ITER(st)->c : NULL;
}

static Obj readonly_set(Obj *args, size_t nargs, Obj kwnames)
{
    err_set(E_AttributeError, "readonly attribute");
    return NULL;
}

/* The errors name of a state, copied into buf (a str moves when
 * allocations collect); NULL with LookupError for a name too long to be one. */
static const char *state_errors(Obj st, char *buf, size_t cap)
{
    const char *name = str_cstr(ITER(st)->b);
    if (strlen(name) >= cap) {
        err_format(E_LookupError, "unknown error handler name '%.200s'", name);
        return NULL;
    }
    snprintf(buf, cap, "%s", name);
    return buf;
}

/* Encode pending + text with the state of *selfp; the pending text left
 * for later kept in the state. */
static Obj encode_stateful(Obj *selfp, Obj text, bool final)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    char errbuf[256];
    StrBuf out;
    sb_init(&out);
    r[0] = text;
    Obj st = state_of(*selfp, NULL, "multibyte encoder");
    if (!st || !(r[0] = as_text(r[0])))
        goto out;
    st = state_of(*selfp, NULL, "multibyte encoder");
    if (str_len(ITER(st)->a) > 0) {
        StrBuf both;
        sb_init(&both);
        sb_add_str(&both, ITER(st)->a);
        sb_add_str(&both, r[0]);
        if (!(r[0] = sb_finish(&both)))
            goto out;
        st = state_of(*selfp, NULL, "multibyte encoder");
    }
    int codec = (int)ITER(st)->kind;
    const char *errors = state_errors(st, errbuf, sizeof errbuf);
    if (!errors)
        goto out;
    int64_t used;
    uint64_t state = (uint64_t)ITER(st)->n;
    if (mb_encode_into(codec, &r[0], final, final, errors, &out, &used, &state) < 0)
        goto out;
    st = state_of(*selfp, NULL, "multibyte encoder");
    VM_WRITE(st);
    ITER(st)->n = (int64_t)state;
    r[1] = used < str_len(r[0]) ? str_substr(r[0], used, str_len(r[0])) : g_empty_str;
    if (!r[1])
        goto out;
    set_pending(state_of(*selfp, NULL, "multibyte encoder"), r[1]);
    if (sb_failed(&out)) {
        err_nomemory();
        goto out;
    }
    res = bytes_new(out.p ? out.p : "", out.len);
out:
    sb_free(&out);
    vm_unroots(r);
    return res;
}

/* Decode pending + data with the state of *selfp; an incomplete tail kept. */
static Obj decode_stateful(Obj *selfp, Obj data, bool final)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    char errbuf[256];
    r[0] = data;
    const char *p;
    int64_t n;
    if (!bytes_like_arg(r[0], &p, &n))
        goto out;
    Obj st = state_of(*selfp, NULL, "multibyte decoder");
    if (!st)
        goto out;
    const char *q;
    int64_t pn;
    bytes_like(ITER(st)->a, &q, &pn);
    if (pn > 0) {
        char *buf = malloc((size_t)(pn + n));
        if (!buf) {
            err_nomemory();
            goto out;
        }
        memcpy(buf, q, (size_t)pn);
        bytes_like(r[0], &p, &n);
        memcpy(buf + pn, p, (size_t)n);
        r[0] = bytes_new(buf, (size_t)(pn + n));
        free(buf);
        if (!r[0])
            goto out;
        st = state_of(*selfp, NULL, "multibyte decoder");
    }
    int codec = (int)ITER(st)->kind;
    const char *errors = state_errors(st, errbuf, sizeof errbuf);
    if (!errors)
        goto out;
    int64_t used;
    uint64_t state = (uint64_t)ITER(st)->n;
    r[1] = mb_decode(codec, &r[0], final, errors, &used, &state);
    if (!r[1])
        goto out;
    st = state_of(*selfp, NULL, "multibyte decoder");
    VM_WRITE(st);
    ITER(st)->n = (int64_t)state;
    bytes_like(r[0], &p, &n);
    if (n - used > 8) {
        err_set(E_UnicodeError, "pending buffer overflow");
        goto out;
    }
    char tail[8];   /* copied out: the allocation below may move r[0] */
    memcpy(tail, p + used, (size_t)(n - used));
    Obj rest = bytes_new(tail, (size_t)(n - used));
    if (!rest)
        goto out;
    set_pending(state_of(*selfp, NULL, "multibyte decoder"), rest);
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

/* ---- MultibyteIncrementalEncoder ---- */

static Obj ienc_encode(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"input", "final", NULL};
    if (!state_of(args[0], T_ienc, "MultibyteIncrementalEncoder"))
        return NULL;
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("encode", args + 1, nargs - 1, kwnames, names, 1, 2, a) == 0) {
        int final = a[1] ? vm_is_true(a[1]) : 0;
        if (final >= 0)
            res = encode_stateful(&args[0], a[0], final);
    }
    vm_unroots(a);
    return res;
}

static Obj ienc_reset(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = state_of(args[0], T_ienc, "MultibyteIncrementalEncoder");
    if (!st)
        return NULL;
    reset_state(st, g_empty_str, true);
    return g_None;
}

/* getstate(): an int, as CPython's: little-endian bytes [length of the
 * pending text's UTF-8, that UTF-8, 8 bytes of codec state (0 here)]. */
static Obj ienc_getstate(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = state_of(args[0], T_ienc, "MultibyteIncrementalEncoder");
    if (!st)
        return NULL;
    Obj pending = ITER(st)->a;
    int64_t len = STR(pending)->nbytes;
    if (len > 7) {
        err_set(E_UnicodeError, "pending buffer too large");
        return NULL;
    }
    const unsigned char *q = (const unsigned char *)str_cstr(pending);
    uint64_t v = (uint64_t)len;
    for (int64_t k = 0; k < len; k++)
        v |= (uint64_t)q[k] << (8 * (k + 1));
    uint64_t state = (uint64_t)ITER(st)->n ^ cjk_init_state((int)ITER(st)->kind, true);
    if (state && len < 7)
        v |= state << (8 * (len + 1));
    return int_from_u64(v);
}

static Obj ienc_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    if (!state_of(args[0], T_ienc, "MultibyteIncrementalEncoder"))
        return NULL;
    if (!IS_INT(vm_unwrap(args[1]))) {
        err_format(E_TypeError, "setstate() argument must be int, not %s", type_name(args[1]));
        return NULL;
    }
    int64_t v;
    if (vm_index_i64(args[1], &v) < 0)
        return NULL;
    if (v < 0) {
        err_set(E_OverflowError, "can't convert negative int to unsigned");
        return NULL;
    }
    int len = (int)(v & 0xFF);
    if (len > 8) {
        err_set(E_UnicodeError, "pending buffer too large");
        return NULL;
    }
    char buf[8];
    for (int k = 0; k < len; k++)
        buf[k] = k < 7 ? (char)((uint64_t)v >> (8 * (k + 1))) : 0;
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = bytes_new(buf, (size_t)len);
    if (r[0] && (r[0] = bytes_decode(r[0], "utf-8", "strict"))) {
        Obj st = state_of(args[0], T_ienc, "MultibyteIncrementalEncoder");
        set_pending(st, r[0]);
        uint64_t state = len < 7 ? (uint64_t)v >> (8 * (len + 1)) : 0;
        ITER(st)->n = (int64_t)(state ^ cjk_init_state((int)ITER(st)->kind, true));
        res = g_None;
    }
    vm_unroots(r);
    return res;
}

/* ---- MultibyteIncrementalDecoder ---- */

static Obj idec_decode(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"input", "final", NULL};
    if (!state_of(args[0], T_idec, "MultibyteIncrementalDecoder"))
        return NULL;
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("decode", args + 1, nargs - 1, kwnames, names, 1, 2, a) == 0) {
        int final = a[1] ? vm_is_true(a[1]) : 0;
        if (final >= 0)
            res = decode_stateful(&args[0], a[0], final);
    }
    vm_unroots(a);
    return res;
}

static Obj idec_reset(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = state_of(args[0], T_idec, "MultibyteIncrementalDecoder");
    if (!st)
        return NULL;
    Obj e = bytes_new("", 0);
    if (!e)
        return NULL;
    reset_state(state_of(args[0], T_idec, "MultibyteIncrementalDecoder"), e, false);
    return g_None;
}

/* getstate(): (pending bytes, codec state as an int: 0 here) */
static Obj idec_getstate(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = state_of(args[0], T_idec, "MultibyteIncrementalDecoder");
    if (!st)
        return NULL;
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = int_from_u64((uint64_t)ITER(st)->n ^ cjk_init_state((int)ITER(st)->kind, false));
    if (r[0])
        res = tuple_pack(2, ITER(state_of(args[0], T_idec, "MultibyteIncrementalDecoder"))->a, r[0]);
    vm_unroots(r);
    return res;
}

static Obj idec_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    if (!state_of(args[0], T_idec, "MultibyteIncrementalDecoder"))
        return NULL;
    Obj t = vm_unwrap(args[1]);
    if (!IS_TUPLE(t)) {
        err_format(E_TypeError, "setstate() argument must be tuple, not %s", type_name(args[1]));
        return NULL;
    }
    if (TUPLE_LEN(t) != 2 || !IS_BYTES(TUPLE_ITEMS(t)[0]) || !IS_INT(vm_unwrap(TUPLE_ITEMS(t)[1]))) {
        err_set(E_TypeError, "setstate(): illegal state argument");
        return NULL;
    }
    int64_t v;
    Obj buf = TUPLE_ITEMS(t)[0];
    if (bytes_len(buf) > 8) {
        err_set(E_UnicodeError, "pending buffer too large");
        return NULL;
    }
    if (vm_index_i64(TUPLE_ITEMS(vm_unwrap(args[1]))[1], &v) < 0)
        return NULL;
    if (v < 0) {
        err_set(E_OverflowError, "can't convert negative int to unsigned");
        return NULL;
    }
    Obj st = state_of(args[0], T_idec, "MultibyteIncrementalDecoder");
    set_pending(st, TUPLE_ITEMS(vm_unwrap(args[1]))[0]);
    ITER(st)->n = (int64_t)((uint64_t)v ^ cjk_init_state((int)ITER(st)->kind, false));
    return g_None;
}

/* ---- MultibyteStreamReader ---- */

/* CPython's reading loop: call the stream's method (read or readline) with
 * sizehint (None for all), decode what it gave after the pending bytes; an
 * incomplete sequence at the end of the stream, or when reading all, is an
 * error; else it waits, and when nothing was decoded one more byte is read. */
static Obj reader_iread(Obj *selfp, const char *method, int64_t sizehint)
{
    if (sizehint == 0)
        return g_empty_str;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    StrBuf text;
    sb_init(&text);
    for (;;) {
        Obj st = state_of(*selfp, T_reader, "MultibyteStreamReader");
        if (!st)
            goto out;
        r[2] = ITER(st)->c;
        r[0] = sizehint < 0 ? g_None : int_from_i64(sizehint);
        if (!r[0] || !(r[1] = vm_call_method(r[2], method, &r[0], sizehint < 0 ? 0 : 1)))
            goto out;
        if (!IS_BYTES(r[1])) {
            err_format(E_TypeError, "stream function returned a non-bytes object (%.100s)", type_name(r[1]));
            goto out;
        }
        bool eof = bytes_len(r[1]) == 0;
        int64_t rsize = bytes_len(r[1]);
        r[2] = decode_stateful(selfp, r[1], eof || sizehint < 0);
        if (!r[2])
            goto out;
        int64_t got = str_len(r[2]);
        sb_add_str(&text, r[2]);
        if (sizehint < 0 || got != 0 || rsize == 0)
            break;
        sizehint = 1;   /* read one more byte and try again */
    }
    res = sb_finish(&text);
out:
    sb_free(&text);
    vm_unroots(r);
    return res;
}

static int size_arg(Obj v, int64_t *out)
{
    *out = -1;
    if (!v || IS_NONE(v))
        return 0;
    if (!IS_INT(vm_unwrap(v))) {
        err_set(E_TypeError, "arg 1 must be an integer");
        return -1;
    }
    if (vm_index_i64(v, out) < 0)
        return -1;
    if (*out < 0)
        *out = -1;
    return 0;
}

static Obj reader_read(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t size;
    if (vm_check_args("read", nargs - 1, kwnames, 0, 1) < 0 || size_arg(nargs > 1 ? args[1] : NULL, &size) < 0)
        return NULL;
    return reader_iread(&args[0], "read", size);
}

static Obj reader_readline(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t size;
    if (vm_check_args("readline", nargs - 1, kwnames, 0, 1) < 0 || size_arg(nargs > 1 ? args[1] : NULL, &size) < 0)
        return NULL;
    return reader_iread(&args[0], "readline", size);
}

static Obj reader_readlines(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t size;
    if (vm_check_args("readlines", nargs - 1, kwnames, 0, 1) < 0 || size_arg(nargs > 1 ? args[1] : NULL, &size) < 0)
        return NULL;
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = reader_iread(&args[0], "read", size);
    if (r[0])
        res = vm_call_method1(r[0], "splitlines", g_True);
    vm_unroots(r);
    return res;
}

static Obj reader_reset(Obj *args, size_t nargs, Obj kwnames)
{
    if (!state_of(args[0], T_reader, "MultibyteStreamReader"))
        return NULL;
    Obj e = bytes_new("", 0);
    if (!e)
        return NULL;
    reset_state(state_of(args[0], T_reader, "MultibyteStreamReader"), e, false);
    return g_None;
}

/* ---- MultibyteStreamWriter ---- */

static Obj writer_write(Obj *args, size_t nargs, Obj kwnames)
{
    if (!state_of(args[0], T_writer, "MultibyteStreamWriter"))
        return NULL;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = encode_stateful(&args[0], args[1], false);
    if (!r[0])
        goto out;
    r[1] = ITER(state_of(args[0], T_writer, "MultibyteStreamWriter"))->c;
    if (vm_call_method1(r[1], "write", r[0]))
        res = g_None;
out:
    vm_unroots(r);
    return res;
}

static Obj writer_writelines(Obj *args, size_t nargs, Obj kwnames)
{
    if (!state_of(args[0], T_writer, "MultibyteStreamWriter"))
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
        r[2] = args[0];
        Obj *w = vm_roots(2);   /* writer_write's arguments are root slots */
        w[0] = r[2];
        w[1] = r[1];
        Obj ok = writer_write(w, 2, NULL);
        vm_unroots(w);
        if (!ok)
            goto out;
    }
    res = g_None;
out:
    vm_unroots(r);
    return res;
}

/* reset(): what the encoder holds back, written out (final) and the
 * codec's mode reset; as CPython's, nothing at all when nothing is held
 * back (hz stays in GB mode). */
static Obj writer_reset(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = state_of(args[0], T_writer, "MultibyteStreamWriter");
    if (!st)
        return NULL;
    if (str_len(ITER(st)->a) == 0)
        return g_None;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = encode_stateful(&args[0], g_empty_str, true);
    if (!r[0])
        goto out;
    if (bytes_len(r[0]) > 0) {
        r[1] = ITER(state_of(args[0], T_writer, "MultibyteStreamWriter"))->c;
        if (!vm_call_method1(r[1], "write", r[0]))
            goto out;
    }
    res = g_None;
out:
    vm_unroots(r);
    return res;
}

/* ---- the module ---- */

static Obj create_codec(Obj *args, size_t nargs, Obj kwnames)
{
    if (codec_of(args[0]) < 0) {
        err_set(E_ValueError, "argument type invalid");
        return NULL;
    }
    return args[0];
}

static const MethodDef codec_methods[] = {
    {"encode", codec_encode, METH_KW, NULL},
    {"decode", codec_decode, METH_KW, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef ienc_methods[] = {
    {"encode", ienc_encode, METH_KW, NULL},
    {"reset", ienc_reset, METH_NOARGS, NULL},
    {"getstate", ienc_getstate, METH_NOARGS, NULL},
    {"setstate", ienc_setstate, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef idec_methods[] = {
    {"decode", idec_decode, METH_KW, NULL},
    {"reset", idec_reset, METH_NOARGS, NULL},
    {"getstate", idec_getstate, METH_NOARGS, NULL},
    {"setstate", idec_setstate, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef reader_methods[] = {
    {"read", reader_read, METH_KW, NULL},
    {"readline", reader_readline, METH_KW, NULL},
    {"readlines", reader_readlines, METH_KW, NULL},
    {"reset", reader_reset, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef writer_methods[] = {
    {"write", writer_write, METH_O, NULL},
    {"writelines", writer_writelines, METH_O, NULL},
    {"reset", writer_reset, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef module_functions[] = {
    {"__create_codec", create_codec, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static TypeObj *make_class(const char *name, newfunc tp_new, const MethodDef *methods, bool stream)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_INSTANCE, TPF_BASETYPE | TPF_HAS_DICT | TPF_DOTTED_NAME);
    VM_WRITE(t);
    t->tp_new = tp_new;
    t->tp_init = noop_init;
    type_add_methods(t, methods);
    type_add_getset(t, "errors", get_errors, set_errors);
    if (stream)
        type_add_getset(t, "stream", get_stream, readonly_set);
    type_ready(t);
    return t;
}

static void make_types(void)
{
    T_codec = (TypeObj *)type_new_builtin("_multibytecodec.MultibyteCodec", T_object, TID_ITER, TPF_DOTTED_NAME);
    type_add_methods(T_codec, codec_methods);
    type_ready(T_codec);
    T_state = (TypeObj *)type_new_builtin("_multibytecodec._State", T_object, TID_ITER, 0);
    type_ready(T_state);
    T_ienc = make_class("_multibytecodec.MultibyteIncrementalEncoder", ienc_new, ienc_methods, false);
    T_idec = make_class("_multibytecodec.MultibyteIncrementalDecoder", idec_new, idec_methods, false);
    T_reader = make_class("_multibytecodec.MultibyteStreamReader", reader_new, reader_methods, true);
    T_writer = make_class("_multibytecodec.MultibyteStreamWriter", writer_new, writer_methods, true);
}

Obj multibytecodec_module_init(void)
{
    vm_tx_become_inevitable();   /* the types are C globals */
    if (!T_codec)
        make_types();
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = module_new("_multibytecodec");
    if (!r[0])
        goto out;
    module_add_functions(r[0], module_functions);
    if (module_add(r[0], "MultibyteCodec", (Obj)T_codec) < 0 ||
        module_add(r[0], "MultibyteIncrementalEncoder", (Obj)T_ienc) < 0 ||
        module_add(r[0], "MultibyteIncrementalDecoder", (Obj)T_idec) < 0 ||
        module_add(r[0], "MultibyteStreamReader", (Obj)T_reader) < 0 ||
        module_add(r[0], "MultibyteStreamWriter", (Obj)T_writer) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
