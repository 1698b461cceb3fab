// The weights view.
#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_weights_panel(PanelContext& ctx) { ImGui::TextUnformatted(ctx.t("weights")); }

}  // namespace attnlab::gui
