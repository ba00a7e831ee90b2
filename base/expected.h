#pragma once
// Error values for library code: engine/, profiler/ and runner/ report failures as values
// with a message a user can act on (file, position, what was expected) instead of throwing
// across the library boundary. The code says what kind of failure it is, so a caller tells
// a cancel from bad input without reading the message.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <string_view>
#include <variant>

namespace npu {

enum class ErrorCode : std::uint8_t {
    failed,         // none of the kinds below
    bad_input,      // the user's file, option or setting is wrong (the message names it)
    not_found,      // a named file, device profile or table does not exist
    io,             // reading or writing failed
    cancelled,      // the user (or the caller's cancel flag) stopped the work
    out_of_memory,  // the simulated device does not have the memory the work needs
};
std::string_view errorCodeName(ErrorCode code);

struct Error {
    std::string message;
    ErrorCode code = ErrorCode::failed;
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
    bool cancelled() const { return !ok() && error().code == ErrorCode::cancelled; }

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
    bool cancelled() const { return !ok() && m_error->code == ErrorCode::cancelled; }

private:
    std::optional<Error> m_error;
};

using Status = Expected<void>;

inline Error makeError(std::string message, ErrorCode code = ErrorCode::failed) { return Error{std::move(message), code}; }
// What long work returns when its Progress says stop; `what` names the work for the user.
inline Error cancelledError(std::string what = "cancelled") { return Error{std::move(what), ErrorCode::cancelled}; }

}  // namespace npu
