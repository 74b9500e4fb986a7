// positional.cpp — the sinusoidal table of positional.h.
#include "model/positional.h"

#include <cmath>

namespace ew {

void sinusoidal_positional(float* out, int T, int d) {
  for (int p = 0; p < T; ++p) {
    for (int c = 0; c < d; c += 2) {
      // c = 2i: the exponent is 2i/d.
      const double angle = p / std::pow(10000.0, static_cast<double>(c) / d);
      out[p * d + c] = static_cast<float>(std::sin(angle));
      if (c + 1 < d) out[p * d + c + 1] = static_cast<float>(std::cos(angle));
    }
  }
}

}  // namespace ew
