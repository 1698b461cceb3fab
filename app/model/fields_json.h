// One JSON writer and one reader for every struct that lists its fields (app/model/fields.h).
// Writing puts each field under its name. Reading takes each field that is present and well formed
// (and passes its rule) and leaves every other at its value before (the default): an unknown, missing
// or mistyped field never fails the whole. Enums are written by name (EnumNames<E>); a type with a
// form of its own specialises JsonValue<T> with `custom = true`, write and read.
#pragma once

#include "fields.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace attnlab::gui {

template <class T, class = void>
struct JsonValue {
    static constexpr bool custom = false;
};

namespace fields_detail {

struct AnyVisitor {
    template <class... A>
    void operator()(A&&...) {}
};
template <class T, class = void>
struct HasFields : std::false_type {};
template <class T>
struct HasFields<T, std::void_t<decltype(std::declval<T&>().fields(std::declval<AnyVisitor&>()))>> : std::true_type {};

template <class T>
struct IsVector : std::false_type {};
template <class T, class A>
struct IsVector<std::vector<T, A>> : std::true_type {};

template <class T>
inline constexpr bool kUnsupported = false;

}  // namespace fields_detail

template <class T>
nlohmann::json json_of_fields(const T& s);
template <class T>
bool read_fields(const nlohmann::json& j, T& s);

template <class T>
nlohmann::json json_value(const T& x) {
    if constexpr (JsonValue<T>::custom)
        return JsonValue<T>::write(x);
    else if constexpr (fields_detail::HasFields<T>::value)
        return json_of_fields(x);
    else if constexpr (std::is_enum_v<T>)
        return enum_name(x);
    else if constexpr (fields_detail::IsVector<T>::value || std::is_array_v<T>) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& e : x) out.push_back(json_value(e));
        return out;
    } else
        return x;  // bool, a number, a string
}

// j into out when j is well formed for T; false (out unchanged or partly read) when not.
template <class T>
bool read_json_value(const nlohmann::json& j, T& out) {
    if constexpr (JsonValue<T>::custom)
        return JsonValue<T>::read(j, out);
    else if constexpr (fields_detail::HasFields<T>::value)
        return read_fields(j, out);
    else if constexpr (std::is_enum_v<T>)
        return j.is_string() && enum_from_name(j.get<std::string>(), out);
    else if constexpr (std::is_same_v<T, bool>) {
        if (!j.is_boolean()) return false;
        out = j.get<bool>();
        return true;
    } else if constexpr (std::is_integral_v<T>) {
        if (j.is_number_unsigned()) {
            const uint64_t u = j.get<uint64_t>();
            if (u > static_cast<uint64_t>(std::numeric_limits<T>::max())) return false;
            out = static_cast<T>(u);
            return true;
        }
        if (!j.is_number_integer()) return false;
        const int64_t i = j.get<int64_t>();
        if constexpr (std::is_signed_v<T>) {
            if (i < std::numeric_limits<T>::min() || i > std::numeric_limits<T>::max()) return false;
        } else if (i < 0)
            return false;
        out = static_cast<T>(i);
        return true;
    } else if constexpr (std::is_floating_point_v<T>) {
        if (!j.is_number()) return false;
        const double d = j.get<double>();
        if (!std::isfinite(d) || std::abs(d) > std::numeric_limits<T>::max()) return false;
        out = static_cast<T>(d);
        return true;
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!j.is_string()) return false;
        out = j.get<std::string>();
        return true;
    } else if constexpr (fields_detail::IsVector<T>::value) {
        if (!j.is_array()) return false;
        T items;
        for (const nlohmann::json& e : j) {
            typename T::value_type item{};
            if (!read_json_value(e, item)) return false;
            items.push_back(std::move(item));
        }
        out = std::move(items);
        return true;
    } else
        static_assert(fields_detail::kUnsupported<T>, "give this type fields(), EnumNames or a JsonValue");
}

// The visitor that writes: each field under its name; a rule is for reading and ignored here.
class JsonFieldWriter {
public:
    explicit JsonFieldWriter(nlohmann::json& out) : out_(out) {}
    template <class T, class... Rule>
    void operator()(const char* key, const T& field, const Rule&...) {
        out_[key] = json_value(field);
    }

private:
    nlohmann::json& out_;
};

// The visitor that reads: a field is replaced only by a value that reads whole and passes its rule.
class JsonFieldReader {
public:
    explicit JsonFieldReader(const nlohmann::json& in) : in_(in) {}
    template <class T>
    void operator()(const char* key, T& field) {
        (*this)(key, field, [](const auto&) { return true; });
    }
    template <class T, std::size_t N, class Rule>
    void operator()(const char* key, T (&field)[N], Rule rule) {  // a fixed-size array, as int[2]
        std::array<T, N> value;
        std::copy(field, field + N, value.begin());
        if (read_item(key, value, rule)) std::copy(value.begin(), value.end(), field);
    }
    template <class T, class Rule>
    void operator()(const char* key, T& field, Rule rule) {
        T value = field;  // a nested struct starts from the current values, so its missing fields keep them
        if (read_item(key, value, rule)) field = std::move(value);
    }

private:
    template <class T, class Rule>
    bool read_item(const char* key, T& value, Rule& rule) {
        const auto it = in_.find(key);
        return it != in_.end() && read_json_value(*it, value) && rule(value);
    }
    const nlohmann::json& in_;
};

template <class T, std::size_t N>
struct JsonValue<std::array<T, N>> {
    static constexpr bool custom = true;
    static nlohmann::json write(const std::array<T, N>& a) {
        nlohmann::json out = nlohmann::json::array();
        for (const T& e : a) out.push_back(json_value(e));
        return out;
    }
    static bool read(const nlohmann::json& j, std::array<T, N>& a) {
        if (!j.is_array() || j.size() != N) return false;
        for (std::size_t i = 0; i < N; ++i)
            if (!read_json_value(j[i], a[i])) return false;
        return true;
    }
};

template <class T>
nlohmann::json json_of_fields(const T& s) {
    nlohmann::json out = nlohmann::json::object();
    JsonFieldWriter writer(out);
    const_cast<T&>(s).fields(writer);  // fields() hands out references; the writer only reads them
    return out;
}

template <class T>
bool read_fields(const nlohmann::json& j, T& s) {
    if (!j.is_object()) return false;
    JsonFieldReader reader(j);
    s.fields(reader);
    return true;
}

}  // namespace attnlab::gui
