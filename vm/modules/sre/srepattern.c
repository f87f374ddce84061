/* re.Pattern (a compiled regular expression: _sre.compile makes one) and the
 * scanner behind finditer: match, fullmatch, search, findall, finditer, sub,
 * subn, split over str and bytes-like subjects, on the engine in
 * sreengine.c. Templates with backslashes go to re._subx, as CPython's C
 * code does. */
#include "sre.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <string.h>

TypeObj *T_sre_pattern, *T_sre_scanner;

/* pos / endpos arguments (None is not accepted, as CPython). */
static int index_arg(Obj v, int64_t *out)
{
    if (!v)
        return 0;
    return vm_index_i64(v, out);
}

/* (string[, pos[, endpos]]) into r[1..3]: pos and endpos as ints. */
static int string_pos_endpos_args(const char *fname, Obj *args, size_t nargs, Obj kwnames, Obj *r,
                                  int64_t *pos, int64_t *endpos)
{
    static const char *const names[] = {"string", "pos", "endpos", NULL};
    *pos = 0;
    *endpos = INT64_MAX;
    if (vm_parse_args(fname, args + 1, nargs - 1, kwnames, names, 1, 3, &r[1]) < 0)
        return -1;
    return index_arg(r[2], pos) < 0 || index_arg(r[3], endpos) < 0 ? -1 : 0;
}

/* Prepare the subject in the root slot *string (its characters go to the
 * slot *chars) for the Pattern in *pattern, and a state over [pos, endpos].
 * 0 (the state then needs sre_state_fini), or -1 with an error. */
static int begin_matching(SreState *st, SreSubject *subj, Obj *pattern, Obj *string, Obj *chars,
                          int64_t pos, int64_t endpos)
{
    *subj = (SreSubject){.string = string, .chars = chars};
    if (sre_subject_init(subj, SREPAT(*pattern)->isbytes) < 0)
        return -1;
    return sre_state_init(st, pattern, subj, pos, endpos);
}

/* The next match of a findall/split/sub loop, from where the last one
 * ended (st->start); the loop's body may have moved objects since. */
static int search_again(SreState *st)
{
    sre_state_refresh(st);
    return sre_search(st);
}

/* Go on past the match just found: an empty one may not be found again at
 * the same place. */
static void step_past_match(SreState *st)
{
    st->must_advance = st->match_end == st->match_start;
    st->start = st->match_end;
}

/* ---- match / fullmatch / search ---- */
enum { DO_MATCH, DO_FULLMATCH, DO_SEARCH };

/* One attempt at st->start (DO_SEARCH: from it on): a Match, None, or NULL
 * with an error. */
static Obj match_once(SreState *st, int mode)
{
    int rc = mode == DO_SEARCH ? sre_search(st) : sre_match(st);
    return rc > 0 ? sre_match_new(st) : rc == 0 ? g_None : NULL;
}

static Obj pattern_apply(Obj *args, size_t nargs, Obj kwnames, const char *fname, int mode)
{
    Obj *r = vm_roots(5);   /* self, string, pos, endpos, chars */
    Obj res = NULL;
    r[0] = args[0];
    int64_t pos, endpos;
    SreSubject subj;
    SreState st;
    if (string_pos_endpos_args(fname, args, nargs, kwnames, r, &pos, &endpos) < 0 ||
        begin_matching(&st, &subj, &r[0], &r[1], &r[4], pos, endpos) < 0)
        goto out;
    st.match_all = mode == DO_FULLMATCH;
    res = match_once(&st, mode);
    sre_state_fini(&st);
out:
    vm_unroots(r);
    return res;
}

static Obj pattern_match(Obj *a, size_t n, Obj kw) { return pattern_apply(a, n, kw, "match", DO_MATCH); }
static Obj pattern_fullmatch(Obj *a, size_t n, Obj kw) { return pattern_apply(a, n, kw, "fullmatch", DO_FULLMATCH); }
static Obj pattern_search(Obj *a, size_t n, Obj kw) { return pattern_apply(a, n, kw, "search", DO_SEARCH); }

/* Group g (1-based) of the state's match as a str/bytes, `dflt` if it did
 * not take part. */
static Obj state_group(SreState *st, int64_t g, Obj dflt)
{
    int64_t s, e;
    if (!sre_state_span(st, g - 1, &s, &e))
        return dflt;
    return sre_subject_slice(st->subj, s, e);
}

/* One findall item: the match, group 1, or the tuple of groups. */
static Obj findall_item(SreState *st, Obj *empty)
{
    int64_t groups = SREPAT(*st->pattern)->groups;
    if (groups == 0)
        return sre_subject_slice(st->subj, st->match_start, st->match_end);
    if (groups == 1)
        return state_group(st, 1, *empty);
    Obj *r = vm_roots(1);
    r[0] = tuple_new(groups);
    for (int64_t g = 1; r[0] && g <= groups; g++) {
        Obj v = state_group(st, g, *empty);
        if (!v) {
            r[0] = NULL;
            break;
        }
        VM_WRITE(r[0]);   /* the tuple may be old by now */
        TUPLE_ITEMS(r[0])[g - 1] = v;
    }
    Obj t = r[0];
    vm_unroots(r);
    return t;
}

static Obj pattern_findall(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(8);   /* self, string, pos, endpos, chars, list, item, empty */
    Obj res = NULL;
    r[0] = args[0];
    int64_t pos, endpos;
    SreSubject subj;
    SreState st;
    if (string_pos_endpos_args("findall", args, nargs, kwnames, r, &pos, &endpos) < 0 ||
        begin_matching(&st, &subj, &r[0], &r[1], &r[4], pos, endpos) < 0)
        goto out;
    r[5] = list_new(0);
    r[7] = sre_subject_slice(&subj, 0, 0);
    if (!r[5] || !r[7])
        goto done;
    int rc;
    while ((rc = search_again(&st)) > 0) {
        r[6] = findall_item(&st, &r[7]);
        if (!r[6] || list_append(r[5], r[6]) < 0)
            goto done;
        step_past_match(&st);
    }
    if (rc == 0)
        res = r[5];
done:
    sre_state_fini(&st);
out:
    vm_unroots(r);
    return res;
}

/* ---- split ---- */
static Obj pattern_split(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"string", "maxsplit", NULL};
    Obj *r = vm_roots(6);   /* self, string, maxsplit, chars, list, item */
    Obj res = NULL;
    r[0] = args[0];
    int64_t maxsplit = 0;
    if (vm_parse_args("split", args + 1, nargs - 1, kwnames, names, 1, 2, &r[1]) < 0 ||
        index_arg(r[2], &maxsplit) < 0)
        goto out;
    SreSubject subj;
    SreState st;
    if (begin_matching(&st, &subj, &r[0], &r[1], &r[3], 0, INT64_MAX) < 0)
        goto out;
    r[4] = list_new(0);
    if (!r[4])
        goto done;
    int64_t last = 0, n = 0;
    while (maxsplit == 0 || n < maxsplit) {   /* CPython: a negative maxsplit splits nothing */
        int rc = search_again(&st);
        if (rc < 0)
            goto done;
        if (rc == 0)
            break;
        r[5] = sre_subject_slice(&subj, last, st.match_start);
        if (!r[5] || list_append(r[4], r[5]) < 0)
            goto done;
        for (int64_t g = 1; g <= SREPAT(r[0])->groups; g++) {
            r[5] = state_group(&st, g, g_None);
            if (!r[5] || list_append(r[4], r[5]) < 0)
                goto done;
        }
        n++;
        last = st.match_end;
        step_past_match(&st);
    }
    r[5] = sre_subject_slice(&subj, last, subj.length);
    if (!r[5] || list_append(r[4], r[5]) < 0)
        goto done;
    res = r[4];
done:
    sre_state_fini(&st);
out:
    vm_unroots(r);
    return res;
}

/* ---- sub / subn ---- */

/* A template with no backslash is used as it is. */
static int is_literal_template(Obj t)
{
    Obj v = vm_unwrap(t);
    if (IS_STR(v))
        return memchr(str_cstr(v), '\\', (size_t)STR(v)->nbytes) == NULL;
    const char *p;
    int64_t n;
    if (bytes_like(v, &p, &n))
        return memchr(p, '\\', (size_t)n) == NULL;
    return 0;
}

static Obj pattern_subx(Obj *args, size_t nargs, Obj kwnames, const char *fname, bool with_count)
{
    static const char *const names[] = {"repl", "string", "count", NULL};
    Obj *r = vm_roots(9);   /* self, repl, string, count, chars, list, item, filter, match */
    Obj res = NULL;
    r[0] = args[0];
    int64_t count = 0;
    if (vm_parse_args(fname, args + 1, nargs - 1, kwnames, names, 2, 3, &r[1]) < 0 ||
        index_arg(r[3], &count) < 0)
        goto out;
    bool callable_filter;
    if (vm_callable(r[1])) {
        r[7] = r[1];
        callable_filter = true;
    } else if (is_literal_template(r[1])) {
        r[7] = r[1];
        callable_filter = false;
    } else {
        Obj *m = vm_roots(3);
        m[0] = vm_import_cstr("re");
        if (m[0]) {
            m[1] = r[0];
            m[2] = r[1];
            m[0] = vm_getattr_cstr(m[0], "_subx");
            if (m[0])
                r[7] = vm_call(m[0], &m[1], 2, NULL);
        }
        vm_unroots(m);
        if (!r[7])
            goto out;
        callable_filter = vm_callable(r[7]);
    }
    SreSubject subj;
    SreState st;
    if (begin_matching(&st, &subj, &r[0], &r[2], &r[4], 0, INT64_MAX) < 0)
        goto out;
    r[5] = list_new(0);
    if (!r[5])
        goto done;
    int64_t last = 0, n = 0;
    while (count == 0 || n < count) {   /* a negative count substitutes nothing */
        int rc = search_again(&st);
        if (rc < 0)
            goto done;
        if (rc == 0)
            break;
        if (last < st.match_start) {
            r[6] = sre_subject_slice(&subj, last, st.match_start);
            if (!r[6] || list_append(r[5], r[6]) < 0)
                goto done;
        }
        if (callable_filter) {
            r[8] = sre_match_new(&st);
            if (!r[8])
                goto done;
            r[6] = vm_call1(r[7], r[8]);
            if (!r[6])
                goto done;
        } else {
            r[6] = r[7];
        }
        if (r[6] != g_None && list_append(r[5], r[6]) < 0)
            goto done;
        n++;
        last = st.match_end;
        step_past_match(&st);
    }
    if (last < subj.length) {
        r[6] = sre_subject_slice(&subj, last, subj.length);
        if (!r[6] || list_append(r[5], r[6]) < 0)
            goto done;
    }
    r[6] = sre_subject_slice(&subj, 0, 0);   /* the joiner */
    if (!r[6])
        goto done;
    if (LIST_LEN(r[5]) > 0) {
        r[6] = vm_call_method(r[6], "join", &r[5], 1);
        if (!r[6])
            goto done;
    }
    if (with_count) {
        r[8] = int_from_i64(n);
        res = r[8] ? tuple_pack(2, r[6], r[8]) : NULL;
    } else {
        res = r[6];
    }
done:
    sre_state_fini(&st);
out:
    vm_unroots(r);
    return res;
}

static Obj pattern_sub(Obj *a, size_t n, Obj kw) { return pattern_subx(a, n, kw, "sub", false); }
static Obj pattern_subn(Obj *a, size_t n, Obj kw) { return pattern_subx(a, n, kw, "subn", true); }

/* ---- scanner, finditer ---- */
static Obj pattern_scanner(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(5);   /* self, string, pos, endpos, chars */
    Obj res = NULL;
    r[0] = args[0];
    int64_t pos, endpos;
    SreSubject subj = {.string = &r[1], .chars = &r[4]};
    if (string_pos_endpos_args("scanner", args, nargs, kwnames, r, &pos, &endpos) < 0 ||
        sre_subject_init(&subj, SREPAT(r[0])->isbytes) < 0)
        goto out;
    int64_t len = subj.length;
    pos = pos < 0 ? 0 : pos > len ? len : pos;
    endpos = endpos < 0 ? 0 : endpos > len ? len : endpos;
    Obj sc = tm_allocate(TID_SRE_SCANNER, sizeof(struct SreScannerObj_));
    if (!sc) {
        err_nomemory();
        goto out;
    }
    SreScannerObj *s = SRESCANNER(sc);
    s->pattern = r[0];
    s->string = r[1];
    s->chars = r[4];
    s->pos = pos;
    s->start_pos = pos;
    s->endpos = endpos;
    res = sc;
out:
    vm_unroots(r);
    return res;
}

static Obj scanner_step(Obj self, int mode)
{
    Obj *r = vm_roots(4);   /* scanner, pattern, string, chars */
    Obj res = NULL;
    r[0] = self;
    SreScannerObj *s = SRESCANNER(self);
    if (s->done) {
        res = g_None;
        goto out;
    }
    r[1] = s->pattern;
    r[2] = s->string;
    r[3] = s->chars;
    int64_t pos = s->pos, endpos = s->endpos;
    bool must_advance = s->must_advance;
    SreSubject subj;
    sre_subject_from(&subj, &r[2], &r[3]);
    SreState st;
    if (sre_state_init(&st, &r[1], &subj, pos, endpos) < 0)
        goto out;
    st.pos = SRESCANNER(r[0])->start_pos;
    st.must_advance = must_advance;
    res = match_once(&st, mode);
    if (res) {
        VM_WRITE(r[0]);
        s = SRESCANNER(r[0]);
        if (res == g_None) {
            s->done = 1;
        } else {
            s->must_advance = st.match_end == st.match_start;
            s->pos = st.match_end;
        }
    }
    sre_state_fini(&st);
out:
    vm_unroots(r);
    return res;
}

static Obj scanner_match(Obj *args, size_t nargs, Obj kwnames)
{
    return scanner_step(args[0], DO_MATCH);
}

static Obj scanner_search(Obj *args, size_t nargs, Obj kwnames)
{
    return scanner_step(args[0], DO_SEARCH);
}

static Obj scanner_next(Obj self)
{
    Obj m = scanner_step(self, DO_SEARCH);
    return m == g_None ? NULL : m;
}

static Obj scanner_pattern(Obj *args, size_t nargs, Obj kwnames)
{
    return SRESCANNER(args[0])->pattern;
}

static Obj pattern_finditer(Obj *args, size_t nargs, Obj kwnames)
{
    return pattern_scanner(args, nargs, kwnames);
}

/* ---- attributes, repr, comparison ---- */
static Obj pattern_get_pattern(Obj *args, size_t nargs, Obj kwnames)
{
    return SREPAT(args[0])->pattern;
}
static Obj pattern_get_flags(Obj *args, size_t nargs, Obj kwnames)
{
    return int_from_i64(SREPAT(args[0])->flags);
}
static Obj pattern_get_groups(Obj *args, size_t nargs, Obj kwnames)
{
    return int_from_i64(SREPAT(args[0])->groups);
}
/* A copy: the pattern's own dict must not change (CPython gives a read-only proxy). */
static Obj pattern_get_groupindex(Obj *args, size_t nargs, Obj kwnames)
{
    return dict_copy(SREPAT(args[0])->groupindex);
}

static Obj pattern_repr(Obj self)
{
    static const struct { const char *name; int64_t bit; } names[] = {
        {"re.TEMPLATE", 1}, {"re.IGNORECASE", 2}, {"re.LOCALE", 4}, {"re.MULTILINE", 8},
        {"re.DOTALL", 16}, {"re.UNICODE", 32}, {"re.VERBOSE", 64}, {"re.DEBUG", 128}, {"re.ASCII", 256},
    };
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    r[1] = vm_repr(SREPAT(self)->pattern);
    if (!r[1])
        goto out;
    if (str_len(r[1]) > 200) {
        r[1] = str_substr(r[1], 0, 200);
        if (!r[1])
            goto out;
    }
    int64_t flags = SREPAT(r[0])->flags;
    if (SREPAT(r[0])->isbytes == 0 && (flags & (SRE_FLAG_LOCALE | SRE_FLAG_UNICODE | SRE_FLAG_ASCII)) == SRE_FLAG_UNICODE)
        flags &= ~(int64_t)SRE_FLAG_UNICODE;
    StrBuf b;
    sb_init(&b);
    sb_adds(&b, "re.compile(");
    sb_add_str(&b, r[1]);
    if (flags) {
        sb_adds(&b, ", ");
        bool first = true;
        for (size_t i = 0; i < ARRAY_LEN(names); i++) {
            if (flags & names[i].bit) {
                if (!first)
                    sb_addc(&b, '|');
                sb_adds(&b, names[i].name);
                first = false;
                flags &= ~names[i].bit;
            }
        }
        if (flags) {
            if (!first)
                sb_addc(&b, '|');
            sb_printf(&b, "0x%llx", (unsigned long long)flags);
        }
    }
    sb_addc(&b, ')');
    res = sb_finish(&b);
out:
    vm_unroots(r);
    return res;
}

static Obj pattern_richcompare(Obj a, Obj b, int op)
{
    if ((op != CMP_EQ && op != CMP_NE) || TID(b) != TID_SRE_PATTERN)
        return g_NotImplemented;
    int eq;
    if (a == b) {
        eq = 1;
    } else {
        SrePatternObj *x = SREPAT(a), *y = SREPAT(b);
        eq = x->flags == y->flags && x->isbytes == y->isbytes && x->codelen == y->codelen &&
             memcmp(VM_LINEAR(RAW(x->code)->data), VM_LINEAR(RAW(y->code)->data), (size_t)x->codelen * 4) == 0;
        if (eq) {
            eq = vm_richcompare_bool(x->pattern, y->pattern, CMP_EQ);
            if (eq < 0)
                return NULL;
        }
    }
    return vm_bool(op == CMP_EQ ? eq : !eq);
}

static int64_t pattern_hash(Obj self)
{
    int64_t h = vm_hash(SREPAT(self)->pattern);
    if (h == -1)
        return -1;
    SrePatternObj *p = SREPAT(self);
    const uint32_t *code = (const uint32_t *)VM_LINEAR(RAW(p->code)->data);
    uint64_t x = 1469598103934665603ull;
    for (int64_t i = 0; i < p->codelen; i++)
        x = (x ^ code[i]) * 1099511628211ull;
    h ^= (int64_t)(x >> 1) ^ p->flags ^ p->isbytes ^ p->codelen;
    return h == -1 ? -2 : h;
}

/* Pattern and Match are immutable: a copy is the object itself. */
Obj sre_copy(Obj *args, size_t nargs, Obj kwnames)
{
    return args[0];
}
Obj sre_deepcopy(Obj *args, size_t nargs, Obj kwnames)
{
    return args[0];
}
Obj sre_class_getitem(Obj *args, size_t nargs, Obj kwnames)
{
    return generic_alias_new(args[0], args[1]);
}

static const MethodDef pattern_methods[] = {
    {"match", pattern_match, METH_KW, "Matches zero or more characters at the beginning of the string."},
    {"fullmatch", pattern_fullmatch, METH_KW, "Matches against all of the string."},
    {"search", pattern_search, METH_KW,
     "Scan through string looking for a match, and return a corresponding match object instance.\n\n"
     "Return None if no position in the string matches."},
    {"sub", pattern_sub, METH_KW,
     "Return the string obtained by replacing the leftmost non-overlapping occurrences of pattern in string by the replacement repl."},
    {"subn", pattern_subn, METH_KW,
     "Return the tuple (new_string, number_of_subs_made) found by replacing the leftmost non-overlapping occurrences of pattern with the replacement repl."},
    {"findall", pattern_findall, METH_KW, "Return a list of all non-overlapping matches of pattern in string."},
    {"split", pattern_split, METH_KW, "Split string by the occurrences of pattern."},
    {"finditer", pattern_finditer, METH_KW,
     "Return an iterator over all non-overlapping matches for the RE pattern in string.\n\n"
     "For each match, the iterator returns a match object."},
    {"scanner", pattern_scanner, METH_KW, NULL},
    {"__copy__", sre_copy, METH_NOARGS, NULL},
    {"__deepcopy__", sre_deepcopy, METH_O, NULL},
    {"__class_getitem__", sre_class_getitem, METH_CLASS | METH_O, "See PEP 585"},
    {NULL, NULL, 0, NULL},
};

static const MethodDef scanner_methods[] = {
    {"match", scanner_match, METH_NOARGS, NULL},
    {"search", scanner_search, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static Obj iter_self_fn(Obj self) { return self; }

void sre_init_types(void)
{
    TypeObj *t = (TypeObj *)type_new_builtin("re.Pattern", T_object, TID_SRE_PATTERN, 0);
    T_sre_pattern = t;
    VM_WRITE(t);
    t->tp_repr = pattern_repr;
    t->tp_richcompare = pattern_richcompare;
    t->tp_hash = pattern_hash;
    type_add_methods(t, pattern_methods);
    type_add_getset(t, "pattern", pattern_get_pattern, NULL);
    type_add_getset(t, "flags", pattern_get_flags, NULL);
    type_add_getset(t, "groups", pattern_get_groups, NULL);
    type_add_getset(t, "groupindex", pattern_get_groupindex, NULL);
    type_ready(t);

    t = (TypeObj *)type_new_builtin("_sre.SRE_Scanner", T_object, TID_SRE_SCANNER, 0);
    T_sre_scanner = t;
    VM_WRITE(t);
    t->tp_iter = iter_self_fn;
    t->tp_iternext = scanner_next;
    type_add_methods(t, scanner_methods);
    type_add_getset(t, "pattern", scanner_pattern, NULL);
    type_ready(t);

    sre_match_init_type();
}
