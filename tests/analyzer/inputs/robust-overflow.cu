// Strides whose byte offsets overflow 64 bits. The analysis reads the device-side
// IR, whose address arithmetic wraps in 64 bits as the generated code's does (the source overflows).
#include "cuda_mock.h"

__global__ void huge(float *a, float *b) {
  long long i = threadIdx.x;
  a[i * (-9223372036854775807LL - 1)] = 0;  // silent: 4 * -2^63 bytes per lane wrap to 0 (a broadcast)
  b[i * 9223372036854775807LL] = 0;         // silent: 4 * (2^63 - 1) wraps to -4 (reversed unit stride)
}

__global__ void wrap(float *c, float *d) {
  long long i = threadIdx.x;
  c[i * 9223372036854775807LL + i * 9223372036854775807LL] = 0;  // wrapped to stride -2: 2x; expected-warning@:3 {{store through 'c' is not unit-stride in 'threadIdx.x'; stride -2 elements of 4 bytes: a warp moves 256 bytes in 8 sectors for 128 bytes used (2x the traffic) [rooflint-uncoalesced]}} expected-note {{the index's coefficient of 'threadIdx.x' is '-2'; consecutive lanes should touch consecutive elements}}
  d[-(i * (-9223372036854775807LL - 1))] = 0;                    // silent (wrapped to 0)
}

__global__ void big(float *e) {
  long long i = threadIdx.x;
  e[i * 288230376151711744LL] = 0;  // 2^60 bytes per lane; lane 31's offset does not fit: unknown; expected-warning@:3 {{store through 'e' is not unit-stride in 'threadIdx.x'; stride 288230376151711744 elements of 4 bytes: the warp's byte offsets overflow 64 bits, so its traffic is unknown [rooflint-uncoalesced]}} expected-note {{the index's coefficient of 'threadIdx.x' is '288230376151711744'; consecutive lanes should touch consecutive elements}}
}
