/* Floating-point values are not narrowed on x86-64 (FLT_EVAL_METHOD 0). */
#pragma once
#define math_narrow_eval(x) (x)
