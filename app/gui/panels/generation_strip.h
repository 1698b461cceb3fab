// The Output view's generation token by token: its controls (Play, Pause/Resume, Stop, speed and how it
// ended) and the target as a strip of tokens, this run's in colour and the newest highlighted as it
// appears. The run itself is OutputViewState::animation (app/model/generation_player.h).
#pragma once

#include "panels/panel_context.h"

namespace attnlab::gui {

void generation_animation_controls(PanelContext& ctx);
// Why the target ends where it does, when it ends: "The target ends with </s>: the translation is finished."
// or "Stopped at the length limit, T = 64, without </s>."; empty while it is open.
std::string target_end_note(const Session& session, bool korean);
void generated_tokens_strip(PanelContext& ctx);

}  // namespace attnlab::gui
