// export-menu.js — the step's "Export" menu (a <details>, keyboard-usable): one button per
// format; a click saves the file that export.js makes for the step on screen. A failure is
// said in the menu itself.
import { t, num } from '../lib/i18n.js';
import { el } from '../lib/dom.js';

// The formats, in the menu's order; each is labelled t('export.<format>').
const FORMATS = ['svg', 'png', 'csv', 'npy', 'tex', 'json'];

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
  box.append(el('summary', '', t('export.menu')));
  const list = el('div', 'export-list');
  const status = el('span', 'muted small export-status');
  status.setAttribute('role', 'status');
  for (const fmt of FORMATS) {
    const b = el('button', 'small', t(`export.${fmt}`));
    b.type = 'button';
    b.dataset.format = fmt;
    b.addEventListener('click', async () => {
      status.textContent = t('export.preparing');
      try {
        const f = await makeFile(fmt);
        saveFile(f);
        status.textContent = t('export.saved', { name: f.name, bytes: num(f.size) });
      } catch (e) {
        status.textContent = t('export.failed', { why: e.message });
      }
    });
    list.append(b);
  }
  box.append(list, status);
  return box;
}
