// Per-instruction global memory traffic through CUPTI's SASS metrics API (cupti_sass_metrics.h), mapped
// to source lines: what rooflint's per-line report (docs/verifier.md, "Per-line traffic") relies on.
//
//   bash scripts/probes/sass-lines.sh [OUTDIR]      (builds with -arch=sm_90 -lineinfo, runs, writes OUTDIR)
//
// Six kernels of its own whose per-line traffic is worked out by hand below (each access carries a
// marker such as [copy.load]; the probe reads its own source to find the marked lines). Per kernel, in
// its own enable/disable window (CUPTI 13.0 collects the first function launched in a window): the
// executed warp-level global instructions, the sectors they touched and the bytes their active threads
// asked for, per PC; each PC mapped to file:line with cuptiGetSassToSourceCorrelation on the cubin that
// CUPTI's module-loaded callback handed over (or on the cubin file the script built from this source);
// then per line: requests, sectors, sectors per request, the ideal, and the expectation with PASS/FAIL.
//
// Also recorded: the API versions, every SASS metric the chip offers (OUTDIR/sass-metrics.tsv), the calls
// that worked or failed with their result codes, the cost of each step in ms, what happens with two
// launches in one window, whether SASS metrics and the range profiler can share a context, and whether
// the activity API blocks them. Everything goes to stdout and OUTDIR/sass-lines.json; nothing may hang:
// every CUPTI call is checked and a watchdog (--timeout, default 170 s) ends the run with the phase it
// was in.

#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <cupti_pcsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>
#include <elf.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

// ---------------------------------------------------------------------------------------------------
// Kernels with hand-worked traffic. Sizes: n = 2^20 elements, 256 threads per block unless stated.
// A "request" is one executed warp-level instruction; a sector is 32 bytes; cudaMalloc aligns to 256 B.
// Keep each marked access alone on its line: the per-line figures are checked against the markers.
// ---------------------------------------------------------------------------------------------------

constexpr int n_elements = 1 << 20;
constexpr int threads_per_block = 256;
constexpr int tile_width = 1024;  // the 2-D kernel's square matrix side (1024 x 1024 floats)

// 32 lanes x 4 B contiguous = 128 B: 4 sectors per request, ideal 4; n / 32 = 32768 requests each.
__global__ void copy_f32(const float* in, float* out) {  // in, out: (n)
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = in[i];  // [copy.load]
  out[i] = v;             // [copy.store]
}

// 32 lanes x 16 B contiguous = 512 B: 16 sectors per request, ideal 16; n / 4 / 32 = 8192 requests.
__global__ void copy_f32x4(const float4* in, float4* out) {  // in, out: (n / 4)
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 v = in[i];  // [copy4.load]
  out[i] = v;              // [copy4.store]
}

// Lanes 33 x 4 = 132 B apart: each lane in its own sector, 32 per request; the 128 B the warp uses
// would fit in 4 (8x); n / 32 requests. The store is coalesced (4 per request).
__global__ void gather_stride33(const float* in, float* out) {  // in: (33 n), out: (n)
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = in[static_cast<size_t>(i) * 33];  // [gather.load]
  out[i] = v;                                       // [gather.store]
}

// 16 x 16 blocks: a warp is two rows of 16 threads (threadIdx.y = 2k, 2k + 1).
// Load in[y][x]: two rows of 64 B, each 64 B aligned: 4 sectors per request, ideal 4.
// Store out[x][y]: 16 rows (x), and the two y of a warp are adjacent (8 B, y even, inside one sector):
// 16 sectors per request, ideal 4 (4x). (1024 / 16)^2 blocks x 8 warps = 32768 requests each.
__global__ void transpose_16x16(const float* in, float* out) {  // in, out: (1024, 1024)
  const int x = blockIdx.x * 16 + threadIdx.x;
  const int y = blockIdx.y * 16 + threadIdx.y;
  const float v = in[y * tile_width + x];  // [tile.load]
  out[x * tile_width + y] = v;             // [tile.store]
}

// Lanes 0..3 of each warp store: 4 x 4 B = 16 B of data per request.
// Packed: 16 contiguous bytes in one sector: 1 sector per request, ideal 1 (a request costs at least one).
// Strided: the 4 lanes 32 B apart: 4 sectors per request, ideal 1 (4x). The load: all 32 lanes, 4 and 4.
// n / 32 requests each (every warp has lanes 0..3, so every warp executes both stores).
__global__ void guarded_4_of_32(const float* in, float* packed, float* strided) {  // in: (n), packed: (n / 8), strided: (n)
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const int warp = i >> 5;
  const float v = in[i];  // [guard.load]
  if (lane < 4) {
    packed[warp * 4 + lane] = v;   // [guard.store_packed]
    strided[warp * 32 + lane * 8] = v;  // [guard.store_strided]
  }
}

// A load in an inlined helper, called twice: both loads carry the helper's line (the innermost
// location), 2 x n / 32 = 65536 requests at 4 sectors. The atomic add whose result is unused compiles to
// a RED: 32 lanes on 32 consecutive words, 4 sectors per request, n / 32 requests.
__device__ __forceinline__ float load_through_helper(const float* p) {
  return *p;  // [inline.load]
}

__global__ void inlined_and_red(const float* in, float* out, unsigned* counters) {  // in: (2 n), out: (n), counters: (32)
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float a = load_through_helper(in + i);
  const float b = load_through_helper(in + n_elements + i);
  out[i] = a + b;                            // [inline.store]
  atomicAdd(&counters[threadIdx.x & 31], 1u);  // [red.add]
}

// ---------------------------------------------------------------------------------------------------
// Log, watchdog, results
// ---------------------------------------------------------------------------------------------------
namespace {

using clock_type = std::chrono::steady_clock;
double ms_since(clock_type::time_point t0) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
}

volatile const char* g_phase = "start";
std::string g_out = "/tmp/sass-lines";

void on_alarm(int) {
  const char* p = const_cast<const char*>(g_phase);
  char msg[512];
  const int len = std::snprintf(msg, sizeof msg, "\nTIMEOUT: the watchdog ended the run in phase '%s'\n", p);
  if (len > 0) (void)!write(1, msg, static_cast<size_t>(len));
  _exit(124);
}

void phase(const char* name) {
  g_phase = name;
  std::printf("\n== %s\n", name);
  std::fflush(stdout);
}

void say(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::vprintf(fmt, ap);
  va_end(ap);
  std::printf("\n");
  std::fflush(stdout);
}

std::string cupti_text(CUptiResult r) {
  const char* s = nullptr;
  if (cuptiGetResultString(r, &s) != CUPTI_SUCCESS || !s) return "CUPTI error " + std::to_string(int(r));
  return std::string(s) + " (" + std::to_string(int(r)) + ")";
}

/// Every CUPTI call goes through here: the call's text, its result and its time are printed and kept.
struct call_record {
  std::string call;
  std::string result;
  double ms;
};
std::vector<call_record> g_calls;

bool check(CUptiResult r, const char* call, double ms) {
  g_calls.push_back({call, cupti_text(r), ms});
  std::printf("  %-58s %s  %.3f ms\n", call, r == CUPTI_SUCCESS ? "ok" : ("FAILED " + cupti_text(r)).c_str(), ms);
  std::fflush(stdout);
  return r == CUPTI_SUCCESS;
}
#define CUPTI_CALL(expr)                                   \
  [&]() {                                                  \
    const auto t0_ = clock_type::now();                    \
    const CUptiResult r_ = (expr);                         \
    return check(r_, #expr, ms_since(t0_));                \
  }()

bool cuda_ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  say("  CUDA FAILED %s: %s", what, cudaGetErrorString(e));
  return false;
}
#define CUDA_CALL(expr) cuda_ok((expr), #expr)

std::string json_escape(const std::string& s) {
  std::string o;
  for (const char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += c;
    else if (c == '\n') o += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20) o += ' ';
    else o += c;
  }
  return o;
}
std::string q(const std::string& s) { return "\"" + json_escape(s) + "\""; }
std::string num(double v) {
  if (!std::isfinite(v)) return "null";
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

// ---------------------------------------------------------------------------------------------------
// Markers: the line of each marked access, read from this file's source.
// ---------------------------------------------------------------------------------------------------
std::map<std::string, int> g_marker_lines;

void read_markers(const std::string& path) {
  std::ifstream f(path);
  if (!f) {
    say("  cannot read the probe's source '%s': expectations cannot be placed on lines (pass --source)", path.c_str());
    return;
  }
  std::string line;
  int number = 0;
  while (std::getline(f, line)) {
    ++number;
    const auto open = line.find("// [");
    if (open == std::string::npos || line.find("\"") != std::string::npos) continue;
    const auto close = line.find(']', open);
    if (close == std::string::npos) continue;
    g_marker_lines[line.substr(open + 4, close - open - 4)] = number;
  }
  say("  %zu markers read from %s", g_marker_lines.size(), path.c_str());
}

// ---------------------------------------------------------------------------------------------------
// Cubins: from CUPTI's module-loaded callback, and from the file the script built
// ---------------------------------------------------------------------------------------------------
struct cubin_image {
  std::string origin;  ///< "callback module N" or the file's path
  std::vector<char> bytes;
  uint64_t crc = 0;
  bool crc_ok = false;
};
std::vector<cubin_image> g_cubins;
bool g_callback_fired = false;

void CUPTIAPI on_resource(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  if (domain != CUPTI_CB_DOMAIN_RESOURCE || cbid != CUPTI_CBID_RESOURCE_MODULE_LOADED) return;
  g_callback_fired = true;
  const auto* rd = static_cast<const CUpti_ResourceData*>(data);
  const auto* md = static_cast<const CUpti_ModuleResourceData*>(rd->resourceDescriptor);
  if (!md || !md->pCubin || md->cubinSize == 0) return;
  cubin_image c;
  c.origin = "module-loaded callback, module " + std::to_string(md->moduleId);
  c.bytes.assign(md->pCubin, md->pCubin + md->cubinSize);
  g_cubins.push_back(std::move(c));
}

void crc_of(cubin_image& c) {
  CUpti_GetCubinCrcParams p{CUpti_GetCubinCrcParamsSize};
  p.cubin = c.bytes.data();
  p.cubinSize = c.bytes.size();
  c.crc_ok = CUPTI_CALL(cuptiGetCubinCrc(&p));
  c.crc = p.cubinCrc;
  const bool elf = c.bytes.size() > 4 && std::memcmp(c.bytes.data(), "\x7f" "ELF", 4) == 0;
  say("  cubin from %s: %zu bytes, %s, cuptiGetCubinCrc 0x%llx (low 32 bits 0x%08llx)", c.origin.c_str(),
      c.bytes.size(), elf ? "an ELF image" : "NOT an ELF image", (unsigned long long)c.crc,
      (unsigned long long)(c.crc & 0xffffffffu));
}

/// The cubin whose CRC matches a SASS record's 32-bit cubinCrc, else the first ELF one (with a note).
const cubin_image* cubin_for(uint32_t record_crc, bool* matched) {
  for (const auto& c : g_cubins)
    if (c.crc_ok && static_cast<uint32_t>(c.crc) == record_crc) {
      *matched = true;
      return &c;
    }
  *matched = false;
  for (const auto& c : g_cubins)
    if (c.bytes.size() > 4 && std::memcmp(c.bytes.data(), "\x7f" "ELF", 4) == 0) return &c;
  return nullptr;
}

struct source_line {
  bool ok = false;
  std::string dir, file;
  unsigned line = 0;
  std::string result;
};
std::map<std::tuple<const void*, std::string, uint64_t>, source_line> g_line_cache;

source_line correlate(const cubin_image& c, const std::string& function, uint64_t pc) {
  const auto key = std::make_tuple(static_cast<const void*>(c.bytes.data()), function, pc);
  if (auto it = g_line_cache.find(key); it != g_line_cache.end()) return it->second;
  CUpti_GetSassToSourceCorrelationParams p{CUpti_GetSassToSourceCorrelationParamsSize};
  p.cubin = c.bytes.data();
  p.cubinSize = c.bytes.size();
  p.functionName = function.c_str();
  p.pcOffset = pc;
  const CUptiResult r = cuptiGetSassToSourceCorrelation(&p);
  source_line s;
  s.ok = r == CUPTI_SUCCESS;
  s.result = cupti_text(r);
  if (s.ok) {
    s.dir = p.dirName ? p.dirName : "";
    s.file = p.fileName ? p.fileName : "";
    s.line = p.lineNumber;
  }
  std::free(p.fileName);
  std::free(p.dirName);
  g_line_cache[key] = s;
  return s;
}

// ---------------------------------------------------------------------------------------------------
// SASS metrics
// ---------------------------------------------------------------------------------------------------
struct metric {
  std::string name;
  uint64_t id = 0;
  std::string description;
};
std::vector<metric> g_all_metrics;   // every SASS metric of the chip
std::vector<metric> g_chosen;        // the ones configured
std::map<uint64_t, std::string> g_name_of;

/// One patched instruction's values.
struct pc_record {
  std::string function;
  uint32_t function_index = 0;
  uint32_t crc = 0;
  uint32_t pc = 0;
  std::map<std::string, double> values;  // metric name -> value (GPU granularity: one instance)
  double v(const std::string& m) const {
    auto it = values.find(m);
    return it == values.end() ? 0.0 : it->second;
  }
};

struct window_cost {
  double enable_ms = 0, launch_sync_ms = 0, kernel_event_ms = 0, properties_ms = 0, flush_ms = 0, disable_ms = 0;
  size_t records = 0, instances = 0, dropped = 0;
  bool ok = false;
  std::string failure;
};

CUcontext g_ctx = nullptr;
int g_device = 0;

/// One enable/disable window around @p launch (the launches it makes), flushed before the disable.
window_cost collect(const std::function<void(cudaStream_t)>& launch, std::vector<pc_record>& out, bool lazy,
                    cudaStream_t stream) {
  window_cost w;
  CUpti_SassMetricsEnable_Params en{CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
  en.ctx = g_ctx;
  en.enableLazyPatching = lazy ? 1 : 0;
  auto t0 = clock_type::now();
  if (!CUPTI_CALL(cuptiSassMetricsEnable(&en))) {
    w.failure = "cuptiSassMetricsEnable: " + g_calls.back().result;
    return w;
  }
  w.enable_ms = ms_since(t0);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  t0 = clock_type::now();
  cudaEventRecord(a, stream);
  launch(stream);
  cudaEventRecord(b, stream);
  const cudaError_t e = cudaStreamSynchronize(stream);
  w.launch_sync_ms = ms_since(t0);
  float ev = 0;
  cudaEventElapsedTime(&ev, a, b);
  w.kernel_event_ms = ev;
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  say("  launch under patching: %s, wall %.3f ms, CUDA events %.3f ms", e == cudaSuccess ? "ok" : cudaGetErrorString(e),
      w.launch_sync_ms, w.kernel_event_ms);

  CUpti_SassMetricsGetDataProperties_Params props{CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
  props.ctx = g_ctx;
  t0 = clock_type::now();
  const bool props_ok = CUPTI_CALL(cuptiSassMetricsGetDataProperties(&props));
  w.properties_ms = ms_since(t0);
  if (props_ok) {
    w.records = props.numOfPatchedInstructionRecords;
    w.instances = props.numOfInstances;
    say("  patched instruction records %zu, instances per metric %zu", w.records, w.instances);
  }
  if (props_ok && w.records > 0 && w.instances > 0) {
    std::vector<CUpti_SassMetrics_Data> data(w.records);
    std::vector<std::vector<CUpti_SassMetrics_InstanceValue>> values(w.records,
                                                                      std::vector<CUpti_SassMetrics_InstanceValue>(w.instances));
    for (size_t r = 0; r < w.records; ++r) {
      data[r] = CUpti_SassMetrics_Data{};
      data[r].structSize = sizeof(CUpti_SassMetrics_Data);
      data[r].pInstanceValues = values[r].data();
    }
    CUpti_SassMetricsFlushData_Params flush{CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
    flush.ctx = g_ctx;
    flush.numOfPatchedInstructionRecords = w.records;
    flush.numOfInstances = w.instances;
    flush.pMetricsData = data.data();
    t0 = clock_type::now();
    const bool flushed = CUPTI_CALL(cuptiSassMetricsFlushData(&flush));
    w.flush_ms = ms_since(t0);
    if (flushed) {
      w.ok = true;
      // A record's instances: numOfInstances values (one per instance) for each configured metric? The
      // header says "array of size equal to number of instances per metric"; with more than one metric
      // the layout is checked here: every metric id seen in the instance values is kept.
      // Records of one PC (one per metric, as NVIDIA's sample reads them) are merged by (cubin, function, PC).
      std::map<std::tuple<uint32_t, std::string, uint32_t>, size_t> index;
      const size_t before = out.size();
      for (size_t r = 0; r < w.records; ++r) {
        const std::string function = data[r].functionName ? data[r].functionName : "";
        const auto key = std::make_tuple(data[r].cubinCrc, function, data[r].pcOffset);
        auto [it, fresh] = index.emplace(key, out.size());
        if (fresh) {
          pc_record p;
          p.function = function;
          p.function_index = data[r].functionIndex;
          p.crc = data[r].cubinCrc;
          p.pc = data[r].pcOffset;
          out.push_back(std::move(p));
        }
        pc_record& p = out[it->second];
        for (size_t i = 0; i < w.instances; ++i) {
          const auto& iv = values[r][i];
          auto name_it = g_name_of.find(iv.metricId);
          const std::string name = name_it == g_name_of.end() ? "id " + std::to_string(iv.metricId) : name_it->second;
          p.values[name] += static_cast<double>(iv.value);
        }
        std::free(const_cast<char*>(data[r].functionName));
      }
      say("  %zu records over %zu distinct PCs", w.records, out.size() - before);
    } else {
      w.failure = "cuptiSassMetricsFlushData: " + g_calls.back().result;
    }
  } else if (props_ok) {
    w.failure = "no patched instruction records";
  } else {
    w.failure = "cuptiSassMetricsGetDataProperties: " + g_calls.back().result;
  }
  CUpti_SassMetricsDisable_Params dis{CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
  dis.ctx = g_ctx;
  t0 = clock_type::now();
  if (CUPTI_CALL(cuptiSassMetricsDisable(&dis))) w.dropped = dis.numOfDroppedRecords;
  w.disable_ms = ms_since(t0);
  if (w.dropped) say("  dropped records at disable: %zu", w.dropped);
  return w;
}

// ---------------------------------------------------------------------------------------------------
// Per-line figures and the expectations
// ---------------------------------------------------------------------------------------------------
const char* const op_names[] = {"ld", "st", "atom", "red"};

std::string requests_metric(const char* op) { return std::string("smsp__sass_inst_executed_op_global_") + op; }
std::string data_bytes_metric(const char* op) { return std::string("smsp__sass_data_bytes_mem_global_op_") + op; }
std::string l1_sectors_metric(const char* op) {
  return std::string("smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_") + op;
}
const char* const width_metrics[][2] = {{"smsp__sass_inst_executed_op_memory_8b", "1"},
                                        {"smsp__sass_inst_executed_op_memory_16b", "2"},
                                        {"smsp__sass_inst_executed_op_memory_32b", "4"},
                                        {"smsp__sass_inst_executed_op_memory_64b", "8"},
                                        {"smsp__sass_inst_executed_op_memory_128b", "16"}};

bool chosen(const std::string& m) {
  return std::any_of(g_chosen.begin(), g_chosen.end(), [&](const metric& x) { return x.name == m; });
}

/// A line's figures for one kind of access (ld, st, atom, red).
struct line_figures {
  std::string file;
  unsigned line = 0;
  std::string op;
  int instructions = 0;
  double requests = 0, sectors = 0, l1_sectors = 0;
  double ideal_from_data_bytes = 0;   // sum over PCs of max(requests, data_bytes / 32)
  double ideal_from_threads = 0;      // sum over PCs of max(requests, threads x width / 32)
  bool have_data_bytes = false, have_threads = false;
  std::string widths;
};

/// The width in bytes of the access at @p p from the memory_<N>b counters, or 0.
int width_of(const pc_record& p) {
  for (const auto& w : width_metrics)
    if (p.v(w[0]) > 0) return std::atoi(w[1]);
  return 0;
}

std::vector<line_figures> per_line(const std::vector<pc_record>& recs, std::string* mapping_note) {
  std::map<std::tuple<std::string, unsigned, std::string>, line_figures> lines;
  int unmapped = 0, crc_mismatch = 0;
  for (const auto& p : recs) {
    for (const char* op : op_names) {
      const double req = p.v(requests_metric(op));
      if (req <= 0) continue;
      bool matched = false;
      const cubin_image* c = cubin_for(p.crc, &matched);
      if (!matched) ++crc_mismatch;
      source_line s;
      if (c) s = correlate(*c, p.function, p.pc);
      if (!s.ok) ++unmapped;
      std::string file = s.ok ? (s.file.empty() || s.file[0] == '/' || s.dir.empty() ? s.file : s.dir + "/" + s.file) : "?";
      auto& f = lines[{file, s.ok ? s.line : 0, op}];
      f.file = file;
      f.line = s.ok ? s.line : 0;
      f.op = op;
      ++f.instructions;
      f.requests += req;
      f.sectors += p.v("smsp__sass_sectors_mem_global");
      f.l1_sectors += p.v(l1_sectors_metric(op));
      if (chosen(data_bytes_metric(op))) {
        f.have_data_bytes = true;
        f.ideal_from_data_bytes += std::max(req, p.v(data_bytes_metric(op)) / 32.0);
      }
      const int width = width_of(p);
      const std::string threads_metric = chosen("smsp__sass_thread_inst_executed_op_memory_pred_on")
                                             ? "smsp__sass_thread_inst_executed_op_memory_pred_on"
                                             : "smsp__sass_thread_inst_executed_pred_on";
      if (width > 0 && chosen(threads_metric)) {
        f.have_threads = true;
        f.ideal_from_threads += std::max(req, p.v(threads_metric) * width / 32.0);
      }
      f.widths += (f.widths.empty() ? "" : ",") + std::to_string(width) + "B";
    }
  }
  *mapping_note = std::to_string(unmapped) + " global-memory PCs not mapped to a line, " + std::to_string(crc_mismatch) +
                  " whose record CRC matched no captured cubin";
  std::vector<line_figures> out;
  for (auto& [k, v] : lines) out.push_back(v);
  return out;
}

struct expectation {
  const char* marker;
  const char* op;
  double requests;
  double sectors_per_request;
  double ideal_per_request;
};

struct kernel_case {
  const char* name;      // as printed
  const char* symbol;    // the mangled name CUPTI reports (checked, not assumed)
  std::function<void(cudaStream_t)> launch;
  std::vector<expectation> expect;
  double plain_ms = 0;   // median of timed unpatched runs
};

int g_pass = 0, g_fail = 0, g_not_available = 0;
std::ostringstream g_json_kernels;
bool g_first_kernel = true;

void not_available(const std::string& what) {
  ++g_not_available;
  say("NOT AVAILABLE: %s", what.c_str());
}

bool near(double a, double b, double rel) { return std::fabs(a - b) <= rel * std::max(std::fabs(b), 1e-12); }

void report_kernel(kernel_case& k, const std::vector<pc_record>& recs, const window_cost& w) {
  std::string note;
  const auto lines = per_line(recs, &note);
  std::set<std::string> functions;
  for (const auto& r : recs) functions.insert(r.function);
  std::string fn_list;
  for (const auto& f : functions) fn_list += (fn_list.empty() ? "" : ", ") + f;
  say("  functions in the records: %s", fn_list.empty() ? "(none)" : fn_list.c_str());
  say("  %s", note.c_str());
  say("  %-26s %-4s %5s %10s %10s %8s %8s %8s %8s  %s", "line", "op", "insts", "requests", "sectors", "sec/req",
      "ideal/rq", "ratio", "L1sec/rq", "expectation");
  std::set<std::pair<unsigned, std::string>> expected_lines;
  for (const auto& e : k.expect) {
    const auto it = g_marker_lines.find(e.marker);
    const unsigned line = it == g_marker_lines.end() ? 0 : static_cast<unsigned>(it->second);
    expected_lines.insert({line, e.op});
    const line_figures* f = nullptr;
    for (const auto& l : lines)
      if (l.line == line && l.op == e.op && l.file.find("sass-lines.cu") != std::string::npos) f = &l;
    // atomicAdd is an inlined function of the toolkit's device_atomic_functions.hpp: CUPTI's correlation
    // gives the innermost location, the header's line, not the marked call (seen on this file's cubin).
    if (!f && std::string(e.op) == "red")
      for (const auto& l : lines)
        if (l.op == e.op && l.file.find("atomic_functions") != std::string::npos) {
          f = &l;
          say("  %s: the RED is attributed to %s:%u (the inlined toolkit function), not to line %u", e.marker, l.file.c_str(),
              l.line, line);
        }
    if (!f) {
      ++g_fail;
      say("  %-26s %-4s  no %s instruction observed on line %u; expected %.0f requests, %.1f sectors/request  FAIL",
          e.marker, e.op, e.op, line, e.requests, e.sectors_per_request);
      continue;
    }
    const double spr = f->sectors / f->requests;
    const double ideal = f->have_data_bytes ? f->ideal_from_data_bytes : f->have_threads ? f->ideal_from_threads : NAN;
    const double ideal_pr = ideal / f->requests;
    const bool pass = f->requests == e.requests && near(spr, e.sectors_per_request, 0.01) &&
                      (std::isnan(ideal_pr) || near(ideal_pr, e.ideal_per_request, 0.01));
    (pass ? g_pass : g_fail)++;
    char where[64];
    std::snprintf(where, sizeof where, "%s:%u", e.marker, line);
    say("  %-26s %-4s %5d %10.0f %10.0f %8.2f %8.2f %7.2fx %8.2f  expected %.0f req, %.0f sec/req, ideal %.0f (%.1fx) %s",
        where, e.op, f->instructions, f->requests, f->sectors, spr, ideal_pr, spr / ideal_pr,
        f->l1_sectors > 0 ? f->l1_sectors / f->requests : NAN, e.requests, e.sectors_per_request, e.ideal_per_request,
        e.sectors_per_request / e.ideal_per_request, pass ? "PASS" : "FAIL");
    if (f->have_data_bytes && f->have_threads && !near(f->ideal_from_data_bytes, f->ideal_from_threads, 0.001))
      say("    the two ideals differ: from data bytes %.0f, from threads x width %.0f (widths %s)",
          f->ideal_from_data_bytes, f->ideal_from_threads, f->widths.c_str());
    else if (!f->have_data_bytes && f->have_threads)
      say("    ideal from threads x width (%s): no data-bytes metric was configured", f->widths.c_str());
    else if (!f->have_data_bytes && !f->have_threads)
      say("    no ideal: neither the data-bytes metric nor threads x width was available");
  }
  for (const auto& l : lines)
    if (!expected_lines.count({l.line, l.op}) && !(l.op == "red" && l.file.find("atomic_functions") != std::string::npos))
      say("  unexpected: %s:%u %s: %d instructions, %.0f requests, %.0f sectors", l.file.c_str(), l.line, l.op.c_str(),
          l.instructions, l.requests, l.sectors);
  say("  cost (ms): plain kernel %.4f; enable %.3f, launch+sync under patching %.3f (events %.4f), get properties %.3f, "
      "flush %.3f, disable %.3f; total %.3f",
      k.plain_ms, w.enable_ms, w.launch_sync_ms, w.kernel_event_ms, w.properties_ms, w.flush_ms, w.disable_ms,
      w.enable_ms + w.launch_sync_ms + w.properties_ms + w.flush_ms + w.disable_ms);

  // JSON: every PC record with its line, the per-line figures and the costs.
  g_json_kernels << (g_first_kernel ? "" : ",\n") << "    {\"kernel\": " << q(k.name) << ", \"plain_ms\": " << num(k.plain_ms)
                 << ",\n     \"cost_ms\": {\"enable\": " << num(w.enable_ms) << ", \"launch_sync\": " << num(w.launch_sync_ms)
                 << ", \"kernel_events\": " << num(w.kernel_event_ms) << ", \"properties\": " << num(w.properties_ms)
                 << ", \"flush\": " << num(w.flush_ms) << ", \"disable\": " << num(w.disable_ms) << "},\n"
                 << "     \"records\": " << w.records << ", \"instances\": " << w.instances << ", \"dropped\": " << w.dropped
                 << ",\n     \"pcs\": [";
  g_first_kernel = false;
  bool first = true;
  for (const auto& r : recs) {
    bool matched = false;
    const cubin_image* c = cubin_for(r.crc, &matched);
    source_line s;
    if (c) s = correlate(*c, r.function, r.pc);
    g_json_kernels << (first ? "\n" : ",\n") << "       {\"function\": " << q(r.function) << ", \"function_index\": "
                   << r.function_index << ", \"cubin_crc\": " << r.crc << ", \"pc\": " << r.pc << ", \"dir\": " << q(s.dir)
                   << ", \"file\": " << q(s.file) << ", \"line\": " << s.line << ", \"correlation\": " << q(s.result)
                   << ", \"values\": {";
    bool fv = true;
    for (const auto& [m, v] : r.values) {
      g_json_kernels << (fv ? "" : ", ") << q(m) << ": " << num(v);
      fv = false;
    }
    g_json_kernels << "}}";
    first = false;
  }
  g_json_kernels << "]}";
}

// ---------------------------------------------------------------------------------------------------
// The range profiler: per-kernel totals of the same quantities (cross-check), and coexistence
// ---------------------------------------------------------------------------------------------------
struct range_session {
  CUpti_Profiler_Host_Object* host = nullptr;
  CUpti_RangeProfiler_Object* object = nullptr;
  std::vector<uint8_t> availability, image, data;
  std::vector<std::string> metrics;
  std::vector<const char*> names;
  size_t passes = 0;
};

bool range_enable(range_session& s, const char* chip) {
  CUpti_Profiler_GetCounterAvailability_Params av{CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  av.ctx = g_ctx;
  if (!CUPTI_CALL(cuptiProfilerGetCounterAvailability(&av))) return false;
  s.availability.resize(av.counterAvailabilityImageSize);
  av.pCounterAvailabilityImage = s.availability.data();
  if (!CUPTI_CALL(cuptiProfilerGetCounterAvailability(&av))) return false;
  CUpti_Profiler_Host_Initialize_Params hi{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  hi.pChipName = chip;
  hi.pCounterAvailabilityImage = s.availability.data();
  if (!CUPTI_CALL(cuptiProfilerHostInitialize(&hi))) return false;
  s.host = hi.pHostObject;
  for (const auto& m : s.metrics) s.names.push_back(m.c_str());
  CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  add.pHostObject = s.host;
  add.ppMetricNames = s.names.data();
  add.numMetrics = s.names.size();
  if (!CUPTI_CALL(cuptiProfilerHostConfigAddMetrics(&add))) return false;
  CUpti_Profiler_Host_GetConfigImageSize_Params is{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
  is.pHostObject = s.host;
  if (!CUPTI_CALL(cuptiProfilerHostGetConfigImageSize(&is))) return false;
  s.image.resize(is.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params ci{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
  ci.pHostObject = s.host;
  ci.configImageSize = s.image.size();
  ci.pConfigImage = s.image.data();
  if (!CUPTI_CALL(cuptiProfilerHostGetConfigImage(&ci))) return false;
  CUpti_Profiler_Host_GetNumOfPasses_Params np{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
  np.configImageSize = s.image.size();
  np.pConfigImage = s.image.data();
  if (CUPTI_CALL(cuptiProfilerHostGetNumOfPasses(&np))) s.passes = np.numOfPasses;
  say("  range-profiler config: %zu metrics, %zu passes", s.metrics.size(), s.passes);
  CUpti_RangeProfiler_Enable_Params en{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
  en.ctx = g_ctx;
  if (!CUPTI_CALL(cuptiRangeProfilerEnable(&en))) return false;
  s.object = en.pRangeProfilerObject;
  return true;
}

bool range_collect(range_session& s, const std::function<void(cudaStream_t)>& launch, std::vector<double>& values) {
  CUpti_RangeProfiler_GetCounterDataSize_Params ds{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
  ds.pRangeProfilerObject = s.object;
  ds.pMetricNames = s.names.data();
  ds.numMetrics = s.names.size();
  ds.maxNumOfRanges = 2;
  ds.maxNumRangeTreeNodes = 2;
  if (!CUPTI_CALL(cuptiRangeProfilerGetCounterDataSize(&ds))) return false;
  s.data.assign(ds.counterDataSize, 0);
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params di{CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  di.pRangeProfilerObject = s.object;
  di.counterDataSize = s.data.size();
  di.pCounterData = s.data.data();
  if (!CUPTI_CALL(cuptiRangeProfilerCounterDataImageInitialize(&di))) return false;
  CUpti_RangeProfiler_SetConfig_Params sc{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
  sc.pRangeProfilerObject = s.object;
  sc.configSize = s.image.size();
  sc.pConfig = s.image.data();
  sc.counterDataImageSize = s.data.size();
  sc.pCounterDataImage = s.data.data();
  sc.range = CUPTI_AutoRange;
  sc.replayMode = CUPTI_KernelReplay;
  sc.maxRangesPerPass = 2;
  sc.numNestingLevels = 1;
  sc.minNestingLevel = 1;
  sc.passIndex = 0;
  sc.targetNestingLevel = 1;
  if (!CUPTI_CALL(cuptiRangeProfilerSetConfig(&sc))) return false;
  CUpti_RangeProfiler_Start_Params st{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
  st.pRangeProfilerObject = s.object;
  if (!CUPTI_CALL(cuptiRangeProfilerStart(&st))) return false;
  launch(nullptr);
  cudaDeviceSynchronize();
  CUpti_RangeProfiler_Stop_Params sp{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
  sp.pRangeProfilerObject = s.object;
  if (!CUPTI_CALL(cuptiRangeProfilerStop(&sp))) return false;
  CUpti_RangeProfiler_DecodeData_Params dd{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
  dd.pRangeProfilerObject = s.object;
  if (!CUPTI_CALL(cuptiRangeProfilerDecodeData(&dd))) return false;
  CUpti_RangeProfiler_GetCounterDataInfo_Params gi{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  gi.pCounterDataImage = s.data.data();
  gi.counterDataImageSize = s.data.size();
  if (!CUPTI_CALL(cuptiRangeProfilerGetCounterDataInfo(&gi))) return false;
  if (gi.numTotalRanges < 1) {
    say("  the range profiler recorded no range");
    return false;
  }
  values.assign(s.names.size(), 0.0);
  CUpti_Profiler_Host_EvaluateToGpuValues_Params ev{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
  ev.pHostObject = s.host;
  ev.pCounterDataImage = s.data.data();
  ev.counterDataImageSize = s.data.size();
  ev.rangeIndex = 0;
  ev.ppMetricNames = s.names.data();
  ev.numMetrics = s.names.size();
  ev.pMetricValues = values.data();
  return CUPTI_CALL(cuptiProfilerHostEvaluateToGpuValues(&ev));
}

void range_disable(range_session& s) {
  if (s.object) {
    CUpti_RangeProfiler_Disable_Params d{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    d.pRangeProfilerObject = s.object;
    CUPTI_CALL(cuptiRangeProfilerDisable(&d));
    s.object = nullptr;
  }
  if (s.host) {
    CUpti_Profiler_Host_Deinitialize_Params d{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    d.pHostObject = s.host;
    CUPTI_CALL(cuptiProfilerHostDeinitialize(&d));
    s.host = nullptr;
  }
}

bool set_sass_config(const std::vector<metric>& ms) {
  std::vector<CUpti_SassMetrics_Config> cfg;
  for (const auto& m : ms) cfg.push_back({m.id, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU});
  CUpti_SassMetricsSetConfig_Params p{CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
  p.numOfMetricConfig = cfg.size();
  p.pConfigs = cfg.data();
  p.deviceIndex = static_cast<uint32_t>(g_device);
  return CUPTI_CALL(cuptiSassMetricsSetConfig(&p));
}

bool unset_sass_config() {
  CUpti_SassMetricsUnsetConfig_Params p{CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE};
  p.deviceIndex = static_cast<uint32_t>(g_device);
  return CUPTI_CALL(cuptiSassMetricsUnsetConfig(&p));
}

double median_ms(const std::function<void(cudaStream_t)>& launch, cudaStream_t s, int runs) {
  std::vector<float> t;
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (int r = 0; r < runs; ++r) {
    cudaEventRecord(a, s);
    launch(s);
    cudaEventRecord(b, s);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/// The size in bytes of function @p name in the ELF image @p c (its symbol's st_size), or 0.
/// CUPTI's correlation does not stop at a function's end: past it, it answers with the lines of the code
/// that follows in the cubin (seen on a cubin of this file), so a walk must be bounded by the symbol.
uint64_t function_size(const cubin_image& c, const std::string& name) {
  const auto& b = c.bytes;
  if (b.size() < sizeof(Elf64_Ehdr) || std::memcmp(b.data(), ELFMAG, SELFMAG) != 0 || b[EI_CLASS] != ELFCLASS64) return 0;
  Elf64_Ehdr eh;
  std::memcpy(&eh, b.data(), sizeof eh);
  const auto section = [&](size_t i) {
    Elf64_Shdr sh{};
    const size_t at = eh.e_shoff + i * eh.e_shentsize;
    if (at + sizeof sh <= b.size()) std::memcpy(&sh, b.data() + at, sizeof sh);
    return sh;
  };
  for (size_t i = 0; i < eh.e_shnum; ++i) {
    const Elf64_Shdr sym = section(i);
    if (sym.sh_type != SHT_SYMTAB || sym.sh_entsize != sizeof(Elf64_Sym)) continue;
    const Elf64_Shdr str = section(sym.sh_link);
    for (size_t at = sym.sh_offset; at + sizeof(Elf64_Sym) <= sym.sh_offset + sym.sh_size && at + sizeof(Elf64_Sym) <= b.size();
         at += sizeof(Elf64_Sym)) {
      Elf64_Sym e;
      std::memcpy(&e, b.data() + at, sizeof e);
      const size_t name_at = str.sh_offset + e.st_name;
      if (name_at >= b.size()) continue;
      if (ELF64_ST_TYPE(e.st_info) == STT_FUNC && name == std::string(b.data() + name_at, strnlen(b.data() + name_at, b.size() - name_at)))
        return e.st_size;
    }
  }
  return 0;
}

/// The line table CUPTI's correlation gives for @p function: PC ranges (16-byte SASS instructions) and their
/// lines, over the function's size from the ELF symbol table. @return The PCs of each line.
std::map<unsigned, std::vector<uint64_t>> dump_line_table(const cubin_image& c, const std::string& function) {
  std::map<unsigned, std::vector<uint64_t>> pcs_of_line;
  std::string last;
  uint64_t start = 0;
  const uint64_t size = function_size(c, function);
  say("    %llu bytes of SASS (%llu instructions) by the ELF symbol table", (unsigned long long)size,
      (unsigned long long)size / 16);
  for (uint64_t pc = 0; pc < size; pc += 16) {
    const source_line s = correlate(c, function, pc);
    if (!s.ok) {
      say("    %s pc 0x%llx: %s", function.c_str(), (unsigned long long)pc, s.result.c_str());
      break;
    }
    const std::string here = s.file.empty() ? "(no line)" : s.file + ":" + std::to_string(s.line);
    if (!s.file.empty()) pcs_of_line[s.line].push_back(pc);
    if (here != last) {
      if (!last.empty()) say("    pc 0x%04llx-0x%04llx  %s", (unsigned long long)start, (unsigned long long)(pc - 16), last.c_str());
      last = here;
      start = pc;
    }
  }
  if (!last.empty()) say("    pc 0x%04llx-0x%04llx  %s", (unsigned long long)start, (unsigned long long)(size - 16), last.c_str());
  if (pcs_of_line.empty()) say("    %s: no line information (built without -lineinfo or -G?)", function.c_str());
  return pcs_of_line;
}

void CUPTIAPI activity_buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = 1 << 16;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}
void CUPTIAPI activity_buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t) { std::free(buffer); }

}  // namespace

int main(int argc, char** argv) {
  std::string cubin_path, source_path = __FILE__;
  int timeout_s = 170;
  bool line_table_only = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--line-table-only") line_table_only = true;
    else if (a == "--out" && i + 1 < argc) g_out = argv[++i];
    else if (a == "--cubin" && i + 1 < argc) cubin_path = argv[++i];
    else if (a == "--source" && i + 1 < argc) source_path = argv[++i];
    else if (a == "--timeout" && i + 1 < argc) timeout_s = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: %s [--out DIR] [--cubin FILE] [--source FILE] [--timeout S] [--line-table-only]\n", argv[0]);
      return 2;
    }
  }
  std::signal(SIGALRM, on_alarm);
  alarm(static_cast<unsigned>(timeout_s));
  setvbuf(stdout, nullptr, _IOLBF, 0);
  const auto run_start = clock_type::now();

  phase("versions");
  uint32_t cupti_version = 0;
  CUPTI_CALL(cuptiGetVersion(&cupti_version));
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  say("  CUPTI API version %u (header CUPTI_API_VERSION %d), CUDA driver %d, runtime %d", cupti_version, CUPTI_API_VERSION,
      driver, runtime);
  read_markers(source_path);

  // The line table of the --cubin file, with no GPU: cuptiGetSassToSourceCorrelation and cuptiGetCubinCrc
  // need none (checked on a machine without a driver).
  if (!cubin_path.empty()) {
    phase("line table of the --cubin file (CUPTI source correlation, no GPU needed)");
    std::ifstream f(cubin_path, std::ios::binary);
    if (!f) {
      say("  cannot read --cubin '%s'", cubin_path.c_str());
    } else {
      cubin_image c;
      c.origin = cubin_path;
      c.bytes.assign(std::istreambuf_iterator<char>(f), {});
      crc_of(c);
      g_cubins.push_back(std::move(c));
      const char* symbols[] = {"_Z8copy_f32PKfPf", "_Z10copy_f32x4PK6float4PS_", "_Z15gather_stride33PKfPf",
                               "_Z15transpose_16x16PKfPf", "_Z15guarded_4_of_32PKfPfS1_", "_Z15inlined_and_redPKfPfPj"};
      for (const char* sym : symbols) {
        say("  %s", sym);
        const auto pcs = dump_line_table(g_cubins.back(), sym);
        for (const auto& [marker, line] : g_marker_lines) {
          auto it = pcs.find(static_cast<unsigned>(line));
          if (it == pcs.end()) continue;
          std::string list;
          for (const auto pc : it->second) list += (list.empty() ? "" : " ") + std::to_string(pc);
          say("    marker [%s] line %d: PCs %s", marker.c_str(), line, list.c_str());
        }
      }
    }
    if (line_table_only) return 0;
  }

  phase("cubin capture: CUPTI resource callback (module loaded)");
  CUpti_SubscriberHandle subscriber = nullptr;
  const bool subscribed = CUPTI_CALL(cuptiSubscribe(&subscriber, on_resource, nullptr));
  if (subscribed) CUPTI_CALL(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED));
  else not_available("cuptiSubscribe: the module-loaded callback (cubins come from --cubin only)");

  phase("device and buffers");
  int count = 0;
  if (!CUDA_CALL(cudaGetDeviceCount(&count)) || count == 0) {
    not_available("a CUDA device: nothing can be measured");
    return 3;
  }
  CUDA_CALL(cudaSetDevice(g_device));
  CUDA_CALL(cudaFree(nullptr));
  {
    // The driver's cuCtxGetCurrent through the runtime: the probe does not link libcuda.so.1, so that its
    // line-table part runs on a machine without a driver.
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, CUDART_VERSION, cudaEnableDefault, &found) == cudaSuccess &&
        found == cudaDriverEntryPointSuccess && fn)
      reinterpret_cast<CUresult (*)(CUcontext*)>(fn)(&g_ctx);
    if (!g_ctx) {
      not_available("the current CUDA context (cuCtxGetCurrent through cudaGetDriverEntryPointByVersion)");
      return 3;
    }
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, g_device);
  say("  device 0: %s, cc %d.%d, %d SMs, L2 %d B, context %p", prop.name, prop.major, prop.minor, prop.multiProcessorCount,
      prop.l2CacheSize, static_cast<void*>(g_ctx));
  const char* loading = std::getenv("CUDA_MODULE_LOADING");
  say("  CUDA_MODULE_LOADING=%s", loading ? loading : "(unset: lazy by default)");

  const int n = n_elements;
  float *in = nullptr, *out = nullptr, *gather_in = nullptr, *strided = nullptr, *packed = nullptr;
  unsigned* counters = nullptr;
  bool alloc_ok = CUDA_CALL(cudaMalloc(&in, sizeof(float) * 2 * n)) && CUDA_CALL(cudaMalloc(&out, sizeof(float) * n)) &&
                  CUDA_CALL(cudaMalloc(&gather_in, sizeof(float) * 33 * size_t(n))) &&
                  CUDA_CALL(cudaMalloc(&strided, sizeof(float) * n)) && CUDA_CALL(cudaMalloc(&packed, sizeof(float) * n / 8)) &&
                  CUDA_CALL(cudaMalloc(&counters, sizeof(unsigned) * 32));
  if (!alloc_ok) return 3;
  cudaMemset(in, 0, sizeof(float) * 2 * n);
  cudaMemset(gather_in, 0, sizeof(float) * 33 * size_t(n));
  cudaMemset(counters, 0, sizeof(unsigned) * 32);
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);

  const double w = n / 32.0;  // warps (requests of one instruction executed by every warp once)
  std::vector<kernel_case> kernels;
  kernels.push_back({"copy_f32", "_Z8copy_f32PKfPf",
                     [=](cudaStream_t s) { copy_f32<<<n / threads_per_block, threads_per_block, 0, s>>>(in, out); },
                     {{"copy.load", "ld", w, 4, 4}, {"copy.store", "st", w, 4, 4}}});
  kernels.push_back({"copy_f32x4", "_Z10copy_f32x4PK6float4PS_",
                     [=](cudaStream_t s) {
                       copy_f32x4<<<n / 4 / threads_per_block, threads_per_block, 0, s>>>(
                           reinterpret_cast<const float4*>(in), reinterpret_cast<float4*>(out));
                     },
                     {{"copy4.load", "ld", w / 4, 16, 16}, {"copy4.store", "st", w / 4, 16, 16}}});
  kernels.push_back({"gather_stride33", "_Z15gather_stride33PKfPf",
                     [=](cudaStream_t s) { gather_stride33<<<n / threads_per_block, threads_per_block, 0, s>>>(gather_in, out); },
                     {{"gather.load", "ld", w, 32, 4}, {"gather.store", "st", w, 4, 4}}});
  kernels.push_back({"transpose_16x16", "_Z15transpose_16x16PKfPf",
                     [=](cudaStream_t s) {
                       transpose_16x16<<<dim3(tile_width / 16, tile_width / 16), dim3(16, 16), 0, s>>>(in, out);
                     },
                     {{"tile.load", "ld", w, 4, 4}, {"tile.store", "st", w, 16, 4}}});
  kernels.push_back({"guarded_4_of_32", "_Z15guarded_4_of_32PKfPfS1_",
                     [=](cudaStream_t s) {
                       guarded_4_of_32<<<n / threads_per_block, threads_per_block, 0, s>>>(in, packed, strided);
                     },
                     {{"guard.load", "ld", w, 4, 4}, {"guard.store_packed", "st", w, 1, 1}, {"guard.store_strided", "st", w, 4, 1}}});
  kernels.push_back({"inlined_and_red", "_Z15inlined_and_redPKfPfPj",
                     [=](cudaStream_t s) {
                       inlined_and_red<<<n / threads_per_block, threads_per_block, 0, s>>>(in, out, counters);
                     },
                     {{"inline.load", "ld", 2 * w, 4, 4}, {"inline.store", "st", w, 4, 4}, {"red.add", "red", w, 4, 4}}});

  phase("warm-up and plain timing (no CUPTI collection)");
  for (auto& k : kernels) {
    k.launch(stream);
    if (!CUDA_CALL(cudaStreamSynchronize(stream))) return 3;
    k.plain_ms = median_ms(k.launch, stream, 5);
    say("  %-18s %.4f ms (median of 5)", k.name, k.plain_ms);
  }
  say("  module-loaded callback fired: %s, %zu cubins captured", g_callback_fired ? "yes" : "no", g_cubins.size());

  phase("cubins and CUPTI's source correlation (cuptiGetSassToSourceCorrelation)");
  for (auto& c : g_cubins)
    if (!c.crc_ok) crc_of(c);
  for (auto& c : g_cubins) {
    const auto s = correlate(c, "_Z8copy_f32PKfPf", 0);
    say("  %s: copy_f32 pc 0 -> %s %s/%s:%u", c.origin.c_str(), s.result.c_str(), s.dir.c_str(), s.file.c_str(), s.line);
  }

  phase("SASS metrics: device support and the chip's metrics");
  CUpti_Profiler_Initialize_Params pinit{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  if (!CUPTI_CALL(cuptiProfilerInitialize(&pinit))) {
    not_available("cuptiProfilerInitialize: " + g_calls.back().result);
    return 3;
  }
  CUpti_Profiler_DeviceSupported_Params sup{CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
  sup.cuDevice = g_device;
  sup.api = CUPTI_PROFILER_SASS_METRICS;
  if (CUPTI_CALL(cuptiProfilerDeviceSupported(&sup)))
    say("  api SASS_METRICS: isSupported %d (3 = supported), architecture %d, sli %d, vGpu %d, confidentialCompute %d, "
        "cmp %d, wsl %d",
        sup.isSupported, sup.architecture, sup.sli, sup.vGpu, sup.confidentialCompute, sup.cmp, sup.wsl);
  if (sup.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) not_available("SASS metrics on this device (cuptiProfilerDeviceSupported)");
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = static_cast<size_t>(g_device);
  CUPTI_CALL(cuptiDeviceGetChipName(&chip));
  const std::string chip_name = chip.pChipName ? chip.pChipName : "";
  // What later phases learn, and the JSON record of it: written after the per-kernel phases and again at
  // the end, so that a crash in a later phase (the range profiler, the activity API) keeps what came before.
  std::ostringstream json_pitfalls, json_range;
  range_session rs;
  std::string coexist_enabled = "not tried", coexist_disabled = "not tried", range_after = "not tried";
  std::string with_activity = "not tried";
  const auto write_json = [&]() {
    std::ofstream json(g_out + "/sass-lines.json");
    json << "{\n  \"schema\": \"rooflint-probe-sass-lines\",\n  \"cupti_api_version\": " << cupti_version
         << ", \"header_api_version\": " << CUPTI_API_VERSION << ", \"driver\": " << driver << ", \"runtime\": " << runtime
         << ",\n  \"device\": " << q(prop.name) << ", \"chip\": " << q(chip_name) << ",\n  \"markers\": {";
    bool first = true;
    for (const auto& [m, l] : g_marker_lines) {
      json << (first ? "" : ", ") << q(m) << ": " << l;
      first = false;
    }
    json << "},\n  \"metrics_configured\": [";
    first = true;
    for (const auto& m : g_chosen) {
      json << (first ? "" : ", ") << "{\"name\": " << q(m.name) << ", \"id\": " << m.id << "}";
      first = false;
    }
    json << "],\n  \"cubins\": [";
    first = true;
    for (const auto& c : g_cubins) {
      json << (first ? "" : ", ") << "{\"origin\": " << q(c.origin) << ", \"bytes\": " << c.bytes.size() << ", \"crc\": " << c.crc
           << "}";
      first = false;
    }
    json << "],\n  \"kernels\": [\n" << g_json_kernels.str() << "\n  ],\n  \"pitfalls\": {" << json_pitfalls.str()
         << "},\n  \"range_profiler_totals\": {\"metrics\": [";
    for (size_t i = 0; i < rs.metrics.size(); ++i) json << (i ? ", " : "") << q(rs.metrics[i]);
    json << "],\n    " << json_range.str() << "},\n  \"coexistence\": {\"sass_with_range_profiler_enabled\": " << q(coexist_enabled)
         << ", \"sass_after_range_profiler_disabled\": " << q(coexist_disabled)
         << ", \"range_profiler_after_sass\": " << q(range_after) << ", \"sass_with_activity_api\": " << q(with_activity)
         << "},\n  \"calls\": [";
    first = true;
    for (const auto& c : g_calls) {
      json << (first ? "\n" : ",\n") << "    {\"call\": " << q(c.call) << ", \"result\": " << q(c.result) << ", \"ms\": " << num(c.ms)
           << "}";
      first = false;
    }
    json << "],\n  \"pass\": " << g_pass << ", \"fail\": " << g_fail << ", \"not_available\": " << g_not_available << "\n}\n";
    say("  wrote %s/sass-lines.json", g_out.c_str());
  };
  say("  chip %s", chip_name.c_str());

  CUpti_SassMetrics_GetNumOfMetrics_Params nm{CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE};
  nm.pChipName = chip_name.c_str();
  if (!CUPTI_CALL(cuptiSassMetricsGetNumOfMetrics(&nm))) {
    not_available("cuptiSassMetricsGetNumOfMetrics: " + g_calls.back().result);
    return 3;
  }
  std::vector<CUpti_SassMetrics_MetricDetails> details(nm.numOfMetrics);
  CUpti_SassMetrics_GetMetrics_Params gm{CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE};
  gm.pChipName = chip_name.c_str();
  gm.numOfMetrics = nm.numOfMetrics;
  gm.pMetricsList = details.data();
  if (!CUPTI_CALL(cuptiSassMetricsGetMetrics(&gm))) return 3;
  {
    std::ofstream tsv(g_out + "/sass-metrics.tsv");
    tsv << "id\tname\tdescription\n";
    for (const auto& d : details) {
      metric m{d.pMetricName ? d.pMetricName : "", d.metricId, d.pMetricDescription ? d.pMetricDescription : ""};
      tsv << m.id << '\t' << m.name << '\t' << m.description << '\n';
      g_all_metrics.push_back(m);
    }
  }
  say("  %zu SASS metrics on %s (all in %s/sass-metrics.tsv); those about global memory, sectors, data bytes, widths "
      "and thread counts:",
      g_all_metrics.size(), chip_name.c_str(), g_out.c_str());
  for (const auto& m : g_all_metrics) {
    const bool relevant = m.name.find("global") != std::string::npos || m.name.find("sector") != std::string::npos ||
                          m.name.find("data_bytes") != std::string::npos || m.name.find("memory") != std::string::npos ||
                          m.name.find("ideal") != std::string::npos || m.name == "smsp__sass_inst_executed" ||
                          m.name.rfind("smsp__sass_thread_inst_executed", 0) == 0;
    if (relevant) say("    %-62s id %-20llu %s", m.name.c_str(), (unsigned long long)m.id, m.description.c_str());
  }

  // The metrics to configure: the required ones, then those that give the ideal and cross-checks.
  std::vector<std::string> wanted = {"smsp__sass_inst_executed_op_global_ld", "smsp__sass_inst_executed_op_global_st",
                                     "smsp__sass_inst_executed_op_global_atom", "smsp__sass_inst_executed_op_global_red",
                                     "smsp__sass_sectors_mem_global"};
  const size_t required = 3;  // ld, st requests and the sectors (indices 0, 1, 4)
  std::vector<std::string> optional = {"smsp__sass_data_bytes_mem_global_op_ld", "smsp__sass_data_bytes_mem_global_op_st",
                                       "smsp__sass_data_bytes_mem_global_op_atom", "smsp__sass_data_bytes_mem_global_op_red",
                                       "smsp__sass_thread_inst_executed_op_memory_pred_on", "smsp__sass_thread_inst_executed_pred_on",
                                       "smsp__sass_thread_inst_executed", "smsp__sass_inst_executed",
                                       "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld",
                                       "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st",
                                       "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_red"};
  for (const auto& w2 : width_metrics) optional.push_back(w2[0]);
  (void)required;
  std::vector<metric> core, extra;
  for (const auto& name : wanted) {
    CUpti_SassMetrics_GetProperties_Params gp{CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
    gp.pChipName = chip_name.c_str();
    gp.pMetricName = name.c_str();
    if (CUPTI_CALL(cuptiSassMetricsGetProperties(&gp))) core.push_back({name, gp.metric.metricId, ""});
    else not_available("SASS metric '" + name + "' on " + chip_name);
  }
  for (const auto& name : optional) {
    const bool listed = std::any_of(g_all_metrics.begin(), g_all_metrics.end(), [&](const metric& m) { return m.name == name; });
    if (!listed) {
      say("  not offered (optional): %s", name.c_str());
      continue;
    }
    CUpti_SassMetrics_GetProperties_Params gp{CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
    gp.pChipName = chip_name.c_str();
    gp.pMetricName = name.c_str();
    if (CUPTI_CALL(cuptiSassMetricsGetProperties(&gp))) extra.push_back({name, gp.metric.metricId, ""});
  }

  phase("SASS metrics: configuration");
  g_chosen = core;
  g_chosen.insert(g_chosen.end(), extra.begin(), extra.end());
  bool configured = set_sass_config(g_chosen);
  if (!configured) {
    say("  the full set (%zu metrics) was refused; trying the required ones alone", g_chosen.size());
    g_chosen = core;
    configured = set_sass_config(g_chosen);
  }
  if (!configured) {
    not_available("cuptiSassMetricsSetConfig for the global memory metrics");
    return 3;
  }
  for (const auto& m : g_chosen) g_name_of[m.id] = m.name;
  say("  configured %zu metrics at GPU granularity", g_chosen.size());

  for (auto& k : kernels) {
    const std::string title = std::string("kernel ") + k.name + " (its own window, lazy patching)";
    phase(title.c_str());
    std::vector<pc_record> recs;
    const window_cost wc = collect(k.launch, recs, true, stream);
    if (!wc.ok) {
      ++g_fail;
      say("  FAIL: no per-instruction data for %s: %s", k.name, wc.failure.c_str());
      continue;
    }
    bool symbol_seen = std::any_of(recs.begin(), recs.end(), [&](const pc_record& r) { return r.function == k.symbol; });
    if (!symbol_seen && !recs.empty()) say("  note: the records name '%s', not '%s'", recs.front().function.c_str(), k.symbol);
    report_kernel(k, recs, wc);
  }

  // --- Whether a fresh configuration (unset, then set again) opens a new collection per kernel --------
  phase("pitfall: the configuration unset and set again before each kernel");
  {
    int with_records = 0, tried = 0;
    for (auto& k : kernels) {
      ++tried;
      if (!unset_sass_config() || !set_sass_config(g_chosen)) {
        say("  %s: reconfiguring failed: %s", k.name, g_calls.back().result.c_str());
        continue;
      }
      std::vector<pc_record> recs;
      const window_cost wc = collect(k.launch, recs, true, stream);
      const bool mine = std::any_of(recs.begin(), recs.end(), [&](const pc_record& r) { return r.function == k.symbol; });
      if (wc.ok && mine) ++with_records;
      say("  %-18s reconfigured: %zu records%s", k.name, recs.size(), mine ? " of its own" : "");
    }
    say("  reconfigured per kernel: %d of %d kernels gave their own records", with_records, tried);
    json_pitfalls << "\"reconfigured_per_kernel\": {\"with_records\": " << with_records << ", \"kernels\": " << tried
                  << "},\n    ";  // the next pitfall follows
  }

  // --- What happens with two launches in one window, and with eager patching -------------------------
  phase("pitfall: the same kernel launched twice in one window");
  {
    std::vector<pc_record> recs;
    const auto wc = collect([&](cudaStream_t s) { kernels[0].launch(s); kernels[0].launch(s); }, recs, true, stream);
    double req = 0;
    for (const auto& r : recs) req += r.v("smsp__sass_inst_executed_op_global_ld");
    say("  copy_f32 twice: %zu records, load requests %.0f (one launch: %.0f; twice: %.0f)", recs.size(), req, w, 2 * w);
    json_pitfalls << "\"same_kernel_twice\": {\"ok\": " << (wc.ok ? "true" : "false") << ", \"load_requests\": " << num(req)
                  << ", \"one_launch\": " << num(w) << "}";
  }
  phase("pitfall: two different kernels in one window");
  {
    std::vector<pc_record> recs;
    const auto wc = collect([&](cudaStream_t s) { kernels[0].launch(s); kernels[2].launch(s); }, recs, true, stream);
    std::set<std::string> fns;
    for (const auto& r : recs) fns.insert(r.function);
    std::string list;
    for (const auto& f : fns) list += (list.empty() ? "" : ", ") + f;
    say("  copy_f32 then gather_stride33: records of: %s", list.empty() ? "(none)" : list.c_str());
    json_pitfalls << ",\n    \"two_kernels\": {\"ok\": " << (wc.ok ? "true" : "false") << ", \"functions\": " << q(list) << "}";
  }
  phase("pitfall: eager patching (enableLazyPatching = 0) for one kernel");
  {
    std::vector<pc_record> recs;
    const auto wc = collect(kernels[2].launch, recs, false, stream);
    double req = 0;
    for (const auto& r : recs)
      if (r.function == kernels[2].symbol) req += r.v("smsp__sass_inst_executed_op_global_ld");
    std::set<std::string> fns;
    for (const auto& r : recs) fns.insert(r.function);
    say("  gather_stride33, eager: %zu records over %zu functions, its load requests %.0f; enable %.3f ms, launch %.3f ms",
        recs.size(), fns.size(), req, wc.enable_ms, wc.launch_sync_ms);
    json_pitfalls << ",\n    \"eager_patching\": {\"ok\": " << (wc.ok ? "true" : "false") << ", \"records\": " << recs.size()
                  << ", \"functions\": " << fns.size() << ", \"enable_ms\": " << num(wc.enable_ms)
                  << ", \"launch_sync_ms\": " << num(wc.launch_sync_ms) << "}";
  }
  phase("pitfall: the same kernel collected again in a new window (a second case of one kernel)");
  {
    std::vector<pc_record> recs;
    const auto wc = collect(kernels[0].launch, recs, true, stream);
    double req = 0;
    for (const auto& r : recs) req += r.v("smsp__sass_inst_executed_op_global_ld");
    say("  copy_f32 again: %s, load requests %.0f (expected %.0f), launch %.3f ms", wc.ok ? "ok" : wc.failure.c_str(), req, w,
        wc.launch_sync_ms);
    json_pitfalls << ",\n    \"second_window_same_kernel\": {\"ok\": " << (wc.ok ? "true" : "false")
                  << ", \"load_requests\": " << num(req) << "}";
  }
  phase("after the SASS windows: plain timing again (is the patch gone?)");
  for (auto& k : kernels) {
    const double again = median_ms(k.launch, stream, 5);
    say("  %-18s %.4f ms (before any window: %.4f ms)", k.name, again, k.plain_ms);
  }
  unset_sass_config();
  write_json();

  // --- The range profiler beside the SASS metrics ---------------------------------------------------
  phase("range profiler: per-kernel totals of the same quantities (kernel replay)");
  rs.metrics = {"smsp__sass_inst_executed_op_global_ld.sum", "smsp__sass_inst_executed_op_global_st.sum",
                "smsp__sass_sectors_mem_global.sum", "smsp__sass_data_bytes_mem_global_op_ld.sum",
                "smsp__sass_data_bytes_mem_global_op_st.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
                "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"};
  bool range_ok = range_enable(rs, chip_name.c_str());
  if (!range_ok) not_available("the range profiler with these metrics: " + g_calls.back().result);
  for (auto& k : kernels) {
    if (!range_ok) break;
    std::vector<double> v;
    if (!range_collect(rs, k.launch, v)) {
      say("  %s: no totals", k.name);
      continue;
    }
    std::string row;
    for (size_t i = 0; i < v.size(); ++i) {
      char b[160];
      std::snprintf(b, sizeof b, "%s%s %.0f", i ? ", " : "", rs.metrics[i].c_str(), v[i]);
      row += b;
    }
    say("  %s: %s", k.name, row.c_str());
    json_range << (json_range.tellp() > 0 ? ",\n    " : "") << q(k.name) << ": [";
    for (size_t i = 0; i < v.size(); ++i) json_range << (i ? ", " : "") << num(v[i]);
    json_range << "]";
  }

  phase("coexistence: SASS metrics while the range profiler is enabled (not started)");
  if (range_ok) {
    if (set_sass_config(g_chosen)) {
      std::vector<pc_record> recs;
      const auto wc = collect(kernels[0].launch, recs, true, stream);
      double req = 0;
      for (const auto& r : recs) req += r.v("smsp__sass_inst_executed_op_global_ld");
      coexist_enabled = wc.ok ? "works: load requests " + num(req) : "fails: " + wc.failure;
      unset_sass_config();
    } else {
      coexist_enabled = "fails: cuptiSassMetricsSetConfig " + g_calls.back().result;
    }
    say("  with the range profiler enabled: %s", coexist_enabled.c_str());
  }
  range_disable(rs);
  phase("coexistence: SASS metrics after cuptiRangeProfilerDisable");
  if (set_sass_config(g_chosen)) {
    std::vector<pc_record> recs;
    const auto wc = collect(kernels[0].launch, recs, true, stream);
    double req = 0;
    for (const auto& r : recs) req += r.v("smsp__sass_inst_executed_op_global_ld");
    coexist_disabled = wc.ok ? "works: load requests " + num(req) : "fails: " + wc.failure;
    unset_sass_config();
  } else {
    coexist_disabled = "fails: cuptiSassMetricsSetConfig " + g_calls.back().result;
  }
  say("  after the range profiler was disabled: %s", coexist_disabled.c_str());
  phase("coexistence: the range profiler again after the SASS config was unset");
  {
    range_session again;
    again.metrics = {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"};
    std::vector<double> v;
    if (range_enable(again, chip_name.c_str()) && range_collect(again, kernels[0].launch, v))
      range_after = "works: copy_f32 L1 load sectors " + num(v[0]);
    else
      range_after = "fails: " + g_calls.back().result;
    range_disable(again);
    say("  %s", range_after.c_str());
  }

  // --- The activity API (last: it is the step most likely to leave CUPTI in a bad state) ------------
  phase("coexistence: SASS metrics with the activity API enabled (expected to be refused)");
  if (CUPTI_CALL(cuptiActivityRegisterCallbacks(activity_buffer_requested, activity_buffer_completed)) &&
      CUPTI_CALL(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL))) {
    if (set_sass_config(g_chosen)) {
      std::vector<pc_record> recs;
      const auto wc = collect(kernels[0].launch, recs, true, stream);
      with_activity = wc.ok ? "works (records: " + std::to_string(recs.size()) + ")" : "fails: " + wc.failure;
      unset_sass_config();
    } else {
      with_activity = "fails at cuptiSassMetricsSetConfig: " + g_calls.back().result;
    }
    CUPTI_CALL(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    CUPTI_CALL(cuptiActivityFlushAll(1));
  }
  say("  with the activity API: %s", with_activity.c_str());
  alarm(0);

  phase("summary");
  say("  per-line checks: %d PASS, %d FAIL; %d NOT AVAILABLE lines; run %.1f s", g_pass, g_fail, g_not_available,
      ms_since(run_start) / 1000.0);
  write_json();

  if (subscribed) CUPTI_CALL(cuptiUnsubscribe(subscriber));
  return g_fail == 0 ? 0 : 1;
}
