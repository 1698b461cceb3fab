#include "panels/tour_target.h"

#include <algorithm>
#include <cstdio>

namespace attnlab::gui {

namespace {

// Whether [min, max] lies inside the visible part of the current window: its clip rectangle, already cut by every
// parent window.
bool inside_visible_part(ImVec2 min, ImVec2 max) {
    const ImVec2 clip_min = ImGui::GetWindowDrawList()->GetClipRectMin(),
                 clip_max = ImGui::GetWindowDrawList()->GetClipRectMax();
    constexpr float kSlack = 1.0f;  // a border pixel on the clip edge still shows the widget
    return min.x >= clip_min.x - kSlack && min.y >= clip_min.y - kSlack && max.x <= clip_max.x + kSlack &&
           max.y <= clip_max.y + kSlack;
}

// Adds [min, max] to a mark's rectangle (its first: the rectangle), and whether it was visible.
void add_to_mark(bool& seen, ImVec2& mark_min, ImVec2& mark_max, bool& visible, ImVec2 min, ImVec2 max) {
    const bool inside = inside_visible_part(min, max);
    if (!seen) {
        mark_min = min;
        mark_max = max;
        visible = inside;
    } else {
        mark_min = ImVec2(std::min(mark_min.x, min.x), std::min(mark_min.y, min.y));
        mark_max = ImVec2(std::max(mark_max.x, max.x), std::max(mark_max.y, max.y));
        visible = visible && inside;
    }
    seen = true;
}

std::string rect_text(ImVec2 min, ImVec2 max) {
    char rect[96];
    std::snprintf(rect, sizeof rect, "(%.0f,%.0f)-(%.0f,%.0f)", min.x, min.y, max.x, max.y);
    return rect;
}

bool on_screen(ImVec2 min, ImVec2 max, ImVec2 screen) {
    return min.x >= 0.0f && min.y >= 0.0f && max.x <= screen.x && max.y <= screen.y;
}

}  // namespace

TourTargetProbe tour_target_probe(const TourChapter& chapter) {
    TourTargetProbe p;
    p.wanted = chapter.task;
    for (TourWatch w : chapter.watch) {
        TourWatchMark m;
        m.what = w;
        p.watched.push_back(m);
    }
    return p;
}

void mark_tour_target(PanelContext& ctx, TourTaskKind kind, ImVec2 min, ImVec2 max) {
    TourTargetProbe& p = ctx.caches.get<TourTargetProbe>();
    if (p.wanted == kind) add_to_mark(p.seen, p.min, p.max, p.visible, min, max);
}

void mark_tour_target_cells(PanelContext& ctx, TourTaskKind kind, float cell_pixels) {
    TourTargetProbe& p = ctx.caches.get<TourTargetProbe>();
    if (p.wanted == kind) p.cell_pixels = p.cell_pixels > 0.0f ? std::min(p.cell_pixels, cell_pixels) : cell_pixels;
}

void mark_tour_watch(PanelContext& ctx, TourWatch what, ImVec2 min, ImVec2 max) {
    for (TourWatchMark& m : ctx.caches.get<TourTargetProbe>().watched)
        if (m.what == what) add_to_mark(m.seen, m.min, m.max, m.visible, min, max);
}

void mark_tour_watch(PanelContext& ctx, TourWatch what) {
    mark_tour_watch(ctx, what, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
}

void mark_tour_target(PanelContext& ctx, TourTaskKind kind) {
    mark_tour_target(ctx, kind, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
}

void mark_tour_section(PanelContext& ctx, TourTaskKind kind) {
    TourTargetProbe& p = ctx.caches.get<TourTargetProbe>();
    if (p.wanted == kind && !p.section_top) p.section_top = ImGui::GetCursorScreenPos().y;
}

float scroll_y_to_section(const TourTargetProbe& p, float scroll_y, float visible_top, float visible_bottom,
                          float gap) {
    float top = p.section_top ? std::min(*p.section_top, p.min.y) : p.min.y, bottom = p.max.y;
    for (const TourWatchMark& m : p.watched)
        if (m.seen) top = std::min(top, m.min.y), bottom = std::max(bottom, m.max.y);
    const bool all_fit = bottom - top + gap <= visible_bottom - visible_top;
    return scroll_y + (all_fit ? top : p.min.y) - gap - visible_top;
}

bool watched_out_of_sight(const TourTargetProbe& p) {
    return std::any_of(p.watched.begin(), p.watched.end(), [](const TourWatchMark& m) { return m.seen && !m.visible; });
}

float scroll_y_to_watched(const TourTargetProbe& p, float scroll_y, float visible_top, float visible_bottom,
                          float gap) {
    float top = visible_bottom, bottom = visible_top;
    for (const TourWatchMark& m : p.watched)
        if (m.seen) top = std::min(top, m.min.y), bottom = std::max(bottom, m.max.y);
    const bool fits = bottom - top + 2.0f * gap <= visible_bottom - visible_top;
    return scroll_y + (fits ? bottom + gap - visible_bottom : top - gap - visible_top);
}

std::string tour_target_problem(const TourTargetProbe& p, ImVec2 screen, TourTaskKind kind) {
    if (!p.task_shown) return "the card's task is cut off";
    if (!p.squeezed_cell.empty()) return "a table cell is narrower than its text: " + p.squeezed_cell;
    const std::string what = tour_target_name(kind);
    if (!p.seen) return "not drawn: " + what;
    if (!p.visible || !on_screen(p.min, p.max, screen))
        return "not fully on screen: " + what + " at " + rect_text(p.min, p.max);
    if (p.cell_pixels > 0.0f && p.cell_pixels < kLeastTargetCellPixels) {
        char size[96];
        std::snprintf(size, sizeof size, "%.1f px a side, under the %.0f px a room can see and click",
                      static_cast<double>(p.cell_pixels), static_cast<double>(kLeastTargetCellPixels));
        return "too small: the cells of " + what + " are " + size;
    }
    for (const TourWatchMark& m : p.watched) {
        const std::string watched = tour_watch_name(m.what);
        if (!m.seen) return "not drawn: " + watched + ", which the task says to watch";
        if (!m.visible || !on_screen(m.min, m.max, screen))
            return "not fully on screen with " + what + ": " + watched + " at " + rect_text(m.min, m.max);
    }
    return "";
}

const char* tour_target_name(TourTaskKind kind) {
    switch (kind) {
        case TourTaskKind::step_past: return "the step-forward button";
        case TourTaskKind::edit_source: return "the source token chips";
        case TourTaskKind::toggle_mask_cell: return "the mask to click";
        case TourTaskKind::ablate_head: return "the grid of heads";
        case TourTaskKind::change_temperature: return "the temperature slider";
        case TourTaskKind::change_pe_dims: return "the dimension sliders";
        case TourTaskKind::change_experiment_keys: return "the slider of n";
        case TourTaskKind::change_rope_rows: return "the query and key sliders";
        case TourTaskKind::switch_norm_placement: return "the norm placement switch";
        case TourTaskKind::scrub_checkpoint: return "the checkpoint slider and its plots";
        case TourTaskKind::ablate_strongest_head: return "the selected head's switch in Why this output?";
    }
    return "";
}

const char* tour_watch_name(TourWatch what) {
    switch (what) {
        case TourWatch::rope_pairs: return "the pair circles";
        case TourWatch::rope_score: return "the plot of the score against the offset";
        case TourWatch::padding_masks: return "the padding masks";
        case TourWatch::ffn_rows: return "the FFN's rows of every token";
    }
    return "";
}

}  // namespace attnlab::gui
