#!/usr/bin/env node
// map.mjs — the browser suite of the page's shell: the architecture map (drawn from the trace,
// the block on screen marked, every block a link to its first step, heads selectable, redrawn
// as the model changes: encoder-only classifier, 3 layers, pre- vs post-norm, the backward
// pass), the phone layout (the step first, the input and the map one tap away; on a first
// visit the first matrix on the first screen), Next within three Tabs, the opening shown once,
// the timing line naming where the weights come from, and the German strings. The blocks' first steps are
// checked against the native CLI's --json trace (its `place`), not against the page itself.
//
//   node tests/browser/map.mjs [--cli build/native-release/encoder-walkthrough] [--dist dist]
//                              [--chromium /usr/bin/chromium] [--artifacts artifacts]
// Prints `N passed, M failed`; exits non-zero on failure.
import { mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium, checks, assert, requireFiles } from '../harness.mjs';

const cli = path.resolve(root, arg('--cli', 'build/native-release/encoder-walkthrough'));
const dist = path.resolve(root, arg('--dist', 'dist'));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const artifacts = path.resolve(root, arg('--artifacts', 'artifacts'));
requireFiles('map suite', [['native CLI', cli], ['built site', path.join(dist, 'index.html')], ['Chromium', exe]]);
mkdirSync(artifacts, { recursive: true });

const { check, results } = checks(6);
const { server, url: base } = await startServer(dist, 0);
const browser = await launchChromium(chromium, exe);
const problems = [];

// The native trace of a preset (optionally with another text): the outside truth of places.
function cliTrace(preset, text) {
  const args = ['--preset', preset, '--json', ...(text ? ['--text', text] : [])];
  return JSON.parse(execFileSync(cli, args, { maxBuffer: 1 << 30, encoding: 'utf8' }));
}
const firstIn = (tr, f) => tr.steps.find((s) => f(s.place, s));
// Waits until the page has drawn step number `index` (0-based): the document title is set
// last, after the map is marked.
const shown = (page, index) => page.waitForFunction((n) => document.title.startsWith(`${n}. `), index + 1, { timeout: 8000 });
const indexOf = (tr, id) => tr.steps.findIndex((s) => s.id === id);

async function newPage(viewport = { width: 1400, height: 1000 }) {
  const ctx = await browser.newContext({ viewport });
  const page = await ctx.newPage();
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  return page;
}
async function open(page, query = '') {
  await page.goto(base + query);
  await page.waitForFunction(() => window.encoderWalkthrough, null, { timeout: 20000 });
  await page.evaluate(() => window.encoderWalkthrough.ready);
}
const state = (page) => page.evaluate(() => window.encoderWalkthrough.getState());
const setState = (page, s) => page.evaluate((x) => window.encoderWalkthrough.setState(x), s);
const goTo = (page, id) => page.evaluate((x) => window.encoderWalkthrough.goTo(x), id);
// The map as the page drew it: sections, layers (open or collapsed) and blocks in order.
const mapOf = (page) => page.evaluate(() => [...document.querySelectorAll('#map .map-sec')].map((s) => ({
  section: s.dataset.section,
  title: s.querySelector('.map-sec-title').textContent,
  layers: [...s.querySelectorAll('.map-layer')].map((l) => ({ layer: Number(l.dataset.layer), collapsed: l.classList.contains('collapsed'),
    blocks: [...l.querySelectorAll('a.map-node[data-block]')].map((a) => a.dataset.block) })),
  blocks: [...s.querySelectorAll('a.map-node')].map((a) => ({ block: a.dataset.block, i: Number(a.dataset.i), text: a.textContent })),
})));
const current = (page) => page.evaluate(() => {
  const a = [...document.querySelectorAll('#map a.map-node[aria-current]')];
  return a.map((x) => ({ block: x.dataset.block, i: Number(x.dataset.i), section: x.closest('.map-sec').dataset.section,
    layer: x.closest('.map-layer') ? Number(x.closest('.map-layer').dataset.layer) : -1 }));
});
const noMissingKeys = async (page) => assert(!(await page.evaluate(() => document.body.innerText.includes('⟦'))), 'a missing catalog key (⟦…⟧) is on the page');

const page = await newPage();
await open(page);

await check('first load (number words): input, encoder, decoder input, decoder and output drawn; one block marked aria-current, the one holding the step on screen', async () => {
  const st = await state(page);
  const tr = cliTrace(st.preset, st.text);
  const m = await mapOf(page);
  const secs = m.map((s) => s.section);
  for (const s of ['input', 'encoder', 'target', 'decoder', 'output']) assert(secs.includes(s), `no ${s} section on the map: ${secs.join(', ')}`);
  assert(!secs.includes('classifier'), 'an encoder–decoder map shows a classifier');
  const here = tr.steps.findIndex((s) => s.id === st.step);
  assert(here >= 0, `the page's step ${st.step} is not in the native trace`);
  await shown(page, here);
  const cur = await current(page);
  assert(cur.length === 1, `${cur.length} blocks marked current`);
  // a first visit opens on the trained model's cross-attention (main.js reads the link as it came)
  const p0 = tr.steps[here].place;
  assert(p0.block === 'cross_attention' && tr.steps[here].role === 'weights', `the first load opens on ${st.step}, not on cross-attention weights`);
  assert(cur[0] && cur[0].block === 'cross_attention', `the map marks ${JSON.stringify(cur)} on the first load`);
  // the block's link goes to a step at or before the one on screen, in the same section
  assert(cur[0].i <= here, `the current block starts at step ${cur[0].i}, after the step on screen (${here})`);
  const cross = firstIn(tr, (p) => p.section === 'decoder' && p.block === 'cross_attention');
  const crossLink = m.find((s) => s.section === 'decoder').blocks.find((b) => b.block === 'cross_attention');
  assert(crossLink && tr.steps[crossLink.i].id === cross.id, `cross-attention links to ${crossLink && tr.steps[crossLink.i].id}, native first step ${cross.id}`);
  assert(await page.isVisible('#map a.map-node[aria-current] .map-here'), '“you are here” is not shown');
  await noMissingKeys(page);
  await page.locator('#side-nav').screenshot({ path: path.join(artifacts, 'map-first-load.png') });
});

await check('clicking a block (decoder FFN) goes to its first step in the native trace, and the mark moves there', async () => {
  const st = await state(page);
  const tr = cliTrace(st.preset, st.text);
  const want = firstIn(tr, (p) => p.section === 'decoder' && p.layer === 0 && p.block === 'ffn');
  await page.click('#map .map-sec-decoder a.map-node[data-block="ffn"]');
  await shown(page, indexOf(tr, want.id));
  const cur = await current(page);
  assert(cur.length === 1 && cur[0].block === 'ffn' && cur[0].section === 'decoder', `current block after the click: ${JSON.stringify(cur)}`);
  assert((await page.textContent('#step-title')).length > 0, 'no step title');
});

await check('the heads of the attention block on screen are selectable: head 1 from head 0’s weights goes to head 1’s weights', async () => {
  const st = await state(page);
  const tr = cliTrace(st.preset, st.text);
  const w0 = firstIn(tr, (p, s) => p.section === 'encoder' && p.layer === 0 && p.head === 0 && s.role === 'weights');
  const w1 = firstIn(tr, (p, s) => p.section === 'encoder' && p.layer === 0 && p.head === 1 && s.role === 'weights');
  await goTo(page, w0.id);
  await shown(page, indexOf(tr, w0.id));
  const heads = await page.$$eval('#map .map-heads a.map-head', (a) => a.map((x) => x.textContent));
  assert(heads.length === tr.config.num_heads, `${heads.length} head links, the model has ${tr.config.num_heads} heads`);
  assert(await page.getAttribute('#map .map-heads a.map-head:nth-of-type(1)', 'aria-current') === 'true', 'head 0 not marked');
  await page.click('#map .map-heads a.map-head:nth-of-type(2)');
  await shown(page, indexOf(tr, w1.id));
  assert((await state(page)).step === w1.id, `the step on screen is ${(await state(page)).step}, not ${w1.id}`);
});

await check('blocks are keyboard-reachable links with visible focus and names', async () => {
  await page.focus('#map a.map-node');
  await page.keyboard.press('Shift+Tab'); // focused from the keyboard, so :focus-visible applies
  await page.keyboard.press('Tab');
  const f = await page.evaluate(() => {
    const a = document.activeElement;
    const cs = getComputedStyle(a);
    return { tag: a.tagName, href: a.getAttribute('href'), outline: cs.outlineStyle, name: a.textContent.trim() };
  });
  assert(f.tag === 'A' && /step=/.test(f.href), `the first block is not a link to a step: ${JSON.stringify(f)}`);
  assert(f.outline !== 'none', 'no visible focus outline on a block');
  assert(f.name.length > 2, 'a block without a name');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.encoderWalkthrough.getState().step === 'token_ids', null, { timeout: 5000 });
});

await check('post-norm (default preset): each encoder layer is attention → add & norm → FFN → add & norm', async () => {
  await setState(page, { preset: 'default' });
  const m = await mapOf(page);
  const enc = m.find((s) => s.section === 'encoder');
  assert(/post-norm/.test(enc.title), `encoder title: ${enc.title}`);
  assert(JSON.stringify(enc.layers[0].blocks) === JSON.stringify(['self_attention', 'add_norm', 'ffn', 'add_norm']), `layer 0: ${enc.layers[0].blocks}`);
  const dec = m.find((s) => s.section === 'decoder');
  assert(JSON.stringify(dec.layers[0].blocks) === JSON.stringify(['self_attention', 'add_norm', 'cross_attention', 'add_norm', 'ffn', 'add_norm']), `decoder layer 0: ${dec.layers[0].blocks}`);
});

await check('pre-norm (the same model with norm = pre): LayerNorm → attention → add → LayerNorm → FFN → add', async () => {
  await setState(page, { preset: 'default', norm: 'pre' });
  const m = await mapOf(page);
  const enc = m.find((s) => s.section === 'encoder');
  assert(/pre-norm/.test(enc.title), `encoder title: ${enc.title}`);
  assert(JSON.stringify(enc.layers[0].blocks) === JSON.stringify(['norm', 'self_attention', 'add', 'norm', 'ffn', 'add']), `layer 0: ${enc.layers[0].blocks}`);
  await page.locator('#side-nav').screenshot({ path: path.join(artifacts, 'map-pre-norm.png') });
});

await check('an encoder-only classifier (BERT-style preset): no decoder, a classifier head, 2 encoder layers', async () => {
  await setState(page, { preset: 'seed004-bert' });
  const tr = cliTrace('seed004-bert');
  const m = await mapOf(page);
  const secs = m.map((s) => s.section);
  assert(!secs.includes('decoder') && !secs.includes('target'), `decoder drawn for an encoder-only model: ${secs}`);
  const cls = m.find((s) => s.section === 'classifier');
  assert(cls && cls.blocks.length === 1 && tr.steps[cls.blocks[0].i].id === firstIn(tr, (p) => p.section === 'classifier').id, `classifier: ${JSON.stringify(cls)}`);
  const enc = m.find((s) => s.section === 'encoder');
  assert(enc.layers.length === tr.config.num_layers, `${enc.layers.length} encoder layers drawn, config ${tr.config.num_layers}`);
  assert((await page.textContent('#tagline')).includes('classifier'), `subtitle: ${await page.textContent('#tagline')}`);
  await page.locator('#side-nav').screenshot({ path: path.join(artifacts, 'map-classifier.png') });
});

await check('a 3-layer model: three encoder layers, collapsed but the one on screen; going to layer 2 opens it', async () => {
  await setState(page, { preset: 'default', num_layers: 3, step: 'token_ids' });
  let enc = (await mapOf(page)).find((s) => s.section === 'encoder');
  assert(enc.layers.length === 3, `${enc.layers.length} layers drawn`);
  assert(/3 layers/.test(enc.title), `title: ${enc.title}`);
  assert(enc.layers.filter((l) => l.collapsed).length === 2, `collapsed: ${JSON.stringify(enc.layers.map((l) => l.collapsed))}`);
  await page.click('#map .map-sec-encoder .map-layer[data-layer="2"] a');
  await page.waitForSelector('#map .map-layer[data-layer="2"] a[aria-current]', { timeout: 8000 });
  assert((await state(page)).step.startsWith('layer2.'), `the step on screen is ${(await state(page)).step}`);
  enc = (await mapOf(page)).find((s) => s.section === 'encoder');
  assert(!enc.layers[2].collapsed && enc.layers[0].collapsed, `after going to layer 2: ${JSON.stringify(enc.layers.map((l) => l.collapsed))}`);
  const cur = await current(page);
  assert(cur.length === 1 && cur[0].layer === 2, `current: ${JSON.stringify(cur)}`);
});

await check('the backward pass gets its own section (loss, then gradients)', async () => {
  await setState(page, { preset: 'trained-number-words' });
  await page.check('#backward');
  await page.waitForSelector('#map .map-sec-backward', { timeout: 20000 });
  const m = await mapOf(page);
  assert(m.some((s) => s.section === 'loss'), 'no loss section');
  const bw = m.find((s) => s.section === 'backward');
  assert(bw.blocks.length >= 3, `backward blocks: ${bw.blocks.map((b) => b.text)}`);
  await page.uncheck('#backward');
});

await check('the full step list is one click away, collapsed by default', async () => {
  const p = await newPage();
  await open(p);
  assert(!(await p.evaluate(() => document.getElementById('toc-box').open)), 'the step list is open by default');
  await p.click('#toc-box > summary');
  // Its sections fold; the one holding the step on screen is open, with that step marked.
  assert(await p.isVisible('#toc-list a.toc-link[aria-current="step"]'), 'the step list did not open on the step on screen');
  await p.context().close();
});

await check('Next within 3 Tabs from the top of the page (the skip link counts)', async () => {
  const p = await newPage();
  await open(p);
  let tabs = 0;
  await p.keyboard.press('Tab');
  tabs++;
  assert(await p.evaluate(() => document.activeElement.classList.contains('skip')), 'the first Tab does not reach the skip link');
  await p.keyboard.press('Enter');
  while (tabs < 3 && (await p.evaluate(() => document.activeElement.id)) !== 'next') {
    await p.keyboard.press('Tab');
    tabs++;
  }
  assert((await p.evaluate(() => document.activeElement.id)) === 'next', `Next not focused after ${tabs} Tabs`);
  await p.context().close();
});

await check('the opening: shown on a first visit, dismissible, not shown again, never in embed mode', async () => {
  const p = await newPage();
  await open(p);
  assert(await p.isVisible('.intro'), 'no opening on a first visit');
  // On a desktop it opens whole, as before (only a phone folds it to one line).
  assert(await p.isVisible('.intro .intro-list'), 'the opening is folded on a desktop');
  await p.click('.intro-close');
  assert(!(await p.isVisible('.intro')), 'the opening stayed after dismissing');
  await open(p);
  assert(!(await p.isVisible('.intro')), 'the opening came back after a reload');
  await p.context().close();
  const e = await newPage();
  await open(e, '?embed=1&text=in+the+bleak+midwinter');
  assert(!(await e.isVisible('.intro')), 'the opening shows in embed mode');
  await e.context().close();
});

await check('phone (390×844): the step title in the first screen on first load; input and map one tap away', async () => {
  const p = await newPage({ width: 390, height: 844 });
  await open(p);
  const top = await p.evaluate(() => document.getElementById('step-title').getBoundingClientRect().top);
  assert(top >= 0 && top < 844 - 40, `the step title starts at ${top}px`);
  await p.screenshot({ path: path.join(artifacts, 'map-phone-first.png') });
  assert(!(await p.isVisible('#text')), 'the form is shown before the step');
  await p.click('#show-input');
  assert(await p.isVisible('#text'), 'one tap on “Input & settings” does not show the sentence box');
  await p.click('#show-nav');
  assert(await p.isVisible('#map a.map-node'), 'one tap on “Map & steps” does not show the map');
  assert(!(await p.isVisible('#text')), 'the input stays open with the map');
  await p.screenshot({ path: path.join(artifacts, 'map-phone-nav.png') });
  await p.click('#show-nav');
  assert(!(await p.isVisible('#map')), 'a second tap does not close the map');
  await p.click('#show-nav');
  await p.click('#map .map-sec-encoder a.map-node[data-block="ffn"]');
  await p.waitForFunction(() => window.encoderWalkthrough.getState().step.endsWith('ffn_pre'), null, { timeout: 8000 });
  assert(!(await p.isVisible('#map')), 'the map stays open over the step after choosing a block');
  const t2 = await p.evaluate(() => document.getElementById('step-title').getBoundingClientRect().top);
  assert(t2 >= 0 && t2 < 844, `after choosing a block the step title is at ${t2}px`);
  const sw = await p.evaluate(() => document.documentElement.scrollWidth);
  assert(sw <= 392, `the phone layout scrolls sideways (${sw}px)`);
  await p.context().close();
});

// Issue 22: on a phone's first visit the opening is one line (it expands on a tap) and the
// note under the title its first lines, so the step's first matrix starts on the first screen,
// above the step bar fixed at the bottom.
await check('phone (390×844), first visit: the step\'s first matrix starts inside the first screen; the opening is one line that expands', async () => {
  const p = await newPage({ width: 390, height: 844 });
  await open(p);
  await p.waitForSelector('#view table.grid', { timeout: 10000 });
  const r = await p.evaluate(() => ({
    grid: document.querySelector('#view table.grid').getBoundingClientRect().top,
    bar: document.getElementById('stepbar').getBoundingClientRect().top,
    intro: document.querySelector('.intro') ? document.querySelector('.intro').getBoundingClientRect().height : -1,
    scrollY: window.scrollY,
  }));
  await p.screenshot({ path: path.join(artifacts, 'map-phone-first-screen.png') });
  const bad = [
    r.scrollY !== 0 ? `the first visit scrolled to ${r.scrollY}` : '',
    r.grid >= 844 ? `the first matrix starts at ${Math.round(r.grid)} px, below the first screen (844 px)` : '',
    r.grid >= r.bar ? `the first matrix starts at ${Math.round(r.grid)} px, under the step bar (at ${Math.round(r.bar)} px)` : '',
    !(r.intro > 0 && r.intro < 60) ? `the opening is ${Math.round(r.intro)} px tall on a phone (one line: < 60)` : '',
  ].filter(Boolean);
  assert(!bad.length, bad.join('; '));
  // The folded opening and note open on a tap.
  await p.click('.intro-summary');
  assert(await p.isVisible('.intro .intro-list'), 'a tap on the opening\'s line does not expand it');
  if (await p.isVisible('#note-more')) {
    const h0 = await p.evaluate(() => document.getElementById('note').getBoundingClientRect().height);
    await p.click('#note-more');
    const h1 = await p.evaluate(() => document.getElementById('note').getBoundingClientRect().height);
    assert(h1 > h0, `"more" does not open the note (${h0} → ${h1} px)`);
  }
  await p.context().close();
});

await check('phone: on the attention weights (the opening dismissed) the matrix starts within 1.2 screens', async () => {
  const p = await newPage({ width: 390, height: 844 });
  await open(p, '?preset=default&step=layer0.head0.weights');
  if (await p.isVisible('.intro')) await p.click('.intro-close');
  await p.evaluate(() => window.scrollTo(0, 0));
  await p.waitForSelector('#view .result table.grid', { timeout: 10000 });
  const top = await p.evaluate(() => document.querySelector('#view .result table.grid').getBoundingClientRect().top);
  await p.screenshot({ path: path.join(artifacts, 'map-phone-weights.png'), fullPage: true });
  assert(top < 1.2 * 844, `the weights' matrix starts at ${top}px`);
  await p.context().close();
});

// Issue 22: the timing line names where the weights came from — a trained preset reads them
// from its shipped model file and must never say "seeded" (the readout's tooltip always names
// them; its text only when they took ≥ 0.05 ms).
await check('the timing line: a trained preset\'s weights are "from the shipped model file", never "seeded" (English, German)', async () => {
  const p = await newPage();
  const cases = [
    ['?preset=trained-number-words', 'weights from the shipped model file', /seeded/i],
    ['?preset=trained-brackets&lang=de', 'Gewichte aus der mitgelieferten Modelldatei', /Seed/],
    ['?preset=default', 'seeded weights', /shipped/],
    ['?preset=default&lang=de', 'Gewichte aus dem Seed', /mitgeliefert/],
  ];
  for (const [q, want, never] of cases) {
    await open(p, q);
    const perf = await p.evaluate(() => ({ text: document.getElementById('perf').textContent, title: document.getElementById('perf').title }));
    assert(perf.title.includes(want), `${q}: the timing's tooltip "${perf.title}" does not say "${want}"`);
    for (const s of [perf.text, perf.title]) assert(!never.test(s), `${q}: the timing line says "${s}"`);
  }
  await p.context().close();
});

await check('German (?lang=de): the map and the page shell in German, no missing key', async () => {
  const p = await newPage();
  await open(p, '?lang=de&preset=default');
  const m = await mapOf(p);
  assert(m.find((s) => s.section === 'encoder').title.includes('Schicht'), `encoder title: ${m.find((s) => s.section === 'encoder').title}`);
  assert((await p.textContent('#next')).includes('Weiter'), 'Next is not translated');
  assert((await p.textContent('#show-input')).includes('Eingabe'), 'the phone bar is not translated');
  await noMissingKeys(p);
  await p.locator('#side-nav').screenshot({ path: path.join(artifacts, 'map-de.png') });
  await p.context().close();
});

await check('no console errors or page errors', async () => {
  assert(problems.length === 0, problems.slice(0, 5).join('\n'));
});

await browser.close();
server.close();
const r = results();
console.log(`${r.passed} passed, ${r.failed} failed`);
process.exit(r.failed ? 1 : 0);
