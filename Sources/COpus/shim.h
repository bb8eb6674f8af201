#ifndef COPUS_SHIM_H
#define COPUS_SHIM_H
#include <opus/opus.h>
#endif
