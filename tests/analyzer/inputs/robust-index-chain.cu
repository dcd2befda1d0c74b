// 30 index variables in a chain, each used four times by the next. Without memoisation the
// uncoalesced check evaluated a0 about 4^29 times (11 variables took 62 s); a29's coefficient of
// threadIdx.x is 4^29 = 2^58 (each link adds four copies of the last).
#include "cuda_mock.h"

__global__ void chain(char *x) {
  long long a0 = threadIdx.x;
  long long a1 = (a0 + a0) + (a0 + a0);
  long long a2 = (a1 + a1) + (a1 + a1);
  long long a3 = (a2 + a2) + (a2 + a2);
  long long a4 = (a3 + a3) + (a3 + a3);
  long long a5 = (a4 + a4) + (a4 + a4);
  long long a6 = (a5 + a5) + (a5 + a5);
  long long a7 = (a6 + a6) + (a6 + a6);
  long long a8 = (a7 + a7) + (a7 + a7);
  long long a9 = (a8 + a8) + (a8 + a8);
  long long a10 = (a9 + a9) + (a9 + a9);
  long long a11 = (a10 + a10) + (a10 + a10);
  long long a12 = (a11 + a11) + (a11 + a11);
  long long a13 = (a12 + a12) + (a12 + a12);
  long long a14 = (a13 + a13) + (a13 + a13);
  long long a15 = (a14 + a14) + (a14 + a14);
  long long a16 = (a15 + a15) + (a15 + a15);
  long long a17 = (a16 + a16) + (a16 + a16);
  long long a18 = (a17 + a17) + (a17 + a17);
  long long a19 = (a18 + a18) + (a18 + a18);
  long long a20 = (a19 + a19) + (a19 + a19);
  long long a21 = (a20 + a20) + (a20 + a20);
  long long a22 = (a21 + a21) + (a21 + a21);
  long long a23 = (a22 + a22) + (a22 + a22);
  long long a24 = (a23 + a23) + (a23 + a23);
  long long a25 = (a24 + a24) + (a24 + a24);
  long long a26 = (a25 + a25) + (a25 + a25);
  long long a27 = (a26 + a26) + (a26 + a26);
  long long a28 = (a27 + a27) + (a27 + a27);
  long long a29 = (a28 + a28) + (a28 + a28);
  x[a29] = 0;  // expected-warning@:3 {{store through 'x' is not unit-stride in 'threadIdx.x'; stride 288230376151711744 elements of 1 byte: a warp moves 1024 bytes in 32 sectors for 32 bytes used (32x the traffic) [rooflint-uncoalesced]}} expected-note {{the index's coefficient of 'threadIdx.x' is '288230376151711744'; consecutive lanes should touch consecutive elements}}
}
