#include "rooflint/analyzer/Outputs.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "rooflint/dsl/formula.h"

namespace rooflint::analyzer {
namespace {

namespace json = llvm::json;

json::Object location(const SourcePosition &P) {
  return json::Object{{"file", P.File}, {"line", P.Line}, {"column", P.Column}};
}

std::string roleName(dsl::role R) {
  switch (R) {
  case dsl::role::read: return "read";
  case dsl::role::write: return "write";
  case dsl::role::read_write: return "read_write";
  case dsl::role::not_counted: return "not_counted";
  }
  return "unknown";
}

std::string expectedName(dsl::expected_bound B) {
  switch (B) {
  case dsl::expected_bound::any: return "any";
  case dsl::expected_bound::memory: return "memory-bound";
  case dsl::expected_bound::compute: return "compute-bound";
  }
  return "any";
}

json::Object peaksJson(const model::peaks &P) {
  json::Object Flops;
  for (std::size_t I = 0; I < model::math_mode_count; ++I) {
    const auto M = static_cast<model::math_mode>(I);
    if (P.has(M)) Flops[std::string(model::name(M))] = P.flops_per_s[M];
  }
  return json::Object{{"device", std::string(P.device)},
                      {"source", std::string(model::name(P.source))},
                      {"dram_bytes_per_s", P.dram_bytes_per_s},
                      {"flops_per_s", std::move(Flops)}};
}

json::Object kernelJson(const KernelRecord &K, const model::peaks &P) {
  const dsl::spec &S = K.Spec;
  json::Array Dims;
  for (int D = 0; D < S.dim_count; ++D) {
    json::Object Dim{{"name", std::string(S.dims[D].name.view())}};
    Dim["static_size"] = S.dims[D].static_size > 0 ? json::Value(S.dims[D].static_size) : json::Value(nullptr);
    Dim["declared_size"] = S.dims[D].declared_size > 0 ? json::Value(S.dims[D].declared_size) : json::Value(nullptr);
    Dim["size"] = K.Sizes[D] > 0 ? json::Value(K.Sizes[D]) : json::Value(nullptr);
    Dims.push_back(std::move(Dim));
  }
  json::Array Tensors;
  for (const dsl::tensor_info &T : S.tensor_list()) {
    json::Object O{{"name", std::string(T.name.view())}, {"arg", int(T.arg)}, {"role", roleName(T.access)}};
    if (T.access != dsl::role::not_counted) {
      json::Array Shape;
      for (int I = 0; I < T.rank; ++I)
        if (T.shape[I] >= 0 && T.shape[I] < S.dim_count) Shape.push_back(std::string(S.dims[T.shape[I]].name.view()));
      O["dtype"] = std::string(model::name(T.dtype));
      O["shape"] = std::move(Shape);
      O["elements"] = dsl::to_string(T.elements);
      O["partial"] = T.partial;
    }
    Tensors.push_back(std::move(O));
  }
  const dsl::poly Bytes = S.bytes();
  json::Object O{
      {"spec", K.SpecName},
      {"name", K.KernelName},
      {"function", K.FunctionName},
      {"mangled_name", K.MangledName},
      {"location", location(K.KernelLocation)},
      {"spec_location", location(K.SpecLocation)},
      {"operation", std::string(S.op.name.view())},
      {"math_mode", std::string(model::name(S.mode))},
      {"convention", json::Object{{"name", dsl::to_string(S.convention)},
                                  {"count_elementwise", S.convention.count_elementwise},
                                  {"halve_causal", S.convention.halve_causal}}},
      {"dims", std::move(Dims)},
      {"tensors", std::move(Tensors)},
      {"formulas", json::Object{{"flops", dsl::to_string(S.flops)},
                                {"read_bytes", dsl::to_string(S.read_bytes)},
                                {"written_bytes", dsl::to_string(S.written_bytes)},
                                {"bytes", dsl::to_string(Bytes)},
                                {"intensity", dsl::ratio_to_string(S.flops, Bytes)}}},
      {"expected", json::Object{{"bound", expectedName(S.expected.bound)},
                                {"max_traffic_ratio", S.expected.max_traffic_ratio},
                                {"min_roofline_fraction", S.expected.min_roofline_fraction}}},
  };
  if (K.Sized) {
    const double B = K.ReadBytes + K.WrittenBytes;
    O["values"] = json::Object{{"flops", K.Flops},
                               {"read_bytes", K.ReadBytes},
                               {"written_bytes", K.WrittenBytes},
                               {"bytes", B},
                               {"intensity", B > 0 ? K.Flops / B : 0.0}};
  } else {
    O["values"] = nullptr;
    O["missing_size"] = K.MissingDim;
  }
  if (K.Result) {
    const model::bound_result &R = *K.Result;
    O["verdict"] = json::Object{{"bound", std::string(model::name(R.verdict))},
                                {"intensity", R.intensity},
                                {"ridge", R.ridge},
                                {"compute_time_s", R.compute_time_s},
                                {"memory_time_s", R.memory_time_s},
                                {"t_min_s", R.t_min_s},
                                {"sentence", boundSentence(K, P)}};
  } else {
    O["verdict"] = nullptr;
  }
  if (K.VerdictChange)
    O["verdict_change"] = json::Object{{"dims", K.VerdictChange->Dim},
                                       {"size", K.VerdictChange->Size},
                                       {"bound_from", std::string(model::name(K.VerdictChange->Above))}};
  // Version 2: what rooflint-verify needs to bind launches (LaunchManifest.h, docs/manifest-schema.md).
  O["parameters"] = paramsJson(K.Params);
  O["launch"] = launchJson(S, K.Params);
  O["spec_value"] = specValueJson(S);
  O["peaks"] = json::Object{{"device", std::string(P.device)},
                            {"source", std::string(model::name(P.source))},
                            {"dram_bytes_per_s", P.dram_bytes_per_s},
                            {"flops_per_s", P.flops_per_s[S.mode]}};
  return O;
}

std::string sarifLevel(llvm::StringRef Level) {
  if (Level == "error") return "error";
  if (Level == "warning") return "warning";
  return "note";
}

json::Object sarifLocation(const DiagRecord &D) {
  json::Object Physical{{"artifactLocation", json::Object{{"uri", D.File}}}};
  if (D.Line > 0) Physical["region"] = json::Object{{"startLine", D.Line}, {"startColumn", D.Column}};
  return json::Object{{"physicalLocation", std::move(Physical)}};
}

}  // namespace

llvm::json::Value manifestJson(const AnalysisResults &Results, const model::peaks &Peaks) {
  json::Array Kernels;
  for (const KernelRecord &K : Results.Kernels) Kernels.push_back(kernelJson(K, Peaks));
  json::Array Diags;
  for (const DiagRecord &D : Results.Diagnostics)
    Diags.push_back(json::Object{{"name", D.Name}, {"level", D.Level}, {"message", D.Message},
                                 {"file", D.File}, {"line", D.Line}, {"column", D.Column}});
  return json::Object{{"schema", "rooflint-manifest"},
                      {"version", ManifestVersion},
                      {"rooflint_version", ROOFLINT_VERSION},
                      {"peaks", peaksJson(Peaks)},
                      {"kernels", std::move(Kernels)},
                      {"diagnostics", std::move(Diags)}};
}

llvm::json::Value sarifJson(const AnalysisResults &Results) {
  json::Array Rules;
  for (const DiagInfo &D : allDiagnostics())
    Rules.push_back(json::Object{
        {"id", D.Name.str()},
        {"shortDescription", json::Object{{"text", D.Summary.str()}}},
        {"helpUri", "docs/diagnostics/" + D.Name.str() + ".md"},
        {"defaultConfiguration", json::Object{{"level", sarifLevel(name(D.Default))}}}});
  json::Array SarifResults;
  for (const DiagRecord &D : Results.Diagnostics) {
    json::Object R{{"ruleId", D.Name},
                   {"level", sarifLevel(D.Level)},
                   {"message", json::Object{{"text", D.Message}}},
                   {"locations", json::Array{sarifLocation(D)}}};
    if (auto K = findDiagnostic(D.Name)) R["ruleIndex"] = static_cast<unsigned>(*K);
    if (!D.Notes.empty()) {
      json::Array Related;
      for (const DiagRecord &N : D.Notes) {
        json::Object L = sarifLocation(N);
        L["message"] = json::Object{{"text", N.Message}};
        Related.push_back(std::move(L));
      }
      R["relatedLocations"] = std::move(Related);
    }
    SarifResults.push_back(std::move(R));
  }
  json::Object Driver{{"name", "rooflint"},
                      {"version", ROOFLINT_VERSION},
                      {"informationUri", "https://github.com/rooflint/rooflint"},
                      {"rules", std::move(Rules)}};
  return json::Object{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", json::Array{json::Object{{"tool", json::Object{{"driver", std::move(Driver)}}},
                                        {"results", std::move(SarifResults)}}}}};
}

llvm::Error writeJson(const llvm::json::Value &Value, llvm::StringRef Path) {
  if (llvm::StringRef Dir = llvm::sys::path::parent_path(Path); !Dir.empty())
    if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
      return llvm::createStringError(EC, "cannot create directory '" + Dir.str() + "': " + EC.message());
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
  if (EC) return llvm::createStringError(EC, "cannot write '" + Path.str() + "': " + EC.message());
  OS << llvm::formatv("{0:2}", Value) << "\n";
  return llvm::Error::success();
}

}  // namespace rooflint::analyzer
