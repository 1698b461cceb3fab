// The corrupted run of activation patching, as the Input view reads it: the clean run's inputs with the patched
// sequence (the source of a model with an encoder, else the prompt) read from the corrupted sentence the way the
// Input view reads that side (its tokenizer; token ids, "4,7,9,2", for a model without a vocabulary), each token
// marked where it differs from the clean one, and a one-line error when it cannot run beside the clean one.
#pragma once

#include "model.h"
#include "stepper.h"

#include <string>
#include <vector>

namespace attnlab::gui {

struct CorruptedInput {
    ForwardInputs inputs;             // the clean run's, the patched sequence's ids replaced (when read)
    std::vector<int> ids;             // the patched sequence as read (S,) or (T,)
    std::vector<std::string> labels;  // each token's text (its id without a vocabulary)
    std::vector<bool> differs;        // each token: not the clean run's token at its position
    int clean_length = 0;             // the clean sequence's tokens
    std::string error;                // empty when the two can be patched (check_patchable), else why not
};

// `model` gives the tokenizer and the vocabulary, `clean` the inputs the session runs.
CorruptedInput read_corrupted_input(const Model& model, const ForwardInputs& clean, const std::string& text);

}  // namespace attnlab::gui
