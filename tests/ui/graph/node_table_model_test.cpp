// The node table over resnet18: columns, number formatting and alignment, numeric sorting and
// the text a filter searches.
#include "core/graph/onnx_import.hpp"
#include "ui/graph/node_table_model.hpp"

#include <QtTest>

using cleave::ui::NodeTableModel;

class NodeTableModelTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        table_.setModel(std::make_shared<const cleave::graph::Model>(cleave::graph::load_model(
            QString(CLEAVE_EXAMPLE_MODELS_DIR "/resnet18.onnx").toStdString())));
    }

    void hasOneRowPerNodeInTopologicalOrder() {
        QCOMPARE(table_.rowCount(), 69);
        QCOMPARE(table_.index(0, NodeTableModel::Name).data().toString(), QString("/conv1/Conv"));
        QCOMPARE(table_.index(68, NodeTableModel::Name).data().toString(), QString("/fc/Gemm"));
    }

    void headersNameTheColumns() {
        QStringList headers;
        for (int c = NodeTableModel::Name; c < NodeTableModel::ColumnCount; ++c)
            headers << table_.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
        QCOMPARE(headers,
                 (QStringList{"Name", "Op", "Output shape", "Parameters", "MACs", "FLOPs"}));
    }

    void showsOpAndOutputShape() {
        QCOMPARE(table_.index(0, NodeTableModel::Op).data().toString(), QString("Conv"));
        QCOMPARE(table_.index(0, NodeTableModel::OutputShape).data().toString(),
                 QString("1x64x112x112"));
    }

    void numbersHaveThousandsSeparators() {
        QCOMPARE(table_.index(0, NodeTableModel::Parameters).data().toString(), QString("9,408"));
        QCOMPARE(table_.index(0, NodeTableModel::Macs).data().toString(), QString("118,013,952"));
        QCOMPARE(table_.index(0, NodeTableModel::Flops).data().toString(), QString("236,027,904"));
    }

    void zeroShowsAsDash() {
        QCOMPARE(table_.index(2, NodeTableModel::Op).data().toString(), QString("Relu"));
        QCOMPARE(table_.index(2, NodeTableModel::Macs).data().toString(), QString("–"));
        QCOMPARE(table_.index(2, NodeTableModel::Macs).data(NodeTableModel::SortRole).toLongLong(),
                 0LL);
    }

    void numbersAreRightAligned() {
        for (int c : {NodeTableModel::Parameters, NodeTableModel::Macs, NodeTableModel::Flops}) {
            const auto alignment =
                table_.index(0, c).data(Qt::TextAlignmentRole).value<Qt::Alignment>();
            QVERIFY(alignment & Qt::AlignRight);
            const auto header =
                table_.headerData(c, Qt::Horizontal, Qt::TextAlignmentRole).value<Qt::Alignment>();
            QVERIFY(header & Qt::AlignRight);
        }
    }

    void numbersSortAsNumbers() {
        const QVariant macs = table_.index(0, NodeTableModel::Macs).data(NodeTableModel::SortRole);
        QCOMPARE(macs.typeId(), QMetaType::LongLong);
        QCOMPARE(macs.toLongLong(), 118013952LL);
    }

    void searchTextHoldsNameOpAndShape() {
        QCOMPARE(table_.index(0, 0).data(NodeTableModel::SearchRole).toString(),
                 QString("/conv1/Conv\nConv\n1x64x112x112"));
    }

private:
    NodeTableModel table_;
};

QTEST_MAIN(NodeTableModelTest)
#include "node_table_model_test.moc"
