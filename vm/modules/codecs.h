/* What the files of the _codecs family share (codecsmodule.c: the
 * registries and the module; codecerror.c: calling an error handler;
 * utf7codec.c: UTF-7; multibytecodec.c and cjkcodecs.c: the CJK codecs). */
#ifndef TMPY_CODECS_H
#define TMPY_CODECS_H

#include "modules.h"
#include "objects/strobj.h"

#include <stdint.h>

/* The error handler registered under name (codecs.lookup_error); NULL with
 * LookupError "unknown error handler name '...'". */
Obj codecs_error_handler(const char *name);

/* The errors argument of a codec function: NULL (strict) for None or
 * absent, else its text copied into buf; -1 with TypeError "fname()
 * argument argno must be str or None, not T" (argno 0: argument 'errors'). */
int codecs_errors_arg(const char *fname, int argno, Obj e, char *buf, size_t cap, const char **out);

/* A decode error over [start, end) of the bytes-like *inputp (a root slot)
 * handed to the handler named errors (NULL: strict) as CPython's codecs do
 * (PEP 293): its replacement is appended to out and the position to go on
 * at is returned; -1 with the exception set (strict, a handler that raised,
 * or one that returned something other than (str, int) with a position in
 * range: TypeError with type_msg, IndexError). */
int64_t codecs_decode_error(const char *errors, const char *encoding, const char *reason, Obj *inputp,
                            int64_t start, int64_t end, StrBuf *out, const char *type_msg);

/* An encode error over characters [start, end) of the str *inputp (a root
 * slot): *replp (a root slot) gets the handler's replacement, a str or (if
 * bytes_ok) bytes; the position to go on at is returned, or -1 as above. */
int64_t codecs_encode_error(const char *errors, const char *encoding, const char *reason, Obj *inputp,
                            int64_t start, int64_t end, Obj *replp, bool bytes_ok, const char *type_msg);

/* utf7codec.c: _codecs.utf_7_encode(str, errors=None), utf_7_decode(data, errors=None, final=False) */
Obj codecs_utf_7_encode(Obj *args, size_t nargs, Obj kwnames);
Obj codecs_utf_7_decode(Obj *args, size_t nargs, Obj kwnames);

/* cjkcodecs.c: the CJK codecs over glibc's iconv, by index (getcodec
 * looks them up). A run of conversions takes a
 * descriptor (cjk_open: -1 with LookupError), converts one character at a
 * time and gives it back (cjk_close) before anything allocates or runs
 * Python; the thread keeps it open for its next run. */
const char *cjk_name(int codec);
int cjk_open(int codec, bool encode, void **cdp);
void cjk_close(void *cd);
/* state: a stateful codec's mode (hz: 1 in GB mode), 0 at the start */
int cjk_decode_one(int codec, void *cd, const unsigned char *p, int64_t avail, uint32_t cp[2], int *ncp,
                   uint64_t *state);
bool cjk_pair_start(int codec, uint32_t cp);
bool cjk_encode_pair(int codec, uint32_t c1, uint32_t c2, StrBuf *out);
bool cjk_encode_one(int codec, void *cd, uint32_t cp, StrBuf *out, uint64_t *state);
void cjk_encode_reset(int codec, uint64_t *state, StrBuf *out);   /* back to the initial mode */
/* The codec's initial state as CPython's getstate shows it (ISO-2022: G0 and
 * G1 ASCII); the state the functions above keep is XORed with it. */
uint64_t cjk_init_state(int codec, bool encode);
void cjk_decode_reset(int codec, uint64_t *state);   /* a decoder's reset() (ISO-2022 keeps G1) */

/* multibytecodec.c: a MultibyteCodec object for codec cjk_find gave */
Obj mbc_codec_new(int codec);

#endif
