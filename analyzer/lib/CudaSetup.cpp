#include "rooflint/analyzer/CudaSetup.h"

#include <algorithm>
#include <cstdlib>

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/StringSaver.h"

namespace rooflint::analyzer {
namespace {

bool exists(const std::string &Path) { return !Path.empty() && llvm::sys::fs::exists(Path); }

/// nvcc options whose value is the next argument (or follows '='), dropped with their value.
constexpr llvm::StringLiteral DroppedWithValue[] = {
    "-gencode", "--generate-code", "-arch", "--gpu-architecture", "-code", "--gpu-code", "-Xptxas",
    "--ptxas-options", "-Xcudafe", "-Xnvlink", "--nvlink-options", "-Xfatbin", "-Xarchive", "-ccbin",
    "--compiler-bindir", "-maxrregcount", "--maxrregcount", "--diag-suppress", "-diag-suppress", "--threads",
    "-t", "-cudart", "--cudart", "-ftz", "-prec-div", "-prec-sqrt", "-fmad", "--ftz", "--prec-div",
    "--prec-sqrt", "--fmad", "-rdc", "--relocatable-device-code", "-Xcicc", "--default-stream",
    "-default-stream", "-Wno-deprecated-declarations=", "--diag-error", "--diag-warn", "-err-no"};

/// nvcc flags without a value, dropped.
constexpr llvm::StringLiteral DroppedFlags[] = {
    "--expt-relaxed-constexpr", "-expt-relaxed-constexpr", "--expt-extended-lambda", "-expt-extended-lambda",
    "--extended-lambda", "-extended-lambda", "-dc", "--device-c", "-dw", "--device-w", "-lineinfo",
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

CudaEnvironment detectEnvironment() {
  CudaEnvironment Env;
  Env.ResourceDir = ROOFLINT_CLANG_RESOURCE_DIR;
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME", "CUDA_ROOT"})
    if (const char *V = std::getenv(Var); V && exists(std::string(V) + "/include/cuda_runtime.h")) {
      Env.ToolkitPath = V;
      return Env;
    }
  if (exists("/usr/local/cuda/include/cuda_runtime.h")) {
    Env.ToolkitPath = "/usr/local/cuda";
    return Env;
  }
  if (auto Nvcc = llvm::sys::findProgramByName("nvcc")) {
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(*Nvcc, Real)) Real = *Nvcc;
    llvm::StringRef Bin = llvm::sys::path::parent_path(Real);
    std::string Root = llvm::sys::path::parent_path(Bin).str();
    if (exists(Root + "/include/cuda_runtime.h")) Env.ToolkitPath = Root;
  }
  return Env;
}

const std::vector<std::pair<std::string, std::string>> &virtualFiles() {
  static const std::vector<std::pair<std::string, std::string>> Files{
      {VirtualIncludeDir.str() + "/texture_fetch_functions.h",
       "// Supplied by rooflint: CUDA 12 removed this header; clang 19's CUDA wrapper still includes it.\n"},
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
)"}};
  return Files;
}

bool isCudaFile(llvm::StringRef File) {
  llvm::StringRef Ext = llvm::sys::path::extension(File);
  return Ext == ".cu" || Ext == ".cuh";
}

std::vector<std::string> adjustCommandLine(const std::vector<std::string> &Args, llvm::StringRef Directory,
                                           llvm::StringRef File, const CudaEnvironment &Env,
                                           std::vector<std::string> &Notes) {
  std::vector<std::string> Out;
  if (Args.empty()) return Out;
  const auto note = [&](const std::string &What) {
    const std::string Line = "dropping nvcc-only flag '" + What + "' (the analyzer parses host code with clang)";
    if (std::find(Notes.begin(), Notes.end(), Line) == Notes.end()) Notes.push_back(Line);
  };
  llvm::StringRef Driver = llvm::sys::path::filename(Args[0]);
  Out.push_back(Driver.contains("nvcc") ? "clang++" : Args[0]);
  bool Cuda = isCudaFile(File);
  bool HasCudaPath = false, HasResourceDir = false, HostOnly = false;

  std::vector<std::string> Pending(Args.begin() + 1, Args.end());
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
    if (!HostOnly) Added.push_back("--cuda-host-only");
    Added.push_back("-Wno-unknown-cuda-version");
    if (!HasCudaPath && !Env.ToolkitPath.empty()) Added.push_back("--cuda-path=" + Env.ToolkitPath);
    if (!Env.ToolkitPath.empty() && exists(Env.ToolkitPath + "/include/cccl")) {
      Added.push_back("-isystem");
      Added.push_back(Env.ToolkitPath + "/include/cccl");
    }
    Added.push_back("-idirafter");
    Added.push_back(VirtualIncludeDir.str());
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

}  // namespace rooflint::analyzer
