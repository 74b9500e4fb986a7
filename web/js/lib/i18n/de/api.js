// i18n/de/api.js — was die JS-API (api.js) auf der Seite anzeigt, wenn ein Aufruf abgelehnt wird.
export default {
  'api.unknownPreset': 'unbekannte Voreinstellung „{name}“',
  'api.unknownSetting': 'unbekannte Einstellung „{name}“',
};
