// FloatBuffer: a tensor's numbers, row-major. Usually an array of its own, aligned to Eigen's
// widest packet; or a read-only view of floats that live elsewhere (a memory-mapped weights
// file), kept alive by a shared owner, so a 500 MB model is mapped, not copied. A view exists
// only inside a const Tensor (mapped_tensor in tensor.h), so nothing can write through it, and
// element access costs what a std::vector's does.
#pragma once

#include <Eigen/Core>

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace attnlab {

struct Tensor;

class FloatBuffer {
public:
    using value_type = float;
    using iterator = float*;
    using const_iterator = const float*;

    FloatBuffer() = default;
    FloatBuffer(size_t n, float value) {
        owned_.reserve(with_room_to_grow(n));
        owned_.assign(n, value);
        adopt_owned();
    }
    FloatBuffer(std::initializer_list<float> values) : owned_(values) { adopt_owned(); }
    // n floats left unwritten, for a caller that writes every one before anything reads it: a decoder
    // filling a 500 MB array pays for zeroing it first otherwise.
    static FloatBuffer uninitialized(size_t n) {
        FloatBuffer b;
        b.owned_.reserve(with_room_to_grow(n));
        b.owned_.resize(n);
        b.adopt_owned();
        return b;
    }

    // A copy always owns its numbers (a copy of a view is a writable array); a move keeps a view
    // a view. Defined here, as std::vector's are: the optimizer must see that an array comes
    // from the allocator to vectorise loops over it.
    FloatBuffer(const FloatBuffer& other) : owned_(other.begin(), other.end()) { adopt_owned(); }
    FloatBuffer(FloatBuffer&& other) noexcept { swap(other); }
    FloatBuffer& operator=(const FloatBuffer& other) {
        FloatBuffer copy(other);
        swap(copy);
        return *this;
    }
    FloatBuffer& operator=(FloatBuffer&& other) noexcept {
        FloatBuffer moved(std::move(other));
        swap(moved);
        return *this;
    }

    bool is_view() const { return owner_ != nullptr; }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }

    const float* data() const { return begin_; }
    const float& operator[](size_t i) const { return begin_[i]; }
    const float* begin() const { return begin_; }
    const float* end() const { return begin_ + size_; }

    // Non-const access is to the owned array: a view is always const (see above).
    float* data() {
        assert(!is_view());
        return owned_.data();
    }
    float& operator[](size_t i) { return owned_[i]; }
    float* begin() { return data(); }
    float* end() { return data() + size_; }

    void resize(size_t n) {  // keeps the first values, new ones are 0
        assert(!is_view());
        owned_.resize(n, 0.0f);
        adopt_owned();
    }

    bool operator==(const FloatBuffer& other) const {  // same numbers (bitwise ==, so NaN != NaN)
        return std::equal(begin(), end(), other.begin(), other.end());
    }

private:
    // The capacity given to a new array of n floats. A large one gets an eighth more, which nothing touches, so that
    // it is neither resident nor zeroed: a kept output of a traced pass then gains rows in place (merge_rows, as a
    // token is appended) for its first N/8 tokens. Otherwise the first token appended after a pass copied every kept
    // output into an array twice its size (std::vector's growth): 1.2 s, not 35 ms, at SmolLM2-135M's shape over
    // 1,024 tokens, mostly the page faults of the copied logits. Not in the web page, whose memory is committed.
    static size_t with_room_to_grow(size_t n) {
#if defined(__EMSCRIPTEN__)
        return n;
#else
        constexpr size_t kRoomFrom = size_t{1} << 14;  // floats: 64 KiB (SmolLM2-135M's K at 1,024 tokens: 768 KiB)
        return n >= kRoomFrom ? n + n / 8 : n;
#endif
    }
    // n floats at `data`, read in place while `owner` lives.
    static FloatBuffer view(const float* data, size_t n, std::shared_ptr<const void> owner);
    friend std::shared_ptr<const Tensor> mapped_tensor(std::vector<int64_t> shape, const float* data,
                                                       std::shared_ptr<const void> owner);

    void adopt_owned() {
        begin_ = owned_.data();
        size_ = owned_.size();
    }
    // std::vector's swap exchanges the arrays themselves, so each begin_ still points into its own.
    void swap(FloatBuffer& other) noexcept {
        owned_.swap(other.owned_);
        std::swap(begin_, other.begin_);
        std::swap(size_, other.size_);
        owner_.swap(other.owner_);
    }

    // Eigen's aligned allocator, but a value-less construct leaves the float unwritten: only
    // uninitialized() uses one, every other way in passes the values.
    template <typename T>
    struct Allocator : Eigen::aligned_allocator<T> {
        template <typename U>
        struct rebind {
            using other = Allocator<U>;
        };
        Allocator() = default;
        template <typename U>
        Allocator(const Allocator<U>&) noexcept {}
        template <typename U>
        void construct(U* p) noexcept {
            ::new (static_cast<void*>(p)) U;
        }
        template <typename U, typename... Args>
        void construct(U* p, Args&&... args) {
            ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
        }
    };

    std::vector<float, Allocator<float>> owned_;  // empty for a view
    const float* begin_ = nullptr;                // owned_.data() or the view's memory
    size_t size_ = 0;
    std::shared_ptr<const void> owner_;  // a view's keep-alive; null when owned
};

}  // namespace attnlab
