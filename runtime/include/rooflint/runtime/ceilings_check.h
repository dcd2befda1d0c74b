#pragma once
/// @file ceilings_check.h
/// Whether a ceilings file applies to the device at hand: the one rule for rooflint-ceilings (which
/// keeps figures of an existing file only when they apply) and the verifier (which refuses a file that
/// does not, exit 3). Ceilings are figures of one card under one driver: another model, another card
/// of the same model (UUID) or another driver is refused, never warned about, since verdicts on
/// another card's figures would be silently wrong.

#include <string>
#include <vector>

#include "rooflint/files/ceilings_file.h"
#include "rooflint/runtime/device.h"
#include "rooflint/runtime/result.h"

namespace rooflint::runtime {

/// @return Success when @p file was measured on @p device under its current driver; otherwise
/// failed_precondition with which one differs ("measured on 'NVIDIA H100' (GPU-...), this is 'NVIDIA
/// H200' (GPU-...)", "measured under driver 570.86, the driver is now 580.159.04"), and what to do.
/// A UUID that differs with the same name is another card of the same model: rejected too, since the
/// figures are per card.
result<void> check_applies(const ceilings::ceilings_file& file, const device_properties& device);

/// The part of a device that decides whether ceilings apply to it.
struct device_identity {
  std::string name;            ///< "NVIDIA H200"
  std::string uuid;            ///< "GPU-..."
  std::string driver_version;  ///< "580.159.04"
};

/// As above, for a device known by its identity (the verifier's parent process never initialises
/// CUDA: it knows the device from what its measuring process reported).
result<void> check_applies(const ceilings::ceilings_file& file, const device_identity& device);

/// A ceilings file given to the verifier, and its path (for the reports' labels and messages).
struct ceilings_source {
  std::string path;
  ceilings::ceilings_file file;
};

/// Reads each of @p paths (the verifier's --ceilings, one file per GPU). Errors: invalid_argument naming
/// the file that cannot be read and why.
result<std::vector<ceilings_source>> load_ceilings(const std::vector<std::string>& paths);

/// @return The file of @p files that applies to @p device (check_applies); failed_precondition with
/// each file's reason when none does, so that a card is never judged against another card's figures.
result<const ceilings_source*> ceilings_for(const std::vector<ceilings_source>& files, const device_identity& device);

/// Loads @p path and checks it against device @p ordinal. Errors: invalid_argument when missing or
/// malformed (the loader's message), failed_precondition from check_applies, unavailable without a device.
result<ceilings::ceilings_file> load_for_device(const std::string& path, int ordinal);

}  // namespace rooflint::runtime
