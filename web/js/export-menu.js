// export-menu.js — the step's "Export" menu (a <details>, keyboard-usable): one button per
// format; a click saves the file that export.js makes for the step on screen. A failure is
// said in the menu itself.
import { el } from './dom.js';

const LABELS = [
  ['svg', 'SVG image'], ['png', 'PNG image'], ['csv', 'CSV (values)'], ['npy', 'NumPy .npy'],
  ['tex', 'LaTeX formula'], ['json', 'whole trace (JSON)'],
];

export function saveFile(f) {
  const url = URL.createObjectURL(f);
  const a = el('a');
  a.href = url;
  a.download = f.name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// makeFile(format) → Promise<File> for the step on screen. Returns the menu element.
export function exportMenu(makeFile) {
  const box = el('details', 'export-menu');
  box.append(el('summary', '', 'Export'));
  const list = el('div', 'export-list');
  const status = el('span', 'muted small export-status');
  status.setAttribute('role', 'status');
  for (const [fmt, label] of LABELS) {
    const b = el('button', 'small', label);
    b.type = 'button';
    b.dataset.format = fmt;
    b.addEventListener('click', async () => {
      status.textContent = 'preparing…';
      try {
        const f = await makeFile(fmt);
        saveFile(f);
        status.textContent = `saved ${f.name} (${f.size.toLocaleString('en')} bytes)`;
      } catch (e) {
        status.textContent = `could not export: ${e.message}`;
      }
    });
    list.append(b);
  }
  box.append(list, status);
  return box;
}
