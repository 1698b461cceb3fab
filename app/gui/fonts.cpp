// Font loading with Korean glyph ranges.
#include "fonts.h"

#include <imgui.h>

#include <filesystem>

namespace attnlab::gui {

std::string load_ui_font(float pixel_size) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    const char* candidates[] = {
        "/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
        "/usr/share/fonts/truetype/nanum/NanumBarunGothic.ttf",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    };
    for (const char* path : candidates) {
        if (!std::filesystem::exists(path)) continue;
        ImFontConfig config;
        config.OversampleH = 2;
        if (io.Fonts->AddFontFromFileTTF(path, pixel_size, &config, io.Fonts->GetGlyphRangesKorean())) {
            // Mathematical symbols used in formulas (√, ⋅, ∧, −, ∞, …) and the superscript T.
            static const ImWchar kMath[] = {0x00B2, 0x00B7, 0x0391, 0x03C9, 0x1D40, 0x1D40, 0x2018, 0x2044,
                                            0x2080, 0x208F, 0x2190, 0x21FF, 0x2200, 0x22FF, 0x25A0, 0x25FF, 0};
            ImFontConfig merge;
            merge.MergeMode = true;
            io.Fonts->AddFontFromFileTTF(path, pixel_size, &merge, kMath);
            return path;
        }
    }
    ImFontConfig fallback;
    fallback.SizePixels = pixel_size;
    io.Fonts->AddFontDefault(&fallback);
    return "";
}

}  // namespace attnlab::gui
