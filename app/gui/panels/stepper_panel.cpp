// The stepper view.
#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_stepper_panel(PanelContext& ctx) { ImGui::TextUnformatted(ctx.t("stepper")); }

}  // namespace attnlab::gui
