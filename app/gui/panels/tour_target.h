// Where the open tour chapter's task widget (the mask to click, the slider to move, …) and the heading
// of its section were drawn this frame, so the App can scroll the view to them and a headless run can
// check the widget is on screen.
// A panel that draws a task's widget calls mark_tour_target after it; without a tour it costs a compare.
#pragma once

#include "panels/panel_context.h"
#include "teach/tour.h"

#include <optional>
#include <string>
#include <vector>

namespace attnlab::gui {

// Where a widget the task says to watch (the pair circles, the padding masks) was drawn this frame.
struct TourWatchMark {
    TourWatch what;
    bool seen = false;    // a panel drew it this frame
    ImVec2 min, max;      // its rectangle, screen pixels (the union of every mark)
    bool visible = true;  // every mark lay inside the visible part of its window
};

struct TourTargetProbe {
    std::optional<TourTaskKind> wanted;  // the open chapter's task; none without a tour
    bool seen = false;                   // a panel drew the task's widget this frame
    ImVec2 min, max;                     // its rectangle, screen pixels (the union of every mark)
    std::optional<float> section_top;    // the top of the heading over its section, screen y, if the panel names one
    bool visible = true;                 // every mark lay inside the visible part of its window
    bool task_shown = true;              // the card's task text was not cut off
    std::string squeezed_cell;           // the first table cell narrower than its text (table_cells.h), if any
    float cell_pixels = 0.0f;            // the task's widget is a grid of cells to click (a mask): their side; else 0
    std::vector<TourWatchMark> watched;  // one per widget the open chapter's task says to watch
};

// A probe for the open chapter: its task's widget and what it says to watch, none of them drawn yet.
TourTargetProbe tour_target_probe(const TourChapter& chapter);

// Records the rectangle [min, max] as the widget of task `kind`, if that is the open chapter's task.
void mark_tour_target(PanelContext& ctx, TourTaskKind kind, ImVec2 min, ImVec2 max);
// The same for the last item drawn.
void mark_tour_target(PanelContext& ctx, TourTaskKind kind);

// Records the rectangle [min, max] (or the last item's) as the widget `what` that the open chapter says to watch,
// if it says so.
void mark_tour_watch(PanelContext& ctx, TourWatch what, ImVec2 min, ImVec2 max);
void mark_tour_watch(PanelContext& ctx, TourWatch what);

// The side, in pixels, of the cells of task `kind`'s widget when it is a grid of cells to click (the mask whose
// cell the chapter flips), if that is the open chapter's task; the smallest, when several grids are marked.
void mark_tour_target_cells(PanelContext& ctx, TourTaskKind kind, float cell_pixels);
// A room sees and hits a cell of at least this many pixels a side on a projector (the audit's D11: 6 px at
// 1024x768 could be neither seen nor clicked).
constexpr float kLeastTargetCellPixels = 10.0f;

// Records the cursor's line as the top of the heading of task `kind`'s section, if that is the open
// chapter's task: call it just before the heading. Scrolled into view, the widget shows from there.
void mark_tour_section(PanelContext& ctx, TourTaskKind kind);

// The vertical scroll that brings the probe's widget, with what it says to watch, into view from the top of its
// section (or the watched widget above it), or from the widget's own top when all of it together is taller than
// the window's visible part [visible_top, visible_bottom] (screen y). That top goes `gap` below visible_top, at most the space between lines:
// whatever is above is then wholly out of view, never a line cut in half.
float scroll_y_to_section(const TourTargetProbe& probe, float scroll_y, float visible_top, float visible_bottom,
                          float gap);

// Empty if the probe saw the task's widget drawn fully inside its window's visible part and inside
// a `screen`-sized window together with every widget the task says to watch, the card's task was not cut off,
// no table cell was narrower than its text and the cells to click were at least kLeastTargetCellPixels; else what was wrong, in one line ("not fully on screen: the
// mask to click at (402,610)-(690,898)").
std::string tour_target_problem(const TourTargetProbe& probe, ImVec2 screen, TourTaskKind kind);

// Whether a widget the task says to watch was drawn out of the visible part of its window (the view), where the
// widget the task uses is elsewhere (on the card): the view then scrolls to it with scroll_y_to_watched.
bool watched_out_of_sight(const TourTargetProbe& probe);
// The vertical scroll that brings the watched widgets' bottom `gap` above visible_bottom, or, when they are taller
// than the visible part [visible_top, visible_bottom] (screen y), their top `gap` below visible_top.
float scroll_y_to_watched(const TourTargetProbe& probe, float scroll_y, float visible_top, float visible_bottom,
                          float gap);

// The widget a task asks for, in English for the headless check's message ("the temperature slider").
const char* tour_target_name(TourTaskKind kind);
// The same for a watched widget ("the pair circles").
const char* tour_watch_name(TourWatch what);

}  // namespace attnlab::gui
