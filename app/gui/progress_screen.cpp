// The progress card over the last frame, drawn between the stepper's steps.
#include "progress_screen.h"

#include "gl/gl.h"
#include "i18n.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace attnlab::gui {

namespace {

// dst becomes a copy of src's commands and buffers, keeping dst's arrays when they are large enough.
template <class T>
void copy_into(ImVector<T>& dst, const ImVector<T>& src) {
    dst.resize(src.Size);
    if (src.Size > 0) std::memcpy(dst.Data, src.Data, static_cast<size_t>(src.size_in_bytes()));
}

}  // namespace

std::string progress_text(const WorkProgress& p, double seconds, bool korean) {
    const std::string path = p.step_path ? *p.step_path : std::string();
    char line[512];
    if (p.first == 0)
        std::snprintf(line, sizeof line, tr(korean, "Running the forward pass: step %zu of %zu (%s), %.1f s"), p.at + 1,
                      p.end, path.c_str(), seconds);
    else
        std::snprintf(line, sizeof line, tr(korean, "Re-running steps %zu to %zu: at step %zu (%s), %.1f s"),
                      p.first + 1, p.end, p.at + 1, path.c_str(), seconds);
    return line;
}

ProgressScreen::ProgressScreen(GLFWwindow* window, UiRenderer& renderer, std::function<bool(ImTextureID)> is_opaque)
    : window_(window), renderer_(renderer), is_opaque_(std::move(is_opaque)) {}

void ProgressScreen::begin_frame(bool korean) {
    korean_ = korean;
    work_start_ = std::chrono::steady_clock::now();
    last_draw_ = {};
    work_drawing_ = 0.0;
}

void ProgressScreen::keep_frame(const ImDrawData& data) {
    kept_count_ = 0;
    dimmed_current_ = false;  // a new picture to dim
    if (!data.Valid) return;
    for (int n = 0; n < data.CmdListsCount; ++n) {
        if (kept_.size() <= static_cast<size_t>(n)) kept_.push_back(std::make_unique<ImDrawList>(nullptr));
        const ImDrawList& src = *data.CmdLists[n];
        ImDrawList& dst = *kept_[static_cast<size_t>(n)];
        copy_into(dst.CmdBuffer, src.CmdBuffer);
        copy_into(dst.IdxBuffer, src.IdxBuffer);
        copy_into(dst.VtxBuffer, src.VtxBuffer);
        dst.Flags = src.Flags;
    }
    kept_count_ = data.CmdListsCount;
    display_pos_ = data.DisplayPos;
    display_size_ = data.DisplaySize;
    framebuffer_scale_ = data.FramebufferScale;
}

void ProgressScreen::on_progress(const WorkProgress& progress) {
    if (drawing_ || ImGui::GetCurrentContext() == nullptr || ImGui::GetFrameCount() == 0) return;
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - work_start_).count();
    if (seconds < kShowAfterSeconds || std::chrono::duration<double>(now - last_draw_).count() < kRedrawSeconds ||
        work_drawing_ > kMostDrawing * seconds)
        return;
    drawing_ = true;
    glfwPollEvents();  // the window answers the window system: moved, exposed, resized
    draw(progress, seconds);
    last_draw_ = std::chrono::steady_clock::now();
    const double took = std::chrono::duration<double>(last_draw_ - now).count();
    seconds_drawing_ += took;
    work_drawing_ += took;
    drawing_ = false;
}

void ProgressScreen::draw(const WorkProgress& progress, double seconds) {
    GLint bound = 0;  // a slide's target, when a slide's frame started the work: the card goes to the window
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &bound);
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window_, &fb_w, &fb_h);
    if (!dimmed_current_ || !dimmed_ || dimmed_->width() != fb_w || dimmed_->height() != fb_h) {
        if (!dimmed_ || dimmed_->width() != fb_w || dimmed_->height() != fb_h) {
            dimmed_.reset();  // its memory before the new one's
            if (auto made = OffscreenTarget::create(fb_w, fb_h)) dimmed_.emplace(std::move(*made));
        }
        if (dimmed_) {
            dimmed_->bind();
            render_dimmed_frame(fb_w, fb_h);
            dimmed_current_ = true;
        }
    }
    if (dimmed_)
        dimmed_->copy_to_window();
    else {  // no offscreen picture to be had: the whole frame for every card
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        render_dimmed_frame(fb_w, fb_h);
    }
    ImDrawList card(ImGui::GetDrawListSharedData());
    begin_list(card);
    add_card(card, progress, seconds);
    std::vector<ImDrawList*> lists{&card};
    render_lists(lists, fb_w, fb_h);
    glfwSwapBuffers(window_);
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(bound));
    ++cards_drawn_;
}

void ProgressScreen::render_dimmed_frame(int fb_w, int fb_h) {
    const ImTextureID font_texture = ImGui::GetIO().Fonts->TexID;
    // The last frame, without what no longer exists: a texture released since (a new model's heatmaps, a
    // rebuilt font atlas) or a callback into state the work is changing.
    std::vector<ImDrawList*> lists;
    for (int n = 0; n < kept_count_; ++n) {
        ImDrawList& list = *kept_[static_cast<size_t>(n)];
        ImVector<ImDrawCmd>& cmds = list.CmdBuffer;
        int kept = 0;
        for (int c = 0; c < cmds.Size; ++c) {
            const ImDrawCmd& cmd = cmds[c];
            if (cmd.UserCallback || (cmd.TextureId != font_texture && !is_opaque_(cmd.TextureId))) continue;
            cmds[kept++] = cmd;
        }
        cmds.resize(kept);
        lists.push_back(&list);
    }
    ImDrawList dim(ImGui::GetDrawListSharedData());
    begin_list(dim);
    const ImVec2 origin = display_origin(), size = display_size();
    dim.AddRectFilled(origin, ImVec2(origin.x + size.x, origin.y + size.y), IM_COL32(0, 0, 0, 110));
    lists.push_back(&dim);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    render_lists(lists, fb_w, fb_h);
    ++frames_dimmed_;
}

void ProgressScreen::render_lists(std::vector<ImDrawList*>& lists, int fb_w, int fb_h) {
    ImDrawData data;
    data.Valid = true;
    data.CmdLists = lists.data();
    data.CmdListsCount = static_cast<int>(lists.size());
    for (const ImDrawList* l : lists) {
        data.TotalIdxCount += l->IdxBuffer.Size;
        data.TotalVtxCount += l->VtxBuffer.Size;
    }
    data.DisplayPos = display_origin();
    data.DisplaySize = display_size();
    data.FramebufferScale = framebuffer_scale_;
    glViewport(0, 0, fb_w, fb_h);
    renderer_.render(data, is_opaque_);
}

void ProgressScreen::begin_list(ImDrawList& list) const {
    list._ResetForNewFrame();
    const ImVec2 origin = display_origin(), size = display_size();
    list.PushClipRect(origin, ImVec2(origin.x + size.x, origin.y + size.y));
    list.PushTextureID(ImGui::GetIO().Fonts->TexID);
}

// In the middle of the (dimmed) window, a card: the step, a bar of the work done, and a hint.
void ProgressScreen::add_card(ImDrawList& list, const WorkProgress& progress, double seconds) const {
    const ImFont* font = ImGui::GetIO().Fonts->Fonts.empty() ? nullptr : ImGui::GetIO().Fonts->Fonts[0];
    const ImVec2 size = display_size(), origin = display_origin();
    if (!font) return;
    const float em = font->FontSize;
    const std::string line = progress_text(progress, seconds, korean_);
    const char* hint = tr(korean_, "The window takes clicks and keys again when the run ends.");
    const ImVec2 line_size = font->CalcTextSizeA(em, FLT_MAX, 0.0f, line.c_str());
    const ImVec2 hint_size = font->CalcTextSizeA(em, FLT_MAX, 0.0f, hint);
    const float w = std::min(std::max(line_size.x, hint_size.x) + 2.0f * em, size.x - em);
    const float h = 4.6f * em;
    const ImVec2 p(origin.x + 0.5f * (size.x - w), origin.y + 0.5f * (size.y - h)), q(p.x + w, p.y + h);
    const ImGuiStyle& style = ImGui::GetStyle();
    ImVec4 bg = style.Colors[ImGuiCol_WindowBg];
    bg.w = 1.0f;
    list.AddRectFilled(p, q, ImGui::ColorConvertFloat4ToU32(bg));
    list.AddRect(p, q, ImGui::ColorConvertFloat4ToU32(style.Colors[ImGuiCol_Border]), 0.0f, 0, 1.5f);
    const ImU32 text = ImGui::ColorConvertFloat4ToU32(style.Colors[ImGuiCol_Text]);
    list.AddText(font, em, ImVec2(p.x + em, p.y + 0.6f * em), text, line.c_str());
    const ImVec2 bar_p(p.x + em, p.y + 2.0f * em), bar_q(q.x - em, p.y + 2.5f * em);
    list.AddRectFilled(bar_p, bar_q, ImGui::ColorConvertFloat4ToU32(style.Colors[ImGuiCol_FrameBg]));
    const float filled = bar_p.x + static_cast<float>(progress.fraction()) * (bar_q.x - bar_p.x);
    list.AddRectFilled(bar_p, ImVec2(filled, bar_q.y),
                       ImGui::ColorConvertFloat4ToU32(style.Colors[ImGuiCol_PlotHistogram]));
    list.AddText(font, em, ImVec2(p.x + em, p.y + 3.0f * em),
                 ImGui::ColorConvertFloat4ToU32(style.Colors[ImGuiCol_TextDisabled]), hint);
}

}  // namespace attnlab::gui
