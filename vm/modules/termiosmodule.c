/* The termios module: tcgetattr, tcsetattr, tcsendbreak, tcdrain,
 * tcflush, tcflow, tcgetwinsize, tcsetwinsize and the constants the C
 * library defines, with CPython's results and errors (termios.error is
 * raised as (errno, strerror)). */
#define _GNU_SOURCE
#include "eval.h"
#include "modules.h"
#include "objects/containers.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static TypeObj *E_termios_error;

static Obj termios_error(void)
{
    int e = errno;
    Obj *r = vm_roots(3);
    r[0] = MAKE_SMALLINT(e);
    r[1] = str_from_cstr(strerror(e));
    r[2] = r[1] ? tuple_pack(2, r[0], r[1]) : NULL;
    if (r[2]) {
        Obj exc = vm_call_tuple_dict((Obj)E_termios_error, r[2], NULL);
        if (exc)
            err_set_obj(exc);
    }
    vm_unroots(r);
    return NULL;
}

/* fd: an int, or an object with fileno() */
static int fd_arg(Obj v, int *fd)
{
    Obj *r = vm_roots(1);
    int rc = -1;
    r[0] = v;
    if (!IS_INT(vm_unwrap(r[0]))) {
        r[0] = vm_call_method(r[0], "fileno", NULL, 0);
        if (!r[0])
            goto out;
    }
    int64_t x;
    if (vm_index_i64(r[0], &x) < 0)
        goto out;
    if (x < 0 || x > 0x7fffffff) {
        err_format(E_ValueError, "file descriptor cannot be a negative integer (%lld)", (long long)x);
        goto out;
    }
    *fd = (int)x;
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

static Obj termios_tcgetattr(Obj *args, size_t nargs, Obj kwnames)
{
    int fd;
    if (fd_arg(args[0], &fd) < 0)
        return NULL;
    struct termios t;
    if (tcgetattr(fd, &t) < 0)
        return termios_error();
    Obj *r = vm_roots(3);
    Obj res = NULL;
    speed_t ispeed = cfgetispeed(&t), ospeed = cfgetospeed(&t);
    if (!(r[0] = list_new_capacity(NCCS)))
        goto out;
    for (int i = 0; i < NCCS; i++) {
        /* in canonical mode every cc is a one-byte bytes; else VMIN and VTIME are ints */
        if ((t.c_lflag & ICANON) == 0 && (i == VMIN || i == VTIME))
            r[1] = int_from_i64(t.c_cc[i]);
        else
            r[1] = bytes_new((const char *)&t.c_cc[i], 1);
        if (!r[1] || list_append(r[0], r[1]) < 0)
            goto out;
    }
    const int64_t v[] = {t.c_iflag, t.c_oflag, t.c_cflag, t.c_lflag, ispeed, ospeed};
    if (!(r[1] = list_new_capacity(7)))
        goto out;
    for (int i = 0; i < 6; i++)
        if (!(r[2] = int_from_i64(v[i])) || list_append(r[1], r[2]) < 0)
            goto out;
    if (list_append(r[1], r[0]) < 0)
        goto out;
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

static int attr_flag(Obj v, tcflag_t *out)
{
    int64_t x;
    if (vm_index_i64(v, &x) < 0)
        return -1;
    *out = (tcflag_t)x;
    return 0;
}

static Obj termios_tcsetattr(Obj *args, size_t nargs, Obj kwnames)
{
    int fd;
    int64_t when;
    if (fd_arg(args[0], &fd) < 0 || vm_index_i64(args[1], &when) < 0)
        return NULL;
    Obj attrs = vm_unwrap(args[2]);
    if (!IS_LIST(attrs) || LIST_LEN(attrs) != 7) {
        err_set(E_TypeError, "tcsetattr, arg 3: must be 7 element list");
        return NULL;
    }
    struct termios t;
    if (tcgetattr(fd, &t) < 0)
        return termios_error();
    int64_t ispeed, ospeed;
    attrs = vm_unwrap(args[2]);
    if (attr_flag(LIST_ITEMS(attrs)[0], &t.c_iflag) < 0 ||
        attr_flag(LIST_ITEMS(vm_unwrap(args[2]))[1], &t.c_oflag) < 0 ||
        attr_flag(LIST_ITEMS(vm_unwrap(args[2]))[2], &t.c_cflag) < 0 ||
        attr_flag(LIST_ITEMS(vm_unwrap(args[2]))[3], &t.c_lflag) < 0 ||
        vm_index_i64(LIST_ITEMS(vm_unwrap(args[2]))[4], &ispeed) < 0 ||
        vm_index_i64(LIST_ITEMS(vm_unwrap(args[2]))[5], &ospeed) < 0)
        return NULL;
    Obj cc = vm_unwrap(LIST_ITEMS(vm_unwrap(args[2]))[6]);
    if (!IS_LIST(cc) || LIST_LEN(cc) != NCCS) {
        err_format(E_TypeError, "tcsetattr: attributes[6] must be %d element list", NCCS);
        return NULL;
    }
    for (int i = 0; i < NCCS; i++) {
        cc = vm_unwrap(LIST_ITEMS(vm_unwrap(args[2]))[6]);
        Obj v = vm_unwrap(LIST_ITEMS(cc)[i]);
        if (IS_BYTES(v) && BYTES(v)->length == 1) {
            t.c_cc[i] = (cc_t)BYTES(v)->data[0];
        } else if (IS_INT(v)) {
            int64_t x;
            if (vm_index_i64(v, &x) < 0)
                return NULL;
            t.c_cc[i] = (cc_t)x;
        } else {
            err_set(E_TypeError, "tcsetattr: elements of attributes must be characters or integers");
            return NULL;
        }
    }
    vm_tx_become_inevitable();   /* the terminal changed is not changed back */
    if (cfsetispeed(&t, (speed_t)ispeed) < 0 || cfsetospeed(&t, (speed_t)ospeed) < 0 ||
        tcsetattr(fd, (int)when, &t) < 0)
        return termios_error();
    return g_None;
}

/* f(fd, int) for tcsendbreak, tcflush, tcflow */
static Obj fd_int_call(Obj *args, int (*fn)(int, int))
{
    int fd;
    int64_t x;
    if (fd_arg(args[0], &fd) < 0 || vm_index_i64(args[1], &x) < 0)
        return NULL;
    vm_tx_become_inevitable();
    vm_blocking_begin();
    int rc = fn(fd, (int)x);
    vm_blocking_end();
    return rc < 0 ? termios_error() : g_None;
}

static Obj termios_tcsendbreak(Obj *args, size_t nargs, Obj kwnames) { return fd_int_call(args, tcsendbreak); }
static Obj termios_tcflush(Obj *args, size_t nargs, Obj kwnames) { return fd_int_call(args, tcflush); }
static Obj termios_tcflow(Obj *args, size_t nargs, Obj kwnames) { return fd_int_call(args, tcflow); }

static Obj termios_tcdrain(Obj *args, size_t nargs, Obj kwnames)
{
    int fd;
    if (fd_arg(args[0], &fd) < 0)
        return NULL;
    vm_tx_become_inevitable();
    vm_blocking_begin();
    int rc = tcdrain(fd);
    vm_blocking_end();
    return rc < 0 ? termios_error() : g_None;
}

static Obj termios_tcgetwinsize(Obj *args, size_t nargs, Obj kwnames)
{
    int fd;
    if (fd_arg(args[0], &fd) < 0)
        return NULL;
    struct winsize w;
    if (ioctl(fd, TIOCGWINSZ, &w) < 0)
        return termios_error();
    return tuple_pack(2, MAKE_SMALLINT(w.ws_row), MAKE_SMALLINT(w.ws_col));
}

static Obj termios_tcsetwinsize(Obj *args, size_t nargs, Obj kwnames)
{
    int fd;
    if (fd_arg(args[0], &fd) < 0)
        return NULL;
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = vm_tuple_from_iter(args[1]);
    if (!r[0]) {
        err_clear();
        err_set(E_TypeError, "tcsetwinsize, arg 2: must be a two-item sequence");
        goto out;
    }
    if (TUPLE_LEN(r[0]) != 2) {
        err_set(E_TypeError, "tcsetwinsize, arg 2: must be a two-item sequence");
        goto out;
    }
    int64_t rows, cols;
    if (vm_index_i64(TUPLE_ITEMS(r[0])[0], &rows) < 0 || vm_index_i64(TUPLE_ITEMS(r[0])[1], &cols) < 0)
        goto out;
    struct winsize w;
    if (ioctl(fd, TIOCGWINSZ, &w) < 0) {
        termios_error();
        goto out;
    }
    w.ws_row = (unsigned short)rows;
    w.ws_col = (unsigned short)cols;
    vm_tx_become_inevitable();
    if (ioctl(fd, TIOCSWINSZ, &w) < 0) {
        termios_error();
        goto out;
    }
    res = g_None;
out:
    vm_unroots(r);
    return res;
}

static const MethodDef termios_functions[] = {
    {"tcgetattr", termios_tcgetattr, METH_O, NULL},
    {"tcsetattr", termios_tcsetattr, METH_ARGS(3, 3), NULL},
    {"tcsendbreak", termios_tcsendbreak, METH_ARGS(2, 2), NULL},
    {"tcdrain", termios_tcdrain, METH_O, NULL},
    {"tcflush", termios_tcflush, METH_ARGS(2, 2), NULL},
    {"tcflow", termios_tcflow, METH_ARGS(2, 2), NULL},
    {"tcgetwinsize", termios_tcgetwinsize, METH_O, NULL},
    {"tcsetwinsize", termios_tcsetwinsize, METH_ARGS(2, 2), NULL},
    {NULL, NULL, 0, NULL},
};

/* the constants, each where the C library defines it, as CPython's */
static const struct { const char *name; int64_t v; } termios_constants[] = {
#ifdef B0
    {"B0", (int64_t)B0},
#endif
#ifdef B1000000
    {"B1000000", (int64_t)B1000000},
#endif
#ifdef B110
    {"B110", (int64_t)B110},
#endif
#ifdef B115200
    {"B115200", (int64_t)B115200},
#endif
#ifdef B1152000
    {"B1152000", (int64_t)B1152000},
#endif
#ifdef B1200
    {"B1200", (int64_t)B1200},
#endif
#ifdef B134
    {"B134", (int64_t)B134},
#endif
#ifdef B150
    {"B150", (int64_t)B150},
#endif
#ifdef B1500000
    {"B1500000", (int64_t)B1500000},
#endif
#ifdef B1800
    {"B1800", (int64_t)B1800},
#endif
#ifdef B19200
    {"B19200", (int64_t)B19200},
#endif
#ifdef B200
    {"B200", (int64_t)B200},
#endif
#ifdef B2000000
    {"B2000000", (int64_t)B2000000},
#endif
#ifdef B230400
    {"B230400", (int64_t)B230400},
#endif
#ifdef B2400
    {"B2400", (int64_t)B2400},
#endif
#ifdef B2500000
    {"B2500000", (int64_t)B2500000},
#endif
#ifdef B300
    {"B300", (int64_t)B300},
#endif
#ifdef B3000000
    {"B3000000", (int64_t)B3000000},
#endif
#ifdef B3500000
    {"B3500000", (int64_t)B3500000},
#endif
#ifdef B38400
    {"B38400", (int64_t)B38400},
#endif
#ifdef B4000000
    {"B4000000", (int64_t)B4000000},
#endif
#ifdef B460800
    {"B460800", (int64_t)B460800},
#endif
#ifdef B4800
    {"B4800", (int64_t)B4800},
#endif
#ifdef B50
    {"B50", (int64_t)B50},
#endif
#ifdef B500000
    {"B500000", (int64_t)B500000},
#endif
#ifdef B57600
    {"B57600", (int64_t)B57600},
#endif
#ifdef B576000
    {"B576000", (int64_t)B576000},
#endif
#ifdef B600
    {"B600", (int64_t)B600},
#endif
#ifdef B75
    {"B75", (int64_t)B75},
#endif
#ifdef B921600
    {"B921600", (int64_t)B921600},
#endif
#ifdef B9600
    {"B9600", (int64_t)B9600},
#endif
#ifdef BRKINT
    {"BRKINT", (int64_t)BRKINT},
#endif
#ifdef BS0
    {"BS0", (int64_t)BS0},
#endif
#ifdef BS1
    {"BS1", (int64_t)BS1},
#endif
#ifdef BSDLY
    {"BSDLY", (int64_t)BSDLY},
#endif
#ifdef CBAUD
    {"CBAUD", (int64_t)CBAUD},
#endif
#ifdef CBAUDEX
    {"CBAUDEX", (int64_t)CBAUDEX},
#endif
#ifdef CDSUSP
    {"CDSUSP", (int64_t)CDSUSP},
#endif
#ifdef CEOF
    {"CEOF", (int64_t)CEOF},
#endif
#ifdef CEOL
    {"CEOL", (int64_t)CEOL},
#endif
#ifdef CEOT
    {"CEOT", (int64_t)CEOT},
#endif
#ifdef CERASE
    {"CERASE", (int64_t)CERASE},
#endif
#ifdef CFLUSH
    {"CFLUSH", (int64_t)CFLUSH},
#endif
#ifdef CIBAUD
    {"CIBAUD", (int64_t)CIBAUD},
#endif
#ifdef CINTR
    {"CINTR", (int64_t)CINTR},
#endif
#ifdef CKILL
    {"CKILL", (int64_t)CKILL},
#endif
#ifdef CLNEXT
    {"CLNEXT", (int64_t)CLNEXT},
#endif
#ifdef CLOCAL
    {"CLOCAL", (int64_t)CLOCAL},
#endif
#ifdef CQUIT
    {"CQUIT", (int64_t)CQUIT},
#endif
#ifdef CR0
    {"CR0", (int64_t)CR0},
#endif
#ifdef CR1
    {"CR1", (int64_t)CR1},
#endif
#ifdef CR2
    {"CR2", (int64_t)CR2},
#endif
#ifdef CR3
    {"CR3", (int64_t)CR3},
#endif
#ifdef CRDLY
    {"CRDLY", (int64_t)CRDLY},
#endif
#ifdef CREAD
    {"CREAD", (int64_t)CREAD},
#endif
#ifdef CRPRNT
    {"CRPRNT", (int64_t)CRPRNT},
#endif
#ifdef CRTSCTS
    {"CRTSCTS", (int64_t)CRTSCTS},
#endif
#ifdef CS5
    {"CS5", (int64_t)CS5},
#endif
#ifdef CS6
    {"CS6", (int64_t)CS6},
#endif
#ifdef CS7
    {"CS7", (int64_t)CS7},
#endif
#ifdef CS8
    {"CS8", (int64_t)CS8},
#endif
#ifdef CSIZE
    {"CSIZE", (int64_t)CSIZE},
#endif
#ifdef CSTART
    {"CSTART", (int64_t)CSTART},
#endif
#ifdef CSTOP
    {"CSTOP", (int64_t)CSTOP},
#endif
#ifdef CSTOPB
    {"CSTOPB", (int64_t)CSTOPB},
#endif
#ifdef CSUSP
    {"CSUSP", (int64_t)CSUSP},
#endif
#ifdef CWERASE
    {"CWERASE", (int64_t)CWERASE},
#endif
#ifdef ECHO
    {"ECHO", (int64_t)ECHO},
#endif
#ifdef ECHOCTL
    {"ECHOCTL", (int64_t)ECHOCTL},
#endif
#ifdef ECHOE
    {"ECHOE", (int64_t)ECHOE},
#endif
#ifdef ECHOK
    {"ECHOK", (int64_t)ECHOK},
#endif
#ifdef ECHOKE
    {"ECHOKE", (int64_t)ECHOKE},
#endif
#ifdef ECHONL
    {"ECHONL", (int64_t)ECHONL},
#endif
#ifdef ECHOPRT
    {"ECHOPRT", (int64_t)ECHOPRT},
#endif
#ifdef EXTA
    {"EXTA", (int64_t)EXTA},
#endif
#ifdef EXTB
    {"EXTB", (int64_t)EXTB},
#endif
#ifdef FF0
    {"FF0", (int64_t)FF0},
#endif
#ifdef FF1
    {"FF1", (int64_t)FF1},
#endif
#ifdef FFDLY
    {"FFDLY", (int64_t)FFDLY},
#endif
#ifdef FIOASYNC
    {"FIOASYNC", (int64_t)FIOASYNC},
#endif
#ifdef FIOCLEX
    {"FIOCLEX", (int64_t)FIOCLEX},
#endif
#ifdef FIONBIO
    {"FIONBIO", (int64_t)FIONBIO},
#endif
#ifdef FIONCLEX
    {"FIONCLEX", (int64_t)FIONCLEX},
#endif
#ifdef FIONREAD
    {"FIONREAD", (int64_t)FIONREAD},
#endif
#ifdef FLUSHO
    {"FLUSHO", (int64_t)FLUSHO},
#endif
#ifdef HUPCL
    {"HUPCL", (int64_t)HUPCL},
#endif
#ifdef ICANON
    {"ICANON", (int64_t)ICANON},
#endif
#ifdef ICRNL
    {"ICRNL", (int64_t)ICRNL},
#endif
#ifdef IEXTEN
    {"IEXTEN", (int64_t)IEXTEN},
#endif
#ifdef IGNBRK
    {"IGNBRK", (int64_t)IGNBRK},
#endif
#ifdef IGNCR
    {"IGNCR", (int64_t)IGNCR},
#endif
#ifdef IGNPAR
    {"IGNPAR", (int64_t)IGNPAR},
#endif
#ifdef IMAXBEL
    {"IMAXBEL", (int64_t)IMAXBEL},
#endif
#ifdef INLCR
    {"INLCR", (int64_t)INLCR},
#endif
#ifdef INPCK
    {"INPCK", (int64_t)INPCK},
#endif
#ifdef IOCSIZE_MASK
    {"IOCSIZE_MASK", (int64_t)IOCSIZE_MASK},
#endif
#ifdef IOCSIZE_SHIFT
    {"IOCSIZE_SHIFT", (int64_t)IOCSIZE_SHIFT},
#endif
#ifdef ISIG
    {"ISIG", (int64_t)ISIG},
#endif
#ifdef ISTRIP
    {"ISTRIP", (int64_t)ISTRIP},
#endif
#ifdef IUCLC
    {"IUCLC", (int64_t)IUCLC},
#endif
#ifdef IXANY
    {"IXANY", (int64_t)IXANY},
#endif
#ifdef IXOFF
    {"IXOFF", (int64_t)IXOFF},
#endif
#ifdef IXON
    {"IXON", (int64_t)IXON},
#endif
#ifdef NCC
    {"NCC", (int64_t)NCC},
#endif
#ifdef NCCS
    {"NCCS", (int64_t)NCCS},
#endif
#ifdef NL0
    {"NL0", (int64_t)NL0},
#endif
#ifdef NL1
    {"NL1", (int64_t)NL1},
#endif
#ifdef NLDLY
    {"NLDLY", (int64_t)NLDLY},
#endif
#ifdef NOFLSH
    {"NOFLSH", (int64_t)NOFLSH},
#endif
#ifdef N_MOUSE
    {"N_MOUSE", (int64_t)N_MOUSE},
#endif
#ifdef N_PPP
    {"N_PPP", (int64_t)N_PPP},
#endif
#ifdef N_SLIP
    {"N_SLIP", (int64_t)N_SLIP},
#endif
#ifdef N_STRIP
    {"N_STRIP", (int64_t)N_STRIP},
#endif
#ifdef N_TTY
    {"N_TTY", (int64_t)N_TTY},
#endif
#ifdef OCRNL
    {"OCRNL", (int64_t)OCRNL},
#endif
#ifdef OFDEL
    {"OFDEL", (int64_t)OFDEL},
#endif
#ifdef OFILL
    {"OFILL", (int64_t)OFILL},
#endif
#ifdef OLCUC
    {"OLCUC", (int64_t)OLCUC},
#endif
#ifdef ONLCR
    {"ONLCR", (int64_t)ONLCR},
#endif
#ifdef ONLRET
    {"ONLRET", (int64_t)ONLRET},
#endif
#ifdef ONOCR
    {"ONOCR", (int64_t)ONOCR},
#endif
#ifdef OPOST
    {"OPOST", (int64_t)OPOST},
#endif
#ifdef PARENB
    {"PARENB", (int64_t)PARENB},
#endif
#ifdef PARMRK
    {"PARMRK", (int64_t)PARMRK},
#endif
#ifdef PARODD
    {"PARODD", (int64_t)PARODD},
#endif
#ifdef PENDIN
    {"PENDIN", (int64_t)PENDIN},
#endif
#ifdef TAB0
    {"TAB0", (int64_t)TAB0},
#endif
#ifdef TAB1
    {"TAB1", (int64_t)TAB1},
#endif
#ifdef TAB2
    {"TAB2", (int64_t)TAB2},
#endif
#ifdef TAB3
    {"TAB3", (int64_t)TAB3},
#endif
#ifdef TABDLY
    {"TABDLY", (int64_t)TABDLY},
#endif
#ifdef TCFLSH
    {"TCFLSH", (int64_t)TCFLSH},
#endif
#ifdef TCGETA
    {"TCGETA", (int64_t)TCGETA},
#endif
#ifdef TCGETS
    {"TCGETS", (int64_t)TCGETS},
#endif
#ifdef TCIFLUSH
    {"TCIFLUSH", (int64_t)TCIFLUSH},
#endif
#ifdef TCIOFF
    {"TCIOFF", (int64_t)TCIOFF},
#endif
#ifdef TCIOFLUSH
    {"TCIOFLUSH", (int64_t)TCIOFLUSH},
#endif
#ifdef TCION
    {"TCION", (int64_t)TCION},
#endif
#ifdef TCOFLUSH
    {"TCOFLUSH", (int64_t)TCOFLUSH},
#endif
#ifdef TCOOFF
    {"TCOOFF", (int64_t)TCOOFF},
#endif
#ifdef TCOON
    {"TCOON", (int64_t)TCOON},
#endif
#ifdef TCSADRAIN
    {"TCSADRAIN", (int64_t)TCSADRAIN},
#endif
#ifdef TCSAFLUSH
    {"TCSAFLUSH", (int64_t)TCSAFLUSH},
#endif
#ifdef TCSANOW
    {"TCSANOW", (int64_t)TCSANOW},
#endif
#ifdef TCSBRK
    {"TCSBRK", (int64_t)TCSBRK},
#endif
#ifdef TCSBRKP
    {"TCSBRKP", (int64_t)TCSBRKP},
#endif
#ifdef TCSETA
    {"TCSETA", (int64_t)TCSETA},
#endif
#ifdef TCSETAF
    {"TCSETAF", (int64_t)TCSETAF},
#endif
#ifdef TCSETAW
    {"TCSETAW", (int64_t)TCSETAW},
#endif
#ifdef TCSETS
    {"TCSETS", (int64_t)TCSETS},
#endif
#ifdef TCSETSF
    {"TCSETSF", (int64_t)TCSETSF},
#endif
#ifdef TCSETSW
    {"TCSETSW", (int64_t)TCSETSW},
#endif
#ifdef TCXONC
    {"TCXONC", (int64_t)TCXONC},
#endif
#ifdef TIOCCONS
    {"TIOCCONS", (int64_t)TIOCCONS},
#endif
#ifdef TIOCEXCL
    {"TIOCEXCL", (int64_t)TIOCEXCL},
#endif
#ifdef TIOCGETD
    {"TIOCGETD", (int64_t)TIOCGETD},
#endif
#ifdef TIOCGICOUNT
    {"TIOCGICOUNT", (int64_t)TIOCGICOUNT},
#endif
#ifdef TIOCGLCKTRMIOS
    {"TIOCGLCKTRMIOS", (int64_t)TIOCGLCKTRMIOS},
#endif
#ifdef TIOCGPGRP
    {"TIOCGPGRP", (int64_t)TIOCGPGRP},
#endif
#ifdef TIOCGSERIAL
    {"TIOCGSERIAL", (int64_t)TIOCGSERIAL},
#endif
#ifdef TIOCGSOFTCAR
    {"TIOCGSOFTCAR", (int64_t)TIOCGSOFTCAR},
#endif
#ifdef TIOCGWINSZ
    {"TIOCGWINSZ", (int64_t)TIOCGWINSZ},
#endif
#ifdef TIOCINQ
    {"TIOCINQ", (int64_t)TIOCINQ},
#endif
#ifdef TIOCLINUX
    {"TIOCLINUX", (int64_t)TIOCLINUX},
#endif
#ifdef TIOCMBIC
    {"TIOCMBIC", (int64_t)TIOCMBIC},
#endif
#ifdef TIOCMBIS
    {"TIOCMBIS", (int64_t)TIOCMBIS},
#endif
#ifdef TIOCMGET
    {"TIOCMGET", (int64_t)TIOCMGET},
#endif
#ifdef TIOCMIWAIT
    {"TIOCMIWAIT", (int64_t)TIOCMIWAIT},
#endif
#ifdef TIOCMSET
    {"TIOCMSET", (int64_t)TIOCMSET},
#endif
#ifdef TIOCM_CAR
    {"TIOCM_CAR", (int64_t)TIOCM_CAR},
#endif
#ifdef TIOCM_CD
    {"TIOCM_CD", (int64_t)TIOCM_CD},
#endif
#ifdef TIOCM_CTS
    {"TIOCM_CTS", (int64_t)TIOCM_CTS},
#endif
#ifdef TIOCM_DSR
    {"TIOCM_DSR", (int64_t)TIOCM_DSR},
#endif
#ifdef TIOCM_DTR
    {"TIOCM_DTR", (int64_t)TIOCM_DTR},
#endif
#ifdef TIOCM_LE
    {"TIOCM_LE", (int64_t)TIOCM_LE},
#endif
#ifdef TIOCM_RI
    {"TIOCM_RI", (int64_t)TIOCM_RI},
#endif
#ifdef TIOCM_RNG
    {"TIOCM_RNG", (int64_t)TIOCM_RNG},
#endif
#ifdef TIOCM_RTS
    {"TIOCM_RTS", (int64_t)TIOCM_RTS},
#endif
#ifdef TIOCM_SR
    {"TIOCM_SR", (int64_t)TIOCM_SR},
#endif
#ifdef TIOCM_ST
    {"TIOCM_ST", (int64_t)TIOCM_ST},
#endif
#ifdef TIOCNOTTY
    {"TIOCNOTTY", (int64_t)TIOCNOTTY},
#endif
#ifdef TIOCNXCL
    {"TIOCNXCL", (int64_t)TIOCNXCL},
#endif
#ifdef TIOCOUTQ
    {"TIOCOUTQ", (int64_t)TIOCOUTQ},
#endif
#ifdef TIOCPKT
    {"TIOCPKT", (int64_t)TIOCPKT},
#endif
#ifdef TIOCPKT_DATA
    {"TIOCPKT_DATA", (int64_t)TIOCPKT_DATA},
#endif
#ifdef TIOCPKT_DOSTOP
    {"TIOCPKT_DOSTOP", (int64_t)TIOCPKT_DOSTOP},
#endif
#ifdef TIOCPKT_FLUSHREAD
    {"TIOCPKT_FLUSHREAD", (int64_t)TIOCPKT_FLUSHREAD},
#endif
#ifdef TIOCPKT_FLUSHWRITE
    {"TIOCPKT_FLUSHWRITE", (int64_t)TIOCPKT_FLUSHWRITE},
#endif
#ifdef TIOCPKT_NOSTOP
    {"TIOCPKT_NOSTOP", (int64_t)TIOCPKT_NOSTOP},
#endif
#ifdef TIOCPKT_START
    {"TIOCPKT_START", (int64_t)TIOCPKT_START},
#endif
#ifdef TIOCPKT_STOP
    {"TIOCPKT_STOP", (int64_t)TIOCPKT_STOP},
#endif
#ifdef TIOCSCTTY
    {"TIOCSCTTY", (int64_t)TIOCSCTTY},
#endif
#ifdef TIOCSERCONFIG
    {"TIOCSERCONFIG", (int64_t)TIOCSERCONFIG},
#endif
#ifdef TIOCSERGETLSR
    {"TIOCSERGETLSR", (int64_t)TIOCSERGETLSR},
#endif
#ifdef TIOCSERGETMULTI
    {"TIOCSERGETMULTI", (int64_t)TIOCSERGETMULTI},
#endif
#ifdef TIOCSERGSTRUCT
    {"TIOCSERGSTRUCT", (int64_t)TIOCSERGSTRUCT},
#endif
#ifdef TIOCSERGWILD
    {"TIOCSERGWILD", (int64_t)TIOCSERGWILD},
#endif
#ifdef TIOCSERSETMULTI
    {"TIOCSERSETMULTI", (int64_t)TIOCSERSETMULTI},
#endif
#ifdef TIOCSERSWILD
    {"TIOCSERSWILD", (int64_t)TIOCSERSWILD},
#endif
#ifdef TIOCSER_TEMT
    {"TIOCSER_TEMT", (int64_t)TIOCSER_TEMT},
#endif
#ifdef TIOCSETD
    {"TIOCSETD", (int64_t)TIOCSETD},
#endif
#ifdef TIOCSLCKTRMIOS
    {"TIOCSLCKTRMIOS", (int64_t)TIOCSLCKTRMIOS},
#endif
#ifdef TIOCSPGRP
    {"TIOCSPGRP", (int64_t)TIOCSPGRP},
#endif
#ifdef TIOCSSERIAL
    {"TIOCSSERIAL", (int64_t)TIOCSSERIAL},
#endif
#ifdef TIOCSSOFTCAR
    {"TIOCSSOFTCAR", (int64_t)TIOCSSOFTCAR},
#endif
#ifdef TIOCSTI
    {"TIOCSTI", (int64_t)TIOCSTI},
#endif
#ifdef TIOCSWINSZ
    {"TIOCSWINSZ", (int64_t)TIOCSWINSZ},
#endif
#ifdef TOSTOP
    {"TOSTOP", (int64_t)TOSTOP},
#endif
#ifdef VDISCARD
    {"VDISCARD", (int64_t)VDISCARD},
#endif
#ifdef VEOF
    {"VEOF", (int64_t)VEOF},
#endif
#ifdef VEOL
    {"VEOL", (int64_t)VEOL},
#endif
#ifdef VEOL2
    {"VEOL2", (int64_t)VEOL2},
#endif
#ifdef VERASE
    {"VERASE", (int64_t)VERASE},
#endif
#ifdef VINTR
    {"VINTR", (int64_t)VINTR},
#endif
#ifdef VKILL
    {"VKILL", (int64_t)VKILL},
#endif
#ifdef VLNEXT
    {"VLNEXT", (int64_t)VLNEXT},
#endif
#ifdef VMIN
    {"VMIN", (int64_t)VMIN},
#endif
#ifdef VQUIT
    {"VQUIT", (int64_t)VQUIT},
#endif
#ifdef VREPRINT
    {"VREPRINT", (int64_t)VREPRINT},
#endif
#ifdef VSTART
    {"VSTART", (int64_t)VSTART},
#endif
#ifdef VSTOP
    {"VSTOP", (int64_t)VSTOP},
#endif
#ifdef VSUSP
    {"VSUSP", (int64_t)VSUSP},
#endif
#ifdef VSWTC
    {"VSWTC", (int64_t)VSWTC},
#endif
#ifdef VSWTCH
    {"VSWTCH", (int64_t)VSWTCH},
#endif
#ifdef VT0
    {"VT0", (int64_t)VT0},
#endif
#ifdef VT1
    {"VT1", (int64_t)VT1},
#endif
#ifdef VTDLY
    {"VTDLY", (int64_t)VTDLY},
#endif
#ifdef VTIME
    {"VTIME", (int64_t)VTIME},
#endif
#ifdef VWERASE
    {"VWERASE", (int64_t)VWERASE},
#endif
#ifdef XCASE
    {"XCASE", (int64_t)XCASE},
#endif
#ifdef XTABS
    {"XTABS", (int64_t)XTABS},
#endif
};

Obj termios_module_init(void)
{
    vm_tx_become_inevitable();   /* the exception type is a C global */
    if (!E_termios_error) {
        E_termios_error = (TypeObj *)type_new_builtin("termios.error", E_Exception, TID_EXCEPTION, TPF_BASETYPE | TPF_HAS_DICT);
        type_ready(E_termios_error);
    }
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = module_new("termios");
    if (!r[0])
        goto out;
    module_add_functions(r[0], termios_functions);
    if (module_add(r[0], "error", (Obj)E_termios_error) < 0)
        goto out;
    for (size_t i = 0; i < ARRAY_LEN(termios_constants); i++)
        if (!(r[1] = int_from_i64(termios_constants[i].v)) || module_add(r[0], termios_constants[i].name, r[1]) < 0)
            goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
