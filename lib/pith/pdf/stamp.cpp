// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/stamp.hpp"

#include "pith/base/crypto.hpp"
#include "pith/pdf/podofo_objects.hpp"
#include "pith/pdf/reader.hpp"
#include "pith/pdf/signatures.hpp"
#include "pith/pdf/update.hpp"
#include "pith/base/version.hpp"
#include "pith/registry/number.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <ctime>
#include <set>

#include <podofo/base/PdfError.h>
#include <podofo/base/PdfString.h>

#include "pith/pdf/xmp.hpp"

namespace pith::pdf {
namespace {

PdfObject text(const std::string& ascii) { return PdfObject(PoDoFo::PdfString(ascii)); }

// The body of a written number, as resolver links carry it.
std::string number_body(std::string_view number) {
  const auto parsed = registry::parse_pith_number(number);
  return parsed ? parsed->body : std::string(number);
}

// Whether `number`, as the PDF writes it, names `record`'s number.
bool names_the_record(std::string_view number, const registry::VerifiedRecord& record) {
  const auto parsed = registry::parse_pith_number(number);
  return parsed && parsed->matches(record.number());
}

std::string pdf_date(std::int64_t epoch) {
  const std::time_t t = static_cast<std::time_t>(epoch);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "D:%Y%m%d%H%M%SZ", &tm);
  return buf;
}

// Does this file specification (resolved) name pith-bundle.json?
bool names_pith_bundle(const Reader& reader, const PdfObject& spec_value) {
  auto spec = reader.resolve(spec_value);
  if (!spec || !spec->IsDictionary()) return false;
  for (const char* k : {"UF", "F"}) {
    const PdfObject* v = key(spec->GetDictionary(), k);
    if (v && (v->IsString() || v->IsHexString()) && v->GetString().GetStringUtf8() == carrier::embedded_name) return true;
  }
  return false;
}

// The page's visible box, following /Parent for inherited attributes.
Result<std::array<double, 4>> page_box(const Reader& reader, const Page& page) {
  PdfDictionary node = page.dictionary;
  std::set<ObjectId> seen{page.id};
  for (int depth = 0; depth < reader.limits().max_depth; ++depth) {
    for (const char* k : {"CropBox", "MediaBox"}) {
      auto box = reader.resolve_key(node, k);
      if (!box) return std::unexpected(box.error());
      if (*box && (*box)->IsArray() && (*box)->GetArray().size() == 4) {
        std::array<double, 4> b{};
        for (std::size_t i = 0; i < 4; ++i) {
          const PdfObject& v = (*box)->GetArray()[i];
          if (!v.IsNumber() && !v.IsReal()) return fail(ErrorKind::malformed, reader.name(), "page 1 has a malformed /MediaBox");
          b[i] = v.IsReal() ? v.GetReal() : static_cast<double>(v.GetNumber());
        }
        return std::array<double, 4>{std::min(b[0], b[2]), std::min(b[1], b[3]), std::max(b[0], b[2]),
                                     std::max(b[1], b[3])};
      }
    }
    const PdfObject* parent = key(node, "Parent");
    if (!parent || !parent->IsReference() || !seen.insert(*reference_of(*parent)).second) break;
    auto p = reader.object(*reference_of(*parent));
    if (!p) return std::unexpected(p.error());
    if (!p->IsDictionary()) break;
    node = p->GetDictionary();
  }
  return std::array<double, 4>{0, 0, 612, 792};  // US Letter, the PDF default
}

// The URI of a link annotation, if it has one.
std::optional<std::string> link_uri(const PdfDictionary& a) {
  const PdfObject* sub = key(a, "Subtype");
  if (!sub || !sub->IsName() || sub->GetName().GetName() != "Link") return std::nullopt;
  const PdfObject* action = key(a, "A");
  if (!action || !action->IsDictionary()) return std::nullopt;
  const PdfObject* uri = key(action->GetDictionary(), "URI");
  if (!uri || !(uri->IsString() || uri->IsHexString())) return std::nullopt;
  return uri->GetString().GetStringUtf8();
}

// A link to a resolver page for `body` (`…/pith/<body>`, any resolver).
bool links_to_number(const PdfDictionary& a, std::string_view body) {
  const auto uri = link_uri(a);
  if (!uri) return false;
  const std::string tail = "/pith/" + std::string(body);
  const auto at = uri->find(tail);
  return at != std::string::npos &&
         (at + tail.size() == uri->size() || std::string("/?#").find((*uri)[at + tail.size()]) != std::string::npos);
}

// A badge pith-stamp wrote (for another number, replaced by --force).
bool is_pith_stamp_badge(const PdfDictionary& a) {
  const PdfObject* contents = key(a, "Contents");
  return link_uri(a) && contents && (contents->IsString() || contents->IsHexString()) &&
         contents->GetString().GetStringUtf8().starts_with("Pith Number pith:");
}

struct Builder {
  const Reader& reader;
  ObjectNumbers numbers;
  std::vector<UpdateObject> objects;

  void put(ObjectId id, PdfObject value, std::optional<std::string> stream = std::nullopt) {
    objects.push_back(UpdateObject{id, std::move(value), std::move(stream)});
  }
};

// Whether page 1 already has a link to the number (a badge, or pith.sty's link).
bool page_one_links_to(const Reader& reader, const std::string& body) {
  auto page = reader.first_page();
  if (!page) return false;
  auto annots = reader.page_annotations(*page);
  if (!annots) return false;
  return std::any_of(annots->begin(), annots->end(), [&](const auto& a) { return links_to_number(a.second, body); });
}

// Where the badge goes: page 1's top right corner, sized for the label.
struct BadgePlace {
  Page page;
  std::string label;
  double x1 = 0, y1 = 0, width = 0, height = 0;
  [[nodiscard]] std::array<double, 4> rect() const { return {x1, y1, x1 + width, y1 + height}; }
};

// The badge's place, or nullopt (with a note) when page 1 already links to the number.
Result<std::optional<BadgePlace>> badge_place(const Reader& reader, const registry::VerifiedRecord& record,
                                              StampPlan& plan) {
  auto page = reader.first_page();
  if (!page) return std::unexpected(page.error());
  auto annots = reader.page_annotations(*page);
  if (!annots) return std::unexpected(annots.error());
  const std::string body = record.number().body;
  for (const auto& [id, a] : *annots)
    if (links_to_number(a, body)) {
      plan.notes.push_back("badge skipped: page 1 already links to " + record.number().to_string());
      return std::nullopt;
    }
  auto box = page_box(reader, *page);
  if (!box) return std::unexpected(box.error());
  BadgePlace place{std::move(*page), record.number().to_string()};
  const double font = 6.0;
  place.width = 6.0 + 0.6 * font * static_cast<double>(place.label.size());  // Helvetica digits/caps ≈ 0.6 em
  place.height = 11.0;
  const double margin = 14.0;
  // Top right: arXiv stamps its identifier vertically in the left margin.
  place.x1 = (*box)[2] - margin - place.width;
  place.y1 = (*box)[3] - margin - place.height;
  return std::optional<BadgePlace>(std::move(place));
}

// The badge: a link annotation whose appearance stream draws the number.
Result<void> add_badge(Builder& b, const BadgePlace& place, const registry::VerifiedRecord& record,
                       const StampOptions& options, StampPlan& plan) {
  const Page* page = &place.page;
  const std::string body = record.number().body;
  const std::string& label = place.label;
  const double font = 6.0;
  const double width = place.width, height = place.height, x1 = place.x1, y1 = place.y1;
  char content[512];
  std::snprintf(content, sizeof content,
                "q 1 1 1 rg 0 0 %.2f %.2f re f 0.45 0.45 0.45 RG 0.5 w 0.25 0.25 %.2f %.2f re S "
                "BT /Helv %.1f Tf 0.1 0.2 0.55 rg 3 3.2 Td (%s) Tj ET Q",
                width, height, width - 0.5, height - 0.5, font, label.c_str());

  PdfDictionary helv;
  helv.AddKey(PdfName("Type"), PdfName("Font"));
  helv.AddKey(PdfName("Subtype"), PdfName("Type1"));
  helv.AddKey(PdfName("BaseFont"), PdfName("Helvetica"));
  helv.AddKey(PdfName("Encoding"), PdfName("WinAnsiEncoding"));
  PdfDictionary fonts;
  fonts.AddKey(PdfName("Helv"), helv);
  PdfDictionary resources;
  resources.AddKey(PdfName("Font"), fonts);
  PdfArray bbox;
  for (double v : {0.0, 0.0, width, height}) bbox.push_back(PdfObject(v));
  PdfDictionary form;
  form.AddKey(PdfName("Type"), PdfName("XObject"));
  form.AddKey(PdfName("Subtype"), PdfName("Form"));
  form.AddKey(PdfName("BBox"), bbox);
  form.AddKey(PdfName("Resources"), resources);
  const ObjectId form_id = b.numbers.next();
  b.put(form_id, form, std::string(content));

  PdfArray rect;
  for (double v : {x1, y1, x1 + width, y1 + height}) rect.push_back(PdfObject(v));
  PdfDictionary action;
  action.AddKey(PdfName("S"), PdfName("URI"));
  action.AddKey(PdfName("URI"), text(resolver_url(options.resolver, record.number())));
  PdfDictionary ap;
  ap.AddKey(PdfName("N"), reference(form_id));
  PdfArray border;
  for (int i = 0; i < 3; ++i) border.push_back(PdfObject(static_cast<PoDoFo::pdf_int64>(0)));
  PdfDictionary annot;
  annot.AddKey(PdfName("Type"), PdfName("Annot"));
  annot.AddKey(PdfName("Subtype"), PdfName("Link"));
  annot.AddKey(PdfName("Rect"), rect);
  annot.AddKey(PdfName("Border"), border);
  annot.AddKey(PdfName("F"), PdfObject(static_cast<PoDoFo::pdf_int64>(4)));  // print
  annot.AddKey(PdfName("A"), action);
  annot.AddKey(PdfName("AP"), ap);
  annot.AddKey(PdfName("Contents"), text("Pith Number " + record.number().to_string()));
  annot.AddKey(PdfName("P"), reference(page->id));
  const ObjectId annot_id = b.numbers.next();
  b.put(annot_id, annot);

  // Append to /Annots (rewriting the array object if it is indirect, else the
  // page). With --force, a badge pith-stamp made for another number goes.
  const PdfObject* existing = key(page->dictionary, "Annots");
  PdfArray old_list;
  if (existing) {
    auto arr = b.reader.resolve(*existing);
    if (!arr) return std::unexpected(arr.error());
    if (arr->IsArray()) old_list = arr->GetArray();
  }
  PdfArray list;
  for (const PdfObject& entry : old_list) {
    if (options.force) {
      auto a = b.reader.resolve(entry);
      if (!a) return std::unexpected(a.error());
      if (a->IsDictionary() && is_pith_stamp_badge(a->GetDictionary()) && !links_to_number(a->GetDictionary(), body)) {
        plan.notes.push_back("the badge for the previous number was removed from page 1");
        continue;
      }
    }
    list.push_back(entry);
  }
  list.push_back(reference(annot_id));
  if (existing && existing->IsReference()) {
    b.put(*reference_of(*existing), list);
  } else {
    PdfDictionary page_dict = page->dictionary;
    page_dict.AddKey(PdfName("Annots"), list);
    b.put(page->id, page_dict);
  }
  plan.badge_rect = place.rect();
  plan.notes.push_back("badge added to page 1");
  plan.adds_badge = true;
  return {};
}

// EmbeddedFiles: existing attachments kept, any older pith-bundle.json replaced.
Result<void> add_embedded_bundle(Builder& b, const registry::VerifiedRecord& record, const StampOptions& options,
                                 PdfDictionary& catalog) {
  PdfDictionary params;
  params.AddKey(PdfName("Size"), PdfObject(static_cast<PoDoFo::pdf_int64>(record.document_bytes.size())));
  if (options.source_date_epoch) params.AddKey(PdfName("ModDate"), text(pdf_date(*options.source_date_epoch)));
  PdfDictionary ef_stream;
  ef_stream.AddKey(PdfName("Type"), PdfName("EmbeddedFile"));
  ef_stream.AddKey(PdfName("Subtype"), PdfName(carrier::embedded_mime));  // written /application#2Fjson
  ef_stream.AddKey(PdfName("Params"), params);
  const ObjectId ef_id = b.numbers.next();
  b.put(ef_id, ef_stream, record.document_bytes);

  PdfDictionary ef;
  ef.AddKey(PdfName("F"), reference(ef_id));
  ef.AddKey(PdfName("UF"), reference(ef_id));
  PdfDictionary spec;
  spec.AddKey(PdfName("Type"), PdfName("Filespec"));
  spec.AddKey(PdfName("F"), text(carrier::embedded_name));
  spec.AddKey(PdfName("UF"), text(carrier::embedded_name));
  spec.AddKey(PdfName("EF"), ef);
  spec.AddKey(PdfName("AFRelationship"), PdfName("Supplement"));
  spec.AddKey(PdfName("Desc"), text("Pith registry record " + record.number().to_string() + " (signed, verified)"));
  const ObjectId spec_id = b.numbers.next();
  b.put(spec_id, spec);

  // The name tree, flattened into one node (sorted keys, existing entries kept).
  auto entries = b.reader.embedded_files();
  if (!entries) return std::unexpected(entries.error());
  std::vector<NameTreeEntry> kept;
  for (auto& e : *entries)
    if (e.key_utf8 != carrier::embedded_name) kept.push_back(std::move(e));
  kept.push_back(NameTreeEntry{carrier::embedded_name, carrier::embedded_name, PoDoFo::PdfString(carrier::embedded_name),
                               reference(spec_id)});
  std::stable_sort(kept.begin(), kept.end(), [](const auto& x, const auto& y) { return x.key < y.key; });
  PdfArray names;
  for (const auto& e : kept) {
    names.push_back(PdfObject(e.key_string));
    names.push_back(e.value);
  }
  PdfDictionary tree;
  tree.AddKey(PdfName("Names"), names);

  auto names_value = b.reader.resolve_key(catalog, "Names");
  if (!names_value) return std::unexpected(names_value.error());
  PdfDictionary names_dict =
      *names_value && (*names_value)->IsDictionary() ? (*names_value)->GetDictionary() : PdfDictionary();
  const PdfObject* old_tree = key(names_dict, "EmbeddedFiles");
  if (old_tree && old_tree->IsReference()) {
    b.put(*reference_of(*old_tree), tree);  // same object number: the Names dictionary is unchanged
  } else {
    const ObjectId tree_id = b.numbers.next();
    b.put(tree_id, tree);
    names_dict.AddKey(PdfName("EmbeddedFiles"), reference(tree_id));
    const PdfObject* names_ref = key(catalog, "Names");
    if (names_ref && names_ref->IsReference()) b.put(*reference_of(*names_ref), names_dict);
    else catalog.AddKey(PdfName("Names"), names_dict);
  }

  // Catalog /AF (PDF 2.0 associated files): existing entries kept, ours added.
  PdfArray af;
  auto old_af = b.reader.resolve_key(catalog, "AF");
  if (!old_af) return std::unexpected(old_af.error());
  if (*old_af && (*old_af)->IsArray())
    for (const PdfObject& v : (*old_af)->GetArray())
      if (!names_pith_bundle(b.reader, v)) af.push_back(v);
  af.push_back(reference(spec_id));
  catalog.AddKey(PdfName("AF"), af);
  return {};
}

// XMP pith:number as Exempi reads it; a packet it cannot parse carries none for us.
std::optional<std::string> xmp_number(const std::optional<XmpReadout>& xmp) {
  if (!xmp || !xmp->parsed) return std::nullopt;
  return xmp->number;
}

bool already_carries(const PdfMetadata& m, const std::optional<XmpReadout>& xmp, const registry::VerifiedRecord& record) {
  return m.info_number == record.number().to_string() && xmp_number(xmp) == record.number().to_string() &&
         xmp->canonical_sha256 == record.canonical_sha256 && m.embedded_bundle == record.document_bytes;
}

}  // namespace

namespace {

std::string resolver_link(std::string_view resolver, std::string_view body) {
  std::string base(resolver);
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/pith/" + std::string(body);
}

}  // namespace

std::string resolver_url(std::string_view resolver, const registry::PithNumber& number) {
  return resolver_link(resolver, number.body);
}

std::string resolver_url(std::string_view resolver, std::string_view written_number) {
  return resolver_link(resolver, number_body(written_number));
}

namespace {

// What the PDF's parts could not be built from, as one error.
template <class F>
auto building(const Reader& reader, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const PoDoFo::PdfError& e) {
    return fail(ErrorKind::malformed, reader.name(), std::string("cannot build the update: ") + describe_podofo_error(e));
  } catch (const std::exception& e) {
    return fail(ErrorKind::malformed, reader.name(), std::string("cannot build the update: ") + e.what());
  }
}

struct Decision {
  StampPlan plan;                   // no update yet, no hash
  std::optional<BadgePlace> badge;  // with --badge, unless page 1 already links to the number
};

Result<Decision> decide(const Reader& reader, const PdfMetadata& metadata, const PdfExtraction& extraction,
                        const registry::VerifiedRecord& record, const StampOptions& options) {
  Decision d;
  StampPlan& plan = d.plan;
  const std::optional<std::string> carried[] = {metadata.info_number, xmp_number(extraction.xmp)};
  for (const auto& n : carried)
    if (n && !n->empty() && !plan.previous_number) plan.previous_number = *n;
  // `pith:BODY`, as plain pith.sty writes it, is the record's number too.
  for (const auto& n : carried)
    if (n && !n->empty() && !names_the_record(*n, record) && !options.force) {
      plan.outcome = StampOutcome::conflict;
      plan.previous_number = *n;
      return d;
    }
  // Already stamped with this record: nothing to do, unless --badge asks
  // for a badge page 1 does not have yet (then the update is made again, with it).
  if (!options.restamp && already_carries(metadata, extraction.xmp, record) &&
      !(options.badge && !page_one_links_to(reader, record.number().body))) {
    plan.outcome = StampOutcome::already_stamped;
    return d;
  }

  // A certified document (DocMDP) allows at most form filling, page
  // templates, signing and annotations (/P 3); metadata and an attached file
  // are none of these, so a stamp would invalidate the certification.
  auto certified = certification_permissions(reader);
  if (!certified) return std::unexpected(certified.error());
  if (*certified) {
    return fail(ErrorKind::usage, reader.name(),
                "the PDF is certified by a signature (DocMDP /P " + std::to_string(**certified) + ": its certifier allows " +
                    certification_allows(**certified) + "); a stamp adds metadata and an attached file, which would "
                    "invalidate the certification. Stamp the PDF before it is certified");
  }
  plan.original_length = reader.bytes().size();
  if (options.badge) {
    auto place = building(reader, [&] { return badge_place(reader, record, plan); });
    if (!place) return std::unexpected(place.error());
    if (*place) {
      plan.badge_rect = (*place)->rect();
      plan.adds_badge = true;
    }
    d.badge = std::move(*place);
  }
  return d;
}

// The update's objects, the last put of each number kept (the page may also
// be the catalog's business in odd files).
std::vector<UpdateObject> last_of_each(const std::vector<UpdateObject>& objects) {
  std::vector<UpdateObject> unique;
  std::set<std::uint32_t> seen;
  for (auto it = objects.rbegin(); it != objects.rend(); ++it)
    if (seen.insert(it->id.number).second) unique.push_back(*it);
  std::reverse(unique.begin(), unique.end());
  return unique;
}

}  // namespace

Result<StampPlan> decide_stamp(const Reader& reader, const PdfMetadata& metadata, const PdfExtraction& extraction,
                               const registry::VerifiedRecord& record, const StampOptions& options) {
  auto d = decide(reader, metadata, extraction, record, options);
  if (!d) return std::unexpected(d.error());
  return std::move(d->plan);
}

Result<std::string> badge_update(const Reader& reader, const registry::VerifiedRecord& record,
                                 const StampOptions& options) {
  return building(reader, [&]() -> Result<std::string> {
    StampPlan plan;
    auto place = badge_place(reader, record, plan);
    if (!place) return std::unexpected(place.error());
    if (!*place) return std::string();
    Builder b{reader, ObjectNumbers(reader.size()), {}};
    if (auto ok = add_badge(b, **place, record, options, plan); !ok) return std::unexpected(ok.error());
    return build_incremental_update(reader, last_of_each(b.objects), UpdateTrailer{*reader.root_id(), reader.info_id()});
  });
}

Result<StampPlan> plan_stamp(const Reader& reader, const PdfMetadata& metadata, const PdfExtraction& extraction,
                             const registry::VerifiedRecord& record, const StampOptions& options) {
  auto decided = decide(reader, metadata, extraction, record, options);
  if (!decided) return std::unexpected(decided.error());
  StampPlan plan = std::move(decided->plan);
  if (plan.outcome != StampOutcome::stamped) return plan;
  plan.original_sha256 = options.original_sha256 ? *options.original_sha256 : sha256_hex(reader.bytes());

  return building(reader, [&]() -> Result<StampPlan> {
    Builder b{reader, ObjectNumbers(reader.size()), {}};
    auto catalog_value = reader.catalog();
    if (!catalog_value) return std::unexpected(catalog_value.error());
    PdfDictionary catalog = *catalog_value;

    // XMP
    carrier::PithProperties props =
        carrier::pith_properties_of(record, resolver_url(options.resolver, record.number()),
                                 options.tool.empty() ? std::string("pith-stamp ") + version_string : options.tool);
    props.original_sha256 = plan.original_sha256;
    props.original_length = plan.original_length;
    props.page_text_sha256 = options.page_text_sha256;
    // A packet that is not well-formed XMP (readers ignore it: pdf.js's
    // bug854315.pdf) is replaced by one holding the pith properties; the old
    // one stays in the file's earlier revision. One too large or too deep to
    // parse safely is refused by the merge.
    std::string_view existing = metadata.xmp_packet ? std::string_view(*metadata.xmp_packet) : std::string_view();
    if (!existing.empty() && extraction.xmp && !extraction.xmp->parsed) {
      plan.warnings.push_back("the PDF's XMP packet " + extraction.xmp->parse_error +
                           ": replaced by one holding the pith properties (the old packet stays in the file's "
                           "earlier revision)");
      existing = {};
    }
    auto packet = merge_pith_xmp(existing, props);
    if (!packet) return std::unexpected(packet.error().within(reader.name()));
    PdfDictionary metadata_stream;
    metadata_stream.AddKey(PdfName("Type"), PdfName("Metadata"));
    metadata_stream.AddKey(PdfName("Subtype"), PdfName("XML"));
    const PdfObject* old_metadata = key(catalog, "Metadata");
    ObjectId metadata_id;
    if (old_metadata && old_metadata->IsReference()) {
      metadata_id = *reference_of(*old_metadata);
    } else {
      metadata_id = b.numbers.next();
      catalog.AddKey(PdfName("Metadata"), reference(metadata_id));
    }
    b.put(metadata_id, metadata_stream, *packet);

    // Info
    auto info = reader.info();
    if (!info) return std::unexpected(info.error());
    PdfDictionary info_dict = info->value_or(PdfDictionary());
    info_dict.AddKey(PdfName(carrier::info_number), text(record.number().to_string()));
    info_dict.AddKey(PdfName(carrier::info_url), text(props.resolver_url));
    const ObjectId info_id = reader.info_id().value_or(b.numbers.next());
    b.put(info_id, info_dict);

    if (auto ok = add_embedded_bundle(b, record, options, catalog); !ok) return std::unexpected(ok.error());
    if (decided->badge)
      if (auto ok = add_badge(b, *decided->badge, record, options, plan); !ok) return std::unexpected(ok.error());

    b.put(*reader.root_id(), catalog);
    auto update = build_incremental_update(reader, last_of_each(b.objects), UpdateTrailer{*reader.root_id(), info_id});
    if (!update) return std::unexpected(update.error());
    plan.update = std::move(*update);
    return std::move(plan);
  });
}

}  // namespace pith::pdf
