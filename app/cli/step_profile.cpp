#include "step_profile.h"

#include "cli_common.h"

#include <chrono>
#include <map>
#include <tuple>

namespace attnlab::cli {

namespace {

// A step's group: its id with the layer left out.
using GroupKey = std::tuple<StepKind, Stack, int, AttentionUse, AttentionStage, FfnPart>;

GroupKey group_of(const StepId& id) { return {id.kind, id.stack, id.sublayer, id.use, id.stage, id.part}; }

}  // namespace

std::vector<StepGroupTime> time_steps_by_group(Stepper& stepper, long long reps) {
    std::map<GroupKey, size_t> index;  // group -> its place in groups
    std::vector<StepGroupTime> groups;
    std::vector<size_t> group_of_step(stepper.size());
    for (size_t i = 0; i < stepper.size(); ++i) {
        const Step& step = stepper.step(i);
        auto [it, added] = index.try_emplace(group_of(step.record.id), groups.size());
        if (added) groups.push_back({step.path, 0, 0});
        ++groups[it->second].count;
        group_of_step[i] = it->second;
    }
    std::vector<std::vector<double>> runs(groups.size());  // [group][run]: ms
    for (long long r = 0; r < reps; ++r) {
        stepper.run_to(0);
        std::vector<double> ms(groups.size(), 0.0);
        for (size_t i = 0; i < stepper.size(); ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            stepper.step_forward();
            ms[group_of_step[i]] +=
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        }
        for (size_t g = 0; g < groups.size(); ++g) runs[g].push_back(ms[g]);
    }
    for (size_t g = 0; g < groups.size(); ++g) groups[g].ms = median_of(runs[g]);
    return groups;
}

}  // namespace attnlab::cli
