#ifndef CFRIBIDI_SHIM_H
#define CFRIBIDI_SHIM_H
#include <fribidi.h>

/* FRIBIDI_PAR_ON is a macro of an enum value Swift does not import as a constant. */
static inline FriBidiParType cfb_FRIBIDI_PAR_ON(void) { return FRIBIDI_PAR_ON; }
#endif
