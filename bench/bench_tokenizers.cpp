// Micro-benchmarks of the tokenizer.json BPE tokenizers (Google Benchmark): encoding a 1000-character
// text with each layout of tests/fixtures/tokenizers/json_bpe, with the word cache warm (the text
// seen before) and cold (a fresh tokenizer, as for the first text a session encodes).
#include "io/file_bytes.h"
#include "text/json_bpe.h"
#include "text/utf8.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using namespace attnlab;

JsonBpeTokenizer fixture_tokenizer(const std::string& layout) {
    const std::string path =
        std::string(ATTNLAB_SOURCE_DIR) + "/tests/fixtures/tokenizers/json_bpe/" + layout + ".json";
    Result<std::vector<uint8_t>> bytes = io::read_file_bytes(path);
    Result<JsonBpeTokenizer> t = bytes ? JsonBpeTokenizer::from_json({path, std::string(bytes->begin(), bytes->end())})
                                       : Result<JsonBpeTokenizer>(bytes.error());
    if (!t) {
        std::fprintf(stderr, "bench_tokenizers: %s\n", t.error().message.c_str());
        std::abort();
    }
    return std::move(*t);
}

// 1000 code points of English, code, numbers, Korean and emoji, in sentences.
std::string thousand_characters() {
    const std::string sentence =
        "The Transformer reads the whole sentence at once; it's 2024 and 1234567 tokens later. "
        "트랜스포머는 문장 전체를 한 번에 읽습니다. 😀👍🏽 def f(x):\n    return x ** 2\n\n";
    std::string repeated;
    while (count_code_points(repeated) < 1000) repeated += sentence;
    const std::vector<std::string> chars = *split_code_points(repeated);
    std::string text;
    for (size_t i = 0; i < 1000; ++i) text += chars[i];
    return text;
}

void BM_json_bpe_encode(benchmark::State& state, const char* layout, bool warm) {
    const std::string text = thousand_characters();
    JsonBpeTokenizer t = fixture_tokenizer(layout);
    size_t n_tokens = 0;
    for (auto _ : state) {
        if (!warm) {
            state.PauseTiming();
            t = fixture_tokenizer(layout);  // a new word cache
            state.ResumeTiming();
        }
        Result<SubwordEncoding> e = t.encode(text);
        n_tokens = e->tokens.ids.size();
        benchmark::DoNotOptimize(e->tokens.ids.data());
    }
    state.counters["tokens"] = static_cast<double>(n_tokens);
    state.counters["chars/s"] = benchmark::Counter(1000.0, benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK_CAPTURE(BM_json_bpe_encode, llama3_warm, "llama3", true);
BENCHMARK_CAPTURE(BM_json_bpe_encode, llama3_cold, "llama3", false);
BENCHMARK_CAPTURE(BM_json_bpe_encode, qwen2_warm, "qwen2", true);
BENCHMARK_CAPTURE(BM_json_bpe_encode, qwen2_cold, "qwen2", false);
BENCHMARK_CAPTURE(BM_json_bpe_encode, gpt2_warm, "gpt2", true);
BENCHMARK_CAPTURE(BM_json_bpe_encode, gpt2_cold, "gpt2", false);
BENCHMARK_CAPTURE(BM_json_bpe_encode, smollm2_warm, "smollm2", true);
BENCHMARK_CAPTURE(BM_json_bpe_encode, smollm2_cold, "smollm2", false);
BENCHMARK_CAPTURE(BM_json_bpe_encode, llama2_warm, "llama2", true);
BENCHMARK_CAPTURE(BM_json_bpe_encode, llama2_cold, "llama2", false);
BENCHMARK_CAPTURE(BM_json_bpe_encode, mistral_warm, "mistral", true);
BENCHMARK_CAPTURE(BM_json_bpe_encode, mistral_cold, "mistral", false);

}  // namespace
