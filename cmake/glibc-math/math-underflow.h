/* Underflow checks only raise a flag: no value changes (math_private.h defines them away). */
#pragma once
#include <math_private.h>
