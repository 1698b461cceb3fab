// The input view.
#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_input_panel(PanelContext& ctx) { ImGui::TextUnformatted(ctx.t("input")); }

}  // namespace attnlab::gui
