// Bf16Buffer: a weight's numbers kept as bfloat16 (the upper 16 bits of each float), as a Hugging Face
// checkpoint ships them: a read-only view of the memory-mapped file where it is 2-byte aligned and the
// machine little-endian, else an array of its own. Half the memory of the F32 it stands for; each value
// widens to its float exactly (bf16_to_float). Like FloatBuffer's views, it is only ever read: a tensor
// that must change is widened to F32 first (tensor.h: widened).
#pragma once

#include "bit_cast.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace attnlab {

inline float bf16_to_float(uint16_t bits) { return bit_cast<float>(static_cast<uint32_t>(bits) << 16); }

class Bf16Buffer {
public:
    Bf16Buffer() = default;
    explicit Bf16Buffer(std::vector<uint16_t> values) : owned_(std::move(values)) { adopt_owned(); }
    // n values at `data`, read in place while `owner` lives.
    static Bf16Buffer view(const uint16_t* data, size_t n, std::shared_ptr<const void> owner) {
        Bf16Buffer b;
        b.begin_ = data;
        b.size_ = n;
        b.owner_ = std::move(owner);
        return b;
    }

    // A copy owns its values (as FloatBuffer's does); a move keeps a view a view.
    Bf16Buffer(const Bf16Buffer& other) : owned_(other.begin(), other.end()) { adopt_owned(); }
    Bf16Buffer(Bf16Buffer&& other) noexcept { swap(other); }
    Bf16Buffer& operator=(const Bf16Buffer& other) {
        Bf16Buffer copy(other);
        swap(copy);
        return *this;
    }
    Bf16Buffer& operator=(Bf16Buffer&& other) noexcept {
        Bf16Buffer moved(std::move(other));
        swap(moved);
        return *this;
    }

    bool is_view() const { return owner_ != nullptr; }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const uint16_t* data() const { return begin_; }
    const uint16_t* begin() const { return begin_; }
    const uint16_t* end() const { return begin_ + size_; }
    float at(size_t i) const { return bf16_to_float(begin_[i]); }

private:
    void adopt_owned() {
        begin_ = owned_.data();
        size_ = owned_.size();
    }
    void swap(Bf16Buffer& other) noexcept {
        owned_.swap(other.owned_);
        std::swap(begin_, other.begin_);
        std::swap(size_, other.size_);
        owner_.swap(other.owner_);
    }

    std::vector<uint16_t> owned_;  // empty for a view
    const uint16_t* begin_ = nullptr;
    size_t size_ = 0;
    std::shared_ptr<const void> owner_;  // a view's keep-alive; null when owned
};

}  // namespace attnlab
