// The Training view's form for training the model the views show: the file it trains on (typed, or picked with
// the file chooser), what the file holds, the window length and the learning rate, then the run's size.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_opened_model_form(PanelContext& ctx);

// "it trains on the next token of each window", on masked tokens, or on pairs: what a model of `arch` learns from.
const char* what_it_trains_on(const PanelContext& ctx, Arch arch);

}  // namespace attnlab::gui
