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
            // From DejaVu Sans: formula symbols NanumGothic lacks or draws poorly (ᵀ, √, ∞, ·, ≠, ∧, subscripts),
            // Latin Extended-A, where GPT-2's byte-level tokens write a space as Ġ and a newline as Ċ, and the block
            // elements, where SentencePiece's pieces write a space as ▁.
            const char* math_font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
            if (std::filesystem::exists(math_font)) {
                static const ImWchar kMath[] = {0x00B7, 0x00B7, 0x0100, 0x017F, 0x0370, 0x03FF, 0x1D40,
                                                0x1D40, 0x2016, 0x2044, 0x2070, 0x209F, 0x2190, 0x21FF,
                                                0x2200, 0x22FF, 0x2580, 0x259F, 0x25A0, 0x25FF, 0};
                ImFontConfig merge;
                merge.MergeMode = true;
                io.Fonts->AddFontFromFileTTF(math_font, pixel_size, &merge, kMath);
            }
            return path;
        }
    }
    ImFontConfig fallback;
    fallback.SizePixels = pixel_size;
    io.Fonts->AddFontDefault(&fallback);
    return "";
}

}  // namespace attnlab::gui
