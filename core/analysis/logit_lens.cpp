#include "analysis/logit_lens.h"

#include "analysis/token_ranking.h"

#include "forward/linear_map.h"
#include "forward/mechanisms/norm.h"
#include "ops/activation.h"
#include "ops/softmax.h"
#include "param_names.h"

#include <algorithm>
#include <cassert>
#include <numeric>

namespace attnlab {

namespace {

// (N, C) residual rows -> (N, V) probabilities, as the model's own end would make them.
Tensor read_out(const ModelConfig& config, const Weights& weights, Stack stack, Tensor x) {
    const NormMechanism norm(config);
    if (const auto params = final_norm_params(config, stack)) x = norm.forward(weights, *params, x);
    const HeadParams head = head_params(config);
    if (head.transform) {
        x = activation_forward(linear_map_forward(weights, *head.transform, x), config.activation);
        x = norm.forward(weights, *head.transform_norm, x);
    }
    return softmax_rows(linear_map_forward(weights, head.unembed, x));
}

// Rows `positions` of a (T, C) tensor.
Tensor pick_rows(const Tensor& x, const std::vector<int>& positions) {
    Tensor out({static_cast<int64_t>(positions.size()), x.dim(1)});
    for (size_t i = 0; i < positions.size(); ++i) out.row(static_cast<int64_t>(i)) = x.row(positions[i]);
    return out;
}

std::vector<TokenProbability> top_k(ConstRowVecMap p, int k) {
    std::vector<TokenProbability> out;
    for (const TokenScore& t : rank_tokens(p, k)) out.push_back({t.id, t.value});
    return out;
}

}  // namespace

StepId layer_output(const ModelConfig& config, Stack stack, int layer) {
    const int last_sublayer = stack == Stack::decoder && config.arch == Arch::encoder_decoder ? 3 : 2;
    return StepId::sublayer_at(NormMechanism(config).before_sublayer() ? StepKind::residual : StepKind::norm, stack,
                               layer, last_sublayer);
}

Result<LogitLens> logit_lens(const Stepper& stepper, std::vector<int> positions, int k) {
    const ModelConfig& config = stepper.config();
    if (config.output_head == OutputHead::none)
        return Error{"this model has no output head to read the layers through"};
    const Stack stack = config.has_decoder() ? Stack::decoder : Stack::encoder;
    const int n_layers = stack == Stack::decoder ? config.n_decoder_layers : config.n_encoder_layers;
    if (n_layers == 0) return Error{"the model has no layers"};
    LogitLens lens;
    auto path = [&stepper](const StepId& id) {
        const auto i = stepper.find(id);
        assert(i && "the stack's input and every layer's output are steps");
        return stepper.step(*i).path;
    };
    lens.rows.push_back(path(stack_input(config, stack)));
    for (int l = 0; l < n_layers; ++l) lens.rows.push_back(path(layer_output(config, stack, l)));
    const Tensor* last = stepper.output(lens.rows.back());
    if (!last) return Error{"the trace has not reached " + lens.rows.back() + " yet: run the stepper to the end"};

    const int T = static_cast<int>(last->dim(0));
    if (positions.empty()) {
        positions.resize(static_cast<size_t>(T));
        std::iota(positions.begin(), positions.end(), 0);
    }
    for (int p : positions)
        if (p < 0 || p >= T)
            return Error{"position " + std::to_string(p) + " is outside the sequence of " + std::to_string(T)};
    lens.positions = positions;
    for (const std::string& row : lens.rows) {
        const Tensor probs = read_out(config, stepper.weights(), stack, pick_rows(*stepper.output(row), positions));
        auto& per_position = lens.top.emplace_back();
        for (int64_t i = 0; i < probs.dim(0); ++i) per_position.push_back(top_k(probs.row(i), k));
    }
    return lens;
}

}  // namespace attnlab
