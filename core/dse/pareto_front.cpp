#include "pareto_front.hpp"

#include <pagmo/utils/hypervolume.hpp>

#include <algorithm>

namespace cleave::dse {

bool dominates(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size())
        return false;
    bool better = false;
    for (std::size_t j = 0; j < a.size(); ++j) {
        if (a[j] > b[j])
            return false;
        better = better || a[j] < b[j];
    }
    return better;
}

std::vector<std::size_t> non_dominated(const std::vector<std::vector<double>>& points) {
    std::vector<std::size_t> front;
    for (std::size_t i = 0; i < points.size(); ++i) {
        bool keep = true;
        for (std::size_t j = 0; j < points.size() && keep; ++j)
            keep = !(dominates(points[j], points[i]) || (j < i && points[j] == points[i]));
        if (keep)
            front.push_back(i);
    }
    return front;
}

double hypervolume(const std::vector<std::vector<double>>& points,
                   const std::vector<double>& reference) {
    std::vector<std::vector<double>> inside;
    for (const auto& p : points) {
        bool below = p.size() == reference.size();
        for (std::size_t j = 0; j < p.size() && below; ++j)
            below = p[j] < reference[j];
        if (below)
            inside.push_back(p);
    }
    if (inside.empty())
        return 0;
    if (reference.size() == 1) {
        double best = reference[0];
        for (const auto& p : inside)
            best = std::min(best, p[0]);
        return reference[0] - best;
    }
    return pagmo::hypervolume(inside, true).compute(reference);
}

} // namespace cleave::dse
