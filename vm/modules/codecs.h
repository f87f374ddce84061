/* What the files of the _codecs family share (codecsmodule.c: the
 * codec registry and the module; objects/codecerror.c, declared in
 * objects/strobj.h: the error handlers' registry and calling one;
 * utf7codec.c: UTF-7; multibytecodec.c and cjkcodecs.c: the CJK codecs). */
#ifndef TMPY_CODECS_H
#define TMPY_CODECS_H

#include "modules.h"
#include "objects/strobj.h"

#include <stdint.h>

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
void cjk_close(int codec, void *cd);
/* state: a stateful codec's mode (hz: 1 in GB mode), 0 at the start */
int cjk_decode_one(int codec, void *cd, const unsigned char *p, int64_t avail, uint32_t cp[2], int *ncp,
                   uint64_t *state);
bool cjk_pair_start(int codec, uint32_t cp);
bool cjk_encode_pair(int codec, uint32_t c1, uint32_t c2, StrBuf *out, uint64_t *state);
bool cjk_encode_one(int codec, void *cd, uint32_t cp, StrBuf *out, uint64_t *state);
void cjk_encode_reset(int codec, uint64_t *state, StrBuf *out);   /* back to the initial mode */
/* The codec's initial state as CPython's getstate shows it (ISO-2022: G0 and
 * G1 ASCII); the state the functions above keep is XORed with it. */
uint64_t cjk_init_state(int codec, bool encode);
void cjk_decode_reset(int codec, uint64_t *state);   /* a decoder's reset() (ISO-2022 keeps G1) */

/* multibytecodec.c: a MultibyteCodec object for codec cjk_find gave */
Obj mbc_codec_new(int codec);

#endif
