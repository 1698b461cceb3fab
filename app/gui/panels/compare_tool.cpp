#include "panels/compare_tool.h"

#include "analysis/run_b.h"
#include "analysis/trace_compare.h"
#include "forward/step_path.h"
#include "hf/open_model.h"
#include "panels/input_fields.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace attnlab::gui {

namespace {

constexpr int kMaxColumns = 48;  // wider tensors (logits over a vocabulary) show the columns that changed most

struct CompareCache {
    // Run B, rebuilt when A changes (any session edit) or B's description does.
    uint64_t a_generation = 0;
    std::optional<CompareChoice> b_choice;  // what B was built from (other_model, other_path, ablated)
    std::string other_loaded_path;          // the other model, kept while its path stays
    std::optional<Model> other;
    std::optional<Stepper> b;
    std::string error;
    int dropped_mask_cells = 0, dropped_heads = 0;  // A's edits B has no place for
    std::vector<std::string> shared;                // steps both runs have computed, in A's order
    std::vector<float> relative;                    // per shared step: ‖B − A‖ / ‖A‖
    // The heatmap: B − A of one step (one slice of a 3-D one), some columns when it is wide.
    std::string shown_step;
    int shown_slice = -1;
    uint64_t version = 0;
    Result<StepDiff> diff = Error{""};
    std::vector<float> values;  // (rows, cols) row-major
    int rows = 0, cols = 0;
    std::vector<std::string> row_labels, col_labels;
    float range = 1.0f;
};

// Whether B built from `built` is B as `now` describes it.
bool same_b(const std::optional<CompareChoice>& built, const CompareChoice& now) {
    if (!built || built->other_model != now.other_model) return false;
    return now.other_model ? built->other_path == now.other_path : built->ablated == now.ablated;
}

// Every attention of the model, in step order (one per site: its weights step).
std::vector<AttentionSite> attention_sites(const Stepper& s) {
    std::vector<AttentionSite> out;
    for (const Step& step : s.steps())
        if (step.record.id.kind == StepKind::attention && step.record.id.stage == AttentionStage::weights)
            out.push_back(step.record.id.site());
    return out;
}

bool is_vocabulary_wide(const StepRecord& record) {
    return record.id.kind == StepKind::logits || record.id.kind == StepKind::probs;
}

void rebuild_b(PanelContext& ctx, CompareCache& cache) {
    const CompareChoice& c = ctx.view.analysis.compare;
    const Stepper& a = ctx.stepper();
    cache.a_generation = ctx.session.generation();
    cache.b_choice = c;
    cache.b.reset();
    cache.error.clear();
    cache.dropped_mask_cells = cache.dropped_heads = 0;
    cache.shared.clear();
    cache.relative.clear();
    cache.shown_step.clear();
    const Model* other = nullptr;
    if (c.other_model) {
        if (c.other_path.empty()) {
            cache.error = ctx.t("Give the path of a model file or a Hugging Face folder.");
            return;
        }
        if (cache.other_loaded_path != c.other_path) {
            cache.other.reset();
            cache.other_loaded_path = c.other_path;
            auto loaded = open_model(c.other_path);
            if (!loaded) {
                cache.error = loaded.error().message;
                return;
            }
            cache.other = std::move(loaded->model);
        }
        if (!cache.other) {
            cache.error = ctx.t("That model could not be opened.");
            return;
        }
        other = &*cache.other;
    }
    // Core's one rule (analysis/run_b.h): A's tokens, A's edits where B has a place for them, the extra heads.
    auto b = other ? make_run_b(a.inputs(), other->config, other->weights, {})
                   : make_run_b(a.inputs(), a.config(), a.weights(), c.ablated);
    if (!b) {
        cache.error = b.error().message;  // one line that names B
        return;
    }
    cache.dropped_mask_cells = b->dropped_mask_cells;
    cache.dropped_heads = b->dropped_heads;
    b->stepper.run_to(std::min(a.cursor(), b->stepper.size()));
    cache.b = std::move(b->stepper);
    cache.shared = shared_steps(a, *cache.b);
    for (const std::string& path : cache.shared) {
        auto d = diff_step(a, *cache.b, path);
        cache.relative.push_back(d ? d->relative : 0.0f);
    }
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

// B − A of the chosen step as a (rows, cols) block: a 3-D tensor's slice, a wide one's most changed columns.
void refresh_heatmap(PanelContext& ctx, CompareCache& cache, const std::string& step, int slice) {
    if (cache.shown_step == step && cache.shown_slice == slice) return;
    cache.shown_step = step;
    cache.shown_slice = slice;
    ++cache.version;
    cache.diff = diff_step(ctx.stepper(), *cache.b, step);
    cache.values.clear();
    cache.row_labels.clear();
    cache.col_labels.clear();
    if (!cache.diff) return;
    const Tensor& d = cache.diff->difference;
    const int64_t cols_all = d.rank() == 0 ? 1 : d.dim(-1);
    const int64_t rows_all = d.rank() >= 3 ? d.dim(-2) : d.numel() / std::max<int64_t>(cols_all, 1);
    const float* block = d.data.data() + (d.rank() >= 3 ? static_cast<int64_t>(slice) * rows_all * cols_all : 0);
    std::vector<int64_t> columns(static_cast<size_t>(cols_all));
    std::iota(columns.begin(), columns.end(), 0);
    if (cols_all > kMaxColumns) {
        std::vector<float> peak(static_cast<size_t>(cols_all), 0.0f);
        for (int64_t r = 0; r < rows_all; ++r)
            for (int64_t c = 0; c < cols_all; ++c)
                peak[static_cast<size_t>(c)] =
                    std::max(peak[static_cast<size_t>(c)], std::abs(block[r * cols_all + c]));
        std::partial_sort(columns.begin(), columns.begin() + kMaxColumns, columns.end(), [&](int64_t x, int64_t y) {
            return peak[static_cast<size_t>(x)] > peak[static_cast<size_t>(y)];
        });
        columns.resize(kMaxColumns);
        std::sort(columns.begin(), columns.end());
    }
    cache.rows = static_cast<int>(rows_all);
    cache.cols = static_cast<int>(columns.size());
    for (int64_t r = 0; r < rows_all; ++r)
        for (int64_t c : columns) cache.values.push_back(block[r * cols_all + c]);
    // Rows index the record's sequence; columns its keys, the vocabulary, or (a vector (N,)) the rows' sequence.
    const StepRecord& record = ctx.stepper().step(*ctx.stepper().find(step)).record;
    const bool vocabulary = is_vocabulary_wide(record);
    const std::optional<Vocab>& out_vocab = output_vocab(ctx);
    cache.row_labels = axis_labels(ctx, d.rank() >= 2 ? std::optional(record.rows) : std::nullopt, rows_all);
    const std::vector<std::string> keys =
        axis_labels(ctx, d.rank() == 1 ? std::optional(record.rows) : record.keys, cols_all);
    for (int64_t c : columns)
        cache.col_labels.push_back(vocabulary ? token_or_id(out_vocab, static_cast<int>(c))
                                              : keys[static_cast<size_t>(c)]);
    float peak = 0.0f;
    for (float v : cache.values) peak = std::max(peak, std::abs(v));
    cache.range = std::max(peak, 1e-6f);
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
    std::erase_if(c.ablated, [&](const AttentionHead& h) {
        return h.head < 0 || h.head >= H || std::find(sites.begin(), sites.end(), h.site) == sites.end();
    });
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
void draw_divergence_strip(PanelContext& ctx, CompareCache& cache) {
    const size_t n = cache.shared.size();
    const float width = ImGui::GetContentRegionAvail().x, height = 1.4f * ctx.em;
    const float cell = width / static_cast<float>(std::max<size_t>(n, 1));
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec4 calm(0.25f, 0.27f, 0.30f, 1.0f), hot(0.93f, 0.42f, 0.22f, 1.0f);
    for (size_t i = 0; i < n; ++i) {
        const float t = std::clamp(std::sqrt(cache.relative[i]), 0.0f, 1.0f);
        const ImVec4 colour(calm.x + (hot.x - calm.x) * t, calm.y + (hot.y - calm.y) * t, calm.z + (hot.z - calm.z) * t,
                            1.0f);
        const ImVec2 p(origin.x + cell * static_cast<float>(i), origin.y);
        draw->AddRectFilled(p, ImVec2(p.x + std::max(cell - 1.0f, 1.0f), p.y + height), ImGui::GetColorU32(colour));
        if (cache.shared[i] == ctx.view.analysis.compare.step)
            draw->AddRect(ImVec2(p.x - 1.0f, p.y - 1.0f), ImVec2(p.x + cell, p.y + height + 1.0f),
                          ImGui::GetColorU32(ImGuiCol_Text), 0.0f, 0, 2.0f);
    }
    ImGui::InvisibleButton("strip", ImVec2(width, height));
    if (ImGui::IsItemHovered() && n > 0) {
        const size_t i = std::min(n - 1, static_cast<size_t>((ImGui::GetIO().MousePos.x - origin.x) / cell));
        ImGui::SetTooltip("%s: %s %.3g", cache.shared[i].c_str(), ctx.t("relative difference"),
                          static_cast<double>(cache.relative[i]));
        if (ImGui::IsItemClicked()) ctx.view.analysis.compare.step = cache.shared[i];
    }
}

}  // namespace

void draw_compare_tool(PanelContext& ctx) {
    text_disabled_wrapped(
        ctx.t("Run B beside this run, on the same tokens: the strip shows, step by step, how far B's "
              "tensor is from this run's (‖B − A‖ / ‖A‖; bright: far). Click a step to see B − A."));
    CompareCache& cache = ctx.caches.get<CompareCache>();
    draw_b_picker(ctx);
    if (cache.a_generation != ctx.session.generation() || !same_b(cache.b_choice, ctx.view.analysis.compare) ||
        cache.a_generation == 0)
        rebuild_b(ctx, cache);
    if (!cache.error.empty()) {
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", cache.error.c_str());
        return;
    }
    if (cache.dropped_mask_cells + cache.dropped_heads > 0)
        ImGui::TextDisabled(ctx.t("B has no place for %d of this run's mask cells and %d of its switched-off heads: B "
                                  "runs without them."),
                            cache.dropped_mask_cells, cache.dropped_heads);
    if (cache.shared.empty()) {
        text_not_run_yet(ctx);
        return;
    }
    CompareChoice& c = ctx.view.analysis.compare;
    if (std::find(cache.shared.begin(), cache.shared.end(), c.step) == cache.shared.end()) {
        const Stepper& a = ctx.stepper();
        const auto logits = std::find_if(cache.shared.begin(), cache.shared.end(), [&](const std::string& path) {
            return a.step(*a.find(path)).record.id.kind == StepKind::logits;
        });
        c.step = logits != cache.shared.end() ? *logits : cache.shared.back();
    }
    const auto first = std::find_if(cache.relative.begin(), cache.relative.end(), [](float r) { return r > 0.0f; });
    if (first == cache.relative.end())
        ImGui::TextUnformatted(ctx.t("The two runs are identical at every step."));
    else
        ImGui::Text("%s %s", ctx.t("The runs first differ at"),
                    cache.shared[static_cast<size_t>(first - cache.relative.begin())].c_str());
    draw_divergence_strip(ctx, cache);

    ImGui::SetNextItemWidth(24.0f * ctx.em);
    if (ImGui::BeginCombo(ctx.t("step"), c.step.c_str())) {
        for (const std::string& path : cache.shared)
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
    refresh_heatmap(ctx, cache, c.step, slices > 1 ? c.slice : 0);
    if (!cache.diff) {
        ImGui::TextDisabled("%s", cache.diff.error().message.c_str());
        return;
    }
    ImGui::SameLine();
    ImGui::Text("max |B − A| %.4g   rms %.4g   %s %.4g", static_cast<double>(cache.diff->max_abs),
                static_cast<double>(cache.diff->rms), ctx.t("relative"), static_cast<double>(cache.diff->relative));
    MatrixPlot plot;
    plot.key = "analysis/compare";
    plot.values = cache.values.data();
    plot.rows = cache.rows;
    plot.cols = cache.cols;
    plot.version = cache.version;
    plot.colormap = Colormap::diverging;
    plot.row_labels = &cache.row_labels;
    plot.col_labels = &cache.col_labels;  // rotated, thinned or abbreviated to fit (widgets/label_layout.h)
    plot.caption = "B − A";
    plot.fit_height = true;
    plot.fixed_range = true;
    plot.lo = -cache.range;
    plot.hi = cache.range;
    const HeatmapHit hit = plot_matrix(ctx, plot);
    if (hit.row >= 0 && hit.col >= 0)
        ImGui::SetTooltip("[%d, %s]  B − A = %+.4g", hit.row, cache.col_labels[static_cast<size_t>(hit.col)].c_str(),
                          static_cast<double>(cache.values[static_cast<size_t>(hit.row * cache.cols + hit.col)]));
}

}  // namespace attnlab::gui
