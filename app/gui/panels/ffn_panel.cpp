// The ffn view.
#include "panels/panel_context.h"

namespace attnlab::gui {

void draw_ffn_panel(PanelContext& ctx) { ImGui::TextUnformatted(ctx.t("ffn")); }

}  // namespace attnlab::gui
