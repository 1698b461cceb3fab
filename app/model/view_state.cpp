// ViewState <-> JSON and the settings file.
#include "view_state.h"

#include "fields_json.h"
#include "forward/step_path.h"
#include "io/file_bytes.h"
#include "train/tasks.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>

namespace attnlab::gui {

// The playground's hand calculation: sizes first (clamped by resize_hand_spec), then every matrix that
// has those sizes, its values clamped to what may be typed.
template <>
struct JsonValue<HandSpec> {
    static constexpr bool custom = true;
    static nlohmann::json write(const HandSpec& s) {
        return {{"input", s.input == HandInput::qkv ? "qkv" : "projected"},
                {"scale", s.scale},
                {"n_tokens", s.n_tokens()},
                {"d_model", s.d_model()},
                {"d_k", s.d_k()},
                {"x", matrix_json(s.x)},
                {"w_q", matrix_json(s.w_q)},
                {"w_k", matrix_json(s.w_k)},
                {"w_v", matrix_json(s.w_v)},
                {"q", matrix_json(s.q)},
                {"k", matrix_json(s.k)},
                {"v", matrix_json(s.v)},
                {"mask", matrix_json(s.mask)}};
    }
    static bool read(const nlohmann::json& j, HandSpec& s) {
        if (!j.is_object()) return false;
        int n_tokens = s.n_tokens(), d_model = s.d_model(), d_k = s.d_k();
        JsonFieldReader in(j);
        in("n_tokens", n_tokens);
        in("d_model", d_model);
        in("d_k", d_k);
        resize_hand_spec(s, n_tokens, d_model, d_k);
        std::string input;
        in("input", input);
        if (input == "qkv" || input == "projected") s.input = input == "qkv" ? HandInput::qkv : HandInput::projected;
        in("scale", s.scale);
        for (auto [key, m] :
             {std::pair{"x", &s.x}, std::pair{"w_q", &s.w_q}, std::pair{"w_k", &s.w_k}, std::pair{"w_v", &s.w_v},
              std::pair{"q", &s.q}, std::pair{"k", &s.k}, std::pair{"v", &s.v}, std::pair{"mask", &s.mask}})
            read_matrix(j, key, *m);
        return true;
    }

private:
    static nlohmann::json matrix_json(const Mat& m) {
        nlohmann::json rows = nlohmann::json::array();
        for (Eigen::Index r = 0; r < m.rows(); ++r)
            rows.push_back(std::vector<float>(m.row(r).begin(), m.row(r).end()));
        return rows;
    }
    // j[key] into m when it is a list of m.rows() lists of m.cols() numbers.
    static void read_matrix(const nlohmann::json& j, const char* key, Mat& m) {
        std::vector<std::vector<float>> rows;
        JsonFieldReader in(j);
        in(key, rows);
        if (rows.size() != static_cast<size_t>(m.rows())) return;
        for (const auto& row : rows)
            if (row.size() != static_cast<size_t>(m.cols())) return;
        for (Eigen::Index r = 0; r < m.rows(); ++r)
            for (Eigen::Index c = 0; c < m.cols(); ++c)
                m(r, c) = std::clamp(rows[static_cast<size_t>(r)][static_cast<size_t>(c)], -kHandMaxAbs, kHandMaxAbs);
    }
};

// The compare tool's switched-off heads: {"use": "cross", "layer": 1, "head": 2} each. An entry that is
// not such an object (an old "path:head" string, an unknown use) is dropped, and so is a repeat.
template <>
struct JsonValue<std::vector<AttentionHead>> {
    static constexpr bool custom = true;
    static nlohmann::json write(const std::vector<AttentionHead>& heads) {
        nlohmann::json out = nlohmann::json::array();
        for (const AttentionHead& h : heads)
            out.push_back({{"use", enum_name(h.site.use)}, {"layer", h.site.layer}, {"head", h.head}});
        return out;
    }
    static bool read(const nlohmann::json& j, std::vector<AttentionHead>& out) {
        if (!j.is_array()) return false;
        out.clear();
        for (const nlohmann::json& item : j) {
            AttentionHead h{{AttentionUse::encoder_self, -1}, -1};
            if (!item.is_object() || !read_json_value(item.value("use", nlohmann::json()), h.site.use)) continue;
            JsonFieldReader in(item);
            in("layer", h.site.layer);
            in("head", h.head);
            if (h.site.layer < 0 || h.head < 0) continue;
            if (std::find(out.begin(), out.end(), h) == out.end()) out.push_back(h);
        }
        return true;
    }
};

namespace {

// Settings files before the split were one flat object, and numbered some choices. Each old key moves to
// where it lives now (unless the file has it there already), old numbers become names, and the
// playground's spec moves under "spec"; a file in today's form passes unchanged.
struct LegacyKey {
    const char* key;
    const char* section;  // the struct it belongs to now
    const char* name;     // its name there
};
constexpr LegacyKey kLegacyKeys[] = {
    {"korean", "settings", "korean"},
    {"dark_theme", "settings", "dark_theme"},
    {"font_scale", "settings", "font_scale"},
    {"recent_files", "settings", "recent_files"},
    {"family", "attention", "family"},
    {"layer", "attention", "layer"},
    {"head", "attention", "head"},
    {"line_view", "attention", "line_view"},
    {"detail_open", "attention", "detail_open"},
    {"stage", "attention", "stage"},
    {"pe_dims", "positional", "dims"},
    {"token", "residual", "token"},
    {"ffn_layer", "ffn", "layer"},
    {"ffn_decoder", "ffn", "decoder"},
    {"ffn_pre_activation", "ffn", "pre_activation"},
    {"top_k", "output", "top_k"},
    {"temperature", "output", "temperature"},
    {"sample", "output", "sample"},
    {"sample_seed", "output", "sample_seed"},
    {"top_p", "output", "top_p"},
    {"weight_name", "weights", "name"},
    {"analysis_tool", "analysis", "tool"},
    {"circuit", "analysis", "circuit"},
    {"compare", "analysis", "compare"},
    {"steps_per_second", "stepper", "steps_per_second"},
};

// The number `old` as the name of the n-th of `values`, when it is one; else unchanged (and then refused).
template <class E, size_t N>
void number_to_name(nlohmann::json& old, const E (&values)[N]) {
    if (!old.is_number_integer()) return;
    const int64_t i = old.get<int64_t>();
    if (i >= 0 && i < static_cast<int64_t>(N)) old = enum_name(values[i]);
}

// [a, b] at j[pair] into j[first] and j[second].
void split_pair(nlohmann::json& j, const char* pair, const char* first, const char* second) {
    auto it = j.find(pair);
    if (it == j.end()) return;
    if (it->is_array() && it->size() == 2) j.emplace(first, (*it)[0]), j.emplace(second, (*it)[1]);
    j.erase(it);
}

void migrate_flat_settings(nlohmann::json& j) {
    for (const LegacyKey& k : kLegacyKeys) {
        auto it = j.find(k.key);
        if (it == j.end()) continue;
        nlohmann::json& section = j[k.section];
        if (section.is_null()) section = nlohmann::json::object();
        if (section.is_object() && !section.contains(k.name)) section[k.name] = *it;
        j.erase(k.key);
    }
    if (auto it = j.find("cell"); it != j.end()) {
        nlohmann::json& attention = j["attention"];
        if (attention.is_null()) attention = nlohmann::json::object();
        if (attention.is_object() && !attention.contains("cell_row")) attention["cell"] = *it;
        j.erase("cell");
    }
    // Numbers of before, in the app's own orders then: families as AttentionUse; stages scores, scaled,
    // masked, weights, q, k, v, context; the analysis tools and playground presets as they are now.
    constexpr AttentionUse kOldFamilies[] = {AttentionUse::encoder_self, AttentionUse::decoder_self,
                                             AttentionUse::cross};
    constexpr AttentionStage kOldStages[] = {AttentionStage::scores,  AttentionStage::scaled, AttentionStage::masked,
                                             AttentionStage::weights, AttentionStage::q,      AttentionStage::k,
                                             AttentionStage::v,       AttentionStage::context};
    constexpr AnalysisTool kOldTools[] = {AnalysisTool::logit_lens, AnalysisTool::head_summary,
                                          AnalysisTool::embeddings, AnalysisTool::circuits, AnalysisTool::compare};
    constexpr PlaygroundPreset kOldPresets[] = {PlaygroundPreset::none, PlaygroundPreset::notes,
                                                PlaygroundPreset::look_ahead, PlaygroundPreset::random};
    if (auto a = j.find("attention"); a != j.end() && a->is_object()) {
        split_pair(*a, "cell", "cell_row", "cell_col");
        if (a->contains("family")) number_to_name((*a)["family"], kOldFamilies);
        if (a->contains("stage")) number_to_name((*a)["stage"], kOldStages);
    }
    if (auto a = j.find("analysis"); a != j.end() && a->is_object() && a->contains("tool"))
        number_to_name((*a)["tool"], kOldTools);
    if (auto p = j.find("playground"); p != j.end() && p->is_object()) {
        split_pair(*p, "focus", "focus_row", "focus_col");
        if (p->contains("preset")) number_to_name((*p)["preset"], kOldPresets);
        nlohmann::json spec = nlohmann::json::object();
        for (const char* key :
             {"input", "scale", "n_tokens", "d_model", "d_k", "x", "w_q", "w_k", "w_v", "q", "k", "v", "mask"})
            if (auto it = p->find(key); it != p->end()) spec[key] = *it, p->erase(it);
        if (!spec.empty() && !p->contains("spec")) (*p)["spec"] = spec;
    }
}

}  // namespace

std::vector<std::string> train_task_names() {
    std::vector<std::string> names = task_names();
    names.push_back("induction");
    return names;
}

bool is_train_task(const std::string& task) {
    const auto tasks = train_task_names();
    return std::find(tasks.begin(), tasks.end(), task) != tasks.end();
}

const char* view_id(View v) { return enum_name(v); }

bool view_from_id(const std::string& id, View& out) { return enum_from_name(id, out); }

std::string ViewState::to_json() const { return json_of_fields(*this).dump(2); }

ViewState ViewState::from_json(const std::string& text) {
    ViewState s;
    auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object()) return s;
    migrate_flat_settings(j);
    read_fields(j, s);
    return s;
}

std::string settings_path() {
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
        return std::string(xdg) + "/attnlab/settings.json";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.config/attnlab/settings.json";
    return "attnlab-settings.json";
}

ViewState load_view_state() {
    auto bytes = io::read_file_bytes(settings_path());
    if (!bytes) return {};
    return ViewState::from_json(std::string(bytes->begin(), bytes->end()));
}

Status save_view_state(const ViewState& state) {
    const std::string path = settings_path();
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    const std::string text = state.to_json();
    return io::write_file_atomic(path, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

void remember_recent_file(ViewState& state, const std::string& path) {
    auto& r = state.settings.recent_files;
    r.erase(std::remove(r.begin(), r.end(), path), r.end());
    r.insert(r.begin(), path);
    if (r.size() > 8) r.resize(8);
}

}  // namespace attnlab::gui
