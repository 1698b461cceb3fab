// Helpers every panel uses: the matrix plot with its colour bar, the "not run yet" note, a control
// that goes to the next line when it does not fit, sliders with their value beside them, and which
// view draws which step.
#include "io/tensor_csv.h"
#include "panels/panel_context.h"
#include "panels/step_explanation.h"
#include "panels/stepper_timeline.h"
#include "panels/word_wrap.h"
#include "widgets/heatmap_widget.h"

#include <imgui_internal.h>  // TempInputIsActive: the frame shows its value while Ctrl+click types one

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <string>

namespace attnlab::gui {

View view_for_step(const StepId& id) {
    switch (id.kind) {
        case StepKind::token_embedding:
        case StepKind::position:
        case StepKind::token_type:
        case StepKind::embedding_sum:
        case StepKind::embedding_norm:
        case StepKind::position_bias: return View::positional;  // T5's buckets, ALiBi's slopes: a position scheme
        case StepKind::padding_mask:
        case StepKind::look_ahead_mask:
        case StepKind::attention_mask: return View::masks;
        case StepKind::attention: return View::attention;
        case StepKind::ffn: return View::ffn;
        case StepKind::residual:
        case StepKind::norm:
        case StepKind::post_norm:
        case StepKind::stack_output: return View::residual;
        case StepKind::head_transform:
        case StepKind::head_activation:
        case StepKind::head_norm:
        case StepKind::logits:
        case StepKind::capped_logits:
        case StepKind::probs: return View::output;
    }
    return View::stepper;
}

void text_not_run_yet(const PanelContext& ctx) {
    ImGui::TextDisabled("%s", ctx.t("Not run yet: step forward to compute it."));
}

void text_gradient_not_yet(const PanelContext& ctx) {
    ImGui::TextDisabled("%s", ctx.t("Its gradient is not whole yet: step the backward pass further."));
}

ShownEntry shown_entry(const PanelContext& ctx, const StepId& id) {
    if (ctx.session.in_backward()) return {ctx.session.gradient(id), true};
    return {ctx.stepper().entry(id), false};
}

ShownEntry shown_facts(const PanelContext& ctx, const StepId& id) {
    if (ctx.session.in_backward()) return {ctx.session.gradient(id), true};
    return {ctx.stepper().run_facts(id), false};
}

std::optional<TokenSaliency> input_saliency(const PanelContext& ctx, Stack stack) {
    const StepId embed = StepId::of(StepKind::token_embedding, stack);
    const TraceEntry* d_x = ctx.session.gradient(embed);
    const TraceEntry* x = d_x ? ctx.stepper().entry(embed) : nullptr;
    if (!x) return std::nullopt;
    return token_saliency(x->value, d_x->value);
}

std::string loss_definition(const PanelContext& ctx, const LossSpec& loss) {
    char text[160];
    switch (loss.kind) {
        case LossKind::next_token:
            return ctx.t(
                "mean over positions t with a next token of −log softmax(logits[t])[ids[t+1]] (padding skipped)");
        case LossKind::token:
            std::snprintf(text, sizeof text, "−log softmax(logits[%lld])[%d]", static_cast<long long>(loss.position),
                          loss.token);
            return text;
        case LossKind::logit_diff:
            std::snprintf(text, sizeof text, "logits[%lld][%d] − logits[%lld][%d]",
                          static_cast<long long>(loss.position), loss.token, static_cast<long long>(loss.position),
                          loss.other);
            return text;
        case LossKind::logit:
            std::snprintf(text, sizeof text, "logits[%lld][%d]", static_cast<long long>(loss.position), loss.token);
            return text;
        case LossKind::prob:
            std::snprintf(text, sizeof text, "softmax(logits[%lld])[%d]", static_cast<long long>(loss.position),
                          loss.token);
            return text;
    }
    return "";
}

std::string gradient_caption(const char* what) { return std::string("∂L/∂") + what; }

void gradient_source_section(const PanelContext& ctx, const StepId& id, float width_em) {
    const Session& s = ctx.session;
    const auto index = ctx.stepper().find(id);
    if (!index || !s.backward()) return;
    // The backward steps that read this output added to its gradient; name the last of them to run.
    std::optional<size_t> from;
    for (size_t k = 0; k < s.backward_steps(); ++k) {
        const Step& reader = ctx.stepper().step(s.backward_forward_index(k));
        if (std::find(reader.inputs.begin(), reader.inputs.end(), id) != reader.inputs.end()) from = k;
    }
    if (width_em > 0.0f) ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width_em * ctx.em);
    if (!from) {
        ImGui::TextWrapped("%s: %s", ctx.t("From the loss"), loss_definition(ctx, s.backward()->loss_spec()).c_str());
    } else if (const Result<Explanation> e = backward_explanation(ctx, *from); e) {
        ImGui::TextDisabled("%s", ctx.t("Chain-rule step it came from:"));
        ImGui::TextWrapped("%s (%s)", e->title.c_str(),
                           ctx.stepper().step(s.backward_forward_index(*from)).path.c_str());
        ImGui::PushStyleColor(ImGuiCol_Text, formula_color(ctx));
        ImGui::TextWrapped("%s", e->formula.c_str());
        ImGui::PopStyleColor();
    }
    if (width_em > 0.0f) ImGui::PopTextWrapPos();
}

const std::optional<Vocab>& output_vocab(const PanelContext& ctx) {
    const Model& m = ctx.session.model();
    return ctx.config().has_decoder() ? m.tgt_vocab : m.src_vocab;
}

void text_disabled_wrapped(const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped_at_spaces(text);
    ImGui::PopStyleColor();
}

// 1536 -> "1.5 KiB", 3.2e6 -> "3.1 MiB".
std::string format_bytes(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB"};
    int u = 0;
    while (bytes >= 1024.0 && u < 3) {
        bytes /= 1024.0;
        ++u;
    }
    char text[32];
    std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
    return text;
}

bool same_line_if_fits(float width, float gap) {
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + gap + width > right) return false;
    ImGui::SameLine(0.0f, gap);
    return true;
}

float button_width_for(const char* label) {
    return ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
}

float checkbox_width(const char* label) {
    return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}

namespace {

template <class T>
std::string format_value(const char* format, T v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

// The label and the value, right-aligned in a box as wide as the widest of `samples`, then the cursor
// where the slider goes.
void label_and_value(const char* label, const std::string& value, std::initializer_list<std::string> samples) {
    ImGui::AlignTextToFramePadding();
    if (label) {
        ImGui::TextUnformatted(label);
        ImGui::SameLine();
    }
    float box = 0.0f;
    for (const std::string& s : samples) box = std::max(box, ImGui::CalcTextSize(s.c_str()).x);
    const ImVec2 start = ImGui::GetCursorScreenPos();
    ImGui::SetCursorScreenPos(ImVec2(start.x + box - ImGui::CalcTextSize(value.c_str()).x, start.y));
    ImGui::TextUnformatted(value.c_str());
    ImGui::SameLine(0.0f, 0.0f);
    ImGui::SetCursorScreenPos(ImVec2(start.x + box + ImGui::GetStyle().ItemInnerSpacing.x, start.y));
}

// Runs `slider` with the text inside its frame transparent, unless Ctrl+click is typing into it.
template <class Slider>
bool with_value_hidden(const char* id, Slider slider) {
    const bool typing = ImGui::TempInputIsActive(ImGui::GetID(id));
    if (!typing) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.0f, 0.0f, 0.0f, 0.0f));
    const bool changed = slider();
    if (!typing) ImGui::PopStyleColor();
    return changed;
}

}  // namespace

bool value_slider_float(const char* label, const char* id, float* v, float lo, float hi, const char* format,
                        float width, ImGuiSliderFlags flags) {
    const auto text = [&](float x) { return format_value(format, static_cast<double>(x)); };
    label_and_value(label, text(*v), {text(lo), text(hi), text(*v)});
    ImGui::SetNextItemWidth(width);
    return with_value_hidden(id, [&] { return ImGui::SliderFloat(id, v, lo, hi, format, flags); });
}

bool value_slider_int(const char* label, const char* id, int* v, int lo, int hi, const char* format, float width) {
    const auto text = [&](int x) { return format_value(format, x); };
    label_and_value(label, text(*v), {text(lo), text(hi), text(*v)});
    ImGui::SetNextItemWidth(width);
    return with_value_hidden(id, [&] { return ImGui::SliderInt(id, v, lo, hi, format); });
}

float value_slider_width(const char* label, const char* widest_value, float width) {
    const ImGuiStyle& style = ImGui::GetStyle();
    return (label ? ImGui::CalcTextSize(label).x + style.ItemSpacing.x : 0.0f) + ImGui::CalcTextSize(widest_value).x +
           style.ItemInnerSpacing.x + width;
}

void csv_export_button(PanelContext& ctx, const std::string& name, const Tensor& tensor) {
    if (!ImGui::SmallButton(ctx.t("Save CSV"))) return;
    const std::string path = "attnlab-" + name + ".csv";
    auto st = io::write_tensor_csv(path, tensor);
    ctx.status = st ? std::string(ctx.t("Saved")) + " " + path : st.error().message;
}

HeatmapLayout matrix_layout(const PanelContext& ctx, const MatrixPlot& p) {
    const float width = p.max_width > 0.0f ? p.max_width : ImGui::GetContentRegionAvail().x;
    float row_w = 0.0f;  // the row labels' band: the widest label, abbreviated past heatmap_row_label_space()
    if (p.row_labels) {
        for (const std::string& l : *p.row_labels) row_w = std::max(row_w, ImGui::CalcTextSize(l.c_str()).x);
        row_w = std::min(row_w, heatmap_row_label_space()) + ImGui::GetStyle().ItemSpacing.x;
    }
    const float max_cell = p.max_cell > 0.0f ? p.max_cell : 2.2f * ctx.em;
    float cell =
        p.cell > 0.0f ? p.cell : std::clamp((width - row_w - ctx.em) / static_cast<float>(p.cols), 2.0f, max_cell);
    if (p.fit_height && p.cell <= 0.0f) {  // leave room for the column labels and the colour bar
        const float avail_h = ImGui::GetContentRegionAvail().y - 5.0f * ctx.em;
        cell = std::clamp(avail_h / static_cast<float>(p.rows), 2.0f, cell);
    }
    return {cell, p.row_labels, p.col_labels, p.highlight_row, ctx.view.settings.classroom, width, p.marked_rows};
}

HeatmapHit plot_matrix(PanelContext& ctx, const MatrixPlot& p) {
    if (!p.values || p.rows <= 0 || p.cols <= 0) return {};
    float lo = p.lo, hi = p.hi;
    if (!p.fixed_range) heatmap_range(p.values, static_cast<int64_t>(p.rows) * p.cols, p.colormap, lo, hi);
    HeatmapSource src{p.key, p.values, p.rows, p.cols, p.version, p.mask, p.mask_version, p.colormap, lo, hi};
    const ImTextureID tex = ctx.heatmaps.texture(src);
    const HeatmapLayout layout = matrix_layout(ctx, p);
    const HeatmapHit hit = heatmap_widget(p.key.c_str(), tex, p.rows, p.cols, layout);
    colorbar_widget(ctx.heatmaps.colorbar(p.colormap), lo, hi,
                    std::min(14.0f * ctx.em, std::max(p.cols * layout.cell + ctx.em, 6.0f * ctx.em)), p.caption);
    return hit;
}

}  // namespace attnlab::gui
