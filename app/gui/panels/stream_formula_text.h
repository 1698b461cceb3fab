// The residual view's formula lines: for a model whose token embeddings are scaled (Granite's m_emb), the
// embedding step's own formula with its constant ("x_emb = E_tgt[token]·m_emb,  m_emb = 12"); then how each
// sublayer updates the stream, the norm mechanism's placement with the residual multiplier before the sublayer's
// output ("x ← x + m·Sublayer(RMSNorm(x)),  m = 0.22"; no m where it is 1). Every formula is the mechanisms'
// (NormMechanism, StreamMultiplierMechanism); the labels are English keys (tr_noop) the panel translates.
#pragma once

#include "stepper.h"

#include <string>
#include <vector>

namespace attnlab::gui {

struct StreamFormulaLine {
    const char* label = "";  // "Embedding", "Pre-norm", "Post-LN, as in the paper", …: a translation key
    std::string formula;
};

// The lines for stack `stack` of the stepper's model, the embedding's first.
std::vector<StreamFormulaLine> stream_formula_lines(const Stepper& stepper, Stack stack);

}  // namespace attnlab::gui
