// The Input view's corrupted input for activation patching (the Output view's "Patching"): a sentence tokenized as
// the clean one is (the source beside an encoder, else the prompt; token ids without a vocabulary), its token
// count beside the clean one's, its tokens with those that differ marked, and under the field the one-line reason
// it cannot be patched (a length that differs). A button opens the patching view. The text lives in the view state.
#pragma once

#include "corrupted_input.h"
#include "panels/panel_context.h"

#include <string>

namespace attnlab::gui {

void draw_corrupted_input(PanelContext& ctx);

// Its tokens on lines that wrap, those that differ from the clean run's in orange.
void corrupted_tokens(const PanelContext& ctx, const CorruptedInput& corrupted);

// Why `corrupted` cannot be patched, in one line of the UI's language (a length that differs in words, another
// reason as the model gives it); empty when it can.
std::string corrupted_error_text(const PanelContext& ctx, const CorruptedInput& corrupted);

}  // namespace attnlab::gui
