// Result<T>: a value or a one-line error message. Bad files and bad user input travel
// this way; nothing in core throws across its API or calls exit().
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace attnlab {

struct Error {
    std::string message;  // one line, names the field or tensor at fault
};

template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::move(value)) {}
    Result(Error error) : v_(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(v_); }
    explicit operator bool() const { return ok(); }

    T& value() & {
        assert(ok());
        return std::get<T>(v_);
    }
    const T& value() const& {
        assert(ok());
        return std::get<T>(v_);
    }
    T&& value() && {
        assert(ok());
        return std::get<T>(std::move(v_));
    }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const {
        assert(!ok());
        return std::get<Error>(v_);
    }

private:
    std::variant<T, Error> v_;
};

struct Ok {};
using Status = Result<Ok>;
inline Status ok_status() { return Ok{}; }

}  // namespace attnlab
