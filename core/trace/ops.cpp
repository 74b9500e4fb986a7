// ops.cpp — the one table of the modern decoders' operations (ops.h). Each row: the unit's
// file and its rules; the page's side of each kind (explainer, note, notation, catalog) is
// found under the same kind name in web/js/view/kinds/index.js and web/js/lib/i18n/*/steps.js.
#include "trace/ops.h"

namespace ew {

std::vector<OpRule> op_rules() {
  std::vector<OpRule> all;
  for (const auto* unit : {&rmsnorm_rules(),  // op_rmsnorm.cpp: rms, rmsnorm
                           &rope_rules(),     // op_rope.cpp:    rope_angles (no gradient), rope
                           &gated_rules()})   // op_gated.cpp:   mul, scale
    all.insert(all.end(), unit->begin(), unit->end());
  return all;
}

}  // namespace ew
