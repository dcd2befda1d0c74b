#include "rooflint/analyzer/Config.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

namespace llvm::yaml {
template <> struct MappingTraits<rooflint::analyzer::ConfigFile> {
  static void mapping(IO &IO, rooflint::analyzer::ConfigFile &C) {
    IO.mapOptional("Checks", C.Checks);
    IO.mapOptional("WarningsAsErrors", C.WarningsAsErrors);
    IO.mapOptional("HeaderFilterRegex", C.HeaderFilterRegex);
    IO.mapOptional("InheritParentConfig", C.InheritParentConfig);
  }
};
}  // namespace llvm::yaml

namespace rooflint::analyzer {

llvm::Expected<ConfigFile> parseConfig(llvm::StringRef Text, llvm::StringRef Path) {
  ConfigFile C;
  C.Path = Path.str();
  if (Text.trim().empty()) return C;  // an empty file: nothing set
  std::string Messages;
  llvm::raw_string_ostream OS(Messages);
  // The YAML reader reports "unknown key", bad values and syntax with a line and column; print them
  // under the file's own name.
  auto Buffer = llvm::MemoryBuffer::getMemBuffer(Text, Path, /*RequiresNullTerminator=*/false);
  llvm::yaml::Input In(Buffer->getMemBufferRef(), nullptr,
                       [](const llvm::SMDiagnostic &D, void *Out) {
                         D.print(nullptr, *static_cast<llvm::raw_string_ostream *>(Out), /*ShowColors=*/false);
                       },
                       &OS);
  In >> C;
  if (In.error()) {
    // "FILE:2:1: error: unknown key 'Bogus'": printed after rooflint's own "error:", without a second.
    std::string First = llvm::StringRef(Messages).split('\n').first.str();
    if (const auto At = First.find(": error: "); At != std::string::npos) First.replace(At, 9, ": ");
    return llvm::createStringError(In.error(), "invalid configuration file " + (First.empty() ? Path.str() : First));
  }
  return C;
}

llvm::Expected<ConfigFile> parseConfigFile(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(),
                                   "cannot read configuration file '" + Path.str() + "': " + Buffer.getError().message());
  return parseConfig((*Buffer)->getBuffer(), Path);
}

llvm::Expected<EffectiveConfig> ConfigResolver::forFile(llvm::StringRef File) {
  llvm::SmallString<256> Abs(File);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return forDirectory(llvm::sys::path::parent_path(Abs));
}

llvm::Expected<EffectiveConfig> ConfigResolver::forDirectory(llvm::StringRef Directory) {
  llvm::SmallString<256> Dir(Directory);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  if (auto It = Cache.find(Dir.str().str()); It != Cache.end()) return It->second;
  EffectiveConfig E;
  llvm::SmallString<256> Candidate(Dir);
  llvm::sys::path::append(Candidate, ConfigFileName);
  const llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
  if (llvm::sys::fs::is_regular_file(Candidate)) {
    auto C = parseConfigFile(Candidate);
    if (!C) return C.takeError();
    if (C->InheritParentConfig.value_or(false) && !Parent.empty() && Parent != Dir) {
      auto Outer = forDirectory(Parent);
      if (!Outer) return Outer.takeError();
      E = *Outer;
    }
    E.Files.push_back(C->Path);
    const auto join = [](std::string &Into, const std::optional<std::string> &More) {
      if (!More || llvm::StringRef(*More).trim().empty()) return;
      Into += (Into.empty() ? "" : ",") + llvm::StringRef(*More).trim().str();
    };
    join(E.Checks, C->Checks);
    join(E.WarningsAsErrors, C->WarningsAsErrors);
    if (C->HeaderFilterRegex) E.HeaderFilterRegex = *C->HeaderFilterRegex;
  } else if (!Parent.empty() && Parent != Dir) {
    auto Outer = forDirectory(Parent);
    if (!Outer) return Outer.takeError();
    E = *Outer;
  }
  Cache[Dir.str().str()] = E;
  return E;
}

}  // namespace rooflint::analyzer
