#include "analysis/attention_knockout.h"

#include "analysis/activation_patching.h"
#include "ops/softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace attnlab {

namespace {

constexpr float kBlocked = -std::numeric_limits<float>::infinity();

// The attention's steps from the weights to W_O, its scores before the softmax and its sizes.
struct Attention {
    size_t weights = 0, context = 0, concat = 0, out = 0;
    int64_t H = 0, Tq = 0, Tk = 0;
    Tensor scores;  // (H, Tq, Tk): the softmax's input (the masked scores)
};

std::string use_name(AttentionUse use) {
    switch (use) {
        case AttentionUse::encoder_self: return "encoder self-attention";
        case AttentionUse::decoder_self: return "decoder self-attention";
        case AttentionUse::cross: return "cross-attention";
    }
    return "?";
}

// Step `from`'s input 0 is stage `stage` of the same attention.
std::optional<size_t> input_stage(const Stepper& s, size_t from, AttentionStage stage) {
    const size_t i = s.input_indices(from).at(0);
    const StepId& id = s.step(i).record.id;
    if (id.kind != StepKind::attention || id.stage != stage) return std::nullopt;
    return i;
}

Result<Attention> attention_of(const Stepper& s, const KnockoutSite& site) {
    if (!s.find(StepId::attention_at({site.use, 0}, AttentionStage::weights)))
        return Error{"this model has no " + use_name(site.use)};
    int layers = 0;
    while (s.find(StepId::attention_at({site.use, layers}, AttentionStage::weights))) ++layers;
    if (site.layer < 0 || site.layer >= layers)
        return Error{"layer " + std::to_string(site.layer) + " is outside 0.." + std::to_string(layers - 1) +
                     " of the " + use_name(site.use)};
    if (s.cursor() != s.size()) return Error{"the forward pass has not reached its end: run it to the end first"};
    Attention a;
    a.weights = *s.find(StepId::attention_at({site.use, site.layer}, AttentionStage::weights));
    const auto out = s.find(StepId::attention_at({site.use, site.layer}, AttentionStage::out));
    const auto concat = out ? input_stage(s, *out, AttentionStage::concat) : std::nullopt;
    const auto context = concat ? input_stage(s, *concat, AttentionStage::context) : std::nullopt;
    if (!context || s.input_indices(*context).at(0) != a.weights)
        return Error{"the " + use_name(site.use) + " has no weights -> context -> concat -> W_O chain to knock out"};
    a.out = *out;
    a.concat = *concat;
    a.context = *context;
    const Tensor* w = s.output(s.step(a.weights).path);
    a.H = w->dim(0);
    a.Tq = w->dim(1);
    a.Tk = w->dim(2);
    if (site.head < -1 || site.head >= a.H)
        return Error{"head " + std::to_string(site.head) + " is outside 0.." + std::to_string(a.H - 1) +
                     " (or -1 for every head)"};
    a.scores = *s.output(s.step(s.input_indices(a.weights).at(0)).path);
    return a;
}

Status check_edge(const Attention& a, int64_t query, int64_t key) {
    if (query < 0 || query >= a.Tq)
        return Error{"query " + std::to_string(query) + " is past the end: the attention has " + std::to_string(a.Tq) +
                     " queries (0 to " + std::to_string(a.Tq - 1) + ")"};
    if (key < 0 || key >= a.Tk)
        return Error{"key " + std::to_string(key) + " is past the end: the attention has " + std::to_string(a.Tk) +
                     " keys (0 to " + std::to_string(a.Tk - 1) + ")"};
    return ok_status();
}

bool chosen(const KnockoutSite& site, int64_t h) { return site.head < 0 || site.head == h; }

// Whether the mask already blocks the edge in every chosen head.
bool masked(const Attention& a, const KnockoutSite& site, int64_t q, int64_t k) {
    for (int64_t h = 0; h < a.H; ++h)
        if (chosen(site, h) && a.scores.data[static_cast<size_t>((h * a.Tq + q) * a.Tk + k)] != kBlocked) return false;
    return true;
}

// Step i computed on one row (`row` of its record's rows): input 0 is `first`, the others as the trace holds them
// (the context step's V: every key row).
Tensor compute_row(const Stepper& s, size_t i, const Tensor& first, int64_t row) {
    StepContext ctx{s.config(), s.weights(), s.inputs(), {&first}};
    ctx.first_row = row;
    const std::vector<size_t>& in = s.input_indices(i);
    for (size_t k = 1; k < in.size(); ++k) ctx.in.push_back(s.output(s.step(in[k]).path));
    return s.step(i).compute(ctx).value;
}

// Query q's row of the attention's output (after W_O) with edge (q, k) blocked in the chosen heads: (1, C).
Tensor blocked_out_row(const Stepper& s, const Attention& a, const KnockoutSite& site, int64_t q, int64_t k) {
    const Tensor& w = *s.output(s.step(a.weights).path);  // (H, Tq, Tk)
    Tensor rows({a.H, 1, a.Tk});                          // query q's weights in each head
    Tensor one({1, a.Tk});
    for (int64_t h = 0; h < a.H; ++h) {
        const float* src = (chosen(site, h) ? a.scores.data.data() : w.data.data()) + (h * a.Tq + q) * a.Tk;
        std::copy_n(src, a.Tk, chosen(site, h) ? one.data.data() : rows.data.data() + h * a.Tk);
        if (!chosen(site, h)) continue;
        one.data[static_cast<size_t>(k)] = kBlocked;  // the mask's −∞, through the step's own softmax
        softmax_rows_in_place(one);
        std::copy_n(one.data.data(), a.Tk, rows.data.data() + h * a.Tk);
    }
    const Tensor context = compute_row(s, a.context, rows, q);   // (H, 1, D)
    const Tensor concat = compute_row(s, a.concat, context, q);  // (1, H·D)
    return compute_row(s, a.out, concat, q);                     // (1, C)
}

// The metric with edge (q, k) blocked; the stepper ends as it began.
Result<double> blocked_metric(Stepper& s, const Attention& a, const KnockoutSite& site, int64_t q, int64_t k,
                              const AttributionMetric& metric) {
    Stepper::OutputPatch patch{a.out, q, -1, blocked_out_row(s, a, site, q, k)};
    if (auto st = s.patch_output(patch); !st) return st.error();
    auto value = metric_value(s, metric);
    s.undo_patch();
    return value;
}

}  // namespace

Result<AttentionUse> parse_attention_use(const std::string& text) {
    if (text == "encoder-self" || text == "encoder_self") return AttentionUse::encoder_self;
    if (text == "decoder-self" || text == "decoder_self") return AttentionUse::decoder_self;
    if (text == "cross") return AttentionUse::cross;
    return Error{"unknown attention '" + text + "': encoder-self, decoder-self or cross"};
}

Result<KnockoutResult> knockout_edge(Stepper& s, const KnockoutSite& site, int64_t query, int64_t key,
                                     const AttributionMetric& metric) {
    auto a = attention_of(s, site);
    if (!a) return a.error();
    if (auto st = check_edge(*a, query, key); !st) return st.error();
    auto before = metric_value(s, metric);
    if (!before) return before.error();
    KnockoutResult r;
    r.before = r.after = *before;
    r.already_masked = masked(*a, site, query, key);
    auto after = blocked_metric(s, *a, site, query, key, metric);
    if (!after) return after.error();
    r.after = *after;
    return r;
}

Result<KnockoutGrid> knockout_grid(Stepper& s, const KnockoutSite& site, const AttributionMetric& metric,
                                   const GridProgress& progress) {
    auto a = attention_of(s, site);
    if (!a) return a.error();
    auto before = metric_value(s, metric);
    if (!before) return before.error();
    KnockoutGrid g;
    g.site = site;
    g.rows = a->Tq;
    g.cols = a->Tk;
    g.before = *before;
    g.values.assign(static_cast<size_t>(g.rows * g.cols), std::numeric_limits<double>::quiet_NaN());
    int64_t total = 0, done = 0;
    for (int64_t q = 0; q < g.rows; ++q)
        for (int64_t k = 0; k < g.cols; ++k) total += masked(*a, site, q, k) ? 0 : 1;
    for (int64_t q = 0; q < g.rows; ++q)
        for (int64_t k = 0; k < g.cols; ++k) {
            if (masked(*a, site, q, k)) continue;
            auto after = blocked_metric(s, *a, site, q, k, metric);
            if (!after) return after.error();
            g.values[static_cast<size_t>(q * g.cols + k)] = *after - g.before;
            if (progress && !progress(++done, total)) return Error{kGridStopped};
        }
    return g;
}

}  // namespace attnlab
