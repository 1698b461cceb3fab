#include "analysis/head_split.h"

#include "forward/step_path.h"

namespace attnlab {

double linear_weight_at(const Tensor& w, const LinearParams& map, int64_t out, int64_t in) {
    const int64_t o = map.out_begin + out;
    const int64_t flat = map.layout == WeightLayout::out_in ? o * map.n_in + in : in * map.n_stored_out + o;
    return w.value_at(flat);  // F32 or BF16
}

const Tensor* linear_bias(const Weights& weights, const LinearParams& map) {
    if (map.bias.empty()) return nullptr;
    return map.bias_optional ? weights.find(map.bias) : &weights.at(map.bias);
}

Eigen::RowVectorXd HeadSplit::value(int64_t h, int64_t j) const {
    const int64_t g = h * H_kv / H;
    Eigen::RowVectorXd v(D);
    for (int64_t d = 0; d < D; ++d) v(d) = values->data[static_cast<size_t>((g * Tk + j) * D + d)];
    return v;
}

Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> HeadSplit::source_outputs(int64_t h) const {
    Eigen::MatrixXd w_h(D, C);  // W_O,hᵀ (D, C)
    for (int64_t c = 0; c < C; ++c)
        for (int64_t d = 0; d < D; ++d) w_h(d, c) = linear_weight_at(*w_o, out, c, h * D + d);
    Eigen::MatrixXd v(Tk, D);  // V[g(h)] (Tk, D)
    for (int64_t j = 0; j < Tk; ++j) v.row(j) = value(h, j);
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> p(Tk, C);
    p.noalias() = v * w_h;
    return p;
}

Result<HeadSplit> head_split(const Stepper& stepper, const AttentionSite& site) {
    const ModelConfig& config = stepper.config();
    HeadSplit s;
    s.name = attention_name(site);
    s.weights = stepper.output(StepId::attention_at(site, AttentionStage::weights));
    s.values = stepper.output(StepId::attention_at(site, AttentionStage::v));
    if (!s.weights || !s.values) return Error{s.name + ": its weights and V have not been computed"};
    s.H = config.n_heads, s.H_kv = config.kv_heads(), s.D = config.d_head(), s.C = config.d_model;
    s.Tq = s.weights->dim(1), s.Tk = s.weights->dim(2);
    if (s.weights->dim(0) != s.H || s.values->dim(0) != s.H_kv || s.values->dim(1) != s.Tk || s.values->dim(2) != s.D)
        return Error{s.name + ": unexpected shapes of its weights " + shape_string(s.weights->shape) + " and V " +
                     shape_string(s.values->shape)};
    const LayerParams layer = layer_params(config, stack_of(site.use), site.layer);
    s.out = site.use == AttentionUse::cross ? layer.cross_attn->out : layer.self_attn.out;
    s.w_o = &stepper.weights().at(s.out.weight);
    s.out_bias = linear_bias(stepper.weights(), s.out);
    const auto ablated = stepper.inputs().ablated_heads.find(site);
    if (ablated != stepper.inputs().ablated_heads.end()) s.ablated = {ablated->second.begin(), ablated->second.end()};
    return s;
}

}  // namespace attnlab
