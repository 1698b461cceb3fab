// Text fields and per-field error lines shared by the input and model panels.
#include "panels/input_fields.h"

#include <imgui_internal.h>  // GetInputTextState: the last edited field's text
#include <imgui_stdlib.h>

namespace attnlab::gui {

namespace {

// Window-storage keys for the field that issued the failed command and that error's text hash.
constexpr const char* kFailedField = "##failed_field";
constexpr const char* kFailedMessage = "##failed_message";

int message_hash(const std::string& message) { return static_cast<int>(ImHashStr(message.c_str())); }

}  // namespace

bool remembered_text_field(const char* id, const char* hint, const std::string& fallback, std::string& text) {
    text = fallback;
    const ImGuiInputTextState* state = ImGui::GetInputTextState(ImGui::GetID(id));
    if (state && state->TextAIsValid && state->TextA.Data) text = state->TextA.Data;
    return ImGui::InputTextWithHint(id, hint, &text, ImGuiInputTextFlags_EnterReturnsTrue);
}

void note_command(ImGuiID field, bool ok, const Session& session) {
    if (ok) return;  // a success clears the session's error, so no line shows
    ImGuiStorage* storage = ImGui::GetStateStorage();
    storage->SetInt(ImHashStr(kFailedField), static_cast<int>(field));
    storage->SetInt(ImHashStr(kFailedMessage), message_hash(session.error()));
}

void field_error(const Session& session, ImGuiID field) {
    if (session.error().empty()) return;
    const ImGuiStorage* storage = ImGui::GetStateStorage();
    if (storage->GetInt(ImHashStr(kFailedField)) != static_cast<int>(field)) return;
    if (storage->GetInt(ImHashStr(kFailedMessage)) != message_hash(session.error())) return;
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.35f, 0.3f, 1.0f));
    ImGui::TextWrapped("%s", session.error().c_str());
    ImGui::PopStyleColor();
}

bool escape_in_field(ImGuiID field) {
    return ImGui::GetActiveID() == field && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false);
}

}  // namespace attnlab::gui
