// StepExplainer: the app's explanations of forward-pass steps, in the UI's language, with the
// session's tokens named. Reads assets/explanations/<en|ko>.json once each, on first use.
// No GL or ImGui: tested headless.
#pragma once

#include "explain/explanation.h"
#include "session.h"

#include <optional>
#include <string>

namespace attnlab::gui {

class StepExplainer {
public:
    // Step `index` of the session's stepper, or a one-line error (a missing or malformed language file).
    Result<Explanation> explain(const std::string& assets_dir, const Session& session, size_t index, bool korean,
                                const ExplainFocus& focus = {});
    // Backward step k of the session's timeline: the chain rule through its forward step (the language file's
    // "backward" texts), and as numbers the loss and the size of the gradient the step takes in, once it is whole.
    Result<Explanation> explain_backward(const std::string& assets_dir, const Session& session, size_t k, bool korean);

private:
    const Result<ExplanationTable>& table(const std::string& assets_dir, Language language);

    std::optional<Result<ExplanationTable>> tables_[2];  // [english, korean], each read once
};

}  // namespace attnlab::gui
