// i18n/en/api.js — what the JS API (api.js) shows on the page when a call is refused.
export default {
  'api.unknownPreset': 'unknown preset "{name}"',
  'api.unknownSetting': 'unknown setting "{name}"',
};
