#ifndef CFFMPEG_SHIM_H
#define CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>

/* Swift cannot import FFERRTAG/AVERROR function-like macros. */
static inline int cff_AVERROR_EOF(void) { return AVERROR_EOF; }
static inline int cff_AVERROR_EAGAIN(void) { return AVERROR(EAGAIN); }
static inline int cff_AVERROR(int e) { return AVERROR(e); }
#endif
