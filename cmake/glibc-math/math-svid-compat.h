/* No SVID error handling: the functions set errno themselves, as glibc 2.36 builds them. */
#pragma once
#define LIBM_SVID_COMPAT 0
#define _LIB_VERSION 0
