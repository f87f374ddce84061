/* StrBuf: a growable byte buffer in C memory for building strings. It holds
 * no GC references, so nothing moves under it; sb_finish makes the str. */
#include "objects.h"
#include "strobj.h"

#include <stdlib.h>
#include <string.h>

void sb_init(StrBuf *b)
{
    b->p = NULL;
    b->len = 0;
    b->cap = 0;
}

/* Out of C memory (or past vm_max_object_size): the buffer is poisoned
 * (cap = SIZE_MAX, p = NULL) so that every later add is a no-op (the fast
 * paths test p too, so they reach sb_grow, which refuses) and sb_finish
 * reports MemoryError. */
void sb_nomemory(StrBuf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = 0;
    b->cap = SIZE_MAX;
}

/* Room for `extra` more bytes plus a NUL. */
static bool sb_grow(StrBuf *b, size_t extra)
{
    if (sb_failed(b))
        return false;
    size_t need = b->len + extra + 1;
    if (need < b->len || need > vm_max_object_size()) {
        sb_nomemory(b);
        return false;
    }
    if (need <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap = cap * 2 > cap ? cap * 2 : need;
    char *p = realloc(b->p, cap);
    if (!p) {
        sb_nomemory(b);
        return false;
    }
    b->p = p;
    b->cap = cap;
    return true;
}

bool sb_reserve(StrBuf *b, size_t n)
{
    return b->len + n + 1 <= b->cap || sb_grow(b, n);
}

void sb_add(StrBuf *b, const char *s, size_t n)
{
    if ((b->len + n + 1 > b->cap || !b->p) && !sb_grow(b, n))
        return;
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

void sb_adds(StrBuf *b, const char *s) { sb_add(b, s, strlen(s)); }

void sb_add_repeat(StrBuf *b, const char *unit, size_t n, int64_t count)
{
    if (count <= 0 || n == 0)
        return;
    if ((uint64_t)count > vm_max_object_size() / n) {
        sb_nomemory(b);
        return;
    }
    size_t total = n * (size_t)count;
    if ((b->len + total + 1 > b->cap || !b->p) && !sb_grow(b, total))
        return;
    char *d = b->p + b->len;
    if (n == 1) {
        memset(d, unit[0], total);
    } else {
        memcpy(d, unit, n);
        mem_repeat(d, (int64_t)n, (int64_t)total);
    }
    b->len += total;
}

void sb_addc(StrBuf *b, char c)
{
    if ((b->len + 2 > b->cap || !b->p) && !sb_grow(b, 1))
        return;
    b->p[b->len++] = c;
}

/* A str's bytes are copied straight from the object (no allocation here, so
 * the linear address stays valid for the copy). */
void sb_add_str(StrBuf *b, Obj s)
{
    size_t n = (size_t)STR(s)->nbytes;
    if ((b->len + n + 1 > b->cap || !b->p) && !sb_grow(b, n))
        return;
    memcpy(b->p + b->len, str_cstr(s), n);
    b->len += n;
}

void sb_add_codepoint(StrBuf *b, uint32_t cp)
{
    if ((b->len + 5 > b->cap || !b->p) && !sb_grow(b, 4))
        return;
    b->len += (size_t)utf8_encode(cp, b->p + b->len);
}

void sb_printf(StrBuf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        sb_add(b, small, (size_t)n);
        return;
    }
    if (!sb_grow(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

Obj sb_finish(StrBuf *b)
{
    if (sb_failed(b)) {
        sb_init(b);
        return err_nomemory();
    }
    Obj s = str_new(b->p ? b->p : "", b->len);
    sb_free(b);
    return s;
}

void sb_free(StrBuf *b)
{
    free(b->p);
    sb_init(b);
}
