// Per-line global memory traffic (rooflint/runtime/line_traffic.h): SASS records to instructions, the line
// table, the per-line sums and their join with the analyzer's predicted accesses. Pure: no GPU, no I/O.

#include "rooflint/runtime/line_traffic.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <tuple>

namespace rooflint::runtime {

std::string_view name(memory_op op) {
  switch (op) {
    case memory_op::load: return "load";
    case memory_op::store: return "store";
    case memory_op::atomic: return "atomic";
    case memory_op::reduction: return "reduction";
  }
  return "load";
}

std::string_view name(line_status s) {
  switch (s) {
    case line_status::agrees: return "agrees";
    case line_status::differs: return "differs";
    case line_status::not_observed: return "not_observed";
    case line_status::not_evaluated: return "not_evaluated";
    case line_status::not_predicted: return "not_predicted";
  }
  return "not_observed";
}

namespace {

/// The SASS metric suffix of each kind, in memory_op order.
constexpr const char* op_suffix[] = {"ld", "st", "atom", "red"};
constexpr memory_op ops[] = {memory_op::load, memory_op::store, memory_op::atomic, memory_op::reduction};

std::string requests_metric(memory_op op) {
  return std::string("smsp__sass_inst_executed_op_global_") + op_suffix[static_cast<int>(op)];
}
std::string data_bytes_metric(memory_op op) {
  return std::string("smsp__sass_data_bytes_mem_global_op_") + op_suffix[static_cast<int>(op)];
}
constexpr const char* sectors_metric = "smsp__sass_sectors_mem_global";
constexpr const char* ideal_sectors_metric = "smsp__sass_sectors_mem_global_ideal";

}  // namespace

const std::vector<std::string>& line_traffic_metrics() {
  static const std::vector<std::string> m = [] {
    std::vector<std::string> v;
    for (const memory_op op : ops) v.push_back(requests_metric(op));
    v.push_back(sectors_metric);
    v.push_back(ideal_sectors_metric);
    for (const memory_op op : ops) v.push_back(data_bytes_metric(op));
    return v;
  }();
  return m;
}

std::vector<instruction_traffic> instructions_from_sass(const std::vector<sass_record>& records) {
  std::vector<instruction_traffic> out;
  for (const sass_record& r : records) {
    const auto value = [&](const std::string& metric) -> std::optional<double> {
      const auto it = r.values.find(metric);
      return it == r.values.end() ? std::nullopt : std::optional<double>(it->second);
    };
    bool first = true;
    for (const memory_op op : ops) {
      const double requests = value(requests_metric(op)).value_or(0);
      if (requests <= 0) continue;
      instruction_traffic t;
      t.function = r.function;
      t.pc = r.pc;
      t.op = op;
      t.requests = requests;
      t.sectors = first ? value(sectors_metric).value_or(0) : 0;
      t.chip_ideal = first ? value(ideal_sectors_metric).value_or(NAN) : (value(ideal_sectors_metric) ? 0 : NAN);
      t.data_bytes = value(data_bytes_metric(op)).value_or(NAN);
      out.push_back(std::move(t));
      first = false;
    }
  }
  return out;
}

void line_table::add(std::string function, std::uint32_t pc, source_location where) {
  entries_[{std::move(function), pc}] = std::move(where);
}

std::optional<source_location> line_table::find(const std::string& function, std::uint32_t pc) const {
  const auto it = entries_.find({function, pc});
  if (it == entries_.end() || !it->second.known()) return std::nullopt;
  return it->second;
}

bool line_table::has_line_info() const {
  return std::any_of(entries_.begin(), entries_.end(), [](const auto& e) { return e.second.known(); });
}

result<line_table> build_line_table(const std::vector<instruction_traffic>& instructions, const correlate_fn& correlate) {
  line_table table;
  std::set<std::pair<std::string, std::uint32_t>> asked;
  std::optional<error> first_error;
  std::size_t failed = 0;
  for (const instruction_traffic& t : instructions) {
    if (!asked.insert({t.function, t.pc}).second) continue;
    result<source_location> where = correlate(t.function, t.pc);
    if (!where) {
      ++failed;
      if (!first_error) first_error = where.err();
      table.add(t.function, t.pc, {});
      continue;
    }
    table.add(t.function, t.pc, std::move(*where));
  }
  if (!asked.empty() && failed == asked.size()) return *first_error;
  return table;
}

std::vector<observed_line> observed_lines(const std::vector<instruction_traffic>& instructions, const line_table& table,
                                          std::vector<instruction_traffic>* unmapped) {
  std::map<std::tuple<std::string, unsigned, int>, observed_line> lines;
  for (const instruction_traffic& t : instructions) {
    const std::optional<source_location> where = table.find(t.function, t.pc);
    if (!where) {
      if (unmapped) unmapped->push_back(t);
      continue;
    }
    observed_line& l = lines[{where->file, where->line, static_cast<int>(t.op)}];
    if (l.instructions == 0) {
      l.where = *where;
      l.op = t.op;
      l.ideal_sectors = 0;
    }
    ++l.instructions;
    l.requests += t.requests;
    l.sectors += t.sectors;
    l.ideal_sectors += t.ideal_sectors();  // NaN once any instruction lacks data bytes: no ideal for the line
  }
  std::vector<observed_line> out;
  out.reserve(lines.size());
  for (auto& [key, l] : lines) out.push_back(std::move(l));
  return out;
}

bool same_kind(const predicted_access& a, memory_op observed) {
  if (a.atomic) return observed == memory_op::atomic || observed == memory_op::reduction;
  return observed == (a.store ? memory_op::store : memory_op::load);
}

int file_match(std::string_view a, std::string_view b) {
  namespace fs = std::filesystem;
  const fs::path pa = fs::path(a).lexically_normal(), pb = fs::path(b).lexically_normal();
  if (pa.empty() || pb.empty()) return 0;
  if (pa == pb) return 3;
  if (pa.filename() != pb.filename()) return 0;
  // Trailing components: the shorter path (relative, as a build may record it) ends the longer one.
  std::vector<fs::path> ca(pa.begin(), pa.end()), cb(pb.begin(), pb.end());
  if (ca.size() > cb.size()) std::swap(ca, cb);
  if (!ca.empty() && ca.front() != "/" && std::equal(ca.rbegin(), ca.rend(), cb.rbegin())) return 2;
  return 1;
}

namespace {

/// The predicted group's kind: the first access's (atomic accesses match ATOM or RED: join_lines takes
/// the observed line's kind).
memory_op predicted_kind(const predicted_access& a) {
  return a.atomic ? memory_op::atomic : a.store ? memory_op::store : memory_op::load;
}

bool agrees(double observed, double predicted) {
  return std::abs(observed - predicted) <= line_agreement_ratio * predicted + line_agreement_slack;
}

}  // namespace

line_report join_lines(const std::vector<predicted_access>& predicted, const std::vector<observed_line>& observed,
                       std::size_t top_unpredicted) {
  line_report report;
  report.collected = true;
  // Group the predicted accesses by (file, line, kind), keeping the manifest's order of first appearance.
  std::vector<line_row> rows;
  for (const predicted_access& a : predicted) {
    if (a.line == 0) {  // no line to join: a row would only say "not observed"
      report.unplaced.push_back(a);
      continue;
    }
    const memory_op kind = predicted_kind(a);
    auto it = std::find_if(rows.begin(), rows.end(), [&](const line_row& r) {
      return r.where.line == a.line && file_match(r.where.file, a.file) == 3 && r.op == kind;
    });
    if (it == rows.end()) {
      line_row r;
      r.where = {a.file, a.line};
      r.op = kind;
      rows.push_back(std::move(r));
      it = rows.end() - 1;
    }
    it->predicted.push_back(a);
  }

  // How many observed files each file name has: a file-name-only match is taken only when it is unique.
  std::map<std::string, std::set<std::string>> files_of_name;
  for (const observed_line& o : observed)
    files_of_name[std::filesystem::path(o.where.file).filename().string()].insert(o.where.file);

  std::vector<bool> used(observed.size(), false);
  for (line_row& r : rows) {
    // A line with an access the analyzer could not evaluate has no predicted figure: the line's observed
    // sectors are all its accesses', and a figure of some of them would be compared with the whole.
    const bool whole = std::all_of(r.predicted.begin(), r.predicted.end(), [](const predicted_access& a) { return a.evaluated(); });
    double requests = 0, sectors = 0, ideal = 0;
    if (whole)
      for (const predicted_access& a : r.predicted) {
        requests += *a.requests;
        sectors += *a.requests * *a.sectors_per_request;
        ideal += *a.requests * *a.ideal_sectors_per_request;
      }
    if (requests > 0) {
      r.predicted_sectors_per_request = sectors / requests;
      r.predicted_ideal_sectors_per_request = ideal / requests;
    }
    // The observed line: same line number, a kind the access can be, the best file match.
    int best_score = 0;
    std::size_t best = observed.size();
    for (std::size_t i = 0; i < observed.size(); ++i) {
      const observed_line& o = observed[i];
      if (o.where.line != r.where.line || !same_kind(r.predicted.front(), o.op)) continue;
      int score = file_match(o.where.file, r.where.file);
      if (score == 1 && files_of_name[std::filesystem::path(o.where.file).filename().string()].size() != 1) score = 0;
      if (score > best_score) best_score = score, best = i;
    }
    if (best < observed.size()) {
      r.observed = observed[best];
      used[best] = true;
      r.op = observed[best].op;  // an atomic access is reported as the ATOM or RED it compiled to
    }
    if (requests <= 0) r.status = line_status::not_evaluated;
    else if (!r.observed) r.status = line_status::not_observed;
    else if (r.predicted_ideal_sectors_per_request > 0)  // both over the analyzer's ideal (line_row::observed_amplification)
      r.status = agrees(r.observed_amplification(), r.predicted_amplification()) ? line_status::agrees : line_status::differs;
    else  // no ideal predicted: the sectors per request themselves
      r.status = agrees(r.observed->sectors_per_request(), r.predicted_sectors_per_request) ? line_status::agrees
                                                                                             : line_status::differs;
  }
  // A second atomic kind on the same line (ATOM and RED both) stays unmatched and is listed below.
  report.rows = std::move(rows);

  for (std::size_t i = 0; i < observed.size(); ++i) {
    if (used[i]) continue;
    const observed_line& o = observed[i];
    if (!(o.excess_sectors() > 0)) continue;  // NaN (no ideal) or no excess: nothing to point at
    line_row r;
    r.where = o.where;
    r.op = o.op;
    r.observed = o;
    r.status = line_status::not_predicted;
    report.unpredicted.push_back(std::move(r));
  }
  std::stable_sort(report.unpredicted.begin(), report.unpredicted.end(), [](const line_row& a, const line_row& b) {
    return a.observed->excess_sectors() > b.observed->excess_sectors();
  });
  if (report.unpredicted.size() > top_unpredicted) report.unpredicted.resize(top_unpredicted);
  return report;
}

}  // namespace rooflint::runtime
