// What a DSE search evaluated beyond its front, for the DSE tab to show: the distinct mappings of
// every population reported (dse::SearchSettings::report_population), each with the figures it
// had last, the generation it was first seen in and whether it fits in memory. Bounded: at most
// `capacity` mappings, the ones seen least recently dropped first.
#pragma once

#include "core/dse/nsga2_search.hpp"

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

namespace cleave::ui {

class DseEvaluatedPoints {
public:
    static constexpr std::size_t kDefaultCapacity = 20000;

    explicit DseEvaluatedPoints(std::size_t capacity = kDefaultCapacity) : capacity_(capacity) {}

    // Adds new mappings at the end (the most recent); a mapping already kept takes the new
    // figures (its first generation stays) and moves to the end.
    void merge(const std::vector<dse::Solution>& solutions);
    void clear();
    const std::vector<dse::Solution>& points() const { return points_; }
    std::size_t size() const { return points_.size(); }
    std::size_t capacity() const { return capacity_; }
    // The index of the mapping in points(), or -1.
    int find(const partition::Mapping& mapping) const;

private:
    void reindex();

    std::size_t capacity_;
    std::vector<dse::Solution> points_; // least recently seen first
    std::unordered_map<std::string, std::size_t> index_;
};

} // namespace cleave::ui
