// Helpers for the explanation tests: the bundled language files, every switch combination of
// our family, the GPT-2 and BERT fixtures, and "this shown number is that value" at the
// precision it is shown with.
#pragma once

#include "../test_support.h"
#include "explain/explanation.h"
#include "hf/open_model.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace attnlab::test {

inline const ExplanationTable& bundled_table(Language language) {
    static const Result<ExplanationTable> tables[] = {
        load_explanation_table(std::string(ATTNLAB_SOURCE_DIR) + "/assets", Language::english),
        load_explanation_table(std::string(ATTNLAB_SOURCE_DIR) + "/assets", Language::korean)};
    const Result<ExplanationTable>& t = tables[language == Language::korean ? 1 : 0];
    if (!t) FAIL(t.error().message);
    return *t;
}

// Every architecture × norm placement × activation × positions, each once with the embedding
// scale, final norm and tied output on and once with them off.
inline std::vector<ModelConfig> every_switch_combination() {
    std::vector<ModelConfig> configs;
    for (Arch arch : {Arch::encoder_decoder, Arch::encoder_only, Arch::decoder_only})
        for (bool norm_first : {false, true})
            for (Activation act : {Activation::relu, Activation::gelu, Activation::gelu_tanh})
                for (Positional pos : {Positional::sinusoidal, Positional::learned, Positional::none})
                    for (bool on : {false, true}) {
                        ModelConfig c = small_config();
                        c.arch = arch;
                        if (arch == Arch::encoder_only) c.n_decoder_layers = 0;
                        if (arch == Arch::decoder_only) c.n_encoder_layers = 0;
                        c.norm_first = norm_first;
                        c.activation = act;
                        c.positional = pos;
                        c.scale_embedding = c.final_norm = c.tie_embeddings = on;
                        configs.push_back(c);
                    }
    return configs;
}

// A model of another family, opened from a committed fixture, with inputs to run it on.
struct FamilyModel {
    std::string name;
    ModelConfig config;
    Weights weights;
    ForwardInputs inputs;

    Stepper stepper() const {
        auto s = Stepper::create(config, weights, inputs);
        if (!s) FAIL(name + ": " + s.error().message);
        return std::move(*s);
    }
};

inline Model fixture_model(const std::string& folder) {
    auto loaded = open_model(std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/" + folder);
    if (!loaded) FAIL(loaded.error().message);
    return std::move(loaded->model);
}

// GPT-2 (decoder-only, pre-LN, learned positions, Conv1D (in, out) weights, tied logits without
// a bias) and BERT (encoder-only, post-LN, token types, embedding LayerNorm), BERT once per
// activation of its MLM head and once without the head (BertModel: the same weights minus
// cls.*, as hf_folder.cpp opens a file without them), and the Llama template's families.
inline std::vector<FamilyModel> hugging_face_models() {
    std::vector<FamilyModel> models;
    const Model gpt2 = fixture_model("hf_gpt2");
    ForwardInputs gpt2_in;
    gpt2_in.tgt_ids = {4, 9, 11, 3, 7};
    models.push_back({"gpt2", gpt2.config, gpt2.weights, gpt2_in});

    const Model bert = fixture_model("hf_bert");
    ForwardInputs bert_in;
    bert_in.src_ids = {2, 7, 4, 9, 3, 5};
    bert_in.src_token_types = {0, 0, 0, 1, 1};  // the last position falls back to type 0
    for (Activation act : {Activation::gelu, Activation::relu, Activation::gelu_tanh, Activation::silu}) {
        ModelConfig c = bert.config;
        c.activation = act;
        models.push_back({"bert " + to_string(act), c, bert.weights, bert_in});
    }
    ModelConfig bare = bert.config;
    bare.output_head = OutputHead::none;
    Weights bare_weights;
    for (const ParamSpec& spec : parameter_specs(bare))
        bare_weights.set_shared(spec.name, bert.weights.shared(spec.name));
    models.push_back({"bert without its head", bare, bare_weights, bert_in});

    // The Llama template: grouped-query attention (llama), a sliding window (mistral), the head norms of Q and K
    // (qwen3).
    ForwardInputs llama_in;
    llama_in.tgt_ids = {1, 14, 9, 17, 6, 3};
    for (const char* family : {"llama", "mistral", "qwen3", "smollm3"}) {  // smollm3: a NoPE layer
        const Model m = fixture_model(std::string("hf_") + family);
        models.push_back({family, m.config, m.weights, llama_in});
    }
    const Model mistral = fixture_model("hf_mistral");  // a local layer with its own RoPE base, a global NoPE one
    ModelConfig local_and_global = mistral.config;
    local_and_global.local_layers = {1};
    local_and_global.no_rope_layers = {0};
    local_and_global.local_rope_theta = 100.0f;
    models.push_back({"mistral with local and global layers", local_and_global, mistral.weights, llama_in});
    const Model llama = fixture_model("hf_llama");  // the Model view's switches: post-norm, GELU, no RoPE
    ModelConfig switched = llama.config;
    switched.norm_first = false;
    switched.activation = Activation::gelu;
    switched.positional = Positional::none;
    models.push_back({"llama post-norm, gelu, no positions", switched, llama.weights, llama_in});
    // T5: each stack's learned relative position bias, RMSNorm without mean or bias, the tied d_model^−½ logits.
    const Model t5 = fixture_model("hf_t5");
    ForwardInputs t5_in;
    t5_in.src_ids = {3, 67, 13, 45, 3, 26, 21, 1};
    t5_in.tgt_ids = {t5.config.sos_id, 3, 65, 59, 3, 13};
    models.push_back({"t5", t5.config, t5.weights, t5_in});
    // Marian: sinusoids in halves, a decoder that starts from <pad>, no final norms.
    const Model marian = fixture_model("hf_marian");
    ForwardInputs marian_in;
    marian_in.src_ids = {5, 17, 9, 30, 12, 0};
    marian_in.tgt_ids = {marian.config.pad_id, 8, 21, 3, 14};
    models.push_back({"marian", marian.config, marian.weights, marian_in});
    // Mixtures of experts: OLMoE (Q and K normalised across the heads), Qwen3-MoE (renormalised routing, a dense layer),
    // Granite-MoE (packed experts, the embedding and residual multipliers).
    for (const char* family : {"olmoe", "qwen3_moe", "granitemoe"}) {
        const Model m = fixture_model(std::string("hf_") + family);
        models.push_back({family, m.config, m.weights, llama_in});
    }
    // BLOOM: ALiBi's position bias and biased scores, the embedding LayerNorm of a decoder.
    const Model bloom = fixture_model("hf_bloom");
    ForwardInputs bloom_in;
    bloom_in.tgt_ids = {1, 17, 5, 40, 22};
    models.push_back({"bloom", bloom.config, bloom.weights, bloom_in});
    // Gemma 2 (soft-capped scores and logits, (1 + γ) norms before and after each sublayer, local and global layers)
    // and Gemma 3 (its per-head (1 + γ) norms of Q and K, a local RoPE base).
    for (const char* family : {"gemma2", "gemma3"}) {
        const Model m = fixture_model(std::string("hf_") + family);
        ForwardInputs in;
        in.tgt_ids = {2, 14, 9, 17, 6, 3};
        models.push_back({family, m.config, m.weights, in});
    }
    // ModernBERT: the encoder's local mask, RoPE in an encoder, LayerNorms without β, layer 0's identity norm, the
    // GeGLU packed in Wi.
    const Model modernbert = fixture_model("hf_modernbert");
    ForwardInputs modernbert_in;
    modernbert_in.src_ids = {455, 65, 389, 355, 258, 276, 431, 315, 456, 457};
    models.push_back({"modernbert", modernbert.config, modernbert.weights, modernbert_in});
    return models;
}

// True when `shown` (as format_number or format_operand prints it) is `expected` rounded to
// the decimals shown, or to two significant digits in e-notation.
inline bool shows(std::string shown, double expected) {
    if (shown.size() > 2 && shown.front() == '(' && shown.back() == ')') shown = shown.substr(1, shown.size() - 2);
    if (shown == "nan") return std::isnan(expected);
    if (shown.find('e') != std::string::npos)
        return std::abs(std::stod(shown) - expected) <= 0.051 * std::abs(expected);
    const size_t dot = shown.find('.');
    const int decimals = dot == std::string::npos ? 0 : static_cast<int>(shown.size() - dot - 1);
    return std::abs(std::stod(shown) - expected) <= 0.5001 * std::pow(10.0, -decimals) + 1e-9;
}

}  // namespace attnlab::test
