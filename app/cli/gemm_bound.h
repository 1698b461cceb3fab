// The GEMM bound of a forward pass: each of its matrix products (forward/matmul_list.h) timed as
// single-precision GEMM over thread_count() threads, Eigen's and ours (ops/gemm.h), the faster kept,
// summed. The time the pass's FLOPs need at GEMM speed, with nothing else (no norms, softmax, copies, trace).
// Two sums: each weight read from memory, as a pass reads it (a model's weights outgrow the caches; at few tokens
// that read, not the arithmetic, is the product's time), and every operand in cache (the arithmetic alone).
// The same for a backward pass: backward_matmuls lists its products.
#pragma once

#include "forward/matmul_list.h"

#include <string>
#include <vector>

namespace attnlab::cli {

// How a product's work was divided between the threads (parallel.h): the fastest of those timed.
enum class GemmSplit {
    columns,       // one product, its output columns cut between the threads, one piece each
    claimed,       // one product, its output columns in pieces the threads claim as they finish (parallel_claim),
                   // as the linear maps split theirs
    side_by_side,  // the shape's products (a layer's maps, a layer's heads) dealt out whole, several a thread
    one_thread     // one product on one thread, the other cores idle (a small product, a busy machine)
};
const char* to_string(GemmSplit split);

enum class GemmKernel {
    eigen,   // Eigen's sgemm (general_matrix_matrix_product)
    attnlab  // ops/gemm.h's gemm_in_out, the linear maps' kernel
};
const char* to_string(GemmKernel kernel);

struct TimedMatmul {
    MatmulShape shape;
    double ms_each = 0;         // the median of the timed runs, one product, a weight B read from memory
    double cached_ms_each = 0;  // the same with B in cache (= ms_each when B is not a weight)
    GemmSplit split = GemmSplit::columns;  // ms_each's
    GemmKernel kernel = GemmKernel::eigen;
    double ms_total() const { return ms_each * static_cast<double>(shape.count); }
    double cached_ms_total() const { return cached_ms_each * static_cast<double>(shape.count); }
};

struct GemmBound {
    std::vector<TimedMatmul> products;
    double ms = 0;         // Σ ms_total: the bound
    double cached_ms = 0;  // Σ cached_ms_total: every operand in cache
    double gflop = 0;      // Σ 2·m·k·n·count / 1e9
    double gflops() const { return ms > 0 ? gflop / (ms / 1000.0) : 0; }
    void add(const TimedMatmul& product) {
        products.push_back(product);
        ms += product.ms_total();
        cached_ms += product.cached_ms_total();
        gflop += product.shape.flops() / 1e9;
    }
};

// The products a backward pass needs for the forward products `forward`: for each C = A·B, (m, k)·(k, n), the
// gradients of both operands, dA = dC·Bᵀ, (m, n)·(n, k), and dB = Aᵀ·dC, (k, m)·(m, n), as many as the forward
// has (a linear map's dx and dW; QKᵀ's dQ and dK; weights·V's d(weights) and dV), each named after its forward
// product. Both operands' gradients of every product: the embeddings are parameters too, so even the first
// layer's dx is read. Timed as the forward's are (operands as stored, no transposed copies counted).
std::vector<MatmulShape> backward_matmuls(const std::vector<MatmulShape>& forward);

// Times each distinct shape with each kernel and split (at least 3 runs and about 0.1 s each way), keeps the
// fastest, and sums over the list; a weight's shape twice, B in cache and B as the pass meets it (the next of copies
// filling as many bytes as the pass's weights, at most 512 MiB, at each product: from memory unless they all fit
// in a cache).
GemmBound time_gemm_bound(const std::vector<MatmulShape>& products);

}  // namespace attnlab::cli
