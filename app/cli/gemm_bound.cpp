// Times the pass's products with Eigen's sgemm and ours, split by output columns, dealt out side by side or on
// one thread.
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

// A product's operands, filled with values in [-1, 1]: a (m, k), b (k, n), c (m, n).
struct Operands {
    RowMat a, b, c;
    Operands(int64_t m, int64_t k, int64_t n) : a(RowMat::Random(m, k)), b(RowMat::Random(k, n)), c(m, n) {}
};

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

// Columns [j0, j1) of c = a·b.
void multiply(GemmKernel kernel, Operands& o, int64_t j0, int64_t j1) {
    if (kernel == GemmKernel::eigen) {
        o.c.middleCols(j0, j1 - j0).noalias() = o.a * o.b.middleCols(j0, j1 - j0);
    } else {
        const int64_t k = o.a.cols(), n = o.b.cols();
        gemm_in_out(o.a.data(), o.a.rows(), k, k, o.b.data() + j0, n, j1 - j0, o.c.data() + j0, n);
    }
}

// c = a·b, c's columns cut into thread_count() pieces (whole panels of the kernel), one a thread.
double time_columns(const MatmulShape& s, GemmKernel kernel) {
    Operands o(s.m, s.k, s.n);
    const int64_t grain = kernel == GemmKernel::eigen ? 16 : kGemmPanel;
    return median_ms(
        [&] { parallel_for(0, s.n, grain, [&](int64_t j0, int64_t j1) { multiply(kernel, o, j0, j1); }); });
}

// The shape's `count` products dealt out between the threads, whole, up to 32 a thread (each thread repeats
// its own operands'); the time of one is the time of all ÷ the products run.
double time_side_by_side(const MatmulShape& s, int threads, GemmKernel kernel) {
    std::vector<Operands> o;
    for (int t = 0; t < threads; ++t) o.emplace_back(s.m, s.k, s.n);
    const int64_t per_thread = std::min<int64_t>((s.count + threads - 1) / threads, 32);
    const double ms = median_ms([&] {
        parallel_for(0, threads, 1, [&](int64_t t0, int64_t t1) {
            for (auto t = static_cast<size_t>(t0); t < static_cast<size_t>(t1); ++t)
                for (int64_t r = 0; r < per_thread; ++r) multiply(kernel, o[t], 0, s.n);
        });
    });
    return ms / static_cast<double>(per_thread * threads);
}

double time_one_thread(const MatmulShape& s, GemmKernel kernel) {
    Operands o(s.m, s.k, s.n);
    return median_ms([&] { multiply(kernel, o, 0, s.n); });
}

}  // namespace

const char* to_string(GemmSplit split) {
    switch (split) {
        case GemmSplit::columns: return "columns";
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
        out.push_back({f.what + da, f.m, f.n, f.k, f.count});  // dA (m, k) = dC (m, n)·Bᵀ (n, k)
        out.push_back({f.what + db, f.k, f.m, f.n, f.count});  // dB (k, n) = Aᵀ (k, m)·dC (m, n)
    }
    return out;
}

GemmBound time_gemm_bound(const std::vector<MatmulShape>& products) {
    using Key = std::tuple<int64_t, int64_t, int64_t>;  // (m, k, n)
    std::map<Key, int64_t> most;                        // the largest count a shape has in the list
    for (const MatmulShape& s : products) most[{s.m, s.k, s.n}] = std::max(most[{s.m, s.k, s.n}], s.count);
    const int threads = thread_count();
    std::map<Key, TimedMatmul> timed;  // each shape timed once
    for (const auto& [key, count] : most) {
        const auto [m, k, n] = key;
        TimedMatmul t{MatmulShape{"", m, k, n, count}, 0, GemmSplit::columns, GemmKernel::eigen};
        t.ms_each = time_columns(t.shape, GemmKernel::eigen);
        auto keep_if_faster = [&](double ms, GemmSplit split, GemmKernel kernel) {
            if (ms < t.ms_each) t.ms_each = ms, t.split = split, t.kernel = kernel;
        };
        for (GemmKernel kernel : {GemmKernel::eigen, GemmKernel::attnlab}) {
            if (kernel != GemmKernel::eigen) keep_if_faster(time_columns(t.shape, kernel), GemmSplit::columns, kernel);
            if (threads > 1) {
                if (count >= threads)
                    keep_if_faster(time_side_by_side(t.shape, threads, kernel), GemmSplit::side_by_side, kernel);
                keep_if_faster(time_one_thread(t.shape, kernel), GemmSplit::one_thread, kernel);
            }
        }
        timed.emplace(key, t);
    }
    GemmBound bound;
    for (const MatmulShape& s : products) {
        TimedMatmul entry = timed.at({s.m, s.k, s.n});
        entry.shape = s;
        bound.ms += entry.ms_total();
        bound.gflop += s.flops() / 1e9;
        bound.products.push_back(entry);
    }
    return bound;
}

}  // namespace attnlab::cli
