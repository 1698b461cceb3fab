// Micro-benchmarks of the core kernels and of whole traced forward passes (Google Benchmark).
#include "ops/attention.h"
#include "bf16_buffer.h"
#include "ops/gemm.h"
#include "ops/gemm_bf16_products.h"
#include "ops/layer_norm.h"
#include "ops/linear.h"
#include "stepper.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

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

// GPT-2 small's products, one thread: ours (ops/gemm.h) against Eigen's, y (N, n) = x (N, K) · W, W stored (K, n)
// (Conv1D) or (n, K) (nn.Linear, the tied unembedding). Arguments: N, K, n.
enum class Impl { gemm, eigen };
enum class Stored { in_out, out_in };

void BM_product(benchmark::State& state, Impl impl, Stored stored) {
    const int64_t N = state.range(0), K = state.range(1), n = state.range(2);
    const Tensor x = random_tensor({N, K}, 1);
    const Tensor w = stored == Stored::in_out ? random_tensor({K, n}, 2) : random_tensor({n, K}, 2);
    Tensor y({N, n});  // (N, n)
    MatMap ym = y.matrix();
    for (auto _ : state) {
        if (impl == Impl::gemm && stored == Stored::in_out)
            gemm_in_out(x.data.data(), N, K, K, w.data.data(), n, n, y.data.data(), n);
        else if (impl == Impl::gemm)
            gemm_out_in(x.data.data(), N, K, K, w.data.data(), K, n, y.data.data(), n);
        else if (stored == Stored::in_out)
            ym.noalias() = x.matrix() * w.matrix();
        else
            ym.noalias() = x.matrix() * w.matrix().transpose();
        benchmark::DoNotOptimize(y.data.data());
        benchmark::ClobberMemory();
    }
    state.counters["GFLOP/s"] =
        benchmark::Counter(2.0 * double(N) * double(K) * double(n), benchmark::Counter::kIsIterationInvariantRate,
                           benchmark::Counter::kIs1000);
}

void gpt2_shapes(benchmark::internal::Benchmark* b) {
    for (const int64_t N : {1, 8, 64, 256, 1024})
        for (const auto& [K, n] : {std::pair<int64_t, int64_t>{768, 768}, {768, 2304}, {768, 3072}, {3072, 768}})
            b->Args({N, K, n});
}
void logits_shapes(benchmark::internal::Benchmark* b) {
    for (const int64_t N : {1, 8, 64, 256, 1024}) b->Args({N, 768, 50257});
}
BENCHMARK_CAPTURE(BM_product, gemm_in_out, Impl::gemm, Stored::in_out)
    ->Apply(gpt2_shapes)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_product, eigen_in_out, Impl::eigen, Stored::in_out)
    ->Apply(gpt2_shapes)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_product, gemm_out_in, Impl::gemm, Stored::out_in)
    ->Apply(gpt2_shapes)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_product, eigen_out_in, Impl::eigen, Stored::out_in)
    ->Apply(gpt2_shapes)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_product, gemm_logits, Impl::gemm, Stored::out_in)
    ->Apply(logits_shapes)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_product, eigen_logits, Impl::eigen, Stored::out_in)
    ->Apply(logits_shapes)
    ->Unit(benchmark::kMillisecond);

// BF16 weights, one thread: y (N, n) = x (N, K) · W with W's values stored as BF16 and multiplied by the exact path
// (widened to F32 panels) or the dot path (x rounded to BF16, vdpbf16ps; an error where the CPU lacks AVX512_BF16),
// against the F32 gemm on the same values widened. Arguments: N, K, n: SmolLM2-135M's FFN up (576 → 1536) and
// Llama-3.2-1B's (2048 → 8192), for a single row (a decode step) and 256 rows (a prompt).
enum class Bf16Impl { f32, exact, dot };

void BM_product_bf16(benchmark::State& state, Bf16Impl impl, Stored stored) {
    const int64_t N = state.range(0), K = state.range(1), n = state.range(2);
    const Tensor x = random_tensor({N, K}, 1);
    Tensor w = random_tensor({K * n}, 2);  // (K, n) in_out or (n, K) out_in; rounded to BF16 below
    std::vector<uint16_t> w16(w.data.size());
    for (size_t i = 0; i < w16.size(); ++i) {
        uint32_t bits;
        std::memcpy(&bits, &w.data[i], sizeof bits);
        w16[i] = static_cast<uint16_t>(bits >> 16);
        w.data[i] = bf16_to_float(w16[i]);
    }
    const Bf16Products asked = impl == Bf16Impl::dot ? Bf16Products::dot_bf16 : Bf16Products::exact;
    if (set_bf16_products(asked) != asked) {
        state.SkipWithError("this CPU has no AVX512_BF16");
        return;
    }
    Tensor y({N, n});  // (N, n)
    for (auto _ : state) {
        if (impl == Bf16Impl::f32 && stored == Stored::in_out)
            gemm_in_out(x.data.data(), N, K, K, w.data.data(), n, n, y.data.data(), n);
        else if (impl == Bf16Impl::f32)
            gemm_out_in(x.data.data(), N, K, K, w.data.data(), K, n, y.data.data(), n);
        else if (stored == Stored::in_out)
            gemm_in_out_bf16(x.data.data(), N, K, K, w16.data(), n, n, y.data.data(), n);
        else
            gemm_out_in_bf16(x.data.data(), N, K, K, w16.data(), K, n, y.data.data(), n);
        benchmark::DoNotOptimize(y.data.data());
        benchmark::ClobberMemory();
    }
    set_bf16_products(Bf16Products::exact);
    state.counters["GFLOP/s"] =
        benchmark::Counter(2.0 * double(N) * double(K) * double(n), benchmark::Counter::kIsIterationInvariantRate,
                           benchmark::Counter::kIs1000);
}

void bf16_shapes(benchmark::internal::Benchmark* b) {
    for (const int64_t N : {1, 256})
        for (const auto& [K, n] : {std::pair<int64_t, int64_t>{576, 1536}, {2048, 8192}}) b->Args({N, K, n});
}
BENCHMARK_CAPTURE(BM_product_bf16, f32_out_in, Bf16Impl::f32, Stored::out_in)
    ->Apply(bf16_shapes)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_product_bf16, exact_out_in, Bf16Impl::exact, Stored::out_in)
    ->Apply(bf16_shapes)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_product_bf16, dot_out_in, Bf16Impl::dot, Stored::out_in)
    ->Apply(bf16_shapes)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_product_bf16, f32_in_out, Bf16Impl::f32, Stored::in_out)
    ->Apply(bf16_shapes)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_product_bf16, exact_in_out, Bf16Impl::exact, Stored::in_out)
    ->Apply(bf16_shapes)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_product_bf16, dot_in_out, Bf16Impl::dot, Stored::in_out)
    ->Apply(bf16_shapes)
    ->Unit(benchmark::kMicrosecond);

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
