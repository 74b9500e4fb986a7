// i18n/de/embed.js — Hinweise zu ungültigen Anzeige-Parametern und Schritt-IDs in einem Link
// oder den Attributen eines Elements (embed-params.js).
export default {
  'embed.badView': ({ got, views, inFrame }) => `unbekannte Ansicht „${got}“ (Ansichten: ${views}); angezeigt wird ${inFrame ? 'eine Abbildung' : 'der vollständige Durchgang'}`,
  'embed.badInputs': 'inputs muss 0 oder 1 sein, erhalten: „{got}“ (verwendet wird 0)',
  'embed.badControls': 'unbekannte Bedienelemente {got} (controls: {list} oder none)',
  'embed.badTheme': 'theme muss eines von {list} sein, erhalten: „{got}“ (es gilt die Systemeinstellung)',
  'embed.noStep': 'dieser Trace hat keinen Schritt „{wanted}“; angezeigt wird der ähnlichste, „{closest}“ (Schritt-IDs: docs/trace.md)',
  'embed.engineFrame': 'Encoder-Walkthrough-Rechenkern (verborgen)',
};
