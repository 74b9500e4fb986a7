// dom.js — the one DOM helper every view uses: an element with a class and text. Text is
// always set as text, never parsed as markup (nothing a reader types can inject HTML).
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
