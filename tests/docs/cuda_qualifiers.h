// Force-included before a ```cpp compile block (tests/docs): a spec next to a kernel declaration compiles
// under a host C++ compiler, which knows no CUDA function qualifiers.
#pragma once
#define __global__
#define __device__
#define __host__
