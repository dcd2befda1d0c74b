// binding.cpp: the PyTorch glue of the extension (run.py builds it with torch.utils.cpp_extension.load).
// It checks the tensors and calls kernels.cu's launchers with their data pointers, on the current CUDA
// stream of the tensors' device. The kernels and their specs live in kernels.cu, which includes no torch
// header; this file is compiled by the host compiler only and has no spec.
#include <torch/extension.h>

#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#include <limits>

#include "kernels.h"

namespace {

/// A CUDA tensor of @p dtype, contiguous, with at most 2^31 - 1 elements (the kernels index with int).
void check_input(const torch::Tensor& t, const char* name, at::ScalarType dtype) {
  TORCH_CHECK(t.is_cuda(), name, " must be a CUDA tensor, got one on ", t.device());
  TORCH_CHECK(t.scalar_type() == dtype, name, " must be ", dtype, ", got ", t.scalar_type());
  TORCH_CHECK(t.is_contiguous(), name, " must be contiguous");
  TORCH_CHECK(t.numel() <= std::numeric_limits<int>::max(), name, " has more than 2^31 - 1 elements");
}

void check_launch(cudaError_t status, const char* what) {
  TORCH_CHECK(status == cudaSuccess, what, ": ", cudaGetErrorString(status));
}

/// x + alpha * y, as torch.add(x, y, alpha=alpha), for float32 CUDA tensors of one shape.
torch::Tensor scaled_add(const torch::Tensor& x, const torch::Tensor& y, double alpha) {
  check_input(x, "x", at::kFloat);
  check_input(y, "y", at::kFloat);
  TORCH_CHECK(x.sizes() == y.sizes(), "x and y must have the same shape, got ", x.sizes(), " and ", y.sizes());
  TORCH_CHECK(x.device() == y.device(), "x and y must be on the same device");
  const c10::cuda::CUDAGuard guard(x.device());
  torch::Tensor out = torch::empty_like(x);
  check_launch(torch_extension_example::launch_scaled_add(x.data_ptr<float>(), y.data_ptr<float>(), out.data_ptr<float>(),
                                                          static_cast<int>(x.numel()), static_cast<float>(alpha),
                                                          at::cuda::getCurrentCUDAStream()),
               "scaled_add");
  return out;
}

/// The sum of each row of a 2-D bfloat16 CUDA tensor, in float32: x.float().sum(dim=1).
torch::Tensor row_sum(const torch::Tensor& x) {
  check_input(x, "x", at::kBFloat16);
  TORCH_CHECK(x.dim() == 2, "x must be 2-D (rows, cols), got ", x.dim(), " dimensions");
  const c10::cuda::CUDAGuard guard(x.device());
  const auto rows = static_cast<int>(x.size(0)), cols = static_cast<int>(x.size(1));
  torch::Tensor y = torch::empty({x.size(0)}, x.options().dtype(at::kFloat));
  check_launch(torch_extension_example::launch_row_sum(reinterpret_cast<const __nv_bfloat16*>(x.data_ptr<at::BFloat16>()),
                                                       y.data_ptr<float>(), rows, cols, at::cuda::getCurrentCUDAStream()),
               "row_sum");
  return y;
}

}  // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.doc() = "rooflint's PyTorch extension example: two annotated kernels (kernels.cu)";
  m.def("scaled_add", &scaled_add, "x + alpha * y for float32 CUDA tensors (kernel scaled_add)", py::arg("x"), py::arg("y"),
        py::arg("alpha"));
  m.def("row_sum", &row_sum, "row sums of a 2-D bfloat16 CUDA tensor, in float32 (kernel row_sum_thread_per_row)",
        py::arg("x"));
}
