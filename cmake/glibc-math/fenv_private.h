/* mshconv computes in the default rounding mode: nothing to save or restore. */
#pragma once
#include <fenv.h>
#define SET_RESTORE_ROUND(r) ((void) 0)
#define SET_RESTORE_ROUND_NOEX(r) ((void) 0)
#define SET_RESTORE_ROUND_53BIT(r) ((void) 0)
#define SET_RESTORE_ROUNDF(r) ((void) 0)
