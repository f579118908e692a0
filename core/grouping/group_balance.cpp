#include "group_balance.hpp"

#include <stdexcept>

namespace cleave::grouping {

std::vector<std::vector<double>> group_sums(const FeatureMatrix& values,
                                            const std::vector<int>& group_of, int groups) {
    const std::size_t features = values.empty() ? 0 : values.front().size();
    std::vector<std::vector<double>> sums(groups, std::vector<double>(features, 0.0));
    for (std::size_t d = 0; d < values.size(); ++d)
        for (std::size_t f = 0; f < features; ++f)
            sums[group_of[d]][f] += values[d][f];
    return sums;
}

double balance_objective(const FeatureMatrix& values, const std::vector<int>& group_of,
                         int groups) {
    const auto sums = group_sums(values, group_of, groups);
    const std::size_t features = values.empty() ? 0 : values.front().size();
    double objective = 0;
    for (std::size_t f = 0; f < features; ++f) {
        double mean = 0;
        for (int g = 0; g < groups; ++g)
            mean += sums[g][f];
        mean /= groups;
        double variance = 0;
        for (int g = 0; g < groups; ++g)
            variance += (sums[g][f] - mean) * (sums[g][f] - mean);
        objective += variance / groups;
    }
    return objective;
}

GroupState::GroupState(const FeatureMatrix& values, std::vector<int> group_of, int groups)
    : features_(values.empty() ? 0 : values.front().size()), groups_(groups),
      group_of_(std::move(group_of)), sizes_(groups, 0), sums_(groups * features_, 0.0),
      totals_(features_, 0.0) {
    if (group_of_.size() != values.size())
        throw std::invalid_argument("GroupState: one group per device expected");
    values_.reserve(values.size() * features_);
    for (std::size_t d = 0; d < values.size(); ++d) {
        const int g = group_of_[d];
        if (g < 0 || g >= groups)
            throw std::invalid_argument("GroupState: group out of range");
        ++sizes_[g];
        for (std::size_t f = 0; f < features_; ++f) {
            values_.push_back(values[d][f]);
            sums_[g * features_ + f] += values[d][f];
            totals_[f] += values[d][f];
        }
    }
    refresh();
}

void GroupState::refresh() {
    double squares = 0, mean_squares = 0;
    for (std::size_t f = 0; f < features_; ++f) {
        const double mean = totals_[f] / groups_;
        mean_squares += mean * mean;
        for (int g = 0; g < groups_; ++g)
            squares += sums_[g * features_ + f] * sums_[g * features_ + f];
    }
    objective_ = squares / groups_ - mean_squares;
}

double GroupState::move_delta(std::size_t d, int to) const {
    const double* x = row(d);
    const double* from_sums = sums_of(group_of_[d]);
    const double* to_sums = sums_of(to);
    double delta = 0;
    for (std::size_t f = 0; f < features_; ++f)
        delta += x[f] * (to_sums[f] - from_sums[f] + x[f]);
    return 2.0 * delta / groups_;
}

double GroupState::swap_delta(std::size_t d, std::size_t e) const {
    // d's group gains y = x_e - x_d, e's group loses it: a move of y from e's group to d's.
    const double* xd = row(d);
    const double* xe = row(e);
    const double* d_sums = sums_of(group_of_[d]);
    const double* e_sums = sums_of(group_of_[e]);
    double delta = 0;
    for (std::size_t f = 0; f < features_; ++f) {
        const double y = xe[f] - xd[f];
        delta += y * (d_sums[f] - e_sums[f] + y);
    }
    return 2.0 * delta / groups_;
}

void GroupState::move(std::size_t d, int to) {
    objective_ += move_delta(d, to);
    const int from = group_of_[d];
    const double* x = row(d);
    double* from_sums = sums_of(from);
    double* to_sums = sums_of(to);
    for (std::size_t f = 0; f < features_; ++f) {
        from_sums[f] -= x[f];
        to_sums[f] += x[f];
    }
    --sizes_[from];
    ++sizes_[to];
    group_of_[d] = to;
}

void GroupState::swap(std::size_t d, std::size_t e) {
    objective_ += swap_delta(d, e);
    const int gd = group_of_[d], ge = group_of_[e];
    const double* xd = row(d);
    const double* xe = row(e);
    double* d_sums = sums_of(gd);
    double* e_sums = sums_of(ge);
    for (std::size_t f = 0; f < features_; ++f) {
        const double y = xe[f] - xd[f];
        d_sums[f] += y;
        e_sums[f] -= y;
    }
    group_of_[d] = ge;
    group_of_[e] = gd;
}

} // namespace cleave::grouping
