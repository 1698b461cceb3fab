// Greedy decoding over the stepper.
#include "decode.h"

#include <limits>

namespace attnlab {

int argmax_row(const Tensor& logits, int64_t row) {
    Eigen::Index best = 0;
    logits.row(row).maxCoeff(&best);
    return static_cast<int>(best);
}

int greedy_next(const Tensor& logits, int64_t row, const ModelConfig& config) {
    if (config.never_generated.empty()) return argmax_row(logits, row);
    RowVec allowed = logits.row(row);  // (V,)
    for (const int id : config.never_generated) allowed[id] = -std::numeric_limits<float>::infinity();
    Eigen::Index best = 0;
    allowed.maxCoeff(&best);
    return static_cast<int>(best);
}

Result<std::vector<int>> greedy_decode(Stepper& stepper) {
    const ModelConfig& c = stepper.config();
    if (!c.has_decoder()) return Error{"greedy decoding needs a decoder; this model is encoder_only"};
    std::vector<int> tgt = stepper.inputs().tgt_ids;
    std::vector<int> generated;
    stepper.run_all();
    while (static_cast<int>(tgt.size()) < c.max_len) {
        const Tensor* logits = stepper.output(StepId::head(StepKind::logits, c));  // (T, V)
        const int next = greedy_next(*logits, logits->dim(0) - 1, c);
        generated.push_back(next);
        tgt.push_back(next);
        if (auto st = stepper.set_tgt_ids(tgt); !st) return st.error();
        if (next == c.eos_id) break;
    }
    return generated;
}

}  // namespace attnlab
