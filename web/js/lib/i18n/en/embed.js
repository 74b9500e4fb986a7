// i18n/en/embed.js — notes on bad view parameters and step ids in a link or an element's
// attributes (embed-params.js).
export default {
  'embed.badView': ({ got, views, inFrame }) => `unknown view "${got}" (views: ${views}); showing ${inFrame ? 'a figure' : 'the full walkthrough'}`,
  'embed.badInputs': 'inputs must be 0 or 1, got "{got}" (using 0)',
  'embed.badControls': 'unknown controls {got} (controls: {list} or none)',
  'embed.badTheme': 'theme must be one of {list}, got "{got}" (following the system)',
  'embed.noStep': 'there is no step "{wanted}" in this trace; showing the closest, "{closest}" (step ids: docs/trace.md)',
  'embed.engineFrame': 'Encoder Walkthrough engine (hidden)',
};
