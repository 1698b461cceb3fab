// Times the pass's products with Eigen's sgemm and ours, split by output columns (in one piece a thread, or claimed
// piece by piece), dealt out side by side or on one thread; a weight's product with B in cache and as the pass
// reads it.
#include "gemm_bound.h"

#include "cli_common.h"
#include "ops/gemm.h"
#include "parallel.h"

#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <tuple>

namespace attnlab::cli {

namespace {

using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Clock = std::chrono::steady_clock;

// B for the products timed as a pass meets its weights (MatmulShape::b_is_weight): copies of it one after another,
// each product taking the next, in as many bytes as the pass's weights (at most kWeightStreamBytes): a model whose
// weights outgrow the caches has each read from memory, as a pass reads each layer's weights once and then the other
// layers'; a tiny model's stay in cache, as in its pass.
constexpr int64_t kWeightStreamBytes = int64_t{512} << 20;  // more than a CPU's last-level cache (96 MiB at most)

// Where B comes from: one matrix, in cache after the first product, or the next of the stream's copies.
class WeightStream {
public:
    // Room for at least one (k, n) B of every weight product in `products`, filled with values in [-1, 1].
    explicit WeightStream(const std::vector<MatmulShape>& products) {
        int64_t largest = 0, total = 0;  // floats
        for (const MatmulShape& s : products) {
            if (!s.b_is_weight) continue;
            largest = std::max(largest, s.k * s.n);
            total += s.k * s.n * s.count;
        }
        if (largest == 0) return;
        floats_.resize(static_cast<size_t>(std::max(std::min(total, kWeightStreamBytes / 4), largest)));
        for (size_t i = 0; i < floats_.size(); ++i) floats_[i] = static_cast<float>(i % 17) / 8.0f - 1.0f;
    }
    // The copies of a (k, n) B it holds (at least 1 when it holds any).
    int64_t copies(int64_t k, int64_t n) const { return static_cast<int64_t>(floats_.size()) / (k * n); }
    const float* copy(int64_t i, int64_t k, int64_t n) const { return floats_.data() + i * k * n; }

private:
    std::vector<float> floats_;
};

// A product's operands: a (m, k) and c (m, n), and b (k, n), all filled with values in [-1, 1]; or, streamed, b
// the stream's next copy at each product (`first`, then every `step`-th, so that threads side by side take
// different ones).
class Operands {
public:
    Operands(int64_t m, int64_t k, int64_t n) : a_(RowMat::Random(m, k)), b_(RowMat::Random(k, n)), c_(m, n) {}
    Operands(int64_t m, int64_t k, int64_t n, const WeightStream& stream, int64_t first, int64_t step)
        : a_(RowMat::Random(m, k)), c_(m, n), stream_(&stream), next_(first), step_(step) {}

    // c = a·b[:, j0:j1), b this product's (in cache, or the stream's copy).
    void multiply(GemmKernel kernel, const float* b, int64_t j0, int64_t j1) {
        const int64_t k = a_.cols(), n = c_.cols();
        if (kernel == GemmKernel::eigen) {
            c_.middleCols(j0, j1 - j0).noalias() =
                a_ * Eigen::Map<const RowMat>(b, k, n).middleCols(j0, j1 - j0);
        } else {
            gemm_in_out(a_.data(), a_.rows(), k, k, b + j0, n, j1 - j0, c_.data() + j0, n);
        }
    }
    // The B of the next product: the one matrix, or the stream's next copy.
    const float* next_b() {
        if (stream_ == nullptr) return b_.data();
        const int64_t k = a_.cols(), n = c_.cols();
        const float* b = stream_->copy(next_ % stream_->copies(k, n), k, n);
        next_ += step_;
        return b;
    }

private:
    RowMat a_, b_, c_;
    const WeightStream* stream_ = nullptr;
    int64_t next_ = 0, step_ = 1;
};

// The operands of one timing: `stream` null for B in cache.
Operands operands(const MatmulShape& s, const WeightStream* stream, int64_t first = 0, int64_t step = 1) {
    return stream ? Operands(s.m, s.k, s.n, *stream, first, step) : Operands(s.m, s.k, s.n);
}

// The median time of `run` in ms over at least 3 runs and about 0.1 s, after one warm-up run.
template <typename Run>
double median_ms(Run&& run) {
    auto timed = [&] {
        const auto t0 = Clock::now();
        run();
        return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    };
    const double first = timed();
    const int runs = std::clamp(static_cast<int>(std::ceil(100.0 / std::max(first, 1e-3))), 3, 50);
    std::vector<double> ms;
    for (int r = 0; r < runs; ++r) ms.push_back(timed());
    return median_of(ms);
}

// c = a·b, c's columns (whole panels of the kernel) cut into thread_count() pieces, one a thread, or, `claimed`,
// into pieces the threads claim as they finish their last.
double time_columns(const MatmulShape& s, GemmKernel kernel, const WeightStream* stream, bool claimed) {
    Operands o = operands(s, stream);
    const int64_t grain = kernel == GemmKernel::eigen ? 16 : kGemmPanel;
    return median_ms([&] {
        const float* b = o.next_b();
        const auto piece = [&](int64_t j0, int64_t j1) { o.multiply(kernel, b, j0, j1); };
        claimed ? parallel_claim(0, s.n, grain, piece) : parallel_for(0, s.n, grain, piece);
    });
}

// The shape's `count` products dealt out between the threads, whole, up to 32 a thread (each thread repeats
// its own operands'); the time of one is the time of all ÷ the products run.
double time_side_by_side(const MatmulShape& s, int threads, GemmKernel kernel, const WeightStream* stream) {
    std::vector<Operands> o;
    for (int t = 0; t < threads; ++t) o.push_back(operands(s, stream, t, threads));
    const int64_t per_thread = std::min<int64_t>((s.count + threads - 1) / threads, 32);
    const double ms = median_ms([&] {
        parallel_for(0, threads, 1, [&](int64_t t0, int64_t t1) {
            for (auto t = static_cast<size_t>(t0); t < static_cast<size_t>(t1); ++t)
                for (int64_t r = 0; r < per_thread; ++r) o[t].multiply(kernel, o[t].next_b(), 0, s.n);
        });
    });
    return ms / static_cast<double>(per_thread * threads);
}

double time_one_thread(const MatmulShape& s, GemmKernel kernel, const WeightStream* stream) {
    Operands o = operands(s, stream);
    return median_ms([&] { o.multiply(kernel, o.next_b(), 0, s.n); });
}

// The fastest kernel and split for one product of `s`, its B from `stream` (null: in cache).
TimedMatmul fastest(const MatmulShape& s, const WeightStream* stream) {
    const int threads = thread_count();
    TimedMatmul t{s, time_columns(s, GemmKernel::eigen, stream, false), 0, GemmSplit::columns, GemmKernel::eigen};
    auto keep_if_faster = [&](double ms, GemmSplit split, GemmKernel kernel) {
        if (ms < t.ms_each) t.ms_each = ms, t.split = split, t.kernel = kernel;
    };
    for (GemmKernel kernel : {GemmKernel::eigen, GemmKernel::attnlab}) {
        if (kernel != GemmKernel::eigen)
            keep_if_faster(time_columns(s, kernel, stream, false), GemmSplit::columns, kernel);
        if (threads > 1) {
            keep_if_faster(time_columns(s, kernel, stream, true), GemmSplit::claimed, kernel);
            if (s.count >= threads)
                keep_if_faster(time_side_by_side(s, threads, kernel, stream), GemmSplit::side_by_side, kernel);
            keep_if_faster(time_one_thread(s, kernel, stream), GemmSplit::one_thread, kernel);
        }
    }
    return t;
}

}  // namespace

const char* to_string(GemmSplit split) {
    switch (split) {
        case GemmSplit::columns: return "columns";
        case GemmSplit::claimed: return "columns, claimed";
        case GemmSplit::side_by_side: return "side by side";
        case GemmSplit::one_thread: return "one thread";
    }
    return "";
}

const char* to_string(GemmKernel kernel) { return kernel == GemmKernel::eigen ? "Eigen" : "attnlab gemm"; }

std::vector<MatmulShape> backward_matmuls(const std::vector<MatmulShape>& forward) {
    std::vector<MatmulShape> out;
    for (const MatmulShape& f : forward) {
        const bool scores = f.what.find("QKᵀ") != std::string::npos;
        const bool context = f.what.find("weights·V") != std::string::npos;
        const char* da = scores ? ": dQ = dS·K" : context ? ": d(weights) = dC·Vᵀ" : ": dx = dy·Wᵀ";
        const char* db = scores ? ": dK = dSᵀ·Q" : context ? ": dV = weightsᵀ·dC" : ": dW = xᵀ·dy";
        // dA (m, k) = dC (m, n)·Bᵀ (n, k): a map's dx reads its weight again
        out.push_back({f.what + da, f.m, f.n, f.k, f.count, f.b_is_weight});
        out.push_back({f.what + db, f.k, f.m, f.n, f.count});  // dB (k, n) = Aᵀ (k, m)·dC (m, n)
    }
    return out;
}

GemmBound time_gemm_bound(const std::vector<MatmulShape>& products) {
    using Key = std::tuple<int64_t, int64_t, int64_t, bool>;  // (m, k, n, b_is_weight)
    std::map<Key, int64_t> most;                              // the largest count a shape has in the list
    for (const MatmulShape& s : products) {
        int64_t& count = most[{s.m, s.k, s.n, s.b_is_weight}];
        count = std::max(count, s.count);
    }
    const WeightStream stream(products);
    std::map<Key, TimedMatmul> timed;  // each shape timed once, its B in cache, and a weight's streamed too
    for (const auto& [key, count] : most) {
        const auto [m, k, n, weight] = key;
        const MatmulShape shape{"", m, k, n, count, weight};
        const TimedMatmul cached = fastest(shape, nullptr);
        TimedMatmul t = weight ? fastest(shape, &stream) : cached;
        t.cached_ms_each = cached.ms_each;
        timed.emplace(key, t);
    }
    GemmBound bound;
    for (const MatmulShape& s : products) {
        TimedMatmul entry = timed.at({s.m, s.k, s.n, s.b_is_weight});
        entry.shape = s;
        bound.add(entry);
    }
    return bound;
}

}  // namespace attnlab::cli
