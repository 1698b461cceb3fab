// ViewState <-> JSON and the settings file.
#include "view_state.h"

#include "forward/step_path.h"
#include "io/file_bytes.h"
#include "train/tasks.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>

namespace attnlab::gui {

namespace {

const char* kViewIds[] = {"input",  "model",   "positional", "attention", "masks",      "residual", "ffn",
                          "output", "stepper", "weights",    "training",  "playground", "analysis"};

template <class T>
void read(const nlohmann::json& j, const char* key, T& out) {
    auto it = j.find(key);
    if (it == j.end()) return;
    try {
        out = it->get<T>();
    } catch (const nlohmann::json::exception&) {  // wrong type: keep the default
    }
}

nlohmann::json matrix_json(const Mat& m) {
    nlohmann::json rows = nlohmann::json::array();
    for (Eigen::Index r = 0; r < m.rows(); ++r) rows.push_back(std::vector<float>(m.row(r).begin(), m.row(r).end()));
    return rows;
}

// j[key] into m when it is a list of m.rows() lists of m.cols() numbers; values clamped to what may be typed.
void read_matrix(const nlohmann::json& j, const char* key, Mat& m) {
    std::vector<std::vector<float>> rows;
    read(j, key, rows);
    if (rows.size() != static_cast<size_t>(m.rows())) return;
    for (const auto& row : rows)
        if (row.size() != static_cast<size_t>(m.cols())) return;
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        for (Eigen::Index c = 0; c < m.cols(); ++c) {
            const float v = rows[static_cast<size_t>(r)][static_cast<size_t>(c)];
            m(r, c) = std::isfinite(v) ? std::clamp(v, -kHandMaxAbs, kHandMaxAbs) : 0.0f;
        }
}

nlohmann::json playground_json(const PlaygroundState& p) {
    const HandSpec& s = p.spec;
    return {{"experiment", p.experiment},
            {"show_inputs", p.show_inputs},
            {"input", s.input == HandInput::qkv ? "qkv" : "projected"},
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
            {"mask", matrix_json(s.mask)},
            {"preset", static_cast<int>(p.preset)},
            {"focus", {p.focus_row, p.focus_col}},
            {"random_seed", p.random_seed},
            {"experiment_keys", p.experiment_keys},
            {"experiment_seed", p.experiment_seed}};
}

// A saved playground over the default one: sizes first (clamped), then every matrix that has those sizes.
PlaygroundState playground_from_json(const nlohmann::json& j) {
    PlaygroundState p;
    HandSpec& s = p.spec;
    read(j, "experiment", p.experiment);
    read(j, "show_inputs", p.show_inputs);
    int n_tokens = s.n_tokens(), d_model = s.d_model(), d_k = s.d_k();
    read(j, "n_tokens", n_tokens);
    read(j, "d_model", d_model);
    read(j, "d_k", d_k);
    resize_hand_spec(s, n_tokens, d_model, d_k);
    std::string input;
    read(j, "input", input);
    if (input == "qkv" || input == "projected") s.input = input == "qkv" ? HandInput::qkv : HandInput::projected;
    read(j, "scale", s.scale);
    for (auto [key, m] :
         {std::pair{"x", &s.x}, std::pair{"w_q", &s.w_q}, std::pair{"w_k", &s.w_k}, std::pair{"w_v", &s.w_v},
          std::pair{"q", &s.q}, std::pair{"k", &s.k}, std::pair{"v", &s.v}, std::pair{"mask", &s.mask}})
        read_matrix(j, key, *m);
    int preset = static_cast<int>(p.preset);
    read(j, "preset", preset);
    p.preset = static_cast<PlaygroundPreset>(std::clamp(preset, 0, 3));
    std::vector<int> focus;
    read(j, "focus", focus);
    if (focus.size() == 2) p.focus_row = focus[0], p.focus_col = focus[1];
    read(j, "random_seed", p.random_seed);
    read(j, "experiment_keys", p.experiment_keys);
    p.experiment_keys = std::clamp(p.experiment_keys, 2, 64);
    read(j, "experiment_seed", p.experiment_seed);
    return p;
}

// The compare tool's switched-off heads: {"use": "cross", "layer": 1, "head": 2} each. An entry
// that is not such an object (an old "path:head" string, an unknown use) is dropped.
nlohmann::json heads_json(const std::vector<AttentionHead>& heads) {
    nlohmann::json out = nlohmann::json::array();
    for (const AttentionHead& h : heads)
        out.push_back({{"use", to_string(h.site.use)}, {"layer", h.site.layer}, {"head", h.head}});
    return out;
}

std::vector<AttentionHead> read_heads(const nlohmann::json& j) {
    std::vector<AttentionHead> out;
    if (!j.is_array()) return out;
    for (const nlohmann::json& item : j) {
        if (!item.is_object()) continue;
        std::string use_id;
        AttentionHead h{{AttentionUse::encoder_self, -1}, -1};
        read(item, "use", use_id);
        read(item, "layer", h.site.layer);
        read(item, "head", h.head);
        if (!attention_use_from_id(use_id, h.site.use) || h.site.layer < 0 || h.head < 0) continue;
        if (std::find(out.begin(), out.end(), h) == out.end()) out.push_back(h);
    }
    return out;
}

// The attention view's family and stage, saved by name. Files from before saved them as numbers in
// the app's own order (families as AttentionUse; stages scores, scaled, masked, weights, q, k, v,
// context), read here; anything else keeps the default.
void read_attention_choice(const nlohmann::json& j, ViewState& s) {
    constexpr AttentionStage kOldStages[] = {AttentionStage::scores,  AttentionStage::scaled, AttentionStage::masked,
                                             AttentionStage::weights, AttentionStage::q,      AttentionStage::k,
                                             AttentionStage::v,       AttentionStage::context};
    constexpr AttentionUse kOldFamilies[] = {AttentionUse::encoder_self, AttentionUse::decoder_self,
                                             AttentionUse::cross};
    if (auto f = j.find("family"); f != j.end()) {
        if (f->is_string())
            attention_use_from_id(f->get<std::string>(), s.family);
        else if (f->is_number_integer() && f->get<int64_t>() >= 0 && f->get<int64_t>() < 3)
            s.family = kOldFamilies[f->get<int64_t>()];
    }
    if (auto t = j.find("stage"); t != j.end()) {
        if (t->is_string())
            attention_stage_from_id(t->get<std::string>(), s.stage);
        else if (t->is_number_integer() && t->get<int64_t>() >= 0 && t->get<int64_t>() < 8)
            s.stage = kOldStages[t->get<int64_t>()];
    }
}

}  // namespace

bool attention_use_from_id(const std::string& id, AttentionUse& out) {
    for (AttentionUse use : {AttentionUse::encoder_self, AttentionUse::decoder_self, AttentionUse::cross})
        if (id == to_string(use)) {
            out = use;
            return true;
        }
    return false;
}

bool attention_stage_from_id(const std::string& id, AttentionStage& out) {
    for (int i = 0; i <= static_cast<int>(AttentionStage::out); ++i)
        if (const auto stage = static_cast<AttentionStage>(i); id == to_string(stage)) {
            out = stage;
            return true;
        }
    return false;
}

const char* view_id(View v) { return kViewIds[static_cast<int>(v)]; }

bool view_from_id(const std::string& id, View& out) {
    for (View v : kAllViews)
        if (id == view_id(v)) {
            out = v;
            return true;
        }
    return false;
}

std::string ViewState::to_json() const {
    nlohmann::json j = {{"korean", korean},
                        {"dark_theme", dark_theme},
                        {"font_scale", font_scale},
                        {"recent_files", recent_files},
                        {"tab", view_id(tab)},
                        {"family", to_string(family)},
                        {"layer", layer},
                        {"head", head},
                        {"line_view", line_view},
                        {"detail_open", detail_open},
                        {"cell", {cell_row, cell_col}},
                        {"stage", to_string(stage)},
                        {"token", token},
                        {"pe_dims", {pe_dims[0], pe_dims[1]}},
                        {"ffn_layer", ffn_layer},
                        {"weight_name", weight_name},
                        {"ffn_decoder", ffn_decoder},
                        {"ffn_pre_activation", ffn_pre_activation},
                        {"top_k", top_k},
                        {"analysis_tool", analysis_tool},
                        {"circuit",
                         {{"ov", circuit.ov},
                          {"encoder", circuit.encoder},
                          {"layer", circuit.layer},
                          {"head", circuit.head},
                          {"tokens", circuit.tokens}}},
                        {"compare",
                         {{"other_model", compare.other_model},
                          {"other_path", compare.other_path},
                          {"ablated", heads_json(compare.ablated)},
                          {"step", compare.step}}},
                        {"temperature", temperature},
                        {"sample", sample},
                        {"sample_seed", sample_seed},
                        {"top_p", top_p},
                        {"steps_per_second", steps_per_second},
                        {"train",
                         {{"task", train.task},
                          {"preset", train.preset},
                          {"steps", train.steps},
                          {"seed", train.seed},
                          {"batch_size", train.batch_size},
                          {"threads", train.threads},
                          {"eval_every", train.eval_every},
                          {"log_loss", train.log_loss}}},
                        {"playground", playground_json(playground)}};
    return j.dump(2);
}

ViewState ViewState::from_json(const std::string& text) {
    ViewState s;
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object()) return s;
    read(j, "korean", s.korean);
    read(j, "dark_theme", s.dark_theme);
    read(j, "font_scale", s.font_scale);
    s.font_scale = std::clamp(s.font_scale, 0.5f, 3.0f);
    read(j, "recent_files", s.recent_files);
    std::string tab;
    read(j, "tab", tab);
    view_from_id(tab, s.tab);
    read_attention_choice(j, s);
    read(j, "layer", s.layer);
    read(j, "head", s.head);
    read(j, "line_view", s.line_view);
    read(j, "detail_open", s.detail_open);
    std::vector<int> cell;
    read(j, "cell", cell);
    if (cell.size() == 2) s.cell_row = cell[0], s.cell_col = cell[1];
    read(j, "token", s.token);
    std::vector<int> dims;
    read(j, "pe_dims", dims);
    if (dims.size() == 2) s.pe_dims[0] = dims[0], s.pe_dims[1] = dims[1];
    read(j, "ffn_layer", s.ffn_layer);
    read(j, "weight_name", s.weight_name);
    read(j, "ffn_decoder", s.ffn_decoder);
    read(j, "ffn_pre_activation", s.ffn_pre_activation);
    read(j, "top_k", s.top_k);
    read(j, "analysis_tool", s.analysis_tool);
    if (auto c = j.find("circuit"); c != j.end() && c->is_object()) {
        read(*c, "ov", s.circuit.ov);
        read(*c, "encoder", s.circuit.encoder);
        read(*c, "layer", s.circuit.layer);
        read(*c, "head", s.circuit.head);
        read(*c, "tokens", s.circuit.tokens);
    }
    if (auto c = j.find("compare"); c != j.end() && c->is_object()) {
        read(*c, "other_model", s.compare.other_model);
        read(*c, "other_path", s.compare.other_path);
        if (auto a = c->find("ablated"); a != c->end()) s.compare.ablated = read_heads(*a);
        read(*c, "step", s.compare.step);
    }
    read(j, "temperature", s.temperature);
    read(j, "sample", s.sample);
    read(j, "sample_seed", s.sample_seed);
    read(j, "top_p", s.top_p);
    read(j, "steps_per_second", s.steps_per_second);
    if (auto t = j.find("train"); t != j.end() && t->is_object()) {
        read(*t, "task", s.train.task);
        read(*t, "preset", s.train.preset);
        read(*t, "steps", s.train.steps);
        read(*t, "seed", s.train.seed);
        read(*t, "batch_size", s.train.batch_size);
        read(*t, "threads", s.train.threads);
        read(*t, "eval_every", s.train.eval_every);
        read(*t, "log_loss", s.train.log_loss);
        const auto tasks = task_names();
        if (std::find(tasks.begin(), tasks.end(), s.train.task) == tasks.end()) s.train.task = TrainForm{}.task;
        if (s.train.preset != "tiny" && s.train.preset != "base") s.train.preset = TrainForm{}.preset;
    }
    if (auto p = j.find("playground"); p != j.end() && p->is_object()) s.playground = playground_from_json(*p);
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
    auto& r = state.recent_files;
    r.erase(std::remove(r.begin(), r.end(), path), r.end());
    r.insert(r.begin(), path);
    if (r.size() > 8) r.resize(8);
}

}  // namespace attnlab::gui
