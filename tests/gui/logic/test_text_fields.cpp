// The text fields a user types into and what sits over them, driven frame by frame through Dear ImGui without a
// display (clicks, keys and characters fed to its IO as the GLFW backend does): the Model panel's path field
// keeps a path that failed to open, the vocabulary picker opens opaque, with an empty search, and says when
// nothing matches, and a failed open's notice pushes the view down instead of covering its first line.
#include "model_opener.h"
#include "panels/input_tokens.h"
#include "panels/model_files.h"

#include <catch2/catch.hpp>
#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_stdlib.h>

#include <functional>
#include <string>

using namespace attnlab::gui;

namespace {

// One Dear ImGui context with a built font atlas, and helpers that run a frame of one window.
class Frames {
public:
    Frames() : context_(ImGui::CreateContext()) {
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = ImVec2(800.0f, 600.0f);
        io.DeltaTime = 1.0f / 60.0f;
        io.IniFilename = nullptr;
        for (int k = 0; k < ImGuiKey_COUNT; ++k) io.KeyMap[k] = k;  // ImGuiKey_Enter is key Enter, and so on
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    }
    ~Frames() { ImGui::DestroyContext(context_); }
    Frames(const Frames&) = delete;
    Frames& operator=(const Frames&) = delete;

    // A frame of the window "w" at the top left, whose body is `draw`.
    void frame(const std::function<void()>& draw) {
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
        ImGui::SetNextWindowSize(ImVec2(800.0f, 600.0f));
        ImGui::Begin("w", nullptr, ImGuiWindowFlags_NoDecoration);
        draw();
        ImGui::End();
        ImGui::Render();
        ImGuiIO& io = ImGui::GetIO();
        io.MouseDown[0] = false;
        for (bool& down : io.KeysDown) down = false;
        io.KeyCtrl = false;
    }
    // A click (press in one frame, release in the next) at `at`.
    void click(ImVec2 at, const std::function<void()>& draw) {
        ImGui::GetIO().MousePos = at;
        ImGui::GetIO().MouseDown[0] = true;
        frame(draw);
        frame(draw);
    }
    void type(const std::string& text, const std::function<void()>& draw) {
        for (char c : text) {
            ImGui::GetIO().AddInputCharacter(static_cast<unsigned>(c));
            frame(draw);
        }
    }
    void key(ImGuiKey key, bool ctrl, const std::function<void()>& draw) {
        ImGui::GetIO().KeysDown[key] = true;
        ImGui::GetIO().KeyCtrl = ctrl;
        frame(draw);
        frame(draw);
    }

private:
    ImGuiContext* context_;
};

// The centre of the last item drawn.
ImVec2 centre_of_last_item() {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    return ImVec2(0.5f * (a.x + b.x), 0.5f * (a.y + b.y));
}

}  // namespace

TEST_CASE("the path field keeps a path that failed to open, after Enter and a click in another field",
          "[gui][fields]") {
    Frames f;
    std::string typed;       // the panel's: kept between frames
    std::string other = "";  // another field of the window (the Input view's sentence, say)
    ImVec2 path_at, other_at;
    int enters = 0;
    const auto draw = [&] {
        if (path_field("##open_path", "path", typed)) ++enters;
        path_at = centre_of_last_item();
        ImGui::InputText("##other", &other);
        other_at = centre_of_last_item();
    };
    f.frame(draw);
    f.click(path_at, draw);
    f.type("/models/nope", draw);
    f.key(ImGuiKey_Enter, false, draw);
    CHECK(enters == 1);
    CHECK(typed == "/models/nope");  // what the open was asked for (and failed)

    f.click(other_at, draw);  // the other field takes Dear ImGui's edit buffer
    f.type("x", draw);
    f.click(ImVec2(700.0f, 500.0f), draw);  // and a click on nothing
    CHECK(other == "x");
    CHECK(typed == "/models/nope");

    f.click(path_at, draw);  // back to fix the typo: the path is there to edit
    f.key(ImGuiKey_Backspace, false, draw);
    f.key(ImGuiKey_Backspace, false, draw);
    f.type("ne", draw);
    CHECK(typed == "/models/none");  // Backspace ×2, then "ne"
}

TEST_CASE("the vocabulary picker opens opaque, with an empty search each time", "[gui][fields]") {
    Frames f;
    bool open_now = false, close_now = false, shown = false;
    std::string query;
    unsigned background_alpha = 0;
    const auto draw = [&] {
        if (open_now) ImGui::OpenPopup("pick");
        open_now = false;
        shown = begin_chip_popup(ImVec2(40.0f, 40.0f));
        if (!shown) return;
        // The popup's first vertices are its background rectangle.
        const ImDrawList& list = *ImGui::GetWindowDrawList();
        if (!list.VtxBuffer.empty()) background_alpha = (list.VtxBuffer[0].col >> IM_COL32_A_SHIFT) & 0xFF;
        vocab_search_field("search", 200.0f, query);
        if (close_now) ImGui::CloseCurrentPopup();
        close_now = false;
        ImGui::EndPopup();
    };
    open_now = true;
    f.frame(draw);
    f.frame(draw);
    REQUIRE(shown);
    CHECK(background_alpha == 255);  // the card's text must not show through
    f.type("green", draw);
    CHECK(query == "green");

    close_now = true;
    f.frame(draw);
    f.frame(draw);
    REQUIRE_FALSE(shown);
    open_now = true;
    f.frame(draw);
    f.frame(draw);
    REQUIRE(shown);
    CHECK(query.empty());
    f.type("red", draw);
    CHECK(query == "red");  // not "greenred"
}

TEST_CASE("the vocabulary list keeps a row for \"No match\" when nothing matches", "[gui][fields]") {
    const float row_h = 20.0f, em = 16.0f;
    CHECK(vocab_list_height(0, row_h, em) >= row_h);
    CHECK(vocab_list_height(3, row_h, em) >= 3.0f * row_h);
    CHECK(vocab_list_height(50000, row_h, em) <= 14.0f * em);  // a long list scrolls
}

TEST_CASE("a failed open's notice pushes the view's first line down instead of covering it", "[gui][fields]") {
    Frames f;
    ModelOpener opener;
    opener.show(OpenProblem{OpenProblem::Kind::missing, "nope", "no such file"});
    float notice_top = 0.0f, head_labels_top = 0.0f;
    const auto draw = [&] {
        notice_top = ImGui::GetCursorScreenPos().y;
        draw_open_problem(opener, false);
        ImGui::TextUnformatted("Head 1    Head 2");  // the attention grid's first line
        head_labels_top = ImGui::GetItemRectMin().y;
    };
    f.frame(draw);
    f.frame(draw);
    CHECK(head_labels_top >= notice_top + ImGui::GetTextLineHeight());
    opener.dismiss();
    f.frame(draw);
    CHECK(head_labels_top == notice_top);  // no notice, no band
}
