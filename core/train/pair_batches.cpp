// A TSV file of (source, target) pairs through the model's tokenizers, and the padded batches taken from them.
#include "train/pair_batches.h"

#include "io/file_bytes.h"

#include <algorithm>
#include <cassert>

namespace attnlab {

namespace {

bool blank(std::string_view text) {
    return std::all_of(text.begin(), text.end(), [](char ch) { return ch == ' ' || ch == '\t' || ch == '\r'; });
}

// One side of a line, encoded; errors say which side and that it is too long.
Result<std::vector<int>> encode_side(const Model& model, std::string_view text, bool source, int64_t& n_unknown) {
    const char* side = source ? "source" : "target";
    if (blank(text)) return Error{std::string("the ") + side + " is empty"};
    auto encoded = source ? encode_source_text(model, text) : encode_target_text(model, text);
    if (!encoded) return encoded.error();
    const int max_len = model.config.max_len;
    if (static_cast<int64_t>(encoded->ids.size()) > max_len)
        return Error{std::string("the ") + side + " is " + std::to_string(encoded->ids.size()) +
                     " tokens, longer than the model's max_len " + std::to_string(max_len)};
    n_unknown += static_cast<int64_t>(encoded->unknown.size());
    return std::move(encoded->ids);
}

}  // namespace

Result<std::unique_ptr<PairBatches>> PairBatches::make(const Model& model, std::string_view tsv,
                                                       std::string_view source_name, int batch_size) {
    const ModelConfig& c = model.config;
    if (c.arch != Arch::encoder_decoder)
        return Error{"(source, target) pairs train an encoder-decoder; this is a " + to_string(c.arch) + " model"};
    if (c.pad_id < 0) return Error{"this model has no padding token to pad pairs with"};
    if (batch_size < 1) return Error{"batch size must be at least 1, got " + std::to_string(batch_size)};
    std::vector<EncodedPair> pairs;
    int64_t n_unknown = 0;
    int64_t line_number = 0;
    for (size_t begin = 0; begin < tsv.size();) {
        const size_t newline = std::min(tsv.find('\n', begin), tsv.size());
        std::string_view line = tsv.substr(begin, newline - begin);
        begin = newline + 1;
        ++line_number;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty()) continue;
        auto at = [&](const std::string& message) {
            return Error{std::string(source_name) + ":" + std::to_string(line_number) + ": " + message};
        };
        const size_t tab = line.find('\t');
        if (tab == std::string_view::npos) return at("no tab between the source and the target (source<TAB>target)");
        if (line.find('\t', tab + 1) != std::string_view::npos)
            return at("more than one tab (a line is source<TAB>target)");
        auto src = encode_side(model, line.substr(0, tab), true, n_unknown);
        if (!src) return at(src.error().message);
        auto tgt = encode_side(model, line.substr(tab + 1), false, n_unknown);
        if (!tgt) return at(tgt.error().message);
        pairs.push_back({std::move(*src), std::move(*tgt)});
    }
    if (pairs.empty()) return Error{std::string(source_name) + ": no (source<TAB>target) pairs"};
    return std::unique_ptr<PairBatches>(new PairBatches(std::move(pairs), batch_size, c.pad_id, c.eos_id, n_unknown));
}

Result<std::unique_ptr<PairBatches>> PairBatches::read(const std::string& path, const Model& model, int batch_size) {
    Result<std::vector<uint8_t>> bytes = io::read_file_bytes(path);
    if (!bytes) return bytes.error();
    const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
    return make(model, text, io::display_path(path), batch_size);
}

Batch PairBatches::batch(int64_t k) {
    assert(k >= 0);
    const int B = batch_size_;
    std::vector<const EncodedPair*> rows;
    for (int b = 0; b < B; ++b) rows.push_back(&pairs_[static_cast<size_t>((k * B + b) % n_pairs())]);
    Batch out;
    out.B = B;
    out.pad_id = pad_id_;
    for (const EncodedPair* p : rows) {
        out.S = std::max(out.S, static_cast<int>(p->src.size()));
        out.T = std::max(out.T, static_cast<int>(p->tgt_in.size()));
    }
    const size_t S = static_cast<size_t>(out.S), T = static_cast<size_t>(out.T);
    out.src.assign(B * S, pad_id_);
    out.tgt_in.assign(B * T, pad_id_);
    out.tgt_out.assign(B * T, pad_id_);
    for (size_t b = 0; b < rows.size(); ++b) {
        const EncodedPair& p = *rows[b];
        std::copy(p.src.begin(), p.src.end(), out.src.begin() + static_cast<int64_t>(b * S));
        std::copy(p.tgt_in.begin(), p.tgt_in.end(), out.tgt_in.begin() + static_cast<int64_t>(b * T));
        // tgt_out = tgt_in shifted left, then eos
        std::copy(p.tgt_in.begin() + 1, p.tgt_in.end(), out.tgt_out.begin() + static_cast<int64_t>(b * T));
        out.tgt_out[b * T + p.tgt_in.size() - 1] = eos_id_;
    }
    return out;
}

}  // namespace attnlab
