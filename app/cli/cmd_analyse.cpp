// attnlab-cli lens / heads / similar / pca: the logit lens and the head summary of a model on an
// input, and its token embeddings compared.
#include "analysis/embedding_similarity.h"
#include "analysis/head_diversity.h"
#include "analysis/head_summary.h"
#include "analysis/logit_lens.h"
#include "cli_common.h"
#include "cli_tokens.h"
#include "commands.h"
#include "forward/step_path.h"
#include "hf/open_model.h"
#include "param_names.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnlab::cli {

namespace {

// The ids of the last stack's input sequence.
const std::vector<int>& last_stack_ids(const Stepper& stepper) {
    return stepper.config().has_decoder() ? stepper.inputs().tgt_ids : stepper.inputs().src_ids;
}

}  // namespace

int run_lens(const Argv& argv) {
    Args args;
    std::set<std::string> flags = kInputFlags;
    flags.insert({"top", "positions"});
    if (auto err = parse_args(argv, {flags, {"json"}, 1}, args)) return fail("lens: " + *err, kExitUsage);
    const auto k = integer_flag(args, "top", 5, 1, 1000);
    if (!k) return fail("lens: --top takes an integer from 1 to 1000", kExitUsage);
    std::vector<int> positions;
    if (auto text = args.get("positions")) {
        auto list = parse_id_list(*text);
        if (!list) return fail("lens: --positions takes a list like 0,3,7", kExitUsage);
        positions = *list;
    }
    Model model;
    int code = 0;
    auto stepper = open_stepper(args, &model, &code);
    if (!stepper) return fail(stepper.error().message, code);
    stepper->run_all();
    auto lens = logit_lens(*stepper, positions, static_cast<int>(*k));
    if (!lens) return fail("lens: " + lens.error().message, kExitBadInput);

    const std::vector<int>& ids = last_stack_ids(*stepper);
    if (args.has("json")) {
        nlohmann::json j = {{"rows", lens->rows}, {"positions", lens->positions}, {"top", nlohmann::json::array()}};
        for (const auto& row : lens->top) {
            nlohmann::json per_position = nlohmann::json::array();
            for (const auto& top : row) {
                nlohmann::json ranked = nlohmann::json::array();
                for (const TokenProbability& t : top)
                    ranked.push_back({{"id", t.id}, {"token", token_text(model, t.id)}, {"p", t.p}});
                per_position.push_back(ranked);
            }
            j["top"].push_back(per_position);
        }
        std::printf("%s\n", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
        return 0;
    }
    std::printf("logit lens: each layer's output read through the model's end; top %lld per position\n",
                static_cast<long long>(*k));
    for (size_t i = 0; i < lens->positions.size(); ++i) {
        const int pos = lens->positions[i];
        std::printf("\nposition %d %s\n", pos, shown(token_text(model, ids.at(static_cast<size_t>(pos)))).c_str());
        for (size_t r = 0; r < lens->rows.size(); ++r) {
            std::printf("  %-28s", lens->rows[r].c_str());
            for (const TokenProbability& t : lens->top[r][i])
                std::printf("  %s %.3f", shown(token_text(model, t.id)).c_str(), static_cast<double>(t.p));
            std::printf("\n");
        }
    }
    return 0;
}

int run_heads(const Argv& argv) {
    Args args;
    std::set<std::string> flags = kInputFlags;
    flags.insert("sort");
    if (auto err = parse_args(argv, {flags, {"json"}, 1}, args)) return fail("heads: " + *err, kExitUsage);
    const std::string sort = args.get("sort").value_or("");
    const std::vector<std::string> columns = {"entropy", "previous", "first", "self"};
    if (!sort.empty() && std::find(columns.begin(), columns.end(), sort) == columns.end())
        return fail("heads: --sort takes entropy, previous, first or self", kExitUsage);
    Model model;
    int code = 0;
    auto stepper = open_stepper(args, &model, &code);
    if (!stepper) return fail(stepper.error().message, code);
    stepper->run_all();

    struct Row {
        std::string attention;
        int head;
        HeadStats s;
        HeadDiversity d;
    };
    std::vector<Row> rows;
    const HeadSummary summary = summarize_heads(*stepper);
    const HeadDiversitySummary diversity = summarize_head_diversity(*stepper);  // the same attentions, in order
    for (size_t l = 0; l < summary.layers.size(); ++l)
        for (size_t h = 0; h < summary.layers[l].heads.size(); ++h)
            rows.push_back({attention_name(summary.layers[l].attention), static_cast<int>(h),
                            summary.layers[l].heads[h], diversity.layers[l].heads[h]});
    const auto value = [&](const HeadStats& s) {
        const float v = sort == "entropy"    ? s.entropy
                        : sort == "previous" ? s.previous_token
                        : sort == "first"    ? s.first_token
                                             : s.self;
        return std::isnan(v) ? -1.0f : v;  // heads without the number last
    };
    // Highest first, except entropy: the most focused heads first.
    if (!sort.empty())
        std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
            return sort == "entropy" ? value(a.s) < value(b.s) : value(a.s) > value(b.s);
        });

    const auto number = [](float v) { return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v); };
    if (args.has("json")) {
        nlohmann::json j = nlohmann::json::array();
        for (const Row& r : rows)
            j.push_back(
                {{"attention", r.attention},
                 {"head", r.head},
                 {"entropy", number(r.s.entropy)},
                 {"previous", number(r.s.previous_token)},
                 {"first", number(r.s.first_token)},
                 {"self", number(r.s.self)},
                 {"top_key", number(r.d.top_key_share)},
                 {"nearest_head", r.d.nearest_head < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.d.nearest_head)},
                 {"nearest_difference", number(r.d.nearest_difference)}});
        std::printf("%s\n", j.dump().c_str());
        return 0;
    }
    std::printf("%-34s %4s %8s %8s %8s %8s %8s %8s\n", "attention", "head", "entropy", "previous", "first", "self",
                "top key", "nearest");
    const auto cell = [](float v) { return std::isnan(v) ? std::string("-") : std::to_string(v).substr(0, 6); };
    const auto nearest = [&](const HeadDiversity& d) {
        return d.nearest_head < 0 ? std::string("-")
                                  : cell(d.nearest_difference) + " h" + std::to_string(d.nearest_head);
    };
    for (const Row& r : rows)
        std::printf("%-34s %4d %8s %8s %8s %8s %8s %s\n", r.attention.c_str(), r.head, cell(r.s.entropy).c_str(),
                    cell(r.s.previous_token).c_str(), cell(r.s.first_token).c_str(), cell(r.s.self).c_str(),
                    cell(r.d.top_key_share).c_str(), nearest(r.d).c_str());
    std::printf("entropy in nats (0: one key; ln T: uniform); previous, first, self: mean attention weight\n");
    std::printf(
        "top key: the largest mean weight one key gets over every query (1: all on one key);\n"
        "nearest: mean |weights - weights of hN| to the closest other head hN of the same attention\n");
    return 0;
}

int run_similar(const Argv& argv) {
    Args args;
    if (auto err = parse_args(argv, {{"token", "id", "top"}, {}, 1}, args)) return fail("similar: " + *err, kExitUsage);
    if (args.get("token").has_value() == args.get("id").has_value())
        return fail("similar: give one of --token TEXT and --id N", kExitUsage);
    const auto k = integer_flag(args, "top", 10, 1, 100000);
    if (!k) return fail("similar: --top takes an integer from 1 to 100000", kExitUsage);
    auto loaded = open_model(args.positional[0]);
    if (!loaded) return fail(loaded.error().message, kExitBadInput);
    const Model& model = loaded->model;
    auto id = token_id(model, args.get("id").value_or(args.get("token").value_or("")), args.get("id").has_value());
    if (!id) return fail("similar: " + id.error().message, kExitBadInput);
    auto near = nearest_tokens(*token_table(model).table, *id, static_cast<int>(*k));
    if (!near) return fail("similar: " + near.error().message, kExitBadInput);
    std::printf("nearest to %s (id %d) by cosine similarity of the token embeddings\n",
                shown(token_text(model, *id)).c_str(), *id);
    for (const TokenSimilarity& t : *near)
        std::printf("  %+.4f  %6d  %s\n", static_cast<double>(t.cosine), t.id, shown(token_text(model, t.id)).c_str());
    return 0;
}

int run_pca(const Argv& argv) {
    Args args;
    if (auto err = parse_args(argv, {{"tokens", "ids"}, {"json"}, 1}, args)) return fail("pca: " + *err, kExitUsage);
    if (args.get("tokens").has_value() == args.get("ids").has_value())
        return fail("pca: give one of --tokens A,B,C and --ids 1,2,3", kExitUsage);
    auto loaded = open_model(args.positional[0]);
    if (!loaded) return fail(loaded.error().message, kExitBadInput);
    const Model& model = loaded->model;
    const bool by_id = args.get("ids").has_value();
    auto ids = token_list(model, *args.get(by_id ? "ids" : "tokens"), by_id);
    if (!ids) return fail("pca: " + ids.error().message, kExitBadInput);
    auto pca = pca_2d(*token_table(model).table, *ids);
    if (!pca) return fail("pca: " + pca.error().message, kExitBadInput);
    const Mat& coords = pca->coords;
    if (args.has("json")) {
        nlohmann::json j = nlohmann::json::array();
        for (size_t i = 0; i < ids->size(); ++i)
            j.push_back({{"id", (*ids)[i]},
                         {"token", token_text(model, (*ids)[i])},
                         {"pc1", coords(static_cast<Eigen::Index>(i), 0)},
                         {"pc2", coords(static_cast<Eigen::Index>(i), 1)}});
        std::printf("%s\n", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
        return 0;
    }
    std::printf("%6s %10s %10s  %s\n", "id", "pc1", "pc2", "token");
    for (size_t i = 0; i < ids->size(); ++i)
        std::printf(
            "%6d %+10.4f %+10.4f  %s\n", (*ids)[i], static_cast<double>(coords(static_cast<Eigen::Index>(i), 0)),
            static_cast<double>(coords(static_cast<Eigen::Index>(i), 1)), shown(token_text(model, (*ids)[i])).c_str());
    std::printf("pc1 explains %.1f%% of the variance, pc2 %.1f%%\n", 100.0 * static_cast<double>(pca->explained[0]),
                100.0 * static_cast<double>(pca->explained[1]));
    return 0;
}

}  // namespace attnlab::cli
