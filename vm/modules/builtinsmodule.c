/* The builtins module: built-in functions, constants, types and exceptions. */
#include "compiler/compile.h"
#include "modules.h"
#include "objects/objects.h"
#include "objects/numbers.h"
#include "objects/strobj.h"
#include "objects/containers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


/* Find keyword arguments by name; an unknown one is an error. */
static int kw_lookup(const char *fname, Obj *args, size_t nargs, Obj kwnames, const char *const *names, Obj *out)
{
    int64_t nk = kwnames ? TUPLE_LEN(kwnames) : 0;
    for (int64_t i = 0; i < nk; i++) {
        Obj k = TUPLE_ITEMS(kwnames)[i];
        int j = 0;
        for (; names[j]; j++)
            if (str_eq_cstr(k, names[j]))
                break;
        if (!names[j]) {
            err_format(E_TypeError, "'%s' is an invalid keyword argument for %s()", str_cstr(k), fname);
            return -1;
        }
        out[j] = args[nargs + i];
    }
    return 0;
}

static Obj attr_name(Obj name)
{
    Obj s = str_value(name);
    if (!s)
        err_format(E_TypeError, "attribute name must be string, not '%s'", type_name(name));
    return s;
}

/* ------------------------------------------------------------------ */
/* print / input                                                       */
/* ------------------------------------------------------------------ */

/* Arguments whose str() runs no Python code (so print may join them first). */
static bool print_simple_args(Obj *args, size_t nargs)
{
    for (size_t i = 0; i < nargs; i++) {
        Obj v = args[i];
        if (IS_SMALLINT(v))
            continue;
        unsigned tid = v->h.tid;
        if (tid != TID_STR && tid != TID_BIGINT && tid != TID_FLOAT && tid != TID_BOOL && tid != TID_NONETYPE)
            return false;
    }
    return true;
}

static Obj bi_print(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"sep", "end", "file", "flush", NULL};
    Obj *kw = vm_roots(6);   /* sep, end, file, flush, str, scratch */
    Obj res = NULL;
    if (kw_lookup("print", args, nargs, kwnames, names, kw) < 0)
        goto out;
    for (int i = 0; i < 2; i++) {
        if (kw[i] && IS_NONE(kw[i]))
            kw[i] = NULL;
        if (kw[i] && !str_value(kw[i])) {
            err_format(E_TypeError, "%s must be None or a string, not %s", names[i], type_name(kw[i]));
            goto out;
        }
    }
    if (!kw[2] || IS_NONE(kw[2])) {
        kw[2] = sys_get("stdout");
        if (!kw[2]) {
            err_set(E_RuntimeError, "lost sys.stdout");
            goto out;
        }
        if (IS_NONE(kw[2])) {
            res = g_None;
            goto out;
        }
    }
    if (file_is_fast_text(kw[2]) && print_simple_args(args, nargs)) {
        /* the whole line in one write (one system call when unbuffered) */
        StrBuf b;
        sb_init(&b);
        for (size_t i = 0; i < nargs; i++) {
            if (i > 0) {
                if (kw[0])
                    sb_add_str(&b, str_value(kw[0]));
                else
                    sb_addc(&b, ' ');
            }
            Obj v = args[i];
            kw[4] = IS_STR(v) ? v : vm_str(v);
            if (!kw[4]) {
                sb_free(&b);
                goto out;
            }
            sb_add_str(&b, kw[4]);
        }
        if (kw[1])
            sb_add_str(&b, str_value(kw[1]));
        else
            sb_addc(&b, '\n');
        int rc = file_write_cstr(kw[2], b.p ? b.p : "", b.len);
        sb_free(&b);
        if (rc < 0)
            goto out;
        goto flush;
    }
    for (size_t i = 0; i < nargs; i++) {
        if (i > 0) {
            if (kw[0] ? file_write_str(kw[2], kw[0]) : file_write_cstr(kw[2], " ", 1))
                goto out;
        }
        Obj v = args[i];
        kw[4] = IS_STR(v) ? v : vm_str(v);
        if (!kw[4] || file_write_str(kw[2], kw[4]) < 0)
            goto out;
    }
    if (kw[1] ? file_write_str(kw[2], kw[1]) : file_write_cstr(kw[2], "\n", 1))
        goto out;
flush:
    if (kw[3]) {
        int t = vm_is_true(kw[3]);
        if (t < 0 || (t && file_flush(kw[2]) < 0))
            goto out;
    }
    res = g_None;
out:
    vm_unroots(kw);
    return res;
}

static Obj bi_input(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = sys_get("stdin");
    r[1] = sys_get("stdout");
    if (!r[0] || IS_NONE(r[0])) {
        err_set(E_RuntimeError, "input(): lost sys.stdin");
        goto out;
    }
    if (!r[1] || IS_NONE(r[1])) {
        err_set(E_RuntimeError, "input(): lost sys.stdout");
        goto out;
    }
    Obj errf = sys_get("stderr");
    if (errf && !IS_NONE(errf) && file_flush(errf) < 0)
        err_clear();
    if (nargs == 1) {
        r[2] = vm_str(args[0]);
        if (!r[2] || file_write_str(r[1], r[2]) < 0)
            goto out;
    }
    if (file_flush(r[1]) < 0)
        goto out;
    r[3] = file_readline(r[0]);
    if (!r[3])
        goto out;
    Obj line = str_value(r[3]);
    if (!line) {
        err_format(E_TypeError, "object.readline() returned non-string");
        goto out;
    }
    int64_t n = str_len(line);
    if (n == 0) {
        err_set(E_EOFError, "EOF when reading a line");
        goto out;
    }
    if (str_cstr(line)[STR(line)->nbytes - 1] == '\n')
        res = str_substr(line, 0, n - 1);
    else
        res = line;
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* Simple one-argument functions                                       */
/* ------------------------------------------------------------------ */

static Obj bi_len(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t n = vm_len(args[0]);
    return n < 0 ? NULL : int_from_i64(n);
}

static Obj bi_abs(Obj *args, size_t nargs, Obj kwnames)
{
    Obj v = args[0];
    if (IS_SMALLINT(v)) {
        int64_t n = SMALLINT_VAL(v);
        return n >= 0 ? v : int_from_i64(-n);
    }
    if (IS_FLOAT(v))
        return float_new(fabs(FLOAT_VAL(v)));
    unaryfunc f = TYPE(v)->nb_abs;
    if (!f) {
        err_format(E_TypeError, "bad operand type for abs(): '%s'", type_name(v));
        return NULL;
    }
    return f(v);
}

static Obj all_any(Obj *args, size_t nargs, Obj kwnames, const char *name, bool want)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = vm_iter(args[0]);
    if (!r[0])
        goto out;
    for (;;) {
        r[1] = vm_next(r[0]);
        if (!r[1]) {
            if (!err_occurred())
                res = vm_bool(!want);
            goto out;
        }
        int t = r[1] == g_True ? 1 : r[1] == g_False ? 0 : vm_is_true(r[1]);
        if (t < 0)
            goto out;
        if (t == want) {
            res = vm_bool(want);
            goto out;
        }
    }
out:
    vm_unroots(r);
    return res;
}

static Obj bi_all(Obj *args, size_t nargs, Obj kwnames) { return all_any(args, nargs, kwnames, "all", false); }
static Obj bi_any(Obj *args, size_t nargs, Obj kwnames) { return all_any(args, nargs, kwnames, "any", true); }

static Obj bi_ascii(Obj *args, size_t nargs, Obj kwnames)
{
    return vm_ascii(args[0]);
}

static Obj bi_repr(Obj *args, size_t nargs, Obj kwnames)
{
    return vm_repr(args[0]);
}

static Obj int_base(Obj *args, size_t nargs, Obj kwnames, const char *name, int base)
{
    Obj i = vm_index(args[0]);
    return i ? int_to_string(i, base) : NULL;
}

static Obj bi_bin(Obj *args, size_t nargs, Obj kwnames) { return int_base(args, nargs, kwnames, "bin", 2); }
static Obj bi_oct(Obj *args, size_t nargs, Obj kwnames) { return int_base(args, nargs, kwnames, "oct", 8); }
static Obj bi_hex(Obj *args, size_t nargs, Obj kwnames) { return int_base(args, nargs, kwnames, "hex", 16); }

static Obj bi_callable(Obj *args, size_t nargs, Obj kwnames)
{
    return vm_bool(vm_callable(args[0]));
}

static Obj bi_chr(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t c;
    if (IS_SMALLINT(args[0])) {
        c = SMALLINT_VAL(args[0]);
    } else {
        if (vm_index_i64(args[0], &c) < 0)
            return NULL;
        if (c > INT32_MAX || c < INT32_MIN) {
            err_set(E_OverflowError, "Python int too large to convert to C int");
            return NULL;
        }
    }
    if (c < 0 || c > 0x10ffff) {
        if (c > INT32_MAX || c < INT32_MIN)
            err_set(E_OverflowError, "Python int too large to convert to C int");
        else
            err_set(E_ValueError, "chr() arg not in range(0x110000)");
        return NULL;
    }
    return str_from_codepoint((uint32_t)c);
}

static Obj bi_ord(Obj *args, size_t nargs, Obj kwnames)
{
    Obj v = args[0];
    Obj s = str_value(v);
    if (s) {
        if (str_len(s) != 1) {
            err_format(E_TypeError, "ord() expected a character, but string of length %ld found", (long)str_len(s));
            return NULL;
        }
        int len;
        return MAKE_SMALLINT(utf8_decode((const unsigned char *)str_cstr(s), &len));
    }
    const char *p;
    int64_t n;
    if (bytes_like(v, &p, &n)) {
        if (n != 1) {
            err_format(E_TypeError, "ord() expected a character, but string of length %ld found", (long)n);
            return NULL;
        }
        return MAKE_SMALLINT((unsigned char)p[0]);
    }
    err_format(E_TypeError, "ord() expected string of length 1, but %s found", type_name(v));
    return NULL;
}

static Obj bi_hash(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t h = vm_hash(args[0]);
    return h == -1 ? NULL : int_from_i64(h);
}

static Obj bi_id(Obj *args, size_t nargs, Obj kwnames)
{
    return int_from_u64(vm_object_id(args[0]));
}

static Obj bi_divmod(Obj *args, size_t nargs, Obj kwnames)
{
    return vm_binop(args[0], args[1], NB_DIVMOD);
}

static Obj bi_format(Obj *args, size_t nargs, Obj kwnames)
{
    Obj spec = g_empty_str;
    if (nargs == 2) {
        spec = str_value(args[1]);
        if (!spec) {
            err_format(E_TypeError, "format() argument 2 must be str, not %s", type_name(args[1]));
            return NULL;
        }
    }
    return vm_format(args[0], spec);
}

/* ------------------------------------------------------------------ */
/* Attributes                                                          */
/* ------------------------------------------------------------------ */

static Obj bi_getattr(Obj *args, size_t nargs, Obj kwnames)
{
    Obj name = attr_name(args[1]);
    if (!name)
        return NULL;
    if (nargs == 2)
        return vm_getattr(args[0], name);
    Obj v = vm_getattr_opt(args[0], name);
    if (v || err_occurred())
        return v;
    return args[2];
}

static Obj bi_hasattr(Obj *args, size_t nargs, Obj kwnames)
{
    Obj name = attr_name(args[1]);
    if (!name)
        return NULL;
    Obj v = vm_getattr_opt(args[0], name);
    if (v)
        return g_True;
    return err_occurred() ? NULL : g_False;
}

static Obj bi_setattr(Obj *args, size_t nargs, Obj kwnames)
{
    Obj name = attr_name(args[1]);
    if (!name)
        return NULL;
    return vm_setattr(args[0], name, args[2]) < 0 ? NULL : g_None;
}

static Obj bi_delattr(Obj *args, size_t nargs, Obj kwnames)
{
    Obj name = attr_name(args[1]);
    if (!name)
        return NULL;
    return vm_setattr(args[0], name, NULL) < 0 ? NULL : g_None;
}

static Obj bi_dir(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs == 1)
        return vm_dir(args[0]);
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = vm_current_locals();
    if (r[0]) {
        r[1] = IS_DICT(r[0]) ? dict_keys_list(r[0]) : vm_list_from_iter(r[0]);
        if (r[1] && list_sort(r[1], NULL, false) == 0)
            res = r[1];
    }
    vm_unroots(r);
    return res;
}

static Obj bi_vars(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs == 0)
        return vm_current_locals();
    Obj d = vm_getattr_opt(args[0], NAME(__dict__));
    if (!d && !err_occurred())
        err_set(E_TypeError, "vars() argument must have __dict__ attribute");
    return d;
}

static Obj bi_globals(Obj *args, size_t nargs, Obj kwnames)
{
    Obj g = vm_current_globals();
    if (!g && !err_occurred())
        err_set(E_SystemError, "globals(): no current frame");
    return g;
}

static Obj bi_locals(Obj *args, size_t nargs, Obj kwnames)
{
    Obj l = vm_current_locals();
    if (!l && !err_occurred())
        err_set(E_SystemError, "locals(): no current frame");
    return l;
}

/* ------------------------------------------------------------------ */
/* Types and iteration                                                 */
/* ------------------------------------------------------------------ */

static Obj bi_isinstance(Obj *args, size_t nargs, Obj kwnames)
{
    Obj cls = args[1];
    if (IS_TYPE(cls) && TYPE(args[0]) == (TypeObj *)cls)
        return g_True;
    int r = vm_isinstance(args[0], cls);
    return r < 0 ? NULL : vm_bool(r);
}

static Obj bi_issubclass(Obj *args, size_t nargs, Obj kwnames)
{
    int r = vm_issubclass(args[0], args[1]);
    return r < 0 ? NULL : vm_bool(r);
}

static Obj bi_iter(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs == 1)
        return vm_iter(args[0]);
    if (!vm_callable(args[0])) {
        err_set(E_TypeError, "iter(v, w): v must be callable");
        return NULL;
    }
    return callable_iter_new(args[0], args[1]);
}

static Obj bi_aiter(Obj *args, size_t nargs, Obj kwnames)
{
    return coro_builtin_aiter(args[0]);
}

static Obj bi_anext(Obj *args, size_t nargs, Obj kwnames)
{
    return coro_builtin_anext(args[0], nargs > 1 ? args[1] : NULL);
}

static Obj bi_next(Obj *args, size_t nargs, Obj kwnames)
{
    Obj it = args[0];
    if (!TYPE(it)->tp_iternext) {
        err_format(E_TypeError, "'%s' object is not an iterator", type_name(it));
        return NULL;
    }
    /* a generator's send(None) raises StopIteration(return value) */
    Obj v = TID(it) == TID_GENERATOR ? gen_send(it, g_None) : TYPE(it)->tp_iternext(it);
    if (v)
        return v;
    if (err_occurred()) {
        if (nargs < 2 || !err_matches(E_StopIteration))
            return NULL;
        err_clear();
        return args[1];
    }
    if (nargs == 2)
        return args[1];
    err_set_obj((Obj)E_StopIteration);
    return NULL;
}

/* max() and min(): op is CMP_GT or CMP_LT (a new item replaces the best one
 * only when strictly better, so the first of equal items wins). */
static Obj minmax(Obj *args, size_t nargs, Obj kwnames, int op, const char *name)
{
    static const char *const names[] = {"key", "default", NULL};
    Obj *r = vm_roots(7);   /* key, default, iterator, item, item key, best, best key */
    Obj res = NULL;
    if (kw_lookup(name, args, nargs, kwnames, names, r) < 0)
        goto out;
    if (nargs == 0) {
        err_format(E_TypeError, "%s expected at least 1 argument, got 0", name);
        goto out;
    }
    if (r[0] && IS_NONE(r[0]))
        r[0] = NULL;
    if (nargs > 1 && r[1]) {
        err_format(E_TypeError, "Cannot specify a default for %s() with multiple positional arguments", name);
        goto out;
    }
    size_t idx = 0;
    if (nargs == 1) {
        r[2] = vm_iter(args[0]);
        if (!r[2])
            goto out;
    }
    for (;;) {
        if (nargs == 1) {
            r[3] = vm_next(r[2]);
            if (!r[3]) {
                if (err_occurred())
                    goto out;
                break;
            }
        } else {
            if (idx >= nargs)
                break;
            r[3] = args[idx++];
        }
        if (r[0]) {
            r[4] = vm_call1(r[0], r[3]);
            if (!r[4])
                goto out;
        } else {
            r[4] = r[3];
        }
        if (!r[5]) {
            r[5] = r[3];
            r[6] = r[4];
            continue;
        }
        int better;
        if (IS_SMALLINT(r[4]) && IS_SMALLINT(r[6])) {
            int64_t a = SMALLINT_VAL(r[4]), b = SMALLINT_VAL(r[6]);
            better = op == CMP_GT ? a > b : a < b;
        } else {
            better = vm_richcompare_bool(r[4], r[6], op);
            if (better < 0)
                goto out;
        }
        if (better) {
            r[5] = r[3];
            r[6] = r[4];
        }
    }
    if (r[5])
        res = r[5];
    else if (r[1])
        res = r[1];
    else
        err_format(E_ValueError, "%s() arg is an empty sequence", name);
out:
    vm_unroots(r);
    return res;
}

static Obj bi_max(Obj *args, size_t nargs, Obj kwnames) { return minmax(args, nargs, kwnames, CMP_GT, "max"); }
static Obj bi_min(Obj *args, size_t nargs, Obj kwnames) { return minmax(args, nargs, kwnames, CMP_LT, "min"); }

static Obj bi_sorted(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"key", "reverse", NULL};
    Obj *r = vm_roots(3);
    Obj res = NULL;
    if (nargs != 1) {
        err_format(E_TypeError, "sorted expected 1 argument, got %zu", nargs);
        goto out;
    }
    if (kw_lookup("sort", args, nargs, kwnames, names, r) < 0)
        goto out;
    int rev = 0;
    if (r[1] && (rev = vm_is_true(r[1])) < 0)
        goto out;
    r[2] = list_from_iterable(args[0]);
    if (!r[2])
        goto out;
    if (list_sort(r[2], r[0] && !IS_NONE(r[0]) ? r[0] : NULL, rev) < 0)
        goto out;
    res = r[2];
out:
    vm_unroots(r);
    return res;
}

static Obj bi_sum(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"iterable", "start", NULL};
    Obj *r = vm_roots(4);   /* iterable, start, iterator, item */
    Obj res = NULL;
    if (nargs == 0 && !(kwnames && TUPLE_LEN(kwnames))) {
        err_set(E_TypeError, "sum() takes at least 1 positional argument (0 given)");
        goto out;
    }
    if (nargs > 2) {
        err_format(E_TypeError, "sum() takes at most 2 arguments (%zu given)", nargs);
        goto out;
    }
    if (nargs == 0) {
        err_set(E_TypeError, "sum() takes at least 1 positional argument (0 given)");
        goto out;
    }
    r[0] = args[0];
    if (nargs == 2)
        r[1] = args[1];
    if (kw_lookup("sum", args, nargs, kwnames, names, r) < 0)
        goto out;
    if (!r[1])
        r[1] = MAKE_SMALLINT(0);
    Obj start = vm_unwrap(r[1]);
    if (IS_STR(start)) {
        err_set(E_TypeError, "sum() can't sum strings [use ''.join(seq) instead]");
        goto out;
    }
    if (IS_BYTES(start)) {
        err_set(E_TypeError, "sum() can't sum bytes [use b''.join(seq) instead]");
        goto out;
    }
    if (TID(start) == TID_BYTEARRAY) {
        err_set(E_TypeError, "sum() can't sum bytearray [use b''.join(seq) instead]");
        goto out;
    }
    r[2] = vm_iter(r[0]);
    if (!r[2])
        goto out;
    /* ints that fit a C int64, as CPython's fast path (bools included) */
    if (IS_SMALLINT(r[1])) {
        int64_t acc = SMALLINT_VAL(r[1]);
        for (;;) {
            r[3] = vm_next(r[2]);
            if (!r[3]) {
                if (!err_occurred())
                    res = int_from_i64(acc);
                goto out;
            }
            Obj it = r[3];
            int64_t b;
            if (IS_SMALLINT(it))
                b = SMALLINT_VAL(it);
            else if (TID(it) == TID_BOOL)
                b = ((BoolObj *)it)->value;
            else
                b = INT64_MIN;
            /* the sum goes to a temporary: on overflow the builtin stores the wrapped value */
            int64_t next;
            if (b != INT64_MIN && !__builtin_add_overflow(acc, b, &next)) {
                acc = next;
                continue;
            }
            r[1] = int_from_i64(acc);
            if (!r[1])
                goto out;
            r[1] = vm_binop(r[1], r[3], NB_ADD);
            if (!r[1])
                goto out;
            break;
        }
    }
    /* floats: plain double additions, as CPython 3.11 */
    if (IS_FLOAT(r[1])) {
        double f = FLOAT_VAL(r[1]);
        for (;;) {
            r[3] = vm_next(r[2]);
            if (!r[3]) {
                if (!err_occurred())
                    res = float_new(f);
                goto out;
            }
            Obj it = r[3];
            if (IS_FLOAT(it)) {
                f += FLOAT_VAL(it);
                continue;
            }
            if (IS_SMALLINT(it)) {
                f += (double)SMALLINT_VAL(it);
                continue;
            }
            if (TID(it) == TID_BOOL) {
                f += (double)((BoolObj *)it)->value;
                continue;
            }
            r[1] = float_new(f);
            if (!r[1] || !(r[1] = vm_binop(r[1], r[3], NB_ADD)))
                goto out;
            break;
        }
    }
    for (;;) {
        r[3] = vm_next(r[2]);
        if (!r[3]) {
            if (!err_occurred())
                res = r[1];
            goto out;
        }
        r[1] = vm_binop(r[1], r[3], NB_ADD);
        if (!r[1])
            goto out;
    }
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* Numbers                                                             */
/* ------------------------------------------------------------------ */

static Obj bi_pow(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"base", "exp", "mod", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("pow", args, nargs, kwnames, names, 2, 3, a) < 0)
        goto out;
    if (!a[2] || IS_NONE(a[2])) {
        res = vm_binop(a[0], a[1], NB_POW);
        goto out;
    }
    Obj b = vm_unwrap(a[0]), e = vm_unwrap(a[1]), m = vm_unwrap(a[2]);
    if (IS_INT(b) && IS_INT(e) && IS_INT(m)) {
        if (int_sign(m) == 0) {
            err_set(E_ValueError, "pow() 3rd argument cannot be 0");
            goto out;
        }
        res = int_pow(b, e, m);
        goto out;
    }
    /* The operands' types in order, as CPython tries their slots: int's
     * declines mixed operands; float's and complex's refuse a modulus once
     * base and exponent are numbers they take. */
    Obj ops[3] = {b, e, m};
    for (int i = 0; i < 3; i++) {
        Obj o = ops[i];
        bool b_real = IS_INT(b) || IS_FLOAT(b), e_real = IS_INT(e) || IS_FLOAT(e);
        if (IS_FLOAT(o) && b_real && e_real) {
            err_set(E_TypeError, "pow() 3rd argument not allowed unless all arguments are integers");
            goto out;
        }
        if (IS_COMPLEX(o) && (b_real || IS_COMPLEX(b)) && (e_real || IS_COMPLEX(e))) {
            err_set(E_ValueError, "complex modulo");
            goto out;
        }
    }
    /* a user type: __pow__(exp, mod) */
    Obj meth = vm_lookup_special(a[0], "__pow__");
    if (meth) {
        Obj *cargs = vm_roots(2);
        cargs[0] = a[1];
        cargs[1] = a[2];
        res = vm_call_method(a[0], "__pow__", cargs, 2);
        vm_unroots(cargs);
        if (res != g_NotImplemented)
            goto out;
        res = NULL;
    }
    err_format(E_TypeError, "unsupported operand type(s) for ** or pow(): '%s', '%s', '%s'", type_name(a[0]),
               type_name(a[1]), type_name(a[2]));
out:
    vm_unroots(a);
    return res;
}

static Obj bi_round(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"number", "ndigits", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("round", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    if (a[1] && IS_NONE(a[1]))
        a[1] = NULL;
    Obj v = a[0];
    if (!a[1]) {
        if (IS_SMALLINT(v)) {
            res = v;
            goto out;
        }
        if (IS_FLOAT(v)) {
            /* round half to even: the default rounding mode of rint */
            res = int_from_double(rint(FLOAT_VAL(v)));
            goto out;
        }
    }
    if (!vm_lookup_special(v, "__round__")) {
        err_format(E_TypeError, "type %s doesn't define __round__ method", type_name_of_type(TYPE(v)));
        goto out;
    }
    res = vm_call_method(a[0], "__round__", &a[1], a[1] ? 1 : 0);
out:
    vm_unroots(a);
    return res;
}

/* ------------------------------------------------------------------ */
/* compile / eval / exec                                               */
/* ------------------------------------------------------------------ */

/* The source of eval/exec/compile as a malloc'd C string (the compiler
 * allocates, so it must not read a GC string). */
static char *source_text(Obj src, const char *fname, const char *what, size_t *len)
{
    Obj s = str_value(src);
    const char *p;
    int64_t n;
    if (s) {
        if (utf8_has_surrogate(str_cstr(s), (size_t)STR(s)->nbytes)) {
            str_encode(s, "utf-8", "strict");   /* UnicodeEncodeError: the source is UTF-8 text */
            return NULL;
        }
        p = str_cstr(s);
        n = STR(s)->nbytes;
    } else if (!bytes_like(src, &p, &n)) {
        err_format(E_TypeError, "%s() arg 1 must be %s", fname, what);
        return NULL;
    }
    if (memchr(p, 0, (size_t)n)) {
        err_set(E_SyntaxError, "source code string cannot contain null bytes");
        return NULL;
    }
    char *copy = malloc((size_t)n + 1);
    if (!copy) {
        err_nomemory();
        return NULL;
    }
    memcpy(copy, p, (size_t)n);
    copy[n] = 0;
    *len = (size_t)n;
    return copy;
}

static Obj compile_source(Obj src, const char *fname, const char *what, const char *filename, int mode, bool strip)
{
    size_t len;
    char *text = source_text(src, fname, what, &len);
    if (!text)
        return NULL;
    char *start = text;
    if (strip) {
        /* eval() ignores leading spaces and tabs */
        while (*start == ' ' || *start == '\t') {
            start++;
            len--;
        }
    }
    Obj code = vm_compile(start, len, filename, mode);
    free(text);
    return code;
}

/* Resolve globals/locals for eval/exec; adds __builtins__ to globals. */
static int eval_namespaces(Obj *g, Obj *l)
{
    if (*g && IS_NONE(*g))
        *g = NULL;
    if (*l && IS_NONE(*l))
        *l = NULL;
    if (*g && !IS_DICT(*g)) {
        err_set(E_TypeError, "globals must be a dict");
        return -1;
    }
    if (*l && !IS_DICT(*l) && !vm_lookup_special(*l, "__getitem__")) {
        err_set(E_TypeError, "locals must be a mapping");
        return -1;
    }
    if (!*g) {
        *g = vm_current_globals();
        if (!*g) {
            if (!err_occurred())
                err_set(E_SystemError, "globals and locals cannot be NULL");
            return -1;
        }
        if (!*l) {
            *l = vm_current_locals();
            if (!*l)
                return -1;
        }
    } else if (!*l) {
        *l = *g;
    }
    if (!dict_getitem_str(*g, NAME(__builtins__))) {
        if (dict_setitem(*g, NAME(__builtins__), g_builtins) < 0)
            return -1;
    }
    return 0;
}

static Obj eval_exec(Obj *args, size_t nargs, Obj kwnames, bool is_eval)
{
    const char *fname = is_eval ? "eval" : "exec";
    Obj *a = vm_roots(4);
    Obj res = NULL;
    if (is_eval) {   /* declared METH_ARGS(1, 3) */
        for (size_t i = 0; i < nargs; i++)
            a[i] = args[i];
    } else {
        static const char *const names[] = {"source", "globals", "locals", "closure", NULL};
        if (vm_parse_args("exec", args, nargs, kwnames, names, 1, 3, a) < 0)
            goto out;
        if (a[3] && !IS_NONE(a[3])) {
            err_set(E_NotImplementedError, "exec(): closure= is not supported yet");
            goto out;
        }
    }
    if (eval_namespaces(&a[1], &a[2]) < 0)
        goto out;
    if (IS_CODE(a[0])) {
        a[3] = a[0];
    } else {
        a[3] = compile_source(a[0], fname, "a string, bytes or code object", "<string>",
                              (is_eval ? COMPILE_EVAL : COMPILE_EXEC) | vm_current_future_flags(), is_eval);
        if (!a[3])
            goto out;
    }
    res = vm_eval_code(a[3], a[1], a[2]);
    if (res && !is_eval)
        res = g_None;
out:
    vm_unroots(a);
    return res;
}

static Obj bi_eval(Obj *args, size_t nargs, Obj kwnames) { return eval_exec(args, nargs, kwnames, true); }
static Obj bi_exec(Obj *args, size_t nargs, Obj kwnames) { return eval_exec(args, nargs, kwnames, false); }

static Obj bi_compile(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"source", "filename", "mode", "flags", "dont_inherit", "optimize",
                                        "_feature_version", NULL};
    Obj *a = vm_roots(8);
    Obj res = NULL;
    if (vm_parse_args("compile", args, nargs, kwnames, names, 3, 6, a) < 0)
        goto out;
    a[7] = vm_fspath(a[1]);
    if (!a[7])
        goto out;
    if (!IS_STR(a[7])) {
        err_set(E_NotImplementedError, "compile(): a bytes filename is not supported yet");
        goto out;
    }
    Obj mode = str_value(a[2]);
    if (!mode) {
        err_format(E_TypeError, "compile() argument 'mode' must be str, not %s", type_name(a[2]));
        goto out;
    }
    int m;
    if (str_eq_cstr(mode, "exec"))
        m = COMPILE_EXEC;
    else if (str_eq_cstr(mode, "eval"))
        m = COMPILE_EVAL;
    else if (str_eq_cstr(mode, "single"))
        m = COMPILE_SINGLE;
    else if (str_eq_cstr(mode, "func_type") && a[3] && vm_is_true(a[3]) > 0) {
        err_set(E_NotImplementedError, "compile(): mode 'func_type' (a function type comment) is not supported yet");
        goto out;
    } else {
        err_set(E_ValueError, "compile() mode must be 'exec', 'eval' or 'single'");
        goto out;
    }
    int64_t flags = 0;
    if (a[3] && vm_index_i64(a[3], &flags) < 0)
        goto out;
    if (flags & 0x1000) {
        err_set(E_NotImplementedError, "compile(): type comments (ast.PyCF_TYPE_COMMENTS) are not supported yet");
        goto out;
    }
    if (IS_CODE(a[0])) {
        res = a[0];
        goto out;
    }
    bool is_tree = ast_is_node(a[0]);
    if (is_tree && (flags & 0x400)) {   /* an AST asked for as an AST: itself */
        res = a[0];
        goto out;
    }
    if (flags & PY_CO_FUTURE_ANNOTATIONS)
        m |= COMPILE_FUTURE_ANNOTATIONS;
    int dont_inherit = a[4] ? vm_is_true(a[4]) : 0;
    if (dont_inherit < 0)
        goto out;
    if (!dont_inherit)   /* the caller's future features */
        m |= vm_current_future_flags();
    /* the filename as a C string that outlives the compiler's allocations */
    char *fn = strdup(str_cstr(a[7]));
    if (!fn) {
        err_nomemory();
        goto out;
    }
    if (is_tree) {
        res = ast_compile_objects(a[0], fn, m);
    } else if (flags & 0x400) {
        size_t len;
        char *text = source_text(a[0], "compile", "a string, bytes or AST object", &len);
        if (text) {
            res = ast_parse_to_objects(text, len, fn, m);
            free(text);
        }
    } else {
        res = compile_source(a[0], "compile", "a string, bytes or AST object", fn, m, false);
    }
    free(fn);
out:
    vm_unroots(a);
    return res;
}

/* ------------------------------------------------------------------ */
/* Files, import, exit                                                 */
/* ------------------------------------------------------------------ */

static Obj bi_open(Obj *args, size_t nargs, Obj kwnames)
{
    return file_open(args, nargs, kwnames);   /* fileobject.c */
}

static Obj bi_import(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"name", "globals", "locals", "fromlist", "level", NULL};
    Obj *a = vm_roots(5);
    Obj res = NULL;
    if (vm_parse_args("__import__", args, nargs, kwnames, names, 1, 5, a) < 0)
        goto out;
    Obj name = str_value(a[0]);
    if (!name) {
        err_format(E_TypeError, "__import__() argument 1 must be str, not %s", type_name(a[0]));
        goto out;
    }
    int64_t level = 0;
    if (a[4] && vm_index_i64(a[4], &level) < 0)
        goto out;
    if (level < 0) {
        err_set(E_ValueError, "level must be >= 0");
        goto out;
    }
    res = vm_import(name, a[1] && !IS_NONE(a[1]) ? a[1] : NULL, a[3] ? a[3] : g_None, (int)level);
out:
    vm_unroots(a);
    return res;
}

static Obj bi_exit(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs > 1) {
        err_format(E_TypeError, "Quitter.__call__() takes from 1 to 2 positional arguments but %zu were given",
                   nargs + 1);
        return NULL;
    }
    /* Like CPython's site.Quitter: stdin is closed first (ignored errors). */
    Obj exc = exc_new(E_SystemExit, args, nargs);
    if (exc)
        err_set_obj(exc);
    return NULL;
}

/* breakpoint(*args, **kws): calls sys.breakpointhook with them. */
static Obj bi_breakpoint(Obj *args, size_t nargs, Obj kwnames)
{
    Obj hook = sys_get("breakpointhook");
    if (!hook) {
        err_set(E_RuntimeError, "lost sys.breakpointhook");
        return NULL;
    }
    return vm_call(hook, args, nargs, kwnames);
}

static const MethodDef builtin_functions[] = {
    {"__build_class__", vm_build_class, METH_KW, NULL},
    {"__import__", bi_import, METH_KW, NULL},
    {"abs", bi_abs, METH_O, NULL},
    {"all", bi_all, METH_O, NULL},
    {"any", bi_any, METH_O, NULL},
    {"ascii", bi_ascii, METH_O, NULL},
    {"bin", bi_bin, METH_O, NULL},
    {"breakpoint", bi_breakpoint, METH_KW, NULL},
    {"callable", bi_callable, METH_O, NULL},
    {"chr", bi_chr, METH_O, NULL},
    {"compile", bi_compile, METH_KW, NULL},
    {"delattr", bi_delattr, METH_ARGS(2, 2), NULL},
    {"dir", bi_dir, METH_ARGS(0, 1), NULL},
    {"divmod", bi_divmod, METH_ARGS(2, 2), NULL},
    {"eval", bi_eval, METH_ARGS(1, 3), NULL},
    {"exec", bi_exec, METH_KW, NULL},
    {"exit", bi_exit, 0, NULL},
    {"format", bi_format, METH_ARGS(1, 2), NULL},
    {"getattr", bi_getattr, METH_ARGS(2, 3), NULL},
    {"globals", bi_globals, METH_NOARGS, NULL},
    {"hasattr", bi_hasattr, METH_ARGS(2, 2), NULL},
    {"hash", bi_hash, METH_O, NULL},
    {"hex", bi_hex, METH_O, NULL},
    {"id", bi_id, METH_O, NULL},
    {"input", bi_input, METH_ARGS(0, 1), NULL},
    {"isinstance", bi_isinstance, METH_ARGS(2, 2), NULL},
    {"issubclass", bi_issubclass, METH_ARGS(2, 2), NULL},
    {"iter", bi_iter, METH_ARGS(1, 2), NULL},
    {"aiter", bi_aiter, METH_O, "aiter($module, async_iterable, /)\n--\n\nReturn an AsyncIterator for an AsyncIterable object."},
    {"anext", bi_anext, METH_ARGS(1, 2), NULL},
    {"len", bi_len, METH_O, NULL},
    {"locals", bi_locals, METH_NOARGS, NULL},
    {"max", bi_max, METH_KW, NULL},
    {"min", bi_min, METH_KW, NULL},
    {"next", bi_next, METH_ARGS(1, 2), NULL},
    {"oct", bi_oct, METH_O, NULL},
    {"open", bi_open, METH_KW, NULL},
    {"ord", bi_ord, METH_O, NULL},
    {"pow", bi_pow, METH_KW, NULL},
    {"print", bi_print, METH_KW, NULL},
    {"quit", bi_exit, 0, NULL},
    {"repr", bi_repr, METH_O, NULL},
    {"round", bi_round, METH_KW, NULL},
    {"setattr", bi_setattr, METH_ARGS(3, 3), NULL},
    {"sorted", bi_sorted, METH_KW, NULL},
    {"sum", bi_sum, METH_KW, NULL},
    {"vars", bi_vars, METH_ARGS(0, 1), NULL},
    {NULL, NULL, 0, NULL},
};

Obj builtins_init(void)
{
    VM_GLOBAL_ROOT(g_builtins_module);
    VM_GLOBAL_ROOT(g_builtins);
    Obj m = module_new("builtins");
    if (!m)
        return NULL;
    g_builtins_module = m;
    g_builtins = ((ModuleObj *)m)->dict;
    module_add_functions(g_builtins_module, builtin_functions);
    static const struct { const char *name; TypeObj **type; } types[] = {
        {"bool", &T_bool}, {"int", &T_int}, {"float", &T_float}, {"complex", &T_complex}, {"str", &T_str}, {"bytes", &T_bytes},
        {"bytearray", &T_bytearray}, {"memoryview", &T_memoryview}, {"tuple", &T_tuple}, {"list", &T_list}, {"dict", &T_dict},
        {"set", &T_set}, {"frozenset", &T_frozenset}, {"range", &T_range}, {"slice", &T_slice},
        {"type", &T_type}, {"object", &T_object}, {"super", &T_super}, {"property", &T_property},
        {"staticmethod", &T_staticmethod}, {"classmethod", &T_classmethod}, {"enumerate", &T_enumerate},
        {"zip", &T_zip}, {"map", &T_map}, {"filter", &T_filter}, {"reversed", &T_reversed},
    };
    for (size_t i = 0; i < ARRAY_LEN(types); i++)
        if (*types[i].type && module_add(g_builtins_module, types[i].name, (Obj) * types[i].type) < 0)
            return NULL;
    if (module_add(g_builtins_module, "None", g_None) < 0 || module_add(g_builtins_module, "True", g_True) < 0 ||
        module_add(g_builtins_module, "False", g_False) < 0 ||
        module_add(g_builtins_module, "Ellipsis", g_Ellipsis) < 0 ||
        module_add(g_builtins_module, "NotImplemented", g_NotImplemented) < 0 ||
        module_add(g_builtins_module, "__debug__", vm_bool(sys_cflags.optimize == 0)) < 0 ||
        module_add(g_builtins_module, "__spec__", g_None) < 0 ||
        module_add(g_builtins_module, "__loader__", g_None) < 0 ||
        module_add(g_builtins_module, "__package__", g_empty_str) < 0)
        return NULL;
    Obj doc = str_from_cstr("Built-in functions, types, exceptions, and other objects.");
    if (!doc || module_add(g_builtins_module, "__doc__", doc) < 0)
        return NULL;
    if (exceptions_add_builtins(g_builtins_module) < 0)
        return NULL;
    VM_GLOBAL_ROOT(g_modules);
    g_modules = dict_new();
    if (!g_modules)
        return NULL;
    if (dict_setitem_cstr(g_modules, "builtins", g_builtins_module) < 0)
        return NULL;
    return g_builtins_module;
}
