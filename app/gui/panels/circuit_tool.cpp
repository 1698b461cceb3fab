#include "panels/circuit_tool.h"

#include "analysis/head_circuits.h"
#include "analysis/token_ranking.h"
#include "forward/mechanisms/positions.h"
#include "panels/input_fields.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

namespace attnlab::gui {

namespace {

constexpr size_t kMaxTokens = 24;  // rows and columns of the matrix: more are unreadable
constexpr int kRanked = 12;        // tokens in each whole-vocabulary list

// The head's side of the model: its stack's vocabulary and the ids it reads now.
struct Side {
    Stack stack;
    const std::optional<Vocab>& vocab;
    const std::vector<int>& sentence;
};

Side head_side(const PanelContext& ctx) {
    const ModelConfig& config = ctx.config();
    const bool encoder = !config.has_decoder() || (config.has_encoder() && ctx.view.analysis.circuit.encoder);
    const Model& m = ctx.session.model();
    return encoder ? Side{Stack::encoder, m.src_vocab, ctx.stepper().inputs().src_ids}
                   : Side{Stack::decoder, m.tgt_vocab, ctx.stepper().inputs().tgt_ids};
}

// The typed tokens (unknown ones reported in *unknown), or the sentence's, each once, at most kMaxTokens.
std::vector<int> chosen_ids(const Side& side, const std::string& typed, std::string* unknown) {
    std::vector<int> ids;
    if (typed.empty() || !side.vocab) {
        ids = side.sentence;
    } else {
        std::istringstream words(typed);
        for (std::string w; words >> w;) {
            if (auto id = side.vocab->find(w))
                ids.push_back(*id);
            else if (unknown->empty())
                *unknown = w;
        }
    }
    std::vector<int> unique;
    std::set<int> seen;
    for (int id : ids)
        if (seen.insert(id).second && unique.size() < kMaxTokens) unique.push_back(id);
    return unique;
}

std::vector<const Tensor*> tensor_identities(const Weights& weights) {
    std::vector<const Tensor*> out;
    for (const auto& [name, tensor] : weights.all()) out.push_back(tensor.get());
    return out;
}

struct CircuitCache {
    // What the numbers were computed from: an edit to any weight replaces its tensor.
    std::vector<const Tensor*> weights;
    bool ov = false;
    HeadRef head{};
    std::vector<int> ids;
    int offset = 0;                  // RoPE's query − key positions the QK circuit was computed at
    Result<Mat> matrix = Error{""};  // (n, n): the list against itself
    Mat logits;                      // (n, V): the OV circuit's full rows
    std::vector<std::string> labels, out_labels;
    uint64_t version = 0;
    float range = 1.0f;  // the colour scale runs from −range to +range
    int focus_id = -1;   // the token the ranking was computed for
    std::vector<TokenScore> top, bottom;
};

void refresh_matrix(const PanelContext& ctx, CircuitCache& cache, const Side& side, const HeadRef& head,
                    const std::vector<int>& ids) {
    std::vector<const Tensor*> weights = tensor_identities(ctx.stepper().weights());
    const bool ov = ctx.view.analysis.circuit.ov;
    const int offset = ctx.view.analysis.circuit.rope_offset;
    if (cache.weights == weights && cache.ov == ov && cache.head.stack == head.stack &&
        cache.head.layer == head.layer && cache.head.head == head.head && cache.ids == ids && cache.offset == offset &&
        cache.version != 0)
        return;
    cache = CircuitCache{std::move(weights), ov,   head, ids, offset, Error{""}, {}, {}, {},
                         cache.version + 1,  1.0f, -1,   {},  {}};
    const ModelConfig& config = ctx.config();
    const Weights& w = ctx.stepper().weights();
    if (!ov) {
        cache.matrix = qk_circuit(config, w, head, ids, ids, offset);
    } else if (auto logits = ov_circuit(config, w, head, ids); !logits) {
        cache.matrix = logits.error();
    } else {
        cache.logits = std::move(*logits);
        Mat square(cache.logits.rows(), static_cast<Eigen::Index>(ids.size()));
        for (size_t j = 0; j < ids.size(); ++j) square.col(static_cast<Eigen::Index>(j)) = cache.logits.col(ids[j]);
        cache.matrix = std::move(square);
    }
    const std::optional<Vocab>& out_vocab = output_vocab(ctx);
    for (int id : ids) {
        cache.labels.push_back(token_or_id(side.vocab, id));
        cache.out_labels.push_back(token_or_id(out_vocab, id));
    }
    if (cache.matrix && cache.matrix->size() > 0) cache.range = std::max(1e-6f, cache.matrix->cwiseAbs().maxCoeff());
}

void refresh_ranking(const PanelContext& ctx, CircuitCache& cache, int focus) {
    const int id = cache.ids[static_cast<size_t>(focus)];
    if (cache.focus_id == id) return;
    cache.focus_id = id;
    if (cache.ov) {
        cache.top = rank_tokens(cache.logits.row(focus), kRanked);
        cache.bottom = rank_tokens(cache.logits.row(focus), kRanked, false);
        return;
    }
    const Tensor& table = ctx.stepper().weights().at(embedding_params(ctx.config(), cache.head.stack).tokens);
    auto scores = qk_circuit(ctx.config(), ctx.stepper().weights(), cache.head, {id},
                             every_token(static_cast<int>(table.dim(0))), cache.offset);  // (1, V)
    cache.top = scores ? rank_tokens(scores->row(0), kRanked) : std::vector<TokenScore>{};
    cache.bottom.clear();
}

void draw_head_picker(PanelContext& ctx) {
    const ModelConfig& config = ctx.config();
    CircuitChoice& c = ctx.view.analysis.circuit;
    int kind = c.ov ? 1 : 0;
    ImGui::RadioButton("QK", &kind, 0);
    ImGui::SameLine();
    ImGui::RadioButton("OV", &kind, 1);
    c.ov = kind == 1;
    if (config.has_encoder() && config.has_decoder()) {
        int stack = c.encoder ? 0 : 1;
        ImGui::SameLine(0.0f, 1.5f * ctx.em);
        ImGui::RadioButton(ctx.t("encoder"), &stack, 0);
        ImGui::SameLine();
        ImGui::RadioButton(ctx.t("decoder"), &stack, 1);
        c.encoder = stack == 0;
    }
    const Side side = head_side(ctx);
    const int layers = side.stack == Stack::encoder ? config.n_encoder_layers : config.n_decoder_layers;
    c.layer = std::clamp(c.layer, 0, std::max(0, layers - 1));
    c.head = std::clamp(c.head, 0, config.n_heads - 1);
    ImGui::SameLine(0.0f, 1.5f * ctx.em);
    value_slider_int(ctx.t("Layer"), "##layer", &c.layer, 0, std::max(0, layers - 1), "%d", 6.0f * ctx.em);
    ImGui::SameLine();
    value_slider_int(ctx.t("Head"), "##head", &c.head, 0, config.n_heads - 1, "%d", 6.0f * ctx.em);
    if (c.ov || !PositionMechanism(config).rotates_queries_and_keys()) return;
    // A rotary head scores a query and a key by how far apart they are: its QK circuit is one offset's.
    c.rope_offset = std::clamp(c.rope_offset, 0, 64);
    value_slider_int(ctx.t("Offset m − n"), "##offset", &c.rope_offset, 0, 64, "%d", 8.0f * ctx.em);
    ImGui::SameLine();
    text_disabled_wrapped(
        ctx.t("RoPE: these scores are those of a query this many positions after its key; at "
              "another offset the same tokens score otherwise."));
}

void draw_ranking(const PanelContext& ctx, const CircuitCache& cache, const Side& side, int focus) {
    const std::optional<Vocab>& out_vocab = output_vocab(ctx);
    const std::string token = cache.labels[static_cast<size_t>(focus)];
    char title[256];
    std::snprintf(title, sizeof title,
                  cache.ov ? ctx.t("attending to \"%s\" raises, over the whole vocabulary:")
                           : ctx.t("\"%s\" attends most, over the whole vocabulary, to:"),
                  token.c_str());
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(title);
    ImGui::PopTextWrapPos();
    const auto list = [&](const std::vector<TokenScore>& entries, const std::optional<Vocab>& vocab) {
        for (const TokenScore& t : entries)
            ImGui::Text("%+8.3f  %s", static_cast<double>(t.value), token_or_id(vocab, t.id).c_str());
    };
    list(cache.top, cache.ov ? out_vocab : side.vocab);
    if (!cache.ov) return;
    ImGui::Spacing();
    ImGui::TextUnformatted(ctx.t("and lowers:"));
    list(cache.bottom, out_vocab);
}

}  // namespace

void draw_circuit_tool(PanelContext& ctx) {
    CircuitChoice& c = ctx.view.analysis.circuit;
    text_disabled_wrapped(
        c.ov ? ctx.t("OV circuit, from the weights alone: what attending to a token writes, x·W_V·W_O, read "
                     "through the unembedding as logits (no biases, no final norm). Rows: the token attended "
                     "to; columns: the output token whose logit it raises (+) or lowers (−).")
             : ctx.t("QK circuit, from the weights alone: how much a query token attends to a key token, "
                     "(x_q·W_Q)(x_k·W_K)ᵀ/√d before softmax, without positions or biases. Rows: queries; "
                     "columns: keys. Click a row to rank the whole vocabulary for its token."));
    draw_head_picker(ctx);
    const Side side = head_side(ctx);
    std::string typed;
    ImGui::SetNextItemWidth(22.0f * ctx.em);
    if (remembered_text_field("##circuit_tokens", ctx.t("tokens separated by spaces (empty: the sentence's)"), c.tokens,
                              typed))
        c.tokens = typed;
    std::string unknown;
    const std::vector<int> ids = chosen_ids(side, c.tokens, &unknown);
    if (!unknown.empty()) {
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "\"%s\": %s", unknown.c_str(),
                           ctx.t("not a token of the vocabulary"));
    }
    if (ids.empty()) {
        ImGui::TextDisabled("%s", ctx.t("No tokens to show: type some, or give the model a sentence."));
        return;
    }
    CircuitCache& cache = ctx.caches.get<CircuitCache>();
    refresh_matrix(ctx, cache, side, HeadRef{side.stack, c.layer, c.head}, ids);
    if (!cache.matrix) {
        ImGui::TextDisabled("%s", cache.matrix.error().message.c_str());
        return;
    }
    c.focus = std::clamp(c.focus, 0, static_cast<int>(ids.size()) - 1);
    refresh_ranking(ctx, cache, c.focus);

    // The matrix as wide as its cells and labels need, the ranking right beside it.
    const float cell = 3.0f * ctx.em, list_w = 18.0f * ctx.em;
    const float matrix_w =
        std::min(ImGui::GetContentRegionAvail().x - list_w, (9.0f * ctx.em) + cell * static_cast<float>(ids.size()));
    ImGui::BeginChild("circuit_matrix", ImVec2(std::max(10.0f * ctx.em, matrix_w), 0));
    MatrixPlot plot;
    plot.key = "analysis/circuit";
    plot.values = cache.matrix->data();
    plot.rows = static_cast<int>(cache.matrix->rows());
    plot.cols = static_cast<int>(cache.matrix->cols());
    plot.version = cache.version;
    plot.colormap = Colormap::diverging;
    plot.row_labels = &cache.labels;
    plot.col_labels = &cache.out_labels;
    plot.highlight_row = c.focus;
    plot.max_cell = cell;
    plot.caption = c.ov ? ctx.t("logit") : ctx.t("score");
    plot.fit_height = true;
    plot.fixed_range = true;
    plot.lo = -cache.range;
    plot.hi = cache.range;
    const HeatmapHit hit = plot_matrix(ctx, plot);
    if (hit.row >= 0 && hit.col >= 0) {
        const float v = (*cache.matrix)(hit.row, hit.col);
        ImGui::SetTooltip(c.ov ? ctx.t("attending to %s, logit of %s: %+.3f") : ctx.t("query %s, key %s: %+.3f"),
                          cache.labels[static_cast<size_t>(hit.row)].c_str(),
                          cache.out_labels[static_cast<size_t>(hit.col)].c_str(), static_cast<double>(v));
        if (hit.clicked) c.focus = hit.row;
    }
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("circuit_ranking");
    draw_ranking(ctx, cache, side, c.focus);
    ImGui::EndChild();
}

}  // namespace attnlab::gui
