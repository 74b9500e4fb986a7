// cell-editor.js — a number of a matrix typed into its own cell: the cell (a td of the step
// view) holds an <input> named for screen readers by the cell's name; Enter applies, Escape or
// leaving it cancels and gives the focus back to the cell. A refused value keeps the editor
// open, marked invalid, described by the message and showing it at the cell, and changes
// nothing. The input's keys and clicks stay in it (the matrix's arrow keys and the page's
// shortcuts do not see them).
import { el } from '../lib/dom.js';
import { t } from '../lib/i18n.js';

let open = null; // {td, input, kids, initial, busy}

// opts: {name, initial (text), apply(text) → Promise<'' | message>, describedBy (id),
//        onClose(cancelled: Escape or an unchanged value)}
export function openEditor(td, opts) {
  closeEditor(false);
  const input = el('input', 'lab-cell-input mono');
  Object.assign(input, { type: 'text', inputMode: 'decimal', autocomplete: 'off', spellcheck: false, value: opts.initial });
  input.setAttribute('aria-label', t('lab.cell.edit', { name: opts.name }));
  if (opts.describedBy) input.setAttribute('aria-describedby', opts.describedBy);
  open = { td, input, kids: [...td.childNodes], initial: opts.initial, busy: false, opts };
  td.classList.add('lab-editing');
  td.replaceChildren(input);
  input.addEventListener('keydown', onKey);
  input.addEventListener('input', () => input.setCustomValidity(''));
  for (const type of ['click', 'pointerdown', 'dblclick']) input.addEventListener(type, (e) => e.stopPropagation());
  input.addEventListener('blur', () => { if (open && open.input === input && !open.busy) closeEditor(false); });
  input.focus();
  if (opts.initial.length > 1) input.select();
  else input.setSelectionRange(input.value.length, input.value.length);
}

async function onKey(e) {
  e.stopPropagation();
  if (e.key === 'Escape') {
    e.preventDefault();
    closeEditor(true);
  } else if (e.key === 'Enter') {
    e.preventDefault();
    await commit();
  }
}

// Enter: an unchanged value is no edit; a refused one keeps the editor open with its message.
async function commit() {
  const o = open;
  if (!o || o.busy) return;
  if (o.input.value.trim() === o.initial.trim()) return closeEditor(true);
  o.busy = true;
  const why = await o.opts.apply(o.input.value);
  o.busy = false;
  if (open !== o) return;
  if (!o.td.isConnected) return closeEditor(false);  // the view was redrawn (the engine refused it: its message is shown)
  if (why) {
    // Said at the cell too (the browser's bubble), wherever the panel is on a narrow screen.
    o.input.setAttribute('aria-invalid', 'true');
    o.input.setCustomValidity(why);
    o.input.focus();
    o.input.select();
    o.input.reportValidity();
  } else closeEditor(false);
}

// Puts the cell's number back (the view is redrawn anyway after an edit that applied).
export function closeEditor(refocus) {
  const o = open;
  if (!o) return;
  open = null;
  o.td.classList.remove('lab-editing');
  o.td.replaceChildren(...o.kids);
  if (refocus && o.td.isConnected) o.td.focus();
  if (o.opts.onClose) o.opts.onClose(refocus);
}

export const isEditorInput = (node) => !!(node && node.closest && node.closest('.lab-cell-input'));
