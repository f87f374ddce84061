/* Fuzz target for the tmpy front end (vm/compiler/ast.c, lexer.c, parser.c
 * only: no GC, no other vm files).
 *
 *   fuzz_parse FILE...              parse each file in the three modes
 *   fuzz_parse [-t SECONDS] [-r SEED] [-d SEEDDIR] [-o CRASHFILE]
 *                                   mutate seed programs for SECONDS
 *
 * Every input is parsed in exec, eval and single mode, each with its own
 * arena (freed afterwards: LeakSanitizer checks that nothing escapes), and
 * a successful tree is dumped to /dev/null to walk it. A parse that takes
 * longer than the per-input limit, a crash, or a sanitizer report fails:
 * the input is first written to CRASHFILE (default
 * build/fuzz_parse_crash.py) so it can be replayed.
 *
 * Mutations: byte flips, insertions and deletions; token deletion,
 * duplication and splicing between seeds; insertion of Python tokens from a
 * dictionary; and generators of deep nesting (brackets, unary operators,
 * lambdas, conditionals, f-strings, indentation, long operator chains).
 */
#include "ast.h"
#include "parser.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

#define FUZZ_MAX_INPUT (64 * 1024)
#define PER_INPUT_SECONDS 5

/* ------------------------------------------------------------------ */
/* The current input, saved when something goes wrong                  */
/* ------------------------------------------------------------------ */
static const char *crash_file = "build/fuzz_parse_crash.py";
static char cur_input[FUZZ_MAX_INPUT + 1];
static size_t cur_len;
static volatile int cur_mode;

static void save_input(const char *why)
{
    int fd = open(crash_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        ssize_t w = write(fd, cur_input, cur_len);
        (void)w;
        close(fd);
    }
    static const char modes[] = "ESI";
    char msg[256];
    int n = snprintf(msg, sizeof msg, "fuzz_parse: %s (mode %c, %zu bytes), input saved to %s\n", why,
                     modes[cur_mode % 3], cur_len, crash_file);
    ssize_t w = write(2, msg, (size_t)n);
    (void)w;
}

static void on_signal(int sig)
{
    save_input(sig == SIGALRM ? "TIMEOUT: a parse took too long" : "CRASH: fatal signal");
    _exit(sig == SIGALRM ? 3 : 4);
}

#if defined(__SANITIZE_ADDRESS__)
static void on_sanitizer_death(void) { save_input("CRASH: sanitizer report"); }
#endif

/* ------------------------------------------------------------------ */
/* Parsing one input                                                   */
/* ------------------------------------------------------------------ */
static FILE *devnull;
static long n_ok, n_err, n_inputs;
static SyntaxErrorInfo exec_err;   /* the last input's exec-mode result (msg "" if it parsed) */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void check_error(const SyntaxErrorInfo *e)
{
    /* The error must be well formed: NUL-terminated strings, sane kind. */
    if (strnlen(e->msg, sizeof e->msg) == sizeof e->msg || strnlen(e->text, sizeof e->text) == sizeof e->text ||
        e->msg[0] == 0 || e->kind < 0 || e->kind > 3 || e->lineno < 0) {
        save_input("BAD ERROR INFO");
        abort();
    }
}

static void parse_one(const char *src, size_t len)
{
    if (len > FUZZ_MAX_INPUT)
        len = FUZZ_MAX_INPUT;
    memcpy(cur_input, src, len);
    cur_len = len;
    n_inputs++;
    for (int mode = 0; mode < 3; mode++) {
        cur_mode = mode;
        Arena *a = arena_new();
        if (!a) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
        SyntaxErrorInfo err;
        alarm(PER_INPUT_SECONDS);
        double t0 = now();
        mod_ty m = parse_source(a, cur_input, len, "<fuzz>", mode, 4300, &err);
        double dt = now() - t0;
        alarm(0);
        if (dt > PER_INPUT_SECONDS / 2.0) {
            save_input("SLOW: a parse took more than half the time limit");
            exit(3);
        }
        if (m) {
            ast_dump(devnull, m);
            n_ok++;
        } else {
            check_error(&err);
            n_err++;
        }
        if (mode == PARSE_EXEC) {
            exec_err = err;
            if (m)
                exec_err.msg[0] = 0;
        }
        arena_free(a);
    }
}

/* ------------------------------------------------------------------ */
/* Random numbers (xorshift64*)                                        */
/* ------------------------------------------------------------------ */
static uint64_t rng_state = 88172645463325252ULL;
static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}
static size_t rndn(size_t n) { return n ? (size_t)(rnd() % n) : 0; }

/* ------------------------------------------------------------------ */
/* Seeds                                                               */
/* ------------------------------------------------------------------ */
typedef struct Buf {
    char *p;
    size_t n, cap;
} Buf;

static void buf_add(Buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->n + n + 1)
            cap *= 2;
        b->p = realloc(b->p, cap);
        if (!b->p) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}
static void buf_adds(Buf *b, const char *s) { buf_add(b, s, strlen(s)); }

static Buf *seeds;
static int nseeds, capseeds;

static void add_seed(const char *s, size_t n)
{
    if (nseeds == capseeds) {
        capseeds = capseeds ? capseeds * 2 : 32;
        seeds = realloc(seeds, sizeof(Buf) * (size_t)capseeds);
        if (!seeds)
            exit(2);
    }
    Buf b = {0};
    buf_add(&b, s, n > FUZZ_MAX_INPUT ? FUZZ_MAX_INPUT : n);
    seeds[nseeds++] = b;
}

static int read_file(const char *path, Buf *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char tmp[4096];
    size_t k;
    while ((k = fread(tmp, 1, sizeof tmp, f)) > 0)
        buf_add(out, tmp, k);
    fclose(f);
    if (!out->p)
        buf_add(out, "", 0);
    return 0;
}

static void load_seed_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".py") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        Buf b = {0};
        if (read_file(path, &b) == 0) {
            add_seed(b.p, b.n);
            free(b.p);
        }
    }
    closedir(d);
}

static const char *const builtin_seeds[] = {
    "x = 1\nprint(x + 2 * 3)\n",
    "def f(a, b=1, *args, c, d=2, **kw) -> int:\n    return a if b else c\n",
    "class A(B, metaclass=M):\n    @dec\n    def m(self, /, x):\n        yield from x\n",
    "for i, (j, *k) in enumerate(z):\n    if i: continue\n    elif j: break\n    else: pass\nelse:\n    del a[1:2, ::3]\n",
    "try:\n    import a.b as c\n    from ..d import (e, f as g,)\nexcept (E, F) as err:\n    raise X from err\nelse:\n    pass\nfinally:\n    global q\n",
    "with open(p) as f, (a as b):\n    s = f'{x!r:>{w}} {y=} {{z}}' 'abc' rb'\\d'\n",
    "lam = lambda x, *y, z=3, **w: (x, *y, [i for i in y if i], {k: v for k, v in w.items()})\n",
    "while (n := n - 1) > 0 and not done or other:\n    x += 1; y <<= 2; z @= m\n",
    "a = b = c[1:-1] = d.e = 0x1F + 0o17 + 0b11 + 1_000.5e-3 + .5\n",
    "assert isinstance(x, int), \"msg\"\nnonlocal_ = {**a, 'b': [*c, *d]}\n",
    "s = '''multi\nline''' + \"\\x41\\u00e9\\U0001F600\\101\\n\"\n",
    "if x:\n\tpass\nelif y:\n        pass\n",
    "print(*args, sep='', **kw)\nf(x for x in y)\ng(a)(b)[c].d\n",
    "match = 1\nmatch(x)\ncase = 2\n_ = match[case]\n",
    "x: int = 5\n(y): 'str'\nz.w: list[int]\n",
    "def g():\n    x = yield\n    y = yield 1, 2\n    return (yield)\n",
    "r = a < b <= c != d is not e not in f in g is h\n",
    "e = -x ** -y // ~z % +w | a ^ b & c >> d\n",
    "t = 1,\nu = ()\nv = (1,)\nw = [*a]\n",
    "é = 1\nπ = 3.14\n名前 = 'x'\n",
    "f'{a:{b}{c}}' f\"{'nested'}\" F'''{x\n}'''\n",
};

/* ------------------------------------------------------------------ */
/* Mutations                                                           */
/* ------------------------------------------------------------------ */
static const char *const dict[] = {
    "(", ")", "[", "]", "{", "}", ":", ",", ";", "+", "-", "*", "/", "|", "&", "<", ">", "=", ".", "%",
    "==", "!=", "<=", ">=", "~", "^", "<<", ">>", "**", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
    "<<=", ">>=", "**=", "//", "//=", "@", "@=", "->", "...", ":=", "!", "$", "?", "`", "<>",
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
    "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
    "match", "case", "_", "print", "x", "y", "é", "\xe2\x82\xac", "\xc2\xa0", "\x01", "\xff", "\xed\xa0\x80",
    "\n", "\n    ", "\n\t", "\n  ", "\\\n", "\\", "#", "# c\n", " ", "\t", "\f", "\r", "\r\n",
    "'", "\"", "'''", "\"\"\"", "'a'", "\"b\"", "f'{x}'", "f'{x!r:>{y}}'", "f'{x=}'", "f'{{'", "f'}'", "b'x'",
    "rb'\\d'", "u'x'", "'\\x4'", "'\\u12'", "'\\N{DASH}'", "'\\777'", "f'{'", "f'{a b}'", "f'{x:{y:{z}}}'",
    "0", "1", "0x", "0x1F", "0o7", "0b1", "1_0", "1e5", "1.5", ".5", "1j", "0123", "1_", "1e", "9" "9999999999999999999999",
    "*", "**", "*a", "**k", "a.b", "a[1:2]", "f()", "lambda: 0", "x if y else z", "(yield)", "[i for i in x]",
};

static int is_word(unsigned char c) { return c == '_' || c >= 0x80 || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z'); }

/* Rough token boundaries: runs of word characters, runs of spaces, single others. */
static size_t split_tokens(const char *s, size_t n, size_t *starts, size_t max)
{
    size_t k = 0, i = 0;
    while (i < n && k < max) {
        starts[k++] = i;
        unsigned char c = (unsigned char)s[i];
        if (is_word(c)) {
            while (i < n && is_word((unsigned char)s[i]))
                i++;
        } else if (c == ' ') {
            while (i < n && s[i] == ' ')
                i++;
        } else
            i++;
    }
    return k;
}

#define MAXTOK 8192
static size_t tok_a[MAXTOK + 1], tok_b[MAXTOK + 1];

static void mutate(const Buf *in, Buf *out)
{
    out->n = 0;
    buf_add(out, in->p, in->n);
    int rounds = 1 + (int)rndn(4);
    for (int r = 0; r < rounds; r++) {
        Buf t = {0};
        size_t n = out->n;
        switch (rndn(9)) {
        case 0:   /* flip a byte */
            if (n)
                out->p[rndn(n)] ^= (char)(1 << rndn(8));
            continue;
        case 1: { /* random byte */
            size_t at = rndn(n + 1);
            char c = (char)rndn(256);
            if (c == 0)
                c = '\n';
            buf_add(&t, out->p, at);
            buf_add(&t, &c, 1);
            buf_add(&t, out->p + at, n - at);
            break;
        }
        case 2: { /* delete a range of bytes */
            if (!n)
                continue;
            size_t at = rndn(n), len = 1 + rndn(8);
            if (at + len > n)
                len = n - at;
            buf_add(&t, out->p, at);
            buf_add(&t, out->p + at + len, n - at - len);
            break;
        }
        case 3: { /* insert a dictionary token */
            size_t at = rndn(n + 1);
            const char *w = dict[rndn(sizeof dict / sizeof dict[0])];
            buf_add(&t, out->p, at);
            if (rnd() & 1)
                buf_adds(&t, " ");
            buf_adds(&t, w);
            buf_add(&t, out->p + at, n - at);
            break;
        }
        case 4:   /* delete a token */
        case 5: { /* duplicate a token */
            size_t k = split_tokens(out->p, n, tok_a, MAXTOK);
            if (!k)
                continue;
            tok_a[k] = n;
            size_t i = rndn(k);
            buf_add(&t, out->p, tok_a[i]);
            if (rndn(2) == 0) {
                buf_add(&t, out->p + tok_a[i + 1], n - tok_a[i + 1]);   /* delete */
            } else {
                buf_add(&t, out->p + tok_a[i], tok_a[i + 1] - tok_a[i]); /* duplicate */
                buf_add(&t, out->p + tok_a[i], n - tok_a[i]);
            }
            break;
        }
        case 6: { /* splice: tokens of another seed */
            const Buf *o = &seeds[rndn((size_t)nseeds)];
            size_t ka = split_tokens(out->p, n, tok_a, MAXTOK);
            size_t kb = split_tokens(o->p, o->n, tok_b, MAXTOK);
            tok_a[ka] = n;
            tok_b[kb] = o->n;
            size_t i = rndn(ka + 1), j = rndn(kb + 1), jl = 1 + rndn(12);
            if (j + jl > kb)
                jl = kb - j;
            size_t cut = i <= ka ? tok_a[i] : n;
            buf_add(&t, out->p, cut);
            if (jl)
                buf_add(&t, o->p + tok_b[j], tok_b[j + jl] - tok_b[j]);
            buf_add(&t, out->p + cut, n - cut);
            break;
        }
        case 7: { /* swap two tokens' order: move a token elsewhere */
            size_t k = split_tokens(out->p, n, tok_a, MAXTOK);
            if (k < 2)
                continue;
            tok_a[k] = n;
            size_t i = rndn(k), j = rndn(k);
            if (i == j)
                continue;
            if (i > j) {
                size_t x = i;
                i = j;
                j = x;
            }
            buf_add(&t, out->p, tok_a[i]);
            buf_add(&t, out->p + tok_a[j], tok_a[j + 1] - tok_a[j]);
            buf_add(&t, out->p + tok_a[i + 1], tok_a[j] - tok_a[i + 1]);
            buf_add(&t, out->p + tok_a[i], tok_a[i + 1] - tok_a[i]);
            buf_add(&t, out->p + tok_a[j + 1], n - tok_a[j + 1]);
            break;
        }
        default: { /* truncate */
            if (!n)
                continue;
            buf_add(&t, out->p, rndn(n));
            break;
        }
        }
        out->n = 0;
        if (t.p)
            buf_add(out, t.p, t.n > FUZZ_MAX_INPUT ? FUZZ_MAX_INPUT : t.n);
        free(t.p);
    }
}

/* Deeply nested or very long constructs around the limits. */
static void generate_deep(Buf *out)
{
    out->n = 0;
    static const char *const open[] = {"(", "[", "{", "-", "not ", "~", "lambda: ", "x if y else ", "f(", "a[",
                                       "+", "await ", "(yield ", "{**", "*", "2**", "x.", "f'{", "[*"};
    static const char *const close[] = {")", "]", "}", "", "", "", "", "", ")", "]",
                                        "", "", ")", "}", "", "", "", "}'", "]"};
    size_t kind = rndn(sizeof open / sizeof open[0]);
    size_t depth = rndn(8) == 0 ? 1 + rndn(6000) : 1 + rndn(300);
    if (rndn(4) == 0)
        buf_adds(out, "x = ");
    for (size_t i = 0; i < depth && out->n < FUZZ_MAX_INPUT / 2; i++)
        buf_adds(out, open[(rnd() & 3) ? kind : rndn(sizeof open / sizeof open[0])]);
    buf_adds(out, "x");
    for (size_t i = 0; i < depth && out->n < FUZZ_MAX_INPUT; i++)
        buf_adds(out, close[kind]);
    switch (rndn(5)) {
    case 0: { /* long operator chain */
        out->n = 0;
        static const char *const ops[] = {" + ", ".", " and ", " < ", ", ", "()", "[0]", " if x else ", " or "};
        const char *op = ops[rndn(sizeof ops / sizeof ops[0])];
        buf_adds(out, "y = x");
        size_t n = rndn(20000);
        for (size_t i = 0; i < n && out->n < FUZZ_MAX_INPUT - 16; i++) {
            buf_adds(out, op);
            buf_adds(out, "x");
        }
        break;
    }
    case 1: { /* deep indentation */
        out->n = 0;
        size_t n = rndn(130);
        for (size_t i = 0; i < n; i++) {
            for (size_t j = 0; j < i; j++)
                buf_adds(out, rndn(50) ? " " : "\t");
            buf_adds(out, rndn(2) ? "if x:\n" : "for a in b:\n");
        }
        for (size_t j = 0; j < n; j++)
            buf_adds(out, " ");
        buf_adds(out, "pass\n");
        break;
    }
    case 2: { /* nested f-strings and format specs */
        out->n = 0;
        static const char *const q[] = {"'", "\"", "'''", "\"\"\""};
        size_t n = 1 + rndn(6);
        for (size_t i = 0; i < n; i++) {
            buf_adds(out, "f");
            buf_adds(out, q[i % 4]);
            buf_adds(out, rndn(2) ? "{" : "{x:{");
        }
        buf_adds(out, "y");
        for (size_t i = n; i-- > 0;) {
            buf_adds(out, rndn(3) ? "}" : "}}");
            buf_adds(out, q[i % 4]);
        }
        break;
    }
    default:
        break;
    }
}

/* ------------------------------------------------------------------ */
/* Main                                                                */
/* ------------------------------------------------------------------ */
int main(int argc, char **argv)
{
    double seconds = 20;
    const char *seed_dir = NULL;
    int nfiles = 0;
    char **files = calloc((size_t)argc + 1, sizeof(char *));
    rng_state ^= (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-t") && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc)
            rng_state = strtoull(argv[++i], NULL, 0) | 1;
        else if (!strcmp(argv[i], "-d") && i + 1 < argc)
            seed_dir = argv[++i];
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            crash_file = argv[++i];
        else
            files[nfiles++] = argv[i];
    }
    devnull = fopen("/dev/null", "w");
    if (!devnull)
        return 2;
    signal(SIGALRM, on_signal);
    signal(SIGSEGV, on_signal);
    signal(SIGBUS, on_signal);
    signal(SIGFPE, on_signal);
    signal(SIGILL, on_signal);
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_set_death_callback(on_sanitizer_death);
#endif

    if (nfiles) {
        for (int i = 0; i < nfiles; i++) {
            Buf b = {0};
            if (read_file(files[i], &b) < 0) {
                perror(files[i]);
                return 2;
            }
            parse_one(b.p, b.n);
            free(b.p);
            /* one line per file (tests compare the verdict with CPython's) */
            if (exec_err.msg[0])
                printf("fuzz_parse: %s: exec error line %d: %s\n", files[i], exec_err.lineno, exec_err.msg);
            else
                printf("fuzz_parse: %s: exec tree\n", files[i]);
        }
        printf("fuzz_parse: %ld inputs, %ld trees, %ld errors: ok\n", n_inputs, n_ok, n_err);
        free(files);
        fclose(devnull);
        return 0;
    }

    uint64_t seed_used = rng_state;
    for (size_t i = 0; i < sizeof builtin_seeds / sizeof builtin_seeds[0]; i++)
        add_seed(builtin_seeds[i], strlen(builtin_seeds[i]));
    load_seed_dir(seed_dir ? seed_dir : "tests/fuzz/seeds");
    for (int i = 0; i < nseeds; i++)
        parse_one(seeds[i].p, seeds[i].n);

    double t_end = now() + seconds;
    Buf cur = {0};
    long iter = 0;
    while (now() < t_end) {
        for (int k = 0; k < 64; k++, iter++) {
            if (iter % 16 == 0)
                generate_deep(&cur);
            else
                mutate(&seeds[rndn((size_t)nseeds)], &cur);
            parse_one(cur.p ? cur.p : "", cur.n);
            /* Interesting survivors become seeds sometimes (bounded pool). */
            if (nseeds < 2000 && rndn(200) == 0 && cur.n < 8192)
                add_seed(cur.p ? cur.p : "", cur.n);
        }
    }
    printf("fuzz_parse: seed 0x%llx, %ld inputs (x3 modes), %ld trees, %ld errors in %.0fs: ok\n",
           (unsigned long long)seed_used, n_inputs, n_ok, n_err, seconds);
    for (int i = 0; i < nseeds; i++)
        free(seeds[i].p);
    free(seeds);
    free(cur.p);
    free(files);
    fclose(devnull);
    return 0;
}
