// i18n/de/core.js — Meldungen der Katalog-Mechanik selbst.
export default {
  'i18n.language': 'Sprache',
  'i18n.badLang': 'Der Link verlangt die Sprache „{lang}“, die diese Seite nicht hat; angezeigt wird {shown}.',
  // The same as an item of the page's list of bad link settings (no full stop: the list adds it).
  'i18n.badLangItem': 'lang: die Seite hat keine Sprache „{lang}“ (Sprachen: {list}); angezeigt wird {shown}',
};
