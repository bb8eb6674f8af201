#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
#include <zlib.h>

/* inflateInit2 is a macro (it passes the library's version and the stream's size); Swift cannot call it.
   windowBits 15 + 16: a gzip stream only, as Content-Encoding: gzip promises. */
static inline int czlib_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 16);
}
#endif
