// backward.h — the backward pass: the loss of a run and dL/dX for every step X the loss
// depends on and every parameter, recorded as trace steps "loss" and "grad.X" (docs/trace.md,
// "Backward pass"). It walks the forward trace in reverse (llm.c's gpt2_backward): each
// forward step's kind and inputs say how its gradient flows to those inputs, and gradients
// accumulate (+=) where a tensor feeds several steps (residuals, K/V of the encoder output in
// every cross-attention, the embedding table tied to the output projection). The values it
// reads are the ones the forward pass recorded.
//
// The loss: a classifier's cross-entropy of cls.probs against Model::label (and label2 for
// the second sentence; the mean over the sentences that have one), and an encoder–decoder's
// mean token cross-entropy of probs against the decoder input shifted left with </s> at the
// end (teacher forcing); with both, their sum.
//
// Deliberately left out: steps no parameter influences (token ids, masks, the sinusoidal
// encoding) get no grad step.
#pragma once
#include "model/model.h"
#include "trace/trace.h"

namespace ew {

// Appends "loss" and the grad steps to a trace that ew::run just filled for `model`.
// Throws ew::Error when the model has nothing to predict (no classifier label, no decoder),
// when a target token is not in the vocabulary, or when the loss is not finite (the right
// answer's probability 0). A gradient that overflows float32 is recorded as it is: the
// session's overflow scan stops the run there, naming the step (core/session/session.cpp).
// activations = false records only the loss and the parameters' gradients (all that
// training needs; the others are still computed, as the chain rule requires).
// fused_loss: the softmax the loss reads gets dL/dz = w·(p − onehot) in one term, without the
// cancellation of its separate steps at a confident answer (backward.cpp). The trainer's
// recorded path passes false: its gradients, and so the file it wrote for dates
// (models/dates.safetensors, reproduced byte for byte), are those of the separate steps.
void run_backward(const Model& model, Trace& trace, bool activations = true, bool fused_loss = true);

}  // namespace ew
