// Helpers shared by the core tests: small random models, exact tensor comparison, Hangul in a text.
#pragma once

#include "config.h"
#include "stepper.h"
#include "weights.h"

#include <cstring>
#include <random>
#include <stdexcept>
#include <string>

namespace attnlab::test {

// Whether UTF-8 text holds a Hangul syllable (U+AC00..U+D7A3, lead bytes EA..ED).
inline bool has_hangul(const std::string& s) {
    for (size_t i = 0; i + 2 < s.size(); ++i) {
        const auto b = static_cast<unsigned char>(s[i]);
        if (b >= 0xEA && b <= 0xED) return true;
    }
    return false;
}

// A small config (C=16, H=2, 2+2 layers, F=32, V=20) that tests vary one switch at a time.
inline ModelConfig small_config() {
    ModelConfig c;
    c.d_model = 16;
    c.n_heads = 2;
    c.n_encoder_layers = 2;
    c.n_decoder_layers = 2;
    c.d_ff = 32;
    c.max_len = 16;
    c.src_vocab_size = 20;
    c.tgt_vocab_size = 20;
    return c;
}

// Random weights with non-trivial biases and LayerNorm gains, so every parameter matters.
inline Weights random_weights(const ModelConfig& c, uint32_t seed) {
    Weights w = init_weights(c, seed);
    std::mt19937 rng(seed + 1000);
    std::normal_distribution<float> normal(0.0f, 0.2f);
    for (const auto& spec : parameter_specs(c)) {
        Tensor t = w.at(spec.name);
        if (t.rank() == 1)
            for (float& x : t.data) x += normal(rng);
        w.set(spec.name, std::move(t));
    }
    return w;
}

// A tensor of standard normal entries.
inline Tensor random_tensor(Shape shape, uint32_t seed) {
    Tensor t(std::move(shape));
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    for (float& v : t.data) v = normal(rng);
    return t;
}

inline ForwardInputs sample_inputs() {
    ForwardInputs in;
    in.src_ids = {5, 9, 7, 12, 2};
    in.tgt_ids = {1, 6, 11, 8};
    return in;
}

inline Stepper make_stepper(const ModelConfig& c, ForwardInputs in = sample_inputs(), uint32_t seed = 7) {
    auto s = Stepper::create(c, random_weights(c, seed), std::move(in));
    if (!s) throw std::runtime_error(s.error().message);
    return std::move(*s);
}

inline bool bit_equal(const Tensor& a, const Tensor& b) {
    return a.shape == b.shape && std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(float)) == 0;
}

inline float max_abs_diff(const Tensor& a, const Tensor& b) {
    if (a.shape != b.shape) return 1e30f;
    float m = 0.0f;
    for (size_t i = 0; i < a.data.size(); ++i) m = std::max(m, std::abs(a.data[i] - b.data[i]));
    return m;
}

}  // namespace attnlab::test
