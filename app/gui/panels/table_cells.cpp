// Table cells that are never squeezed unseen (see table_cells.h).
#include "panels/table_cells.h"

#include "panels/tour_target.h"
#include "panels/word_wrap.h"

#include <algorithm>
#include <cstdio>

namespace attnlab::gui {

namespace {

float text_width(std::string_view s) { return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x; }

// Records the first cell of the frame whose `text` (one line or one word) is wider than what its column leaves.
void check_fits(PanelContext& ctx, std::string_view text) {
    const float need = text_width(text), room = ImGui::GetContentRegionAvail().x;
    TourTargetProbe& probe = ctx.caches.get<TourTargetProbe>();
    if (need <= room + 0.5f || !probe.squeezed_cell.empty()) return;
    const int column = ImGui::TableGetColumnIndex();
    char line[256];
    std::snprintf(line, sizeof line, "column %d (%s): \"%.*s\" is %.0f px wide, the column %.0f", column,
                  ImGui::TableGetColumnName(column), static_cast<int>(text.size()), text.data(), need, room);
    probe.squeezed_cell = line;
}

}  // namespace

void table_cell_text(PanelContext& ctx, const char* text) {
    ImGui::TableNextColumn();
    check_fits(ctx, text);
    ImGui::PushTextWrapPos(-1.0f);  // never wrapped: a number cut into "0." and "95" reads as two
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
}

void table_wrapped_headers(PanelContext& ctx) {
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, ImGui::GetColorU32(ImGuiCol_TableHeaderBg));
    for (int column = 0; column < ImGui::TableGetColumnCount(); ++column) {
        ImGui::TableSetColumnIndex(column);
        const std::string_view label = ImGui::TableGetColumnName(column);
        for (size_t start = 0; start < label.size();) {  // each word must fit: the label wraps between them
            const size_t end = std::min(label.find(' ', start), label.size());
            if (end > start) check_fits(ctx, label.substr(start, end - start));
            start = end + 1;
        }
        const std::string lines = wrap_at_spaces(label, ImGui::GetContentRegionAvail().x, text_width);
        ImGui::PushTextWrapPos(-1.0f);
        ImGui::TextUnformatted(lines.c_str());
        ImGui::PopTextWrapPos();
    }
}

float table_column_width(const std::string& label, const std::vector<std::string>& cells,
                         const std::function<float(std::string_view)>& measure) {
    float w = 0.0f;
    for (const std::string& cell : cells) w = std::max(w, measure(cell));
    const std::string_view words = label;
    for (size_t start = 0; start < words.size();) {
        const size_t end = std::min(words.find(' ', start), words.size());
        w = std::max(w, measure(words.substr(start, end - start)));
        start = end + 1;
    }
    return w;
}

}  // namespace attnlab::gui
