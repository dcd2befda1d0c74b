#pragma once
/// @file manifest_tables.h
/// The manifest's field tables (record.h) and the names of its enums: the writer, the reader and the
/// tests walk these, so a field of the manifest is one line here. Keys are the JSON keys of
/// docs/manifest-schema.md; `since` is the version that added a field.

#include <array>
#include <string_view>
#include <tuple>
#include <utility>

#include "rooflint/files/manifest.h"
#include "rooflint/files/model_names.h"
#include "rooflint/files/record.h"

namespace rooflint::files {

// clang-format off
template <> struct enum_names<dsl::role> {
  static constexpr auto names = detail::names_by_value<dsl::role, 4>();
};
template <> struct enum_names<dsl::index_distribution> {
  static constexpr auto names = detail::names_by_value<dsl::index_distribution, 3>();
};
template <> struct enum_names<dsl::size_source> {
  static constexpr auto names = detail::names_by_value<dsl::size_source, 3>();
};
template <> struct enum_names<dsl::binding_kind> {
  static constexpr auto names = detail::names_by_value<dsl::binding_kind, 3>();
};
template <> struct enum_names<dsl::size_op> {
  static constexpr auto names = detail::names_by_value<dsl::size_op, 4>();
};
template <> struct enum_names<diagnostics::level> {
  static constexpr auto names = detail::names_by_value<diagnostics::level, 4>();
};
template <> struct enum_names<dsl::expected_bound> {
  static constexpr std::array<std::pair<dsl::expected_bound, std::string_view>, 3> names{{
      {dsl::expected_bound::any, "any"}, {dsl::expected_bound::memory, "memory"}, {dsl::expected_bound::compute, "compute"}}};
};
template <> struct enum_names<dsl::kernel_match> {
  static constexpr std::array<std::pair<dsl::kernel_match, std::string_view>, 2> names{{
      {dsl::kernel_match::function, "function"}, {dsl::kernel_match::library, "library"}}};
};
template <> struct enum_names<manifest::param_kind> {
  static constexpr std::array<std::pair<manifest::param_kind, std::string_view>, 7> names{{
      {manifest::param_kind::integer, "integer"}, {manifest::param_kind::boolean, "bool"},
      {manifest::param_kind::pointer, "pointer"}, {manifest::param_kind::floating, "floating"},
      {manifest::param_kind::enumeration, "enum"}, {manifest::param_kind::record, "record"},
      {manifest::param_kind::other, "other"}}};
};
template <> struct enum_names<manifest::entry_kind> {
  static constexpr std::array<std::pair<manifest::entry_kind, std::string_view>, 2> names{{
      {manifest::entry_kind::kernel, "kernel"}, {manifest::entry_kind::region, "region"}}};
};
template <> struct enum_names<manifest::prediction_kind> {
  static constexpr std::array<std::pair<manifest::prediction_kind, std::string_view>, 3> names{{
      {manifest::prediction_kind::value, "value"}, {manifest::prediction_kind::range, "range"},
      {manifest::prediction_kind::not_predicted, "not_predicted"}}};
};

/// The operation kind is written as its index in dsl::op_kind (matmul 0 ... custom 10).
template <class Enum> struct enum_ordinal;
template <> struct enum_ordinal<dsl::op_kind> { static constexpr int count = 11; };

// Ranges a hostile file is held to: counts and byte sizes of real kernels, with room to spare.
inline constexpr field_rules index_rules{.min = -1, .max = 1 << 20};
inline constexpr field_rules line_rules{.min = 0, .max = 1e9};
inline constexpr field_rules size_rules{.min = 0, .max = 1e18};          // a dimension's size, 0 = none
inline constexpr field_rules nonnegative{.min = 0};
inline constexpr field_rules bytes_rules{.min = 0, .max = 1 << 20};       // a parameter's size, alignment, offset

template <> struct table<manifest::position> {
  static constexpr auto fields = std::tuple{
      field{"file", &manifest::position::file},
      field{"line", &manifest::position::line, line_rules},
      field{"column", &manifest::position::column, line_rules},
  };
};

template <> struct table<manifest::peaks_used> {
  static constexpr auto fields = std::tuple{
      field{"device", &manifest::peaks_used::device},
      field{"source", &manifest::peaks_used::source},
      field{"dram_bytes_per_s", &manifest::peaks_used::dram_bytes_per_s, nonnegative},
      field{"flops_per_s", &manifest::peaks_used::flops_per_s},
  };
};

template <> struct table<manifest::kernel_peaks> {
  static constexpr auto fields = std::tuple{
      field{"device", &manifest::kernel_peaks::device},
      field{"source", &manifest::kernel_peaks::source},
      field{"dram_bytes_per_s", &manifest::kernel_peaks::dram_bytes_per_s, nonnegative},
      field{"flops_per_s", &manifest::kernel_peaks::flops_per_s, nonnegative},
  };
};

template <> struct table<manifest::parameter> {
  static constexpr auto fields = std::tuple{
      field{"index", &manifest::parameter::index, index_rules},
      field{"name", &manifest::parameter::name},
      field{"type", &manifest::parameter::type},
      field{"kind", &manifest::parameter::kind},
      field{"signed", &manifest::parameter::is_signed},
      field{"size_bytes", &manifest::parameter::size_bytes, bytes_rules},
      field{"align_bytes", &manifest::parameter::align_bytes, bytes_rules},
      field{"offset_bytes", &manifest::parameter::offset_bytes, bytes_rules},
  };
};

template <> struct table<manifest::convention> {
  static constexpr auto fields = std::tuple{
      field{"name", &manifest::convention::name},
      field{"count_elementwise", &manifest::convention::count_elementwise},
      field{"halve_causal", &manifest::convention::halve_causal},
  };
};

template <> struct table<manifest::dim_sizes> {
  static constexpr auto fields = std::tuple{
      field{"name", &manifest::dim_sizes::name},
      field{"static_size", &manifest::dim_sizes::static_size, size_rules},
      field{"declared_size", &manifest::dim_sizes::declared_size, size_rules},
      field{"size", &manifest::dim_sizes::size, size_rules},
  };
};

// A tensor the spec does not count has no dtype, shape or elements in versions 1 to 4.
inline constexpr field_rules uncounted_absent{.since = 5};
template <> struct table<manifest::tensor_summary> {
  static constexpr auto fields = std::tuple{
      field{"name", &manifest::tensor_summary::name},
      field{"arg", &manifest::tensor_summary::arg, index_rules},
      field{"role", &manifest::tensor_summary::role},
      field{"dtype", &manifest::tensor_summary::dtype, uncounted_absent},
      field{"shape", &manifest::tensor_summary::shape, uncounted_absent},
      field{"elements", &manifest::tensor_summary::elements, uncounted_absent},
      field{"partial", &manifest::tensor_summary::partial, uncounted_absent},
      field{"extra", &manifest::tensor_summary::extra, uncounted_absent},
  };
};

template <> struct table<manifest::formulas> {
  static constexpr auto fields = std::tuple{
      field{"flops", &manifest::formulas::flops},
      field{"read_bytes", &manifest::formulas::read_bytes},
      field{"written_bytes", &manifest::formulas::written_bytes},
      field{"bytes", &manifest::formulas::bytes},
      field{"intensity", &manifest::formulas::intensity},
  };
};

template <> struct table<manifest::expectations> {
  static constexpr auto fields = std::tuple{
      field{"bound", &manifest::expectations::bound, field_rules{.empty_name = "any"}},
      field{"max_traffic_ratio", &manifest::expectations::max_traffic_ratio, nonnegative},
      field{"min_roofline_fraction", &manifest::expectations::min_roofline_fraction, field_rules{.min = 0, .max = 1}},
  };
};

template <> struct table<manifest::values> {
  static constexpr auto fields = std::tuple{
      field{"flops", &manifest::values::flops, nonnegative},
      field{"read_bytes", &manifest::values::read_bytes, nonnegative},
      field{"written_bytes", &manifest::values::written_bytes, nonnegative},
      field{"bytes", &manifest::values::bytes, nonnegative},
      field{"intensity", &manifest::values::intensity, nonnegative},
  };
};

template <> struct table<manifest::verdict> {
  static constexpr auto fields = std::tuple{
      field{"bound", &manifest::verdict::bound},
      field{"intensity", &manifest::verdict::intensity, nonnegative},
      field{"ridge", &manifest::verdict::ridge, nonnegative},
      field{"compute_time_s", &manifest::verdict::compute_time_s, nonnegative},
      field{"memory_time_s", &manifest::verdict::memory_time_s, nonnegative},
      field{"t_min_s", &manifest::verdict::t_min_s, nonnegative},
      field{"sentence", &manifest::verdict::sentence},
  };
};

template <> struct table<manifest::verdict_change> {
  static constexpr auto fields = std::tuple{
      field{"dims", &manifest::verdict_change::dim},
      field{"size", &manifest::verdict_change::size, nonnegative},
      field{"bound_from", &manifest::verdict_change::bound_from},
  };
};

template <> struct table<manifest::region_member> {
  static constexpr auto fields = std::tuple{
      field{"match", &manifest::region_member::match},
      // A library kernel has only its pattern; a function its symbol, place and parameters.
      field{"pattern", &manifest::region_member::pattern, field_rules{.optional = true}},
      field{"function", &manifest::region_member::function, field_rules{.optional = true}},
      field{"mangled_name", &manifest::region_member::mangled_name, field_rules{.optional = true}},
      field{"location", &manifest::region_member::location, field_rules{.optional = true}},
      field{"parameters", &manifest::region_member::parameters, field_rules{.optional = true, .most = 4096}},
  };
};

template <> struct table<manifest::region> {
  static constexpr auto fields = std::tuple{
      field{"kernels", &manifest::region::kernels, field_rules{.most = dsl::max_region_kernels}},
  };
};

template <> struct table<manifest::level_prediction> {
  static constexpr auto fields = std::tuple{
      field{"tensor", &manifest::level_prediction::tensor},
      field{"param", &manifest::level_prediction::param, index_rules},
      field{"level", &manifest::level_prediction::level},
      field{"kind", &manifest::level_prediction::kind},
      field{"ratio", &manifest::level_prediction::ratio, nonnegative},
      field{"low", &manifest::level_prediction::low, nonnegative},
      field{"high", &manifest::level_prediction::high, nonnegative},
      field{"basis", &manifest::level_prediction::basis},
      field{"sized", &manifest::level_prediction::sized},
  };
};

template <> struct table<manifest::access> {
  static constexpr auto fields = std::tuple{
      field{"file", &manifest::access::file},
      field{"line", &manifest::access::line, line_rules},
      field{"column", &manifest::access::column, line_rules},
      field{"tensor", &manifest::access::tensor},
      field{"param", &manifest::access::param, index_rules},
      field{"store", &manifest::access::store},
      field{"atomic", &manifest::access::atomic},
      field{"requests", &manifest::access::requests, nonnegative},
      field{"sectors_per_request", &manifest::access::sectors_per_request, nonnegative},
      field{"ideal_sectors_per_request", &manifest::access::ideal_sectors_per_request, nonnegative},
      field{"amplification", &manifest::access::amplification, nonnegative},
      field{"note", &manifest::access::note},
  };
};

inline constexpr field_rules launch_extent{.min = 1, .max = 1ll << 31};
template <> struct table<manifest::launch_assumption> {
  static constexpr auto fields = std::tuple{
      field{"block", &manifest::launch_assumption::block, launch_extent},
      field{"grid", &manifest::launch_assumption::grid, launch_extent},
      field{"stated", &manifest::launch_assumption::stated},
      field{"text", &manifest::launch_assumption::text},
      field{"dynamic_shared", &manifest::launch_assumption::dynamic_shared, field_rules{.optional = true, .min = 0, .max = 1ll << 31}},
      field{"registers", &manifest::launch_assumption::registers, field_rules{.optional = true, .min = 1, .max = 255}},
      field{"blocks_per_sm", &manifest::launch_assumption::blocks_per_sm, field_rules{.optional = true, .min = 1, .max = 1024}},
  };
};

template <> struct table<manifest::predicted_traffic> {
  static constexpr auto fields = std::tuple{
      field{"source", &manifest::predicted_traffic::source},
      field{"launch", &manifest::predicted_traffic::launch},
      field{"gpu", &manifest::predicted_traffic::gpu},
      field{"note", &manifest::predicted_traffic::note},
      field{"tensors", &manifest::predicted_traffic::levels},
      field{"accesses", &manifest::predicted_traffic::accesses},
  };
};

// ---------------------------------------------------------------------------------------------------
// The spec as data ("spec_value", and the kernel's "launch"): the spec language's own records

inline constexpr field_rules multiplier_rules{.min = 1, .max = 1ll << 40};
inline constexpr field_rules small_index{.min = -1, .max = 127};

template <> struct table<dsl::dim_info> {
  static constexpr auto fields = std::tuple{
      field{"name", &dsl::dim_info::name},
      field{"static_size", &dsl::dim_info::static_size, size_rules},
      field{"declared_size", &dsl::dim_info::declared_size, size_rules},
  };
};

template <> struct table<dsl::tensor_info> {
  static constexpr auto fields = std::tuple{
      field{"name", &dsl::tensor_info::name},
      field{"dtype", &dsl::tensor_info::dtype},
      field{"access", &dsl::tensor_info::access},
      field{"arg", &dsl::tensor_info::arg, small_index},
      field{"shape", [](auto& t) { return counted_ref{t.shape, t.rank}; }, field_rules{.min = 0, .max = dsl::max_dims - 1}},
      field{"elements", &dsl::tensor_info::elements},
      field{"partial", &dsl::tensor_info::partial},
      // operation::with(), newer than the first manifests of version 2: absent means false.
      field{"extra", &dsl::tensor_info::extra, field_rules{.optional = true}},
      // tensor_ref::indices(), newer than the first manifests of version 5: absent means unstated.
      field{"indices", &dsl::tensor_info::indices, field_rules{.optional = true}},
      field{"index_bound", &dsl::tensor_info::index_bound, field_rules{.optional = true, .min = -1, .max = dsl::max_dims - 1}},
  };
};

template <> struct table<dsl::derived_dim> {
  static constexpr auto fields = std::tuple{
      field{"name", &dsl::derived_dim::name},
      field{"source", &dsl::derived_dim::source},
      field{"window", &dsl::derived_dim::window},
      field{"stride", &dsl::derived_dim::stride, multiplier_rules},
      field{"padding", &dsl::derived_dim::padding, field_rules{.min = 0, .max = 1ll << 40}},
      field{"dilation", &dsl::derived_dim::dilation, multiplier_rules},
  };
};

template <> struct table<dsl::size_constraint> {
  static constexpr auto fields = std::tuple{
      field{"lhs", &dsl::size_constraint::lhs},
      field{"factor", &dsl::size_constraint::factor, multiplier_rules},
      field{"rhs", &dsl::size_constraint::rhs},
  };
};

// The stated precision (operation::precision()), newer than the first manifests of version 2.
inline constexpr field_rules precision_rules{.optional = true};
template <> struct table<dsl::op_info> {
  static constexpr auto fields = std::tuple{
      field{"kind", &dsl::op_info::kind},
      field{"name", &dsl::op_info::name},
      field{"flops", &dsl::op_info::flops},
      field{"zero_under_torch", &dsl::op_info::zero_under_torch},
      field{"causal", &dsl::op_info::causal},
      field{"derived", [](auto& o) { return counted_ref{o.derived, o.derived_count}; }},
      field{"constraints", [](auto& o) { return counted_ref{o.constraints, o.constraint_count}; }},
      field{"precision_stated", &dsl::op_info::precision_stated, precision_rules},
      field{"compute", &dsl::op_info::compute, precision_rules},
      field{"accumulate", &dsl::op_info::accumulate, precision_rules},
  };
};

template <> struct table<dsl::size_term> {
  static constexpr auto fields = std::tuple{
      field{"name", &dsl::size_term::name},
      field{"op", &dsl::size_term::op},
      field{"lhs", &dsl::size_term::lhs},
      field{"rhs", &dsl::size_term::rhs},
  };
};

template <> struct table<dsl::region_kernel> {
  static constexpr auto fields = std::tuple{
      field{"match", &dsl::region_kernel::match},
      field{"pattern", &dsl::region_kernel::pattern},
  };
};

template <> struct table<dsl::launch_size> {
  static constexpr auto fields = std::tuple{
      field{"dim", &dsl::launch_size::dim},
      field{"source", &dsl::launch_size::source},
      field{"index", &dsl::launch_size::index, small_index},
      field{"multiplier", &dsl::launch_size::multiplier, multiplier_rules},
      field{"divisor", &dsl::launch_size::divisor, multiplier_rules},
      field{"site", &dsl::launch_size::site, field_rules{.min = 0, .max = dsl::max_region_kernels - 1}},
      field{"power_of_two", &dsl::launch_size::power_of_two, field_rules{.since = 6}},
  };
};

/// A kernel's "launch": null when the spec reads no size from launches.
template <> struct table<dsl::launch_binding> {
  static constexpr bool is_null(const dsl::launch_binding& l) { return l.kind == dsl::binding_kind::none; }
  static constexpr auto fields = std::tuple{
      field{"kind", &dsl::launch_binding::kind},
      field{"sizes", [](auto& l) { return counted_ref{l.sizes, l.size_count}; }},
  };
};

template <> struct table<dsl::spec> {
  static constexpr auto fields = std::tuple{
      field{"region_kernels", [](auto& s) { return counted_ref{s.region.kernels, s.region.kernel_count}; },
            field_rules{.since = 3}},
      field{"kernel_name", &dsl::spec::kernel_name},
      field{"op", &dsl::spec::op},
      field{"dims", [](auto& s) { return counted_ref{s.dims, s.dim_count}; }},
      // min, max and ceil_div sizes, newer than the first manifests of version 2: absent means none.
      field{"size_terms", [](auto& s) { return counted_ref{s.size_terms.terms, s.size_terms.count}; },
            field_rules{.optional = true}},
      field{"tensors", [](auto& s) { return counted_ref{s.tensors, s.tensor_count}; }},
      field{"count_elementwise", [](auto& s) -> auto& { return s.convention.count_elementwise; }},
      field{"halve_causal", [](auto& s) -> auto& { return s.convention.halve_causal; }},
      field{"math_mode", &dsl::spec::mode},
      field{"mode_chosen", &dsl::spec::mode_chosen, field_rules{.since = 5}},
      field{"expected_bound", [](auto& s) -> auto& { return s.expected.bound; }},
      field{"max_traffic_ratio", [](auto& s) -> auto& { return s.expected.max_traffic_ratio; }, nonnegative},
      field{"min_roofline_fraction", [](auto& s) -> auto& { return s.expected.min_roofline_fraction; },
            field_rules{.min = 0, .max = 1}},
      field{"flops", &dsl::spec::flops},
      field{"read_bytes", &dsl::spec::read_bytes},
      field{"written_bytes", &dsl::spec::written_bytes},
  };
};

// ---------------------------------------------------------------------------------------------------
// The kernel and the file

inline constexpr field_rules since_launches{.since = 2};
template <> struct table<manifest::kernel> {
  static constexpr auto fields = std::tuple{
      field{"spec", &manifest::kernel::spec},
      field{"name", &manifest::kernel::name},
      field{"function", &manifest::kernel::function},
      field{"mangled_name", &manifest::kernel::mangled_name},
      field{"location", &manifest::kernel::location},
      field{"spec_location", &manifest::kernel::spec_location},
      field{"operation", &manifest::kernel::operation},
      field{"math_mode", &manifest::kernel::math_mode},
      field{"convention", &manifest::kernel::convention},
      field{"dims", &manifest::kernel::dims},
      field{"tensors", &manifest::kernel::tensors},
      field{"formulas", &manifest::kernel::formulas},
      field{"expected", &manifest::kernel::expected},
      field{"values", &manifest::kernel::values},
      field{"missing_size", &manifest::kernel::missing_size, field_rules{.optional = true}},
      field{"verdict", &manifest::kernel::verdict},
      field{"verdict_change", &manifest::kernel::verdict_change, field_rules{.optional = true}},
      field{"parameters", &manifest::kernel::parameters, field_rules{.since = 2, .most = 4096}},
      field{"launch", [](auto& k) -> auto& { return k.spec_value.launch; }, since_launches},
      field{"spec_value", &manifest::kernel::spec_value, since_launches},
      field{"kind", &manifest::kernel::kind, field_rules{.since = 3}},
      field{"region", &manifest::kernel::region, field_rules{.since = 3}},
      field{"predicted_traffic", &manifest::kernel::predicted, field_rules{.since = 4}},
      field{"peaks", &manifest::kernel::peaks},
  };
};

template <> struct table<manifest::diagnostic> {
  static constexpr auto fields = std::tuple{
      field{"name", &manifest::diagnostic::name},
      field{"level", &manifest::diagnostic::level},
      field{"message", &manifest::diagnostic::message},
      field{"file", &manifest::diagnostic::file},
      field{"line", &manifest::diagnostic::line, line_rules},
      field{"column", &manifest::diagnostic::column, line_rules},
      field{"group", &manifest::diagnostic::group, field_rules{.optional = true}},
  };
};

template <> struct table<manifest::manifest_file> {
  static constexpr auto fields = std::tuple{
      // Provenance: a reader needs neither to use the kernels.
      field{"rooflint_version", &manifest::manifest_file::rooflint_version, field_rules{.optional = true}},
      field{"peaks", &manifest::manifest_file::peaks, field_rules{.optional = true}},
      field{"kernels", &manifest::manifest_file::kernels},
      field{"diagnostics", &manifest::manifest_file::diagnostics, field_rules{.optional = true}},
  };
};
// clang-format on

}  // namespace rooflint::files
