// Token chips ("token·id") that flow over lines, and the vocabulary picker each one opens.
#include "panels/input_tokens.h"

#include "fonts.h"

#include "panels/input_fields.h"

#include <algorithm>
#include <cctype>

namespace attnlab::gui {

namespace {

enum class ChipStyle { word, special, unknown };

struct Pick {
    bool remove = false;
    int id = -1;  // the chosen vocabulary id, or -1
};

// Unknown words are orange: light on the dark theme, deeper on the light one.
ImVec4 unknown_color(const PanelContext& ctx, float alpha = 1.0f) {
    return ctx.view.settings.dark_theme ? ImVec4(1.0f, 0.62f, 0.2f, alpha) : ImVec4(0.85f, 0.4f, 0.0f, alpha);
}

// A token as it should read on screen: the space token would be invisible.
std::string visible(const std::string& token) { return token == " " ? "' '" : token; }

bool is_special(const ModelConfig& c, int id) {
    return id == c.pad_id || id == c.sos_id || id == c.eos_id || id == c.unk_id;
}

// Puts the next item of `width` pixels on the current line if it fits, else on a new one.
void flow(bool first, float width) {
    if (first) return;
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= right) ImGui::SameLine();
}

// A chip's size: the token and "·id" side by side, 0.3 em in from its sides and 0.2 em from its top and bottom.
ImVec2 chip_size(const PanelContext& ctx, const std::string& token, const std::string& id_text) {
    return ImVec2(ImGui::CalcTextSize(token.c_str()).x + ImGui::CalcTextSize(id_text.c_str()).x + 0.6f * ctx.em,
                  ImGui::GetTextLineHeight() + 0.4f * ctx.em);
}

// A small framed chip: the token bright, "·id" dim; with a saliency `heat` in [0, 1], a bar along its bottom edge
// that long. Returns true when clicked.
bool chip(const PanelContext& ctx, bool first, const std::string& token, const std::string& id_text, ChipStyle style,
          float heat = -1.0f) {
    const float pad = 0.3f * ctx.em;
    const float token_w = ImGui::CalcTextSize(token.c_str()).x;
    const ImVec2 size = chip_size(ctx, token, id_text);
    flow(first, size.x);
    const bool clicked = ImGui::InvisibleButton("##chip", size);
    const bool hovered = ImGui::IsItemHovered();
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 fill = ImGui::GetColorU32(hovered ? ImGuiCol_ButtonHovered : ImGuiCol_FrameBg);
    const float rounding = ImGui::GetStyle().FrameRounding;  // square like the buttons beside the chips
    draw->AddRectFilled(a, b, fill, rounding);
    if (style == ChipStyle::unknown) {
        draw->AddRectFilled(a, b, ImGui::GetColorU32(unknown_color(ctx, 0.25f)), rounding);
        draw->AddRect(a, b, ImGui::GetColorU32(unknown_color(ctx)), rounding, 0, 1.5f);
    } else {
        draw->AddRect(a, b, ImGui::GetColorU32(ImGuiCol_Border), rounding);
    }
    const ImU32 text = style == ChipStyle::unknown   ? ImGui::GetColorU32(unknown_color(ctx))
                       : style == ChipStyle::special ? ImGui::GetColorU32(ImGuiCol_TextDisabled)
                                                     : ImGui::GetColorU32(ImGuiCol_Text);
    const float y = a.y + 0.2f * ctx.em;
    draw->AddText(ImVec2(a.x + pad, y), text, token.c_str());
    draw->AddText(ImVec2(a.x + pad + token_w, y), ImGui::GetColorU32(ImGuiCol_TextDisabled), id_text.c_str());
    if (heat >= 0.0f) {
        const float h = 0.22f * ctx.em;
        draw->AddRectFilled(ImVec2(a.x + 1.0f, b.y - h), ImVec2(a.x + 1.0f + heat * (b.x - a.x - 2.0f), b.y - 1.0f),
                            IM_COL32(255, 140, 40, 255));
    }
    return clicked;
}

bool matches(const std::string& token, int id, const std::string& query) {
    if (query.empty()) return true;
    if (std::all_of(query.begin(), query.end(), [](unsigned char c) { return std::isdigit(c); }))
        if (std::to_string(id) == query) return true;
    auto lower = [](std::string s) {
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    return lower(token).find(lower(query)) != std::string::npos;
}

// The bottom-left corner of the last item, where its popup opens.
ImVec2 below_item() { return ImVec2(ImGui::GetItemRectMin().x, ImGui::GetItemRectMax().y); }


// The body of a chip's popup: a search box over the vocabulary and a scrollable list (V rows).
Pick vocab_picker(const PanelContext& ctx, const Vocab& vocab, int current, bool can_remove) {
    Pick pick;
    if (can_remove) {
        ImGui::TextDisabled("%s  %s·%d", ctx.t("Replace"), visible(vocab.token(current)).c_str(), current);
        ImGui::SameLine();
        if (ImGui::SmallButton(ctx.t("Remove token"))) pick.remove = true;
    }
    const bool appearing = ImGui::IsWindowAppearing();
    std::string query;
    const bool enter = vocab_search_field(ctx.t("Search the vocabulary"), 18.0f * ctx.em, query);

    std::vector<int> shown;  // ids that match the query, in id order
    for (int id = 0; id < vocab.size(); ++id)
        if (matches(vocab.token(id), id, query)) shown.push_back(id);
    if (enter && !shown.empty()) pick.id = shown.front();

    const float row_h = ImGui::GetTextLineHeightWithSpacing();
    ImGui::BeginChild("##vocab", ImVec2(18.0f * ctx.em, vocab_list_height(shown.size(), row_h, ctx.em)), true);
    if (appearing) {
        const auto at = std::find(shown.begin(), shown.end(), current);
        if (at != shown.end()) ImGui::SetScrollY(row_h * static_cast<float>(at - shown.begin()) - 3.0f * row_h);
    }
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(shown.size()));
    while (clipper.Step())
        for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
            const int id = shown[static_cast<size_t>(r)];
            ImGui::PushID(id);
            if (ImGui::Selectable(visible(vocab.token(id)).c_str(), id == current)) pick.id = id;
            ImGui::SameLine(14.0f * ctx.em);
            ImGui::TextDisabled("%d", id);
            ImGui::PopID();
        }
    if (shown.empty()) ImGui::TextDisabled("%s", ctx.t("No match"));
    ImGui::EndChild();
    if (pick.remove || pick.id >= 0) ImGui::CloseCurrentPopup();
    return pick;
}

void chip_tooltip(const PanelContext& ctx, const TokenRow& row, size_t i) {
    if (!ImGui::IsItemHovered()) return;
    ImGui::BeginTooltip();
    const int id = row.ids[i];
    if (row.view.unknown[i] && row.pieces) {
        ImGui::TextColored(unknown_color(ctx), "\"%s\"", (*row.pieces)[i].c_str());
        if (const std::string hidden = hidden_code_points((*row.pieces)[i]); !hidden.empty())
            ImGui::TextDisabled("(%s)", hidden.c_str());  // what the fonts cannot show, e.g. an emoji's U+1F34E
        ImGui::TextUnformatted(ctx.t("is not in the vocabulary, so it became <unk>."));
    } else if (row.view.unknown[i]) {
        ImGui::TextColored(unknown_color(ctx), "%s", ctx.t("unknown word"));
    }
    ImGui::Text("%s %d: %s", ctx.t("position"), static_cast<int>(i), visible(row.view.labels[i]).c_str());
    ImGui::Text("%s %d", ctx.t("vocabulary id"), id);
    if (row.saliency) {
        ImGui::Text("||∂L/∂x|| = %.4g", static_cast<double>(row.saliency->gradient_norm[i]));
        ImGui::Text("%s: ∂L/∂x · x = %.4g", ctx.t("gradient × input"),
                    static_cast<double>(row.saliency->gradient_times_input[i]));
        text_disabled_wrapped(ctx.t("The bar under the token: how strongly the loss depends on its embedding."));
    }
    ImGui::TextDisabled("%s", ctx.t("Click to replace or remove it."));
    ImGui::EndTooltip();
}

// The height token_chips takes in `width` pixels for the tokens `ids` shown as `labels` (one per id), spacing after.
float token_chips_height(const PanelContext& ctx, const std::vector<int>& ids, const std::vector<std::string>& labels,
                         float width) {
    std::vector<ImVec2> items;
    for (size_t i = 0; i < ids.size() && i < labels.size(); ++i)
        items.push_back(chip_size(ctx, visible(labels[i]), "·" + std::to_string(ids[i])));
    items.push_back(chip_size(ctx, " + ", ""));
    items.push_back(ImVec2(button_width_for(ctx.t("Add padding")), ImGui::GetFrameHeight()));
    return flowed_height(items, width);
}

}  // namespace

float flowed_height(const std::vector<ImVec2>& items, float width) {
    const ImVec2 spacing = ImGui::GetStyle().ItemSpacing;
    float height = 0.0f, line_w = 0.0f, line_h = 0.0f;
    for (const ImVec2& item : items) {
        if (line_w > 0.0f && line_w + spacing.x + item.x > width) {  // as flow(): on the next line
            height += line_h + spacing.y;
            line_w = line_h = 0.0f;
        }
        line_w += (line_w > 0.0f ? spacing.x : 0.0f) + item.x;
        line_h = std::max(line_h, item.y);
    }
    return items.empty() ? 0.0f : height + line_h + spacing.y;
}

float source_token_strip_height(const PanelContext& ctx, float width) {
    if (!ctx.config().has_encoder()) return 0.0f;
    const float label = ImGui::GetTextLineHeightWithSpacing();  // "Source  S = 5"
    if (!ctx.session.model().src_vocab) return label;
    return label + token_chips_height(ctx, ctx.stepper().inputs().src_ids, ctx.session.source().labels, width);
}

bool begin_chip_popup(ImVec2 at) {
    ImGui::SetNextWindowPos(at, ImGuiCond_Appearing);
    ImVec4 background = ImGui::GetStyleColorVec4(ImGuiCol_PopupBg);
    background.w = 1.0f;  // the style's popups are slightly see-through: the card's text showed in the list
    ImGui::PushStyleColor(ImGuiCol_PopupBg, background);
    const bool open = ImGui::BeginPopup("pick");
    ImGui::PopStyleColor();
    return open;
}

bool vocab_search_field(const char* hint, float width, std::string& query) {
    // Each opening's field has an id of its own: Dear ImGui's edit buffer keeps the last query under the old one.
    const ImGuiID openings = ImGui::GetID("##openings");
    ImGuiStorage& storage = *ImGui::GetStateStorage();
    if (ImGui::IsWindowAppearing()) {
        storage.SetInt(openings, storage.GetInt(openings) + 1);
        ImGui::SetKeyboardFocusHere();
    }
    ImGui::PushID(storage.GetInt(openings));
    ImGui::SetNextItemWidth(width);
    const bool enter = remembered_text_field("##search", hint, "", query);
    ImGui::PopID();
    return enter;
}

float vocab_list_height(size_t n_shown, float row_h, float em) {
    return std::min(14.0f * em, row_h * (static_cast<float>(std::max<size_t>(n_shown, 1)) + 0.5f));
}

std::optional<std::vector<int>> token_chips(PanelContext& ctx, const TokenRow& row) {
    const ModelConfig& config = ctx.config();
    std::optional<std::vector<int>> edited;
    float largest = 0.0f;  // the bars' scale: the row's largest gradient norm
    if (row.saliency)
        for (float v : row.saliency->gradient_norm) largest = std::max(largest, v);
    for (size_t i = 0; i < row.ids.size(); ++i) {
        ImGui::PushID(static_cast<int>(i));
        const int id = row.ids[i];
        const ChipStyle style = row.view.unknown[i]      ? ChipStyle::unknown
                                : is_special(config, id) ? ChipStyle::special
                                                         : ChipStyle::word;
        const float heat = row.saliency && largest > 0.0f ? row.saliency->gradient_norm[i] / largest : -1.0f;
        if (chip(ctx, i == 0, visible(row.view.labels[i]), "·" + std::to_string(id), style, heat))
            ImGui::OpenPopup("pick");
        const ImVec2 at = below_item();
        chip_tooltip(ctx, row, i);
        if (begin_chip_popup(at)) {
            const Pick pick = vocab_picker(ctx, row.vocab, id, true);
            if (pick.remove || pick.id >= 0) {
                edited = row.ids;
                if (pick.remove)
                    edited->erase(edited->begin() + static_cast<std::ptrdiff_t>(i));
                else
                    (*edited)[i] = pick.id;
            }
            ImGui::EndPopup();
        }
        ImGui::PopID();
    }
    ImGui::PushID("append");
    if (chip(ctx, row.ids.empty(), " + ", "", ChipStyle::word)) ImGui::OpenPopup("pick");
    const ImVec2 at = below_item();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.t("Append a token"));
    if (begin_chip_popup(at)) {
        const Pick pick = vocab_picker(ctx, row.vocab, -1, false);
        if (pick.id >= 0) {
            edited = row.ids;
            edited->push_back(pick.id);
        }
        ImGui::EndPopup();
    }
    ImGui::PopID();
    const char* pad_label = ctx.t("Add padding");
    flow(false, ImGui::CalcTextSize(pad_label).x + 2.0f * ImGui::GetStyle().FramePadding.x);
    if (ImGui::Button(pad_label)) {
        edited = row.ids;
        edited->push_back(config.pad_id);
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", ctx.t("Append <pad>: the padding mask hides it from attention."));
    return edited;
}

}  // namespace attnlab::gui
