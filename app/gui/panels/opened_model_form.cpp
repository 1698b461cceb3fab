// The opened model's training form: a data file and how to read it, for the model's own kind of batches.
#include "panels/opened_model_form.h"

#include "file_dialog.h"
#include "panels/train_form_fields.h"
#include "widgets/radio_row.h"

#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>

namespace attnlab::gui {

namespace {

// The data file's chooser, open across frames, and what its last use came to.
struct DataChooser {
    FileDialog dialog;
    const char* note = nullptr;  // an untranslated one-line note, or none
};

void draw_data_file(PanelContext& ctx, bool pairs) {
    TrainForm& f = ctx.view.train;
    DataChooser& chooser = ctx.caches.get<DataChooser>();
    if (std::optional<FileDialogResult> r = chooser.dialog.take()) {
        switch (r->outcome) {
            case FileDialogResult::Outcome::chosen:
                f.data_path = r->path;
                chooser.note = nullptr;
                break;
            case FileDialogResult::Outcome::cancelled: chooser.note = tr_noop("No file chosen."); break;
            case FileDialogResult::Outcome::unavailable:
                chooser.note = tr_noop("The file dialog is not available here: type the file's path.");
                break;
            case FileDialogResult::Outcome::failed: chooser.note = tr_noop("The file dialog did not open."); break;
        }
    }
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(pairs ? ctx.t("Pairs file") : ctx.t("Data file"));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", what_it_trains_on(ctx, ctx.session.model().config.arch));
    ImGui::SameLine();
    const char* choose = ctx.t("Choose…");
    const ImGuiStyle& style = ImGui::GetStyle();
    const float button_w = ImGui::CalcTextSize(choose).x + 2.0f * style.FramePadding.x;
    ImGui::SetNextItemWidth(std::max(8.0f * ctx.em, ImGui::GetContentRegionAvail().x - button_w - style.ItemSpacing.x));
    ImGui::InputTextWithHint("##data_path", pairs ? ctx.t("a file of source<TAB>target lines") : ctx.t("a text file, or a file of token ids"), &f.data_path);
    ImGui::SameLine();
    ImGui::BeginDisabled(chooser.dialog.pending());
    if (ImGui::Button(choose) &&
        chooser.dialog.start(FileDialog::data_chooser(ctx.t("A file to train on")), FilePick::data))
        chooser.note = nullptr;
    ImGui::EndDisabled();
    if (chooser.note) ImGui::TextDisabled("%s", ctx.t(chooser.note));
}

}  // namespace

void draw_opened_model_form(PanelContext& ctx) {
    TrainForm& f = ctx.view.train;
    const ModelConfig& c = ctx.session.model().config;
    const bool pairs = trains_on_pairs(c.arch);
    draw_data_file(ctx, pairs);
    if (!pairs) {
        // What the file holds, then the window, on the same lines as the rest when they fit.
        const int picked = radio_row({ctx.t("text, read by the model's tokenizer"), ctx.t("token ids")},
                                     f.data_kind == DataFileKind::token_ids ? 1 : 0);
        if (picked >= 0) f.data_kind = picked == 1 ? DataFileKind::token_ids : DataFileKind::text;
        field_label(ctx.t("Window"), 6.5f * ctx.em, false);
        ImGui::InputInt("##seq_len", &f.seq_len, 8, 64);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", ctx.t("tokens in one training sequence: the file is cut into windows of this "
                                          "many + 1, in order, and the last partial one is dropped"));
        f.seq_len = std::clamp(f.seq_len, 1, std::max(1, c.max_len));
    }
    field_label(ctx.t("Learning rate"), 7.0f * ctx.em, pairs);
    ImGui::InputFloat("##learning_rate", &f.learning_rate, 0.0f, 0.0f, "%.1e");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("Adam at this constant rate, from the model's current weights"));
    f.learning_rate = std::clamp(f.learning_rate, 1e-7f, 0.5f);
    draw_run_fields(ctx, pairs ? ctx.t("pairs per step") : ctx.t("windows per step"));
}

const char* what_it_trains_on(const PanelContext& ctx, Arch arch) {
    if (trains_on_pairs(arch)) return ctx.t("it trains on pairs: source<TAB>target, one a line");
    if (arch == Arch::encoder_only) return ctx.t("it trains on masked tokens (15% of each window)");
    return ctx.t("it trains on the next token of each window");
}

}  // namespace attnlab::gui
