// Numbers of the embedding steps: the looked-up row, one PE value with its angle, a token
// type, one entry of the sum. The sum's parts are found by id, so no input order is assumed.
#include "explain/number_format.h"
#include "explain/step_values.h"

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

// The focused column of an (N, C) tensor, else `fallback`.
int64_t column(const StepSite& s, int64_t n_cols, int64_t fallback) {
    return s.focus.col >= 0 && s.focus.col < n_cols ? s.focus.col : std::min(fallback, n_cols - 1);
}

void embed_values(const StepSite& s, const Tensor& x, int64_t r, StepValues& v) {  // x (N, C)
    v.text["id"] = std::to_string(s.ids(s.step.record.rows).at(static_cast<size_t>(r)));
    v.text["norm"] = format_number(row_norm(x.row(r)));
}

// One sine–cosine pair of frequency i, read from the trace: PE(pos, 2i) = sin(pos / 10000^(2i/C)) and
// PE(pos, 2i+1) = cos(same angle) interleaved, or columns i and ⌈C/2⌉ + i in halves.
void sinusoid_values(const StepSite& s, const Tensor& pe, int64_t pos, StepValues& v) {  // pe (N, C)
    const int64_t C = pe.dim(1), n_sines = (C + 1) / 2;
    const int64_t dim = column(s, C, 2);
    const bool halves = s.config().sinusoid_layout == SinusoidLayout::halves;
    const int64_t i = halves ? std::min(dim < n_sines ? dim : dim - n_sines, C / 2 - 1)
                             : std::max<int64_t>(0, std::min(dim - dim % 2, C - 2)) / 2;
    const int64_t sin_col = halves ? i : 2 * i, cos_col = std::min(halves ? n_sines + i : 2 * i + 1, C - 1);
    const double angle =
        static_cast<double>(pos) / std::pow(10000.0, static_cast<double>(2 * i) / static_cast<double>(C));
    v.text["two_i"] = std::to_string(2 * i);
    v.text["two_i1"] = std::to_string(2 * i + 1);
    v.text["sin_col"] = std::to_string(sin_col);
    v.text["cos_col"] = std::to_string(cos_col);
    v.text["angle"] = format_number(angle);
    v.text["sin"] = format_number(pe.row(pos)(sin_col));
    v.text["cos"] = format_number(pe.row(pos)(cos_col));
}

void learned_position_values(const StepSite& s, const Tensor& p, int64_t pos, StepValues& v) {  // p (N, C)
    const int64_t dim = column(s, p.dim(1), 0);
    v.text["dim"] = std::to_string(dim);
    v.text["value"] = format_number(p.row(pos)(dim));
    v.text["norm"] = format_number(row_norm(p.row(pos)));
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
            if (s.config().positional == Positional::sinusoidal) return sinusoid_values(s, x, r, v);
            return learned_position_values(s, x, r, v);
        case StepKind::token_type: return token_type_values(s, x, r, v);
        case StepKind::embedding_sum: return sum_values(s, x, r, v);
        default: return;
    }
}

}  // namespace attnlab
