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
#include "rooflint/files/atomic_file.h"
#include "rooflint/files/manifest_tables.h"

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

manifest::position positionOf(const SourcePosition &P) { return {P.File, static_cast<int>(P.Line), static_cast<int>(P.Column)}; }

std::optional<model::bound> expectedBound(dsl::expected_bound B) { return dsl::expected_verdict(B); }

std::vector<manifest::dim_sizes> dimSizes(const KernelRecord &K) {
  const dsl::spec &S = K.Spec;
  const auto known = [](double V) { return V > 0 ? std::optional<double>(V) : std::nullopt; };
  std::vector<manifest::dim_sizes> Out;
  for (int D = 0; D < S.dim_count; ++D)
    Out.push_back({std::string(S.dims[D].name.view()), known(S.dims[D].static_size), known(S.dims[D].declared_size),
                   known(K.Sizes[D])});
  return Out;
}

std::vector<manifest::tensor_summary> tensorSummaries(const dsl::spec &S) {
  std::vector<manifest::tensor_summary> Out;
  for (const dsl::tensor_info &T : S.tensor_list()) {
    manifest::tensor_summary O{std::string(T.name.view()), int(T.arg), T.access, T.dtype, {}, dsl::to_string(T.elements),
                               T.partial, T.extra};
    for (int I = 0; I < T.rank; ++I)
      if (T.shape[I] >= 0 && T.shape[I] < S.dim_count) O.shape.push_back(std::string(S.dims[T.shape[I]].name.view()));
    Out.push_back(std::move(O));
  }
  return Out;
}

manifest::formulas formulasOf(const dsl::spec &S) {
  const dsl::poly Bytes = S.bytes();
  return {dsl::to_string(S.flops), dsl::to_string(S.read_bytes), dsl::to_string(S.written_bytes), dsl::to_string(Bytes),
          dsl::ratio_to_string(S.flops, Bytes)};
}

/// The analyzer's prediction as the manifest types it: each ratio with its kind (a value, a range or not
/// predicted), the accesses it rests on, the launch it evaluated and the GPU whose caches it assumed.
manifest::predicted_traffic predictionOf(const KernelRecord &K) {
  using Kind = KernelRecord::PredictedTraffic::Kind;
  manifest::predicted_traffic P;
  P.source = "device-side IR evaluated for sampled warps";
  P.gpu = K.PredictionGpu;
  P.note = K.PredictionNote;
  if (K.PredictionBlock[0] > 0)
    P.launch = manifest::launch_assumption{K.PredictionBlock, K.PredictionGrid, K.PredictionLaunchStated,
                                           K.PredictionLaunchText, K.PredictionDynamicShared, K.PredictionRegisters,
                                           K.PredictionBlocksPerSm};
  for (const KernelRecord::PredictedTraffic &T : K.Predicted) {
    manifest::level_prediction L;
    L.tensor = T.Tensor;
    L.param = T.Param;
    L.level = T.Level;
    L.basis = T.Basis;
    L.sized = T.Sized;
    L.kind = T.K == Kind::Value ? manifest::prediction_kind::value
             : T.K == Kind::Range ? manifest::prediction_kind::range
                                  : manifest::prediction_kind::not_predicted;
    if (T.K == Kind::Value) L.ratio = L.low = L.high = T.Ratio;
    if (T.K == Kind::Range) {
      if (T.Pointed) L.ratio = T.Ratio;
      L.low = T.Low;
      L.high = T.High;
    }
    P.levels.push_back(std::move(L));
  }
  for (const KernelRecord::PredictedAccess &A : K.PredictedAccesses) {
    manifest::access Out;
    Out.file = A.File;
    Out.line = static_cast<int>(A.Line);
    Out.column = static_cast<int>(A.Column);
    Out.tensor = A.Tensor;
    Out.param = A.Param;
    Out.store = A.Store;
    Out.atomic = A.Atomic;
    if (A.Requests > 0) {
      Out.requests = A.Requests;
      Out.sectors_per_request = A.SectorsPerRequest;
      Out.ideal_sectors_per_request = A.IdealSectorsPerRequest;
      if (A.IdealSectorsPerRequest > 0) Out.amplification = A.SectorsPerRequest / A.IdealSectorsPerRequest;
    }
    Out.note = A.Note;
    P.accesses.push_back(std::move(Out));
  }
  return P;
}

manifest::region regionOf(const KernelRecord &K) {
  manifest::region R;
  for (const RegionKernelRecord &M : K.RegionKernels) {
    if (M.Library) {
      R.kernels.push_back({dsl::kernel_match::library, M.Pattern, "", "", {}, {}});
      continue;
    }
    R.kernels.push_back({dsl::kernel_match::function, "", M.FunctionName, M.MangledName, positionOf(M.Location), M.Params});
  }
  return R;
}

manifest::kernel_peaks kernelPeaks(const model::peaks &P, model::math_mode Mode) {
  return {std::string(P.device), P.source, P.dram_bytes_per_s, P.flops_per_s[Mode]};
}

manifest::peaks_used peaksUsed(const model::peaks &P) {
  manifest::peaks_used Out{std::string(P.device), P.source, P.dram_bytes_per_s, {}};
  for (std::size_t I = 0; I < model::math_mode_count; ++I)
    if (const auto M = static_cast<model::math_mode>(I); P.has(M)) Out.flops_per_s[M] = P.flops_per_s[M];
  return Out;
}

manifest::diagnostic manifestDiagnostic(const DiagRecord &D) {
  manifest::diagnostic Out{D.Name, diagnostics::level::warning, D.Message, D.File, static_cast<int>(D.Line),
                           static_cast<int>(D.Column), D.Group};
  files::parse_name(D.Level, Out.level);
  return Out;
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

manifest::kernel manifestKernel(const KernelRecord &K, const model::peaks &P) {
  const dsl::spec &S = K.Spec;
  manifest::kernel M;
  M.spec = K.SpecName;
  M.name = K.KernelName;
  M.function = K.FunctionName;
  M.mangled_name = K.MangledName;
  M.location = positionOf(K.KernelLocation);
  M.spec_location = positionOf(K.SpecLocation);
  M.operation = std::string(S.op.name.view());
  M.math_mode = S.mode;
  M.convention = {dsl::to_string(S.convention), S.convention.count_elementwise, S.convention.halve_causal};
  M.dims = dimSizes(K);
  M.tensors = tensorSummaries(S);
  M.formulas = formulasOf(S);
  M.expected = {expectedBound(S.expected.bound), S.expected.max_traffic_ratio, S.expected.min_roofline_fraction};
  if (K.Sized) {
    const double B = K.ReadBytes + K.WrittenBytes;
    M.values = manifest::values{K.Flops, K.ReadBytes, K.WrittenBytes, B, B > 0 ? K.Flops / B : 0.0};
  } else {
    M.missing_size = K.MissingDim;
  }
  if (K.Result) {
    const model::bound_result &R = *K.Result;
    M.verdict = manifest::verdict{R.verdict,        R.intensity, R.ridge, R.compute_time_s, R.memory_time_s,
                                  R.t_min_s,        boundSentence(K, P)};
  }
  if (K.VerdictChange)
    M.verdict_change = manifest::verdict_change{K.VerdictChange->Dim, K.VerdictChange->Size, K.VerdictChange->Above};
  M.parameters = K.Params;
  M.spec_value = S;
  M.kind = K.IsRegion ? manifest::entry_kind::region : manifest::entry_kind::kernel;
  if (K.IsRegion) M.region = regionOf(K);
  if (K.TrafficAnalysed) M.predicted = predictionOf(K);
  M.peaks = kernelPeaks(P, S.mode);
  return M;
}

manifest::manifest_file manifestOf(std::vector<manifest::kernel> Kernels, llvm::ArrayRef<DiagRecord> Diagnostics,
                                   const model::peaks &Peaks) {
  manifest::manifest_file M;
  M.rooflint_version = ROOFLINT_VERSION;
  M.peaks = peaksUsed(Peaks);
  M.kernels = std::move(Kernels);
  for (const DiagRecord &D : Diagnostics) M.diagnostics.push_back(manifestDiagnostic(D));
  return M;
}

manifest::manifest_file manifestOf(const AnalysisResults &Results, const model::peaks &Peaks) {
  std::vector<manifest::kernel> Kernels;
  for (const KernelRecord &K : Results.Kernels) Kernels.push_back(manifestKernel(K, Peaks));
  return manifestOf(std::move(Kernels), Results.Diagnostics, Peaks);
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

llvm::Error writeManifest(const manifest::manifest_file &M, llvm::StringRef Path) {
  // The directory first, as writeFileAtomically does (CMake's custom commands do not make it).
  if (llvm::StringRef Dir = llvm::sys::path::parent_path(Path); !Dir.empty())
    if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
      return llvm::createStringError(EC, "cannot write '" + Path.str() + "': cannot create directory '" + Dir.str() +
                                             "': " + EC.message());
  std::string Error;
  if (!manifest::save(M, Path.str(), Error))
    return llvm::createStringError(std::make_error_code(std::errc::io_error), Error);
  return llvm::Error::success();
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
