#ifndef STAGEMIX_KERNELS_H
#define STAGEMIX_KERNELS_H

#include <stdint.h>

/* Pixel loops StageMixMedia runs on every tile of every frame, in C so the compiler vectorises
 * them, with an AVX2 build picked at run time where the CPU has it (SSE2 otherwise). Callers are
 * in StageMixMedia only (ColourConversion). */

/* Fixed-point coefficients of a Y'CbCr-to-Y'CbCr conversion at `shift` fractional bits:
 * Y' = (yY*Y + yU*(U-128) + yV*(V-128) + yK) >> shift, U' and V' the same without Y. */
typedef struct {
    int32_t yU, yV, yK, uU, uV, uK, vU, vV, vK;
    int32_t shift;
    /* Luma's own coefficient at 6 fractional bits. */
    int16_t yY6;
} smk_colour_matrix;

/* Converts `count` chroma samples of a row (in place allowed: u == u_out, v == v_out) and writes
 * each one's share of luma at 6 fractional bits, twice, into term[2*i] and term[2*i+1]. */
void smk_convert_chroma_row(const uint8_t *u, const uint8_t *v, uint8_t *u_out, uint8_t *v_out,
                            int16_t *term, int count, const smk_colour_matrix *m);

/* Y' = clamp((yY6*Y + term) >> 6) over `count` luma samples (in place allowed). */
void smk_convert_luma_row(const uint8_t *y, uint8_t *y_out, const int16_t *term, int count,
                          const smk_colour_matrix *m);

#endif
