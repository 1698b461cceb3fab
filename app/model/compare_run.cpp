// CompareRun: run B made, kept and followed (run_b.h), the traces' differences (trace_compare.h), the other model
// read by a BackgroundModel.
#include "compare_run.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attnlab::gui {

namespace {

// Whether B built from `built` is B as `now` describes it (the shown step and slice are not B's).
bool same_b(const CompareChoice& built, const CompareChoice& now) {
    if (built.other_model != now.other_model) return false;
    return now.other_model ? built.other_path == now.other_path : built.ablated == now.ablated;
}

}  // namespace

bool CompareRun::update(const Stepper& a, const CompareChoice& choice) {
    reader_.pump();
    const uint64_t before = version_;
    if (state_ != State::opening && built_ && same_b(choice_, choice) && a_version_ == a.next_version()) {
        if (a_cursor_ == a.cursor()) return false;
        a_cursor_ = a.cursor();
        if (b_) follow_cursor(a);
        return version_ != before;
    }
    rebuild(a, choice);
    return version_ != before;
}

void CompareRun::rebuild(const Stepper& a, const CompareChoice& choice) {
    built_ = true;
    choice_ = choice;
    a_version_ = a.next_version();
    a_cursor_ = a.cursor();
    const State was = state_;
    const std::string was_error = error_;
    b_.reset();
    dropped_mask_cells_ = dropped_heads_ = 0;
    shared_.clear();
    relative_.clear();
    first_difference_.reset();
    error_.clear();
    const Model* other = nullptr;
    if (choice.other_model) {
        if (choice.other_path.empty()) {
            state_ = State::no_path;
            ++version_;
            return;
        }
        other = other_model(choice.other_path);
        if (!other) {
            if (state_ != was || error_ != was_error) ++version_;  // a B still opening: nothing new to show
            return;
        }
    }
    // Core's one rule (analysis/run_b.h): A's tokens, A's edits where B has a place for them, the extra heads.
    auto made = other ? make_run_b(a.inputs(), other->config, other->weights, {})
                      : make_run_b(a.inputs(), a.config(), a.weights(), choice.ablated);
    if (!made) {
        state_ = State::failed;
        error_ = made.error().message;  // one line that names B
        ++version_;
        return;
    }
    state_ = State::ready;
    dropped_mask_cells_ = made->dropped_mask_cells;
    dropped_heads_ = made->dropped_heads;
    b_ = std::move(made->stepper);
    follow_cursor(a);
}

const Model* CompareRun::other_model(const std::string& path) {
    if (auto done = reader_.take()) {
        other_path_ = reader_.path();
        other_.reset();
        read_error_.clear();
        if (*done)
            other_ = std::move(**done);
        else
            read_error_ = done->error().message;
    }
    if (other_path_ == path && (other_ || !read_error_.empty())) {
        if (other_) return &*other_;
        state_ = State::failed;
        error_ = read_error_;
        return nullptr;
    }
    state_ = State::opening;
    if (!reader_.running()) reader_.start(path);  // else the read under way (of another path) finishes first
    return nullptr;
}

void CompareRun::follow_cursor(const Stepper& a) {
    b_->run_to(std::min(a.cursor(), b_->size()));
    shared_ = shared_steps(a, *b_);
    relative_.clear();
    first_difference_.reset();
    for (const std::string& path : shared_) {
        auto d = diff_step(a, *b_, path);
        relative_.push_back(d ? d->relative : 0.0f);
        if (d && d->max_abs > 0.0f && !first_difference_) first_difference_ = path;
    }
    ++version_;
}

std::string CompareRun::step_or_default(const Stepper& a, const std::string& wanted) const {
    if (shared_.empty() || std::find(shared_.begin(), shared_.end(), wanted) != shared_.end()) return wanted;
    const auto logits = std::find_if(shared_.begin(), shared_.end(), [&](const std::string& path) {
        return a.step(*a.find(path)).record.id.kind == StepKind::logits;
    });
    return logits != shared_.end() ? *logits : shared_.back();
}

const DiffBlock& CompareRun::block(const Stepper& a, const std::string& step, int slice) {
    if (block_step_ == step && block_slice_ == slice && block_version_ == version_) return block_;
    block_step_ = step;
    block_slice_ = slice;
    block_version_ = version_;
    block_ = DiffBlock{};
    if (!b_) {
        block_.diff = Error{"there is no run B"};
        return block_;
    }
    block_.diff = diff_step(a, *b_, step);
    if (!block_.diff) return block_;
    const Tensor& d = block_.diff->difference;
    const int64_t cols_all = d.rank() == 0 ? 1 : d.dim(-1);
    const int64_t rows_all = d.rank() >= 3 ? d.dim(-2) : d.numel() / std::max<int64_t>(cols_all, 1);
    const float* values = d.data.data() + (d.rank() >= 3 ? static_cast<int64_t>(slice) * rows_all * cols_all : 0);
    std::vector<int64_t>& columns = block_.columns;
    columns.resize(static_cast<size_t>(cols_all));
    std::iota(columns.begin(), columns.end(), 0);
    if (cols_all > DiffBlock::kMaxColumns) {
        std::vector<float> peak(static_cast<size_t>(cols_all), 0.0f);
        for (int64_t r = 0; r < rows_all; ++r)
            for (int64_t c = 0; c < cols_all; ++c)
                peak[static_cast<size_t>(c)] =
                    std::max(peak[static_cast<size_t>(c)], std::abs(values[r * cols_all + c]));
        std::partial_sort(columns.begin(), columns.begin() + DiffBlock::kMaxColumns, columns.end(),
                          [&](int64_t x, int64_t y) { return peak[static_cast<size_t>(x)] > peak[static_cast<size_t>(y)]; });
        columns.resize(DiffBlock::kMaxColumns);
        std::sort(columns.begin(), columns.end());
    }
    block_.rows = static_cast<int>(rows_all);
    block_.cols = static_cast<int>(columns.size());
    for (int64_t r = 0; r < rows_all; ++r)
        for (int64_t c : columns) block_.values.push_back(values[r * cols_all + c]);
    float peak = 0.0f;
    for (float v : block_.values) peak = std::max(peak, std::abs(v));
    block_.range = std::max(peak, 1e-6f);
    return block_;
}

std::vector<AttentionSite> attention_sites(const Stepper& s) {
    std::vector<AttentionSite> out;
    for (const Step& step : s.steps())
        if (step.record.id.kind == StepKind::attention && step.record.id.stage == AttentionStage::weights)
            out.push_back(step.record.id.site());
    return out;
}

void drop_missing_heads(std::vector<AttentionHead>& heads, const Stepper& s) {
    const int H = s.config().n_heads;
    const std::vector<AttentionSite> sites = attention_sites(s);
    std::erase_if(heads, [&](const AttentionHead& h) {
        return h.head < 0 || h.head >= H || std::find(sites.begin(), sites.end(), h.site) == sites.end();
    });
}

}  // namespace attnlab::gui
