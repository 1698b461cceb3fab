#include "panels/compare_tool.h"

#include "compare_run.h"
#include "forward/step_path.h"
#include "panels/input_fields.h"
#include "platform/threads.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace attnlab::gui {

namespace {

// Kept between frames (PanelCaches): the tool, and the labels of the block it last drew.
struct CompareCache {
    CompareRun run{platform::has_threads() ? WorkMode::own_thread : WorkMode::between_frames};
    // The labels of the block last drawn: run B's version, the step and the slice they were made for.
    uint64_t labelled_version = 0;
    std::string labelled_step;
    int labelled_slice = -1;
    uint64_t plot_version = 0;  // bumps whenever the drawn block changes (the heatmap's texture follows it)
    std::vector<std::string> row_labels, col_labels;
};

bool is_vocabulary_wide(const StepRecord& record) {
    return record.id.kind == StepKind::logits || record.id.kind == StepKind::probs;
}

// The tokens of a sequence as labels when there are n of them; otherwise the indices.
std::vector<std::string> axis_labels(const PanelContext& ctx, std::optional<Sequence> sequence, int64_t n) {
    const Model& m = ctx.session.model();
    const bool source = sequence == Sequence::source;
    const std::vector<int>* ids = !sequence ? nullptr
                                  : source  ? &ctx.stepper().inputs().src_ids
                                            : &ctx.stepper().inputs().tgt_ids;
    std::vector<std::string> labels;
    for (int64_t i = 0; i < n; ++i)
        labels.push_back(ids && static_cast<int64_t>(ids->size()) == n
                             ? token_or_id(source ? m.src_vocab : m.tgt_vocab, (*ids)[static_cast<size_t>(i)])
                             : std::to_string(i));
    return labels;
}

// The block's rows and columns as the heatmap labels them: the record's sequence, its keys, or the vocabulary.
void label_block(const PanelContext& ctx, CompareCache& cache, const DiffBlock& block, const std::string& step) {
    cache.row_labels.clear();
    cache.col_labels.clear();
    if (!block.diff) return;
    const Tensor& d = block.diff->difference;
    const int64_t cols_all = d.rank() == 0 ? 1 : d.dim(-1);
    const int64_t rows_all = block.rows;
    const StepRecord& record = ctx.stepper().step(*ctx.stepper().find(step)).record;
    const bool vocabulary = is_vocabulary_wide(record);
    const std::optional<Vocab>& out_vocab = output_vocab(ctx);
    cache.row_labels = axis_labels(ctx, d.rank() >= 2 ? std::optional(record.rows) : std::nullopt, rows_all);
    const std::vector<std::string> keys =
        axis_labels(ctx, d.rank() == 1 ? std::optional(record.rows) : record.keys, cols_all);
    for (int64_t c : block.columns)
        cache.col_labels.push_back(vocabulary ? token_or_id(out_vocab, static_cast<int>(c))
                                              : keys[static_cast<size_t>(c)]);
}

void draw_b_picker(PanelContext& ctx) {
    CompareChoice& c = ctx.view.analysis.compare;
    int kind = c.other_model ? 1 : 0;
    ImGui::TextUnformatted(ctx.t("B:"));
    ImGui::SameLine();
    ImGui::RadioButton(ctx.t("this model with heads switched off"), &kind, 0);
    ImGui::SameLine();
    ImGui::RadioButton(ctx.t("another model or checkpoint"), &kind, 1);
    c.other_model = kind == 1;
    if (c.other_model) {
        std::string typed;
        ImGui::SetNextItemWidth(30.0f * ctx.em);
        if (remembered_text_field("##compare_path", ctx.t("path of a model file or Hugging Face folder, then Enter"),
                                  c.other_path, typed))
            c.other_path = typed;
        for (const std::string& recent : ctx.view.settings.recent_files) {
            if (recent == ctx.session.model_name() || recent == c.other_path) continue;
            ImGui::SameLine();
            if (ImGui::SmallButton(model_display_name(recent).c_str())) c.other_path = recent;
        }
        return;
    }
    // One row of head buttons per attention; a switched-off head is drawn pressed. Heads of a
    // model opened before (a saved setting) are dropped: no button could switch them back on.
    const int H = ctx.config().n_heads;
    const std::vector<AttentionSite> sites = attention_sites(ctx.stepper());
    drop_missing_heads(c.ablated, ctx.stepper());
    const float label_w = 13.5f * ctx.em, button_w = 1.9f * ctx.em;
    for (const AttentionSite& site : sites) {
        const std::string name = attention_name(site);
        ImGui::PushID(name.c_str());
        ImGui::TextDisabled("%s", name.c_str());
        for (int h = 0; h < H; ++h) {
            auto it = std::find(c.ablated.begin(), c.ablated.end(), AttentionHead{site, h});
            const bool off = it != c.ablated.end();
            ImGui::SameLine(label_w + button_w * static_cast<float>(h));
            if (off) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.80f, 0.33f, 0.25f, 1.0f));
            ImGui::PushID(h);
            if (ImGui::SmallButton(std::to_string(h).c_str())) {
                if (off)
                    c.ablated.erase(it);
                else
                    c.ablated.push_back({site, h});
            }
            ImGui::PopID();
            if (off) ImGui::PopStyleColor();
        }
        ImGui::PopID();
    }
}

// One cell per shared step, coloured by how far B has moved from A there; click to show it.
void draw_divergence_strip(PanelContext& ctx, const CompareRun& run) {
    const std::vector<std::string>& shared = run.shared();
    const std::vector<float>& relative = run.relative();
    const size_t n = shared.size();
    const float width = ImGui::GetContentRegionAvail().x, height = 1.4f * ctx.em;
    const float cell = width / static_cast<float>(std::max<size_t>(n, 1));
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec4 calm(0.25f, 0.27f, 0.30f, 1.0f), hot(0.93f, 0.42f, 0.22f, 1.0f);
    for (size_t i = 0; i < n; ++i) {
        const float t = std::clamp(std::sqrt(relative[i]), 0.0f, 1.0f);
        const ImVec4 colour(calm.x + (hot.x - calm.x) * t, calm.y + (hot.y - calm.y) * t, calm.z + (hot.z - calm.z) * t,
                            1.0f);
        const ImVec2 p(origin.x + cell * static_cast<float>(i), origin.y);
        draw->AddRectFilled(p, ImVec2(p.x + std::max(cell - 1.0f, 1.0f), p.y + height), ImGui::GetColorU32(colour));
        if (shared[i] == ctx.view.analysis.compare.step)
            draw->AddRect(ImVec2(p.x - 1.0f, p.y - 1.0f), ImVec2(p.x + cell, p.y + height + 1.0f),
                          ImGui::GetColorU32(ImGuiCol_Text), 0.0f, 0, 2.0f);
    }
    ImGui::InvisibleButton("strip", ImVec2(width, height));
    if (ImGui::IsItemHovered() && n > 0) {
        const size_t i = std::min(n - 1, static_cast<size_t>((ImGui::GetIO().MousePos.x - origin.x) / cell));
        ImGui::SetTooltip("%s: %s %.3g", shared[i].c_str(), ctx.t("relative difference"),
                          static_cast<double>(relative[i]));
        if (ImGui::IsItemClicked()) ctx.view.analysis.compare.step = shared[i];
    }
}

}  // namespace

void draw_compare_tool(PanelContext& ctx) {
    text_disabled_wrapped(
        ctx.t("Run B beside this run, on the same tokens: the strip shows, step by step, how far B's "
              "tensor is from this run's (‖B − A‖ / ‖A‖; bright: far). Click a step to see B − A."));
    CompareCache& cache = ctx.caches.get<CompareCache>();
    CompareRun& run = cache.run;
    draw_b_picker(ctx);
    run.update(ctx.stepper(), ctx.view.analysis.compare);
    switch (run.state()) {
    case CompareRun::State::ready: break;
    case CompareRun::State::opening:
        ImGui::TextDisabled(ctx.t("Opening %s …"), model_display_name(run.opening()).c_str());
        return;
    case CompareRun::State::no_path:
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s",
                           ctx.t("Give the path of a model file or a Hugging Face folder."));
        return;
    case CompareRun::State::failed:
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", run.error().c_str());
        return;
    }
    if (run.dropped_mask_cells() + run.dropped_heads() > 0)
        ImGui::TextDisabled(ctx.t("B has no place for %d of this run's mask cells and %d of its switched-off heads: B "
                                  "runs without them."),
                            run.dropped_mask_cells(), run.dropped_heads());
    if (run.shared().empty()) {
        text_not_run_yet(ctx);
        return;
    }
    CompareChoice& c = ctx.view.analysis.compare;
    c.step = run.step_or_default(ctx.stepper(), c.step);
    if (const auto first = run.first_difference())
        ImGui::Text("%s %s", ctx.t("The runs first differ at"), first->c_str());
    else
        ImGui::TextUnformatted(ctx.t("The two runs are identical at every step."));
    draw_divergence_strip(ctx, run);

    ImGui::SetNextItemWidth(24.0f * ctx.em);
    if (ImGui::BeginCombo(ctx.t("step"), c.step.c_str())) {
        for (const std::string& path : run.shared())
            if (ImGui::Selectable(path.c_str(), path == c.step)) c.step = path;
        ImGui::EndCombo();
    }
    const Tensor* a_out = ctx.stepper().output(c.step);
    const int slices = a_out && a_out->rank() >= 3 ? static_cast<int>(a_out->dim(0)) : 1;
    c.slice = std::clamp(c.slice, 0, slices - 1);
    if (slices > 1) {
        ImGui::SameLine();
        value_slider_int(ctx.t("Head"), "##head", &c.slice, 0, slices - 1, "%d", 6.0f * ctx.em);
    }
    const int slice = slices > 1 ? c.slice : 0;
    const DiffBlock& block = run.block(ctx.stepper(), c.step, slice);
    if (!block.diff) {
        ImGui::TextDisabled("%s", block.diff.error().message.c_str());
        return;
    }
    if (cache.labelled_version != run.version() || cache.labelled_step != c.step || cache.labelled_slice != slice) {
        cache.labelled_version = run.version();
        cache.labelled_step = c.step;
        cache.labelled_slice = slice;
        ++cache.plot_version;
        label_block(ctx, cache, block, c.step);
    }
    ImGui::SameLine();
    ImGui::Text("max |B − A| %.4g   rms %.4g   %s %.4g", static_cast<double>(block.diff->max_abs),
                static_cast<double>(block.diff->rms), ctx.t("relative"), static_cast<double>(block.diff->relative));
    MatrixPlot plot;
    plot.key = "analysis/compare";
    plot.values = block.values.data();
    plot.rows = block.rows;
    plot.cols = block.cols;
    plot.version = cache.plot_version;
    plot.colormap = Colormap::diverging;
    plot.row_labels = &cache.row_labels;
    plot.col_labels = &cache.col_labels;  // rotated, thinned or abbreviated to fit (widgets/label_layout.h)
    plot.caption = "B − A";
    plot.fit_height = true;
    plot.fixed_range = true;
    plot.lo = -block.range;
    plot.hi = block.range;
    const HeatmapHit hit = plot_matrix(ctx, plot);
    if (hit.row >= 0 && hit.col >= 0)
        ImGui::SetTooltip("[%d, %s]  B − A = %+.4g", hit.row, cache.col_labels[static_cast<size_t>(hit.col)].c_str(),
                          static_cast<double>(block.values[static_cast<size_t>(hit.row * block.cols + hit.col)]));
}

}  // namespace attnlab::gui
