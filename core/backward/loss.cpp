#include "backward/loss.h"

#include "ops/lane_sum.h"
#include "parallel.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

const char* kForms = "next-token, token:ID@POS, logit-diff:A,B@POS, logit:A@POS or prob:A@POS";

// A whole non-negative number, the whole of text.
template <typename Int>
bool parse_whole(const std::string& text, Int& out) {
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc() && ptr == end && out >= 0;
}

// "ID@POS" or "A,B@POS" after the kind's colon.
// `form` is the kind's spelling ("token:ID@POS"), for the errors.
Result<LossSpec> parse_operands(LossSpec spec, const std::string& text, bool two_ids, const std::string& form) {
    const size_t at = text.find('@');
    if (at == std::string::npos) return Error{"loss '" + text + "': expected " + form};
    const std::string ids = text.substr(0, at);
    if (!parse_whole(text.substr(at + 1), spec.position))
        return Error{"loss " + form + ": POS must be a position from 0 (got '" + text.substr(at + 1) + "')"};
    if (!two_ids) {
        const std::string id_name = form.substr(form.find(':') + 1, form.find('@') - form.find(':') - 1);  // ID, A
        if (!parse_whole(ids, spec.token))
            return Error{"loss " + form + ": " + id_name + " must be a token id (got '" + ids + "')"};
        return spec;
    }
    const size_t comma = ids.find(',');
    if (comma == std::string::npos || !parse_whole(ids.substr(0, comma), spec.token) ||
        !parse_whole(ids.substr(comma + 1), spec.other))
        return Error{"loss logit-diff:A,B@POS: A and B must be two token ids (got '" + ids + "')"};
    return spec;
}

// log Σ_j exp(row_j), in double, from the row's largest entry.
double log_sum_exp(const float* row, int64_t n) {
    const double max = *std::max_element(row, row + n);
    double sum = 0.0;
    for (int64_t j = 0; j < n; ++j) sum += std::exp(static_cast<double>(row[j]) - max);
    return max + std::log(sum);
}

// Σ x[0 .. n) in double, 8 lanes side by side in a fixed order (lane l adds x[l], x[l + 8], …; then a fixed tree).
double sum_in_double(const float* x, int64_t n) {
    constexpr int64_t kDoubleLanes = 8;
    double lanes[kDoubleLanes] = {};
    int64_t i = 0;
    for (; i + kDoubleLanes <= n; i += kDoubleLanes)
        for (int64_t l = 0; l < kDoubleLanes; ++l) lanes[l] += static_cast<double>(x[i + l]);
    for (int64_t l = 0; i + l < n; ++l) lanes[l] += static_cast<double>(x[i + l]);
    for (int64_t width = kDoubleLanes / 2; width > 0; width /= 2)
        for (int64_t l = 0; l < width; ++l) lanes[l] += lanes[l + width];
    return lanes[0];
}

// −log softmax(row)[target], writing d_row = weight·(softmax(row) − onehot(target)) whole. The exponentials
// exp(row − max) are Eigen's vectorised float exp (as the attention softmax's), summed in double: two scalar
// double exps per entry were 5% of GPT-2 small's backward at 256 tokens (50,257 entries a row).
double cross_entropy_row(const float* row, int64_t n, int target, double weight, float* d_row) {
    const float max = lane_max(row, n);
    map_in_blocks(row, d_row, n, -std::numeric_limits<float>::infinity(),
                  [max](const auto& v) { return (v - max).exp(); });
    const double sum = sum_in_double(d_row, n);
    const float scale = static_cast<float>(weight / sum);
    for (int64_t j = 0; j < n; ++j) d_row[j] *= scale;
    d_row[target] -= static_cast<float>(weight);
    return static_cast<double>(max) + std::log(sum) - static_cast<double>(row[target]);
}

}  // namespace

Result<LossSpec> LossSpec::parse(const std::string& text) {
    if (text == "next-token") return LossSpec{};
    struct Form {
        LossKind kind;
        const char* spelling;
    };
    for (const Form& f : {Form{LossKind::token, "token:ID@POS"}, Form{LossKind::logit_diff, "logit-diff:A,B@POS"},
                          Form{LossKind::logit, "logit:A@POS"}, Form{LossKind::prob, "prob:A@POS"}}) {
        const std::string spelling = f.spelling, prefix = spelling.substr(0, spelling.find(':') + 1);
        if (text.rfind(prefix, 0) == 0)
            return parse_operands({f.kind}, text.substr(prefix.size()), f.kind == LossKind::logit_diff, spelling);
    }
    return Error{"unknown loss '" + text + "' (use " + kForms + ")"};
}

std::string LossSpec::to_string() const {
    const std::string at = "@" + std::to_string(position);
    switch (kind) {
        case LossKind::next_token: return "next-token";
        case LossKind::token: return "token:" + std::to_string(token) + at;
        case LossKind::logit_diff: return "logit-diff:" + std::to_string(token) + "," + std::to_string(other) + at;
        case LossKind::logit: return "logit:" + std::to_string(token) + at;
        case LossKind::prob: return "prob:" + std::to_string(token) + at;
    }
    return "";
}

std::string LossSpec::definition() const {
    const std::string pos = std::to_string(position);
    switch (kind) {
        case LossKind::next_token:
            return "mean over positions t with a next token of -log softmax(logits[t])[ids[t+1]] (padding skipped)";
        case LossKind::token: return "-log softmax(logits[" + pos + "])[" + std::to_string(token) + "]";
        case LossKind::logit_diff:
            return "logits[" + pos + "][" + std::to_string(token) + "] - logits[" + pos + "][" + std::to_string(other) +
                   "]";
        case LossKind::logit: return "logits[" + pos + "][" + std::to_string(token) + "]";
        case LossKind::prob: return "softmax(logits[" + pos + "])[" + std::to_string(token) + "]";
    }
    return "";
}

Result<LossSpec> default_loss(const ModelConfig& config) {
    if (config.has_decoder()) return LossSpec{};
    return Error{"an encoder-only model predicts masked tokens: choose the loss --loss token:ID@POS"};
}

namespace {

// Positions t whose next token ids[t + 1] is a target (not padding).
std::vector<int64_t> next_token_positions(int64_t n_positions, const std::vector<int>& ids, int pad_id) {
    std::vector<int64_t> counted;
    for (int64_t t = 0; t + 1 < n_positions; ++t)
        if (ids[static_cast<size_t>(t + 1)] != pad_id) counted.push_back(t);
    return counted;
}

// The mean next-token loss over the positions with a next token, and its gradient. Every row of d_logits is written:
// a counted one by cross_entropy_row, the others (the last, padding) zeroed, so none is zeroed first.
LossValue next_token_loss(const Tensor& logits, const std::vector<int>& ids, int pad_id) {
    const int64_t N = logits.dim(0), V = logits.dim(1);
    const std::vector<int64_t> counted = next_token_positions(N, ids, pad_id);
    LossValue out{0.0, Tensor::uninitialized({N, V}), static_cast<int64_t>(counted.size())};
    const double weight = 1.0 / static_cast<double>(counted.size());
    std::vector<double> row_loss(static_cast<size_t>(N), 0.0);  // (N,)
    // Rows on the threads (each writes its own row of d_logits), then their losses summed in order.
    parallel_for(0, N, 1, [&](int64_t begin, int64_t end) {
        for (int64_t t = begin; t < end; ++t) {
            float* d_row = out.d_logits.data.data() + t * V;
            if (std::binary_search(counted.begin(), counted.end(), t))
                row_loss[static_cast<size_t>(t)] =
                    cross_entropy_row(logits.data.data() + t * V, V, ids[static_cast<size_t>(t + 1)], weight, d_row);
            else
                std::fill_n(d_row, V, 0.0f);
        }
    });
    for (const int64_t t : counted) out.value += weight * row_loss[static_cast<size_t>(t)];
    return out;
}

}  // namespace

Status check_loss(const LossSpec& spec, int64_t n_positions, int64_t vocab_size, const std::vector<int>& ids,
                  int pad_id) {
    auto check_id = [vocab_size](int id, const char* what) -> Status {
        if (id < vocab_size) return ok_status();
        return Error{std::string("loss: ") + what + " " + std::to_string(id) + " is outside the vocabulary 0.." +
                     std::to_string(vocab_size - 1)};
    };
    if (spec.kind == LossKind::next_token) {
        if (next_token_positions(n_positions, ids, pad_id).empty())
            return Error{"loss next-token: no position has a next token (give two or more)"};
        return ok_status();
    }
    if (spec.position >= n_positions)
        return Error{"loss: position " + std::to_string(spec.position) + " is past the last position " +
                     std::to_string(n_positions - 1)};
    if (auto st = check_id(spec.token, spec.kind == LossKind::logit_diff ? "token A" : "token"); !st) return st;
    if (spec.kind == LossKind::logit_diff) return check_id(spec.other, "token B");
    return ok_status();
}

Result<LossValue> evaluate_loss(const LossSpec& spec, const Tensor& logits, const std::vector<int>& ids, int pad_id) {
    const int64_t N = logits.dim(0), V = logits.dim(1);
    if (auto st = check_loss(spec, N, V, ids, pad_id); !st) return st.error();
    if (spec.kind == LossKind::next_token) return next_token_loss(logits, ids, pad_id);
    LossValue out{0.0, Tensor({N, V}), 1};  // one position: zero elsewhere
    switch (spec.kind) {
        case LossKind::next_token: break;  // above
        case LossKind::token: {
            const int64_t p = spec.position;
            out.value =
                cross_entropy_row(logits.data.data() + p * V, V, spec.token, 1.0, out.d_logits.data.data() + p * V);
            return out;
        }
        case LossKind::logit_diff: {
            const int64_t p = spec.position;
            out.value = static_cast<double>(logits.data[static_cast<size_t>(p * V + spec.token)]) -
                        static_cast<double>(logits.data[static_cast<size_t>(p * V + spec.other)]);
            out.d_logits.data[static_cast<size_t>(p * V + spec.token)] += 1.0f;
            out.d_logits.data[static_cast<size_t>(p * V + spec.other)] -= 1.0f;
            return out;
        }
        case LossKind::logit: {
            const size_t at = static_cast<size_t>(spec.position * V + spec.token);
            out.value = static_cast<double>(logits.data[at]);
            out.d_logits.data[at] = 1.0f;
            return out;
        }
        case LossKind::prob: {  // d p_A / d logit_j = p_A (δ_jA − p_j)
            const float* row = logits.data.data() + spec.position * V;
            float* d_row = out.d_logits.data.data() + spec.position * V;
            const double lse = log_sum_exp(row, V);
            out.value = std::exp(static_cast<double>(row[spec.token]) - lse);
            for (int64_t j = 0; j < V; ++j)
                d_row[j] = static_cast<float>(-out.value * std::exp(static_cast<double>(row[j]) - lse));
            d_row[spec.token] = static_cast<float>(out.value * (1.0 - out.value));
            return out;
        }
    }
    return out;
}

}  // namespace attnlab
