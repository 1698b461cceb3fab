// Loads each language's table once and explains steps with the session's vocabularies.
#include "step_explainer.h"

#include "explain/explain_labels.h"

namespace attnlab::gui {

const Result<ExplanationTable>& StepExplainer::table(const std::string& assets_dir, Language language) {
    std::optional<Result<ExplanationTable>>& slot = tables_[language == Language::korean ? 1 : 0];
    if (!slot) slot = load_explanation_table(assets_dir, language);
    return *slot;
}

Result<Explanation> StepExplainer::explain(const std::string& assets_dir, const Session& session, size_t index,
                                           bool korean, const ExplainFocus& focus) {
    const Result<ExplanationTable>& t = table(assets_dir, korean ? Language::korean : Language::english);
    if (!t) return t.error();
    const Stepper& stepper = session.stepper();
    return explain_step(*t, stepper, index, focus, explain_labels(session.model(), stepper.inputs()));
}

}  // namespace attnlab::gui
