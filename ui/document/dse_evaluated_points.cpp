#include "ui/document/dse_evaluated_points.hpp"

#include "ui/document/dse_runner.hpp"

#include <algorithm>

namespace cleave::ui {

void DseEvaluatedPoints::merge(const std::vector<dse::Solution>& solutions) {
    if (solutions.empty())
        return;
    // Those seen again move to the end: drop them where they are, then append all.
    std::vector<char> again(points_.size(), 0);
    std::vector<dse::Solution> incoming;
    incoming.reserve(solutions.size());
    for (const auto& s : solutions) {
        auto solution = s;
        const auto it = index_.find(dse::mapping_id(s.mapping));
        if (it != index_.end()) {
            solution.generation = std::min(solution.generation, points_[it->second].generation);
            again[it->second] = 1;
        }
        incoming.push_back(std::move(solution));
    }
    std::size_t kept = 0;
    for (std::size_t i = 0; i < points_.size(); ++i)
        if (!again[i]) {
            if (kept != i)
                points_[kept] = std::move(points_[i]);
            ++kept;
        }
    points_.resize(kept);
    for (auto& s : incoming)
        points_.push_back(std::move(s));
    if (points_.size() > capacity_)
        points_.erase(points_.begin(),
                      points_.begin() + static_cast<std::ptrdiff_t>(points_.size() - capacity_));
    reindex();
}

void DseEvaluatedPoints::clear() {
    points_.clear();
    index_.clear();
}

int DseEvaluatedPoints::find(const partition::Mapping& mapping) const {
    const auto it = index_.find(dse::mapping_id(mapping));
    return it == index_.end() ? -1 : static_cast<int>(it->second);
}

void DseEvaluatedPoints::reindex() {
    index_.clear();
    index_.reserve(points_.size());
    for (std::size_t i = 0; i < points_.size(); ++i)
        index_[dse::mapping_id(points_[i].mapping)] = i;
}

} // namespace cleave::ui
