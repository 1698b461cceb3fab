#include "panels/head_detectors_view.h"

#include "detector_sequence.h"
#include "forward/step_path.h"
#include "head_detector_tool.h"
#include "widgets/label_draw.h"
#include "widgets/radio_row.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace attnlab::gui {

namespace {

// Kept between frames (PanelCaches): the tool, and the sequence a click put in the session's input.
struct DetectorsCache {
    HeadDetectorTool tool;
    DetectorSequence sequence;
};

constexpr DetectorScore kScores[] = {DetectorScore::induction, DetectorScore::previous, DetectorScore::duplicate};
const char* const kScoreTitles[] = {tr_noop("Induction"), tr_noop("Previous token"), tr_noop("Duplicate token")};
const char* const kScoreHelp[] = {
    tr_noop("Each query of the second copy: its weight on the token just after its token's first occurrence."),
    tr_noop("Each query: its weight on the token just before it."),
    tr_noop("Each query of the second copy: its weight on its token's first occurrence.")};

// shaders/heatmap.frag's sequential ramp (viridis), so these cells match the other views' heatmaps.
ImVec4 sequential(float t) {
    static const float ramp[5][3] = {{0.267f, 0.005f, 0.329f},
                                     {0.229f, 0.322f, 0.546f},
                                     {0.128f, 0.567f, 0.551f},
                                     {0.369f, 0.789f, 0.383f},
                                     {0.993f, 0.906f, 0.144f}};
    const float x = std::clamp(t, 0.0f, 1.0f) * 4.0f;
    const int i = std::clamp(static_cast<int>(x), 0, 3);
    const float f = x - static_cast<float>(i);
    return ImVec4(ramp[i][0] + (ramp[i + 1][0] - ramp[i][0]) * f, ramp[i][1] + (ramp[i + 1][1] - ramp[i][1]) * f,
                  ramp[i][2] + (ramp[i + 1][2] - ramp[i][2]) * f, 1.0f);
}

ImU32 text_on(const ImVec4& bg) {
    const float luminance = 0.299f * bg.x + 0.587f * bg.y + 0.114f * bg.z;
    return luminance > 0.5f ? IM_COL32(20, 20, 20, 255) : IM_COL32(250, 250, 250, 255);
}

// A heatmap row: "L1", or in an encoder-decoder "enc 1 self" / "dec 1 self".
std::string short_label(const PanelContext& ctx, const AttentionSite& site) {
    char label[64];
    if (ctx.config().arch != Arch::encoder_decoder)
        std::snprintf(label, sizeof label, "L%d", site.layer);
    else
        std::snprintf(label, sizeof label,
                      stack_of(site.use) == Stack::encoder ? ctx.t("enc %d self") : ctx.t("dec %d self"), site.layer);
    return label;
}

std::string long_label(const PanelContext& ctx, const AttentionSite& site) {
    char label[96];
    std::snprintf(label, sizeof label,
                  stack_of(site.use) == Stack::encoder ? ctx.t("encoder layer %d self-attention")
                                                       : ctx.t("decoder layer %d self-attention"),
                  site.layer);
    return label;
}

// The head on the detector's sequence: the session's input becomes its ids, the Attention view shows the head.
void open_head(PanelContext& ctx, DetectorsCache& cache, const RankedHead& h) {
    const HeadDetectorScores& s = cache.tool.scores();
    if (!cache.sequence.open(ctx.session, s.ids)) return;  // the session's error line says why
    focus_attention_step(ctx.view, StepId::attention_at(s.layers[h.row].attention, AttentionStage::weights));
    ctx.view.attention.head = h.head;
    ctx.view.bring_forward = View::attention;
}

// L, the seed, the BOS, and the score the table ranks by.
void controls(PanelContext& ctx, DetectorsCache& cache) {
    HeadDetectorChoice& c = ctx.view.analysis.detectors;
    const HeadDetectorOptions& run = cache.tool.options();
    const ModelConfig& config = ctx.config();
    const int longest = std::max(2, std::min(kMaxDetectorLength, (config.max_len - (run.bos ? 1 : 0)) / 2));
    int length = run.length.value_or(c.length);
    if (value_slider_int(ctx.t("Length L"), "##detector_length", &length, 2, longest, "%d", 7.0f * ctx.em))
        c.length = length;
    const char* seed_label = ctx.t("Seed");
    same_line_if_fits(ImGui::CalcTextSize(seed_label).x + 7.5f * ctx.em, 1.5f * ctx.em);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(seed_label);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(6.5f * ctx.em);
    int seed = c.seed;
    if (ImGui::InputInt("##detector_seed", &seed)) c.seed = std::clamp(seed, 0, 1 << 30);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.t("Another seed draws other random tokens."));
    const char* bos_label = ctx.t("Start with a BOS");
    same_line_if_fits(checkbox_width(bos_label) + 6.5f * ctx.em, 1.5f * ctx.em);
    bool with_bos = run.bos.has_value();
    if (ImGui::Checkbox(bos_label, &with_bos)) {
        const std::optional<int> model_bos = detector_options(config, {c.length, c.seed, -1, c.sort}).bos;
        c.bos = with_bos ? (model_bos ? -1 : 0) : -2;
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("A first token before the two copies, as a model trained with one expects "
                                      "(its <sos> or BOS by default)."));
    if (run.bos) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(5.0f * ctx.em);
        int id = *run.bos;
        if (ImGui::InputInt("##detector_bos", &id, 0)) c.bos = std::max(id, 0);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.t("The BOS token's id"));
    }
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(ctx.t("Rank by"));
    ImGui::SameLine();
    const int picked =
        radio_row({ctx.t(kScoreTitles[0]), ctx.t(kScoreTitles[1]), ctx.t(kScoreTitles[2])}, static_cast<int>(c.sort));
    if (picked >= 0) c.sort = kScores[picked];
}

// The sequence as tokens (a model with an encoder reads them in its source vocabulary), and, while the session
// shows it, the way back to the user's sentence.
void sequence_line(PanelContext& ctx, DetectorsCache& cache) {
    const HeadDetectorScores& s = cache.tool.scores();
    const Model& model = ctx.session.model();
    const std::optional<Vocab>& vocab = ctx.config().has_encoder() ? model.src_vocab : model.tgt_vocab;
    std::string tokens;
    for (int id : s.ids) tokens += (tokens.empty() ? "" : " ") + token_or_id(vocab, id);
    char head[160];
    std::snprintf(head, sizeof head,
                  s.layout.first > 0 ? ctx.t("A BOS, then %d random tokens twice:") : ctx.t("%d random tokens twice:"),
                  static_cast<int>(s.layout.length));
    ImGui::TextDisabled("%s", head);
    ImGui::SameLine();
    const float room = ImGui::GetContentRegionAvail().x;
    const std::string shown = abbreviate_label(tokens, room, imgui_text_measure());
    ImGui::TextUnformatted(shown.c_str());
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(36.0f * ctx.em);
        ImGui::TextWrapped("%s", tokens.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
    if (!cache.sequence.showing(ctx.session)) return;
    ImGui::TextColored(ImVec4(0.95f, 0.72f, 0.35f, 1.0f), "%s",
                       ctx.t("The input is this sequence now; your sentence is kept."));
    ImGui::SameLine();
    if (ImGui::SmallButton(ctx.t("Back to my sentence"))) cache.sequence.restore(ctx.session);
}

// Where the three heatmaps go in `width`: the row labels, then three slots, each as wide as its cells or its title.
struct MapLayout {
    std::vector<std::string> labels;  // the rows'
    float label_w = 0.0f, cell_w = 0.0f, slot_w = 0.0f, gap = 0.0f;
    float width() const { return label_w + 3.0f * slot_w + 2.0f * gap; }
};

MapLayout map_layout(const PanelContext& ctx, const HeadDetectorScores& s, float width) {
    const float em = ctx.em;
    const int H = static_cast<int>(s.layers.front().heads.size());
    MapLayout m;
    for (const auto& layer : s.layers) {
        m.labels.push_back(short_label(ctx, layer.attention));
        m.label_w = std::max(m.label_w, ImGui::CalcTextSize(m.labels.back().c_str()).x);
    }
    m.label_w += 0.5f * em;
    m.gap = 1.0f * em;
    float title_w = 0.0f;
    for (const char* title : kScoreTitles) title_w = std::max(title_w, ImGui::CalcTextSize(ctx.t(title)).x);
    const float room = (width - m.label_w - 2.0f * m.gap) / 3.0f;  // per slot
    m.cell_w = std::clamp(room / static_cast<float>(H), 0.5f * em, 2.6f * em);
    m.slot_w = std::max(m.cell_w * static_cast<float>(H), title_w);
    return m;
}

// The three layer × head heatmaps side by side in `width`, then the legend; a hovered cell outlined in all three,
// its scores in a tooltip; a click opens the head.
void heatmaps(PanelContext& ctx, DetectorsCache& cache, float width) {
    const HeadDetectorScores& s = cache.tool.scores();
    const int rows = static_cast<int>(s.layers.size());
    const int H = static_cast<int>(s.layers.front().heads.size());
    const float em = ctx.em, line = ImGui::GetTextLineHeight();
    const MapLayout m = map_layout(ctx, s, width);
    const std::vector<std::string>& labels = m.labels;
    const float label_w = m.label_w, gap = m.gap, cell_w = m.cell_w;
    const float cell_h = std::clamp(cell_w * 0.7f, 0.6f * em, 1.5f * em);
    const float map_w = cell_w * static_cast<float>(H);
    const bool numbers = ImGui::CalcTextSize("0.00").x + 0.3f * em <= cell_w && line <= cell_h;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const float cells_y = origin.y + 2.0f * line + 0.3f * em;  // under the title and the head numbers
    const int label_every = std::max(1, static_cast<int>((ImGui::CalcTextSize("00").x + 0.3f * em) / cell_w) + 1);
    int hover_row = -1, hover_head = -1;
    for (int k = 0; k < 3; ++k) {
        const float x0 = origin.x + label_w + static_cast<float>(k) * (m.slot_w + gap);
        draw->PushClipRect(ImVec2(x0, origin.y), ImVec2(x0 + m.slot_w + 0.5f * gap, origin.y + line), true);
        draw->AddText(ImVec2(x0, origin.y), text, ctx.t(kScoreTitles[k]));
        draw->PopClipRect();
        for (int h = 0; h < H; h += label_every) {
            const std::string n = std::to_string(h);
            const float tw = ImGui::CalcTextSize(n.c_str()).x;
            draw->AddText(ImVec2(x0 + (static_cast<float>(h) + 0.5f) * cell_w - 0.5f * tw, origin.y + line), dim,
                          n.c_str());
        }
        for (int r = 0; r < rows; ++r) {
            const float y = cells_y + static_cast<float>(r) * cell_h;
            if (k == 0) {
                const float tw = ImGui::CalcTextSize(labels[static_cast<size_t>(r)].c_str()).x;
                draw->AddText(ImVec2(x0 - 0.4f * em - tw, y + 0.5f * (cell_h - line)), text,
                              labels[static_cast<size_t>(r)].c_str());
            }
            for (int h = 0; h < H; ++h) {
                const float v = score_of(s.layers[static_cast<size_t>(r)].heads[static_cast<size_t>(h)], kScores[k]);
                const ImVec4 bg = sequential(v);
                const ImVec2 a(x0 + static_cast<float>(h) * cell_w, y);
                draw->AddRectFilled(a, ImVec2(a.x + cell_w - 1.0f, a.y + cell_h - 1.0f),
                                    ImGui::ColorConvertFloat4ToU32(bg));
                if (!numbers) continue;
                char buf[16];
                std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(v));
                const ImVec2 ts = ImGui::CalcTextSize(buf);
                draw->AddText(ImVec2(a.x + 0.5f * (cell_w - ts.x), a.y + 0.5f * (cell_h - ts.y)), text_on(bg), buf);
            }
        }
        ImGui::SetCursorScreenPos(ImVec2(x0, cells_y));
        ImGui::PushID(k);
        ImGui::InvisibleButton("##detector_map", ImVec2(map_w, cell_h * static_cast<float>(rows)));
        ImGui::PopID();
        if (ImGui::IsItemHovered()) {
            const ImVec2 mouse = ImGui::GetIO().MousePos;
            hover_head = std::clamp(static_cast<int>((mouse.x - x0) / cell_w), 0, H - 1);
            hover_row = std::clamp(static_cast<int>((mouse.y - cells_y) / cell_h), 0, rows - 1);
            if (ImGui::IsItemClicked()) open_head(ctx, cache, {static_cast<size_t>(hover_row), hover_head});
        }
    }
    if (hover_row >= 0) {
        for (int k = 0; k < 3; ++k) {  // the same head outlined in the three maps
            const ImVec2 a(
                origin.x + label_w + static_cast<float>(k) * (m.slot_w + gap) + static_cast<float>(hover_head) * cell_w,
                cells_y + static_cast<float>(hover_row) * cell_h);
            draw->AddRect(ImVec2(a.x - 1.0f, a.y - 1.0f), ImVec2(a.x + cell_w, a.y + cell_h), IM_COL32(0, 0, 0, 255),
                          0.0f, 0, 3.0f);
            draw->AddRect(a, ImVec2(a.x + cell_w - 1.0f, a.y + cell_h - 1.0f), IM_COL32(255, 255, 255, 255), 0.0f, 0,
                          1.5f);
        }
        const HeadScores& v = s.layers[static_cast<size_t>(hover_row)].heads[static_cast<size_t>(hover_head)];
        ImGui::BeginTooltip();
        ImGui::Text("%s, %s %d", long_label(ctx, s.layers[static_cast<size_t>(hover_row)].attention).c_str(),
                    ctx.t("Head"), hover_head);
        for (int k = 0; k < 3; ++k)
            ImGui::Text("%s: %.3f", ctx.t(kScoreTitles[k]), static_cast<double>(score_of(v, kScores[k])));
        ImGui::TextDisabled("%s", ctx.t("Click: open this head on this sequence in the Attention view."));
        ImGui::EndTooltip();
    }
    // The legend: 0 … 1, a mean attention weight.
    ImGui::SetCursorScreenPos(ImVec2(origin.x, cells_y + cell_h * static_cast<float>(rows) + 0.5f * em));
    const float bar_w = std::min(width, 14.0f * em), bar_h = 0.6f * em;
    const ImVec2 o = ImGui::GetCursorScreenPos();
    constexpr int kSteps = 32;
    for (int i = 0; i < kSteps; ++i) {
        const float t0 = static_cast<float>(i) / kSteps, t1 = static_cast<float>(i + 1) / kSteps;
        draw->AddRectFilled(ImVec2(o.x + t0 * bar_w, o.y), ImVec2(o.x + t1 * bar_w, o.y + bar_h),
                            ImGui::ColorConvertFloat4ToU32(sequential(0.5f * (t0 + t1))));
    }
    ImGui::Dummy(ImVec2(bar_w, bar_h));
    const ImVec2 p = ImGui::GetCursorScreenPos();
    draw->AddText(p, dim, "0");
    draw->AddText(ImVec2(p.x + 0.5f * bar_w - 0.5f * ImGui::CalcTextSize("0.5").x, p.y), dim, "0.5");
    draw->AddText(ImVec2(p.x + bar_w - ImGui::CalcTextSize("1").x, p.y), dim, "1");
    ImGui::Dummy(ImVec2(bar_w, line));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    ImGui::TextDisabled("%s", ctx.t("Each cell: the head's mean attention weight on the pattern's key."));
    ImGui::PopTextWrapPos();
}

// Every head, ranked by the chosen score; a click on a row opens the head.
void ranked_table(PanelContext& ctx, DetectorsCache& cache) {
    const DetectorScore by = ctx.view.analysis.detectors.sort;
    const std::vector<RankedHead> heads = cache.tool.ranked(by);
    const HeadDetectorScores& s = cache.tool.scores();
    ImGui::TextUnformatted(ctx.t("Heads ranked; click one to open it on this sequence"));
    const ImGuiTableFlags flags =
        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;
    const float row_h = ImGui::GetTextLineHeight() + 2.0f * ImGui::GetStyle().CellPadding.y + 1.0f;
    const float height =
        std::min(ImGui::GetContentRegionAvail().y, static_cast<float>(heads.size() + 1) * row_h + 2.0f);
    if (!ImGui::BeginTable("detector_heads", 6, flags, ImVec2(0.0f, height))) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    float name_w = 0.0f;
    for (const auto& layer : s.layers)
        name_w = std::max(name_w, ImGui::CalcTextSize(long_label(ctx, layer.attention).c_str()).x);
    ImGui::TableSetupColumn("#", 0, ImGui::CalcTextSize("000").x);
    ImGui::TableSetupColumn(ctx.t("attention"), 0, name_w + 0.5f * ctx.em);
    ImGui::TableSetupColumn(ctx.t("Head"), 0, std::max(ImGui::CalcTextSize(ctx.t("Head")).x, 2.0f * ctx.em));
    for (int k = 0; k < 3; ++k)
        ImGui::TableSetupColumn(
            ctx.t(kScoreTitles[k]), 0,
            std::max(ImGui::CalcTextSize(ctx.t(kScoreTitles[k])).x, ImGui::CalcTextSize("0.000").x));
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int c = 0; c < 6; ++c) {  // each score's definition on its header
        ImGui::TableSetColumnIndex(c);
        ImGui::TableHeader(ImGui::TableGetColumnName(c));
        if (c >= 3 && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.t(kScoreHelp[c - 3]));
    }
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(heads.size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const RankedHead& h = heads[static_cast<size_t>(i)];
            const HeadScores& v = cache.tool.at(h);
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::PushID(i);
            char rank[16];
            std::snprintf(rank, sizeof rank, "%d", i + 1);
            if (ImGui::Selectable(rank, false, ImGuiSelectableFlags_SpanAllColumns)) open_head(ctx, cache, h);
            ImGui::PopID();
            ImGui::TableSetColumnIndex(1);
            ImGui::TextUnformatted(long_label(ctx, s.layers[h.row].attention).c_str());
            ImGui::TableSetColumnIndex(2);
            ImGui::Text("%d", h.head);
            for (int k = 0; k < 3; ++k) {
                ImGui::TableSetColumnIndex(3 + k);
                const float value = score_of(v, kScores[k]);
                if (kScores[k] == by) {
                    const ImVec4 bg = sequential(value);
                    ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, ImGui::ColorConvertFloat4ToU32(bg));
                    ImGui::PushStyleColor(ImGuiCol_Text, text_on(bg));
                    ImGui::Text("%.3f", static_cast<double>(value));
                    ImGui::PopStyleColor();
                } else {
                    ImGui::Text("%.3f", static_cast<double>(value));
                }
            }
        }
    }
    ImGui::EndTable();
}

}  // namespace

void draw_head_detectors(PanelContext& ctx) {
    DetectorsCache& cache = ctx.caches.get<DetectorsCache>();
    cache.tool.update(ctx.config(), ctx.stepper().weights(), ctx.view.analysis.detectors);
    text_disabled_wrapped(
        ctx.t("Each head on L random tokens repeated twice: an induction head looks from a token "
              "of the second copy to the token after its first occurrence; a previous-token head "
              "one back; a duplicate-token head at the first occurrence itself."));
    controls(ctx, cache);
    if (!cache.tool.ready()) {
        ImGui::TextDisabled("%s", cache.tool.error().c_str());
        return;
    }
    if (cache.tool.scores().layers.empty()) {
        ImGui::TextDisabled("%s", ctx.t("This model has no self-attention."));
        return;
    }
    sequence_line(ctx, cache);
    const float avail = ImGui::GetContentRegionAvail().x;
    const float table_min = 30.0f * ctx.em;
    const float maps_w = std::min(avail, map_layout(ctx, cache.tool.scores(), avail).width() + ctx.em);
    const bool beside = avail - maps_w >= table_min;
    if (beside) {
        ImGui::BeginChild("detector_maps", ImVec2(maps_w, 0.0f));
        heatmaps(ctx, cache, maps_w - ctx.em);  // within the child's right edge
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("detector_table");
        ranked_table(ctx, cache);
        ImGui::EndChild();
    } else {
        heatmaps(ctx, cache, avail);
        ranked_table(ctx, cache);
    }
}

}  // namespace attnlab::gui
