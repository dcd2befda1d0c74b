#pragma once
// Turns at one GPU's performance counters, between processes. CUPTI lets one profiling session at a
// time count on a GPU; a second process gets CUPTI_ERROR_HARDWARE_BUSY and its launches go uncounted
// (seen with two worker processes of one program under rooflint-verify on the H200, 2026-12-01). So
// every rooflint process that counts takes its turn first: an exclusive flock(2) on a file named
// after the GPU's UUID. A process waiting for its turn holds a shared lock on a second file, so that
// the holder can see someone waits and give its turn back at its next quiet moment (between windows),
// while a holder alone keeps its turn (and its open batch) as long as it likes.
//
// The files live in $ROOFLINT_LOCK_DIR, else /tmp: every user's processes on the machine share them.
// flock locks end with their process, so a process that dies never leaves the GPU locked.

#include <chrono>
#include <string>

#include "rooflint/runtime/result.h"

namespace rooflint::runtime {

class counter_turn {
 public:
  /// The turn of the GPU whose UUID is @p gpu_uuid ("GPU-..."); nothing is opened until take().
  explicit counter_turn(std::string gpu_uuid);
  ~counter_turn();
  counter_turn(const counter_turn&) = delete;
  counter_turn& operator=(const counter_turn&) = delete;

  /// Takes the turn, waiting at most @p limit while another process holds it (marked as waiting all
  /// that time). Held already: returns at once. A lock file that cannot be opened is no error: counting
  /// goes on without turns, and unlocked() says why. Errors: unavailable (the limit passed: the message
  /// names the holder's pid and command), internal (the lock cannot be taken).
  result<void> take(std::chrono::milliseconds limit);
  bool held() const { return held_; }
  /// Whether another process waits for the turn (only meaningful while held()).
  bool others_waiting() const;
  /// Gives the turn back (nothing if not held).
  void give_back();
  /// Gives the turn back to a process that waits for it, and waits (at most @p limit) until that process
  /// has taken it: the one giving it back would otherwise take it again at its next launch, before the
  /// waiter's next try.
  void hand_over(std::chrono::milliseconds limit);
  /// In a child of fork(): closes the child's copies of the lock files without unlocking them (they share
  /// the parent's lock, which stays the parent's).
  void forget_after_fork();
  /// Why turns are not taken (the lock file could not be opened), or empty.
  const std::string& unlocked() const { return unlocked_; }

  /// The lock file of @p gpu_uuid (its waiting file: the same name with ".waiting" appended).
  static std::string lock_path(const std::string& gpu_uuid);
  /// How long take() waits by default: $ROOFLINT_COUNTER_WAIT_S seconds, else 60.
  static std::chrono::milliseconds default_limit();

 private:
  std::string holder_text() const;
  std::string path_;
  std::string unlocked_;
  int lock_fd_ = -1, waiting_fd_ = -1;
  mutable int probe_fd_ = -1;  ///< the waiting file again, to test it without our own lock in the way
  bool held_ = false;
};

}  // namespace rooflint::runtime
