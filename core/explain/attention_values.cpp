// Numbers of the attention stages for the focused head and query row: one q·k with its scale,
// the masked cells, the row's strongest weight, the context it reads, the concat and W^O.
#include "explain/number_format.h"
#include "explain/step_values.h"
#include "forward/mechanisms/soft_cap.h"
#include "forward/mechanisms/layer_variants.h"
#include "ops/attention.h"
#include "ops/rotary.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <optional>

namespace attnlab {

namespace {

// The mask (Tq, Tk) this step's use of attention reads, if it has run.
const Tensor* attention_mask(const StepSite& s) { return s.stepper.output(mask_of_site(s.config(), s.id().site())); }

// The focused key, else the key with the largest value in `row` among those the mask allows (else 0).
int64_t key_column(const StepSite& s, RowRef row, int64_t r) {
    if (s.focus.col >= 0 && s.focus.col < row.size()) return s.focus.col;
    const Tensor* mask = attention_mask(s);
    int64_t best = -1;
    for (int64_t j = 0; j < row.size(); ++j) {
        if (mask && mask->row(r)(j) == 0.0f) continue;
        if (best < 0 || row(j) > row(best)) best = j;
    }
    return best < 0 ? 0 : best;
}

int64_t argmax(RowRef row) {
    Eigen::Index j = 0;
    row.maxCoeff(&j);
    return j;
}

void score_values(const StepSite& s, AttentionStage stage, const Tensor& out, int h, int64_t r, StepValues& v) {
    const ConstMatMap m = out.slice(h);  // (Tq, Tk)
    const int64_t c = key_column(s, m.row(r), r);
    v.text["col"] = std::to_string(c);
    v.text["key"] = s.key_label(c);
    v.text["cols"] = format_count(m.cols());
    v.text["cells"] = format_count(m.size());
    switch (stage) {
        case AttentionStage::scores:
            v.text["score"] = format_number(m(r, c));
            v.text["row_min"] = format_number(m.row(r).minCoeff());
            v.text["row_max"] = format_number(m.row(r).maxCoeff());
            return;
        case AttentionStage::scaled: {
            const ConstMatMap scores = s.input(0).slice(h);
            v.text["score"] = format_number(scores(r, c));
            v.text["scaled"] = format_number(m(r, c));
            v.text["std_before"] = format_number(row_std(scores.row(r)));
            v.text["std_after"] = format_number(row_std(m.row(r)));
            return;
        }
        case AttentionStage::capped: {  // c·tanh(scaled / c): the focused entry, and the row's top before and after
            const ConstMatMap before = s.input(0).slice(h);
            add_numbers(SoftCapMechanism(s.config()).numbers(s.config().attention_softcap, before(r, c), m(r, c),
                                                             before.row(r), m.row(r)),
                        v);
            return;
        }
        case AttentionStage::biased: {  // scaled (H, Tq, Tk) + bias (H, Tq, Tk)
            v.text["scaled"] = format_number(s.input(0).slice(h)(r, c));
            v.text["bias"] = format_number(s.input(1).slice(h)(r, c));
            v.text["biased"] = format_number(m(r, c));
            v.text["distance"] = std::to_string(r - c);
            return;
        }
        case AttentionStage::masked: {
            auto is_minus_inf = [](float x) { return std::isinf(x) && x < 0; };
            v.text["row_blocked"] = format_count(std::count_if(m.row(r).begin(), m.row(r).end(), is_minus_inf));
            v.text["blocked"] = format_count(std::count_if(m.data(), m.data() + m.size(), is_minus_inf));
            return;
        }
        case AttentionStage::weights: {
            const int64_t best = argmax(m.row(r));
            v.text["w_max"] = format_number(m(r, best));
            v.text["max_key"] = s.key_label(best);
            v.text["row_sum"] = format_number(m.row(r).cast<double>().sum());
            return;
        }
        default: assert(false && "score stages only");
    }
}

// A rotated row: its position, the angles of the first (fastest) and last (slowest) pairs, and its norm, which
// a rotation keeps.
void rotation_values(const StepSite& s, const Tensor& out, int64_t head, int64_t r, StepValues& v) {  // (H, N, D)
    const std::optional<RopeConfig> rope = rope_of_layer(s.config(), s.id().layer);  // a local layer's base
    const std::vector<float> theta = rope_inverse_frequencies(rope.value_or(s.config().rope), s.config().d_head());
    v.text["pos"] = std::to_string(r);
    v.text["kv_head"] = std::to_string(head);
    v.text["pairs"] = std::to_string(theta.size());
    v.text["angle_first"] = format_number(rope_angle(r, theta.front()));
    v.text["angle_last"] = format_number(rope_angle(r, theta.back()));
    v.text["in_norm"] = format_number(row_norm(s.input(0).slice(head).row(r)));
    v.text["norm"] = format_number(row_norm(out.slice(head).row(r)));
}

void context_values(const StepSite& s, const Tensor& out, int h, int64_t r, StepValues& v) {  // out (H, Tq, D)
    const ConstMatMap w = s.input(0).slice(h);                                                // (Tq, Tk)
    const int64_t best = argmax(w.row(r));
    v.text["max_col"] = std::to_string(best);
    v.text["max_key"] = s.key_label(best);
    v.text["w_max"] = format_number(w(r, best));
    v.text["n_keys"] = format_count(w.cols());
    v.text["norm"] = format_number(row_norm(out.slice(h).row(r)));
}

}  // namespace

void add_attention_values(const StepSite& s, StepValues& v) {
    const AttentionStage stage = s.id().stage;
    const Tensor& out = *s.output();
    const int h = s.head();
    v.text["shape"] = shape_string(out.shape);
    if (stage == AttentionStage::concat || stage == AttentionStage::out) {  // (Tq, C)
        const int64_t r = s.row(out.dim(0));
        const int D = s.config().d_head();
        v.text["row"] = std::to_string(r);
        v.text["token"] = s.row_label(r);
        v.text["in_shape"] = shape_string(s.input(0).shape);
        v.text["norm"] = format_number(row_norm(out.row(r)));
        if (stage == AttentionStage::out) {
            v.text["in_norm"] = format_number(row_norm(s.input(0).row(r)));
        } else {  // concat: head h fills columns [h·D, (h+1)·D)
            v.text["first"] = std::to_string(h * D);
            v.text["last"] = std::to_string((h + 1) * D - 1);
        }
        return;
    }
    const int64_t r = s.row(out.dim(1));  // (H, N, ·)
    v.text["row"] = std::to_string(r);
    v.text["token"] = s.row_label(r);
    // Q's stages have H heads; K's and V's H_kv, and query head h reads K/V head g.
    const int64_t g = kv_head_of(h, s.config().n_heads, out.dim(0));
    switch (stage) {
        case AttentionStage::q:
        case AttentionStage::q_norm:
        case AttentionStage::k:
        case AttentionStage::v:
        case AttentionStage::k_norm:
            v.text["kv_head"] = std::to_string(g);
            v.text["group"] = std::to_string(s.config().n_heads / out.dim(0));
            v.text["norm"] = format_number(row_norm(out.slice(g).row(r)));
            return;
        case AttentionStage::q_rot:
        case AttentionStage::k_rot: return rotation_values(s, out, g, r, v);
        case AttentionStage::context: return context_values(s, out, h, r, v);
        default: return score_values(s, stage, out, h, r, v);
    }
}

}  // namespace attnlab
