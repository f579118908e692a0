// The NAME=DIMS form of --input-shape.
#include "core/graph/input_shape.hpp"
#include "core/input_error.hpp"

#include <QtTest>

using cleave::graph::parse_input_shape;

class InputShapeTest : public QObject {
    Q_OBJECT

private slots:
    void parsesNameAndDims() {
        const auto [name, dims] = parse_input_shape("input=1x3x160x160");
        QCOMPARE(name, std::string("input"));
        QCOMPARE(dims, (cleave::graph::Shape{1, 3, 160, 160}));
    }

    void commasSeparateDimsToo() {
        const auto [name, dims] = parse_input_shape("past_key_values.0.key=1,2,512,32");
        QCOMPARE(name, std::string("past_key_values.0.key"));
        QCOMPARE(dims, (cleave::graph::Shape{1, 2, 512, 32}));
    }

    void nameMayContainEquals() { QCOMPARE(parse_input_shape("a=b=7").first, std::string("a=b")); }

    void malformedSpecsAreRefused_data() {
        QTest::addColumn<QString>("spec");
        QTest::newRow("no name") << "=1x3";
        QTest::newRow("no equals") << "input";
        QTest::newRow("no dims") << "input=";
        QTest::newRow("zero dim") << "input=1x0";
        QTest::newRow("negative") << "input=1x-3";
        QTest::newRow("letters") << "input=1xNx3";
        QTest::newRow("trailing x") << "input=1x3x";
        QTest::newRow("trailing comma") << "input=1,3,";
        QTest::newRow("both separators") << "input=1,3x4";
    }
    void malformedSpecsAreRefused() {
        QFETCH(QString, spec);
        try {
            parse_input_shape(spec.toStdString());
            QFAIL("accepted");
        } catch (const cleave::InputError& e) {
            QVERIFY2(QString(e.what()).startsWith("--input-shape: " + spec + ": "), e.what());
            QVERIFY(QString(e.what()).endsWith(
                "expected NAME=DIMS such as input=1x3x224x224 or input=1,3,224,224"));
        }
    }
};

QTEST_GUILESS_MAIN(InputShapeTest)
#include "input_shape_test.moc"
