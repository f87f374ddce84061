/* _csv: the C half of CPython's Lib/csv.py (which runs unchanged over it):
 * Dialect, reader, writer, the dialect registry, field_size_limit, Error
 * and the QUOTE_* constants, with CPython 3.11's behaviour and messages.
 *
 * A Dialect is an IterObj (TPF_ITER_VALUE, so Python subclasses wrap one):
 * i packs delimiter, quotechar and escapechar (21 bits each, NO_CHAR when
 * unset), n = quoting, kind = the flags below, a = lineterminator.
 * A reader is an IterObj: a = the line iterator, b = its Dialect,
 * i = line_num. A record is parsed within one __next__ call (the partial
 * field lives in a C buffer of that call), so a reader between records
 * carries no parser state. A writer: a = the file's bound write, b = its
 * Dialect. */
#include "modules.h"
#include "objects/objects.h"
#include "objects/containers.h"
#include "objects/strobj.h"
#include "objects/numbers.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { QUOTE_MINIMAL, QUOTE_ALL, QUOTE_NONNUMERIC, QUOTE_NONE };
enum { DF_DOUBLEQUOTE = 1, DF_SKIPINITIALSPACE = 2, DF_STRICT = 4 };
#define NO_CHAR 0x1FFFFF   /* a 21-bit code that is no character */
#define EOL (-2)           /* the end of a line, fed to the parser after its characters */

static TypeObj *T_Dialect, *T_reader, *T_writer;
static Obj g_csv_error;         /* _csv.Error */
static Obj g_dialects;          /* the registry: name -> Dialect */
static int64_t g_field_limit = 128 * 1024;   /* written inevitable (field_size_limit) */

/* The dialect's settings unpacked for the parser and the writer. */
typedef struct {
    int32_t delimiter, quotechar, escapechar;   /* -1: not set */
    int quoting;
    bool doublequote, skipinitialspace, strict;
} DialectC;

static int32_t unpack_char(int64_t packed, int shift)
{
    int32_t c = (int32_t)((packed >> shift) & NO_CHAR);
    return c == NO_CHAR ? -1 : c;
}

static DialectC dialect_c(Obj d)
{
    IterObj *it = ITER(vm_unwrap(d));
    DialectC c;
    c.delimiter = unpack_char(it->i, 0);
    c.quotechar = unpack_char(it->i, 21);
    c.escapechar = unpack_char(it->i, 42);
    c.quoting = (int)it->n;
    c.doublequote = it->kind & DF_DOUBLEQUOTE;
    c.skipinitialspace = it->kind & DF_SKIPINITIALSPACE;
    c.strict = it->kind & DF_STRICT;
    return c;
}

static Obj csv_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static Obj csv_error(const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    err_set((TypeObj *)g_csv_error, msg);
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Dialect                                                             */
/* ------------------------------------------------------------------ */

static const char *const dialect_names[] = {"dialect", "delimiter", "doublequote", "escapechar", "lineterminator",
                                            "quotechar", "quoting", "skipinitialspace", "strict", NULL};
enum { A_DIALECT, A_DELIMITER, A_DOUBLEQUOTE, A_ESCAPECHAR, A_LINETERMINATOR, A_QUOTECHAR, A_QUOTING,
       A_SKIPINITIALSPACE, A_STRICT, A_COUNT };

/* One character from a 1-character str; None gives -1 where allowed. */
static int set_char(const char *name, int32_t *out, Obj v, int32_t dflt, bool none_ok)
{
    if (!v) {
        *out = dflt;
        return 0;
    }
    if (none_ok && IS_NONE(v)) {
        *out = -1;
        return 0;
    }
    Obj s = vm_unwrap(v);
    if (!IS_STR(s)) {
        err_format(E_TypeError, "\"%s\" must be string%s, not %s", name, none_ok ? " or None" : "", type_name(v));
        return -1;
    }
    if (STR(s)->length != 1) {
        err_format(E_TypeError, "\"%s\" must be a 1-character string", name);
        return -1;
    }
    int len;
    *out = (int32_t)utf8_decode((const unsigned char *)str_cstr(s), &len);
    return 0;
}

static int set_bool(bool *out, Obj v, bool dflt)
{
    if (!v) {
        *out = dflt;
        return 0;
    }
    int t = vm_is_true(v);
    if (t < 0)
        return -1;
    *out = t;
    return 0;
}

/* Dialect(dialect=None, **settings): the settings given, else those of
 * `dialect` (a registered name, a Dialect, or any object with the
 * attributes), else the defaults. A Dialect given alone is returned as is. */
static Obj dialect_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    Obj *a = vm_roots(A_COUNT + 2);
    Obj res = NULL;
    for (int64_t k = 0; kwnames && k < TUPLE_LEN(kwnames); k++) {
        Obj kn = TUPLE_ITEMS(kwnames)[k];
        bool known = false;
        for (int i = 0; dialect_names[i] && !known; i++)
            known = str_eq_cstr(kn, dialect_names[i]);
        if (!known) {
            err_format(E_TypeError, "'%s' is an invalid keyword argument for this function", str_cstr(kn));
            goto out;
        }
    }
    if (vm_parse_args("Dialect", args, nargs, kwnames, dialect_names, 0, A_COUNT, a) < 0)
        goto out;
    if (a[A_DIALECT]) {
        if (IS_STR(vm_unwrap(a[A_DIALECT]))) {
            Obj d = dict_getitem(g_dialects, a[A_DIALECT]);
            if (!d) {
                if (!err_occurred())
                    csv_error("unknown dialect");
                goto out;
            }
            a[A_DIALECT] = d;
        }
        bool alone = true;
        for (int k = 1; k < A_COUNT; k++)
            alone = alone && !a[k];
        if (alone && vm_isinstance_type(a[A_DIALECT], T_Dialect)) {
            res = a[A_DIALECT];
            goto out;
        }
        for (int k = 1; k < A_COUNT; k++) {
            if (a[k])
                continue;
            a[k] = vm_getattr_cstr(a[A_DIALECT], dialect_names[k]);
            if (!a[k]) {
                if (!err_matches(E_AttributeError))
                    goto out;
                err_clear();
            }
        }
    }
    DialectC c;
    if (set_char("delimiter", &c.delimiter, a[A_DELIMITER], ',', false) < 0 ||
        set_bool(&c.doublequote, a[A_DOUBLEQUOTE], true) < 0 ||
        set_char("escapechar", &c.escapechar, a[A_ESCAPECHAR], -1, true) < 0)
        goto out;
    Obj lt = a[A_LINETERMINATOR];
    if (!lt) {
        if (!(a[A_LINETERMINATOR] = str_from_cstr("\r\n")))
            goto out;
    } else if (!IS_NONE(lt) && !IS_STR(vm_unwrap(lt))) {
        err_set(E_TypeError, "\"lineterminator\" must be a string");
        goto out;
    }
    if (set_char("quotechar", &c.quotechar, a[A_QUOTECHAR], '"', true) < 0)
        goto out;
    int64_t quoting = QUOTE_MINIMAL;
    if (a[A_QUOTING]) {
        Obj q = a[A_QUOTING];
        if (!IS_SMALLINT(q) && TID(q) != TID_BIGINT) {   /* an exact int (CPython's PyLong_CheckExact) */
            err_set(E_TypeError, "\"quoting\" must be an integer");
            goto out;
        }
        if (int_as_i64(q, &quoting) < 0 || quoting > INT32_MAX || quoting < INT32_MIN) {
            err_clear();
            err_set(E_OverflowError, "Python int too large to convert to C int");
            goto out;
        }
    }
    c.quoting = (int)quoting;
    if (set_bool(&c.skipinitialspace, a[A_SKIPINITIALSPACE], false) < 0 ||
        set_bool(&c.strict, a[A_STRICT], false) < 0)
        goto out;
    if (quoting < QUOTE_MINIMAL || quoting > QUOTE_NONE) {
        err_set(E_TypeError, "bad \"quoting\" value");
        goto out;
    }
    if (a[A_QUOTECHAR] && IS_NONE(a[A_QUOTECHAR]) && !a[A_QUOTING])
        c.quoting = QUOTE_NONE;
    if (c.quoting != QUOTE_NONE && c.quotechar < 0) {
        err_set(E_TypeError, "quotechar must be set if quoting enabled");
        goto out;
    }
    if (IS_NONE(a[A_LINETERMINATOR])) {
        err_set(E_TypeError, "lineterminator must be set");
        goto out;
    }
    Obj d = iter_alloc(T_Dialect, a[A_LINETERMINATOR], 0);
    if (!d)
        goto out;
    IterObj *it = ITER(d);
    it->a = vm_unwrap(it->a);
    it->i = (int64_t)(c.delimiter < 0 ? NO_CHAR : c.delimiter) | (int64_t)(c.quotechar < 0 ? NO_CHAR : c.quotechar) << 21 |
            (int64_t)(c.escapechar < 0 ? NO_CHAR : c.escapechar) << 42;
    it->n = c.quoting;
    it->kind = (c.doublequote ? DF_DOUBLEQUOTE : 0) | (c.skipinitialspace ? DF_SKIPINITIALSPACE : 0) |
               (c.strict ? DF_STRICT : 0);
    res = d;
out:
    vm_unroots(a);
    return res;
}

static Obj char_or_none(int32_t c)
{
    return c < 0 ? g_None : str_from_codepoint((uint32_t)c);
}

static Obj d_delimiter(Obj *a, size_t n, Obj k) { return char_or_none(dialect_c(a[0]).delimiter); }
static Obj d_quotechar(Obj *a, size_t n, Obj k) { return char_or_none(dialect_c(a[0]).quotechar); }
static Obj d_escapechar(Obj *a, size_t n, Obj k) { return char_or_none(dialect_c(a[0]).escapechar); }
static Obj d_lineterminator(Obj *a, size_t n, Obj k) { return ITER(vm_unwrap(a[0]))->a; }
static Obj d_quoting(Obj *a, size_t n, Obj k) { return MAKE_SMALLINT(dialect_c(a[0]).quoting); }
static Obj d_doublequote(Obj *a, size_t n, Obj k) { return vm_bool(dialect_c(a[0]).doublequote); }
static Obj d_skipinitialspace(Obj *a, size_t n, Obj k) { return vm_bool(dialect_c(a[0]).skipinitialspace); }
static Obj d_strict(Obj *a, size_t n, Obj k) { return vm_bool(dialect_c(a[0]).strict); }

/* CPython's read-only members say only this when set. */
static Obj readonly_set(Obj *a, size_t n, Obj k)
{
    err_set(E_AttributeError, "readonly attribute");
    return NULL;
}

static Obj dialect_reduce_ex(Obj *args, size_t nargs, Obj kwnames)
{
    err_format(E_TypeError, "cannot pickle '%s' instances", str_cstr(TYPE(args[0])->name));
    return NULL;
}

/* The Dialect for a reader or writer: Dialect(dialect, **kwargs), or
 * Dialect(**kwargs) without a positional one (then dialect= may be a keyword). */
static Obj make_dialect(Obj dialect, Obj *kwvals, Obj kwnames)
{
    int64_t nk = kwnames ? TUPLE_LEN(kwnames) : 0;
    size_t npos = dialect ? 1 : 0;
    Obj *r = vm_roots((int)nk + 1);
    r[0] = dialect;
    for (int64_t i = 0; i < nk; i++)
        r[i + npos] = kwvals[i];
    Obj res = dialect_new((Obj)T_Dialect, r, npos, kwnames);
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* reader                                                              */
/* ------------------------------------------------------------------ */

enum { START_RECORD, START_FIELD, ESCAPED_CHAR, IN_FIELD, IN_QUOTED_FIELD, ESCAPE_IN_QUOTED_FIELD,
       QUOTE_IN_QUOTED_FIELD, EAT_CRNL, AFTER_ESCAPED_CRNL };

/* One record being parsed: r[0] = the record's list of fields. */
typedef struct {
    DialectC d;
    int state;
    bool numeric;       /* the field started unquoted under QUOTE_NONNUMERIC */
    StrBuf field;
    int64_t field_len;  /* in characters */
    Obj *r;
} Parser;

static int add_char(Parser *p, int32_t c)
{
    if (p->field_len >= g_field_limit) {
        csv_error("field larger than field limit (%ld)", (long)g_field_limit);
        return -1;
    }
    sb_add_codepoint(&p->field, (uint32_t)c);
    p->field_len++;
    return 0;
}

static int save_field(Parser *p)
{
    Obj f = str_new(p->field.p ? p->field.p : "", p->field.len);
    p->field.len = 0;
    p->field_len = 0;
    if (!f)
        return -1;
    if (p->numeric) {
        p->numeric = false;
        f = vm_call1((Obj)T_float, f);
        if (!f)
            return -1;
    }
    return list_append(p->r[0], f);
}

static bool is_crnl(int32_t c) { return c == '\n' || c == '\r'; }

/* One step of the parser on character c (or EOL). */
static int process_char(Parser *p, int32_t c)
{
    const DialectC *d = &p->d;
    switch (p->state) {
    case START_RECORD:
        if (c == EOL)
            return 0;   /* an empty line: an empty record */
        if (is_crnl(c)) {
            p->state = EAT_CRNL;
            return 0;
        }
        p->state = START_FIELD;
        /* fall through */
    case START_FIELD:
        if (is_crnl(c) || c == EOL) {
            if (save_field(p) < 0)
                return -1;
            p->state = c == EOL ? START_RECORD : EAT_CRNL;
        } else if (c == d->quotechar && d->quoting != QUOTE_NONE) {
            p->state = IN_QUOTED_FIELD;
        } else if (c == d->escapechar) {
            p->state = ESCAPED_CHAR;
        } else if (c == ' ' && d->skipinitialspace) {
            /* skipped */
        } else if (c == d->delimiter) {
            if (save_field(p) < 0)
                return -1;
        } else {
            if (d->quoting == QUOTE_NONNUMERIC)
                p->numeric = true;
            if (add_char(p, c) < 0)
                return -1;
            p->state = IN_FIELD;
        }
        return 0;
    case ESCAPED_CHAR:
        if (is_crnl(c)) {
            if (add_char(p, c) < 0)
                return -1;
            p->state = AFTER_ESCAPED_CRNL;
            return 0;
        }
        if (add_char(p, c == EOL ? '\n' : c) < 0)
            return -1;
        p->state = IN_FIELD;
        return 0;
    case AFTER_ESCAPED_CRNL:
        if (c == EOL)
            return 0;
        p->state = IN_FIELD;
        /* fall through */
    case IN_FIELD:
        if (is_crnl(c) || c == EOL) {
            if (save_field(p) < 0)
                return -1;
            p->state = c == EOL ? START_RECORD : EAT_CRNL;
        } else if (c == d->escapechar) {
            p->state = ESCAPED_CHAR;
        } else if (c == d->delimiter) {
            if (save_field(p) < 0)
                return -1;
            p->state = START_FIELD;
        } else if (add_char(p, c) < 0) {
            return -1;
        }
        return 0;
    case IN_QUOTED_FIELD:
        if (c == EOL) {
            /* the line's own newline is in the field already */
        } else if (c == d->escapechar) {
            p->state = ESCAPE_IN_QUOTED_FIELD;
        } else if (c == d->quotechar && d->quoting != QUOTE_NONE) {
            p->state = d->doublequote ? QUOTE_IN_QUOTED_FIELD : IN_FIELD;
        } else if (add_char(p, c) < 0) {
            return -1;
        }
        return 0;
    case ESCAPE_IN_QUOTED_FIELD:
        if (add_char(p, c == EOL ? '\n' : c) < 0)
            return -1;
        p->state = IN_QUOTED_FIELD;
        return 0;
    case QUOTE_IN_QUOTED_FIELD:
        if (d->quoting != QUOTE_NONE && c == d->quotechar) {   /* a doubled quote */
            if (add_char(p, c) < 0)
                return -1;
            p->state = IN_QUOTED_FIELD;
        } else if (c == d->delimiter) {
            if (save_field(p) < 0)
                return -1;
            p->state = START_FIELD;
        } else if (is_crnl(c) || c == EOL) {
            if (save_field(p) < 0)
                return -1;
            p->state = c == EOL ? START_RECORD : EAT_CRNL;
        } else if (!d->strict) {
            if (add_char(p, c) < 0)
                return -1;
            p->state = IN_FIELD;
        } else {
            char dl[8] = {0}, qc[8] = {0};
            utf8_encode((uint32_t)d->delimiter, dl);
            utf8_encode((uint32_t)d->quotechar, qc);
            csv_error("'%s' expected after '%s'", dl, qc);
            return -1;
        }
        return 0;
    case EAT_CRNL:
        if (is_crnl(c))
            return 0;
        if (c == EOL) {
            p->state = START_RECORD;
            return 0;
        }
        csv_error("new-line character seen in unquoted field - do you need to open the file in "
                  "universal-newline mode?");
        return -1;
    }
    return 0;
}

static Obj reader_next(Obj self)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[1] = self;
    r[0] = list_new(0);
    if (!r[0]) {
        vm_unroots(r);
        return NULL;
    }
    Parser p = {.d = dialect_c(ITER(r[1])->b), .state = START_RECORD, .r = r};
    sb_init(&p.field);
    for (;;) {
        r[2] = vm_next(ITER(r[1])->a);
        if (!r[2]) {
            if (!err_occurred() && (p.field_len != 0 || p.state == IN_QUOTED_FIELD)) {
                if (p.d.strict)
                    csv_error("unexpected end of data");
                else if (save_field(&p) == 0)
                    res = r[0];
            }
            goto out;
        }
        Obj line = vm_unwrap(r[2]);
        if (!IS_STR(line)) {
            csv_error("iterator should return strings, not %s (the file should be opened in text mode)",
                      type_name(r[2]));
            goto out;
        }
        VM_WRITE(r[1]);
        ITER(r[1])->i++;
        /* the characters of the line, read by offset: the str may move while fields are made */
        int64_t nbytes = STR(line)->nbytes;
        for (int64_t off = 0; off < nbytes;) {
            int len;
            int32_t c = (int32_t)utf8_decode((const unsigned char *)str_cstr(vm_unwrap(r[2])) + off, &len);
            off += len;
            if (process_char(&p, c) < 0)
                goto out;
        }
        if (process_char(&p, EOL) < 0)
            goto out;
        if (p.state == START_RECORD)
            break;
    }
    res = r[0];
out:
    sb_free(&p.field);
    vm_unroots(r);
    return res;
}

static Obj reader_dialect(Obj *a, size_t n, Obj k) { return ITER(a[0])->b; }
static Obj reader_line_num(Obj *a, size_t n, Obj k) { return int_from_i64(ITER(a[0])->i); }

/* reader(iterable, dialect='excel', **fmtparams) */
static Obj csv_reader(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs < 1 || nargs > 2) {
        err_format(E_TypeError, " expected at %s %d argument%s, got %zu", nargs ? "most" : "least",
                   nargs ? 2 : 1, nargs ? "s" : "", nargs);
        return NULL;
    }
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[2] = kwnames;   /* (a tuple built for **kwargs may move) */
    r[0] = vm_iter(args[0]);
    if (!r[0])
        goto out;
    r[1] = make_dialect(nargs > 1 ? args[1] : NULL, args + nargs, r[2]);
    if (!r[1])
        goto out;
    res = iter_alloc(T_reader, r[0], 0);
    if (res)
        ITER(res)->b = r[1];
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* writer                                                              */
/* ------------------------------------------------------------------ */

/* CPython's PyNumber_Check: what QUOTE_NONNUMERIC leaves unquoted. */
static bool is_number(Obj v)
{
    TypeObj *t = TYPE(v);
    return IS_INT(v) || TID(v) == TID_FLOAT || vm_isinstance_type(v, T_complex) || t->nb_index || t->nb_int ||
           t->nb_float;
}

/* Is character c one of the line terminator's? */
static bool in_lineterm(const char *lt, int32_t c)
{
    if (c <= 0)
        return false;
    char u[8] = {0};
    utf8_encode((uint32_t)c, u);
    return strstr(lt, u) != NULL;
}

/* Appends one field to the line in b: a delimiter before all but the
 * first, quotes when asked or needed (QUOTE_MINIMAL: a delimiter, quote or
 * line terminator character inside), escapes where the dialect wants them. */
static int join_field(StrBuf *b, const DialectC *d, Obj lineterm, Obj field, bool quoted, bool first)
{
    const unsigned char *s = field ? (const unsigned char *)str_cstr(field) : (const unsigned char *)"";
    int64_t nbytes = field ? STR(field)->nbytes : 0;
    const char *lt = str_cstr(lineterm);
    for (int64_t off = 0; off < nbytes && !quoted && d->quoting != QUOTE_NONE;) {
        int len;
        int32_t c = (int32_t)utf8_decode(s + off, &len);
        off += len;
        if (c == d->escapechar || (c == d->quotechar && !d->doublequote))
            continue;   /* escaped, not quoted */
        if (c == d->delimiter || c == d->quotechar || in_lineterm(lt, c))
            quoted = true;
    }
    if (!first)
        sb_add_codepoint(b, (uint32_t)d->delimiter);
    if (quoted)
        sb_add_codepoint(b, (uint32_t)d->quotechar);
    for (int64_t off = 0; off < nbytes;) {
        int len;
        int32_t c = (int32_t)utf8_decode(s + off, &len);
        off += len;
        if (c == d->delimiter || c == d->escapechar || c == d->quotechar || in_lineterm(lt, c)) {
            bool escape = false;
            if (d->quoting == QUOTE_NONE) {
                escape = true;
            } else if (c == d->quotechar) {
                if (d->doublequote)
                    sb_add_codepoint(b, (uint32_t)c);
                else
                    escape = true;
            } else if (c == d->escapechar) {
                escape = true;
            }
            if (escape) {
                if (d->escapechar < 0) {
                    csv_error("need to escape, but no escapechar set");
                    return -1;
                }
                sb_add_codepoint(b, (uint32_t)d->escapechar);
            }
        }
        sb_add_codepoint(b, (uint32_t)c);
    }
    if (quoted)
        sb_add_codepoint(b, (uint32_t)d->quotechar);
    return 0;
}

static Obj writer_writerow(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = vm_iter(args[1]);
    if (!r[1]) {
        if (err_matches(E_TypeError)) {
            err_clear();
            csv_error("iterable expected, not %s", type_name(args[1]));
        }
        vm_unroots(r);
        return NULL;
    }
    DialectC d = dialect_c(ITER(r[0])->b);
    StrBuf b;
    sb_init(&b);
    int64_t nfields = 0;
    for (;;) {
        r[2] = vm_next(r[1]);
        if (!r[2]) {
            if (err_occurred())
                goto out;
            break;
        }
        bool quoted = d.quoting == QUOTE_ALL || (d.quoting == QUOTE_NONNUMERIC && !is_number(r[2]));
        if (IS_NONE(r[2])) {
            r[3] = NULL;
        } else {
            r[3] = vm_unwrap(r[2]);
            if (!IS_STR(r[3]) && !(r[3] = vm_str(r[2])))
                goto out;
            r[3] = vm_unwrap(r[3]);
        }
        if (join_field(&b, &d, ITER(vm_unwrap(ITER(r[0])->b))->a, r[3], quoted, nfields == 0) < 0)
            goto out;
        nfields++;
    }
    if (nfields > 0 && b.len == 0) {
        /* a record of one empty field is written as "" (a blank line would read as no fields) */
        if (d.quoting == QUOTE_NONE) {
            csv_error("single empty field record must be quoted");
            goto out;
        }
        join_field(&b, &d, ITER(vm_unwrap(ITER(r[0])->b))->a, NULL, true, true);
    }
    sb_add_str(&b, ITER(vm_unwrap(ITER(r[0])->b))->a);
    r[3] = str_new(b.p ? b.p : "", b.len);
    if (r[3])
        res = vm_call1(ITER(r[0])->a, r[3]);
out:
    sb_free(&b);
    vm_unroots(r);
    return res;
}

static Obj writer_writerows(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = vm_iter(args[1]);
    while (r[1]) {
        r[2] = vm_next(r[1]);
        if (!r[2]) {
            if (!err_occurred())
                res = g_None;
            break;
        }
        Obj a[2] = {r[0], r[2]};
        if (!writer_writerow(a, 2, NULL))
            break;
    }
    vm_unroots(r);
    return res;
}

static Obj writer_dialect(Obj *a, size_t n, Obj k) { return ITER(a[0])->b; }

/* writer(fileobj, dialect='excel', **fmtparams) */
static Obj csv_writer(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs < 1 || nargs > 2) {
        err_format(E_TypeError, " expected at %s %d argument%s, got %zu", nargs ? "most" : "least",
                   nargs ? 2 : 1, nargs ? "s" : "", nargs);
        return NULL;
    }
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[2] = kwnames;   /* (a tuple built for **kwargs may move) */
    r[0] = vm_getattr_cstr(args[0], "write");
    if (!r[0]) {
        if (err_matches(E_AttributeError)) {
            err_clear();
            err_set(E_TypeError, "argument 1 must have a \"write\" method");
        }
        goto out;
    }
    r[1] = make_dialect(nargs > 1 ? args[1] : NULL, args + nargs, r[2]);
    if (!r[1])
        goto out;
    res = iter_alloc(T_writer, r[0], 0);
    if (res)
        ITER(res)->b = r[1];
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* The registry and field_size_limit                                   */
/* ------------------------------------------------------------------ */

static Obj csv_register_dialect(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs < 1 || nargs > 2) {
        err_format(E_TypeError, " expected at %s %d argument%s, got %zu", nargs ? "most" : "least",
                   nargs ? 2 : 1, nargs ? "s" : "", nargs);
        return NULL;
    }
    if (!IS_STR(vm_unwrap(args[0]))) {
        err_set(E_TypeError, "dialect name must be a string");
        return NULL;
    }
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = make_dialect(nargs > 1 ? args[1] : NULL, args + nargs, kwnames);
    if (r[1] && dict_setitem(g_dialects, r[0], r[1]) == 0)
        res = g_None;
    vm_unroots(r);
    return res;
}

static Obj csv_unregister_dialect(Obj *args, size_t nargs, Obj kwnames)
{
    int rc = dict_delitem(g_dialects, args[0]);
    if (rc < 0 && err_matches(E_KeyError)) {
        err_clear();
        return csv_error("unknown dialect");
    }
    return rc < 0 ? NULL : g_None;
}

static Obj csv_get_dialect(Obj *args, size_t nargs, Obj kwnames)
{
    Obj d = dict_getitem(g_dialects, args[0]);
    if (!d && !err_occurred())
        csv_error("unknown dialect");
    return d;
}

static Obj csv_list_dialects(Obj *args, size_t nargs, Obj kwnames)
{
    return vm_call1((Obj)T_list, g_dialects);
}

/* field_size_limit([new_limit]): the old limit; sets the new one. */
static Obj csv_field_size_limit(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"new_limit", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    if (vm_parse_args("field_size_limit()", args, nargs, kwnames, names, 0, 1, a) < 0)
        goto out;
    int64_t old = g_field_limit;
    if (a[0]) {
        if (!IS_INT(vm_unwrap(a[0]))) {
            err_set(E_TypeError, "limit must be an integer");
            goto out;
        }
        int64_t v;
        if (int_as_i64(vm_unwrap(a[0]), &v) < 0) {
            err_clear();
            err_set(E_OverflowError, "Python int too large to convert to C long");
            goto out;
        }
        vm_tx_become_inevitable();   /* a C global: written only by an inevitable transaction */
        g_field_limit = v;
    }
    res = int_from_i64(old);
out:
    vm_unroots(a);
    return res;
}

/* ------------------------------------------------------------------ */

static const MethodDef dialect_methods[] = {
    {"__reduce_ex__", dialect_reduce_ex, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static const MethodDef writer_methods[] = {
    {"writerow", writer_writerow, METH_O,
     "writerow(iterable)\n\nConstruct and write a CSV record from an iterable of fields.  Non-string\n"
     "elements will be converted to string."},
    {"writerows", writer_writerows, METH_O,
     "writerows(iterable of iterables)\n\nConstruct and write a series of iterables to a csv file.  Non-string\n"
     "elements will be converted to string."},
    {NULL, NULL, 0, NULL},
};

static const MethodDef csv_functions[] = {
    {"reader", csv_reader, METH_KW,
     "    csv_reader = reader(iterable [, dialect='excel']\n                        [optional keyword args])\n"
     "    for row in csv_reader:\n        process(row)\n"},
    {"writer", csv_writer, METH_KW,
     "    csv_writer = csv.writer(fileobj [, dialect='excel']\n                            [optional keyword args])\n"
     "    for row in sequence:\n        csv_writer.writerow(row)\n"},
    {"register_dialect", csv_register_dialect, METH_KW,
     "Create a mapping from a string name to a dialect class.\n    dialect = csv.register_dialect(name[, dialect[, **fmtparams]])"},
    {"unregister_dialect", csv_unregister_dialect, METH_O,
     "Delete the name/dialect mapping associated with a string name.\n    csv.unregister_dialect(name)"},
    {"get_dialect", csv_get_dialect, METH_O,
     "Return the dialect instance associated with name.\n    dialect = csv.get_dialect(name)"},
    {"list_dialects", csv_list_dialects, METH_NOARGS,
     "Return a list of all know dialect names.\n    names = csv.list_dialects()"},
    {"field_size_limit", csv_field_size_limit, METH_KW,
     "Sets an upper limit on parsed fields.\n    csv.field_size_limit([limit])\n\n"
     "Returns old limit. If limit is not given, no new limit is set and\nthe old limit is returned"},
    {NULL, NULL, 0, NULL},
};

static Obj make_error_class(void)
{
    Obj *r = vm_roots(4);
    Obj cls = NULL;
    r[0] = str_from_cstr("Error");
    r[1] = r[0] ? tuple_pack(1, (Obj)E_Exception) : NULL;
    r[2] = r[1] ? dict_new() : NULL;
    if (r[2] && (r[3] = str_from_cstr("_csv")) && dict_setitem_cstr(r[2], "__module__", r[3]) == 0)
        cls = vm_call3((Obj)T_type, r[0], r[1], r[2]);
    vm_unroots(r);
    return cls;
}

static TypeObj *make_iter_type(const char *name, unaryfunc next, unsigned flags)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_ITER, flags);
    VM_WRITE(t);
    if (next) {
        t->tp_iter = iter_self;
        t->tp_iternext = next;
    }
    return t;
}

static int make_types(void)
{
    VM_GLOBAL_ROOT(g_csv_error);
    VM_GLOBAL_ROOT(g_dialects);
    if (!(g_csv_error = make_error_class()) || !(g_dialects = dict_new()))
        return -1;
    T_Dialect = make_iter_type("_csv.Dialect", NULL, TPF_BASETYPE | TPF_ITER_VALUE);
    T_Dialect->tp_new = dialect_new;
    type_add_getset(T_Dialect, "delimiter", d_delimiter, NULL);
    type_add_getset(T_Dialect, "quotechar", d_quotechar, NULL);
    type_add_getset(T_Dialect, "escapechar", d_escapechar, NULL);
    type_add_getset(T_Dialect, "lineterminator", d_lineterminator, NULL);
    type_add_getset(T_Dialect, "quoting", d_quoting, NULL);
    type_add_getset(T_Dialect, "doublequote", d_doublequote, readonly_set);
    type_add_getset(T_Dialect, "skipinitialspace", d_skipinitialspace, readonly_set);
    type_add_getset(T_Dialect, "strict", d_strict, readonly_set);
    type_add_methods(T_Dialect, dialect_methods);
    type_ready(T_Dialect);
    Obj doc = str_from_cstr("CSV dialect\n\nThe Dialect type records CSV parsing and generation options.\n");
    if (doc)
        type_set_attr_cstr(T_Dialect, "__doc__", doc);

    T_reader = make_iter_type("_csv.reader", reader_next, 0);
    type_add_getset(T_reader, "dialect", reader_dialect, NULL);
    type_add_getset(T_reader, "line_num", reader_line_num, readonly_set);
    type_ready(T_reader);

    T_writer = make_iter_type("_csv.writer", NULL, 0);
    type_add_getset(T_writer, "dialect", writer_dialect, NULL);
    type_add_methods(T_writer, writer_methods);
    type_ready(T_writer);
    return 0;
}

Obj csv_module_init(void)
{
    if (!T_Dialect && make_types() < 0)   /* module inits run inevitable: C globals may be written */
        return NULL;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = module_new("_csv");
    if (!r[0])
        goto out;
    module_add_functions(r[0], csv_functions);
    static const char *const quotes[] = {"QUOTE_MINIMAL", "QUOTE_ALL", "QUOTE_NONNUMERIC", "QUOTE_NONE"};
    for (int i = 0; i < 4; i++)
        if (module_add(r[0], quotes[i], MAKE_SMALLINT(i)) < 0)
            goto out;
    if (module_add(r[0], "Error", g_csv_error) < 0 || module_add(r[0], "Dialect", (Obj)T_Dialect) < 0 ||
        module_add(r[0], "_dialects", g_dialects) < 0)
        goto out;
    r[1] = str_from_cstr("1.0");
    if (!r[1] || module_add(r[0], "__version__", r[1]) < 0)
        goto out;
    r[1] = str_from_cstr(
        "CSV parsing and writing.\n\nThis module provides classes that assist in the reading and writing\n"
        "of Comma Separated Value (CSV) files, and implements the interface\ndescribed by PEP 305.  Although "
        "many CSV files are simple to parse,\nthe format is not formally defined by a stable specification and\n"
        "is subtle enough that parsing lines of a CSV file with something\nlike line.split(\",\") is bound to "
        "fail.  The module supports three\nbasic APIs: reading, writing, and registration of dialects.\n");
    if (!r[1] || module_add(r[0], "__doc__", r[1]) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
