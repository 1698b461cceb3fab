// The backward pass against PyTorch autograd (tests/golden/make_grad_golden.py) on every family's golden
// fixture: the loss, dL/d(every step the fixture stores: logits, stack outputs, each attention's weights per head,
// ...) and dL/d(every parameter), each within 1e-4 of the reference relative to that tensor's largest value.
#include "../test_support.h"
#include "backward/backward_pass.h"
#include "hf/hf_fused_qkv.h"
#include "hf/open_model.h"
#include "io/safetensors.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

using namespace attnlab;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/";

std::vector<int> ids_of(const io::SafetensorsFile& f, const std::string& key) {
    const auto it = f.metadata.find(key);
    return it == f.metadata.end() ? std::vector<int>{} : nlohmann::json::parse(it->second).get<std::vector<int>>();
}

float largest_abs(const Tensor& t) {
    float m = 0.0f;
    for (float v : t.data) m = std::max(m, std::abs(v));
    return m;
}

// Same number of values, each within 1e-4 · max|want| (shapes may differ only as (1, V) against (V)). A gradient
// that is zero in exact arithmetic (a key bias: softmax ignores a constant added to a row) is float noise on
// both sides, held to 1e-6.
void check_close(const Tensor& got, const Tensor& want) {
    REQUIRE(got.numel() == want.numel());
    const float tolerance = std::max(1e-4f * largest_abs(want), 1e-6f);
    float worst = 0.0f;
    for (size_t i = 0; i < want.data.size(); ++i) worst = std::max(worst, std::abs(got.data[i] - want.data[i]));
    CHECK(worst <= tolerance);
}

// The reference names a parameter as the model's file does; the engine by the base model's name, without the
// file's "model.", "bert." or "transformer." (hf/hf_tensor_names.h).
const Tensor* param_grad(const BackwardPass& backward, const std::string& file_name) {
    for (const std::string prefix : {"", "model.", "bert.", "transformer."}) {
        if (!file_name.starts_with(prefix)) continue;
        const auto found = backward.param_grads().find(file_name.substr(prefix.size()));
        if (found != backward.param_grads().end()) return &found->second;
    }
    return nullptr;
}

// model: a model file or a Hugging Face folder; grads: the reference file.
void check_gradients(const std::string& model_path, const std::string& grads_path) {
    INFO("model " << model_path << ", reference " << grads_path);
    auto loaded = open_model(model_path);
    if (!loaded) FAIL(loaded.error().message);
    auto reference = io::read_safetensors(grads_path);
    if (!reference) FAIL(reference.error().message);
    ForwardInputs in;
    in.src_ids = ids_of(*reference, "src_ids");
    in.tgt_ids = ids_of(*reference, "tgt_ids");
    in.src_token_types = ids_of(*reference, "src_token_types");
    auto stepper = Stepper::create(loaded->model.config, loaded->model.weights, in);
    if (!stepper) FAIL(stepper.error().message);
    stepper->run_all();
    auto spec = LossSpec::parse(reference->metadata.at("loss"));
    REQUIRE(spec);
    auto backward = BackwardPass::create(*stepper, *spec);
    if (!backward) FAIL(backward.error().message);
    backward->run_all(*stepper);

    const double want_loss = std::stod(reference->metadata.at("loss_value"));
    CHECK(std::abs(backward->loss() - want_loss) <= 1e-5 * std::max(1.0, std::abs(want_loss)));
    size_t n_steps = 0, n_params = 0;
    for (const auto& [key, want] : reference->tensors) {
        INFO("tensor " << key);
        if (key.starts_with("grad.")) {
            const TraceEntry* got = backward->gradient(key.substr(5));
            REQUIRE(got);
            check_close(got->value, want);
            ++n_steps;
        } else if (key.starts_with("param.")) {
            const Tensor* got = param_grad(*backward, key.substr(6));
            REQUIRE(got);
            const ModelConfig& c = loaded->model.config;
            const std::string name = key.substr(6 + (c.family == Family::bloom ? std::string("transformer.").size() : 0));
            // BLOOM's query_key_value: the file's per-head rows, the engine's Q;K;V blocks (hf/hf_fused_qkv.h)
            check_close(*got, is_per_head_qkv(c.family, name) ? qkv_heads_to_blocks(want, c.n_heads) : want);
            ++n_params;
        }
    }
    CHECK(n_steps >= 2);  // the logits and a stack's output at least
    // Every parameter the pass reads has a reference gradient, and none is left over.
    CHECK(n_params == backward->param_grads().size());
}

}  // namespace

TEST_CASE("the paper model's gradients match PyTorch autograd", "[backward][golden]") {
    for (const char* name : {"post_ln_relu", "pre_ln_gelu", "learned_pe", "decoder_only", "encoder_only", "no_pe_h1"})
        check_gradients(kFixtures + name + ".model.safetensors", kFixtures + name + ".grads.safetensors");
    check_gradients(kFixtures + "post_ln_relu.model.safetensors", kFixtures + "post_ln_relu.grads_token.safetensors");
}

TEST_CASE("GPT-2 and BERT folders' gradients match PyTorch autograd", "[backward][golden][hf]") {
    check_gradients(kFixtures + "hf_gpt2", kFixtures + "hf_gpt2/grads.safetensors");
    check_gradients(kFixtures + "hf_gpt2", kFixtures + "hf_gpt2/grads_logit_diff.safetensors");
    check_gradients(kFixtures + "hf_bert", kFixtures + "hf_bert/grads.safetensors");
}

TEST_CASE("Llama-family folders' gradients match PyTorch autograd", "[backward][golden][hf]") {
    for (const char* name : {"hf_llama", "hf_llama3_scaled", "hf_llama_linear", "hf_mistral", "hf_qwen2", "hf_qwen3",
                             "hf_smollm3"})
        check_gradients(kFixtures + name, kFixtures + name + "/grads.safetensors");
}

TEST_CASE("the BLOOM folder's gradients match PyTorch autograd", "[backward][golden][hf][bloom]") {
    check_gradients(kFixtures + "hf_bloom", kFixtures + "hf_bloom/grads.safetensors");
}

TEST_CASE("Marian folders' gradients match PyTorch autograd", "[backward][golden][hf][marian]") {
    for (const char* name : {"hf_marian", "hf_marian_untied"})
        check_gradients(kFixtures + name, kFixtures + name + "/grads.safetensors");
}

TEST_CASE("T5 and Flan-T5 folders' gradients match PyTorch autograd", "[backward][golden][hf][t5]") {
    for (const char* name : {"hf_t5", "hf_flan_t5"}) check_gradients(kFixtures + name, kFixtures + name + "/grads.safetensors");
}

TEST_CASE("mixture-of-experts folders' gradients match PyTorch autograd", "[backward][golden][hf][moe]") {
    for (const char* name : {"hf_olmoe", "hf_qwen3_moe", "hf_granitemoe"})  // tests/golden/make_hf_moe_golden.py
        check_gradients(kFixtures + name, kFixtures + name + "/grads.safetensors");
}

TEST_CASE("Gemma 2 and Gemma 3 folders' gradients match PyTorch autograd, through the soft caps and the (1 + γ) norms",
          "[backward][golden][hf][gemma]") {
    for (const char* name : {"hf_gemma2", "hf_gemma3"}) check_gradients(kFixtures + name, kFixtures + name + "/grads.safetensors");
}

TEST_CASE("the ModernBERT folder's gradients match PyTorch autograd, through its β-less LayerNorms, layer 0's identity "
          "norm, the packed Wqkv and Wi and the local window",
          "[backward][golden][hf][modernbert]") {
    check_gradients(kFixtures + "hf_modernbert", kFixtures + "hf_modernbert/grads.safetensors");
}
