// Token names for explanations, from a model's vocabularies and the ids being run.
#pragma once

#include "explain/explanation.h"
#include "model.h"

namespace attnlab {

// source/target: the vocabulary token of each id (ids outside it stay unnamed, shown as #id);
// output_vocab: the vocabulary the logits score (it points into `model`). Sides without a vocabulary stay empty.
ExplainLabels explain_labels(const Model& model, const ForwardInputs& inputs);

}  // namespace attnlab
