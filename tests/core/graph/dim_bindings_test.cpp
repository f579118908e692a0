// What a user binds symbolic dims to: --dim NAME=VALUE, --batch, --prefill, --decode, and the
// studio's one-line form of the same.
#include "core/graph/dim_bindings.hpp"
#include "core/input_error.hpp"

#include <QtTest>

using cleave::graph::check_dim_bindings;
using cleave::graph::dim_bindings_text;
using cleave::graph::DimBindings;
using cleave::graph::parse_dim_binding;
using cleave::graph::parse_dim_bindings_text;

namespace {

QString refusal(const DimBindings& bindings) {
    try {
        check_dim_bindings(bindings);
    } catch (const cleave::InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class DimBindingsTest : public QObject {
    Q_OBJECT

private slots:
    void prefillAndDecodeGiveTheTokenCounts() {
        DimBindings prefill;
        prefill.prefill = 512;
        QCOMPARE(prefill.new_tokens(), std::optional<std::int64_t>(512));
        QCOMPARE(prefill.cached_tokens(), std::optional<std::int64_t>(0));
        DimBindings decode;
        decode.decode = 1024;
        QCOMPARE(decode.new_tokens(), std::optional<std::int64_t>(1));
        QCOMPARE(decode.cached_tokens(), std::optional<std::int64_t>(1024));
        QCOMPARE(DimBindings().new_tokens(), std::nullopt);
        QVERIFY(DimBindings().empty());
        QVERIFY(!decode.empty());
    }

    void badValuesAreRefusedNamingTheFlag() {
        DimBindings b;
        b.batch = 0;
        QCOMPARE(refusal(b), QString("--batch: 0: a batch holds at least one sequence; expected a "
                                     "whole number >= 1"));
        b = {};
        b.prefill = 0;
        QCOMPARE(refusal(b), QString("--prefill: 0: a prefill reads at least one new token; "
                                     "expected a whole number >= 1"));
        b = {};
        b.decode = -3;
        QCOMPARE(refusal(b), QString("--decode: -3: the cached tokens cannot be negative; "
                                     "expected a whole number >= 0"));
        b = {};
        b.names["s0"] = -1;
        QVERIFY(refusal(b).startsWith("--dim: s0=-1: a dim cannot be negative"));
        b = {};
        b.prefill = 8;
        b.decode = 8;
        QVERIFY(refusal(b).contains("for a prefill or for a decode step, not both"));
    }

    void zeroCachedTokensIsADecodeOfTheFirstToken() {
        DimBindings b;
        b.decode = 0;
        QCOMPARE(refusal(b), QString());
    }

    void dimFlagParses() {
        QCOMPARE(parse_dim_binding("sequence_length=128"),
                 (std::pair<std::string, std::int64_t>{"sequence_length", 128}));
        QCOMPARE(parse_dim_binding("past_sequence_length + 1=1025").first,
                 std::string("past_sequence_length + 1"));
        QCOMPARE(parse_dim_binding("s2=0").second, std::int64_t(0));
    }

    void badDimFlagsAreRefused_data() {
        QTest::addColumn<QString>("spec");
        QTest::newRow("no equals") << "s0";
        QTest::newRow("no name") << "=4";
        QTest::newRow("no value") << "s0=";
        QTest::newRow("letters") << "s0=four";
        QTest::newRow("negative") << "s0=-4";
    }
    void badDimFlagsAreRefused() {
        QFETCH(QString, spec);
        try {
            parse_dim_binding(spec.toStdString());
            QFAIL("accepted");
        } catch (const cleave::InputError& e) {
            QVERIFY2(QString(e.what()).startsWith("--dim: " + spec + ": "), e.what());
            QVERIFY(QString(e.what()).endsWith("expected NAME=VALUE such as sequence_length=128"));
        }
    }

    void textFormRoundTrips() {
        const DimBindings b = parse_dim_bindings_text(" decode=1024, batch=2  s0=3 ");
        QCOMPARE(b.decode, std::optional<std::int64_t>(1024));
        QCOMPARE(b.batch, std::optional<std::int64_t>(2));
        QCOMPARE(b.names, (std::map<std::string, std::int64_t>{{"s0", 3}}));
        QCOMPARE(dim_bindings_text(b), std::string("batch=2 decode=1024 s0=3"));
        QCOMPARE(parse_dim_bindings_text(dim_bindings_text(b)), b);
        QVERIFY(parse_dim_bindings_text("").empty());
    }

    void badTextIsRefused_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("no value") << "decode"
                                  << "dims: decode: expected KEY=VALUE";
        QTest::newRow("no key") << "=3"
                                << "dims: =3: expected KEY=VALUE";
        QTest::newRow("zero prefill") << "prefill=0"
                                      << "--prefill: 0: a prefill reads";
        QTest::newRow("both") << "prefill=2 decode=3"
                              << "not both";
    }
    void badTextIsRefused() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        try {
            parse_dim_bindings_text(text.toStdString());
            QFAIL("accepted");
        } catch (const cleave::InputError& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(DimBindingsTest)
#include "dim_bindings_test.moc"
