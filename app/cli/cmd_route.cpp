// attnlab-cli route: a mixture of experts' routing, each token's chosen experts with their weights, and the load per
// expert, per layer (app/model/router_table.h, what the app's router view shows).
#include "cli_common.h"
#include "cli_tokens.h"
#include "commands.h"
#include "router_table.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace attnlab::cli {

int run_route(const Argv& argv) {
    Args args;
    std::set<std::string> values = kInputFlags;
    values.insert("layer");
    if (auto err = parse_args(argv, {values, {"json"}, 1}, args)) return fail("route: " + *err, kExitUsage);
    Model model;
    int code = 0;
    auto stepper = open_stepper(args, &model, &code);
    if (!stepper) return fail(stepper.error().message, code);
    const ModelConfig& c = model.config;
    if (c.n_experts == 0) return fail("route: this model has no experts (not a mixture of experts)", kExitBadInput);
    const Stack stack = c.has_decoder() ? Stack::decoder : Stack::encoder;
    const int n_layers = stack == Stack::decoder ? c.n_decoder_layers : c.n_encoder_layers;
    const auto only = integer_flag(args, "layer", -1, -1, n_layers - 1);
    if (!only) return fail("route: --layer must be a layer of the model, 0.." + std::to_string(n_layers - 1), kExitUsage);
    stepper->run_all();
    const std::vector<int>& ids = stack == Stack::decoder ? stepper->inputs().tgt_ids : stepper->inputs().src_ids;
    nlohmann::json layers = nlohmann::json::array();
    for (int layer = 0; layer < n_layers; ++layer) {
        if (*only >= 0 && layer != *only) continue;
        const auto table = router_table(*stepper, {stack, layer});
        if (!table) continue;  // a dense layer
        nlohmann::json tokens = nlohmann::json::array();
        if (!args.has("json")) std::printf("layer %d (%d experts, top %d)\n", layer, c.n_experts, c.experts_per_token);
        for (int t = 0; t < table->n_tokens; ++t) {
            const std::string text = token_text(model, ids.at(static_cast<size_t>(t)), stack);
            nlohmann::json experts = nlohmann::json::array();
            std::string line;
            for (const ExpertChoice& e : table->chosen[static_cast<size_t>(t)]) {
                experts.push_back({{"expert", e.expert}, {"weight", e.weight}, {"score", e.score}});
                char part[48];
                std::snprintf(part, sizeof part, "%s%d (%.3f)", line.empty() ? "" : ", ", e.expert,
                              static_cast<double>(e.weight));
                line += part;
            }
            tokens.push_back({{"position", t}, {"id", ids.at(static_cast<size_t>(t))}, {"token", text},
                              {"experts", experts}});
            if (!args.has("json")) std::printf("  %3d %-16s -> %s\n", t, shown(text).c_str(), line.c_str());
        }
        if (!args.has("json")) {
            std::printf("  load:");
            for (int e = 0; e < table->n_experts; ++e)
                std::printf(" %d:%d", e, table->tokens_per_expert[static_cast<size_t>(e)]);
            std::printf("\n");
        }
        layers.push_back({{"layer", layer}, {"tokens", tokens}, {"tokens_per_expert", table->tokens_per_expert},
                          {"weight_per_expert", table->weight_per_expert}});
    }
    if (args.has("json")) std::printf("%s\n", nlohmann::json{{"layers", layers}}.dump(2).c_str());
    return 0;
}

}  // namespace attnlab::cli
