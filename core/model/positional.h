// positional.h — sinusoidal positional encoding, as seed 001's formula states:
//   PE[p, 2i] = sin(p / 10000^(2i/d)),  PE[p, 2i+1] = cos(p / 10000^(2i/d)).
// (Seed 001's first listing writes 10000^((2*i)/d) with i already stepping by 2, which
// doubles the exponent; its PositionalEncoding class, and this, follow the formula.)
// An odd d_model gets a final sine column. Computed in double, stored as float.
#pragma once

namespace ew {

void sinusoidal_positional(float* out /*T×d*/, int T, int d);

}  // namespace ew
