// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/runner/isolation.hpp"

namespace pith::runner {

Result<std::string> run_isolated(const std::function<std::string()>& read, const IsolationLimits& limits) {
  return run_in_child(isolated_subject, read, limits.child_limits());
}

}  // namespace pith::runner
