// Adam (Kingma and Ba, 2015), the one optimiser the learned models train with (the MLP
// predictor, the learned fusion classifier): per parameter block, moving averages of the
// gradient and of its square, corrected for their start at zero, and a step of `rate` along
// their ratio.
#pragma once

#include <cmath>

namespace cleave {

template <class Matrix>
class Adam {
public:
    // Moments of a parameter block shaped like `like`, at zero.
    explicit Adam(const Matrix& like)
        : m_(Matrix::Zero(like.rows(), like.cols())), v_(Matrix::Zero(like.rows(), like.cols())) {}

    // Moves `parameter` against `gradient`; `step` counts from 1.
    template <class Parameter, class Gradient>
    void step(Parameter& parameter, const Gradient& gradient, double rate, int step) {
        m_ = kBeta1 * m_ + (1 - kBeta1) * gradient;
        v_ = kBeta2 * v_ + (1 - kBeta2) * gradient.cwiseProduct(gradient);
        const double c1 = 1 - std::pow(kBeta1, step), c2 = 1 - std::pow(kBeta2, step);
        parameter.array() -= rate * (m_.array() / c1) / ((v_.array() / c2).sqrt() + kEpsilon);
    }

private:
    static constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEpsilon = 1e-8;
    Matrix m_, v_;
};

} // namespace cleave
