// Shared CLI helpers.
#include "cli_common.h"

#include "hf/open_model.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <iostream>

namespace attnlab::cli {

const std::set<std::string> kInputFlags = {"src", "src-ids", "src-types", "tgt", "tgt-ids"};

int fail(const std::string& message, int code) {
    std::string line = message;
    for (char& ch : line)
        if (ch == '\n' || ch == '\r') ch = ' ';
    std::cerr << "attnlab-cli: " << line << "\n";
    return code;
}

std::optional<long long> parse_integer(const std::string& text) {
    long long v = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (ec != std::errc() || ptr != end || text.empty()) return std::nullopt;
    return v;
}

std::optional<long long> integer_flag(const Args& args, const char* flag, long long fallback, long long lo,
                                      long long hi) {
    auto v = parse_integer(args.get(flag).value_or(std::to_string(fallback)));
    if (!v || *v < lo || *v > hi) return std::nullopt;
    return v;
}

double median_of(std::vector<double>& values) {
    assert(!values.empty());
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

std::string describe(Bf16Products products) {
    return std::string(to_string(products)) + (products == Bf16Products::dot_bf16
                                                   ? " (x rounded to BF16, pairs multiplied by vdpbf16ps, summed in F32)"
                                                   : " (BF16 weights widened to F32: the F32 products' bits)");
}

std::optional<std::vector<int>> parse_id_list(const std::string& text) {
    std::vector<int> ids;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = text.find(',', start);
        const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        auto v = parse_integer(item);
        if (!v || *v < -2147483647LL || *v > 2147483647LL) return std::nullopt;
        ids.push_back(static_cast<int>(*v));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return ids;
}

namespace {

// One side's ids from --X (text) or --X-ids; `encode` adds that side's special token.
Result<std::optional<std::vector<int>>> side_ids(const Args& args, const std::string& flag, const Model& model,
                                                 Result<Tokenized> (*encode)(const Model&, std::string_view),
                                                 std::vector<std::string>& unknown, int* exit_code) {
    const auto text = args.get(flag), ids = args.get(flag + "-ids");
    if (text && ids) {
        *exit_code = kExitUsage;
        return Error{"give --" + flag + " or --" + flag + "-ids, not both"};
    }
    *exit_code = kExitBadInput;
    if (ids) {
        auto list = parse_id_list(*ids);
        if (!list) return Error{"--" + flag + "-ids must be comma-separated integers, got '" + *ids + "'"};
        return std::optional<std::vector<int>>(*list);
    }
    if (!text) return std::optional<std::vector<int>>{};
    auto t = encode(model, *text);
    if (!t) return t.error();
    for (int u : t->unknown) unknown.push_back(t->pieces[static_cast<size_t>(u)]);
    return std::optional<std::vector<int>>(t->ids);
}

}  // namespace

Result<InputRequest> inputs_from_args(const Model& model, const Args& args, int* exit_code) {
    InputRequest req;
    const ModelConfig& c = model.config;
    // A decoder_only model reads one sequence; its --src is a prompt in the target vocabulary.
    const bool prompt = c.arch == Arch::decoder_only;
    auto src =
        side_ids(args, "src", model, prompt ? encode_target_text : encode_source_text, req.unknown_words, exit_code);
    if (!src) return src.error();
    auto tgt = side_ids(args, "tgt", model, encode_target_text, req.unknown_words, exit_code);
    if (!tgt) return tgt.error();
    if (const auto types = args.get("src-types")) {
        auto list = parse_id_list(*types);
        if (!list) return Error{"--src-types must be comma-separated integers, got '" + *types + "'"};
        req.inputs.src_token_types = *list;
    }

    if (c.arch == Arch::decoder_only) {
        if (src->has_value() && tgt->has_value()) {
            *exit_code = kExitUsage;
            return Error{"a decoder_only model reads one sequence: give --tgt (or --src), not both"};
        }
        if (!src->has_value() && !tgt->has_value() && c.sos_id < 0) {
            *exit_code = kExitUsage;
            return Error{"missing --src-ids IDS: this model has no start token to begin from"};
        }
        req.inputs.tgt_ids = src->has_value() ? **src : tgt->has_value() ? **tgt : std::vector<int>{c.sos_id};
        return req;
    }
    if (!src->has_value()) {
        *exit_code = kExitUsage;
        return Error{"missing --src TEXT or --src-ids IDS"};
    }
    req.inputs.src_ids = **src;
    if (c.arch == Arch::encoder_only) {
        if (tgt->has_value()) {
            *exit_code = kExitUsage;
            return Error{"an encoder_only model has no target: drop --tgt/--tgt-ids"};
        }
        return req;
    }
    req.inputs.tgt_ids = tgt->has_value() ? **tgt : std::vector<int>{c.sos_id};
    return req;
}

Result<Stepper> open_stepper(const Args& args, Model* model, int* exit_code) {
    *exit_code = kExitBadInput;
    auto loaded = open_model(args.positional.at(0));
    if (!loaded) return loaded.error();
    *model = std::move(loaded->model);
    auto request = inputs_from_args(*model, args, exit_code);
    if (!request) return request.error();
    if (!request->unknown_words.empty()) {
        std::string words;
        for (const auto& w : request->unknown_words) words += (words.empty() ? "" : ", ") + w;
        std::cerr << "attnlab-cli: note: not in the vocabulary, read as the unknown token: " << words << "\n";
    }
    *exit_code = kExitBadInput;
    return Stepper::create(model->config, model->weights, request->inputs);
}

}  // namespace attnlab::cli
