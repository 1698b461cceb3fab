// The residual-flow diagram: per layer, the stream (line width ∝ ‖x‖), each sublayer's branch
// with a bar of ‖Sublayer(·)‖, and the ⊕ and LayerNorm nodes in post-LN or pre-LN order.
#include "panels/residual_flow.h"
#include "panels/step_explanation.h"

#include "forward/mechanisms/norm.h"
#include "forward/mechanisms/stream_multipliers.h"
#include "forward/step_path.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

namespace attnlab::gui {

ResidualStack residual_stack(const ModelConfig& c, bool decoder) {
    ResidualStack s;
    s.decoder = decoder;
    const Stack stack = decoder ? Stack::decoder : Stack::encoder;
    s.input = stack_input(c, stack);
    s.output = StepId::of(StepKind::stack_output, stack);
    std::vector<SublayerKind> kinds = {SublayerKind::self_attn};
    if (decoder && c.arch == Arch::encoder_decoder) kinds.push_back(SublayerKind::cross_attn);
    kinds.push_back(SublayerKind::ffn);
    const int n_layers = decoder ? c.n_decoder_layers : c.n_encoder_layers;
    for (int i = 0; i < n_layers; ++i) {
        std::vector<ResidualSublayer> subs;
        for (size_t k = 0; k < kinds.size(); ++k) {
            const AttentionUse use = kinds[k] == SublayerKind::cross_attn ? AttentionUse::cross
                                     : decoder                            ? AttentionUse::decoder_self
                                                                          : AttentionUse::encoder_self;
            const StepId out = kinds[k] == SublayerKind::ffn ? StepId::ffn_at(stack, i, FfnPart::out)
                                                             : StepId::attention_at({use, i}, AttentionStage::out);
            const int n = static_cast<int>(k) + 1;
            subs.push_back({kinds[k], out, StepId::sublayer_at(StepKind::residual, stack, i, n),
                            StepId::sublayer_at(StepKind::norm, stack, i, n)});
        }
        s.layers.push_back(std::move(subs));
    }
    return s;
}

std::optional<float> row_norm(const Stepper& stepper, const StepId& id, int token) {
    const Tensor* t = stepper.output(id);
    if (!t || t->rank() != 2 || token < 0 || token >= t->dim(0)) return std::nullopt;
    return t->row(token).norm();
}

namespace {

using Value = std::optional<float>;

ImU32 kind_color(SublayerKind k) {
    switch (k) {
        case SublayerKind::self_attn: return IM_COL32(86, 148, 230, 255);
        case SublayerKind::cross_attn: return IM_COL32(176, 118, 222, 255);
        case SublayerKind::ffn: return IM_COL32(232, 150, 64, 255);
    }
    return 0;
}
constexpr ImU32 kNormColor = IM_COL32(88, 176, 128, 255);

// The sublayer's name at three lengths, 0 = longest (English, for ctx.t).
const char* sublayer_name(SublayerKind kind, int length) {
    switch (kind) {
        case SublayerKind::self_attn:
            return length == 0 ? tr_noop("Self-attention") : length == 1 ? tr_noop("Self-attn") : tr_noop("Self");
        case SublayerKind::cross_attn:
            return length == 0 ? tr_noop("Cross-attention") : length == 1 ? tr_noop("Cross-attn") : tr_noop("Cross");
        case SublayerKind::ffn: return tr_noop("FFN");
    }
    return "";
}

// Row geometry, in em.
constexpr float kStartW = 1.6f, kEndW = 1.6f, kRowH = 5.8f, kStreamY = 1.9f;
constexpr float kPlusR = 0.5f, kBoxTop = 1.1f, kBoxH = 2.4f, kLnW = 2.6f;
// A segment's narrowest: its sublayer box keeps ~2.7 em, room for "Self" over its value, so a decoder layer's three
// segments fit a 1280-wide classroom window beside the tour card.
constexpr float kMinSegW = 8.5f;

std::string format_norm(Value v) {
    if (!v) return "…";
    char buf[32];
    std::snprintf(buf, sizeof buf, *v < 10.0f ? "%.2f" : *v < 1000.0f ? "%.1f" : "%.0f", static_cast<double>(*v));
    return buf;
}

// What the mouse is over, explained once the diagram is drawn.
struct Hover {
    const char* what = nullptr;  // English
    StepId id;
    Value value;
    Value stream;               // for a sublayer: ‖x‖ of the stream it is added to
    bool with_formula = false;  // the heading goes on with the step's own formula (a residual add's: x + m·…)
};

struct Flow {
    PanelContext& ctx;
    const ResidualStack& stack;
    int token;
    ImDrawList* draw;
    float em;
    float label_w;  // the row labels' column, in pixels
    float seg_w;
    float max_out = 1.0f, max_stream = 1.0f;  // bar length and line width scales, over every token
    float write_scale = 1.0f;  // m: a sublayer's output joins the stream as m·Sublayer(…) (Granite's; else 1)
    bool window_hovered = false;
    Hover hover{};
    std::optional<StepId> current{};  // the step the stepper ran last, outlined in the diagram

    ImU32 text() const { return ImGui::GetColorU32(ImGuiCol_Text); }
    ImU32 dim() const { return ImGui::GetColorU32(ImGuiCol_TextDisabled); }
    void outline_if_current(ImVec2 a, ImVec2 b, const StepId& id) const {
        const float m = 0.2f * em;
        if (id == current)
            draw->AddRect(ImVec2(a.x - m, a.y - m), ImVec2(b.x + m, b.y + m),
                          ImGui::GetColorU32(ImGuiCol_PlotHistogram), 0.3f * em, 0, 2.5f);
    }
    void hit(ImVec2 a, ImVec2 b, const char* what, const StepId& id, Value v, Value stream = std::nullopt,
             bool with_formula = false) {
        if (window_hovered && ImGui::IsMouseHoveringRect(a, b)) hover = {what, id, v, stream, with_formula};
    }
};

void compute_scales(Flow& f, int n_tokens) {
    const Stepper& s = f.ctx.stepper();
    auto grow = [&](float& m, const StepId& id) {
        for (int t = 0; t < n_tokens; ++t)
            if (Value v = row_norm(s, id, t)) m = std::max(m, *v);
    };
    f.max_out = f.max_stream = 1e-6f;
    grow(f.max_stream, f.stack.input);
    grow(f.max_stream, f.stack.output);
    for (const auto& layer : f.stack.layers)
        for (const auto& sub : layer) {
            grow(f.max_out, sub.out);  // ‖Sublayer(…)‖, scaled by m where the bars are drawn
            grow(f.max_stream, sub.residual);
            grow(f.max_stream, sub.norm);
        }
}

void stream_segment(Flow& f, float x0, float x1, float y, Value v) {
    const float w = v ? 0.1f * f.em + 0.45f * f.em * *v / f.max_stream : 1.0f;
    f.draw->AddLine(ImVec2(x0, y), ImVec2(x1, y), v ? ImGui::GetColorU32(ImGuiCol_PlotLines) : f.dim(), w);
}

void value_above(Flow& f, float cx, float top_of_node, Value v) {
    const std::string s = format_norm(v);
    const ImVec2 size = ImGui::CalcTextSize(s.c_str());
    f.draw->AddText(ImVec2(cx - size.x * 0.5f, top_of_node - size.y - 0.1f * f.em), v ? f.text() : f.dim(), s.c_str());
}

void arrow_head(Flow& f, ImVec2 tip, ImVec2 dir, ImU32 color) {
    const float s = 0.35f * f.em;
    const ImVec2 back(tip.x - dir.x * s, tip.y - dir.y * s), side(-dir.y * s * 0.6f, dir.x * s * 0.6f);
    f.draw->AddTriangleFilled(tip, ImVec2(back.x + side.x, back.y + side.y), ImVec2(back.x - side.x, back.y - side.y),
                              color);
}

void plus_node(Flow& f, ImVec2 c, const StepId& id, Value v) {
    const float r = kPlusR * f.em;
    const ImU32 col = v ? f.text() : f.dim();
    f.draw->AddCircleFilled(c, r, ImGui::GetColorU32(ImGuiCol_FrameBg));
    f.draw->AddCircle(c, r, col, 0, 1.5f);
    f.draw->AddLine(ImVec2(c.x - r * 0.55f, c.y), ImVec2(c.x + r * 0.55f, c.y), col, 1.5f);
    f.draw->AddLine(ImVec2(c.x, c.y - r * 0.55f), ImVec2(c.x, c.y + r * 0.55f), col, 1.5f);
    value_above(f, c.x, c.y - r, v);
    f.outline_if_current(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), id);
    f.hit(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), tr_noop("Residual add"), id, v, std::nullopt, true);
}

// A LayerNorm (or RMSNorm) box: on the stream (post-LN, value above) or on the branch (pre-LN, value inside).
void norm_box(Flow& f, ImVec2 a, ImVec2 b, const StepId& id, Value v, bool value_inside) {
    f.draw->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg), 0.25f * f.em);
    f.draw->AddRect(a, b, v ? kNormColor : f.dim(), 0.25f * f.em, 0, 1.5f);
    const bool rms = NormMechanism(f.ctx.config()).rms();
    const char* label = rms ? "RMS" : "LN";
    const ImVec2 ln = ImGui::CalcTextSize(label);
    const float cx = (a.x + b.x) * 0.5f;
    if (value_inside) {
        const std::string s = format_norm(v);
        f.draw->AddText(ImVec2(cx - ln.x * 0.5f, a.y + 0.2f * f.em), f.text(), label);
        f.draw->AddText(ImVec2(cx - ImGui::CalcTextSize(s.c_str()).x * 0.5f, b.y - ln.y - 0.2f * f.em),
                        v ? f.text() : f.dim(), s.c_str());
    } else {
        f.draw->AddText(ImVec2(cx - ln.x * 0.5f, (a.y + b.y - ln.y) * 0.5f), f.text(), label);
        value_above(f, cx, a.y, v);
    }
    f.outline_if_current(a, b, id);
    f.hit(a, b,
          rms ? tr_noop("RMSNorm: x / √(mean(x²) + ε) · γ") : tr_noop("LayerNorm: (x − mean) / √(var + ε) · γ + β"), id,
          v);
}

// The sublayer: its name, then a bar of ‖Sublayer(·)‖ (full = the largest in the stack) and the value.
void sublayer_box(Flow& f, ImVec2 a, ImVec2 b, const ResidualSublayer& sub, Value v, Value v_in) {
    const float pad = 0.4f * f.em;
    const ImU32 color = v ? kind_color(sub.kind) : f.dim();
    f.draw->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg), 0.25f * f.em);
    f.draw->AddRect(a, b, color, 0.25f * f.em, 0, 1.5f);
    const char* name = f.ctx.t(sublayer_name(sub.kind, 0));
    for (int length = 1; length < 3 && ImGui::CalcTextSize(name).x > b.x - a.x - 2.0f * pad; ++length)
        name = f.ctx.t(sublayer_name(sub.kind, length));
    f.draw->PushClipRect(a, b, true);
    f.draw->AddText(ImVec2(a.x + pad, a.y + 0.2f * f.em), f.text(), name);
    const std::string value = format_norm(v);
    const ImVec2 value_size = ImGui::CalcTextSize(value.c_str());
    const float value_x = b.x - pad - value_size.x, line2 = b.y - 0.2f * f.em - value_size.y;
    f.draw->AddText(ImVec2(value_x, line2), v ? f.text() : f.dim(), value.c_str());
    const ImVec2 t0(a.x + pad, line2 + value_size.y * 0.3f), t1(value_x - 0.3f * f.em, line2 + value_size.y * 0.8f);
    f.draw->AddRectFilled(t0, t1, ImGui::GetColorU32(ImGuiCol_FrameBgHovered));
    if (v)
        f.draw->AddRectFilled(
            t0, ImVec2(t0.x + (t1.x - t0.x) * std::min(1.0f, *v / (std::abs(f.write_scale) * f.max_out)), t1.y), color);
    f.draw->PopClipRect();
    f.outline_if_current(a, b, sub.out);
    f.hit(a, b, tr_noop("What the sublayer adds to the stream (L2 norm)"), sub.out, v, v_in);
}

// One sublayer segment of width seg_w starting at x_a; returns the stream's norm after it.
Value segment(Flow& f, const ResidualSublayer& sub, float x_a, float y0, Value v_in) {
    const Stepper& s = f.ctx.stepper();
    const float em = f.em, y = y0 + kStreamY * em, r = kPlusR * em;
    const float box_a = y0 + (kStreamY + kBoxTop) * em, box_b = box_a + kBoxH * em, box_m = (box_a + box_b) * 0.5f;
    const float fork = x_a + 0.5f * em, x_end = x_a + f.seg_w;
    const Value v_out = row_norm(s, sub.out, f.token), v_res = row_norm(s, sub.residual, f.token);
    // What the stream receives: m·‖Sublayer(…)‖ (‖m·s‖ = |m|·‖s‖), the bar's and the tooltip's value.
    const Value v_added = v_out ? Value(std::abs(f.write_scale) * *v_out) : std::nullopt;
    const Value v_norm = row_norm(s, sub.norm, f.token);
    const bool pre_ln = NormMechanism(f.ctx.config()).before_sublayer();

    const float plus = pre_ln ? x_end - 0.9f * em : x_end - (kLnW + 1.4f) * em;
    float box_left = fork + 0.6f * em;
    const ImU32 branch = v_in ? f.dim() : ImGui::GetColorU32(ImGuiCol_Border);
    f.draw->AddLine(ImVec2(fork, y), ImVec2(fork, box_m), branch, 1.5f);
    if (pre_ln) {  // x + Sublayer(LN(x)): the LayerNorm sits on the branch
        f.draw->AddLine(ImVec2(fork, box_m), ImVec2(box_left, box_m), branch, 1.5f);
        norm_box(f, ImVec2(box_left, box_a), ImVec2(box_left + kLnW * em, box_b), sub.norm, v_norm, true);
        box_left += (kLnW + 0.6f) * em;
        f.draw->AddLine(ImVec2(box_left - 0.6f * em, box_m), ImVec2(box_left, box_m), branch, 1.5f);
    } else {
        f.draw->AddLine(ImVec2(fork, box_m), ImVec2(box_left, box_m), branch, 1.5f);
    }
    const float box_right = plus - 0.7f * em;
    sublayer_box(f, ImVec2(box_left, box_a), ImVec2(box_right, box_b), sub, v_added, v_in);
    f.draw->AddLine(ImVec2(box_right, box_m), ImVec2(plus, box_m), branch, 1.5f);
    f.draw->AddLine(ImVec2(plus, box_m), ImVec2(plus, y + r + 0.3f * em), branch, 1.5f);
    arrow_head(f, ImVec2(plus, y + r), ImVec2(0, -1), branch);

    stream_segment(f, x_a, plus - r, y, v_in);
    f.draw->AddCircleFilled(ImVec2(fork, y), 0.18f * em, v_in ? f.text() : f.dim());
    plus_node(f, ImVec2(plus, y), sub.residual, v_res);
    if (pre_ln) {
        stream_segment(f, plus + r, x_end, y, v_res);
        return v_res;
    }
    // LN(x + Sublayer(x)): the LayerNorm sits on the stream
    const float ln_a = plus + 1.0f * em, ln_b = ln_a + kLnW * em;
    stream_segment(f, plus + r, ln_a, y, v_res);
    norm_box(f, ImVec2(ln_a, y - 0.7f * em), ImVec2(ln_b, y + 0.7f * em), sub.norm, v_norm, false);
    stream_segment(f, ln_b, x_end, y, v_norm);
    return v_norm;
}

void row_label(Flow& f, ImVec2 origin, const std::string& label) {
    const float line = ImGui::GetTextLineHeight();
    f.draw->AddText(ImVec2(origin.x, origin.y + kStreamY * f.em - line * 0.5f), f.text(), label.c_str());
}

// The stream entering a row: a dot with the norm above it.
void row_start(Flow& f, float x, float y, const StepId& id, Value v) {
    const float r = 0.3f * f.em;
    f.draw->AddCircleFilled(ImVec2(x, y), r, v ? f.text() : f.dim());
    value_above(f, x, y - r, v);
    f.outline_if_current(ImVec2(x - r * 2, y - r * 2), ImVec2(x + r * 2, y + r * 2), id);
    f.hit(ImVec2(x - r * 2, y - r * 2), ImVec2(x + r * 2, y + r * 2),
          tr_noop("The residual stream entering this layer"), id, v);
}

Value layer_row(Flow& f, int layer, ImVec2 origin, Value v_in, const StepId& in) {
    const float y = origin.y + kStreamY * f.em;
    row_label(f, origin, std::string(f.ctx.t("Layer")) + " " + std::to_string(layer));
    float x = origin.x + f.label_w;
    row_start(f, x, y, in, v_in);
    stream_segment(f, x, x + kStartW * f.em, y, v_in);
    x += kStartW * f.em;
    Value v = v_in;
    for (const auto& sub : f.stack.layers[static_cast<size_t>(layer)]) {
        v = segment(f, sub, x, origin.y, v);
        x += f.seg_w;
    }
    stream_segment(f, x, x + kEndW * f.em, y, v);
    arrow_head(f, ImVec2(x + kEndW * f.em, y), ImVec2(1, 0), v ? f.text() : f.dim());
    return v;
}

// The stack's output: the final LayerNorm when the config has one.
void output_row(Flow& f, ImVec2 origin, Value v_in, const StepId& in) {
    const ModelConfig& c = f.ctx.config();
    const float em = f.em, y = origin.y + kStreamY * em;
    row_label(f, origin, f.ctx.t("Output"));
    float x = origin.x + f.label_w;
    row_start(f, x, y, in, v_in);
    const Value v_out = row_norm(f.ctx.stepper(), f.stack.output, f.token);
    if (c.final_norm) {
        stream_segment(f, x, x + 1.5f * em, y, v_in);
        x += 1.5f * em;
        norm_box(f, ImVec2(x, y - 0.7f * em), ImVec2(x + kLnW * em, y + 0.7f * em), f.stack.output, v_out, false);
        x += kLnW * em;
    }
    stream_segment(f, x, x + 2.0f * em, y, v_out);
    arrow_head(f, ImVec2(x + 2.0f * em, y), ImVec2(1, 0), v_out ? f.text() : f.dim());
    const bool rms = NormMechanism(c).rms();
    const char* note = c.final_norm ? (rms ? tr_noop("final RMSNorm") : tr_noop("final LayerNorm"))
                                    : (rms ? tr_noop("no final RMSNorm: the last layer's stream")
                                           : tr_noop("no final LayerNorm: the last layer's stream"));
    f.draw->AddText(ImVec2(x + 2.5f * em, y - ImGui::GetTextLineHeight() * 0.5f), f.dim(),
                    (step_path(f.stack.output) + "  (" + f.ctx.t(note) + ")").c_str());
}

void hover_tooltip(const Flow& f) {
    const Hover& h = f.hover;
    if (!h.what) return;
    const SequenceView seq = f.stack.decoder ? f.ctx.session.target() : f.ctx.session.source();
    const char* token =
        static_cast<size_t>(f.token) < seq.labels.size() ? seq.labels[static_cast<size_t>(f.token)].c_str() : "";
    ImGui::BeginTooltip();
    const std::optional<size_t> step = f.ctx.stepper().find(h.id);
    if (h.with_formula && step)  // "Residual add: x + m·Sublayer(RMSNorm(x))", as the step computes it
        ImGui::Text("%s: %s", f.ctx.t(h.what), f.ctx.stepper().step(*step).formula.c_str());
    else
        ImGui::TextUnformatted(f.ctx.t(h.what));
    ImGui::TextDisabled("%s", step_path(h.id).c_str());
    if (h.value)
        ImGui::Text("||x||₂ = %.4f   (%s %d \"%s\")", static_cast<double>(*h.value), f.ctx.t("Token"), f.token, token);
    else
        ImGui::TextUnformatted(f.ctx.t("Not run yet: step forward to compute it."));
    if (h.value && h.stream && *h.stream > 0.0f)
        ImGui::Text("= %.0f%% %s (%.3f)", 100.0 * static_cast<double>(*h.value / *h.stream),
                    f.ctx.t("of the norm of the stream it is added to"), static_cast<double>(*h.stream));
    step_explanation_section(f.ctx, h.id, {0, f.token, -1});
    ImGui::EndTooltip();
}

}  // namespace

void draw_residual_flow(PanelContext& ctx, const ResidualStack& stack, int token) {
    const float em = ctx.em;
    const size_t n_sub = stack.layers.empty() ? 1 : stack.layers.front().size();
    const std::string widest_label = std::string(ctx.t("Layer")) + " " + std::to_string(stack.layers.size());
    const float label_w =
        std::max(ImGui::CalcTextSize(widest_label.c_str()).x, ImGui::CalcTextSize(ctx.t("Output")).x) + 0.6f * em;
    const float fixed = label_w + (kStartW + kEndW + 1.5f) * em;
    const float seg_w =
        std::clamp((ImGui::GetContentRegionAvail().x - fixed) / static_cast<float>(n_sub), kMinSegW * em, 18.0f * em);
    Flow f{ctx, stack, token, ImGui::GetWindowDrawList(), em, label_w, seg_w};
    f.write_scale = StreamMultiplierMechanism(ctx.config()).residual_multiplier();
    f.window_hovered = ImGui::IsWindowHovered();
    if (const size_t cursor = ctx.stepper().cursor(); cursor > 0) f.current = ctx.stepper().step(cursor - 1).record.id;
    const Tensor* input = ctx.stepper().output(stack.input);
    compute_scales(f, input ? static_cast<int>(input->dim(0)) : 0);

    const ImVec2 origin = ImGui::GetCursorScreenPos();
    float y = origin.y;
    Value v = row_norm(ctx.stepper(), stack.input, token);
    StepId in = stack.input;
    for (size_t i = 0; i < stack.layers.size(); ++i) {
        v = layer_row(f, static_cast<int>(i), ImVec2(origin.x, y), v, in);
        in = NormMechanism(ctx.config()).before_sublayer() ? stack.layers[i].back().residual
                                                           : stack.layers[i].back().norm;
        y += kRowH * em;
    }
    output_row(f, ImVec2(origin.x, y), v, in);
    y += (kStreamY + 1.2f) * em;
    ImGui::Dummy(ImVec2(fixed + seg_w * static_cast<float>(n_sub), y - origin.y));
    hover_tooltip(f);
}

}  // namespace attnlab::gui
