#pragma once
/// \file ResultStore.h
/// Results of analyses (power budget, airflow, …) kept by name for one run, so that rules
/// and outputs share one computation. Type-safe access through shared_ptr<const T>.

#include <any>
#include <map>
#include <memory>
#include <string>

namespace rdt::core {

class ResultStore {
public:
    template <typename T>
    void put(const std::string& key, std::shared_ptr<const T> value)
    {
        m_items[key] = std::move(value);
    }
    /// The result stored under `key`, or nullptr when absent (or of another type).
    template <typename T>
    std::shared_ptr<const T> get(const std::string& key) const
    {
        const auto it = m_items.find(key);
        if (it == m_items.end())
            return nullptr;
        const auto* p = std::any_cast<std::shared_ptr<const T>>(&it->second);
        return p ? *p : nullptr;
    }

private:
    std::map<std::string, std::any> m_items;
};

} // namespace rdt::core
