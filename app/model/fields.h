// What a struct saved as JSON declares once, without JSON: enums' names, and rules on values read.
// A struct lists its saved fields in one member, read and written by app/model/fields_json.h:
//     template <class Visit> void fields(Visit&& v) { v("layer", layer); v("scale", scale, clamped(0.5f, 3.0f)); }
#pragma once

#include <algorithm>
#include <string>

namespace attnlab::gui {

template <class E>
struct EnumName {
    E value;
    const char* name;
};

// Specialise for each enum saved by name: static constexpr EnumName<E> list[] = {{E::a, "a"}, ...};
template <class E>
struct EnumNames;

template <class E>
const char* enum_name(E e) {
    for (const EnumName<E>& n : EnumNames<E>::list)
        if (n.value == e) return n.name;
    return "";
}

template <class E>
bool enum_from_name(const std::string& name, E& out) {
    for (const EnumName<E>& n : EnumNames<E>::list)
        if (name == n.name) {
            out = n.value;
            return true;
        }
    return false;
}

// A rule on a value read from a file: it may correct the value, and returns false to refuse it.
template <class T>
auto clamped(T lo, T hi) {
    return [lo, hi](T& x) {
        x = std::clamp(x, lo, hi);
        return true;
    };
}

}  // namespace attnlab::gui
