// The task registry (name -> task) and the words -> ids step shared by every task.
#include "train/tasks.h"

#include "train/en_ko_task.h"
#include "train/sequence_tasks.h"

#include <cassert>

namespace attnlab {

std::vector<std::string> task_names() { return {"copy", "reverse", "sort", "en-ko"}; }

Result<std::unique_ptr<Task>> make_task(const std::string& name, uint64_t seed) {
    if (name == "copy") return make_sequence_task(SequenceKind::copy, seed);
    if (name == "reverse") return make_sequence_task(SequenceKind::reverse, seed);
    if (name == "sort") return make_sequence_task(SequenceKind::sort, seed);
    if (name == "en-ko") return make_en_ko_task(seed);
    return Error{"unknown task '" + name + "' (expected copy, reverse, sort or en-ko)"};
}

namespace {

std::vector<int> to_ids(const Vocab& vocab, const std::vector<std::string>& words) {
    std::vector<int> ids;
    ids.reserve(words.size());
    for (const std::string& w : words) {
        const std::optional<int> id = vocab.find(w);
        assert(id.has_value() && "task word missing from its vocabulary");
        ids.push_back(*id);
    }
    return ids;
}

}  // namespace

TokenPair to_token_pair(const Task& task, const TextPair& pair) {
    return {to_ids(task.src_vocab(), pair.src), to_ids(task.tgt_vocab(), pair.tgt)};
}

}  // namespace attnlab
