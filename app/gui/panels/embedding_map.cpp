// The Analysis view's embeddings tool: nearest tokens by cosine, and the 2-D PCA map with its labels
// placed by widgets/point_labels.h.
#include "panels/embedding_map.h"

#include "analysis/embedding_similarity.h"
#include "panels/input_fields.h"
#include "param_names.h"
#include "widgets/label_draw.h"
#include "widgets/point_labels.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <set>

namespace attnlab::gui {

namespace {

constexpr int kNeighbours = 12;

struct EmbeddingCache {
    const Tensor* table = nullptr;  // the token table it was computed from (an edit replaces it)
    int id = -1;
    std::vector<TokenSimilarity> nearest;
    std::vector<int> map_ids;       // the chosen token, its neighbours, the sentence's tokens
    Result<Pca2d> map = Error{""};  // coordinates (n, 2) and the variance each axis explains
};

struct Side {
    const std::optional<Vocab>& vocab;
    const Tensor& table;               // (V, C)
    const std::vector<int>& sentence;  // the ids this side reads now
};

Side last_stack(const PanelContext& ctx) {
    const bool decoder = ctx.config().has_decoder();
    const Model& m = ctx.session.model();
    const std::string& name = embedding_params(ctx.config(), decoder ? Stack::decoder : Stack::encoder).tokens;
    return {decoder ? m.tgt_vocab : m.src_vocab, ctx.stepper().weights().at(name),
            decoder ? ctx.stepper().inputs().tgt_ids : ctx.stepper().inputs().src_ids};
}

std::string label(const Side& side, int id) { return token_or_id(side.vocab, id); }

void refresh(EmbeddingCache& cache, const Side& side, int id) {
    if (cache.table == &side.table && cache.id == id) return;
    cache.table = &side.table;
    cache.id = id;
    auto nearest = nearest_tokens(side.table, id, kNeighbours);  // id comes from the vocabulary: always in range
    cache.nearest = nearest ? std::move(*nearest) : std::vector<TokenSimilarity>{};
    cache.map_ids = {id};
    for (const TokenSimilarity& t : cache.nearest) cache.map_ids.push_back(t.id);
    std::set<int> seen(cache.map_ids.begin(), cache.map_ids.end());
    for (int s : side.sentence)
        if (s >= 0 && s < side.table.dim(0) && seen.insert(s).second) cache.map_ids.push_back(s);
    cache.map = pca_2d(side.table, cache.map_ids);
}

ImU32 point_color(const EmbeddingCache& cache, size_t i) {
    if (i == 0) return ImGui::GetColorU32(ImVec4(1.0f, 0.78f, 0.16f, 1.0f));                     // the chosen token
    if (i <= cache.nearest.size()) return ImGui::GetColorU32(ImVec4(0.35f, 0.67f, 1.0f, 1.0f));  // its neighbours
    return ImGui::GetColorU32(ImGuiCol_TextDisabled);  // the sentence's other tokens
}

// A label over a filled box, for the hovered point.
void draw_label_boxed(ImDrawList* draw, const LabelRect& box, ImU32 colour, const std::string& text, float pad) {
    draw->AddRectFilled(ImVec2(box.x0 - pad, box.y0 - pad), ImVec2(box.x1 + pad, box.y1 + pad),
                        ImGui::GetColorU32(ImGuiCol_PopupBg), 0.2f * pad);
    draw->AddRect(ImVec2(box.x0 - pad, box.y0 - pad), ImVec2(box.x1 + pad, box.y1 + pad), colour, 0.2f * pad);
    draw->AddText(ImVec2(box.x0, box.y0), colour, text.c_str());
}

// The axes' names, with the share of the variance each component explains: PC1 under the square, PC2 up its left.
void draw_axis_names(const PanelContext& ctx, const Pca2d& pca, ImVec2 square, float size) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 colour = ImGui::GetColorU32(ImGuiCol_Text);
    char pc1[96], pc2[96];
    std::snprintf(pc1, sizeof pc1, ctx.t("PC1 (%.0f%% of the variance)"),
                  100.0 * static_cast<double>(pca.explained[0]));
    std::snprintf(pc2, sizeof pc2, ctx.t("PC2 (%.0f%% of the variance)"),
                  100.0 * static_cast<double>(pca.explained[1]));
    const ImVec2 w1 = ImGui::CalcTextSize(pc1), w2 = ImGui::CalcTextSize(pc2);
    draw->AddText(ImVec2(square.x + 0.5f * (size - w1.x), square.y + size + 0.2f * ctx.em), colour, pc1);
    draw_rotated_text(draw, ImVec2(square.x - w2.y - 0.2f * ctx.em, square.y + 0.5f * (size + w2.x)), colour, pc2,
                      0.5f * 3.14159265f);
}

// Dots in a square with their labels placed clear of each other (leader lines where moved), the axes named;
// hovering a dot lights it and its label (shown even if it found no room), a click chooses its token.
void draw_map(PanelContext& ctx, const EmbeddingCache& cache, const Side& side, ImVec2 avail, std::string& token) {
    const Pca2d& pca = *cache.map;
    const Mat& xy = pca.coords;          // (n, 2)
    const float margin = 1.6f * ctx.em;  // room for the axis names
    const float size = std::max(8.0f * ctx.em, std::min(avail.x - margin, avail.y - margin));
    const ImVec2 top_left = ImGui::GetCursorScreenPos();
    const ImVec2 origin(top_left.x + margin, top_left.y);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRect(origin, ImVec2(origin.x + size, origin.y + size), ImGui::GetColorU32(ImGuiCol_Border));
    const float lo_x = xy.col(0).minCoeff(), hi_x = xy.col(0).maxCoeff(), lo_y = xy.col(1).minCoeff(),
                hi_y = xy.col(1).maxCoeff();
    const float pad = 1.2f * ctx.em, span = size - 2.0f * pad;
    const auto at = [&](float x, float y) {
        const float fx = hi_x > lo_x ? (x - lo_x) / (hi_x - lo_x) : 0.5f;
        const float fy = hi_y > lo_y ? (y - lo_y) / (hi_y - lo_y) : 0.5f;
        return ImVec2(origin.x + pad + fx * span, origin.y + pad + (1.0f - fy) * span);
    };
    // The centre of the chosen tokens (0, 0), faintly.
    const ImVec2 zero = at(0.0f, 0.0f);
    const ImU32 faint = ImGui::GetColorU32(ImGuiCol_Border);
    draw->AddLine(ImVec2(origin.x, zero.y), ImVec2(origin.x + size, zero.y), faint);
    draw->AddLine(ImVec2(zero.x, origin.y), ImVec2(zero.x, origin.y + size), faint);
    draw_axis_names(ctx, pca, origin, size);

    const size_t n = static_cast<size_t>(xy.rows());
    std::vector<LabelPoint> points;
    std::vector<LabelSize> sizes;
    std::vector<std::string> texts;
    const TextMeasure measure = imgui_text_measure();
    for (size_t i = 0; i < n; ++i) {
        const ImVec2 p = at(xy(static_cast<Eigen::Index>(i), 0), xy(static_cast<Eigen::Index>(i), 1));
        points.push_back({p.x, p.y});
        texts.push_back(label(side, cache.map_ids[i]));
        sizes.push_back(measure(texts.back()));
    }
    const PointLabelRequest request{
        {origin.x, origin.y, origin.x + size, origin.y + size}, 0.25f * ctx.em, 0.15f * ctx.em};
    const std::vector<PointLabel> labels = place_point_labels(points, sizes, request);

    ImGui::InvisibleButton("map", ImVec2(size + margin, size + margin));
    int hovered = -1;  // the dot nearest the mouse, within an em
    if (ImGui::IsItemHovered()) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        float best = ctx.em * ctx.em;
        for (size_t i = 0; i < n; ++i) {
            const float dx = points[i].x - m.x, dy = points[i].y - m.y;
            if (dx * dx + dy * dy < best) best = dx * dx + dy * dy, hovered = static_cast<int>(i);
        }
    }
    for (size_t i = n; i-- > 0;) {  // the chosen token drawn last, on top
        const ImU32 colour = point_color(cache, i);
        const PointLabel& l = labels[i];
        if (l.placed && l.leader)
            draw->AddLine(ImVec2(l.leader_from.x, l.leader_from.y), ImVec2(l.leader_to.x, l.leader_to.y), colour);
        draw->AddCircleFilled(ImVec2(points[i].x, points[i].y), request.dot_radius, colour);
        if (l.placed) draw->AddText(ImVec2(l.box.x0, l.box.y0), colour, texts[i].c_str());
    }
    if (hovered < 0) return;
    const size_t h = static_cast<size_t>(hovered);
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    draw->AddCircle(ImVec2(points[h].x, points[h].y), 2.5f * request.dot_radius, text, 0, 2.0f);
    const PointLabel& l = labels[h];
    if (l.placed && l.leader)
        draw->AddLine(ImVec2(l.leader_from.x, l.leader_from.y), ImVec2(l.leader_to.x, l.leader_to.y), text, 2.0f);
    draw_label_boxed(draw, l.placed ? l.box : point_label_beside(points[h], sizes[h], request), text, texts[h],
                     0.15f * ctx.em);
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(texts[h].c_str());
    ImGui::Text(ctx.t("coordinates: PC1 %+.3f, PC2 %+.3f"), static_cast<double>(xy(static_cast<Eigen::Index>(h), 0)),
                static_cast<double>(xy(static_cast<Eigen::Index>(h), 1)));
    ImGui::TextDisabled("%s", ctx.t("Click to choose this token."));
    ImGui::EndTooltip();
    if (ImGui::IsItemClicked()) token = texts[h];
}

}  // namespace

void draw_embedding_tool(PanelContext& ctx) {
    text_disabled_wrapped(
        ctx.t("The token embeddings compared: the tokens whose embedding points the same way as the "
              "chosen one (cosine similarity), and a map of them and the sentence's tokens on the "
              "embeddings' first two principal components."));
    const Side side = last_stack(ctx);
    if (!side.vocab) {
        ImGui::TextDisabled("%s", ctx.t("This model has no vocabulary to choose tokens from."));
        return;
    }
    std::string& token = ctx.view.analysis.embedding_token;
    if (!side.vocab->find(token) && !side.sentence.empty()) token = label(side, side.sentence.back());
    std::string typed;
    ImGui::SetNextItemWidth(12.0f * ctx.em);
    if (remembered_text_field("##embedding_token", ctx.t("a token of the vocabulary"), token, typed)) {
        if (side.vocab->find(typed))
            token = typed;
        else
            ctx.status = "\"" + typed + "\": " + ctx.t("not a token of the vocabulary");
    }
    const auto id = side.vocab->find(token);
    if (!id) return;
    EmbeddingCache& cache = ctx.caches.get<EmbeddingCache>();
    refresh(cache, side, *id);

    const float list_w = 16.0f * ctx.em;
    ImGui::BeginChild("nearest", ImVec2(list_w, 0));
    ImGui::TextDisabled("%s", ctx.t("nearest by cosine"));
    for (const TokenSimilarity& t : cache.nearest) {
        ImGui::Text("%+.3f", static_cast<double>(t.cosine));
        ImGui::SameLine();
        if (ImGui::Selectable(label(side, t.id).c_str())) token = label(side, t.id);
    }
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("map");
    if (cache.map) {
        draw_map(ctx, cache, side, ImGui::GetContentRegionAvail(), token);
    } else {
        ImGui::TextDisabled("%s", cache.map.error().message.c_str());
    }
    ImGui::EndChild();
}

}  // namespace attnlab::gui
