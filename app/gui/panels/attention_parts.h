// The attention view's parts, each in its own file: the layer × head grid (attention_grid.cpp), the
// BertViz-style head view (head_view.cpp) and the stage player (stage_player.cpp); attention_panel.cpp
// puts them together. What they share is below.
#pragma once

#include "panels/panel_context.h"

#include <string>
#include <vector>

namespace attnlab::gui {

// One attention's tokens: its weights' rows (queries) and columns (keys).
struct AttentionTokens {
    std::vector<std::string> queries, keys;
};
AttentionTokens attention_tokens(const PanelContext& ctx, const AttentionSite& site);

inline StepId weights_of(const AttentionSite& site) { return StepId::attention_at(site, AttentionStage::weights); }
bool head_is_off(const PanelContext& ctx, const AttentionSite& site, int head);

// The layer × head grid of one family's softmax weights, with token labels on its edges, a shared colour
// bar, and a hovered head enlarged. A click opens a head; a right-click switches it off or on.
void draw_attention_grid(PanelContext& ctx, AttentionUse use, int n_layers);

// Every head of one layer as lines from queries (left) to keys (right), one colour per head, filling the
// space left in the window; hover a token to see its lines alone, click to keep it.
void draw_head_view(PanelContext& ctx, const AttentionSite& site);

// "Play stages": the button (Stop while it plays), and while it plays the head's matrix turning from QKᵀ into
// weights and ×V, drawn in the space left. draw_stage_player returns false when it is not playing (the caller
// draws its own matrix then); the stage buttons follow it through ctx.view.attention.stage.
void stage_player_button(PanelContext& ctx, const AttentionSite& site, int head);
bool draw_stage_player(PanelContext& ctx, const AttentionSite& site, int head);

}  // namespace attnlab::gui
