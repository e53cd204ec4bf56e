// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/isolated.hpp"

namespace pith::test {

Report isolated(const std::string& name, const std::function<std::string()>& work,
                const runner::IsolationLimits& limits) {
  const Result<std::string> sent = runner::run_isolated(work, limits);
  Report report;
  report.input = name;
  if (!sent) {
    report.error = sent.error();
    return report;
  }
  report.trust_anchor("test.ran", *sent);
  return report;
}

}  // namespace pith::test
