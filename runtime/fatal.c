#include "fatal.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void (*tm_fatal_context)(void);

void tm_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tmpy: fatal runtime error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    if (tm_fatal_context) {
        void (*context)(void) = tm_fatal_context;
        tm_fatal_context = NULL;   /* a failure inside it does not loop */
        context();
    }
    abort();
}
