#include "tmrt.h"
#include "gc_internal.h"
#include "oldspace.h"
#include "stm.h"

#include <stdio.h>
#include <stdlib.h>

int tm_runtime_init(const tm_config *cfg, char *err, size_t errlen)
{
    tm_cfg = *cfg;
    tm_ticks_calibrate();
    if (tm_segments_init(cfg->nsegments, cfg->segment_size, cfg->nursery_size, err, errlen) != 0)
        return -1;
    tm_check_writes = TM_STM && cfg->stm_check;
    tm_oldspace_init();
    tm_gc_init();
    tm_stm_init();
    tm_check_init();
    tm_major_threshold = cfg->major_min;
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
