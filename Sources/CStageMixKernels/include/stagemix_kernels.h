#ifndef STAGEMIX_KERNELS_H
#define STAGEMIX_KERNELS_H

#include <stdint.h>

/* Pixel loops StageMixMedia runs on every tile of every frame, in C so the compiler vectorises
 * them, with an AVX2 build picked at run time where the CPU has it (SSE2 or plain C otherwise).
 * Callers are in StageMixMedia only (ColourConversion, TileFit). */

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

/* A plan for fitting a 4:2:0 picture of src_w x src_h into dst_w x dst_h (even sizes) in one pass
 * per output row: area averaging where an axis shrinks, bilinear where it grows, the filters and
 * their windows computed once (tile_fit.c). NULL for sizes out of range (shrinking past 64:1 too) or
 * without memory. */
typedef struct smk_fit smk_fit;
smk_fit *smk_fit_create(int src_w, int src_h, int dst_w, int dst_h);
void smk_fit_free(smk_fit *fit);

/* Writes the fitted picture into dst's planes (the tile's origin in each plane, and its strides),
 * converting each row with `m` (NULL: values kept) while it is in the cache. `portable`: the plain C
 * rows even where AVX2 is there (tests compare the two). Nothing outside the tile is written. */
void smk_fit_picture(smk_fit *fit, const uint8_t *const src[3], const int src_stride[3],
                     uint8_t *const dst[3], const int dst_stride[3], const smk_colour_matrix *m, int portable);

/* Whether smk_fit_picture runs its AVX2 rows on this CPU. */
int smk_fit_uses_avx2(void);

#endif
