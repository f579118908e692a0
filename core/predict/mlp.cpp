#include "mlp.hpp"

#include "core/adam.hpp"
#include "core/json_reader.hpp"
#include "core/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <stdexcept>

namespace cleave::predict {

namespace {

Eigen::MatrixXd relu(const Eigen::MatrixXd& m) {
    return m.cwiseMax(0.0);
}

Eigen::MatrixXd he_init(Eigen::Index rows, Eigen::Index cols, std::mt19937& random) {
    std::normal_distribution<double> normal(0.0, std::sqrt(2.0 / static_cast<double>(rows)));
    Eigen::MatrixXd m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i)
        m.data()[i] = normal(random);
    return m;
}

nlohmann::json matrix_json(const Eigen::MatrixXd& m) {
    nlohmann::json rows = nlohmann::json::array();
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        nlohmann::json row = nlohmann::json::array();
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            row.push_back(m(r, c));
        rows.push_back(std::move(row));
    }
    return rows;
}

// The `rows` x `cols` matrix `key` of `doc`, an array of rows (`pointer`: where `doc` is).
Eigen::MatrixXd matrix_from(const JsonReader& reader, const nlohmann::json& doc,
                            const std::string& pointer, const char* key, Eigen::Index rows,
                            Eigen::Index cols) {
    const std::string what = std::to_string(rows) + " rows of " + std::to_string(cols) + " numbers";
    const auto* list = reader.array(doc, pointer, key, true, what);
    const std::string at = child_pointer(pointer, key);
    if (static_cast<Eigen::Index>(list->size()) != rows)
        reader.fail(at, "expected " + what + ", found " + std::to_string(list->size()) + " rows");
    Eigen::MatrixXd m(rows, cols);
    for (Eigen::Index r = 0; r < rows; ++r) {
        const auto row = reader.finite_numbers_at((*list)[static_cast<std::size_t>(r)],
                                                  child_pointer(at, static_cast<std::size_t>(r)),
                                                  static_cast<std::size_t>(cols), "a row");
        for (Eigen::Index c = 0; c < cols; ++c)
            m(r, c) = row[static_cast<std::size_t>(c)];
    }
    return m;
}

} // namespace

Eigen::MatrixXd MlpRegressor::inputs(const double* features, std::size_t rows,
                                     std::size_t columns) const {
    Eigen::MatrixXd x(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(columns));
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < columns; ++j)
            x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) =
                std::log1p(std::max(0.0, features[i * columns + j]));
    if (mean_.size() == x.cols())
        x = ((x.rowwise() - mean_.transpose()).array().rowwise() / scale_.transpose().array())
                .matrix();
    return x;
}

Eigen::VectorXd MlpRegressor::forward(const Eigen::MatrixXd& x) const {
    const Eigen::MatrixXd h1 = relu((x * w1_).rowwise() + b1_);
    const Eigen::MatrixXd h2 = relu((h1 * w2_).rowwise() + b2_);
    return ((h2 * w3_).rowwise() + b3_).col(0);
}

void MlpRegressor::fit(const RegressionSamples& samples, unsigned seed) {
    const auto p = samples.feature_names.size();
    if (samples.rows < 10 || samples.x.size() != samples.rows * p ||
        samples.y.size() != samples.rows)
        throw std::invalid_argument("mlp: fewer than 10 samples, or sizes that do not match");
    baseline_ = NominalRoofline::of(samples.feature_names);
    mean_.resize(0);
    Eigen::MatrixXd x = inputs(samples.x.data(), samples.rows, p);
    mean_ = x.colwise().mean().transpose();
    scale_ =
        ((x.rowwise() - mean_.transpose()).colwise().squaredNorm() / static_cast<double>(x.rows()))
            .array()
            .sqrt()
            .max(1e-9)
            .transpose();
    x = ((x.rowwise() - mean_.transpose()).array().rowwise() / scale_.transpose().array()).matrix();
    Eigen::VectorXd y(x.rows());
    for (std::size_t i = 0; i < samples.rows; ++i) {
        if (!(samples.y[i] > 0))
            throw std::invalid_argument("mlp: targets must be positive");
        y(static_cast<Eigen::Index>(i)) = std::log(samples.y[i] / baseline_.us(&samples.x[i * p]));
    }

    {
        const std::vector<double> targets(y.data(), y.data() + y.size());
        target_min_ = quantile(targets, 0.005);
        target_max_ = quantile(targets, 0.995);
    }
    std::mt19937 random(seed);
    std::vector<Eigen::Index> order(static_cast<std::size_t>(x.rows()));
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    std::shuffle(order.begin(), order.end(), random);
    const auto validation = std::max<std::size_t>(1, order.size() / 10);
    const std::vector<Eigen::Index> held(order.begin(),
                                         order.begin() + static_cast<long>(validation));
    std::vector<Eigen::Index> train(order.begin() + static_cast<long>(validation), order.end());
    const Eigen::MatrixXd xv = x(held, Eigen::all);
    const Eigen::VectorXd yv = y(held);

    const auto inputs_count = static_cast<Eigen::Index>(p);
    w1_ = he_init(inputs_count, options_.hidden1, random);
    w2_ = he_init(options_.hidden1, options_.hidden2, random);
    w3_ = he_init(options_.hidden2, 1, random);
    b1_ = Eigen::RowVectorXd::Zero(options_.hidden1);
    b2_ = Eigen::RowVectorXd::Zero(options_.hidden2);
    b3_ = Eigen::RowVectorXd::Constant(1, y.mean());
    using AdamState = Adam<Eigen::MatrixXd>;
    AdamState s1(w1_), s2(w2_), s3(w3_), sb1(b1_), sb2(b2_), sb3(b3_);

    auto best = std::make_tuple(w1_, w2_, w3_, b1_, b2_, b3_);
    double best_error = std::numeric_limits<double>::infinity();
    int step = 0;
    for (int epoch = 0; epoch < options_.epochs; ++epoch) {
        std::shuffle(train.begin(), train.end(), random);
        for (std::size_t start = 0; start < train.size();
             start += static_cast<std::size_t>(options_.batch)) {
            const auto end =
                std::min(train.size(), start + static_cast<std::size_t>(options_.batch));
            const std::vector<Eigen::Index> rows(train.begin() + static_cast<long>(start),
                                                 train.begin() + static_cast<long>(end));
            const Eigen::MatrixXd xb = x(rows, Eigen::all);
            const double n = static_cast<double>(rows.size());
            const Eigen::MatrixXd z1 = (xb * w1_).rowwise() + b1_;
            const Eigen::MatrixXd h1 = relu(z1);
            const Eigen::MatrixXd z2 = (h1 * w2_).rowwise() + b2_;
            const Eigen::MatrixXd h2 = relu(z2);
            const Eigen::VectorXd out = ((h2 * w3_).rowwise() + b3_).col(0);
            const Eigen::MatrixXd d3 = (2.0 / n) * (out - y(rows));
            const Eigen::MatrixXd d2 =
                (d3 * w3_.transpose()).cwiseProduct((z2.array() > 0).cast<double>().matrix());
            const Eigen::MatrixXd d1 =
                (d2 * w2_.transpose()).cwiseProduct((z1.array() > 0).cast<double>().matrix());
            ++step;
            const double decay = options_.weight_decay;
            const double rate = options_.learning_rate;
            s3.step(w3_, Eigen::MatrixXd(h2.transpose() * d3 + decay * w3_), rate, step);
            s2.step(w2_, Eigen::MatrixXd(h1.transpose() * d2 + decay * w2_), rate, step);
            s1.step(w1_, Eigen::MatrixXd(xb.transpose() * d1 + decay * w1_), rate, step);
            sb3.step(b3_, Eigen::MatrixXd(d3.colwise().sum()), rate, step);
            sb2.step(b2_, Eigen::MatrixXd(d2.colwise().sum()), rate, step);
            sb1.step(b1_, Eigen::MatrixXd(d1.colwise().sum()), rate, step);
        }
        const double error = (forward(xv) - yv).squaredNorm() / static_cast<double>(yv.size());
        if (error < best_error) {
            best_error = error;
            best = std::make_tuple(w1_, w2_, w3_, b1_, b2_, b3_);
        }
    }
    std::tie(w1_, w2_, w3_, b1_, b2_, b3_) = best;
}

double MlpRegressor::predict(const double* features) const {
    double out = 0;
    predict_rows(features, 1, static_cast<std::size_t>(mean_.size()), &out);
    return out;
}

void MlpRegressor::predict_rows(const double* features, std::size_t rows, std::size_t columns,
                                double* out) const {
    if (w1_.size() == 0)
        throw std::logic_error("mlp: predict before fit or load");
    const Eigen::VectorXd log_ratio = forward(inputs(features, rows, columns));
    for (std::size_t i = 0; i < rows; ++i)
        out[i] = baseline_.us(features + i * columns) *
                 std::exp(std::clamp(log_ratio(static_cast<Eigen::Index>(i)), target_min_,
                                     target_max_));
}

std::string MlpRegressor::save() const {
    nlohmann::json doc{{"target", "log_us_over_baseline"},
                       {"mean", std::vector<double>(mean_.data(), mean_.data() + mean_.size())},
                       {"scale", std::vector<double>(scale_.data(), scale_.data() + scale_.size())},
                       {"w1", matrix_json(w1_)},
                       {"b1", matrix_json(b1_)},
                       {"w2", matrix_json(w2_)},
                       {"b2", matrix_json(b2_)},
                       {"w3", matrix_json(w3_)},
                       {"b3", matrix_json(b3_)},
                       {"target_min", target_min_},
                       {"target_max", target_max_}};
    baseline_.write(doc);
    return doc.dump();
}

void MlpRegressor::load(const std::string& text, std::size_t feature_count) {
    const JsonReader reader("");
    const auto doc = reader.parse(text, "an MLP model");
    reader.expect_object(doc, "", "an MLP model");
    if (reader.string(doc, "", "target", false) != "log_us_over_baseline")
        reader.fail("/target", "expected \"log_us_over_baseline\"");
    const auto p = static_cast<Eigen::Index>(feature_count);
    auto baseline = NominalRoofline::read(doc, feature_count);
    const auto width = [&](const char* key) { // a layer's width, from its bias row
        const auto* bias = reader.array(doc, "", key, true, "one row of biases");
        return bias->empty() || !(*bias)[0].is_array() ? Eigen::Index{0}
                                                        : static_cast<Eigen::Index>((*bias)[0].size());
    };
    const auto h1 = width("b1"), h2 = width("b2");
    w1_ = matrix_from(reader, doc, "", "w1", p, h1);
    b1_ = matrix_from(reader, doc, "", "b1", 1, h1);
    w2_ = matrix_from(reader, doc, "", "w2", h1, h2);
    b2_ = matrix_from(reader, doc, "", "b2", 1, h2);
    w3_ = matrix_from(reader, doc, "", "w3", h2, 1);
    b3_ = matrix_from(reader, doc, "", "b3", 1, 1);
    const auto mean = reader.finite_numbers(doc, "", "mean", feature_count, "one per feature");
    const auto scale = reader.finite_numbers(doc, "", "scale", feature_count, "one per feature");
    mean_ = Eigen::Map<const Eigen::VectorXd>(mean.data(), p);
    scale_ = Eigen::Map<const Eigen::VectorXd>(scale.data(), p);
    if ((scale_.array() <= 0).any())
        reader.fail("/scale", "expected numbers above 0");
    target_min_ = reader.finite(doc, "", "target_min");
    target_max_ = reader.finite(doc, "", "target_max");
    if (target_min_ > target_max_)
        reader.fail("/target_max", "expected at least target_min");
    baseline_ = std::move(baseline);
}

} // namespace cleave::predict
