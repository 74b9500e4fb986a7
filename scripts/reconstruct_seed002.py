#!/usr/bin/python3
"""Reconstructs the inputs seed 002 does not print in full, for the seed002-causal preset.

Seed 002 prints q (5×10) and k rows 0-3 in full, but its printout of k stops after k[4][0]
(0.3310) and v is never printed. What it does print: step1 = q·kᵀ (5×5), step4 (causal
softmax, 5×5) and step5 = step4·v (5×10). From these:
  - k[4]: the minimum-norm solution of q·k4 = step1[:,4] with k4[0] = 0.3310 (6 equations,
    10 unknowns);
  - v: step4 is lower-triangular with a non-zero diagonal, so v = step4⁻¹·step5.
Both inherit the printout's 4-decimal rounding. Prints the values as JSON rows.
The preset's rows 0-3 of the attention weights need only q and k[0..3] (causal mask), so the
test of those rows does not depend on this reconstruction.
"""
import json
import numpy as np

q = np.array([[-0.9396, -0.7610, -0.7723, 0.2179, 0.3140, -0.2625, -0.8789, 0.6244, -0.5245, 1.2776],
              [-0.7042, 0.1270, 1.6283, -1.5839, 1.0607, -0.1741, -0.5154, 1.0230, -0.0220, 1.5466],
              [2.4340, 3.1458, -1.2979, -1.6841, -0.2796, 1.7375, -0.3538, 0.6227, -0.9432, 0.9826],
              [-0.4292, 0.4479, 0.2516, -0.1197, 0.3054, -0.7416, 1.0121, -1.2222, -0.2376, -2.1837],
              [-0.6403, 0.3252, 0.0717, 0.9909, -0.8243, -0.3065, -0.0571, -0.5463, -0.5385, 0.3860]])
k03 = np.array([[0.2530, 0.7966, -0.2162, -1.2275, -0.7208, 0.2060, 0.6973, 1.0014, -0.1323, -0.5996],
                [-1.8674, 0.7221, 0.1546, -1.6387, -1.7548, 0.6751, -0.9566, 1.4463, -1.7166, 0.9057],
                [0.2133, 0.4005, -0.7649, -1.1516, -0.1740, 0.8551, -0.5812, 0.7501, -0.3315, 0.2571],
                [0.3450, -0.1597, -1.0515, 0.2874, -1.3148, 0.5086, -0.1085, 1.4433, -0.5419, -1.5695]])
step1_col4 = np.array([0.4307, -2.3024, -6.1123, 0.0512, 2.0358])
step4 = np.array([[1.0000, 0, 0, 0, 0],
                  [0.1606, 0.8394, 0, 0, 0],
                  [0.2814, 0.2604, 0.4582, 0, 0],
                  [0.4101, 0.0907, 0.1385, 0.3607, 0],
                  [0.1129, 0.2866, 0.1104, 0.1608, 0.3294]])
step5 = np.array([[0.3206, -0.8451, -1.4655, 0.0448, -0.7504, -0.4821, -0.3502, 1.9636, 0.7334, 0.6107],
                  [-0.1972, 0.3817, -0.3529, -0.9692, -0.2507, -1.0954, 0.6383, -0.7904, 0.6558, -1.1193],
                  [0.4236, -0.0417, -0.5607, -0.8724, 0.1027, -0.2031, 0.2102, 0.6222, 0.5862, -0.7802],
                  [0.5033, 0.4360, -0.7411, -0.0136, 0.0680, -0.3787, 0.3576, 0.3756, 0.3203, -0.0997],
                  [0.5721, 0.3924, -0.0542, -0.1984, 0.5691, -0.4914, 0.4664, -0.1302, 0.4292, -0.6773]])

A = np.vstack([q, np.eye(10)[0]])
b = np.concatenate([step1_col4, [0.3310]])
k4 = np.linalg.lstsq(A, b, rcond=None)[0]
v = np.linalg.solve(step4, step5)
k = np.vstack([k03, k4])
print(json.dumps({"q": np.round(q, 4).tolist(), "k": np.round(k, 6).tolist(), "v": np.round(v, 6).tolist()}))
print("check q·k4 vs printed column 4:", np.abs(q @ k4 - step1_col4).max())
