// SPDX-License-Identifier: GPL-3.0-or-later
// The Reader's document-level views, built on objects() and stream(): the
// catalog, the Info dictionary and its strings, the XMP metadata stream,
// name trees and embedded files, the page count, page 1 and its
// annotations. Every walk is bounded (ReaderLimits: depth, tree nodes).
#include "pith/pdf/reader_internal.hpp"

#include <set>

namespace pith::pdf {
using namespace detail;

Result<PdfDictionary> Reader::catalog() const {
  auto root = object(*root_);
  if (!root) return std::unexpected(root.error());
  if (!root->IsDictionary()) return fail(ErrorKind::malformed, name_, "the document catalog " + to_string(*root_) + " is not a dictionary");
  return root->GetDictionary();
}

Result<std::optional<PdfDictionary>> Reader::info() const {
  const PdfObject* v = key(trailer_, "Info");
  if (!v) return std::optional<PdfDictionary>{};
  auto r = resolve(*v);
  if (!r) return std::unexpected(r.error());
  if (!r->IsDictionary()) return std::optional<PdfDictionary>{};
  return std::optional<PdfDictionary>{r->GetDictionary()};
}

Result<std::optional<std::string>> Reader::info_string(std::string_view k) const {
  auto d = info();
  if (!d) return std::unexpected(d.error());
  if (!*d) return std::optional<std::string>{};
  auto v = resolve_key(**d, k);
  if (!v) return std::unexpected(v.error());
  if (!*v) return std::optional<std::string>{};
  if ((*v)->IsString() || (*v)->IsHexString()) return std::optional<std::string>{(*v)->GetString().GetStringUtf8()};
  if ((*v)->IsName()) return std::optional<std::string>{(*v)->GetName().GetName()};
  return std::optional<std::string>{};
}

Result<std::optional<StreamObject>> Reader::xmp_metadata_stream() const {
  auto cat = catalog();
  if (!cat) return std::unexpected(cat.error());
  const PdfObject* m = key(*cat, "Metadata");
  if (!m || !m->IsReference()) return std::optional<StreamObject>{};
  auto s = stream(*reference_of(*m));
  if (!s) return std::unexpected(s.error());
  return std::optional<StreamObject>{std::move(*s)};
}

namespace {
Result<std::optional<std::string>> data_of(Result<std::optional<StreamObject>> s) {
  if (!s) return std::unexpected(s.error());
  if (!*s) return std::optional<std::string>{};
  return std::optional<std::string>{std::move((*s)->data)};
}
}  // namespace

Result<std::optional<std::string>> Reader::xmp_metadata() const { return data_of(xmp_metadata_stream()); }

Result<void> Reader::walk_name_tree(const PdfObject& node_value, int depth, std::size_t& visited,
                                    std::vector<NameTreeEntry>& out) const {
  if (depth > limits_.max_depth) return fail(ErrorKind::malformed, name_, "name tree deeper than " + std::to_string(limits_.max_depth));
  if (++visited > limits_.max_tree_nodes) return fail(ErrorKind::malformed, name_, "name tree has too many nodes");
  auto node = resolve(node_value);
  if (!node) return std::unexpected(node.error());
  if (!node->IsDictionary()) return {};
  const PdfDictionary& d = node->GetDictionary();
  if (auto names = resolve_key(d, "Names"); !names) {
    return std::unexpected(names.error());
  } else if (*names && (*names)->IsArray()) {
    const PdfArray& a = (*names)->GetArray();
    for (std::size_t i = 0; i + 1 < a.size(); i += 2) {
      if (!a[i].IsString() && !a[i].IsHexString()) continue;
      if (++visited > limits_.max_tree_nodes) return fail(ErrorKind::malformed, name_, "name tree has too many entries");
      out.push_back(NameTreeEntry{string_bytes(a[i].GetString()), a[i].GetString().GetStringUtf8(), a[i].GetString(), a[i + 1]});
    }
  }
  auto kids = resolve_key(d, "Kids");
  if (!kids) return std::unexpected(kids.error());
  if (*kids && (*kids)->IsArray())
    for (const PdfObject& kid : (*kids)->GetArray())
      if (auto ok = walk_name_tree(kid, depth + 1, visited, out); !ok) return ok;
  return {};
}

Result<std::vector<NameTreeEntry>> Reader::name_tree(const PdfObject& root) const {
  std::vector<NameTreeEntry> out;
  std::size_t visited = 0;
  if (auto ok = walk_name_tree(root, 0, visited, out); !ok) return std::unexpected(ok.error());
  return out;
}

Result<std::vector<NameTreeEntry>> Reader::embedded_files() const {
  auto cat = catalog();
  if (!cat) return std::unexpected(cat.error());
  auto names = resolve_key(*cat, "Names");
  if (!names) return std::unexpected(names.error());
  if (!*names || !(*names)->IsDictionary()) return std::vector<NameTreeEntry>{};
  const PdfObject* ef = key((*names)->GetDictionary(), "EmbeddedFiles");
  if (!ef) return std::vector<NameTreeEntry>{};
  return name_tree(*ef);
}

Result<std::optional<StreamObject>> Reader::file_spec_stream(const PdfObject& spec_value) const {
  auto spec = resolve(spec_value);
  if (!spec) return std::unexpected(spec.error());
  if (!spec->IsDictionary()) return std::optional<StreamObject>{};
  auto ef = resolve_key(spec->GetDictionary(), "EF");
  if (!ef) return std::unexpected(ef.error());
  if (!*ef || !(*ef)->IsDictionary()) return std::optional<StreamObject>{};
  const PdfObject* f = key((*ef)->GetDictionary(), "UF");
  if (!f || !f->IsReference()) f = key((*ef)->GetDictionary(), "F");
  if (!f || !f->IsReference()) return std::optional<StreamObject>{};
  auto s = stream(*reference_of(*f));
  if (!s) return std::unexpected(s.error());
  return std::optional<StreamObject>{std::move(*s)};
}

Result<std::optional<std::string>> Reader::file_spec_contents(const PdfObject& spec_value) const {
  return data_of(file_spec_stream(spec_value));
}

Result<std::optional<StreamObject>> Reader::embedded_file_stream(std::string_view wanted) const {
  auto files = embedded_files();
  if (!files) return std::unexpected(files.error());
  for (const auto& e : *files)
    if (e.key_utf8 == wanted) return file_spec_stream(e.value);
  return std::optional<StreamObject>{};
}

Result<std::optional<std::string>> Reader::embedded_file(std::string_view wanted) const {
  return data_of(embedded_file_stream(wanted));
}

Result<std::uint64_t> Reader::page_count() const {
  auto cat = catalog();
  if (!cat) return std::unexpected(cat.error());
  auto pages = resolve_key(*cat, "Pages");
  if (!pages) return std::unexpected(pages.error());
  if (!*pages || !(*pages)->IsDictionary()) return fail(ErrorKind::malformed, name_, "the catalog has no /Pages dictionary");
  auto count = resolve_key((*pages)->GetDictionary(), "Count");
  if (!count) return std::unexpected(count.error());
  if (!*count || !(*count)->IsNumber() || (*count)->GetNumber() < 0)
    return fail(ErrorKind::malformed, name_, "the page tree has no valid /Count");
  return static_cast<std::uint64_t>((*count)->GetNumber());
}

Result<Page> Reader::first_page() const {
  auto cat = catalog();
  if (!cat) return std::unexpected(cat.error());
  const PdfObject* pages = key(*cat, "Pages");
  if (!pages || !pages->IsReference()) return fail(ErrorKind::malformed, name_, "the catalog has no /Pages reference");
  std::set<ObjectId> seen;
  ObjectId id = *reference_of(*pages);
  for (int depth = 0; depth <= limits_.max_depth; ++depth) {
    if (!seen.insert(id).second) return fail(ErrorKind::malformed, name_, "the page tree has a loop at " + to_string(id));
    auto node = object(id);
    if (!node) return std::unexpected(node.error());
    if (!node->IsDictionary()) return fail(ErrorKind::malformed, name_, "page tree node " + to_string(id) + " is not a dictionary");
    const PdfDictionary& d = node->GetDictionary();
    const PdfObject* type = key(d, "Type");
    const bool is_page = type && type->IsName() && type->GetName().GetName() == "Page";
    auto kids = resolve_key(d, "Kids");
    if (!kids) return std::unexpected(kids.error());
    if (is_page || !*kids) return Page{id, d};
    if (!(*kids)->IsArray() || (*kids)->GetArray().empty() || !(*kids)->GetArray()[0].IsReference())
      return fail(ErrorKind::malformed, name_, "page tree node " + to_string(id) + " has no first kid");
    id = *reference_of((*kids)->GetArray()[0]);
  }
  return fail(ErrorKind::malformed, name_, "the page tree is deeper than " + std::to_string(limits_.max_depth));
}

Result<std::vector<std::pair<std::optional<ObjectId>, PdfDictionary>>> Reader::page_annotations(const Page& page,
                                                                                         std::size_t max_count) const {
  std::vector<std::pair<std::optional<ObjectId>, PdfDictionary>> out;
  // A direct /Annots array is read where it lies in the page dictionary, not
  // copied; each entry is resolved only when its turn comes, and reading
  // stops at max_count: a page with 250,000 links costs what 4,096 cost
  // (issue 23), not a copy of every annotation dictionary.
  const PdfObject* direct = key(page.dictionary, "Annots");
  if (!direct) return out;
  std::optional<PdfObject> resolved;
  if (direct->IsReference()) {
    auto r = resolve(*direct);
    if (!r) return std::unexpected(r.error());
    resolved = std::move(*r);
    direct = &*resolved;
  }
  if (!direct->IsArray()) return out;
  const PdfArray& annots = direct->GetArray();
  out.reserve(std::min(annots.size(), max_count));
  for (const PdfObject& a : annots) {
    if (out.size() >= max_count) break;
    auto r = resolve(a);
    if (!r) return std::unexpected(r.error());
    if (r->IsDictionary()) out.emplace_back(reference_of(a), r->GetDictionary());
  }
  return out;
}

}  // namespace pith::pdf
