/// @file llmc_permute.cu
/// llm.c dev/cuda/permute.cu (f32): permute_kernel, a thread per element of a (D1,D2,D3,D4) tensor
/// writing it to (D4,D3,D1,D2), at an attention-sized (B,T,NH,HS) = (8, 1024, 12, 64) rather than the
/// file's 24 x 42 x 20 x 32 (2.5 MB, which fits in L2); 256 threads a block as the file's main. Reads
/// are coalesced, consecutive threads write D3*D1*D2 elements apart. The spec is named
/// permute4d_kernel (attention_forward.cu has a permute_kernel of its own).
#include "public_kernels.h"

#define main llmc_permute_main
#include "dev/cuda/permute.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct D1 final : dim<"D1"> {} D1;
inline constexpr struct D2 final : dim<"D2"> {} D2;
inline constexpr struct D3 final : dim<"D3"> {} D3;
inline constexpr struct D4 final : dim<"D4"> {} D4;

inline constexpr auto permute4d_kernel_spec =
    kernel<permute_kernel>("permute4d_kernel", custom(0, in<0>("matrix", f32, D1, D2, D3, D4), out<1>("out_matrix", f32, D4, D3, D1, D2)))
        .at(D1(8), D2(1024), D3(12), D4(64)).sizes(D1(arg<2>), D2(arg<3>), D3(arg<4>), D4(arg<5>))
        .block(256).grid(ceil_div(D1 * D2 * D3 * D4, 256));
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int d1 = 8, d2 = 1024, d3 = 12, d4 = 64, threads = 256;
  if (!corpus::wanted("permute4d_kernel")) return;
  corpus::Case c("permute4d_kernel");
  const Z n = Z(d1) * d2 * d3 * d4;
  float *matrix = c.zeros<float>(n), *out = c.zeros<float>(n);
  if (c.ready()) permute_kernel<<<ceil_div(d1 * d2 * d3 * d4, threads), threads>>>(matrix, out, d1, d2, d3, d4);
  c.done();
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
