// The last position's prediction before and after an edit (see tour_prediction.h).
#include "tour_prediction.h"

#include <algorithm>

namespace attnlab::gui {

namespace {

// The most probable token (the lower id on a tie, as the Output view's bars order them).
int most_probable(const std::vector<float>& p) {
    return static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
}

}  // namespace

std::vector<float> last_row_probs(const Stepper& stepper) {
    const TraceEntry* probs = stepper.entry(StepId::head(StepKind::probs, stepper.config()));  // (N, V)
    if (!probs || probs->value.dim(0) == 0) return {};
    const size_t V = static_cast<size_t>(probs->value.dim(1)), last = static_cast<size_t>(probs->value.dim(0)) - 1;
    const float* row = probs->value.data.data() + last * V;
    return std::vector<float>(row, row + V);
}

std::optional<PredictionChange> prediction_change(const std::vector<float>& before, const std::vector<float>& now) {
    if (before.empty() || before.size() != now.size()) return std::nullopt;
    PredictionChange c;
    c.token = most_probable(before);
    c.before = before[static_cast<size_t>(c.token)];
    c.after = now[static_cast<size_t>(c.token)];
    c.leader = most_probable(now);
    c.leader_p = now[static_cast<size_t>(c.leader)];
    return c;
}

}  // namespace attnlab::gui
