// Tensor -> CSV text with round-trippable floats (%.9g).
#include "io/tensor_csv.h"

#include "io/file_bytes.h"

#include <cstdio>

namespace attnlab::io {

namespace {

void append_rows(std::string& out, const float* data, int64_t rows, int64_t cols) {
    char buf[32];
    for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < cols; ++c) {
            std::snprintf(buf, sizeof buf, c ? ",%.9g" : "%.9g", static_cast<double>(data[r * cols + c]));
            out += buf;
        }
        out += '\n';
    }
}

}  // namespace

std::string tensor_to_csv(const Tensor& t) {
    if (t.is_bf16()) return tensor_to_csv(widened(t));  // a BF16 weight's values, widened for the text
    std::string out = "# shape " + shape_string(t.shape) + "\n";
    if (t.rank() == 3) {
        for (int64_t h = 0; h < t.dim(0); ++h) {
            out += "# [" + std::to_string(h) + "]\n";
            append_rows(out, t.data.data() + h * t.dim(1) * t.dim(2), t.dim(1), t.dim(2));
        }
        return out;
    }
    const int64_t cols = t.rank() == 0 ? 1 : t.dim(-1);
    append_rows(out, t.data.data(), cols ? t.numel() / cols : 0, cols);
    return out;
}

Status write_tensor_csv(const std::string& path, const Tensor& t) {
    const std::string text = tensor_to_csv(t);
    return write_file_atomic(path, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

}  // namespace attnlab::io
