#include "rooflint/analyzer/CudaSetup.h"

#include <algorithm>
#include <cstdlib>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/WithColor.h"
#include "rooflint/analyzer/Diagnostics.h"
#include "rooflint/analyzer/HostBodies.h"

namespace rooflint::analyzer {
namespace {

llvm::cl::opt<bool> AllowParseErrorsOption(
    "allow-parse-errors",
    llvm::cl::desc("A file clang 19 cannot parse (CUDA code that only nvcc accepts) is a warning and does not "
                   "fail the run (exit status 0); its specs are not analysed"));

bool exists(const std::string &Path) { return !Path.empty() && llvm::sys::fs::exists(Path); }

/// nvcc options whose value is the next argument (or follows '='), dropped with their value.
constexpr llvm::StringLiteral DroppedWithValue[] = {
    "-gencode", "--generate-code", "-arch", "--gpu-architecture", "-code", "--gpu-code", "-Xptxas",
    "--ptxas-options", "-Xcudafe", "-Xnvlink", "--nvlink-options", "-Xfatbin", "-Xarchive", "-ccbin",
    "--compiler-bindir", "-maxrregcount", "--maxrregcount", "--diag-suppress", "-diag-suppress", "--threads",
    "-t", "-cudart", "--cudart", "-ftz", "-prec-div", "-prec-sqrt", "-fmad", "--ftz", "--prec-div",
    "--prec-sqrt", "--fmad", "-rdc", "--relocatable-device-code", "-Xcicc", "--default-stream",
    "-default-stream", "-Wno-deprecated-declarations=", "--diag-error", "--diag-warn", "-err-no",
    "-static-global-template-stub", "--static-global-template-stub"};  // nvcc 13 (docs/troubleshooting.md)

/// nvcc flags that only tell the code what nvcc allows, translated to the macro nvcc defines for them
/// (clang's CUDA mode has extended lambdas and host-device constexpr functions natively).
constexpr std::pair<llvm::StringLiteral, llvm::StringLiteral> FlagMacros[] = {
    {"--expt-relaxed-constexpr", "__CUDACC_RELAXED_CONSTEXPR__"}, {"-expt-relaxed-constexpr", "__CUDACC_RELAXED_CONSTEXPR__"},
    {"--expt-extended-lambda", "__CUDACC_EXTENDED_LAMBDA__"},     {"-expt-extended-lambda", "__CUDACC_EXTENDED_LAMBDA__"},
    {"--extended-lambda", "__CUDACC_EXTENDED_LAMBDA__"},          {"-extended-lambda", "__CUDACC_EXTENDED_LAMBDA__"}};

/// nvcc flags without a value, dropped.
constexpr llvm::StringLiteral DroppedFlags[] = {
    "-dc", "--device-c", "-dw", "--device-w", "-lineinfo",
    "--generate-line-info", "--use_fast_math", "-use_fast_math", "-G", "--device-debug",
    "-forward-unknown-to-host-compiler", "--forward-unknown-to-host-compiler", "-Wno-deprecated-gpu-targets",
    "--keep", "-keep", "--display-error-number", "-res-usage", "--resource-usage", "--source-in-ptx",
    "--use-local-env", "-Werror=all-warnings", "--Werror", "-restrict", "--restrict", "-dlink", "--device-link"};

bool matchesWithValue(llvm::StringRef Arg, bool &ValueIsNext) {
  for (llvm::StringRef D : DroppedWithValue) {
    if (Arg == D) { ValueIsNext = !D.ends_with("=") && D != "-rdc" && D != "--relocatable-device-code"; return true; }
    if (Arg.starts_with(D) && Arg.size() > D.size() && Arg[D.size()] == '=') { ValueIsNext = false; return true; }
  }
  return false;
}

void tokenizeFile(llvm::StringRef Path, std::vector<std::string> &Out, bool &Ok) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  Ok = static_cast<bool>(Buffer);
  if (!Ok) return;
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  llvm::SmallVector<const char *, 32> Tokens;
  llvm::cl::TokenizeGNUCommandLine((*Buffer)->getBuffer(), Saver, Tokens);
  for (const char *T : Tokens) Out.emplace_back(T);
}

/// "13.0.88" -> {13, 0, 88}; a missing build number is 0.
std::optional<CudaVersion> parseVersion(llvm::StringRef Text, llvm::StringRef Source) {
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Text.trim().split(Parts, '.');
  CudaVersion V;
  V.Source = Source.str();
  if (Parts.size() < 2 || Parts[0].getAsInteger(10, V.Major) || Parts[1].getAsInteger(10, V.Minor)) return std::nullopt;
  if (Parts.size() > 2 && Parts[2].getAsInteger(10, V.Build)) return std::nullopt;
  if (V.Major <= 0) return std::nullopt;
  return V;
}

/// version.json of a toolkit installed by NVIDIA's installers: {"cuda_nvcc": {"version": "13.0.88"}, ...}.
std::optional<CudaVersion> fromVersionJson(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer) return std::nullopt;
  llvm::Expected<llvm::json::Value> Json = llvm::json::parse((*Buffer)->getBuffer());
  if (!Json) {
    llvm::consumeError(Json.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *Root = Json->getAsObject();
  if (!Root) return std::nullopt;
  for (llvm::StringRef Key : {"cuda_nvcc", "cuda"})
    if (const llvm::json::Object *Entry = Root->getObject(Key))
      if (std::optional<llvm::StringRef> Text = Entry->getString("version"))
        if (auto V = parseVersion(*Text, Path + " (" + Key.str() + ")")) return V;
  return std::nullopt;
}

/// A toolkit assembled from NVIDIA's wheels keeps their metadata: dist-info/nvidia_cuda_nvcc-13.0.88.dist-info.
std::optional<CudaVersion> fromDistInfo(const std::string &Dir) {
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (Name.consume_front("nvidia_cuda_nvcc-") && Name.consume_back(".dist-info"))
      if (auto V = parseVersion(Name, It->path())) return V;
  }
  return std::nullopt;
}

/// cuda.h's `#define CUDA_VERSION 13000` (major * 1000 + minor * 10): no build number.
std::optional<CudaVersion> fromCudaH(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer) return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.trim();
    if (!Line.consume_front("#define")) continue;
    Line = Line.ltrim();
    if (!Line.consume_front("CUDA_VERSION ")) continue;
    Line = Line.ltrim();
    int Number = 0;
    if (Line.consumeInteger(10, Number) || Number < 1000) return std::nullopt;
    CudaVersion V;
    V.Major = Number / 1000;
    V.Minor = Number % 1000 / 10;
    V.Source = Path + " (CUDA_VERSION)";
    return V;
  }
  return std::nullopt;
}

class CudaDatabase : public clang::tooling::CompilationDatabase {
public:
  CudaDatabase(const clang::tooling::CompilationDatabase &Base, CudaEnvironment Env, std::vector<std::string> &Notes)
      : Base(Base), Env(std::move(Env)), Notes(Notes) {}

  std::vector<clang::tooling::CompileCommand> getCompileCommands(llvm::StringRef File) const override {
    return adjust(Base.getCompileCommands(File));
  }
  std::vector<std::string> getAllFiles() const override { return Base.getAllFiles(); }
  std::vector<clang::tooling::CompileCommand> getAllCompileCommands() const override {
    return adjust(Base.getAllCompileCommands());
  }

private:
  std::vector<clang::tooling::CompileCommand> adjust(std::vector<clang::tooling::CompileCommand> Commands) const {
    for (auto &C : Commands) C.CommandLine = adjustCommandLine(C.CommandLine, C.Directory, C.Filename, Env, Notes);
    return Commands;
  }
  const clang::tooling::CompilationDatabase &Base;
  CudaEnvironment Env;
  std::vector<std::string> &Notes;
};

}  // namespace

std::optional<CudaVersion> readToolkitVersion(llvm::StringRef ToolkitPath) {
  if (ToolkitPath.empty()) return std::nullopt;
  const std::string Root = ToolkitPath.str();
  if (auto V = fromVersionJson(Root + "/version.json")) return V;
  if (auto V = fromDistInfo(Root + "/dist-info")) return V;
  return fromCudaH(Root + "/include/cuda.h");
}

namespace {
std::string findToolkit() {
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME", "CUDA_ROOT"})
    if (const char *V = std::getenv(Var); V && exists(std::string(V) + "/include/cuda_runtime.h")) return V;
  if (exists("/usr/local/cuda/include/cuda_runtime.h")) return "/usr/local/cuda";
  if (auto Nvcc = llvm::sys::findProgramByName("nvcc")) {
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(*Nvcc, Real)) Real = *Nvcc;
    llvm::StringRef Bin = llvm::sys::path::parent_path(Real);
    std::string Root = llvm::sys::path::parent_path(Bin).str();
    if (exists(Root + "/include/cuda_runtime.h")) return Root;
  }
  return "";
}
}  // namespace

CudaEnvironment detectEnvironment() {
  CudaEnvironment Env;
  Env.ResourceDir = ROOFLINT_CLANG_RESOURCE_DIR;
  Env.ToolkitPath = findToolkit();
  Env.Version = readToolkitVersion(Env.ToolkitPath);
  return Env;
}

const std::vector<std::pair<std::string, std::string>> &virtualFiles() {
  static const std::vector<std::pair<std::string, std::string>> Files{
      {VirtualIncludeDir.str() + "/texture_fetch_functions.h",
       "// Supplied by rooflint: CUDA 12 removed this header; clang 19's CUDA wrapper still includes it.\n"},
      // The main file of the precompiled CUDA prefix (PchCache.h): empty, what -include adds precedes it.
      {"/rooflint-virtual/pch-prefix.cu", ""},
      {VirtualIncludeDir.str() + "/rooflint_cuda_host_compat.h", R"(#pragma once
// Supplied by rooflint (-include) when it parses CUDA on the host side: cache-hint load/store intrinsics
// that CUDA declares in sm_32_intrinsics.h, which clang 19's CUDA wrapper does not include and does not
// define. Declarations suffice: the analyzer never generates code.
#define ROOFLINT_COMPAT_LOAD(name) template <class T> __attribute__((device)) T name(const T *);
#define ROOFLINT_COMPAT_STORE(name) template <class T> __attribute__((device)) void name(T *, T);
ROOFLINT_COMPAT_LOAD(__ldcg) ROOFLINT_COMPAT_LOAD(__ldca) ROOFLINT_COMPAT_LOAD(__ldcs)
ROOFLINT_COMPAT_LOAD(__ldlu) ROOFLINT_COMPAT_LOAD(__ldcv)
ROOFLINT_COMPAT_STORE(__stwb) ROOFLINT_COMPAT_STORE(__stcg) ROOFLINT_COMPAT_STORE(__stcs)
ROOFLINT_COMPAT_STORE(__stwt)
#undef ROOFLINT_COMPAT_LOAD
#undef ROOFLINT_COMPAT_STORE

// The surface functions of CUDA's surface_indirect_functions.h (surf1Dread ... surfCubemapLayeredwrite),
// which clang 19's CUDA wrapper does not include (CUDA defines them with nvcc-only builtins): cuda-samples'
// bindlessTexture and volumeRender did not parse. Its include guard is defined, so that a file including
// that header directly gets these declarations and not nvcc's definitions. Only with clang's CUDA
// wrapper included (it brings cudaSurfaceObject_t): -nocudainc (the tests' mock CUDA) has none.
#ifdef __CLANG_CUDA_RUNTIME_WRAPPER_H__
#define __SURFACE_INDIRECT_FUNCTIONS_H__
#define ROOFLINT_COMPAT_SURFACE(shape, ...)                                                                  \
  template <class T> __attribute__((device)) void surf##shape##read(T *, cudaSurfaceObject_t, __VA_ARGS__,   \
                                                                    cudaSurfaceBoundaryMode = cudaBoundaryModeTrap); \
  template <class T> __attribute__((device)) T surf##shape##read(cudaSurfaceObject_t, __VA_ARGS__,           \
                                                                 cudaSurfaceBoundaryMode = cudaBoundaryModeTrap); \
  template <class T> __attribute__((device)) void surf##shape##write(T, cudaSurfaceObject_t, __VA_ARGS__,    \
                                                                     cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
ROOFLINT_COMPAT_SURFACE(1D, int)  // x
ROOFLINT_COMPAT_SURFACE(2D, int, int)  // x, y
ROOFLINT_COMPAT_SURFACE(3D, int, int, int)  // x, y, z
ROOFLINT_COMPAT_SURFACE(1DLayered, int, int)  // x, layer
ROOFLINT_COMPAT_SURFACE(2DLayered, int, int, int)  // x, y, layer
ROOFLINT_COMPAT_SURFACE(Cubemap, int, int, int)  // x, y, face
ROOFLINT_COMPAT_SURFACE(CubemapLayered, int, int, int)  // x, y, layer * 6 + face
#undef ROOFLINT_COMPAT_SURFACE
#endif

// CUDA 12.8's memory-order atomics (__nv_atomic_load_n and the like, with __NV_ATOMIC_* orders and
// __NV_THREAD_SCOPE_* scopes): builtins of nvcc that crt/device_functions.h names but clang 19 does not
// have. CUTLASS uses __nv_atomic_load_n once the toolkit is 12.8 or newer (subbyte_reference.h), which
// every CUTLASS example includes. nvcc's orders have the values of clang's __ATOMIC_* (relaxed 0 ...
// seq_cst 5), so the calls become clang's atomic builtins, which the traffic analysis sees as atomics;
// the scope (last argument, optional) is dropped: it narrows ordering, not what is moved.
enum { __NV_ATOMIC_RELAXED, __NV_ATOMIC_CONSUME, __NV_ATOMIC_ACQUIRE, __NV_ATOMIC_RELEASE, __NV_ATOMIC_ACQ_REL,
       __NV_ATOMIC_SEQ_CST };
enum { __NV_THREAD_SCOPE_THREAD, __NV_THREAD_SCOPE_BLOCK, __NV_THREAD_SCOPE_CLUSTER, __NV_THREAD_SCOPE_DEVICE,
       __NV_THREAD_SCOPE_SYSTEM };
#define __nv_atomic_load_n(ptr, order, ...) __atomic_load_n(ptr, order)
#define __nv_atomic_load(ptr, ret, order, ...) __atomic_load(ptr, ret, order)
#define __nv_atomic_store_n(ptr, value, order, ...) __atomic_store_n(ptr, value, order)
#define __nv_atomic_store(ptr, value, order, ...) __atomic_store(ptr, value, order)
#define __nv_atomic_exchange_n(ptr, value, order, ...) __atomic_exchange_n(ptr, value, order)
#define __nv_atomic_exchange(ptr, value, ret, order, ...) __atomic_exchange(ptr, value, ret, order)
#define __nv_atomic_compare_exchange_n(ptr, expected, desired, weak, success, failure, ...)                  \
  __atomic_compare_exchange_n(ptr, expected, desired, weak, success, failure)
#define __nv_atomic_compare_exchange(ptr, expected, desired, weak, success, failure, ...)                    \
  __atomic_compare_exchange(ptr, expected, desired, weak, success, failure)
#define __nv_atomic_fetch_add(ptr, value, order, ...) __atomic_fetch_add(ptr, value, order)
#define __nv_atomic_fetch_sub(ptr, value, order, ...) __atomic_fetch_sub(ptr, value, order)
#define __nv_atomic_fetch_and(ptr, value, order, ...) __atomic_fetch_and(ptr, value, order)
#define __nv_atomic_fetch_or(ptr, value, order, ...) __atomic_fetch_or(ptr, value, order)
#define __nv_atomic_fetch_xor(ptr, value, order, ...) __atomic_fetch_xor(ptr, value, order)
#define __nv_atomic_fetch_min(ptr, value, order, ...) __atomic_fetch_min(ptr, value, order)
#define __nv_atomic_fetch_max(ptr, value, order, ...) __atomic_fetch_max(ptr, value, order)
#define __nv_atomic_thread_fence(order, ...) __atomic_thread_fence(order)

// nvcc's crt/math_functions.hpp defines max/min for these argument types as __host__ __device__ (the
// int ones only when !__CUDA_ARCH__); clang 19 defines them for the device only, so CUDA code calling
// them from host or host-device functions does not parse. Host versions with nvcc's result types
// (clang allows a __host__ and a __device__ overload of one signature; (int, float) stays ambiguous,
// as under nvcc).
#define ROOFLINT_COMPAT_MINMAX(A, B, R)                                                                     \
  __attribute__((host)) inline R max(A a, B b) { return static_cast<R>(a) > static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); } \
  __attribute__((host)) inline R min(A a, B b) { return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); }
ROOFLINT_COMPAT_MINMAX(int, int, int)
ROOFLINT_COMPAT_MINMAX(unsigned int, unsigned int, unsigned int)
ROOFLINT_COMPAT_MINMAX(long, long, long)
ROOFLINT_COMPAT_MINMAX(unsigned long, unsigned long, unsigned long)
ROOFLINT_COMPAT_MINMAX(long long, long long, long long)
ROOFLINT_COMPAT_MINMAX(unsigned long long, unsigned long long, unsigned long long)
ROOFLINT_COMPAT_MINMAX(float, float, float)
ROOFLINT_COMPAT_MINMAX(double, double, double)
ROOFLINT_COMPAT_MINMAX(int, unsigned int, unsigned int)
ROOFLINT_COMPAT_MINMAX(unsigned int, int, unsigned int)
ROOFLINT_COMPAT_MINMAX(long, unsigned long, unsigned long)
ROOFLINT_COMPAT_MINMAX(unsigned long, long, unsigned long)
ROOFLINT_COMPAT_MINMAX(long long, unsigned long long, unsigned long long)
ROOFLINT_COMPAT_MINMAX(unsigned long long, long long, unsigned long long)
ROOFLINT_COMPAT_MINMAX(float, double, double)
ROOFLINT_COMPAT_MINMAX(double, float, double)
#undef ROOFLINT_COMPAT_MINMAX

// nvcc declares ::isfinite, ::isnan, ::isinf and ::signbit callable from host code without <math.h>;
// clang 19 declares them for the device only. Templates, so that <math.h>'s `using std::isfinite;`
// (exact non-template overloads, preferred) does not conflict with them.
#include <cmath>
#include <type_traits>
// nvcc's crt/common_functions.h includes <time.h> (it declares a host-device clock()); clang 19's wrapper
// does not, so host code calling clock() with CLOCKS_PER_SEC and no include of its own (llm.c) did not parse.
#include <time.h>
#define ROOFLINT_COMPAT_CLASSIFY(name)                                                                      \
  template <class T, class = typename std::enable_if<std::is_floating_point<T>::value>::type>               \
  __attribute__((host)) inline bool name(T x) { return std::name(x); }
ROOFLINT_COMPAT_CLASSIFY(isfinite)
ROOFLINT_COMPAT_CLASSIFY(isnan)
ROOFLINT_COMPAT_CLASSIFY(isinf)
ROOFLINT_COMPAT_CLASSIFY(signbit)
#undef ROOFLINT_COMPAT_CLASSIFY
)"}};
  return Files;
}

bool isCudaFile(llvm::StringRef File) {
  llvm::StringRef Ext = llvm::sys::path::extension(File);
  return Ext == ".cu" || Ext == ".cuh";
}

void prepareTool(clang::tooling::ClangTool &Tool, clang::DiagnosticConsumer &Diags) {
  Tool.setDiagnosticConsumer(&Diags);
  Tool.setPrintErrorMessage(false);
  for (const auto &[Path, Contents] : virtualFiles()) Tool.mapVirtualFile(Path, Contents);
}

void prepareDeviceParse(clang::CompilerInvocation &Invocation) {
  clang::LangOptions &LO = Invocation.getLangOpts();
  if (!LO.CUDA || !LO.CUDAIsDevice) return;
  LO.GPUAllowDeviceInit = true;
  Invocation.getFrontendOpts().SkipFunctionBodies = true;  // the consumers decide which: skipsBody
}

bool isHostOnly(const clang::FunctionDecl &F) {
  return !F.isConstexpr() && !F.hasAttr<clang::CUDADeviceAttr>() && !F.hasAttr<clang::CUDAGlobalAttr>();
}

bool skipsBody(const clang::Decl &D, const clang::SourceManager &SM, const std::set<std::string> *Unparsed) {
  const clang::FunctionDecl *F = D.getAsFunction();
  if (!F || !isHostOnly(*F)) return false;
  return SM.isInSystemHeader(SM.getExpansionLoc(D.getLocation())) ||
         (Unparsed && !Unparsed->empty() && Unparsed->count(hostBodyKey(SM, *F)) > 0);
}

void BodySkipper::Initialize(clang::ASTContext &Ctx) { Sources = &Ctx.getSourceManager(); }

bool BodySkipper::shouldSkipFunctionBody(clang::Decl *D) { return Sources && skipsBody(*D, *Sources, Unparsed); }

std::vector<std::string> adjustCommandLine(const std::vector<std::string> &Args, llvm::StringRef Directory,
                                           llvm::StringRef File, const CudaEnvironment &Env,
                                           std::vector<std::string> &Notes) {
  std::vector<std::string> Out;
  if (Args.empty()) return Out;
  const auto note = [&](const std::string &What) {
    const std::string Line = "dropping nvcc-only flag '" + What + "' (clang, which parses the code for the analyzer, does not take it)";
    if (std::find(Notes.begin(), Notes.end(), Line) == Notes.end()) Notes.push_back(Line);
  };
  llvm::StringRef Driver = llvm::sys::path::filename(Args[0]);
  Out.push_back(Driver.contains("nvcc") ? "clang++" : Args[0]);
  bool Cuda = isCudaFile(File);
  bool HasCudaPath = false, HasResourceDir = false, HostOnly = false;

  std::vector<std::string> Pending(Args.begin() + 1, Args.end());
  llvm::StringSet<> Defined;  // macros the command line defines or undefines
  for (std::size_t I = 0; I < Pending.size(); ++I) {
    const std::string Arg = Pending[I];
    llvm::StringRef A(Arg);
    bool ValueIsNext = false;
    if (A == "-Xcompiler" || A == "--compiler-options" || A.starts_with("-Xcompiler=") ||
        A.starts_with("--compiler-options=")) {
      std::string Value;
      if (A.contains('=')) Value = A.split('=').second.str();
      else if (I + 1 < Pending.size()) Value = Pending[++I];
      llvm::SmallVector<llvm::StringRef, 4> Parts;
      llvm::StringRef(Value).split(Parts, ',', -1, false);
      for (llvm::StringRef P : Parts) Out.push_back(P.str());
      continue;
    }
    if (A == "--options-file" || A == "-optf" || A.starts_with("--options-file=")) {
      std::string Path = A.contains('=') ? A.split('=').second.str() : (I + 1 < Pending.size() ? Pending[++I] : "");
      llvm::SmallString<256> Full(Path);
      if (!Path.empty() && llvm::sys::path::is_relative(Full)) {
        Full = Directory;
        llvm::sys::path::append(Full, Path);
      }
      std::vector<std::string> Contents;
      bool Ok = false;
      tokenizeFile(Full, Contents, Ok);
      if (!Ok) note(Arg + " " + Path);
      Pending.insert(Pending.begin() + I + 1, Contents.begin(), Contents.end());
      continue;
    }
    if ((A == "-x" || A == "--x") && I + 1 < Pending.size()) {
      std::string Lang = Pending[++I];
      if (Lang == "cu" || Lang == "cuda") { Lang = "cuda"; Cuda = true; }
      Out.push_back("-x");
      Out.push_back(Lang);
      continue;
    }
    if (A == "-xcuda" || A == "-xcu") { Out.push_back("-xcuda"); Cuda = true; continue; }
    if (A.starts_with("-isystem=")) {  // nvcc's spelling (CMake writes it for CUDA)
      Out.push_back("-isystem");
      Out.push_back(A.drop_front(9).str());
      continue;
    }
    // "Compile only": the analysis never writes an object, and with the device-side parse clang
    // warned for every file of a compilation database ("argument unused during compilation: '-c'").
    if (A == "-c" || A == "--compile") continue;
    if (A.starts_with("--std=")) { Out.push_back("-std=" + A.drop_front(6).str()); continue; }
    if (A == "--std" && I + 1 < Pending.size()) { Out.push_back("-std=" + Pending[++I]); continue; }
    if (matchesWithValue(A, ValueIsNext)) {
      std::string Dropped = Arg;
      if (ValueIsNext && I + 1 < Pending.size()) Dropped += " " + Pending[++I];
      note(Dropped);
      continue;
    }
    if (std::find(std::begin(DroppedFlags), std::end(DroppedFlags), A) != std::end(DroppedFlags)) {
      note(Arg);
      continue;
    }
    if (auto It = std::find_if(std::begin(FlagMacros), std::end(FlagMacros), [&](const auto &F) { return F.first == A; });
        It != std::end(FlagMacros)) {
      Defined.insert(It->second);
      Out.push_back("-D" + It->second.str());
      continue;
    }
    if (A.starts_with("-D") || A.starts_with("-U")) {  // the user's own: never defined twice
      llvm::StringRef Name = A.drop_front(2);
      if (Name.empty() && I + 1 < Pending.size()) Name = Pending[I + 1];
      Defined.insert(Name.split('=').first);
    }
    if (A.starts_with("--cuda-path")) HasCudaPath = true;
    if (A.starts_with("-resource-dir")) HasResourceDir = true;
    if (A == "--cuda-host-only") HostOnly = true;
    if (A == "--cuda-device-only" || A.starts_with("--cuda-gpu-arch") || A.starts_with("--offload-arch")) {
      note(Arg);  // the analyzer reads host code once
      continue;
    }
    Out.push_back(Arg);
  }

  std::vector<std::string> Added;
  if (!HasResourceDir && !Env.ResourceDir.empty()) Added.push_back("-resource-dir=" + Env.ResourceDir);
  if (Cuda) {
    // One parse, device side (sm_90): the AST has the host code (specs, launches) as well, and the
    // same parse generates the kernels' IR for the traffic analysis (Traffic.h). The SDK version is
    // the newest clang 19 knows (it reads no version from CUDA 13), which picks the kernel-launch API.
    if (!HostOnly)
      for (const char *F : {"--cuda-device-only", "--cuda-gpu-arch=sm_90", "-nocudalib", "-Xclang", "-target-sdk-version=12.4"})
        Added.push_back(F);
    Added.push_back("-Wno-unknown-cuda-version");
    if (!HasCudaPath && !Env.ToolkitPath.empty()) Added.push_back("--cuda-path=" + Env.ToolkitPath);
    if (!Env.ToolkitPath.empty() && exists(Env.ToolkitPath + "/include/cccl")) {
      Added.push_back("-isystem");
      Added.push_back(Env.ToolkitPath + "/include/cccl");
    }
    Added.push_back("-idirafter");
    Added.push_back(VirtualIncludeDir.str());
    // What nvcc predefines for the toolkit's version: CUTLASS, CCCL and others choose code paths by it
    // (CUTLASS's SM90 paths test __CUDACC_VER_MAJOR__ in code, which does not parse without it).
    if (Env.Version) {
      const std::pair<const char *, int> Macros[] = {{"__CUDACC_VER_MAJOR__", Env.Version->Major},
                                                     {"__CUDACC_VER_MINOR__", Env.Version->Minor},
                                                     {"__CUDACC_VER_BUILD__", Env.Version->Build}};
      for (const auto &[Name, Value] : Macros)
        if (!Defined.contains(Name)) Added.push_back("-D" + std::string(Name) + "=" + std::to_string(Value));
    }
    if (!Env.ToolkitPath.empty()) {  // with the toolkit's headers only; mocks declare what they need
      Added.push_back("-include");
      Added.push_back(VirtualIncludeDir.str() + "/rooflint_cuda_host_compat.h");
    }
  }
  Out.insert(Out.begin() + 1, Added.begin(), Added.end());
  return Out;
}

std::unique_ptr<clang::tooling::CompilationDatabase>
makeCudaDatabase(const clang::tooling::CompilationDatabase &Base, CudaEnvironment Env,
                 std::vector<std::string> &Notes) {
  return std::make_unique<CudaDatabase>(Base, std::move(Env), Notes);
}

void addParseOptions(llvm::cl::OptionCategory &Category) { AllowParseErrorsOption.addCategory(Category); }

bool allowParseErrors() { return AllowParseErrorsOption; }

namespace {
/// Whether diagnostic @p ID is clang's driver's (an unknown argument, no input file): a problem of the
/// command line, which --allow-parse-errors does not excuse. Parse errors are the other categories
/// (common, lex, parse, sema, and the front end's, which reports code generation's).
bool isCommandDiagnostic(unsigned ID) {
  return ID >= clang::diag::DIAG_START_DRIVER && ID < clang::diag::DIAG_START_FRONTEND;
}
}  // namespace

void ParseWatcher::noteSpecMessage(llvm::StringRef Message) {
  const std::size_t At = Message.find("rooflint: ");
  if (!AwaitingSpecMessage || At == llvm::StringRef::npos) return;
  AwaitingSpecMessage = false;
  ++SpecErrors;
  if (!FirstSpecError.empty()) return;
  // The DSL's require() shows its message as a string argument, &"rooflint: ..."[0], with its quotes
  // escaped; a static_assert's is the rest of the error.
  llvm::StringRef Text = Message.substr(At);
  Text = Text.substr(0, Text.find("\"[0]"));
  std::string Plain;
  for (std::size_t I = 0; I < Text.size(); ++I) Plain += Text[I] == '\\' && I + 1 < Text.size() && Text[I + 1] == '"' ? Text[++I] : Text[I];
  FirstSpecError = (LastErrorWhere.empty() ? "" : LastErrorWhere + ": ") + Plain;
}

void ParseWatcher::HandleDiagnostic(clang::DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) {
  using Level_t = clang::DiagnosticsEngine::Level;
  // rooflint's diagnostics are custom ones (IDs above clang's own).
  const bool Own = Info.getID() >= clang::diag::DIAG_UPPER_LIMIT;
  llvm::SmallString<128> Message;
  if (Level != Level_t::Note) {
    AwaitingSpecMessage = false;
  } else if (AwaitingSpecMessage) {  // the notes of the latest clang error: where a spec's check failed
    Info.FormatDiagnostic(Message);
    noteSpecMessage(Message);
  }
  if (Level >= Level_t::Error) {
    if (Own) {
      ++OwnErrors;
    } else if (isCommandDiagnostic(Info.getID())) {
      ++CommandErrors;
    } else {
      Info.FormatDiagnostic(Message);
      LastErrorWhere = Info.hasSourceManager() ? presumedPosition(Info.getSourceManager(), Info.getLocation()) : "";
      if (Info.getID() == clang::diag::err_pp_hash_error && Message.str().contains("rooflint: ")) {
        if (SetupError.empty()) SetupError = (LastErrorWhere.empty() ? "" : LastErrorWhere + ": ") + Message.str().trim('"').str();
      } else {
        AwaitingSpecMessage = true;
        noteSpecMessage(Message);  // a static_assert's message
      }
      if (ClangErrors++ == 0) {
        FirstError = (LastErrorWhere.empty() ? "" : LastErrorWhere + ": ") + Message.str().str();
        if (Info.getID() == clang::diag::err_pp_file_not_found && Info.getNumArgs() > 0 &&
            Info.getArgKind(0) == clang::DiagnosticsEngine::ak_std_string)
          MissingHeader = Info.getArgStdStr(0);
      }
      if (AllowParseErrors) Level = Level_t::Warning;
    }
  }
  clang::DiagnosticConsumer::HandleDiagnostic(Level, Info);  // counts what is passed on
  Inner.HandleDiagnostic(Level, Info);
}

void ParseWatcher::discardFile() {
  ClangErrors = OwnErrors = CommandErrors = SpecErrors = 0;
  AwaitingSpecMessage = false;
  FirstError.clear();
  FirstSpecError.clear();
  LastErrorWhere.clear();
  MissingHeader.clear();
  SetupError.clear();
  clear();
  Inner.clear();
}

namespace {
/// What to do about header @p Name that the parse did not find: the CUDA toolkit's own headers are
/// nvcc's to find (rooflint looks for the toolkit: --cuda-path), any other is the compile command's.
std::string missingHeaderHint(llvm::StringRef Name) {
  static constexpr const char *Toolkit[] = {"cuda", "cub/", "thrust/", "cooperative_groups", "mma.h", "crt/", "nv/", "cufft",
                                            "cublas", "curand", "cusparse", "cusolver", "nvtx", "npp", "vector_types.h"};
  if (llvm::any_of(Toolkit, [&](const char *P) { return Name.starts_with(P); }))
    return "'" + Name.str() + "' is the CUDA toolkit's: point rooflint at the toolkit (--cuda-path=DIR after --, or CUDA_PATH)";
  if (Name.starts_with("rooflint/"))
    return "add the directory that holds '" + Name.str() +
           "' to the compile command (rooflint's headers: link the target to rooflint::dsl, or -I<prefix>/include)";
  return "add the directory that holds '" + Name.str() + "' to the compile command (-I<dir>)";
}
}  // namespace

int ParseWatcher::endFile(llvm::StringRef File, int ToolStatus) {
  const unsigned Errors = ClangErrors, Specs = SpecErrors;
  const bool Failed = OwnErrors > 0 || CommandErrors > 0;  // what --allow-parse-errors does not excuse
  const std::string First = FirstError, FirstSpec = FirstSpecError, Missing = MissingHeader, Setup = SetupError;
  discardFile();  // with the counts clang's "N errors generated" and the action's success are read from
  if (Errors == 0) return Failed ? std::max(ToolStatus, 1) : ToolStatus;
  if (!Setup.empty()) {  // the compile command lacks what rooflint's headers need: nvcc fails alike
    llvm::WithColor::note(OS, "rooflint") << "'" << File << "' is not analysed: " << Setup << "\n";
    return std::max(ToolStatus, 1);
  }
  if (Specs > 0) {  // a spec's own check failed: the code is wrong, for nvcc too, whatever else clang said
    llvm::WithColor::note(OS, "rooflint") << "a spec in '" << File << "' does not compile (" << Errors << (Errors == 1 ? " error" : " errors")
                              << "; the first of a spec's checks: " << FirstSpec << "); its specs are not analysed\n";
    return std::max(ToolStatus, 1);  // --allow-parse-errors excuses what clang cannot parse, not this
  }
  const std::string What = "clang 19 (device side, sm_90), which rooflint parses CUDA with, did not parse '" + File.str() +
                           "' (" + std::to_string(Errors) + (Errors == 1 ? " error" : " errors") +
                           "; the first: " + First + "); its specs are not analysed";
  if (AllowParseErrors) {
    llvm::WithColor::warning(OS, "rooflint") << What << " (--allow-parse-errors: the run goes on)\n";
    return Failed ? std::max(ToolStatus, 1) : 0;
  }
  if (!Missing.empty()) {  // an include path, not code to excuse
    llvm::WithColor::note(OS, "rooflint") << What << "; " << missingHeaderHint(Missing) << "\n";
    return ToolStatus;
  }
  llvm::WithColor::note(OS, "rooflint") << What << "; code that nvcc accepts may need --allow-parse-errors (docs/analyzer.md)\n";
  return ToolStatus;
}

}  // namespace rooflint::analyzer
