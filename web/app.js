// pith-serve's page. Every string shown comes from a PDF or the network and is
// hostile: text is only ever inserted with textContent (never innerHTML), and
// links only to arxiv.org addresses the server built.
'use strict';

const verdictWords = {
  verified: 'This PDF is the registered paper: its record is genuine and the paper shows it.',
  altered: 'The record inside is genuine and page 1 shows it, but the text of this PDF changed after it was stamped: this is not the paper as registered.',
  failed: 'Warning: this file does not match its registered record. It was altered after registration, or the record in it is forged.',
  unbound: 'The record inside is genuine, but nothing a reader sees on page 1 (its title, its abstract, arXiv’s watermark) is that record’s, and a title in the metadata alone proves nothing: it does not show that this PDF is the paper.',
  unverifiable: 'This cannot be verified: nothing in it is signed by a key we trust.',
  not_found: 'No Pith Number in this file: it was never stamped, or the stamp was removed.',
  error: 'This file could not be checked.',
};
// A registry file (a bundle, a state, a record) is not a paper: its record
// can be genuine, but no PDF was shown, so nothing says a paper is this one.
const registryFileWords = {
  verified: 'This registry file’s record is genuine: the registry signed it with a key we trust. It is a registry file, not a PDF, so no paper was shown: check the PDF itself to know it is this paper.',
  failed: 'Warning: this registry file does not verify. It was altered after the registry signed it, or it is forged.',
};
const bindingNames = {  // in the order shown
  visible_title: 'Title on page 1',
  arxiv_id: 'arXiv id',
  stamped_bytes: 'Stamped bytes',
  metadata_title: 'Title in the metadata (a hint only)',
  visible_abstract: 'Abstract on page 1',
};
const completenessNames = {
  timestamp_proofs: 'timestamp proofs', timestamp_anchors: 'timestamp anchors',
  storage_attestations: 'storage attestations', author_attestations: 'author claims',
  citation_signatures: 'citations', replication_records: 'replications',
  corrections: 'corrections', graph_snapshots: 'graph snapshots',
};

const $ = (id) => document.getElementById(id);

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

function clear(node) { node.replaceChildren(); }

function addRow(list, term, value, className) {
  list.append(el('dt', term));
  const dd = el('dd', '', className);
  if (value instanceof Node) dd.append(value); else dd.textContent = String(value);
  list.append(dd);
}

// The title between the quotes of the visible-title binding's detail.
function titleFrom(detail) {
  const quoted = /[“"](.+)[”"]/.exec(detail || '');
  return quoted ? quoted[1] : '';
}

function showBindings(bindings, isPdf) {
  const list = $('bindings');
  clear(list);
  const known = Object.keys(bindingNames).filter((key) => bindings && key in bindings);
  const others = Object.keys(bindings || {}).filter((key) => !(key in bindingNames));
  const entries = known.concat(others).map((key) => [key, bindings[key]]);
  if (entries.length === 0) {
    addRow(list, 'Bindings', isPdf ? 'none: this is not a PDF with a verified record'
      : 'none: a registry file has no page to tie its record to');
  }
  for (const [key, binding] of entries) {
    const state = binding && typeof binding.state === 'string' ? binding.state : 'undetermined';
    addRow(list, bindingNames[key] || key, state + ' — ' + (binding && binding.detail ? binding.detail : ''), 'state-' + state);
  }
  // Only a title a reader sees: a hidden one is in the detail too, quoted.
  const seen = bindings && bindings.visible_title && bindings.visible_title.state === 'match';
  const title = seen ? titleFrom(bindings.visible_title.detail) : '';
  $('title').textContent = title || '—';
}

const evidenceCaptions = {
  visible_title: 'The record’s title on page 1, as a reader sees it.',
  visible_abstract: 'The record’s abstract on page 1, as a reader sees it.',
  arxiv_id: 'arXiv’s watermark on page 1, as a reader sees it.',
};

// The crop of page 1 the server rendered where the binding was seen (a PNG
// it encoded itself): shown only as an image, only from base64.
function showEvidence(evidence) {
  const png = evidence && typeof evidence.png_base64 === 'string' && /^[A-Za-z0-9+/]+={0,2}$/.test(evidence.png_base64)
    ? evidence.png_base64 : '';
  $('evidence').hidden = !png;
  if (png) $('evidence-image').src = 'data:image/png;base64,' + png; else $('evidence-image').removeAttribute('src');
  $('evidence-caption').textContent = png ? (evidenceCaptions[evidence.binding] || '') : '';
}

function showCompleteness(panel) {
  const list = $('completeness');
  clear(list);
  if (!panel || typeof panel !== 'object') { list.append(el('li', 'not available')); return; }
  for (const [key, name] of Object.entries(completenessNames)) {
    if (!(key in panel)) continue;
    const n = Number(panel[key]) || 0;
    list.append(el('li', name + ': ' + (n > 0 ? 'present (' + n + ')' : 'absent')));
  }
}

function showChecks(checks) {
  const list = $('checks');
  clear(list);
  for (const check of checks || []) {
    const item = el('li');
    item.append(el('span', check.status, 'status-' + check.status), ' ', el('code', check.code), ' ', check.detail || '');
    list.append(item);
  }
}

function showRecord(view) {
  const list = $('record');
  clear(list);
  const record = view && view.record;
  if (!record) {
    addRow(list, 'Record', 'the registry record could not be looked up' +
      (view && view.check && view.check.error ? ': ' + view.check.error : ''));
    return;
  }
  addRow(list, 'Pith Number', record.pith_number);
  if (record.arxiv_url && record.arxiv_url.startsWith('https://arxiv.org/abs/')) {
    const link = el('a', 'arXiv:' + record.source_id);
    link.href = record.arxiv_url;
    link.rel = 'noopener noreferrer';
    addRow(list, 'Paper', link);
  } else if (record.source_id) {
    addRow(list, 'Source', record.source_kind + ' ' + record.source_id);
  }
  if (record.submitted_at) addRow(list, 'Submitted', record.submitted_at);
  if (record.registered_at) addRow(list, 'Registered', record.registered_at);
  addRow(list, 'Status', view.status);
  const events = $('events');
  clear(events);
  for (const event of view.events || []) {
    events.append(el('li', (event.created_at || '?') + ' — ' + (event.type || 'event')));
  }
  if (!view.events || view.events.length === 0) events.append(el('li', 'none in the registry’s copy'));
  if (view.completeness) showCompleteness(view.completeness);
}

async function lookUp(number) {
  try {
    const answer = await fetch('/api/v1/pith/' + encodeURIComponent(number));
    showRecord(await answer.json());
  } catch (e) {
    showRecord(null);
  }
}

function showReport(report) {
  $('result').hidden = false;
  const verdict = typeof report.verdict === 'string' ? report.verdict : 'error';
  $('verdict-box').className = verdict;
  $('verdict').textContent = verdict.replace('_', ' ');
  const isPdf = report.kind === 'pdf';
  let words = (!isPdf && registryFileWords[verdict]) || verdictWords[verdict] || verdict;
  if (verdict === 'error' && report.error) words += ' ' + report.error;
  const pageText = (report.details || {}).page_text;
  if (verdict === 'altered' && pageText && Array.isArray(pageText.changed_pages) && pageText.changed_pages.length > 0) {
    words += ' Changed: page' + (pageText.changed_pages.length > 1 ? 's ' : ' ') + pageText.changed_pages.join(', ') + '.';
  }
  // Nothing a reader must know stays below the verdict: every warning is named here.
  const warnings = Array.isArray(report.warnings) ? report.warnings : [];
  if (warnings.length > 0) words += ' ' + warnings.length + (warnings.length === 1 ? ' warning: ' : ' warnings: ') + warnings.join(', ') + ' (see the checks below).';
  $('verdict-text').textContent = words;
  $('number').textContent = report.pith_number ? 'Pith Number: ' + report.pith_number : '';
  const details = report.details || {};
  showBindings(details.bindings, isPdf);
  showEvidence(details.evidence);
  showCompleteness(details.completeness || (details.carried && details.carried.completeness));
  showChecks(report.checks);
  clear($('events'));
  $('raw').textContent = JSON.stringify(report, null, 2);
  if (report.pith_number) lookUp(report.pith_number); else showRecord(null);
}

async function check(file) {
  $('status').textContent = 'Checking ' + file.name + '…';
  $('result').hidden = true;
  const form = new FormData();
  form.append('file', file, file.name);
  try {
    const answer = await fetch('/api/v1/check', { method: 'POST', body: form });
    const body = await answer.json();
    if (!answer.ok) {
      $('status').textContent = 'Not checked: ' + (body.error || answer.status);
      return;
    }
    $('status').textContent = 'Checked ' + file.name + '.';
    showReport(body);
  } catch (e) {
    $('status').textContent = 'The check failed: ' + e;
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const drop = $('drop');
  const input = $('file');
  input.addEventListener('change', () => { if (input.files.length > 0) check(input.files[0]); });
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    if (e.dataTransfer.files.length > 0) check(e.dataTransfer.files[0]);
  });
});
