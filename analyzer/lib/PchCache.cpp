#include "rooflint/analyzer/PchCache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <optional>

#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Stack.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Serialization/ASTReader.h"
#include "clang/Serialization/InMemoryModuleCache.h"
#include "clang/Serialization/ModuleFile.h"
#include "clang/Serialization/ModuleManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/thread.h"
#include "rooflint/analyzer/CudaSetup.h"

using namespace clang;

namespace rooflint::analyzer {
namespace {

llvm::cl::opt<bool> NoPchCacheOption(
    "no-pch-cache", llvm::cl::desc("Parse the CUDA headers every file starts with anew instead of loading them "
                                   "precompiled from the cache (docs/analyzer.md, 'The PCH cache'); also ROOFLINT_NO_PCH_CACHE=1"));
llvm::cl::opt<std::string> PchCacheDirOption(
    "pch-cache-dir",
    llvm::cl::desc("Keep the precompiled CUDA headers in this directory (default: $ROOFLINT_PCH_CACHE_DIR, else "
                   "$XDG_CACHE_HOME/rooflint/pch or ~/.cache/rooflint/pch)"),
    llvm::cl::value_desc("dir"));

/// Changed whenever what goes into a PCH or how it is used changes, so older files are not used.
constexpr llvm::StringLiteral FormatVersion = "rooflint prefix pch 2";  // 2: host bodies of system headers skipped

/// The prefix's main file: empty, one of the in-memory files every run maps (virtualFiles()), so the
/// PCH's reader finds it too; the prefix is what -include adds before it.
constexpr llvm::StringLiteral PrefixMainFile = "/rooflint-virtual/pch-prefix.cu";

/// The wrapper clang's driver -includes first in every CUDA compilation.
constexpr llvm::StringLiteral CudaWrapper = "__clang_cuda_runtime_wrapper.h";

double since(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
}

/// Whether @p Text has a line that starts a module declaration or import (`module`, `export module`,
/// `import`): conservatively, any line whose first word is one of them.
bool mentionsModules(llvm::StringRef Text) {
  const auto startsWithWord = [](llvm::StringRef Line, llvm::StringRef Word) {
    return Line.starts_with(Word) && (Line.size() == Word.size() || !llvm::isAlnum(Line[Word.size()]) && Line[Word.size()] != '_');
  };
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.ltrim();
    if (startsWithWord(Line, "export")) Line = Line.drop_front(6).ltrim();
    if (startsWithWord(Line, "module") || startsWithWord(Line, "import")) return true;
  }
  return false;
}

/// Why @p Inv cannot use the prefix PCH, or "" when it can.
std::string notApplicable(const CompilerInvocation &Inv, FileManager &Files) {
  const LangOptions &LO = Inv.getLangOpts();
  const PreprocessorOptions &PP = Inv.getPreprocessorOpts();
  const FrontendOptions &FO = Inv.getFrontendOpts();
  if (!LO.CUDA || !LO.CUDAIsDevice) return "not a device-side CUDA parse";
  if (PP.Includes.empty() || PP.Includes.front() != CudaWrapper) return "clang's CUDA wrapper is not included first";
  if (!PP.ImplicitPCHInclude.empty() || !PP.ChainedIncludes.empty()) return "the command uses a PCH of its own";
  // C++20 implies LangOptions::Modules; Clang modules (-fmodules: implicit modules, a module cache)
  // or prebuilt module files do not mix with a PCH that was built with modules off.
  const HeaderSearchOptions &HS = Inv.getHeaderSearchOpts();
  if ((LO.Modules && !LO.CPlusPlusModules) || LO.ImplicitModules || !HS.ModuleCachePath.empty() ||
      !HS.PrebuiltModuleFiles.empty() || !HS.PrebuiltModulePaths.empty() || !FO.ModuleFiles.empty() ||
      !FO.ModuleMapFiles.empty())
    return "the command uses modules";
  if (FO.Inputs.size() != 1 || !FO.Inputs[0].isFile()) return "not one input file";
  auto Main = Files.getVirtualFileSystem().getBufferForFile(FO.Inputs[0].getFile());
  if (!Main) return "the input file cannot be read";
  if (mentionsModules((*Main)->getBuffer())) return "the file declares or imports a C++20 module";
  return "";
}

/// What a PCH holds: the prefix alone (every file with these flags shares it), or the prefix and the
/// main file's preamble, its leading directives (#include, #define, comments: clang's preamble bounds,
/// as clangd's), which holds the file's own headers and is the file's alone.
struct Level {
  bool Preamble = false;
  PreambleBounds Bounds{0, false};
  std::string Text;  ///< the preamble's bytes
};

/// The main file's preamble level, when it has one.
std::optional<Level> preambleLevel(const CompilerInvocation &Inv, FileManager &Files) {
  auto Main = Files.getVirtualFileSystem().getBufferForFile(Inv.getFrontendOpts().Inputs[0].getFile());
  if (!Main) return std::nullopt;
  Level L;
  L.Preamble = true;
  L.Bounds = ComputePreambleBounds(Inv.getLangOpts(), (*Main)->getMemBufferRef(), /*MaxLines=*/0);
  if (L.Bounds.Size == 0) return std::nullopt;
  L.Text = (*Main)->getBuffer().substr(0, L.Bounds.Size).str();
  return L;
}

/// The cache file's name: a hash of everything but the input file that makes the prefix what it is
/// (and for a preamble, the main file's path and its preamble's bytes).
std::string prefixKey(const CompilerInvocation &Inv, FileManager &Files, const Level &L) {
  CompilerInvocation Copy(Inv);
  Copy.getFrontendOpts().Inputs.clear();
  Copy.getFrontendOpts().OutputFile.clear();
  Copy.getCodeGenOpts().MainFileName.clear();
  Copy.getLangOpts().CUID.clear();  // the driver's per-file hash for static device variables
  Copy.getDependencyOutputOpts() = DependencyOutputOptions();
  llvm::SHA256 Hash;
  const auto add = [&](llvm::StringRef S) {
    Hash.update(S);
    Hash.update(llvm::StringRef("\0", 1));
  };
  add(FormatVersion);
  add(getClangFullVersion());
  add(ROOFLINT_VERSION);
  // Relative -I paths and the driver's -fdebug-compilation-dir depend on it.
  add(Files.getVirtualFileSystem().getCurrentWorkingDirectory().get());
  for (const auto &[Path, Contents] : virtualFiles()) {
    add(Path);
    add(Contents);
  }
  for (const std::string &Arg : Copy.getCC1CommandLine()) add(Arg);
  if (L.Preamble) {
    add("preamble");
    add(Inv.getFrontendOpts().Inputs[0].getFile());
    add(L.Text);
    add(L.Bounds.PreambleEndsAtStartOfLine ? "at start of line" : "mid-line");
  }
  return llvm::toHex(Hash.final(), /*LowerCase=*/true).substr(0, 32);
}

/// What both the PCH's build and its use set: C++20 modules off (see the header) and clang's strictest
/// validation (every input file, system headers too; by content when only the time changed).
void prepare(CompilerInvocation &Inv) {
  Inv.getLangOpts().CPlusPlusModules = false;
  Inv.getLangOpts().Modules = false;  // implied by C++20's
  Inv.getHeaderSearchOpts().ModulesValidateSystemHeaders = true;
  Inv.getHeaderSearchOpts().ValidateASTInputFilesContent = true;
}

/// Counts every diagnostic the prefix's parse reports: a prefix with any is not cached (its
/// diagnostics would be missing from the runs that load it).
class CountingConsumer : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Remark || !First.empty()) return;
    llvm::SmallString<128> Message;
    Info.FormatDiagnostic(Message);
    First = Message.str().str();
  }
  std::string First;
};

/// The most the PCHs in a cache directory may take, in bytes: ROOFLINT_PCH_CACHE_MAX_MB, else 2 GiB
/// (about 90 files' PCHs of the size of sgemm.cu's, 23.7 MB).
std::uint64_t maxCacheBytes() {
  std::uint64_t MB = 2048;
  if (const char *V = std::getenv("ROOFLINT_PCH_CACHE_MAX_MB"); V && *V) llvm::StringRef(V).getAsInteger(10, MB);
  return MB << 20;
}

/// Removes from @p Dir the PCHs not used for 31 days (as long as clang keeps an unused module in its
/// cache, -fmodules-prune-after) and the temporary files a killed process left (after a day); then, while
/// the PCHs take more than maxCacheBytes(), the least recently used. Run when a PCH is written, which
/// is rare; a PCH's modification time is its last use (touchUsed), its .deps file goes with it. @p Keep,
/// the PCH just written, stays.
void prune(llvm::StringRef Dir, llvm::StringRef Keep) {
  using namespace std::chrono;
  const auto Now = system_clock::now();
  struct Entry {
    system_clock::time_point Used;
    std::uint64_t Size;
    std::string Path;
  };
  std::vector<Entry> Kept;
  std::uint64_t Total = 0;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC)) {
    const std::string Name = It->path();
    const bool Pch = llvm::StringRef(Name).ends_with(".pch"), Temp = llvm::StringRef(Name).ends_with(".tmp");
    llvm::sys::fs::file_status Status;
    if ((!Pch && !Temp) || llvm::sys::fs::status(Name, Status)) continue;
    const auto Age = Now - Status.getLastModificationTime();
    if (Age > (Pch ? hours(24 * 31) : hours(24))) {
      llvm::sys::fs::remove(Name);
      if (Pch) llvm::sys::fs::remove(Name + ".deps");
    } else if (Pch && Name != Keep) {
      Kept.push_back({Status.getLastModificationTime(), Status.getSize(), Name});
      Total += Status.getSize();
    }
  }
  std::sort(Kept.begin(), Kept.end(), [](const Entry &A, const Entry &B) { return A.Used < B.Used; });
  for (const Entry &E : Kept) {
    if (Total <= maxCacheBytes()) break;
    llvm::sys::fs::remove(E.Path);
    llvm::sys::fs::remove(E.Path + ".deps");
    Total -= E.Size;
  }
}

/// Marks the PCH at @p Path used now, at most once a day (its modification time; clang does not check a
/// PCH's own time, only its inputs').
void touchUsed(const std::string &Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status) ||
      std::chrono::system_clock::now() - Status.getLastModificationTime() < std::chrono::hours(24))
    return;
  utimes(Path.c_str(), nullptr);  // best effort: a read-only cache is used as it is
}

/// The files a parse entered, by the names it looked them up with: what the analysis lists for the
/// depfile (analyzeTranslationUnit), less rooflint's in-memory files.
void enteredFiles(const SourceManager &SM, std::vector<std::string> &Out) {
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
    if (llvm::StringRef Name = It->first.getName(); !Name.starts_with("/rooflint-virtual/") && !Name.starts_with("<"))
      Out.push_back(Name.str());
}

/// Builds the PCH and, before the source manager goes, notes the files its parse entered.
class PrefixBuildAction : public WrapperFrontendAction {
public:
  explicit PrefixBuildAction(std::vector<std::string> &Entered)
      : WrapperFrontendAction(std::make_unique<GeneratePCHAction>()), Entered(Entered) {}

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, llvm::StringRef InFile) override {
    std::vector<std::unique_ptr<ASTConsumer>> List;
    List.push_back(WrapperFrontendAction::CreateASTConsumer(CI, InFile));
    if (!List.front()) return nullptr;
    List.push_back(std::make_unique<BodySkipper>());  // the bodies the analysis's own parse skips
    return std::make_unique<MultiplexConsumer>(std::move(List));
  }
  void EndSourceFile() override {  // the wrapper ends the wrapped action's file: before that
    enteredFiles(getCompilerInstance().getSourceManager(), Entered);
    WrapperFrontendAction::EndSourceFile();
  }

private:
  std::vector<std::string> &Entered;
};

/// Writes @p Text to @p Path through a temporary file renamed into place. @return "" or why not.
std::string writeAtomically(const std::string &Path, llvm::StringRef Text) {
  llvm::SmallString<256> Temp;
  llvm::sys::fs::createUniquePath(Path + "-%%%%%%%%.tmp", Temp, /*MakeAbsolute=*/false);
  std::error_code EC;
  {
    llvm::raw_fd_ostream OS(Temp, EC);
    if (!EC) {
      OS << Text;
      OS.close();
      if (OS.has_error()) EC = OS.error();
    }
  }
  if (!EC) EC = llvm::sys::fs::rename(Temp, Path);
  if (EC) {
    llvm::sys::fs::remove(Temp);
    return "cannot write '" + Path + "': " + EC.message();
  }
  return "";
}

/// The dependencies file beside a PCH: the files its parse entered, one a line.
std::string depsPath(llvm::StringRef Pch) { return Pch.str() + ".deps"; }

/// Writes the prefix PCH of @p Base to @p Path (a temporary file renamed into place). @return "" on
/// success, else why not.
std::string buildPrefix(const CompilerInvocation &Base, FileManager &Files,
                        std::shared_ptr<PCHContainerOperations> PCHOps, const std::string &Path, const Level &L) {
  const llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return "cannot create '" + Dir.str() + "': " + EC.message();
  llvm::SmallString<256> Temp;
  llvm::sys::fs::createUniquePath(Path + "-%%%%%%%%.tmp", Temp, /*MakeAbsolute=*/false);

  auto Inv = std::make_shared<CompilerInvocation>(Base);
  prepare(*Inv);
  FrontendOptions &FO = Inv->getFrontendOpts();
  const InputKind Kind = FO.Inputs.front().getKind();
  if (L.Preamble) {
    // As clang's PrecompiledPreamble builds one: the main file read as its preamble alone, the
    // preprocessor keeping the state of an #if the preamble ends in.
    const std::string Main = FO.Inputs.front().getFile().str();
    Inv->getPreprocessorOpts().addRemappedFile(Main, llvm::MemoryBuffer::getMemBufferCopy(L.Text, Main).release());
    Inv->getPreprocessorOpts().RetainRemappedFileBuffers = false;
    Inv->getPreprocessorOpts().GeneratePreamble = true;
  } else {
    FO.Inputs.assign(1, FrontendInputFile(PrefixMainFile, Kind));
  }
  FO.OutputFile = Temp.str().str();
  FO.ProgramAction = frontend::GeneratePCH;
  Inv->getDependencyOutputOpts() = DependencyOutputOptions();

  // A file manager of its own: the remapped main file must not stay in the one the analysis uses.
  llvm::IntrusiveRefCntPtr<FileManager> BuildFiles =
      llvm::makeIntrusiveRefCnt<FileManager>(Files.getFileSystemOpts(), Files.getVirtualFileSystemPtr());
  CompilerInstance CI(std::move(PCHOps));
  CI.setInvocation(std::move(Inv));
  CI.setFileManager(BuildFiles.get());
  CountingConsumer Counter;
  CI.createDiagnostics(&Counter, /*ShouldOwnClient=*/false);
  CI.createSourceManager(*BuildFiles);
  std::vector<std::string> Entered;
  PrefixBuildAction Action(Entered);
  const bool Ok = CI.ExecuteAction(Action);
  std::string Why;
  if (!Counter.First.empty()) Why = "the prefix's parse reported '" + Counter.First + "'";
  else if (!Ok || !llvm::sys::fs::exists(Temp)) Why = "clang did not write the PCH";
  else if (Why = writeAtomically(depsPath(Path), llvm::join(Entered, "\n") + "\n"); Why.empty())
    if (std::error_code EC = llvm::sys::fs::rename(Temp, Path))
      Why = "cannot rename '" + Temp.str().str() + "' to '" + Path + "': " + EC.message();
  if (!Why.empty()) llvm::sys::fs::remove(Temp);
  else prune(Dir, Path);
  return Why;
}

/// Writes level @p L's PCH to @p Path (buildPrefix), timed. @return What a run that wrote it used (Cold),
/// or why it was not written (NotCached).
PchUse writeLevel(const CompilerInvocation &Base, FileManager &Files, std::shared_ptr<PCHContainerOperations> PCHOps,
                  const std::string &Path, const Level &L) {
  PchUse U;
  const auto Start = std::chrono::steady_clock::now();
  U.Why = buildPrefix(Base, Files, std::move(PCHOps), Path, L);
  U.BuildSeconds = since(Start);
  U.What = U.Why.empty() ? PchUse::Kind::Cold : PchUse::Kind::NotCached;
  if (U.What == PchUse::Kind::Cold) {
    U.Path = Path;
    U.Preamble = L.Preamble;
  }
  return U;
}

/// Passes diagnostics on to @p Next, except, until the PCH has been loaded, those of clang's PCH reader
/// (and their notes): a PCH clang refuses is noted in Refused and the file is parsed again without it.
class RefusalFilter : public DiagnosticConsumer {
public:
  explicit RefusalFilter(DiagnosticConsumer &Next) : Next(Next) {}
  void BeginSourceFile(const LangOptions &LangOpts, const Preprocessor *PP) override {
    Next.BeginSourceFile(LangOpts, PP);
  }
  void EndSourceFile() override { Next.EndSourceFile(); }
  void finish() override { Next.finish(); }
  bool IncludeInDiagnosticCounts() const override { return Next.IncludeInDiagnosticCounts(); }
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    if (!Loaded) {
      const unsigned ID = Info.getID();
      const bool FromReader =
          (ID >= diag::DIAG_START_SERIALIZATION && ID < diag::DIAG_START_LEX) || ID == diag::err_fe_unable_to_load_pch;
      if (FromReader || (Dropping && Level == DiagnosticsEngine::Note)) {
        if (FromReader && Refusal.empty()) {
          llvm::SmallString<128> Message;
          Info.FormatDiagnostic(Message);
          Refusal = Message.str().str();
        }
        Dropping = true;
        return;
      }
      Dropping = false;
    }
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    Next.HandleDiagnostic(Level, Info);
  }
  bool Loaded = false;   ///< the PCH was loaded: the parse has begun
  std::string Refusal;   ///< clang's first reason for refusing the PCH

private:
  DiagnosticConsumer &Next;
  bool Dropping = false;
};

/// Runs the analysis's action with the PCH loaded; once it has run, puts the files the PCH's parse
/// entered, by the names that parse looked them up with, into the dependencies. (The analysis lists
/// the files its source manager knows: its own, and those of the PCH it loaded, by the PCH's absolute
/// names, which are replaced, so the list is that of a parse without the PCH.)
class PchUserAction : public WrapperFrontendAction {
public:
  PchUserAction(std::unique_ptr<FrontendAction> Inner, RefusalFilter &Filter, llvm::StringSet<> &Dependencies,
                std::vector<std::string> Entered)
      : WrapperFrontendAction(std::move(Inner)), Filter(Filter), Dependencies(Dependencies),
        Entered(std::move(Entered)) {}

protected:
  void ExecuteAction() override {
    Filter.Loaded = true;
    WrapperFrontendAction::ExecuteAction();
    if (IntrusiveRefCntPtr<ASTReader> Reader = getCompilerInstance().getASTReader())
      Reader->visitInputFileInfos(Reader->getModuleManager().getPrimaryModule(), /*IncludeSystem=*/true,
                                  [&](const serialization::InputFileInfo &IFI, bool) {
                                    Dependencies.erase(IFI.Filename);
                                    Dependencies.erase(IFI.FilenameAsRequested);
                                  });
    for (const std::string &F : Entered) Dependencies.insert(F);
  }

private:
  RefusalFilter &Filter;
  llvm::StringSet<> &Dependencies;
  std::vector<std::string> Entered;
};

/// The files @p Pch's parse entered, from its dependencies file; nullopt when it cannot be read or is
/// not a regular file (opened without blocking: a FIFO of that name would wait for a writer for ever).
std::optional<std::vector<std::string>> readEntered(llvm::StringRef Pch) {
  const std::string Deps = depsPath(Pch);
  const int FD = ::open(Deps.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (FD < 0) return std::nullopt;
  struct stat Status {};
  if (::fstat(FD, &Status) != 0 || !S_ISREG(Status.st_mode)) {
    ::close(FD);
    return std::nullopt;
  }
  auto Buffer = llvm::MemoryBuffer::getOpenFile(FD, Deps, Status.st_size);
  ::close(FD);
  if (!Buffer) return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  return std::vector<std::string>(Lines.begin(), Lines.end());
}

/// @return The first of @p Files (real paths) that the parse of the PCH at @p Pch entered, else "".
std::string enteredOneOf(llvm::StringRef Pch, const std::vector<std::string> &Files) {
  if (Files.empty()) return "";
  for (const std::string &Name : readEntered(Pch).value_or(std::vector<std::string>())) {
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(Name, Real)) continue;
    if (std::find(Files.begin(), Files.end(), Real.str()) != Files.end()) return Name;
  }
  return "";
}

/// Whether @p Path is absent or a regular file. Anything else named like a cache file (a FIFO, a
/// device, a directory) is never given to clang, whose open would block on a FIFO or read a device
/// without end.
bool absentOrRegular(const std::string &Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status)) return true;
  return Status.type() == llvm::sys::fs::file_type::regular_file;
}

/// Removes what is at @p Pch and its dependencies file when either is not a regular file (a new PCH is
/// then built in its place). unlink(2), not llvm::sys::fs::remove, which refuses FIFOs and devices;
/// a directory stays. @return Whether both are now absent or regular files.
bool clearIrregular(const std::string &Pch) {
  if (absentOrRegular(Pch) && absentOrRegular(depsPath(Pch))) return true;
  for (const std::string &Path : {Pch, depsPath(Pch)})
    if (!absentOrRegular(Path)) ::unlink(Path.c_str());
  return absentOrRegular(Pch) && absentOrRegular(depsPath(Pch));
}

/// Whether the PCH at @p Path matches @p Prepared (the invocation that is to load it) by clang's strict
/// check, the one the driver uses to pick a PCH from a directory: the AST format and clang's version,
/// the language and target options, and the macros both ways (the load itself tolerates a macro the
/// PCH defines and the command line does not). The load then checks the input files.
bool strictlyAcceptable(const CompilerInvocation &Prepared, FileManager &Files, PCHContainerOperations &PCHOps,
                        llvm::StringRef Path) {
  auto ModuleCache = llvm::makeIntrusiveRefCnt<InMemoryModuleCache>();
  return ASTReader::isAcceptableASTFile(Path, Files, *ModuleCache, PCHOps.getRawReader(), Prepared.getLangOpts(),
                                        Prepared.getTargetOpts(), Prepared.getPreprocessorOpts(),
                                        /*ExistingModuleCachePath=*/"", /*RequireStrictOptionMatches=*/true);
}

/// One compilation, as tooling::FrontendActionFactory::runInvocation runs it.
bool runOnce(std::shared_ptr<CompilerInvocation> Inv, FileManager *Files, std::shared_ptr<PCHContainerOperations> PCHOps,
             DiagnosticConsumer *Diags, std::unique_ptr<FrontendAction> Action) {
  CompilerInstance CI(std::move(PCHOps));
  CI.setInvocation(std::move(Inv));
  CI.setFileManager(Files);
  CI.createDiagnostics(Diags, /*ShouldOwnClient=*/false);
  if (!CI.hasDiagnostics()) return false;
  CI.createSourceManager(*Files);
  const bool Ok = CI.ExecuteAction(*Action);
  Files->clearStatCache();
  return Ok;
}

class PrefixPchAction : public tooling::ToolAction {
public:
  PrefixPchAction(tooling::FrontendActionFactory &Inner, PchCacheSettings Settings, llvm::StringSet<> &Dependencies,
                  PchUse &Use)
      : Inner(Inner), Settings(std::move(Settings)), Dependencies(Dependencies), Use(Use) {}

  bool runInvocation(std::shared_ptr<CompilerInvocation> Inv, FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHOps, DiagnosticConsumer *Diags) override {
    Use = PchUse();
    prepareDeviceParse(*Inv);  // before the PCH's key: its build and its use parse alike
    if (!Settings.Enabled) return runOnce(Inv, Files, PCHOps, Diags, Inner.create());
    if (std::string Why = notApplicable(*Inv, *Files); !Why.empty()) {
      Use.What = PchUse::Kind::NotApplicable;
      Use.Why = Why;
      return runOnce(Inv, Files, PCHOps, Diags, Inner.create());
    }
    std::string Why;
    std::vector<Level> Levels;
    // The file's preamble first (its own headers too); when that cannot be cached (its parse reported
    // something), the prefix every file shares.
    if (std::optional<Level> P = preambleLevel(*Inv, *Files)) Levels.push_back(std::move(*P));
    Levels.push_back(Level());
    for (std::size_t I = 0; I < Levels.size(); ++I) {
      bool Ok = false;
      if (tryLevel(Levels, I, Inv, Files, PCHOps, Diags, Why, Ok)) return Ok;
    }
    Use.What = PchUse::Kind::NotCached;
    Use.Why = Why;
    return runOnce(Inv, Files, PCHOps, Diags, Inner.create());
  }

private:
  /// Runs the file with the PCH of level @p Levels[I] (built on a miss, rebuilt once when clang refuses
  /// it; with a free core, built beside the file's run). @return Whether it ran (its success in @p Ok);
  /// else @p Why says why not.
  bool tryLevel(const std::vector<Level> &Levels, std::size_t I, std::shared_ptr<CompilerInvocation> Inv, FileManager *Files,
                std::shared_ptr<PCHContainerOperations> PCHOps, DiagnosticConsumer *Diags, std::string &Why, bool &Ok) {
    const Level &L = Levels[I];
    Use.Path = pchPath(*Inv, *Files, L);
    Use.Preamble = L.Preamble;
    bool Built = false;
    const auto build = [&] {
      const PchUse Written = writeLevel(*Inv, *Files, PCHOps, Use.Path, L);
      Why = Written.Why;
      Use.BuildSeconds = Written.BuildSeconds;
      return Built = Written.What == PchUse::Kind::Cold;
    };
    if (!clearIrregular(Use.Path)) {
      Why = "'" + Use.Path + "' or its dependencies file is not a regular file and cannot be removed";
      return false;
    }
    if (const std::string File = enteredOneOf(Use.Path, Settings.NotLoadedFrom); !File.empty()) {
      Why = "the cached PCH holds '" + File + "', which this parse reads differently";
      return false;
    }
    if (!llvm::sys::fs::exists(Use.Path)) {
      if (Settings.ReadOnly) {
        Why = "not cached, and this parse only reads the cache";
        return false;
      }
      if (Settings.BuildBeside) return buildBeside(Levels, I, Inv, Files, PCHOps, Diags, Ok);
      if (!build()) return false;
    }
    for (;;) {
      std::string Refusal;
      if (runWithPch(L, Use.Path, Inv, Files, PCHOps, Diags, Ok, Refusal)) {
        Use.What = Built ? PchUse::Kind::Cold : PchUse::Kind::Warm;
        return true;
      }
      Why = Refusal;
      if (Built || Settings.ReadOnly) return false;
      if (Settings.BuildBeside) return buildBeside(Levels, I, Inv, Files, PCHOps, Diags, Ok);
      if (!build()) return false;
    }
  }

  /// Runs the file with the PCH at @p Path (level @p L). @return Whether it ran (its success in @p Ok);
  /// else, clang having refused the PCH (stale: a header changed; damaged; another configuration's), the
  /// PCH is removed and @p Why says why.
  bool runWithPch(const Level &L, const std::string &Path, std::shared_ptr<CompilerInvocation> Inv, FileManager *Files,
                  std::shared_ptr<PCHContainerOperations> PCHOps, DiagnosticConsumer *Diags, bool &Ok, std::string &Why) {
    if (!absentOrRegular(Path)) {  // replaced by something else since: never opened
      Why = "'" + Path + "' is not a regular file";
      return false;
    }
    auto WithPch = std::make_shared<CompilerInvocation>(*Inv);
    prepare(*WithPch);
    WithPch->getPreprocessorOpts().ImplicitPCHInclude = Path;
    if (L.Preamble)
      WithPch->getPreprocessorOpts().PrecompiledPreambleBytes = {L.Bounds.Size, L.Bounds.PreambleEndsAtStartOfLine};
    std::string Refusal = "its format, clang version, language, target or macros differ";
    std::optional<std::vector<std::string>> Entered = readEntered(Path);
    if (!Entered) Refusal = "its dependencies file cannot be read";
    else if (strictlyAcceptable(*WithPch, *Files, *PCHOps, Path)) {
      RefusalFilter Filter(*Diags);
      Ok = runOnce(WithPch, Files, PCHOps, &Filter,
                   std::make_unique<PchUserAction>(Inner.create(), Filter, Dependencies, std::move(*Entered)));
      if (Filter.Refusal.empty()) {
        touchUsed(Path);
        touchUsed(depsPath(Path));
        return true;
      }
      Refusal = Filter.Refusal;
    }
    Why = "clang refused it: " + Refusal;
    llvm::sys::fs::remove(Path);
    llvm::sys::fs::remove(depsPath(Path));
    return false;
  }

  /// Writes the PCH of @p Levels[I], else of the first level after it that can be built (stopping at one
  /// already cached), on another thread, while the file runs with the PCH of a later level that is
  /// cached and that clang takes, else without one. @return true: the file ran.
  bool buildBeside(const std::vector<Level> &Levels, std::size_t I, std::shared_ptr<CompilerInvocation> Inv,
                   FileManager *Files, std::shared_ptr<PCHContainerOperations> PCHOps, DiagnosticConsumer *Diags,
                   bool &Ok) {
    // What the builder reads is its own: the invocation copied and the paths worked out before it starts,
    // a file manager of its own over the same (read-only) file system; clang's frontend keeps no other
    // state between instances.
    const CompilerInvocation Base(*Inv);
    std::vector<std::string> Paths;
    for (std::size_t J = I; J < Levels.size(); ++J) Paths.push_back(pchPath(*Inv, *Files, Levels[J]));
    llvm::IntrusiveRefCntPtr<FileManager> BuildFiles =
        llvm::makeIntrusiveRefCnt<FileManager>(Files->getFileSystemOpts(), Files->getVirtualFileSystemPtr());
    PchUse Built;  // NotCached (Why empty) where a later level was cached already
    Built.What = PchUse::Kind::NotCached;
    llvm::thread Builder(std::optional<unsigned>(clang::DesiredStackSize), [&] {  // the stack clang's driver gives a parse
      for (std::size_t J = I; J < Levels.size(); ++J) {
        const std::string &Path = Paths[J - I];
        if (J > I && llvm::sys::fs::exists(Path)) return;  // cached already
        Built = writeLevel(Base, *BuildFiles, PCHOps, Path, Levels[J]);
        Built.Beside = Built.What == PchUse::Kind::Cold;
        if (Built.Beside) return;
      }
    });
    std::optional<std::size_t> Warm;
    for (std::size_t J = I + 1; J < Levels.size() && !Warm; ++J) {
      std::string Refusal;
      if (llvm::sys::fs::exists(Paths[J - I]) && runWithPch(Levels[J], Paths[J - I], Inv, Files, PCHOps, Diags, Ok, Refusal))
        Warm = J;
    }
    if (!Warm) Ok = runOnce(Inv, Files, PCHOps, Diags, Inner.create());
    Builder.join();
    if (!Warm) {
      Use = std::move(Built);
      return true;
    }
    Use = PchUse();
    Use.What = PchUse::Kind::Warm;
    Use.Path = Paths[*Warm - I];
    Use.Preamble = Levels[*Warm].Preamble;
    Use.BuiltBeside = Built.What == PchUse::Kind::Cold ? Built.describe() : Built.Why.empty() ? "" : "not built beside: " + Built.Why;
    return true;
  }

  /// The cache file of level @p L.
  std::string pchPath(const CompilerInvocation &Inv, FileManager &Files, const Level &L) const {
    llvm::SmallString<256> Path(Settings.Directory);
    llvm::sys::path::append(Path, prefixKey(Inv, Files, L) + ".pch");
    return Path.str().str();
  }

  tooling::FrontendActionFactory &Inner;
  PchCacheSettings Settings;
  llvm::StringSet<> &Dependencies;
  PchUse &Use;
};

bool envSet(const char *Name) {
  const char *V = std::getenv(Name);
  return V && *V && llvm::StringRef(V) != "0";
}

}  // namespace

void addPchCacheOptions(llvm::cl::OptionCategory &Category) {
  NoPchCacheOption.addCategory(Category);
  PchCacheDirOption.addCategory(Category);
}

PchCacheSettings pchCacheSettings() {
  PchCacheSettings S;
  S.Enabled = !NoPchCacheOption && !envSet("ROOFLINT_NO_PCH_CACHE");
  if (!PchCacheDirOption.empty()) {
    S.Directory = PchCacheDirOption;
  } else if (const char *Env = std::getenv("ROOFLINT_PCH_CACHE_DIR"); Env && *Env) {
    S.Directory = Env;
  } else {
    llvm::SmallString<256> Dir;
    if (!llvm::sys::path::cache_directory(Dir)) {
      S.Enabled = false;  // no home directory: nowhere to keep it
      return S;
    }
    llvm::sys::path::append(Dir, "rooflint", "pch");
    S.Directory = Dir.str().str();
  }
  llvm::SmallString<256> Abs(S.Directory);
  llvm::sys::fs::make_absolute(Abs);  // workers run in each command's directory
  S.Directory = Abs.str().str();
  return S;
}

std::vector<std::string> pchCacheWorkerArguments() {
  std::vector<std::string> A;
  const PchCacheSettings S = pchCacheSettings();
  if (!S.Enabled) A.push_back("--no-pch-cache");
  else A.push_back("--pch-cache-dir=" + S.Directory);
  return A;
}

std::string PchUse::describe() const {
  switch (What) {
  case Kind::Off: return "off (--no-pch-cache)";
  case Kind::NotApplicable: return "not used: " + Why;
  case Kind::Warm:
    return std::string("warm") + (Preamble ? ", preamble" : "") + " (" + Path + ")" + (BuiltBeside.empty() ? "" : "; " + BuiltBeside);
  case Kind::Cold:
    return std::string("cold") + (Preamble ? ", preamble" : "") + ": built " + Path + " in " +
           llvm::formatv("{0:f3}", BuildSeconds).str() + " s" + (Beside ? " beside the analysis" : "");
  case Kind::NotCached: return "not used: " + Why;
  }
  return "";
}

std::unique_ptr<tooling::ToolAction> makePrefixPchAction(tooling::FrontendActionFactory &Inner,
                                                         PchCacheSettings Settings,
                                                         llvm::StringSet<> &Dependencies, PchUse &Use) {
  return std::make_unique<PrefixPchAction>(Inner, std::move(Settings), Dependencies, Use);
}

std::string withoutPchImportLines(llvm::StringRef Text, llvm::StringRef MainFile) {
  const std::string FromMain = ("In file included from " + MainFile + ":").str();
  llvm::SmallVector<llvm::StringRef, 0> Lines, Kept;
  Text.split(Lines, '\n');
  for (std::size_t I = 0; I < Lines.size(); ++I)
    if (I + 1 == Lines.size() || Lines[I] != FromMain + "1:" || !Lines[I + 1].starts_with(FromMain))
      Kept.push_back(Lines[I]);
  return llvm::join(Kept, "\n");
}

}  // namespace rooflint::analyzer
