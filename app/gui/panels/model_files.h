// The model view's lower sections: a new random model, and opening and saving model files.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_random_model(PanelContext& ctx);  // preset, seed, heads -> new_random_model
void draw_open_save(PanelContext& ctx);     // path + Open/Browse, bundled and recent files, path + Save

}  // namespace attnlab::gui
