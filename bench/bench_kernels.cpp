// Micro-benchmarks of the core kernels and of whole traced forward passes (Google Benchmark).
#include "ops/attention.h"
#include "ops/layer_norm.h"
#include "ops/linear.h"
#include "stepper.h"

#include <benchmark/benchmark.h>

#include <random>

namespace {

using namespace attnlab;

Tensor random_tensor(Shape shape, uint32_t seed) {
    Tensor t(std::move(shape));
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal;
    for (float& x : t.data) x = normal(rng);
    return t;
}

// (32, 512) · (2048, 512)ᵀ: the FFN's first linear on 32 tokens of the base model.
void BM_linear_ffn_base(benchmark::State& state) {
    const Tensor x = random_tensor({32, 512}, 1), w = random_tensor({2048, 512}, 2), b = random_tensor({2048}, 3);
    for (auto _ : state) benchmark::DoNotOptimize(linear_forward(x, w, &b).data.data());
    state.counters["GFLOP/s"] = benchmark::Counter(2.0 * 32 * 512 * 2048, benchmark::Counter::kIsIterationInvariantRate,
                                                   benchmark::Counter::kIs1000);
}
BENCHMARK(BM_linear_ffn_base);

void BM_attention_scores_base(benchmark::State& state) {
    const Tensor q = random_tensor({8, 32, 64}, 1), k = random_tensor({8, 32, 64}, 2);
    for (auto _ : state) benchmark::DoNotOptimize(attention_scores(q, k).data.data());
}
BENCHMARK(BM_attention_scores_base);

void BM_layer_norm_base(benchmark::State& state) {
    const Tensor x = random_tensor({32, 512}, 1), g = random_tensor({512}, 2), b = random_tensor({512}, 3);
    for (auto _ : state) benchmark::DoNotOptimize(layer_norm_forward(x, g, b, 1e-5f).data.data());
}
BENCHMARK(BM_layer_norm_base);

void BM_traced_forward(benchmark::State& state, const char* preset) {
    ModelConfig config = *preset_config(preset, 99, 99);
    ForwardInputs inputs;
    for (int i = 0; i < 32; ++i) inputs.src_ids.push_back(4 + i % 90);
    for (int i = 0; i < 32; ++i) inputs.tgt_ids.push_back(i == 0 ? config.sos_id : 4 + (7 * i) % 90);
    auto stepper = Stepper::create(config, init_weights(config, 1), inputs);
    for (auto _ : state) {
        stepper->run_to(0);
        stepper->run_all();
    }
}
BENCHMARK_CAPTURE(BM_traced_forward, tiny, "tiny")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_traced_forward, base, "base")->Unit(benchmark::kMillisecond);

}  // namespace
