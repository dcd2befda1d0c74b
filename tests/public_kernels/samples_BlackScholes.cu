/// @file samples_BlackScholes.cu
/// cuda-samples Samples/5_Domain_Specific/BlackScholes/BlackScholes_kernel.cuh: BlackScholesGPU, the call
/// and put prices of the sample's 4,000,000 options (five f32 arrays, 80 MB in all: more than the L2),
/// two options a thread through float2, DIV_UP(optN / 2, 128) blocks of 128 threads as the sample
/// launches it.
#include "public_kernels.h"

#include "5_Domain_Specific/BlackScholes/BlackScholes_kernel.cuh"

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;   // options (optN)

// About 60 FLOP an option: d1 and d2 (a log, a square root, divisions), two polynomial CNDs with an
// exponential each, the discount and the two prices.
inline constexpr auto BlackScholesGPU_spec =
    kernel<BlackScholesGPU>("BlackScholesGPU",
                            custom(60 * N, out<0>("d_CallResult", f32, N), out<1>("d_PutResult", f32, N),
                                   in<2>("d_StockPrice", f32, N), in<3>("d_OptionStrike", f32, N),
                                   in<4>("d_OptionYears", f32, N)))
        .at(N(4000000)).sizes(N(arg<7>)).block(128).grid(ceil_div(N, 256));
}  // namespace public_specs

static void run() {
  const int optN = 4000000;  // the sample's OPT_N
  if (!corpus::wanted("BlackScholesGPU")) return;
  corpus::Case c("BlackScholesGPU");
  float2 *call = c.zeros<float2>(optN / 2), *put = c.zeros<float2>(optN / 2), *s = c.zeros<float2>(optN / 2),
         *x = c.zeros<float2>(optN / 2), *t = c.zeros<float2>(optN / 2);
  if (c.ready()) BlackScholesGPU<<<(optN / 2 + 127) / 128, 128>>>(call, put, s, x, t, 0.02f, 0.30f, optN);
  c.done();
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
