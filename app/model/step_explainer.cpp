// Loads each language's table once and explains steps with the session's vocabularies.
#include "step_explainer.h"

#include "explain/backward_kind.h"
#include "explain/explain_labels.h"
#include "explain/template_fill.h"
#include "loss_choice.h"

#include <cmath>
#include <cstdio>

namespace attnlab::gui {

namespace {

// A token as the loss names it: its text in quotes, or its id alone ("#7") when the model has no vocabulary.
std::string quoted_token(const Session& session, int id) {
    const std::string name = loss_token_name(session, id);
    return name == "#" + std::to_string(id) ? name : "“" + name + "”";
}

// The loss in the table's language (its terms loss_next_token, loss_token, loss_logit_diff, loss_logit, loss_prob), the tokens by
// their text: "다음 토큰", "위치 2의 토큰 “사과”"; the CLI's spelling ("token:6@2") if the table lacks the term.
std::string loss_name(const ExplanationTable& table, const Session& session, const LossSpec& loss) {
    const char* key = "";
    switch (loss.kind) {
        case LossKind::next_token: key = "loss_next_token"; break;
        case LossKind::token: key = "loss_token"; break;
        case LossKind::logit_diff: key = "loss_logit_diff"; break;
        case LossKind::logit: key = "loss_logit"; break;
        case LossKind::prob: key = "loss_prob"; break;
    }
    const auto term = table.terms.find(key);
    if (term == table.terms.end()) return loss.to_string();
    auto name = fill_template(term->second, [&](std::string_view placeholder) -> std::optional<std::string> {
        if (placeholder == "position") return std::to_string(loss.position);
        if (placeholder == "token") return quoted_token(session, loss.token);
        if (placeholder == "other") return quoted_token(session, loss.other);
        return std::nullopt;
    });
    return name ? *name : loss.to_string();
}

}  // namespace

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
    char text[384];
    std::snprintf(text, sizeof text, "L = %.4g (%s);  ‖∂L/∂%s‖ = %.4g", pass->loss(),
                  loss_name(*t, session, pass->loss_spec()).c_str(), step.path.c_str(), std::sqrt(squares));
    e.numbers = text;
    return e;
}

}  // namespace attnlab::gui
