// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The versions of the libraries pith is linked with, for `--version` and bug
// reports: asked of each library at run time where it can say (libcurl,
// libsodium, poppler), else as compiled against (PoDoFo, Exempi).
#include <string>

namespace pith {

// "PoDoFo 0.9.8, libcurl 7.88.1, libsodium 1.0.18, Exempi 2.6.3, poppler 22.12.0"
std::string linked_library_versions();

}  // namespace pith
