/// @file samples_bitonicSort.cu
/// cuda-samples Samples/2_Concepts_and_Techniques/sortingNetworks/bitonicSort.cu: bitonicSortShared1 (each
/// block of 512 threads sorts 1024 key-value pairs in shared memory, alternately up and down) and
/// bitonicMergeGlobal (one step of a bitonic merge in global memory: a thread compares and exchanges the
/// pairs at pos and pos + stride), over 2^25 u32 keys and values (the sample's 2^20 fit in L2), sorted as
/// one array, as bitonicSort() launches them; bitonicMergeGlobal at the step with stride 2^20. The sample
/// merges in place; here the outputs are buffers of their own.
#include "public_kernels.h"

#include "2_Concepts_and_Techniques/sortingNetworks/bitonicSort.cu"

namespace public_specs {
using namespace rooflint::dsl;
inline constexpr struct N final : dim<"N"> {} N;            // keys (and values)
inline constexpr struct Q final : dim<"Q"> {} Q;            // groups of 2 * stride elements
inline constexpr struct Two final : dim<"Two", 2> {} Two;   // the comparator's pair, stride apart
inline constexpr struct S final : dim<"S"> {} S;            // stride
inline constexpr struct T final : dim<"T"> {} T;            // comparators (threads): Q * S

// A comparison a comparator (10 of them for each of 1024 elements' log2(1024) * 11 / 4 steps: counted
// as N * 55 / 2 compare-exchanges in the shared sort).
inline constexpr auto bitonicSortShared1_spec =
    kernel<bitonicSortShared1>("bitonicSortShared1",
                               custom(27.5 * N, out<0>("d_DstKey", u32, N), out<1>("d_DstVal", u32, N),
                                      in<2>("d_SrcKey", u32, N), in<3>("d_SrcVal", u32, N)))
        .at(N(1 << 25)).sizes(N(grid_dim.x * 1024)).block(512).grid(ceil_div(N, 1024));
inline constexpr auto bitonicMergeGlobal_spec =
    kernel<bitonicMergeGlobal>("bitonicMergeGlobal",
                               custom(Q * S, out<0>("d_DstKey", u32, Q, Two, S), out<1>("d_DstVal", u32, Q, Two, S),
                                      in<2>("d_SrcKey", u32, Q, Two, S), in<3>("d_SrcVal", u32, Q, Two, S)))
        .sizes(S(arg<6>), T(grid_dim.x * 256), Q(T / S)).at(S(1 << 20), T(1 << 24)).block(256).grid(ceil_div(T, 256));
}  // namespace public_specs

static void run() {
  using Z = std::size_t;
  const uint n = 1u << 25, dir = 1;
  const struct {
    const char* name;
    bool global;
  } cases[] = {{"bitonicSortShared1", false}, {"bitonicMergeGlobal", true}};
  for (const auto& k : cases) {
    if (!corpus::wanted(k.name)) continue;
    corpus::Case c(k.name);
    uint *dstKey = c.zeros<uint>(Z(n)), *dstVal = c.zeros<uint>(Z(n)), *srcKey = c.zeros<uint>(Z(n)),
         *srcVal = c.zeros<uint>(Z(n));
    if (c.ready() && !k.global)
      bitonicSortShared1<<<n / SHARED_SIZE_LIMIT, SHARED_SIZE_LIMIT / 2>>>(dstKey, dstVal, srcKey, srcVal);
    if (c.ready() && k.global)  // the first step of the last merge (size = n) with stride 2^20
      bitonicMergeGlobal<<<n / 512, 256>>>(dstKey, dstVal, srcKey, srcVal, n, n, 1u << 20, dir);
    c.done();
  }
}

int main(int argc, char** argv) { return public_kernels::run_cases(argc, argv, run); }
