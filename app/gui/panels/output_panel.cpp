// The output view.
#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_output_panel(PanelContext& ctx) { ImGui::TextUnformatted(ctx.t("output")); }

}  // namespace attnlab::gui
