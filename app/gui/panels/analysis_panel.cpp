// The Analysis view, for looking inside trained models: the logit lens (what each layer would
// predict at each position), the head summary (what every head attends to), both recomputed from
// the trace only when it changes, the embeddings tool (panels/embedding_map.h) and the circuits
// tool (panels/circuit_tool.h), the compare tool (panels/compare_tool.h) and the head detectors
// (panels/head_detectors_view.h).
#include "analysis/head_summary.h"
#include "analysis/logit_lens.h"
#include "forward/step_path.h"
#include "panels/circuit_tool.h"
#include "panels/compare_tool.h"
#include "panels/embedding_map.h"
#include "panels/head_detectors_view.h"
#include "panels/panel_context.h"
#include "widgets/label_draw.h"
#include "widgets/radio_row.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

namespace attnlab::gui {

namespace {

constexpr int kLensColumns = 12;  // positions shown at once: a GPT-2 lens is costly, and a table wider is unreadable
constexpr int kLensTop = 5;       // tokens in each cell's tooltip
// A position's column in the lens: its tokens whole up to 6 em; narrower (cut with "…", whole on hover) to fit
// the pane, down to 4 em; then fewer positions show at once.
constexpr float kLensColumnMaxEm = 6.0f, kLensColumnMinEm = 4.0f;

struct HeadRow {
    const HeadSummary::Layer* layer;
    int head;
};

// Each keyed by the version of the last step's output: any edit that changes the trace changes it.
struct AnalysisCache {
    uint64_t lens_version = 0;
    int lens_first_position = -1;
    int lens_positions_shown = 0;
    Result<LogitLens> lens = Error{""};
    uint64_t heads_version = 0;
    HeadSummary heads;
    std::vector<HeadRow> head_rows;  // in the table's order
    // The heatmap of one statistic: (attentions, H), 0 in the mask where a head has no such number.
    int map_stat = -1;
    bool map_korean = false;   // the language of map_rows
    uint64_t map_version = 0;  // bumped whenever map_values change
    std::vector<float> map_values, map_mask;
    std::vector<std::string> map_rows, map_cols;
};

uint64_t trace_version(const Stepper& stepper) {
    const TraceEntry* last = stepper.run_facts(stepper.steps().back().record.id);  // its version: nothing recomputed
    return last ? last->version : 0;
}

std::string token_text(const PanelContext& ctx, int id) { return token_or_id(output_vocab(ctx), id); }

// The height a table of a header and `rows` takes, and a horizontal scrollbar's when it scrolls sideways.
float table_height(int rows, bool scrolls_sideways) {
    const float row_h = ImGui::GetTextLineHeight() + 2.0f * ImGui::GetStyle().CellPadding.y + 1.0f;
    return (static_cast<float>(rows) + 1.0f) * row_h + (scrolls_sideways ? ImGui::GetStyle().ScrollbarSize : 0.0f);
}

// A table no taller than its rows, nor than the space left.
ImVec2 table_size(int rows, bool scrolls_sideways = true) {
    return ImVec2(0.0f, std::min(ImGui::GetContentRegionAvail().y, table_height(rows, scrolls_sideways)));
}

// A probability as a cell colour: the window background towards the accent colour.
ImU32 probability_color(float p) {
    const ImVec4 bg = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg), hi(0.16f, 0.47f, 0.86f, 1.0f);
    const float t = std::clamp(std::sqrt(p), 0.0f, 1.0f);  // small probabilities still show
    return ImGui::GetColorU32(
        ImVec4(bg.x + (hi.x - bg.x) * t, bg.y + (hi.y - bg.y) * t, bg.z + (hi.z - bg.z) * t, 1.0f));
}

// Row 0 of the lens is the stack's input, row l + 1 the output of layer l.
std::string row_label(const PanelContext& ctx, size_t row) {
    if (row == 0) return ctx.t("embeddings");
    char label[64];
    std::snprintf(label, sizeof label, "%s %zu", ctx.t("Layer"), row - 1);
    return label;
}

// `text` cut with "…" to `max_w` pixels (widgets/label_layout.h), the whole of it in a tooltip when cut.
void fitted_text(const std::string& text, float max_w, const TextMeasure& measure) {
    const std::string shown = abbreviate_label(text, max_w, measure);
    ImGui::TextUnformatted(shown.c_str());
    if (shown != text && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
}

// The lens table's columns across the pane: the row names', then `count` positions `width` wide each.
struct LensColumns {
    float label_w = 0.0f;
    int count = 1;
    float width = 0.0f;
};

// As many positions (of `T`, at most kLensColumns) as fit the pane whole at kLensColumnMinEm or more, each as
// wide as the room allows up to kLensColumnMaxEm: the table ends inside the pane, no header cut at its edge.
LensColumns lens_columns(const PanelContext& ctx, int T) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const ModelConfig& config = ctx.config();
    const int n_layers = config.has_decoder() ? config.n_decoder_layers : config.n_encoder_layers;
    LensColumns c;
    c.label_w = std::max(ImGui::CalcTextSize(row_label(ctx, 0).c_str()).x,
                         ImGui::CalcTextSize(row_label(ctx, static_cast<size_t>(n_layers)).c_str()).x);
    const bool scrolls_down = table_height(n_layers + 1, false) > ImGui::GetContentRegionAvail().y;
    const float cell_extra = 2.0f * style.CellPadding.x + 1.0f;  // a column's padding and its border
    const float room = ImGui::GetContentRegionAvail().x - 1.0f - (c.label_w + cell_extra) -
                       (scrolls_down ? style.ScrollbarSize : 0.0f);
    const int fit = static_cast<int>(room / (kLensColumnMinEm * ctx.em + cell_extra));
    c.count = std::clamp(fit, 1, std::clamp(T, 1, kLensColumns));
    c.width = std::floor(std::min(room / static_cast<float>(c.count) - cell_extra, kLensColumnMaxEm * ctx.em));
    return c;
}

void draw_lens(PanelContext& ctx, AnalysisCache& cache) {
    text_disabled_wrapped(
        ctx.t("Each layer's output read as if it were the last: through the final norm and the "
              "unembedding. Cells: the most probable token, coloured by its probability; hover for the top 5."));
    const std::vector<int>& ids =
        ctx.config().has_decoder() ? ctx.stepper().inputs().tgt_ids : ctx.stepper().inputs().src_ids;
    const int T = static_cast<int>(ids.size());
    const LensColumns layout = lens_columns(ctx, T);
    int& first = ctx.view.analysis.lens_first_position;
    first = std::clamp(first, 0, std::max(0, T - layout.count));
    if (T > layout.count) {
        value_slider_int(ctx.t("first position"), "##first_position", &first, 0, T - layout.count, "%d",
                         10.0f * ctx.em);
    }
    const uint64_t version = trace_version(ctx.stepper());
    if (cache.lens_version != version || cache.lens_first_position != first ||
        cache.lens_positions_shown != layout.count) {
        std::vector<int> positions;
        for (int p = first; p < std::min(T, first + layout.count); ++p) positions.push_back(p);
        cache.lens = version ? logit_lens(ctx.stepper(), positions, kLensTop)
                             : Result<LogitLens>(Error{ctx.t("Run the stepper to the end to read the layers.")});
        cache.lens_version = version;
        cache.lens_first_position = first;
        cache.lens_positions_shown = layout.count;
    }
    if (!cache.lens) {
        ImGui::TextDisabled("%s", cache.lens.error().message.c_str());
        return;
    }
    const LogitLens& lens = *cache.lens;
    const int columns = static_cast<int>(lens.positions.size());
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("lens", columns + 1, flags, table_size(static_cast<int>(lens.rows.size()), false))) return;
    ImGui::TableSetupScrollFreeze(1, 1);
    const float fit = layout.width;  // a longer token is cut with "…", whole on hover
    const TextMeasure measure = imgui_text_measure();
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, layout.label_w);
    for (int c = 0; c < columns; ++c) ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, layout.width);
    // Headers as plain text: a WordPiece "##s" would be read as an ImGui label's id part.
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int c = 0; c < columns; ++c) {
        ImGui::TableSetColumnIndex(c + 1);
        const int p = lens.positions[static_cast<size_t>(c)];
        fitted_text(std::to_string(p) + " " + token_text(ctx, ids[static_cast<size_t>(p)]), fit, measure);
    }
    for (size_t r = lens.rows.size(); r-- > 0;) {  // the last layer on top, as the residual stream rises
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(row_label(ctx, r).c_str());
        for (int c = 0; c < columns; ++c) {
            ImGui::TableSetColumnIndex(c + 1);
            const auto& top = lens.top[r][static_cast<size_t>(c)];
            if (top.empty()) continue;
            ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, probability_color(top.front().p));
            ImGui::TextUnformatted(abbreviate_label(token_text(ctx, top.front().id), fit, measure).c_str());
            if (ImGui::IsItemHovered()) {
                ImGui::BeginTooltip();
                ImGui::Text("%s, %s %d", row_label(ctx, r).c_str(), ctx.t("position"),
                            lens.positions[static_cast<size_t>(c)]);
                for (const TokenProbability& t : top)
                    ImGui::Text("%6.3f  %s", static_cast<double>(t.p), token_text(ctx, t.id).c_str());
                ImGui::EndTooltip();
            }
        }
    }
    ImGui::EndTable();
}

float stat(const HeadStats& s, int column) {
    switch (column) {
        case 2: return s.entropy;
        case 3: return s.previous_token;
        case 4: return s.first_token;
        default: return s.self;
    }
}

// The decoder's layer 1 cross-attention -> "dec 1 cross" (a heatmap row), or "decoder layer 1 cross-attention"
// (a table row, its path decoder.layers.1.cross_attn in the tooltip), in the UI's language.
std::string attention_label(const PanelContext& ctx, const AttentionSite& site, bool short_form) {
    const char* format = nullptr;
    if (stack_of(site.use) == Stack::encoder)
        format = short_form ? ctx.t("enc %d self") : ctx.t("encoder layer %d self-attention");
    else if (site.use == AttentionUse::cross)
        format = short_form ? ctx.t("dec %d cross") : ctx.t("decoder layer %d cross-attention");
    else
        format = short_form ? ctx.t("dec %d self") : ctx.t("decoder layer %d self-attention");
    char label[96];
    std::snprintf(label, sizeof label, format, site.layer);
    return label;
}

void open_head(PanelContext& ctx, const AttentionSite& attention, int head) {
    focus_attention_step(ctx.view, StepId::attention_at(attention, AttentionStage::weights));
    ctx.view.attention.head = head;
    ctx.view.bring_forward = View::attention;
}

// Columns 2-5 of the table: entropy, previous, first, self.
const char* const kStatNames[] = {tr_noop("entropy"), tr_noop("previous"), tr_noop("first"), tr_noop("self")};

void draw_head_heatmap(PanelContext& ctx, AnalysisCache& cache) {
    const char* items[4];
    for (int i = 0; i < 4; ++i) items[i] = ctx.t(kStatNames[i]);
    ImGui::SetNextItemWidth(9.0f * ctx.em);
    int chosen = static_cast<int>(ctx.view.analysis.head_stat);  // HeadStat is in kStatNames' order
    if (ImGui::Combo("##stat", &chosen, items, 4)) ctx.view.analysis.head_stat = static_cast<HeadStat>(chosen);
    const auto& layers = cache.heads.layers;
    const int H = static_cast<int>(layers.front().heads.size());
    if (cache.map_stat != chosen || cache.map_korean != ctx.view.settings.korean ||
        cache.map_values.size() != layers.size() * static_cast<size_t>(H)) {
        cache.map_stat = chosen;
        cache.map_korean = ctx.view.settings.korean;
        cache.map_values.clear();
        cache.map_mask.clear();
        cache.map_rows.clear();
        for (const auto& layer : layers) {
            cache.map_rows.push_back(attention_label(ctx, layer.attention, true));
            for (const HeadStats& s : layer.heads) {
                const float v = stat(s, cache.map_stat + 2);
                cache.map_values.push_back(std::isnan(v) ? 0.0f : v);
                cache.map_mask.push_back(std::isnan(v) ? 0.0f : 1.0f);
            }
        }
        cache.map_cols.clear();
        for (int h = 0; h < H; ++h) cache.map_cols.push_back(std::to_string(h));
        ++cache.map_version;
    }
    MatrixPlot plot;
    plot.key = "analysis/heads";
    plot.values = cache.map_values.data();
    plot.rows = static_cast<int>(layers.size());
    plot.cols = H;
    plot.version = cache.map_version;
    plot.row_labels = &cache.map_rows;
    plot.col_labels = &cache.map_cols;
    plot.mask = cache.map_mask.data();
    plot.mask_version = cache.map_version;
    plot.max_cell = 1.6f * ctx.em;
    plot.caption = ctx.t(kStatNames[cache.map_stat]);
    // From 0: mean weights up to 1, entropies up to the most spread head's.
    plot.fixed_range = true;
    plot.hi = cache.map_stat > 0 ? 1.0f
                                 : std::max(1e-3f, *std::max_element(cache.map_values.begin(), cache.map_values.end()));
    const HeatmapHit hit = plot_matrix(ctx, plot);
    if (hit.row >= 0 && hit.col >= 0) {
        ImGui::SetTooltip(
            "%s, %s %d: %.3f", attention_label(ctx, layers[static_cast<size_t>(hit.row)].attention, false).c_str(),
            ctx.t("Head"), hit.col, static_cast<double>(cache.map_values[static_cast<size_t>(hit.row * H + hit.col)]));
        if (hit.clicked) open_head(ctx, layers[static_cast<size_t>(hit.row)].attention, hit.col);
    }
}

void draw_heads(PanelContext& ctx, AnalysisCache& cache) {
    text_disabled_wrapped(
        ctx.t("For every head on this input: entropy of its weights (0: one key), and its mean weight on "
              "the previous token, the first token and itself. Click a header to sort, a row to open the head."));
    const uint64_t version = trace_version(ctx.stepper());
    std::vector<HeadRow>& rows = cache.head_rows;
    if (cache.heads_version != version || version == 0) {  // 0: mid-pass, the heads run so far
        cache.heads = summarize_heads(ctx.stepper());
        cache.heads_version = version;
        rows.clear();
        for (const auto& layer : cache.heads.layers)
            for (size_t h = 0; h < layer.heads.size(); ++h) rows.push_back({&layer, static_cast<int>(h)});
        cache.map_stat = -1;  // the heatmap too
    }
    if (rows.empty()) {
        text_not_run_yet(ctx);
        return;
    }
    const int H = static_cast<int>(cache.heads.layers.front().heads.size());
    const float map_w =
        std::min(0.45f * ImGui::GetContentRegionAvail().x, (8.0f + 1.6f * static_cast<float>(H)) * ctx.em);
    ImGui::BeginChild("head_heatmap", ImVec2(map_w, 0));
    draw_head_heatmap(ctx, cache);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("head_table");

    // Scrolls sideways when the pane is narrower than the columns, the attention's name staying in view.
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollX |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_Sortable | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("heads", 6, flags, table_size(static_cast<int>(rows.size())))) {
        ImGui::EndChild();
        return;
    }
    ImGui::TableSetupScrollFreeze(1, 1);
    float name_w = 0.0f;  // the widest attention's label, in this language
    for (const auto& layer : cache.heads.layers)
        name_w = std::max(name_w, ImGui::CalcTextSize(attention_label(ctx, layer.attention, false).c_str()).x);
    ImGui::TableSetupColumn(ctx.t("attention"), ImGuiTableColumnFlags_DefaultSort, name_w + 0.5f * ctx.em);
    ImGui::TableSetupColumn(ctx.t("Head"), 0, 3.0f * ctx.em);
    for (const char* name : kStatNames)  // as wide as the header and its sort arrow, or a number
        ImGui::TableSetupColumn(
            ctx.t(name), ImGuiTableColumnFlags_PreferSortDescending,
            std::max(ImGui::CalcTextSize(ctx.t(name)).x, ImGui::CalcTextSize("0.000").x) + 1.2f * ctx.em);
    ImGui::TableHeadersRow();
    if (const ImGuiTableSortSpecs* sort = ImGui::TableGetSortSpecs(); sort && sort->SpecsCount > 0) {
        const ImGuiTableColumnSortSpecs& spec = sort->Specs[0];
        const bool up = spec.SortDirection == ImGuiSortDirection_Ascending;
        std::stable_sort(rows.begin(), rows.end(), [&](const HeadRow& a, const HeadRow& b) {
            if (spec.ColumnIndex < 2) {
                const auto order = [](const HeadRow& r) { return std::make_pair(r.layer, r.head); };
                return up ? order(a) < order(b) : order(b) < order(a);
            }
            const auto value = [&](const HeadRow& r) {
                const float v = stat(r.layer->heads[static_cast<size_t>(r.head)], static_cast<int>(spec.ColumnIndex));
                return std::isnan(v) ? (up ? INFINITY : -INFINITY) : v;
            };
            return up ? value(a) < value(b) : value(a) > value(b);
        });
    }
    for (const HeadRow& r : rows) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::PushID(r.layer);
        ImGui::PushID(r.head);
        if (ImGui::Selectable(attention_label(ctx, r.layer->attention, false).c_str(), false,
                              ImGuiSelectableFlags_SpanAllColumns))
            open_head(ctx, r.layer->attention, r.head);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", attention_name(r.layer->attention).c_str());
        ImGui::PopID();
        ImGui::PopID();
        ImGui::TableSetColumnIndex(1);
        ImGui::Text("%d", r.head);
        for (int column = 2; column < 6; ++column) {
            ImGui::TableSetColumnIndex(column);
            const float v = stat(r.layer->heads[static_cast<size_t>(r.head)], column);
            if (std::isnan(v))
                ImGui::TextDisabled("-");
            else {
                if (column > 2) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, probability_color(v));
                ImGui::Text("%.3f", static_cast<double>(v));
            }
        }
    }
    ImGui::EndTable();
    ImGui::EndChild();
}

}  // namespace

void draw_analysis_panel(PanelContext& ctx) {
    AnalysisCache& cache = ctx.caches.get<AnalysisCache>();
    AnalysisTool& tool = ctx.view.analysis.tool;
    // In the enum's order but the head detectors, beside the head summary; a narrow pane wraps the row.
    constexpr AnalysisTool kTools[] = {AnalysisTool::logit_lens,     AnalysisTool::head_summary,
                                       AnalysisTool::head_detectors, AnalysisTool::embeddings,
                                       AnalysisTool::circuits,       AnalysisTool::compare};
    const int shown = static_cast<int>(std::find(std::begin(kTools), std::end(kTools), tool) - std::begin(kTools));
    const int picked = radio_row({ctx.t("Logit lens"), ctx.t("Head summary"), ctx.t("Head detectors"),
                                  ctx.t("Embeddings"), ctx.t("Circuits"), ctx.t("Compare")},
                                 shown);
    if (picked >= 0) tool = kTools[picked];
    switch (tool) {
        case AnalysisTool::logit_lens: draw_lens(ctx, cache); break;
        case AnalysisTool::head_summary: draw_heads(ctx, cache); break;
        case AnalysisTool::embeddings: draw_embedding_tool(ctx); break;
        case AnalysisTool::circuits: draw_circuit_tool(ctx); break;
        case AnalysisTool::compare: draw_compare_tool(ctx); break;
        case AnalysisTool::head_detectors: draw_head_detectors(ctx); break;
    }
}

}  // namespace attnlab::gui
