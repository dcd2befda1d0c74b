// Compile-time tests of the spec language's named predicates: this file compiles if and only if
// they hold. Negative cases are `requires` expressions that must not be satisfied, one per line,
// each with the reason it is invalid.
#include <cstdint>

#include "../dims.h"

using namespace rooflint::dsl;
using namespace rooflint::dsl::testing;

namespace {
using A = decltype(in<0>("A", f32, M, K));
using Bm = decltype(in<1>("B", f32, K, N));
using Cw = decltype(out<2>("C", f32, M, N));
using Y = decltype(inout<3>("y", f32, M, N));
using Row = decltype(out<4>("r", f32, M));

// Dimensions: a tag is a type derived from dim<...>; identity is the type, not the name.
static_assert(Dim<decltype(M)> && Dim<decltype(K3)>);
static_assert(!Dim<int>);
static_assert(SameDim<decltype(M), decltype(M)>);
static_assert(!SameDim<decltype(M), decltype(N)>);
static_assert(decltype(K3)::static_size == 3);
static_assert(decltype(M)::static_size == dynamic_size);

// Tensors and roles.
static_assert(Tensor<A> && Tensor<Cw> && !Tensor<int>);
static_assert(Binding<decltype(uncounted<5>("flags"))> && !Tensor<decltype(uncounted<5>("flags"))>);
static_assert(Read<A> && !Written<A>);
static_assert(Written<Cw> && !Read<Cw>);
static_assert(Read<Y> && Written<Y>);  // inout: both
static_assert(HasRank<A, 2> && !HasRank<A, 3> && HasRank<Row, 1>);
static_assert(std::is_same_v<dim_at<A, 1>, std::remove_cvref_t<decltype(K)>>);
static_assert(std::is_void_v<dim_at<A, 2>>);  // past the rank: void, not an error
static_assert(SameDimAt<A, 1, Bm, 0>);       // A (M,K) and B (K,N) share K
static_assert(!SameDimAt<A, 0, Bm, 0>);      // M is not K
static_assert(!SameDimAt<A, 2, Bm, 2>);      // both past the rank: not "the same"
static_assert(SameShape<Cw, Y> && !SameShape<A, Cw>);
static_assert(DimsSubsetOf<Row, Cw> && !DimsSubsetOf<Cw, Row>);

// Storage types: the dtypes a C++ element type can hold.
static_assert(StoresDtype<float, dtype::f32> && StoresDtype<float, dtype::tf32>);
static_assert(StoresDtype<const float, dtype::f32>);  // const does not change the element type
static_assert(!StoresDtype<float, dtype::f16> && !StoresDtype<double, dtype::f32>);
static_assert(StoresDtype<float4, dtype::f32>);  // vector types hold their lane's dtype
static_assert(StoresDtype<__half, dtype::f16> && StoresDtype<__half2, dtype::f16> && !StoresDtype<__half, dtype::bf16>);
static_assert(StoresDtype<__nv_bfloat16, dtype::bf16>);
// Bytes are u8, never fp8: fp8 data is held only by CUDA's fp8 types (a byte histogram stays integer work).
static_assert(StoresDtype<std::uint8_t, dtype::u8> && !StoresDtype<std::uint8_t, dtype::fp8_e4m3> &&
              !StoresDtype<std::uint8_t, dtype::fp8_e5m2> && !StoresDtype<std::uint8_t, dtype::i8>);
static_assert(StoresDtype<__nv_fp8_e4m3, dtype::fp8_e4m3> && StoresDtype<__nv_fp8x4_e5m2, dtype::fp8_e5m2>);
static_assert(StoresDtype<std::int8_t, dtype::i8> && !StoresDtype<std::int8_t, dtype::fp8_e4m3>);
static_assert(StoresDtype<std::int32_t, dtype::i32> && StoresDtype<std::int64_t, dtype::i64>);
// Unsigned integers by width, whatever the platform spells them: unsigned int u32 (CUDA's atomicAdd bins),
// unsigned long long u64; and long long i64 beside std::int64_t (which is long on LP64).
static_assert(StoresDtype<std::uint16_t, dtype::u16> && StoresDtype<unsigned int, dtype::u32> &&
              StoresDtype<std::uint32_t, dtype::u32> && StoresDtype<std::uint64_t, dtype::u64>);
static_assert(StoresDtype<unsigned long long, dtype::u64> && StoresDtype<long long, dtype::i64>);
static_assert(!StoresDtype<unsigned int, dtype::i32> && !StoresDtype<int, dtype::u32>);  // signedness is part of the dtype
static_assert(StoresDtype<uint4, dtype::u32> && StoresDtype<uchar4, dtype::u8> && StoresDtype<int4, dtype::i32>);
// Three-lane vectors (a point, an RGB pixel) and the 16-byte pairs of 64-bit integers.
static_assert(StoresDtype<float3, dtype::f32> && StoresDtype<double3, dtype::f64> && !StoresDtype<double3, dtype::f32>);
static_assert(StoresDtype<int3, dtype::i32> && StoresDtype<uint3, dtype::u32> && StoresDtype<uchar2, dtype::u8>);
static_assert(StoresDtype<longlong2, dtype::i64> && StoresDtype<ulonglong2, dtype::u64> && StoresDtype<char2, dtype::i8>);
static_assert(!StoresDtype<void, dtype::f32> && !StoresDtype<char, dtype::i8> && !StoresDtype<char, dtype::u8>);
static_assert(!StoresDtype<bool, dtype::u8> && !StoresDtype<short, dtype::u16>);  // bool and short hold no dtype

// Negative cases: uses that are not candidates at all (constraint failures), each next to the valid use.
// The requirements are written over template parameters so they are checked, not hard errors.
template <class X> concept CanBeAShapeEntry = requires(X x) { in<0>("x", f32, x); };
template <class X> concept CanMultiplyDims = requires(X x) { M * x; };
template <class X> concept IsAnOperand = requires(X x) { matmul(x, x, x); };
template <class X> concept IsASoftmaxOperand = requires(X x) { softmax(x, x); };
template <class X> concept CanBeADtypeArgument = requires(X x) { in<0>("x", x, N); };
template <class X> concept CanBeACustomTensor = requires(X x) { custom(N, x); };
template <class... X> concept CanBeElementwise = requires(X... x) { elementwise(1.0, x...); };

// A shape entry must be a dimension tag, not a number: a number meets the misuse overload, whose
// result is no Tensor (and whose body says so: tests/dsl/fail/shape_entry_number.cpp).
static_assert(CanBeAShapeEntry<decltype(N)>);
static_assert(!Tensor<decltype(in<0>("x", f32, 4))> && !Tensor<decltype(in<0>("x", f32, N * N))>);
// Dimensions combine with numbers and dimensions, not with strings.
static_assert(CanMultiplyDims<decltype(N)> && CanMultiplyDims<double> && !CanMultiplyDims<const char*>);
// Operations take tensors, not numbers or dimension tags.
static_assert(!IsAnOperand<int> && !IsAnOperand<decltype(M)>);
static_assert(!IsASoftmaxOperand<decltype(M)>);
// The dtype argument is a dtype tag (f32), not the enum value (dtype::f32) or a C++ type (the misuse
// overloads: tests/dsl/fail/dtype_not_a_tag.cpp, dtype_as_cxx_type.cpp).
static_assert(CanBeADtypeArgument<dtype_tag<dtype::f32>>);
static_assert(!Tensor<decltype(in<0>("x", dtype::f32, N))> && !Tensor<decltype(out<0, float>("x", N))>);
// custom's operands are tensors.
static_assert(CanBeACustomTensor<A> && !CanBeACustomTensor<int>);
// elementwise needs at least one tensor after the FLOP count.
static_assert(CanBeElementwise<Cw> && !CanBeElementwise<>);
}  // namespace
