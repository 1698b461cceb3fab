// The Model panel's KV cache line reads naturally in Korean ("토큰당 …, 이 프롬프트에 …") and a sliding
// window is named with its reach (Mistral's W = 3: itself and the 2 keys before).
#include "panels/model_summary_text.h"

#include "panels/panel_context.h"

#include <catch2/catch.hpp>

using namespace attnlab;
using namespace attnlab::gui;

TEST_CASE("the KV cache line gives the bytes per token and for the prompt, in word order in Korean", "[model]") {
    ModelConfig c;  // the default config: 1.0 KiB per token is not assumed, it is asked
    const std::string per_token = format_bytes(kv_cache_bytes_per_token(c));
    const std::string prompt = format_bytes(7.0 * kv_cache_bytes_per_token(c));
    CHECK(kv_cache_text(c, 7, false) == "KV cache: " + per_token + " per token, " + prompt + " for this prompt");
    CHECK(kv_cache_text(c, 7, true) == "KV 캐시: 토큰당 " + per_token + ", 이 프롬프트에 " + prompt);
}

TEST_CASE("a sliding window is named in the Model panel with its reach", "[model]") {
    ModelConfig c;
    CHECK(sliding_window_text(c, false).empty());
    c.sliding_window = 3;
    const std::string en = sliding_window_text(c, false), ko = sliding_window_text(c, true);
    CHECK_THAT(en, Catch::StartsWith("Sliding window: W = 3") && Catch::Contains("the 2 before"));
    CHECK_THAT(ko, Catch::StartsWith("슬라이딩 윈도: W = 3") && Catch::Contains("2개"));
    c.n_decoder_layers = 4;  // local and global layers: the window is the local ones'
    c.local_layers = {0, 2};
    CHECK_THAT(sliding_window_text(c, false), Catch::StartsWith("Local layers (2 of 4): W = 3"));
    CHECK_THAT(sliding_window_text(c, true), Catch::StartsWith("로컬 층 (4개 중 2개): W = 3"));
    ModelConfig encoder = c;  // ModernBERT's: an encoder's local layers reach W/2 keys on either side
    encoder.arch = Arch::encoder_only;
    encoder.n_decoder_layers = 0;
    encoder.n_encoder_layers = 4;
    encoder.sliding_window = 4;
    CHECK(sliding_window_text(encoder, false) == "Local layers (2 of 4): W = 4, each token sees the 2 on either side of it");
    CHECK_THAT(sliding_window_text(encoder, true), Catch::Contains("앞뒤로 2개씩"));
}
