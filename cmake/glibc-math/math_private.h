/* What glibc's libm sources take from its internal math_private.h. */
#pragma once
#include <endian.h>
#include <stdbool.h>
#include <stdint.h>
#include <math.h>
#include <math-barriers.h>
#include <libm-alias-double.h>
typedef union { double value; struct { uint32_t lsw; uint32_t msw; } parts; uint64_t word; } ieee_double_shape_type;
#define EXTRACT_WORDS(ix0,ix1,d) do { ieee_double_shape_type ew_u; ew_u.value = (d); (ix0) = ew_u.parts.msw; (ix1) = ew_u.parts.lsw; } while (0)
#define EXTRACT_WORDS64(i,d) do { ieee_double_shape_type gh_u; gh_u.value = (d); (i) = gh_u.word; } while (0)
#define GET_HIGH_WORD(i,d) do { ieee_double_shape_type gh_u; gh_u.value = (d); (i) = gh_u.parts.msw; } while (0)
#define GET_LOW_WORD(i,d) do { ieee_double_shape_type gl_u; gl_u.value = (d); (i) = gl_u.parts.lsw; } while (0)
#define INSERT_WORDS(d,ix0,ix1) do { ieee_double_shape_type iw_u; iw_u.parts.msw = (ix0); iw_u.parts.lsw = (ix1); (d) = iw_u.value; } while (0)
#define INSERT_WORDS64(d,i) do { ieee_double_shape_type iw_u; iw_u.word = (i); (d) = iw_u.value; } while (0)
#define SET_HIGH_WORD(d,v) do { ieee_double_shape_type sh_u; sh_u.value = (d); sh_u.parts.msw = (v); (d) = sh_u.value; } while (0)
#define SET_LOW_WORD(d,v) do { ieee_double_shape_type sl_u; sl_u.value = (d); sl_u.parts.lsw = (v); (d) = sl_u.value; } while (0)
typedef union { float value; uint32_t word; } ieee_float_shape_type;
#define GET_FLOAT_WORD(i,d) do { ieee_float_shape_type gf_u; gf_u.value = (d); (i) = gf_u.word; } while (0)
#define SET_FLOAT_WORD(d,i) do { ieee_float_shape_type sf_u; sf_u.word = (i); (d) = sf_u.value; } while (0)
#define attribute_hidden
#define __glibc_likely(c) __builtin_expect((c), 1)
#define __glibc_unlikely(c) __builtin_expect((c), 0)
#define math_check_force_underflow(x) ((void) 0)
#define math_check_force_underflow_nonneg(x) ((void) 0)
#define math_check_force_underflow_complex(x) ((void) 0)
double __ieee754_sqrt (double);
#ifndef __always_inline
#define __always_inline __inline __attribute__((__always_inline__))
#endif
#include <errno.h>
#define __set_errno(e) (errno = (e))
static inline int __issignaling_d (double x) { uint64_t u; __builtin_memcpy (&u, &x, 8); return (u & 0x7ff8000000000000ull) == 0x7ff0000000000000ull && (u & 0x000fffffffffffffull) != 0; }
static inline int __issignaling_f (float x) { uint32_t u; __builtin_memcpy (&u, &x, 4); return (u & 0x7fc00000u) == 0x7f800000u && (u & 0x007fffffu) != 0; }
#define issignaling(x) _Generic ((x), float: __issignaling_f, default: __issignaling_d) (x)
