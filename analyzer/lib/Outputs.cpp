#include "rooflint/analyzer/Outputs.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "rooflint/dsl/formula.h"
#include "rooflint/io/atomic_file.h"

namespace rooflint::analyzer {
namespace {

/// The doc pages docs/diagnostics/*.md, embedded at configure time (analyzer/CMakeLists.txt): SARIF's
/// help for each rule is its page.
struct EmbeddedDoc {
  const char *Name;
  const char *Markdown;
};
constexpr EmbeddedDoc EmbeddedDocs[] = {
#include "DiagnosticDocs.inc"
};

llvm::StringRef docPage(llvm::StringRef Name) {
  for (const EmbeddedDoc &D : EmbeddedDocs)
    if (Name == D.Name) return D.Markdown;
  return "";
}

/// @return The page's first paragraph after its title (the summary and what follows it).
std::string firstParagraph(llvm::StringRef Markdown) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Markdown.split(Lines, '\n');
  std::string Out;
  for (llvm::StringRef L : Lines) {
    if (L.starts_with("#")) continue;
    if (L.trim().empty()) {
      if (!Out.empty()) break;
      continue;
    }
    Out += (Out.empty() ? "" : " ") + L.trim().str();
  }
  return Out;
}

namespace json = llvm::json;

json::Object location(const SourcePosition &P) {
  return json::Object{{"file", P.File}, {"line", P.Line}, {"column", P.Column}};
}

std::string expectedName(dsl::expected_bound B) {
  const auto Verdict = dsl::expected_verdict(B);
  return Verdict ? std::string(model::name(*Verdict)) : "any";
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

json::Object kernelObject(const KernelRecord &K, const model::peaks &P) {
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
    json::Object O{{"name", std::string(T.name.view())}, {"arg", int(T.arg)}, {"role", std::string(dsl::name(T.access))}};
    if (T.access != dsl::role::not_counted) {
      json::Array Shape;
      for (int I = 0; I < T.rank; ++I)
        if (T.shape[I] >= 0 && T.shape[I] < S.dim_count) Shape.push_back(std::string(S.dims[T.shape[I]].name.view()));
      O["dtype"] = std::string(model::name(T.dtype));
      O["shape"] = std::move(Shape);
      O["elements"] = dsl::to_string(T.elements);
      O["partial"] = T.partial;
      O["extra"] = T.extra;
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
  // Version 3: a region of kernels (dsl/region.h) names them in launch order.
  O["kind"] = K.IsRegion ? "region" : "kernel";
  if (K.IsRegion) {
    json::Array Members;
    for (const RegionKernelRecord &R : K.RegionKernels) {
      if (R.Library) {
        Members.push_back(json::Object{{"match", "library"}, {"pattern", R.Pattern}});
        continue;
      }
      Members.push_back(json::Object{{"match", "function"},
                                     {"function", R.FunctionName},
                                     {"mangled_name", R.MangledName},
                                     {"location", location(R.Location)},
                                     {"parameters", paramsJson(R.Params)}});
    }
    O["region"] = json::Object{{"kernels", std::move(Members)}};
  } else {
    O["region"] = nullptr;
  }
  // Version 4: the device-side traffic prediction (Traffic.h); null when the kernel's IR was not analysed.
  if (K.TrafficAnalysed) {
    using Kind = KernelRecord::PredictedTraffic::Kind;
    json::Array Tensors;
    for (const KernelRecord::PredictedTraffic &T : K.Predicted) {
      const bool Has = T.K != Kind::NotPredicted;
      Tensors.push_back(json::Object{{"tensor", T.Tensor},
                                     {"param", T.Param},
                                     {"level", T.Level},
                                     {"kind", T.K == Kind::Value ? "value" : T.K == Kind::Range ? "range" : "not_predicted"},
                                     {"ratio", Has ? json::Value(T.Ratio) : json::Value(nullptr)},
                                     {"low", Has ? json::Value(T.Low) : json::Value(nullptr)},
                                     {"high", Has ? json::Value(T.High) : json::Value(nullptr)},
                                     {"basis", T.Basis},
                                     {"sized", T.Sized}});
    }
    json::Array Accesses;
    for (const KernelRecord::PredictedAccess &A : K.PredictedAccesses) {
      const bool Evaluated = A.Requests > 0;
      Accesses.push_back(json::Object{
          {"file", A.File}, {"line", A.Line}, {"column", A.Column}, {"tensor", A.Tensor}, {"param", A.Param},
          {"store", A.Store}, {"atomic", A.Atomic},
          {"requests", Evaluated ? json::Value(A.Requests) : json::Value(nullptr)},
          {"sectors_per_request", Evaluated ? json::Value(A.SectorsPerRequest) : json::Value(nullptr)},
          {"ideal_sectors_per_request", Evaluated ? json::Value(A.IdealSectorsPerRequest) : json::Value(nullptr)},
          {"amplification", Evaluated && A.IdealSectorsPerRequest > 0
                                ? json::Value(A.SectorsPerRequest / A.IdealSectorsPerRequest)
                                : json::Value(nullptr)},
          {"note", A.Note}});
    }
    json::Value Launch = nullptr;
    if (K.PredictionBlock[0] > 0)
      Launch = json::Object{{"grid", json::Array{K.PredictionGrid[0], K.PredictionGrid[1], K.PredictionGrid[2]}},
                            {"block", json::Array{K.PredictionBlock[0], K.PredictionBlock[1], K.PredictionBlock[2]}},
                            {"stated", K.PredictionLaunchStated},
                            {"text", K.PredictionLaunchText}};
    O["predicted_traffic"] = json::Object{{"source", "device-side IR evaluated for sampled warps"},
                                          {"gpu", K.PredictionGpu},
                                          {"launch", std::move(Launch)},
                                          {"note", K.PredictionNote},
                                          {"tensors", std::move(Tensors)},
                                          {"accesses", std::move(Accesses)}};
  } else {
    O["predicted_traffic"] = nullptr;
  }
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

json::Object recordJson(const DiagRecord &D) {
  return json::Object{{"name", D.Name}, {"level", D.Level}, {"message", D.Message}, {"file", D.File},
                      {"line", D.Line}, {"column", D.Column}, {"group", D.Group}};
}

}  // namespace

llvm::json::Value kernelJson(const KernelRecord &K, const model::peaks &Peaks) { return kernelObject(K, Peaks); }

llvm::json::Value manifestJson(llvm::ArrayRef<llvm::json::Value> Kernels, llvm::ArrayRef<DiagRecord> Diagnostics,
                               const model::peaks &Peaks) {
  json::Array Diags;
  for (const DiagRecord &D : Diagnostics) Diags.push_back(recordJson(D));
  return json::Object{{"schema", "rooflint-manifest"},
                      {"version", ManifestVersion},
                      {"rooflint_version", ROOFLINT_VERSION},
                      {"peaks", peaksJson(Peaks)},
                      {"kernels", json::Array(Kernels)},
                      {"diagnostics", std::move(Diags)}};
}

llvm::json::Value manifestJson(const AnalysisResults &Results, const model::peaks &Peaks) {
  std::vector<json::Value> Kernels;
  for (const KernelRecord &K : Results.Kernels) Kernels.push_back(kernelObject(K, Peaks));
  return manifestJson(Kernels, Results.Diagnostics, Peaks);
}

llvm::json::Value diagnosticJson(const DiagRecord &D) {
  json::Object O = recordJson(D);
  json::Array Notes;
  for (const DiagRecord &N : D.Notes) Notes.push_back(diagnosticJson(N));
  O["notes"] = std::move(Notes);
  return O;
}

llvm::Expected<DiagRecord> diagnosticFromJson(const llvm::json::Value &V) {
  const json::Object *O = V.getAsObject();
  const auto missing = [](llvm::StringRef Field) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "diagnostic record without '" + Field + "'");
  };
  if (!O) return missing("an object");
  DiagRecord D;
  for (auto [Field, Into] : {std::pair<const char *, std::string *>{"group", &D.Group}, {"name", &D.Name},
                             {"level", &D.Level}, {"message", &D.Message}, {"file", &D.File}}) {
    auto S = O->getString(Field);
    if (!S) return missing(Field);
    *Into = S->str();
  }
  auto Line = O->getInteger("line"), Column = O->getInteger("column");
  if (!Line || !Column) return missing("line");
  D.Line = static_cast<unsigned>(*Line);
  D.Column = static_cast<unsigned>(*Column);
  if (const json::Array *Notes = O->getArray("notes"))
    for (const json::Value &N : *Notes) {
      auto Note = diagnosticFromJson(N);
      if (!Note) return Note.takeError();
      D.Notes.push_back(std::move(*Note));
    }
  return D;
}

std::string fileUri(llvm::StringRef AbsolutePath) {
  std::string Out = "file://";
  llvm::SmallString<256> Native(AbsolutePath);
  llvm::sys::path::native(Native, llvm::sys::path::Style::posix);
  if (!llvm::StringRef(Native).starts_with("/")) Out += "/";
  for (char C : Native) {
    // RFC 3986: unreserved characters and the path separator stay; everything else is encoded.
    if (llvm::isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' || C == '/') Out += C;
    else Out += llvm::formatv("%{0:X2}", static_cast<unsigned char>(C)).str();
  }
  return Out;
}

std::optional<std::string> relativeUri(llvm::StringRef Path, llvm::StringRef Root) {
  llvm::SmallString<256> P(Path), R(Root);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::fs::make_absolute(R);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  llvm::sys::path::remove_dots(R, /*remove_dot_dot=*/true);
  llvm::StringRef Rest(P);
  if (!Rest.consume_front(R)) return std::nullopt;
  if (!Rest.empty() && !llvm::sys::path::is_separator(Rest.front()) && !llvm::sys::path::is_separator(R.back()))
    return std::nullopt;  // "/src2/a.cu" is not under "/src"
  Rest = Rest.ltrim('/');
  if (Rest.empty()) return std::nullopt;
  return fileUri(Rest).substr(std::string("file:///").size());
}

namespace {

std::string rootUri(llvm::StringRef Root) {
  std::string U = fileUri(Root);
  if (U.back() != '/') U += '/';
  return U;
}

json::Object sarifLocation(const DiagRecord &D, const SarifOptions &Options) {
  json::Object Artifact;
  llvm::SmallString<256> Abs(D.File);
  llvm::sys::fs::make_absolute(Abs);
  if (auto Rel = relativeUri(Abs, Options.SourceRoot)) {
    Artifact["uri"] = *Rel;
    Artifact["uriBaseId"] = "%SRCROOT%";
  } else {
    Artifact["uri"] = fileUri(Abs);
  }
  json::Object Physical{{"artifactLocation", std::move(Artifact)}};
  if (D.Line > 0) Physical["region"] = json::Object{{"startLine", D.Line}, {"startColumn", std::max(D.Column, 1u)}};
  return json::Object{{"physicalLocation", std::move(Physical)}};
}

json::Object sarifRule(const DiagInfo &D, const SarifOptions &Options) {
  const llvm::StringRef Page = docPage(D.Name);
  const std::string Full = Page.empty() ? D.Summary.str() : firstParagraph(Page);
  const std::string Help = Page.empty() ? D.Summary.str() : Page.str();
  json::Object Rule{{"id", D.Name.str()},
                    {"name", D.Name.str()},
                    {"shortDescription", json::Object{{"text", D.Summary.str()}}},
                    {"fullDescription", json::Object{{"text", Full}}},
                    {"help", json::Object{{"text", Help}, {"markdown", Help}}},
                    {"defaultConfiguration", json::Object{{"level", sarifLevel(name(D.Default))}}},
                    {"properties", json::Object{{"tags", json::Array{"performance", "roofline"}}}}};
  if (!Options.DocUrlBase.empty())
    Rule["helpUri"] = llvm::StringRef(Options.DocUrlBase).rtrim('/').str() + "/" + llvm::sys::path::filename(D.Doc).str();
  return Rule;
}

/// A fingerprint that survives edits elsewhere in the file: the rule, the file's URI and the message
/// (which names the kernel, the tensor and the sizes, never a line), and the how-many-th such result.
std::string fingerprint(const DiagRecord &D, const json::Object &Location, std::map<std::string, unsigned> &Seen) {
  const json::Object *Artifact = Location.getObject("physicalLocation")->getObject("artifactLocation");
  std::string Key = D.Name + "\n" + Artifact->getString("uri")->str() + "\n" + D.Message;
  Key += "\n" + std::to_string(Seen[Key]++);
  const uint64_t H = llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Key.data()), Key.size()));
  return llvm::utohexstr(H, /*LowerCase=*/true, /*Width=*/16);
}

}  // namespace

llvm::json::Value sarifJson(llvm::ArrayRef<DiagRecord> Diagnostics, const SarifOptions &Options) {
  json::Array Rules;
  for (const DiagInfo &D : allDiagnostics()) Rules.push_back(sarifRule(D, Options));
  json::Array SarifResults;
  std::map<std::string, unsigned> Seen;
  for (const DiagRecord &D : Diagnostics) {
    json::Object Location = sarifLocation(D, Options);
    const std::string Print = fingerprint(D, Location, Seen);
    json::Object R{{"ruleId", D.Name},
                   {"level", sarifLevel(D.Level)},
                   {"message", json::Object{{"text", D.Message}}},
                   {"locations", json::Array{std::move(Location)}},
                   {"partialFingerprints", json::Object{{"rooflintResult/v1", Print}}}};
    if (auto K = findDiagnostic(D.Name)) R["ruleIndex"] = static_cast<unsigned>(*K);
    if (!D.Notes.empty()) {
      json::Array Related;
      unsigned Id = 0;
      for (const DiagRecord &N : D.Notes) {
        json::Object L = sarifLocation(N, Options);
        L["id"] = Id++;
        L["message"] = json::Object{{"text", N.Message}};
        Related.push_back(std::move(L));
      }
      R["relatedLocations"] = std::move(Related);
    }
    SarifResults.push_back(std::move(R));
  }
  json::Object Driver{{"name", "rooflint"},
                      {"version", ROOFLINT_VERSION},
                      {"semanticVersion", ROOFLINT_VERSION},
                      {"informationUri", "https://github.com/rooflint/rooflint"},
                      {"rules", std::move(Rules)}};
  json::Object Run{{"tool", json::Object{{"driver", std::move(Driver)}}},
                   {"originalUriBaseIds", json::Object{{"%SRCROOT%", json::Object{{"uri", rootUri(Options.SourceRoot)}}}}},
                   {"columnKind", "unicodeCodePoints"},
                   {"results", std::move(SarifResults)}};
  return json::Object{{"$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"},
                      {"version", "2.1.0"},
                      {"runs", json::Array{std::move(Run)}}};
}

llvm::json::Value sarifJson(const AnalysisResults &Results) {
  SarifOptions Options;
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  Options.SourceRoot = Cwd.str().str();
  return sarifJson(Results.Diagnostics, Options);
}

std::string depfileText(llvm::StringRef Target, std::vector<std::string> Dependencies) {
  const auto escape = [](llvm::StringRef Path) {
    std::string Out;
    for (char C : Path) {
      if (C == ' ' || C == '#') Out += '\\';
      if (C == '$') Out += '$';
      Out += C;
    }
    return Out;
  };
  std::sort(Dependencies.begin(), Dependencies.end());
  Dependencies.erase(std::unique(Dependencies.begin(), Dependencies.end()), Dependencies.end());
  std::string Out = escape(Target) + ":";
  for (const std::string &D : Dependencies) Out += " \\\n  " + escape(D);
  return Out + "\n";
}

llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents) {
  // A build system expects the output's directory to appear (CMake's custom commands do not make it).
  if (llvm::StringRef Dir = llvm::sys::path::parent_path(Path); !Dir.empty())
    if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
      return llvm::createStringError(EC, "cannot write '" + Path.str() + "': cannot create directory '" + Dir.str() +
                                             "': " + EC.message());
  if (auto Failed = io::write_file_atomically(Path.str(), std::string_view(Contents.data(), Contents.size())))
    return llvm::createStringError(std::make_error_code(std::errc::io_error), *Failed);
  return llvm::Error::success();
}

std::optional<std::string> firstNonFinite(const llvm::json::Value &Value, const std::string &Where) {
  if (const auto Number = Value.getAsNumber(); Number && Value.kind() == llvm::json::Value::Number)
    return std::isfinite(*Number) ? std::nullopt : std::optional<std::string>(Where.empty() ? "/" : Where);
  if (const llvm::json::Object *O = Value.getAsObject()) {
    for (const auto &KV : *O)
      if (auto Bad = firstNonFinite(KV.second, Where + "/" + KV.first.str())) return Bad;
  } else if (const llvm::json::Array *A = Value.getAsArray()) {
    for (size_t I = 0; I < A->size(); ++I)
      if (auto Bad = firstNonFinite((*A)[I], Where + "/" + std::to_string(I))) return Bad;
  }
  return std::nullopt;
}

llvm::Error writeJson(const llvm::json::Value &Value, llvm::StringRef Path) {
  // JSON has no infinity or NaN; llvm::json would print "inf", which no reader accepts.
  if (auto Where = firstNonFinite(Value))
    return llvm::createStringError(std::make_error_code(std::errc::invalid_argument),
                                   "cannot write '" + Path.str() + "': '" + *Where + "' is not a finite number");
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << llvm::formatv("{0:2}", Value) << "\n";
  return writeFileAtomically(Path, Text);
}

}  // namespace rooflint::analyzer
