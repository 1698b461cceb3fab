#include "panels/embedding_map.h"

#include "analysis/embedding_similarity.h"
#include "panels/input_fields.h"
#include "param_names.h"

#include <imgui.h>

#include <algorithm>
#include <set>

namespace attnlab::gui {

namespace {

constexpr int kNeighbours = 12;

struct EmbeddingCache {
    const Tensor* table = nullptr;  // the token table it was computed from (an edit replaces it)
    int id = -1;
    std::vector<TokenSimilarity> nearest;
    std::vector<int> map_ids;     // the chosen token, its neighbours, the sentence's tokens
    Result<Mat> map = Error{""};  // (n, 2)
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

// Dots with labels in a square, the chosen token in the accent colour, its neighbours brighter.
void draw_map(const PanelContext& ctx, const EmbeddingCache& cache, const Side& side, float size) {
    const Mat& xy = *cache.map;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRect(origin, ImVec2(origin.x + size, origin.y + size), ImGui::GetColorU32(ImGuiCol_Border));
    const float lo_x = xy.col(0).minCoeff(), hi_x = xy.col(0).maxCoeff(), lo_y = xy.col(1).minCoeff(),
                hi_y = xy.col(1).maxCoeff();
    const float pad = 2.5f * ctx.em, span = size - 2.0f * pad;
    const auto at = [&](Eigen::Index i) {
        const float fx = hi_x > lo_x ? (xy(i, 0) - lo_x) / (hi_x - lo_x) : 0.5f;
        const float fy = hi_y > lo_y ? (xy(i, 1) - lo_y) / (hi_y - lo_y) : 0.5f;
        return ImVec2(origin.x + pad + fx * span, origin.y + pad + (1.0f - fy) * span);
    };
    const ImU32 chosen = ImGui::GetColorU32(ImVec4(1.0f, 0.78f, 0.16f, 1.0f));
    const ImU32 near = ImGui::GetColorU32(ImVec4(0.35f, 0.67f, 1.0f, 1.0f));
    const ImU32 other = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    for (Eigen::Index i = xy.rows() - 1; i >= 0; --i) {  // the chosen token drawn last, on top
        const ImU32 colour = i == 0 ? chosen : i <= static_cast<Eigen::Index>(cache.nearest.size()) ? near : other;
        const ImVec2 p = at(i);
        draw->AddCircleFilled(p, 0.25f * ctx.em, colour);
        draw->AddText(ImVec2(p.x + 0.35f * ctx.em, p.y - 0.5f * ctx.em), colour,
                      label(side, cache.map_ids[static_cast<size_t>(i)]).c_str());
    }
    ImGui::Dummy(ImVec2(size, size));
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
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        draw_map(ctx, cache, side, std::max(8.0f * ctx.em, std::min(avail.x, avail.y)));
    } else {
        ImGui::TextDisabled("%s", cache.map.error().message.c_str());
    }
    ImGui::EndChild();
}

}  // namespace attnlab::gui
