#include "rooflint/analyzer/LaunchManifest.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Type.h"

namespace rooflint::analyzer {
namespace {

namespace json = llvm::json;

std::string kindOf(clang::QualType T) {
  T = T.getCanonicalType();
  if (T->isBooleanType()) return "bool";
  if (T->isEnumeralType()) return "enum";
  if (T->isIntegerType()) return "integer";
  if (T->isPointerType()) return "pointer";
  if (T->isRealFloatingType()) return "floating";
  if (T->isRecordType()) return "record";
  return "other";
}

json::Object polyJson(const dsl::poly &P) {
  json::Array Dims, Terms;
  for (int D = 0; D < P.dim_count; ++D) Dims.push_back(std::string(P.dims[D].view()));
  for (int T = 0; T < P.term_count; ++T) {
    json::Array Exps;
    for (int D = 0; D < P.dim_count; ++D) Exps.push_back(int(P.terms[T].exponents[D]));
    Terms.push_back(json::Object{{"coefficient", P.terms[T].coefficient}, {"exponents", std::move(Exps)}});
  }
  return json::Object{{"dims", std::move(Dims)}, {"terms", std::move(Terms)}};
}

}  // namespace

std::vector<ParamRecord> kernelParams(const clang::FunctionDecl &F) {
  const clang::ASTContext &Ctx = F.getASTContext();
  std::vector<ParamRecord> Out;
  uint64_t Offset = 0;
  for (const clang::ParmVarDecl *P : F.parameters()) {
    ParamRecord R;
    R.Name = P->getNameAsString();
    const clang::QualType T = P->getType();
    R.Type = T.getCanonicalType().getAsString(Ctx.getPrintingPolicy());
    R.Kind = kindOf(T);
    if (!T->isIncompleteType() && !T->isDependentType()) {
      R.SizeBytes = static_cast<unsigned>(Ctx.getTypeSizeInChars(T).getQuantity());
      R.AlignBytes = static_cast<unsigned>(Ctx.getTypeAlignInChars(T).getQuantity());
    }
    const uint64_t Align = R.AlignBytes ? R.AlignBytes : 1;
    Offset = (Offset + Align - 1) / Align * Align;  // the argument buffer places each at its alignment
    R.OffsetBytes = static_cast<unsigned>(Offset);
    Offset += R.SizeBytes;
    R.Signed = (R.Kind == "integer" || R.Kind == "enum") && T->isSignedIntegerOrEnumerationType();
    Out.push_back(std::move(R));
  }
  return Out;
}

json::Array paramsJson(const std::vector<ParamRecord> &Params) {
  json::Array A;
  for (std::size_t I = 0; I < Params.size(); ++I) {
    const ParamRecord &P = Params[I];
    A.push_back(json::Object{{"index", int64_t(I)},
                             {"name", P.Name},
                             {"type", P.Type},
                             {"kind", P.Kind},
                             {"signed", P.Signed},
                             {"size_bytes", int64_t(P.SizeBytes)},
                             {"align_bytes", int64_t(P.AlignBytes)},
                             {"offset_bytes", int64_t(P.OffsetBytes)}});
  }
  return A;
}

json::Value launchJson(const dsl::spec &S, const std::vector<ParamRecord> &Params) {
  if (S.launch.kind == dsl::binding_kind::none) return nullptr;
  json::Array Sizes;
  for (int I = 0; I < S.launch.size_count; ++I) {
    const dsl::launch_size &L = S.launch.sizes[I];
    json::Object O{{"dim", std::string(L.dim.view())},
                   {"source", std::string(dsl::name(L.source))},
                   {"index", int(L.index)},
                   {"multiplier", L.multiplier},
                   {"divisor", L.divisor},
                   {"site", int(L.site)}};
    if (L.source == dsl::size_source::argument && L.index >= 0 && static_cast<std::size_t>(L.index) < Params.size())
      O["parameter"] = Params[L.index].Name;
    else if (L.source != dsl::size_source::argument)
      O["axis"] = std::string(1, "xyz"[L.index >= 0 && L.index < 3 ? L.index : 0]);
    Sizes.push_back(std::move(O));
  }
  // Dimensions not read from the launch keep their static, derived or .at() size: say which, so a
  // reader need not reconstruct it.
  json::Array Fixed;
  for (int D = 0; D < S.dim_count; ++D) {
    if (S.launch.find(S.dims[D].name)) continue;
    json::Object O{{"dim", std::string(S.dims[D].name.view())}};
    if (S.dims[D].static_size > 0) {
      O["by"] = "static";
      O["size"] = S.dims[D].static_size;
    } else if (S.dims[D].declared_size > 0) {
      O["by"] = "at";
      O["size"] = S.dims[D].declared_size;
    } else {
      O["by"] = "derived";
    }
    Fixed.push_back(std::move(O));
  }
  return json::Object{{"kind", std::string(dsl::name(S.launch.kind))}, {"sizes", std::move(Sizes)}, {"fixed", std::move(Fixed)}};
}

json::Object specValueJson(const dsl::spec &S) {
  json::Array Dims, Tensors, Derived, Constraints;
  for (int D = 0; D < S.dim_count; ++D)
    Dims.push_back(json::Object{{"name", std::string(S.dims[D].name.view())},
                                {"static_size", S.dims[D].static_size},
                                {"declared_size", S.dims[D].declared_size}});
  for (const dsl::tensor_info &T : S.tensor_list()) {
    json::Array Shape;
    for (int I = 0; I < T.rank; ++I) Shape.push_back(int(T.shape[I]));
    Tensors.push_back(json::Object{{"name", std::string(T.name.view())},
                                   {"dtype", std::string(model::name(T.dtype))},
                                   {"access", std::string(dsl::name(T.access))},
                                   {"arg", int(T.arg)},
                                   {"shape", std::move(Shape)},
                                   {"elements", polyJson(T.elements)},
                                   {"partial", T.partial},
                                   {"extra", T.extra}});
  }
  for (int I = 0; I < S.op.derived_count; ++I) {
    const dsl::derived_dim &R = S.op.derived[I];
    Derived.push_back(json::Object{{"name", std::string(R.name.view())},
                                   {"source", std::string(R.source.view())},
                                   {"window", std::string(R.window.view())},
                                   {"stride", R.stride},
                                   {"padding", R.padding},
                                   {"dilation", R.dilation}});
  }
  json::Array Terms;
  for (int I = 0; I < S.size_terms.count; ++I) {
    const dsl::size_term &T = S.size_terms.terms[I];
    Terms.push_back(json::Object{{"name", std::string(T.name.view())},
                                 {"op", std::string(dsl::name(T.op))},
                                 {"lhs", polyJson(T.lhs)},
                                 {"rhs", polyJson(T.rhs)}});
  }
  for (int I = 0; I < S.op.constraint_count; ++I) {
    const dsl::size_constraint &C = S.op.constraints[I];
    Constraints.push_back(json::Object{
        {"lhs", std::string(C.lhs.view())}, {"factor", C.factor}, {"rhs", std::string(C.rhs.view())}});
  }
  json::Array RegionKernels;  // version 3: empty for a spec of one kernel
  for (int I = 0; I < S.region.kernel_count; ++I)
    RegionKernels.push_back(json::Object{
        {"match", S.region.kernels[I].match == dsl::kernel_match::library ? "library" : "function"},
        {"pattern", std::string(S.region.kernels[I].pattern.view())}});
  return json::Object{
      {"region_kernels", std::move(RegionKernels)},
      {"kernel_name", std::string(S.kernel_name.view())},
      // op kind by its index in dsl::op_kind (matmul 0 ... custom 10); the name is the operation's own.
      {"op", json::Object{{"kind", int(S.op.kind)},
                          {"name", std::string(S.op.name.view())},
                          {"flops", polyJson(S.op.flops)},
                          {"zero_under_torch", S.op.zero_under_torch},
                          {"causal", S.op.causal},
                          {"derived", std::move(Derived)},
                          {"constraints", std::move(Constraints)},
                          {"precision_stated", S.op.precision_stated},
                          {"compute", std::string(model::name(S.op.compute))},
                          {"accumulate", std::string(model::name(S.op.accumulate))}}},
      {"dims", std::move(Dims)},
      {"size_terms", std::move(Terms)},
      {"tensors", std::move(Tensors)},
      {"count_elementwise", S.convention.count_elementwise},
      {"halve_causal", S.convention.halve_causal},
      {"math_mode", std::string(model::name(S.mode))},
      {"expected_bound", S.expected.bound == dsl::expected_bound::memory    ? "memory"
                         : S.expected.bound == dsl::expected_bound::compute ? "compute"
                                                                            : "any"},
      {"max_traffic_ratio", S.expected.max_traffic_ratio},
      {"min_roofline_fraction", S.expected.min_roofline_fraction},
      {"flops", polyJson(S.flops)},
      {"read_bytes", polyJson(S.read_bytes)},
      {"written_bytes", polyJson(S.written_bytes)},
  };
}

}  // namespace rooflint::analyzer
