/* _sre: the native half of CPython 3.11's re package (re/_compiler.py,
 * _parser.py, _constants.py run unchanged on top of it). compile() takes the
 * code words _compiler emits, checks them and makes a re.Pattern
 * (srepattern.c); the engine that runs them is sreengine.c.
 * Also the constants _constants and _compiler read and the case helpers
 * _compiler uses for IGNORECASE. */
#include "modules/modules.h"
#include "objects/objects.h"
#include "sre.h"
#include "objects/strobj.h"

#include <stdlib.h>

/* The character argument: a C int, as CPython (read as unsigned, returned as int). */
static int char_arg(const char *fname, Obj *args, size_t nargs, Obj kwnames, uint32_t *ch)
{
    int64_t v;
    if (arg_c_int(args[0], &v) < 0)
        return -1;
    *ch = (uint32_t)v;
    return 0;
}

static Obj sre_getcodesize(Obj *args, size_t nargs, Obj kwnames)
{
    return MAKE_SMALLINT(SRE_CODESIZE);
}

static Obj sre_ascii_iscased(Obj *args, size_t nargs, Obj kwnames)
{
    uint32_t ch;
    return char_arg("ascii_iscased", args, nargs, kwnames, &ch) < 0 ? NULL : vm_bool(sre_iscased_ascii(ch));
}
static Obj sre_unicode_iscased(Obj *args, size_t nargs, Obj kwnames)
{
    uint32_t ch;
    return char_arg("unicode_iscased", args, nargs, kwnames, &ch) < 0 ? NULL : vm_bool(sre_iscased_unicode(ch));
}
static Obj sre_ascii_tolower(Obj *args, size_t nargs, Obj kwnames)
{
    uint32_t ch;
    return char_arg("ascii_tolower", args, nargs, kwnames, &ch) < 0 ? NULL : int_from_i64((int32_t)sre_lower_ascii(ch));
}
static Obj sre_unicode_tolower(Obj *args, size_t nargs, Obj kwnames)
{
    uint32_t ch;
    return char_arg("unicode_tolower", args, nargs, kwnames, &ch) < 0 ? NULL : int_from_i64((int32_t)sre_lower_unicode(ch));
}

/* compile(pattern, flags, code, groups, groupindex, indexgroup) */
static Obj sre_compile(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"pattern", "flags", "code", "groups", "groupindex", "indexgroup", NULL};
    Obj *r = vm_roots(8);   /* the six arguments, the code RawObj, the groupindex copy */
    Obj res = NULL;
    if (vm_parse_args("compile", args, nargs, kwnames, names, 6, 6, r) < 0)
        goto out;
    int64_t flags, groups;
    if (vm_index_i64(r[1], &flags) < 0 || vm_index_i64(r[3], &groups) < 0)
        goto out;
    if (!IS_LIST(vm_unwrap(r[2]))) {
        err_format(E_TypeError, "compile() argument 'code' must be list, not %s", type_name(r[2]));
        goto out;
    }
    if (!IS_DICT(vm_unwrap(r[4]))) {
        err_format(E_TypeError, "compile() argument 'groupindex' must be dict, not %s", type_name(r[4]));
        goto out;
    }
    if (!IS_TUPLE(vm_unwrap(r[5]))) {
        err_format(E_TypeError, "compile() argument 'indexgroup' must be tuple, not %s", type_name(r[5]));
        goto out;
    }
    int64_t isbytes;
    Obj pat = vm_unwrap(r[0]);
    if (r[0] == g_None) {
        isbytes = -1;
    } else if (IS_STR(pat)) {
        isbytes = 0;
    } else {
        const char *p;
        int64_t n;
        if (!bytes_like(pat, &p, &n)) {
            err_format(E_TypeError, "expected string or bytes-like object, got '%s'", type_name(r[0]));
            goto out;
        }
        isbytes = 1;
    }
    int64_t n = LIST_LEN(vm_unwrap(r[2]));
    r[6] = raw_new((n + 1 + SRE_STARTMAP_WORDS) * 4);   /* a FAILURE word (0) past the end, the start map */
    if (!r[6])
        goto out;
    for (int64_t i = 0; i < n; i++) {
        Obj list = vm_unwrap(r[2]);
        if (i >= LIST_LEN(list))
            break;
        Obj w = LIST_ITEMS(list)[i];
        int64_t v;
        if (!IS_INT(vm_unwrap(w))) {
            err_set(E_TypeError, "an integer is required");
            goto out;
        }
        if (int_sign(vm_unwrap(w)) < 0) {
            err_set(E_OverflowError, "can't convert negative value to unsigned int");
            goto out;
        }
        if (int_as_i64(vm_unwrap(w), &v) < 0 || v > 0xFFFFFFFFll) {
            err_clear();
            err_set(E_OverflowError, "regular expression code size limit exceeded");
            goto out;
        }
        ((uint32_t *)VM_LINEAR(RAW(r[6])->data))[i] = (uint32_t)v;
    }
    if (groups < 0 || groups >= SRE_MAXGROUPS ||
        !sre_code_valid((const uint32_t *)VM_LINEAR(RAW(r[6])->data), n, groups)) {
        err_set(E_RuntimeError, "invalid SRE code");
        goto out;
    }
    {
        uint32_t *words = (uint32_t *)VM_LINEAR(RAW(r[6])->data);
        sre_start_map(words, flags, words + n + 1);
    }
    r[7] = dict_copy(vm_unwrap(r[4]));
    if (!r[7])
        goto out;
    Obj p = tm_allocate(TID_SRE_PATTERN, sizeof(struct SrePatternObj_));
    if (!p) {
        err_nomemory();
        goto out;
    }
    SrePatternObj *po = SREPAT(p);
    po->pattern = r[0];
    po->code = r[6];
    po->groupindex = r[7];
    po->indexgroup = vm_unwrap(r[5]);
    po->flags = flags;
    po->groups = groups;
    po->codelen = n;
    po->isbytes = isbytes;
    res = p;
out:
    vm_unroots(r);
    return res;
}

static const MethodDef sre_funcs[] = {
    {"compile", sre_compile, METH_KW, NULL},
    {"getcodesize", sre_getcodesize, METH_NOARGS, NULL},
    {"ascii_iscased", sre_ascii_iscased, METH_O, NULL},
    {"unicode_iscased", sre_unicode_iscased, METH_O, NULL},
    {"ascii_tolower", sre_ascii_tolower, METH_O, NULL},
    {"unicode_tolower", sre_unicode_tolower, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

Obj sre_module_init(void)
{
    Obj *r = vm_roots(2);
    r[0] = module_new("_sre");
    Obj m = r[0];
    if (m) {
        module_add_functions(r[0], sre_funcs);
        r[1] = str_from_cstr("copyright (c) tmpy: a regular expression engine written for tmpy");
        if (!r[1] || module_add(r[0], "copyright", r[1]) < 0 ||
            module_add(r[0], "MAGIC", MAKE_SMALLINT(SRE_MAGIC)) < 0 ||
            module_add(r[0], "CODESIZE", MAKE_SMALLINT(SRE_CODESIZE)) < 0 ||
            module_add(r[0], "MAXREPEAT", MAKE_SMALLINT(SRE_MAXREPEAT)) < 0 ||
            module_add(r[0], "MAXGROUPS", MAKE_SMALLINT(SRE_MAXGROUPS)) < 0)
            m = NULL;
        else
            m = r[0];
    }
    vm_unroots(r);
    return m;
}
