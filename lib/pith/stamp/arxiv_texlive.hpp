// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which TeX Live arXiv builds an upload with, and what that asks of the
// upload (docs/arxiv.md, "arXiv's TeX Live"). pith-stamp --arxiv rebuilds
// the upload with this machine's TeX Live: what differs between the two is
// said here, never assumed away. The one that matters most: biblatex reads
// only a .bbl in the format version its Biber writes; a .bbl in another
// format prints biblatex's internal field list over page 1 instead of the
// references, and the paper then reads unbound.
#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace pith::stamp {

struct ArxivTexLive {
  int year;
  std::string_view bbl_format;  // the biblatex .bbl format its biblatex reads
  std::string_view biber;       // the Biber version that writes it
  std::string_view on_arxiv;    // its standing on arXiv
};

// arXiv's TeX Live trees (arXiv/submission-tools' tex2pdf images; arXiv's
// help "submit_tex"): each paper is rebuilt with the tree in force when it
// was submitted. Update when arXiv adds a tree.
inline constexpr std::array<ArxivTexLive, 2> arxiv_tex_lives{{
    {2023, "3.2", "2.19", "arXiv's documented tree"},
    {2025, "3.3", "2.21", "arXiv's newer tree, rolled out in 2025"},
}};

// What an uploaded biblatex .bbl needs of arXiv's TeX Live. nullopt for a
// BibTeX .bbl, or one every tree reads.
struct BblNeed {
  bool readable_somewhere = false;  // false: no tree reads it, the upload is refused
  std::string message;              // one sentence (or two), naming the fix
};
[[nodiscard]] std::optional<BblNeed> bbl_need(std::string_view name, std::string_view bbl);

// A note saying which TeX Live the local rebuild used (`here`: "TeX Live
// 2022", or empty when its log did not say) against arXiv's trees.
[[nodiscard]] std::string local_tex_live_note(std::string_view here);

}  // namespace pith::stamp
