// The Attention view's "Knockout" mode (knockout_view.h): the metric, the edge's knockout and the layer's grid.
#include "panels/knockout_view.h"

#include "attribution_tool.h"
#include "knockout_run.h"
#include "platform/threads.h"
#include "text/vocab.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

namespace attnlab::gui {

namespace {

const ImVec4 kErrorColor(1.0f, 0.45f, 0.35f, 1.0f);
constexpr double kCardAfterSeconds = 0.3;  // ProgressScreen::kShowAfterSeconds

// What a knockout was computed for: the run (the logits' version: any edit, switch or new weights re-runs them), the
// metric, the attention and the head (−1: every head).
struct KnockoutKey {
    uint64_t logits_version = 0;
    std::string metric;
    AttentionSite site;
    int head = -1;
    bool operator==(const KnockoutKey&) const = default;
};

// Kept between frames (PanelCaches): the tool for single edges and what it was made for, the last edge's result,
// and the grid's run with its request and result.
struct KnockoutCache {
    std::optional<KnockoutTool> tool;
    uint64_t tool_version = 0;
    std::string tool_metric;
    std::optional<KnockoutKey> edge_key;
    int edge_query = -1, edge_key_col = -1;
    std::optional<Result<KnockoutResult>> edge;
    std::unique_ptr<KnockoutRun> run;
    std::optional<KnockoutKey> grid_asked;
    std::optional<KnockoutRunResult> grid;
    std::optional<KnockoutKey> grid_for;
    std::vector<float> grid_values, grid_mask;  // the grid as the plot reads it (NaN: 0 and masked)
    uint64_t grid_version = 0;
};

KnockoutRun& knockout_run(KnockoutCache& c) {
    if (!c.run)
        c.run = std::make_unique<KnockoutRun>(platform::has_threads() ? WorkMode::own_thread : WorkMode::between_frames);
    return *c.run;
}

// "Why this output?"'s metric on the session's logits, or why there is none.
Result<AttributionMetric> why_metric(const PanelContext& ctx, uint64_t* version) {
    if (ctx.config().output_head == OutputHead::none) return Error{"this model has no output head: no metric"};
    const TraceEntry* logits = ctx.stepper().entry(StepId::head(StepKind::logits, ctx.config()));
    if (!logits) return Error{ctx.t("Run the forward pass to the logits first.")};
    *version = logits->version;
    const WhyOutputState& w = ctx.view.output.why;
    AttributionChoice choice;
    choice.kind = w.diff ? AttributionMetricKind::logit_diff : AttributionMetricKind::logit;
    choice.token = w.token;
    choice.other = w.other;
    choice.position = w.position;
    return resolve_metric(logits->value, choice);
}

std::string token_text(const PanelContext& ctx, int id) {
    const std::string t = token_or_id(output_vocab(ctx), id);
    return t == " " ? "' '" : t;
}

// logit("A") [− logit("B")] at position p ("token").
std::string metric_label(const PanelContext& ctx, const AttributionMetric& m) {
    const SequenceView out = ctx.config().has_decoder() ? ctx.session.target() : ctx.session.source();
    std::string text = std::string(ctx.t("logit")) + "(\"" + token_text(ctx, m.token) + "\")";
    if (m.kind == AttributionMetricKind::logit_diff)
        text += std::string(" − ") + ctx.t("logit") + "(\"" + token_text(ctx, m.other) + "\")";
    char buf[160];
    const size_t q = static_cast<size_t>(m.position);
    std::snprintf(buf, sizeof buf, ctx.t(" at position %d (\"%s\")"), static_cast<int>(m.position),
                  q < out.labels.size() ? out.labels[q].c_str() : "");
    return text + buf;
}

KnockoutKey key_of(const PanelContext& ctx, uint64_t version, const AttributionMetric& m, const AttentionSite& site) {
    const KnockoutViewState& k = ctx.view.attention.knockout;
    return {version, m.to_string(), site, k.every_head ? -1 : ctx.view.attention.head};
}

// The current key, or nullopt (and the reason drawn) when there is no metric.
std::optional<KnockoutKey> current_key(const PanelContext& ctx, const AttentionSite& site, AttributionMetric* metric) {
    uint64_t version = 0;
    auto m = why_metric(ctx, &version);
    if (!m) return std::nullopt;
    *metric = *m;
    return key_of(ctx, version, *m, site);
}

// The tool on the session's run as it is now; made again when the run or the metric changed.
Result<KnockoutTool*> tool_for(PanelContext& ctx, KnockoutCache& c, const KnockoutKey& key,
                               const AttributionMetric& metric) {
    if (!c.tool || c.tool_version != key.logits_version || c.tool_metric != key.metric) {
        c.tool.reset();
        auto tool = KnockoutTool::create(ctx.config(), ctx.stepper().weights(), ctx.stepper().inputs(), metric);
        if (!tool) return tool.error();
        c.tool = std::move(*tool);
        c.tool_version = key.logits_version;
        c.tool_metric = key.metric;
    }
    return &*c.tool;
}

// The grid's request when what it depends on changed; a finished one taken.
void keep_grid_current(PanelContext& ctx, KnockoutCache& c, const KnockoutKey& key, const AttributionMetric& metric) {
    KnockoutRun& run = knockout_run(c);
    if (c.grid_asked != key) {
        c.grid_asked = key;
        run.request({ctx.config(), ctx.stepper().weights(), ctx.stepper().inputs(), metric,
                     {key.site.use, key.site.layer, key.head}});
    }
    run.pump();  // between frames (the web page): the grid runs here, whole
    if (auto r = run.take()) {
        c.grid = std::move(*r);
        c.grid_for = c.grid_asked;
        c.grid_values.clear();
        c.grid_mask.clear();
        if (c.grid->grid)
            for (double v : c.grid->grid->values) {
                c.grid_values.push_back(std::isnan(v) ? 0.0f : static_cast<float>(v));
                c.grid_mask.push_back(std::isnan(v) ? 0.0f : 1.0f);
            }
        ++c.grid_version;
    }
}

void progress_line(PanelContext& ctx, KnockoutCache& c) {
    const KnockoutRun::Progress p = knockout_run(c).progress();
    char line[160];
    std::snprintf(line, sizeof line, ctx.t("Knocking out edge %lld of %lld (%.1f s)"), static_cast<long long>(p.done),
                  static_cast<long long>(p.total), p.seconds);
    const float filled = p.total > 0 ? static_cast<float>(p.done) / static_cast<float>(p.total) : 0.0f;
    ImGui::ProgressBar(filled, ImVec2(std::min(16.0f * ctx.em, ImGui::GetContentRegionAvail().x * 0.5f), 0.0f), line);
}

std::string signed_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.4f", v);
    return buf;
}

}  // namespace

bool knockout_header(PanelContext& ctx, const AttentionSite& site) {
    KnockoutViewState& k = ctx.view.attention.knockout;
    ImGui::SameLine();
    ImGui::Checkbox(ctx.t("Knockout"), &k.on);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("Click a cell to block that query → key edge (its score −∞ before the softmax) "
                                      "in this layer only, and see how the metric changes. It runs on a copy: your "
                                      "mask is not changed."));
    if (!k.on) return false;
    ctx.view.attention.stage = AttentionStage::weights;  // the edges are the weights' cells
    KnockoutCache& c = ctx.caches.get<KnockoutCache>();
    uint64_t version = 0;
    auto metric = why_metric(ctx, &version);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(ctx.t("Metric:"));
    ImGui::SameLine();
    if (!metric) {
        ImGui::TextColored(kErrorColor, "%s", metric.error().message.c_str());
        return true;
    }
    ImGui::TextUnformatted(metric_label(ctx, *metric).c_str());
    same_line_if_fits(ImGui::CalcTextSize(ctx.t("Change the metric")).x + 2.0f * ImGui::GetStyle().FramePadding.x,
                      ctx.em);
    if (ImGui::Button(ctx.t("Change the metric"))) {
        ctx.view.tab = View::output;
        ctx.view.output.why.open = true;
        ctx.view.output.patching.open = false;
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("Knockout reads the metric picked in the Output view's \"Why this output?\"."));
    if (ImGui::RadioButton(ctx.t("This head"), !k.every_head)) k.every_head = false;
    ImGui::SameLine();
    if (ImGui::RadioButton(ctx.t("Every head of the layer"), k.every_head)) k.every_head = true;
    ImGui::SameLine();
    if (ImGui::RadioButton(ctx.t("Weights"), !k.grid)) k.grid = false;
    ImGui::SameLine();
    if (ImGui::RadioButton(ctx.t("Grid of changes"), k.grid)) k.grid = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("Every edge of this layer knocked out, one at a time: the metric's change."));
    if (k.grid) {
        const KnockoutKey key = key_of(ctx, version, *metric, site);
        keep_grid_current(ctx, c, key, *metric);
        if (knockout_run(c).busy() && knockout_run(c).progress().seconds >= kCardAfterSeconds) {
            ImGui::SameLine();
            progress_line(ctx, c);
        }
    }
    return true;
}

bool knockout_grid_plot(PanelContext& ctx, const AttentionSite& site, ZoomMatrixPlot& plot) {
    const KnockoutViewState& k = ctx.view.attention.knockout;
    if (!k.on || !k.grid) return false;
    KnockoutCache& c = ctx.caches.get<KnockoutCache>();
    AttributionMetric metric;
    const auto key = current_key(ctx, site, &metric);
    if (!key || c.grid_for != key || !c.grid || !c.grid->grid) return false;
    const KnockoutGrid& g = *c.grid->grid;
    plot.key = "knockout/" + std::to_string(c.grid_version);
    plot.values = c.grid_values.data();
    plot.rows = static_cast<int>(g.rows);
    plot.cols = static_cast<int>(g.cols);
    plot.version = c.grid_version;
    plot.mask = c.grid_mask.data();
    plot.mask_version = c.grid_version;
    plot.colormap = Colormap::diverging;
    plot.fixed_range = false;
    plot.caption = ctx.t("the metric's change when the edge is blocked");
    return true;
}

void knockout_click(PanelContext& ctx, int query, int key) {
    KnockoutViewState& k = ctx.view.attention.knockout;
    k.query = query;
    k.key = key;
}

void knockout_pane(PanelContext& ctx, const AttentionSite& site, const std::vector<std::string>& query_labels,
                   const std::vector<std::string>& key_labels) {
    KnockoutViewState& k = ctx.view.attention.knockout;
    KnockoutCache& c = ctx.caches.get<KnockoutCache>();
    AttributionMetric metric;
    const auto key = current_key(ctx, site, &metric);
    if (!key) return;
    if (c.grid && c.grid_for == key && k.grid && !c.grid->grid)
        ImGui::TextColored(kErrorColor, "%s", c.grid->grid.error().message.c_str());
    if (k.query < 0 || k.key < 0) {
        text_disabled_wrapped(ctx.t("Click a cell to knock out that edge."));
        return;
    }
    const auto label = [](const std::vector<std::string>& v, int i) {
        return i < static_cast<int>(v.size()) ? v[static_cast<size_t>(i)].c_str() : "?";
    };
    if (k.query >= static_cast<int>(query_labels.size()) || k.key >= static_cast<int>(key_labels.size())) {
        text_disabled_wrapped(ctx.t("Click a cell to knock out that edge."));
        return;
    }
    if (!c.edge || c.edge_key != key || c.edge_query != k.query || c.edge_key_col != k.key) {
        auto tool = tool_for(ctx, c, *key, metric);
        c.edge = tool ? (*tool)->edge({site.use, site.layer, key->head}, k.query, k.key)
                      : Result<KnockoutResult>(tool.error());
        c.edge_key = key;
        c.edge_query = k.query;
        c.edge_key_col = k.key;
    }
    ImGui::TextUnformatted(ctx.t("Knocked out:"));
    ImGui::Text("%s → %s", label(query_labels, k.query), label(key_labels, k.key));
    char where[128];
    if (key->head < 0)
        std::snprintf(where, sizeof where, ctx.t("every head of layer %d"), site.layer);
    else
        std::snprintf(where, sizeof where, ctx.t("layer %d, head %d"), site.layer, key->head);
    ImGui::TextDisabled("%s", where);
    if (!*c.edge) {
        ImGui::TextColored(kErrorColor, "%s", c.edge->error().message.c_str());
        return;
    }
    const KnockoutResult& r = **c.edge;
    ImGui::Separator();
    ImGui::Text(ctx.t("before %.4f"), r.before);
    ImGui::Text(ctx.t("after %.4f"), r.after);
    const double change = r.change();
    const bool visible = std::fabs(change) >= 5e-5;  // prints as ±0.0000 otherwise: no colour
    const ImVec4 colour = !visible      ? ImGui::GetStyleColorVec4(ImGuiCol_Text)
                          : change > 0 ? ImVec4(0.95f, 0.45f, 0.35f, 1.0f)
                                       : ImVec4(0.45f, 0.65f, 1.0f, 1.0f);
    ImGui::TextUnformatted(ctx.t("change"));
    ImGui::SameLine();
    ImGui::TextColored(colour, "%s", signed_text(change).c_str());
    if (r.already_masked) text_disabled_wrapped(ctx.t("The mask already blocks this edge: nothing changes."));
    ImGui::Separator();
    text_disabled_wrapped(ctx.t("It runs on a copy of this run: your mask is not changed."));
    if (ImGui::SmallButton(ctx.t("Clear the edge"))) k.query = k.key = -1;
}

}  // namespace attnlab::gui
