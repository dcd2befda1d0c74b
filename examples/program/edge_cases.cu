/// @file edge_cases.cu
/// rooflint-example-edge: ordinary CUDA programs in the shapes that make a verifier's life hard, one
/// per mode (docs/verifier.md, "Programs that fork, exit early or use graphs"):
///   fork            launches saxpy at 2^20, forks; the child tries a saxpy launch (CUDA is the parent's:
///                   the launch fails in the child, which reports it and exits 0); the parent waits, then
///                   launches saxpy at 2^21. Both parent launches are measured.
///   exit-in-flight  launches saxpy at 2^20 (measured), then 8 more at 2^26 (repeats of one size: the
///                   first measured, the rest seen) and returns from main without synchronising.
///   graph           captures two saxpy launches at 2^22 into a CUDA graph and launches it (its kernels
///                   are reported as not measured, with the reason), then launches saxpy at 2^20 directly
///                   (measured).
///   last-device     sets the last device current (as a rank of a multi-GPU job does), launches saxpy at
///                   2^20 twice and checks that the current device stayed its own (measured on that GPU).
///   frees           launches saxpy, then frees memory in the ways the driver clears in the background, each
///                   followed by a saxpy launch of its own size (all measured): a stream-ordered free of 2 GiB written
///                   first (cudaFreeAsync), a managed free of 2 GiB written on the device, and frees of
///                   nothing (cudaFree(nullptr), cudaFreeAsync(nullptr)). Clearing counted in a window
///                   would show as GBs of DRAM writes against saxpy's 64 MiB.
/// Usage: rooflint-example-edge fork|exit-in-flight|graph|last-device|frees

#include <cuda_runtime.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "kernels.h"

using namespace program;

namespace {

void launch_saxpy(int n, float* x, float* y, cudaStream_t s = nullptr) {
  saxpy<<<float4_blocks(n), 256, 0, s>>>(n, 2.0f, x, y);
}

int run_fork() {
  auto x = random_floats(1 << 21, 1), y = random_floats(1 << 21, 2);
  launch_saxpy(1 << 20, x, y);
  check(cudaDeviceSynchronize(), "saxpy before fork");
  std::fflush(stdout);
  const pid_t child = ::fork();
  if (child < 0) return 1;
  if (child == 0) {
    launch_saxpy(1 << 20, x, y);  // CUDA was initialised by the parent: fails here
    const cudaError_t e = cudaDeviceSynchronize();
    std::printf("child: launch after fork: %s\n", cudaGetErrorString(e));
    std::fflush(stdout);
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  launch_saxpy(1 << 21, x, y);
  check(cudaDeviceSynchronize(), "saxpy after fork");
  std::printf("parent: child exited with %d; two launches ran\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return 0;
}

int run_exit_in_flight() {
  // Never freed: a cudaFree would wait for the kernels.
  auto* x = new buffer<float>(random_floats(1 << 26, 1));
  auto* y = new buffer<float>(random_floats(1 << 26, 2));
  launch_saxpy(1 << 20, *x, *y);
  for (int i = 0; i < 8; ++i) launch_saxpy(1 << 26, *x, *y);
  std::printf("returning with kernels in flight\n");
  return 0;  // no synchronisation: the runtime's exit tears the context down under running kernels
}

int run_graph() {
  auto x = random_floats(1 << 22, 1), y = random_floats(1 << 22, 2);
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  check(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), "capture");
  launch_saxpy(1 << 22, x, y, s);
  launch_saxpy(1 << 22, x, y, s);
  check(cudaStreamEndCapture(s, &graph), "capture");
  check(cudaGraphInstantiate(&exec, graph, 0), "instantiate");
  check(cudaGraphLaunch(exec, s), "graph launch");
  check(cudaStreamSynchronize(s), "graph");
  launch_saxpy(1 << 20, x, y, s);
  check(cudaStreamSynchronize(s), "saxpy");
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(s);
  std::printf("graph of 2 kernels and 1 direct launch ran\n");
  return 0;
}

/// A worker of a multi-GPU job: works on the last device (as a DDP rank does after cudaSetDevice), launches
/// saxpy at 2^20 twice, and checks that its current device is still its own after each (a verifier that
/// switched it would send the program's next kernels and allocations to another GPU).
int run_last_device(int devices) {
  const int mine = devices - 1;
  check(cudaSetDevice(mine), "set device");
  auto x = random_floats(1 << 20, 1), y = random_floats(1 << 20, 2);
  for (int i = 0; i < 2; ++i) {
    launch_saxpy(1 << 20, x, y);
    check(cudaDeviceSynchronize(), "saxpy");
    int now = -1;
    check(cudaGetDevice(&now), "get device");
    if (now != mine) {
      std::printf("the current device changed from %d to %d across a launch\n", mine, now);
      return 1;
    }
  }
  std::printf("two launches on device %d of %d; the current device stayed %d\n", mine, devices, mine);
  return 0;
}

/// The frees of "frees" (the file's comment), after a first saxpy whose window opens the batch the frees
/// then close; saxpy_after(k, ...) launches saxpy over 2^24 + k * 2^18 floats.
int run_frees() {
  constexpr std::size_t big = std::size_t{2} << 30;
  constexpr int base = 1 << 24, step = 1 << 18;  // sizes of their own: repeats of one size are measured once
  auto x = random_floats(base + 4 * step, 1), y = random_floats(base + 4 * step, 2);
  const auto saxpy_after = [&](int k, const char* what) {
    launch_saxpy(base + k * step, x, y);
    check(cudaDeviceSynchronize(), what);
  };
  saxpy_after(0, "saxpy before the frees");
  void* p = nullptr;
  check(cudaMallocAsync(&p, big, nullptr), "cudaMallocAsync");
  check(cudaMemsetAsync(p, 1, big, nullptr), "memset");
  check(cudaFreeAsync(p, nullptr), "cudaFreeAsync");
  check(cudaStreamSynchronize(nullptr), "stream-ordered free");  // the pool gives the memory back here
  saxpy_after(1, "saxpy after a stream-ordered free");
  check(cudaMallocManaged(&p, big), "cudaMallocManaged");
  check(cudaMemset(p, 1, big), "memset");
  check(cudaDeviceSynchronize(), "memset");
  check(cudaFree(p), "managed free");
  saxpy_after(2, "saxpy after a managed free");
  check(cudaFree(nullptr), "cudaFree(nullptr)");
  saxpy_after(3, "saxpy after cudaFree(nullptr)");
  check(cudaFreeAsync(nullptr, nullptr), "cudaFreeAsync(nullptr)");
  saxpy_after(4, "saxpy after cudaFreeAsync(nullptr)");
  std::printf("4 frees, each followed by a saxpy of its own size\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device\n");
    return 77;
  }
  if (std::strcmp(mode, "fork") == 0) return run_fork();
  if (std::strcmp(mode, "exit-in-flight") == 0) return run_exit_in_flight();
  if (std::strcmp(mode, "graph") == 0) return run_graph();
  if (std::strcmp(mode, "last-device") == 0) return run_last_device(devices);
  if (std::strcmp(mode, "frees") == 0) return run_frees();
  std::fprintf(stderr, "usage: rooflint-example-edge fork|exit-in-flight|graph|last-device|frees\n");
  return 2;
}
