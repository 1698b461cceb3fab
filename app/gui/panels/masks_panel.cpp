// The masks view.
#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_masks_panel(PanelContext& ctx) { ImGui::TextUnformatted(ctx.t("masks")); }

}  // namespace attnlab::gui
