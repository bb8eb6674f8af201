#ifndef CFREETYPE_SHIM_H
#define CFREETYPE_SHIM_H
#include <ft2build.h>
#include FT_FREETYPE_H

/* FT_LOAD_* flags and FT_HAS_KERNING are macros Swift does not import as typed values. */
static inline FT_Int32 cft_FT_LOAD_RENDER(void) { return FT_LOAD_RENDER; }
static inline FT_Int32 cft_FT_LOAD_DEFAULT(void) { return FT_LOAD_DEFAULT; }
static inline int cft_FT_HAS_KERNING(FT_Face face) { return FT_HAS_KERNING(face) ? 1 : 0; }
static inline FT_UInt cft_FT_KERNING_DEFAULT(void) { return FT_KERNING_DEFAULT; }
static inline int cft_FT_PIXEL_MODE_GRAY(void) { return FT_PIXEL_MODE_GRAY; }

#endif
