// How the attention's scaled stage is written for a model: the multiplier of QKᵀ (ModelConfig::attention_scale)
// as the views' formulas and the stage tab show it, so a heading says what the model computes.
#pragma once

#include "config.h"

#include <string>

namespace attnlab::gui {

struct ScoreScaleText {
    // What follows a dot product in a formula: "/√D" (0: the paper's), "" (T5's 1), "/√12" (Gemma's 12^−½),
    // "/128", "·0.3".
    std::string factor;
    std::string tab;  // the stage's: "÷√D", "×1", "÷√12", "÷128", "×0.3"
};

// s = 1/N is written /N and s = 1/√N as /√N when N is a whole number, else s itself.
ScoreScaleText score_scale_text(const ModelConfig& config);

// The scores the softmax reads before the mask, as a heading writes them: QKᵀ with the scale above ("QKᵀ/√D",
// T5's "QKᵀ"), soft-capped when attention_softcap c > 0 as c·tanh(·/c) (Gemma 2's "5·tanh(QKᵀ/√24 / 5)").
std::string score_formula(const ModelConfig& config);

}  // namespace attnlab::gui
