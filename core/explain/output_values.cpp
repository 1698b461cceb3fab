// Numbers of the stack outputs and the output head: norms, the top tokens and their scores.
#include "explain/number_format.h"
#include "explain/step_values.h"
#include "forward/mechanisms/soft_cap.h"
#include "param_names.h"

namespace attnlab {

namespace {

// Ids of the row's two largest entries, largest first, lower id first on a tie (the second
// equals the first when V = 1). One pass: V may be large.
std::pair<int64_t, int64_t> top_two(RowRef row) {
    int64_t first = 0, second = -1;
    for (int64_t j = 1; j < row.size(); ++j) {
        if (row(j) > row(first))
            second = first, first = j;
        else if (second < 0 || row(j) > row(second))
            second = j;
    }
    return {first, second < 0 ? first : second};
}

}  // namespace

void add_output_values(const StepSite& s, StepValues& v) {
    const StepId& id = s.id();
    const Shape& shape = s.output_shape();  // (N, C) or (N, V)
    const int64_t r = s.row(shape.at(0));
    v.text["row"] = std::to_string(r);
    v.text["token"] = s.row_label(r);
    v.text["shape"] = shape_string(shape);
    if (id.kind == StepKind::stack_output) {
        const Tensor& y = *s.output();
        if (final_norm_params(s.config(), id.stack)) return add_norm_values(s, y, r, v);
        v.text["norm"] = format_number(row_norm(y.row(r)));
        return;
    }
    // Logits and probabilities: row r alone, (1, V) (a checkpoint trace's probabilities are not kept)
    const Tensor one = s.output_row(r);
    const auto row = one.row(0);
    const auto [top, second] = top_two(row);
    v.text["top_token"] = s.vocab_label(top);
    v.text["second_token"] = s.vocab_label(second);
    if (id.kind == StepKind::capped_logits) {  // c·tanh(logits / c) of the top token, and the row's spread
        const auto raw = s.input(0).row(r);
        add_numbers(SoftCapMechanism(s.config()).numbers(s.config().logit_softcap, raw(top), row(top), raw,
                                                         row),
                    v);
        v.text["top_logit"] = format_number(row(top));
        v.text["second_logit"] = format_number(row(second));
        return;
    }
    if (id.kind == StepKind::logits) {
        v.text["top_logit"] = format_number(row(top));
        v.text["second_logit"] = format_number(row(second));
        v.text["mean"] = format_number(row_mean(row));
        return;
    }
    v.text["top_p"] = format_number(row(top));
    v.text["second_p"] = format_number(row(second));
    v.text["sum"] = format_number(row.cast<double>().sum());
    if (s.step.record.predicts != Prediction::masked_tokens) return;
    // A masked-LM head scores the token at each position: the probability of the one there.
    const std::vector<int>& ids = s.ids(s.step.record.rows);
    const int own = r < static_cast<int64_t>(ids.size()) ? ids[static_cast<size_t>(r)] : -1;
    v.text["own_p"] = own >= 0 && own < row.size() ? format_number(row(own)) : "?";
}

}  // namespace attnlab
