// The model view's lower sections: a new random model, and opening and saving model files.
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_random_model(PanelContext& ctx);  // preset, seed, heads -> new_random_model
void draw_open_save(PanelContext& ctx);     // path + Open/Browse, bundled and recent files, path + Save

// A one-line path field over `typed`, which the caller keeps between frames (not Dear ImGui's one edit buffer,
// which the next field clicked takes over): a path that failed to open stays to be fixed. True on Enter.
bool path_field(const char* id, const char* hint, std::string& typed);

}  // namespace attnlab::gui
