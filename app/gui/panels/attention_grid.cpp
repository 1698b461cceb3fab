// The attention view's layer × head grid: every head's softmax weights (H, Tq, Tk) as thumbnails of one atlas
// texture, the query tokens left of each layer's first thumbnail, the key tokens under each head's last one,
// one colour bar for them all (0..1), and the hovered head enlarged in a tooltip with its tokens and numbers. In
// the backward half, every head's ∂L/∂weights instead, on one diverging scale for the whole grid.
#include "panels/attention_parts.h"
#include "panels/step_explanation.h"
#include "panels/token_matrix.h"
#include "panels/tour_target.h"
#include "widgets/label_draw.h"
#include "widgets/tooltip_beside.h"
#include "widgets/value_units.h"

#include "forward/mechanisms/layer_variants.h"
#include "forward/step_path.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnlab::gui {

namespace {

// The layer of the attention step the stepper ran last, if it is one of this family's; else -1.
int current_layer(const PanelContext& ctx, AttentionUse use) {
    const size_t cursor = ctx.stepper().cursor();
    if (cursor == 0 || cursor == ctx.stepper().size()) return -1;
    const StepId& id = ctx.stepper().step(cursor - 1).record.id;
    return id.kind == StepKind::attention && id.use == use ? id.layer : -1;
}

// A layer's kind beside its name, for a model whose layers differ (layer_variants.h): "local (W 3)" or "global",
// and "RoPE" or "NoPE" in a model with NoPE layers ("global, NoPE"); empty when every layer is alike.
std::string layer_tag(const PanelContext& ctx, const AttentionSite& site) {
    const LayerKind kind = layer_kind(ctx.config(), site);
    if (!kind.mixed) return "";
    std::string tag;
    if (has_local_and_global_layers(ctx.config())) {
        char local[48];
        std::snprintf(local, sizeof local, ctx.t("local (W %d)"), kind.window);
        tag = kind.window > 0 ? local : ctx.t("global");
    }
    if (has_nope_layers(ctx.config())) {  // beside NoPE layers, the others say that they rotate
        const char* rope = kind.nope ? ctx.t("NoPE") : "RoPE";
        tag += tag.empty() ? rope : std::string(", ") + rope;
    }
    return tag;
}

ImU32 layer_tag_colour(const PanelContext& ctx, const AttentionSite& site) {
    const LayerKind kind = layer_kind(ctx.config(), site);
    if (kind.nope) return IM_COL32(240, 150, 60, 255);          // orange: no rotation
    if (kind.window > 0) return IM_COL32(90, 190, 200, 255);    // teal: a window of keys
    return ImGui::GetColorU32(ImGuiCol_TextDisabled);            // global
}

// What the layer's kind means, for the enlarged head's tooltip; empty when every layer is alike.
std::string layer_kind_line(const PanelContext& ctx, const AttentionSite& site) {
    const LayerKind kind = layer_kind(ctx.config(), site);
    if (!kind.mixed) return "";
    std::string line;
    char text[256];
    if (kind.window > 0) {
        std::snprintf(text, sizeof text, ctx.t("Local layer: each query sees itself and the %d keys before it."),
                      kind.window - 1);
        line = text;
    } else if (has_local_and_global_layers(ctx.config())) {
        line = ctx.t("Global layer: each query sees every key up to itself.");
    }
    if (kind.nope) line += (line.empty() ? "" : " ") + std::string(ctx.t("NoPE layer: Q and K are not rotated by position."));
    return line;
}

// The largest |∂L/∂weights| of any head of any layer (the grid's one diverging scale); 0 outside the backward half.
float gradient_scale(const PanelContext& ctx, AttentionUse use, int n_layers) {
    if (!ctx.session.in_backward()) return 0.0f;
    float largest = 0.0f;
    for (int l = 0; l < n_layers; ++l)
        if (const ShownEntry shown = shown_entry(ctx, weights_of({use, l})); shown.gradient && shown.entry)
            for (float v : shown.entry->value.data) largest = std::max(largest, std::abs(v));
    return largest;
}

// Every layer × head's softmax weights (or, in the backward half, their gradients on ±scale) as tiles of one
// texture, row l · H + h, each drawn at the thumbnail's size in pixels; a layer not run yet leaves its tiles empty.
HeatmapAtlas grid_atlas(PanelContext& ctx, AttentionUse use, int n_layers, float thumb, float scale) {
    const int H = ctx.config().n_heads;
    const bool gradient = ctx.session.in_backward();
    std::vector<HeatmapSource> tiles(static_cast<size_t>(n_layers) * H);
    for (int l = 0; l < n_layers; ++l) {
        const StepId id = weights_of({use, l});
        const TraceEntry* e = shown_facts(ctx, id).entry;  // the shape and version, without recomputing
        const TraceEntry* mask = gradient ? nullptr : ctx.stepper().entry(mask_of_site(ctx.config(), {use, l}));
        if (!e) continue;
        // A checkpoint trace (trace_keep.h) recomputes the weights to read them: only for a tile drawn again.
        const auto step = ctx.stepper().find(id);
        const bool recomputed = !gradient && step && ctx.stepper().step(*step).retention == Retention::on_demand;
        for (int h = 0; h < H; ++h) {
            HeatmapSource& s = tiles[static_cast<size_t>(l) * H + h];
            if (recomputed)  // a layer's heads are drawn one after the other: hold one layer at a time
                s.fetch = [&ctx, id, h] {
                    if (h == 0) ctx.stepper().release_views();
                    return ctx.stepper().output(id)->slice(h).data();
                };
            else
                s.values = e->value.slice(h).data();
            s.rows = static_cast<int>(e->value.dim(1));
            s.cols = static_cast<int>(e->value.dim(2));
            s.version = e->version;
            if (mask) s.mask = mask->value.data.data(), s.mask_version = mask->version;
            if (gradient)
                s.colormap = Colormap::diverging, s.lo = -scale, s.hi = scale;
            else
                s.lo = 0.0f, s.hi = 1.0f;
        }
    }
    const int px = std::max(1, static_cast<int>(thumb));
    return ctx.heatmaps.atlas(std::string(gradient ? "grid-gradient/" : "grid/") + to_string(use), tiles, H, px, px);
}

// In a classroom the enlarged head stays inside the view (the tour card is beside it, never under the tooltip):
// beside the pointer on the side with more room, its top as far down the view as the pointer is (so a tooltip no
// taller than the view ends inside it), and no larger than that room. Returns the room, or 0 at a desk, where
// ImGui places the tooltip at the pointer.
float place_in_view(const PanelContext& ctx) {
    return ctx.view.settings.classroom ? place_next_tooltip_in_window(ctx.em) : 0.0f;
}

// The hovered thumbnail, enlarged: its weights with their tokens and numbers, the cell under the pointer
// outlined and its value, then the step's explanation for that cell (at a desk; a classroom has the card).
void enlarged_head_tooltip(PanelContext& ctx, const AttentionSite& site, int head, const AttentionTokens& tokens,
                           ImVec2 thumb_min, float thumb, float scale) {
    const ShownEntry shown = shown_entry(ctx, weights_of(site));
    const TraceEntry* e = shown.entry;
    const float room = place_in_view(ctx);
    ImGui::BeginTooltip();
    if (room > 0.0f) ImGui::PushTextWrapPos(room - 2.0f * ImGui::GetStyle().WindowPadding.x);  // its lines in the room
    ImGui::Text("%s %d, %s %d", ctx.t("Layer"), site.layer, ctx.t("Head"), head);
    if (const std::string kind = layer_kind_line(ctx, site); !kind.empty()) ImGui::TextDisabled("%s", kind.c_str());
    if (head_is_off(ctx, site, head)) ImGui::TextColored(ImVec4(1, .45f, .4f, 1), "%s", ctx.t("Switched off"));
    ImGui::TextDisabled("%s", ctx.t("Click to open; right-click to switch the head off or on."));
    if (!e) {
        if (shown.gradient)
            text_gradient_not_yet(ctx);
        else
            text_not_run_yet(ctx);
        if (room > 0.0f) ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
        return;
    }
    const int rows = static_cast<int>(e->value.dim(1)), cols = static_cast<int>(e->value.dim(2));
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int row = std::clamp(static_cast<int>((m.y - thumb_min.y) / thumb * rows), 0, rows - 1);
    const int col = std::clamp(static_cast<int>((m.x - thumb_min.x) / thumb * cols), 0, cols - 1);
    const TraceEntry* mask = shown.gradient ? nullptr : ctx.stepper().entry(mask_of_site(ctx.config(), site));
    const std::string key = "grid-hover/" + attention_name(site) + "/" + std::to_string(head);
    HeatmapSource src{key, e->value.slice(head).data(), rows, cols, e->version};
    if (mask) src.mask = mask->value.data.data(), src.mask_version = mask->version;
    if (shown.gradient) src.colormap = Colormap::diverging, src.lo = -scale, src.hi = scale;
    TokenMatrix big;
    big.rows = rows, big.cols = cols;
    // About 22 em a side: cells of 0.6-3 em for a sentence; a paragraph's (1,024 tokens) smaller than a pixel,
    // max-pooled. In a classroom, at most half the room beside the pointer (its labels and lines take the rest).
    const float side = room > 0.0f ? std::min(22.0f * ctx.em, 0.5f * room) : 22.0f * ctx.em;
    const float fit = side / static_cast<float>(std::max(rows, cols));
    big.cell = fit >= 0.6f * ctx.em ? std::floor(std::min(fit, 3.0f * ctx.em)) : fit >= 1.0f ? std::floor(fit) : fit;
    big.texture = ctx.heatmaps.texture(src, static_cast<int>(std::ceil(cols * big.cell)),
                                       static_cast<int>(std::ceil(rows * big.cell)));  // texel for pixel
    big.row_labels = &tokens.queries;
    big.col_labels = &tokens.keys;
    big.values = e->value.slice(head).data();
    big.mark_row = row, big.mark_col = col;
    if (shown.gradient) {  // the head's gradients in the detail view's units: -3.648e-05 as "-3.65" (×10^-5)
        big.exponent = print_exponent(largest_magnitude(big.values, static_cast<size_t>(rows) * cols));
        ImGui::TextDisabled(
            "%s",
            caption_with_unit(gradient_caption(to_string(AttentionStage::weights)), big.exponent).c_str());
    }
    draw_token_matrix(big);
    const auto name = [](const std::vector<std::string>& v, int i) {
        return i < static_cast<int>(v.size()) ? v[i].c_str() : "?";
    };
    if (shown.gradient) {
        ImGui::Text("%s → %s:  %s = %.4g", name(tokens.queries, row), name(tokens.keys, col),
                    gradient_caption(to_string(AttentionStage::weights)).c_str(),
                    static_cast<double>(e->value.slice(head)(row, col)));
        if (room == 0.0f) gradient_source_section(ctx, weights_of(site), 30.0f);
    } else {
        ImGui::Text("%s → %s:  %.3f", name(tokens.queries, row), name(tokens.keys, col),
                    static_cast<double>(e->value.slice(head)(row, col)));
        if (room == 0.0f) step_explanation_section(ctx, weights_of(site), {head, row, col});
    }
    if (room > 0.0f) ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

// The query tokens left of a layer's thumbnails (rows `pitch` apart) and the key tokens under a head's last
// thumbnail (`thumb` tall, columns `pitch` apart), each cut to label_max: widgets/label_layout.h places them.
AxisLabelRequest query_labels_request(float pitch, float label_max) {
    const float em = ImGui::GetFontSize();
    return {LabelAxis::rows, pitch, label_max + 0.4f * em, 0.0f, 0.05f * em, -1, 0.4f * em};
}

AxisLabelRequest key_labels_request(float pitch, float thumb, float label_max) {
    const float em = ImGui::GetFontSize();
    AxisLabelRequest r{LabelAxis::columns, pitch, label_max + 0.25f * em, 0.0f, 0.3f * em, -1, 0.25f * em};
    r.side = LabelSide::below;
    r.cells_height = thumb;
    r.word_gap = 0.5f * em;
    return r;
}

}  // namespace

void draw_attention_grid(PanelContext& ctx, AttentionUse use, int n_layers) {
    const int H = ctx.config().n_heads;
    const AttentionTokens tokens = attention_tokens(ctx, {use, 0});
    const float pad = 0.4f * ctx.em, gap = std::floor(0.5f * ctx.em), label_max = 5.0f * ctx.em;
    const float line_h = ImGui::GetTextLineHeight();
    // Left of the thumbnails: the layer's name, then the query tokens against the first thumbnail.
    char widest_layer[48];
    std::snprintf(widest_layer, sizeof widest_layer, "%s %d ▶", ctx.t("Layer"), n_layers - 1);
    // A model whose layers differ tags each layer's name with its kind (layer_tag).
    float tag_w = 0.0f;
    for (int l = 0; l < n_layers; ++l)
        if (const std::string tag = layer_tag(ctx, {use, l}); !tag.empty())
            tag_w = std::max(tag_w, ImGui::CalcTextSize(tag.c_str()).x + 0.4f * ctx.em);
    const float layer_w = ImGui::CalcTextSize(widest_layer).x + tag_w + pad;
    const TextMeasure measure = imgui_text_measure();
    // Their width (pad included) does not depend on the rows' pitch: only how many show does.
    const float left_w =
        layer_w + layout_axis_labels(tokens.queries, measure, query_labels_request(line_h, label_max)).depth;
    const int n_queries = std::max<int>(1, static_cast<int>(tokens.queries.size()));
    const int n_keys = std::max<int>(1, static_cast<int>(tokens.keys.size()));
    // Every layer × head visible at once: fit the width, and the height less the head names, the key tokens
    // under the last row and the colour bar; GPT-2 small's 12 × 12 heads too, down to thumbnails of 1.25 em
    // (max-pooled, so a sharp cell still shows). Whole pixels, placed on whole pixels: each tile of the atlas is
    // drawn texel for pixel.
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // The colour bar goes right of the grid or under the key tokens, wherever the thumbnails come out larger.
    // Right of the grid the bar is short and its caption goes under it; under the grid, beside it.
    const char* caption = ctx.t("attention weight");
    const float bar_w = 10.0f * ctx.em, short_bar_w = 7.0f * ctx.em;
    const float bar_room = std::max(short_bar_w, ImGui::CalcTextSize(caption).x) + 2.0f * ctx.em;
    const auto fit = [&](bool bar_right) {
        const auto size = [&](float key_depth) {
            const float w = (avail.x - left_w - (bar_right ? bar_room : 0.0f)) / static_cast<float>(H) - gap;
            const float h = (avail.y - line_h - key_depth - pad - (bar_right ? 0.0f : 2.6f * line_h)) /
                                static_cast<float>(n_layers) -
                            gap;
            return std::floor(std::clamp(std::min(w, h), 1.25f * ctx.em, 16.0f * ctx.em));
        };
        const float upright = size(line_h);  // the key tokens upright, if the thumbnails are wide enough for them
        const float pitch = upright / static_cast<float>(n_keys);
        return size(layout_axis_labels(tokens.keys, measure, key_labels_request(pitch, upright, label_max)).depth);
    };
    const float thumb_right = fit(true), thumb_below = fit(false);
    const bool bar_right = thumb_right >= thumb_below;
    const float thumb = bar_right ? thumb_right : thumb_below;

    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float x0 = std::floor(origin.x + left_w);
    const auto thumb_x = [&](int h) { return x0 + h * (thumb + gap); };
    // "Head 11" where it fits over its column, else the number alone (GPT-2 small's 12 heads, say).
    char widest_head[32];
    std::snprintf(widest_head, sizeof widest_head, "%s %d", ctx.t("Head"), H - 1);
    const bool words_fit = ImGui::CalcTextSize(widest_head).x <= thumb + 0.5f * gap;
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    for (int h = 0; h < H; ++h) {
        char name[32];
        if (words_fit)
            std::snprintf(name, sizeof name, "%s %d", ctx.t("Head"), h);
        else
            std::snprintf(name, sizeof name, "%d", h);
        draw->AddText(ImVec2(thumb_x(h), origin.y), text, name);
    }
    // Grouped-query attention: a bar under the names joins the query heads that read one K/V head.
    const int group = H / ctx.config().kv_heads();
    if (group > 1)
        for (int g = 0; g < ctx.config().kv_heads(); ++g) {
            const float y = std::floor(origin.y + line_h + 0.1f * ctx.em);
            draw->AddRectFilled(ImVec2(thumb_x(g * group), y), ImVec2(thumb_x((g + 1) * group - 1) + thumb, y + 2.0f),
                                ImGui::GetColorU32(g % 2 ? ImGuiCol_PlotLines : ImGuiCol_PlotHistogram));
        }
    const float y0 = std::floor(origin.y + line_h + 0.3f * ctx.em);
    const auto thumb_y = [&](int l) { return y0 + l * (thumb + gap); };
    const int current = current_layer(ctx, use);
    const float scale = gradient_scale(ctx, use, n_layers);
    const HeatmapAtlas atlas = grid_atlas(ctx, use, n_layers, thumb, scale);
    const float q_cell = thumb / static_cast<float>(n_queries), k_cell = thumb / static_cast<float>(n_keys);
    const AxisLabels query_labels =
        layout_axis_labels(tokens.queries, measure, query_labels_request(q_cell, label_max));
    const AxisLabels key_labels =
        layout_axis_labels(tokens.keys, measure, key_labels_request(k_cell, thumb, label_max));
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const auto dimmed = [dim](int) { return dim; };

    // Every thumbnail first (one texture), then every frame, cross and label (the font's): two texture binds.
    draw->ChannelsSplit(2);
    for (int l = 0; l < n_layers; ++l) {
        const AttentionSite site{use, l};
        const bool computed = shown_facts(ctx, weights_of(site)).entry != nullptr;
        draw->ChannelsSetCurrent(1);
        char layer_name[48];
        std::snprintf(layer_name, sizeof layer_name, l == current ? "%s %d ▶" : "%s %d", ctx.t("Layer"), l);
        draw->AddText(ImVec2(origin.x, thumb_y(l)), l == current ? IM_COL32(255, 200, 40, 255) : text, layer_name);
        if (const std::string tag = layer_tag(ctx, site); !tag.empty())  // under the name when the row has room
            draw->AddText(thumb >= 2.0f * line_h ? ImVec2(origin.x, thumb_y(l) + line_h)
                                                 : ImVec2(origin.x + ImGui::CalcTextSize(widest_layer).x + 0.4f * ctx.em,
                                                          thumb_y(l)),
                          layer_tag_colour(ctx, site), tag.c_str());
        draw_axis_labels(draw, ImVec2(x0, thumb_y(l)), query_labels, dimmed);  // the tokens, run or not
        for (int h = 0; h < H; ++h) {
            const ImVec2 p(thumb_x(h), thumb_y(l)), q(p.x + thumb, p.y + thumb);
            ImGui::SetCursorScreenPos(p);
            ImGui::PushID(l * 1000 + h);
            ImGui::InvisibleButton("thumb", ImVec2(thumb, thumb));
            const bool hovered = ImGui::IsItemHovered();
            if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) {
                ctx.view.attention.layer = l;
                ctx.view.attention.head = h;
                ctx.view.attention.detail_open = true;
            }
            if (ImGui::IsItemClicked(ImGuiMouseButton_Right)) ctx.session.toggle_head(site, h);
            mark_tour_target(ctx, TourTaskKind::ablate_head);  // the tour's heads to switch off
            ImGui::PopID();
            draw->ChannelsSetCurrent(0);
            if (computed && atlas.texture)
                draw->AddImage(atlas.texture, p, q, atlas.uv0(l * H + h), atlas.uv1(l * H + h));
            else
                draw->AddRectFilled(p, q, ImGui::GetColorU32(ImGuiCol_FrameBg));
            draw->ChannelsSetCurrent(1);
            const bool selected = l == current;
            draw->AddRect(p, q, selected ? IM_COL32(255, 200, 40, 255) : ImGui::GetColorU32(ImGuiCol_Border), 0, 0,
                          selected ? 3.0f : 1.0f);
            if (head_is_off(ctx, site, h)) {
                draw->AddLine(p, q, IM_COL32(255, 70, 70, 230), 3.0f);
                draw->AddLine(ImVec2(p.x, q.y), ImVec2(q.x, p.y), IM_COL32(255, 70, 70, 230), 3.0f);
            }
            if (hovered) {
                draw->AddRect(ImVec2(p.x - 2, p.y - 2), ImVec2(q.x + 2, q.y + 2), IM_COL32(255, 64, 64, 255), 0, 0,
                              2.5f);
                enlarged_head_tooltip(ctx, site, h, tokens, p, thumb, scale);
            }
        }
    }
    // The key tokens under each head's last thumbnail, whether its layer has run yet or not (they are the input's,
    // and the room for them is kept); then one colour bar for every thumbnail.
    draw->ChannelsSetCurrent(1);
    const float keys_y = thumb_y(n_layers - 1) + thumb;
    const float key_depth = key_labels.depth;
    for (int h = 0; h < H; ++h) draw_axis_labels(draw, ImVec2(thumb_x(h), thumb_y(n_layers - 1)), key_labels, dimmed);
    draw->ChannelsMerge();
    if (bar_right)
        ImGui::SetCursorScreenPos(ImVec2(thumb_x(H) + ctx.em, y0));
    else
        ImGui::SetCursorScreenPos(ImVec2(x0, keys_y + key_depth + pad + 0.3f * ctx.em));
    ImGui::BeginGroup();  // the bar's end values start under the bar, not at the window's edge
    const bool gradient = ctx.session.in_backward();
    const Colormap colormap = gradient ? Colormap::diverging : Colormap::sequential;
    const float lo = gradient ? -scale : 0.0f, hi = gradient ? scale : 1.0f;
    const std::string bar_caption = gradient ? gradient_caption(to_string(AttentionStage::weights)) : caption;
    if (bar_right) {
        colorbar_widget(ctx.heatmaps.colorbar(colormap), lo, hi, short_bar_w);
        ImGui::TextDisabled("%s", bar_caption.c_str());
    } else {
        colorbar_widget(ctx.heatmaps.colorbar(colormap), lo, hi, bar_w, bar_caption.c_str());
    }
    ImGui::EndGroup();
    if (bar_right) ImGui::SetCursorScreenPos(ImVec2(x0, keys_y + key_depth + pad));  // the window's content ends here
    if (!shown_facts(ctx, weights_of({use, 0})).entry) {
        if (gradient)
            text_gradient_not_yet(ctx);
        else
            text_not_run_yet(ctx);
    }
}

}  // namespace attnlab::gui
