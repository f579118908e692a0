// The properties dock on ResNet-18 under ort-cpu: the first node (op, name, attributes sorted,
// tensors with dtype and shape, MACs, its kernel) and the first kernel (type, members, costs),
// and links that ask for the node or kernel they name.
#include "core/fusion/rule_engine.hpp"
#include "core/graph/onnx_import.hpp"
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
        auto kernels = std::make_shared<const cleave::fusion::KernelGraph>(
            cleave::fusion::fuse_with_rules(*model, cleave::fusion::find_rule_set("ort-cpu")));
        dock_.setGraph(model, kernels);
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

    void linksAskForWhatTheyName() {
        dock_.showKernel(0);
        QSignalSpy nodes(&dock_, &PropertiesDock::nodeRequested);
        QSignalSpy kernels(&dock_, &PropertiesDock::kernelRequested);
        auto* browser = dock_.findChild<QTextBrowser*>();
        emit browser->anchorClicked(QUrl("node:2"));
        emit browser->anchorClicked(QUrl("kernel:7"));
        QCOMPARE(nodes.count(), 1);
        QCOMPARE(nodes.first().first().toInt(), 2);
        QCOMPARE(kernels.count(), 1);
        QCOMPARE(kernels.first().first().toInt(), 7);
    }

    void outOfRangeShowsNothing() {
        dock_.showNode(100000);
        QCOMPARE(dock_.shownNode(), -1);
        dock_.showKernel(-1);
        QCOMPARE(dock_.shownKernel(), -1);
    }

private:
    PropertiesDock dock_;
};

QTEST_MAIN(PropertiesDockTest)
#include "properties_dock_test.moc"
