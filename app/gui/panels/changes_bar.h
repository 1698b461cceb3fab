// The changes bar: one line above every view that lists what the session runs differently from
// the model file (heads off, mask cells, edited weights, switches), each a button that undoes it.
#pragma once

#include "model_changes.h"
#include "panels/panel_context.h"

#include <string>

namespace attnlab::gui {

// A switch's item as the bar writes it, without its ×: "LayerNorm: Pre-LN (trained with Post-LN)", and on an
// RMSNorm model "RMSNorm: Post-norm (trained with Pre-norm)"; "(was …)" after a random model. `which` is not other.
std::string switch_change_text(const ModelConfig& live, const ModelConfig& loaded, ConfigSwitch which,
                               ModelOrigin origin, bool korean);

// Draws nothing when nothing differs.
void draw_changes_bar(PanelContext& ctx);

}  // namespace attnlab::gui
