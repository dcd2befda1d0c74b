// rooflint-verify's check of --inject-library (library_check.h): the ELF header and the dynamic
// symbol table, read from the file.

#include "library_check.h"

#include <elf.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

#include "rooflint/io/input_file.h"

namespace rooflint::runtime::inject {

namespace {

/// The machine this rooflint-verify was built for: the programs it runs are of the same.
constexpr Elf64_Half host_machine() {
#if defined(__x86_64__)
  return EM_X86_64;
#elif defined(__aarch64__)
  return EM_AARCH64;
#else
  return EM_NONE;  // any: not checked
#endif
}

/// Whether @p size bytes at @p offset lie inside a file of @p total bytes (written so that a hostile
/// offset near 2^64 cannot wrap around).
bool fits(std::uint64_t offset, std::uint64_t size, std::uint64_t total) { return offset <= total && size <= total - offset; }

/// @return The section header @p i of @p image, or std::nullopt when it lies outside the file.
std::optional<Elf64_Shdr> section(std::string_view image, const Elf64_Ehdr& h, std::size_t i) {
  if (h.e_shentsize != sizeof(Elf64_Shdr) || i >= h.e_shnum) return std::nullopt;
  if (!fits(h.e_shoff, (i + 1) * sizeof(Elf64_Shdr), image.size())) return std::nullopt;
  Elf64_Shdr s;
  std::memcpy(&s, image.data() + h.e_shoff + i * sizeof(Elf64_Shdr), sizeof s);  // the file gives no alignment
  return s;
}

/// Whether @p image's dynamic symbol table defines @p name (a symbol the dynamic loader can find).
bool exports(std::string_view image, const Elf64_Ehdr& h, std::string_view name) {
  for (std::size_t i = 0; i < h.e_shnum; ++i) {
    const auto symbols = section(image, h, i);
    if (!symbols || symbols->sh_type != SHT_DYNSYM || !fits(symbols->sh_offset, symbols->sh_size, image.size())) continue;
    const auto strings = section(image, h, symbols->sh_link);
    if (!strings || !fits(strings->sh_offset, strings->sh_size, image.size())) continue;
    const std::string_view names = image.substr(strings->sh_offset, strings->sh_size);
    for (std::uint64_t k = 0; k < symbols->sh_size / sizeof(Elf64_Sym); ++k) {
      Elf64_Sym sym;
      std::memcpy(&sym, image.data() + symbols->sh_offset + k * sizeof(Elf64_Sym), sizeof sym);
      if (sym.st_shndx == SHN_UNDEF || sym.st_name >= names.size()) continue;
      const std::string_view rest = names.substr(sym.st_name);
      if (rest.substr(0, rest.find('\0')) == name) return true;
    }
  }
  return false;
}

}  // namespace

std::optional<std::string> injection_library_problem(const std::string& path) {
  std::string image;
  if (auto why = io::read_regular_file(path, image)) return *why;
  const std::string file = "'" + path + "'";
  Elf64_Ehdr h{};
  if (image.size() < EI_NIDENT || std::memcmp(image.data(), ELFMAG, SELFMAG) != 0) return file + " is not an ELF shared library";
  if (static_cast<unsigned char>(image[EI_CLASS]) != ELFCLASS64 || image.size() < sizeof h)
    return file + " is not a 64-bit ELF file (the CUDA driver loads CUDA_INJECTION64_PATH into 64-bit programs)";
  std::memcpy(&h, image.data(), sizeof h);
  // A position-independent executable is ET_DYN too: the exported symbol below tells it apart.
  if (h.e_type != ET_DYN) return file + " is an ELF file but not a shared library";
  if (host_machine() != EM_NONE && h.e_machine != host_machine()) return file + " is a shared library of another machine";
  if (!exports(image, h, "InitializeInjection"))
    return file + " does not export InitializeInjection: it is no CUDA injection library";
  return std::nullopt;
}

}  // namespace rooflint::runtime::inject
