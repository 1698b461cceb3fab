// The RoPE view: the head and the query and key to follow, then four blocks, two side by side when they fit:
// the angle table beside the paper's PE, the pairs as 2-D vectors, the score against the offset with its
// checks, and the frequencies before and after rope_scaling.
#include "panels/rope_panel.h"

#include "analysis/rope_view.h"
#include "forward/mechanisms/positions.h"
#include "ops/attention.h"
#include "ops/positional.h"
#include "ops/rotary.h"
#include "panels/line_plot.h"
#include "panels/mask_flow.h"
#include "panels/pe_tables.h"
#include "panels/tour_target.h"
#include "panels/word_wrap.h"

#include "score_scale_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

namespace attnlab::gui {

namespace {

constexpr ImU32 kQueryColor = IM_COL32(255, 150, 40, 255);  // as the PE curves' first colour
constexpr ImU32 kKeyColor = IM_COL32(70, 170, 255, 255);
constexpr ImU32 kScoreColor = IM_COL32(90, 200, 120, 255);
constexpr ImU32 kShiftColor = IM_COL32(250, 215, 70, 255);
constexpr ImU32 kTraceColor = IM_COL32(240, 70, 110, 255);
constexpr ImU32 kUnscaledColor = IM_COL32(150, 150, 160, 255);
constexpr double kTwoPi = 2.0 * std::numbers::pi;

template <class... A>
std::string format(const char* f, A... a) {
    char buf[512];
    std::snprintf(buf, sizeof buf, f, a...);
    return buf;
}

ImU32 with_alpha(ImU32 color, float alpha) {
    ImVec4 c = ImGui::ColorConvertU32ToFloat4(color);
    c.w *= alpha;
    return ImGui::ColorConvertFloat4ToU32(c);
}

float degrees(double radians) { return static_cast<float>(radians * 180.0 / std::numbers::pi); }

// An angle wrapped into (−π, π].
double wrap_pi(double a) {
    a = std::fmod(a, kTwoPi);
    if (a > std::numbers::pi) a -= kTwoPi;
    if (a <= -std::numbers::pi) a += kTwoPi;
    return a;
}

std::vector<std::string> numbers(int n) {
    std::vector<std::string> out;
    for (int i = 0; i < n; ++i) out.push_back(std::to_string(i));
    return out;
}

// ---- derived data, kept between frames ----

// What depends on the config and the number of positions only.
struct RopeTables {
    int positions = 0, head_dim = 0;
    std::vector<float> theta;  // (D/2,) as the model uses them
    Mat angle;                 // (D/2, P): p·θ_i wrapped into [0, 2π), pairs by positions
    Mat cos;                   // (D/2, P)
    Mat pe;                    // (D, P): the paper's PE with C = D, dimensions by positions
    std::vector<std::string> pair_labels, dim_labels, position_labels;
    RopeFrequencies frequencies;
    uint64_t version = 0;
};

struct RopeCache {
    RopeConfig rope;
    RopeTables tables;
    uint64_t next_version = 1;
    // The view of one head, query and key: recomputed when the ref or the trace's Q, K or scores change.
    RopeHeadRef ref{-1, -1, -1, -1};
    uint64_t q_version = 0, k_version = 0, scaled_version = 0;
    std::optional<RopeView> view;
    std::string error;
};

// The chosen layer's tables: its own RoPE (a local layer's base), as its θ line says.
const RopeTables& rope_tables(PanelContext& ctx, int positions) {
    RopeCache& c = ctx.caches.get<RopeCache>();
    const ModelConfig& config = ctx.config();
    const RopeConfig rope = rope_shown_at(config, ctx.view.positional.rope.layer);
    const int D = config.d_head();
    RopeTables& t = c.tables;
    if (t.version != 0 && c.rope == rope && t.head_dim == D && t.positions == positions) return t;
    c.rope = rope;
    t.positions = positions;
    t.head_dim = D;
    t.theta = rope_inverse_frequencies(rope, D);
    const RopeAngleTable angles = rope_angle_table(t.theta, positions);  // (P, D/2)
    t.angle = angles.angle.transpose();
    t.cos = angles.cos.transpose();
    t.pe = sinusoidal_encoding(positions, D).matrix().transpose();  // (D, P)
    t.pair_labels = numbers(D / 2);
    t.dim_labels = numbers(D);
    t.position_labels = numbers(positions);
    t.frequencies = rope_frequencies(rope, D);
    t.version = c.next_version++;
    return t;
}

uint64_t version_of(const Stepper& st, const AttentionSite& site, AttentionStage stage) {
    const TraceEntry* e = st.run_facts(StepId::attention_at(site, stage));
    return e ? e->version : 0;
}

const RopeCache& rope_view_of(PanelContext& ctx, const RopeHeadRef& ref) {
    RopeCache& c = ctx.caches.get<RopeCache>();
    const Stepper& st = ctx.stepper();
    const AttentionSite site{rope_attention_use(ctx.config()), ref.layer};
    const uint64_t q = version_of(st, site, AttentionStage::q_rot), k = version_of(st, site, AttentionStage::k_rot);
    const uint64_t scaled = version_of(st, site, AttentionStage::scaled);
    const bool same = c.ref.layer == ref.layer && c.ref.head == ref.head && c.ref.query == ref.query &&
                      c.ref.key == ref.key && c.q_version == q && c.k_version == k && c.scaled_version == scaled;
    if (same && (c.view || scaled != 0)) return c;
    c.ref = ref;
    c.q_version = q, c.k_version = k, c.scaled_version = scaled;
    auto v = rope_view(st, ref);
    c.view.reset();
    c.error.clear();
    if (v)
        c.view = std::move(*v);
    else
        c.error = v.error().message;
    return c;
}

// ---- drawing helpers ----

// A block's title with a rule under it; `hover` (if any) is shown when the title is hovered.
void section_title(const char* title, const char* hover = nullptr) {
    ImGui::TextUnformatted(title);
    if (hover && ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(30.0f * ImGui::GetFontSize());
        ImGui::TextUnformatted(hover);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
    ImGui::Separator();
}

void arrow(ImDrawList* draw, ImVec2 from, ImVec2 to, ImU32 color, float thickness, float head) {
    const float dx = to.x - from.x, dy = to.y - from.y, len = std::sqrt(dx * dx + dy * dy);
    if (len < 1.0f) return;
    const float ux = dx / len, uy = dy / len;
    head = std::min(head, len * 0.6f);
    const ImVec2 base(to.x - ux * head, to.y - uy * head);
    draw->AddLine(from, base, color, thickness);
    draw->AddTriangleFilled(to, ImVec2(base.x - uy * head * 0.45f, base.y + ux * head * 0.45f),
                            ImVec2(base.x + uy * head * 0.45f, base.y - ux * head * 0.45f), color);
}

void dashed_line(ImDrawList* draw, ImVec2 a, ImVec2 b, ImU32 color, float dash, float thickness) {
    const float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
    if (len < 1.0f) return;
    for (float s = 0.0f; s < len; s += 2.0f * dash) {
        const float e = std::min(s + dash, len);
        draw->AddLine(ImVec2(a.x + dx * s / len, a.y + dy * s / len), ImVec2(a.x + dx * e / len, a.y + dy * e / len),
                      color, thickness);
    }
}

// A legend entry: a swatch drawn as a line, a dashed line, a dot or a ring, then its label. `turn` is a faded
// line going on bright: a vector before and after its turn.
enum class Swatch { line, faded_line, turn, dashed, dot, ring, band };
struct LegendEntry {
    std::string label;
    ImU32 color;
    Swatch swatch;
};

// Entries left to right, wrapping within `width`, at the cursor; the cursor moves below them.
void legend(const std::vector<LegendEntry>& entries, float width) {
    const float em = ImGui::GetFontSize(), line_h = ImGui::GetTextLineHeightWithSpacing(), swatch = 1.8f * em;
    std::vector<float> widths;
    for (const LegendEntry& e : entries) widths.push_back(swatch + ImGui::CalcTextSize(e.label.c_str()).x);
    const std::vector<ImVec2> at = legend_flow(widths, width, 1.2f * em, line_h);
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float scale = em / 17.0f;
    for (size_t i = 0; i < entries.size(); ++i) {
        const LegendEntry& e = entries[i];
        const ImVec2 p(p0.x + at[i].x, p0.y + at[i].y);
        const float y = p.y + ImGui::GetTextLineHeight() * 0.5f;
        const ImVec2 l(p.x, y), r(p.x + 1.3f * em, y), mid(p.x + 0.65f * em, y);
        switch (e.swatch) {
            case Swatch::line: draw->AddLine(l, r, e.color, 2.5f * scale); break;
            case Swatch::faded_line: draw->AddLine(l, r, with_alpha(e.color, 0.4f), 2.0f * scale); break;
            case Swatch::turn:
                draw->AddLine(l, mid, with_alpha(e.color, 0.4f), 2.0f * scale);
                draw->AddLine(mid, r, e.color, 2.5f * scale);
                break;
            case Swatch::dashed: dashed_line(draw, l, r, e.color, 0.25f * em, 2.0f * scale); break;
            case Swatch::dot: draw->AddCircleFilled(mid, 0.3f * em, e.color); break;
            case Swatch::ring: draw->AddCircle(mid, 0.3f * em, e.color, 0, 1.6f * scale); break;
            case Swatch::band:
                draw->AddRectFilled(ImVec2(l.x, y - 0.35f * em), ImVec2(r.x, y + 0.35f * em), e.color);
                break;
        }
        draw->AddText(ImVec2(p.x + swatch, p.y), ImGui::GetColorU32(ImGuiCol_Text), e.label.c_str());
    }
    const float h = at.empty() ? 0.0f : at.back().y + line_h;
    ImGui::Dummy(ImVec2(width, h));
}

// A plot's frame: data to pixels, linear or log10 in y.
struct Frame {
    ImVec2 a, b;  // the plotting area's corners (top left, bottom right)
    float x_lo = 0.0f, x_hi = 1.0f, y_lo = 0.0f, y_hi = 1.0f;
    bool log_y = false;
    float x(float v) const { return a.x + (v - x_lo) / (x_hi - x_lo) * (b.x - a.x); }
    float y(float v) const {
        const float u =
            log_y ? (std::log10(std::max(v, 1e-30f)) - std::log10(y_lo)) / (std::log10(y_hi) - std::log10(y_lo))
                  : (v - y_lo) / (y_hi - y_lo);
        return b.y - u * (b.y - a.y);
    }
    ImVec2 at(float vx, float vy) const { return ImVec2(x(vx), y(vy)); }
    float x_at(float px) const { return x_lo + (px - a.x) / (b.x - a.x) * (x_hi - x_lo); }
};

// A label's backing inside a plot: the plot's own background (FrameBg over the window's), opaque.
void plot_backing(ImDrawList* draw, ImVec2 a, ImVec2 b) {
    ImVec4 window = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
    window.w = 1.0f;
    draw->AddRectFilled(a, b, ImGui::ColorConvertFloat4ToU32(window));
    draw->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg));
}

// "1e6" for a million, "%g" below ten thousand.
std::string tick_text(float v, bool log_axis) {
    if (log_axis && v >= 1e4f) {
        const int e = static_cast<int>(std::floor(std::log10(v) + 1e-4f));
        const float mantissa = v / std::pow(10.0f, static_cast<float>(e));
        return std::abs(mantissa - 1.0f) < 1e-3f ? format("1e%d", e) : format("%ge%d", mantissa, e);
    }
    return format(log_axis ? "%g" : "%.3g", v);
}

// A wavelength in positions, short: "6.28", "62.8", "628", "6283".
std::string wavelength_text(double positions) {
    return positions < 100.0 ? format("%.3g", positions) : format("%.0f", positions);
}

// An InvisibleButton of `size` at the cursor and a frame inside it leaving room for the tick labels and the
// x label; draws the background, grid, ticks and labels. `x_ticks` in data units.
Frame plot_frame(const char* id, ImVec2 size, Frame f, const std::vector<float>& x_ticks, const char* x_label) {
    const float em = ImGui::GetFontSize(), line_h = ImGui::GetTextLineHeight();
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(id, size);
    const std::vector<float> y_ticks =
        nice_ticks(f.y_lo, f.y_hi, f.log_y, std::max(2, static_cast<int>(size.y / (2.6f * em))));
    float y_w = 0.0f;
    for (float t : y_ticks) y_w = std::max(y_w, ImGui::CalcTextSize(tick_text(t, f.log_y).c_str()).x);
    f.a = ImVec2(p0.x + y_w + 0.6f * em, p0.y + 0.5f * line_h);
    f.b = ImVec2(p0.x + size.x - 0.6f * em, p0.y + size.y - 2.0f * line_h - 0.4f * em);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    draw->AddRectFilled(f.a, f.b, ImGui::GetColorU32(ImGuiCol_FrameBg));
    for (float t : y_ticks) {
        const float y = f.y(t);
        draw->AddLine(ImVec2(f.a.x, y), ImVec2(f.b.x, y), with_alpha(text, 0.12f));
        const std::string label = tick_text(t, f.log_y);
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        draw->AddText(ImVec2(f.a.x - 0.3f * em - ts.x, y - ts.y * 0.5f), dim, label.c_str());
    }
    for (float t : x_ticks) {
        const float x = f.x(t);
        draw->AddLine(ImVec2(x, f.a.y), ImVec2(x, f.b.y), with_alpha(text, 0.12f));
        const std::string label = format("%g", t);
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        draw->AddText(ImVec2(std::clamp(x - ts.x * 0.5f, p0.x, f.b.x - ts.x), f.b.y + 0.2f * em), dim, label.c_str());
    }
    draw->AddRect(f.a, f.b, with_alpha(text, 0.35f));
    // The x label centred under the plot; a label wider than the plot starts at its left and is cut at its right.
    const float x_label_w = ImGui::CalcTextSize(x_label).x;
    draw->PushClipRect(p0, ImVec2(p0.x + size.x, p0.y + size.y), true);
    draw->AddText(ImVec2(std::max(p0.x, (f.a.x + f.b.x - x_label_w) * 0.5f), f.b.y + line_h + 0.3f * em), dim, x_label);
    draw->PopClipRect();
    return f;
}

// Integer ticks over [lo, hi], about `count` of them.
std::vector<float> integer_ticks(float lo, float hi, int count) {
    std::vector<float> ticks;
    for (float t : nice_ticks(lo, hi, false, count))
        if (std::abs(t - std::round(t)) < 1e-3f) ticks.push_back(std::round(t));
    return ticks;
}

// ---- the controls ----

struct Choice {
    int layer = 0, head = 0, kv_head = 0, query = 0, key = 0;
    int n_tokens = 0;
};

// A row of the prompt's tokens, `spacing` apart: a click makes one the query, a right-click the key.
void token_chips(PanelContext& ctx, const SequenceView& seq, RopeViewState& s, float spacing) {
    const float right = ImGui::GetWindowContentRegionMax().x + ImGui::GetWindowPos().x;
    const ImGuiStyle& style = ImGui::GetStyle();
    for (size_t i = 0; i < seq.labels.size(); ++i) {
        const int row = static_cast<int>(i);
        const std::string label = seq.labels[i] + "##rope_token" + std::to_string(i);
        const float w = ImGui::CalcTextSize(seq.labels[i].c_str()).x + style.FramePadding.x * 2.0f;
        if (i > 0 && ImGui::GetItemRectMax().x + spacing + w < right) ImGui::SameLine(0.0f, spacing);
        const bool is_query = row == s.query, is_key = row == s.key;
        const ImU32 color = is_query ? kQueryColor : kKeyColor;
        ImGui::PushStyleColor(ImGuiCol_Header, with_alpha(color, 0.55f));
        ImGui::PushStyleColor(ImGuiCol_HeaderHovered, with_alpha(color, 0.75f));
        if (ImGui::Selectable(label.c_str(), is_query || is_key, 0, ImVec2(w, 0))) s.query = row;
        if (ImGui::IsItemClicked(ImGuiMouseButton_Right)) s.key = row;
        ImGui::PopStyleColor(2);
        if (is_query && is_key) {  // one token both: its lower edge in the key's colour
            const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
            ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(a.x, b.y - 0.2f * ImGui::GetFontSize()), b, kKeyColor);
        }
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s %d: %s", ctx.t("row"), row, ctx.t("click: the query · right-click: the key"));
    }
}

Choice draw_controls(PanelContext& ctx, const SequenceView& seq) {
    const ModelConfig& c = ctx.config();
    RopeViewState& s = ctx.view.positional.rope;
    const int layers = rope_attention_use(c) == AttentionUse::encoder_self ? c.n_encoder_layers : c.n_decoder_layers;
    const int T = static_cast<int>(seq.labels.size());
    s.layer = std::clamp(s.layer, 0, std::max(0, layers - 1));
    s.head = std::clamp(s.head, 0, c.n_heads - 1);
    const float em = ctx.em, slider = 6.0f * em, gap = 1.5f * em;
    mark_tour_section(ctx, TourTaskKind::change_rope_rows);  // the tour's m and n sliders: shown from here
    value_slider_int(ctx.t("Layer"), "##rope_layer", &s.layer, 0, std::max(0, layers - 1), "%d", slider);
    same_line_if_fits(value_slider_width(ctx.t("Head"), "00", slider), gap);
    value_slider_int(ctx.t("Head"), "##rope_head", &s.head, 0, c.n_heads - 1, "%d", slider);
    const int g = static_cast<int>(kv_head_of(s.head, c.n_heads, c.kv_heads()));
    if (c.kv_heads() != c.n_heads) {
        const std::string note = format(ctx.t("reads K head %d (grouped-query attention: %d query heads share it)"), g,
                                        c.n_heads / c.kv_heads());
        if (ctx.view.settings.classroom) {  // on a projector the sliders come first; the note waits on the slider
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", note.c_str());
        } else {
            same_line_if_fits(ImGui::CalcTextSize(note.c_str()).x, gap);
            ImGui::AlignTextToFramePadding();
            ImGui::TextDisabled("%s", note.c_str());
        }
    }
    if (T == 0) return {s.layer, s.head, g, 0, 0, 0};
    s.query = std::clamp(s.query, 0, T - 1);
    s.key = std::clamp(s.key, 0, T - 1);
    // On a projector the two sliders share a line (half of what the labels leave each, 4 to 14 em) and the
    // score plot names m − n; else each is as long as the prompt asks.
    const bool compact = ctx.view.settings.classroom;
    const float labels_w =
        value_slider_width(ctx.t("Query m"), "000", 0.0f) + value_slider_width(ctx.t("Key n"), "000", 0.0f) + gap;
    const float token_slider =
        compact ? std::clamp((ImGui::GetContentRegionAvail().x - labels_w) * 0.5f, 4.0f * em, 14.0f * em)
                : std::clamp(T * 0.9f * em, 6.0f * em, 14.0f * em);
    ImGui::PushStyleColor(ImGuiCol_SliderGrab, kQueryColor);
    value_slider_int(ctx.t("Query m"), "##rope_query", &s.query, 0, T - 1, "%d", token_slider);
    mark_tour_target(ctx, TourTaskKind::change_rope_rows);
    ImGui::PopStyleColor();
    same_line_if_fits(value_slider_width(ctx.t("Key n"), "000", token_slider), gap);
    ImGui::PushStyleColor(ImGuiCol_SliderGrab, kKeyColor);
    value_slider_int(ctx.t("Key n"), "##rope_key", &s.key, 0, T - 1, "%d", token_slider);
    mark_tour_target(ctx, TourTaskKind::change_rope_rows);
    ImGui::PopStyleColor();
    if (!compact) {
        const std::string offset = format("m − n = %d", s.query - s.key);
        same_line_if_fits(ImGui::CalcTextSize(offset.c_str()).x, gap);
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(offset.c_str());
    }
    if (T <= 64) {
        if (!compact) {  // on a projector the chips alone, closer together: each says it on hover
            ImGui::AlignTextToFramePadding();
            ImGui::TextDisabled("%s", ctx.t("Tokens (click: the query, right-click: the key):"));
            ImGui::SameLine();
        }
        token_chips(ctx, seq, s, compact ? 0.15f * em : ImGui::GetStyle().ItemSpacing.x);
    }
    return {s.layer, s.head, g, s.query, s.key, T};
}

// ---- (a) the angle table beside the paper's PE ----

// plot_matrix without its colour bar.
HeatmapHit plot_cells(PanelContext& ctx, const MatrixPlot& p) {
    const HeatmapSource src{p.key, p.values, p.rows, p.cols, p.version, nullptr, 0, p.colormap, p.lo, p.hi};
    return heatmap_widget(p.key.c_str(), ctx.heatmaps.texture(src), p.rows, p.cols, matrix_layout(ctx, p));
}

void angle_tooltip(const PanelContext& ctx, const RopeTables& t, int i, int p) {
    const float theta = t.theta[static_cast<size_t>(i)];
    const double angle = static_cast<double>(p) * theta;
    ImGui::BeginTooltip();
    ImGui::Text("%s %d, %s %d  (x[%d], x[%d])", ctx.t("position"), p, ctx.t("pair"), i, i, i + t.head_dim / 2);
    const int turns = static_cast<int>(std::floor(angle / kTwoPi));
    if (turns == 0) {
        ImGui::Text("p·θ_%d = %d × %.6g = %.4f  (%.1f°)", i, p, theta, angle, degrees(angle));
    } else {
        ImGui::Text("p·θ_%d = %d × %.6g = %.4f", i, p, theta, angle);
        ImGui::Text(ctx.t("= %d whole turns + %.4f (%.1f°)"), turns, t.angle(i, p), degrees(t.angle(i, p)));
    }
    ImGui::Text("cos = %+.4f,  sin = %+.4f", t.cos(i, p), std::sin(angle));
    ImGui::TextDisabled(ctx.t("one turn every 2π/θ_%d = %.4g positions"), i, kTwoPi / theta);
    ImGui::EndTooltip();
}

void pe_tooltip(const PanelContext& ctx, const RopeTables& t, int j, int p) {
    ImGui::BeginTooltip();
    ImGui::Text("%s %d, %s %d", ctx.t("position"), p, ctx.t("dimension"), j);
    ImGui::TextUnformatted(pe_formula(p, j, t.head_dim).c_str());
    ImGui::EndTooltip();
}

// Outlines the query's and the key's columns over a heatmap drawn at `grid`.
void mark_columns(const HeatmapHit& hit, float cell, int rows, const Choice& ch) {
    if (ch.n_tokens == 0) return;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float thick = std::max(1.5f, ImGui::GetFontSize() * 0.12f);
    for (const auto& [col, color] : {std::pair{ch.key, kKeyColor}, std::pair{ch.query, kQueryColor}})
        draw->AddRect(ImVec2(hit.grid.x + col * cell, hit.grid.y),
                      ImVec2(hit.grid.x + (col + 1) * cell, hit.grid.y + rows * cell), color, 0.0f, 0, thick);
}

void draw_angle_block(PanelContext& ctx, const RopeTables& t, const Choice& ch, float width) {
    const float em = ctx.em;
    const int P = t.positions, half = t.head_dim / 2, D = t.head_dim;
    section_title(ctx.t("Each pair's angle by position"));
    MatrixPlot rope{"rope/angles", t.cos.data(),        half,           P,
                    t.version,     Colormap::diverging, &t.pair_labels, &t.position_labels};
    // The PE's columns sit under the RoPE's, whose labels name them.
    MatrixPlot pe{"rope/pe", t.pe.data(), D, P, t.version, Colormap::diverging, &t.dim_labels, nullptr};
    // One cell size for both, so each position is one column through both.
    const float label_w = ImGui::CalcTextSize(t.dim_labels.back().c_str()).x + ImGui::GetStyle().ItemSpacing.x;
    const float fit_w = (width - label_w - em) / static_cast<float>(P);
    const float fit_h = 12.0f * em / static_cast<float>(half + D);
    const float cell = std::clamp(std::min(fit_w, fit_h), 1.0f, 1.6f * em);
    for (MatrixPlot* p : {&rope, &pe}) {
        p->cell = cell;
        p->max_width = width;
        p->fixed_range = true;
        p->lo = -1.0f;
        p->hi = 1.0f;
    }
    const float rope_grid = heatmap_geometry(half, P, matrix_layout(ctx, rope)).grid.x;
    const float pe_grid = heatmap_geometry(D, P, matrix_layout(ctx, pe)).grid.x;
    const float grid_x = std::max(rope_grid, pe_grid);
    const float x0 = ImGui::GetCursorPosX();

    text_wrapped_at_spaces(ctx.t("RoPE: cos(p·θ_i) of pair i (rows) at position p (columns)"));
    ImGui::SetCursorPosX(x0 + grid_x - rope_grid);
    const HeatmapHit a = plot_cells(ctx, rope);  // one colour bar, under the second: both span −1 … 1
    mark_columns(a, cell, half, ch);
    if (a.row >= 0) angle_tooltip(ctx, t, a.row, a.col);

    ImGui::SetCursorPosX(x0);
    text_wrapped_at_spaces(
        format(ctx.t("The paper's sinusoidal PE(p, j) with C = D = %d, at the same positions"), D).c_str());
    ImGui::SetCursorPosX(x0 + grid_x - pe_grid);
    const HeatmapHit b = plot_matrix(ctx, pe);
    mark_columns(b, cell, D, ch);
    if (b.row >= 0) pe_tooltip(ctx, t, b.row, b.col);
    ImGui::SetCursorPosX(x0);
    text_disabled_wrapped(
        ctx.t("Pair i turns at θ_i radians per position, as the paper's dimensions 2i and 2i+1 wave. The paper adds "
              "PE to the input once; RoPE turns q and k in every attention, so a score sees only how far apart they "
              "are. Orange: the query's position m; blue: the key's n."));
    if (ctx.config().rope.theta != 10000.0f)
        text_disabled_wrapped(
            format(
                ctx.t("This model's base is θ = %g, the paper's 10000: its slow pairs turn slower than the paper's."),
                static_cast<double>(ctx.config().rope.theta))
                .c_str());
}

// ---- (b) the pairs as 2-D vectors ----

void pair_tooltip(const PanelContext& ctx, const RopeView& v, int i) {
    const RopePairs& p = v.pairs;
    const size_t k = static_cast<size_t>(i);
    const int half = static_cast<int>(p.q.rows());
    const float theta = v.frequencies[k];
    const double between = wrap_pi(std::atan2(p.q_rot(i, 1), p.q_rot(i, 0)) - std::atan2(p.k_rot(i, 1), p.k_rot(i, 0)));
    ImGui::BeginTooltip();
    ImGui::Text("%s %d = (x[%d], x[%d]),  θ_%d = %.6g", ctx.t("pair"), i, i, i + half, i, theta);
    ImGui::PushStyleColor(ImGuiCol_Text, kQueryColor);
    ImGui::Text("q  = (%+.4f, %+.4f)", p.q(i, 0), p.q(i, 1));
    ImGui::Text(ctx.t("turned by m·θ_%d = %d × %.4g = %.4f (%.1f°)"), i, v.ref.query, theta, p.q_angle[k],
                degrees(wrap_pi(p.q_angle[k])));
    ImGui::Text("q′ = (%+.4f, %+.4f)", p.q_rot(i, 0), p.q_rot(i, 1));
    ImGui::PopStyleColor();
    ImGui::PushStyleColor(ImGuiCol_Text, kKeyColor);
    ImGui::Text("k  = (%+.4f, %+.4f)", p.k(i, 0), p.k(i, 1));
    ImGui::Text(ctx.t("turned by n·θ_%d = %d × %.4g = %.4f (%.1f°)"), i, v.ref.key, theta, p.k_angle[k],
                degrees(wrap_pi(p.k_angle[k])));
    ImGui::Text("k′ = (%+.4f, %+.4f)", p.k_rot(i, 0), p.k_rot(i, 1));
    ImGui::PopStyleColor();
    ImGui::Text(ctx.t("angle from k′ to q′: %.1f°"), degrees(between));
    const std::string scale = score_scale_text(ctx.config()).factor;  // /√D, or Gemma's /√12
    ImGui::Text("q′·k′%s = |q′||k′|·cos(%.1f°)%s = %+.5f", scale.c_str(), degrees(between), scale.c_str(),
                p.contribution[k]);
    ImGui::TextDisabled(ctx.t("its share of the score %+.5f"), v.curve.at_actual);
    ImGui::EndTooltip();
}

// One pair in a box of `box` pixels: q and k before (faded) and after (bright) their turn, the arc from k′ to q′.
void draw_pair(const RopeView& v, int i, ImVec2 box_min, float box) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float em = ImGui::GetFontSize(), scale = em / 17.0f;
    const RopePairs& p = v.pairs;
    const ImVec2 c(box_min.x + box * 0.5f, box_min.y + box * 0.5f);
    const float r = box * 0.5f - 0.3f * em;
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    draw->AddCircle(c, r, with_alpha(text, 0.25f), 0, 1.0f);
    draw->AddLine(ImVec2(c.x - r, c.y), ImVec2(c.x + r, c.y), with_alpha(text, 0.12f));
    draw->AddLine(ImVec2(c.x, c.y - r), ImVec2(c.x, c.y + r), with_alpha(text, 0.12f));
    const float longest = std::max({p.q.row(i).norm(), p.k.row(i).norm(), 1e-12f});
    const auto at = [&](float x, float y) { return ImVec2(c.x + x / longest * r, c.y - y / longest * r); };
    const float head = 0.45f * em;
    arrow(draw, c, at(p.q(i, 0), p.q(i, 1)), with_alpha(kQueryColor, 0.35f), 1.5f * scale, head);
    arrow(draw, c, at(p.k(i, 0), p.k(i, 1)), with_alpha(kKeyColor, 0.35f), 1.5f * scale, head);
    // The arc from k′ to q′ (screen angles turn the other way: y points down).
    const float phi_k = std::atan2(p.k_rot(i, 1), p.k_rot(i, 0));
    const float between = static_cast<float>(wrap_pi(std::atan2(p.q_rot(i, 1), p.q_rot(i, 0)) - phi_k));
    if (std::abs(between) > 1e-3f) {
        draw->PathArcTo(c, r * 0.32f, -phi_k, -(phi_k + between), 24);
        draw->PathStroke(with_alpha(text, 0.75f), 0, 1.5f * scale);
    }
    arrow(draw, c, at(p.k_rot(i, 0), p.k_rot(i, 1)), kKeyColor, 2.5f * scale, head);
    arrow(draw, c, at(p.q_rot(i, 0), p.q_rot(i, 1)), kQueryColor, 2.5f * scale, head);
}

// Compact (on a projector, under the sliders): every pair in one row when each gets 2.2 em, under each its share
// alone, and on the title's hover `about` (what RoPE is, this model's θ) then the note.
void draw_pairs_block(PanelContext& ctx, const RopeView& v, float width, bool compact, const std::string& about) {
    const float em = ctx.em;
    const std::string scale = score_scale_text(ctx.config()).factor;  // /√D, or Gemma's /√12
    const std::string note =
        format(ctx.t("Each circle is one pair (x[i], x[i + D/2]) of the head, scaled to its longer vector. The arc is "
                     "the angle from k′ to q′; under each circle, its share q′·k′%s of the score. The shares add up "
                     "to the score."),
               scale.c_str());
    section_title(ctx.t("One query and one key, pair by pair"), compact ? (about + "\n\n" + note).c_str() : nullptr);
    if (compact)  // one line: each vector faded before its turn, bright after
        legend({{ctx.t("q → q′, turned by m·θ_i"), kQueryColor, Swatch::turn},
                {ctx.t("k → k′, turned by n·θ_i"), kKeyColor, Swatch::turn}},
               width);
    else
        legend({{ctx.t("q before"), kQueryColor, Swatch::faded_line},
                {ctx.t("q′ turned by m·θ_i"), kQueryColor, Swatch::line},
                {ctx.t("k before"), kKeyColor, Swatch::faded_line},
                {ctx.t("k′ turned by n·θ_i"), kKeyColor, Swatch::line}},
               width);
    const int half = static_cast<int>(v.pairs.q.rows());
    const float gap = 0.6f * em;
    // As many circles a row as fit at 6 em (2.2 em compact), then rows of equal length (4 pairs: 2 and 2, not 3 and 1).
    const float smallest = (compact ? 2.2f : 6.0f) * em;
    const int fit = std::clamp(static_cast<int>((width + gap) / (smallest + gap)), 1, half);
    const int per_row = (half + (half + fit - 1) / fit - 1) / ((half + fit - 1) / fit);
    // At most 7.5 em a circle (2.8 em compact: a head of few pairs keeps the score under the sliders).
    const float box = std::min((compact ? 2.8f : 7.5f) * em,
                               (width - gap * static_cast<float>(per_row - 1)) / static_cast<float>(per_row));
    const float line_h = ImGui::GetTextLineHeight();
    const int label_lines = compact ? 1 : 2;  // compact: the share; else the pair's name and wavelength above it
    const float cell_h = box + static_cast<float>(label_lines) * line_h + 0.3f * em;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    int hovered = -1;
    for (int i = 0; i < half; ++i) {
        const ImVec2 at(origin.x + static_cast<float>(i % per_row) * (box + gap),
                        origin.y + static_cast<float>(i / per_row) * cell_h);
        ImGui::SetCursorScreenPos(at);
        ImGui::InvisibleButton(format("##rope_pair%d", i).c_str(), ImVec2(box, cell_h));
        if (ImGui::IsItemHovered()) hovered = i;
        if (hovered == i)
            draw->AddRectFilled(at, ImVec2(at.x + box, at.y + cell_h), with_alpha(text, 0.06f), 0.3f * em);
        draw_pair(v, i, at, box);
        const std::string title = format("%s %d · λ %s", ctx.t("pair"), i,
                                         wavelength_text(kTwoPi / v.frequencies[static_cast<size_t>(i)]).c_str());
        // Two decimals compact: "+0.198" would be cut by a circle 2.2 em wide (the tooltip has five).
        const std::string share = format(compact ? "%+.2f" : "%+.3f", v.pairs.contribution[static_cast<size_t>(i)]);
        const float title_w = ImGui::CalcTextSize(title.c_str()).x, share_w = ImGui::CalcTextSize(share.c_str()).x;
        draw->PushClipRect(at, ImVec2(at.x + box, at.y + cell_h), true);
        if (!compact)
            draw->AddText(ImVec2(at.x + std::max(0.0f, (box - title_w) * 0.5f), at.y + box), dim, title.c_str());
        draw->AddText(ImVec2(at.x + std::max(0.0f, (box - share_w) * 0.5f), at.y + box + (compact ? 0.0f : line_h)),
                      text, share.c_str());
        draw->PopClipRect();
    }
    const int rows = (half + per_row - 1) / per_row;
    const ImVec2 end(origin.x + static_cast<float>(per_row) * (box + gap) - gap,
                     origin.y + static_cast<float>(rows) * cell_h);
    mark_tour_watch(ctx, TourWatch::rope_pairs, origin, end);
    ImGui::SetCursorScreenPos(ImVec2(origin.x, end.y));
    ImGui::Dummy(ImVec2(width, 0.0f));
    if (hovered >= 0) pair_tooltip(ctx, v, hovered);
    if (!compact) text_disabled_wrapped(note.c_str());
}

// ---- (c) the score against the offset ----

// The legend's "masked" written in the band of keys after the query (its left end), at the top or the bottom,
// whichever the curve `pts` leaves free there, on a backing.
void masked_band_label(const PanelContext& ctx, const Frame& f, const std::vector<ImVec2>& pts) {
    const float em = ctx.em;
    const char* label = ctx.t("masked");
    const ImVec2 ts = ImGui::CalcTextSize(label);
    const float x0 = f.a.x + 0.3f * em, x1 = x0 + ts.x;
    float curve_top = f.b.y, curve_bottom = f.a.y;
    for (const ImVec2& q : pts)
        if (q.x >= x0 - 0.3f * em && q.x <= x1 + 0.3f * em)
            curve_top = std::min(curve_top, q.y), curve_bottom = std::max(curve_bottom, q.y);
    const float top = f.a.y + 0.2f * em, bottom = f.b.y - ts.y - 0.2f * em;
    const bool at_top = curve_top > top + ts.y + 0.2f * em || curve_bottom > bottom - 0.2f * em;
    const ImVec2 at(x0, at_top ? top : bottom);
    plot_backing(ImGui::GetWindowDrawList(), ImVec2(at.x - 0.15f * em, at.y), ImVec2(x1 + 0.15f * em, at.y + ts.y));
    ImGui::GetWindowDrawList()->AddText(at, ImGui::GetColorU32(ImGuiCol_TextDisabled), label);
}

// Compact (on a projector, under the sliders): a lower plot, its formula on the title's hover, the masked band
// named inside it.
void draw_score_block(PanelContext& ctx, const RopeView& v, float width, bool compact) {
    const float em = ctx.em;
    RopeViewState& s = ctx.view.positional.rope;
    const RopeScoreCurve& curve = v.curve;
    const ModelConfig& c = ctx.config();
    const int T = v.n_tokens, m = v.ref.query;
    const std::string formula =
        format(ctx.t("score(δ) = q·R(δθ)·k%s: this query and this key, the query at m and the key at m − δ"),
               score_scale_text(c).factor.c_str());
    section_title(ctx.t("The score depends only on the offset m − n"), compact ? formula.c_str() : nullptr);
    if (!compact) text_wrapped_at_spaces(formula.c_str());
    const RopeShiftCheck* far = curve.shifts.empty() ? nullptr : &curve.shifts.back();
    std::vector<LegendEntry> entries = {{ctx.t("score(δ)"), kScoreColor, Swatch::line}};
    if (far) entries.push_back({format(ctx.t("both positions moved by +%d"), far->shift), kShiftColor, Swatch::ring});
    entries.push_back({ctx.t("the trace: scaled[h, m, n]"), kTraceColor, Swatch::dot});
    if (v.use == AttentionUse::decoder_self && !compact)  // compact: the band says it inside the plot
        entries.push_back({c.sliding_window > 0 ? ctx.t("masked: the key after the query, or past the sliding window")
                                                : ctx.t("key after the query: masked"),
                           with_alpha(ImGui::GetColorU32(ImGuiCol_Text), 0.12f), Swatch::band});
    if (s.pair_waves)
        entries.push_back(
            {ctx.t("each pair's term"), with_alpha(ImGui::GetColorU32(ImGuiCol_Text), 0.45f), Swatch::line});
    legend(entries, width);

    // The y range: the curve, and the pairs' terms when shown.
    float lo = std::min(0.0f, *std::min_element(curve.scores.begin(), curve.scores.end()));
    float hi = std::max(0.0f, *std::max_element(curve.scores.begin(), curve.scores.end()));
    if (s.pair_waves) lo = std::min(lo, curve.pair_waves.minCoeff()), hi = std::max(hi, curve.pair_waves.maxCoeff());
    const float pad = std::max((hi - lo) * 0.08f, 1e-4f);
    Frame f;
    f.x_lo = -static_cast<float>(std::max(1, T - 1)) - 0.5f;
    f.x_hi = static_cast<float>(std::max(1, T - 1)) + 0.5f;
    f.y_lo = lo - pad, f.y_hi = hi + pad;
    const float h = (compact ? 6.5f : 12.0f) * em;
    // The x label whole: what δ counts when the plot is wide enough for it, else the offset alone.
    const char* x_label = ctx.t("offset δ = m − n (positions the key lies before the query)");
    if (ImGui::CalcTextSize(x_label).x > width - 2.0f * em) x_label = ctx.t("offset δ = m − n");
    f = plot_frame("##rope_score", ImVec2(width, h), f,
                   integer_ticks(f.x_lo, f.x_hi, std::max(2, static_cast<int>(width / (3.5f * em)))), x_label);
    mark_tour_watch(ctx, TourWatch::rope_score);
    const bool hovered = ImGui::IsItemHovered(), clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float scale = em / 17.0f, spacing = f.x(1.0f) - f.x(0.0f);
    draw->PushClipRect(f.a, f.b, true);
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    // What the mask hides in a causal model: keys after the query (δ < 0), and past a sliding window.
    if (v.use == AttentionUse::decoder_self) {
        draw->AddRectFilled(f.a, ImVec2(f.x(-0.5f), f.b.y), with_alpha(text, 0.07f));
        if (c.sliding_window > 0 && c.sliding_window <= T - 1)
            draw->AddRectFilled(ImVec2(f.x(c.sliding_window - 0.5f), f.a.y), f.b, with_alpha(text, 0.07f));
    }
    if (f.y_lo < 0.0f && f.y_hi > 0.0f)
        draw->AddLine(ImVec2(f.a.x, f.y(0)), ImVec2(f.b.x, f.y(0)), with_alpha(text, 0.3f));
    std::vector<ImVec2> pts;
    if (s.pair_waves)
        for (Eigen::Index i = 0; i < curve.pair_waves.rows(); ++i) {
            pts.clear();
            for (size_t j = 0; j < curve.offsets.size(); ++j)
                pts.push_back(
                    f.at(static_cast<float>(curve.offsets[j]), curve.pair_waves(i, static_cast<Eigen::Index>(j))));
            draw->AddPolyline(pts.data(), static_cast<int>(pts.size()), with_alpha(text, 0.35f), 0, 1.2f * scale);
        }
    pts.clear();
    for (size_t j = 0; j < curve.offsets.size(); ++j)
        pts.push_back(f.at(static_cast<float>(curve.offsets[j]), curve.scores[j]));
    draw->AddPolyline(pts.data(), static_cast<int>(pts.size()), kScoreColor, 0, 2.5f * scale);
    const float dot = std::clamp(spacing * 0.3f, 1.5f * scale, 0.28f * em);
    if (spacing > 0.5f * em)
        for (const ImVec2& q : pts) draw->AddCircleFilled(q, dot * 0.7f, kScoreColor);
    if (far)
        for (size_t j = 0; j < curve.offsets.size(); ++j)
            draw->AddCircle(f.at(static_cast<float>(curve.offsets[j]), far->scores[j]), dot + 1.5f * scale, kShiftColor,
                            0, 1.4f * scale);
    if (compact && v.use == AttentionUse::decoder_self) masked_band_label(ctx, f, pts);
    // The real offset: the trace's own score.
    const float x_real = f.x(static_cast<float>(curve.actual_offset));
    dashed_line(draw, ImVec2(x_real, f.a.y), ImVec2(x_real, f.b.y), with_alpha(kTraceColor, 0.8f), 0.3f * em,
                1.5f * scale);
    draw->AddCircleFilled(f.at(static_cast<float>(curve.actual_offset), curve.traced_scaled), 0.3f * em, kTraceColor);
    const std::string real = format("m − n = %d", curve.actual_offset);
    const float real_w = ImGui::CalcTextSize(real.c_str()).x;
    // Beside the dashed line, at the end of the plot away from the trace's dot.
    const bool dot_low = f.y(curve.traced_scaled) > (f.a.y + f.b.y) * 0.5f;
    const ImVec2 real_at(x_real + real_w + 0.4f * em < f.b.x ? x_real + 0.3f * em : x_real - real_w - 0.3f * em,
                         dot_low ? f.a.y + 0.2f * em : f.b.y - ImGui::GetTextLineHeight() - 0.2f * em);
    plot_backing(draw, ImVec2(real_at.x - 0.15f * em, real_at.y),
                 ImVec2(real_at.x + real_w + 0.15f * em, real_at.y + ImGui::GetTextLineHeight()));
    draw->AddText(real_at, kTraceColor, real.c_str());
    draw->PopClipRect();

    if (hovered) {
        const int delta = std::clamp(static_cast<int>(std::lround(f.x_at(ImGui::GetIO().MousePos.x))), -(T - 1), T - 1);
        const size_t j = static_cast<size_t>(delta + T - 1);
        const int key_pos = m - delta;
        draw->AddLine(ImVec2(f.x(static_cast<float>(delta)), f.a.y), ImVec2(f.x(static_cast<float>(delta)), f.b.y),
                      with_alpha(text, 0.5f));
        ImGui::BeginTooltip();
        ImGui::Text(ctx.t("δ = %d: the query at m = %d, the key at m − δ = %d"), delta, m, key_pos);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kScoreColor), ctx.t("score(δ) = %+.6f"), curve.scores[j]);
        for (const RopeShiftCheck& sh : curve.shifts)
            ImGui::Text(ctx.t("both positions moved by +%d: %+.6f"), sh.shift, sh.scores[j]);
        if (delta == curve.actual_offset)
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kTraceColor),
                               ctx.t("the trace: scaled[%d, %d, %d] = %+.6f"), v.ref.head, m, v.ref.key,
                               curve.traced_scaled);
        if (s.pair_waves)
            for (Eigen::Index i = 0; i < curve.pair_waves.rows(); ++i)
                ImGui::TextDisabled("%s %d: %+.5f", ctx.t("pair"), static_cast<int>(i),
                                    curve.pair_waves(i, static_cast<Eigen::Index>(j)));
        if (key_pos >= 0 && key_pos < T) ImGui::TextDisabled(ctx.t("Click: make row %d the key"), key_pos);
        ImGui::EndTooltip();
        if (clicked && key_pos >= 0 && key_pos < T) s.key = key_pos;
    }
    ImGui::Checkbox(ctx.t("Each pair's term"), &s.pair_waves);
    // The checks, in numbers.
    if (!curve.shifts.empty()) {
        std::string moved;
        for (const RopeShiftCheck& sh : curve.shifts)
            moved +=
                (moved.empty() ? "" : ",  ") + format("+%d → %.2g", sh.shift, static_cast<double>(sh.max_difference));
        text_wrapped_at_spaces(
            format(ctx.t("Shift check, both positions moved (largest change of any score): %s. Float rounding "
                         "only: the score depends on m − n alone."),
                   moved.c_str())
                .c_str());
    }
    ImGui::PushStyleColor(ImGuiCol_Text, kTraceColor);
    text_wrapped_at_spaces(
        format(ctx.t("At the real offset m − n = %d: the curve gives %+.6f, the trace's scaled[%d, %d, %d] is "
                     "%+.6f (difference %.2g)."),
               curve.actual_offset, curve.at_actual, v.ref.head, m, v.ref.key, curve.traced_scaled,
               static_cast<double>(curve.traced_difference))
            .c_str());
    ImGui::PopStyleColor();
}

// ---- (d) what rope_scaling does ----

const char* band_name(const PanelContext& ctx, RopeBand band) {
    switch (band) {
        case RopeBand::unscaled: return ctx.t("unscaled");
        case RopeBand::kept: return ctx.t("kept");
        case RopeBand::blended: return ctx.t("blended");
        case RopeBand::divided: return ctx.t("divided by the factor");
    }
    return "";
}

void frequency_tooltip(const PanelContext& ctx, const RopeFrequencies& fr, int i) {
    const RopePairFrequency& p = fr.pairs[static_cast<size_t>(i)];
    ImGui::BeginTooltip();
    ImGui::Text("%s %d", ctx.t("pair"), i);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kUnscaledColor), ctx.t("unscaled: θ_%d = %.6g, λ = 2π/θ = %.5g"),
                       i, p.theta, p.wavelength);
    if (fr.rope.scaling != RopeScaling::none) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kQueryColor), ctx.t("scaled: θ′_%d = %.6g, λ′ = %.5g"), i,
                           p.scaled_theta, p.scaled_wavelength);
        ImGui::Text("%s (θ/θ′ = %.3g)", band_name(ctx, p.band), static_cast<double>(p.theta / p.scaled_theta));
    }
    ImGui::EndTooltip();
}

void draw_scaling_block(PanelContext& ctx, const RopeTables& t, int n_tokens, float width) {
    const float em = ctx.em;
    const RopeFrequencies& fr = t.frequencies;
    const RopeConfig& rope = fr.rope;
    const bool scaled = rope.scaling != RopeScaling::none, llama3 = rope.scaling == RopeScaling::llama3;
    section_title(ctx.t("What rope_scaling does to the frequencies"));
    std::vector<LegendEntry> entries = {{scaled ? ctx.t("before scaling") : ctx.t("wavelength 2π/θ_i"),
                                         scaled ? kUnscaledColor : kQueryColor, Swatch::line}};
    if (scaled)
        entries.push_back({format(ctx.t("after %s scaling, factor %g"), to_string(rope.scaling).c_str(),
                                  static_cast<double>(rope.factor)),
                           kQueryColor, Swatch::line});
    if (n_tokens > 0) entries.push_back({format(ctx.t("this prompt: T = %d"), n_tokens), kScoreColor, Swatch::dashed});
    if (llama3) entries.push_back({ctx.t("blended band"), with_alpha(kShiftColor, 0.25f), Swatch::band});
    legend(entries, width);

    const int half = static_cast<int>(fr.pairs.size());
    double lo = 1e30, hi = 0.0;
    for (const RopePairFrequency& p : fr.pairs)
        lo = std::min({lo, p.wavelength, p.scaled_wavelength}), hi = std::max({hi, p.wavelength, p.scaled_wavelength});
    if (llama3) lo = std::min(lo, fr.high_freq_wavelength), hi = std::max(hi, fr.low_freq_wavelength);
    if (n_tokens > 0)
        lo = std::min(lo, static_cast<double>(n_tokens)), hi = std::max(hi, static_cast<double>(n_tokens));
    Frame f;
    f.log_y = true;
    f.y_lo = static_cast<float>(lo / 2.0), f.y_hi = static_cast<float>(hi * 2.0);
    f.x_lo = -0.5f, f.x_hi = static_cast<float>(half) - 0.5f;
    const float h = 12.0f * em;
    f = plot_frame(
        "##rope_scaling", ImVec2(width, h), f,
        integer_ticks(0.0f, static_cast<float>(half - 1), std::max(2, static_cast<int>(width / (3.0f * em)))),
        ctx.t("pair i (fast to slow)"));
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float scale = em / 17.0f;
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    draw->PushClipRect(f.a, f.b, true);
    // The band lines' labels, on a backing, where the wavelengths (rising from left to right) leave room: the
    // upper line's above it at the left, the lower line's below it at the right.
    struct LineLabel {
        float y;
        std::string text;
        bool above;
    };
    std::vector<LineLabel> line_labels;
    if (llama3) {
        const float y_low = f.y(static_cast<float>(fr.low_freq_wavelength)),
                    y_high = f.y(static_cast<float>(fr.high_freq_wavelength));
        draw->AddRectFilled(ImVec2(f.a.x, y_low), ImVec2(f.b.x, y_high), with_alpha(kShiftColor, 0.18f));
        draw->AddLine(ImVec2(f.a.x, y_low), ImVec2(f.b.x, y_low), with_alpha(kShiftColor, 0.8f), 1.2f * scale);
        draw->AddLine(ImVec2(f.a.x, y_high), ImVec2(f.b.x, y_high), with_alpha(kShiftColor, 0.8f), 1.2f * scale);
        line_labels.push_back({y_low,
                               format(ctx.t("L/low_freq_factor = %g: slower pairs ÷ %g"), fr.low_freq_wavelength,
                                      static_cast<double>(rope.factor)),
                               true});
        line_labels.push_back(
            {y_high, format(ctx.t("L/high_freq_factor = %g: faster pairs kept"), fr.high_freq_wavelength), false});
    }
    if (n_tokens > 0) {
        const float y = f.y(static_cast<float>(n_tokens));
        dashed_line(draw, ImVec2(f.a.x, y), ImVec2(f.b.x, y), kScoreColor, 0.3f * em, 1.4f * scale);
    }
    std::vector<ImVec2> before, after;
    for (int i = 0; i < half; ++i) {
        const RopePairFrequency& p = fr.pairs[static_cast<size_t>(i)];
        before.push_back(f.at(static_cast<float>(i), static_cast<float>(p.wavelength)));
        after.push_back(f.at(static_cast<float>(i), static_cast<float>(p.scaled_wavelength)));
    }
    const float dot = std::clamp((f.x(1.0f) - f.x(0.0f)) * 0.25f, 1.5f * scale, 0.3f * em);
    if (scaled) {
        for (int i = 0; i < half; ++i)  // what the scaling moved: a thin line from each pair's old to its new value
            draw->AddLine(before[static_cast<size_t>(i)], after[static_cast<size_t>(i)], with_alpha(kQueryColor, 0.45f),
                          1.0f * scale);
        draw->AddPolyline(before.data(), half, kUnscaledColor, 0, 2.0f * scale);
        for (const ImVec2& q : before) draw->AddCircle(q, dot, kUnscaledColor, 0, 1.5f * scale);
    }
    draw->AddPolyline(after.data(), half, kQueryColor, 0, 2.5f * scale);
    for (const ImVec2& q : after) draw->AddCircleFilled(q, dot, kQueryColor);
    for (const LineLabel& l : line_labels) {
        const ImVec2 ts = ImGui::CalcTextSize(l.text.c_str());
        const ImVec2 at(l.above ? f.a.x + 0.4f * em : f.b.x - ts.x - 0.4f * em,
                        l.above ? l.y - ts.y - 0.1f * em : l.y + 0.1f * em);
        plot_backing(draw, ImVec2(at.x - 0.2f * em, at.y), ImVec2(at.x + ts.x + 0.2f * em, at.y + ts.y));
        draw->AddText(at, dim, l.text.c_str());
    }
    draw->PopClipRect();
    if (hovered) {
        const int i = std::clamp(static_cast<int>(std::lround(f.x_at(ImGui::GetIO().MousePos.x))), 0, half - 1);
        draw->AddLine(ImVec2(f.x(static_cast<float>(i)), f.a.y), ImVec2(f.x(static_cast<float>(i)), f.b.y),
                      with_alpha(ImGui::GetColorU32(ImGuiCol_Text), 0.5f));
        frequency_tooltip(ctx, fr, i);
    }
    ImGui::TextDisabled("%s", ctx.t("λ: positions per full turn, on a log scale"));
    switch (rope.scaling) {
        case RopeScaling::none:
            text_disabled_wrapped(
                format(ctx.t("No rope_scaling: θ_i = θ^(−2i/D) with θ = %g. Pairs whose wavelength is far above the "
                             "prompt's length barely turn within it."),
                       static_cast<double>(rope.theta))
                    .c_str());
            break;
        case RopeScaling::linear:
            text_disabled_wrapped(format(ctx.t("Linear scaling: every pair turns %g times slower, so position p looks "
                                               "like position p/%g did in training."),
                                         static_cast<double>(rope.factor), static_cast<double>(rope.factor))
                                      .c_str());
            break;
        case RopeScaling::llama3:
            text_disabled_wrapped(
                format(
                    ctx.t("Llama 3 scaling, trained context L = %d: fast pairs (wavelength under L/high_freq_factor) "
                          "are kept, so nearby words are told apart as before; slow pairs (over L/low_freq_factor) "
                          "turn %g times slower, so long distances look like those seen in training; the pairs in "
                          "the band between are blended."),
                    rope.original_max_position, static_cast<double>(rope.factor))
                    .c_str());
            break;
    }
}

}  // namespace

void draw_rope_panel(PanelContext& ctx) {
    const ModelConfig& c = ctx.config();
    const Stack stack = stack_of(rope_attention_use(c));
    const SequenceView seq = stack == Stack::encoder ? ctx.session.source() : ctx.session.target();
    // On a projector the pairs and the score sit right under the sliders, where a class sees them turn as a slider
    // moves; the card says what RoPE does, and the intro and this model's θ wait on the pairs' title's hover.
    const bool compact = ctx.view.settings.classroom;
    const PositionMechanism positions(c);  // RoPE in every layer, or all but the NoPE layers it names
    const std::string intro = format(ctx.t(positions.encoding_text()), positions.nope_layers().c_str());
    // The chosen layer's base: a local layer's own (Gemma 3's local_rope_theta), else the model's.
    const std::string theta = format(ctx.t("θ_i = θ^(−2i/D),  θ = %g,  D = %d,  H = %d,  H_kv = %d"),
                                     static_cast<double>(rope_shown_at(c, ctx.view.positional.rope.layer).theta),
                                     c.d_head(), c.n_heads, c.kv_heads());
    if (!compact) {
        text_wrapped_at_spaces(intro.c_str());
        ImGui::TextDisabled("%s", theta.c_str());
    }
    const Choice ch = draw_controls(ctx, seq);
    if (ch.n_tokens == 0) {
        text_disabled_wrapped(
            ctx.t("Type token ids in the Input view (for example 1 14 9 17 6 3 22 8) to follow a "
                  "query and a key."));
        if (compact) ImGui::TextDisabled("%s", theta.c_str());  // no pairs to hover
    }
    ImGui::Spacing();

    const RopeTables& tables = rope_tables(ctx, rope_table_positions(ch.n_tokens));
    const RopeCache* view = nullptr;
    if (ch.n_tokens > 0) view = &rope_view_of(ctx, {ch.layer, ch.head, ch.query, ch.key});

    // Two blocks side by side when the window is wide enough, whether or not it shows a scroll bar (a layout
    // that depended on the bar could take it away and bring it back every other frame).
    const float avail = ImGui::GetContentRegionAvail().x, gap = 1.5f * ctx.em;
    const bool two = ImGui::GetWindowWidth() - 2.0f * ImGui::GetStyle().WindowPadding.x >= 46.0f * ctx.em;
    const float w = two ? (avail - gap) * 0.5f : avail;
    FlowLayout flow(avail, gap);
    const auto block = [&](auto&& draw_block) {
        flow.begin_block(w);
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
        draw_block();
        ImGui::PopTextWrapPos();
        ImGui::Dummy(ImVec2(0.0f, (compact ? 0.2f : 0.8f) * ctx.em));
        flow.end_block();
    };
    const auto need_view = [&](auto&& draw_with) {
        if (!view) return;
        if (view->view)
            draw_with(*view->view);
        else if (view->error == "not run yet")
            text_not_run_yet(ctx);
        else
            text_disabled_wrapped(view->error.c_str());
    };
    // What the sliders move first (the pairs, the score), then the angles of every pair and position.
    if (view)
        block([&] {
            need_view(
                [&](const RopeView& v) { draw_pairs_block(ctx, v, w, compact, intro + "\n" + theta); });
        });
    if (view) block([&] { need_view([&](const RopeView& v) { draw_score_block(ctx, v, w, compact); }); });
    block([&] { draw_angle_block(ctx, tables, ch, w); });
    block([&] { draw_scaling_block(ctx, tables, ch.n_tokens, w); });
    flow.finish();
}

}  // namespace attnlab::gui
