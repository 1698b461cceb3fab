// explain_step: one forward-pass step explained in one language: its title and formula, what
// it computes, why, and the formula again with the numbers of the current trace filled in.
#pragma once

#include "explain/explanation_table.h"
#include "stepper.h"
#include "text/vocab.h"

#include <map>
#include <string>
#include <vector>

namespace attnlab {

// Which cell the numbers describe. Out-of-range values fall back to the defaults.
struct ExplainFocus {
    int head = 0;  // attention steps: the head
    int row = -1;  // the token row; -1: the last one (the newest token, the one predicting next)
    int col = -1;  // a key or a dimension; -1: chosen per step (the row's strongest allowed key, ...)
};

// How tokens are named in the numbers; a token without a label shows as #id.
struct ExplainLabels {
    std::vector<std::string> source, target;  // one per position
    const Vocab* output_vocab = nullptr;      // the vocabulary the logits score; not owned
};

struct Explanation {
    std::string kind;  // see kExplanationKinds
    std::string title, formula, what, why;
    std::string numbers;                        // the formula with this trace's numbers, or the table's "pending" text
    bool has_numbers = false;                   // false until the step has run
    std::map<std::string, std::string> values;  // every placeholder value `numbers` may use, as shown
};

// Errors (one line): a step no kind covers, a template naming an unknown placeholder or term.
// Asserts index < stepper.size().
Result<Explanation> explain_step(const ExplanationTable& table, const Stepper& stepper, size_t index,
                                 const ExplainFocus& focus = {}, const ExplainLabels& labels = {});

}  // namespace attnlab
