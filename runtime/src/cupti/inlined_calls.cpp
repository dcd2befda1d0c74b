// A cubin's line table with nvcc's inlined-call contexts (cupti/inlined_calls.h).

#include "cupti/inlined_calls.h"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string_view>

#include "rooflint/files/source_position.h"

namespace rooflint::runtime::cupti {

namespace {

/// The extended opcode nvcc's line programs set the inlining context with (inlined_calls.h).
constexpr std::uint8_t inlined_call_opcode = 0x90;

/// A bounds-checked little-endian reader over one span of the image: a read past the end sets failed()
/// and gives zeros, so a malformed table ends its parse instead of reading out of bounds.
class reader {
 public:
  reader(std::string_view bytes, std::size_t at = 0) : bytes_(bytes), at_(std::min(at, bytes.size())), failed_(at > bytes.size()) {}

  template <class T>
  T fixed() {
    T value{};
    if (!take(sizeof(T))) return value;
    std::memcpy(&value, bytes_.data() + at_ - sizeof(T), sizeof(T));
    return value;
  }
  std::uint64_t uleb() {
    std::uint64_t value = 0;
    for (unsigned shift = 0;; shift += 7) {
      const auto byte = fixed<std::uint8_t>();
      if (shift < 64) value |= std::uint64_t(byte & 0x7f) << shift;
      if (!(byte & 0x80) || failed_) return value;
    }
  }
  std::int64_t sleb() {
    std::int64_t value = 0;
    unsigned shift = 0;
    std::uint8_t byte = 0;
    do {
      byte = fixed<std::uint8_t>();
      if (shift < 64) value |= std::int64_t(byte & 0x7f) << shift;
      shift += 7;
    } while ((byte & 0x80) && !failed_);
    if (shift < 64 && (byte & 0x40)) value |= -(std::int64_t{1} << shift);
    return value;
  }
  std::string_view string() {
    const std::size_t end = bytes_.find('\0', at_);
    if (end == std::string_view::npos) {
      failed_ = true;
      return {};
    }
    const std::string_view s = bytes_.substr(at_, end - at_);
    at_ = end + 1;
    return s;
  }
  bool take(std::size_t n) {
    if (failed_ || n > bytes_.size() - at_) return !(failed_ = true);
    at_ += n;
    return true;
  }
  std::size_t at() const { return at_; }
  bool done() const { return failed_ || at_ >= bytes_.size(); }
  bool failed() const { return failed_; }

 private:
  std::string_view bytes_;
  std::size_t at_;
  bool failed_;
};

struct section {
  std::string name;
  Elf64_Shdr header{};
  std::string_view bytes;
};

/// @return A copy of the @p T at @p offset of @p image, or nothing past its end.
template <class T>
std::optional<T> read_at(std::string_view image, std::uint64_t offset) {
  if (offset > image.size() || sizeof(T) > image.size() - offset) return std::nullopt;
  T value;
  std::memcpy(&value, image.data() + offset, sizeof(T));
  return value;
}

/// @return The NUL-terminated name at @p offset of a string table ("" past its end).
std::string name_at(std::string_view table, std::uint64_t offset) {
  if (offset >= table.size()) return {};
  return std::string(table.substr(offset, table.find('\0', offset) - offset));
}

/// The sections of a 64-bit little-endian ELF image, or nothing when it is not one.
std::optional<std::vector<section>> sections_of(std::string_view image) {
  const auto eh = read_at<Elf64_Ehdr>(image, 0);
  if (!eh || std::memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
      eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_shentsize < sizeof(Elf64_Shdr) || eh->e_shstrndx >= eh->e_shnum)
    return std::nullopt;
  std::vector<section> out(eh->e_shnum);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto sh = read_at<Elf64_Shdr>(image, eh->e_shoff + i * eh->e_shentsize);
    if (!sh) return std::nullopt;
    out[i].header = *sh;
    if (sh->sh_type != SHT_NOBITS && sh->sh_offset <= image.size() && sh->sh_size <= image.size() - sh->sh_offset)
      out[i].bytes = image.substr(sh->sh_offset, sh->sh_size);
  }
  for (section& s : out) s.name = name_at(out[eh->e_shstrndx].bytes, s.header.sh_name);
  return out;
}

/// Offset in .debug_line -> the name of the symbol its relocation names (the sequences' set_address).
std::map<std::uint64_t, std::string> relocated_symbols(const std::vector<section>& all, std::size_t line_index) {
  std::map<std::uint64_t, std::string> out;
  for (const section& rela : all) {
    if (rela.header.sh_type != SHT_RELA || rela.header.sh_info != line_index || rela.header.sh_link >= all.size()) continue;
    const section& symtab = all[rela.header.sh_link];
    if (symtab.header.sh_type != SHT_SYMTAB || symtab.header.sh_link >= all.size()) continue;
    for (std::uint64_t at = 0; at + sizeof(Elf64_Rela) <= rela.bytes.size(); at += sizeof(Elf64_Rela)) {
      const auto r = read_at<Elf64_Rela>(rela.bytes, at);
      const auto sym = read_at<Elf64_Sym>(symtab.bytes, ELF64_R_SYM(r->r_info) * sizeof(Elf64_Sym));
      if (sym) out[r->r_offset] = name_at(all[symtab.header.sh_link].bytes, sym->st_name);
    }
  }
  return out;
}

/// The line program's header fields the rows need.
struct program_header {
  std::uint8_t min_instruction_length = 1, opcode_base = 1, line_range = 1;
  std::int8_t line_base = 0;
  std::vector<std::uint8_t> standard_lengths;
  std::vector<std::string> files;  // 1-based in the program: files[0] is file 1
};

/// Reads one unit's header from @p r (at the unit's version field); @p program_start receives where its
/// program begins. nothing for a version this reader does not know (DWARF 5's tables differ).
std::optional<program_header> read_header(reader& r, bool dwarf64, std::size_t& program_start) {
  program_header h;
  const auto version = r.fixed<std::uint16_t>();
  if (version < 2 || version > 4) return std::nullopt;
  const std::uint64_t header_length = dwarf64 ? r.fixed<std::uint64_t>() : r.fixed<std::uint32_t>();
  program_start = r.at() + header_length;
  h.min_instruction_length = r.fixed<std::uint8_t>();
  if (version >= 4) r.fixed<std::uint8_t>();  // maximum operations per instruction (VLIW only)
  r.fixed<std::uint8_t>();                    // default is_stmt
  h.line_base = r.fixed<std::int8_t>();
  h.line_range = r.fixed<std::uint8_t>();
  h.opcode_base = r.fixed<std::uint8_t>();
  if (h.line_range == 0 || h.opcode_base == 0) return std::nullopt;
  for (int i = 1; i < h.opcode_base; ++i) h.standard_lengths.push_back(r.fixed<std::uint8_t>());
  std::vector<std::string> directories;
  for (std::string_view d = r.string(); !d.empty() && !r.failed(); d = r.string()) directories.emplace_back(d);
  for (std::string_view f = r.string(); !f.empty() && !r.failed(); f = r.string()) {
    const std::uint64_t dir = r.uleb();
    r.uleb();  // modification time
    r.uleb();  // size
    std::filesystem::path path(f);
    if (!path.is_absolute() && dir >= 1 && dir <= directories.size()) path = std::filesystem::path(directories[dir - 1]) / path;
    h.files.push_back(path.string());
  }
  if (r.failed()) return std::nullopt;
  return h;
}

/// The state of a line program between rows (DWARF's line-number state machine, the fields used).
struct machine {
  std::uint64_t pc = 0;
  std::uint64_t file = 1;
  std::int64_t line = 1;
  std::uint64_t context = 0;
};

}  // namespace

result<inlined_calls> inlined_calls::parse(const std::vector<char>& cubin) {
  const std::string_view image(cubin.data(), cubin.size());
  const auto sections = sections_of(image);
  if (!sections) return error{error_code::invalid_argument, "the cubin is not a 64-bit little-endian ELF image"};
  inlined_calls out;
  const auto malformed = [](std::string what) {
    return error{error_code::invalid_argument, "the cubin's line table is malformed: " + what};
  };
  for (std::size_t index = 0; index < sections->size(); ++index) {
    if ((*sections)[index].name != ".debug_line") continue;
    const std::string_view lines = (*sections)[index].bytes;
    const auto functions = relocated_symbols(*sections, index);
    for (reader unit(lines); !unit.done();) {
      std::uint64_t length = unit.fixed<std::uint32_t>();
      const bool dwarf64 = length == 0xffffffffu;
      if (dwarf64) length = unit.fixed<std::uint64_t>();
      const std::size_t end = unit.at() + length;
      if (unit.failed() || length > lines.size() - unit.at()) return malformed("a unit runs past the section's end");
      std::size_t program_start = 0;
      const auto header = read_header(unit, dwarf64, program_start);
      if (!header) return malformed("a unit's header is of a version other than 2 to 4, or cut short");
      if (program_start > end) return malformed("a unit's header runs past the unit");
      reader program(lines.substr(0, end), program_start);
      machine m;
      std::vector<row>* rows = nullptr;  // the current sequence's function's rows
      std::vector<row> unnamed;          // a sequence no relocation names: read, not kept
      std::size_t first = 0;             // the sequence's first row in *rows
      const auto emit = [&] {
        if (!rows) rows = &unnamed;
        const bool inlined = m.context > 0 && first + m.context - 1 < rows->size();
        const std::string& file = m.file >= 1 && m.file <= header->files.size() ? header->files[m.file - 1] : std::string();
        rows->push_back({m.pc, {file, static_cast<unsigned>(std::max<std::int64_t>(m.line, 0))},
                         inlined ? static_cast<int>(first + m.context - 1) : -1});
      };
      while (!program.done()) {
        const auto op = program.fixed<std::uint8_t>();
        if (op >= header->opcode_base) {  // a special opcode: advance both, then a row
          const int adjusted = op - header->opcode_base;
          m.pc += std::uint64_t(adjusted / header->line_range) * header->min_instruction_length;
          m.line += header->line_base + adjusted % header->line_range;
          emit();
        } else if (op == 0) {  // extended
          const std::uint64_t size = program.uleb();
          const std::size_t next = program.at() + size;
          if (size == 0 || program.failed()) return malformed("an extended opcode of no length");
          const auto sub = program.fixed<std::uint8_t>();
          if (sub == 1) {  // end of sequence
            m = machine{};
            rows = nullptr;
          } else if (sub == 2) {  // set address: a new sequence, of the function its relocation names
            const std::size_t operand = program.at();
            m.pc = size == 9 ? program.fixed<std::uint64_t>() : 0;
            const auto named = functions.find(operand);
            rows = named != functions.end() ? &out.functions_[named->second] : &unnamed;
            first = rows->size();
          } else if (sub == inlined_call_opcode) {
            m.context = program.uleb();
          }
          program = reader(lines.substr(0, end), next);
        } else {
          switch (op) {
            case 1: emit(); break;                                                     // copy
            case 2: m.pc += program.uleb() * header->min_instruction_length; break;   // advance pc
            case 3: m.line += program.sleb(); break;                                  // advance line
            case 4: m.file = program.uleb(); break;                                   // set file
            case 8: m.pc += std::uint64_t((255 - header->opcode_base) / header->line_range) * header->min_instruction_length; break;
            case 9: m.pc += program.fixed<std::uint16_t>(); break;                    // fixed advance pc
            default:  // set column, is_stmt, basic block, prologue, epilogue, isa, unknown: skip operands
              for (int i = 0; i < header->standard_lengths[op - 1]; ++i) program.uleb();
          }
        }
      }
      if (program.failed()) return malformed("a line program is cut short");
      unit = reader(lines, end);
    }
  }
  // A sequence's rows ascend by PC (DWARF); a function whose do not (two sequences) is not kept.
  std::erase_if(out.functions_, [](const auto& f) {
    return !std::is_sorted(f.second.begin(), f.second.end(), [](const row& a, const row& b) { return a.pc < b.pc; });
  });
  return out;
}

std::vector<source_location> inlined_calls::chain(const std::string& function, std::uint32_t pc) const {
  const auto it = functions_.find(function);
  if (it == functions_.end()) return {};
  const std::vector<row>& rows = it->second;
  // The last row at or before the PC: at one PC, the rows of the call come first, the inlined code's last.
  auto at = std::upper_bound(rows.begin(), rows.end(), pc, [](std::uint64_t p, const row& r) { return p < r.pc; });
  if (at == rows.begin()) return {};
  std::vector<source_location> out;
  for (int i = static_cast<int>(at - rows.begin()) - 1; i >= 0 && out.size() < 64; i = rows[std::size_t(i)].inlined_at) {
    out.push_back(rows[std::size_t(i)].where);
    if (rows[std::size_t(i)].inlined_at >= i) break;  // a context names an earlier row; anything else ends the walk
  }
  return out;
}

source_location user_line(const source_location& innermost, const std::vector<source_location>& chain) {
  const auto same = [](const source_location& a, const source_location& b) {
    return a.line == b.line && std::filesystem::path(a.file).lexically_normal() == std::filesystem::path(b.file).lexically_normal();
  };
  if (chain.empty() || !same(chain.front(), innermost) || !files::is_toolchain_header(innermost.file)) return innermost;
  for (const source_location& call : chain)
    if (!files::is_toolchain_header(call.file)) return call;
  return innermost;
}

}  // namespace rooflint::runtime::cupti
