// The weights view: any parameter as a diverging heatmap (one head's (D, C) rows of W_Q/W_K/W_V,
// embeddings (V, C) with token labels, 1-D gains and biases as a strip), thinned to at most 512
// rows and columns, with its histogram and statistics. Clicking a cell edits that weight.
#include "panels/weights_summary.h"

#include <imgui_stdlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

namespace attnlab::gui {

namespace {

constexpr int64_t kMaxShown = 512;  // rows and columns the heatmap draws at most

// Which block of the tensor, seen as (R, K) with K its last dim, the heatmap shows.
struct Block {
    int64_t row0 = 0, rows = 1, col0 = 0, cols = 1;
    int64_t row_stride = 1, col_stride = 1;  // thinning: every n-th row and column
    int repeat = 1;                          // a 1-D strip's rows, so that it is tall enough to see
    std::string what;  // the slice, e.g. "W_Q, head 1: rows 16..31, (D, C) = (16, 64)"; empty = all
};

// Derived from the selected tensor and block, kept between frames: the statistics are computed only
// when the tensor changes (a new shared_ptr: every edit copies), the display block when the block does.
struct WeightsCache {
    std::shared_ptr<const Tensor> tensor;  // held, so a new tensor can never reuse its address
    WeightSummary summary;
    std::string block_key;
    std::vector<float> display;  // (rows shown · repeat, cols shown)
    std::vector<std::string> row_labels;
    uint64_t version = 0;  // bumps whenever display changes
};

bool is_in_proj(const std::string& name) { return name.ends_with("in_proj_weight"); }
bool is_out_proj(const std::string& name) { return name.ends_with("out_proj.weight"); }

const Vocab* row_vocab(const PanelContext& ctx, const std::string& name) {
    const Model& m = ctx.session.model();
    const bool src =
        name == "src_embed.weight" || (name.starts_with("generator.") && ctx.config().arch == Arch::encoder_only);
    const bool tgt = name == "tgt_embed.weight" || (name.starts_with("generator.") && !src);
    const auto& v = src ? m.src_vocab : m.tgt_vocab;
    return (src || tgt) && v ? &*v : nullptr;
}

// The label of row r (rank 2) or entry r (rank 1): a token, a position, q/k/v + index, or r.
std::string index_label(const PanelContext& ctx, const std::string& name, int64_t r) {
    if (const Vocab* v = row_vocab(ctx, name); v && r < v->size()) return v->token(static_cast<int>(r));
    if (name == "pos_embed.weight") return "pos " + std::to_string(r);
    const int64_t c = ctx.config().d_model;
    if (is_in_proj(name) || name.ends_with("in_proj_bias"))
        return "qkv"[std::min<int64_t>(r / c, 2)] + std::to_string(r % c);
    return std::to_string(r);
}

// Words matching every space-separated part of the filter, case-insensitively.
bool matches_filter(const std::string& name, const std::string& filter) {
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
    std::istringstream parts(filter);
    for (std::string part; parts >> part;) {
        std::transform(part.begin(), part.end(), part.begin(), [](unsigned char ch) { return std::tolower(ch); });
        if (lower.find(part) == std::string::npos) return false;
    }
    return true;
}

void parameter_picker(PanelContext& ctx, const Weights& weights) {
    std::string& name = ctx.view.weights.name;
    if (!weights.contains(name)) {
        const char* preferred[] = {"encoder.layers.0.self_attn.in_proj_weight",
                                   "decoder.layers.0.self_attn.in_proj_weight"};
        name = weights.all().begin()->first;
        for (const char* p : preferred)
            if (weights.contains(p)) {
                name = p;
                break;
            }
    }
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(ctx.t("Parameter"));
    ImGui::SameLine();
    // The Save CSV button stays on this line: the picker takes what it leaves, up to 30 em.
    const float save_w = button_width_for(ctx.t("Save CSV")) + ImGui::GetStyle().ItemSpacing.x;
    ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x - save_w, 30.0f * ctx.em));
    if (!ImGui::BeginCombo("##parameter", name.c_str(), ImGuiComboFlags_HeightLarge)) return;
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::InputTextWithHint("##filter", ctx.t("filter, e.g. decoder 1 norm"), &ctx.view.weights.filter);
    for (const auto& [n, t] : weights.all()) {
        if (!matches_filter(n, ctx.view.weights.filter)) continue;
        const std::string label = n + "   " + shape_string(t->shape);
        if (ImGui::Selectable(label.c_str(), n == name)) name = n;
    }
    ImGui::EndCombo();
}

// What the user picked for a slice; kept in ImGui's window storage until ViewState has fields for it.
struct SliceChoice {
    int part = 0;            // in_proj: 0 W_Q, 1 W_K, 2 W_V
    bool whole = false;      // in_proj: the whole (3C, C) matrix instead of one head's rows
    bool head_cols = false;  // out_proj: one head's D columns
};

// W_Q/W_K/W_V, "whole matrix" and the head for in_proj_weight; "one head's columns" and the head for out_proj.
SliceChoice slice_controls(PanelContext& ctx, bool in_proj) {
    ImGuiStorage* storage = ImGui::GetStateStorage();
    const ImGuiID part_id = ImGui::GetID("weights_part"), whole_id = ImGui::GetID("weights_whole");
    const ImGuiID cols_id = ImGui::GetID("weights_head_columns");
    SliceChoice c{storage->GetInt(part_id, 0), storage->GetBool(whole_id, false), storage->GetBool(cols_id, false)};
    if (in_proj) {
        for (int p = 0; p < 3; ++p) {
            const char* labels[] = {"W_Q", "W_K", "W_V"};
            ImGui::RadioButton(labels[p], &c.part, p);
            ImGui::SameLine();
        }
        ImGui::SameLine(0.0f, 1.5f * ctx.em);
        ImGui::Checkbox(ctx.t("Whole matrix"), &c.whole);
    } else {
        ImGui::Checkbox(ctx.t("One head's columns"), &c.head_cols);
    }
    if (in_proj ? !c.whole : c.head_cols) {
        ImGui::SameLine(0.0f, 1.5f * ctx.em);
        value_slider_int(ctx.t("Head"), "##head", &ctx.view.attention.head, 0, ctx.config().n_heads - 1, "%d",
                         6.0f * ctx.em);
    }
    storage->SetInt(part_id, c.part);
    storage->SetBool(whole_id, c.whole);
    storage->SetBool(cols_id, c.head_cols);
    return c;
}

// The whole tensor as (R, K), or one head's (D, C) rows of in_proj_weight, or its (C, D) columns of out_proj.
Block block_controls(PanelContext& ctx, const std::string& name, const Tensor& t) {
    Block b;
    b.cols = t.dim(-1);
    b.rows = t.numel() / std::max<int64_t>(1, b.cols);
    const bool in = is_in_proj(name) && t.rank() == 2, out = is_out_proj(name) && t.rank() == 2;
    if (!in && !out) return b;
    ctx.view.attention.head = std::clamp(ctx.view.attention.head, 0, ctx.config().n_heads - 1);
    const SliceChoice choice = slice_controls(ctx, in);
    const int c = ctx.config().d_model, d = ctx.config().d_head(), h = ctx.view.attention.head;
    const std::string head = std::string(ctx.t("head")) + " " + std::to_string(h);
    char what[160];
    if (in && !choice.whole) {
        b.row0 = static_cast<int64_t>(choice.part) * c + static_cast<int64_t>(h) * d;
        b.rows = d;
        std::snprintf(what, sizeof what, "W_%c, %s: %s %lld..%lld, (D, C) = (%d, %d)", "QKV"[choice.part], head.c_str(),
                      ctx.t("rows"), static_cast<long long>(b.row0), static_cast<long long>(b.row0 + d - 1), d, c);
        b.what = what;
    } else if (out && choice.head_cols) {
        b.col0 = static_cast<int64_t>(h) * d;
        b.cols = d;
        std::snprintf(what, sizeof what, "W_O, %s: %s %lld..%lld, (C, D) = (%d, %d)", head.c_str(), ctx.t("columns"),
                      static_cast<long long>(b.col0), static_cast<long long>(b.col0 + d - 1), c, d);
        b.what = what;
    }
    return b;
}

// Every n-th row and column so that at most kMaxShown of each are drawn; a 1-D strip repeated to ~1.5 em.
void thin_block(const PanelContext& ctx, Block& b, bool vector) {
    b.row_stride = (b.rows + kMaxShown - 1) / kMaxShown;
    b.col_stride = (b.cols + kMaxShown - 1) / kMaxShown;
    if (!vector) return;
    const float cols = static_cast<float>((b.cols + b.col_stride - 1) / b.col_stride);
    const float cell = std::clamp((ImGui::GetContentRegionAvail().x - ctx.em) / cols, 2.0f, 2.2f * ctx.em);
    b.repeat = std::max(1, static_cast<int>(std::ceil(1.5f * ctx.em / cell)));
}

int64_t shown(int64_t n, int64_t stride) { return (n + stride - 1) / stride; }

const WeightsCache& refresh_cache(PanelContext& ctx, const std::string& name,
                                  const std::shared_ptr<const Tensor>& tensor, const Block& b) {
    WeightsCache& c = ctx.caches.get<WeightsCache>();
    const bool new_tensor = c.tensor != tensor;
    if (new_tensor) c.summary = summarize_weights(*tensor);
    std::ostringstream key;
    key << name << ' ' << b.row0 << ' ' << b.rows << ' ' << b.col0 << ' ' << b.cols << ' ' << b.repeat << ' '
        << b.row_stride;
    if (!new_tensor && key.str() == c.block_key) return c;
    c.tensor = tensor;
    c.block_key = key.str();
    const int64_t rows = shown(b.rows, b.row_stride), cols = shown(b.cols, b.col_stride), k = tensor->dim(-1);
    const bool vector = tensor->rank() == 1;
    c.display.clear();
    c.row_labels.clear();
    for (int64_t i = 0; i < rows; ++i) {
        const int64_t r = b.row0 + i * b.row_stride;
        if (!vector) c.row_labels.push_back(index_label(ctx, name, r));
        for (int64_t j = 0; j < cols; ++j)
            c.display.push_back(tensor->value_at(r * k + b.col0 + j * b.col_stride));
    }
    c.display.reserve(c.display.size() * static_cast<size_t>(b.repeat));
    for (int rep = 1; rep < b.repeat; ++rep)
        for (int64_t j = 0; j < cols; ++j) c.display.push_back(c.display[static_cast<size_t>(j)]);
    ++c.version;
    return c;
}

std::string cell_index(const Tensor& t, int64_t r, int64_t col) {
    return t.rank() == 1 ? "[" + std::to_string(col) + "]" : "[" + std::to_string(r) + ", " + std::to_string(col) + "]";
}

// What one weight connects, in words.
std::string cell_meaning(const PanelContext& ctx, const std::string& name, const Tensor& t, int64_t r, int64_t col) {
    const int d = ctx.config().d_head(), c = ctx.config().d_model;
    const std::string head = ctx.t("head"), dim = ctx.t("dim"), input = ctx.t("input dim");
    if (t.rank() == 1) {
        const std::string label = index_label(ctx, name, col);
        return label == std::to_string(col) ? "" : label;
    }
    if (is_in_proj(name))
        return std::string("W_") + "QKV"[std::min<int64_t>(r / c, 2)] + ", " + head + " " +
               std::to_string((r % c) / d) + ", " + dim + " " + std::to_string((r % c) % d) + "  ←  " + input + " " +
               std::to_string(col);
    if (is_out_proj(name))
        return std::string(ctx.t("output dim")) + " " + std::to_string(r) + "  ←  " + head + " " +
               std::to_string(col / d) + ", " + dim + " " + std::to_string(col % d);
    if (row_vocab(ctx, name) || name == "pos_embed.weight")
        return "\"" + index_label(ctx, name, r) + "\", " + dim + " " + std::to_string(col);
    return "";
}

// What the heatmap's rows and columns are, in words (English, for ctx.t).
const char* axes_note(const PanelContext& ctx, const std::string& name, const Tensor& t) {
    if (t.rank() == 1)
        return name.starts_with("generator.")   ? tr_noop("One value per vocabulary token.")
               : name.ends_with("in_proj_bias") ? tr_noop("b_Q, b_K and b_V one after another, C values each.")
                                                : tr_noop("One value per dimension.");
    if (is_in_proj(name))
        return tr_noop("Rows: output dims of W_Q, W_K, W_V (q0 = row 0 of W_Q). Columns: the C input dims.");
    if (is_out_proj(name)) return tr_noop("Rows: output dims. Columns: the concatenated heads, D columns each.");
    if (row_vocab(ctx, name))
        return ctx.config().tie_embeddings && name == output_weight_name(ctx.config())
                   ? tr_noop(
                         "Rows: tokens. Columns: the C embedding dims. Tied: the output projection reuses this matrix.")
                   : tr_noop("Rows: tokens. Columns: the C embedding dims.");
    if (name == "pos_embed.weight") return tr_noop("Rows: positions. Columns: the C dims.");
    return tr_noop("Rows: outputs. Columns: inputs (nn.Linear's (out, in) layout).");
}

void cell_tooltip(const PanelContext& ctx, const std::string& name, const Tensor& t, int64_t r, int64_t col) {
    const float v = t.value_at(r * t.dim(-1) + col);
    ImGui::BeginTooltip();
    ImGui::Text("%s%s = %.5g", name.c_str(), cell_index(t, r, col).c_str(), static_cast<double>(v));
    if (const std::string m = cell_meaning(ctx, name, t, r, col); !m.empty()) ImGui::TextUnformatted(m.c_str());
    ImGui::TextDisabled("%s", ctx.t("Click to edit this weight."));
    ImGui::EndTooltip();
}

// The cell being edited and its draft value live in the panel window's storage (read before the popup opens its own).
void edit_popup(PanelContext& ctx, const std::string& name, const Tensor& t) {
    ImGuiStorage* storage = ImGui::GetStateStorage();
    const ImGuiID value_id = ImGui::GetID("weights_edit_value");
    const int64_t flat = storage->GetInt(ImGui::GetID("weights_edit_index"), 0);
    float value = storage->GetFloat(value_id, 0.0f);
    if (!ImGui::BeginPopup("edit_weight")) return;
    if (flat >= t.numel()) {  // another parameter was chosen meanwhile
        ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        return;
    }
    const int64_t k = t.dim(-1);
    ImGui::Text("%s%s", name.c_str(), cell_index(t, flat / k, flat % k).c_str());
    ImGui::SetNextItemWidth(9.0f * ctx.em);
    if (ImGui::InputFloat("##value", &value, 0.0f, 0.0f, "%.6g")) storage->SetFloat(value_id, value);
    if (ImGui::Button(ctx.t("Set"))) {
        ctx.session.set_weight(name, flat, value);
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button(ctx.t("Set to 0"))) {
        ctx.session.set_weight(name, flat, 0.0f);
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button(ctx.t("Cancel"))) ImGui::CloseCurrentPopup();
    ImGui::TextDisabled("%s", ctx.t("The forward pass re-runs from the first step that reads this weight."));
    ImGui::EndPopup();
}

void weights_heatmap(PanelContext& ctx, const std::string& name, const Tensor& t, const Block& b,
                     const WeightsCache& c) {
    const int rows = static_cast<int>(shown(b.rows, b.row_stride)) * b.repeat;
    const int cols = static_cast<int>(shown(b.cols, b.col_stride));
    if (!b.what.empty()) {
        ImGui::TextUnformatted(b.what.c_str());
        ImGui::SameLine(0.0f, 1.5f * ctx.em);
    }
    text_disabled_wrapped(ctx.t(axes_note(ctx, name, t)));
    if (b.row_stride > 1 || b.col_stride > 1)
        ImGui::TextDisabled("%s  ·  %s %lld  ·  %s %lld  ·  %d × %d", ctx.t("Thinned to fit"), ctx.t("row stride"),
                            static_cast<long long>(b.row_stride), ctx.t("column stride"),
                            static_cast<long long>(b.col_stride), rows, cols);
    MatrixPlot plot;
    plot.key = "weights";
    plot.values = c.display.data();
    plot.rows = rows;
    plot.cols = cols;
    plot.version = c.version;
    plot.colormap = Colormap::diverging;
    plot.row_labels = c.row_labels.empty() ? nullptr : &c.row_labels;
    plot.caption = ctx.t("weight value: blue < 0 < red");
    const HeatmapHit hit = plot_matrix(ctx, plot);
    if (hit.row < 0) return;
    const int64_t r = b.row0 + (hit.row / b.repeat) * b.row_stride, col = b.col0 + hit.col * b.col_stride;
    cell_tooltip(ctx, name, t, r, col);
    if (!hit.clicked) return;
    ImGuiStorage* storage = ImGui::GetStateStorage();
    const int64_t flat = r * t.dim(-1) + col;
    storage->SetInt(ImGui::GetID("weights_edit_index"), static_cast<int>(flat));
    storage->SetFloat(ImGui::GetID("weights_edit_value"), t.value_at(flat));
    ImGui::OpenPopup("edit_weight");
}

}  // namespace

void draw_weights_panel(PanelContext& ctx) {
    const Weights& weights = ctx.stepper().weights();
    if (weights.all().empty()) return;
    parameter_picker(ctx, weights);
    const std::string name = ctx.view.weights.name;
    const std::shared_ptr<const Tensor> tensor = weights.shared(name);
    ImGui::SameLine();
    csv_export_button(ctx, name, *tensor);
    Block block = block_controls(ctx, name, *tensor);
    thin_block(ctx, block, tensor->rank() == 1);
    const WeightsCache& cache = refresh_cache(ctx, name, tensor, block);
    ImGui::Spacing();
    draw_weight_summary(ctx, *tensor, cache.summary);
    ImGui::Separator();
    weights_heatmap(ctx, name, *tensor, block, cache);
    edit_popup(ctx, name, *tensor);
}

}  // namespace attnlab::gui
