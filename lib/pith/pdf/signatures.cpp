// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/signatures.hpp"

#include "pith/pdf/podofo_objects.hpp"
#include "pith/pdf/reader.hpp"

namespace pith::pdf {
namespace {

std::string name_of(const PdfObject* value) { return value && value->IsName() ? value->GetName().GetName() : std::string(); }

std::string text_of(const PdfObject* value) {
  return value && (value->IsString() || value->IsHexString()) ? value->GetString().GetStringUtf8() : std::string();
}

// The catalog's /Perms /DocMDP: the certifying signature dictionary's reference
// (when indirect) and the dictionary itself.
struct Certifying {
  std::optional<ObjectId> id;
  PdfDictionary dictionary;
};

Result<std::optional<Certifying>> certifying_signature(const Reader& reader) {
  auto catalog = reader.catalog();
  if (!catalog) return std::unexpected(catalog.error());
  auto perms = reader.resolve_key(*catalog, "Perms");
  if (!perms) return std::unexpected(perms.error());
  if (!*perms || !(*perms)->IsDictionary()) return std::optional<Certifying>{};
  const PdfObject* docmdp = key((*perms)->GetDictionary(), "DocMDP");
  if (!docmdp) return std::optional<Certifying>{};
  auto signature = reader.resolve(*docmdp);
  if (!signature) return std::unexpected(signature.error());
  if (!signature->IsDictionary()) return std::optional<Certifying>{};
  return std::optional<Certifying>{Certifying{reference_of(*docmdp), signature->GetDictionary()}};
}

// /P of the DocMDP transform in a signature dictionary's /Reference (2 when absent).
Result<int> docmdp_permissions(const Reader& reader, const PdfDictionary& signature) {
  auto references = reader.resolve_key(signature, "Reference");
  if (!references) return std::unexpected(references.error());
  if (!*references || !(*references)->IsArray()) return 2;
  for (const PdfObject& item : (*references)->GetArray()) {
    auto reference = reader.resolve(item);
    if (!reference) return std::unexpected(reference.error());
    if (!reference->IsDictionary() || name_of(key(reference->GetDictionary(), "TransformMethod")) != "DocMDP") continue;
    auto params = reader.resolve_key(reference->GetDictionary(), "TransformParams");
    if (!params) return std::unexpected(params.error());
    if (!*params || !(*params)->IsDictionary()) return 2;
    const PdfObject* p = key((*params)->GetDictionary(), "P");
    // Values other than 1, 2 and 3 are read as the most restrictive reading of the spec's default.
    if (!p || !p->IsNumber()) return 2;
    const auto v = p->GetNumber();
    return v == 1 || v == 3 ? static_cast<int>(v) : 2;
  }
  return 2;
}

struct Walk {
  const Reader& reader;
  std::size_t max;
  std::optional<ObjectId> certifying;
  std::optional<int> certification;
  std::size_t visited = 0;
  std::vector<PdfSignature> out;

  Result<void> field(const PdfObject& node_value, const std::string& parent_name, const std::string& inherited_type,
                     int depth) {
    if (depth > reader.limits().max_depth || ++visited > reader.limits().max_tree_nodes || out.size() >= max) return {};
    auto node = reader.resolve(node_value);
    if (!node) return std::unexpected(node.error());
    if (!node->IsDictionary()) return {};
    const PdfDictionary& d = node->GetDictionary();
    const std::string partial = text_of(key(d, "T"));
    const std::string name = parent_name.empty() ? partial : partial.empty() ? parent_name : parent_name + "." + partial;
    const std::string type = key(d, "FT") ? name_of(key(d, "FT")) : inherited_type;
    if (type == "Sig") {
      if (const PdfObject* v = key(d, "V")) {
        auto value = reader.resolve(*v);
        if (!value) return std::unexpected(value.error());
        if (value->IsDictionary()) out.push_back(signature_of(name, reference_of(*v), value->GetDictionary()));
      }
    }
    auto kids = reader.resolve_key(d, "Kids");
    if (!kids) return std::unexpected(kids.error());
    if (*kids && (*kids)->IsArray())
      for (const PdfObject& kid : (*kids)->GetArray())
        if (auto ok = field(kid, name, type, depth + 1); !ok) return ok;
    return {};
  }

  PdfSignature signature_of(const std::string& field_name, std::optional<ObjectId> id, const PdfDictionary& v) const {
    PdfSignature s;
    s.field = field_name;
    s.signer = text_of(key(v, "Name"));
    s.signed_at = text_of(key(v, "M"));
    s.sub_filter = name_of(key(v, "SubFilter"));
    if (const PdfObject* range = key(v, "ByteRange"); range && range->IsArray() && range->GetArray().size() == 4) {
      const auto& r = range->GetArray();
      if (r[2].IsNumber() && r[3].IsNumber() && r[2].GetNumber() >= 0 && r[3].GetNumber() >= 0)
        s.signed_length = static_cast<std::uint64_t>(r[2].GetNumber()) + static_cast<std::uint64_t>(r[3].GetNumber());
    }
    if (id && certifying && *id == *certifying) s.certification = certification;
    return s;
  }
};

}  // namespace

Result<std::optional<int>> certification_permissions(const Reader& reader) {
  auto certifying = certifying_signature(reader);
  if (!certifying) return std::unexpected(certifying.error());
  if (!*certifying) return std::optional<int>{};
  auto p = docmdp_permissions(reader, (*certifying)->dictionary);
  if (!p) return std::unexpected(p.error());
  return std::optional<int>{*p};
}

std::string certification_allows(int permissions) {
  switch (permissions) {
    case 1: return "no change at all";
    case 3: return "only filling in forms, instantiating page templates, signing and changing annotations";
    default: return "only filling in forms, instantiating page templates and signing";
  }
}

Result<std::vector<PdfSignature>> read_signatures(const Reader& reader, std::size_t max) {
  auto catalog = reader.catalog();
  if (!catalog) return std::unexpected(catalog.error());
  auto form = reader.resolve_key(*catalog, "AcroForm");
  if (!form) return std::unexpected(form.error());
  if (!*form || !(*form)->IsDictionary()) return std::vector<PdfSignature>{};
  auto fields = reader.resolve_key((*form)->GetDictionary(), "Fields");
  if (!fields) return std::unexpected(fields.error());
  if (!*fields || !(*fields)->IsArray()) return std::vector<PdfSignature>{};
  Walk walk{reader, max, std::nullopt, std::nullopt, 0, {}};
  auto certifying = certifying_signature(reader);
  if (!certifying) return std::unexpected(certifying.error());
  if (*certifying) {
    walk.certifying = (*certifying)->id;
    auto p = docmdp_permissions(reader, (*certifying)->dictionary);
    if (!p) return std::unexpected(p.error());
    walk.certification = *p;
  }
  for (const PdfObject& f : (*fields)->GetArray())
    if (auto ok = walk.field(f, "", "", 0); !ok) return std::unexpected(ok.error());
  return std::move(walk.out);
}

}  // namespace pith::pdf
