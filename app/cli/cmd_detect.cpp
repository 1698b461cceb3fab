// attnlab-cli detect: every self-attention head's induction, previous-token and duplicate-token score
// on L random tokens repeated twice (core/analysis/head_detectors), and the best head for each.
#include "analysis/head_detectors.h"
#include "cli_common.h"
#include "commands.h"
#include "forward/step_path.h"
#include "hf/open_model.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <limits>
#include <string>

namespace attnlab::cli {

namespace {

using Score = float HeadScores::*;

struct Detector {
    const char* name;  // the JSON key
    const char* title;
    Score score;
};
const Detector kDetectors[] = {{"induction", "induction", &HeadScores::induction},
                               {"previous", "previous-token", &HeadScores::previous_token},
                               {"duplicate", "duplicate-token", &HeadScores::duplicate_token}};

struct Best {
    size_t layer = 0;
    int head = 0;
    float score = -1.0f;
};

// The head with the highest score (the first of equals, in step and head order).
Best best_head(const HeadDetectorScores& s, Score score) {
    Best best;
    for (size_t l = 0; l < s.layers.size(); ++l)
        for (size_t h = 0; h < s.layers[l].heads.size(); ++h)
            if (const float v = s.layers[l].heads[h].*score; v > best.score) best = {l, static_cast<int>(h), v};
    return best;
}

std::string id_list(const std::vector<int>& ids) {
    std::string out;
    for (int id : ids) out += (out.empty() ? "" : ",") + std::to_string(id);
    return out;
}

}  // namespace

int run_detect(const Argv& argv) {
    Args args;
    if (auto err = parse_args(argv, {{"len", "seed", "bos"}, {"json"}, 1}, args))
        return fail("detect: " + *err, kExitUsage);
    HeadDetectorOptions options;
    if (args.get("len")) {
        const auto len = integer_flag(args, "len", 0, 2, std::numeric_limits<int>::max());
        if (!len)
            return fail("detect: --len takes a whole number of at least 2 (got '" + *args.get("len") + "')",
                        kExitUsage);
        options.length = static_cast<int>(*len);
    }
    const auto seed = integer_flag(args, "seed", 0, 0, std::numeric_limits<long long>::max());
    if (!seed) return fail("detect: --seed takes a whole number of at least 0", kExitUsage);
    options.seed = static_cast<uint64_t>(*seed);
    if (args.get("bos")) {
        const auto bos = integer_flag(args, "bos", 0, 0, std::numeric_limits<int>::max());
        if (!bos) return fail("detect: --bos takes a token id (got '" + *args.get("bos") + "')", kExitUsage);
        options.bos = static_cast<int>(*bos);
    }
    auto loaded = open_model(args.positional.at(0));
    if (!loaded) return fail(loaded.error().message, kExitBadInput);
    const Model& model = loaded->model;
    auto scores = detect_heads(model.config, model.weights, options);
    if (!scores) return fail("detect: " + scores.error().message, kExitBadInput);
    const HeadDetectorScores& s = *scores;

    if (args.has("json")) {
        nlohmann::json j = {{"ids", s.ids}, {"first", s.layout.first}, {"length", s.layout.length}};
        j["attentions"] = nlohmann::json::array();
        for (const auto& layer : s.layers) j["attentions"].push_back(attention_name(layer.attention));
        for (const Detector& d : kDetectors) {
            nlohmann::json grid = nlohmann::json::array();  // [layer][head]
            for (const auto& layer : s.layers) {
                nlohmann::json row = nlohmann::json::array();
                for (const HeadScores& h : layer.heads) row.push_back(h.*d.score);
                grid.push_back(row);
            }
            j[d.name] = grid;
            const Best b = best_head(s, d.score);
            j["best"][d.name] = {{"attention", attention_name(s.layers[b.layer].attention)},
                                 {"row", b.layer},  // of the [layer][head] grids
                                 {"head", b.head},
                                 {"score", b.score}};
        }
        std::printf("%s\n", j.dump().c_str());
        return 0;
    }
    std::printf("ids %s\n", id_list(s.ids).c_str());
    const std::string bos = options.bos ? "the BOS " + std::to_string(*options.bos) + ", then " : "";
    std::printf("%s%lld random tokens twice (seed %llu)\n", bos.c_str(), static_cast<long long>(s.layout.length),
                static_cast<unsigned long long>(options.seed));
    std::printf("%-34s %4s %9s %9s %9s\n", "attention", "head", "induction", "previous", "duplicate");
    for (const auto& layer : s.layers)
        for (size_t h = 0; h < layer.heads.size(); ++h) {
            const HeadScores& v = layer.heads[h];
            std::printf("%-34s %4zu %9.4f %9.4f %9.4f\n", attention_name(layer.attention).c_str(), h, v.induction,
                        v.previous_token, v.duplicate_token);
        }
    for (const Detector& d : kDetectors) {
        const Best b = best_head(s, d.score);
        std::printf("best %s head: %s head %d (%.4f)\n", d.title, attention_name(s.layers[b.layer].attention).c_str(),
                    b.head, b.score);
    }
    std::printf(
        "each a mean attention weight: induction on the key after the query token's first occurrence, previous on\n"
        "the previous token, duplicate on the first occurrence itself (second-copy queries; previous: every query)\n");
    return 0;
}

}  // namespace attnlab::cli
