#!/bin/sh
# seed 500367, config seg4
cd "$(dirname "$0")" && PYTHONHASHSEED=0 TMPY_GC_DEBUG=move TMPY_SEGMENTS=4 TMPY_STM_CHECK=1 TMPY_STM_INJECT_ABORTS=0.01:557 TMPY_STM_SOLO=0 TMPY_TXLEN=1 timeout 60 ../../../../build/tmpy prog.py
