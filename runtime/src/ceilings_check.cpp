/// @file ceilings_check.cpp
/// The ceilings file's device and driver check.

#include "rooflint/runtime/ceilings_check.h"

namespace rooflint::runtime {

result<void> check_applies(const ceilings::ceilings_file& file, const device_properties& device) {
  return check_applies(file, device_identity{device.name, device.uuid, device.driver_version});
}

result<void> check_applies(const ceilings::ceilings_file& file, const device_identity& device) {
  const auto& d = file.device;
  if (d.name != device.name || (!d.uuid.empty() && d.uuid != device.uuid))
    return error{error_code::failed_precondition,
                 "ceilings were measured on another GPU: '" + d.name + "' (" + (d.uuid.empty() ? "no UUID" : d.uuid) +
                     "), this is '" + device.name + "' (" + device.uuid +
                     "); run rooflint-ceilings on this GPU"};
  if (d.driver_version != device.driver_version)
    return error{error_code::failed_precondition,
                 "ceilings are older than the driver: measured under driver " + d.driver_version +
                     ", the driver is now " + device.driver_version + "; run rooflint-ceilings again"};
  return success();
}

result<std::vector<ceilings_source>> load_ceilings(const std::vector<std::string>& paths) {
  std::vector<ceilings_source> files;
  for (const std::string& path : paths) {
    std::string why;
    auto file = ceilings::load(path, why);
    if (!file) return error{error_code::invalid_argument, "cannot use --ceilings '" + path + "': " + why};
    files.push_back({path, std::move(*file)});
  }
  return files;
}

result<const ceilings_source*> ceilings_for(const std::vector<ceilings_source>& files, const device_identity& device) {
  std::string why;
  for (const ceilings_source& f : files) {
    const auto applies = check_applies(f.file, device);
    if (applies) return &f;
    why += (why.empty() ? "" : "; ") + ("--ceilings '" + f.path + "': " + applies.err().message);
  }
  return error{error_code::failed_precondition, why.empty() ? std::string("no --ceilings file was given") : why};
}

result<ceilings::ceilings_file> load_for_device(const std::string& path, int ordinal) {
  std::string why;
  auto file = ceilings::load(path, why);
  if (!file) return error{error_code::invalid_argument, why};
  auto device = query_device(ordinal);
  if (!device) return device.err();
  if (auto applies = check_applies(*file, *device); !applies)
    return error{applies.err().code, "'" + path + "': " + applies.err().message};
  return std::move(*file);
}

}  // namespace rooflint::runtime
