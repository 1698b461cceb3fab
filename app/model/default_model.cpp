// Choosing and opening the start-up model.
#include "default_model.h"

#include "hf/open_model.h"
#include "io/file_bytes.h"
#include "io/model_file.h"
#include "train/training_history_file.h"

#include <algorithm>
#include <filesystem>

namespace attnlab::gui {

namespace {

std::optional<Vocab> read_vocab(const std::string& path) {
    auto bytes = io::read_file_bytes(path);
    if (!bytes) return std::nullopt;
    auto v = Vocab::from_lines(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
    return v ? std::optional<Vocab>(std::move(*v)) : std::nullopt;
}

// The target the model decodes for its source, as text (without <sos>/<eos>), teacher-forced
// so that the last position predicts <eos>; the reference when decoding gives nothing.
void show_decoded_target(Session& s) {
    if (s.stepper().config().arch != Arch::encoder_decoder) return;
    std::string decoded;
    if (s.translate()) decoded = s.tgt_text();
    if (decoded.empty() || !s.set_tgt_text(decoded)) s.set_tgt_text(kExampleTarget);
    s.clear_error();
}

}  // namespace

std::string bundled_default_model(const std::string& assets) {
    const std::filesystem::path p = std::filesystem::path(assets) / "models" / "en-ko.safetensors";
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec) ? p.string() : "";
}

std::vector<std::string> bundled_model_files(const std::string& assets) {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(assets) / "models", ec))
        if (e.path().extension() == ".safetensors" && !is_training_history_file(e.path().filename().string()))
            out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

Result<Session> default_session(const std::string& assets, const std::optional<std::string>& preset,
                                const std::optional<std::string>& src, std::string* warning) {
    if (const std::string path = bundled_default_model(assets); !path.empty() && !preset) {
        // An unreadable bundled file must not keep the app from starting: fall back to a random model.
        auto model = io::read_model(path);
        auto session = model ? Session::from_model(std::move(*model), path, src.value_or(kExampleSource), "")
                             : Result<Session>(model.error());
        if (session && !src) show_decoded_target(*session);
        if (session) return session;
        if (warning) *warning = session.error().message;
    }
    auto session = Session::from_preset(preset.value_or("tiny"), 1, read_vocab(assets + "/vocab/en.txt"),
                                        read_vocab(assets + "/vocab/ko.txt"), src.value_or(kExampleSource));
    if (session && !src) session->set_tgt_text(kExampleTarget);  // the decoder's input, teacher-forced
    return session;
}

Result<Session> launch_session(const std::string& assets, const std::optional<std::string>& model,
                               const std::optional<std::string>& preset, const std::optional<std::string>& src,
                               std::optional<OpenProblem>& problem, std::string* warning) {
    problem.reset();
    if (model) {
        auto loaded = open_model(*model);
        if (loaded) {
            const bool has_text_vocab = loaded->model.src_vocab || loaded->model.tgt_vocab;
            return Session::from_model(std::move(loaded->model), *model,
                                       src.value_or(has_text_vocab ? kExampleSource : ""), "");
        }
        problem = explain_open_error(*model, loaded.error().message);
    }
    return default_session(assets, preset, src, warning);
}

}  // namespace attnlab::gui
