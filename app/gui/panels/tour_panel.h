// The guided tour's card: the chapter's section and title, what to look at, the task and whether
// it is done, the keys, and buttons for the previous and next chapter. It only asks; the App acts.
#pragma once

#include "panels/panel_context.h"
#include "tour.h"

namespace attnlab::gui {

struct TourRequest {
    enum Kind { none, open, close, export_slides } kind = none;
    int chapter = 0;  // open: which
};

TourRequest draw_tour_panel(PanelContext& ctx, const TourRunner& tour);

// The card's width in classroom mode, where it stands `card_h` tall beside the view in a window `window_w` wide:
// a third of the window (16 to 30 em), or wider, up to half of it, as the chapter needs to show whole (its text,
// task, done note, chips and buttons) without its text box scrolling.
float classroom_tour_card_width(const PanelContext& ctx, const TourRunner& tour, float window_w, float card_h);

}  // namespace attnlab::gui
