#!/bin/sh
# seed 400006, config seg2
cd "$(dirname "$0")" && PYTHONHASHSEED=0 TMPY_SEGMENTS=2 TMPY_STM_CHECK=1 TMPY_STM_INJECT_ABORTS=0.2:568 TMPY_TXLEN=20 timeout 60 ../../../../build/tmpy prog.py
