// The forward pass of each architecture as one ordered list of steps.
#include "forward/graph_builder.h"

namespace attnlab {

std::string Step::signature() const {
    std::string s = path + '\n' + formula + '\n' + variant;
    for (const auto* list : {&inputs, &params, &controls})
        for (const auto& name : *list) s += '\n' + name;
    return s;
}

std::vector<Step> build_forward_steps(const ModelConfig& config) {
    GraphBuilder g(config);
    std::string memory;
    if (config.has_encoder()) {
        std::string x = g.embedding(Side::source);
        const std::string mask = g.encoder_self_mask();
        for (int i = 0; i < config.n_encoder_layers; ++i)
            x = g.self_block("encoder.layers." + std::to_string(i), layer_params(config, Stack::encoder, i), x, mask);
        memory = g.stack_output(Stack::encoder, x);
        if (config.arch == Arch::encoder_only) g.output_head(memory);
    }
    if (config.has_decoder()) {
        std::string x = g.embedding(Side::target);
        const std::string self_mask = g.decoder_self_mask();
        const std::string cross_mask = config.arch == Arch::encoder_decoder ? g.cross_mask() : "";
        for (int i = 0; i < config.n_decoder_layers; ++i) {
            const std::string layer = "decoder.layers." + std::to_string(i);
            const LayerParams params = layer_params(config, Stack::decoder, i);
            x = config.arch == Arch::decoder_only ? g.self_block(layer, params, x, self_mask)
                                                  : g.cross_block(layer, params, x, memory, self_mask, cross_mask);
        }
        g.output_head(g.stack_output(Stack::decoder, x));
    }
    return g.take();
}

}  // namespace attnlab
