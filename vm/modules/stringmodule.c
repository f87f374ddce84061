/* _string: the scanner under CPython's Lib/string.py Formatter.
 *
 * formatter_parser(s) iterates over (literal_text, field_name, format_spec,
 * conversion) for the replacement fields of a str.format string, and
 * formatter_field_name_split(name) splits a field name into its first part
 * and an iterator over (is_attribute, key) for the .attr and [key] parts.
 * Both iterators parse lazily: an error in the string is raised by the
 * next() that reaches it, after the parts before it, as CPython does.
 * Positions are byte offsets into the str's UTF-8. */
#include "modules.h"
#include "objects/containers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static TypeObj *T_formatteriterator, *T_fieldnameiterator;

static Obj expect_str(Obj v)
{
    Obj s = vm_unwrap(v);
    if (!IS_STR(s)) {
        err_format(E_TypeError, "expected str, got %s", type_name(v));
        return NULL;
    }
    return s;
}

static Obj format_error(const char *msg)
{
    err_set(E_ValueError, msg);
    return NULL;
}

/* ---- formatter_parser ---- */

/* The next (literal, field_name, format_spec, conversion) of the string
 * `a` from byte *pos; NULL at the end (no error) or on an error. */
static Obj parse_next(Obj it)
{
    Obj s = ITER(it)->a;
    const char *p = str_cstr(s);
    int64_t n = STR(s)->nbytes, pos = ITER(it)->i;
    if (pos >= n)
        return NULL;
    int64_t start = pos;
    char c = 0;
    bool markup = false;
    while (pos < n) {
        c = p[pos++];
        if (c == '{' || c == '}') {
            markup = true;
            break;
        }
    }
    int64_t lit_end = pos;
    if (markup) {
        bool at_end = pos >= n;
        if (c == '}' && (at_end || p[pos] != '}'))
            return format_error("Single '}' encountered in format string");
        if (c == '{' && at_end)
            return format_error("Single '{' encountered in format string");
        if (p[pos] == c) {   /* "{{" or "}}": the literal keeps one brace */
            pos++;
            markup = false;
        } else {
            lit_end--;
        }
    }
    int64_t fstart = pos, fend = pos, sstart = pos, send = pos, cstart = -1, cend = -1;
    if (markup) {
        /* the field name runs to ':', '!' or '}'; a [key] may hold any of them */
        while (pos < n && p[pos] != ':' && p[pos] != '!' && p[pos] != '}') {
            if (p[pos] == '{')
                return format_error("unexpected '{' in field name");
            if (p[pos] == '[') {
                while (pos < n && p[pos] != ']')
                    pos++;
                if (pos >= n)
                    break;
            }
            pos++;
        }
        if (pos >= n)
            return format_error("expected '}' before end of string");
        fend = pos;
        if (p[pos] == '!') {
            pos++;
            if (pos >= n)
                return format_error("end of string while looking for conversion specifier");
            int len;
            utf8_decode((const unsigned char *)p + pos, &len);
            cstart = pos;
            pos += len;
            cend = pos;
            if (pos >= n)
                return format_error("unmatched '{' in format spec");
            if (p[pos] != ':' && p[pos] != '}')
                return format_error("expected ':' after conversion specifier");
        }
        sstart = send = pos;
        if (p[pos] == ':') {
            sstart = ++pos;
            int level = 1;
            for (; pos < n; pos++) {
                if (p[pos] == '{')
                    level++;
                else if (p[pos] == '}' && --level == 0)
                    break;
            }
            if (pos >= n)
                return format_error("unmatched '{' in format spec");
            send = pos;
        }
        pos++;   /* the closing '}' */
    }
    Obj *r = vm_roots(6);
    Obj res = NULL;
    r[0] = it;
    r[5] = s;
    if (!(r[1] = str_new(str_cstr(r[5]) + start, (size_t)(lit_end - start))))
        goto out;
    if (markup) {
        if (!(r[2] = str_new(str_cstr(r[5]) + fstart, (size_t)(fend - fstart))) ||
            !(r[3] = str_new(str_cstr(r[5]) + sstart, (size_t)(send - sstart))))
            goto out;
        r[4] = cstart < 0 ? g_None : str_new(str_cstr(r[5]) + cstart, (size_t)(cend - cstart));
        if (!r[4])
            goto out;
    } else {
        r[2] = r[3] = r[4] = g_None;
    }
    res = tuple_pack(4, r[1], r[2], r[3], r[4]);
    if (res) {
        VM_WRITE(r[0]);
        ITER(r[0])->i = pos;
    }
out:
    vm_unroots(r);
    return res;
}

static Obj formatteriterator_next(Obj it)
{
    if (!ITER(it)->a)
        return NULL;
    Obj *r = vm_roots(1);
    r[0] = it;
    Obj res = parse_next(it);
    if (!res) {   /* exhausted, or the error ends it */
        VM_WRITE(r[0]);
        ITER(r[0])->a = NULL;
    }
    vm_unroots(r);
    return res;
}

static Obj s_formatter_parser(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = expect_str(args[0]);
    return s ? iter_alloc(T_formatteriterator, s, 0) : NULL;
}

/* ---- formatter_field_name_split ---- */

/* A key of all decimal digits as an int (CPython's rule, any script's
 * digits); otherwise the str itself. */
static Obj key_value(Obj s, int64_t from, int64_t to)
{
    const unsigned char *p = (const unsigned char *)str_cstr(s);
    int64_t v = 0;
    bool digits = from < to;
    for (int64_t i = from; i < to && digits;) {
        int len;
        int d = uni_decimal_value(utf8_decode(p + i, &len));
        i += len;
        if (d < 0)
            digits = false;
        else if (v > (INT64_MAX - d) / 10)
            return format_error("Too many decimal digits in format string");
        else
            v = v * 10 + d;
    }
    if (digits)
        return int_from_i64(v);
    return str_new(str_cstr(s) + from, (size_t)(to - from));
}

static Obj fieldname_next(Obj it)
{
    Obj s = ITER(it)->a;
    if (!s)
        return NULL;
    const char *p = str_cstr(s);
    int64_t n = STR(s)->nbytes, pos = ITER(it)->i;
    if (pos >= n)
        return NULL;
    bool attr;
    int64_t kstart, kend;
    if (p[pos] == '.') {
        attr = true;
        kstart = ++pos;
        while (pos < n && p[pos] != '.' && p[pos] != '[')
            pos++;
        kend = pos;
    } else if (p[pos] == '[') {
        attr = false;
        kstart = ++pos;
        while (pos < n && p[pos] != ']')
            pos++;
        if (pos >= n)
            return format_error("Missing ']' in format string");
        kend = pos++;   /* what follows ']' is checked by the next call */
    } else {
        return format_error("Only '.' or '[' may follow ']' in format field specifier");
    }
    if (kstart == kend)
        return format_error("Empty attribute in format string");
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = it;
    r[1] = attr ? str_new(p + kstart, (size_t)(kend - kstart)) : key_value(s, kstart, kend);
    if (r[1]) {
        res = tuple_pack(2, attr ? g_True : g_False, r[1]);
        if (res) {
            VM_WRITE(r[0]);
            ITER(r[0])->i = pos;
        }
    }
    vm_unroots(r);
    return res;
}

static Obj fieldnameiterator_next(Obj it)
{
    Obj *r = vm_roots(1);
    r[0] = it;
    Obj res = fieldname_next(it);
    if (!res && ITER(r[0])->a) {
        VM_WRITE(r[0]);
        ITER(r[0])->a = NULL;
    }
    vm_unroots(r);
    return res;
}

static Obj s_formatter_field_name_split(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = expect_str(args[0]);
    if (!s)
        return NULL;
    const char *p = str_cstr(s);
    int64_t n = STR(s)->nbytes, first = 0;
    while (first < n && p[first] != '.' && p[first] != '[')
        first++;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = s;
    r[1] = key_value(s, 0, first);
    if (r[1] && (r[2] = iter_alloc(T_fieldnameiterator, r[0], 0))) {
        ITER(r[2])->i = first;
        res = tuple_pack(2, r[1], r[2]);
    }
    vm_unroots(r);
    return res;
}

static const MethodDef string_functions[] = {
    {"formatter_parser", s_formatter_parser, METH_O,
     "parse the argument as a format string"},
    {"formatter_field_name_split", s_formatter_field_name_split, METH_O,
     "split the argument as a field name"},
    {NULL, NULL, 0, NULL},
};

Obj string_module_init(void)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = module_new("_string");
    if (!r[0])
        goto out;
    module_add_functions(r[0], string_functions);
    r[1] = str_from_cstr("string helper module");
    if (!r[1] || module_add(r[0], "__doc__", r[1]) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

/* Start-up: the two iterator types. */
void string_init(void)
{
    T_formatteriterator = (TypeObj *)type_new_builtin("formatteriterator", T_object, TID_ITER, 0);
    T_fieldnameiterator = (TypeObj *)type_new_builtin("fieldnameiterator", T_object, TID_ITER, 0);
    if (!T_formatteriterator || !T_fieldnameiterator) {
        fputs("tmpy: fatal: out of memory at start-up\n", stderr);
        exit(1);
    }
    VM_WRITE_RARE(T_formatteriterator);
    T_formatteriterator->tp_iter = iter_self;
    T_formatteriterator->tp_iternext = formatteriterator_next;
    VM_WRITE_RARE(T_fieldnameiterator);
    T_fieldnameiterator->tp_iter = iter_self;
    T_fieldnameiterator->tp_iternext = fieldnameiterator_next;
    type_ready(T_formatteriterator);
    type_ready(T_fieldnameiterator);
}
