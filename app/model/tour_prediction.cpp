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
    // One row: a checkpoint trace makes only that row of its on-demand (N, V) probabilities, not all of them.
    const StepId id = StepId::head(StepKind::probs, stepper.config());
    const TraceEntry* facts = stepper.run_facts(id);  // the shape without the numbers
    if (!facts || facts->value.dim(0) == 0) return {};
    const int64_t last = facts->value.dim(0) - 1;
    std::optional<Tensor> row = stepper.output_rows(id, last, last + 1);  // (1, V)
    if (!row) return {};
    return std::vector<float>(row->data.begin(), row->data.end());
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
