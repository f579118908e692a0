// Element types numbered as ONNX numbers them: each one's name, size in bytes and whether it is
// floating; values ONNX does not define are Undefined.
#include "core/graph/data_type.hpp"

#include <QtTest>

using namespace cleave::graph;

class DataTypeTest : public QObject {
    Q_OBJECT

private slots:
    void everyTypeHasItsOnnxNumber() {
        QCOMPARE(static_cast<int>(DataType::Float32), 1);
        QCOMPARE(static_cast<int>(DataType::Int64), 7);
        QCOMPARE(static_cast<int>(DataType::Float16), 10);
        QCOMPARE(static_cast<int>(DataType::BFloat16), 16);
    }

    void sizesInBytes_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("bytes");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("floating");
        const struct {
            DataType type;
            int bytes;
            const char* name;
            bool floating;
        } rows[] = {
            {DataType::Undefined, 0, "undefined", false},
            {DataType::Float32, 4, "float32", true},
            {DataType::Uint8, 1, "uint8", false},
            {DataType::Int8, 1, "int8", false},
            {DataType::Uint16, 2, "uint16", false},
            {DataType::Int16, 2, "int16", false},
            {DataType::Int32, 4, "int32", false},
            {DataType::Int64, 8, "int64", false},
            {DataType::String, 0, "string", false},
            {DataType::Bool, 1, "bool", false},
            {DataType::Float16, 2, "float16", true},
            {DataType::Float64, 8, "float64", true},
            {DataType::Uint32, 4, "uint32", false},
            {DataType::Uint64, 8, "uint64", false},
            {DataType::Complex64, 8, "complex64", true},
            {DataType::Complex128, 16, "complex128", true},
            {DataType::BFloat16, 2, "bfloat16", true},
            {DataType::Float8E4M3FN, 1, "float8e4m3fn", true},
            {DataType::Float8E4M3FNUZ, 1, "float8e4m3fnuz", true},
            {DataType::Float8E5M2, 1, "float8e5m2", true},
            {DataType::Float8E5M2FNUZ, 1, "float8e5m2fnuz", true},
        };
        for (const auto& r : rows)
            QTest::newRow(r.name) << static_cast<int>(r.type) << r.bytes << QString(r.name)
                                  << r.floating;
    }

    void sizesInBytes() {
        QFETCH(int, type);
        QFETCH(int, bytes);
        QFETCH(QString, name);
        QFETCH(bool, floating);
        const auto t = static_cast<DataType>(type);
        QCOMPARE(element_bytes(t), static_cast<std::size_t>(bytes));
        QCOMPARE(QString::fromUtf8(to_string(t).data(), static_cast<int>(to_string(t).size())),
                 name);
        QCOMPARE(is_floating(t), floating);
        QCOMPARE(data_type_from_onnx(type), t);
    }

    // Opset 21's uint4 and int4 pack two elements in a byte: no whole byte each.
    void fourBitTypesFillHalfAByte() {
        for (const auto t : {DataType::Uint4, DataType::Int4}) {
            QCOMPARE(element_bits(t), std::size_t{4});
            QCOMPARE(element_bytes(t), std::size_t{0});
            QVERIFY(!is_floating(t));
            QCOMPARE(storage_bytes(t, 15), std::int64_t(8));
            QCOMPARE(storage_bytes(t, 16), std::int64_t(8));
        }
        QCOMPARE(data_type_from_onnx(21), DataType::Uint4);
        QCOMPARE(data_type_from_onnx(22), DataType::Int4);
        QCOMPARE(to_string(DataType::Int4), std::string_view("int4"));
        QCOMPARE(storage_bytes(DataType::Float32, 3), std::int64_t(12));
        QCOMPARE(storage_bytes(DataType::String, 3), std::int64_t(-1));
        QCOMPARE(storage_bytes(DataType::Float64, std::int64_t(1) << 61), std::int64_t(-1));
    }

    void valuesOnnxDoesNotDefineAreUndefined() {
        for (const int value : {-1, 23, 1000})
            QCOMPARE(data_type_from_onnx(value), DataType::Undefined);
        const auto beyond = static_cast<DataType>(40);
        QCOMPARE(to_string(beyond), std::string_view("undefined"));
        QCOMPARE(element_bytes(beyond), std::size_t{0});
        QVERIFY(!is_floating(beyond));
    }
};

QTEST_GUILESS_MAIN(DataTypeTest)
#include "data_type_test.moc"
