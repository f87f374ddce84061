/* Intel RTM behind the HTM interface (htm.h). The functions using the RTM
 * instructions are compiled for them alone (target("rtm")); they run only
 * after tm_htm_rtm_available() said yes. xbegin inside a function that
 * returns is sound: an abort restores the registers and rolls the stack
 * writes back, so the abort lands in this frame as it was at xbegin. */
#include "htm.h"

#include <cpuid.h>
#include <immintrin.h>

__attribute__((target("rtm"), noinline)) static unsigned rtm_begin(const tm_htm_tx *tx)
{
    (void)tx;
    return _xbegin();
}

__attribute__((target("rtm"))) static void rtm_end(void) { _xend(); }

/* xabort takes its code as an immediate. */
__attribute__((target("rtm"))) static unsigned rtm_abort(uint8_t code)
{
    if (code == TM_HTM_CODE_GIL_HELD)
        _xabort(TM_HTM_CODE_GIL_HELD);
    else
        _xabort(TM_HTM_CODE_NEED_GIL);
    /* Outside a transaction xabort does nothing: report what begin would. */
    return TM_HTM_STATUS_EXPLICIT(code);
}

__attribute__((target("rtm"))) static bool rtm_test(void) { return _xtest() != 0; }

static void rtm_gil_taken(void) {}

const tm_htm_ops tm_htm_rtm = {
    .name = "rtm", .begin = rtm_begin, .end = rtm_end, .abort = rtm_abort, .test = rtm_test,
    .gil_taken = rtm_gil_taken, .rolls_back = true,
};

static bool cpuid_has_rtm(void)
{
    unsigned a, b, c, d;
    if (__get_cpuid_max(0, 0) < 7)
        return false;
    __cpuid_count(7, 0, a, b, c, d);
    (void)a, (void)c, (void)d;
    return (b >> 11) & 1;   /* CPUID.(EAX=7,ECX=0):EBX.RTM[bit 11] */
}

/* A few empty transactions: one must commit (microcode that disables TSX
 * can leave the CPUID bit set and abort every transaction). */
__attribute__((target("rtm"), noinline)) static bool test_transaction_commits(void)
{
    static volatile int probe;
    for (int i = 0; i < 64; i++) {
        if (_xbegin() == _XBEGIN_STARTED) {
            probe++;
            _xend();
            return true;
        }
    }
    return false;
}

bool tm_htm_rtm_available(void)
{
    return cpuid_has_rtm() && test_transaction_commits();
}
