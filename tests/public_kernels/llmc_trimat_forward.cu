/// @file llmc_trimat_forward.cu
/// llm.c dev/cuda/trimat_forward.cu (f32): trimul_global<matmul_tri_naive>, the attention scores
/// preatt[b,nh,i,j] = q[b,i,nh,:] . k[b,j,nh,:] / sqrt(HS) on and below the diagonal, read straight
/// from the (B,T,3,NH,HS) output of the QKV projection: 128 x 128 tiles (those above the diagonal
/// return at once), 16 x 16 threads a block, each thread 8 x 8 scores with a dot product of HS each;
/// the grid (T/128, T/128, B*NH) as trimul_launcher makes it, at B = 8, T = 1024, C = 768, NH = 12.
#include "public_kernels.h"

#define main llmc_trimat_forward_main
#include "dev/cuda/trimat_forward.cu"
#undef main

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct C final : dim<"C"> {} C;     // channels, NH * HS
inline constexpr struct NH final : dim<"NH"> {} NH;  // heads
inline constexpr struct HS final : dim<"HS"> {} HS;  // head size
inline constexpr struct BH final : dim<"BH"> {} BH;  // B * NH, the grid's z

// The tiles on and below the diagonal: T*T/2 scores and, in the T/128 diagonal tiles, the 8 x 8 blocks
// on the diagonal's far side, 8 * 8 * 8 of each tile: T*(T+8)/2 a head (T*T/2 written as the touched part:
// T*(T+8)/2 is larger than the tensor where T < 8). Their dot products, 2*HS FLOP each; q and k read, v (the third slice of inp) not. The kernel is not given B: B = BH / NH, BH the
// grid's z.
inline constexpr auto trimul_global_naive_spec =
    kernel<trimul_global<matmul_tri_naive>>(
        "trimul_global_naive",
        custom(B * NH * T * (T + 8) * HS, in<1>("q", f32, B, T, NH, HS).slice(0), in<1>("k", f32, B, T, NH, HS).slice(NH * HS),
               out<0>("preatt", f32, B, NH, T, T).touches(B * NH * T * T / 2)))
        .sizes(BH(grid_dim.z), T(arg<2>), C(arg<3>), NH(arg<4>), HS(C / NH), B(BH / NH))
        .at(BH(96), T(1024), C(768), NH(12)).block(16, 16).grid(T / 128, T / 128, BH);
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int B = 8, T = 1024, C = 768, NH = 12;
  if (!corpus::wanted("trimul_global_naive")) return;
  corpus::Case c("trimul_global_naive");
  float *out = c.zeros<float>(Z(B) * NH * T * T), *inp = c.zeros<float>(Z(B) * T * 3 * C);
  if (c.ready()) trimul_global<matmul_tri_naive><<<dim3(T / 128, T / 128, NH * B), dim3(16, 16)>>>(out, inp, T, C, NH);
  c.done();
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
