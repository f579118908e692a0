// The properties dock on ResNet-18 under ort-cpu: the first node (op, name, attributes sorted,
// tensors with dtype and shape, MACs, its kernel) and the first kernel (type, members, costs),
// and links that select the node or kernel they name in the document, which the dock then shows.
#include "core/graph/onnx_import.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/graph/properties_dock.hpp"

#include <QSignalSpy>
#include <QTextBrowser>
#include <QUrl>
#include <QtTest>

using cleave::ui::PropertiesDock;

namespace {

// The dock's plain text has one table cell a line: the count cells after the one reading key.
QStringList cellsAfter(const QString& text, const QString& key, int count) {
    const QStringList lines = text.split('\n');
    const auto at = lines.indexOf(key);
    return at < 0 ? QStringList{} : lines.mid(at + 1, count);
}

} // namespace

class PropertiesDockTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        auto model = std::make_shared<const cleave::graph::Model>(
            cleave::graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx"));
        document_.setModel("resnet18.onnx", model); // fused by ort-cpu, the default
    }

    void showsNothingAtFirst() {
        dock_.showNothing();
        QCOMPARE(dock_.shownNode(), -1);
        QCOMPARE(dock_.shownKernel(), -1);
        QVERIFY(dock_.text().startsWith("Click a node or a kernel"));
    }

    void showsANode() {
        dock_.showNode(0);
        QCOMPARE(dock_.shownNode(), 0);
        const QString text = dock_.text();
        QVERIFY2(text.startsWith("Conv\n/conv1/Conv\n"), qPrintable(text));
        QCOMPARE(cellsAfter(text, "Kernel", 1), QStringList{"0 FusedConv (3 nodes)"});
        // Attributes in name order.
        QCOMPARE(cellsAfter(text, "dilations", 1), QStringList{"[1, 1]"});
        QCOMPARE(cellsAfter(text, "kernel_shape", 1), QStringList{"[7, 7]"});
        QCOMPARE(cellsAfter(text, "strides", 1), QStringList{"[2, 2]"});
        QVERIFY(text.indexOf("dilations") < text.indexOf("group"));
        QVERIFY(text.indexOf("group") < text.indexOf("kernel_shape"));
        QVERIFY(text.indexOf("kernel_shape") < text.indexOf("pads"));
        QCOMPARE(cellsAfter(text, "Inputs", 2),
                 (QStringList{"0", "input float32 1x3x224x224 (model input)"}));
        QCOMPARE(cellsAfter(text, "MACs", 1), QStringList{"118,013,952"});
        QCOMPARE(cellsAfter(text, "Parameters", 1), QStringList{"9,408"});
        QCOMPARE(cellsAfter(text, "Weight bytes", 1), QStringList{"37,632 (36.75 KiB)"});
    }

    void showsAKernel() {
        dock_.showKernel(0);
        QCOMPARE(dock_.shownKernel(), 0);
        const QString text = dock_.text();
        QVERIFY2(text.startsWith("FusedConv\nKernel 0 of 40: /conv1/Conv\n"), qPrintable(text));
        QCOMPARE(cellsAfter(text, "Nodes", 6),
                 (QStringList{"Conv", "/conv1/Conv", "BatchNormalization",
                              "/bn1/BatchNormalization", "Relu", "/relu/Relu"}));
        QCOMPARE(cellsAfter(text, "MACs", 1), QStringList{"118,013,952"});
    }

    void linksSelectWhatTheyName() {
        dock_.showKernel(0);
        QSignalSpy selected(&document_, &cleave::ui::StudioDocument::selectionChanged);
        auto* browser = dock_.findChild<QTextBrowser*>();
        emit browser->anchorClicked(QUrl("node:2"));
        QCOMPARE(document_.selection().node, 2);
        QCOMPARE(dock_.shownNode(), 2);
        emit browser->anchorClicked(QUrl("kernel:7"));
        QCOMPARE(document_.selection().kernel, 7);
        QCOMPARE(dock_.shownKernel(), 7);
        QCOMPARE(selected.count(), 2);
    }

    void outOfRangeShowsNothing() {
        dock_.showNode(100000);
        QCOMPARE(dock_.shownNode(), -1);
        dock_.showKernel(-1);
        QCOMPARE(dock_.shownKernel(), -1);
    }

private:
    cleave::ui::StudioDocument document_;
    PropertiesDock dock_{&document_};
};

QTEST_MAIN(PropertiesDockTest)
#include "properties_dock_test.moc"
