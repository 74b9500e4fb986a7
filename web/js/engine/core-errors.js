// core-errors.js — an error the engine reports ({error, code?, params?}: wasm/bindings.cpp's
// error_reply, passed through by the Worker) as the reader's language says it: the catalog's
// message for its code (area `errors`), else the core's own English message.
import { t, has } from '../lib/i18n.js';

export function coreErrorText(reply) {
  const key = reply && reply.code ? `errors.${reply.code}` : '';
  if (key && has(key)) return t(key, reply.params || {});
  return String((reply && reply.error) || '');
}
