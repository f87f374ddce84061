/* re.Match: the result of a successful match. Immutable once made: the
 * subject, the Pattern, the spans of group 0 and every group (-1 where a
 * group did not take part) and the characters the engine read, so group()
 * slices what was matched. expand() goes to re._expand, as CPython's C
 * code does. */
#include "sre.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <string.h>

TypeObj *T_sre_match;

Obj sre_match_new(SreState *st)
{
    int64_t groups = SREPAT(*st->pattern)->groups;
    Obj *r = vm_roots(1);
    r[0] = raw_new((groups + 1) * 2 * (int64_t)sizeof(int64_t));
    Obj res = NULL;
    if (!r[0])
        goto out;
    int64_t *regs = (int64_t *)VM_LINEAR(RAW(r[0])->data);
    regs[0] = st->match_start;
    regs[1] = st->match_end;
    for (int64_t g = 0; g < groups; g++) {
        int64_t s, e;
        if (!sre_state_span(st, g, &s, &e))
            s = e = -1;
        regs[2 * g + 2] = s;
        regs[2 * g + 3] = e;
    }
    Obj m = tm_allocate(TID_SRE_MATCH, sizeof(struct SreMatchObj_));
    if (!m) {
        err_nomemory();
        goto out;
    }
    SreMatchObj *mo = SREMATCH(m);
    mo->string = *st->subj->string;
    mo->pattern = *st->pattern;
    mo->regs = r[0];
    mo->chars = *st->subj->chars;
    mo->pos = st->pos;
    mo->endpos = st->end;
    mo->lastindex = st->lastindex;
    mo->ngroups = groups + 1;
    res = m;
out:
    vm_unroots(r);
    return res;
}

static const int64_t *match_regs(Obj m) { return (const int64_t *)VM_LINEAR(RAW(SREMATCH(m)->regs)->data); }

/* The group number `index` names: an int or anything with __index__ (as
 * CPython's PyIndex_Check; its errors propagate, a value out of range is no
 * group), else a name in groupindex; -1 with IndexError "no such group".
 * *mslot: a root slot holding the Match (__index__ and a name's __eq__ run
 * Python code). */
static int64_t group_index(Obj *mslot, Obj index)
{
    int64_t i = -1;
    if (IS_INT(vm_unwrap(index)) || TYPE(index)->nb_index) {
        Obj v = vm_index(index);
        if (!v)
            return -1;
        if (int_as_i64(v, &i) < 0) {
            err_clear();
            i = -1;
        }
    } else {
        Obj v = dict_getitem(SREPAT(SREMATCH(*mslot)->pattern)->groupindex, index);
        if (!v && err_occurred())
            return -1;
        if (v && IS_INT(v) && int_as_i64(v, &i) < 0) {
            err_clear();
            i = -1;
        }
    }
    if (i < 0 || i >= SREMATCH(*mslot)->ngroups) {
        err_set(E_IndexError, "no such group");
        return -1;
    }
    return i;
}

/* Group g's text, or dflt if it did not take part. */
static Obj group_value(Obj *mslot, int64_t g, Obj dflt)
{
    const int64_t *regs = match_regs(*mslot);
    int64_t s = regs[2 * g], e = regs[2 * g + 1];
    if (s < 0)
        return dflt;
    Obj *r = vm_roots(2);
    r[0] = SREMATCH(*mslot)->string;
    r[1] = SREMATCH(*mslot)->chars;
    SreSubject subj;
    sre_subject_from(&subj, &r[0], &r[1]);
    Obj v = sre_subject_slice(&subj, s, e);
    vm_unroots(r);
    return v;
}

static Obj match_group(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs <= 1)
        return group_value(&args[0], 0, g_None);
    if (nargs == 2) {
        int64_t g = group_index(&args[0], args[1]);
        return g < 0 ? NULL : group_value(&args[0], g, g_None);
    }
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = tuple_new((int64_t)nargs - 1);
    if (!r[0])
        goto out;
    for (size_t i = 1; i < nargs; i++) {
        int64_t g = group_index(&args[0], args[i]);
        if (g < 0)
            goto out;
        Obj v = group_value(&args[0], g, g_None);
        if (!v)
            goto out;
        /* the group's name lookup may have run Python code that committed
         * the tuple, which is then read without barriers: a rare write */
        VM_WRITE_RARE(r[0]);
        TUPLE_ITEMS(r[0])[i - 1] = v;
    }
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

static Obj match_getitem(Obj self, Obj key)
{
    Obj *r = vm_roots(2);
    r[0] = self;
    r[1] = key;
    int64_t g = group_index(&r[0], r[1]);
    Obj v = g < 0 ? NULL : group_value(&r[0], g, g_None);
    vm_unroots(r);
    return v;
}

static Obj match_groups(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"default", NULL};
    Obj *r = vm_roots(3);   /* default, tuple, self */
    Obj res = NULL;
    r[2] = args[0];
    if (vm_parse_args("groups", args + 1, nargs - 1, kwnames, names, 0, 1, &r[0]) < 0)
        goto out;
    if (!r[0])
        r[0] = g_None;
    int64_t n = SREMATCH(r[2])->ngroups - 1;
    r[1] = tuple_new(n);
    if (!r[1])
        goto out;
    for (int64_t g = 1; g <= n; g++) {
        Obj v = group_value(&r[2], g, r[0]);
        if (!v)
            goto out;
        VM_WRITE(r[1]);   /* the tuple may be old by now */
        TUPLE_ITEMS(r[1])[g - 1] = v;
    }
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

static Obj match_groupdict(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"default", NULL};
    Obj *r = vm_roots(5);   /* default, dict, self, key, value */
    Obj res = NULL;
    r[2] = args[0];
    if (vm_parse_args("groupdict", args + 1, nargs - 1, kwnames, names, 0, 1, &r[0]) < 0)
        goto out;
    if (!r[0])
        r[0] = g_None;
    r[1] = dict_new();
    if (!r[1])
        goto out;
    int64_t it = 0;
    Obj k, v;
    while (dict_next(SREPAT(SREMATCH(r[2])->pattern)->groupindex, &it, &k, &v)) {
        r[3] = k;
        int64_t g = group_index(&r[2], r[3]);
        if (g < 0)
            goto out;
        r[4] = group_value(&r[2], g, r[0]);
        if (!r[4] || dict_setitem(r[1], r[3], r[4]) < 0)
            goto out;
    }
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

/* start / end / span: the optional group argument. */
static int span_of(Obj *args, size_t nargs, Obj kwnames, const char *fname, int64_t *s, int64_t *e)
{
    int64_t g = 0;
    if (nargs == 2 && (g = group_index(&args[0], args[1])) < 0)
        return -1;
    const int64_t *regs = match_regs(args[0]);
    *s = regs[2 * g];
    *e = regs[2 * g + 1];
    return 0;
}

static Obj match_start(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t s, e;
    return span_of(args, nargs, kwnames, "start", &s, &e) < 0 ? NULL : int_from_i64(s);
}
static Obj match_end(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t s, e;
    return span_of(args, nargs, kwnames, "end", &s, &e) < 0 ? NULL : int_from_i64(e);
}
static Obj span_tuple(int64_t s, int64_t e)
{
    return tuple_pack(2, int_from_i64(s), int_from_i64(e));   /* small ints: no allocation between */
}
static Obj match_span(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t s, e;
    return span_of(args, nargs, kwnames, "span", &s, &e) < 0 ? NULL : span_tuple(s, e);
}

static Obj match_expand(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[1] = SREMATCH(args[0])->pattern;
    r[2] = args[0];
    r[3] = args[1];
    r[0] = vm_import_cstr("re");
    if (r[0])
        r[0] = vm_getattr_cstr(r[0], "_expand");
    if (r[0])
        res = vm_call(r[0], &r[1], 3, NULL);
    vm_unroots(r);
    return res;
}

static Obj match_get_regs(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = args[0];
    int64_t n = SREMATCH(r[0])->ngroups;
    r[1] = tuple_new(n);
    for (int64_t g = 0; r[1] && g < n; g++) {
        const int64_t *regs = match_regs(r[0]);
        Obj t = span_tuple(regs[2 * g], regs[2 * g + 1]);
        if (!t)
            goto out;
        VM_WRITE(r[1]);   /* the tuple may be old by now */
        TUPLE_ITEMS(r[1])[g] = t;
    }
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

static Obj match_get_lastindex(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t li = SREMATCH(args[0])->lastindex;
    return li < 0 ? g_None : int_from_i64(li);
}

static Obj match_get_lastgroup(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t li = SREMATCH(args[0])->lastindex;
    Obj ig = SREPAT(SREMATCH(args[0])->pattern)->indexgroup;
    if (li < 0 || !ig || !IS_TUPLE(ig) || li >= TUPLE_LEN(ig))
        return g_None;
    return TUPLE_ITEMS(ig)[li];
}

static Obj match_get_string(Obj *a, size_t n, Obj kw) { (void)n, (void)kw; return SREMATCH(a[0])->string; }
static Obj match_get_re(Obj *a, size_t n, Obj kw) { (void)n, (void)kw; return SREMATCH(a[0])->pattern; }
static Obj match_get_pos(Obj *a, size_t n, Obj kw) { (void)n, (void)kw; return int_from_i64(SREMATCH(a[0])->pos); }
static Obj match_get_endpos(Obj *a, size_t n, Obj kw) { (void)n, (void)kw; return int_from_i64(SREMATCH(a[0])->endpos); }

static Obj match_repr(Obj self)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    r[1] = group_value(&r[0], 0, g_None);
    if (r[1])
        r[1] = vm_repr(r[1]);
    if (!r[1])
        goto out;
    if (str_len(r[1]) > 50) {
        r[1] = str_substr(r[1], 0, 50);
        if (!r[1])
            goto out;
    }
    const int64_t *regs = match_regs(r[0]);
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "<re.Match object; span=(%lld, %lld), match=", (long long)regs[0], (long long)regs[1]);
    sb_add_str(&b, r[1]);
    sb_addc(&b, '>');
    res = sb_finish(&b);
out:
    vm_unroots(r);
    return res;
}

static const MethodDef match_methods[] = {
    {"group", match_group, METH_BARENAME,
     "group([group1, ...]) -> str or tuple.\n    Return subgroup(s) of the match by indices or names.\n    For 0 returns the entire match."},
    {"groups", match_groups, METH_KW, "Return a tuple containing all the subgroups of the match, from 1."},
    {"groupdict", match_groupdict, METH_KW,
     "Return a dictionary containing all the named subgroups of the match, keyed by the subgroup name."},
    {"start", match_start, METH_ARGS(0, 1), "Return index of the start of the substring matched by group."},
    {"end", match_end, METH_ARGS(0, 1), "Return index of the end of the substring matched by group."},
    {"span", match_span, METH_ARGS(0, 1), "For match object m, return the 2-tuple (m.start(group), m.end(group))."},
    {"expand", match_expand, METH_O,
     "Return the string obtained by doing backslash substitution on the string template, as done by the sub() method."},
    {"__copy__", sre_copy, METH_NOARGS, NULL},
    {"__deepcopy__", sre_deepcopy, METH_O, NULL},
    {"__class_getitem__", sre_class_getitem, METH_CLASS | METH_O, "See PEP 585"},
    {NULL, NULL, 0, NULL},
};

void sre_match_init_type(void)
{
    TypeObj *t = (TypeObj *)type_new_builtin("re.Match", T_object, TID_SRE_MATCH, 0);
    T_sre_match = t;
    VM_WRITE(t);
    t->tp_repr = match_repr;
    t->tp_getitem = match_getitem;
    type_add_methods(t, match_methods);
    type_add_getset(t, "regs", match_get_regs, NULL);
    type_add_getset(t, "lastindex", match_get_lastindex, NULL);
    type_add_getset(t, "lastgroup", match_get_lastgroup, NULL);
    type_add_getset(t, "string", match_get_string, NULL);
    type_add_getset(t, "re", match_get_re, NULL);
    type_add_getset(t, "pos", match_get_pos, NULL);
    type_add_getset(t, "endpos", match_get_endpos, NULL);
    type_ready(t);
}
