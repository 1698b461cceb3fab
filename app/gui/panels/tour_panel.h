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

}  // namespace attnlab::gui
