/* The functions mshconv calls, as glibc 2.36 computes them on x86-64: its FMA variant where the
   processor has FMA and AVX2, else its SSE2 one (glibc's choice; it also has an FMA4 variant for
   the few processors with FMA4 but no FMA, which run the SSE2 one here). */
double __sin_sse2 (double), __sin_fma (double), __cos_sse2 (double), __cos_fma (double);
double __ieee754_exp_sse2 (double), __ieee754_exp_fma (double);
double __ieee754_pow_sse2 (double, double), __ieee754_pow_fma (double, double);
double __ieee754_acos_sse2 (double), __ieee754_acos_fma (double);
double __ieee754_asin_sse2 (double), __ieee754_asin_fma (double);
double __log2_sse2 (double), __log2_fma (double), __hypot (double, double);
void __sincos_sse2 (double, double *, double *), __sincos_fma (double, double *, double *);
void __sincosf_sse2 (float, float *, float *), __sincosf_fma (float, float *, float *);
float __sinf_sse2 (float), __sinf_fma (float), __cosf_sse2 (float), __cosf_fma (float);
float __expf_sse2 (float), __expf_fma (float), __powf_sse2 (float, float), __powf_fma (float, float);
float __log2f_sse2 (float), __log2f_fma (float), __ieee754_acosf (float), __hypotf (float, float);

static int fma_usable (void)
{
  static int usable = -1;
  if (usable < 0)
    {
      __builtin_cpu_init ();
      usable = __builtin_cpu_supports ("fma") && __builtin_cpu_supports ("avx2");
    }
  return usable;
}

#define PICK(name, ...) (fma_usable () ? name##_fma (__VA_ARGS__) : name##_sse2 (__VA_ARGS__))
double sin (double x) { return PICK (__sin, x); }
double cos (double x) { return PICK (__cos, x); }
double exp (double x) { return PICK (__ieee754_exp, x); }
double pow (double x, double y) { return PICK (__ieee754_pow, x, y); }
double acos (double x) { return PICK (__ieee754_acos, x); }
double asin (double x) { return PICK (__ieee754_asin, x); }
double log2 (double x) { return PICK (__log2, x); }
void sincos (double x, double *s, double *c) { PICK (__sincos, x, s, c); }
void sincosf (float x, float *s, float *c) { PICK (__sincosf, x, s, c); }
double hypot (double x, double y) { return __hypot (x, y); }
float sinf (float x) { return PICK (__sinf, x); }
float cosf (float x) { return PICK (__cosf, x); }
float expf (float x) { return PICK (__expf, x); }
float powf (float x, float y) { return PICK (__powf, x, y); }
float log2f (float x) { return PICK (__log2f, x); }
float acosf (float x) { return __ieee754_acosf (x); }
float hypotf (float x, float y) { return __hypotf (x, y); }
