/* complex.c: Python's complex (two IEEE doubles in a ComplexObj).
 *
 * Arithmetic is CPython 3.11's: an int or float operand is first made a
 * complex with a +0.0 imaginary part, products use the schoolbook formula,
 * quotients Smith's algorithm, powers repeated squaring for small integral
 * exponents and the polar form otherwise. Comparisons are == and != only
 * (exact against ints). The hash combines the parts' float hashes as
 * hash(re) + 1000003 * hash(im), so hash(complex(x, 0)) == hash(x). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "numbers.h"
#include "objects.h"

TypeObj *T_complex;

Obj complex_new(double real, double imag)
{
    Obj o = (Obj)tm_allocate(TID_COMPLEX, sizeof(struct ComplexObj_));
    if (!o)
        return err_nomemory();
    ((ComplexObj *)o)->real = real;
    ((ComplexObj *)o)->imag = imag;
    return o;
}

Obj complex_from_cplx(cplx z) { return complex_new(z.re, z.im); }

static inline cplx cval(Obj v)
{
    cplx z = {COMPLEX_REAL(v), COMPLEX_IMAG(v)};
    return z;
}

/* ------------------------------------------------------------------ */
/* C arithmetic                                                        */
/* ------------------------------------------------------------------ */

static inline cplx cplx_make(double re, double im)
{
    cplx z = {re, im};
    return z;
}

static inline cplx cplx_mul(cplx a, cplx b)
{
    return cplx_make(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}

/* a ** n for n >= 0: square-and-multiply from the low bit up. */
static cplx cplx_pow_uint(cplx a, unsigned long n)
{
    cplx acc = cplx_make(1.0, 0.0), sq = a;
    while (n) {
        if (n & 1)
            acc = cplx_mul(acc, sq);
        n >>= 1;
        if (n)
            sq = cplx_mul(sq, sq);
    }
    return acc;
}

static cplx cplx_pow(cplx a, cplx b, int *err)
{
    cplx r;
    if (b.im == 0.0 && b.re == floor(b.re) && fabs(b.re) <= 100.0) {
        long n = (long)b.re;
        if (n >= 0)
            r = cplx_pow_uint(a, (unsigned long)n);
        else
            r = cplx_quot(cplx_make(1.0, 0.0), cplx_pow_uint(a, (unsigned long)-n), err);
    } else if (b.re == 0.0 && b.im == 0.0) {
        r = cplx_make(1.0, 0.0);
    } else if (a.re == 0.0 && a.im == 0.0) {
        if (b.im != 0.0 || b.re < 0.0)
            *err = CPLX_EDOM;
        r = cplx_make(0.0, 0.0);
    } else {
        /* a = m e^(i t): a^b = m^br e^(-bi t) e^(i (br t + bi log m)) */
        double m = hypot(a.re, a.im);
        double len = pow(m, b.re);
        double t = atan2(a.im, a.re);
        double ph = t * b.re;
        if (b.im != 0.0) {
            len /= exp(t * b.im);
            ph += b.im * log(m);
        }
        /* CPython reports the domain error libm flags for cos/sin of an
         * infinite angle as ZeroDivisionError, like 0 ** -1 */
        if (isinf(ph))
            *err = CPLX_EDOM;
        r = cplx_make(len * cos(ph), len * sin(ph));
    }
    if ((isinf(r.re) || isinf(r.im)) && *err == CPLX_OK)
        *err = CPLX_ERANGE;
    return r;
}

double cplx_abs(cplx z, bool *overflow)
{
    *overflow = false;
    if (isinf(z.re) || isinf(z.im))
        return INFINITY;
    if (isnan(z.re) || isnan(z.im))
        return NAN;
    double h = hypot(z.re, z.im);
    if (isinf(h))
        *overflow = true;
    return h;
}

/* ------------------------------------------------------------------ */
/* repr and hash                                                       */
/* ------------------------------------------------------------------ */

void complex_part_repr(double d, char *buf)
{
    float_repr_buf(d, buf);
    size_t n = strlen(buf);
    if (n > 2 && buf[n - 2] == '.' && buf[n - 1] == '0')
        buf[n - 2] = 0;
}

static Obj complex_repr_cplx(cplx z)
{
    char re[40], im[40], out[96];
    complex_part_repr(z.im, im);
    if (z.re == 0.0 && !signbit(z.re)) {
        snprintf(out, sizeof out, "%sj", im);
    } else {
        complex_part_repr(z.re, re);
        bool neg = signbit(z.im) && !isnan(z.im);
        snprintf(out, sizeof out, "(%s%s%sj)", re, neg ? "" : "+", im);
    }
    return str_from_cstr(out);
}

static Obj complex_tp_repr(Obj v) { return complex_repr_cplx(cval(vm_unwrap(v))); }

static int64_t complex_tp_hash(Obj v)
{
    cplx z = cval(vm_unwrap(v));
    uint64_t h = (uint64_t)float_hash(z.re) + (uint64_t)1000003 * (uint64_t)float_hash(z.im);
    int64_t s = (int64_t)h;
    return s == -1 ? -2 : s;
}

static int complex_tp_bool(Obj v)
{
    cplx z = cval(vm_unwrap(v));
    return z.re != 0.0 || z.im != 0.0;
}

/* ------------------------------------------------------------------ */
/* Operands                                                            */
/* ------------------------------------------------------------------ */

/* An operand of a binary op as a complex: 1 done, 0 not a number we mix
 * with (NotImplemented), -1 error (an int too large for a float). */
static int to_cplx(Obj v, cplx *out)
{
    v = vm_unwrap(v);
    if (IS_COMPLEX(v)) {
        *out = cval(v);
        return 1;
    }
    if (IS_FLOAT(v)) {
        *out = cplx_make(FLOAT_VAL(v), 0.0);
        return 1;
    }
    if (IS_INT(v)) {
        double d;
        if (int_as_double(v, &d) < 0)
            return -1;
        *out = cplx_make(d, 0.0);
        return 1;
    }
    return 0;
}

#define CPLX_OPERANDS(a, b, x, y)                           \
    cplx x, y;                                              \
    do {                                                    \
        int k_ = to_cplx(a, &x);                            \
        if (k_ > 0)                                         \
            k_ = to_cplx(b, &y);                            \
        if (k_ <= 0)                                        \
            return k_ < 0 ? NULL : g_NotImplemented;        \
    } while (0)

static Obj complex_nb_add(Obj a, Obj b)
{
    CPLX_OPERANDS(a, b, x, y);
    return complex_new(x.re + y.re, x.im + y.im);
}

static Obj complex_nb_sub(Obj a, Obj b)
{
    CPLX_OPERANDS(a, b, x, y);
    return complex_new(x.re - y.re, x.im - y.im);
}

static Obj complex_nb_mul(Obj a, Obj b)
{
    CPLX_OPERANDS(a, b, x, y);
    return complex_from_cplx(cplx_mul(x, y));
}

static Obj complex_nb_truediv(Obj a, Obj b)
{
    CPLX_OPERANDS(a, b, x, y);
    int err = CPLX_OK;
    cplx q = cplx_quot(x, y, &err);
    if (err == CPLX_EDOM) {
        err_set(E_ZeroDivisionError, "complex division by zero");
        return NULL;
    }
    return complex_from_cplx(q);
}

static Obj pow_result(cplx r, int err)
{
    if (err == CPLX_EDOM) {
        err_set(E_ZeroDivisionError, "0.0 to a negative or complex power");
        return NULL;
    }
    if (err == CPLX_ERANGE) {
        err_set(E_OverflowError, "complex exponentiation");
        return NULL;
    }
    return complex_from_cplx(r);
}

static Obj complex_nb_pow(Obj a, Obj b)
{
    CPLX_OPERANDS(a, b, x, y);
    int err = CPLX_OK;
    cplx r = cplx_pow(x, y, &err);
    return pow_result(r, err);
}

Obj complex_pow_doubles(double x, double y)
{
    int err = CPLX_OK;
    cplx r = cplx_pow(cplx_make(x, 0.0), cplx_make(y, 0.0), &err);
    return pow_result(r, err);
}

static Obj complex_nb_neg(Obj v)
{
    cplx z = cval(vm_unwrap(v));
    return complex_new(-z.re, -z.im);
}

/* The exact complex value of v (a complex or an instance of a subclass). */
static Obj complex_exact(Obj v)
{
    v = vm_unwrap(v);
    return v;
}

static Obj complex_nb_abs(Obj v)
{
    bool ovf;
    double h = cplx_abs(cval(vm_unwrap(v)), &ovf);
    if (ovf) {
        err_set(E_OverflowError, "absolute value too large");
        return NULL;
    }
    return float_new(h);
}

static Obj complex_richcompare(Obj a, Obj b, int op)
{
    a = vm_unwrap(a);
    b = vm_unwrap(b);
    if (!IS_COMPLEX(a) || (op != CMP_EQ && op != CMP_NE))
        return g_NotImplemented;
    cplx x = cval(a);
    bool eq;
    if (IS_COMPLEX(b)) {
        eq = x.re == COMPLEX_REAL(b) && x.im == COMPLEX_IMAG(b);
    } else if (IS_FLOAT(b)) {
        eq = x.im == 0.0 && x.re == FLOAT_VAL(b);
    } else if (IS_INT(b)) {
        eq = x.im == 0.0 && int_float_compare(b, x.re) == 0;   /* exact, as float == int */
    } else {
        return g_NotImplemented;
    }
    return vm_bool(op == CMP_EQ ? eq : !eq);
}

/* ------------------------------------------------------------------ */
/* complex(real=0, imag=0)                                             */
/* ------------------------------------------------------------------ */

static bool ascii_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static bool ascii_digit(char c) { return c >= '0' && c <= '9'; }

static bool word_at(const char *p, const char *end, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(end - p) < n)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((p[i] | 0x20) != w[i])
            return false;
    return true;
}

/* The end of an unsigned real number at p (decimal digits with an optional
 * point and exponent, or inf / infinity / nan), or NULL if there is none. */
static const char *scan_real(const char *p, const char *end)
{
    if (word_at(p, end, "infinity"))
        return p + 8;
    if (word_at(p, end, "inf") || word_at(p, end, "nan"))
        return p + 3;
    const char *q = p;
    while (q < end && ascii_digit(*q))
        q++;
    size_t ndig = (size_t)(q - p);
    if (q < end && *q == '.') {
        const char *f = ++q;
        while (q < end && ascii_digit(*q))
            q++;
        ndig += (size_t)(q - f);
    }
    if (ndig == 0)
        return NULL;
    if (q < end && (*q == 'e' || *q == 'E')) {
        const char *x = q + 1;
        if (x < end && (*x == '+' || *x == '-'))
            x++;
        if (x < end && ascii_digit(*x)) {
            while (x < end && ascii_digit(*x))
                x++;
            q = x;
        }
    }
    return q;
}

/* The value of [p, q) with a sign (strtod of a NUL-terminated copy). */
static double real_value(bool neg, const char *p, const char *q)
{
    char local[64];
    size_t n = (size_t)(q - p);
    char *buf = n + 2 <= sizeof local ? local : malloc(n + 2);
    if (!buf)
        return NAN;   /* out of memory: cannot report here; practically unreachable */
    buf[0] = neg ? '-' : '+';
    memcpy(buf + 1, p, n);
    buf[n + 1] = 0;
    double d = strtod(buf, NULL);
    if (buf != local)
        free(buf);
    return d;
}

/* Parse complex() text (ASCII, underscores removed): 0 ok, -1 malformed. */
static int parse_complex_text(const char *s, const char *end, cplx *out)
{
    double re = 0.0, im = 0.0;
    while (s < end && ascii_space(*s))
        s++;
    bool paren = s < end && *s == '(';
    if (paren) {
        s++;
        while (s < end && ascii_space(*s))
            s++;
    }
    bool neg = false;
    if (s < end && (*s == '+' || *s == '-'))
        neg = *s++ == '-';
    const char *q = scan_real(s, end);
    if (q) {
        double x = real_value(neg, s, q);
        s = q;
        if (s < end && (*s == 'j' || *s == 'J')) {
            im = x;
            s++;
        } else if (s < end && (*s == '+' || *s == '-')) {
            bool neg2 = *s++ == '-';
            const char *q2 = scan_real(s, end);
            double y = neg2 ? -1.0 : 1.0;
            if (q2) {
                y = real_value(neg2, s, q2);
                s = q2;
            }
            if (!(s < end && (*s == 'j' || *s == 'J')))
                return -1;
            s++;
            re = x;
            im = y;
        } else {
            re = x;
        }
    } else if (s < end && (*s == 'j' || *s == 'J')) {
        im = neg ? -1.0 : 1.0;
        s++;
    } else {
        return -1;
    }
    while (s < end && ascii_space(*s))
        s++;
    if (paren) {
        if (!(s < end && *s == ')'))
            return -1;
        s++;
        while (s < end && ascii_space(*s))
            s++;
    }
    if (s != end)
        return -1;
    out->re = re;
    out->im = im;
    return 0;
}

/* complex(str): CPython's rules and messages. `str` may be a str subclass. */
static Obj complex_from_str(Obj str)
{
    Obj u = vm_unwrap(str);
    size_t n = (size_t)STR(u)->nbytes;
    char *buf = malloc(n + 1);
    if (!buf)
        return err_nomemory();
    memcpy(buf, str_cstr(u), n);
    buf[n] = 0;
    size_t alen;
    char *ascii = num_ascii_copy(buf, n, &alen);
    if (ascii) {
        free(buf);
        buf = ascii;
        n = alen;
    }
    int bad = 0;   /* 1: misplaced underscore, 2: malformed */
    if (memchr(buf, '_', n)) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (buf[i] == '_') {
                if (i == 0 || i + 1 >= n || !ascii_digit(buf[i - 1]) || !ascii_digit(buf[i + 1])) {
                    bad = 1;
                    break;
                }
                continue;
            }
            buf[k++] = buf[i];
        }
        n = k;
    }
    cplx z = {0.0, 0.0};
    if (!bad && parse_complex_text(buf, buf + n, &z) < 0)
        bad = 2;
    free(buf);
    if (bad == 2) {
        err_set(E_ValueError, "complex() arg is a malformed string");
        return NULL;
    }
    if (bad == 1) {
        Obj r = vm_repr(str);
        if (r)
            err_format(E_ValueError, "could not convert string to complex: %s", str_cstr(r));
        return NULL;
    }
    return complex_from_cplx(z);
}

/* v's __complex__() if its type has one: 1 (*out set), 0 none, -1 error. */
static int call_dunder_complex(Obj v, Obj *out)
{
    Obj f = vm_lookup_type(TYPE(v), NAME(__complex__));
    if (!f)
        return 0;
    Obj res = vm_call_unbound(f, v, NULL, 0);
    if (!res)
        return -1;
    if (!IS_COMPLEX(vm_unwrap(res))) {
        err_format(E_TypeError, "__complex__ returned non-complex (type %s)", type_name(res));
        return -1;
    }
    *out = vm_unwrap(res);
    return 1;
}

static bool is_number_for_complex(Obj v)
{
    TypeObj *t = TYPE(v);
    return IS_COMPLEX(vm_unwrap(v)) || t->nb_float || t->nb_index;
}

/* float(v) for a real number (v not a str), as a double. */
static int real_arg(Obj v, double *out)
{
    Obj u = vm_unwrap(v);
    if (IS_FLOAT(u)) {
        *out = FLOAT_VAL(u);
        return 0;
    }
    if (IS_INT(u))
        return int_as_double(u, out);
    Obj f = vm_number_float(v);
    if (!f)
        return -1;
    *out = FLOAT_VAL(f);
    return 0;
}

int complex_arg(Obj v, cplx *out)
{
    Obj u = vm_unwrap(v);
    if (IS_COMPLEX(u)) {
        *out = cval(u);
        return 0;
    }
    if (IS_FLOAT(u)) {
        *out = cplx_make(FLOAT_VAL(u), 0.0);
        return 0;
    }
    Obj *r = vm_roots(1);
    r[0] = v;
    Obj c;
    int k = call_dunder_complex(v, &c);
    double d = 0.0;
    if (k == 0)
        k = vm_as_double(r[0], &d) < 0 ? -1 : 0;
    else if (k > 0)
        *out = cval(c);
    vm_unroots(r);
    if (k == 0)
        *out = cplx_make(d, 0.0);
    return k < 0 ? -1 : 0;
}

static Obj complex_value_new(Obj *a)   /* a[0] real (or NULL), a[1] imag (or NULL): root slots */
{
    if (!a[0])
        a[0] = MAKE_SMALLINT(0);
    if (IS_STR(vm_unwrap(a[0]))) {
        if (a[1]) {
            err_set(E_TypeError, "complex() can't take second arg if first is a string");
            return NULL;
        }
        return complex_from_str(a[0]);
    }
    if (a[1] && IS_STR(vm_unwrap(a[1]))) {
        err_set(E_TypeError, "complex() second arg can't be a string");
        return NULL;
    }
    if (!IS_COMPLEX(a[0])) {
        Obj c;
        int k = call_dunder_complex(a[0], &c);
        if (k < 0)
            return NULL;
        if (k > 0)
            a[0] = c;
    }
    if (!is_number_for_complex(a[0])) {
        err_format(E_TypeError, "complex() first argument must be a string or a number, not '%s'", type_name(a[0]));
        return NULL;
    }
    if (a[1] && !is_number_for_complex(a[1])) {
        err_format(E_TypeError, "complex() second argument must be a number, not '%s'", type_name(a[1]));
        return NULL;
    }
    /* real part: a complex contributes both parts; imag part: a complex
     * contributes i * (its value). Parts are only added when present, so
     * signed zeros survive (complex(1, -0.0) == (1-0j)). */
    Obj r = vm_unwrap(a[0]);
    cplx cr;
    bool r_complex = IS_COMPLEX(r);
    if (r_complex) {
        if (!a[1] && r == a[0])
            return r;   /* an exact complex alone: itself */
        cr = cval(r);
    } else {
        if (real_arg(a[0], &cr.re) < 0)
            return NULL;
        cr.im = 0.0;
    }
    if (!a[1])
        return complex_from_cplx(cr);
    Obj i = vm_unwrap(a[1]);
    cplx ci;
    bool i_complex = IS_COMPLEX(i);
    if (i_complex) {
        ci = cval(i);
    } else {
        if (real_arg(a[1], &ci.re) < 0)
            return NULL;
        ci.im = 0.0;
    }
    double re = cr.re, im = ci.re;
    if (i_complex)
        re -= ci.im;
    if (r_complex)
        im += cr.im;
    return complex_new(re, im);
}

static Obj complex_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"real", "imag", NULL};
    Obj *a = vm_roots(2);
    Obj v = NULL;
    if (vm_parse_args("complex()", args, nargs, kwnames, names, 0, 2, a) == 0)
        v = complex_value_new(a);
    vm_unroots(a);
    if (!v || (TypeObj *)type == T_complex)
        return v;
    Obj *r = vm_roots(1);
    r[0] = v;
    Obj inst = instance_new((TypeObj *)type);
    if (inst) {
        VM_WRITE(inst);
        INST(inst)->base_value = r[0];
    }
    vm_unroots(r);
    return inst;
}

/* ------------------------------------------------------------------ */
/* Methods and attributes                                              */
/* ------------------------------------------------------------------ */

static Obj complex_m_conjugate(Obj *args, size_t nargs, Obj kwnames)
{
    cplx z = cval(vm_unwrap(args[0]));
    return complex_new(z.re, -z.im);
}

static Obj complex_m_getnewargs(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    cplx z = cval(vm_unwrap(args[0]));
    if ((r[0] = float_new(z.re)) && (r[1] = float_new(z.im)))
        res = tuple_pack(2, r[0], r[1]);
    vm_unroots(r);
    return res;
}

static Obj complex_m_complex(Obj *args, size_t nargs, Obj kwnames)
{
    Obj v = args[0];
    if (IS_COMPLEX(v))
        return v;
    return complex_from_cplx(cval(vm_unwrap(v)));
}

static Obj complex_m_format(Obj *args, size_t nargs, Obj kwnames)
{
    if (!IS_STR(vm_unwrap(args[1]))) {
        err_format(E_TypeError, "__format__() argument must be str, not %s",
                   IS_NONE(args[1]) ? "None" : type_name(args[1]));
        return NULL;
    }
    if (STR(vm_unwrap(args[1]))->nbytes == 0)
        return vm_str(args[0]);
    cplx z = cval(vm_unwrap(args[0]));
    return format_complex(z.re, z.im, args[1]);
}

static Obj complex_get_real(Obj *args, size_t nargs, Obj kwnames)
{
    return float_new(COMPLEX_REAL(vm_unwrap(args[0])));
}

static Obj complex_get_imag(Obj *args, size_t nargs, Obj kwnames)
{
    return float_new(COMPLEX_IMAG(vm_unwrap(args[0])));
}

/* real and imag are read-only (CPython's member descriptors' message). */
static Obj complex_set_readonly(Obj *args, size_t nargs, Obj kwnames)
{
    err_set(E_AttributeError, "readonly attribute");
    return NULL;
}

static const MethodDef complex_methods[] = {
    {"conjugate", complex_m_conjugate, METH_NOARGS, "Return the complex conjugate of its argument. (3-4j).conjugate() == 3+4j."},
    {"__getnewargs__", complex_m_getnewargs, METH_NOARGS, NULL},
    {"__format__", complex_m_format, METH_O, "Convert to a string according to format_spec."},
    {"__complex__", complex_m_complex, METH_NOARGS, "Convert this value to exact type complex."},
    {NULL, NULL, 0, NULL},
};

void complex_init_type(void)
{
    TypeObj *t = T_complex = (TypeObj *)type_new_builtin("complex", T_object, TID_COMPLEX, TPF_BASETYPE);
    t->tp_repr = complex_tp_repr;
    t->tp_hash = complex_tp_hash;
    t->tp_richcompare = complex_richcompare;
    t->tp_bool = complex_tp_bool;
    t->tp_new = complex_tp_new;
    t->nb[NB_ADD] = complex_nb_add;
    t->nb[NB_SUB] = complex_nb_sub;
    t->nb[NB_MUL] = complex_nb_mul;
    t->nb[NB_TRUEDIV] = complex_nb_truediv;
    t->nb[NB_POW] = complex_nb_pow;
    t->nb_neg = complex_nb_neg;
    t->nb_pos = complex_exact;
    t->nb_abs = complex_nb_abs;
    type_add_methods(t, complex_methods);
    type_add_getset(t, "real", complex_get_real, complex_set_readonly);
    type_add_getset(t, "imag", complex_get_imag, complex_set_readonly);
    type_set_attr_cstr(t, "__doc__", str_from_cstr("Create a complex number from a real part and an optional imaginary part.\n\n"
                                                   "This is equivalent to (real + imag*1j) where imag defaults to 0."));
    type_ready(t);
}
