// Numbers of the embedding steps: the looked-up row, one PE value with its angle, one sum.
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
    const std::vector<int>& ids = s.step.path.starts_with("src.") ? s.stepper.inputs().src_ids : s.stepper.inputs().tgt_ids;
    v.text["id"] = std::to_string(ids.at(static_cast<size_t>(r)));
    v.text["norm"] = format_number(row_norm(x.row(r)));
}

// PE(pos, 2i) = sin(pos / 10000^(2i/C)) and PE(pos, 2i+1) = cos(same angle), read from the trace.
void sinusoid_values(const StepSite& s, const Tensor& pe, int64_t pos, StepValues& v) {  // pe (N, C)
    const int64_t C = pe.dim(1);
    const int64_t dim = column(s, C, 2);
    const int64_t two_i = std::max<int64_t>(0, std::min(dim - dim % 2, C - 2));
    const double angle = static_cast<double>(pos) / std::pow(10000.0, static_cast<double>(two_i) / static_cast<double>(C));
    v.text["two_i"] = std::to_string(two_i);
    v.text["two_i1"] = std::to_string(two_i + 1);
    v.text["angle"] = format_number(angle);
    v.text["sin"] = format_number(pe.row(pos)(two_i));
    v.text["cos"] = format_number(pe.row(pos)(std::min(two_i + 1, C - 1)));
}

void learned_position_values(const StepSite& s, const Tensor& p, int64_t pos, StepValues& v) {  // p (N, C)
    const int64_t dim = column(s, p.dim(1), 0);
    v.text["dim"] = std::to_string(dim);
    v.text["value"] = format_number(p.row(pos)(dim));
    v.text["norm"] = format_number(row_norm(p.row(pos)));
}

void sum_values(const StepSite& s, const Tensor& x, int64_t r, StepValues& v) {  // x = x_emb + PE (N, C)
    const Tensor &emb = s.input(0), &pe = s.input(1);
    const int64_t dim = column(s, x.dim(1), 0);
    v.text["dim"] = std::to_string(dim);
    v.text["emb"] = format_number(emb.row(r)(dim));
    v.text["pe"] = format_operand(pe.row(r)(dim));
    v.text["sum"] = format_number(x.row(r)(dim));
    v.text["emb_norm"] = format_number(row_norm(emb.row(r)));
    v.text["pe_norm"] = format_number(row_norm(pe.row(r)));
}

}  // namespace

void add_input_values(const StepSite& s, const std::string& kind, StepValues& v) {
    const bool embed = kind.starts_with("embed"), pos = kind.starts_with("pos_");
    if (!embed && !pos && kind != "input") return;
    const Tensor& x = *s.output();  // (N, C)
    const int64_t r = s.row(x.dim(0));
    v.text["row"] = v.text["pos"] = std::to_string(r);
    v.text["token"] = s.row_label(r);
    v.text["shape"] = shape_string(x.shape);
    if (embed) embed_values(s, x, r, v);
    else if (kind == "pos_sinusoidal") sinusoid_values(s, x, r, v);
    else if (kind == "pos_learned") learned_position_values(s, x, r, v);
    else sum_values(s, x, r, v);
}

}  // namespace attnlab
