// A loss kind's starting fields from the last position's logits.
#include "loss_choice.h"

#include "decode.h"

namespace attnlab::gui {

namespace {

// The most probable id of logits row `row` (N, V) other than `not_this`, or -1 when V < 2.
int runner_up(const Tensor& logits, int64_t row, int not_this) {
    const ConstRowVecMap values = logits.row(row);  // (V)
    int best = -1;
    for (Eigen::Index j = 0; j < values.size(); ++j)
        if (static_cast<int>(j) != not_this && (best < 0 || values[j] > values[best])) best = static_cast<int>(j);
    return best;
}

}  // namespace

LossSpec loss_of_kind(const Session& session, const LossSpec& current, LossKind kind) {
    if (kind == LossKind::next_token) return LossSpec{};
    LossSpec out = current;
    out.kind = kind;
    const Stepper& stepper = session.stepper();
    const Tensor* logits = stepper.output(StepId::head(StepKind::logits, stepper.config()));  // (N, V)
    const int64_t n = logits ? logits->dim(0) : 0;
    if (n == 0) return out;  // nothing run yet: the form's fields stay as they are
    if (out.position < 0 || out.position >= n) out.position = n - 1;
    if (out.token < 0) out.token = greedy_next(*logits, out.position, stepper.config());
    if (kind == LossKind::logit_diff && (out.other < 0 || out.other == out.token))
        out.other = runner_up(*logits, out.position, out.token);
    return out;
}

std::string loss_token_name(const Session& session, int id) {
    const Model& m = session.model();
    return token_or_id(session.stepper().config().has_decoder() ? m.tgt_vocab : m.src_vocab, id);
}

}  // namespace attnlab::gui
