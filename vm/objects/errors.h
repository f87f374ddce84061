/* The error state of the objects layer (exceptions.c): the built-in
 * exception types and the functions that raise, test and fetch the current
 * exception. More on exceptions (groups, errno, SyntaxError) in objects.h. */
#ifndef TMPY_ERRORS_H
#define TMPY_ERRORS_H

#include "tmpy.h"

extern TypeObj *E_BaseException, *E_Exception, *E_SystemExit, *E_KeyboardInterrupt,
    *E_GeneratorExit, *E_StopIteration, *E_ArithmeticError, *E_ZeroDivisionError,
    *E_OverflowError, *E_FloatingPointError, *E_AssertionError, *E_AttributeError,
    *E_BufferError, *E_EOFError, *E_ImportError, *E_ModuleNotFoundError, *E_LookupError,
    *E_IndexError, *E_KeyError, *E_MemoryError, *E_NameError, *E_UnboundLocalError,
    *E_OSError, *E_FileNotFoundError, *E_FileExistsError, *E_PermissionError,
    *E_IsADirectoryError, *E_NotADirectoryError, *E_TimeoutError, *E_ReferenceError,
    *E_RuntimeError, *E_NotImplementedError, *E_RecursionError, *E_SyntaxError,
    *E_IndentationError, *E_TabError, *E_SystemError, *E_TypeError, *E_ValueError,
    *E_UnicodeError, *E_UnicodeDecodeError, *E_UnicodeEncodeError, *E_Warning,
    *E_UserWarning, *E_DeprecationWarning, *E_RuntimeWarning, *E_StopAsyncIteration,
    *E_ConnectionError, *E_BrokenPipeError, *E_ChildProcessError, *E_InterruptedError,
    *E_ProcessLookupError, *E_BlockingIOError;

Obj err_occurred(void);                            /* current exception or NULL */
void err_set(TypeObj *type, const char *msg);      /* type(msg) */
void err_format(TypeObj *type, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void err_set_obj(Obj exc);                         /* an exception instance (or a class: instantiated) */
void err_set_value(TypeObj *type, Obj arg);        /* type(arg) */
bool err_matches(TypeObj *type);                   /* current exception is an instance of type */
bool err_given_matches(Obj exc, Obj type_or_tuple);/* for `except X:` */
Obj err_fetch(void);                               /* take the current exception (clears it) */
void err_clear(void);
Obj err_nomemory(void);                            /* sets MemoryError, returns NULL */
Obj err_no_attr(Obj obj, Obj name);                /* AttributeError like CPython's; returns NULL */
/* Type name of a value, as a linear C string (valid until the next allocation). */
const char *type_name(Obj v);
const char *type_name_of_type(TypeObj *t);
/* Make an exception instance: type(*args). */
Obj exc_new(TypeObj *type, Obj *args, size_t nargs);
/* StopIteration value helpers. */
Obj exc_stopiteration_value(Obj exc);

#endif
