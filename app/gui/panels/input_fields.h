// Text fields and per-field error lines shared by the input and model panels. Their little
// state lives in Dear ImGui (the window's state storage, the last edited field's text), so
// panels keep none of their own.
#pragma once

#include "panels/panel_context.h"

#include <string>

namespace attnlab::gui {

// A one-line text field whose text survives losing focus while it is the last field edited;
// otherwise it shows `fallback`. Returns true when Enter is pressed. `text` receives the content.
bool remembered_text_field(const char* id, const char* hint, const std::string& fallback, std::string& text);

// Records the outcome of a command issued from `field` (an ImGui id in the current window).
void note_command(ImGuiID field, bool ok, const Session& session);
// The session's error in red, if the last failed command came from `field` and still stands.
void field_error(const Session& session, ImGuiID field);

// Whether Escape is pressed this frame while the field `field` (an ImGui id in the current window)
// has the keyboard. Call it before the field: Dear ImGui then puts back the text the field had when
// it was clicked and reports that as an edit, which a field that applies as it is typed must ignore.
bool escape_in_field(ImGuiID field);

}  // namespace attnlab::gui
