// The forward pass's products (forward/matmul_list.h) against the model's own parameter shapes: every
// weight matrix is multiplied once per token of its stack, and each attention adds QKᵀ and weights·V.
#include "forward/matmul_list.h"
#include "weights.h"

#include <catch2/catch.hpp>

using namespace attnlab;

namespace {

// The entries of every weight matrix a pass multiplies by: its maps', and the logits' table when it is tied.
double multiplied_weights(const ModelConfig& c) {
    double weights = 0;
    for (const ParamSpec& p : parameter_specs(c))
        if (p.kind == ParamKind::matrix) weights += static_cast<double>(p.shape.at(0) * p.shape.at(1));
    if (c.tie_embeddings && c.output_head != OutputHead::none)
        weights += static_cast<double>(c.output_vocab_size()) * c.d_model;
    return weights;
}

// 2·N·(multiply-adds of every weight matrix) + 4·N²·C per attention sublayer, when every stack has N tokens.
double flops_from_parameters(const ModelConfig& c, int64_t N) {
    const double weights = multiplied_weights(c);
    const int attentions = (c.has_encoder() ? c.n_encoder_layers : 0) +
                           (c.has_decoder() ? c.n_decoder_layers * (c.arch == Arch::encoder_decoder ? 2 : 1) : 0);
    return 2.0 * static_cast<double>(N) * weights + 4.0 * static_cast<double>(N * N) * c.d_model * attentions;
}

}  // namespace

TEST_CASE("a pass's products do the FLOPs of its weight matrices and its attention, for each architecture") {
    const ModelConfig tiny = preset_config("tiny", 50, 70).value();
    ModelConfig encoder_only = tiny, decoder_only = tiny, tied = tiny;
    encoder_only.arch = Arch::encoder_only;
    encoder_only.tgt_vocab_size = encoder_only.n_decoder_layers = 0;
    decoder_only.arch = tied.arch = Arch::decoder_only;
    decoder_only.src_vocab_size = tied.src_vocab_size = decoder_only.n_encoder_layers = tied.n_encoder_layers = 0;
    tied.tie_embeddings = true;  // no generator matrix: the logits read the embedding
    for (const ModelConfig& c : {tiny, encoder_only, decoder_only, tied}) {
        INFO(to_string(c.arch) << (c.tie_embeddings ? ", tied" : ""));
        REQUIRE(validate_config(c));
        for (int64_t n : {1, 7, 33}) CHECK(total_flops(forward_matmuls(c, n, n)) == flops_from_parameters(c, n));
        double weight_operands = 0;  // the B of every product marked a weight: each weight matrix once
        for (const MatmulShape& p : forward_matmuls(c, 7, 7))
            if (p.b_is_weight) weight_operands += static_cast<double>(p.k * p.n * p.count);
        CHECK(weight_operands == multiplied_weights(c));
    }
}

TEST_CASE("cross-attention's keys and values come from the source: S rows for K and V, (T, S) scores") {
    const ModelConfig c = preset_config("base", 99, 99).value();
    const int64_t S = 5, T = 9, D = c.d_head();
    int found = 0;
    for (const MatmulShape& p : forward_matmuls(c, S, T)) {
        INFO(p.what);
        if (p.what == "decoder cross-attention K, V maps") CHECK((p.m == S && p.n == c.d_model && ++found));
        if (p.what == "decoder cross-attention Q map") CHECK((p.m == T && ++found));
        if (p.what == "decoder cross-attention QKᵀ, per head")
            CHECK((p.m == T && p.k == D && p.n == S && p.count == c.n_heads * c.n_decoder_layers && ++found));
        if (p.what == "decoder cross-attention weights·V, per head")
            CHECK((p.m == T && p.k == S && p.n == D && ++found));
        if (p.what == "encoder self-attention QKᵀ, per head") CHECK((p.m == S && p.n == S && ++found));
        if (p.what == "logits") CHECK((p.m == T && p.n == 99 && ++found));
    }
    CHECK(found == 6);
}
