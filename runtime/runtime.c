#include "tmrt.h"
#include "gc_internal.h"
#include "oldspace.h"
#include "cards.h"
#include "stm.h"

#include <stdio.h>
#include <stdlib.h>

#if !TM_STM
/* --tm=htm: RTM if the CPU has it, the fake if a test asks for it, else
 * the GIL, said in one line. */
static int start_elision(const tm_config *cfg, char *err, size_t errlen)
{
    const tm_htm_ops *htm;
    if (cfg->htm_fake) {
        if (tm_htm_fake_configure(cfg->htm_fake, err, errlen) < 0)
            return -1;
        htm = &tm_htm_fake;
    } else if (tm_htm_rtm_available()) {
        htm = &tm_htm_rtm;
    } else {
        fprintf(stderr, "tmpy: RTM is not available on this CPU; running with the GIL\n");
        return 0;
    }
    tm_txlen_params params;
    tm_txlen_default_params(&params);
    params.constant = cfg->htm_txlen;
    tm_elision_enable(htm, &params);
    return 0;
}
#endif

int tm_runtime_init(const tm_config *cfg, char *err, size_t errlen)
{
    tm_cfg = *cfg;
    tm_ticks_calibrate();
    if (tm_segments_init(cfg->nsegments, cfg->segment_size, cfg->nursery_size, err, errlen) != 0)
        return -1;
    tm_check_writes = TM_STM && cfg->stm_check;
    tm_oldspace_init();
    tm_cards_init();
    tm_gc_init();
    tm_stm_init();
    tm_check_init();
    tm_major_threshold = cfg->major_min;
#if !TM_STM
    if (cfg->tm_htm && start_elision(cfg, err, errlen) < 0)
        return -1;
#endif
    return 0;
}

void tm_runtime_init_from_env(void)
{
    tm_config cfg;
    char err[512];
    tm_config_defaults(&cfg);
    if (tm_config_from_env(&cfg, err, sizeof err) != 0 || tm_runtime_init(&cfg, err, sizeof err) != 0) {
        fprintf(stderr, "tmpy: error: %s\n", err);
        exit(1);
    }
}
