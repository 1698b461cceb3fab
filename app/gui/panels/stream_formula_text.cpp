#include "panels/stream_formula_text.h"

#include "i18n.h"

#include "forward/mechanisms/norm.h"
#include "forward/mechanisms/stream_multipliers.h"

namespace attnlab::gui {

namespace {

// "formula,  m = 0.22", or the formula alone without a constant.
std::string with_constant(const std::string& formula, const std::string& constant) {
    return constant.empty() ? formula : formula + ",  " + constant;
}

}  // namespace

std::vector<StreamFormulaLine> stream_formula_lines(const Stepper& stepper, Stack stack) {
    const ModelConfig& c = stepper.config();
    const NormMechanism norm(c);  // the Llama template's norms are RMSNorms: no mean, no β
    const StreamMultiplierMechanism multipliers(c);
    std::vector<StreamFormulaLine> lines;
    if (multipliers.scales_embeddings())
        if (const auto i = stepper.find(StepId::of(StepKind::token_embedding, stack)))
            lines.push_back(
                {tr_noop("Embedding"), with_constant(stepper.step(*i).formula, multipliers.embedding_constant())});
    const char* label = norm.before_sublayer() ? (norm.rms() ? tr_noop("Pre-norm") : tr_noop("Pre-LN"))
                        : norm.rms()           ? tr_noop("Post-norm, as in the paper")
                                               : tr_noop("Post-LN, as in the paper");
    lines.push_back({label, with_constant(norm.stream_formula(multipliers.residual_formula_part()),
                                          multipliers.residual_constant())});
    return lines;
}

}  // namespace attnlab::gui
