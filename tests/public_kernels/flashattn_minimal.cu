/// @file flashattn_minimal.cu
/// flash-attention-minimal's flash.cu (f32): `forward_kernel`, a block of Bc = 32 threads per (batch,
/// head), a thread per row of a 32-row tile. For each of the Tc key tiles it stages K and V in shared
/// memory, then walks the Tr query tiles: loads the Q tile, reads its rows' running max and sum (m, l),
/// and reads, rescales and writes back the output tile O. So Q, O, l and m pass through the block Tc
/// times, K and V once. At 16 x 12 heads of 256 x 64 (Tc = Tr = 8): the example's batch and heads, four
/// times its sequence. PyTorch's names in the file's host launcher are stubs (stubs/torch/types.h): the
/// wrapper launches the kernel as the launcher does, with its shared memory, 3 Bc d + Bc Br floats.
#include "public_kernels.h"

#include "flash.cu"

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct B final : dim<"B"> {} B;      // batch
inline constexpr struct H final : dim<"H"> {} H;      // heads
inline constexpr struct N final : dim<"N"> {} N;      // sequence
inline constexpr struct D final : dim<"D"> {} D;      // head size
inline constexpr struct Tc final : param<"Tc"> {} Tc;  // key tiles
inline constexpr struct Tr final : param<"Tr"> {} Tr;  // query tiles
inline constexpr struct Bc final : param<"Bc"> {} Bc;  // a key tile's rows
inline constexpr struct Br final : param<"Br"> {} Br;  // a query tile's rows

// S = Q K^T and O = P V: 2 N^2 D FLOP each per head.
inline constexpr auto forward_kernel_spec =
    kernel<forward_kernel>("forward_kernel",
                           custom(4 * B * H * N * N * D, in<0>("Q", f32, B, H, N, D), in<1>("K", f32, B, H, N, D),
                                  in<2>("V", f32, B, H, N, D), inout<12>("O", f32, B, H, N, D), inout<10>("l", f32, B, H, N),
                                  inout<11>("m", f32, B, H, N)))
        .sizes(N(arg<3>), D(arg<4>), Tc(arg<5>), Tr(arg<6>), Bc(arg<7>), Br(arg<8>), B(grid_dim.x), H(grid_dim.y))
        .at(B(16), H(12), N(256), D(64), Tc(8), Tr(8), Bc(32), Br(32))
        .block(32).grid(B, H).dynamic_shared(4 * (3 * 32 * D + 32 * 32));
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const int B = 16, nh = 12, N = 256, d = 64, Bc = 32, Br = 32;
  const int Tc = (N + Bc - 1) / Bc, Tr = (N + Br - 1) / Br;
  if (!corpus::wanted("forward_kernel")) return;
  corpus::Case c("forward_kernel");
  const Z elements = Z(B) * nh * N * d;
  float *Q = c.zeros<float>(elements), *K = c.zeros<float>(elements), *V = c.zeros<float>(elements);
  float *O = c.zeros<float>(elements), *l = c.zeros<float>(Z(B) * nh * N), *m = c.zeros<float>(Z(B) * nh * N);
  const int sram = (3 * Bc * d + Bc * Br) * int(sizeof(float));
  if (c.ready())
    forward_kernel<<<dim3(B, nh), Bc, sram>>>(Q, K, V, N, d, Tc, Tr, Bc, Br, 1.0f / 8.0f, l, m, O);
  c.done();
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
