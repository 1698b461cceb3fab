// The attention view.
#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_attention_panel(PanelContext& ctx) { ImGui::TextUnformatted(ctx.t("attention")); }

}  // namespace attnlab::gui
