// attnlab-cli qk / ov: one head's QK and OV circuits (core/analysis/head_circuits.h), over a list
// of tokens as a matrix, or for one token over the whole vocabulary as its top (and bottom) K; the matrix and the
// ranking come from the app's circuits tool (app/model/circuits_tool.h), as the Analysis view's do.
#include "circuits_tool.h"
#include "cli_common.h"
#include "cli_tokens.h"
#include "commands.h"
#include "forward/mechanisms/positions.h"
#include "hf/open_model.h"
#include "param_names.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace attnlab::cli {

namespace {

enum class Circuit { qk, ov };

struct CircuitRequest {
    HeadRef head;
    std::vector<int> ids;           // the list, or the one token
    bool whole_vocabulary = false;  // --token/--id: one token against every token
    int top = 10;
    int offset = 0;  // a rotary model's QK circuit: the query this many positions after the key
    bool json = false;
};

// Parses the shared flags; on failure prints the error and returns its exit code in *code.
std::optional<CircuitRequest> parse_request(const char* name, const Argv& argv, LoadedModel* loaded, int* code) {
    Args args;
    if (auto err = parse_args(
            argv, {{"layer", "head", "stack", "tokens", "ids", "token", "id", "top", "offset"}, {"json"}, 1}, args)) {
        *code = fail(std::string(name) + ": " + *err, kExitUsage);
        return std::nullopt;
    }
    const auto usage = [&](const std::string& message) {
        *code = fail(std::string(name) + ": " + message, kExitUsage);
        return std::nullopt;
    };
    const int given = static_cast<int>(args.has("tokens")) + args.has("ids") + args.has("token") + args.has("id");
    if (given != 1) return usage("give one of --tokens A,B,C, --ids 1,2,3, --token T and --id N");
    const auto layer = integer_flag(args, "layer", -1, 0, 1000), head = integer_flag(args, "head", -1, 0, 1000);
    if (!layer || *layer < 0 || !head || *head < 0) return usage("--layer and --head take integers from 0");
    const auto top = integer_flag(args, "top", 10, 1, 100000);
    if (!top) return usage("--top takes an integer from 1 to 100000");
    const auto offset = integer_flag(args, "offset", 0, -1000000, 1000000);
    if (!offset) return usage("--offset takes an integer (query position − key position)");
    const std::string stack = args.get("stack").value_or("");
    if (!stack.empty() && stack != "encoder" && stack != "decoder") return usage("--stack takes encoder or decoder");

    auto opened = open_model(args.positional[0]);
    if (!opened) {
        *code = fail(opened.error().message, kExitBadInput);
        return std::nullopt;
    }
    *loaded = std::move(*opened);
    CircuitRequest r;
    r.offset = *offset;
    r.head = {stack.empty()        ? last_stack(loaded->model.config)
              : stack == "encoder" ? Stack::encoder
                                   : Stack::decoder,
              static_cast<int>(*layer), static_cast<int>(*head)};
    r.whole_vocabulary = args.has("token") || args.has("id");
    r.top = static_cast<int>(*top);
    r.json = args.has("json");
    const bool by_id = args.has("ids") || args.has("id");
    const char* flag = args.has("tokens") ? "tokens" : args.has("ids") ? "ids" : args.has("token") ? "token" : "id";
    auto ids = token_list(loaded->model, *args.get(flag), by_id, r.head.stack);
    if (!ids) {
        *code = fail(std::string(name) + ": " + ids.error().message, kExitBadInput);
        return std::nullopt;
    }
    if (r.whole_vocabulary && ids->size() != 1) return usage(std::string("--") + flag + " takes one token");
    r.ids = std::move(*ids);
    return r;
}

std::string head_name(const CircuitRequest& r) {
    return std::string(r.head.stack == Stack::encoder ? "encoder" : "decoder") + " layer " +
           std::to_string(r.head.layer) + " head " + std::to_string(r.head.head);
}

int print_ranked(const Model& model, const CircuitRequest& r, const gui::CircuitRanking& ranked, Stack columns_side,
                 const char* what, const char* what_after, bool with_bottom) {
    const std::vector<TokenScore>& top = ranked.top;
    const std::vector<TokenScore>& bottom = ranked.bottom;
    if (r.json) {
        const auto list = [&](const std::vector<TokenScore>& v) {
            nlohmann::json j = nlohmann::json::array();
            for (const TokenScore& t : v)
                j.push_back({{"id", t.id}, {"token", token_text(model, t.id, columns_side)}, {"value", t.value}});
            return j;
        };
        nlohmann::json j = {{"token", r.ids[0]}, {"top", list(top)}};
        if (with_bottom) j["bottom"] = list(bottom);
        std::printf("%s\n", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
        return 0;
    }
    std::printf("%s, %s %s (id %d) %s\n", head_name(r).c_str(), what,
                shown(token_text(model, r.ids[0], r.head.stack)).c_str(), r.ids[0], what_after);
    const auto print = [&](const char* title, const std::vector<TokenScore>& v) {
        std::printf("%s\n", title);
        for (const TokenScore& t : v)
            std::printf("  %+10.4f  %6d  %s\n", static_cast<double>(t.value), t.id,
                        shown(token_text(model, t.id, columns_side)).c_str());
    };
    print("highest", top);
    if (with_bottom) print("lowest", bottom);
    return 0;
}

// Columns a terminal gives `text`: two for Hangul and CJK ideographs, one for other characters.
int display_width(const std::string& text) {
    int width = 0;
    for (size_t i = 0; i < text.size();) {
        const auto lead = static_cast<unsigned char>(text[i]);
        const int bytes = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
        char32_t c = bytes == 1 ? lead : lead & (0x7F >> bytes);
        for (int b = 1; b < bytes && i + static_cast<size_t>(b) < text.size(); ++b)
            c = (c << 6) | (static_cast<unsigned char>(text[i + static_cast<size_t>(b)]) & 0x3F);
        const bool wide = (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF) ||
                          (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF00 && c <= 0xFF60);
        width += wide ? 2 : 1;
        i += static_cast<size_t>(bytes);
    }
    return width;
}

// `text` right-aligned in `width` terminal columns.
std::string right_aligned(const std::string& text, int width) {
    return std::string(static_cast<size_t>(std::max(0, width - display_width(text))), ' ') + text;
}

int print_matrix(const Model& model, const CircuitRequest& r, const Mat& m, Stack columns_side, const char* title) {
    if (r.json) {
        nlohmann::json values = nlohmann::json::array();
        for (Eigen::Index i = 0; i < m.rows(); ++i)
            values.push_back(std::vector<float>(m.row(i).begin(), m.row(i).end()));
        std::printf("%s\n", nlohmann::json({{"ids", r.ids}, {"values", values}}).dump().c_str());
        return 0;
    }
    std::printf("%s, %s\n%12s", head_name(r).c_str(), title, "");
    // At most 10 columns of a token; a longer one is cut at a character, not inside one.
    const auto cut = [](const std::string& s) {
        if (display_width(s) <= 10) return s;
        std::string out;
        for (size_t i = 0; i < s.size();) {
            size_t next = i + 1;
            while (next < s.size() && (static_cast<unsigned char>(s[next]) & 0xC0) == 0x80) ++next;
            if (display_width(out + s.substr(i, next - i)) > 9) break;
            out += s.substr(i, next - i);
            i = next;
        }
        return out + "~";
    };
    for (int id : r.ids) std::printf(" %s", right_aligned(cut(token_text(model, id, columns_side)), 10).c_str());
    std::printf("\n");
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        std::printf("%s",
                    right_aligned(cut(token_text(model, r.ids[static_cast<size_t>(i)], r.head.stack)), 12).c_str());
        for (Eigen::Index j = 0; j < m.cols(); ++j) std::printf(" %+10.3f", static_cast<double>(m(i, j)));
        std::printf("\n");
    }
    return 0;
}

// A rotary model's QK scores are those of one offset (not in --json).
void print_rope_note(const Model& model, const CircuitRequest& r) {
    if (PositionMechanism(model.config).rotates_queries_and_keys() && !r.json)
        std::printf("RoPE: scores of a query %d position%s after its key (--offset N for another)\n", r.offset,
                    r.offset == 1 || r.offset == -1 ? "" : "s");
}

int run_circuit(Circuit circuit, const Argv& argv) {
    const char* name = circuit == Circuit::qk ? "qk" : "ov";
    LoadedModel loaded;
    int code = 0;
    const auto request = parse_request(name, argv, &loaded, &code);
    if (!request) return code;
    const CircuitRequest& r = *request;
    const Model& model = loaded.model;
    const bool ov = circuit == Circuit::ov;
    if (r.whole_vocabulary) {
        auto ranked = gui::circuit_ranking(model.config, model.weights, r.head, ov, r.ids[0], r.offset, r.top);
        if (!ranked) return fail(std::string(name) + ": " + ranked.error().message, kExitBadInput);
        if (ov)
            return print_ranked(model, r, *ranked, last_stack(model.config), "OV logits of attending to",
                                "for every output token", true);
        print_rope_note(model, r);
        return print_ranked(model, r, *ranked, r.head.stack, "QK scores of the query",
                            "against every key, before softmax", false);
    }
    auto m = gui::circuit_matrix(model.config, model.weights, r.head, ov, r.ids, r.offset);  // (n, n)
    if (!m) return fail(std::string(name) + ": " + m.error().message, kExitBadInput);
    if (ov)
        return print_matrix(model, r, *m, last_stack(model.config),
                            "OV logits: attending to a row's token raises (+) or lowers (-) the column's logit");
    print_rope_note(model, r);
    return print_matrix(model, r, *m, r.head.stack, "QK scores before softmax: rows attend (queries) to columns (keys)");
}

}  // namespace

int run_qk(const Argv& argv) { return run_circuit(Circuit::qk, argv); }
int run_ov(const Argv& argv) { return run_circuit(Circuit::ov, argv); }

}  // namespace attnlab::cli
