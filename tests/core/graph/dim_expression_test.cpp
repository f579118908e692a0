// Symbolic dims as exporters write them: names and integer arithmetic on names.
#include "core/graph/dim_expression.hpp"
#include "core/input_error.hpp"

#include <QtTest>

using cleave::graph::dim_expression_names;
using cleave::graph::DimValues;
using cleave::graph::evaluate_dim_expression;
using cleave::graph::is_dim_name;

namespace {

std::optional<std::int64_t> eval(const char* text) {
    const DimValues values{
        {"past_sequence_length", 1024}, {"sequence_length", 1}, {"s0", 3}, {"s1", 5}, {"p.q", 2}};
    return evaluate_dim_expression(text, values);
}

QString refusal(const char* text) {
    try {
        eval(text);
    } catch (const cleave::InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class DimExpressionTest : public QObject {
    Q_OBJECT

private slots:
    void exportersExpressionsEvaluate() {
        QCOMPARE(eval("past_sequence_length + 1"), std::optional<std::int64_t>(1025));
        QCOMPARE(eval("past_sequence_length+sequence_length"), std::optional<std::int64_t>(1025));
        QCOMPARE(eval("2*s0"), std::optional<std::int64_t>(6));
        QCOMPARE(eval("s0 + s1"), std::optional<std::int64_t>(8));
        QCOMPARE(eval("s0"), std::optional<std::int64_t>(3));
        QCOMPARE(eval("p.q"), std::optional<std::int64_t>(2));
    }

    void precedenceAndParentheses() {
        QCOMPARE(eval("1 + 2*s0"), std::optional<std::int64_t>(7));
        QCOMPARE(eval("(1 + 2)*s0"), std::optional<std::int64_t>(9));
        QCOMPARE(eval("s1 - s0 - 1"), std::optional<std::int64_t>(1));
        QCOMPARE(eval("-s0 + 10"), std::optional<std::int64_t>(7));
        QCOMPARE(eval(" ( s1 * ( s0 - 1 ) ) "), std::optional<std::int64_t>(10));
    }

    void divisionRoundsDown() {
        QCOMPARE(eval("past_sequence_length / 2"), std::optional<std::int64_t>(512));
        QCOMPARE(eval("s1 // 2"), std::optional<std::int64_t>(2));
        QCOMPARE(eval("(s1 - 10) / 3"), std::optional<std::int64_t>(-2));
        QCOMPARE(eval("2 + s1/s0*4"), std::optional<std::int64_t>(6));
        QCOMPARE(eval("unbound / 0"), std::nullopt);
    }

    void anUnboundNameLeavesNoValue() {
        QCOMPARE(eval("total_sequence_length"), std::nullopt);
        QCOMPARE(eval("s0 + s9"), std::nullopt);
    }

    void whatDoesNotParseIsRefused_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("why");
        QTest::newRow("empty") << ""
                               << "it ends where a number, a name or '(' was expected";
        QTest::newRow("dangling +") << "s0 +"
                                    << "it ends where";
        QTest::newRow("unclosed") << "(s0 + 1"
                                  << "a '(' is not closed";
        QTest::newRow("modulo") << "s0 % 2"
                                << "unexpected '%' at character 4";
        QTest::newRow("by zero") << "s0 / (s1 - 5)"
                                 << "it divides by 0";
        QTest::newRow("two names") << "batch_size x num_heads"
                                   << "unexpected 'x' at character 12";
        QTest::newRow("number into name") << "2s0"
                                          << "a number runs into a name";
        QTest::newRow("too big") << "99999999999999999999"
                                 << "does not fit in 64 bits";
        QTest::newRow("overflow") << "4611686018427387904 * 2"
                                  << "does not fit in 64 bits";
    }
    void whatDoesNotParseIsRefused() {
        QFETCH(QString, text);
        QFETCH(QString, why);
        const QString message = refusal(text.toUtf8().constData());
        QVERIFY2(message.startsWith("dim '" + text + "': "), qPrintable(message));
        QVERIFY2(message.contains(why), qPrintable(message));
        QVERIFY2(message.endsWith("expected integers and names joined by + - * / and parentheses"),
                 qPrintable(message));
    }

    void namesAreListedInOrder() {
        QCOMPARE(dim_expression_names("past_sequence_length + sequence_length + 1"),
                 (std::vector<std::string>{"past_sequence_length", "sequence_length"}));
        QCOMPARE(dim_expression_names("2*s0 + s0*s1"), (std::vector<std::string>{"s0", "s1"}));
        QCOMPARE(dim_expression_names("12"), std::vector<std::string>{});
    }

    void bareNames() {
        QVERIFY(is_dim_name("batch_size"));
        QVERIFY(is_dim_name("s0"));
        QVERIFY(is_dim_name("_x.y"));
        QVERIFY(!is_dim_name("past_sequence_length + 1"));
        QVERIFY(!is_dim_name("0s"));
        QVERIFY(!is_dim_name(""));
    }
};

QTEST_GUILESS_MAIN(DimExpressionTest)
#include "dim_expression_test.moc"
