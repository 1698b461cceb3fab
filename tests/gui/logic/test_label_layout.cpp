// The label layout's geometry (widgets/label_layout.h, widgets/point_labels.h) over many token lists,
// measured with the app's own font: NanumGothic (and DejaVu's symbols, "…" among them) loaded as the app
// loads it, its atlas built by ImGui on the CPU (no GL context, no display). Without fonts-nanum the
// built-in font measures instead (Hangul then as its fallback glyph): the geometry checks still hold.
#include "fonts.h"
#include "widgets/label_layout.h"
#include "widgets/point_labels.h"

#include <imgui.h>
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace attnlab::gui;

namespace {

// An ImGui context with the UI font at `px` pixels, built on the CPU; measures text as the app does.
class FontMetrics {
public:
    explicit FontMetrics(float px) : context_(ImGui::CreateContext()) {
        font_file_ = load_ui_font(px);
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
        font_ = ImGui::GetIO().Fonts->Fonts[0];
    }
    ~FontMetrics() { ImGui::DestroyContext(context_); }
    FontMetrics(const FontMetrics&) = delete;
    FontMetrics& operator=(const FontMetrics&) = delete;

    TextMeasure measure() const {
        return [font = font_](std::string_view t) {
            const ImVec2 s = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, t.data(), t.data() + t.size());
            return LabelSize{s.x, s.y};
        };
    }
    const std::string& font_file() const { return font_file_; }

private:
    ImGuiContext* context_;
    ImFont* font_ = nullptr;
    std::string font_file_;
};

// Token lists: English, Hangul ("나 는 빨간 사과 를 좋아해"), special tokens, word pieces, long words, numbers.
std::vector<std::string> token_list(std::mt19937& rng, int n) {
    static const std::vector<std::string> words = {"the",
                                                   "cat",
                                                   "sat",
                                                   "on",
                                                   "a",
                                                   "mat",
                                                   "i",
                                                   "like",
                                                   "red",
                                                   "apples",
                                                   "<eos>",
                                                   "<sos>",
                                                   "<pad>",
                                                   "<unk>",
                                                   "Ġthe",
                                                   "##ing",
                                                   "나",
                                                   "는",
                                                   "빨간",
                                                   "사과",
                                                   "를",
                                                   "좋아해",
                                                   "안녕하세요",
                                                   "대한민국",
                                                   "고양이가",
                                                   "앉았다",
                                                   "internationalization",
                                                   "supercalifragilistic",
                                                   "0 +self",
                                                   "1 LN2",
                                                   "final LN",
                                                   "enc 0 self",
                                                   "dec 1 cross",
                                                   "W",
                                                   "ᵀ√·",
                                                   "12",
                                                   "511"};
    std::uniform_int_distribution<int> pick(0, static_cast<int>(words.size()) - 1), kind(0, 9), len(1, 28);
    std::vector<std::string> out;
    for (int i = 0; i < n; ++i) {
        switch (kind(rng)) {
            case 0: out.push_back(std::string(static_cast<size_t>(len(rng)), static_cast<char>('a' + i % 26))); break;
            case 1: {
                std::string hangul;  // random syllables of 1..12 characters
                const int k = 1 + len(rng) % 12;
                for (int c = 0; c < k; ++c) {
                    const unsigned cp = 0xAC00 + static_cast<unsigned>((i * 131 + c * 977) % 11172);
                    hangul += static_cast<char>(0xE0 | (cp >> 12));
                    hangul += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
                    hangul += static_cast<char>(0x80 | (cp & 0x3F));
                }
                out.push_back(hangul);
                break;
            }
            case 2: out.push_back(std::to_string(i)); break;
            default: out.push_back(words[static_cast<size_t>(pick(rng))]);
        }
    }
    return out;
}

// --- An intersection test independent of the layout's own (which separates by projection): two convex
// quads meet when an edge of one crosses an edge of the other or a corner of one lies inside the other.
float orient(LabelPoint a, LabelPoint b, LabelPoint c) { return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x); }

bool segments_cross(LabelPoint a, LabelPoint b, LabelPoint c, LabelPoint d) {
    const float d1 = orient(c, d, a), d2 = orient(c, d, b), d3 = orient(a, b, c), d4 = orient(a, b, d);
    return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

bool strictly_inside(const LabelQuad& q, LabelPoint p) {
    int pos = 0, neg = 0;
    for (int i = 0; i < 4; ++i) {
        const float o = orient(q.corner[i], q.corner[(i + 1) % 4], p);
        pos += o > 1e-3f;
        neg += o < -1e-3f;
    }
    return pos == 4 || neg == 4;
}

bool meet(const LabelQuad& a, const LabelQuad& b) {
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            if (segments_cross(a.corner[i], a.corner[(i + 1) % 4], b.corner[j], b.corner[(j + 1) % 4])) return true;
    for (const LabelPoint& p : a.corner)
        if (strictly_inside(b, p)) return true;
    for (const LabelPoint& p : b.corner)
        if (strictly_inside(a, p)) return true;
    return false;
}

LabelQuad quad_of(const LabelRect& r) { return {{{r.x0, r.y0}, {r.x1, r.y0}, {r.x1, r.y1}, {r.x0, r.y1}}}; }

// Whether segment a-b passes through the rect's inside (touching its edge is not): an end strictly inside,
// or a proper crossing of one of its sides. Independent of the layout's own segment_hits_rect.
bool segment_enters(LabelPoint a, LabelPoint b, const LabelRect& r) {
    const LabelQuad q = quad_of(r);
    if (strictly_inside(q, a) || strictly_inside(q, b)) return true;
    for (int k = 0; k < 4; ++k)
        if (segments_cross(a, b, q.corner[k], q.corner[(k + 1) % 4])) return true;
    return false;
}

bool is_prefix(const std::string& prefix, const std::string& s) { return s.compare(0, prefix.size(), prefix) == 0; }

const std::string kEllipsis = "…";

// Whether thinned labels are evenly spaced: besides the last of `n`, every stride-th index from 0
// up to the last one shown, with no gap; past it, only those within `reach` pixels of the last label (`pitch` apart),
// where no label fits beside it. So "0, 10, 15, …" (5 left out beside a first label moved inwards) or "q0, q4, q6"
// fail.
bool evenly_thinned(const AxisLabels& axis, int n, float pitch, float reach) {
    std::vector<int> grid;  // the stride-th indices shown, in order
    for (const PlacedLabel& l : axis.placed)
        if (l.index != n - 1) grid.push_back(l.index);
    if (grid.empty()) return false;
    for (size_t i = 0; i < grid.size(); ++i)
        if (grid[i] != static_cast<int>(i) * axis.stride) return false;
    for (int missing = grid.back() + axis.stride; missing < n - 1; missing += axis.stride)
        if ((n - 1 - missing) * pitch >= reach) return false;
    return true;
}

// Where a placed label lies along its axis: its start and end (rows: y; flat or upright columns: x).
std::pair<float, float> along(const PlacedLabel& l, LabelAxis axis) {
    if (axis == LabelAxis::rows) return {l.pos.y, l.pos.y + l.size.h};
    const LabelRect b = l.box().bounds();
    return {b.x0, b.x1};
}

}  // namespace

TEST_CASE("axis labels never overlap each other or the cells, columns above or below, over many token lists",
          "[labels]") {
    const FontMetrics font(16.0f);
    INFO("font: " << (font.font_file().empty() ? std::string("ImGui's built-in") : font.font_file()));
    const TextMeasure measure = font.measure();
    std::mt19937 rng(18);
    const std::vector<int> counts = {1, 2, 3, 4, 5, 7, 9, 12, 16, 24, 33, 48, 64, 97, 128, 200};
    const std::vector<float> pitches = {2.0f, 3.5f, 6.0f, 9.0f, 13.0f, 17.0f, 22.0f, 31.0f, 48.0f};
    int cases = 0, rotated = 0, thinned = 0, abbreviated = 0, below_rotated = 0;
    for (int n : counts)
        for (float pitch : pitches)
            for (int variant = 0; variant < 6; ++variant) {
                const LabelSide side = variant < 3 ? LabelSide::above : LabelSide::below;
                const std::vector<std::string> cols = token_list(rng, n), rows = token_list(rng, n);
                const int keep = variant % 3 == 2 ? static_cast<int>(rng() % static_cast<unsigned>(n)) : -1;
                const float end_room = variant % 3 == 0 ? 0.0f : variant % 3 == 1 ? 80.0f : 400.0f;
                const float bottom = n * pitch;  // the cells are n × n
                const AxisLabelRequest col_req{
                    LabelAxis::columns, pitch, 96.0f, end_room, 2.0f, keep, 4.0f, side, bottom};
                const AxisLabelRequest row_req{LabelAxis::rows, pitch, 128.0f, 0.0f, 1.0f, keep, 8.0f};
                const AxisLabels c = layout_axis_labels(cols, measure, col_req);
                const AxisLabels r = layout_axis_labels(rows, measure, row_req);
                if (keep >= 0) {  // a hover changes which labels show, never the style or the room: the cells stay put
                    AxisLabelRequest still = col_req;
                    still.keep = -1;
                    const AxisLabels c0 = layout_axis_labels(cols, measure, still);
                    CHECK(c0.style == c.style);
                    CHECK(c0.angle == c.angle);
                    CHECK(c0.reserve.x0 == c.reserve.x0);
                    CHECK(c0.reserve.y0 == c.reserve.y0);
                    CHECK(c0.reserve.x1 == c.reserve.x1);
                    CHECK(c0.reserve.y1 == c.reserve.y1);
                }
                INFO("n " << n << ", pitch " << pitch << ", variant " << variant << ", keep " << keep);
                ++cases;
                rotated += c.style == LabelStyle::rotated;
                below_rotated += c.style == LabelStyle::rotated && side == LabelSide::below;
                thinned += c.stride > 1 || r.stride > 1;
                abbreviated += c.n_abbreviated() + r.n_abbreviated();

                const LabelQuad cells = quad_of({0.0f, 0.0f, n * pitch, n * pitch});
                std::vector<LabelQuad> boxes;
                for (const AxisLabels* axis : {&c, &r})
                    for (const PlacedLabel& l : axis->placed) {
                        const LabelQuad q = l.box();
                        CHECK_FALSE(meet(q, cells));
                        const LabelRect b = q.bounds();  // inside the room the widget reserves
                        CHECK(b.x0 >= axis->reserve.x0 - 0.01f);
                        CHECK(b.x1 <= axis->reserve.x1 + 0.01f);
                        CHECK(b.y0 >= axis->reserve.y0 - 0.01f);
                        CHECK(b.y1 <= axis->reserve.y1 + 0.01f);
                        boxes.push_back(q);
                    }
                for (size_t i = 0; i < boxes.size(); ++i)
                    for (size_t j = i + 1; j < boxes.size(); ++j) CHECK_FALSE(meet(boxes[i], boxes[j]));

                // Within the band on their side, and no further than the room past the far end; within the
                // depth the layout says to leave beside the cells.
                for (const PlacedLabel& l : c.placed) {
                    const LabelRect b = l.box().bounds();
                    const bool slanted = l.angle > 0.0f && l.angle < 1.5f;
                    if (side == LabelSide::above) {
                        CHECK(b.y1 <= -col_req.margin + 0.01f);
                        if (l.angle != 0.0f) CHECK(b.y0 >= -col_req.space - 0.01f);
                        if (slanted) CHECK(b.x1 <= n * pitch + end_room + 0.01f);
                        CHECK(b.y0 >= -c.depth - 0.01f);
                    } else {
                        CHECK(b.y0 >= bottom + col_req.margin - 0.01f);
                        // The band starts a line down under cells shorter than a line (clear of the row labels).
                        const float edge = std::max(bottom, l.size.h);
                        if (l.angle != 0.0f) CHECK(b.y1 <= edge + col_req.space + 0.01f);
                        if (slanted) CHECK(b.x0 >= -end_room - 0.01f);
                        CHECK(b.y1 <= bottom + c.depth + 0.01f);
                    }
                    if (l.angle == 0.0f && c.stride == 1) CHECK(l.size.w <= n * pitch + 0.01f);  // all flat: within
                    if (l.angle > 1.5f && n * pitch >= l.size.h) {  // upright: within the cells' width too
                        CHECK(b.x0 >= -0.01f);
                        CHECK(b.x1 <= n * pitch + 0.01f);
                    }
                }
                if (!c.placed.empty()) CHECK(c.depth >= col_req.margin);
                for (const PlacedLabel& l : r.placed) {
                    CHECK(l.box().bounds().x1 <= -row_req.margin + 0.01f);
                    CHECK(l.box().bounds().x0 >= -r.depth - 0.01f);
                    CHECK(l.size.w <= row_req.space - row_req.margin + 0.01f);
                }
                for (const AxisLabels* axis : {&c, &r}) {
                    const std::vector<std::string>& full = axis == &c ? cols : rows;
                    for (const PlacedLabel& l : axis->placed) {
                        const std::string& text = full[static_cast<size_t>(l.index)];
                        if (!l.abbreviated) {
                            CHECK(l.text == text);
                            continue;
                        }
                        REQUIRE(l.text.size() > kEllipsis.size());
                        CHECK(l.text.substr(l.text.size() - kEllipsis.size()) == kEllipsis);
                        const std::string kept = l.text.substr(0, l.text.size() - kEllipsis.size());
                        CHECK(is_prefix(kept, text));
                        CHECK((static_cast<unsigned char>(text[kept.size()]) & 0xC0) != 0x80);  // a whole character
                    }
                    // The kept label is shown, and the first; the last too unless it cannot clear the first.
                    std::vector<bool> shown(full.size(), false);
                    for (const PlacedLabel& l : axis->placed) shown[static_cast<size_t>(l.index)] = true;
                    if (keep >= 0) {
                        CHECK(shown[static_cast<size_t>(keep)]);
                    } else {
                        CHECK(shown.front());
                        const LabelSize first = measure(full.front()), last = measure(full.back());
                        const float gap = axis == &c ? col_req.gap : row_req.gap;
                        // Flat labels are kept within the cells' span, so the two ends need room for both;
                        // rotated ones stand on their own column's centre, upright ones moved inwards by what
                        // overhangs the cells.
                        const float inwards = c.angle > 1.5f ? std::max(0.0f, 0.5f * (first.h - pitch)) +
                                                                   std::max(0.0f, 0.5f * (last.h - pitch))
                                                             : 0.0f;
                        const bool room =
                            axis == &r ? n * pitch >= first.h + last.h + gap
                            : c.style == LabelStyle::horizontal
                                ? n * pitch >= first.w + last.w + 2.0f * pitch + gap
                                : (n - 1) * pitch * std::sin(c.angle) - inwards >= std::max(first.h, last.h) + gap;
                        if (room) CHECK(shown.back());
                        const bool slanted = axis == &c && c.style == LabelStyle::rotated && c.angle < 1.5f;
                        std::string indices;  // the labels shown, for a failure's message
                        for (const PlacedLabel& l : axis->placed) indices += std::to_string(l.index) + " ";
                        INFO((axis == &c ? "columns" : "rows") << ", stride " << axis->stride << ": " << indices);
                        const bool flat_columns = axis == &c && c.style == LabelStyle::horizontal;
                        float widest = 0.0f;  // along the axis: a label's width (flat columns) or its line
                        for (const std::string& text : full)
                            widest = std::max(widest, flat_columns ? measure(text).w : measure(text).h);
                        const float reach = 2.0f * (widest + std::max(col_req.gap, row_req.gap));
                        if (axis->stride > 1 && shown.back()) CHECK(evenly_thinned(*axis, n, pitch, reach));
                        if (axis->stride > 1 && !slanted)  // a thinned label still marks its own cell
                            for (const PlacedLabel& l : axis->placed) {
                                const auto [start, end] = along(l, axis == &c ? LabelAxis::columns : LabelAxis::rows);
                                const float mid = (l.index + 0.5f) * pitch;
                                CHECK(start <= mid + 0.01f);
                                CHECK(end >= mid - 0.01f);
                            }
                    }
                }
            }
    // The lists reached every way of fitting labels.
    CHECK(cases == static_cast<int>(counts.size() * pitches.size() * 6));
    CHECK(rotated > 0);
    CHECK(below_rotated > 0);
    CHECK(thinned > 0);
    CHECK(abbreviated > 0);
}

TEST_CASE("a short sentence lies flat, a Hangul one rotates, a long one thins", "[labels]") {
    const FontMetrics font(16.0f);
    const TextMeasure measure = font.measure();
    const std::vector<std::string> digits = {"0", "1", "2", "3"};
    const AxisLabels flat = layout_axis_labels(digits, measure, {LabelAxis::columns, 30.0f, 96.0f, 0.0f, 2.0f, -1});
    CHECK(flat.style == LabelStyle::horizontal);
    CHECK(flat.placed.size() == 4);

    const std::vector<std::string> korean = {"<sos>", "나", "는", "빨간", "사과", "를", "좋아해"};
    const AxisLabels slanted = layout_axis_labels(korean, measure, {LabelAxis::columns, 26.0f, 96.0f, 96.0f, 2.0f, -1});
    CHECK(slanted.style == LabelStyle::rotated);
    CHECK(slanted.placed.size() == korean.size());
    CHECK(slanted.n_abbreviated() == 0);

    std::vector<std::string> many;
    for (int i = 0; i < 200; ++i) many.push_back(std::to_string(i));
    const AxisLabels thin = layout_axis_labels(many, measure, {LabelAxis::columns, 3.0f, 96.0f, 0.0f, 2.0f, 57});
    CHECK(thin.stride > 1);
    CHECK(thin.placed.size() < many.size());
    CHECK(thin.placed.size() > 5);
    bool kept = false;
    for (const PlacedLabel& l : thin.placed) kept |= l.index == 57;
    CHECK(kept);

    // A row label wider than its band is cut at a character and ends with "…".
    const std::vector<std::string> long_rows = {"대한민국만세대한민국만세대한민국만세", "a"};
    const AxisLabels rows =
        layout_axis_labels(long_rows, measure, {LabelAxis::rows, 20.0f, 80.0f, 0.0f, 1.0f, -1, 4.0f});
    REQUIRE(rows.placed.size() == 2);
    CHECK(rows.placed[0].abbreviated);
    CHECK(rows.placed[0].size.w <= 76.01f);
    CHECK(rows.at({rows.placed[0].pos.x + 1.0f, rows.placed[0].pos.y + 1.0f}) == &rows.placed[0]);
}

TEST_CASE("thinned labels are evenly spaced: none that fits is left out beside an end label moved inwards",
          "[labels]") {
    const FontMetrics font(17.0f);
    const TextMeasure measure = font.measure();
    const float line = measure("0").h;
    // The positional encoding's 64 positions, a little over a quarter of a line apart (rows, and columns at 90°):
    // every 5th shows, and the 5th too, though the first label is moved down (or right) to stay within the cells.
    std::vector<std::string> positions;
    for (int i = 0; i < 64; ++i) positions.push_back(std::to_string(i));
    const float pe_pitch = 0.276f * line;
    const AxisLabels pe_rows =
        layout_axis_labels(positions, measure, {LabelAxis::rows, pe_pitch, 128.0f, 0.0f, 0.05f * 17.0f, -1, 8.0f});
    const float reach = 2.0f * (line + 0.12f * 17.0f);
    REQUIRE(pe_rows.stride == 5);
    CHECK(pe_rows.placed.at(1).index == 5);
    CHECK(evenly_thinned(pe_rows, 64, pe_pitch, reach));
    AxisLabelRequest pe_cols_request{LabelAxis::columns, pe_pitch, 96.0f, 0.0f, 0.12f * 17.0f, -1, 4.0f};
    pe_cols_request.word_gap = 0.5f * 17.0f;
    const AxisLabels pe_cols = layout_axis_labels(positions, measure, pe_cols_request);
    CHECK(pe_cols.stride > 1);
    CHECK(pe_cols.placed.at(1).index == pe_cols.stride);
    CHECK(evenly_thinned(pe_cols, 64, pe_pitch, reach));

    // W_Q's 16 rows a little over half a line apart: q0, q2, q4, …, not q0, q4, q6.
    std::vector<std::string> rows;
    for (int i = 0; i < 16; ++i) rows.push_back("q" + std::to_string(i));
    const AxisLabels q =
        layout_axis_labels(rows, measure, {LabelAxis::rows, 0.574f * line, 128.0f, 0.0f, 0.05f * 17.0f, -1, 8.0f});
    REQUIRE(q.stride == 2);
    CHECK(q.placed.at(1).index == 2);
    CHECK(evenly_thinned(q, 16, 0.574f * line, reach));

    // Hovering a row keeps it, and the rest stays even around it.
    const AxisLabels hovered =
        layout_axis_labels(positions, measure, {LabelAxis::rows, pe_pitch, 128.0f, 0.0f, 0.05f * 17.0f, 33, 8.0f});
    bool kept = false;
    for (const PlacedLabel& l : hovered.placed) kept |= l.index == 33;
    CHECK(kept);
    for (const PlacedLabel& l : hovered.placed)
        if (l.index != 33 && l.index != 63) CHECK(l.index % hovered.stride == 0);
}

TEST_CASE("flat column labels keep a word's space between them, so neighbouring Hangul words read apart", "[labels]") {
    const FontMetrics font(22.0f);
    const TextMeasure measure = font.measure();
    const std::vector<std::string> korean = {"<sos>", "나", "는", "빨간", "사과", "를", "좋아해"};
    // The least room between two neighbouring flat labels, or -1 when they are not flat.
    const auto closest = [&](const AxisLabelRequest& request) {
        const AxisLabels labels = layout_axis_labels(korean, measure, request);
        if (labels.style != LabelStyle::horizontal) return -1.0f;
        float least = 1e9f;
        for (size_t i = 1; i < labels.placed.size(); ++i)
            least =
                std::min(least, labels.placed[i].pos.x - (labels.placed[i - 1].pos.x + labels.placed[i - 1].size.w));
        return least;
    };
    AxisLabelRequest request{LabelAxis::columns, 20.0f, 96.0f, 96.0f, 2.0f, -1};
    int touching = 0;  // pitches at which, with 2 px alone, two flat words come closer than half an em
    for (float pitch = 20.0f; pitch <= 120.0f; pitch += 1.0f) {
        request.pitch = pitch;
        request.word_gap = 0.0f;
        const float without = closest(request);
        if (without >= 0.0f && without < 11.0f) ++touching;
        request.word_gap = 11.0f;  // half an em
        const float with = closest(request);
        INFO("pitch " << pitch);
        CHECK((with < 0.0f || with >= 11.0f - 1e-3f));
    }
    CHECK(touching > 0);  // the case the masks view showed ("를좋아해") is among those tried
}

TEST_CASE("key tokens under a thumbnail: flat when they fit, else turned to read upwards, ending under the cells",
          "[labels]") {
    const FontMetrics font(16.0f);
    const TextMeasure measure = font.measure();
    const std::vector<std::string> keys = {"<sos>", "나", "는", "빨간", "사과", "를", "좋아해"};
    float widest = 0.0f, line = 0.0f;
    for (const std::string& k : keys) widest = std::max(widest, measure(k).w), line = measure(k).h;
    const float bottom = 120.0f;
    AxisLabelRequest wide{LabelAxis::columns, widest + 8.0f, 80.0f, 0.0f, 2.0f, -1, 3.0f, LabelSide::below, bottom};
    const AxisLabels flat = layout_axis_labels(keys, measure, wide);
    CHECK(flat.style == LabelStyle::horizontal);
    REQUIRE(flat.placed.size() == keys.size());
    for (const PlacedLabel& l : flat.placed) CHECK(l.pos.y == Approx(bottom + 3.0f));
    CHECK(flat.depth == Approx(3.0f + line));  // the room to leave under the cells when sizing them

    // Narrow columns and no room left of the first (the previous head's keys are there): turned a quarter,
    // each one's end 3 px under the cells, the depth the margin and the longest label.
    AxisLabelRequest narrow = wide;
    narrow.pitch = line + 4.0f;
    const AxisLabels turned = layout_axis_labels(keys, measure, narrow);
    CHECK(turned.style == LabelStyle::rotated);
    CHECK(turned.angle == Approx(1.5707963f));
    REQUIRE(turned.placed.size() == keys.size());
    for (const PlacedLabel& l : turned.placed) {
        const LabelRect b = l.box().bounds();
        CHECK(b.y0 == Approx(bottom + 3.0f));
        CHECK(b.x0 >= 0.0f);  // never reaches left of the first column
    }
    CHECK(turned.depth == Approx(3.0f + widest));
    CHECK(turned.n_abbreviated() == 0);

    // The same labels above the cells take the same depth there.
    AxisLabelRequest above = narrow;
    above.side = LabelSide::above;
    CHECK(layout_axis_labels(keys, measure, above).depth == Approx(turned.depth));
}

TEST_CASE("key tokens under a thumbnail narrower than one label: thinned at 90°, within the thumbnail's width",
          "[labels]") {
    // A 1B model's grid at 2,048 tokens: 32 heads side by side at 1920 px leave each thumbnail 30 px, and a token id
    // ("42445") is wider than that. Flat, the first label would run under the next head's thumbnail.
    const FontMetrics font(16.0f);
    const TextMeasure measure = font.measure();
    std::vector<std::string> keys;
    std::mt19937 rng(2048);
    for (int i = 0; i < 2048; ++i) keys.push_back(std::to_string(10000 + rng() % 118256));
    const float thumb = 30.0f;
    REQUIRE(measure(keys.front()).w > thumb);
    const AxisLabelRequest r{LabelAxis::columns, thumb / 2048.0f, 80.0f, 0.0f, 2.0f, -1, 3.0f, LabelSide::below, thumb};
    const AxisLabels labels = layout_axis_labels(keys, measure, r);
    CHECK(labels.style == LabelStyle::rotated);
    CHECK(labels.angle == Approx(1.5707963f));
    REQUIRE_FALSE(labels.placed.empty());
    for (const PlacedLabel& l : labels.placed) {
        const LabelRect b = l.box().bounds();
        CHECK(b.x0 >= -0.01f);
        CHECK(b.x1 <= thumb + 0.01f);
    }
}

TEST_CASE("the embeddings map's labels: no two overlap, none covers a point, each moved one has a leader line "
          "that runs through no other label",
          "[labels]") {
    const FontMetrics font(16.0f);
    const TextMeasure measure = font.measure();
    std::mt19937 rng(7);
    int leaders = 0, dropped = 0;
    for (int trial = 0; trial < 60; ++trial) {
        const int n = 3 + trial % 30;
        const LabelRect area{0.0f, 0.0f, 300.0f + 10.0f * (trial % 20), 300.0f + 10.0f * (trial % 20)};
        // Half the points in a tight cluster (as the embeddings of similar tokens are), the rest spread.
        std::uniform_real_distribution<float> spread(10.0f, area.x1 - 10.0f), cluster(-18.0f, 18.0f);
        std::vector<LabelPoint> points;
        for (int i = 0; i < n; ++i)
            points.push_back(i % 2 ? LabelPoint{spread(rng), spread(rng)}
                                   : LabelPoint{0.4f * area.x1 + cluster(rng), 0.5f * area.y1 + cluster(rng)});
        const std::vector<std::string> texts = token_list(rng, n);
        std::vector<LabelSize> sizes;
        for (const std::string& t : texts) sizes.push_back(measure(t));
        const PointLabelRequest request{area, 4.0f, 2.0f};
        const std::vector<PointLabel> labels = place_point_labels(points, sizes, request);
        REQUIRE(labels.size() == points.size());
        INFO("trial " << trial);
        for (size_t i = 0; i < labels.size(); ++i) {
            const PointLabel& l = labels[i];
            if (!l.placed) {
                ++dropped;
                continue;
            }
            CHECK(l.box.x0 >= area.x0);
            CHECK(l.box.x1 <= area.x1);
            CHECK(l.box.y0 >= area.y0);
            CHECK(l.box.y1 <= area.y1);
            CHECK(std::abs((l.box.x1 - l.box.x0) - sizes[i].w) < 0.01f);
            for (const LabelPoint& p : points)
                CHECK_FALSE(l.box.grown(request.dot_radius).overlaps({p.x, p.y, p.x, p.y}));
            for (size_t j = i + 1; j < labels.size(); ++j)
                if (labels[j].placed) CHECK_FALSE(meet(quad_of(l.box), quad_of(labels[j].box)));
            // Moved past the spots beside its dot: a leader line from the dot's edge to the box's nearest point.
            const float dx = std::max({l.box.x0 - points[i].x, points[i].x - l.box.x1, 0.0f});
            const float dy = std::max({l.box.y0 - points[i].y, points[i].y - l.box.y1, 0.0f});
            const bool moved = std::max(dx, dy) > request.dot_radius + request.gap + 0.5f;
            CHECK(l.leader == moved);
            if (l.leader) {
                ++leaders;
                const float from = std::hypot(l.leader_from.x - points[i].x, l.leader_from.y - points[i].y);
                CHECK(from <= request.dot_radius + 0.01f);
                const bool on_edge =
                    std::abs(l.leader_to.x - l.box.x0) < 0.01f || std::abs(l.leader_to.x - l.box.x1) < 0.01f ||
                    std::abs(l.leader_to.y - l.box.y0) < 0.01f || std::abs(l.leader_to.y - l.box.y1) < 0.01f;
                CHECK(on_edge);
                for (size_t j = 0; j < labels.size(); ++j) {  // it crosses no other label, before or after it
                    if (j == i || !labels[j].placed) continue;
                    INFO("leader of " << i << " through label " << j);
                    CHECK_FALSE(segment_enters(l.leader_from, l.leader_to, labels[j].box));
                }
            }
        }
        if (sizes.front().w < 0.3f * area.x1) CHECK(labels.front().placed);  // placed first, into an empty map
    }
    CHECK(leaders > 0);  // the clusters pushed labels out
    CHECK(dropped > 0);  // and some found no room: shown on hover only
}
