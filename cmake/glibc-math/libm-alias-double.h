/* glibc's symbol aliases and versions: the Windows build names each function itself (dispatch.c). */
#pragma once
#define libm_alias_double(from, to)
#define libm_alias_float(from, to)
#define libm_alias_finite(from, to)
#define libm_alias_double_r(from, to, r)
#define libm_alias_float_r(from, to, r)
#define strong_alias(name, alias)
#define weak_alias(name, alias)
#define hidden_def(name)
#define libm_hidden_def(name)
#define versioned_symbol(lib, local, symbol, version)
