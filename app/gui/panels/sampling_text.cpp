// The sampling set in words, with the numbers the bars show.
#include "panels/sampling_text.h"

#include "i18n.h"

#include <cstdio>

namespace attnlab::gui {

namespace {

// Whether top k left out part of p, so that top p's share is of the top k's p, not of all of it.
bool top_k_cuts(const PositionPrediction& pred, const SamplingOptions& options) {
    return options.top_k > 0 && pred.mass_top_k < 1.0 - 1e-9;
}

}  // namespace

std::string sampling_caption(const PositionPrediction& pred, const SamplingOptions& options, bool korean) {
    char caption[480];
    const std::string mass = percent_text(pred.mass);
    if (pred.n_kept == 1)
        std::snprintf(caption, sizeof caption,
                      tr(korean,
                         "Sampling keeps only the most probable token (%s of p), so every draw picks it; "
                         "dimmed tokens are cut."),
                      mass.c_str());
    else
        std::snprintf(caption, sizeof caption,
                      tr(korean,
                         "Sampling from %d tokens holding %s of p (→ rescaled to sum to 100%%); dimmed "
                         "tokens are cut."),
                      pred.n_kept, mass.c_str());
    std::string text = caption;
    if (pred.n_kept < pred.n_top_k && top_k_cuts(pred, options)) {
        std::snprintf(caption, sizeof caption,
                      tr(korean,
                         "Top p counts within the top %d rescaled to 100%%: there these %d hold %s, reaching "
                         "top p = %.2f."),
                      pred.n_top_k, pred.n_kept, percent_text(pred.kept_share_of_top_k()).c_str(),
                      static_cast<double>(options.top_p));
        text += '\n';
        text += caption;
    }
    return text;
}

std::string top_p_cut_note(const PositionPrediction& pred, const SamplingOptions& options, bool korean) {
    char note[320];
    if (top_k_cuts(pred, options))
        std::snprintf(note, sizeof note,
                      tr(korean,
                         "Cut by top p: within the top %d rescaled to 100%%, the %d tokens kept above already "
                         "hold %s, reaching top p = %.2f."),
                      pred.n_top_k, pred.n_kept, percent_text(pred.kept_share_of_top_k()).c_str(),
                      static_cast<double>(options.top_p));
    else
        std::snprintf(note, sizeof note,
                      tr(korean, "Cut by top p: the %d tokens kept above already hold %s of p, reaching top p = %.2f."),
                      pred.n_kept, percent_text(pred.mass).c_str(), static_cast<double>(options.top_p));
    return note;
}

}  // namespace attnlab::gui
