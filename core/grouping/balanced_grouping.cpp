#include "balanced_grouping.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>

namespace cleave::grouping {

namespace {

void check_groups(const FeatureMatrix& values, int groups) {
    if (groups < 1 || static_cast<std::size_t>(groups) > values.size())
        throw std::invalid_argument("grouping: need 1 <= groups <= devices");
}

// Improvements smaller than this are rounding, not progress.
double tolerance(double objective) {
    return 1e-12 * (1.0 + std::abs(objective));
}

double weight(const std::vector<double>& row) {
    return std::accumulate(row.begin(), row.end(), 0.0);
}

std::vector<int> random_assignment(std::size_t devices, int groups, std::mt19937_64& rng) {
    // A random permutation's first G devices seed one group each; the rest land anywhere.
    // (rng() % n rather than std::uniform_int_distribution: the same numbers on every library.)
    std::vector<std::size_t> order(devices);
    std::iota(order.begin(), order.end(), 0);
    for (std::size_t i = devices; i > 1; --i)
        std::swap(order[i - 1], order[rng() % i]);
    std::vector<int> group_of(devices);
    for (std::size_t i = 0; i < devices; ++i)
        group_of[order[i]] = i < static_cast<std::size_t>(groups)
                                 ? static_cast<int>(i)
                                 : static_cast<int>(rng() % static_cast<std::uint64_t>(groups));
    return group_of;
}

// `moves` random devices each moved to a random other group, never emptying a group.
std::vector<int> kicked(std::vector<int> group_of, int groups, int moves, std::mt19937_64& rng) {
    if (groups < 2)
        return group_of;
    std::vector<int> size(groups, 0);
    for (const int g : group_of)
        ++size[g];
    for (int k = 0; k < moves; ++k) {
        const std::size_t d = rng() % group_of.size();
        if (size[group_of[d]] < 2)
            continue;
        const int to = (group_of[d] + 1 + static_cast<int>(rng() % (groups - 1))) % groups;
        --size[group_of[d]];
        ++size[to];
        group_of[d] = to;
    }
    return group_of;
}

} // namespace

std::vector<int> canonical_groups(const std::vector<int>& group_of) {
    std::vector<int> label;
    std::vector<int> result(group_of.size());
    for (std::size_t d = 0; d < group_of.size(); ++d) {
        const int g = group_of[d];
        if (g >= static_cast<int>(label.size()))
            label.resize(g + 1, -1);
        if (label[g] < 0)
            label[g] = *std::max_element(label.begin(), label.end()) + 1;
        result[d] = label[g];
    }
    return result;
}

Grouping greedy_grouping(const FeatureMatrix& values, int groups) {
    check_groups(values, groups);
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return weight(values[a]) > weight(values[b]);
    });
    std::vector<double> load(groups, 0.0);
    std::vector<int> size(groups, 0);
    std::vector<int> group_of(values.size(), 0);
    for (const std::size_t d : order) {
        int lightest = 0;
        for (int g = 1; g < groups; ++g)
            if (load[g] < load[lightest] || (load[g] == load[lightest] && size[g] < size[lightest]))
                lightest = g;
        // Whatever the loads, a device must open an empty group once only as many remain.
        const int empty = static_cast<int>(std::count(size.begin(), size.end(), 0));
        if (empty > 0 && size[lightest] > 0)
            lightest = static_cast<int>(std::find(size.begin(), size.end(), 0) - size.begin());
        group_of[d] = lightest;
        load[lightest] += weight(values[d]);
        ++size[lightest];
    }
    return {canonical_groups(group_of), balance_objective(values, group_of, groups)};
}

Grouping descend(const FeatureMatrix& values, std::vector<int> group_of, int groups,
                 bool best_improvement, std::int64_t* steps) {
    check_groups(values, groups);
    GroupState state(values, std::move(group_of), groups);
    const std::size_t devices = state.devices();
    for (;;) {
        const double eps = tolerance(state.objective());
        double best = -eps;
        std::size_t best_d = 0, best_e = 0;
        int best_to = -1; // >= 0: a move to that group; -1 with best < -eps: a swap
        bool found = false;
        for (std::size_t d = 0; d < devices && !(found && !best_improvement); ++d) {
            const int from = state.group_of()[d];
            if (state.size(from) > 1)
                for (int to = 0; to < groups; ++to) {
                    if (to == from)
                        continue;
                    const double delta = state.move_delta(d, to);
                    if (delta < best) {
                        best = delta, best_d = d, best_to = to, found = true;
                        if (!best_improvement)
                            break;
                    }
                }
            for (std::size_t e = d + 1; e < devices && !(found && !best_improvement); ++e) {
                if (state.group_of()[e] == from)
                    continue;
                const double delta = state.swap_delta(d, e);
                if (delta < best)
                    best = delta, best_d = d, best_e = e, best_to = -1, found = true;
            }
        }
        if (!found)
            break;
        if (best_to >= 0)
            state.move(best_d, best_to);
        else
            state.swap(best_d, best_e);
        if (steps)
            ++*steps;
    }
    const auto result = canonical_groups(state.group_of());
    return {result, balance_objective(values, result, groups)};
}

SearchResult balance_local_search(const FeatureMatrix& values, int groups,
                                  const SearchOptions& options) {
    check_groups(values, groups);
    SearchResult result;
    std::mt19937_64 rng(options.seed);
    std::vector<double> found;
    for (int run = 0; run <= std::max(0, options.restarts); ++run) {
        const auto start = run == 0 ? greedy_grouping(values, groups).group_of
                                    : random_assignment(values.size(), groups, rng);
        auto local = descend(values, start, groups, options.best_improvement, &result.steps);
        for (int kick = 0; kick < options.kicks; ++kick) {
            auto next = descend(values, kicked(local.group_of, groups, options.kick_moves, rng),
                                groups, options.best_improvement, &result.steps);
            if (next.objective <= local.objective + tolerance(local.objective))
                local = std::move(next);
        }
        found.push_back(local.objective);
        if (run == 0 || local.objective < result.best.objective - tolerance(result.best.objective))
            result.best = std::move(local);
    }
    result.starts = static_cast<int>(found.size());
    const double eps = 1e-9 * (1.0 + std::abs(result.best.objective));
    result.starts_reaching_best = static_cast<int>(std::count_if(
        found.begin(), found.end(), [&](double o) { return o <= result.best.objective + eps; }));
    return result;
}

namespace {

class ExactSearch {
public:
    ExactSearch(const FeatureMatrix& values, int groups) : groups_(groups) {
        // Heavy devices first: their placement decides most, so bounds bite early.
        order_.resize(values.size());
        std::iota(order_.begin(), order_.end(), 0);
        std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
            return weight(values[a]) > weight(values[b]);
        });
        features_ = values.front().size();
        for (const auto d : order_)
            rows_.push_back(values[d]);
        remaining_.assign(rows_.size() + 1, std::vector<double>(features_, 0.0));
        non_negative_ = true;
        for (std::size_t i = rows_.size(); i-- > 0;)
            for (std::size_t f = 0; f < features_; ++f) {
                remaining_[i][f] = remaining_[i + 1][f] + rows_[i][f];
                non_negative_ = non_negative_ && rows_[i][f] >= 0;
            }
        constant_ = 0;
        for (std::size_t f = 0; f < features_; ++f)
            constant_ += (remaining_[0][f] / groups) * (remaining_[0][f] / groups);
        sums_.assign(groups, std::vector<double>(features_, 0.0));
        assignment_.assign(rows_.size(), 0);
    }

    void seed(const Grouping& known) {
        best_objective_ = known.objective;
        best_.assign(rows_.size(), 0);
        for (std::size_t i = 0; i < rows_.size(); ++i)
            best_[i] = known.group_of[order_[i]];
    }

    Grouping solve() {
        visit(0, 0);
        std::vector<int> group_of(rows_.size());
        for (std::size_t i = 0; i < rows_.size(); ++i)
            group_of[order_[i]] = best_[i];
        return {canonical_groups(group_of), best_objective_};
    }

private:
    // (1/G) sum_f min over spreads of the remaining total of sum_g (S_gf + r_g)^2 - constant.
    double lower_bound(std::size_t next) const {
        double squares = 0;
        std::vector<double> s(groups_);
        for (std::size_t f = 0; f < features_; ++f) {
            for (int g = 0; g < groups_; ++g)
                s[g] = sums_[g][f];
            std::sort(s.begin(), s.end());
            const double rest = remaining_[next][f];
            double prefix = std::accumulate(s.begin(), s.end(), 0.0);
            for (int k = groups_; k >= 1; --k) {
                const double level = (prefix + rest) / k;
                if (level >= s[k - 1] || k == 1) {
                    squares += k * level * level;
                    for (int g = k; g < groups_; ++g)
                        squares += s[g] * s[g];
                    break;
                }
                prefix -= s[k - 1];
            }
        }
        return squares / groups_ - constant_;
    }

    double objective() const {
        double squares = 0;
        for (const auto& group : sums_)
            for (const double s : group)
                squares += s * s;
        return squares / groups_ - constant_;
    }

    void visit(std::size_t next, int opened) {
        if (next == rows_.size()) {
            if (opened < groups_)
                return;
            const double value = objective();
            if (value < best_objective_ - tolerance(best_objective_)) {
                best_objective_ = value;
                best_ = assignment_;
            }
            return;
        }
        if (non_negative_ && lower_bound(next) >= best_objective_ - tolerance(best_objective_))
            return;
        const std::size_t left = rows_.size() - next;
        const int last = std::min(opened, groups_ - 1); // may open group `opened`
        for (int g = 0; g <= last; ++g) {
            // Groups still to open need a device each.
            if (static_cast<std::size_t>(groups_ - opened - (g == opened ? 1 : 0)) > left - 1)
                continue;
            assignment_[next] = g;
            for (std::size_t f = 0; f < features_; ++f)
                sums_[g][f] += rows_[next][f];
            visit(next + 1, g == opened ? opened + 1 : opened);
            for (std::size_t f = 0; f < features_; ++f)
                sums_[g][f] -= rows_[next][f];
        }
    }

    int groups_;
    std::size_t features_ = 0;
    std::vector<std::size_t> order_;
    FeatureMatrix rows_;
    FeatureMatrix remaining_; // remaining_[i]: feature totals of devices i.. in search order
    bool non_negative_ = true;
    double constant_ = 0; // sum_f (total_f / G)^2
    std::vector<std::vector<double>> sums_;
    std::vector<int> assignment_;
    std::vector<int> best_;
    double best_objective_ = std::numeric_limits<double>::infinity();
};

} // namespace

Grouping balance_exact(const FeatureMatrix& values, int groups) {
    check_groups(values, groups);
    if (values.size() > kExactMaxDevices)
        throw std::invalid_argument("balance_exact: too many devices");
    ExactSearch search(values, groups);
    // The greedy descent's objective as the first bound; the enumeration only replaces it with a
    // strictly better partition.
    search.seed(descend(values, greedy_grouping(values, groups).group_of, groups));
    return search.solve();
}

} // namespace cleave::grouping
