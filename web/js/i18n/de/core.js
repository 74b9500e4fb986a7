// i18n/de/core.js — Meldungen der Katalog-Mechanik selbst.
export default {
  'i18n.language': 'Sprache',
  'i18n.badLang': 'Der Link verlangt die Sprache „{lang}“, die diese Seite nicht hat; angezeigt wird {shown}.',
};
