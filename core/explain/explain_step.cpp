// explain_step: the step's kind picks its texts; the trace gives the placeholder values.
#include "explain/explanation.h"

#include "explain/step_kind.h"
#include "explain/step_values.h"
#include "explain/template_fill.h"

#include <cassert>

namespace attnlab {

namespace {

// Looks a placeholder up in the values, then among the terms (translated by the table).
PlaceholderLookup lookup_in(const StepValues& values, const ExplanationTable& table) {
    return [&values, &table](std::string_view name) -> std::optional<std::string> {
        const std::string key(name);
        if (auto it = values.text.find(key); it != values.text.end()) return it->second;
        auto term = values.terms.find(key);
        if (term == values.terms.end()) return std::nullopt;
        auto word = table.terms.find(term->second);
        return word == table.terms.end() ? std::nullopt : std::optional(word->second);
    };
}

// The numbers of a step that has run, by what the step is.
void add_trace_values(const StepSite& s, StepValues& v) {
    switch (s.id().kind) {
        case StepKind::token_embedding:
        case StepKind::position:
        case StepKind::token_type:
        case StepKind::embedding_sum: return add_input_values(s, v);
        case StepKind::padding_mask:
        case StepKind::look_ahead_mask:
        case StepKind::attention_mask: return add_mask_values(s, v);
        case StepKind::attention: return add_attention_values(s, v);
        case StepKind::position_bias: return add_bias_values(s, v);
        case StepKind::embedding_norm:
        case StepKind::residual:
        case StepKind::norm:
        case StepKind::post_norm:
        case StepKind::ffn:
        case StepKind::head_transform:
        case StepKind::head_activation:
        case StepKind::head_norm: return add_layer_values(s, v);
        case StepKind::stack_output:
        case StepKind::logits:
        case StepKind::capped_logits:
        case StepKind::probs: return add_output_values(s, v);
    }
}

}  // namespace

Result<Explanation> explain_step(const ExplanationTable& table, const Stepper& stepper, size_t index,
                                 const ExplainFocus& focus, const ExplainLabels& labels) {
    assert(index < stepper.size());
    const Step& step = stepper.step(index);
    const std::string kind = explanation_kind(step.record, stepper.config());
    const auto texts = table.steps.find(kind);
    if (texts == table.steps.end()) return Error{"no explanation for step " + step.path + " (kind " + kind + ")"};

    const StepSite site{stepper, step, focus, labels};
    StepValues values;
    add_static_values(site, values);
    const PlaceholderLookup lookup = lookup_in(values, table);
    Explanation e;
    e.kind = kind;
    const std::pair<const std::string*, std::string*> fields[] = {{&texts->second.title, &e.title},
                                                                  {&texts->second.formula, &e.formula},
                                                                  {&texts->second.what, &e.what},
                                                                  {&texts->second.why, &e.why}};
    for (const auto& [text, out] : fields) {
        auto filled = fill_template(*text, lookup);
        if (!filled)
            return Error{std::string(language_code(table.language)) + " " + kind + ": " + filled.error().message};
        *out = std::move(*filled);
    }
    e.has_numbers = stepper.run_facts(step.record.id) != nullptr;  // facts only: no on-demand output made
    if (!e.has_numbers) {
        e.numbers = table.pending;
        return e;
    }
    add_trace_values(site, values);
    auto numbers = fill_template(texts->second.numbers, lookup);
    if (!numbers)
        return Error{std::string(language_code(table.language)) + " " + kind + ".numbers: " + numbers.error().message};
    e.numbers = std::move(*numbers);
    e.values = values.text;
    return e;
}

}  // namespace attnlab
