// i18n/en/core.js — messages of the catalog machinery itself.
export default {
  'i18n.language': 'Language',
  'i18n.badLang': 'The link asks for the language “{lang}”, which this page does not have; showing {shown}.',
  // The same as an item of the page's list of bad link settings (no full stop: the list adds it).
  'i18n.badLangItem': 'lang: the page has no language “{lang}” (languages: {list}); showing {shown}',
};
