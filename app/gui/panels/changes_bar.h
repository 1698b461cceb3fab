// The changes bar: one line above every view that lists what the session runs differently from
// the model file (heads off, mask cells, edited weights, switches), each a button that undoes it.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

// Draws nothing when nothing differs.
void draw_changes_bar(PanelContext& ctx);

}  // namespace attnlab::gui
