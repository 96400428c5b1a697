// redactd review editor: the one module of the editor. Plain JavaScript,
// no framework, no build step. It reads its settings from data
// attributes of #editor, talks only to /review/api/ with the session
// cookie (HttpOnly: this script never sees it) and draws masks as SVG
// rects in PDF points over page images the server renders.

const root = document.getElementById('editor');
const DOC = root.dataset.doc;
const JOB = root.dataset.job;
const ROLE = root.dataset.role;
const REVIEWER = ROLE === 'reviewer';
const REASONS = root.dataset.reasons.split(',').filter(Boolean);
const CATEGORIES = root.dataset.categories.split(',').filter(Boolean);
const API = '/review/api';
const SVGNS = 'http://www.w3.org/2000/svg';

// Colour and dash pattern per category, so colour is never the only cue.
const STYLE = {
  Person: ['#d62728', ''], Email: ['#1f77b4', '6 3'], PhoneNumber: ['#2ca02c', '2 2'],
  Address: ['#9467bd', '8 3 2 3'], Organization: ['#ff7f0e', '4 4'], Date: ['#8c564b', '1 3'],
  IBAN: ['#e377c2', '10 2'], CreditCard: ['#17becf', '3 6'], NationalID: ['#bcbd22', '6 2 1 2'],
  Face: ['#7f7f7f', '2 4 8 4'], Signature: ['#004d40', '14 3 3 3'], Barcode: ['#aec7e8', '1 1'],
  IncludedTerm: ['#555555', '12 4'],
};

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, text) => {
  const e = tag === 'rect' || tag === 'title' || tag === 'g' ? document.createElementNS(SVGNS, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
};

let state = null;         // {version, pages, masks, leaks}
let pageNo = 1;
let zoom = 1.25;          // screen pixels per point
let selected = null;      // local key of the selected mask
let drawing = false;
let dirty = false;
let sortKey = 'score', sortAsc = true;
let hits = [];            // search hits on this job
const hidden = new Set(); // categories switched off
const undoStack = [], redoStack = [];
let nextKey = 1;

function status(msg, kind = '') {
  const s = $('status');
  s.textContent = msg;
  s.className = kind;
}

function keyed(masks) {
  return masks.map((m) => ({ ...m, _k: m.id || 'n' + nextKey++ }));
}

async function api(method, path, body, headers = {}) {
  const opts = { method, headers: { ...headers }, credentials: 'same-origin' };
  if (body !== undefined) {
    opts.body = JSON.stringify(body);
    opts.headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(API + path, opts);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

async function load() {
  const st = await api('GET', `/docs/${DOC}/state`);
  state = { version: st.version, pages: st.pages, masks: keyed(st.masks), leaks: st.leaks || [] };
  dirty = false;
  renderAll();
  renderLeaks();
  loadSummary();
}

// renderLeaks lists what the re-scan of the last apply still read as PII
// and outlines it on the burned layer; an unexpected one can be masked.
function renderLeaks() {
  const box = $('leaks');
  const ov = $('burn-overlay');
  const { width, height } = pageSize();
  ov.setAttribute('viewBox', `0 0 ${width} ${height}`);
  ov.setAttribute('width', Math.round(width * zoom));
  ov.setAttribute('height', Math.round(height * zoom));
  ov.replaceChildren();
  box.replaceChildren();
  const leaks = state.leaks || [];
  for (const l of leaks) {
    if (l.page !== pageNo) continue;
    const r = el('rect', { x: l.x0 - 1, y: l.y0 - 1, width: l.x1 - l.x0 + 2, height: l.y1 - l.y0 + 2, class: l.expected ? 'leak expected' : 'leak' });
    r.append(el('title', {}, `still readable: ${l.category} (${l.recognizer}, ${l.score.toFixed(2)})${l.expected ? ', under a rejected mask' : ''}`));
    ov.append(r);
  }
  if (!leaks.length) return;
  const bad = leaks.filter((l) => !l.expected);
  box.append(el('h3', {}, bad.length ? `Still readable after apply: ${bad.length}` : 'Still readable after apply: only what you rejected'));
  const ul = el('ul');
  for (const l of leaks) {
    const li = el('li', { class: l.expected ? 'expected' : 'unexpected' }, `page ${l.page}: ${l.category} (${l.recognizer}) ${l.expected ? '— rejected on purpose' : ''} `);
    const go = el('button', { type: 'button' }, 'show');
    go.addEventListener('click', () => { pageNo = l.page; renderThumbs(); renderPage(); });
    li.append(go);
    if (!l.expected && REVIEWER) {
      const fix = el('button', { type: 'button' }, 'mask it');
      fix.addEventListener('click', () => {
        snapshot();
        state.masks.push({ page: l.page, x0: l.x0, y0: l.y0, x1: l.x1, y1: l.y1, category: CATEGORIES.includes(l.category) ? l.category : 'Person',
          source: 'manual', recognizer: '', score: 0, status: 'accepted', reason: '', _k: 'n' + nextKey++ });
        renderAll();
        status('Masked; apply again to burn it', 'warn');
      });
      li.append(fix);
    }
    ul.append(li);
  }
  box.append(ul);
}

function pageSize() {
  return state.pages[pageNo - 1] || { width: 612, height: 792 };
}

function dpi() {
  return Math.min(300, Math.round(72 * zoom * (window.devicePixelRatio || 1)));
}

function renderAll() {
  renderThumbs();
  renderPage();
  renderTable();
  renderSelected();
}

function renderThumbs() {
  const nav = $('thumbs');
  if (nav.childElementCount === state.pages.length) {
    for (const b of nav.children) b.setAttribute('aria-current', String(Number(b.dataset.page) === pageNo));
    return;
  }
  nav.replaceChildren();
  for (const p of state.pages) {
    const b = el('button', { type: 'button', 'data-page': p.page, 'aria-current': String(p.page === pageNo), title: `Page ${p.page}` });
    b.append(el('img', { src: `${API}/docs/${DOC}/pages/${p.page}/burned.png?dpi=12&v=${state.version}`, alt: `Page ${p.page}`, loading: 'lazy' }), el('span', {}, String(p.page)));
    b.addEventListener('click', () => goPage(p.page));
    nav.append(b);
  }
}

function goPage(n) {
  if (n < 1 || n > state.pages.length || n === pageNo) return;
  pageNo = n;
  renderThumbs();
  renderPage();
}

let burnStamp = 0;
function renderPage() {
  const { width, height } = pageSize();
  const w = Math.round(width * zoom), h = Math.round(height * zoom);
  $('zoom-level').textContent = Math.round((zoom / 1.25) * 100) + '%';
  const burned = $('burned');
  burned.width = w; burned.height = h;
  burned.src = `${API}/docs/${DOC}/pages/${pageNo}/burned.png?dpi=${dpi()}&v=${state.version}.${burnStamp}`;
  renderLeaks();
  if (!REVIEWER) return;
  const img = $('orig');
  img.width = w; img.height = h;
  img.src = `${API}/docs/${DOC}/pages/${pageNo}/original.png?dpi=${dpi()}`;
  const svg = $('overlay');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('width', w);
  svg.setAttribute('height', h);
  renderRects();
}

function renderRects() {
  const svg = $('overlay');
  if (!svg) return; // viewers have no original layer
  svg.replaceChildren();
  for (const hit of hits) {
    if (hit.doc !== DOC || hit.page !== pageNo) continue;
    svg.append(el('rect', { x: hit.x0 - 1, y: hit.y0 - 1, width: hit.x1 - hit.x0 + 2, height: hit.y1 - hit.y0 + 2, class: 'hit' }));
  }
  for (const m of state.masks) {
    if (m.page !== pageNo || hidden.has(m.category)) continue;
    const [color, dash] = STYLE[m.category] || ['#000', ''];
    const r = el('rect', {
      x: m.x0, y: m.y0, width: m.x1 - m.x0, height: m.y1 - m.y0,
      stroke: color, fill: color, 'stroke-dasharray': dash, 'data-key': m._k,
      class: `mask ${m.status}${m._k === selected ? ' selected' : ''}`,
    });
    const score = m.source === 'manual' || m.source === 'search' ? '' : ` · score ${m.score.toFixed(2)}`;
    r.append(el('title', {}, `${m.category} · ${m.source}${m.recognizer ? ' · ' + m.recognizer : ''}${score} · ${m.status}${m.reason ? ' · ' + m.reason : ''}`));
    r.addEventListener('mousedown', (ev) => {
      if (drawing) return;
      ev.stopPropagation();
      select(m._k);
    });
    svg.append(r);
    if (m._k === selected && REVIEWER) {
      const hnd = el('rect', { x: m.x1 - 3, y: m.y1 - 3, width: 6, height: 6, class: 'handle' });
      hnd.append(el('title', {}, 'Drag to resize'));
      hnd.addEventListener('mousedown', (ev) => startResize(ev, m));
      svg.append(hnd);
    }
  }
}

function toPoints(ev) {
  const svg = $('overlay');
  const r = svg.getBoundingClientRect();
  const { width, height } = pageSize();
  return {
    x: Math.max(0, Math.min(width, ((ev.clientX - r.left) / r.width) * width)),
    y: Math.max(0, Math.min(height, ((ev.clientY - r.top) / r.height) * height)),
  };
}

function snapshot() {
  undoStack.push(JSON.stringify(state.masks));
  if (undoStack.length > 200) undoStack.shift();
  redoStack.length = 0;
  dirty = true;
}

function undo() {
  if (!undoStack.length) return;
  redoStack.push(JSON.stringify(state.masks));
  state.masks = JSON.parse(undoStack.pop());
  dirty = true;
  renderAll();
}

function redo() {
  if (!redoStack.length) return;
  undoStack.push(JSON.stringify(state.masks));
  state.masks = JSON.parse(redoStack.pop());
  dirty = true;
  renderAll();
}

function startResize(ev, m) {
  ev.stopPropagation();
  ev.preventDefault();
  snapshot();
  const move = (e) => {
    const p = toPoints(e);
    m.x1 = Math.max(m.x0 + 1, p.x);
    m.y1 = Math.max(m.y0 + 1, p.y);
    renderRects();
  };
  const up = () => {
    window.removeEventListener('mousemove', move);
    window.removeEventListener('mouseup', up);
    renderTable();
  };
  window.addEventListener('mousemove', move);
  window.addEventListener('mouseup', up);
}

function setDrawing(on) {
  drawing = on;
  $('draw')?.setAttribute('aria-pressed', String(on));
  $('overlay')?.classList.toggle('drawing', on);
}

function installDrawing() {
  const svg = $('overlay');
  let start = null, temp = null;
  svg.addEventListener('mousedown', (ev) => {
    if (!drawing || !REVIEWER) {
      select(null);
      return;
    }
    ev.preventDefault();
    start = toPoints(ev);
    temp = el('rect', { class: 'mask temp', x: start.x, y: start.y, width: 0, height: 0 });
    svg.append(temp);
  });
  svg.addEventListener('mousemove', (ev) => {
    if (!start) return;
    const p = toPoints(ev);
    temp.setAttribute('x', Math.min(p.x, start.x));
    temp.setAttribute('y', Math.min(p.y, start.y));
    temp.setAttribute('width', Math.abs(p.x - start.x));
    temp.setAttribute('height', Math.abs(p.y - start.y));
  });
  svg.addEventListener('mouseup', (ev) => {
    if (!start) return;
    const p = toPoints(ev);
    const m = {
      page: pageNo, x0: Math.min(p.x, start.x), y0: Math.min(p.y, start.y), x1: Math.max(p.x, start.x), y1: Math.max(p.y, start.y),
      category: $('sel-cat').value || 'Person', source: 'manual', recognizer: '', score: 0, status: 'accepted',
      reason: $('sel-reason').value || '', _k: 'n' + nextKey++,
    };
    start = null;
    temp.remove();
    if (m.x1 - m.x0 < 2 || m.y1 - m.y0 < 2) return;
    for (const k of ['x0', 'y0', 'x1', 'y1']) m[k] = Math.round(m[k] * 100) / 100;
    snapshot();
    state.masks.push(m);
    setDrawing(false);
    select(m._k);
    renderTable();
    status(`Added a ${m.category} mask on page ${m.page}; save or apply to keep it`);
  });
}

function find(k) {
  return state.masks.find((m) => m._k === k);
}

function select(k) {
  selected = k;
  const m = k && find(k);
  if (m && m.page !== pageNo) {
    pageNo = m.page;
    renderThumbs();
    renderPage();
  } else {
    renderRects();
  }
  renderSelected();
  for (const tr of $('table').tBodies[0].rows) {
    const on = tr.dataset.key === k;
    tr.classList.toggle('selected', on);
    if (on) tr.scrollIntoView({ block: 'nearest' });
  }
}

function renderSelected() {
  const box = $('selected');
  const m = selected && find(selected);
  box.hidden = !m;
  if (!m) return;
  $('sel-info').textContent = `${m.id || '(new)'} · page ${m.page} · ${m.source}${m.recognizer ? ' / ' + m.recognizer : ''}` +
    (m.source === 'manual' || m.source === 'search' ? '' : ` · score ${m.score.toFixed(2)}`) + ` · ${m.status}`;
  $('sel-cat').value = m.category;
  $('sel-reason').value = m.reason || '';
  for (const id of ['sel-cat', 'sel-reason', 'accept', 'reject', 'delete']) $(id).disabled = !REVIEWER;
}

function setStatus(st) {
  const m = selected && find(selected);
  if (!m || !REVIEWER || m.status === st) return;
  snapshot();
  m.status = st;
  renderRects();
  renderTable();
  renderSelected();
}

function deleteSelected() {
  const m = selected && find(selected);
  if (!m || !REVIEWER) return;
  if (m.source !== 'manual' && m.source !== 'search') {
    status('Detections cannot be deleted; reject them instead (r)', 'warn');
    return;
  }
  snapshot();
  state.masks = state.masks.filter((x) => x !== m);
  selected = null;
  renderAll();
}

function ordered() {
  const list = state.masks.filter((m) => !hidden.has(m.category));
  const dir = sortAsc ? 1 : -1;
  list.sort((a, b) => {
    const x = a[sortKey], y = b[sortKey];
    if (x < y) return -dir;
    if (x > y) return dir;
    return a.page - b.page || a.y0 - b.y0;
  });
  return list;
}

function renderTable() {
  const body = $('table').tBodies[0];
  body.replaceChildren();
  for (const m of ordered()) {
    const tr = el('tr', { 'data-key': m._k, class: `${m.status}${m._k === selected ? ' selected' : ''}`, tabindex: '-1' });
    const [color] = STYLE[m.category] || ['#000'];
    const cat = el('td');
    cat.append(el('span', { class: 'swatch', 'data-cat': m.category }), document.createTextNode(m.category));
    cat.firstChild.style.borderColor = color;
    tr.append(el('td', {}, String(m.page)), cat, el('td', {}, m.source),
      el('td', { class: 'num' }, m.source === 'manual' || m.source === 'search' ? '–' : m.score.toFixed(2)), el('td', {}, m.status));
    tr.addEventListener('click', () => select(m._k));
    body.append(tr);
  }
  for (const th of $('table').tHead.rows[0].cells) {
    const k = th.firstElementChild.dataset.sort;
    th.setAttribute('aria-sort', k === sortKey ? (sortAsc ? 'ascending' : 'descending') : 'none');
  }
}

function step(dir) {
  const list = ordered();
  if (!list.length) return;
  const i = list.findIndex((m) => m._k === selected);
  const n = i < 0 ? (dir > 0 ? 0 : list.length - 1) : (i + dir + list.length) % list.length;
  select(list[n]._k);
}

function body() {
  return state.masks.map(({ _k, ...m }) => {
    const out = { ...m };
    if (!out.id) delete out.id;
    return out;
  });
}

async function save() {
  if (!REVIEWER) return;
  const st = await api('PUT', `/docs/${DOC}/masks`, { masks: body() }, { 'If-Match': `"${state.version}"` });
  const sel = selected && find(selected);
  state = { version: st.version, pages: st.pages, masks: keyed(st.masks) };
  if (sel) {
    const again = state.masks.find((m) => m.page === sel.page && m.x0 === sel.x0 && m.y0 === sel.y0);
    selected = again ? again._k : null;
  }
  dirty = false;
  renderAll();
  status(`Saved (version ${state.version})`, 'ok');
}

async function apply() {
  if (!REVIEWER) return;
  let saved = false;
  try {
    document.body.dataset.state = 'applying';
    if (dirty) await save();
    saved = true;
    status('Applying: re-burning from the original…');
    const res = await api('POST', `/docs/${DOC}/apply`);
    burnStamp++;
    await load();
    document.body.dataset.state = 'applied';
    const bad = res.leaks.filter((l) => !l.expected).length;
    const scan = res.rescanned ? (bad ? ` The re-scan still reads ${bad} item(s) as PII: see the list.` : ' The re-scan of the output found nothing unexpected.') : ' (No re-scan: OCR is off.)';
    status(`Applied in ${res.apply_ms} ms: the output now has every mask that is not rejected (version ${res.version}).${scan}`, bad ? 'warn' : 'ok');
  } catch (err) {
    // A refused apply keeps the old output; the state (saved, so nothing
    // unsaved is lost) lists what the re-scan still read in the refused
    // one, to mask it and apply again.
    if (saved) await load().catch(() => {});
    document.body.dataset.state = 'failed';
    status(`Apply failed: ${err.message}`, 'error');
  }
}

async function search(ev) {
  ev?.preventDefault();
  const q = $('search').value.trim();
  if (!q) return;
  const res = await api('GET', `/jobs/${JOB}/search?q=${encodeURIComponent(q)}`);
  hits = res.hits;
  const here = hits.filter((h) => h.doc === DOC).length;
  $('search-result').textContent = `${hits.length} in the job, ${here} in this document`;
  renderRects();
}

async function termAction(action) {
  const q = $('search').value.trim();
  if (!q) return;
  if (dirty) await save();
  const res = await api('POST', `/jobs/${JOB}/terms`, { q, action, category: $('sel-cat').value || 'Person', reason: $('sel-reason').value || '' });
  const n = Object.keys(res.versions).length;
  await load();
  status(`${action === 'redact' ? 'Redacted' : 'Excluded'} "${q}" in ${n} document(s)`, 'ok');
}

async function loadSummary() {
  try {
    const s = await api('GET', `/jobs/${JOB}/summary`);
    const c = s.counts.by_status;
    $('counts').replaceChildren(el('h3', {}, 'Job counts'),
      el('p', {}, `suggested ${c.suggested || 0} · accepted ${c.accepted || 0} · rejected ${c.rejected || 0} · added ${c.added || 0}`));
    const t = el('table', { class: 'counts' });
    t.append(el('tr', {}, ''));
    t.rows[0].append(el('th', { scope: 'col' }, 'category'), el('th', { scope: 'col' }, 'suggested'), el('th', { scope: 'col' }, 'accepted'), el('th', { scope: 'col' }, 'rejected'));
    for (const [cat, by] of Object.entries(s.counts.by_category)) {
      const tr = el('tr');
      tr.append(el('td', {}, cat), el('td', { class: 'num' }, String(by.suggested || 0)), el('td', { class: 'num' }, String(by.accepted || 0)), el('td', { class: 'num' }, String(by.rejected || 0)));
      t.append(tr);
    }
    const src = el('p', {}, 'by source: ' + Object.entries(s.counts.by_source).map(([k, v]) => `${k} ${Object.values(v).reduce((a, b) => a + b, 0)}`).join(' · '));
    $('counts').append(t, src);
    const w = $('warnings');
    w.replaceChildren();
    if (s.warnings.length) {
      w.append(el('h3', {}, 'Masked in one place, not in another'));
      const ul = el('ul');
      for (const x of s.warnings.slice(0, 50)) {
        const li = el('li', {}, `${x.term}: masked ${x.masked}×, readable ${x.unmasked}× `);
        const b = el('button', { type: 'button' }, 'find');
        b.addEventListener('click', () => { $('search').value = x.term; search(); });
        li.append(b);
        ul.append(li);
      }
      w.append(ul);
    }
  } catch (err) {
    $('counts').textContent = `counts unavailable: ${err.message}`;
  }
}

function setZoom(f) {
  zoom = Math.max(0.5, Math.min(4, zoom * f));
  renderPage();
}

function installControls() {
  const catSel = $('sel-cat');
  for (const c of CATEGORIES) catSel.append(el('option', { value: c }, c));
  const reasonSel = $('sel-reason');
  for (const r of REASONS) reasonSel.append(el('option', { value: r }, r));
  catSel.addEventListener('change', () => {
    const m = selected && find(selected);
    if (m && m.category !== catSel.value) { snapshot(); m.category = catSel.value; renderRects(); renderTable(); }
  });
  reasonSel.addEventListener('change', () => {
    const m = selected && find(selected);
    if (m && m.reason !== reasonSel.value) { snapshot(); m.reason = reasonSel.value; renderSelected(); }
  });
  const cats = $('cats');
  for (const c of CATEGORIES) {
    const [color] = STYLE[c] || ['#000'];
    const label = el('label');
    const box = el('input', { type: 'checkbox', checked: '', 'data-cat': c });
    box.addEventListener('change', () => { if (box.checked) hidden.delete(c); else hidden.add(c); renderRects(); renderTable(); });
    const sw = el('span', { class: 'swatch', 'data-cat': c });
    sw.style.borderColor = color;
    label.append(box, sw, document.createTextNode(c));
    cats.append(label);
  }
  for (const b of $('table').tHead.querySelectorAll('button[data-sort]')) {
    b.addEventListener('click', () => {
      if (sortKey === b.dataset.sort) sortAsc = !sortAsc; else { sortKey = b.dataset.sort; sortAsc = true; }
      renderTable();
    });
  }
  $('zoom-in').addEventListener('click', () => setZoom(1.25));
  $('zoom-out').addEventListener('click', () => setZoom(0.8));
  $('help-btn').addEventListener('click', () => $('help').showModal());
  $('accept').addEventListener('click', () => setStatus('accepted'));
  $('reject').addEventListener('click', () => setStatus('rejected'));
  $('delete').addEventListener('click', deleteSelected);
  if (REVIEWER) {
    $('draw').addEventListener('click', () => setDrawing(!drawing));
    $('undo').addEventListener('click', undo);
    $('redo').addEventListener('click', redo);
    $('save').addEventListener('click', () => save().catch((e) => status(`Save failed: ${e.message}`, 'error')));
    $('apply').addEventListener('click', apply);
    $('search-form').addEventListener('submit', (e) => search(e).catch((x) => status(x.message, 'error')));
    $('redact-all').addEventListener('click', () => termAction('redact').catch((x) => status(x.message, 'error')));
    $('exclude-all').addEventListener('click', () => termAction('exclude').catch((x) => status(x.message, 'error')));
    installDrawing();
  }
  document.addEventListener('keydown', onKey);
  window.addEventListener('beforeunload', (e) => { if (dirty) e.preventDefault(); });
}

function onKey(ev) {
  const t = ev.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
  const k = ev.key;
  if ((ev.ctrlKey || ev.metaKey) && (k === 'z' || k === 'Z')) {
    ev.preventDefault();
    if (ev.shiftKey) redo(); else undo();
    return;
  }
  if ((ev.ctrlKey || ev.metaKey) && k === 'y') { ev.preventDefault(); redo(); return; }
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  switch (k) {
    case 'j': step(1); break;
    case 'k': step(-1); break;
    case 'a': setStatus('accepted'); break;
    case 'r': setStatus('rejected'); break;
    case 'd': if (REVIEWER) setDrawing(!drawing); break;
    case 'Delete': case 'Backspace': deleteSelected(); break;
    case '+': case '=': setZoom(1.25); break;
    case '-': setZoom(0.8); break;
    case '?': $('help').showModal(); break;
    case 'Escape': setDrawing(false); select(null); break;
    default: return;
  }
  ev.preventDefault();
}

installControls();
load().then(() => { document.body.dataset.state = 'ready'; status(REVIEWER ? 'Least certain detections first. Press ? for shortcuts.' : 'View only: the burned output.'); })
  .catch((err) => status(`Could not load the review: ${err.message}`, 'error'));
