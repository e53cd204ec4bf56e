// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The catalog of check codes: every dotted code a Report can carry, as a named
// constant. A code is a wire format (scripts match on it, `--json` carries it,
// pith-serve shows it): never respell one; a new finding gets a new code here
// and a row in docs/report-codes.md, which says what each means and with which
// status (the check_codes_test keeps the two lists equal). Code that emits or
// looks for a finding names it from here, never by a string literal.
#include <array>

namespace pith::check_code {

// JSON (signed_json, registry/verify)
inline constexpr const char* json_strict_invalid = "json.strict.invalid";

// The record (spec §1, §2)
inline constexpr const char* record_hash_match = "record.hash.match";
inline constexpr const char* record_hash_mismatch = "record.hash.mismatch";
inline constexpr const char* record_number_derived = "record.number.derived";
inline constexpr const char* record_number_match = "record.number.match";
inline constexpr const char* record_number_mismatch = "record.number.mismatch";
inline constexpr const char* record_shape_invalid = "record.shape.invalid";

// The receipt (spec §3)
inline constexpr const char* receipt_algorithm_unsupported = "receipt.algorithm.unsupported";
inline constexpr const char* receipt_hash_match = "receipt.hash.match";
inline constexpr const char* receipt_hash_mismatch = "receipt.hash.mismatch";
inline constexpr const char* receipt_key_id_missing = "receipt.key_id.missing";
inline constexpr const char* receipt_missing = "receipt.missing";
inline constexpr const char* receipt_shape_invalid = "receipt.shape.invalid";
inline constexpr const char* receipt_signature_invalid = "receipt.signature.invalid";
inline constexpr const char* receipt_signature_malformed = "receipt.signature.malformed";
inline constexpr const char* receipt_signature_unverified = "receipt.signature.unverified";
inline constexpr const char* receipt_signature_valid = "receipt.signature.valid";
inline constexpr const char* receipt_signature_status_invalid = "receipt.signature_status.invalid";
inline constexpr const char* receipt_signed_message_invalid = "receipt.signed_message.invalid";

// Events (spec §1, §3, §4)
inline constexpr const char* event_algorithm_unsupported = "event.algorithm.unsupported";
inline constexpr const char* event_equivocation = "event.equivocation";
inline constexpr const char* event_hash_match = "event.hash.match";
inline constexpr const char* event_hash_mismatch = "event.hash.mismatch";
inline constexpr const char* event_id_mismatch = "event.id.mismatch";
inline constexpr const char* event_key_id_missing = "event.key_id.missing";
inline constexpr const char* event_record_mismatch = "event.record.mismatch";
inline constexpr const char* event_reference_invalid = "event.reference.invalid";
inline constexpr const char* event_shape_invalid = "event.shape.invalid";
inline constexpr const char* event_signature_invalid = "event.signature.invalid";
inline constexpr const char* event_signature_malformed = "event.signature.malformed";
inline constexpr const char* event_signature_unverified = "event.signature.unverified";
inline constexpr const char* event_signature_valid = "event.signature.valid";
inline constexpr const char* event_signature_status_invalid = "event.signature_status.invalid";
inline constexpr const char* event_signed_message_invalid = "event.signed_message.invalid";
inline constexpr const char* event_signer_mismatch = "event.signer.mismatch";
inline constexpr const char* event_subject_mismatch = "event.subject.mismatch";

// The bundle (spec §1, §3, §4)
inline constexpr const char* bundle_algorithm_unsupported = "bundle.algorithm.unsupported";
inline constexpr const char* bundle_events_invalid = "bundle.events.invalid";
inline constexpr const char* bundle_hash_match = "bundle.hash.match";
inline constexpr const char* bundle_hash_mismatch = "bundle.hash.mismatch";
inline constexpr const char* bundle_key_id_missing = "bundle.key_id.missing";
inline constexpr const char* bundle_merge_version_unsupported = "bundle.merge_version.unsupported";
inline constexpr const char* bundle_number_missing = "bundle.number.missing";
inline constexpr const char* bundle_public_keys_hint = "bundle.public_keys.hint";
inline constexpr const char* bundle_public_keys_invalid = "bundle.public_keys.invalid";
inline constexpr const char* bundle_public_keys_mismatch = "bundle.public_keys.mismatch";
inline constexpr const char* bundle_public_keys_untrusted = "bundle.public_keys.untrusted";
inline constexpr const char* bundle_record_match = "bundle.record.match";
inline constexpr const char* bundle_record_mismatch = "bundle.record.mismatch";
inline constexpr const char* bundle_record_created_missing = "bundle.record_created.missing";
inline constexpr const char* bundle_short_number_match = "bundle.short_number.match";
inline constexpr const char* bundle_short_number_mismatch = "bundle.short_number.mismatch";
inline constexpr const char* bundle_signature_invalid = "bundle.signature.invalid";
inline constexpr const char* bundle_signature_malformed = "bundle.signature.malformed";
inline constexpr const char* bundle_signature_missing = "bundle.signature.missing";
inline constexpr const char* bundle_signature_unavailable = "bundle.signature.unavailable";
inline constexpr const char* bundle_signature_unverified = "bundle.signature.unverified";
inline constexpr const char* bundle_signature_valid = "bundle.signature.valid";
inline constexpr const char* bundle_signature_status_invalid = "bundle.signature_status.invalid";
inline constexpr const char* bundle_signed_message_invalid = "bundle.signed_message.invalid";
inline constexpr const char* bundle_source_match = "bundle.source.match";
inline constexpr const char* bundle_source_mismatch = "bundle.source.mismatch";
inline constexpr const char* bundle_source_aliases_match = "bundle.source_aliases.match";
inline constexpr const char* bundle_source_aliases_mismatch = "bundle.source_aliases.mismatch";
inline constexpr const char* bundle_type_invalid = "bundle.type.invalid";

// The state (spec §4)
inline constexpr const char* state_current_unsigned = "state.current.unsigned";
inline constexpr const char* state_equivocation = "state.equivocation";
inline constexpr const char* state_hash_match = "state.hash.match";
inline constexpr const char* state_hash_mismatch = "state.hash.mismatch";
inline constexpr const char* state_merge_version_unsupported = "state.merge_version.unsupported";
inline constexpr const char* state_missing = "state.missing";
inline constexpr const char* state_recomputed_match = "state.recomputed.match";
inline constexpr const char* state_recomputed_mismatch = "state.recomputed.mismatch";
inline constexpr const char* state_recomputed_skipped = "state.recomputed.skipped";
inline constexpr const char* state_record_match = "state.record.match";
inline constexpr const char* state_record_mismatch = "state.record.mismatch";
inline constexpr const char* state_source_aliases_match = "state.source_aliases.match";
inline constexpr const char* state_source_aliases_mismatch = "state.source_aliases.mismatch";
inline constexpr const char* state_type_invalid = "state.type.invalid";
inline constexpr const char* events_unavailable = "events.unavailable";

// Keys and trust (spec §3)
inline constexpr const char* key_fingerprint_mismatch = "key.fingerprint.mismatch";
inline constexpr const char* key_shipped_in_data = "key.shipped_in_data";
inline constexpr const char* key_untrusted = "key.untrusted";

// The resolver (a record looked up by number, arXiv id or short form)
inline constexpr const char* resolver_arxiv = "resolver.arxiv";
inline constexpr const char* resolver_cache_other_record = "resolver.cache.other_record";
inline constexpr const char* resolver_cache_rejected = "resolver.cache.rejected";
inline constexpr const char* resolver_cache_stale = "resolver.cache.stale";
inline constexpr const char* resolver_cache_write = "resolver.cache.write";
inline constexpr const char* resolver_offline = "resolver.offline";
inline constexpr const char* resolver_rejected = "resolver.rejected";
inline constexpr const char* resolver_short_form = "resolver.short_form";
inline constexpr const char* resolver_short_form_ambiguous = "resolver.short_form.ambiguous";
inline constexpr const char* resolver_source = "resolver.source";

// The registry now (pith-check without --offline)
inline constexpr const char* online_arxiv_versions = "online.arxiv.versions";
inline constexpr const char* online_corrections = "online.corrections";
inline constexpr const char* online_equivocation = "online.equivocation";
inline constexpr const char* online_events_dropped = "online.events.dropped";
inline constexpr const char* online_events_newer = "online.events.newer";
inline constexpr const char* online_events_superseded = "online.events.superseded";
inline constexpr const char* online_record_not_served = "online.record.not_served";
inline constexpr const char* online_rejected = "online.rejected";
inline constexpr const char* online_rollback = "online.rollback";
inline constexpr const char* online_unavailable = "online.unavailable";
inline constexpr const char* online_verified = "online.verified";

// PDFs (pith-check paper.pdf)
inline constexpr const char* pdf_abstract_visible_hidden = "pdf.abstract.visible_hidden";
inline constexpr const char* pdf_abstract_visible_match = "pdf.abstract.visible_match";
inline constexpr const char* pdf_abstract_visible_not_found = "pdf.abstract.visible_not_found";
inline constexpr const char* pdf_arxiv_absent = "pdf.arxiv.absent";
inline constexpr const char* pdf_arxiv_hidden = "pdf.arxiv.hidden";
inline constexpr const char* pdf_arxiv_link_only = "pdf.arxiv.link_only";
inline constexpr const char* pdf_arxiv_match = "pdf.arxiv.match";
inline constexpr const char* pdf_arxiv_mismatch = "pdf.arxiv.mismatch";
inline constexpr const char* pdf_arxiv_other_version = "pdf.arxiv.other_version";
inline constexpr const char* pdf_bundle_duplicate = "pdf.bundle.duplicate";
inline constexpr const char* pdf_bytes_edited_text_changed = "pdf.bytes.edited_text_changed";
inline constexpr const char* pdf_bytes_edited_text_unchanged = "pdf.bytes.edited_text_unchanged";
inline constexpr const char* pdf_bytes_edited_text_unknown = "pdf.bytes.edited_text_unknown";
inline constexpr const char* pdf_bytes_later_revisions = "pdf.bytes.later_revisions";
inline constexpr const char* pdf_bytes_prefix_broken = "pdf.bytes.prefix_broken";
inline constexpr const char* pdf_bytes_prefix_intact = "pdf.bytes.prefix_intact";
inline constexpr const char* pdf_bytes_rewritten = "pdf.bytes.rewritten";
inline constexpr const char* pdf_bytes_rewritten_text_changed = "pdf.bytes.rewritten_text_changed";
inline constexpr const char* pdf_bytes_rewritten_text_unchanged = "pdf.bytes.rewritten_text_unchanged";
inline constexpr const char* pdf_bytes_rewritten_text_unknown = "pdf.bytes.rewritten_text_unknown";
inline constexpr const char* pdf_bytes_unbound = "pdf.bytes.unbound";
inline constexpr const char* pdf_metadata_matches_record = "pdf.metadata.matches_record";
inline constexpr const char* pdf_number_conflict = "pdf.number.conflict";
inline constexpr const char* pdf_number_found = "pdf.number.found";
inline constexpr const char* pdf_number_matches_record = "pdf.number.matches_record";
inline constexpr const char* pdf_number_printed_differs = "pdf.number.printed_differs";
inline constexpr const char* pdf_page1_changed_after_stamping = "pdf.page1.changed_after_stamping";
inline constexpr const char* pdf_record_resolved = "pdf.record.resolved";
inline constexpr const char* pdf_record_source = "pdf.record.source";
inline constexpr const char* pdf_resolver_unknown_host = "pdf.resolver.unknown_host";
inline constexpr const char* pdf_title_changed_after_stamping = "pdf.title.changed_after_stamping";
inline constexpr const char* pdf_title_glyphs_match = "pdf.title.glyphs_match";
inline constexpr const char* pdf_title_glyphs_mismatch = "pdf.title.glyphs_mismatch";
inline constexpr const char* pdf_title_glyphs_unchecked = "pdf.title.glyphs_unchecked";
inline constexpr const char* pdf_title_glyphs_unread = "pdf.title.glyphs_unread";
inline constexpr const char* pdf_title_match = "pdf.title.match";
inline constexpr const char* pdf_title_mismatch = "pdf.title.mismatch";
inline constexpr const char* pdf_title_undetermined = "pdf.title.undetermined";
inline constexpr const char* pdf_title_visible_hidden = "pdf.title.visible_hidden";
inline constexpr const char* pdf_title_visible_match = "pdf.title.visible_match";
inline constexpr const char* pdf_title_visible_not_found = "pdf.title.visible_not_found";
inline constexpr const char* pdf_title_visible_undetermined = "pdf.title.visible_undetermined";

// The parsing child and the parent (pdf/facts, check/file)
inline constexpr const char* isolation_child_rejected = "isolation.child.rejected";
inline constexpr const char* isolation_parent_verified = "isolation.parent.verified";

// The codes one registry signature block can produce (registry/signature),
// for each of the three blocks: a receipt, an event's signature, the bundle's.
struct SignatureCodes {
  const char* algorithm_unsupported;
  const char* signature_status_invalid;
  const char* signed_message_invalid;
  const char* signature_malformed;
  const char* key_id_missing;
  const char* signature_unverified;
  const char* signature_valid;
  const char* signature_invalid;
};
inline constexpr SignatureCodes receipt_signature{
    receipt_algorithm_unsupported, receipt_signature_status_invalid, receipt_signed_message_invalid,
    receipt_signature_malformed,   receipt_key_id_missing,           receipt_signature_unverified,
    receipt_signature_valid,       receipt_signature_invalid};
inline constexpr SignatureCodes event_signature{
    event_algorithm_unsupported, event_signature_status_invalid, event_signed_message_invalid,
    event_signature_malformed,   event_key_id_missing,           event_signature_unverified,
    event_signature_valid,       event_signature_invalid};
inline constexpr SignatureCodes bundle_signature{
    bundle_algorithm_unsupported, bundle_signature_status_invalid, bundle_signed_message_invalid,
    bundle_signature_malformed,   bundle_key_id_missing,           bundle_signature_unverified,
    bundle_signature_valid,       bundle_signature_invalid};

// Every code above, once (the test compares it with docs/report-codes.md).
inline constexpr std::array all{  // the size counted by the compiler: one edit adds a code
    json_strict_invalid,
    record_hash_match,
    record_hash_mismatch,
    record_number_derived,
    record_number_match,
    record_number_mismatch,
    record_shape_invalid,
    receipt_algorithm_unsupported,
    receipt_hash_match,
    receipt_hash_mismatch,
    receipt_key_id_missing,
    receipt_missing,
    receipt_shape_invalid,
    receipt_signature_invalid,
    receipt_signature_malformed,
    receipt_signature_unverified,
    receipt_signature_valid,
    receipt_signature_status_invalid,
    receipt_signed_message_invalid,
    event_algorithm_unsupported,
    event_equivocation,
    event_hash_match,
    event_hash_mismatch,
    event_id_mismatch,
    event_key_id_missing,
    event_record_mismatch,
    event_reference_invalid,
    event_shape_invalid,
    event_signature_invalid,
    event_signature_malformed,
    event_signature_unverified,
    event_signature_valid,
    event_signature_status_invalid,
    event_signed_message_invalid,
    event_signer_mismatch,
    event_subject_mismatch,
    bundle_algorithm_unsupported,
    bundle_events_invalid,
    bundle_hash_match,
    bundle_hash_mismatch,
    bundle_key_id_missing,
    bundle_merge_version_unsupported,
    bundle_number_missing,
    bundle_public_keys_hint,
    bundle_public_keys_invalid,
    bundle_public_keys_mismatch,
    bundle_public_keys_untrusted,
    bundle_record_match,
    bundle_record_mismatch,
    bundle_record_created_missing,
    bundle_short_number_match,
    bundle_short_number_mismatch,
    bundle_signature_invalid,
    bundle_signature_malformed,
    bundle_signature_missing,
    bundle_signature_unavailable,
    bundle_signature_unverified,
    bundle_signature_valid,
    bundle_signature_status_invalid,
    bundle_signed_message_invalid,
    bundle_source_match,
    bundle_source_mismatch,
    bundle_source_aliases_match,
    bundle_source_aliases_mismatch,
    bundle_type_invalid,
    state_current_unsigned,
    state_equivocation,
    state_hash_match,
    state_hash_mismatch,
    state_merge_version_unsupported,
    state_missing,
    state_recomputed_match,
    state_recomputed_mismatch,
    state_recomputed_skipped,
    state_record_match,
    state_record_mismatch,
    state_source_aliases_match,
    state_source_aliases_mismatch,
    state_type_invalid,
    events_unavailable,
    key_fingerprint_mismatch,
    key_shipped_in_data,
    key_untrusted,
    resolver_arxiv,
    resolver_cache_other_record,
    resolver_cache_rejected,
    resolver_cache_stale,
    resolver_cache_write,
    resolver_offline,
    resolver_rejected,
    resolver_short_form,
    resolver_short_form_ambiguous,
    resolver_source,
    online_arxiv_versions,
    online_corrections,
    online_equivocation,
    online_events_dropped,
    online_events_newer,
    online_events_superseded,
    online_record_not_served,
    online_rejected,
    online_rollback,
    online_unavailable,
    online_verified,
    pdf_abstract_visible_hidden,
    pdf_abstract_visible_match,
    pdf_abstract_visible_not_found,
    pdf_arxiv_absent,
    pdf_arxiv_hidden,
    pdf_arxiv_link_only,
    pdf_arxiv_match,
    pdf_arxiv_mismatch,
    pdf_arxiv_other_version,
    pdf_bundle_duplicate,
    pdf_bytes_edited_text_changed,
    pdf_bytes_edited_text_unchanged,
    pdf_bytes_edited_text_unknown,
    pdf_bytes_later_revisions,
    pdf_bytes_prefix_broken,
    pdf_bytes_prefix_intact,
    pdf_bytes_rewritten,
    pdf_bytes_rewritten_text_changed,
    pdf_bytes_rewritten_text_unchanged,
    pdf_bytes_rewritten_text_unknown,
    pdf_bytes_unbound,
    pdf_metadata_matches_record,
    pdf_number_conflict,
    pdf_number_found,
    pdf_number_matches_record,
    pdf_number_printed_differs,
    pdf_page1_changed_after_stamping,
    pdf_record_resolved,
    pdf_record_source,
    pdf_resolver_unknown_host,
    pdf_title_changed_after_stamping,
    pdf_title_glyphs_match,
    pdf_title_glyphs_mismatch,
    pdf_title_glyphs_unchecked,
    pdf_title_glyphs_unread,
    pdf_title_match,
    pdf_title_mismatch,
    pdf_title_undetermined,
    pdf_title_visible_hidden,
    pdf_title_visible_match,
    pdf_title_visible_not_found,
    pdf_title_visible_undetermined,
    isolation_child_rejected,
    isolation_parent_verified};

}  // namespace pith::check_code
