// The Training view's form fields that both kinds of run share (steps, seed, batch, threads), and the layout
// helper that puts each label and its widget on the line when they fit.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

// A label, then its widget `width` wide; after the first, the pair goes on the same line if it fits.
void field_label(const char* label, float width, bool first);

// Steps, seed, batch (`batch_tip`: what a batch holds) and threads, each clamped to what a run accepts.
void draw_run_fields(PanelContext& ctx, const char* batch_tip);

}  // namespace attnlab::gui
