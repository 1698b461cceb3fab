// Reads and checks tour.json: {"chapters": [{id, section, setup fields, "task", "en": texts, "ko": texts}]}.
#include "teach/tour.h"

#include "analysis/activation_patching.h"
#include "analysis/attribution_metric.h"
#include "forward/mechanisms/feed_forward.h"
#include "forward/mechanisms/norm.h"
#include "forward/mechanisms/positions.h"
#include "io/file_bytes.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace attnlab {

namespace {

using json = nlohmann::json;

constexpr std::pair<const char*, TourTaskKind> kTasks[] = {
    {"step_past", TourTaskKind::step_past},
    {"edit_source", TourTaskKind::edit_source},
    {"toggle_mask_cell", TourTaskKind::toggle_mask_cell},
    {"ablate_head", TourTaskKind::ablate_head},
    {"change_temperature", TourTaskKind::change_temperature},
    {"change_pe_dims", TourTaskKind::change_pe_dims},
    {"change_experiment_keys", TourTaskKind::change_experiment_keys},
    {"change_rope_rows", TourTaskKind::change_rope_rows},
    {"switch_norm_placement", TourTaskKind::switch_norm_placement},
    {"scrub_checkpoint", TourTaskKind::scrub_checkpoint},
    {"ablate_strongest_head", TourTaskKind::ablate_strongest_head},
};

constexpr std::pair<const char*, TourNeed> kNeeds[] = {
    {"decoder_only", TourNeed::decoder_only}, {"pre_norm", TourNeed::pre_norm},
    {"rms_norm", TourNeed::rms_norm},         {"rotary", TourNeed::rotary},
    {"gated_ffn", TourNeed::gated_ffn},       {"grouped_query", TourNeed::grouped_query},
    {"translator", TourNeed::translator},
};

constexpr std::pair<const char*, TourWatch> kWatches[] = {
    {"rope_pairs", TourWatch::rope_pairs},
    {"rope_score", TourWatch::rope_score},
    {"padding_masks", TourWatch::padding_masks},
    {"ffn_rows", TourWatch::ffn_rows},
};

constexpr const char* kChapterFields[] = {"id",          "section",     "model",     "src",    "tgt",
                                          "src_padding", "tgt_padding", "view",      "step",   "family",
                                          "stage",       "layer",       "head",      "detail", "playground_experiment",
                                          "slides",      "task",        "task_step", "en",     "ko",
                                          "needs",       "part",        "watch",     "metric", "corrupt", "piece",
                                          "positional_compare"};

// A key as a message shows it: JSON-quoted, so a hostile key stays one line.
std::string json_quoted(const std::string& key) {
    return json(key).dump(-1, ' ', false, json::error_handler_t::replace);
}

bool known(const std::string& key) {
    return std::any_of(std::begin(kChapterFields), std::end(kChapterFields), [&](const char* f) { return key == f; });
}

Status read_string(const json& c, const char* field, bool required, std::string& out, const std::string& where) {
    if (!c.contains(field)) return required ? Status(Error{where + ": missing \"" + field + "\""}) : ok_status();
    if (!c[field].is_string()) return Error{where + "." + field + " must be a string"};
    out = c[field].get<std::string>();
    if (required && out.empty()) return Error{where + "." + field + " must not be empty"};
    return ok_status();
}

Status read_int(const json& c, const char* field, int& out, const std::string& where) {
    if (!c.contains(field)) return ok_status();
    if (!c[field].is_number_integer() || c[field].get<int64_t>() < 0 || c[field].get<int64_t>() > 1000)
        return Error{where + "." + field + " must be an integer from 0 to 1000"};
    out = c[field].get<int>();
    return ok_status();
}

Status read_bool(const json& c, const char* field, bool& out, const std::string& where) {
    if (!c.contains(field)) return ok_status();
    if (!c[field].is_boolean()) return Error{where + "." + field + " must be true or false"};
    out = c[field].get<bool>();
    return ok_status();
}

Status read_text(const json& c, const char* language, TourText& out, const std::string& where) {
    const std::string at = where + "." + language;
    if (!c.contains(language) || !c[language].is_object()) return Error{at + " must be an object"};
    const json& t = c[language];
    for (const auto& item : t.items())
        if (item.key() != "title" && item.key() != "look" && item.key() != "task" && item.key() != "done")
            return Error{at + ": unknown field " + json_quoted(item.key())};
    for (auto [field, target] : {std::pair{"title", &out.title}, std::pair{"look", &out.look},
                                 std::pair{"task", &out.task}, std::pair{"done", &out.done}})
        if (auto st = read_string(t, field, true, *target, at); !st) return st;
    return ok_status();
}

Result<TourChapter> read_chapter(const json& c, const std::string& where) {
    if (!c.is_object()) return Error{where + " must be an object"};
    for (const auto& item : c.items())
        if (!known(item.key())) return Error{where + ": unknown field " + json_quoted(item.key())};
    TourChapter ch;
    for (auto [field, target, required] :
         {std::tuple{"id", &ch.id, true}, std::tuple{"section", &ch.section, true},
          std::tuple{"model", &ch.model, true}, std::tuple{"src", &ch.src, false}, std::tuple{"tgt", &ch.tgt, false},
          std::tuple{"view", &ch.view, true}, std::tuple{"step", &ch.step, false},
          std::tuple{"family", &ch.family, false}, std::tuple{"stage", &ch.stage, false},
          std::tuple{"task_step", &ch.task_step, false}, std::tuple{"metric", &ch.metric, false},
          std::tuple{"corrupt", &ch.corrupt, false}, std::tuple{"piece", &ch.piece, false}})
        if (auto st = read_string(c, field, required, *target, where); !st) return st.error();
    if (auto st = read_int(c, "layer", ch.layer, where); !st) return st.error();
    if (auto st = read_int(c, "head", ch.head, where); !st) return st.error();
    if (auto st = read_int(c, "src_padding", ch.src_padding, where); !st) return st.error();
    if (auto st = read_int(c, "tgt_padding", ch.tgt_padding, where); !st) return st.error();
    if (auto st = read_bool(c, "detail", ch.detail, where); !st) return st.error();
    if (auto st = read_bool(c, "playground_experiment", ch.playground_experiment, where); !st) return st.error();
    if (auto st = read_bool(c, "positional_compare", ch.positional_compare, where); !st) return st.error();
    if (c.contains("slides")) {
        if (!c["slides"].is_array()) return Error{where + ".slides must be an array of view names"};
        for (const json& s : c["slides"]) {
            if (!s.is_string()) return Error{where + ".slides must be an array of view names"};
            ch.slides.push_back(s.get<std::string>());
        }
    }
    std::string task;
    if (auto st = read_string(c, "task", true, task, where); !st) return st.error();
    const auto* kind =
        std::find_if(std::begin(kTasks), std::end(kTasks), [&](const auto& t) { return task == t.first; });
    if (kind == std::end(kTasks)) return Error{where + ": unknown task " + json_quoted(task)};
    ch.task = kind->second;
    if (ch.task == TourTaskKind::step_past && ch.task_step.empty())
        return Error{where + ": the task step_past needs \"task_step\""};
    if (!ch.metric.empty())
        if (auto metric = AttributionMetric::parse(ch.metric); !metric)
            return Error{where + ".metric: " + metric.error().message};
    if (!ch.piece.empty())
        if (auto piece = parse_patch_piece(ch.piece); !piece) return Error{where + ".piece: " + piece.error().message};
    if (ch.task == TourTaskKind::ablate_strongest_head && ch.metric.empty())
        return Error{where + ": the task ablate_strongest_head needs \"metric\""};
    if (auto st = read_text(c, "en", ch.text[0], where); !st) return st.error();
    if (auto st = read_text(c, "ko", ch.text[1], where); !st) return st.error();
    if (c.contains("needs")) {
        const std::string bad = where +
                                ".needs must be an array of: decoder_only, pre_norm, rms_norm, rotary, "
                                "gated_ffn, grouped_query, translator";
        if (!c["needs"].is_array()) return Error{bad};
        for (const json& n : c["needs"]) {
            const auto* need = std::find_if(std::begin(kNeeds), std::end(kNeeds), [&](const auto& k) {
                return n.is_string() && n.get<std::string>() == k.first;
            });
            if (need == std::end(kNeeds)) return Error{bad};
            ch.needs.push_back(need->second);
        }
    }
    if (c.contains("watch")) {
        const std::string bad = where + ".watch must be an array of: rope_pairs, rope_score, padding_masks, ffn_rows";
        if (!c["watch"].is_array()) return Error{bad};
        for (const json& w : c["watch"]) {
            const auto* watch = std::find_if(std::begin(kWatches), std::end(kWatches), [&](const auto& k) {
                return w.is_string() && w.get<std::string>() == k.first;
            });
            if (watch == std::end(kWatches)) return Error{bad};
            ch.watch.push_back(watch->second);
        }
    }
    if (auto st = read_string(c, "part", false, ch.part, where); !st) return st.error();
    return ch;
}

// "parts": [{"id", "en", "ko"}]: each part's title in both languages, by id.
Result<std::map<std::string, std::pair<std::string, std::string>>> read_parts(const json& j) {
    std::map<std::string, std::pair<std::string, std::string>> parts;
    if (!j.contains("parts")) return parts;
    const std::string bad = "\"parts\" must be an array of {\"id\", \"en\", \"ko\"}, each a non-empty string";
    if (!j["parts"].is_array()) return Error{bad};
    for (const json& p : j["parts"]) {
        if (!p.is_object() || p.size() != 3) return Error{bad};
        for (const char* field : {"id", "en", "ko"})
            if (!p.contains(field) || !p[field].is_string() || p[field].get<std::string>().empty()) return Error{bad};
        const std::string id = p["id"].get<std::string>();
        if (!parts.emplace(id, std::pair{p["en"].get<std::string>(), p["ko"].get<std::string>()}).second)
            return Error{"two parts have the id " + json_quoted(id)};
    }
    return parts;
}

// Gives each chapter of a part its part's titles and its place in it; a part's chapters must stand together.
Status place_in_parts(std::vector<TourChapter>& chapters,
                      const std::map<std::string, std::pair<std::string, std::string>>& parts) {
    std::set<std::string> closed;  // parts whose run of chapters has ended
    for (size_t i = 0; i < chapters.size(); ++i) {
        TourChapter& c = chapters[i];
        if (c.part.empty()) continue;
        const auto it = parts.find(c.part);
        if (it == parts.end()) return Error{"chapter " + json_quoted(c.id) + ": unknown part " + json_quoted(c.part)};
        const bool continues = i > 0 && chapters[i - 1].part == c.part;
        if (!continues && !closed.insert(c.part).second)
            return Error{"the chapters of part " + json_quoted(c.part) + " must stand together"};
        c.part_title[0] = it->second.first;
        c.part_title[1] = it->second.second;
        c.part_index = continues ? chapters[i - 1].part_index + 1 : 0;
    }
    for (size_t i = chapters.size(); i-- > 0;) {  // each chapter learns the size from the part's last one
        TourChapter& c = chapters[i];
        if (c.part.empty()) continue;
        const bool last = i + 1 == chapters.size() || chapters[i + 1].part != c.part;
        c.part_size = last ? c.part_index + 1 : chapters[i + 1].part_size;
    }
    return ok_status();
}

Result<std::vector<TourChapter>> parse_checked(std::string_view json_text) {
    json j;
    try {
        j = json::parse(json_text);
    } catch (const json::exception&) {
        return Error{"not valid JSON"};
    }
    if (!j.is_object() || !j.contains("chapters") || !j["chapters"].is_array() || j["chapters"].empty())
        return Error{"must be an object whose \"chapters\" is a non-empty array"};
    for (const auto& item : j.items())
        if (item.key() != "chapters" && item.key() != "parts") return Error{"unknown field " + json_quoted(item.key())};
    auto parts = read_parts(j);
    if (!parts) return parts.error();
    std::vector<TourChapter> chapters;
    std::set<std::string> ids;
    for (const json& c : j["chapters"]) {
        auto ch = read_chapter(c, "chapters[" + std::to_string(chapters.size()) + "]");
        if (!ch) return ch.error();
        if (!ids.insert(ch->id).second) return Error{"two chapters have the id " + json_quoted(ch->id)};
        chapters.push_back(std::move(*ch));
    }
    if (auto st = place_in_parts(chapters, *parts); !st) return st.error();
    return chapters;
}

}  // namespace

const char* tour_need_name(TourNeed need) {
    for (const auto& [name, n] : kNeeds)
        if (n == need) return name;
    return "?";
}

bool meets(const ModelConfig& config, TourNeed need) {
    switch (need) {
        case TourNeed::decoder_only: return config.arch == Arch::decoder_only;
        case TourNeed::pre_norm: return NormMechanism(config).before_sublayer();
        case TourNeed::rms_norm: return NormMechanism(config).rms();
        case TourNeed::rotary: return PositionMechanism(config).rotates_queries_and_keys();
        case TourNeed::gated_ffn: return FeedForwardMechanism(config).gated();
        case TourNeed::grouped_query: return config.kv_heads() < config.n_heads;
        case TourNeed::translator: return config.arch == Arch::encoder_decoder;
    }
    return false;
}

std::optional<TourNeed> first_unmet(const ModelConfig& config, const std::vector<TourNeed>& needs) {
    for (TourNeed n : needs)
        if (!meets(config, n)) return n;
    return std::nullopt;
}

Result<std::vector<TourChapter>> parse_tour(std::string_view json_text, const std::string& source) {
    auto chapters = parse_checked(json_text);
    // display_path escapes control bytes and broken UTF-8, so the message stays one line.
    if (!chapters) return Error{io::display_path(source + ": " + chapters.error().message)};
    return chapters;
}

Result<std::vector<TourChapter>> load_tour(const std::string& assets_dir) {
    const std::string path = assets_dir + "/tour/tour.json";
    auto bytes = io::read_file_bytes(path);
    if (!bytes) return bytes.error();
    return parse_tour(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()), path);
}

}  // namespace attnlab
