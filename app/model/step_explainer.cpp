// Loads each language's table once and explains steps with the session's vocabularies.
#include "step_explainer.h"

#include "explain/backward_kind.h"
#include "explain/explain_labels.h"

#include <cmath>
#include <cstdio>

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

Result<Explanation> StepExplainer::explain_backward(const std::string& assets_dir, const Session& session, size_t k,
                                                    bool korean) {
    const Result<ExplanationTable>& t = table(assets_dir, korean ? Language::korean : Language::english);
    if (!t) return t.error();
    const Step& step = session.stepper().step(session.backward_forward_index(k));
    const std::string kind(backward_kind(step));
    const BackwardTexts& texts = t->backward.at(kind);
    Explanation e;
    e.kind = kind;
    e.title = texts.title;
    e.formula = texts.formula;
    e.what = texts.what;
    e.why = step.path;
    const BackwardPass* pass = session.backward();
    const TraceEntry* d_output = session.gradient(step.record.id);
    e.has_numbers = pass && d_output;
    if (!e.has_numbers) {
        e.numbers = t->pending;
        return e;
    }
    double squares = 0.0;
    for (float v : d_output->value.data) squares += static_cast<double>(v) * v;
    char text[256];
    std::snprintf(text, sizeof text, "L = %.4g (%s);  ‖∂L/∂%s‖ = %.4g", pass->loss(),
                  pass->loss_spec().to_string().c_str(), step.path.c_str(), std::sqrt(squares));
    e.numbers = text;
    return e;
}

}  // namespace attnlab::gui
