#include "panels/why_output.h"

#include "attribution_tool.h"
#include "panels/attention_parts.h"
#include "panels/tour_target.h"
#include "widgets/diverging_ramp.h"
#include "widgets/radio_row.h"

#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace attnlab::gui {

namespace {

// Kept between frames (PanelCaches): the tool, and the token fields' text with the ids they last showed.
struct WhyCache {
    AttributionTool tool;
    std::string a_text, b_text;
    int a_shown = -2, b_shown = -2;
    std::string field_error;  // a typed token that is not in the vocabulary
};

// A token as a label: the space token quoted, so it shows.
std::string token_label(const PanelContext& ctx, int id) {
    const std::string t = token_or_id(output_vocab(ctx), id);
    return t == " " ? "' '" : t;
}

// A grid row's label: "L3", or in an encoder-decoder's decoder "L3 self" and "L3 cross".
std::string row_label(const PanelContext& ctx, const AttentionSite& site) {
    char buf[96];
    if (site.use == AttentionUse::cross)
        std::snprintf(buf, sizeof buf, ctx.t("L%d cross"), site.layer);
    else if (ctx.config().arch == Arch::encoder_decoder)
        std::snprintf(buf, sizeof buf, ctx.t("L%d self"), site.layer);
    else
        std::snprintf(buf, sizeof buf, "L%d", site.layer);
    return buf;
}

// "+1.234" or "-0.012": a share, signed; one that rounds to 0 is "0.000", without a sign.
std::string signed_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, std::fabs(v) < 0.0005 ? "%.3f" : "%+.3f", std::fabs(v) < 0.0005 ? 0.0 : v);
    return buf;
}

// A token field: shows the token the metric uses; a token typed by name (or id), Enter or leaving the field, picks
// it (*choice); a name not in the vocabulary leaves the choice and says so.
void token_field(PanelContext& ctx, WhyCache& c, const char* id, std::string& text, int& shown, int resolved,
                 int* choice) {
    if (resolved != shown) {
        text = token_label(ctx, resolved);
        shown = resolved;
    }
    ImGui::SetNextItemWidth(7.0f * ctx.em);
    ImGui::InputText(id, &text);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("Type a token of the vocabulary (or its id); Enter picks it."));
    if (!ImGui::IsItemDeactivatedAfterEdit()) return;
    const std::optional<Vocab>& vocab = output_vocab(ctx);
    std::optional<int> found = vocab ? vocab->find(text == "' '" ? " " : text) : std::nullopt;
    char* end = nullptr;
    const long number = std::strtol(text.c_str(), &end, 10);
    if (!found && !text.empty() && end && *end == '\0' && number >= 0) found = static_cast<int>(number);
    if (found) {
        *choice = *found;
        c.field_error.clear();
    } else {
        c.field_error = text;
        shown = -2;  // show the metric's token again
    }
}

// The metric: one logit or the difference of two, its tokens and position, and a button back to the defaults.
void metric_picker(PanelContext& ctx, WhyCache& c, const Tensor& logits) {
    WhyOutputState& w = ctx.view.output.why;
    const int picked = radio_row({ctx.t("Logit of A"), ctx.t("Logit A − logit B")}, w.diff ? 1 : 0);
    if (picked >= 0) w.diff = picked == 1;
    const AttributionMetric* m = c.tool.ready() ? &c.tool.metric() : nullptr;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("A");
    ImGui::SameLine();
    token_field(ctx, c, "##why_a", c.a_text, c.a_shown, m ? m->token : -1, &w.token);
    if (w.diff) {
        ImGui::SameLine(0.0f, ctx.em);
        ImGui::TextUnformatted("B");
        ImGui::SameLine();
        token_field(ctx, c, "##why_b", c.b_text, c.b_shown, m ? m->other : -1, &w.other);
    }
    const int last = static_cast<int>(logits.dim(0)) - 1;
    int position = m ? static_cast<int>(m->position) : last;
    const float slider_w = 7.0f * ctx.em;
    same_line_if_fits(value_slider_width(ctx.t("Position"), "000", slider_w), ctx.em);
    if (value_slider_int(ctx.t("Position"), "##why_position", &position, 0, std::max(last, 0), "%d", slider_w))
        w.position = position;
    same_line_if_fits(button_width_for(ctx.t("Top prediction")), ctx.em);
    if (ImGui::Button(ctx.t("Top prediction"))) w.token = w.other = w.position = -1;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("A: the most probable token at the last position; B: the runner-up."));
    if (!c.field_error.empty())
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), ctx.t("\"%s\" is not in the vocabulary"),
                           c.field_error.c_str());
}

// The metric as read off the logits, and the check: the shares add up to it.
void metric_lines(const PanelContext& ctx, const AttributionTool& tool) {
    const AttributionMetric& m = tool.metric();
    const LogitAttribution& a = tool.attribution();
    const SequenceView seq = ctx.config().has_decoder() ? ctx.session.target() : ctx.session.source();
    const size_t q = static_cast<size_t>(m.position);
    std::string metric = std::string(ctx.t("logit")) + "(\"" + token_label(ctx, m.token) + "\")";
    if (m.kind == AttributionMetricKind::logit_diff)
        metric += std::string(" − ") + ctx.t("logit") + "(\"" + token_label(ctx, m.other) + "\")";
    ImGui::Text(ctx.t("Position %d (\"%s\"): %s = %.3f"), static_cast<int>(q),
                q < seq.labels.size() ? seq.labels[q].c_str() : "", metric.c_str(), a.metric_value);
    const bool ok = std::fabs(a.total - a.metric_value) <= 1e-3 * std::max(1.0, std::fabs(a.metric_value));
    ImGui::TextColored(ok ? ImVec4(0.35f, 0.78f, 0.47f, 1.0f) : ImVec4(0.95f, 0.72f, 0.35f, 1.0f),
                       ctx.t("Check: the shares sum to %.4f; the metric is %.4f"), a.total, a.metric_value);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("Each share is a component's output read through the norms, frozen at this "
                                      "run's scale, and the unembedding: they add up to the metric exactly."));
}

// The attention × head heatmap: each head's share, coloured on [−max, max]; a click selects the head.
void head_heatmap(PanelContext& ctx, const AttributionTool& tool, float width) {
    const HeadGrid& g = tool.grid();
    WhyOutputState& w = ctx.view.output.why;
    const float em = ctx.em, line = ImGui::GetTextLineHeight();
    if (g.rows.empty() || g.heads == 0) return;
    std::vector<std::string> labels;
    float label_w = 0.0f;
    for (const AttentionSite& site : g.rows) {
        labels.push_back(row_label(ctx, site));
        label_w = std::max(label_w, ImGui::CalcTextSize(labels.back().c_str()).x);
    }
    label_w += 0.5f * em;
    const float cell_w = std::clamp((width - label_w) / static_cast<float>(g.heads), 1.2f * em, 3.6f * em);
    const float cell_h = std::clamp(cell_w * 0.6f, line + 2.0f, 1.7f * em);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 cells(origin.x + label_w, origin.y + line + 0.2f * em);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const int label_every = ImGui::CalcTextSize("h00").x + 0.3f * em > cell_w ? 2 : 1;
    for (int h = 0; h < g.heads; h += label_every) {
        const std::string head = "h" + std::to_string(h);
        const float tw = ImGui::CalcTextSize(head.c_str()).x;
        draw->AddText(ImVec2(cells.x + (static_cast<float>(h) + 0.5f) * cell_w - 0.5f * tw, origin.y), dim,
                      head.c_str());
    }
    const float range = static_cast<float>(std::max(g.max_abs, 1e-9));
    const bool numbers = ImGui::CalcTextSize("-0.00").x + 0.3f * em <= cell_w;
    for (size_t r = 0; r < g.rows.size(); ++r) {
        const float y = cells.y + static_cast<float>(r) * cell_h;
        const float tw = ImGui::CalcTextSize(labels[r].c_str()).x;
        draw->AddText(ImVec2(cells.x - 0.4f * em - tw, y + 0.5f * (cell_h - line)), text, labels[r].c_str());
        for (int h = 0; h < g.heads; ++h) {
            const float v = static_cast<float>(g.at(r, h));
            const ImVec4 bg = diverging_ramp(v / range);
            const ImVec2 a(cells.x + static_cast<float>(h) * cell_w, y);
            draw->AddRectFilled(a, ImVec2(a.x + cell_w - 1.0f, a.y + cell_h - 1.0f),
                                ImGui::ColorConvertFloat4ToU32(bg));
            if (!numbers) continue;
            char buf[16];
            const double shown = std::fabs(v) < 0.005f ? 0.0 : static_cast<double>(v);  // no "-0.00"
            std::snprintf(buf, sizeof buf, std::fabs(v) >= 9.995f ? "%.1f" : "%.2f", shown);
            const ImVec2 ts = ImGui::CalcTextSize(buf);
            draw->AddText(ImVec2(a.x + 0.5f * (cell_w - ts.x), a.y + 0.5f * (cell_h - ts.y)), text_on_ramp(bg), buf);
        }
    }
    if (w.row >= 0 && w.head >= 0) {  // the selected head, outlined
        const ImVec2 a(cells.x + static_cast<float>(w.head) * cell_w, cells.y + static_cast<float>(w.row) * cell_h);
        const ImVec2 b(a.x + cell_w, a.y + cell_h);  // dark, then light inside: it shows on any colour
        draw->AddRect(ImVec2(a.x - 2.0f, a.y - 2.0f), ImVec2(b.x + 1.0f, b.y + 1.0f), IM_COL32(0, 0, 0, 255), 0.0f, 0,
                      3.0f);
        draw->AddRect(ImVec2(a.x, a.y), ImVec2(b.x - 1.0f, b.y - 1.0f), IM_COL32(255, 210, 60, 255), 0.0f, 0, 2.0f);
    }
    ImGui::SetCursorScreenPos(cells);
    ImGui::InvisibleButton("##why_heads",
                           ImVec2(cell_w * static_cast<float>(g.heads), cell_h * static_cast<float>(g.rows.size())));
    if (ImGui::IsItemHovered()) {
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        const int h = std::clamp(static_cast<int>((mouse.x - cells.x) / cell_w), 0, g.heads - 1);
        const int r =
            std::clamp(static_cast<int>((mouse.y - cells.y) / cell_h), 0, static_cast<int>(g.rows.size()) - 1);
        const AttentionSite& site = g.rows[static_cast<size_t>(r)];
        ImGui::BeginTooltip();
        ImGui::Text(ctx.t("Layer %d, head %d"), site.layer, h);
        ImGui::TextDisabled("%s", ctx.t(site.use == AttentionUse::cross ? "Cross-attention" : "Self-attention"));
        ImGui::Text(ctx.t("Share: %s"), signed_text(g.at(static_cast<size_t>(r), h)).c_str());
        ImGui::TextDisabled("%s", ctx.t("Click: its share through each source token, and the tokens it pushes."));
        ImGui::EndTooltip();
        if (ImGui::IsItemClicked()) {
            w.row = r;
            w.head = h;
            w.ffn_layer = -1;
        }
    }
}

// The colour scale under the heatmap: −max … 0 … +max, and what the colours mean.
void heatmap_legend(const PanelContext& ctx, double max_abs, float width) {
    const float em = ctx.em, bar_w = std::min(width, 16.0f * em), bar_h = 0.7f * em;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    constexpr int kSteps = 32;
    for (int i = 0; i < kSteps; ++i) {
        const float t0 = static_cast<float>(i) / kSteps, t1 = static_cast<float>(i + 1) / kSteps;
        draw->AddRectFilled(ImVec2(o.x + t0 * bar_w, o.y), ImVec2(o.x + t1 * bar_w, o.y + bar_h),
                            ImGui::ColorConvertFloat4ToU32(diverging_ramp((t0 + t1) - 1.0f)));
    }
    ImGui::Dummy(ImVec2(bar_w, bar_h));
    const std::string lo = signed_text(-max_abs), hi = signed_text(max_abs);
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    draw->AddText(p, dim, lo.c_str());
    draw->AddText(ImVec2(p.x + 0.5f * bar_w - 0.5f * ImGui::CalcTextSize("0").x, p.y), dim, "0");
    draw->AddText(ImVec2(p.x + bar_w - ImGui::CalcTextSize(hi.c_str()).x, p.y), dim, hi.c_str());
    ImGui::Dummy(ImVec2(bar_w, ImGui::GetTextLineHeight()));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    ImGui::TextDisabled("%s", ctx.t("Red raises the metric, blue lowers it."));
    ImGui::PopTextWrapPos();
}

struct SignedBar {
    std::string label;
    double value = 0.0;
    bool selected = false;
};

// Bars from a centre line, right for a positive share and left for a negative one, a half-width bar being
// `scale` (0: the largest |share| of these bars); a label before each and its value after. Returns the row
// clicked, or −1.
int signed_bars(const PanelContext& ctx, const char* id, const std::vector<SignedBar>& bars, float width,
                double scale = 0.0) {
    const float em = ctx.em, line = ImGui::GetTextLineHeightWithSpacing();
    if (bars.empty()) return -1;
    scale = std::max(scale, 1e-12);
    float label_w = 2.0f * em;
    for (const SignedBar& b : bars) {
        scale = std::max(scale, std::fabs(b.value));  // never past the bar's end
        label_w = std::max(label_w, ImGui::CalcTextSize(b.label.c_str()).x);
    }
    label_w = std::min(label_w, 8.0f * em) + 0.5f * em;
    const float value_w = ImGui::CalcTextSize("+00.000").x + 0.5f * em;
    const float bar_w = std::max(4.0f * em, width - label_w - value_w);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), frame = ImGui::GetColorU32(ImGuiCol_FrameBg);
    const float centre = o.x + label_w + 0.5f * bar_w;
    for (size_t i = 0; i < bars.size(); ++i) {
        const SignedBar& b = bars[i];
        const float y = o.y + static_cast<float>(i) * line;
        const ImVec2 ls = ImGui::CalcTextSize(b.label.c_str());
        draw->PushClipRect(ImVec2(o.x, y), ImVec2(o.x + label_w - 0.4f * em, y + line), true);
        draw->AddText(ImVec2(o.x + std::max(0.0f, label_w - 0.5f * em - ls.x), y), text, b.label.c_str());
        draw->PopClipRect();
        const float top = y + line * 0.12f, bottom = y + line * 0.82f;
        draw->AddRectFilled(ImVec2(o.x + label_w, top), ImVec2(o.x + label_w + bar_w, bottom), frame);
        const float end = centre + static_cast<float>(b.value / scale) * 0.5f * bar_w;
        draw->AddRectFilled(ImVec2(std::min(centre, end), top), ImVec2(std::max(centre, end), bottom),
                            ImGui::ColorConvertFloat4ToU32(diverging_ramp(b.value >= 0.0 ? 0.8f : -0.8f)));
        if (b.selected)
            draw->AddRect(ImVec2(o.x + label_w - 1.0f, top - 1.0f), ImVec2(o.x + label_w + bar_w + 1.0f, bottom + 1.0f),
                          text, 0.0f, 0, 2.0f);
        draw->AddText(ImVec2(o.x + label_w + bar_w + 0.4f * em, y), text, signed_text(b.value).c_str());
    }
    draw->AddLine(ImVec2(centre, o.y), ImVec2(centre, o.y + static_cast<float>(bars.size()) * line),
                  ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::InvisibleButton(id, ImVec2(label_w + bar_w + value_w, static_cast<float>(bars.size()) * line));
    if (!ImGui::IsItemHovered()) return -1;
    const int row =
        std::clamp(static_cast<int>((ImGui::GetIO().MousePos.y - o.y) / line), 0, static_cast<int>(bars.size()) - 1);
    const SignedBar& b = bars[static_cast<size_t>(row)];
    ImGui::SetTooltip("%s: %s", b.label.c_str(), signed_text(b.value).c_str());
    return ImGui::IsItemClicked() ? row : -1;
}

// The embeddings, then per layer its heads (summed) and its FFN, then the biases: a click on an FFN selects it.
void layer_bars(PanelContext& ctx, const AttributionTool& tool, float width) {
    const LayerShares& l = tool.layers();
    const HeadGrid& g = tool.grid();
    WhyOutputState& w = ctx.view.output.why;
    std::vector<SignedBar> bars{{ctx.t("embeddings"), l.embeddings, false}};
    std::vector<int> ffn_of_bar{-1};
    double biases = l.end_bias;
    char buf[96];
    for (size_t layer = 0; layer < l.ffn.size(); ++layer) {
        double heads = 0.0;
        for (size_t r = 0; r < g.rows.size(); ++r)
            for (int h = 0; g.rows[r].layer == static_cast<int>(layer) && h < g.heads; ++h) heads += g.at(r, h);
        std::snprintf(buf, sizeof buf, ctx.t("L%d heads"), static_cast<int>(layer));
        bars.push_back({buf, heads, false});
        ffn_of_bar.push_back(-1);
        std::snprintf(buf, sizeof buf, ctx.t("L%d FFN"), static_cast<int>(layer));
        bars.push_back({buf, l.ffn[layer], w.row < 0 && w.ffn_layer == static_cast<int>(layer)});
        ffn_of_bar.push_back(static_cast<int>(layer));
        biases += l.attention_bias[layer] + l.norm_bias[layer];
    }
    bars.push_back({ctx.t("biases"), biases, false});
    ffn_of_bar.push_back(-1);
    const int clicked = signed_bars(ctx, "##why_layers", bars, width);
    if (clicked >= 0 && ffn_of_bar[static_cast<size_t>(clicked)] >= 0) {
        w.ffn_layer = ffn_of_bar[static_cast<size_t>(clicked)];
        w.row = w.head = -1;
    }
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::TextDisabled("%s", ctx.t("Click an FFN: the tokens it pushes up and down."));
        ImGui::EndTooltip();
    }
}

// The tokens the selected component pushes up and down, side by side.
void pushed_tokens(PanelContext& ctx, WhyCache& c, const ComponentRef& ref) {
    const Result<ComponentTokens>& tokens = c.tool.tokens(ctx.stepper(), ref);
    ImGui::TextUnformatted(ctx.t("What it pushes up and down"));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("Its output at this position through the final norm (frozen at this run's "
                                      "scale) and the unembedding: the largest and smallest direct logits."));
    if (!tokens) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("%s", tokens.error().message.c_str());
        ImGui::PopTextWrapPos();
        return;
    }
    if (!ImGui::BeginTable("##why_pushes", 2, ImGuiTableFlags_SizingStretchSame)) return;
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextColored(ImVec4(0.94f, 0.52f, 0.40f, 1.0f), "%s", ctx.t("Up"));
    ImGui::TableSetColumnIndex(1);
    ImGui::TextColored(ImVec4(0.40f, 0.66f, 0.86f, 1.0f), "%s", ctx.t("Down"));
    for (size_t i = 0; i < std::max(tokens->up.size(), tokens->down.size()); ++i) {
        ImGui::TableNextRow();
        for (int col = 0; col < 2; ++col) {
            const std::vector<TokenScore>& list = col == 0 ? tokens->up : tokens->down;
            if (i >= list.size()) continue;
            ImGui::TableSetColumnIndex(col);
            ImGui::Text("%s", token_label(ctx, list[i].id).c_str());
            ImGui::SameLine();
            ImGui::TextDisabled("%s", signed_text(list[i].value).c_str());
        }
    }
    ImGui::EndTable();
}

// The source tokens of an attention: the target's for a decoder's self-attention, the source's otherwise.
std::vector<std::string> source_labels(const PanelContext& ctx, const AttentionSite& site) {
    const bool target = site.use == AttentionUse::decoder_self;
    return (target ? ctx.session.target() : ctx.session.source()).labels;
}

// The selected head's share per source token, or the selected FFN's name; then what it pushes.
void selection(PanelContext& ctx, WhyCache& c, float width) {
    WhyOutputState& w = ctx.view.output.why;
    const HeadGrid& g = c.tool.grid();
    if ((w.row < 0 || w.head < 0) && w.ffn_layer < 0) return;  // a model without layers
    ComponentRef ref;
    if (w.row >= 0 && w.head >= 0) {
        const AttentionSite& site = g.rows[static_cast<size_t>(w.row)];
        ImGui::Text(ctx.t("Layer %d, head %d"), site.layer, w.head);
        ImGui::SameLine();
        ImGui::TextDisabled("%s  %s", ctx.t(site.use == AttentionUse::cross ? "Cross-attention" : "Self-attention"),
                            signed_text(g.at(static_cast<size_t>(w.row), w.head)).c_str());
        // Switching the head off re-runs the pass without it: its share drops to 0 and the others move.
        if (ImGui::SmallButton(ctx.t(head_is_off(ctx, site, w.head) ? "Switch this head on" : "Switch this head off")))
            ctx.session.toggle_head(site, w.head);
        mark_tour_target(ctx, TourTaskKind::ablate_strongest_head);
        ImGui::TextDisabled("%s", ctx.t("Its share through each source token (on the heatmap's scale):"));
        const std::vector<double> split = c.tool.per_source(site, w.head);
        const std::vector<std::string> labels = source_labels(ctx, site);
        std::vector<SignedBar> bars;
        for (size_t j = 0; j < split.size(); ++j)
            bars.push_back({std::to_string(j) + " " + (j < labels.size() ? labels[j] : ""), split[j], false});
        signed_bars(ctx, "##why_sources", bars, width, g.max_abs);  // on the heatmap's scale: heads compare
        ref.site = site;
        ref.head = w.head;
    } else {
        ImGui::Text(ctx.t("The FFN of layer %d"), w.ffn_layer);
        ImGui::SameLine();
        ImGui::TextDisabled("%s", signed_text(c.tool.layers().ffn[static_cast<size_t>(w.ffn_layer)]).c_str());
        ref.ffn = true;
        ref.stack = g.rows.empty() ? Stack::decoder : stack_of(g.rows.front().use);
        ref.layer = w.ffn_layer;
    }
    ImGui::Spacing();
    pushed_tokens(ctx, c, ref);
}

// A selection that no longer fits the grid (another model) goes; with none, the strongest head is selected.
void keep_selection_valid(WhyOutputState& w, const AttributionTool& tool) {
    const HeadGrid& g = tool.grid();
    if (w.row >= static_cast<int>(g.rows.size()) || w.head >= g.heads) w.row = w.head = -1;
    if (w.ffn_layer >= static_cast<int>(tool.layers().ffn.size())) w.ffn_layer = -1;
    if ((w.row < 0 || w.head < 0) && w.ffn_layer < 0) {
        const auto strongest = tool.strongest_head();
        w.row = strongest ? static_cast<int>(strongest->first) : -1;
        w.head = strongest ? strongest->second : -1;
    }
}

}  // namespace

void draw_why_output(PanelContext& ctx) {
    WhyCache& c = ctx.caches.get<WhyCache>();
    WhyOutputState& w = ctx.view.output.why;
    const TraceEntry* logits = ctx.stepper().entry(StepId::head(StepKind::logits, ctx.config()));  // (N, V)
    if (!logits) {
        text_not_run_yet(ctx);
        return;
    }
    AttributionChoice choice;
    choice.kind = w.diff ? AttributionMetricKind::logit_diff : AttributionMetricKind::logit;
    choice.token = w.token;
    choice.other = w.other;
    choice.position = w.position;
    c.tool.update(ctx.stepper(), choice);
    metric_picker(ctx, c, logits->value);
    if (!c.tool.ready()) {
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), "%s", c.tool.error().c_str());
        return;
    }
    metric_lines(ctx, c.tool);
    keep_selection_valid(w, c.tool);
    ImGui::Separator();
    const float avail = ImGui::GetContentRegionAvail().x;
    const bool two_columns = avail >= 44.0f * ctx.em;
    if (!ImGui::BeginTable("##why_columns", two_columns ? 2 : 1, ImGuiTableFlags_SizingStretchSame)) return;
    ImGui::TableNextColumn();
    const float col_w = ImGui::GetContentRegionAvail().x;
    ImGui::TextUnformatted(ctx.t("Each head's share, summed over its source tokens"));
    head_heatmap(ctx, c.tool, col_w);
    heatmap_legend(ctx, c.tool.grid().max_abs, col_w);
    ImGui::Spacing();
    if (two_columns) {  // the layers under the heatmap, the selection beside them
        ImGui::TextUnformatted(ctx.t("The embeddings, each layer's heads and FFN, the biases"));
        layer_bars(ctx, c.tool, col_w);
        ImGui::TableNextColumn();
        selection(ctx, c, ImGui::GetContentRegionAvail().x);
    } else {
        selection(ctx, c, col_w);
        ImGui::Spacing();
        ImGui::TextUnformatted(ctx.t("The embeddings, each layer's heads and FFN, the biases"));
        layer_bars(ctx, c.tool, col_w);
    }
    ImGui::EndTable();
}

}  // namespace attnlab::gui
