// The positional view.
#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_positional_panel(PanelContext& ctx) { ImGui::TextUnformatted(ctx.t("positional")); }

}  // namespace attnlab::gui
