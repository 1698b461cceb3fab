// The text fields a user types into and what sits over them, driven frame by frame through Dear ImGui without a
// display (clicks, keys and characters fed to its IO as the GLFW backend does): the Model panel's path field
// keeps a path that failed to open, the vocabulary picker opens opaque, with an empty search, and says when
// nothing matches, a failed open's notice pushes the view down instead of covering its first line, and a
// Ctrl+A tapped between two frames still selects all.
#include "key_taps.h"
#include "model_opener.h"
#include "panels/input_tokens.h"
#include "panels/model_files.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_stdlib.h>
#include <catch2/catch.hpp>

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
        // The keys as Dear ImGui 1.86's GLFW backend maps them: events carry GLFW's key codes.
        const std::pair<ImGuiKey, int> keys[] = {
            {ImGuiKey_Tab, GLFW_KEY_TAB},         {ImGuiKey_LeftArrow, GLFW_KEY_LEFT},
            {ImGuiKey_RightArrow, GLFW_KEY_RIGHT}, {ImGuiKey_UpArrow, GLFW_KEY_UP},
            {ImGuiKey_DownArrow, GLFW_KEY_DOWN},   {ImGuiKey_PageUp, GLFW_KEY_PAGE_UP},
            {ImGuiKey_PageDown, GLFW_KEY_PAGE_DOWN}, {ImGuiKey_Home, GLFW_KEY_HOME},
            {ImGuiKey_End, GLFW_KEY_END},         {ImGuiKey_Insert, GLFW_KEY_INSERT},
            {ImGuiKey_Delete, GLFW_KEY_DELETE},   {ImGuiKey_Backspace, GLFW_KEY_BACKSPACE},
            {ImGuiKey_Space, GLFW_KEY_SPACE},     {ImGuiKey_Enter, GLFW_KEY_ENTER},
            {ImGuiKey_Escape, GLFW_KEY_ESCAPE},   {ImGuiKey_KeyPadEnter, GLFW_KEY_KP_ENTER},
            {ImGuiKey_A, GLFW_KEY_A},             {ImGuiKey_C, GLFW_KEY_C},
            {ImGuiKey_V, GLFW_KEY_V},             {ImGuiKey_X, GLFW_KEY_X},
            {ImGuiKey_Y, GLFW_KEY_Y},             {ImGuiKey_Z, GLFW_KEY_Z},
        };
        for (const auto& [imgui_key, glfw_key] : keys) io.KeyMap[imgui_key] = glfw_key;
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
    void key(int key, bool ctrl, const std::function<void()>& draw) {  // a GLFW key, held for a frame
        ImGui::GetIO().KeysDown[key] = true;
        ImGui::GetIO().KeyCtrl = ctrl;
        frame(draw);
        frame(draw);
    }

private:
    ImGuiContext* context_;
};

// A kept event going on to the backend (`backend(key, press)`), or a character to Dear ImGui's queue, as the app
// hands them on.
template <class Backend>
void hand_on(const KeyTaps::Event& e, const Backend& backend) {
    if (e.kind == KeyTaps::Event::Kind::character)
        ImGui::GetIO().AddInputCharacter(e.value);
    else
        backend(static_cast<int>(e.value), e.kind == KeyTaps::Event::Kind::press);
}

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
    f.key(GLFW_KEY_ENTER, false, draw);
    CHECK(enters == 1);
    CHECK(typed == "/models/nope");  // what the open was asked for (and failed)

    f.click(other_at, draw);  // the other field takes Dear ImGui's edit buffer
    f.type("x", draw);
    f.click(ImVec2(700.0f, 500.0f), draw);  // and a click on nothing
    CHECK(other == "x");
    CHECK(typed == "/models/nope");

    f.click(path_at, draw);  // back to fix the typo: the path is there to edit
    f.key(GLFW_KEY_BACKSPACE, false, draw);
    f.key(GLFW_KEY_BACKSPACE, false, draw);
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

TEST_CASE("a Ctrl+A tapped between two frames selects all in a token-id field", "[gui][fields][keys]") {
    Frames f;
    KeyTaps taps;
    // The GLFW backend of Dear ImGui 1.86: a key event sets its held-down flag, and Ctrl follows the Ctrl keys.
    constexpr int kCtrl = GLFW_KEY_LEFT_CONTROL;
    const auto backend = [](int key, bool press) {
        ImGuiIO& io = ImGui::GetIO();
        io.KeysDown[key] = press;
        io.KeyCtrl = io.KeysDown[kCtrl];
    };
    const auto event = [&](int key, bool press) {
        if (taps.pass_key(key, press)) backend(key, press);
    };
    std::string submitted;
    ImVec2 at;
    const auto draw = [&] {
        std::string text = "1,5,9";  // the applied ids, as the Input view's field shows them
        if (ImGui::InputTextWithHint("##ids", "ids", &text, ImGuiInputTextFlags_EnterReturnsTrue)) submitted = text;
        at = centre_of_last_item();
    };
    const auto frame = [&] {  // the app's frame: the held releases go on once the frame has read the keys
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
        ImGui::SetNextWindowSize(ImVec2(800.0f, 600.0f));
        ImGui::Begin("w", nullptr, ImGuiWindowFlags_NoDecoration);
        draw();
        ImGui::End();
        ImGui::Render();
        for (const KeyTaps::Event& e : taps.after_frame()) hand_on(e, backend);
    };
    frame();
    ImGui::GetIO().MousePos = at;
    ImGui::GetIO().MouseDown[0] = true;
    frame();
    ImGui::GetIO().MouseDown[0] = false;
    frame();
    // Ctrl down, A down, A up, Ctrl up, all before the next frame (a slow frame, or xdotool's ctrl+a).
    event(kCtrl, true);
    event(GLFW_KEY_A, true);
    event(GLFW_KEY_A, false);
    event(kCtrl, false);
    frame();
    frame();
    ImGui::GetIO().AddInputCharacter('4');
    frame();
    event(GLFW_KEY_ENTER, true);
    event(GLFW_KEY_ENTER, false);
    frame();
    frame();
    CHECK(submitted == "4");  // all selected, replaced, and submitted: no tap was lost
}

TEST_CASE("a key held across frames is released at once; taps between two frames reach a frame each",
          "[gui][keys]") {
    using Event = KeyTaps::Event;
    const auto press = [](int key) { return Event{Event::Kind::press, static_cast<unsigned>(key)}; };
    const auto release = [](int key) { return Event{Event::Kind::release, static_cast<unsigned>(key)}; };
    KeyTaps taps;
    CHECK(taps.pass_key(GLFW_KEY_HOME, true));
    CHECK(taps.after_frame().empty());  // a frame saw it down
    CHECK(taps.pass_key(GLFW_KEY_HOME, false));        // so its release goes on now
    CHECK_FALSE(taps.pending());

    CHECK(taps.pass_key(GLFW_KEY_RIGHT, true));
    CHECK_FALSE(taps.pass_key(GLFW_KEY_RIGHT, false));  // not seen yet: kept
    CHECK_FALSE(taps.pass_key(GLFW_KEY_RIGHT, true));   // a second tap before any frame: queued
    CHECK_FALSE(taps.pass_key(GLFW_KEY_RIGHT, false));
    CHECK_FALSE(taps.pass_key(GLFW_KEY_END, true));   // another key's tap: queued behind it
    CHECK_FALSE(taps.pass_key(GLFW_KEY_END, false));
    CHECK(taps.pending());
    CHECK(taps.after_frame() == std::vector<Event>{release(GLFW_KEY_RIGHT)});              // frame 1 saw GLFW_KEY_RIGHT down
    CHECK(taps.after_frame() == std::vector<Event>{press(GLFW_KEY_RIGHT)});               // frame 2 saw it up
    CHECK(taps.after_frame() == std::vector<Event>{release(GLFW_KEY_RIGHT), press(GLFW_KEY_END)});  // frame 3: GLFW_KEY_RIGHT's second tap
    CHECK(taps.after_frame() == std::vector<Event>{release(GLFW_KEY_END)});              // frame 4: GLFW_KEY_END's
    CHECK_FALSE(taps.pending());
    CHECK(taps.after_frame().empty());
}

TEST_CASE("a tap right after a frame saw the key down waits for a frame that sees it up", "[gui][keys]") {
    using Event = KeyTaps::Event;
    KeyTaps taps;
    CHECK(taps.pass_key(GLFW_KEY_RIGHT, true));
    CHECK(taps.after_frame().empty());             // frame 1 saw it down
    CHECK(taps.pass_key(GLFW_KEY_RIGHT, false));   // up now
    CHECK_FALSE(taps.pass_key(GLFW_KEY_RIGHT, true));  // down again before any frame saw it up: queued
    CHECK_FALSE(taps.pass_key(GLFW_KEY_RIGHT, false));
    CHECK(taps.after_frame().empty());  // frame 2 saw it up
    CHECK(taps.after_frame() == std::vector<Event>{{Event::Kind::press, GLFW_KEY_RIGHT}});  // frame 3 sees it down
}

TEST_CASE("letters typed alone go on at once; characters typed behind taps keep their place", "[gui][keys]") {
    using Event = KeyTaps::Event;
    KeyTaps taps;
    CHECK(taps.pass_key(GLFW_KEY_Q, true));  // a letter: its character is what counts
    CHECK(taps.pass_key(GLFW_KEY_Q, false));
    CHECK(taps.pass_character('q'));
    CHECK(taps.pass_key(GLFW_KEY_RIGHT, true));
    CHECK_FALSE(taps.pass_key(GLFW_KEY_RIGHT, false));
    CHECK_FALSE(taps.pass_character('Q'));  // after the arrow, as typed
    CHECK(taps.after_frame() == std::vector<Event>{{Event::Kind::release, GLFW_KEY_RIGHT}, {Event::Kind::character, 'Q'}});
    // A capital typed behind waiting arrows: its Shift waits with it, so no arrow goes on with Shift (selecting).
    CHECK(taps.pass_key(GLFW_KEY_RIGHT, true));
    CHECK_FALSE(taps.pass_key(GLFW_KEY_RIGHT, false));
    CHECK_FALSE(taps.pass_key(GLFW_KEY_LEFT, true));
    CHECK_FALSE(taps.pass_key(GLFW_KEY_LEFT, false));
    CHECK_FALSE(taps.pass_key(GLFW_KEY_LEFT_SHIFT, true));
    CHECK(taps.pass_key(GLFW_KEY_Q, true));
    CHECK_FALSE(taps.pass_character('Q'));
    CHECK(taps.pass_key(GLFW_KEY_Q, false));
    CHECK_FALSE(taps.pass_key(GLFW_KEY_LEFT_SHIFT, false));
    CHECK(taps.after_frame() == std::vector<Event>{{Event::Kind::release, GLFW_KEY_RIGHT},
                                                   {Event::Kind::press, GLFW_KEY_LEFT}});
    CHECK(taps.after_frame() == std::vector<Event>{{Event::Kind::release, GLFW_KEY_LEFT},
                                                   {Event::Kind::press, GLFW_KEY_LEFT_SHIFT},
                                                   {Event::Kind::character, 'Q'},
                                                   {Event::Kind::release, GLFW_KEY_LEFT_SHIFT}});
    CHECK_FALSE(taps.pending());

    CHECK(taps.pass_key(GLFW_KEY_LEFT_CONTROL, true));
    CHECK(taps.pass_key(GLFW_KEY_A, true));  // with Ctrl down, A is a tap
    CHECK_FALSE(taps.pass_key(GLFW_KEY_A, false));
}

TEST_CASE("forty arrow taps between two frames move the cursor forty places", "[gui][fields][keys]") {
    Frames f;
    KeyTaps taps;
    const auto backend = [](int key, bool press) { ImGui::GetIO().KeysDown[key] = press; };
    std::string submitted;
    ImVec2 at;
    const auto draw = [&] {
        std::string text(60, 'x');
        if (ImGui::InputTextWithHint("##prompt", "prompt", &text, ImGuiInputTextFlags_EnterReturnsTrue))
            submitted = text;
        at = centre_of_last_item();
    };
    const auto frame = [&] {
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
        ImGui::SetNextWindowSize(ImVec2(800.0f, 600.0f));
        ImGui::Begin("w", nullptr, ImGuiWindowFlags_NoDecoration);
        draw();
        ImGui::End();
        ImGui::Render();
        for (const KeyTaps::Event& e : taps.after_frame()) hand_on(e, backend);
    };
    const auto tap = [&](int key) {
        if (taps.pass_key(key, true)) backend(key, true);
        if (taps.pass_key(key, false)) backend(key, false);
    };
    frame();
    ImGui::GetIO().MousePos = at;
    ImGui::GetIO().MouseDown[0] = true;
    frame();
    ImGui::GetIO().MouseDown[0] = false;
    frame();
    tap(GLFW_KEY_HOME);
    for (int i = 0; i < 40; ++i) tap(GLFW_KEY_RIGHT);  // all before the next frame
    for (int i = 0; i < 200 && (i < 2 || taps.pending()); ++i) frame();
    ImGui::GetIO().AddInputCharacter('Q');
    frame();
    tap(GLFW_KEY_ENTER);
    for (int i = 0; i < 4; ++i) frame();
    REQUIRE(submitted.size() == 61);
    CHECK(submitted.find('Q') == 40);
}

// The second trial's crash: Shift typed while a long re-run polled the window for its progress card reached Dear
// ImGui within the frame, and its end-of-frame check ("Mismatching io.KeyCtrl/io.KeyShift ... vs io.KeyMods")
// aborted the app.
TEST_CASE("Shift or Ctrl pressed while a frame is open waits for the frame's end, in its place", "[gui][keys]") {
    using Event = KeyTaps::Event;
    Frames frames;
    KeyTaps taps;
    std::vector<bool> passed;
    frames.frame([&] {  // the frame's long work, polling the window
        passed.push_back(taps.pass_key(GLFW_KEY_LEFT_SHIFT, true));
        passed.push_back(taps.pass_character('D'));
        passed.push_back(taps.pass_key(GLFW_KEY_LEFT_SHIFT, false));
        passed.push_back(taps.pass_key(GLFW_KEY_LEFT_CONTROL, true));
    });
    CHECK(passed == std::vector<bool>{false, false, false, false});
    CHECK(taps.after_frame() == std::vector<Event>{{Event::Kind::press, GLFW_KEY_LEFT_SHIFT},
                                                   {Event::Kind::character, 'D'},
                                                   {Event::Kind::release, GLFW_KEY_LEFT_SHIFT},
                                                   {Event::Kind::press, GLFW_KEY_LEFT_CONTROL}});
    CHECK(taps.pass_key(GLFW_KEY_LEFT_CONTROL, false));  // between frames: at once, as before
    CHECK_FALSE(taps.pending());
}
