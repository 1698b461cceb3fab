// attnlab-cli lens / heads: the logit lens and the head summary of a model on an input.
#include "analysis/head_summary.h"
#include "analysis/logit_lens.h"
#include "cli_common.h"
#include "commands.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnlab::cli {

namespace {

// A token as the last stack's vocabulary writes it, or "#id" without one.
std::string token_text(const Model& model, int id) {
    const std::optional<Vocab>& vocab = model.config.has_decoder() ? model.tgt_vocab : model.src_vocab;
    return vocab && id >= 0 && id < vocab->size() ? vocab->token(id) : "#" + std::to_string(id);
}

std::string shown(const std::string& token) {
    return nlohmann::json(token).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

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
                for (const TokenProbability& t : top) ranked.push_back({{"id", t.id}, {"token", token_text(model, t.id)}, {"p", t.p}});
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
    };
    std::vector<Row> rows;
    for (const auto& layer : summarize_heads(*stepper).layers)
        for (size_t h = 0; h < layer.heads.size(); ++h) rows.push_back({layer.attention, static_cast<int>(h), layer.heads[h]});
    const auto value = [&](const HeadStats& s) {
        const float v = sort == "entropy" ? s.entropy : sort == "previous" ? s.previous_token : sort == "first" ? s.first_token : s.self;
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
            j.push_back({{"attention", r.attention}, {"head", r.head}, {"entropy", number(r.s.entropy)},
                         {"previous", number(r.s.previous_token)}, {"first", number(r.s.first_token)}, {"self", number(r.s.self)}});
        std::printf("%s\n", j.dump().c_str());
        return 0;
    }
    std::printf("%-34s %4s %8s %8s %8s %8s\n", "attention", "head", "entropy", "previous", "first", "self");
    const auto cell = [](float v) { return std::isnan(v) ? std::string("-") : std::to_string(v).substr(0, 6); };
    for (const Row& r : rows)
        std::printf("%-34s %4d %8s %8s %8s %8s\n", r.attention.c_str(), r.head, cell(r.s.entropy).c_str(),
                    cell(r.s.previous_token).c_str(), cell(r.s.first_token).c_str(), cell(r.s.self).c_str());
    std::printf("entropy in nats (0: one key; ln T: uniform); previous, first, self: mean attention weight\n");
    return 0;
}

}  // namespace attnlab::cli
