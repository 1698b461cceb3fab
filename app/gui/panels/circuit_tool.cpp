#include "panels/circuit_tool.h"

#include "circuits_tool.h"
#include "forward/mechanisms/positions.h"
#include "panels/input_fields.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace attnlab::gui {

namespace {

// Kept between frames (PanelCaches): the tool.
struct CircuitCache {
    CircuitsTool tool;
};

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
    const int layers =
        circuit_stack(config, c) == Stack::encoder ? config.n_encoder_layers : config.n_decoder_layers;
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

void draw_ranking(const PanelContext& ctx, const CircuitsTool& tool, const CircuitRanking& ranking, int focus) {
    const std::optional<Vocab>& out_vocab = output_vocab(ctx);
    const std::string& token = tool.row_labels()[static_cast<size_t>(focus)];
    char title[256];
    std::snprintf(title, sizeof title,
                  tool.ov() ? ctx.t("attending to \"%s\" raises, over the whole vocabulary:")
                            : ctx.t("\"%s\" attends most, over the whole vocabulary, to:"),
                  token.c_str());
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(title);
    ImGui::PopTextWrapPos();
    const auto list = [&](const std::vector<TokenScore>& entries, const std::optional<Vocab>& vocab) {
        for (const TokenScore& t : entries)
            ImGui::Text("%+8.3f  %s", static_cast<double>(t.value), token_or_id(vocab, t.id).c_str());
    };
    list(ranking.top, tool.ov() ? out_vocab : stack_vocab(ctx.session.model(), tool.head().stack));
    if (!tool.ov()) return;
    ImGui::Spacing();
    ImGui::TextUnformatted(ctx.t("and lowers:"));
    list(ranking.bottom, out_vocab);
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
    std::string typed;
    ImGui::SetNextItemWidth(22.0f * ctx.em);
    if (remembered_text_field("##circuit_tokens", ctx.t("tokens separated by spaces (empty: the sentence's)"), c.tokens,
                              typed))
        c.tokens = typed;
    CircuitsTool& tool = ctx.caches.get<CircuitCache>().tool;
    tool.update(ctx.stepper(), ctx.session.model(), c);
    if (!tool.unknown().empty()) {
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "\"%s\": %s", tool.unknown().c_str(),
                           ctx.t("not a token of the vocabulary"));
    }
    const std::vector<int>& ids = tool.ids();
    if (ids.empty()) {
        ImGui::TextDisabled("%s", ctx.t("No tokens to show: type some, or give the model a sentence."));
        return;
    }
    const Result<Mat>& matrix = tool.matrix();
    if (!matrix) {
        ImGui::TextDisabled("%s", matrix.error().message.c_str());
        return;
    }
    c.focus = std::clamp(c.focus, 0, static_cast<int>(ids.size()) - 1);
    const CircuitRanking& ranking = tool.ranking(ctx.stepper(), c.focus);

    // The matrix as wide as its cells and labels need, the ranking right beside it.
    const float cell = 3.0f * ctx.em, list_w = 18.0f * ctx.em;
    const float matrix_w =
        std::min(ImGui::GetContentRegionAvail().x - list_w, (9.0f * ctx.em) + cell * static_cast<float>(ids.size()));
    ImGui::BeginChild("circuit_matrix", ImVec2(std::max(10.0f * ctx.em, matrix_w), 0));
    MatrixPlot plot;
    plot.key = "analysis/circuit";
    plot.values = matrix->data();
    plot.rows = static_cast<int>(matrix->rows());
    plot.cols = static_cast<int>(matrix->cols());
    plot.version = tool.version();
    plot.colormap = Colormap::diverging;
    plot.row_labels = &tool.row_labels();
    plot.col_labels = &tool.col_labels();
    plot.highlight_row = c.focus;
    plot.max_cell = cell;
    plot.caption = c.ov ? ctx.t("logit") : ctx.t("score");
    plot.fit_height = true;
    plot.fixed_range = true;
    plot.lo = -tool.range();
    plot.hi = tool.range();
    const HeatmapHit hit = plot_matrix(ctx, plot);
    if (hit.row >= 0 && hit.col >= 0) {
        const float v = (*matrix)(hit.row, hit.col);
        ImGui::SetTooltip(c.ov ? ctx.t("attending to %s, logit of %s: %+.3f") : ctx.t("query %s, key %s: %+.3f"),
                          tool.row_labels()[static_cast<size_t>(hit.row)].c_str(),
                          tool.col_labels()[static_cast<size_t>(hit.col)].c_str(), static_cast<double>(v));
        if (hit.clicked) c.focus = hit.row;
    }
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("circuit_ranking");
    draw_ranking(ctx, tool, ranking, c.focus);
    ImGui::EndChild();
}

}  // namespace attnlab::gui
