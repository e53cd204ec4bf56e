// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A check's way through an isolated child, for the runner and sandbox tests.
#include "pith/base/report.hpp"
#include "pith/runner/isolation.hpp"

#include <functional>
#include <string>

namespace pith::test {

// Runs `work` in an isolated child (runner::run_isolated) and judges what it
// sent as a check does: the child's failure is the report's error; else a
// passing check (test.ran) whose detail is what the child sent.
[[nodiscard]] Report isolated(const std::string& name, const std::function<std::string()>& work,
                              const runner::IsolationLimits& limits = {});

}  // namespace pith::test
