// The training view's history of a model opened with one beside it (app/model/checkpoint_player.h): Play, a slider
// over the checkpoints with the step and the loss on either copy at it, and the copy losses and head scores
// (induction_plots.h) with the scrubbed step marked. Moving the slider shows that checkpoint in every view.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

// Draws the history of the session's model in `height` pixels from the cursor and returns true; false (drawing
// nothing) when the model has none beside it. A history that could not be read is its one-line error.
bool draw_checkpoint_history(PanelContext& ctx, float height);

}  // namespace attnlab::gui
