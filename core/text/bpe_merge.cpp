// GPT-2's merge loop in O(n log n): the symbols form a linked list over their first positions,
// and a heap holds every neighbouring pair that has a merge, lowest (rank, position) on top.
// A pass pops every entry of the lowest rank in position order, skips those whose pair has
// changed since it was pushed, and pushes the pairs that its merges made only once it is over.
#include "text/bpe_merge.h"

#include <functional>
#include <queue>

namespace attnlab {

namespace {

struct Node {
    int id;
    uint32_t n_bytes;
    int prev, next;  // neighbours still alive, -1 at the ends
    bool alive;
};

struct Candidate {
    int rank;
    int left;  // node index of the pair's left symbol
    int left_id, right_id, merged;
    bool operator>(const Candidate& o) const { return rank != o.rank ? rank > o.rank : left > o.left; }
};

}  // namespace

uint64_t BpeMergeTable::key(int left, int right) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(left)) << 32) | static_cast<uint32_t>(right);
}

void BpeMergeTable::add(int left, int right, int merged) {
    merges_.insert_or_assign(key(left, right), Merge{n_added_++, merged});
}

std::optional<BpeMergeTable::Merge> BpeMergeTable::find(int left, int right) const {
    const auto it = merges_.find(key(left, right));
    if (it == merges_.end()) return std::nullopt;
    return it->second;
}

std::vector<BpeSymbol> bpe_merge(const std::vector<BpeSymbol>& symbols, const BpeMergeTable& merges) {
    const int n = static_cast<int>(symbols.size());
    std::vector<Node> nodes(symbols.size());
    for (int i = 0; i < n; ++i) nodes[i] = {symbols[i].id, symbols[i].n_bytes, i - 1, i + 1 < n ? i + 1 : -1, true};

    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> heap;
    std::vector<Candidate> made;  // pairs made in the current pass
    const auto consider = [&](int left, std::vector<Candidate>& into) {
        if (left < 0 || nodes[left].next < 0) return;
        const int left_id = nodes[left].id, right_id = nodes[nodes[left].next].id;
        if (const auto m = merges.find(left_id, right_id))
            into.push_back({m->rank, left, left_id, right_id, m->merged});
    };
    for (int i = 0; i + 1 < n; ++i) consider(i, made);
    for (const Candidate& c : made) heap.push(c);

    while (!heap.empty()) {
        const int rank = heap.top().rank;
        made.clear();
        while (!heap.empty() && heap.top().rank == rank) {
            const Candidate c = heap.top();
            heap.pop();
            Node& left = nodes[c.left];
            if (!left.alive || left.id != c.left_id || left.next < 0 || nodes[left.next].id != c.right_id) continue;
            Node& right = nodes[left.next];
            left.id = c.merged;
            left.n_bytes += right.n_bytes;
            right.alive = false;
            left.next = right.next;
            if (right.next >= 0) nodes[right.next].prev = c.left;
            consider(left.prev, made);
            consider(c.left, made);
        }
        for (const Candidate& c : made) heap.push(c);
    }

    std::vector<BpeSymbol> out;
    for (int i = n > 0 ? 0 : -1; i >= 0; i = nodes[i].next) out.push_back({nodes[i].id, nodes[i].n_bytes});
    return out;
}

}  // namespace attnlab
