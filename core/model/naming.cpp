// naming.cpp — ids made from place, name and role (naming.h).
#include "model/naming.h"

namespace ew {

std::string block_prefix(const Place& p) {
  std::string s;
  if (p.layer >= 0 && p.section == "encoder") {
    s = "layer" + std::to_string(p.layer) + ".";
  } else if (p.layer >= 0 && p.section == "decoder") {
    s = "decoder" + std::to_string(p.layer) + ".";
    if (p.block == "self_attention") s += "self.";
    if (p.block == "cross_attention") s += "cross.";
  } else if (p.section == "classifier") {
    s = "cls.";
  } else if (p.section == "masked_lm") {
    s = "mlm.";
  }
  if (p.block == "lens") s = "lens." + s;  // a layer's logit lens: "lens.layer1.", "lens.decoder0."
  if (p.block == "attribution") s = "attr.";
  if (p.head >= 0) s += "head" + std::to_string(p.head) + ".";
  return s;
}

std::string step_id(const Place& place, const std::string& role, const std::string& group) {
  return block_prefix(place) + (group.empty() ? "" : group + ".") + role;
}

std::string param_id(const ParamKey& key) {
  Place block = key.place;
  block.head = -1;  // parameters belong to a block, never to one head
  return step_id(block, key.name, key.norm);
}

}  // namespace ew
