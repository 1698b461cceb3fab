#include "head_detector_tool.h"

#include <algorithm>

namespace attnlab::gui {

namespace {

// The vocabulary every side reading the sequence shares (as detect_heads draws from it).
int shared_vocab_size(const ModelConfig& c) {
    switch (c.arch) {
        case Arch::decoder_only: return c.tgt_vocab_size;
        case Arch::encoder_only: return c.src_vocab_size;
        case Arch::encoder_decoder: return std::min(c.src_vocab_size, c.tgt_vocab_size);
    }
    return 0;
}

bool same_tensors(const std::vector<std::weak_ptr<const Tensor>>& seen, const Weights& weights) {
    if (seen.size() != weights.all().size()) return false;
    size_t i = 0;
    for (const auto& named : weights.all())
        if (seen[i++].lock() != named.second) return false;
    return true;
}

}  // namespace

HeadDetectorOptions detector_options(const ModelConfig& config, const HeadDetectorChoice& choice) {
    HeadDetectorOptions o;
    o.seed = static_cast<uint64_t>(std::max(choice.seed, 0));
    if (choice.bos >= 0)
        o.bos = choice.bos;
    else if (choice.bos == -1 && config.sos_id >= 0 && config.sos_id < shared_vocab_size(config) &&
             config.sos_id != config.pad_id)
        o.bos = config.sos_id;
    const int longest = std::min(kMaxDetectorLength, (config.max_len - (o.bos ? 1 : 0)) / 2);
    o.length = std::max(2, std::min(choice.length, longest));  // 2 when even that is too long: detect_heads says so
    return o;
}

float score_of(const HeadScores& scores, DetectorScore which) {
    switch (which) {
        case DetectorScore::induction: return scores.induction;
        case DetectorScore::previous: return scores.previous_token;
        case DetectorScore::duplicate: return scores.duplicate_token;
    }
    return 0.0f;
}

bool HeadDetectorTool::update(const ModelConfig& config, const Weights& weights, const HeadDetectorChoice& choice) {
    const bool same_sequence =
        choice.length == choice_.length && choice.seed == choice_.seed && choice.bos == choice_.bos;
    if (runs_ > 0 && same_sequence && config == config_ && same_tensors(tensors_, weights)) return false;
    config_ = config;
    tensors_.clear();
    for (const auto& named : weights.all()) tensors_.push_back(named.second);
    choice_ = choice;
    options_ = detector_options(config, choice);
    ++runs_;
    auto scores = detect_heads(config, weights, options_);
    if (scores) {
        scores_ = std::move(*scores);
        error_.clear();
    } else {
        scores_ = {};
        error_ = scores.error().message;
    }
    return true;
}

std::vector<RankedHead> HeadDetectorTool::ranked(DetectorScore by) const {
    std::vector<RankedHead> heads;
    for (size_t l = 0; l < scores_.layers.size(); ++l)
        for (size_t h = 0; h < scores_.layers[l].heads.size(); ++h) heads.push_back({l, static_cast<int>(h)});
    std::stable_sort(heads.begin(), heads.end(), [&](const RankedHead& a, const RankedHead& b) {
        return score_of(at(a), by) > score_of(at(b), by);
    });
    return heads;
}

}  // namespace attnlab::gui
