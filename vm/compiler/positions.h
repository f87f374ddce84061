/* The encoder of the position table (positions.c), for compile.c. */
#ifndef TMPY_POSITIONS_H
#define TMPY_POSITIONS_H

#include <stddef.h>
#include <stdint.h>

/* One instruction word: its line (as in `lines`) and its source range
 * (pos_line 0: none; a column of -1: unknown). */
typedef struct PosWord {
    int32_t line, pos_line, end_line, col, end_col;
} PosWord;

/* The table for w[0..n): malloc'd bytes (*len of them), or NULL (out of memory). */
uint8_t *positions_encode(const PosWord *w, int64_t n, size_t *len);

#endif
