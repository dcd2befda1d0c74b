// Issue 13: strides whose byte offsets overflow 64 bits (traffic unknown, said so) and coefficients that
// overflow while being combined (not linear in 64 bits: silent).
#include "cuda_mock.h"

__global__ void huge(float *a, float *b) {
  long long i = threadIdx.x;
  a[i * (-9223372036854775807LL - 1)] = 0;  // warning: traffic unknown (was: zero bytes, zero sectors, 0x)
  b[i * 9223372036854775807LL] = 0;         // warning: traffic unknown
}

__global__ void wrap(float *c, float *d) {
  long long i = threadIdx.x;
  c[i * 9223372036854775807LL + i * 9223372036854775807LL] = 0;  // silent (wrapped to stride -2)
  d[-(i * (-9223372036854775807LL - 1))] = 0;                    // silent (wrapped to itself)
}
