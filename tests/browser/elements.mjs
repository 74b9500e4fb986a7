#!/usr/bin/env node
// elements.mjs — several <encoder-walkthrough> elements on one page, in headless Chromium: each
// draws in its own view context (issue 18), never in another's. Checks:
//   - two elements of different theme and width: every cell's colour is its own theme's scale
//     (lib/colors.js, at the native CLI's values), each fits its own width, and both stay so
//     after the other redraws and after one is resized;
//   - clicking a cell of the cross-attention alignment opens that head's weights in the
//     element, with that cell explained (its value = the native CLI's);
//   - two elements in different languages keep theirs (titles, links, explanations), and each
//     exports its titles in its own language.
//
//   node tests/browser/elements.mjs [--cli build/native-release/encoder-walkthrough] [--dist dist]
//                                   [--chromium /usr/bin/chromium] [--artifacts artifacts/elements]
import { mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium, checks, assert, requireFiles, serverOptions, checkBuildMode } from '../harness.mjs';
import { runCli, runCliPreset, REL, ABS } from '../wasm/compare.mjs';
import { traceFromCli } from '../web/page-trace.mjs';
import { defaults, buildModel, useSchema } from '../../web/js/model/settings.js';
import { cellColor } from '../../web/js/lib/colors.js';
import { valueRange } from '../../web/js/model/layout.js';
import { setLang, t, loadAllLangs } from '../../web/js/lib/i18n.js';
import { stepTitle } from '../../web/js/model/titles.js';
import { kindOf, explain } from '../../web/js/view/kinds/index.js';
await loadAllLangs(); // the German catalog too (the page fetches a language's catalog when asked: i18n.js)

const cli = path.resolve(root, arg('--cli', 'build/native-release/encoder-walkthrough'));
const dist = path.resolve(root, arg('--dist', 'dist'));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const artifacts = path.resolve(root, arg('--artifacts', 'artifacts/elements'));
requireFiles('elements suite', [['native CLI', cli], ['built site', path.join(dist, 'component.js')], ['Chromium', exe]]);
useSchema(JSON.parse(execFileSync(cli, ['--config-schema'], { encoding: 'utf8' })));
mkdirSync(artifacts, { recursive: true });

const { check, results } = checks(8);
const { server, url } = await startServer(dist, 0, '127.0.0.1', serverOptions);
const browser = await launchChromium(chromium, exe);
await checkBuildMode(check, browser, url);
const problems = [];

// A host page on the site's origin (an element's engine is an iframe of that origin).
async function host(name, body, viewport = { width: 1300, height: 1000 }) {
  const ctx = await browser.newContext({ locale: 'en-US', viewport });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => problems.push(`${name}: page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`${name}: console error: ${m.text()}`); });
  await page.route(url + name, (r) => r.fulfill({ contentType: 'text/html', body:
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title></head><body>` +
    `<script type="module" src="component.js"></script>${body}</body></html>` }));
  await page.goto(url + name);
  return page;
}
const shown = (page, id) => page.waitForFunction((i) => document.getElementById(i)?.shadowRoot?.querySelector('.result td.cell'), id, { timeout: 30000 });
// Sets attributes and waits for the element to show the result.
const update = (page, id, attrs) => page.$eval(`#${id}`, (e, a) => new Promise((res) => {
  e.addEventListener('encoder-walkthrough:shown', res, { once: true });
  for (const [k, v] of Object.entries(a)) e.setAttribute(k, v);
}), attrs);

// ---- 1. theme and width ---------------------------------------------------------------------------
const TEXT = 'snow had fallen snow on snow snow on snow';
const SIZE = { d_model: 32, num_heads: 4 };

// What an element's result matrix shows: each cell's flat row, column and background; the
// columns shown; whether its table scrolls sideways; the theme its root says.
const readMatrix = (page, id) => page.$eval(`#${id}`, (e) => {
  const r = e.shadowRoot;
  const sc = r.querySelector('.result .matrix-scroll');
  return {
    theme: r.querySelector('.ew-root').dataset.theme,
    cells: [...r.querySelectorAll('.result td.cell')].map((td) => ({ r: Number(td.dataset.r), c: Number(td.dataset.c), bg: td.style.backgroundColor })),
    legend: [...r.querySelectorAll('.result .legend-stop')].map((s) => s.style.backgroundColor),
    cols: r.querySelectorAll('.result thead th.col-h').length,
    scrolls: sc.scrollWidth > sc.clientWidth + 1,
  };
});

// Every cell's colour is the colour of its value (the native CLI's) in `dark`'s scale, within
// one unit per channel (the wasm build's last bits may round a channel the other way).
function checkColours(what, m, step, dark) {
  const scale = kindOf(step.kind).scale;
  const data = step.data.map((v) => (v === null ? -Infinity : v));
  const [lo0, hi0] = valueRange(data);
  const [lo, hi] = scale === 'prob' ? [0, Math.max(hi0, 1e-6)] : [lo0, hi0];
  const n = step.shape[step.shape.length - 1];
  const rgb = (s) => (s.match(/\d+/g) || []).map(Number);
  assert(m.cells.length > 0, `${what}: no cells`);
  for (const c of m.cells) {
    const want = cellColor(data[c.r * n + c.c], scale, lo, hi, dark);
    const got = rgb(c.bg), exp = rgb(want.bg);
    assert(got.length === 3 && got.every((x, k) => Math.abs(x - exp[k]) <= 1), `${what}: cell [${c.r}, ${c.c}] is ${c.bg}, its value's colour in the ${dark ? 'dark' : 'light'} theme is ${want.bg}`);
  }
  assert(m.theme === (dark ? 'dark' : 'light'), `${what}: root theme ${m.theme}`);
}

await check('two elements, dark at 380 px and light at 1100 px: each cell in its own theme, each fits its own width — also after the other redraws and after a resize', async () => {
  const attrs = (id, theme) => `id="${id}" theme="${theme}" text="${TEXT}" d_model="32" num_heads="4" step="layer0.q"`;
  const page = await host('elements-theme.html',
    '<style>#a { display: block; width: 380px } #b { display: block; width: 1100px }</style>' +
    `<encoder-walkthrough ${attrs('a', 'dark')}></encoder-walkthrough><encoder-walkthrough ${attrs('b', 'light')}></encoder-walkthrough>`);
  await shown(page, 'a');
  await shown(page, 'b');
  await page.waitForTimeout(300); // each fits its width (a timer, then ResizeObserver)
  const step = runCli(cli, buildModel({ ...defaults(), text: TEXT, ...SIZE }, [])).steps.find((s) => s.id === 'layer0.q');
  const both = async (when) => {
    const a = await readMatrix(page, 'a'), b = await readMatrix(page, 'b');
    checkColours(`a (dark) ${when}`, a, step, true);
    checkColours(`b (light) ${when}`, b, step, false);
    assert(a.legend.join() !== b.legend.join(), `${when}: both legends have the same colours`);
    assert(!a.scrolls && !b.scrolls, `${when}: a table scrolls sideways (a ${a.scrolls}, b ${b.scrolls})`);
    assert(a.cols >= 3 && a.cols < b.cols, `${when}: the narrow element shows ${a.cols} columns, the wide one ${b.cols}`);
    return { a: a.cols, b: b.cols };
  };
  const first = await both('at first');
  await page.screenshot({ path: path.join(artifacts, 'elements-theme.png'), fullPage: true });
  // The other element redraws (a new sentence), then the first is resized (it refits, redraws).
  await update(page, 'b', { text: `${TEXT} again` });
  const stepB = runCli(cli, buildModel({ ...defaults(), text: `${TEXT} again`, ...SIZE }, [])).steps.find((s) => s.id === 'layer0.q');
  await page.$eval('#a', (e) => { e.style.width = '520px'; });
  await page.waitForTimeout(600);
  const a = await readMatrix(page, 'a'), b = await readMatrix(page, 'b');
  checkColours('a (dark) after b redrew and a was resized', a, step, true);
  checkColours('b (light) after its redraw', b, stepB, false);
  assert(!a.scrolls && a.cols > first.a && a.cols < b.cols, `after the resize: a shows ${a.cols} columns (was ${first.a}), b ${b.cols}`);
  console.log(`     columns: a ${first.a} → ${a.cols} (380 → 520 px), b ${first.b} → ${b.cols}`);
  await page.context().close();
});

// ---- 2. the alignment's cells open their head -----------------------------------------------------
await check('clicking a cell of the cross-attention alignment in an element opens that head\'s weights with the cell explained (value = native CLI)', async () => {
  const page = await host('elements-align.html', '<encoder-walkthrough id="c" preset="trained-number-words" step="decoder0.cross.head0.weights"></encoder-walkthrough>');
  await shown(page, 'c');
  await page.waitForFunction(() => document.getElementById('c').shadowRoot.querySelector('.alignment rect.align-cell'), null, { timeout: 20000 });
  const native = runCliPreset(cli, 'trained-number-words');
  const target = native.steps.find((s) => s.id === 'decoder0.cross.head1.weights');
  const Tk = target.shape[target.shape.length - 1], Tq = target.shape[target.shape.length - 2];
  const [i, j] = [Math.min(2, Tq - 1), Math.min(3, Tk - 1)];
  // Head 1 of decoder layer 0: the second picture of the first row; its cells row by row.
  await page.locator('#c .align-row').first().locator('.align-head').nth(1).locator('rect.align-cell').nth(i * Tk + j).click();
  await page.waitForFunction((want) => {
    const e = document.getElementById('c');
    const head = e.shadowRoot.querySelector('.explain-head strong');
    return e.getAttribute('step') === 'decoder0.cross.head1.weights' && head && head.textContent.startsWith(want);
  }, `A[${i}, ${j}] = `, { timeout: 20000 });
  const r = await page.$eval('#c', (e, [ri, ci]) => ({
    head: e.shadowRoot.querySelector('.explain-head strong').textContent,
    hl: !!e.shadowRoot.querySelector(`.result td.cell.hl-cell[data-r="${ri}"][data-c="${ci}"]`),
    meta: e.shadowRoot.querySelector('.ew-title').textContent,
  }), [i, j]);
  const v = Number(r.head.split('= ')[1].replace('\u2212', '-'));
  const want = target.data[i * Tk + j];
  assert(Math.abs(v - want) <= REL * Math.abs(want) + REL + ABS, `explained ${r.head}, the CLI's A[${i}, ${j}] is ${want}`);
  assert(r.hl, `the result cell [${i}, ${j}] is not highlighted`);
  await page.screenshot({ path: path.join(artifacts, 'elements-align.png'), fullPage: true });
  await page.context().close();
});

// ---- 3. languages ---------------------------------------------------------------------------------
await check('two elements in German and English keep their languages (title, link, explanation, export titles)', async () => {
  const attrs = `text="${TEXT}" step="layer0.head0.weights" controls="nav"`;
  const page = await host('elements-lang.html', `<encoder-walkthrough id="d" lang="de" ${attrs}></encoder-walkthrough>` +
    `<encoder-walkthrough id="e" lang="en" ${attrs}></encoder-walkthrough>`);
  await shown(page, 'd');
  await shown(page, 'e');
  const trace = traceFromCli(runCli(cli, buildModel({ ...defaults(), text: TEXT }, [])));
  const step = trace.get('layer0.head0.weights');
  const words = (lang) => {
    setLang(lang, null);
    const x = explain(trace, step, 1, 2);
    const w = { title: stepTitle(step, trace), link: t('figure.openFull'), where: x.where };
    setLang('en', null);
    return w;
  };
  const want = { d: words('de'), e: words('en') };
  assert(want.d.title !== want.e.title && want.d.where !== want.e.where, 'the catalog has no German title here');
  // Whatever drew last, each element explains a cell in its own language.
  for (const id of ['e', 'd', 'e']) await page.locator(`#${id} .result td.cell[data-r="1"][data-c="2"]`).hover();
  for (const id of ['d', 'e']) {
    await page.locator(`#${id} .result td.cell[data-r="1"][data-c="2"]`).hover();
    const got = await page.$eval(`#${id}`, (e) => ({
      title: e.shadowRoot.querySelector('.ew-title').textContent,
      link: e.shadowRoot.querySelector('.ew-link').textContent,
      where: e.shadowRoot.querySelector('.explain-head .muted').textContent.replace(/^ — /, ''),
    }));
    assert(JSON.stringify(got) === JSON.stringify(want[id]), `${id}: ${JSON.stringify(got)}, want ${JSON.stringify(want[id])}`);
  }
  for (const id of ['d', 'e', 'd']) {
    const csv = await page.$eval(`#${id}`, async (e) => (await e.exportStep('csv')).text());
    assert(csv.split('\n')[0].includes(`"${want[id].title}"`), `${id}'s CSV header: ${csv.split('\n')[0]}`);
  }
  await page.screenshot({ path: path.join(artifacts, 'elements-lang.png'), fullPage: true });
  await page.context().close();
});

await check('no console errors or page errors during the suite', async () => {
  assert(!problems.length, problems.slice(0, 6).join('\n'));
});

await browser.close();
server.close();
const r = results();
console.log(`elements: ${r.passed} passed, ${r.failed} failed`);
process.exit(r.failed ? 1 : 0);
