// theme.js — the page's light or dark: theme=light|dark from the URL, else the reader's system
// setting (prefers-color-scheme), followed live. Sets <html data-theme> for the CSS; the page's
// view context reads isDark() for the colour scales (lib/colors.js); `onChange` redraws.

let current = null;

export function isDark() {
  return current === 'dark';
}

// theme: 'auto' | 'light' | 'dark'. root: the element that carries data-theme (the page's <html>).
export function applyTheme(theme, root = document.documentElement, onChange = () => {}) {
  const mq = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  const resolve = () => (theme === 'auto' ? (mq && mq.matches ? 'dark' : 'light') : theme);
  const set = () => {
    const t = resolve();
    root.dataset.theme = t;
    const changed = t !== current;
    current = t;
    return changed;
  };
  set();
  if (theme === 'auto' && mq && mq.addEventListener) mq.addEventListener('change', () => { if (set()) onChange(); });
  return current;
}
