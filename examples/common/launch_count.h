#pragma once
/// @file launch_count.h
/// How many kernels a library call launches (cuBLAS may add a split-K reduction kernel, or not, by
/// heuristics), for launcher::launches: the call is captured once into a CUDA graph, outside any
/// measurement, and its kernel nodes are counted.

#include <cuda_runtime.h>

#include <functional>
#include <vector>

namespace rooflint::examples {

/// @return The number of kernel launches one call of @p launch enqueues; 1 if it cannot be captured.
/// Runs @p launch once for real first, so that lazy allocations (a library's workspace) happen
/// outside the capture.
inline int kernels_launched_by(const std::function<void(cudaStream_t)>& launch) {
  cudaStream_t stream = nullptr;
  if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) return 1;
  launch(stream);
  cudaStreamSynchronize(stream);
  int kernels = 0;
  if (cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal) == cudaSuccess) {
    launch(stream);
    cudaGraph_t graph = nullptr;
    if (cudaStreamEndCapture(stream, &graph) == cudaSuccess && graph != nullptr) {
      std::size_t count = 0;
      cudaGraphGetNodes(graph, nullptr, &count);
      std::vector<cudaGraphNode_t> nodes(count);
      cudaGraphGetNodes(graph, nodes.data(), &count);
      for (const cudaGraphNode_t node : nodes) {
        cudaGraphNodeType type{};
        if (cudaGraphNodeGetType(node, &type) == cudaSuccess && type == cudaGraphNodeTypeKernel) ++kernels;
      }
      cudaGraphDestroy(graph);
    }
  }
  cudaGetLastError();  // a failed capture leaves no sticky error behind
  cudaStreamDestroy(stream);
  return kernels > 0 ? kernels : 1;
}

}  // namespace rooflint::examples
