// i18n/en/core.js — messages of the catalog machinery itself.
export default {
  'i18n.language': 'Language',
  'i18n.badLang': 'The link asks for the language “{lang}”, which this page does not have; showing {shown}.',
};
