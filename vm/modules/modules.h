/* What the built-in modules (one file each in modules/) offer the rest of the
 * VM: their init functions (main.c registers them), sys and builtins state,
 * and the thread start-up and shutdown. */
#ifndef TMPY_MODULES_H
#define TMPY_MODULES_H

#include "eval.h"

#include <signal.h>

/* ---- sysmodule.c ---- */
extern double vm_switch_interval;          /* sys.setswitchinterval (seconds) */

/* ---- threadmodule.c, tmmodule.c ---- */
void threads_init(void);        /* start-up, main thread, after builtins_init */
void tm_init(void);             /* start-up, after threads_init */
void threads_shutdown(void);    /* at exit: threading._shutdown() joins non-daemon threads */
Obj thread_module_init(void);   /* _thread */
Obj tm_module_init(void);       /* tm */

/* ---- signalmodule.c ---- */
int signals_check(void);             /* the signal hook (tmpy.h's vm_signals_check) */
void signals_init(void);             /* start-up, main thread: SIGINT raises KeyboardInterrupt */
void signals_thread_mask(sigset_t *set);   /* what threads other than the main one block */
void signals_exit_by_sigint(void);   /* end the process as killed by SIGINT (uncaught KeyboardInterrupt) */
int signals_interrupt_main(int64_t sig);   /* _thread.interrupt_main: -1 with an exception set */
Obj signal_module_init(void);

int warnings_warn(TypeObj *category, Obj message, Obj source);   /* the warning hook (tmpy.h's vm_warn) */
/* ---- C modules (vm_register_builtin_module) ---- */
Obj sys_module_init(void);
Obj time_module_init(void);
Obj posix_module_init(void);             /* posix (under CPython's os.py) */
Obj posixsubprocess_module_init(void);   /* _posixsubprocess */
Obj multiprocessing_module_init(void);   /* _multiprocessing (SemLock) */
Obj posixshmem_module_init(void);        /* _posixshmem */
Obj resource_module_init(void);          /* resource */
Obj uuid_module_init(void);              /* _uuid */
Obj termios_module_init(void);           /* termios */
Obj faulthandler_module_init(void);      /* faulthandler */
Obj opcode_module_init(void);            /* _opcode */
Obj queue_module_init(void);             /* _queue (SimpleQueue) */
Obj locale_module_init(void);            /* _locale */
Obj select_module_init(void);            /* select */
Obj fcntl_module_init(void);             /* fcntl */
Obj pwd_module_init(void);               /* pwd (pwdgrpmodule.c) */
Obj grp_module_init(void);               /* grp (pwdgrpmodule.c) */
Obj random_module_init(void);           /* _random (randommodule.c, under CPython's random.py) */
Obj atexit_module_init(void);
Obj warnings_module_init(void);     /* _warnings */
Obj contextvars_module_init(void);  /* _contextvars */
Obj struct_module_init(void);       /* _struct */
Obj codecs_module_init(void);       /* _codecs */
Obj multibytecodec_module_init(void);   /* _multibytecodec (multibytecodec.c) */
Obj cjk_jp_module_init(void);        /* _codecs_jp (cjkcodecs.c) */
Obj cjk_kr_module_init(void);        /* _codecs_kr */
Obj cjk_cn_module_init(void);        /* _codecs_cn */
Obj cjk_tw_module_init(void);        /* _codecs_tw */
Obj cjk_hk_module_init(void);        /* _codecs_hk */
Obj cjk_iso2022_module_init(void);   /* _codecs_iso2022 */
Obj errno_module_init(void);        /* errno */
Obj io_module_init(void);       /* _io */
Obj socket_module_init(void);   /* _socket */
int socket_fd_timeout(Obj sock, int *fd, int64_t *timeout_ns);   /* _ssl: a socket's fd and timeout */
Obj ssl_module_init(void);      /* _ssl (sslmodule.c, on OpenSSL's libssl) */
Obj imp_module_init(void);                   /* _imp */
Obj collections_module_init(void);   /* _collections */
Obj itertools_module_init(void);     /* itertools (all of it in C) */
Obj heapq_module_init(void);         /* _heapq */
Obj operator_module_init(void);      /* _operator */
Obj json_module_init(void);          /* _json */
Obj pickle_module_init(void);        /* _pickle */
Obj functools_module_init(void);     /* _functools */
Obj datetime_module_init(void);      /* _datetime (datetimemodule.c and datetime_*.c) */
Obj csv_module_init(void);           /* _csv */
Obj weakref_module_init(void);       /* _weakref */
Obj abc_module_init(void);           /* _abc */
Obj gc_module_init(void);            /* gc */
Obj sre_module_init(void);           /* _sre */
Obj ast_module_init(void);           /* _ast */
Obj binascii_module_init(void);      /* binascii */
Obj zlib_module_init(void);          /* zlib (on libz) */
Obj hashlib_module_init(void);       /* _hashlib (on OpenSSL's libcrypto) */
Obj hashlib_compare_digest(Obj *args, size_t nargs, Obj kwnames);   /* also _operator._compare_digest */
/* hashlibmodule.c's hash objects serve the builtin hash modules too
 * (builtinhashes.c): one layout, IterObj a = the name, b = a plain state
 * (RawObj), i = an EVP_MD_CTX, n = the algorithm's index in its table. */
void hashlib_algos_init(void);                  /* a module init: fetch OpenSSL's digests once */
int hashlib_algo(const char *name);             /* hashlib's name ('sha3_224') -> index; -1: not here */
Obj hashlib_object_new(TypeObj *type, int algo, Obj data);   /* data NULL: none; str / non-buffer: TypeError */
Obj hashlib_object_digest(Obj h, int64_t length, bool hex);  /* length: a shake's (>= 0), else ignored */
Obj hashlib_m_update(Obj *args, size_t nargs, Obj kwnames);  /* methods: args[0] is the object */
Obj hashlib_m_digest(Obj *args, size_t nargs, Obj kwnames);
Obj hashlib_m_hexdigest(Obj *args, size_t nargs, Obj kwnames);
Obj hashlib_m_copy(Obj *args, size_t nargs, Obj kwnames);
Obj hashlib_m_del(Obj *args, size_t nargs, Obj kwnames);
Obj hashlib_m_name(Obj *args, size_t nargs, Obj kwnames);
Obj hashlib_m_digest_size(Obj *args, size_t nargs, Obj kwnames);
Obj hashlib_m_block_size(Obj *args, size_t nargs, Obj kwnames);
Obj md5_module_init(void);           /* _md5 (builtinhashes.c) */
Obj sha1_module_init(void);          /* _sha1 */
Obj sha256_module_init(void);        /* _sha256 */
Obj sha512_module_init(void);        /* _sha512 */
Obj sha3_module_init(void);          /* _sha3 */
Obj blake2_module_init(void);        /* _blake2 (BLAKE2 written from RFC 7693) */
Obj bisect_module_init(void);        /* _bisect */
Obj stat_module_init(void);          /* _stat */
Obj marshal_module_init(void);       /* marshal */
Obj array_module_init(void);         /* array */
Obj mmap_module_init(void);          /* mmap */
Obj unicodedata_module_init(void);   /* unicodedata */
Obj pyexpat_module_init(void);       /* pyexpat (on libexpat) */
Obj string_module_init(void);        /* _string */
void string_init(void);              /* start-up: _string's iterator types */
void gc_init(void);                  /* start-up: gc.callbacks, gc.garbage */
void atexit_init(void);           /* start-up */
void warnings_init(void);         /* start-up: _warnings' state */
void contextvars_init(void);      /* start-up: _contextvars' types */
void struct_init(void);           /* start-up: _struct's types */
void codecs_init(void);           /* start-up: _codecs' registries */
int atexit_run_callbacks(void);   /* at exit: runs atexit.register()ed callables, last first */

/* The math and cmath modules' init functions (mathmodule.c, cmathmodule.c). */
Obj math_module_init(void);
Obj cmath_module_init(void);

void deque_init_type(void);    /* dequeobject.c: collections.deque (the _collections module exposes it) */
extern TypeObj *T_deque;
void itertools_init_types(void);   /* itertoolsmodule.c: the itertools types (start-up) */
extern TypeObj *T_count;
Obj builtins_init(void);        /* the builtins module */
Obj sys_init(Obj argv_list);

#endif
