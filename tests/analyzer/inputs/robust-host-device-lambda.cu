// An error in a __device__ lambda is the device side's, even inside a host function: the file is not
// analysed, and clang's error is reported as for any file it cannot parse.
#include "cuda_mock.h"

void host_launcher(float* x) {
  auto on_device = [=] __device__(int i) { x[i] = undeclared_on_device; };
  (void)on_device;
}
