// Numbers of the embedding steps: the looked-up row, one PE value with its angle, a token
// type, one entry of the sum. The sum's parts are found by id, so no input order is assumed.
#include "explain/number_format.h"
#include "explain/step_values.h"
#include "forward/mechanisms/positions.h"

#include <algorithm>
#include <optional>

namespace attnlab {

namespace {

// The focused column of an (N, C) tensor, if the focus has one within it.
std::optional<int64_t> focused_column(const StepSite& s, int64_t n_cols) {
    return s.focus.col >= 0 && s.focus.col < n_cols ? std::optional(s.focus.col) : std::nullopt;
}

// The focused column, else `fallback`.
int64_t column(const StepSite& s, int64_t n_cols, int64_t fallback) {
    return focused_column(s, n_cols).value_or(std::min(fallback, n_cols - 1));
}

void embed_values(const StepSite& s, const Tensor& x, int64_t r, StepValues& v) {  // x (N, C)
    v.text["id"] = std::to_string(s.ids(s.step.record.rows).at(static_cast<size_t>(r)));
    v.text["norm"] = format_number(row_norm(x.row(r)));
}

// x_type[r] = E_type[type_r]: the type given for position r, else 0 (as the step computes it).
void token_type_values(const StepSite& s, const Tensor& x, int64_t r, StepValues& v) {  // x (S, C)
    const std::vector<int>& given = s.stepper.inputs().src_token_types;
    auto type_at = [&](int64_t i) {
        return i < static_cast<int64_t>(given.size()) ? given[static_cast<size_t>(i)] : 0;
    };
    int64_t type0 = 0;
    for (int64_t i = 0; i < x.dim(0); ++i) type0 += type_at(i) == 0 ? 1 : 0;
    v.text["type"] = std::to_string(type_at(r));
    v.text["norm"] = format_number(row_norm(x.row(r)));
    v.text["n"] = format_count(x.dim(0));
    v.text["n_type0"] = format_count(type0);
}

// x = x_emb + PE (+ x_type): entry `dim` of row r, each part's and the sum's.
void sum_values(const StepSite& s, const Tensor& x, int64_t r, StepValues& v) {  // x (N, C)
    const Stack stack = s.id().stack;
    const Tensor* emb = s.stepper.output(StepId::of(StepKind::token_embedding, stack));
    const Tensor* pe = s.stepper.output(StepId::of(StepKind::position, stack));      // nullptr without positions
    const Tensor* type = s.stepper.output(StepId::of(StepKind::token_type, stack));  // nullptr without token types
    const int64_t dim = column(s, x.dim(1), 0);
    auto entry = [&](const Tensor* t) { return t ? static_cast<double>(t->row(r)(dim)) : 0.0; };
    auto norm = [&](const Tensor* t) { return t ? row_norm(t->row(r)) : 0.0; };
    v.text["dim"] = std::to_string(dim);
    v.text["emb"] = format_number(entry(emb));
    v.text["pe"] = format_operand(entry(pe));
    v.text["sum"] = format_number(x.row(r)(dim));
    v.text["emb_norm"] = format_number(norm(emb));
    v.text["pe_norm"] = format_number(norm(pe));
    if (type) {
        v.text["type_value"] = format_operand(entry(type));
        v.text["type_norm"] = format_number(norm(type));
    }
}

}  // namespace

void add_input_values(const StepSite& s, StepValues& v) {
    const Tensor& x = *s.output();  // (N, C)
    const int64_t r = s.row(x.dim(0));
    v.text["row"] = v.text["pos"] = std::to_string(r);
    v.text["token"] = s.row_label(r);
    v.text["shape"] = shape_string(x.shape);
    switch (s.id().kind) {
        case StepKind::token_embedding: return embed_values(s, x, r, v);
        case StepKind::position:
            return add_numbers(PositionMechanism(s.config()).position_numbers(x, r, focused_column(s, x.dim(1))), v);
        case StepKind::token_type: return token_type_values(s, x, r, v);
        case StepKind::embedding_sum: return sum_values(s, x, r, v);
        default: return;
    }
}

}  // namespace attnlab
