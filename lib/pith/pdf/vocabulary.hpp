// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The vocabulary pith writes into PDFs lives below pdf/ and tex/, in
// carrier/vocabulary.hpp (namespace pith::carrier), so that both carriers
// of a record share it. This header keeps the old name `pdf::meta` for the
// code above pdf/ (check/, stamp/, the tests) until it says `carrier::`;
// new code includes carrier/vocabulary.hpp.
#include "pith/carrier/vocabulary.hpp"

namespace pith::pdf {
namespace meta = carrier;
}  // namespace pith::pdf
