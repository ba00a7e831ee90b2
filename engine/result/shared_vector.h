#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

namespace npu::engine {

// A vector whose copies share one buffer until one of them is changed (copy on write).
// A cluster step lists every rank of a group with the group's one timeline: sharing it
// makes listing 64 or 1,024 ranks cost a pointer each instead of a copy of every task.
// Reading goes through the const interface (or converts to const std::vector&); any
// non-const access first takes a private copy when the buffer is shared. Like a
// vector's, a non-const iterator is valid only until the next copy of the container.
template <class T>
class SharedVector {
public:
    using value_type = T;
    using size_type = std::size_t;
    using const_iterator = typename std::vector<T>::const_iterator;
    using iterator = typename std::vector<T>::iterator;
    using reference = T&;
    using const_reference = const T&;

    SharedVector() = default;
    SharedVector(std::vector<T> items) : items_(std::make_shared<std::vector<T>>(std::move(items))) {}
    SharedVector(std::initializer_list<T> items) : items_(std::make_shared<std::vector<T>>(items)) {}
    SharedVector& operator=(std::vector<T> items) {
        items_ = std::make_shared<std::vector<T>>(std::move(items));
        return *this;
    }
    SharedVector& operator=(std::initializer_list<T> items) { return *this = std::vector<T>(items); }

    // Reading: never copies.
    const std::vector<T>& get() const { return items_ ? *items_ : none(); }
    operator const std::vector<T>&() const { return get(); }
    size_type size() const { return get().size(); }
    bool empty() const { return get().empty(); }
    const_iterator begin() const { return get().begin(); }
    const_iterator end() const { return get().end(); }
    const T& operator[](size_type i) const { return get()[i]; }
    const T& front() const { return get().front(); }
    const T& back() const { return get().back(); }
    // True when this and other read the same buffer (a rank listed with its group's timeline).
    bool sharesWith(const SharedVector& other) const { return items_ && items_ == other.items_; }

    // Changing: takes a private copy first when the buffer is shared.
    std::vector<T>& edit() {
        if (!items_)
            items_ = std::make_shared<std::vector<T>>();
        else if (items_.use_count() > 1)
            items_ = std::make_shared<std::vector<T>>(*items_);
        return *items_;
    }
    iterator begin() { return edit().begin(); }
    iterator end() { return edit().end(); }
    T& operator[](size_type i) { return edit()[i]; }
    T& back() { return edit().back(); }
    void push_back(const T& item) { edit().push_back(item); }
    void push_back(T&& item) { edit().push_back(std::move(item)); }
    template <class... Args>
    T& emplace_back(Args&&... args) { return edit().emplace_back(std::forward<Args>(args)...); }
    void reserve(size_type n) { edit().reserve(n); }
    void clear() { items_.reset(); }

private:
    static const std::vector<T>& none() {
        static const std::vector<T> none;
        return none;
    }
    std::shared_ptr<std::vector<T>> items_;
};

}  // namespace npu::engine
