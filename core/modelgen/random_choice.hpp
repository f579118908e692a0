// The draws the random spaces make from one engine: a number below n, or one of a list's values.
// The same engine state gives the same draws, so a seed gives the same networks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>

namespace cleave::modelgen {

class RandomChoice {
public:
    explicit RandomChoice(std::mt19937_64& random) : random_(random) {}

    int pick(int n) { return static_cast<int>(random_() % static_cast<std::uint64_t>(n)); }

    template <typename Values> auto one_of(const Values& values) {
        return values[static_cast<std::size_t>(pick(static_cast<int>(values.size())))];
    }

private:
    std::mt19937_64& random_;
};

} // namespace cleave::modelgen
