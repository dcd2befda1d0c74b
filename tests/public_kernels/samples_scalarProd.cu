/// @file samples_scalarProd.cu
/// cuda-samples Samples/2_Concepts_and_Techniques/scalarProd/scalarProd_kernel.cuh: scalarProdGPU, the dot
/// products of 256 pairs of f32 vectors of 4096 elements, 128 blocks of 256 threads walking the vectors
/// (each block vector by vector, 1024 accumulators), as the sample launches it.
#include "public_kernels.h"

#include "2_Concepts_and_Techniques/scalarProd/scalarProd_kernel.cuh"

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct Vn final : dim<"Vn"> {} Vn;   // vector pairs (vectorN)
inline constexpr struct E final : dim<"E"> {} E;      // elements a vector (elementN)

inline constexpr auto scalarProdGPU_spec =
    kernel<scalarProdGPU>("scalarProdGPU",
                          custom(2 * Vn * E, out<0>("d_C", f32, Vn), in<1>("d_A", f32, Vn, E), in<2>("d_B", f32, Vn, E)))
        .at(Vn(256), E(4096)).sizes(Vn(arg<3>), E(arg<4>)).block(256).grid(128);
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int vectorN = 256, elementN = 4096;  // the sample's VECTOR_N and ELEMENT_N
  if (!corpus::wanted("scalarProdGPU")) return;
  corpus::Case c("scalarProdGPU");
  float *C = c.zeros<float>(vectorN), *A = c.zeros<float>(Z(vectorN) * elementN), *B = c.zeros<float>(Z(vectorN) * elementN);
  if (c.ready()) scalarProdGPU<<<128, 256>>>(C, A, B, vectorN, elementN);
  c.done();
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
