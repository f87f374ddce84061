/* The _socket module: BSD sockets with CPython 3.11's names and interfaces,
 * under CPython's own socket.py (written from the socket module's
 * documentation and the Linux manual pages).
 *
 * A socket is an IterObj (TID_ITER, cls = _socket.socket), wrapped for
 * Python subclasses (socket.socket) by container_wrap_for_type; methods
 * unwrap self first. i = the fd (-1: closed), kind = family | type << 16 |
 * proto << 32, n = the timeout in nanoseconds (-1: None, blocking; 0:
 * non-blocking; > 0: the fd is O_NONBLOCK and every wait goes through
 * poll() with that timeout, as CPython does).
 *
 * Every call that may wait runs between vm_blocking_begin/end (the GIL is
 * released, the STM transaction commits first) on C memory only: data to
 * send is copied out of its object first, received data is copied in after. */
#define _GNU_SOURCE
#include "objects/objects.h"
#include "objects/containers.h"
#include "objects/strobj.h"
#include "modules.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <netpacket/packet.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static TypeObj *T_socket;
static TypeObj *E_herror, *E_gaierror;
/* socket.setdefaulttimeout(): nanoseconds, -1 for None. Written only by an
 * inevitable transaction. */
static int64_t g_default_timeout = -1;

#define SOCK_FD(s) ((int)ITER(s)->i)
#define SOCK_TIMEOUT(s) (ITER(s)->n)
#define SOCK_FAMILY(s) ((int)(ITER(s)->kind & 0xffff))
#define SOCK_TYPE(s) ((int)((ITER(s)->kind >> 16) & 0xffff))
#define SOCK_PROTO(s) ((int)(ITER(s)->kind >> 32))

static int64_t pack_kind(int family, int type, int proto)
{
    return (int64_t)(family & 0xffff) | (int64_t)(type & 0xffff) << 16 | (int64_t)proto << 32;
}

/* The socket behind self (a _socket.socket or a subclass instance), or NULL + TypeError. */
static Obj sock_self(Obj self, const char *meth)
{
    Obj s = vm_unwrap(self);
    if (TID(s) != TID_ITER || ITER(s)->cls != (Obj)T_socket) {
        err_format(E_TypeError, "descriptor '%s' for '_socket.socket' objects doesn't apply to a '%s' object",
                   meth, type_name(self));
        return NULL;
    }
    return s;
}

/* For _ssl (sslmodule.c): the fd and timeout (ns; -1 None, 0 non-blocking)
 * of a _socket.socket or a subclass instance (vm_unwrap gives a subclass
 * instance's inner _socket.socket, whose class is T_socket); -1 with
 * TypeError otherwise. */
int socket_fd_timeout(Obj sock, int *fd, int64_t *timeout_ns)
{
    Obj s = vm_unwrap(sock);
    if (TID(s) != TID_ITER || ITER(s)->cls != (Obj)T_socket) {
        err_format(E_TypeError, "a _socket.socket is required, not %s", type_name(sock));
        return -1;
    }
    *fd = SOCK_FD(s);
    *timeout_ns = SOCK_TIMEOUT(s);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

/* OSError(errno, strerror): its constructor picks the subclass
 * (ConnectionRefusedError, ...), as CPython's PyErr_SetFromErrno does. */
static Obj raise_errno(int e)
{
    Obj *r = vm_roots(2);
    r[0] = MAKE_SMALLINT(e);
    r[1] = str_from_cstr(strerror(e));
    Obj exc = r[1] ? exc_new(E_OSError, r, 2) : NULL;
    if (exc)
        err_set_obj(exc);
    vm_unroots(r);
    return NULL;
}

/* exc_type(code, message): gaierror and herror as CPython raises them. */
static Obj raise_code(TypeObj *t, int code, const char *msg)
{
    Obj *r = vm_roots(2);
    r[1] = str_from_cstr(msg);
    if (r[1]) {
        r[0] = MAKE_SMALLINT(code);
        Obj e = exc_new(t, r, 2);
        if (e)
            err_set_obj(e);
    }
    vm_unroots(r);
    return NULL;
}

static Obj raise_gai(int code, int saved_errno)
{
    if (code == EAI_SYSTEM)
        return raise_errno(saved_errno);
    return raise_code(E_gaierror, code, gai_strerror(code));
}

static Obj raise_timeout(void)
{
    err_set(E_TimeoutError, "timed out");
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Waiting                                                             */
/* ------------------------------------------------------------------ */

enum { CALL_ERRNO = -1, CALL_TIMEOUT = -2, CALL_RAISED = -3 };

/* One system call on an fd that may wait; all in C memory. */
enum { OP_RECV, OP_RECVFROM, OP_SEND, OP_SENDTO, OP_ACCEPT, OP_SENDMSG, OP_RECVMSG };
typedef struct {
    int op, fd, flags;
    char *buf;
    size_t len;
    struct sockaddr_storage addr;
    socklen_t addrlen;
    struct msghdr *msg;   /* OP_SENDMSG, OP_RECVMSG */
    int err;   /* errno of a CALL_ERRNO result */
} SockOp;

static ssize_t op_run(SockOp *o)
{
    switch (o->op) {
    case OP_RECV:
        return recv(o->fd, o->buf, o->len, o->flags);
    case OP_RECVFROM:
        o->addrlen = sizeof o->addr;
        return recvfrom(o->fd, o->buf, o->len, o->flags, (struct sockaddr *)&o->addr, &o->addrlen);
    case OP_SEND:
        return send(o->fd, o->buf, o->len, o->flags | MSG_NOSIGNAL);
    case OP_SENDTO:
        return sendto(o->fd, o->buf, o->len, o->flags | MSG_NOSIGNAL, (struct sockaddr *)&o->addr, o->addrlen);
    case OP_ACCEPT:
        o->addrlen = sizeof o->addr;
        return accept4(o->fd, (struct sockaddr *)&o->addr, &o->addrlen, SOCK_CLOEXEC);
    case OP_SENDMSG:
        return sendmsg(o->fd, o->msg, o->flags | MSG_NOSIGNAL);
    case OP_RECVMSG:
        o->msg->msg_namelen = sizeof o->addr;
        return recvmsg(o->fd, o->msg, o->flags);
    }
    errno = EINVAL;
    return -1;
}

/* Wait until fd is ready for `events` or the deadline (ns, tm_now_ns's clock;
 * < 0: none) passes: 0 ready, CALL_TIMEOUT, CALL_RAISED (a signal handler
 * raised), CALL_ERRNO with *err. */
static int wait_fd(int fd, short events, int64_t deadline, int *err)
{
    if (fd < 0)
        return 0;   /* closed: the call itself fails with EBADF, as CPython's */
    for (;;) {
        int ms = -1;
        if (deadline >= 0) {
            int64_t left = deadline - tm_now_ns();
            if (left <= 0)
                return CALL_TIMEOUT;
            ms = (int)((left + 999999) / 1000000);
        }
        struct pollfd p = {.fd = fd, .events = events};
        vm_blocking_begin();
        int n = tm_interrupted() ? (errno = EINTR, -1) : poll(&p, 1, ms);
        int e = errno;
        vm_blocking_end();
        if (n > 0)
            return 0;
        if (n == 0)
            return CALL_TIMEOUT;
        if (e != EINTR) {
            *err = e;
            return CALL_ERRNO;
        }
        if (vm_signals_check() < 0)
            return CALL_RAISED;
    }
}

/* CPython's sock_call: with a timeout, wait for readiness first; retry on
 * EINTR (PEP 475) and, with a timeout, on EAGAIN. The result or a CALL_*. */
static ssize_t sock_call(SockOp *o, int64_t timeout)
{
    int64_t deadline = timeout > 0 ? tm_now_ns() + timeout : -1;
    bool writing = o->op == OP_SEND || o->op == OP_SENDTO || o->op == OP_SENDMSG;
    for (;;) {
        if (timeout > 0) {
            int w = wait_fd(o->fd, writing ? POLLOUT : POLLIN, deadline, &o->err);
            if (w < 0)
                return w;
        }
        vm_blocking_begin();
        ssize_t got = tm_interrupted() ? (errno = EINTR, -1) : op_run(o);
        int e = errno;
        vm_blocking_end();
        if (got >= 0)
            return got;
        if (e == EINTR) {
            if (vm_signals_check() < 0)
                return CALL_RAISED;
            continue;
        }
        if (timeout > 0 && (e == EAGAIN || e == EWOULDBLOCK))
            continue;
        o->err = e;
        return CALL_ERRNO;
    }
}

static Obj call_failed(ssize_t rc, int err)
{
    if (rc == CALL_TIMEOUT)
        return raise_timeout();
    if (rc == CALL_RAISED)
        return NULL;
    return raise_errno(err);
}

static int set_blocking_fd(int fd, bool blocking)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0)
        return -1;
    int nfl = blocking ? (fl & ~O_NONBLOCK) : (fl | O_NONBLOCK);
    return nfl == fl ? 0 : fcntl(fd, F_SETFL, nfl);
}

/* ------------------------------------------------------------------ */
/* Addresses                                                           */
/* ------------------------------------------------------------------ */

/* An address tuple's host (str or bytes-like) as a malloc'd C string. */
static char *host_cstr(Obj v)
{
    Obj u = vm_unwrap(v);
    if (IS_STR(u))
        return str_to_os(u, NULL);
    const char *p;
    int64_t n;
    if (bytes_like(u, &p, &n)) {
        char *c = malloc((size_t)n + 1);
        if (!c) {
            err_nomemory();
            return NULL;
        }
        memcpy(c, p, (size_t)n);
        c[n] = 0;
        return c;
    }
    err_format(E_TypeError, "str, bytes or bytearray expected, not %s", type_name(v));
    return NULL;
}

/* CPython's setipaddr: '' is any address, '<broadcast>' the broadcast one,
 * numbers are parsed, other names resolved (a blocking call). */
static int resolve_host(const char *host, int family, struct sockaddr_storage *out, socklen_t *len)
{
    memset(out, 0, sizeof *out);
    if (host[0] == 0 || strcmp(host, "<broadcast>") == 0) {
        if (family == AF_INET6 && host[0] == 0) {
            struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)out;
            a6->sin6_family = AF_INET6;
            a6->sin6_addr = in6addr_any;
            *len = sizeof *a6;
            return 0;
        }
        if (family != AF_INET && family != AF_UNSPEC) {
            err_set(E_OSError, "address family mismatched");
            return -1;
        }
        struct sockaddr_in *a = (struct sockaddr_in *)out;
        a->sin_family = AF_INET;
        a->sin_addr.s_addr = htonl(host[0] ? INADDR_BROADCAST : INADDR_ANY);
        *len = sizeof *a;
        return 0;
    }
    if (family == AF_INET || family == AF_UNSPEC) {
        struct sockaddr_in *a = (struct sockaddr_in *)out;
        if (inet_pton(AF_INET, host, &a->sin_addr) == 1) {
            a->sin_family = AF_INET;
            *len = sizeof *a;
            return 0;
        }
    }
    if (family == AF_INET6 || family == AF_UNSPEC) {
        struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)out;
        if (inet_pton(AF_INET6, host, &a6->sin6_addr) == 1) {
            a6->sin6_family = AF_INET6;
            *len = sizeof *a6;
            return 0;
        }
    }
    struct addrinfo hints = {.ai_family = family}, *res = NULL;
    vm_blocking_begin();
    int rc = getaddrinfo(host, NULL, &hints, &res);
    int e = errno;
    vm_blocking_end();
    if (rc != 0) {
        raise_gai(rc, e);
        return -1;
    }
    memcpy(out, res->ai_addr, res->ai_addrlen);
    *len = res->ai_addrlen;
    freeaddrinfo(res);
    return 0;
}

/* A port number from an address tuple, 0..65535 (OverflowError otherwise). */
static int port_arg(Obj v, const char *caller, int *out)
{
    if (!IS_INT(vm_unwrap(v))) {
        err_format(E_TypeError, "'%s' object cannot be interpreted as an integer", type_name(v));
        return -1;
    }
    int64_t p;
    if (vm_index_i64(v, &p) < 0)
        return -1;
    if (p < 0 || p > 65535) {
        err_format(E_OverflowError, "%s(): port must be 0-65535.", caller);
        return -1;
    }
    *out = (int)p;
    return 0;
}

static int inet_addr_arg(int family, Obj *addr, const char *caller, struct sockaddr_storage *out, socklen_t *len);

/* CPython's getsockaddrarg: a Python address for `family` into *out. */
static int sockaddr_arg(int family, Obj addr, const char *caller, struct sockaddr_storage *out, socklen_t *len)
{
    if (family == AF_INET || family == AF_INET6) {
        /* __index__ of a port may run Python code (and move the tuple): kept in a root */
        Obj *r = vm_roots(1);
        r[0] = addr;
        int rc = inet_addr_arg(family, r, caller, out, len);
        vm_unroots(r);
        return rc;
    }
    memset(out, 0, sizeof *out);
    Obj a = vm_unwrap(addr);
    if (family == AF_UNIX) {
        const char *p;
        int64_t n;
        char *owned = NULL;
        if (IS_STR(a)) {
            size_t sn;
            owned = str_to_os(a, &sn);
            if (!owned)
                return -1;
            p = owned;
            n = (int64_t)sn;
        } else if (!bytes_like(a, &p, &n)) {
            err_format(E_TypeError, "%s(): AF_UNIX address must be str or bytes, not %s", caller, type_name(addr));
            return -1;
        }
        struct sockaddr_un *u = (struct sockaddr_un *)out;
        if ((size_t)n >= sizeof u->sun_path + (n > 0 && p[0] == 0)) {
            free(owned);
            err_set(E_OSError, "AF_UNIX path too long");
            return -1;
        }
        u->sun_family = AF_UNIX;
        memcpy(u->sun_path, p, (size_t)n);
        *len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + (size_t)n + (n > 0 && p[0] != 0));
        free(owned);
        return 0;
    }
    err_format(E_OSError, "%s(): bad family", caller);
    return -1;
}

/* AF_INET (host, port) and AF_INET6 (host, port[, flowinfo[, scope_id]]); *addr is a root. */
static int inet_addr_arg(int family, Obj *addr, const char *caller, struct sockaddr_storage *out, socklen_t *len)
{
    memset(out, 0, sizeof *out);
    bool v6 = family == AF_INET6;
    Obj a = vm_unwrap(*addr);
    if (!IS_TUPLE(a)) {
        err_format(E_TypeError, "%s(): AF_INET%s address must be tuple, not %s", caller, v6 ? "6" : "",
                   type_name(*addr));
        return -1;
    }
    int64_t n = TUPLE(a)->length;
    if (v6 ? (n < 2 || n > 4) : n != 2) {
        if (v6)
            err_format(E_TypeError, "AF_INET6 address must be a tuple (host, port[, flowinfo[, scopeid]])");
        else
            err_format(E_TypeError, "AF_INET address must be a pair (host, port)");
        return -1;
    }
    int port;
    if (port_arg(TUPLE(a)->items[1], caller, &port) < 0)
        return -1;
    int64_t flow = 0, scope = 0;
    if (n > 2 && vm_index_i64(TUPLE(vm_unwrap(*addr))->items[2], &flow) < 0)
        return -1;
    if (n > 3 && vm_index_i64(TUPLE(vm_unwrap(*addr))->items[3], &scope) < 0)
        return -1;
    if (flow < 0 || flow > 0xfffff) {
        err_format(E_OverflowError, "%s(): flowinfo must be 0-1048575.", caller);
        return -1;
    }
    char *host = host_cstr(TUPLE(vm_unwrap(*addr))->items[0]);
    if (!host)
        return -1;
    int rc = resolve_host(host, family, out, len);
    free(host);
    if (rc < 0)
        return -1;
    if (v6) {
        struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)out;
        a6->sin6_port = htons((uint16_t)port);
        a6->sin6_flowinfo = htonl((uint32_t)flow);
        a6->sin6_scope_id = (uint32_t)scope;
    } else {
        ((struct sockaddr_in *)out)->sin_port = htons((uint16_t)port);
    }
    return 0;
}

/* CPython's makesockaddr: the Python form of a C address (None if empty). */
static Obj sockaddr_obj(const struct sockaddr *sa, socklen_t len)
{
    if (len == 0)
        return g_None;
    char host[INET6_ADDRSTRLEN];
    switch (sa->sa_family) {
    case AF_INET: {
        const struct sockaddr_in *a = (const struct sockaddr_in *)sa;
        inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
        Obj h = str_from_cstr(host);
        return h ? tuple_pack(2, h, MAKE_SMALLINT(ntohs(a->sin_port))) : NULL;
    }
    case AF_INET6: {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)sa;
        inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
        Obj h = str_from_cstr(host);
        return h ? tuple_pack(4, h, MAKE_SMALLINT(ntohs(a->sin6_port)), MAKE_SMALLINT(ntohl(a->sin6_flowinfo)),
                              MAKE_SMALLINT(a->sin6_scope_id))
                 : NULL;
    }
    case AF_UNIX: {
        const struct sockaddr_un *u = (const struct sockaddr_un *)sa;
        size_t off = offsetof(struct sockaddr_un, sun_path);
        if (len <= off)
            return str_from_cstr("");
        size_t n = len - off;
        if (u->sun_path[0] == 0)   /* Linux's abstract namespace: bytes */
            return bytes_new(u->sun_path, n);
        return str_from_os(u->sun_path, strnlen(u->sun_path, n));
    }
    default: {
        Obj d = bytes_new(sa->sa_data, sizeof sa->sa_data);
        return d ? tuple_pack(2, MAKE_SMALLINT(sa->sa_family), d) : NULL;
    }
    }
}

/* ------------------------------------------------------------------ */
/* Socket objects                                                      */
/* ------------------------------------------------------------------ */

static Obj sock_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    (void)args, (void)nargs, (void)kwnames;
    Obj it = iter_alloc(T_socket, g_None, pack_kind(AF_INET, SOCK_STREAM, 0));
    if (!it)
        return NULL;
    VM_WRITE(it);
    ITER(it)->i = -1;
    ITER(it)->n = -1;
    if ((TypeObj *)type == T_socket)   /* a subclass's instance is registered itself (TPF_HAS_DEL) */
        tm_register_finalizer((object_t *)it);
    return container_wrap_for_type(T_socket, type, it);
}

/* A new _socket.socket over fd (module functions and dup()). */
static Obj sock_from_fd(int fd, int family, int type, int proto)
{
    Obj it = iter_alloc(T_socket, g_None, pack_kind(family, type, proto));
    if (!it)
        return NULL;
    VM_WRITE(it);
    ITER(it)->i = fd;
    ITER(it)->n = g_default_timeout;
    if (g_default_timeout >= 0)
        set_blocking_fd(fd, false);
    tm_register_finalizer((object_t *)it);
    return it;
}

static int int_arg_or(Obj v, int dflt, int *out)
{
    if (!v || IS_NONE(v)) {
        *out = dflt;
        return 0;
    }
    int64_t x;
    if (vm_index_i64(v, &x) < 0)
        return -1;
    if (x < INT32_MIN || x > INT32_MAX) {
        err_set(E_OverflowError, "signed integer is greater than maximum");
        return -1;
    }
    *out = (int)x;
    return 0;
}

static int sock_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"family", "type", "proto", "fileno", NULL};
    Obj *a = vm_roots(5);
    int rc = -1;
    a[4] = self;
    if (vm_parse_args("socket", args, nargs, kwnames, names, 0, 4, a) < 0)
        goto out;
    int family, type, proto;
    if (int_arg_or(a[0], -1, &family) < 0 || int_arg_or(a[1], -1, &type) < 0 || int_arg_or(a[2], -1, &proto) < 0)
        goto out;
    Obj s = sock_self(a[4], "__init__");
    if (!s)
        goto out;
    int fd;
    vm_tx_become_inevitable();   /* opens an fd: no abort may repeat it */
    if (a[3] && !IS_NONE(a[3])) {
        int64_t f;
        if (vm_index_i64(a[3], &f) < 0)
            goto out;
        if (f < 0) {
            err_set(E_ValueError, "negative file descriptor");
            goto out;
        }
        fd = (int)f;
        struct { int *v; int opt; } q[] = {{&family, SO_DOMAIN}, {&type, SO_TYPE}, {&proto, SO_PROTOCOL}};
        for (size_t i = 0; i < ARRAY_LEN(q); i++) {
            if (*q[i].v != -1)
                continue;
            socklen_t l = sizeof(int);
            if (getsockopt(fd, SOL_SOCKET, q[i].opt, q[i].v, &l) < 0) {
                raise_errno(errno);
                goto out;
            }
        }
    } else {
        if (family == -1)
            family = AF_INET;
        if (type == -1)
            type = SOCK_STREAM;
        if (proto == -1)
            proto = 0;
        fd = socket(family, type | SOCK_CLOEXEC, proto);
        if (fd < 0) {
            raise_errno(errno);
            goto out;
        }
    }
    int64_t timeout = (type & SOCK_NONBLOCK) ? 0 : g_default_timeout;
    type &= ~(SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (timeout >= 0)
        set_blocking_fd(fd, false);
    s = vm_unwrap(a[4]);
    VM_WRITE(s);
    ITER(s)->i = fd;
    ITER(s)->n = timeout;
    ITER(s)->kind = pack_kind(family, type, proto);
    rc = 0;
out:
    vm_unroots(a);
    return rc;
}

#define SELF(meth)                          \
    Obj s = sock_self(args[0], meth);       \
    if (!s)                                 \
        return NULL;

static Obj sock_fileno(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("fileno");
    return MAKE_SMALLINT(SOCK_FD(s));
}

static Obj sock_close(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("close");
    int fd = SOCK_FD(s);
    if (fd == -1)
        return g_None;
    vm_tx_become_inevitable();
    s = vm_unwrap(args[0]);
    VM_WRITE(s);
    ITER(s)->i = -1;
    /* close() may wait (SO_LINGER); ECONNRESET: the peer is gone, the fd closed all the same */
    vm_blocking_begin();
    int rc = close(fd);
    int e = errno;
    vm_blocking_end();
    if (rc < 0 && e != ECONNRESET)
        return raise_errno(e);
    return g_None;
}

/* The finalizer of a collected socket (gcwork.c calls __del__): CPython's
 * ResourceWarning "unclosed ...", then the fd is closed. */
static Obj sock_del(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("__del__");
    if (SOCK_FD(s) == -1)
        return g_None;
    Obj *r = vm_roots(3);
    r[0] = args[0];
    r[1] = vm_repr(r[0]);
    r[2] = r[1] ? str_from_cstr("unclosed ") : NULL;
    Obj msg = r[2] ? str_concat(r[2], r[1]) : NULL;
    int rc = msg ? warnings_warn(E_ResourceWarning, msg, r[0]) : -1;
    /* closed even when the warning raised (the error filter): the fd must not leak */
    s = vm_unwrap(r[0]);
    int fd = SOCK_FD(s);
    if (fd != -1) {
        vm_tx_become_inevitable();
        s = vm_unwrap(r[0]);
        VM_WRITE(s);
        ITER(s)->i = -1;
        close(fd);
    }
    vm_unroots(r);
    return rc < 0 ? NULL : g_None;
}

static Obj sock_detach(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("detach");
    int fd = SOCK_FD(s);
    VM_WRITE(s);
    ITER(s)->i = -1;
    return MAKE_SMALLINT(fd);
}

static Obj sock_dup(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("dup");
    vm_tx_become_inevitable();
    s = vm_unwrap(args[0]);
    int fd = fcntl(SOCK_FD(s), F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return raise_errno(errno);
    Obj r = sock_from_fd(fd, SOCK_FAMILY(s), SOCK_TYPE(s), SOCK_PROTO(s));
    if (!r)
        close(fd);
    return r;
}

static Obj sock_family(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("family");
    return MAKE_SMALLINT(SOCK_FAMILY(s));
}

static Obj sock_type(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("type");
    return MAKE_SMALLINT(SOCK_TYPE(s));
}

static Obj sock_proto(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("proto");
    return MAKE_SMALLINT(SOCK_PROTO(s));
}

static Obj timeout_obj(int64_t t)
{
    return t < 0 ? g_None : float_new((double)t / 1e9);
}

static Obj sock_gettimeout(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("gettimeout");
    return timeout_obj(SOCK_TIMEOUT(s));
}

/* A timeout argument: None is -1, else nanoseconds >= 0. */
static int timeout_arg(Obj v, int64_t *out)
{
    if (IS_NONE(v)) {
        *out = -1;
        return 0;
    }
    Obj u = vm_unwrap(v);
    if (!IS_INT(u) && !IS_FLOAT(u)) {
        if (IS_STR(u) || !vm_lookup_special(v, "__float__")) {
            err_format(E_TypeError, "'%s' object cannot be interpreted as an integer", type_name(v));
            return -1;
        }
    }
    double d;
    if (vm_as_double(v, &d) < 0)
        return -1;
    if (d != d) {
        err_set(E_ValueError, "Invalid value NaN (not a number)");
        return -1;
    }
    if (d < 0) {
        err_set(E_ValueError, "Timeout value out of range");
        return -1;
    }
    if (d > 9.2e9) {
        err_set(E_OverflowError, "timeout doesn't fit into C timeval");
        return -1;
    }
    *out = (int64_t)(d * 1e9 + 0.5);
    if (*out == 0 && d > 0)
        *out = 1;
    return 0;
}

static Obj set_timeout(Obj self, int64_t t)
{
    Obj s = vm_unwrap(self);
    VM_WRITE(s);
    ITER(s)->n = t;
    int fd = SOCK_FD(s);
    if (fd != -1) {
        vm_tx_become_inevitable();
        if (set_blocking_fd(fd, t < 0) < 0)
            return raise_errno(errno);
    }
    return g_None;
}

static Obj sock_settimeout(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("settimeout");
    (void)s;
    int64_t t;
    if (timeout_arg(args[1], &t) < 0)
        return NULL;
    return set_timeout(args[0], t);
}

static Obj sock_setblocking(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("setblocking");
    (void)s;
    int b = vm_is_true(args[1]);
    if (b < 0)
        return NULL;
    return set_timeout(args[0], b ? -1 : 0);
}

static Obj sock_getblocking(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("getblocking");
    return vm_bool(SOCK_TIMEOUT(s) != 0);
}

static Obj sock_bind(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("bind");
    struct sockaddr_storage sa;
    socklen_t len;
    if (sockaddr_arg(SOCK_FAMILY(s), args[1], "bind", &sa, &len) < 0)
        return NULL;
    vm_tx_become_inevitable();
    if (bind(SOCK_FD(vm_unwrap(args[0])), (struct sockaddr *)&sa, len) < 0)
        return raise_errno(errno);
    return g_None;
}

static Obj sock_listen(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("listen");
    int64_t backlog = SOMAXCONN < 128 ? SOMAXCONN : 128;
    if (nargs > 1 && vm_index_i64(args[1], &backlog) < 0)
        return NULL;
    if (backlog < 0)
        backlog = 0;
    if (backlog > INT32_MAX)
        backlog = INT32_MAX;
    vm_tx_become_inevitable();
    if (listen(SOCK_FD(vm_unwrap(args[0])), (int)backlog) < 0)
        return raise_errno(errno);
    return g_None;
}

static Obj sock_accept(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("_accept");
    SockOp o = {.op = OP_ACCEPT, .fd = SOCK_FD(s)};
    ssize_t fd = sock_call(&o, SOCK_TIMEOUT(s));
    if (fd < 0)
        return call_failed(fd, o.err);
    Obj addr = sockaddr_obj((struct sockaddr *)&o.addr, o.addrlen);
    if (!addr) {
        close((int)fd);
        return NULL;
    }
    return tuple_pack(2, int_from_i64(fd), addr);
}

/* CPython's internal_connect: 0, or an errno (connect_ex's result), or -1
 * with an exception set. args: [self, address], roots (resolving a host name
 * is a blocking call: objects move). */
static int do_connect(Obj *args, const char *caller)
{
    Obj s = vm_unwrap(args[0]);
    struct sockaddr_storage sa;
    socklen_t len;
    if (sockaddr_arg(SOCK_FAMILY(s), args[1], caller, &sa, &len) < 0)
        return -1;
    s = vm_unwrap(args[0]);
    int fd = SOCK_FD(s);
    int64_t timeout = SOCK_TIMEOUT(s);
    vm_blocking_begin();
    int rc = tm_interrupted() ? (errno = EINTR, -1) : connect(fd, (struct sockaddr *)&sa, len);
    int e = errno;
    vm_blocking_end();
    if (rc == 0)
        return 0;
    bool wait;
    if (e == EINTR) {
        if (vm_signals_check() < 0)
            return -1;
        wait = timeout != 0;
    } else {
        wait = e == EINPROGRESS && timeout > 0;
    }
    if (!wait)
        return e;
    int err = 0;
    int w = wait_fd(fd, POLLOUT, timeout > 0 ? tm_now_ns() + timeout : -1, &err);
    if (w == CALL_TIMEOUT) {
        raise_timeout();
        return -1;
    }
    if (w == CALL_RAISED)
        return -1;
    if (w == CALL_ERRNO)
        return err;
    socklen_t l = sizeof err;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &l) < 0)
        return errno;
    return err;
}

static Obj sock_connect(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("connect");
    (void)s;
    int e = do_connect(args, "connect");
    if (e < 0)
        return NULL;
    if (e > 0)
        return raise_errno(e);
    return g_None;
}

static Obj sock_connect_ex(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("connect_ex");
    (void)s;
    int e = do_connect(args, "connect_ex");
    if (e < 0)
        return NULL;
    return MAKE_SMALLINT(e);
}

static int flags_arg(Obj *args, size_t nargs, size_t i, int *flags)
{
    return int_arg_or(nargs > i ? args[i] : NULL, 0, flags);
}

/* The data of a bytes-like argument, copied to C memory (the call may wait). */
/* The first *n bytes of v (at most max) in C memory; *n becomes the count. */
static char *copy_data_max(Obj v, size_t *n, size_t max)
{
    const char *p;
    int64_t len;
    if (!bytes_like(vm_unwrap(v), &p, &len)) {
        err_format(E_TypeError, "a bytes-like object is required, not '%s'", type_name(v));
        return NULL;
    }
    if ((size_t)len > max)
        len = (int64_t)max;
    char *c = malloc((size_t)len + 1);
    if (!c) {
        err_nomemory();
        return NULL;
    }
    memcpy(c, p, (size_t)len);
    *n = (size_t)len;
    return c;
}

static char *copy_data(Obj v, size_t *n)
{
    return copy_data_max(v, n, SIZE_MAX);
}

/* What one send() on s can take: a stream socket that does not block (a
 * timeout of 0, or a timeout: poll, then a non-blocking send) takes at most
 * its send buffer, and asyncio hands send() its whole pending buffer every
 * time: copying all of it (10 MiB in pyperformance's asyncio_tcp) to send
 * a few hundred KiB made malloc, page faults and copies most of that run.
 * A blocking socket's send waits until all is queued: copied whole. */
static size_t send_room(Obj s, Obj data)
{
    const char *p;
    int64_t len;
    if (SOCK_TIMEOUT(s) < 0 || (SOCK_TYPE(s) & 0xf) != SOCK_STREAM ||
        !bytes_like(vm_unwrap(data), &p, &len) || len <= (64 << 10))   /* small: no system call */
        return SIZE_MAX;
    int sndbuf = 0;
    socklen_t sl = sizeof sndbuf;
    if (getsockopt(SOCK_FD(s), SOL_SOCKET, SO_SNDBUF, &sndbuf, &sl) != 0 || sndbuf <= 0)
        return SIZE_MAX;
    return (size_t)sndbuf;
}

static Obj sock_send(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("send");
    int flags;
    if (flags_arg(args, nargs, 2, &flags) < 0)
        return NULL;
    SockOp o = {.op = OP_SEND, .flags = flags};
    o.buf = copy_data_max(args[1], &o.len, send_room(s, args[1]));
    if (!o.buf)
        return NULL;
    s = vm_unwrap(args[0]);
    o.fd = SOCK_FD(s);
    ssize_t n = sock_call(&o, SOCK_TIMEOUT(s));
    free(o.buf);
    if (n < 0)
        return call_failed(n, o.err);
    return int_from_i64(n);
}

static Obj sock_sendall(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("sendall");
    int flags;
    if (flags_arg(args, nargs, 2, &flags) < 0)
        return NULL;
    size_t total;
    char *data = copy_data(args[1], &total);
    if (!data)
        return NULL;
    s = vm_unwrap(args[0]);
    int64_t timeout = SOCK_TIMEOUT(s);
    int64_t deadline = timeout > 0 ? tm_now_ns() + timeout : -1;
    SockOp o = {.op = OP_SEND, .fd = SOCK_FD(s), .flags = flags};
    size_t done = 0;
    while (done < total) {
        int64_t left = timeout;
        if (timeout > 0) {
            left = deadline - tm_now_ns();
            if (left <= 0) {
                free(data);
                return raise_timeout();
            }
        }
        o.buf = data + done;
        o.len = total - done;
        ssize_t n = sock_call(&o, left);
        if (n < 0) {
            free(data);
            return call_failed(n, o.err);
        }
        done += (size_t)n;
        /* a signal handler gets its chance between the pieces (CPython's PyErr_CheckSignals) */
        if (done < total && vm_signals_check() < 0) {
            free(data);
            return NULL;
        }
    }
    free(data);
    return g_None;
}

static Obj sock_sendto(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("sendto");
    if (nargs < 3 || nargs > 4) {   /* CPython's own count message */
        err_format(E_TypeError, "sendto() takes 2 or 3 arguments (%zu given)", nargs - 1);
        return NULL;
    }
    int flags = 0;
    Obj addr = args[2];
    if (nargs == 4) {
        if (int_arg_or(args[2], 0, &flags) < 0)
            return NULL;
        addr = args[3];
    }
    SockOp o = {.op = OP_SENDTO, .flags = flags};
    if (sockaddr_arg(SOCK_FAMILY(s), addr, "sendto", &o.addr, &o.addrlen) < 0)
        return NULL;
    o.buf = copy_data(args[1], &o.len);
    if (!o.buf)
        return NULL;
    s = vm_unwrap(args[0]);
    o.fd = SOCK_FD(s);
    ssize_t n = sock_call(&o, SOCK_TIMEOUT(s));
    free(o.buf);
    if (n < 0)
        return call_failed(n, o.err);
    return int_from_i64(n);
}

static int bufsize_arg(Obj v, const char *meth, size_t *out)
{
    int64_t n;
    if (vm_index_i64(v, &n) < 0)
        return -1;
    if (n < 0) {
        err_format(E_ValueError, "negative buffersize in %s", meth);
        return -1;
    }
    *out = (size_t)n;
    return 0;
}

/* recv and recvfrom: bytes (and the sender's address) */
static Obj recv_common(Obj *args, size_t nargs, int op, const char *meth)
{
    Obj s = sock_self(args[0], meth);
    if (!s)
        return NULL;
    SockOp o = {.op = op};
    if (bufsize_arg(args[1], meth, &o.len) < 0 || flags_arg(args, nargs, 2, &o.flags) < 0)
        return NULL;
    o.buf = malloc(o.len ? o.len : 1);
    if (!o.buf)
        return err_nomemory();
    s = vm_unwrap(args[0]);
    o.fd = SOCK_FD(s);
    ssize_t n = sock_call(&o, SOCK_TIMEOUT(s));
    if (n < 0) {
        free(o.buf);
        return call_failed(n, o.err);
    }
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = bytes_new(o.buf, (size_t)n);
    free(o.buf);
    if (r[0] && op == OP_RECVFROM) {
        r[1] = sockaddr_obj((struct sockaddr *)&o.addr, o.addrlen);
        res = r[1] ? tuple_pack(2, r[0], r[1]) : NULL;
    } else {
        res = r[0];
    }
    vm_unroots(r);
    return res;
}

static Obj sock_recv(Obj *args, size_t nargs, Obj kwnames)
{
    return recv_common(args, nargs, OP_RECV, "recv");
}

static Obj sock_recvfrom(Obj *args, size_t nargs, Obj kwnames)
{
    return recv_common(args, nargs, OP_RECVFROM, "recvfrom");
}

/* A writable buffer as a flat memoryview of bytes ('B'), or NULL + TypeError. */
static Obj writable_view(Obj buf, const char *meth)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = buf;
    r[1] = vm_call1((Obj)T_memoryview, r[0]);
    if (!r[1])
        goto out;
    Obj ro = vm_getattr_cstr(r[1], "readonly");
    if (!ro)
        goto out;
    if (ro == g_True) {
        err_format(E_TypeError, "%s() argument 'buffer' must be read-write bytes-like object, not %s", meth,
                   type_name(r[0]));
        goto out;
    }
    Obj fmt = str_from_cstr("B");
    res = fmt ? vm_call_method1(r[1], "cast", fmt) : NULL;
out:
    vm_unroots(r);
    return res;
}

/* recv_into and recvfrom_into: into a writable buffer (via a C copy: the call may wait) */
static Obj recv_into_common(Obj *args, size_t nargs, Obj kwnames, int op, const char *meth)
{
    static const char *const names[] = {"self", "buffer", "nbytes", "flags", NULL};
    Obj *a = vm_roots(5);
    Obj res = NULL;
    char *tmp = NULL;
    if (vm_parse_args(meth, args, nargs, kwnames, names, 2, 4, a) < 0 || !sock_self(a[0], meth))
        goto out;
    SockOp o = {.op = op};
    size_t want = 0;
    if ((a[2] && bufsize_arg(a[2], meth, &want) < 0) || int_arg_or(a[3], 0, &o.flags) < 0)
        goto out;
    a[4] = writable_view(a[1], meth);
    if (!a[4])
        goto out;
    int64_t cap = vm_len(a[4]);
    if (cap < 0)
        goto out;
    if (want == 0)
        want = (size_t)cap;
    else if ((int64_t)want > cap) {
        err_set(E_ValueError, "buffer too small for requested bytes");
        goto out;
    }
    tmp = malloc(want ? want : 1);
    if (!tmp) {
        err_nomemory();
        goto out;
    }
    Obj s = vm_unwrap(a[0]);
    o.fd = SOCK_FD(s);
    o.buf = tmp;
    o.len = want;
    ssize_t n = sock_call(&o, SOCK_TIMEOUT(s));
    if (n < 0) {
        call_failed(n, o.err);
        goto out;
    }
    Obj *c = vm_roots(2);
    c[0] = bytes_new(tmp, (size_t)n);
    c[1] = c[0] ? slice_new(MAKE_SMALLINT(0), int_from_i64(n), g_None) : NULL;
    int rc = c[1] ? vm_setitem(a[4], c[1], c[0]) : -1;
    vm_unroots(c);
    if (rc == 0 && op == OP_RECVFROM) {
        a[2] = sockaddr_obj((struct sockaddr *)&o.addr, o.addrlen);
        res = a[2] ? tuple_pack(2, int_from_i64(n), a[2]) : NULL;
    } else if (rc == 0) {
        res = int_from_i64(n);
    }
out:
    free(tmp);
    vm_unroots(a);
    return res;
}

static Obj sock_recv_into(Obj *args, size_t nargs, Obj kwnames)
{
    return recv_into_common(args, nargs, kwnames, OP_RECV, "recv_into");
}

static Obj sock_recvfrom_into(Obj *args, size_t nargs, Obj kwnames)
{
    return recv_into_common(args, nargs, kwnames, OP_RECVFROM, "recvfrom_into");
}

/* sendmsg(buffers[, ancdata[, flags[, address]]]): the buffers and the
 * ancillary (level, type, data) items copied into one C message first. */
static Obj sock_sendmsg(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("sendmsg");
    Obj *r = vm_roots(3);
    Obj res = NULL;
    struct iovec *iov = NULL;
    char *control = NULL;
    int64_t niov = 0;
    SockOp o = {.op = OP_SENDMSG};
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    r[0] = vm_list_from_iter(args[1]);
    if (!r[0])
        goto out;
    if (nargs > 2 && !IS_NONE(args[2])) {
        r[1] = vm_list_from_iter(args[2]);
        if (!r[1])
            goto out;
    }
    if (flags_arg(args, nargs, 3, &o.flags) < 0)
        goto out;
    if (nargs > 4 && !IS_NONE(args[4])) {
        if (sockaddr_arg(SOCK_FAMILY(vm_unwrap(args[0])), args[4], "sendmsg", &o.addr, &o.addrlen) < 0)
            goto out;
        msg.msg_name = &o.addr;
        msg.msg_namelen = o.addrlen;
    }
    int64_t n = LIST_LEN(r[0]);
    iov = calloc((size_t)n + 1, sizeof *iov);
    if (!iov) {
        err_nomemory();
        goto out;
    }
    for (; niov < n; niov++) {
        size_t len;
        char *d = copy_data(LIST_ITEMS(r[0])[niov], &len);
        if (!d)
            goto out;
        iov[niov].iov_base = d;
        iov[niov].iov_len = len;
    }
    msg.msg_iov = iov;
    msg.msg_iovlen = (size_t)n;
    if (r[1]) {
        int64_t na = LIST_LEN(r[1]);
        size_t space = 0;
        for (int64_t i = 0; i < na; i++) {
            Obj item = vm_unwrap(LIST_ITEMS(r[1])[i]);
            const char *p;
            int64_t len;
            if (!IS_TUPLE(item) || TUPLE(item)->length != 3 || !bytes_like(vm_unwrap(TUPLE(item)->items[2]), &p, &len)) {
                err_set(E_TypeError, "[sendmsg() ancillary data items]() argument must be sequence of length 3, "
                                     "not a different object");
                goto out;
            }
            space += CMSG_SPACE((size_t)len);
        }
        if (space) {
            control = calloc(1, space);
            if (!control) {
                err_nomemory();
                goto out;
            }
            msg.msg_control = control;
            msg.msg_controllen = space;
            struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
            for (int64_t i = 0; i < na; i++) {
                Obj item = vm_unwrap(LIST_ITEMS(r[1])[i]);
                int level, type;
                if (int_arg_or(TUPLE(item)->items[0], 0, &level) < 0 || int_arg_or(TUPLE(vm_unwrap(LIST_ITEMS(r[1])[i]))->items[1], 0, &type) < 0)
                    goto out;
                item = vm_unwrap(LIST_ITEMS(r[1])[i]);
                const char *p;
                int64_t len;
                bytes_like(vm_unwrap(TUPLE(item)->items[2]), &p, &len);
                c->cmsg_level = level;
                c->cmsg_type = type;
                c->cmsg_len = CMSG_LEN((size_t)len);
                memcpy(CMSG_DATA(c), p, (size_t)len);
                c = CMSG_NXTHDR(&msg, c);
            }
        }
    }
    Obj sk = vm_unwrap(args[0]);
    o.fd = SOCK_FD(sk);
    o.msg = &msg;
    ssize_t got = sock_call(&o, SOCK_TIMEOUT(sk));
    if (got < 0)
        call_failed(got, o.err);
    else
        res = int_from_i64(got);
out:
    for (int64_t i = 0; i < niov; i++)
        free(iov[i].iov_base);
    free(iov);
    free(control);
    vm_unroots(r);
    return res;
}

/* recvmsg(bufsize[, ancbufsize[, flags]]) -> (data, ancdata, msg_flags, address) */
static Obj sock_recvmsg(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("recvmsg");
    size_t bufsize, ancsize = 0;
    SockOp o = {.op = OP_RECVMSG};
    if (bufsize_arg(args[1], "recvmsg", &bufsize) < 0)
        return NULL;
    if (nargs > 2) {
        int64_t a;
        if (vm_index_i64(args[2], &a) < 0)
            return NULL;
        if (a < 0) {
            err_set(E_ValueError, "negative buffer size in recvmsg()");
            return NULL;
        }
        ancsize = (size_t)a;
    }
    if (flags_arg(args, nargs, 3, &o.flags) < 0)
        return NULL;
    char *buf = malloc(bufsize ? bufsize : 1);
    char *control = ancsize ? calloc(1, ancsize) : NULL;
    if (!buf || (ancsize && !control)) {
        free(buf);
        free(control);
        return err_nomemory();
    }
    struct iovec iov = {.iov_base = buf, .iov_len = bufsize};
    struct msghdr msg = {.msg_name = &o.addr, .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
                         .msg_controllen = ancsize};
    s = vm_unwrap(args[0]);
    o.fd = SOCK_FD(s);
    o.msg = &msg;
    ssize_t got = sock_call(&o, SOCK_TIMEOUT(s));
    Obj *r = vm_roots(4);
    Obj res = NULL;
    if (got < 0) {
        call_failed(got, o.err);
        goto out;
    }
    r[0] = bytes_new(buf, (size_t)got);
    r[1] = r[0] ? list_new(0) : NULL;
    if (!r[1])
        goto out;
    if (ancsize) {
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
            size_t dlen = c->cmsg_len - CMSG_LEN(0);
            r[2] = bytes_new((const char *)CMSG_DATA(c), dlen);
            Obj t = r[2] ? tuple_pack(3, MAKE_SMALLINT(c->cmsg_level), MAKE_SMALLINT(c->cmsg_type), r[2]) : NULL;
            if (!t || list_append(r[1], t) < 0)
                goto out;
        }
    }
    r[2] = msg.msg_namelen ? sockaddr_obj((struct sockaddr *)&o.addr, msg.msg_namelen) : g_None;
    if (r[2])
        res = tuple_pack(4, r[0], r[1], MAKE_SMALLINT(msg.msg_flags), r[2]);
out:
    free(buf);
    free(control);
    vm_unroots(r);
    return res;
}

static Obj sock_shutdown(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("shutdown");
    int how;
    if (int_arg_or(args[1], 0, &how) < 0)
        return NULL;
    vm_tx_become_inevitable();
    if (shutdown(SOCK_FD(vm_unwrap(args[0])), how) < 0)
        return raise_errno(errno);
    return g_None;
}

static Obj sock_setsockopt(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("setsockopt");
    int level, opt;
    if (int_arg_or(args[1], 0, &level) < 0 || int_arg_or(args[2], 0, &opt) < 0)
        return NULL;
    Obj v = vm_unwrap(args[3]);
    int rc;
    if (nargs == 5) {   /* setsockopt(level, optname, None, optlen) */
        if (!IS_NONE(v)) {
            err_set(E_TypeError, "setsockopt() argument 3 must be NoneType, not int");
            return NULL;
        }
        int64_t optlen;
        if (vm_index_i64(args[4], &optlen) < 0)
            return NULL;
        vm_tx_become_inevitable();
        rc = setsockopt(SOCK_FD(vm_unwrap(args[0])), level, opt, NULL, (socklen_t)optlen);
    } else if (IS_INT(v)) {
        int iv;
        if (int_arg_or(v, 0, &iv) < 0)
            return NULL;
        vm_tx_become_inevitable();
        rc = setsockopt(SOCK_FD(vm_unwrap(args[0])), level, opt, &iv, sizeof iv);
    } else {
        size_t n;
        char *data = copy_data(args[3], &n);
        if (!data)
            return NULL;
        vm_tx_become_inevitable();
        rc = setsockopt(SOCK_FD(vm_unwrap(args[0])), level, opt, data, (socklen_t)n);
        int e = errno;
        free(data);
        errno = e;
    }
    if (rc < 0)
        return raise_errno(errno);
    return g_None;
}

static Obj sock_getsockopt(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("getsockopt");
    int level, opt;
    if (int_arg_or(args[1], 0, &level) < 0 || int_arg_or(args[2], 0, &opt) < 0)
        return NULL;
    int fd = SOCK_FD(s);
    if (nargs < 4) {
        int v = 0;
        socklen_t l = sizeof v;
        if (getsockopt(fd, level, opt, &v, &l) < 0)
            return raise_errno(errno);
        return MAKE_SMALLINT(v);
    }
    int64_t buflen;
    if (vm_index_i64(args[3], &buflen) < 0)
        return NULL;
    if (buflen <= 0 || buflen > 1024) {
        err_set(E_OSError, "getsockopt buflen out of range");
        return NULL;
    }
    char buf[1024];
    socklen_t l = (socklen_t)buflen;
    if (getsockopt(fd, level, opt, buf, &l) < 0)
        return raise_errno(errno);
    return bytes_new(buf, l);
}

static Obj name_common(Obj *args, bool peer, const char *meth)
{
    Obj s = sock_self(args[0], meth);
    if (!s)
        return NULL;
    struct sockaddr_storage sa;
    memset(&sa, 0, sizeof sa);
    socklen_t l = sizeof sa;
    int rc = peer ? getpeername(SOCK_FD(s), (struct sockaddr *)&sa, &l)
                  : getsockname(SOCK_FD(s), (struct sockaddr *)&sa, &l);
    if (rc < 0)
        return raise_errno(errno);
    if (l == 0 && SOCK_FAMILY(s) == AF_UNIX)
        return str_from_cstr("");
    return sockaddr_obj((struct sockaddr *)&sa, l);
}

static Obj sock_getsockname(Obj *args, size_t nargs, Obj kwnames)
{
    return name_common(args, false, "getsockname");
}

static Obj sock_getpeername(Obj *args, size_t nargs, Obj kwnames)
{
    return name_common(args, true, "getpeername");
}

static Obj sock_repr(Obj self)
{
    Obj s = vm_unwrap(self);
    return str_from_format("<socket object, fd=%d, family=%d, type=%d, proto=%d>", SOCK_FD(s), SOCK_FAMILY(s),
                           SOCK_TYPE(s), SOCK_PROTO(s));
}

static Obj sock_enter(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("__enter__");
    (void)s;
    return args[0];
}

static Obj sock_exit(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("__exit__");
    (void)s;
    Obj r = vm_call_method(args[0], "close", NULL, 0);
    return r ? g_None : NULL;
}

static const MethodDef socket_methods[] = {
    {"fileno", sock_fileno, METH_NOARGS, NULL},
    {"close", sock_close, METH_NOARGS, NULL},
    {"detach", sock_detach, METH_NOARGS, NULL},
    {"__del__", sock_del, METH_NOARGS, NULL},
    {"dup", sock_dup, METH_NOARGS, NULL},
    {"bind", sock_bind, METH_O, NULL},
    {"listen", sock_listen, METH_ARGS(0, 1), NULL},
    {"_accept", sock_accept, METH_NOARGS, NULL},
    {"connect", sock_connect, METH_O, NULL},
    {"connect_ex", sock_connect_ex, METH_O, NULL},
    {"send", sock_send, METH_ARGS(1, 2), NULL},
    {"sendall", sock_sendall, METH_ARGS(1, 2), NULL},
    {"sendto", sock_sendto, METH_ARGS(0, 0xff), NULL},
    {"recv", sock_recv, METH_ARGS(1, 2), NULL},
    {"recvfrom", sock_recvfrom, METH_ARGS(1, 2), NULL},
    {"recv_into", sock_recv_into, METH_KW, NULL},
    {"recvfrom_into", sock_recvfrom_into, METH_KW, NULL},
    {"sendmsg", sock_sendmsg, METH_ARGS(1, 4), NULL},
    {"recvmsg", sock_recvmsg, METH_ARGS(1, 3), NULL},
    {"shutdown", sock_shutdown, METH_O, NULL},
    {"settimeout", sock_settimeout, METH_O, NULL},
    {"gettimeout", sock_gettimeout, METH_NOARGS, NULL},
    {"setblocking", sock_setblocking, METH_O, NULL},
    {"getblocking", sock_getblocking, METH_NOARGS, NULL},
    {"setsockopt", sock_setsockopt, METH_ARGS(3, 4), NULL},
    {"getsockopt", sock_getsockopt, METH_ARGS(2, 3), NULL},
    {"getsockname", sock_getsockname, METH_NOARGS, NULL},
    {"getpeername", sock_getpeername, METH_NOARGS, NULL},
    {"__enter__", sock_enter, METH_NOARGS, NULL},
    {"__exit__", sock_exit, METH_ARGS(0, 0xfe), NULL},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* Module functions                                                    */
/* ------------------------------------------------------------------ */

static Obj m_gethostname(Obj *args, size_t nargs, Obj kwnames)
{
    char buf[256];
    if (gethostname(buf, sizeof buf) < 0)
        return raise_errno(errno);
    buf[sizeof buf - 1] = 0;
    return str_from_os_cstr(buf);
}

static Obj m_gethostbyname(Obj *args, size_t nargs, Obj kwnames)
{
    char *host = host_cstr(args[0]);
    if (!host)
        return NULL;
    struct sockaddr_storage sa;
    socklen_t len;
    int rc = resolve_host(host, AF_INET, &sa, &len);
    free(host);
    if (rc < 0)
        return NULL;
    char buf[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &((struct sockaddr_in *)&sa)->sin_addr, buf, sizeof buf);
    return str_from_cstr(buf);
}

/* (name, aliases, addresses) of a struct hostent */
static Obj hostent_obj(struct hostent *h)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = str_from_os_cstr(h->h_name);
    r[1] = r[0] ? list_new(0) : NULL;
    r[2] = r[1] ? list_new(0) : NULL;
    if (!r[2])
        goto out;
    for (char **p = h->h_aliases; p && *p; p++) {
        Obj a = str_from_os_cstr(*p);
        if (!a || list_append(r[1], a) < 0)
            goto out;
    }
    for (char **p = h->h_addr_list; p && *p; p++) {
        char buf[INET6_ADDRSTRLEN];
        inet_ntop(h->h_addrtype, *p, buf, sizeof buf);
        Obj a = str_from_cstr(buf);
        if (!a || list_append(r[2], a) < 0)
            goto out;
    }
    res = tuple_pack(3, r[0], r[1], r[2]);
out:
    vm_unroots(r);
    return res;
}

/* gethostbyname_r / gethostbyaddr_r with a growing buffer, as a blocking call. */
static Obj hostent_lookup(const char *name, const void *addr, socklen_t alen, int af)
{
    size_t cap = 4096;
    for (;;) {
        char *buf = malloc(cap);
        if (!buf)
            return err_nomemory();
        struct hostent he, *res = NULL;
        int herr = 0;
        vm_blocking_begin();
        int rc = name ? gethostbyname_r(name, &he, buf, cap, &res, &herr)
                      : gethostbyaddr_r(addr, alen, af, &he, buf, cap, &res, &herr);
        vm_blocking_end();
        if (rc == ERANGE) {
            free(buf);
            cap *= 2;
            continue;
        }
        Obj out;
        if (!res)
            out = raise_code(E_herror, herr ? herr : HOST_NOT_FOUND, hstrerror(herr ? herr : HOST_NOT_FOUND));
        else
            out = hostent_obj(res);
        free(buf);
        return out;
    }
}

static Obj m_gethostbyname_ex(Obj *args, size_t nargs, Obj kwnames)
{
    char *host = host_cstr(args[0]);
    if (!host)
        return NULL;
    Obj r = hostent_lookup(host, NULL, 0, AF_INET);
    free(host);
    return r;
}

static Obj m_gethostbyaddr(Obj *args, size_t nargs, Obj kwnames)
{
    char *host = host_cstr(args[0]);
    if (!host)
        return NULL;
    struct sockaddr_storage sa;
    socklen_t len;
    int rc = resolve_host(host, AF_UNSPEC, &sa, &len);
    free(host);
    if (rc < 0)
        return NULL;
    if (sa.ss_family == AF_INET6)
        return hostent_lookup(NULL, &((struct sockaddr_in6 *)&sa)->sin6_addr, sizeof(struct in6_addr), AF_INET6);
    return hostent_lookup(NULL, &((struct sockaddr_in *)&sa)->sin_addr, sizeof(struct in_addr), AF_INET);
}

/* getaddrinfo(host, port, family=0, type=0, proto=0, flags=0) */
static Obj m_getaddrinfo(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"host", "port", "family", "type", "proto", "flags", NULL};
    Obj *a = vm_roots(9);
    Obj res = NULL;
    char *host = NULL, *port = NULL;
    struct addrinfo *ai = NULL;
    if (vm_parse_args("getaddrinfo", args, nargs, kwnames, names, 2, 6, a) < 0)
        goto out;
    int family, type, proto, flags;
    if (int_arg_or(a[2], 0, &family) < 0 || int_arg_or(a[3], 0, &type) < 0 || int_arg_or(a[4], 0, &proto) < 0 ||
        int_arg_or(a[5], 0, &flags) < 0)
        goto out;
    if (!IS_NONE(a[0]) && !(host = host_cstr(a[0])))
        goto out;
    Obj p = vm_unwrap(a[1]);
    if (IS_INT(p)) {
        int64_t v;
        if (vm_index_i64(p, &v) < 0)
            goto out;
        port = malloc(24);
        if (!port) {
            err_nomemory();
            goto out;
        }
        snprintf(port, 24, "%lld", (long long)v);
    } else if (IS_STR(p) || IS_BYTES(p)) {
        if (!(port = host_cstr(p)))
            goto out;
    } else if (!IS_NONE(p)) {
        err_set(E_OSError, "Int or String expected");
        goto out;
    }
    struct addrinfo hints = {.ai_family = family, .ai_socktype = type, .ai_protocol = proto, .ai_flags = flags};
    vm_blocking_begin();
    int rc = getaddrinfo(host, port, &hints, &ai);
    int e = errno;
    vm_blocking_end();
    if (rc != 0) {
        ai = NULL;
        raise_gai(rc, e);
        goto out;
    }
    a[6] = list_new(0);
    if (!a[6])
        goto out;
    for (struct addrinfo *q = ai; q; q = q->ai_next) {
        a[7] = str_from_cstr(q->ai_canonname ? q->ai_canonname : "");
        a[8] = a[7] ? sockaddr_obj(q->ai_addr, q->ai_addrlen) : NULL;
        Obj t = a[8] ? tuple_pack(5, MAKE_SMALLINT(q->ai_family), MAKE_SMALLINT(q->ai_socktype),
                                  MAKE_SMALLINT(q->ai_protocol), a[7], a[8])
                     : NULL;
        if (!t || list_append(a[6], t) < 0)
            goto out;
    }
    res = a[6];
out:
    if (ai)
        freeaddrinfo(ai);
    free(host);
    free(port);
    vm_unroots(a);
    return res;
}

static Obj m_getnameinfo(Obj *args, size_t nargs, Obj kwnames)
{
    Obj sa = vm_unwrap(args[0]);
    if (!IS_TUPLE(sa)) {
        err_set(E_TypeError, "getnameinfo() argument 1 must be a tuple");
        return NULL;
    }
    int64_t n = TUPLE(sa)->length;
    if (n < 2 || n > 4) {
        err_set(E_TypeError, "getnameinfo(): illegal sockaddr argument");
        return NULL;
    }
    int flags;
    if (int_arg_or(args[1], 0, &flags) < 0)
        return NULL;
    int port;
    int64_t flow = 0, scope = 0;
    if (port_arg(TUPLE(vm_unwrap(args[0]))->items[1], "getnameinfo", &port) < 0)
        return NULL;
    if (n > 2 && vm_index_i64(TUPLE(vm_unwrap(args[0]))->items[2], &flow) < 0)
        return NULL;
    if (n > 3 && vm_index_i64(TUPLE(vm_unwrap(args[0]))->items[3], &scope) < 0)
        return NULL;
    if (flow < 0 || flow > 0xfffff) {
        err_set(E_OverflowError, "getnameinfo(): flowinfo must be 0-1048575.");
        return NULL;
    }
    char *host = host_cstr(TUPLE(vm_unwrap(args[0]))->items[0]);
    if (!host)
        return NULL;
    char pbuf[16];
    snprintf(pbuf, sizeof pbuf, "%d", port);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_DGRAM, .ai_flags = AI_NUMERICHOST}, *ai;
    vm_blocking_begin();
    int rc = getaddrinfo(host, pbuf, &hints, &ai);
    int e = errno;
    vm_blocking_end();
    free(host);
    if (rc != 0)
        return raise_gai(rc, e);
    if (ai->ai_next) {
        freeaddrinfo(ai);
        err_set(E_OSError, "sockaddr resolved to multiple addresses");
        return NULL;
    }
    struct sockaddr_storage ss;
    memcpy(&ss, ai->ai_addr, ai->ai_addrlen);
    socklen_t len = ai->ai_addrlen;
    freeaddrinfo(ai);
    if (ss.ss_family == AF_INET) {
        if (n != 2) {
            err_set(E_OSError, "IPv4 sockaddr must be 2 tuple");
            return NULL;
        }
    } else if (ss.ss_family == AF_INET6) {
        ((struct sockaddr_in6 *)&ss)->sin6_flowinfo = htonl((uint32_t)flow);
        ((struct sockaddr_in6 *)&ss)->sin6_scope_id = (uint32_t)scope;
    }
    char hbuf[NI_MAXHOST], sbuf[NI_MAXSERV];
    vm_blocking_begin();
    rc = getnameinfo((struct sockaddr *)&ss, len, hbuf, sizeof hbuf, sbuf, sizeof sbuf, flags);
    e = errno;
    vm_blocking_end();
    if (rc != 0)
        return raise_gai(rc, e);
    Obj *r = vm_roots(2);
    r[0] = str_from_os_cstr(hbuf);
    r[1] = r[0] ? str_from_os_cstr(sbuf) : NULL;
    Obj res = r[1] ? tuple_pack(2, r[0], r[1]) : NULL;
    vm_unroots(r);
    return res;
}

/* An optional protocol name (None or absent: any). */
static int proto_name_arg(Obj *args, size_t nargs, size_t i, char **out)
{
    *out = NULL;
    if (nargs <= i || IS_NONE(args[i]))
        return 0;
    if (!IS_STR(vm_unwrap(args[i]))) {
        err_format(E_TypeError, "argument %zu must be str, not %s", i + 1, type_name(args[i]));
        return -1;
    }
    *out = str_to_os(vm_unwrap(args[i]), NULL);
    return *out ? 0 : -1;
}

static Obj m_getservbyname(Obj *args, size_t nargs, Obj kwnames)
{
    if (!IS_STR(vm_unwrap(args[0]))) {
        err_format(E_TypeError, "getservbyname() argument 1 must be str, not %s", type_name(args[0]));
        return NULL;
    }
    char *proto;
    if (proto_name_arg(args, nargs, 1, &proto) < 0)
        return NULL;
    char *name = str_to_os(vm_unwrap(args[0]), NULL);
    if (!name) {
        free(proto);
        return NULL;
    }
    struct servent se, *res = NULL;
    char buf[4096];
    vm_blocking_begin();
    getservbyname_r(name, proto, &se, buf, sizeof buf, &res);
    vm_blocking_end();
    free(name);
    free(proto);
    if (!res) {
        err_set(E_OSError, "service/proto not found");
        return NULL;
    }
    return MAKE_SMALLINT(ntohs((uint16_t)res->s_port));
}

static Obj m_getservbyport(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t port;
    if (vm_index_i64(args[0], &port) < 0)
        return NULL;
    if (port < 0 || port > 65535) {
        err_set(E_OverflowError, "getservbyport: port must be 0-65535.");
        return NULL;
    }
    char *proto;
    if (proto_name_arg(args, nargs, 1, &proto) < 0)
        return NULL;
    struct servent se, *res = NULL;
    char buf[4096];
    vm_blocking_begin();
    getservbyport_r(htons((uint16_t)port), proto, &se, buf, sizeof buf, &res);
    vm_blocking_end();
    free(proto);
    if (!res) {
        err_set(E_OSError, "port/proto not found");
        return NULL;
    }
    return str_from_os_cstr(res->s_name);
}

static Obj m_getprotobyname(Obj *args, size_t nargs, Obj kwnames)
{
    if (!IS_STR(vm_unwrap(args[0]))) {
        err_format(E_TypeError, "getprotobyname() argument 1 must be str, not %s", type_name(args[0]));
        return NULL;
    }
    char *name = str_to_os(vm_unwrap(args[0]), NULL);
    if (!name)
        return NULL;
    struct protoent pe, *res = NULL;
    char buf[4096];
    vm_blocking_begin();
    getprotobyname_r(name, &pe, buf, sizeof buf, &res);
    vm_blocking_end();
    free(name);
    if (!res) {
        err_set(E_OSError, "protocol not found");
        return NULL;
    }
    return MAKE_SMALLINT(res->p_proto);
}

static Obj m_inet_aton(Obj *args, size_t nargs, Obj kwnames)
{
    if (!IS_STR(vm_unwrap(args[0]))) {
        err_format(E_TypeError, "inet_aton() argument 1 must be str, not %s", type_name(args[0]));
        return NULL;
    }
    char *s = str_to_os(vm_unwrap(args[0]), NULL);
    if (!s)
        return NULL;
    struct in_addr in;
    int ok = inet_aton(s, &in);
    free(s);
    if (!ok) {
        err_set(E_OSError, "illegal IP address string passed to inet_aton");
        return NULL;
    }
    return bytes_new((const char *)&in, 4);
}

static Obj m_inet_ntoa(Obj *args, size_t nargs, Obj kwnames)
{
    const char *p;
    int64_t n;
    if (!bytes_like(vm_unwrap(args[0]), &p, &n)) {
        err_format(E_TypeError, "a bytes-like object is required, not '%s'", type_name(args[0]));
        return NULL;
    }
    if (n != 4) {
        err_set(E_OSError, "packed IP wrong length for inet_ntoa");
        return NULL;
    }
    char buf[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, p, buf, sizeof buf);
    return str_from_cstr(buf);
}

static Obj m_inet_pton(Obj *args, size_t nargs, Obj kwnames)
{
    int af;
    if (int_arg_or(args[0], 0, &af) < 0)
        return NULL;
    if (!IS_STR(vm_unwrap(args[1]))) {
        err_format(E_TypeError, "inet_pton() argument 2 must be str, not %s", type_name(args[1]));
        return NULL;
    }
    char *s = str_to_os(vm_unwrap(args[1]), NULL);
    if (!s)
        return NULL;
    unsigned char out[16];
    int rc = inet_pton(af, s, out);
    int e = errno;
    free(s);
    if (rc < 0)
        return raise_errno(e);
    if (rc == 0) {
        err_set(E_OSError, "illegal IP address string passed to inet_pton");
        return NULL;
    }
    return bytes_new((const char *)out, af == AF_INET ? 4 : 16);
}

static Obj m_inet_ntop(Obj *args, size_t nargs, Obj kwnames)
{
    int af;
    if (int_arg_or(args[0], 0, &af) < 0)
        return NULL;
    const char *p;
    int64_t n;
    if (!bytes_like(vm_unwrap(args[1]), &p, &n)) {
        err_format(E_TypeError, "a bytes-like object is required, not '%s'", type_name(args[1]));
        return NULL;
    }
    if (af != AF_INET && af != AF_INET6) {
        err_set(E_ValueError, "unknown address family");
        return NULL;
    }
    if (n != (af == AF_INET ? 4 : 16)) {
        err_set(E_ValueError, "invalid length of packed IP address string");
        return NULL;
    }
    char bin[16], buf[INET6_ADDRSTRLEN];
    memcpy(bin, p, (size_t)n);
    if (!inet_ntop(af, bin, buf, sizeof buf))
        return raise_errno(errno);
    return str_from_cstr(buf);
}

/* htons and friends: an int in range, else CPython's OverflowError. */
static int uint_arg(Obj v, const char *fname, int bits, uint64_t *out)
{
    if (!IS_INT(vm_unwrap(v))) {
        err_format(E_TypeError, "'%s' object cannot be interpreted as an integer", type_name(v));
        return -1;
    }
    int64_t x;
    if (vm_index_i64(v, &x) < 0)
        return -1;
    if (x < 0) {
        if (bits == 16)
            err_format(E_OverflowError, "%s: can't convert negative Python int to C 16-bit unsigned integer", fname);
        else
            err_set(E_OverflowError, "can't convert negative value to unsigned int");
        return -1;
    }
    if (bits == 16 && x > 0xffff) {
        err_format(E_OverflowError, "%s: Python int too large to convert to C 16-bit unsigned integer", fname);
        return -1;
    }
    if (bits == 32 && x > 0xffffffffLL) {
        err_set(E_OverflowError, "int larger than 32 bits");
        return -1;
    }
    *out = (uint64_t)x;
    return 0;
}

static Obj m_htons(Obj *args, size_t nargs, Obj kwnames)
{
    uint64_t x;
    return uint_arg(args[0], "htons", 16, &x) < 0 ? NULL : MAKE_SMALLINT(htons((uint16_t)x));
}

static Obj m_ntohs(Obj *args, size_t nargs, Obj kwnames)
{
    uint64_t x;
    return uint_arg(args[0], "ntohs", 16, &x) < 0 ? NULL : MAKE_SMALLINT(ntohs((uint16_t)x));
}

static Obj m_htonl(Obj *args, size_t nargs, Obj kwnames)
{
    uint64_t x;
    return uint_arg(args[0], "htonl", 32, &x) < 0 ? NULL : int_from_i64(htonl((uint32_t)x));
}

static Obj m_ntohl(Obj *args, size_t nargs, Obj kwnames)
{
    uint64_t x;
    return uint_arg(args[0], "ntohl", 32, &x) < 0 ? NULL : int_from_i64(ntohl((uint32_t)x));
}

static Obj m_socketpair(Obj *args, size_t nargs, Obj kwnames)
{
    int family, type, proto;
    if (int_arg_or(nargs > 0 ? args[0] : NULL, AF_UNIX, &family) < 0 ||
        int_arg_or(nargs > 1 ? args[1] : NULL, SOCK_STREAM, &type) < 0 ||
        int_arg_or(nargs > 2 ? args[2] : NULL, 0, &proto) < 0)
        return NULL;
    vm_tx_become_inevitable();
    int sv[2];
    if (socketpair(family, type | SOCK_CLOEXEC, proto, sv) < 0)
        return raise_errno(errno);
    type &= ~(SOCK_NONBLOCK | SOCK_CLOEXEC);
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = sock_from_fd(sv[0], family, type, proto);
    r[1] = r[0] ? sock_from_fd(sv[1], family, type, proto) : NULL;
    if (r[1])
        res = tuple_pack(2, r[0], r[1]);
    if (!r[1]) {
        close(sv[0]);
        close(sv[1]);
    }
    vm_unroots(r);
    return res;
}

static Obj m_dup(Obj *args, size_t nargs, Obj kwnames)
{
    int fd;
    if (IS_NONE(args[0])) {   /* int_arg_or would take None for the default */
        err_set(E_TypeError, "'NoneType' object cannot be interpreted as an integer");
        return NULL;
    }
    if (int_arg_or(args[0], 0, &fd) < 0)
        return NULL;
    vm_tx_become_inevitable();
    int nfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (nfd < 0)
        return raise_errno(errno);
    return MAKE_SMALLINT(nfd);
}

static Obj m_close(Obj *args, size_t nargs, Obj kwnames)
{
    int fd;
    if (IS_NONE(args[0])) {   /* int_arg_or would take None for the default */
        err_set(E_TypeError, "'NoneType' object cannot be interpreted as an integer");
        return NULL;
    }
    if (int_arg_or(args[0], 0, &fd) < 0)
        return NULL;
    vm_tx_become_inevitable();
    if (close(fd) < 0 && errno != ECONNRESET)
        return raise_errno(errno);
    return g_None;
}

static Obj m_getdefaulttimeout(Obj *args, size_t nargs, Obj kwnames)
{
    return timeout_obj(g_default_timeout);
}

static Obj m_setdefaulttimeout(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t t;
    if (timeout_arg(args[0], &t) < 0)
        return NULL;
    vm_tx_become_inevitable();   /* a C global: no abort undoes it */
    g_default_timeout = t;
    return g_None;
}

static Obj m_if_nameindex(Obj *args, size_t nargs, Obj kwnames)
{
    struct if_nameindex *ni = if_nameindex();
    if (!ni)
        return raise_errno(errno);
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = list_new(0);
    for (struct if_nameindex *p = ni; r[0] && p->if_index; p++) {
        r[1] = str_from_os_cstr(p->if_name);
        Obj t = r[1] ? tuple_pack(2, int_from_i64(p->if_index), r[1]) : NULL;
        if (!t || list_append(r[0], t) < 0)
            goto out;
    }
    res = r[0];
out:
    if_freenameindex(ni);
    vm_unroots(r);
    return res;
}

static Obj m_if_nametoindex(Obj *args, size_t nargs, Obj kwnames)
{
    char *name = host_cstr(args[0]);
    if (!name)
        return NULL;
    unsigned idx = if_nametoindex(name);
    free(name);
    if (idx == 0) {
        err_set(E_OSError, "no interface with this name");
        return NULL;
    }
    return int_from_i64(idx);
}

static Obj m_if_indextoname(Obj *args, size_t nargs, Obj kwnames)
{
    if (!IS_INT(vm_unwrap(args[0]))) {
        err_format(E_TypeError, "'%s' object cannot be interpreted as an integer", type_name(args[0]));
        return NULL;
    }
    int64_t idx;
    if (vm_index_i64(args[0], &idx) < 0)
        return NULL;
    if (idx < 0 || idx > UINT32_MAX) {
        err_set(E_OverflowError, "index must be 0-4294967295");   /* CPython: "Python int too large ..." */
        return NULL;
    }
    char buf[IF_NAMESIZE + 1];
    if (!if_indextoname((unsigned)idx, buf))
        return raise_errno(errno);
    return str_from_os_cstr(buf);
}

static Obj cmsg_common(Obj v, bool space)
{
    int64_t n;
    if (vm_index_i64(v, &n) < 0)
        return NULL;
    /* the result must fit a socklen_t as CPython checks it (31 bits) */
    int64_t limit = space ? (int64_t)INT32_MAX - (int64_t)CMSG_SPACE(1) : (int64_t)INT32_MAX - (int64_t)CMSG_LEN(0);
    if (n < 0 || n > limit) {
        err_format(E_OverflowError, "%s() argument out of range", space ? "CMSG_SPACE" : "CMSG_LEN");
        return NULL;
    }
    return int_from_i64(space ? (int64_t)CMSG_SPACE((size_t)n) : (int64_t)CMSG_LEN((size_t)n));
}

static Obj m_cmsg_len(Obj *args, size_t nargs, Obj kwnames)
{
    return cmsg_common(args[0], false);
}

static Obj m_cmsg_space(Obj *args, size_t nargs, Obj kwnames)
{
    return cmsg_common(args[0], true);
}

static const MethodDef socket_functions[] = {
    {"gethostname", m_gethostname, METH_NOARGS, NULL},
    {"gethostbyname", m_gethostbyname, METH_O, NULL},
    {"gethostbyname_ex", m_gethostbyname_ex, METH_O, NULL},
    {"gethostbyaddr", m_gethostbyaddr, METH_O, NULL},
    {"getaddrinfo", m_getaddrinfo, METH_KW, NULL},
    {"getnameinfo", m_getnameinfo, METH_ARGS(2, 2), NULL},
    {"getservbyname", m_getservbyname, METH_ARGS(1, 2), NULL},
    {"getservbyport", m_getservbyport, METH_ARGS(1, 2), NULL},
    {"getprotobyname", m_getprotobyname, METH_O, NULL},
    {"inet_aton", m_inet_aton, METH_O, NULL},
    {"inet_ntoa", m_inet_ntoa, METH_O, NULL},
    {"inet_pton", m_inet_pton, METH_ARGS(2, 2), NULL},
    {"inet_ntop", m_inet_ntop, METH_ARGS(2, 2), NULL},
    {"htons", m_htons, METH_O, NULL},
    {"ntohs", m_ntohs, METH_O, NULL},
    {"htonl", m_htonl, METH_O, NULL},
    {"ntohl", m_ntohl, METH_O, NULL},
    {"socketpair", m_socketpair, METH_ARGS(0, 3), NULL},
    {"dup", m_dup, METH_O, NULL},
    {"close", m_close, METH_O, NULL},
    {"getdefaulttimeout", m_getdefaulttimeout, METH_NOARGS, NULL},
    {"setdefaulttimeout", m_setdefaulttimeout, METH_O, NULL},
    {"if_nameindex", m_if_nameindex, METH_NOARGS, NULL},
    {"if_nametoindex", m_if_nametoindex, METH_O, NULL},
    {"if_indextoname", m_if_indextoname, METH_O, NULL},
    {"CMSG_LEN", m_cmsg_len, METH_O, NULL},
    {"CMSG_SPACE", m_cmsg_space, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static const struct { const char *name; long long value; } socket_constants[] = {
#include "socketconstants.h"
    /* what CPython defines itself where the C library has no macro */
    {"SOL_UDP", 17},
    {"IPPORT_USERRESERVED", 5000},
    {"UDPLITE_SEND_CSCOV", 10},
    {"UDPLITE_RECV_CSCOV", 11},
};

/* The types, once (under an inevitable transaction: C globals). */
static void socket_make_types(void)
{
    if (T_socket)
        return;
    TypeObj *t = (TypeObj *)type_new_builtin("_socket.socket", T_object, TID_ITER, TPF_BASETYPE | TPF_ITER_VALUE);
    VM_WRITE_RARE(t);
    t->flags |= TPF_HAS_DEL;   /* subclasses' instances are registered for finalization */
    t->tp_new = sock_new;
    t->tp_init = sock_init;
    t->tp_repr = sock_repr;
    type_add_methods(t, socket_methods);
    type_add_getset(t, "family", sock_family, NULL);
    type_add_getset(t, "type", sock_type, NULL);
    type_add_getset(t, "proto", sock_proto, NULL);
    type_add_getset(t, "timeout", sock_gettimeout, NULL);
    type_ready(t);
    E_herror = (TypeObj *)type_new_builtin("socket.herror", E_OSError, TID_EXCEPTION, TPF_BASETYPE | TPF_HAS_DICT);
    type_ready(E_herror);
    E_gaierror = (TypeObj *)type_new_builtin("socket.gaierror", E_OSError, TID_EXCEPTION, TPF_BASETYPE | TPF_HAS_DICT);
    type_ready(E_gaierror);
    T_socket = t;
}

Obj socket_module_init(void)
{
    vm_tx_become_inevitable();
    socket_make_types();
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = module_new("_socket");
    if (!r[0])
        goto out;
    module_add_functions(r[0], socket_functions);
    struct { const char *name; Obj v; } objs[] = {
        {"socket", (Obj)T_socket}, {"SocketType", (Obj)T_socket}, {"error", (Obj)E_OSError},
        {"herror", (Obj)E_herror}, {"gaierror", (Obj)E_gaierror}, {"timeout", (Obj)E_TimeoutError},
        {"has_ipv6", g_True},
    };
    for (size_t i = 0; i < ARRAY_LEN(objs); i++)
        if (module_add(r[0], objs[i].name, objs[i].v) < 0)
            goto out;
    for (size_t i = 0; i < ARRAY_LEN(socket_constants); i++) {
        r[1] = int_from_i64(socket_constants[i].value);
        if (!r[1] || module_add(r[0], socket_constants[i].name, r[1]) < 0)
            goto out;
    }
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
