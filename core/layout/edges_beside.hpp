// Edges drawn beside the graph rather than by dot: dot adds a virtual node for every rank an edge
// crosses, and its time grows with them, so the longest edges that other paths already imply go
// beside, as arcs from the producer's right side down to the consumer's.
#pragma once

#include "graph_layout.hpp"

#include <cstddef>
#include <vector>

namespace cleave::layout {

// Roughly the ranks dot will give: longest path from the inputs, then, from the outputs back, a
// node with no more producers than consumers moved down to just above its first consumer, as
// dot's network simplex does with a Constant read by one node far below the inputs. Nodes are
// in topological order, so one pass each way settles every rank.
std::vector<int> estimated_ranks(std::size_t node_count, const std::vector<fusion::Edge>& edges);

// The ranks `e` crosses.
int rank_span(const fusion::Edge& e, const std::vector<int>& rank);

// The edges to leave out of dot's layout. DenseNet's concatenations (every layer of a block
// reads the outputs of all layers before it) give dot 27,000 virtual nodes and 26 s of work;
// an edge that another path already implies adds no ordering, so the longest such edges go until
// the virtual nodes fit the budget. Removing implied edges of a DAG keeps every path, so the
// remaining graph still orders every producer above its consumers.
std::vector<bool> edges_beside(std::size_t node_count, const std::vector<fusion::Edge>& edges,
                               const std::vector<int>& rank, std::size_t budget);

// The right edge of every box that overlaps the rows from the producer's middle to the
// consumer's.
double right_of_between(const Rect& from, const Rect& to, const std::vector<Rect>& nodes,
                        const std::vector<Rect>& groups);

// An arc from the producer's right side down to the consumer's, right of `right` (everything
// between); longer arcs further out, so that arcs over one stretch do not all lie on one line.
EdgePath arc_beside(const fusion::Edge& e, int ranks_crossed, const Rect& from, const Rect& to,
                    double right);

} // namespace cleave::layout
