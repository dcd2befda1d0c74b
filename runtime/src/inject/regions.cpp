// Grouping a program's kernel launches into instances of regions (inject.h, region_tracker): host
// code, fed by the injection library at each launch API's entry and by tests with synthetic records.

#include "rooflint/runtime/inject.h"

namespace rooflint::runtime::inject {

bool region_tracker::member(int region, int position, const launch_record& launch) const {
  const auto& kernels = regions_[static_cast<std::size_t>(region)];
  if (position < 0 || static_cast<std::size_t>(position) >= kernels.size()) return false;
  const manifest_region_kernel& k = kernels[static_cast<std::size_t>(position)];
  if (k.library && launch.annotated) return false;  // a kernel with a spec of its own is not a library's
  return k.matches(launch.symbol);
}

region_step region_tracker::on_launch(const launch_record& launch) {
  region_step step;
  if (open_) {
    if (launch.stream == stream_ && launch.thread == thread_ && member(open_region_, next_, launch)) {
      step.region = open_region_;
      step.position = next_++;
      step.completes = static_cast<std::size_t>(next_) == regions_[static_cast<std::size_t>(open_region_)].size();
      if (step.completes) open_ = false;
      return step;
    }
    step.abandoned = open_region_;
    const std::string which = "kernel " + std::to_string(next_ + 1) + " of " +
                              std::to_string(regions_[static_cast<std::size_t>(open_region_)].size());
    if (member(open_region_, next_, launch))
      step.abandoned_reason = which + " was launched on another " + (launch.stream != stream_ ? "stream" : "thread") +
                              " than the instance's first kernel";
    else
      step.abandoned_reason = "another kernel ('" + launch.symbol + "') was launched where " + which + " was expected";
    open_ = false;
  }
  for (std::size_t r = 0; r < regions_.size(); ++r) {
    if (!member(static_cast<int>(r), 0, launch)) continue;
    step.region = static_cast<int>(r);
    step.position = 0;
    step.begins = true;
    step.completes = regions_[r].size() == 1;
    if (!step.completes) {
      open_ = true;
      open_region_ = static_cast<int>(r);
      next_ = 1;
      stream_ = launch.stream;
      thread_ = launch.thread;
    }
    break;
  }
  return step;
}

region_window plan_region_window(const region_step& step, int site, bool bound, bool repeat, bool measuring,
                                 bool counting) {
  region_window w;
  const bool at_site = step.position == site;
  const bool useless = step.position >= site && (!bound || repeat);
  if (step.begins && !useless) {
    if (measuring) w.busy_elsewhere = true;
    else w.open = counting = true;
  } else if (!step.begins && at_site && counting && useless) {
    w.close_unused = true;
    counting = false;
  }
  w.count = at_site && counting;
  return w;
}

}  // namespace rooflint::runtime::inject
