// The balance of a grouping (Arch2End Eq. 6): the sum over features of the variance across
// groups of each group's feature sum, and the running group sums that give the change a move or
// swap makes in O(F), without recomputing the whole objective.
#pragma once

#include <cstddef>
#include <vector>

namespace cleave::grouping {

// values[d][f]: device d's (normalised) feature f. group_of[d] in [0, groups).
using FeatureMatrix = std::vector<std::vector<double>>;

// sum_f Var_g(sum_{d in g} x[d][f]), the population variance over the `groups` groups.
double balance_objective(const FeatureMatrix& values, const std::vector<int>& group_of, int groups);

// Per group: its feature sums.
std::vector<std::vector<double>> group_sums(const FeatureMatrix& values,
                                            const std::vector<int>& group_of, int groups);

// An assignment with its group sums and sizes kept up to date. With the mean of each feature's
// group sums fixed (total / G), Var_g = (1/G) sum_g S_gf^2 - (total_f / G)^2, so a move of x
// from group a to b changes the objective by (2/G) sum_f x_f (S_bf - S_af + x_f).
class GroupState {
public:
    GroupState(const FeatureMatrix& values, std::vector<int> group_of, int groups);

    int groups() const { return groups_; }
    std::size_t devices() const { return group_of_.size(); }
    const std::vector<int>& group_of() const { return group_of_; }
    int size(int group) const { return sizes_[group]; }
    double sum(int group, std::size_t feature) const { return sums_[group * features_ + feature]; }
    double objective() const { return objective_; }

    // The change in the objective if device d moved to group `to` (d's group != to).
    double move_delta(std::size_t d, int to) const;
    // The change if devices d and e (in different groups) traded groups.
    double swap_delta(std::size_t d, std::size_t e) const;
    void move(std::size_t d, int to);
    void swap(std::size_t d, std::size_t e);
    // Recomputes the objective from the sums (drops accumulated rounding).
    void refresh();

private:
    const double* row(std::size_t d) const { return values_.data() + d * features_; }
    double* sums_of(int group) { return sums_.data() + group * features_; }
    const double* sums_of(int group) const { return sums_.data() + group * features_; }

    std::size_t features_;
    int groups_;
    std::vector<double> values_; // devices x features, flat
    std::vector<int> group_of_;
    std::vector<int> sizes_;
    std::vector<double> sums_; // groups x features, flat
    std::vector<double> totals_;
    double objective_ = 0;
};

} // namespace cleave::grouping
