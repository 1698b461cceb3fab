// The model view.
#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_model_panel(PanelContext& ctx) { ImGui::TextUnformatted(ctx.t("model")); }

}  // namespace attnlab::gui
