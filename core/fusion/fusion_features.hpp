// What the learned fusion classifier sees: per node its op (one-hot over a vocabulary fixed at
// training time) and sizes, per edge the structural facts the runtime's fusion passes test
// (which input, single consumer, x * f(x), load-time constants). docs/fusion-rules.md lists them.
#pragma once

#include "kernel_graph.hpp"

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <string>
#include <vector>

namespace cleave::fusion {

using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using SparseMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

// Features beyond the op one-hot; their order is part of the model file format.
inline constexpr int kOpCategories = 12; // the last: ops in no category
inline constexpr int kNodeNumericFeatures = 10;
inline constexpr int kEdgeFeatures = 13;

// Op kin: op_category's values.
enum OpCategory : int {
    kCategoryConvolution,
    kCategoryMatrixProduct,
    kCategoryNormalisation,
    kCategoryActivation,
    kCategoryUnary, // other unary ops
    kCategoryBinary,
    kCategoryPooling,
    kCategoryReduction, // reductions and softmax
    kCategoryLayout,
    kCategoryGatherScatter, // concatenation, slicing, gathers, padding, resizing
    kCategoryShape,         // shape constants and arithmetic
    kCategoryNone,
};
static_assert(kCategoryNone == kOpCategories - 1);

int op_category(const std::string& op);

struct FusionFeatures {
    Matrix nodes; // per node: op one-hot (vocabulary + "other"), op category one-hot, numerics
    SparseMatrix predecessors; // row-normalised: mean over a node's producer nodes
    SparseMatrix successors;   // row-normalised: mean over a node's consumer nodes
    Matrix edges;              // one row per edge of `edge_list`
    std::vector<Edge> edge_list;
};

// `ops`: the vocabulary; an op outside it falls in the last ("other") slot.
FusionFeatures fusion_features(const graph::Model& model, const std::vector<Edge>& edges,
                               const std::vector<std::string>& ops);

int node_feature_count(const std::vector<std::string>& ops);

} // namespace cleave::fusion
