// The residual view.
#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_residual_panel(PanelContext& ctx) { ImGui::TextUnformatted(ctx.t("residual")); }

}  // namespace attnlab::gui
