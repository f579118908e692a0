// Graphviz's dot behind DotInput: boxes keep the sizes given and stack top to bottom, every edge
// comes back in input order ending at its consumer, a group is its members' rectangle with a
// margin or a dot cluster that nothing else enters, and edges past the virtual node budget are
// drawn beside.
#include "core/layout/dot_layout.hpp"
#include "layout_checks.hpp"

#include <QtTest>
#include <cmath>

using namespace cleave;
using layout::DotInput;
using layout::Rect;

namespace {

// A chain of `count` boxes of 72 x 36 points, box i feeding box i + 1.
DotInput chain(int count) {
    DotInput in;
    for (int i = 0; i < count; ++i)
        in.sizes.push_back({72, 36});
    for (int i = 0; i + 1 < count; ++i)
        in.edges.push_back({i, i + 1, i});
    in.light.assign(in.edges.size(), false);
    return in;
}

bool near(double a, double b, double tolerance = 0.01) {
    return std::abs(a - b) <= tolerance;
}

Rect padded(Rect r, double padding) {
    return {r.x - padding, r.y - padding, r.width + 2 * padding, r.height + 2 * padding};
}

} // namespace

class DotLayoutTest : public QObject {
    Q_OBJECT

private slots:
    void boxesKeepTheirSizesAndStackTopToBottom() {
        auto in = chain(3);
        in.sizes = {{72, 36}, {144, 36}, {36, 72}};
        const auto layout = layout::dot_layout(in, "a chain");
        QCOMPARE(layout.nodes.size(), std::size_t{3});
        for (std::size_t i = 0; i < 3; ++i) {
            QCOMPARE(layout.nodes[i].width, in.sizes[i].width);
            QCOMPARE(layout.nodes[i].height, in.sizes[i].height);
            QVERIFY(layout.bounds.contains(layout.nodes[i]));
        }
        // At least dot's rank separation (0.3 inch) between a box and the next.
        QVERIFY(layout.nodes[1].y - layout.nodes[0].bottom() >= 0.3 * 72 - 0.01);
        QVERIFY(layout.nodes[2].y - layout.nodes[1].bottom() >= 0.3 * 72 - 0.01);
        // One straight column: the boxes share their centre line.
        const double centre = layout.nodes[0].x + 36;
        QVERIFY(near(layout.nodes[1].x + 72, centre));
        QVERIFY(near(layout.nodes[2].x + 18, centre));
        QCOMPARE(layout.bounds.x, 0.0);
        QCOMPARE(layout.bounds.y, 0.0);
        QVERIFY(layout.kernels.empty());
    }

    void edgesRunFromProducerToConsumerInInputOrder() {
        auto in = chain(3);
        in.edges.push_back({0, 2, 9}); // a skip connection
        in.light.push_back(true);      // from a load-time constant: a light edge
        const auto layout = layout::dot_layout(in, "a chain with a skip");
        QCOMPARE(layout.edges.size(), std::size_t{3});
        for (std::size_t i = 0; i < in.edges.size(); ++i) {
            const auto& path = layout.edges[i];
            QCOMPARE(path.from, in.edges[i].from);
            QCOMPARE(path.to, in.edges[i].to);
            QVERIFY(!path.beside);
            // A cubic spline: a start point, then three points a segment.
            QVERIFY(path.points.size() >= 4);
            QCOMPARE((path.points.size() - 1) % 3, std::size_t{0});
            const auto& from = layout.nodes[static_cast<std::size_t>(path.from)];
            const auto& to = layout.nodes[static_cast<std::size_t>(path.to)];
            // It leaves the producer's bottom and its arrow touches the consumer's top.
            QVERIFY(near(path.points.front().y, from.bottom(), 1.0));
            QVERIFY(near(path.arrow_tip.y, to.y, 1.0));
            QVERIFY(path.points.back().y < path.arrow_tip.y);
            for (const auto& p : path.points)
                QVERIFY(layout.bounds.contains({p.x, p.y, 0, 0}));
        }
    }

    void aGroupWithoutAClusterIsItsMembersWithAMargin() {
        auto in = chain(3);
        in.groups = {{0, 1}, {2}};
        const auto layout = layout::dot_layout(in, "groups");
        QCOMPARE(layout.kernels.size(), std::size_t{2});
        const auto& n = layout.nodes;
        const Rect pair = n[0].united(n[1]);
        QCOMPARE(layout.kernels[0].x, pair.x - 8);
        QCOMPARE(layout.kernels[0].y, pair.y - 8);
        QCOMPARE(layout.kernels[0].width, pair.width + 16);
        QCOMPARE(layout.kernels[0].height, pair.height + 16);
        const Rect lone = padded(n[2], 8);
        QCOMPARE(layout.kernels[1].x, lone.x);
        QCOMPARE(layout.kernels[1].height, lone.height);
        QVERIFY(layout.bounds.contains(layout.kernels[0]));
    }

    // Box 1 beside the chain 0 -> 2 -> 3, all four fed by box 0; 0 and 2 a cluster. Dot keeps
    // box 1 out of the cluster's rectangle.
    void aClusterHoldsItsMembersAndNothingElse() {
        DotInput in;
        in.sizes.assign(4, {72, 36});
        in.edges = {{0, 1, 0}, {0, 2, 0}, {2, 3, 1}, {1, 3, 2}};
        in.light.assign(in.edges.size(), false);
        in.groups = {{0, 2}, {3}};
        in.clustered = true;
        const auto layout = layout::dot_layout(in, "a cluster");
        const auto& group = layout.kernels[0];
        QVERIFY(group.contains(layout.nodes[0]));
        QVERIFY(group.contains(layout.nodes[2]));
        QVERIFY(!test::overlap(group, layout.nodes[1]));
        QVERIFY(!test::overlap(group, layout.nodes[3]));
        // A group of one is its box with the margin, cluster or not.
        const Rect lone = padded(layout.nodes[3], 8);
        QCOMPARE(layout.kernels[1].x, lone.x);
        QCOMPARE(layout.kernels[1].width, lone.width);
    }

    void edgesPastTheBudgetAreDrawnBeside() {
        // A chain of six and a long edge 0 -> 5 that the chain already implies: four virtual
        // nodes, over a budget of two.
        auto in = chain(6);
        in.edges.push_back({0, 5, 9});
        in.light.push_back(false);
        in.virtual_node_budget = 2;
        const auto layout = layout::dot_layout(in, "a long edge");
        QCOMPARE(layout.edges.size(), std::size_t{6});
        for (std::size_t i = 0; i < 5; ++i)
            QVERIFY(!layout.edges[i].beside);
        const auto& arc = layout.edges[5];
        QVERIFY(arc.beside);
        QCOMPARE(arc.from, 0);
        QCOMPARE(arc.to, 5);
        // From the producer's right side, right of every box it passes, to the consumer's.
        QVERIFY(arc.points.front().x >= layout.nodes[0].right() - 0.01);
        for (std::size_t i = 1; i < 5; ++i)
            for (std::size_t p = 1; p + 1 < arc.points.size(); p += 3)
                QVERIFY(arc.points[p].x >= layout.nodes[i].right());
        QVERIFY(arc.arrow_tip.x >= layout.nodes[5].right() - 0.01);
        for (const auto& p : arc.points)
            QVERIFY(layout.bounds.contains({p.x, p.y, 0, 0}));
        // With room for it, dot draws it.
        in.virtual_node_budget = 100;
        QVERIFY(!layout::dot_layout(in, "a long edge").edges[5].beside);
    }
};

QTEST_GUILESS_MAIN(DotLayoutTest)
#include "dot_layout_test.moc"
