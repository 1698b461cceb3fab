// std::bit_cast for every compiler the project builds with: libc++ 14 (Emscripten's, for the web page) lacks
// std::bit_cast, while GCC 12 and clang 14 both have the builtin it is made of.
#pragma once

#include <type_traits>

namespace attnlab {

template <class To, class From>
    requires(sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<To> && std::is_trivially_copyable_v<From>)
constexpr To bit_cast(const From& from) noexcept {
    return __builtin_bit_cast(To, from);
}

}  // namespace attnlab
