// Font loading: NanumGothic's Korean ranges, then DejaVu Sans merged in for the symbols the UI draws.
#include "fonts.h"

#include "text/utf8.h"

#include <imgui.h>

#include <cstdio>
#include <filesystem>

namespace attnlab::gui {

namespace {

// From DejaVu Sans: what NanumGothic lacks or draws poorly. Formula symbols (ᵀ, √, ∞, ·, ≠, ∧, ⊙, sub- and
// superscripts, arrows, ⌈⌉), Latin Extended-A (GPT-2's byte-level tokens write a space as Ġ and a newline as Ċ),
// combining marks (a decomposed "é" of a pasted text), general punctuation (— … ‖ ′, the zero-width joiner), the
// box and block elements (SentencePiece writes a space as ▁), geometric shapes (▶ ◀ ●), the player's ⏮ ⏭,
// the dingbats (the task's ✓), and U+FFFD, which ImGui then draws for any character no font has.
constexpr ImWchar kDejaVuRanges[] = {
    0x00B7, 0x00B7,  // ·
    0x0100, 0x017F,  // Latin Extended-A
    0x0300, 0x036F,  // combining diacritical marks
    0x0370, 0x03FF,  // Greek
    0x1D40, 0x1D40,  // ᵀ
    0x2000, 0x206F,  // general punctuation
    0x2070, 0x209F,  // superscripts and subscripts
    0x2190, 0x21FF,  // arrows
    0x2200, 0x22FF,  // mathematical operators
    0x2300, 0x23FF,  // miscellaneous technical
    0x2500, 0x257F,  // box drawing
    0x2580, 0x259F,  // block elements
    0x25A0, 0x25FF,  // geometric shapes
    0x2600, 0x26FF,  // miscellaneous symbols
    0x2700, 0x27BF,  // dingbats
    0xFFFD, 0xFFFD,  // the replacement character
    0};

constexpr float kOversampledBelowPixels = 30.0f;

bool invisible_or_stacked(char32_t c) {
    return (c >= 0x0300 && c <= 0x036F) || (c >= 0x200B && c <= 0x200F) || (c >= 0xFE00 && c <= 0xFE0F);
}

}  // namespace

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
        // Horizontal oversampling places small glyphs at half pixels; large type (a 4K screen's 34 or 54 px) needs
        // none, and without it every Hangul syllable at 54 px still fits a 4096 × 16384 atlas.
        config.OversampleH = pixel_size < kOversampledBelowPixels ? 2 : 1;
        if (io.Fonts->AddFontFromFileTTF(path, pixel_size, &config, io.Fonts->GetGlyphRangesKorean())) {
            const char* symbol_font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
            if (std::filesystem::exists(symbol_font)) {
                ImFontConfig merge;
                merge.MergeMode = true;
                if (pixel_size >= kOversampledBelowPixels) merge.OversampleH = 1;
                io.Fonts->AddFontFromFileTTF(symbol_font, pixel_size, &merge, kDejaVuRanges);
            }
            return path;
        }
    }
    ImFontConfig fallback;
    fallback.SizePixels = pixel_size;
    io.Fonts->AddFontDefault(&fallback);
    return "";
}

std::string hidden_code_points(std::string_view utf8) {
    const ImFont* font = ImGui::GetIO().Fonts->Fonts.empty() ? nullptr : ImGui::GetIO().Fonts->Fonts[0];
    const std::string text = replace_invalid_utf8(utf8);
    std::string out;
    for (size_t i = 0; i < text.size();) {
        const char32_t c = next_code_point(text, &i);
        const bool drawn = c <= IM_UNICODE_CODEPOINT_MAX && font &&
                           font->FindGlyphNoFallback(static_cast<ImWchar>(c)) != nullptr && !invisible_or_stacked(c);
        if (drawn) continue;
        char name[16];
        std::snprintf(name, sizeof name, "%sU+%04X", out.empty() ? "" : " ", static_cast<unsigned>(c));
        out += name;
    }
    return out;
}

}  // namespace attnlab::gui
