// The training view: choose a task and a preset, start, pause and stop a run on the worker
// thread, and watch it: progress and steps/s, the loss curve (training and held-out), the
// held-out exact match, token accuracy and BLEU, each layer's gradient norm and each head's attention
// entropy (training_plots), and the other views following the snapshots. Compare the weights with
// step 0, and save the trained model.
#include "model_changes.h"
#include "panels/checkpoint_slider.h"
#include "panels/induction_plots.h"
#include "panels/input_fields.h"
#include "panels/line_plot.h"
#include "panels/opened_model_form.h"
#include "panels/train_form_fields.h"
#include "panels/training_plots.h"
#include "widgets/radio_row.h"

#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace attnlab::gui {

namespace {

constexpr ImU32 kTrainColor = IM_COL32(96, 156, 255, 255);
constexpr ImU32 kHeldoutColor = IM_COL32(255, 150, 60, 255);
constexpr ImU32 kExactColor = IM_COL32(90, 200, 120, 255);
constexpr ImU32 kTokenColor = IM_COL32(190, 130, 255, 255);
constexpr ImU32 kBleuColor = IM_COL32(235, 200, 80, 255);
const ImVec4 kWarnColor(1.0f, 0.65f, 0.25f, 1.0f);
const ImVec4 kErrorColor(1.0f, 0.35f, 0.3f, 1.0f);

const char* task_description(const std::string& task) {
    if (task == "copy") return tr_noop("copy: the target is the source's letters, unchanged");
    if (task == "reverse") return tr_noop("reverse: the target is the source's letters, back to front");
    if (task == "sort") return tr_noop("sort: the target is the source's letters in alphabetical order");
    if (task == "en-ko") return tr_noop("en-ko: template English sentences and their Korean translations (SVO -> SOV)");
    if (task == "induction")
        return tr_noop(
            "induction: random tokens, then the same again; the second copy can be predicted by copying what followed "
            "each token the first time");
    return "";
}

// "1:05", "12:40", "1:02:03"
std::string clock_text(double seconds) {
    const long s = std::max(0L, static_cast<long>(seconds + 0.5));
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

// Whether the plots are an opened model's run (the run's, or before one the form's choice) rather than a task's.
bool opened_run(const PanelContext& ctx, const TrainProgress& p) {
    return p.run ? p.job.opened.has_value() : ctx.view.train.target == TrainTarget::opened_model;
}

// The induction task's run (or, before one, the form's choice): its copy losses and head scores replace held-out scores.
bool induction_run(const PanelContext& ctx, const TrainProgress& p) {
    return !opened_run(ctx, p) && (p.run ? p.job.settings.task : ctx.view.train.task) == "induction";
}

void draw_task_form(PanelContext& ctx) {
    TrainForm& f = ctx.view.train;
    const float em = ctx.em;
    field_label(ctx.t("Task"), 7.0f * em, true);
    if (ImGui::BeginCombo("##task", f.task.c_str())) {
        for (const std::string& name : train_task_names()) {
            if (ImGui::Selectable(name.c_str(), name == f.task)) {
                f.task = name;
                f.preset = train_presets(name).front();  // the task's own preset first
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.t(task_description(name)));
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.t(task_description(f.task)));
    const std::vector<const char*> presets = train_presets(f.task);
    if (std::find(presets.begin(), presets.end(), f.preset) == presets.end()) f.preset = presets.front();
    field_label(ctx.t("Preset"), 6.5f * em, false);
    if (ImGui::BeginCombo("##preset", f.preset.c_str())) {
        for (const char* p : presets)
            if (ImGui::Selectable(p, f.preset == p)) f.preset = p;
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", f.task == "induction" ? ctx.t("induction: a 2-layer Llama-style model, C=32, 2 heads; "
                                                              "tiny: C=64, 2 layers; base: C=512, 6 layers")
                                                      : ctx.t("tiny: C=64, 2+2 layers; base: the paper's C=512, 6+6 layers"));
    draw_run_fields(ctx, ctx.t("sentence pairs per step"));
    field_label(ctx.t("Evaluate every"), 6.5f * em, false);
    ImGui::DragInt("##eval_every", &f.eval_every, 1.0f, 0, 1000000, f.eval_every == 0 ? ctx.t("auto") : "%d",
                   ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "%s", ctx.t("steps between held-out evaluations; 0 (auto): about 25 per run. Drag or double-click."));
    f.eval_every = std::max(f.eval_every, 0);
    if (f.task == "induction") text_disabled_wrapped(ctx.t(task_description(f.task)));
    if (f.preset == "base")
        ImGui::TextColored(
            kWarnColor, "%s",
            ctx.t("base is the paper's size (C=512, 6+6 layers): a step takes seconds here, not milliseconds."));
}

// What Start trains, then that kind of run's fields.
void draw_form(PanelContext& ctx, bool busy) {
    TrainForm& f = ctx.view.train;
    ImGui::BeginDisabled(busy);
    const std::string opened = std::string(ctx.t("The model in the views")) + " (" +
                               model_display_name(ctx.session.model_name()) + ")";
    const int picked = radio_row({ctx.t("A new model for a task"), opened.c_str()},
                                 f.target == TrainTarget::opened_model ? 1 : 0);
    if (picked >= 0) f.target = picked == 1 ? TrainTarget::opened_model : TrainTarget::new_model;
    if (f.target == TrainTarget::opened_model)
        draw_opened_model_form(ctx);
    else
        draw_task_form(ctx);
    ImGui::EndDisabled();
}

std::string status_line(const PanelContext& ctx, const TrainProgress& p) {
    char buf[160];
    switch (p.state) {
        case TrainState::idle: return ctx.t("No run yet.");
        case TrainState::running:
            return p.evaluating ? ctx.t("Running · scoring the held-out pairs…") : ctx.t("Running");
        case TrainState::paused: std::snprintf(buf, sizeof buf, ctx.t("Paused at step %d"), p.step); return buf;
        case TrainState::finished:
            std::snprintf(buf, sizeof buf, ctx.t("Finished in %s"), clock_text(p.elapsed_seconds).c_str());
            return buf;
        case TrainState::stopped: std::snprintf(buf, sizeof buf, ctx.t("Stopped at step %d"), p.step); return buf;
        case TrainState::failed: return ctx.t("Failed");
    }
    return "";
}

void start_run(PanelContext& ctx, ImGuiID field) {
    const TrainForm& f = ctx.view.train;
    Result<TrainJob> job =
        f.target == TrainTarget::opened_model ? opened_model_job(f, ctx.session, ctx.training) : Result<TrainJob>(train_job(f));
    if (!job) {
        note_command(field, ctx.session.reject(job.error().message), ctx.session);
        return;
    }
    if (auto st = ctx.training.start(ctx.session, *job); !st) {
        const bool ok = ctx.session.reject(st.error().message);
        // The worker's own failures show in the status line; the session's (adopting the model) below.
        if (ctx.training.progress().state != TrainState::failed) note_command(field, ok, ctx.session);
    }
}

// The question Start asks before a run replaces an opened, trained or changed model.
struct ReplaceDialog {
    ReplaceQuestion question;
    std::string path;   // where "Save, then start" writes the model
    std::string error;  // the save's failure, shown in the dialog
};

constexpr const char* kReplacePopup = "###replace_model";

// A file name for saving the session's model before it is replaced: beside nothing it could overwrite.
std::string save_name(const PanelContext& ctx) {
    if (ctx.session.origin() == ModelOrigin::training)
        return "trained-" + ctx.training.progress().job.settings.task + ".safetensors";
    const std::string stem = std::filesystem::path(model_display_name(ctx.session.model_name())).stem().string();
    return (stem.empty() || ctx.session.origin() == ModelOrigin::random ? std::string("model") : stem) +
           "-edited.safetensors";
}

void draw_replace_dialog(PanelContext& ctx, ImGuiID field) {
    ReplaceDialog& d = ctx.caches.get<ReplaceDialog>();
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(std::min(34.0f * ctx.em, vp->WorkSize.x * 0.9f), 0.0f));
    const std::string title = std::string(ctx.t("Start training?")) + kReplacePopup;
    if (!ImGui::BeginPopupModal(title.c_str(), nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    const std::string name = model_display_name(ctx.session.model_name());
    ImGui::PushTextWrapPos(0.0f);
    ImGui::Text(ctx.t("Training starts a new model for the task. It replaces %s in every view."), name.c_str());
    if (d.question.unsaved)
        ImGui::TextUnformatted(
            ctx.t("Its trained or edited weights and its switches are lost unless you save them "
                  "first. Switched-off heads and flipped mask cells are never saved."));
    else
        ImGui::TextUnformatted(ctx.t("It is as its file has it, so you can open it again later."));
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    bool close = false;
    if (d.question.unsaved) {
        const char* save_label = ctx.t("Save, then start");
        const float save_w = ImGui::CalcTextSize(save_label).x + 2.0f * ImGui::GetStyle().FramePadding.x;
        ImGui::SetNextItemWidth(
            std::max(8.0f * ctx.em, ImGui::GetContentRegionAvail().x - save_w - ImGui::GetStyle().ItemSpacing.x));
        bool save = ImGui::InputText("##replace_save_path", &d.path, ImGuiInputTextFlags_EnterReturnsTrue);
        ImGui::SameLine();
        save |= ImGui::Button(save_label);
        if (save && !d.path.empty()) {
            if (ctx.session.save_model_file(d.path)) {
                ctx.status = std::string(ctx.t("Saved")) + " " + d.path;
                remember_recent_file(ctx.view, d.path);
                start_run(ctx, field);
                close = true;
            } else {
                d.error = ctx.session.error();
            }
        }
        if (!d.error.empty()) {
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextColored(kErrorColor, "%s", d.error.c_str());
            ImGui::PopTextWrapPos();
        }
    }
    if (ImGui::Button(ctx.t("Replace"))) {
        start_run(ctx, field);
        close = true;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.t("Start training without saving."));
    ImGui::SameLine();
    if (ImGui::Button(ctx.t("Cancel")) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) close = true;
    if (close) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

// Learning rate, gradient norm, batch accuracy and time, dim, separated by dots; each goes to the next
// line when it does not fit.
void draw_run_details(const PanelContext& ctx, const TrainProgress& p) {
    char text[4][96];
    std::snprintf(text[0], sizeof text[0], "%s %.2e", ctx.t("learning rate"),
                  static_cast<double>(p.last.learning_rate));
    std::snprintf(text[1], sizeof text[1], "|g| %.3f", p.last.grad_norm);
    std::snprintf(text[2], sizeof text[2], "%s %.1f%%", ctx.t("batch token accuracy"), 100.0 * p.last.token_accuracy);
    std::snprintf(text[3], sizeof text[3], "%s %s", ctx.t("elapsed"), clock_text(p.elapsed_seconds).c_str());
    for (int i = 0; i < 4; ++i) {
        const std::string after_dot = std::string("·   ") + text[i];
        const bool on_line = i > 0 && same_line_if_fits(ImGui::CalcTextSize(after_dot.c_str()).x, ctx.em);
        ImGui::TextDisabled("%s", on_line ? after_dot.c_str() : text[i]);
    }
}

void draw_controls(PanelContext& ctx, const TrainProgress& p) {
    const ImGuiID field = ImGui::GetID("##start");
    const bool busy = ctx.training.active();
    if (!busy) {
        const bool opened = ctx.view.train.target == TrainTarget::opened_model;
        if (ImGui::Button(ctx.t("Start"))) {
            // Training the model the views show keeps it (with its edits) as step 0: nothing is replaced.
            const ReplaceQuestion q = opened ? ReplaceQuestion{} : replacing_model_question(ctx.session);
            if (q.ask) {
                ctx.caches.get<ReplaceDialog>() = {q, save_name(ctx), ""};
                ImGui::OpenPopup(kReplacePopup);
            } else {
                start_run(ctx, field);
            }
        }
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", opened ? ctx.t("Trains the model the views show on the file, from its current "
                                                   "weights; every view follows it.")
                                           : ctx.t("A new model for the task, trained from step 0; every view follows it."));
        draw_replace_dialog(ctx, field);
    } else {
        if (p.state == TrainState::paused ? ImGui::Button(ctx.t("Resume")) : ImGui::Button(ctx.t("Pause"))) {
            if (p.state == TrainState::paused)
                ctx.training.resume();
            else
                ctx.training.pause();
        }
        ImGui::SameLine();
        if (ImGui::Button(ctx.t("Stop"))) ctx.training.stop();
    }
    ImGui::SameLine(0.0f, 1.5f * ctx.em);
    ImGui::AlignTextToFramePadding();
    const std::string status = status_line(ctx, p);
    if (p.state == TrainState::failed)
        ImGui::TextColored(kErrorColor, "%s: %s", status.c_str(), p.error.c_str());
    else
        ImGui::TextUnformatted(status.c_str());
    field_error(ctx.session, field);

    // The numbers as text (a progress bar's overlay is hard to read on its fill), then a slim bar.
    if (p.run == 0 || p.state == TrainState::failed) {
        ImGui::Text(ctx.t("step %d / %d"), 0, ctx.view.train.steps);
    } else {
        ImGui::Text(ctx.t("step %d / %d"), p.step, p.total);
        ImGui::SameLine(0.0f, 1.5f * ctx.em);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kTrainColor), "%s %.3f", ctx.t("loss"), p.last.loss);
        ImGui::SameLine(0.0f, 1.5f * ctx.em);
        ImGui::Text("%.1f %s", p.steps_per_second, ctx.t("steps/s"));
        if (busy) {
            ImGui::SameLine(0.0f, 1.5f * ctx.em);
            ImGui::Text("%s %s", ctx.t("ETA"), p.step == 0 ? "…" : clock_text(p.eta_seconds).c_str());
        }
    }
    const float fraction = p.total > 0 ? static_cast<float>(p.step) / static_cast<float>(p.total) : 0.0f;
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, ImGui::ColorConvertU32ToFloat4(kTrainColor));
    ImGui::ProgressBar(fraction, ImVec2(-1.0f, 0.45f * ctx.em), "");
    ImGui::PopStyleColor();
    if (p.step > 0)
        draw_run_details(ctx, p);
    else
        text_disabled_wrapped(ctx.view.train.target == TrainTarget::opened_model
                                  ? ctx.t("Loss is the mean cross-entropy of the tokens the model predicts, unsmoothed.")
                                  : ctx.t("Loss is the label-smoothed cross-entropy per target token (ε = 0.1)."));
}

// The batch losses averaged over a centred window of about 1/40 of the points: the trend under the noise.
std::vector<ImVec2> smoothed(const std::vector<ImVec2>& points) {
    const int n = static_cast<int>(points.size()), half = std::max(1, n / 80);
    std::vector<ImVec2> out;
    out.reserve(points.size());
    for (int i = 0; i < n; ++i) {
        const int lo = std::max(0, i - half), hi = std::min(n - 1, i + half);
        float sum = 0.0f;
        for (int j = lo; j <= hi; ++j) sum += points[static_cast<size_t>(j)].y;
        out.emplace_back(points[static_cast<size_t>(i)].x, sum / static_cast<float>(hi - lo + 1));
    }
    return out;
}

void loss_plot(PanelContext& ctx, const TrainProgress& p, ImVec2 size) {
    PlotSeries batch{ctx.t("training (batch)"), IM_COL32(96, 156, 255, 90), {}, 1.0f};
    for (size_t i = 0; i < p.train_loss.size(); ++i)
        batch.points.emplace_back(p.train_loss.step_at(i), p.train_loss.mean(i));
    PlotSeries train{ctx.t("training (smoothed)"), kTrainColor, smoothed(batch.points), 2.0f};
    PlotSeries heldout{ctx.t("held-out"), kHeldoutColor, {}, 2.0f, true};
    for (const HeldoutPoint& h : p.heldout)
        heldout.points.emplace_back(static_cast<float>(h.step), static_cast<float>(h.scores.loss));
    // The induction task has no held-out pairs: its fixed batch's loss on either copy instead.
    const bool induction = induction_run(ctx, p);
    PlotSeries first{ctx.t("first copy"), kTrainColor, {}, 2.0f, true};
    PlotSeries second{ctx.t("second copy"), kHeldoutColor, {}, 2.0f, true};
    for (size_t i = 0; i < p.induction.size(); ++i) {
        first.points.emplace_back(static_cast<float>(p.induction.step(i)), p.induction.first_copy_loss(i));
        second.points.emplace_back(static_cast<float>(p.induction.step(i)), p.induction.second_copy_loss(i));
    }
    PlotAxes axes;
    axes.x_label = ctx.t("step");
    axes.y_label = "";  // the header above the plot says it
    axes.x_max = static_cast<float>(std::max(p.run ? p.total : ctx.view.train.steps, 1));
    axes.log_y = ctx.view.train.log_loss;
    axes.empty_note = ctx.t("Press Start to train.");
    line_plot("##loss", size, axes,
              induction     ? std::vector<PlotSeries>{batch, train, first, second}
              : opened_run(ctx, p) ? std::vector<PlotSeries>{batch, train}
                             : std::vector<PlotSeries>{batch, train, heldout});
}

void score_plot(PanelContext& ctx, const TrainProgress& p, ImVec2 size, bool bleu) {
    PlotSeries exact{ctx.t("exact match"), kExactColor, {}, 2.0f, true, "%.1f%%"};
    PlotSeries tokens{ctx.t("token accuracy"), kTokenColor, {}, 2.0f, true, "%.1f%%"};
    PlotSeries bleu_series{"BLEU", kBleuColor, {}, 2.0f, true, "%.1f"};
    for (const HeldoutPoint& h : p.heldout) {
        const float x = static_cast<float>(h.step);
        exact.points.emplace_back(x, static_cast<float>(100.0 * h.scores.exact_match));
        tokens.points.emplace_back(x, static_cast<float>(100.0 * h.scores.token_accuracy));
        bleu_series.points.emplace_back(x, static_cast<float>(h.scores.bleu));
    }
    PlotAxes axes;
    axes.x_label = ctx.t("step");
    axes.y_label = "";  // the legend and the numbers above say it
    axes.x_max = static_cast<float>(std::max(p.run ? p.total : ctx.view.train.steps, 1));
    axes.fixed_y = true, axes.y_min = 0.0f, axes.y_max = 100.0f;
    axes.empty_note = ctx.t("no evaluation yet");
    std::vector<PlotSeries> series = {exact, tokens};
    if (bleu) series.push_back(bleu_series);
    line_plot("##scores", size, axes, series);
}

// The latest held-out scores as numbers.
void score_numbers(const PanelContext& ctx, const TrainProgress& p, bool bleu, float width) {
    if (p.heldout.empty()) {
        ImGui::TextDisabled("%s",
                            p.evaluating ? ctx.t("scoring the held-out pairs…") : ctx.t("Held-out scores: none yet"));
        return;
    }
    const HeldoutPoint& h = p.heldout.back();
    const float left = ImGui::GetCursorScreenPos().x, right = left + width;
    ImGui::Text(ctx.t("Held-out at step %d"), h.step);
    char pairs[96];
    std::snprintf(pairs, sizeof pairs, "(%d %s%s)", h.scores.n_examples, ctx.t("pairs"),
                  h.full ? "" : ctx.t(", live sample"));
    // How many pairs beside it when that fits; else on hover, which keeps a narrow column's plot its height.
    const bool pairs_fit =
        ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(pairs).x <= right;
    if (pairs_fit) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", pairs);
    }
    if (ImGui::IsItemHovered()) {
        const char* live = ctx.t(
            "Live evaluations decode at most twice the longest reference; the final one "
            "scores every held-out pair in full.");
        if (!pairs_fit)
            ImGui::SetTooltip("%s%s%s", pairs, h.full ? "" : "\n", h.full ? "" : live);
        else if (!h.full)
            ImGui::SetTooltip("%s", live);
    }
    // Each number on this line if it fits, else on the next.
    char text[4][96];
    std::snprintf(text[0], sizeof text[0], "%s %.1f%%", ctx.t("exact match"), 100.0 * h.scores.exact_match);
    std::snprintf(text[1], sizeof text[1], "%s %.1f%%", ctx.t("token accuracy"), 100.0 * h.scores.token_accuracy);
    std::snprintf(text[2], sizeof text[2], "BLEU %.1f", h.scores.bleu);
    std::snprintf(text[3], sizeof text[3], "%s %.3f", ctx.t("loss"), h.scores.loss);
    const ImU32 colors[4] = {kExactColor, kTokenColor, kBleuColor, kHeldoutColor};
    bool first = true;
    for (int i = 0; i < 4; ++i) {
        if (i == 2 && !bleu) continue;
        const float gap = 1.2f * ctx.em;
        if (!first && ImGui::GetItemRectMax().x + gap + ImGui::CalcTextSize(text[i]).x <= right)
            ImGui::SameLine(0.0f, gap);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colors[i]), "%s", text[i]);
        first = false;
    }
}

// An opened model's run has no held-out split: its loss takes the whole width, under what its file held.
void draw_opened_loss(PanelContext& ctx, const TrainProgress& p, float height) {
    const float y0 = ImGui::GetCursorPosY();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(ctx.t("Loss"));
    ImGui::SameLine();
    ImGui::Checkbox(ctx.t("log scale"), &ctx.view.train.log_loss);
    // What it trains on, then (once a run has read its file) the file and what it held.
    const Arch arch = p.run ? p.job.opened->model->config.arch : ctx.session.model().config.arch;
    std::string about = what_it_trains_on(ctx, arch);
    if (p.run && (p.data.tokens > 0 || p.data.pairs > 0)) {
        char counts[160];
        if (p.data.pairs > 0)
            std::snprintf(counts, sizeof counts, ctx.t("%lld pairs"), static_cast<long long>(p.data.pairs));
        else
            std::snprintf(counts, sizeof counts, ctx.t("%lld tokens: %lld windows of %d + 1"),
                          static_cast<long long>(p.data.tokens), static_cast<long long>(p.data.windows),
                          p.data.seq_len);
        about += " · " + model_display_name(p.job.opened->data.path) + " · " + counts;
    }
    if (same_line_if_fits(ImGui::CalcTextSize(about.c_str()).x, 1.5f * ctx.em)) ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", about.c_str());
    loss_plot(ctx, p, ImVec2(ImGui::GetContentRegionAvail().x, std::max(8.0f * ctx.em, height - (ImGui::GetCursorPosY() - y0))));
}

void draw_curves(PanelContext& ctx, const TrainProgress& p, float height) {
    if (opened_run(ctx, p)) {
        draw_opened_loss(ctx, p, height);
        return;
    }
    const std::string& task = p.run ? p.job.settings.task : ctx.view.train.task;
    const bool bleu = task == "en-ko", induction = induction_run(ctx, p);
    const float em = ctx.em, avail = ImGui::GetContentRegionAvail().x;
    const bool side_by_side = avail >= 32.0f * em;
    const float loss_w = side_by_side ? std::floor(avail * 0.58f) : avail;
    const float scores_w = side_by_side ? avail - loss_w - ImGui::GetStyle().ItemSpacing.x : avail;
    const float header_h = ImGui::GetFrameHeightWithSpacing();
    const float plot_h = std::max(6.0f * em, side_by_side ? height - header_h : (height - 2.0f * header_h) * 0.5f);

    // One header line within the loss plot's width: what the loss is, when it fits (else on hover), and the switch.
    const float left_x = ImGui::GetCursorPosX();
    const char* about = ctx.t("cross-entropy per token (ε-smoothed)");
    const char* log_scale = ctx.t("log scale");
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const bool about_fits = ImGui::CalcTextSize(ctx.t("Loss")).x + spacing + ImGui::CalcTextSize(about).x + 1.5f * em +
                                checkbox_width(log_scale) <=
                            loss_w;
    ImGui::BeginGroup();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(ctx.t("Loss"));
    if (about_fits) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", about);
    } else if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s", about);
    }
    ImGui::SameLine(0.0f, 1.5f * em);
    ImGui::Checkbox(log_scale, &ctx.view.train.log_loss);
    loss_plot(ctx, p, ImVec2(loss_w, plot_h));
    ImGui::EndGroup();
    if (side_by_side) ImGui::SameLine(left_x + loss_w + spacing);  // where the scores' width was reckoned from
    if (induction) {
        draw_copy_losses(ctx, p, ImVec2(scores_w, side_by_side ? height : plot_h + header_h));
        return;
    }
    ImGui::BeginGroup();
    ImGui::PushID("scores");
    const float y0 = ImGui::GetCursorPosY();
    ImGui::AlignTextToFramePadding();
    score_numbers(ctx, p, bleu, scores_w);
    const float numbers_h = ImGui::GetCursorPosY() - y0;  // the plots' bottoms line up
    score_plot(ctx, p, ImVec2(scores_w, std::max(6.5f * em, plot_h + header_h - numbers_h)), bleu);
    ImGui::PopID();
    ImGui::EndGroup();
}

// The loss and scores above the gradient norms and entropies when both rows get a readable height, else
// each as a tab of its own (side by side, a 1024x768 screen would leave the last two a few lines each).
void draw_plots(PanelContext& ctx, const TrainProgress& p, float height) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const bool induction = induction_run(ctx, p);
    if (height >= 30.0f * ctx.em && !induction) {
        const float top = std::floor(0.5f * (height - style.ItemSpacing.y));
        const float y0 = ImGui::GetCursorPosY();
        draw_curves(ctx, p, top);
        draw_probe_plots(ctx, p, height - (ImGui::GetCursorPosY() - y0));
        return;
    }
    const float y0 = ImGui::GetCursorPosY();
    if (!ImGui::BeginTabBar("##training_plots")) return;
    // Fixed ids after ###, so a change of language keeps the open tab.
    const std::string loss_tab =
        std::string(induction ? ctx.t("Loss on each copy") : opened_run(ctx, p) ? ctx.t("Loss") : ctx.t("Loss and scores")) +
        "###loss_tab";
    const std::string grad_tab = std::string(ctx.t("Gradient norm by layer")) + "###grad_tab";
    const std::string entropy_tab = std::string(ctx.t("Attention entropy by head")) + "###entropy_tab";
    const auto rest = [&] { return ImVec2(ImGui::GetContentRegionAvail().x, height - (ImGui::GetCursorPosY() - y0)); };
    if (ImGui::BeginTabItem(loss_tab.c_str())) {
        draw_curves(ctx, p, rest().y);
        ImGui::EndTabItem();
    }
    const std::string heads_tab = std::string(ctx.t("Induction score by head")) + "###heads_tab";
    if (induction && ImGui::BeginTabItem(heads_tab.c_str())) {
        draw_head_scores(ctx, p, rest());
        ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem(grad_tab.c_str())) {
        draw_gradient_norms(ctx, p, rest(), false);
        ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem(entropy_tab.c_str())) {
        draw_head_entropies(ctx, p, rest(), false);
        ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
}

void draw_compare(PanelContext& ctx) {
    Training& t = ctx.training;
    if (!t.has_run()) return;
    if (!t.linked(ctx.session)) {
        ImGui::AlignTextToFramePadding();
        ImGui::TextColored(kWarnColor, "%s", ctx.t("The other views show another model now."));
        ImGui::SameLine();
        if (ImGui::Button(ctx.t("Show this run in the views"))) t.show_in_session(ctx.session);
        return;
    }
    bool pinned = t.compare_pinned();
    const bool toggled = ImGui::Checkbox(ctx.t("Compare with step 0"), &pinned);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("Every view shows the untrained weights of step 0 while this is on."));
    ImGui::SameLine();
    ImGui::Button(ctx.t("Hold for step 0"));
    const bool held = ImGui::IsItemActive();
    if (toggled || held != (t.compare() && !t.compare_pinned())) t.set_compare(ctx.session, pinned, held);
    char shown[160];
    if (t.compare())
        std::snprintf(shown, sizeof shown, "%s", ctx.t("The views show step 0 (untrained)."));
    else
        std::snprintf(shown, sizeof shown,
                      ctx.t(t.active() ? "The views show step %d, following the run." : "The views show step %d."),
                      t.shown_step());
    same_line_if_fits(ImGui::CalcTextSize(shown).x, 1.5f * ctx.em);
    if (t.compare())
        ImGui::TextColored(kWarnColor, "%s", shown);
    else
        ImGui::TextDisabled("%s", shown);
}

void draw_save(PanelContext& ctx) {
    Training& t = ctx.training;
    if (!t.has_run()) return;
    const ImGuiID field = ImGui::GetID("##save_trained");
    const char* label = ctx.t("Save model");
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(ctx.t("Save the trained model"));
    ImGui::SameLine();
    const float button_w = ImGui::CalcTextSize(label).x + 2.0f * ImGui::GetStyle().FramePadding.x;
    ImGui::SetNextItemWidth(
        std::min(28.0f * ctx.em, ImGui::GetContentRegionAvail().x - button_w - ImGui::GetStyle().ItemSpacing.x));
    std::string path;
    const std::optional<OpenedModelRun>& opened = t.progress().job.opened;
    const bool folder = opened && opened->hf_folder;
    const std::string fallback =
        !opened  ? "trained-" + t.progress().job.settings.task + ".safetensors"
        : folder ? opened->name + "-trained"
                 : std::filesystem::path(opened->name).stem().string() + "-trained.safetensors";
    bool save = remembered_text_field("##save_trained", folder ? "folder" : "model.safetensors", fallback, path);
    ImGui::SameLine();
    save |= ImGui::Button(label);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", folder ? ctx.t("The newest snapshot as a Hugging Face folder: its config.json, "
                                               "model.safetensors and tokenizer files; written atomically.")
                                       : ctx.t("The newest snapshot, with the task's vocabularies; written atomically."));
    if (save && !path.empty()) {
        if (auto st = t.save(path); st) {
            ctx.status = std::string(ctx.t("Saved")) + " " + path;
            remember_recent_file(ctx.view, path);
        } else {
            note_command(field, ctx.session.reject(st.error().message), ctx.session);
        }
    }
    field_error(ctx.session, field);
}

}  // namespace

void draw_training_panel(PanelContext& ctx) {
    const TrainProgress& p = ctx.training.progress();
    draw_form(ctx, ctx.training.active());
    ImGui::Spacing();
    draw_controls(ctx, p);
    ImGui::Separator();
    // The curves take what the compare and save lines below leave.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float below = ctx.training.has_run()
                            ? 2.0f * ImGui::GetFrameHeightWithSpacing() + 2.0f * style.ItemSpacing.y + 0.5f * ctx.em
                            : 0.0f;
    // Between runs, the history beside the model the views show (if it has one) in place of the run's curves.
    if (ctx.training.active() || !draw_checkpoint_history(ctx, ImGui::GetContentRegionAvail().y - below))
        draw_plots(ctx, p, ImGui::GetContentRegionAvail().y - below);
    if (ctx.training.has_run()) ImGui::Separator();
    draw_compare(ctx);
    draw_save(ctx);
}

}  // namespace attnlab::gui
