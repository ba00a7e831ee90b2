#pragma once
// Error values for library code: engine/ and profiler/ report failures as values with
// a message a user can act on (file, position, what was expected) instead of throwing
// across the library boundary.

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace npu {

struct Error {
    std::string message;
};

// Success or an Error. Status is Expected<void>.
template <typename T>
class [[nodiscard]] Expected {
public:
    Expected(T value) : m_state(std::move(value)) {}
    Expected(Error error) : m_state(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<T>(m_state); }
    const T& value() const& { return std::get<T>(m_state); }
    T&& value() && { return std::get<T>(std::move(m_state)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const { return std::get<Error>(m_state); }
    const std::string& message() const { return error().message; }

private:
    std::variant<T, Error> m_state;
};

template <>
class [[nodiscard]] Expected<void> {
public:
    Expected() = default;
    Expected(Error error) : m_error(std::move(error)) {}

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return *m_error; }
    const std::string& message() const { return m_error->message; }

private:
    std::optional<Error> m_error;
};

using Status = Expected<void>;

inline Error makeError(std::string message) { return Error{std::move(message)}; }

}  // namespace npu
